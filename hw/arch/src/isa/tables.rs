//! The instruction tables: which opcode numbers exist in which encoding family on
//! which ISA, and each instruction's operands (field and type, in print order).
//!
//! The data is generated (`generated.rs`, by `cargo run -p arch-gen` from
//! `hw/arch/isa/*.isa`); this file holds the hand-written types and look-ups.

use super::{Family, Isa, OperandType};

mod generated;
pub use generated::Opcode;

/// Where an operand lives in the encoding. Names follow AMD's manuals and LLVM's
/// operand names; `Vcc` is an implicit lane-mask operand that LLVM prints
/// (`v_add_co_ci_u32_e32 v1, vcc_lo, s3, v1, vcc_lo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    /// Scalar destination (SOP*, VOP3 carry-out / compare result).
    Sdst,
    /// Scalar source 0.
    Ssrc0,
    /// Scalar source 1.
    Ssrc1,
    /// SOPK/SOPP 16-bit immediate printed as an operand.
    Simm16,
    /// SMEM data register(s).
    Sdata,
    /// SMEM base address SGPR pair (or quad for buffer loads).
    Sbase,
    /// SMEM/MUBUF scalar offset.
    Soffset,
    /// Vector destination.
    Vdst,
    /// Vector-ALU source 0 (any operand kind).
    Src0,
    /// Vector-ALU source 1 (VGPR-only in VOP2/VOPC, any kind in VOP3).
    Src1,
    /// Vector-ALU source 2 (VOP3).
    Src2,
    /// A fixed literal constant operand (`v_madak_f32`, `v_fmaak_f32`, ...).
    K,
    /// Implicit VCC lane mask, printed.
    Vcc,
    /// Memory address VGPR(s) (DS `addr`, FLAT/MUBUF `vaddr`).
    Vaddr,
    /// Memory data VGPR(s) for stores and atomics.
    Vdata,
    /// DS data 0.
    Data0,
    /// DS data 1.
    Data1,
    /// GLOBAL/SCRATCH scalar base (`off` when absent).
    Saddr,
    /// MUBUF/MTBUF buffer resource SGPR quad.
    Srsrc,
}

impl Field {
    /// Every field, for tables and tests.
    pub const ALL: [Field; 19] = [
        Field::Sdst,
        Field::Ssrc0,
        Field::Ssrc1,
        Field::Simm16,
        Field::Sdata,
        Field::Sbase,
        Field::Soffset,
        Field::Vdst,
        Field::Src0,
        Field::Src1,
        Field::Src2,
        Field::K,
        Field::Vcc,
        Field::Vaddr,
        Field::Vdata,
        Field::Data0,
        Field::Data1,
        Field::Saddr,
        Field::Srsrc,
    ];

    /// The spelling used in the `.isa` descriptions (lower case).
    pub fn name(self) -> &'static str {
        match self {
            Field::Sdst => "sdst",
            Field::Ssrc0 => "ssrc0",
            Field::Ssrc1 => "ssrc1",
            Field::Simm16 => "simm16",
            Field::Sdata => "sdata",
            Field::Sbase => "sbase",
            Field::Soffset => "soffset",
            Field::Vdst => "vdst",
            Field::Src0 => "src0",
            Field::Src1 => "src1",
            Field::Src2 => "src2",
            Field::K => "k",
            Field::Vcc => "vcc",
            Field::Vaddr => "vaddr",
            Field::Vdata => "vdata",
            Field::Data0 => "data0",
            Field::Data1 => "data1",
            Field::Saddr => "saddr",
            Field::Srsrc => "srsrc",
        }
    }

    /// Parses [`Field::name`].
    pub fn from_name(name: &str) -> Option<Field> {
        Field::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// One operand of a table row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperandSpec {
    /// Where it is encoded.
    pub field: Field,
    /// Its type.
    pub ty: OperandType,
}

/// One row of an ISA's table: an opcode number in a family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpInfo {
    /// The instruction.
    pub opcode: Opcode,
    /// The encoding family.
    pub family: Family,
    /// The opcode field value.
    pub number: u16,
    /// Operands in LLVM's print order.
    pub operands: &'static [OperandSpec],
}

/// All tables of one ISA (generated).
pub struct IsaTables {
    /// Every row, sorted by (family, number).
    pub rows: &'static [OpInfo],
    /// Per family (in [`Family::ALL`] order): opcode number → index into `rows`, or `u16::MAX`.
    pub by_number: [&'static [u16]; 17],
}

/// The tables of `isa`.
pub fn tables(isa: Isa) -> &'static IsaTables {
    match isa {
        Isa::Gfx803 => &generated::GFX803,
        Isa::Gfx1030 => &generated::GFX1030,
    }
}

/// The row for opcode number `number` of `family` on `isa`, if that opcode exists.
#[inline]
pub fn lookup(isa: Isa, family: Family, number: u16) -> Option<&'static OpInfo> {
    let t = tables(isa);
    let index = *t.by_number[family as usize].get(usize::from(number))?;
    t.rows.get(usize::from(index))
}

/// The row for `opcode` in `family` on `isa`, if it is encodable there.
/// Constant time: an index by (family, opcode) is built once per ISA (the
/// encoder and the translator look rows up per instruction).
pub fn info_for(isa: Isa, family: Family, opcode: Opcode) -> Option<&'static OpInfo> {
    use std::sync::OnceLock;
    static INDEX: [OnceLock<Vec<u16>>; 2] = [OnceLock::new(), OnceLock::new()];
    let t = tables(isa);
    let n = Opcode::ALL.len();
    let index = INDEX[isa as usize].get_or_init(|| {
        let mut v = vec![u16::MAX; Family::ALL.len() * n];
        for (i, r) in t.rows.iter().enumerate() {
            let slot = &mut v[r.family as usize * n + r.opcode as usize];
            // The first row wins, as the linear search it replaces did.
            if *slot == u16::MAX {
                *slot = i as u16;
            }
        }
        v
    });
    let i = *index.get(family as usize * n + opcode as usize)?;
    t.rows.get(usize::from(i))
}

/// Every family `opcode` can be encoded in on `isa` (e.g. VOP2 and VOP3 for `v_add_f32`).
pub fn encodings(isa: Isa, opcode: Opcode) -> impl Iterator<Item = &'static OpInfo> {
    tables(isa).rows.iter().filter(move |r| r.opcode == opcode)
}

impl Opcode {
    /// True for the PC-relative SOPP branches (`s_branch`, `s_cbranch_*`), whose
    /// target llvm-objdump annotates.
    pub fn is_branch(self) -> bool {
        matches!(
            self,
            Opcode::S_BRANCH
                | Opcode::S_CBRANCH_SCC0
                | Opcode::S_CBRANCH_SCC1
                | Opcode::S_CBRANCH_VCCZ
                | Opcode::S_CBRANCH_VCCNZ
                | Opcode::S_CBRANCH_EXECZ
                | Opcode::S_CBRANCH_EXECNZ
                | Opcode::S_CBRANCH_CDBGSYS
                | Opcode::S_CBRANCH_CDBGUSER
                | Opcode::S_CBRANCH_CDBGSYS_OR_USER
                | Opcode::S_CBRANCH_CDBGSYS_AND_USER
        )
    }
}

#[cfg(test)]
mod index_tests {
    use super::*;

    /// The constant-time index answers exactly what a linear search does.
    #[test]
    fn info_for_equals_the_linear_search_for_every_family_and_opcode() {
        for isa in [Isa::Gfx803, Isa::Gfx1030] {
            for family in Family::ALL {
                for opcode in Opcode::ALL {
                    let linear = tables(isa)
                        .rows
                        .iter()
                        .find(|r| r.family == family && r.opcode == opcode);
                    assert_eq!(
                        info_for(isa, family, opcode),
                        linear,
                        "{isa} {family} {opcode:?}"
                    );
                }
            }
        }
    }
}
