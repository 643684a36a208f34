//! MUBUF and MTBUF: the buffer resource (V#), address formation and range
//! checks (gfx1030).
//!
//! ```text
//! V# dword 0  base[31:0]
//!    dword 1  base[47:32] [15:0]  stride [29:16]  cache_swizzle [30]  swizzle_enable [31]
//!    dword 2  num_records
//!    dword 3  dst_sel [11:0]  format [18:12]  index_stride [22:21]  add_tid_enable [23]
//!             resource_level [24]  oob_select [29:28]  type [31:30]
//! ```
//!
//! `index = (idxen ? VGPR : 0) + (add_tid ? lane : 0)`, `offset = (offen ? VGPR
//! : 0) + inst_offset`. Linear: `base + soffset + offset + stride · index`.
//! Swizzled (element size 4 on gfx1030, index stride 8 << code):
//! `base + soffset + (index / IS · stride + offset / 4 · 4) · IS + index % IS · 4
//! + offset % 4`. soffset is neither range-checked nor swizzled.
//!
//! Range checks by OOB_SELECT: 0 `index < num_records && offset + bytes <=
//! stride`, 1 `index < num_records`, 2 `num_records != 0`, 3 (raw) `stride ·
//! index + offset + bytes <= num_records`. Multi-dword loads and stores check
//! each dword; atomics check the whole element. Out of range: loads read 0,
//! stores and atomics do nothing (an atomic returns 0).

use arch::device::FaultKind;
use arch::isa::{Family, Instruction, Operand};

use super::kind::{self, Kind};
use super::{
    active_lanes, lanes_of, perform, reg_dwords, take, vgpr_base, wave_lanes, Loc, Mapping, Pieces,
    Regs, Target,
};
use crate::exec::operand;
use crate::exec::{ExecCtx, MemOp, ScalarState, VgprWrite, Vgprs, Writes, MAX_LANES};

/// A decoded V# plus the instruction's soffset: everything address formation
/// needs once the per-lane offset and index are known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Resolved {
    /// V# base + soffset.
    pub base: u64,
    /// Record stride in bytes.
    pub stride: u32,
    /// NUM_RECORDS.
    pub num_records: u32,
    /// SWIZZLE_ENABLE.
    pub swizzle: bool,
    /// Lanes per swizzle block (8, 16, 32 or 64).
    pub index_stride: u32,
    /// OOB_SELECT.
    pub oob: u8,
    /// Range-check the access as one unit (atomics, formats).
    pub whole: bool,
}

impl Resolved {
    /// Decodes V# `r` with `soffset`.
    pub(super) fn new(r: [u32; 4], soffset: u32) -> Resolved {
        let base = u64::from(r[0]) | u64::from(r[1] & 0xffff) << 32;
        Resolved {
            base: base.wrapping_add(u64::from(soffset)),
            stride: r[1] >> 16 & 0x3fff,
            num_records: r[2],
            swizzle: r[1] >> 31 != 0,
            index_stride: 8 << (r[3] >> 21 & 3),
            oob: (r[3] >> 28 & 3) as u8,
            whole: false,
        }
    }

    /// True when `bytes` at buffer offset `offset` of record `index` are in range.
    #[inline]
    fn in_range(&self, offset: u64, bytes: u64, index: u32) -> bool {
        let n = u64::from(self.num_records);
        match self.oob {
            0 => index < self.num_records && offset + bytes <= u64::from(self.stride),
            1 => index < self.num_records,
            2 => self.num_records != 0,
            _ => u64::from(self.stride) * u64::from(index) + offset + bytes <= n,
        }
    }

    /// The device address of buffer byte `offset` of record `index`.
    #[inline]
    fn address(&self, offset: u64, index: u32) -> u64 {
        let stride = u64::from(self.stride);
        let rel = if self.swizzle {
            let is = u64::from(self.index_stride);
            let index = u64::from(index);
            (index / is * stride + offset / 4 * 4) * is + index % is * 4 + offset % 4
        } else {
            offset + stride * u64::from(index)
        };
        self.base.wrapping_add(rel)
    }

    /// Splits a `size`-byte access into dword pieces (merged when contiguous).
    pub(super) fn split(&self, offset: u32, index: u32, size: u32, p: &mut Pieces) {
        let offset = u64::from(offset);
        let whole_ok = self.in_range(offset, u64::from(size), index);
        let mut k = 0u32;
        while k < size {
            let o = offset + u64::from(k);
            let len = (4 - (o % 4) as u32).min(size - k);
            let ok = if self.whole {
                whole_ok
            } else {
                self.in_range(o, u64::from(len), index)
            };
            let t = if ok {
                Target::Global(self.address(o, index))
            } else {
                Target::Nowhere
            };
            p.push(k as u8, len as u8, t);
            k += len;
        }
    }
}

/// Executes a MUBUF or MTBUF instruction.
pub(super) fn execute(
    inst: &Instruction,
    s: &ScalarState,
    v: &Vgprs<'_>,
    ctx: &mut ExecCtx<'_>,
    out: &mut Writes,
) -> Result<(), FaultKind> {
    let k = if inst.family == Family::Mtbuf {
        Kind::Format
    } else {
        kind::kind(inst.opcode).ok_or_else(|| crate::exec::unimplemented(inst))?
    };
    let m = &inst.modifiers;
    if k == Kind::CacheControl {
        out.access.op = MemOp::CacheControl;
        return Ok(());
    }
    // LDS DMA, store/atomic status (tfe) and typed accesses are not modelled.
    let tfe_ok = matches!(k, Kind::Load { .. });
    if m.lds
        || (m.tfe && !tfe_ok)
        || matches!(k, Kind::Format | Kind::LoadAddtid | Kind::StoreAddtid)
    {
        return Err(crate::exec::unimplemented(inst));
    }
    let (dst_dwords, data_dwords) = reg_dwords(k);
    let mut i = 0;
    let data_op = take(inst, &mut i)?;
    let vaddr = take(inst, &mut i)?;
    let srsrc = take(inst, &mut i)?;
    let soffset = take(inst, &mut i)?;
    let mut regs = Regs::default();
    match k {
        Kind::Load { .. } => {
            let extra = usize::from(m.tfe);
            regs.vdst = Some(vgpr_base(inst, &data_op, dst_dwords + extra, v)?)
        }
        Kind::Atomic { .. } => {
            let reg = vgpr_base(inst, &data_op, data_dwords, v)?;
            regs.vdata = Some(reg);
            // A returning atomic writes the pre-op value over the start of vdata.
            regs.vdst = m.glc.then_some(reg);
        }
        _ => regs.vdata = Some(vgpr_base(inst, &data_op, data_dwords, v)?),
    }
    let rsrc_code = match srsrc {
        Operand::Src { code, .. } if code < 128 => code,
        _ => return Err(super::malformed(inst)),
    };
    let rsrc = operand::sgpr_range::<4>(rsrc_code, s)?;
    let soff = operand::scalar(&soffset, s, v)? as u32;
    let mut resolved = Resolved::new(rsrc, soff);
    resolved.whole = matches!(k, Kind::Atomic { .. });
    let add_tid = rsrc[3] >> 23 & 1 != 0;

    let active = active_lanes(s, v);
    let (idx, off) = match (m.idxen, m.offen) {
        (false, false) => ([0; MAX_LANES], [0; MAX_LANES]),
        (true, false) => (operand::vector_dword(&vaddr, 0, s, v)?, [0; MAX_LANES]),
        (false, true) => ([0; MAX_LANES], operand::vector_dword(&vaddr, 0, s, v)?),
        (true, true) => (
            operand::vector_dword(&vaddr, 0, s, v)?,
            operand::vector_dword(&vaddr, 1, s, v)?,
        ),
    };
    let mut locs = [Loc::Global(0); MAX_LANES];
    for lane in lanes_of(active) {
        let tid = if add_tid { lane as u32 } else { 0 };
        locs[lane] = Loc::Buffer {
            offset: off[lane].wrapping_add(m.offset as u32),
            index: idx[lane].wrapping_add(tid),
        };
    }
    let map = Mapping {
        scratch_base: 0,
        lanes: u64::from(wave_lanes(v)),
        buffer: resolved,
    };
    perform(inst, k, v, ctx, &map, &locs, active, regs, out)?;
    if m.tfe {
        // The status dword after the data: no access here can texture-fault.
        if let Some(reg) = regs.vdst {
            out.vgpr.push(VgprWrite {
                reg: (reg + dst_dwords) as u16,
                mask: active,
                values: [0; MAX_LANES],
            });
        }
    }
    Ok(())
}
