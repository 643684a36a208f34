//! The gfx1030 back end, one module per pass, in the order
//! [`compile_with`] runs them (Mesa ACO's layout: one file per pass):
//!
//! | # | pass | module |
//! |---|---|---|
//! | 0 | IR clean-up, `-O` | [`crate::ir::opt`] |
//! | 1 | instruction selection: IR to machine instructions with virtual registers (SGPRs for uniform values, VGPRs for divergent ones; EXEC-masked structured control flow; seed 004's masked selects) | [`isel`] |
//! | 2 | (seed 002 only) merging side-by-side dword accesses into `dwordx2/x3/x4` | [`wide_merge`] |
//! | 3 | register allocation: linear scan with copy coalescing; spilling when VGPRs run out | [`regalloc`], [`coalesce`], [`spill`] |
//! | 4 | (seed 000, off by default) sub-vector looping of high-VGPR segments | [`subvector`] |
//! | 5 | register rewriting: physical operands, `arch::isa::Instruction` values | [`rewrite`] |
//! | 6 | `s_waitcnt`/`s_waitcnt_vscnt` insertion | [`waitcnt`] |
//! | 7 | assembly: branch relaxation (long jumps past ±32 K dwords), branch offsets and `arch`'s encoder | [`relax`], [`assemble`] |
//! | 8 | kernel descriptor, metadata note, code object v5 | [`object`] |
//!
//! Shared by the passes: [`minst`] (machine instructions), `abi` (kernel
//! argument layout, user SGPRs), [`error`].
//!
//! ```
//! use compiler::backend::{compile, CompileOptions};
//! use compiler::ir::{AddrSpace, Builder, Function, Type, WorkItemQuery};
//! let mut f = Function::new("iota");
//! f.add_param("out", Type::Ptr(AddrSpace::Global), "int*");
//! let mut b = Builder::new(&mut f);
//! let out = b.kernel_arg(0);
//! let id = b.work_item(WorkItemQuery::GlobalId, 0);
//! let two = b.iconst(Type::I32, 2);
//! let off = b.shl(id, two);
//! let p = b.ptr_add(out, off);
//! b.store(p, id);
//! b.ret();
//! let k = compile(&f, &CompileOptions::default()).unwrap();
//! assert!(k.listing().contains("global_store_dword"));
//! let elf = compiler::backend::code_object(&[k]).unwrap();
//! assert_eq!(&elf[..4], b"\x7fELF");
//! ```

// The passes, in pipeline order (each after a comment, so rustfmt keeps the order).
// 1. instruction selection
pub mod isel;
// 2. (seed 002 only) wide-access merge
pub mod wide_merge;
// 3. register allocation: loop-carried copy coalescing, linear scan, spilling
pub mod coalesce;
pub mod regalloc;
pub mod spill;
// 4. (seed 000, off by default) sub-vector looping
pub mod subvector;
// 5. register rewriting
pub mod rewrite;
// 6. s_waitcnt insertion
pub mod waitcnt;
// 7. assembly: branch relaxation, then the bytes
pub mod assemble;
pub mod relax;
// 8. descriptor, metadata, code object
pub mod object;
// What they share.
mod abi;
pub mod error;
pub mod minst;

pub use isel::masked_select;

use arch::code_object::{KernelDescriptor, KernelMetadata};
use arch::isa::{Instruction, Target};

pub use abi::KernargLayout;
pub use error::BackendError;
pub use object::code_object;

use crate::ir::{self, Function};

/// How `m ? op(a, b) : z` is compiled (seed 004).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MaskedSelect {
    /// Choose per select by the cost model ([`masked_select::prefer_masked`]).
    #[default]
    Cost,
    /// Always the masked form (the operation under EXEC = m).
    Masked,
    /// Always compute the operation in every lane and blend with `v_cndmask_b32`.
    Blend,
}

/// Back-end options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CompileOptions {
    /// Compile for 64 lanes per wave (else wave32, gfx1030's native mode).
    pub wave64: bool,
    /// Seed 004 policy.
    pub masked_select: MaskedSelect,
    /// Run the IR optimisations (`-O`) first.
    pub optimize: bool,
    /// At most this many VGPRs (more occupancy, more spilling); 0 = all 256.
    pub vgpr_limit: u16,
    /// Seed 000's sub-vector pass ([`subvector`]), off by default.
    pub subvector: subvector::SubvectorOptions,
    /// Give every kernel `hidden_global_offset_{x,y,z}` and add them in
    /// `get_global_id`, as clang's code objects do; off, only kernels that
    /// read the offset or the dimension count have them (the others keep
    /// their shorter code). The OpenCL platform builds a kernel this way
    /// when an application passes it a non-zero global work offset.
    pub global_offsets: bool,
}

impl CompileOptions {
    /// The `arch` target.
    pub fn target(&self) -> Target {
        if self.wave64 {
            Target::GFX1030_W64
        } else {
            Target::GFX1030_W32
        }
    }

    /// SGPRs in a lane mask.
    pub fn lane_mask_dwords(&self) -> u8 {
        if self.wave64 {
            2
        } else {
            1
        }
    }
}

/// A compiled kernel.
#[derive(Clone, Debug)]
pub struct CompiledKernel {
    /// The kernel's name.
    pub name: String,
    /// Target (wave size).
    pub target: Target,
    /// The instructions with their byte offsets.
    pub instructions: Vec<(u32, Instruction)>,
    /// The machine code.
    pub code: Vec<u8>,
    /// The kernel descriptor.
    pub descriptor: KernelDescriptor,
    /// The metadata-note entry.
    pub metadata: KernelMetadata,
    /// What seed 000's sub-vector pass did (its shared VGPR count goes
    /// into the code object's GPUSIM sub-vector note).
    pub subvector: subvector::Report,
    /// The kernel's `amdhsa.printf` entries ([`Function::printf`]).
    pub printf: Vec<String>,
    /// The program-scope data the kernel uses ([`Function::data`]).
    pub data: Vec<ir::DataObject>,
    /// Where its code refers to that data: the 32-bit field's byte
    /// offset, the offset the address is relative to (after `s_getpc_b64`),
    /// the index into `data`, and whether the field is the high half.
    pub data_relocs: Vec<(u32, u32, u32, bool)>,
}

impl CompiledKernel {
    /// One instruction a line, LLVM's syntax (what `gpusim disasm` and
    /// `llvm-objdump -d` print, without addresses).
    pub fn listing(&self) -> String {
        let mut s = String::new();
        for (_, i) in &self.instructions {
            s += &i.to_string();
            s.push('\n');
        }
        s
    }
}

/// Compiles one kernel.
pub fn compile(f: &Function, opts: &CompileOptions) -> Result<CompiledKernel, BackendError> {
    compile_with(f, opts, &mut |_| {})
}

/// [`compile`] with `pass` run on the machine code after instruction
/// selection, before register allocation (seed 002's wide accesses,
/// [`wide_merge`]).
pub fn compile_with(
    f: &Function,
    opts: &CompileOptions,
    pass: &mut dyn FnMut(&mut minst::MachineCode),
) -> Result<CompiledKernel, BackendError> {
    ir::verify(f)?;
    // One exit block always (early returns become branches to it); `-O` on top.
    let mut g = f.clone();
    ir::opt::unify_returns(&mut g);
    ir::opt::unify_latches(&mut g);
    // Dead code goes even at -O0: the lowering leaves some behind that the
    // back end cannot select (the 64-bit product a `mul_hi` came from).
    ir::opt::dce(&mut g);
    if opts.optimize {
        ir::opt::optimize(&mut g);
    }
    ir::verify(&g)?;
    let f = &g;
    let target = opts.target();
    let mut sel = isel::Isel::new(f, *opts, false);
    sel.run()?;
    pass(&mut sel.mc);
    let mut slots = 0;
    let vgpr_limit = if opts.vgpr_limit == 0 {
        regalloc::VGPR_LIMIT
    } else {
        opts.vgpr_limit
    };
    let mut asg = match regalloc::allocate(&sel.mc, vgpr_limit) {
        Ok(a) => a,
        Err(BackendError::OutOfRegisters { file: "VGPR", .. }) => {
            // Again with flat scratch set up, spilling VGPRs until it fits.
            sel = isel::Isel::new(f, *opts, true);
            sel.run()?;
            pass(&mut sel.mc);
            let base = sel.scratch.expect("spilling sets scratch up");
            let (a, n) =
                spill::allocate_with_spills(&mut sel.mc, base, vgpr_limit, f.private_size)?;
            slots = n;
            a
        }
        Err(e) => return Err(e),
    };
    let inputs = sel.inputs();
    let lds = sel.lds_size;
    let kernarg = sel.kernarg.clone();
    let subvector = subvector::apply(&mut sel.mc, &mut asg, &opts.subvector, opts.wave64)?;
    let items = rewrite::rewrite(&sel.mc, &asg, target)?;
    let items = waitcnt::insert(items, target)?;
    let assembled = assemble::assemble(&items)?;
    let labels = &assembled.labels;
    if let Some(p) = assembled.long_jump_pair {
        // The long jumps' SGPR pair is used by nothing else; count it.
        asg.sgprs = asg.sgprs.max(p + 2);
    }
    let mut data_relocs = Vec::new();
    for r in &sel.data_refs {
        let at = |l: u32| {
            labels.get(&l).copied().ok_or_else(|| {
                BackendError::Internal("a data reference's label was not placed".into())
            })
        };
        let pc = at(r.pc)?;
        data_relocs.push((at(r.lo_end)? - 4, pc, r.data, false));
        data_relocs.push((at(r.hi_end)? - 4, pc, r.data, true));
    }
    // A pass after selection that copied an address computation (seed
    // 000's duplication) would leave a copy the writer does not patch.
    // (Each long jump has its own `s_getpc_b64`.)
    let getpcs = assembled
        .listing
        .iter()
        .filter(|(_, i)| i.opcode == arch::isa::Opcode::S_GETPC_B64)
        .count();
    if getpcs != sel.data_refs.len() + assembled.long_jumps {
        return Err(BackendError::Unsupported(
            "program-scope variables together with the sub-vector pass".into(),
        ));
    }
    let (descriptor, metadata) = object::describe(f, opts, &inputs, &asg, lds, &kernarg, slots);
    Ok(CompiledKernel {
        name: f.name.clone(),
        target,
        instructions: assembled.listing,
        code: assembled.bytes,
        descriptor,
        metadata,
        subvector,
        printf: f.printf.clone(),
        data: f.data.clone(),
        data_relocs,
    })
}
