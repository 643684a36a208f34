//! The memory crossbar: a request network from the requester ports (three per
//! CU — instruction, scalar, vector — then the front end) to the L2 channels,
//! and a response network back.
//!
//! ```text
//! stage 1  requester miss queue ──credit──▶ req.inputs[port]   (1 cycle)
//! stage 2  req switch: RR arbiter per channel ──▶ l2_in[ch]     (latency + flits - 1)
//! stage 3  L2 channel ──credit──▶ resp.inputs[ch]               (1 cycle)
//! stage 4  resp switch: RR arbiter per port ──▶ resp_out[port]  (latency + flits - 1)
//! ```
//!
//! The channel of a line is `line % channels` (plain low-order interleaving:
//! consecutive lines go to consecutive channels).

pub mod arbiter;
mod config;
pub mod fifo;
pub mod packet;
pub mod switch;

pub use config::XbarConfig;
use fifo::CreditFifo;
use packet::Packet;
use switch::Switch;

/// Both networks and the buffers at their far ends.
#[derive(Clone, Debug)]
pub struct Xbar {
    /// Request network: ports → channels.
    pub req: Switch,
    /// Response network: channels → ports.
    pub resp: Switch,
    /// Each L2 channel's input buffer (receiver of the request network).
    pub l2_in: Vec<CreditFifo<Packet>>,
    /// Each port's response buffer (receiver of the response network).
    pub port_in: Vec<CreditFifo<Packet>>,
    channels: u64,
}

impl Xbar {
    /// A crossbar for `ports` requesters and `channels` L2 channels.
    pub fn new(ports: usize, channels: usize, depth: u16, latency: u32) -> Xbar {
        Xbar {
            req: Switch::new(ports, channels, depth, latency),
            resp: Switch::new(channels, ports, depth, latency),
            l2_in: (0..channels).map(|_| CreditFifo::new(depth)).collect(),
            port_in: (0..ports).map(|_| CreditFifo::new(depth)).collect(),
            channels: channels as u64,
        }
    }

    /// The channel serving `line`.
    #[inline]
    pub fn channel_of(&self, line: u64) -> usize {
        (line % self.channels) as usize
    }

    /// One cycle of both networks.
    pub fn tick(&mut self, now: u64) {
        let ch = self.channels;
        self.req
            .tick(now, |p| (p.line() % ch) as usize, &mut self.l2_in);
        self.resp.tick(now, |p| p.port(), &mut self.port_in);
    }

    /// The clock edge for every buffer's credits.
    pub fn commit(&mut self) {
        self.req.commit();
        self.resp.commit();
        for f in self.l2_in.iter_mut().chain(self.port_in.iter_mut()) {
            f.commit();
        }
    }

    /// True when a packet is anywhere in the crossbar.
    pub fn busy(&self) -> bool {
        self.req.busy()
            || self.resp.busy()
            || self.l2_in.iter().any(|f| !f.is_empty())
            || self.port_in.iter().any(|f| !f.is_empty())
    }
}

impl traces::Probe for Xbar {
    fn probe(&self, name: &str, t: &mut traces::Tracer) {
        t.scope(name, |t| {
            traces::Probe::probe(&self.req, "req", t);
            traces::Probe::probe(&self.resp, "resp", t);
            traces::Probe::probe(&self.l2_in, "l2_in", t);
            traces::Probe::probe(&self.port_in, "port_in", t);
        });
    }
}
