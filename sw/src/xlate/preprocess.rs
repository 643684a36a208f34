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

use arch::isa::{decode, Family, Instruction, Opcode, Operand, Target};

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
    /// Per code dword: the index of the instruction starting there.
    at_dword: Vec<u32>,
    /// Per decoded instruction (and the end): some branch jumps there.
    is_target: Vec<bool>,
    /// Per decoded instruction (and the end): its index among the kept ones.
    keep_index: Vec<u32>,
}

/// [`preprocess`] into `insts` (cleared first) with `scratch`'s buffers:
/// `translate_code` hands back the buffers of its previous translation, so
/// that large programs do not pay for fresh pages (116 bytes per decoded
/// instruction) on every translation.
pub(crate) fn preprocess_into(
    code: &[u8],
    mut insts: Vec<LegacyInst>,
    scratch: &mut Scratch,
) -> Result<Program, XlateError> {
    let Scratch {
        at_dword,
        is_target,
        keep_index,
    } = scratch;
    // 1. Decode until the end or the first undecodable word, straight into
    //    the vector that is compacted in place below (one copy of the
    //    program in memory).
    insts.clear();
    insts.reserve(code.len() / 5 + 1);
    // Per code dword: the index of the instruction starting there
    // (`u32::MAX`: none), for constant-time branch target look-ups.
    at_dword.clear();
    at_dword.resize(code.len() / 4 + 1, u32::MAX);
    // Branches (instruction index, target byte offset) and whether any
    // instruction reads M0, gathered while decoding.
    let mut branches: Vec<(u32, i64)> = Vec::new();
    let mut m0_read = false;
    let mut at = 0usize;
    let mut undecodable: Option<(usize, String)> = None;
    while at < code.len() {
        match decode(Target::GFX803, &code[at..]) {
            Ok(inst) => {
                m0_read |= reads_m0(&inst);
                if inst.family == Family::Sopp && inst.opcode.is_branch() {
                    let t = at as i64 + 4 + i64::from(inst.modifiers.simm16 as i16) * 4;
                    branches.push((insts.len() as u32, t));
                }
                at_dword[at / 4] = insts.len() as u32;
                insts.push(LegacyInst {
                    offset: at as u32,
                    inst,
                    target: None,
                    leader: false,
                });
                at += usize::from(inst.size.max(4));
            }
            Err(e) => {
                undecodable = Some((at, e.to_string()));
                break;
            }
        }
    }
    let decoded = insts.len();
    // 2. Branch targets as indices into the decoded instructions
    //    (`decoded` = the decoded end).
    is_target.clear();
    is_target.resize(decoded + 1, false);
    for &(i, t) in &branches {
        let idx = if t == at as i64 {
            Some(decoded)
        } else {
            usize::try_from(t)
                .ok()
                .filter(|&o| o % 4 == 0)
                .and_then(|o| at_dword.get(o / 4))
                .filter(|&&k| k != u32::MAX)
                .map(|&k| k as usize)
        }
        .ok_or(XlateError::BadBranch {
            offset: insts[i as usize].offset as usize,
            target: t,
        })?;
        insts[i as usize].target = Some(idx as u32);
        is_target[idx] = true;
    }
    // 3. Keep or remove, in one scan compacting in place; reachability
    //    restarts at each target.
    keep_index.clear();
    keep_index.reserve(decoded + 1);
    let mut removed = Vec::new();
    let mut reachable = true;
    let mut kept = 0usize;
    // The last decoded instruction, for the falling-off-the-end error
    // (compaction may overwrite it).
    let last: Option<(u32, Instruction)> = insts.last().map(|l| (l.offset, l.inst));
    for i in 0..decoded {
        keep_index.push(kept as u32);
        reachable |= is_target[i];
        let li = &insts[i];
        let inst = &li.inst;
        let why = if !reachable {
            Some(Removal::Unreachable)
        } else if inst.opcode == Opcode::S_NOP && inst.family == Family::Sopp {
            Some(Removal::Hint)
        } else if !m0_read && is_lds_m0_setup(inst) {
            Some(Removal::LdsM0)
        } else if li.target == Some(i as u32 + 1) {
            Some(Removal::SelfBranch)
        } else {
            None
        };
        if reachable && ends_flow(inst) {
            reachable = false;
        }
        match why {
            Some(w) => removed.push((li.offset, w)),
            None => {
                if kept != i {
                    insts[kept] = insts[i];
                }
                kept += 1;
            }
        }
    }
    insts.truncate(kept);
    if let Some((offset, reason)) = undecodable {
        if reachable || is_target[decoded] {
            return Err(XlateError::Decode { offset, reason });
        }
    } else if let Some((offset, inst)) = last.filter(|_| reachable || is_target[decoded]) {
        // Falling off the end of the code is not a program (gfx8 would run
        // whatever follows); require an explicit end.
        return Err(XlateError::Unsupported {
            offset: offset as usize,
            text: inst.to_string(),
            reason: "execution falls off the end of the kernel's code".into(),
        });
    }
    keep_index.push(insts.len() as u32);
    // 4. Rewrite targets of the kept branches (only those: no pass over the
    //    whole program): a removed target forwards to the next kept
    //    instruction. Branch `i` was kept when the kept count grew past it.
    for &(i, _) in &branches {
        let (k, next) = (keep_index[i as usize], keep_index[i as usize + 1]);
        if next == k {
            continue;
        }
        if let Some(t) = insts[k as usize].target {
            let new = keep_index[t as usize];
            insts[k as usize].target = Some(new);
            if let Some(l) = insts.get_mut(new as usize) {
                l.leader = true;
            }
        }
    }
    Ok(Program {
        insts,
        decoded,
        removed,
        code_bytes: code.len(),
    })
}

/// The largest SGPR (`Some(n)`) or VGPR index an operand of `inst` touches,
/// as (max SGPR, max VGPR).
pub fn registers(inst: &Instruction) -> (Option<u16>, Option<u16>) {
    let mut s = None;
    let mut v = None;
    for op in inst.operands() {
        if let Operand::Src { code, ty } = *op {
            // gfx803: s0..s101 are 0..=101, VGPRs 256..=511; nothing else
            // is a numbered register (`classify`).
            let last = || u16::from(ty.dwords(Target::GFX803)).saturating_sub(1);
            if code <= 101 {
                s = s.max(Some(code + last()));
            } else if code >= 256 {
                v = v.max(Some(code - 256 + last()));
            }
        }
    }
    (s, v)
}
