//! Regression tests of the random-program lockstep fuzzer (integer, scalar
//! and lane opcodes): each test is a minimal program the shrinker produced
//! for one bug, failing before its fix (docs/reliability.md, "Bugs found
//! and fixed").

use arch::isa::asm::assemble_line;
use arch::isa::Target;
use cosim::fuzz::{self, gen, Item, Program, Verdict};

/// A program of the random prologue (fixed seed), optionally an EXEC mask,
/// then `body` (one instruction a line, LLVM syntax).
fn program(target: Target, exec: Option<u64>, body: &str) -> Program {
    let mut rng = gen::Rng::new(0x5eed);
    let mut p = Program::random(&mut rng, target, &[], 0);
    if let Some(m) = exec {
        p.body.push(Item::SetExec(m));
    }
    for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let inst = assemble_line(target, line)
            .unwrap_or_else(|e| panic!("{line}: {e}"))
            .expect("an instruction");
        p.body.push(Item::Inst(inst));
    }
    p
}

/// Runs `body` in lockstep on both wave sizes (with a divergent EXEC too)
/// and requires agreement; `MASK` in `body` is a lane-mask SGPR (s12 in
/// wave32, s[12:13] in wave64).
fn agree(body: &str) {
    for target in [Target::GFX1030_W32, Target::GFX1030_W64] {
        let mask = if target.wave64 { "s[12:13]" } else { "s12" };
        let body = body.replace("MASK", mask);
        for exec in [None, Some(0x0f0f_3c3c_a5a5_f00f)] {
            let exec = exec.map(|m| if target.wave64 { m } else { m & 0xffff_ffff });
            let p = program(target, exec, &body);
            let v = fuzz::run(&p, None);
            assert_eq!(
                v,
                Verdict::Agree,
                "wave{}:\n{}",
                target.wave_size(),
                p.body_text()
            );
        }
    }
}

/// `s_*_saveexec_*` with EXEC as its destination: the ISA's order is
/// D = EXEC, then EXEC = op(S0, EXEC), so EXEC ends as the new mask; the
/// golden GPU wrote the new EXEC first and then the saved one over it.
#[test]
fn saveexec_with_an_exec_destination_keeps_the_new_exec() {
    for target in [Target::GFX1030_W32, Target::GFX1030_W64] {
        let body = if target.wave64 {
            "s_nand_saveexec_b64 exec, s[12:13]\ns_and_saveexec_b64 exec, s[14:15]"
        } else {
            "s_andn2_saveexec_b32 exec_lo, s11\ns_xor_saveexec_b32 exec_lo, s12"
        };
        let p = program(target, None, body);
        assert_eq!(fuzz::run(&p, None), Verdict::Agree, "{}", p.body_text());
    }
}

/// `clamp` on integer results saturates (LLVM's AMDGPUModifierSyntax): the
/// golden GPU wrapped for the 24-bit and 16-bit multiply-adds, the SADs,
/// and the 24-bit multiplies.
#[test]
fn integer_clamp_saturates() {
    agree(
        "v_mad_u32_u24 v10, v17, v3, v8 clamp
         v_mad_i32_i24 v21, s10, v4, vcc_lo clamp
         v_mad_u32_u16 v11, v15, s23, v9 clamp
         v_mad_i32_i16 v12, v15, s23, v9 clamp
         v_sad_hi_u8 v13, v17, v3, v8 clamp
         v_msad_u8 v14, v17, v3, v8 clamp
         v_sad_u32 v15, v17, v3, v8 clamp
         v_mul_u32_u24_e64 v16, v1, v2 clamp",
    );
}

/// `clamp` on a result that is always in range (16-bit min/max/med3, packed
/// min/max/shifts) changes nothing; the clocked GPU faulted "not
/// implemented in the cycle model" on it.
#[test]
fn clamp_on_an_in_range_integer_result_is_the_identity() {
    agree(
        "v_max3_u16 v10, v15, s23, v9 clamp
         v_min3_i16 v11, v15, s23, v9 clamp
         v_med3_i16 v12, v15, s23, v9 clamp
         v_pk_max_i16 v5, s27, s16 op_sel:[0,1] clamp
         v_pk_min_u16 v6, v8, vcc_lo op_sel:[1,1] clamp
         v_pk_lshlrev_b16 v7, v8, vcc_lo op_sel:[1,1] clamp
         v_pk_ashrrev_i16 v9, v8, v1 clamp",
    );
}

/// A 16-bit integer inline constant is the 32-bit sign-extended value; its
/// high half (`op_sel` in VOP3, `op_sel_hi` in VOP3P) is 0xffff for a
/// negative one, and a float constant is the f16 value over a zero half.
/// The clocked GPU zero-extended 16-bit constants in VOP3 and replicated
/// the low half into the high one in VOP3P.
#[test]
fn inline_constants_of_16_bit_operands_are_32_bit_values() {
    agree(
        "v_add_nc_i16 v12, -7, -5 op_sel:[1,1,1]
         v_sub_nc_i16 v9, v15, -15 op_sel:[1,1,1]
         v_pk_add_i16 v17, v18, -15 op_sel:[1,1]
         v_pk_add_i16 v11, 4.0, s11
         v_pk_mad_u16 v3, v13, v5, 37 op_sel:[0,1,0]
         v_mad_u16 v4, -7, -5, 0xfc00 op_sel:[0,1,0,1]",
    );
}

/// `v_ffbh_i32` counts the sign bit among the leading bits equal to it
/// (34 gives 26); the golden GPU subtracted one.
#[test]
fn ffbh_i32_counts_the_sign_bit() {
    agree("v_ffbh_i32_e32 v4, 34\nv_ffbh_i32_e32 v5, v23\nv_ffbh_i32_e64 v6, -2");
}

/// `v_sad_u16` is one absolute difference of the low halves plus S2 (RDNA2
/// ISA); the golden GPU added the high halves' difference too.
#[test]
fn sad_u16_uses_the_low_halves() {
    agree("v_sad_u16 v12, v1, v2, v3\nv_sad_u16 v13, -7, -5, 0x7c00fc00\nv_sad_u16 v14, v15, s23, v9 clamp");
}

/// `v_mad_u64_u32`/`v_mad_i64_i32` with `clamp`: the clocked GPU faulted;
/// both now saturate an overflowing lane.
#[test]
fn mad_64_with_clamp_saturates() {
    agree(
        "v_mad_u64_u32 v[6:7], MASK, v1, v2, v[3:4] clamp
         v_mad_i64_i32 v[8:9], MASK, v1, v2, v[3:4] clamp
         v_mad_u64_u32 v[10:11], MASK, -1, -1, -1 clamp",
    );
}

/// Triage aid (not a check): `GPUSIM_TRIAGE="m1 m2"` prints, per mnemonic,
/// the first disagreements of one-instruction programs.
#[test]
#[ignore]
fn triage() {
    let wanted = std::env::var("GPUSIM_TRIAGE").unwrap_or_default();
    let tries: usize = std::env::var("GPUSIM_TRIAGE_TRIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let rows = gen::alu_rows(true);
    for m in wanted.split_whitespace() {
        let mut shown = 0;
        let mut runs = 0;
        for row in rows.iter().filter(|r| r.opcode.mnemonic() == m) {
            let mut rng = gen::Rng::new(0x7e1a);
            for k in 0..tries * 4 {
                if runs >= tries || shown >= 3 {
                    break;
                }
                let target = if k % 2 == 0 {
                    Target::GFX1030_W32
                } else {
                    Target::GFX1030_W64
                };
                let Some(inst) = gen::instruction(&mut rng, target, row) else {
                    continue;
                };
                runs += 1;
                let p = Program::single(&mut rng, inst);
                let v = fuzz::run(&p, None);
                if let Verdict::Mismatch(t) | Verdict::Error(t) = v {
                    shown += 1;
                    eprintln!(
                        "== {m} w{}: {}\n{}",
                        target.wave_size(),
                        p.body_text().trim(),
                        t
                    );
                }
            }
        }
        eprintln!("-- {m}: {shown} failing of {runs}");
    }
}

/// `v_mqsad_u32_u8` with an SGPR quad as S2: the clocked GPU read dwords 2
/// and 3 of a scalar range as zero.
#[test]
fn mqsad_u32_u8_reads_all_four_dwords_of_an_sgpr_s2() {
    agree("v_mqsad_u32_u8 v[16:19], v[1:2], v14, s[24:27]\nv_mqsad_u32_u8 v[6:9], s[16:17], 0x81a930b9, s[12:15]");
}

/// `v_dot2_i32_i16`/`v_dot2_u32_u16` take their 16-bit elements through
/// `op_sel`/`op_sel_hi` like every packed source; the golden GPU ignored
/// them.
#[test]
fn dot2_16_bit_elements_follow_op_sel() {
    agree(
        "v_dot2_i32_i16 v12, -7, -5, 0x7c00fc00 op_sel:[1,1,1]
         v_dot2_u32_u16 v3, v13, v5, 37 op_sel:[0,1,0]
         v_dot2_i32_i16 v4, v13, v5, v6 op_sel:[1,0,0] op_sel_hi:[0,1,1]",
    );
}

/// `v_permlane16_b32`/`v_permlanex16_b32` with inactive source lanes: without
/// FI the lane keeps its value (or, with BOUND_CTRL, gets 0); the golden GPU
/// read inactive lanes as if FI were set.
#[test]
fn permlane_honours_fetch_inactive_and_bound_ctrl() {
    agree(
        "v_permlane16_b32 v6, v21, s12, s13
         v_permlanex16_b32 v7, v20, s14, s15
         v_permlane16_b32 v8, v10, s16, 32 op_sel:[0,1]
         v_permlanex16_b32 v9, v11, s17, -9 op_sel:[1,0]",
    );
}

/// Every memory template of the generator assembles, on both wave sizes:
/// the instruction alone (cache invalidates), with its wait, or with the
/// setup before it (a descriptor format, M0, a permute address) too.
#[test]
fn memory_templates_assemble() {
    let mut rng = gen::Rng::new(3);
    for target in [Target::GFX1030_W32, Target::GFX1030_W64] {
        for _ in 0..2000 {
            let m = fuzz::mem::random(&mut rng, target);
            assert!(
                m.as_ref().is_ok_and(|m| (1..=4).contains(&m.len())),
                "{m:?}"
            );
        }
    }
}

/// A float inline constant as a wave64 lane mask (carry-in, `v_cndmask`
/// selector) is the f64 value, as for any 64-bit operand; the golden GPU
/// read the f32 value.
#[test]
fn float_constant_lane_masks_in_wave64_are_f64() {
    agree(
        "v_cndmask_b32_e64 v21, v18, v6, 1.0
         v_add_co_ci_u32_e64 v23, MASK, v1, v13, -0.5
         v_sub_co_ci_u32_e64 v10, MASK, s12, v2, 0.15915494
         v_subrev_co_ci_u32_e64 v17, MASK, s19, s24, 4.0",
    );
}

/// `v_sub_nc_i32`/`v_sub_nc_i16` with `clamp` and the most negative
/// subtrahend: the golden GPU negated it first (which overflows) instead of
/// saturating the exact difference.
#[test]
fn signed_subtract_with_clamp_saturates_the_exact_difference() {
    agree(
        "v_mov_b32 v2, 0x80000000
         v_mov_b32 v3, 0x8000
         v_sub_nc_i32 v21, v1, v2 clamp
         v_sub_nc_i32 v20, 1, v2 clamp
         v_sub_nc_i16 v10, v5, v2 op_sel:[0,1,0] clamp
         v_sub_nc_i16 v11, 0, v3 clamp",
    );
}

/// The memory items really move data: a GLOBAL load, a MUBUF load through
/// the prologue's descriptor, an SMEM load and an LDS round trip each copy
/// a known input value (checked on the lockstep device's final memory).
#[test]
fn memory_items_move_data() {
    let target = Target::GFX1030_W32;
    // The input slot of v_r is lane * 128 + 4 * r; the epilogue stores v_r
    // at 0x2000 + lane * 128 + 4 * r.
    let p = program(
        target,
        None,
        "buffer_load_dword v5, v30, s[36:39], 0 offen offset:8
         s_waitcnt vmcnt(0)
         global_load_dword v6, v30, s[4:5] offset:12
         s_waitcnt vmcnt(0)
         ds_write_b32 v27, v4 offset:4
         s_waitcnt lgkmcnt(0)
         ds_read_b32 v7, v27 offset:4
         s_waitcnt lgkmcnt(0)
         s_load_dword s10, s[4:5], 0x4
         s_waitcnt lgkmcnt(0)
         v_mov_b32 v8, s10",
    );
    assert_eq!(fuzz::run(&p, None), Verdict::Agree);
    let out = fuzz::run_and_read(&p, None).1.expect("the program ran");
    let word = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    for lane in 0..32 {
        let input = |r: usize| word(&p.data, lane * 128 + 4 * r);
        let output = |r: usize| word(&out, 0x2000 + lane * 128 + 4 * r);
        assert_eq!(output(5), input(2), "buffer load, lane {lane}");
        assert_eq!(output(6), input(3), "global load, lane {lane}");
        assert_eq!(output(7), input(4), "LDS round trip, lane {lane}");
        assert_eq!(output(8), word(&p.data, 4), "SMEM load, lane {lane}");
    }
}
