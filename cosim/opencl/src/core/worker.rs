//! The device thread: one thread owns a context's [`Session`] and runs, in
//! order, what the API's threads send it. OpenCL objects are used from any
//! thread, but a `Session` is not `Send` (the driver's caches hold raw
//! pointers) and a command queue is in-order anyway; so the session is built
//! on its thread and never leaves it, and each request is a closure that
//! runs there with the session, its answer sent back.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;

use arch::device::Device;
use cosim::model::Model;
use cosim::session::{Session, SessionOptions};

/// What runs on the device thread.
type Job = Box<dyn FnOnce(&mut Session) + Send>;

/// A thread owning a session.
pub struct DeviceThread {
    jobs: Option<mpsc::Sender<Job>>,
    thread: Option<JoinHandle<()>>,
    clock: Arc<SimClock>,
}

/// The simulated time of a context's device, for event profiling.
///
/// On the clocked models (cycle, lockstep) it is the model's own clock:
/// a command starts at the cycle the model had reached when the command
/// began and ends at the cycle it had reached when the command was done
/// (for a kernel: from the command processor fetching the dispatch to the
/// end of its last wave and the release of its fence). The functional model
/// has no clock: it counts wave instructions, and its time is an estimate,
/// those instructions spread over every SIMD of the device
/// (`instructions / (2 × CUs)`: an RDNA2 CU has two SIMD32s, each issuing
/// one instruction per cycle), a lower bound that ignores memory latency
/// and idle SIMDs. Cycles become nanoseconds at the configuration's shader
/// clock (`clocks.shader_mhz`; one nanosecond per cycle when it fixes none,
/// as the default configuration and the scaled presets).
pub struct SimClock {
    /// The device's time at the end of its last command, in cycles.
    cycles: AtomicU64,
    /// Instructions per estimated cycle on the functional model; 1 on the
    /// clocked ones.
    per_cycle: u64,
    /// The shader clock in MHz (0: the configuration fixes none, and a
    /// nanosecond is a cycle).
    mhz: u64,
}

impl SimClock {
    /// Nanoseconds at `cycles`.
    pub fn ns(&self, cycles: u64) -> u64 {
        if self.mhz == 0 {
            cycles
        } else {
            // u128: no overflow for any cycle count.
            (u128::from(cycles) * 1000 / u128::from(self.mhz)) as u64
        }
    }

    /// The device's time now: the end of its last command, in cycles.
    pub fn now(&self) -> u64 {
        self.cycles.load(Ordering::Acquire)
    }

    /// A command ran while the model's counter went from `before` to
    /// `after`: its (start, end) in cycles.
    fn ran(&self, before: u64, after: u64) -> (u64, u64) {
        let (start, end) = (before / self.per_cycle, after / self.per_cycle);
        self.cycles.fetch_max(end, Ordering::AcqRel);
        (start, end)
    }
}

thread_local! {
    /// The (start, end) cycles of the last command this (API) thread ran
    /// on a device, taken by the event the command returns.
    static LAST: Cell<Option<(u64, u64)>> = const { Cell::new(None) };
}

/// The (start, end) cycles of the last command this thread ran through
/// [`DeviceThread::call`], once (`None` after it was taken, or when the
/// command ran nothing on the device).
pub fn take_last_command() -> Option<(u64, u64)> {
    LAST.with(Cell::take)
}

impl DeviceThread {
    /// Starts the thread and builds the session on it; the error is the
    /// session's, as a sentence.
    pub fn start(options: SessionOptions) -> Result<DeviceThread, String> {
        let clock = Arc::new(SimClock {
            cycles: AtomicU64::new(0),
            per_cycle: match options.model {
                Model::Functional => 2 * u64::from(options.config.cus.max(1)),
                Model::Cycle | Model::Lockstep => 1,
            },
            mhz: options
                .config
                .clocks
                .as_ref()
                .map_or(0, |c| u64::from(c.shader_mhz)),
        });
        let (jobs, incoming) = mpsc::channel::<Job>();
        let (started, ready) = mpsc::channel::<Result<(), String>>();
        let thread = std::thread::Builder::new()
            .name("gpusim-device".into())
            .spawn(move || {
                let mut session = match Session::new(&options) {
                    Ok(s) => {
                        let _ = started.send(Ok(()));
                        s
                    }
                    Err(e) => {
                        let _ = started.send(Err(e.to_string()));
                        return;
                    }
                };
                // Until every sender is gone (the context was released).
                // A panic in the model fails that command only: its answer
                // channel is dropped unanswered (`call` reports it), and the
                // thread goes on serving the context's other commands.
                for job in incoming {
                    let run = std::panic::AssertUnwindSafe(|| job(&mut session));
                    if std::panic::catch_unwind(run).is_err() {
                        crate::api::guard::count_panic();
                        eprintln!("gpusim-opencl: a command panicked on the device thread");
                    }
                }
                // Close the waveform and timeline, if any, on the way out.
                if let Err(e) = session.finish_trace() {
                    eprintln!("gpusim-opencl: {e}");
                }
            })
            .map_err(|e| format!("cannot start the device thread: {e}"))?;
        let device = DeviceThread {
            jobs: Some(jobs),
            thread: Some(thread),
            clock,
        };
        match ready.recv() {
            Ok(Ok(())) => Ok(device),
            Ok(Err(e)) => Err(e),
            Err(_) => Err("the device thread stopped while building the model".into()),
        }
    }

    /// The device's simulated time.
    pub fn clock(&self) -> &SimClock {
        &self.clock
    }

    /// Runs `f` with the session on the device thread, after everything sent
    /// before it, and returns its answer (an error if the thread has gone,
    /// e.g. after a panic in the model). The simulated time it took is
    /// added to the device's clock and kept for [`take_last_command`].
    pub fn call<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Session) -> R + Send + 'static,
    ) -> Result<R, String> {
        let (reply, answer) = mpsc::channel();
        let clock = self.clock.clone();
        let job: Job = Box::new(move |s| {
            let before = s.device().now();
            let r = f(s);
            let times = clock.ran(before, s.device().now());
            let _ = reply.send((r, times));
        });
        LAST.with(|l| l.set(None));
        let gone = || "the device thread has stopped or the command panicked".to_string();
        self.jobs
            .as_ref()
            .ok_or_else(gone)?
            .send(job)
            .map_err(|_| gone())?;
        let (r, times) = answer.recv().map_err(|_| gone())?;
        LAST.with(|l| l.set(Some(times)));
        Ok(r)
    }
}

impl Drop for DeviceThread {
    fn drop(&mut self) {
        // Closing the channel ends the thread's loop; wait for it to finish
        // what was sent and close its outputs.
        self.jobs.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Writes the session's statistics to `path` as one JSON object, as
/// `gpusim run --stats json` prints them (lockstep: `cycle` and `lockstep`).
pub fn write_stats(s: &Session, path: &std::path::Path) -> std::io::Result<()> {
    use cosim::session::Statistics;
    let value = match s.statistics() {
        Statistics::Functional(g) => serde_json::to_value(&g),
        Statistics::Cycle { stats, .. } => serde_json::to_value(&stats),
        Statistics::Lockstep {
            stats, lockstep, ..
        } => Ok(serde_json::json!({ "cycle": stats, "lockstep": lockstep })),
    }
    .map_err(std::io::Error::other)?;
    let mut text = value.to_string();
    text.push('\n');
    std::fs::write(path, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cosim::model::Model;
    use cosim::workload::Workload;
    use std::path::Path;

    fn options(model: Model) -> SessionOptions {
        SessionOptions::new(model, hw::GpuConfig::default_config())
    }

    /// A corpus workload runs and passes its check on the device thread,
    /// with requests sent from this (another) thread.
    #[test]
    fn a_workload_runs_on_the_device_thread() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let path = root.join("workloads/corpus/gfx1030/saxpy.yaml");
        let device = DeviceThread::start(options(Model::Cycle)).expect("the default GPU builds");
        let passed = device
            .call(move |s| {
                let w = Workload::load(&path).map_err(|e| e.to_string())?;
                let p = w.prepare().map_err(|e| e.to_string())?;
                let run = s.run(&w, &p).map_err(|e| e.to_string())?;
                let report = s.check(&w, &p, &run).map_err(|e| e.to_string())?;
                Ok::<_, String>(report.passed())
            })
            .expect("the thread answers");
        assert_eq!(passed, Ok(true));
        // The session keeps its state between requests: the cycles are there.
        let cycles = device
            .call(|s| s.statistics().clocked().map(|(st, _)| st.cycles))
            .expect("the thread answers");
        assert!(cycles.is_some_and(|c| c > 0), "{cycles:?}");
    }

    /// Bytes written through the driver on the device thread read back.
    #[test]
    fn buffers_round_trip_through_device_memory() {
        let device = DeviceThread::start(options(Model::Functional)).expect("builds");
        let data: Vec<u8> = (0..=255).collect();
        let back = device
            .call(move |s| {
                let d = s.driver();
                let a = d.create_buffer(&data).map_err(|e| e.to_string())?;
                d.upload(a, 4, &[9, 9]).map_err(|e| e.to_string())?;
                let bytes = d.download(a).map_err(|e| e.to_string())?;
                d.free(a).map_err(|e| e.to_string())?;
                Ok::<_, String>(bytes)
            })
            .expect("the thread answers")
            .expect("the driver accepts");
        let mut want: Vec<u8> = (0..=255).collect();
        want[4..6].copy_from_slice(&[9, 9]);
        assert_eq!(back, want);
    }

    /// A session that cannot be built is an error sentence, not a thread
    /// left waiting.
    #[test]
    fn a_bad_model_is_an_error() {
        let mut o = options(Model::Cycle);
        o.isa = arch::isa::Isa::Gfx803;
        let e = DeviceThread::start(o)
            .err()
            .expect("gfx803 has no clocked model");
        assert!(e.contains("--model cycle runs gfx1030 code"), "{e}");
    }
}
