//! The host standing in for kernel threads on a GPU-owned channel, generic
//! over the device ([`WqGpu`]): method 400's set-up, reservations (the atomic
//! add on soft GP_PUT), command blocks, entries, publishing and the terminal
//! block, between `run` calls.

use arch::command::{ChannelEntry, Command, DispatchPacket, SemaphoreCompare};
use arch::device::{Device, DeviceError, Fault, RunStatus, RunUntil};
use arch::isa::{assemble, Target};
use arch::mmio::{self, wrap};
use golden::testing::Kernel;
use golden::{GoldenConfig, GoldenGpu};
use hw::{ClockedGpu, GpuConfig};

pub const CPU: u32 = 0;
pub const GPU: u32 = 1;
pub const RING0: u64 = 0x1_0000;
pub const RING1: u64 = 0x1_1000;
pub const X: u64 = 0x2_0000;
pub const Y: u64 = 0x2_0004;
pub const SOFT: u64 = 0x2_0040;
pub const SHADOW: u64 = 0x2_0044;
pub const SEM: u64 = 0x2_0100;
pub const BLOCKS: u64 = 0x3_0000;
pub const LOG: u64 = 0x4_0000;
pub const KERNEL: u64 = 0x5_0000;
pub const KERNARG: u64 = 0x6_0000;

/// One channel's front-end activity as both models report it in their
/// statistics; `idle_wait` and `acquire_wait` are golden steps or clocked cycles.
pub use cosim::channels::ChannelView as Activity;

/// What the scenarios need of a GPU beyond [`Device`].
pub trait WqGpu: Device + Sized {
    /// A fresh device with a large enough run budget.
    fn fresh() -> Self;
    /// The fault that stopped it.
    fn stopped_by(&self) -> Option<Fault>;
    /// Channel `ch`'s activity from the device's statistics (default when the
    /// channel did nothing).
    fn activity(&self, ch: u32) -> Activity;
    /// `run(until)` with `check` called after every golden step or clock edge.
    fn run_checked(
        &mut self,
        until: RunUntil,
        check: &mut dyn FnMut(&mut Self),
    ) -> Result<RunStatus, DeviceError>;
}

impl WqGpu for GoldenGpu {
    fn fresh() -> Self {
        let mut config = GoldenConfig::new(arch::isa::Isa::Gfx1030);
        config.instruction_budget = 10_000_000;
        GoldenGpu::new(config).unwrap()
    }

    fn stopped_by(&self) -> Option<Fault> {
        self.fault().cloned()
    }

    fn activity(&self, ch: u32) -> Activity {
        let stats = self.stats();
        let Some(c) = stats.channels.iter().find(|c| c.channel == ch) else {
            return Activity::default();
        };
        Activity::from(c)
    }

    fn run_checked(
        &mut self,
        until: RunUntil,
        check: &mut dyn FnMut(&mut Self),
    ) -> Result<RunStatus, DeviceError> {
        // Step by step; only `Idle` is used with a check.
        assert_eq!(until, RunUntil::Idle);
        loop {
            match self.run(RunUntil::Cycles(1))? {
                RunStatus::BudgetExhausted => check(self),
                other => return Ok(other),
            }
        }
    }
}

impl WqGpu for ClockedGpu {
    fn fresh() -> Self {
        let mut config = GpuConfig::one_cu();
        config.watchdog_cycles = 20_000_000;
        ClockedGpu::new(config).unwrap()
    }

    fn stopped_by(&self) -> Option<Fault> {
        self.fault().cloned()
    }

    fn activity(&self, ch: u32) -> Activity {
        let stats = self.stats();
        let Some(c) = stats.channels.iter().find(|c| c.channel == ch) else {
            return Activity::default();
        };
        Activity::from(c)
    }

    fn run_checked(
        &mut self,
        until: RunUntil,
        check: &mut dyn FnMut(&mut Self),
    ) -> Result<RunStatus, DeviceError> {
        self.run_with(until, |g| {
            check(g);
            Ok(())
        })
    }
}

/// A busy loop of `n` iterations, then `global_store_dword` of kernarg dword 2
/// to the address in kernarg dwords 0–1 (the store is the last thing it does).
pub fn slow_store_source(n: u32) -> String {
    format!(
        "s_load_dwordx2 s[4:5], s[2:3], 0x0
         s_load_dword s6, s[2:3], 0x8
         s_movk_i32 s10, {n:#x}
         s_sub_u32 s10, s10, 1
         s_cmp_lg_u32 s10, 0
         s_cbranch_scc1 0xfffd
         s_waitcnt lgkmcnt(0)
         v_mov_b32 v1, s6
         v_mov_b32 v2, 0
         global_store_dword v2, v1, s[4:5]
         s_endpgm"
    )
}

pub fn read_word<G: Device>(g: &G, address: u64) -> u32 {
    let mut b = [0u8; 4];
    g.read(address, &mut b).unwrap();
    u32::from_le_bytes(b)
}

/// The device, the GPU-owned channel's parameters and the host's view of the
/// thread-accessible pointers.
pub struct Rig<G: WqGpu> {
    pub gpu: G,
    pub q: u32,
    pub g0: u32,
    /// Launch number (semaphore epoch).
    pub epoch: u32,
    next_block: u64,
    next_kernarg: u64,
}

impl<G: WqGpu> Rig<G> {
    /// Method 400 on a fresh device: GPU-owned channel of `q` entries at `g0`.
    pub fn new(q: u32, g0: u32) -> Rig<G> {
        Rig::build(G::fresh(), q, g0, 300)
    }

    /// Method 400 on `gpu`; the slow-store kernel of [`Rig::dispatch_store`]
    /// loops `iterations` times before its store.
    pub fn build(mut gpu: G, q: u32, g0: u32, iterations: u32) -> Rig<G> {
        for (base, size) in [
            (RING0, 0x1000),
            (RING1, 0x1000),
            (X, 0x1000),
            (BLOCKS, 0x1_0000),
            (LOG, 0x1000),
            (KERNEL, 0x1000),
            (KERNARG, 0x1000),
        ] {
            gpu.map(base, size).unwrap();
        }
        let k = Kernel::new(Target::GFX1030_W32, "s_endpgm");
        let code = assemble(Target::GFX1030_W32, &slow_store_source(iterations)).unwrap();
        gpu.write(KERNEL, &k.descriptor.to_bytes()).unwrap();
        gpu.write(KERNEL + 256, &code).unwrap();
        let mut rig = Rig {
            gpu,
            q,
            g0,
            epoch: 1,
            next_block: BLOCKS,
            next_kernarg: KERNARG,
        };
        // (404, 406, 408) entry g0 → [acquire X, acquire sem[g0]].
        let lead = rig.block(&rig.leading(g0));
        rig.set_entry(GPU, g0, lead);
        // (410) GP_PUT = wrap(g0 − 1); (412) soft = g0 + 1, shadow = GP_PUT (unwrapped).
        rig.program(GPU, RING1, q, g0, wrap(i64::from(g0) - 1, q));
        rig.write_u32(SOFT, g0 + 1);
        rig.write_u32(SHADOW, g0 + q - 1);
        rig
    }

    /// The block at a GPU-owned channel's first entry of launch `epoch`.
    pub fn leading(&self, g0: u32) -> Vec<Command> {
        vec![acquire(X, self.epoch), acquire(self.sem(g0), self.epoch)]
    }

    pub fn program(&mut self, ch: u32, ring: u64, q: u32, get: u32, put: u32) {
        for (reg, value) in [
            (mmio::CH_CONTROL, 0),
            (mmio::CH_BASE_LO, ring as u32),
            (mmio::CH_BASE_HI, 0),
            (mmio::CH_SIZE, q),
            (mmio::CH_GP_GET, get),
            (mmio::CH_GP_PUT, put),
            (mmio::CH_CONTROL, mmio::CH_CONTROL_ENABLE),
        ] {
            self.gpu
                .mmio_write(mmio::channel_reg(ch, reg), value)
                .unwrap();
        }
    }

    pub fn reg(&mut self, ch: u32, reg: u32) -> u32 {
        self.gpu.mmio_read(mmio::channel_reg(ch, reg)).unwrap()
    }

    pub fn write_u32(&mut self, address: u64, value: u32) {
        self.gpu.write(address, &value.to_le_bytes()).unwrap();
    }

    pub fn read_u32(&self, address: u64) -> u32 {
        read_word(&self.gpu, address)
    }

    pub fn sem(&self, index: u32) -> u64 {
        SEM + 4 * u64::from(index % self.q)
    }

    /// Writes a command block; returns (address, dwords).
    pub fn block(&mut self, commands: &[Command]) -> (u64, u16) {
        let mut dwords = Vec::new();
        for c in commands {
            c.write(&mut dwords);
        }
        let bytes: Vec<u8> = dwords.iter().flat_map(|d| d.to_le_bytes()).collect();
        let at = self.next_block;
        self.gpu.write(at, &bytes).unwrap();
        self.next_block += (bytes.len() as u64).next_multiple_of(64);
        (at, dwords.len() as u16)
    }

    pub fn set_entry(&mut self, ch: u32, index: u32, (at, len): (u64, u16)) {
        let ring = if ch == CPU { RING0 } else { RING1 };
        let bits = ChannelEntry::new(at, len).unwrap().to_bits();
        let slot = ring + 8 * u64::from(index % self.q);
        self.gpu.write(slot, &bits.to_le_bytes()).unwrap();
    }

    /// The CPU channel's block [launch, WFI, release X, acquire Y] at entry
    /// `index` of channel 0 (a ring of 16), then GP_PUT past it.
    pub fn cpu_launch(&mut self, index: u32, parent: Option<Command>) {
        let mut commands: Vec<Command> = parent.into_iter().collect();
        commands.extend([
            Command::WaitForIdle,
            Command::SemaphoreRelease {
                address: X,
                payload: self.epoch,
            },
            acquire(Y, self.epoch),
        ]);
        let b = self.block(&commands);
        let bits = ChannelEntry::new(b.0, b.1).unwrap().to_bits();
        self.gpu
            .write(RING0 + 8 * u64::from(index), &bits.to_le_bytes())
            .unwrap();
        if index == 0 {
            self.program(CPU, RING0, 16, 0, 1);
        } else {
            self.gpu
                .mmio_write(mmio::channel_reg(CPU, mmio::CH_GP_PUT), index + 1)
                .unwrap();
        }
    }

    /// A DISPATCH of the slow-store kernel writing `value` to `address`.
    pub fn dispatch_store(&mut self, address: u64, value: u32) -> Command {
        let args = self.next_kernarg;
        self.next_kernarg += 64;
        let mut bytes = address.to_le_bytes().to_vec();
        bytes.extend(value.to_le_bytes());
        self.gpu.write(args, &bytes).unwrap();
        Command::Dispatch(DispatchPacket {
            dimensions: 1,
            workgroup_size: [32, 1, 1],
            grid_size: [32, 1, 1],
            kernel_object: KERNEL,
            kernarg_address: args,
            ..DispatchPacket::default()
        })
    }

    /// A thread's `atomicAdd(soft GP_PUT, n + 1)` with the room check of
    /// `docs/work-creation.md` (work leaves the entry before shadow for the
    /// terminal block): returns `old`, or `None` when refused.
    pub fn reserve(&mut self, n: u32) -> Option<u32> {
        let old = self.read_u32(SOFT);
        self.write_u32(SOFT, old + n + 1);
        (old + n + 2 <= self.read_u32(SHADOW)).then_some(old)
    }

    /// Fills a reservation: entries old … old+N−1 → the blocks, entry old+N →
    /// [acquire sem[old+N]].
    pub fn fill(&mut self, old: u32, blocks: &[Vec<Command>]) {
        for (i, b) in blocks.iter().enumerate() {
            let at = self.block(b);
            self.set_entry(GPU, old + i as u32, at);
        }
        let n = blocks.len() as u32;
        let trailing = self.block(&[acquire(self.sem(old + n), self.epoch)]);
        self.set_entry(GPU, old + n, trailing);
    }

    /// Releases sem[old − 1].
    pub fn publish(&mut self, old: u32) {
        let s = self.sem(old + self.q - 1);
        self.write_u32(s, self.epoch);
    }

    /// The terminal block [WFI, release Y, acquire X, acquire sem[t]] in a
    /// one-entry reservation, published; returns its entry (unwrapped).
    pub fn finish(&mut self) -> u32 {
        let t = self.read_u32(SOFT);
        self.write_u32(SOFT, t + 1);
        assert!(t < self.read_u32(SHADOW), "no room for the terminal block");
        let next = self.epoch + 1;
        let b = self.block(&[
            Command::WaitForIdle,
            Command::SemaphoreRelease {
                address: Y,
                payload: self.epoch,
            },
            acquire(X, next),
            acquire(self.sem(t), next),
        ]);
        self.set_entry(GPU, t, b);
        self.publish(t);
        t
    }

    pub fn run(&mut self, until: RunUntil) -> Result<RunStatus, DeviceError> {
        self.gpu.run(until)
    }

    /// Runs until idle or blocked, calling `check` after every step or edge.
    pub fn run_checked(&mut self, mut check: impl FnMut(&mut G)) -> Result<RunStatus, DeviceError> {
        self.gpu.run_checked(RunUntil::Idle, &mut check)
    }

    pub fn run_until_blocked(&mut self) -> Vec<(u32, u32, u64)> {
        let status = self.run(RunUntil::Idle).unwrap();
        blocked_list(status)
    }

    pub fn activity(&self, ch: u32) -> Activity {
        self.gpu.activity(ch)
    }

    pub fn history(&self, ch: u32) -> Vec<u32> {
        self.activity(ch).history
    }
}

/// `(channel, entry, semaphore)` of every blocked channel; panics otherwise.
pub fn blocked_list(status: RunStatus) -> Vec<(u32, u32, u64)> {
    match status {
        RunStatus::Blocked(list) => list
            .iter()
            .map(|b| (b.channel, b.entry, b.address))
            .collect(),
        other => panic!("expected the front end to block, got {other:?}"),
    }
}

pub fn acquire(address: u64, payload: u32) -> Command {
    Command::SemaphoreAcquire {
        address,
        payload,
        compare: SemaphoreCompare::GreaterOrEqual,
    }
}

/// A block that records it ran: release of `k + 1` to LOG word `k`.
pub fn mark(k: u32) -> Vec<Command> {
    vec![Command::SemaphoreRelease {
        address: LOG + 4 * u64::from(k),
        payload: k + 1,
    }]
}
