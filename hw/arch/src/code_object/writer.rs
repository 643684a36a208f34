//! Writes code object v5: an ELF64 AMDGPU shared object laid out the way
//! `ld.lld -shared` lays out a clang object (read-only segment with the notes,
//! dynamic symbols, hash table and descriptors; an executable segment with
//! `.text`; a read-write segment with `.dynamic`), so the ROCm loader,
//! `llvm-objdump -d` and `llvm-readelf --notes` all accept it.

use super::descriptor::{KernelDescriptor, KERNEL_DESCRIPTOR_SIZE};
use super::error::CodeObjectError;
use super::metadata::{write_msgpack, CodeObjectMetadata, KernelMetadata};
use super::processor;
use super::{ELFOSABI_AMDGPU_HSA, NT_AMDGPU_METADATA, STT_FUNC, STT_OBJECT};
use crate::isa::Isa;

/// HSA ABI version byte of code object v5.
const ELFABIVERSION_AMDGPU_HSA_V5: u8 = 3;
/// Kernel entries must be 256-byte aligned.
const KERNEL_ALIGN: usize = 256;
const PAGE: u64 = 0x1000;
const PHDR_SIZE: usize = 56;
const PHNUM: usize = 6;

/// A kernel to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewKernel {
    /// Kernel name (symbol `NAME` for the code, `NAME.kd` for the descriptor).
    pub name: String,
    /// Machine code, starting at the entry point.
    pub code: Vec<u8>,
    /// The descriptor. `kernel_code_entry_byte_offset` is ignored: the writer
    /// sets it from the layout.
    pub descriptor: KernelDescriptor,
    /// The metadata. `name` and `symbol` are ignored: the writer sets them to
    /// `NAME` and `NAME.kd`.
    pub metadata: KernelMetadata,
}

/// A program-scope data object: read-only (an OpenCL `__constant`
/// variable) in `.rodata` after the kernel descriptors, as `ld.lld` places
/// clang's; writable (an OpenCL 2.0 `__global` variable) in `.data`, in
/// the read-write segment after `.dynamic`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewData {
    /// Its name (relocations refer to it by name).
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Alignment in bytes (a power of two).
    pub align: u32,
    /// Writable (`.data`), else read-only (`.rodata`).
    pub writable: bool,
}

/// A PC-relative reference from a kernel's code to a data object: the
/// 32-bit field at `offset` in the kernel's code receives the low
/// (`R_AMDGPU_REL32_LO`) or high (`R_AMDGPU_REL32_HI`) half of
/// `address(data) - address(code + pc)`, where `code + pc` is what the
/// kernel's `s_getpc_b64` returned (the address after that instruction).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataReloc {
    /// The kernel whose code is patched.
    pub kernel: String,
    /// Byte offset of the 32-bit field in the kernel's code.
    pub offset: u32,
    /// Byte offset in the kernel's code the difference is taken from.
    pub pc: u32,
    /// The data object's name.
    pub data: String,
    /// The high half (else the low half).
    pub hi: bool,
}

/// Builds a code object v5 from kernels.
#[derive(Clone, Debug)]
pub struct CodeObjectWriter {
    isa: Isa,
    kernels: Vec<NewKernel>,
    /// Extra notes `(owner, n_type, desc)` after the metadata note.
    notes: Vec<(String, u32, Vec<u8>)>,
    /// `amdhsa.printf` entries.
    printf: Vec<String>,
    /// Data objects (`.rodata` after the descriptors, or `.data`).
    data: Vec<NewData>,
    /// References from code to data.
    relocs: Vec<DataReloc>,
}

impl CodeObjectWriter {
    /// A writer for `isa` (`e_flags` gets its `EF_AMDGPU_MACH`).
    pub fn new(isa: Isa) -> Self {
        CodeObjectWriter {
            isa,
            kernels: Vec::new(),
            notes: Vec::new(),
            printf: Vec::new(),
            data: Vec::new(),
            relocs: Vec::new(),
        }
    }

    /// Adds a read-only data object (laid out in the order added).
    pub fn add_data(&mut self, data: NewData) -> &mut Self {
        self.data.push(data);
        self
    }

    /// Adds a PC-relative reference from a kernel's code to a data object.
    pub fn add_reloc(&mut self, reloc: DataReloc) -> &mut Self {
        self.relocs.push(reloc);
        self
    }

    /// Adds a kernel; kernels are laid out in the order added.
    pub fn add_kernel(&mut self, kernel: NewKernel) -> &mut Self {
        self.kernels.push(kernel);
        self
    }

    /// Sets the `amdhsa.printf` format entries (`"ID:NARGS:SIZE…:FORMAT"`).
    pub fn set_printf(&mut self, entries: Vec<String>) -> &mut Self {
        self.printf = entries;
        self
    }

    /// Adds a note record (owner `owner`, type `n_type`) to `.note`, after
    /// the metadata note (e.g. the sub-vector note,
    /// [`super::write_subvector_note`]).
    pub fn add_note(&mut self, owner: &str, n_type: u32, desc: Vec<u8>) -> &mut Self {
        self.notes.push((owner.to_string(), n_type, desc));
        self
    }

    /// The ELF image. Fails on empty, duplicate or NUL-containing kernel names.
    pub fn write(&self) -> Result<Vec<u8>, CodeObjectError> {
        for (i, k) in self.kernels.iter().enumerate() {
            if k.name.is_empty() || k.name.contains('\0') {
                return Err(CodeObjectError::Write(format!(
                    "kernel {i} has an invalid name {:?}",
                    k.name
                )));
            }
            if self.kernels[..i].iter().any(|o| o.name == k.name) {
                return Err(CodeObjectError::Write(format!(
                    "two kernels are called `{}`",
                    k.name
                )));
            }
        }
        for (i, d) in self.data.iter().enumerate() {
            if !d.align.is_power_of_two() || self.data[..i].iter().any(|o| o.name == d.name) {
                return Err(CodeObjectError::Write(format!(
                    "data object `{}` is defined twice or has alignment {}",
                    d.name, d.align
                )));
            }
        }
        for r in &self.relocs {
            let k = self.kernels.iter().find(|k| k.name == r.kernel);
            let fits = k.is_some_and(|k| r.offset as usize + 4 <= k.code.len());
            if !fits || !self.data.iter().any(|d| d.name == r.data) {
                return Err(CodeObjectError::Write(format!(
                    "a reference from kernel `{}` (byte {}) to data `{}` has no target",
                    r.kernel, r.offset, r.data
                )));
            }
        }
        let processor = self.isa.name();
        let mach = processor::mach_of_name(processor)
            .ok_or_else(|| CodeObjectError::Write(format!("no EF_AMDGPU_MACH for {processor}")))?;
        Ok(Layout::new(self, mach).write())
    }
}

/// Little-endian byte buffer.
#[derive(Default)]
struct Buf(Vec<u8>);

impl Buf {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn bytes(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }
    fn align(&mut self, a: usize) {
        self.0.resize(self.0.len().next_multiple_of(a), 0);
    }
    fn len(&self) -> usize {
        self.0.len()
    }
}

/// A string table under construction.
struct StrTab(Vec<u8>);

impl StrTab {
    fn new() -> Self {
        StrTab(vec![0])
    }
    fn add(&mut self, s: &str) -> u32 {
        let at = self.0.len() as u32;
        self.0.extend_from_slice(s.as_bytes());
        self.0.push(0);
        at
    }
}

/// The System V ELF hash of a symbol name (`.hash` buckets).
fn elf_hash(name: &[u8]) -> u32 {
    let mut h: u32 = 0;
    for &c in name {
        h = (h << 4).wrapping_add(u32::from(c));
        let g = h & 0xf000_0000;
        if g != 0 {
            h ^= g >> 24;
        }
        h &= !g;
    }
    h
}

/// One symbol to emit in `.dynsym` and `.symtab`.
struct Sym {
    name: String,
    value: u64,
    size: u64,
    st_type: u8,
    shndx: u16,
}

/// Section indices, fixed by the `sections` array in `Layout::write` (index 0 is the null section).
const SEC_DYNSYM: u32 = 2;
const SEC_DYNSTR: u32 = 4;
const SEC_RODATA: u16 = 5;
const SEC_TEXT: u16 = 6;
const SEC_STRTAB: u32 = 9;
const SEC_SHSTRTAB: u32 = 10;

struct Layout<'a> {
    w: &'a CodeObjectWriter,
    mach: u32,
}

/// A section header to emit.
struct Shdr {
    name: &'static str,
    sh_type: u32,
    flags: u64,
    addr: u64,
    offset: usize,
    size: usize,
    link: u32,
    info: u32,
    align: u64,
    entsize: u64,
}

impl<'a> Layout<'a> {
    fn new(w: &'a CodeObjectWriter, mach: u32) -> Self {
        Layout { w, mach }
    }

    fn write(&self) -> Vec<u8> {
        let kernels = &self.w.kernels;
        let mut f = Buf::default();
        f.0.resize(64 + PHNUM * PHDR_SIZE, 0);

        // Read-only segment: vaddr == file offset.
        // Text layout first: every kernel's entry is 256-byte aligned.
        let mut text_offsets = Vec::with_capacity(kernels.len());
        let mut text_len = 0usize;
        for k in kernels {
            text_len = text_len.next_multiple_of(KERNEL_ALIGN);
            text_offsets.push(text_len);
            text_len += k.code.len();
        }

        // .note first: the metadata holds no addresses, so nothing about the
        // later layout is needed to write it.
        let target = format!("amdgcn-amd-amdhsa--{}", self.w.isa.name());
        let md = CodeObjectMetadata {
            version: [1, 2],
            target: Some(target),
            printf: self.w.printf.clone(),
            kernels: kernels
                .iter()
                .map(|k| KernelMetadata {
                    name: k.name.clone(),
                    symbol: format!("{}.kd", k.name),
                    ..k.metadata.clone()
                })
                .collect(),
        };
        let desc = write_msgpack(&md);
        f.align(4);
        let note_off = f.len();
        f.u32(7);
        f.u32(desc.len() as u32);
        f.u32(NT_AMDGPU_METADATA);
        f.bytes(b"AMDGPU\0");
        f.align(4);
        f.bytes(&desc);
        f.align(4);
        for (owner, n_type, desc) in &self.w.notes {
            f.u32(owner.len() as u32 + 1);
            f.u32(desc.len() as u32);
            f.u32(*n_type);
            f.bytes(owner.as_bytes());
            f.u8(0);
            f.align(4);
            f.bytes(desc);
            f.align(4);
        }
        let note_size = f.len() - note_off;

        // Symbol values need the .rodata and .text addresses, which depend on
        // the sizes of .dynsym/.hash/.dynstr — all known from the names alone.
        let nsyms = 1 + 2 * kernels.len();
        let mut dynstr = StrTab::new();
        let name_offsets: Vec<(u32, u32)> = kernels
            .iter()
            .map(|k| (dynstr.add(&k.name), dynstr.add(&format!("{}.kd", k.name))))
            .collect();
        let dynsym_off = f.len().next_multiple_of(8);
        let hash_off = (dynsym_off + nsyms * 24).next_multiple_of(4);
        let nbucket = nsyms.max(1);
        let dynstr_off = hash_off + 4 * (2 + nbucket + nsyms);
        let rodata_off = (dynstr_off + dynstr.0.len()).next_multiple_of(KERNEL_DESCRIPTOR_SIZE);
        // The data objects follow the descriptors, each at its alignment.
        // `data_at`: each object's file offset (read-only ones: also its
        // address); writable ones are placed after `.dynamic` below.
        let mut data_at = vec![0usize; self.w.data.len()];
        let mut rodata_size = kernels.len() * KERNEL_DESCRIPTOR_SIZE;
        for (d, at) in self.w.data.iter().zip(&mut data_at) {
            if !d.writable {
                rodata_size = rodata_size.next_multiple_of(d.align as usize);
                *at = rodata_off + rodata_size;
                rodata_size += d.bytes.len();
            }
        }
        let ro_end = rodata_off + rodata_size;
        let text_off = ro_end.next_multiple_of(KERNEL_ALIGN);
        // Each segment starts on a new page in memory, congruent to its file offset.
        let text_addr = text_off as u64 + PAGE;
        let dynamic_off = (text_off + text_len).next_multiple_of(8);
        let dynamic_addr = dynamic_off as u64 + 2 * PAGE;
        let dynamic_size = 6 * 16;
        // `.data` (writable objects) follows `.dynamic` in the rw segment.
        let data_off = dynamic_off + dynamic_size;
        let mut data_end = data_off;
        for (d, at) in self.w.data.iter().zip(&mut data_at) {
            if d.writable {
                data_end = data_end.next_multiple_of(d.align as usize);
                *at = data_end;
                data_end += d.bytes.len();
            }
        }
        let data_addr_of = |i: usize| -> u64 {
            if self.w.data[i].writable {
                data_at[i] as u64 + 2 * PAGE
            } else {
                data_at[i] as u64
            }
        };
        let has_data = self.w.data.iter().any(|d| d.writable);

        let mut syms = Vec::with_capacity(nsyms);
        for (i, k) in kernels.iter().enumerate() {
            syms.push(Sym {
                name: k.name.clone(),
                value: text_addr + text_offsets[i] as u64,
                size: k.code.len() as u64,
                st_type: STT_FUNC,
                shndx: SEC_TEXT,
            });
            syms.push(Sym {
                name: format!("{}.kd", k.name),
                value: (rodata_off + i * KERNEL_DESCRIPTOR_SIZE) as u64,
                size: KERNEL_DESCRIPTOR_SIZE as u64,
                st_type: STT_OBJECT,
                shndx: SEC_RODATA,
            });
        }
        let str_offsets: Vec<u32> = name_offsets.iter().flat_map(|&(a, b)| [a, b]).collect();

        // .dynsym
        f.align(8);
        debug_assert_eq!(f.len(), dynsym_off);
        write_symbols(&mut f, &syms, &str_offsets);
        // .hash
        f.align(4);
        debug_assert_eq!(f.len(), hash_off);
        f.u32(nbucket as u32);
        f.u32(nsyms as u32);
        let mut buckets = vec![0u32; nbucket];
        let mut chains = vec![0u32; nsyms];
        for (i, s) in syms.iter().enumerate() {
            let index = i + 1;
            let b = elf_hash(s.name.as_bytes()) as usize % nbucket;
            chains[index] = buckets[b];
            buckets[b] = index as u32;
        }
        buckets.iter().chain(&chains).for_each(|&v| f.u32(v));
        // .dynstr
        debug_assert_eq!(f.len(), dynstr_off);
        f.bytes(&dynstr.0);
        // .rodata: the descriptors, entry offsets relative to each descriptor.
        f.align(KERNEL_DESCRIPTOR_SIZE);
        for (i, k) in kernels.iter().enumerate() {
            let mut d = k.descriptor;
            let kd_addr = (rodata_off + i * KERNEL_DESCRIPTOR_SIZE) as i64;
            d.kernel_code_entry_byte_offset = (text_addr + text_offsets[i] as u64) as i64 - kd_addr;
            f.bytes(&d.to_bytes());
        }
        for (d, &at) in self.w.data.iter().zip(&data_at) {
            if !d.writable {
                f.0.resize(at, 0);
                f.bytes(&d.bytes);
            }
        }
        // .text
        f.align(KERNEL_ALIGN);
        for (i, k) in kernels.iter().enumerate() {
            f.0.resize(text_off + text_offsets[i], 0);
            let start = f.len();
            f.bytes(&k.code);
            let code_addr = text_addr + text_offsets[i] as u64;
            for r in self.w.relocs.iter().filter(|r| r.kernel == k.name) {
                // `write` checked that the kernel and the data exist.
                let d = self
                    .w
                    .data
                    .iter()
                    .position(|d| d.name == r.data)
                    .unwrap_or(0);
                let delta = data_addr_of(d).wrapping_sub(code_addr + u64::from(r.pc));
                let half = if r.hi {
                    (delta >> 32) as u32
                } else {
                    delta as u32
                };
                let at = start + r.offset as usize;
                f.0[at..at + 4].copy_from_slice(&half.to_le_bytes());
            }
        }
        // .dynamic
        f.align(8);
        debug_assert_eq!(f.len(), dynamic_off);
        let dynsym_size = nsyms * 24;
        for (tag, val) in [
            (6u64, dynsym_off as u64),   // DT_SYMTAB
            (11, 24),                    // DT_SYMENT
            (5, dynstr_off as u64),      // DT_STRTAB
            (10, dynstr.0.len() as u64), // DT_STRSZ
            (4, hash_off as u64),        // DT_HASH
            (0, 0),                      // DT_NULL
        ] {
            f.u64(tag);
            f.u64(val);
        }
        // .data
        for (d, &at) in self.w.data.iter().zip(&data_at) {
            if d.writable {
                f.0.resize(at, 0);
                f.bytes(&d.bytes);
            }
        }
        // Non-allocated: .symtab, .strtab, .shstrtab.
        f.align(8);
        let symtab_off = f.len();
        write_symbols(&mut f, &syms, &str_offsets);
        let strtab_off = f.len();
        f.bytes(&dynstr.0);
        let mut shstr = StrTab::new();
        let mut sections = vec![
            Shdr {
                name: ".note",
                sh_type: 7,
                flags: 2,
                addr: note_off as u64,
                offset: note_off,
                size: note_size,
                link: 0,
                info: 0,
                align: 4,
                entsize: 0,
            },
            Shdr {
                name: ".dynsym",
                sh_type: 11,
                flags: 2,
                addr: dynsym_off as u64,
                offset: dynsym_off,
                size: dynsym_size,
                link: SEC_DYNSTR,
                info: 1,
                align: 8,
                entsize: 24,
            },
            Shdr {
                name: ".hash",
                sh_type: 5,
                flags: 2,
                addr: hash_off as u64,
                offset: hash_off,
                size: dynstr_off - hash_off,
                link: SEC_DYNSYM,
                info: 0,
                align: 4,
                entsize: 4,
            },
            Shdr {
                name: ".dynstr",
                sh_type: 3,
                flags: 2,
                addr: dynstr_off as u64,
                offset: dynstr_off,
                size: dynstr.0.len(),
                link: 0,
                info: 0,
                align: 1,
                entsize: 0,
            },
            Shdr {
                name: ".rodata",
                sh_type: 1,
                flags: 2,
                addr: rodata_off as u64,
                offset: rodata_off,
                size: rodata_size,
                link: 0,
                info: 0,
                align: 64,
                entsize: 0,
            },
            Shdr {
                name: ".text",
                sh_type: 1,
                flags: 6,
                addr: text_addr,
                offset: text_off,
                size: text_len,
                link: 0,
                info: 0,
                align: 256,
                entsize: 0,
            },
            Shdr {
                name: ".dynamic",
                sh_type: 6,
                flags: 3,
                addr: dynamic_addr,
                offset: dynamic_off,
                size: dynamic_size,
                link: SEC_DYNSTR,
                info: 0,
                align: 8,
                entsize: 16,
            },
            Shdr {
                name: ".symtab",
                sh_type: 2,
                flags: 0,
                addr: 0,
                offset: symtab_off,
                size: dynsym_size,
                link: SEC_STRTAB,
                info: 1,
                align: 8,
                entsize: 24,
            },
            Shdr {
                name: ".strtab",
                sh_type: 3,
                flags: 0,
                addr: 0,
                offset: strtab_off,
                size: dynstr.0.len(),
                link: 0,
                info: 0,
                align: 1,
                entsize: 0,
            },
            Shdr {
                name: ".shstrtab",
                sh_type: 3,
                flags: 0,
                addr: 0,
                offset: 0,
                size: 0,
                link: 0,
                info: 0,
                align: 1,
                entsize: 0,
            },
        ];
        // `.data` last, so that the fixed indices above stay.
        if has_data {
            sections.push(Shdr {
                name: ".data",
                sh_type: 1,
                flags: 3,
                addr: data_off as u64 + 2 * PAGE,
                offset: data_off,
                size: data_end - data_off,
                link: 0,
                info: 0,
                align: 16,
                entsize: 0,
            });
        }
        let names: Vec<u32> = sections.iter().map(|s| shstr.add(s.name)).collect();
        let shstrtab_off = f.len();
        f.bytes(&shstr.0);
        f.align(8);
        let shoff = f.len();
        f.bytes(&[0; 64]);
        for (s, &name) in sections.iter().zip(&names) {
            let (offset, size) = if s.name == ".shstrtab" {
                (shstrtab_off, shstr.0.len())
            } else {
                (s.offset, s.size)
            };
            f.u32(name);
            f.u32(s.sh_type);
            f.u64(s.flags);
            f.u64(s.addr);
            f.u64(offset as u64);
            f.u64(size as u64);
            f.u32(s.link);
            f.u32(s.info);
            f.u64(s.align);
            f.u64(s.entsize);
        }
        debug_assert_eq!(sections.len() as u32, SEC_SHSTRTAB + u32::from(has_data));

        // ELF header.
        let mut h = Buf::default();
        h.bytes(b"\x7fELF");
        h.u8(2); // ELFCLASS64
        h.u8(1); // ELFDATA2LSB
        h.u8(1); // EV_CURRENT
        h.u8(ELFOSABI_AMDGPU_HSA);
        h.u8(ELFABIVERSION_AMDGPU_HSA_V5);
        h.bytes(&[0; 7]);
        h.u16(3); // ET_DYN
        h.u16(super::elf::EM_AMDGPU);
        h.u32(1);
        h.u64(0); // e_entry
        h.u64(64); // e_phoff
        h.u64(shoff as u64);
        // gfx803 and gfx1030 support neither XNACK nor SRAMECC: mach only.
        h.u32(self.mach);
        h.u16(64);
        h.u16(PHDR_SIZE as u16);
        h.u16(PHNUM as u16);
        h.u16(64);
        h.u16(sections.len() as u16 + 1);
        h.u16(SEC_SHSTRTAB as u16);
        // Program headers: (type, flags, offset, vaddr, size, align).
        let text_size = text_len as u64;
        let phdrs: [(u32, u32, u64, u64, u64, u64); PHNUM] = [
            (6, 4, 64, 64, (PHNUM * PHDR_SIZE) as u64, 8), // PT_PHDR
            (1, 4, 0, 0, ro_end as u64, PAGE),             // PT_LOAD r
            (1, 5, text_off as u64, text_addr, text_size, PAGE), // PT_LOAD r-x
            (
                1,
                6,
                dynamic_off as u64,
                dynamic_addr,
                (data_end - dynamic_off) as u64,
                PAGE,
            ), // PT_LOAD rw- (.dynamic, .data)
            (
                2,
                6,
                dynamic_off as u64,
                dynamic_addr,
                dynamic_size as u64,
                8,
            ), // PT_DYNAMIC
            (4, 4, note_off as u64, note_off as u64, note_size as u64, 4), // PT_NOTE
        ];
        for (p_type, p_flags, off, vaddr, size, align) in phdrs {
            h.u32(p_type);
            h.u32(p_flags);
            h.u64(off);
            h.u64(vaddr);
            h.u64(vaddr);
            h.u64(size);
            h.u64(size);
            h.u64(align);
        }
        f.0[..h.len()].copy_from_slice(&h.0);
        f.0
    }
}

/// Writes a symbol table: the null symbol, then global protected symbols.
fn write_symbols(f: &mut Buf, syms: &[Sym], names: &[u32]) {
    f.bytes(&[0; 24]);
    for (s, &name) in syms.iter().zip(names) {
        f.u32(name);
        f.u8(0x10 | s.st_type); // STB_GLOBAL
        f.u8(3); // STV_PROTECTED, as LLVM marks kernels
        f.u16(s.shndx);
        f.u64(s.value);
        f.u64(s.size);
    }
}
