//! The assembler front end: LLVM's AMDGPU syntax in, instructions out.
//!
//! This file splits a line into a mnemonic and operand tokens, resolves the
//! mnemonic (and its `_e32`/`_e64`/`_sdwa`/`_dpp` suffix) to candidate table rows
//! and hands the tokens to the family's parser. Shared helpers parse registers
//! and constants, so every family reads `s[4:5]`, `vcc_lo`, `-4.0` or `0x1234`
//! the same way.

use super::operand::{classify, SrcKind, LITERAL_CODE, VGPR_BASE};
use super::tables::{self, OpInfo};
use super::{
    encode, family, AsmError, Family, Instruction, Isa, Opcode, Operand, OperandType, Target,
    Variant,
};

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

/// Removes a `//` or `;` comment.
fn strip_comment(line: &str) -> &str {
    let end = [line.find("//"), line.find(';')]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(line.len());
    &line[..end]
}

/// Candidate rows for a written mnemonic: the table rows of the stem in the
/// families the suffix allows, in LLVM's order of preference (the shortest
/// encoding first), and the SDWA/DPP variant the suffix asks for.
fn candidates(isa: Isa, written: &str) -> (Vec<&'static OpInfo>, Variant) {
    let (stem, families, variant): (&str, &[Family], Variant) =
        if let Some(s) = written.strip_suffix("_e32") {
            (
                s,
                &[Family::Vop1, Family::Vop2, Family::Vopc],
                Variant::Plain,
            )
        } else if let Some(s) = written.strip_suffix("_e64") {
            (s, &[Family::Vop3], Variant::Plain)
        } else if let Some(s) = written.strip_suffix("_sdwa") {
            (
                s,
                &[Family::Vop1, Family::Vop2, Family::Vopc],
                Variant::Sdwa,
            )
        } else if let Some(s) = written.strip_suffix("_dpp") {
            (
                s,
                &[Family::Vop1, Family::Vop2, Family::Vopc],
                Variant::Dpp16,
            )
        } else {
            (written, &Family::ALL, Variant::Plain)
        };
    let Some(opcode) = Opcode::from_mnemonic(stem) else {
        return (Vec::new(), variant);
    };
    let mut rows: Vec<&'static OpInfo> = tables::encodings(isa, opcode)
        .filter(|r| families.contains(&r.family))
        .collect();
    // VOP3 last: LLVM picks the 32-bit encoding when the operands allow it.
    rows.sort_by_key(|r| r.family == Family::Vop3);
    (rows, variant)
}

/// Assembles one line (no label, no directive) into an instruction.
pub fn assemble_line(target: Target, line: &str) -> Result<Option<Instruction>, AsmError> {
    let Some(parsed) = AsmLine::split(strip_comment(line)) else {
        return Ok(None);
    };
    let (rows, variant) = candidates(target.isa, parsed.mnemonic);
    if rows.is_empty() {
        return Err(AsmError::at_column(
            parsed.mnemonic_column,
            format!(
                "unknown instruction `{}` on {}",
                parsed.mnemonic, target.isa
            ),
        ));
    }
    let mut first_error = None;
    for row in rows {
        match family::parse(target, row, variant, &parsed) {
            Ok(inst) => return Ok(Some(inst)),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.expect("at least one candidate was tried"))
}

/// Assembles a whole source text: one instruction per line, `//` and `;`
/// comments, blank lines, labels (`name:`) and directives (`.text`) ignored.
/// Errors carry the 1-based line and column.
pub fn assemble(target: Target, source: &str) -> Result<Vec<u8>, AsmError> {
    let mut out = Vec::new();
    for (n, raw) in source.lines().enumerate() {
        let text = strip_comment(raw);
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('.') || trimmed.ends_with(':') {
            continue;
        }
        let with_line = |mut e: AsmError| {
            e.line = n + 1;
            e
        };
        let Some(inst) = assemble_line(target, text).map_err(with_line)? else {
            continue;
        };
        encode(&inst, &mut out).map_err(|e| with_line(AsmError::at_column(1, e.to_string())))?;
    }
    Ok(out)
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
pub fn parse_src(target: Target, token: &Token<'_>, ty: OperandType) -> Result<Operand, AsmError> {
    let text = token.text;
    if let Some((code, count)) = register_code(target.isa, text) {
        let want = ty.dwords(target);
        if count != want && code < LITERAL_CODE {
            return Err(token.error(format!(
                "`{text}` is {count} register(s), this operand takes {want}"
            )));
        }
        if count != want && code >= VGPR_BASE {
            return Err(token.error(format!(
                "`{text}` is {count} register(s), this operand takes {want}"
            )));
        }
        return Ok(Operand::Src { code, ty });
    }
    if let Some(code) =
        (240u16..=248).find(|&c| super::operand::inline_float_text(c, ty.element_bits()) == text)
    {
        return Ok(Operand::Src { code, ty });
    }
    if let Some(v) = parse_int(text) {
        return Ok(match v {
            0..=64 => Operand::Src {
                code: 128 + v as u16,
                ty,
            },
            -16..=-1 => Operand::Src {
                code: (192 - v) as u16,
                ty,
            },
            _ if (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&v) => Operand::Literal {
                value: v as u32,
                ty,
            },
            _ => return Err(token.error(format!("constant `{text}` does not fit in 32 bits"))),
        });
    }
    Err(token.error(format!("expected a register or constant, found `{text}`")))
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
