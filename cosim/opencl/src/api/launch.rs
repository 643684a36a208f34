//! `clEnqueueNDRangeKernel`: the launch geometry, the arguments, and the
//! dispatch on the context's device thread: host-pointer buffers
//! synchronised around it ([`Mirror`]), and for a kernel built from source
//! seed 002's dispatch-time alias analysis and variant selection
//! (`cosim::workload::alias::select_compiled`) with each buffer argument's
//! region cut to the buffer (a sub-buffer ends where it ends, not at the end
//! of its parent's allocation).

#![allow(non_snake_case)]

use std::ffi::c_void;

use sw::driver::{Arg, LaunchDims};

use super::event::new_event;
use super::memory::{Mirror, BUFFERS};
use super::program::KERNELS;
use super::queue::QUEUES;
use crate::cl::*;

/// The launch geometry of an NDRange: `work_dim` sizes, the local size
/// given or (null) the kernel's `reqd_work_group_size` or else chosen as
/// below, and the global work offset (zero when null). A local size other
/// than the required one is `CL_INVALID_WORK_GROUP_SIZE`.
///
/// # Safety
/// `global_offset` and `local` must be null or valid for `work_dim` sizes,
/// `global` valid for `work_dim` sizes.
unsafe fn dims(
    work_dim: cl_uint,
    global_offset: *const usize,
    global: *const usize,
    local: *const usize,
    reqd: Option<[u32; 3]>,
) -> Result<(LaunchDims, [u64; 3]), cl_int> {
    if !(1..=3).contains(&work_dim) {
        return Err(CL_INVALID_WORK_DIMENSION);
    }
    if global.is_null() {
        return Err(CL_INVALID_GLOBAL_WORK_SIZE);
    }
    let n = work_dim as usize;
    let read = |p: *const usize, i: usize| -> usize {
        // SAFETY: `work_dim` entries, by the contract.
        unsafe { *p.add(i) }
    };
    let mut offset = [0u64; 3];
    if !global_offset.is_null() {
        for (i, o) in offset.iter_mut().enumerate().take(n) {
            // The specification: offset + size must fit in a size_t.
            read(global_offset, i)
                .checked_add(read(global, i))
                .ok_or(CL_INVALID_GLOBAL_OFFSET)?;
            *o = read(global_offset, i) as u64;
        }
    }
    let mut grid = [1u32; 3];
    let mut workgroup = [1u32; 3];
    for i in 0..n {
        grid[i] = u32::try_from(read(global, i))
            .ok()
            .filter(|&g| g > 0)
            .ok_or(CL_INVALID_GLOBAL_WORK_SIZE)?;
        workgroup[i] = if let (true, Some(r)) = (local.is_null(), reqd) {
            Some(r[i])
                .filter(|&l| grid[i] % l == 0)
                .ok_or(CL_INVALID_WORK_GROUP_SIZE)?
        } else if local.is_null() {
            if i == 0 {
                // As a real runtime does: the largest work-group along x
                // that divides the global size, up to 64 work-items (two
                // waves of 32, what AMD's runtime picks for 1D ranges).
                (1..=grid[0].min(64))
                    .rev()
                    .find(|w| grid[0] % w == 0)
                    .unwrap_or(1)
            } else {
                1
            }
        } else {
            u32::try_from(read(local, i))
                .ok()
                .filter(|&l| l > 0 && grid[i] % l == 0)
                .ok_or(CL_INVALID_WORK_GROUP_SIZE)?
        };
    }
    if workgroup.iter().product::<u32>() > 1024 || reqd.is_some_and(|r| r != workgroup) {
        return Err(CL_INVALID_WORK_GROUP_SIZE);
    }
    Ok((LaunchDims { grid, workgroup }, offset))
}

/// The first dimension with a non-zero `offset` whose
/// `hidden_global_offset_{x,y,z}` argument the kernel's metadata lacks: the
/// kernel computes its global ids without the offset (gpusim's compiler,
/// for a kernel that never reads it), so running it would give every
/// work-item the wrong id. Code objects from clang read the offsets there
/// (ockl's `get_global_id` adds them) and list them whenever the kernel reads
/// its implicit arguments.
fn offset_unread(kernel: &arch::code_object::Kernel, offset: [u64; 3]) -> Option<usize> {
    use arch::code_object::ValueKind as V;
    let kinds = [
        V::HiddenGlobalOffsetX,
        V::HiddenGlobalOffsetY,
        V::HiddenGlobalOffsetZ,
    ];
    (0..3).find(|&d| {
        offset[d] != 0
            && !kernel
                .metadata
                .args
                .iter()
                .any(|a| a.value_kind == kinds[d])
    })
}

/// `clEnqueueNDRangeKernel`: dispatches on the device thread and waits.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clEnqueueNDRangeKernel(
    queue: *mut c_void,
    kernel: *mut c_void,
    work_dim: cl_uint,
    global_offset: *const usize,
    global: *const usize,
    local: *const usize,
    num_events: cl_uint,
    wait_list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueNDRangeKernel", || {
        // SAFETY: the same contract.
        unsafe {
            ndrange(
                queue,
                kernel,
                work_dim,
                global_offset,
                global,
                local,
                num_events,
                wait_list,
                event,
                None,
            )
        }
    })
}

/// The body of `clEnqueueNDRangeKernel`, with the kernel's arguments as
/// they are now or, for a command that was deferred, `args`: the ones it
/// had when it was enqueued.
///
/// # Safety
/// The contract of `clEnqueueNDRangeKernel`.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn ndrange(
    queue: *mut c_void,
    kernel: *mut c_void,
    work_dim: cl_uint,
    global_offset: *const usize,
    global: *const usize,
    local: *const usize,
    num_events: cl_uint,
    wait_list: *const *mut c_void,
    event: *mut *mut c_void,
    args: Option<Vec<Option<super::program::ArgSet>>>,
) -> cl_int {
    {
        let Some((context, device)) = QUEUES.with(queue, |q| (q.context(), q.device())) else {
            return CL_INVALID_COMMAND_QUEUE;
        };
        let Some((kernel_context, program, loaded, args, jit)) = KERNELS.with(kernel, |k| {
            let args =
                args.unwrap_or_else(|| k.args.lock().unwrap_or_else(|p| p.into_inner()).clone());
            (
                k.context(),
                k.program(),
                k.loaded().clone(),
                args,
                k.jit.clone(),
            )
        }) else {
            return CL_INVALID_KERNEL;
        };
        if kernel_context != context {
            return CL_INVALID_CONTEXT;
        }
        // SAFETY: by the contract.
        let reqd = loaded.kernel.metadata.reqd_workgroup_size;
        let (dims, offset) = match unsafe { dims(work_dim, global_offset, global, local, reqd) } {
            Ok(d) => d,
            Err(e) => return e,
        };
        // A kernel built without the hidden offsets runs, for a non-zero
        // offset, as its program's variant that has them.
        let (loaded, jit) = match offset_unread(&loaded.kernel, offset) {
            None => (loaded, jit),
            Some(d) => match super::program::with_global_offsets(program, &loaded.kernel.name) {
                Some((variant, variant_jit)) => (variant, jit.map(|_| variant_jit)),
                None => {
                    eprintln!(
                        "gpusim-opencl: kernel {}: a global work offset along dimension {d}, \
                         but the kernel does not read hidden_global_offset_{} (a binary \
                         without them cannot be rebuilt from source)",
                        loaded.kernel.name,
                        ["x", "y", "z"][d]
                    );
                    return CL_INVALID_GLOBAL_OFFSET;
                }
            },
        };
        // SAFETY: by the contract.
        if let Err(e) = unsafe { super::deferred::check_wait_list(num_events, wait_list, context) }
        {
            return e;
        }
        let Some(args) = args.into_iter().collect::<Option<Vec<_>>>() else {
            return CL_INVALID_KERNEL_ARGS;
        };
        // Each buffer argument's size (seed 002's regions end there) and the
        // host-pointer buffers among them.
        let (bounds, mirrors): (Vec<Option<u64>>, Vec<Option<Mirror>>) = args
            .iter()
            .map(|(_, h)| {
                h.and_then(|h| {
                    BUFFERS.with(h as *const c_void, |m| (m.allocation.size, Mirror::from(m)))
                })
                .map_or((None, None), |(size, mirror)| (Some(size), mirror))
            })
            .unzip();
        let mirrors: Vec<Mirror> = mirrors.into_iter().flatten().collect();
        let args: Vec<Arg> = args.into_iter().map(|(a, _)| a).collect();
        let kernel = loaded.clone();
        let stats = super::platform::settings()
            .ok()
            .and_then(|s| s.stats.clone());
        let ran = device.call(move |s| {
            for m in &mirrors {
                m.push(s)?;
            }
            let d = s.driver();
            let (selected, variant) = match &jit {
                Some((source, backend)) => {
                    let (run, variant) = cosim::workload::alias::select_compiled(
                        d, source, backend, &kernel, &args, dims, &bounds,
                    )
                    .map_err(|e| e.to_string())?;
                    (Some(run), variant)
                }
                None => (None, None),
            };
            let waited = d
                .dispatch_ndrange(
                    selected.as_ref().unwrap_or(&kernel),
                    dims,
                    sw::driver::kernarg::NdRange {
                        global_offset: offset,
                        work_dim: work_dim as u16,
                    },
                    &args,
                )
                .and_then(|dispatch| d.wait(dispatch.fence))
                .map_err(|e| e.to_string());
            // What the kernel printed (OpenCL `printf`), at the completion
            // of its dispatch, before the enqueue returns; also what a
            // dispatch that failed printed before it stopped.
            s.print_printf();
            let d = s.driver();
            if let Some(p) = variant {
                // A variant is compiled once and cached; its loaded copy is
                // per dispatch, as in the workload runner.
                if let Err(e) = d.unload(p) {
                    eprintln!("gpusim-opencl: unloading a seed 002 variant: {e}");
                }
            }
            for m in &mirrors {
                m.pull(s)?;
            }
            if let Some(path) = stats {
                // After every dispatch, so the file is current whenever the
                // application stops (many never release their objects).
                if let Err(e) = crate::core::worker::write_stats(s, &path) {
                    eprintln!("gpusim-opencl: {}: {e}", path.display());
                }
            }
            waited
        });
        let failed = match ran {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some(e.to_string()),
            Err(e) => Some(e),
        };
        if let Some(e) = failed {
            // The application sees only the code: the reason goes to stderr.
            eprintln!("gpusim-opencl: kernel {}: {e}", loaded.kernel.name);
            return CL_OUT_OF_RESOURCES;
        }
        if !event.is_null() {
            // SAFETY: valid for one handle, by the contract.
            unsafe { *event = new_event(queue, context, CL_COMMAND_NDRANGE_KERNEL) };
        }
        CL_SUCCESS
    }
}
