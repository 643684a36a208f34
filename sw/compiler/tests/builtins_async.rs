//! `async_work_group_copy`, `async_work_group_strided_copy`,
//! `wait_group_events` and `prefetch` (OpenCL 1.2 §6.12.10;
//! `lib/async_copy.cl`) on scalar and vector gentypes of 1 to 64 bytes
//! (a 3-vector takes 4 elements' room): a tile copied into `__local`, read
//! back permuted, scattered to `__global` with a stride and gathered with
//! one; bytes against a CPU reference on the golden GPU (wave32 and
//! wave64) and clang-19 + ROCm's object (`GPUSIM_REQUIRE_ROCM=1` makes a
//! missing clang a failure).
//!
//! `cargo test --release -p compiler --test builtins_async`

mod backend_support;
use backend_support::{build_kernel, clang_rocm_object, run_elf_dims, TestArg};
use compiler::backend::code_object;
use sw::driver::LaunchDims;

const WG: usize = 64;
const GROUPS: usize = 4;

#[test]
fn async_copies_move_every_byte() {
    let require = std::env::var("GPUSIM_REQUIRE_ROCM").is_ok_and(|v| v == "1");
    for (t, size) in [
        ("char", 1usize),
        ("short", 2),
        ("int", 4),
        ("long", 8),
        ("float4", 16),
        ("int3", 16),
        ("char16", 16),
        ("long8", 64),
    ] {
        let src = format!(
            "__kernel void k(__global const {t} *src, __global {t} *dst, __global {t} *back,
                __global {t} *gath) {{
  __local {t} tile[{WG}];
  __local {t} half_tile[{WG} / 2];
  size_t g = get_group_id(0), l = get_local_id(0);
  prefetch(src + g * {WG}, {WG});
  event_t e = async_work_group_copy(tile, src + g * {WG}, {WG}, 0);
  wait_group_events(1, &e);
  dst[get_global_id(0)] = tile[(l * 5 + 3) % {WG}];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t f = async_work_group_strided_copy(back + g, tile, {WG}, get_num_groups(0), 0);
  event_t h = async_work_group_strided_copy(half_tile, src + g * {WG} + 1, {WG} / 2, 2, 0);
  wait_group_events(1, &h);
  event_t i = async_work_group_copy(gath + g * ({WG} / 2), half_tile, {WG} / 2, f);
  wait_group_events(1, &i);
}}"
        );
        let n = WG * GROUPS;
        let words = n * size / 4 + 1;
        let x: Vec<u32> = (0..words as u32)
            .map(|k| k.wrapping_mul(0x9e37_79b9) ^ 0x5a5a_0000)
            .collect();
        let xb: Vec<u8> = x.iter().flat_map(|w| w.to_le_bytes()).collect();
        let item = |k: usize| &xb[k * size..(k + 1) * size];
        let args = [
            TestArg::Buf(x.clone()),
            TestArg::Buf(vec![0; words]),
            TestArg::Buf(vec![0; words]),
            TestArg::Buf(vec![0; words]),
        ];
        let check = |who: &str, out: &[Vec<u32>]| {
            let bytes =
                |b: usize| -> Vec<u8> { out[b].iter().flat_map(|w| w.to_le_bytes()).collect() };
            let (dst, back, gath) = (bytes(1), bytes(2), bytes(3));
            for g in 0..GROUPS {
                for l in 0..WG {
                    let k = g * WG + l;
                    // A 3-vector assignment leaves the padding element
                    // unspecified; the async copies move all its bytes.
                    let used = if t.ends_with('3') { size / 4 * 3 } else { size };
                    assert_eq!(
                        &dst[k * size..][..used],
                        &item(g * WG + (l * 5 + 3) % WG)[..used],
                        "{who} {t}: permuted tile, item {k}"
                    );
                    let b = l * GROUPS + g;
                    assert_eq!(
                        &back[b * size..][..size],
                        item(k),
                        "{who} {t}: strided scatter, slot {b}"
                    );
                }
                for j in 0..WG / 2 {
                    let s = g * WG + 1 + 2 * j;
                    let d = g * (WG / 2) + j;
                    assert_eq!(
                        &gath[d * size..][..size],
                        item(s),
                        "{who} {t}: strided gather, slot {d}"
                    );
                }
            }
        };
        for wave64 in [false, true] {
            let k = build_kernel(&src, wave64);
            let ours = code_object(std::slice::from_ref(&k)).expect("a code object");
            let dims = LaunchDims::linear(n as u32, WG as u32);
            let out = run_elf_dims(&ours, "k", dims, &args).unwrap_or_else(|e| panic!("{t}: {e}"));
            check(&format!("gpusim wave64={wave64}"), &out);
            match clang_rocm_object(&src, wave64, &format!("async_{t}_{wave64}")) {
                Ok(elf) => {
                    let theirs = run_elf_dims(&elf, "k", dims, &args).expect("clang's object runs");
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

/// Wrong operands are refused with the call named.
#[test]
fn wrong_async_copy_operands_are_refused() {
    for call in [
        "async_work_group_copy(o, o, 4, 0)",
        "async_work_group_copy(l, (__global int *)o, 4, 0)",
        "async_work_group_strided_copy(l, o, 4, 0)",
        "prefetch(l, 4)",
    ] {
        let src = format!("__kernel void k(__global float *o) {{ __local float l[4]; {call}; }}");
        let e = compiler::compile(
            compiler::Source::Text {
                name: "t.cl",
                text: &src,
            },
            &compiler::CompileOptions::default(),
        )
        .err()
        .unwrap_or_else(|| panic!("{call} compiled"));
        let name = call.split('(').next().unwrap();
        assert!(e.to_string().contains(name), "{call}: {e}");
    }
}
