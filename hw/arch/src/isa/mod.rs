//! Both ISAs as data.
//!
//! An [`Instruction`] is a small `Copy` value: its ISA, its [`Opcode`] (named as
//! in AMD's manuals, one enum for both ISAs — the same mnemonic means the same
//! operation), the encoding [`Family`] and [`Variant`] it was (or will be)
//! encoded in, its operands in LLVM's print order, and the modifier fields of
//! its encoding.
//!
//! The per-opcode facts (opcode numbers per family, operand fields and types)
//! come from the generated tables in [`tables`], which are produced by
//! `cargo run -p arch-gen` from `hw/arch/isa/*.isa`. The per-family bit layouts,
//! printing and parsing rules are hand-written, one file per encoding family in
//! `family/` (each with its `fill.rs`: the decoder of its common forms from
//! per-row plans, checked against the reference decoder by
//! `family/fill_tests.rs`). The families read assembly text through the leaf
//! [`syntax`] and instruction words through `words.rs`; `asm.rs`, `decode.rs`
//! and `encode.rs` dispatch down to the families.

use std::fmt;

pub mod asm;
mod decode;
mod encode;
pub mod error;
pub mod family;
pub mod listing;
pub mod operand;
pub mod syntax;
pub mod tables;
mod words;

pub use asm::assemble;
pub use decode::{decode, decode_all, decode_into};
pub use encode::encode;
pub use error::{AsmError, DecodeError, EncodeError};
pub use operand::{Operand, OperandType};
pub use tables::{Field, OpInfo, Opcode, OperandSpec};

/// The instruction set architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Isa {
    /// AMD GCN3 ("Graphics Core Next 3", Volcanic Islands), `gfx803`: the legacy ISA.
    Gfx803,
    /// AMD RDNA2, `gfx1030`: the modelled GPU's ISA.
    Gfx1030,
}

impl Isa {
    /// LLVM's processor name (`-mcpu=`).
    pub fn name(self) -> &'static str {
        match self {
            Isa::Gfx803 => "gfx803",
            Isa::Gfx1030 => "gfx1030",
        }
    }
}

impl fmt::Display for Isa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An ISA plus the wavefront size code is compiled for. The wave size changes
/// how lane-mask operands are encoded and printed (`vcc_lo` in wave32, `vcc` in
/// wave64); gfx803 is always wave64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// Instruction set.
    pub isa: Isa,
    /// True for 64 lanes per wave.
    pub wave64: bool,
}

impl Target {
    /// GCN3, wave64.
    pub const GFX803: Target = Target {
        isa: Isa::Gfx803,
        wave64: true,
    };
    /// RDNA2 in its native wave32 mode.
    pub const GFX1030_W32: Target = Target {
        isa: Isa::Gfx1030,
        wave64: false,
    };
    /// RDNA2 running wave64 (two halves on a SIMD32).
    pub const GFX1030_W64: Target = Target {
        isa: Isa::Gfx1030,
        wave64: true,
    };

    /// Lanes per wave.
    pub fn wave_size(self) -> u32 {
        if self.wave64 {
            64
        } else {
            32
        }
    }

    /// Dwords in a lane mask (VCC, EXEC, compare results): 1 in wave32, 2 in wave64.
    pub fn lane_mask_dwords(self) -> u8 {
        if self.wave64 {
            2
        } else {
            1
        }
    }
}

/// An encoding family: one opcode space with one bit layout. VOP3-encoded forms
/// of VOP1/VOP2/VOPC instructions belong to [`Family::Vop3`], whose opcode space
/// contains them (that is how the hardware numbers them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Scalar ALU, one source.
    Sop1,
    /// Scalar ALU, two sources.
    Sop2,
    /// Scalar ALU with a 16-bit immediate.
    Sopk,
    /// Scalar compare.
    Sopc,
    /// Scalar program control (branches, waits, `s_endpgm`, ...).
    Sopp,
    /// Scalar memory.
    Smem,
    /// Vector ALU, one source (32-bit encoding).
    Vop1,
    /// Vector ALU, two sources (32-bit encoding).
    Vop2,
    /// Vector compare (32-bit encoding).
    Vopc,
    /// Vector ALU, 64-bit encoding (VOP3a and VOP3b).
    Vop3,
    /// Packed-math vector ALU (gfx1030 only).
    Vop3p,
    /// Local/global data share.
    Ds,
    /// FLAT memory (segment chosen by address).
    Flat,
    /// FLAT-encoded global memory (gfx1030).
    Global,
    /// FLAT-encoded scratch memory (gfx1030).
    Scratch,
    /// Untyped buffer memory.
    Mubuf,
    /// Typed buffer memory.
    Mtbuf,
}

impl Family {
    /// All families, in table order.
    pub const ALL: [Family; 17] = [
        Family::Sop1,
        Family::Sop2,
        Family::Sopk,
        Family::Sopc,
        Family::Sopp,
        Family::Smem,
        Family::Vop1,
        Family::Vop2,
        Family::Vopc,
        Family::Vop3,
        Family::Vop3p,
        Family::Ds,
        Family::Flat,
        Family::Global,
        Family::Scratch,
        Family::Mubuf,
        Family::Mtbuf,
    ];

    /// The name used in the `.isa` descriptions and in AMD's manuals (upper case).
    pub fn name(self) -> &'static str {
        match self {
            Family::Sop1 => "SOP1",
            Family::Sop2 => "SOP2",
            Family::Sopk => "SOPK",
            Family::Sopc => "SOPC",
            Family::Sopp => "SOPP",
            Family::Smem => "SMEM",
            Family::Vop1 => "VOP1",
            Family::Vop2 => "VOP2",
            Family::Vopc => "VOPC",
            Family::Vop3 => "VOP3",
            Family::Vop3p => "VOP3P",
            Family::Ds => "DS",
            Family::Flat => "FLAT",
            Family::Global => "GLOBAL",
            Family::Scratch => "SCRATCH",
            Family::Mubuf => "MUBUF",
            Family::Mtbuf => "MTBUF",
        }
    }

    /// Parses [`Family::name`].
    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Extension words that change how a VOP1/VOP2/VOPC instruction is encoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The family's own encoding (`_e32` for VOP1/2/C, `_e64` for promoted VOP3).
    #[default]
    Plain,
    /// Sub-dword addressing (src0 = 249, second dword of selectors).
    Sdwa,
    /// Data-parallel primitives, 16-lane row controls (src0 = 250).
    Dpp16,
    /// Data-parallel primitives, 8-lane arbitrary selects (gfx1030, src0 = 233/234).
    Dpp8,
}

/// The modifier and immediate fields of every encoding, in one `Copy` struct.
/// A family uses the fields it has and leaves the rest at their defaults (zero),
/// so two instructions compare equal exactly when they encode alike.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Modifiers {
    // --- VOP3 / VOP3P / SDWA source and result modifiers
    /// Clamp the result (VOP3 `clamp`; SDWA `clamp`).
    pub clamp: bool,
    /// Output modifier: 0 none, 1 `mul:2`, 2 `mul:4`, 3 `div:2`.
    pub omod: u8,
    /// Negate bits, one per source (bit i = src i). For VOP3P, `neg_lo`.
    pub neg: u8,
    /// Absolute-value bits, one per source.
    pub abs: u8,
    /// VOP3 `op_sel` (bit 3 = destination) / VOP3P `op_sel`.
    pub op_sel: u8,
    /// VOP3P `op_sel_hi` (LLVM's default is all ones for the used sources).
    pub op_sel_hi: u8,
    /// VOP3P `neg_hi`.
    pub neg_hi: u8,
    // --- SDWA
    /// SDWA destination select (0..=6: BYTE_0..3, WORD_0..1, DWORD).
    pub dst_sel: u8,
    /// SDWA `dst_unused` (0 pad, 1 sext, 2 preserve).
    pub dst_unused: u8,
    /// SDWA source 0 select.
    pub src0_sel: u8,
    /// SDWA source 1 select.
    pub src1_sel: u8,
    /// SDWA sign-extend bits (bit i = src i, `sext(...)`).
    pub sext: u8,
    // --- DPP
    /// DPP16 control (quad_perm, row_shl, ...), 9 bits.
    pub dpp_ctrl: u16,
    /// DPP row mask (4 bits).
    pub row_mask: u8,
    /// DPP bank mask (4 bits).
    pub bank_mask: u8,
    /// DPP `bound_ctrl:1`.
    pub bound_ctrl: bool,
    /// DPP fetch-inactive (`fi:1`, gfx1030).
    pub fi: bool,
    /// DPP8 lane selects, 8 × 3 bits.
    pub dpp8: u32,
    // --- memory
    /// Byte offset field (SMEM, DS, FLAT/GLOBAL/SCRATCH, MUBUF), sign-extended where the field is signed.
    pub offset: i32,
    /// DS `offset0` (two-address forms).
    pub offset0: u8,
    /// DS `offset1` (two-address forms).
    pub offset1: u8,
    /// Global data share instead of LDS.
    pub gds: bool,
    /// Globally coherent.
    pub glc: bool,
    /// System level coherent.
    pub slc: bool,
    /// Device level coherent (gfx1030).
    pub dlc: bool,
    /// MUBUF/MTBUF offset from a VGPR.
    pub offen: bool,
    /// MUBUF/MTBUF index from a VGPR.
    pub idxen: bool,
    /// MUBUF load to LDS.
    pub lds: bool,
    /// Texture-fail enable.
    pub tfe: bool,
    /// MTBUF data/numeric format (gfx803) or unified format (gfx1030).
    pub format: u8,
    // --- scalar immediates
    /// SOPK / SOPP 16-bit immediate (branch offsets in dwords, waitcnt fields, ...).
    pub simm16: u16,
    /// Second immediate of SOPK `s_setreg_imm32_b32`-like forms and VOP2 `madak`/`madmk` constants
    /// live in the literal operand; this is for SOPK's 32-bit trailing immediate only.
    pub imm32: u32,
}

/// Maximum number of operands an instruction carries.
pub const MAX_OPERANDS: usize = 6;

/// One machine instruction of either ISA.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// The target it was decoded for (ISA and wave size).
    pub target: Target,
    /// What the instruction does.
    pub opcode: Opcode,
    /// The encoding family (the opcode space it is numbered in).
    pub family: Family,
    /// SDWA / DPP extension, if any.
    pub variant: Variant,
    /// Operands in LLVM's print order (destinations first), `operand_count` of them.
    pub operands: [Operand; MAX_OPERANDS],
    /// Number of valid entries in `operands`.
    pub operand_count: u8,
    /// Modifier and immediate fields.
    pub modifiers: Modifiers,
    /// Encoded size in bytes (4, 8 or 12), including any literal.
    pub size: u8,
}

impl Instruction {
    /// The operands in print order.
    pub fn operands(&self) -> &[Operand] {
        &self.operands[..self.operand_count as usize]
    }

    /// For a PC-relative branch at `address`, the address it jumps to
    /// (`address + 4 + 4 * simm16`, the SOPP rule on both ISAs).
    pub fn branch_target(&self, address: u64) -> Option<u64> {
        if self.family != Family::Sopp || !self.opcode.is_branch() {
            return None;
        }
        let offset = i64::from(self.modifiers.simm16 as i16) * 4;
        Some(address.wrapping_add(4).wrapping_add(offset as u64))
    }

    /// The table row describing this instruction's opcode in its family, if any.
    pub fn info(&self) -> Option<&'static OpInfo> {
        tables::info_for(self.target.isa, self.family, self.opcode)
    }
}

impl fmt::Display for Instruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        family::format(self, f)
    }
}
