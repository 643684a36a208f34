//! Hand-picked cases, each checked against llvm-mc-19 (`--disassemble`).

use crate::isa::{assemble, decode, encode, Target};

const W32: Target = Target::GFX1030_W32;
const W64: Target = Target::GFX1030_W64;
const GCN: Target = Target::GFX803;

fn text(target: Target, words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    match decode(target, &bytes) {
        Ok(inst) => {
            let mut again = Vec::new();
            encode(&inst, &mut again).expect("decoded instruction re-encodes");
            assert_eq!(
                again,
                bytes[..usize::from(inst.size)],
                "round trip of {inst}"
            );
            inst.to_string()
        }
        Err(e) => format!("ERR {e}"),
    }
}

fn asm(target: Target, line: &str) -> Vec<u32> {
    let bytes = assemble(target, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn sopp_basics() {
    assert_eq!(text(W32, &[0xbf81_0000]), "s_endpgm");
    assert_eq!(text(W32, &[0xbf81_0003]), "s_endpgm 3");
    assert_eq!(text(W32, &[0xbf80_0040]), "s_nop 64");
    assert_eq!(text(W32, &[0xbf80_0041]), "s_nop 0x41");
    assert_eq!(text(W32, &[0xbf82_0008]), "s_branch 8");
    assert_eq!(text(W32, &[0xbf82_ffff]), "s_branch 65535");
    assert_eq!(text(W32, &[0xbf85_0019]), "s_cbranch_scc1 25");
    assert_eq!(text(W32, &[0xbf88_0016]), "s_cbranch_execz 22");
    assert_eq!(text(W32, &[0xbfa1_0001]), "s_clause 0x1");
    assert_eq!(text(W32, &[0xbf8a_0000]), "s_barrier");
    assert!(
        text(W32, &[0xbf8a_0001]).starts_with("ERR"),
        "s_barrier takes no immediate"
    );
    assert_eq!(
        text(GCN, &[0xbf9d_0001]),
        "s_set_gpr_idx_mode gpr_idx(SRC0)"
    );
}

#[test]
fn waitcnt_layouts() {
    assert_eq!(
        text(W32, &[0xbf8c_0000]),
        "s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)"
    );
    assert_eq!(text(W32, &[0xbf8c_c07f]), "s_waitcnt lgkmcnt(0)");
    assert_eq!(text(W32, &[0xbf8c_3f70]), "s_waitcnt vmcnt(0)");
    assert_eq!(
        text(W32, &[0xbf8c_ffff]),
        "s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(63)"
    );
    assert_eq!(text(GCN, &[0xbf8c_007f]), "s_waitcnt lgkmcnt(0)");
    assert_eq!(text(GCN, &[0xbf8c_0f70]), "s_waitcnt vmcnt(0)");
    assert_eq!(
        text(GCN, &[0xbf8c_0f7f]),
        "s_waitcnt vmcnt(15) expcnt(7) lgkmcnt(15)"
    );
    assert_eq!(asm(W32, "s_waitcnt vmcnt(0) lgkmcnt(0)"), [0xbf8c_0070]);
    assert_eq!(asm(GCN, "s_waitcnt lgkmcnt(0)"), [0xbf8c_007f]);
}

#[test]
fn sendmsg_hwreg_depctr() {
    assert_eq!(
        text(W32, &[0xbf90_0003]),
        "s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)"
    );
    assert_eq!(
        text(W32, &[0xbf90_0022]),
        "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 0)"
    );
    assert_eq!(text(W32, &[0xbf90_0000]), "s_sendmsg sendmsg(0, 0, 0)");
    assert_eq!(text(W32, &[0xbf90_8000]), "s_sendmsg 32768");
    assert_eq!(
        text(W32, &[0xb902_0001]),
        "s_getreg_b32 s2, hwreg(HW_REG_MODE, 0, 1)"
    );
    assert_eq!(
        text(W32, &[0xb902_f801]),
        "s_getreg_b32 s2, hwreg(HW_REG_MODE)"
    );
    assert_eq!(
        text(W32, &[0xbfa3_0003]),
        "s_waitcnt_depctr depctr_hold_cnt(0) depctr_va_vdst(0) depctr_va_sdst(0) depctr_va_ssrc(0) depctr_vm_vsrc(0)"
    );
    assert_eq!(text(W32, &[0xbfa3_fffe]), "s_waitcnt_depctr 0xfffe");
    assert_eq!(
        asm(W32, "s_getreg_b32 s2, hwreg(HW_REG_MODE, 0, 1)"),
        [0xb902_0001]
    );
}

#[test]
fn sopk_forms() {
    assert_eq!(text(W32, &[0xbbfd_0000]), "s_waitcnt_vscnt null, 0x0");
    assert_eq!(text(W32, &[0xb002_1234]), "s_movk_i32 s2, 0x1234");
    assert_eq!(text(W32, &[0xbd82_0004]), "s_subvector_loop_begin s2, 4");
    assert_eq!(text(W32, &[0xb080_0000]), "s_version UC_VERSION_GFX7");
    assert_eq!(
        text(W32, &[0xba80_0801, 0x0000_0041]),
        "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 0x41"
    );
    assert_eq!(asm(W32, "s_waitcnt_vscnt null, 0x0"), [0xbbfd_0000]);
    assert_eq!(
        asm(W32, "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 3"),
        [0xba80_0801, 3]
    );
}

#[test]
fn sop1_sop2_sopc_operands() {
    assert_eq!(
        text(W32, &[0x8700_ff00, 0x0000_ffff]),
        "s_and_b32 s0, s0, 0xffff"
    );
    assert_eq!(text(W32, &[0xbe82_0304]), "s_mov_b32 s2, s4");
    assert_eq!(text(W32, &[0xbe82_0404]), "s_mov_b64 s[2:3], s[4:5]");
    assert!(
        text(W32, &[0xbe82_0405]).starts_with("ERR"),
        "odd 64-bit source"
    );
    assert_eq!(
        text(W32, &[0xbeea_3c6a]),
        "s_and_saveexec_b32 vcc_lo, vcc_lo"
    );
    assert_eq!(text(W64, &[0xbeea_246a]), "s_and_saveexec_b64 vcc, vcc");
    assert_eq!(
        text(GCN, &[0xbee6_0166]),
        "s_mov_b64 flat_scratch, flat_scratch"
    );
    assert_eq!(text(W32, &[0xbe82_03f2]), "s_mov_b32 s2, 1.0");
    assert_eq!(text(W32, &[0xbe82_1f00]), "s_getpc_b64 s[2:3]");
    assert_eq!(text(W32, &[0xbf06_8504]), "s_cmp_eq_u32 s4, 5");
    assert_eq!(text(W32, &[0xbe82_037d]), "s_mov_b32 s2, null");
    assert_eq!(asm(W32, "s_and_b32 s0, s0, 0xffff"), [0x8700_ff00, 0xffff]);
    assert_eq!(asm(W32, "s_mov_b64 exec, -1"), [0xbefe_04c1]);
}

/// Hand-written forms llvm-mc-19 accepts (gfx1030), with its encodings.
const HAND_WRITTEN: &[(&str, &[u32])] = &[
    ("s_waitcnt vmcnt(0) & lgkmcnt(0)", &[0xbf8c0070]),
    ("s_waitcnt vmcnt(0), lgkmcnt(0)", &[0xbf8c0070]),
    ("s_waitcnt 0", &[0xbf8c0000]),
    ("s_waitcnt expcnt(1)", &[0xbf8cff1f]),
    ("s_load_dword s0, s[4:5], 0x2c", &[0xf4000002, 0xfa00002c]),
    (
        "s_load_dwordx2 s[0:1], s[4:5], 0x0",
        &[0xf4040002, 0xfa000000],
    ),
    ("s_load_dword s0, s[4:5], s6", &[0xf4000002, 0x0c000000]),
    (
        "s_load_dword s0, s[4:5], s6 offset:0x10",
        &[0xf4000002, 0x0c000010],
    ),
    (
        "s_buffer_load_dword s0, s[4:7], 0x10 glc dlc",
        &[0xf4214002, 0xfa000010],
    ),
    ("s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)", &[0xbf900003]),
    ("s_sendmsg sendmsg(MSG_INTERRUPT)", &[0xbf900001]),
    ("s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 1)", &[0xbf900122]),
    ("s_sendmsg 3", &[0xbf900003]),
    (
        "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 0x3",
        &[0xba800801, 0x00000003],
    ),
    ("s_getreg_b32 s0, hwreg(HW_REG_HW_ID)", &[0xb900f817]),
    ("s_getreg_b32 s0, hwreg(HW_REG_MODE)", &[0xb900f801]),
    ("s_getreg_b32 s0, hwreg(1, 0, 32)", &[0xb900f801]),
    ("s_waitcnt_depctr 0xffe3", &[0xbfa3ffe3]),
    ("s_waitcnt_depctr depctr_va_vdst(0)", &[0xbfa30f9f]),
    ("s_branch -2", &[0xbf82fffe]),
    ("s_cbranch_scc0 65534", &[0xbf84fffe]),
    ("s_nop 0x7", &[0xbf800007]),
    ("s_clause 1", &[0xbfa10001]),
    ("s_endpgm", &[0xbf810000]),
    ("s_endpgm 0", &[0xbf810000]),
    ("s_mov_b32 s0, -1", &[0xbe8003c1]),
    ("s_mov_b32 s0, 0x3f800000", &[0xbe8003f2]),
    ("s_mov_b64 s[0:1], 0xffffffff", &[0xbe8004ff, 0xffffffff]),
    ("s_mov_b64 exec, -1", &[0xbefe04c1]),
    ("s_and_saveexec_b32 s0, vcc_lo", &[0xbe803c6a]),
    ("s_cmp_eq_u32 s0, 0x12345678", &[0xbf06ff00, 0x12345678]),
    ("s_movk_i32 s0, -1", &[0xb000ffff]),
    ("s_movk_i32 s0, 0x8000", &[0xb0008000]),
    ("s_waitcnt_vscnt null, 0", &[0xbbfd0000]),
    ("s_call_b64 s[30:31], 4", &[0xbb1e0004]),
    ("s_subvector_loop_begin s0, 8", &[0xbd800008]),
    ("s_version 0x2004", &[0xb0802004]),
    ("s_inst_prefetch 0x3", &[0xbfa00003]),
    ("s_denorm_mode 0xf", &[0xbfa5000f]),
    ("s_round_mode 0x0", &[0xbfa40000]),
    ("s_memtime s[0:1]", &[0xf4900000, 0x00000000]),
    ("s_dcache_inv", &[0xf4800000, 0x00000000]),
    ("s_gl1_inv", &[0xf47c0000, 0x00000000]),
    ("s_atc_probe 7, s[4:5], 0x0", &[0xf49801c2, 0xfa000000]),
    ("s_add_u32 s0, s0, 4.0", &[0x8000f600]),
    ("s_lshl_b32 s0, s1, 0.5", &[0x8f00f001]),
];

#[test]
fn hand_written_forms_assemble_like_llvm() {
    for (line, words) in HAND_WRITTEN {
        assert_eq!(asm(W32, line), *words, "{line}");
    }
}

#[test]
fn gfx803_specifics() {
    assert_eq!(text(GCN, &[0xbe80_2e04]), "s_cbranch_join s4");
    assert_eq!(
        text(GCN, &[0xbf11_0304]),
        "s_set_gpr_idx_on s4, gpr_idx(SRC0,SRC1)"
    );
    assert_eq!(text(GCN, &[0xbf10_0304]), "s_setvskip s4, s3");
    assert_eq!(text(GCN, &[0xb802_0004]), "s_cbranch_i_fork s[2:3], 4");
    assert_eq!(
        text(GCN, &[0xbf90_0033]),
        "s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_EMIT_CUT, 0)"
    );
    assert_eq!(
        text(GCN, &[0xbf90_003f]),
        "s_sendmsg sendmsg(MSG_SYSMSG, SYSMSG_OP_HOST_TRAP_ACK)"
    );
    assert_eq!(text(GCN, &[0xbe80_1f08]), "s_rfe_b64 s[8:9]");
    assert_eq!(text(GCN, &[0xbe80_1d02]), "s_setpc_b64 s[2:3]");
    assert!(
        text(GCN, &[0xbe80_1dc1]).starts_with("ERR"),
        "s_setpc_b64 takes a register"
    );
    assert_eq!(
        text(GCN, &[0xb882_0004]),
        "s_getreg_b32 s2, hwreg(HW_REG_HW_ID, 0, 1)"
    );
    assert_eq!(
        text(GCN, &[0xb902_f803]),
        "s_setreg_b32 hwreg(HW_REG_TRAPSTS), s2"
    );
    assert_eq!(text(GCN, &[0xbe80_0066]), "s_mov_b32 s0, flat_scratch_lo");
    assert_eq!(text(GCN, &[0xbee6_017e]), "s_mov_b64 flat_scratch, exec");
    assert_eq!(text(GCN, &[0xbe8a_0168]), "s_mov_b64 s[10:11], xnack_mask");
    assert_eq!(
        asm(GCN, "s_set_gpr_idx_on s4, gpr_idx(SRC0,SRC1)"),
        [0xbf11_0304]
    );
    assert_eq!(
        asm(GCN, "s_getreg_b32 s2, hwreg(HW_REG_HW_ID, 0, 1)"),
        [0xb882_0004]
    );
    assert_eq!(asm(GCN, "s_waitcnt vmcnt(0) & lgkmcnt(0)"), [0xbf8c_0070]);
}

#[test]
fn truncated_and_invalid_inputs_are_errors() {
    // Literal missing.
    assert!(matches!(
        decode(W32, &[0xff, 0x03, 0x82, 0xbe]),
        Err(crate::isa::DecodeError::Truncated { .. })
    ));
    // s_wakeup (SOPP 3) takes no immediate: a non-zero field is rejected, as LLVM does.
    assert!(matches!(
        decode(W32, &0xbf83_0001u32.to_le_bytes()),
        Err(crate::isa::DecodeError::InvalidOperand { .. })
    ));
    // SOPP opcode 0x7f does not exist.
    assert!(matches!(
        decode(W32, &0xbfff_0000u32.to_le_bytes()),
        Err(crate::isa::DecodeError::InvalidOpcode { .. })
    ));
    // Assembly errors name the column.
    let e = assemble(W32, "s_mov_b32 s0, v1").unwrap_err();
    assert_eq!(e.column, 15, "{e}");
    let e = assemble(W32, "s_waitcnt vmcnt(99)").unwrap_err();
    assert_eq!(e.column, 11, "{e}");
}

#[test]
fn missing_immediates_are_errors_as_in_llvm() {
    for line in ["s_waitcnt", "s_sendmsg", "s_nop", "s_getreg_b32 s0"] {
        assert!(assemble(W32, line).is_err(), "{line}");
    }
    assert_eq!(asm(W32, "s_endpgm 5"), [0xbf81_0005]);
}
