//! Register rewriting: machine instructions with virtual registers and the
//! allocation become [`arch::isa::Instruction`] values with physical
//! operands (operand types from `arch`'s tables, constants inline or
//! literal as LLVM's assembler would choose); copies of a register to
//! itself vanish. Branch offsets and bytes: [`super::assemble`].

use arch::isa::operand::{inline_code_for, VGPR_BASE};
use arch::isa::tables::info_for;
use arch::isa::{encode, Family, Instruction, Isa, Operand, OperandType, Target, MAX_OPERANDS};

use super::minst::{Item, MOp, MachineCode, RegClass};
use super::regalloc::Assignment;
use super::BackendError;

/// An instruction with physical operands, or a label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PItem {
    /// An instruction, its number of destination operands, and for a branch its label.
    Inst(Instruction, u8, Option<u32>),
    /// A branch target.
    Label(u32),
}

/// Builds the instruction for `opcode` in `family` from physical operands
/// (`None` = `off`); constants are `Err(value)`.
fn build(
    target: Target,
    op: arch::isa::Opcode,
    family: Family,
    ops: &[PhysOp],
    modifiers: arch::isa::Modifiers,
) -> Result<Instruction, BackendError> {
    let info = info_for(Isa::Gfx1030, family, op).ok_or_else(|| {
        BackendError::Internal(format!(
            "{} has no {} encoding on gfx1030",
            op.mnemonic(),
            family
        ))
    })?;
    // SOPP/SOPK immediates live in the modifiers, not in the operand list.
    let mut specs: Vec<_> = info
        .operands
        .iter()
        .filter(|s| s.field != arch::isa::Field::Simm16)
        .copied()
        .collect();
    // A returning (glc) FLAT/GLOBAL atomic prints its destination first; the
    // table row describes the non-returning form.
    if modifiers.glc
        && matches!(family, Family::Global | Family::Flat)
        && ops.len() == specs.len() + 1
    {
        specs.insert(
            0,
            arch::isa::OperandSpec {
                field: arch::isa::Field::Vdst,
                ty: OperandType::B32,
            },
        );
    }
    if specs.len() != ops.len() {
        return Err(BackendError::Internal(format!(
            "{} takes {} operands, {} given",
            op.mnemonic(),
            specs.len(),
            ops.len()
        )));
    }
    let saddr = matches!(family, Family::Global | Family::Scratch)
        && matches!(ops.last(), Some(PhysOp::Code(_)));
    let mut operands = [Operand::Off; MAX_OPERANDS];
    for (k, (spec, o)) in specs.iter().zip(ops).enumerate() {
        let mut ty = spec.ty;
        if saddr && spec.field == arch::isa::Field::Vaddr {
            // With an SGPR base the VGPR address is a 32-bit offset.
            ty = OperandType::B32;
        }
        if family == Family::Scratch && spec.field == arch::isa::Field::Saddr {
            // SCRATCH's `saddr` is one SGPR (an offset), not GLOBAL's base pair.
            ty = OperandType::B32;
        }
        operands[k] = match *o {
            PhysOp::Off => Operand::Off,
            PhysOp::Code(code) => Operand::Src { code, ty },
            PhysOp::Imm(x) => match inline_code_for(x, ty) {
                Some(code) => Operand::Src { code, ty },
                None => Operand::Literal { value: x, ty },
            },
        };
    }
    let mut inst = Instruction {
        target,
        opcode: op,
        family,
        variant: arch::isa::Variant::Plain,
        operands,
        operand_count: ops.len() as u8,
        modifiers,
        size: 4,
    };
    let mut bytes = Vec::new();
    encode(&inst, &mut bytes).map_err(|e| BackendError::Internal(format!("{inst}: {e}")))?;
    inst.size = bytes.len() as u8;
    Ok(inst)
}

/// A physical operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhysOp {
    /// A register or special register by its source code.
    Code(u16),
    /// A constant.
    Imm(u32),
    /// `off`.
    Off,
}

/// One instruction from its parts, for the pieces of the back end that add
/// instructions after allocation (`s_waitcnt`).
pub fn physical(
    target: Target,
    op: arch::isa::Opcode,
    family: Family,
    ops: &[PhysOp],
    modifiers: arch::isa::Modifiers,
) -> Result<Instruction, BackendError> {
    build(target, op, family, ops, modifiers)
}

/// Rewrites `mc` with the allocation; copies between one register and itself vanish.
pub fn rewrite(
    mc: &MachineCode,
    asg: &Assignment,
    target: Target,
) -> Result<Vec<PItem>, BackendError> {
    let mut out = Vec::with_capacity(mc.items.len());
    for item in &mc.items {
        match item {
            Item::Label(l) => out.push(PItem::Label(*l)),
            Item::Inst(i) => {
                let ops: Vec<PhysOp> = i
                    .ops
                    .iter()
                    .map(|o| match *o {
                        MOp::Reg(r, sub) => {
                            let info = mc.vregs[r.0 as usize];
                            let base = asg.phys[r.0 as usize] + u16::from(sub);
                            PhysOp::Code(match info.class {
                                RegClass::Sgpr => base,
                                RegClass::Vgpr => VGPR_BASE + base,
                            })
                        }
                        MOp::Phys(c) => PhysOp::Code(c),
                        MOp::Imm(x) => PhysOp::Imm(x),
                        MOp::Off => PhysOp::Off,
                    })
                    .collect();
                if i.is_copy && ops[0] == ops[1] {
                    continue;
                }
                let inst = build(target, i.opcode, i.family, &ops, i.modifiers)?;
                out.push(PItem::Inst(inst, i.defs, i.target));
            }
        }
    }
    Ok(out)
}
