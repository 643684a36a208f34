//! The gpusim sub-vector note (seed 000, docs/code-objects.md "The sub-vector
//! note"): per kernel, the first indication of the issue order for waves wider
//! than their SIMD and the size of the VGPR region its parts share in
//! sub-vector looping order. Our compiler writes it (issue 20); clang objects
//! do not have it, and then every kernel gets [`KernelSubvector::default`].
//!
//! ```text
//! ELF note, owner "GPUSIM" (namesz 7), n_type NT_GPUSIM_SUBVECTOR = 1
//! desc, little-endian:
//!   u32 version            1
//!   u32 count              records that follow
//!   count × record:
//!     u8  mode             0 none, 1 conventional, 2 sub-vector, 3 auto
//!     u8  shared_vgprs     registers at the top of the kernel's VGPRs shared by the parts
//!     u16 name_len         bytes of the kernel name (1..=1024)
//!     name_len bytes       the kernel name (UTF-8, no NUL), zero-padded to 4 bytes
//! ```

use super::error::CodeObjectError;

/// Owner name of gpusim's own notes.
pub const GPUSIM_NOTE_OWNER: &str = "GPUSIM";
/// `n_type` of the sub-vector note.
pub const NT_GPUSIM_SUBVECTOR: u32 = 1;
/// `n_type` of the `GPUSIM` note saying every `amdhsa.printf` record ends
/// with gpusim's 8-byte work-item tag (description: a 32-bit version, 1;
/// `docs/driver.md` "printf").
pub const NT_GPUSIM_PRINTF: u32 = 2;
/// The only descriptor version this reader knows.
pub const SUBVECTOR_NOTE_VERSION: u32 = 1;
/// Longest kernel name a record may carry.
const MAX_NAME: usize = 1024;

/// One note of owner [`GPUSIM_NOTE_OWNER`], kept raw by [`super::CodeObject::parse`]
/// (a malformed gpusim note must not stop disassembly; the driver decodes it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpusimNote {
    /// The note's type.
    pub n_type: u32,
    /// Its descriptor bytes.
    pub desc: Vec<u8>,
    /// Byte offset of the descriptor in the file (for errors).
    pub desc_offset: u64,
}

/// A kernel's sub-vector settings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelSubvector {
    /// The kernel.
    pub name: String,
    /// The issue-order indication (the `mode` byte, as the DISPATCH packet's field).
    pub mode: crate::command::SubvectorHint,
    /// VGPRs at the top of the kernel's allocation that the parts of a wave
    /// share in sub-vector looping order.
    pub shared_vgprs: u8,
}

/// Decodes a sub-vector note descriptor found at file offset `offset`.
pub fn parse_subvector_note(
    desc: &[u8],
    offset: u64,
) -> Result<Vec<KernelSubvector>, CodeObjectError> {
    let bad = |at: usize, reason: String| CodeObjectError::BadNote {
        offset: offset + at as u64,
        reason: format!("GPUSIM sub-vector note: {reason}"),
    };
    let u32_at = |at: usize| {
        desc.get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let version = u32_at(0).ok_or_else(|| {
        bad(
            0,
            format!("{} bytes, the header needs 8", desc.len().min(7)),
        )
    })?;
    if version != SUBVECTOR_NOTE_VERSION {
        return Err(bad(
            0,
            format!("version {version} (this reader knows {SUBVECTOR_NOTE_VERSION})"),
        ));
    }
    let count = u32_at(4).ok_or_else(|| bad(4, "the header needs 8 bytes".into()))?;
    let mut at = 8usize;
    let mut out: Vec<KernelSubvector> = Vec::new();
    for i in 0..count {
        let head = desc
            .get(at..at + 4)
            .ok_or_else(|| bad(at, format!("record {i} of {count} runs past the end")))?;
        let mode = head[0];
        if mode > 3 {
            return Err(bad(at, format!("record {i}: mode {mode} (0..=3)")));
        }
        let shared_vgprs = head[1];
        let len = usize::from(u16::from_le_bytes([head[2], head[3]]));
        if len == 0 || len > MAX_NAME {
            return Err(bad(
                at + 2,
                format!("record {i}: kernel name of {len} bytes (1..={MAX_NAME})"),
            ));
        }
        let name = desc
            .get(at + 4..at + 4 + len)
            .ok_or_else(|| bad(at, format!("record {i}: name runs past the end")))?;
        let name = std::str::from_utf8(name)
            .ok()
            .filter(|n| !n.contains('\0'))
            .ok_or_else(|| bad(at + 4, format!("record {i}: name is not UTF-8 without NUL")))?;
        if out.iter().any(|k| k.name == name) {
            return Err(bad(
                at,
                format!("record {i}: kernel `{name}` appears twice"),
            ));
        }
        out.push(KernelSubvector {
            name: name.to_string(),
            mode: crate::command::SubvectorHint::from_bits(u32::from(mode)),
            shared_vgprs,
        });
        at += (4 + len).next_multiple_of(4);
    }
    if at < desc.len() {
        return Err(bad(
            at,
            format!(
                "{} bytes after the last of {count} records",
                desc.len() - at
            ),
        ));
    }
    Ok(out)
}

/// Encodes `kernels` as a sub-vector note descriptor (for
/// [`super::CodeObjectWriter::add_note`]). Fails on an empty, NUL-containing
/// or over-long name.
pub fn write_subvector_note(kernels: &[KernelSubvector]) -> Result<Vec<u8>, CodeObjectError> {
    let mut d = Vec::new();
    d.extend_from_slice(&SUBVECTOR_NOTE_VERSION.to_le_bytes());
    d.extend_from_slice(&(kernels.len() as u32).to_le_bytes());
    for k in kernels {
        if k.name.is_empty() || k.name.len() > MAX_NAME || k.name.contains('\0') {
            return Err(CodeObjectError::Write(format!(
                "sub-vector note: invalid kernel name {:?}",
                k.name
            )));
        }
        d.push(k.mode as u8);
        d.push(k.shared_vgprs);
        d.extend_from_slice(&(k.name.len() as u16).to_le_bytes());
        d.extend_from_slice(k.name.as_bytes());
        d.resize(d.len().next_multiple_of(4), 0);
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::SubvectorHint;

    fn two() -> Vec<KernelSubvector> {
        vec![
            KernelSubvector {
                name: "big".into(),
                mode: SubvectorHint::Subvector,
                shared_vgprs: 64,
            },
            KernelSubvector {
                name: "small_k".into(),
                mode: SubvectorHint::Auto,
                shared_vgprs: 0,
            },
        ]
    }

    #[test]
    fn a_written_note_reads_back() {
        let d = write_subvector_note(&two()).unwrap();
        // Header 8 + (4 + "big" → 8) + (4 + "small_k" → 12).
        assert_eq!(d.len(), 28);
        assert_eq!(&d[8..12], &[2, 64, 3, 0]);
        assert_eq!(parse_subvector_note(&d, 0).unwrap(), two());
    }

    #[test]
    fn malformed_notes_are_errors_that_say_what_is_wrong() {
        let good = write_subvector_note(&two()).unwrap();
        let err = |d: &[u8]| parse_subvector_note(d, 0x100).unwrap_err().to_string();
        assert!(
            err(&good[..6]).contains("header needs 8"),
            "{}",
            err(&good[..6])
        );
        let mut v = good.clone();
        v[0] = 2;
        assert!(err(&v).contains("version 2"));
        let mut m = good.clone();
        m[8] = 4;
        assert!(err(&m).contains("mode 4"));
        assert!(err(&good[..14]).contains("runs past the end"));
        let mut long = good.clone();
        long.extend_from_slice(&[0; 4]);
        assert!(err(&long).contains("4 bytes after the last of 2 records"));
        let mut dup = two();
        dup[1].name = "big".into();
        let d = write_subvector_note(&dup).unwrap();
        assert!(err(&d).contains("appears twice"));
        let mut empty = good.clone();
        empty[10] = 0;
        assert!(err(&empty).contains("name of 0 bytes"));
        // The offset names the record's byte in the file.
        assert!(err(&m).contains("0x108"), "{}", err(&m));
    }
}
