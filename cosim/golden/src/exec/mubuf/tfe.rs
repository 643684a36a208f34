//! MUBUF loads with `tfe` (texture fail enable): the VGPR after the loaded
//! data receives a fail status. No access here can "texture fault" (an
//! out-of-range buffer read returns 0 without failing, and an unmapped
//! address stops the dispatch), so the status is always 0. The load itself
//! is the plain one on the narrower data range. `tfe` on stores and atomics
//! stays not implemented (docs/golden-coverage.md).

use arch::device::Fault;
use arch::isa::{Instruction, Operand, OperandType};

use crate::exec::vmem::access::{classify, Access};
use crate::exec::vmem::{lanes, Regs};
use crate::exec::{illegal, mubuf, not_implemented, Flow, WaveCtx};

/// Executes a MUBUF load with `tfe` set.
pub fn execute(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    let load = matches!(classify(inst.opcode), Some(Access::Load(_)))
        || inst.opcode.mnemonic().contains("load_format");
    let Some(&Operand::Src { code, ty }) = inst.operands().first() else {
        return Err(illegal(format!("{inst}: vdata is missing")));
    };
    if !load || inst.modifiers.lds {
        return Err(not_implemented(inst));
    }
    let data = Regs::of(ctx.wave, &inst.operands()[0])?;
    let narrow = match ty.dwords(ctx.wave.target) {
        2 => OperandType::B32,
        3 => OperandType::B64,
        4 => OperandType::B96,
        5 => OperandType::B128,
        _ => return Err(illegal(format!("{inst}: tfe needs one VGPR past the data"))),
    };
    let mut plain = *inst;
    plain.modifiers.tfe = false;
    plain.operands[0] = Operand::Src { code, ty: narrow };
    let flow = mubuf::execute(ctx, &plain)?;
    let status = usize::from(data.first) + data.count - 1;
    for lane in lanes(ctx.wave.exec()) {
        ctx.wave.vgpr[status][lane] = 0;
    }
    Ok(flow)
}
