//! Operands in AMD's unified 9-bit source space, and how LLVM prints them.
//!
//! Every register-or-constant operand is stored as its 9-bit source code
//! (0–255: SGPRs, special registers, inline constants; 256–511: VGPRs) plus its
//! [`OperandType`]. Fields that can only name a VGPR (VOP2 `vsrc1`, `vdst`, DS
//! `addr`, ...) are stored as `256 + n` too, so one printer and one register-file
//! decoder serve every family.

use std::fmt;

use super::{Isa, Target};

/// The value type of an operand as far as encoding and printing care: its width
/// and whether inline constants are read as floats of that width.
/// Integer signedness is a property of the opcode, not of the operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OperandType {
    /// 16-bit integer.
    B16,
    /// IEEE half.
    F16,
    /// Two packed 16-bit integers.
    V2B16,
    /// Two packed IEEE halves.
    V2F16,
    /// 32-bit integer or raw bits.
    B32,
    /// IEEE single.
    F32,
    /// 64-bit integer or raw bits.
    B64,
    /// IEEE double.
    F64,
    /// 96 bits (3 registers).
    B96,
    /// 128 bits (4 registers).
    B128,
    /// 160 bits (5 registers).
    B160,
    /// 256 bits (8 registers).
    B256,
    /// 512 bits (16 registers).
    B512,
    /// A lane mask: one SGPR in wave32, an SGPR pair in wave64 (VCC, compare results, carries).
    LaneMask,
}

impl OperandType {
    /// Every type, for tables and tests.
    pub const ALL: [OperandType; 14] = [
        OperandType::B16,
        OperandType::F16,
        OperandType::V2B16,
        OperandType::V2F16,
        OperandType::B32,
        OperandType::F32,
        OperandType::B64,
        OperandType::F64,
        OperandType::B96,
        OperandType::B128,
        OperandType::B160,
        OperandType::B256,
        OperandType::B512,
        OperandType::LaneMask,
    ];

    /// The spelling used in the `.isa` descriptions (`b32`, `f64`, `lanemask`, ...).
    pub fn name(self) -> &'static str {
        match self {
            OperandType::B16 => "b16",
            OperandType::F16 => "f16",
            OperandType::V2B16 => "v2b16",
            OperandType::V2F16 => "v2f16",
            OperandType::B32 => "b32",
            OperandType::F32 => "f32",
            OperandType::B64 => "b64",
            OperandType::F64 => "f64",
            OperandType::B96 => "b96",
            OperandType::B128 => "b128",
            OperandType::B160 => "b160",
            OperandType::B256 => "b256",
            OperandType::B512 => "b512",
            OperandType::LaneMask => "lanemask",
        }
    }

    /// Parses [`OperandType::name`].
    pub fn from_name(name: &str) -> Option<OperandType> {
        OperandType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Registers (dwords) the operand spans on `target`.
    pub fn dwords(self, target: Target) -> u8 {
        match self {
            OperandType::B16 | OperandType::F16 | OperandType::V2B16 | OperandType::V2F16 => 1,
            OperandType::B32 | OperandType::F32 => 1,
            OperandType::B64 | OperandType::F64 => 2,
            OperandType::B96 => 3,
            OperandType::B128 => 4,
            OperandType::B160 => 5,
            OperandType::B256 => 8,
            OperandType::B512 => 16,
            OperandType::LaneMask => target.lane_mask_dwords(),
        }
    }

    /// Width in bits of one scalar element (16, 32 or 64) used to interpret inline
    /// float constants; wider types use 32.
    pub fn element_bits(self) -> u32 {
        match self {
            OperandType::B16 | OperandType::F16 | OperandType::V2B16 | OperandType::V2F16 => 16,
            OperandType::B64 | OperandType::F64 => 64,
            _ => 32,
        }
    }

    /// True for floating-point types.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            OperandType::F16 | OperandType::V2F16 | OperandType::F32 | OperandType::F64
        )
    }
}

/// Source code of the first VGPR.
pub const VGPR_BASE: u16 = 256;
/// Source code meaning "a 32-bit literal follows the instruction".
pub const LITERAL_CODE: u16 = 255;
/// Source code selecting SDWA in VOP1/VOP2/VOPC `src0`.
pub const SDWA_CODE: u16 = 249;
/// Source code selecting DPP16 in VOP1/VOP2/VOPC `src0`.
pub const DPP16_CODE: u16 = 250;
/// Source code selecting DPP8 (gfx1030) in VOP1/VOP2/VOPC `src0`.
pub const DPP8_CODE: u16 = 233;
/// Source code selecting DPP8 with fetch-inactive (gfx1030).
pub const DPP8_FI_CODE: u16 = 234;

/// One operand of an [`Instruction`](super::Instruction).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A register range or an inline constant, by its 9-bit source code.
    Src {
        /// 0–511 (see the module documentation).
        code: u16,
        /// How many registers and how constants are read.
        ty: OperandType,
    },
    /// A 32-bit literal constant stored after the instruction word(s).
    Literal {
        /// The literal dword.
        value: u32,
        /// How it is read (for f64 operands it is the high half).
        ty: OperandType,
    },
    /// The `off` placeholder of FLAT/GLOBAL/SCRATCH `saddr` and MUBUF `vaddr` when absent.
    Off,
}

impl Default for Operand {
    fn default() -> Operand {
        Operand::Off
    }
}

impl Operand {
    /// A VGPR range operand.
    pub fn vgpr(index: u16, ty: OperandType) -> Operand {
        Operand::Src {
            code: VGPR_BASE + index,
            ty,
        }
    }

    /// An SGPR-space operand (SGPR, special register or inline constant).
    pub fn scalar(code: u16, ty: OperandType) -> Operand {
        Operand::Src { code, ty }
    }

    /// Writes the operand as LLVM prints it for `target`.
    pub fn write(&self, target: Target, out: &mut impl fmt::Write) -> fmt::Result {
        match *self {
            Operand::Src { code, ty } => write_src(target, code, ty, out),
            Operand::Literal { value, ty } => write_literal(value, ty, out),
            Operand::Off => out.write_str("off"),
        }
    }

    /// A helper for `format!`: `op.display(target)`.
    pub fn display(&self, target: Target) -> OperandDisplay {
        OperandDisplay { op: *self, target }
    }
}

/// [`Operand`] bound to a [`Target`] so it implements `Display`.
pub struct OperandDisplay {
    op: Operand,
    target: Target,
}

impl fmt::Display for OperandDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.op.write(self.target, f)
    }
}

/// What a 9-bit source code names on an ISA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SrcKind {
    /// General scalar register n.
    Sgpr(u16),
    /// Vector register n.
    Vgpr(u16),
    /// Trap temporary n.
    Ttmp(u16),
    /// A named register (`vcc_lo`, `m0`, `exec_lo`, `null`, `src_scc`, ...), by its
    /// low-half spelling and the pair spelling (when it has one).
    Named(&'static str, Option<&'static str>),
    /// Integer inline constant.
    InlineInt(i32),
    /// Float inline constant: 240–248 (0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 1/(2π)).
    InlineFloat(u16),
    /// A literal follows.
    Literal,
    /// Not a valid operand on this ISA.
    Invalid,
}

/// Classifies a source code on `isa`.
pub fn classify(isa: Isa, code: u16) -> SrcKind {
    match (isa, code) {
        (_, 256..=511) => SrcKind::Vgpr(code - VGPR_BASE),
        (Isa::Gfx1030, 0..=105) | (Isa::Gfx803, 0..=101) => SrcKind::Sgpr(code),
        (Isa::Gfx803, 102) => SrcKind::Named("flat_scratch_lo", Some("flat_scratch")),
        (Isa::Gfx803, 103) => SrcKind::Named("flat_scratch_hi", None),
        (Isa::Gfx803, 104) => SrcKind::Named("xnack_mask_lo", Some("xnack_mask")),
        (Isa::Gfx803, 105) => SrcKind::Named("xnack_mask_hi", None),
        (_, 106) => SrcKind::Named("vcc_lo", Some("vcc")),
        (_, 107) => SrcKind::Named("vcc_hi", None),
        (Isa::Gfx803, 108) => SrcKind::Named("tba_lo", Some("tba")),
        (Isa::Gfx803, 109) => SrcKind::Named("tba_hi", None),
        (Isa::Gfx803, 110) => SrcKind::Named("tma_lo", Some("tma")),
        (Isa::Gfx803, 111) => SrcKind::Named("tma_hi", None),
        (Isa::Gfx803, 112..=123) => SrcKind::Ttmp(code - 112),
        (Isa::Gfx1030, 108..=123) => SrcKind::Ttmp(code - 108),
        (_, 124) => SrcKind::Named("m0", None),
        // LLVM 19 prints 125 as `null` on gfx803 too.
        (_, 125) => SrcKind::Named("null", None),
        (_, 126) => SrcKind::Named("exec_lo", Some("exec")),
        (_, 127) => SrcKind::Named("exec_hi", None),
        (_, 128..=192) => SrcKind::InlineInt(code as i32 - 128),
        (_, 193..=208) => SrcKind::InlineInt(192 - code as i32),
        (_, 235) => SrcKind::Named("src_shared_base", None),
        (_, 236) => SrcKind::Named("src_shared_limit", None),
        (_, 237) => SrcKind::Named("src_private_base", None),
        (_, 238) => SrcKind::Named("src_private_limit", None),
        (_, 239) => SrcKind::Named("src_pops_exiting_wave_id", None),
        (_, 240..=248) => SrcKind::InlineFloat(code),
        (_, 251) => SrcKind::Named("src_vccz", None),
        (_, 252) => SrcKind::Named("src_execz", None),
        (_, 253) => SrcKind::Named("src_scc", None),
        (_, 254) => SrcKind::Named("src_lds_direct", None),
        (_, LITERAL_CODE) => SrcKind::Literal,
        _ => SrcKind::Invalid,
    }
}

/// Writes `prefix{n}` or `prefix[first:last]`.
fn write_range(out: &mut impl fmt::Write, prefix: &str, first: u16, dwords: u8) -> fmt::Result {
    if dwords <= 1 {
        write!(out, "{prefix}{first}")
    } else {
        write!(out, "{prefix}[{first}:{}]", first + u16::from(dwords) - 1)
    }
}

/// LLVM's spelling of the inline float constants 240–248 for an element width.
pub fn inline_float_text(code: u16, element_bits: u32) -> &'static str {
    match code {
        240 => "0.5",
        241 => "-0.5",
        242 => "1.0",
        243 => "-1.0",
        244 => "2.0",
        245 => "-2.0",
        246 => "4.0",
        247 => "-4.0",
        _ if element_bits == 64 => "0.15915494309189532",
        _ => "0.15915494",
    }
}

/// Writes a register-or-constant source code as LLVM does.
pub fn write_src(
    target: Target,
    code: u16,
    ty: OperandType,
    out: &mut impl fmt::Write,
) -> fmt::Result {
    let dwords = ty.dwords(target);
    match classify(target.isa, code) {
        SrcKind::Sgpr(n) => write_range(out, "s", n, dwords),
        SrcKind::Vgpr(n) => write_range(out, "v", n, dwords),
        SrcKind::Ttmp(n) => write_range(out, "ttmp", n, dwords),
        SrcKind::Named(lo, pair) => match (dwords, pair) {
            (2, Some(pair)) => out.write_str(pair),
            _ => out.write_str(lo),
        },
        SrcKind::InlineInt(v) => write!(out, "{v}"),
        SrcKind::InlineFloat(c) => out.write_str(inline_float_text(c, ty.element_bits())),
        SrcKind::Literal => out.write_str("lit"),
        SrcKind::Invalid => write!(out, "<invalid src {code}>"),
    }
}

/// Writes a literal constant. LLVM prints a literal whose value equals an inline
/// constant of the operand's type as that constant, and any other one in hex.
pub fn write_literal(value: u32, ty: OperandType, out: &mut impl fmt::Write) -> fmt::Result {
    write!(out, "0x{value:x}")?;
    let _ = ty;
    Ok(())
}
