//! A tiny synthetic design: a counter with an enable, four lanes, an
//! `Option<Packet>` port, a `u5`, a signed and a 128-bit field; and the values
//! every signal must have after cycle `c`, computed in closed form rather than
//! by stepping the design.

use std::path::{Path, PathBuf};

use arbitrary_int::u5;
use traces::{Probe, TraceError, VcdOptions, VcdTrace};

traces::signals! {
    /// What the counter sends when its count is a multiple of 5.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct Packet {
        pub addr: u16,
        pub tag: u5,
        pub last: bool,
    }
}

traces::signals! {
    /// One of four lanes: accumulates `index + 1` per enabled cycle.
    #[derive(Clone, Debug, Default)]
    pub struct Lane {
        pub acc: u8,
        pub busy: bool,
    }
}

traces::signals! {
    /// The design under test.
    #[derive(Clone, Debug, Default)]
    pub struct Counter {
        pub enable: bool,
        pub count: u8,
        pub small: u5,
        pub delta: i8,
        pub lane: [Lane; 4],
        pub out: Option<Packet>,
        pub wide: u128,
        @untraced
        pub history: Vec<u8>,
    }
}

/// The enable input: off every fourth cycle (3, 7, 11, ...).
pub fn enable_at(cycle: u64) -> bool {
    cycle % 4 != 3
}

impl Counter {
    /// One clock edge.
    pub fn step(&mut self, cycle: u64) {
        self.enable = enable_at(cycle);
        if self.enable {
            self.count = self.count.wrapping_add(1);
            self.small = self.small.wrapping_add(u5::new(1));
            for (i, l) in self.lane.iter_mut().enumerate() {
                l.acc = l.acc.wrapping_add(i as u8 + 1);
            }
        }
        self.delta = (self.count as i8).wrapping_neg();
        for (i, l) in self.lane.iter_mut().enumerate() {
            l.busy = (self.count as usize + i) % 3 == 0;
        }
        self.out = (self.count % 5 == 0).then_some(Packet {
            addr: u16::from(self.count) * 4,
            tag: self.small,
            last: self.count % 10 == 0,
        });
        self.wide = (u128::from(self.count) << 100) | u128::from(self.count);
        self.history.push(self.count);
    }
}

/// Every traced signal with its width, in declaration order.
pub fn expected_signals() -> Vec<(String, u32)> {
    let mut v: Vec<(String, u32)> = vec![
        ("counter.enable".into(), 1),
        ("counter.count".into(), 8),
        ("counter.small".into(), 5),
        ("counter.delta".into(), 8),
    ];
    for i in 0..4 {
        v.push((format!("counter.lane{i}.acc"), 8));
        v.push((format!("counter.lane{i}.busy"), 1));
    }
    v.push(("counter.out_valid".into(), 1));
    v.push(("counter.out.addr".into(), 16));
    v.push(("counter.out.tag".into(), 5));
    v.push(("counter.out.last".into(), 1));
    v.push(("counter.wide".into(), 128));
    v
}

/// Expected value of `name` after cycle `c`, as little-endian words.
pub fn expected(name: &str, c: u64) -> Vec<u64> {
    // Enabled cycles among 0..=c: all but those with c % 4 == 3.
    let enabled = (c + 1) - (c + 1) / 4;
    let count = enabled % 256;
    let valid = count % 5 == 0;
    let v = match name {
        "counter.enable" => u64::from(enable_at(c)),
        "counter.count" => count,
        "counter.small" => enabled % 32,
        "counter.delta" => (256 - count) % 256,
        "counter.out_valid" => u64::from(valid),
        "counter.out.addr" => {
            if valid {
                count * 4
            } else {
                0
            }
        }
        "counter.out.tag" => {
            if valid {
                enabled % 32
            } else {
                0
            }
        }
        "counter.out.last" => u64::from(valid && count % 10 == 0),
        "counter.wide" => return vec![count, count << 36],
        lane => {
            let i = u64::from(lane.as_bytes()["counter.lane".len()] - b'0');
            if lane.ends_with(".acc") {
                (enabled * (i + 1)) % 256
            } else {
                u64::from((count + i) % 3 == 0)
            }
        }
    };
    vec![v]
}

/// Runs the counter for `cycles` cycles into a VCD at `path`.
pub fn run(path: &Path, options: VcdOptions, cycles: u64) -> Result<(), TraceError> {
    let mut c = Counter::default();
    let mut trace = VcdTrace::create(path, options)?;
    for cycle in 0..cycles {
        c.step(cycle);
        trace.sample(cycle, |t| c.probe("counter", t))?;
    }
    trace.finish()
}

/// A fresh path for one test's output file.
pub fn out_path(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("traces-tests");
    std::fs::create_dir_all(&dir).expect("create test output dir");
    dir.join(format!("{test}.vcd"))
}
