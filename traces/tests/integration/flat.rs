//! The sampling fast paths (fixed-shape blocks compared as one run of words,
//! rows of blocks, idle slots stepped over) against a reference design that
//! declares the same signals through the ordinary per-signal calls only: both
//! must write byte-identical files, and the changes must sit at the cycles the
//! design's closed-form schedule says.

use arbitrary_int::{u48, u5};
use traces::read::Waveform;
use traces::{Probe, TraceError, Tracer, VcdOptions, VcdTrace};

use crate::design::out_path;

traces::signals! {
    /// A payload.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct Port {
        pub addr: u16,
        pub tag: u5,
        pub last: bool,
    }
}

traces::signals! {
    /// A slot: flag first, nested arrays, an optional and a nested block.
    #[derive(Clone, Debug, Default)]
    pub struct Slot {
        pub valid: bool,
        pub pc: u48,
        pub regs: [u8; 3],
        pub out: Option<Port>,
        pub sub: Port,
        @untraced
        pub scratch: Vec<u32>,
    }
}

traces::signals! {
    /// A small block kept in a vector.
    #[derive(Clone, Debug, Default)]
    pub struct Block {
        pub ready: bool,
        pub count: u16,
    }
}

/// The design; `step` sets every register from the cycle number alone.
#[derive(Clone, Debug)]
struct Design {
    ctl: Block,
    blocks: Vec<Block>,
    slots: Vec<Slot>,
}

/// Slot 1 is live in cycles 40..=59 and 100..; slot 2 in 10..=19 only; slot 0
/// always; slot 3 never.
fn slot_live(slot: usize, cycle: u64) -> bool {
    match slot {
        0 => true,
        1 => (40..60).contains(&cycle) || cycle >= 100,
        2 => (10..20).contains(&cycle),
        _ => false,
    }
}

/// `ctl.count` is 7 except in cycle 30 and 31 (one-cycle blips away and back).
fn ctl_count(cycle: u64) -> u16 {
    match cycle {
        30 => 8,
        31 => 9,
        _ => 7,
    }
}

/// Block 1 stays clean (0) until cycle 77, then holds 5.
fn block_count(block: usize, cycle: u64) -> u16 {
    match block {
        0 => (cycle / 3) as u16,
        _ if cycle >= 77 => 5,
        _ => 0,
    }
}

impl Design {
    fn new() -> Design {
        Design {
            ctl: Block::default(),
            blocks: vec![Block::default(); 2],
            slots: vec![Slot::default(); 4],
        }
    }

    fn step(&mut self, cycle: u64) {
        self.ctl.count = ctl_count(cycle);
        self.ctl.ready = cycle % 2 == 0;
        for (i, b) in self.blocks.iter_mut().enumerate() {
            b.count = block_count(i, cycle);
            b.ready = b.count != 0;
        }
        for (i, s) in self.slots.iter_mut().enumerate() {
            if !slot_live(i, cycle) {
                // Leaving the slot clears its flag; the other registers keep
                // their last values (and do not change while it is idle).
                s.valid = false;
                continue;
            }
            s.valid = true;
            s.pc = u48::new(0x1000 + cycle * 4 + i as u64);
            s.regs = [cycle as u8, (cycle / 2) as u8, i as u8];
            s.out = (cycle % 5 == 0).then_some(Port {
                addr: cycle as u16,
                tag: u5::new((cycle % 32) as u8),
                last: cycle % 10 == 0,
            });
            s.sub.addr = (cycle / 7) as u16;
            s.scratch.push(cycle as u32);
        }
    }
}

/// The fast walk: `signals!` blocks, a vector of blocks, a row of slots.
struct Fast<'a>(&'a Design);

impl Probe for Fast<'_> {
    fn probe(&self, name: &str, t: &mut Tracer) {
        let d = self.0;
        t.scope(name, |t| {
            d.ctl.probe("ctl", t);
            d.blocks.probe("blk", t);
            t.slots("slot", &d.slots, |s| s.valid);
        });
    }
}

/// The same signals through `scope`, `signal`, `indexed`, `valid_port` and
/// `unless_idle` only (none of the fast paths).
struct Reference<'a>(&'a Design);

fn port(p: &Port, name: &str, t: &mut Tracer) {
    t.scope(name, |t| {
        t.signal("addr", 16, u64::from(p.addr));
        t.signal("tag", 5, u64::from(p.tag.value()));
        t.signal("last", 1, u64::from(p.last));
    });
}

fn block(b: &Block, name: &str, t: &mut Tracer) {
    t.scope(name, |t| {
        t.signal("ready", 1, u64::from(b.ready));
        t.signal("count", 16, u64::from(b.count));
    });
}

impl Probe for Reference<'_> {
    fn probe(&self, name: &str, t: &mut Tracer) {
        let d = self.0;
        t.scope(name, |t| {
            block(&d.ctl, "ctl", t);
            for (i, b) in d.blocks.iter().enumerate() {
                t.indexed("blk", i, |t, n| block(b, n, t));
            }
            for (i, s) in d.slots.iter().enumerate() {
                t.indexed("slot", i, |t, n| {
                    t.unless_idle(s.valid, |t| {
                        t.scope(n, |t| {
                            t.signal("valid", 1, u64::from(s.valid));
                            t.signal("pc", 48, s.pc.value());
                            for (j, r) in s.regs.iter().enumerate() {
                                t.indexed("regs", j, |t, n| t.signal(n, 8, u64::from(*r)));
                            }
                            t.valid_port("out", s.out.is_some(), |t| {
                                port(&s.out.unwrap_or_default(), "out", t)
                            });
                            port(&s.sub, "sub", t);
                        })
                    })
                });
            }
        });
    }
}

/// Runs the design for `cycles`, sampling the cycles `sampled` keeps, with
/// the fast or the reference walk; returns the file's bytes.
fn record(tag: &str, fast: bool, cycles: u64, sampled: impl Fn(u64) -> bool) -> (Vec<u8>, String) {
    let path = out_path(tag);
    let mut d = Design::new();
    let mut trace = VcdTrace::create(&path, VcdOptions::default()).unwrap();
    for cycle in 0..cycles {
        d.step(cycle);
        if sampled(cycle) {
            let r = if fast {
                trace.sample(cycle, |t| Fast(&d).probe("top", t))
            } else {
                trace.sample(cycle, |t| Reference(&d).probe("top", t))
            };
            r.unwrap();
        }
    }
    trace.finish().unwrap();
    let bytes = std::fs::read(&path).unwrap();
    (bytes, path.display().to_string())
}

/// The cycles at which `name` changed, after the initial dump at cycle 0.
fn change_cycles(wave: &Waveform, name: &str) -> Vec<u64> {
    let changes = wave
        .changes(name)
        .unwrap_or_else(|| panic!("no signal {name}"));
    changes
        .iter()
        .map(|(c, _)| *c)
        .filter(|&c| c != 0)
        .collect()
}

#[test]
fn shape_constants_match_the_declaring_walk() {
    let slot = Slot::default();
    let mut t = Tracer::names();
    t.walk(|t| slot.probe("s", t)).unwrap();
    assert_eq!(Slot::FLAT, t.declared().len());
    // valid, pc, 3 regs, out_valid + 3, sub's 3.
    assert_eq!(Slot::FLAT, 1 + 1 + 3 + 4 + 3);
    // Its own scope, `out` and `sub`.
    assert_eq!(Slot::SCOPES, 3);
    // A sampling walk takes the fast path (the shape matches the declared one).
    t.begin_walk();
    assert!(t.flat_scope(Slot::FLAT, Slot::SCOPES, |o| slot.flat(o)));
    // A wrong shape is refused, leaving the ordinary walk to the caller.
    t.begin_walk();
    assert!(!t.flat_scope(Slot::FLAT - 1, Slot::SCOPES, |o| slot.flat(o)));
    assert!(!t.flat_scope(Slot::FLAT, Slot::SCOPES + 1, |o| slot.flat(o)));
    // A block with a wide field has no fixed shape.
    assert_eq!(<Option<u128> as Probe>::FLAT, 0);
}

#[test]
fn fast_walk_writes_the_reference_file() {
    let every = |_| true;
    let (fast, path) = record("flat_fast", true, 130, every);
    let (reference, _) = record("flat_reference", false, 130, every);
    assert_eq!(
        String::from_utf8(fast).unwrap(),
        String::from_utf8(reference).unwrap()
    );

    let wave = Waveform::load(&path).unwrap();
    // A blip away and back in consecutive samples: two changes, then the
    // return to 7 at cycle 32.
    assert_eq!(change_cycles(&wave, "top.ctl.count"), [30, 31, 32]);
    assert_eq!(wave.u64_at("top.ctl.count", 31), Some(9));
    // A block clean for 77 cycles changes exactly when it is written.
    assert_eq!(change_cycles(&wave, "top.blk1.count"), [77]);
    assert_eq!(change_cycles(&wave, "top.blk1.ready"), [77]);
    // A slot that is never live writes nothing after the dump.
    assert!(change_cycles(&wave, "top.slot3.valid").is_empty());
    assert!(change_cycles(&wave, "top.slot3.pc").is_empty());
    // A slot live in 10..=19: changes every cycle there, its flag falls at
    // 20, and nothing after that.
    let pc2 = change_cycles(&wave, "top.slot2.pc");
    assert_eq!(pc2, (10..20).collect::<Vec<_>>());
    assert_eq!(change_cycles(&wave, "top.slot2.valid"), [10, 20]);
    // A slot that comes back after 40 idle cycles writes its registers at
    // once, at the right cycle.
    let pc1 = change_cycles(&wave, "top.slot1.pc");
    assert_eq!(pc1.first(), Some(&40));
    assert!(pc1.contains(&100) && !pc1.iter().any(|c| (60..100).contains(c)));
    assert_eq!(wave.u64_at("top.slot1.pc", 100), Some(0x1000 + 400 + 1));
    assert_eq!(change_cycles(&wave, "top.slot1.valid"), [40, 60, 100]);
    // The optional port follows its schedule in a live slot.
    assert_eq!(wave.u64_at("top.slot0.out_valid", 45), Some(1));
    assert_eq!(wave.u64_at("top.slot0.out.addr", 45), Some(45));
    assert_eq!(wave.u64_at("top.slot0.out_valid", 46), Some(0));
    assert_eq!(wave.u64_at("top.slot0.out.addr", 46), Some(0));
}

#[test]
fn a_change_undone_between_samples_is_not_written() {
    // Sampling only even cycles: `ctl.count` is 8 at 30 and 9 at 31, back to
    // 7 at 32, so the samples see 7, 8, 7.
    let even = |c: u64| c % 2 == 0;
    let (fast, path) = record("flat_even_fast", true, 80, even);
    let (reference, _) = record("flat_even_reference", false, 80, even);
    assert_eq!(fast, reference);
    let wave = Waveform::load(&path).unwrap();
    assert_eq!(change_cycles(&wave, "top.ctl.count"), [30, 32]);
    // Block 0 counts cycle / 3: seen at even cycles it changes at 4, 6, 10,
    // 12, ... (whenever the sampled value differs from the last sample's).
    let seen: Vec<u64> = (2..80)
        .step_by(2)
        .filter(|&c| block_count(0, c) != block_count(0, c - 2))
        .collect();
    assert_eq!(change_cycles(&wave, "top.blk0.count"), seen);
}

#[test]
fn a_row_that_changes_length_is_reported() {
    let path = out_path("flat_shape");
    let mut d = Design::new();
    let mut trace = VcdTrace::create(&path, VcdOptions::default()).unwrap();
    d.step(0);
    trace.sample(0, |t| Fast(&d).probe("top", t)).unwrap();
    d.blocks.push(Block::default());
    let r = trace.sample(1, |t| Fast(&d).probe("top", t));
    assert!(
        matches!(r, Err(TraceError::StructureChanged { .. })),
        "{r:?}"
    );
}

/// One sampling walk of a row of slots, hinted by `gens` or not.
fn walk_slots(t: &mut Tracer, slots: &[Slot], gens: Option<&[u64]>) -> Vec<usize> {
    t.walk(|t| {
        t.scope("top", |t| match gens {
            Some(g) => t.slots_hinted("slot", slots, g, |s| s.valid),
            None => t.slots("slot", slots, |s| s.valid),
        })
    })
    .unwrap()
    .to_vec()
}

#[test]
fn hinted_slots_step_over_slots_whose_generation_did_not_move() {
    let mut slots = vec![Slot::default(); 3];
    let mut gens = vec![0u64; 3];
    let (mut hinted, mut plain) = (Tracer::names(), Tracer::names());
    hinted.check_hints(true);
    let mut stepped_over = 0;
    for cycle in 0..60u64 {
        // Slot i is written (and its generation bumped) every i + 2 cycles;
        // slot 2 leaves at 30 (its flag falls) and stays idle.
        for (i, s) in slots.iter_mut().enumerate() {
            if cycle % (i as u64 + 2) != 0 || (i == 2 && cycle > 30) {
                continue;
            }
            s.valid = !(i == 2 && cycle == 30);
            s.pc = u48::new(cycle * 4 + i as u64);
            s.regs[i] = cycle as u8;
            gens[i] += 1;
        }
        let live_unwritten = (0..3)
            .filter(|&i| slots[i].valid && cycle % (i as u64 + 2) != 0)
            .count();
        stepped_over += live_unwritten;
        // Same changes and values as reading every slot.
        assert_eq!(
            walk_slots(&mut hinted, &slots, Some(&gens)),
            walk_slots(&mut plain, &slots, None),
            "cycle {cycle}"
        );
        assert_eq!(hinted.values(), plain.values(), "cycle {cycle}");
    }
    assert!(stepped_over > 30, "{stepped_over}");

    // A write without a bump: `check_hints` catches it...
    slots[0].pc = u48::new(0xdead);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        walk_slots(&mut hinted, &slots, Some(&gens))
    }));
    let message = caught.expect_err("a missed bump panics");
    let message = message.downcast_ref::<String>().expect("a message");
    assert!(message.contains("top.slot0.pc"), "{message}");
    // ... and without the check the slot is stepped over (its stale value
    // stays), which is what makes hints cheap.
    let mut unchecked = Tracer::names();
    unchecked.check_hints(false);
    slots[0].pc = u48::new(1);
    // Declaring, then the first sample records the generations.
    walk_slots(&mut unchecked, &slots, Some(&gens));
    walk_slots(&mut unchecked, &slots, Some(&gens));
    slots[0].pc = u48::new(2);
    assert_eq!(walk_slots(&mut unchecked, &slots, Some(&gens)), [0usize; 0]);
    gens[0] += 1;
    let pc = unchecked
        .declared()
        .iter()
        .position(|n| n == "top.slot0.pc");
    assert_eq!(
        walk_slots(&mut unchecked, &slots, Some(&gens)),
        [pc.unwrap()]
    );
    // A generation row of another length is not used as hints: the slot is
    // read although its generation did not move.
    slots[0].pc = u48::new(3);
    assert_eq!(
        walk_slots(&mut unchecked, &slots, Some(&gens[..2])),
        [pc.unwrap()]
    );
}
