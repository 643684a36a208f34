//! Workloads that are programs: a sequence of dispatches on shared buffers
//! (`steps:`), each with its own kernel, geometry and arguments, a repeat
//! count, an `until` condition read back between iterations, host writes
//! before each iteration and a buffer swap (ping-pong) after it.
//!
//! The sequence is interpreted by [`run_program`] over a [`Machine`]: the
//! device (through the driver, `run.rs`) and the corpus references on the
//! host (`check.rs`) both implement it, so the reference replays exactly the
//! program the device ran.

use sw::driver::LaunchDims;

use super::yaml::{Arg, HostWrite, KernelRef, RawStep};
use super::{HostBuffer, Number, Prepared, PreparedArg};

/// One step of a multi-dispatch workload, with the workload's defaults
/// (kernel, grid, workgroup, args) filled in.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The step's name (`step N`, counting from 0, when none is written).
    pub name: String,
    /// The kernel (a code object path is already resolved).
    pub kernel: KernelRef,
    /// Grid size in work-items.
    pub grid: [u32; 3],
    /// Workgroup size.
    pub workgroup: [u32; 3],
    /// Arguments in kernel order.
    pub args: Vec<Arg>,
    /// Iterations (at least 1); with `until`, the most it may take.
    pub repeat: u32,
    /// Stop iterating once this holds (read after each iteration's swap).
    pub until: Option<Until>,
    /// Two buffers exchanged after each iteration (ping-pong): arguments and
    /// later references by name then see each other's contents.
    pub swap: Option<[String; 2]>,
    /// Host writes before each iteration.
    pub write: Vec<HostWrite>,
}

/// `until: { buffer, index, eq: V }` (or `ne: V`).
#[derive(Clone, Debug, PartialEq)]
pub struct Until {
    /// Buffer holding the element.
    pub buffer: String,
    /// Element index.
    pub index: usize,
    /// The value compared against.
    pub value: Number,
    /// `eq` (stop when equal) or `ne` (stop when different).
    pub equal: bool,
}

/// Largest `repeat` (a typo guard: 10⁶ dispatches is hours on the clocked model).
const MAX_REPEAT: u32 = 1_000_000;

/// Fills a step's defaults from the workload's top level and checks its
/// fields; `buffer` finds a declared buffer's element type and length.
pub(super) fn resolve(
    i: usize,
    raw: RawStep,
    defaults: (&KernelRef, [u32; 3], [u32; 3], &[Arg]),
    buffer: &dyn Fn(&str) -> Option<(super::ElemType, usize)>,
    resolve_kernel: &dyn Fn(KernelRef) -> Result<KernelRef, String>,
) -> Result<Step, String> {
    let name = raw.name.unwrap_or_else(|| format!("step {i}"));
    let item = format!("steps[{i}] (`{name}`)");
    let repeat = raw.repeat.unwrap_or(1);
    if repeat == 0 || repeat > MAX_REPEAT {
        return Err(format!(
            "{item}: repeat {repeat} is not in 1..={MAX_REPEAT}"
        ));
    }
    let known = |b: &str, what: &str| {
        buffer(b).ok_or_else(|| format!("{item}: {what}: unknown buffer `{b}`"))
    };
    let element = |b: &str, index: usize, value: Number, what: &str| -> Result<(), String> {
        let (elem, length) = known(b, what)?;
        if index >= length {
            return Err(format!(
                "{item}: {what}: index {index} is past the end of `{b}` ({length} elements)"
            ));
        }
        value
            .encode(elem)
            .map(|_| ())
            .map_err(|e| format!("{item}: {what}: {e}"))
    };
    for w in &raw.write {
        element(&w.buffer, w.index, w.value, "write")?;
    }
    let until = match raw.until {
        None => None,
        Some(u) => {
            let (value, equal) = match (u.eq, u.ne) {
                (Some(v), None) => (v, true),
                (None, Some(v)) => (v, false),
                _ => {
                    return Err(format!(
                        "{item}: `until` needs exactly one of `eq: V` or `ne: V`"
                    ))
                }
            };
            element(&u.buffer, u.index, value, "until")?;
            Some(Until {
                buffer: u.buffer,
                index: u.index,
                value,
                equal,
            })
        }
    };
    if let Some([a, b]) = &raw.swap {
        let (ea, la) = known(a, "swap")?;
        let (eb, lb) = known(b, "swap")?;
        if a == b {
            return Err(format!("{item}: swap: `{a}` with itself"));
        }
        if (ea, la) != (eb, lb) {
            return Err(format!(
                "{item}: swap: `{a}` ({la} × {ea}) and `{b}` ({lb} × {eb}) differ in type or length"
            ));
        }
    }
    let args = raw.args.unwrap_or_else(|| defaults.3.to_vec());
    for (j, a) in args.iter().enumerate() {
        if let super::ArgKind::Buffer(b) = &a.kind {
            known(b, &format!("args[{j}]"))?;
        }
    }
    let kernel = match raw.kernel {
        None => defaults.0.clone(),
        Some(k) => resolve_kernel(k).map_err(|e| format!("{item}: kernel: {e}"))?,
    };
    Ok(Step {
        name,
        kernel,
        grid: raw.grid.map_or(defaults.1, |d| d.0),
        workgroup: raw.workgroup.map_or(defaults.2, |d| d.0),
        args,
        repeat,
        until,
        swap: raw.swap,
        write: raw.write,
    })
}

/// A step resolved for the driver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreparedStep {
    /// The step's name.
    pub name: String,
    /// Index into [`Prepared::objects`].
    pub object: usize,
    /// The kernel to launch.
    pub kernel_name: String,
    /// Launch geometry.
    pub dims: LaunchDims,
    /// Arguments (buffer indices are declaration indices, bound to
    /// allocations through the swaps so far).
    pub args: Vec<PreparedArg>,
    /// Iterations (the most, with `until`).
    pub repeat: u32,
    /// `(buffer, byte offset, value bytes, stop when equal)`.
    pub until: Option<(usize, u64, Vec<u8>, bool)>,
    /// Buffers exchanged after each iteration.
    pub swap: Option<(usize, usize)>,
    /// `(buffer, byte offset, bytes)` written before each iteration.
    pub writes: Vec<(usize, u64, Vec<u8>)>,
}

/// What a program interpreter drives: the device or a host reference.
/// "Slots" are the storage behind the buffers (allocations, host vectors):
/// buffer `b` lives in slot `bindings[b]`, which swaps change.
pub(crate) trait Machine {
    /// What can go wrong.
    type Error;
    /// Runs step `step` once, to completion.
    fn dispatch(&mut self, step: usize, bindings: &[usize]) -> Result<(), Self::Error>;
    /// Writes bytes into a slot.
    fn write(&mut self, slot: usize, offset: u64, bytes: &[u8]) -> Result<(), Self::Error>;
    /// Reads bytes of a slot.
    fn read(&mut self, slot: usize, offset: u64, len: usize) -> Result<Vec<u8>, Self::Error>;
    /// Every buffer's contents, in declaration order, through `bindings`.
    fn buffers(&mut self, bindings: &[usize]) -> Result<Vec<HostBuffer>, Self::Error>;
}

/// What a program run leaves for the checks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgramRun {
    /// Final contents of every buffer, in declaration order (by name, after swaps).
    pub finals: Vec<HostBuffer>,
    /// Contents after each step named by a check's `after:`.
    pub snapshots: Vec<(String, Vec<HostBuffer>)>,
    /// Steps whose `until` never held, with their iteration counts.
    pub unconverged: Vec<(String, u32)>,
    /// Dispatches issued.
    pub dispatches: u64,
}

/// Runs every step of `p` on `m`, snapshotting the buffers after the steps
/// named in `wanted`.
pub(crate) fn run_program<M: Machine>(
    p: &Prepared,
    wanted: &[&str],
    m: &mut M,
) -> Result<ProgramRun, M::Error> {
    let mut bindings: Vec<usize> = (0..p.buffers.len()).collect();
    let mut run = ProgramRun::default();
    for (s, step) in p.steps.iter().enumerate() {
        let mut done = step.until.is_none();
        for _ in 0..step.repeat {
            for (b, offset, bytes) in &step.writes {
                m.write(bindings[*b], *offset, bytes)?;
            }
            m.dispatch(s, &bindings)?;
            run.dispatches += 1;
            if let Some((a, b)) = step.swap {
                bindings.swap(a, b);
            }
            if let Some((b, offset, value, equal)) = &step.until {
                let got = m.read(bindings[*b], *offset, value.len())?;
                if (got == *value) == *equal {
                    done = true;
                    break;
                }
            }
        }
        if !done {
            run.unconverged.push((step.name.clone(), step.repeat));
        }
        if wanted.contains(&step.name.as_str()) {
            run.snapshots
                .push((step.name.clone(), m.buffers(&bindings)?));
        }
    }
    run.finals = m.buffers(&bindings)?;
    Ok(run)
}
