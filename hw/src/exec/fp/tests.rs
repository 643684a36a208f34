//! Directed tests of the AMD-specific rules (docs/floating-point.md): MODE
//! decoding, denormal flushing, NaN selection, signed zeros, min/max/med3,
//! compare and class, saturating conversions, frexp/ldexp, legacy multiply,
//! output modifiers, the division helpers and the transcendentals' precision.
//! Expected values are worked out by hand from the encodings.

use super::*;

const ONE: u32 = 0x3f80_0000;
const TWO: u32 = 0x4000_0000;
const HALF: u32 = 0x3f00_0000;
const INF: u32 = 0x7f80_0000;
const NINF: u32 = 0xff80_0000;
const QNAN: u32 = 0x7fc0_0000;
const SNAN: u32 = 0x7f80_0001;
const NZERO: u32 = 0x8000_0000;
const MIN_NORMAL: u32 = 0x0080_0000;
const MAX: u32 = 0x7f7f_ffff;

/// Denormals kept both ways, round to nearest even, IEEE mode.
fn keep() -> FpMode {
    FpMode::from_mode(0xf0 | 1 << 9)
}
/// Denormals flushed both ways.
fn flush() -> FpMode {
    FpMode::from_mode(1 << 9)
}
fn with_round(rm: Round) -> FpMode {
    FpMode {
        round32: rm,
        round64: rm,
        ..keep()
    }
}

#[test]
fn mode_register_decodes_each_field() {
    // round32 = Up (1), round64 = Zero (3), denorm32 = keep out only (2),
    // denorm64 = keep in only (1), DX10 clamp set, IEEE clear.
    let m = FpMode::from_mode(1 << 8 | 0b01 << 6 | 0b10 << 4 | 0b11 << 2 | 0b01);
    assert_eq!(m.round32, Round::Up);
    assert_eq!(m.round64, Round::Zero);
    assert_eq!(
        m.denorm32,
        Denorm {
            keep_in: false,
            keep_out: true
        }
    );
    assert_eq!(
        m.denorm64,
        Denorm {
            keep_in: true,
            keep_out: false
        }
    );
    assert!(m.dx10_clamp);
    assert!(!m.ieee);
    assert!(FpMode::from_mode(1 << 9).ieee);
}

#[test]
fn denormal_flushing_follows_each_mode_bit() {
    // 2^-149 + 2^-126: the denormal input is lost when inputs are flushed.
    assert_eq!(add_f32(1, MIN_NORMAL, &keep()), MIN_NORMAL + 1);
    assert_eq!(add_f32(1, MIN_NORMAL, &flush()), MIN_NORMAL);
    assert_eq!(add_f32(1, 0, &keep()), 1);
    assert_eq!(add_f32(1, 0, &flush()), 0);
    assert_eq!(add_f32(0x8000_0001, NZERO, &flush()), NZERO);
    assert_eq!(add_f32(0x8000_0001, 0, &flush()), 0);
    // Keep inputs, flush outputs (FP_DENORM = 1): 2^-126 - 2^-149 is a
    // denormal result and flushes to +0; keeping outputs (2) but flushing
    // inputs reads the denormal as 0.
    let keep_in = FpMode::from_mode(0x10);
    let keep_out = FpMode::from_mode(0x20);
    assert_eq!(add_f32(MIN_NORMAL, 0x8000_0001, &keep_in), 0);
    assert_eq!(add_f32(MIN_NORMAL, 0x8000_0001, &keep()), 0x007f_ffff);
    assert_eq!(add_f32(MIN_NORMAL, 0x8000_0001, &keep_out), MIN_NORMAL);
    // (2^23 - 1)·2^-149 × (1 + 2^-23) rounds up to the smallest normal:
    // decided after rounding, so it survives output flushing.
    assert_eq!(mul_f32(0x007f_ffff, 0x3f80_0001, &keep_in), MIN_NORMAL);
    // f16 follows the f64/f16 field, not the f32 one.
    let f16_flush = FpMode::from_mode(0x30);
    assert_eq!(add_f16(1, 0, &f16_flush), 0);
    assert_eq!(add_f16(1, 0, &FpMode::from_mode(0xc0)), 1);
    // f64: 2^-1022 × 0.5 is the denormal 2^-1023.
    let half64 = 0x3fe0_0000_0000_0000;
    assert_eq!(
        mul_f64(0x0010_0000_0000_0000, half64, &keep()),
        0x0008_0000_0000_0000
    );
    assert_eq!(mul_f64(0x0010_0000_0000_0000, half64, &flush()), 0);
    // Conversions narrow into the destination's denormals.
    assert_eq!(cvt_f32_f64(0x3800_0000_0000_0000, &keep()), 0x0040_0000);
    assert_eq!(cvt_f32_f64(0x3800_0000_0000_0000, &flush()), 0);
}

#[test]
fn nan_results_are_the_first_nan_quieted_or_the_default() {
    let m = keep();
    assert_eq!(add_f32(SNAN, 0x7fc0_0002, &m), 0x7fc0_0001);
    assert_eq!(add_f32(ONE, 0xffc1_2345, &m), 0xffc1_2345);
    assert_eq!(mul_f32(0xff80_0002, SNAN, &m), 0xffc0_0002);
    assert_eq!(add_f32(INF, NINF, &m), QNAN);
    assert_eq!(mul_f32(0, INF, &m), QNAN);
    assert_eq!(fma_f32(0, INF, 0x7fc0_0005, &m), 0x7fc0_0005);
    assert_eq!(fma_f32(INF, ONE, NINF, &m), QNAN);
    assert_eq!(sqrt_f32(0xbf80_0000, &m), QNAN);
    assert_eq!(rsq_f32(0xbf80_0000, &m), QNAN);
    assert_eq!(add_f16(0x7c00, 0xfc00, &m), 0x7e00);
    assert_eq!(
        add_f64(0x7ff0 << 48, 0xfff0 << 48, &m),
        0x7ff8_0000_0000_0000
    );
    assert_eq!(log_f32(0xbf80_0000, &m), QNAN);
    assert_eq!(sin_f32(INF, &m), QNAN);
    // Conversions keep sign and top payload bits, quieted.
    assert_eq!(cvt_f16_f32(0x7f81_2345, &m), 0x7e09);
    assert_eq!(cvt_f32_f16(0xfd01, &m), 0xffe0_2000);
    assert_eq!(cvt_f64_f32(0xff80_0001, &m), 0xfff8_0000_2000_0000);
}

#[test]
fn signed_zeros() {
    let m = keep();
    let down = with_round(Round::Down);
    assert_eq!(add_f32(0, NZERO, &m), 0);
    assert_eq!(add_f32(0, NZERO, &down), NZERO);
    assert_eq!(add_f32(NZERO, NZERO, &m), NZERO);
    assert_eq!(add_f32(ONE, 0xbf80_0000, &m), 0);
    assert_eq!(add_f32(ONE, 0xbf80_0000, &down), NZERO);
    assert_eq!(sqrt_f32(NZERO, &m), NZERO);
    assert_eq!(trunc_f32(0xbf00_0000, &m), NZERO);
    assert_eq!(ceil_f32(0xbf00_0000, &m), NZERO);
    assert_eq!(floor_f32(0xbf00_0000, &m), 0xbf80_0000);
    assert_eq!(rndne_f32(0xbf00_0000, &m), NZERO);
    assert_eq!(rndne_f32(0x3fc0_0000, &m), TWO); // 1.5 → 2
    assert_eq!(rndne_f32(0x4020_0000, &m), TWO); // 2.5 → 2
    assert_eq!(rcp_f32(NZERO, &m), NINF);
    assert_eq!(rsq_f32(NZERO, &m), NINF);
}

#[test]
fn min_max_nan_and_zero_rules() {
    let ieee = keep();
    let legacy = FpMode::from_mode(0xf0);
    for m in [ieee, legacy] {
        assert_eq!(min_f32(NZERO, 0, &m), NZERO);
        assert_eq!(min_f32(0, NZERO, &m), NZERO);
        assert_eq!(max_f32(NZERO, 0, &m), 0);
        assert_eq!(max_f32(0, NZERO, &m), 0);
        assert_eq!(min_f32(QNAN, ONE, &m), ONE);
        assert_eq!(max_f32(ONE, QNAN, &m), ONE);
        assert_eq!(min_f32(TWO, ONE, &m), ONE);
        assert_eq!(max_f32(NINF, MAX, &m), MAX);
    }
    assert_eq!(min_f32(SNAN, ONE, &ieee), 0x7fc0_0001);
    assert_eq!(max_f32(ONE, SNAN, &ieee), 0x7fc0_0001);
    assert_eq!(min_f32(0x7f80_0002, 0x7f80_0003, &ieee), 0x7fc0_0002);
    assert_eq!(min_f32(SNAN, ONE, &legacy), ONE);
    assert_eq!(max_f32(ONE, SNAN, &legacy), ONE);
    // Flushed denormals compare (and are returned) as zeros.
    assert_eq!(max_f32(0x8000_0001, 0, &flush()), 0);
    assert_eq!(min_f32(0x0000_0001, NZERO, &flush()), NZERO);
    assert_eq!(max_f32(0x0000_0001, 0, &keep()), 1);
    assert_eq!(
        min_f64(0x8000_0000_0000_0000, 0, &ieee),
        0x8000_0000_0000_0000
    );
    assert_eq!(max_f16(0x3c00, 0x7d00, &ieee), 0x7f00);
    // med3: the middle value, min3 when a NaN is present.
    let three = 0x4040_0000;
    for (a, b, c) in [
        (ONE, three, TWO),
        (three, ONE, TWO),
        (TWO, three, ONE),
        (TWO, ONE, three),
    ] {
        assert_eq!(med3_f32(a, b, c, &ieee), TWO);
    }
    assert_eq!(med3_f32(QNAN, three, TWO, &ieee), TWO);
    assert_eq!(med3_f32(ONE, QNAN, HALF, &ieee), HALF);
    assert_eq!(med3_f32(ONE, TWO, QNAN, &ieee), ONE);
    assert_eq!(med3_f16(0x3c00, 0x4000, 0x4200, &ieee), 0x4000);
}

#[test]
fn compare_and_class() {
    let m = keep();
    assert_eq!(compare_f32(0, NZERO, &m), Order::Equal);
    assert_eq!(compare_f32(QNAN, QNAN, &m), Order::Unordered);
    assert_eq!(compare_f32(ONE, SNAN, &m), Order::Unordered);
    assert_eq!(compare_f32(0xbf80_0000, ONE, &m), Order::Less);
    assert_eq!(compare_f32(NINF, 0xff7f_ffff, &m), Order::Less);
    assert_eq!(compare_f32(1, 0, &m), Order::Greater);
    assert_eq!(compare_f32(1, 0, &flush()), Order::Equal);
    assert_eq!(
        compare_f64(1, 0x8000_0000_0000_0000, &flush()),
        Order::Equal
    );
    assert_eq!(compare_f16(0x3c00, 0x3c01, &m), Order::Less);
    let cases32 = [
        (SNAN, 0),
        (QNAN, 1),
        (NINF, 2),
        (0xbf80_0000, 3),
        (0x8000_0001, 4),
        (NZERO, 5),
        (0, 6),
        (1, 7),
        (ONE, 8),
        (INF, 9),
    ];
    for (x, idx) in cases32 {
        assert!(class_f32(x, 1 << idx), "{x:#x} in class {idx}");
        assert!(
            !class_f32(x, 0x3ff & !(1 << idx)),
            "{x:#x} only in class {idx}"
        );
    }
    let cases64 = [
        (0x7ff0_0000_0000_0001u64, 0),
        (0x7ff8 << 48, 1),
        (0xfff0 << 48, 2),
        (1, 7),
        (0x8000 << 48, 5),
    ];
    for (x, idx) in cases64 {
        assert!(class_f64(x, 1 << idx) && !class_f64(x, 0x3ff & !(1 << idx)));
    }
    let cases16 = [
        (0x7c01u16, 0),
        (0x7e00, 1),
        (0xfc00, 2),
        (0xbc00, 3),
        (0x8001, 4),
        (0x0001, 7),
        (0x7c00, 9),
    ];
    for (x, idx) in cases16 {
        assert!(class_f16(x, 1 << idx) && !class_f16(x, 0x3ff & !(1 << idx)));
    }
}

#[test]
fn conversions_saturate_and_send_nan_to_zero() {
    let m = keep();
    let three_e9 = 0x4f32_d05e; // 3.0e9
    assert_eq!(cvt_i32_f32(three_e9, &m), i32::MAX);
    assert_eq!(cvt_i32_f32(three_e9 | NZERO, &m), i32::MIN);
    assert_eq!(cvt_i32_f32(QNAN, &m), 0);
    assert_eq!(cvt_i32_f32(INF, &m), i32::MAX);
    assert_eq!(cvt_i32_f32(NINF, &m), i32::MIN);
    assert_eq!(cvt_i32_f32(0xbfc0_0000, &m), -1); // -1.5
    assert_eq!(cvt_i32_f32(0xcf00_0000, &m), i32::MIN); // exactly -2^31
    assert_eq!(cvt_u32_f32(0xbf80_0000, &m), 0);
    assert_eq!(cvt_u32_f32(0x4f80_0000, &m), u32::MAX); // 2^32
    assert_eq!(cvt_u32_f32(0x4f7f_ffff, &m), 0xffff_ff00);
    assert_eq!(cvt_u32_f64(0x41ef_ffff_ffe0_0000, &m), u32::MAX); // 2^32 - 1
    assert_eq!(cvt_i32_f64(0xc1e0_0000_0020_0000, &m), i32::MIN); // -2^31 - 1
    assert_eq!(cvt_i16_f16(0x7bff, &m), i16::MAX); // 65504
    assert_eq!(cvt_i16_f16(0xfbff, &m), i16::MIN);
    assert_eq!(cvt_u16_f16(0xbc00, &m), 0);
    assert_eq!(cvt_u16_f16(0x7e00, &m), 0);
    // floor(x + 0.5) on the exact value, and floor.
    for (x, rpi, flr) in [
        (HALF, 1, 0),
        (0xbf00_0000, 0, -1),
        (0x3fc0_0000, 2, 1),
        (0xbfc0_0000, -1, -2),
        (0x4020_0000, 3, 2),
        (0xc020_0000, -2, -3),
        (0x3eff_ffff, 0, 0), // 0.49999997: x + 0.5 < 1 exactly
        (QNAN, 0, 0),
        (three_e9, i32::MAX, i32::MAX),
    ] {
        assert_eq!(cvt_rpi_i32_f32(x, &m), rpi, "rpi {x:#x}");
        assert_eq!(cvt_flr_i32_f32(x, &m), flr, "flr {x:#x}");
    }
    assert_eq!(cvt_f32_ubyte(0x1122_3344, 2), 0x4208_0000); // 34.0
    assert_eq!(cvt_f32_ubyte(0xff00_0000, 3), 0x437f_0000); // 255.0
                                                            // Integer to float rounds per MODE: 2^24 + 1 and 65535.
    assert_eq!(cvt_f32_i32(0x0100_0001, &m), 0x4b80_0000);
    assert_eq!(
        cvt_f32_i32(0x0100_0001, &with_round(Round::Up)),
        0x4b80_0001
    );
    assert_eq!(cvt_f16_u16(65535, &m), 0x7c00);
    assert_eq!(cvt_f16_u16(65535, &with_round(Round::Zero)), 0x7bff);
    // 65520 is the tie between 65504 and 2^16: even goes to infinity.
    assert_eq!(cvt_f16_f32(0x477f_f000, &m), 0x7c00);
    assert_eq!(cvt_f16_f32(0x477f_f000, &with_round(Round::Zero)), 0x7bff);
    // pkrtz: toward zero even in nearest-even mode (65520 → 65504).
    assert_eq!(cvt_pkrtz_f16_f32(0x477f_f000, ONE, &m), 0x3c00_7bff);
    assert_eq!(cvt_f64_i32(i32::MIN), 0xc1e0_0000_0000_0000);
    assert_eq!(cvt_f64_u32(u32::MAX), 0x41ef_ffff_ffe0_0000);
}

#[test]
fn frexp_and_ldexp() {
    let m = keep();
    for (x, mant, exp) in [
        (0x4100_0000, HALF, 4),        // 8
        (ONE, HALF, 1),                // 1
        (0x3f40_0000, 0x3f40_0000, 0), // 0.75
        (0xc040_0000, 0xbf40_0000, 2), // -3
        (1, HALF, -148),               // 2^-149
        (0, 0, 0),
        (NZERO, NZERO, 0),
        (INF, INF, 0),
        (NINF, NINF, 0),
        (SNAN, 0x7fc0_0001, 0),
    ] {
        assert_eq!(frexp_mant_f32(x, &m), mant, "mant {x:#x}");
        assert_eq!(frexp_exp_i32_f32(x, &m), exp, "exp {x:#x}");
    }
    assert_eq!(frexp_exp_i32_f32(1, &flush()), 0);
    assert_eq!(frexp_mant_f32(0x8000_0001, &flush()), NZERO);
    assert_eq!(frexp_exp_i32_f64(1, &m), -1073);
    assert_eq!(
        frexp_mant_f64(0x4024_0000_0000_0000, &m),
        0x3fe4_0000_0000_0000
    ); // 10 → 0.625
    assert_eq!(frexp_exp_i16_f16(1, &m), -23);
    assert_eq!(frexp_mant_f16(0x4900, &m), 0x3900); // 10 → 0.625

    assert_eq!(ldexp_f32(ONE, 127, &m), 0x7f00_0000);
    assert_eq!(ldexp_f32(ONE, 128, &m), INF);
    assert_eq!(ldexp_f32(ONE, 128, &with_round(Round::Zero)), MAX);
    assert_eq!(
        ldexp_f32(0xbf80_0000, 128, &with_round(Round::Up)),
        0xff7f_ffff
    );
    assert_eq!(ldexp_f32(ONE, -149, &m), 1);
    assert_eq!(ldexp_f32(ONE, -149, &flush()), 0);
    assert_eq!(ldexp_f32(ONE, -150, &m), 0); // tie to even
    assert_eq!(ldexp_f32(0x3fc0_0000, -150, &m), 1); // 0.75 ulp rounds up
    assert_eq!(ldexp_f32(ONE, -150, &with_round(Round::Up)), 1);
    assert_eq!(ldexp_f32(ONE, i32::MAX, &m), INF);
    assert_eq!(ldexp_f32(MAX, i32::MIN, &m), 0);
    assert_eq!(ldexp_f32(1, 149, &m), ONE);
    assert_eq!(ldexp_f32(SNAN, 3, &m), 0x7fc0_0001);
    assert_eq!(ldexp_f16(0x3c00, 15, &m), 0x7800);
    assert_eq!(ldexp_f16(0x3c00, 16, &m), 0x7c00);
    assert_eq!(ldexp_f64(0x3ff0 << 48, -1074, &m), 1);
}

#[test]
fn legacy_multiply_zero_wins() {
    let m = keep();
    assert_eq!(mul_legacy_f32(0, INF, &m), 0);
    assert_eq!(mul_legacy_f32(NZERO, QNAN, &m), 0);
    assert_eq!(mul_legacy_f32(SNAN, 0, &m), 0);
    assert_eq!(mul_legacy_f32(TWO, 0x4040_0000, &m), 0x40c0_0000);
    assert_eq!(mul_legacy_f32(INF, TWO, &m), INF);
    assert_eq!(mul_legacy_f32(QNAN, TWO, &m), QNAN);
    // A flushed denormal factor is a zero factor.
    assert_eq!(mul_legacy_f32(1, INF, &flush()), 0);
    assert_eq!(mul_f32(1, INF, &flush()), QNAN);
    assert_eq!(fma_legacy_f32(0, QNAN, ONE, &m), ONE);
    assert_eq!(fma_legacy_f32(0, INF, NZERO, &m), 0);
    assert_eq!(fma_legacy_f32(TWO, INF, ONE, &m), INF);
    assert_eq!(fma_legacy_f32(TWO, TWO, ONE, &m), 0x40a0_0000);
    // Unfused GCN mad: two roundings, denormals flushed whatever MODE says.
    // (1 + 2^-12)² - 1 = 2^-11 + 2^-24 exactly; the rounded product loses
    // 2^-24 (a tie, to even).
    let a = 0x3f80_0800;
    assert_eq!(fma_f32(a, a, 0xbf80_0000, &m), 0x3a00_0400);
    assert_eq!(mad_f32(a, a, 0xbf80_0000, &m), 0x3a00_0000);
    assert_eq!(mad_f32(1, ONE, 0, &keep()), 0);
}

#[test]
fn output_modifiers() {
    let m = keep();
    let three = 0x4040_0000;
    assert_eq!(omod_f32(three, 0, &m), three);
    assert_eq!(omod_f32(three, 1, &m), 0x40c0_0000);
    assert_eq!(omod_f32(three, 2, &m), 0x4140_0000);
    assert_eq!(omod_f32(three, 3, &m), 0x3fc0_0000);
    assert_eq!(omod_f32(1, 3, &m), 0); // half of 2^-149 ties to even
    assert_eq!(omod_f32(1, 3, &with_round(Round::Up)), 1);
    assert_eq!(omod_f32(MAX, 1, &m), INF);
    assert_eq!(omod_f16(0x3c00, 2, &m), 0x4400);
    assert_eq!(omod_f64(0x3ff0 << 48, 3, &m), 0x3fe0 << 48);
    for mode in [m, FpMode::from_mode(0xf0 | 1 << 8)] {
        assert_eq!(clamp_f32(0x3fc0_0000, &mode), ONE);
        assert_eq!(clamp_f32(0xbf00_0000, &mode), 0);
        assert_eq!(clamp_f32(QNAN, &mode), 0);
        assert_eq!(clamp_f32(0xffc0_0000, &mode), 0);
        assert_eq!(clamp_f32(HALF, &mode), HALF);
        assert_eq!(clamp_f32(INF, &mode), ONE);
        assert_eq!(clamp_f32(NINF, &mode), 0);
        assert_eq!(clamp_f32(NZERO, &mode), NZERO);
        assert_eq!(clamp_f16(0x4000, &mode), 0x3c00);
        assert_eq!(clamp_f64(0xbff0 << 48, &mode), 0);
    }
}

#[test]
fn fract_is_x_minus_floor_rounded_once() {
    let m = keep();
    assert_eq!(fract_f32(0x3fa0_0000, &m), 0x3e80_0000); // 1.25 → 0.25
    assert_eq!(fract_f32(0xbfa0_0000, &m), 0x3f40_0000); // -1.25 → 0.75
    assert_eq!(fract_f32(0x40a0_0000, &m), 0); // 5 → +0
    assert_eq!(fract_f32(INF, &m), QNAN);
    assert_eq!(fract_f32(0x7fc0_0003, &m), 0x7fc0_0003);
    // -2^-30: 1 - 2^-30 rounds to 1.0 to nearest, and fract then gives the
    // largest value below 1.0 (issue 14: OpenCL's fmin(…, 0x1.fffffep-1f)).
    assert_eq!(fract_f32(0xb080_0000, &m), 0x3f7f_ffff);
    assert_eq!(
        fract_f32(0xb080_0000, &with_round(Round::Zero)),
        0x3f7f_ffff
    );
    assert_eq!(fract_f64(0xbff4 << 48, &m), 0x3fe8 << 48);
    assert_eq!(fract_f16(0xbd00, &m), 0x3a00);
}

/// LLVM's f32 division expansion (div_scale, rcp, Newton-Raphson fmas,
/// div_fmas, div_fixup) built from these functions gives the correctly
/// rounded quotient wherever div_scale does not set VCC.
fn llvm_fdiv(a: u32, b: u32, m: &FpMode) -> (u32, bool) {
    let (den, _) = div_scale_f32(b, b, a, m);
    let (num, vcc) = div_scale_f32(a, b, a, m);
    let r = rcp_f32(den, m);
    let nden = den ^ NZERO;
    let e = fma_f32(nden, r, ONE, m);
    let r = fma_f32(e, r, r, m);
    let q = mul_f32(num, r, m);
    let rem = fma_f32(nden, q, num, m);
    let q = fma_f32(rem, r, q, m);
    let rem = fma_f32(nden, q, num, m);
    let q = div_fmas_f32(rem, r, q, vcc, m);
    (div_fixup_f32(q, b, a, m), vcc)
}

#[test]
fn division_helpers_compose_into_correct_division() {
    let m = keep();
    let mut s = 0x1234_5678_9abc_def0u64;
    let mut compared = 0;
    for i in 0..20_000 {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let a = (s >> 32) as u32;
        let b = s as u32;
        // Moderate exponents, tiny numerators, denormal and huge denominators.
        let (a, b) = match i % 4 {
            0 => (
                (a & 0x807f_ffff) | 0x3f00_0000,
                (b & 0x80ff_ffff) | 0x3e00_0000,
            ),
            1 => (
                (a & 0x80ff_ffff) | 0x0400_0000,
                (b & 0x807f_ffff) | 0x3f00_0000,
            ),
            2 => ((a & 0x807f_ffff) | 0x2000_0000, b & 0x807f_ffff),
            _ => (
                (a & 0x807f_ffff) | 0x4000_0000,
                (b & 0x807f_ffff) | 0x7e80_0000,
            ),
        };
        let (q, vcc) = llvm_fdiv(a, b, &m);
        if vcc || b & 0x7fff_ffff == 0 {
            continue;
        }
        assert_eq!(q, div_f32(a, b, &m), "{a:#x} / {b:#x}");
        compared += 1;
    }
    assert!(compared > 15_000, "{compared}");
    // Special cases come out of div_fixup.
    assert_eq!(llvm_fdiv(0, 0, &m).0, QNAN);
    assert_eq!(llvm_fdiv(ONE, 0, &m).0, INF);
    assert_eq!(llvm_fdiv(0xbf80_0000, 0, &m).0, NINF);
    assert_eq!(llvm_fdiv(INF, INF, &m).0, QNAN);
    assert_eq!(llvm_fdiv(ONE, NINF, &m).0, NZERO);
    assert_eq!(llvm_fdiv(0x7fc0_0007, ONE, &m).0, 0x7fc0_0007);
}

#[test]
fn div_scale_cases() {
    let m = keep();
    // Zero operand: NaN, VCC clear.
    assert_eq!(div_scale_f32(ONE, 0, ONE, &m), (QNAN, false));
    // Numerator exponent 96 above the denominator's: VCC, the denominator
    // (S0 == S1) scaled by 2^64, the numerator (S0 == S2) not.
    let big = 0x7000_0000; // 2^97
    assert_eq!(div_scale_f32(ONE, ONE, big, &m), (0x5f80_0000, true));
    assert_eq!(div_scale_f32(big, ONE, big, &m), (big, true));
    // A denormal denominator with 1.0 is already 127 binades apart: VCC.
    assert_eq!(div_scale_f32(1, 1, ONE, &m), (0x1500_0000, true));
    // Denormal denominator, small numerator (2^-60): scaled up, VCC clear.
    assert_eq!(div_scale_f32(1, 1, 0x2180_0000, &m), (0x1500_0000, false));
    // Huge denominator (1/S1 denormal), ordinary quotient: scaled down.
    let huge = 0x7f00_0000; // 2^127
    assert_eq!(div_scale_f32(huge, huge, huge, &m), (0x5f00_0000, false));
    // Denormal quotient: VCC, only the numerator scaled.
    let small = 0x0100_0000; // 2^-125
    assert_eq!(
        div_scale_f32(small, 0x4000_0000 | 0x0080_0000, small, &m),
        (0x2100_0000, true)
    );
    // Tiny numerator (exponent field <= 23): scaled up.
    assert_eq!(
        div_scale_f32(0x0b00_0000, ONE, 0x0b00_0000, &m),
        (0x2b00_0000, false)
    );
    // div_fmas: fused, scaled before the rounding when VCC is set: by
    // 2^64 (f64: 2^128) when the quotient estimate S2 is at least 1, else
    // by 2^-64 (2^-128), undoing div_scale's scaling either way.
    assert_eq!(div_fmas_f32(TWO, TWO, ONE, false, &m), 0x40a0_0000);
    assert_eq!(div_fmas_f32(TWO, TWO, ONE, true, &m), 0x60a0_0000);
    assert_eq!(div_fmas_f32(TWO, TWO, 0x3f00_0000, true, &m), 0x2090_0000);
    assert_eq!(
        div_fmas_f64(0x4000 << 48, 0x4000 << 48, 0x3ff0 << 48, true, &m),
        0x4814 << 48
    );
    // 1.0 / DBL_MAX: the reciprocal and the quotient are denormal; the
    // denominator is scaled down by 2^128 (the guide's "up" overflows).
    let dbl_max = 0x7fef_ffff_ffff_ffff;
    assert_eq!(
        div_scale_f64(dbl_max, dbl_max, 0x3ff0 << 48, &m),
        (0x77ef_ffff_ffff_ffff, true)
    );
    // div_fixup: an overflowed (NaN) estimate of finite operands is the
    // signed infinity; a quotient below half the smallest denormal is 0.
    assert_eq!(
        div_fixup_f64(0x7ff8 << 48, 0x0010 << 48, dbl_max | 1 << 63, &m),
        0xfff0 << 48
    );
    assert_eq!(div_fixup_f32(QNAN, 0x7b80_0000, 0x0080_0000, &m), 0);
    // div_fixup with the quotient's sign and the special cases.
    assert_eq!(div_fixup_f32(TWO, 0xbf80_0000, TWO, &m), 0xc000_0000);
    assert_eq!(
        div_fixup_f32(TWO | NZERO, 0xbf80_0000, 0xc000_0000, &m),
        TWO
    );
    assert_eq!(div_fixup_f32(TWO, ONE, 0x7f80_0009, &m), 0x7fc0_0009);
    assert_eq!(div_fixup_f16(0x4000, 0x3c00, 0, &m), 0);
    assert_eq!(
        div_fixup_f64(0x4000 << 48, 0, 0x3ff0 << 48, &m),
        0x7ff0 << 48
    );
}

/// ulps between two finite f32 encodings of the same sign.
fn ulps(a: u32, b: u32) -> u32 {
    a.abs_diff(b)
}

#[test]
fn transcendentals_within_half_ulp_of_f64_and_exact_where_the_function_is() {
    let m = keep();
    // Known exact values.
    assert_eq!(exp_f32(0x4100_0000, &m), 0x4380_0000); // 2^8 = 256
    assert_eq!(exp_f32(0xc2fc_0000, &m), 0x0080_0000); // 2^-126
    assert_eq!(exp_f32(0xc315_0000, &m), 1); // 2^-149
    assert_eq!(exp_f32(0xc315_0000, &flush()), 0);
    assert_eq!(exp_f32(0x4300_0000, &m), INF); // 2^128
    assert_eq!(exp_f32(NINF, &m), 0);
    assert_eq!(log_f32(0x4380_0000, &m), 0x4100_0000);
    assert_eq!(log_f32(0, &m), NINF);
    assert_eq!(log_f32(NZERO, &m), NINF);
    assert_eq!(log_f32(1, &m), 0xc315_0000); // log2(2^-149) = -149
    assert_eq!(log_f32(1, &flush()), NINF);
    assert_eq!(log_f32(INF, &m), INF);
    assert_eq!(sin_f32(0x3e80_0000, &m), ONE); // sin(π/2)
    assert_eq!(cos_f32(0, &m), ONE);
    assert_eq!(cos_f32(HALF, &m), 0xbf80_0000); // cos(π)
    assert_eq!(exp_f16(0x4800, &m), 0x5c00); // 2^8
    assert_eq!(log_f16(0x5c00, &m), 0x4800);
    assert_eq!(sin_f16(0x3400, &m), 0x3c00);
    // Random arguments: the f32 nearest to the f64 value, and within 1 ulp of it.
    let mut s = 99u64;
    let mut n = 0;
    for _ in 0..50_000 {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let x = ((s >> 33) as u32 & 0x00ff_ffff) | 0x3e00_0000 | (((s >> 20) as u32 & 1) << 31);
        let xf = f32::from_bits(x) as f64;
        for (ours, want) in [
            (exp_f32(x, &m), xf.exp2()),
            (log_f32(x & 0x7fff_ffff, &m), (xf.abs()).log2()),
            (sin_f32(x, &m), (xf * core::f64::consts::TAU).sin()),
            (cos_f32(x, &m), (xf * core::f64::consts::TAU).cos()),
        ] {
            let o = f32::from_bits(ours) as f64;
            let w = want as f32;
            assert!(ulps(ours, w.to_bits()) <= 1, "{x:#x}: {ours:#x} vs {want}");
            let spacing = (f32::from_bits(ours.wrapping_add(1)) as f64 - o).abs();
            assert!(
                (o - want).abs() <= 0.5 * spacing + 1e-300,
                "{x:#x}: {ours:#x} vs {want}"
            );
            n += 1;
        }
    }
    assert_eq!(n, 200_000);
}

#[test]
fn rcp_rsq_sqrt_exact_cases_and_directions() {
    let m = keep();
    assert_eq!(rcp_f32(0x4080_0000, &m), 0x3e80_0000); // 1/4
    assert_eq!(rcp_f32(INF, &m), 0);
    assert_eq!(rcp_f32(1, &m), INF); // 2^149 overflows
    assert_eq!(rcp_f32(1, &with_round(Round::Zero)), MAX);
    assert_eq!(rcp_f32(1, &flush()), INF); // flushed to 1/+0
    assert_eq!(rcp_f32(0x7f00_0000, &m), 0x0040_0000); // 2^-127, denormal
    assert_eq!(rcp_f32(0x7f00_0000, &flush()), 0);
    assert_eq!(rcp_iflag_f32(0x4080_0000, &m), 0x3e80_0000);
    // 1/3 in each direction: 0x3eaaaaab to nearest and up, ...aa down and to zero.
    let three = 0x4040_0000;
    assert_eq!(rcp_f32(three, &m), 0x3eaa_aaab);
    assert_eq!(rcp_f32(three, &with_round(Round::Down)), 0x3eaa_aaaa);
    assert_eq!(
        rcp_f32(three | NZERO, &with_round(Round::Down)),
        0xbeaa_aaab
    );
    assert_eq!(rsq_f32(0x4080_0000, &m), HALF); // 1/sqrt(4)
    assert_eq!(rsq_f32(0x3e80_0000, &m), TWO);
    assert_eq!(rsq_f32(INF, &m), 0);
    assert_eq!(rsq_f32(1, &m), 0x64b5_04f3); // 2^74.5 = 0x1.6a09e6p+74 to nearest
    assert_eq!(rsq_f64(0x4010 << 48, &m), 0x3fe0 << 48);
    assert_eq!(rsq_f16(0x4400, &m), 0x3800);
    assert_eq!(sqrt_f32(TWO, &m), 0x3fb5_04f3);
    assert_eq!(sqrt_f32(TWO, &with_round(Round::Up)), 0x3fb5_04f4);
    assert_eq!(sqrt_f32(1, &m), 0x1a35_04f3); // sqrt(2^-149)
    assert_eq!(sqrt_f32(INF, &m), INF);
    assert_eq!(sqrt_f64(0x4010 << 48, &m), 0x4000 << 48);
    assert_eq!(sqrt_f16(0x4400, &m), 0x4000);
}

#[test]
fn each_format_rounds_by_its_own_mode_field() {
    // round32 = Up, round64 (f64 and f16) = Down; 1 + tiny rounds up only in f32.
    let m = FpMode::from_mode(0xf0 | 0b10 << 2 | 0b01);
    assert_eq!(add_f32(ONE, 0x3080_0000, &m), ONE + 1);
    assert_eq!(add_f16(0x3c00, 0x0400, &m), 0x3c00);
    assert_eq!(add_f64(0x3ff0 << 48, 0x3000 << 48, &m), 0x3ff0 << 48);
    let m = FpMode::from_mode(0xf0 | 0b01 << 2 | 0b10);
    assert_eq!(add_f32(ONE, 0x3080_0000, &m), ONE);
    assert_eq!(add_f16(0x3c00, 0x0400, &m), 0x3c01);
    assert_eq!(add_f64(0x3ff0 << 48, 0x3000 << 48, &m), (0x3ff0 << 48) + 1);
    assert_eq!(cvt_f16_f32(0x3f80_0001, &m), 0x3c01); // f16 result: f16 field (Up)
    assert_eq!(cvt_f32_f64((0x3ff0 << 48) + 1, &m), ONE); // f32 result: f32 field (Down)
}
