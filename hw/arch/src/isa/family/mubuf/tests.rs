//! MUBUF/MTBUF unit tests: LLVM-verified encodings (llvm-mc-19 / llvm-objdump-19)
//! of both ISAs' layouts, every addressing/modifier form, the format names, and
//! the rejections.

use crate::isa::family::mem::testutil::{asm, asm_err, check, dec_err};
use crate::isa::{DecodeError, Target};

const R: Target = Target::GFX1030_W32;
const G: Target = Target::GFX803;

#[test]
fn gfx803_mubuf() {
    check(
        G,
        &[0xe050_1004, 0x8000_0100],
        "buffer_load_dword v1, v0, s[0:3], 0 offen offset:4",
    );
    check(
        G,
        &[0xe070_0008, 0x0700_0100],
        "buffer_store_dword v1, off, s[0:3], s7 offset:8",
    );
    check(
        G,
        &[0xe052_7fff, 0x0400_0100],
        "buffer_load_dword v1, v[0:1], s[0:3], s4 idxen offen offset:4095 glc slc",
    );
    check(
        G,
        &[0xe052_6000, 0x0480_0100],
        "buffer_load_dword v[1:2], v0, s[0:3], s4 idxen glc slc tfe",
    );
    check(
        G,
        &[0xe070_0000, 0x0480_0100],
        "buffer_store_dword v[1:2], off, s[0:3], s4 tfe",
    );
    check(
        G,
        &[0xe051_0000, 0x0400_0000],
        "buffer_load_dword off, s[0:3], s4 lds",
    );
    check(
        G,
        &[0xe053_5004, 0x0400_0002],
        "buffer_load_dword v2, s[0:3], s4 offen offset:4 glc slc lds",
    );
    check(
        G,
        &[0xe108_5000, 0x0400_0100],
        "buffer_atomic_add v1, v0, s[0:3], s4 offen glc",
    );
    check(
        G,
        &[0xe104_5000, 0x0400_0100],
        "buffer_atomic_cmpswap v[1:2], v0, s[0:3], s4 offen glc",
    );
    check(
        G,
        &[0xe050_0000, 0x6a1d_0100],
        "buffer_load_dword v1, off, ttmp[4:7], vcc_lo",
    );
    check(
        G,
        &[0xe050_0000, 0xf000_0100],
        "buffer_load_dword v1, off, s[0:3], 0.5",
    );
    check(
        G,
        &[0xe050_0000, 0xfd00_0100],
        "buffer_load_dword v1, off, s[0:3], src_scc",
    );
    check(
        G,
        &[0xe050_0000, 0x0419_0100],
        "buffer_load_dword v1, off, s[100:103], s4",
    );
    check(G, &[0xe0f8_0000, 0x0000_0000], "buffer_wbinvl1");
    // soffset 255 (literal), srsrc 26 (xnack_mask) and 31, tfe on an atomic, lds with
    // tfe, the addr64 bit, a nonzero unused vaddr field: rejected.
    for words in [
        [0xe050_0000, 0xff00_0100],
        [0xe050_0000, 0x041a_0100],
        [0xe050_0000, 0x041f_0100],
        [0xe108_4000, 0x0480_0100],
        [0xe051_0000, 0x0480_0000],
        [0xe050_8000, 0x0400_0100],
        [0xe050_0000, 0x0400_0103],
        [0xe0f8_4000, 0],
    ] {
        assert!(
            matches!(dec_err(G, &words), DecodeError::InvalidOperand { .. }),
            "{words:08x?}"
        );
    }
}

#[test]
fn gfx1030_mubuf() {
    check(
        R,
        &[0xe030_1004, 0x8000_0100],
        "buffer_load_dword v1, v0, s[0:3], 0 offen offset:4",
    );
    check(
        R,
        &[0xe070_0008, 0x0700_0100],
        "buffer_store_dword v1, off, s[0:3], s7 offset:8",
    );
    check(
        R,
        &[0xe030_ffff, 0x0440_0100],
        "buffer_load_dword v1, v[0:1], s[0:3], s4 idxen offen offset:4095 glc slc dlc",
    );
    check(
        R,
        &[0xe0c8_5000, 0x0400_0100],
        "buffer_atomic_add v1, v0, s[0:3], s4 offen glc",
    );
    check(
        R,
        &[0xe0c4_1000, 0x0400_0100],
        "buffer_atomic_cmpswap v[1:2], v0, s[0:3], s4 offen",
    );
    check(
        R,
        &[0xe030_0000, 0xc100_0100],
        "buffer_load_dword v1, off, s[0:3], -1",
    );
    check(
        R,
        &[0xe030_0000, 0x7d00_0100],
        "buffer_load_dword v1, off, s[0:3], null",
    );
    check(
        R,
        &[0xe030_0000, 0x6a1c_0100],
        "buffer_load_dword v1, off, ttmp[4:7], vcc_lo",
    );
    check(
        R,
        &[0xe030_0000, 0x0480_0100],
        "buffer_load_dword v[1:2], off, s[0:3], s4 tfe",
    );
    check(
        R,
        &[0xe031_d008, 0x0440_0002],
        "buffer_load_dword v2, s[0:3], s4 offen offset:8 glc slc dlc lds",
    );
    check(
        R,
        &[0xe200_0000, 0x7d00_0000],
        "buffer_load_format_d16_x v0, off, s[0:3], null",
    );
    check(R, &[0xe1c4_0000, 0], "buffer_gl0_inv");
    asm(
        R,
        "buffer_load_dword v1, off, s[0:3], m0",
        &[0xe030_0000, 0x7c00_0100],
    );
    // srsrc 26 (s[104:107] runs past s105), reserved bits 17 and w1 21.
    for words in [
        [0xe030_0000, 0x041a_0100],
        [0xe032_0000, 0x0400_0100],
        [0xe030_0000, 0x0420_0100],
    ] {
        assert!(
            matches!(dec_err(R, &words), DecodeError::InvalidOperand { .. }),
            "{words:08x?}"
        );
    }
}

#[test]
fn mtbuf_formats() {
    check(G, &[0xeba0_4004, 0x0400_0100], "tbuffer_load_format_x v1, off, s[0:3], s4 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offset:4 glc");
    check(
        G,
        &[0xeb88_0000, 0x0400_0100],
        "tbuffer_load_format_x v1, off, s[0:3], s4 format:[BUF_NUM_FORMAT_FLOAT]",
    );
    check(
        G,
        &[0xe820_0000, 0x0400_0100],
        "tbuffer_load_format_x v1, off, s[0:3], s4 format:[BUF_DATA_FORMAT_32]",
    );
    check(
        G,
        &[0xe808_0000, 0x0400_0100],
        "tbuffer_load_format_x v1, off, s[0:3], s4",
    );
    check(G, &[0xebf8_0000, 0x0400_0100], "tbuffer_load_format_x v1, off, s[0:3], s4 format:[BUF_DATA_FORMAT_RESERVED_15,BUF_NUM_FORMAT_FLOAT]");
    check(
        G,
        &[0xe800_0000, 0x8000_0100],
        "tbuffer_load_format_x v1, off, s[0:3], 0 format:[BUF_DATA_FORMAT_INVALID]",
    );
    asm(
        G,
        "tbuffer_load_format_x v1, off, s[0:3], s4 format:127",
        &[0xebf8_0000, 0x0400_0100],
    );
    asm(G, "tbuffer_load_format_x v1, off, s[0:3], s4 format:[BUF_NUM_FORMAT_FLOAT,BUF_DATA_FORMAT_32]", &[0xeba0_0000, 0x0400_0100]);
    check(
        R,
        &[0xe8b0_4004, 0x0400_0100],
        "tbuffer_load_format_x v1, off, s[0:3], s4 format:[BUF_FMT_32_FLOAT] offset:4 glc",
    );
    check(
        R,
        &[0xebf8_0000, 0x0400_0100],
        "tbuffer_load_format_x v1, off, s[0:3], s4 format:127",
    );
    check(
        R,
        &[0xe808_0000, 0x0400_0100],
        "tbuffer_load_format_x v1, off, s[0:3], s4",
    );
    check(
        R,
        &[0xe800_0000, 0x0400_0100],
        "tbuffer_load_format_x v1, off, s[0:3], s4 format:[BUF_FMT_INVALID]",
    );
    check(R, &[0xea6f_d004, 0x0440_0100], "tbuffer_store_format_xyzw v[1:4], v0, s[0:3], s4 format:[BUF_FMT_32_32_32_32_FLOAT] offen offset:4 glc slc dlc");
    check(
        R,
        &[0xe808_0000, 0x0420_0100],
        "tbuffer_load_format_d16_x v1, off, s[0:3], s4",
    );
    // gfx1030 takes the split names when they form a unified format.
    asm(R, "tbuffer_load_format_x v1, off, s[0:3], s4 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]", &[0xe8b0_0000, 0x0400_0100]);
    let e = asm_err(
        G,
        "tbuffer_load_format_x v1, off, s[0:3], s4 format:[BUF_FMT_32_FLOAT]",
    );
    assert!(e.message.contains("unknown buffer format"), "{e}");
    let e = asm_err(R, "tbuffer_load_format_x v1, off, s[0:3], s4 format:128");
    assert_eq!(e.column, 43, "{e}");
}

#[test]
fn assembler_errors() {
    let e = asm_err(R, "buffer_load_dword v1, v0, s[0:3], s4");
    assert_eq!(e.column, 23, "{e}");
    let e = asm_err(R, "buffer_load_dword v1, off, s[0:3], 0x1234");
    assert_eq!(e.column, 36, "{e}");
    let e = asm_err(R, "buffer_load_dword v1, off, s[0:3], s4 addr64");
    assert_eq!(e.column, 39, "{e}");
    let e = asm_err(G, "buffer_load_dword v1, off, s[0:3], s4 dlc");
    assert_eq!(e.column, 39, "{e}");
    let e = asm_err(R, "buffer_load_dword v1, off, s[1:4], s4");
    assert!(e.message.contains("SGPR quad"), "{e}");
    let e = asm_err(R, "buffer_load_dword v1, off, s[0:3]");
    assert!(e.message.contains("missing operand: soffset"), "{e}");
    let e = asm_err(R, "buffer_atomic_add v1, v0, s[0:3], s4 offen tfe");
    assert!(e.message.contains("tfe"), "{e}");
    // LLVM 19 has no dlc on gfx1030 atomics and no tfe on MTBUF.
    let e = asm_err(R, "buffer_atomic_add v1, v0, s[0:3], s4 offen glc dlc");
    assert!(e.message.contains("dlc"), "{e}");
    assert!(matches!(
        dec_err(R, &[0xe0c8_d000, 0x0400_0100]),
        DecodeError::InvalidOperand { .. }
    ));
    asm_err(G, "tbuffer_load_format_x v[1:2], off, s[0:3], s4 tfe");
    assert!(matches!(
        dec_err(G, &[0xe808_0000, 0x0480_0100]),
        DecodeError::InvalidOperand { .. }
    ));
}
