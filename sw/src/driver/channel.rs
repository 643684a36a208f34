//! Channel setup and the command-block builder.
//!
//! The driver owns one standard channel (seed 001 §3): a ring of `Q` entries
//! in device memory. To submit, it writes a command block and its entry at
//! index GP_PUT, then advances GP_PUT; the front end processes the pending
//! entries `[GP_GET, GP_PUT)` and advances GP_GET. The ring is full when
//! `GP_GET == (GP_PUT + 1) mod Q`: the entry at GP_PUT is never processed, so
//! at most `Q - 1` entries are pending.

use arch::command::{Command, SemaphoreCompare};
use arch::mmio;

/// How the driver's channel is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChannelConfig {
    /// Channel index (must be below the device's CHANNEL_COUNT).
    pub index: u32,
    /// Ring entries `Q` (2..=65536); at most `Q - 1` submissions are in flight.
    pub entries: u32,
    /// Arbitration priority (higher runs first).
    pub priority: u32,
}

impl Default for ChannelConfig {
    fn default() -> Self {
        ChannelConfig {
            index: 0,
            entries: 64,
            priority: 0,
        }
    }
}

/// MMIO offsets of the channel's registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ChannelRegs {
    pub index: u32,
}

impl ChannelRegs {
    pub fn reg(self, r: u32) -> u32 {
        mmio::channel_reg(self.index, r)
    }
}

/// Builds one command block (a `Vec<u32>`) from commands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandBlock {
    dwords: Vec<u32>,
}

impl CommandBlock {
    /// An empty block.
    pub fn new() -> CommandBlock {
        CommandBlock::default()
    }

    /// Appends a command.
    pub fn push(&mut self, command: Command) -> &mut Self {
        command.write(&mut self.dwords);
        self
    }

    /// Appends a semaphore acquire (`[address] >= payload`).
    pub fn acquire_ge(&mut self, address: u64, payload: u32) -> &mut Self {
        self.push(Command::SemaphoreAcquire {
            address,
            payload,
            compare: SemaphoreCompare::GreaterOrEqual,
        })
    }

    /// Appends a semaphore release.
    pub fn release(&mut self, address: u64, payload: u32) -> &mut Self {
        self.push(Command::SemaphoreRelease { address, payload })
    }

    /// The block's dwords so far.
    pub fn dwords(&self) -> &[u32] {
        &self.dwords
    }

    /// True when no command was added.
    pub fn is_empty(&self) -> bool {
        self.dwords.is_empty()
    }

    /// The memory image (little-endian dwords).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.dwords.iter().flat_map(|d| d.to_le_bytes()).collect()
    }
}
