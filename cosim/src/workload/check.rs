//! Checking final buffers: against files with a tolerance, or against the
//! corpus kernel's Rust reference.

use std::fmt;
use std::path::{Path, PathBuf};

use super::mismatch::{Mismatch, MismatchReport};
use super::reference::{corpus_check, reference_replay, steps_reference_check};
use super::steps::ProgramRun;
use super::{
    Check, ElemType, Elements, HostBuffer, Mask, Prepared, Tolerance, Workload, WorkloadError,
};

/// How many mismatching elements a report lists.
pub const MISMATCHES_LISTED: usize = 10;

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "buffer `{}` element {}: expected {}, got {} ({} element{} differ{})",
            self.buffer,
            self.index,
            self.expected,
            self.actual,
            self.differing,
            if self.differing == 1 { "" } else { "s" },
            if self.differing == 1 { "s" } else { "" },
        )
    }
}

/// The result of one check.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckOutcome {
    /// What was checked, e.g. `reference: corpus` or `y == y.bin (ulp 2)`.
    pub description: String,
    /// `None` when it passed.
    pub mismatch: Option<Mismatch>,
}

/// The results of all checks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CheckReport {
    /// One outcome per check, in file order.
    pub outcomes: Vec<CheckOutcome>,
}

impl CheckReport {
    /// True when every check passed.
    pub fn passed(&self) -> bool {
        self.outcomes.iter().all(|o| o.mismatch.is_none())
    }

    /// The first failing check's mismatch.
    pub fn first_mismatch(&self) -> Option<&Mismatch> {
        self.outcomes.iter().find_map(|o| o.mismatch.as_ref())
    }
}

/// Checks `actual` (the final buffers, in declaration order) against every
/// check of a one-dispatch `workload` (a `steps:` workload needs
/// [`check_run`], which has the snapshots and the reference replay).
pub fn check(
    workload: &Workload,
    prepared: &Prepared,
    actual: &[HostBuffer],
) -> Result<CheckReport, WorkloadError> {
    let run = ProgramRun {
        finals: actual.to_vec(),
        dispatches: 1,
        ..ProgramRun::default()
    };
    check_run(workload, prepared, &run)
}

/// Checks a run (final buffers, snapshots after named steps, unconverged
/// `until`s) against every check of `workload`. A step whose `until` never
/// held is a failed outcome of its own.
pub fn check_run(
    workload: &Workload,
    prepared: &Prepared,
    run: &ProgramRun,
) -> Result<CheckReport, WorkloadError> {
    let mut report = CheckReport::default();
    for (step, n) in &run.unconverged {
        report.outcomes.push(CheckOutcome {
            description: format!("step `{step}` until"),
            mismatch: Some(Mismatch {
                buffer: format!("(step `{step}`)"),
                index: 0,
                expected: "its `until` condition to hold".into(),
                actual: format!("not met after {n} iterations"),
                differing: 0,
                report: None,
            }),
        });
    }
    let mut replay: Option<ProgramRun> = None;
    for c in &workload.checks {
        let actual = match c.after() {
            None => &run.finals,
            Some(step) => run
                .snapshots
                .iter()
                .find(|(n, _)| n == step)
                .map(|(_, b)| b)
                .ok_or_else(|| workload.invalid(format!("no snapshot after step `{step}`")))?,
        };
        let at = c
            .after()
            .map(|s| format!(" after `{s}`"))
            .unwrap_or_default();
        let outcome = match c {
            Check::CorpusReference { after } => CheckOutcome {
                description: format!("reference: corpus{at}"),
                mismatch: if prepared.steps.is_empty() {
                    corpus_check(workload, prepared, actual)?
                } else {
                    if replay.is_none() {
                        replay = Some(reference_replay(workload, prepared)?);
                    }
                    let r = replay.as_ref().expect("just computed");
                    steps_reference_check(workload, prepared, r, after.as_deref(), actual)?
                },
            },
            Check::File {
                buffer,
                expected,
                tolerance,
                elements,
                ..
            } => CheckOutcome {
                description: format!("{buffer} == {} ({tolerance:?}){at}", expected.display()),
                mismatch: file_check(
                    workload, prepared, buffer, expected, *tolerance, elements, actual,
                )?,
            },
        };
        report.outcomes.push(outcome);
    }
    Ok(report)
}

/// The compared-element predicate of `elements` for a buffer of `len`.
fn selection(
    workload: &Workload,
    prepared: &Prepared,
    elements: &Elements,
    len: usize,
) -> Result<Vec<bool>, WorkloadError> {
    let invalid = |m: String| workload.invalid(m);
    let mut keep = vec![true; len];
    if let Some((start, end)) = elements.range {
        if end > len {
            return Err(invalid(format!(
                "range [{start}, {end}) is past the end of the buffer ({len} elements)"
            )));
        }
        for (i, k) in keep.iter_mut().enumerate() {
            *k = (start..end).contains(&i);
        }
    }
    if let Some(mask) = &elements.mask {
        let flags: Vec<bool> = match mask {
            Mask::Buffer(name) => {
                let b = prepared
                    .buffers
                    .iter()
                    .find(|b| &b.name == name)
                    .ok_or_else(|| invalid(format!("mask: unknown buffer `{name}`")))?;
                b.bytes
                    .chunks(b.elem.size())
                    .map(|c| c.iter().any(|&x| x != 0))
                    .collect()
            }
            Mask::File(p) => super::read(p)?.iter().map(|&x| x != 0).collect(),
        };
        if flags.len() != len {
            return Err(invalid(format!(
                "mask has {} elements, the buffer {len}",
                flags.len()
            )));
        }
        for (k, f) in keep.iter_mut().zip(flags) {
            *k &= f;
        }
    }
    Ok(keep)
}

/// Where the actual contents of a failed file check go: `want.bin` →
/// `want.actual.bin`, beside it.
pub fn actual_path(expected: &Path) -> PathBuf {
    let stem = expected
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match expected.extension() {
        Some(e) => format!("{stem}.actual.{}", e.to_string_lossy()),
        None => format!("{stem}.actual"),
    };
    expected.with_file_name(name)
}

fn file_check(
    workload: &Workload,
    prepared: &Prepared,
    buffer: &str,
    expected: &PathBuf,
    tolerance: Tolerance,
    elements: &Elements,
    actual: &[HostBuffer],
) -> Result<Option<Mismatch>, WorkloadError> {
    let invalid = |message: String| workload.invalid(message);
    let got = actual
        .iter()
        .find(|b| b.name == buffer)
        .ok_or_else(|| invalid(format!("no final contents for buffer `{buffer}`")))?;
    let want = std::fs::read(expected).map_err(|e| WorkloadError::Io {
        path: expected.clone(),
        message: e.to_string(),
    })?;
    if want.len() != got.bytes.len() {
        return Err(invalid(format!(
            "expected file {} holds {} bytes, buffer `{buffer}` has {}",
            expected.display(),
            want.len(),
            got.bytes.len()
        )));
    }
    let keep = selection(workload, prepared, elements, got.len())
        .map_err(|e| invalid(format!("check of `{buffer}`: {e}")))?;
    let t = got.elem;
    let n = t.size();
    let mut report = MismatchReport::default();
    let (mut differing, mut sum) = (0usize, 0f64);
    for (i, _) in keep.iter().enumerate().filter(|(_, k)| **k) {
        let (e, a) = (&want[i * n..(i + 1) * n], &got.bytes[i * n..(i + 1) * n]);
        report.compared += 1;
        let error = element_error(t, e, a);
        report.max_error = report.max_error.max(error);
        sum += error;
        if !element_matches(t, e, a, tolerance) {
            differing += 1;
            if report.first.len() < MISMATCHES_LISTED {
                report
                    .first
                    .push((i, t.format(&want, i), t.format(&got.bytes, i)));
            }
        }
    }
    if differing == 0 {
        return Ok(None);
    }
    report.mean_error = sum / report.compared as f64;
    let file = actual_path(expected);
    // The check's answer stands even when the file cannot be written.
    report.actual_file = std::fs::write(&file, &got.bytes).ok().map(|()| file);
    let index = report.first[0].0;
    Ok(Some(Mismatch {
        buffer: buffer.to_string(),
        index,
        expected: t.format(&want, index),
        actual: t.format(&got.bytes, index),
        differing,
        report: Some(report),
    }))
}

/// `|actual − expected|` of one element (0 for identical bits and for two
/// NaNs; infinite when exactly one side is NaN or they are different infinities).
fn element_error(t: ElemType, e: &[u8], a: &[u8]) -> f64 {
    if e == a {
        return 0.0;
    }
    let ((ev, _), (av, _)) = (decode(t, e), decode(t, a));
    match (ev.is_nan(), av.is_nan()) {
        (true, true) => 0.0,
        (false, false) if ev == av => 0.0,
        (false, false) => {
            let d = (av - ev).abs();
            if d.is_nan() {
                f64::INFINITY
            } else {
                d
            }
        }
        _ => f64::INFINITY,
    }
}

/// The value of an element as f64 (integers exactly up to 2^53) and, for
/// floats, its ordered-integer position for ULP distance.
fn decode(t: ElemType, b: &[u8]) -> (f64, Option<i128>) {
    let mut q = [0u8; 8];
    q[..b.len()].copy_from_slice(b);
    let raw = u64::from_le_bytes(q);
    let ord = |bits: u64, sign: u64| -> i128 {
        // Map sign-magnitude to a monotonic integer line (+0 and -0 coincide).
        if bits & sign != 0 {
            -((bits & !sign) as i128)
        } else {
            bits as i128
        }
    };
    match t {
        ElemType::I8 => (f64::from(raw as i8), None),
        ElemType::U8 => (f64::from(raw as u8), None),
        ElemType::I16 => (f64::from(raw as i16), None),
        ElemType::U16 => (f64::from(raw as u16), None),
        ElemType::I32 => (f64::from(raw as i32), None),
        ElemType::U32 => (f64::from(raw as u32), None),
        ElemType::I64 => (raw as i64 as f64, None),
        ElemType::U64 => (raw as f64, None),
        ElemType::F32 => (
            f64::from(f32::from_bits(raw as u32)),
            Some(ord(raw & 0xffff_ffff, 1 << 31)),
        ),
        ElemType::F64 => (f64::from_bits(raw), Some(ord(raw, 1 << 63))),
    }
}

fn element_matches(t: ElemType, e: &[u8], a: &[u8], tolerance: Tolerance) -> bool {
    if e == a {
        return true;
    }
    let ((ev, eo), (av, ao)) = (decode(t, e), decode(t, a));
    if ev.is_nan() || av.is_nan() {
        // Any NaN matches any NaN unless bits are required.
        return ev.is_nan() && av.is_nan() && tolerance != Tolerance::Exact;
    }
    match tolerance {
        Tolerance::Exact => false,
        Tolerance::Ulp(n) => match (eo, ao) {
            (Some(x), Some(y)) => (x - y).unsigned_abs() <= u128::from(n),
            _ => false,
        },
        Tolerance::Abs(d) => (av - ev).abs() <= d,
        // NumPy's allclose; infinities match only themselves (equal bits above).
        Tolerance::Close { abs, rel } => {
            ev.is_finite() && av.is_finite() && (av - ev).abs() <= abs + rel * ev.abs()
        }
    }
}
