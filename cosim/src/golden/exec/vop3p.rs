//! VOP3P semantics (to be filled in; see the interface in [`super`]).

use arch::device::Fault;
use arch::isa::Instruction;

use super::{not_implemented, Flow, WaveCtx};

/// Executes one VOP3P instruction.
pub fn execute(_ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    Err(not_implemented(inst))
}
