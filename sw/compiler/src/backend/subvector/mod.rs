//! Seed 000's compiler pass (spec 000 §5, issue 20): the segments of a
//! wave64 kernel that need more VGPRs than a threshold run in sub-vector
//! looping mode — once per 32-lane half — and the registers that live only
//! inside them become the shared VGPR region, so a wave takes fewer VGPR
//! rows and more waves fit a SIMD (docs/compiler.md "Seed 000").
//!
//! It runs in the back end after register allocation (`backend::compile_with`):
//! 1. [`segments`] — liveness, the split into segments, each segment's usage,
//!    the runs of segments strictly above the threshold (Fig 12: one
//!    enter/exit per run of consecutive segments);
//! 2. [`legal`] — whether a run may execute once per half (else it stays
//!    conventional, and the report says why);
//! 3. [`rewrite`] — the shared region's renumbering and the rewrite chosen
//!    by [`SubvectorRewrite`].

pub mod legal;
pub mod rewrite;
pub mod segments;

use std::ops::Range;

use crate::backend::error::BackendError;
use crate::backend::minst::MachineCode;
use crate::backend::regalloc::{Assignment, SGPR_LIMIT};

pub use segments::{regions, Segment, SegmentKind};

/// Which rewrite the pass applies (`gpusim compile --subvector=…`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SubvectorRewrite {
    /// No pass.
    #[default]
    Off,
    /// Fig 15: gfx10's `s_subvector_loop_begin/end` around each run.
    Loop,
    /// Fig 14: the run duplicated, once with EXEC's low half, once with the high.
    Duplicate,
    /// Fig 13's enter/exit instructions. The clocked GPU has none (its
    /// sub-vector order is chosen per dispatch and per hardware window), so
    /// this is [`SubvectorRewrite::Loop`], whose two instructions are the
    /// ISA's own enter and exit of a sub-vector loop.
    Hw,
}

impl SubvectorRewrite {
    /// Parses `loop`, `duplicate`, `hw` or `off`.
    pub fn parse(s: &str) -> Option<SubvectorRewrite> {
        Some(match s {
            "off" => SubvectorRewrite::Off,
            "loop" => SubvectorRewrite::Loop,
            "duplicate" => SubvectorRewrite::Duplicate,
            "hw" => SubvectorRewrite::Hw,
            _ => return None,
        })
    }
}

/// 1024 VGPR rows of 32 lanes per SIMD (gfx1030, `cu.vgpr_rows`) hold 512
/// wave64 registers; for a target occupancy of 8 wave64 waves per SIMD
/// (RDNA2's wave64 slots per SIMD32 with a full register file each) a wave
/// may use 64. A segment needing more is what keeps occupancy below target.
pub const DEFAULT_THRESHOLD: u16 = 64;
/// Instructions per straight-line segment at or below the threshold.
pub const DEFAULT_CHUNK: u16 = 16;

/// The pass's options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SubvectorOptions {
    /// Which rewrite (default: none).
    pub rewrite: SubvectorRewrite,
    /// VGPRs (whole wave) a segment may use in conventional mode; 0 =
    /// [`DEFAULT_THRESHOLD`].
    pub threshold: u16,
    /// Straight-line segment length in instructions; 0 = [`DEFAULT_CHUNK`].
    pub chunk: u16,
}

impl SubvectorOptions {
    /// The threshold in force.
    pub fn threshold(&self) -> u16 {
        if self.threshold == 0 {
            DEFAULT_THRESHOLD
        } else {
            self.threshold
        }
    }
}

/// One run of consecutive segments above the threshold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionReport {
    /// Indices into [`Report::segments`].
    pub segments: Range<usize>,
    /// `Ok` when rewritten; else why it stayed conventional.
    pub outcome: Result<(), String>,
}

/// What the pass found and did for one kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The rewrite asked for.
    pub rewrite: SubvectorRewrite,
    /// The threshold used.
    pub threshold: u16,
    /// Every segment, in program order.
    pub segments: Vec<Segment>,
    /// The runs above the threshold.
    pub regions: Vec<RegionReport>,
    /// Registers at the top of the allocation shared by the halves.
    pub shared_vgprs: u16,
    /// VGPRs before the pass.
    pub vgprs_before: u16,
    /// Why nothing was rewritten at all, if so.
    pub note: Option<String>,
}

impl Report {
    /// Runs rewritten.
    pub fn rewritten(&self) -> usize {
        self.regions.iter().filter(|r| r.outcome.is_ok()).count()
    }
}

/// Runs the pass on allocated machine code: rewrites `mc`, renumbers `asg`
/// (the shared region) and takes SGPRs above `asg.sgprs` for EXEC.
pub fn apply(
    mc: &mut MachineCode,
    asg: &mut Assignment,
    opts: &SubvectorOptions,
    wave64: bool,
) -> Result<Report, BackendError> {
    let mut report = Report {
        rewrite: opts.rewrite,
        threshold: opts.threshold(),
        vgprs_before: asg.vgprs,
        ..Report::default()
    };
    if opts.rewrite == SubvectorRewrite::Off {
        return Ok(report);
    }
    let live = segments::liveness(mc);
    let pressure = segments::pressure(mc, &live);
    let chunk = usize::from(if opts.chunk == 0 {
        DEFAULT_CHUNK
    } else {
        opts.chunk
    });
    report.segments = segments::split(mc, &pressure, report.threshold, chunk);
    let usages: Vec<u16> = report.segments.iter().map(|s| s.usage).collect();
    let items_of = |r: &Range<usize>| {
        report.segments[r.start].items.start..report.segments[r.end - 1].items.end
    };
    // Each chosen run with the scalar registers its passes start from afresh.
    let mut chosen: Vec<(Range<usize>, Vec<u16>)> = Vec::new();
    for run in segments::regions(&usages, report.threshold) {
        let whole = legal::check(mc, asg, &live, items_of(&run), wave64);
        if whole.is_ok() || run.len() == 1 {
            let outcome = whole.map(|keep| chosen.push((items_of(&run), keep)));
            report.regions.push(RegionReport {
                segments: run,
                outcome,
            });
            continue;
        }
        // The run as a whole cannot run per half: from its first segment on,
        // the longest legal stretch each time (a segment no stretch can
        // hold stays conventional with its own reason).
        let mut at = run.start;
        while at < run.end {
            let mut found = None;
            for end in (at + 1..=run.end).rev() {
                if let Ok(keep) = legal::check(mc, asg, &live, items_of(&(at..end)), wave64) {
                    found = Some((end, keep));
                    break;
                }
            }
            let (segs, outcome) = match found {
                Some((end, keep)) => {
                    chosen.push((items_of(&(at..end)), keep));
                    (at..end, Ok(()))
                }
                None => (
                    at..at + 1,
                    legal::check(mc, asg, &live, items_of(&(at..at + 1)), wave64).map(|_| ()),
                ),
            };
            at = segs.end;
            report.regions.push(RegionReport {
                segments: segs,
                outcome,
            });
        }
    }
    let refuse = |report: &mut Report, why: String| {
        for r in &mut report.regions {
            if r.outcome.is_ok() {
                r.outcome = Err(why.clone());
            }
        }
        report.note = Some(why);
    };
    if chosen.is_empty() {
        return Ok(report);
    }
    if !wave64 {
        refuse(
            &mut report,
            "a wave32 wave is one SIMD32 part: nothing to split".into(),
        );
        return Ok(report);
    }
    // Two SGPRs for EXEC (an even pair) and the spares of the registers
    // each pass restores, the same for every run (they run one at a time).
    let save = asg.sgprs.next_multiple_of(2);
    let spares = chosen.iter().map(|(_, k)| k.len()).max().unwrap_or(0) as u16;
    if save + 2 + spares > SGPR_LIMIT {
        refuse(
            &mut report,
            format!(
                "no {} SGPRs left for EXEC and the restored scalars ({} in use)",
                2 + spares,
                asg.sgprs
            ),
        );
        return Ok(report);
    }
    asg.sgprs = save + 2 + spares;
    let ranges: Vec<Range<usize>> = chosen.iter().map(|(r, _)| r.clone()).collect();
    report.shared_vgprs = rewrite::share(mc, asg, &live, &ranges);
    // Last run first, so earlier positions stay valid.
    for (r, regs) in chosen.into_iter().rev() {
        let keep: Vec<(u16, u16)> = regs.into_iter().zip(save + 2..).collect();
        if opts.rewrite == SubvectorRewrite::Duplicate {
            rewrite::duplicate(mc, r, save, &keep);
        } else {
            rewrite::subvector_loop(mc, r, save, &keep);
        }
    }
    Ok(report)
}
