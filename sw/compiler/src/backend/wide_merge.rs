//! Seed 002's vectorisation in machine code: runs of `global_load_dword`
//! (`global_store_dword`) through one address register at consecutive
//! offsets become one `global_load_dwordx2/x3/x4` (`global_store_…`).
//!
//! It runs after instruction selection, before register allocation, on
//! code the loop rewrite ([`crate::specialise::unroll`]) prepared: the copies' accesses
//! are adjacent and share copy 0's address with `offset:` 0, 4, 8, 12.
//! Only what the IR order already allowed is merged — the loads of a run are
//! moved up to the first (the instructions between them neither touch the
//! loaded registers nor memory), the stores down to the last — so no
//! memory access crosses another. gfx10 needs no alignment for these
//! (global accesses are unaligned-capable), so a run may start anywhere.

use arch::isa::{Family, Modifiers, Opcode};

use crate::backend::minst::{Item, MInst, MOp, MachineCode, RegClass, VReg};

/// What [`merge`] did: the width of every wide access it made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WideReport {
    /// Dwords of each wide load made.
    pub loads: Vec<u8>,
    /// Dwords of each wide store made.
    pub stores: Vec<u8>,
}

fn is_memory(f: Family) -> bool {
    matches!(
        f,
        Family::Smem
            | Family::Ds
            | Family::Flat
            | Family::Global
            | Family::Scratch
            | Family::Mubuf
            | Family::Mtbuf
    )
}

fn load_op(n: usize) -> Opcode {
    match n {
        2 => Opcode::GLOBAL_LOAD_DWORDX2,
        3 => Opcode::GLOBAL_LOAD_DWORDX3,
        _ => Opcode::GLOBAL_LOAD_DWORDX4,
    }
}

fn store_op(n: usize) -> Opcode {
    match n {
        2 => Opcode::GLOBAL_STORE_DWORDX2,
        3 => Opcode::GLOBAL_STORE_DWORDX3,
        _ => Opcode::GLOBAL_STORE_DWORDX4,
    }
}

/// Modifiers other than the offset must agree for two accesses to merge.
fn same_mods(a: &Modifiers, b: &Modifiers) -> bool {
    let mut x = *a;
    x.offset = b.offset;
    x == *b
}

fn touches(i: &MInst, r: VReg) -> bool {
    i.ops.iter().any(|o| matches!(o, MOp::Reg(x, _) if *x == r))
}

fn defines(i: &MInst, r: VReg) -> bool {
    i.def_regs().any(|x| x == r)
}

/// Merges the runs; returns what it made.
pub fn merge(mc: &mut MachineCode) -> WideReport {
    let mut report = WideReport::default();
    merge_loads(mc, &mut report);
    merge_stores(mc, &mut report);
    report
}

fn def_counts(mc: &MachineCode) -> Vec<u32> {
    let mut n = vec![0u32; mc.vregs.len()];
    for item in &mc.items {
        if let Item::Inst(i) = item {
            for r in i.def_regs() {
                n[r.0 as usize] += 1;
            }
        }
    }
    n
}

/// A single-dword VGPR defined once, not pinned: it may become one dword
/// of a tuple.
fn retuplable(mc: &MachineCode, defs: &[u32], r: VReg) -> bool {
    let info = mc.vregs[r.0 as usize];
    info.class == RegClass::Vgpr
        && info.dwords == 1
        && info.fixed.is_none()
        && defs[r.0 as usize] == 1
}

/// Rewrites every `Reg(from[k], 0)` to `Reg(to, k)`; an instruction that
/// now touches the tuple is no longer a coalescable copy.
fn retuple(mc: &mut MachineCode, from: &[VReg], to: VReg) {
    for item in &mut mc.items {
        let Item::Inst(i) = item else { continue };
        let mut hit = false;
        for o in &mut i.ops {
            if let MOp::Reg(r, 0) = *o {
                if let Some(k) = from.iter().position(|&f| f == r) {
                    *o = MOp::Reg(to, k as u8);
                    hit = true;
                }
            }
        }
        if hit {
            i.is_copy = false;
        }
    }
}

fn as_dword_load(i: &MInst) -> Option<(VReg, VReg, i32)> {
    match (i.opcode, i.family, &i.ops[..]) {
        (Opcode::GLOBAL_LOAD_DWORD, Family::Global, [MOp::Reg(d, 0), MOp::Reg(a, 0), MOp::Off]) => {
            Some((*d, *a, i.modifiers.offset))
        }
        _ => None,
    }
}

fn as_dword_store(i: &MInst) -> Option<(VReg, MOp, i32)> {
    match (i.opcode, i.family, &i.ops[..]) {
        (Opcode::GLOBAL_STORE_DWORD, Family::Global, [MOp::Reg(a, 0), v, MOp::Off]) => {
            Some((*a, *v, i.modifiers.offset))
        }
        _ => None,
    }
}

fn merge_loads(mc: &mut MachineCode, report: &mut WideReport) {
    let mut s = 0;
    while s < mc.items.len() {
        let defs = def_counts(mc);
        let Item::Inst(first) = &mc.items[s] else {
            s += 1;
            continue;
        };
        let Some((d0, a, off0)) = as_dword_load(first) else {
            s += 1;
            continue;
        };
        if !retuplable(mc, &defs, d0) {
            s += 1;
            continue;
        }
        let mods0 = first.modifiers;
        let mut run = vec![(s, d0)];
        let mut k = s + 1;
        while run.len() < 4 && k < mc.items.len() {
            let Item::Inst(i) = &mc.items[k] else { break };
            if let Some((d, a2, off)) = as_dword_load(i) {
                if a2 == a
                    && off == off0 + 4 * run.len() as i32
                    && same_mods(&mods0, &i.modifiers)
                    && retuplable(mc, &defs, d)
                    && !run.iter().any(|&(_, x)| x == d)
                {
                    run.push((k, d));
                    k += 1;
                    continue;
                }
                break;
            }
            let blocks = is_memory(i.family)
                || i.target.is_some()
                || defines(i, a)
                || run.iter().any(|&(_, d)| touches(i, d));
            if blocks {
                break;
            }
            k += 1;
        }
        if run.len() < 2 {
            s += 1;
            continue;
        }
        let n = run.len();
        let t = mc.vreg(RegClass::Vgpr, n as u8);
        let mut wide = MInst::new(
            load_op(n),
            Family::Global,
            1,
            &[MOp::Reg(t, 0), MOp::Reg(a, 0), MOp::Off],
        );
        wide.modifiers = mods0;
        mc.items[s] = Item::Inst(wide);
        for &(at, _) in run[1..].iter().rev() {
            mc.items.remove(at);
        }
        let from: Vec<VReg> = run.iter().map(|&(_, d)| d).collect();
        retuple(mc, &from, t);
        report.loads.push(n as u8);
        s += 1;
    }
}

fn merge_stores(mc: &mut MachineCode, report: &mut WideReport) {
    let mut s = 0;
    while s < mc.items.len() {
        let Item::Inst(first) = &mc.items[s] else {
            s += 1;
            continue;
        };
        let Some((a, v0, off0)) = as_dword_store(first) else {
            s += 1;
            continue;
        };
        let mods0 = first.modifiers;
        let mut run = vec![(s, v0)];
        let mut k = s + 1;
        while run.len() < 4 && k < mc.items.len() {
            let Item::Inst(i) = &mc.items[k] else { break };
            if let Some((a2, v, off)) = as_dword_store(i) {
                if a2 == a && off == off0 + 4 * run.len() as i32 && same_mods(&mods0, &i.modifiers)
                {
                    run.push((k, v));
                    k += 1;
                    continue;
                }
                break;
            }
            // The earlier stores move down past `i`: it must not change
            // their address or data, nor touch memory.
            let blocks = is_memory(i.family)
                || i.target.is_some()
                || defines(i, a)
                || run
                    .iter()
                    .any(|&(_, v)| matches!(v, MOp::Reg(r, _) if defines(i, r)));
            if blocks {
                break;
            }
            k += 1;
        }
        if run.len() < 2 {
            s += 1;
            continue;
        }
        let n = run.len();
        let last = run[n - 1].0;
        let values: Vec<MOp> = run.iter().map(|&(_, v)| v).collect();
        let defs = def_counts(mc);
        let mut moves = Vec::new();
        let data = match values[0] {
            // Already one tuple in order (e.g. a merged load stored back).
            MOp::Reg(r, 0)
                if mc.vregs[r.0 as usize].dwords as usize == n
                    && values
                        .iter()
                        .enumerate()
                        .all(|(k, v)| *v == MOp::Reg(r, k as u8)) =>
            {
                r
            }
            _ => {
                let singles: Vec<VReg> = values
                    .iter()
                    .filter_map(|v| match v {
                        MOp::Reg(r, 0) if retuplable(mc, &defs, *r) => Some(*r),
                        _ => None,
                    })
                    .collect();
                let distinct = singles
                    .iter()
                    .enumerate()
                    .all(|(k, r)| !singles[..k].contains(r));
                let t = mc.vreg(RegClass::Vgpr, n as u8);
                if singles.len() == n && distinct {
                    retuple(mc, &singles, t);
                } else {
                    for (k, v) in values.iter().enumerate() {
                        moves.push(MInst::new(
                            Opcode::V_MOV_B32,
                            Family::Vop1,
                            1,
                            &[MOp::Reg(t, k as u8), *v],
                        ));
                    }
                }
                t
            }
        };
        let mut wide = MInst::new(
            store_op(n),
            Family::Global,
            0,
            &[MOp::Reg(a, 0), MOp::Reg(data, 0), MOp::Off],
        );
        wide.modifiers = mods0;
        let mut tail: Vec<Item> = moves.into_iter().map(Item::Inst).collect();
        tail.push(Item::Inst(wide));
        mc.items.splice(last..=last, tail);
        for &(at, _) in run[..n - 1].iter().rev() {
            mc.items.remove(at);
        }
        report.stores.push(n as u8);
        s += 1;
    }
}
