//! The architectural contract of gpusim: what software may rely on.
//!
//! * [`isa`] — both instruction sets (RDNA2 gfx1030 and GCN3 gfx803) as data:
//!   decode, encode, LLVM-syntax disassembly and assembly, generated from the
//!   declarative descriptions in `hw/arch/isa/`.
//! * [`code_object`] — AMDGPU ELF code objects (read v2/v4/v5, write v5).
//! * [`mmio`], [`command`], [`device`] — the hardware/software contract: MMIO
//!   register map, channel-entry and command-block formats, the `Device` trait.
//!
//! ```
//! use arch::isa::{decode, Target};
//! // s_endpgm on gfx1030
//! let inst = decode(Target::GFX1030_W32, &[0x00, 0x00, 0x81, 0xbf]).unwrap();
//! assert_eq!(inst.to_string(), "s_endpgm");
//! ```
#![deny(missing_docs)]

pub mod code_object;
pub mod command;
pub mod device;
pub mod isa;
pub mod mmio;
