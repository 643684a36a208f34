//! MUBUF and MTBUF semantics, EXEC-masked over 32 or 64 lanes.
//!
//! The buffer resource (V#, four SGPRs) gives `base` (bits 47:0), `stride`
//! (61:48), `swizzle_enable` (63), `num_records` (95:64) and, in word 3, the
//! data format, `index_stride` (22:21: 8/16/32/64 lanes), `add_tid` (23),
//! gfx803's `element_size` (20:19: 2/4/8/16 bytes; gfx1030 swizzles 4-byte
//! elements) and gfx1030's `oob_select` (29:28).
//!
//! Per lane: `index = (idxen ? VGPR[vaddr] : 0) + (add_tid ? lane : 0)`,
//! `offset = (offen ? VGPR[vaddr + idxen] : 0) + inst_offset`. Linear buffers
//! address `base + soffset + index * stride + offset`; swizzled ones (bit 63)
//! `base + soffset + (index / S * stride + offset / E * E) * S + index % S * E
//! + offset % E` with index stride S and element size E.
//!
//! Range checking is per dword of the access (a sub-dword access is one
//! unit); an out-of-range unit reads 0 and its store or atomic is dropped:
//! * gfx803 (and gfx1030 `oob_select` 0/1 with swizzling): linear or stride 0:
//!   out of range when `index * stride + offset + size > num_records - soffset`;
//!   otherwise when `index >= num_records` or `offset >= stride`.
//! * gfx1030 `oob_select`: 0 structured (`index >= num_records` or
//!   `offset + size > stride`), 1 index only, 2 only `num_records == 0`
//!   (the private segment V# uses 2, as ROCr's does: no check), 3 raw
//!   (`offset + size > num_records`, `offset` including `index * stride`).
//!
//! `buffer_*_format_*` and `tbuffer_*_format_*` with formats of 32-bit
//! components are moved raw here (a component the format lacks loads as 0, W
//! as 1); the other formats and the d16 forms convert in
//! [`buffer_format`]; loads with `tfe` in
//! [`tfe`]. Not implemented: the `lds` bit (LDS DMA),
//! `buffer_store_lds_dword`, `tfe` on stores and atomics.

pub mod buffer_format;
pub mod tfe;

use arch::device::Fault;
use arch::isa::{Family, Instruction, Isa, Opcode, Operand};

use super::vmem::access::{classify, Access};
use super::vmem::format::{self, Format32};
use super::vmem::{lanes, perform, perform_global, Load, Loc, Operands, Regs, Store};
use super::{each, illegal, not_implemented, Flow, Wave, WaveCtx};

/// A decoded buffer resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferResource {
    /// Base address.
    pub base: u64,
    /// Record stride in bytes.
    pub stride: u64,
    /// Number of records (bytes when the stride is 0 or the buffer is linear).
    pub num_records: u64,
    /// Swizzled addressing.
    pub swizzle: bool,
    /// Add the lane number to the index.
    pub add_tid: bool,
    /// Swizzle index stride in lanes.
    pub index_stride: u64,
    /// Swizzle element size in bytes.
    pub element: u64,
    /// gfx1030 out-of-bounds select; `None` on gfx803.
    pub oob_select: Option<u8>,
    /// Format in the MTBUF field's encoding (see [`format`](mod@format)).
    pub format: u8,
}

impl BufferResource {
    /// Decodes the four V# dwords.
    pub fn decode(isa: Isa, v: [u32; 4]) -> BufferResource {
        let w3 = v[3];
        BufferResource {
            base: u64::from(v[0]) | u64::from(v[1] & 0xffff) << 32,
            stride: u64::from(v[1] >> 16 & 0x3fff),
            num_records: u64::from(v[2]),
            swizzle: v[1] >> 31 != 0,
            add_tid: w3 >> 23 & 1 != 0,
            index_stride: 8 << (w3 >> 21 & 3),
            element: match isa {
                Isa::Gfx803 => 2 << (w3 >> 19 & 3),
                Isa::Gfx1030 => 4,
            },
            oob_select: match isa {
                Isa::Gfx803 => None,
                Isa::Gfx1030 => Some((w3 >> 28 & 3) as u8),
            },
            format: match isa {
                // DATA_FORMAT[18:15], NUM_FORMAT[14:12] -> dfmt | nfmt << 4.
                Isa::Gfx803 => ((w3 >> 15 & 0xf) | (w3 >> 12 & 7) << 4) as u8,
                Isa::Gfx1030 => (w3 >> 12 & 0x7f) as u8,
            },
        }
    }

    /// Byte offset from `base + soffset` of byte `offset` of record `index`.
    #[inline(always)]
    pub fn buffer_offset(&self, index: u64, offset: u64) -> u64 {
        if self.swizzle {
            let (s, e) = (self.index_stride, self.element);
            if !(s.is_power_of_two() && e.is_power_of_two()) {
                return ((index / s) * self.stride + (offset / e) * e) * s
                    + (index % s) * e
                    + offset % e;
            }
            // `decode` always gives powers of two: shifts and masks, the same
            // values without 64-bit divisions (this runs per lane and byte run).
            self.swizzled_offset(index, offset, s.trailing_zeros(), e.trailing_zeros())
        } else {
            index * self.stride + offset
        }
    }

    /// [`BufferResource::buffer_offset`] of a swizzled resource whose index
    /// stride and element size are `1 << ls` and `1 << le` (the caller has
    /// checked: a lane loop works the shifts out once).
    #[inline(always)]
    pub fn swizzled_offset(&self, index: u64, offset: u64, ls: u32, le: u32) -> u64 {
        let (s, e) = (self.index_stride, self.element);
        ((index >> ls) * self.stride + ((offset >> le) << le)) * s
            + (index & (s - 1)) * e
            + (offset & (e - 1))
    }

    /// [`BufferResource::out_of_range`] when it does not depend on the index
    /// and offset (gfx1030 OOB_SELECT 2: only an empty buffer is out of
    /// range), so a lane loop can decide it once.
    #[inline(always)]
    pub fn range_fixed(&self) -> Option<bool> {
        match self.oob_select {
            Some(2) => Some(self.num_records == 0),
            _ => None,
        }
    }

    /// True when the `size`-byte unit at (`index`, `offset`) is out of range.
    #[inline(always)]
    pub fn out_of_range(&self, index: u64, offset: u64, size: u64, soffset: u64) -> bool {
        let n = self.num_records;
        let linear = index * self.stride + offset;
        match self.oob_select {
            Some(0) => index >= n || offset + size > self.stride,
            Some(1) => index >= n,
            Some(2) => n == 0,
            Some(_) => linear + size > n,
            None if self.stride == 0 || !self.swizzle => linear + size > n.saturating_sub(soffset),
            None => index >= n || offset >= self.stride,
        }
    }
}

/// Executes one MUBUF or MTBUF instruction.
pub fn execute(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    use Opcode::*;
    let m = &inst.modifiers;
    let (access, fmt) = match inst.opcode {
        BUFFER_WBINVL1 | BUFFER_WBINVL1_VOL | BUFFER_GL0_INV | BUFFER_GL1_INV => {
            return Ok(Flow::Next)
        }
        _ if m.lds => return Err(not_implemented(inst)),
        _ if m.tfe => return tfe::execute(ctx, inst),
        op => match (classify(op), format_op(op)) {
            (Some(a), _) => (a, None),
            (None, Some((load, n))) => (
                if load {
                    Access::Load(Load::Dwords(n))
                } else {
                    Access::Store(Store::Dwords(n))
                },
                Some(n),
            ),
            // d16 typed forms (and the not-implemented LDS DMA ones).
            _ => return buffer_format::execute(ctx, inst),
        },
    };
    let w = &*ctx.wave;
    let isa = w.target.isa;
    let ops = inst.operands();
    let op = |i: usize| {
        ops.get(i)
            .ok_or_else(|| illegal(format!("{inst}: operand {i} is missing")))
    };
    let (vdata, vaddr, srsrc, soffset) = (op(0)?, op(1)?, op(2)?, op(3)?);
    let rsrc = BufferResource::decode(isa, read_quad(w, srsrc, inst)?);
    let soffset = u64::from(w.read_scalar(soffset)?);
    // A typed access moves the components its format has (up to the instruction's).
    let mut format = None;
    let mut access = access;
    if let Some(n) = fmt {
        let code = if inst.family == Family::Mtbuf {
            m.format
        } else {
            rsrc.format
        };
        let Some(f) = format::decode(isa, code) else {
            // Formats with other than 32-bit components convert: elsewhere.
            return buffer_format::execute(ctx, inst);
        };
        let moved = n.min(f.components);
        access = match access {
            Access::Load(_) => Access::Load(Load::Dwords(moved)),
            _ => Access::Store(Store::Dwords(moved)),
        };
        format = Some((f, n));
    }
    let data = Regs::of(w, vdata)?;
    let operands = match access {
        Access::Load(_) => Operands {
            dst: Some(data),
            data: None,
        },
        Access::Store(_) => Operands {
            dst: None,
            data: Some(data),
        },
        Access::Atomic(..) => Operands {
            dst: m.glc.then(|| data.with_count(access.bytes() / 4)),
            data: Some(data),
        },
    };
    let vaddr = match vaddr {
        Operand::Src { .. } => Some(Regs::of(w, vaddr)?),
        _ => None,
    };
    let exec = w.exec();
    let inst_offset = u64::from(m.offset as u32 & 0xfff);
    let mut index = [0u64; 64];
    let mut offset = [0u64; 64];
    // The first two address registers, as `Regs::get` reads them (0 beyond
    // the operand's registers), looked up once rather than per lane.
    let vreg = |i: usize| {
        vaddr
            .filter(|r| r.count > i)
            .map(|r| &w.vgpr[usize::from(r.first) + i])
    };
    let (v0, v1) = (vreg(0), vreg(1));
    each(
        exec,
        #[inline(always)]
        |lane| {
            let v = [v0.map_or(0, |r| r[lane]), v1.map_or(0, |r| r[lane])];
            let (vi, vo) = match (m.idxen, m.offen) {
                (true, true) => (v[0], v[1]),
                (true, false) => (v[0], 0),
                (false, true) => (0, v[0]),
                (false, false) => (0, 0),
            };
            index[lane] = u64::from(vi) + if rsrc.add_tid { lane as u64 } else { 0 };
            // The offset sum is a 32-bit quantity: a negative VGPR offset wraps far
            // out of range (gfx803 range-checks it, as LLVM's piglit notes).
            offset[lane] = u64::from(vo.wrapping_add(inst_offset as u32));
        },
    );
    // Range units: dwords for dword accesses, the whole value below a dword.
    let unit: u64 = match access {
        Access::Load(Load::Dwords(_)) | Access::Store(Store::Dwords(_)) => 4,
        Access::Atomic(..) => access.bytes() as u64,
        _ => access.bytes() as u64,
    };
    if !direct(
        ctx,
        access,
        operands,
        exec,
        (&rsrc, soffset, unit),
        (&index, &offset),
    )? {
        perform(ctx, access, operands, exec, 0, |lane, delta| {
            let unit_start = delta - delta % unit;
            let o = offset[lane] + unit_start;
            if rsrc.out_of_range(index[lane], o, unit, soffset) {
                return (Loc::Skip, unit - delta % unit);
            }
            let at = offset[lane] + delta;
            let address = rsrc
                .base
                .wrapping_add(soffset)
                .wrapping_add(rsrc.buffer_offset(index[lane], at));
            let run = if rsrc.swizzle {
                rsrc.element - at % rsrc.element
            } else {
                unit - delta % unit
            };
            (Loc::Global(address), run.min(unit - delta % unit))
        })?;
    }
    if let (Some((f, n)), Access::Load(Load::Dwords(moved))) = (format, access) {
        fill_missing(ctx.wave, data, f, moved, n, exec);
    }
    Ok(Flow::Next)
}

/// The direct page path of [`perform`] for a MUBUF access, with its
/// resolver's byte-0 case inlined: when every EXEC lane's access is one
/// in-range contiguous device range, [`perform_global`] moves the data and
/// this returns `true`; otherwise nothing has changed and the caller runs
/// [`perform`] (whose own check then fails the same way, so the semantics
/// are `perform`'s).
fn direct(
    ctx: &mut WaveCtx<'_>,
    access: Access,
    ops: Operands,
    exec: u64,
    (rsrc, soffset, unit): (&BufferResource, u64, u64),
    (index, offset): (&[u64; 64], &[u64; 64]),
) -> Result<bool, Fault> {
    if !ctx.mem.fast_paths() || matches!(access, Access::Atomic(..)) {
        return Ok(false);
    }
    let n = access.bytes() as u64;
    let base = rsrc.base.wrapping_add(soffset);
    let e = rsrc.element;
    let fixed = rsrc.range_fixed();
    if fixed == Some(true) {
        // Every lane out of range: `perform` skips them.
        return Ok(false);
    }
    // The common swizzled layout with power-of-two sizes: shifts worked out once.
    let shifts = (rsrc.swizzle && rsrc.index_stride.is_power_of_two() && e.is_power_of_two())
        .then(|| (rsrc.index_stride.trailing_zeros(), e.trailing_zeros()));
    let mut addr = [0u64; 64];
    let mut contiguous = true;
    each(
        exec,
        #[inline(always)]
        |lane| {
            // `perform`'s resolver at byte 0 (unit_start 0, run from the element).
            let (i, o) = (index[lane], offset[lane]);
            if fixed.is_none() && rsrc.out_of_range(i, o, unit, soffset) {
                contiguous = false;
                return;
            }
            let (run, at) = match shifts {
                Some((ls, le)) => (e - (o & (e - 1)), rsrc.swizzled_offset(i, o, ls, le)),
                None if rsrc.swizzle => (e - o % e, rsrc.buffer_offset(i, o)),
                None => (unit, rsrc.buffer_offset(i, o)),
            };
            if run.min(unit) >= n {
                addr[lane] = base.wrapping_add(at);
            } else {
                contiguous = false;
            }
        },
    );
    Ok(contiguous && perform_global(ctx, access, ops, exec, &addr)?)
}

/// Loads of a format with fewer components than the instruction: the rest
/// get AMD's defaults (0, 0, 0, 1).
fn fill_missing(w: &mut Wave, data: Regs, f: Format32, moved: u8, n: u8, exec: u64) {
    for lane in lanes(exec) {
        for i in usize::from(moved)..usize::from(n).min(data.count) {
            w.vgpr[usize::from(data.first) + i][lane] = f.default_component(i);
        }
    }
}

/// The typed (`*_format_*`) loads and stores: (is a load, components).
fn format_op(op: Opcode) -> Option<(bool, u8)> {
    use Opcode::*;
    Some(match op {
        BUFFER_LOAD_FORMAT_X | TBUFFER_LOAD_FORMAT_X => (true, 1),
        BUFFER_LOAD_FORMAT_XY | TBUFFER_LOAD_FORMAT_XY => (true, 2),
        BUFFER_LOAD_FORMAT_XYZ | TBUFFER_LOAD_FORMAT_XYZ => (true, 3),
        BUFFER_LOAD_FORMAT_XYZW | TBUFFER_LOAD_FORMAT_XYZW => (true, 4),
        BUFFER_STORE_FORMAT_X | TBUFFER_STORE_FORMAT_X => (false, 1),
        BUFFER_STORE_FORMAT_XY | TBUFFER_STORE_FORMAT_XY => (false, 2),
        BUFFER_STORE_FORMAT_XYZ | TBUFFER_STORE_FORMAT_XYZ => (false, 3),
        BUFFER_STORE_FORMAT_XYZW | TBUFFER_STORE_FORMAT_XYZW => (false, 4),
        _ => return None,
    })
}

/// The four SGPRs of a buffer resource operand.
fn read_quad(w: &Wave, op: &Operand, inst: &Instruction) -> Result<[u32; 4], Fault> {
    let Operand::Src { code, .. } = *op else {
        return Err(illegal(format!(
            "{inst}: the buffer resource is not a register quad"
        )));
    };
    let i = usize::from(code);
    match w.sgpr.get(i..i + 4) {
        Some(s) if i + 4 <= 128 => Ok([s[0], s[1], s[2], s[3]]),
        _ => Err(illegal(format!(
            "{inst}: the buffer resource runs past the scalar file"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_fields_and_range_rules() {
        // base 0x1234_5678_9abc, stride 16, swizzle, 100 records, add_tid, index stride 64, element 4.
        let v = [
            0x5678_9abc,
            0x1234 | 16 << 16 | 1 << 31,
            100,
            1 << 23 | 3 << 21 | 1 << 19,
        ];
        let r = BufferResource::decode(Isa::Gfx803, v);
        assert_eq!(r.base, 0x1234_5678_9abc);
        assert_eq!(
            (r.stride, r.num_records, r.swizzle, r.add_tid),
            (16, 100, true, true)
        );
        assert_eq!((r.index_stride, r.element), (64, 4));
        assert!(r.out_of_range(100, 0, 4, 0));
        assert!(r.out_of_range(3, 16, 4, 0));
        assert!(!r.out_of_range(3, 12, 4, 0));
        // Raw buffer: num_records bytes, soffset counts against it.
        let raw = BufferResource::decode(Isa::Gfx803, [0, 0, 16, 0]);
        assert!(!raw.out_of_range(0, 12, 4, 0));
        assert!(raw.out_of_range(0, 12, 4, 4));
        assert!(raw.out_of_range(0, 14, 4, 0));
        // gfx1030 oob_select 2: unchecked unless num_records is 0.
        let g = BufferResource::decode(Isa::Gfx1030, [0, 1 << 31, 8, 2 << 28]);
        assert!(!g.out_of_range(0, 1 << 20, 4, 0));
        // Element 1 of index 5: one row of 8 four-byte elements, then 5 elements, byte 2.
        assert_eq!(g.buffer_offset(5, 6), 4 * 8 + 5 * 4 + 2);
    }
}
