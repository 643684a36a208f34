//! Kernel arguments: the kernarg segment a dispatch passes to its kernel.
//!
//! Explicit arguments go at their metadata offsets: a global buffer as its
//! 64-bit device address, a by-value argument as its bytes, a `__local`
//! pointer (`dynamic_shared_pointer`) as the 32-bit LDS offset the driver
//! assigns after the kernel's static LDS. Hidden arguments (code object v5)
//! are filled from the launch geometry as AMDGPUUsage specifies:
//!
//! | value kind | value |
//! |---|---|
//! | `hidden_block_count_{x,y,z}` | whole workgroups: `grid / workgroup` |
//! | `hidden_group_size_{x,y,z}` | workgroup size |
//! | `hidden_remainder_{x,y,z}` | size of the partial last workgroup: `grid % workgroup` |
//! | `hidden_global_offset_{x,y,z}` | the launch's global work offset ([`NdRange::global_offset`]; 0 unless the OpenCL platform passes one) |
//! | `hidden_grid_dims` | dimensions (1–3): OpenCL's `work_dim` when given ([`NdRange::work_dim`]), else the highest dimension with a size above 1 |
//! | `hidden_dynamic_lds_size` | bytes of LDS the `__local` arguments take |
//! | `hidden_shared_base`, `hidden_private_base` | high 32 bits of the flat apertures (`arch::device`) |
//! | `hidden_printf_buffer` | the dispatch's printf buffer ([`super::printf`]; 0 for device-enqueued work) |
//! | anything else | 0 (no hostcall, heap or queue) |

use arch::code_object::{Kernel, KernelArg, ValueKind};

use super::error::DriverError;

/// LDS a workgroup may use on both modelled GPUs.
pub const MAX_LDS_BYTES: u32 = 64 * 1024;
/// Largest workgroup (work-items) on both modelled GPUs.
pub const MAX_WORKGROUP_ITEMS: u32 = 1024;
/// Minimum kernarg segment alignment (HSA requires 16).
pub const MIN_KERNARG_ALIGN: u64 = 16;

/// Launch geometry: grid and workgroup sizes in work-items per dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaunchDims {
    /// Grid size in work-items (OpenCL global size). Need not be a multiple
    /// of the workgroup: the last workgroup is then partial.
    pub grid: [u32; 3],
    /// Workgroup size in work-items.
    pub workgroup: [u32; 3],
}

impl LaunchDims {
    /// A 1-D launch.
    pub fn linear(grid: u32, workgroup: u32) -> LaunchDims {
        LaunchDims {
            grid: [grid, 1, 1],
            workgroup: [workgroup, 1, 1],
        }
    }

    /// Dimensions used: the highest dimension with a size above 1 (at least 1).
    pub fn dimensions(&self) -> u16 {
        if self.grid[2] > 1 || self.workgroup[2] > 1 {
            3
        } else if self.grid[1] > 1 || self.workgroup[1] > 1 {
            2
        } else {
            1
        }
    }

    /// Workgroups per dimension, counting a partial last one.
    pub fn workgroups(&self) -> [u32; 3] {
        let mut n = [0; 3];
        for (d, slot) in n.iter_mut().enumerate() {
            *slot = self.grid[d].div_ceil(self.workgroup[d].max(1));
        }
        n
    }

    /// Work-items per (full) workgroup.
    pub fn workgroup_items(&self) -> u64 {
        self.workgroup.iter().map(|&w| u64::from(w)).product()
    }

    /// Waves in the whole dispatch when every workgroup is given
    /// `ceil(workgroup_items / wave_size)` waves (partial workgroups are
    /// counted as full: the scratch layout reserves the same slots per group).
    pub fn total_waves(&self, wave_size: u32) -> u64 {
        let groups: u64 = self.workgroups().iter().map(|&g| u64::from(g)).product();
        groups * self.workgroup_items().div_ceil(u64::from(wave_size.max(1)))
    }
}

/// One explicit kernel argument, in kernel-signature order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A global (or constant) pointer: the device address it passes.
    Buffer(u64),
    /// A by-value argument: its little-endian bytes, exactly the size the
    /// metadata gives.
    Value(Vec<u8>),
    /// A `__local` pointer: bytes of LDS to allocate for it.
    Local(u32),
}

impl Arg {
    /// A 32-bit unsigned scalar.
    pub fn u32(v: u32) -> Arg {
        Arg::Value(v.to_le_bytes().to_vec())
    }
    /// A 32-bit signed scalar.
    pub fn i32(v: i32) -> Arg {
        Arg::Value(v.to_le_bytes().to_vec())
    }
    /// A 64-bit unsigned scalar.
    pub fn u64(v: u64) -> Arg {
        Arg::Value(v.to_le_bytes().to_vec())
    }
    /// A single-precision float.
    pub fn f32(v: f32) -> Arg {
        Arg::Value(v.to_le_bytes().to_vec())
    }
    /// A double-precision float.
    pub fn f64(v: f64) -> Arg {
        Arg::Value(v.to_le_bytes().to_vec())
    }

    fn describe(&self) -> String {
        match self {
            Arg::Buffer(a) => format!("a buffer at {a:#x}"),
            Arg::Value(b) => format!("a {}-byte value", b.len()),
            Arg::Local(n) => format!("{n} bytes of LDS"),
        }
    }
}

/// A laid-out kernarg segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernarg {
    /// The segment's bytes (explicit and hidden arguments).
    pub bytes: Vec<u8>,
    /// Required alignment of its device address.
    pub align: u64,
    /// LDS bytes beyond the kernel's static LDS (the `__local` arguments and
    /// their alignment padding): the DISPATCH packet's `group_segment_size`.
    pub dynamic_lds: u32,
    /// LDS offset given to each `__local` argument, in argument order.
    pub local_offsets: Vec<u32>,
}

/// True for the value kinds the driver fills itself.
pub fn is_hidden(kind: &ValueKind) -> bool {
    kind.name().starts_with("hidden_")
}

/// Checks the geometry against the hardware and the kernel's limits.
pub fn check_dims(kernel: &Kernel, dims: &LaunchDims) -> Result<(), DriverError> {
    let bad = |reason: String| DriverError::BadLaunch {
        kernel: kernel.name.clone(),
        reason,
    };
    if dims.grid.contains(&0) || dims.workgroup.contains(&0) {
        return Err(bad(format!(
            "zero size in grid {:?} or workgroup {:?}",
            dims.grid, dims.workgroup
        )));
    }
    let items = dims.workgroup_items();
    let md = &kernel.metadata;
    let limit = match md.max_flat_workgroup_size {
        0 => MAX_WORKGROUP_ITEMS,
        n => n.min(MAX_WORKGROUP_ITEMS),
    };
    if items > u64::from(limit) {
        return Err(bad(format!(
            "workgroup {:?} has {items} work-items; the kernel allows at most {limit}",
            dims.workgroup
        )));
    }
    if let Some(reqd) = md.reqd_workgroup_size {
        if reqd != dims.workgroup {
            return Err(bad(format!(
                "workgroup {:?} differs from the kernel's reqd_work_group_size {reqd:?}",
                dims.workgroup
            )));
        }
    }
    Ok(())
}

/// Hidden-argument values the driver allocates per dispatch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hidden {
    /// Device address of the printf buffer (0: none).
    pub printf_buffer: u64,
    /// OpenCL's launch parameters beyond the geometry.
    pub ndrange: NdRange,
}

/// What an OpenCL NDRange adds to a launch's geometry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NdRange {
    /// The global work offset per dimension (`get_global_id` adds it): the
    /// value of `hidden_global_offset_{x,y,z}`.
    pub global_offset: [u64; 3],
    /// `clEnqueueNDRangeKernel`'s `work_dim` (`get_work_dim`, the value of
    /// `hidden_grid_dims`); 0: the geometry's [`LaunchDims::dimensions`].
    pub work_dim: u16,
}

/// Lays out the kernarg segment of `kernel` for `dims` and `args`, without
/// a printf buffer.
pub fn layout(kernel: &Kernel, dims: &LaunchDims, args: &[Arg]) -> Result<Kernarg, DriverError> {
    layout_with(kernel, dims, args, &Hidden::default())
}

/// Lays out the kernarg segment of `kernel` for `dims` and `args`, with the
/// driver-allocated hidden values of `hidden`.
pub fn layout_with(
    kernel: &Kernel,
    dims: &LaunchDims,
    args: &[Arg],
    hidden: &Hidden,
) -> Result<Kernarg, DriverError> {
    check_dims(kernel, dims)?;
    let md = &kernel.metadata;
    let static_lds = md
        .group_segment_fixed_size
        .max(kernel.descriptor.group_segment_fixed_size);
    let params: Vec<KernelArg> = if md.args.is_empty() && !args.is_empty() {
        // No argument metadata (a v2 object without a metadata note): pack the
        // arguments in order at their natural alignment, as the compiler does.
        sequential_params(args)
    } else {
        md.args.clone()
    };
    let explicit: Vec<&KernelArg> = params
        .iter()
        .filter(|a| !is_hidden(&a.value_kind))
        .collect();
    if explicit.len() != args.len() {
        return Err(DriverError::ArgCount {
            kernel: kernel.name.clone(),
            expected: explicit.len(),
            got: args.len(),
        });
    }
    let size = params
        .iter()
        .map(|a| u64::from(a.offset) + u64::from(a.size))
        .chain([
            u64::from(md.kernarg_segment_size),
            u64::from(kernel.descriptor.kernarg_size),
        ])
        .max()
        .unwrap_or(0);
    let mut bytes = vec![0u8; size as usize];
    let mut lds_end = static_lds;
    let mut local_offsets = Vec::new();

    for (index, (param, arg)) in explicit.iter().zip(args).enumerate() {
        let bad = |reason: String| DriverError::BadArg {
            kernel: kernel.name.clone(),
            index,
            name: param.name.clone().unwrap_or_else(|| "?".into()),
            reason,
        };
        let value: Vec<u8> = match (&param.value_kind, arg) {
            (ValueKind::GlobalBuffer, Arg::Buffer(address)) => {
                if param.size != 8 {
                    return Err(bad(format!(
                        "a {}-byte pointer slot (expected 8)",
                        param.size
                    )));
                }
                address.to_le_bytes().to_vec()
            }
            (ValueKind::ByValue, Arg::Value(v)) => {
                if v.len() != param.size as usize {
                    return Err(bad(format!(
                        "takes {} bytes by value, {} given",
                        param.size,
                        v.len()
                    )));
                }
                v.clone()
            }
            (ValueKind::DynamicSharedPointer, Arg::Local(n)) => {
                let align = param.pointee_align.unwrap_or(4).max(1);
                if !align.is_power_of_two() {
                    return Err(bad(format!(
                        "pointee alignment {align} is not a power of two"
                    )));
                }
                let offset = lds_end.next_multiple_of(align);
                lds_end = offset
                    .checked_add(*n)
                    .filter(|&e| e <= MAX_LDS_BYTES)
                    .ok_or_else(|| {
                        bad(format!(
                            "{n} bytes of LDS at offset {offset} exceed the {MAX_LDS_BYTES}-byte LDS"
                        ))
                    })?;
                local_offsets.push(offset);
                param_value(u64::from(offset), param.size)
            }
            (
                kind @ (ValueKind::GlobalBuffer
                | ValueKind::ByValue
                | ValueKind::DynamicSharedPointer),
                arg,
            ) => {
                let want = match kind {
                    ValueKind::GlobalBuffer => "a buffer",
                    ValueKind::ByValue => "a value",
                    _ => "a local (LDS) size",
                };
                return Err(bad(format!("expects {want}, got {}", arg.describe())));
            }
            (kind, _) => {
                return Err(bad(format!(
                    "argument kind `{kind}` is not supported by gpusim"
                )))
            }
        };
        put(&mut bytes, param, &value).map_err(bad)?;
    }

    let dynamic_lds = lds_end - static_lds;
    for param in params.iter().filter(|a| is_hidden(&a.value_kind)) {
        let v = match param.value_kind {
            ValueKind::HiddenPrintfBuffer => hidden.printf_buffer,
            ValueKind::HiddenGlobalOffsetX => hidden.ndrange.global_offset[0],
            ValueKind::HiddenGlobalOffsetY => hidden.ndrange.global_offset[1],
            ValueKind::HiddenGlobalOffsetZ => hidden.ndrange.global_offset[2],
            ValueKind::HiddenGridDims if hidden.ndrange.work_dim != 0 => {
                u64::from(hidden.ndrange.work_dim)
            }
            ref kind => hidden_value(kind, dims, dynamic_lds),
        };
        put(&mut bytes, param, &param_value(v, param.size)).map_err(|reason| {
            DriverError::BadArg {
                kernel: kernel.name.clone(),
                index: explicit.len(),
                name: param.value_kind.to_string(),
                reason,
            }
        })?;
    }
    Ok(Kernarg {
        bytes,
        align: u64::from(md.kernarg_segment_align)
            .max(MIN_KERNARG_ALIGN)
            .next_power_of_two(),
        dynamic_lds,
        local_offsets,
    })
}

/// The value of a hidden argument.
fn hidden_value(kind: &ValueKind, dims: &LaunchDims, dynamic_lds: u32) -> u64 {
    let (g, w) = (dims.grid, dims.workgroup);
    let d = |i: usize, f: fn(u32, u32) -> u32| u64::from(f(g[i], w[i].max(1)));
    let count = |a: u32, b: u32| a / b;
    let rem = |a: u32, b: u32| a % b;
    let size = |_: u32, b: u32| b;
    match kind {
        ValueKind::HiddenBlockCountX => d(0, count),
        ValueKind::HiddenBlockCountY => d(1, count),
        ValueKind::HiddenBlockCountZ => d(2, count),
        ValueKind::HiddenGroupSizeX => d(0, size),
        ValueKind::HiddenGroupSizeY => d(1, size),
        ValueKind::HiddenGroupSizeZ => d(2, size),
        ValueKind::HiddenRemainderX => d(0, rem),
        ValueKind::HiddenRemainderY => d(1, rem),
        ValueKind::HiddenRemainderZ => d(2, rem),
        ValueKind::HiddenGridDims => u64::from(dims.dimensions()),
        ValueKind::HiddenDynamicLdsSize => u64::from(dynamic_lds),
        // The high halves of the flat apertures: gfx803 code has no
        // `src_shared_base` register and reads them here.
        ValueKind::HiddenSharedBase => arch::device::SHARED_APERTURE_BASE >> 32,
        ValueKind::HiddenPrivateBase => arch::device::PRIVATE_APERTURE_BASE >> 32,
        // Hostcall/heap/queue are absent.
        _ => 0,
    }
}

/// `v` as `size` little-endian bytes (truncated or zero-extended).
fn param_value(v: u64, size: u32) -> Vec<u8> {
    let mut out = vec![0u8; size as usize];
    let le = v.to_le_bytes();
    let n = out.len().min(8);
    out[..n].copy_from_slice(&le[..n]);
    out
}

fn put(bytes: &mut [u8], param: &KernelArg, value: &[u8]) -> Result<(), String> {
    let start = param.offset as usize;
    let slot = bytes.get_mut(start..start + value.len()).ok_or_else(|| {
        format!(
            "offset {} + {} bytes is outside the kernarg segment",
            param.offset,
            value.len()
        )
    })?;
    slot.copy_from_slice(value);
    Ok(())
}

/// Metadata for arguments packed in order at natural alignment.
fn sequential_params(args: &[Arg]) -> Vec<KernelArg> {
    let mut offset = 0u32;
    args.iter()
        .map(|a| {
            let (kind, size) = match a {
                Arg::Buffer(_) => (ValueKind::GlobalBuffer, 8),
                Arg::Value(v) => (ValueKind::ByValue, v.len() as u32),
                Arg::Local(_) => (ValueKind::DynamicSharedPointer, 4),
            };
            let align = size.clamp(1, 8).next_power_of_two();
            offset = offset.next_multiple_of(align);
            let p = KernelArg {
                name: None,
                type_name: None,
                offset,
                size,
                value_kind: kind,
                address_space: None,
                access: None,
                actual_access: None,
                pointee_align: None,
                is_const: false,
                is_restrict: false,
                is_volatile: false,
                is_pipe: false,
            };
            offset += size;
            p
        })
        .collect()
}
