//! The dispatcher: from a DISPATCH packet and its kernel descriptor to
//! workgroups, waves and each wave's initial register state.
//!
//! The initial state follows LLVM's AMDGPUUsage, "Initial Kernel Execution
//! State": the user SGPRs the descriptor enables, densely from `s0` in the order
//! private segment buffer (4), dispatch ptr (2), queue ptr (2), kernarg segment
//! ptr (2), dispatch id (2), flat scratch init (2), private segment size (1);
//! then, starting at `COMPUTE_PGM_RSRC2.USER_SGPR_COUNT`, the system SGPRs
//! workgroup id X, Y, Z, workgroup info and the scratch wave offset; work-item
//! ids in `v0`, `v1`, `v2` (gfx803 and gfx1030 do not pack them). The choices the
//! ABI leaves to the runtime (queue pointer, scratch layout, apertures) are
//! documented in `docs/architecture.md`.

use arch::code_object::{KernelDescriptor, KERNEL_DESCRIPTOR_SIZE};
use arch::command::DispatchPacket;
use arch::device::WaveId;
use arch::isa::{Isa, Target};

use super::memory::Memory;
use super::wave::{Wave, EXEC_LO, M0};

/// Bytes of scratch memory one swizzle element holds (the V#'s element size).
pub const SCRATCH_ELEMENT_BYTES: u64 = 4;

/// How a dispatch's scratch (private segment) backing store is laid out.
///
/// Every wave of the dispatch owns one slice of `wave_bytes()` bytes at
/// `base + slot * wave_bytes()`, where `slot` is the wave's index among all waves
/// of the dispatch ([`Wave::slot`]). Inside a slice the lanes are interleaved
/// dword by dword (the swizzled layout of the private segment buffer V#:
/// element size 4, index stride = lanes per wave, ADD_TID_ENABLE), so private
/// byte offset `o` of lane `l` lives at [`ScratchLayout::lane_address`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScratchLayout {
    /// Device address of the backing store (the packet's `scratch_address`).
    pub base: u64,
    /// Private bytes per work-item, a multiple of 4.
    pub per_lane: u32,
    /// Lanes interleaved per element row: the wave size.
    pub index_stride: u32,
}

impl ScratchLayout {
    /// Bytes of one wave's slice.
    pub fn wave_bytes(&self) -> u64 {
        u64::from(self.per_lane) * u64::from(self.index_stride)
    }

    /// Byte offset of slot `slot`'s slice from `base` (the scratch wave offset SGPR).
    pub fn wave_offset(&self, slot: u64) -> u64 {
        slot * self.wave_bytes()
    }

    /// Device address of private byte `offset` of lane `lane` in the slice that
    /// starts at `wave_base` (the swizzled addressing the buffer and flat-scratch
    /// paths share).
    pub fn lane_address(&self, wave_base: u64, offset: u64, lane: u32) -> u64 {
        let element = offset / SCRATCH_ELEMENT_BYTES;
        wave_base
            + element * SCRATCH_ELEMENT_BYTES * u64::from(self.index_stride)
            + u64::from(lane) * SCRATCH_ELEMENT_BYTES
            + offset % SCRATCH_ELEMENT_BYTES
    }
}

/// Everything about a dispatch that its waves need while they run.
#[derive(Clone, Debug)]
pub struct DispatchEnv {
    /// Dispatch number since reset (also the `dispatch id` SGPR value).
    pub number: u32,
    /// Channel and entry the DISPATCH came from (for fault reports).
    pub channel: u32,
    /// Entry index of the DISPATCH command.
    pub entry: u32,
    /// ISA and wave size the kernel runs in.
    pub target: Target,
    /// The packet.
    pub packet: DispatchPacket,
    /// The kernel descriptor read from `packet.kernel_object`.
    pub descriptor: KernelDescriptor,
    /// Device address of the packet (the DISPATCH payload in the command block).
    pub dispatch_ptr: u64,
    /// First instruction: `kernel_object + kernel_code_entry_byte_offset`.
    pub code_entry: u64,
    /// LDS bytes per workgroup (descriptor fixed size + packet dynamic size).
    pub lds_bytes: u32,
    /// Scratch layout.
    pub scratch: ScratchLayout,
    /// gfx803 `SH_HIDDEN_PRIVATE_BASE_VIMID`: flat scratch init's low word and
    /// FLAT_SCRATCH_HI are offsets from it ("offset flat scratch").
    pub hidden_private_base: u64,
    /// VGPRs allocated per wave.
    pub vgprs: u32,
    /// Workgroups per dimension (the last one may be partial).
    pub workgroups: [u32; 3],
    /// Waves in a full workgroup.
    pub waves_per_workgroup: u32,
}

/// Reads and checks what a dispatch needs; the error is a sentence for a
/// `Command` fault.
pub fn prepare(
    isa: Isa,
    number: u32,
    (channel, entry): (u32, u32),
    packet: DispatchPacket,
    dispatch_ptr: u64,
    mem: &Memory,
    lds_limit: u32,
) -> Result<DispatchEnv, String> {
    let mut raw = [0u8; KERNEL_DESCRIPTOR_SIZE];
    mem.read(packet.kernel_object, &mut raw).map_err(|a| {
        format!(
            "kernel descriptor at {:#x} is not mapped (first unmapped byte {a:#x})",
            packet.kernel_object
        )
    })?;
    let descriptor = KernelDescriptor::from_bytes(&raw);
    let wave64 = match isa {
        Isa::Gfx803 => true,
        Isa::Gfx1030 => !descriptor.kernel_code_properties.enable_wavefront_size32,
    };
    let target = Target { isa, wave64 };
    let lanes = target.wave_size();
    let [wx, wy, wz] = packet.workgroup_size.map(u32::from);
    let items = wx * wy * wz;
    if items > 1024 {
        return Err(format!(
            "workgroup size {wx}x{wy}x{wz} = {items} work-items exceeds 1024"
        ));
    }
    let lds = u64::from(descriptor.group_segment_fixed_size) + u64::from(packet.group_segment_size);
    if lds > u64::from(lds_limit) {
        return Err(format!(
            "workgroup needs {lds} bytes of LDS ({} fixed + {} dynamic), the limit is {lds_limit}",
            descriptor.group_segment_fixed_size, packet.group_segment_size
        ));
    }
    let per_lane =
        u64::from(descriptor.private_segment_fixed_size) + u64::from(packet.private_segment_size);
    let per_lane = per_lane.div_ceil(4) * 4;
    let per_lane = u32::try_from(per_lane)
        .map_err(|_| format!("private segment of {per_lane} bytes per work-item is too large"))?;
    let workgroups: [u32; 3] =
        std::array::from_fn(|d| packet.grid_size[d].div_ceil(u32::from(packet.workgroup_size[d])));
    let waves_per_workgroup = items.div_ceil(lanes);
    let scratch = ScratchLayout {
        base: packet.scratch_address,
        per_lane,
        index_stride: lanes,
    };
    if per_lane > 0 {
        let total_waves = workgroups.iter().map(|&n| u64::from(n)).product::<u64>()
            * u64::from(waves_per_workgroup);
        let bytes = total_waves * scratch.wave_bytes();
        if packet.scratch_address == 0 {
            return Err(format!(
                "kernel needs {per_lane} bytes of scratch per work-item ({bytes} bytes for the \
                 dispatch) but the packet's scratch_address is 0"
            ));
        }
        if packet.scratch_address % 256 != 0 {
            return Err(format!(
                "scratch_address {:#x} is not 256-byte aligned",
                packet.scratch_address
            ));
        }
        if !mem.is_mapped(packet.scratch_address, bytes) {
            return Err(format!(
                "scratch backing store [{:#x}, +{bytes:#x}) is not mapped ({total_waves} waves \
                 x {} bytes)",
                packet.scratch_address,
                scratch.wave_bytes()
            ));
        }
    }
    let rsrc1 = descriptor.compute_pgm_rsrc1;
    let granule = match (isa, wave64) {
        (Isa::Gfx1030, false) => 8,
        _ => 4,
    };
    let mut vgprs = (u32::from(rsrc1.granulated_workitem_vgpr_count.value()) + 1) * granule;
    if isa == Isa::Gfx1030 && wave64 {
        vgprs += u32::from(descriptor.compute_pgm_rsrc3.shared_vgpr_count.value()) * 8;
    }
    let code_entry = packet
        .kernel_object
        .wrapping_add(descriptor.kernel_code_entry_byte_offset as u64);
    Ok(DispatchEnv {
        number,
        channel,
        entry,
        target,
        packet,
        descriptor,
        dispatch_ptr,
        code_entry,
        lds_bytes: lds as u32,
        scratch,
        hidden_private_base: packet.scratch_address & !0xffff_ffff,
        vgprs: vgprs.min(256),
        workgroups,
        waves_per_workgroup,
    })
}

impl DispatchEnv {
    /// Total number of workgroups.
    pub fn workgroup_count(&self) -> u64 {
        self.workgroups.iter().map(|&n| u64::from(n)).product()
    }

    /// Workgroup id (x, y, z) of linear workgroup index `linear` (x fastest).
    pub fn workgroup_id(&self, linear: u64) -> [u32; 3] {
        let [nx, ny, _] = self.workgroups.map(u64::from);
        [
            (linear % nx) as u32,
            ((linear / nx) % ny) as u32,
            (linear / (nx * ny)) as u32,
        ]
    }

    /// Work-items per dimension actually present in workgroup `id` (the last
    /// workgroup of a dimension may be partial).
    pub fn present(&self, id: [u32; 3]) -> [u32; 3] {
        std::array::from_fn(|d| {
            let size = u32::from(self.packet.workgroup_size[d]);
            let start = id[d] * size;
            size.min(self.packet.grid_size[d] - start)
        })
    }

    /// The private segment buffer V# (4 dwords) for the swizzled scratch layout.
    pub fn scratch_descriptor(&self) -> [u32; 4] {
        let base = self.scratch.base;
        // Index stride code: 0 = 8, 1 = 16, 2 = 32, 3 = 64 lanes.
        let index_stride: u32 = if self.scratch.index_stride == 64 {
            3
        } else {
            2
        };
        let dst_sel = 4 | (5 << 3) | (6 << 6) | (7 << 9);
        let word3 = match self.target.isa {
            // NUM_FORMAT = FLOAT (7), DATA_FORMAT = 32 (4), ELEMENT_SIZE = 4 bytes (1),
            // INDEX_STRIDE, ADD_TID_ENABLE.
            Isa::Gfx803 => {
                dst_sel | (7 << 12) | (4 << 15) | (1 << 19) | (index_stride << 21) | (1 << 23)
            }
            // FORMAT = BUF_FMT_32_FLOAT (22), INDEX_STRIDE, ADD_TID_ENABLE, RESOURCE_LEVEL = 1,
            // OOB_SELECT = 2 (no bounds check in swizzle mode, as ROCr sets it).
            Isa::Gfx1030 => {
                dst_sel | (22 << 12) | (index_stride << 21) | (1 << 23) | (1 << 24) | (2 << 28)
            }
        };
        [
            base as u32,
            ((base >> 32) as u32 & 0xffff) | (1 << 31), // SWIZZLE_ENABLE, stride 0
            u32::MAX,                                   // NUM_RECORDS: no range check
            word3,
        ]
    }

    /// Creates the waves of workgroup `linear` with their initial state.
    pub fn workgroup_waves(&self, linear: u64) -> Vec<Wave> {
        let id = self.workgroup_id(linear);
        let [ax, ay, az] = self.present(id);
        let items = ax * ay * az;
        let lanes = self.target.wave_size();
        let count = items.div_ceil(lanes);
        let d = &self.descriptor;
        let props = d.kernel_code_properties;
        let rsrc2 = d.compute_pgm_rsrc2;
        let mut user = Vec::with_capacity(16);
        if props.enable_sgpr_private_segment_buffer {
            user.extend(self.scratch_descriptor());
        }
        let push64 = |user: &mut Vec<u32>, v: u64| user.extend([v as u32, (v >> 32) as u32]);
        if props.enable_sgpr_dispatch_ptr {
            push64(&mut user, self.dispatch_ptr);
        }
        if props.enable_sgpr_queue_ptr {
            // No amd_queue_t is modelled (see docs/architecture.md).
            push64(&mut user, 0);
        }
        if props.enable_sgpr_kernarg_segment_ptr {
            push64(&mut user, self.packet.kernarg_address);
        }
        if props.enable_sgpr_dispatch_id {
            push64(&mut user, u64::from(self.number));
        }
        if props.enable_sgpr_flat_scratch_init {
            match self.target.isa {
                // Offset flat scratch: {offset of the backing store from the hidden
                // private base, per-work-item size}.
                Isa::Gfx803 => user.extend([
                    (self.scratch.base - self.hidden_private_base) as u32,
                    self.scratch.per_lane,
                ]),
                // Absolute flat scratch: the 64-bit backing-store address.
                Isa::Gfx1030 => push64(&mut user, self.scratch.base),
            }
        }
        if props.enable_sgpr_private_segment_size {
            user.push(self.scratch.per_lane);
        }
        // Code object v2's grid workgroup counts (never set by LLVM, kept for completeness).
        for (enabled, n) in [
            (props.enable_sgpr_grid_workgroup_count_x, self.workgroups[0]),
            (props.enable_sgpr_grid_workgroup_count_y, self.workgroups[1]),
            (props.enable_sgpr_grid_workgroup_count_z, self.workgroups[2]),
        ] {
            if enabled {
                user.push(n);
            }
        }
        let system_start = usize::from(rsrc2.user_sgpr_count.value());
        let vgpr_ids = rsrc2.enable_vgpr_workitem_id.value();
        let mode = initial_mode(d);
        (0..count)
            .map(|w| {
                let wave_id = WaveId {
                    dispatch: self.number,
                    workgroup: id,
                    wave: w,
                };
                let mut wave = Wave::new(wave_id, self.target, self.vgprs as usize);
                wave.slot = linear * u64::from(self.waves_per_workgroup) + u64::from(w);
                wave.pc = self.code_entry;
                wave.mode = mode;
                for (i, &v) in user.iter().enumerate().take(106) {
                    wave.sgpr[i] = v;
                }
                let mut system = Vec::with_capacity(5);
                for (enabled, v) in [
                    (rsrc2.enable_sgpr_workgroup_id_x, id[0]),
                    (rsrc2.enable_sgpr_workgroup_id_y, id[1]),
                    (rsrc2.enable_sgpr_workgroup_id_z, id[2]),
                    (
                        rsrc2.enable_sgpr_workgroup_info,
                        (u32::from(w == 0) << 31) | (count & 0x3f),
                    ),
                    (
                        rsrc2.enable_sgpr_private_segment_wave_byte_offset,
                        self.scratch.wave_offset(wave.slot) as u32,
                    ),
                ] {
                    if enabled {
                        system.push(v);
                    }
                }
                for (i, v) in system.into_iter().enumerate() {
                    if let Some(r) = wave
                        .sgpr
                        .get_mut(system_start + i)
                        .filter(|_| system_start + i < 106)
                    {
                        *r = v;
                    }
                }
                let first = w * lanes;
                let present = (items - first).min(lanes);
                let exec = if present == 64 {
                    u64::MAX
                } else {
                    (1u64 << present) - 1
                };
                wave.sgpr[usize::from(EXEC_LO)] = exec as u32;
                wave.sgpr[usize::from(EXEC_LO) + 1] = (exec >> 32) as u32;
                wave.sgpr[usize::from(M0)] = 0;
                // Work-item ids (x fastest), stepped lane by lane instead of
                // divided out per lane (wave creation is on every dispatch's path).
                let mut ids = [[0u32; 64]; 3];
                let mut at = [first % ax, (first / ax) % ay, first / (ax * ay)];
                for lane in 0..present as usize {
                    for (d, id) in ids.iter_mut().enumerate() {
                        id[lane] = at[d];
                    }
                    at[0] += 1;
                    if at[0] == ax {
                        at[0] = 0;
                        at[1] += 1;
                        if at[1] == ay {
                            at[1] = 0;
                            at[2] += 1;
                        }
                    }
                }
                for (reg, id) in wave
                    .vgpr
                    .iter_mut()
                    .zip(&ids)
                    .take(usize::from(vgpr_ids) + 1)
                {
                    reg[..present as usize].copy_from_slice(&id[..present as usize]);
                }
                wave
            })
            .collect()
    }
}

/// The MODE register a wave starts with, from `COMPUTE_PGM_RSRC1`:
/// FP_ROUND\[3:0\] (f32 in 1:0, f16/f64 in 3:2), FP_DENORM\[7:4\] (f32 in 5:4,
/// f16/f64 in 7:6), DX10_CLAMP\[8\], IEEE\[9\], FP16_OVFL\[23\].
pub fn initial_mode(d: &KernelDescriptor) -> u32 {
    let r = d.compute_pgm_rsrc1;
    u32::from(r.float_round_mode_32.value())
        | u32::from(r.float_round_mode_16_64.value()) << 2
        | u32::from(r.float_denorm_mode_32.value()) << 4
        | u32::from(r.float_denorm_mode_16_64.value()) << 6
        | u32::from(r.enable_dx10_clamp) << 8
        | u32::from(r.enable_ieee_mode) << 9
        | u32::from(r.fp16_ovfl) << 23
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swizzled_scratch_addresses_interleave_lanes_by_dword() {
        let s = ScratchLayout {
            base: 0x10_0000,
            per_lane: 16,
            index_stride: 64,
        };
        assert_eq!(s.wave_bytes(), 1024);
        assert_eq!(s.wave_offset(3), 3072);
        // Lane 1's byte 0 follows lane 0's dword; lane 0's second dword is a row later.
        assert_eq!(s.lane_address(0x10_0000, 0, 1), 0x10_0004);
        assert_eq!(s.lane_address(0x10_0000, 4, 0), 0x10_0100);
        assert_eq!(s.lane_address(0x10_0000, 6, 2), 0x10_010a);
    }
}
