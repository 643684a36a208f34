//! Golden model: the rare VALU opcodes (cube map, quad SADs, mullit,
//! cvt_pkaccum, swaprel, trig_preop). Expected values are worked out by hand
//! from the ISA guides' pseudo-code (see each test), never by calling the
//! model's own helpers.

use arch::isa::Target;
use golden::testing::probe::Probe;

const BOTH: [Target; 3] = [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64];

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// Loads per-lane inputs into `v1..` (one row per register), runs `text` and
/// returns lane values of `v{out}`.
fn run3(t: Target, text: &str, rows: &[&[u32]], out: usize) -> Vec<u32> {
    let mut p = Probe::new(t);
    for (r, vals) in rows.iter().enumerate() {
        p.set_vgpr(1 + r, |l| vals.get(l).copied().unwrap_or(0));
    }
    p.exec(text).unwrap_or_else(|e| panic!("{t:?} {text}: {e}"));
    p.wave.vgpr[out][..rows[0].len()].to_vec()
}

#[test]
fn cube_face_coordinates_and_major_axis() {
    // (x, y, z) per lane, and the expected (id, sc, tc, ma) from the guide's
    // table: z major (ties included) -> face 4/5, sc = ±x, tc = -y;
    // y major -> face 2/3, sc = x, tc = ±z; x major -> face 0/1, sc = ∓z,
    // tc = -y; ma = 2 * major axis.
    type Case = ((f32, f32, f32), (f32, f32, f32, f32));
    let cases: [Case; 8] = [
        ((1.0, -2.0, 0.5), (3.0, 1.0, -0.5, -4.0)),
        ((-3.0, 1.0, 2.0), (1.0, 2.0, -1.0, -6.0)),
        ((1.0, 1.0, 1.0), (4.0, 1.0, -1.0, 2.0)),
        ((0.5, 0.25, -0.75), (5.0, -0.5, -0.25, -1.5)),
        ((2.0, 1.0, 0.0), (0.0, -0.0, -1.0, 4.0)),
        ((1.0, 2.0, -1.0), (2.0, 1.0, -1.0, 4.0)),
        // -0.0 is not < 0: the +z face.
        ((0.0, 0.0, -0.0), (4.0, 0.0, -0.0, -0.0)),
        // A NaN z loses every comparison: x (largest of x, y) is major.
        ((-3.0, 1.0, f32::NAN), (1.0, f32::NAN, -1.0, -6.0)),
    ];
    let xs: Vec<u32> = cases.iter().map(|c| f(c.0 .0)).collect();
    let ys: Vec<u32> = cases.iter().map(|c| f(c.0 .1)).collect();
    let zs: Vec<u32> = cases.iter().map(|c| f(c.0 .2)).collect();
    for t in BOTH {
        for (op, pick) in [
            ("v_cubeid_f32", 0),
            ("v_cubesc_f32", 1),
            ("v_cubetc_f32", 2),
            ("v_cubema_f32", 3),
        ] {
            let got = run3(t, &format!("{op} v4, v1, v2, v3"), &[&xs, &ys, &zs], 4);
            for (l, (_, e)) in cases.iter().enumerate() {
                let want = [e.0, e.1, e.2, e.3][pick];
                if want.is_nan() {
                    assert!(f32::from_bits(got[l]).is_nan(), "{t:?} {op} lane {l}");
                } else {
                    assert_eq!(got[l], f(want), "{t:?} {op} lane {l}");
                }
            }
        }
    }
    // Source modifiers apply first: |x| makes lane 1's x major axis positive.
    let got = run3(
        Target::GFX1030_W32,
        "v_cubeid_f32 v4, |v1|, v2, v3",
        &[&xs, &ys, &zs],
        4,
    );
    assert_eq!(got[1], f(0.0));
}

#[test]
fn mullit_lighting_rules() {
    const NEG_MAX: u32 = 0xff7f_ffff;
    // (s0, s1, s2) -> d: -MAX_FLOAT when s1 is -MAX/-inf/NaN or s2 <= 0 or
    // NaN, else s0 * s1 with 0 * x = 0.
    let cases: [(u32, u32, u32, u32); 9] = [
        (f(2.0), f(3.0), f(1.0), f(6.0)),
        (f(2.0), f(3.0), f(0.0), NEG_MAX),
        (f(2.0), f(3.0), f(-0.0), NEG_MAX),
        (f(2.0), f(3.0), f(-1.5), NEG_MAX),
        (f(2.0), f(f32::NAN), f(1.0), NEG_MAX),
        (f(2.0), f(f32::NEG_INFINITY), f(1.0), NEG_MAX),
        (f(2.0), NEG_MAX, f(1.0), NEG_MAX),
        (f(f32::INFINITY), f(2.0), f(f32::NAN), NEG_MAX),
        (f(0.0), f(f32::INFINITY), f(1.0), f(0.0)),
    ];
    let a: Vec<u32> = cases.iter().map(|c| c.0).collect();
    let b: Vec<u32> = cases.iter().map(|c| c.1).collect();
    let c: Vec<u32> = cases.iter().map(|c| c.2).collect();
    for t in [Target::GFX1030_W32, Target::GFX1030_W64] {
        let got = run3(t, "v_mullit_f32 v4, v1, v2, v3", &[&a, &b, &c], 4);
        for (l, case) in cases.iter().enumerate() {
            assert_eq!(got[l], case.3, "{t:?} lane {l}");
        }
    }
}

#[test]
fn quad_sads() {
    // S0 = bytes 01..08; windows start at bytes 0..3 of S0.
    // Lane 0: S1 = 04030201, accumulators 1, 2, 3, 4 (16-bit) or 1, 2, 3,
    //   0xffffffff (32-bit). SADs of windows 01020304, 02030405, 03040506,
    //   04050607 against 01020304 are 0, 4, 8, 12.
    // Lane 1: S1 = 04030200 (byte 0 is a zero reference: masked forms skip
    //   it) and accumulator 0xffff in the low field. Plain SADs: 1, 5, 9, 13;
    //   masked: 0, 3, 6, 9.
    for t in BOTH {
        let mut p = Probe::new(t);
        p.set_vgpr(4, |_| 0x0403_0201);
        p.set_vgpr(5, |_| 0x0807_0605);
        p.set_vgpr(6, |l| if l == 1 { 0x0403_0200 } else { 0x0403_0201 });
        // 16-bit accumulators in v[8:9].
        p.set_vgpr(8, |l| if l == 1 { 0xffff } else { 0x0002_0001 });
        p.set_vgpr(9, |l| if l == 1 { 0 } else { 0x0004_0003 });
        // 32-bit accumulators in v[10:13].
        p.set_vgpr(10, |_| 1);
        p.set_vgpr(11, |_| 2);
        p.set_vgpr(12, |_| 3);
        p.set_vgpr(13, |_| 0xffff_ffff);
        let pair = |p: &Probe, n: usize, l: usize| {
            u64::from(p.wave.vgpr[n][l]) | u64::from(p.wave.vgpr[n + 1][l]) << 32
        };
        p.exec("v_qsad_pk_u16_u8 v[20:21], v[4:5], v6, v[8:9]")
            .unwrap();
        assert_eq!(pair(&p, 20, 0), 0x0010_000b_0006_0001, "{t:?} qsad lane 0");
        // 0xffff + 1 wraps to 0 in its 16-bit field.
        assert_eq!(pair(&p, 20, 1), 0x000d_0009_0005_0000, "{t:?} qsad lane 1");
        p.exec("v_mqsad_pk_u16_u8 v[20:21], v[4:5], v6, v[8:9]")
            .unwrap();
        assert_eq!(pair(&p, 20, 0), 0x0010_000b_0006_0001, "{t:?} mqsad lane 0");
        assert_eq!(pair(&p, 20, 1), 0x0009_0006_0003_ffff, "{t:?} mqsad lane 1");
        p.exec("v_mqsad_u32_u8 v[20:23], v[4:5], v6, v[10:13]")
            .unwrap();
        let quad = |p: &Probe, l: usize| [20, 21, 22, 23].map(|r| p.wave.vgpr[r][l]);
        assert_eq!(quad(&p, 0), [1, 6, 11, 11], "{t:?} mqsad_u32 lane 0");
        assert_eq!(quad(&p, 1), [1, 5, 9, 8], "{t:?} mqsad_u32 lane 1");
    }
}

#[test]
fn cvt_pkaccum_packs_one_byte_into_the_destination() {
    // d = 0x11223344; byte S1[1:0] replaced by u8(S0) rounded to nearest,
    // saturated to [0, 255].
    let mut p = Probe::new(Target::GFX803);
    let s0 = [f(200.7), f(-5.0), f(300.0), f(2.25)];
    let s1 = [2, 0, 7, 1];
    p.set_vgpr(1, |l| s0[l % 4]);
    p.set_vgpr(2, |l| s1[l % 4]);
    p.set_vgpr(4, |_| 0x1122_3344);
    p.exec("v_cvt_pkaccum_u8_f32 v4, v1, v2").unwrap();
    let want = [0x11c9_3344, 0x1122_3300, 0xff22_3344, 0x1122_0244];
    for l in 0..64 {
        assert_eq!(p.wave.vgpr[4][l], want[l % 4], "lane {l}");
    }
}

#[test]
fn swaprel_swaps_two_m0_relative_vgprs() {
    for t in [Target::GFX1030_W32, Target::GFX1030_W64] {
        let mut p = Probe::new(t);
        // M0[9:0] = 1 (source offset), M0[25:16] = 2 (destination offset):
        // v_swaprel_b32 v3, v5 swaps v(5+1) and v(3+2).
        p.wave.sgpr[124] = 2 << 16 | 1;
        p.set_vgpr(5, |l| 0x500 + l as u32);
        p.set_vgpr(6, |l| 0x600 + l as u32);
        p.set_vgpr(3, |_| 0x333);
        p.wave.set_exec(0xaaaa_aaaa_aaaa_aaaa & p.wave.full_mask());
        p.exec("v_swaprel_b32 v3, v5").unwrap();
        for l in 0..p.wave.lanes() as usize {
            let on = l % 2 == 1;
            let (v5, v6) = (0x500 + l as u32, 0x600 + l as u32);
            assert_eq!(
                p.wave.vgpr[5][l],
                if on { v6 } else { v5 },
                "{t:?} lane {l}"
            );
            assert_eq!(
                p.wave.vgpr[6][l],
                if on { v5 } else { v6 },
                "{t:?} lane {l}"
            );
            assert_eq!(p.wave.vgpr[3][l], 0x333);
        }
        // An index past the allocation is a fault naming the register.
        p.wave.sgpr[124] = 100 << 16;
        let err = p.exec("v_swaprel_b32 v3, v5").unwrap_err();
        assert!(err.contains("103"), "{err}");
    }
}

#[test]
fn trig_preop_segments_of_two_over_pi() {
    // 2/pi = 0.A2F9836E 4E441529 FC2757D1 F534DDC0 ... (hex fraction, the
    // table fdlibm's __rem_pio2 also uses). Segment s of x with biased
    // exponent e: the 53 fraction bits from shift = 53 s (+ e - 1077 when
    // e > 1077), times 2^(-53 - shift) (+128 when e >= 1968), rounded toward
    // zero. The doubles below were worked out from those bits.
    let one = 1.0f64.to_bits();
    let cases: [(u64, u32, u64); 10] = [
        // Bits 0..53: 0x145F306DC9C882 * 2^-53 = RZ(2/pi).
        (one, 0, 0x3fe4_5f30_6dc9_c882),
        (one, 1, 0x3c94_a7f0_9d5f_47d4),
        (one, 2, 0x394a_6ee0_6db1_4acc),
        // 2^77 (e = 1100): shift 23, bits 0x16E4E441529FC2 * 2^-76.
        (0x44c0_0000_0000_0000, 0, 0x3e76_e4e4_4152_9fc2),
        (0x44c0_0000_0000_0000, 1, 0x3b1d_5f47_d4d3_7702),
        // 2^977 (e = 2000): shift 923, scale -976 + 128.
        (0x7d00_0000_0000_0000, 0, 0x0e1a_797f_a8b5_d49c),
        // Segment 20: 0x14A525D4D7F6BF * 2^-1113 is denormal: truncated to
        // 0x294A units of 2^-1074 (f64 denormals on in MODE).
        (one, 20, 0x294a),
        // Segment 31 starts past the 1201 bits.
        (one, 31, 0),
        // The sign does not matter; only S1[4:0] selects.
        ((-1.0f64).to_bits(), 0, 0x3fe4_5f30_6dc9_c882),
        (one, 32, 0x3fe4_5f30_6dc9_c882),
    ];
    for t in BOTH {
        let mut p = Probe::new(t);
        p.wave.mode = 0xc0; // f64/f16 denormals kept
        p.set_vgpr(2, |l| cases[l % 10].0 as u32);
        p.set_vgpr(3, |l| (cases[l % 10].0 >> 32) as u32);
        p.set_vgpr(4, |l| cases[l % 10].1);
        p.exec("v_trig_preop_f64 v[6:7], v[2:3], v4").unwrap();
        for l in 0..p.wave.lanes() as usize {
            let got = u64::from(p.wave.vgpr[6][l]) | u64::from(p.wave.vgpr[7][l]) << 32;
            assert_eq!(got, cases[l % 10].2, "{t:?} lane {l}");
        }
        // With f64 denormals flushed the segment-20 result is +0.
        p.wave.mode = 0;
        p.exec("v_trig_preop_f64 v[6:7], v[2:3], v4").unwrap();
        assert_eq!((p.wave.vgpr[6][6], p.wave.vgpr[7][6]), (0, 0), "{t:?}");
    }
}

#[test]
fn dpp_forms_of_the_vop2_dot_accumulators() {
    // quad_perm:[1,0,3,2]: lane l reads src0 from lane l ^ 1.
    for t in [Target::GFX1030_W32, Target::GFX1030_W64] {
        let mut p = Probe::new(t);
        p.wave.set_exec(0xf);
        // dot4c: src0 bytes all (l + 1), src1 bytes all 2, accumulator 10:
        // 10 + 4 * 2 * ((l ^ 1) + 1) -> 26, 18, 42, 34.
        p.set_vgpr(4, |l| 0x0101_0101 * (l as u32 + 1));
        p.set_vgpr(8, |_| 0x0202_0202);
        p.set_vgpr(20, |_| 10);
        p.exec("v_dot4c_i32_i8_dpp v20, v4, v8 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf")
            .unwrap();
        assert_eq!(&p.wave.vgpr[20][..5], &[26, 18, 42, 34, 10], "{t:?}");
        // dot2c: src0 halves (lo = l as f16, hi = 1.0), src1 halves (2.0, 2.0),
        // accumulator 0.5: 0.5 + 2 * (l ^ 1) + 2 -> 4.5, 2.5, 8.5, 6.5.
        let f16_int = [0x0000, 0x3c00, 0x4000, 0x4200];
        p.set_vgpr(4, |l| 0x3c00 << 16 | f16_int[l % 4]);
        p.set_vgpr(8, |_| 0x4000_4000);
        p.set_vgpr(20, |_| f(0.5));
        p.exec("v_dot2c_f32_f16_dpp v20, v4, v8 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf")
            .unwrap();
        let want = [f(4.5), f(2.5), f(8.5), f(6.5), f(0.5)];
        assert_eq!(&p.wave.vgpr[20][..5], &want, "{t:?}");
    }
}
