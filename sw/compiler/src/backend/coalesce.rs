//! Out-of-SSA coalescing of loop-carried values, on the machine code before
//! register allocation.
//!
//! A loop header's parameter `p` gets its next value on the back edge by a
//! copy `p <- s`, where `s` was computed in the body. The linear-scan
//! allocator coalesces a copy only when the two live intervals merely touch
//! at the copy; here they cannot: `p` is live across the whole loop (from
//! its entry copy to the back edge, and often after the loop). Yet the two
//! do not interfere when `p` is no longer read once `s` is computed, and no
//! lane can leave the loop between `s`'s definition and the back edge while
//! `p` is still needed after it. Then `s` can be written straight into `p`'s
//! registers and the copy disappears: `x = (x ^ a) + b` in a loop becomes
//! `v_xor` + `v_add` into `x`'s register, with no `v_mov` per iteration
//! (ACO and regalloc2 reach the same result by merging the phi's
//! congruence class).
//!
//! The test works on positions in the linear code, which is structured:
//! every backward branch is a loop's back edge, every other branch is a
//! forward branch of an `if` or a loop exit. It is conservative: any mention
//! of `p` after `s` is first written (other than the copy), an inner loop
//! around `s`'s definition, or an exit branch between the definition and the
//! copy while `p` is live after the loop keeps the copy.
//!
//! EXEC masking does not change the argument: `s`'s definition writes only
//! the active lanes of `p`'s registers, which are exactly the lanes that
//! would have taken the back-edge copy (lanes that left the loop earlier
//! are inactive and keep their last value, as with the copy).

use std::collections::HashMap;

use super::minst::{Item, MOp, MachineCode, VReg};

/// A loop in the linear code: the position of its head label and of its
/// back-edge branch.
#[derive(Clone, Copy, Debug)]
struct Span {
    head: usize,
    back: usize,
}

/// Merges each loop-carried parameter with the value its back edge passes
/// when they do not interfere, deleting the copy. Returns how many copies
/// (values, not dwords) were removed.
pub fn loop_copies(mc: &mut MachineCode) -> usize {
    // Merging `s` into `p` can turn the copy that made `s` (a join's
    // parameter, say) into a new candidate of the same shape.
    let mut total = 0;
    for _ in 0..8 {
        let n = one_round(mc);
        total += n;
        if n == 0 {
            break;
        }
    }
    total
}

fn one_round(mc: &mut MachineCode) -> usize {
    let n = mc.vregs.len();
    let mut label_at = HashMap::new();
    let mut spans = Vec::new();
    for (pos, item) in mc.items.iter().enumerate() {
        match item {
            Item::Label(l) => {
                label_at.insert(*l, pos);
            }
            Item::Inst(i) => {
                if let Some(&head) = i.target.and_then(|l| label_at.get(&l)) {
                    spans.push(Span { head, back: pos });
                }
            }
        }
    }
    if spans.is_empty() {
        return 0;
    }
    // Every mention of each register, in order, and whether it writes it.
    let mut mentions: Vec<Vec<(usize, bool)>> = vec![Vec::new(); n];
    for (pos, item) in mc.items.iter().enumerate() {
        let Item::Inst(i) = item else { continue };
        for (k, o) in i.ops.iter().enumerate() {
            if let MOp::Reg(r, _) = o {
                let def = k < usize::from(i.defs);
                let m = &mut mentions[r.0 as usize];
                match m.last_mut() {
                    Some(last) if last.0 == pos => last.1 |= def,
                    _ => m.push((pos, def)),
                }
            }
        }
    }
    let innermost = |pos: usize| {
        spans
            .iter()
            .filter(|s| s.head < pos && pos < s.back)
            .min_by_key(|s| s.back - s.head)
            .copied()
    };
    let branch_target = |pos: usize| match &mc.items[pos] {
        Item::Inst(i) => i.target.and_then(|l| label_at.get(&l)).copied(),
        Item::Label(_) => None,
    };
    let mut merged = vec![false; n];
    // (parameter, back-edge value, first copy position, dwords)
    let mut merges: Vec<(VReg, VReg, usize, usize)> = Vec::new();
    for (c, item) in mc.items.iter().enumerate() {
        let Item::Inst(i) = item else { continue };
        if !i.is_copy {
            continue;
        }
        let (MOp::Reg(p, 0), MOp::Reg(s, 0)) = (i.ops[0], i.ops[1]) else {
            continue;
        };
        let (pi, si) = (mc.vregs[p.0 as usize], mc.vregs[s.0 as usize]);
        if p == s
            || pi.class != si.class
            || pi.dwords != si.dwords
            || pi.fixed.is_some()
            || si.fixed.is_some()
            || merged[p.0 as usize]
            || merged[s.0 as usize]
        {
            continue;
        }
        let dwords = usize::from(pi.dwords);
        // A wide value: the following copies must move the other dwords.
        let last = c + dwords - 1;
        let whole = (1..dwords).all(|k| {
            matches!(mc.items.get(c + k), Some(Item::Inst(j))
                if j.is_copy && j.ops[0] == MOp::Reg(p, k as u8) && j.ops[1] == MOp::Reg(s, k as u8))
        });
        if !whole {
            continue;
        }
        let Some(lp) = innermost(c) else { continue };
        let (pm, sm) = (&mentions[p.0 as usize], &mentions[s.0 as usize]);
        let s_start = sm[0].0;
        let s_end = sm[sm.len() - 1].0;
        let p_start = pm[0].0;
        let p_end = pm[pm.len() - 1].0;
        // `p` is carried into the loop; `s` is made in its body (not in an
        // inner loop) and dies at the copy.
        if p_start >= lp.head || s_start <= lp.head || s_end != last || !sm[0].1 {
            continue;
        }
        if innermost(s_start).map(|x| (x.head, x.back)) != Some((lp.head, lp.back)) {
            continue;
        }
        // `p` is not read or written from `s`'s definition to the copy
        // (reading it in the very instruction that writes `s` is fine).
        let copies_p_into_s = |pos: usize| {
            pos < s_start + dwords
                && matches!(&mc.items[pos], Item::Inst(j) if j.is_copy
                    && matches!((j.ops[0], j.ops[1]), (MOp::Reg(d, k), MOp::Reg(x, m))
                        if d == s && x == p && k == m))
        };
        // A wide `s` copied from `p` dword by dword reads `p`'s later
        // dwords after writing the first: still intact.
        let p_busy = pm.iter().any(|&(pos, def)| {
            (pos == s_start && def)
                || (pos > s_start && pos < c && (def || !copies_p_into_s(pos)))
                || (pos > last && pos < lp.back)
        });
        if p_busy {
            continue;
        }
        // A lane leaving the loop after `s` is written would carry `s`
        // instead of `p` out of it.
        if p_end > lp.back {
            let exits = (s_start + 1..c)
                .filter_map(branch_target)
                .any(|t| t < lp.head || t > lp.back);
            if exits {
                continue;
            }
        }
        merged[p.0 as usize] = true;
        merged[s.0 as usize] = true;
        merges.push((p, s, c, dwords));
    }
    if merges.is_empty() {
        return 0;
    }
    let mut rename: Vec<u32> = (0..n as u32).collect();
    let mut drop = vec![false; mc.items.len()];
    for &(p, s, c, dwords) in &merges {
        rename[s.0 as usize] = p.0;
        drop[c..c + dwords].iter_mut().for_each(|d| *d = true);
    }
    let items = std::mem::take(&mut mc.items);
    mc.items = items
        .into_iter()
        .zip(drop)
        .filter(|(_, d)| !d)
        .map(|(mut item, _)| {
            if let Item::Inst(i) = &mut item {
                for o in i.ops.iter_mut() {
                    if let MOp::Reg(r, _) = o {
                        r.0 = rename[r.0 as usize];
                    }
                }
            }
            item
        })
        .collect();
    merges.len()
}
