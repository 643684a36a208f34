//! The workload files of the corpus: `workloads/corpus/<target>/<kernel>.yaml`,
//! one per corpus kernel and target, rendered from the registry's default
//! launch. A test compares them with this rendering; regenerate them with
//! `GPUSIM_BLESS=1 cargo test -p cosim --test workloads`.

use std::fmt::Write as _;
use std::path::PathBuf;

use corpus::{ArgSpec, CorpusKernel, Init as CInit, ScalarValue, Target};

use super::yaml::target_name;

/// `workloads/` at the repository root.
pub fn workloads_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("workloads")
}

/// Where the workload of `kernel` on `target` lives.
pub fn corpus_workload_path(kernel: &CorpusKernel, target: Target) -> PathBuf {
    workloads_dir()
        .join("corpus")
        .join(target_name(target))
        .join(format!("{}.yaml", kernel.name))
}

fn dims(v: [u32; 3]) -> String {
    // Trailing 1s are implied.
    let n = v.iter().rposition(|&x| x != 1).map_or(1, |i| i + 1);
    let parts: Vec<String> = v[..n].iter().map(u32::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// A float as YAML text that parses back to the same f32.
fn f(v: f32) -> String {
    let s = format!("{v:?}");
    if s.contains('.') || s.contains("inf") || s.contains("NaN") {
        s
    } else if let Some((m, e)) = s.split_once('e') {
        // YAML wants a dot in the mantissa of an exponent float.
        format!("{m}.0e{e}")
    } else {
        format!("{s}.0")
    }
}

fn init(i: &CInit, float_buffer: bool) -> String {
    match *i {
        CInit::Zero => "zero".into(),
        CInit::Fill(bits) => format!("{{ fill_bits: {bits:#x} }}"),
        CInit::Iota { start, step } => format!("{{ iota: {{ start: {start}, step: {step} }} }}"),
        CInit::Int { seed, lo, hi } => format!(
            "{{ random: {{ seed: {seed}, min: {lo}, max: {hi}{} }} }}",
            if float_buffer { ", draw: int" } else { "" }
        ),
        CInit::Float { seed, lo, hi } => format!(
            "{{ random: {{ seed: {seed}, min: {}, max: {}{} }} }}",
            f(lo),
            f(hi),
            if float_buffer { "" } else { ", draw: float" }
        ),
        CInit::Bits { seed } => format!("{{ random_bits: {{ seed: {seed} }} }}"),
        CInit::Permutation { seed } => format!("{{ permutation: {{ seed: {seed} }} }}"),
        CInit::Values(v) => {
            let parts: Vec<String> = v.iter().map(|x| format!("{x:#x}")).collect();
            format!("{{ values: [{}] }}", parts.join(", "))
        }
    }
}

fn elem_name(t: corpus::ElemType) -> &'static str {
    super::ElemType::from_corpus(t).name()
}

/// The workload file text for `kernel`'s default launch on `target`.
pub fn render(kernel: &CorpusKernel, target: Target) -> String {
    let mut s = String::new();
    let l = &kernel.launch;
    let _ = writeln!(s, "# {}: {}", kernel.name, kernel.summary);
    let _ = writeln!(
        s,
        "# Generated from the corpus registry (cosim/corpus-ref/src/kernels/{}.rs); regenerate with\n# GPUSIM_BLESS=1 cargo test -p cosim --test workloads",
        kernel.name
    );
    let _ = writeln!(
        s,
        "kernel: {{ corpus: {}, target: {} }}",
        kernel.name,
        target_name(target)
    );
    let _ = writeln!(s, "grid: {}", dims(l.dims.grid));
    let _ = writeln!(s, "workgroup: {}", dims(l.dims.local));
    let _ = writeln!(s, "buffers:");
    for a in l.args {
        if let ArgSpec::Buffer(b) = a {
            let float = b.elem == corpus::ElemType::F32;
            let _ = writeln!(
                s,
                "  - {{ name: {}, type: {}, length: {}, init: {} }}",
                b.name,
                elem_name(b.elem),
                b.len,
                init(&b.init, float)
            );
        }
    }
    let _ = writeln!(s, "args:");
    for a in l.args {
        let line = match a {
            ArgSpec::Buffer(b) => format!("{{ buffer: {} }}", b.name),
            ArgSpec::Scalar { name, value } => match value {
                ScalarValue::U32(v) => format!("{{ name: {name}, u32: {v} }}"),
                ScalarValue::I32(v) => format!("{{ name: {name}, i32: {v} }}"),
                ScalarValue::U64(v) => format!("{{ name: {name}, u64: {v} }}"),
                ScalarValue::F32(v) => format!("{{ name: {name}, f32: {} }}", f(*v)),
            },
            ArgSpec::Local { name, bytes } => format!("{{ name: {name}, local: {bytes} }}"),
        };
        let _ = writeln!(s, "  - {line}");
    }
    let _ = writeln!(s, "checks:");
    let _ = writeln!(s, "  - reference: corpus");
    s
}

/// Where the workload of work-creation kernel `kernel` on `target` lives:
/// `workloads/work/<target>/<kernel>.yaml`.
pub fn work_workload_path(kernel: &corpus::work::WorkKernel, target: Target) -> PathBuf {
    workloads_dir()
        .join("work")
        .join(target_name(target))
        .join(format!("{}.yaml", kernel.name()))
}

/// The workload file text for a work-creation kernel's default launch on
/// `target`: the corpus rendering with `kernel: { work: … }` and a
/// `work_queue:` section from the registry.
pub fn render_work(kernel: &corpus::work::WorkKernel, target: Target) -> String {
    let body = render(&kernel.kernel, target);
    let mut s = String::new();
    let _ = writeln!(s, "# {}: {}", kernel.name(), kernel.kernel.summary);
    let _ = writeln!(
        s,
        "# Generated from the work registry (cosim/corpus-ref/src/kernels/{}.rs); regenerate with\n# GPUSIM_BLESS=1 cargo test -p cosim --test work_creation",
        kernel.name()
    );
    for line in body.lines().skip(3) {
        if line.starts_with("kernel:") {
            let _ = writeln!(
                s,
                "kernel: {{ work: {}, target: {} }}",
                kernel.name(),
                target_name(target)
            );
            let _ = writeln!(
                s,
                "work_queue: {{ children: [{}], entries: {}, heap_bytes: {} }}",
                kernel.children.join(", "),
                kernel.entries,
                kernel.heap_bytes
            );
        } else {
            let _ = writeln!(s, "{line}");
        }
    }
    s
}
