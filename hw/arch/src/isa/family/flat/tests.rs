//! FLAT/GLOBAL/SCRATCH unit tests: LLVM-verified encodings (llvm-mc-19 /
//! llvm-objdump-19) of every addressing form and printing rule, and the rejections.

use crate::isa::family::mem::testutil::{asm, asm_err, check, dec_err};
use crate::isa::{DecodeError, Family, Target};

const R: Target = Target::GFX1030_W32;
const G: Target = Target::GFX803;

#[test]
fn gfx803_flat() {
    check(G, &[0xdc50_0000, 0x0200_0002], "flat_load_dword v2, v[2:3]");
    check(
        G,
        &[0xdc70_0000, 0x0000_0300],
        "flat_store_dword v[0:1], v3",
    );
    check(
        G,
        &[0xdd09_0000, 0x0000_0301],
        "flat_atomic_add v0, v[1:2], v3 glc",
    );
    check(
        G,
        &[0xdd0a_0000, 0x0000_0301],
        "flat_atomic_add v[1:2], v3 slc",
    );
    check(
        G,
        &[0xdc53_0000, 0x0200_0002],
        "flat_load_dword v2, v[2:3] glc slc",
    );
    check(
        G,
        &[0xdd05_0000, 0x0500_0201],
        "flat_atomic_cmpswap v5, v[1:2], v[2:3] glc",
    );
    // LLVM decodes (but will not assemble) a gfx803 FLAT offset in bits 12:0.
    let inst = crate::isa::decode(
        G,
        &super::super::mem::testutil::bytes(&[0xdc50_1000, 0x0300_0001]),
    )
    .unwrap();
    assert_eq!(inst.to_string(), "flat_load_dword v3, v[1:2] offset:4096");
    // Reserved: word 0 bits 15:13, saddr bits, tfe bit 23 (LLVM ignores it), bit 25.
    for words in [
        [0xdc50_2000, 0],
        [0xdc50_0000, 0x0001_0000],
        [0xdc50_0000, 0x0080_0000],
        [0xde50_0000, 0],
    ] {
        assert!(
            matches!(dec_err(G, &words), DecodeError::InvalidOperand { .. }),
            "{words:08x?}"
        );
    }
}

#[test]
fn gfx1030_global_addressing() {
    check(
        R,
        &[0xdc30_8000, 0x027d_0002],
        "global_load_dword v2, v[2:3], off",
    );
    check(
        R,
        &[0xdc30_8010, 0x0102_0000],
        "global_load_dword v1, v0, s[2:3] offset:16",
    );
    check(
        R,
        &[0xdc30_8ff0, 0x0102_0000],
        "global_load_dword v1, v0, s[2:3] offset:-16",
    );
    check(
        R,
        &[0xdc33_9800, 0x0102_0000],
        "global_load_dword v1, v0, s[2:3] offset:-2048 glc slc dlc",
    );
    check(
        R,
        &[0xdc30_8000, 0x036a_0001],
        "global_load_dword v3, v1, vcc",
    );
    check(
        R,
        &[0xdc30_8000, 0x036c_0001],
        "global_load_dword v3, v1, ttmp[0:1]",
    );
    check(
        R,
        &[0xdc58_8004, 0x0102_0000],
        "global_load_dword_addtid v1, s[2:3] offset:4",
    );
    check(
        R,
        &[0xdc70_8000, 0x007d_0201],
        "global_store_dword v[1:2], v2, off",
    );
    check(
        R,
        &[0xdcc5_8000, 0x0004_0201],
        "global_atomic_cmpswap v0, v1, v[2:3], s[4:5] glc",
    );
    check(
        R,
        &[0xdd45_8000, 0x0004_0201],
        "global_atomic_cmpswap_x2 v[0:1], v1, v[2:5], s[4:5] glc",
    );
    check(
        R,
        &[0xdcd1_8000, 0x037d_0201],
        "global_atomic_csub v3, v[1:2], v2, off glc",
    );
    check(
        R,
        &[0xdc33_b004, 0x007d_0001],
        "global_load_dword v[1:2], off offset:4 glc slc dlc lds",
    );
    // Odd SGPR pair (LLVM rounds down), m0 as a pair, exec_hi: rejected.
    for saddr in [0x69, 0x7c, 0x7f] {
        assert!(matches!(
            dec_err(R, &[0xdc30_8000, 0x0300_0001 | saddr << 16]),
            DecodeError::InvalidOperand { .. }
        ));
    }
    let e = asm_err(R, "global_load_dword v1, v[2:3], s[2:3]");
    assert_eq!(e.column, 23, "{e}");
    let e = asm_err(R, "global_load_dword v1, v2, off");
    assert_eq!(e.column, 23, "{e}");
}

#[test]
fn gfx1030_scratch_addressing() {
    check(
        R,
        &[0xdc30_4004, 0x0000_0000],
        "scratch_load_dword v0, off, s0 offset:4",
    );
    check(
        R,
        &[0xdc70_4000, 0x0000_0100],
        "scratch_store_dword off, v1, s0",
    );
    check(
        R,
        &[0xdc30_4ffc, 0x007d_0001],
        "scratch_load_dword v0, v1, off offset:-4",
    );
    check(
        R,
        &[0xdc30_4004, 0x007f_0000],
        "scratch_load_dword v0, off, off offset:4",
    );
    check(
        R,
        &[0xdc30_4000, 0x037e_0000],
        "scratch_load_dword v3, off, exec_lo",
    );
    check(
        R,
        &[0xdc30_6000, 0x007d_0001],
        "scratch_load_dword v1, off lds",
    );
    // The VGPR field is unused with an SGPR address and must be zero.
    assert!(matches!(
        dec_err(R, &[0xdc30_4000, 0x0300_0005]),
        DecodeError::InvalidOperand { .. }
    ));
    // `null` would encode as "no saddr".
    let e = asm_err(R, "scratch_load_dword v0, off, null");
    assert_eq!(e.column, 29, "{e}");
}

#[test]
fn gfx1030_flat_segment() {
    check(
        R,
        &[0xdc30_07ff, 0x007d_0001],
        "flat_load_dword v0, v[1:2] offset:2047",
    );
    check(
        R,
        &[0xdcc9_0004, 0x007d_0301],
        "flat_atomic_add v0, v[1:2], v3 offset:4 glc",
    );
    check(
        R,
        &[0xdcca_0004, 0x007d_0301],
        "flat_atomic_add v[1:2], v3 offset:4 slc",
    );
    check(
        R,
        &[0xdd45_0000, 0x037d_0201],
        "flat_atomic_cmpswap_x2 v[3:4], v[1:2], v[2:5] glc",
    );
    check(
        R,
        &[0xdc33_1000, 0x037d_0001],
        "flat_load_dword v3, v[1:2] glc slc dlc",
    );
    // FLAT offsets are unsigned: LLVM prints 4095 (and its assembler stops at 2047).
    check(
        R,
        &[0xdc30_0fff, 0x037d_0001],
        "flat_load_dword v3, v[1:2] offset:4095",
    );
    let inst = crate::isa::decode(
        R,
        &super::super::mem::testutil::bytes(&[0xdc30_8000, 0x027d_0002]),
    )
    .unwrap();
    assert_eq!(inst.family, Family::Global);
    // saddr must be off (0x7d); seg 3 and the nv bit do not exist; lds only on GLOBAL/SCRATCH loads.
    for words in [
        [0xdc30_0000, 0x0000_0001],
        [0xdc30_c000, 0x007d_0001],
        [0xdc30_0000, 0x00fd_0001],
        [0xdc30_2000, 0x007d_0001],
    ] {
        assert!(
            matches!(dec_err(R, &words), DecodeError::InvalidOperand { .. }),
            "{words:08x?}"
        );
    }
    let e = asm_err(R, "flat_load_dword v0, v[1:2] offset:-1");
    assert!(e.message.contains("out of range"), "{e}");
    let e = asm_err(R, "flat_store_dword v[1:2], v3 lds");
    assert_eq!(e.column, 29, "{e}");
    asm(
        R,
        "flat_load_dword v0, v[1:2] offset:0x10 glc",
        &[0xdc31_0010, 0x007d_0001],
    );
}
