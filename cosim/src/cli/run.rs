//! `gpusim run WORKLOAD.yaml`: load a workload, run it on a model through the
//! driver, check the results.

use std::path::Path;

use arch::code_object::CodeObject;
use arch::device::DeviceError;
use sw::driver::{Driver, DriverError};

use super::CliError;
use crate::workload::{self, Workload};
use golden::stats::GoldenStats;
use golden::{GoldenConfig, GoldenGpu};

/// What `gpusim run` prints stats as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StatsFormat {
    /// One JSON object on the last line of stdout.
    Json,
    /// Human-readable lines.
    Text,
}

/// The simulation model to run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Model {
    /// The golden functional GPU (instruction-level, fast).
    Functional,
    /// The clocked RTL-style GPU (not yet available).
    Cycle,
    /// Both in lockstep (not yet available).
    Lockstep,
}

impl std::fmt::Display for Model {
    /// The name `--model` takes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use clap::ValueEnum;
        match self.to_possible_value() {
            Some(v) => f.write_str(v.get_name()),
            None => write!(f, "{self:?}"),
        }
    }
}

/// Maps a driver error to the CLI's exit-code classes: GPU faults, watchdogs and
/// deadlocked queues are exit 3, everything else is bad input (exit 2).
fn driver_error(path: &Path, e: DriverError) -> CliError {
    let message = format!("{}: {e}", path.display());
    match e {
        DriverError::Device(DeviceError::Fault(_))
        | DriverError::Blocked { .. }
        | DriverError::Timeout { .. }
        | DriverError::RingStuck { .. } => CliError::GpuFault(message),
        _ => CliError::BadInput(message),
    }
}

/// Runs one workload; returns the text to print (results, then stats).
pub(crate) fn run(
    path: &Path,
    model: Model,
    stats: Option<StatsFormat>,
    watchdog: Option<u64>,
) -> Result<String, CliError> {
    if model != Model::Functional {
        return Err(CliError::BadInput(format!(
            "--model {model} is not available yet; use --model functional"
        )));
    }
    let bad = |e: workload::WorkloadError| CliError::BadInput(e.to_string());
    let workload = Workload::load(path).map_err(bad)?;
    let prepared = workload.prepare().map_err(bad)?;
    let isa = CodeObject::parse(&prepared.code_object)
        .map_err(|e| CliError::BadInput(format!("{}: {e}", prepared.code_object_path.display())))?
        .isa()
        .ok_or_else(|| {
            CliError::BadInput(format!(
                "{}: processor is not modelled (gfx803 and gfx1030 are)",
                prepared.code_object_path.display()
            ))
        })?;
    let mut config = GoldenConfig::new(isa);
    if let Some(budget) = watchdog {
        config.instruction_budget = budget;
    }
    let gpu = GoldenGpu::new(config).map_err(|e| CliError::BadInput(e.to_string()))?;
    let mut driver = Driver::new(gpu).map_err(|e| driver_error(path, e))?;
    let finals = workload::execute(&mut driver, &prepared).map_err(|e| driver_error(path, e))?;
    let report = workload::check(&workload, &prepared, &finals).map_err(bad)?;
    let gpu_stats = driver.device().stats();
    let mut out = String::new();
    for outcome in &report.outcomes {
        match &outcome.mismatch {
            None => out.push_str(&format!("PASS {}\n", outcome.description)),
            Some(m) => out.push_str(&format!("FAIL {}: {m}\n", outcome.description)),
        }
    }
    match stats {
        Some(StatsFormat::Json) => {
            out.push_str(
                &serde_json::to_string(&gpu_stats)
                    .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}")),
            );
            out.push('\n');
        }
        Some(StatsFormat::Text) => out.push_str(&stats_text(&gpu_stats)),
        None => {}
    }
    if report.passed() {
        Ok(out)
    } else {
        // The results were computed; print them, then fail with exit 1.
        print!("{out}");
        let first = report
            .first_mismatch()
            .map(|m| m.to_string())
            .unwrap_or_default();
        Err(CliError::CheckFailed(format!(
            "{}: {first}",
            path.display()
        )))
    }
}

fn stats_text(s: &GoldenStats) -> String {
    let mut out = format!(
        "dispatches {}\nworkgroups {}\nwaves {}\ninstructions {}\nactive-lane instructions {}\n",
        s.dispatches, s.workgroups, s.waves, s.instructions, s.active_lane_instructions
    );
    for (class, n) in &s.instructions_by_class {
        out.push_str(&format!("  {class:<8} {n}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use arch::command::SemaphoreCompare;
    use arch::device::BlockedChannel;

    /// A deadlocked queue is a GPU-side failure (exit 3) whose message keeps the
    /// front end's report; a driver misuse is bad input (exit 2).
    #[test]
    fn blocked_front_end_is_exit_3_with_the_report() {
        let blocked = DriverError::Blocked {
            fence: 1,
            address: 0x1000,
            channels: vec![BlockedChannel {
                channel: 0,
                entry: 2,
                address: 0x2000,
                payload: 7,
                compare: SemaphoreCompare::GreaterOrEqual,
                current: 0,
            }],
        };
        let e = driver_error(Path::new("w.yaml"), blocked);
        assert_eq!(e.exit_code(), 3);
        let text = e.to_string();
        assert!(
            text.contains("front end blocked on channel 0 at entry 2"),
            "{text}"
        );
        assert!(text.contains("[0x2000] >= 7"), "{text}");
        let misuse = driver_error(Path::new("w.yaml"), DriverError::BadAlignment(3));
        assert_eq!(misuse.exit_code(), 2);
    }
}
