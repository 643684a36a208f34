//! One direction of the crossbar: N input buffers, M outputs, a round-robin
//! arbiter per output, and a per-port bandwidth of one flit per cycle (a
//! multi-flit packet holds its input and its output for `flits` cycles).
//!
//! Per cycle: (1) each input whose head packet has arrived and whose port is
//! free asks for the output its route names; (2) each free output with a
//! credit toward its receiver grants one asker round-robin; (3) the granted
//! packet leaves its input buffer (the sender's credit returns at the edge) and
//! reaches the receiver after `latency + flits - 1` cycles (its tail flit).

use super::arbiter::RoundRobin;
use super::fifo::CreditFifo;
use super::packet::Packet;

traces::signals! {
    /// Per-output registers.
    #[derive(Clone, Debug, Default)]
    pub struct OutPort {
        /// Round-robin state.
        pub arb: RoundRobin,
        /// Input granted this cycle.
        pub grant: Option<u16>,
        /// Cycles the output stays occupied by the packet it is sending.
        pub busy: u8,
    }
}

/// Counters of one switch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SwitchStats {
    /// Input-cycles where a ready head packet lost arbitration to another input.
    pub conflicts: u64,
    /// Output-cycles with a waiting packet but no credit toward the receiver.
    pub backpressure: u64,
    /// Packets delivered.
    pub packets: u64,
}

/// One switch direction.
#[derive(Clone, Debug)]
pub struct Switch {
    /// Input buffers (the senders hold their credits).
    pub inputs: Vec<CreditFifo<Packet>>,
    /// Per-output registers.
    pub outs: Vec<OutPort>,
    /// Cycle from which each input may send again (multi-flit occupancy).
    in_free: Vec<u64>,
    /// Cycle from which each output may send again.
    out_free: Vec<u64>,
    /// Wire latency in cycles (at least one).
    latency: u64,
    /// Scratch: each input's requested output this cycle.
    want: Vec<Option<usize>>,
    /// Scratch: inputs asking for each output this cycle.
    askers: Vec<u32>,
    /// Counters.
    pub stats: SwitchStats,
}

impl Switch {
    /// A switch with `inputs` buffers of `depth` slots and `outputs` outputs.
    pub fn new(inputs: usize, outputs: usize, depth: u16, latency: u32) -> Switch {
        Switch {
            inputs: (0..inputs).map(|_| CreditFifo::new(depth)).collect(),
            outs: (0..outputs)
                .map(|_| OutPort {
                    arb: RoundRobin::new(inputs as u16),
                    grant: None,
                    busy: 0,
                })
                .collect(),
            in_free: vec![0; inputs],
            out_free: vec![0; outputs],
            latency: u64::from(latency.max(1)),
            want: vec![None; inputs],
            askers: vec![0; outputs],
            stats: SwitchStats::default(),
        }
    }

    /// True when some input holds a packet.
    pub fn busy(&self) -> bool {
        self.inputs.iter().any(|f| !f.is_empty())
    }

    /// One cycle: arbitrates and moves granted packets into `outputs`
    /// (the receivers' buffers, one per output) chosen by `route`.
    /// Returns true when a packet moved.
    pub fn tick(
        &mut self,
        now: u64,
        route: impl Fn(&Packet) -> usize,
        outputs: &mut [CreditFifo<Packet>],
    ) -> bool {
        // Stage 1: requests.
        let mut any = false;
        self.askers.fill(0);
        for (i, f) in self.inputs.iter().enumerate() {
            self.want[i] = match f.front(now) {
                Some(p) if self.in_free[i] <= now => {
                    any = true;
                    let o = route(p);
                    self.askers[o] += 1;
                    Some(o)
                }
                _ => None,
            };
        }
        for (o, port) in self.outs.iter_mut().enumerate() {
            port.grant = None;
            port.busy = self.out_free[o].saturating_sub(now).min(255) as u8;
        }
        if !any {
            return false;
        }
        // Stage 2: per-output arbitration (pure), then the edge.
        let mut moved = false;
        for (o, dest) in outputs.iter_mut().enumerate().take(self.outs.len()) {
            let askers = self.askers[o];
            if askers == 0 {
                continue;
            }
            if self.out_free[o] > now {
                // The output is still sending a multi-flit packet.
                self.stats.conflicts += u64::from(askers);
                continue;
            }
            if !dest.can_push() {
                self.stats.backpressure += 1;
                continue;
            }
            let want = &self.want;
            let (grant, next) = self.outs[o].arb.eval(|i| want[i] == Some(o));
            let Some(g) = grant else { continue };
            self.stats.conflicts += u64::from(askers) - 1;
            let Some(p) = self.inputs[g].pop(now) else {
                continue;
            };
            let flits = u64::from(p.link_flits());
            if dest.push(p, now + self.latency + flits - 1).is_err() {
                // can_push was checked above; a refused push would be a lost packet.
                debug_assert!(false, "push after can_push refused");
                continue;
            }
            self.outs[o].arb = next;
            self.outs[o].grant = Some(g as u16);
            self.outs[o].busy = flits.min(255) as u8;
            self.in_free[g] = now + flits;
            self.out_free[o] = now + flits;
            self.stats.packets += 1;
            moved = true;
        }
        moved
    }

    /// The earliest cycle at which an input's head may ask for an output
    /// (`u64::MAX`: no packet held). Before it, an edge of this switch only
    /// rewrites `grant` and `busy` ([`Switch::skip_to`]).
    pub fn next_event(&self) -> u64 {
        let mut t = u64::MAX;
        for (f, &free) in self.inputs.iter().zip(&self.in_free) {
            if let Some(ready) = f.head_ready() {
                t = t.min(ready.max(free));
            }
        }
        t
    }

    /// The output registers after an edge at `last` in which no input
    /// asked (the edges event skipping jumps over).
    pub fn skip_to(&mut self, last: u64) {
        for (port, &free) in self.outs.iter_mut().zip(&self.out_free) {
            port.grant = None;
            port.busy = free.saturating_sub(last).min(255) as u8;
        }
    }

    /// The clock edge for the input buffers' credits.
    pub fn commit(&mut self) {
        for f in &mut self.inputs {
            f.commit();
        }
    }
}

impl traces::Probe for Switch {
    fn probe(&self, name: &str, t: &mut traces::Tracer) {
        t.scope(name, |t| {
            traces::Probe::probe(&self.outs, "out", t);
            traces::Probe::probe(&self.inputs, "in", t);
        });
    }
}
