//! MUBUF and DS.

use super::*;

/// Writes a V# to s[8:11].
fn vsharp(r: &mut Rig, base: u64, stride: u32, num_records: u32, swizzle: bool, w3: u32) {
    r.s.sgpr[8] = base as u32;
    r.s.sgpr[9] = (base >> 32) as u32 & 0xffff | stride << 16 | u32::from(swizzle) << 31;
    r.s.sgpr[10] = num_records;
    r.s.sgpr[11] = w3;
}

/// OOB_SELECT field.
fn oob(sel: u32) -> u32 {
    sel << 28
}

#[test]
fn raw_buffer_checks_each_dword_against_num_records() {
    for wave64 in WAVES {
        let mut r = Rig::new(wave64);
        let n = r.lanes();
        // 0x40 bytes in range; soffset 0x100 is not range-checked.
        vsharp(&mut r, MEM + 0x1000, 0, 0x40, false, oob(3));
        r.s.sgpr[20] = 0x100;
        r.set_v(1, |l| 4 * l as u32);
        let out = r.ok("buffer_load_dwordx2 v[10:11], v1, s[8:11], s20 offen offset:4");
        let mut want = Vec::new();
        for l in 0..n {
            let off = 4 * l as u64 + 4;
            let a = MEM + 0x1100 + off;
            let d0 = if off + 4 <= 0x40 {
                value_at(a, 4) as u32
            } else {
                0
            };
            let d1 = if off + 8 <= 0x40 {
                value_at(a + 4, 4) as u32
            } else {
                0
            };
            assert_eq!((r.v(10, l), r.v(11, l)), (d0, d1), "lane {l}");
            match (off + 4 <= 0x40, off + 8 <= 0x40) {
                (true, true) => want.push((l as u8, a, 8)),
                (true, false) => want.push((l as u8, a, 4)),
                _ => {}
            }
        }
        assert_access(&out, MemOp::VectorLoad, &want);
        // Stores out of range are dropped.
        r.set_v(12, |l| 0x7700 + l as u32);
        r.ok("buffer_store_dword v12, v1, s[8:11], s20 offen offset:4");
        for l in 0..n {
            let off = 4 * l as u64 + 4;
            let a = MEM + 0x1100 + off;
            let want = if off + 4 <= 0x40 {
                0x7700 + l as u64
            } else {
                value_at(a, 4)
            };
            assert_eq!(r.read(a, 4), want, "store lane {l}");
        }
    }
}

#[test]
fn structured_buffer_uses_index_stride_and_checks_index() {
    let mut r = Rig::new(false);
    // Records of 12 bytes, 5 of them (OOB_SELECT 1: index check only).
    vsharp(&mut r, MEM + 0x400, 12, 5, false, oob(1));
    r.set_v(4, |l| l as u32 % 8);
    r.set_v(5, |_| 4);
    r.ok("buffer_load_dword v10, v[4:5], s[8:11], 0 idxen offen");
    for l in 0..32 {
        let idx = (l % 8) as u64;
        let want = if idx < 5 {
            value_at(MEM + 0x400 + 12 * idx + 4, 4) as u32
        } else {
            0
        };
        assert_eq!(r.v(10, l), want, "lane {l}");
    }
}

#[test]
fn scratch_vsharp_swizzles_like_flat_scratch() {
    for wave64 in WAVES {
        let mut r = Rig::new(wave64);
        let n = r.lanes() as u64;
        // The dispatcher's private-segment V#: swizzled, stride 0, add_tid,
        // index stride = wave size, OOB_SELECT 2.
        let stride_code = if wave64 { 3 } else { 2 };
        vsharp(
            &mut r,
            SCRATCH,
            0,
            u32::MAX,
            true,
            stride_code << 21 | 1 << 23 | oob(2),
        );
        r.set_v(1, |_| 8);
        r.set_v(20, |l| 0xa000 + l as u32);
        r.set_v(21, |l| 0xb000 + l as u32);
        let out = r.ok("buffer_store_dwordx2 v[20:21], v1, s[8:11], 0 offen offset:4");
        let mut want = Vec::new();
        for l in 0..n {
            let a3 = SCRATCH + 3 * 4 * n + 4 * l;
            let a4 = SCRATCH + 4 * 4 * n + 4 * l;
            assert_eq!((r.read(a3, 4), r.read(a4, 4)), (0xa000 + l, 0xb000 + l));
            want.push((l as u8, a3, 4));
            want.push((l as u8, a4, 4));
        }
        assert_access(&out, MemOp::VectorStore, &want);
        // scratch_load sees the same private bytes.
        r.ok("scratch_load_dwordx2 v[30:31], off, off offset:12");
        r.ok("buffer_load_dword v32, off, s[8:11], 0 offset:16");
        for l in 0..n as usize {
            assert_eq!(
                (r.v(30, l), r.v(31, l)),
                (0xa000 + l as u32, 0xb000 + l as u32)
            );
            assert_eq!(r.v(32, l), 0xb000 + l as u32);
        }
    }
}

#[test]
fn buffer_atomic_returns_into_vdata_and_cache_control() {
    let mut r = Rig::new(false);
    vsharp(&mut r, MEM + 0x20, 0, 0x100, false, oob(3));
    r.mem.write_u32(MEM + 0x20, 1).unwrap();
    r.set_v(1, |l| if l < 4 { 0 } else { 0x200 });
    r.set_v(2, |_| 3);
    r.ok("buffer_atomic_add v2, v1, s[8:11], 0 offen glc");
    // Lanes 0-3 add 3 in order; lanes 4+ are out of range (return 0, no write).
    for l in 0..32 {
        let want = if l < 4 { 1 + 3 * l as u32 } else { 0 };
        assert_eq!(r.v(2, l), want, "lane {l}");
    }
    assert_eq!(r.read(MEM + 0x20, 4), 13);
    assert_eq!(r.read(MEM + 0x220, 4), value_at(MEM + 0x220, 4));
    let out = r.ok("buffer_gl0_inv");
    assert_access(&out, MemOp::CacheControl, &[]);
    assert!(out.vgpr.is_empty() && out.memory.is_empty());
    let out = r.ok("buffer_gl1_inv");
    assert_eq!(out.access.op, MemOp::CacheControl);
}

#[test]
fn ds_reads_writes_and_out_of_range() {
    for wave64 in WAVES {
        let mut r = Rig::new(wave64);
        let n = r.lanes();
        let orig = r.lds.clone();
        let at = |o: usize, k: usize| -> u64 {
            (0..k).fold(0, |acc, i| acc | u64::from(orig[o + i]) << (8 * i))
        };
        r.set_v(1, |l| 3 * l as u32);
        let out = r.ok("ds_read_b32 v10, v1 offset:16");
        let want: Vec<_> = (0..n).map(|l| (l as u8, 3 * l as u64 + 16, 4)).collect();
        assert_access(&out, MemOp::Lds, &want);
        r.ok("ds_read_i8 v11, v1 offset:1");
        r.ok("ds_read_u16 v12, v1");
        r.ok("ds_read_b128 v[20:23], v1 offset:100");
        for l in 0..n {
            let o = 3 * l;
            assert_eq!(r.v(10, l) as u64, at(o + 16, 4));
            assert_eq!(r.v(11, l), orig[o + 1] as i8 as i32 as u32);
            assert_eq!(r.v(12, l) as u64, at(o, 2));
            for k in 0..4 {
                assert_eq!(r.v(20 + k, l) as u64, at(o + 100 + 4 * k, 4));
            }
        }
        // Out of range: lanes whose access ends past the allocation read 0.
        r.set_v(2, |l| (LDS - 8 + 2 * l) as u32);
        r.ok("ds_read_b32 v13, v2");
        for l in 0..n {
            let o = LDS - 8 + 2 * l;
            let want = if o + 4 <= LDS { at(o, 4) as u32 } else { 0 };
            assert_eq!(r.v(13, l), want, "oor lane {l}");
        }
        // Writes: out-of-range dropped, masked lanes untouched.
        r.set_v(14, |l| 0xc0de_0000 | l as u32);
        r.set_exec(0x5555_5555_5555_5555 & all(n));
        let out = r.ok("ds_write_b32 v2, v14");
        let written: Vec<usize> = (0..n)
            .filter(|l| l % 2 == 0 && LDS - 8 + 2 * l + 4 <= LDS)
            .collect();
        assert_eq!(out.memory.len(), written.len());
        for l in written {
            assert_eq!(
                out.memory
                    .iter()
                    .filter(|w| w.address == (LDS - 8 + 2 * l) as u64)
                    .count(),
                1
            );
        }
        assert_eq!(r.lds_u32(LDS - 4), 0xc0de_0002);
    }
}

/// The address VGPR plus the offset wraps at 32 bits (a negative base with
/// a positive offset, as LLVM folds `tile[63 - l]`): the access is the
/// 32-bit sum's, in range, not a 64-bit sum past the allocation.
#[test]
fn ds_address_plus_offset_wraps_at_32_bits() {
    for wave64 in WAVES {
        let mut r = Rig::new(wave64);
        let n = r.lanes();
        r.set_v(1, |l| (8 * l as u32).wrapping_sub(256));
        r.set_v(5, |l| 0xbeef_0000 | l as u32);
        let out = r.ok("ds_write_b32 v1, v5 offset:512");
        let want: Vec<_> = (0..n).map(|l| (l as u8, 8 * l as u64 + 256, 4)).collect();
        assert_access(&out, MemOp::Lds, &want);
        r.ok("ds_read2_b32 v[10:11], v1 offset0:64 offset1:128");
        for l in 0..n {
            assert_eq!(r.lds_u32(8 * l + 256), 0xbeef_0000 | l as u32);
            assert_eq!(r.v(11, l), 0xbeef_0000 | l as u32, "lane {l}");
        }
    }
}

#[test]
fn ds_two_address_forms() {
    for wave64 in WAVES {
        let mut r = Rig::new(wave64);
        let n = r.lanes();
        r.set_v(1, |l| 4 * l as u32);
        r.set_v(5, |l| 0x1000 + l as u32);
        r.set_v(6, |l| 0x2000 + l as u32);
        // write2: offsets in dwords; with 64 lanes the stride-64 form would
        // overlap, so each lane's slots are distinct by construction below.
        r.set_v(1, |l| 8 * l as u32);
        let out = r.ok("ds_write2_b32 v1, v5, v6 offset0:1 offset1:0");
        let mut want = Vec::new();
        for l in 0..n {
            let a = 8 * l as u64;
            want.push((l as u8, a + 4, 4));
            want.push((l as u8, a, 4));
            assert_eq!(r.lds_u32(8 * l + 4), 0x1000 + l as u32);
            assert_eq!(r.lds_u32(8 * l), 0x2000 + l as u32);
        }
        assert_access(&out, MemOp::Lds, &want);
        r.ok("ds_read2_b32 v[10:11], v1 offset1:1");
        for l in 0..n {
            assert_eq!(
                (r.v(10, l), r.v(11, l)),
                (0x2000 + l as u32, 0x1000 + l as u32)
            );
        }
        // st64: offset1:1 is 256 bytes further for b32.
        r.set_v(1, |l| 4 * (l as u32 % 16));
        r.set_exec(0xffff);
        r.ok("ds_write2st64_b32 v1, v5, v6 offset0:0 offset1:2");
        r.ok("ds_read2st64_b32 v[12:13], v1 offset0:2 offset1:0");
        for l in 0..16 {
            assert_eq!(r.lds_u32(4 * l), 0x1000 + l as u32);
            assert_eq!(r.lds_u32(512 + 4 * l), 0x2000 + l as u32);
            assert_eq!(
                (r.v(12, l), r.v(13, l)),
                (0x2000 + l as u32, 0x1000 + l as u32)
            );
        }
        // b64 pairs: offsets in qwords (lanes 32 bytes apart so they do not overlap).
        r.set_v(1, |l| 32 * l as u32);
        r.set_v(7, |_| 0x1111);
        r.set_v(8, |_| 0x2222);
        r.ok("ds_write2_b64 v1, v[5:6], v[7:8] offset0:8 offset1:10");
        r.ok("ds_read2_b64 v[20:23], v1 offset0:10 offset1:8");
        for l in 0..16 {
            assert_eq!((r.v(20, l), r.v(21, l)), (0x1111, 0x2222));
            assert_eq!(
                (r.v(22, l), r.v(23, l)),
                (0x1000 + l as u32, 0x2000 + l as u32)
            );
        }
    }
}

#[test]
fn ds_atomics_in_lane_order() {
    for wave64 in WAVES {
        let mut r = Rig::new(wave64);
        let n = r.lanes();
        r.lds[..4].copy_from_slice(&5u32.to_le_bytes());
        r.set_v(1, |_| 0);
        r.set_v(2, |l| l as u32);
        let out = r.ok("ds_add_u32 v1, v2");
        assert!(out.vgpr.is_empty());
        let total = 5 + (0..n as u32).sum::<u32>();
        assert_eq!(r.lds_u32(0), total);
        r.ok("ds_max_rtn_u32 v3, v1, v2");
        for l in 0..n {
            assert_eq!(r.v(3, l), total, "max rtn lane {l}");
        }
        r.ok("ds_add_rtn_u32 v3, v1, v2");
        let mut acc = total;
        for l in 0..n {
            assert_eq!(r.v(3, l), acc);
            acc += l as u32;
        }
        // cmpst: DATA0 is the compare, DATA1 the new value; only lane 0 matches.
        r.set_v(4, |_| acc);
        r.set_v(5, |l| 0x100 + l as u32);
        r.ok("ds_cmpst_rtn_b32 v6, v1, v4, v5");
        assert_eq!(r.v(6, 0), acc);
        assert_eq!(r.v(6, 1), 0x100);
        assert_eq!(r.lds_u32(0), 0x100);
        // Per-lane addresses: ds_max_u32 keeps the larger.
        r.set_v(1, |l| 64 + 4 * l as u32);
        r.set_v(2, |l| if l % 2 == 0 { 0 } else { u32::MAX });
        let before: Vec<u32> = (0..n).map(|l| r.lds_u32(64 + 4 * l)).collect();
        r.ok("ds_max_u32 v1, v2");
        for (l, &b) in before.iter().enumerate() {
            let want = if l % 2 == 0 { b } else { u32::MAX };
            assert_eq!(r.lds_u32(64 + 4 * l), want);
        }
    }
}

#[test]
fn bpermute_permute_and_swizzle_stay_within_halves() {
    for wave64 in WAVES {
        let mut r = Rig::new(wave64);
        let n = r.lanes();
        r.set_v(2, |l| 0x500 + l as u32);
        // Each lane reads lane (l + 1) % 32 of its half; lane 5 is inactive.
        r.set_v(1, |l| 4 * (l as u32 + 1));
        r.set_exec(all(n) & !(1 << 5));
        r.ok("ds_bpermute_b32 v3, v1, v2");
        for l in (0..n).filter(|&l| l != 5) {
            let from = ((l + 1) & 31) | (l & 32);
            let want = if from == 5 { 0 } else { 0x500 + from as u32 };
            assert_eq!(r.v(3, l), want, "bpermute lane {l}");
        }
        // permute: lane l sends to (l + 1) % 32 of its half.
        r.set_exec(all(n));
        r.ok("ds_permute_b32 v4, v1, v2");
        for l in 0..n {
            let from = ((l + 31) & 31) | (l & 32);
            assert_eq!(r.v(4, l), 0x500 + from as u32, "permute lane {l}");
        }
        // swizzle: quad permute (1,0,3,2) and bitmask xor 1.
        r.ok("ds_swizzle_b32 v5, v2 offset:swizzle(QUAD_PERM,1,0,3,2)");
        r.ok("ds_swizzle_b32 v6, v2 offset:swizzle(BITMASK_PERM,\"ppppi\")");
        for l in 0..n {
            assert_eq!(r.v(5, l), 0x500 + (l ^ 1) as u32);
            assert_eq!(r.v(6, l), 0x500 + (l ^ 1) as u32);
        }
    }
}

/// V# dword 3 with a format code and raw range checking.
fn fmt(code: u32) -> u32 {
    oob(3) | code << 12
}

#[test]
fn typed_loads_convert_and_fill_missing_components() {
    for wave64 in WAVES {
        let mut r = Rig::new(wave64);
        let n = r.lanes();
        // 8_8_8_8 UNORM (56) through the V#; 4-byte elements, 16 in range.
        vsharp(&mut r, MEM + 0x100, 0, 64, false, fmt(56));
        r.set_v(1, |l| 4 * l as u32);
        r.ok("buffer_load_format_xyzw v[10:13], v1, s[8:11], 0 offen");
        for l in 0..n {
            let a = MEM + 0x100 + 4 * l as u64;
            for c in 0..4 {
                // Out of range the element's bytes read 0 (then convert).
                let want = if 4 * l + 4 <= 64 {
                    (byte_at(a + c as u64) as f32 / 255.0).to_bits()
                } else {
                    0
                };
                assert_eq!(r.v(10 + c, l), want, "lane {l} component {c}");
            }
        }
        // MTBUF: the format is in the instruction (16_16 SINT = 28); Z reads 0, W 1.
        vsharp(&mut r, MEM + 0x100, 0, 0x1000, false, oob(3));
        r.ok("tbuffer_load_format_xyzw v[10:13], v1, s[8:11], 0 format:[BUF_FMT_16_16_SINT] offen");
        for l in 0..n {
            let a = MEM + 0x100 + 4 * l as u64;
            let x = value_at(a, 2) as u16 as i16 as i32 as u32;
            let y = value_at(a + 2, 2) as u16 as i16 as i32 as u32;
            assert_eq!(
                [r.v(10, l), r.v(11, l), r.v(12, l), r.v(13, l)],
                [x, y, 0, 1]
            );
        }
        // d16: 16_16 FLOAT (29) packs two halves into one VGPR unchanged.
        r.ok("tbuffer_load_format_d16_xy v14, v1, s[8:11], 0 format:[BUF_FMT_16_16_FLOAT] offen");
        // d16_x keeps the high half; d16_hi_x keeps the low half.
        r.set_v(15, |_| 0xabcd_0123);
        r.set_v(16, |_| 0xabcd_0123);
        vsharp(&mut r, MEM + 0x100, 0, 0x1000, false, fmt(11)); // 16_UINT
        r.ok("buffer_load_format_d16_x v15, v1, s[8:11], 0 offen");
        r.ok("buffer_load_format_d16_hi_x v16, v1, s[8:11], 0 offen");
        for l in 0..n {
            let a = MEM + 0x100 + 4 * l as u64;
            let x = value_at(a, 2) as u32;
            let y = value_at(a + 2, 2) as u32;
            let f16 = |h: u32| h; // FLOAT16 -> f32 -> f16 is the identity for non-NaN values
            if (x & 0x7c00) != 0x7c00 && (y & 0x7c00) != 0x7c00 {
                assert_eq!(r.v(14, l), f16(x) | f16(y) << 16, "d16_xy lane {l}");
            }
            assert_eq!(r.v(15, l), 0xabcd_0000 | x);
            assert_eq!(r.v(16, l), x << 16 | 0x0123);
        }
    }
}

#[test]
fn typed_stores_saturate_and_write_only_present_components() {
    let mut r = Rig::new(false);
    r.set_v(1, |l| 4 * l as u32);
    // 8_8_8_8 SNORM (57), two components: only bytes 0-1 of each element change.
    vsharp(&mut r, MEM + 0x200, 0, 0x1000, false, oob(3));
    r.set_v(20, |l| (l as f32 / 16.0 - 1.0).to_bits());
    r.set_v(21, |_| 7.0f32.to_bits());
    let out = r.ok(
        "tbuffer_store_format_xy v[20:21], v1, s[8:11], 0 format:[BUF_FMT_8_8_8_8_SNORM] offen",
    );
    for l in 0..32u64 {
        let a = MEM + 0x200 + 4 * l;
        let x = ((l as f64 / 16.0 - 1.0).clamp(-1.0, 1.0) * 127.0).round_ties_even() as i8 as u8;
        assert_eq!(r.read(a, 1) as u8, x, "lane {l} x");
        assert_eq!(r.read(a + 1, 1), 127, "lane {l} y saturates");
        assert_eq!(
            r.read(a + 2, 2),
            value_at(a + 2, 2),
            "lane {l} z/w untouched"
        );
    }
    assert_eq!(out.access.lanes[3], (3, MEM + 0x200 + 12, 2));
    // 2_10_10_10 UINT (54: X in bits 9:0) with X only: the other bits of the dword are kept.
    r.set_v(22, |l| if l % 2 == 0 { 5 } else { 5000 });
    r.ok("tbuffer_store_format_x v22, v1, s[8:11], 0 format:[BUF_FMT_2_10_10_10_UINT] offen offset:0x400");
    for l in 0..32u64 {
        let a = MEM + 0x600 + 4 * l;
        let x = if l % 2 == 0 { 5 } else { 0x3ff };
        assert_eq!(r.read(a, 4), value_at(a, 4) & !0x3ff | x, "lane {l}");
    }
    // A format code that is no format faults naming it.
    let err = r
        .run("tbuffer_store_format_x v22, v1, s[8:11], 0 format:127 offen")
        .unwrap_err();
    assert!(
        matches!(&err, FaultKind::IllegalInstruction { reason } if reason.contains("format 127")),
        "{err:?}"
    );
}

#[test]
fn ds_counters_exchanges_and_narrow_forms() {
    for wave64 in WAVES {
        let mut r = Rig::new(wave64);
        let n = r.lanes();
        // ds_append / ds_consume at M0 + offset, by the active-lane count.
        r.lds[0x40..0x44].copy_from_slice(&10u32.to_le_bytes());
        r.s.sgpr[usize::from(crate::exec::code::M0)] = 0x30;
        r.set_exec(0b1011);
        r.ok("ds_append v1 offset:16");
        assert_eq!((r.v(1, 0), r.v(1, 3)), (10, 10));
        assert_eq!(r.lds_u32(0x40), 13);
        r.set_exec(all(n));
        r.ok("ds_consume v1 offset:16");
        assert_eq!(r.v(1, n - 1), 13);
        assert_eq!(r.lds_u32(0x40), 13u32.wrapping_sub(n as u32));
        // wrxchg2: two exchanges per lane, old values returned in order.
        r.set_v(2, |l| 8 * l as u32);
        r.set_v(3, |l| 0x300 + l as u32);
        r.set_v(4, |l| 0x400 + l as u32);
        let before: Vec<(u32, u32)> = (0..n)
            .map(|l| (r.lds_u32(8 * l), r.lds_u32(8 * l + 4)))
            .collect();
        r.ok("ds_wrxchg2_rtn_b32 v[6:7], v2, v3, v4 offset1:1");
        for (l, &(a, b)) in before.iter().enumerate() {
            assert_eq!((r.v(6, l), r.v(7, l)), (a, b));
            assert_eq!(
                (r.lds_u32(8 * l), r.lds_u32(8 * l + 4)),
                (0x300 + l as u32, 0x400 + l as u32)
            );
        }
        // mskor: (mem & !data0) | data1.
        r.set_v(3, |_| 0xff);
        r.set_v(4, |l| l as u32);
        r.ok("ds_mskor_rtn_b32 v8, v2, v3, v4");
        for l in 0..n {
            assert_eq!(r.v(8, l), 0x300 + l as u32);
            assert_eq!(r.lds_u32(8 * l), 0x300 | l as u32);
        }
        // condxchg32: each dword replaced only when its data has bit 31 set.
        r.set_v(10, |_| 0x8000_0005);
        r.set_v(11, |_| 0x0000_0007);
        r.set_exec(1);
        let (lo, hi) = (r.lds_u32(0x100), r.lds_u32(0x104));
        r.set_v(2, |_| 0x103);
        r.ok("ds_condxchg32_rtn_b64 v[12:13], v2, v[10:11]");
        assert_eq!((r.v(12, 0), r.v(13, 0)), (lo, hi));
        assert_eq!((r.lds_u32(0x100), r.lds_u32(0x104)), (5, hi));
        // d16 reads and the d16_hi byte write.
        r.set_exec(all(n));
        r.set_v(2, |l| 2 * l as u32);
        r.set_v(14, |_| 0x1234_5678);
        r.ok("ds_read_i8_d16_hi v14, v2 offset:1");
        r.set_v(15, |_| 0x00ab_0000);
        r.ok("ds_write_b8_d16_hi v2, v15 offset:600");
        for l in 0..n {
            let b = r.lds[2 * l + 1];
            assert_eq!(r.v(14, l), (b as i8 as i16 as u16 as u32) << 16 | 0x5678);
            assert_eq!(r.lds[600 + 2 * l], 0xab);
        }
        // 64-bit LDS atomic with return.
        r.set_v(2, |_| 0x200);
        r.set_v(16, |_| 1);
        r.set_v(17, |_| 1);
        r.lds[0x200..0x208].copy_from_slice(&u64::MAX.to_le_bytes());
        r.set_exec(0b11);
        r.ok("ds_add_rtn_u64 v[18:19], v2, v[16:17]");
        assert_eq!((r.v(18, 0), r.v(19, 0)), (u32::MAX, u32::MAX));
        assert_eq!((r.v(18, 1), r.v(19, 1)), (0, 1));
        assert_eq!(
            u64::from_le_bytes(r.lds[0x200..0x208].try_into().unwrap()),
            (2 << 32) | 1
        );
    }
}

#[test]
fn typed_d16_stores_take_packed_halves() {
    let mut r = Rig::new(false);
    r.set_v(1, |l| 8 * l as u32);
    vsharp(&mut r, MEM + 0x300, 0, 0x1000, false, fmt(69)); // 16_16_16_16 UINT
                                                            // Halves: x = l, y = 0x100 + l, z = 0x200 + l (w absent: not written).
    r.set_v(20, |l| (0x100 + l as u32) << 16 | l as u32);
    r.set_v(21, |l| 0xdead_0000 | (0x200 + l as u32));
    let out = r.ok("buffer_store_format_d16_xyz v[20:21], v1, s[8:11], 0 offen");
    for l in 0..32u64 {
        let a = MEM + 0x300 + 8 * l;
        assert_eq!(
            r.read(a, 6),
            (0x200 + l) << 32 | (0x100 + l) << 16 | l,
            "lane {l}"
        );
        assert_eq!(r.read(a + 6, 2), value_at(a + 6, 2));
    }
    assert_eq!(out.access.lanes[1], (1, MEM + 0x308, 6));
    // d16_hi_x stores the high half; 8_UNORM (1) narrows from f16.
    vsharp(&mut r, MEM + 0x700, 0, 0x1000, false, fmt(1));
    r.set_v(22, |_| 0x3800_0000); // high half = f16 0.5
    r.ok("buffer_store_format_d16_hi_x v22, v1, s[8:11], 0 offen");
    assert_eq!(r.read(MEM + 0x708, 1), 128);
}
