//! Golden model: the rare DS forms (`*_src2_*`, `ds_condxchg32_rtn_b64`,
//! `addtid`). Expected LDS contents are worked out by hand from the ISA
//! guides' formulas (see `cosim/golden/src/exec/ds/rare.rs`).

use arch::isa::Target;
use golden::testing::probe::Probe;

fn put(p: &mut Probe, at: usize, v: u32) {
    p.lds[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn get(p: &Probe, at: usize) -> u32 {
    u32::from_le_bytes([p.lds[at], p.lds[at + 1], p.lds[at + 2], p.lds[at + 3]])
}

/// A gfx803 probe with M0 = -1 (no LDS clamp) and only lane 0 active.
fn one_lane() -> Probe {
    let mut p = Probe::new(Target::GFX803);
    p.wave.sgpr[124] = u32::MAX;
    p.wave.set_exec(1);
    p
}

#[test]
fn src2_forms_combine_two_lds_locations() {
    // B = A + 4 * sext15(offset): offset:8 -> B = A + 32.
    let mut p = one_lane();
    p.wave.vgpr[1][0] = 0x100;
    put(&mut p, 0x100, 5);
    put(&mut p, 0x120, 7);
    p.exec("ds_add_src2_u32 v1 offset:8").unwrap();
    assert_eq!((get(&p, 0x100), get(&p, 0x120)), (12, 7));

    // offset 0x7ffe is -2 elements: B = A - 8; rsub stores DS[B] - DS[A].
    p.wave.vgpr[1][0] = 0x200;
    put(&mut p, 0x200, 10);
    put(&mut p, 0x1f8, 3);
    p.exec("ds_rsub_src2_u32 v1 offset:0x7ffe").unwrap();
    assert_eq!(get(&p, 0x200), 3u32.wrapping_sub(10));

    // offset1[7] set: the element count is ADDR[31:17] (3), A = ADDR[16:0].
    p.wave.vgpr[1][0] = 3 << 17 | 0x300;
    put(&mut p, 0x30c, 0xdead_beef);
    p.exec("ds_write_src2_b32 v1 offset:0x8000").unwrap();
    assert_eq!(get(&p, 0x300), 0xdead_beef);
    // A negative count from the address: ADDR[31:17] = 0x7fff is -1.
    p.wave.vgpr[1][0] = 0xfffe_0000 | 0x340;
    put(&mut p, 0x33c, 0x1234);
    p.exec("ds_write_src2_b32 v1 offset:0x8000").unwrap();
    assert_eq!(get(&p, 0x340), 0x1234);

    // inc: DS[A] >= DS[B] wraps to 0.
    p.wave.vgpr[1][0] = 0x600;
    put(&mut p, 0x600, 4);
    put(&mut p, 0x604, 4);
    p.exec("ds_inc_src2_u32 v1 offset:1").unwrap();
    assert_eq!(get(&p, 0x600), 0);

    // Float min: -1.0 < 2.0.
    p.wave.vgpr[1][0] = 0x500;
    put(&mut p, 0x500, 2.0f32.to_bits());
    put(&mut p, 0x504, (-1.0f32).to_bits());
    p.exec("ds_min_src2_f32 v1 offset:1").unwrap();
    assert_eq!(get(&p, 0x500), (-1.0f32).to_bits());

    // 64-bit unsigned max, B = A + 4 * 2.
    p.wave.vgpr[1][0] = 0x400;
    put(&mut p, 0x400, 5);
    put(&mut p, 0x404, 0);
    put(&mut p, 0x408, 0);
    put(&mut p, 0x40c, 1);
    p.exec("ds_max_src2_u64 v1 offset:2").unwrap();
    assert_eq!((get(&p, 0x400), get(&p, 0x404)), (0, 1));
}

#[test]
fn condxchg32_writes_each_dword_whose_top_bit_is_set() {
    for t in [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64] {
        let mut p = Probe::new(t);
        p.wave.sgpr[124] = u32::MAX;
        p.wave.set_exec(0b11);
        // Lane 0: (0x107 + 0x10) & 0xfff8 = 0x110; only dword 0 is written,
        // with bit 31 cleared.
        p.wave.vgpr[1][0] = 0x107;
        p.wave.vgpr[8][0] = 0x8000_0001;
        p.wave.vgpr[9][0] = 0x0000_0002;
        put(&mut p, 0x110, 0xaaaa_aaaa);
        put(&mut p, 0x114, 0xbbbb_bbbb);
        // Lane 1: 0x210 (in a different place); only dword 1 is written.
        p.wave.vgpr[1][1] = 0x200;
        p.wave.vgpr[8][1] = 0x1234;
        p.wave.vgpr[9][1] = 0xffff_ffff;
        put(&mut p, 0x210, 0x11);
        p.exec("ds_condxchg32_rtn_b64 v[20:21], v1, v[8:9] offset:16")
            .unwrap();
        assert_eq!((get(&p, 0x110), get(&p, 0x114)), (1, 0xbbbb_bbbb), "{t:?}");
        assert_eq!(
            (get(&p, 0x210), get(&p, 0x214)),
            (0x11, 0x7fff_ffff),
            "{t:?}"
        );
        let ret = |l: usize| (p.wave.vgpr[20][l], p.wave.vgpr[21][l]);
        assert_eq!(ret(0), (0xaaaa_aaaa, 0xbbbb_bbbb), "{t:?}");
        assert_eq!(ret(1), (0x11, 0), "{t:?}");
    }
}

#[test]
fn addtid_addresses_are_m0_plus_offset_plus_four_per_lane() {
    for t in [Target::GFX1030_W32, Target::GFX1030_W64] {
        let mut p = Probe::new(t);
        let n = p.wave.lanes() as usize;
        p.set_vgpr(8, |l| 0x800 + l as u32);
        // M0[15:0] = 0x40 (the high half is ignored): lane l writes 0x140 + 4l.
        p.wave.sgpr[124] = 0x1_0040;
        p.exec("ds_write_addtid_b32 v8 offset:256").unwrap();
        for l in 0..n {
            assert_eq!(get(&p, 0x140 + 4 * l), 0x800 + l as u32, "{t:?} lane {l}");
        }
        // Reading one dword further on: lane l gets lane l+1's value, the
        // last lane reads the never-written dword after the block.
        p.wave.sgpr[124] = 0x44;
        p.exec("ds_read_addtid_b32 v20 offset:256").unwrap();
        for l in 0..n {
            let want = if l + 1 < n { 0x801 + l as u32 } else { 0 };
            assert_eq!(p.wave.vgpr[20][l], want, "{t:?} lane {l}");
        }
    }
}

#[test]
fn swizzle_rotate_and_fft_modes() {
    for t in [Target::GFX1030_W32, Target::GFX1030_W64] {
        let mut p = Probe::new(t);
        let n = p.wave.lanes() as usize;
        p.set_vgpr(2, |l| 100 + l as u32);
        let got = |p: &Probe, l: usize| p.wave.vgpr[20][l];
        // Rotate by +1 (offset[9:5] = 1), no fixed bits: lane i reads lane
        // (i + 1) mod 32 of its own half.
        p.exec("ds_swizzle_b32 v20, v2 offset:0xc020").unwrap();
        for l in 0..n {
            assert_eq!(
                got(&p, l),
                100 + ((l & 32) | ((l + 1) & 31)) as u32,
                "{t:?} lane {l}"
            );
        }
        // Rotate by -1 (offset[10]) within groups of 16 (mask bit 4 kept):
        // lane 16 reads lane 31, lane 5 reads lane 4, lane 0 reads lane 15.
        p.exec("ds_swizzle_b32 v20, v2 offset:0xc430").unwrap();
        assert_eq!(
            [got(&p, 16), got(&p, 5), got(&p, 0)],
            [131, 104, 115],
            "{t:?}"
        );
        // FFT with mask 0: lane i reads lane reverse5(i): 1 -> 16, 3 -> 24,
        // 16 -> 1. With mask 1: (reverse5(i) >> 1) | (i & 1): 2 -> 4, 3 -> 13.
        p.exec("ds_swizzle_b32 v20, v2 offset:0xe000").unwrap();
        assert_eq!(
            [got(&p, 1), got(&p, 3), got(&p, 16)],
            [116, 124, 101],
            "{t:?}"
        );
        p.exec("ds_swizzle_b32 v20, v2 offset:0xe001").unwrap();
        assert_eq!([got(&p, 2), got(&p, 3)], [104, 113], "{t:?}");
        if n == 64 {
            // The upper half stays in the upper half.
            assert_eq!(got(&p, 35), 100 + 32 + 13, "{t:?}");
        }
    }
}

fn put64(p: &mut Probe, at: usize, v: u64) {
    p.lds[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

fn get64(p: &Probe, at: usize) -> u64 {
    u64::from(get(p, at)) | u64::from(get(p, at + 4)) << 32
}

/// Every `*_src2_*` opcode once: DS[A] at 0x100, DS[B] at 0x108 (offset:2),
/// result = op(DS[A], DS[B]) worked out by hand.
#[test]
fn every_src2_opcode() {
    let f = |x: f32| x.to_bits();
    let d = |x: f64| x.to_bits();
    // (opcode, DS[A], DS[B], expected DS[A]) for the 32-bit forms.
    let narrow: [(&str, u32, u32, u32); 18] = [
        ("ds_add_src2_u32", 9, 5, 14),
        ("ds_sub_src2_u32", 9, 5, 4),
        ("ds_rsub_src2_u32", 9, 5, 0xffff_fffc),
        ("ds_inc_src2_u32", 9, 5, 0),
        ("ds_inc_src2_u32", 3, 5, 4),
        ("ds_dec_src2_u32", 9, 5, 5),
        ("ds_dec_src2_u32", 3, 5, 2),
        ("ds_min_src2_i32", 0xffff_fff7, 5, 0xffff_fff7),
        ("ds_max_src2_i32", 0xffff_fff7, 5, 5),
        ("ds_min_src2_u32", 0xffff_fff7, 5, 5),
        ("ds_max_src2_u32", 0xffff_fff7, 5, 0xffff_fff7),
        ("ds_and_src2_b32", 9, 5, 1),
        ("ds_or_src2_b32", 9, 5, 13),
        ("ds_xor_src2_b32", 9, 5, 12),
        ("ds_write_src2_b32", 9, 5, 5),
        ("ds_min_src2_f32", f(2.0), f(-1.0), f(-1.0)),
        ("ds_max_src2_f32", f(2.0), f(-1.0), f(2.0)),
        ("ds_add_src2_f32", f(2.0), f(-1.0), f(1.0)),
    ];
    for (op, a, b, want) in narrow {
        let mut p = one_lane();
        p.wave.vgpr[1][0] = 0x100;
        put(&mut p, 0x100, a);
        put(&mut p, 0x108, b);
        p.exec(&format!("{op} v1 offset:2")).unwrap();
        assert_eq!(get(&p, 0x100), want, "{op}");
        assert_eq!(get(&p, 0x108), b, "{op}: DS[B] is only read");
    }
    let big = 0x1_0000_0009u64;
    let neg = (-9i64) as u64;
    let wide: [(&str, u64, u64, u64); 15] = [
        ("ds_add_src2_u64", big, 5, 0x1_0000_000e),
        ("ds_sub_src2_u64", big, 5, 0x1_0000_0004),
        ("ds_rsub_src2_u64", big, 5, 0xffff_fffe_ffff_fffc),
        ("ds_inc_src2_u64", big, 5, 0),
        ("ds_dec_src2_u64", big, 5, 5),
        ("ds_min_src2_i64", neg, 5, neg),
        ("ds_max_src2_i64", neg, 5, 5),
        ("ds_min_src2_u64", neg, 5, 5),
        ("ds_max_src2_u64", neg, 5, neg),
        ("ds_and_src2_b64", big, 5, 1),
        ("ds_or_src2_b64", big, 5, 0x1_0000_000d),
        ("ds_xor_src2_b64", big, 5, 0x1_0000_000c),
        ("ds_write_src2_b64", big, 5, 5),
        ("ds_min_src2_f64", d(2.0), d(-1.0), d(-1.0)),
        ("ds_max_src2_f64", d(2.0), d(-1.0), d(2.0)),
    ];
    for (op, a, b, want) in wide {
        let mut p = one_lane();
        p.wave.vgpr[1][0] = 0x100;
        put64(&mut p, 0x100, a);
        put64(&mut p, 0x108, b);
        p.exec(&format!("{op} v1 offset:2")).unwrap();
        assert_eq!(get64(&p, 0x100), want, "{op}");
    }
}
