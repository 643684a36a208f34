//! Printing and parsing shared by the VOP layouts: operands with source
//! modifiers, the mnemonic suffix, and `name:value` / `name:[a,b,c]` modifiers.

use std::fmt;

use crate::isa::syntax::{parse_int, parse_src_mods, AsmLine, SrcMods, Token};
use crate::isa::{AsmError, Instruction, Operand, Target};

/// Writes one operand with its source modifiers the way LLVM does: `-v1`,
/// `|v1|`, `-|v1|`, `sext(v1)`, and `neg(1.0)` for a negated constant (where a
/// bare `-` would read as a different constant).
pub(super) fn write_operand(
    f: &mut fmt::Formatter<'_>,
    target: Target,
    op: &Operand,
    mods: SrcMods,
) -> fmt::Result {
    let constant = match *op {
        Operand::Literal { .. } => true,
        Operand::Src { code, .. } => {
            (128..=208).contains(&code) || (240..=248).contains(&code) || code == 255
        }
        Operand::Off => false,
    };
    if mods.sext {
        f.write_str("sext(")?;
        op.write(target, f)?;
        return f.write_str(")");
    }
    let neg_call = mods.neg && !mods.abs && constant;
    if neg_call {
        f.write_str("neg(")?;
    } else if mods.neg {
        f.write_str("-")?;
    }
    if mods.abs {
        f.write_str("|")?;
    }
    op.write(target, f)?;
    if mods.abs {
        f.write_str("|")?;
    }
    if neg_call {
        f.write_str(")")?;
    }
    Ok(())
}

/// The source modifiers of source `i` from the bit masks.
pub(super) fn mods_of(neg: u8, abs: u8, sext: u8, i: usize) -> SrcMods {
    SrcMods {
        neg: neg >> i & 1 != 0,
        abs: abs >> i & 1 != 0,
        sext: sext >> i & 1 != 0,
    }
}

/// Writes the mnemonic, its suffix and the operand list; `source_mods(i)` gives the
/// modifiers of source `i` (operands that are not sources get none).
pub(super) fn write_head(
    f: &mut fmt::Formatter<'_>,
    inst: &Instruction,
    fields: &[crate::isa::OperandSpec],
    suffix: &str,
    source_mods: impl Fn(usize) -> SrcMods,
) -> fmt::Result {
    f.write_str(inst.opcode.mnemonic())?;
    f.write_str(suffix)?;
    for (n, (op, spec)) in inst.operands().iter().zip(fields).enumerate() {
        f.write_str(if n == 0 { " " } else { ", " })?;
        match (spec.field, op) {
            // The K constant of madak/madmk/fmaak/fmamk prints as the raw dword in hex.
            (crate::isa::Field::K, Operand::Literal { value, .. }) => write!(f, "{value:#x}")?,
            _ => {
                let mods = super::source_index(spec.field).map_or(SrcMods::default(), &source_mods);
                write_operand(f, inst.target, op, mods)?;
            }
        }
    }
    Ok(())
}

/// Writes `name:[b0,b1,...]` for the low `n` bits of `bits`.
pub(super) fn write_bit_list(
    f: &mut fmt::Formatter<'_>,
    name: &str,
    bits: u8,
    n: usize,
) -> fmt::Result {
    write!(f, " {name}:[")?;
    for i in 0..n {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{}", bits >> i & 1)?;
    }
    f.write_str("]")
}

/// Parses `[b0,b1,...]` (each 0 or 1) into bits, at most `max` entries.
pub(super) fn parse_bit_list(token: &Token<'_>, value: &str, max: usize) -> Result<u8, AsmError> {
    let inner = value
        .strip_prefix('[')
        .and_then(|v| v.strip_suffix(']'))
        .ok_or_else(|| token.error(format!("expected `[0,1,...]`, found `{value}`")))?;
    let mut bits = 0u8;
    let items: Vec<&str> = inner.split(',').map(str::trim).collect();
    if items.len() > max {
        return Err(token.error(format!(
            "`{}` has {} entries, at most {max} allowed",
            token.text,
            items.len()
        )));
    }
    for (i, item) in items.iter().enumerate() {
        match *item {
            "0" => {}
            "1" => bits |= 1 << i,
            other => {
                return Err(token.error(format!(
                    "expected 0 or 1 in `{}`, found `{other}`",
                    token.text
                )))
            }
        }
    }
    Ok(bits)
}

/// Parses an integer modifier value within `0..=max`.
pub(super) fn parse_small(token: &Token<'_>, value: &str, max: i64) -> Result<u32, AsmError> {
    match parse_int(value) {
        Some(v) if (0..=max).contains(&v) => Ok(v as u32),
        _ => Err(token.error(format!("`{}` needs a value in 0..={max}", token.text))),
    }
}

/// Operands (first `count` tokens) parsed against the row's operand list; the
/// remaining tokens are modifiers. Returns operands with their source modifiers.
pub(super) struct ParsedOperands<'l, 'a> {
    /// The operands in print order.
    pub operands: Vec<Operand>,
    /// Source modifiers per source index.
    pub mods: [SrcMods; 3],
    /// The modifier tokens after the operands.
    pub rest: &'l [Token<'a>],
}

/// Splits a line into the row's operands and the trailing modifier tokens.
pub(super) fn parse_operands<'l, 'a>(
    target: Target,
    fields: &[crate::isa::OperandSpec],
    line: &'l AsmLine<'a>,
) -> Result<ParsedOperands<'l, 'a>, AsmError> {
    if line.tokens.len() < fields.len() {
        return Err(line.missing(&format!(
            "{} operand(s) expected, {} given",
            fields.len(),
            line.tokens.len()
        )));
    }
    let mut operands = Vec::with_capacity(fields.len());
    let mut mods = [SrcMods::default(); 3];
    for (token, spec) in line.tokens.iter().zip(fields) {
        if spec.field == crate::isa::Field::K {
            operands.push(parse_k(token, spec.ty)?);
            continue;
        }
        let (op, m) = parse_src_mods(target, token, spec.ty)?;
        match super::source_index(spec.field) {
            Some(i) => mods[i] = m,
            None if m != SrcMods::default() => {
                return Err(token.error(format!("`{}` cannot take source modifiers", token.text)))
            }
            None => {}
        }
        operands.push(op);
    }
    Ok(ParsedOperands {
        operands,
        mods,
        rest: &line.tokens[fields.len()..],
    })
}

/// Splits `name:value` (value may be empty for flags).
pub(super) fn split_modifier<'a>(token: &Token<'a>) -> (&'a str, Option<&'a str>) {
    match token.text.split_once(':') {
        Some((name, value)) => (name, Some(value)),
        None => (token.text, None),
    }
}

/// Parses the K constant of madak/madmk/fmaak/fmamk: always a literal dword (an
/// integer, or a float converted to the operand's format).
fn parse_k(token: &Token<'_>, ty: crate::isa::OperandType) -> Result<Operand, AsmError> {
    let value = match parse_int(token.text) {
        Some(v) if (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&v) => v as u32,
        Some(_) => return Err(token.error(format!("`{}` does not fit 32 bits", token.text))),
        None => crate::isa::syntax::parse_float(token.text)
            .and_then(|v| crate::isa::operand::float_constant_bits(v, ty))
            .ok_or_else(|| token.error(format!("expected a constant, found `{}`", token.text)))?,
    };
    Ok(Operand::Literal { value, ty })
}
