//! A small, bounds-checked ELF64 little-endian reader: just what code objects
//! need (header, sections, symbols, notes). Hand-written rather than built on
//! `object` so every error can name the structure and its byte offset.

use super::error::CodeObjectError;

pub(crate) const EM_AMDGPU: u16 = 224;
pub(crate) const SHT_SYMTAB: u32 = 2;
pub(crate) const SHT_NOTE: u32 = 7;
pub(crate) const SHT_NOBITS: u32 = 8;
pub(crate) const SHT_DYNSYM: u32 = 11;
pub(crate) const SHF_ALLOC: u64 = 2;

/// Reads `len` bytes at `offset`, or says what was cut off.
pub(crate) fn slice<'a>(
    data: &'a [u8],
    offset: u64,
    len: u64,
    what: &dyn Fn() -> String,
) -> Result<&'a [u8], CodeObjectError> {
    let truncated = || CodeObjectError::Truncated {
        what: what(),
        offset,
        end: offset.saturating_add(len),
        len: data.len(),
    };
    let start = usize::try_from(offset).map_err(|_| truncated())?;
    let n = usize::try_from(len).map_err(|_| truncated())?;
    let end = start.checked_add(n).ok_or_else(truncated)?;
    data.get(start..end).ok_or_else(truncated)
}

/// Little-endian integer at `off` in `b`; the caller has checked the length.
pub(crate) fn le_u16(b: &[u8], off: usize) -> u16 {
    let mut a = [0u8; 2];
    a.copy_from_slice(&b[off..off + 2]);
    u16::from_le_bytes(a)
}

/// Little-endian u32 at `off` in `b`; the caller has checked the length.
pub(crate) fn le_u32(b: &[u8], off: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[off..off + 4]);
    u32::from_le_bytes(a)
}

/// Little-endian u64 at `off` in `b`; the caller has checked the length.
pub(crate) fn le_u64(b: &[u8], off: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[off..off + 8]);
    u64::from_le_bytes(a)
}

/// A NUL-terminated string at `offset` in a string table.
fn c_str(table: &[u8], offset: u32) -> String {
    let start = offset as usize;
    let Some(rest) = table.get(start..) else {
        return String::new();
    };
    let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
    String::from_utf8_lossy(&rest[..end]).into_owned()
}

/// One section header.
#[derive(Clone, Debug)]
pub(crate) struct Section {
    pub name: String,
    pub sh_type: u32,
    pub flags: u64,
    pub addr: u64,
    pub offset: u64,
    pub size: u64,
    pub link: u32,
    /// Byte offset of this header in the file, for error messages.
    pub header_offset: u64,
}

/// One symbol table entry.
#[derive(Clone, Debug)]
pub(crate) struct RawSymbol {
    pub name: String,
    pub value: u64,
    pub size: u64,
    pub st_type: u8,
    pub shndx: u16,
}

/// One note record.
#[derive(Clone, Debug)]
pub(crate) struct Note<'a> {
    pub name: &'a [u8],
    pub n_type: u32,
    pub desc: &'a [u8],
    /// Byte offset of the record in the file.
    pub offset: u64,
    /// Byte offset of `desc` in the file.
    pub desc_offset: u64,
}

/// A parsed ELF64 file.
pub(crate) struct Elf<'a> {
    pub data: &'a [u8],
    pub osabi: u8,
    pub abi_version: u8,
    pub flags: u32,
    pub sections: Vec<Section>,
}

impl<'a> Elf<'a> {
    /// Reads the ELF header and section headers.
    pub fn parse(data: &'a [u8]) -> Result<Self, CodeObjectError> {
        if data.len() < 4 || data[..4] != *b"\x7fELF" {
            return Err(CodeObjectError::NotElf);
        }
        if data.len() < 6 {
            return Err(CodeObjectError::Truncated {
                what: "ELF identification".into(),
                offset: 0,
                end: 16,
                len: data.len(),
            });
        }
        if data[4] != 2 {
            return Err(CodeObjectError::WrongClass {
                what: "class",
                value: data[4],
                offset: 4,
            });
        }
        if data[5] != 1 {
            return Err(CodeObjectError::WrongClass {
                what: "data encoding",
                value: data[5],
                offset: 5,
            });
        }
        let h = slice(data, 0, 64, &|| "ELF header".into())?;
        let machine = le_u16(h, 18);
        if machine != EM_AMDGPU {
            return Err(CodeObjectError::WrongMachine(machine));
        }
        let shoff = le_u64(h, 40);
        let shentsize = le_u16(h, 58);
        let shnum = le_u16(h, 60);
        let shstrndx = le_u16(h, 62);
        if shnum > 0 && shentsize != 64 {
            return Err(CodeObjectError::BadField {
                what: "e_shentsize".into(),
                offset: 58,
                reason: format!("{shentsize}, ELF64 section headers are 64 bytes"),
            });
        }
        let table = slice(data, shoff, u64::from(shnum) * 64, &|| {
            format!("section header table ({shnum} entries)")
        })?;
        let mut sections = Vec::with_capacity(usize::from(shnum));
        for (i, s) in table.chunks_exact(64).enumerate() {
            sections.push(Section {
                name: String::new(),
                sh_type: le_u32(s, 4),
                flags: le_u64(s, 8),
                addr: le_u64(s, 16),
                offset: le_u64(s, 24),
                size: le_u64(s, 32),
                link: le_u32(s, 40),
                header_offset: shoff + i as u64 * 64,
            });
        }
        let mut elf = Elf {
            data,
            osabi: h[7],
            abi_version: h[8],
            flags: le_u32(h, 48),
            sections,
        };
        if let Some(strtab) = elf.sections.get(usize::from(shstrndx)).cloned() {
            let names = elf.section_data(&strtab)?;
            for (i, s) in table.chunks_exact(64).enumerate() {
                elf.sections[i].name = c_str(names, le_u32(s, 0));
            }
        }
        Ok(elf)
    }

    /// The file bytes of a section (empty for `SHT_NOBITS`).
    pub fn section_data(&self, s: &Section) -> Result<&'a [u8], CodeObjectError> {
        if s.sh_type == SHT_NOBITS {
            return Ok(&[]);
        }
        slice(self.data, s.offset, s.size, &|| {
            format!("section `{}` (header at 0x{:x})", s.name, s.header_offset)
        })
    }

    /// The first section called `name`.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// The symbols of `.symtab`, or of `.dynsym` when the file is stripped.
    pub fn symbols(&self) -> Result<Vec<RawSymbol>, CodeObjectError> {
        let table = self
            .sections
            .iter()
            .find(|s| s.sh_type == SHT_SYMTAB)
            .or_else(|| self.sections.iter().find(|s| s.sh_type == SHT_DYNSYM));
        let Some(table) = table else {
            return Ok(Vec::new());
        };
        let bytes = self.section_data(table)?;
        let strings = match self.sections.get(table.link as usize) {
            Some(s) => self.section_data(s)?,
            None => {
                return Err(CodeObjectError::BadField {
                    what: format!("sh_link of `{}`", table.name),
                    offset: table.header_offset + 40,
                    reason: format!("string table index {} does not exist", table.link),
                })
            }
        };
        Ok(bytes
            .chunks_exact(24)
            .map(|e| RawSymbol {
                name: c_str(strings, le_u32(e, 0)),
                st_type: e[4] & 0xf,
                shndx: le_u16(e, 6),
                value: le_u64(e, 8),
                size: le_u64(e, 16),
            })
            .collect())
    }

    /// All note records of all `SHT_NOTE` sections.
    pub fn notes(&self) -> Result<Vec<Note<'a>>, CodeObjectError> {
        let mut notes = Vec::new();
        for s in self.sections.iter().filter(|s| s.sh_type == SHT_NOTE) {
            let bytes = self.section_data(s)?;
            let mut pos = 0usize;
            while pos < bytes.len() {
                let offset = s.offset + pos as u64;
                let bad = |reason: String| CodeObjectError::BadNote { offset, reason };
                let head = bytes.get(pos..pos + 12).ok_or_else(|| {
                    bad(format!(
                        "{} bytes left, a note header needs 12",
                        bytes.len() - pos
                    ))
                })?;
                let namesz = le_u32(head, 0) as usize;
                let descsz = le_u32(head, 4) as usize;
                let n_type = le_u32(head, 8);
                let name_start = pos + 12;
                let desc_start = name_start
                    .checked_add(align4(namesz))
                    .ok_or_else(|| bad("name size overflows".into()))?;
                let end = desc_start
                    .checked_add(align4(descsz))
                    .ok_or_else(|| bad("descriptor size overflows".into()))?;
                let (Some(name), Some(desc)) = (
                    bytes.get(name_start..name_start + namesz),
                    bytes.get(desc_start..desc_start.saturating_add(descsz)),
                ) else {
                    return Err(bad(format!(
                        "name size {namesz} and descriptor size {descsz} run past the end of section `{}`",
                        s.name
                    )));
                };
                // The name size counts the terminating NUL.
                let name = name.strip_suffix(&[0]).unwrap_or(name);
                notes.push(Note {
                    name,
                    n_type,
                    desc,
                    offset,
                    desc_offset: s.offset + desc_start as u64,
                });
                pos = end;
            }
        }
        Ok(notes)
    }

    /// The file bytes at virtual address `addr`, `len` long, if some allocated
    /// section with file data holds all of them.
    pub fn bytes_at(&self, addr: u64, len: u64) -> Option<&'a [u8]> {
        let s = self.sections.iter().find(|s| {
            s.flags & SHF_ALLOC != 0
                && s.sh_type != SHT_NOBITS
                && addr >= s.addr
                && addr
                    .checked_add(len)
                    .is_some_and(|e| e <= s.addr.saturating_add(s.size))
        })?;
        let data = self.section_data(s).ok()?;
        let start = usize::try_from(addr - s.addr).ok()?;
        data.get(start..start.checked_add(usize::try_from(len).ok()?)?)
    }
}

/// Rounds up to a multiple of 4 (note fields are 4-byte aligned).
pub(crate) fn align4(n: usize) -> usize {
    n.saturating_add(3) & !3
}
