//! The front end (host interface and channels, seed 001): MMIO registers,
//! GP_GET/GP_PUT, channel-entry fetch, command-block parsing, semaphore
//! acquire/release/polling, wait-for-idle and channel priority, taking cycles,
//! its memory reads going through the memory system's front-end port.
//!
//! INTERFACE CONTRACT (placeholder body; the real block keeps these names).

use arch::command::DispatchPacket;
use arch::device::{BlockedChannel, DeviceError, Fault};
use serde::{Deserialize, Serialize};

use crate::event::Event;
use crate::mem::backing::Backing;
use crate::mem::MemSystem;

/// Parameters of the front end.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FrontEndConfig {
    /// Number of channels (1–64).
    pub channels: u32,
}

impl Default for FrontEndConfig {
    fn default() -> Self {
        FrontEndConfig { channels: 4 }
    }
}

/// A DISPATCH command handed to the dispatcher.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DispatchRequest {
    /// Dispatch number since reset.
    pub number: u32,
    /// Channel it came from.
    pub channel: u32,
    /// Entry index (GP_GET) of the command.
    pub entry: u32,
    /// The packet.
    pub packet: DispatchPacket,
    /// Device address of the packet (the DISPATCH payload).
    pub packet_address: u64,
}

/// What the front end sees of the rest of the GPU each cycle.
#[derive(Clone, Debug, Default)]
pub struct FrontEndIn<'a> {
    /// The dispatcher can take a new dispatch this cycle.
    pub dispatcher_ready: bool,
    /// Dispatches whose every wave has ended and whose memory transactions
    /// have all completed this cycle (their completion signals are written now).
    pub completed: &'a [u32],
    /// Bit c set while channel c has a dispatch in flight (for WAIT_FOR_IDLE).
    pub busy_channels: u64,
}

/// What the front end drives each cycle.
#[derive(Clone, Debug, Default)]
pub struct FrontEndOut {
    /// A dispatch for the dispatcher (only when it was ready).
    pub dispatch: Option<DispatchRequest>,
    /// A malformed entry or command block, or an unmapped address: the GPU stops.
    pub fault: Option<Fault>,
}

/// The front end.
#[derive(Clone, Debug)]
pub struct FrontEnd {
    config: FrontEndConfig,
}

impl FrontEnd {
    /// Every channel disabled.
    pub fn new(config: &FrontEndConfig) -> FrontEnd {
        FrontEnd {
            config: config.clone(),
        }
    }

    /// Reads an MMIO register (`arch::mmio`).
    pub fn mmio_read(&mut self, offset: u32) -> Result<u32, DeviceError> {
        let _ = (offset, &self.config);
        todo!("front end")
    }

    /// Writes an MMIO register.
    pub fn mmio_write(&mut self, offset: u32, value: u32) -> Result<(), DeviceError> {
        let _ = (offset, value);
        todo!("front end")
    }

    /// One clock. `events` collects front-end memory writes in lockstep mode.
    pub fn tick(
        &mut self,
        input: &FrontEndIn<'_>,
        backing: &mut Backing,
        mem: &mut MemSystem,
        cycle: u64,
        events: Option<&mut Vec<Event>>,
    ) -> FrontEndOut {
        let _ = (input, backing, mem, cycle, events);
        todo!("front end")
    }

    /// True when no enabled channel has an entry left to process.
    pub fn is_idle(&self) -> bool {
        true
    }

    /// Channels waiting on a semaphore (for deadlock reports).
    pub fn blocked(&self, backing: &Backing) -> Vec<BlockedChannel> {
        let _ = backing;
        Vec::new()
    }
}

impl traces::Probe for FrontEnd {
    fn probe(&self, name: &str, t: &mut traces::Tracer) {
        t.scope(name, |_| {});
    }
}
