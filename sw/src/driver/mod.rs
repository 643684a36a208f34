//! The driver: runs kernels on any [`Device`].
//!
//! It owns a device heap ([`memory`]), loads code objects ([`loader`]), lays
//! out kernel arguments ([`kernarg`]), and submits command blocks on one
//! standard channel ([`channel`]), tracking completion with a fence word:
//! every submission ends with `WAIT_FOR_IDLE` and a `SEMAPHORE_RELEASE` of
//! the next fence value, and [`Driver::wait`] runs the device until the word
//! reaches it.
//!
//! Scratch: a kernel whose private segment is non-empty gets a scratch
//! allocation per dispatch, passed in the packet's `scratch_address`. It holds
//! one slot per wave, `private_bytes_per_item × wave_size` bytes each, in
//! wave order: the wave `w` of the workgroup with linear id
//! `g = x + y·nx + z·nx·ny` owns slot `g × waves_per_group + w`, where
//! `waves_per_group = ceil(workgroup_items / wave_size)` (see `docs/driver.md`).
//!
//! Cross-compilation (seed 003): a gfx803 code object loads on a gfx1030
//! device without being translated; each kernel is translated by
//! [`crate::xlate`] when it is first dispatched, its gfx1030 code and
//! descriptor written to device memory, and that is what the DISPATCH packet
//! names. Re-dispatches hit the translation cache ([`Driver::xlate_stats`]).
//!
//! ```
//! # use sw::driver::{kernarg::LaunchDims, ChannelConfig};
//! // A 1-D launch of 1000 work-items in workgroups of 256: four workgroups,
//! // the last one partial.
//! let dims = LaunchDims::linear(1000, 256);
//! assert_eq!(dims.workgroups(), [4, 1, 1]);
//! assert_eq!(dims.total_waves(64), 16);
//! assert_eq!(ChannelConfig::default().entries, 64);
//! ```

pub mod alias;
pub mod channel;
mod error;
pub mod gpu_channel;
pub mod kernarg;
pub mod loader;
pub mod memory;
pub mod printf;
mod printf_state;

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use arch::code_object::{CodeObject, CodeObjectVersion};
use arch::command::{
    ChannelEntry, Command, DispatchPacket, SemaphoreCompare, SubvectorHint, ENTRY_BYTES,
};
use arch::device::{Device, RunStatus, RunUntil};
use arch::isa::Isa;
use arch::mmio;

use crate::xlate::{self, Binding, Translated};
use channel::ChannelRegs;
pub use channel::{ChannelConfig, CommandBlock};
pub use error::DriverError;
pub use gpu_channel::{GpuChannel, GpuChannelConfig, WorkReport};
pub use kernarg::{Arg, Kernarg, LaunchDims};
pub use loader::{LoadImage, LoadedKernel, Program, LOAD_ALIGN};
pub use memory::{Allocation, Heap, DEFAULT_HEAP_BASE, DEFAULT_HEAP_SIZE};

/// Driver settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DriverConfig {
    /// Start of the device heap (4 KiB-aligned).
    pub heap_base: u64,
    /// Size of the device heap address range (4 KiB multiple).
    pub heap_size: u64,
    /// The channel the driver submits on.
    pub channel: ChannelConfig,
    /// Cycles per `run` call while waiting for room in a full ring.
    pub ring_poll_cycles: u64,
    /// Give up waiting for room in a full ring after this many cycles.
    pub ring_wait_budget: u64,
}

impl Default for DriverConfig {
    fn default() -> Self {
        DriverConfig {
            heap_base: DEFAULT_HEAP_BASE,
            heap_size: DEFAULT_HEAP_SIZE,
            channel: ChannelConfig::default(),
            ring_poll_cycles: 1024,
            ring_wait_budget: 1 << 32,
        }
    }
}

/// A submission's completion point: the fence word reaches `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fence(pub u32);

/// What [`Driver::dispatch`] submitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dispatch {
    /// Completion fence.
    pub fence: Fence,
    /// The DISPATCH packet as written.
    pub packet: DispatchPacket,
    /// The kernarg segment (its bytes were copied to `packet.kernarg_address`).
    pub kernarg: Kernarg,
    /// The scratch allocation, when the kernel has a private segment.
    pub scratch: Option<Allocation>,
}

/// The driver, generic over the device it drives.
pub struct Driver<D: Device> {
    device: D,
    config: DriverConfig,
    heap: Heap,
    channel: ChannelRegs,
    ring: Allocation,
    gp_put: u32,
    fence_word: Allocation,
    last_fence: u32,
    completed: u32,
    /// Allocations to free once their submission's fence is reached.
    in_flight: VecDeque<(u32, Vec<Allocation>)>,
    /// gfx803 → gfx1030 translations (seed 003).
    xlate: xlate::Cache,
    /// Where each translation was written on the device, by translation
    /// identity: (allocation, kernel object address).
    placed: HashMap<*const Translated, (Arc<Translated>, Allocation, u64)>,
    /// The issue-order indication written into every DISPATCH packet (seed
    /// 000 §4; [`Driver::set_subvector_hint`]).
    subvector_hint: SubvectorHint,
    /// The shared-VGPR count the workload sets for later dispatches
    /// ([`Driver::set_shared_vgprs`]); `None` takes the kernel's note.
    shared_vgprs: Option<u8>,
    /// Each loaded kernel's sub-vector note record, by its kernel object
    /// (read at [`Driver::load`], dropped at [`Driver::unload`]).
    subvector_notes: HashMap<u64, arch::code_object::KernelSubvector>,
    /// printf buffers, formats and decoded output ([`printf`]).
    printf: printf_state::PrintfState,
}

/// Kernarg allocations are rounded up to this many bytes (see [`Driver::dispatch`]).
pub const KERNARG_PADDING: u64 = 256;

impl<D: Device> Driver<D> {
    /// A driver with the default configuration.
    pub fn new(device: D) -> Result<Driver<D>, DriverError> {
        Driver::with_config(device, DriverConfig::default())
    }

    /// Checks the device, allocates the fence word and the channel ring, and
    /// programs the channel (disabled while its registers change).
    pub fn with_config(mut device: D, config: DriverConfig) -> Result<Driver<D>, DriverError> {
        let isa = device.isa();
        let gpu_id = device.mmio_read(mmio::GPU_ID)?;
        let want = match isa {
            Isa::Gfx1030 => mmio::GPU_ID_GFX1030,
            Isa::Gfx803 => mmio::GPU_ID_GFX803,
        };
        if gpu_id != want {
            return Err(DriverError::GpuId { gpu_id, isa });
        }
        let count = device.mmio_read(mmio::CHANNEL_COUNT)?;
        let ch = config.channel;
        if ch.index >= count {
            return Err(DriverError::NoChannel {
                channel: ch.index,
                count,
            });
        }
        if !(2..=65536).contains(&ch.entries) {
            return Err(DriverError::BadRingSize(ch.entries));
        }
        let mut driver = Driver {
            device,
            config,
            heap: Heap::new(config.heap_base, config.heap_size)?,
            channel: ChannelRegs { index: ch.index },
            ring: Allocation {
                address: 0,
                size: 0,
            },
            gp_put: 0,
            fence_word: Allocation {
                address: 0,
                size: 0,
            },
            last_fence: 0,
            completed: 0,
            in_flight: VecDeque::new(),
            xlate: xlate::Cache::new(),
            placed: HashMap::new(),
            subvector_hint: SubvectorHint::None,
            shared_vgprs: None,
            subvector_notes: HashMap::new(),
            printf: printf_state::PrintfState::default(),
        };
        driver.fence_word = driver.alloc(4, 4)?;
        driver.ring = driver.alloc(u64::from(ch.entries) * ENTRY_BYTES, 8)?;
        let regs = driver.channel;
        let base = driver.ring.address;
        for (reg, value) in [
            (mmio::CH_CONTROL, 0),
            (mmio::CH_BASE_LO, base as u32),
            (mmio::CH_BASE_HI, (base >> 32) as u32),
            (mmio::CH_SIZE, ch.entries),
            (mmio::CH_PRIORITY, ch.priority),
            (mmio::CH_GP_GET, 0),
            (mmio::CH_GP_PUT, 0),
            (mmio::CH_CONTROL, mmio::CH_CONTROL_ENABLE),
        ] {
            driver.device.mmio_write(regs.reg(reg), value)?;
        }
        Ok(driver)
    }

    /// The device.
    pub fn device(&self) -> &D {
        &self.device
    }

    /// The device, mutably (e.g. to read statistics).
    pub fn device_mut(&mut self) -> &mut D {
        &mut self.device
    }

    /// Gives the device back.
    pub fn into_device(self) -> D {
        self.device
    }

    /// The settings the driver was made with.
    pub fn config(&self) -> &DriverConfig {
        &self.config
    }

    /// The heap (live allocations, free space).
    pub fn heap(&self) -> &Heap {
        &self.heap
    }

    /// The channel ring's allocation (`Q` entries of 8 bytes).
    pub fn ring(&self) -> Allocation {
        self.ring
    }

    /// The GP_PUT the driver last wrote.
    pub fn gp_put(&self) -> u32 {
        self.gp_put
    }

    /// Device address of the fence word.
    pub fn fence_address(&self) -> u64 {
        self.fence_word.address
    }

    /// The last fence submitted (0 before any submission).
    pub fn last_fence(&self) -> Fence {
        Fence(self.last_fence)
    }

    // ---- memory ------------------------------------------------------------

    /// Allocates and maps `size` bytes aligned to `align` (zero-filled by the device).
    pub fn alloc(&mut self, size: u64, align: u64) -> Result<Allocation, DriverError> {
        let a = self.heap.alloc(size, align)?;
        if let Err(e) = self.device.map(a.address, a.mapped_size()) {
            self.heap.free(a.address)?;
            return Err(e.into());
        }
        Ok(a)
    }

    /// Unmaps and releases an allocation.
    pub fn free(&mut self, a: Allocation) -> Result<(), DriverError> {
        if self.heap.find(a.address).map(|f| f.address) != Some(a.address) {
            return Err(DriverError::UnknownAllocation(a.address));
        }
        self.device.unmap(a.address)?;
        self.heap.free(a.address)?;
        Ok(())
    }

    /// Allocates a buffer holding `data`.
    pub fn create_buffer(&mut self, data: &[u8]) -> Result<Allocation, DriverError> {
        let a = self.alloc(data.len() as u64, 256)?;
        self.upload(a, 0, data)?;
        Ok(a)
    }

    /// Writes `data` at `offset` bytes into `buffer`.
    pub fn upload(
        &mut self,
        buffer: Allocation,
        offset: u64,
        data: &[u8],
    ) -> Result<(), DriverError> {
        check_bounds(buffer, offset, data.len() as u64)?;
        if !data.is_empty() {
            self.device.write(buffer.address + offset, data)?;
        }
        Ok(())
    }

    /// Reads `len` bytes at `offset` of `buffer`.
    pub fn download_range(
        &self,
        buffer: Allocation,
        offset: u64,
        len: u64,
    ) -> Result<Vec<u8>, DriverError> {
        check_bounds(buffer, offset, len)?;
        let mut out = vec![0u8; len as usize];
        if len > 0 {
            self.device.read(buffer.address + offset, &mut out)?;
        }
        Ok(out)
    }

    /// Reads the whole buffer.
    pub fn download(&self, buffer: Allocation) -> Result<Vec<u8>, DriverError> {
        self.download_range(buffer, 0, buffer.size)
    }

    // ---- code objects ------------------------------------------------------

    /// Loads a code object: checks its processor against the device, copies
    /// its loadable image to a [`LOAD_ALIGN`]-aligned allocation and returns
    /// where each kernel's descriptor and code landed. A gfx803 object on a
    /// gfx1030 device loads as it is: its kernels are translated when
    /// dispatched ([`Driver::dispatch`]).
    pub fn load(&mut self, elf: &[u8]) -> Result<Program, DriverError> {
        let code_object = CodeObject::parse(elf)?;
        // Decoded before anything is allocated: a malformed note fails the load.
        let subvector = code_object.subvector_settings()?;
        let isa = self.device.isa();
        let translatable = isa == Isa::Gfx1030 && code_object.isa() == Some(Isa::Gfx803);
        if code_object.isa() != Some(isa) && !translatable {
            return Err(DriverError::WrongProcessor {
                code_object: code_object.processor().to_string(),
                device: isa,
            });
        }
        let mut image = LoadImage::new(elf, &code_object)?;
        let allocation = self.alloc(image.bytes.len() as u64, LOAD_ALIGN)?;
        if let Err(e) = image.relocate(elf, allocation.address) {
            self.free(allocation)?;
            return Err(e);
        }
        if let Err(e) = self.device.write(allocation.address, &image.bytes) {
            self.free(allocation)?;
            return Err(e.into());
        }
        let at = |v: u64| allocation.address + (v - image.span.start);
        // The DISPATCH packet's kernel object is always a 64-byte v3+ kernel
        // descriptor (docs/architecture.md): a v2 kernel's `amd_kernel_code_t`
        // is converted into one, written in a block of its own.
        let converted = if code_object.version() == CodeObjectVersion::V2 {
            let bytes = 64 * code_object.kernels().len().max(1) as u64;
            match self.alloc(bytes, 64) {
                Ok(a) => Some(a),
                Err(e) => {
                    self.free(allocation)?;
                    return Err(e);
                }
            }
        } else {
            None
        };
        let printf_formats = printf_state::Formats::of(&code_object);
        let mut kernels = Vec::new();
        for (i, k) in code_object.kernels().iter().enumerate() {
            let entry = at(k.entry);
            let kernel_object = match converted {
                Some(block) => {
                    let address = block.address + 64 * i as u64;
                    let mut descriptor = k.descriptor;
                    descriptor.kernel_code_entry_byte_offset = entry.wrapping_sub(address) as i64;
                    if let Err(e) = self.device.write(address, &descriptor.to_bytes()) {
                        self.free_program_memory(allocation, converted)?;
                        return Err(e.into());
                    }
                    address
                }
                None => at(k.descriptor_address),
            };
            if kernel_object % 64 != 0 {
                self.free_program_memory(allocation, converted)?;
                return Err(DriverError::BadSegment {
                    offset: 0,
                    reason: format!(
                        "kernel `{}` descriptor at {:#x} is not 64-byte aligned",
                        k.name, k.descriptor_address
                    ),
                });
            }
            if subvector[i] != arch::code_object::KernelSubvector::default() {
                self.subvector_notes
                    .insert(kernel_object, subvector[i].clone());
            }
            self.printf
                .register(kernel_object, k, printf_formats.as_ref());
            kernels.push(LoadedKernel {
                kernel: k.clone(),
                kernel_object,
                entry,
            });
        }
        Ok(Program {
            code_object,
            allocation,
            converted_descriptors: converted,
            span: image.span,
            kernels,
        })
    }

    /// Frees a program's device memory. Only call once no dispatch of its
    /// kernels is in flight.
    /// Also forgets and frees the translations of its kernels (their binding
    /// names the program's load address, so no other program shares them).
    pub fn unload(&mut self, program: Program) -> Result<(), DriverError> {
        for k in &program.kernels {
            self.subvector_notes.remove(&k.kernel_object);
            self.printf.forget(k.kernel_object);
        }
        if self.device.isa() == Isa::Gfx1030 {
            for k in &program.kernels {
                let binding = Binding::of(&k.kernel, 0).at(k.entry);
                if let Some(t) = self.xlate.remove(&k.kernel.code, binding) {
                    if let Some((_, a, _)) = self.placed.remove(&Arc::as_ptr(&t)) {
                        self.free(a)?;
                    }
                }
            }
        }
        self.free_program_memory(program.allocation, program.converted_descriptors)
    }

    /// Frees a program's image and, for code object v2, its block of
    /// converted kernel descriptors.
    fn free_program_memory(
        &mut self,
        image: Allocation,
        converted: Option<Allocation>,
    ) -> Result<(), DriverError> {
        if let Some(block) = converted {
            self.free(block)?;
        }
        self.free(image)
    }

    // ---- submission --------------------------------------------------------

    /// Submits `block` followed by `WAIT_FOR_IDLE` and the release of the next
    /// fence value; returns that fence.
    pub fn submit(&mut self, block: CommandBlock) -> Result<Fence, DriverError> {
        self.submit_with(block, Vec::new())
    }

    /// [`Driver::submit`], freeing `resources` once the fence is reached.
    fn submit_with(
        &mut self,
        mut block: CommandBlock,
        mut resources: Vec<Allocation>,
    ) -> Result<Fence, DriverError> {
        self.retire()?;
        let fence = self
            .last_fence
            .checked_add(1)
            .ok_or(DriverError::FenceExhausted)?;
        block.push(Command::WaitForIdle);
        block.release(self.fence_word.address, fence);
        let length = u16::try_from(block.dwords().len()).map_err(|_| {
            DriverError::Command(arch::command::CommandError::BadDispatch(format!(
                "command block of {} dwords exceeds the 65535 an entry can hold",
                block.dwords().len()
            )))
        })?;
        let memory = match self.create_buffer(&block.to_bytes()) {
            Ok(m) => m,
            Err(e) => {
                self.free_all(resources);
                return Err(e);
            }
        };
        resources.push(memory);
        let result = self.enqueue(memory.address, length);
        if let Err(e) = result {
            self.free_all(resources);
            return Err(e);
        }
        self.last_fence = fence;
        self.in_flight.push_back((fence, resources));
        Ok(Fence(fence))
    }

    /// Writes the entry at GP_PUT once the ring has room, then advances GP_PUT.
    fn enqueue(&mut self, block_address: u64, length: u16) -> Result<(), DriverError> {
        let entry = ChannelEntry::new(block_address, length)?;
        self.wait_for_room()?;
        let q = self.config.channel.entries;
        let slot = self.ring.address + u64::from(self.gp_put) * ENTRY_BYTES;
        self.device.write(slot, &entry.to_bits().to_le_bytes())?;
        let next = mmio::wrap(i64::from(self.gp_put) + 1, q);
        self.device
            .mmio_write(self.channel.reg(mmio::CH_GP_PUT), next)?;
        self.gp_put = next;
        Ok(())
    }

    fn read_gp_get(&mut self) -> Result<u32, DriverError> {
        let q = self.config.channel.entries;
        let gp_get = self.device.mmio_read(self.channel.reg(mmio::CH_GP_GET))?;
        if gp_get >= q {
            return Err(DriverError::BadGpGet {
                channel: self.channel.index,
                gp_get,
                entries: q,
            });
        }
        Ok(gp_get)
    }

    /// Runs the device until the ring is not full (GP_GET != GP_PUT + 1 mod Q).
    fn wait_for_room(&mut self) -> Result<(), DriverError> {
        let q = self.config.channel.entries;
        let mut cycles = 0u64;
        loop {
            let gp_get = self.read_gp_get()?;
            if !mmio::is_full(gp_get, self.gp_put, q) {
                return Ok(());
            }
            if cycles >= self.config.ring_wait_budget {
                return Err(DriverError::RingStuck {
                    channel: self.channel.index,
                    gp_get,
                    gp_put: self.gp_put,
                    entries: q,
                    cycles,
                });
            }
            let step = self.config.ring_poll_cycles.max(1);
            let before = self.device.now();
            let status = self.device.run(RunUntil::Cycles(step))?;
            if let RunStatus::Blocked(channels) = status {
                // Nothing can move: the entry at GP_GET waits on a semaphore
                // nobody will release, so the ring never drains.
                let fence = self.in_flight.front().map_or(self.last_fence, |f| f.0);
                return Err(DriverError::Blocked {
                    fence,
                    address: self.fence_word.address,
                    channels,
                });
            }
            cycles += step;
            if self.device.now() == before && self.read_gp_get()? == gp_get {
                // Time did not advance and nothing was consumed: the device
                // is not going to drain the ring (e.g. the channel stopped).
                return Err(DriverError::RingStuck {
                    channel: self.channel.index,
                    gp_get,
                    gp_put: self.gp_put,
                    entries: q,
                    cycles,
                });
            }
        }
    }

    /// Reads the fence word and frees the resources of finished submissions.
    fn retire(&mut self) -> Result<(), DriverError> {
        let mut word = [0u8; 4];
        self.device.read(self.fence_word.address, &mut word)?;
        let value = u32::from_le_bytes(word).min(self.last_fence);
        self.completed = self.completed.max(value);
        self.collect_printf()?;
        while let Some((f, _)) = self.in_flight.front() {
            if *f > self.completed {
                break;
            }
            if let Some((_, resources)) = self.in_flight.pop_front() {
                for a in resources {
                    self.free(a)?;
                }
            }
        }
        Ok(())
    }

    fn free_all(&mut self, resources: Vec<Allocation>) {
        for a in resources {
            // Best effort on an error path: the original error is what matters.
            let _ = self.free(a);
        }
    }

    /// True when the fence has been reached (checks the fence word).
    pub fn is_done(&mut self, fence: Fence) -> Result<bool, DriverError> {
        self.retire()?;
        Ok(fence.0 <= self.completed)
    }

    /// Runs the device until the fence word reaches `fence`. A fault, a
    /// channel blocked forever, or the device's budget running out are
    /// errors that keep the device's report.
    pub fn wait(&mut self, fence: Fence) -> Result<(), DriverError> {
        if fence.0 > self.last_fence {
            return Err(DriverError::UnknownFence {
                fence: fence.0,
                last: self.last_fence,
            });
        }
        if fence.0 <= self.completed {
            return Ok(());
        }
        let address = self.fence_word.address;
        match self.device.run(RunUntil::Word {
            address,
            value: fence.0,
            compare: SemaphoreCompare::GreaterOrEqual,
        })? {
            RunStatus::Done => {}
            RunStatus::BudgetExhausted => {
                return Err(DriverError::Timeout {
                    fence: fence.0,
                    address,
                })
            }
            RunStatus::Blocked(channels) => {
                return Err(DriverError::Blocked {
                    fence: fence.0,
                    address,
                    channels,
                })
            }
        }
        self.retire()?;
        if fence.0 > self.completed {
            // The device said Done but the word disagrees: report as blocked.
            return Err(DriverError::Blocked {
                fence: fence.0,
                address,
                channels: Vec::new(),
            });
        }
        Ok(())
    }

    /// Waits for every submission.
    pub fn finish(&mut self) -> Result<(), DriverError> {
        self.wait(Fence(self.last_fence))
    }

    // ---- dispatch ----------------------------------------------------------

    /// Sets the issue-order indication (seed 000 §4) the driver writes into
    /// the packets of later dispatches, from the workload or a code-object
    /// note; [`SubvectorHint::None`] (the default) leaves the GPU's
    /// configured `cu.subvector_mode`.
    pub fn set_subvector_hint(&mut self, hint: SubvectorHint) {
        self.subvector_hint = hint;
    }

    /// Sets the number of VGPRs (at the top of each kernel's allocation)
    /// that the parts of a wave share in sub-vector looping order (seed 000
    /// §2, docs/variable-wavefront.md) for later dispatches, from the
    /// workload; `None` (the default) takes the count from the kernel's
    /// sub-vector note, 0 without one.
    pub fn set_shared_vgprs(&mut self, shared: Option<u8>) {
        self.shared_vgprs = shared;
    }

    /// The issue-order indication and shared-VGPR count a dispatch of
    /// `kernel` carries: the workload's settings where given, else the
    /// kernel's sub-vector note (none, 0 without one).
    pub fn subvector_settings(&self, kernel: &LoadedKernel) -> (SubvectorHint, u8) {
        let note = self.subvector_notes.get(&kernel.kernel_object);
        let hint = match self.subvector_hint {
            SubvectorHint::None => note.map_or(SubvectorHint::None, |n| n.mode),
            h => h,
        };
        let shared = self
            .shared_vgprs
            .unwrap_or_else(|| note.map_or(0, |n| n.shared_vgprs));
        (hint, shared)
    }

    /// Submits a dispatch of `kernel` (kernarg segment, scratch and the command
    /// block are allocated here and freed once the fence is reached).
    pub fn dispatch(
        &mut self,
        kernel: &LoadedKernel,
        dims: LaunchDims,
        args: &[Arg],
    ) -> Result<Dispatch, DriverError> {
        self.dispatch_ndrange(kernel, dims, kernarg::NdRange::default(), args)
    }

    /// [`Driver::dispatch`] with OpenCL's NDRange parameters: the global
    /// work offset (the kernel reads it from `hidden_global_offset_{x,y,z}`)
    /// and `work_dim` (`hidden_grid_dims`), as the OpenCL platform's
    /// `clEnqueueNDRangeKernel` gives them.
    pub fn dispatch_ndrange(
        &mut self,
        kernel: &LoadedKernel,
        dims: LaunchDims,
        ndrange: kernarg::NdRange,
        args: &[Arg],
    ) -> Result<Dispatch, DriverError> {
        let k = &kernel.kernel;
        let kernel_object = self.kernel_object_for(kernel)?;
        let printf_buffer = self.printf_buffer_for(kernel)?;
        let hidden = kernarg::Hidden {
            printf_buffer: printf_buffer.as_ref().map_or(0, |p| p.allocation.address),
            ndrange,
        };
        let submitted = kernarg::layout_with(k, &dims, args, &hidden).and_then(|kernarg| {
            let (packet, resources, scratch) =
                self.dispatch_packet(kernel, &dims, &kernarg, kernel_object)?;
            let mut block = CommandBlock::new();
            block.push(Command::Dispatch(packet));
            let fence = self.submit_with(block, resources)?;
            Ok(Dispatch {
                fence,
                packet,
                kernarg,
                scratch,
            })
        });
        // The printf buffer waits for the fence, or goes if nothing was submitted.
        if let Some(p) = printf_buffer {
            match &submitted {
                Ok(d) => self.printf.pending.push_back((d.fence.0, p)),
                Err(_) => {
                    let _ = self.free(p.allocation);
                }
            }
        }
        submitted
    }

    /// Allocates `kernel`'s kernarg segment (uploaded, padded) and scratch
    /// for `dims` and builds its DISPATCH packet. The allocations (and which
    /// one is scratch) come back to be freed once the dispatch's fence is
    /// reached; on an error they are freed here.
    fn dispatch_packet(
        &mut self,
        kernel: &LoadedKernel,
        dims: &LaunchDims,
        kernarg: &kernarg::Kernarg,
        kernel_object: u64,
    ) -> Result<(DispatchPacket, Vec<Allocation>, Option<Allocation>), DriverError> {
        let mut resources = Vec::new();
        let kernarg_address = if kernarg.bytes.is_empty() {
            0
        } else {
            // The compiler widens scalar loads of kernel arguments (an
            // `s_load_dwordx4` over the last 12 bytes of the segment, say): it may
            // read up to the segment's alignment past its end, as on real
            // runtimes whose kernarg pools are page-granular. The padding is
            // zero and mapped, so such reads neither fault nor see stale data.
            let padded = (kernarg.bytes.len() as u64).next_multiple_of(KERNARG_PADDING);
            let a = self.alloc(padded, kernarg.align)?;
            resources.push(a);
            if let Err(e) = self.upload(a, 0, &kernarg.bytes) {
                self.free_all(resources);
                return Err(e);
            }
            a.address
        };
        let scratch = match scratch_bytes(kernel, dims) {
            Err(e) => {
                self.free_all(resources);
                return Err(e);
            }
            Ok(0) => None,
            Ok(bytes) => match self.alloc(bytes, 256) {
                Ok(a) => {
                    resources.push(a);
                    Some(a)
                }
                Err(e) => {
                    self.free_all(resources);
                    return Err(e);
                }
            },
        };
        let mut workgroup_size = [0u16; 3];
        for (slot, &w) in workgroup_size.iter_mut().zip(&dims.workgroup) {
            // check_dims bounded every dimension by 1024.
            *slot = w as u16;
        }
        let (subvector_hint, shared_vgprs) = self.subvector_settings(kernel);
        let packet = DispatchPacket {
            dimensions: dims.dimensions(),
            workgroup_size,
            grid_size: dims.grid,
            private_segment_size: 0,
            group_segment_size: kernarg.dynamic_lds,
            kernel_object,
            kernarg_address,
            scratch_address: scratch.map_or(0, |a| a.address),
            completion_signal: 0,
            subvector_hint,
            shared_vgprs,
        };
        Ok((packet, resources, scratch))
    }

    /// The kernel object to dispatch `kernel` with: its own, or for a gfx803
    /// kernel on a gfx1030 device its translation's (translated on first use).
    fn kernel_object_for(&mut self, kernel: &LoadedKernel) -> Result<u64, DriverError> {
        if !needs_translation(self.device.isa(), kernel) {
            return Ok(kernel.kernel_object);
        }
        let k = &kernel.kernel;
        let (t, _hit) = self
            .xlate
            .get_or_translate(&k.code, Binding::of(k, 0).at(kernel.entry))
            .map_err(|error| DriverError::Translate {
                kernel: k.name.clone(),
                error,
            })?;
        if let Some((_, _, object)) = self.placed.get(&Arc::as_ptr(&t)) {
            return Ok(*object);
        }
        // Descriptor first, code at the next 256-byte boundary (kernel entries
        // are 256-byte aligned, as clang lays them out).
        let a = self.alloc(TRANSLATED_CODE_OFFSET + t.code.len() as u64, 256)?;
        let code_address = a.address + TRANSLATED_CODE_OFFSET;
        let descriptor = t.descriptor_at(a.address, code_address);
        let written = self
            .device
            .write(a.address, &descriptor.to_bytes())
            .and_then(|_| self.device.write(code_address, &t.code));
        if let Err(e) = written {
            self.free(a)?;
            return Err(e.into());
        }
        self.placed
            .insert(Arc::as_ptr(&t), (Arc::clone(&t), a, a.address));
        Ok(a.address)
    }

    /// Translation counters: translations, cache hits, instructions in and
    /// out, time.
    pub fn xlate_stats(&self) -> xlate::Stats {
        self.xlate.stats()
    }

    /// Dispatches and waits for completion.
    pub fn launch(
        &mut self,
        kernel: &LoadedKernel,
        dims: LaunchDims,
        args: &[Arg],
    ) -> Result<Dispatch, DriverError> {
        let d = self.dispatch(kernel, dims, args)?;
        self.wait(d.fence)?;
        Ok(d)
    }
}

/// Where translated code starts after its descriptor in its allocation.
const TRANSLATED_CODE_OFFSET: u64 = 256;

/// A gfx803 kernel dispatched on a gfx1030 device runs translated.
pub fn needs_translation(device: Isa, kernel: &LoadedKernel) -> bool {
    device == Isa::Gfx1030 && kernel.kernel.isa == Some(Isa::Gfx803)
}

/// Bytes of scratch a dispatch needs: one slot of
/// `private_bytes_per_item × wave_size` per wave (0 without a private segment).
pub fn scratch_bytes(kernel: &LoadedKernel, dims: &LaunchDims) -> Result<u64, DriverError> {
    let k = &kernel.kernel;
    let per_item = u64::from(
        k.descriptor
            .private_segment_fixed_size
            .max(k.metadata.private_segment_fixed_size),
    );
    if per_item == 0 {
        return Ok(0);
    }
    let wave = u64::from(k.wavefront_size());
    per_item
        .checked_mul(wave)
        .and_then(|slot| slot.checked_mul(dims.total_waves(k.wavefront_size())))
        .filter(|&b| b <= 1 << 36)
        .ok_or_else(|| DriverError::BadLaunch {
            kernel: k.name.clone(),
            reason: format!(
                "scratch of {per_item} bytes per work-item for grid {:?} needs more than 64 GiB",
                dims.grid
            ),
        })
}

fn check_bounds(buffer: Allocation, offset: u64, len: u64) -> Result<(), DriverError> {
    match offset.checked_add(len) {
        Some(end) if end <= buffer.size => Ok(()),
        _ => Err(DriverError::OutOfBounds {
            address: buffer.address,
            size: buffer.size,
            offset,
            len,
        }),
    }
}
