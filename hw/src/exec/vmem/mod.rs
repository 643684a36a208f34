//! Vector memory and LDS instructions: GLOBAL, FLAT, SCRATCH, MUBUF, MTBUF and
//! DS. The functional effect happens at issue: device memory and LDS are read
//! and written now, loaded values become [`VgprWrite`]s, every byte written is
//! recorded in [`Writes::memory`] and the per-lane accesses in [`MemAccess`].
//!
//! ```text
//! execute ─┬─ flat.rs    FLAT (apertures), GLOBAL (saddr / 64-bit vaddr), SCRATCH (swizzled)
//!          ├─ buffer.rs  MUBUF / MTBUF: V# decode, linear and swizzled addressing, range checks
//!          ├─ ds.rs      DS: LDS reads, writes, two-address forms, atomics, lane permutes
//!          │
//!          │  shared: kind.rs (what an opcode does), atomic.rs (atomic arithmetic), and here
//!          └─ the access engine: a lane's access (`Loc`) is split into contiguous `Piece`s
//!             (device bytes, LDS bytes, or out-of-range), which are read, checked, written
//! ```
//!
//! A device access touching an unmapped byte is a `MemoryViolation` naming the
//! first such byte; stores and atomics check every lane before writing any, so
//! a faulting instruction leaves memory as it was.

use arch::device::{FaultKind, SHARED_APERTURE_BASE};
use arch::isa::{Family, Instruction, Operand};

use super::operand::{self, masked};
use super::{
    ExecCtx, MemAccess, MemSpace, MemWrite, ScalarState, VgprWrite, Vgprs, Writes, MAX_LANES,
};

mod atomic;
mod buffer;
mod ds;
mod flat;
mod format;
mod kind;

#[cfg(test)]
mod tests;

use atomic::AtomicOp;
use kind::Ext;

/// Executes one vmem instruction (DS, FLAT, GLOBAL, SCRATCH, MUBUF, MTBUF).
pub fn execute(
    inst: &Instruction,
    s: &ScalarState,
    v: Vgprs<'_>,
    ctx: &mut ExecCtx<'_>,
    out: &mut Writes,
) -> Result<(), FaultKind> {
    match inst.family {
        Family::Ds => ds::execute(inst, s, &v, ctx, out),
        Family::Flat | Family::Global | Family::Scratch => flat::execute(inst, s, &v, ctx, out),
        Family::Mubuf | Family::Mtbuf => buffer::execute(inst, s, &v, ctx, out),
        _ => Err(super::unimplemented(inst)),
    }
}

/// The lanes that access memory: EXEC limited to the wave's lanes.
#[inline]
fn active_lanes(s: &ScalarState, v: &Vgprs<'_>) -> u64 {
    masked(s.exec(), v.wave64)
}

/// Lanes per wave.
#[inline]
fn wave_lanes(v: &Vgprs<'_>) -> u32 {
    if v.wave64 {
        64
    } else {
        32
    }
}

/// Iterates the set bits of `mask` in increasing order.
#[inline]
fn lanes_of(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let l = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(l)
    })
}

/// The fault for an instruction whose operand list does not have the shape
/// its opcode requires (a malformed `Instruction` built by hand).
#[cold]
fn malformed(inst: &Instruction) -> FaultKind {
    FaultKind::IllegalInstruction {
        reason: format!("`{inst}` does not have the operands its opcode requires"),
    }
}

/// The operand at `*i`, advancing `i`.
#[inline]
fn take(inst: &Instruction, i: &mut usize) -> Result<Operand, FaultKind> {
    let op = inst
        .operands()
        .get(*i)
        .copied()
        .ok_or_else(|| malformed(inst))?;
    *i += 1;
    Ok(op)
}

/// The first register of a VGPR operand spanning `dwords` registers, checked
/// against the wave's allocation.
fn vgpr_base(
    inst: &Instruction,
    op: &Operand,
    dwords: usize,
    v: &Vgprs<'_>,
) -> Result<usize, FaultKind> {
    let reg = usize::from(operand::vgpr_index(op).ok_or_else(|| malformed(inst))?);
    if reg + dwords > v.count() {
        return Err(operand::vgpr_out_of_range(reg + dwords - 1, v));
    }
    Ok(reg)
}

/// Per-lane bytes of one access (at most 16).
type LaneBytes = [[u8; 16]; MAX_LANES];

/// Reads `dwords` registers from `reg` into each active lane's bytes.
fn gather(v: &Vgprs<'_>, reg: usize, dwords: usize, active: u64, out: &mut LaneBytes) {
    for lane in lanes_of(active) {
        for k in 0..dwords {
            let d = v.get(reg + k, lane).unwrap_or(0);
            out[lane][4 * k..4 * k + 4].copy_from_slice(&d.to_le_bytes());
        }
    }
}

/// Pushes one VGPR write of `values` to the lanes in `mask`.
#[inline]
fn push_vgpr(out: &mut Writes, reg: usize, mask: u64, values: &[u32; MAX_LANES]) {
    out.vgpr.push(VgprWrite {
        reg: reg as u16,
        mask,
        values: *values,
    });
}

/// Writes loaded bytes to `dwords` registers from `reg`.
fn scatter(out: &mut Writes, reg: usize, dwords: usize, active: u64, data: &LaneBytes) {
    let mut values = [0u32; MAX_LANES];
    for k in 0..dwords {
        for lane in lanes_of(active) {
            let b = &data[lane][4 * k..4 * k + 4];
            values[lane] = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        push_vgpr(out, reg + k, active, &values);
    }
}

/// The destination dword of a 1- or 2-byte load of `raw` under `ext`, given
/// the register's value before the load (kept half of d16 forms).
#[inline]
fn extend(ext: Ext, bytes: u8, raw: u32, prev: u32) -> u32 {
    let sext = |x: u32| {
        if bytes == 1 {
            x as u8 as i8 as i32 as u32
        } else {
            x as u16 as i16 as i32 as u32
        }
    };
    match ext {
        Ext::Zero => raw,
        Ext::Sign => sext(raw),
        Ext::Lo16 { sign } => {
            let lo = if sign { sext(raw) } else { raw } & 0xffff;
            (prev & 0xffff_0000) | lo
        }
        Ext::Hi16 { sign } => {
            let hi = if sign { sext(raw) } else { raw } & 0xffff;
            (prev & 0xffff) | hi << 16
        }
    }
}

/// Where one lane's access goes, before it is split into pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Loc {
    /// A device address.
    Global(u64),
    /// An LDS byte offset (through the FLAT shared aperture).
    Lds(u32),
    /// A byte offset in the lane's private memory (SCRATCH, FLAT private aperture).
    Private(u32),
    /// A buffer access: byte offset (VGPR + instruction offset) and record index.
    Buffer {
        /// Offset, range-checked and swizzled.
        offset: u32,
        /// Record index (VGPR index + thread id).
        index: u32,
    },
}

/// A contiguous part of an access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// Device memory.
    Global(u64),
    /// LDS offset (may lie beyond the allocation: reads 0, writes dropped).
    Lds(u32),
    /// Outside a buffer's range: reads 0, writes dropped, no memory traffic.
    Nowhere,
}

/// An access split into at most 8 pieces: `(first byte of the lane's data,
/// bytes, target)`.
#[derive(Clone, Copy)]
struct Pieces {
    n: usize,
    at: [(u8, u8, Target); 8],
}

impl Pieces {
    #[inline(always)]
    fn new() -> Pieces {
        Pieces {
            n: 0,
            at: [(0, 0, Target::Nowhere); 8],
        }
    }

    /// Appends a piece, merging it into the last one when contiguous.
    #[inline]
    fn push(&mut self, start: u8, len: u8, t: Target) {
        if self.n > 0 {
            let (s0, l0, t0) = self.at[self.n - 1];
            let merged = match (t0, t) {
                (Target::Global(a), Target::Global(b)) => Some(a.wrapping_add(u64::from(l0)) == b),
                (Target::Nowhere, Target::Nowhere) => Some(true),
                _ => None,
            };
            if merged == Some(true) && s0 + l0 == start {
                self.at[self.n - 1].1 += len;
                return;
            }
        }
        self.at[self.n] = (start, len, t);
        self.n += 1;
    }
}

/// How [`Loc`]s become device addresses for one instruction.
#[derive(Clone, Copy, Debug, Default)]
struct Mapping {
    /// FLAT_SCRATCH: the wave's private slice.
    scratch_base: u64,
    /// Lanes per wave (the private interleave).
    lanes: u64,
    /// The buffer resource and soffset, for [`Loc::Buffer`].
    buffer: buffer::Resolved,
}

impl Mapping {
    /// Splits a `size`-byte access of `lane` at `loc` into pieces.
    #[inline(always)]
    fn split(&self, loc: Loc, lane: usize, size: u32) -> Split {
        match loc {
            // One piece, without the array of pieces: building that (a copy
            // of its initial value per lane) took 7% of a memory-bound run.
            Loc::Global(a) => Split::One(size as u8, Target::Global(a)),
            Loc::Lds(o) => Split::One(size as u8, Target::Lds(o)),
            Loc::Private(o) => {
                // Private memory is interleaved dword by dword across the
                // wave's lanes, so each private dword is its own piece.
                let mut p = Pieces::new();
                let mut k = 0u32;
                while k < size {
                    let po = o.wrapping_add(k);
                    let len = (4 - po % 4).min(size - k);
                    let a = self.scratch_base.wrapping_add(
                        u64::from(po / 4) * 4 * self.lanes + 4 * lane as u64 + u64::from(po % 4),
                    );
                    p.push(k as u8, len as u8, Target::Global(a));
                    k += len;
                }
                Split::Many(p)
            }
            Loc::Buffer { offset, index } => {
                let mut p = Pieces::new();
                self.buffer.split(offset, index, size, &mut p);
                Split::Many(p)
            }
        }
    }
}

/// An access as pieces: the whole access at one target (global and LDS
/// addresses), or several.
enum Split {
    One(u8, Target),
    Many(Pieces),
}

impl Split {
    #[inline]
    fn iter(&self) -> impl Iterator<Item = (u8, u8, Target)> + '_ {
        let (one, many) = match self {
            Split::One(len, t) => (Some((0, *len, *t)), &[][..]),
            Split::Many(p) => (None, &p.at[..p.n]),
        };
        one.into_iter().chain(many.iter().copied())
    }
}

/// Usable LDS bytes: the workgroup's allocation.
#[inline]
fn lds_len(ctx: &ExecCtx<'_>) -> usize {
    (ctx.env.lds_bytes as usize).min(ctx.lds.len())
}

/// The access-record address of a piece (`None` for out-of-range buffer
/// pieces, which cause no memory traffic). LDS reached through a FLAT
/// address is recorded by its aperture address so the timing model can tell
/// it from device memory.
#[inline]
fn record_address(t: Target) -> Option<u64> {
    match t {
        Target::Global(a) => Some(a),
        Target::Lds(o) => Some(SHARED_APERTURE_BASE + u64::from(o)),
        Target::Nowhere => None,
    }
}

/// Reads one piece.
fn read_piece(
    ctx: &mut ExecCtx<'_>,
    t: Target,
    buf: &mut [u8],
    write: bool,
) -> Result<(), FaultKind> {
    match t {
        Target::Global(a) => ctx
            .memory
            .read(a, buf)
            .map_err(|address| FaultKind::MemoryViolation { address, write }),
        Target::Lds(o) => {
            let o = o as usize;
            match ctx.lds.get(o..o + buf.len()) {
                Some(src) if o + buf.len() <= lds_len(ctx) => buf.copy_from_slice(src),
                _ => {
                    buf.fill(0);
                    let first = o.max(lds_len(ctx)) as u64;
                    ctx.note_lds_outside(first, write);
                }
            }
            Ok(())
        }
        Target::Nowhere => {
            buf.fill(0);
            Ok(())
        }
    }
}

/// Writes one piece (already checked to be mapped) and records it.
fn write_piece(ctx: &mut ExecCtx<'_>, t: Target, data: &[u8], out: &mut Writes) {
    let (address, space) = match t {
        Target::Global(a) => {
            // Checked before the first write of the instruction.
            if ctx.memory.write(a, data).is_err() {
                return;
            }
            (a, MemSpace::Global)
        }
        Target::Lds(o) => {
            let end = o as usize + data.len();
            if end > lds_len(ctx) {
                let first = (o as usize).max(lds_len(ctx)) as u64;
                ctx.note_lds_outside(first, true);
                return;
            }
            ctx.lds[o as usize..end].copy_from_slice(data);
            (u64::from(o), MemSpace::Lds)
        }
        Target::Nowhere => return,
    };
    let mut w = MemWrite {
        address,
        len: data.len() as u8,
        data: [0; 16],
        space,
    };
    w.data[..data.len()].copy_from_slice(data);
    out.memory.push(w);
}

/// Checks that every device piece of every active lane is mapped (so that a
/// store or atomic that faults writes nothing).
fn probe(
    ctx: &mut ExecCtx<'_>,
    map: &Mapping,
    locs: &[Loc; MAX_LANES],
    active: u64,
    size: u32,
) -> Result<(), FaultKind> {
    for lane in lanes_of(active) {
        for (_, len, t) in map.split(locs[lane], lane, size).iter() {
            if let Target::Global(a) = t {
                ctx.memory
                    .check_mapped(a, usize::from(len))
                    .map_err(|address| FaultKind::MemoryViolation {
                        address,
                        write: true,
                    })?;
            }
        }
    }
    Ok(())
}

/// Loads `size` bytes per active lane into `data`, recording the accesses.
fn load(
    ctx: &mut ExecCtx<'_>,
    map: &Mapping,
    locs: &[Loc; MAX_LANES],
    active: u64,
    size: u32,
    data: &mut LaneBytes,
    access: &mut MemAccess,
) -> Result<(), FaultKind> {
    for lane in lanes_of(active) {
        for (start, len, t) in map.split(locs[lane], lane, size).iter() {
            let (s, l) = (usize::from(start), usize::from(len));
            read_piece(ctx, t, &mut data[lane][s..s + l], false)?;
            if let Some(a) = record_address(t) {
                access.lanes.push((lane as u8, a, len));
            }
        }
    }
    Ok(())
}

/// Stores `size` bytes per active lane from `data`.
fn store(
    ctx: &mut ExecCtx<'_>,
    map: &Mapping,
    locs: &[Loc; MAX_LANES],
    active: u64,
    size: u32,
    data: &LaneBytes,
    out: &mut Writes,
) -> Result<(), FaultKind> {
    probe(ctx, map, locs, active, size)?;
    for lane in lanes_of(active) {
        for (start, len, t) in map.split(locs[lane], lane, size).iter() {
            let (s, l) = (usize::from(start), usize::from(len));
            write_piece(ctx, t, &data[lane][s..s + l], out);
            if let Some(a) = record_address(t) {
                out.access.lanes.push((lane as u8, a, len));
            }
        }
    }
    Ok(())
}

/// Performs an atomic per active lane, in lane order (lanes hitting the same
/// address see each other's results), returning each lane's pre-op value.
#[allow(clippy::too_many_arguments)]
fn atomic(
    ctx: &mut ExecCtx<'_>,
    map: &Mapping,
    locs: &[Loc; MAX_LANES],
    active: u64,
    op: AtomicOp,
    wide: bool,
    data: &[u64; MAX_LANES],
    data2: &[u64; MAX_LANES],
    old: &mut [u64; MAX_LANES],
    out: &mut Writes,
) -> Result<(), FaultKind> {
    let size = if wide { 8 } else { 4 };
    probe(ctx, map, locs, active, size)?;
    for lane in lanes_of(active) {
        let pieces = map.split(locs[lane], lane, size);
        let mut bytes = [0u8; 8];
        for (start, len, t) in pieces.iter() {
            let (s, l) = (usize::from(start), usize::from(len));
            read_piece(ctx, t, &mut bytes[s..s + l], true)?;
        }
        let before = u64::from_le_bytes(bytes);
        old[lane] = before;
        let after = atomic::apply(op, wide, before, data[lane], data2[lane]).to_le_bytes();
        for (start, len, t) in pieces.iter() {
            let (s, l) = (usize::from(start), usize::from(len));
            write_piece(ctx, t, &after[s..s + l], out);
            if let Some(a) = record_address(t) {
                out.access.lanes.push((lane as u8, a, len));
            }
        }
    }
    Ok(())
}

/// Reads an atomic's data operand(s): `(data, data2)` per lane; compare-swap
/// forms carry the compare value in the upper half of `vdata`.
fn atomic_data(
    v: &Vgprs<'_>,
    reg: usize,
    op: AtomicOp,
    wide: bool,
    active: u64,
) -> ([u64; MAX_LANES], [u64; MAX_LANES]) {
    let mut data = [0u64; MAX_LANES];
    let mut data2 = [0u64; MAX_LANES];
    let w = if wide { 2 } else { 1 };
    let two = matches!(op, AtomicOp::Cmpswap | AtomicOp::Fcmpswap);
    let get = |r: usize, lane: usize| -> u64 {
        let lo = u64::from(v.get(r, lane).unwrap_or(0));
        if wide {
            lo | u64::from(v.get(r + 1, lane).unwrap_or(0)) << 32
        } else {
            lo
        }
    };
    for lane in lanes_of(active) {
        data[lane] = get(reg, lane);
        if two {
            data2[lane] = get(reg + w, lane);
        }
    }
    (data, data2)
}

/// Writes an atomic's returned pre-op values (1 or 2 dwords) to `reg`.
fn write_old(out: &mut Writes, reg: usize, wide: bool, active: u64, old: &[u64; MAX_LANES]) {
    let mut values = [0u32; MAX_LANES];
    for lane in lanes_of(active) {
        values[lane] = old[lane] as u32;
    }
    push_vgpr(out, reg, active, &values);
    if wide {
        for lane in lanes_of(active) {
            values[lane] = (old[lane] >> 32) as u32;
        }
        push_vgpr(out, reg + 1, active, &values);
    }
}

/// The registers of a FLAT/GLOBAL/SCRATCH/MUBUF instruction.
#[derive(Clone, Copy, Debug, Default)]
struct Regs {
    /// Destination (loads; atomics returning the pre-op value).
    vdst: Option<usize>,
    /// Store or atomic data.
    vdata: Option<usize>,
}

/// Performs an untyped load, store or atomic `k` for the lanes in `active`
/// at `locs`, filling `out` (VGPR writes, memory writes, the access record).
#[allow(clippy::too_many_arguments)]
fn perform(
    inst: &Instruction,
    k: kind::Kind,
    v: &Vgprs<'_>,
    ctx: &mut ExecCtx<'_>,
    map: &Mapping,
    locs: &[Loc; MAX_LANES],
    active: u64,
    regs: Regs,
    out: &mut Writes,
) -> Result<(), FaultKind> {
    use kind::Kind;
    match k {
        Kind::Load { bytes, ext } => {
            out.access.op = super::MemOp::VectorLoad;
            let reg = regs.vdst.ok_or_else(|| malformed(inst))?;
            let mut data = [[0u8; 16]; MAX_LANES];
            load(
                ctx,
                map,
                locs,
                active,
                u32::from(bytes),
                &mut data,
                &mut out.access,
            )?;
            if bytes >= 4 {
                scatter(out, reg, usize::from(bytes / 4), active, &data);
            } else {
                let mut values = [0u32; MAX_LANES];
                for lane in lanes_of(active) {
                    let raw = u32::from_le_bytes([data[lane][0], data[lane][1], 0, 0]);
                    let prev = v.get(reg, lane).unwrap_or(0);
                    values[lane] = extend(ext, bytes, raw, prev);
                }
                push_vgpr(out, reg, active, &values);
            }
        }
        Kind::Store { bytes, hi } => {
            out.access.op = super::MemOp::VectorStore;
            let reg = regs.vdata.ok_or_else(|| malformed(inst))?;
            let mut data = [[0u8; 16]; MAX_LANES];
            gather(v, reg, usize::from(bytes.div_ceil(4)), active, &mut data);
            if hi {
                for lane in lanes_of(active) {
                    data[lane].copy_within(2..4, 0);
                }
            }
            store(ctx, map, locs, active, u32::from(bytes), &data, out)?;
        }
        Kind::Atomic { op, wide } => {
            let returns = regs.vdst.is_some();
            out.access.op = super::MemOp::VectorAtomic { returns };
            let reg = regs.vdata.ok_or_else(|| malformed(inst))?;
            let (data, data2) = atomic_data(v, reg, op, wide, active);
            let mut old = [0u64; MAX_LANES];
            atomic(
                ctx, map, locs, active, op, wide, &data, &data2, &mut old, out,
            )?;
            if let Some(dst) = regs.vdst {
                write_old(out, dst, wide, active, &old);
            }
        }
        Kind::CacheControl => out.access.op = super::MemOp::CacheControl,
        Kind::LoadAddtid | Kind::StoreAddtid | Kind::Format => {
            return Err(super::unimplemented(inst))
        }
    }
    Ok(())
}

/// Registers an operand of `k` spans: `(vdst, vdata)` dwords.
fn reg_dwords(k: kind::Kind) -> (usize, usize) {
    use kind::Kind;
    match k {
        Kind::Load { bytes, .. } => (usize::from(bytes.div_ceil(4)), 0),
        Kind::Store { bytes, .. } => (0, usize::from(bytes.div_ceil(4))),
        Kind::Atomic { op, wide } => {
            let w = if wide { 2 } else { 1 };
            let two = matches!(op, AtomicOp::Cmpswap | AtomicOp::Fcmpswap);
            (w, if two { 2 * w } else { w })
        }
        Kind::LoadAddtid => (1, 0),
        Kind::StoreAddtid => (0, 1),
        Kind::CacheControl | Kind::Format => (0, 0),
    }
}
