//! Random call sequences with bad arguments: the platform answers each call
//! with one of the codes the specification lists for that entry point,
//! never panics (the panic boundary's counter stays 0) and never crashes.
//!
//! Every call goes through the dispatch table. Handles are live ones,
//! released ones, live ones of another kind, null, or the address of
//! something that is no handle; sizes, offsets, flags, dimensions and wait
//! lists are random, in range or not. Host pointers are null or point at a
//! scratch area at least as large as any size passed with them (a host
//! pointer too short for its size is the application's undefined
//! behaviour, not a platform error).
//!
//! `GPUSIM_FUZZ_CALLS` sets the number of calls (default 20,000: the CI
//! slice) and `GPUSIM_FUZZ_SEED` the seed; the documented full run is
//! `GPUSIM_FUZZ_CALLS=1000000 cargo test --release -p gpusim-opencl --test fuzz`.

mod common;

use common::*;
use gpusim_opencl::api::guard::panics_caught;

type Retain = unsafe extern "C" fn(*mut c_void) -> cl_int;
type Wait = unsafe extern "C" fn(cl_uint, *const *mut c_void) -> cl_int;

/// xorshift64*: reproducible from the seed, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Context,
    Queue,
    Buffer,
    Program,
    Kernel,
    Event,
}

const KINDS: [Kind; 6] = [
    Kind::Context,
    Kind::Queue,
    Kind::Buffer,
    Kind::Program,
    Kind::Kernel,
    Kind::Event,
];

impl Kind {
    fn invalid(self) -> cl_int {
        match self {
            Kind::Context => CL_INVALID_CONTEXT,
            Kind::Queue => CL_INVALID_COMMAND_QUEUE,
            Kind::Buffer => CL_INVALID_MEM_OBJECT,
            Kind::Program => CL_INVALID_PROGRAM,
            Kind::Kernel => CL_INVALID_KERNEL,
            Kind::Event => CL_INVALID_EVENT,
        }
    }
    fn release(self) -> &'static str {
        match self {
            Kind::Context => "clReleaseContext",
            Kind::Queue => "clReleaseCommandQueue",
            Kind::Buffer => "clReleaseMemObject",
            Kind::Program => "clReleaseProgram",
            Kind::Kernel => "clReleaseKernel",
            Kind::Event => "clReleaseEvent",
        }
    }
    fn retain(self) -> &'static str {
        match self {
            Kind::Context => "clRetainContext",
            Kind::Queue => "clRetainCommandQueue",
            Kind::Buffer => "clRetainMemObject",
            Kind::Program => "clRetainProgram",
            Kind::Kernel => "clRetainKernel",
            Kind::Event => "clRetainEvent",
        }
    }
    fn info(self) -> &'static str {
        match self {
            Kind::Context => "clGetContextInfo",
            Kind::Queue => "clGetCommandQueueInfo",
            Kind::Buffer => "clGetMemObjectInfo",
            Kind::Program => "clGetProgramInfo",
            Kind::Kernel => "clGetKernelInfo",
            Kind::Event => "clGetEventInfo",
        }
    }
}

/// The objects made so far: (handle, references the fuzz holds). A handle
/// whose count reached 0 is kept as a released one. Objects are only
/// dropped from the pools in bulk, with every reference released.
struct Pools {
    objects: Vec<(Kind, *mut c_void, u32)>,
}

impl Pools {
    fn live(&self, kind: Kind) -> Vec<*mut c_void> {
        self.objects
            .iter()
            .filter(|o| o.0 == kind && o.2 > 0)
            .map(|o| o.1)
            .collect()
    }
    fn released(&self, kind: Kind) -> Vec<*mut c_void> {
        self.objects
            .iter()
            .filter(|o| o.0 == kind && o.2 == 0)
            .map(|o| o.1)
            .collect()
    }
    /// Whether `h` may be a live object of `kind`: live in the pools, or a
    /// context or program the fuzz released while children (queues,
    /// buffers, kernels) that hold it are alive: the platform keeps such an
    /// object, as implementations do, so a call may succeed with it.
    fn is_live(&self, kind: Kind, h: *mut c_void) -> bool {
        // A released handle's address may be reused by a new object of the
        // same kind; the newest entry for an address decides.
        self.objects
            .iter()
            .rev()
            .find(|o| o.1 == h)
            .is_some_and(|o| {
                o.0 == kind && (o.2 > 0 || matches!(kind, Kind::Context | Kind::Program))
            })
    }
    fn add(&mut self, kind: Kind, h: *mut c_void) {
        if !h.is_null() {
            self.objects.push((kind, h, 1));
        }
    }
    fn count(&mut self, h: *mut c_void, delta: i32) {
        if let Some(o) = self.objects.iter_mut().rev().find(|o| o.1 == h && o.2 > 0) {
            o.2 = (o.2 as i32 + delta) as u32;
        }
    }
}

const GOOD: &std::ffi::CStr = c"__kernel void k(__global int *a, int n, __local int *l) {\n\
     int i = get_global_id(0);\n\
     l[get_local_id(0) & 15] = i;\n\
     if (i < n) a[i] += l[get_local_id(0) & 15];\n\
     }\n";
const BAD: &std::ffi::CStr = c"__kernel void k(__global int *a) { a[0] = undeclared; }\n";

struct Fuzz {
    rng: Rng,
    pools: Pools,
    table: *mut c_void,
    device: *mut c_void,
    scratch: Vec<u8>,
    not_a_handle: Box<[u8; 64]>,
    maps: Vec<(*mut c_void, *mut c_void, *mut c_void)>,
    calls: u64,
    successes: u64,
    /// Per entry point: calls and successes.
    by_name: std::collections::BTreeMap<String, (u64, u64)>,
}

/// Largest size passed with a host pointer (the scratch area's size).
const SCRATCH: usize = 4096;

impl Fuzz {
    /// A handle for a parameter of `kind`, and whether it is a live one.
    fn handle(&mut self, kind: Kind) -> (*mut c_void, bool) {
        let roll = self.rng.below(100);
        let live = self.pools.live(kind);
        let h = if roll < 75 && !live.is_empty() {
            self.rng.pick(&live)
        } else if roll < 85 {
            let gone = self.pools.released(kind);
            if gone.is_empty() {
                std::ptr::null_mut()
            } else {
                self.rng.pick(&gone)
            }
        } else if roll < 90 {
            std::ptr::null_mut()
        } else if roll < 95 {
            self.not_a_handle.as_mut_ptr().cast()
        } else {
            let other = self.rng.pick(&KINDS);
            let live = self.pools.live(other);
            if live.is_empty() {
                std::ptr::null_mut()
            } else {
                self.rng.pick(&live)
            }
        };
        (h, self.pools.is_live(kind, h))
    }

    /// A handle for `clRetain*`/`clRelease*`: as [`Fuzz::handle`], but not
    /// a context or program the fuzz released that children may still
    /// hold: releasing that again would take the children's reference, the
    /// object would be freed under them, and a child's last release would
    /// then release whatever new object took the address (an application
    /// error the specification leaves undefined, not a platform one).
    fn counted_handle(&mut self, kind: Kind) -> (*mut c_void, bool) {
        let (h, ok) = self.handle(kind);
        let held = self
            .pools
            .objects
            .iter()
            .rev()
            .find(|o| o.1 == h)
            .is_some_and(|o| o.0 == kind && o.2 == 0);
        if held && matches!(kind, Kind::Context | Kind::Program) {
            (std::ptr::null_mut(), false)
        } else {
            (h, ok)
        }
    }

    fn host(&mut self) -> *mut c_void {
        if self.rng.chance(5) {
            std::ptr::null_mut()
        } else {
            self.scratch.as_mut_ptr().cast()
        }
    }

    fn size(&mut self) -> usize {
        match self.rng.below(10) {
            0 => 0,
            1..=6 => self.rng.below(257) as usize,
            _ => self.rng.below(SCRATCH as u64 + 1) as usize,
        }
    }

    /// An offset or size, mostly within a buffer, sometimes not.
    fn small(&mut self) -> usize {
        if self.rng.chance(85) {
            4 * self.rng.below(65) as usize
        } else {
            self.size()
        }
    }

    fn wait_list(&mut self) -> (cl_uint, Vec<*mut c_void>) {
        match self.rng.below(10) {
            0..=6 => (0, Vec::new()),
            7 => (1, Vec::new()), // a count without a list
            _ => {
                let n = 1 + self.rng.below(2) as usize;
                let list: Vec<_> = (0..n).map(|_| self.handle(Kind::Event).0).collect();
                (n as cl_uint, list)
            }
        }
    }

    fn event_out(&mut self) -> bool {
        self.rng.chance(30)
    }

    /// Checks one answer: a code the entry point may return; a bad
    /// first handle is never a success.
    fn check(&mut self, name: &str, got: cl_int, allowed: &[cl_int], handle_ok: bool) {
        self.calls += 1;
        let counts = self.by_name.entry(name.to_string()).or_default();
        counts.0 += 1;
        if got == CL_SUCCESS {
            self.successes += 1;
            counts.1 += 1;
        }
        assert!(
            got == CL_SUCCESS || allowed.contains(&got),
            "call {}: {name} answered {got}, not one of {allowed:?}",
            self.calls
        );
        assert!(
            handle_ok || got != CL_SUCCESS,
            "call {}: {name} succeeded with a bad handle",
            self.calls
        );
        assert_eq!(panics_caught(), 0, "call {}: {name} panicked", self.calls);
    }

    fn step(&mut self) {
        let t = self.table;
        match self.rng.below(100) {
            0..=1 if self.pools.live(Kind::Context).len() < 2 || self.rng.chance(10) => {
                let mut e = 1;
                let d = if self.rng.chance(90) {
                    self.device
                } else {
                    self.not_a_handle.as_mut_ptr().cast()
                };
                let n = if self.rng.chance(95) { 1 } else { 0 };
                let c = unsafe {
                    entry::<CreateContext>(t, "clCreateContext")(
                        std::ptr::null(),
                        n,
                        &d,
                        std::ptr::null(),
                        std::ptr::null_mut(),
                        &mut e,
                    )
                };
                let ok = d == self.device && n == 1;
                self.check(
                    "clCreateContext",
                    e,
                    &[CL_INVALID_VALUE, CL_INVALID_DEVICE],
                    ok,
                );
                self.pools.add(Kind::Context, c);
            }
            2..=4 => {
                let (c, ok) = self.handle(Kind::Context);
                let props = self.rng.pick(&[0, 0, 0, 1, 2, 1 << 40]);
                let mut e = 1;
                let q = unsafe {
                    entry::<CreateQueue>(t, "clCreateCommandQueue")(c, self.device, props, &mut e)
                };
                let allowed = [
                    CL_INVALID_CONTEXT,
                    CL_INVALID_VALUE,
                    CL_INVALID_QUEUE_PROPERTIES,
                ];
                self.check("clCreateCommandQueue", e, &allowed, ok);
                self.pools.add(Kind::Queue, q);
            }
            5..=12 => {
                let (c, ok) = self.handle(Kind::Context);
                let mut flags = 0;
                if self.rng.chance(40) {
                    for bit in [0, 1, 2, 4, 5, 7, 8, 9, 40] {
                        if self.rng.chance(12) {
                            flags |= 1u64 << bit;
                        }
                    }
                }
                let size = match self.rng.below(10) {
                    0 => usize::MAX / 2,
                    1..=3 => self.size(),
                    _ => SCRATCH,
                };
                let host = if self.rng.chance(50) && size <= SCRATCH {
                    self.host()
                } else {
                    std::ptr::null_mut()
                };
                let mut e = 1;
                let b = unsafe {
                    entry::<CreateBuffer>(t, "clCreateBuffer")(c, flags, size, host, &mut e)
                };
                let allowed = [
                    CL_INVALID_CONTEXT,
                    CL_INVALID_VALUE,
                    CL_INVALID_BUFFER_SIZE,
                    CL_INVALID_HOST_PTR,
                ];
                self.check("clCreateBuffer", e, &allowed, ok);
                self.pools.add(Kind::Buffer, b);
            }
            13..=18 => {
                let kind = self.rng.pick(&KINDS);
                let (h, ok) = self.counted_handle(kind);
                let got = unsafe { entry::<Retain>(t, kind.release())(h) };
                self.check(kind.release(), got, &[kind.invalid()], ok);
                if got == CL_SUCCESS {
                    self.pools.count(h, -1);
                }
            }
            19..=20 => {
                let kind = self.rng.pick(&KINDS);
                let (h, ok) = self.counted_handle(kind);
                let got = unsafe { entry::<Retain>(t, kind.retain())(h) };
                self.check(kind.retain(), got, &[kind.invalid()], ok);
                if got == CL_SUCCESS {
                    self.pools.count(h, 1);
                }
            }
            21..=40 => self.transfer(),
            41..=44 => self.copy_or_fill(),
            45..=50 => self.map_or_unmap(),
            51..=52 => {
                let (c, ok) = self.handle(Kind::Context);
                let text = if self.rng.chance(80) { GOOD } else { BAD }.as_ptr();
                let count = if self.rng.chance(95) { 1 } else { 0 };
                let mut e = 1;
                let p = unsafe {
                    entry::<CreateWithSource>(t, "clCreateProgramWithSource")(
                        c,
                        count,
                        &text,
                        std::ptr::null(),
                        &mut e,
                    )
                };
                self.check(
                    "clCreateProgramWithSource",
                    e,
                    &[CL_INVALID_CONTEXT, CL_INVALID_VALUE],
                    ok,
                );
                self.pools.add(Kind::Program, p);
            }
            53..=55 => {
                let (p, ok) = self.handle(Kind::Program);
                let options = self.rng.pick(&[
                    c"".as_ptr(),
                    c"-D N=4".as_ptr(),
                    c"-cl-fast-relaxed-math".as_ptr(),
                    c"-cl-bogus".as_ptr(),
                    c"-D".as_ptr(),
                ]);
                let got = unsafe {
                    entry::<Build>(t, "clBuildProgram")(
                        p,
                        0,
                        std::ptr::null(),
                        options,
                        std::ptr::null(),
                        std::ptr::null_mut(),
                    )
                };
                let allowed = [
                    CL_INVALID_PROGRAM,
                    CL_INVALID_BUILD_OPTIONS,
                    CL_BUILD_PROGRAM_FAILURE,
                    CL_INVALID_OPERATION,
                    CL_INVALID_VALUE,
                ];
                self.check("clBuildProgram", got, &allowed, ok);
            }
            56..=59 => {
                let (p, ok) = self.handle(Kind::Program);
                let name = self.rng.pick(&[
                    c"k".as_ptr(),
                    c"k".as_ptr(),
                    c"nope".as_ptr(),
                    std::ptr::null(),
                ]);
                let mut e = 1;
                let k = unsafe { entry::<CreateKernel>(t, "clCreateKernel")(p, name, &mut e) };
                let allowed = [
                    CL_INVALID_PROGRAM,
                    CL_INVALID_PROGRAM_EXECUTABLE,
                    CL_INVALID_KERNEL_NAME,
                    CL_INVALID_VALUE,
                ];
                self.check("clCreateKernel", e, &allowed, ok);
                self.pools.add(Kind::Kernel, k);
            }
            60..=69 => self.set_arg(),
            70..=74 => self.ndrange(),
            75..=92 => self.info(),
            93..=95 => {
                let (n, list) = self.wait_list();
                let n = if list.is_empty() && self.rng.chance(50) {
                    0
                } else {
                    n
                };
                let ptr = if list.is_empty() {
                    std::ptr::null()
                } else {
                    list.as_ptr()
                };
                let ok =
                    !list.is_empty() && list.iter().all(|&e| self.pools.is_live(Kind::Event, e));
                let got = unsafe { entry::<Wait>(t, "clWaitForEvents")(n, ptr) };
                let allowed = [
                    CL_INVALID_VALUE,
                    CL_INVALID_EVENT,
                    CL_INVALID_CONTEXT,
                    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                ];
                self.check("clWaitForEvents", got, &allowed, ok);
            }
            _ => {
                let (q, ok) = self.handle(Kind::Queue);
                let name = self.rng.pick(&["clFlush", "clFinish"]);
                let got = unsafe { entry::<Retain>(t, name)(q) };
                self.check(name, got, &[CL_INVALID_COMMAND_QUEUE], ok);
            }
        }
    }

    fn transfer(&mut self) {
        let (q, qok) = self.handle(Kind::Queue);
        let (b, bok) = self.handle(Kind::Buffer);
        let name = self
            .rng
            .pick(&["clEnqueueReadBuffer", "clEnqueueWriteBuffer"]);
        let offset = self.small();
        let size = self.small();
        let host = self.host();
        let (n, list) = self.wait_list();
        let mut ev = std::ptr::null_mut();
        let want_event = self.event_out();
        let got = unsafe {
            entry::<Transfer>(self.table, name)(
                q,
                b,
                CL_TRUE,
                offset,
                size,
                host,
                n,
                if list.is_empty() {
                    std::ptr::null()
                } else {
                    list.as_ptr()
                },
                if want_event {
                    &mut ev
                } else {
                    std::ptr::null_mut()
                },
            )
        };
        let allowed = [
            CL_INVALID_COMMAND_QUEUE,
            CL_INVALID_MEM_OBJECT,
            CL_INVALID_CONTEXT,
            CL_INVALID_VALUE,
            CL_INVALID_EVENT_WAIT_LIST,
            CL_INVALID_OPERATION,
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
        ];
        self.check(name, got, &allowed, qok && bok);
        self.pools.add(Kind::Event, ev);
    }

    fn copy_or_fill(&mut self) {
        let (q, qok) = self.handle(Kind::Queue);
        let (src, sok) = self.handle(Kind::Buffer);
        let (dst, dok) = self.handle(Kind::Buffer);
        let (a, b, size) = (self.small(), self.small(), self.small());
        let (n, list) = self.wait_list();
        let list_ptr = if list.is_empty() {
            std::ptr::null()
        } else {
            list.as_ptr()
        };
        let mut allowed = vec![
            CL_INVALID_COMMAND_QUEUE,
            CL_INVALID_MEM_OBJECT,
            CL_INVALID_CONTEXT,
            CL_INVALID_VALUE,
            CL_INVALID_EVENT_WAIT_LIST,
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
        ];
        if self.rng.chance(50) {
            allowed.push(CL_MEM_COPY_OVERLAP);
            let got = unsafe {
                entry::<CopyBuffer>(self.table, "clEnqueueCopyBuffer")(
                    q,
                    src,
                    dst,
                    a,
                    b,
                    size,
                    n,
                    list_ptr,
                    std::ptr::null_mut(),
                )
            };
            self.check("clEnqueueCopyBuffer", got, &allowed, qok && sok && dok);
        } else {
            let pattern_size = self.rng.pick(&[0, 1, 2, 3, 4, 8, 16, 64, 128, 256]);
            let pattern = self.host();
            let got = unsafe {
                entry::<Fill>(self.table, "clEnqueueFillBuffer")(
                    q,
                    src,
                    pattern,
                    pattern_size,
                    a,
                    size,
                    n,
                    list_ptr,
                    std::ptr::null_mut(),
                )
            };
            self.check("clEnqueueFillBuffer", got, &allowed, qok && sok);
        }
    }

    fn map_or_unmap(&mut self) {
        let allowed = [
            CL_INVALID_COMMAND_QUEUE,
            CL_INVALID_MEM_OBJECT,
            CL_INVALID_CONTEXT,
            CL_INVALID_VALUE,
            CL_INVALID_EVENT_WAIT_LIST,
            CL_INVALID_OPERATION,
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
            CL_MAP_FAILURE,
        ];
        if self.rng.chance(50) || self.maps.is_empty() {
            let (q, qok) = self.handle(Kind::Queue);
            let (b, bok) = self.handle(Kind::Buffer);
            let flags = self.rng.pick(&[1, 2, 3, 4, 5, 0, 1 << 20]);
            let (offset, size) = (self.small(), self.small());
            let mut e = 1;
            let p = unsafe {
                entry::<Map>(self.table, "clEnqueueMapBuffer")(
                    q,
                    b,
                    CL_TRUE,
                    flags,
                    offset,
                    size,
                    0,
                    std::ptr::null(),
                    std::ptr::null_mut(),
                    &mut e,
                )
            };
            self.check("clEnqueueMapBuffer", e, &allowed, qok && bok);
            if !p.is_null() {
                // Write through the mapping, as an application would.
                unsafe { std::ptr::write_bytes(p.cast::<u8>(), 0xA5, size) };
                self.maps.push((q, b, p));
            }
        } else {
            let i = self.rng.below(self.maps.len() as u64) as usize;
            let (q, b, p) = self.maps[i];
            let wrong_pointer = self.rng.chance(10);
            let p = if wrong_pointer {
                self.scratch.as_mut_ptr().cast()
            } else {
                p
            };
            let got = unsafe {
                entry::<Unmap>(self.table, "clEnqueueUnmapMemObject")(
                    q,
                    b,
                    p,
                    0,
                    std::ptr::null(),
                    std::ptr::null_mut(),
                )
            };
            let ok = self.pools.is_live(Kind::Queue, q) && self.pools.is_live(Kind::Buffer, b);
            self.check(
                "clEnqueueUnmapMemObject",
                got,
                &allowed,
                ok && !wrong_pointer,
            );
            if got == CL_SUCCESS || !self.pools.is_live(Kind::Buffer, b) {
                self.maps.swap_remove(i);
            }
        }
    }

    fn set_arg(&mut self) {
        let (k, ok) = self.handle(Kind::Kernel);
        let index = self.rng.below(4) as cl_uint;
        let (b, _) = self.handle(Kind::Buffer);
        // Half the time what the kernel's parameter wants (a buffer, an
        // int, a __local size), else anything.
        let n = 64i32;
        let (size, value): (usize, *const c_void) = match (self.rng.chance(50), index) {
            (true, 0) => (8, (&b as *const *mut c_void).cast()),
            (true, 1) => (4, (&n as *const i32).cast()),
            (true, 2) => (self.rng.pick(&[16, 64, 256]), std::ptr::null()),
            _ => (
                self.rng.pick(&[0, 4, 8, 16, 64]),
                match self.rng.below(3) {
                    0 => std::ptr::null(),
                    1 => (&b as *const *mut c_void).cast(),
                    _ => self.scratch.as_ptr().cast(),
                },
            ),
        };
        let got = unsafe { entry::<SetArg>(self.table, "clSetKernelArg")(k, index, size, value) };
        let allowed = [
            CL_INVALID_KERNEL,
            CL_INVALID_ARG_INDEX,
            CL_INVALID_ARG_VALUE,
            CL_INVALID_MEM_OBJECT,
            CL_INVALID_ARG_SIZE,
        ];
        self.check("clSetKernelArg", got, &allowed, ok);
    }

    /// The context a live queue or kernel belongs to (null if not live).
    fn context_of(&mut self, kind: Kind, h: *mut c_void) -> *mut c_void {
        let param = match kind {
            Kind::Queue => CL_QUEUE_CONTEXT,
            _ => CL_KERNEL_CONTEXT,
        };
        let mut c: *mut c_void = std::ptr::null_mut();
        let size = std::mem::size_of::<*mut c_void>();
        let value = (&mut c as *mut *mut c_void).cast();
        let mut ret = 0usize;
        // SAFETY: a live handle of `kind` and a pointer-sized answer.
        let got =
            unsafe { entry::<GetInfo>(self.table, kind.info())(h, param, size, value, &mut ret) };
        if got == CL_SUCCESS {
            c
        } else {
            std::ptr::null_mut()
        }
    }

    fn ndrange(&mut self) {
        let (mut q, mut qok) = self.handle(Kind::Queue);
        let (k, kok) = self.handle(Kind::Kernel);
        // Most queues and kernels drawn at random belong to different
        // contexts (CL_INVALID_CONTEXT) and most random ranges are
        // refused: half the time a live kernel gets a queue of its own
        // context, a plain 1-D range of 64 and no wait list ("aimed"), so
        // dispatches are reached whatever the seed.
        let mut aimed = false;
        if kok && self.rng.chance(50) {
            let want = self.context_of(Kind::Kernel, k);
            let same: Vec<*mut c_void> = self
                .pools
                .live(Kind::Queue)
                .into_iter()
                .filter(|&c| self.context_of(Kind::Queue, c) == want)
                .collect();
            if !same.is_empty() {
                q = self.rng.pick(&same);
                qok = true;
                aimed = true;
            }
        }
        let dims = if aimed {
            1
        } else {
            self.rng.pick(&[0, 1, 1, 1, 1, 1, 2, 3, 4])
        };
        let global: Vec<usize> = if aimed {
            vec![64, 1, 1]
        } else {
            (0..3)
                .map(|_| self.rng.pick(&[0, 1, 16, 64, 64, 100, 128]))
                .collect()
        };
        let local: Vec<usize> = (0..3).map(|_| self.rng.pick(&[0, 1, 8, 16, 64])).collect();
        let local_ptr = if aimed || self.rng.chance(40) {
            std::ptr::null()
        } else {
            local.as_ptr()
        };
        let offset = [self.rng.pick(&[0, 0, 0, 4]), 0, 0];
        let offset_ptr = if aimed || self.rng.chance(80) {
            std::ptr::null()
        } else {
            offset.as_ptr()
        };
        let (n, list) = if aimed {
            (0, Vec::new())
        } else {
            self.wait_list()
        };
        let mut ev = std::ptr::null_mut();
        let got = unsafe {
            entry::<NdRange>(self.table, "clEnqueueNDRangeKernel")(
                q,
                k,
                dims,
                offset_ptr,
                global.as_ptr(),
                local_ptr,
                n,
                if list.is_empty() {
                    std::ptr::null()
                } else {
                    list.as_ptr()
                },
                &mut ev,
            )
        };
        let allowed = [
            CL_INVALID_COMMAND_QUEUE,
            CL_INVALID_KERNEL,
            CL_INVALID_CONTEXT,
            CL_INVALID_PROGRAM_EXECUTABLE,
            CL_INVALID_KERNEL_ARGS,
            CL_INVALID_WORK_DIMENSION,
            CL_INVALID_GLOBAL_WORK_SIZE,
            CL_INVALID_GLOBAL_OFFSET,
            CL_INVALID_WORK_GROUP_SIZE,
            CL_INVALID_WORK_ITEM_SIZE,
            CL_INVALID_EVENT_WAIT_LIST,
            CL_INVALID_VALUE,
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
            // A kernel given a too-small buffer faults on the simulated
            // GPU: the dispatch fails, the process does not.
            CL_OUT_OF_RESOURCES,
        ];
        self.check("clEnqueueNDRangeKernel", got, &allowed, qok && kok);
        self.pools.add(Kind::Event, ev);
    }

    fn info(&mut self) {
        let kind = self.rng.pick(&KINDS);
        let (h, ok) = self.handle(kind);
        let base = match kind {
            Kind::Context => 0x1080,
            Kind::Queue => 0x1090,
            Kind::Buffer => 0x1100,
            Kind::Program => 0x1160,
            Kind::Kernel => 0x1190,
            Kind::Event => 0x11D0,
        };
        let param = if self.rng.chance(90) {
            base + self.rng.below(10) as cl_uint
        } else {
            self.rng.next() as cl_uint
        };
        let size = self.rng.pick(&[0, 1, 4, 8, 64, SCRATCH]);
        let value = if size == 0 || self.rng.chance(20) {
            std::ptr::null_mut()
        } else {
            self.scratch.as_mut_ptr().cast()
        };
        if kind == Kind::Program && param == CL_PROGRAM_BINARIES {
            // The caller's array of pointers to CL_PROGRAM_BINARY_SIZES
            // bytes each: a garbage pointer there is the caller's undefined
            // behaviour; a null one asks for nothing.
            self.scratch[..8].fill(0);
        }
        let mut ret = 0usize;
        if kind == Kind::Event && self.rng.chance(40) {
            // Profiling times: an event of a queue made with
            // CL_QUEUE_PROFILING_ENABLE (props 2 above) has them.
            let param = 0x1280 + self.rng.below(6) as cl_uint;
            let got = unsafe {
                entry::<GetInfo>(self.table, "clGetEventProfilingInfo")(
                    h, param, size, value, &mut ret,
                )
            };
            let allowed = [
                CL_INVALID_EVENT,
                CL_INVALID_VALUE,
                CL_PROFILING_INFO_NOT_AVAILABLE,
            ];
            self.check("clGetEventProfilingInfo", got, &allowed, ok);
            return;
        }
        let got =
            unsafe { entry::<GetInfo>(self.table, kind.info())(h, param, size, value, &mut ret) };
        // CL_PROGRAM_NUM_KERNELS and CL_PROGRAM_KERNEL_NAMES of a program
        // not built: CL_INVALID_PROGRAM_EXECUTABLE.
        let allowed = [
            kind.invalid(),
            CL_INVALID_VALUE,
            CL_INVALID_PROGRAM_EXECUTABLE,
        ];
        let n = if kind == Kind::Program { 3 } else { 2 };
        self.check(kind.info(), got, &allowed[..n], ok);
    }

    /// Releases every reference the fuzz holds (unmapping first), so the
    /// platform frees everything; the pools restart empty.
    fn release_all(&mut self) {
        for (q, b, p) in std::mem::take(&mut self.maps) {
            unsafe {
                entry::<Unmap>(self.table, "clEnqueueUnmapMemObject")(
                    q,
                    b,
                    p,
                    0,
                    std::ptr::null(),
                    std::ptr::null_mut(),
                )
            };
        }
        // Children before parents is not required (objects hold their
        // parents), but it frees device memory in a natural order.
        for kind in [
            Kind::Event,
            Kind::Kernel,
            Kind::Program,
            Kind::Buffer,
            Kind::Queue,
            Kind::Context,
        ] {
            for o in self.pools.objects.iter_mut().filter(|o| o.0 == kind) {
                for _ in 0..o.2 {
                    let got = unsafe { entry::<Retain>(self.table, kind.release())(o.1) };
                    assert_eq!(got, CL_SUCCESS, "releasing a live {kind:?}");
                }
                o.2 = 0;
            }
        }
        self.pools.objects.clear();
    }
}

#[test]
fn random_calls_with_bad_arguments_get_error_codes_and_never_crash() {
    let calls: u64 = std::env::var("GPUSIM_FUZZ_CALLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let seed: u64 = std::env::var("GPUSIM_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x9E37_79B9_7F4A_7C15);
    let p = platform();
    let mut f = Fuzz {
        rng: Rng(seed | 1),
        pools: Pools {
            objects: Vec::new(),
        },
        table: p,
        device: device(p),
        scratch: vec![0; SCRATCH],
        not_a_handle: Box::new([0; 64]),
        maps: Vec::new(),
        calls: 0,
        successes: 0,
        by_name: Default::default(),
    };
    let started = std::time::Instant::now();
    while f.calls < calls {
        f.step();
        // Bounded pools: every 2,000 calls everything is released (which
        // also exercises the last-release paths) and the run starts over.
        if f.calls % 2_000 == 0 || f.pools.objects.len() > 400 {
            f.release_all();
        }
    }
    f.release_all();
    assert_eq!(panics_caught(), 0);
    eprintln!(
        "fuzz: {} calls ({} succeeded) in {:.1} s, seed {seed:#x}",
        f.calls,
        f.successes,
        started.elapsed().as_secs_f64()
    );
    for (name, (n, ok)) in &f.by_name {
        eprintln!("  {name}: {n} calls, {ok} succeeded");
    }
    // The sequences reach the working paths, not only the argument checks:
    // every entry point succeeds sometimes.
    assert!(f.successes > f.calls / 10, "{} of {}", f.successes, f.calls);
    for (name, (_, ok)) in &f.by_name {
        assert!(*ok > 0, "{name} never succeeded");
    }
}
