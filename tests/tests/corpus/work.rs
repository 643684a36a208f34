//! The work-creation kernels (seed 001): registry, sources, prebuilt objects
//! and references with independently known answers.

use corpus::work;
use corpus::{ArgValue, TARGETS};

fn words(v: &ArgValue) -> Vec<u32> {
    match v {
        ArgValue::Buffer(b) => b
            .to_le_bytes()
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect(),
        _ => panic!("not a buffer"),
    }
}

#[test]
fn every_work_kernel_has_its_source_and_objects_and_names_its_children() {
    assert!(work::all().len() >= 4);
    for k in work::all() {
        let src = std::fs::read_to_string(k.source_path()).unwrap();
        assert!(src.contains("#include \"gpusim_work.h\""), "{}", k.name());
        assert!(src.contains(&format!("__kernel void {}(gw_queue *wq", k.name())));
        for c in k.children {
            assert!(
                src.contains(&format!("__kernel void {c}(")),
                "{}: {c}",
                k.name()
            );
        }
        for t in TARGETS {
            let elf = std::fs::read(k.prebuilt_path(t)).unwrap();
            for name in std::iter::once(&k.name()).chain(k.children) {
                assert!(
                    elf.windows(name.len()).any(|w| w == name.as_bytes()),
                    "{} lacks {name}",
                    k.prebuilt_path(t).display()
                );
            }
        }
    }
}

#[test]
fn subdivide_reference_counts_the_primes_below_20011() {
    let k = work::find("wq_subdivide").unwrap();
    let r = words(&k.kernel.expected().unwrap()[0]);
    // pi(20011) = 2262 (20011 itself is prime and excluded: pi(20010) = 2262).
    assert_eq!(r[0], 2262);
    // 3 parts of ~6670 split down to depth 4 (max_depth) where parts are ~417.
    assert_eq!(r[1..6], [0, 0, 0, 0, 48]);
}

#[test]
fn bfs_reference_reaches_part_of_the_graph_over_several_levels() {
    let k = work::find("wq_bfs").unwrap();
    let e = k.kernel.expected().unwrap();
    let dist = words(&e[2]);
    let reached = dist.iter().filter(|&&d| d != u32::MAX).count();
    let levels = dist.iter().filter(|&&d| d != u32::MAX).max().unwrap();
    assert!(reached > 100 && reached < dist.len(), "{reached}");
    assert!(*levels >= 4, "{levels}");
    let ctl = words(&e[4]);
    assert_eq!(
        ctl.iter().skip(2).filter(|&&a| a > 0).count(),
        *levels as usize + 1
    );
}

#[test]
fn partition_sort_reference_sorts_and_counts() {
    let k = work::find("wq_partition_sort").unwrap();
    let e = k.kernel.expected().unwrap();
    let out = words(&e[2]);
    assert!(out.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(words(&e[3]).iter().sum::<u32>(), 1024);
    let mut keys = words(&e[0]);
    keys.sort_unstable();
    assert_eq!(keys, out);
}
