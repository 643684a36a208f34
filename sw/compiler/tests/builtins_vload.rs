//! `vloadN` and `vstoreN` (OpenCL 1.2 §6.12.7) for N = 2, 3, 4, 8, 16 on
//! `char uchar short ushort int uint long ulong float`, through `__global`,
//! `__local` and `__private` pointers (a 3-vector steps by 3 elements):
//! each work-item copies its vector to another buffer, and through
//! `__local` (mirrored between work-items) and `__private` arrays; against
//! a CPU reference on the golden GPU (wave32 and wave64) and clang-19 +
//! ROCm's object (`GPUSIM_REQUIRE_ROCM=1` makes a missing clang a failure).
//!
//! `cargo test --release -p compiler --test builtins_vload`

mod backend_support;
use backend_support::{build_kernel, clang_rocm_object, run_elf_dims, TestArg};
use compiler::backend::code_object;
use sw::driver::LaunchDims;

/// (type, bytes, float).
const TYPES: [(&str, usize, bool); 9] = [
    ("char", 1, false),
    ("uchar", 1, false),
    ("short", 2, false),
    ("ushort", 2, false),
    ("int", 4, false),
    ("uint", 4, false),
    ("long", 8, false),
    ("ulong", 8, false),
    ("float", 4, true),
];

#[test]
fn vload_and_vstore_every_width_and_type() {
    let require = std::env::var("GPUSIM_REQUIRE_ROCM").is_ok_and(|v| v == "1");
    let items = 64usize;
    for (t, size, float) in TYPES {
        for n in [2usize, 3, 4, 8, 16] {
            // The last work-item's vector ends at the buffer's end, so a
            // store past it would show in the padding words.
            let src = format!(
                "__kernel void k(__global const {t} *x, __global {t} *y, __global {t} *z) {{
  __local {t} l[64 * {n}];
  {t} p[{n}];
  size_t i = get_global_id(0), li = get_local_id(0);
  {t}{n} v = vload{n}(i, x);
  vstore{n}(v, i, y);
  vstore{n}(v, li, l);
  vstore{n}(v, 0, p);
  barrier(CLK_LOCAL_MEM_FENCE);
  vstore{n}(vload{n}(63 - li, l), i, z);
  if (vload{n}(0, p).s1 != v.s1)
    z[0] = 0;
}}"
            );
            let bytes = items * n * size;
            let words = bytes.div_ceil(4) + 1;
            let x: Vec<u32> = (0..words as u32)
                .map(|k| {
                    if float {
                        ((k % 1000) as f32 * 0.5 - 100.0).to_bits()
                    } else {
                        k.wrapping_mul(0x9e37_79b9) ^ 0x8080_8080
                    }
                })
                .collect();
            let elem = |buf: &[u32], k: usize| -> u64 {
                let b: Vec<u8> = buf.iter().flat_map(|w| w.to_le_bytes()).collect();
                let mut v = 0u64;
                for (j, byte) in b[k * size..(k + 1) * size].iter().enumerate() {
                    v |= (*byte as u64) << (8 * j);
                }
                v
            };
            let sentinel = 0xdead_beefu32;
            let args = [
                TestArg::Buf(x.clone()),
                TestArg::Buf(vec![sentinel; words]),
                TestArg::Buf(vec![sentinel; words]),
            ];
            let check = |who: &str, out: &[Vec<u32>]| {
                for i in 0..items {
                    for j in 0..n {
                        let k = i * n + j;
                        let want_y = elem(&x, k);
                        assert_eq!(
                            elem(&out[1], k),
                            want_y,
                            "{who}: vstore{n}(vload{n}) of {t}, item {i} lane {j}"
                        );
                        let mirror = (i / 64) * 64 + 63 - i % 64;
                        let want_z = elem(&x, mirror * n + j);
                        assert_eq!(
                            elem(&out[2], k),
                            want_z,
                            "{who}: __local/__private vload{n} of {t}, item {i} lane {j}"
                        );
                    }
                }
                let used = items * n * size;
                let tail: Vec<u8> = out[1]
                    .iter()
                    .flat_map(|w| w.to_le_bytes())
                    .skip(used)
                    .collect();
                let pad: Vec<u8> = vec![sentinel; words]
                    .iter()
                    .flat_map(|w: &u32| w.to_le_bytes())
                    .skip(used)
                    .collect();
                assert_eq!(tail, pad, "{who}: vstore{n} of {t} wrote past its vectors");
            };
            for wave64 in [false, true] {
                let k = build_kernel(&src, wave64);
                let ours = code_object(std::slice::from_ref(&k)).expect("a code object");
                let dims = LaunchDims::linear(items as u32, 64);
                let who = format!("gpusim wave64={wave64}");
                let out = run_elf_dims(&ours, "k", dims, &args)
                    .unwrap_or_else(|e| panic!("{who} {t}{n}: {e}"));
                check(&who, &out);
                match clang_rocm_object(&src, wave64, &format!("vl_{t}{n}_{wave64}")) {
                    Ok(elf) => {
                        let theirs =
                            run_elf_dims(&elf, "k", dims, &args).expect("clang's object runs");
                        // clang reads the mirrored __local vector as
                        // ds_read with a negative base VGPR (-2·li) and a
                        // positive offset: the models' 32-bit wrap of
                        // address + offset is exercised here.
                        check(&format!("clang wave64={wave64}"), &theirs);
                    }
                    Err(e) => {
                        assert!(!require, "GPUSIM_REQUIRE_ROCM=1: {e}");
                        eprintln!("note: clang comparison skipped: {e}");
                    }
                }
            }
        }
    }
}
