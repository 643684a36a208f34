//! Branch relaxation (the first half of assembly): a SOPP branch holds its
//! offset in a signed 16-bit dword count, so a target more than 32 K dwords
//! away (a loop or `if` body over ~128 KiB of code: PyOpenCL's unrolled
//! double-precision threefry) cannot be reached by `s_branch` or
//! `s_cbranch_*`. Such a branch becomes a long jump, the sequence LLVM's
//! AMDGPU branch relaxation writes (`SIInstrInfo::insertIndirectBranch`):
//!
//! ```text
//! s_getpc_b64 s[p:p+1]            ; the address of the next instruction
//! s_add_u32   s[p], s[p], lo      ; + (target - that address), a literal
//! s_addc_u32  s[p+1], s[p+1], hi  ; its high half (-1 going backwards)
//! s_setpc_b64 s[p:p+1]
//! ```
//!
//! A conditional branch becomes its inverse (`scc0` ↔ `scc1`, `vccz` ↔
//! `vccnz`, `execz` ↔ `execnz`) jumping over that sequence. The literals are
//! always written as literals (never inline constants), so every long jump
//! has the same 24 bytes and the layout converges: branches only ever
//! become long, so a branch's distance never shrinks, and iterating until no
//! new branch is out of range terminates.
//!
//! Registers: LLVM scavenges a free SGPR pair at each branch (or reserves
//! one before allocation when the function may need it). Here the pair is
//! the first even pair above every SGPR the code names (allocated,
//! hardware-initialised and fixed ones alike), used by nothing else, so it
//! is free at every branch by construction; the kernel's SGPR count grows
//! by it, and only kernels with a long branch pay. The jump clobbers SCC on
//! the taken path, so the target must not read SCC before writing it
//! (checked: the back end never carries SCC across a label today).

use std::collections::HashMap;

use arch::isa::{Family, Instruction, Modifiers, Opcode, Operand, OperandType};

use super::minst::{reads_scc, writes_scc};
use super::rewrite::{physical, PItem, PhysOp};
use super::BackendError;

/// Bytes of a long jump: `s_getpc_b64` (4), `s_add_u32` and `s_addc_u32`
/// with a literal (8 each), `s_setpc_b64` (4).
pub const LONG_JUMP_BYTES: u32 = 24;

/// SGPRs s0..s105 (source codes below 106, where `vcc_lo` starts).
const SGPR_CODES: u16 = 106;

/// Where every label lands once the long branches are expanded, which
/// branches are long, and the SGPR pair their jumps use.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Byte offset of each label.
    pub labels: HashMap<u32, u32>,
    /// For each item, whether it is a branch that became a long jump.
    pub long: Vec<bool>,
    /// The first SGPR of the pair the long jumps use (`None`: no long branch).
    pub pair: Option<u16>,
}

impl Layout {
    /// How many long jumps the code has (each holds one `s_getpc_b64`).
    pub fn long_jumps(&self) -> usize {
        self.long.iter().filter(|&&l| l).count()
    }
}

/// The condition that skips the long jump of conditional branch `op`.
fn inverse(op: Opcode) -> Option<Opcode> {
    Some(match op {
        Opcode::S_CBRANCH_SCC0 => Opcode::S_CBRANCH_SCC1,
        Opcode::S_CBRANCH_SCC1 => Opcode::S_CBRANCH_SCC0,
        Opcode::S_CBRANCH_VCCZ => Opcode::S_CBRANCH_VCCNZ,
        Opcode::S_CBRANCH_VCCNZ => Opcode::S_CBRANCH_VCCZ,
        Opcode::S_CBRANCH_EXECZ => Opcode::S_CBRANCH_EXECNZ,
        Opcode::S_CBRANCH_EXECNZ => Opcode::S_CBRANCH_EXECZ,
        _ => return None,
    })
}

/// Bytes of item `item` when its branch is long (`long`) or not.
fn size(item: &PItem, long: bool) -> u32 {
    match item {
        PItem::Label(_) => 0,
        PItem::Inst(i, _, _) if long && i.opcode == Opcode::S_BRANCH => LONG_JUMP_BYTES,
        PItem::Inst(i, _, _) if long => u32::from(i.size) + LONG_JUMP_BYTES,
        PItem::Inst(i, _, _) => u32::from(i.size),
    }
}

/// Each label's offset for the given choice of long branches.
fn place(items: &[PItem], long: &[bool]) -> HashMap<u32, u32> {
    let mut labels = HashMap::new();
    let mut at = 0u32;
    for (item, &l) in items.iter().zip(long) {
        if let PItem::Label(x) = item {
            labels.insert(*x, at);
        }
        at += size(item, l);
    }
    labels
}

/// The signed dword offset a SOPP branch at `here` needs to reach `to`.
pub fn dword_offset(here: u32, to: u32) -> i64 {
    (i64::from(to) - i64::from(here) - 4) / 4
}

/// The highest SGPR any instruction names, plus one.
fn sgprs_named(items: &[PItem]) -> u16 {
    let mut top = 0u16;
    for item in items {
        let PItem::Inst(i, _, _) = item else { continue };
        for o in &i.operands[..usize::from(i.operand_count)] {
            if let Operand::Src { code, ty } = *o {
                if code < SGPR_CODES {
                    top = top.max(code + u16::from(ty.dwords(i.target)));
                }
            }
        }
    }
    top
}

/// Whether SCC may be read at `label` before being written (then a long
/// jump there, which clobbers it, would change the program).
fn scc_live_at(items: &[PItem], label: u32) -> bool {
    let Some(start) = items
        .iter()
        .position(|it| matches!(it, PItem::Label(l) if *l == label))
    else {
        return false;
    };
    for item in &items[start..] {
        let PItem::Inst(i, _, target) = item else {
            continue;
        };
        if reads_scc(i.opcode) {
            return true;
        }
        if writes_scc(i.opcode, i.family) {
            return false;
        }
        // Past an unconditional transfer SCC belongs to another path; a
        // conditional branch continues below (its target is checked when
        // it is itself long, the only case that matters here).
        if i.opcode == Opcode::S_ENDPGM || (target.is_some() && i.opcode == Opcode::S_BRANCH) {
            return false;
        }
    }
    false
}

/// Decides which branches are long and where everything lands.
pub fn relax(items: &[PItem]) -> Result<Layout, BackendError> {
    let mut long = vec![false; items.len()];
    loop {
        let labels = place(items, &long);
        let mut at = 0u32;
        let mut grew = false;
        for (k, item) in items.iter().enumerate() {
            if let PItem::Inst(_, _, Some(l)) = item {
                let to = *labels.get(l).ok_or_else(|| {
                    BackendError::Internal(format!("a branch to label {l}, which is not placed"))
                })?;
                if !long[k] && i16::try_from(dword_offset(at, to)).is_err() {
                    long[k] = true;
                    grew = true;
                }
            }
            at += size(item, long[k]);
        }
        if grew {
            continue;
        }
        let mut pair = None;
        if long.iter().any(|&l| l) {
            let p = sgprs_named(items).next_multiple_of(2);
            if p + 2 > SGPR_CODES {
                return Err(BackendError::Unsupported(
                    "a branch over more than 32 K dwords in a kernel that uses every SGPR \
                     (the long jump needs two free SGPRs)"
                        .into(),
                ));
            }
            pair = Some(p);
            for (k, item) in items.iter().enumerate() {
                let PItem::Inst(i, _, Some(l)) = item else {
                    continue;
                };
                if !long[k] {
                    continue;
                }
                if i.opcode != Opcode::S_BRANCH && inverse(i.opcode).is_none() {
                    return Err(BackendError::Internal(format!(
                        "{} cannot be relaxed into a long jump",
                        i.opcode.mnemonic()
                    )));
                }
                if scc_live_at(items, *l) {
                    return Err(BackendError::Internal(
                        "a branch over more than 32 K dwords to code that reads SCC \
                         (the long jump clobbers it)"
                            .into(),
                    ));
                }
            }
        }
        return Ok(Layout { labels, long, pair });
    }
}

/// The instructions replacing long branch `branch` placed at byte `here`
/// and jumping to byte `to`, using SGPRs `pair`, `pair + 1`.
pub fn long_jump(
    branch: &Instruction,
    here: u32,
    to: u32,
    pair: u16,
) -> Result<Vec<Instruction>, BackendError> {
    let target = branch.target;
    let mut out = Vec::with_capacity(5);
    let mut at = here;
    if branch.opcode != Opcode::S_BRANCH {
        let mut skip = *branch;
        skip.opcode = inverse(branch.opcode).ok_or_else(|| {
            BackendError::Internal(format!("{} has no inverse", branch.opcode.mnemonic()))
        })?;
        skip.modifiers.simm16 = (LONG_JUMP_BYTES / 4) as u16;
        at += u32::from(skip.size);
        out.push(skip);
    }
    let m = Modifiers::default();
    out.push(physical(
        target,
        Opcode::S_GETPC_B64,
        Family::Sop1,
        &[PhysOp::Code(pair)],
        m,
    )?);
    // The PC s_getpc_b64 reads is the address of the instruction after it.
    let delta = i64::from(to) - i64::from(at + 4);
    for (op, reg, half) in [
        (Opcode::S_ADD_U32, pair, delta as u32),
        (Opcode::S_ADDC_U32, pair + 1, (delta >> 32) as u32),
    ] {
        let mut i = physical(
            target,
            op,
            Family::Sop2,
            &[
                PhysOp::Code(reg),
                PhysOp::Code(reg),
                PhysOp::Imm(0x1234_5678),
            ],
            m,
        )?;
        // Always a literal (as LLVM's fixup), so the size is fixed.
        i.operands[2] = Operand::Literal {
            value: half,
            ty: OperandType::B32,
        };
        out.push(i);
    }
    out.push(physical(
        target,
        Opcode::S_SETPC_B64,
        Family::Sop1,
        &[PhysOp::Code(pair)],
        m,
    )?);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arch::isa::Target;

    fn inst(op: Opcode, family: Family, ops: &[PhysOp]) -> Instruction {
        physical(Target::GFX1030_W32, op, family, ops, Modifiers::default()).unwrap()
    }
    fn nops(n: usize) -> Vec<PItem> {
        let nop = inst(Opcode::S_NOP, Family::Sopp, &[]);
        vec![PItem::Inst(nop, 0, None); n]
    }
    fn branch(op: Opcode, to: u32) -> PItem {
        PItem::Inst(inst(op, Family::Sopp, &[]), 0, Some(to))
    }

    /// A forward branch over `n` dwords of code.
    fn forward(op: Opcode, n: usize) -> Vec<PItem> {
        let mut items = vec![branch(op, 1)];
        items.extend(nops(n));
        items.push(PItem::Label(1));
        items.push(PItem::Inst(
            inst(Opcode::S_ENDPGM, Family::Sopp, &[]),
            0,
            None,
        ));
        items
    }

    #[test]
    fn the_reach_of_simm16_is_kept_and_one_dword_more_is_long() {
        // simm16 = 32767 reaches 32767 dwords past the next instruction.
        let l = relax(&forward(Opcode::S_BRANCH, 32767)).unwrap();
        assert_eq!(l.long_jumps(), 0);
        assert_eq!(l.pair, None);
        let l = relax(&forward(Opcode::S_BRANCH, 32768)).unwrap();
        assert_eq!(l.long_jumps(), 1);
        // Backwards: simm16 = -32768 reaches the label 32767 dwords before it.
        let back = |n| {
            let mut items = vec![PItem::Label(7)];
            items.extend(nops(n));
            items.push(branch(Opcode::S_CBRANCH_EXECNZ, 7));
            items
        };
        assert_eq!(relax(&back(32767)).unwrap().long_jumps(), 0);
        assert_eq!(relax(&back(32768)).unwrap().long_jumps(), 1);
    }

    #[test]
    fn a_long_conditional_branch_is_its_inverse_over_a_pc_relative_jump() {
        let items = forward(Opcode::S_CBRANCH_SCC0, 40_000);
        let l = relax(&items).unwrap();
        // Nothing names an SGPR: the pair is s[0:1].
        assert_eq!(l.pair, Some(0));
        let PItem::Inst(b, _, _) = &items[0] else {
            unreachable!()
        };
        let to = l.labels[&1];
        assert_eq!(to, 4 + 24 + 40_000 * 4);
        let seq = long_jump(b, 0, to, 0).unwrap();
        let text: Vec<String> = seq.iter().map(|i| i.to_string()).collect();
        // s_getpc_b64 at byte 4 reads 8; the label is at 160028.
        let delta = to - 8;
        assert_eq!(
            text,
            [
                "s_cbranch_scc1 6".to_string(),
                "s_getpc_b64 s[0:1]".into(),
                format!("s_add_u32 s0, s0, 0x{delta:x}"),
                "s_addc_u32 s1, s1, 0".into(),
                "s_setpc_b64 s[0:1]".into(),
            ]
        );
        let bytes: u32 = seq.iter().map(|i| u32::from(i.size)).sum();
        assert_eq!(bytes, 4 + LONG_JUMP_BYTES);
    }

    #[test]
    fn a_backward_jump_has_a_negative_distance_and_a_high_half_of_all_ones() {
        let b = inst(Opcode::S_BRANCH, Family::Sopp, &[]);
        let seq = long_jump(&b, 200_000, 100, 10).unwrap();
        let text: Vec<String> = seq.iter().map(|i| i.to_string()).collect();
        let delta = (100i64 - 200_004) as u32;
        assert_eq!(text[0], "s_getpc_b64 s[10:11]");
        assert_eq!(text[1], format!("s_add_u32 s10, s10, 0x{delta:x}"));
        // A literal, not the inline constant -1: every long jump is 24 bytes.
        assert_eq!(seq[2].size, 8);
        assert_eq!(text[3], "s_setpc_b64 s[10:11]");
    }

    #[test]
    fn a_relaxed_branch_can_push_another_out_of_range() {
        // B jumps forward exactly 32 767 dwords, over A; A jumps back over
        // 40 000 dwords. A becomes a 24-byte long jump (+5 dwords), which
        // puts B out of reach on the second round.
        let mut items = vec![PItem::Label(0)];
        items.extend(nops(40_000));
        items.push(branch(Opcode::S_CBRANCH_VCCZ, 2)); // B
        items.push(branch(Opcode::S_BRANCH, 0)); // A
        items.extend(nops(32_766));
        items.push(PItem::Label(2));
        let l = relax(&items).unwrap();
        assert!(l.long[40_001] && l.long[40_002], "B and A are long");
        assert_eq!(l.long_jumps(), 2);
        // Every short branch reaches in the final layout.
        let mut at = 0u32;
        for (k, it) in items.iter().enumerate() {
            if let PItem::Inst(_, _, Some(t)) = it {
                assert!(l.long[k] || i16::try_from(dword_offset(at, l.labels[t])).is_ok());
            }
            at += size(it, l.long[k]);
        }
        // Without A, B alone is short.
        items.remove(40_002);
        items.insert(40_002, nops(1).remove(0));
        assert_eq!(relax(&items).unwrap().long_jumps(), 0);
    }

    #[test]
    fn a_long_jump_to_code_that_reads_scc_is_refused() {
        let mut items = forward(Opcode::S_BRANCH, 40_000);
        let sel = inst(
            Opcode::S_CSELECT_B32,
            Family::Sop2,
            &[PhysOp::Code(4), PhysOp::Code(5), PhysOp::Code(6)],
        );
        items.insert(items.len() - 1, PItem::Inst(sel, 1, None));
        let e = relax(&items).unwrap_err();
        assert!(e.to_string().contains("SCC"), "{e}");
        // The pair goes above the SGPRs named (s4..s6): s[8:9].
        let mut items = forward(Opcode::S_BRANCH, 40_000);
        let add = inst(
            Opcode::S_ADD_U32,
            Family::Sop2,
            &[PhysOp::Code(4), PhysOp::Code(5), PhysOp::Code(6)],
        );
        items.insert(items.len() - 1, PItem::Inst(add, 1, None));
        assert_eq!(relax(&items).unwrap().pair, Some(8));
    }
}
