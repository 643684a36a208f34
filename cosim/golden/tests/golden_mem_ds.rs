//! Golden model: DS (LDS) semantics on gfx803, gfx1030 wave32 and wave64.
//! Per-lane inputs come from the MUBUF loader (see `golden_mem_common`); every
//! expected value is computed here from the lane number.

mod golden_mem_common;

use arch::isa::{Isa, Target};
use golden::testing::Kernel;
use golden_mem_common::{check, preamble, rows, run, ALL};

fn kernel(t: Target, rows_n: usize, data: Vec<u8>, body: &str, lds: u32) -> Kernel {
    let mut k = Kernel::new(t, &format!("{}{body}\ns_endpgm", preamble(t, rows_n))).data(&data);
    k.descriptor.group_segment_fixed_size = lds;
    k
}

const A: u32 = 0xf0f0_0080;
const B: u32 = 0x1234_5600;

#[test]
fn ds_reads_and_writes_of_every_width() {
    // v10 = 16 * lane, v11 = A | lane, v12 = B + lane.
    let data = rows(3, |k, l| match k {
        0 => 16 * l as u32,
        1 => A | l as u32,
        _ => B + l as u32,
    });
    let body = "
        ds_write_b32 v10, v11
        ds_write_b32 v10, v12 offset:4
        ds_write_b64 v10, v[11:12] offset:8
        ds_read_b32 v20, v10
        ds_read_u8 v21, v10
        ds_read_i8 v22, v10
        ds_read_u16 v23, v10 offset:2
        ds_read_i16 v24, v10 offset:2
        ds_read_b64 v[26:27], v10 offset:8
        ds_read_b128 v[28:31], v10
        ds_read_b96 v[36:38], v10 offset:4
        ds_write_b8 v10, v12 offset:1
        ds_write_b16 v10, v12 offset:6
        ds_read_b32 v32, v10
        ds_read_b32 v33, v10 offset:4
        ds_write_b96 v10, v[10:12] offset:1024
        ds_read_b96 v[40:42], v10 offset:1024
        ds_write_b128 v10, v[10:13] offset:2048
        ds_read_b128 v[44:47], v10 offset:2048";
    for t in ALL {
        let done = run(&kernel(t, 3, data.clone(), body, 4096));
        let w = &done.waves[0];
        let a = |l: usize| A | l as u32;
        let b = |l: usize| B + l as u32;
        check(w, 20, a);
        check(w, 21, |l| a(l) & 0xff);
        check(w, 22, |l| 0xffff_ff00 | a(l));
        check(w, 23, |_| 0xf0f0);
        check(w, 24, |_| 0xffff_f0f0);
        check(w, 26, a);
        check(w, 27, b);
        check(w, 28, a);
        check(w, 29, b);
        check(w, 30, a);
        check(w, 31, b);
        check(w, 36, b);
        check(w, 37, a);
        check(w, 38, b);
        check(w, 32, |l| (a(l) & 0xffff_00ff) | (b(l) & 0xff) << 8);
        check(w, 33, |l| (b(l) & 0xffff) | (b(l) & 0xffff) << 16);
        check(w, 40, |l| 16 * l as u32);
        check(w, 41, a);
        check(w, 42, b);
        check(w, 44, |l| 16 * l as u32);
        check(w, 47, |_| 0);
    }
}

/// The address VGPR plus the offset field wraps at 32 bits: LLVM leaves a
/// negative base in the VGPR and folds a constant into the offset
/// (`tile[63 - l]`), and the access lands where the 32-bit sum points. A
/// 64-bit sum put it past the allocation, reading 0 and dropping writes.
#[test]
fn ds_address_plus_offset_wraps_at_32_bits() {
    // v10 = 16 * lane - 256 (negative for lanes 0..15), v11 = A | lane,
    // v12 = 16 * lane.
    let data = rows(3, |k, l| match k {
        0 => (16 * l as u32).wrapping_sub(256),
        1 => A | l as u32,
        _ => 16 * l as u32,
    });
    let body = "
        ds_write_b32 v10, v11 offset:512
        ds_write2_b32 v10, v11, v11 offset0:130 offset1:131
        s_waitcnt lgkmcnt(0)
        ds_read_b32 v20, v12 offset:256
        ds_read_b32 v21, v10 offset:512
        ds_read2_b32 v[22:23], v10 offset0:128 offset1:130
        ds_read_b32 v24, v12 offset:264";
    for t in ALL {
        let done = run(&kernel(t, 3, data.clone(), body, 4096));
        let w = &done.waves[0];
        let a = |l: usize| A | l as u32;
        check(w, 20, a);
        check(w, 21, a);
        check(w, 22, a);
        check(w, 23, a);
        check(w, 24, a);
    }
}

#[test]
fn ds_d16_forms_gfx1030() {
    let data = rows(3, |k, l| match k {
        0 => 16 * l as u32,
        1 => A | l as u32,
        _ => B + l as u32,
    });
    let body = "
        ds_write_b32 v10, v11
        ds_write_b32 v10, v12 offset:4
        ds_read_b32 v20, v10 offset:4
        ds_read_u8_d16_hi v20, v10
        ds_read_b32 v21, v10 offset:4
        ds_read_i8_d16 v21, v10
        ds_read_b32 v22, v10 offset:4
        ds_read_u16_d16 v22, v10 offset:2
        ds_write_b16_d16_hi v10, v11 offset:12
        ds_write_b8_d16_hi v10, v12 offset:14
        ds_read_b32 v23, v10 offset:12";
    for t in [Target::GFX1030_W32, Target::GFX1030_W64] {
        let done = run(&kernel(t, 3, data.clone(), body, 4096));
        let w = &done.waves[0];
        let a = |l: usize| A | l as u32;
        let b = |l: usize| B + l as u32;
        check(w, 20, |l| (b(l) & 0xffff) | (a(l) & 0xff) << 16);
        check(w, 21, |l| (b(l) & 0xffff_0000) | 0xff00 | (a(l) & 0xff));
        check(w, 22, |l| (b(l) & 0xffff_0000) | 0xf0f0);
        check(w, 23, |l| (a(l) >> 16) | ((b(l) >> 16) & 0xff) << 16);
    }
}

#[test]
fn ds_two_address_forms_scale_offsets_by_element_size() {
    // v10 = 16 * lane, v11 = A | lane, v12 = B + lane, v13 = 4 * lane, v14 = 4096 + 32 * lane.
    let data = rows(5, |k, l| match k {
        0 => 16 * l as u32,
        1 => A | l as u32,
        2 => B + l as u32,
        3 => 4 * l as u32,
        _ => 4096 + 32 * l as u32,
    });
    let body = "
        ds_write2_b32 v10, v11, v12 offset0:1 offset1:3
        ds_read2_b32 v[20:21], v10 offset0:1 offset1:3
        ds_read_b32 v22, v10 offset:4
        ds_wrxchg2_rtn_b32 v[24:25], v10, v12, v11 offset0:1 offset1:3
        ds_read2_b32 v[26:27], v10 offset0:1 offset1:3
        ds_write2st64_b32 v13, v11, v12 offset0:1 offset1:2
        ds_read2st64_b32 v[28:29], v13 offset0:2 offset1:1
        ds_read_b32 v30, v13 offset:512
        ds_write2_b64 v14, v[11:12], v[10:11] offset0:1 offset1:3
        ds_read2_b64 v[32:35], v14 offset0:3 offset1:1
        ds_read_b32 v36, v14 offset:28";
    for t in ALL {
        let done = run(&kernel(t, 5, data.clone(), body, 8192));
        let w = &done.waves[0];
        let a = |l: usize| A | l as u32;
        let b = |l: usize| B + l as u32;
        check(w, 20, a);
        check(w, 21, b);
        check(w, 22, a);
        // wrxchg2 returns the old pair and swaps them.
        check(w, 24, a);
        check(w, 25, b);
        check(w, 26, b);
        check(w, 27, a);
        // st64: offsets in units of 64 elements (256 bytes).
        check(w, 28, b);
        check(w, 29, a);
        check(w, 30, b);
        check(w, 32, |l| 16 * l as u32);
        check(w, 33, a);
        check(w, 34, a);
        check(w, 35, b);
        check(w, 36, a);
    }
}

#[test]
fn ds_atomics_return_old_values_in_lane_order() {
    // v10 = 0 (shared address), v11 = lane + 1, v12 = 64 + 8 * lane, v13 = 5,
    // v14 = lane, v15 = 1024, v16 = 0xffffffff, v17 = 0, v18 = 1536, v19 = 1.0.
    let data = rows(10, |k, l| match k {
        0 => 0,
        1 => l as u32 + 1,
        2 => 64 + 8 * l as u32,
        3 => 5,
        4 => l as u32,
        5 => 1024,
        6 => u32::MAX,
        7 => 0,
        8 => 1536,
        _ => 1.0f32.to_bits(),
    });
    let body = "
        ds_add_rtn_u32 v20, v10, v11
        ds_read_b32 v21, v10
        ds_write_b32 v12, v14
        ds_max_rtn_u32 v22, v12, v13
        ds_read_b32 v23, v12
        ds_cmpst_rtn_b32 v24, v12, v13, v11
        ds_read_b32 v25, v12
        ds_mskor_rtn_b32 v26, v12, v13, v11
        ds_read_b32 v27, v12
        ds_inc_rtn_u32 v28, v10, v13
        ds_sub_u32 v10, v11
        ds_read_b32 v29, v10
        ds_add_rtn_u64 v[30:31], v15, v[16:17]
        ds_read_b64 v[32:33], v15
        ds_add_rtn_f32 v34, v18, v19
        ds_min_rtn_i32 v35, v12, v16
        ds_read_b32 v36, v12
        ds_wrxchg_rtn_b32 v37, v12, v13
        ds_rsub_rtn_u32 v38, v12, v11
        ds_read_b32 v39, v12
        ds_dec_rtn_u32 v40, v10, v13";
    for t in ALL {
        let done = run(&kernel(t, 10, data.clone(), body, 4096));
        let w = &done.waves[0];
        let n = w.lanes();
        let tri = |l: u32| l * (l + 1) / 2;
        check(w, 20, |l| tri(l as u32));
        check(w, 21, |_| tri(n));
        check(w, 22, |l| l as u32);
        let mx = |l: usize| (l as u32).max(5);
        check(w, 23, mx);
        check(w, 24, mx);
        let after_cmp = |l: usize| if mx(l) == 5 { l as u32 + 1 } else { l as u32 };
        check(w, 25, after_cmp);
        check(w, 26, after_cmp);
        let after_mskor = |l: usize| (after_cmp(l) & !5) | (l as u32 + 1);
        check(w, 27, after_mskor);
        // inc with limit 5: lane 0 sees the sum (>= 5, wraps to 0), then 0, 1, ..., 5, 0, ...
        check(w, 28, |l| if l == 0 { tri(n) } else { (l as u32 - 1) % 6 });
        check(w, 29, |_| ((n - 1) % 6).wrapping_sub(tri(n)));
        check(w, 30, |l| (l as u64 * 0xffff_ffff) as u32);
        check(w, 31, |l| ((l as u64 * 0xffff_ffff) >> 32) as u32);
        let total = u64::from(n) * 0xffff_ffff;
        check(w, 32, |_| total as u32);
        check(w, 33, |_| (total >> 32) as u32);
        check(w, 34, |l| (l as f32).to_bits());
        // min_i32 with -1: old is returned, memory becomes -1.
        check(w, 35, after_mskor);
        check(w, 36, |_| u32::MAX);
        check(w, 37, |_| u32::MAX);
        // rsub: mem = data - old = (lane + 1) - 5.
        check(w, 38, |_| 5);
        check(w, 39, |l| (l as u32 + 1).wrapping_sub(5));
        // dec (limit 5) on the shared dword, which holds (n-1)%6 - tri(n) (huge):
        // lane 0 sees it (> 5 -> 5), then 5, 4, ..., 0, 5, ...
        let first = ((n - 1) % 6).wrapping_sub(tri(n));
        check(w, 40, |l| {
            if l == 0 {
                first
            } else {
                5 - (l as u32 - 1) % 6
            }
        });
    }
}

#[test]
fn ds_swizzle_and_permutes_wrap_at_the_wave_size_or_half() {
    // v10 = 4 * lane + 4, v11 = 0x100 + lane, v12 = 4 * (lanes - 1 - lane) (per target), v13 = 4 * lane + 8.
    for t in ALL {
        let n = t.wave_size() as usize;
        let data = rows(4, |k, l| match k {
            0 => 4 * l as u32 + 4,
            1 => 0x100 + l as u32,
            2 => 4 * (n.saturating_sub(1 + l)) as u32,
            _ => 4 * l as u32 + 8,
        });
        let body = "
            ds_swizzle_b32 v20, v11 offset:swizzle(SWAP,1)
            ds_swizzle_b32 v21, v11 offset:swizzle(QUAD_PERM,3,2,1,0)
            ds_swizzle_b32 v22, v11 offset:swizzle(BROADCAST,8,2)
            ds_bpermute_b32 v23, v10, v11
            ds_permute_b32 v24, v12, v11
            ds_bpermute_b32 v25, v10, v11 offset:4
            ds_bpermute_b32 v26, v10, v11
            s_mov_b32 exec_lo, 0x55555555
            s_mov_b32 exec_hi, 0x55555555
            ds_bpermute_b32 v26, v13, v11
            ds_swizzle_b32 v27, v11 offset:swizzle(SWAP,1)";
        let done = run(&kernel(t, 4, data, body, 0));
        let w = &done.waves[0];
        let d = |l: usize| 0x100 + l as u32;
        // Lane l + k: gfx803 wraps at the wave size, gfx1030 within the
        // lane's 32-lane half (a wave64 permutes its halves separately).
        let plus = |l: usize, k: usize| match t.isa {
            Isa::Gfx803 => (l + k) % n,
            Isa::Gfx1030 => (l & 32) | ((l + k) & 31),
        };
        check(w, 20, |l| d(l ^ 1));
        check(w, 21, |l| d((l & !3) | (3 - (l & 3))));
        check(w, 22, |l| d((l & !7) | 2));
        check(w, 23, |l| d(plus(l, 1)));
        check(w, 24, |l| match t.isa {
            Isa::Gfx803 => d(n - 1 - l),
            Isa::Gfx1030 => d((l & 32) | (31 - (l & 31))),
        });
        check(w, 25, |l| d(plus(l, 2)));
        check(w, 26, |l| {
            if l % 2 == 0 {
                d(plus(l, 2))
            } else {
                d(plus(l, 1))
            }
        });
        // Even lanes read odd (inactive) lanes: 0. Odd lanes are not written.
        check(w, 27, |_| 0);
    }
}

#[test]
fn ds_out_of_range_reads_zero_and_drops_writes_and_gfx803_clamps_to_m0() {
    // LDS of 256 bytes. v10 = 8 * lane, v11 = lane + 1, v12 = 0xabc.
    let data = rows(3, |k, l| match k {
        0 => 8 * l as u32,
        1 => l as u32 + 1,
        _ => 0xabc,
    });
    let body = "
        ds_write_b32 v10, v11
        ds_read_b32 v20, v10
        ds_read_b64 v[22:23], v10 offset:248
        s_mov_b32 m0, 128
        ds_write_b32 v10, v12
        s_mov_b32 m0, -1
        ds_read_b32 v24, v10";
    for t in ALL {
        let done = run(&kernel(t, 3, data.clone(), body, 256));
        let w = &done.waves[0];
        // Lanes 32+ address 256 and beyond: dropped writes, zero reads.
        check(w, 20, |l| if l < 32 { l as u32 + 1 } else { 0 });
        check(w, 22, |l| if l == 0 { 32 } else { 0 });
        check(w, 23, |_| 0);
        check(w, 24, |l| match (t.isa, l) {
            // gfx803: M0 = 128 limits the second write to lanes 0-15.
            (Isa::Gfx803, 0..=15) => 0xabc,
            (Isa::Gfx803, 16..=31) => l as u32 + 1,
            (Isa::Gfx1030, 0..=31) => 0xabc,
            _ => 0,
        });
    }
}

#[test]
fn ds_append_and_consume_count_active_lanes() {
    let body = "
        s_mov_b32 m0, 16
        ds_append v20
        ds_append v21 offset:0
        s_mov_b32 exec_lo, 7
        s_mov_b32 exec_hi, 0
        ds_consume v22
        s_mov_b32 exec_lo, -1
        s_mov_b32 exec_hi, -1
        s_mov_b32 m0, -1
        ds_read_b32 v23, v1 offset:16";
    for t in ALL {
        let done = run(&kernel(t, 0, Vec::new(), body, 64));
        let w = &done.waves[0];
        let n = w.lanes();
        check(w, 20, |_| 0);
        check(w, 21, |_| n);
        check(w, 22, |l| if l < 3 { 2 * n } else { 0 });
        // v1 is 0 in every lane (work-item id Y of a 1-D grid).
        check(w, 23, |_| 2 * n - 3);
    }
}
