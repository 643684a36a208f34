//! AMDGPU code objects (ELF64): read v2 (`amd_kernel_code_t`) and v3–v6
//! (kernel descriptors, MessagePack metadata); write v5.
//!
//! Layouts follow LLVM's AMDGPUUsage documentation. A [`CodeObject`] gives the
//! code object version, the processor, `.text`, the function and kernel
//! symbols (for disassembly labels) and the [`Kernel`]s, each with one
//! version-independent [`KernelDescriptor`] and its [`KernelMetadata`].
//!
//! ```
//! use arch::code_object::{CodeObject, CodeObjectWriter, KernelDescriptor, KernelMetadata, NewKernel};
//! use arch::isa::{Isa, Target};
//!
//! let mut w = CodeObjectWriter::new(Isa::Gfx1030);
//! let mut descriptor = KernelDescriptor::default();
//! descriptor.kernel_code_properties.enable_wavefront_size32 = true;
//! let metadata = KernelMetadata { wavefront_size: 32, ..Default::default() };
//! // s_endpgm
//! w.add_kernel(NewKernel { name: "k".into(), code: vec![0x00, 0x00, 0x81, 0xbf], descriptor, metadata });
//! let bytes = w.write().unwrap();
//! let co = CodeObject::parse(&bytes).unwrap();
//! assert_eq!(co.processor(), "gfx1030");
//! assert_eq!(co.kernels()[0].code, [0x00, 0x00, 0x81, 0xbf]);
//! assert_eq!(co.target(), Some(Target::GFX1030_W32));
//! ```

mod describe;
mod descriptor;
mod elf;
mod error;
mod metadata;
mod processor;
mod subvector;
mod writer;

use std::ops::Range;

pub use descriptor::{
    AmdKernelCode, ComputePgmRsrc1, ComputePgmRsrc2, ComputePgmRsrc3, KernargPreload,
    KernelCodeProperties, KernelDescriptor, AMD_KERNEL_CODE_SIZE, KERNEL_DESCRIPTOR_SIZE,
};
pub use error::CodeObjectError;
pub use metadata::{
    Access, AddressSpace, CodeObjectMetadata, KernelArg, KernelMetadata, ValueKind,
};
pub use subvector::{
    parse_subvector_note, write_subvector_note, GpusimNote, KernelSubvector, GPUSIM_NOTE_OWNER,
    NT_GPUSIM_PRINTF, NT_GPUSIM_SUBVECTOR, SUBVECTOR_NOTE_VERSION,
};
pub use writer::{CodeObjectWriter, DataReloc, NewData, NewKernel};

use crate::isa::{Isa, Target};
use elf::{Elf, RawSymbol};

/// `ELFOSABI_AMDGPU_HSA`.
const ELFOSABI_AMDGPU_HSA: u8 = 64;
/// `NT_AMDGPU_METADATA` (v3+, note name `AMDGPU`).
const NT_AMDGPU_METADATA: u32 = 32;
/// v2 notes (note name `AMD`).
const NT_AMD_HSA_CODE_OBJECT_VERSION: u32 = 1;
const NT_AMD_HSA_ISA_VERSION: u32 = 3;
const NT_AMD_HSA_PRODUCER: u32 = 4;
const NT_AMD_HSA_METADATA: u32 = 10;
/// ELF symbol types.
const STT_OBJECT: u8 = 1;
const STT_FUNC: u8 = 2;
/// v2 producers typed kernel symbols `STT_AMDGPU_HSA_KERNEL`.
const STT_AMDGPU_HSA_KERNEL: u8 = 10;

/// Code object version, from the ELF header's ABI version byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CodeObjectVersion {
    /// v2: `amd_kernel_code_t` before each kernel, `NT_AMD_HSA_*` notes, YAML metadata.
    V2,
    /// v3: kernel descriptors, MessagePack metadata.
    V3,
    /// v4: adds `amdhsa.target` and the XNACK/SRAMECC settings in `e_flags`.
    V4,
    /// v5: adds hidden kernel arguments (block counts, group sizes, ...).
    V5,
    /// v6: adds generic processor versions.
    V6,
}

impl CodeObjectVersion {
    /// The version number (2..=6).
    pub fn number(self) -> u32 {
        match self {
            CodeObjectVersion::V2 => 2,
            CodeObjectVersion::V3 => 3,
            CodeObjectVersion::V4 => 4,
            CodeObjectVersion::V5 => 5,
            CodeObjectVersion::V6 => 6,
        }
    }
}

/// A target feature's setting in `e_flags` (XNACK, SRAMECC).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeatureSetting {
    /// The processor does not have the feature.
    Unsupported,
    /// Code runs with the feature on or off.
    Any,
    /// Code requires the feature off.
    Off,
    /// Code requires the feature on.
    On,
}

/// What a code symbol is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// A kernel's code (v2: its `amd_kernel_code_t`, which precedes the code).
    Kernel,
    /// Any other function.
    Function,
}

/// A function or kernel symbol in `.text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// Symbol name.
    pub name: String,
    /// Virtual address.
    pub address: u64,
    /// Size in bytes (0 if unknown).
    pub size: u64,
    /// Kernel or function.
    pub kind: SymbolKind,
}

/// The `.text` section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    /// Virtual address of the first byte.
    pub address: u64,
    /// The section's bytes.
    pub bytes: Vec<u8>,
}

impl Text {
    /// The addresses the section covers.
    pub fn range(&self) -> Range<u64> {
        self.address..self.address.saturating_add(self.bytes.len() as u64)
    }
}

/// One kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// Kernel name.
    pub name: String,
    /// The symbol holding the descriptor (`NAME.kd`; v2: the kernel symbol).
    pub descriptor_symbol: String,
    /// Virtual address of the descriptor (v2: of the `amd_kernel_code_t`).
    pub descriptor_address: u64,
    /// Virtual address of the first instruction.
    pub entry: u64,
    /// The kernel's code as virtual addresses: from `entry` to the end of its
    /// function symbol (or to the next symbol, or the end of `.text`).
    pub code_range: Range<u64>,
    /// The bytes of `code_range`.
    pub code: Vec<u8>,
    /// Launch parameters, whatever the code object version.
    pub descriptor: KernelDescriptor,
    /// v2 only: the raw `amd_kernel_code_t`.
    pub amd_kernel_code: Option<AmdKernelCode>,
    /// Metadata (v2 without a metadata note: derived from `amd_kernel_code_t`).
    pub metadata: KernelMetadata,
    /// The modelled ISA of the code object's processor, if gpusim models it.
    pub isa: Option<Isa>,
}

impl Kernel {
    /// Lanes per wave, 32 or 64: the descriptor's wave32 bit on gfx10+
    /// (what the hardware obeys), else 64.
    pub fn wavefront_size(&self) -> u32 {
        if self.isa != Some(Isa::Gfx803)
            && self
                .descriptor
                .kernel_code_properties
                .enable_wavefront_size32
        {
            32
        } else {
            64
        }
    }

    /// The ISA and wave size to decode this kernel's code with.
    pub fn target(&self) -> Option<Target> {
        Some(Target {
            isa: self.isa?,
            wave64: self.wavefront_size() == 64,
        })
    }
}

/// A parsed code object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeObject {
    version: CodeObjectVersion,
    processor: String,
    e_flags: u32,
    xnack: FeatureSetting,
    sramecc: FeatureSetting,
    producer: Option<String>,
    text: Text,
    symbols: Vec<Symbol>,
    kernels: Vec<Kernel>,
    metadata: CodeObjectMetadata,
    gpusim_notes: Vec<GpusimNote>,
}

impl CodeObject {
    /// Reads a code object. Never panics: malformed input is an error naming
    /// what is wrong and, where known, the byte offset.
    pub fn parse(bytes: &[u8]) -> Result<CodeObject, CodeObjectError> {
        let elf = Elf::parse(bytes)?;
        if elf.osabi != ELFOSABI_AMDGPU_HSA {
            return Err(CodeObjectError::WrongOsAbi(elf.osabi));
        }
        let version = match elf.abi_version {
            0 => CodeObjectVersion::V2,
            1 => CodeObjectVersion::V3,
            2 => CodeObjectVersion::V4,
            3 => CodeObjectVersion::V5,
            4 => CodeObjectVersion::V6,
            v => return Err(CodeObjectError::UnsupportedAbiVersion(v)),
        };
        let text_section = elf.section(".text").ok_or(CodeObjectError::NoText)?;
        let text = Text {
            address: text_section.addr,
            bytes: elf.section_data(text_section)?.to_vec(),
        };
        let raw_symbols = elf.symbols()?;
        let (xnack, sramecc) = features(version, elf.flags);
        let mach = elf.flags & processor::MACH_MASK;
        let mach_name = processor::name_of_mach(mach).map(str::to_string);

        let mut producer = None;
        let (metadata, processor) = if version == CodeObjectVersion::V2 {
            let v2 = read_v2_notes(&elf)?;
            producer = v2.producer;
            let processor = v2
                .isa
                .or(mach_name)
                .unwrap_or_else(|| format!("unknown (mach 0x{mach:x})"));
            (v2.metadata, processor)
        } else {
            let note = elf
                .notes()?
                .into_iter()
                .find(|n| n.name == b"AMDGPU" && n.n_type == NT_AMDGPU_METADATA)
                .ok_or(CodeObjectError::NoMetadata)?;
            let md = metadata::parse_msgpack(note.desc, note.desc_offset)?;
            // The header's mach is what the loader checks; the metadata's target
            // string is only a fallback for machs this table does not know.
            let from_target = md
                .target
                .as_deref()
                .and_then(|t| t.rsplit("--").next())
                .map(|p| {
                    let end = p.find(':').unwrap_or(p.len());
                    p[..end].to_string()
                });
            let processor = mach_name
                .or(from_target)
                .unwrap_or_else(|| format!("unknown (mach 0x{mach:x})"));
            (Some(md), processor)
        };
        let isa = processor::isa_of(&processor);

        let text_symbols: Vec<&RawSymbol> = raw_symbols
            .iter()
            .filter(|s| {
                matches!(s.st_type, STT_FUNC | STT_AMDGPU_HSA_KERNEL)
                    && !s.name.is_empty()
                    && s.shndx != 0
                    && text.range().contains(&s.value)
            })
            .collect();
        let ctx = KernelCtx {
            elf: &elf,
            text: &text,
            text_symbols: &text_symbols,
            isa,
        };
        let kernels = if version == CodeObjectVersion::V2 {
            v2_kernels(&ctx, &raw_symbols, metadata.as_ref())?
        } else {
            let md = metadata
                .as_ref()
                .map(|m| m.kernels.as_slice())
                .unwrap_or_default();
            md.iter()
                .map(|k| ctx.v3_kernel(&raw_symbols, k))
                .collect::<Result<Vec<_>, _>>()?
        };

        let mut symbols: Vec<Symbol> = text_symbols
            .iter()
            .map(|s| {
                let is_kernel = kernels.iter().any(|k| {
                    (k.descriptor_address == s.value && k.descriptor_symbol == s.name)
                        || (k.entry == s.value && k.name == s.name)
                });
                Symbol {
                    name: s.name.clone(),
                    address: s.value,
                    size: s.size,
                    kind: if is_kernel {
                        SymbolKind::Kernel
                    } else {
                        SymbolKind::Function
                    },
                }
            })
            .collect();
        symbols.sort_by(|a, b| (a.address, &a.name).cmp(&(b.address, &b.name)));
        symbols.dedup_by(|a, b| a.address == b.address && a.name == b.name);

        let gpusim_notes = elf
            .notes()?
            .into_iter()
            .filter(|n| n.name == GPUSIM_NOTE_OWNER.as_bytes())
            .map(|n| GpusimNote {
                n_type: n.n_type,
                desc: n.desc.to_vec(),
                desc_offset: n.desc_offset,
            })
            .collect();
        Ok(CodeObject {
            gpusim_notes,
            version,
            processor,
            e_flags: elf.flags,
            xnack,
            sramecc,
            producer,
            text,
            symbols,
            kernels,
            metadata: metadata.unwrap_or_default(),
        })
    }

    /// Code object version.
    pub fn version(&self) -> CodeObjectVersion {
        self.version
    }

    /// Processor name, e.g. `gfx803` or `gfx1030`.
    pub fn processor(&self) -> &str {
        &self.processor
    }

    /// The raw ELF header flags.
    pub fn e_flags(&self) -> u32 {
        self.e_flags
    }

    /// XNACK setting from `e_flags`.
    pub fn xnack(&self) -> FeatureSetting {
        self.xnack
    }

    /// SRAMECC setting from `e_flags`.
    pub fn sramecc(&self) -> FeatureSetting {
        self.sramecc
    }

    /// v2: the producer named by the `NT_AMD_HSA_PRODUCER` note.
    pub fn producer(&self) -> Option<&str> {
        self.producer.as_deref()
    }

    /// The modelled ISA of the processor, if gpusim models it.
    pub fn isa(&self) -> Option<Isa> {
        processor::isa_of(&self.processor)
    }

    /// The target all kernels share: the ISA from the processor, the wave size
    /// from the kernels (wave64 on gfx803; wave32 on gfx1030 when there are no
    /// kernels). `None` if gpusim does not model the processor or the kernels
    /// mix wave sizes (then use [`Kernel::target`]).
    pub fn target(&self) -> Option<Target> {
        let isa = self.isa()?;
        let mut targets = self.kernels.iter().filter_map(Kernel::target);
        match targets.next() {
            None => Some(Target {
                isa,
                wave64: isa == Isa::Gfx803,
            }),
            Some(first) => targets.all(|t| t == first).then_some(first),
        }
    }

    /// The `.text` section.
    pub fn text(&self) -> &Text {
        &self.text
    }

    /// Function and kernel symbols in `.text`, sorted by address.
    pub fn symbols(&self) -> &[Symbol] {
        &self.symbols
    }

    /// The symbols as disassembly labels, for [`crate::isa::listing::section_listing`].
    pub fn labels(&self) -> Vec<crate::isa::listing::Label> {
        self.symbols
            .iter()
            .map(|s| crate::isa::listing::Label {
                name: s.name.clone(),
                address: s.address,
            })
            .collect()
    }

    /// The kernels, in metadata order (v2 without metadata: symbol order).
    pub fn kernels(&self) -> &[Kernel] {
        &self.kernels
    }

    /// The kernel called `name`.
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }

    /// The code object's metadata (v2 without a metadata note: empty).
    pub fn metadata(&self) -> &CodeObjectMetadata {
        &self.metadata
    }

    /// The notes of owner `GPUSIM`, undecoded.
    pub fn gpusim_notes(&self) -> &[GpusimNote] {
        &self.gpusim_notes
    }

    /// Each kernel's sub-vector settings from the `GPUSIM` sub-vector note
    /// (docs/code-objects.md): one entry per kernel of the object, in kernel
    /// order, [`KernelSubvector::default`] (with the name) for a kernel the
    /// note does not list or when there is no note. A malformed note, two
    /// sub-vector notes, or a record naming no kernel of the object is an error.
    pub fn subvector_settings(&self) -> Result<Vec<KernelSubvector>, CodeObjectError> {
        let mut notes = self
            .gpusim_notes
            .iter()
            .filter(|n| n.n_type == NT_GPUSIM_SUBVECTOR);
        let records = match (notes.next(), notes.next()) {
            (None, _) => Vec::new(),
            (Some(n), None) => parse_subvector_note(&n.desc, n.desc_offset)?,
            (Some(_), Some(second)) => {
                return Err(CodeObjectError::BadNote {
                    offset: second.desc_offset,
                    reason: "a second GPUSIM sub-vector note".into(),
                })
            }
        };
        if let Some(r) = records.iter().find(|r| self.kernel(&r.name).is_none()) {
            let offset = self.gpusim_notes[0].desc_offset;
            return Err(CodeObjectError::BadNote {
                offset,
                reason: format!(
                    "GPUSIM sub-vector note names kernel `{}`, which the code object does not have",
                    r.name
                ),
            });
        }
        Ok(self
            .kernels
            .iter()
            .map(|k| {
                records
                    .iter()
                    .find(|r| r.name == k.name)
                    .cloned()
                    .unwrap_or_else(|| KernelSubvector {
                        name: k.name.clone(),
                        ..KernelSubvector::default()
                    })
            })
            .collect())
    }
}

fn features(version: CodeObjectVersion, flags: u32) -> (FeatureSetting, FeatureSetting) {
    use FeatureSetting::*;
    let v4 = |bits: u32| match bits & 3 {
        0 => Unsupported,
        1 => Any,
        2 => Off,
        _ => On,
    };
    match version {
        // v2/v3: one bit each, set = on, clear = any/off (the producer does not say).
        CodeObjectVersion::V2 => (if flags & 1 != 0 { On } else { Any }, Any),
        CodeObjectVersion::V3 => (
            if flags & 0x100 != 0 { On } else { Any },
            if flags & 0x200 != 0 { On } else { Any },
        ),
        _ => (v4(flags >> 8), v4(flags >> 10)),
    }
}

/// What the v2 notes say.
struct V2Notes {
    isa: Option<String>,
    producer: Option<String>,
    metadata: Option<CodeObjectMetadata>,
}

fn read_v2_notes(elf: &Elf) -> Result<V2Notes, CodeObjectError> {
    let mut out = V2Notes {
        isa: None,
        producer: None,
        metadata: None,
    };
    for n in elf.notes()?.into_iter().filter(|n| n.name == b"AMD") {
        let short = |need: usize| CodeObjectError::BadNote {
            offset: n.offset,
            reason: format!(
                "note type {} has {} descriptor bytes, needs at least {need}",
                n.n_type,
                n.desc.len()
            ),
        };
        let str_at = |start: usize, len: usize| {
            let s = n
                .desc
                .get(start..start.saturating_add(len))
                .ok_or_else(|| short(start.saturating_add(len)))?;
            Ok::<_, CodeObjectError>(
                String::from_utf8_lossy(s.strip_suffix(&[0]).unwrap_or(s)).into_owned(),
            )
        };
        match n.n_type {
            NT_AMD_HSA_CODE_OBJECT_VERSION if n.desc.len() < 8 => return Err(short(8)),
            NT_AMD_HSA_ISA_VERSION => {
                if n.desc.len() < 16 {
                    return Err(short(16));
                }
                let vendor_len = usize::from(elf::le_u16(n.desc, 0));
                let arch_len = usize::from(elf::le_u16(n.desc, 2));
                str_at(16, vendor_len)?;
                str_at(16 + vendor_len, arch_len)?;
                let (major, minor, stepping) = (
                    elf::le_u32(n.desc, 4),
                    elf::le_u32(n.desc, 8),
                    elf::le_u32(n.desc, 12),
                );
                out.isa = Some(processor::name_of_version(major, minor, stepping));
            }
            NT_AMD_HSA_PRODUCER => {
                if n.desc.len() < 12 {
                    return Err(short(12));
                }
                let name_len = elf::le_u32(n.desc, 0) as usize;
                out.producer = Some(str_at(12, name_len)?);
            }
            NT_AMD_HSA_METADATA => {
                out.metadata = Some(metadata::parse_yaml(n.desc, n.desc_offset)?)
            }
            _ => {}
        }
    }
    Ok(out)
}

/// What kernel construction needs from the file.
struct KernelCtx<'a, 'e> {
    elf: &'a Elf<'e>,
    text: &'a Text,
    text_symbols: &'a [&'a RawSymbol],
    isa: Option<Isa>,
}

impl KernelCtx<'_, '_> {
    /// The code from `entry` to the end of the function symbol starting there,
    /// or to the next symbol, or to the end of `.text`.
    fn code(
        &self,
        kernel: &str,
        entry: u64,
        limit: Option<u64>,
    ) -> Result<(Range<u64>, Vec<u8>), CodeObjectError> {
        let text_range = self.text.range();
        if !text_range.contains(&entry) {
            return Err(CodeObjectError::BadAddress {
                kernel: kernel.into(),
                what: "code entry",
                address: entry,
            });
        }
        let next = self
            .text_symbols
            .iter()
            .map(|s| s.value)
            .filter(|&a| a > entry)
            .min();
        let sized = self
            .text_symbols
            .iter()
            .find(|s| s.value == entry && s.size > 0)
            .map(|s| s.value.saturating_add(s.size));
        let end = limit
            .or(sized)
            .or(next)
            .unwrap_or(text_range.end)
            .clamp(entry, text_range.end);
        let start = (entry - self.text.address) as usize;
        let stop = (end - self.text.address) as usize;
        Ok((entry..end, self.text.bytes[start..stop].to_vec()))
    }

    fn v3_kernel(&self, raw: &[RawSymbol], md: &KernelMetadata) -> Result<Kernel, CodeObjectError> {
        let kd = raw
            .iter()
            .find(|s| s.name == md.symbol && s.shndx != 0 && matches!(s.st_type, STT_OBJECT | 0))
            .or_else(|| raw.iter().find(|s| s.name == md.symbol && s.shndx != 0))
            .ok_or_else(|| CodeObjectError::MissingDescriptor {
                kernel: md.name.clone(),
                symbol: md.symbol.clone(),
            })?;
        let bytes = self
            .elf
            .bytes_at(kd.value, KERNEL_DESCRIPTOR_SIZE as u64)
            .and_then(|b| <&[u8; KERNEL_DESCRIPTOR_SIZE]>::try_from(b).ok())
            .ok_or_else(|| CodeObjectError::BadAddress {
                kernel: md.name.clone(),
                what: "kernel descriptor",
                address: kd.value,
            })?;
        let descriptor = KernelDescriptor::from_bytes(bytes);
        let entry = kd
            .value
            .checked_add_signed(descriptor.kernel_code_entry_byte_offset)
            .ok_or_else(|| CodeObjectError::BadAddress {
                kernel: md.name.clone(),
                what: "code entry (overflows)",
                address: kd.value,
            })?;
        let (code_range, code) = self.code(&md.name, entry, None)?;
        Ok(Kernel {
            name: md.name.clone(),
            descriptor_symbol: kd.name.clone(),
            descriptor_address: kd.value,
            entry,
            code_range,
            code,
            descriptor,
            amd_kernel_code: None,
            metadata: md.clone(),
            isa: self.isa,
        })
    }

    fn v2_kernel(
        &self,
        sym: &RawSymbol,
        md: Option<&KernelMetadata>,
    ) -> Result<Kernel, CodeObjectError> {
        let name = md.map_or(sym.name.as_str(), |m| m.name.as_str());
        let bytes = self
            .elf
            .bytes_at(sym.value, AMD_KERNEL_CODE_SIZE as u64)
            .and_then(|b| <&[u8; AMD_KERNEL_CODE_SIZE]>::try_from(b).ok())
            .ok_or_else(|| CodeObjectError::BadAddress {
                kernel: name.into(),
                what: "amd_kernel_code_t",
                address: sym.value,
            })?;
        let akc = AmdKernelCode::from_bytes(bytes);
        let descriptor = akc.to_descriptor();
        let entry = sym
            .value
            .checked_add_signed(akc.kernel_code_entry_byte_offset)
            .ok_or_else(|| CodeObjectError::BadAddress {
                kernel: name.into(),
                what: "code entry (overflows)",
                address: sym.value,
            })?;
        // The kernel symbol's size covers the header and the code.
        let limit = (sym.size > 0)
            .then(|| sym.value.saturating_add(sym.size))
            .filter(|&e| e > entry);
        let (code_range, code) = self.code(name, entry, limit)?;
        let metadata = match md {
            Some(m) => m.clone(),
            None => KernelMetadata {
                name: sym.name.clone(),
                symbol: sym.name.clone(),
                group_segment_fixed_size: akc.workgroup_group_segment_byte_size,
                private_segment_fixed_size: akc.workitem_private_segment_byte_size,
                kernarg_segment_size: descriptor.kernarg_size,
                kernarg_segment_align: 1u32
                    .checked_shl(u32::from(akc.kernarg_segment_alignment))
                    .unwrap_or(0),
                wavefront_size: 1u32.checked_shl(u32::from(akc.wavefront_size)).unwrap_or(0),
                sgpr_count: u32::from(akc.wavefront_sgpr_count),
                vgpr_count: u32::from(akc.workitem_vgpr_count),
                ..KernelMetadata::default()
            },
        };
        Ok(Kernel {
            name: name.to_string(),
            descriptor_symbol: sym.name.clone(),
            descriptor_address: sym.value,
            entry,
            code_range,
            code,
            descriptor,
            amd_kernel_code: Some(akc),
            metadata,
            isa: self.isa,
        })
    }
}

/// v2 kernels: the metadata's kernels (matched to symbols by `SymbolName`,
/// written `NAME@kd`, or by name), then any `STT_AMDGPU_HSA_KERNEL` symbol
/// the metadata does not list.
fn v2_kernels(
    ctx: &KernelCtx,
    raw: &[RawSymbol],
    md: Option<&CodeObjectMetadata>,
) -> Result<Vec<Kernel>, CodeObjectError> {
    let mut kernels = Vec::new();
    let listed = md.map(|m| m.kernels.as_slice()).unwrap_or_default();
    for k in listed {
        let bare = k.symbol.strip_suffix("@kd").unwrap_or(&k.symbol);
        let sym = raw
            .iter()
            .find(|s| {
                s.shndx != 0 && (s.name == k.symbol || s.name == bare) && s.st_type != STT_OBJECT
            })
            .or_else(|| raw.iter().find(|s| s.shndx != 0 && s.name == k.name))
            .ok_or_else(|| CodeObjectError::MissingDescriptor {
                kernel: k.name.clone(),
                symbol: bare.to_string(),
            })?;
        kernels.push(ctx.v2_kernel(sym, Some(k))?);
    }
    for s in raw
        .iter()
        .filter(|s| s.st_type == STT_AMDGPU_HSA_KERNEL && s.shndx != 0)
    {
        if !kernels.iter().any(|k| k.descriptor_address == s.value) {
            kernels.push(ctx.v2_kernel(s, None)?);
        }
    }
    Ok(kernels)
}
