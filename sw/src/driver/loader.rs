//! Code-object loading: from an ELF file to the image copied into device memory.
//!
//! The loader copies the whole loadable address range (the span of the
//! `PT_LOAD` segments) to one allocation at a [`LOAD_ALIGN`]-aligned base, so
//! every virtual address `v` of the file lands at `base + v - span.start`:
//! kernel descriptors, code, and any read-only data the code refers to
//! PC-relatively keep their relative positions. Bytes a segment does not
//! cover (gaps, `.bss`) are zero. A file without program headers (a
//! relocatable object) falls back to `.text` plus the kernel descriptors.
//!
//! Dynamic relocations: `R_AMDGPU_RELATIVE64` (a GOT entry or pointer
//! holding `load base + addend`, what `ld.lld -shared` leaves for a call to a
//! function linked from another object, such as ockl's `__printf_alloc`) is
//! applied by [`LoadImage::relocate`]; other types are left alone: clang's
//! kernels reference their own data PC-relatively and need none
//! (documented in `docs/driver.md`).

use std::ops::Range;

use arch::code_object::{CodeObject, CodeObjectVersion, Kernel};

use super::error::DriverError;
use super::memory::Allocation;

/// Alignment of a loaded image's base: a page, so the file's own 256-byte
/// kernel-entry and 64-byte descriptor alignment survive the move.
pub const LOAD_ALIGN: u64 = 0x1000;

const PT_LOAD: u32 = 1;

/// The bytes to place in device memory for one code object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadImage {
    /// The virtual addresses the image covers (`start` maps to the load base).
    pub span: Range<u64>,
    /// `span.end - span.start` bytes.
    pub bytes: Vec<u8>,
}

impl LoadImage {
    /// Builds the image of `elf` (already parsed as `co`).
    pub fn new(elf: &[u8], co: &CodeObject) -> Result<LoadImage, DriverError> {
        let segments = load_segments(elf)?;
        if segments.is_empty() {
            return Self::from_sections(co);
        }
        // Start at a LOAD_ALIGN boundary so that every address keeps its
        // alignment modulo LOAD_ALIGN once moved to the (aligned) base.
        let start = segments.iter().map(|s| s.vaddr).min().unwrap_or(0) / LOAD_ALIGN * LOAD_ALIGN;
        let end = segments
            .iter()
            .map(|s| s.vaddr + s.memsz)
            .max()
            .unwrap_or(0);
        let len = usize::try_from(end - start)
            .ok()
            .filter(|&l| l <= 1 << 30)
            .ok_or_else(|| DriverError::BadSegment {
                offset: 0,
                reason: format!("loadable span {start:#x}..{end:#x} is larger than 1 GiB"),
            })?;
        let mut bytes = vec![0u8; len];
        for s in &segments {
            let at = (s.vaddr - start) as usize;
            let src = elf
                .get(s.offset as usize..(s.offset + s.filesz) as usize)
                .ok_or_else(|| DriverError::BadSegment {
                    offset: s.header_offset,
                    reason: format!(
                        "file bytes {:#x}..{:#x} run past the end of the {}-byte file",
                        s.offset,
                        s.offset + s.filesz,
                        elf.len()
                    ),
                })?;
            bytes[at..at + src.len()].copy_from_slice(src);
        }
        let image = LoadImage {
            span: start..end,
            bytes,
        };
        for k in co.kernels() {
            image.check_kernel(k)?;
        }
        Ok(image)
    }

    /// Image of a file without program headers: `.text` and, for v3+, the
    /// kernel descriptors (which live outside `.text`), rebuilt from the
    /// parsed descriptors.
    fn from_sections(co: &CodeObject) -> Result<LoadImage, DriverError> {
        let text = co.text();
        let mut start = text.address / LOAD_ALIGN * LOAD_ALIGN;
        let mut end = text.range().end;
        let v3 = co.version() != CodeObjectVersion::V2;
        if v3 {
            for k in co.kernels() {
                start = start.min(k.descriptor_address / LOAD_ALIGN * LOAD_ALIGN);
                end = end.max(k.descriptor_address.saturating_add(64));
            }
        }
        let len = usize::try_from(end - start)
            .ok()
            .filter(|&l| l <= 1 << 30)
            .ok_or_else(|| DriverError::BadSegment {
                offset: 0,
                reason: format!("text and descriptors span {start:#x}..{end:#x}, more than 1 GiB"),
            })?;
        let mut bytes = vec![0u8; len];
        let at = (text.address - start) as usize;
        bytes[at..at + text.bytes.len()].copy_from_slice(&text.bytes);
        if v3 {
            for k in co.kernels() {
                let at = (k.descriptor_address - start) as usize;
                bytes[at..at + 64].copy_from_slice(&k.descriptor.to_bytes());
            }
        }
        Ok(LoadImage {
            span: start..end,
            bytes,
        })
    }

    /// Applies the `R_AMDGPU_RELATIVE64` relocations of `elf`'s `SHT_RELA`
    /// sections for an image loaded at `base`: the 64-bit word at
    /// `r_offset` becomes `base - span.start + r_addend`.
    pub fn relocate(&mut self, elf: &[u8], base: u64) -> Result<(), DriverError> {
        const SHT_RELA: u64 = 4;
        const R_AMDGPU_RELATIVE64: u64 = 13;
        let shoff = le(elf, 0x28, 8)?;
        let shentsize = le(elf, 0x3a, 2)?;
        let shnum = le(elf, 0x3c, 2)?;
        if shoff == 0 || shentsize < 64 {
            return Ok(());
        }
        for i in 0..shnum {
            let h = shoff + i * shentsize;
            if le(elf, h + 4, 4)? != SHT_RELA {
                continue;
            }
            let (offset, size) = (le(elf, h + 0x18, 8)?, le(elf, h + 0x20, 8)?);
            for r in 0..size / 24 {
                let at = offset + r * 24;
                if le(elf, at + 8, 8)? & 0xffff_ffff != R_AMDGPU_RELATIVE64 {
                    continue;
                }
                let (where_, addend) = (le(elf, at, 8)?, le(elf, at + 16, 8)?);
                let value = base.wrapping_sub(self.span.start).wrapping_add(addend);
                let slot = where_
                    .checked_sub(self.span.start)
                    .and_then(|o| usize::try_from(o).ok())
                    .and_then(|o| self.bytes.get_mut(o..o.checked_add(8)?))
                    .ok_or_else(|| DriverError::BadSegment {
                        offset: at,
                        reason: format!(
                            "relocation at {where_:#x} is outside the loaded span {:#x}..{:#x}",
                            self.span.start, self.span.end
                        ),
                    })?;
                slot.copy_from_slice(&value.to_le_bytes());
            }
        }
        Ok(())
    }

    /// The descriptor and the whole code of `k` must be inside the image.
    fn check_kernel(&self, k: &Kernel) -> Result<(), DriverError> {
        let inside = |r: Range<u64>| self.span.start <= r.start && r.end <= self.span.end;
        let descriptor = k.descriptor_address..k.descriptor_address + 64;
        if !inside(descriptor) || !inside(k.code_range.clone()) {
            return Err(DriverError::BadSegment {
                offset: 0,
                reason: format!(
                    "kernel `{}` (descriptor {:#x}, code {:#x}..{:#x}) is not inside the loadable span {:#x}..{:#x}",
                    k.name,
                    k.descriptor_address,
                    k.code_range.start,
                    k.code_range.end,
                    self.span.start,
                    self.span.end
                ),
            });
        }
        Ok(())
    }
}

/// One `PT_LOAD` program header.
struct Segment {
    header_offset: u64,
    offset: u64,
    vaddr: u64,
    filesz: u64,
    memsz: u64,
}

fn le(elf: &[u8], at: u64, n: usize) -> Result<u64, DriverError> {
    let b = usize::try_from(at)
        .ok()
        .and_then(|a| elf.get(a..a.checked_add(n)?))
        .ok_or_else(|| DriverError::BadSegment {
            offset: at,
            reason: format!(
                "program header field runs past the end of the {}-byte file",
                elf.len()
            ),
        })?;
    Ok(b.iter().rev().fold(0, |acc, &x| (acc << 8) | u64::from(x)))
}

/// The `PT_LOAD` segments of an ELF64 little-endian file (already validated
/// as a code object by `CodeObject::parse`).
fn load_segments(elf: &[u8]) -> Result<Vec<Segment>, DriverError> {
    let phoff = le(elf, 0x20, 8)?;
    let phentsize = le(elf, 0x36, 2)?;
    let phnum = le(elf, 0x38, 2)?;
    if phnum == 0 {
        return Ok(Vec::new());
    }
    if phentsize < 56 {
        return Err(DriverError::BadSegment {
            offset: 0x36,
            reason: format!("e_phentsize {phentsize} is smaller than an ELF64 program header (56)"),
        });
    }
    let mut out = Vec::new();
    for i in 0..phnum {
        let h = phoff + i * phentsize;
        if le(elf, h, 4)? as u32 != PT_LOAD {
            continue;
        }
        let s = Segment {
            header_offset: h,
            offset: le(elf, h + 8, 8)?,
            vaddr: le(elf, h + 16, 8)?,
            filesz: le(elf, h + 32, 8)?,
            memsz: le(elf, h + 40, 8)?,
        };
        let bad = |reason: String| DriverError::BadSegment { offset: h, reason };
        if s.filesz > s.memsz {
            return Err(bad(format!(
                "p_filesz {:#x} exceeds p_memsz {:#x}",
                s.filesz, s.memsz
            )));
        }
        if s.vaddr
            .checked_add(s.memsz)
            .filter(|&e| e < 1 << 48)
            .is_none()
            || s.offset.checked_add(s.filesz).is_none()
        {
            return Err(bad(format!(
                "segment at {:#x} (+{:#x}) overflows the address space",
                s.vaddr, s.memsz
            )));
        }
        if s.memsz > 0 {
            out.push(s);
        }
    }
    Ok(out)
}

/// A kernel ready to dispatch: where its descriptor and code are on the device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedKernel {
    /// The kernel as read from the code object (metadata, descriptor, code).
    pub kernel: Kernel,
    /// Device address of its 64-byte kernel descriptor, the DISPATCH packet's
    /// `kernel_object`, 64-byte aligned. For code object v2 this is the
    /// descriptor converted from its `amd_kernel_code_t`
    /// ([`Program::converted_descriptors`]), not the `amd_kernel_code_t` itself.
    pub kernel_object: u64,
    /// Device address of its first instruction.
    pub entry: u64,
}

impl LoadedKernel {
    /// Kernel name.
    pub fn name(&self) -> &str {
        &self.kernel.name
    }
}

/// A code object loaded into device memory.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// The parsed code object.
    pub code_object: CodeObject,
    /// The device memory holding the image; its address is where the
    /// span's first byte is.
    pub allocation: Allocation,
    /// Code object v2: the block holding each kernel's descriptor converted
    /// from its `amd_kernel_code_t` (64 bytes per kernel, in kernel order).
    pub converted_descriptors: Option<Allocation>,
    /// The image's virtual addresses in the file.
    pub span: Range<u64>,
    /// Every kernel, in metadata order.
    pub kernels: Vec<LoadedKernel>,
}

impl Program {
    /// The kernel called `name`, or an error listing the available ones.
    pub fn kernel(&self, name: &str) -> Result<&LoadedKernel, DriverError> {
        self.kernels
            .iter()
            .find(|k| k.kernel.name == name)
            .ok_or_else(|| DriverError::NoKernel {
                name: name.to_string(),
                available: self
                    .kernels
                    .iter()
                    .map(|k| k.kernel.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// The device address of file virtual address `vaddr`.
    pub fn device_address(&self, vaddr: u64) -> u64 {
        self.allocation.address + (vaddr - self.span.start)
    }

    /// Device address of the image's first byte.
    pub fn base(&self) -> u64 {
        self.allocation.address
    }
}
