//! Seed 001 §6, behaviours 1–12, on the clocked GPU (`hw::ClockedGpu`): the
//! scenarios of `cosim/golden/tests/golden_work_queue.rs` (which are written
//! against the concrete golden GPU and its activity counters, so they cannot be
//! included as they are), driven through `arch::device::Device` and MMIO only.
//! The host stands in for the kernel threads: it does their atomic add on soft
//! GP_PUT, writes their command blocks and entries, and releases their
//! semaphores between `run` calls.
//!
//! The golden GPU keeps a GP_GET history per channel; the clocked GPU has none,
//! so [`Rig::run`] samples GP_GET after every clock edge (it moves by at most
//! one entry per cycle, so no value is missed).
//!
//! Layout: channel 0 is the CPU channel, channel 1 the GPU-owned one. The
//! semaphore rule is the one of `docs/work-creation.md`: launch `e` releases
//! with payload `e`, every acquire compares `≥ e`.

use arch::command::{ChannelEntry, Command, DispatchPacket, SemaphoreCompare};
use arch::device::{Device, DeviceError, FaultKind, RunStatus, RunUntil};
use arch::isa::{assemble, Target};
use arch::mmio::{self, wrap};
use golden::testing::Kernel;
use hw::{ClockedGpu, GpuConfig};

/// Channels whose GP_GET the rig samples.
const SAMPLED: usize = 3;

const CPU: u32 = 0;
const GPU: u32 = 1;
const RING0: u64 = 0x1_0000;
const RING1: u64 = 0x1_1000;
const X: u64 = 0x2_0000;
const Y: u64 = 0x2_0004;
const SOFT: u64 = 0x2_0040;
const SHADOW: u64 = 0x2_0044;
const SEM: u64 = 0x2_0100;
const BLOCKS: u64 = 0x3_0000;
const LOG: u64 = 0x4_0000;
const KERNEL: u64 = 0x5_0000;
const KERNARG: u64 = 0x6_0000;

/// A busy loop of `n` iterations, then `global_store_dword` of kernarg dword 2
/// to the address in kernarg dwords 0–1 (the store is the last thing it does).
fn slow_store_source(n: u32) -> String {
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

/// The device, the GPU-owned channel's parameters and the host's view of the
/// thread-accessible pointers.
struct Rig {
    gpu: ClockedGpu,
    /// GP_GET of channels 0 … SAMPLED−1 each time it changed, from the value
    /// the channel was programmed with.
    history: [Vec<u32>; SAMPLED],
    /// Cycles each sampled channel spent in CH_STATE_WAIT_IDLE.
    wait_idle_cycles: [u64; SAMPLED],
    q: u32,
    g0: u32,
    /// Launch number (semaphore epoch).
    epoch: u32,
    next_block: u64,
    next_kernarg: u64,
}

impl Rig {
    /// Method 400 on a fresh device: GPU-owned channel of `q` entries at `g0`.
    fn new(q: u32, g0: u32) -> Rig {
        let mut config = GpuConfig::one_cu();
        config.watchdog_cycles = 20_000_000;
        let mut gpu = ClockedGpu::new(config).unwrap();
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
        let code = assemble(Target::GFX1030_W32, &slow_store_source(300)).unwrap();
        gpu.write(KERNEL, &k.descriptor.to_bytes()).unwrap();
        gpu.write(KERNEL + 256, &code).unwrap();
        let mut rig = Rig {
            gpu,
            history: Default::default(),
            wait_idle_cycles: [0; SAMPLED],
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
    fn leading(&self, g0: u32) -> Vec<Command> {
        vec![acquire(X, self.epoch), acquire(self.sem(g0), self.epoch)]
    }

    fn program(&mut self, ch: u32, ring: u64, q: u32, get: u32, put: u32) {
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
        if let Some(h) = self.history.get_mut(ch as usize) {
            *h = vec![get];
        }
    }

    /// `Device::run`, sampling GP_GET and CH_STATE after every clock edge.
    fn run(&mut self, until: RunUntil) -> Result<RunStatus, DeviceError> {
        self.run_checked(until, |_| {})
    }

    /// [`Rig::run`] with `check` called on the device after every clock edge.
    fn run_checked(
        &mut self,
        until: RunUntil,
        mut check: impl FnMut(&mut ClockedGpu),
    ) -> Result<RunStatus, DeviceError> {
        let (history, waits) = (&mut self.history, &mut self.wait_idle_cycles);
        self.gpu.run_with(until, |g| {
            for (ch, h) in history.iter_mut().enumerate() {
                let Some(&last) = h.last() else { continue };
                let get = g.mmio_read(mmio::channel_reg(ch as u32, mmio::CH_GP_GET));
                let state = g.mmio_read(mmio::channel_reg(ch as u32, mmio::CH_STATE));
                if let (Ok(get), Ok(state)) = (get, state) {
                    if get != last {
                        h.push(get);
                    }
                    waits[ch] += u64::from(state == mmio::CH_STATE_WAIT_IDLE);
                }
            }
            check(g);
            Ok(())
        })
    }

    fn reg(&mut self, ch: u32, reg: u32) -> u32 {
        self.gpu.mmio_read(mmio::channel_reg(ch, reg)).unwrap()
    }

    fn write_u32(&mut self, address: u64, value: u32) {
        self.gpu.write(address, &value.to_le_bytes()).unwrap();
    }

    fn read_u32(&self, address: u64) -> u32 {
        let mut b = [0u8; 4];
        self.gpu.read(address, &mut b).unwrap();
        u32::from_le_bytes(b)
    }

    fn sem(&self, index: u32) -> u64 {
        SEM + 4 * u64::from(index % self.q)
    }

    /// Writes a command block; returns (address, dwords).
    fn block(&mut self, commands: &[Command]) -> (u64, u16) {
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

    fn set_entry(&mut self, ch: u32, index: u32, (at, len): (u64, u16)) {
        let ring = if ch == CPU { RING0 } else { RING1 };
        let bits = ChannelEntry::new(at, len).unwrap().to_bits();
        let slot = ring + 8 * u64::from(index % self.q);
        self.gpu.write(slot, &bits.to_le_bytes()).unwrap();
    }

    /// The CPU channel's block [launch, WFI, release X, acquire Y] at entry
    /// `index` of channel 0 (a ring of 16), then GP_PUT past it.
    fn cpu_launch(&mut self, index: u32, parent: Option<Command>) {
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
    fn dispatch_store(&mut self, address: u64, value: u32) -> Command {
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
    fn reserve(&mut self, n: u32) -> Option<u32> {
        let old = self.read_u32(SOFT);
        self.write_u32(SOFT, old + n + 1);
        (old + n + 2 <= self.read_u32(SHADOW)).then_some(old)
    }

    /// Fills a reservation: entries old … old+N−1 → the blocks, entry old+N →
    /// [acquire sem[old+N]].
    fn fill(&mut self, old: u32, blocks: &[Vec<Command>]) {
        for (i, b) in blocks.iter().enumerate() {
            let at = self.block(b);
            self.set_entry(GPU, old + i as u32, at);
        }
        let n = blocks.len() as u32;
        let trailing = self.block(&[acquire(self.sem(old + n), self.epoch)]);
        self.set_entry(GPU, old + n, trailing);
    }

    /// Releases sem[old − 1].
    fn publish(&mut self, old: u32) {
        let s = self.sem(old + self.q - 1);
        self.write_u32(s, self.epoch);
    }

    /// The terminal block [WFI, release Y, acquire X, acquire sem[t]] in a
    /// one-entry reservation, published; returns its entry (unwrapped).
    fn finish(&mut self) -> u32 {
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

    fn run_until_blocked(&mut self) -> Vec<(u32, u32, u64)> {
        match self.run(RunUntil::Idle).unwrap() {
            RunStatus::Blocked(list) => list
                .iter()
                .map(|b| (b.channel, b.entry, b.address))
                .collect(),
            other => panic!("expected the front end to block, got {other:?}"),
        }
    }

    fn history(&self, ch: u32) -> Vec<u32> {
        self.history[ch as usize].clone()
    }
}

fn acquire(address: u64, payload: u32) -> Command {
    Command::SemaphoreAcquire {
        address,
        payload,
        compare: SemaphoreCompare::GreaterOrEqual,
    }
}

fn mark(k: u32) -> Vec<Command> {
    vec![Command::SemaphoreRelease {
        address: LOG + 4 * u64::from(k),
        payload: k + 1,
    }]
}

#[test]
fn behaviour_01_initial_state_for_any_g0() {
    for (q, g0) in [(8, 0), (8, 5), (6, 3), (8, 7)] {
        let mut r = Rig::new(q, g0);
        assert_eq!(r.reg(GPU, mmio::CH_GP_GET), g0);
        assert_eq!(r.reg(GPU, mmio::CH_GP_PUT), wrap(i64::from(g0) - 1, q));
        assert!(mmio::is_full(g0, r.reg(GPU, mmio::CH_GP_PUT), q));
        assert_eq!(r.read_u32(SOFT) % q, wrap(i64::from(g0) + 1, q));
        assert_eq!(r.read_u32(SHADOW) % q, r.reg(GPU, mmio::CH_GP_PUT));
        assert_eq!((r.read_u32(X), r.read_u32(Y)), (0, 0));
        // entry[g0] → a block whose first command acquires X.
        let mut e = [0u8; 8];
        r.gpu.read(RING1 + 8 * u64::from(g0), &mut e).unwrap();
        let entry = ChannelEntry::from_bits(u64::from_le_bytes(e)).unwrap();
        let mut words = vec![0u8; 4 * usize::from(entry.length_dwords)];
        r.gpu.read(entry.address.into(), &mut words).unwrap();
        let dwords: Vec<u32> = words
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let (first, _) = Command::read(&dwords).unwrap();
        assert_eq!(first, acquire(X, 1));
    }
}

#[test]
fn behaviour_02_gpu_channel_stays_at_g0_until_x_is_released() {
    let mut r = Rig::new(8, 3);
    // A thread has already published (sem[g0] released): only X holds it back.
    let old = r.reserve(1).unwrap();
    r.fill(old, &[mark(0)]);
    r.publish(old);
    let blocked = r.run_until_blocked();
    assert_eq!(blocked, vec![(GPU, 3, X)]);
    assert_eq!(r.reg(GPU, mmio::CH_GP_GET), 3);
    assert_eq!(r.reg(GPU, mmio::CH_STATE), mmio::CH_STATE_SEMAPHORE);
    assert_eq!(r.read_u32(LOG), 0);
    r.write_u32(X, 1);
    let blocked = r.run_until_blocked();
    assert_eq!(blocked, vec![(GPU, 5, r.sem(5))]);
    assert_eq!(r.read_u32(LOG), 1);
}

#[test]
fn behaviour_03_cpu_channel_launch_wfi_release_x_acquire_y() {
    let mut r = Rig::new(8, 0);
    let parent = r.dispatch_store(LOG + 0x100, 77);
    r.cpu_launch(0, Some(parent));
    // Cycle by cycle: X is never released before the parent's store is visible.
    let read = |g: &ClockedGpu, a: u64| {
        let mut b = [0u8; 4];
        g.read(a, &mut b).unwrap();
        u32::from_le_bytes(b)
    };
    let status = r
        .run_checked(RunUntil::Idle, |g| {
            if read(g, X) != 0 {
                assert_eq!(
                    read(g, LOG + 0x100),
                    77,
                    "X released before the parent's write"
                );
            }
        })
        .unwrap();
    assert_eq!(r.read_u32(X), 1);
    // The busy loop alone is 300 iterations of three instructions: the CPU
    // channel sat in WAIT_FOR_IDLE for at least that many cycles.
    assert!(
        r.wait_idle_cycles[CPU as usize] >= 300,
        "{:?}",
        r.wait_idle_cycles
    );
    // The CPU channel now stalls on acquire Y (and the GPU channel on sem[g0]).
    let RunStatus::Blocked(list) = status else {
        panic!("expected the front end to block, got {status:?}")
    };
    let blocked: Vec<_> = list
        .iter()
        .map(|b| (b.channel, b.entry, b.address))
        .collect();
    assert!(blocked.contains(&(CPU, 0, Y)), "{blocked:?}");
    assert!(blocked.contains(&(GPU, 0, r.sem(0))), "{blocked:?}");
}

#[test]
fn behaviour_04_after_release_x_gp_get_is_g0_plus_1() {
    for g0 in [0, 6] {
        let mut r = Rig::new(8, g0);
        // The first thread reserves one entry (N = 0: just its trailing
        // acquire) and releases sem[g0].
        let old = r.reserve(0).unwrap();
        r.fill(old, &[]);
        r.publish(old);
        r.cpu_launch(0, None);
        let blocked = r.run_until_blocked();
        let next = wrap(i64::from(g0) + 1, 8);
        assert_eq!(r.reg(GPU, mmio::CH_GP_GET), next);
        assert!(blocked.contains(&(CPU, 0, Y)));
        assert!(blocked.contains(&(GPU, next, r.sem(next))));
        assert_eq!(r.history(GPU), vec![g0, wrap(i64::from(g0) + 1, 8)]);
    }
}

#[test]
fn behaviour_06_room_check_and_the_entry_at_gp_put_never_runs() {
    let (q, g0) = (8, 0);
    let mut r = Rig::new(q, g0);
    // Poison the entry at GP_PUT: processing it would fault.
    let poison = r.block(&[Command::Nop { payload_dwords: 0 }]);
    let mut bad = vec![0u8; 4];
    bad.copy_from_slice(&0x0000_00eeu32.to_le_bytes());
    r.gpu.write(poison.0, &bad).unwrap();
    r.set_entry(GPU, 7, poison);
    // Usable entries are 1 … Q−2 = 1 … 6: work may take 1 … 5, the terminal 6.
    let a = r.reserve(1).unwrap(); // 1, 2
    let b = r.reserve(2).unwrap(); // 3, 4, 5
    assert_eq!((a, b), (1, 3));
    assert_eq!(
        r.reserve(0),
        None,
        "old + N + 1 = 7 leaves no room for the terminal"
    );
    // The refused reservation moved soft GP_PUT; put it back as the host-side
    // stand-in does not model the overflow slot (the devlib does: see cosim tests).
    r.write_u32(SOFT, 6);
    r.fill(a, &[mark(0)]);
    r.fill(b, &[mark(1), mark(2)]);
    r.publish(a);
    r.publish(b);
    let t = r.finish();
    assert_eq!(t, 6);
    r.cpu_launch(0, None);
    let blocked = r.run_until_blocked();
    assert_eq!(r.history(GPU), vec![0, 1, 2, 3, 4, 5, 6]);
    // Parked inside the terminal block at entry 6: entry 7 = GP_PUT never ran.
    assert_eq!(r.reg(GPU, mmio::CH_GP_GET), 6);
    assert!(r.gpu.fault().is_none());
    assert!(blocked.contains(&(GPU, 6, X)));
    assert_eq!((r.read_u32(LOG), r.read_u32(LOG + 8)), (1, 3));
}

#[test]
fn behaviour_07_no_entry_runs_before_its_owner_publishes() {
    let mut r = Rig::new(8, 0);
    r.cpu_launch(0, None);
    let t1 = r.reserve(1).unwrap();
    r.fill(t1, &[mark(0)]);
    r.publish(t1);
    let t2 = r.reserve(1).unwrap();
    r.fill(t2, &[mark(1)]);
    // T2 wrote everything but has not published: entry 3 must not run.
    let blocked = r.run_until_blocked();
    assert!(blocked.contains(&(GPU, 2, r.sem(2))), "{blocked:?}");
    assert_eq!((r.read_u32(LOG), r.read_u32(LOG + 4)), (1, 0));
    r.publish(t2);
    r.run_until_blocked();
    assert_eq!(r.read_u32(LOG + 4), 2);
}

#[test]
fn behaviour_08_t2_publishing_before_t1() {
    let mut r = Rig::new(8, 0);
    r.cpu_launch(0, None);
    let t1 = r.reserve(1).unwrap();
    let t2 = r.reserve(1).unwrap();
    assert_eq!((t1, t2), (1, 3));
    r.fill(t2, &[mark(1)]);
    r.publish(t2); // releases sem[2], T1's trailing acquire
    let blocked = r.run_until_blocked();
    // The host waits at T1's leading acquire (the driver's entry g0, sem[0]).
    assert!(blocked.contains(&(GPU, 0, r.sem(0))), "{blocked:?}");
    assert_eq!(r.read_u32(LOG + 4), 0, "T2's block ran before T1's");
    r.fill(t1, &[mark(0)]);
    r.publish(t1);
    let blocked = r.run_until_blocked();
    // T1's block ran, T1's trailing acquire passed (already released), T2's ran.
    assert_eq!((r.read_u32(LOG), r.read_u32(LOG + 4)), (1, 2));
    assert!(blocked.contains(&(GPU, 4, r.sem(4))), "{blocked:?}");
    assert_eq!(r.history(GPU), vec![0, 1, 2, 3, 4]);
}

#[test]
fn behaviour_09_final_block_drains_resumes_cpu_and_parks_on_x() {
    let mut r = Rig::new(8, 0);
    r.cpu_launch(0, None);
    let t1 = r.reserve(1).unwrap();
    let child = r.dispatch_store(LOG + 0x200, 99);
    r.fill(t1, &[vec![child]]);
    r.publish(t1);
    let t = r.finish();
    // The CPU channel's next entry records that it resumed.
    let after = r.block(&mark(9));
    r.set_entry(CPU, 1, after);
    r.gpu
        .mmio_write(mmio::channel_reg(CPU, mmio::CH_GP_PUT), 2)
        .unwrap();
    let read = |g: &ClockedGpu, a: u64| {
        let mut b = [0u8; 4];
        g.read(a, &mut b).unwrap();
        u32::from_le_bytes(b)
    };
    let mut y_seen_before_child = false;
    let status = r
        .run_checked(RunUntil::Idle, |g| {
            y_seen_before_child |= read(g, Y) != 0 && read(g, LOG + 0x200) != 99;
        })
        .unwrap();
    assert!(!y_seen_before_child, "Y released before the child's store");
    assert_eq!(r.read_u32(Y), 1);
    assert_eq!(r.read_u32(LOG + 36), 10, "the CPU channel did not resume");
    let RunStatus::Blocked(list) = status else {
        panic!("expected the front end to block, got {status:?}")
    };
    let blocked: Vec<_> = list
        .iter()
        .map(|b| (b.channel, b.entry, b.address))
        .collect();
    assert_eq!(blocked, vec![(GPU, t, X)]);
    assert_eq!(r.reg(GPU, mmio::CH_STATE), mmio::CH_STATE_SEMAPHORE);
    assert_eq!(r.reg(CPU, mmio::CH_STATE), mmio::CH_STATE_IDLE);
}

#[test]
fn behaviour_10_wrap_for_q6_and_q8() {
    assert_eq!(wrap(-1, 6), 5);
    assert_eq!(wrap(6, 6), 0);
    assert_eq!(wrap(-1, 8), 7);
    assert_eq!(wrap(9, 8), 1);
    // Every x in [-q, 2q) agrees with the power-of-two form for q = 8.
    for x in -8i64..16 {
        assert_eq!(wrap(x, 8), (x & 7) as u32);
    }
}

#[test]
fn behaviour_11_standard_channel_empty_and_full() {
    let mut r = Rig::new(4, 0);
    r.gpu
        .mmio_write(mmio::channel_reg(GPU, mmio::CH_CONTROL), 0)
        .unwrap();
    // Channel 2: a standard channel of Q = 4, each entry a marker.
    let ring2 = RING0 + 0x800;
    for i in 0..4u32 {
        let b = r.block(&mark(20 + i));
        let bits = ChannelEntry::new(b.0, b.1).unwrap().to_bits();
        r.gpu
            .write(ring2 + 8 * u64::from(i), &bits.to_le_bytes())
            .unwrap();
    }
    // Empty: GP_GET == GP_PUT, nothing runs.
    r.program(2, ring2, 4, 2, 2);
    assert_eq!(r.run(RunUntil::Idle).unwrap(), RunStatus::Done);
    assert_eq!(r.reg(2, mmio::CH_STATE), mmio::CH_STATE_IDLE);
    assert_eq!(r.read_u32(LOG + 4 * 22), 0);
    // Full: GP_GET == (GP_PUT + 1) mod Q: Q − 1 entries run, GP_PUT's never.
    r.program(2, ring2, 4, 2, 1);
    assert!(mmio::is_full(2, 1, 4));
    assert_eq!(r.run(RunUntil::Idle).unwrap(), RunStatus::Done);
    let ran: Vec<u32> = (0..4).map(|i| r.read_u32(LOG + 4 * (20 + i))).collect();
    assert_eq!(ran, vec![21, 0, 23, 24]);
    assert_eq!(r.history(2), vec![2, 3, 0, 1]);
}

#[test]
fn behaviour_12_threads_never_write_gp_get_or_gp_put() {
    // The worked example, checking the registers after every command: GP_PUT
    // never moves, and GP_GET only moves forward by one at a time.
    let mut r = worked_example_setup();
    let mut last_get = 0;
    let mut cycles = 0;
    let status = r
        .run_checked(RunUntil::Idle, |g| {
            let reg = |g: &mut ClockedGpu, reg| g.mmio_read(mmio::channel_reg(GPU, reg)).unwrap();
            assert_eq!(reg(g, mmio::CH_GP_PUT), 7);
            let get = reg(g, mmio::CH_GP_GET);
            assert!(get == last_get || get == last_get + 1, "{last_get} → {get}");
            last_get = get;
            cycles += 1;
        })
        .unwrap();
    assert!(matches!(status, RunStatus::Blocked(_)), "{status:?}");
    assert!(cycles > 5);
    assert_eq!(last_get, 5);
}

/// Q = 8, g0 = 0: T1 takes 1–2, T2 takes 3–4, the terminal block is 5.
fn worked_example_setup() -> Rig {
    let mut r = Rig::new(8, 0);
    r.cpu_launch(0, None);
    let t1 = r.reserve(1).unwrap();
    let t2 = r.reserve(1).unwrap();
    assert_eq!((t1, t2), (1, 3));
    r.fill(t1, &[mark(1)]);
    r.fill(t2, &[mark(2)]);
    r.publish(t1);
    r.publish(t2);
    assert_eq!(r.finish(), 5);
    r
}

#[test]
fn worked_example_q8_entry_by_entry() {
    let mut r = worked_example_setup();
    assert_eq!(r.read_u32(SOFT), 6);
    r.run_until_blocked();
    // Entry by entry: what each holds (the first command of its block).
    let first = |r: &Rig, i: u64| -> Command {
        let mut e = [0u8; 8];
        r.gpu.read(RING1 + 8 * i, &mut e).unwrap();
        let entry = ChannelEntry::from_bits(u64::from_le_bytes(e)).unwrap();
        let mut w = [0u8; 24];
        r.gpu.read(entry.address.into(), &mut w).unwrap();
        let d: Vec<u32> = w
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Command::read(&d).unwrap().0
    };
    assert_eq!(first(&r, 0), acquire(X, 1));
    assert_eq!(first(&r, 1), mark(1)[0]);
    assert_eq!(first(&r, 2), acquire(r.sem(2), 1)); // "A"
    assert_eq!(first(&r, 3), mark(2)[0]);
    assert_eq!(first(&r, 4), acquire(r.sem(4), 1)); // "B"
    assert_eq!(first(&r, 5), Command::WaitForIdle);
    // The GP_GET sequence: 0 → 1 → … → 5, parked in the terminal block.
    assert_eq!(r.history(GPU), vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(r.reg(GPU, mmio::CH_GP_GET), 5);
    assert_eq!(r.reg(GPU, mmio::CH_GP_PUT), 7);
    assert_eq!((r.read_u32(X), r.read_u32(Y)), (1, 1));
}

#[test]
fn g0_not_zero_wraps_around_the_ring() {
    let mut r = Rig::new(8, 5);
    r.cpu_launch(0, None);
    let t1 = r.reserve(1).unwrap(); // 6, 7
    let t2 = r.reserve(2).unwrap(); // 8, 9, 10 → entries 0, 1, 2
    assert_eq!((t1, t2), (6, 8));
    r.fill(t1, &[mark(1)]);
    r.fill(t2, &[mark(2), mark(3)]);
    r.publish(t2);
    r.publish(t1);
    let t = r.finish(); // 11 → entry 3; shadow = 12 (GP_PUT 4 never runs)
    assert_eq!(t, 11);
    let blocked = r.run_until_blocked();
    assert_eq!(r.history(GPU), vec![5, 6, 7, 0, 1, 2, 3]);
    assert_eq!(blocked, vec![(GPU, 3, X)]);
    assert_eq!(r.reg(GPU, mmio::CH_GP_PUT), 4);
    assert_eq!(
        (0..3)
            .map(|i| r.read_u32(LOG + 4 * (1 + i)))
            .collect::<Vec<_>>(),
        vec![2, 3, 4]
    );
}

#[test]
fn a_second_launch_reuses_the_channel_from_the_parked_terminal_entry() {
    let mut r = worked_example_setup();
    r.run_until_blocked();
    assert_eq!(r.reg(GPU, mmio::CH_GP_GET), 5);
    // Launch 2: g0 = the parked terminal entry; GP_PUT = wrap(g0 − 1) again.
    r.epoch = 2;
    r.g0 = 5;
    r.gpu
        .mmio_write(mmio::channel_reg(GPU, mmio::CH_GP_PUT), wrap(4, 8))
        .unwrap();
    r.write_u32(SOFT, 6);
    r.write_u32(SHADOW, 5 + 7);
    // Before the second release of X, the old releases (epoch 1) do not let
    // the channel through: the acquire X ≥ 2 blocks again.
    let t1 = r.reserve(1).unwrap(); // 6, 7
    r.fill(t1, &[mark(7)]);
    r.publish(t1);
    let t = r.finish(); // 8 → entry 0
    assert_eq!(t, 8);
    let blocked = r.run_until_blocked();
    assert_eq!(blocked, vec![(GPU, 5, X)]);
    assert_eq!(r.read_u32(LOG + 28), 0);
    r.cpu_launch(1, None);
    let blocked = r.run_until_blocked();
    assert_eq!(r.read_u32(LOG + 28), 8);
    assert_eq!(blocked, vec![(GPU, 0, X)]);
    assert_eq!(r.read_u32(Y), 2);
    assert_eq!(r.history(GPU), vec![0, 1, 2, 3, 4, 5, 6, 7, 0]);
}

#[test]
fn a_thread_that_never_publishes_is_a_deadlock_naming_channel_entry_and_semaphore() {
    let mut r = Rig::new(8, 0);
    r.cpu_launch(0, None);
    let t1 = r.reserve(1).unwrap();
    r.fill(t1, &[mark(0)]);
    r.publish(t1);
    let t2 = r.reserve(1).unwrap();
    r.fill(t2, &[mark(1)]); // written, never published
    let blocked = match r.run(RunUntil::Idle).unwrap() {
        RunStatus::Blocked(list) => list,
        other => panic!("{other:?}"),
    };
    let text: Vec<String> = blocked.iter().map(|b| b.to_string()).collect();
    assert_eq!(text.len(), 2, "{text:?}");
    assert!(text.contains(&format!(
        "front end blocked on channel 0 at entry 0 waiting for [{Y:#x}] >= 1 (it holds 0)"
    )));
    assert!(text.contains(&format!(
        "front end blocked on channel 1 at entry 2 waiting for [{:#x}] >= 1 (it holds 0)",
        r.sem(2)
    )));
}

#[test]
fn a_malformed_gpu_written_block_faults_naming_channel_entry_and_offset() {
    let mut r = Rig::new(8, 0);
    r.cpu_launch(0, None);
    let t1 = r.reserve(1).unwrap();
    // Block: a good release, then a header with reserved bits set (offset 4).
    let b = r.block(&[
        Command::SemaphoreRelease {
            address: LOG,
            payload: 1,
        },
        Command::WaitForIdle,
    ]);
    r.gpu
        .write(b.0 + 16, &0x0000_0102u32.to_le_bytes())
        .unwrap();
    r.set_entry(GPU, t1, b);
    let trailing = r.block(&[acquire(r.sem(t1 + 1), 1)]);
    r.set_entry(GPU, t1 + 1, trailing);
    r.publish(t1);
    let err = r.run(RunUntil::Idle).unwrap_err();
    let fault = r.gpu.fault().cloned().unwrap();
    match &fault.kind {
        FaultKind::Command {
            channel,
            entry,
            reason,
        } => {
            assert_eq!((*channel, *entry), (GPU, 1));
            assert!(reason.contains("offset 4 dwords"), "{reason}");
            assert!(reason.contains(&format!("block {:#x}", b.0)), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("channel 1"), "{err}");
    assert_eq!(r.reg(GPU, mmio::CH_STATE), mmio::CH_STATE_ERROR);
    assert_eq!(r.read_u32(LOG), 1);
}
