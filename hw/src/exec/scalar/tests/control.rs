//! Branches, program counter, hardware registers, modes, subvector loops and
//! the instructions that only steer the pipeline.

use arch::device::FaultKind;

use super::{sgprs, Bench, WAVES};
use crate::exec::Writes;

fn is_empty(w: &Writes) -> bool {
    w.sgpr.is_empty()
        && w.scc.is_none()
        && w.vgpr.is_empty()
        && w.mode.is_none()
        && w.trapsts.is_none()
        && w.flat_scratch.is_none()
        && w.memory.is_empty()
        && w.branch.is_none()
        && w.access.lanes.is_empty()
        && w.access.op == crate::exec::MemOp::None
}

#[test]
fn branch_targets() {
    for wave64 in WAVES {
        let mut t = Bench::new(wave64);
        t.pc = 0x1000;
        // 0x1000 + 4 + 5 * 4
        assert_eq!(t.run("s_branch 5").branch, Some(0x1018));
        // Offset 0xfffe is -2 dwords: 0x1000 + 4 - 8.
        assert_eq!(t.run("s_branch 65534").branch, Some(0xffc));
        t.s.scc = false;
        assert_eq!(t.run("s_cbranch_scc0 1").branch, Some(0x1008));
        assert_eq!(t.run("s_cbranch_scc1 1").branch, None);
        t.s.scc = true;
        assert_eq!(t.run("s_cbranch_scc0 1").branch, None);
        assert_eq!(t.run("s_cbranch_scc1 1").branch, Some(0x1008));
        for text in [
            "s_cbranch_cdbgsys 1",
            "s_cbranch_cdbguser 1",
            "s_cbranch_cdbgsys_or_user 1",
            "s_cbranch_cdbgsys_and_user 1",
        ] {
            assert!(is_empty(&t.run(text)), "{text}");
        }
    }
}

#[test]
fn vcc_and_exec_branches_see_only_the_wave_s_lanes() {
    for wave64 in WAVES {
        let mut t = Bench::new(wave64);
        t.pc = 0x2000;
        let target = Some(0x2000 + 4 + 2 * 4);
        // Only the high halves are set: zero for a wave32, non-zero for a wave64.
        t.s.sgpr[106] = 0;
        t.s.sgpr[107] = 1;
        t.s.sgpr[126] = 0;
        t.s.sgpr[127] = 0x10;
        let (z, nz) = if wave64 {
            (None, target)
        } else {
            (target, None)
        };
        assert_eq!(t.run("s_cbranch_vccz 2").branch, z, "wave64 {wave64}");
        assert_eq!(t.run("s_cbranch_vccnz 2").branch, nz, "wave64 {wave64}");
        assert_eq!(t.run("s_cbranch_execz 2").branch, z, "wave64 {wave64}");
        assert_eq!(t.run("s_cbranch_execnz 2").branch, nz, "wave64 {wave64}");
        t.s.sgpr[106] = 4;
        t.s.sgpr[126] = 4;
        assert_eq!(t.run("s_cbranch_vccz 2").branch, None);
        assert_eq!(t.run("s_cbranch_vccnz 2").branch, target);
        assert_eq!(t.run("s_cbranch_execz 2").branch, None);
        assert_eq!(t.run("s_cbranch_execnz 2").branch, target);
    }
}

#[test]
fn program_counter_instructions() {
    let mut t = Bench::new(false);
    t.pc = 0x1_0000_1000;
    let w = t.run("s_getpc_b64 s[0:1]");
    assert_eq!((sgprs(&w), w.branch), (vec![(0, 0x1004), (1, 1)], None));
    t.s.sgpr[2] = 0x4000;
    t.s.sgpr[3] = 0x2;
    let w = t.run("s_setpc_b64 s[2:3]");
    assert_eq!((sgprs(&w), w.branch), (vec![], Some(0x2_0000_4000)));
    let w = t.run("s_swappc_b64 s[2:3], s[2:3]");
    // The source is read before the destination is written.
    assert_eq!(
        (sgprs(&w), w.branch),
        (vec![(2, 0x1004), (3, 1)], Some(0x2_0000_4000))
    );
    let w = t.run("s_call_b64 s[4:5], 3");
    assert_eq!(
        (sgprs(&w), w.branch),
        (vec![(4, 0x1004), (5, 1)], Some(0x1_0000_1004 + 12))
    );
    let w = t.run("s_call_b64 s[4:5], 65535");
    assert_eq!(w.branch, Some(0x1_0000_1000));
}

#[test]
fn getreg_and_setreg() {
    for wave64 in WAVES {
        let mut t = Bench::new(wave64);
        t.s.mode = 0x3;
        t.s.sgpr[0] = 0xf;
        let w = t.run("s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s0");
        assert_eq!(w.mode, Some(0xf3));
        assert!(w.sgpr.is_empty() && w.scc.is_none());
        t.apply(&w);
        // Only the low `size` bits of the source land in the field.
        t.s.sgpr[0] = 0x35;
        let w = t.run("s_setreg_b32 hwreg(HW_REG_MODE, 8, 4), s0");
        assert_eq!(w.mode, Some(0x5f3));
        t.apply(&w);
        let w = t.run("s_getreg_b32 s1, hwreg(HW_REG_MODE, 0, 8)");
        assert_eq!(sgprs(&w), vec![(1, 0xf3)]);
        let w = t.run("s_getreg_b32 s1, hwreg(HW_REG_MODE, 4, 8)");
        assert_eq!(sgprs(&w), vec![(1, 0x5f)]);
        let w = t.run("s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS, 0, 32), 0x12345678");
        assert_eq!(w.trapsts, Some(0x1234_5678));
        t.s.flat_scratch = 0xaaaa_aaaa_bbbb_bbbb;
        let w = t.run("s_setreg_imm32_b32 hwreg(HW_REG_FLAT_SCR_LO, 0, 32), 0x1000");
        assert_eq!(w.flat_scratch, Some(0xaaaa_aaaa_0000_1000));
        let w = t.run("s_setreg_imm32_b32 hwreg(HW_REG_FLAT_SCR_HI, 0, 16), 0x12");
        assert_eq!(w.flat_scratch, Some(0xaaaa_0012_bbbb_bbbb));
        let w = t.run("s_getreg_b32 s2, hwreg(HW_REG_FLAT_SCR_HI, 0, 32)");
        assert_eq!(sgprs(&w), vec![(2, 0xaaaa_aaaa)]);
        // Registers the model does not let software change ignore writes.
        let w = t.run("s_setreg_imm32_b32 hwreg(HW_REG_GPR_ALLOC, 0, 32), 0x12");
        assert!(w.mode.is_none() && w.trapsts.is_none() && w.flat_scratch.is_none());
        let w = t.run("s_getreg_b32 s3, hwreg(HW_REG_SH_MEM_BASES, 0, 32)");
        assert_eq!(sgprs(&w), vec![(3, 0x0001_0002)]);
        t.cycle = 0x1234_5678;
        let w = t.run("s_getreg_b32 s3, hwreg(HW_REG_SHADER_CYCLES, 0, 20)");
        assert_eq!(sgprs(&w), vec![(3, 0x4_5678)]);
        t.env.wave_in_group = 3;
        let w = t.run("s_getreg_b32 s3, hwreg(HW_REG_HW_ID1, 0, 32)");
        assert_eq!(sgprs(&w), vec![(3, 3)]);
        t.s.scc = true;
        let w = t.run("s_getreg_b32 s3, hwreg(HW_REG_STATUS, 0, 1)");
        assert_eq!(sgprs(&w), vec![(3, 1)]);
    }
}

#[test]
fn round_and_denorm_mode() {
    let mut t = Bench::new(false);
    t.s.mode = 0x2ff;
    assert_eq!(t.run("s_round_mode 0x5").mode, Some(0x2f5));
    assert_eq!(t.run("s_denorm_mode 3").mode, Some(0x23f));
}

#[test]
fn pipeline_only_instructions_give_empty_records() {
    for wave64 in WAVES {
        let mut t = Bench::new(wave64);
        t.s.scc = true;
        for text in [
            "s_nop 0",
            "s_endpgm",
            "s_barrier",
            "s_waitcnt 0",
            "s_waitcnt_vscnt null, 0x0",
            "s_waitcnt_lgkmcnt null, 0x0",
            "s_sleep 2",
            "s_setprio 1",
            "s_clause 0x3",
            "s_code_end",
            "s_icache_inv",
            "s_inst_prefetch 0x1",
            "s_sethalt 0",
            "s_sendmsg sendmsg(MSG_INTERRUPT)",
            "s_wakeup",
            "s_ttracedata",
            "s_endpgm_saved",
            "s_waitcnt_depctr 0xfffe",
            "s_incperflevel 1",
            "s_version 0x0",
        ] {
            let w = t.run(text);
            assert!(is_empty(&w), "{text}: {w:?}");
        }
    }
}

#[test]
fn traps_and_halts_fault() {
    let mut t = Bench::new(false);
    for text in ["s_trap 2", "s_sethalt 1", "s_rfe_b64 s[0:1]"] {
        let inst = t.inst(text);
        match t.exec(&inst) {
            Err(FaultKind::IllegalInstruction { reason }) => {
                assert!(
                    reason.contains(text.split(' ').next().unwrap_or("")),
                    "{reason}"
                )
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn movrel_indexes_with_m0() {
    let mut t = Bench::new(false);
    for i in 0..32 {
        t.s.sgpr[i] = 100 + i as u32;
    }
    t.s.sgpr[124] = 2;
    assert_eq!(sgprs(&t.run("s_movrels_b32 s0, s10")), vec![(0, 112)]);
    assert_eq!(
        sgprs(&t.run("s_movrels_b64 s[0:1], s[10:11]")),
        vec![(0, 112), (1, 113)]
    );
    assert_eq!(sgprs(&t.run("s_movreld_b32 s4, s10")), vec![(6, 110)]);
    assert_eq!(
        sgprs(&t.run("s_movreld_b64 s[4:5], s[10:11]")),
        vec![(6, 110), (7, 111)]
    );
    // Source index M0[9:0], destination index M0[25:16].
    t.s.sgpr[124] = 3 << 16 | 1;
    assert_eq!(sgprs(&t.run("s_movrelsd_2_b32 s0, s10")), vec![(3, 111)]);
    t.s.sgpr[124] = 200;
    let inst = t.inst("s_movrels_b32 s0, s10");
    assert!(matches!(
        t.exec(&inst),
        Err(FaultKind::IllegalInstruction { .. })
    ));
}

#[test]
fn subvector_loop_runs_low_then_high_half() {
    let mut t = Bench::new(true);
    t.pc = 0x100;
    t.s.sgpr[126] = 0xf;
    t.s.sgpr[127] = 0xf0;
    let w = t.run("s_subvector_loop_begin s4, 3");
    assert_eq!((sgprs(&w), w.branch), (vec![(4, 0xf0), (127, 0)], None));
    t.apply(&w);
    // END at 0x110 jumps back to 0x104: offset -4 dwords.
    t.pc = 0x110;
    let w = t.run("s_subvector_loop_end s4, 65532");
    assert_eq!(
        (sgprs(&w), w.branch),
        (vec![(4, 0xf), (126, 0), (127, 0xf0)], Some(0x104))
    );
    t.apply(&w);
    let w = t.run("s_subvector_loop_end s4, 65532");
    assert_eq!((sgprs(&w), w.branch), (vec![(126, 0xf)], None));
    t.apply(&w);
    assert_eq!((t.s.sgpr[126], t.s.sgpr[127]), (0xf, 0xf0));

    // No high half: one low pass, END falls through.
    t.s.sgpr[127] = 0;
    let w = t.run("s_subvector_loop_begin s4, 3");
    t.apply(&w);
    let w = t.run("s_subvector_loop_end s4, 65532");
    assert!(w.sgpr.is_empty() && w.branch.is_none());

    // No low half: only the high pass, with sdst = 0.
    t.s.sgpr[126] = 0;
    t.s.sgpr[127] = 1;
    t.pc = 0x100;
    let w = t.run("s_subvector_loop_begin s4, 3");
    assert_eq!((sgprs(&w), w.branch), (vec![(4, 0)], None));
    t.apply(&w);
    t.pc = 0x110;
    let w = t.run("s_subvector_loop_end s4, 65532");
    assert_eq!((sgprs(&w), w.branch), (vec![(126, 0)], None));

    // EXEC = 0 skips the loop.
    t.s.sgpr[127] = 0;
    t.pc = 0x100;
    let w = t.run("s_subvector_loop_begin s4, 3");
    assert_eq!((sgprs(&w), w.branch), (vec![], Some(0x110)));
}
