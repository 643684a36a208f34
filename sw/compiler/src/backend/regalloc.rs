//! Register allocation: linear scan (Poletto & Sarkar) over the linear
//! machine code, one pass per register file, with copy coalescing.
//!
//! Live intervals are `[first mention, last mention]` in the linear order,
//! extended to the back edge for values live into a loop. That is enough
//! because the selected code is structured: a value defined before a
//! divergent if and read in its else part stays live across the then part,
//! which the linear order shows. Lanes
//! switched off by EXEC keep their register contents, so a register reused
//! in a masked region never clobbers a live lane of another value.
//!
//! A `v_mov`/`s_mov` copy whose source dies at the copy gets the source's
//! register and then disappears (seed 004: "merge into the same variable is
//! the masked operation alone").

use super::minst::{Item, MOp, MachineCode, RegClass, VReg};
use super::BackendError;

/// SGPRs the allocator may hand out (`s0`–`s103`; gfx10 has s0–s105, the
/// last two are left free as LLVM leaves them for VCC-less code).
pub const SGPR_LIMIT: u16 = 104;
/// VGPRs the allocator may hand out.
pub const VGPR_LIMIT: u16 = 256;

/// Physical registers for every virtual register.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// First physical register of each virtual register (within its class).
    pub phys: Vec<u16>,
    /// SGPRs used (highest + 1).
    pub sgprs: u16,
    /// VGPRs used (highest + 1).
    pub vgprs: u16,
}

#[derive(Clone, Copy, Debug)]
struct Interval {
    start: usize,
    end: usize,
    reg: VReg,
}

/// A value live into a loop (defined before its head, used inside) is read
/// again by the next iteration: it stays live until the back edge. Values
/// made inside the loop reach later iterations only through the header's
/// parameters, whose copies at the latch already end their intervals there.
fn extend_over_loops(mc: &MachineCode, start: &[usize], end: &mut [usize]) {
    let loops = mc.back_edges();
    // Nested loops: repeat until an extension by an outer loop no longer
    // makes a value live into an inner one.
    let mut changed = !loops.is_empty();
    while changed {
        changed = false;
        for &(head, back) in &loops {
            for k in 0..start.len() {
                if start[k] < head && end[k] >= head && end[k] < back {
                    end[k] = back;
                    changed = true;
                }
            }
        }
    }
}

/// Allocates registers for `mc` with at most `vgpr_limit` VGPRs.
pub fn allocate(mc: &MachineCode, vgpr_limit: u16) -> Result<Assignment, BackendError> {
    allocate_or_victim(mc, vgpr_limit).map_err(|(e, _)| e)
}

/// [`allocate`]; when VGPRs run out, also the value to spill: of the
/// intervals live at that point (not fixed), the one that ends
/// last (Poletto & Sarkar's heuristic).
pub fn allocate_or_victim(
    mc: &MachineCode,
    vgpr_limit: u16,
) -> Result<Assignment, (BackendError, Option<VReg>)> {
    let n = mc.vregs.len();
    let mut start = vec![usize::MAX; n];
    let mut end = vec![0usize; n];
    // Copy hints: destination vreg -> (source vreg, position of the copy).
    let mut hint: Vec<Option<(VReg, usize)>> = vec![None; n];
    for (pos, item) in mc.items.iter().enumerate() {
        let Item::Inst(i) = item else { continue };
        for o in &i.ops {
            if let MOp::Reg(r, _) = o {
                let k = r.0 as usize;
                start[k] = start[k].min(pos);
                end[k] = end[k].max(pos);
            }
        }
        if i.is_copy {
            // A wide value is copied dword by dword: the hint starts at the
            // first dword's copy (which must define the destination) and its
            // position moves to the last, where the source must die.
            match (i.ops[0], i.ops[1]) {
                (MOp::Reg(d, 0), MOp::Reg(s, 0))
                    if hint[d.0 as usize].is_none() && start[d.0 as usize] == pos =>
                {
                    hint[d.0 as usize] = Some((s, pos));
                }
                (MOp::Reg(_, 0), _) => {}
                (MOp::Reg(d, k), MOp::Reg(s, j)) if k == j => {
                    if let Some((hs, at)) = &mut hint[d.0 as usize] {
                        if *hs == s && *at + 1 == pos {
                            *at = pos;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    extend_over_loops(mc, &start, &mut end);
    for (k, info) in mc.vregs.iter().enumerate() {
        if info.fixed.is_some() && start[k] != usize::MAX {
            // Hardware-initialised: live from the first instruction.
            start[k] = 0;
        }
    }
    let mut phys = vec![u16::MAX; n];
    let mut used = [0u16; 2];
    for class in [RegClass::Sgpr, RegClass::Vgpr] {
        let limit = if class == RegClass::Sgpr {
            SGPR_LIMIT
        } else {
            vgpr_limit.clamp(1, VGPR_LIMIT)
        };
        let mut intervals: Vec<Interval> = (0..n)
            .filter(|&k| mc.vregs[k].class == class && start[k] != usize::MAX)
            .map(|k| Interval {
                start: start[k],
                end: end[k],
                reg: VReg(k as u32),
            })
            .collect();
        // Fixed registers first at equal starts, then by start.
        intervals.sort_by_key(|iv| {
            (
                iv.start,
                mc.vregs[iv.reg.0 as usize].fixed.is_none(),
                iv.reg.0,
            )
        });
        let mut busy = vec![false; usize::from(limit)];
        let mut active: Vec<Interval> = Vec::new();
        for iv in intervals {
            let info = mc.vregs[iv.reg.0 as usize];
            let width = usize::from(info.dwords);
            // Expire intervals that ended before this one starts.
            active.retain(|a| {
                if a.end < iv.start {
                    let p = usize::from(phys[a.reg.0 as usize]);
                    let w = usize::from(mc.vregs[a.reg.0 as usize].dwords);
                    busy[p..p + w].iter_mut().for_each(|b| *b = false);
                    false
                } else {
                    true
                }
            });
            let mut chosen = None;
            if let Some(p) = info.fixed {
                let p = usize::from(p);
                if busy[p..p + width].iter().any(|&b| b) {
                    return Err((
                        BackendError::Internal(format!("fixed register {p} is already taken")),
                        None,
                    ));
                }
                chosen = Some(p);
            } else if let Some((src, pos)) = hint[iv.reg.0 as usize] {
                // Coalesce: the source dies at the copy and has the same shape.
                let s = src.0 as usize;
                let sinfo = mc.vregs[s];
                if sinfo.class == class
                    && sinfo.dwords == info.dwords
                    && end[s] == pos
                    && phys[s] != u16::MAX
                {
                    let p = usize::from(phys[s]);
                    if let Some(at) = active.iter().position(|a| a.reg == src) {
                        active.remove(at);
                        chosen = Some(p);
                    }
                }
            }
            let p = match chosen {
                Some(p) => p,
                None => {
                    let align = usize::from(info.align.max(1));
                    let free = (0..usize::from(limit).saturating_sub(width - 1))
                        .step_by(align)
                        .find(|&p| busy[p..p + width].iter().all(|&b| !b));
                    match free {
                        Some(p) => p,
                        None => {
                            let victim = (class == RegClass::Vgpr)
                                .then(|| {
                                    active
                                        .iter()
                                        .chain(std::iter::once(&iv))
                                        .filter(|a| {
                                            let i = mc.vregs[a.reg.0 as usize];
                                            i.fixed.is_none() && a.end > iv.start
                                        })
                                        .max_by_key(|a| (a.end, a.reg.0))
                                        .map(|a| a.reg)
                                })
                                .flatten();
                            let file = if class == RegClass::Sgpr {
                                "SGPR"
                            } else {
                                "VGPR"
                            };
                            return Err((BackendError::OutOfRegisters { file, limit }, victim));
                        }
                    }
                }
            };
            busy[p..p + width].iter_mut().for_each(|b| *b = true);
            phys[iv.reg.0 as usize] = p as u16;
            let slot = if class == RegClass::Sgpr { 0 } else { 1 };
            used[slot] = used[slot].max((p + width) as u16);
            active.push(iv);
        }
    }
    Ok(Assignment {
        phys,
        sgprs: used[0],
        vgprs: used[1],
    })
}
