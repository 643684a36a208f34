//! The assembler front end: LLVM's AMDGPU syntax in, instructions out.
//!
//! This file splits a line into a mnemonic and operand tokens, resolves the
//! mnemonic (and its `_e32`/`_e64`/`_sdwa`/`_dpp` suffix) to candidate table rows
//! and hands the tokens to the family's parser. The tokens and the shared
//! parsers of registers and constants are in [`super::syntax`].

use super::syntax::AsmLine;
use super::tables::{self, OpInfo};
use super::{encode, family, AsmError, Family, Instruction, Isa, Opcode, Target, Variant};

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
