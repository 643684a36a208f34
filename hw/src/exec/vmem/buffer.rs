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

use super::format::{self, Format, Shape};
use super::kind::{self, Kind};
use super::{
    active_lanes, lanes_of, load, perform, push_vgpr, reg_dwords, store, take, vgpr_base,
    wave_lanes, LaneBytes, Loc, Mapping, Pieces, Regs, Target,
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
    // Typed accesses: the shape from the opcode, the format from the
    // instruction (MTBUF) or the V# (MUBUF), fetched below.
    let shape = if k == Kind::Format {
        Some(format::shape(inst.opcode).ok_or_else(|| crate::exec::unimplemented(inst))?)
    } else {
        None
    };
    // LDS DMA and store/atomic status (tfe) are not modelled.
    let tfe_ok = matches!(k, Kind::Load { .. }) || shape.is_some_and(|sh| sh.load);
    if m.lds || (m.tfe && !tfe_ok) || matches!(k, Kind::LoadAddtid | Kind::StoreAddtid) {
        return Err(crate::exec::unimplemented(inst));
    }
    let (dst_dwords, data_dwords) = match shape {
        Some(sh) if sh.load => (sh.dwords(), 0),
        Some(sh) => (0, sh.dwords()),
        None => reg_dwords(k),
    };
    let mut i = 0;
    let data_op = take(inst, &mut i)?;
    let vaddr = take(inst, &mut i)?;
    let srsrc = take(inst, &mut i)?;
    let soffset = take(inst, &mut i)?;
    let mut regs = Regs::default();
    match k {
        Kind::Format if dst_dwords > 0 => {
            let extra = usize::from(m.tfe);
            regs.vdst = Some(vgpr_base(inst, &data_op, dst_dwords + extra, v)?)
        }
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
    resolved.whole = matches!(k, Kind::Atomic { .. } | Kind::Format);
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
    match shape {
        Some(sh) => {
            let code = if inst.family == Family::Mtbuf {
                m.format
            } else {
                (rsrc[3] >> 12 & 0x7f) as u8
            };
            let f = format::format(code).ok_or_else(|| bad_format(inst, code))?;
            typed(sh, &f, v, ctx, &map, &locs, active, regs, out)?;
        }
        None => perform(inst, k, v, ctx, &map, &locs, active, regs, out)?,
    }
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

/// The fault for a format code that is not a modelled gfx1030 format.
#[cold]
fn bad_format(inst: &Instruction, code: u8) -> FaultKind {
    if (30..=43).contains(&code) {
        return crate::exec::unimplemented(inst);
    }
    FaultKind::IllegalInstruction {
        reason: format!("`{inst}`: buffer format {code} is not a valid gfx1030 format"),
    }
}

/// A typed load or store of `sh` components in format `f`.
#[allow(clippy::too_many_arguments)]
fn typed(
    sh: Shape,
    f: &Format,
    v: &Vgprs<'_>,
    ctx: &mut ExecCtx<'_>,
    map: &Mapping,
    locs: &[Loc; MAX_LANES],
    active: u64,
    regs: Regs,
    out: &mut Writes,
) -> Result<(), FaultKind> {
    let size = f.bytes();
    let count = usize::from(sh.count);
    let mut data: LaneBytes = [[0; 16]; MAX_LANES];
    if sh.load {
        out.access.op = MemOp::VectorLoad;
        let reg = regs.vdst.unwrap_or(0);
        load(ctx, map, locs, active, size, &mut data, &mut out.access)?;
        let mut values = [[0u32; MAX_LANES]; 4];
        for lane in lanes_of(active) {
            for c in 0..count {
                let x = format::unpack(f, &data[lane], c);
                if !sh.d16 {
                    values[c][lane] = x;
                    continue;
                }
                let h = u32::from(format::narrow16(f, x));
                if sh.hi {
                    values[0][lane] = v.get(reg, lane).unwrap_or(0) & 0xffff | h << 16;
                } else if c % 2 == 0 {
                    // An odd last component keeps the register's high half.
                    values[c / 2][lane] = v.get(reg + c / 2, lane).unwrap_or(0) & 0xffff_0000 | h;
                } else {
                    values[c / 2][lane] = values[c / 2][lane] & 0xffff | h << 16;
                }
            }
        }
        for (k, val) in values.iter().enumerate().take(sh.dwords()) {
            push_vgpr(out, reg + k, active, val);
        }
        return Ok(());
    }
    out.access.op = MemOp::VectorStore;
    let reg = regs.vdata.unwrap_or(0);
    let present = count.min(f.bits.iter().filter(|&&b| b > 0).count());
    let bytes = f.prefix_bytes(present);
    if bytes.is_none() {
        // A packed format stored with fewer components merges into the element.
        let mut scratch = crate::exec::MemAccess::default();
        load(ctx, map, locs, active, size, &mut data, &mut scratch)?;
    }
    let mut keep = u128::MAX;
    for c in 0..present {
        keep &= !f.mask(c);
    }
    for lane in lanes_of(active) {
        let mut e = u128::from_le_bytes(data[lane]) & if bytes.is_none() { keep } else { 0 };
        for c in 0..present {
            let x = if !sh.d16 {
                v.get(reg + c, lane).unwrap_or(0)
            } else {
                let d = v.get(reg + c / 2, lane).unwrap_or(0);
                let h = if sh.hi || c % 2 == 1 { d >> 16 } else { d };
                format::widen16(f, h as u16)
            };
            e |= format::pack(f, x, c);
        }
        data[lane] = e.to_le_bytes();
    }
    store(ctx, map, locs, active, bytes.unwrap_or(size), &data, out)
}
