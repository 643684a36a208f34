//! SOP2, SOP1 (values and EXEC), SOPC and SOPK arithmetic.

use super::{sgprs, Bench, WAVES};

/// Runs `text` with `s1 = a`, `s2 = b` (and SCC) and returns (s0 writes, SCC).
fn bin(wave64: bool, text: &str, a: u32, b: u32, scc: bool) -> (Vec<(u8, u32)>, Option<bool>) {
    let mut t = Bench::new(wave64);
    t.s.sgpr[1] = a;
    t.s.sgpr[2] = b;
    t.s.scc = scc;
    let w = t.run(text);
    (sgprs(&w), w.scc)
}

/// `(text, s1, s2, SCC in, s0, SCC out)`.
type Case = (&'static str, u32, u32, bool, u32, Option<bool>);

const SOP2_32: &[Case] = &[
    ("s_add_u32 s0, s1, s2", 0xffff_ffff, 2, false, 1, Some(true)),
    ("s_add_u32 s0, s1, s2", 1, 2, true, 3, Some(false)),
    ("s_sub_u32 s0, s1, s2", 1, 2, false, 0xffff_ffff, Some(true)),
    ("s_sub_u32 s0, s1, s2", 5, 3, true, 2, Some(false)),
    // Signed overflow, not carry: -1 + 1 carries out but does not overflow.
    (
        "s_add_i32 s0, s1, s2",
        0x7fff_ffff,
        1,
        false,
        0x8000_0000,
        Some(true),
    ),
    (
        "s_add_i32 s0, s1, s2",
        0xffff_ffff,
        1,
        false,
        0,
        Some(false),
    ),
    (
        "s_sub_i32 s0, s1, s2",
        0x8000_0000,
        1,
        false,
        0x7fff_ffff,
        Some(true),
    ),
    (
        "s_sub_i32 s0, s1, s2",
        0,
        0x8000_0000,
        false,
        0x8000_0000,
        Some(true),
    ),
    (
        "s_sub_i32 s0, s1, s2",
        0,
        1,
        false,
        0xffff_ffff,
        Some(false),
    ),
    ("s_addc_u32 s0, s1, s2", 0xffff_ffff, 0, true, 0, Some(true)),
    (
        "s_addc_u32 s0, s1, s2",
        0xffff_fffe,
        0,
        true,
        0xffff_ffff,
        Some(false),
    ),
    ("s_subb_u32 s0, s1, s2", 0, 0, true, 0xffff_ffff, Some(true)),
    ("s_subb_u32 s0, s1, s2", 5, 4, true, 0, Some(false)),
    ("s_subb_u32 s0, s1, s2", 5, 4, false, 1, Some(false)),
    // S1 + SCC overflows 32 bits: still a borrow.
    (
        "s_subb_u32 s0, s1, s2",
        0xffff_ffff,
        0xffff_ffff,
        true,
        0xffff_ffff,
        Some(true),
    ),
    (
        "s_addc_u32 s0, s1, s2",
        0xffff_ffff,
        0xffff_ffff,
        true,
        0xffff_ffff,
        Some(true),
    ),
    // min/max: SCC says whether S0 was chosen (ties choose S1).
    (
        "s_min_i32 s0, s1, s2",
        0xffff_ffff,
        1,
        false,
        0xffff_ffff,
        Some(true),
    ),
    (
        "s_min_u32 s0, s1, s2",
        0xffff_ffff,
        1,
        false,
        1,
        Some(false),
    ),
    (
        "s_max_i32 s0, s1, s2",
        0xffff_ffff,
        1,
        false,
        1,
        Some(false),
    ),
    (
        "s_max_u32 s0, s1, s2",
        0xffff_ffff,
        1,
        false,
        0xffff_ffff,
        Some(true),
    ),
    ("s_max_u32 s0, s1, s2", 5, 5, true, 5, Some(false)),
    (
        "s_max_i32 s0, s1, s2",
        0xffff_fffb,
        0xffff_fffb,
        true,
        0xffff_fffb,
        Some(false),
    ),
    ("s_min_i32 s0, s1, s2", 4, 4, true, 4, Some(false)),
    ("s_min_u32 s0, s1, s2", 4, 4, true, 4, Some(false)),
    ("s_cselect_b32 s0, s1, s2", 10, 20, true, 10, None),
    ("s_cselect_b32 s0, s1, s2", 10, 20, false, 20, None),
    ("s_and_b32 s0, s1, s2", 0xf0, 0x0f, true, 0, Some(false)),
    ("s_or_b32 s0, s1, s2", 0xf0, 0x0f, false, 0xff, Some(true)),
    ("s_xor_b32 s0, s1, s2", 0xff, 0x0f, false, 0xf0, Some(true)),
    (
        "s_andn2_b32 s0, s1, s2",
        0xff,
        0x0f,
        false,
        0xf0,
        Some(true),
    ),
    (
        "s_orn2_b32 s0, s1, s2",
        0,
        0xffff_ffff,
        true,
        0,
        Some(false),
    ),
    (
        "s_nand_b32 s0, s1, s2",
        0xffff_ffff,
        0xffff_ffff,
        true,
        0,
        Some(false),
    ),
    (
        "s_nor_b32 s0, s1, s2",
        0xf0,
        0x0f,
        false,
        0xffff_ff00,
        Some(true),
    ),
    (
        "s_xnor_b32 s0, s1, s2",
        0xf0f0_f0f0,
        0x0f0f_0f0f,
        true,
        0,
        Some(false),
    ),
    // Shift amounts use S1[4:0]: 33 shifts by 1.
    ("s_lshl_b32 s0, s1, s2", 1, 33, false, 2, Some(true)),
    (
        "s_lshl_b32 s0, s1, s2",
        0x8000_0000,
        1,
        true,
        0,
        Some(false),
    ),
    (
        "s_lshr_b32 s0, s1, s2",
        0x8000_0000,
        31,
        false,
        1,
        Some(true),
    ),
    (
        "s_lshr_b32 s0, s1, s2",
        0x8000_0000,
        32,
        false,
        0x8000_0000,
        Some(true),
    ),
    (
        "s_ashr_i32 s0, s1, s2",
        0x8000_0000,
        31,
        false,
        0xffff_ffff,
        Some(true),
    ),
    (
        "s_ashr_i32 s0, s1, s2",
        0x4000_0000,
        31,
        true,
        0,
        Some(false),
    ),
    ("s_bfm_b32 s0, s1, s2", 4, 8, false, 0xf00, None),
    ("s_bfm_b32 s0, s1, s2", 32, 0, false, 0, None),
    ("s_bfm_b32 s0, s1, s2", 31, 1, false, 0xffff_fffe, None),
    ("s_mul_i32 s0, s1, s2", 0x1_0000, 0x1_0000, false, 0, None),
    (
        "s_mul_i32 s0, s1, s2",
        0xffff_fffd,
        7,
        false,
        0xffff_ffeb,
        None,
    ),
    // s_bfe: offset S1[4:0], width S1[22:16].
    (
        "s_bfe_u32 s0, s1, s2",
        0x1234_5678,
        0x8_0004,
        false,
        0x67,
        Some(true),
    ),
    (
        "s_bfe_u32 s0, s1, s2",
        0x1234_5678,
        0x0_0004,
        true,
        0,
        Some(false),
    ),
    (
        "s_bfe_u32 s0, s1, s2",
        0x1234_5678,
        0x8_001c,
        false,
        1,
        Some(true),
    ),
    (
        "s_bfe_i32 s0, s1, s2",
        0xf0,
        0x4_0004,
        false,
        0xffff_ffff,
        Some(true),
    ),
    ("s_bfe_i32 s0, s1, s2", 0x70, 0x4_0004, false, 7, Some(true)),
    (
        "s_bfe_i32 s0, s1, s2",
        0x8000_0000,
        0x8_001c,
        false,
        0xffff_fff8,
        Some(true),
    ),
    ("s_absdiff_i32 s0, s1, s2", 3, 10, false, 7, Some(true)),
    (
        "s_absdiff_i32 s0, s1, s2",
        0x8000_0000,
        0,
        false,
        0x8000_0000,
        Some(true),
    ),
    ("s_absdiff_i32 s0, s1, s2", 9, 9, true, 0, Some(false)),
    ("s_lshl1_add_u32 s0, s1, s2", 3, 4, true, 10, Some(false)),
    // The bits shifted out count as a carry.
    (
        "s_lshl2_add_u32 s0, s1, s2",
        0x4000_0000,
        0,
        false,
        0,
        Some(true),
    ),
    (
        "s_lshl3_add_u32 s0, s1, s2",
        0x1fff_ffff,
        8,
        false,
        0,
        Some(true),
    ),
    (
        "s_lshl4_add_u32 s0, s1, s2",
        1,
        0xffff_ffef,
        false,
        0xffff_ffff,
        Some(false),
    ),
    (
        "s_pack_ll_b32_b16 s0, s1, s2",
        0x1111_aaaa,
        0x2222_bbbb,
        false,
        0xbbbb_aaaa,
        None,
    ),
    (
        "s_pack_lh_b32_b16 s0, s1, s2",
        0x1111_aaaa,
        0x2222_bbbb,
        false,
        0x2222_aaaa,
        None,
    ),
    (
        "s_pack_hh_b32_b16 s0, s1, s2",
        0x1111_aaaa,
        0x2222_bbbb,
        false,
        0x2222_1111,
        None,
    ),
    (
        "s_mul_hi_u32 s0, s1, s2",
        0xffff_ffff,
        0xffff_ffff,
        false,
        0xffff_fffe,
        None,
    ),
    (
        "s_mul_hi_i32 s0, s1, s2",
        0xffff_ffff,
        0xffff_ffff,
        false,
        0,
        None,
    ),
    (
        "s_mul_hi_i32 s0, s1, s2",
        0x8000_0000,
        2,
        false,
        0xffff_ffff,
        None,
    ),
];

#[test]
fn sop2_32bit_results_and_scc() {
    for wave64 in WAVES {
        for &(text, a, b, scc, d, scc_out) in SOP2_32 {
            let got = bin(wave64, text, a, b, scc);
            assert_eq!(
                got,
                (vec![(0, d)], scc_out),
                "{text} with {a:#x}, {b:#x}, scc {scc} (wave64 {wave64})"
            );
        }
    }
}

/// Runs a 64-bit op with `s[2:3] = a`, `s[4:5] = b` (or `s4 = b` for 32-bit S1).
fn bin64(text: &str, a: u64, b: u64, scc: bool) -> (u64, Option<bool>) {
    let mut t = Bench::new(true);
    t.s.sgpr[2] = a as u32;
    t.s.sgpr[3] = (a >> 32) as u32;
    t.s.sgpr[4] = b as u32;
    t.s.sgpr[5] = (b >> 32) as u32;
    t.s.scc = scc;
    let w = t.run(text);
    let s = sgprs(&w);
    assert_eq!(s.len(), 2, "{text}: {s:?}");
    assert_eq!((s[0].0, s[1].0), (0, 1), "{text}: low dword first");
    (u64::from(s[0].1) | u64::from(s[1].1) << 32, w.scc)
}

/// `(text, s[2:3], s[4:5], SCC in, s[0:1], SCC out)`.
type Case64 = (&'static str, u64, u64, bool, u64, Option<bool>);

#[test]
fn sop2_64bit() {
    let all = u64::MAX;
    let cases: &[Case64] = &[
        (
            "s_and_b64 s[0:1], s[2:3], s[4:5]",
            all,
            1 << 40,
            false,
            1 << 40,
            Some(true),
        ),
        (
            "s_nand_b64 s[0:1], s[2:3], s[4:5]",
            all,
            all,
            true,
            0,
            Some(false),
        ),
        (
            "s_orn2_b64 s[0:1], s[2:3], s[4:5]",
            0,
            all << 1,
            false,
            1,
            Some(true),
        ),
        (
            "s_cselect_b64 s[0:1], s[2:3], s[4:5]",
            1 << 33,
            7,
            true,
            1 << 33,
            None,
        ),
        (
            "s_cselect_b64 s[0:1], s[2:3], s[4:5]",
            1 << 33,
            7,
            false,
            7,
            None,
        ),
        // 64-bit shifts use S1[5:0]: 68 shifts by 4.
        (
            "s_lshl_b64 s[0:1], s[2:3], s4",
            1,
            36,
            false,
            1 << 36,
            Some(true),
        ),
        (
            "s_lshr_b64 s[0:1], s[2:3], s4",
            0xf0,
            68,
            false,
            0xf,
            Some(true),
        ),
        (
            "s_lshl_b64 s[0:1], s[2:3], s4",
            1 << 63,
            1,
            true,
            0,
            Some(false),
        ),
        (
            "s_ashr_i64 s[0:1], s[2:3], s4",
            1 << 63,
            63,
            false,
            all,
            Some(true),
        ),
        (
            "s_bfm_b64 s[0:1], s2, s4",
            36,
            0,
            false,
            0xf_ffff_ffff,
            None,
        ),
        ("s_bfm_b64 s[0:1], s2, s4", 4, 60, false, 0xf << 60, None),
        (
            "s_bfe_u64 s[0:1], s[2:3], s4",
            0x0123_4567_89ab_cdef,
            0x10_0020,
            false,
            0x4567,
            Some(true),
        ),
        // Field 47:44 = 0b1000 sign-extends to -8.
        (
            "s_bfe_i64 s[0:1], s[2:3], s4",
            0x0000_8000_0000_0000,
            0x4_002c,
            false,
            all - 7,
            Some(true),
        ),
        (
            "s_bfe_i64 s[0:1], s[2:3], s4",
            1 << 63,
            0x8_003c,
            false,
            all - 7,
            Some(true),
        ),
        (
            "s_bfe_u64 s[0:1], s[2:3], s4",
            all,
            0x0_0010,
            true,
            0,
            Some(false),
        ),
    ];
    for &(text, a, b, scc, d, scc_out) in cases {
        assert_eq!(bin64(text, a, b, scc), (d, scc_out), "{text} {a:#x} {b:#x}");
    }
}

#[test]
fn sop1_values() {
    // (text, s1 (or s[2:3] for 64-bit sources), result, SCC)
    let cases: &[(&str, u64, u32, Option<bool>)] = &[
        ("s_mov_b32 s0, s1", 0x1234, 0x1234, None),
        ("s_not_b32 s0, s1", 0xffff_ffff, 0, Some(false)),
        ("s_not_b32 s0, s1", 0x0f, 0xffff_fff0, Some(true)),
        ("s_wqm_b32 s0, s1", 0x0000_0101, 0x0000_0f0f, Some(true)),
        ("s_wqm_b32 s0, s1", 0, 0, Some(false)),
        ("s_brev_b32 s0, s1", 1, 0x8000_0000, None),
        ("s_bcnt0_i32_b32 s0, s1", 0xff, 24, Some(true)),
        ("s_bcnt1_i32_b32 s0, s1", 0, 0, Some(false)),
        ("s_bcnt1_i32_b64 s0, s[2:3]", u64::MAX, 64, Some(true)),
        ("s_bcnt0_i32_b64 s0, s[2:3]", 1, 63, Some(true)),
        ("s_ff1_i32_b32 s0, s1", 0, 0xffff_ffff, None),
        ("s_ff1_i32_b32 s0, s1", 0x100, 8, None),
        ("s_ff0_i32_b32 s0, s1", 0xffff_ffff, 0xffff_ffff, None),
        ("s_ff0_i32_b32 s0, s1", 0xff, 8, None),
        ("s_ff1_i32_b64 s0, s[2:3]", 1 << 32, 32, None),
        ("s_ff0_i32_b64 s0, s[2:3]", u64::MAX, 0xffff_ffff, None),
        ("s_flbit_i32_b32 s0, s1", 1, 31, None),
        ("s_flbit_i32_b32 s0, s1", 0, 0xffff_ffff, None),
        ("s_flbit_i32_b64 s0, s[2:3]", 1, 63, None),
        ("s_flbit_i32_b64 s0, s[2:3]", 1 << 40, 23, None),
        // The guide's s_flbit_i32 examples.
        ("s_flbit_i32 s0, s1", 0, 0xffff_ffff, None),
        ("s_flbit_i32 s0, s1", 0x4000_0000, 1, None),
        ("s_flbit_i32 s0, s1", 0x8000_0000, 1, None),
        ("s_flbit_i32 s0, s1", 0x0fff_ffff, 4, None),
        ("s_flbit_i32 s0, s1", 0xffff_0000, 16, None),
        ("s_flbit_i32 s0, s1", 0xffff_fffe, 31, None),
        ("s_flbit_i32 s0, s1", 0xffff_ffff, 0xffff_ffff, None),
        ("s_flbit_i32_i64 s0, s[2:3]", u64::MAX, 0xffff_ffff, None),
        ("s_flbit_i32_i64 s0, s[2:3]", 1, 63, None),
        (
            "s_flbit_i32_i64 s0, s[2:3]",
            0xffff_0000_0000_0000,
            16,
            None,
        ),
        ("s_sext_i32_i8 s0, s1", 0x80, 0xffff_ff80, None),
        ("s_sext_i32_i8 s0, s1", 0x17f, 0x7f, None),
        ("s_sext_i32_i16 s0, s1", 0x8000, 0xffff_8000, None),
        ("s_quadmask_b32 s0, s1", 0xf010, 0xa, Some(true)),
        ("s_quadmask_b32 s0, s1", 0, 0, Some(false)),
        ("s_abs_i32 s0, s1", 0x8000_0000, 0x8000_0000, Some(true)),
        ("s_abs_i32 s0, s1", 0xffff_fffb, 5, Some(true)),
        ("s_abs_i32 s0, s1", 0, 0, Some(false)),
    ];
    for wave64 in WAVES {
        for &(text, x, d, scc) in cases {
            let mut t = Bench::new(wave64);
            t.s.sgpr[1] = x as u32;
            t.s.sgpr[2] = x as u32;
            t.s.sgpr[3] = (x >> 32) as u32;
            let w = t.run(text);
            assert_eq!((sgprs(&w), w.scc), (vec![(0, d)], scc), "{text} {x:#x}");
        }
    }
}

#[test]
fn sop1_64bit_results() {
    let mut t = Bench::new(false);
    t.s.sgpr[2] = 0xaaaa_aaaa;
    t.s.sgpr[3] = 0x5555_5555;
    let w = t.run("s_mov_b64 s[0:1], s[2:3]");
    assert_eq!(sgprs(&w), vec![(0, 0xaaaa_aaaa), (1, 0x5555_5555)]);
    assert_eq!(w.scc, None);
    // A 64-bit inline constant is sign-extended; a literal is zero-extended.
    let w = t.run("s_mov_b64 s[0:1], -1");
    assert_eq!(sgprs(&w), vec![(0, u32::MAX), (1, u32::MAX)]);
    let w = t.run("s_mov_b64 s[0:1], 0x12345678");
    assert_eq!(sgprs(&w), vec![(0, 0x1234_5678), (1, 0)]);
    let w = t.run("s_brev_b64 s[0:1], 1");
    assert_eq!(sgprs(&w), vec![(0, 0), (1, 0x8000_0000)]);
    let w = t.run("s_not_b64 s[0:1], s[2:3]");
    assert_eq!(sgprs(&w), vec![(0, 0x5555_5555), (1, 0xaaaa_aaaa)]);
    assert_eq!(w.scc, Some(true));
    t.s.sgpr[1] = 0x8000_0001;
    let w = t.run("s_bitreplicate_b64_b32 s[4:5], s1");
    assert_eq!(sgprs(&w), vec![(4, 3), (5, 0xc000_0000)]);
    t.s.sgpr[2] = 0x0000_0101;
    t.s.sgpr[3] = 0x1000_0000;
    let w = t.run("s_wqm_b64 s[0:1], s[2:3]");
    assert_eq!(sgprs(&w), vec![(0, 0x0f0f), (1, 0xf000_0000)]);
    let w = t.run("s_quadmask_b64 s[0:1], s[2:3]");
    // Groups 0, 2 and 15 are non-zero.
    assert_eq!(sgprs(&w), vec![(0, 0x8005), (1, 0)]);
    assert_eq!(w.scc, Some(true));
}

#[test]
fn cmov_and_bitset_read_their_destination() {
    let mut t = Bench::new(false);
    t.s.sgpr[1] = 9;
    t.s.scc = false;
    assert!(t.run("s_cmov_b32 s0, s1").sgpr.is_empty());
    assert!(t.run("s_cmovk_i32 s0, 0x5").sgpr.is_empty());
    t.s.scc = true;
    assert_eq!(sgprs(&t.run("s_cmov_b32 s0, s1")), vec![(0, 9)]);
    assert_eq!(
        sgprs(&t.run("s_cmovk_i32 s0, 0xfffe")),
        vec![(0, 0xffff_fffe)]
    );
    t.s.sgpr[0] = 0xff;
    t.s.sgpr[1] = 33;
    let w = t.run("s_bitset0_b32 s0, s1");
    assert_eq!((sgprs(&w), w.scc), (vec![(0, 0xfd)], None));
    let w = t.run("s_bitset1_b32 s0, 8");
    assert_eq!(sgprs(&w), vec![(0, 0x1ff)]);
    t.s.sgpr[4] = 0x1;
    t.s.sgpr[5] = 0x0;
    let w = t.run("s_bitset1_b64 s[4:5], 40");
    assert_eq!(sgprs(&w), vec![(4, 1), (5, 0x100)]);
    let w = t.run("s_bitset0_b64 s[4:5], 64");
    assert_eq!(sgprs(&w), vec![(4, 0), (5, 0)]);
}

#[test]
fn saveexec_family_wave32_touches_exec_lo_only() {
    // S0 = 0b1100, EXEC = 0b1010; (text, new EXEC, destination).
    let cases: &[(&str, u32, u32)] = &[
        ("s_and_saveexec_b32 s0, s2", 0b1000, 0b1010),
        ("s_or_saveexec_b32 s0, s2", 0b1110, 0b1010),
        ("s_xor_saveexec_b32 s0, s2", 0b0110, 0b1010),
        ("s_andn2_saveexec_b32 s0, s2", 0b0100, 0b1010),
        ("s_orn2_saveexec_b32 s0, s2", 0xffff_fffd, 0b1010),
        ("s_nand_saveexec_b32 s0, s2", 0xffff_fff7, 0b1010),
        ("s_nor_saveexec_b32 s0, s2", 0xffff_fff1, 0b1010),
        ("s_xnor_saveexec_b32 s0, s2", 0xffff_fff9, 0b1010),
        ("s_andn1_saveexec_b32 s0, s2", 0b0010, 0b1010),
        ("s_orn1_saveexec_b32 s0, s2", 0xffff_fffb, 0b1010),
        ("s_andn1_wrexec_b32 s0, s2", 0b0010, 0b0010),
        ("s_andn2_wrexec_b32 s0, s2", 0b0100, 0b0100),
    ];
    for &(text, exec, d) in cases {
        let mut t = Bench::new(false);
        t.s.sgpr[2] = 0b1100;
        t.s.sgpr[126] = 0b1010;
        t.s.sgpr[127] = 0x1234; // must stay untouched
        let w = t.run(text);
        assert_eq!(sgprs(&w), vec![(0, d), (126, exec)], "{text}");
        assert_eq!(w.scc, Some(true), "{text}");
    }
    let mut t = Bench::new(false);
    t.s.sgpr[2] = 0x0f;
    t.s.sgpr[126] = 0x0f;
    let w = t.run("s_andn2_saveexec_b32 s0, s2");
    assert_eq!((sgprs(&w), w.scc), (vec![(0, 0x0f), (126, 0)], Some(false)));
}

#[test]
fn saveexec_family_wave64() {
    let mut t = Bench::new(true);
    t.s.sgpr[2] = 1;
    t.s.sgpr[3] = 1;
    t.s.sgpr[126] = 0xff;
    t.s.sgpr[127] = 0xffff_ffff;
    let w = t.run("s_and_saveexec_b64 s[0:1], s[2:3]");
    assert_eq!(
        sgprs(&w),
        vec![(0, 0xff), (1, 0xffff_ffff), (126, 1), (127, 1)]
    );
    assert_eq!(w.scc, Some(true));
    // EXEC = ~S0 & EXEC and D = the new EXEC.
    let w = t.run("s_andn1_wrexec_b64 s[0:1], s[2:3]");
    assert_eq!(
        sgprs(&w),
        vec![(0, 0xfe), (1, 0xffff_fffe), (126, 0xfe), (127, 0xffff_fffe)]
    );
    let w = t.run("s_andn2_saveexec_b64 s[0:1], s[2:3]");
    assert_eq!(
        sgprs(&w),
        vec![(0, 0xff), (1, 0xffff_ffff), (126, 0), (127, 0)]
    );
    assert_eq!(w.scc, Some(false));
    // Only a high-half bit left: SCC still set.
    t.s.sgpr[2] = 0;
    t.s.sgpr[3] = 0x8000_0000;
    let w = t.run("s_or_saveexec_b64 s[4:5], s[2:3]");
    assert_eq!(w.sgpr[2..], [(126, 0xff), (127, 0xffff_ffff)]);
    t.s.sgpr[126] = 0;
    t.s.sgpr[127] = 0;
    let w = t.run("s_and_saveexec_b64 s[4:5], s[2:3]");
    assert_eq!(w.scc, Some(false));
    let w = t.run("s_xor_saveexec_b64 s[4:5], s[2:3]");
    assert_eq!((w.sgpr[3], w.scc), ((127, 0x8000_0000), Some(true)));
}

#[test]
fn sopc_compares() {
    // (text, s1, s2, SCC)
    let cases: &[(&str, u32, u32, bool)] = &[
        ("s_cmp_eq_i32 s1, s2", 5, 5, true),
        ("s_cmp_lg_i32 s1, s2", 5, 5, false),
        ("s_cmp_gt_i32 s1, s2", 0xffff_ffff, 0, false),
        ("s_cmp_gt_u32 s1, s2", 0xffff_ffff, 0, true),
        ("s_cmp_ge_i32 s1, s2", 0x8000_0000, 0x8000_0000, true),
        ("s_cmp_lt_i32 s1, s2", 0x8000_0000, 0x7fff_ffff, true),
        ("s_cmp_lt_u32 s1, s2", 0x8000_0000, 0x7fff_ffff, false),
        ("s_cmp_le_i32 s1, s2", 1, 0, false),
        ("s_cmp_eq_u32 s1, s2", 1, 2, false),
        ("s_cmp_lg_u32 s1, s2", 1, 2, true),
        ("s_cmp_ge_u32 s1, s2", 1, 2, false),
        ("s_cmp_le_u32 s1, s2", 2, 2, true),
        ("s_bitcmp1_b32 s1, s2", 0b10, 33, true),
        ("s_bitcmp0_b32 s1, s2", 0b10, 33, false),
        ("s_bitcmp0_b32 s1, s2", 0b10, 0, true),
    ];
    for wave64 in WAVES {
        for &(text, a, b, scc) in cases {
            let mut t = Bench::new(wave64);
            t.s.sgpr[1] = a;
            t.s.sgpr[2] = b;
            t.s.scc = !scc;
            let w = t.run(text);
            assert_eq!(
                (sgprs(&w), w.scc),
                (vec![], Some(scc)),
                "{text} {a:#x} {b:#x}"
            );
        }
    }
    let mut t = Bench::new(true);
    t.s.sgpr[2] = 0;
    t.s.sgpr[3] = 1 << 8; // bit 40
    t.s.sgpr[4] = 0;
    t.s.sgpr[5] = 1 << 8;
    t.s.sgpr[6] = 40;
    assert_eq!(t.run("s_bitcmp1_b64 s[2:3], s6").scc, Some(true));
    assert_eq!(t.run("s_bitcmp0_b64 s[2:3], s6").scc, Some(false));
    assert_eq!(t.run("s_cmp_eq_u64 s[2:3], s[4:5]").scc, Some(true));
    t.s.sgpr[4] = 1;
    assert_eq!(t.run("s_cmp_eq_u64 s[2:3], s[4:5]").scc, Some(false));
    assert_eq!(t.run("s_cmp_lg_u64 s[2:3], s[4:5]").scc, Some(true));
}

#[test]
fn sopk_immediates() {
    let mut t = Bench::new(false);
    assert_eq!(
        sgprs(&t.run("s_movk_i32 s0, 0x8000")),
        vec![(0, 0xffff_8000)]
    );
    assert_eq!(sgprs(&t.run("s_movk_i32 s0, 0x7fff")), vec![(0, 0x7fff)]);
    t.s.sgpr[0] = 0;
    // Signed compares sign-extend the immediate, unsigned ones zero-extend it.
    assert_eq!(t.run("s_cmpk_gt_i32 s0, 0xffff").scc, Some(true));
    assert_eq!(t.run("s_cmpk_gt_u32 s0, 0xffff").scc, Some(false));
    t.s.sgpr[0] = 0xffff;
    assert_eq!(t.run("s_cmpk_eq_u32 s0, 0xffff").scc, Some(true));
    assert_eq!(t.run("s_cmpk_eq_i32 s0, 0xffff").scc, Some(false));
    assert_eq!(t.run("s_cmpk_lg_i32 s0, 0xffff").scc, Some(true));
    assert_eq!(t.run("s_cmpk_ge_u32 s0, 0xffff").scc, Some(true));
    assert_eq!(t.run("s_cmpk_lt_u32 s0, 0xffff").scc, Some(false));
    assert_eq!(t.run("s_cmpk_le_i32 s0, 0x7fff").scc, Some(false));
    assert_eq!(t.run("s_cmpk_lt_i32 s0, 0x7fff").scc, Some(false));
    assert_eq!(t.run("s_cmpk_ge_i32 s0, 0x8000").scc, Some(true));
    assert_eq!(t.run("s_cmpk_le_u32 s0, 0x8000").scc, Some(false));
    assert_eq!(t.run("s_cmpk_gt_u32 s0, 0x8000").scc, Some(true));
    assert_eq!(t.run("s_cmpk_lg_u32 s0, 0xffff").scc, Some(false));
    t.s.sgpr[0] = 0x7fff_ffff;
    let w = t.run("s_addk_i32 s0, 0x1");
    assert_eq!((sgprs(&w), w.scc), (vec![(0, 0x8000_0000)], Some(true)));
    t.s.sgpr[0] = 1;
    let w = t.run("s_addk_i32 s0, 0xffff");
    assert_eq!((sgprs(&w), w.scc), (vec![(0, 0)], Some(false)));
    t.s.sgpr[0] = 3;
    let w = t.run("s_mulk_i32 s0, 0xfffe");
    assert_eq!((sgprs(&w), w.scc), (vec![(0, 0xffff_fffa)], None));
}

#[test]
fn null_destination_is_dropped() {
    let mut t = Bench::new(false);
    t.s.sgpr[1] = 5;
    t.s.sgpr[2] = 6;
    let w = t.run("s_add_u32 null, s1, s2");
    assert!(w.sgpr.is_empty());
    assert_eq!(w.scc, Some(false));
}
