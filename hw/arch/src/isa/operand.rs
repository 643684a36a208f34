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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Operand {
    /// The `off` placeholder of FLAT/GLOBAL/SCRATCH `saddr` and MUBUF `vaddr` when absent.
    /// Declared first so that its discriminant is zero: an instruction whose unused
    /// operand slots are `Off` starts from all-zero bytes, which the decoder writes
    /// cheaply.
    #[default]
    Off,
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
        // LLVM names 125 and 239 on gfx803 too, although GCN3 has no such registers.
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

/// The first register LLVM prints for a scalar range starting at `n`: the hardware
/// ignores the low bit of an SGPR/TTMP pair's number, and LLVM prints the aligned pair
/// (`s[6:7]` for code 7).
fn scalar_base(n: u16, dwords: u8) -> u16 {
    if dwords >= 2 {
        n & !1
    } else {
        n
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

/// The inline float constants 240–248 as IEEE half bits.
pub const INLINE_F16: [u16; 9] = [
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
];
/// The inline float constants 240–248 as IEEE single bits.
pub const INLINE_F32: [u32; 9] = [
    0x3f00_0000,
    0xbf00_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x4000_0000,
    0xc000_0000,
    0x4080_0000,
    0xc080_0000,
    0x3e22_f983,
];
/// The inline float constants 240–248 as IEEE double bits.
pub const INLINE_F64: [u64; 9] = [
    0x3fe0_0000_0000_0000,
    0xbfe0_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x4000_0000_0000_0000,
    0xc000_0000_0000_0000,
    0x4010_0000_0000_0000,
    0xc010_0000_0000_0000,
    0x3fc4_5f30_6dc9_c882,
];

/// The inline float code (240–248) whose half bits are `bits`.
fn f16_inline_code(bits: u32) -> Option<u16> {
    INLINE_F16
        .iter()
        .position(|&b| u32::from(b) == bits)
        .map(|i| 240 + i as u16)
}

/// The inline float code (240–248) whose single bits are `bits`.
fn f32_inline_code(bits: u32) -> Option<u16> {
    INLINE_F32
        .iter()
        .position(|&b| b == bits)
        .map(|i| 240 + i as u16)
}

/// The inline float code (240–248) whose double bits are `bits`.
fn f64_inline_code(bits: u64) -> Option<u16> {
    INLINE_F64
        .iter()
        .position(|&b| b == bits)
        .map(|i| 240 + i as u16)
}

/// The inline integer code (128–208) for `v` in -16..=64.
fn int_inline_code(v: i64) -> Option<u16> {
    match v {
        0..=64 => Some(128 + v as u16),
        -16..=-1 => Some((192 - v) as u16),
        _ => None,
    }
}

/// What LLVM's assembler does with a 32-bit constant `value` written for an operand of
/// type `ty` (the dword a literal would hold; for f64 operands the high half):
/// the inline-constant code when the value is one of the type's inline constants,
/// `None` when it must be a literal. This is the inverse of [`write_literal`]
/// except where LLVM's printer and assembler disagree (LLVM prints the b16 literal
/// 0x3f800000 as `1.0`, which assembles to the inline constant).
pub fn inline_code_for(value: u32, ty: OperandType) -> Option<u16> {
    match ty {
        OperandType::B16 | OperandType::V2B16 => int_inline_code(i64::from(value as i32)),
        OperandType::F16 | OperandType::V2F16 => {
            int_inline_code(i64::from(value as i32)).or_else(|| f16_inline_code(value))
        }
        OperandType::F64 => {
            if value == 0 {
                Some(128)
            } else {
                f64_inline_code(u64::from(value) << 32)
            }
        }
        OperandType::B64 => int_inline_code(i64::from(value)),
        _ => int_inline_code(i64::from(value as i32)).or_else(|| f32_inline_code(value)),
    }
}

/// Converts a floating-point constant written in assembly (`2.5`, `-0.75`) to the
/// dword LLVM encodes for an operand of type `ty`: half bits for 16-bit types,
/// single bits for 32-bit types, the high half of the double for f64. `None` when
/// the type cannot take a float literal (b64, whose literal is an integer) or the
/// f64 value needs its low half.
pub fn float_constant_bits(value: f64, ty: OperandType) -> Option<u32> {
    match ty {
        OperandType::B16 | OperandType::F16 | OperandType::V2B16 | OperandType::V2F16 => {
            Some(u32::from(f64_to_f16_bits(value)))
        }
        OperandType::F64 => {
            let bits = value.to_bits();
            (bits as u32 == 0).then_some((bits >> 32) as u32)
        }
        OperandType::B64 => None,
        _ => Some((value as f32).to_bits()),
    }
}

/// Source code for a float constant written for a 64-bit operand when it is one of
/// the inline constants (LLVM accepts `1.0` for b64 and f64 operands alike).
pub fn f64_inline_code_for(value: f64) -> Option<u16> {
    f64_inline_code(value.to_bits())
}

/// IEEE half bits of `v`, round to nearest even (what LLVM's APFloat conversion does).
fn f64_to_f16_bits(v: f64) -> u16 {
    let bits = v.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let man = bits & 0x000f_ffff_ffff_ffff;
    if exp == 0x7ff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 1023 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    // Full significand with the implicit bit, then shift to 10 fraction bits.
    let full = man | (1u64 << 52);
    let (shift, base) = if e <= 0 {
        (42 + 1 - e, 0u16)
    } else {
        (42, (e as u16) << 10)
    };
    if shift > 63 {
        return sign;
    }
    let kept = full >> shift;
    let rest = full & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    let mut r = if e <= 0 {
        kept as u16
    } else {
        base | (kept as u16 & 0x3ff)
    };
    if rest > half || (rest == half && r & 1 == 1) {
        r += 1; // carries into the exponent correctly, including to infinity
    }
    sign | r
}

/// LLVM's text for an inline float code on a 16-bit integer operand: the half bits in hex.
fn b16_inline_float_text(code: u16) -> Option<u16> {
    INLINE_F16.get(usize::from(code.checked_sub(240)?)).copied()
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
        SrcKind::Sgpr(n) => write_range(out, "s", scalar_base(n, dwords), dwords),
        SrcKind::Vgpr(n) => write_range(out, "v", n, dwords),
        SrcKind::Ttmp(n) => write_range(out, "ttmp", scalar_base(n, dwords), dwords),
        SrcKind::Named(lo, pair) => match (dwords, pair) {
            (2, Some(pair)) => out.write_str(pair),
            _ => out.write_str(lo),
        },
        SrcKind::InlineInt(v) => write!(out, "{v}"),
        SrcKind::InlineFloat(c) => match (ty, b16_inline_float_text(c)) {
            (OperandType::B16, Some(bits)) => write!(out, "{bits:#x}"),
            _ => out.write_str(inline_float_text(c, ty.element_bits())),
        },
        SrcKind::Literal => out.write_str("lit"),
        SrcKind::Invalid => write!(out, "<invalid src {code}>"),
    }
}

/// Writes a literal constant as LLVM prints it. LLVM prints a literal whose value
/// is an inline constant of the operand's type as that constant and any other in
/// hex; what counts as "the value" depends on the type:
/// - 32-bit and packed-b16: the dword; integers -16..=64, or the single-precision
///   inline floats (`0x3f800000` is `1.0`).
/// - f16: only the low half is read (signed: `0xfff0` is `-16`).
/// - b16: the dword's signed value for integers, else the low half in hex.
/// - v2f16: integers as for 32-bit, floats only when the dword is a half constant.
/// - f64: the literal is the high half of the double; `0` and the double inline
///   floats print as constants, anything else as the 32-bit hex.
/// - b64: the literal is zero-extended: 0..=64 is decimal, the rest hex.
pub fn write_literal(value: u32, ty: OperandType, out: &mut impl fmt::Write) -> fmt::Result {
    let as_int = value as i32;
    let small = (-16..=64).contains(&as_int);
    match ty {
        OperandType::F16 => {
            let lo = value & 0xffff;
            let signed = i32::from(lo as u16 as i16);
            if (-16..=64).contains(&signed) {
                write!(out, "{signed}")
            } else if let Some(code) = f16_inline_code(lo) {
                out.write_str(inline_float_text(code, 16))
            } else {
                write!(out, "{lo:#x}")
            }
        }
        OperandType::B16 => {
            if small {
                write!(out, "{as_int}")
            } else if let Some(code) = f32_inline_code(value) {
                out.write_str(inline_float_text(code, 32))
            } else {
                write!(out, "{:#x}", value & 0xffff)
            }
        }
        OperandType::V2F16 => {
            if small {
                write!(out, "{as_int}")
            } else if let Some(code) = f16_inline_code(value) {
                out.write_str(inline_float_text(code, 16))
            } else {
                write!(out, "{value:#x}")
            }
        }
        OperandType::F64 => {
            if value == 0 {
                out.write_str("0")
            } else if let Some(code) = f64_inline_code(u64::from(value) << 32) {
                out.write_str(inline_float_text(code, 64))
            } else {
                write!(out, "{value:#x}")
            }
        }
        OperandType::B64 => {
            if value <= 64 {
                write!(out, "{value}")
            } else {
                write!(out, "{value:#x}")
            }
        }
        _ => {
            if small {
                write!(out, "{as_int}")
            } else if let Some(code) = f32_inline_code(value) {
                out.write_str(inline_float_text(code, 32))
            } else {
                write!(out, "{value:#x}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(value: u32, ty: OperandType) -> String {
        let mut s = String::new();
        write_literal(value, ty, &mut s).unwrap();
        s
    }

    fn src(code: u16, ty: OperandType) -> String {
        let mut s = String::new();
        write_src(Target::GFX1030_W32, code, ty, &mut s).unwrap();
        s
    }

    /// Every case checked against `llvm-mc-19 --disassemble -mcpu=gfx1030`.
    #[test]
    fn literals_print_as_llvm() {
        use OperandType::*;
        let cases: &[(u32, OperandType, &str)] = &[
            (0x3f80_0000, F32, "1.0"),
            (0x40, F32, "64"),
            (0xffff_fff0, F32, "-16"),
            (0x3e22_f983, F32, "0.15915494"),
            (0x8000_0000, F32, "0x80000000"),
            (0x3f80_0000, B32, "1.0"),
            (0xffff_ffff, B32, "-1"),
            (0x1234, B32, "0x1234"),
            (0x3ff0_0000, F64, "1.0"),
            (0, F64, "0"),
            (0x3fc4_5f30, F64, "0x3fc45f30"),
            (0x40, F64, "0x40"),
            (0xffff_fff0, F64, "0xfffffff0"),
            (0x3fe0_0000, F64, "0.5"),
            (5, B64, "5"),
            (0xffff_ffff, B64, "0xffffffff"),
            (0x3ff0_0000, B64, "0x3ff00000"),
            (0x0001_3c00, F16, "1.0"),
            (0xffff_3c00, F16, "1.0"),
            (0x0000_fff0, F16, "-16"),
            (0x0001_1234, F16, "0x1234"),
            (0x3118, F16, "0.15915494"),
            (0x8000, F16, "0x8000"),
            (0x3c00, B16, "0x3c00"),
            (0xffff, B16, "0xffff"),
            (0xffff_ffff, B16, "-1"),
            (0x0001_fff0, B16, "0xfff0"),
            (0xffff_1234, B16, "0x1234"),
            (0x3f80_0000, B16, "1.0"),
            (0x3e22_f983, B16, "0.15915494"),
            (0x3c00, V2F16, "1.0"),
            (0x3c00_3c00, V2F16, "0x3c003c00"),
            (0x0001_3c00, V2F16, "0x13c00"),
            (0xffff_fff0, V2F16, "-16"),
            (0x0000_fff0, V2F16, "0xfff0"),
            (0x3f80_0000, V2F16, "0x3f800000"),
            (0xffff_bc00, V2F16, "0xffffbc00"),
            (0x5_0005, V2B16, "0x50005"),
            (0x3c00, V2B16, "0x3c00"),
            (0x3f80_0000, V2B16, "1.0"),
            (0xffff_fff0, V2B16, "-16"),
        ];
        for &(value, ty, text) in cases {
            assert_eq!(lit(value, ty), text, "literal {value:#x} as {ty:?}");
        }
    }

    #[test]
    fn inline_constants_print_as_llvm() {
        use OperandType::*;
        assert_eq!(src(242, B16), "0x3c00");
        assert_eq!(src(248, B16), "0x3118");
        assert_eq!(src(242, V2B16), "1.0");
        assert_eq!(src(248, B64), "0.15915494309189532");
        assert_eq!(src(248, F32), "0.15915494");
        assert_eq!(src(193, F32), "-1");
        assert_eq!(src(253, B16), "src_scc");
    }

    #[test]
    fn constants_fold_to_inline_codes_as_llvm_assembles_them() {
        use OperandType::*;
        assert_eq!(inline_code_for(0x3f80_0000, F32), Some(242));
        assert_eq!(inline_code_for(0x3f80_0000, B32), Some(242));
        assert_eq!(inline_code_for(0x3c00, F16), Some(242));
        assert_eq!(inline_code_for(0x3c00, V2F16), Some(242));
        assert_eq!(inline_code_for(0x3c00, B16), None);
        assert_eq!(inline_code_for(0x3c00, V2B16), None);
        assert_eq!(inline_code_for(0x3ff0_0000, F64), Some(242));
        assert_eq!(inline_code_for(0x3ff0_0000, B64), None);
        assert_eq!(inline_code_for(0xffff_ffff, B32), Some(193));
        assert_eq!(float_constant_bits(2.5, F16), Some(0x4100));
        assert_eq!(float_constant_bits(2.5, F32), Some(0x4020_0000));
        assert_eq!(float_constant_bits(2.5, F64), Some(0x4004_0000));
        assert_eq!(float_constant_bits(0.1, F64), None);
        assert_eq!(f64_to_f16_bits(65520.0), 0x7c00);
        assert_eq!(f64_to_f16_bits(-0.0), 0x8000);
        assert_eq!(f64_to_f16_bits(5.960_464_477_539_063e-8), 0x0001);
        assert_eq!(f64_to_f16_bits(0.1), 0x2e66);
    }
}
