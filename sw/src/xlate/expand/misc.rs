//! gfx803 instructions whose gfx1030 counterpart has another shape: cache
//! maintenance, the reversed 16-bit subtract, the 16-bit always-false/true
//! compares.

use arch::isa::{Family, Instruction, Opcode, Operand, OperandType};

use super::alu::{clear_high16, retarget};
use super::emit::{inst, Emitter};
use crate::xlate::XlateError;

/// The expansion of `legacy` when it is one of this module's cases.
pub fn expand(
    legacy: &Instruction,
    offset: u32,
    out: &mut Emitter,
) -> Option<Result<(), XlateError>> {
    let seq: Result<Vec<Instruction>, XlateError> = match legacy.opcode {
        // gfx8's L1 write-back-invalidate (acquire fences): gfx10's vector L0
        // and L1 caches are invalidated separately.
        Opcode::BUFFER_WBINVL1 | Opcode::BUFFER_WBINVL1_VOL => Ok(vec![
            inst(Opcode::BUFFER_GL0_INV, Family::Mubuf, &[]),
            inst(Opcode::BUFFER_GL1_INV, Family::Mubuf, &[]),
        ]),
        // Scalar-cache write-back: gfx1030 code has no scalar stores to write
        // back (gfx8 ones are refused), so nothing; the volatile invalidate is
        // the plain one.
        Opcode::S_DCACHE_WB | Opcode::S_DCACHE_WB_VOL => Ok(vec![]),
        Opcode::S_DCACHE_INV_VOL => Ok(vec![inst(Opcode::S_DCACHE_INV, Family::Smem, &[])]),
        // d = src1 - src0: gfx10 has only the forward 16-bit subtract.
        Opcode::V_SUBREV_U16 => {
            let mut swapped = *legacy;
            swapped.opcode = Opcode::V_SUB_U16;
            swapped.operands.swap(1, 2);
            retarget(&swapped, offset).map(|i| {
                let mut v = vec![i];
                if let Some(Operand::Src { code, .. }) = legacy.operands().first() {
                    v.push(clear_high16(code.saturating_sub(256)));
                }
                v
            })
        }
        // Always-false/true 16-bit compares: the value does not depend on
        // the sources, gfx10 only has the 32-bit ones.
        Opcode::V_CMP_F_I16 | Opcode::V_CMP_F_U16 | Opcode::V_CMP_T_I16 | Opcode::V_CMP_T_U16 => {
            let mut c = *legacy;
            c.opcode = match legacy.opcode {
                Opcode::V_CMP_F_I16 | Opcode::V_CMP_F_U16 => Opcode::V_CMP_F_U32,
                _ => Opcode::V_CMP_T_U32,
            };
            for op in c.operands.iter_mut().skip(1).take(2) {
                if let Operand::Src {
                    code,
                    ty: OperandType::B16,
                } = *op
                {
                    *op = Operand::Src {
                        code,
                        ty: OperandType::B32,
                    };
                }
            }
            retarget(&c, offset).map(|i| vec![i])
        }
        _ => return None,
    };
    Some(seq.and_then(|v| {
        v.iter()
            .try_for_each(|i| out.emit(i))
            .map_err(|e| e.at(offset))
    }))
}
