//! Launches whose kernel creates work (seed 001, method 400): a GPU-owned
//! channel that kernel threads fill themselves, with no doorbell.
//!
//! [`Driver::create_gpu_channel`] builds the channel once; each
//! [`Driver::launch_creating_work`] then runs method 400 on it:
//!
//! 1. g0 = the channel's GP_GET (0 on the first launch; afterwards the entry
//!    where the previous launch's terminal block parked it). GP_PUT =
//!    wrap(g0 − 1), soft GP_PUT = g0 + 1, shadow GP_PUT = g0 + Q − 1 (the
//!    thread-side pointers count entries without wrapping; `% Q` gives the
//!    ring index, so shadow % Q = GP_PUT).
//! 2. Entry g0 holds [acquire X, acquire sem\[g0\]] (on later launches this is
//!    the tail of the previous terminal block).
//! 3. The CPU channel gets [DISPATCH parent, WAIT_FOR_IDLE, release X,
//!    acquire Y] (and the driver's own fence behind it).
//! 4. Threads reserve entries on soft GP_PUT, publish by releasing
//!    sem\[first − 1\], and the last one inserts the terminal block [WFI,
//!    release Y, acquire X, acquire sem\[t\]] (`sw/devlib/gpusim_work.h`).
//!
//! Semaphores use epochs: launch `e` releases X, Y and the per-entry
//! semaphores with the value `e`, and every acquire compares `≥ e`; the
//! terminal block's acquires ask for `e + 1`, so the channel parks again.
//! **The channel is reused** from launch to launch (never rebuilt): it stays
//! parked in the last terminal block, which is the next launch's entry g0.
//!
//! Everything the kernel needs is in one *work-queue descriptor* in device
//! memory (layout below, mirrored by `gpusim_work_queue` in the header); the
//! driver passes its address as the parent kernel's **first** argument.

use arch::code_object::ValueKind;
use arch::command::{ChannelEntry, Command, SemaphoreCompare, ENTRY_BYTES};
use arch::device::Device;
use arch::mmio::{self, wrap};

use super::channel::CommandBlock;
use super::kernarg::{self, Arg, LaunchDims};
use super::{scratch_bytes, Allocation, Driver, DriverError, LoadedKernel, KERNARG_PADDING};

/// Byte offsets of the work-queue descriptor (`gpusim_work_queue`).
pub mod wq {
    /// u64: the entry ring.
    pub const RING: u64 = 0;
    /// u64: the per-entry semaphore array (Q words).
    pub const SEMS: u64 = 8;
    /// u64: semaphore X (releases the GPU channel).
    pub const X: u64 = 16;
    /// u64: semaphore Y (releases the CPU channel).
    pub const Y: u64 = 24;
    /// u64: the block heap threads allocate command blocks and kernargs from.
    pub const HEAP: u64 = 32;
    /// u64: the child-kernel table (`gpusim_kernel[]`).
    pub const KERNELS: u64 = 40;
    /// u64: this launch's trailing-acquire blocks (one per entry, 32 bytes each).
    pub const TRAILING: u64 = 48;
    /// u64: this launch's terminal blocks (one per entry, 64 bytes each).
    pub const TERMINAL: u64 = 56;
    /// u32: entries Q.
    pub const Q: u64 = 64;
    /// u32: the launch's epoch (release payload; acquires compare `≥`).
    pub const EPOCH: u64 = 68;
    /// u32: soft GP_PUT (next entry to hand out, unwrapped).
    pub const SOFT_PUT: u64 = 72;
    /// u32: shadow GP_PUT (the limit, unwrapped).
    pub const SHADOW_PUT: u64 = 76;
    /// u32: heap bytes.
    pub const HEAP_SIZE: u64 = 80;
    /// u32: heap bytes handed out.
    pub const HEAP_TOP: u64 = 84;
    /// u32: work-items that have not called `gw_done` yet.
    pub const PENDING: u64 = 88;
    /// u32: first refused reservation's `old + 1` when it left room (0: none).
    pub const OVERFLOW_SLOT: u64 = 92;
    /// u32: reservations refused by the room check.
    pub const OVERFLOW_RESERVATIONS: u64 = 96;
    /// u32: entries those reservations asked for.
    pub const OVERFLOW_ENTRIES: u64 = 100;
    /// u32: heap allocations refused.
    pub const HEAP_FAILURES: u64 = 104;
    /// u32: entries in the child-kernel table.
    pub const KERNEL_COUNT: u64 = 108;
    /// u32: terminal blocks inserted (1 after a correct launch).
    pub const FINISHED: u64 = 112;
    /// u32: g0 of this launch.
    pub const G0: u64 = 116;
    /// u32: reservations accepted.
    pub const RESERVATIONS: u64 = 120;
    /// u32: entries accepted (Σ N + 1).
    pub const ENTRIES: u64 = 124;
    /// u32: other misuse seen by the library (bad kernel index, finish without a slot).
    pub const ERRORS: u64 = 128;
    /// u32: the terminal block's entry (unwrapped).
    pub const TERMINAL_ENTRY: u64 = 132;
    /// Descriptor size in bytes.
    pub const SIZE: u64 = 160;
    /// Offset of semaphore X in the descriptor's allocation.
    pub const X_WORD: u64 = 192;
    /// Offset of semaphore Y in the descriptor's allocation.
    pub const Y_WORD: u64 = 196;
}

/// Byte offsets of one child-kernel table entry (`gpusim_kernel`, 64 bytes).
pub mod kd {
    /// u64: the kernel descriptor (DISPATCH `kernel_object`).
    pub const OBJECT: u64 = 0;
    /// u64: a kernarg template: hidden arguments filled for a 1-D launch.
    pub const TEMPLATE: u64 = 8;
    /// u32: kernarg segment bytes (a multiple of 4).
    pub const SIZE: u64 = 16;
    /// i32: offset of `hidden_block_count_x` (−1: absent).
    pub const BLOCK_COUNT: u64 = 20;
    /// i32: offset of `hidden_group_size_x` (−1: absent).
    pub const GROUP_SIZE: u64 = 24;
    /// i32: offset of `hidden_remainder_x` (−1: absent).
    pub const REMAINDER: u64 = 28;
    /// i32: offset of `hidden_grid_dims` (−1: absent).
    pub const GRID_DIMS: u64 = 32;
    /// Bytes per entry.
    pub const STRIDE: u64 = 64;
}

/// Bytes per trailing-acquire block slot.
const TRAILING_BYTES: u64 = 32;
/// Bytes per terminal block slot.
const TERMINAL_BYTES: u64 = 64;

/// How a GPU-owned channel is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuChannelConfig {
    /// Channel index (must differ from the driver's own channel).
    pub index: u32,
    /// Ring entries `Q` (4..=65536); work may use Q − 3 entries per launch
    /// (g0 holds the driver's acquire, GP_PUT is never processed, one entry
    /// is kept for the terminal block).
    pub entries: u32,
    /// Arbitration priority.
    pub priority: u32,
    /// Bytes of the heap threads allocate command blocks and kernargs from
    /// (reset at every launch).
    pub heap_bytes: u32,
    /// GP_GET of the first launch (g0; any value below `entries`).
    pub first_entry: u32,
}

impl Default for GpuChannelConfig {
    fn default() -> Self {
        GpuChannelConfig {
            index: 1,
            entries: 256,
            priority: 0,
            heap_bytes: 1 << 20,
            first_entry: 0,
        }
    }
}

/// A GPU-owned channel and the memory the kernel threads use with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuChannel {
    config: GpuChannelConfig,
    /// The work-queue descriptor (and X, Y after it).
    descriptor: Allocation,
    ring: Allocation,
    sems: Allocation,
    heap: Allocation,
    kernels: Allocation,
    /// Kernarg templates of the child kernels.
    templates: Vec<Allocation>,
    /// Two banks (by epoch parity) of trailing and terminal blocks.
    fixed: Allocation,
    /// The first launch's [acquire X, acquire sem\[g0\]] block.
    leading: Allocation,
    /// The last launch number (epoch); 0 before the first launch.
    epoch: u32,
    /// Names of the child kernels, in table order.
    children: Vec<String>,
    /// Set when a launch failed: the channel's state is unknown.
    broken: bool,
}

impl GpuChannel {
    /// Device address of the work-queue descriptor (the parent's first argument).
    pub fn queue_address(&self) -> u64 {
        self.descriptor.address
    }
    /// Semaphore X's address.
    pub fn x_address(&self) -> u64 {
        self.descriptor.address + wq::X_WORD
    }
    /// Semaphore Y's address.
    pub fn y_address(&self) -> u64 {
        self.descriptor.address + wq::Y_WORD
    }
    /// The per-entry semaphore array.
    pub fn semaphores(&self) -> Allocation {
        self.sems
    }
    /// The entry ring.
    pub fn ring(&self) -> Allocation {
        self.ring
    }
    /// The settings it was made with.
    pub fn config(&self) -> &GpuChannelConfig {
        &self.config
    }
    /// Launches run so far (the current epoch).
    pub fn launches(&self) -> u32 {
        self.epoch
    }
    /// Child kernel names, in the order of the table the kernel indexes.
    pub fn children(&self) -> &[String] {
        &self.children
    }
    fn trailing_bank(&self, epoch: u32) -> u64 {
        let q = u64::from(self.config.entries);
        self.fixed.address + u64::from(epoch % 2) * q * (TRAILING_BYTES + TERMINAL_BYTES)
    }
    fn terminal_bank(&self, epoch: u32) -> u64 {
        self.trailing_bank(epoch) + u64::from(self.config.entries) * TRAILING_BYTES
    }
}

/// What one launch that created work did, read back from the descriptor.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorkReport {
    /// The launch number (semaphore epoch).
    pub epoch: u32,
    /// The GPU channel's g0 for this launch.
    pub g0: u32,
    /// Ring entries Q.
    pub entries: u32,
    /// Reservations accepted.
    pub reservations: u32,
    /// Entries handed out by accepted reservations.
    pub entries_reserved: u32,
    /// Reservations refused because they reached past shadow GP_PUT.
    pub overflow_reservations: u32,
    /// Entries the refused reservations asked for.
    pub overflow_entries: u32,
    /// Heap allocations refused.
    pub heap_failures: u32,
    /// Terminal blocks inserted (1 when the protocol was followed).
    pub terminal_blocks: u32,
    /// Where the terminal block went (ring index): the next launch's g0.
    pub terminal_entry: u32,
    /// Library misuse counted by the device (bad child index, no slot).
    pub errors: u32,
    /// The GPU channel's GP_GET after the launch.
    pub gp_get_after: u32,
}

impl WorkReport {
    /// True when any reservation or allocation was refused, or the library saw misuse.
    pub fn has_errors(&self) -> bool {
        self.overflow_reservations > 0
            || self.heap_failures > 0
            || self.errors > 0
            || self.terminal_blocks != 1
    }

    /// A one-paragraph account of what went wrong (empty when nothing did).
    pub fn problems(&self) -> String {
        let mut out = Vec::new();
        if self.overflow_reservations > 0 {
            out.push(format!(
                "work queue overflow: {} reservation(s) asking for {} entries were refused \
                 (ring of {} entries, g0 {}, {} entries in {} accepted reservations; \
                 the terminal block still ran at entry {}); enlarge `entries`",
                self.overflow_reservations,
                self.overflow_entries,
                self.entries,
                self.g0,
                self.entries_reserved,
                self.reservations,
                self.terminal_entry
            ));
        }
        if self.heap_failures > 0 {
            out.push(format!(
                "work heap exhausted: {} allocation(s) refused; enlarge `heap_bytes`",
                self.heap_failures
            ));
        }
        if self.errors > 0 {
            out.push(format!(
                "the device library counted {} misuse(s) (bad child-kernel index or finish without a slot)",
                self.errors
            ));
        }
        if self.terminal_blocks != 1 {
            out.push(format!(
                "{} terminal blocks were inserted (expected exactly 1)",
                self.terminal_blocks
            ));
        }
        out.join("; ")
    }
}

fn bad(kernel: &str, reason: String) -> DriverError {
    DriverError::BadLaunch {
        kernel: kernel.to_string(),
        reason,
    }
}

/// Offset of hidden argument `kind` in `kernel`'s kernarg segment, or −1.
fn hidden_offset(kernel: &LoadedKernel, kind: ValueKind) -> i32 {
    kernel
        .kernel
        .metadata
        .args
        .iter()
        .find(|a| a.value_kind == kind)
        .map_or(-1, |a| a.offset as i32)
}

impl<D: Device> Driver<D> {
    fn write_u32(&mut self, address: u64, value: u32) -> Result<(), DriverError> {
        Ok(self.device.write(address, &value.to_le_bytes())?)
    }

    fn write_u64(&mut self, address: u64, value: u64) -> Result<(), DriverError> {
        Ok(self.device.write(address, &value.to_le_bytes())?)
    }

    fn read_u32(&self, address: u64) -> Result<u32, DriverError> {
        let mut b = [0u8; 4];
        self.device.read(address, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn write_block(&mut self, address: u64, commands: &[Command]) -> Result<u16, DriverError> {
        let mut block = CommandBlock::new();
        for c in commands {
            block.push(*c);
        }
        self.device.write(address, &block.to_bytes())?;
        Ok(block.dwords().len() as u16)
    }

    /// Method 400, steps 404–412, done once: allocates the GPU-owned channel
    /// (ring, per-entry semaphores, X and Y, the descriptor, the heap, the
    /// child-kernel table with a kernarg template per child) and programs the
    /// channel (GP_GET = g0, GP_PUT = wrap(g0 − 1)), parked on acquire X.
    /// `children` are the kernels the threads may dispatch, indexed in this
    /// order by the device library.
    pub fn create_gpu_channel(
        &mut self,
        config: GpuChannelConfig,
        children: &[&LoadedKernel],
    ) -> Result<GpuChannel, DriverError> {
        let q = config.entries;
        let count = self.device.mmio_read(mmio::CHANNEL_COUNT)?;
        if config.index >= count {
            return Err(DriverError::NoChannel {
                channel: config.index,
                count,
            });
        }
        if config.index == self.config.channel.index {
            return Err(bad(
                "<gpu channel>",
                format!(
                    "channel {} is the driver's own channel; a GPU-owned channel needs another",
                    config.index
                ),
            ));
        }
        if !(4..=65536).contains(&q) {
            return Err(DriverError::BadRingSize(q));
        }
        if config.first_entry >= q {
            return Err(bad(
                "<gpu channel>",
                format!("first entry {} is not below Q = {q}", config.first_entry),
            ));
        }
        if config.heap_bytes < 1024 {
            return Err(bad(
                "<gpu channel>",
                format!("heap of {} bytes is too small", config.heap_bytes),
            ));
        }
        let q64 = u64::from(q);
        let mut made = Vec::new();
        let result = (|| {
            let mut grab = |d: &mut Self, size: u64, align: u64| {
                let a = d.alloc(size, align)?;
                made.push(a);
                Ok::<Allocation, DriverError>(a)
            };
            let descriptor = grab(self, 256, 64)?;
            let ring = grab(self, q64 * ENTRY_BYTES, 8)?;
            let sems = grab(self, q64 * 4, 64)?;
            let heap = grab(self, u64::from(config.heap_bytes), 256)?;
            let kernels = grab(self, kd::STRIDE * children.len().max(1) as u64, 64)?;
            let fixed = grab(self, 2 * q64 * (TRAILING_BYTES + TERMINAL_BYTES), 64)?;
            let leading = grab(self, 64, 64)?;
            let mut templates = Vec::new();
            for (i, child) in children.iter().enumerate() {
                let name = child.name();
                let dims = LaunchDims::linear(1, 1);
                if scratch_bytes(child, &dims)? > 0 {
                    return Err(bad(
                        name,
                        "a child kernel with a private segment (scratch) cannot be dispatched \
                         by GPU threads in gpusim (no scratch is allocated for them)"
                            .into(),
                    ));
                }
                let mut args = Vec::new();
                for a in child
                    .kernel
                    .metadata
                    .args
                    .iter()
                    .filter(|a| !kernarg::is_hidden(&a.value_kind))
                {
                    args.push(match a.value_kind {
                        ValueKind::GlobalBuffer => Arg::Buffer(0),
                        ValueKind::ByValue => Arg::Value(vec![0; a.size as usize]),
                        _ => {
                            return Err(bad(
                                name,
                                format!(
                                    "argument kind `{}` cannot be passed by GPU threads",
                                    a.value_kind
                                ),
                            ))
                        }
                    });
                }
                let layout = kernarg::layout(&child.kernel, &dims, &args)?;
                let size = (layout.bytes.len() as u64).next_multiple_of(4);
                let t = grab(self, size.max(4).next_multiple_of(KERNARG_PADDING), 64)?;
                self.device.write(t.address, &layout.bytes)?;
                templates.push(t);
                let at = kernels.address + kd::STRIDE * i as u64;
                // The GPU dispatches children without the driver: a legacy
                // child is translated now, when it becomes dispatchable.
                let object = self.kernel_object_for(child)?;
                self.write_u64(at + kd::OBJECT, object)?;
                self.write_u64(at + kd::TEMPLATE, t.address)?;
                self.write_u32(at + kd::SIZE, size as u32)?;
                for (off, kind) in [
                    (kd::BLOCK_COUNT, ValueKind::HiddenBlockCountX),
                    (kd::GROUP_SIZE, ValueKind::HiddenGroupSizeX),
                    (kd::REMAINDER, ValueKind::HiddenRemainderX),
                    (kd::GRID_DIMS, ValueKind::HiddenGridDims),
                ] {
                    self.write_u32(at + off, hidden_offset(child, kind) as u32)?;
                }
            }
            Ok(GpuChannel {
                config,
                descriptor,
                ring,
                sems,
                heap,
                kernels,
                templates,
                fixed,
                leading,
                epoch: 0,
                children: children.iter().map(|k| k.name().to_string()).collect(),
                broken: false,
            })
        })();
        let channel = match result {
            Ok(c) => c,
            Err(e) => {
                self.free_all(made);
                return Err(e);
            }
        };
        // The descriptor's constant part.
        let d = channel.descriptor.address;
        for (off, v) in [
            (wq::RING, channel.ring.address),
            (wq::SEMS, channel.sems.address),
            (wq::X, channel.x_address()),
            (wq::Y, channel.y_address()),
            (wq::HEAP, channel.heap.address),
            (wq::KERNELS, channel.kernels.address),
        ] {
            self.write_u64(d + off, v)?;
        }
        self.write_u32(d + wq::Q, q)?;
        self.write_u32(d + wq::HEAP_SIZE, config.heap_bytes)?;
        self.write_u32(d + wq::KERNEL_COUNT, children.len() as u32)?;
        // (406, 408) entry g0 → [acquire X ≥ 1, acquire sem[g0] ≥ 1].
        let g0 = config.first_entry;
        let len = self.write_block(
            channel.leading.address,
            &[
                acquire(channel.x_address(), 1),
                acquire(channel.sems.address + 4 * u64::from(g0), 1),
            ],
        )?;
        let entry = ChannelEntry::new(channel.leading.address, len)?;
        self.write_u64(
            channel.ring.address + u64::from(g0) * ENTRY_BYTES,
            entry.to_bits(),
        )?;
        // (410) GP_GET = g0, GP_PUT = wrap(g0 − 1): the ring looks full.
        let reg = |r| mmio::channel_reg(config.index, r);
        let base = channel.ring.address;
        for (r, value) in [
            (mmio::CH_CONTROL, 0),
            (mmio::CH_BASE_LO, base as u32),
            (mmio::CH_BASE_HI, (base >> 32) as u32),
            (mmio::CH_SIZE, q),
            (mmio::CH_PRIORITY, config.priority),
            (mmio::CH_GP_GET, g0),
            (mmio::CH_GP_PUT, wrap(i64::from(g0) - 1, q)),
            (mmio::CH_CONTROL, mmio::CH_CONTROL_ENABLE),
        ] {
            self.device.mmio_write(reg(r), value)?;
        }
        Ok(channel)
    }

    /// Disables the channel and frees its memory (the channel must be parked:
    /// no launch of it in flight).
    pub fn destroy_gpu_channel(&mut self, channel: GpuChannel) -> Result<(), DriverError> {
        self.device
            .mmio_write(mmio::channel_reg(channel.config.index, mmio::CH_CONTROL), 0)?;
        for a in [
            channel.descriptor,
            channel.ring,
            channel.sems,
            channel.heap,
            channel.kernels,
            channel.fixed,
            channel.leading,
        ]
        .into_iter()
        .chain(channel.templates)
        {
            self.free(a)?;
        }
        Ok(())
    }

    /// One launch whose kernel creates work (method 400 steps 405, 410–416 on
    /// the reused channel), waited for. The driver passes the work-queue
    /// descriptor as the kernel's first argument: `args` are the others.
    /// `pending` starts at the parent's work-item count (see `gw_done`).
    ///
    /// A refused reservation does not fail the launch: the counts come back
    /// in the [`WorkReport`] ([`WorkReport::problems`]). A thread that never
    /// publishes leaves the front end blocked: `DriverError::Blocked` names
    /// each channel, entry and semaphore.
    pub fn launch_creating_work(
        &mut self,
        channel: &mut GpuChannel,
        parent: &LoadedKernel,
        dims: LaunchDims,
        args: &[Arg],
    ) -> Result<WorkReport, DriverError> {
        if channel.broken {
            return Err(bad(
                parent.name(),
                "the GPU-owned channel is unusable after a failed launch; destroy and recreate it"
                    .into(),
            ));
        }
        let epoch = channel
            .epoch
            .checked_add(1)
            .filter(|&e| e < u32::MAX)
            .ok_or(DriverError::FenceExhausted)?;
        let q = channel.config.entries;
        let reg = |r| mmio::channel_reg(channel.config.index, r);
        // (404) g0 = GP_GET: where the previous terminal block parked the channel.
        let g0 = self.device.mmio_read(reg(mmio::CH_GP_GET))?;
        if g0 >= q {
            return Err(DriverError::BadGpGet {
                channel: channel.config.index,
                gp_get: g0,
                entries: q,
            });
        }
        // Bad arguments are refused before anything changes.
        let d = channel.descriptor.address;
        let mut full = vec![Arg::Buffer(d)];
        full.extend_from_slice(args);
        let kernarg = kernarg::layout(&parent.kernel, &dims, &full)?;
        // A legacy parent is translated (or found in the cache) before the
        // channel changes, like a plain launch.
        let parent_object = self.kernel_object_for(parent)?;
        let items: u64 = dims.grid.iter().map(|&g| u64::from(g)).product();
        let pending = u32::try_from(items).map_err(|_| {
            bad(
                parent.name(),
                format!("{items} work-items do not fit `pending`"),
            )
        })?;
        // This launch's trailing and terminal blocks (the bank not in use).
        let sem = |i: u32| channel.sems.address + 4 * u64::from(i % q);
        let trailing = channel.trailing_bank(epoch);
        let terminal = channel.terminal_bank(epoch);
        for i in 0..q {
            let t = trailing + u64::from(i) * TRAILING_BYTES;
            self.write_block(t, &[acquire(sem(i), epoch)])?;
            let t = terminal + u64::from(i) * TERMINAL_BYTES;
            self.write_block(
                t,
                &[
                    Command::WaitForIdle,
                    Command::SemaphoreRelease {
                        address: channel.y_address(),
                        payload: epoch,
                    },
                    acquire(channel.x_address(), epoch + 1),
                    acquire(sem(i), epoch + 1),
                ],
            )?;
        }
        for (off, v) in [
            (wq::EPOCH, epoch),
            (wq::G0, g0),
            (wq::SOFT_PUT, g0 + 1),
            (wq::SHADOW_PUT, g0 + q - 1),
            (wq::HEAP_TOP, 0),
            (wq::PENDING, pending),
            (wq::OVERFLOW_SLOT, 0),
            (wq::OVERFLOW_RESERVATIONS, 0),
            (wq::OVERFLOW_ENTRIES, 0),
            (wq::HEAP_FAILURES, 0),
            (wq::FINISHED, 0),
            (wq::RESERVATIONS, 0),
            (wq::ENTRIES, 0),
            (wq::ERRORS, 0),
            (wq::TERMINAL_ENTRY, 0),
        ] {
            self.write_u32(d + off, v)?;
        }
        self.write_u64(d + wq::TRAILING, trailing)?;
        self.write_u64(d + wq::TERMINAL, terminal)?;
        // (410) GP_PUT = wrap(g0 − 1) again (a host MMIO write; threads never do).
        self.device
            .mmio_write(reg(mmio::CH_GP_PUT), wrap(i64::from(g0) - 1, q))?;
        // (405) The CPU channel: [launch, WFI, release X, acquire Y].
        let (packet, resources, _) =
            self.dispatch_packet(parent, &dims, &kernarg, parent_object)?;
        let mut block = CommandBlock::new();
        block
            .push(Command::Dispatch(packet))
            .push(Command::WaitForIdle)
            .release(channel.x_address(), epoch)
            .acquire_ge(channel.y_address(), epoch);
        // From here a failure leaves the channel in an unknown state.
        channel.broken = true;
        let fence = self.submit_with(block, resources)?;
        self.wait(fence)?;
        channel.epoch = epoch;
        channel.broken = false;
        let r = |o| self.read_u32(d + o);
        Ok(WorkReport {
            epoch,
            g0,
            entries: q,
            reservations: r(wq::RESERVATIONS)?,
            entries_reserved: r(wq::ENTRIES)?,
            overflow_reservations: r(wq::OVERFLOW_RESERVATIONS)?,
            overflow_entries: r(wq::OVERFLOW_ENTRIES)?,
            heap_failures: r(wq::HEAP_FAILURES)?,
            terminal_blocks: r(wq::FINISHED)?,
            terminal_entry: r(wq::TERMINAL_ENTRY)? % q,
            errors: r(wq::ERRORS)?,
            gp_get_after: self.device.mmio_read(reg(mmio::CH_GP_GET))?,
        })
    }
}

fn acquire(address: u64, payload: u32) -> Command {
    Command::SemaphoreAcquire {
        address,
        payload,
        compare: SemaphoreCompare::GreaterOrEqual,
    }
}
