//! `gpusim disasm`, `gpusim asm` and `gpusim info`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use arch::code_object::CodeObject;
use arch::isa::listing::{file_header, section_listing};
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

/// Disassembles every kernel and function of a code object in
/// `llvm-objdump -d`'s layout. `display_name` is the file name printed in the
/// header line. On a decode error the listing up to that point is returned in
/// the error's partial output.
pub fn listing(bytes: &[u8], display_name: &str) -> Result<String, ListingError> {
    let object = CodeObject::parse(bytes).map_err(|e| ListingError {
        partial: String::new(),
        message: e.to_string(),
    })?;
    let Some(target) = object.target() else {
        return Err(ListingError {
            partial: String::new(),
            message: format!(
                "processor `{}` is not modelled, or its kernels mix wave sizes",
                object.processor()
            ),
        });
    };
    let labels = object.labels();
    let text = object.text();
    let mut out = String::new();
    file_header(display_name, &mut out);
    match section_listing(target, text.address, &text.bytes, &labels, &mut out) {
        Ok(()) => Ok(out),
        Err(e) => {
            let address = text.address + e.offset() as u64;
            Err(ListingError {
                partial: out,
                message: format!("at address {address:#x}: {e}"),
            })
        }
    }
}

/// A listing that stopped early, with what was disassembled before the error.
#[derive(Debug)]
pub struct ListingError {
    /// The listing up to the failing instruction.
    pub partial: String,
    /// What went wrong.
    pub message: String,
}

/// Disassembles a code object file.
pub(crate) fn file(path: &PathBuf) -> Result<String, CliError> {
    let bytes = read_file(path)?;
    listing(&bytes, &path.display().to_string()).map_err(|e| {
        // Nothing the user gave is lost: print what decoded before reporting the error.
        print!("{}", e.partial);
        CliError::BadInput(format!("{}: {}", path.display(), e.message))
    })
}

/// Describes a code object.
pub(crate) fn info(path: &PathBuf) -> Result<String, CliError> {
    let bytes = read_file(path)?;
    let object = CodeObject::parse(&bytes)
        .map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))?;
    Ok(object.describe())
}
