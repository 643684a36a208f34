//! The recorder: samples the probe every cycle and turns signal changes into
//! spans (begin, end) on tracks.

use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};

use arch::device::Device as _;
use hw::ClockedGpu;
use traces::{Probe, Tracer};

/// A track of the timeline: `pid` groups tracks (0 the GPU, 1 + N compute
/// unit N), `tid` orders them inside the group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Track {
    /// Process id: 0 GPU-wide tracks, 1 + N compute unit N.
    pub pid: u32,
    /// Thread id (the track's place in its group).
    pub tid: u32,
}

/// A finished span.
#[derive(Clone, Debug)]
pub(crate) struct Span {
    pub track: Track,
    pub name: String,
    pub cat: &'static str,
    pub start: u64,
    pub end: u64,
    pub args: Vec<(&'static str, u64)>,
}

/// An instant (a front-end entry completing).
#[derive(Clone, Debug)]
pub(crate) struct Instant {
    pub track: Track,
    pub name: String,
    pub at: u64,
}

/// A counter sample.
#[derive(Clone, Debug)]
pub(crate) struct Counter {
    pub name: &'static str,
    pub at: u64,
    pub value: f64,
}

/// Instruction classes by `issue_class` code (hw::stats::Class).
const CLASSES: [&str; 8] = [
    "SALU", "VALU", "VMEM", "SMEM", "LDS", "branch", "other", "?",
];
/// Stall reasons by `stall` code - 1 (hw::stats::Stall).
const STALLS: [&str; 7] = [
    "dependency",
    "waitcnt",
    "barrier",
    "bank conflict",
    "no ready wave",
    "fetch",
    "backpressure",
];
/// Front-end channel phases by `phase` code (hw frontend `Phase::code`).
const PHASES: [&str; 8] = [
    "idle",
    "fetch entry",
    "fetch block",
    "execute",
    "acquire: read",
    "acquire: wait",
    "wait for idle",
    "error",
];

/// What a signal is to the recorder.
#[derive(Clone, Copy, Debug)]
enum Role {
    Launch,
    Resident,
    Sched { cu: u32, simd: u32 },
    Wave { cu: u32, slot: u32 },
    Wg { cu: u32, slot: u32 },
    Channel { ch: u32 },
}

/// A numbered block of a CU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Block {
    Sched,
    Wave,
    Wg,
    Resident,
}

/// The values of one scheduler's port.
#[derive(Clone, Copy, Debug, Default)]
struct SchedSignals {
    valid: usize,
    wave: usize,
    class: usize,
    stall: usize,
}

/// An open span.
#[derive(Clone, Debug)]
struct Open {
    name: String,
    start: u64,
    args: Vec<(&'static str, u64)>,
}

/// Records a run; [`Recorder::finish`] writes the file.
pub struct Recorder {
    path: PathBuf,
    tracer: Tracer,
    roles: Vec<Option<Role>>,
    /// By name: the index of every wanted signal.
    index: BTreeMap<String, usize>,
    cus: u32,
    simds: u32,
    wave_slots: u32,
    /// Workgroups launched to each CU and not yet seen in a slot:
    /// (dispatch, workgroup).
    launched: Vec<VecDeque<(u32, u32)>>,
    /// Identity of each CU's workgroup slots: (dispatch, workgroup).
    wg_id: BTreeMap<(u32, u32), (u32, u32)>,
    open: BTreeMap<Track, Open>,
    /// Per SIMD track: the open wave-issue run (its wave-slot track).
    issue_run: BTreeMap<Track, (Track, Open)>,
    pub(crate) spans: Vec<Span>,
    pub(crate) instants: Vec<Instant>,
    pub(crate) counters: Vec<Counter>,
    pub(crate) names: BTreeMap<Track, String>,
    /// Last cycle sampled.
    pub(crate) last: u64,
    last_counter: Option<(u64, hw::mem::MemStats)>,
    l2_outputs: u32,
    /// Signal index by (CU, block, number, field).
    fast: BTreeMap<(u32, Block, u32, &'static str), usize>,
    /// The cycle recording stopped at because [`super::MAX_SPANS`] were kept.
    pub(crate) truncated_at: Option<u64>,
    /// Entries completed per channel, as last seen.
    entries: BTreeMap<u32, u64>,
}

impl std::fmt::Debug for Recorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recorder")
            .field("path", &self.path)
            .finish()
    }
}

/// Track ids inside a CU's group.
fn simd_track(cu: u32, simd: u32) -> Track {
    Track {
        pid: 1 + cu,
        tid: 1 + simd,
    }
}
fn wave_track(cu: u32, slot: u32) -> Track {
    Track {
        pid: 1 + cu,
        tid: 100 + slot,
    }
}
fn wg_track(cu: u32, slot: u32) -> Track {
    Track {
        pid: 1 + cu,
        tid: 1000 + slot,
    }
}
fn channel_track(ch: u32) -> Track {
    Track {
        pid: 0,
        tid: 10 + ch,
    }
}

/// `gpu.cu3.sched1.stall` → Some((3, "sched1.stall")).
fn in_cu(path: &str) -> Option<(u32, &str)> {
    let rest = path.strip_prefix("gpu.cu")?;
    let (n, rest) = rest.split_once('.')?;
    Some((n.parse().ok()?, rest))
}

/// `wave12.valid` with prefix `wave` → Some((12, "valid")).
fn indexed<'a>(s: &'a str, prefix: &str) -> Option<(u32, &'a str)> {
    let rest = s.strip_prefix(prefix)?;
    let (n, rest) = rest.split_once('.')?;
    Some((n.parse().ok()?, rest))
}

impl Recorder {
    /// A recorder that will write `path` (`.svg`: a picture; otherwise the
    /// Trace Event Format). The file is created now, so a bad path fails
    /// before the run.
    pub fn create(path: &Path) -> Result<Recorder, String> {
        std::fs::write(path, b"").map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Recorder {
            path: path.to_path_buf(),
            tracer: Tracer::names(),
            roles: Vec::new(),
            index: BTreeMap::new(),
            cus: 0,
            simds: 0,
            wave_slots: 0,
            launched: Vec::new(),
            wg_id: BTreeMap::new(),
            open: BTreeMap::new(),
            issue_run: BTreeMap::new(),
            spans: Vec::new(),
            instants: Vec::new(),
            counters: Vec::new(),
            names: BTreeMap::new(),
            last: 0,
            last_counter: None,
            l2_outputs: 1,
            truncated_at: None,
            entries: BTreeMap::new(),
            fast: BTreeMap::new(),
        })
    }

    /// The role of a signal, or None if the timeline does not use it.
    fn role_of(path: &str) -> Option<Role> {
        if let Some(p) = path.strip_prefix("gpu.dispatch.launch_") {
            return matches!(p, "valid" | "cu" | "dispatch" | "wg").then_some(Role::Launch);
        }
        if let Some(rest) = path.strip_prefix("gpu.frontend.ch") {
            let (n, sig) = rest.split_once('.')?;
            let ch = n.parse().ok()?;
            return matches!(sig, "phase" | "entries_done").then_some(Role::Channel { ch });
        }
        let (cu, rest) = in_cu(path)?;
        if rest == "resident" {
            return Some(Role::Resident);
        }
        if let Some((simd, sig)) = indexed(rest, "sched") {
            return matches!(sig, "issue_valid" | "issue_wave" | "issue_class" | "stall")
                .then_some(Role::Sched { cu, simd });
        }
        if let Some((slot, sig)) = indexed(rest, "wave") {
            return matches!(sig, "valid" | "age" | "wg").then_some(Role::Wave { cu, slot });
        }
        if let Some((slot, sig)) = indexed(rest, "wg") {
            return (sig == "valid").then_some(Role::Wg { cu, slot });
        }
        None
    }

    fn declare(&mut self, gpu: &ClockedGpu) {
        let c = gpu.config();
        self.cus = c.cus;
        self.simds = c.cu.simds;
        self.wave_slots = c.cu.wave_slots;
        self.l2_outputs = c.memory.l2.channels + 3 * c.cus + 1;
        self.launched = vec![VecDeque::new(); c.cus as usize];
        self.roles = self
            .tracer
            .signals()
            .iter()
            .map(|s| Self::role_of(&s.path))
            .collect();
        for (i, s) in self.tracer.signals().iter().enumerate() {
            if self.roles[i].is_some() {
                self.index.insert(s.path.clone(), i);
                if let Some((cu, rest)) = in_cu(&s.path) {
                    let fields: [&'static str; 7] = [
                        "issue_valid",
                        "issue_wave",
                        "issue_class",
                        "stall",
                        "valid",
                        "age",
                        "wg",
                    ];
                    let key =
                        [
                            (Block::Sched, "sched"),
                            (Block::Wave, "wave"),
                            (Block::Wg, "wg"),
                        ]
                        .iter()
                        .find_map(|&(b, prefix)| {
                            let (n, f) = indexed(rest, prefix)?;
                            let f = fields.iter().find(|&&x| x == f)?;
                            Some((cu, b, n, *f))
                        })
                        .or((rest == "resident").then_some((cu, Block::Resident, 0, "resident")));
                    if let Some(k) = key {
                        self.fast.insert(k, i);
                    }
                }
            }
        }
        let wanted: Vec<bool> = self.roles.iter().map(Option::is_some).collect();
        self.tracer.skip_unwanted(&wanted);
        self.names
            .insert(Track { pid: 0, tid: 0 }, "dispatches".into());
        for cu in 0..c.cus {
            for s in 0..c.cu.simds {
                self.names
                    .insert(simd_track(cu, s), format!("SIMD {s}: issue / stall"));
            }
        }
    }

    fn value(&self, name: &str) -> u64 {
        self.index
            .get(name)
            .and_then(|&i| self.tracer.values().get(i))
            .copied()
            .unwrap_or(0)
    }

    /// The value of signal `field` of a CU block (`sched`, `wave`, `wg`
    /// numbered `n`) without formatting its name: the indices are looked up
    /// once, at declaration.
    fn cu_value(&self, cu: u32, block: Block, n: u32, field: &'static str) -> u64 {
        self.fast
            .get(&(cu, block, n, field))
            .and_then(|&i| self.tracer.values().get(i))
            .copied()
            .unwrap_or(0)
    }

    fn close(&mut self, track: Track, now: u64) {
        if let Some(o) = self.open.remove(&track) {
            if now > o.start {
                self.spans.push(Span {
                    track,
                    name: o.name,
                    cat: cat_of(track),
                    start: o.start,
                    end: now,
                    args: o.args,
                });
            }
        }
    }

    fn begin(&mut self, track: Track, now: u64, name: String, args: Vec<(&'static str, u64)>) {
        self.close(track, now);
        self.open.insert(
            track,
            Open {
                name,
                start: now,
                args,
            },
        );
    }

    /// Samples the GPU after a clock edge. Spans are placed on the cycle the
    /// edge was (`now - 1`): the state after edge `c` is what cycle `c` did.
    pub fn sample(&mut self, gpu: &ClockedGpu) -> Result<(), String> {
        if self.truncated_at.is_some() {
            return Ok(());
        }
        if self.spans.len() >= super::MAX_SPANS {
            // Close what is open where recording stops.
            self.truncated_at = Some(self.last);
            let tracks: Vec<Track> = self.open.keys().copied().collect();
            for t in tracks {
                self.close(t, self.last);
            }
            self.issue_run.clear();
            return Ok(());
        }
        let declared = self.tracer.is_declared();
        let changed = self
            .tracer
            .walk(|t| gpu.probe("gpu", t))
            .map_err(|e| e.to_string())?
            .to_vec();
        if !declared {
            self.declare(gpu);
        }
        let now = gpu.now().saturating_sub(1);
        self.last = gpu.now();
        // Changed signals by kind, in the order identities flow: launches,
        // workgroup slots, wave slots, schedulers, channels.
        let mut launch = false;
        let mut wgs = Vec::new();
        let mut waves = Vec::new();
        let mut scheds = Vec::new();
        let mut channels = Vec::new();
        for i in changed {
            match self.roles.get(i).copied().flatten() {
                Some(Role::Launch) => launch = true,
                Some(Role::Wg { cu, slot }) => wgs.push((cu, slot)),
                Some(Role::Wave { cu, slot }) => waves.push((cu, slot)),
                Some(Role::Sched { cu, simd }) => scheds.push((cu, simd)),
                Some(Role::Channel { ch }) => channels.push(ch),
                Some(Role::Resident) | None => {}
            }
        }
        if launch && self.value("gpu.dispatch.launch_valid") == 1 {
            let cu = self.value("gpu.dispatch.launch_cu") as usize;
            let id = (
                self.value("gpu.dispatch.launch_dispatch") as u32,
                self.value("gpu.dispatch.launch_wg") as u32,
            );
            if let Some(q) = self.launched.get_mut(cu) {
                q.push_back(id);
            }
        }
        wgs.dedup();
        for (cu, slot) in wgs {
            let track = wg_track(cu, slot);
            if self.cu_value(cu, Block::Wg, slot, "valid") == 1 {
                let id = self.launched[cu as usize].pop_front();
                if let Some(id) = id {
                    self.wg_id.insert((cu, slot), id);
                }
                let name = match id {
                    Some((d, w)) => format!("d{d} wg{w}"),
                    None => "workgroup".into(),
                };
                self.names
                    .entry(track)
                    .or_insert_with(|| format!("workgroup slot {slot}"));
                let args = id.map_or(Vec::new(), |(d, w)| {
                    vec![("dispatch", d as u64), ("workgroup", w as u64)]
                });
                self.begin(track, now, name, args);
            } else {
                self.close(track, now);
            }
        }
        waves.dedup();
        for (cu, slot) in waves {
            let track = wave_track(cu, slot);
            if self.cu_value(cu, Block::Wave, slot, "valid") == 1 {
                let wg = self.cu_value(cu, Block::Wave, slot, "wg") as u32;
                let age = self.cu_value(cu, Block::Wave, slot, "age");
                if self
                    .open
                    .get(&track)
                    .is_some_and(|o| o.args.contains(&("age", age)))
                {
                    continue;
                }
                let id = self.wg_id.get(&(cu, wg)).copied();
                let name = match id {
                    Some((d, w)) => format!("wave d{d} wg{w}"),
                    None => "wave".into(),
                };
                let simd = slot / self.wave_slots.max(1);
                self.names.entry(track).or_insert_with(|| {
                    format!("SIMD {simd} slot {}", slot % self.wave_slots.max(1))
                });
                let mut args = vec![("age", age), ("wg_slot", wg as u64)];
                if let Some((d, w)) = id {
                    args.extend([("dispatch", d as u64), ("workgroup", w as u64)]);
                }
                self.begin(track, now, name, args);
            } else {
                self.close(track, now);
            }
        }
        scheds.dedup();
        for (cu, simd) in scheds {
            self.sched_changed(cu, simd, now);
        }
        channels.dedup();
        for ch in channels {
            let track = channel_track(ch);
            let phase = self.value(&format!("gpu.frontend.ch{ch}.phase")) as usize;
            let entries = self.value(&format!("gpu.frontend.ch{ch}.entries_done"));
            self.names
                .entry(track)
                .or_insert_with(|| format!("front end channel {ch}"));
            let name = PHASES.get(phase).copied().unwrap_or("?");
            let same = self.open.get(&track).is_some_and(|o| o.name == name);
            if phase == 0 {
                self.close(track, now);
            } else if !same {
                self.begin(track, now, name.into(), Vec::new());
            }
            let seen = self.entries.entry(ch).or_insert(0);
            if entries > *seen {
                *seen = entries;
                self.instants.push(Instant {
                    track,
                    name: format!("entry {entries} done"),
                    at: now,
                });
            }
        }
        if gpu.now() % super::COUNTER_INTERVAL == 0 {
            self.counters_at(gpu, now);
        }
        Ok(())
    }

    /// A scheduler's port changed: end the SIMD's run (issue or stall reason)
    /// and the wave's issue run, start the new ones.
    fn sched_changed(&mut self, cu: u32, simd: u32, now: u64) {
        let v = |f| self.cu_value(cu, Block::Sched, simd, f) as usize;
        let s = SchedSignals {
            valid: v("issue_valid"),
            wave: v("issue_wave"),
            class: v("issue_class"),
            stall: v("stall"),
        };
        let track = simd_track(cu, simd);
        let state = if s.valid == 1 {
            Some("issue".to_string())
        } else if s.stall > 0 {
            Some(format!(
                "stall: {}",
                STALLS.get(s.stall - 1).unwrap_or(&"?")
            ))
        } else {
            None
        };
        let same = match (&state, self.open.get(&track)) {
            (Some(n), Some(o)) => o.name == *n,
            (None, None) => true,
            _ => false,
        };
        if !same {
            match state {
                Some(n) => self.begin(track, now, n, Vec::new()),
                None => self.close(track, now),
            }
        }
        // The wave's own issue run.
        let slot = simd * self.wave_slots + s.wave as u32;
        let wave = wave_track(cu, slot);
        let class = CLASSES.get(s.class).copied().unwrap_or("?");
        if let Some((t, o)) = self.issue_run.get(&track) {
            if s.valid == 1 && *t == wave && o.name == class {
                return;
            }
        }
        if let Some((t, o)) = self.issue_run.remove(&track) {
            // Only inside the wave's span (an issue in the cycle its slot was
            // freed has no span to sit in).
            if self.open.get(&t).is_some_and(|w| w.start <= o.start) && now > o.start {
                self.spans.push(Span {
                    track: t,
                    name: o.name,
                    cat: "issue",
                    start: o.start,
                    end: now,
                    args: Vec::new(),
                });
            }
        }
        if s.valid == 1 {
            self.issue_run.insert(
                track,
                (
                    wave,
                    Open {
                        name: class.into(),
                        start: now,
                        args: Vec::new(),
                    },
                ),
            );
        }
    }

    /// Counter samples: waves resident, and over the last interval the L2
    /// hit rate and the crossbar's packets per output per cycle.
    fn counters_at(&mut self, gpu: &ClockedGpu, now: u64) {
        let resident: u64 = (0..self.cus)
            .map(|cu| self.cu_value(cu, Block::Resident, 0, "resident"))
            .sum();
        let slots = f64::from(self.cus * self.simds * self.wave_slots).max(1.0);
        self.counters.push(Counter {
            name: "occupancy",
            at: now,
            value: resident as f64 / slots,
        });
        let mem = gpu.stats().memory;
        if let Some((t0, m0)) = &self.last_counter {
            let dt = (now - t0).max(1) as f64;
            let hits = mem.l2.hits - m0.l2.hits;
            let misses = mem.l2.misses - m0.l2.misses;
            if hits + misses > 0 {
                self.counters.push(Counter {
                    name: "L2 hit rate",
                    at: now,
                    value: hits as f64 / (hits + misses) as f64,
                });
            }
            self.counters.push(Counter {
                name: "crossbar utilisation",
                at: now,
                value: (mem.xbar_packets - m0.xbar_packets) as f64
                    / (dt * f64::from(self.l2_outputs)),
            });
        }
        self.last_counter = Some((now, mem));
    }

    /// Ends every open span at the last cycle sampled and adds the
    /// dispatches (from the run's statistics); `Recorder::finish` (in the
    /// module root) then writes the file.
    pub(super) fn close_all(&mut self, gpu: &ClockedGpu) {
        let end = self.truncated_at.unwrap_or(self.last);
        let tracks: Vec<Track> = self.open.keys().copied().collect();
        for t in tracks {
            self.close(t, end);
        }
        // Dispatches on as few lanes as keep them from overlapping.
        let mut lanes: Vec<u64> = Vec::new();
        for d in gpu.stats().dispatches {
            if d.start >= end {
                continue;
            }
            let stop = if d.end > 0 { d.end.min(end) } else { end };
            let lane = match lanes.iter().position(|&e| e <= d.start) {
                Some(l) => l,
                None => {
                    lanes.push(0);
                    lanes.len() - 1
                }
            };
            lanes[lane] = stop;
            let track = Track {
                pid: 0,
                tid: lane as u32,
            };
            self.names.insert(
                track,
                format!(
                    "dispatches{}",
                    if lane > 0 {
                        format!(" {lane}")
                    } else {
                        String::new()
                    }
                ),
            );
            if stop > d.start {
                self.spans.push(Span {
                    track,
                    name: format!("dispatch {}", d.number),
                    cat: "dispatch",
                    start: d.start,
                    end: stop,
                    args: vec![("workgroups", d.workgroups), ("waves", d.waves)],
                });
            }
        }
    }

    /// The file the timeline goes to.
    pub(super) fn path(&self) -> &Path {
        &self.path
    }
}

fn cat_of(t: Track) -> &'static str {
    match (t.pid, t.tid) {
        (0, 10..) => "frontend",
        (0, _) => "dispatch",
        (_, 1..=99) => "simd",
        (_, 100..=999) => "wave",
        _ => "workgroup",
    }
}
