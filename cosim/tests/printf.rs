//! OpenCL `printf` end to end: kernels compiled by clang-19 and linked with
//! ROCm's device library (`ockl`'s `__printf_alloc`, Debian's
//! `rocm-device-libs`) print through the driver's per-dispatch buffer on the
//! functional, cycle and lockstep models, through a [`Session`] and through
//! `gpusim run`. The expected lines are built here with Rust's own
//! formatting (an oracle independent of the driver's formatter, which
//! `sw/tests/printf_format.rs` checks against glibc).
//!
//! Without clang-19 or the ROCm bitcode the tests say so and skip, unless
//! `GPUSIM_REQUIRE_ROCM=1` (set by `.ci/run`), when they fail.

use std::path::{Path, PathBuf};
use std::process::Command;

use cosim::model::Model;
use cosim::session::{Session, SessionOptions};
use sw::driver::printf::PrintfOutput;
use sw::driver::{Arg, LaunchDims};

const BITCODE: &str = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode";

/// Is the toolchain here? Panics when CI requires it and it is missing.
fn toolchain() -> bool {
    let clang = ["clang-19", "ld.lld-19", "llvm-link-19", "llvm-extract-19"]
        .iter()
        .all(|t| {
            Command::new(t)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        });
    let libs = Path::new(BITCODE).join("ockl.bc").exists();
    if clang && libs {
        return true;
    }
    let why = format!(
        "clang-19/ld.lld-19 {} and ROCm's device library {} ({BITCODE}/ockl.bc; apt-get install rocm-device-libs)",
        if clang { "found" } else { "missing" },
        if libs { "found" } else { "missing" }
    );
    if std::env::var_os("GPUSIM_REQUIRE_ROCM").is_some() {
        panic!("GPUSIM_REQUIRE_ROCM is set but {why}");
    }
    eprintln!("skipping the printf end-to-end tests: {why}");
    false
}

/// Compiles `src` with clang-19, linked with the ROCm device library.
fn clang_object(name: &str, src: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpusim-printf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cl = dir.join(format!("{name}.cl"));
    let co = dir.join(format!("{name}.co"));
    std::fs::write(&cl, format!("{CLANG_IDS}{src}")).unwrap();
    let obj = dir.join(format!("{name}.o"));
    // Debian's opencl.bc (rocm-device-libs 5.2) defines `printf` itself,
    // which would hide the call from clang's printf lowering (no
    // `amdhsa.printf` then): the kernel is compiled without the library and
    // ROCm's `__printf_alloc` (opencl.bc, with what it needs from ockl) is
    // linked as an object, as the ROCm runtime's own link step does. The
    // kernels use clang's work-item built-ins rather than opencl.bc's.
    // Per kernel: the tests run in parallel in one directory.
    let extracted = dir.join(format!("{name}.alloc0.bc"));
    let alloc_bc = dir.join(format!("{name}.alloc.bc"));
    let alloc_o = dir.join(format!("{name}.alloc.o"));
    let run = |c: &mut Command, what: &str| {
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "{what} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(
        Command::new("llvm-extract-19")
            .arg("--func=__printf_alloc")
            .arg(format!("{BITCODE}/opencl.bc"))
            .arg("-o")
            .arg(&extracted),
        "llvm-extract-19",
    );
    let mut link = Command::new("llvm-link-19");
    link.arg(&extracted).arg("--only-needed");
    for lib in [
        "opencl",
        "ockl",
        "oclc_abi_version_500",
        "oclc_isa_version_1030",
        "oclc_wavefrontsize64_off",
    ] {
        link.arg(format!("{BITCODE}/{lib}.bc"));
    }
    run(link.arg("-o").arg(&alloc_bc), "llvm-link-19");
    let target = [
        "-target",
        "amdgcn-amd-amdhsa",
        "-mcpu=gfx1030",
        "-nogpulib",
        "-O2",
    ];
    run(
        Command::new("clang-19")
            .args(target)
            .arg("-c")
            .arg(&alloc_bc)
            .arg("-o")
            .arg(&alloc_o),
        "clang-19 (printf_alloc)",
    );
    run(
        Command::new("clang-19")
            .args(["-x", "cl", "-cl-std=CL1.2", "-Wno-format", "-c"])
            .args(target)
            .arg(&cl)
            .arg("-o")
            .arg(&obj),
        "clang-19",
    );
    run(
        Command::new("ld.lld-19")
            .arg("-shared")
            .arg(&obj)
            .arg(&alloc_o)
            .arg("-o")
            .arg(&co),
        "ld.lld-19",
    );
    co
}

/// `KERNEL` reads its ids through these (clang's built-ins without the
/// ROCm library; OpenCL's functions with gpusim's compiler).
const CLANG_IDS: &str = "#define LID ((int)__builtin_amdgcn_workitem_id_x())\n\
    #define GRP ((int)__builtin_amdgcn_workgroup_id_x())\n\
    #define WGS ((int)__builtin_amdgcn_workgroup_size_x())\n";
const GPUSIM_IDS: &str = "#define LID ((int)get_local_id(0))\n\
    #define GRP ((int)get_group_id(0))\n\
    #define WGS ((int)get_local_size(0))\n";

const KERNEL: &str = r#"
__kernel void p(__global int *out, int n) {
    int l = LID;
    int group = GRP;
    int g = group * WGS + l;
    printf("item %3d/%d group %d: %.2f %#x %s|%v4hld|%c\n",
           g, n, group, (float)g * 0.25f, g * 255, "ok",
           (int4)(g, -g, 2 * g, 3), 'A' + l % 26);
    if (g % 16 == 0)
        printf("second call of %d: %e %5s%%\n", g, 1.0 / (g + 1), "x:y");
    out[g] = g;
}
"#;

/// The lines item `g` prints, by Rust's formatting.
fn expected(g: i32, n: i32, group: u32, wg: i32) -> Vec<String> {
    let l = g % wg;
    let mut v = vec![format!(
        "item {g:3}/{n} group {group}: {:.2} {} ok|{},{},{},3|{}\n",
        g as f32 * 0.25,
        if g == 0 {
            "0".to_string()
        } else {
            format!("{:#x}", g * 255)
        },
        g,
        -g,
        2 * g,
        (b'A' + (l % 26) as u8) as char
    )];
    if g % 16 == 0 {
        let e = format!("{:.6e}", 1.0 / f64::from(g + 1));
        // Rust writes e-1 where C writes e-01.
        let (m, x) = e.split_once('e').unwrap();
        let x: i32 = x.parse().unwrap();
        let sign = if x < 0 { '-' } else { '+' };
        v.push(format!(
            "second call of {g}: {m}e{sign}{:02}   x:y%\n",
            x.abs()
        ));
    }
    v
}

fn run(model: Model, co: &Path, grid: u32, wg: u32, buffer: Option<u32>) -> Vec<PrintfOutput> {
    let mut o = SessionOptions::new(model, hw::GpuConfig::default_config());
    o.printf_buffer = buffer;
    let mut s = Session::new(&o).unwrap();
    let elf = std::fs::read(co).unwrap();
    let d = s.driver();
    let program = d.load(&elf).unwrap();
    let out = d.alloc(u64::from(grid) * 4, 256).unwrap();
    let k = program.kernel("p").unwrap().clone();
    d.launch(
        &k,
        LaunchDims::linear(grid, wg),
        &[Arg::Buffer(out.address), Arg::i32(grid as i32)],
    )
    .unwrap();
    let result = d.download(out).unwrap();
    for (i, w) in result.chunks(4).enumerate() {
        assert_eq!(i32::from_le_bytes(w.try_into().unwrap()), i as i32);
    }
    s.take_printf()
}

fn lines(text: &str) -> Vec<String> {
    text.split_inclusive('\n').map(str::to_string).collect()
}

#[test]
fn clang_objects_print_on_every_model() {
    if !toolchain() {
        return;
    }
    let co = clang_object("every_model", KERNEL);
    let (grid, wg) = (96u32, 32u32);
    let mut want: Vec<String> = (0..grid as i32)
        .flat_map(|g| expected(g, grid as i32, g as u32 / wg, wg as i32))
        .collect();
    want.sort();
    for model in [Model::Functional, Model::Cycle, Model::Lockstep] {
        let outputs = run(model, &co, grid, wg, None);
        assert_eq!(outputs.len(), 1, "{model:?}: one dispatch, one output");
        let o = &outputs[0];
        assert!(o.errors.is_empty(), "{model:?}: {:?}", o.errors);
        assert!(!o.full && o.lost.is_none(), "{model:?}: no overflow");
        assert_eq!(o.records, want.len() as u64);
        // clang's records carry no work-item tag: reservation order, which
        // differs between models; the set of lines must be exact.
        let mut got = lines(&o.text);
        got.sort();
        assert_eq!(got, want, "{model:?}");
    }
}

#[test]
fn a_full_buffer_is_reported_not_fatal() {
    if !toolchain() {
        return;
    }
    let co = clang_object("overflow", KERNEL);
    // Room for a few records only (each first call takes 48 bytes).
    let outputs = run(Model::Functional, &co, 64, 32, Some(8 + 48 * 5));
    let o = &outputs[0];
    assert!(o.errors.is_empty(), "{:?}", o.errors);
    assert!(o.records >= 4 && o.records <= 5, "{} records", o.records);
    assert!(o.full);
    let msg = o.overflow_message(8 + 48 * 5).expect("an overflow message");
    assert!(
        msg.contains("printf buffer") && msg.contains("--printf-buffer"),
        "{msg}"
    );
    // Every line that was printed is whole and one of the expected ones.
    let all: Vec<String> = (0..64)
        .flat_map(|g| expected(g, 64, g as u32 / 32, 32))
        .collect();
    for line in lines(&o.text) {
        assert!(all.contains(&line), "unexpected line {line:?}");
    }
}

#[test]
fn gpusim_run_prints_to_stdout() {
    if !toolchain() {
        return;
    }
    let co = clang_object("cli", KERNEL);
    let dir = co.parent().unwrap();
    let yaml = dir.join("printf.yaml");
    std::fs::write(
        &yaml,
        "kernel: { code_object: cli.co, name: p }\ngrid: [32]\nworkgroup: [32]\n\
         buffers:\n  - { name: out, type: i32, length: 32, init: zero }\n\
         args:\n  - { buffer: out }\n  - { name: n, i32: 32 }\n",
    )
    .unwrap();
    for model in ["functional", "cycle", "lockstep"] {
        let out = Command::new(env!("CARGO_BIN_EXE_gpusim"))
            .args(["run", "--model", model])
            .arg(&yaml)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{model}: {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for g in 0..32 {
            for line in expected(g, 32, 0, 32) {
                assert!(
                    stdout.contains(&line),
                    "{model}: {line:?} missing from\n{stdout}"
                );
            }
        }
        // A buffer too small for all 34 records: the run still passes and
        // says how to get the rest.
        let out = Command::new(env!("CARGO_BIN_EXE_gpusim"))
            .args(["run", "--model", model, "--printf-buffer", "200"])
            .arg(&yaml)
            .output()
            .unwrap();
        assert!(out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("printf buffer filled up"),
            "{model}: {stderr}"
        );
    }
}

// ---- gpusim's own objects ---------------------------------------------------

/// `KERNEL` compiled by gpusim.
fn gpusim_object(wave64: bool) -> Vec<u8> {
    let mut o = compiler::CompileOptions::default();
    o.backend.wave64 = wave64;
    let text = format!("{GPUSIM_IDS}{KERNEL}");
    compiler::compile(
        compiler::Source::Text {
            name: "printf.cl",
            text: &text,
        },
        &o,
    )
    .map_err(|d| d.to_string())
    .unwrap()
    .code_object
}

fn run_elf(model: Model, elf: &[u8], grid: u32, wg: u32, buffer: Option<u32>) -> Vec<PrintfOutput> {
    let mut o = SessionOptions::new(model, hw::GpuConfig::default_config());
    o.printf_buffer = buffer;
    let mut s = Session::new(&o).unwrap();
    let d = s.driver();
    let program = d.load(elf).unwrap();
    let out = d.alloc(u64::from(grid) * 4, 256).unwrap();
    let k = program.kernel("p").unwrap().clone();
    d.launch(
        &k,
        LaunchDims::linear(grid, wg),
        &[Arg::Buffer(out.address), Arg::i32(grid as i32)],
    )
    .unwrap();
    let result = d.download(out).unwrap();
    for (i, w) in result.chunks(4).enumerate() {
        assert_eq!(i32::from_le_bytes(w.try_into().unwrap()), i as i32);
    }
    s.take_printf()
}

/// gpusim's records carry the work-item tag: the text is in work-item order
/// (work-group, local id, call order), identical on every model and wave size.
#[test]
fn gpusim_objects_print_in_work_item_order_on_every_model() {
    let (grid, wg) = (96u32, 32u32);
    let want: String = (0..grid as i32)
        .flat_map(|g| expected(g, grid as i32, g as u32 / wg, wg as i32))
        .collect();
    for wave64 in [false, true] {
        let elf = gpusim_object(wave64);
        for model in [Model::Functional, Model::Cycle, Model::Lockstep] {
            let outputs = run_elf(model, &elf, grid, wg, None);
            assert_eq!(outputs.len(), 1);
            let o = &outputs[0];
            assert!(
                o.errors.is_empty(),
                "{model:?} wave64={wave64}: {:?}",
                o.errors
            );
            assert_eq!(o.lost, Some(0));
            assert_eq!(o.text, want, "{model:?} wave64={wave64}");
        }
    }
}

/// gpusim counts the records that did not fit; the ones that did are whole.
#[test]
fn gpusim_objects_count_lost_records() {
    let elf = gpusim_object(false);
    // First calls take 4 (ID) + 4·6 + 16 + 4 + 8 (tag) = 56 bytes: room for 5.
    let outputs = run_elf(Model::Functional, &elf, 64, 32, Some(8 + 56 * 5 + 10));
    let o = &outputs[0];
    assert!(o.errors.is_empty(), "{:?}", o.errors);
    // 64 first calls and 4 second calls; whatever did not fit is counted.
    assert_eq!(
        o.records + o.lost.unwrap(),
        68,
        "{} printed, {:?} lost",
        o.records,
        o.lost
    );
    // Lane order within the first wave: items 0–4 fit.
    assert_eq!(o.records, 5);
    let msg = o.overflow_message(8 + 56 * 5 + 10).unwrap();
    assert!(msg.contains("record(s) lost"), "{msg}");
    let all: Vec<String> = (0..64)
        .flat_map(|g| expected(g, 64, g as u32 / 32, 32))
        .collect();
    for line in lines(&o.text) {
        assert!(all.contains(&line), "unexpected line {line:?}");
    }
}

/// The argument sizes gpusim writes in `amdhsa.printf` are clang's (plus the
/// tag), so each runtime reads the other's records.
#[test]
fn gpusim_formats_match_clangs() {
    if !toolchain() {
        return;
    }
    let co = clang_object("formats", KERNEL);
    let theirs = arch::code_object::CodeObject::parse(&std::fs::read(co).unwrap())
        .unwrap()
        .metadata()
        .printf
        .clone();
    let ours = arch::code_object::CodeObject::parse(&gpusim_object(false))
        .unwrap()
        .metadata()
        .printf
        .clone();
    let parse = |v: &[String]| {
        let mut f: Vec<(Vec<u32>, String)> = v
            .iter()
            .map(|e| {
                let p = sw::driver::printf::PrintfFormat::parse(e).unwrap();
                (p.sizes, p.text)
            })
            .collect();
        f.sort_by(|a, b| a.1.cmp(&b.1));
        f
    };
    let (theirs, mut ours) = (parse(&theirs), parse(&ours));
    for (sizes, _) in &mut ours {
        assert_eq!(
            sizes.pop(),
            Some(8),
            "the work-item tag ends every gpusim record"
        );
    }
    assert_eq!(ours, theirs);
}
