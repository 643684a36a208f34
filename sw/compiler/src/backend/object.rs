//! The kernel descriptor, the metadata note and the code object v5 (written
//! by `arch`'s [`CodeObjectWriter`], the same writer the translator uses).

use arch::code_object::{
    write_subvector_note, KernelSubvector, GPUSIM_NOTE_OWNER, NT_GPUSIM_PRINTF, NT_GPUSIM_SUBVECTOR,
};
use arch::code_object::{
    CodeObjectWriter, ComputePgmRsrc1, ComputePgmRsrc2, DataReloc, KernelCodeProperties,
    KernelDescriptor, KernelMetadata, NewData, NewKernel,
};
use arch::command::SubvectorHint;
use arch::isa::Isa;

use super::abi::{KernargLayout, USER_SGPRS};
use super::isel::Inputs;
use super::regalloc::Assignment;
use super::{BackendError, CompileOptions, CompiledKernel};
use crate::ir::Function;

/// `COMPUTE_PGM_RSRC1` float-mode bits LLVM sets for OpenCL on gfx10:
/// denormals flushed neither way, f32 (FLOAT_DENORM_MODE_32 = 3, clang's
/// `.amdhsa_float_denorm_mode_32 3`: the `sqrt` and division expansions
/// rely on denormal inputs being seen) and f16/f64
/// (FLOAT_DENORM_MODE_16_64 = 3), DX10_CLAMP, IEEE_MODE, MEM_ORDERED.
const RSRC1_MODES: u32 = 3 << 16 | 3 << 18 | 1 << 21 | 1 << 23 | 1 << 30;

/// The descriptor and metadata of a compiled kernel.
pub fn describe(
    f: &Function,
    opts: &CompileOptions,
    inputs: &Inputs,
    asg: &Assignment,
    lds: u32,
    kernarg: &KernargLayout,
    spill_slots: u32,
) -> (KernelDescriptor, KernelMetadata) {
    // Private variables first, the spill slots after them.
    let private = f.private_size.next_multiple_of(4) + 4 * spill_slots;
    let user_sgprs = USER_SGPRS + if inputs.scratch { 2 } else { 0 };
    let vgprs = u32::from(asg.vgprs.max(1));
    // gfx10 allocates VGPRs in granules of 8 (wave32) or 4 (wave64).
    let granule = if opts.wave64 { 4 } else { 8 };
    let vgpr_granules = vgprs.div_ceil(granule) - 1;
    let rsrc1 = ComputePgmRsrc1::from_bits(vgpr_granules | RSRC1_MODES);
    let mut rsrc2_bits = u32::from(user_sgprs) << 1
        | u32::from(inputs.max_local_dim) << 11
        | u32::from(inputs.scratch);
    for (d, &on) in inputs.group_id.iter().enumerate() {
        rsrc2_bits |= u32::from(on) << (7 + d);
    }
    let rsrc2 = ComputePgmRsrc2::from_bits(rsrc2_bits);
    // Kernarg segment pointer (bit 3); wave32 (bit 10).
    // Flat scratch init (bit 5) when spilling.
    let props = KernelCodeProperties::from_bits(
        1 << 3 | u16::from(inputs.scratch) << 5 | u16::from(!opts.wave64) << 10,
    );
    let descriptor = KernelDescriptor {
        group_segment_fixed_size: lds,
        private_segment_fixed_size: private,
        kernarg_size: kernarg.size,
        compute_pgm_rsrc1: rsrc1,
        compute_pgm_rsrc2: rsrc2,
        kernel_code_properties: props,
        ..Default::default()
    };
    // The system SGPRs (workgroup ids) count as used even when unread.
    let system = inputs.group_id.iter().filter(|&&g| g).count() as u32 + u32::from(inputs.scratch);
    let metadata = KernelMetadata {
        name: f.name.clone(),
        symbol: format!("{}.kd", f.name),
        language: Some("OpenCL C".into()),
        language_version: Some([2, 0]),
        args: kernarg.metadata_args(f),
        group_segment_fixed_size: lds,
        private_segment_fixed_size: private,
        kernarg_segment_size: kernarg.size,
        kernarg_segment_align: kernarg.align,
        wavefront_size: if opts.wave64 { 64 } else { 32 },
        sgpr_count: u32::from(asg.sgprs).max(u32::from(user_sgprs) + system),
        vgpr_count: vgprs,
        sgpr_spill_count: Some(0),
        vgpr_spill_count: Some(spill_slots),
        max_flat_workgroup_size: f.reqd_workgroup_size.map_or(1024, |r| r.iter().product()),
        reqd_workgroup_size: f.reqd_workgroup_size,
        workgroup_size_hint: f.workgroup_size_hint,
        vec_type_hint: f.vec_type_hint.clone(),
        ..Default::default()
    };
    (descriptor, metadata)
}

/// A code object v5 holding `kernels`.
pub fn code_object(kernels: &[CompiledKernel]) -> Result<Vec<u8>, BackendError> {
    let mut w = CodeObjectWriter::new(Isa::Gfx1030);
    for k in kernels {
        w.add_kernel(NewKernel {
            name: k.name.clone(),
            code: k.code.clone(),
            descriptor: k.descriptor,
            metadata: k.metadata.clone(),
        });
    }
    // Program-scope data: one copy per name, shared by every kernel that
    // uses it (clang's layout: `.rodata` after the descriptors; writable
    // `__global` variables in `.data`).
    let mut data: Vec<&crate::ir::DataObject> = Vec::new();
    for k in kernels {
        for d in &k.data {
            match data.iter().find(|o| o.name == d.name) {
                Some(o) if o.bytes != d.bytes || o.writable != d.writable => {
                    return Err(BackendError::Internal(format!(
                        "two kernels disagree on the bytes of `{}`",
                        d.name
                    )))
                }
                Some(_) => {}
                None => data.push(d),
            }
        }
        for &(offset, pc, index, hi) in &k.data_relocs {
            w.add_reloc(DataReloc {
                kernel: k.name.clone(),
                offset,
                pc,
                data: k.data[index as usize].name.clone(),
                hi,
            });
        }
    }
    for d in data {
        w.add_data(NewData {
            name: d.name.clone(),
            bytes: d.bytes.clone(),
            align: d.align,
            writable: d.writable,
        });
    }
    // Seed 000: kernels with a shared VGPR region need forced sub-vector
    // order (only such waves share) — the note says both.
    let shared: Vec<KernelSubvector> = kernels
        .iter()
        .filter(|k| k.subvector.shared_vgprs > 0)
        .map(|k| KernelSubvector {
            name: k.name.clone(),
            mode: SubvectorHint::Subvector,
            shared_vgprs: k.subvector.shared_vgprs.min(255) as u8,
        })
        .collect();
    if !shared.is_empty() {
        let desc = write_subvector_note(&shared)
            .map_err(|e| BackendError::Internal(format!("the sub-vector note: {e}")))?;
        w.add_note(GPUSIM_NOTE_OWNER, NT_GPUSIM_SUBVECTOR, desc);
    }
    // printf (docs/driver.md): the formats of every kernel, each ID once, and
    // the note saying the records end with gpusim's work-item tag.
    let mut printf: Vec<String> = Vec::new();
    for e in kernels.iter().flat_map(|k| &k.printf) {
        if !printf.contains(e) {
            printf.push(e.clone());
        }
    }
    if !printf.is_empty() {
        w.set_printf(printf);
        w.add_note(
            GPUSIM_NOTE_OWNER,
            NT_GPUSIM_PRINTF,
            1u32.to_le_bytes().to_vec(),
        );
    }
    w.write()
        .map_err(|e| BackendError::Internal(format!("writing the code object: {e}")))
}
