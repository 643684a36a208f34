//! Kernels the way applications call the built-in library (issue 26): a
//! softmax (exp, work-group max/add reductions), n-body with rsqrt,
//! Black-Scholes (exp, log, sqrt, erfc), a 3x3 convolution with clamp, a
//! histogram with atomic_inc, a prefix sum with work_group_scan, and a
//! double-precision axpy and dot (sources in `tests/app_kernels/`). Each is
//! compiled by gpusim and by clang-19 with ROCm's device libraries, run on
//! the golden GPU and on the cycle model (one CU) on the same inputs; both
//! objects' results are checked against a host reference within the
//! specification's bounds (integer ones exactly), and the cycle model's
//! results must equal the golden GPU's. Without clang-19 + ROCm only
//! gpusim's object runs (`GPUSIM_REQUIRE_ROCM=1` makes that a failure).
//! `cargo test --release -p compiler --test app_kernels -- --nocapture`
//! prints the cycles (docs/performance.md).

mod backend_support;
use backend_support::{build_kernel, clang_rocm_object, run_elf_dims, run_elf_dims_on, TestArg};
use compiler::backend::code_object;
use hw::{ClockedGpu, GpuConfig};
use sw::driver::LaunchDims;

fn f32s(v: &[u32]) -> Vec<f32> {
    v.iter().map(|&b| f32::from_bits(b)).collect()
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|f| f.to_bits()).collect()
}

/// xorshift32 in [0, 1).
struct Rng(u32);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 8) as f32 / (1u32 << 24) as f32
    }
}

/// `got` within `rel` (relative to max(|want|, floor)) of `want`.
fn close(what: &str, got: &[f32], want: &[f64], rel: f64, floor: f64) -> Result<(), String> {
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let tol = rel * w.abs().max(floor);
        // A NaN result fails too.
        let ok = (f64::from(g) - w).abs() <= tol;
        if !ok {
            return Err(format!("{what}[{i}] = {g}, want {w} (tolerance {tol:e})"));
        }
    }
    Ok(())
}

type Check = Box<dyn Fn(&[Vec<u32>]) -> Result<(), String>>;

struct App {
    name: &'static str,
    dims: LaunchDims,
    args: Vec<TestArg>,
    check: Check,
}

fn softmax() -> App {
    let mut r = Rng(1);
    let x: Vec<f32> = (0..16 * 256).map(|_| 20.0 * r.unit() - 10.0).collect();
    let xs = x.clone();
    App {
        name: "softmax",
        dims: LaunchDims::linear(16 * 64, 64),
        args: vec![TestArg::Buf(bits(&x)), TestArg::Buf(vec![0; 16 * 256])],
        check: Box::new(move |out| {
            let mut want = Vec::new();
            for row in xs.chunks(256) {
                let m = row
                    .iter()
                    .fold(f64::NEG_INFINITY, |a, &v| a.max(f64::from(v)));
                let s: f64 = row.iter().map(|&v| (f64::from(v) - m).exp()).sum();
                want.extend(row.iter().map(|&v| (f64::from(v) - m).exp() / s));
            }
            // exp's 3 ULP, a sum of 256 terms and a division: 1e-5 relative.
            close("softmax", &f32s(&out[1]), &want, 1e-5, 1e-30)
        }),
    }
}

fn nbody() -> App {
    let mut r = Rng(2);
    let p: Vec<f32> = (0..256 * 4)
        .map(|i| {
            if i % 4 == 3 {
                0.5 + r.unit()
            } else {
                4.0 * r.unit() - 2.0
            }
        })
        .collect();
    let ps = p.clone();
    App {
        name: "nbody",
        dims: LaunchDims::linear(256, 64),
        args: vec![TestArg::Buf(bits(&p)), TestArg::Buf(vec![0; 256 * 4])],
        check: Box::new(move |out| {
            let mut want = Vec::new();
            for i in 0..256 {
                let mut a = [0f64; 3];
                for j in 0..256 {
                    let d: Vec<f64> = (0..3)
                        .map(|c| f64::from(ps[4 * j + c]) - f64::from(ps[4 * i + c]))
                        .collect();
                    let r2 = d.iter().map(|v| v * v).sum::<f64>() + 0.01;
                    let inv = 1.0 / r2.sqrt();
                    for c in 0..3 {
                        a[c] += d[c] * f64::from(ps[4 * j + 3]) * inv * inv * inv;
                    }
                }
                want.extend([a[0], a[1], a[2], 0.0]);
            }
            // Sums of 256 terms of either sign: relative to the largest force.
            let big = want.iter().fold(0f64, |m, v| m.max(v.abs()));
            close("nbody", &f32s(&out[1]), &want, 1e-5, big)
        }),
    }
}

fn blackscholes() -> App {
    let mut r = Rng(3);
    let n = 1024;
    let s: Vec<f32> = (0..n).map(|_| 10.0 + 90.0 * r.unit()).collect();
    let x: Vec<f32> = (0..n).map(|_| 10.0 + 90.0 * r.unit()).collect();
    let t: Vec<f32> = (0..n).map(|_| 0.1 + 2.0 * r.unit()).collect();
    let (s2, x2, t2) = (s.clone(), x.clone(), t.clone());
    App {
        name: "blackscholes",
        dims: LaunchDims::linear(n as u32, 64),
        args: vec![
            TestArg::Buf(bits(&s)),
            TestArg::Buf(bits(&x)),
            TestArg::Buf(bits(&t)),
            TestArg::Buf(vec![0; n]),
            TestArg::Buf(vec![0; n]),
        ],
        check: Box::new(move |out| {
            let cnd = |d: f64| 0.5 * libm_erfc(-d / 2f64.sqrt());
            let (mut call, mut put) = (Vec::new(), Vec::new());
            for i in 0..n {
                let (s, x, t) = (f64::from(s2[i]), f64::from(x2[i]), f64::from(t2[i]));
                let (r, v) = (f64::from(0.02f32), f64::from(0.30f32));
                let d1 = ((s / x).ln() + (r + 0.5 * v * v) * t) / (v * t.sqrt());
                let d2 = d1 - v * t.sqrt();
                let e = (-r * t).exp();
                call.push(s * cnd(d1) - x * e * cnd(d2));
                put.push(x * e * cnd(-d2) - s * cnd(-d1));
            }
            // Prices are differences of terms up to 100: absolute 1e-3.
            close("call", &f32s(&out[3]), &call, 1e-5, 100.0)?;
            close("put", &f32s(&out[4]), &put, 1e-5, 100.0)
        }),
    }
}

/// erfc in f64 (the host has no libm erfc in std): the continued fraction
/// above 2, the series below (both to f64 precision).
fn libm_erfc(x: f64) -> f64 {
    if x < 0.0 {
        return 2.0 - libm_erfc(-x);
    }
    if x < 2.0 {
        let (mut term, mut sum, z) = (x, x, x * x);
        for n in 1..80 {
            term *= -z / n as f64;
            sum += term / (2 * n + 1) as f64;
        }
        return 1.0 - sum * 2.0 / std::f64::consts::PI.sqrt();
    }
    let mut f = x;
    for k in (1..120).rev() {
        f = x + (k as f64 / 2.0) / f;
    }
    (-x * x).exp() / (f * std::f64::consts::PI.sqrt())
}

fn conv2d() -> App {
    let mut r = Rng(4);
    let img: Vec<f32> = (0..64 * 64).map(|_| r.unit() - 0.5).collect();
    let w: Vec<f32> = (0..9).map(|_| r.unit() - 0.3).collect();
    let (i2, w2) = (img.clone(), w.clone());
    App {
        name: "conv2d",
        dims: LaunchDims {
            grid: [64, 64, 1],
            workgroup: [16, 8, 1],
        },
        args: vec![
            TestArg::Buf(bits(&img)),
            TestArg::Buf(bits(&w)),
            TestArg::Buf(vec![0; 64 * 64]),
        ],
        check: Box::new(move |out| {
            let mut want = Vec::new();
            for y in 0..64i32 {
                for x in 0..64i32 {
                    let mut s = 0f64;
                    for dy in -1..=1i32 {
                        for dx in -1..=1i32 {
                            let (xx, yy) = ((x + dx).clamp(0, 63), (y + dy).clamp(0, 63));
                            s += f64::from(i2[(yy * 64 + xx) as usize])
                                * f64::from(w2[((dy + 1) * 3 + dx + 1) as usize]);
                        }
                    }
                    want.push(s.clamp(-1.0, 1.0));
                }
            }
            close("conv2d", &f32s(&out[2]), &want, 1e-6, 1.0)
        }),
    }
}

fn histogram() -> App {
    let mut r = Rng(5);
    let data: Vec<u32> = (0..4096).map(|_| r.next()).collect();
    let d2 = data.clone();
    App {
        name: "histogram",
        dims: LaunchDims::linear(4096, 256),
        args: vec![TestArg::Buf(data), TestArg::Buf(vec![0; 64])],
        check: Box::new(move |out| {
            let mut want = vec![0u32; 64];
            for v in &d2 {
                want[(v & 63) as usize] += 1;
            }
            (out[1] == want)
                .then_some(())
                .ok_or(format!("histogram {:?}, want {want:?}", out[1]))
        }),
    }
}

fn scan() -> App {
    let mut r = Rng(6);
    let data: Vec<u32> = (0..4096).map(|_| r.next() >> 12).collect();
    let d2 = data.clone();
    App {
        name: "scan",
        dims: LaunchDims::linear(4096, 256),
        args: vec![
            TestArg::Buf(data),
            TestArg::Buf(vec![0; 4096]),
            TestArg::Buf(vec![0; 16]),
        ],
        check: Box::new(move |out| {
            let mut want = Vec::new();
            let mut totals = Vec::new();
            for g in d2.chunks(256) {
                let mut acc = 0u32;
                for v in g {
                    acc = acc.wrapping_add(*v);
                    want.push(acc);
                }
                totals.push(acc);
            }
            if out[1] != want || out[2] != totals {
                return Err("scan differs from the host".into());
            }
            Ok(())
        }),
    }
}

fn daxpy_dot() -> App {
    let mut r = Rng(7);
    let n = 1024;
    let x: Vec<f64> = (0..n).map(|_| f64::from(r.unit()) * 2.0 - 1.0).collect();
    let y: Vec<f64> = (0..n).map(|_| f64::from(r.unit()) * 2.0 - 1.0).collect();
    let w = |v: &[f64]| -> Vec<u32> {
        v.iter()
            .flat_map(|f| [f.to_bits() as u32, (f.to_bits() >> 32) as u32])
            .collect()
    };
    let (x2, y2) = (x.clone(), y.clone());
    App {
        name: "daxpy_dot",
        dims: LaunchDims::linear(n as u32, 256),
        args: vec![
            TestArg::Buf(w(&x)),
            TestArg::Buf(w(&y)),
            TestArg::Buf(vec![0; 8]),
        ],
        check: Box::new(move |out| {
            let d = |b: &[u32]| -> Vec<f64> {
                b.chunks(2)
                    .map(|c| f64::from_bits(u64::from(c[0]) | (u64::from(c[1]) << 32)))
                    .collect()
            };
            let ys: Vec<f64> = (0..n).map(|i| 2.5f64.mul_add(x2[i], y2[i])).collect();
            if d(&out[1]) != ys {
                return Err("axpy differs from the host's fma".into());
            }
            for (g, got) in d(&out[2]).iter().enumerate() {
                let p: f64 = (0..256).map(|i| x2[g * 256 + i] * ys[g * 256 + i]).sum();
                let want = p.abs().sqrt() * (-1f64).exp() + p.abs().ln_1p();
                if (got - want).abs() > 1e-13 * want.abs().max(1.0) {
                    return Err(format!("dot group {g}: {got}, want {want}"));
                }
            }
            Ok(())
        }),
    }
}

#[test]
fn application_kernels_against_the_host_and_clang() {
    let require = std::env::var("GPUSIM_REQUIRE_ROCM").is_ok_and(|v| v == "1");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/app_kernels");
    let apps = [
        softmax(),
        nbody(),
        blackscholes(),
        conv2d(),
        histogram(),
        scan(),
        daxpy_dot(),
    ];
    println!("| kernel | wave | gpusim cycles | clang + ROCm cycles | ratio |");
    println!("| --- | --- | ---: | ---: | ---: |");
    for app in apps {
        let src = std::fs::read_to_string(dir.join(format!("{}.cl", app.name))).expect("source");
        for wave64 in [false, true] {
            let k = build_kernel(&src, wave64);
            let ours = code_object(std::slice::from_ref(&k)).expect("a code object");
            let theirs =
                match clang_rocm_object(&src, wave64, &format!("app_{}_{wave64}", app.name)) {
                    Ok(o) => Some(o),
                    Err(e) => {
                        assert!(!require, "GPUSIM_REQUIRE_ROCM=1: {e}");
                        eprintln!("note: {e}: gpusim's object only");
                        None
                    }
                };
            let mut cycles = Vec::new();
            for (who, elf) in [("gpusim", Some(&ours)), ("clang", theirs.as_ref())] {
                let Some(elf) = elf else { continue };
                let golden = run_elf_dims(elf, "k", app.dims, &app.args)
                    .unwrap_or_else(|e| panic!("{} ({who}, wave64={wave64}): {e}", app.name));
                (app.check)(&golden)
                    .unwrap_or_else(|e| panic!("{} ({who}, wave64={wave64}): {e}", app.name));
                let gpu = ClockedGpu::new(GpuConfig::one_cu()).expect("a cycle model");
                let (clocked, d) = run_elf_dims_on(gpu, elf, "k", app.dims, &app.args)
                    .unwrap_or_else(|e| panic!("{} ({who}) on the cycle model: {e}", app.name));
                assert_eq!(
                    clocked, golden,
                    "{} ({who}, wave64={wave64}): cycle model differs",
                    app.name
                );
                let stats = d.device().stats();
                cycles.push(stats.dispatches.last().map_or(stats.cycles, |s| s.cycles));
            }
            let theirs = cycles.get(1).map_or("-".to_string(), |c| c.to_string());
            let ratio = cycles.get(1).map_or("-".to_string(), |&c| {
                format!("{:.2}", cycles[0] as f64 / c as f64)
            });
            println!(
                "| {} | {} | {} | {theirs} | {ratio} |",
                app.name,
                if wave64 { 64 } else { 32 },
                cycles[0]
            );
        }
    }
}
