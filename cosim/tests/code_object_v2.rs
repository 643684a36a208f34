//! A code object v2 kernel (`amd_kernel_code_t` in `.text`, `NT_AMD_HSA_*`
//! notes, the fixture `hw/arch/tests/data/code_object/v2_gfx803.co`) runs end to
//! end on the golden GPU: the driver takes its argument layout from the v2 YAML
//! metadata, the dispatcher its initial state (kernarg pointer in s[0:1],
//! workgroup id x in s2, work-item id x in v0) from `amd_kernel_code_t`.

use std::path::Path;

use cosim::workload::{execute, Workload};
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::Driver;

#[test]
fn copy_v2_copies_every_element() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hw/arch/tests/data/code_object/v2_gfx803.co");
    let text = format!(
        "kernel: {{ code_object: {}, name: copy_v2 }}
grid: 512
workgroup: 64
buffers:
  - {{ name: dst, type: i32, length: 512 }}
  - {{ name: src, type: i32, length: 512, init: {{ random_bits: {{ seed: 7 }} }} }}
args: [ {{ buffer: dst }}, {{ buffer: src }}, {{ i32: 512 }} ]
",
        fixture.display()
    );
    let w = Workload::parse(&text, Path::new("v2.yaml")).unwrap();
    let p = w.prepare().unwrap();
    let gpu = GoldenGpu::new(GoldenConfig::new(arch::isa::Isa::Gfx803)).unwrap();
    let mut driver = Driver::new(gpu).unwrap();
    let finals = execute(&mut driver, &p).unwrap();
    assert_eq!(finals[1].bytes, p.buffers[1].bytes, "src is unchanged");
    assert_eq!(finals[0].bytes, p.buffers[1].bytes, "dst == src");
    assert_ne!(p.buffers[0].bytes, p.buffers[1].bytes);
    let stats = driver.device().stats();
    assert_eq!(stats.waves, 8);
    // Per wave: 10 vector instructions on 64 lanes, 5 scalar ones.
    assert_eq!(stats.active_lane_instructions, 8 * (10 * 64 + 5));
}

/// Corpus kernels converted to code object v2 (`sw/tests/fixtures/v2/`,
/// built by `make-v2.sh` from clang-19 output: `amd_kernel_code_t`, old AMD
/// notes, v2 YAML metadata) run natively on the gfx803 golden GPU and,
/// translated at dispatch, on the gfx1030 golden GPU: the final buffers are
/// identical byte for byte and pass the corpus reference on both.
#[test]
fn converted_v2_corpus_kernels_translate_and_match_native() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for name in ["saxpy", "matmul_tiled", "histogram", "private_scratch"] {
        let fixture = root.join(format!("sw/tests/fixtures/v2/{name}.v2.co"));
        let bytes = std::fs::read(&fixture).unwrap();
        let object = arch::code_object::CodeObject::parse(&bytes).unwrap();
        assert_eq!(object.version().number(), 2, "{name}: a v2 object");
        let corpus_yaml = root.join(format!("workloads/corpus/gfx803/{name}.yaml"));
        let text: String = std::fs::read_to_string(&corpus_yaml)
            .unwrap()
            .lines()
            .map(|l| {
                if l.starts_with("kernel:") {
                    format!(
                        "kernel: {{ code_object: {}, name: {name} }}\n",
                        fixture.display()
                    )
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        let w = Workload::parse(&text, &corpus_yaml).unwrap();
        let p = w.prepare().unwrap();
        let mut finals = Vec::new();
        for isa in [arch::isa::Isa::Gfx803, arch::isa::Isa::Gfx1030] {
            let gpu = GoldenGpu::new(GoldenConfig::new(isa)).unwrap();
            let mut driver = Driver::new(gpu).unwrap();
            let out = execute(&mut driver, &p).unwrap_or_else(|e| panic!("{name} {isa:?}: {e}"));
            let report = cosim::workload::check(&w, &p, &out).unwrap();
            assert!(
                report.passed(),
                "{name} on {isa:?}: {:?}",
                report.first_mismatch()
            );
            if isa == arch::isa::Isa::Gfx1030 {
                assert_eq!(driver.xlate_stats().translations, 1, "{name}: translated");
            }
            finals.push(out);
        }
        for (n, t) in finals[0].iter().zip(&finals[1]) {
            assert!(
                n.bytes == t.bytes,
                "{name}: buffer differs native/translated"
            );
        }
    }
}

/// With LLVM 19 installed, a fresh `make-v2.sh` build equals the committed
/// v2 fixtures (skipped, and said so, without it).
#[test]
fn v2_fixtures_match_a_fresh_llvm_build() {
    use std::process::Command;
    let missing = corpus::missing_tools(&["clang-19", "llvm-mc-19", "ld.lld-19", "python3"]);
    if !missing.is_empty() {
        eprintln!(
            "skipping the v2 fixture drift check: {} not on PATH",
            missing.join(", ")
        );
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sw/tests/fixtures/v2/make-v2.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg("--check")
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{} --check failed (run it without --check and commit):\n{}\n{}",
        script.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
