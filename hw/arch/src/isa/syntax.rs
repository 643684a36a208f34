//! The assembly syntax every family reads: a line split into its mnemonic
//! and operand [`Token`]s ([`AsmLine`]), and the parsers of registers,
//! constants and source modifiers, so every family reads `s[4:5]`, `vcc_lo`,
//! `-4.0` or `0x1234` the same way.
//!
//! A leaf: the family files and the assembler front end (`asm.rs`) import it;
//! it imports neither.

use super::operand::{self, classify, SrcKind, VGPR_BASE};
use super::{AsmError, Isa, Operand, OperandType, Target};

/// One token of an operand list, with its 1-based column in the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// The token text (`s[4:5]`, `-|v1|`, `offset:16`, `quad_perm:[0,1,2,3]`, ...).
    pub text: &'a str,
    /// 1-based column of its first character.
    pub column: usize,
}

impl Token<'_> {
    /// An error pointing at this token.
    pub fn error(&self, message: impl Into<String>) -> AsmError {
        AsmError::at_column(self.column, message)
    }
}

/// A line split into its mnemonic and operand tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmLine<'a> {
    /// The mnemonic as written, including any suffix.
    pub mnemonic: &'a str,
    /// 1-based column of the mnemonic.
    pub mnemonic_column: usize,
    /// Operands and modifiers, split at commas and spaces outside brackets.
    pub tokens: Vec<Token<'a>>,
}

impl<'a> AsmLine<'a> {
    /// Splits `line` (comments already removed). `None` for a blank line.
    pub fn split(line: &'a str) -> Option<AsmLine<'a>> {
        let mut tokens = Vec::new();
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            while i < bytes.len() && (bytes[i] == b',' || bytes[i].is_ascii_whitespace()) {
                i += 1;
            }
            if i >= bytes.len() {
                break;
            }
            let start = i;
            let mut depth = 0i32;
            while i < bytes.len() {
                match bytes[i] {
                    b'[' | b'(' => depth += 1,
                    b']' | b')' => depth -= 1,
                    b',' | b' ' | b'\t' if depth <= 0 => break,
                    _ => {}
                }
                i += 1;
            }
            tokens.push(Token {
                text: &line[start..i],
                column: start + 1,
            });
        }
        if tokens.is_empty() {
            return None;
        }
        let first = tokens.remove(0);
        Some(AsmLine {
            mnemonic: first.text,
            mnemonic_column: first.column,
            tokens,
        })
    }

    /// The error for a missing operand after the last token.
    pub fn missing(&self, what: &str) -> AsmError {
        let column = self
            .tokens
            .last()
            .map_or(self.mnemonic_column + self.mnemonic.len(), |t| {
                t.column + t.text.len()
            });
        AsmError::at_column(column, format!("missing operand: {what}"))
    }
}

/// Parses an integer in LLVM's syntax: decimal, `0x` hex, optional leading `-`.
pub fn parse_int(text: &str) -> Option<i64> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let value = if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i64::from_str_radix(hex, 16).ok()?
    } else {
        body.parse::<i64>().ok()?
    };
    Some(if neg { -value } else { value })
}

/// Parses `prefix{n}` or `prefix[a:b]`, returning (first index, count).
fn parse_range(text: &str, prefix: &str) -> Option<(u16, u8)> {
    let rest = text.strip_prefix(prefix)?;
    if let Some(inner) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let (a, b) = inner.split_once(':')?;
        let (a, b): (u16, u16) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
        (b >= a).then(|| (a, (b - a + 1) as u8))
    } else if !rest.is_empty() && rest.bytes().all(|c| c.is_ascii_digit()) {
        Some((rest.parse().ok()?, 1))
    } else {
        None
    }
}

/// The source code of a named register or of a register range, if `text` is one,
/// with the number of registers written.
fn register_code(isa: Isa, text: &str) -> Option<(u16, u8)> {
    if let Some((n, count)) = parse_range(text, "ttmp") {
        let base = if isa == Isa::Gfx803 { 112 } else { 108 };
        return Some((base + n, count));
    }
    if let Some((n, count)) = parse_range(text, "s") {
        return Some((n, count));
    }
    if let Some((n, count)) = parse_range(text, "v") {
        return Some((VGPR_BASE + n, count));
    }
    // Named registers: search the operand space for the spelling.
    (0u16..=254).find_map(|code| match classify(isa, code) {
        SrcKind::Named(lo, _) if lo == text => Some((code, 1)),
        SrcKind::Named(_, Some(pair)) if pair == text => Some((code, 2)),
        _ => None,
    })
}

/// Parses a register-or-constant operand of type `ty` (no modifiers).
///
/// Constants become what LLVM's assembler makes of them for that type: an inline
/// constant when the value is one (`0x3f800000` for an f32 operand is the inline
/// `1.0`, `0x3c00` for an f16 one too, but not for a b16 one), else a literal.
/// Float constants (`2.5`) are converted to the operand's format; for f64
/// operands a literal holds the high half of the double.
pub fn parse_src(target: Target, token: &Token<'_>, ty: OperandType) -> Result<Operand, AsmError> {
    let text = token.text;
    if let Some((code, count)) = register_code(target.isa, text) {
        let want = ty.dwords(target);
        // `null` and the `src_*` registers stand for an operand of any width.
        let any_width = code == 125 || (235..=254).contains(&code);
        if count != want && !any_width {
            return Err(token.error(format!(
                "`{text}` is {count} register(s), this operand takes {want}"
            )));
        }
        return Ok(Operand::Src { code, ty });
    }
    if let Some(code) =
        (240u16..=248).find(|&c| operand::inline_float_text(c, ty.element_bits()) == text)
    {
        return Ok(Operand::Src { code, ty });
    }
    if let Some(v) = parse_int(text) {
        return int_constant(token, v, ty);
    }
    if let Some(v) = parse_float(text) {
        let wide = matches!(ty, OperandType::B64 | OperandType::F64);
        if wide {
            if let Some(code) = operand::f64_inline_code_for(v) {
                return Ok(Operand::Src { code, ty });
            }
        }
        let Some(bits) = operand::float_constant_bits(v, ty) else {
            return Err(token.error(format!(
                "`{text}` cannot be encoded as a {} constant",
                ty.name()
            )));
        };
        return Ok(match float_inline_code(bits, ty) {
            Some(code) => Operand::Src { code, ty },
            None => Operand::Literal { value: bits, ty },
        });
    }
    Err(token.error(format!("expected a register or constant, found `{text}`")))
}

/// The inline float code for float-constant bits already converted to `ty`'s format.
fn float_inline_code(bits: u32, ty: OperandType) -> Option<u16> {
    let probe = match ty.element_bits() {
        16 => OperandType::F16,
        64 => OperandType::F64,
        _ => OperandType::F32,
    };
    operand::inline_code_for(bits, probe).filter(|&c| c >= 240)
}

/// An integer constant for an operand of type `ty`.
fn int_constant(token: &Token<'_>, v: i64, ty: OperandType) -> Result<Operand, AsmError> {
    let too_big = || {
        token.error(format!(
            "constant `{}` does not fit a {} operand",
            token.text,
            ty.name()
        ))
    };
    let value = match ty.element_bits() {
        64 if ty == OperandType::B64
            && !(i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&v) =>
        {
            // A 64-bit integer only encodes when it is one of the double inline constants.
            return match operand::f64_inline_code_for(f64::from_bits(v as u64)) {
                Some(code) => Ok(Operand::Src { code, ty }),
                None => Err(too_big()),
            };
        }
        _ => {
            if !(i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&v) {
                return Err(too_big());
            }
            v as u32
        }
    };
    if (-16..=64).contains(&v) {
        let code = if v >= 0 {
            128 + v as u16
        } else {
            (192 - v) as u16
        };
        return Ok(Operand::Src { code, ty });
    }
    Ok(match operand::inline_code_for(value, ty) {
        Some(code) => Operand::Src { code, ty },
        None => Operand::Literal { value, ty },
    })
}

/// Parses a floating-point constant (`1.5`, `-0.25`, `1e-3`); integers are not floats here.
pub fn parse_float(text: &str) -> Option<f64> {
    let body = text.strip_prefix('-').unwrap_or(text);
    let first = body.bytes().next()?;
    let looks_float = (first.is_ascii_digit() || first == b'.')
        && body.contains(['.', 'e', 'E'])
        && !body.starts_with("0x")
        && !body.starts_with("0X");
    if !looks_float {
        return None;
    }
    text.parse::<f64>().ok()
}

/// Source modifiers written around an operand: `-x`, `neg(x)`, `|x|`, `abs(x)`, `sext(x)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SrcMods {
    /// Negate (`-x` or `neg(x)`).
    pub neg: bool,
    /// Absolute value (`|x|` or `abs(x)`).
    pub abs: bool,
    /// SDWA sign extension (`sext(x)`).
    pub sext: bool,
}

/// Strips `prefix` and a closing `suffix` from `text`, returning the inside.
fn wrapped<'a>(text: &'a str, prefix: &str, suffix: &str) -> Option<&'a str> {
    text.strip_prefix(prefix)?.strip_suffix(suffix)
}

/// Parses a register-or-constant operand of type `ty` with optional source
/// modifiers (`-v1`, `|v1|`, `-|v1|`, `neg(1.0)`, `abs(v1)`, `-abs(v1)`, `sext(v1)`).
/// A leading `-` before a number is part of the constant (`-1.0` is the inline
/// constant, not a negated `1.0`).
pub fn parse_src_mods(
    target: Target,
    token: &Token<'_>,
    ty: OperandType,
) -> Result<(Operand, SrcMods), AsmError> {
    let mut mods = SrcMods::default();
    let mut text = token.text;
    let mut column = token.column;
    let inner = |t: &mut &str, col: &mut usize, prefix: &str, suffix: &str| -> bool {
        match wrapped(t, prefix, suffix) {
            Some(rest) => {
                *col += prefix.len();
                *t = rest;
                true
            }
            None => false,
        }
    };
    if inner(&mut text, &mut column, "sext(", ")") {
        mods.sext = true;
    } else {
        if inner(&mut text, &mut column, "neg(", ")") {
            mods.neg = true;
        } else if let Some(rest) = text.strip_prefix('-') {
            if rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '|' || c == '_') {
                mods.neg = true;
                text = rest;
                column += 1;
            }
        }
        if inner(&mut text, &mut column, "|", "|") || inner(&mut text, &mut column, "abs(", ")") {
            mods.abs = true;
        }
    }
    let op = parse_src(target, &Token { text, column }, ty)?;
    Ok((op, mods))
}

/// Parses a VGPR (range) operand of type `ty`.
pub fn parse_vgpr(target: Target, token: &Token<'_>, ty: OperandType) -> Result<Operand, AsmError> {
    match parse_src(target, token, ty)? {
        op @ Operand::Src { code, .. } if code >= VGPR_BASE => Ok(op),
        _ => Err(token.error(format!("expected a VGPR, found `{}`", token.text))),
    }
}

/// Parses a `name:value` modifier token, returning the value text if the name matches.
pub fn modifier_value<'a>(token: &Token<'a>, name: &str) -> Option<&'a str> {
    token.text.strip_prefix(name)?.strip_prefix(':')
}
