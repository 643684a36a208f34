//! The kernel descriptor (code object v3+, 64 bytes in `.rodata` at `NAME.kd`)
//! and v2's `amd_kernel_code_t` (256 bytes at the kernel symbol in `.text`),
//! both mapped to one [`KernelDescriptor`] so the dispatcher does not care which
//! version a kernel came from. Layouts: LLVM's AMDGPUUsage, "Kernel Descriptor"
//! and `AMDKernelCodeT.h`.

use arbitrary_int::{u2, u4, u5, u6, u7, u9};

use super::elf::{le_u16, le_u32, le_u64};

/// Size of a v3+ kernel descriptor in bytes.
pub const KERNEL_DESCRIPTOR_SIZE: usize = 64;
/// Size of v2's `amd_kernel_code_t` in bytes.
pub const AMD_KERNEL_CODE_SIZE: usize = 256;

fn bit(v: u32, n: u32) -> bool {
    v >> n & 1 != 0
}

fn put(b: bool, n: u32) -> u32 {
    u32::from(b) << n
}

/// `COMPUTE_PGM_RSRC1`: register counts, float modes and wave flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ComputePgmRsrc1 {
    /// Bits 5:0: VGPR blocks minus one (granule 4, or 8 for gfx10+ wave32).
    pub granulated_workitem_vgpr_count: u6,
    /// Bits 9:6: SGPR blocks minus one (GFX6-9; reserved on gfx10+, which always allocates 106).
    pub granulated_wavefront_sgpr_count: u4,
    /// Bits 11:10: wave priority.
    pub priority: u2,
    /// Bits 13:12: FP32 rounding mode (0 = round to nearest even).
    pub float_round_mode_32: u2,
    /// Bits 15:14: FP16/FP64 rounding mode.
    pub float_round_mode_16_64: u2,
    /// Bits 17:16: FP32 denormal mode (3 = keep input and output denormals).
    pub float_denorm_mode_32: u2,
    /// Bits 19:18: FP16/FP64 denormal mode.
    pub float_denorm_mode_16_64: u2,
    /// Bit 20 (PRIV): start the wave in privileged mode.
    pub privileged: bool,
    /// Bit 21: clamp NaN outputs to zero (DX10 clamp).
    pub enable_dx10_clamp: bool,
    /// Bit 22: start the wave in debug mode.
    pub debug_mode: bool,
    /// Bit 23: IEEE mode (signalling NaN quieting in min/max).
    pub enable_ieee_mode: bool,
    /// Bit 24: bulky (only one such wave per CU).
    pub bulky: bool,
    /// Bit 25: CDBG_USER.
    pub cdbg_user: bool,
    /// Bit 26 (GFX9+): FP16 overflow clamps to max instead of infinity.
    pub fp16_ovfl: bool,
    /// Bit 29 (gfx10+): workgroup processor mode (0 = CU mode).
    pub wgp_mode: bool,
    /// Bit 30 (gfx10+): memory operations return in issue order.
    pub mem_ordered: bool,
    /// Bit 31 (gfx10+): forward progress guarantee.
    pub fwd_progress: bool,
    /// Bits 28:27, which no field names (kept so the word round-trips).
    pub reserved: u32,
}

impl ComputePgmRsrc1 {
    const RESERVED: u32 = 0x1800_0000;

    /// Decodes the register value.
    pub fn from_bits(v: u32) -> Self {
        ComputePgmRsrc1 {
            granulated_workitem_vgpr_count: u6::extract_u32(v, 0),
            granulated_wavefront_sgpr_count: u4::extract_u32(v, 6),
            priority: u2::extract_u32(v, 10),
            float_round_mode_32: u2::extract_u32(v, 12),
            float_round_mode_16_64: u2::extract_u32(v, 14),
            float_denorm_mode_32: u2::extract_u32(v, 16),
            float_denorm_mode_16_64: u2::extract_u32(v, 18),
            privileged: bit(v, 20),
            enable_dx10_clamp: bit(v, 21),
            debug_mode: bit(v, 22),
            enable_ieee_mode: bit(v, 23),
            bulky: bit(v, 24),
            cdbg_user: bit(v, 25),
            fp16_ovfl: bit(v, 26),
            wgp_mode: bit(v, 29),
            mem_ordered: bit(v, 30),
            fwd_progress: bit(v, 31),
            reserved: v & Self::RESERVED,
        }
    }

    /// Encodes the register value.
    pub fn bits(&self) -> u32 {
        u32::from(self.granulated_workitem_vgpr_count.value())
            | u32::from(self.granulated_wavefront_sgpr_count.value()) << 6
            | u32::from(self.priority.value()) << 10
            | u32::from(self.float_round_mode_32.value()) << 12
            | u32::from(self.float_round_mode_16_64.value()) << 14
            | u32::from(self.float_denorm_mode_32.value()) << 16
            | u32::from(self.float_denorm_mode_16_64.value()) << 18
            | put(self.privileged, 20)
            | put(self.enable_dx10_clamp, 21)
            | put(self.debug_mode, 22)
            | put(self.enable_ieee_mode, 23)
            | put(self.bulky, 24)
            | put(self.cdbg_user, 25)
            | put(self.fp16_ovfl, 26)
            | put(self.wgp_mode, 29)
            | put(self.mem_ordered, 30)
            | put(self.fwd_progress, 31)
            | self.reserved & Self::RESERVED
    }
}

/// `COMPUTE_PGM_RSRC2`: which system SGPRs/VGPRs the wave starts with, LDS
/// size and exception enables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ComputePgmRsrc2 {
    /// Bit 0 (ENABLE_PRIVATE_SEGMENT): the scratch wave offset SGPR is set up.
    pub enable_sgpr_private_segment_wave_byte_offset: bool,
    /// Bits 5:1: number of user SGPRs loaded before the system SGPRs.
    pub user_sgpr_count: u5,
    /// Bit 6: trap handler present (set by the CP, must be 0 in code objects).
    pub enable_trap_handler: bool,
    /// Bit 7: workgroup id X SGPR.
    pub enable_sgpr_workgroup_id_x: bool,
    /// Bit 8: workgroup id Y SGPR.
    pub enable_sgpr_workgroup_id_y: bool,
    /// Bit 9: workgroup id Z SGPR.
    pub enable_sgpr_workgroup_id_z: bool,
    /// Bit 10: workgroup info SGPR.
    pub enable_sgpr_workgroup_info: bool,
    /// Bits 12:11: work-item id VGPRs set up: 0 = X, 1 = X,Y, 2 = X,Y,Z.
    pub enable_vgpr_workitem_id: u2,
    /// Bit 13: address watch exceptions.
    pub enable_exception_address_watch: bool,
    /// Bit 14: memory violation exceptions.
    pub enable_exception_memory: bool,
    /// Bits 23:15: LDS blocks allocated (set by the CP from the dispatch packet).
    pub granulated_lds_size: u9,
    /// Bit 24: IEEE 754 invalid-operation exception.
    pub enable_exception_ieee_754_fp_invalid_operation: bool,
    /// Bit 25: FP denormal-source exception.
    pub enable_exception_fp_denormal_source: bool,
    /// Bit 26: IEEE 754 division-by-zero exception.
    pub enable_exception_ieee_754_fp_division_by_zero: bool,
    /// Bit 27: IEEE 754 overflow exception.
    pub enable_exception_ieee_754_fp_overflow: bool,
    /// Bit 28: IEEE 754 underflow exception.
    pub enable_exception_ieee_754_fp_underflow: bool,
    /// Bit 29: IEEE 754 inexact exception.
    pub enable_exception_ieee_754_fp_inexact: bool,
    /// Bit 30: integer division-by-zero exception.
    pub enable_exception_int_divide_by_zero: bool,
    /// Bit 31, reserved (kept so the word round-trips).
    pub reserved: u32,
}

impl ComputePgmRsrc2 {
    const RESERVED: u32 = 0x8000_0000;

    /// Decodes the register value.
    pub fn from_bits(v: u32) -> Self {
        ComputePgmRsrc2 {
            enable_sgpr_private_segment_wave_byte_offset: bit(v, 0),
            user_sgpr_count: u5::extract_u32(v, 1),
            enable_trap_handler: bit(v, 6),
            enable_sgpr_workgroup_id_x: bit(v, 7),
            enable_sgpr_workgroup_id_y: bit(v, 8),
            enable_sgpr_workgroup_id_z: bit(v, 9),
            enable_sgpr_workgroup_info: bit(v, 10),
            enable_vgpr_workitem_id: u2::extract_u32(v, 11),
            enable_exception_address_watch: bit(v, 13),
            enable_exception_memory: bit(v, 14),
            granulated_lds_size: u9::extract_u32(v, 15),
            enable_exception_ieee_754_fp_invalid_operation: bit(v, 24),
            enable_exception_fp_denormal_source: bit(v, 25),
            enable_exception_ieee_754_fp_division_by_zero: bit(v, 26),
            enable_exception_ieee_754_fp_overflow: bit(v, 27),
            enable_exception_ieee_754_fp_underflow: bit(v, 28),
            enable_exception_ieee_754_fp_inexact: bit(v, 29),
            enable_exception_int_divide_by_zero: bit(v, 30),
            reserved: v & Self::RESERVED,
        }
    }

    /// Encodes the register value.
    pub fn bits(&self) -> u32 {
        put(self.enable_sgpr_private_segment_wave_byte_offset, 0)
            | u32::from(self.user_sgpr_count.value()) << 1
            | put(self.enable_trap_handler, 6)
            | put(self.enable_sgpr_workgroup_id_x, 7)
            | put(self.enable_sgpr_workgroup_id_y, 8)
            | put(self.enable_sgpr_workgroup_id_z, 9)
            | put(self.enable_sgpr_workgroup_info, 10)
            | u32::from(self.enable_vgpr_workitem_id.value()) << 11
            | put(self.enable_exception_address_watch, 13)
            | put(self.enable_exception_memory, 14)
            | u32::from(self.granulated_lds_size.value()) << 15
            | put(self.enable_exception_ieee_754_fp_invalid_operation, 24)
            | put(self.enable_exception_fp_denormal_source, 25)
            | put(self.enable_exception_ieee_754_fp_division_by_zero, 26)
            | put(self.enable_exception_ieee_754_fp_overflow, 27)
            | put(self.enable_exception_ieee_754_fp_underflow, 28)
            | put(self.enable_exception_ieee_754_fp_inexact, 29)
            | put(self.enable_exception_int_divide_by_zero, 30)
            | self.reserved & Self::RESERVED
    }
}

/// `COMPUTE_PGM_RSRC3` in its gfx10/gfx11 layout (zero on gfx803; gfx90a and
/// gfx940 use the word differently and keep it in `reserved` here).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ComputePgmRsrc3 {
    /// Bits 3:0 (gfx10+): shared VGPR blocks for wave64.
    pub shared_vgpr_count: u4,
    /// Bits 9:4 (gfx11+): instruction prefetch size.
    pub inst_pref_size: u6,
    /// Bit 10 (gfx11+): trap on wave start.
    pub trap_on_start: bool,
    /// Bit 11 (gfx11+): trap on wave end.
    pub trap_on_end: bool,
    /// Bit 31 (gfx11+): the kernel uses image instructions.
    pub image_op: bool,
    /// Bits 30:12, which no field names (kept so the word round-trips).
    pub reserved: u32,
}

impl ComputePgmRsrc3 {
    const RESERVED: u32 = 0x7fff_f000;

    /// Decodes the register value.
    pub fn from_bits(v: u32) -> Self {
        ComputePgmRsrc3 {
            shared_vgpr_count: u4::extract_u32(v, 0),
            inst_pref_size: u6::extract_u32(v, 4),
            trap_on_start: bit(v, 10),
            trap_on_end: bit(v, 11),
            image_op: bit(v, 31),
            reserved: v & Self::RESERVED,
        }
    }

    /// Encodes the register value.
    pub fn bits(&self) -> u32 {
        u32::from(self.shared_vgpr_count.value())
            | u32::from(self.inst_pref_size.value()) << 4
            | put(self.trap_on_start, 10)
            | put(self.trap_on_end, 11)
            | put(self.image_op, 31)
            | self.reserved & Self::RESERVED
    }
}

/// `kernel_code_properties`: which user SGPRs the kernel expects, in order,
/// and the wave size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KernelCodeProperties {
    /// Bit 0: private segment buffer descriptor (4 SGPRs).
    pub enable_sgpr_private_segment_buffer: bool,
    /// Bit 1: dispatch packet pointer (2 SGPRs).
    pub enable_sgpr_dispatch_ptr: bool,
    /// Bit 2: queue pointer (2 SGPRs).
    pub enable_sgpr_queue_ptr: bool,
    /// Bit 3: kernarg segment pointer (2 SGPRs).
    pub enable_sgpr_kernarg_segment_ptr: bool,
    /// Bit 4: dispatch id (2 SGPRs).
    pub enable_sgpr_dispatch_id: bool,
    /// Bit 5: flat scratch init (2 SGPRs).
    pub enable_sgpr_flat_scratch_init: bool,
    /// Bit 6: private segment size (1 SGPR).
    pub enable_sgpr_private_segment_size: bool,
    /// Bit 7 (v2 only, reserved in v3+): grid workgroup count X (1 SGPR).
    pub enable_sgpr_grid_workgroup_count_x: bool,
    /// Bit 8 (v2 only): grid workgroup count Y.
    pub enable_sgpr_grid_workgroup_count_y: bool,
    /// Bit 9 (v2 only): grid workgroup count Z.
    pub enable_sgpr_grid_workgroup_count_z: bool,
    /// Bit 10 (gfx10+): the kernel runs in wave32.
    pub enable_wavefront_size32: bool,
    /// Bit 11: the kernel uses a dynamically sized stack.
    pub uses_dynamic_stack: bool,
    /// Bits 15:12, reserved (kept so the word round-trips).
    pub reserved: u16,
}

impl KernelCodeProperties {
    const RESERVED: u16 = 0xf000;

    /// Decodes the 16-bit field.
    pub fn from_bits(v: u16) -> Self {
        let w = u32::from(v);
        KernelCodeProperties {
            enable_sgpr_private_segment_buffer: bit(w, 0),
            enable_sgpr_dispatch_ptr: bit(w, 1),
            enable_sgpr_queue_ptr: bit(w, 2),
            enable_sgpr_kernarg_segment_ptr: bit(w, 3),
            enable_sgpr_dispatch_id: bit(w, 4),
            enable_sgpr_flat_scratch_init: bit(w, 5),
            enable_sgpr_private_segment_size: bit(w, 6),
            enable_sgpr_grid_workgroup_count_x: bit(w, 7),
            enable_sgpr_grid_workgroup_count_y: bit(w, 8),
            enable_sgpr_grid_workgroup_count_z: bit(w, 9),
            enable_wavefront_size32: bit(w, 10),
            uses_dynamic_stack: bit(w, 11),
            reserved: v & Self::RESERVED,
        }
    }

    /// Encodes the 16-bit field.
    pub fn bits(&self) -> u16 {
        let w = put(self.enable_sgpr_private_segment_buffer, 0)
            | put(self.enable_sgpr_dispatch_ptr, 1)
            | put(self.enable_sgpr_queue_ptr, 2)
            | put(self.enable_sgpr_kernarg_segment_ptr, 3)
            | put(self.enable_sgpr_dispatch_id, 4)
            | put(self.enable_sgpr_flat_scratch_init, 5)
            | put(self.enable_sgpr_private_segment_size, 6)
            | put(self.enable_sgpr_grid_workgroup_count_x, 7)
            | put(self.enable_sgpr_grid_workgroup_count_y, 8)
            | put(self.enable_sgpr_grid_workgroup_count_z, 9)
            | put(self.enable_wavefront_size32, 10)
            | put(self.uses_dynamic_stack, 11);
        // `w` uses bits 11:0 only, so the cast keeps every bit.
        w as u16 | self.reserved & Self::RESERVED
    }
}

/// `kernarg_preload` (gfx90a+): kernel arguments preloaded into user SGPRs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KernargPreload {
    /// Bits 6:0: dwords preloaded.
    pub length: u7,
    /// Bits 15:7: dword offset in the kernarg segment of the first preloaded dword.
    pub offset: u9,
}

/// A kernel's launch parameters, common to all code object versions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KernelDescriptor {
    /// Bytes of LDS the kernel allocates statically.
    pub group_segment_fixed_size: u32,
    /// Bytes of scratch per work-item, without the dynamic stack.
    pub private_segment_fixed_size: u32,
    /// Bytes of kernel arguments.
    pub kernarg_size: u32,
    /// Byte offset of the first instruction from the descriptor's address (v3+)
    /// or from the `amd_kernel_code_t`'s address (v2).
    pub kernel_code_entry_byte_offset: i64,
    /// `COMPUTE_PGM_RSRC3` (descriptor bytes 44..48).
    pub compute_pgm_rsrc3: ComputePgmRsrc3,
    /// `COMPUTE_PGM_RSRC1` (bytes 48..52).
    pub compute_pgm_rsrc1: ComputePgmRsrc1,
    /// `COMPUTE_PGM_RSRC2` (bytes 52..56).
    pub compute_pgm_rsrc2: ComputePgmRsrc2,
    /// User SGPR enables and wave size (bytes 56..58).
    pub kernel_code_properties: KernelCodeProperties,
    /// Kernarg preloading (bytes 58..60).
    pub kernarg_preload: KernargPreload,
}

impl KernelDescriptor {
    /// Decodes a 64-byte v3+ kernel descriptor. Reserved bytes are ignored.
    pub fn from_bytes(b: &[u8; KERNEL_DESCRIPTOR_SIZE]) -> Self {
        let preload = le_u16(b, 58);
        KernelDescriptor {
            group_segment_fixed_size: le_u32(b, 0),
            private_segment_fixed_size: le_u32(b, 4),
            kernarg_size: le_u32(b, 8),
            kernel_code_entry_byte_offset: le_u64(b, 16) as i64,
            compute_pgm_rsrc3: ComputePgmRsrc3::from_bits(le_u32(b, 44)),
            compute_pgm_rsrc1: ComputePgmRsrc1::from_bits(le_u32(b, 48)),
            compute_pgm_rsrc2: ComputePgmRsrc2::from_bits(le_u32(b, 52)),
            kernel_code_properties: KernelCodeProperties::from_bits(le_u16(b, 56)),
            kernarg_preload: KernargPreload {
                length: u7::extract_u32(u32::from(preload), 0),
                offset: u9::extract_u32(u32::from(preload), 7),
            },
        }
    }

    /// Encodes the 64-byte v3+ kernel descriptor (reserved bytes zero).
    pub fn to_bytes(&self) -> [u8; KERNEL_DESCRIPTOR_SIZE] {
        let mut b = [0u8; KERNEL_DESCRIPTOR_SIZE];
        b[0..4].copy_from_slice(&self.group_segment_fixed_size.to_le_bytes());
        b[4..8].copy_from_slice(&self.private_segment_fixed_size.to_le_bytes());
        b[8..12].copy_from_slice(&self.kernarg_size.to_le_bytes());
        b[16..24].copy_from_slice(&self.kernel_code_entry_byte_offset.to_le_bytes());
        b[44..48].copy_from_slice(&self.compute_pgm_rsrc3.bits().to_le_bytes());
        b[48..52].copy_from_slice(&self.compute_pgm_rsrc1.bits().to_le_bytes());
        b[52..56].copy_from_slice(&self.compute_pgm_rsrc2.bits().to_le_bytes());
        b[56..58].copy_from_slice(&self.kernel_code_properties.bits().to_le_bytes());
        let preload = u16::from(self.kernarg_preload.length.value())
            | self.kernarg_preload.offset.value() << 7;
        b[58..60].copy_from_slice(&preload.to_le_bytes());
        b
    }
}

/// v2's `amd_kernel_code_t`, field by field (the 128 bytes of control
/// directives at the end are not kept: no producer filled them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AmdKernelCode {
    /// `amd_kernel_code_version_major` (1).
    pub version_major: u32,
    /// `amd_kernel_code_version_minor`.
    pub version_minor: u32,
    /// `amd_machine_kind` (1 = AMDGPU).
    pub machine_kind: u16,
    /// `amd_machine_version_major`, e.g. 8 for gfx803.
    pub machine_version_major: u16,
    /// `amd_machine_version_minor`.
    pub machine_version_minor: u16,
    /// `amd_machine_version_stepping`.
    pub machine_version_stepping: u16,
    /// Byte offset of the first instruction from this structure (usually 256).
    pub kernel_code_entry_byte_offset: i64,
    /// `kernel_code_prefetch_byte_offset`.
    pub kernel_code_prefetch_byte_offset: i64,
    /// `kernel_code_prefetch_byte_size`.
    pub kernel_code_prefetch_byte_size: u64,
    /// `max_scratch_backing_memory_byte_size` (reserved).
    pub max_scratch_backing_memory_byte_size: u64,
    /// `compute_pgm_rsrc1`.
    pub compute_pgm_rsrc1: u32,
    /// `compute_pgm_rsrc2`.
    pub compute_pgm_rsrc2: u32,
    /// `kernel_code_properties` (32 bits in v2: bits 16..22 add GDS, element
    /// size, ptr64, dynamic call stack, debug and XNACK flags).
    pub kernel_code_properties: u32,
    /// `workitem_private_segment_byte_size`.
    pub workitem_private_segment_byte_size: u32,
    /// `workgroup_group_segment_byte_size`.
    pub workgroup_group_segment_byte_size: u32,
    /// `gds_segment_byte_size`.
    pub gds_segment_byte_size: u32,
    /// `kernarg_segment_byte_size`.
    pub kernarg_segment_byte_size: u64,
    /// `workgroup_fbarrier_count`.
    pub workgroup_fbarrier_count: u32,
    /// `wavefront_sgpr_count`: SGPRs used.
    pub wavefront_sgpr_count: u16,
    /// `workitem_vgpr_count`: VGPRs used.
    pub workitem_vgpr_count: u16,
    /// `reserved_vgpr_first`.
    pub reserved_vgpr_first: u16,
    /// `reserved_vgpr_count`.
    pub reserved_vgpr_count: u16,
    /// `reserved_sgpr_first`.
    pub reserved_sgpr_first: u16,
    /// `reserved_sgpr_count`.
    pub reserved_sgpr_count: u16,
    /// `debug_wavefront_private_segment_offset_sgpr`.
    pub debug_wavefront_private_segment_offset_sgpr: u16,
    /// `debug_private_segment_buffer_sgpr`.
    pub debug_private_segment_buffer_sgpr: u16,
    /// `kernarg_segment_alignment` (log2 bytes).
    pub kernarg_segment_alignment: u8,
    /// `group_segment_alignment` (log2 bytes).
    pub group_segment_alignment: u8,
    /// `private_segment_alignment` (log2 bytes).
    pub private_segment_alignment: u8,
    /// `wavefront_size` (log2 lanes: 6 = wave64, 5 = wave32).
    pub wavefront_size: u8,
    /// `call_convention`.
    pub call_convention: i32,
    /// `runtime_loader_kernel_symbol`.
    pub runtime_loader_kernel_symbol: u64,
}

impl AmdKernelCode {
    /// v2 `kernel_code_properties` bit 20: the kernel uses a dynamic call stack.
    const IS_DYNAMIC_CALLSTACK: u32 = 1 << 20;

    /// Decodes the 256-byte structure.
    pub fn from_bytes(b: &[u8; AMD_KERNEL_CODE_SIZE]) -> Self {
        AmdKernelCode {
            version_major: le_u32(b, 0),
            version_minor: le_u32(b, 4),
            machine_kind: le_u16(b, 8),
            machine_version_major: le_u16(b, 10),
            machine_version_minor: le_u16(b, 12),
            machine_version_stepping: le_u16(b, 14),
            kernel_code_entry_byte_offset: le_u64(b, 16) as i64,
            kernel_code_prefetch_byte_offset: le_u64(b, 24) as i64,
            kernel_code_prefetch_byte_size: le_u64(b, 32),
            max_scratch_backing_memory_byte_size: le_u64(b, 40),
            compute_pgm_rsrc1: le_u32(b, 48),
            compute_pgm_rsrc2: le_u32(b, 52),
            kernel_code_properties: le_u32(b, 56),
            workitem_private_segment_byte_size: le_u32(b, 60),
            workgroup_group_segment_byte_size: le_u32(b, 64),
            gds_segment_byte_size: le_u32(b, 68),
            kernarg_segment_byte_size: le_u64(b, 72),
            workgroup_fbarrier_count: le_u32(b, 80),
            wavefront_sgpr_count: le_u16(b, 84),
            workitem_vgpr_count: le_u16(b, 86),
            reserved_vgpr_first: le_u16(b, 88),
            reserved_vgpr_count: le_u16(b, 90),
            reserved_sgpr_first: le_u16(b, 92),
            reserved_sgpr_count: le_u16(b, 94),
            debug_wavefront_private_segment_offset_sgpr: le_u16(b, 96),
            debug_private_segment_buffer_sgpr: le_u16(b, 98),
            kernarg_segment_alignment: b[100],
            group_segment_alignment: b[101],
            private_segment_alignment: b[102],
            wavefront_size: b[103],
            call_convention: le_u32(b, 104) as i32,
            runtime_loader_kernel_symbol: le_u64(b, 120),
        }
    }

    /// The same launch parameters as a [`KernelDescriptor`]. v2 has no
    /// `compute_pgm_rsrc3` (zero); the kernarg size saturates at `u32::MAX`.
    pub fn to_descriptor(&self) -> KernelDescriptor {
        // Bits 10:0 mean the same in both versions; v2 keeps "dynamic call
        // stack" in bit 20 where v3+ has "uses dynamic stack" in bit 11.
        let mut props =
            KernelCodeProperties::from_bits((self.kernel_code_properties & 0x7ff) as u16);
        props.uses_dynamic_stack = self.kernel_code_properties & Self::IS_DYNAMIC_CALLSTACK != 0;
        KernelDescriptor {
            group_segment_fixed_size: self.workgroup_group_segment_byte_size,
            private_segment_fixed_size: self.workitem_private_segment_byte_size,
            kernarg_size: u32::try_from(self.kernarg_segment_byte_size).unwrap_or(u32::MAX),
            kernel_code_entry_byte_offset: self.kernel_code_entry_byte_offset,
            compute_pgm_rsrc3: ComputePgmRsrc3::default(),
            compute_pgm_rsrc1: ComputePgmRsrc1::from_bits(self.compute_pgm_rsrc1),
            compute_pgm_rsrc2: ComputePgmRsrc2::from_bits(self.compute_pgm_rsrc2),
            kernel_code_properties: props,
            kernarg_preload: KernargPreload::default(),
        }
    }
}
