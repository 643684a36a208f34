//! End to end (seed 003 §5.1, issue 9): every gfx803 corpus kernel runs on
//! the gfx803 golden GPU natively and, translated at dispatch, on the
//! gfx1030 golden GPU; the final buffers must be identical byte for byte and
//! pass the kernel's Rust reference. The test prints a table of which kernels
//! pass and fails if any kernel of [`MUST_PASS`] does not.

use arch::isa::{Isa, Target};
use corpus::{ArgValue, BufferData, CorpusKernel};
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::{Arg, Driver, LaunchDims};

/// Kernels that pass today; a regression in any of them fails the test.
const MUST_PASS: &[&str] = &["saxpy", "vec4_scale", "int_ops", "reduce_sum"];

/// Final argument values after running `k`'s default launch of `elf` on a
/// golden GPU of `isa`, and the translator's (translations, hits).
fn run(isa: Isa, elf: &[u8], k: &CorpusKernel) -> Result<(Vec<ArgValue>, (u64, u64)), String> {
    let gpu = GoldenGpu::new(GoldenConfig::new(isa)).map_err(|e| e.to_string())?;
    let mut d = Driver::new(gpu).map_err(|e| e.to_string())?;
    let p = d.load(elf).map_err(|e| e.to_string())?;
    let lk = p.kernel(k.name).map_err(|e| e.to_string())?.clone();
    let initial = k.launch.materialize();
    let mut args = Vec::new();
    let mut buffers = Vec::new();
    for v in &initial {
        match v {
            ArgValue::Buffer(b) => {
                let a = d
                    .create_buffer(&b.to_le_bytes())
                    .map_err(|e| e.to_string())?;
                buffers.push(Some((a, b.elem())));
                args.push(Arg::Buffer(a.address));
            }
            ArgValue::Scalar(s) => {
                buffers.push(None);
                args.push(Arg::Value(s.to_le_bytes()));
            }
            ArgValue::Local { bytes } => {
                buffers.push(None);
                args.push(Arg::Local(*bytes));
            }
        }
    }
    let dims = LaunchDims {
        grid: k.launch.dims.grid,
        workgroup: k.launch.dims.local,
    };
    d.launch(&lk, dims, &args).map_err(|e| e.to_string())?;
    let mut out = initial.clone();
    for (slot, b) in out.iter_mut().zip(&buffers) {
        if let Some((a, elem)) = b {
            let bytes = d.download(*a).map_err(|e| e.to_string())?;
            *slot = ArgValue::Buffer(
                BufferData::from_le_bytes(*elem, &bytes).ok_or("buffer read back badly")?,
            );
        }
    }
    let s = d.xlate_stats();
    Ok((out, (s.translations, s.hits)))
}

/// Runs one kernel both ways; `Ok` when translated == native and the
/// reference passes.
fn check(k: &CorpusKernel) -> Result<(), String> {
    let elf = k.load_prebuilt(Target::GFX803).map_err(|e| e.to_string())?;
    let (native, _) = run(Isa::Gfx803, &elf, k).map_err(|e| format!("native: {e}"))?;
    let (translated, (translations, _)) =
        run(Isa::Gfx1030, &elf, k).map_err(|e| format!("translated: {e}"))?;
    if translations != 1 {
        return Err(format!("{translations} translations, expected 1"));
    }
    for (i, (n, t)) in native.iter().zip(&translated).enumerate() {
        if let (ArgValue::Buffer(n), ArgValue::Buffer(t)) = (n, t) {
            let (nb, tb) = (n.to_le_bytes(), t.to_le_bytes());
            if let Some(at) = nb.iter().zip(&tb).position(|(a, b)| a != b) {
                return Err(format!(
                    "argument {i}: translated memory differs from native at byte {at} ({:#04x} vs {:#04x})",
                    tb[at], nb[at]
                ));
            }
        }
    }
    k.check(&translated).map_err(|e| format!("reference: {e}"))
}

#[test]
fn gfx803_corpus_runs_translated_on_gfx1030_like_on_gfx803() {
    let mut failed_required = Vec::new();
    let mut passed = 0;
    let mut report = String::new();
    for k in corpus::all() {
        match check(k) {
            Ok(()) => {
                passed += 1;
                report.push_str(&format!("PASS {}\n", k.name));
            }
            Err(e) => {
                report.push_str(&format!("FAIL {}: {e}\n", k.name));
                if MUST_PASS.contains(&k.name) {
                    failed_required.push(k.name);
                }
            }
        }
    }
    println!(
        "{report}{passed}/{} gfx803 corpus kernels pass translated",
        corpus::all().len()
    );
    assert!(
        failed_required.is_empty(),
        "required kernels failed: {failed_required:?}\n{report}"
    );
}

/// A second dispatch of the same kernel is a cache hit, not a translation.
#[test]
fn redispatch_hits_the_translation_cache() {
    let k = corpus::find("saxpy").expect("saxpy is registered");
    let elf = k
        .load_prebuilt(Target::GFX803)
        .expect("prebuilt gfx803 saxpy");
    let gpu = GoldenGpu::new(GoldenConfig::new(Isa::Gfx1030)).expect("golden gfx1030");
    let mut d = Driver::new(gpu).expect("driver");
    let p = d.load(&elf).expect("gfx803 object loads on gfx1030");
    assert_eq!(d.xlate_stats().translations, 0);
    let lk = p.kernel("saxpy").expect("kernel").clone();
    let x = d.create_buffer(&[0u8; 256]).expect("x");
    let y = d.create_buffer(&[0u8; 256]).expect("y");
    let args = [
        Arg::u32(64),
        Arg::f32(2.0),
        Arg::Buffer(x.address),
        Arg::Buffer(y.address),
    ];
    for _ in 0..3 {
        d.launch(&lk, LaunchDims::linear(64, 64), &args)
            .expect("launch");
    }
    let s = d.xlate_stats();
    assert_eq!((s.translations, s.hits), (1, 2));
    assert!(s.instructions_out >= s.instructions_in);
}

/// Code object v2 (`amd_kernel_code_t`, the hand-written fixture of
/// `hw/arch`): translated from the converted descriptor, it copies like the
/// native run.
#[test]
fn code_object_v2_runs_translated() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../hw/arch/tests/data/code_object/v2_gfx803.co"
    );
    let elf = std::fs::read(path).expect("v2 fixture");
    let src: Vec<u8> = (0..512u32)
        .flat_map(|i| (i.wrapping_mul(0x9e37_79b9) ^ 0x5bd1_e995).to_le_bytes())
        .collect();
    let mut outs = Vec::new();
    for isa in [Isa::Gfx803, Isa::Gfx1030] {
        let gpu = GoldenGpu::new(GoldenConfig::new(isa)).expect("golden");
        let mut d = Driver::new(gpu).expect("driver");
        let p = d.load(&elf).expect("v2 loads");
        let k = p.kernel("copy_v2").expect("kernel").clone();
        let dst = d.create_buffer(&[0u8; 2048]).expect("dst");
        let s = d.create_buffer(&src).expect("src");
        let args = [
            Arg::Buffer(dst.address),
            Arg::Buffer(s.address),
            Arg::i32(512),
        ];
        d.launch(&k, LaunchDims::linear(512, 64), &args)
            .unwrap_or_else(|e| panic!("{isa}: {e}"));
        assert_eq!(d.xlate_stats().translations, u64::from(isa == Isa::Gfx1030));
        outs.push(d.download(dst).expect("read dst"));
    }
    assert_eq!(outs[0], src, "native copies");
    assert_eq!(outs[1], src, "translated copies");
}

/// Ahead of time (`gpusim translate`): each corpus object becomes a gfx1030
/// code object v5 that loads natively on the gfx1030 GPU (no translation at
/// dispatch) and computes what the gfx803 original does.
#[test]
fn translated_code_objects_run_natively_on_gfx1030() {
    let mut checked = 0;
    for name in MUST_PASS {
        let k = corpus::find(name).expect("registered");
        let legacy = k.load_prebuilt(Target::GFX803).expect("prebuilt");
        let new = sw::xlate::translate_object(&legacy).unwrap_or_else(|e| panic!("{name}: {e}"));
        let co = arch::code_object::CodeObject::parse(&new).expect("parses");
        assert_eq!(co.isa(), Some(Isa::Gfx1030));
        assert_eq!(co.kernels()[0].wavefront_size(), 64);
        let (native, _) = run(Isa::Gfx803, &legacy, k).expect("native");
        let (ahead, (translations, _)) = run(Isa::Gfx1030, &new, k).expect("translated object");
        assert_eq!(translations, 0, "{name}: already gfx1030");
        assert_eq!(native, ahead, "{name}");
        checked += 1;
    }
    assert_eq!(checked, MUST_PASS.len());
    assert!(matches!(
        sw::xlate::translate_object(b"nope"),
        Err(sw::xlate::ObjectError::Read(_))
    ));
}
