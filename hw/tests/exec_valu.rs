//! Directed tests of the VALU datapath (`hw::exec::valu`): integer, bit, lane,
//! carry, compare, SDWA, DPP and VOP3P semantics on both wave sizes, with
//! expectations computed independently per lane with Rust integer ops.
//! Floating point is out of scope here (it is `exec::fp`'s).

// Lanes are indexed by number: a lane's bit in EXEC is its index.
#![allow(clippy::needless_range_loop)]

use arch::device::FaultKind;
use arch::isa::asm::assemble_line;
use arch::isa::Target;
use hw::exec::{execute, ExecCtx, ScalarState, Vgprs, WaveEnv, Writes};
use hw::mem::backing::Backing;

/// A wave's registers, with helpers to run one instruction and apply it.
struct Wave {
    s: ScalarState,
    rows: Vec<[u32; 32]>,
    wave64: bool,
}

impl Wave {
    fn new(wave64: bool, vgprs: usize) -> Wave {
        let mut s = ScalarState::new();
        s.sgpr[126] = u32::MAX;
        if wave64 {
            s.sgpr[127] = u32::MAX;
        }
        Wave {
            s,
            rows: vec![[0; 32]; if wave64 { 2 * vgprs } else { vgprs }],
            wave64,
        }
    }

    fn lanes(&self) -> usize {
        if self.wave64 {
            64
        } else {
            32
        }
    }

    fn row(&self, reg: usize, lane: usize) -> usize {
        if self.wave64 {
            2 * reg + lane / 32
        } else {
            reg
        }
    }

    fn set(&mut self, reg: usize, lane: usize, value: u32) {
        let r = self.row(reg, lane);
        self.rows[r][lane % 32] = value;
    }

    fn get(&self, reg: usize, lane: usize) -> u32 {
        self.rows[self.row(reg, lane)][lane % 32]
    }

    fn set_exec(&mut self, exec: u64) {
        self.s.sgpr[126] = exec as u32;
        self.s.sgpr[127] = if self.wave64 { (exec >> 32) as u32 } else { 0 };
    }

    fn exec(&self) -> u64 {
        if self.wave64 {
            self.s.exec()
        } else {
            self.s.exec() & 0xffff_ffff
        }
    }

    fn fill(&mut self, reg: usize, seed: u64) -> Vec<u32> {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut out = Vec::new();
        for lane in 0..self.lanes() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Mix in boundary values so carries and signs are exercised.
            let v = match lane % 8 {
                0 => 0,
                1 => u32::MAX,
                2 => 0x8000_0000,
                3 => 0x7fff_ffff,
                _ => x as u32,
            };
            self.set(reg, lane, v);
            out.push(v);
        }
        out
    }

    fn try_run(&self, text: &str) -> Result<Writes, FaultKind> {
        let target = if self.wave64 {
            Target::GFX1030_W64
        } else {
            Target::GFX1030_W32
        };
        let inst = assemble_line(target, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .expect("an instruction");
        let mut memory = Backing::new();
        let env = WaveEnv {
            target_wave64: self.wave64,
            ..WaveEnv::default()
        };
        let mut lds = [];
        let mut ctx = ExecCtx {
            memory: &mut memory,
            lds: &mut lds,
            env: &env,
            pc: 0,
            cycle: 0,
        };
        let v = Vgprs {
            rows: &self.rows,
            wave64: self.wave64,
        };
        let mut out = Writes::default();
        execute(&inst, &self.s, v, &mut ctx, &mut out)?;
        Ok(out)
    }

    fn run(&mut self, text: &str) -> Writes {
        let out = self
            .try_run(text)
            .unwrap_or_else(|e| panic!("{text}: {e:?}"));
        for w in &out.vgpr {
            for lane in 0..self.lanes() {
                if w.mask >> lane & 1 != 0 {
                    self.set(usize::from(w.reg), lane, w.values[lane]);
                }
            }
        }
        for &(code, value) in &out.sgpr {
            self.s.sgpr[usize::from(code)] = value;
        }
        out
    }

    /// The lane mask written to SGPR `code` (and `code + 1` in wave64).
    fn mask_at(&self, code: usize) -> u64 {
        let lo = u64::from(self.s.sgpr[code]);
        if self.wave64 {
            lo | u64::from(self.s.sgpr[code + 1]) << 32
        } else {
            lo
        }
    }
}

const EXEC_PATTERN: u64 = 0xf0f0_3c3c_a5a5_5a5b;

fn both(f: impl Fn(bool)) {
    f(false);
    f(true);
}

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

/// SDWA source select (zero or sign extended), as the ISA defines it.
fn sel(x: u32, sel: u32, sext: bool) -> u32 {
    let (shift, bits) = match sel {
        0..=3 => (8 * sel, 8),
        4 | 5 => (16 * (sel - 4), 16),
        _ => return x,
    };
    let f = (x >> shift) & ((1 << bits) - 1);
    if sext && f >> (bits - 1) & 1 != 0 {
        f | !0u32 << bits
    } else {
        f
    }
}

#[test]
fn sdwa_selects_and_destination_modes() {
    both(|w64| {
        let mut w = Wave::new(w64, 8);
        let a = w.fill(2, 111);
        let b = w.fill(3, 112);
        let old = w.fill(1, 113);
        w.set_exec(EXEC_PATTERN);
        let exec = w.exec();
        // WORD_1 ^ BYTE_2 into byte 1, preserving the rest.
        w.run("v_xor_b32_sdwa v1, v2, v3 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:BYTE_2");
        // Sign-extended sources, result in word 1 with the upper bits sign-filled.
        w.run("v_add_nc_u32_sdwa v4, sext(v2), v3 dst_sel:BYTE_2 dst_unused:UNUSED_SEXT src0_sel:BYTE_0 src1_sel:WORD_0");
        w.run("v_add_nc_u32_sdwa v5, v2, v3 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:BYTE_3 src1_sel:DWORD");
        for lane in 0..w.lanes() {
            if exec >> lane & 1 == 0 {
                assert_eq!(w.get(1, lane), old[lane]);
                continue;
            }
            let x = sel(a[lane], 5, false) ^ sel(b[lane], 2, false);
            assert_eq!(
                w.get(1, lane),
                old[lane] & !0xff00 | (x & 0xff) << 8,
                "preserve lane {lane}"
            );
            let s = sel(a[lane], 0, true).wrapping_add(sel(b[lane], 4, false)) & 0xff;
            let want = if s & 0x80 != 0 {
                s << 16 | 0xff00_0000
            } else {
                s << 16
            };
            assert_eq!(w.get(4, lane), want, "sext lane {lane}");
            let p = sel(a[lane], 3, false).wrapping_add(b[lane]) & 0xffff;
            assert_eq!(w.get(5, lane), p, "pad lane {lane}");
        }
        // VOPC SDWA into an SGPR pair (wave64) or VCC.
        let dst = if w64 { "s[4:5]" } else { "vcc_lo" };
        w.run(&format!(
            "v_cmp_ne_u32_sdwa {dst}, v2, v3 src0_sel:BYTE_0 src1_sel:BYTE_0"
        ));
        let want = (0..w.lanes())
            .filter(|&l| exec >> l & 1 != 0 && a[l] & 0xff != b[l] & 0xff)
            .fold(0u64, |m, l| m | 1 << l);
        assert_eq!(w.mask_at(if w64 { 4 } else { 106 }), want);
    });
}

#[test]
fn dpp16_row_controls() {
    both(|w64| {
        let mut w = Wave::new(w64, 8);
        let a = w.fill(2, 121);
        let b = w.fill(3, 122);
        let n = w.lanes();
        // quad_perm reverses each quad.
        w.run("v_mov_b32_dpp v1, v2 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf");
        for lane in 0..n {
            assert_eq!(w.get(1, lane), a[(lane & !3) + 3 - (lane & 3)]);
        }
        // row_shl:1 without bound_ctrl: the last lane of each row is not written.
        let old = w.fill(4, 123);
        let out = w.run("v_mov_b32_dpp v4, v2 row_shl:1 row_mask:0xf bank_mask:0xf");
        let expect_mask = (0..n)
            .filter(|l| l % 16 != 15)
            .fold(0u64, |m, l| m | 1 << l);
        assert_eq!(out.vgpr[0].mask, expect_mask);
        for lane in 0..n {
            let want = if lane % 16 == 15 {
                old[lane]
            } else {
                a[lane + 1]
            };
            assert_eq!(w.get(4, lane), want, "row_shl lane {lane}");
        }
        // ...with bound_ctrl:1 it reads zero there.
        w.run("v_mov_b32_dpp v4, v2 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1");
        for lane in (15..n).step_by(16) {
            assert_eq!(w.get(4, lane), 0);
        }
        // row_mask 0x5 and bank_mask 0xe: rows 1 and 3 and bank 0 untouched.
        let old = w.fill(5, 124);
        w.run("v_mov_b32_dpp v5, v2 row_shr:2 row_mask:0x5 bank_mask:0xe");
        for lane in 0..n {
            let enabled = (0x5 >> (lane / 16)) & 1 != 0 && (0xe >> ((lane / 4) % 4)) & 1 != 0;
            let from_ok = lane % 16 >= 2;
            let want = if enabled && from_ok {
                a[lane - 2]
            } else {
                old[lane]
            };
            assert_eq!(w.get(5, lane), want, "row_shr lane {lane}");
        }
        // DPP applies to src0 only; src1 is the lane's own.
        w.run("v_add_nc_u32_dpp v6, v2, v3 row_ror:3 row_mask:0xf bank_mask:0xf");
        w.run("v_mov_b32_dpp v7, v2 row_mirror row_mask:0xf bank_mask:0xf");
        for lane in 0..n {
            let row = lane & !15;
            let from = row + ((lane % 16 + 16 - 3) % 16);
            assert_eq!(
                w.get(6, lane),
                a[from].wrapping_add(b[lane]),
                "row_ror lane {lane}"
            );
            assert_eq!(w.get(7, lane), a[row + 15 - lane % 16]);
        }
        // gfx10 row_share / row_xmask.
        w.run("v_mov_b32_dpp v1, v2 row_share:3 row_mask:0xf bank_mask:0xf");
        w.run("v_mov_b32_dpp v4, v2 row_xmask:5 row_mask:0xf bank_mask:0xf");
        for lane in 0..n {
            assert_eq!(w.get(1, lane), a[(lane & !15) + 3]);
            assert_eq!(w.get(4, lane), a[(lane & !15) + ((lane % 16) ^ 5)]);
        }
        // An inactive source lane counts as out of range unless fi:1.
        w.set_exec(!(1u64 << 3));
        let old = w.fill(5, 125);
        w.run("v_mov_b32_dpp v5, v2 row_share:3 row_mask:0xf bank_mask:0xf");
        assert_eq!(w.get(5, 0), old[0]);
        w.run("v_mov_b32_dpp v5, v2 row_share:3 row_mask:0xf bank_mask:0xf fi:1");
        assert_eq!(w.get(5, 0), a[3]);
    });
}

#[test]
fn dpp8_lane_selects() {
    both(|w64| {
        let mut w = Wave::new(w64, 8);
        let a = w.fill(2, 131);
        let b = w.fill(3, 132);
        w.run("v_mov_b32_dpp v1, v2 dpp8:[7,6,5,4,3,2,1,0]");
        w.run("v_xor_b32_dpp v4, v2, v3 dpp8:[1,1,1,1,0,0,0,0]");
        let sel4 = [1, 1, 1, 1, 0, 0, 0, 0];
        for lane in 0..w.lanes() {
            assert_eq!(w.get(1, lane), a[(lane & !7) + 7 - lane % 8]);
            assert_eq!(w.get(4, lane), a[(lane & !7) + sel4[lane % 8]] ^ b[lane]);
        }
    });
}

#[test]
fn packed_sixteen_bit_ops() {
    both(|w64| {
        let mut w = Wave::new(w64, 8);
        let a = w.fill(2, 141);
        let b = w.fill(3, 142);
        let c = w.fill(4, 143);
        w.run("v_pk_add_u16 v1, v2, v3");
        // An inline constant is both halves.
        w.run("v_pk_add_u16 v5, v2, 1");
        // op_sel picks src0's high half for the low result; op_sel_hi src0's low half for the high.
        w.run("v_pk_lshlrev_b16 v6, v2, v3 op_sel:[1,0] op_sel_hi:[0,1]");
        w.run("v_pk_mad_u16 v7, v2, v3, v4");
        w.run("v_pk_sub_i16 v0, v2, v3 clamp");
        let lo = |x: u32| x as u16;
        let hi = |x: u32| (x >> 16) as u16;
        let pack = |l: u16, h: u16| l as u32 | (h as u32) << 16;
        for lane in 0..w.lanes() {
            let (x, y, z) = (a[lane], b[lane], c[lane]);
            assert_eq!(
                w.get(1, lane),
                pack(lo(x).wrapping_add(lo(y)), hi(x).wrapping_add(hi(y)))
            );
            assert_eq!(
                w.get(5, lane),
                pack(lo(x).wrapping_add(1), hi(x).wrapping_add(1))
            );
            assert_eq!(
                w.get(6, lane),
                pack(lo(y) << (hi(x) & 15), hi(y) << (lo(x) & 15))
            );
            let mad = |p: u16, q: u16, r: u16| p.wrapping_mul(q).wrapping_add(r);
            assert_eq!(
                w.get(7, lane),
                pack(mad(lo(x), lo(y), lo(z)), mad(hi(x), hi(y), hi(z)))
            );
            let sub = |p: u16, q: u16| (p as i16).saturating_sub(q as i16) as u16;
            assert_eq!(w.get(0, lane), pack(sub(lo(x), lo(y)), sub(hi(x), hi(y))));
        }
        w.run("v_dot4_u32_u8 v1, v2, v3, v4");
        w.run("v_dot2_i32_i16 v5, v2, v3, v4");
        for lane in 0..w.lanes() {
            let (x, y, z) = (a[lane], b[lane], c[lane]);
            let d4: u32 = (0..4)
                .map(|i| ((x >> (8 * i)) & 0xff) * ((y >> (8 * i)) & 0xff))
                .sum();
            assert_eq!(w.get(1, lane), d4.wrapping_add(z));
            let d2 = (lo(x) as i16 as i32) * (lo(y) as i16 as i32)
                + (hi(x) as i16 as i32) * (hi(y) as i16 as i32);
            assert_eq!(w.get(5, lane), d2.wrapping_add(z as i32) as u32);
        }
    });
}

#[test]
fn permlane_and_movrel() {
    both(|w64| {
        let mut w = Wave::new(w64, 12);
        let a = w.fill(2, 151);
        let r6 = w.fill(6, 152);
        // Each lane reads lane (15 - i) of its row.
        w.s.sgpr[3] = 0x8967_4523 ^ 0xffff_ffff; // selects for lanes 0-7
        w.s.sgpr[4] = 0x0123_4567 ^ 0xffff_ffff; // lanes 8-15
        w.run("v_permlane16_b32 v1, v2, s3, s4");
        w.run("v_permlanex16_b32 v4, v2, s3, s4");
        let sel = (w.s.sgpr[3] as u64) | (w.s.sgpr[4] as u64) << 32;
        for lane in 0..w.lanes() {
            let s = (sel >> (4 * (lane % 16)) & 15) as usize;
            assert_eq!(
                w.get(1, lane),
                a[(lane & !15) + s],
                "permlane16 lane {lane}"
            );
            assert_eq!(
                w.get(4, lane),
                a[((lane >> 4) ^ 1) * 16 + s],
                "permlanex16 lane {lane}"
            );
        }
        w.s.sgpr[124] = 4; // m0
        w.run("v_movrels_b32 v5, v2"); // v5 = v6
        w.run("v_movreld_b32 v3, v2"); // v7 = v2
        for lane in 0..w.lanes() {
            assert_eq!(w.get(5, lane), r6[lane]);
            assert_eq!(w.get(7, lane), a[lane]);
        }
        w.s.sgpr[124] = 40;
        assert!(
            w.try_run("v_movreld_b32 v3, v2").is_err(),
            "m0 past the allocation"
        );
    });
}

#[test]
fn source_modifiers_on_bit_moves() {
    both(|w64| {
        let mut w = Wave::new(w64, 8);
        let a = w.fill(2, 161);
        let b = w.fill(3, 162);
        let sel = 0x0f0f_00ff_f0f0_ff00u64 & if w64 { u64::MAX } else { 0xffff_ffff };
        w.s.sgpr[20] = sel as u32;
        w.s.sgpr[21] = (sel >> 32) as u32;
        let s20 = if w64 { "s[20:21]" } else { "s20" };
        // cndmask takes float neg/abs: sign-bit flips, no arithmetic.
        w.run(&format!("v_cndmask_b32_e64 v1, -v2, |v3|, {s20}"));
        for lane in 0..w.lanes() {
            let want = if sel >> lane & 1 != 0 {
                b[lane] & 0x7fff_ffff
            } else {
                a[lane] ^ 0x8000_0000
            };
            assert_eq!(w.get(1, lane), want);
        }
        // v_cvt_off_f32_i4: a signed nibble / 16, exact.
        for lane in 0..w.lanes() {
            w.set(4, lane, lane as u32 * 0x1111);
        }
        w.run("v_cvt_off_f32_i4_e32 v5, v4");
        for lane in 0..w.lanes() {
            let nibble = ((lane as u32 * 0x1111) & 15) as i32;
            let signed = if nibble >= 8 { nibble - 16 } else { nibble };
            assert_eq!(f32::from_bits(w.get(5, lane)), signed as f32 / 16.0, "lane {lane}");
        }
    });
}
