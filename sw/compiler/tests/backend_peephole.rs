//! Instruction-selection patterns of the second back-end session
//! (docs/compiler-eval.md §3): `a > b ? a : b` as `v_max_i32`, a `__local`
//! array's LDS offset in the DS instruction's `offset:`. Each is checked on the
//! listing (the checks fail without the pattern) and run on the golden GPU
//! against a Rust evaluation, wave32 and wave64.

mod backend_support;
use backend_support::{build_kernel as build, run, TestArg};

const MIN_MAX: &str = "__kernel void k(__global const int *a, __global const int *b,
                       __global int *o, uint ua) {
  uint i = get_global_id(0);
  int x = a[i], y = b[i];
  uint ux = (uint)x, uy = (uint)y;
  o[4 * i + 0] = x > y ? x : y;
  o[4 * i + 1] = x < y ? x : y;
  o[4 * i + 2] = (int)(ux >= uy ? uy : ux);
  o[4 * i + 3] = (int)(ua > ux ? ua : ux);
}";

#[test]
fn select_of_a_compare_of_its_operands_is_min_or_max() {
    let a: Vec<u32> = (0..64u32)
        .map(|i| (i.wrapping_mul(0x9e37_79b9)) ^ (i << 28))
        .collect();
    let b: Vec<u32> = (0..64u32).map(|i| i.wrapping_mul(0x85eb_ca6b)).collect();
    let ua = 0x8000_0000u32;
    for wave64 in [false, true] {
        let k = build(MIN_MAX, wave64);
        let l = k.listing();
        for op in ["v_max_i32", "v_min_i32", "v_min_u32", "v_max_u32"] {
            assert!(l.contains(op), "no {op}:\n{l}");
        }
        assert!(!l.contains("v_cndmask"), "{l}");
        let out = run(
            &k,
            64,
            32,
            &[
                TestArg::Buf(a.clone()),
                TestArg::Buf(b.clone()),
                TestArg::Buf(vec![0; 256]),
                TestArg::U32(ua),
            ],
        )
        .unwrap();
        for i in 0..64 {
            let (x, y) = (a[i] as i32, b[i] as i32);
            let want = [
                x.max(y) as u32,
                x.min(y) as u32,
                a[i].min(b[i]),
                ua.max(a[i]),
            ];
            assert_eq!(out[2][4 * i..4 * i + 4], want, "wave64={wave64} i={i}\n{l}");
        }
    }
}

const LDS: &str = "__kernel void k(__global const int *in, __global int *out) {
  __local int first[64];
  __local int second[64];
  uint t = get_local_id(0);
  uint g = get_global_id(0);
  first[t] = in[g];
  second[t] = in[g] * 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = first[63 - t] + second[t ^ 1];
}";

#[test]
fn local_array_offsets_fold_into_ds_instructions() {
    let input: Vec<u32> = (0..128u32).map(|i| i * 7 + 1).collect();
    for wave64 in [false, true] {
        let k = build(LDS, wave64);
        let l = k.listing();
        // `second` lives at LDS byte 256: its accesses carry `offset:256`
        // and no instruction adds 0x100 to an index.
        assert!(
            l.lines()
                .filter(|t| t.starts_with("ds_") && t.contains("offset:256"))
                .count()
                >= 2,
            "{l}"
        );
        assert!(!l.contains("0x100"), "{l}");
        let out = run(
            &k,
            128,
            64,
            &[TestArg::Buf(input.clone()), TestArg::Buf(vec![0; 128])],
        )
        .unwrap();
        let want: Vec<u32> = (0..128usize)
            .map(|g| {
                let (base, t) = (g / 64 * 64, g % 64);
                input[base + 63 - t].wrapping_add(input[base + (t ^ 1)].wrapping_mul(3))
            })
            .collect();
        assert_eq!(out[1], want, "wave64={wave64}\n{l}");
    }
}
