//! Calibration of the clocked GPU (docs/calibration.md): every microbenchmark
//! in `workloads/ubench/<target>/` runs twice on the cycle model, with its
//! measuring knob at `K` and at `K / 2`; the cycle difference, divided by
//! the difference in timed instructions, must be what the configuration
//! says. The expected values are computed here from `GpuConfig` fields and
//! the latency paths documented in `hw/src/mem/mod.rs`, never copied from a
//! run, so changing a configured latency changes the expectation (checked by
//! running the latency benchmarks on a second configuration as well).
//!
//! Run with `cargo test --release -p cosim --test calibration -- --nocapture`
//! to see the measured values (the table in docs/calibration.md).

use std::path::{Path, PathBuf};

use cosim::workload::{self, Workload};
use hw::stats::GpuStats;
use hw::{ClockedGpu, GpuConfig};

const W32: &str = "gfx1030";
const W64: &str = "gfx1030-w64";

fn file(target: &str, stem: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../workloads/ubench")
        .join(target)
        .join(format!("{stem}.yaml"))
}

/// Runs `w` on a clocked GPU with `config`; its statistics if the checks pass.
fn run(w: &Workload, config: &GpuConfig) -> Result<GpuStats, String> {
    let gpu = ClockedGpu::new(config.clone()).map_err(|e| e.to_string())?;
    workload::run_checked(gpu, w).map(|gpu| gpu.stats())
}

/// The value of the `u32` argument called `name`.
fn knob(w: &Workload, name: &str) -> u64 {
    w.u32_arg(name)
        .unwrap_or_else(|| panic!("{}: no u32 argument `{name}`", w.path.display()))
}

/// `w` with the `u32` argument `name` set to `value`.
fn with_knob(w: &Workload, name: &str, value: u64) -> Workload {
    w.with_u32_arg(name, value)
}

/// Kernel cycles of a run (front end excluded: the sum over dispatches).
fn cycles(s: &GpuStats) -> u64 {
    s.dispatches.iter().map(|d| d.cycles).sum()
}

/// Two runs of one benchmark: the knob at `K` and at `K / 2`.
struct Pair {
    name: String,
    /// `K − K / 2`.
    dk: u64,
    full: GpuStats,
    base: GpuStats,
    /// Waves of the launch.
    waves: u64,
    /// Work-items of the launch.
    items: u64,
}

impl Pair {
    fn measure(target: &str, stem: &str, knob_name: &str, config: &GpuConfig) -> Pair {
        Pair::measure_with(target, stem, knob_name, config, |_| {})
    }

    /// [`measure`](Self::measure) of the workload as changed by `edit`.
    fn measure_with(
        target: &str,
        stem: &str,
        knob_name: &str,
        config: &GpuConfig,
        edit: impl Fn(&mut Workload),
    ) -> Pair {
        let path = file(target, stem);
        let mut w = Workload::load(&path).unwrap_or_else(|e| panic!("{e}"));
        edit(&mut w);
        let k = knob(&w, knob_name);
        let half = with_knob(&w, knob_name, k / 2);
        let full = run(&w, config).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let base = run(&half, config).unwrap_or_else(|e| panic!("{} (half): {e}", path.display()));
        let items: u64 = w.grid.iter().map(|&g| g as u64).product();
        let wave = if target == W64 { 64 } else { 32 };
        Pair {
            name: format!("{target}/{stem}"),
            dk: k - k / 2,
            full,
            base,
            waves: items.div_ceil(wave),
            items,
        }
    }

    /// Cycle difference between the two runs.
    fn dc(&self) -> u64 {
        cycles(&self.full) - cycles(&self.base)
    }

    /// Difference of a counter between the two runs.
    fn delta(&self, f: impl Fn(&GpuStats) -> u64) -> u64 {
        f(&self.full) - f(&self.base)
    }

    fn per_step(&self) -> f64 {
        self.dc() as f64 / self.dk as f64
    }
}

/// A configuration whose latencies all differ from the default, so that an
/// expectation that only holds for the default numbers fails on it.
fn shifted() -> GpuConfig {
    let mut c = GpuConfig::default_config();
    c.cu.valu_latency = 9;
    c.cu.salu_latency = 3;
    c.cu.branch_latency = 6;
    c.cu.lds_latency = 40;
    c.memory.inst_cache.hit_latency = 24;
    c.memory.scalar_cache.hit_latency = 40;
    c.memory.vector_cache.hit_latency = 48;
    c.memory.xbar.latency = 12;
    c.memory.l2.hit_latency = 80;
    c
}

// ---------------------------------------------------------------------------
// Expected values from the configuration.
//
// The loop overheads come from the instruction order LLVM emits
// (tests/kernels/expected/gfx1030/ubench_*.dis) and three rules of the model's
// issue stage (hw/src/cu/issue.rs): one instruction per wave per cycle; a
// taken branch stops the wave for `branch_latency`, then the refetch from the
// instruction cache takes its `hit_latency` before the target issues; and a
// wave with an SCC/VCC/EXEC/M0 write in flight issues nothing (even
// instructions that do not read it) until that write is done.
// ---------------------------------------------------------------------------

/// Dependent VALU latency of one wave: the second pass of wave64 adds one
/// cycle (`hw/src/cu/simd.rs`: writeback = passes − 1 + valu_latency).
fn valu_latency(c: &GpuConfig, wave64: bool) -> u64 {
    u64::from(c.cu.valu_latency) + u64::from(wave64)
}

/// Branch back to the loop head, refetch, and the first instruction there:
/// cycles from the issue of the body's last timed instruction to the next
/// body's first timed instruction when nothing else is waited for
/// (`s_cbranch` one cycle after, `branch_latency`, instruction-cache hit,
/// one more issue slot for the loop head's `s_waitcnt`).
fn loop_turnaround(c: &GpuConfig) -> u64 {
    1 + u64::from(c.cu.branch_latency) + u64::from(c.memory.inst_cache.hit_latency) + 1
}

/// Cycles of one 32-step body of the VALU chains (`v_xad_u32` / `v_fma_f32`,
/// latency `l`): the loop's `s_sub`/`s_cmp` sit after the first step and
/// each writes SCC, so the second step waits for `1 + 2 · salu_latency` if
/// that is longer than `l`; the back edge costs `loop_turnaround`.
fn valu_body(c: &GpuConfig, l: u64) -> u64 {
    let s = u64::from(c.cu.salu_latency);
    30 * l + l.max(1 + 2 * s) + loop_turnaround(c)
}

/// Cycles of one 32-step body of the SALU chain (64 dependent `s_mul_i32` /
/// `s_add_i32`): the first `s_add` also waits for the `s_sub` before it
/// (+1: it writes SCC), `s_cmp` waits for the last `s_add`'s SCC and
/// `s_cbranch` for the `s_cmp`'s, then the branch and refetch.
fn salu_body(c: &GpuConfig) -> u64 {
    let s = u64::from(c.cu.salu_latency);
    64 * s + 1 + s + u64::from(c.cu.branch_latency) + u64::from(c.memory.inst_cache.hit_latency)
}

/// Cycles of one 8-step body of a chase (`s_waitcnt` + dependent load, load-
/// to-use latency `x`): the `s_add`/`s_cmp` after the first load delay the
/// second by SCC hazards if `x` is short; the branch after the eighth load
/// overlaps that load's latency.
fn chase_body(c: &GpuConfig, x: u64) -> u64 {
    let s = u64::from(c.cu.salu_latency);
    6 * x + x.max(2 + 2 * s) + x.max(loop_turnaround(c))
}

/// LDS load-to-use: the bank passes (`hw/src/cu/lds.rs`: 32 lanes at a time,
/// one cycle per access to the busiest bank) then `lds_latency`.
fn lds_latency(c: &GpuConfig, wave64: bool, rows_per_bank: u64) -> u64 {
    let passes = 1 + u64::from(wave64);
    passes * rows_per_bank + u64::from(c.cu.lds_latency)
}

/// Line transfer flits of a read response.
fn line_flits(c: &GpuConfig) -> u64 {
    u64::from(c.memory.flits_for(c.memory.line_bytes))
}

/// L0 miss, L2 hit (`hw/src/mem/mod.rs`): H + 1 + X + L + 1 + X + F.
fn l2_hit_path(c: &GpuConfig) -> u64 {
    let m = &c.memory;
    u64::from(m.vector_cache.hit_latency)
        + 1
        + u64::from(m.xbar.latency)
        + u64::from(m.l2.hit_latency)
        + 1
        + u64::from(m.xbar.latency)
        + line_flits(c)
}

/// L0 and L2 miss with a DRAM row miss (`hw/src/mem/mod.rs`):
/// H + 1 + X + L + D + R + T + 2 + X + F.
fn dram_path(c: &GpuConfig) -> u64 {
    let m = &c.memory;
    u64::from(m.vector_cache.hit_latency)
        + 1
        + u64::from(m.xbar.latency)
        + u64::from(m.l2.hit_latency)
        + u64::from(m.dram.latency)
        + u64::from(m.dram.row_miss_cycles)
        + u64::from(m.line_bytes / m.dram.bytes_per_cycle)
        + 2
        + u64::from(m.xbar.latency)
        + line_flits(c)
}

/// A write or atomic without return: the one-flit acknowledgement comes back
/// after the L2 lookup (plus the atomic ALU for atomics).
fn ack_path(c: &GpuConfig, atomic: bool) -> u64 {
    let m = &c.memory;
    u64::from(m.vector_cache.hit_latency)
        + 1
        + u64::from(m.xbar.latency)
        + u64::from(m.l2.hit_latency)
        + if atomic {
            u64::from(m.l2.atomic_latency)
        } else {
            0
        }
        + 1
        + u64::from(m.xbar.latency)
        + 1
}

/// Lines the L0 caches of the GPU keep in flight at most.
fn l0_mshrs(c: &GpuConfig) -> f64 {
    f64::from(c.cus) * f64::from(c.memory.vector_cache.mshrs)
}

fn report(p: &Pair, quantity: &str, measured: f64, configured: f64) {
    println!(
        "{:<34} {quantity:<34} measured {measured:>9.3}  configured {configured:>9.3}",
        p.name
    );
}

// ---------------------------------------------------------------------------
// Latencies
// ---------------------------------------------------------------------------

fn check_valu(target: &str, stem: &str, knob: &str, c: &GpuConfig) {
    let p = Pair::measure(target, stem, knob, c);
    assert_eq!(p.dk % 32, 0, "{}: knob step not a whole body", p.name);
    let l = valu_latency(c, target == W64);
    let want = p.dk / 32 * valu_body(c, l);
    // The chain's own latency: remove the documented loop overhead.
    let overhead = valu_body(c, l) - 32 * l;
    let measured = (p.dc() - p.dk / 32 * overhead) as f64 / p.dk as f64;
    report(&p, "dependent VALU latency", measured, l as f64);
    assert_eq!(
        p.dc(),
        want,
        "{}: {} cycles for {} steps, expected {} bodies × {} (latency {l}, loop overhead {overhead})",
        p.name,
        p.dc(),
        p.dk,
        p.dk / 32,
        valu_body(c, l)
    );
}

#[test]
fn valu_chains_measure_the_configured_valu_latency() {
    let c = GpuConfig::default_config();
    for target in [W32, W64] {
        check_valu(target, "valu_int", "vsteps", &c);
        check_valu(target, "valu_f32", "fsteps", &c);
    }
    check_valu(W32, "valu_int", "vsteps", &shifted());
    check_valu(W64, "valu_f32", "fsteps", &shifted());
}

fn check_salu(target: &str, c: &GpuConfig) {
    let p = Pair::measure(target, "salu_int", "ssteps", c);
    assert_eq!(p.dk % 32, 0);
    let s = u64::from(c.cu.salu_latency);
    let overhead = salu_body(c) - 64 * s;
    let measured = (p.dc() - p.dk / 32 * overhead) as f64 / (2 * p.dk) as f64;
    report(&p, "dependent SALU latency", measured, s as f64);
    assert_eq!(
        p.dc(),
        p.dk / 32 * salu_body(c),
        "{}: SALU chain (salu_latency {s}, loop overhead {overhead} per 64 ops)",
        p.name
    );
}

#[test]
fn salu_chain_measures_the_configured_salu_latency() {
    let c = GpuConfig::default_config();
    check_salu(W32, &c);
    check_salu(W64, &c);
    check_salu(W32, &shifted());
}

/// A chase of 8-step bodies with load-to-use latency `x`.
fn check_chase(p: &Pair, c: &GpuConfig, quantity: &str, x: u64) {
    assert_eq!(p.dk % 8, 0, "{}: knob step not a whole body", p.name);
    let body = chase_body(c, x);
    let measured = (p.dc() - p.dk / 8 * (body - 8 * x)) as f64 / p.dk as f64;
    report(p, quantity, measured, x as f64);
    assert_eq!(
        p.dc(),
        p.dk / 8 * body,
        "{}: {quantity}: {} cycles for {} steps ({:.3} per step), expected {x} per step \
         ({body} per 8-step body)",
        p.name,
        p.dc(),
        p.dk,
        p.per_step()
    );
}

#[test]
fn smem_chain_measures_the_scalar_cache_hit_latency() {
    for c in [GpuConfig::default_config(), shifted()] {
        for target in [W32, W64] {
            let p = Pair::measure(target, "smem_chain", "steps", &c);
            let x = u64::from(c.memory.scalar_cache.hit_latency);
            check_chase(&p, &c, "scalar cache hit, load-to-use", x);
        }
    }
}

#[test]
fn lds_chases_measure_the_lds_latency_and_one_cycle_per_conflict() {
    for c in [GpuConfig::default_config(), shifted()] {
        for target in [W32, W64] {
            let wave64 = target == W64;
            let free = Pair::measure(target, "lds_chase", "steps", &c);
            check_chase(&free, &c, "LDS load-to-use", lds_latency(&c, wave64, 1));
            // Stride 32: every lane of a 32-lane pass in another row of one bank.
            let conflict = Pair::measure(target, "lds_chase_conflict", "steps", &c);
            let rows = u64::from(c.cu.lds_banks);
            check_chase(
                &conflict,
                &c,
                "LDS load-to-use, 32-way conflict",
                lds_latency(&c, wave64, rows),
            );
            let passes = 1 + u64::from(wave64);
            let extra = (conflict.dc() - free.dc()) / conflict.dk;
            assert_eq!(
                extra,
                passes * (rows - 1),
                "{target}: conflict penalty per dependent load"
            );
        }
    }
}

#[test]
fn l0_chase_measures_the_vector_cache_hit_latency() {
    for c in [GpuConfig::default_config(), shifted()] {
        for target in [W32, W64] {
            let p = Pair::measure(target, "mem_chase_l0", "steps", &c);
            let x = u64::from(c.memory.vector_cache.hit_latency);
            check_chase(&p, &c, "L0 hit, load-to-use", x);
            assert_eq!(
                p.delta(|s| s.memory.vector.misses),
                0,
                "{}: L0 misses",
                p.name
            );
        }
    }
}

/// `mem_chase_l1` (64 KiB) and `mem_chase_l2` (256 KiB) both miss the 16 KiB
/// L0 and hit the L2: the model has no graphics L1 (`hw/src/mem/config.rs`).
#[test]
fn l1_and_l2_chases_measure_the_l2_hit_path() {
    let c = GpuConfig::default_config();
    for target in [W32, W64] {
        for stem in ["mem_chase_l1", "mem_chase_l2"] {
            let p = Pair::measure(target, stem, "steps", &c);
            check_chase(&p, &c, "L0 miss, L2 hit, load-to-use", l2_hit_path(&c));
            assert_eq!(p.delta(|s| s.memory.l2.misses), 0, "{}: L2 misses", p.name);
        }
    }
    let c = shifted();
    let p = Pair::measure(W32, "mem_chase_l2", "steps", &c);
    check_chase(&p, &c, "L0 miss, L2 hit, load-to-use", l2_hit_path(&c));
}

/// Every step of the DRAM chase misses the L2 (but for a few lines still
/// there from the linking pass); each such step takes the DRAM path of
/// `hw/src/mem/mod.rs`, less `row_miss_cycles` when the line's DRAM row
/// happens to be open. The number of those row hits is not known in advance
/// but must be a whole number no larger than the DRAM's row-hit counter.
#[test]
fn dram_chase_measures_the_dram_path() {
    let c = GpuConfig::default_config();
    for target in [W32, W64] {
        let p = Pair::measure(target, "mem_chase_dram", "steps", &c);
        let l2_hits = p.delta(|s| s.memory.l2.hits);
        assert!(l2_hits * 100 <= p.dk, "{}: {l2_hits} L2 hits", p.name);
        let all_misses = (p.dk - l2_hits) * dram_path(&c) + l2_hits * l2_hit_path(&c);
        let r = u64::from(c.memory.dram.row_miss_cycles);
        let saved = all_misses.checked_sub(p.dc()).unwrap_or_else(|| {
            panic!(
                "{}: {} cycles, more than {all_misses} (every step a row miss)",
                p.name,
                p.dc()
            )
        });
        let row_hits = p.delta(|s| s.memory.dram_row_hits);
        report(
            &p,
            "DRAM load-to-use (mean)",
            p.per_step(),
            dram_path(&c) as f64,
        );
        println!(
            "{:<34} row hits among the chase's reads: {}, DRAM row hits: {row_hits}",
            "",
            saved / r
        );
        assert_eq!(
            saved % r,
            0,
            "{}: {saved} cycles less than all row misses is not a multiple of {r}",
            p.name
        );
        assert!(
            saved / r <= row_hits,
            "{}: {} row hits needed, {row_hits} happened",
            p.name,
            saved / r
        );
    }
}

// ---------------------------------------------------------------------------
// Bandwidths and throughputs
// ---------------------------------------------------------------------------

/// Bytes per cycle of the triad (48 bytes per float4 element and repetition).
fn stream_bandwidth(p: &Pair, n4: u64) -> f64 {
    (48 * n4 * p.dk) as f64 / p.dc() as f64
}

/// Lines through the L0 MSHRs (read misses that allocated one, writes and
/// atomics) per cycle.
fn l0_mshr_lines_per_cycle(p: &Pair) -> f64 {
    let v = |s: &GpuStats| s.memory.vector.misses - s.memory.vector.mshr_merges;
    let lines = p.delta(v) + p.delta(|s| s.memory.vector.uncached);
    lines as f64 / p.dc() as f64
}

fn n4(target: &str, stem: &str) -> u64 {
    let w = Workload::load(&file(target, stem)).unwrap_or_else(|e| panic!("{e}"));
    knob(&w, "n4")
}

/// With 16 L0 MSHRs per CU (the model's default before the MSHR counts were
/// sized for the configured bandwidths) the triad is bounded by the L0 MSHRs
/// (Little's law: `cus × mshrs` lines in flight, each for a round trip less
/// the cycle its slot is reused in): it stays within 10 % of that bound and
/// under the configured peak of the level it streams from.
#[test]
fn stream_with_few_l0_mshrs_is_bounded_by_the_l0_mshrs() {
    let mut c = GpuConfig::default_config();
    c.memory.vector_cache.mshrs = 16;
    let m = &c.memory;
    let l2_peak = f64::from(m.l2.channels * m.xbar.flit_bytes);
    let dram_peak = f64::from(m.l2.channels * m.dram.bytes_per_cycle);
    // Two read lines and one written line per three.
    let mixed = |read: u64| (2 * read + ack_path(&c, false)) as f64 / 3.0 - 1.0;
    for (target, stem) in [(W32, "stream_l2"), (W64, "stream_l2"), (W32, "stream_dram")] {
        let p = Pair::measure(target, stem, "reps", &c);
        let (peak, read_path) = if stem == "stream_l2" {
            (l2_peak, l2_hit_path(&c))
        } else {
            (dram_peak, dram_path(&c))
        };
        let bound = l0_mshrs(&c) / mixed(read_path);
        let lines = l0_mshr_lines_per_cycle(&p);
        report(
            &p,
            "triad bytes/cycle, 16 L0 MSHRs",
            stream_bandwidth(&p, n4(target, stem)),
            peak,
        );
        report(&p, "L0 MSHR lines/cycle, 16 L0 MSHRs", lines, bound);
        assert!(
            lines * 128.0 <= peak,
            "{}: {lines:.3} lines/cycle above the peak {peak} B/cycle",
            p.name
        );
        assert!(
            lines <= bound * 1.01 && lines >= bound * 0.9,
            "{}: {lines:.4} lines/cycle through the L0 MSHRs, Little's-law bound {bound:.4}",
            p.name
        );
        if stem == "stream_l2" {
            // The repetitions added only L2 hits (the first one is in both runs).
            let (full, base) = (p.full.memory.l2.misses, p.base.memory.l2.misses);
            assert!(
                full <= base + base / 100,
                "{}: L2 misses {base} -> {full}",
                p.name
            );
        }
    }
}

/// `stream_l2` with one wave per wave slot of the GPU (grid = CUs × SIMDs ×
/// wave slots × 32 work-items, so every wave stays resident and sweeps
/// `n4 / grid` elements per repetition): no wave launches between the
/// repetitions, and a wave's lines are evicted from its 16 KiB L0 before it
/// reads them again, so every read of the added repetitions is an L2 hit.
/// (As written, `stream_l2` launches one work-item per element and about a
/// third of its reads hit the L0, which is not the L2's bandwidth.)
fn stream_l2_resident(c: &GpuConfig) -> Pair {
    let lanes = c.cus * c.cu.simds * c.cu.wave_slots * 32;
    Pair::measure_with(W32, "stream_l2", "reps", c, |w| w.grid = [lanes, 1, 1])
}

/// L2 bytes per cycle (lookups × line) of the added repetitions.
fn l2_bandwidth(p: &Pair, c: &GpuConfig) -> f64 {
    let l2 = p.delta(|s| s.memory.l2.hits + s.memory.l2.misses);
    (l2 * u64::from(c.memory.line_bytes)) as f64 / p.dc() as f64
}

/// The triad's ceiling at the L2 in bytes/cycle: the response network
/// carries one flit per channel per cycle, a read line `line / flit` flits
/// and a write acknowledgement one, two reads and one write per three lines.
fn l2_triad_ceiling(c: &GpuConfig) -> f64 {
    let m = &c.memory;
    let flits = 2 * line_flits(c) + 1;
    f64::from(m.l2.channels) * 3.0 / flits as f64 * f64::from(m.line_bytes)
}

/// On the default configuration the triad comes within 10 % of the
/// configured bandwidths: the L2's (`channels × flit_bytes` per cycle, L2
/// lookups × line bytes, one wave per slot) and the DRAM's (`channels ×
/// bytes_per_cycle`, bytes read and written back, as written: a 12 MiB
/// triad), and no faster than what the networks allow.
#[test]
fn stream_reaches_the_configured_bandwidth_on_the_default_config() {
    let c = GpuConfig::default_config();
    let m = &c.memory;
    let l2_peak = f64::from(m.l2.channels * m.xbar.flit_bytes);
    let p = stream_l2_resident(&c);
    let bw = l2_bandwidth(&p, &c);
    report(&p, "L2 bytes/cycle, resident waves", bw, l2_peak);
    assert_eq!(p.delta(|s| s.memory.vector.hits), 0, "{}: L0 hits", p.name);
    assert!(
        bw >= 0.9 * l2_peak && bw <= l2_triad_ceiling(&c),
        "{}: {bw:.1} L2 B/cycle, peak {l2_peak}, ceiling {:.1}",
        p.name,
        l2_triad_ceiling(&c)
    );
    let dram_peak = f64::from(m.l2.channels * m.dram.bytes_per_cycle);
    let p = Pair::measure(W32, "stream_dram", "reps", &c);
    let dram = p.delta(|s| s.memory.dram_bytes_read + s.memory.dram_bytes_written);
    let bw = dram as f64 / p.dc() as f64;
    report(&p, "DRAM bytes/cycle", bw, dram_peak);
    report(
        &p,
        "triad bytes/cycle",
        stream_bandwidth(&p, n4(W32, "stream_dram")),
        dram_peak,
    );
    assert!(
        bw >= 0.97 * dram_peak && bw <= dram_peak * 1.01,
        "{}: {bw:.2} DRAM B/cycle, peak {dram_peak}",
        p.name
    );
}

/// The 1-CU preset (`hw/configs/1cu.yaml`: the same L2 and DRAM, one CU):
/// one CU's response port carries one flit per cycle, so L2-hit streaming
/// reaches that port's share of the triad ceiling, within 10 %.
#[test]
fn one_cu_stream_reaches_its_port_bandwidth() {
    let c = GpuConfig::one_cu();
    let port = l2_triad_ceiling(&c) / f64::from(c.memory.l2.channels);
    let p = stream_l2_resident(&c);
    let bw = l2_bandwidth(&p, &c);
    report(&p, "L2 bytes/cycle, 1 CU", bw, port);
    assert!(
        bw >= 0.9 * port && bw <= port * 1.01,
        "{}: {bw:.1} L2 B/cycle, port ceiling {port:.1}",
        p.name
    );
}

/// With enough MSHRs (64 per L0 and per L2 channel) the DRAM stream reaches
/// the configured DRAM bandwidth (`channels × bytes_per_cycle`), within 3 %.
#[test]
fn stream_reaches_the_dram_bandwidth_with_enough_mshrs() {
    let mut c = GpuConfig::default_config();
    c.memory.vector_cache.mshrs = 64;
    c.memory.l2.mshrs = 64;
    let p = Pair::measure(W32, "stream_dram", "reps", &c);
    let peak = f64::from(c.memory.l2.channels * c.memory.dram.bytes_per_cycle);
    let dram_bytes =
        p.delta(|s| s.memory.dram_bytes_read) + p.delta(|s| s.memory.dram_bytes_written);
    let bw = dram_bytes as f64 / p.dc() as f64;
    report(&p, "DRAM bytes/cycle, 64 MSHRs", bw, peak);
    assert!(
        bw <= peak * 1.01 && bw >= peak * 0.97,
        "{}: {bw:.2} DRAM bytes/cycle, configured {peak}",
        p.name
    );
}

/// The L2's bandwidth (`channels × flit_bytes` per cycle) with MSHRs out of
/// the way: the response queue holds only responses out of the lookup
/// pipeline, so it does not cap the channel's throughput.
#[test]
fn l2_stream_reaches_the_l2_bandwidth_with_enough_mshrs() {
    let mut c = GpuConfig::default_config();
    c.memory.vector_cache.mshrs = 256;
    c.memory.l2.mshrs = 256;
    let p = stream_l2_resident(&c);
    let peak = f64::from(c.memory.l2.channels * c.memory.xbar.flit_bytes);
    let bw = l2_bandwidth(&p, &c);
    report(&p, "L2 bytes/cycle, 256 MSHRs", bw, peak);
    assert!(
        bw >= 0.9 * peak && bw <= l2_triad_ceiling(&c),
        "{}: {bw:.1} B/cycle, peak {peak}",
        p.name
    );
}

/// Same-address atomics (`atomics_one`: every lane of every wave adds to one
/// word; a wave's instruction is one line request) are serialised by the
/// line's atomic unit at the L2: one request per `atomic_latency` (the
/// lookup pipeline overlaps the previous atomics), within 2 %.
#[test]
fn same_address_atomics_issue_one_per_atomic_latency() {
    let c = GpuConfig::default_config();
    let per = f64::from(c.memory.l2.atomic_latency);
    for target in [W32, W64] {
        let p = Pair::measure(target, "atomics_one", "iters", &c);
        let requests = p.dk * p.waves;
        let got = p.dc() as f64 / requests as f64;
        report(&p, "cycles per same-line atomic request", got, per);
        report(
            &p,
            "lane atomics/cycle",
            (p.dk * p.items) as f64 / p.dc() as f64,
            (p.items / p.waves) as f64 / per,
        );
        assert!(
            got >= per && got <= per * 1.02,
            "{}: {got:.3} cycles per same-line atomic, atomic_latency {per}",
            p.name
        );
    }
}

/// Atomics to distinct lines (`atomics_distinct`) do not wait for each other
/// at the L2; each holds an L0 MSHR for its round trip (the atomic ALU
/// included), so the throughput is the Little's-law bound of the L0 MSHRs.
#[test]
fn distinct_address_atomics_are_bounded_by_the_l0_mshrs() {
    let mut c = GpuConfig::default_config();
    c.memory.vector_cache.mshrs = 16;
    let bound = l0_mshrs(&c) / (ack_path(&c, true) - 1) as f64;
    for target in [W32, W64] {
        let p = Pair::measure(target, "atomics_distinct", "iters", &c);
        let atomics = (p.dk * p.items) as f64 / p.dc() as f64;
        report(&p, "line atomics/cycle", atomics, bound);
        assert_eq!(
            p.delta(|s| s.memory.vector.uncached),
            p.dk * p.items,
            "{}: one request per lane",
            p.name
        );
        assert!(
            atomics <= bound * 1.01 && atomics >= bound * 0.97,
            "{}: {atomics:.4} atomics/cycle, L0 MSHR bound {bound:.4}",
            p.name
        );
    }
}

// ---------------------------------------------------------------------------
// The design-change example (docs/design-change.md)
// ---------------------------------------------------------------------------

/// `workloads/examples/triad_1_5mib.yaml` on the default configuration and
/// on `hw/configs/examples/l2-4mib.yaml`, which differs only in
/// `memory.l2.size_bytes`: the 4 MiB L2 keeps the 1.5 MiB working set of the
/// second repetition, so the run is shorter. The default configuration
/// streams at the DRAM bandwidth (`stream_reaches_the_configured_bandwidth_on_the_default_config`),
/// so the saving is the DRAM time of the traffic the bigger L2 removes, less
/// the time of one repetition served by the L2 at its response-network rate.
#[test]
fn design_change_a_4_mib_l2_shortens_the_triad_sweep() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let base = GpuConfig::default_config();
    let yaml = root.join("hw/configs/examples/l2-4mib.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap_or_else(|e| panic!("{}: {e}", yaml.display()));
    let big =
        GpuConfig::from_yaml(&text, &yaml.display().to_string()).unwrap_or_else(|e| panic!("{e}"));
    // Exactly one parameter differs.
    let mut same = big.clone();
    same.memory.l2.size_bytes = base.memory.l2.size_bytes;
    assert_eq!(
        same,
        base,
        "{}: differs from the default in more than l2.size_bytes",
        yaml.display()
    );
    assert_eq!(big.memory.l2.size_bytes, 4 * base.memory.l2.size_bytes);

    let path = root.join("workloads/examples/triad_1_5mib.yaml");
    let w = Workload::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let small_run = run(&w, &base).unwrap_or_else(|e| panic!("{e}"));
    let big_run = run(&w, &big).unwrap_or_else(|e| panic!("{e}"));
    let hit_rate =
        |s: &GpuStats| s.memory.l2.hits as f64 / (s.memory.l2.hits + s.memory.l2.misses) as f64;
    let (cs, cb) = (cycles(&small_run), cycles(&big_run));
    println!(
        "triad_1_5mib: 1 MiB L2 {cs} cycles (L2 hit rate {:.3}, DRAM read {} B), \
         4 MiB L2 {cb} cycles (L2 hit rate {:.3}, DRAM read {} B)",
        hit_rate(&small_run),
        small_run.memory.dram_bytes_read,
        hit_rate(&big_run),
        big_run.memory.dram_bytes_read
    );
    assert!(cb < cs, "4 MiB L2: {cb} cycles, 1 MiB: {cs}");
    assert!(hit_rate(&small_run) < 0.1 && hit_rate(&big_run) > 0.45);
    assert!(big_run.memory.dram_bytes_read * 3 < small_run.memory.dram_bytes_read * 2);
    // DRAM-bound: each run takes its DRAM bytes at the configured DRAM
    // bandwidth; the 4 MiB run adds one repetition from the L2, bounded by
    // the response network (65536 float4 elements: 16384 read lines of
    // `line / flit` flits and 8192 one-flit write acknowledgements, over the
    // channels at one flit per cycle each).
    let c = &base;
    let m = &c.memory;
    let dram_peak = f64::from(m.l2.channels * m.dram.bytes_per_cycle);
    let dram = |s: &GpuStats| (s.memory.dram_bytes_read + s.memory.dram_bytes_written) as f64;
    let l2_rep = (16384 * line_flits(c) + 8192) as f64 / f64::from(m.l2.channels);
    let saved = (dram(&small_run) - dram(&big_run)) / dram_peak - l2_rep;
    let got = (cs - cb) as f64;
    println!("triad_1_5mib: saved {got} cycles, predicted {saved:.0}");
    // 10 %: the bound leaves out the ramp and drain of the L2 repetition.
    assert!(
        (got - saved).abs() <= 0.1 * saved,
        "saved {got} cycles, the DRAM/L2 bandwidth bound predicts {saved:.0}"
    );
}

/// Every workload in `workloads/ubench/<target>/` is measured by a test of
/// this file (a new microbenchmark must get its check here).
#[test]
fn every_ubench_workload_is_calibrated() {
    const MEASURED: &[&str] = &[
        "valu_int",
        "valu_f32",
        "salu_int",
        "smem_chain",
        "lds_chase",
        "lds_chase_conflict",
        "mem_chase_l0",
        "mem_chase_l1",
        "mem_chase_l2",
        "mem_chase_dram",
        "stream_l2",
        "stream_dram",
        "atomics_one",
        "atomics_distinct",
    ];
    // Measured on the navi21 preset by `navi21_calibration.rs` (gfx1030 only).
    const ON_NAVI21: &[&str] = &["mem_chase_vram"];
    for target in [W32, W64] {
        let dir = file(target, "x").with_file_name("");
        let mut n = 0;
        for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = e.expect("entry").path();
            if path.extension().is_some_and(|x| x == "yaml") {
                let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
                if target == W32 && ON_NAVI21.contains(&stem) {
                    continue;
                }
                n += 1;
                assert!(
                    MEASURED.contains(&stem),
                    "{}: not calibrated",
                    path.display()
                );
            }
        }
        assert_eq!(n, MEASURED.len(), "{target}: workloads");
    }
}
