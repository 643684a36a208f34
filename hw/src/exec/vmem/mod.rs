//! (placeholder: filled in by the vmem datapath)

use arch::device::FaultKind;
use arch::isa::Instruction;

use super::{ExecCtx, ScalarState, Vgprs, Writes};

/// Executes one vmem instruction.
pub fn execute(
    inst: &Instruction,
    _s: &ScalarState,
    _v: Vgprs<'_>,
    _ctx: &mut ExecCtx<'_>,
    _out: &mut Writes,
) -> Result<(), FaultKind> {
    Err(super::unimplemented(inst))
}
