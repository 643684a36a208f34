//! Regression tests for the floating-point disagreements the random-program
//! lockstep found between the golden and the clocked GPU (issue 14). Each
//! test is the shrinker's minimal program: one instruction on chosen
//! register values, run in lockstep; it failed before its fix. The values
//! a test checks besides agreement are the documented choice
//! (docs/floating-point.md, docs/reliability.md "Bugs found and fixed").

use arch::isa::{assemble, decode, Target};
use cosim::fuzz::{self, Item, Program, Verdict};

/// MODE: round to nearest even, denormals kept (f32 and f16/f64), IEEE on,
/// DX10_CLAMP on (what the dispatch sets for gfx1030 kernels).
const MODE_DEFAULT: u32 = 0x3f0;

/// A one-instruction program on wave32 with `vgprs` (register, value) in
/// every lane and `sgprs` (s10.. register, value), other state zero.
fn program(text: &str, mode: u32, vgprs: &[(usize, u32)], sgprs: &[(usize, u32)]) -> Program {
    let target = Target::GFX1030_W32;
    let code = assemble(target, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let inst = decode(target, &code).expect("decodes");
    let mut data = vec![0u8; 0x6000];
    for lane in 0..32 {
        for &(r, v) in vgprs {
            let at = lane * 128 + 4 * r;
            data[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
    }
    let mut scalars = vec![0u32; 22];
    for &(s, v) in sgprs {
        scalars[s - 10] = v;
    }
    Program {
        target,
        mode,
        scalars,
        data,
        body: vec![Item::Inst(inst)],
    }
}

/// Runs `p` in lockstep and requires agreement.
fn agree(p: &Program) {
    let v = fuzz::run(p, None);
    assert_eq!(v, Verdict::Agree, "{}", p.body_text());
}

/// The dword `v{r}` of lane 0 after running `p` on the golden model alone
/// is what lockstep compared; reading it back needs the data buffer, which
/// `fuzz::run` does not return, so the tests check agreement and, where the
/// value matters, run a second instruction that turns it into a compare.
#[test]
fn f16_compare_with_an_integer_inline_constant() {
    // -12 in an f16 operand is the bit pattern 0xfff4 (a NaN), not -12.0.
    agree(&program(
        "v_cmpx_eq_f16_e64 -12, s17",
        0x330,
        &[],
        &[(17, 8)],
    ));
    agree(&program(
        "v_cmp_gt_f16_e64 s22, neg(-15), -v15",
        0x330,
        &[(15, 0x7fc0_1234)],
        &[],
    ));
}
