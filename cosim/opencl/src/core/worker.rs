//! The device thread: one thread owns a context's [`Session`] and runs, in
//! order, what the API's threads send it. OpenCL objects are used from any
//! thread, but a `Session` is not `Send` (the driver's caches hold raw
//! pointers) and a command queue is in-order anyway; so the session is built
//! on its thread and never leaves it, and each request is a closure that
//! runs there with the session, its answer sent back.

use std::sync::mpsc;
use std::thread::JoinHandle;

use cosim::session::{Session, SessionOptions};

/// What runs on the device thread.
type Job = Box<dyn FnOnce(&mut Session) + Send>;

/// A thread owning a session.
pub struct DeviceThread {
    jobs: Option<mpsc::Sender<Job>>,
    thread: Option<JoinHandle<()>>,
}

impl DeviceThread {
    /// Starts the thread and builds the session on it; the error is the
    /// session's, as a sentence.
    pub fn start(options: SessionOptions) -> Result<DeviceThread, String> {
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
        };
        match ready.recv() {
            Ok(Ok(())) => Ok(device),
            Ok(Err(e)) => Err(e),
            Err(_) => Err("the device thread stopped while building the model".into()),
        }
    }

    /// Runs `f` with the session on the device thread, after everything sent
    /// before it, and returns its answer (an error if the thread has gone,
    /// e.g. after a panic in the model).
    pub fn call<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Session) -> R + Send + 'static,
    ) -> Result<R, String> {
        let (reply, answer) = mpsc::channel();
        let job: Job = Box::new(move |s| {
            let _ = reply.send(f(s));
        });
        let gone = || "the device thread has stopped or the command panicked".to_string();
        self.jobs
            .as_ref()
            .ok_or_else(gone)?
            .send(job)
            .map_err(|_| gone())?;
        answer.recv().map_err(|_| gone())
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
