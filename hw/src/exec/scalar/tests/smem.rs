//! SMEM loads over a small backing store.

use arch::device::FaultKind;

use super::{sgprs, Bench, WAVES};
use crate::exec::MemOp;

const BASE: u64 = 0x1_0000;
const SIZE: u64 = 0x100;

/// Memory at `BASE` holding dword `i` = `0xd000_0000 + i`; `s[2:3]` = `BASE`.
fn bench(wave64: bool) -> Bench {
    let mut t = Bench::new(wave64);
    t.mem.map(BASE, SIZE).expect("map");
    for i in 0..SIZE / 4 {
        t.mem
            .write_u32(BASE + 4 * i, 0xd000_0000 + i as u32)
            .expect("write");
    }
    t.s.sgpr[2] = BASE as u32;
    t.s.sgpr[3] = (BASE >> 32) as u32;
    t
}

/// The expected `(code, value)` writes of `n` dwords from dword index `first`.
fn dwords(dst: u8, first: u32, n: u32) -> Vec<(u8, u32)> {
    (0..n)
        .map(|i| (dst + i as u8, 0xd000_0000 + first + i))
        .collect()
}

#[test]
fn load_immediate_offset() {
    for wave64 in WAVES {
        let mut t = bench(wave64);
        let w = t.run("s_load_dwordx4 s[4:7], s[2:3], 0x10");
        assert_eq!(sgprs(&w), dwords(4, 4, 4));
        assert_eq!(w.access.op, MemOp::ScalarLoad);
        assert_eq!(w.access.lanes, vec![(0, BASE + 0x10, 16)]);
        assert_eq!(w.scc, None);
        let w = t.run("s_load_dword s4, s[2:3], 0x0");
        assert_eq!(sgprs(&w), dwords(4, 0, 1));
        let w = t.run("s_load_dwordx2 s[4:5], s[2:3], 0x8");
        assert_eq!(sgprs(&w), dwords(4, 2, 2));
        let w = t.run("s_load_dwordx8 s[8:15], s[2:3], 0x20");
        assert_eq!(sgprs(&w), dwords(8, 8, 8));
        let w = t.run("s_load_dwordx16 s[16:31], s[2:3], 0x40");
        assert_eq!(sgprs(&w), dwords(16, 16, 16));
        assert_eq!(w.access.lanes, vec![(0, BASE + 0x40, 64)]);
    }
}

#[test]
fn load_register_and_negative_offsets_and_alignment() {
    let mut t = bench(false);
    t.s.sgpr[8] = 0x20;
    let w = t.run("s_load_dword s4, s[2:3], s8");
    assert_eq!(sgprs(&w), dwords(4, 8, 1));
    // soffset and the immediate add up.
    let w = t.run("s_load_dword s4, s[2:3], s8 offset:0x4");
    assert_eq!(sgprs(&w), dwords(4, 9, 1));
    // The 21-bit immediate is signed.
    t.s.sgpr[2] = (BASE + 0x10) as u32;
    let w = t.run("s_load_dword s4, s[2:3], -0x8");
    assert_eq!(sgprs(&w), dwords(4, 2, 1));
    assert_eq!(w.access.lanes, vec![(0, BASE + 0x8, 4)]);
    // The two low address bits are ignored.
    t.s.sgpr[2] = (BASE + 0x13) as u32;
    let w = t.run("s_load_dword s4, s[2:3], 0x0");
    assert_eq!(sgprs(&w), dwords(4, 4, 1));
    assert_eq!(w.access.lanes, vec![(0, BASE + 0x10, 4)]);
}

#[test]
fn load_from_unmapped_memory_faults_at_the_first_unmapped_byte() {
    let mut t = bench(true);
    let inst = t.inst("s_load_dwordx2 s[4:5], s[2:3], 0xfc");
    assert_eq!(
        t.exec(&inst).err(),
        Some(FaultKind::MemoryViolation {
            address: BASE + SIZE,
            write: false
        })
    );
    t.s.sgpr[2] = 0;
    let inst = t.inst("s_load_dword s4, s[2:3], 0x40");
    assert_eq!(
        t.exec(&inst).err(),
        Some(FaultKind::MemoryViolation {
            address: 0x40,
            write: false
        })
    );
}

/// Puts a V# at `s[8:11]`: base `BASE + 0x80`, `stride`, `num_records`.
fn descriptor(t: &mut Bench, stride: u32, num_records: u32) {
    let base = BASE + 0x80;
    t.s.sgpr[8] = base as u32;
    t.s.sgpr[9] = (base >> 32) as u32 | stride << 16;
    t.s.sgpr[10] = num_records;
    t.s.sgpr[11] = 0x3102_0fac; // format bits; ignored by scalar loads
}

#[test]
fn buffer_load_in_range() {
    for wave64 in WAVES {
        let mut t = bench(wave64);
        descriptor(&mut t, 0, 0x80);
        let w = t.run("s_buffer_load_dwordx4 s[4:7], s[8:11], 0x10");
        // BASE + 0x80 + 0x10 is dword 0x24.
        assert_eq!(sgprs(&w), dwords(4, 0x24, 4));
        assert_eq!(w.access.op, MemOp::ScalarLoad);
        assert_eq!(w.access.lanes, vec![(0, BASE + 0x90, 16)]);
        t.s.sgpr[12] = 8;
        let w = t.run("s_buffer_load_dwordx2 s[4:5], s[8:11], s12");
        assert_eq!(sgprs(&w), dwords(4, 0x22, 2));
    }
}

#[test]
fn buffer_load_out_of_range_reads_zero() {
    let mut t = bench(false);
    // NUM_RECORDS = 8 bytes: dwords 0 and 1 are in range.
    descriptor(&mut t, 0, 8);
    let w = t.run("s_buffer_load_dwordx4 s[4:7], s[8:11], 0x0");
    assert_eq!(
        sgprs(&w),
        vec![(4, 0xd000_0020), (5, 0xd000_0021), (6, 0), (7, 0)]
    );
    // With STRIDE 4 the limit is NUM_RECORDS × 4 = 12 bytes.
    descriptor(&mut t, 4, 3);
    let w = t.run("s_buffer_load_dwordx4 s[4:7], s[8:11], 0x0");
    assert_eq!(
        sgprs(&w),
        vec![(4, 0xd000_0020), (5, 0xd000_0021), (6, 0xd000_0022), (7, 0)]
    );
    // Out-of-range dwords are not read, so unmapped memory past the range is fine:
    // the buffer's last 0x80 bytes are mapped, its next 0x80 are not.
    descriptor(&mut t, 0, 0x80);
    let w = t.run("s_buffer_load_dwordx16 s[16:31], s[8:11], 0x70");
    let mut want = dwords(16, 0x3c, 4);
    want.extend((20..32).map(|c| (c as u8, 0)));
    assert_eq!(sgprs(&w), want);
    // In range but unmapped is still a fault.
    descriptor(&mut t, 0, 0x1000);
    let inst = t.inst("s_buffer_load_dwordx2 s[4:5], s[8:11], 0x7c");
    assert_eq!(
        t.exec(&inst).err(),
        Some(FaultKind::MemoryViolation {
            address: BASE + SIZE,
            write: false
        })
    );
}

#[test]
fn memtime_and_cache_control() {
    let mut t = bench(false);
    t.cycle = 0x1_0000_0002;
    let w = t.run("s_memtime s[4:5]");
    assert_eq!(sgprs(&w), vec![(4, 2), (5, 1)]);
    let w = t.run("s_memrealtime s[6:7]");
    assert_eq!(sgprs(&w), vec![(6, 2), (7, 1)]);
    for text in ["s_dcache_inv", "s_gl1_inv"] {
        let w = t.run(text);
        assert!(w.sgpr.is_empty() && w.access.lanes.is_empty(), "{text}");
        assert_eq!(w.access.op, MemOp::None);
    }
}
