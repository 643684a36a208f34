//! The `gpusim` binary: outputs and exit codes for good and bad input.

use std::path::Path;
use std::process::{Command, Output};

fn gpusim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpusim"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .expect("gpusim runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[test]
fn disasm_hex_words_and_bytes() {
    let o = gpusim(&["disasm", "--arch", "gfx1030", "--hex", "BF810000 7E000280"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "s_endpgm\nv_mov_b32_e32 v0, 0\n"
    );
    let o = gpusim(&["disasm", "--arch", "gfx803", "--hex", "0x00,0x00,0x81,0xbf"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "s_endpgm\n");
}

#[test]
fn disasm_wave64_names_lane_masks() {
    // v_cndmask_b32_e32 v0, v1, v2, vcc(_lo)
    let w32 = gpusim(&["disasm", "--arch", "gfx1030", "--hex", "02000501"]);
    let w64 = gpusim(&[
        "disasm", "--arch", "gfx1030", "--wave64", "--hex", "02000501",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&w32.stdout),
        "v_cndmask_b32_e32 v0, v1, v2, vcc_lo\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&w64.stdout),
        "v_cndmask_b32_e32 v0, v1, v2, vcc\n"
    );
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let o = gpusim(&["disasm", "--arch", "gfx1030", "--hex", "BF81"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("BF81"), "{}", stderr(&o));

    // Truncated: a VOP3 word without its second dword.
    let o = gpusim(&["disasm", "--arch", "gfx1030", "--hex", "D5767D00"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("truncated"), "{}", stderr(&o));

    let o = gpusim(&["disasm", "no/such/file.hsaco"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no/such/file.hsaco"), "{}", stderr(&o));

    // Not an ELF file at all.
    let o = gpusim(&["info", "Cargo.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("Cargo.toml"), "{}", stderr(&o));

    // The clocked models run gfx1030 only: asking for the native gfx803 GPU with
    // them is bad input, named as the user wrote it.
    let o = gpusim(&[
        "run",
        "workloads/corpus/gfx803/saxpy.yaml",
        "--model",
        "cycle",
        "--device",
        "gfx803",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--model cycle runs gfx1030 code"),
        "{}",
        stderr(&o)
    );

    // A bad GPU configuration names the file, line, column, field and reason.
    let dir = std::env::temp_dir().join(format!("gpusim-cli-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("gpu.yaml");
    std::fs::write(&config, "cus: 1\ncu:\n  simds: 3\n").unwrap();
    let o = gpusim(&[
        "run",
        "workloads/corpus/gfx1030/saxpy.yaml",
        "--model",
        "cycle",
        "--config",
        config.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("gpu.yaml:") && err.contains("simds"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);

    // Waveform options without a waveform file.
    let o = gpusim(&[
        "run",
        "workloads/corpus/gfx1030/saxpy.yaml",
        "--trace",
        "gpu.*",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--vcd"), "{}", stderr(&o));
}

#[test]
fn a_trace_glob_matching_nothing_stops_before_the_run_and_leaves_no_file() {
    let dir = std::env::temp_dir().join(format!("gpusim-cli-glob-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let vcd = dir.join("t.vcd");
    let run = |model: &str, glob: &str| {
        gpusim(&[
            "run",
            "workloads/corpus/gfx1030/saxpy.yaml",
            "--model",
            model,
            "--vcd",
            vcd.to_str().unwrap(),
            "--trace",
            glob,
        ])
    };
    for model in ["cycle", "lockstep"] {
        let o = run(model, "gpu.cu0.*,gpu.cu0.vlau*");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{model}: {err}");
        assert!(
            err.contains("`gpu.cu0.vlau*` matches no signal (close: gpu.cu0."),
            "{model}: {err}"
        );
        // Stopped at setup: no run, so no data check and no statistics.
        assert!(
            !String::from_utf8_lossy(&o.stdout).contains("cycles"),
            "{model}"
        );
        assert!(!vcd.exists(), "{model}: {} was left behind", vcd.display());
    }
    // A glob that selects signals still writes them.
    let o = run("cycle", "gpu.cu0.*");
    assert!(o.status.success(), "{}", stderr(&o));
    let w = traces::read::Waveform::load(&vcd).unwrap();
    assert!(w.signals().count() > 0 && w.signals().all(|(n, _)| n.starts_with("gpu.cu0.")));
    // The functional model has no clock: refused before any file is made.
    let o = run("functional", "gpu.*");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no clock"), "{}", stderr(&o));
    let _ = std::fs::remove_file(&vcd);
    let o = run("functional", "gpu.*");
    assert_eq!(o.status.code(), Some(2));
    assert!(!vcd.exists(), "functional left {}", vcd.display());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn asm_round_trips_through_disasm() {
    let dir = std::env::temp_dir().join(format!("gpusim-cli-asm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("k.s");
    std::fs::write(
        &src,
        "s_mov_b32 s0, 0x1234\nv_add_f32 v0, v1, v2 ; comment\ns_endpgm\n",
    )
    .unwrap();
    let o = gpusim(&["asm", "--arch", "gfx1030", src.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("v_add_f32_e32 v0, v1, v2\t; encoding: [0x01,0x05,0x00,0x06]"),
        "{text}"
    );

    std::fs::write(&src, "s_mov_b32 s0, 1\n  v_bogus v0\n").unwrap();
    let o = gpusim(&["asm", "--arch", "gfx1030", src.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("k.s:2:3"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn info_shows_kernel_arguments() {
    let o = gpusim(&["info", "tests/kernels/prebuilt/gfx1030/saxpy.hsaco"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("saxpy"), "{text}");
    assert!(text.contains("global_buffer"), "{text}");
}

/// A lockstep mismatch exits 4 with the report and leaves a waveform of the
/// cycles before it, ending at the mismatch's cycle.
#[test]
fn a_lockstep_mismatch_exits_4_and_writes_the_waveform_before_it() {
    let dir = std::env::temp_dir().join(format!("gpusim-cli-mismatch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let vcd = dir.join("before.vcd");
    let workload = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../workloads/corpus/gfx1030/saxpy.yaml"
    );
    let o = gpusim(&[
        "run",
        workload,
        "--model",
        "lockstep",
        "--config",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../hw/configs/1cu.yaml"),
        "--inject-valu-lane",
        "1,0,3",
        "--mismatch-vcd",
        vcd.to_str().unwrap(),
        "--mismatch-cycles",
        "500",
        "--trace",
        "gpu.cu0.*",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(err.contains("lane 3"), "{err}");
    let line = err
        .lines()
        .find(|l| l.starts_with("waveform of cycles "))
        .unwrap_or_else(|| panic!("no waveform line in:\n{err}"));
    // "waveform of cycles A..=B (the mismatch is at the last): PATH"
    let range = line["waveform of cycles ".len()..]
        .split(' ')
        .next()
        .unwrap();
    let (a, b) = range.split_once("..=").unwrap();
    let (a, b): (u64, u64) = (a.parse().unwrap(), b.parse().unwrap());
    assert_eq!(b - a, 500, "{line}");
    assert!(line.ends_with(vcd.to_str().unwrap()), "{line}");
    let w = traces::read::Waveform::load(&vcd).unwrap();
    assert_eq!(w.cycles().first(), Some(&a));
    assert_eq!(w.cycles().last(), Some(&b));
    assert!(w.signals().all(|(n, _)| n.starts_with("gpu.cu0.")));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `gpusim translate` writes a gfx1030 code object that llvm-objdump-19
/// disassembles exactly as `gpusim disasm` does (when LLVM is installed), and
/// that runs — natively, nothing left to translate — with the final memory
/// of the legacy object on the gfx803 GPU.
#[test]
fn translate_writes_an_object_llvm_disassembles_and_gpusim_runs() {
    let dir = std::env::temp_dir().join(format!("gpusim-cli-translate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = dir.join("saxpy.gfx1030.hsaco");
    let o = gpusim(&[
        "translate",
        "tests/kernels/prebuilt/gfx803/saxpy.hsaco",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = std::fs::read(&out).unwrap();
    let co = arch::code_object::CodeObject::parse(&bytes).unwrap();
    assert_eq!(co.isa(), Some(arch::isa::Isa::Gfx1030));

    let ours = gpusim(&["disasm", out.to_str().unwrap()]);
    assert!(ours.status.success(), "{}", stderr(&ours));
    let ours = String::from_utf8_lossy(&ours.stdout).to_string();
    assert!(ours.contains("v_add_co_u32"), "{ours}");
    match Command::new("llvm-objdump-19")
        .args(["-d", "--mattr=+wavefrontsize64"])
        .arg(&out)
        .output()
    {
        Ok(llvm) if llvm.status.success() => {
            let llvm = String::from_utf8_lossy(&llvm.stdout).to_string();
            let insts = |t: &str| -> Vec<String> {
                t.lines()
                    .filter(|l| l.starts_with('\t'))
                    .map(|l| l.trim().to_string())
                    .collect()
            };
            assert!(insts(&llvm).len() > 20, "{llvm}");
            assert_eq!(insts(&llvm), insts(&ours));
        }
        _ => eprintln!("llvm-objdump-19 not installed: disassembly not compared"),
    }

    // The same launch from the legacy and the translated object.
    let legacy = std::fs::read_to_string(root.join("workloads/corpus/gfx803/saxpy.yaml")).unwrap();
    let translated = legacy
        .replace(
            "kernel: { corpus: saxpy, target: gfx803 }",
            &format!("kernel: {{ code_object: {} }}", out.display()),
        )
        .replace("checks:\n  - reference: corpus\n", "");
    assert_ne!(legacy, translated);
    let finals = |text: &str, isa: arch::isa::Isa| {
        let w =
            cosim::workload::Workload::parse(text, &root.join("workloads/corpus/gfx803/x.yaml"))
                .unwrap();
        let p = w.prepare().unwrap();
        let gpu = golden::GoldenGpu::new(golden::GoldenConfig::new(isa)).unwrap();
        let mut driver = sw::driver::Driver::new(gpu).unwrap();
        let finals = cosim::workload::execute(&mut driver, &p).unwrap();
        assert_eq!(driver.xlate_stats().translations, 0);
        finals.into_iter().map(|b| b.bytes).collect::<Vec<_>>()
    };
    assert_eq!(
        finals(&translated, arch::isa::Isa::Gfx1030),
        finals(&legacy, arch::isa::Isa::Gfx803)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
