//! Workload semaphores: `wait` acquires ahead of the dispatch and `signal`
//! releases behind it, on the driver's channel, checked on the golden GPU.

use std::path::Path;

use arch::command::SemaphoreCompare;
use cosim::workload::{execute, Wait, Workload, WorkloadError};
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::Driver;

const SAXPY: &str = "kernel: { corpus: saxpy, target: gfx1030 }
grid: 256
workgroup: 256
buffers:
  - { name: x, type: f32, length: 256, init: { iota: { start: 1 } } }
  - { name: y, type: f32, length: 256, init: { fill: 2 } }
  - { name: flag, type: u32, length: 4, init: { values: [0, 5, 0, 0] } }
args: [ { u32: 256 }, { f32: 3.0 }, { buffer: x }, { buffer: y } ]
";

fn parse(text: &str) -> Result<Workload, WorkloadError> {
    Workload::parse(text, Path::new("dir/w.yaml"))
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn satisfied_waits_run_the_kernel_and_signals_land_after_it() {
    let w = parse(&format!(
        "{SAXPY}wait:\n  - {{ buffer: flag, index: 1, eq: 5 }}\n  - {{ buffer: flag, index: 1, ge: 4 }}\n\
         signal:\n  - {{ buffer: flag, index: 3, value: 9 }}\n  - {{ buffer: flag, value: 0xffffffff }}\n"
    ))
    .unwrap();
    assert_eq!(
        w.wait[0],
        Wait {
            buffer: "flag".into(),
            index: 1,
            payload: 5,
            compare: SemaphoreCompare::Equal
        }
    );
    assert_eq!(w.wait[1].compare, SemaphoreCompare::GreaterOrEqual);
    let p = w.prepare().unwrap();
    assert_eq!((p.waits[0].buffer, p.waits[0].offset), (2, 4));
    assert_eq!((p.signals[0].offset, p.signals[0].payload), (12, 9));
    let gpu = GoldenGpu::new(GoldenConfig::new(arch::isa::Isa::Gfx1030)).unwrap();
    let mut driver = Driver::new(gpu).unwrap();
    let finals = execute(&mut driver, &p).unwrap();
    assert_eq!(words(&finals[2].bytes), [0xffff_ffff, 5, 0, 9]);
    // The kernel ran: y = 3·x + 2.
    let y: Vec<f32> = words(&finals[1].bytes)
        .into_iter()
        .map(f32::from_bits)
        .collect();
    assert_eq!(y[0], 5.0);
    assert_eq!(y[255], 3.0 * 256.0 + 2.0);
}

#[test]
fn an_equal_wait_on_another_value_blocks_and_says_where() {
    let w = parse(&format!(
        "{SAXPY}wait:\n  - {{ buffer: flag, index: 1, eq: 4 }}\n"
    ))
    .unwrap();
    let p = w.prepare().unwrap();
    let gpu = GoldenGpu::new(GoldenConfig::new(arch::isa::Isa::Gfx1030)).unwrap();
    let mut driver = Driver::new(gpu).unwrap();
    let e = execute(&mut driver, &p).unwrap_err().to_string();
    assert!(
        e.contains("front end blocked on channel 0 at entry 0"),
        "{e}"
    );
    assert!(e.contains("] == 4 (it holds 5)"), "{e}");
}

#[test]
fn bad_semaphores_are_clear_errors() {
    let cases = [
        (
            "wait:\n  - { buffer: flag, ge: 1, eq: 1 }\n",
            "dir/w.yaml:10:",
            "exactly one of `ge: N` or `eq: N`",
        ),
        (
            "wait:\n  - { buffer: flag }\n",
            "dir/w.yaml:10:",
            "exactly one of",
        ),
        (
            "signal:\n  - { buffer: flag, index: 1 }\n",
            "dir/w.yaml:10:",
            "missing field `value`",
        ),
        (
            "wait:\n  - { buffer: z, ge: 1 }\n",
            "dir/w.yaml: ",
            "wait[0]: unknown buffer `z` (buffers: x, y, flag)",
        ),
        (
            "wait:\n  - { buffer: flag, ge: 1 }\n  - { buffer: flag, index: 4, ge: 1 }\n",
            "dir/w.yaml: ",
            "wait[1]: index 4 is past the end of `flag` (4 elements)",
        ),
        (
            "signal:\n  - { buffer: x, value: 1 }\n  - { buffer: flag, value: 1 }\n  - { buffer: y, index: 300, value: 1 }\n",
            "dir/w.yaml: ",
            "signal[2]: index 300 is past the end of `y` (256 elements)",
        ),
    ];
    for (extra, prefix, message) in cases {
        let e = parse(&format!("{SAXPY}{extra}")).unwrap_err().to_string();
        assert!(e.starts_with(prefix), "{extra}: {e}");
        assert!(e.contains(message), "{extra}: {e}");
    }
    let text = SAXPY.replace("name: flag, type: u32", "name: flag, type: u16");
    let e = parse(&format!("{text}wait:\n  - {{ buffer: flag, ge: 1 }}\n"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("wait[0]: buffer `flag` holds u16 elements; a semaphore is a 32-bit word"),
        "{e}"
    );
}
