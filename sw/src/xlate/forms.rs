//! Which legacy opcodes need more than a re-targeting, as the summary
//! pass and the expansions both ask: the unfused multiply-adds (and the
//! temporary VGPR their expansion takes) and the forms of another shape.

use arch::isa::{Instruction, Opcode};

/// The unfused multiply-adds gfx1030 does not have.
pub fn is_unfused_mad(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::V_MAC_F32
            | Opcode::V_MAD_F32
            | Opcode::V_MADMK_F32
            | Opcode::V_MADAK_F32
            | Opcode::V_MAD_LEGACY_F32
            | Opcode::V_MAC_F16
            | Opcode::V_MAD_F16
            | Opcode::V_MADMK_F16
            | Opcode::V_MADAK_F16
    )
}

/// The opcodes whose gfx1030 counterpart has another shape (cache
/// maintenance, the reversed 16-bit subtract, the 16-bit always-false/true
/// compares), expanded by `expand::misc`.
pub fn has_other_shape(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::BUFFER_WBINVL1
            | Opcode::BUFFER_WBINVL1_VOL
            | Opcode::S_DCACHE_WB
            | Opcode::S_DCACHE_WB_VOL
            | Opcode::S_DCACHE_INV_VOL
            | Opcode::V_SUBREV_U16
            | Opcode::V_CMP_F_I16
            | Opcode::V_CMP_F_U16
            | Opcode::V_CMP_T_I16
            | Opcode::V_CMP_T_U16
    )
}

/// VGPR temporaries the expansion of `inst` needs (the summary pass records
/// the maximum).
pub fn temp_vgprs(inst: &Instruction) -> u16 {
    u16::from(is_unfused_mad(inst.opcode))
}
