//! The scalar ALU and program-control families: SOP1, SOP2, SOPK, SOPC, SOPP.
//!
//! Bit layouts (identical on gfx803 and gfx1030; only opcode numbers differ):
//!
//! | family | 31..23          | 22..16 | 15..8  | 7..0  |
//! |--------|-----------------|--------|--------|-------|
//! | SOP2   | `10` op[29:23]  | sdst   | ssrc1  | ssrc0 |
//! | SOPK   | `1011` op[27:23]| sdst   | simm16 (15..0)  |
//! | SOP1   | `1_0111_1101`   | sdst   | op     | ssrc0 |
//! | SOPC   | `1_0111_1110`   | op     | ssrc1  | ssrc0 |
//! | SOPP   | `1_0111_1111`   | op     | simm16 (15..0)  |
//!
//! A source of 255 means a 32-bit literal follows (both sources may use it; they
//! then share the one literal). `s_setreg_imm32_b32` always carries a trailing
//! 32-bit immediate. Register operands come from the table row's operand list;
//! the 16-bit immediate lives in [`Modifiers::simm16`](crate::isa::Modifiers) and
//! is printed by [`imm`] according to the opcode. Fields an instruction does not
//! use must be zero: LLVM ignores them, so accepting them would break
//! `encode(decode(b)) == b`.

mod fill;
mod imm;

pub(super) use fill::{fill, fill_sopp};

use std::fmt;
use std::sync::OnceLock;

use crate::isa::operand::{classify, write_literal, SrcKind, LITERAL_CODE};
use crate::isa::syntax::{parse_src, AsmLine, Token};
use crate::isa::tables::{lookup, Field, OpInfo};
use crate::isa::words::dword;
use crate::isa::{
    AsmError, DecodeError, EncodeError, Family, Instruction, Isa, Modifiers, Opcode, Operand,
    OperandType, Target, Variant, MAX_OPERANDS,
};

use imm::ImmKind;

/// The raw fields of a scalar instruction word.
#[derive(Clone, Copy, Default)]
struct Raw {
    number: u16,
    sdst: u16,
    ssrc0: u16,
    ssrc1: u16,
    simm16: u16,
}

/// Splits `word` into the fields of `family` (inlined: the fast path calls it
/// with constant families).
#[inline(always)]
fn split(family: Family, word: u32) -> Raw {
    let b = |shift: u32, bits: u32| ((word >> shift) & ((1 << bits) - 1)) as u16;
    match family {
        Family::Sop1 => Raw {
            number: b(8, 8),
            sdst: b(16, 7),
            ssrc0: b(0, 8),
            ..Raw::default()
        },
        Family::Sop2 => Raw {
            number: b(23, 7),
            sdst: b(16, 7),
            ssrc0: b(0, 8),
            ssrc1: b(8, 8),
            simm16: 0,
        },
        Family::Sopk => Raw {
            number: b(23, 5),
            sdst: b(16, 7),
            simm16: b(0, 16),
            ..Raw::default()
        },
        Family::Sopc => Raw {
            number: b(16, 7),
            ssrc0: b(0, 8),
            ssrc1: b(8, 8),
            ..Raw::default()
        },
        _ => Raw {
            number: b(16, 7),
            simm16: b(0, 16),
            ..Raw::default()
        },
    }
}

/// Joins the fields of `family` into a word.
fn join(family: Family, r: Raw) -> u32 {
    let (n, d, s0, s1, k) = (
        u32::from(r.number),
        u32::from(r.sdst),
        u32::from(r.ssrc0),
        u32::from(r.ssrc1),
        u32::from(r.simm16),
    );
    match family {
        Family::Sop1 => 0xbe80_0000 | (d << 16) | (n << 8) | s0,
        Family::Sop2 => 0x8000_0000 | (n << 23) | (d << 16) | (s1 << 8) | s0,
        Family::Sopk => 0xb000_0000 | (n << 23) | (d << 16) | k,
        Family::Sopc => 0xbf00_0000 | (n << 16) | (s1 << 8) | s0,
        _ => 0xbf80_0000 | (n << 16) | k,
    }
}

/// End (exclusive) of SGPR ranges LLVM accepts. Its register file is s0..s105 on
/// both ISAs; on gfx803 codes 102..105 are named registers, but a wide range that
/// starts below them may still run up to s105 (`s[96:103]`).
fn sgpr_count(_isa: Isa) -> u16 {
    106
}

/// End (exclusive) of trap-temporary ranges LLVM accepts: ttmp0..ttmp15 on both
/// ISAs (gfx803 can only name ttmp0..11 singly, but `ttmp[8:15]` decodes).
fn ttmp_count(_isa: Isa) -> u16 {
    16
}

/// Whether a register range starting at index `n` of `dwords` registers is
/// aligned as LLVM's register classes require (pairs even, wider by 4) and ends
/// inside a file of `count` registers.
fn range_ok(n: u16, dwords: u8, count: u16) -> bool {
    let d = u16::from(dwords);
    let align = match d {
        1 => 1,
        2 => 2,
        _ => 4,
    };
    n % align == 0 && n + d <= count
}

/// The reference for [`scalar_operand_ok`]: classifies `code` and checks the
/// register range (LLVM's SReg_32/SReg_64/SSrc register classes).
fn scalar_operand_check(isa: Isa, code: u16, dwords: u8, is_src: bool) -> bool {
    match classify(isa, code) {
        SrcKind::Sgpr(n) => range_ok(n, dwords, sgpr_count(isa)),
        SrcKind::Ttmp(n) => range_ok(n, dwords, ttmp_count(isa)),
        SrcKind::Named(_, pair) => {
            let special_src = matches!(code, 235..=239 | 251..=253);
            match dwords {
                // src_lds_direct (254) is a VALU-only source.
                1 => code != 254,
                2 => pair.is_some() || code == 125 || special_src,
                _ => false,
            }
        }
        SrcKind::InlineInt(_) | SrcKind::InlineFloat(_) | SrcKind::Literal => is_src && dwords <= 2,
        SrcKind::Vgpr(_) | SrcKind::Invalid => false,
    }
}

/// Per (ISA, dwords 0..=16, source or not): the 8-bit codes [`scalar_operand_check`]
/// accepts, as a 256-bit set. Derived from that function once, so the decoder's
/// per-operand check is a bit test that agrees with it by construction.
type ScalarSets = [[[[u64; 4]; 2]; 17]; 2];

fn scalar_sets() -> &'static ScalarSets {
    static SETS: OnceLock<Box<ScalarSets>> = OnceLock::new();
    SETS.get_or_init(|| {
        let mut sets = Box::new([[[[0u64; 4]; 2]; 17]; 2]);
        for (i, isa) in [Isa::Gfx803, Isa::Gfx1030].into_iter().enumerate() {
            for dwords in 0..=16u8 {
                for is_src in [false, true] {
                    let set = &mut sets[i][usize::from(dwords)][usize::from(is_src)];
                    for code in 0..256u16 {
                        if scalar_operand_check(isa, code, dwords, is_src) {
                            set[usize::from(code >> 6)] |= 1 << (code & 63);
                        }
                    }
                }
            }
        }
        sets
    })
}

/// True when `code` is a valid scalar operand of `dwords` registers on `isa`:
/// a destination (`is_src` false) or a source (which may also be a constant).
/// Mirrors LLVM's SReg_32/SReg_64/SSrc register classes ([`scalar_operand_check`]),
/// by table for the 8-bit scalar fields.
#[inline]
pub(crate) fn scalar_operand_ok(isa: Isa, code: u16, dwords: u8, is_src: bool) -> bool {
    if code >= 256 || dwords > 16 {
        return scalar_operand_check(isa, code, dwords, is_src);
    }
    let set = &scalar_sets()[usize::from(isa == Isa::Gfx1030)][usize::from(dwords)];
    set[usize::from(is_src)][usize::from(code >> 6)] >> (code & 63) & 1 != 0
}

#[cold]
fn invalid(what: String) -> DecodeError {
    DecodeError::InvalidOperand { offset: 0, what }
}

/// The immediate kind of an instruction's simm16 (SOPC `s_set_gpr_idx_on`
/// keeps its 8-bit mode in `simm16` too).
fn imm_kind(info: &OpInfo) -> ImmKind {
    imm::kind(info.opcode)
}

/// True for `s_set_gpr_idx_on`, whose `ssrc1` field is a mode immediate.
fn ssrc1_is_imm(opcode: Opcode) -> bool {
    opcode == Opcode::S_SET_GPR_IDX_ON
}

/// True for instructions whose `ssrc0` must be a register: LLVM prints a constant
/// there as `/*Invalid immediate*/`.
fn ssrc0_register_only(opcode: Opcode) -> bool {
    matches!(
        opcode,
        Opcode::S_MOVRELS_B32
            | Opcode::S_MOVRELS_B64
            | Opcode::S_RFE_B64
            | Opcode::S_SETPC_B64
            | Opcode::S_CBRANCH_JOIN
    )
}

/// Whether `code` is acceptable in `field` of `opcode` beyond the register-class check.
fn field_ok(opcode: Opcode, field: Field, code: u16) -> bool {
    !(field == Field::Ssrc0
        && ssrc0_register_only(opcode)
        && matches!(code, 128..=208 | 240..=248 | LITERAL_CODE))
}

/// True for `s_setreg_imm32_b32`, which carries a trailing 32-bit immediate.
fn has_imm32(opcode: Opcode) -> bool {
    opcode == Opcode::S_SETREG_IMM32_B32
}

/// Decodes a scalar ALU / program-control instruction. Not inlined: the family
/// dispatch stays small and passes its result slot on.
#[inline(never)]
pub(crate) fn decode(
    target: Target,
    family: Family,
    bytes: &[u8],
) -> Result<Instruction, DecodeError> {
    let word = dword(bytes, 0)?;
    let raw = split(family, word);
    let isa = target.isa;
    let Some(info) = lookup(isa, family, raw.number) else {
        return Err(DecodeError::InvalidOpcode {
            offset: 0,
            family,
            opcode: raw.number,
        });
    };
    let mut inst = Instruction {
        target,
        opcode: info.opcode,
        family,
        variant: Variant::Plain,
        operands: [Operand::Off; MAX_OPERANDS],
        operand_count: 0,
        modifiers: Modifiers::default(),
        size: 4,
    };
    // Fields still owed a zero check: cleared as operands consume them.
    let mut unused = raw;
    unused.number = 0;
    let mut literal: Option<u32> = None;
    let kind = imm_kind(info);
    for spec in info.operands {
        let dwords = spec.ty.dwords(target);
        let (code, is_src) = match spec.field {
            Field::Sdst => (std::mem::take(&mut unused.sdst), false),
            Field::Ssrc0 => (std::mem::take(&mut unused.ssrc0), true),
            Field::Ssrc1 if ssrc1_is_imm(info.opcode) => {
                inst.modifiers.simm16 = std::mem::take(&mut unused.ssrc1);
                continue;
            }
            Field::Ssrc1 => (std::mem::take(&mut unused.ssrc1), true),
            Field::Simm16 => {
                inst.modifiers.simm16 = std::mem::take(&mut unused.simm16);
                continue;
            }
            Field::K => continue,
            other => {
                return Err(DecodeError::Unimplemented {
                    offset: 0,
                    what: format!(
                        "{family} operand field {} of {}",
                        other.name(),
                        info.opcode.mnemonic()
                    ),
                })
            }
        };
        if !scalar_operand_ok(isa, code, dwords, is_src) || !field_ok(info.opcode, spec.field, code)
        {
            return Err(invalid(format!(
                "{} of {}: source code {code} is not a valid {}-dword scalar {} on {isa}",
                spec.field.name(),
                info.opcode.mnemonic(),
                dwords,
                if is_src { "source" } else { "destination" }
            )));
        }
        let operand = if code == LITERAL_CODE {
            let value = match literal {
                Some(v) => v,
                None => {
                    let v = dword(bytes, 1)?;
                    literal = Some(v);
                    inst.size = 8;
                    v
                }
            };
            Operand::Literal { value, ty: spec.ty }
        } else {
            Operand::Src { code, ty: spec.ty }
        };
        push(&mut inst, operand);
    }
    // s_endpgm prints a non-zero immediate although LLVM's row lists none.
    if kind == ImmKind::OptionalDec {
        inst.modifiers.simm16 = std::mem::take(&mut unused.simm16);
    }
    if has_imm32(info.opcode) {
        inst.modifiers.imm32 = dword(bytes, 1)?;
        inst.size = 8;
    }
    if unused.sdst != 0 || unused.ssrc0 != 0 || unused.ssrc1 != 0 || unused.simm16 != 0 {
        return Err(invalid(format!(
            "{}: an unused field is non-zero in word {word:#010x}",
            info.opcode.mnemonic()
        )));
    }
    Ok(inst)
}

fn push(inst: &mut Instruction, operand: Operand) {
    if let Some(slot) = inst.operands.get_mut(usize::from(inst.operand_count)) {
        *slot = operand;
        inst.operand_count += 1;
    }
}

fn row(inst: &Instruction) -> Result<&'static OpInfo, EncodeError> {
    inst.info().ok_or(EncodeError::NoEncoding {
        opcode: inst.opcode,
        family: inst.family,
    })
}

pub(crate) fn encode(inst: &Instruction, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let info = row(inst)?;
    let isa = inst.target.isa;
    let mut raw = Raw {
        number: info.number,
        ..Raw::default()
    };
    let mut literal: Option<u32> = None;
    let mut ops = inst.operands().iter();
    for spec in info.operands {
        let field = match spec.field {
            Field::Sdst => &mut raw.sdst,
            Field::Ssrc0 => &mut raw.ssrc0,
            Field::Ssrc1 if ssrc1_is_imm(info.opcode) => {
                if inst.modifiers.simm16 > 0xff {
                    return Err(EncodeError::OperandOutOfRange(format!(
                        "gpr_idx mode {:#x} does not fit in 8 bits",
                        inst.modifiers.simm16
                    )));
                }
                raw.ssrc1 = inst.modifiers.simm16;
                continue;
            }
            Field::Ssrc1 => &mut raw.ssrc1,
            Field::Simm16 | Field::K => continue,
            other => {
                return Err(EncodeError::Unimplemented(format!(
                    "{} field {}",
                    inst.family,
                    other.name()
                )))
            }
        };
        let operand = ops.next().ok_or_else(|| {
            EncodeError::OperandOutOfRange(format!(
                "{} is missing its {} operand",
                info.opcode.mnemonic(),
                spec.field.name()
            ))
        })?;
        let is_src = spec.field != Field::Sdst;
        *field = match *operand {
            Operand::Src { code, .. }
                if scalar_operand_ok(isa, code, spec.ty.dwords(inst.target), is_src) =>
            {
                code
            }
            Operand::Literal { value, .. } if is_src => {
                if literal.is_some_and(|l| l != value) {
                    return Err(EncodeError::OperandOutOfRange(
                        "two different literals in one instruction".into(),
                    ));
                }
                literal = Some(value);
                LITERAL_CODE
            }
            other => {
                return Err(EncodeError::OperandOutOfRange(format!(
                    "{} operand {other:?} of {} is not valid on {isa}",
                    spec.field.name(),
                    info.opcode.mnemonic()
                )))
            }
        };
    }
    raw.simm16 = match inst.family {
        Family::Sopk | Family::Sopp => inst.modifiers.simm16,
        _ => 0,
    };
    out.extend_from_slice(&join(inst.family, raw).to_le_bytes());
    if has_imm32(info.opcode) {
        out.extend_from_slice(&inst.modifiers.imm32.to_le_bytes());
    } else if let Some(l) = literal {
        out.extend_from_slice(&l.to_le_bytes());
    }
    Ok(())
}

pub(crate) fn format(inst: &Instruction, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str(inst.opcode.mnemonic())?;
    let Some(info) = inst.info() else {
        return Ok(());
    };
    let isa = inst.target.isa;
    let kind = imm_kind(info);
    let mut ops = inst.operands().iter();
    let mut sep = " ";
    for spec in info.operands {
        f.write_str(sep)?;
        sep = ", ";
        match spec.field {
            Field::Simm16 => imm::write(kind, isa, inst.modifiers.simm16, f)?,
            Field::Ssrc1 if ssrc1_is_imm(info.opcode) => {
                imm::write(kind, isa, inst.modifiers.simm16, f)?
            }
            Field::K => write_literal(inst.modifiers.imm32, OperandType::B32, f)?,
            _ => match ops.next() {
                Some(op) => op.write(inst.target, f)?,
                None => f.write_str("<missing>")?,
            },
        }
    }
    if info.operands.is_empty() && kind == ImmKind::OptionalDec && inst.modifiers.simm16 != 0 {
        write!(f, " {}", inst.modifiers.simm16)?;
    }
    if has_imm32(info.opcode) && !info.operands.iter().any(|s| s.field == Field::K) {
        f.write_str(", ")?;
        write_literal(inst.modifiers.imm32, OperandType::B32, f)?;
    }
    Ok(())
}

/// Parses a scalar register/constant operand for `spec` and checks it fits the field.
fn parse_scalar(
    target: Target,
    token: &Token<'_>,
    ty: OperandType,
    is_src: bool,
) -> Result<Operand, AsmError> {
    // `null` and the `src_*` registers name one code but serve any width
    // (`s_mov_b64 s[2:3], src_execz`); the shared parser counts them as one register.
    let single_named = (125u16..=253).find(|&code| {
        matches!(code, 125 | 235..=239 | 251..=253)
            && matches!(classify(target.isa, code), SrcKind::Named(lo, None) if lo == token.text)
    });
    let operand = match single_named {
        Some(code) => Operand::Src { code, ty },
        None => inline_if_possible(parse_src(target, token, ty)?),
    };
    match operand {
        Operand::Src { code, .. }
            if scalar_operand_ok(target.isa, code, ty.dwords(target), is_src) =>
        {
            Ok(operand)
        }
        Operand::Literal { .. } if is_src => Ok(operand),
        _ => Err(token.error(format!(
            "`{}` is not a valid scalar {} here",
            token.text,
            if is_src { "source" } else { "destination" }
        ))),
    }
}

pub(crate) fn parse(
    target: Target,
    info: &'static OpInfo,
    _variant: Variant,
    line: &AsmLine<'_>,
) -> Result<Instruction, AsmError> {
    let mut inst = Instruction {
        target,
        opcode: info.opcode,
        family: info.family,
        variant: Variant::Plain,
        operands: [Operand::Off; MAX_OPERANDS],
        operand_count: 0,
        modifiers: Modifiers::default(),
        size: 4,
    };
    let kind = imm_kind(info);
    let tokens = &line.tokens[..];
    let mut next = 0usize;
    let mut literal: Option<u32> = None;
    for (i, spec) in info.operands.iter().enumerate() {
        let last = i + 1 == info.operands.len() && !has_imm32(info.opcode);
        let is_imm = spec.field == Field::Simm16
            || (spec.field == Field::Ssrc1 && ssrc1_is_imm(info.opcode));
        if is_imm {
            // A trailing immediate like `vmcnt(0) lgkmcnt(0)` may span several tokens.
            let end = if last {
                tokens.len()
            } else {
                (next + 1).min(tokens.len())
            };
            if next >= end {
                return Err(line.missing(spec.field.name()));
            }
            inst.modifiers.simm16 = imm::parse(kind, target.isa, &tokens[next..end])?;
            if spec.field == Field::Ssrc1 && inst.modifiers.simm16 > 0xff {
                return Err(tokens[next].error("gpr_idx mode does not fit in 8 bits"));
            }
            next = end;
            continue;
        }
        let token = tokens
            .get(next)
            .ok_or_else(|| line.missing(spec.field.name()))?;
        next += 1;
        if spec.field == Field::K {
            inst.modifiers.imm32 = parse_imm32(token)?;
            continue;
        }
        let operand = parse_scalar(target, token, spec.ty, spec.field != Field::Sdst)?;
        let code = match operand {
            Operand::Src { code, .. } => code,
            _ => LITERAL_CODE,
        };
        if !field_ok(info.opcode, spec.field, code) {
            return Err(token.error(format!(
                "{} takes a register here, not `{}`",
                info.opcode.mnemonic(),
                token.text
            )));
        }
        if let Operand::Literal { value, .. } = operand {
            if literal.is_some_and(|l| l != value) {
                return Err(token.error("only one literal constant is allowed"));
            }
            literal = Some(value);
            inst.size = 8;
        }
        push(&mut inst, operand);
    }
    if info.operands.is_empty() && kind == ImmKind::OptionalDec {
        if let Some(token) = tokens.get(next) {
            inst.modifiers.simm16 = imm::parse(kind, target.isa, std::slice::from_ref(token))?;
            next += 1;
        }
    }
    if has_imm32(info.opcode) && !info.operands.iter().any(|s| s.field == Field::K) {
        let token = tokens
            .get(next)
            .ok_or_else(|| line.missing("32-bit immediate"))?;
        inst.modifiers.imm32 = parse_imm32(token)?;
        next += 1;
    }
    if has_imm32(info.opcode) {
        inst.size = 8;
    }
    if let Some(extra) = tokens.get(next) {
        return Err(extra.error(format!("unexpected `{}`", extra.text)));
    }
    Ok(inst)
}

/// A 32-bit literal whose value is an inline constant is encoded inline, as
/// llvm-mc does (`s_mov_b32 s0, 0x3f800000` becomes `1.0`).
fn inline_if_possible(operand: Operand) -> Operand {
    match operand {
        Operand::Literal { value, ty } if matches!(ty, OperandType::B32 | OperandType::F32) => {
            if let Some(i) = crate::isa::operand::INLINE_F32
                .iter()
                .position(|&b| b == value)
            {
                Operand::Src {
                    code: 240 + i as u16,
                    ty,
                }
            } else {
                match value as i32 {
                    v @ 0..=64 => Operand::Src {
                        code: 128 + v as u16,
                        ty,
                    },
                    v @ -16..=-1 => Operand::Src {
                        code: (192 - v) as u16,
                        ty,
                    },
                    _ => operand,
                }
            }
        }
        _ => operand,
    }
}

fn parse_imm32(token: &Token<'_>) -> Result<u32, AsmError> {
    match crate::isa::syntax::parse_int(token.text) {
        Some(v) if (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&v) => Ok(v as u32),
        _ => Err(token.error(format!("expected a 32-bit integer, found `{}`", token.text))),
    }
}

#[cfg(test)]
mod tests;
