//! Checking final buffers: against files with a tolerance, or against the
//! corpus kernel's Rust reference.

use std::fmt;
use std::path::PathBuf;

use corpus::{ArgValue, BufferData, CorpusError, Dims, ScalarValue};

use super::{
    Check, ElemType, HostBuffer, Prepared, PreparedArg, Tolerance, Workload, WorkloadError,
};

/// The first differing element of a buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Buffer name.
    pub buffer: String,
    /// Element index.
    pub index: usize,
    /// Expected value, formatted.
    pub expected: String,
    /// Actual value, formatted.
    pub actual: String,
    /// How many elements of the buffer differ.
    pub differing: usize,
}

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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckOutcome {
    /// What was checked, e.g. `reference: corpus` or `y == y.bin (ulp 2)`.
    pub description: String,
    /// `None` when it passed.
    pub mismatch: Option<Mismatch>,
}

/// The results of all checks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
/// check of `workload`.
pub fn check(
    workload: &Workload,
    prepared: &Prepared,
    actual: &[HostBuffer],
) -> Result<CheckReport, WorkloadError> {
    let mut report = CheckReport::default();
    for c in &workload.checks {
        let outcome = match c {
            Check::CorpusReference => CheckOutcome {
                description: "reference: corpus".into(),
                mismatch: corpus_check(workload, prepared, actual)?,
            },
            Check::File {
                buffer,
                expected,
                tolerance,
            } => CheckOutcome {
                description: format!("{buffer} == {} ({tolerance:?})", expected.display()),
                mismatch: file_check(workload, buffer, expected, *tolerance, actual)?,
            },
        };
        report.outcomes.push(outcome);
    }
    Ok(report)
}

fn file_check(
    workload: &Workload,
    buffer: &str,
    expected: &PathBuf,
    tolerance: Tolerance,
    actual: &[HostBuffer],
) -> Result<Option<Mismatch>, WorkloadError> {
    let invalid = |message: String| WorkloadError::Invalid {
        path: workload.path.clone(),
        message,
    };
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
    let t = got.elem;
    let n = t.size();
    let mut first = None;
    let mut differing = 0;
    for i in 0..got.len() {
        let (e, a) = (&want[i * n..(i + 1) * n], &got.bytes[i * n..(i + 1) * n]);
        if !element_matches(t, e, a, tolerance) {
            differing += 1;
            first.get_or_insert(i);
        }
    }
    Ok(first.map(|index| Mismatch {
        buffer: buffer.to_string(),
        index,
        expected: t.format(&want, index),
        actual: t.format(&got.bytes, index),
        differing,
    }))
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
    }
}

fn corpus_check(
    workload: &Workload,
    prepared: &Prepared,
    actual: &[HostBuffer],
) -> Result<Option<Mismatch>, WorkloadError> {
    let kernel = workload
        .corpus_kernel()
        .ok_or_else(|| WorkloadError::Invalid {
            path: workload.path.clone(),
            message: "`reference: corpus` needs a corpus kernel".into(),
        })?;
    let err = |message: String| WorkloadError::Reference {
        kernel: kernel.name.to_string(),
        message,
    };
    let values = |buffers: &[HostBuffer]| -> Result<Vec<ArgValue>, WorkloadError> {
        prepared
            .args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                Ok(match a {
                    PreparedArg::Buffer(b) => {
                        let hb = buffers
                            .get(*b)
                            .ok_or_else(|| err(format!("argument {i}: no buffer {b}")))?;
                        let elem = hb.elem.to_corpus().ok_or_else(|| {
                            err(format!(
                                "argument {i}: the corpus has no {} buffers",
                                hb.elem
                            ))
                        })?;
                        let data = BufferData::from_le_bytes(elem, &hb.bytes)
                            .ok_or_else(|| err(format!("argument {i}: ragged buffer")))?;
                        ArgValue::Buffer(data)
                    }
                    PreparedArg::Value(v) => {
                        ArgValue::Scalar(scalar_of(workload, i, v).map_err(&err)?)
                    }
                    PreparedArg::Local(n) => ArgValue::Local { bytes: *n },
                })
            })
            .collect()
    };
    let mut expected = values(&prepared.buffers)?;
    let dims = Dims {
        grid: workload.grid,
        local: workload.workgroup,
    };
    kernel
        .run_reference(&dims, &mut expected)
        .map_err(|e| err(e.to_string()))?;
    let got = values(actual)?;
    match kernel.check_against(&expected, &got) {
        Ok(()) => Ok(None),
        Err(CorpusError::Mismatch {
            arg,
            name,
            index,
            expected,
            actual,
            count,
            ..
        }) => Ok(Some(Mismatch {
            // The workload's own name for the buffer at that argument.
            buffer: match prepared.args.get(arg) {
                Some(PreparedArg::Buffer(b)) => prepared
                    .buffers
                    .get(*b)
                    .map_or_else(|| name.to_string(), |hb| hb.name.clone()),
                _ => name.to_string(),
            },
            index,
            expected,
            actual,
            differing: count,
        })),
        Err(e) => Err(err(e.to_string())),
    }
}

/// A scalar argument as the corpus's `ScalarValue` (u32, i32, u64, f32).
fn scalar_of(workload: &Workload, i: usize, bytes: &[u8]) -> Result<ScalarValue, String> {
    let elem = match workload.args.get(i).map(|a| &a.kind) {
        Some(super::ArgKind::Scalar { elem, .. }) => *elem,
        _ => return Err(format!("argument {i} is not a scalar")),
    };
    let mut q = [0u8; 8];
    q[..bytes.len().min(8)].copy_from_slice(&bytes[..bytes.len().min(8)]);
    let raw = u64::from_le_bytes(q);
    Ok(match elem {
        ElemType::U32 => ScalarValue::U32(raw as u32),
        ElemType::I32 => ScalarValue::I32(raw as i32),
        ElemType::U64 => ScalarValue::U64(raw),
        ElemType::F32 => ScalarValue::F32(f32::from_bits(raw as u32)),
        other => return Err(format!("argument {i}: the corpus has no {other} scalars")),
    })
}
