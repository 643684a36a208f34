//! The two software rewrites of a segment run (spec 000 Figs 14 and 15) and
//! the shared VGPR region of the registers that live only inside one.
//!
//! Both rewrites run the code once per 32-lane half of a wave64 with EXEC
//! limited to that half ([`super::legal`] says when that is allowed):
//!
//! * [`subvector_loop`] — Fig 15 with gfx10's own instructions:
//!   `s_subvector_loop_begin sN, SKIP` / body / `s_subvector_loop_end sN,
//!   BODY`; the pass number is which half of EXEC is zero, `sN` parks the
//!   other half (the four EXEC cases: docs/variable-wavefront.md).
//! * [`duplicate`] — Fig 14: EXEC saved in an SGPR pair, the body with
//!   EXEC's low half, a copy of it (labels renamed) with the high half,
//!   EXEC restored. A copy whose half has no lane is branched over.

use std::ops::Range;

use arch::isa::{Family, Opcode};

use crate::backend::minst::{special, Item, MInst, MOp, MachineCode, RegClass};
use crate::backend::regalloc::Assignment;

use super::legal::EXEC_HI;
use super::segments::Liveness;

fn branch(op: Opcode, family: Family, ops: &[MOp], label: u32) -> Item {
    let mut i = MInst::new(op, family, ops.len().min(1) as u8, ops);
    i.target = Some(label);
    Item::Inst(i)
}

fn inst(op: Opcode, family: Family, ops: &[MOp]) -> Item {
    Item::Inst(MInst::new(op, family, 1, ops))
}

/// `s_mov_b32 to, from` for each (register, spare) pair, one way or back.
fn copies(keep: &[(u16, u16)], back: bool) -> impl Iterator<Item = Item> + '_ {
    keep.iter().map(move |&(reg, spare)| {
        let (to, from) = if back { (reg, spare) } else { (spare, reg) };
        inst(
            Opcode::S_MOV_B32,
            Family::Sop1,
            &[MOp::Phys(to), MOp::Phys(from)],
        )
    })
}

/// Replaces items `range` of `mc` by Fig 15's loop, parking the idle half of
/// EXEC in SGPR `park`; each `(register, spare)` of `keep` is copied to its
/// spare before the loop and back at the start of each pass.
pub fn subvector_loop(mc: &mut MachineCode, range: Range<usize>, park: u16, keep: &[(u16, u16)]) {
    let body = mc.label();
    let skip = mc.label();
    let mut items = Vec::with_capacity(range.len() + 4 + 2 * keep.len());
    items.extend(copies(keep, false));
    items.push(branch(
        Opcode::S_SUBVECTOR_LOOP_BEGIN,
        Family::Sopk,
        &[MOp::Phys(park)],
        skip,
    ));
    items.push(Item::Label(body));
    items.extend(copies(keep, true));
    items.extend(mc.items[range.clone()].iter().cloned());
    items.push(branch(
        Opcode::S_SUBVECTOR_LOOP_END,
        Family::Sopk,
        &[MOp::Phys(park)],
        body,
    ));
    items.push(Item::Label(skip));
    mc.items.splice(range, items);
}

/// Replaces items `range` of `mc` by Fig 14's two copies, EXEC saved in the
/// SGPR pair at `save` (even); `keep` as for [`subvector_loop`].
pub fn duplicate(mc: &mut MachineCode, range: Range<usize>, save: u16, keep: &[(u16, u16)]) {
    let original: Vec<Item> = mc.items[range.clone()].to_vec();
    // The high copy's labels are fresh; the low copy keeps the originals.
    let mut renamed = std::collections::HashMap::new();
    for item in &original {
        if let Item::Label(l) = item {
            let fresh = mc.label();
            renamed.insert(*l, fresh);
        }
    }
    let high: Vec<Item> = original
        .iter()
        .map(|item| match item {
            Item::Label(l) => Item::Label(renamed[l]),
            Item::Inst(i) => {
                let mut i = i.clone();
                i.target = i.target.map(|t| renamed.get(&t).copied().unwrap_or(t));
                Item::Inst(i)
            }
        })
        .collect();
    let high_pass = mc.label();
    let done = mc.label();
    let exec = MOp::Phys(special::EXEC);
    let exec_hi = MOp::Phys(EXEC_HI);
    let mut items = Vec::with_capacity(2 * original.len() + 10 + 2 * keep.len());
    items.extend(copies(keep, false));
    items.push(inst(
        Opcode::S_MOV_B64,
        Family::Sop1,
        &[MOp::Phys(save), exec],
    ));
    items.push(inst(
        Opcode::S_MOV_B32,
        Family::Sop1,
        &[exec_hi, MOp::Imm(0)],
    ));
    items.push(branch(
        Opcode::S_CBRANCH_EXECZ,
        Family::Sopp,
        &[],
        high_pass,
    ));
    items.extend(original);
    items.push(Item::Label(high_pass));
    items.extend(copies(keep, true));
    items.push(inst(Opcode::S_MOV_B32, Family::Sop1, &[exec, MOp::Imm(0)]));
    items.push(inst(
        Opcode::S_MOV_B32,
        Family::Sop1,
        &[exec_hi, MOp::Phys(save + 1)],
    ));
    items.push(branch(Opcode::S_CBRANCH_EXECZ, Family::Sopp, &[], done));
    items.extend(high);
    items.push(Item::Label(done));
    items.push(inst(
        Opcode::S_MOV_B64,
        Family::Sop1,
        &[exec, MOp::Phys(save)],
    ));
    mc.items.splice(range, items);
}

/// VGPR rows a wave64 with `vgprs` registers, `shared` of them shared,
/// takes on the default configuration (granule 8 registers = 16 rows;
/// `hw::dispatch::state::physical_rows`).
pub fn wave64_rows(vgprs: u16, shared: u16) -> u32 {
    let granule = 16;
    let rows = 2 * u32::from(vgprs - shared.min(vgprs)) + u32::from(shared.min(vgprs));
    rows.div_ceil(granule) * granule
}

/// Renumbers the VGPRs that live only inside one of `regions` (original
/// positions) into the top of the allocation — the shared region the
/// driver reads from the sub-vector note — when that takes fewer rows.
/// Returns the number of shared registers (0: the allocation is unchanged).
pub fn share(
    mc: &MachineCode,
    asg: &mut Assignment,
    live: &Liveness,
    regions: &[Range<usize>],
) -> u16 {
    let inside = |k: usize| {
        regions
            .iter()
            .any(|r| r.start <= live.start[k] && live.end[k] < r.end)
    };
    let vgpr = |k: usize| mc.vregs[k].class == RegClass::Vgpr && live.used(k);
    let mut local: Vec<bool> = (0..mc.vregs.len())
        .map(|k| vgpr(k) && mc.vregs[k].fixed.is_none() && inside(k))
        .collect();
    // A copy the allocator coalesced (one register for both) between a
    // local and a value living on outside stays coalesced: moving the
    // local would turn it into a real `v_mov` (a loop's accumulator, for
    // one, would get a move per iteration).
    let mut changed = true;
    while changed {
        changed = false;
        for item in &mc.items {
            let Item::Inst(i) = item else { continue };
            if !i.is_copy {
                continue;
            }
            if let (MOp::Reg(d, _), MOp::Reg(s, _)) = (i.ops[0], i.ops[1]) {
                let (d, s) = (d.0 as usize, s.0 as usize);
                if vgpr(d) && vgpr(s) && asg.phys[d] == asg.phys[s] && local[d] != local[s] {
                    local[d] = false;
                    local[s] = false;
                    changed = true;
                }
            }
        }
    }
    let mut locals = Vec::new();
    // The work-item ids v0–v2 are never shared (the dispatcher refuses it).
    let mut private_top: u16 = 3;
    for (k, info) in mc.vregs.iter().enumerate() {
        if !vgpr(k) {
            continue;
        }
        if local[k] {
            locals.push(k);
        } else {
            private_top = private_top.max(asg.phys[k] + u16::from(info.dwords));
        }
    }
    if locals.is_empty() {
        return 0;
    }
    // Linear scan over the locals alone, a copy between two of them
    // coalesced when the source dies at the copy (as the allocator does).
    let mut copy_source = std::collections::HashMap::new();
    for (pos, item) in mc.items.iter().enumerate() {
        let Item::Inst(i) = item else { continue };
        if i.is_copy {
            if let (MOp::Reg(d, 0), MOp::Reg(s, 0)) = (i.ops[0], i.ops[1]) {
                if live.start[d.0 as usize] == pos && live.end[s.0 as usize] == pos {
                    copy_source.entry(d.0 as usize).or_insert(s.0 as usize);
                }
            }
        }
    }
    locals.sort_by_key(|&k| (live.start[k], k));
    let mut slot = vec![u16::MAX; mc.vregs.len()];
    let mut busy: Vec<bool> = Vec::new();
    let mut active: Vec<usize> = Vec::new();
    let mut used = 0u16;
    for &k in &locals {
        let width = usize::from(mc.vregs[k].dwords);
        active.retain(|&a| {
            if live.end[a] < live.start[k] {
                let p = usize::from(slot[a]);
                let w = usize::from(mc.vregs[a].dwords);
                busy[p..p + w].iter_mut().for_each(|b| *b = false);
                false
            } else {
                true
            }
        });
        let mut chosen = None;
        if let Some(&s) = copy_source.get(&k) {
            if slot[s] != u16::MAX && mc.vregs[s].dwords == mc.vregs[k].dwords {
                if let Some(at) = active.iter().position(|&a| a == s) {
                    active.remove(at);
                    chosen = Some(usize::from(slot[s]));
                }
            }
        }
        let p = chosen.unwrap_or_else(|| {
            (0..)
                .find(|&p| (p..p + width).all(|q| !busy.get(q).copied().unwrap_or(false)))
                .expect("an unbounded pool has room")
        });
        if busy.len() < p + width {
            busy.resize(p + width, false);
        }
        busy[p..p + width].iter_mut().for_each(|b| *b = true);
        slot[k] = p as u16;
        used = used.max((p + width) as u16);
        active.push(k);
    }
    let total = (private_top + used).next_multiple_of(4);
    let shared = used;
    if total > crate::backend::regalloc::VGPR_LIMIT
        || shared > 255
        || wave64_rows(total, shared) >= wave64_rows(asg.vgprs.max(1).next_multiple_of(4), 0)
    {
        return 0;
    }
    let base = total - shared;
    for &k in &locals {
        asg.phys[k] = base + slot[k];
    }
    asg.vgprs = total;
    shared
}
