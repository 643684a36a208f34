//! The instruction cache shared by the two CUs of a WGP, with 64-byte lines
//! (RDNA2; issue 29 item 10): what one CU fetched the other hits, lines are
//! 64 bytes, and the two CUs' fetch ports are arbitrated into the cache's one
//! input, one request per cycle.

use hw::mem::{Access, MemConfig, MemRequest, MemResponse, MemSystem, Unit};

fn fetch(tag: u16, address: u64) -> MemRequest {
    MemRequest {
        tag,
        access: Access::Read,
        address,
        bytes: 32,
        bypass: false,
    }
}

/// Offers `reqs` (CU, request) in one cycle and ticks until each has its
/// response; returns each one's latency, in the order given.
fn latencies(m: &mut MemSystem, reqs: &[(usize, MemRequest)]) -> Vec<u64> {
    let start = m.cycle();
    for &(cu, r) in reqs {
        assert!(m.can_accept(cu, Unit::Inst), "cu {cu} cannot fetch");
        m.request(cu, Unit::Inst, r);
    }
    let mut done = vec![None; reqs.len()];
    let mut out = Vec::new();
    for _ in 0..100_000 {
        m.tick();
        for (i, &(cu, r)) in reqs.iter().enumerate() {
            out.clear();
            m.take_responses(cu, Unit::Inst, &mut out);
            if !out.is_empty() {
                assert_eq!(out, vec![MemResponse { tag: r.tag }]);
                done[i] = Some(m.cycle() - start);
            }
        }
        if done.iter().all(Option::is_some) {
            return done.into_iter().flatten().collect();
        }
    }
    panic!("no response: {done:?}");
}

/// Ticks until nothing is in flight.
fn drain(m: &mut MemSystem) {
    for _ in 0..100_000 {
        if !m.busy() {
            return;
        }
        m.tick();
    }
    panic!("hierarchy never went idle");
}

#[test]
fn the_two_cus_of_a_wgp_share_one_instruction_cache() {
    let c = MemConfig::default();
    assert_eq!((c.inst_cache_cus, c.inst_line_bytes), (2, 64));
    let hit = u64::from(c.inst_cache.hit_latency);
    let mut m = MemSystem::new(&c, 4);
    let miss = latencies(&mut m, &[(0, fetch(1, 0x1000))])[0];
    assert!(miss > 3 * hit, "a cold fetch goes to the L2: {miss}");
    drain(&mut m);
    // CU 1 is CU 0's WGP partner: it hits what CU 0 fetched (with a cache
    // per CU, as before, it missed).
    assert_eq!(latencies(&mut m, &[(1, fetch(2, 0x1000))]), vec![hit]);
    // CU 2 is in the next WGP: its own cache misses (an L2 hit now).
    let other = latencies(&mut m, &[(2, fetch(3, 0x1000))])[0];
    assert!(other > 3 * hit && other < miss, "{other}");
    drain(&mut m);
    let s = m.stats();
    assert_eq!((s.inst.hits, s.inst.misses), (1, 2));
    // `inst_cache_cus: 1` is the per-CU cache.
    let mut m = MemSystem::new(
        &MemConfig {
            inst_cache_cus: 1,
            ..c.clone()
        },
        4,
    );
    latencies(&mut m, &[(0, fetch(1, 0x1000))]);
    drain(&mut m);
    let private = latencies(&mut m, &[(1, fetch(2, 0x1000))])[0];
    assert!(private > 3 * hit, "{private}");
}

#[test]
fn instruction_cache_lines_are_64_bytes() {
    let c = MemConfig::default();
    let hit = u64::from(c.inst_cache.hit_latency);
    let mut m = MemSystem::new(&c, 2);
    let miss = latencies(&mut m, &[(0, fetch(1, 0x2000))])[0];
    drain(&mut m);
    assert_eq!(latencies(&mut m, &[(0, fetch(2, 0x2020))]), vec![hit]);
    // The next 64 bytes are another line (with the 128-byte lines of every
    // other level, as before, this hit). It is in the L2 now: faster than
    // the cold miss.
    let second = latencies(&mut m, &[(0, fetch(3, 0x2040))])[0];
    assert!(
        second > hit && second < miss,
        "{second} (hit {hit}, miss {miss})"
    );
    drain(&mut m);
    assert_eq!(m.stats().inst.misses, 2);
    // A line size the other levels do not allow is refused with its field.
    let bad = MemConfig {
        inst_line_bytes: 256,
        ..c.clone()
    };
    let e = bad.validate().unwrap_err();
    assert!(
        e.contains("inst_line_bytes: 256 is outside 16..=line_bytes (128)"),
        "{e}"
    );
}

#[test]
fn the_two_fetch_ports_are_arbitrated_one_request_per_cycle() {
    let c = MemConfig::default();
    let hit = u64::from(c.inst_cache.hit_latency);
    let mut m = MemSystem::new(&c, 2);
    latencies(&mut m, &[(0, fetch(1, 0x3000))]);
    drain(&mut m);
    // Both CUs fetch in the same cycle: one is looked up a cycle after the
    // other. Round-robin from the CU after the last one served: CU 0 was
    // served last, so CU 1 goes first, then CU 0 (its request waited in
    // its port) — which makes CU 1 next again.
    for tag in [2, 4] {
        assert_eq!(
            latencies(
                &mut m,
                &[(0, fetch(tag, 0x3000)), (1, fetch(tag + 1, 0x3000))]
            ),
            vec![hit + 1, hit]
        );
    }
    // After CU 1 alone, CU 0 goes first.
    latencies(&mut m, &[(1, fetch(6, 0x3000))]);
    assert_eq!(
        latencies(&mut m, &[(0, fetch(7, 0x3000)), (1, fetch(8, 0x3000))]),
        vec![hit, hit + 1]
    );
}
