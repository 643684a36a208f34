//! The top level: the clock, MMIO, and the wiring of front end, dispatcher,
//! compute units and memory system. [`ClockedGpu::step`] is one clock edge:
//! every block is evaluated back to front (CUs, dispatcher, front end, then
//! the memory system delivers the responses the next cycle will see).

use std::collections::BTreeSet;

use arch::command::SemaphoreCompare;
use arch::device::{Device, DeviceError, Fault, FaultKind, RunStatus, RunUntil, WaveId};
use arch::isa::Isa;
use arch::mmio;

use crate::config::{ConfigError, GpuConfig};
use crate::cu::{Cu, TickCtx};
use crate::dispatch::Dispatcher;
use crate::event::Event;
use crate::exec::ScalarState;
use crate::frontend::{DispatchRequest, FrontEnd, FrontEndIn};
use crate::inject::Injection;
use crate::mem::backing::{Backing, MapError};
use crate::mem::staged::DeviceMem;
use crate::mem::MemSystem;
use crate::parallel::governor::{Governor, GovernorReport};
use crate::parallel::{CuPhaseReport, CuWorkers};
use crate::stats::{DispatchStats, GpuStats};

/// Cycles with nothing in flight and channels waiting on semaphores before
/// `run` reports the front end blocked.
const DEADLOCK_CYCLES: u64 = 2048;
/// Busy CUs from which an edge is worth handing to worker threads.
const PARALLEL_MIN_BUSY_CUS: usize = 8;
/// Dispatches the dispatcher holds at once.
const MAX_DISPATCHES: usize = 16;

/// The clocked gfx1030 GPU. Cloning it gives an independent GPU in the same
/// state (lockstep keeps one to replay a run up to a mismatch with tracing).
#[derive(Clone)]
pub struct ClockedGpu {
    config: GpuConfig,
    backing: Backing,
    mem: MemSystem,
    frontend: FrontEnd,
    dispatcher: Dispatcher,
    cus: Vec<Cu>,
    cycle: u64,
    fault: Option<Box<Fault>>,
    events_on: bool,
    events: Vec<Event>,
    inject: Option<Injection>,
    /// Completions to report to the front end next cycle.
    completed: Vec<u32>,
    /// Dispatches started through the test hook (not reported to the front end).
    hooked: BTreeSet<u32>,
    dispatch_stats: Vec<DispatchStats>,
    occupancy: Vec<(u64, u32)>,
    quiet_cycles: u64,
    /// The per-wave watchdog's next deadline: no resident wave can have
    /// been resident its budget before this cycle.
    wave_deadline: u64,
    /// Worker threads for the compute units (1: none).
    threads: usize,
    /// Whether edges go to the workers is measured and decided as the run
    /// goes (`crate::parallel::governor`), not fixed.
    adaptive: bool,
    workers: Workers,
    /// Busy CUs from which an edge goes to the workers.
    parallel_min_busy: usize,
    /// Jump over edges that only count down (`Device::run` only).
    skip: bool,
    /// Edges jumped over so far (not a statistic: results do not depend on
    /// skipping; tests and benchmarks read it).
    skipped: u64,
    /// Edges whose CUs the worker threads evaluated.
    parallel_edges: u64,
    /// CUs busy after the last edge (whether the next goes to the workers).
    busy_cus: usize,
    /// CU edges whose memory instructions were executed again at the commit.
    reexecutions: u64,
}

/// The worker pool, started at the first edge that uses it. A clone of the
/// GPU starts its own (a pool is not shared between GPUs).
#[derive(Default)]
struct Workers {
    pool: Option<Box<CuWorkers>>,
    /// Starting the pool failed: evaluate serially (same results).
    failed: bool,
    /// With adaptive threads: whether the pool pays.
    governor: Governor,
}

impl Clone for Workers {
    fn clone(&self) -> Workers {
        Workers::default()
    }
}

impl Workers {
    fn get(&mut self, threads: usize, cus: usize) -> Option<&mut CuWorkers> {
        if self.pool.is_none() && !self.failed {
            match CuWorkers::new(threads, cus) {
                Ok(w) => self.pool = Some(Box::new(w)),
                Err(_) => self.failed = true,
            }
        }
        self.pool.as_deref_mut()
    }
}

impl ClockedGpu {
    /// A GPU with nothing mapped and every channel disabled.
    pub fn new(config: GpuConfig) -> Result<ClockedGpu, ConfigError> {
        config.validate()?;
        let cus = (0..config.cus as usize)
            .map(|i| Cu::new(i, &config.cu))
            .collect();
        Ok(ClockedGpu {
            backing: Backing::new(),
            mem: MemSystem::new(&config.memory, config.cus as usize),
            frontend: FrontEnd::new(&config.frontend),
            dispatcher: Dispatcher::new(&config.dispatcher),
            cus,
            cycle: 0,
            fault: None,
            events_on: false,
            events: Vec::new(),
            inject: None,
            completed: Vec::new(),
            hooked: BTreeSet::new(),
            dispatch_stats: Vec::new(),
            occupancy: Vec::new(),
            quiet_cycles: 0,
            wave_deadline: 0,
            threads: 1,
            adaptive: false,
            workers: Workers::default(),
            parallel_min_busy: PARALLEL_MIN_BUSY_CUS,
            skip: true,
            skipped: 0,
            parallel_edges: 0,
            busy_cus: 0,
            reexecutions: 0,
            config,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &GpuConfig {
        &self.config
    }

    /// Turns lockstep event collection on or off.
    pub fn set_events(&mut self, on: bool) {
        self.events_on = on;
        if !on {
            self.events.clear();
        }
    }

    /// Takes the events collected so far, in order.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// Moves the events collected so far into `into` (cleared first) and
    /// keeps `into`'s old buffer for the next ones: a caller draining every
    /// cycle allocates nothing once both buffers have grown.
    pub fn swap_events(&mut self, into: &mut Vec<Event>) {
        into.clear();
        std::mem::swap(&mut self.events, into);
    }

    /// Arms a one-shot fault injection (tests of the lockstep checker).
    pub fn inject(&mut self, injection: Option<Injection>) {
        self.inject = injection;
    }

    /// The fault that stopped the GPU, if any.
    pub fn fault(&self) -> Option<&Fault> {
        self.fault.as_deref()
    }

    /// Device memory contents (for tests and lockstep comparison).
    pub fn backing(&self) -> &Backing {
        &self.backing
    }

    /// TEST HOOK: hands a dispatch straight to the dispatcher, bypassing the
    /// front end (its completion is not signalled through the front end).
    pub fn launch_dispatch(&mut self, req: DispatchRequest) -> Result<(), DeviceError> {
        self.hooked.insert(req.number);
        self.accept(req);
        match &self.fault {
            Some(f) => Err(DeviceError::Fault(f.clone())),
            None => Ok(()),
        }
    }

    fn accept(&mut self, req: DispatchRequest) {
        if self.events_on {
            self.events.push(Event::Dispatch {
                number: req.number,
                channel: req.channel,
                entry: req.entry,
                packet_address: req.packet_address,
            });
        }
        let number = req.number;
        match self
            .dispatcher
            .accept(req, &self.backing, &self.config.cu, self.cycle)
        {
            Ok(()) => self.dispatch_stats.push(DispatchStats {
                number,
                start: self.cycle,
                ..DispatchStats::default()
            }),
            Err(kind) => self.fault = Some(Box::new(Fault::at_cycle(kind, self.cycle))),
        }
    }

    /// True when nothing is left to do: front end idle, no dispatch, no wave,
    /// memory system quiet.
    pub fn is_idle(&self) -> bool {
        self.frontend.is_idle()
            && self.dispatcher.is_idle()
            && self.completed.is_empty()
            && self.cus.iter().all(Cu::is_idle)
            && !self.mem.busy()
    }

    fn frontend_needed(&self) -> bool {
        !self.frontend.is_idle() || !self.completed.is_empty()
    }

    /// One clock edge.
    pub fn step(&mut self) {
        if self.fault.is_some() {
            return;
        }
        let now = self.cycle;
        // Compute units (back of the pipeline first). Every CU completes its
        // edge, also when one faults (the lowest-numbered CU's fault is the
        // GPU's), so that serial and threaded evaluation end in the same state.
        let report = self.tick_cus(now);
        self.busy_cus = report.busy;
        let mut fault = None;
        let mut ended: Vec<u32> = Vec::new();
        if report.faulted || report.ended {
            for cu in &mut self.cus {
                if let Some(f) = cu.fault.take() {
                    fault = fault.or(Some(f));
                }
                ended.extend_from_slice(&cu.ended_wgs);
                cu.ended_wgs.clear();
            }
        }
        if let Some(f) = fault {
            self.fault = Some(f);
            return;
        }
        for d in ended {
            if let Some(c) = self.dispatcher.workgroup_ended(d) {
                if let Some(s) = self
                    .dispatch_stats
                    .iter_mut()
                    .find(|s| s.number == c.number)
                {
                    s.end = now;
                    s.cycles = now - s.start;
                    s.workgroups = c.workgroups;
                    s.waves = c.waves;
                }
                if !self.hooked.remove(&c.number) {
                    self.completed.push(c.number);
                }
            }
        }
        // Dispatcher.
        if !self.dispatcher.is_idle() {
            let cus = &self.cus;
            let launch = self.dispatcher.tick(
                now,
                cus.len(),
                |c| cus[c].epoch,
                |c, shape| cus[c].fits(shape),
            );
            if let Some(l) = launch {
                self.cus[l.cu].launch(
                    &l.init,
                    now,
                    self.dispatcher.launch_latency(),
                    self.events_on.then_some(&mut self.events),
                );
            }
        }
        // Front end.
        if self.frontend_needed() {
            let completed = std::mem::take(&mut self.completed);
            let input = FrontEndIn {
                dispatcher_ready: self.dispatcher.active.len() < MAX_DISPATCHES,
                completed: &completed,
                busy_channels: self.dispatcher.busy_channels(),
            };
            let out = self.frontend.tick(
                &input,
                &mut self.backing,
                &mut self.mem,
                now,
                self.events_on.then_some(&mut self.events),
            );
            // Hand the (now empty) buffer back so completions never allocate.
            let mut completed = completed;
            completed.clear();
            self.completed = completed;
            if let Some(f) = out.fault {
                self.fault = Some(Box::new(f));
                return;
            }
            if let Some(req) = out.dispatch {
                self.accept(req);
            }
        }
        self.mem.tick_below_cus();
        self.cycle += 1;
        let sample = u64::from(self.config.cu.occupancy_sample);
        if self.cycle % sample == 0 {
            let waves = self.cus.iter().map(Cu::resident).sum();
            self.occupancy.push((self.cycle, waves));
        }
    }

    /// One clock edge of every CU: on the worker threads
    /// ([`crate::parallel`]) when there are several and no fault injection
    /// is armed, else in CU order on this thread. Both give the same state.
    fn tick_cus(&mut self, now: u64) -> CuPhaseReport {
        // Handing an edge to the workers costs about a microsecond; below
        // PARALLEL_MIN_BUSY_CUS busy CUs the edge is cheaper than that. The
        // count is the last edge's (plus a launch at most): reading every
        // CU's registers here again would cost more than it tells.
        let parallel = self.threads > 1
            && self.inject.is_none()
            && self.cus.len() >= self.parallel_min_busy
            && self.busy_cus + 1 >= self.parallel_min_busy;
        if !parallel {
            return self.tick_cus_serial(now);
        }
        if self.workers.get(self.threads, self.cus.len()).is_none() {
            return self.tick_cus_serial(now);
        }
        // Adaptive: the governor picks the mode and times the edge (the
        // pool is started by now, so its start is not in the first window).
        let clock = std::time::Instant::now;
        let edge = self.adaptive.then(|| self.workers.governor.begin(&clock));
        let report = if edge.map_or(true, |e| e.parallel) {
            let Some(workers) = self.workers.pool.as_deref_mut() else {
                return self.tick_cus_serial(now);
            };
            let report = workers.tick(
                now,
                &mut self.cus,
                self.mem.cu_sides(),
                &mut self.backing,
                self.events_on.then_some(&mut self.events),
            );
            self.parallel_edges += 1;
            self.reexecutions += report.reexecuted as u64;
            report
        } else {
            self.tick_cus_serial(now)
        };
        if let Some(e) = edge {
            // The edge's work scales with the CUs busy when it began.
            self.workers
                .governor
                .end(e, self.busy_cus.max(report.busy), &clock);
        }
        report
    }

    /// One clock edge of every CU in CU order on this thread.
    fn tick_cus_serial(&mut self, now: u64) -> CuPhaseReport {
        let mut report = CuPhaseReport::default();
        for (cu, mut side) in self.cus.iter_mut().zip(self.mem.cu_sides()) {
            let mut cx = TickCtx {
                now,
                backing: DeviceMem::Direct(&mut self.backing),
                mem: &mut *side.ports,
                events: self.events_on.then_some(&mut self.events),
                inject: &mut self.inject,
            };
            cu.tick(&mut cx);
            side.tick(now);
            report.add(cu);
        }
        report
    }

    /// Evaluates the compute units with `threads` worker threads (1: on the
    /// calling thread only). Results do not depend on it (docs/cycle-model.md,
    /// "Worker threads"); 0 is taken as 1.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        self.adaptive = false;
        self.workers = Workers::default();
    }

    /// Like [`ClockedGpu::set_threads`], but whether an edge goes to the
    /// workers is decided as the run goes by measuring whether they pay
    /// (docs/cycle-model.md, "Adaptive threads"): on a machine whose
    /// cores are taken by other processes, the edges stay on the calling
    /// thread. Results do not depend on it.
    pub fn set_adaptive_threads(&mut self, max: usize) {
        self.set_threads(max);
        self.adaptive = max > 1;
    }

    /// [`ClockedGpu::set_adaptive_threads`] with probe windows of `window`
    /// of compute-unit time instead of 2 ms: for tests, where zero makes a
    /// short run change between the workers and this thread at almost every
    /// edge.
    pub fn set_adaptive_threads_window(&mut self, max: usize, window: std::time::Duration) {
        self.set_adaptive_threads(max);
        self.workers.governor = Governor::with_window(window);
    }

    /// What the adaptive threads decided since the threads were set (all
    /// zero with a fixed thread count).
    pub fn thread_governor(&self) -> GovernorReport {
        self.workers.governor.report()
    }

    /// Hands an edge to the worker threads only when at least `cus` CUs
    /// are busy (default 8; 1 makes every edge with work go to the workers,
    /// which the determinism tests use on small configurations).
    pub fn set_parallel_min_busy_cus(&mut self, cus: usize) {
        self.parallel_min_busy = cus.max(1);
    }

    /// Turns event skipping on (the default) or off: with it, [`Device::run`]
    /// jumps over clock edges in which nothing but countdowns happen (every
    /// CU, the dispatcher and the memory system idle, the front end waiting
    /// on semaphore poll timers), with the same results as ticking each one
    /// (docs/cycle-model.md, "Event skipping"). `run_with` (lockstep,
    /// tracing) ticks every edge.
    pub fn set_event_skipping(&mut self, on: bool) {
        self.skip = on;
    }

    /// Clock edges from now in which no block would do more than wait and
    /// count (docs/cycle-model.md, "Event skipping"): the earliest next
    /// event of the compute units, dispatcher, front end and memory system,
    /// minus now; 0 or 1 when the next edge may do anything else (1: it is
    /// not worth a jump).
    fn waiting_cycles(&self) -> u64 {
        let now = self.cycle;
        if self.fault.is_some() || !self.completed.is_empty() || self.inject.is_some() {
            return 0;
        }
        // Cheapest first, and stop at the first block that acts now.
        let horizon = now + 1;
        let mut t = u64::MAX;
        let ports = self.mem.cu_ports();
        for (cu, port) in self.cus.iter().zip(ports) {
            t = t.min(cu.next_event(now, port));
            if t <= horizon {
                return 0;
            }
        }
        if !self.dispatcher.is_idle() {
            let cus = &self.cus;
            t = t.min(self.dispatcher.next_event(now, cus.len(), |c| cus[c].epoch));
        }
        if t <= horizon {
            return 0;
        }
        if self.frontend_needed() {
            let ready = self.dispatcher.active.len() < MAX_DISPATCHES;
            t = t.min(self.frontend.next_event(now, ready, self.mem.busy()));
        }
        if t <= horizon {
            return 0;
        }
        t = t.min(self.mem.next_event(horizon));
        // The waves' readiness last: the costliest question.
        for cu in self.cus.iter().filter(|c| !c.is_idle()) {
            if t <= horizon {
                return 0;
            }
            t = t.min(cu.waves_next_event(now));
        }
        t.saturating_sub(now)
    }

    /// Applies `cycles` edges in which every block only waits and counts
    /// (at most [`ClockedGpu::waiting_cycles`]).
    fn skip_cycles(&mut self, cycles: u64) {
        let now = self.cycle;
        for cu in &mut self.cus {
            cu.skip(now, cycles);
        }
        if self.frontend_needed() {
            self.frontend.skip(cycles);
        }
        self.mem.skip(cycles);
        let sample = u64::from(self.config.cu.occupancy_sample);
        // Residency does not change while waiting.
        let waves: u32 = self.cus.iter().map(Cu::resident).sum();
        let mut next = (now / sample + 1) * sample;
        while next <= now + cycles {
            self.occupancy.push((next, waves));
            next += sample;
        }
        self.cycle += cycles;
        self.skipped += cycles;
    }

    /// Clock edges whose CUs the worker threads evaluated since reset (0:
    /// the run used the calling thread only, so its CPU time covers it).
    pub fn parallel_edges(&self) -> u64 {
        self.parallel_edges
    }

    /// CU edges on worker threads whose memory instructions were executed
    /// again when the edge was committed, since reset (a read overlapped a
    /// write made before it in CU order: `crate::mem::staged`).
    pub fn staged_reexecutions(&self) -> u64 {
        self.reexecutions
    }

    /// Clock edges event skipping jumped over since reset.
    pub fn skipped_cycles(&self) -> u64 {
        self.skipped
    }

    /// Worker threads evaluating the compute units.
    pub fn threads(&self) -> usize {
        self.threads
    }

    fn all_channels_polling(&self) -> bool {
        let mut working = 0;
        for c in self.frontend.channels() {
            if c.enabled && c.has_work() {
                if c.ch_state() != mmio::CH_STATE_SEMAPHORE {
                    return false;
                }
                working += 1;
            }
        }
        working > 0
    }

    fn word_holds(&self, address: u64, value: u32, compare: SemaphoreCompare) -> bool {
        self.backing
            .read_u32(address)
            .is_ok_and(|v| compare.holds(v, value))
    }

    /// The resident wave that launched first (ties: the lowest CU), if any.
    fn oldest_resident(&self) -> Option<&crate::cu::wave::Wave> {
        self.cus
            .iter()
            .filter_map(|c| c.oldest_wave())
            .min_by_key(|w| w.launched)
    }

    /// The per-wave watchdog, checked once per loop iteration: `Err` when
    /// the oldest resident wave has been resident `budget` cycles. Scans the
    /// waves only when the earliest possible deadline (`wave_deadline`) is
    /// reached, so a check costs nothing on most cycles; skipping never
    /// jumps past that deadline, so the fault's cycle does not depend on
    /// event skipping or the thread count.
    fn check_wave_watchdog(&mut self, budget: u64) -> Result<(), DeviceError> {
        if self.cycle < self.wave_deadline {
            return Ok(());
        }
        let launched = self.oldest_resident().map(|w| w.launched);
        match launched {
            Some(l) if self.cycle - l >= budget => {
                Err(self.watchdog(FaultKind::WaveWatchdog { budget }))
            }
            // A wave launched later reaches its deadline later.
            Some(l) => {
                self.wave_deadline = l + budget;
                Ok(())
            }
            None => {
                self.wave_deadline = self.cycle + budget;
                Ok(())
            }
        }
    }

    fn watchdog(&mut self, kind: FaultKind) -> DeviceError {
        let oldest = self
            .oldest_resident()
            .map(|w| (w.id, w.pc.value(), w.env.target()));
        let instruction = oldest.and_then(|(_, pc, target)| {
            let mut b = [0u8; 12];
            (0..3)
                .find_map(|k| {
                    let n = 12 - 4 * k;
                    self.backing.read(pc, &mut b[..n]).ok().map(|_| n)
                })
                .and_then(|n| arch::isa::decode(target, &b[..n]).ok())
                .map(|i| i.to_string())
        });
        let f = Box::new(Fault {
            wave: oldest.map(|o| o.0),
            pc: oldest.map(|o| o.1),
            instruction,
            ..Fault::at_cycle(kind, self.cycle)
        });
        self.fault = Some(f.clone());
        DeviceError::Fault(f)
    }

    /// The registers of resident wave `id` (scalar state, VGPRs × 64 lanes),
    /// for register dumps.
    pub fn wave_registers(&self, id: WaveId) -> Option<(ScalarState, Vec<[u32; 64]>)> {
        self.cus.iter().find_map(|cu| cu.wave_registers(id))
    }

    /// The LDS of the workgroup that resident wave `id` belongs to.
    pub fn workgroup_lds(&self, id: WaveId) -> Option<&[u8]> {
        self.cus.iter().find_map(|cu| cu.workgroup_lds(id))
    }

    /// Everything counted since reset.
    pub fn stats(&self) -> GpuStats {
        let cycles = self.cycle.max(1);
        let mut s = GpuStats {
            cycles: self.cycle,
            dispatches: self.dispatch_stats.clone(),
            occupancy: self.occupancy.clone(),
            memory: self.mem.stats(),
            channels: (self.frontend.channel_stats().iter())
                .filter(|c| c.is_active())
                .cloned()
                .collect(),
            ..GpuStats::default()
        };
        for cu in &self.cus {
            let mut c = cu.stats.clone();
            c.ipc = c.instructions.total() as f64 / cycles as f64;
            c.valu_utilisation =
                c.valu_busy_cycles as f64 / (f64::from(self.config.cu.simds) * cycles as f64);
            s.instructions.accumulate(&c.instructions);
            s.active_lane_instructions += c.active_lane_instructions;
            s.stalls.accumulate(&c.stalls);
            s.cus.push(c);
        }
        s
    }

    fn map_error(base: u64, size: u64, e: MapError) -> DeviceError {
        DeviceError::bad_mapping(base, size, e)
    }
}

impl Device for ClockedGpu {
    fn isa(&self) -> Isa {
        Isa::Gfx1030
    }

    fn map(&mut self, base: u64, size: u64) -> Result<(), DeviceError> {
        self.backing
            .map(base, size)
            .map_err(|e| Self::map_error(base, size, e))
    }

    fn unmap(&mut self, base: u64) -> Result<(), DeviceError> {
        let size = self
            .backing
            .unmap(base)
            .map_err(|e| Self::map_error(base, 0, e))?;
        for cu in &mut self.cus {
            cu.invalidate_code(base, size);
        }
        Ok(())
    }

    fn read(&self, address: u64, out: &mut [u8]) -> Result<(), DeviceError> {
        self.backing
            .read(address, out)
            .map_err(|_| DeviceError::Unmapped {
                address,
                len: out.len() as u64,
            })
    }

    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), DeviceError> {
        self.backing
            .write(address, data)
            .map_err(|_| DeviceError::Unmapped {
                address,
                len: data.len() as u64,
            })?;
        for cu in &mut self.cus {
            cu.invalidate_code(address, data.len() as u64);
        }
        Ok(())
    }

    fn mmio_read(&mut self, offset: u32) -> Result<u32, DeviceError> {
        match offset {
            mmio::GPU_ID => Ok(mmio::GPU_ID_GFX1030),
            mmio::STATUS => {
                let busy = !self.is_idle();
                let mut status = 0;
                if busy {
                    status |= mmio::STATUS_BUSY;
                }
                if self.fault.is_some() {
                    status |= mmio::STATUS_FAULT;
                }
                Ok(status)
            }
            mmio::CHANNEL_COUNT => Ok(self.config.frontend.channels),
            mmio::CYCLE_LO => Ok(self.cycle as u32),
            mmio::CYCLE_HI => Ok((self.cycle >> 32) as u32),
            _ => self.frontend.mmio_read(offset),
        }
    }

    fn mmio_write(&mut self, offset: u32, value: u32) -> Result<(), DeviceError> {
        match offset {
            mmio::GPU_ID | mmio::STATUS | mmio::CHANNEL_COUNT | mmio::CYCLE_LO | mmio::CYCLE_HI => {
                Err(DeviceError::Mmio {
                    offset,
                    reason: "read-only register".into(),
                })
            }
            _ => self.frontend.mmio_write(offset, value),
        }
    }

    fn run(&mut self, until: RunUntil) -> Result<RunStatus, DeviceError> {
        let skip = self.skip;
        self.run_loop(until, skip, |_| Ok(()))
    }

    /// The earliest of the CUs' first out-of-range LDS accesses (by cycle,
    /// then wave: the same whatever thread stepped which CU).
    fn lds_out_of_range(&self) -> Option<arch::device::LdsOutOfRange> {
        self.cus.iter().fold(None, |a, cu| {
            arch::device::LdsOutOfRange::earlier(a, cu.lds_out_of_range().cloned())
        })
    }

    fn now(&self) -> u64 {
        self.cycle
    }
}

impl ClockedGpu {
    /// [`Device::run`] with `hook` called after every clock edge: lockstep
    /// checking drains [`ClockedGpu::swap_events`] there, tracing samples the
    /// design. An `Err` from the hook stops the GPU with that fault (it is
    /// returned now and by every later `run`).
    pub fn run_with<H>(&mut self, until: RunUntil, hook: H) -> Result<RunStatus, DeviceError>
    where
        H: FnMut(&mut ClockedGpu) -> Result<(), Box<Fault>>,
    {
        self.run_loop(until, false, hook)
    }

    /// [`Device::run`] with `hook` called after every clock edge it ticks
    /// and after every jump of event skipping (when on): for hooks that
    /// need not see each edge — a progress indicator, an interruption
    /// check — unlike tracing or lockstep, which use
    /// [`ClockedGpu::run_with`] and so tick every edge.
    pub fn run_observed<H>(&mut self, until: RunUntil, hook: H) -> Result<RunStatus, DeviceError>
    where
        H: FnMut(&mut ClockedGpu) -> Result<(), Box<Fault>>,
    {
        let skip = self.skip;
        self.run_loop(until, skip, hook)
    }

    /// The run loop; `skip`: jump over edges in which every block only
    /// waits (the hook is then called once per jump, so only `run` and
    /// `run_observed` ask for it).
    fn run_loop<H>(
        &mut self,
        until: RunUntil,
        skip: bool,
        mut hook: H,
    ) -> Result<RunStatus, DeviceError>
    where
        H: FnMut(&mut ClockedGpu) -> Result<(), Box<Fault>>,
    {
        if let Some(f) = &self.fault {
            return Err(DeviceError::Fault(f.clone()));
        }
        let start = self.cycle;
        let budget = self.config.watchdog_cycles;
        let wave_budget = self.config.wave_watchdog_cycles;
        self.quiet_cycles = 0;
        loop {
            match until {
                RunUntil::Idle if self.is_idle() => return Ok(RunStatus::Done),
                RunUntil::Word {
                    address,
                    value,
                    compare,
                } => {
                    if self.word_holds(address, value, compare) {
                        return Ok(RunStatus::Done);
                    }
                    if self.is_idle() {
                        return Ok(RunStatus::Blocked(Vec::new()));
                    }
                }
                RunUntil::Cycles(n) if self.cycle - start >= n => {
                    return Ok(RunStatus::BudgetExhausted)
                }
                _ => {}
            }
            if self.cycle - start >= budget {
                return Err(self.watchdog(FaultKind::Watchdog { budget }));
            }
            self.check_wave_watchdog(wave_budget)?;
            // Deadlock: no dispatch or wave left that could write memory, and
            // every channel with work polls a semaphore (the polling itself
            // keeps the memory system busy, so it is not part of the test).
            let deadlock_candidate = self.dispatcher.is_idle()
                && self.cus.iter().all(Cu::is_idle)
                && self.all_channels_polling();
            if deadlock_candidate {
                self.quiet_cycles += 1;
                if self.quiet_cycles >= DEADLOCK_CYCLES {
                    let blocked = self.frontend.blocked(&self.backing);
                    if !blocked.is_empty() {
                        return Ok(RunStatus::Blocked(blocked));
                    }
                    self.quiet_cycles = 0;
                }
            } else {
                self.quiet_cycles = 0;
            }
            if skip {
                // This iteration's edge and the next `k - 1` iterations'
                // edges only count down; their checks above would all pass
                // (memory does not change, the budgets and the deadlock
                // count are kept below their limits), so do them at once.
                let mut k = self.waiting_cycles();
                let elapsed = self.cycle - start;
                k = k.min(budget - elapsed);
                // Not past the per-wave watchdog's next deadline (always
                // after this cycle once the check above passed).
                k = k.min(self.wave_deadline - self.cycle);
                if let RunUntil::Cycles(n) = until {
                    k = k.min(n - elapsed);
                }
                if deadlock_candidate {
                    k = k.min(DEADLOCK_CYCLES - self.quiet_cycles);
                }
                if k > 1 {
                    self.skip_cycles(k);
                    if deadlock_candidate {
                        self.quiet_cycles += k - 1;
                    }
                    if let Err(f) = hook(self) {
                        self.fault = Some(f.clone());
                        return Err(DeviceError::Fault(f));
                    }
                    continue;
                }
            }
            self.step();
            let hooked = hook(self);
            if let Some(f) = &self.fault {
                return Err(DeviceError::Fault(f.clone()));
            }
            if let Err(f) = hooked {
                self.fault = Some(f.clone());
                return Err(DeviceError::Fault(f));
            }
        }
    }
}

impl traces::Probe for ClockedGpu {
    fn probe(&self, name: &str, t: &mut traces::Tracer) {
        t.scope(name, |t| {
            t.signal("cycle", 64, self.cycle);
            self.frontend.probe("frontend", t);
            self.dispatcher.probe("dispatch", t);
            for (i, cu) in self.cus.iter().enumerate() {
                // A CU's scope holds its core blocks and its caches.
                t.indexed("cu", i, |t, n| {
                    t.scope(n, |t| {
                        cu.probe_blocks(t);
                        self.mem.probe_cu(i, t);
                    })
                });
            }
            self.mem.probe_shared(t);
        });
    }
}
