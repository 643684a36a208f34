//! The full Navi 21 hierarchy (`hw/configs/navi21.yaml`): GL1 caches shared
//! by a shader array, 16 L2 channels, the Infinity Cache between L2 and
//! DRAM. Directed requests on the memory system alone: each level answers
//! where it should, with the latency of its path, the counters say which
//! level answered, runs are deterministic, and the new blocks are traced.

use hw::mem::{Access, MemRequest, MemSystem, Unit};
use hw::{ClockedGpu, GpuConfig};

fn read(tag: u16, address: u64) -> MemRequest {
    MemRequest {
        tag,
        access: Access::Read,
        address,
        bytes: 4,
        bypass: false,
    }
}

fn navi21() -> (MemSystem, GpuConfig) {
    let c = GpuConfig::navi21();
    (MemSystem::new(&c.memory, c.cus as usize), c)
}

/// Issues `req` on (`cu`, vector) and ticks until its response; the latency.
fn latency(m: &mut MemSystem, cu: usize, req: MemRequest) -> u64 {
    assert!(m.can_accept(cu, Unit::Vector));
    let start = m.cycle();
    m.request(cu, Unit::Vector, req);
    let mut out = Vec::new();
    for _ in 0..100_000 {
        m.tick();
        m.take_responses(cu, Unit::Vector, &mut out);
        if !out.is_empty() {
            assert_eq!(out[0].tag, req.tag);
            return m.cycle() - start;
        }
    }
    panic!("no response");
}

#[test]
fn each_level_answers_in_turn_with_its_path_latency() {
    let (mut m, c) = navi21();
    let mem = &c.memory;
    let g = mem.gl1.as_ref().unwrap();
    let ic = mem.infinity_cache.as_ref().unwrap();
    let line = u64::from(mem.line_bytes);
    // Cold: misses everywhere, DRAM (row miss).
    let dram = latency(&mut m, 0, read(1, 0x10_0000));
    // Same CU again: L0 hit.
    let l0 = latency(&mut m, 0, read(2, 0x10_0000));
    assert_eq!(l0, u64::from(mem.vector_cache.hit_latency));
    // Another CU of the same shader array (CUs 0–9): GL1 hit.
    let gl1 = latency(&mut m, 1, read(3, 0x10_0000));
    let h = u64::from(mem.vector_cache.hit_latency);
    let f = u64::from(mem.line_bytes / mem.xbar.flit_bytes);
    assert_eq!(gl1, h + 1 + u64::from(g.hit_latency) + f + 1);
    // A CU of another array (CU 79): its GL1 misses, the L2 hits.
    let l2 = latency(&mut m, 79, read(4, 0x10_0000));
    let x = u64::from(mem.xbar.latency);
    assert_eq!(
        l2,
        h + 1
            + u64::from(g.hit_latency)
            + 1
            + x
            + u64::from(mem.l2.hit_latency)
            + 1
            + x
            + f
            + 1
            + f
    );
    assert!(l0 < gl1 && gl1 < l2 && l2 < dram);
    let s = m.stats();
    let gs = s.gl1.as_ref().unwrap();
    assert_eq!((gs.hits, gs.misses), (1, 2));
    assert_eq!((s.l2.hits, s.l2.misses), (1, 1));
    let is = s.infinity_cache.as_ref().unwrap();
    assert_eq!((is.hits, is.misses), (0, 1));
    assert_eq!(s.dram_bytes_read, line);
    // Push the line out of the 4 MiB L2 with lines of the same channel and
    // set (16 channels × 128 sets apart), read through a CU of a third array:
    // an Infinity Cache hit, slower than the L2 by the slice's latency.
    let stride = u64::from(mem.l2.channels) * u64::from(mem.l2.size_bytes / mem.l2.ways);
    for k in 1..=u64::from(mem.l2.ways) {
        let cu = 20;
        latency(&mut m, cu, read(10 + k as u16, 0x10_0000 + k * stride));
    }
    let before = m.stats().infinity_cache.unwrap().hits;
    let ic_hit = latency(&mut m, 40, read(5, 0x10_0000));
    assert_eq!(m.stats().infinity_cache.unwrap().hits, before + 1);
    let transfer = u64::from(mem.line_bytes).div_ceil(u64::from(ic.bytes_per_cycle));
    assert_eq!(ic_hit, l2 + u64::from(ic.hit_latency) + transfer + 1);
    assert!(ic_hit < dram);
}

#[test]
fn the_same_requests_take_the_same_cycles() {
    let run = || {
        let (mut m, _) = navi21();
        let mut total = Vec::new();
        for (i, cu) in [0usize, 5, 12, 33, 79, 0, 12].into_iter().enumerate() {
            total.push(latency(&mut m, cu, read(i as u16, 0x4000 * (i as u64 % 3))));
        }
        (total, m.stats())
    };
    assert_eq!(run(), run());
}

#[test]
fn gl1_and_infinity_cache_blocks_are_traced_only_when_configured() {
    let names = |c: GpuConfig| {
        let gpu = ClockedGpu::new(c).unwrap();
        let mut t = traces::Tracer::names();
        traces::Probe::probe(&gpu, "gpu", &mut t);
        t.end_walk();
        t.declared()
    };
    let n = names(GpuConfig::navi21());
    for want in [".gl1_7.", ".ic_15.", "fills_ready"] {
        assert!(n.iter().any(|s| s.contains(want)), "no signal with {want}");
    }
    let d = names(GpuConfig::default_config());
    assert!(!d.iter().any(|s| s.contains(".gl1_") || s.contains(".ic_")));
}
