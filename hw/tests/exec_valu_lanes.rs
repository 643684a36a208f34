//! Directed tests of the VALU datapath's lane transforms and packed math:
//! SDWA selects and destination modes, DPP16 row controls, DPP8, VOP3P,
//! permlane/movrel, float source modifiers on bit moves and the SAD family,
//! on both wave sizes with independently computed expectations.

// Lanes are indexed by number: a lane's bit in EXEC is its index.
#![allow(clippy::needless_range_loop)]

mod exec_valu_common;

use exec_valu_common::*;

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
        // An inline constant is a 32-bit value (LLVM's isInlinableLiteralV216:
        // 0xfffffff9 encodes as -7): the high half op_sel_hi reads of 1 is 0.
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
            assert_eq!(w.get(5, lane), pack(lo(x).wrapping_add(1), hi(x)));
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
            assert_eq!(
                f32::from_bits(w.get(5, lane)),
                signed as f32 / 16.0,
                "lane {lane}"
            );
        }
    });
}

#[test]
fn sad_family() {
    let sad = |x: u32, y: u32, masked: bool| -> u32 {
        (0..4)
            .map(|i| {
                let (p, q) = ((x >> (8 * i)) & 0xff, (y >> (8 * i)) & 0xff);
                if masked && q == 0 {
                    0
                } else {
                    p.abs_diff(q)
                }
            })
            .sum()
    };
    both(|w64| {
        let mut w = Wave::new(w64, 12);
        let lo = w.fill(2, 171);
        let hi = w.fill(3, 172);
        let r = w.fill(4, 173);
        let c_lo = w.fill(6, 174);
        let c_hi = w.fill(7, 175);
        // Zero bytes in the reference for the masked forms.
        for lane in (0..w.lanes()).step_by(2) {
            w.set(4, lane, r[lane] & 0xff00_ff00);
        }
        let r: Vec<u32> = (0..w.lanes()).map(|l| w.get(4, l)).collect();
        w.run("v_qsad_pk_u16_u8 v[8:9], v[2:3], v4, v[6:7]");
        w.run("v_mqsad_pk_u16_u8 v[10:11], v[2:3], v4, v[6:7]");
        w.run("v_msad_u8 v1, v2, v4, v6");
        for lane in 0..w.lanes() {
            let data = (hi[lane] as u64) << 32 | lo[lane] as u64;
            let acc = (c_hi[lane] as u64) << 32 | c_lo[lane] as u64;
            for (reg, masked) in [(8, false), (10, true)] {
                let got = (w.get(reg + 1, lane) as u64) << 32 | w.get(reg, lane) as u64;
                for k in 0..4 {
                    let s = sad((data >> (8 * k)) as u32, r[lane], masked) as u64;
                    let want = (s + ((acc >> (16 * k)) & 0xffff)) & 0xffff;
                    assert_eq!(
                        (got >> (16 * k)) & 0xffff,
                        want,
                        "lane {lane} k {k} masked {masked}"
                    );
                }
            }
            assert_eq!(
                w.get(1, lane),
                sad(lo[lane], r[lane], true).wrapping_add(c_lo[lane])
            );
        }
        // 128-bit accumulator v[6:9] (v8, v9 hold the qsad result now).
        let acc: Vec<[u32; 4]> = (0..w.lanes())
            .map(|l| [w.get(6, l), w.get(7, l), w.get(8, l), w.get(9, l)])
            .collect();
        w.run("v_mqsad_u32_u8 v[0:3], v[2:3], v4, v[6:9]");
        for lane in 0..w.lanes() {
            let data = (hi[lane] as u64) << 32 | lo[lane] as u64;
            for k in 0..4 {
                let s = sad((data >> (8 * k)) as u32, r[lane], true);
                assert_eq!(
                    w.get(k, lane),
                    s.wrapping_add(acc[lane][k]),
                    "lane {lane} k {k}"
                );
            }
        }
    });
}
