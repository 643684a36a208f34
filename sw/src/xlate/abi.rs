//! ABI emulation (seed 003 Fig. 5): the gfx1030 dispatch state is converted
//! into the gfx803 one at entry, so the legacy code finds every register
//! where it expects it. See `docs/translation.md`, "ABI mapping".
//!
//! Both targets use the same 64-byte descriptor and the same AMDGPUUsage
//! order of user SGPRs, system SGPRs and work-item VGPRs
//! (`docs/architecture.md`, "The dispatcher: initial wave state"), so the
//! descriptor keeps every enable bit and the registers land in the same
//! places. What differs:
//!
//! * **Wave size and granularity**: the translated kernel is wave64
//!   (`enable_wavefront_size32` clear); VGPR blocks are 4 registers for both,
//!   and the count grows by the translator's temporaries. gfx1030 ignores the
//!   SGPR block count (it always allocates 106 SGPRs), which makes `s102..s105`
//!   — names gfx803 code cannot use — free translator temporaries.
//! * **Flat scratch**: gfx803 is "offset flat scratch": the init pair is
//!   {scratch base − hidden private base, bytes per work-item} and the legacy
//!   prologue writes `FLAT_SCRATCH_HI = (init_lo + wave offset) >> 8`,
//!   `FLAT_SCRATCH_LO = bytes per work-item`. gfx1030 is "absolute flat
//!   scratch": the init pair is the 64-bit base and `FLAT_SCR_LO/HI` (set with
//!   `s_setreg`) hold the wave's absolute scratch address. The hidden private
//!   base is the base rounded down to 4 GiB, so the legacy low word equals the
//!   gfx1030 low word; the entry sequence copies the pair into `FLAT_SCR` and
//!   replaces the high word by the bytes per work-item; the expansion of a
//!   write to `flat_scratch_hi` deposits `value << 8` into `FLAT_SCR_LO[31:8]`.

use arch::code_object::{
    ComputePgmRsrc1, ComputePgmRsrc3, Kernel, KernelCodeProperties, KernelDescriptor,
};
use arch::isa::{Family, Opcode, Operand, OperandType};

use super::expand::emit::{inst, mov_imm, EmitError, Emitter};
use super::summary::Summary;
use super::XlateError;

/// What a translation depends on besides the program bytes: the legacy
/// descriptor (register enables, float modes, sizes) and the dispatch ABI
/// values the entry sequence bakes in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Binding {
    /// The legacy kernel's descriptor (v2 `amd_kernel_code_t` already
    /// converted to the v3+ layout by `arch`).
    pub descriptor: KernelDescriptor,
    /// Bytes of private memory per work-item the dispatch provides (the
    /// descriptor's fixed size plus any dynamic part, rounded up to 4): what
    /// gfx803's flat-scratch-init high word holds.
    pub private_bytes_per_item: u32,
    /// Device address of the legacy code's first byte, when the legacy image
    /// is in device memory (0: unknown). `s_getpc_b64` needs it: legacy code
    /// finds its read-only data PC-relatively, and the translated code does
    /// not live where the legacy code does.
    pub legacy_entry: u64,
}

impl Binding {
    /// The binding of `kernel` dispatched with `dynamic_private` extra bytes
    /// of private memory per work-item.
    pub fn of(kernel: &Kernel, dynamic_private: u32) -> Binding {
        let fixed = kernel
            .descriptor
            .private_segment_fixed_size
            .max(kernel.metadata.private_segment_fixed_size);
        Binding {
            descriptor: kernel.descriptor,
            private_bytes_per_item: fixed.saturating_add(dynamic_private).next_multiple_of(4),
            legacy_entry: 0,
        }
    }

    /// The binding with the legacy code's device address.
    pub fn at(self, legacy_entry: u64) -> Binding {
        Binding {
            legacy_entry,
            ..self
        }
    }
}

/// Register and mode decisions shared by the entry sequence, the expansion
/// and the descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// First VGPR the translator may use as a temporary.
    pub temp_vgpr: u16,
    /// VGPRs the translated kernel allocates.
    pub vgprs: u16,
    /// SGPR holding gfx803's flat-scratch-init pair, when enabled.
    pub flat_scratch_init: Option<u16>,
    /// See [`Binding::private_bytes_per_item`].
    pub private_bytes_per_item: u32,
    /// The descriptor's f32 denormal mode (`MODE[5:4]`).
    pub denorm_f32: u8,
    /// The descriptor's f64/f16 denormal mode (`MODE[7:6]`).
    pub denorm_f16_f64: u8,
    /// The program changes MODE itself.
    pub writes_mode: bool,
    /// See [`Binding::legacy_entry`].
    pub legacy_entry: u64,
}

/// A free SGPR on gfx1030 that gfx803 code cannot name.
pub const TEMP_SGPR: u16 = 102;

/// `s_setreg` hardware register ids (gfx1030).
const HW_REG_FLAT_SCR_LO: u16 = 20;
const HW_REG_FLAT_SCR_HI: u16 = 21;

/// `hwreg(id, offset, size)` as `s_setreg`'s simm16.
pub fn hwreg(id: u16, offset: u16, size: u16) -> u16 {
    ((size - 1) << 11) | (offset << 6) | id
}

/// `hwreg(HW_REG_FLAT_SCR_LO, 8, 24)`: bits 31:8 of the wave's flat scratch
/// address, where a gfx803 `flat_scratch_hi` value lands.
pub fn flat_scr_lo_high24() -> u16 {
    hwreg(HW_REG_FLAT_SCR_LO, 8, 24)
}

/// Plans registers for a translation.
pub fn plan(binding: &Binding, summary: &Summary) -> Result<Layout, XlateError> {
    let d = &binding.descriptor;
    let legacy_vgprs =
        (u16::from(d.compute_pgm_rsrc1.granulated_workitem_vgpr_count.value()) + 1) * 4;
    let temp_vgpr = summary.first_free_vgpr();
    let vgprs = legacy_vgprs.max(temp_vgpr + summary.temp_vgprs);
    if vgprs > 256 {
        return Err(XlateError::Registers(format!(
            "the program uses {} VGPRs and its emulation sequences need {} more; gfx1030 wave64 has 256",
            temp_vgpr, summary.temp_vgprs
        )));
    }
    Ok(Layout {
        temp_vgpr,
        vgprs,
        flat_scratch_init: flat_scratch_init_sgpr(&d.kernel_code_properties),
        private_bytes_per_item: binding.private_bytes_per_item,
        denorm_f32: d.compute_pgm_rsrc1.float_denorm_mode_32.value(),
        denorm_f16_f64: d.compute_pgm_rsrc1.float_denorm_mode_16_64.value(),
        writes_mode: summary.writes_mode,
        legacy_entry: binding.legacy_entry,
    })
}

/// Where the flat-scratch-init pair lands in the user SGPRs (AMDGPUUsage order).
fn flat_scratch_init_sgpr(p: &KernelCodeProperties) -> Option<u16> {
    if !p.enable_sgpr_flat_scratch_init {
        return None;
    }
    let n = |on: bool, k: u16| if on { k } else { 0 };
    Some(
        n(p.enable_sgpr_private_segment_buffer, 4)
            + n(p.enable_sgpr_dispatch_ptr, 2)
            + n(p.enable_sgpr_queue_ptr, 2)
            + n(p.enable_sgpr_kernarg_segment_ptr, 2)
            + n(p.enable_sgpr_dispatch_id, 2),
    )
}

/// The entry sequence (gfx1030 dispatch state → gfx803 state). SCC, VCC, M0
/// and EXEC are untouched.
pub fn prologue(layout: &Layout, out: &mut Emitter) -> Result<(), EmitError> {
    if let Some(k) = layout.flat_scratch_init {
        let lo = Operand::scalar(k, OperandType::B32);
        let hi = Operand::scalar(k + 1, OperandType::B32);
        for (id, src) in [(HW_REG_FLAT_SCR_LO, lo), (HW_REG_FLAT_SCR_HI, hi)] {
            let mut i = inst(Opcode::S_SETREG_B32, Family::Sopk, &[src]);
            i.modifiers.simm16 = hwreg(id, 0, 32);
            out.emit(&i)?;
        }
        out.emit(&mov_imm(k + 1, layout.private_bytes_per_item))?;
    }
    Ok(())
}

/// The gfx1030 wave64 descriptor (entry offset 0 until placed).
pub fn descriptor(binding: &Binding, layout: &Layout) -> KernelDescriptor {
    let mut d = binding.descriptor;
    d.kernel_code_entry_byte_offset = 0;
    let blocks = u32::from(layout.vgprs.div_ceil(4).max(1) - 1);
    let mut rsrc1 = d.compute_pgm_rsrc1.bits();
    rsrc1 &= !0x3ff; // VGPR blocks [5:0]; SGPR blocks [9:6] are reserved on gfx10
    rsrc1 |= blocks;
    let mut r1 = ComputePgmRsrc1::from_bits(rsrc1);
    // LLVM's gfx10 defaults: CU mode, memory returns in order.
    r1.wgp_mode = false;
    r1.mem_ordered = true;
    r1.fwd_progress = false;
    d.compute_pgm_rsrc1 = r1;
    d.compute_pgm_rsrc3 = ComputePgmRsrc3::default();
    d.kernel_code_properties.enable_wavefront_size32 = false;
    d.kernarg_preload = Default::default();
    d
}
