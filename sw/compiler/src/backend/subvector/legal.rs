//! When a stretch of code may run once per half of the wave.
//!
//! Both software rewrites run the stretch once with EXEC limited to the low
//! 32 lanes and once with the high 32. Each lane then executes exactly its
//! original instruction sequence, so VGPR values come out the same; what can
//! differ is everything shared by the lanes of the wave. The stretch is
//! refused (left in conventional mode, with the reason in the report) when:
//!
//! * a branch enters it from outside or leaves it (it must be entered at
//!   its top and left at its bottom: one enter/exit pair);
//! * its EXEC at the bottom might differ from EXEC at the top: every EXEC
//!   write inside must lie between a save of EXEC made inside and that
//!   save's last use inside (the structured if/loop brackets of
//!   instruction selection), because the rewrite restores EXEC at the end;
//! * (not a refusal) a scalar register (SGPR, VCC, M0) read inside before
//!   being written there and also written there — a loop counter set
//!   before the stretch, the loop-invariant values a loop header carries —
//!   would reach the second pass with the first pass's value: [`check`]
//!   returns them and the rewrite copies them aside before the first pass
//!   and back before each pass;
//! * a lane-dependent scalar value (a lane mask from a compare, anything
//!   read from EXEC or VCC or derived from one) made inside is read after
//!   it: the second pass leaves only its own half's bits;
//! * SCC is live across its top or bottom;
//! * it holds an instruction whose result depends on other lanes or on
//!   EXEC as a value (`v_readlane`, `ds_swizzle`, `v_mbcnt … exec`),
//!   a barrier (the other half of a lane's workgroup would pass it before
//!   this half's writes), `s_endpgm`, a jump through a register, or a
//!   sub-vector loop already.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use arch::isa::Opcode;

use crate::backend::minst::{special, Item, MInst, MOp, MachineCode, RegClass};
use crate::backend::regalloc::Assignment;

use super::segments::Liveness;

/// `exec_hi`'s source code.
pub const EXEC_HI: u16 = special::EXEC + 1;

fn mnemonic(i: &MInst) -> &'static str {
    i.opcode.mnemonic()
}

/// True for an instruction that writes EXEC.
pub fn writes_exec(i: &MInst) -> bool {
    let m = mnemonic(i);
    m.contains("saveexec")
        || m.starts_with("v_cmpx")
        || i.ops[..i.defs as usize]
            .iter()
            .any(|o| matches!(o, MOp::Phys(c) if *c == special::EXEC || *c == EXEC_HI))
}

/// True for an instruction that reads EXEC as a value.
pub fn reads_exec(i: &MInst) -> bool {
    mnemonic(i).contains("saveexec")
        || i.ops[i.defs as usize..]
            .iter()
            .any(|o| matches!(o, MOp::Phys(c) if *c == special::EXEC || *c == EXEC_HI))
}

fn reads_scc(i: &MInst) -> bool {
    super::super::minst::reads_scc(i.opcode)
}

fn writes_scc(i: &MInst) -> bool {
    super::super::minst::writes_scc(i.opcode, i.family)
}

/// Why an instruction may not run once per half, if it may not.
fn forbidden(i: &MInst) -> Option<&'static str> {
    let m = mnemonic(i);
    if matches!(
        i.opcode,
        Opcode::S_BARRIER | Opcode::S_ENDPGM | Opcode::S_SUBVECTOR_LOOP_BEGIN
    ) || matches!(
        i.opcode,
        Opcode::S_SUBVECTOR_LOOP_END | Opcode::S_SETPC_B64 | Opcode::S_SWAPPC_B64
    ) {
        return Some("a barrier, the program end, a register jump or a sub-vector loop");
    }
    let cross_lane = m.starts_with("v_readlane")
        || m.starts_with("v_writelane")
        || m.starts_with("v_permlane")
        || m.starts_with("v_movrel")
        || m.starts_with("ds_swizzle")
        || m.starts_with("ds_bpermute")
        || m.starts_with("ds_permute")
        || m.contains("addtid");
    if cross_lane {
        return Some("an instruction that reads other lanes");
    }
    if m.starts_with("v_") && reads_exec(i) {
        return Some("a vector instruction reading EXEC as a value");
    }
    None
}

/// Physical scalar registers (source codes) an operand names: an SGPR
/// virtual register's allocation, or a special register (VCC and EXEC as
/// lane-mask pairs in wave64).
fn scalar_codes(mc: &MachineCode, asg: &Assignment, o: &MOp, wave64: bool, out: &mut Vec<u16>) {
    match *o {
        MOp::Reg(r, sub) => {
            let info = mc.vregs[r.0 as usize];
            if info.class == RegClass::Sgpr {
                let base = asg.phys[r.0 as usize];
                out.extend(base + u16::from(sub)..base + u16::from(info.dwords));
            }
        }
        MOp::Phys(c) if c == special::VCC => {
            out.push(c);
            if wave64 {
                out.push(c + 1);
            }
        }
        MOp::Phys(c) if c == special::M0 || c < 106 => out.push(c),
        _ => {}
    }
}

/// Checks that `range` of `mc` may run once per half (the module's rules);
/// returns the scalar registers (source codes) each pass must start from
/// afresh.
pub fn check(
    mc: &MachineCode,
    asg: &Assignment,
    live: &Liveness,
    range: Range<usize>,
    wave64: bool,
) -> Result<Vec<u16>, String> {
    let at = |p: usize| -> String {
        match &mc.items[p] {
            Item::Inst(i) => format!("`{}` (item {p})", mnemonic(i)),
            Item::Label(l) => format!("label {l}"),
        }
    };
    // One entry, one exit.
    let mut label_at = HashMap::new();
    for (p, item) in mc.items.iter().enumerate() {
        if let Item::Label(l) = item {
            label_at.insert(*l, p);
        }
    }
    for (p, item) in mc.items.iter().enumerate() {
        let Item::Inst(i) = item else { continue };
        let Some(t) = i.target.and_then(|l| label_at.get(&l).copied()) else {
            continue;
        };
        if range.contains(&p) != range.contains(&t) {
            return Err(format!("{} branches across its boundary", at(p)));
        }
    }
    // Forbidden instructions; EXEC brackets.
    let mut brackets: Vec<Range<usize>> = Vec::new();
    for p in range.clone() {
        let Item::Inst(i) = &mc.items[p] else {
            continue;
        };
        if let Some(why) = forbidden(i) {
            return Err(format!("{} is {why}", at(p)));
        }
        if reads_exec(i) {
            for r in i.def_regs() {
                let k = r.0 as usize;
                if live.end[k] >= range.end {
                    return Err(format!("the EXEC saved by {} is used after it", at(p)));
                }
                brackets.push(p..live.end[k] + 1);
            }
        }
    }
    for p in range.clone() {
        let Item::Inst(i) = &mc.items[p] else {
            continue;
        };
        if writes_exec(i) && !brackets.iter().any(|b| b.contains(&p)) {
            return Err(format!(
                "{} changes EXEC outside a save and restore of its own",
                at(p)
            ));
        }
    }
    // Scalar registers read before written inside and written inside.
    let mut read_first: HashSet<u16> = HashSet::new();
    let mut written: HashSet<u16> = HashSet::new();
    let mut codes = Vec::new();
    for p in range.clone() {
        let Item::Inst(i) = &mc.items[p] else {
            continue;
        };
        let first_use = if i.tied { 0 } else { i.defs as usize };
        for o in &i.ops[first_use..] {
            codes.clear();
            scalar_codes(mc, asg, o, wave64, &mut codes);
            read_first.extend(codes.iter().filter(|c| !written.contains(c)));
        }
        for o in &i.ops[..i.defs as usize] {
            codes.clear();
            scalar_codes(mc, asg, o, wave64, &mut codes);
            written.extend(codes.iter().copied());
        }
    }
    let mut restore: Vec<u16> = read_first.intersection(&written).copied().collect();
    restore.sort_unstable();
    // SCC across the boundaries.
    let scc_live_at = |from: usize, to: usize| {
        for item in &mc.items[from..to] {
            if let Item::Inst(i) = item {
                if reads_scc(i) {
                    return true;
                }
                if writes_scc(i) {
                    return false;
                }
            }
        }
        false
    };
    if scc_live_at(range.start, range.end) {
        return Err("SCC is live into it".into());
    }
    if scc_live_at(range.end, mc.items.len()) {
        return Err("SCC is live out of it".into());
    }
    // Lane-dependent scalar values made inside and read after.
    let mut lane_dependent: HashSet<u32> = HashSet::new();
    let vcc_written_inside = written.contains(&special::VCC);
    for _ in 0..2 {
        for p in range.clone() {
            let Item::Inst(i) = &mc.items[p] else {
                continue;
            };
            let tainted = mnemonic(i).starts_with("v_")
                || reads_exec(i)
                || i.ops[i.defs as usize..].iter().any(|o| match o {
                    MOp::Reg(r, _) => lane_dependent.contains(&r.0),
                    MOp::Phys(c) => *c == special::VCC,
                    _ => false,
                });
            if tainted {
                for r in i.def_regs() {
                    if mc.vregs[r.0 as usize].class == RegClass::Sgpr {
                        lane_dependent.insert(r.0);
                    }
                }
            }
        }
    }
    if let Some(&r) = lane_dependent
        .iter()
        .filter(|&&r| live.end[r as usize] >= range.end)
        .min()
    {
        return Err(format!(
            "the lane-dependent scalar value %{r} made inside is read after it"
        ));
    }
    if vcc_written_inside {
        for item in &mc.items[range.end..] {
            let Item::Inst(i) = item else { continue };
            let mention = |o: &MOp| matches!(o, MOp::Phys(c) if *c == special::VCC);
            if i.ops[i.defs as usize..].iter().any(mention) {
                return Err("VCC written inside is read after it".into());
            }
            if i.ops[..i.defs as usize].iter().any(mention) {
                break;
            }
        }
    }
    Ok(restore)
}
