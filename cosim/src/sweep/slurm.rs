//! Slurm: a job-array script whose task `t` runs jobs `t·K .. t·K+K-1` of the
//! sweep (`gpusim sweep FILE --out DIR --point J --resume` each), submitted
//! with `sbatch`. At a time limit Slurm sends SIGTERM to the task's
//! processes; `gpusim` handles it as it handles Ctrl-C: the running job
//! writes a partial result (and flushes its timeline), and a resubmission
//! runs what is missing or partial.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::spec::Sweep;
use crate::session::Threads;

/// `--slurm` options.
#[derive(Clone, Debug, Default)]
pub struct SlurmOptions {
    /// `--partition`.
    pub partition: Option<String>,
    /// `--time` (Slurm's format: `MM`, `HH:MM:SS`, `D-HH`...).
    pub time: Option<String>,
    /// Jobs per array task (`--array-chunk`, at least 1).
    pub chunk: usize,
    /// Wait for the array to finish (`sbatch --wait`).
    pub wait: bool,
    /// Only write the script.
    pub no_submit: bool,
    /// Cores per array task (`#SBATCH --cpus-per-task`, at least 1).
    pub cpus_per_task: usize,
    /// `--threads` for every job (None: adaptive over the task's cores).
    pub threads: Option<Threads>,
}

/// Absolute form of `p` (the tasks may start in another directory).
fn absolute(p: &Path) -> Result<PathBuf, String> {
    std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()))
}

/// Quotes `s` for bash.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The array script.
pub fn script(sweep: &Sweep, out: &Path, exe: &Path, o: &SlurmOptions) -> Result<String, String> {
    let chunk = o.chunk.max(1);
    let jobs = sweep.jobs();
    let tasks = jobs.div_ceil(chunk);
    let file = absolute(&sweep.file)?;
    let out = absolute(out)?;
    let mut s = String::from("#!/bin/bash\n");
    let _ = writeln!(
        s,
        "# gpusim sweep {} ({jobs} jobs, {chunk} per array task)",
        sweep.name
    );
    let _ = writeln!(s, "#SBATCH --job-name=gpusim-{}", sweep.name);
    let _ = writeln!(s, "#SBATCH --array=0-{}", tasks.saturating_sub(1));
    let _ = writeln!(s, "#SBATCH --ntasks=1");
    let cpus = o.cpus_per_task.max(1);
    let _ = writeln!(s, "#SBATCH --cpus-per-task={cpus}");
    let _ = writeln!(s, "#SBATCH --output={}/logs/slurm-%A_%a.out", out.display());
    if let Some(p) = &o.partition {
        let _ = writeln!(s, "#SBATCH --partition={p}");
    }
    if let Some(t) = &o.time {
        let _ = writeln!(s, "#SBATCH --time={t}");
    }
    let _ = write!(
        s,
        r#"set -u
gpusim={exe}
sweep={file}
out={out}
first=$((SLURM_ARRAY_TASK_ID * {chunk}))
last=$((first + {chunk} - 1))
if [ "$last" -ge {jobs} ]; then last={last_job}; fi
status=0
for j in $(seq "$first" "$last"); do
  "$gpusim" sweep "$sweep" --out "$out" --point "$j" --resume --threads {threads} || status=$?
done
exit "$status"
"#,
        exe = quote(&exe.display().to_string()),
        file = quote(&file.display().to_string()),
        out = quote(&out.display().to_string()),
        last_job = jobs.saturating_sub(1),
        // Each job's share: the task's cores (it runs its jobs one by one).
        threads = o.threads.unwrap_or(Threads::Adaptive(cpus)),
    );
    Ok(s)
}

/// Writes `DIR/slurm/sweep.sbatch` and submits it; returns what to tell the user.
pub fn submit(sweep: &Sweep, out: &Path, o: &SlurmOptions) -> Result<String, String> {
    super::manifest::prepare(sweep, out)?;
    let exe = std::env::current_exe().map_err(|e| format!("cannot find gpusim itself: {e}"))?;
    let text = script(sweep, out, &exe, o)?;
    let path = out.join("slurm").join("sweep.sbatch");
    super::result::write_atomically(&path, text.as_bytes())?;
    let tasks = sweep.jobs().div_ceil(o.chunk.max(1));
    if o.no_submit {
        return Ok(format!(
            "wrote {} ({tasks} array tasks); submit it with: sbatch {}\n",
            path.display(),
            path.display()
        ));
    }
    let mut cmd = Command::new("sbatch");
    cmd.arg("--parsable");
    if o.wait {
        cmd.arg("--wait");
    }
    let output = cmd.arg(&path).output().map_err(|e| {
        format!(
            "cannot run sbatch: {e} (is Slurm installed? the script is {})",
            path.display()
        )
    })?;
    let stdout = String::from_utf8_lossy(&output.stdout).trim().to_string();
    // With --wait, sbatch exits non-zero when a task failed (a failed job
    // still wrote its result): report it rather than stop.
    if !output.status.success() && stdout.is_empty() {
        return Err(format!(
            "sbatch {} failed: {}",
            path.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let id = stdout.split(';').next().unwrap_or("").to_string();
    let mut msg = format!(
        "submitted Slurm job array {id} ({tasks} tasks, {} jobs): {}\n",
        sweep.jobs(),
        path.display()
    );
    if o.wait {
        let _ = writeln!(
            msg,
            "the array finished{}; gather it with: gpusim collect {}",
            if output.status.success() {
                ""
            } else {
                " (some tasks failed)"
            },
            out.display()
        );
    } else {
        let _ = writeln!(
            msg,
            "when it finishes: gpusim collect {} (squeue -j {id} shows it)",
            out.display()
        );
    }
    Ok(msg)
}
