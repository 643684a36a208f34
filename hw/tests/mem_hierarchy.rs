//! Directed timing tests of the memory hierarchy: latencies equal the
//! configured stage costs, MSHR merging, write policies, write-back on
//! eviction, channel interleaving, DRAM bandwidth, back-pressure, determinism.

use hw::mem::{Access, MemConfig, MemRequest, MemResponse, MemSystem, Unit};

fn read(tag: u16, address: u64) -> MemRequest {
    MemRequest {
        tag,
        access: Access::Read,
        address,
        bytes: 4,
        bypass: false,
    }
}

fn write(tag: u16, address: u64, bytes: u16) -> MemRequest {
    MemRequest {
        tag,
        access: Access::Write,
        address,
        bytes,
        bypass: false,
    }
}

/// Issues `req` now and ticks until its response; returns the latency.
fn latency(m: &mut MemSystem, cu: usize, unit: Unit, req: MemRequest) -> u64 {
    assert!(m.can_accept(cu, unit));
    let start = m.cycle();
    m.request(cu, unit, req);
    let mut out = Vec::new();
    for _ in 0..100_000 {
        m.tick();
        m.take_responses(cu, unit, &mut out);
        if let Some(r) = out.first() {
            assert_eq!(*r, MemResponse { tag: req.tag });
            assert_eq!(out.len(), 1);
            return m.cycle() - start;
        }
    }
    panic!("no response");
}

/// Ticks until nothing is in flight.
fn drain(m: &mut MemSystem) {
    for _ in 0..1_000_000 {
        if !m.busy() {
            return;
        }
        m.tick();
    }
    panic!("hierarchy never went idle");
}

/// Distinct, easily told-apart stage costs.
fn config() -> MemConfig {
    let mut c = MemConfig::default();
    c.vector_cache.hit_latency = 11;
    c.xbar.latency = 5;
    c.l2.hit_latency = 37;
    c.l2.atomic_latency = 9;
    c.dram.latency = 101;
    c.dram.row_miss_cycles = 23;
    c.dram.bytes_per_cycle = 8;
    c
}

struct Costs {
    h: u64,
    x: u64,
    l: u64,
    d: u64,
    r: u64,
    t: u64,
    f: u64,
    a: u64,
}

fn costs(c: &MemConfig) -> Costs {
    Costs {
        h: c.vector_cache.hit_latency.into(),
        x: c.xbar.latency.into(),
        l: c.l2.hit_latency.into(),
        d: c.dram.latency.into(),
        r: c.dram.row_miss_cycles.into(),
        t: (c.line_bytes / c.dram.bytes_per_cycle).into(),
        f: (c.line_bytes / c.xbar.flit_bytes).into(),
        a: c.l2.atomic_latency.into(),
    }
}

#[test]
fn cold_read_then_l0_hit_then_l2_hit_latencies() {
    let c = config();
    let k = costs(&c);
    let mut m = MemSystem::new(&c, 4);
    let cold = latency(&mut m, 0, Unit::Vector, read(1, 0x1000));
    assert_eq!(cold, k.h + 1 + k.x + k.l + k.d + k.r + k.t + 2 + k.x + k.f);
    // Same line, another byte: an L0 hit.
    let hit = latency(&mut m, 0, Unit::Vector, read(2, 0x1040));
    assert_eq!(hit, k.h);
    // Another CU: misses its L0, hits the L2.
    let l2 = latency(&mut m, 1, Unit::Vector, read(3, 0x1000));
    assert_eq!(l2, k.h + 1 + k.x + k.l + 1 + k.x + k.f);
    let s = m.stats();
    assert_eq!((s.vector.hits, s.vector.misses), (1, 2));
    assert_eq!((s.l2.hits, s.l2.misses), (1, 1));
    assert_eq!(s.dram_bytes_read, u64::from(c.line_bytes));
    assert_eq!((s.dram_row_hits, s.dram_row_misses), (0, 1));
}

#[test]
fn mshr_merges_two_reads_of_one_line_into_one_l2_request() {
    let c = config();
    let mut m = MemSystem::new(&c, 1);
    m.request(0, Unit::Vector, read(1, 0x2000));
    m.tick();
    assert!(m.can_accept(0, Unit::Vector));
    m.request(0, Unit::Vector, read(2, 0x2004));
    let mut got = Vec::new();
    let mut when = Vec::new();
    while got.len() < 2 {
        m.tick();
        let before = got.len();
        m.take_responses(0, Unit::Vector, &mut got);
        when.extend(std::iter::repeat_n(m.cycle(), got.len() - before));
    }
    // Both answered by the one fill, in arrival order, in the same cycle.
    assert_eq!(got, [MemResponse { tag: 1 }, MemResponse { tag: 2 }]);
    assert_eq!(when[0], when[1]);
    let s = m.stats();
    assert_eq!(s.vector.mshr_merges, 1);
    assert_eq!(s.vector.misses, 2);
    assert_eq!(s.l2.hits + s.l2.misses, 1, "one L2 request");
    assert_eq!(s.xbar_packets, 2, "one request and one response packet");
    assert_eq!(s.dram_bytes_read, u64::from(c.line_bytes));
}

#[test]
fn l0_is_write_through_without_write_allocate() {
    let c = config();
    let k = costs(&c);
    let mut m = MemSystem::new(&c, 1);
    // A write to a cold line goes to the L2, which allocates it with the
    // written bytes only (byte mask, no DRAM read).
    let w = latency(&mut m, 0, Unit::Vector, write(1, 0x3000, 4));
    assert_eq!(w, k.h + 1 + k.x + k.l + 1 + k.x + 1);
    // ... and did not allocate in the L0: the read misses L0, and the L2's
    // partial line needs its other bytes from DRAM (one fill).
    let r = latency(&mut m, 0, Unit::Vector, read(2, 0x3000));
    assert_eq!(r, k.h + 1 + k.x + k.l + k.d + k.r + k.t + 2 + k.x + k.f);
    // A write to a line resident in the L0 still goes through to the L2.
    let w2 = latency(&mut m, 0, Unit::Vector, write(3, 0x3008, 8));
    assert_eq!(w2, k.h + 1 + k.x + k.l + 1 + k.x + 1);
    let s = m.stats();
    assert_eq!(s.vector.uncached, 2);
    assert_eq!((s.l2.hits, s.l2.misses), (1, 2));
    assert_eq!(s.dram_bytes_read, u64::from(c.line_bytes));
    // The line stays readable from the L0.
    assert_eq!(latency(&mut m, 0, Unit::Vector, read(4, 0x3010)), k.h);
}

#[test]
fn bypass_reads_skip_the_l0() {
    let c = config();
    let k = costs(&c);
    let mut m = MemSystem::new(&c, 1);
    latency(&mut m, 0, Unit::Vector, read(1, 0x4000));
    let mut req = read(2, 0x4000);
    req.bypass = true;
    // Resident in L0, but bypass goes to the L2; the response carries 4 bytes (1 flit).
    assert_eq!(
        latency(&mut m, 0, Unit::Vector, req),
        k.h + 1 + k.x + k.l + 1 + k.x + 1
    );
}

#[test]
fn atomics_are_performed_at_the_l2_and_hold_the_line() {
    let c = config();
    let k = costs(&c);
    let mut m = MemSystem::new(&c, 1);
    latency(&mut m, 0, Unit::Vector, read(1, 0x5000));
    let at = MemRequest {
        tag: 2,
        access: Access::Atomic { returns: true },
        address: 0x5000,
        bytes: 4,
        bypass: false,
    };
    assert_eq!(
        latency(&mut m, 0, Unit::Vector, at),
        k.h + 1 + k.x + k.l + k.a + 1 + k.x + 1
    );
}

#[test]
fn front_end_requests_skip_cu_caches() {
    let c = config();
    let k = costs(&c);
    let mut m = MemSystem::new(&c, 2);
    // Warm the L2 through CU 0, then the front end reads 64 bytes (1 flit).
    latency(&mut m, 0, Unit::Vector, read(1, 0x6000));
    let mut req = read(9, 0x6000);
    req.bytes = 64;
    assert_eq!(
        latency(&mut m, 0, Unit::FrontEnd, req),
        1 + k.x + k.l + 1 + k.x + 1
    );
}

/// Issues `reqs` on the front-end port, one per cycle, and ticks until all
/// have answered; returns (tag, cycles from the first issue to its response).
fn front_end_burst(m: &mut MemSystem, reqs: &[MemRequest]) -> Vec<(u16, u64)> {
    let start = m.cycle();
    let mut done = Vec::new();
    let mut out = Vec::new();
    let mut next = 0;
    for _ in 0..100_000 {
        if next < reqs.len() && m.can_accept(0, Unit::FrontEnd) {
            m.request(0, Unit::FrontEnd, reqs[next]);
            next += 1;
        }
        m.tick();
        m.take_responses(0, Unit::FrontEnd, &mut out);
        done.extend(out.drain(..).map(|r| (r.tag, m.cycle() - start)));
        if done.len() == reqs.len() {
            return done;
        }
    }
    panic!("burst never finished: {done:?}");
}

fn front_read(tag: u16, address: u64) -> MemRequest {
    MemRequest {
        bytes: 64,
        ..read(tag, address)
    }
}

#[test]
fn a_small_response_queue_does_not_cap_l2_hit_throughput() {
    // The response queue holds responses out of the lookup pipeline, not the
    // lookups inside it: with 2 entries and a 37-cycle lookup, one-flit L2
    // hits still stream at one per cycle (the old accounting gave 2 per 37).
    let mut c = config();
    c.l2.channels = 1;
    c.l2.response_queue = 2;
    let k = costs(&c);
    let mut m = MemSystem::new(&c, 1);
    let line = u64::from(c.line_bytes);
    let n = 24u16;
    let warm: Vec<_> = (0..n).map(|t| front_read(t, u64::from(t) * line)).collect();
    front_end_burst(&mut m, &warm);
    drain(&mut m);
    let hits: Vec<_> = (0..n)
        .map(|t| front_read(100 + t, u64::from(t) * line))
        .collect();
    let done = front_end_burst(&mut m, &hits);
    let first = 1 + k.x + k.l + 1 + k.x + 1;
    for (i, &(tag, at)) in done.iter().enumerate() {
        assert_eq!(tag, 100 + i as u16, "in order");
        assert_eq!(at, first + i as u64, "{done:?}");
    }
    assert_eq!(m.stats().l2.hits, u64::from(n));
}

#[test]
fn same_line_atomics_complete_one_per_atomic_latency_without_holding_other_lines() {
    let mut c = config();
    c.l2.channels = 1;
    let k = costs(&c);
    let mut m = MemSystem::new(&c, 1);
    let (a, b) = (0x8000u64, 0x9000u64);
    front_end_burst(&mut m, &[front_read(1, a), front_read(2, b)]);
    drain(&mut m);
    let atomic = |tag| MemRequest {
        tag,
        access: Access::Atomic { returns: false },
        address: a,
        bytes: 4,
        bypass: false,
    };
    // Four atomics to line a, then a read of line b one cycle behind them.
    let burst = [
        atomic(10),
        atomic(11),
        atomic(12),
        atomic(13),
        front_read(20, b),
    ];
    let done = front_end_burst(&mut m, &burst);
    let at = |tag| done.iter().find(|d| d.0 == tag).map(|d| d.1).unwrap();
    // The first atomic takes the uncontended path; each next one to the same
    // line starts when the line's atomic unit is free: one per atomic_latency.
    let first = 1 + k.x + k.l + k.a + 1 + k.x + 1;
    for i in 0..4u16 {
        assert_eq!(at(10 + i), first + u64::from(i) * k.a, "{done:?}");
    }
    // The read of another line, looked up in the cycle after the last atomic,
    // is not held behind them.
    assert_eq!(at(20), 4 + 1 + k.x + k.l + 1 + k.x + 1, "{done:?}");
    assert!(at(20) < at(13));
}

#[test]
fn a_read_behind_an_atomic_to_its_line_waits_for_the_atomic_unit() {
    let mut c = config();
    c.l2.channels = 1;
    let k = costs(&c);
    let mut m = MemSystem::new(&c, 1);
    let a = 0x8000u64;
    front_end_burst(&mut m, &[front_read(1, a)]);
    drain(&mut m);
    let atomic = MemRequest {
        tag: 10,
        access: Access::Atomic { returns: true },
        address: a,
        bytes: 4,
        bypass: false,
    };
    let done = front_end_burst(&mut m, &[atomic, front_read(20, a)]);
    let first = 1 + k.x + k.l + k.a + 1 + k.x + 1;
    assert_eq!(done, vec![(10, first), (20, first + 1)]);
}

#[test]
fn l2_writes_back_dirty_lines_on_eviction() {
    let mut c = config();
    c.l2.channels = 1;
    c.l2.ways = 2;
    c.l2.size_bytes = 2 * c.line_bytes; // one set of two ways
    let line = u64::from(c.line_bytes);
    // Two dirty lines, then two other lines push them out.
    let mut m = MemSystem::new(&c, 1);
    latency(&mut m, 0, Unit::Vector, write(1, 0, 4));
    latency(&mut m, 0, Unit::Vector, write(2, line, 4));
    assert_eq!(m.stats().dram_bytes_written, 0);
    latency(&mut m, 0, Unit::Vector, read(3, 2 * line));
    latency(&mut m, 0, Unit::Vector, read(4, 3 * line));
    drain(&mut m);
    let s = m.stats();
    assert_eq!(s.dram_bytes_written, 2 * line);
    // The two written lines were never read from DRAM (byte masks).
    assert_eq!(s.dram_bytes_read, 2 * line);
    // Same traffic with reads only: clean victims are dropped.
    let mut m = MemSystem::new(&c, 1);
    for (i, a) in [0, line, 2 * line, 3 * line].into_iter().enumerate() {
        latency(&mut m, 0, Unit::Vector, read(i as u16, a));
    }
    drain(&mut m);
    assert_eq!(m.stats().dram_bytes_written, 0);
}

#[test]
fn whole_line_write_allocates_without_reading_dram() {
    let c = config();
    let mut m = MemSystem::new(&c, 1);
    latency(
        &mut m,
        0,
        Unit::Vector,
        write(1, 0x8000, c.line_bytes as u16),
    );
    assert_eq!(m.stats().dram_bytes_read, 0);
    assert_eq!(m.stats().l2.misses, 1);
}

/// Issue 29 item 10: a partial-line write allocates its L2 line with a byte
/// mask and no DRAM read (as AMD's TCC does: docs/cycle-model.md,
/// "Partial-line writes at the L2"); writes that together cover a line read
/// nothing; a read of a partial line fetches it once, then hits. Before the
/// fix every partial write fetched its line (a convolution writing half lines
/// read twice its input).
#[test]
fn partial_line_writes_allocate_without_reading_dram() {
    let c = config();
    let k = costs(&c);
    let line = u64::from(c.line_bytes);
    let half = (c.line_bytes / 2) as u16;
    let mut m = MemSystem::new(&c, 2);
    // Both halves of line 0x9000, one at a time: no DRAM read, the second a hit.
    let w = latency(&mut m, 0, Unit::Vector, write(1, 0x9000, half));
    assert_eq!(
        w,
        k.h + 1 + k.x + k.l + 1 + k.x + 1,
        "no fill before the write"
    );
    latency(&mut m, 0, Unit::Vector, write(2, 0x9000 + line / 2, half));
    drain(&mut m);
    let s = m.stats();
    assert_eq!(s.dram_bytes_read, 0);
    assert_eq!((s.l2.hits, s.l2.misses), (1, 1));
    // A read of a partial line: one fill, merged under the written bytes;
    // the next read of it hits.
    latency(&mut m, 0, Unit::Vector, write(3, 0xa000, 4));
    let r = latency(&mut m, 0, Unit::Vector, read(4, 0xa040));
    assert_eq!(r, k.h + 1 + k.x + k.l + k.d + k.r + k.t + 2 + k.x + k.f);
    assert_eq!(m.stats().dram_bytes_read, line);
    // (Another CU, so its L0 misses.)
    let again = latency(&mut m, 1, Unit::Vector, read(5, 0xa000));
    assert_eq!(
        again,
        k.h + 1 + k.x + k.l + 1 + k.x + k.f,
        "the merged line hits"
    );
    assert_eq!(m.stats().dram_bytes_read, line);
}

#[test]
fn lines_interleave_across_channels() {
    let c = config();
    let line = u64::from(c.line_bytes);
    let channels = u64::from(c.l2.channels);
    let mut m = MemSystem::new(&c, 1);
    for i in 0..3 * channels {
        assert_eq!(m.channel_of(i * line + 5) as u64, i % channels);
    }
    // Two lines per channel: every channel sees exactly two misses.
    for i in 0..2 * channels {
        latency(&mut m, 0, Unit::Vector, read(i as u16, i * line));
    }
    for ch in 0..channels as usize {
        let (l2, dram) = m.channel_stats(ch).unwrap();
        assert_eq!(l2.misses, 2, "channel {ch}");
        assert_eq!(dram.bytes_read, 2 * line, "channel {ch}");
    }
    assert!(m.channel_stats(channels as usize).is_none());
}

#[test]
fn dram_bandwidth_bounds_streaming_reads() {
    let mut c = config();
    c.l2.channels = 1;
    c.dram.bytes_per_cycle = 4;
    let t = u64::from(c.line_bytes / c.dram.bytes_per_cycle);
    let n = 12u64;
    let mut m = MemSystem::new(&c, 1);
    let start = m.cycle();
    let mut issued = 0u64;
    let mut got = Vec::new();
    let mut done_at = Vec::new();
    while (got.len() as u64) < n {
        if issued < n && m.can_accept(0, Unit::FrontEnd) {
            let mut r = read(issued as u16, issued * u64::from(c.line_bytes));
            r.bytes = c.line_bytes as u16;
            m.request(0, Unit::FrontEnd, r);
            issued += 1;
        }
        m.tick();
        let before = got.len();
        m.take_responses(0, Unit::FrontEnd, &mut got);
        for _ in before..got.len() {
            done_at.push(m.cycle());
        }
    }
    // Consecutive completions are at least one transfer time apart.
    for w in done_at.windows(2) {
        assert!(w[1] - w[0] >= t, "{done_at:?}");
    }
    assert!(done_at[n as usize - 1] - start >= n * t);
    let s = m.stats();
    assert_eq!(s.dram_bytes_read, n * u64::from(c.line_bytes));
    // Consecutive lines of one channel share rows of row_bytes.
    let per_row = u64::from(c.dram.row_bytes / c.line_bytes);
    assert_eq!(s.dram_row_misses, n.div_ceil(per_row));
    assert_eq!(s.dram_row_hits, n - n.div_ceil(per_row));
}

/// A deterministic request mix on every port; returns (cycle, cu, unit, tag).
fn run_mix(c: &MemConfig, cus: usize) -> (Vec<(u64, usize, Unit, u16)>, hw::mem::MemStats) {
    let mut m = MemSystem::new(c, cus);
    let mut seed = 0x1234_5678_u64;
    let mut rnd = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        seed >> 33
    };
    let units = [Unit::Inst, Unit::Scalar, Unit::Vector, Unit::FrontEnd];
    let mut log = Vec::new();
    let mut out = Vec::new();
    let mut next_tag = 0u16;
    let mut sent = 0;
    for cycle in 0..20_000 {
        if cycle < 5_000 {
            for cu in 0..cus {
                for &unit in &units {
                    if rnd() % 3 != 0 || !m.can_accept(cu, unit) {
                        continue;
                    }
                    let access = match rnd() % 8 {
                        0 => Access::Write,
                        1 => Access::Atomic { returns: true },
                        _ => Access::Read,
                    };
                    let address = (rnd() % 4096) * 32;
                    m.request(
                        cu,
                        unit,
                        MemRequest {
                            tag: next_tag,
                            access,
                            address,
                            bytes: 16,
                            bypass: rnd() % 16 == 0,
                        },
                    );
                    next_tag = next_tag.wrapping_add(1);
                    sent += 1;
                }
            }
        }
        m.tick();
        for cu in 0..cus {
            for &unit in &units {
                m.take_responses(cu, unit, &mut out);
                for r in out.drain(..) {
                    log.push((m.cycle(), cu, unit, r.tag));
                }
            }
        }
    }
    assert!(!m.busy());
    // No response lost or duplicated (the front-end port is one port, taken
    // under whichever `cu` asks first).
    assert_eq!(log.len(), sent);
    (log, m.stats())
}

#[test]
fn same_requests_same_response_cycles() {
    let mut c = config();
    c.l2.mshrs = 4;
    c.vector_cache.mshrs = 4;
    let (a, sa) = run_mix(&c, 3);
    let (b, sb) = run_mix(&c, 3);
    assert_eq!(a, b);
    assert_eq!(sa, sb);
    // The mix is contended enough to exercise arbitration and back-pressure.
    assert!(sa.xbar_conflicts > 0);
    assert!(sa.l2.stall_cycles > 0);
}

#[test]
fn full_l2_mshrs_back_pressure_the_crossbar_without_losing_requests() {
    let mut c = config();
    c.l2.channels = 1;
    c.l2.mshrs = 1;
    c.xbar.fifo_depth = 2;
    let cus = 4;
    let mut m = MemSystem::new(&c, cus);
    let line = u64::from(c.line_bytes);
    let mut tags = Vec::new();
    let mut out = Vec::new();
    let per_cu = 6u16;
    let mut next = [0u16; 4];
    for _ in 0..200_000 {
        for (cu, n) in next.iter_mut().enumerate() {
            if *n < per_cu && m.can_accept(cu, Unit::Vector) {
                let tag = cu as u16 * 100 + *n;
                m.request(cu, Unit::Vector, read(tag, u64::from(tag) * line));
                *n += 1;
            }
        }
        m.tick();
        for cu in 0..cus {
            m.take_responses(cu, Unit::Vector, &mut out);
            tags.extend(out.drain(..).map(|r| r.tag));
        }
        if tags.len() == cus * usize::from(per_cu) && !m.busy() {
            break;
        }
    }
    tags.sort_unstable();
    let want: Vec<u16> = (0..cus as u16)
        .flat_map(|cu| (0..per_cu).map(move |n| cu * 100 + n))
        .collect();
    assert_eq!(tags, want);
    let s = m.stats();
    assert!(s.l2.stall_cycles > 0);
    assert!(s.xbar_backpressure > 0);
    assert_eq!(s.rejected, 0);
}

#[test]
fn validate_names_the_bad_field() {
    let ok = MemConfig::default();
    assert_eq!(ok.validate(), Ok(()));
    type Edit = fn(&mut MemConfig);
    let cases: Vec<(Edit, &str)> = vec![
        (|c| c.line_bytes = 96, "line_bytes"),
        (|c| c.l2.ways = 0, "l2.ways"),
        (|c| c.l2.size_bytes = 3 * 16 * 128, "l2.size_bytes"),
        (|c| c.vector_cache.size_bytes = 0, "vector_cache.size_bytes"),
        (|c| c.scalar_cache.mshrs = 0, "scalar_cache.mshrs"),
        (|c| c.xbar.flit_bytes = 48, "xbar.flit_bytes"),
        (|c| c.xbar.flit_bytes = 4, "xbar.flit_bytes"),
        (|c| c.dram.banks = 6, "dram.banks"),
        (|c| c.dram.bytes_per_cycle = 0, "dram.bytes_per_cycle"),
        (|c| c.l2.channels = 0, "l2.channels"),
    ];
    for (f, path) in cases {
        let mut c = MemConfig::default();
        f(&mut c);
        let e = c.validate().unwrap_err();
        assert!(e.starts_with(path), "{e} should name {path}");
        assert!(MemSystem::try_new(&c, 1).is_err());
    }
    assert!(ok.validate_for(341).is_ok());
    assert!(ok.validate_for(342).is_err());
}

#[test]
fn yaml_rejects_unknown_fields_and_fills_defaults() {
    let c: MemConfig = serde_norway::from_str("l2:\n  channels: 8\n").unwrap();
    assert_eq!(c.l2.channels, 8);
    assert_eq!(c.l2.ways, MemConfig::default().l2.ways);
    assert!(serde_norway::from_str::<MemConfig>("l2:\n  chanels: 8\n").is_err());
    assert!(serde_norway::from_str::<MemConfig>("latency: 100\n").is_err());
}

#[test]
fn signals_are_named_hierarchically() {
    let m = MemSystem::new(&MemConfig::default(), 2);
    let mut t = traces::Tracer::names();
    traces::Probe::probe(&m, "gpu", &mut t);
    let names = t.declared();
    for want in [
        "gpu.cu1.l0.mshr_used",
        "gpu.cu0.icache.input_valid",
        "gpu.l2_3.mshr_used",
        "gpu.dram_0.queue_count",
        "gpu.xbar.req.out0.grant_valid",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} missing");
    }
    // Sampling follows the registers: a miss occupies an MSHR, then frees it.
    let idx = names
        .iter()
        .position(|n| n == "gpu.cu1.l0.mshr_used")
        .unwrap();
    let mut m = m;
    m.request(1, Unit::Vector, read(1, 0x40));
    m.tick();
    t.end_walk();
    t.begin_walk();
    traces::Probe::probe(&m, "gpu", &mut t);
    assert_eq!(t.values()[idx], 1);
    assert!(t.changed().contains(&idx));
    let mut out = Vec::new();
    while out.is_empty() {
        m.tick();
        m.take_responses(1, Unit::Vector, &mut out);
    }
    t.end_walk();
    t.begin_walk();
    traces::Probe::probe(&m, "gpu", &mut t);
    assert_eq!(t.values()[idx], 0);
}

#[test]
fn l0_replaces_the_least_recently_used_line() {
    let mut c = config();
    let ways = 4u64;
    c.vector_cache.ways = ways as u32;
    c.vector_cache.size_bytes = ways as u32 * c.line_bytes; // one set
    let k = costs(&c);
    let line = u64::from(c.line_bytes);
    let l2_hit = k.h + 1 + k.x + k.l + 1 + k.x + k.f;
    let mut m = MemSystem::new(&c, 1);
    for i in 0..ways {
        latency(&mut m, 0, Unit::Vector, read(i as u16, i * line));
    }
    // Touch line 0 so line 1 is the least recently used, then bring in a fifth.
    assert_eq!(latency(&mut m, 0, Unit::Vector, read(10, 0)), k.h);
    latency(&mut m, 0, Unit::Vector, read(11, ways * line));
    assert_eq!(latency(&mut m, 0, Unit::Vector, read(12, 0)), k.h);
    assert_eq!(latency(&mut m, 0, Unit::Vector, read(13, line)), l2_hit);
}

#[test]
fn full_l0_mshrs_hold_the_port() {
    let mut c = config();
    c.vector_cache.mshrs = 2;
    let line = u64::from(c.line_bytes);
    let mut m = MemSystem::new(&c, 1);
    m.request(0, Unit::Vector, read(0, 0));
    m.tick();
    m.request(0, Unit::Vector, read(1, line));
    m.tick();
    // The third miss has no MSHR: it waits in the input register.
    m.request(0, Unit::Vector, read(2, 2 * line));
    m.tick();
    assert!(!m.can_accept(0, Unit::Vector));
    let mut out = Vec::new();
    let mut accepted_again = None;
    for _ in 0..10_000 {
        m.tick();
        m.take_responses(0, Unit::Vector, &mut out);
        if accepted_again.is_none() && m.can_accept(0, Unit::Vector) {
            accepted_again = Some(out.len());
        }
        if out.len() == 3 {
            break;
        }
    }
    // The port reopened only once a response had freed an MSHR.
    assert!(accepted_again.is_some_and(|n| n >= 1), "{accepted_again:?}");
    assert_eq!(out.len(), 3);
    assert!(m.stats().vector.stall_cycles > 0);
}

#[test]
fn oversized_requests_are_clamped_to_one_line() {
    let c = config();
    let k = costs(&c);
    let mut m = MemSystem::new(&c, 1);
    latency(&mut m, 0, Unit::Vector, read(1, 0x9000));
    // 4 KiB "in one line" is outside the contract; it costs a whole line, no more.
    let mut req = read(2, 0x9000);
    req.bypass = true;
    req.bytes = 4096;
    assert_eq!(
        latency(&mut m, 0, Unit::Vector, req),
        k.h + 1 + k.x + k.l + 1 + k.x + k.f
    );
    req.tag = 3;
    assert_eq!(
        latency(&mut m, 0, Unit::FrontEnd, req),
        1 + k.x + k.l + 1 + k.x + k.f
    );
}
