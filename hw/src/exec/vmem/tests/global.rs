//! GLOBAL, FLAT and SCRATCH.

use super::*;

/// Expected dword of a narrow load at an address.
type Load = fn(u64) -> u32;
/// Expected dword of a d16 load at an address given the previous value.
type D16 = fn(u64, u32) -> u32;
/// Expected stored bytes given the data dwords.
type Stored = fn(&[u32; 4]) -> Vec<u8>;
use arch::device::{PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE};

/// v[2:3] = MEM + 0x100 + 8·lane (64-bit addresses), v4 = 0x200 + 16·lane,
/// s[10:11] = MEM.
fn addresses(r: &mut Rig) {
    r.set_v(2, |l| (MEM + 0x100 + 8 * l as u64) as u32);
    r.set_v(3, |_| (MEM >> 32) as u32);
    r.set_v(4, |l| 0x200 + 16 * l as u32);
    r.s.sgpr[10] = MEM as u32;
    r.s.sgpr[11] = (MEM >> 32) as u32;
}

#[test]
fn global_loads_every_width_with_and_without_saddr() {
    // (mnemonic suffix, bytes, expected dword k of lane value v at address a)
    let widths: [(&str, usize, Load); 4] = [
        ("ubyte", 1, |a| value_at(a, 1) as u32),
        ("sbyte", 1, |a| value_at(a, 1) as u8 as i8 as i32 as u32),
        ("ushort", 2, |a| value_at(a, 2) as u32),
        ("sshort", 2, |a| value_at(a, 2) as u16 as i16 as i32 as u32),
    ];
    for wave64 in WAVES {
        let mut r = Rig::new(wave64);
        addresses(&mut r);
        let n = r.lanes();
        for (name, _, f) in widths {
            r.ok(&format!("global_load_{name} v10, v[2:3], off offset:-3"));
            r.ok(&format!("global_load_{name} v11, v4, s[10:11] offset:5"));
            for l in 0..n {
                let a = MEM + 0x100 + 8 * l as u64 - 3;
                assert_eq!(r.v(10, l), f(a), "{name} off lane {l}");
                let a = MEM + 0x200 + 16 * l as u64 + 5;
                assert_eq!(r.v(11, l), f(a), "{name} saddr lane {l}");
            }
        }
        // The pattern covers both signs, so sign extension was exercised.
        assert!((0..n).any(|l| r.v(10, l) >> 31 != 0));
    }
}

#[test]
fn global_dword_loads_and_access_record() {
    for wave64 in WAVES {
        let mut r = Rig::new(wave64);
        addresses(&mut r);
        let n = r.lanes();
        r.s.sgpr[10] = (MEM + 0x1000) as u32;
        for (name, dwords) in [("dword", 1), ("dwordx2", 2), ("dwordx3", 3), ("dwordx4", 4)] {
            let dst = if dwords == 1 {
                "v20".to_string()
            } else {
                format!("v[20:{}]", 19 + dwords)
            };
            let out = r.ok(&format!(
                "global_load_{name} {dst}, v4, s[10:11] offset:-2048"
            ));
            assert_eq!(out.vgpr.len(), dwords);
            let mut want = Vec::new();
            for l in 0..n {
                let a = MEM + 0x1000 + 0x200 + 16 * l as u64 - 2048;
                want.push((l as u8, a, 4 * dwords as u8));
                for k in 0..dwords {
                    assert_eq!(
                        r.v(20 + k, l),
                        value_at(a + 4 * k as u64, 4) as u32,
                        "{name} lane {l} dword {k}"
                    );
                }
            }
            assert_access(&out, MemOp::VectorLoad, &want);
        }
    }
}

#[test]
fn d16_loads_keep_the_other_half() {
    for wave64 in WAVES {
        let mut r = Rig::new(wave64);
        addresses(&mut r);
        let n = r.lanes();
        let cases: [(&str, D16); 6] = [
            ("ubyte_d16", |a, p| p & 0xffff_0000 | value_at(a, 1) as u32),
            ("sbyte_d16", |a, p| {
                p & 0xffff_0000 | (value_at(a, 1) as u8 as i8 as i16 as u16 as u32)
            }),
            ("short_d16", |a, p| p & 0xffff_0000 | value_at(a, 2) as u32),
            ("ubyte_d16_hi", |a, p| {
                p & 0xffff | (value_at(a, 1) as u32) << 16
            }),
            ("sbyte_d16_hi", |a, p| {
                p & 0xffff | (value_at(a, 1) as u8 as i8 as i16 as u16 as u32) << 16
            }),
            ("short_d16_hi", |a, p| {
                p & 0xffff | (value_at(a, 2) as u32) << 16
            }),
        ];
        for (name, f) in cases {
            r.set_v(12, |l| 0xdead_beef ^ (l as u32 * 0x0101_0101));
            r.ok(&format!("global_load_{name} v12, v[2:3], off offset:1"));
            for l in 0..n {
                let a = MEM + 0x100 + 8 * l as u64 + 1;
                let prev = 0xdead_beef ^ (l as u32 * 0x0101_0101);
                assert_eq!(r.v(12, l), f(a, prev), "{name} lane {l}");
            }
        }
    }
}

#[test]
fn global_stores_every_width_and_exec_masking() {
    for wave64 in WAVES {
        let mut r = Rig::new(wave64);
        addresses(&mut r);
        let n = r.lanes();
        r.set_v(20, |l| 0x1122_3344 + l as u32);
        r.set_v(21, |l| 0x5566_7788 ^ l as u32);
        r.set_v(22, |l| 0x99aa_bbcc - l as u32);
        r.set_v(23, |l| 0xddee_ff00 | l as u32);
        // Odd lanes only.
        let exec = 0xaaaa_aaaa_aaaa_aaaa & all(n);
        r.set_exec(exec);
        let cases: [(&str, usize, Stored); 8] = [
            ("byte", 1, |d| vec![d[0] as u8]),
            ("byte_d16_hi", 1, |d| vec![(d[0] >> 16) as u8]),
            ("short", 2, |d| (d[0] as u16).to_le_bytes().to_vec()),
            ("short_d16_hi", 2, |d| {
                ((d[0] >> 16) as u16).to_le_bytes().to_vec()
            }),
            ("dword", 4, |d| d[0].to_le_bytes().to_vec()),
            ("dwordx2", 8, |d| {
                d[..2].iter().flat_map(|x| x.to_le_bytes()).collect()
            }),
            ("dwordx3", 12, |d| {
                d[..3].iter().flat_map(|x| x.to_le_bytes()).collect()
            }),
            ("dwordx4", 16, |d| {
                d.iter().flat_map(|x| x.to_le_bytes()).collect()
            }),
        ];
        for (i, (name, bytes, f)) in cases.into_iter().enumerate() {
            let base = 0x1000 + 0x400 * i as u64;
            r.s.sgpr[10] = (MEM + base) as u32;
            let dwords = bytes.div_ceil(4);
            let src = if dwords == 1 {
                "v20".to_string()
            } else {
                format!("v[20:{}]", 19 + dwords)
            };
            let out = r.ok(&format!(
                "global_store_{name} v4, {src}, s[10:11] offset:-16"
            ));
            assert!(out.vgpr.is_empty());
            let mut want = Vec::new();
            for l in 0..n {
                let a = MEM + base + 0x200 + 16 * l as u64 - 16;
                let d = [r.v(20, l), r.v(21, l), r.v(22, l), r.v(23, l)];
                let mut got = vec![0u8; bytes];
                r.mem.read(a, &mut got).unwrap();
                if exec >> l & 1 != 0 {
                    assert_eq!(got, f(&d), "{name} lane {l}");
                    want.push((l as u8, a, bytes as u8));
                } else {
                    let orig: Vec<u8> = (0..bytes).map(|k| byte_at(a + k as u64)).collect();
                    assert_eq!(got, orig, "{name} masked lane {l} wrote");
                }
            }
            assert_access(&out, MemOp::VectorStore, &want);
            assert_eq!(out.memory.len(), want.len());
            for (w, (_, a, b)) in out.memory.iter().zip(&want) {
                assert_eq!(
                    (w.address, w.len, w.space),
                    (*a, *b, crate::exec::MemSpace::Global)
                );
            }
        }
    }
}

#[test]
fn atomics_apply_in_lane_order_and_return_pre_op_values() {
    for wave64 in WAVES {
        let mut r = Rig::new(wave64);
        let n = r.lanes();
        let target = MEM + 0x40;
        r.mem.write_u32(target, 100).unwrap();
        // Every lane hits one dword; v1 = 0 offsets.
        r.set_v(1, |_| 0);
        r.set_v(5, |l| l as u32 + 1);
        r.s.sgpr[10] = target as u32;
        r.s.sgpr[11] = 0;
        let out = r.ok("global_atomic_add v6, v1, v5, s[10:11] glc");
        assert_eq!(out.access.op, MemOp::VectorAtomic { returns: true });
        let mut sum = 100u32;
        for l in 0..n {
            assert_eq!(r.v(6, l), sum, "lane {l} pre-op value");
            sum += l as u32 + 1;
        }
        assert_eq!(r.read(target, 4) as u32, sum);
        // Without glc nothing is returned.
        let out = r.ok("global_atomic_sub v1, v5, s[10:11]");
        assert!(out.vgpr.is_empty());
        assert_eq!(out.access.op, MemOp::VectorAtomic { returns: false });
        assert_eq!(out.memory.len(), n);
        assert_eq!(r.read(target, 4) as u32, 100);
        // smax / umin see signed vs unsigned.
        r.set_v(5, |l| if l == 3 { 0xffff_fff0 } else { 7 });
        r.ok("global_atomic_smax v1, v5, s[10:11]");
        assert_eq!(r.read(target, 4) as u32, 100);
        r.ok("global_atomic_umax v1, v5, s[10:11]");
        assert_eq!(r.read(target, 4) as u32, 0xffff_fff0);
        // and/or/xor
        r.set_v(5, |l| 1 << (l % 8));
        r.mem.write_u32(target, 0).unwrap();
        r.ok("global_atomic_or v1, v5, s[10:11]");
        assert_eq!(r.read(target, 4), 0xff);
        r.set_v(5, |_| 0x0f);
        r.ok("global_atomic_and v1, v5, s[10:11]");
        assert_eq!(r.read(target, 4), 0x0f);
        r.ok("global_atomic_xor v1, v5, s[10:11]");
        // An even number of lanes xor the same value: unchanged.
        assert_eq!(r.read(target, 4), 0x0f);
    }
}

#[test]
fn cmpswap_both_outcomes_and_x2() {
    for wave64 in WAVES {
        let mut r = Rig::new(wave64);
        let n = r.lanes();
        // Each lane its own dword: lane l at MEM + 4l, holding l * 10.
        r.set_v(1, |l| 4 * l as u32);
        for l in 0..n {
            r.mem.write_u32(MEM + 4 * l as u64, 10 * l as u32).unwrap();
        }
        r.s.sgpr[10] = MEM as u32;
        r.s.sgpr[11] = 0;
        // v[6:7] = {new, compare}: even lanes compare equal.
        r.set_v(6, |l| 0xabc0 + l as u32);
        r.set_v(7, |l| if l % 2 == 0 { 10 * l as u32 } else { 1 });
        r.ok("global_atomic_cmpswap v8, v1, v[6:7], s[10:11] glc");
        for l in 0..n {
            assert_eq!(r.v(8, l), 10 * l as u32);
            let want = if l % 2 == 0 {
                0xabc0 + l as u32
            } else {
                10 * l as u32
            };
            assert_eq!(r.read(MEM + 4 * l as u64, 4) as u32, want, "lane {l}");
        }
        // 64-bit: lane l at MEM + 0x800 + 8l.
        r.set_v(1, |l| 0x800 + 8 * l as u32);
        let old = |l: usize| value_at(MEM + 0x800 + 8 * l as u64, 8);
        r.set_v(20, |l| l as u32);
        r.set_v(21, |_| 0x1234_5678);
        r.set_v(22, |l| if l % 3 == 0 { old(l) as u32 } else { 0 });
        r.set_v(23, |l| (old(l) >> 32) as u32);
        r.ok("global_atomic_cmpswap_x2 v[8:9], v1, v[20:23], s[10:11] glc");
        for l in 0..n {
            assert_eq!(u64::from(r.v(8, l)) | u64::from(r.v(9, l)) << 32, old(l));
            let want = if l % 3 == 0 && old(l) as u32 == r.v(22, l) {
                0x1234_5678_0000_0000 | l as u64
            } else {
                old(l)
            };
            assert_eq!(r.read(MEM + 0x800 + 8 * l as u64, 8), want, "x2 lane {l}");
        }
        r.set_v(20, |_| 5);
        r.set_v(21, |_| 0);
        r.ok("global_atomic_add_x2 v[8:9], v1, v[20:21], s[10:11] glc");
        for l in 0..n {
            let before = u64::from(r.v(8, l)) | u64::from(r.v(9, l)) << 32;
            assert_eq!(
                r.read(MEM + 0x800 + 8 * l as u64, 8),
                before.wrapping_add(5)
            );
        }
    }
}

#[test]
fn unmapped_access_faults_with_first_byte_and_changes_nothing() {
    let mut r = Rig::new(false);
    // Lane 5's dwordx2 straddles the end of the mapping by 4 bytes.
    let end = MEM + MEM_SIZE;
    r.set_v(2, |l| (end as i64 - 4 - 8 * (5 - l as i64)) as u32);
    r.set_v(3, |_| 0);
    r.set_exec(0x3f);
    r.set_v(20, |_| 0xffff_ffff);
    r.set_v(21, |_| 0xffff_ffff);
    let err = r
        .run("global_store_dwordx2 v[2:3], v[20:21], off")
        .unwrap_err();
    assert_eq!(
        err,
        FaultKind::MemoryViolation {
            address: end,
            write: true
        }
    );
    // Lanes 0-4 were in range but must not have been written.
    for l in 0..5u64 {
        let a = end - 4 - 8 * (5 - l);
        assert_eq!(r.read(a, 8), value_at(a, 8), "lane {l}");
    }
    let err = r
        .run("global_load_dwordx2 v[10:11], v[2:3], off")
        .unwrap_err();
    assert_eq!(
        err,
        FaultKind::MemoryViolation {
            address: end,
            write: false
        }
    );
    // An atomic whose lane 5 is just past the end: no lane's dword changes.
    let err = r
        .run("global_atomic_add v[2:3], v20, off offset:4")
        .unwrap_err();
    assert_eq!(
        err,
        FaultKind::MemoryViolation {
            address: end,
            write: true
        }
    );
    for l in 0..5u64 {
        let a = end - 8 * (5 - l);
        assert_eq!(r.read(a, 4), value_at(a, 4), "atomic lane {l}");
    }
    // Inactive lanes never fault.
    r.set_exec(0x1f);
    r.ok("global_load_dword v10, v[2:3], off offset:4");
}

#[test]
fn scratch_is_swizzled_per_dword_from_flat_scratch() {
    for wave64 in WAVES {
        let mut r = Rig::new(wave64);
        let n = r.lanes() as u64;
        r.set_v(1, |_| 8);
        r.set_v(20, |l| 0x100 + l as u32);
        r.set_v(21, |l| 0x200 + l as u32);
        let out = r.ok("scratch_store_dwordx2 v1, v[20:21], off offset:4");
        // Private bytes 12..20 of lane l: dwords 3 and 4.
        let mut want = Vec::new();
        for l in 0..n {
            let a3 = SCRATCH + 3 * 4 * n + 4 * l;
            let a4 = SCRATCH + 4 * 4 * n + 4 * l;
            assert_eq!(r.read(a3, 4), 0x100 + l);
            assert_eq!(r.read(a4, 4), 0x200 + l);
            want.push((l as u8, a3, 4));
            want.push((l as u8, a4, 4));
        }
        assert_access(&out, MemOp::VectorStore, &want);
        // Read back through an SGPR offset and through neither.
        r.s.sgpr[40] = 12;
        r.ok("scratch_load_dword v30, off, s40");
        r.ok("scratch_load_dword v31, off, off offset:16");
        r.ok("scratch_load_ushort v32, off, s40 offset:2");
        for l in 0..n as usize {
            assert_eq!(r.v(30, l), 0x100 + l as u32);
            assert_eq!(r.v(31, l), 0x200 + l as u32);
            assert_eq!(r.v(32, l), 0);
        }
        // FLAT to the private aperture reaches the same bytes.
        r.set_v(2, |_| 12);
        r.set_v(3, |_| (PRIVATE_APERTURE_BASE >> 32) as u32);
        r.ok("flat_load_dword v33, v[2:3]");
        for l in 0..n as usize {
            assert_eq!(r.v(33, l), 0x100 + l as u32);
        }
    }
}

#[test]
fn flat_dispatches_by_aperture() {
    for wave64 in WAVES {
        let mut r = Rig::new(wave64);
        let n = r.lanes();
        // Lanes alternate: even → LDS offset 4l, odd → global MEM + 4l.
        r.set_v(2, |l| {
            if l % 2 == 0 {
                4 * l as u32
            } else {
                (MEM + 4 * l as u64) as u32
            }
        });
        r.set_v(3, |l| {
            if l % 2 == 0 {
                (SHARED_APERTURE_BASE >> 32) as u32
            } else {
                0
            }
        });
        let out = r.ok("flat_load_dword v10, v[2:3] offset:8");
        for l in 0..n {
            let want = if l % 2 == 0 {
                r.lds_u32(4 * l + 8)
            } else {
                value_at(MEM + 4 * l as u64 + 8, 4) as u32
            };
            assert_eq!(r.v(10, l), want, "lane {l}");
        }
        assert_eq!(out.access.lanes[0], (0, SHARED_APERTURE_BASE + 8, 4));
        assert_eq!(out.access.lanes[1], (1, MEM + 12, 4));
        r.set_v(11, |l| 0xf000 + l as u32);
        let out = r.ok("flat_store_dword v[2:3], v11");
        for l in 0..n {
            let got = if l % 2 == 0 {
                r.lds_u32(4 * l)
            } else {
                r.read(MEM + 4 * l as u64, 4) as u32
            };
            assert_eq!(got, 0xf000 + l as u32);
        }
        assert_eq!(out.memory[0].space, crate::exec::MemSpace::Lds);
        assert_eq!(out.memory[1].space, crate::exec::MemSpace::Global);
        // LDS through the aperture is bounded by the allocation.
        r.set_v(2, |l| (LDS + 4 * l) as u32);
        r.set_v(3, |_| (SHARED_APERTURE_BASE >> 32) as u32);
        r.ok("flat_load_dword v12, v[2:3]");
        assert!((0..n).all(|l| r.v(12, l) == 0));
    }
}

#[test]
fn global_addtid_uses_lane_times_four() {
    let mut r = Rig::new(true);
    r.s.sgpr[10] = (MEM + 0x300) as u32;
    r.s.sgpr[11] = 0;
    r.ok("global_load_dword_addtid v10, s[10:11] offset:-4");
    for l in 0..64 {
        assert_eq!(r.v(10, l), value_at(MEM + 0x2fc + 4 * l as u64, 4) as u32);
    }
}

#[test]
fn exec_zero_and_high_half_only() {
    let mut r = Rig::new(true);
    addresses(&mut r);
    r.set_v(10, |_| 0x5555);
    r.set_exec(0);
    let out = r.ok("global_store_dword v[2:3], v10, off");
    assert_access(&out, MemOp::VectorStore, &[]);
    assert!(out.memory.is_empty());
    let out = r.ok("global_load_dword v11, v[2:3], off");
    assert!(out.vgpr.iter().all(|w| w.mask == 0));
    // Only lanes 32-63: the low half is neither read nor written.
    r.set_exec(0xffff_ffff_0000_0000);
    r.set_v(11, |_| 7);
    let out = r.ok("global_load_dword v11, v[2:3], off");
    assert_eq!(out.access.lanes.len(), 32);
    assert_eq!(out.access.lanes[0], (32, MEM + 0x100 + 8 * 32, 4));
    for l in 0..64 {
        let want = if l < 32 {
            7
        } else {
            value_at(MEM + 0x100 + 8 * l as u64, 4) as u32
        };
        assert_eq!(r.v(11, l), want, "lane {l}");
    }
}

#[test]
fn flat_atomic_on_lds_and_swizzled_structured_buffer() {
    let mut r = Rig::new(false);
    // All lanes add 1 to LDS dword 0x80 through the shared aperture.
    r.lds[0x80..0x84].copy_from_slice(&0u32.to_le_bytes());
    r.set_v(2, |_| 0x80);
    r.set_v(3, |_| (SHARED_APERTURE_BASE >> 32) as u32);
    r.set_v(4, |_| 1);
    r.ok("flat_atomic_add v5, v[2:3], v4 glc");
    assert_eq!(r.lds_u32(0x80), 32);
    assert!((0..32).all(|l| r.v(5, l) == l as u32));
    // A swizzled V# with stride 8 and index stride 16: record i, byte o at
    // (i / 16 * 8 + o / 4 * 4) * 16 + i % 16 * 4 + o % 4.
    r.s.sgpr[8] = (MEM + 0x800) as u32;
    r.s.sgpr[9] = 8 << 16 | 1 << 31;
    r.s.sgpr[10] = u32::MAX;
    r.s.sgpr[11] = 1 << 21 | 2 << 28;
    r.set_v(6, |l| l as u32);
    r.set_v(7, |_| 4);
    r.ok("buffer_load_dword v8, v[6:7], s[8:11], 0 idxen offen");
    for l in 0..32u64 {
        let a = MEM + 0x800 + (l / 16 * 8 + 4) * 16 + l % 16 * 4;
        assert_eq!(r.v(8, l as usize), value_at(a, 4) as u32, "lane {l}");
    }
}
