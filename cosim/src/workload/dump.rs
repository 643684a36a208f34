//! `--dump DIR`: every buffer's final contents as raw little-endian files
//! (`NAME.bin`) or NumPy arrays (`NAME.npy`, format version 1.0).

use std::path::{Path, PathBuf};

use super::{ElemType, HostBuffer};

/// The file format `--dump` writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DumpFormat {
    /// Raw little-endian elements, `NAME.bin`.
    #[default]
    Raw,
    /// NumPy `.npy` (a 1-D array of the buffer's element type), `NAME.npy`.
    Npy,
}

/// The NumPy dtype string of an element type (always little-endian).
pub fn npy_dtype(t: ElemType) -> &'static str {
    match t {
        ElemType::I8 => "|i1",
        ElemType::U8 => "|u1",
        ElemType::I16 => "<i2",
        ElemType::U16 => "<u2",
        ElemType::I32 => "<i4",
        ElemType::U32 => "<u4",
        ElemType::I64 => "<i8",
        ElemType::U64 => "<u8",
        ElemType::F32 => "<f4",
        ElemType::F64 => "<f8",
    }
}

/// A whole `.npy` file holding `b` as a 1-D array.
pub fn npy_bytes(b: &HostBuffer) -> Vec<u8> {
    let dict = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': ({},), }}",
        npy_dtype(b.elem),
        b.len()
    );
    // Magic (6) + version (2) + header length (2) + header, padded with
    // spaces and ended by '\n' to a multiple of 64 bytes (the format's rule).
    let unpadded = 10 + dict.len() + 1;
    let header_len = unpadded.next_multiple_of(64) - 10;
    let mut out = Vec::with_capacity(10 + header_len + b.bytes.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header_len as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.resize(10 + header_len - 1, b' ');
    out.push(b'\n');
    out.extend_from_slice(&b.bytes);
    out
}

/// Writes every buffer into `dir` (created if missing); returns the files
/// written, in buffer order.
pub fn dump(
    dir: &Path,
    buffers: &[HostBuffer],
    format: DumpFormat,
) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for b in buffers {
        let stem = file_stem(&b.name);
        let (file, bytes) = match format {
            DumpFormat::Raw => (dir.join(format!("{stem}.bin")), b.bytes.clone()),
            DumpFormat::Npy => (dir.join(format!("{stem}.npy")), npy_bytes(b)),
        };
        std::fs::write(&file, bytes)?;
        written.push(file);
    }
    Ok(written)
}

/// A buffer name as a file name inside the dump directory: characters other
/// than letters, digits, `_`, `-` and `.` become `_`, and a leading `.` too
/// (a name must not reach outside the directory or hide the file).
pub fn file_stem(name: &str) -> String {
    name.chars()
        .enumerate()
        .map(|(i, c)| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' || (c == '.' && i > 0) {
                c
            } else {
                '_'
            }
        })
        .collect()
}
