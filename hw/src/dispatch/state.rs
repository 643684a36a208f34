//! What a dispatch's waves start with (docs/architecture.md, "The dispatcher:
//! initial wave state"): sizes and allocations from the kernel descriptor and
//! the packet, user SGPRs in AMDGPUUsage order, system SGPRs from
//! `USER_SGPR_COUNT`, work-item ids in v0–v2, EXEC for partial waves, MODE from
//! RSRC1, the scratch slice of each wave.

use arch::code_object::{KernelDescriptor, KERNEL_DESCRIPTOR_SIZE};
use arch::device::{FaultKind, WaveId};

use super::ActiveDispatch;
use crate::config::CuConfig;
use crate::exec::{ScalarState, WaveEnv};
use crate::frontend::DispatchRequest;
use crate::mem::backing::Backing;

/// The resources one workgroup needs (checked against a CU before launch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkgroupShape {
    /// Waves in this workgroup.
    pub waves: u32,
    /// Architectural VGPRs per wave.
    pub vgprs: u16,
    /// True for wave64.
    pub wave64: bool,
    /// Of `vgprs`, the top ones its waves' parts share (seed 000 §2): the
    /// packet's count when the waves run in sub-vector order, else 0.
    pub shared_vgprs: u16,
    /// LDS bytes.
    pub lds_bytes: u32,
}

/// One wave's initial state.
#[derive(Clone, Debug)]
pub struct WaveInit {
    /// Its id.
    pub id: WaveId,
    /// Scalar registers, EXEC, MODE.
    pub scalar: ScalarState,
    /// v0–v2 per lane.
    pub vgpr: [[u32; 64]; 3],
    /// Datapath facts.
    pub env: WaveEnv,
}

/// One workgroup, ready to be written into a CU.
#[derive(Clone, Debug)]
pub struct WorkgroupInit {
    /// Resources.
    pub shape: WorkgroupShape,
    /// Waves in the workgroup.
    pub waves: u32,
    /// First instruction.
    pub pc: u64,
    /// Its waves, in order.
    pub wave: Vec<WaveInit>,
    /// The packet's issue-order indication (seed 000 §4).
    pub subvector_hint: arch::command::SubvectorHint,
}

fn bad(req: &DispatchRequest, reason: impl Into<String>) -> FaultKind {
    FaultKind::Command {
        channel: req.channel,
        entry: req.entry,
        reason: reason.into(),
    }
}

/// Reads the descriptor and derives everything the launches need.
pub fn prepare(
    req: DispatchRequest,
    backing: &Backing,
    cu: &CuConfig,
    cycle: u64,
) -> Result<ActiveDispatch, FaultKind> {
    let p = req.packet;
    let mut b = [0u8; KERNEL_DESCRIPTOR_SIZE];
    if backing.read(p.kernel_object, &mut b).is_err() {
        return Err(bad(
            &req,
            format!("kernel descriptor at {:#x} is not mapped", p.kernel_object),
        ));
    }
    if p.kernel_object % 64 != 0 {
        return Err(bad(&req, "kernel descriptor is not 64-byte aligned"));
    }
    let kd = KernelDescriptor::from_bytes(&b);
    let wave64 = !kd.kernel_code_properties.enable_wavefront_size32;
    let lanes: u32 = if wave64 { 64 } else { 32 };
    let wg_size = p.workgroup_size.map(u32::from);
    if wg_size.contains(&0) || p.grid_size.contains(&0) {
        return Err(bad(&req, "zero workgroup or grid size"));
    }
    let items = wg_size.iter().product::<u32>();
    if items > 1024 {
        return Err(bad(
            &req,
            format!("workgroup of {items} work-items (at most 1024)"),
        ));
    }
    let wg_count = [0, 1, 2].map(|i| p.grid_size[i].div_ceil(wg_size[i]));
    let total_wgs = wg_count.iter().map(|&c| u64::from(c)).product::<u64>();
    let waves_per_wg = items.div_ceil(lanes);
    let rsrc1 = kd.compute_pgm_rsrc1;
    let granule: u32 = if wave64 { 4 } else { 8 };
    let mut vgprs = (u32::from(rsrc1.granulated_workitem_vgpr_count.value()) + 1) * granule;
    if wave64 {
        vgprs += u32::from(kd.compute_pgm_rsrc3.shared_vgpr_count.value()) * 8;
    }
    let vgprs = vgprs.min(256) as u16;
    let shared_vgprs = shared_vgprs(&req, &kd, vgprs, wave64, cu)?;
    let lds_bytes = kd
        .group_segment_fixed_size
        .saturating_add(p.group_segment_size);
    if lds_bytes > cu.lds_bytes {
        return Err(bad(
            &req,
            format!(
                "{lds_bytes} bytes of LDS per workgroup (a CU has {})",
                cu.lds_bytes
            ),
        ));
    }
    let rows_per_wave = physical_rows(vgprs, shared_vgprs, wave64, cu);
    let per_simd = waves_per_wg.div_ceil(cu.simds);
    if waves_per_wg > cu.simds * cu.wave_slots || per_simd * rows_per_wave > cu.vgpr_rows {
        return Err(bad(
            &req,
            format!("a workgroup of {waves_per_wg} waves with {vgprs} VGPRs does not fit a CU"),
        ));
    }
    let scratch_per_item = kd
        .private_segment_fixed_size
        .saturating_add(p.private_segment_size)
        .div_ceil(4)
        .saturating_mul(4);
    if scratch_per_item > 0 {
        if p.scratch_address % 256 != 0 {
            return Err(bad(&req, "scratch backing store is not 256-byte aligned"));
        }
        let bytes =
            total_wgs * u64::from(waves_per_wg) * u64::from(scratch_per_item) * u64::from(lanes);
        let mapped = backing.mappings().any(|(base, size)| {
            p.scratch_address >= base && p.scratch_address + bytes <= base + size
        });
        if !mapped {
            return Err(bad(
                &req,
                format!(
                    "scratch backing store [{:#x}, +{bytes:#x}) is not mapped",
                    p.scratch_address
                ),
            ));
        }
    }
    let mode = u32::from(rsrc1.float_round_mode_32.value())
        | u32::from(rsrc1.float_round_mode_16_64.value()) << 2
        | u32::from(rsrc1.float_denorm_mode_32.value()) << 4
        | u32::from(rsrc1.float_denorm_mode_16_64.value()) << 6
        | u32::from(rsrc1.enable_dx10_clamp) << 8
        | u32::from(rsrc1.enable_ieee_mode) << 9
        | u32::from(rsrc1.fp16_ovfl) << 23;
    let entry = p
        .kernel_object
        .wrapping_add(kd.kernel_code_entry_byte_offset as u64);
    Ok(ActiveDispatch {
        req,
        kd,
        entry,
        wave64,
        wg_size,
        wg_count,
        total_wgs,
        next_wg: 0,
        live_wgs: 0,
        waves_per_wg,
        vgprs,
        shared_vgprs,
        lds_bytes,
        scratch_per_item,
        mode,
        start: cycle,
        waves_launched: 0,
    })
}

/// The packet's shared-VGPR count checked against the kernel, and the part of
/// it that takes effect: only wave64 waves latched in sub-vector order share
/// rows (a wave32 register is one row already; a conventional or `auto` wave
/// may run a shared register's parts interleaved, which sharing would break).
fn shared_vgprs(
    req: &DispatchRequest,
    kd: &KernelDescriptor,
    vgprs: u16,
    wave64: bool,
    cu: &CuConfig,
) -> Result<u16, FaultKind> {
    let shared = u16::from(req.packet.shared_vgprs);
    // v0–v2 hold the work-item ids at launch: in a shared row the high
    // half's ids would replace the low half's.
    let initialised = 1 + u16::from(kd.compute_pgm_rsrc2.enable_vgpr_workitem_id.value().min(2));
    if shared > 0 && shared + initialised > vgprs {
        return Err(bad(
            req,
            format!(
                "{shared} shared VGPRs leave fewer than the {initialised} private VGPRs \
                 the work-item ids need (the kernel has {vgprs})"
            ),
        ));
    }
    let mode = crate::cu::subvec::wave_mode(req.packet.subvector_hint, cu.subvector_mode);
    Ok(
        if wave64 && mode == crate::config::SubvectorMode::Subvector {
            shared
        } else {
            0
        },
    )
}

/// VGPR-file rows a wave occupies: two rows per wave64 register, one per
/// shared or wave32 register ([`crate::cu::vgpr::VgprLayout::rows`]),
/// rounded up to the allocation granule.
pub fn physical_rows(vgprs: u16, shared: u16, wave64: bool, cu: &CuConfig) -> u32 {
    let granule = if wave64 {
        2 * cu.vgpr_granule_w64
    } else {
        cu.vgpr_granule_w32
    };
    let layout = crate::cu::vgpr::VgprLayout {
        vgprs,
        shared: shared.min(vgprs),
        wave64,
    };
    layout.rows().div_ceil(granule) * granule
}

fn wg_id(d: &ActiveDispatch, linear: u64) -> [u32; 3] {
    let [cx, cy, _] = d.wg_count.map(u64::from);
    [
        (linear % cx) as u32,
        (linear / cx % cy) as u32,
        (linear / (cx * cy)) as u32,
    ]
}

/// Work-items present in workgroup `id` per dimension.
fn present(d: &ActiveDispatch, id: [u32; 3]) -> [u32; 3] {
    [0, 1, 2].map(|i| d.wg_size[i].min(d.req.packet.grid_size[i] - id[i] * d.wg_size[i]))
}

/// The resources workgroup `linear` of `d` needs.
pub fn shape(d: &ActiveDispatch, linear: u64) -> WorkgroupShape {
    let p = present(d, wg_id(d, linear));
    let lanes = if d.wave64 { 64 } else { 32 };
    WorkgroupShape {
        waves: (p[0] * p[1] * p[2]).div_ceil(lanes),
        vgprs: d.vgprs,
        wave64: d.wave64,
        shared_vgprs: d.shared_vgprs,
        lds_bytes: d.lds_bytes,
    }
}

/// The complete initial state of workgroup `linear` of `d`.
pub fn workgroup(d: &ActiveDispatch, linear: u64) -> WorkgroupInit {
    let id = wg_id(d, linear);
    let present = present(d, id);
    let shape = shape(d, linear);
    let lanes: u32 = if d.wave64 { 64 } else { 32 };
    let items = present[0] * present[1] * present[2];
    let kd = &d.kd;
    let p = &d.req.packet;
    let props = kd.kernel_code_properties;
    let rsrc2 = kd.compute_pgm_rsrc2;
    let slice = u64::from(d.scratch_per_item) * u64::from(lanes);
    let mut waves = Vec::with_capacity(shape.waves as usize);
    for w in 0..shape.waves {
        let mut s = ScalarState::new();
        let mut n = 0usize;
        let mut push = |s: &mut ScalarState, v: u32| {
            if n < 106 {
                s.sgpr[n] = v;
            }
            n += 1;
        };
        let push64 = |s: &mut ScalarState, push: &mut dyn FnMut(&mut ScalarState, u32), v: u64| {
            push(s, v as u32);
            push(s, (v >> 32) as u32);
        };
        if props.enable_sgpr_private_segment_buffer {
            for v in scratch_descriptor(p.scratch_address, d.wave64) {
                push(&mut s, v);
            }
        }
        if props.enable_sgpr_dispatch_ptr {
            push64(&mut s, &mut push, d.req.packet_address);
        }
        if props.enable_sgpr_queue_ptr {
            push64(&mut s, &mut push, 0);
        }
        if props.enable_sgpr_kernarg_segment_ptr {
            push64(&mut s, &mut push, p.kernarg_address);
        }
        if props.enable_sgpr_dispatch_id {
            push64(&mut s, &mut push, u64::from(d.req.number));
        }
        if props.enable_sgpr_flat_scratch_init {
            push64(&mut s, &mut push, p.scratch_address);
        }
        if props.enable_sgpr_private_segment_size {
            push(&mut s, d.scratch_per_item);
        }
        for (on, c) in [
            (props.enable_sgpr_grid_workgroup_count_x, d.wg_count[0]),
            (props.enable_sgpr_grid_workgroup_count_y, d.wg_count[1]),
            (props.enable_sgpr_grid_workgroup_count_z, d.wg_count[2]),
        ] {
            if on {
                push(&mut s, c);
            }
        }
        let mut k = usize::from(rsrc2.user_sgpr_count.value());
        let mut sys = |s: &mut ScalarState, v: u32| {
            if k < 106 {
                s.sgpr[k] = v;
            }
            k += 1;
        };
        for (on, v) in [
            (rsrc2.enable_sgpr_workgroup_id_x, id[0]),
            (rsrc2.enable_sgpr_workgroup_id_y, id[1]),
            (rsrc2.enable_sgpr_workgroup_id_z, id[2]),
            (
                rsrc2.enable_sgpr_workgroup_info,
                u32::from(w == 0) << 31 | (shape.waves & 0x3f),
            ),
        ] {
            if on {
                sys(&mut s, v);
            }
        }
        let slot = linear * u64::from(d.waves_per_wg) + u64::from(w);
        let offset = slot * slice;
        if rsrc2.enable_sgpr_private_segment_wave_byte_offset {
            sys(&mut s, offset as u32);
        }
        let mut vgpr = [[0u32; 64]; 3];
        let mut exec = 0u64;
        for lane in 0..lanes {
            let item = w * lanes + lane;
            if item >= items {
                break;
            }
            exec |= 1 << lane;
            let l = lane as usize;
            vgpr[0][l] = item % present[0];
            if rsrc2.enable_vgpr_workitem_id.value() > 0 {
                vgpr[1][l] = item / present[0] % present[1];
            }
            if rsrc2.enable_vgpr_workitem_id.value() > 1 {
                vgpr[2][l] = item / (present[0] * present[1]);
            }
        }
        s.sgpr[126] = exec as u32;
        s.sgpr[127] = (exec >> 32) as u32;
        s.mode = d.mode;
        waves.push(WaveInit {
            id: WaveId {
                dispatch: d.req.number,
                workgroup: id,
                wave: w,
            },
            scalar: s,
            vgpr,
            env: WaveEnv {
                target_wave64: d.wave64,
                scratch_slice: p.scratch_address.wrapping_add(offset),
                scratch_per_item: d.scratch_per_item,
                lds_bytes: d.lds_bytes,
                wave_in_group: w,
            },
        });
    }
    WorkgroupInit {
        shape,
        waves: shape.waves,
        pc: d.entry,
        wave: waves,
        subvector_hint: p.subvector_hint,
    }
}

/// The private segment buffer V# (docs/architecture.md, "Scratch"): swizzled,
/// element size 4, index stride = wave size, no range check; gfx1030 word 3 =
/// DST_SEL XYZW, FORMAT 32_FLOAT, INDEX_STRIDE, ADD_TID_ENABLE,
/// RESOURCE_LEVEL 1, OOB_SELECT 2.
pub fn scratch_descriptor(base: u64, wave64: bool) -> [u32; 4] {
    const DST_SEL_XYZW: u32 = 4 | 5 << 3 | 6 << 6 | 7 << 9;
    const FORMAT_32_FLOAT: u32 = 22 << 12;
    let index_stride: u32 = if wave64 { 3 } else { 2 };
    [
        base as u32,
        ((base >> 32) as u32 & 0xffff) | 1 << 31,
        0xffff_ffff,
        DST_SEL_XYZW | FORMAT_32_FLOAT | index_stride << 21 | 1 << 23 | 1 << 24 | 2 << 28,
    ]
}
