//! Crossbar tests: arbitration fairness through a switch, credit back-pressure
//! end to end (no packet lost or duplicated), per-port flit bandwidth.

use hw::xbar::fifo::CreditFifo;
use hw::xbar::packet::{Kind, Packet};
use hw::xbar::switch::Switch;

fn one_channel(_: &Packet) -> usize {
    0
}

#[test]
fn always_requesting_inputs_are_granted_in_rotation() {
    let n = 5;
    let mut sw = Switch::new(n, 1, 4, 1);
    let mut out = vec![CreditFifo::new(64)];
    let mut grants = Vec::new();
    for now in 0..40u64 {
        // Keep every input's buffer non-empty.
        for (i, f) in sw.inputs.iter_mut().enumerate() {
            if f.can_push() {
                f.push(Packet::new(Kind::Read, i, now as u16, 0, 1), now)
                    .unwrap();
            }
        }
        sw.tick(now, one_channel, &mut out);
        if let Some(g) = sw.outs[0].grant {
            grants.push(usize::from(g));
        }
        // The receiver drains everything (never the bottleneck here).
        while out[0].pop(now + 10).is_some() {}
        sw.commit();
        out[0].commit();
    }
    assert_eq!(grants.len(), 40);
    for (k, g) in grants.iter().enumerate() {
        assert_eq!(*g, k % n, "{grants:?}");
    }
    // Every grant but the uncontested ones cost the other n - 1 inputs a conflict.
    assert_eq!(sw.stats.conflicts, 40 * (n as u64 - 1));
}

#[test]
fn full_receiver_stops_the_switch_and_nothing_is_lost_or_duplicated() {
    let n = 3;
    let mut sw = Switch::new(n, 2, 2, 3);
    let mut out: Vec<CreditFifo<Packet>> = (0..2).map(|_| CreditFifo::new(2)).collect();
    let route = |p: &Packet| (p.line() % 2) as usize;
    let mut next = vec![0u16; n];
    let per_input = 50u16;
    let mut received = Vec::new();
    let mut stalled_cycles = 0;
    for now in 0..10_000u64 {
        for (i, f) in sw.inputs.iter_mut().enumerate() {
            if next[i] < per_input && f.can_push() {
                let tag = next[i];
                f.push(
                    Packet::new(Kind::Read, i, tag, u64::from(tag) + i as u64, 1),
                    now,
                )
                .unwrap();
                next[i] += 1;
            }
        }
        sw.tick(now, route, &mut out);
        // Receiver 0 pops only every 7th cycle, receiver 1 every 2nd.
        for (o, f) in out.iter_mut().enumerate() {
            if !f.can_push() {
                stalled_cycles += 1;
            }
            let period = if o == 0 { 7 } else { 2 };
            if now % period == 0 {
                if let Some(p) = f.pop(now) {
                    assert_eq!(p.line() % 2, o as u64, "misrouted");
                    received.push((p.port(), p.tag));
                }
            }
            assert!(f.len() <= usize::from(f.capacity()), "receiver overflow");
        }
        sw.commit();
        for f in &mut out {
            f.commit();
        }
        if received.len() == n * usize::from(per_input) {
            break;
        }
    }
    assert!(stalled_cycles > 0);
    assert!(sw.stats.backpressure > 0);
    received.sort_unstable();
    let want: Vec<(usize, u16)> = (0..n)
        .flat_map(|i| (0..per_input).map(move |t| (i, t)))
        .collect();
    assert_eq!(received, want);
}

#[test]
fn multi_flit_packets_use_one_flit_per_port_per_cycle() {
    // Two inputs each send a 4-flit write to the same output: the output is
    // occupied 4 cycles per packet, and arrival is the tail flit.
    let latency = 3u64;
    let mut sw = Switch::new(2, 1, 4, latency as u32);
    let mut out = vec![CreditFifo::new(8)];
    for i in 0..2 {
        sw.inputs[i]
            .push(Packet::new(Kind::Write, i, 0, 0, 4), 0)
            .unwrap();
    }
    let mut arrivals = Vec::new();
    for now in 0..30u64 {
        sw.tick(now, one_channel, &mut out);
        if let Some(p) = out[0].pop(now) {
            arrivals.push((now, p.port()));
        }
        sw.commit();
        out[0].commit();
    }
    assert_eq!(arrivals, [(latency + 3, 0), (4 + latency + 3, 1)]);
    // While the first packet streams, the second input counts as a conflict.
    assert_eq!(sw.stats.conflicts, 4);
}

#[test]
fn packet_fields_wrap_to_their_widths() {
    let p = Packet::new(Kind::ReadData, 1023, 7, (1 << 58) + 5, 33);
    assert_eq!(p.port(), 1023);
    assert_eq!(p.line(), 5);
    assert_eq!(p.flits.value(), 1);
    assert_eq!(p.kind(), Kind::ReadData);
    assert_eq!(
        Kind::from_bits(Kind::AtomicAck.bits()),
        Some(Kind::AtomicAck)
    );
    assert_eq!(Kind::from_bits(arbitrary_int::u3::new(7)), None);
}
