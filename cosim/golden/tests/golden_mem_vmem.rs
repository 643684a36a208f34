//! Golden model: FLAT, GLOBAL, SCRATCH, MUBUF and MTBUF semantics on gfx803,
//! gfx1030 wave32 and wave64: every width, sign extension and d16, atomics
//! returning old values, the LDS and private apertures, the swizzled scratch
//! layout shared by FLAT and MUBUF, buffer range checking, typed formats and
//! the fault for an unmapped global address.

mod golden_mem_common;

use arch::isa::{Isa, Target};
use golden::testing::{Kernel, DATA, SCRATCH};
use golden_mem_common::{check, preamble, rows, run, ALL};

const A: u32 = 0xc3d4_e5f6;
const B: u32 = 0x1111_0000;

fn a(l: usize) -> u32 {
    A ^ l as u32
}

fn b(l: usize) -> u32 {
    B + l as u32
}

#[test]
fn mubuf_add_tid_loader_and_offen_idxen_with_range_checks() {
    // v10 = 1000 + lane, v11 = 4 * lane, v12 = lane, v13 = 4, v14 = 1, v15 = 0, v16 = 8 * lane.
    let data = rows(7, |k, l| match k {
        0 => 1000 + l as u32,
        1 => 4 * l as u32,
        2 => l as u32,
        3 => 4,
        4 => 1,
        5 => 0,
        _ => 8 * l as u32,
    });
    for t in ALL {
        let raw_w3 = if t.isa == Isa::Gfx1030 { 3 << 28 } else { 0 };
        // s[16:19]: raw buffer at DATA+0x4000, 64 bytes. s[28:31]: stride 8,
        // 40 bytes (gfx803 counts bytes) / 5 records (gfx1030, OOB_SELECT 1 = index).
        // s[32:35]: raw, unlimited, at DATA+0x6000.
        let (records, idx_w3) = match t.isa {
            Isa::Gfx803 => (40, 0),
            Isa::Gfx1030 => (5, 1 << 28),
        };
        let fmt2 = match t.isa {
            Isa::Gfx803 => "[BUF_DATA_FORMAT_32_32,BUF_NUM_FORMAT_UINT]",
            Isa::Gfx1030 => "[BUF_FMT_32_32_UINT]",
        };
        let src = format!(
            "{pre}
            s_mov_b32 s16, {d4:#x}
            s_mov_b32 s17, 0
            s_mov_b32 s18, 64
            s_mov_b32 s19, {raw_w3:#x}
            s_mov_b32 s28, {d5:#x}
            s_mov_b32 s29, {stride8:#x}
            s_mov_b32 s30, {records}
            s_mov_b32 s31, {idx_w3:#x}
            s_mov_b32 s32, {d6:#x}
            s_mov_b32 s33, 0
            s_mov_b32 s34, -1
            s_mov_b32 s35, {raw_w3:#x}
            buffer_store_dword v10, v11, s[16:19], 0 offen
            buffer_load_dword v20, v11, s[16:19], 0 offen offset:4
            buffer_load_dwordx2 v[22:23], v11, s[16:19], 0 offen
            buffer_load_dword v24, v11, s[16:19], 8 offen
            buffer_store_dword v10, v12, s[28:31], 0 idxen offset:4
            buffer_load_dword v26, v[12:13], s[28:31], 0 idxen offen
            buffer_atomic_add v14, v15, s[16:19], 0 offen glc
            buffer_load_dword v27, off, s[16:19], 0
            buffer_load_ubyte v28, off, s[32:35], 0 offset:4095
            buffer_store_byte v10, v12, s[32:35], 0 offen offset:256
            buffer_load_sshort v29, v12, s[32:35], 0 offen offset:255
            tbuffer_store_format_xy v[10:11], v16, s[32:35], 0 format:{fmt2} offen offset:512
            tbuffer_load_format_xyzw v[30:33], v16, s[32:35], 0 format:{fmt2} offen offset:512
            buffer_atomic_cmpswap v[12:13], v16, s[32:35], 0 offen offset:512 glc
            buffer_load_dword v34, v16, s[32:35], 0 offen offset:512
            s_endpgm",
            pre = preamble(t, 7),
            d4 = DATA + 0x4000,
            d5 = DATA + 0x5000,
            d6 = DATA + 0x6000,
            stride8 = 8 << 16,
        );
        let done = run(&Kernel::new(t, &src).data(&data));
        let w = &done.waves[0];
        let n = w.lanes() as usize;
        // The loader itself.
        check(w, 10, |l| 1000 + l as u32);
        check(w, 16, |l| 8 * l as u32);
        // Raw buffer of 64 bytes: lanes 0-15 stored, the rest dropped (memory stays 0).
        for l in 0..n {
            let got = done.read_u32(DATA + 0x4000 + 4 * l as u64);
            let want = match l {
                0 => 1000 + n as u32, // then the atomic adds 1 per lane
                1..=15 => 1000 + l as u32,
                _ => 0,
            };
            assert_eq!(got, want, "{t:?}: raw buffer dword {l}");
        }
        check(w, 20, |l| if l < 15 { 1001 + l as u32 } else { 0 });
        // Range checking is per dword: lane 15's second dword is out of range.
        check(w, 22, |l| if l < 16 { 1000 + l as u32 } else { 0 });
        check(w, 23, |l| if l < 15 { 1001 + l as u32 } else { 0 });
        // soffset 8: gfx803 counts it against num_records, gfx1030 (raw) does
        // not, but the bytes past the 16 stored dwords are 0 either way.
        check(w, 24, |l| if l < 14 { 1002 + l as u32 } else { 0 });
        // Structured buffer: records 0-4 only.
        for l in 0..8 {
            let got = done.read_u32(DATA + 0x5000 + 8 * l + 4);
            let want = if l < 5 { 1000 + l as u32 } else { 0 };
            assert_eq!(got, want, "{t:?}: structured record {l}");
        }
        check(w, 26, |l| if l < 5 { 1000 + l as u32 } else { 0 });
        // Atomic with glc: every lane adds 1 to dword 0 and gets the old value.
        check(w, 14, |l| 1000 + l as u32);
        check(w, 27, |_| 1000 + n as u32);
        check(w, 28, |_| 0);
        // Byte stores at 256 + lane; sshort at 255 + lane reads bytes (lane-1, lane).
        check(w, 29, |l| {
            let lo = if l == 0 {
                0
            } else {
                (1000 + l as u32 - 1) & 0xff
            };
            let hi = (1000 + l as u32) & 0xff;
            (lo | hi << 8) as u16 as i16 as i32 as u32
        });
        // Typed 32_32: x, y from memory, z = 0, w = 1.
        check(w, 30, |l| 1000 + l as u32);
        check(w, 31, |l| 4 * l as u32);
        check(w, 32, |_| 0);
        check(w, 33, |_| 1);
        // cmpswap {src = lane, cmp = 4}: memory (1000 + lane) never equals 4, so it
        // is kept and the old value comes back in v12.
        check(w, 12, |l| 1000 + l as u32);
        check(w, 34, |l| 1000 + l as u32);
    }
}

#[test]
fn flat_and_global_loads_and_stores_of_every_width() {
    // v10/v11 = DATA+0x8000+16*lane, v12 = A^lane, v13 = B+lane, v14/v15 = +4, v16/v17 = +8, v18 = 16*lane.
    let base = DATA + 0x8000;
    let data = rows(9, |k, l| match k {
        0 => (base + 16 * l as u64) as u32,
        2 => a(l),
        3 => b(l),
        4 => (base + 16 * l as u64 + 4) as u32,
        6 => (base + 16 * l as u64 + 8) as u32,
        8 => 16 * l as u32,
        _ => 0,
    });
    let body = "
        flat_store_dword v[10:11], v12
        flat_store_dword v[14:15], v13
        flat_load_dword v20, v[10:11]
        flat_load_ubyte v21, v[10:11]
        flat_load_sbyte v22, v[10:11]
        flat_load_ushort v23, v[10:11]
        flat_load_sshort v24, v[10:11]
        flat_load_dwordx2 v[26:27], v[10:11]
        flat_store_dwordx2 v[16:17], v[12:13]
        flat_load_dwordx4 v[28:31], v[10:11]
        flat_store_byte v[14:15], v12
        flat_store_short v[16:17], v13
        flat_load_dword v32, v[14:15]
        flat_load_dword v33, v[16:17]
        flat_load_dwordx3 v[34:36], v[10:11]
        flat_store_dwordx3 v[10:11], v[12:14]
        flat_load_dwordx3 v[37:39], v[10:11]
        flat_store_dwordx4 v[10:11], v[10:13]";
    for t in ALL {
        let src = format!("{}{body}\ns_endpgm", preamble(t, 9));
        let done = run(&Kernel::new(t, &src).data(&data));
        let w = &done.waves[0];
        check(w, 20, a);
        check(w, 21, |l| a(l) & 0xff);
        check(w, 22, |l| a(l) as u8 as i8 as i32 as u32);
        check(w, 23, |l| a(l) & 0xffff);
        check(w, 24, |l| a(l) as u16 as i16 as i32 as u32);
        check(w, 26, a);
        check(w, 27, b);
        check(w, 28, a);
        check(w, 29, b);
        check(w, 30, a);
        check(w, 31, b);
        let d1 = |l: usize| (b(l) & !0xff) | (a(l) & 0xff);
        let d2 = |l: usize| (a(l) & !0xffff) | (b(l) & 0xffff);
        check(w, 32, d1);
        check(w, 33, d2);
        check(w, 34, a);
        check(w, 35, d1);
        check(w, 36, d2);
        check(w, 37, a);
        check(w, 38, b);
        check(w, 39, |l| (base + 16 * l as u64 + 4) as u32);
        for l in 0..w.lanes() as usize {
            let at = base + 16 * l as u64;
            let mem: Vec<u32> = (0..4).map(|i| done.read_u32(at + 4 * i)).collect();
            assert_eq!(mem, [at as u32, 0, a(l), b(l)], "{t:?} lane {l}");
        }
    }
}

#[test]
fn global_saddr_offsets_d16_and_addtid_gfx1030() {
    let base = DATA + 0x8000;
    let data = rows(9, |k, l| match k {
        0 => (base + 16 * l as u64) as u32,
        2 => a(l),
        3 => b(l),
        4 => (base + 16 * l as u64 + 4) as u32,
        8 => 16 * l as u32,
        _ => 0,
    });
    let body = format!(
        "
        s_mov_b32 s20, {lo:#x}
        s_mov_b32 s21, 0
        global_store_dword v18, v12, s[20:21]
        global_store_dword v[14:15], v13, off
        global_load_dword v40, v18, s[20:21]
        global_load_dword v41, v18, s[20:21] offset:4
        global_load_dword v42, v[14:15], off offset:-4
        global_store_short_d16_hi v18, v12, s[20:21] offset:8
        global_store_byte_d16_hi v18, v13, s[20:21] offset:10
        global_load_dword v43, v18, s[20:21] offset:8
        global_load_dword v44, v18, s[20:21]
        global_load_short_d16_hi v44, v18, s[20:21] offset:4
        global_load_dword v45, v18, s[20:21]
        global_load_sbyte_d16 v45, v18, s[20:21]
        global_load_dword v46, v18, s[20:21]
        global_load_ubyte_d16_hi v46, v18, s[20:21] offset:5
        global_load_dword_addtid v47, s[20:21] offset:4
        s_endpgm",
        lo = base
    );
    for t in [Target::GFX1030_W32, Target::GFX1030_W64] {
        let src = format!("{}{body}", preamble(t, 9));
        let done = run(&Kernel::new(t, &src).data(&data));
        let w = &done.waves[0];
        check(w, 40, a);
        check(w, 41, b);
        check(w, 42, a);
        check(w, 43, |l| (a(l) >> 16) | ((b(l) >> 16) & 0xff) << 16);
        check(w, 44, |l| (a(l) & 0xffff) | (b(l) & 0xffff) << 16);
        check(w, 45, |l| {
            (a(l) & 0xffff_0000) | u32::from(a(l) as u8 as i8 as i16 as u16)
        });
        check(w, 46, |l| (a(l) & 0xffff) | ((b(l) >> 8) & 0xff) << 16);
        check(w, 47, |l| done.read_u32(base + 4 * l as u64 + 4));
    }
}

#[test]
fn flat_atomics_return_pre_op_values_with_glc() {
    // v10/v11 = shared address, v12 = lane + 1, v13 = 7, v14/v15 = per-lane address, v16 = lane.
    let shared = DATA + 0x9000;
    let per = DATA + 0xa000;
    let data = rows(7, |k, l| match k {
        0 => shared as u32,
        2 => l as u32 + 1,
        3 => 7,
        4 => (per + 8 * l as u64) as u32,
        6 => l as u32,
        _ => 0,
    });
    let body = "
        flat_atomic_add v20, v[10:11], v12 glc
        flat_atomic_add v[10:11], v12
        flat_load_dword v21, v[10:11]
        flat_store_dword v[14:15], v16
        flat_atomic_umax v22, v[14:15], v13 glc
        flat_atomic_cmpswap v23, v[14:15], v[12:13] glc
        flat_load_dword v24, v[14:15]
        flat_atomic_swap_x2 v[26:27], v[14:15], v[12:13] glc
        flat_atomic_add_x2 v[28:29], v[14:15], v[12:13] glc
        flat_load_dwordx2 v[30:31], v[14:15]
        flat_atomic_smin v32, v[10:11], v13 glc
        flat_atomic_inc v33, v[10:11], v13 glc
        flat_atomic_sub v34, v[14:15], v13 glc
        flat_atomic_xor v35, v[14:15], v12 glc
        flat_load_dword v36, v[14:15]";
    for t in ALL {
        let src = format!("{}{body}\ns_endpgm", preamble(t, 7));
        let done = run(&Kernel::new(t, &src).data(&data));
        let w = &done.waves[0];
        let n = w.lanes();
        let tri = |l: u32| l * (l + 1) / 2;
        check(w, 20, |l| tri(l as u32));
        check(w, 21, |_| 2 * tri(n));
        check(w, 22, |l| l as u32);
        let mx = |l: usize| (l as u32).max(7);
        check(w, 23, mx);
        let after = |l: usize| if mx(l) == 7 { l as u32 + 1 } else { l as u32 };
        check(w, 24, after);
        check(w, 26, after);
        check(w, 27, |_| 0);
        check(w, 28, |l| l as u32 + 1);
        check(w, 29, |_| 7);
        check(w, 30, |l| 2 * (l as u32 + 1));
        check(w, 31, |_| 14);
        // smin with 7 on 2*tri(n) (> 7): lane 0 sees it, the rest see 7.
        check(w, 32, |l| if l == 0 { 2 * tri(n) } else { 7 });
        // inc with limit 7 starting from 7: 7 -> 0, then 0, 1, ..., 7, 0, ...
        check(w, 33, |l| if l == 0 { 7 } else { (l as u32 - 1) % 8 });
        let d = |l: usize| 2 * (l as u32 + 1);
        check(w, 34, d);
        check(w, 35, |l| d(l).wrapping_sub(7));
        check(w, 36, |l| d(l).wrapping_sub(7) ^ (l as u32 + 1));
    }
}

#[test]
fn flat_reaches_lds_and_private_apertures_and_scratch_matches_mubuf() {
    // v10 = 4 * lane, v11 = shared aperture high, v12 = A^lane, v13 = B+lane,
    // v14 = 8 (private offset), v15 = private aperture high, v16 = 12,
    // v17/v18 = LDS aperture address of byte 512 + 4 * lane.
    let data = rows(9, |k, l| match k {
        0 => 4 * l as u32,
        1 => 0x1_0000,
        2 => a(l),
        3 => b(l),
        4 => 8,
        5 => 0x2_0000,
        6 => 12,
        7 => 512 + 4 * l as u32,
        _ => 0x1_0000,
    });
    for t in ALL {
        let lanes = u64::from(t.wave_size());
        let setup = match t.isa {
            // Offset flat scratch: FLAT_SCRATCH_HI = (SCRATCH - hidden base) / 256.
            Isa::Gfx803 => format!(
                "s_mov_b32 flat_scratch_lo, 64\ns_mov_b32 flat_scratch_hi, {:#x}",
                SCRATCH >> 8
            ),
            Isa::Gfx1030 => format!(
                "s_mov_b32 s40, {SCRATCH:#x}\ns_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s40\n\
                 s_mov_b32 s40, 0\ns_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s40"
            ),
        };
        // The private segment V# the dispatcher would give: swizzled, index stride = wave size.
        let stride_code = if lanes == 64 { 3 } else { 2 };
        let w3: u32 = match t.isa {
            Isa::Gfx803 => (1 << 19) | (stride_code << 21) | (1 << 23),
            Isa::Gfx1030 => (stride_code << 21) | (1 << 23) | (2 << 28),
        };
        let scratch_only = if t.isa == Isa::Gfx1030 {
            "scratch_store_dword v16, v13, off
            scratch_load_dword v24, off, off offset:12
            s_mov_b32 s41, 12
            scratch_load_dword v25, off, s41
            scratch_store_short off, v12, s41 offset:4
            scratch_load_dword v26, v16, off offset:4"
        } else {
            ""
        };
        let src = format!(
            "{pre}
            {setup}
            s_mov_b32 s24, {SCRATCH:#x}
            s_mov_b32 s25, 0x80000000
            s_mov_b32 s26, -1
            s_mov_b32 s27, {w3:#x}
            flat_store_dword v[10:11], v12
            ds_read_b32 v20, v10
            ds_write_b32 v10, v13 offset:512
            flat_load_dword v21, v[17:18]
            flat_store_dword v[14:15], v12
            flat_load_dword v22, v[14:15]
            buffer_load_dword v23, off, s[24:27], 0 offset:8
            {scratch_only}
            s_endpgm",
            pre = preamble(t, 9),
        );
        let mut k = Kernel::new(t, &src).data(&data);
        k.descriptor.group_segment_fixed_size = 1024;
        k.descriptor.private_segment_fixed_size = 64;
        let done = run(&k);
        let w = &done.waves[0];
        check(w, 20, a);
        check(w, 21, b);
        // Private dword 2 of lane l lives at SCRATCH + 2 * 4 * lanes + 4 * l.
        for l in 0..lanes {
            assert_eq!(
                done.read_u32(SCRATCH + 8 * lanes + 4 * l),
                a(l as usize),
                "{t:?}: swizzled scratch lane {l}"
            );
        }
        check(w, 22, a);
        check(w, 23, a);
        if t.isa == Isa::Gfx1030 {
            check(w, 24, b);
            check(w, 25, b);
            // The short went to private offset 16 (s41 + 4), a fresh dword.
            check(w, 26, |l| a(l) & 0xffff);
            for l in 0..lanes {
                assert_eq!(
                    done.read_u32(SCRATCH + 12 * lanes + 4 * l),
                    b(l as usize),
                    "{t:?}: scratch_store_dword lane {l}"
                );
            }
        }
    }
}

#[test]
fn flat_lds_aperture_reads_what_ds_wrote_and_bounds_it() {
    // v10 = 4 * lane (+ the allocation end for lanes 32+), v11 = shared aperture high, v12 = A^lane.
    let data = rows(3, |k, l| match k {
        0 => 4 * l as u32 + if l >= 32 { 1024 } else { 0 },
        1 => 0x1_0000,
        _ => a(l),
    });
    let body = "
        ds_write_b32 v10, v12
        flat_load_dword v20, v[10:11]
        flat_store_dword v[10:11], v10
        ds_read_b32 v21, v10";
    for t in ALL {
        let src = format!("{}{body}\ns_endpgm", preamble(t, 3));
        let mut k = Kernel::new(t, &src).data(&data);
        k.descriptor.group_segment_fixed_size = 1024;
        let done = run(&k);
        let w = &done.waves[0];
        check(w, 20, |l| if l < 32 { a(l) } else { 0 });
        check(w, 21, |l| if l < 32 { 4 * l as u32 } else { 0 });
    }
}

#[test]
fn unmapped_global_access_faults_naming_the_address_and_instruction() {
    let data = rows(2, |k, _| if k == 0 { 0xdead_0000 } else { 0 });
    for t in ALL {
        let (inst, body) = match t.isa {
            Isa::Gfx803 => (
                "flat_load_dword v1, v[10:11]",
                "flat_load_dword v1, v[10:11]".to_string(),
            ),
            Isa::Gfx1030 => (
                "global_load_dword v1, v0, s[20:21]",
                "s_mov_b32 s20, 0xdead0000\ns_mov_b32 s21, 0\nglobal_load_dword v1, v0, s[20:21]"
                    .to_string(),
            ),
        };
        let src = format!("{}{body}\ns_endpgm", preamble(t, 2));
        let err = Kernel::new(t, &src)
            .data(&data)
            .run()
            .err()
            .unwrap_or_else(|| panic!("{t:?}: expected a fault"));
        assert!(
            err.contains("read of unmapped address 0xdead0000"),
            "{t:?}: {err}"
        );
        assert!(err.contains(inst), "{t:?}: {err}");
        // A store faults as a write.
        let store = format!(
            "{}s_mov_b32 s20, 0xbeef000\ns_mov_b32 s21, 0\n{}\ns_endpgm",
            preamble(t, 2),
            match t.isa {
                Isa::Gfx803 => "flat_store_dword v[10:11], v0",
                Isa::Gfx1030 => "global_store_dword v0, v0, s[20:21] offset:16",
            }
        );
        let err = Kernel::new(t, &store)
            .data(&data)
            .run()
            .err()
            .unwrap_or_default();
        let addr = match t.isa {
            Isa::Gfx803 => "0xdead0000",
            Isa::Gfx1030 => "0xbeef010",
        };
        assert!(
            err.contains(&format!("write of unmapped address {addr}")),
            "{t:?}: {err}"
        );
    }
}
