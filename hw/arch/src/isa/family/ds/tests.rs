//! DS unit tests: LLVM-verified encodings (llvm-mc-19 / llvm-objdump-19) of the
//! printing rules, both ISAs' layouts, and the rejections.

use crate::isa::family::mem::testutil::{asm, asm_err, check, dec_err};
use crate::isa::{DecodeError, Target};

const R: Target = Target::GFX1030_W32;
const G: Target = Target::GFX803;

#[test]
fn two_address_forms_print_offset0_offset1() {
    check(
        R,
        &[0xd838_0201, 0x0002_0100],
        "ds_write2_b32 v0, v1, v2 offset0:1 offset1:2",
    );
    check(
        R,
        &[0xd9e2_0200, 0x0000_0001],
        "ds_read2st64_b64 v[0:3], v1 offset1:2 gds",
    );
    check(
        R,
        &[0xd8dc_0005, 0x0200_0001],
        "ds_read2_b32 v[2:3], v1 offset0:5",
    );
    check(
        G,
        &[0xd81c_0201, 0x0002_0100],
        "ds_write2_b32 v0, v1, v2 offset0:1 offset1:2",
    );
    check(
        G,
        &[0xd8f1_0200, 0x0000_0001],
        "ds_read2st64_b64 v[0:3], v1 offset1:2 gds",
    );
    check(
        G,
        &[0xd89e_ffff, 0x0004_0201],
        "ds_write2st64_b64 v1, v[2:3], v[4:5] offset0:255 offset1:255",
    );
}

#[test]
fn gds_bit_position_differs_between_isas() {
    check(
        R,
        &[0xd802_ffff, 0x0000_0201],
        "ds_add_u32 v1, v2 offset:65535 gds",
    );
    check(
        G,
        &[0xd801_ffff, 0x0000_0201],
        "ds_add_u32 v1, v2 offset:65535 gds",
    );
    // gfx1030 bit 16 and gfx803 bit 25 are reserved: LLVM ignores them, we refuse
    // them so that every accepted encoding round-trips.
    assert!(matches!(
        dec_err(R, &[0xd801_0000, 0]),
        DecodeError::InvalidOperand { .. }
    ));
    assert!(matches!(
        dec_err(G, &[0xda00_0000, 0]),
        DecodeError::InvalidOperand { .. }
    ));
}

#[test]
fn swizzle_offsets() {
    check(
        R,
        &[0xd8d4_0038, 0x0100_0002],
        "ds_swizzle_b32 v1, v2 offset:swizzle(BROADCAST,8,1)",
    );
    check(
        R,
        &[0xd8d4_1c1f, 0x0100_0002],
        "ds_swizzle_b32 v1, v2 offset:swizzle(REVERSE,8)",
    );
    check(
        R,
        &[0xd8d4_801f, 0],
        "ds_swizzle_b32 v0, v0 offset:swizzle(QUAD_PERM,3,3,1,0)",
    );
    check(
        R,
        &[0xd8d4_081e, 0],
        "ds_swizzle_b32 v0, v0 offset:swizzle(BITMASK_PERM,\"pppi0\")",
    );
    // Several encodings print alike; the text assembles to LLVM's choice (0xe0).
    let inst =
        crate::isa::decode(R, &super::super::mem::testutil::bytes(&[0xd8d4_00e4, 0])).unwrap();
    assert_eq!(
        inst.to_string(),
        "ds_swizzle_b32 v0, v0 offset:swizzle(BITMASK_PERM,\"00111\")"
    );
    asm(
        R,
        "ds_swizzle_b32 v0, v0 offset:swizzle(BITMASK_PERM,\"00111\")",
        &[0xd8d4_00e0, 0],
    );
    check(
        R,
        &[0xd8d4_041f, 0],
        "ds_swizzle_b32 v0, v0 offset:swizzle(SWAP,1)",
    );
    check(
        R,
        &[0xd8d6_001f, 0],
        "ds_swizzle_b32 v0, v0 offset:swizzle(BITMASK_PERM,\"ppppp\") gds",
    );
    // Bit 15 with bits 14:8 set is no swizzle macro: plain decimal.
    check(R, &[0xd8d4_f011, 0], "ds_swizzle_b32 v0, v0 offset:61457");
    check(R, &[0xd8d4_0000, 0], "ds_swizzle_b32 v0, v0");
    check(
        G,
        &[0xd87a_0038, 0x0100_0002],
        "ds_swizzle_b32 v1, v2 offset:swizzle(BROADCAST,8,1)",
    );
    check(
        G,
        &[0xd87a_80e4, 0x0200_0001],
        "ds_swizzle_b32 v2, v1 offset:swizzle(QUAD_PERM,0,1,2,3)",
    );
    // A number is accepted too.
    asm(
        R,
        "ds_swizzle_b32 v1, v2 offset:0x8055",
        &[0xd8d4_8055, 0x0100_0002],
    );
    let e = asm_err(R, "ds_swizzle_b32 v1, v2 offset:swizzle(REVERSE,3)");
    assert!(e.message.contains("power of two"), "{e}");
    let e = asm_err(R, "ds_swizzle_b32 v1, v2 offset:swizzle(FOO,1)");
    assert_eq!(e.column, 23, "{e}");
}

#[test]
fn special_instructions() {
    check(R, &[0xd866_0000, 0x0000_0003], "ds_gws_init v3 gds");
    check(R, &[0xd86a_0000, 0], "ds_gws_sema_v gds");
    check(R, &[0xd862_0005, 0], "ds_gws_sema_release_all offset:5 gds");
    check(
        R,
        &[0xd8fe_1234, 0x0400_0003],
        "ds_ordered_count v4, v3 offset:4660 gds",
    );
    check(R, &[0xd8f8_0004, 0x0300_0000], "ds_append v3 offset:4");
    check(R, &[0xd8f6_0000, 0x0300_0000], "ds_consume v3 gds");
    check(
        R,
        &[0xdac8_0004, 0x0100_0302],
        "ds_permute_b32 v1, v2, v3 offset:4",
    );
    check(
        R,
        &[0xdac4_0003, 0x0700_0000],
        "ds_read_addtid_b32 v7 offset:3",
    );
    check(
        R,
        &[0xdac0_0003, 0x0000_0700],
        "ds_write_addtid_b32 v7 offset:3",
    );
    check(R, &[0xda9c_0000, 0x0100_0002], "ds_read_u16_d16_hi v1, v2");
    check(R, &[0xdb78_0000, 0x0000_0100], "ds_write_b96 v0, v[1:3]");
    check(R, &[0xd850_0000, 0], "ds_nop");
    check(
        G,
        &[0xd901_1234, 0x0000_0003],
        "ds_add_src2_u32 v3 offset:4660 gds",
    );
    check(
        G,
        &[0xd93b_0007, 0x0000_0005],
        "ds_gws_barrier v5 offset:7 gds",
    );
    check(G, &[0xd86c_0000, 0xff00_00ff], "ds_read_b32 v255, v255");
    // GWS needs gds; ds_nop takes neither offset nor gds (LLVM rejects these too).
    assert!(matches!(
        dec_err(R, &[0xd864_0000, 0x0000_0003]),
        DecodeError::InvalidOperand { .. }
    ));
    assert!(matches!(
        dec_err(R, &[0xd850_0004, 0]),
        DecodeError::InvalidOperand { .. }
    ));
    // ds_permute/bpermute never take gds (LLVM rejects the bit).
    assert!(matches!(
        dec_err(R, &[0xdaca_0000, 0x0100_0302]),
        DecodeError::InvalidOperand { .. }
    ));
    assert!(matches!(
        dec_err(G, &[0xd87d_0000, 0x0100_0302]),
        DecodeError::InvalidOperand { .. }
    ));
    asm_err(R, "ds_permute_b32 v1, v2, v3 gds");
    let e = asm_err(R, "ds_gws_init v0");
    assert!(e.message.contains("gds"), "{e}");
}

#[test]
fn rejected_encodings() {
    // Truncated, unknown opcode, unused field not zero, register range past v255.
    let e = dec_err(R, &[0xd800_0000]);
    assert!(
        matches!(
            e,
            DecodeError::Truncated {
                needed: 8,
                available: 4,
                ..
            }
        ),
        "{e}"
    );
    assert!(matches!(
        dec_err(R, &[0xd858_0000, 0]),
        DecodeError::InvalidOpcode { opcode: 22, .. }
    ));
    assert!(matches!(
        dec_err(R, &[0xd800_0000, 0x0500_0000]),
        DecodeError::InvalidOperand { .. }
    ));
    assert!(matches!(
        dec_err(R, &[0xd9d8_0000, 0xff00_0000]),
        DecodeError::InvalidOperand { .. }
    ));
}

#[test]
fn assembler_forms_and_errors() {
    asm(
        R,
        "ds_read_b32 v1, v2 offset:0x10",
        &[0xd8d8_0010, 0x0100_0002],
    );
    asm(
        R,
        "ds_read_b32 v1, v2 offset:0",
        &[0xd8d8_0000, 0x0100_0002],
    );
    asm(
        R,
        "ds_write2_b32 v0, v1, v2 offset1:2 offset0:1",
        &[0xd838_0201, 0x0002_0100],
    );
    let e = asm_err(R, "ds_write2_b32 v0, v1, v2 offset:4");
    assert_eq!((e.line, e.column), (1, 26), "{e}");
    let e = asm_err(R, "ds_add_u32 v1");
    assert!(e.message.contains("missing operand: data0"), "{e}");
    let e = asm_err(R, "ds_read_b32 v1, v2 offset:65536");
    assert!(e.message.contains("out of range"), "{e}");
    let e = asm_err(R, "ds_read_b64 v1, v2");
    assert_eq!(e.column, 13, "{e}");
    let e = asm_err(R, "ds_read_b32 v1, v2 gds gds");
    assert!(e.message.contains("twice"), "{e}");
}
