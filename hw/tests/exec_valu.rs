//! Directed tests of the VALU datapath (`hw::exec::valu`): integer and bit
//! ops, carries, compares (VCC, SGPRs, EXEC), lane reads/writes, 16-bit halves,
//! integer clamp and register-allocation faults, on both wave sizes, with
//! expectations computed independently per lane with Rust integer ops.
//! Floating point is out of scope here (it is `exec::fp`'s).

// Lanes are indexed by number: a lane's bit in EXEC is its index.
#![allow(clippy::needless_range_loop)]

mod exec_valu_common;

use exec_valu_common::*;

/// Runs `text` (v1 = op(v2, v3)) with a sparse EXEC and checks every lane.
fn check_binary(text: &str, op: impl Fn(u32, u32) -> u32) {
    both(|w64| {
        let mut w = Wave::new(w64, 8);
        let a = w.fill(2, 1);
        let b = w.fill(3, 2);
        let old = w.fill(1, 3);
        w.set_exec(EXEC_PATTERN);
        let out = w.run(text);
        assert_eq!(out.vgpr.len(), 1, "{text}");
        assert_eq!(out.vgpr[0].mask, w.exec(), "{text}: written lanes");
        for lane in 0..w.lanes() {
            let want = if w.exec() >> lane & 1 != 0 {
                op(a[lane], b[lane])
            } else {
                old[lane]
            };
            assert_eq!(
                w.get(1, lane),
                want,
                "{text} lane {lane} a={:#x} b={:#x}",
                a[lane],
                b[lane]
            );
        }
    });
}

#[test]
fn two_source_integer_ops() {
    check_binary("v_add_nc_u32_e32 v1, v2, v3", |a, b| a.wrapping_add(b));
    check_binary("v_sub_nc_u32_e32 v1, v2, v3", |a, b| a.wrapping_sub(b));
    check_binary("v_subrev_nc_u32_e32 v1, v2, v3", |a, b| b.wrapping_sub(a));
    check_binary("v_and_b32_e32 v1, v2, v3", |a, b| a & b);
    check_binary("v_or_b32_e32 v1, v2, v3", |a, b| a | b);
    check_binary("v_xor_b32_e32 v1, v2, v3", |a, b| a ^ b);
    check_binary("v_xnor_b32_e32 v1, v2, v3", |a, b| !(a ^ b));
    check_binary("v_lshlrev_b32_e32 v1, v2, v3", |a, b| b << (a & 31));
    check_binary("v_lshrrev_b32_e32 v1, v2, v3", |a, b| b >> (a & 31));
    check_binary("v_ashrrev_i32_e32 v1, v2, v3", |a, b| {
        ((b as i32) >> (a & 31)) as u32
    });
    check_binary("v_max_i32_e32 v1, v2, v3", |a, b| {
        (a as i32).max(b as i32) as u32
    });
    check_binary("v_min_i32_e32 v1, v2, v3", |a, b| {
        (a as i32).min(b as i32) as u32
    });
    check_binary("v_max_u32_e32 v1, v2, v3", |a, b| a.max(b));
    check_binary("v_min_u32_e32 v1, v2, v3", |a, b| a.min(b));
    check_binary("v_mul_u32_u24_e32 v1, v2, v3", |a, b| {
        ((a & 0xff_ffff) as u64 * (b & 0xff_ffff) as u64) as u32
    });
    check_binary("v_mul_hi_u32_u24_e32 v1, v2, v3", |a, b| {
        (((a & 0xff_ffff) as u64 * (b & 0xff_ffff) as u64) >> 32) as u32
    });
    check_binary("v_mul_i32_i24_e32 v1, v2, v3", |a, b| {
        let s = |x: u32| ((x << 8) as i32 >> 8) as i64;
        (s(a) * s(b)) as u32
    });
    check_binary("v_mul_lo_u32 v1, v2, v3", |a, b| a.wrapping_mul(b));
    check_binary("v_mul_hi_u32 v1, v2, v3", |a, b| {
        ((a as u64 * b as u64) >> 32) as u32
    });
    check_binary("v_mul_hi_i32 v1, v2, v3", |a, b| {
        ((a as i32 as i64 * b as i32 as i64) >> 32) as u32
    });
    check_binary("v_bcnt_u32_b32 v1, v2, v3", |a, b| {
        a.count_ones().wrapping_add(b)
    });
    check_binary("v_bfm_b32 v1, v2, v3", |a, b| {
        (((1u64 << (a & 31)) - 1) as u32) << (b & 31)
    });
    check_binary("v_add_nc_u32_e64 v1, v2, v3", |a, b| a.wrapping_add(b));
    check_binary("v_add_nc_i32 v1, v2, v3", |a, b| a.wrapping_add(b));
    check_binary("v_sub_nc_i32 v1, v2, v3", |a, b| a.wrapping_sub(b));
    check_binary("v_cvt_pk_u16_u32 v1, v2, v3", |a, b| {
        a.min(0xffff) | b.min(0xffff) << 16
    });
    check_binary("v_cvt_pk_i16_i32 v1, v2, v3", |a, b| {
        let p = |x: u32| (x as i32).clamp(-0x8000, 0x7fff) as u32 & 0xffff;
        p(a) | p(b) << 16
    });
}

/// Runs `text` (v1 = op(v2, v3, v4)) and checks every active lane.
fn check_ternary(text: &str, op: impl Fn(u32, u32, u32) -> u32) {
    both(|w64| {
        let mut w = Wave::new(w64, 8);
        let a = w.fill(2, 11);
        let b = w.fill(3, 12);
        let c = w.fill(4, 13);
        w.set_exec(EXEC_PATTERN >> 3);
        w.run(text);
        for lane in (0..w.lanes()).filter(|l| w.exec() >> l & 1 != 0) {
            let want = op(a[lane], b[lane], c[lane]);
            assert_eq!(w.get(1, lane), want, "{text} lane {lane}");
        }
    });
}

#[test]
fn three_source_integer_ops() {
    check_ternary("v_add3_u32 v1, v2, v3, v4", |a, b, c| {
        a.wrapping_add(b).wrapping_add(c)
    });
    check_ternary("v_lshl_add_u32 v1, v2, v3, v4", |a, b, c| {
        (a << (b & 31)).wrapping_add(c)
    });
    check_ternary("v_add_lshl_u32 v1, v2, v3, v4", |a, b, c| {
        a.wrapping_add(b) << (c & 31)
    });
    check_ternary("v_lshl_or_b32 v1, v2, v3, v4", |a, b, c| {
        (a << (b & 31)) | c
    });
    check_ternary("v_and_or_b32 v1, v2, v3, v4", |a, b, c| (a & b) | c);
    check_ternary("v_or3_b32 v1, v2, v3, v4", |a, b, c| a | b | c);
    check_ternary("v_xor3_b32 v1, v2, v3, v4", |a, b, c| a ^ b ^ c);
    check_ternary("v_xad_u32 v1, v2, v3, v4", |a, b, c| {
        (a ^ b).wrapping_add(c)
    });
    check_ternary("v_bfi_b32 v1, v2, v3, v4", |a, b, c| (a & b) | (!a & c));
    check_ternary("v_alignbit_b32 v1, v2, v3, v4", |a, b, c| {
        (((a as u64) << 32 | b as u64) >> (c & 31)) as u32
    });
    check_ternary("v_alignbyte_b32 v1, v2, v3, v4", |a, b, c| {
        (((a as u64) << 32 | b as u64) >> (8 * (c & 3))) as u32
    });
    check_ternary("v_mad_u32_u24 v1, v2, v3, v4", |a, b, c| {
        (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff).wrapping_add(c)
    });
    check_ternary("v_mad_i32_i24 v1, v2, v3, v4", |a, b, c| {
        let s = |x: u32| (x << 8) as i32 >> 8;
        s(a).wrapping_mul(s(b)).wrapping_add(c as i32) as u32
    });
    check_ternary("v_min3_i32 v1, v2, v3, v4", |a, b, c| {
        (a as i32).min(b as i32).min(c as i32) as u32
    });
    check_ternary("v_max3_u32 v1, v2, v3, v4", |a, b, c| a.max(b).max(c));
    check_ternary("v_med3_i32 v1, v2, v3, v4", |a, b, c| {
        let mut v = [a as i32, b as i32, c as i32];
        v.sort();
        v[1] as u32
    });
    check_ternary("v_med3_u32 v1, v2, v3, v4", |a, b, c| {
        let mut v = [a, b, c];
        v.sort();
        v[1]
    });
    check_ternary("v_sad_u32 v1, v2, v3, v4", |a, b, c| {
        a.abs_diff(b).wrapping_add(c)
    });
    check_ternary("v_sad_u8 v1, v2, v3, v4", |a, b, c| {
        let d: u32 = (0..4)
            .map(|i| ((a >> (8 * i)) & 0xff).abs_diff((b >> (8 * i)) & 0xff))
            .sum();
        d.wrapping_add(c)
    });
}

#[test]
fn bit_field_extract_against_shifts() {
    both(|w64| {
        let mut w = Wave::new(w64, 8);
        let a = w.fill(2, 5);
        for lane in 0..w.lanes() {
            w.set(3, lane, (lane as u32 * 3) % 32);
            w.set(4, lane, (lane as u32 * 7) % 33);
        }
        w.run("v_bfe_u32 v1, v2, v3, v4");
        w.run("v_bfe_i32 v5, v2, v3, v4");
        for lane in 0..w.lanes() {
            let (off, width) = ((lane as u32 * 3) % 32, ((lane as u32 * 7) % 33) & 31);
            let field = if width == 0 {
                0
            } else {
                ((a[lane] as u64 >> off) & ((1u64 << width) - 1)) as u32
            };
            assert_eq!(w.get(1, lane), field, "bfe_u lane {lane}");
            // The field is read from S0 as a signed value: bits past bit 31 are its sign.
            let sfield = (a[lane] as i32 as i64 >> off) & ((1i64 << width) - 1);
            let signed = if width == 0 {
                0
            } else {
                (sfield << (64 - width) >> (64 - width)) as u32
            };
            assert_eq!(w.get(5, lane), signed, "bfe_i lane {lane}");
        }
    });
}

#[test]
fn one_source_bit_ops_and_constants() {
    both(|w64| {
        let mut w = Wave::new(w64, 8);
        let a = w.fill(2, 21);
        w.s.sgpr[7] = 0xdead_beef;
        w.run("v_not_b32_e32 v1, v2");
        w.run("v_bfrev_b32_e32 v3, v2");
        w.run("v_ffbh_u32_e32 v4, v2");
        w.run("v_ffbl_b32_e32 v5, v2");
        w.run("v_ffbh_i32_e32 v6, v2");
        for lane in 0..w.lanes() {
            let x = a[lane];
            assert_eq!(w.get(1, lane), !x);
            assert_eq!(w.get(3, lane), x.reverse_bits());
            assert_eq!(
                w.get(4, lane),
                if x == 0 { u32::MAX } else { x.leading_zeros() }
            );
            assert_eq!(
                w.get(5, lane),
                if x == 0 { u32::MAX } else { x.trailing_zeros() }
            );
            let s = x as i32;
            let ffbh_i = if s == 0 || s == -1 {
                u32::MAX
            } else if s < 0 {
                (!s).leading_zeros()
            } else {
                s.leading_zeros()
            };
            assert_eq!(w.get(6, lane), ffbh_i);
        }
        w.run("v_mov_b32_e32 v1, s7");
        w.run("v_mov_b32_e32 v3, -7");
        w.run("v_mov_b32_e32 v4, 0x12345678");
        w.run("v_mov_b32_e32 v5, 1.0");
        for lane in 0..w.lanes() {
            assert_eq!(w.get(1, lane), 0xdead_beef);
            assert_eq!(w.get(3, lane), -7i32 as u32);
            assert_eq!(w.get(4, lane), 0x1234_5678);
            assert_eq!(w.get(5, lane), 0x3f80_0000);
        }
    });
}

#[test]
fn carries_through_vcc_and_sgprs() {
    both(|w64| {
        let mut w = Wave::new(w64, 8);
        let a = w.fill(2, 31);
        let b = w.fill(3, 32);
        w.set_exec(EXEC_PATTERN);
        let exec = w.exec();
        let (sdst, vcc) = if w64 {
            ("s[4:5]", "vcc")
        } else {
            ("s4", "vcc_lo")
        };
        w.run(&format!("v_add_co_u32 v1, {sdst}, v2, v3"));
        let mut carry = 0u64;
        for lane in 0..w.lanes() {
            if exec >> lane & 1 != 0 {
                let (sum, c) = a[lane].overflowing_add(b[lane]);
                assert_eq!(w.get(1, lane), sum);
                carry |= u64::from(c) << lane;
            }
        }
        assert_ne!(carry, 0);
        assert_eq!(w.mask_at(4), carry, "carry-out, zero for inactive lanes");
        // A 64-bit add: high halves with the carry-in from VCC.
        w.s.sgpr[106] = carry as u32;
        w.s.sgpr[107] = (carry >> 32) as u32;
        let out = w.run(&format!("v_add_co_ci_u32_e32 v5, {vcc}, v3, v2, {vcc}"));
        assert_eq!(out.sgpr.len(), if w64 { 2 } else { 1 });
        let mut carry2 = 0u64;
        for lane in (0..w.lanes()).filter(|l| exec >> l & 1 != 0) {
            let c = carry >> lane & 1;
            let sum = b[lane] as u64 + a[lane] as u64 + c;
            assert_eq!(w.get(5, lane), sum as u32, "lane {lane}");
            carry2 |= (sum >> 32) << lane;
        }
        assert_eq!(w.mask_at(106), carry2);
        // Borrows.
        w.run(&format!("v_sub_co_u32 v1, {sdst}, v2, v3"));
        let mut borrow = 0u64;
        for lane in (0..w.lanes()).filter(|l| exec >> l & 1 != 0) {
            assert_eq!(w.get(1, lane), a[lane].wrapping_sub(b[lane]));
            borrow |= u64::from(b[lane] > a[lane]) << lane;
        }
        assert_eq!(w.mask_at(4), borrow);
        let sdst8 = if w64 { "s[8:9]" } else { "s8" };
        w.run(&format!("v_sub_co_ci_u32_e64 v6, {sdst8}, v2, v3, {sdst}"));
        w.run(&format!("v_subrev_co_ci_u32_e32 v7, {vcc}, v2, v3, {vcc}"));
        let vcc_in = carry2;
        let mut b8 = 0u64;
        let mut bv = 0u64;
        for lane in (0..w.lanes()).filter(|l| exec >> l & 1 != 0) {
            let bi = (borrow >> lane & 1) as i64;
            let d = a[lane] as i64 - b[lane] as i64 - bi;
            assert_eq!(w.get(6, lane), d as u32);
            b8 |= u64::from(d < 0) << lane;
            let ci = (vcc_in >> lane & 1) as i64;
            let r = b[lane] as i64 - a[lane] as i64 - ci;
            assert_eq!(w.get(7, lane), r as u32);
            bv |= u64::from(r < 0) << lane;
        }
        assert_eq!(w.mask_at(8), b8);
        assert_eq!(w.mask_at(106), bv);
    });
}

#[test]
fn sixty_four_bit_shifts_and_mad() {
    both(|w64| {
        let mut w = Wave::new(w64, 12);
        let lo = w.fill(2, 41);
        let hi = w.fill(3, 42);
        let sh = w.fill(4, 43);
        let c_lo = w.fill(6, 44);
        let c_hi = w.fill(7, 45);
        w.run("v_lshlrev_b64 v[8:9], v4, v[2:3]");
        w.run("v_lshrrev_b64 v[10:11], v4, v[2:3]");
        let sdst = if w64 { "s[4:5]" } else { "s4" };
        w.run(&format!("v_mad_u64_u32 v[0:1], {sdst}, v2, v3, v[6:7]"));
        let mut carry = 0u64;
        for lane in 0..w.lanes() {
            let x = (hi[lane] as u64) << 32 | lo[lane] as u64;
            let s = sh[lane] & 63;
            let get64 = |r: usize| (w.get(r + 1, lane) as u64) << 32 | w.get(r, lane) as u64;
            assert_eq!(get64(8), x << s, "lshl lane {lane}");
            assert_eq!(get64(10), x >> s, "lshr lane {lane}");
            let c = (c_hi[lane] as u64) << 32 | c_lo[lane] as u64;
            let full = lo[lane] as u128 * hi[lane] as u128 + c as u128;
            assert_eq!(get64(0), full as u64, "mad lane {lane}");
            carry |= ((full >> 64) as u64) << lane;
        }
        assert_eq!(w.mask_at(4), carry);
        w.run("v_ashrrev_i64 v[8:9], v4, v[2:3]");
        for lane in 0..w.lanes() {
            let x = ((hi[lane] as u64) << 32 | lo[lane] as u64) as i64;
            let got = (w.get(9, lane) as u64) << 32 | w.get(8, lane) as u64;
            assert_eq!(got, (x >> (sh[lane] & 63)) as u64);
        }
    });
}

#[test]
fn compares_into_vcc_sgprs_and_exec() {
    both(|w64| {
        let mut w = Wave::new(w64, 8);
        let a = w.fill(2, 51);
        let b = w.fill(3, 52);
        w.set_exec(EXEC_PATTERN);
        let exec = w.exec();
        let lanes = w.lanes();
        let want = |f: &dyn Fn(u32, u32) -> bool| {
            (0..lanes)
                .filter(|&l| exec >> l & 1 != 0 && f(a[l], b[l]))
                .fold(0u64, |m, l| m | 1 << l)
        };
        let (sdst, vcc) = if w64 {
            ("s[10:11]", "vcc")
        } else {
            ("s10", "vcc_lo")
        };
        let gt = want(&|x, y| x > y);
        let out = w.run(&format!("v_cmp_gt_u32_e32 {vcc}, v2, v3"));
        assert_eq!(
            out.sgpr.len(),
            if w64 { 2 } else { 1 },
            "wave32 writes vcc_lo only"
        );
        assert_eq!(w.mask_at(106), gt);
        w.run(&format!("v_cmp_lt_i32_e64 {sdst}, v2, v3"));
        assert_eq!(w.mask_at(10), want(&|x, y| (x as i32) < (y as i32)));
        w.run(&format!("v_cmp_ne_u32_e64 {sdst}, v2, v3"));
        assert_eq!(w.mask_at(10), want(&|x, y| x != y));
        w.run(&format!("v_cmp_ge_u32_e64 {sdst}, v2, v3"));
        assert_eq!(w.mask_at(10), want(&|x, y| x >= y));
        w.run(&format!("v_cmp_le_u32_e64 {sdst}, v2, v3"));
        assert_eq!(w.mask_at(10), want(&|x, y| x <= y));
        w.run(&format!("v_cmp_gt_i32_e64 {sdst}, v2, v3"));
        assert_eq!(w.mask_at(10), want(&|x, y| (x as i32) > (y as i32)));
        w.run(&format!("v_cmp_eq_u32_e64 {sdst}, v2, v2"));
        assert_eq!(w.mask_at(10), exec, "eq with itself: every active lane");
        w.run(&format!("v_cmp_t_u32_e64 {sdst}, v2, v3"));
        assert_eq!(w.mask_at(10), exec);
        // v_cmpx writes EXEC (and nothing else).
        let eq = want(&|x, y| x == y);
        let out = w.run("v_cmpx_gt_u32_e32 v2, v3");
        assert_eq!(
            out.sgpr
                .iter()
                .filter(|(c, _)| *c != 126 && *c != 127)
                .count(),
            0
        );
        assert_eq!(w.exec(), gt);
        w.set_exec(EXEC_PATTERN);
        w.run("v_cmpx_eq_u32_e64 v2, v3");
        assert_eq!(w.exec(), eq);
        w.set_exec(EXEC_PATTERN);
        w.run("v_cmpx_ne_u32_e32 v2, v3");
        assert_eq!(w.exec(), want(&|x, y| x != y));
        w.set_exec(EXEC_PATTERN);
        w.run("v_cmpx_lt_i32_e32 v2, v3");
        assert_eq!(w.exec(), want(&|x, y| (x as i32) < (y as i32)));
    });
}

#[test]
fn sixty_four_bit_compares() {
    both(|w64| {
        let mut w = Wave::new(w64, 8);
        let a: Vec<u64> = w
            .fill(2, 61)
            .iter()
            .zip(w.fill(3, 62))
            .map(|(&l, h)| (h as u64) << 32 | l as u64)
            .collect();
        let b: Vec<u64> = w
            .fill(4, 63)
            .iter()
            .zip(w.fill(5, 64))
            .map(|(&l, h)| (h as u64) << 32 | l as u64)
            .collect();
        // Make some lanes equal.
        for lane in (0..w.lanes()).step_by(3) {
            let (l, h) = (w.get(2, lane), w.get(3, lane));
            w.set(4, lane, l);
            w.set(5, lane, h);
        }
        let b: Vec<u64> = (0..w.lanes())
            .map(|l| if l % 3 == 0 { a[l] } else { b[l] })
            .collect();
        w.set_exec(EXEC_PATTERN);
        let exec = w.exec();
        let sdst = if w64 { "s[12:13]" } else { "s12" };
        let lanes = w.lanes();
        let want = |f: &dyn Fn(u64, u64) -> bool| {
            (0..lanes)
                .filter(|&l| exec >> l & 1 != 0 && f(a[l], b[l]))
                .fold(0u64, |m, l| m | 1 << l)
        };
        w.run(&format!("v_cmp_ne_u64_e64 {sdst}, v[2:3], v[4:5]"));
        assert_eq!(w.mask_at(12), want(&|x, y| x != y));
        w.run("v_cmpx_le_i64_e64 v[2:3], v[4:5]");
        assert_eq!(w.exec(), want(&|x, y| (x as i64) <= (y as i64)));
    });
}

#[test]
fn cndmask_e32_and_e64() {
    both(|w64| {
        let mut w = Wave::new(w64, 8);
        let a = w.fill(2, 71);
        let b = w.fill(3, 72);
        let sel = 0x1234_5678_9abc_def0u64 & if w64 { u64::MAX } else { 0xffff_ffff };
        w.s.sgpr[106] = sel as u32;
        w.s.sgpr[107] = (sel >> 32) as u32;
        w.s.sgpr[20] = !sel as u32;
        w.s.sgpr[21] = (!sel >> 32) as u32;
        let vcc = if w64 { "vcc" } else { "vcc_lo" };
        w.run(&format!("v_cndmask_b32_e32 v1, v2, v3, {vcc}"));
        let s20 = if w64 { "s[20:21]" } else { "s20" };
        w.run(&format!("v_cndmask_b32_e64 v4, v2, v3, {s20}"));
        for lane in 0..w.lanes() {
            let pick = sel >> lane & 1 != 0;
            assert_eq!(w.get(1, lane), if pick { b[lane] } else { a[lane] });
            assert_eq!(w.get(4, lane), if pick { a[lane] } else { b[lane] });
        }
    });
}

#[test]
fn readlane_readfirstlane_writelane_ignore_exec() {
    both(|w64| {
        let mut w = Wave::new(w64, 8);
        let a = w.fill(2, 81);
        let old = w.fill(5, 82);
        w.set_exec(0b1011_0000);
        w.s.sgpr[3] = 37; // wave32 reads lane 37 & 31 = 5
        w.run("v_readfirstlane_b32 s10, v2");
        assert_eq!(w.s.sgpr[10], a[4]);
        w.run("v_readlane_b32 s11, v2, s3");
        assert_eq!(w.s.sgpr[11], a[if w64 { 37 } else { 5 }]);
        w.run("v_readlane_b32 s12, v2, 1");
        assert_eq!(
            w.s.sgpr[12], a[1],
            "lane 1 is inactive: readlane ignores EXEC"
        );
        w.set_exec(0);
        w.run("v_readfirstlane_b32 s13, v2");
        assert_eq!(w.s.sgpr[13], a[0], "EXEC = 0 reads lane 0");
        w.s.sgpr[4] = 0xfeed_f00d;
        let out = w.run("v_writelane_b32 v5, s4, 2");
        assert_eq!(out.vgpr[0].mask, 1 << 2);
        for lane in 0..w.lanes() {
            assert_eq!(
                w.get(5, lane),
                if lane == 2 { 0xfeed_f00d } else { old[lane] }
            );
        }
    });
}

#[test]
fn mbcnt_gives_lane_ids() {
    both(|w64| {
        let mut w = Wave::new(w64, 8);
        w.set_exec(EXEC_PATTERN);
        let exec = w.exec();
        w.run("v_mbcnt_lo_u32_b32 v1, -1, 0");
        w.run("v_mbcnt_hi_u32_b32 v1, -1, v1");
        // Prefix count of active lanes below each lane (the OpenCL idiom).
        w.run("v_mbcnt_lo_u32_b32 v2, exec_lo, 0");
        w.run("v_mbcnt_hi_u32_b32 v2, exec_hi, v2");
        for lane in (0..w.lanes()).filter(|l| exec >> l & 1 != 0) {
            assert_eq!(w.get(1, lane), lane as u32);
            let below = (exec & ((1u64 << lane) - 1)).count_ones();
            assert_eq!(w.get(2, lane), below, "lane {lane}");
        }
    });
}

#[test]
fn sixteen_bit_ops_keep_the_other_half() {
    both(|w64| {
        let mut w = Wave::new(w64, 8);
        let a = w.fill(2, 91);
        let b = w.fill(3, 92);
        let c = w.fill(4, 93);
        let old = w.fill(1, 94);
        w.run("v_add_nc_u16 v1, v2, v3");
        for lane in 0..w.lanes() {
            let sum = (a[lane] as u16).wrapping_add(b[lane] as u16);
            assert_eq!(w.get(1, lane), old[lane] & 0xffff_0000 | sum as u32);
        }
        let old = w.fill(1, 95);
        // op_sel:[1,0,1]: src0's high half, the result to the high half.
        w.run("v_add_nc_u16 v1, v2, v3 op_sel:[1,0,1]");
        w.run("v_mad_u16 v5, v2, v3, v4");
        for lane in 0..w.lanes() {
            let sum = ((a[lane] >> 16) as u16).wrapping_add(b[lane] as u16);
            assert_eq!(w.get(1, lane), old[lane] & 0xffff | (sum as u32) << 16);
            let mad = (a[lane] as u16)
                .wrapping_mul(b[lane] as u16)
                .wrapping_add(c[lane] as u16);
            assert_eq!(w.get(5, lane) & 0xffff, mad as u32);
        }
    });
}

#[test]
fn integer_clamp_saturates() {
    both(|w64| {
        let mut w = Wave::new(w64, 8);
        let a = w.fill(2, 101);
        let b = w.fill(3, 102);
        w.run("v_add_nc_u32_e64 v1, v2, v3 clamp");
        w.run("v_sub_nc_u32_e64 v4, v2, v3 clamp");
        w.run("v_add_nc_i32 v5, v2, v3 clamp");
        w.run("v_add_nc_u16 v6, v2, v3 clamp");
        for lane in 0..w.lanes() {
            assert_eq!(w.get(1, lane), a[lane].saturating_add(b[lane]));
            assert_eq!(w.get(4, lane), a[lane].saturating_sub(b[lane]));
            assert_eq!(
                w.get(5, lane),
                (a[lane] as i32).saturating_add(b[lane] as i32) as u32
            );
            assert_eq!(
                w.get(6, lane) & 0xffff,
                (a[lane] as u16).saturating_add(b[lane] as u16) as u32
            );
        }
    });
}

#[test]
fn vgpr_beyond_allocation_faults() {
    both(|w64| {
        let w = Wave::new(w64, 4);
        for text in [
            "v_add_nc_u32_e32 v1, v2, v4",
            "v_add_nc_u32_e32 v4, v2, v3",
            "v_lshlrev_b64 v[3:4], v1, v[0:1]",
            "v_mad_u64_u32 v[0:1], s[4:5], v2, v3, v[3:4]",
            "v_readlane_b32 s1, v9, 0",
        ] {
            let text = if w64 {
                text.to_string()
            } else {
                text.replace("s[4:5]", "s4")
            };
            match w.try_run(&text) {
                Err(FaultKind::IllegalInstruction { reason }) => {
                    assert!(reason.contains("allocation"), "{text}: {reason}")
                }
                other => panic!("{text}: expected a fault, got {other:?}"),
            }
        }
    });
}
