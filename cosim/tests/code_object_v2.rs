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
