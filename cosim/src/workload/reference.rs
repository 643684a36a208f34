//! `reference: corpus`: the corpus kernels' Rust references as the expected
//! results — for one dispatch, or replaying a `steps:` program on the host
//! through the same interpreter the device run used.

use corpus::{ArgValue, BufferData, CorpusError, CorpusKernel, Dims, ScalarValue};

use super::mismatch::Mismatch;
use super::steps::{run_program, Machine, ProgramRun};
use super::{
    corpus_kernel_of, Arg, ArgKind, ElemType, HostBuffer, Prepared, PreparedArg, Workload,
    WorkloadError,
};

fn reference_error(kernel: &CorpusKernel, message: String) -> WorkloadError {
    WorkloadError::Reference {
        kernel: kernel.name.to_string(),
        message,
    }
}

/// The corpus argument values of one dispatch: buffers from `buffer(b)`
/// (declaration index `b`), scalars typed by the written `arg_kinds`.
fn values(
    kernel: &CorpusKernel,
    args: &[PreparedArg],
    written: &[Arg],
    buffer: &dyn Fn(usize) -> Option<HostBuffer>,
) -> Result<Vec<ArgValue>, WorkloadError> {
    let err = |m: String| reference_error(kernel, m);
    args.iter()
        .enumerate()
        .map(|(i, a)| {
            Ok(match a {
                PreparedArg::Buffer(b) => {
                    let hb =
                        buffer(*b).ok_or_else(|| err(format!("argument {i}: no buffer {b}")))?;
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
                    ArgValue::Scalar(scalar_of(written.get(i), i, v).map_err(&err)?)
                }
                PreparedArg::Local(n) => ArgValue::Local { bytes: *n },
                PreparedArg::BufferAt { .. } => {
                    return Err(err(format!(
                        "argument {i}: a buffer at an `offset:` has no corpus reference"
                    )))
                }
            })
        })
        .collect()
}

/// A scalar argument as the corpus's `ScalarValue` (u32, i32, u64, f32).
fn scalar_of(written: Option<&Arg>, i: usize, bytes: &[u8]) -> Result<ScalarValue, String> {
    let elem = match written.map(|a| &a.kind) {
        Some(ArgKind::Scalar { elem, .. }) => *elem,
        Some(ArgKind::Vector { .. }) => {
            return Err(format!("argument {i}: the corpus has no vector arguments"))
        }
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

/// Compares two argument lists with the kernel's per-buffer modes; a
/// mismatch names the workload's buffer.
fn compare(
    kernel: &CorpusKernel,
    args: &[PreparedArg],
    buffers: &[HostBuffer],
    expected: &[ArgValue],
    got: &[ArgValue],
) -> Result<Option<Mismatch>, WorkloadError> {
    match kernel.check_against(expected, got) {
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
            buffer: match args.get(arg) {
                Some(PreparedArg::Buffer(b)) => buffers
                    .get(*b)
                    .map_or_else(|| name.to_string(), |hb| hb.name.clone()),
                _ => name.to_string(),
            },
            index,
            expected,
            actual,
            differing: count,
            report: None,
        })),
        Err(e) => Err(reference_error(kernel, e.to_string())),
    }
}

/// One dispatch against the corpus reference run on the initial buffers.
pub(super) fn corpus_check(
    workload: &Workload,
    prepared: &Prepared,
    actual: &[HostBuffer],
) -> Result<Option<Mismatch>, WorkloadError> {
    let kernel = workload
        .corpus_kernel()
        .ok_or_else(|| workload.invalid("`reference: corpus` needs a corpus kernel".into()))?;
    let initial = |b: usize| prepared.buffers.get(b).cloned();
    let mut expected = values(kernel, &prepared.args, &workload.args, &initial)?;
    let dims = Dims {
        grid: workload.grid,
        local: workload.workgroup,
    };
    kernel
        .run_reference(&dims, &mut expected)
        .map_err(|e| reference_error(kernel, e.to_string()))?;
    let finals = |b: usize| actual.get(b).cloned();
    let got = values(kernel, &prepared.args, &workload.args, &finals)?;
    compare(kernel, &prepared.args, &prepared.buffers, &expected, &got)
}

/// The host as a program [`Machine`]: slots are host buffers, a dispatch is
/// the step kernel's corpus reference.
struct Host<'a> {
    workload: &'a Workload,
    prepared: &'a Prepared,
    slots: Vec<HostBuffer>,
}

impl Machine for Host<'_> {
    type Error = WorkloadError;

    fn dispatch(&mut self, step: usize, bindings: &[usize]) -> Result<(), WorkloadError> {
        let (s, ws) = (&self.prepared.steps[step], &self.workload.steps[step]);
        let kernel = corpus_kernel_of(&ws.kernel).ok_or_else(|| {
            self.workload
                .invalid(format!("step `{}`: not a corpus kernel", s.name))
        })?;
        let slots = &self.slots;
        let bound = |b: usize| bindings.get(b).and_then(|&slot| slots.get(slot)).cloned();
        let mut vals = values(kernel, &s.args, &ws.args, &bound)?;
        let dims = Dims {
            grid: s.dims.grid,
            local: s.dims.workgroup,
        };
        kernel
            .run_reference(&dims, &mut vals)
            .map_err(|e| reference_error(kernel, format!("step `{}`: {e}", s.name)))?;
        for (a, v) in s.args.iter().zip(vals) {
            if let (PreparedArg::Buffer(b), ArgValue::Buffer(data)) = (a, v) {
                self.slots[bindings[*b]].bytes = data.to_le_bytes();
            }
        }
        Ok(())
    }

    fn write(&mut self, slot: usize, offset: u64, bytes: &[u8]) -> Result<(), WorkloadError> {
        let o = offset as usize;
        self.slots[slot].bytes[o..o + bytes.len()].copy_from_slice(bytes);
        Ok(())
    }

    fn read(&mut self, slot: usize, offset: u64, len: usize) -> Result<Vec<u8>, WorkloadError> {
        let o = offset as usize;
        Ok(self.slots[slot].bytes[o..o + len].to_vec())
    }

    fn buffers(&mut self, bindings: &[usize]) -> Result<Vec<HostBuffer>, WorkloadError> {
        Ok(self
            .prepared
            .buffers
            .iter()
            .zip(bindings)
            .map(|(b, &slot)| HostBuffer {
                name: b.name.clone(),
                elem: b.elem,
                bytes: self.slots[slot].bytes.clone(),
            })
            .collect())
    }
}

/// Runs the whole `steps:` program on the corpus references, snapshotting
/// after every step a check names.
pub(super) fn reference_replay(
    workload: &Workload,
    prepared: &Prepared,
) -> Result<ProgramRun, WorkloadError> {
    let wanted: Vec<&str> = workload.checks.iter().filter_map(|c| c.after()).collect();
    let mut host = Host {
        workload,
        prepared,
        slots: prepared.buffers.clone(),
    };
    run_program(prepared, &wanted, &mut host)
}

/// A `steps:` run against its replay: every buffer compared with the
/// corpus mode of the argument it is passed as in the step checked after
/// (the last step by default); buffers that step does not take, exactly.
pub(super) fn steps_reference_check(
    workload: &Workload,
    prepared: &Prepared,
    replay: &ProgramRun,
    after: Option<&str>,
    actual: &[HostBuffer],
) -> Result<Option<Mismatch>, WorkloadError> {
    let expected = match after {
        None => &replay.finals,
        Some(step) => replay
            .snapshots
            .iter()
            .find(|(n, _)| n == step)
            .map(|(_, b)| b)
            .ok_or_else(|| workload.invalid(format!("no replay snapshot after `{step}`")))?,
    };
    if let Some((step, n)) = replay.unconverged.first() {
        return Ok(Some(Mismatch {
            buffer: format!("(step `{step}`)"),
            index: 0,
            expected: "the reference's `until` to hold".into(),
            actual: format!("the reference did not converge in {n} iterations"),
            differing: 0,
            report: None,
        }));
    }
    let last = match after {
        None => prepared.steps.len() - 1,
        Some(step) => prepared
            .steps
            .iter()
            .position(|s| s.name == step)
            .unwrap_or(prepared.steps.len() - 1),
    };
    let (s, ws) = (&prepared.steps[last], &workload.steps[last]);
    let kernel = corpus_kernel_of(&ws.kernel)
        .ok_or_else(|| workload.invalid(format!("step `{}`: not a corpus kernel", s.name)))?;
    let from = |list: &[HostBuffer]| {
        let list = list.to_vec();
        move |b: usize| list.get(b).cloned()
    };
    let want = values(kernel, &s.args, &ws.args, &from(expected))?;
    let got = values(kernel, &s.args, &ws.args, &from(actual))?;
    if let Some(m) = compare(kernel, &s.args, &prepared.buffers, &want, &got)? {
        return Ok(Some(m));
    }
    for (i, (e, a)) in expected.iter().zip(actual).enumerate() {
        let passed = s.args.contains(&PreparedArg::Buffer(i));
        if passed || e.bytes == a.bytes {
            continue;
        }
        let n = e.elem.size();
        let differing: Vec<usize> = (0..e.len())
            .filter(|&k| e.bytes[k * n..(k + 1) * n] != a.bytes[k * n..(k + 1) * n])
            .collect();
        let k = differing[0];
        return Ok(Some(Mismatch {
            buffer: e.name.clone(),
            index: k,
            expected: e.elem.format(&e.bytes, k),
            actual: a.elem.format(&a.bytes, k),
            differing: differing.len(),
            report: None,
        }));
    }
    Ok(None)
}
