//! The `gpusim` subcommands. Each returns a [`CliError`] whose
//! [`exit_code`](CliError::exit_code) follows the documented convention:
//! 0 success, 1 a check failed, 2 bad input, 3 a GPU fault, 4 a lockstep
//! mismatch, 130 interrupted.

use std::path::PathBuf;

use arch::isa::{Isa, Target};
use clap::{Parser, Subcommand, ValueEnum};

mod bench;
mod compare;
pub mod compile;
mod compile_asm;
pub mod disasm;
pub(crate) mod error;
mod fuzz;
mod fuzz_compiler;
pub(crate) mod run;
mod sweep;

pub use error::CliError;

/// gpusim — a bit-accurate, clocked model of an AMD GPU (RDNA2 gfx1030, GCN3 gfx803).
#[derive(Debug, Parser)]
#[command(name = "gpusim", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The ISA named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ArchArg {
    /// GCN3 (always wave64).
    Gfx803,
    /// RDNA2.
    Gfx1030,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Disassemble every kernel of a code object exactly as `llvm-objdump-19 -d` does,
    /// or raw instruction bytes given with --hex.
    Disasm {
        /// Code object (ELF) to disassemble.
        #[arg(required_unless_present = "hex")]
        file: Option<PathBuf>,
        /// Instruction bytes instead of a file: dwords (`BF810000 7E000280`) or
        /// llvm-mc style bytes (`0x00,0x00,0x81,0xbf`).
        #[arg(long, requires = "arch")]
        hex: Option<String>,
        /// ISA of the --hex bytes.
        #[arg(long, value_enum)]
        arch: Option<ArchArg>,
        /// Decode --hex bytes as wave64 code (gfx1030; gfx803 is always wave64).
        #[arg(long)]
        wave64: bool,
    },
    /// Assemble LLVM-syntax assembly: prints each instruction with its encoding
    /// (like `llvm-mc -show-encoding`), or writes the raw bytes with -o.
    Asm {
        /// Assembly source.
        file: PathBuf,
        /// ISA to assemble for.
        #[arg(long, value_enum)]
        arch: ArchArg,
        /// Assemble wave64 code (gfx1030).
        #[arg(long)]
        wave64: bool,
        /// Write raw bytes here instead of printing.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Compile OpenCL C to a gfx1030 code object with gpusim's own compiler.
    ///
    /// gpusim compile K.cl -o K.hsaco [OPTION…]   the code object (ELF)
    /// gpusim compile K.cl -S [-o K.s] [OPTION…]  assembly with labels (stdout
    ///                                           without -o); llvm-mc-19 -triple
    ///                                           amdgcn-amd-amdhsa -mcpu=gfx1030
    ///                                           assembles it to the same code
    /// gpusim compile K.cl --emit-ir [OPTION…]    the IR after lowering
    ///
    /// Options, in clang's spelling (workloads' `options:` take the same):
    ///   -DNAME[=VALUE]  -UNAME  -Idir  -include FILE   preprocessor
    ///   -O0 | -O -O1 -O2 -O3        IR optimisations off | on (default on)
    ///   -mwavefrontsize64, --wave64 64 lanes per wave (default wave32)
    ///   --target gfx1030            the only target
    ///   -ffp-contract=off|on|fast   contraction of a * b + c (default on)
    ///   -cl-fast-relaxed-math       contraction, a * rcp(b), bare v_sqrt_f32
    ///   -cl-fp32-correctly-rounded-divide-sqrt
    ///   -cl-single-precision-constant
    ///   -cl-std=CL1.2|CL2.0  -w  -Werror   accepted, no effect
    ///   --subvector=loop|duplicate|hw|off, --subvector-threshold=N,
    ///   --subvector-chunk=N         seed 000's sub-vector pass (docs/compiler.md)
    #[command(verbatim_doc_comment)]
    Compile {
        /// The OpenCL C source file and the options above, in any order.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Run a workload (kernel, buffers, arguments, checks) on a model.
    Run {
        /// The workload file (YAML, see docs/workloads.md).
        #[arg(required_unless_present = "preset")]
        workload: Option<PathBuf>,
        /// Worker threads for the clocked GPU's compute units: N, `auto`
        /// (the default: every core, each edge on them only while measuring
        /// shows they pay) or `auto:N`; results are identical for any choice.
        #[arg(long, value_name = "N|auto|auto:N")]
        threads: Option<String>,
        /// Busy CUs from which a clock edge goes to the worker threads
        /// (tests: 1 puts every edge with work on them).
        #[arg(long, hide = true)]
        parallel_min_busy: Option<usize>,
        /// The model to run on.
        #[arg(long, value_enum, default_value = "functional")]
        model: run::Model,
        /// Print run statistics.
        #[arg(long, value_enum)]
        stats: Option<run::StatsFormat>,
        /// Watchdog: wave instructions (functional) or cycles (cycle, lockstep)
        /// a run may take before the GPU stops with a fault (exit 3).
        #[arg(long)]
        watchdog: Option<u64>,
        /// Per-wave watchdog: instructions one wave may execute (functional;
        /// default 2^24) or cycles one wave may stay resident (cycle,
        /// lockstep; default 2^22, `wave_watchdog_cycles` in the
        /// configuration) before the GPU stops with a fault (exit 3).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        wave_watchdog: Option<u64>,
        /// The clocked GPU's configuration (YAML, see docs/config.md); default:
        /// the embedded RDNA2-like 4-CU configuration.
        #[arg(long)]
        config: Option<PathBuf>,
        /// A named clocked-GPU configuration (`default`, `1cu`, `navi21`);
        /// `--preset` alone or `--preset list` lists them.
        #[arg(long, conflicts_with = "config", num_args = 0..=1, default_missing_value = "list")]
        preset: Option<String>,
        /// Write the clocked GPU's signals to this VCD file as the run goes.
        #[arg(long)]
        vcd: Option<PathBuf>,
        /// Signals written to the VCD: globs over hierarchical names, comma
        /// separated (`gpu.cu0.*`, `*.valid`). Default: every signal.
        #[arg(long)]
        trace: Option<String>,
        /// First cycle written to the VCD.
        #[arg(long)]
        from: Option<u64>,
        /// Last cycle written to the VCD.
        #[arg(long)]
        to: Option<u64>,
        /// The GPU to run on. Default gfx1030: gfx803 (legacy) code objects are
        /// translated when first dispatched (seed 003). `--device gfx803` runs
        /// gfx803 code natively on the golden gfx803 GPU (functional model only).
        #[arg(long, value_enum)]
        device: Option<ArchArg>,
        /// Where `--model lockstep` writes the waveform of the cycles before a
        /// mismatch (replayed after the mismatch; `--trace` selects its signals).
        #[arg(long, default_value = "lockstep-mismatch.vcd")]
        mismatch_vcd: PathBuf,
        /// How many cycles before a lockstep mismatch that waveform covers.
        #[arg(long, default_value_t = 2000)]
        mismatch_cycles: u64,
        /// Test-only (lockstep): flip bit 0 of one lane of the first VGPR the
        /// wave next writes, `WG_X,WAVE,LANE` in dispatch 0, to show a mismatch.
        #[arg(long, hide = true)]
        inject_valu_lane: Option<String>,
        /// Bytes of the buffer each dispatch of a kernel that calls `printf`
        /// gets (header included; default 1 MiB). Records that do not fit are
        /// dropped and reported on standard error.
        #[arg(long, value_name = "BYTES")]
        printf_buffer: Option<u32>,
        /// Write a timeline of the clocked GPU (waves, issue and stalls per
        /// SIMD, workgroups, dispatches, front end, counters) for Perfetto /
        /// chrome://tracing; a FILE ending in .svg gets a picture instead.
        #[arg(long, value_name = "FILE")]
        timeline: Option<PathBuf>,
        /// With --stats text: also every counter, one per line.
        #[arg(long, requires = "stats")]
        detail: bool,
        /// Write every buffer's final contents into this directory (created if missing).
        #[arg(long)]
        dump: Option<PathBuf>,
        /// The --dump files: raw little-endian `NAME.bin` or NumPy `NAME.npy`.
        #[arg(long, value_enum, default_value = "raw", requires = "dump")]
        dump_format: run::DumpFormatArg,
        /// Also look for relative `code_object:` paths here (repeatable; before
        /// the directories of the GPUSIM_PATH environment variable).
        #[arg(long)]
        path: Vec<PathBuf>,
        /// The functional model's JIT (`golden::jit`): hot blocks compiled
        /// to host code; results and statistics are the interpreter's.
        /// Lockstep always interprets.
        #[arg(long, value_parser = ["on", "off"], default_value = "off")]
        jit: String,
    },
    /// Translate a gfx803 code object into a gfx1030 code object v5 (every kernel).
    Translate {
        /// The legacy (gfx803) code object.
        file: PathBuf,
        /// Where to write the gfx1030 code object.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Measure a model's throughput on the corpus workloads (one host thread,
    /// except the clocked GPU's CU workers with `--threads`).
    Bench {
        /// The model to measure.
        #[arg(long, value_enum, default_value = "functional")]
        model: run::Model,
        /// Targets to include (default: all three for functional; gfx1030 and
        /// gfx1030-w64 for cycle and lockstep).
        #[arg(long, value_parser = ["gfx803", "gfx1030", "gfx1030-w64"])]
        target: Vec<String>,
        /// Minimum measured time per workload (and per measurement), in milliseconds.
        #[arg(long, default_value_t = 200)]
        min_ms: u64,
        /// Minimum runs per workload and measurement (cycle, lockstep; the
        /// median is reported). Functional always does at least 3.
        #[arg(long, default_value_t = 3)]
        min_runs: u32,
        /// Repository root holding `workloads/corpus/` (default: the current
        /// directory or one above it holding `workloads/corpus/`, else the
        /// repository gpusim was built from).
        #[arg(long)]
        root: Option<PathBuf>,
        /// The clocked GPU's configuration (YAML, see docs/config.md).
        #[arg(long, conflicts_with = "preset")]
        config: Option<PathBuf>,
        /// A named clocked-GPU configuration (default: `default`); `--preset`
        /// alone or `--preset list` lists them.
        #[arg(long, num_args = 0..=1, default_missing_value = "list")]
        preset: Option<String>,
        /// Also measure each workload while writing every signal to a VCD
        /// file (in a temporary directory) and report the time ratio.
        #[arg(long)]
        vcd_overhead: bool,
        /// Also measure the `ubench_*` microbenchmarks (reported separately).
        #[arg(long)]
        ubench: bool,
        /// Only these workloads: file stem (`saxpy`) or `target/stem`; repeatable.
        #[arg(long)]
        workload: Vec<String>,
        /// Leave out this workload (same names as --workload); repeatable.
        #[arg(long)]
        skip: Vec<String>,
        /// Measure this workload file (gfx1030 code; cycle and lockstep),
        /// e.g. `workloads/examples/matmul_256.yaml`, which fills 64 CUs;
        /// repeatable. Without --workload, only the files are measured.
        #[arg(long)]
        file: Vec<PathBuf>,
        /// Print one JSON object instead of the table (cycle, lockstep).
        #[arg(long)]
        json: bool,
        /// Worker threads for the clocked GPU's compute units: N, `auto`
        /// (the default: every core, used while they pay) or `auto:N`; rates
        /// then come from the wall clock.
        #[arg(long, value_name = "N|auto|auto:N")]
        threads: Option<String>,
        /// Tick every clock edge: event skipping off (same results, for
        /// measuring what skipping gains).
        #[arg(long)]
        no_event_skipping: bool,
        /// The functional model's JIT (`golden::jit`): hot blocks compiled
        /// to host code; results and statistics are the interpreter's.
        /// Lockstep always interprets.
        #[arg(long, value_parser = ["on", "off"], default_value = "off")]
        jit: String,
    },
    /// Random gfx1030 programs on the golden and the clocked GPU in lockstep;
    /// new disagreements are shrunk to a minimal program (exit 4).
    FuzzLockstep {
        /// Seed of the first program (program i uses seed + i).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Programs to run.
        #[arg(long, default_value_t = 100)]
        programs: u64,
        /// Body instructions per program (loops repeat some).
        #[arg(long, default_value_t = 120)]
        length: usize,
        /// Also draw the opcodes the models are known to disagree on.
        #[arg(long)]
        include_known: bool,
        /// Draw memory items only from these families (comma-separated:
        /// smem, ds, global, flat, scratch, mubuf, mtbuf; default all).
        #[arg(long)]
        mem: Option<String>,
        /// Percent of body items that are memory items (default 8).
        #[arg(long, default_value_t = 8)]
        mem_percent: u64,
    },
    /// Random OpenCL C programs compiled by gpusim and by clang-19, run on
    /// the golden GPU and compared; differences are reduced to a minimal
    /// source and saved (exit 4). Needs clang-19 and ld.lld-19.
    FuzzCompiler {
        /// Seed of the first program (program i uses seed + i).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Programs to run.
        #[arg(long, default_value_t = 100)]
        count: u64,
        /// Worker threads.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Directory for failing programs (original and reduced).
        #[arg(long, default_value = "fuzz-compiler-failures")]
        out_dir: PathBuf,
        /// Seconds the reducer may spend on one failure (0: save unreduced).
        #[arg(long, default_value_t = 300)]
        reduce_secs: u64,
        /// Re-check one saved source with the inputs of --seed instead.
        #[arg(long)]
        replay: Option<PathBuf>,
    },
    /// Show a code object's kernels: descriptor fields, segment sizes, arguments.
    Info {
        /// Code object (ELF).
        file: PathBuf,
    },
    /// Run a design-space sweep: workloads × configuration points, one result
    /// file per job, locally on -j workers or as a Slurm job array (docs/sweeps.md).
    Sweep {
        /// The sweep file (YAML).
        file: PathBuf,
        /// Output directory (default: STEM-results in the current directory).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Jobs run at once (default: every core).
        #[arg(short = 'j', long = "jobs")]
        jobs: Option<usize>,
        /// Worker threads of each job's clocked GPU: N, `auto:N` or `auto`
        /// (the default: adaptive over the job's share of the cores, cores /
        /// -j and at least 1; with --slurm, the task's --cpus-per-task; with
        /// --point, $SLURM_CPUS_PER_TASK when set, else every core).
        #[arg(long, value_name = "N|auto|auto:N")]
        threads: Option<String>,
        /// Run only job J (point J / workloads, workload J % workloads) in this process.
        #[arg(long, value_name = "J")]
        point: Option<usize>,
        /// With --point: skip the job if its finished result is there.
        #[arg(long, requires = "point")]
        resume: bool,
        /// Submit a Slurm job array instead of running here.
        #[arg(long, conflicts_with = "point")]
        slurm: bool,
        /// Slurm partition.
        #[arg(long, requires = "slurm")]
        partition: Option<String>,
        /// Slurm time limit per array task (`MM`, `HH:MM:SS`, ...).
        #[arg(long, requires = "slurm")]
        time: Option<String>,
        /// Jobs per Slurm array task.
        #[arg(long, requires = "slurm", default_value_t = 1)]
        array_chunk: usize,
        /// Wait until the Slurm array has finished (sbatch --wait).
        #[arg(long, requires = "slurm")]
        wait: bool,
        /// Write the Slurm script without submitting it.
        #[arg(long, requires = "slurm")]
        no_submit: bool,
        /// Cores Slurm gives each array task (`#SBATCH --cpus-per-task`); its
        /// jobs use them as `--threads auto:N` unless --threads says otherwise.
        #[arg(long, requires = "slurm", default_value_t = 1)]
        cpus_per_task: usize,
    },
    /// Gather a sweep's results: DIR/results.csv and SVG plots in DIR/plots.
    Collect {
        /// The sweep's output directory.
        dir: PathBuf,
    },
    /// Print the differences between two runs' stats, largest relative change first.
    Compare {
        /// A sweep result, or saved output of `gpusim run --stats json`.
        a: PathBuf,
        /// The other run.
        b: PathBuf,
        /// Show only the N largest changes (0: all).
        #[arg(long, default_value_t = 0)]
        top: usize,
    },
}

/// Reads a whole file, naming it in the error.
pub(crate) fn read_file(path: &PathBuf) -> Result<Vec<u8>, CliError> {
    std::fs::read(path).map_err(|source| CliError::Io {
        path: path.clone(),
        source,
    })
}

/// The target for an `--arch`/`--wave64` pair.
pub(crate) fn target_of(arch: ArchArg, wave64: bool) -> Target {
    match arch {
        ArchArg::Gfx803 => Target {
            isa: Isa::Gfx803,
            wave64: true,
        },
        ArchArg::Gfx1030 => Target {
            isa: Isa::Gfx1030,
            wave64,
        },
    }
}

/// Runs one command, writing its normal output to stdout.
pub fn run(cli: Cli) -> Result<(), CliError> {
    let text = match cli.command {
        Command::Disasm {
            file: _,
            hex: Some(hex),
            arch,
            wave64,
        } => {
            let arch = arch.ok_or_else(|| CliError::BadInput("--hex needs --arch".into()))?;
            disasm::hex(target_of(arch, wave64), &hex)?
        }
        Command::Disasm {
            file: Some(file), ..
        } => disasm::file(&file)?,
        Command::Disasm { .. } => return Err(CliError::BadInput("nothing to disassemble".into())),
        Command::Asm {
            file,
            arch,
            wave64,
            output,
        } => {
            let source = String::from_utf8(read_file(&file)?)
                .map_err(|_| CliError::BadInput(format!("{}: not UTF-8 text", file.display())))?;
            disasm::assemble(target_of(arch, wave64), &file, &source, output.as_ref())?
        }
        Command::Info { file } => disasm::info(&file)?,
        Command::FuzzCompiler {
            seed,
            count,
            jobs,
            out_dir,
            reduce_secs,
            replay,
        } => fuzz_compiler::fuzz_compiler(seed, count, jobs, out_dir, reduce_secs, replay)?,
        Command::FuzzLockstep {
            seed,
            programs,
            length,
            include_known,
            mem,
            mem_percent,
        } => fuzz::fuzz_lockstep(
            seed,
            programs,
            length,
            include_known,
            mem.as_deref(),
            mem_percent,
        )?,
        Command::Compile { args } => compile::run(&args)?,
        Command::Run {
            preset: Some(p), ..
        } if p == "list" => run::preset_list(),
        Command::Run { workload: None, .. } => {
            return Err(CliError::BadInput("give a workload file to run".into()))
        }
        Command::Run {
            workload: Some(workload),
            threads,
            parallel_min_busy,
            model,
            stats,
            watchdog,
            wave_watchdog,
            config,
            preset,
            vcd,
            trace,
            from,
            to,
            device,
            mismatch_vcd,
            mismatch_cycles,
            inject_valu_lane,
            printf_buffer,
            timeline,
            detail,
            dump,
            dump_format,
            path,
            jit,
        } => run::run(
            &workload,
            &run::RunOptions {
                model,
                stats,
                watchdog,
                wave_watchdog,
                config,
                preset,
                vcd,
                trace,
                from,
                to,
                device: device.map(|d| target_of(d, false).isa),
                mismatch_vcd,
                mismatch_cycles,
                inject_valu_lane,
                printf_buffer,
                timeline,
                detail,
                dump,
                dump_format,
                search: path,
                threads: run::threads(threads.as_deref())?,
                parallel_min_busy,
                jit: jit == "on",
            },
        )?,
        Command::Translate { file, output } => {
            let elf = read_file(&file)?;
            let out = sw::xlate::translate_object(&elf)
                .map_err(|e| CliError::BadInput(format!("{}: {e}", file.display())))?;
            std::fs::write(&output, &out).map_err(|source| CliError::Io {
                path: output.clone(),
                source,
            })?;
            format!(
                "{} -> {} ({} bytes, gfx1030 code object v5)\n",
                file.display(),
                output.display(),
                out.len()
            )
        }
        Command::Bench {
            model,
            target,
            min_ms,
            min_runs,
            root,
            config,
            preset,
            vcd_overhead,
            ubench,
            workload,
            skip,
            file,
            json,
            threads,
            no_event_skipping,
            jit,
        } => bench::bench(&bench::BenchOptions {
            model,
            targets: target,
            min_time: std::time::Duration::from_millis(min_ms),
            min_runs,
            root,
            config,
            preset,
            vcd_overhead,
            ubench,
            workloads: workload,
            skip,
            files: file,
            json,
            threads: run::threads(threads.as_deref())?,
            event_skipping: !no_event_skipping,
            jit: jit == "on",
        })?,
        Command::Sweep {
            file,
            out,
            jobs,
            threads,
            point,
            resume,
            slurm,
            partition,
            time,
            array_chunk,
            wait,
            no_submit,
            cpus_per_task,
        } => sweep::sweep(&sweep::SweepOptions {
            file,
            out,
            jobs,
            // `auto` is the default: adaptive over the job's share.
            threads: threads
                .as_deref()
                .filter(|t| t.trim() != "auto")
                .map(str::parse)
                .transpose()
                .map_err(CliError::BadInput)?,
            point,
            resume,
            slurm: slurm.then_some(crate::sweep::slurm::SlurmOptions {
                partition,
                time,
                chunk: array_chunk,
                wait,
                no_submit,
                cpus_per_task,
                threads: None,
            }),
        })?,
        Command::Collect { dir } => sweep::collect(&dir)?,
        Command::Compare { a, b, top } => compare::compare(&a, &b, top)?,
    };
    print!("{text}");
    Ok(())
}
