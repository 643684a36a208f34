//! `gpusim disasm`, `gpusim asm` and `gpusim info`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use arch::isa::{asm::assemble_line, decode, encode, Target};

use super::{read_file, CliError};

/// Parses `--hex` text: dwords (`BF810000 7E000280`, most significant digit
/// first as llvm-objdump prints them) or bytes (`0x00,0x00,0x81,0xbf`).
pub(crate) fn parse_hex(text: &str) -> Result<Vec<u8>, CliError> {
    let tokens: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace() || c == '[' || c == ']')
        .filter(|t| !t.is_empty())
        .collect();
    let mut bytes = Vec::new();
    for token in tokens {
        if let Some(byte) = token
            .strip_prefix("0x")
            .or_else(|| token.strip_prefix("0X"))
        {
            if byte.len() > 2 {
                return Err(CliError::BadInput(format!(
                    "`{token}`: 0x-prefixed values are single bytes"
                )));
            }
            let b = u8::from_str_radix(byte, 16)
                .map_err(|_| CliError::BadInput(format!("`{token}` is not a hex byte")))?;
            bytes.push(b);
        } else if token.len() == 8 {
            let w = u32::from_str_radix(token, 16)
                .map_err(|_| CliError::BadInput(format!("`{token}` is not a hex dword")))?;
            bytes.extend_from_slice(&w.to_le_bytes());
        } else {
            return Err(CliError::BadInput(format!(
                "`{token}`: give 8-digit dwords (BF810000) or 0x-prefixed bytes (0xbf)"
            )));
        }
    }
    Ok(bytes)
}

/// Disassembles raw bytes, one instruction per line.
pub(crate) fn hex(target: Target, text: &str) -> Result<String, CliError> {
    let bytes = parse_hex(text)?;
    let mut out = String::new();
    let mut at = 0;
    while at < bytes.len() {
        let inst =
            decode(target, &bytes[at..]).map_err(|e| CliError::BadInput(e.at(at).to_string()))?;
        let _ = writeln!(out, "{inst}");
        at += usize::from(inst.size);
    }
    Ok(out)
}

/// Assembles a source file.
pub(crate) fn assemble(
    target: Target,
    path: &Path,
    source: &str,
    output: Option<&PathBuf>,
) -> Result<String, CliError> {
    let mut out = String::new();
    let mut binary = Vec::new();
    for (n, line) in source.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('.') || trimmed.ends_with(':') {
            continue;
        }
        let located = |column: usize, message: &str| {
            CliError::BadInput(format!(
                "{}:{}:{}: {message}",
                path.display(),
                n + 1,
                column
            ))
        };
        let inst = match assemble_line(target, line) {
            Ok(Some(inst)) => inst,
            Ok(None) => continue,
            Err(e) => return Err(located(e.column, &e.message)),
        };
        let mut bytes = Vec::new();
        encode(&inst, &mut bytes).map_err(|e| located(1, &e.to_string()))?;
        let list: Vec<String> = bytes.iter().map(|b| format!("0x{b:02x}")).collect();
        let _ = writeln!(out, "\t{inst}\t; encoding: [{}]", list.join(","));
        binary.extend_from_slice(&bytes);
    }
    match output {
        Some(path) => {
            std::fs::write(path, &binary).map_err(|source| CliError::Io {
                path: path.clone(),
                source,
            })?;
            Ok(String::new())
        }
        None => Ok(out),
    }
}

/// Disassembles a code object.
pub(crate) fn file(path: &PathBuf) -> Result<String, CliError> {
    let _bytes = read_file(path)?;
    Err(CliError::BadInput(
        "code object disassembly lands with the code-object reader".into(),
    ))
}

/// Describes a code object.
pub(crate) fn info(path: &PathBuf) -> Result<String, CliError> {
    let _bytes = read_file(path)?;
    Err(CliError::BadInput(
        "code object info lands with the code-object reader".into(),
    ))
}
