//! Front-end block tests over the memory system's front-end port.

use arch::command::{ChannelEntry, Command, DispatchPacket, SemaphoreCompare};
use arch::device::FaultKind;
use arch::mmio::{self, channel_reg};

use super::*;
use crate::mem::{MemConfig, MemSystem};

const RING: u64 = 0x1_0000;
const BLOCKS: u64 = 0x2_0000;
const SEMS: u64 = 0x3_0000;

struct Rig {
    fe: FrontEnd,
    backing: Backing,
    mem: MemSystem,
    cycle: u64,
    events: Vec<Event>,
    dispatches: Vec<(u64, DispatchRequest)>,
    /// Next free byte for command blocks.
    block_top: u64,
}

impl Rig {
    fn new(channels: u32) -> Rig {
        let mut backing = Backing::new();
        backing.map(RING, 0x1000).unwrap();
        backing.map(BLOCKS, 0x1_0000).unwrap();
        backing.map(SEMS, 0x1000).unwrap();
        let config = FrontEndConfig {
            channels,
            ..FrontEndConfig::default()
        };
        Rig {
            fe: FrontEnd::new(&config),
            backing,
            mem: MemSystem::new(&MemConfig::default(), 1),
            cycle: 0,
            events: Vec::new(),
            dispatches: Vec::new(),
            block_top: BLOCKS,
        }
    }

    /// Sets channel `c` up with a ring of `q` entries at `RING + c * 0x100`.
    fn channel(&mut self, c: u32, q: u32, priority: u32) {
        let base = RING + u64::from(c) * 0x100;
        self.mmio(channel_reg(c, mmio::CH_BASE_LO), base as u32);
        self.mmio(channel_reg(c, mmio::CH_BASE_HI), 0);
        self.mmio(channel_reg(c, mmio::CH_SIZE), q);
        self.mmio(channel_reg(c, mmio::CH_PRIORITY), priority);
        self.mmio(channel_reg(c, mmio::CH_CONTROL), mmio::CH_CONTROL_ENABLE);
    }

    fn mmio(&mut self, offset: u32, value: u32) {
        self.fe.mmio_write(offset, value).unwrap();
    }

    /// Writes `commands` as a block into entry `slot` of channel `c` (does not move GP_PUT).
    fn entry(&mut self, c: u32, slot: u32, commands: &[Command]) {
        let mut block = Vec::new();
        for cmd in commands {
            cmd.write(&mut block);
        }
        let address = self.block_top;
        self.block_top += 4 * block.len() as u64 + 60;
        let bytes: Vec<u8> = block.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.backing.write(address, &bytes).unwrap();
        let e = ChannelEntry::new(address, block.len() as u16).unwrap();
        let ring = RING + u64::from(c) * 0x100 + 8 * u64::from(slot);
        self.backing
            .write(ring, &e.to_bits().to_le_bytes())
            .unwrap();
    }

    fn submit(&mut self, c: u32, slot: u32, commands: &[Command], put: u32) {
        self.entry(c, slot, commands);
        self.mmio(channel_reg(c, mmio::CH_GP_PUT), put);
    }

    /// Runs `n` cycles with the dispatcher always ready, completing nothing.
    fn run(&mut self, n: u64) -> Option<Fault> {
        self.run_with(n, true, &[])
    }

    fn run_with(&mut self, n: u64, ready: bool, completed: &[u32]) -> Option<Fault> {
        for i in 0..n {
            let done: &[u32] = if i == 0 { completed } else { &[] };
            let input = FrontEndIn {
                dispatcher_ready: ready,
                completed: done,
                busy_channels: 0,
            };
            let out = self.fe.tick(
                &input,
                &mut self.backing,
                &mut self.mem,
                self.cycle,
                Some(&mut self.events),
            );
            self.mem.tick();
            self.cycle += 1;
            if let Some(d) = out.dispatch {
                self.dispatches.push((self.cycle, d));
            }
            if out.fault.is_some() {
                return out.fault;
            }
        }
        None
    }

    fn word(&self, address: u64) -> u32 {
        self.backing.read_u32(address).unwrap()
    }

    /// Front-end writes in order, as (address, value).
    fn writes(&self) -> Vec<(u64, u32)> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::FrontEndWrite { address, value } => Some((*address, *value)),
                _ => None,
            })
            .collect()
    }
}

fn release(address: u64, payload: u32) -> Command {
    Command::SemaphoreRelease { address, payload }
}

fn acquire(address: u64, payload: u32, compare: SemaphoreCompare) -> Command {
    Command::SemaphoreAcquire {
        address,
        payload,
        compare,
    }
}

fn packet(signal: u64) -> DispatchPacket {
    DispatchPacket {
        dimensions: 1,
        workgroup_size: [64, 1, 1],
        grid_size: [64, 1, 1],
        private_segment_size: 0,
        group_segment_size: 0,
        kernel_object: 0x4_0000,
        kernarg_address: 0,
        scratch_address: 0,
        completion_signal: signal,
        subvector_hint: Default::default(),
        shared_vgprs: 0,
    }
}

#[test]
fn runs_a_block_and_advances_gp_get_after_memory_latency() {
    let mut r = Rig::new(1);
    r.channel(0, 4, 0);
    r.submit(
        0,
        0,
        &[
            release(SEMS, 5),
            Command::Nop { payload_dwords: 2 },
            release(SEMS + 4, 7),
        ],
        1,
    );
    assert!(!r.fe.is_idle());
    // The entry read and then the block read each cross the memory system
    // (cold: L2 miss to DRAM), so nothing runs before two DRAM latencies.
    let dram = u64::from(MemConfig::default().dram.latency);
    assert_eq!(r.run(2 * dram), None);
    assert_eq!(
        r.word(SEMS),
        0,
        "nothing runs before entry and block arrived"
    );
    assert_eq!(r.run(2000), None);
    assert_eq!((r.word(SEMS), r.word(SEMS + 4)), (5, 7));
    assert_eq!(r.fe.mmio_read(channel_reg(0, mmio::CH_GP_GET)).unwrap(), 1);
    assert_eq!(r.writes(), vec![(SEMS, 5), (SEMS + 4, 7)]);
    assert!(r.fe.is_idle());
    assert_eq!(r.fe.channels()[0].entries_done, 1);
}

#[test]
fn acquire_polls_until_released_and_reports_while_blocked() {
    let mut r = Rig::new(1);
    r.channel(0, 4, 0);
    r.submit(
        0,
        0,
        &[
            acquire(SEMS, 3, SemaphoreCompare::GreaterOrEqual),
            release(SEMS + 8, 1),
        ],
        1,
    );
    assert_eq!(r.run(1000), None);
    let blocked = r.fe.blocked(&r.backing);
    assert_eq!(blocked.len(), 1);
    assert_eq!(
        (blocked[0].channel, blocked[0].entry, blocked[0].payload),
        (0, 0, 3)
    );
    assert_eq!(
        r.fe.mmio_read(channel_reg(0, mmio::CH_STATE)).unwrap(),
        mmio::CH_STATE_SEMAPHORE
    );
    r.backing.write_u32(SEMS, 2).unwrap();
    assert_eq!(r.run(1000), None);
    assert_eq!(r.word(SEMS + 8), 0, ">= 3 does not hold for 2");
    r.backing.write_u32(SEMS, 4).unwrap();
    assert_eq!(r.run(1000), None);
    assert_eq!(r.word(SEMS + 8), 1);
    assert!(r.fe.blocked(&r.backing).is_empty());
    assert!(r.fe.channels()[0].acquire_wait_cycles > 1000);
}

#[test]
fn higher_priority_channel_runs_first_and_equal_priorities_alternate() {
    let mut r = Rig::new(3);
    r.channel(0, 4, 0);
    r.channel(1, 4, 5);
    r.channel(2, 4, 0);
    for c in 0..3 {
        let base = SEMS + 0x40 * u64::from(c);
        r.submit(c, 0, &[release(base, 1), release(base + 4, 2)], 1);
    }
    assert_eq!(r.run(2000), None);
    let order: Vec<u64> = r.writes().iter().map(|(a, _)| (a - SEMS) / 0x40).collect();
    // After channel 1 (served last), round-robin continues at channel 2.
    assert_eq!(order, vec![1, 1, 2, 0, 2, 0]);
}

#[test]
fn dispatch_waits_for_the_dispatcher_and_wait_for_idle_for_completion() {
    let mut r = Rig::new(1);
    r.channel(0, 4, 0);
    r.submit(
        0,
        0,
        &[
            Command::Dispatch(packet(SEMS)),
            Command::WaitForIdle,
            release(SEMS + 4, 9),
        ],
        1,
    );
    assert_eq!(r.run_with(1000, false, &[]), None);
    assert!(r.dispatches.is_empty(), "the dispatcher was never ready");
    assert_eq!(r.run(1000), None);
    assert_eq!(r.dispatches.len(), 1);
    let d = &r.dispatches[0].1;
    assert_eq!((d.number, d.channel, d.entry), (0, 0, 0));
    assert_eq!(d.packet, packet(SEMS));
    assert_eq!(
        r.fe.mmio_read(channel_reg(0, mmio::CH_STATE)).unwrap(),
        mmio::CH_STATE_WAIT_IDLE
    );
    assert_eq!(r.word(SEMS + 4), 0, "WAIT_FOR_IDLE holds the release back");
    assert_eq!(r.run_with(100, true, &[0]), None);
    assert_eq!(r.word(SEMS), 1, "completion signal");
    assert_eq!(r.word(SEMS + 4), 9);
    assert!(!r.fe.dispatches_in_flight());
}

#[test]
fn malformed_entry_and_unmapped_semaphore_fault_naming_channel_and_entry() {
    let mut r = Rig::new(2);
    r.channel(1, 4, 0);
    // Entry 0 of channel 1 points at an empty block.
    let ring = RING + 0x100;
    r.backing.write(ring, &BLOCKS.to_le_bytes()).unwrap(); // length field 0
    r.mmio(channel_reg(1, mmio::CH_GP_PUT), 1);
    let f = r.run(1000).expect("fault");
    assert!(
        matches!(
            f.kind,
            FaultKind::Command {
                channel: 1,
                entry: 0,
                ..
            }
        ),
        "{f:?}"
    );
    assert_eq!(
        r.fe.mmio_read(channel_reg(1, mmio::CH_STATE)).unwrap(),
        mmio::CH_STATE_ERROR
    );

    let mut r = Rig::new(1);
    r.channel(0, 4, 0);
    r.submit(0, 0, &[release(0x9_0000, 1)], 1);
    let f = r.run(1000).expect("fault");
    match f.kind {
        FaultKind::Command {
            channel: 0,
            entry: 0,
            reason,
        } => assert!(reason.contains("0x90000"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn mmio_rules() {
    let mut r = Rig::new(2);
    r.channel(0, 4, 0);
    let base = channel_reg(0, mmio::CH_BASE_LO);
    assert!(
        matches!(r.fe.mmio_write(base, 0x100), Err(DeviceError::Mmio { offset, .. }) if offset == base)
    );
    assert!(
        r.fe.mmio_write(channel_reg(0, mmio::CH_GP_PUT), 4).is_err(),
        "GP_PUT >= Q"
    );
    assert!(
        r.fe.mmio_write(channel_reg(0, mmio::CH_CONTROL), 2)
            .is_err(),
        "undefined bits"
    );
    assert!(
        r.fe.mmio_write(channel_reg(1, mmio::CH_CONTROL), 1)
            .is_err(),
        "Q = 0"
    );
    assert!(
        r.fe.mmio_write(channel_reg(2, mmio::CH_SIZE), 1).is_err(),
        "no channel 2"
    );
    assert!(
        r.fe.mmio_write(channel_reg(0, mmio::CH_STATE), 0).is_err(),
        "read-only"
    );
    assert_eq!(r.fe.mmio_read(mmio::CHANNEL_COUNT).unwrap(), 2);
}

#[test]
fn entries_wrap_around_the_ring_and_the_entry_at_gp_put_never_runs() {
    let mut r = Rig::new(1);
    r.channel(0, 3, 0);
    // Start at g0 = 2: entries 2, 0 run; entry 1 (= GP_PUT) must not.
    r.mmio(channel_reg(0, mmio::CH_CONTROL), 0);
    r.mmio(channel_reg(0, mmio::CH_GP_GET), 2);
    r.mmio(channel_reg(0, mmio::CH_CONTROL), mmio::CH_CONTROL_ENABLE);
    r.entry(0, 2, &[release(SEMS, 1)]);
    r.entry(0, 0, &[release(SEMS + 4, 2)]);
    r.entry(0, 1, &[release(SEMS + 8, 3)]);
    r.mmio(channel_reg(0, mmio::CH_GP_PUT), 1);
    assert_eq!(r.run(2000), None);
    assert_eq!(r.writes(), vec![(SEMS, 1), (SEMS + 4, 2)]);
    assert_eq!(r.fe.mmio_read(channel_reg(0, mmio::CH_GP_GET)).unwrap(), 1);
}

#[test]
fn not_idle_until_the_last_release_has_drained_through_the_port() {
    let mut r = Rig::new(1);
    r.channel(0, 4, 0);
    r.submit(0, 0, &[release(SEMS, 5)], 1);
    // Tick until the channel has no work left (the release ran).
    let mut cycles = 0;
    while r.fe.ch[0].has_work() {
        assert!(r.run(1).is_none());
        cycles += 1;
        assert!(cycles < 1000, "the release never ran");
    }
    assert_eq!(r.word(SEMS), 5);
    // The write is still on its way: an untaken response would keep the
    // memory system busy forever if the front end stopped ticking here.
    assert!(!r.fe.is_idle());
    while !r.fe.is_idle() {
        assert!(r.run(1).is_none());
        cycles += 1;
        assert!(
            cycles < 100_000,
            "the front end never became idle: {cycles} cycles, mem busy {}",
            r.mem.busy()
        );
    }
    assert!(!r.mem.busy(), "idle with the memory system still busy");
}

#[test]
fn a_malformed_command_names_block_and_dword_offset() {
    let mut r = Rig::new(1);
    r.channel(0, 4, 0);
    r.entry(0, 0, &[release(SEMS, 1), Command::WaitForIdle]);
    let block = r.block_top - 4 * 5 - 60;
    // Reserved bits in the second command's header (dword 4).
    r.backing.write_u32(block + 16, 0x0000_0102).unwrap();
    r.mmio(channel_reg(0, mmio::CH_GP_PUT), 1);
    let f = r.run(20_000).expect("the malformed command must fault");
    match f.kind {
        FaultKind::Command {
            channel,
            entry,
            reason,
        } => {
            assert_eq!((channel, entry), (0, 0));
            let head = format!(
                "block {block:#x} (5 dwords), offset 4 dwords: command at {:#x}",
                block + 16
            );
            assert!(reason.starts_with(&head), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(r.word(SEMS), 1, "the good release before it ran");
}

#[test]
fn channel_stats_count_entries_history_acquires_releases_and_idle_waits() {
    let mut r = Rig::new(2);
    r.channel(0, 4, 0);
    // Entry 2: an acquire that waits, a release; entry 3: a dispatch and a
    // WAIT_FOR_IDLE that waits for it; entry 0 (wrapped): an acquire that holds.
    r.mmio(channel_reg(0, mmio::CH_CONTROL), 0);
    r.mmio(channel_reg(0, mmio::CH_GP_GET), 2);
    r.mmio(channel_reg(0, mmio::CH_CONTROL), mmio::CH_CONTROL_ENABLE);
    r.entry(
        0,
        2,
        &[
            acquire(SEMS, 1, SemaphoreCompare::GreaterOrEqual),
            release(SEMS + 4, 1),
        ],
    );
    r.entry(0, 3, &[Command::Dispatch(packet(0)), Command::WaitForIdle]);
    r.entry(0, 0, &[acquire(SEMS + 4, 1, SemaphoreCompare::Equal)]);
    r.mmio(channel_reg(0, mmio::CH_GP_PUT), 1);
    let mut first_failed_at = 0;
    for _ in 0..2000 {
        assert_eq!(r.run(1), None);
        if first_failed_at == 0 && r.fe.channels()[0].state == Phase::Polling {
            // The response that failed arrived in the cycle just run.
            first_failed_at = r.cycle - 1;
        }
    }
    assert!(first_failed_at > 0);
    let released_at = r.cycle;
    r.backing.write_u32(SEMS, 1).unwrap();
    assert_eq!(r.run(2000), None);
    assert_eq!(r.dispatches.len(), 1);
    let dispatched_at = r.dispatches[0].0;
    assert_eq!(r.run(500), None);
    assert_eq!(r.fe.channels()[0].ch_state(), mmio::CH_STATE_WAIT_IDLE);
    let completed_at = r.cycle;
    assert_eq!(r.run_with(2000, true, &[0]), None);
    assert!(r.fe.is_idle());
    let s = &r.fe.channel_stats()[0];
    assert_eq!(s.gp_get_history, vec![2, 3, 0, 1]);
    assert_eq!(s.entries_processed, 3);
    assert_eq!(s.commands, 5);
    assert_eq!((s.dispatches, s.releases), (1, 1));
    assert_eq!((s.acquires, s.acquires_waited), (2, 1));
    // The wait runs from the first failing read to the read that held, which
    // came after the host's write within one poll interval plus a round trip.
    let poll = u64::from(FrontEndConfig::default().poll_interval);
    let dram = u64::from(MemConfig::default().dram.latency);
    let held_at = first_failed_at + s.acquire_wait_cycles;
    assert!(
        held_at >= released_at,
        "{s:?} first failed at {first_failed_at}"
    );
    assert!(held_at <= released_at + poll + 2 * dram, "{s:?}");
    assert_eq!(s.idle_waits, 1);
    // WAIT_FOR_IDLE waited from just after the dispatch (one command later)
    // to the cycle the completion arrived.
    let cc = u64::from(FrontEndConfig::default().command_cycles);
    let expected = completed_at - dispatched_at;
    assert!(s.idle_wait_cycles + 2 * cc >= expected, "{s:?} {expected}");
    assert!(s.idle_wait_cycles <= expected, "{s:?} {expected}");
    // Channel 1 never did anything.
    assert!(!r.fe.channel_stats()[1].is_active());
}
