//! One channel's registers (the MMIO-visible ones and the command processor's
//! per-channel progress), and the MMIO rules of `docs/architecture.md`.

use arbitrary_int::{u3, u48};
use arch::command::SemaphoreCompare;
use arch::device::DeviceError;
use arch::mmio;

/// Where a channel is in processing its current entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// No block loaded: the next pending entry must be fetched.
    #[default]
    NeedEntry,
    /// The entry read is in flight.
    FetchingEntry,
    /// `lines` block reads are in flight.
    FetchingBlock {
        /// Responses still to come.
        lines: u16,
    },
    /// The block is loaded; the next command starts at the cursor.
    Ready,
    /// The acquire's word read is in flight.
    ReadingSemaphore,
    /// The acquire failed; the word is read again when the poll timer expires.
    Polling,
    /// WAIT_FOR_IDLE: waiting until every dispatch numbered below `wfi_before` completed.
    WaitIdle,
    /// A malformed entry or command stopped the channel.
    Error,
}

impl Phase {
    /// 3-bit code for waveforms.
    pub fn code(self) -> u3 {
        u3::new(match self {
            Phase::NeedEntry => 0,
            Phase::FetchingEntry => 1,
            Phase::FetchingBlock { .. } => 2,
            Phase::Ready => 3,
            Phase::ReadingSemaphore => 4,
            Phase::Polling => 5,
            Phase::WaitIdle => 6,
            Phase::Error => 7,
        })
    }
}

traces::signals! {
    /// The registers of one channel.
    #[derive(Clone, Debug, Default)]
    pub struct ChannelRegs {
        /// Ring byte address (CH_BASE).
        pub base: u48,
        /// Entries in the ring, `Q` (CH_SIZE).
        pub size: u32,
        /// CH_PRIORITY: higher is served first.
        pub priority: u32,
        /// Next entry to process.
        pub gp_get: u32,
        /// One past the last submitted entry.
        pub gp_put: u32,
        /// CH_CONTROL.ENABLE.
        pub enabled: bool,
        /// Command-processor phase (see `Phase::code`).
        pub phase: u3,
        /// Dword index of the next command in the loaded block.
        pub cursor: u16,
        /// Length of the loaded block in dwords.
        pub block_len: u16,
        /// Cycles until a failed acquire is re-read.
        pub poll_timer: u16,
        /// Semaphore address of the pending acquire.
        pub sem_address: u48,
        /// Payload the pending acquire waits for.
        pub sem_payload: u32,
        /// Compare of the pending acquire (0 `==`, 1 `>=`).
        pub sem_ge: bool,
        /// The word's value at the last read.
        pub sem_seen: u32,
        /// WAIT_FOR_IDLE: dispatches numbered below this must complete.
        pub wfi_before: u32,
        /// Entries processed since reset.
        pub entries_done: u32,
        /// Cycles spent waiting on acquires.
        pub acquire_wait_cycles: u64,
        /// Phase as an enum (the waveform shows `phase`).
        @untraced pub state: Phase,
        /// Address of the loaded block.
        @untraced pub block_address: u64,
        /// The loaded block's dwords.
        @untraced pub block: Vec<u32>,
    }
}

impl ChannelRegs {
    /// Entries waiting in the ring.
    pub fn pending(&self) -> u32 {
        if self.size == 0 {
            0
        } else {
            mmio::pending(self.gp_get, self.gp_put, self.size)
        }
    }

    /// True while the channel has an entry in progress or waiting.
    pub fn has_work(&self) -> bool {
        self.state != Phase::Error && (self.state != Phase::NeedEntry || self.pending() > 0)
    }

    /// Moves to `phase`, keeping the waveform code in step.
    pub fn set(&mut self, phase: Phase) {
        self.state = phase;
        self.phase = phase.code();
    }

    /// CH_STATE as the driver reads it.
    pub fn ch_state(&self) -> u32 {
        match self.state {
            Phase::Error => mmio::CH_STATE_ERROR,
            Phase::ReadingSemaphore | Phase::Polling => mmio::CH_STATE_SEMAPHORE,
            Phase::WaitIdle => mmio::CH_STATE_WAIT_IDLE,
            _ if self.has_work() => mmio::CH_STATE_RUNNING,
            _ => mmio::CH_STATE_IDLE,
        }
    }

    /// The pending acquire's comparison.
    pub fn compare(&self) -> SemaphoreCompare {
        if self.sem_ge {
            SemaphoreCompare::GreaterOrEqual
        } else {
            SemaphoreCompare::Equal
        }
    }

    /// Reads channel register `reg`.
    pub fn read(&self, reg: u32) -> Option<u32> {
        Some(match reg {
            mmio::CH_BASE_LO => self.base.value() as u32,
            mmio::CH_BASE_HI => (self.base.value() >> 32) as u32,
            mmio::CH_SIZE => self.size,
            mmio::CH_PRIORITY => self.priority,
            mmio::CH_GP_GET => self.gp_get,
            mmio::CH_GP_PUT => self.gp_put,
            mmio::CH_CONTROL => u32::from(self.enabled),
            mmio::CH_STATE => self.ch_state(),
            _ => return None,
        })
    }

    /// Writes channel register `reg` under the rules of `docs/architecture.md`;
    /// `offset` names the register in errors.
    pub fn write(&mut self, offset: u32, reg: u32, value: u32) -> Result<(), DeviceError> {
        let err = |reason: &str| DeviceError::Mmio {
            offset,
            reason: reason.to_string(),
        };
        let while_disabled = |enabled: bool, name: &str| {
            if enabled {
                Err(err(&format!(
                    "{name} cannot change while the channel is enabled"
                )))
            } else {
                Ok(())
            }
        };
        match reg {
            mmio::CH_BASE_LO => {
                while_disabled(self.enabled, "CH_BASE_LO")?;
                let v = (self.base.value() & !0xffff_ffff) | u64::from(value);
                self.base = u48::new(v);
            }
            mmio::CH_BASE_HI => {
                while_disabled(self.enabled, "CH_BASE_HI")?;
                if value > 0xffff {
                    return Err(err("the ring address must fit in 48 bits"));
                }
                let v = (self.base.value() & 0xffff_ffff) | u64::from(value) << 32;
                self.base = u48::new(v);
            }
            mmio::CH_SIZE => {
                while_disabled(self.enabled, "CH_SIZE")?;
                self.size = value;
                self.restart_entry();
            }
            mmio::CH_PRIORITY => self.priority = value,
            mmio::CH_GP_GET => {
                while_disabled(self.enabled, "CH_GP_GET")?;
                if value >= self.size {
                    return Err(err(&format!(
                        "GP_GET {value} is not below Q = {}",
                        self.size
                    )));
                }
                self.gp_get = value;
                // Writing GP_GET abandons a partly processed entry.
                self.restart_entry();
            }
            mmio::CH_GP_PUT => {
                if value >= self.size {
                    return Err(err(&format!(
                        "GP_PUT {value} is not below Q = {}",
                        self.size
                    )));
                }
                self.gp_put = value;
            }
            mmio::CH_CONTROL => {
                if value & !mmio::CH_CONTROL_ENABLE != 0 {
                    return Err(err("undefined CONTROL bits are set"));
                }
                let enable = value & mmio::CH_CONTROL_ENABLE != 0;
                if enable && !self.enabled {
                    if self.size == 0 {
                        return Err(err("cannot enable a channel with Q = 0"));
                    }
                    if self.base.value() % 8 != 0 {
                        return Err(err("the ring address is not 8-byte aligned"));
                    }
                    if self.gp_get >= self.size || self.gp_put >= self.size {
                        return Err(err("GP_GET or GP_PUT is not below Q"));
                    }
                }
                self.enabled = enable;
            }
            mmio::CH_STATE => return Err(err("CH_STATE is read-only")),
            _ => return Err(err("no channel register at this offset")),
        }
        Ok(())
    }

    fn restart_entry(&mut self) {
        if self.state != Phase::Error {
            self.set(Phase::NeedEntry);
        }
        self.cursor = 0;
        self.block_len = 0;
        self.block.clear();
    }
}
