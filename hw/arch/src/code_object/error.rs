//! Errors from reading and writing code objects.

use thiserror::Error;

/// Why a code object could not be read or written. Every variant names what is
/// wrong and, where the problem sits in the file, the byte offset.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum CodeObjectError {
    /// The input does not start with the ELF magic `\x7fELF`.
    #[error("not an ELF file: the first 4 bytes are not \\x7fELF")]
    NotElf,
    /// ELF, but not 64-bit little-endian.
    #[error("unsupported ELF {what} {value} at byte 0x{offset:x} (AMDGPU code objects are ELF64 little-endian)")]
    WrongClass {
        /// `class` or `data encoding`.
        what: &'static str,
        /// The value found.
        value: u8,
        /// Its byte offset.
        offset: usize,
    },
    /// `e_machine` is not `EM_AMDGPU` (224).
    #[error("ELF machine {0} is not EM_AMDGPU (224)")]
    WrongMachine(u16),
    /// The OS/ABI byte is not `ELFOSABI_AMDGPU_HSA` (64).
    #[error("ELF OS/ABI {0} is not ELFOSABI_AMDGPU_HSA (64): not an HSA code object")]
    WrongOsAbi(u8),
    /// The ABI version byte names no code object version this reader knows.
    #[error("unsupported HSA ABI version {0} (known: 0 = v2, 1 = v3, 2 = v4, 3 = v5, 4 = v6)")]
    UnsupportedAbiVersion(u8),
    /// A structure runs past the end of the file.
    #[error("truncated {what}: needs bytes 0x{offset:x}..0x{end:x} but the file has 0x{len:x}")]
    Truncated {
        /// What was being read.
        what: String,
        /// Where it starts.
        offset: u64,
        /// Where it would end.
        end: u64,
        /// The file length.
        len: usize,
    },
    /// A header field has a value that cannot be right.
    #[error("bad {what} at byte 0x{offset:x}: {reason}")]
    BadField {
        /// The field.
        what: String,
        /// Its byte offset in the file.
        offset: u64,
        /// What is wrong with it.
        reason: String,
    },
    /// A note record is malformed.
    #[error("bad note at byte 0x{offset:x}: {reason}")]
    BadNote {
        /// The note record's byte offset.
        offset: u64,
        /// What is wrong with it.
        reason: String,
    },
    /// The code object has no `.text` section.
    #[error("no .text section")]
    NoText,
    /// The metadata could not be decoded (MessagePack for v3+, YAML for v2).
    #[error("bad {format} metadata in the note at byte 0x{offset:x}: {reason}")]
    BadMetadata {
        /// `MessagePack` or `YAML`.
        format: &'static str,
        /// The note's descriptor byte offset.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// The v3+ code object has no `NT_AMDGPU_METADATA` note.
    #[error("no NT_AMDGPU_METADATA note: a code object v3+ must describe its kernels")]
    NoMetadata,
    /// A kernel named in the metadata has no descriptor symbol in the file.
    #[error("kernel `{kernel}`: no descriptor symbol `{symbol}`")]
    MissingDescriptor {
        /// The kernel.
        kernel: String,
        /// The descriptor symbol looked for.
        symbol: String,
    },
    /// A kernel's descriptor or code lies outside every section with data.
    #[error(
        "kernel `{kernel}`: {what} at address 0x{address:x} is not inside a section with file data"
    )]
    BadAddress {
        /// The kernel.
        kernel: String,
        /// What lies at the address.
        what: &'static str,
        /// The virtual address.
        address: u64,
    },
    /// The writer was given something it cannot encode.
    #[error("cannot write code object: {0}")]
    Write(String),
}
