//! A test double for `Device`: sparse mapped memory, the MMIO registers, and
//! a front end that parses channel entries and command blocks with
//! `arch::command`, honours semaphores and records every dispatch. "Kernels"
//! are closures run at dispatch time.

use std::collections::BTreeMap;

use arch::command::{ChannelEntry, Command, DispatchPacket, SemaphoreCompare, ENTRY_BYTES};
use arch::device::{BlockedChannel, Device, DeviceError, Fault, FaultKind, RunStatus, RunUntil};
use arch::isa::Isa;
use arch::mmio;

/// Device memory: mappings by base address.
#[derive(Default)]
pub struct Memory {
    maps: BTreeMap<u64, Vec<u8>>,
}

impl Memory {
    fn locate(&self, address: u64, len: u64) -> Option<(u64, usize)> {
        let (&base, bytes) = self.maps.range(..=address).next_back()?;
        let off = address - base;
        (off + len <= bytes.len() as u64).then_some((base, off as usize))
    }

    /// Reads `out.len()` bytes; `Err(address)` when any byte is unmapped.
    pub fn read(&self, address: u64, out: &mut [u8]) -> Result<(), u64> {
        let (base, off) = self.locate(address, out.len() as u64).ok_or(address)?;
        out.copy_from_slice(&self.maps[&base][off..off + out.len()]);
        Ok(())
    }

    /// Writes bytes; `Err(address)` when any byte is unmapped.
    pub fn write(&mut self, address: u64, data: &[u8]) -> Result<(), u64> {
        let (base, off) = self.locate(address, data.len() as u64).ok_or(address)?;
        let m = self.maps.get_mut(&base).ok_or(address)?;
        m[off..off + data.len()].copy_from_slice(data);
        Ok(())
    }

    /// A little-endian dword.
    pub fn u32(&self, address: u64) -> Result<u32, u64> {
        let mut b = [0; 4];
        self.read(address, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    /// A little-endian qword.
    pub fn u64(&self, address: u64) -> Result<u64, u64> {
        let mut b = [0; 8];
        self.read(address, &mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    /// Number of live mappings.
    pub fn mapping_count(&self) -> usize {
        self.maps.len()
    }
}

/// One channel's registers plus where the front end is inside the current block.
#[derive(Clone, Copy, Debug, Default)]
pub struct Channel {
    pub base: u64,
    pub size: u32,
    pub priority: u32,
    pub gp_get: u32,
    pub gp_put: u32,
    pub control: u32,
    /// Dword offset to resume at in the current entry's block (after an acquire blocked).
    resume: usize,
}

/// A simulated kernel: gets the packet and memory, may fail with a fault address.
pub type KernelFn = Box<dyn FnMut(&DispatchPacket, &mut Memory) -> Result<(), u64>>;

/// What the front end saw for one processed entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Processed {
    pub channel: u32,
    pub entry: u32,
    pub entry_bits: u64,
    pub commands: Vec<Command>,
}

pub struct FakeDevice {
    pub isa: Isa,
    pub gpu_id: u32,
    pub channel_count: u32,
    pub memory: Memory,
    pub channels: Vec<Channel>,
    pub cycle: u64,
    /// Every dispatch, with the kernarg bytes present at dispatch time
    /// (the descriptor's `kernarg_size` bytes).
    pub dispatches: Vec<(DispatchPacket, Vec<u8>)>,
    pub processed: Vec<Processed>,
    /// (channel, new GP_PUT, pending after the write, ring was full before).
    pub gp_put_writes: Vec<(u32, u32, u32, bool)>,
    /// Every MMIO write, in order.
    pub mmio_writes: Vec<(u32, u32)>,
    pub kernel: Option<KernelFn>,
    /// At most this many entries per `run` call (None: unlimited).
    pub entries_per_run: Option<usize>,
    /// `run(Word)` gives up with BudgetExhausted after this many cycles.
    pub word_budget: u64,
    /// The front end never processes anything and time stands still.
    pub frozen: bool,
}

impl FakeDevice {
    pub fn new(isa: Isa) -> FakeDevice {
        FakeDevice {
            isa,
            gpu_id: match isa {
                Isa::Gfx1030 => mmio::GPU_ID_GFX1030,
                Isa::Gfx803 => mmio::GPU_ID_GFX803,
            },
            channel_count: 4,
            memory: Memory::default(),
            channels: vec![Channel::default(); 4],
            cycle: 0,
            dispatches: Vec::new(),
            processed: Vec::new(),
            gp_put_writes: Vec::new(),
            mmio_writes: Vec::new(),
            kernel: None,
            entries_per_run: None,
            word_budget: 1_000_000,
            frozen: false,
        }
    }

    fn fault(&self, kind: FaultKind) -> DeviceError {
        DeviceError::Fault(Box::new(Fault::at_cycle(kind, self.cycle)))
    }

    fn pending(c: &Channel) -> bool {
        c.control & mmio::CH_CONTROL_ENABLE != 0 && c.size > 0 && c.gp_get != c.gp_put
    }

    /// Processes (the rest of) the entry at GP_GET of channel `n`. Ok(false)
    /// when it stopped on an unsatisfied acquire without running a command.
    fn process_entry(&mut self, n: usize) -> Result<bool, DeviceError> {
        let c = self.channels[n];
        let cmd_fault = |me: &Self, reason: String| {
            me.fault(FaultKind::Command {
                channel: n as u32,
                entry: c.gp_get,
                reason,
            })
        };
        let slot = c.base + u64::from(c.gp_get) * ENTRY_BYTES;
        let bits = self
            .memory
            .u64(slot)
            .map_err(|a| cmd_fault(self, format!("entry at unmapped {a:#x}")))?;
        let entry = ChannelEntry::from_bits(bits).map_err(|e| cmd_fault(self, e.to_string()))?;
        let mut dwords = Vec::new();
        for i in 0..u64::from(entry.length_dwords) {
            let a = entry.address.value() + 4 * i;
            dwords.push(
                self.memory
                    .u32(a)
                    .map_err(|a| cmd_fault(self, format!("block at unmapped {a:#x}")))?,
            );
        }
        let mut at = c.resume;
        let mut commands = Vec::new();
        while at < dwords.len() {
            let (cmd, used) =
                Command::read(&dwords[at..]).map_err(|e| cmd_fault(self, e.to_string()))?;
            match cmd {
                Command::Dispatch(p) => {
                    let mut kernarg = Vec::new();
                    if let Ok(size) = self.memory.u32(p.kernel_object + 8) {
                        kernarg = vec![0u8; size as usize];
                        if size > 0 {
                            self.memory
                                .read(p.kernarg_address, &mut kernarg)
                                .map_err(|a| cmd_fault(self, format!("kernarg at {a:#x}")))?;
                        }
                    }
                    self.dispatches.push((p, kernarg));
                    if let Some(k) = self.kernel.as_mut() {
                        if let Err(address) = k(&p, &mut self.memory) {
                            return Err(self.fault(FaultKind::MemoryViolation {
                                address,
                                write: true,
                            }));
                        }
                    }
                }
                Command::SemaphoreAcquire {
                    address,
                    payload,
                    compare,
                } => {
                    let v = self.memory.u32(address).map_err(|a| {
                        self.fault(FaultKind::MemoryViolation {
                            address: a,
                            write: false,
                        })
                    })?;
                    let ok = compare.holds(v, payload);
                    if !ok {
                        // Commands before the acquire ran: that is progress
                        // (a release here may unblock another channel).
                        let progressed = at != self.channels[n].resume;
                        self.channels[n].resume = at;
                        return Ok(progressed);
                    }
                }
                Command::SemaphoreRelease { address, payload } => {
                    self.memory
                        .write(address, &payload.to_le_bytes())
                        .map_err(|a| {
                            self.fault(FaultKind::MemoryViolation {
                                address: a,
                                write: true,
                            })
                        })?;
                }
                Command::WaitForIdle | Command::Nop { .. } => {}
            }
            commands.push(cmd);
            at += used;
        }
        self.processed.push(Processed {
            channel: n as u32,
            entry: c.gp_get,
            entry_bits: bits,
            commands,
        });
        let ch = &mut self.channels[n];
        ch.resume = 0;
        ch.gp_get = mmio::wrap(i64::from(ch.gp_get) + 1, ch.size);
        Ok(true)
    }

    /// One front-end step: the highest-priority channel that can move
    /// processes one entry. Ok(false) when none could.
    fn step(&mut self) -> Result<bool, DeviceError> {
        let mut order: Vec<usize> = (0..self.channels.len())
            .filter(|&i| Self::pending(&self.channels[i]))
            .collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.channels[i].priority));
        for n in order {
            if self.process_entry(n)? {
                self.cycle += 1;
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn blocked(&self) -> Vec<BlockedChannel> {
        let mut out = Vec::new();
        for (i, c) in self.channels.iter().enumerate() {
            if !Self::pending(c) {
                continue;
            }
            let Ok(bits) = self.memory.u64(c.base + u64::from(c.gp_get) * ENTRY_BYTES) else {
                continue;
            };
            let Ok(entry) = ChannelEntry::from_bits(bits) else {
                continue;
            };
            let mut dwords = Vec::new();
            for k in 0..u64::from(entry.length_dwords) {
                dwords.push(self.memory.u32(entry.address.value() + 4 * k).unwrap_or(0));
            }
            if let Ok((
                Command::SemaphoreAcquire {
                    address,
                    payload,
                    compare,
                },
                _,
            )) = Command::read(&dwords[c.resume..])
            {
                out.push(BlockedChannel {
                    channel: i as u32,
                    entry: c.gp_get,
                    address,
                    payload,
                    compare,
                    current: self.memory.u32(address).unwrap_or(0),
                });
            }
        }
        out
    }

    fn word_holds(&self, address: u64, value: u32, compare: SemaphoreCompare) -> bool {
        match (self.memory.u32(address), compare) {
            (Ok(v), SemaphoreCompare::Equal) => v == value,
            (Ok(v), SemaphoreCompare::GreaterOrEqual) => v >= value,
            (Err(_), _) => false,
        }
    }
}

impl Device for FakeDevice {
    fn isa(&self) -> Isa {
        self.isa
    }

    fn map(&mut self, base: u64, size: u64) -> Result<(), DeviceError> {
        let overlaps = self
            .memory
            .maps
            .iter()
            .any(|(&b, m)| b < base + size && base < b + m.len() as u64);
        if size == 0 || overlaps {
            return Err(DeviceError::BadMapping {
                base,
                size,
                reason: "empty or overlapping".into(),
            });
        }
        self.memory.maps.insert(base, vec![0; size as usize]);
        Ok(())
    }

    fn unmap(&mut self, base: u64) -> Result<(), DeviceError> {
        self.memory
            .maps
            .remove(&base)
            .map(|_| ())
            .ok_or(DeviceError::BadMapping {
                base,
                size: 0,
                reason: "not mapped".into(),
            })
    }

    fn read(&self, address: u64, out: &mut [u8]) -> Result<(), DeviceError> {
        self.memory
            .read(address, out)
            .map_err(|_| DeviceError::Unmapped {
                address,
                len: out.len() as u64,
            })
    }

    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), DeviceError> {
        self.memory
            .write(address, data)
            .map_err(|_| DeviceError::Unmapped {
                address,
                len: data.len() as u64,
            })
    }

    fn mmio_read(&mut self, offset: u32) -> Result<u32, DeviceError> {
        let bad = || DeviceError::Mmio {
            offset,
            reason: "no such register".into(),
        };
        match offset {
            mmio::GPU_ID => Ok(self.gpu_id),
            mmio::CHANNEL_COUNT => Ok(self.channel_count),
            mmio::CYCLE_LO => Ok(self.cycle as u32),
            mmio::CYCLE_HI => Ok((self.cycle >> 32) as u32),
            _ => {
                let (n, reg) = mmio::split_channel_reg(offset).ok_or_else(bad)?;
                let c = self.channels.get(n as usize).ok_or_else(bad)?;
                Ok(match reg {
                    mmio::CH_BASE_LO => c.base as u32,
                    mmio::CH_BASE_HI => (c.base >> 32) as u32,
                    mmio::CH_SIZE => c.size,
                    mmio::CH_PRIORITY => c.priority,
                    mmio::CH_GP_GET => c.gp_get,
                    mmio::CH_GP_PUT => c.gp_put,
                    mmio::CH_CONTROL => c.control,
                    _ => return Err(bad()),
                })
            }
        }
    }

    fn mmio_write(&mut self, offset: u32, value: u32) -> Result<(), DeviceError> {
        self.mmio_writes.push((offset, value));
        let bad = || DeviceError::Mmio {
            offset,
            reason: "no such register or read-only".into(),
        };
        let (n, reg) = mmio::split_channel_reg(offset).ok_or_else(bad)?;
        let c = self.channels.get_mut(n as usize).ok_or_else(bad)?;
        match reg {
            mmio::CH_BASE_LO => c.base = (c.base & !0xffff_ffff) | u64::from(value),
            mmio::CH_BASE_HI => c.base = (c.base & 0xffff_ffff) | (u64::from(value) << 32),
            mmio::CH_SIZE => c.size = value,
            mmio::CH_PRIORITY => c.priority = value,
            mmio::CH_GP_GET => c.gp_get = value,
            mmio::CH_GP_PUT => {
                let was_full = c.size > 0 && mmio::is_full(c.gp_get, c.gp_put, c.size);
                c.gp_put = value;
                let pending = mmio::pending(c.gp_get, value, c.size);
                self.gp_put_writes.push((n, value, pending, was_full));
            }
            mmio::CH_CONTROL => c.control = value,
            _ => return Err(bad()),
        }
        Ok(())
    }

    fn run(&mut self, until: RunUntil) -> Result<RunStatus, DeviceError> {
        let start = self.cycle;
        let mut entries = 0usize;
        loop {
            match until {
                RunUntil::Idle if !self.channels.iter().any(Self::pending) => {
                    return Ok(RunStatus::Done)
                }
                RunUntil::Word {
                    address,
                    value,
                    compare,
                } => {
                    if self.word_holds(address, value, compare) {
                        return Ok(RunStatus::Done);
                    }
                    if self.cycle - start >= self.word_budget {
                        return Ok(RunStatus::BudgetExhausted);
                    }
                }
                RunUntil::Cycles(n) if self.cycle - start >= n => {
                    return Ok(RunStatus::BudgetExhausted)
                }
                _ => {}
            }
            if self.frozen {
                return Ok(RunStatus::BudgetExhausted);
            }
            if self.entries_per_run.is_some_and(|m| entries >= m) {
                return Ok(RunStatus::BudgetExhausted);
            }
            if self.step()? {
                entries += 1;
                continue;
            }
            // No channel can move.
            let blocked = self.blocked();
            if !blocked.is_empty() {
                return Ok(RunStatus::Blocked(blocked));
            }
            match until {
                RunUntil::Cycles(n) => {
                    self.cycle = start + n;
                    return Ok(RunStatus::BudgetExhausted);
                }
                _ => return Ok(RunStatus::Blocked(Vec::new())),
            }
        }
    }

    fn now(&self) -> u64 {
        self.cycle
    }
}
