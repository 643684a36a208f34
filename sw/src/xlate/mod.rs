//! The run-time cross-compiler (seed 003): gfx803 (GCN3) kernels on the
//! gfx1030 (RDNA2) GPU by binary translation at dispatch time.
//!
//! The pipeline, per kernel ([`translate`]):
//!
//! 1. [`preprocess`] decodes the legacy code and removes what translates to
//!    nothing on gfx1030 (hazard `s_nop`s, the `m0 = -1` LDS set-up, unreachable
//!    padding, branches to the next instruction); branch targets become indices
//!    into the kept instructions.
//! 2. [`summary`] makes ONE linear pass over the kept instructions: register
//!    usage and free registers, memory operations by kind, block leaders, and
//!    for every `s_waitcnt` the loads and stores its legacy `vmcnt` covers.
//! 3. [`expand`] turns each legacy instruction, in static program order, into a
//!    fixed sequence of 0..N gfx1030 instructions (typed `arch` values, encoded
//!    with `arch::isa::encode`), then patches branch offsets.
//! 4. [`abi`] builds the gfx1030 wave64 kernel descriptor from the legacy one
//!    and the entry sequence that puts every register where the legacy code
//!    expects it.
//!
//! [`cache`] keeps translations keyed by program bytes and binding;
//! [`object`] translates a whole code object ahead of time. Nothing is
//! ever partially translated: an instruction the translator cannot handle is an
//! [`XlateError`] naming it and its byte offset. See `docs/translation.md`.
//!
//! ```
//! use arch::isa::{assemble, Target};
//! use sw::xlate::{translate_code, Binding};
//! let legacy = assemble(Target::GFX803, "v_add_u32_e32 v0, vcc, s8, v0\ns_endpgm").unwrap();
//! let out = translate_code(&legacy, &Binding::default()).unwrap();
//! // The gfx8 VOP2 add with an implicit carry-out becomes gfx10's VOP3 v_add_co_u32.
//! assert_eq!(out.body_listing()[0], "v_add_co_u32 v0, vcc, s8, v0");
//! ```

pub mod abi;
pub mod cache;
pub mod expand;
pub mod forms;
pub mod object;
pub mod preprocess;
pub mod summary;
pub mod tables;

use std::time::Instant;

use arch::code_object::{Kernel, KernelDescriptor};
use arch::isa::{Isa, Target};
use thiserror::Error;

pub use abi::Binding;
pub use cache::{Cache, CacheKey, Stats};
pub use object::{translate_object, ObjectError};

/// The target translated code runs as: gfx1030 in wave64, since every gfx803
/// program is written for 64 lanes.
pub const OUTPUT: Target = Target::GFX1030_W64;

/// Why a program could not be translated. Never a partial program.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum XlateError {
    /// The kernel is not gfx803 code.
    #[error("kernel `{kernel}` is not gfx803 code ({isa})")]
    NotLegacy {
        /// Kernel name.
        kernel: String,
        /// Its ISA, as the code object names it.
        isa: String,
    },
    /// The legacy bytes do not decode.
    #[error("byte offset {offset:#x}: cannot decode gfx803 instruction: {reason}")]
    Decode {
        /// Byte offset in the kernel's code.
        offset: usize,
        /// The decoder's message.
        reason: String,
    },
    /// A legacy instruction the translator does not handle.
    #[error("byte offset {offset:#x}: `{text}` cannot be translated to gfx1030: {reason}")]
    Unsupported {
        /// Byte offset in the kernel's code.
        offset: usize,
        /// The instruction as LLVM prints it.
        text: String,
        /// Why.
        reason: String,
    },
    /// A branch whose target lies outside the kernel's code.
    #[error("byte offset {offset:#x}: branch target {target:#x} is outside the kernel's code")]
    BadBranch {
        /// Byte offset of the branch.
        offset: usize,
        /// Its target (byte offset, may be negative or past the end).
        target: i64,
    },
    /// A translated branch cannot reach its target with a 16-bit offset.
    #[error(
        "byte offset {offset:#x}: translated branch spans {dwords} dwords, beyond the 16-bit range"
    )]
    BranchRange {
        /// Byte offset of the legacy branch.
        offset: usize,
        /// The dword distance required.
        dwords: i64,
    },
    /// The translated program needs more registers than gfx1030 wave64 has.
    #[error("out of registers: {0}")]
    Registers(String),
    /// `arch` refused to encode an instruction the translator built (a translator bug).
    #[error("byte offset {offset:#x}: encoding `{text}` for gfx1030 failed: {reason}")]
    Encode {
        /// Byte offset of the legacy instruction being translated.
        offset: usize,
        /// The instruction that failed.
        text: String,
        /// The encoder's message.
        reason: String,
    },
}

/// One translated kernel: the gfx1030 wave64 code (entry sequence then body)
/// and the descriptor to dispatch it with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Translated {
    /// Entry sequence followed by the translated body (gfx1030 machine code).
    pub code: Vec<u8>,
    /// Bytes of `code` that are the entry sequence.
    pub prologue_bytes: usize,
    /// The gfx1030 descriptor; `kernel_code_entry_byte_offset` is 0 until the
    /// code is placed (see [`Translated::descriptor_at`]).
    pub descriptor: KernelDescriptor,
    /// For each legacy instruction kept by preprocessing: (legacy byte offset,
    /// byte offset of its expansion in `code`).
    pub offset_map: Vec<(u32, u32)>,
    /// Counters of this translation.
    pub counts: Counts,
}

/// What one translation did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Legacy instructions decoded.
    pub instructions_in: u64,
    /// Instructions preprocessing removed.
    pub removed: u64,
    /// gfx1030 instructions emitted (entry sequence included).
    pub instructions_out: u64,
    /// Instructions of the entry sequence.
    pub prologue_instructions: u64,
    /// Bytes of translated code.
    pub bytes_out: u64,
    /// Vector memory loads (incl. returning atomics) in the program.
    pub vector_loads: u64,
    /// Vector memory stores (incl. non-returning atomics).
    pub vector_stores: u64,
    /// Scalar memory loads.
    pub scalar_loads: u64,
    /// LDS operations.
    pub lds_ops: u64,
    /// Resources the translated kernel consumes (seed 003 §5.13): VGPRs per
    /// wave (legacy count plus temporaries).
    pub vgprs: u16,
    /// Bytes of LDS per workgroup (static).
    pub lds_bytes: u32,
    /// Bytes of private memory per work-item.
    pub private_bytes_per_item: u32,
    /// Translation time in nanoseconds.
    pub nanos: u64,
}

impl Translated {
    /// The descriptor for code placed at `code_address` with the descriptor
    /// itself at `descriptor_address`.
    pub fn descriptor_at(&self, descriptor_address: u64, code_address: u64) -> KernelDescriptor {
        let mut d = self.descriptor;
        d.kernel_code_entry_byte_offset = code_address.wrapping_sub(descriptor_address) as i64;
        d
    }

    /// The body (after the entry sequence) as LLVM prints it, one line per
    /// instruction (for tests and `gpusim translate`).
    pub fn body_listing(&self) -> Vec<String> {
        listing(&self.code[self.prologue_bytes..])
    }

    /// The whole code as LLVM prints it.
    pub fn listing(&self) -> Vec<String> {
        listing(&self.code)
    }
}

fn listing(code: &[u8]) -> Vec<String> {
    match arch::isa::decode_all(OUTPUT, code) {
        Ok(v) => v.into_iter().map(|(_, i)| i.to_string()).collect(),
        Err(e) => vec![format!("<undecodable: {e}>")],
    }
}

/// Translates one gfx803 kernel of a code object for `binding`.
pub fn translate(kernel: &Kernel, binding: &Binding) -> Result<Translated, XlateError> {
    if kernel.isa != Some(Isa::Gfx803) {
        return Err(XlateError::NotLegacy {
            kernel: kernel.name.clone(),
            isa: kernel
                .isa
                .map_or_else(|| "unknown".to_string(), |i| i.to_string()),
        });
    }
    translate_code(&kernel.code, binding)
}

/// Buffers a translation hands to the next one on the same thread (see
/// [`preprocess::preprocess_into`]).
#[derive(Default)]
struct Scratch {
    insts: Vec<preprocess::LegacyInst>,
    preprocess: preprocess::Scratch,
}

thread_local! {
    static SCRATCH: std::cell::Cell<Scratch> = std::cell::Cell::new(Scratch::default());
}

/// Translates legacy machine code (one kernel, entry at byte 0) for `binding`.
pub fn translate_code(code: &[u8], binding: &Binding) -> Result<Translated, XlateError> {
    let start = Instant::now();
    let mut scratch = SCRATCH.take();
    let program = preprocess::preprocess_into(code, scratch.insts, &mut scratch.preprocess)?;
    let summary = summary::summarize(&program);
    let layout = abi::plan(binding, &summary)?;
    let mut out = expand::Emitter::with_capacity(code.len() + code.len() / 2 + 256);
    abi::prologue(&layout, &mut out).map_err(|e| e.at(0))?;
    let prologue_bytes = out.bytes().len();
    let prologue_instructions = out.count();
    let offset_map = expand::expand_program(&program, &summary, &layout, &mut out)?;
    let descriptor = abi::descriptor(binding, &layout);
    let instructions_out = out.count();
    let code = out.finish();
    let counts = Counts {
        instructions_in: program.decoded as u64,
        removed: (program.decoded - program.insts.len()) as u64,
        instructions_out,
        prologue_instructions,
        bytes_out: code.len() as u64,
        vector_loads: summary.vector_loads,
        vector_stores: summary.vector_stores,
        scalar_loads: summary.scalar_loads,
        lds_ops: summary.lds_ops,
        vgprs: layout.vgprs,
        lds_bytes: descriptor.group_segment_fixed_size,
        private_bytes_per_item: binding.private_bytes_per_item,
        nanos: start.elapsed().as_nanos() as u64,
    };
    scratch.insts = program.insts;
    SCRATCH.set(scratch);
    Ok(Translated {
        code,
        prologue_bytes,
        descriptor,
        offset_map,
        counts,
    })
}
