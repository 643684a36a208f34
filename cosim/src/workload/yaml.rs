//! The YAML schema, as serde types. Every structural check happens while
//! deserialising (`Raw` types converted inside their YAML node, see
//! `located.rs`), so its error carries serde_norway's line
//! and column.

use std::collections::BTreeMap;
use std::path::PathBuf;

use arch::command::{SemaphoreCompare, SubvectorHint};
use corpus::Target;
use serde::Deserialize;

use super::alias::SourceBuild;
use super::data::{Draw, ElemType, Init, Number};
use super::located::located;

located!(KernelRef, RawKernel);
located!(Dim3, RawDim3);
located!(Buffer, RawBuffer);
located!(Arg, RawArg);
located!(Check, RawCheck);
located!(Tolerance, RawTolerance);
located!(Wait, RawWait);

/// The whole file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawWorkload {
    pub kernel: KernelRef,
    pub grid: Dim3,
    pub workgroup: Dim3,
    #[serde(default)]
    pub buffers: Vec<Buffer>,
    #[serde(default)]
    pub args: Vec<Arg>,
    #[serde(default)]
    pub checks: Vec<Check>,
    #[serde(default)]
    pub wait: Vec<Wait>,
    #[serde(default)]
    pub signal: Vec<Signal>,
    #[serde(default)]
    pub work_queue: Option<RawWorkQueue>,
    #[serde(default)]
    pub steps: Option<Vec<RawStep>>,
    #[serde(default)]
    pub subvector_mode: Option<SubvectorMode>,
    /// `shared_vgprs:` VGPRs the parts of a wave share in sub-vector order
    /// (seed 000 §2); overrides the code object's sub-vector note.
    #[serde(default)]
    pub shared_vgprs: Option<u8>,
}

/// `subvector_mode:` the driver's issue-order indication for the dispatch
/// (seed 000 §4, docs/variable-wavefront.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) enum SubvectorMode {
    Conventional,
    Subvector,
    Auto,
}

impl SubvectorMode {
    /// The packet field the driver writes.
    pub fn hint(self) -> SubvectorHint {
        match self {
            SubvectorMode::Conventional => SubvectorHint::Conventional,
            SubvectorMode::Subvector => SubvectorHint::Subvector,
            SubvectorMode::Auto => SubvectorHint::Auto,
        }
    }
}

/// `work_queue:` as written (defaults are filled in by `Workload::parse`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawWorkQueue {
    pub children: Option<Vec<String>>,
    pub entries: Option<u32>,
    pub heap_bytes: Option<u32>,
    pub channel: Option<u32>,
    pub priority: Option<u32>,
    pub first_entry: Option<u32>,
    pub launches: Option<u32>,
}

/// Which kernel to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelRef {
    /// A corpus kernel's prebuilt code object.
    Corpus {
        /// Corpus kernel name.
        name: String,
        /// Compilation target.
        target: Target,
    },
    /// A work-creation corpus kernel's prebuilt code object
    /// (`tests/kernels/work/prebuilt/T/NAME.hsaco`, seed 001).
    Work {
        /// Parent kernel name.
        name: String,
        /// Compilation target.
        target: Target,
    },
    /// A code object file.
    CodeObject {
        /// Path as written (resolved against the workload's directory on load).
        path: PathBuf,
        /// Kernel name; `None`: the object's only kernel.
        name: Option<String>,
    },
    /// OpenCL C source compiled by gpusim's compiler (`-O`, gfx1030
    /// wave32 unless `options:` say otherwise) when the workload is
    /// prepared; every dispatch of it goes through seed 002's alias
    /// analysis and recompilation unless `alias_analysis: false`.
    Source {
        /// Path as written (resolved against the workload's directory on load).
        path: PathBuf,
        /// Kernel name; `None`: the file's only kernel.
        name: Option<String>,
        /// Compiler options and the alias-analysis switch.
        build: SourceBuild,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKernel {
    corpus: Option<String>,
    work: Option<String>,
    target: Option<String>,
    code_object: Option<PathBuf>,
    name: Option<String>,
    source: Option<PathBuf>,
    options: Option<OptionWords>,
    defines: Option<BTreeMap<String, Option<DefineValue>>>,
    alias_analysis: Option<bool>,
}

/// `options:` as one string (`"-DTILE=16 -cl-fast-relaxed-math"`, split at
/// white space) or a list of words.
#[derive(Deserialize)]
#[serde(untagged)]
enum OptionWords {
    Line(String),
    Words(Vec<String>),
}

/// A `defines:` value: `TILE: 16`, `MODE: fast`, `FLAG: true`; `FLAG: ~`
/// defines the name without a value (`-DFLAG`).
#[derive(Deserialize)]
#[serde(untagged)]
enum DefineValue {
    Int(i64),
    Float(f64),
    Bool(bool),
    Text(String),
}

impl std::fmt::Display for DefineValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DefineValue::Int(v) => write!(f, "{v}"),
            DefineValue::Float(v) => write!(f, "{v:?}"),
            DefineValue::Bool(v) => write!(f, "{}", u8::from(*v)),
            DefineValue::Text(v) => write!(f, "{v}"),
        }
    }
}

/// A source kernel's build from its `options:`, `defines:` and
/// `alias_analysis:` (the options checked as `gpusim compile` would).
fn source_build(r: &mut RawKernel) -> Result<SourceBuild, String> {
    let mut options: Vec<String> = match r.options.take() {
        None => Vec::new(),
        Some(OptionWords::Line(l)) => l.split_whitespace().map(str::to_string).collect(),
        Some(OptionWords::Words(w)) => w,
    };
    for (name, value) in r.defines.take().into_iter().flatten() {
        if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == '=') {
            return Err(format!("defines: `{name}` is not a macro name"));
        }
        options.push(match value {
            Some(v) => format!("-D{name}={v}"),
            None => format!("-D{name}"),
        });
    }
    let build = SourceBuild {
        options,
        alias_analysis: r.alias_analysis.unwrap_or(true),
    };
    build
        .compile_options()
        .map_err(|e| format!("options: {e}"))?;
    Ok(build)
}

/// The names `target:` accepts, and their targets.
pub const TARGET_NAMES: [(&str, Target); 3] = [
    ("gfx803", Target::GFX803),
    ("gfx1030", Target::GFX1030_W32),
    ("gfx1030-w64", Target::GFX1030_W64),
];

/// The YAML name of a target.
pub fn target_name(t: Target) -> &'static str {
    corpus::target_dir(t)
}

impl TryFrom<RawKernel> for KernelRef {
    type Error = String;
    fn try_from(mut r: RawKernel) -> Result<Self, String> {
        if let Some(path) = r.source.take() {
            if r.corpus.is_some() || r.work.is_some() || r.code_object.is_some() {
                return Err("`source` names the kernel alone (with an optional `name`)".into());
            }
            if r.target.is_some() {
                return Err(
                    "`target` goes with `corpus`; a source kernel is compiled for gfx1030".into(),
                );
            }
            let build = source_build(&mut r)?;
            return Ok(KernelRef::Source {
                path,
                name: r.name,
                build,
            });
        }
        if r.options.is_some() || r.defines.is_some() || r.alias_analysis.is_some() {
            return Err("`options`, `defines` and `alias_analysis` go with `source`: other kernels are compiled already".into());
        }
        if let Some(name) = r.work {
            if r.corpus.is_some() || r.code_object.is_some() || r.name.is_some() {
                return Err("`work` names the kernel alone (with `target`)".into());
            }
            if corpus::work::find(&name).is_none() {
                let known: Vec<&str> = corpus::work::all().iter().map(|k| k.name()).collect();
                return Err(format!(
                    "unknown work-creation kernel `{name}` (known: {})",
                    known.join(", ")
                ));
            }
            let target = parse_target(r.target)?;
            return Ok(KernelRef::Work { name, target });
        }
        match (r.corpus, r.code_object) {
            (Some(name), None) => {
                if r.name.is_some() {
                    return Err(
                        "`name` goes with `code_object`; a corpus kernel is named by `corpus`"
                            .into(),
                    );
                }
                if corpus::find(&name).is_none() {
                    let known: Vec<&str> = corpus::all().iter().map(|k| k.name).collect();
                    return Err(format!(
                        "unknown corpus kernel `{name}` (known: {})",
                        known.join(", ")
                    ));
                }
                let target = parse_target(r.target)?;
                Ok(KernelRef::Corpus { name, target })
            }
            (None, Some(path)) => {
                if r.target.is_some() {
                    return Err(
                        "`target` goes with `corpus`; a code object names its own processor".into(),
                    );
                }
                Ok(KernelRef::CodeObject { path, name: r.name })
            }
            _ => Err(
                "`kernel` needs exactly one of `corpus` or `work` (with `target`), `code_object` or `source`"
                    .into(),
            ),
        }
    }
}

fn parse_target(t: Option<String>) -> Result<Target, String> {
    let t = t.ok_or("a corpus kernel needs `target: gfx803|gfx1030|gfx1030-w64`")?;
    TARGET_NAMES
        .iter()
        .find(|(n, _)| *n == t)
        .map(|(_, t)| *t)
        .ok_or_else(|| format!("unknown target `{t}` (known: gfx803, gfx1030, gfx1030-w64)"))
}

/// Sizes per dimension: a number or a list of 1–3 numbers (missing ones are 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim3(pub [u32; 3]);

#[derive(Deserialize)]
#[serde(untagged)]
enum RawDim3 {
    One(u32),
    Many(Vec<u32>),
}

impl TryFrom<RawDim3> for Dim3 {
    type Error = String;
    fn try_from(r: RawDim3) -> Result<Self, String> {
        let v = match r {
            RawDim3::One(x) => vec![x],
            RawDim3::Many(v) => v,
        };
        if v.is_empty() || v.len() > 3 {
            return Err(format!("expected 1 to 3 sizes, got {}", v.len()));
        }
        if v.contains(&0) {
            return Err(format!("sizes must be positive, got {v:?}"));
        }
        let mut d = [1; 3];
        d[..v.len()].copy_from_slice(&v);
        Ok(Dim3(d))
    }
}

/// A buffer declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    /// Name, referenced by `args` and `checks`.
    pub name: String,
    /// Element type.
    pub elem: ElemType,
    /// Number of elements.
    pub length: usize,
    /// Initial contents.
    pub init: Init,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBuffer {
    name: String,
    #[serde(rename = "type")]
    elem: ElemType,
    length: usize,
    #[serde(default)]
    init: RawInit,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum RawInit {
    #[default]
    Zero,
    Fill(Number),
    FillBits(u64),
    Iota {
        #[serde(default)]
        start: i64,
        #[serde(default = "one")]
        step: i64,
    },
    Random {
        seed: u64,
        min: Number,
        max: Number,
        draw: Option<Draw>,
    },
    RandomBits {
        seed: u64,
    },
    Permutation {
        seed: u64,
    },
    Values(Vec<Number>),
    File(PathBuf),
}

fn one() -> i64 {
    1
}

/// Largest buffer a workload may declare (1 GiB).
const MAX_BUFFER_BYTES: usize = 1 << 30;

impl TryFrom<RawBuffer> for Buffer {
    type Error = String;
    fn try_from(r: RawBuffer) -> Result<Self, String> {
        if r.name.is_empty() {
            return Err("a buffer needs a non-empty `name`".into());
        }
        if r.length
            .checked_mul(r.elem.size())
            .map_or(true, |b| b > MAX_BUFFER_BYTES)
        {
            return Err(format!(
                "buffer `{}`: {} elements of {} exceed the 1 GiB limit",
                r.name, r.length, r.elem
            ));
        }
        let init = match r.init {
            RawInit::Zero => Init::Zero,
            RawInit::Fill(n) => {
                n.encode(r.elem)
                    .map_err(|e| format!("buffer `{}`: fill: {e}", r.name))?;
                Init::Fill(n)
            }
            RawInit::FillBits(b) => Init::FillBits(b),
            RawInit::Iota { start, step } => Init::Iota { start, step },
            RawInit::Random {
                seed,
                min,
                max,
                draw,
            } => Init::Random {
                seed,
                min: min.as_f64(),
                max: max.as_f64(),
                draw: draw.unwrap_or(if r.elem.is_float() {
                    Draw::Float
                } else {
                    Draw::Int
                }),
            },
            RawInit::RandomBits { seed } => Init::RandomBits { seed },
            RawInit::Permutation { seed } => Init::Permutation { seed },
            RawInit::Values(v) => {
                if v.len() > r.length {
                    return Err(format!(
                        "buffer `{}`: {} values for {} elements",
                        r.name,
                        v.len(),
                        r.length
                    ));
                }
                for n in &v {
                    n.encode(r.elem)
                        .map_err(|e| format!("buffer `{}`: values: {e}", r.name))?;
                }
                Init::Values(v)
            }
            RawInit::File(p) => Init::File(p),
        };
        Ok(Buffer {
            name: r.name,
            elem: r.elem,
            length: r.length,
            init,
        })
    }
}

/// One kernel argument, in kernel-signature order.
#[derive(Clone, Debug, PartialEq)]
pub struct Arg {
    /// Optional parameter name, checked against the code object's
    /// argument metadata when it has names.
    pub name: Option<String>,
    /// What is passed.
    pub kind: ArgKind,
    /// For a buffer: bytes into it the pointer starts at (`offset:`), so two
    /// pointer arguments can overlap (seed 002). 0 otherwise.
    pub offset: u64,
}

/// What an argument passes.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgKind {
    /// A buffer by name.
    Buffer(String),
    /// A by-value scalar.
    Scalar {
        /// Its type.
        elem: ElemType,
        /// Its value as written.
        value: Number,
    },
    /// A `__local` pointer with this many bytes of LDS.
    Local(u32),
    /// A by-value OpenCL vector (`uint2`, `float4`, ...), written as a list
    /// of 2, 3, 4, 8 or 16 elements (a 3-vector occupies 4 elements, as in
    /// OpenCL).
    Vector {
        /// The element type.
        elem: ElemType,
        /// The elements as written.
        values: Vec<Number>,
    },
}

impl ArgKind {
    /// The by-value bytes of a scalar or vector argument (`None` for buffers
    /// and LDS).
    pub fn value_bytes(&self) -> Option<Result<Vec<u8>, String>> {
        match self {
            ArgKind::Scalar { elem, value } => Some(value.encode(*elem)),
            ArgKind::Vector { elem, values } => Some((|| {
                let mut out = Vec::new();
                for v in values {
                    out.extend(v.encode(*elem)?);
                }
                if values.len() == 3 {
                    // OpenCL: a 3-component vector has the size of a 4-component one.
                    out.extend(std::iter::repeat(0).take(elem.size()));
                }
                Ok(out)
            })()),
            _ => None,
        }
    }
}

/// A scalar written as one number, or a vector as a list.
#[derive(Deserialize)]
#[serde(untagged)]
enum NumberOrList {
    One(Number),
    Many(Vec<Number>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArg {
    name: Option<String>,
    buffer: Option<String>,
    offset: Option<u64>,
    local: Option<u32>,
    i8: Option<NumberOrList>,
    u8: Option<NumberOrList>,
    i16: Option<NumberOrList>,
    u16: Option<NumberOrList>,
    i32: Option<NumberOrList>,
    u32: Option<NumberOrList>,
    i64: Option<NumberOrList>,
    u64: Option<NumberOrList>,
    f32: Option<NumberOrList>,
    f64: Option<NumberOrList>,
}

impl TryFrom<RawArg> for Arg {
    type Error = String;
    fn try_from(r: RawArg) -> Result<Self, String> {
        let scalars = [
            (ElemType::I8, r.i8),
            (ElemType::U8, r.u8),
            (ElemType::I16, r.i16),
            (ElemType::U16, r.u16),
            (ElemType::I32, r.i32),
            (ElemType::U32, r.u32),
            (ElemType::I64, r.i64),
            (ElemType::U64, r.u64),
            (ElemType::F32, r.f32),
            (ElemType::F64, r.f64),
        ];
        let mut kinds: Vec<ArgKind> = Vec::new();
        for (elem, v) in scalars {
            match v {
                None => {}
                Some(NumberOrList::One(value)) => kinds.push(ArgKind::Scalar { elem, value }),
                Some(NumberOrList::Many(values)) => {
                    if ![2, 3, 4, 8, 16].contains(&values.len()) {
                        return Err(format!(
                            "a vector argument has 2, 3, 4, 8 or 16 elements; {} given",
                            values.len()
                        ));
                    }
                    kinds.push(ArgKind::Vector { elem, values })
                }
            }
        }
        kinds.extend(r.buffer.map(ArgKind::Buffer));
        kinds.extend(r.local.map(ArgKind::Local));
        if kinds.len() != 1 {
            return Err(format!(
                "an argument needs exactly one of `buffer`, `local` or a scalar type key (i8 … f64); {} given",
                kinds.len()
            ));
        }
        let kind = kinds.remove(0);
        if let Some(bytes) = kind.value_bytes() {
            bytes?;
        }
        if r.offset.is_some() && !matches!(kind, ArgKind::Buffer(_)) {
            return Err("`offset` goes with `buffer`".into());
        }
        Ok(Arg {
            name: r.name,
            kind,
            offset: r.offset.unwrap_or(0),
        })
    }
}

/// What to check after the run.
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// Every buffer against the corpus kernel's Rust reference, each with
    /// the corpus's comparison mode. With `steps:`, the reference replays
    /// every step (writes, swaps, `until`) on the host.
    CorpusReference {
        /// Compare the buffers as they were after this named step (default:
        /// after the last one).
        after: Option<String>,
    },
    /// One buffer against a file of raw little-endian elements.
    File {
        /// Buffer name.
        buffer: String,
        /// Path as written (resolved against the workload's directory on load).
        expected: PathBuf,
        /// Allowed difference.
        tolerance: Tolerance,
        /// Which elements are compared.
        elements: Elements,
        /// Compare the buffer as it was after this named step (default:
        /// after the last one).
        after: Option<String>,
    },
}

impl Check {
    /// The step this check looks after (`None`: the end of the run).
    pub fn after(&self) -> Option<&str> {
        match self {
            Check::CorpusReference { after } | Check::File { after, .. } => after.as_deref(),
        }
    }
}

/// Which elements of a buffer a file check compares.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Elements {
    /// Half-open element range `[start, end)`; `None`: all.
    pub range: Option<(usize, usize)>,
    /// Only elements whose mask element is non-zero.
    pub mask: Option<Mask>,
}

/// A mask of compared elements (non-zero = compared), one mask element per
/// buffer element.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Mask {
    /// A workload buffer's initial contents (any element type).
    Buffer(String),
    /// A file of bytes, one per element (resolved against the workload's directory).
    File(PathBuf),
}

/// Allowed difference between expected and actual elements.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Tolerance {
    /// Identical bits.
    #[default]
    Exact,
    /// Floats at most this many units in the last place apart (integers: exact).
    Ulp(u64),
    /// `|actual - expected| <= abs` (any type; NaN matches only NaN).
    Abs(f64),
    /// NumPy's `allclose`: `|actual - expected| <= abs + rel * |expected|`
    /// (NaN matches only NaN; infinities only themselves).
    Close {
        /// Absolute part.
        abs: f64,
        /// Relative part.
        rel: f64,
    },
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawTolerance {
    Name(String),
    Map(RawToleranceMap),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawToleranceMap {
    ulp: Option<u64>,
    abs: Option<f64>,
    rel: Option<f64>,
}

impl TryFrom<RawTolerance> for Tolerance {
    type Error = String;
    fn try_from(r: RawTolerance) -> Result<Self, String> {
        let m = match r {
            RawTolerance::Name(n) if n == "exact" => return Ok(Tolerance::Exact),
            RawTolerance::Name(n) => {
                return Err(format!(
                    "unknown tolerance `{n}` (exact, {{ ulp: N }}, {{ abs: X }}, {{ rel: R }}, {{ abs: X, rel: R }})"
                ))
            }
            RawTolerance::Map(m) => m,
        };
        for (key, v) in [("abs", m.abs), ("rel", m.rel)] {
            if let Some(v) = v {
                if !(v >= 0.0 && v.is_finite()) {
                    return Err(format!(
                        "tolerance `{key}` must be finite and >= 0, got {v}"
                    ));
                }
            }
        }
        match (m.ulp, m.abs, m.rel) {
            (Some(n), None, None) => Ok(Tolerance::Ulp(n)),
            (None, Some(a), None) => Ok(Tolerance::Abs(a)),
            (None, abs, Some(rel)) => Ok(Tolerance::Close {
                abs: abs.unwrap_or(0.0),
                rel,
            }),
            (Some(_), ..) => Err("`ulp` cannot be combined with `abs` or `rel`".into()),
            (None, None, None) => {
                Err("a tolerance needs `ulp`, `abs`, `rel` or `abs` with `rel`".into())
            }
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCheck {
    reference: Option<String>,
    buffer: Option<String>,
    expected: Option<PathBuf>,
    tolerance: Option<Tolerance>,
    range: Option<[usize; 2]>,
    mask: Option<Mask>,
    after: Option<String>,
}

impl TryFrom<RawCheck> for Check {
    type Error = String;
    fn try_from(r: RawCheck) -> Result<Self, String> {
        match (r.reference, r.buffer, r.expected) {
            (Some(reference), None, None) => {
                if reference != "corpus" {
                    return Err(format!(
                        "unknown reference `{reference}` (the only built-in reference is `corpus`)"
                    ));
                }
                if r.tolerance.is_some() || r.range.is_some() || r.mask.is_some() {
                    return Err("`reference: corpus` uses the corpus's own tolerances over whole buffers; drop `tolerance`, `range` and `mask`".into());
                }
                Ok(Check::CorpusReference { after: r.after })
            }
            (None, Some(buffer), Some(expected)) => {
                if let Some([start, end]) = r.range {
                    if start >= end {
                        return Err(format!("range [{start}, {end}] is empty (it is [start, end), end exclusive)"));
                    }
                }
                Ok(Check::File {
                    buffer,
                    expected,
                    tolerance: r.tolerance.unwrap_or_default(),
                    elements: Elements {
                        range: r.range.map(|[a, b]| (a, b)),
                        mask: r.mask,
                    },
                    after: r.after,
                })
            }
            _ => Err("a check is either `reference: corpus` or `buffer:` with `expected:` (and optional `tolerance:`, `range:`, `mask:`, `after:`)".into()),
        }
    }
}

/// A semaphore acquire the front end performs before the dispatch: the
/// channel blocks until the 32-bit word `buffer[index]` satisfies the
/// comparison (seed 001 §3's semaphore commands, in the same channel).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wait {
    /// The buffer holding the semaphore word (32-bit elements).
    pub buffer: String,
    /// Element index of the word.
    pub index: usize,
    /// The value compared against.
    pub payload: u32,
    /// `ge` (unsigned `word >= payload`) or `eq`.
    pub compare: SemaphoreCompare,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWait {
    buffer: String,
    #[serde(default)]
    index: usize,
    ge: Option<u32>,
    eq: Option<u32>,
}

impl TryFrom<RawWait> for Wait {
    type Error = String;
    fn try_from(r: RawWait) -> Result<Self, String> {
        let (payload, compare) = match (r.ge, r.eq) {
            (Some(p), None) => (p, SemaphoreCompare::GreaterOrEqual),
            (None, Some(p)) => (p, SemaphoreCompare::Equal),
            _ => return Err("a wait needs exactly one of `ge: N` or `eq: N`".into()),
        };
        Ok(Wait {
            buffer: r.buffer,
            index: r.index,
            payload,
            compare,
        })
    }
}

/// A semaphore release the front end performs after the dispatch completes:
/// it writes `value` to the 32-bit word `buffer[index]`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Signal {
    /// The buffer holding the semaphore word (32-bit elements).
    pub buffer: String,
    /// Element index of the word.
    #[serde(default)]
    pub index: usize,
    /// The value written.
    pub value: u32,
}

/// One step as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawStep {
    pub(super) name: Option<String>,
    pub(super) kernel: Option<KernelRef>,
    pub(super) grid: Option<Dim3>,
    pub(super) workgroup: Option<Dim3>,
    pub(super) args: Option<Vec<Arg>>,
    pub(super) repeat: Option<u32>,
    pub(super) until: Option<RawUntil>,
    pub(super) swap: Option<[String; 2]>,
    #[serde(default)]
    pub(super) write: Vec<HostWrite>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawUntil {
    pub(super) buffer: String,
    #[serde(default)]
    pub(super) index: usize,
    pub(super) eq: Option<Number>,
    pub(super) ne: Option<Number>,
}

/// `write: [{ buffer, index, value }]`: an element the host writes before
/// each iteration of the step.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostWrite {
    /// Buffer name.
    pub buffer: String,
    /// Element index.
    #[serde(default)]
    pub index: usize,
    /// The value (must fit the buffer's element type).
    pub value: Number,
}
