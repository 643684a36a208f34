//! Preprocessing (seed 003 Fig. 4, step 42): decode the legacy program and
//! remove what translates to nothing on gfx1030, then rewrite every branch
//! target as an index into the kept instructions.
//!
//! Removed:
//! * `s_nop`: gfx8 software hazard padding; gfx1030 interlocks the hazards
//!   gfx8 compilers pad for (and the models execute in order).
//! * `s_mov_b32 m0, -1` when nothing but LDS instructions reads M0: gfx8 DS
//!   instructions clamp LDS addresses to M0, gfx1030 ignores M0 for LDS.
//! * Unreachable instructions: after `s_endpgm` or `s_branch` up to the next
//!   branch target (code-end padding, dead tails). Undecodable bytes there are
//!   fine; undecodable bytes that execution can reach are an error.
//! * Branches to the next instruction: they flow to the same place taken or not.
//!
//! The result may no longer be a legal gfx8 program (seed 003: "semantically
//! equivalent, not necessarily legal for GPU-A").

use arch::isa::{decode, decode_into, Family, Instruction, Opcode, Operand, Target};

use super::XlateError;

/// Source code of M0 (both ISAs).
pub const M0: u16 = 124;
/// Inline constant -1.
const INLINE_MINUS_ONE: u16 = 193;

/// One kept legacy instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LegacyInst {
    /// Byte offset in the legacy code.
    pub offset: u32,
    /// The decoded gfx803 instruction.
    pub inst: Instruction,
    /// For a branch: index of the kept instruction it jumps to
    /// (`insts.len()` means the end of the program).
    pub target: Option<u32>,
    /// Some branch jumps here (a block leader).
    pub leader: bool,
}

/// Why an instruction was removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Removal {
    /// A hint or hazard no-op (`s_nop`).
    Hint,
    /// `s_mov_b32 m0, -1` that only gfx8 LDS needs.
    LdsM0,
    /// Not reachable from the entry.
    Unreachable,
    /// A branch to the next instruction.
    SelfBranch,
}

/// The preprocessed program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Kept instructions in static program order.
    pub insts: Vec<LegacyInst>,
    /// Instructions decoded (kept + removed; undecodable unreachable bytes are
    /// not instructions).
    pub decoded: usize,
    /// Removed instructions: (legacy byte offset, why).
    pub removed: Vec<(u32, Removal)>,
    /// Length of the legacy code in bytes.
    pub code_bytes: usize,
}

impl Program {
    /// How many instructions were removed for `why`.
    pub fn removed_for(&self, why: Removal) -> usize {
        self.removed.iter().filter(|(_, r)| *r == why).count()
    }
}

/// Opcodes that read M0 without naming it as an operand.
fn reads_m0_implicitly(inst: &Instruction) -> bool {
    matches!(
        inst.opcode,
        Opcode::S_MOVRELS_B32
            | Opcode::S_MOVRELS_B64
            | Opcode::S_MOVRELD_B32
            | Opcode::S_MOVRELD_B64
            | Opcode::V_MOVRELS_B32
            | Opcode::V_MOVRELD_B32
            | Opcode::V_MOVRELSD_B32
            | Opcode::S_SENDMSG
            | Opcode::S_SENDMSGHALT
            | Opcode::S_SET_GPR_IDX_ON
            | Opcode::S_SET_GPR_IDX_OFF
            | Opcode::S_SET_GPR_IDX_IDX
            | Opcode::S_SET_GPR_IDX_MODE
            | Opcode::DS_GWS_INIT
            | Opcode::DS_GWS_BARRIER
            | Opcode::DS_GWS_SEMA_V
            | Opcode::DS_GWS_SEMA_P
            | Opcode::DS_GWS_SEMA_BR
            | Opcode::DS_GWS_SEMA_RELEASE_ALL
            | Opcode::DS_ORDERED_COUNT
    ) || (inst.family == Family::Ds && inst.modifiers.gds)
        || (inst.family == Family::Mubuf && inst.modifiers.lds)
}

/// True when `inst` writes M0 as its (first, destination) operand.
pub fn writes_m0(inst: &Instruction) -> bool {
    is_scalar_write(inst) && matches!(inst.operands().first(), Some(Operand::Src { code: M0, .. }))
}

/// SALU families whose first operand is a destination.
fn is_scalar_write(inst: &Instruction) -> bool {
    matches!(inst.family, Family::Sop1 | Family::Sop2 | Family::Sopk)
}

/// True when `inst` reads M0 other than as gfx8's LDS limit.
fn reads_m0(inst: &Instruction) -> bool {
    if reads_m0_implicitly(inst) {
        return true;
    }
    let skip_first = writes_m0(inst);
    inst.operands()
        .iter()
        .enumerate()
        .any(|(i, op)| !(skip_first && i == 0) && matches!(op, Operand::Src { code: M0, .. }))
}

fn is_lds_m0_setup(inst: &Instruction) -> bool {
    inst.opcode == Opcode::S_MOV_B32
        && inst.family == Family::Sop1
        && matches!(
            inst.operands(),
            [
                Operand::Src { code: M0, .. },
                Operand::Src {
                    code: INLINE_MINUS_ONE,
                    ..
                }
            ]
        )
}

/// Ends a straight-line run: nothing after it executes unless branched to.
fn ends_flow(inst: &Instruction) -> bool {
    matches!(inst.opcode, Opcode::S_ENDPGM | Opcode::S_BRANCH) && inst.family == Family::Sopp
}

/// Decodes and preprocesses legacy code (entry at byte 0).
pub fn preprocess(code: &[u8]) -> Result<Program, XlateError> {
    preprocess_into(code, Vec::new(), &mut Scratch::default())
}

/// Working buffers of [`preprocess_into`], kept between translations.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    /// Per code dword: the index of the instruction starting there
    /// ([`NO_INST`]: none; [`DROPPED`]` | k`: an instruction dropped while
    /// decoding, whose branches go to instruction `k`).
    at_dword: Vec<u32>,
    /// Per decoded instruction (and the end): some branch jumps there.
    is_target: Vec<bool>,
}

/// No instruction starts at this dword.
const NO_INST: u32 = u32::MAX;
/// The instruction at this dword was dropped while decoding.
const DROPPED: u32 = 1 << 31;

/// What one decoding pass produced.
enum Pass {
    Done(Program),
    /// `s_mov_b32 m0, -1` was dropped optimistically but M0 turned out to be
    /// read: decode again keeping it (rare).
    KeepM0(Vec<LegacyInst>),
}

/// [`preprocess`] into `insts` (cleared first) with `scratch`'s buffers:
/// `translate_code` hands back the buffers of its previous translation, so
/// that large programs do not pay for fresh pages (116 bytes per decoded
/// instruction) on every translation.
///
/// `s_nop` and the LDS `m0` set-up are dropped while decoding (never
/// stored), so that the only instructions removed afterwards, by moving the
/// rest down, are unreachable ones (usually the padding at the end) and
/// branches to the next instruction: most programs are never copied.
pub(crate) fn preprocess_into(
    code: &[u8],
    insts: Vec<LegacyInst>,
    scratch: &mut Scratch,
) -> Result<Program, XlateError> {
    match pass(code, insts, scratch, false)? {
        Pass::Done(p) => Ok(p),
        Pass::KeepM0(insts) => match pass(code, insts, scratch, true)? {
            Pass::Done(p) => Ok(p),
            Pass::KeepM0(_) => unreachable!("keep_m0 never asks to keep M0"),
        },
    }
}

fn pass(
    code: &[u8],
    mut insts: Vec<LegacyInst>,
    scratch: &mut Scratch,
    keep_m0: bool,
) -> Result<Pass, XlateError> {
    let Scratch {
        at_dword,
        is_target,
    } = scratch;
    // 1. Decode until the end or the first undecodable word, straight into
    //    the vector that is compacted in place below (one copy of the
    //    program in memory), gathering what the later steps need.
    insts.clear();
    insts.reserve(code.len() / 5 + 1);
    at_dword.clear();
    at_dword.resize(code.len() / 4 + 1, NO_INST);
    // Dropped: (offset, index of the next stored instruction, why).
    let mut dropped: Vec<(u32, u32, Removal)> = Vec::new();
    // Branches (index, target byte offset); branches to the next
    // instruction; s_endpgm/s_branch (indices, increasing).
    let mut branches: Vec<(u32, i64)> = Vec::new();
    let mut self_branches: Vec<u32> = Vec::new();
    let mut flow_ends: Vec<u32> = Vec::new();
    let mut m0_read = false;
    let mut last_at: Option<usize> = None;
    let mut at = 0usize;
    let mut undecodable: Option<(usize, String)> = None;
    // Decoded straight into the vector's next slot (`decode_into`): a
    // returned instruction copied into the vector costs a large copy of
    // freshly written bytes per instruction (store-forwarding stalls).
    let blank = LegacyInst {
        offset: 0,
        inst: arch::isa::Instruction {
            target: Target::GFX803,
            opcode: Opcode::S_NOP,
            family: Family::Sopp,
            variant: arch::isa::Variant::Plain,
            operands: [Operand::Off; arch::isa::MAX_OPERANDS],
            operand_count: 0,
            modifiers: Default::default(),
            size: 4,
        },
        target: None,
        leader: false,
    };
    while at < code.len() {
        let k = insts.len() as u32;
        insts.push(blank);
        let slot = &mut insts[k as usize];
        slot.offset = at as u32;
        if let Err(e) = decode_into(Target::GFX803, &code[at..], &mut slot.inst) {
            insts.truncate(k as usize);
            undecodable = Some((at, e.to_string()));
            break;
        }
        let inst = &slot.inst;
        let next = at + usize::from(inst.size.max(4));
        last_at = Some(at);
        m0_read |= reads_m0(inst);
        let drop = if inst.opcode == Opcode::S_NOP && inst.family == Family::Sopp {
            Some(Removal::Hint)
        } else if !keep_m0 && is_lds_m0_setup(inst) {
            Some(Removal::LdsM0)
        } else {
            None
        };
        if let Some(why) = drop {
            insts.truncate(k as usize);
            at_dword[at / 4] = DROPPED | k;
            dropped.push((at as u32, k, why));
            at = next;
            continue;
        }
        if inst.family == Family::Sopp && inst.opcode.is_branch() {
            let t = at as i64 + 4 + i64::from(inst.modifiers.simm16 as i16) * 4;
            branches.push((k, t));
            if t == next as i64 {
                self_branches.push(k);
            }
        }
        if ends_flow(inst) {
            flow_ends.push(k);
        }
        at_dword[at / 4] = k;
        at = next;
    }
    if !keep_m0 && m0_read && dropped.iter().any(|d| d.2 == Removal::LdsM0) {
        return Ok(Pass::KeepM0(insts));
    }
    let n = insts.len();
    let decoded = n + dropped.len();
    // 2. Branch targets as indices into the stored instructions (`n` = the
    //    decoded end); a dropped target forwards to the next stored one.
    is_target.clear();
    is_target.resize(n + 1, false);
    let mut dropped_targets: Vec<u32> = Vec::new();
    for &(i, t) in &branches {
        let idx = if t == at as i64 {
            Some(n as u32)
        } else {
            usize::try_from(t)
                .ok()
                .filter(|&o| o % 4 == 0)
                .and_then(|o| at_dword.get(o / 4))
                .copied()
                .filter(|&k| k != NO_INST)
        }
        .ok_or(XlateError::BadBranch {
            offset: insts[i as usize].offset as usize,
            target: t,
        })?;
        if idx & DROPPED != 0 {
            dropped_targets.push(t as u32);
        }
        let idx = idx & !DROPPED;
        insts[i as usize].target = Some(idx);
        is_target[idx as usize] = true;
    }
    dropped_targets.sort_unstable();
    // 3. Unreachable runs: after an s_endpgm/s_branch that is itself
    //    reachable, up to the next branch target.
    let mut dead: Vec<u32> = Vec::new();
    let mut dead_until = 0u32;
    for &e in &flow_ends {
        if e < dead_until {
            continue; // inside a run already: the run goes on
        }
        let mut j = e + 1;
        while (j as usize) < n && !is_target[j as usize] {
            dead.push(j);
            j += 1;
        }
        dead_until = j;
    }
    let is_dead = |i: u32| dead.binary_search(&i).is_ok();
    // Reachability just before stored instruction `k`, walking the dropped
    // instructions of the gap before it: false after an unreachable
    // instruction or an s_endpgm/s_branch; a branch target restarts it.
    let reachable_after =
        |k: u32| k == 0 || !(is_dead(k - 1) || flow_ends.binary_search(&(k - 1)).is_ok());
    let mut removed: Vec<(u32, Removal)> = Vec::with_capacity(decoded - n + dead.len());
    let mut gap: Option<(u32, bool)> = None; // (k, reachable so far in the gap)
    for &(offset, k, why) in &dropped {
        let reachable = match gap {
            Some((g, r)) if g == k => r,
            _ => reachable_after(k),
        } || dropped_targets.binary_search(&offset).is_ok();
        gap = Some((k, reachable));
        removed.push((offset, if reachable { why } else { Removal::Unreachable }));
    }
    let reachable_end = match gap {
        Some((g, r)) if g == n as u32 => r,
        _ => reachable_after(n as u32),
    } || is_target[n];
    // 4. Remove the unreachable runs and (reachable) branches to the next
    //    instruction, moving the rest down from the first removal only.
    let mut gone: Vec<u32> = dead.clone();
    for &b in &self_branches {
        if !is_dead(b) {
            gone.push(b);
            removed.push((insts[b as usize].offset, Removal::SelfBranch));
        }
    }
    gone.sort_unstable();
    for &d in &dead {
        removed.push((insts[d as usize].offset, Removal::Unreachable));
    }
    removed.sort_unstable_by_key(|r| r.0);
    if let Some(&first) = gone.first() {
        let mut g = 0;
        let mut kept = first as usize;
        for i in first as usize..n {
            if g < gone.len() && gone[g] as usize == i {
                g += 1;
                continue;
            }
            insts[kept] = insts[i];
            kept += 1;
        }
        insts.truncate(kept);
    }
    // The kept index of stored instruction `i` (or of the next kept one).
    let new_index = |i: u32| i - gone.partition_point(|&g| g < i) as u32;
    if let Some((offset, reason)) = undecodable {
        if reachable_end {
            return Err(XlateError::Decode { offset, reason });
        }
    } else if let Some(last) = last_at.filter(|_| reachable_end) {
        // Falling off the end of the code is not a program (gfx8 would run
        // whatever follows); require an explicit end.
        let text =
            decode(Target::GFX803, &code[last..]).map_or_else(|e| e.to_string(), |i| i.to_string());
        return Err(XlateError::Unsupported {
            offset: last,
            text,
            reason: "execution falls off the end of the kernel's code".into(),
        });
    }
    // 5. Rewrite the kept branches' targets and mark the leaders.
    for &(i, _) in &branches {
        if gone.binary_search(&i).is_ok() {
            continue;
        }
        let k = new_index(i) as usize;
        if let Some(t) = insts[k].target {
            let new = new_index(t);
            insts[k].target = Some(new);
            if let Some(l) = insts.get_mut(new as usize) {
                l.leader = true;
            }
        }
    }
    Ok(Pass::Done(Program {
        insts,
        decoded,
        removed,
        code_bytes: code.len(),
    }))
}

/// The largest SGPR (`Some(n)`) or VGPR index an operand of `inst` touches,
/// as (max SGPR, max VGPR).
pub fn registers(inst: &Instruction) -> (Option<u16>, Option<u16>) {
    // Highest index + 1 (0: none), branch-free per operand: the summary
    // pass runs this on every instruction. The operand array is read
    // directly (`Instruction::operands` is not inlined across crates).
    let (mut s, mut v) = (0u16, 0u16);
    let n = usize::from(inst.operand_count).min(inst.operands.len());
    for op in &inst.operands[..n] {
        if let Operand::Src { code, ty } = *op {
            // gfx803: s0..s101 are 0..=101, VGPRs 256..=511; nothing else
            // is a numbered register (`classify`).
            let end = code + u16::from(ty.dwords(Target::GFX803));
            s = s.max(if code <= 101 { end } else { 0 });
            v = v.max(if code >= 256 { end - 256 } else { 0 });
        }
    }
    (s.checked_sub(1), v.checked_sub(1))
}
