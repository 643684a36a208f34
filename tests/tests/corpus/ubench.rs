//! Properties of the calibration microbenchmarks' references (and launch
//! data) that the measurements in docs/calibration.md rely on: the chases
//! are single cycles over distinct lines, the LDS chase keeps every lane in
//! its bank (stride 1) or every lane in one bank (stride 32), the chains
//! really depend on their step counts, and unsupported launches are errors.

use corpus::args::buffer;
use corpus::{find, ArgValue, CorpusKernel, Dims, ScalarValue};

fn kernel(name: &str) -> &'static CorpusKernel {
    find(name).unwrap_or_else(|| panic!("{name} is registered"))
}

fn u32s(args: &[ArgValue], i: usize) -> Vec<u32> {
    buffer::<u32>(args, i, 0).expect("uint buffer").to_vec()
}

fn set_u32(args: &mut [ArgValue], i: usize, v: u32) {
    args[i] = ArgValue::Scalar(ScalarValue::U32(v));
}

/// Runs the reference of `name` on its default buffers with scalar `i` = `v`.
fn run_with(name: &str, dims: Dims, scalars: &[(usize, u32)]) -> Vec<ArgValue> {
    let k = kernel(name);
    let mut args = k.launch.materialize();
    for &(i, v) in scalars {
        set_u32(&mut args, i, v);
    }
    k.run_reference(&dims, &mut args)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    args
}

#[test]
fn mem_chase_links_every_line_into_one_cycle() {
    let k = kernel("ubench_mem_chase");
    let fin = k.expected().expect("reference runs");
    let chain = u32s(&fin, 0);
    let order = u32s(&fin, 1);
    let lines = order.len();
    // Follow the links from order[0]: every line exactly once, then back.
    let start = order[0] * 128;
    let mut off = start;
    let mut seen = vec![false; lines];
    for step in 0..lines {
        assert_eq!(
            off % 128,
            0,
            "step {step}: offset {off} is not a line start"
        );
        let line = (off / 128) as usize;
        assert!(!seen[line], "line {line} visited twice after {step} steps");
        seen[line] = true;
        off = chain[line * 32];
    }
    assert_eq!(off, start, "the cycle does not close after {lines} steps");
    // Only the first dword of each line is written.
    let written = chain
        .iter()
        .enumerate()
        .filter(|&(i, &v)| i % 32 != 0 && v != 0)
        .count();
    assert_eq!(written, 0);
    // The default run ends exactly one lap later, back at the start.
    assert_eq!(u32s(&fin, 2), vec![start]);
}

#[test]
fn mem_chase_steps_move_the_end_and_bad_launches_are_errors() {
    let k = kernel("ubench_mem_chase");
    let dims = k.launch.dims;
    let a = run_with("ubench_mem_chase", dims, &[(4, 0)]);
    let b = run_with("ubench_mem_chase", dims, &[(4, 1)]);
    let order = u32s(&a, 1);
    assert_eq!(u32s(&a, 2), vec![order[0] * 128]);
    assert_eq!(u32s(&b, 2), vec![order[1] * 128]);
    // Two work-groups would link the chain twice (and race): refused.
    let two = Dims {
        grid: [512, 1, 1],
        local: [256, 1, 1],
    };
    let mut args = k.launch.materialize();
    assert!(k.run_reference(&two, &mut args).is_err());
    // A non-permutation order is refused rather than silently chased.
    let mut args = k.launch.materialize();
    if let ArgValue::Buffer(corpus::BufferData::U32(o)) = &mut args[1] {
        o[1] = o[0];
    }
    assert!(k.run_reference(&dims, &mut args).is_err());
}

#[test]
fn lds_chase_stride_1_spreads_banks_and_stride_32_hits_one_bank() {
    let k = kernel("ubench_lds_chase");
    for wave in [32usize, 64] {
        let dims = Dims {
            grid: [wave as u32, 1, 1],
            local: [wave as u32, 1, 1],
        };
        for steps in [0u32, 1, 7, 100] {
            let free = u32s(&run_with(k.name, dims, &[(2, 1), (3, steps)]), 1);
            let conflict = u32s(&run_with(k.name, dims, &[(2, 32), (3, steps)]), 1);
            for half in free[..wave].chunks(32).chain(conflict[..wave].chunks(32)) {
                let mut addrs: Vec<u32> = half.to_vec();
                addrs.sort_unstable();
                addrs.dedup();
                assert_eq!(
                    addrs.len(),
                    half.len(),
                    "steps {steps}: lanes share an address"
                );
            }
            for (lane, &off) in free[..wave].iter().enumerate() {
                assert_eq!((off / 4) % 32, (lane % 32) as u32, "stride 1, lane {lane}");
            }
            for &off in &conflict[..wave] {
                assert_eq!((off / 4) % 32, 0, "stride 32 leaves bank 0");
            }
        }
    }
}

#[test]
fn smem_table_is_one_cycle_through_different_lines() {
    let k = kernel("ubench_smem_chain");
    let init = k.launch.materialize();
    let table = u32s(&init, 0);
    let mut off = 0u32;
    let mut seen = vec![false; table.len()];
    for _ in 0..table.len() {
        let i = (off / 4) as usize;
        assert!(!seen[i], "entry {i} visited twice");
        seen[i] = true;
        let next = table[i];
        // Consecutive loads fall in different 64-byte scalar-cache lines.
        assert_ne!(next / 64, off / 64, "{off} -> {next} stays in one line");
        off = next;
    }
    assert_eq!(off, 0);
    // 1000 steps of +17 (mod 64): entry 1000 * 17 mod 64 = 40.
    assert_eq!(u32s(&k.expected().unwrap(), 1), vec![40 * 4]);
}

#[test]
fn alu_chains_depend_on_their_lengths() {
    let k = kernel("ubench_valu_chain");
    let dims = k.launch.dims;
    let init = k.launch.materialize();
    let zero = run_with(k.name, dims, &[(9, 0), (10, 0), (11, 0)]);
    // Zero-length chains copy the seeds and leave the group id.
    assert_eq!(u32s(&zero, 2), u32s(&init, 0));
    assert_eq!(
        buffer::<f32>(&zero, 3, 0).unwrap(),
        buffer::<f32>(&init, 1, 0).unwrap()
    );
    assert_eq!(u32s(&zero, 4), vec![0]);
    // One step of each, computed by hand from the launch's constants.
    let one = run_with(k.name, dims, &[(9, 1), (10, 1), (11, 1)]);
    let (a, b) = (0x9e37_79b9u32, 0x7f4a_7c15u32);
    let x0 = u32s(&init, 0)[5];
    assert_eq!(u32s(&one, 2)[5], (x0 ^ a).wrapping_add(b));
    let f0 = buffer::<f32>(&init, 1, 0).unwrap()[5];
    assert_eq!(
        buffer::<f32>(&one, 3, 0).unwrap()[5],
        f0.mul_add(0.999, 0.001)
    );
    assert_eq!(u32s(&one, 4), vec![b]);
    // One more step changes every lane's integer result (no seed reaches a
    // fixed point of x -> (x ^ a) + b).
    let full = k.expected().unwrap();
    let shorter = run_with(k.name, dims, &[(9, 1023), (10, 1023)]);
    assert!(u32s(&full, 2)
        .iter()
        .zip(u32s(&shorter, 2))
        .all(|(p, q)| *p != q));
    // The float chain has not converged: 1023 and 1024 steps differ.
    let fs = buffer::<f32>(&shorter, 3, 0).unwrap().to_vec();
    let ff = buffer::<f32>(&full, 3, 0).unwrap().to_vec();
    assert!(fs
        .iter()
        .zip(&ff)
        .all(|(p, q)| p != q && (0.5..1.0).contains(q)));
}

#[test]
fn stream_and_atomics_match_direct_formulas() {
    let s = kernel("ubench_stream");
    let init = s.launch.materialize();
    let fin = s.expected().unwrap();
    let (a, b, c) = (
        buffer::<f32>(&init, 0, 0).unwrap(),
        buffer::<f32>(&init, 1, 0).unwrap(),
        buffer::<f32>(&fin, 2, 0).unwrap(),
    );
    for i in [0, 1, 4095, c.len() - 1] {
        assert_eq!(c[i], 3.0f32.mul_add(b[i], a[i]), "c[{i}]");
    }
    let k = kernel("ubench_atomics");
    let init = k.launch.materialize();
    let vals = u32s(&init, 1);
    let counters = u32s(&k.expected().unwrap(), 0);
    // 4 addresses 32 dwords apart, 16 iterations.
    for (j, c) in counters.iter().enumerate() {
        let want: u32 = if j % 32 == 0 {
            vals.iter().skip(j / 32).step_by(4).map(|v| v * 16).sum()
        } else {
            0
        };
        assert_eq!(*c, want, "counter {j}");
    }
    // naddr = 0 would divide by zero in the kernel: an error here.
    let mut args = init.clone();
    set_u32(&mut args, 2, 0);
    assert!(k.run_reference(&k.launch.dims, &mut args).is_err());
}
