//! The arithmetic rewrites of `-O` (`ir/opt.rs`): constant offsets moved out
//! of addresses, `x % 2^k`, and `x / y` shared with `x % y` — the IR each
//! produces for a small kernel, and the kernels' results on the golden GPU.

use compiler::ir::{opt, print, BinaryOp, Function, InstKind};

mod backend_support;
use backend_support::{build, run, TestArg};

fn lowered(src: &str) -> Function {
    let mut f = build(src, false).ir.remove(0);
    opt::unify_returns(&mut f);
    opt::unify_latches(&mut f);
    opt::dce(&mut f);
    f
}

fn binaries(f: &Function, op: BinaryOp) -> usize {
    f.blocks()
        .iter()
        .flat_map(|&b| f.block(b).insts.clone())
        .filter(|&i| matches!(f.inst(i).kind, InstKind::Binary { op: o, .. } if o == op))
        .count()
}

/// Runs the kernel over 64 work-items with two buffers and `extra` scalars
/// (wave32 and wave64); returns the second buffer of each run.
fn outputs(src: &str, input: &[u32], out_len: usize, extra: &[u32]) -> Vec<Vec<u32>> {
    [false, true]
        .iter()
        .map(|&wave64| {
            let c = build(src, wave64);
            let mut args = vec![TestArg::Buf(input.to_vec()), TestArg::Buf(vec![0; out_len])];
            args.extend(extra.iter().map(|&x| TestArg::U32(x)));
            run(&c.kernels[0], 64, 64, &args)
                .unwrap_or_else(|e| panic!("{e}\n{}", c.kernels[0].listing()))
                .remove(1)
        })
        .collect()
}

const DIVMOD: &str = "__kernel void k(__global const uint *in, __global uint *out, uint y) {
  uint g = get_global_id(0);
  uint x = in[g];
  int sx = (int)x - 5000;
  int sy = (int)y - 9;
  out[4 * g] = x / y;
  out[4 * g + 1] = x % y;
  out[4 * g + 2] = (uint)(sx / sy);
  out[4 * g + 3] = (uint)(sx % sy);
}";

#[test]
fn a_remainder_reuses_the_quotient() {
    let mut f = lowered(DIVMOD);
    assert_eq!(opt::share_division(&mut f), 2, "{}", print(&f));
    opt::cse(&mut f);
    opt::dce(&mut f);
    compiler::ir::verify(&f).unwrap();
    assert_eq!(binaries(&f, BinaryOp::Urem), 0, "{}", print(&f));
    assert_eq!(binaries(&f, BinaryOp::Srem), 0, "{}", print(&f));
    assert_eq!(binaries(&f, BinaryOp::Udiv), 1, "{}", print(&f));
    assert_eq!(binaries(&f, BinaryOp::Sdiv), 1, "{}", print(&f));
    let input: Vec<u32> = (0..64).map(|i| i * 1237 + 11).collect();
    for y in [3u32, 7, 13, 1, 40] {
        let want: Vec<u32> = input
            .iter()
            .flat_map(|&x| {
                let (sx, sy) = (x as i32 - 5000, y as i32 - 9);
                [x / y, x % y, (sx / sy) as u32, (sx % sy) as u32]
            })
            .collect();
        for got in outputs(DIVMOD, &input, 256, &[y]) {
            assert_eq!(got, want, "y = {y}");
        }
    }
}

#[test]
fn a_remainder_by_a_power_of_two_is_a_mask() {
    let src = "__kernel void k(__global const uint *in, __global uint *out) {
  uint g = get_global_id(0);
  out[g] = in[g] % 32u;
}";
    let mut f = lowered(src);
    opt::simplify(&mut f);
    opt::dce(&mut f);
    assert_eq!(binaries(&f, BinaryOp::Urem), 0, "{}", print(&f));
    assert!(print(&f).contains("iconst 31"), "{}", print(&f));
    let input: Vec<u32> = (0..64).map(|i| i * 0x01234567).collect();
    let want: Vec<u32> = input.iter().map(|x| x % 32).collect();
    for got in outputs(src, &input, 64, &[]) {
        assert_eq!(got, want);
    }
}

const TILE: &str = "__kernel void k(__global const uint *in, __global uint *out) {
  __local uint t[16][16];
  uint l = get_local_id(0);
  uint x = l % 16;
  uint y = l / 16;
  t[y][x] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint acc = 0;
  for (uint k = 0; k < 4; k++)
    acc = acc * 7 + t[x % 4][k];
  out[get_global_id(0)] = acc;
}";

#[test]
fn constant_parts_of_lds_addresses_move_out() {
    // After unrolling, the four reads of row `x % 4` are one address plus
    // constants 0, 4, 8, 12: one address computation, not four.
    let mut f = lowered(TILE);
    opt::optimize(&mut f);
    compiler::ir::verify(&f).unwrap();
    let text = print(&f);
    let ptr_adds_with_constant = f
        .blocks()
        .iter()
        .flat_map(|&b| f.block(b).insts.clone())
        .filter(|&i| {
            matches!(f.inst(i).kind, InstKind::PtrAdd { offset, .. } if f.iconst_value(offset).is_some())
        })
        .count();
    assert!(ptr_adds_with_constant >= 3, "{text}");
    let input: Vec<u32> = (0..64).map(|i| i * 3 + 1).collect();
    let want: Vec<u32> = (0..64usize)
        .map(|l| {
            let x = l % 16;
            (0..4).fold(0u32, |acc, k| {
                acc.wrapping_mul(7).wrapping_add(input[(x % 4) * 16 + k])
            })
        })
        .collect();
    for got in outputs(TILE, &input, 64, &[]) {
        assert_eq!(got, want);
    }
}
