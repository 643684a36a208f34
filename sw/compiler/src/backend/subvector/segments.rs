//! Seed 000 §5 step 1122: the program split into segments, each segment's
//! VGPR usage for the whole wave, and which segments the threshold sends to
//! sub-vector looping (steps 1124–1128, Fig 12's shared enter/exit).
//!
//! The usage is the liveness the register allocator works from
//! (`backend::regalloc`): a virtual register is live from its first to its
//! last mention in the linear code, extended to a loop's back edge when it
//! is live into the loop. The usage at a point is the VGPRs live there (a
//! 64-bit value counts two); a segment's usage is the most at any of its
//! points, for all 64 lanes of a wave64 (what the segment would need when
//! run for the whole wave).

use std::ops::Range;

use crate::backend::minst::{Item, MOp, MachineCode, RegClass};

/// Live intervals of every virtual register, positions in `mc.items`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Liveness {
    /// First position (`usize::MAX`: never mentioned).
    pub start: Vec<usize>,
    /// Last position.
    pub end: Vec<usize>,
}

impl Liveness {
    /// True when virtual register `k` is mentioned at all.
    pub fn used(&self, k: usize) -> bool {
        self.start[k] != usize::MAX
    }
}

/// The allocator's intervals (the same rule as `regalloc::allocate`, which
/// keeps its own private: first and last mention, values live into a loop
/// kept to its back edge, hardware-initialised registers from position 0).
pub fn liveness(mc: &MachineCode) -> Liveness {
    let n = mc.vregs.len();
    let mut start = vec![usize::MAX; n];
    let mut end = vec![0usize; n];
    for (pos, item) in mc.items.iter().enumerate() {
        let Item::Inst(i) = item else { continue };
        for o in &i.ops {
            if let MOp::Reg(r, _) = o {
                let k = r.0 as usize;
                start[k] = start[k].min(pos);
                end[k] = end[k].max(pos);
            }
        }
    }
    let back = mc.back_edges();
    let mut changed = !back.is_empty();
    while changed {
        changed = false;
        for &(head, latch) in &back {
            for k in 0..n {
                if start[k] < head && end[k] >= head && end[k] < latch {
                    end[k] = latch;
                    changed = true;
                }
            }
        }
    }
    for (k, info) in mc.vregs.iter().enumerate() {
        if info.fixed.is_some() && start[k] != usize::MAX {
            start[k] = 0;
        }
    }
    Liveness { start, end }
}

/// VGPRs live at every position of `mc.items`.
pub fn pressure(mc: &MachineCode, live: &Liveness) -> Vec<u16> {
    let len = mc.items.len();
    let mut delta = vec![0i32; len + 1];
    for (k, info) in mc.vregs.iter().enumerate() {
        if info.class != RegClass::Vgpr || !live.used(k) {
            continue;
        }
        delta[live.start[k]] += i32::from(info.dwords);
        delta[live.end[k] + 1] -= i32::from(info.dwords);
    }
    let mut out = Vec::with_capacity(len);
    let mut now = 0i32;
    for d in &delta[..len] {
        now += d;
        out.push(now.clamp(0, i32::from(u16::MAX)) as u16);
    }
    out
}

/// What made a segment (spec 000 §5 step 1122's options).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegmentKind {
    /// All instructions of an outermost loop (head label to back branch,
    /// with the exit labels right after it).
    Loop,
    /// Straight-line code where the usage is above the threshold, from
    /// where it rises above it to where it falls back (a dip shorter than
    /// the straight-line chunk does not end it).
    AboveThreshold,
    /// Straight-line code at or below the threshold, cut every
    /// `chunk` instructions.
    Straight,
}

/// One segment of the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// How it was cut.
    pub kind: SegmentKind,
    /// Its items, positions in the machine code.
    pub items: Range<usize>,
    /// Most VGPRs live at any of its points, for the whole wave.
    pub usage: u16,
}

/// Splits `mc` into segments: outermost loops whole, the straight-line code
/// between them cut where `pressure` crosses `threshold` and, at or below
/// it, every `chunk` instructions. The segments cover every item in order.
pub fn split(mc: &MachineCode, pressure: &[u16], threshold: u16, chunk: usize) -> Vec<Segment> {
    let len = mc.items.len();
    // Outermost loops: merge overlapping (head, latch) spans.
    let mut spans: Vec<(usize, usize)> = mc.back_edges();
    spans.sort();
    let mut outer: Vec<(usize, usize)> = Vec::new();
    for (h, l) in spans {
        match outer.last_mut() {
            Some(last) if h <= last.1 => last.1 = last.1.max(l),
            _ => outer.push((h, l)),
        }
    }
    let usage = |r: &Range<usize>| pressure[r.clone()].iter().copied().max().unwrap_or(0);
    let mut out = Vec::new();
    let straight = |from: usize, to: usize, out: &mut Vec<Segment>| {
        // Runs of positions above / at or below the threshold; a dip of
        // fewer than `chunk` instructions between two runs above it does
        // not end the first (hysteresis: usage that hovers around the
        // threshold would otherwise give a sub-vector loop every few
        // instructions, each with its own enter/exit cost).
        let mut runs: Vec<(bool, Range<usize>, usize)> = Vec::new();
        let mut at = from;
        while at < to {
            let above = pressure[at] > threshold;
            let mut end = at;
            let mut insts = 0;
            while end < to && (pressure[end] > threshold) == above {
                insts += usize::from(matches!(mc.items[end], Item::Inst(_)));
                end += 1;
            }
            runs.push((above, at..end, insts));
            at = end;
        }
        let mut merged: Vec<(bool, Range<usize>, usize)> = Vec::new();
        for run in runs {
            let n = merged.len();
            if run.0 && n >= 2 && merged[n - 2].0 && merged[n - 1].2 < chunk.max(1) {
                let dip = merged.pop().expect("n >= 2");
                let last = merged.last_mut().expect("n >= 2");
                last.1.end = run.1.end;
                last.2 += dip.2 + run.2;
            } else {
                merged.push(run);
            }
        }
        for (above, range, _) in merged {
            if above {
                out.push(Segment {
                    kind: SegmentKind::AboveThreshold,
                    usage: usage(&range),
                    items: range,
                });
                continue;
            }
            // At or below: cut every `chunk` instructions.
            let mut at = range.start;
            while at < range.end {
                let mut end = at;
                let mut insts = 0;
                while end < range.end {
                    if matches!(mc.items[end], Item::Inst(_)) {
                        if insts == chunk.max(1) {
                            break;
                        }
                        insts += 1;
                    }
                    end += 1;
                }
                let items = at..end;
                out.push(Segment {
                    kind: SegmentKind::Straight,
                    usage: usage(&items),
                    items,
                });
                at = end;
            }
        }
    };
    let mut at = 0;
    for (h, l) in outer {
        straight(at, h, &mut out);
        // The exit labels right after the back branch belong to the loop.
        let mut end = l + 1;
        while end < len && matches!(mc.items[end], Item::Label(_)) {
            end += 1;
        }
        let items = h..end;
        out.push(Segment {
            kind: SegmentKind::Loop,
            usage: usage(&items),
            items,
        });
        at = end;
    }
    straight(at, len, &mut out);
    out
}

/// Which segments run in sub-vector looping (usage strictly above
/// `threshold`, spec 000 §5 step 1126), as runs of consecutive segment
/// indices: each run gets one enter/exit pair (Fig 12).
pub fn regions(usages: &[u16], threshold: u16) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    for (i, &u) in usages.iter().enumerate() {
        if u <= threshold {
            continue;
        }
        match out.last_mut() {
            Some(r) if r.end == i => r.end = i + 1,
            _ => out.push(i..i + 1),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_equal_to_the_threshold_stays_conventional() {
        assert_eq!(regions(&[64, 64, 64], 64), Vec::<Range<usize>>::new());
        assert_eq!(regions(&[64, 65, 64], 64), vec![1..2]);
    }
}
