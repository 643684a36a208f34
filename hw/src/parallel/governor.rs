//! Adaptive worker threads: whether handing clock edges to the worker
//! threads pays, decided by measuring it (docs/cycle-model.md, "Adaptive
//! threads").
//!
//! Worker threads pay when they get cores of their own. On a machine whose
//! cores other processes also want (other simulations of a sweep, builds),
//! a worker is often not running when its edge is published, or is
//! preempted in the middle of its part, and the caller waits a scheduler
//! time slice for it: measured on 2 cores with one other busy process, a
//! 64-CU run took 1.85 times as long on 2 threads as on 1. No static rule
//! (core count, load average) tells in advance; the run itself does.
//!
//! So the governor *probes*: it alternates short windows of serial and
//! parallel edges (serial, parallel, serial, … — the order flips each probe,
//! so a trend in the workload favours neither), each window lasting
//! [`WINDOW`] of compute-unit phase time, and compares the median window's
//! time per busy CU of each mode (the median, so that one window another
//! process preempted does not decide). The faster one, if faster by [`MARGIN`] (else serial: it
//! costs less CPU), runs for the *exploit* period, after which the governor
//! probes again, because the load and the workload both change. The
//! exploit period starts at [`EXPLOIT_FIRST`] times the probe's length and
//! doubles, up to [`EXPLOIT_MAX`] times, while probes agree, so that a
//! stable choice pays for its probes less and less: the probing costs at
//! most about half a probe's length of the slower mode per exploit period
//! (a few per cent at first, under one per cent later).
//!
//! Results do not depend on the choice (every edge gives the same state on
//! one thread as on several), so the governor may decide from wall-clock
//! time, which differs run to run.

use std::time::{Duration, Instant};

/// Compute-unit phase time of one probe window.
pub const WINDOW: Duration = Duration::from_millis(2);
/// Windows of each mode in one probe.
const WINDOWS_PER_MODE: u32 = 3;
/// Parallel edges must be this much faster per busy CU to be chosen.
pub const MARGIN: f64 = 0.05;
/// The first exploit period, in probe lengths.
const EXPLOIT_FIRST: u32 = 16;
/// The longest exploit period, in probe lengths.
const EXPLOIT_MAX: u32 = 128;
/// Edges between looks at the clock while exploiting.
const EXPLOIT_LOOK_EVERY: u32 = 64;

/// What the governor has decided, for reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GovernorReport {
    /// Probes completed.
    pub probes: u64,
    /// Probes that chose the worker threads.
    pub chose_parallel: u64,
    /// Edges run serially although they could have gone to the workers
    /// (probe windows and serial exploit periods).
    pub serial_edges: u64,
}

/// Measured time and work of one mode in a probe: the window in progress,
/// and the time per busy CU of each window finished.
#[derive(Clone, Copy, Debug, Default)]
struct Sample {
    nanos: u128,
    /// Busy CUs summed over the window's edges (what an edge's time scales
    /// with).
    units: u64,
    windows: [f64; WINDOWS_PER_MODE as usize],
    done: usize,
}

impl Sample {
    /// Closes the window in progress.
    fn close(&mut self) {
        if self.done < self.windows.len() {
            self.windows[self.done] = self.nanos as f64 / self.units.max(1) as f64;
            self.done += 1;
        }
        self.nanos = 0;
        self.units = 0;
    }

    /// The median window's time per busy CU: a window that another process
    /// preempted (a scheduler time slice is several windows long) does not
    /// decide the probe.
    fn per_unit(&self) -> f64 {
        let mut w = self.windows[..self.done].to_vec();
        w.sort_by(f64::total_cmp);
        w.get(w.len() / 2).copied().unwrap_or(f64::INFINITY)
    }
}

#[derive(Clone, Copy, Debug)]
enum State {
    /// Measuring: the window in progress runs `parallel` edges; `left`
    /// windows follow it (the modes alternate).
    Probe {
        parallel: bool,
        left: u32,
        window: Duration,
        started: Option<Instant>,
    },
    /// Running the chosen mode until `until`.
    Exploit {
        parallel: bool,
        until: Instant,
        edges: u32,
    },
}

/// The decision for one edge, handed back to [`Governor::end`] with the
/// edge's busy CUs.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    /// Run this edge on the workers.
    pub parallel: bool,
    /// When the edge began, if it is measured.
    started: Option<Instant>,
}

/// Chooses, edge by edge, between the worker threads and the calling
/// thread (see the module documentation).
#[derive(Clone, Debug)]
pub struct Governor {
    state: State,
    serial: Sample,
    parallel: Sample,
    /// This probe started with a parallel window (flips each probe).
    first_parallel: bool,
    /// The last probe's choice and the exploit factor it has reached.
    last: Option<bool>,
    factor: u32,
    report: GovernorReport,
    /// Compute-unit phase time of a probe window ([`WINDOW`]).
    window: Duration,
}

impl Default for Governor {
    fn default() -> Governor {
        Governor::new()
    }
}

impl Governor {
    /// A governor that probes at its first edge.
    pub fn new() -> Governor {
        Governor::with_window(WINDOW)
    }

    /// With probe windows of `window` instead of [`WINDOW`] (tests: zero
    /// makes every edge of a probe a window, so the mode changes at almost
    /// every edge).
    pub fn with_window(window: Duration) -> Governor {
        Governor {
            window,
            state: State::Probe {
                parallel: false,
                left: 2 * WINDOWS_PER_MODE - 1,
                window: Duration::ZERO,
                started: None,
            },
            serial: Sample::default(),
            parallel: Sample::default(),
            first_parallel: false,
            last: None,
            factor: EXPLOIT_FIRST,
            report: GovernorReport::default(),
        }
    }

    /// What it has decided so far.
    pub fn report(&self) -> GovernorReport {
        self.report
    }

    /// The decision for the next edge that could go to the workers;
    /// `clock` reads the time (`Instant::now`; tests pass their own). It
    /// is read at every edge of a probe and every 64th edge otherwise.
    pub fn begin(&mut self, clock: &impl Fn() -> Instant) -> Edge {
        let edge = match &mut self.state {
            State::Probe {
                parallel, started, ..
            } => {
                let t = clock();
                started.get_or_insert(t);
                Edge {
                    parallel: *parallel,
                    started: Some(t),
                }
            }
            State::Exploit {
                parallel,
                until,
                edges,
            } => {
                let (parallel, until) = (*parallel, *until);
                *edges += 1;
                if *edges % EXPLOIT_LOOK_EVERY == 0 && clock() >= until {
                    self.start_probe();
                    return self.begin(clock);
                }
                Edge {
                    parallel,
                    started: None,
                }
            }
        };
        if !edge.parallel {
            self.report.serial_edges += 1;
        }
        edge
    }

    /// Accounts for an edge begun with [`Governor::begin`] that had `busy`
    /// busy CUs (the clock is read only if the edge is measured).
    pub fn end(&mut self, edge: Edge, busy: usize, clock: &impl Fn() -> Instant) {
        let Some(t0) = edge.started else { return };
        let now = clock();
        let took = now.saturating_duration_since(t0);
        let State::Probe {
            parallel,
            left,
            window,
            started,
        } = &mut self.state
        else {
            return;
        };
        let sample = if edge.parallel {
            &mut self.parallel
        } else {
            &mut self.serial
        };
        sample.nanos += took.as_nanos();
        sample.units += busy.max(1) as u64;
        *window += took;
        if *window < self.window {
            return;
        }
        sample.close();
        if *left > 0 {
            *parallel = !*parallel;
            *left -= 1;
            *window = Duration::ZERO;
            return;
        }
        let length = now.saturating_duration_since(started.unwrap_or(t0));
        self.decide(now, length);
    }

    /// Ends a probe that lasted `length`, at `now`: choose, and exploit the
    /// choice.
    fn decide(&mut self, now: Instant, length: Duration) {
        let parallel = self.parallel.per_unit() < self.serial.per_unit() * (1.0 - MARGIN);
        self.report.probes += 1;
        self.report.chose_parallel += u64::from(parallel);
        self.factor = if self.last == Some(parallel) {
            (self.factor * 2).min(EXPLOIT_MAX)
        } else {
            EXPLOIT_FIRST
        };
        self.last = Some(parallel);
        if debug() {
            eprintln!(
                "gpusim threads: probe {}: serial {:.0} ns/CU, parallel {:.0} ns/CU over {:.1} ms: {} for {} probe lengths",
                self.report.probes,
                self.serial.per_unit(),
                self.parallel.per_unit(),
                length.as_secs_f64() * 1e3,
                if parallel { "parallel" } else { "serial" },
                self.factor
            );
        }
        self.state = State::Exploit {
            parallel,
            until: now + length * self.factor,
            edges: 0,
        };
    }

    fn start_probe(&mut self) {
        self.first_parallel = !self.first_parallel;
        self.serial = Sample::default();
        self.parallel = Sample::default();
        self.state = State::Probe {
            parallel: self.first_parallel,
            left: 2 * WINDOWS_PER_MODE - 1,
            window: Duration::ZERO,
            started: None,
        };
    }
}

/// `GPUSIM_THREADS_DEBUG=1`: print each probe's measurement and choice.
fn debug() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("GPUSIM_THREADS_DEBUG").is_some_and(|v| v == "1"))
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    /// Runs `edges` edges of 8 busy CUs on a simulated clock, a serial edge
    /// taking `serial_us` and a parallel one `parallel_us` (the function
    /// may change with the edge's index); returns the report and the time
    /// the edges took in all.
    fn run(edges: usize, cost: impl Fn(usize, bool) -> u64) -> (GovernorReport, Duration) {
        let t0 = Instant::now();
        let at = Cell::new(t0);
        let clock = || at.get();
        let mut g = Governor::new();
        for i in 0..edges {
            let e = g.begin(&clock);
            at.set(at.get() + Duration::from_micros(cost(i, e.parallel)));
            g.end(e, 8, &clock);
        }
        (g.report(), at.get() - t0)
    }

    #[test]
    fn slower_workers_are_given_up_at_a_small_cost() {
        let edges = 200_000;
        let (r, took) = run(edges, |_, p| if p { 100 } else { 55 });
        assert!(r.probes >= 3, "{r:?}");
        assert_eq!(r.chose_parallel, 0, "{r:?}");
        // Within 5% of serial throughout.
        let serial = Duration::from_micros(55 * edges as u64);
        assert!(
            took.as_secs_f64() < serial.as_secs_f64() * 1.05,
            "{took:?} {r:?}"
        );
    }

    #[test]
    fn faster_workers_are_kept_at_a_small_cost() {
        let edges = 200_000;
        let (r, took) = run(edges, |_, p| if p { 30 } else { 55 });
        assert_eq!(r.chose_parallel, r.probes, "{r:?}");
        let parallel = Duration::from_micros(30 * edges as u64);
        assert!(
            took.as_secs_f64() < parallel.as_secs_f64() * 1.05,
            "{took:?} {r:?}"
        );
    }

    #[test]
    fn one_preempted_window_does_not_decide() {
        // Workers are twice as slow, but in the first probe one serial
        // edge (in one window) waits 3 ms for the core: the median ignores it.
        let (r, _) = run(2_000, |i, p| match (i, p) {
            (_, true) => 100,
            (1, false) => 3_000,
            (_, false) => 50,
        });
        assert!(r.probes >= 1, "{r:?}");
        assert_eq!(r.chose_parallel, 0, "{r:?}");
    }

    #[test]
    fn a_tie_stays_serial() {
        let (r, _) = run(20_000, |_, _| 60);
        assert!(r.probes >= 1, "{r:?}");
        assert_eq!(r.chose_parallel, 0, "{r:?}");
    }

    #[test]
    fn a_change_of_load_is_followed() {
        // Workers pay for the first half, then other processes take the
        // cores: later probes give them up.
        let edges = 400_000;
        let (r, took) = run(edges, |i, p| match (i < edges / 2, p) {
            (true, true) => 30,
            (true, false) => 55,
            (false, true) => 100,
            (false, false) => 55,
        });
        assert!(
            r.chose_parallel >= 1 && r.chose_parallel < r.probes,
            "{r:?}"
        );
        let best = Duration::from_micros((30 + 55) * edges as u64 / 2);
        assert!(
            took.as_secs_f64() < best.as_secs_f64() * 1.10,
            "{took:?} {r:?}"
        );
    }
}
