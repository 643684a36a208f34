//! Division at the extremes of the formats, end to end: `a / b` compiled by
//! clang-19 (LLVM's `v_div_scale` / `v_rcp` / Newton-Raphson / `v_div_fmas`
//! / `v_div_fixup` expansion) on the functional, cycle and lockstep models,
//! against the host's IEEE division, which is correctly rounded; so is the
//! expansion on AMD hardware (and OpenCL requires it for `double`, and for
//! `float` under `-cl-fp32-correctly-rounded-divide-sqrt`).
//!
//! The operands are the formats' edges: the largest finite value, the
//! smallest normal, denormals, 2^±1000 (2^±120 for `float`) and ordinary
//! values, every pair of them with both signs. `1.0 / DBL_MAX` gave NaN on
//! both GPUs: the pseudo-code's branch for a denominator whose reciprocal
//! is denormal scaled that denominator *up* by 2^128 (to infinity).
//!
//! Without clang-19 the test says so and skips, unless
//! `GPUSIM_REQUIRE_LLVM=1` (set by `.ci/run`), when it fails.

use arch::isa::Isa;
use cosim::fuzz::clgen::exec::clang_flags;
use cosim::model::{Model, ModelDevice, ModelOptions};
use sw::driver::{Arg, Driver, LaunchDims};

const KERNEL: &str = r#"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void ddiv(__global const double *a, __global const double *b,
                   __global double *o, uint n) {
    uint i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x()
        + __builtin_amdgcn_workitem_id_x();
    if (i < n) o[i] = a[i] / b[i];
}
__kernel void fdiv(__global const float *a, __global const float *b,
                   __global float *o, uint n) {
    uint i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x()
        + __builtin_amdgcn_workitem_id_x();
    if (i < n) o[i] = a[i] / b[i];
}
"#;

/// The code object, or None when clang-19 is missing (and not required).
fn object() -> Option<Vec<u8>> {
    // One directory per call: the tests run in parallel threads of one
    // process, and each removes its directory when done.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("gpusim-division-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let r = clang_flags(&dir, KERNEL, &["-cl-fp32-correctly-rounded-divide-sqrt"]);
    std::fs::remove_dir_all(&dir).ok();
    match r {
        Ok(elf) => Some(elf),
        Err(e) => {
            let require = std::env::var("GPUSIM_REQUIRE_LLVM").is_ok_and(|v| v == "1");
            assert!(!require, "GPUSIM_REQUIRE_LLVM=1 but clang-19 failed: {e}");
            eprintln!("skipped: clang-19 cannot build the division kernels: {e}");
            None
        }
    }
}

/// Every ordered pair of `values` and of their negations.
fn pairs<T: Copy + std::ops::Neg<Output = T>>(values: &[T]) -> (Vec<T>, Vec<T>) {
    let signed: Vec<T> = values.iter().flat_map(|&v| [v, -v]).collect();
    let mut a = Vec::new();
    let mut b = Vec::new();
    for &x in &signed {
        for &y in &signed {
            a.push(x);
            b.push(y);
        }
    }
    (a, b)
}

/// Runs kernel `name` of `elf` over the operand bytes on `model`; the
/// output bytes.
fn run(elf: &[u8], name: &str, model: Model, a: &[u8], b: &[u8], n: u32) -> Vec<u8> {
    let device = ModelDevice::new(&ModelOptions {
        model,
        isa: Isa::Gfx1030,
        config: hw::GpuConfig::one_cu(),
        watchdog: None,
        wave_watchdog: None,
    })
    .unwrap();
    let mut d = Driver::new(device).unwrap();
    let p = d.load(elf).unwrap();
    let k = p.kernel(name).unwrap().clone();
    let ba = d.create_buffer(a).unwrap();
    let bb = d.create_buffer(b).unwrap();
    let bo = d.create_buffer(&vec![0u8; a.len()]).unwrap();
    let args = [
        Arg::Buffer(ba.address),
        Arg::Buffer(bb.address),
        Arg::Buffer(bo.address),
        Arg::u32(n),
    ];
    d.launch(&k, LaunchDims::linear(n.div_ceil(64) * 64, 64), &args)
        .unwrap();
    d.download(bo).unwrap()
}

const MODELS: [Model; 3] = [Model::Functional, Model::Cycle, Model::Lockstep];

/// The float formats the kernels divide in.
trait Ieee:
    Copy + std::fmt::LowerExp + std::ops::Div<Output = Self> + std::ops::Neg<Output = Self>
{
    const BYTES: usize;
    fn le_bytes(self) -> Vec<u8>;
    fn from_le(bytes: &[u8]) -> Self;
    fn bits(self) -> u64;
    fn nan(self) -> bool;
}

macro_rules! ieee {
    ($t:ty) => {
        impl Ieee for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            fn le_bytes(self) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }
            fn from_le(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().unwrap())
            }
            fn bits(self) -> u64 {
                u64::from(self.to_bits())
            }
            fn nan(self) -> bool {
                self.is_nan()
            }
        }
    };
}
ieee!(f32);
ieee!(f64);

/// Kernel `kernel` divides every signed pair of `values` on every model;
/// each quotient must be the host's IEEE one, bit for bit.
fn quotients_are_ieee<T: Ieee>(kernel: &str, values: &[T]) {
    let Some(elf) = object() else { return };
    let (a, b) = pairs(values);
    let n = a.len() as u32;
    let bytes = |v: &[T]| -> Vec<u8> { v.iter().flat_map(|x| x.le_bytes()).collect() };
    let (ab, bb) = (bytes(&a), bytes(&b));
    let mut failures = Vec::new();
    for model in MODELS {
        let out = run(&elf, kernel, model, &ab, &bb, n);
        for (i, c) in out.chunks_exact(T::BYTES).enumerate() {
            let got = T::from_le(c);
            let want = a[i] / b[i];
            if got.bits() != want.bits() && !(got.nan() && want.nan()) {
                failures.push(format!(
                    "{model}: {:e} / {:e} = {got:e} ({:#x}), IEEE {want:e} ({:#x})",
                    a[i],
                    b[i],
                    got.bits(),
                    want.bits()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} quotients differ:\n{}",
        failures.len(),
        3 * n,
        failures[..failures.len().min(40)].join("\n")
    );
}

#[test]
fn double_division_is_correctly_rounded_at_the_extremes() {
    let p = |e: i32| 2f64.powi(e);
    let values = [
        f64::MAX,
        f64::MIN_POSITIVE,                     // DBL_MIN
        f64::from_bits(1),                     // the smallest denormal
        f64::from_bits(0x000f_ffff_ffff_ffff), // the largest denormal
        f64::from_bits(0x0000_0000_0012_3456),
        p(1000),
        p(-1000),
        p(1023) * 1.5,
        p(-1022) * 1.75,
        p(-1060),
        p(896),
        p(-896),
        1.0,
        3.0,
        0.1,
        1.0 / 3.0,
        123_456.789,
    ];
    quotients_are_ieee("ddiv", &values);
}

#[test]
fn float_division_is_correctly_rounded_at_the_extremes() {
    let p = |e: i32| 2f32.powi(e);
    let values = [
        f32::MAX,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x007f_ffff),
        f32::from_bits(0x0001_2345),
        p(120),
        p(-120),
        p(127) * 1.5,
        p(-126) * 1.75,
        p(-140),
        p(100),
        p(-100),
        1.0,
        3.0,
        0.1,
        1.0 / 3.0,
        12_345.678,
    ];
    quotients_are_ieee("fdiv", &values);
}
