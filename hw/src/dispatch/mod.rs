//! The workgroup dispatcher: accepts a DISPATCH from the front end, reads the
//! kernel descriptor, and launches the dispatch's workgroups one per
//! `launch_interval` cycles onto compute units that have room for all of a
//! workgroup's waves (slots, VGPRs, SGPRs, LDS), round-robin over CUs. It
//! does not know the CU type: `gpu.rs` answers its questions (epoch, room)
//! and writes the launches it returns into the CUs.
//!
//! ```text
//! 1. accept   DispatchRequest → ActiveDispatch (descriptor, sizes, allocation)
//! 2. place    oldest dispatch with unlaunched workgroups → next CU with room
//! 3. launch   initial wave state (state.rs) written into the CU's wave slots
//! 4. retire   a CU reports a workgroup ended → when all ended: dispatch complete
//! ```
//! Later dispatches start placing workgroups only when every workgroup of the
//! earlier ones has been launched (in-order, as the golden model does).

use arbitrary_int::{u5, u6, u7};
use arch::code_object::KernelDescriptor;
use arch::device::FaultKind;

use crate::config::{CuConfig, DispatcherConfig};
use crate::frontend::DispatchRequest;
use crate::mem::backing::Backing;

pub mod config;
pub mod state;

pub use state::{WaveInit, WorkgroupInit, WorkgroupShape};

/// Everything derived from a dispatch packet and its kernel descriptor.
#[derive(Clone, Debug)]
pub struct ActiveDispatch {
    /// The request.
    pub req: DispatchRequest,
    /// The kernel descriptor read at accept.
    pub kd: KernelDescriptor,
    /// First instruction.
    pub entry: u64,
    /// True for wave64.
    pub wave64: bool,
    /// Workgroup size per dimension.
    pub wg_size: [u32; 3],
    /// Workgroups per dimension.
    pub wg_count: [u32; 3],
    /// Total workgroups.
    pub total_wgs: u64,
    /// Next workgroup to launch (linear, x fastest).
    pub next_wg: u64,
    /// Workgroups launched and not yet ended.
    pub live_wgs: u32,
    /// Waves of a full workgroup.
    pub waves_per_wg: u32,
    /// Architectural VGPRs per wave.
    pub vgprs: u16,
    /// Of which shared by the parts of a wave (`WorkgroupShape::shared_vgprs`).
    pub shared_vgprs: u16,
    /// LDS bytes per workgroup.
    pub lds_bytes: u32,
    /// Private bytes per work-item (rounded up to 4).
    pub scratch_per_item: u32,
    /// MODE at launch.
    pub mode: u32,
    /// Cycle it was accepted.
    pub start: u64,
    /// Waves launched so far.
    pub waves_launched: u64,
}

traces::signals! {
/// The dispatcher block (`gpu.dispatch`): the launch port to the CUs
/// (`launch_valid`, `launch_cu`, `launch_dispatch`, `launch_wg`, `launch_waves`),
/// its placement state and the dispatches it holds (bulk, untraced).
#[derive(Clone, Debug)]
pub struct Dispatcher {
    /// A workgroup was launched this cycle.
    pub launch_valid: bool,
    /// The CU it went to.
    pub launch_cu: u6,
    /// Its dispatch number.
    pub launch_dispatch: u32,
    /// Its linear workgroup number within the dispatch.
    pub launch_wg: u32,
    /// Its waves.
    pub launch_waves: u7,
    /// Dispatches held (accepted and not complete).
    pub held: u5,
    /// Earliest cycle of the next workgroup launch.
    pub next_launch: u64,
    /// CU to try first.
    pub rr_cu: u6,
    /// Configuration.
    @untraced
    config: DispatcherConfig,
    /// Dispatches in order of acceptance (completed ones are removed).
    @untraced
    pub active: Vec<ActiveDispatch>,
    /// Per CU, its `epoch` when it last could not take `blocked_shape`.
    @untraced
    blocked: Vec<u64>,
    @untraced
    blocked_shape: Option<state::WorkgroupShape>,
}
}

/// The `held` register's value for `n` dispatches (at most 16 are held).
fn held(n: usize) -> u5 {
    u5::new(n.min(31) as u8)
}

/// A workgroup the dispatcher placed, for `gpu.rs` to write into CU `cu`
/// ([`crate::cu::Cu::launch`]) in the same cycle.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The CU it goes to.
    pub cu: usize,
    /// Its waves' initial state.
    pub init: WorkgroupInit,
}

/// A dispatch the dispatcher finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Completed {
    /// Dispatch number.
    pub number: u32,
    /// Channel it came from.
    pub channel: u32,
    /// Cycle it was accepted.
    pub start: u64,
    /// Workgroups.
    pub workgroups: u64,
    /// Waves.
    pub waves: u64,
}

impl Dispatcher {
    /// An idle dispatcher.
    pub fn new(config: &DispatcherConfig) -> Dispatcher {
        Dispatcher {
            launch_valid: false,
            launch_cu: u6::new(0),
            launch_dispatch: 0,
            launch_wg: 0,
            launch_waves: u7::new(0),
            held: u5::new(0),
            next_launch: 0,
            rr_cu: u6::new(0),
            config: config.clone(),
            active: Vec::new(),
            blocked: Vec::new(),
            blocked_shape: None,
        }
    }

    /// True when no dispatch is in flight.
    pub fn is_idle(&self) -> bool {
        self.active.is_empty()
    }

    /// Bit c set while channel c has a dispatch in flight.
    pub fn busy_channels(&self) -> u64 {
        self.active
            .iter()
            .fold(0, |m, d| m | 1u64.checked_shl(d.req.channel).unwrap_or(0))
    }

    /// Accepts a dispatch: reads and checks its descriptor. A dispatch the
    /// device cannot run is a `Command` fault naming its channel and entry.
    pub fn accept(
        &mut self,
        req: DispatchRequest,
        backing: &Backing,
        cu: &CuConfig,
        cycle: u64,
    ) -> Result<(), FaultKind> {
        let d = state::prepare(req, backing, cu, cycle)?;
        self.active.push(d);
        self.held = held(self.active.len());
        Ok(())
    }

    /// One clock: places at most one workgroup when the interval allows.
    /// `cus` CUs are offered in round-robin order; `epoch(c)` is CU `c`'s
    /// resource epoch and `fits(c, shape)` whether it has room now. The
    /// caller (`gpu.rs`) writes the returned launch into its CU this cycle.
    pub fn tick(
        &mut self,
        cycle: u64,
        cus: usize,
        epoch: impl Fn(usize) -> u64,
        fits: impl Fn(usize, &WorkgroupShape) -> bool,
    ) -> Option<Launch> {
        self.launch_valid = false;
        if cycle < self.next_launch || cus == 0 {
            return None;
        }
        let d = self.active.iter_mut().find(|d| d.next_wg < d.total_wgs)?;
        let shape = state::shape(d, d.next_wg);
        let n = cus;
        if self.blocked_shape != Some(shape) || self.blocked.len() != n {
            self.blocked_shape = Some(shape);
            self.blocked.clear();
            self.blocked.resize(n, u64::MAX);
        }
        let rr = usize::from(self.rr_cu.value());
        for k in 0..n {
            let c = (rr + k) % n;
            if self.blocked[c] == epoch(c) {
                continue; // nothing changed since it could not take this shape
            }
            if !fits(c, &shape) {
                self.blocked[c] = epoch(c);
                continue;
            }
            let init = state::workgroup(d, d.next_wg);
            self.launch_valid = true;
            self.launch_cu = u6::new((c & 63) as u8);
            self.launch_dispatch = d.req.number;
            self.launch_wg = d.next_wg as u32;
            self.launch_waves = u7::new(init.waves.min(127) as u8);
            d.next_wg += 1;
            d.live_wgs += 1;
            d.waves_launched += u64::from(init.waves);
            self.rr_cu = u6::new(((c + 1) % n) as u8 & 63);
            self.next_launch = cycle + u64::from(self.config.launch_interval);
            return Some(Launch { cu: c, init });
        }
        None
    }

    /// The earliest cycle at which [`Dispatcher::tick`] may do more than
    /// lower `launch_valid` (event skipping): the next launch slot when a
    /// workgroup waits to be placed and some CU changed since it last could
    /// not take it; `u64::MAX` when only a CU's change (its `epoch`, an
    /// event of its own) can let it place one.
    pub fn next_event(&self, cycle: u64, cus: usize, epoch: impl Fn(usize) -> u64) -> u64 {
        if self.launch_valid {
            return cycle;
        }
        let Some(d) = self.active.iter().find(|d| d.next_wg < d.total_wgs) else {
            return u64::MAX;
        };
        if cus == 0 {
            return u64::MAX;
        }
        let shape = state::shape(d, d.next_wg);
        let settled = self.blocked_shape == Some(shape)
            && self.blocked.len() == cus
            && (0..cus).all(|c| self.blocked[c] == epoch(c));
        if settled {
            u64::MAX
        } else {
            self.next_launch.max(cycle)
        }
    }

    /// A workgroup of dispatch `number` ended; returns the dispatch if it is complete.
    pub fn workgroup_ended(&mut self, number: u32) -> Option<Completed> {
        let i = self.active.iter().position(|d| d.req.number == number)?;
        let d = &mut self.active[i];
        d.live_wgs -= 1;
        if d.live_wgs == 0 && d.next_wg == d.total_wgs {
            let d = self.active.remove(i);
            self.held = held(self.active.len());
            return Some(Completed {
                number,
                channel: d.req.channel,
                start: d.start,
                workgroups: d.total_wgs,
                waves: d.waves_launched,
            });
        }
        None
    }

    /// Launch latency in cycles (from the configuration).
    pub fn launch_latency(&self) -> u32 {
        self.config.launch_latency
    }
}
