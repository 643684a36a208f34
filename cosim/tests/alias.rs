//! Seed 002 through the workload runner: `workloads/alias/*.yaml` name a
//! source kernel (`kernel: { source: … }`) and overlapping pointer
//! arguments (`{ buffer: b, offset: N }`). Each runs on the golden GPU
//! twice: as written — the driver analyses the arguments and the JIT's
//! variant runs — and with the original code object; the buffers must be
//! bit-identical. compute_output is also checked against a host model of
//! the loop (lanes in lockstep, as one wave runs it).

use std::path::{Path, PathBuf};

use arch::isa::Isa;
use cosim::workload::{execute, HostBuffer, Prepared, PreparedArg, Workload};
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::Driver;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../workloads/alias")
}

fn run(p: &Prepared) -> Vec<HostBuffer> {
    let gpu = GoldenGpu::new(GoldenConfig::new(Isa::Gfx1030)).unwrap();
    let mut d = Driver::new(gpu).unwrap();
    execute(&mut d, p).unwrap_or_else(|e| panic!("{e}"))
}

fn words(b: &HostBuffer) -> Vec<u32> {
    b.bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn load(name: &str) -> Prepared {
    let w = Workload::load(&dir().join(format!("{name}.yaml"))).unwrap_or_else(|e| panic!("{e}"));
    w.prepare().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_alias_workload_equals_the_original_kernel() {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "yaml").then(|| p.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    names.sort();
    assert!(names.len() >= 7, "{names:?}");
    for name in names {
        let p = load(&name);
        assert!(p.code_object_path.extension().is_some_and(|e| e == "cl"));
        let jit = run(&p);
        // The same code object, not recognised as source: no analysis, no variant.
        let mut original = p.clone();
        original.code_object_path = PathBuf::from("original.hsaco");
        // Not a source build: dispatched as compiled, without seed 002.
        original.source = None;
        let orig = run(&original);
        assert_eq!(jit, orig, "{name}: the recompiled kernel differs");
    }
    let st = cosim::workload::alias::stats();
    assert!(st.analyses >= 7 && st.recompilations >= 6, "{st:?}");
}

/// compute_output's loop on the host, lanes in lockstep: at each step every
/// lane loads, then every lane stores.
fn compute_output_model(p: &Prepared) -> Vec<Vec<u32>> {
    let mut mem: Vec<Vec<u32>> = p.buffers.iter().map(words).collect();
    let at = |a: &PreparedArg| match *a {
        PreparedArg::Buffer(b) => (b, 0usize),
        PreparedArg::BufferAt { buffer, offset } => (buffer, offset as usize / 4),
        _ => panic!("not a buffer"),
    };
    let (inp, out, cdf) = (at(&p.args[0]), at(&p.args[2]), at(&p.args[3]));
    let PreparedArg::Value(v) = &p.args[4] else {
        panic!()
    };
    let per = u32::from_le_bytes([v[0], v[1], v[2], v[3]]) as usize;
    let lanes = p.dims.grid[0] as usize;
    for t in 0..per {
        let vals: Vec<u32> = (0..lanes)
            .map(|l| {
                let x = mem[inp.0][inp.1 + l * per + t];
                mem[cdf.0][cdf.1 + x as usize]
            })
            .collect();
        for (l, v) in vals.into_iter().enumerate() {
            mem[out.0][out.1 + l * per + t] = v;
        }
    }
    mem
}

#[test]
fn compute_output_workloads_equal_the_sequential_loop() {
    for name in [
        "compute_output_disjoint",
        "compute_output_identical",
        "compute_output_overlap_d2",
        "compute_output_overlap_d6",
    ] {
        let p = load(name);
        let got: Vec<Vec<u32>> = run(&p).iter().map(words).collect();
        assert_eq!(got, compute_output_model(&p), "{name}");
    }
}

#[test]
fn offset_arguments_are_checked_against_the_buffer() {
    let text = "
kernel: { source: ../../tests/kernels/alias/alias_copy_scale.cl }
grid: 32
workgroup: 32
buffers: [ { name: d, type: f32, length: 8 } ]
args: [ { buffer: d, offset: 32 }, { buffer: d }, { f32: 1.0 }, { u32: 1 } ]
";
    let w = Workload::parse(text, &dir().join("inline.yaml")).unwrap();
    let e = w.prepare().unwrap_err().to_string();
    assert!(
        e.contains("offset 32 is past the end of `d` (32 bytes)"),
        "{e}"
    );
    let text = text.replace("{ f32: 1.0 }", "{ f32: 1.0, offset: 4 }");
    let e = Workload::parse(&text, &dir().join("inline.yaml"))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("`offset` goes with `buffer`"), "{e}");
}

/// The compiler bounds each pointer's reach for the launch, so two halves
/// of one buffer that the kernel uses separately are disjoint; without the
/// bound (to the end of the allocation) they overlap. Then the variant is
/// the disjoint one, and the results equal the original kernel's.
#[test]
fn compiler_bounded_reach_makes_separate_halves_of_one_buffer_disjoint() {
    use compiler::specialise::reach::reach;
    use cosim::workload::alias::{analyse, compile_source};
    use sw::driver::alias::Relation as R;
    use sw::driver::{Arg, LaunchDims};

    let source =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels/alias/alias_copy_scale.cl");
    let compiled = compile_source(&source, &Default::default()).unwrap();
    let gpu = GoldenGpu::new(GoldenConfig::new(Isa::Gfx1030)).unwrap();
    let mut d = Driver::new(gpu).unwrap();
    let program = d.load(&compiled.code_object).unwrap();
    let kernel = program.kernel("copy_scale").unwrap().clone();
    let buf = d.create_buffer(&vec![0u8; 2048 * 4]).unwrap();
    // in = data[0..1024), out = data[1024..2048): 32 work-items × 32 each.
    let args = [
        Arg::Buffer(buf.address + 4096),
        Arg::Buffer(buf.address),
        Arg::f32(0.5),
        Arg::u32(32),
    ];
    let dims = LaunchDims::linear(32, 32);
    let bounded = analyse(&d, &reach(&compiled.ir[0]), &kernel, &args, dims).unwrap();
    assert_eq!(bounded.pairs.len(), 1);
    assert_eq!(bounded.pairs[0].relation, R::Disjoint { gap_bytes: 0 });
    assert_eq!(bounded.regions[0].size(), 4096);
    let unbounded = d.analyse_aliases(&kernel, &args).unwrap();
    assert!(matches!(
        unbounded.pairs[0].relation,
        R::PartialOverlap { .. }
    ));
    // One more work-item per row of the launch and the halves meet.
    let wider = analyse(
        &d,
        &reach(&compiled.ir[0]),
        &kernel,
        &args,
        LaunchDims::linear(33, 33),
    )
    .unwrap();
    assert!(matches!(wider.pairs[0].relation, R::PartialOverlap { .. }));

    // The workload of this layout runs the disjoint variant; it equals the original.
    let p = load("copy_scale_halves");
    let jit = run(&p);
    let mut original = p.clone();
    original.code_object_path = PathBuf::from("original.hsaco");
    original.source = None;
    assert_eq!(jit, run(&original));
}
