//! Helpers shared by the vector memory families (DS, FLAT/GLOBAL/SCRATCH,
//! MUBUF/MTBUF): VGPR data ranges, how a load's bytes land in its destination
//! and which bytes a store takes, the atomic operations, LDS bounds, the
//! swizzled private (scratch) address space, and typed-buffer formats.
//!
//! Every family works lane by lane in ascending lane order over the EXEC
//! lanes. A lane reads its own address and data registers before writing its
//! own destination, so a destination that overlaps an address register is
//! safe; cross-lane instructions (`ds_swizzle`, `ds_permute`) gather first.
//! Atomics from different lanes to the same address therefore apply in lane
//! order, which is deterministic (the hardware's order is unspecified).

use std::cell::Cell;

use arch::device::Fault;
use arch::isa::{Operand, OperandType};

use super::super::dispatch::ScratchLayout;
use access::Access;

use super::{each, illegal, Wave, WaveCtx};

pub mod access;
pub mod atomic;
pub mod format;

/// A range of consecutive VGPRs holding one per-lane value of up to 4 dwords.
#[derive(Clone, Copy, Debug)]
pub struct Regs {
    /// First VGPR number.
    pub first: u16,
    /// Number of dwords (1–4).
    pub count: usize,
}

impl Regs {
    /// The VGPR range of a vector operand, checked against the allocation.
    pub fn of(w: &Wave, op: &Operand) -> Result<Regs, Fault> {
        let first = w.vgpr_index(op)?;
        let count = match *op {
            Operand::Src { ty, .. } => usize::from(ty.dwords(w.target)),
            _ => 1,
        };
        if count > 4 {
            return Err(illegal(format!(
                "a vector memory data operand of {count} registers is not supported"
            )));
        }
        // Checks the last register of the range is allocated.
        w.vgpr(first + count as u16 - 1)?;
        Ok(Regs { first, count })
    }

    /// The first `count` dwords of the range (a cmpswap result is half its
    /// data); never wider than the checked range.
    pub fn with_count(self, count: usize) -> Regs {
        Regs {
            first: self.first,
            count: count.min(self.count),
        }
    }

    /// Lane `lane`'s dwords (unused entries are zero).
    #[inline]
    pub fn get(self, w: &Wave, lane: usize) -> [u32; 4] {
        let mut out = [0; 4];
        for (i, v) in out.iter_mut().enumerate().take(self.count) {
            // In range: checked by `Regs::of`.
            *v = w.vgpr[usize::from(self.first) + i][lane];
        }
        out
    }

    /// Lane `lane`'s value as 64 bits (dwords 0 and 1).
    #[inline]
    pub fn get64(self, w: &Wave, lane: usize) -> u64 {
        let d = self.get(w, lane);
        u64::from(d[0]) | (u64::from(d[1]) << 32)
    }

    /// Writes lane `lane`'s first `count` dwords from `values`.
    #[inline]
    pub fn set(self, w: &mut Wave, lane: usize, values: &[u32]) {
        for (i, &v) in values.iter().enumerate().take(self.count) {
            w.vgpr[usize::from(self.first) + i][lane] = v;
        }
    }
}

/// The lanes to process: EXEC's set bits in ascending order.
#[inline]
pub fn lanes(mask: u64) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        Some(lane)
    })
}

/// How a load's bytes become destination dwords.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Load {
    /// A byte, zero-extended.
    U8,
    /// A byte, sign-extended.
    I8,
    /// A 16-bit value, zero-extended.
    U16,
    /// A 16-bit value, sign-extended.
    I16,
    /// Whole dwords (1–4).
    Dwords(u8),
    /// A byte or short into one half of the destination, the other half kept
    /// (`*_d16` into bits 15:0, `*_d16_hi` into bits 31:16); a byte is zero- or
    /// sign-extended to 16 bits.
    D16 {
        /// 1 or 2.
        bytes: u8,
        /// Sign-extend a byte.
        signed: bool,
        /// Write bits 31:16 instead of 15:0.
        hi: bool,
    },
}

impl Load {
    /// Bytes read from memory.
    pub fn bytes(self) -> usize {
        match self {
            Load::U8 | Load::I8 => 1,
            Load::U16 | Load::I16 => 2,
            Load::Dwords(n) => 4 * usize::from(n),
            Load::D16 { bytes, .. } => usize::from(bytes),
        }
    }

    /// Destination dwords written.
    pub fn dwords(self) -> usize {
        match self {
            Load::Dwords(n) => usize::from(n),
            _ => 1,
        }
    }

    /// The destination dwords for `raw` (little-endian memory bytes, `bytes()`
    /// long); `old` is the destination's current first dword (kept half of d16).
    #[inline(always)]
    pub fn result(self, raw: &[u8], old: u32) -> [u32; 4] {
        let byte = |i: usize| raw.get(i).copied().unwrap_or(0);
        let half = u32::from(byte(0)) | (u32::from(byte(1)) << 8);
        match self {
            Load::U8 => [u32::from(byte(0)), 0, 0, 0],
            Load::I8 => [byte(0) as i8 as i32 as u32, 0, 0, 0],
            Load::U16 => [half, 0, 0, 0],
            Load::I16 => [half as u16 as i16 as i32 as u32, 0, 0, 0],
            Load::Dwords(_) => {
                let mut out = [0u32; 4];
                for (i, d) in out.iter_mut().enumerate() {
                    *d = u32::from_le_bytes([
                        byte(4 * i),
                        byte(4 * i + 1),
                        byte(4 * i + 2),
                        byte(4 * i + 3),
                    ]);
                }
                out
            }
            Load::D16 { bytes, signed, hi } => {
                let v16 = match (bytes, signed) {
                    (1, false) => u32::from(byte(0)),
                    (1, true) => u32::from(byte(0) as i8 as i16 as u16),
                    _ => half,
                };
                let v = if hi {
                    (old & 0xffff) | (v16 << 16)
                } else {
                    (old & 0xffff_0000) | v16
                };
                [v, 0, 0, 0]
            }
        }
    }
}

/// Which bytes of the data register(s) a store writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Store {
    /// Bits 7:0.
    B8,
    /// Bits 15:0.
    B16,
    /// Bits 23:16 (`*_byte_d16_hi`).
    B8Hi,
    /// Bits 31:16 (`*_short_d16_hi`).
    B16Hi,
    /// Whole dwords (1–4).
    Dwords(u8),
}

impl Store {
    /// Data dwords read.
    pub fn dwords(self) -> usize {
        match self {
            Store::Dwords(n) => usize::from(n),
            _ => 1,
        }
    }

    /// The bytes to write (the first `.1` of `.0`).
    #[inline]
    pub fn bytes(self, data: [u32; 4]) -> ([u8; 16], usize) {
        let mut out = [0u8; 16];
        let d0 = data[0].to_le_bytes();
        let n = match self {
            Store::B8 => {
                out[0] = d0[0];
                1
            }
            Store::B16 => {
                out[..2].copy_from_slice(&d0[..2]);
                2
            }
            Store::B8Hi => {
                out[0] = d0[2];
                1
            }
            Store::B16Hi => {
                out[..2].copy_from_slice(&d0[2..]);
                2
            }
            Store::Dwords(n) => {
                for (i, d) in data.iter().enumerate().take(usize::from(n)) {
                    out[4 * i..4 * i + 4].copy_from_slice(&d.to_le_bytes());
                }
                4 * usize::from(n)
            }
        };
        (out, n)
    }
}

thread_local! {
    /// The first LDS byte outside the work-group's allocation that the
    /// instruction being executed on this thread touched, and whether it was
    /// a write. Set by [`lds_read`]/[`lds_write`] (every LDS access of the
    /// interpreter, and so of the JIT, which interprets DS and FLAT), taken by
    /// [`super::execute`] after each DS or FLAT instruction. A thread-local
    /// keeps the lane loops' signatures (and their inlining) as they are: the
    /// note is only written on the out-of-line out-of-range path.
    static LDS_OUTSIDE: Cell<Option<(u64, bool)>> = const { Cell::new(None) };
}

/// Notes an access to LDS byte `address`, at or beyond the allocation (the
/// first of the instruction is kept).
#[cold]
fn note_lds_outside(address: u64, write: bool) {
    LDS_OUTSIDE.with(|c| {
        if c.get().is_none() {
            c.set(Some((address, write)));
        }
    });
}

/// The out-of-range LDS access noted since the last call, if any (and forgets it).
#[inline]
pub(crate) fn take_lds_outside() -> Option<(u64, bool)> {
    LDS_OUTSIDE.with(Cell::take)
}

/// Reads LDS bytes `[address, address + out.len())`; bytes at or beyond `limit`
/// read as zero (AMD: out-of-range LDS reads return 0).
#[inline]
pub fn lds_read(lds: &[u8], limit: u64, address: u64, out: &mut [u8]) {
    let len = lds.len() as u64;
    let limit = limit.min(len);
    let end = address.saturating_add(out.len() as u64);
    if end <= limit {
        out.copy_from_slice(&lds[address as usize..end as usize]);
        return;
    }
    if end > len {
        note_lds_outside(address.max(len), false);
    }
    for (i, b) in out.iter_mut().enumerate() {
        let a = address.saturating_add(i as u64);
        *b = if a < limit { lds[a as usize] } else { 0 };
    }
}

/// Writes LDS bytes; bytes at or beyond `limit` are dropped (AMD: out-of-range
/// LDS writes are discarded).
#[inline]
pub fn lds_write(lds: &mut [u8], limit: u64, address: u64, data: &[u8]) {
    let len = lds.len() as u64;
    let limit = limit.min(len);
    let end = address.saturating_add(data.len() as u64);
    if end <= limit {
        lds[address as usize..end as usize].copy_from_slice(data);
        return;
    }
    if end > len {
        note_lds_outside(address.max(len), true);
    }
    for (i, &b) in data.iter().enumerate() {
        let a = address.saturating_add(i as u64);
        if a < limit {
            lds[a as usize] = b;
        }
    }
}

/// A swizzled per-lane address space: byte `offset` of lane `lane` lives at
/// `base + (offset / E) * E * S + (index % S) * E + offset % E` with element
/// size E and index stride S (the private segment layout of [`ScratchLayout`]
/// and of swizzled buffers with stride 0 and ADD_TID). Accesses are split into
/// runs that stay inside one element.
#[derive(Clone, Copy, Debug)]
pub struct Swizzled {
    /// Address of element row 0, lane 0.
    pub base: u64,
    /// Element size in bytes.
    pub element: u64,
    /// Lanes (indices) per element row.
    pub index_stride: u64,
}

impl Swizzled {
    /// The private segment of the wave whose slice starts at `wave_base`.
    pub fn scratch(layout: &ScratchLayout, wave_base: u64) -> Swizzled {
        Swizzled {
            base: wave_base,
            element: super::super::dispatch::SCRATCH_ELEMENT_BYTES,
            index_stride: u64::from(layout.index_stride),
        }
    }

    /// Device address of byte `offset` of index `index`.
    #[inline]
    pub fn address(&self, index: u64, offset: u64) -> u64 {
        let e = self.element.max(1);
        let s = self.index_stride.max(1);
        self.base
            .wrapping_add((offset / e).wrapping_mul(e * s))
            .wrapping_add((index % s) * e + offset % e)
    }

    /// Bytes from `offset` to the end of its element (the run that stays contiguous).
    #[inline]
    pub fn run(&self, offset: u64) -> u64 {
        let e = self.element.max(1);
        e - offset % e
    }
}

/// Where a run of one lane's bytes goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    /// Device memory at this address (unmapped bytes fault).
    Global(u64),
    /// LDS at this byte address (bytes beyond the limit read 0, writes dropped).
    Lds(u64),
    /// Out of range: reads return 0, writes are dropped.
    Skip,
}

/// The registers of a load, store or atomic.
#[derive(Clone, Copy, Debug)]
pub struct Operands {
    /// Destination (loads; atomics that return the old value).
    pub dst: Option<Regs>,
    /// Store or atomic data.
    pub data: Option<Regs>,
}

/// Performs `access` for every EXEC lane. `resolve(lane, delta)` maps byte
/// `delta` of the lane's access to a location and the number of bytes that
/// continue contiguously from there (so swizzled and per-dword range-checked
/// spaces split an access into runs). `lds_limit` bounds [`Loc::Lds`].
pub fn perform(
    ctx: &mut WaveCtx<'_>,
    access: Access,
    ops: Operands,
    exec: u64,
    lds_limit: u64,
    resolve: impl Fn(usize, u64) -> (Loc, u64),
) -> Result<(), Fault> {
    let n = access.bytes();
    // Every lane one contiguous device-memory range: the direct page path.
    if ctx.mem.fast_paths() && !matches!(access, Access::Atomic(..)) {
        let mut addr = [0u64; 64];
        let contiguous = lanes(exec).all(|lane| match resolve(lane, 0) {
            (Loc::Global(a), run) if run >= n as u64 => {
                addr[lane] = a;
                true
            }
            _ => false,
        });
        if contiguous && perform_global(ctx, access, ops, exec, &addr)? {
            return Ok(());
        }
    }
    for lane in lanes(exec) {
        match access {
            Access::Load(load) => {
                let mut raw = [0u8; 16];
                read_runs(ctx, lds_limit, &resolve, lane, &mut raw[..n])?;
                if let Some(dst) = ops.dst {
                    let dst = dst.with_count(load.dwords().min(dst.count));
                    let old = dst.get(ctx.wave, lane)[0];
                    dst.set(ctx.wave, lane, &load.result(&raw[..n], old));
                }
            }
            Access::Store(store) => {
                let Some(data) = ops.data else {
                    return Err(illegal("store without data registers"));
                };
                let (bytes, len) = store.bytes(data.get(ctx.wave, lane));
                write_runs(ctx, lds_limit, &resolve, lane, &bytes[..len])?;
            }
            Access::Atomic(op, wide) => {
                let Some(data) = ops.data else {
                    return Err(illegal("atomic without data registers"));
                };
                let d = data.get(ctx.wave, lane);
                // FLAT/GLOBAL/MUBUF: DATA[0] is the source, DATA[1] the compare value.
                let (src, extra) = if wide {
                    (
                        u64::from(d[0]) | u64::from(d[1]) << 32,
                        u64::from(d[2]) | u64::from(d[3]) << 32,
                    )
                } else {
                    (u64::from(d[0]), u64::from(d[1]))
                };
                let mut raw = [0u8; 8];
                read_runs(ctx, lds_limit, &resolve, lane, &mut raw[..n])?;
                let old = u64::from_le_bytes(raw);
                let new = if wide {
                    op.apply64(old, src, extra)
                } else {
                    u64::from(op.apply32(old as u32, src as u32, extra as u32))
                };
                write_runs(ctx, lds_limit, &resolve, lane, &new.to_le_bytes()[..n])?;
                if let Some(dst) = ops.dst {
                    dst.set(ctx.wave, lane, &[old as u32, (old >> 32) as u32]);
                }
            }
        }
    }
    Ok(())
}

/// [`perform`] for loads and stores whose every lane accesses one contiguous
/// device-memory range at `addr[lane]` (FLAT/GLOBAL in the global segment):
/// the same per-lane semantics ([`Load::result`], [`Store::bytes`], ascending
/// lane order) with direct page access instead of byte runs. Returns
/// `Ok(false)` with nothing changed when some lane's range is not inside one
/// page of a mapping (an unmapped or page-crossing access), or for atomics;
/// the caller then runs [`perform`], which also reports any fault.
pub fn perform_global(
    ctx: &mut WaveCtx<'_>,
    access: Access,
    ops: Operands,
    exec: u64,
    addr: &[u64; 64],
) -> Result<bool, Fault> {
    let n = access.bytes();
    if exec == 0 {
        return Ok(false);
    }
    // The common case: every lane inside one page of one mapping, translated once.
    let (mut lo, mut hi) = (u64::MAX, 0);
    each(
        exec,
        #[inline(always)]
        |l| {
            lo = lo.min(addr[l]);
            hi = hi.max(addr[l]);
        },
    );
    let span = ((hi - lo) as usize).saturating_add(n);
    match access {
        Access::Load(load) => {
            let Some(dst) = ops.dst else {
                return Ok(false);
            };
            let dst = dst.with_count(load.dwords().min(dst.count));
            let first = usize::from(dst.first);
            if let (Load::Dwords(_), Some(bytes)) = (load, ctx.mem.page_bytes(lo, span)) {
                // Registers never alias memory, so one pass reads and writes.
                for i in 0..dst.count {
                    let reg = &mut ctx.wave.vgpr[first + i];
                    each(
                        exec,
                        #[inline(always)]
                        |lane| {
                            let o = (addr[lane] - lo) as usize + 4 * i;
                            let b = &bytes[o..o + 4];
                            reg[lane] = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                        },
                    );
                }
                return Ok(true);
            }
            if let Some(bytes) = ctx.mem.page_bytes(lo, span) {
                // Sub-dword and d16 loads in one pass: registers never alias memory.
                if !matches!(load, Load::D16 { .. }) && dst.count >= 1 {
                    // Extending byte/short loads replace the one destination
                    // dword (`result` without the old value; `set` of one dword).
                    let reg = &mut ctx.wave.vgpr[first];
                    each(
                        exec,
                        #[inline(always)]
                        |lane| {
                            let o = (addr[lane] - lo) as usize;
                            reg[lane] = load.result(&bytes[o..o + n], 0)[0];
                        },
                    );
                    return Ok(true);
                }
                each(
                    exec,
                    #[inline(always)]
                    |lane| {
                        let o = (addr[lane] - lo) as usize;
                        let old = dst.get(ctx.wave, lane)[0];
                        dst.set(ctx.wave, lane, &load.result(&bytes[o..o + n], old));
                    },
                );
                return Ok(true);
            }
            // Pass 1 reads every lane (no side effects, so a lane that needs the
            // general path leaves nothing half done); pass 2 writes registers.
            let mut raw = [[0u8; 16]; 64];
            for lane in lanes(exec) {
                let Some(bytes) = ctx.mem.page_bytes(addr[lane], n) else {
                    return Ok(false);
                };
                raw[lane][..n].copy_from_slice(bytes);
            }
            for lane in lanes(exec) {
                let old = dst.get(ctx.wave, lane)[0];
                dst.set(ctx.wave, lane, &load.result(&raw[lane][..n], old));
            }
            Ok(true)
        }
        Access::Store(store) => {
            let Some(data) = ops.data else {
                return Ok(false);
            };
            if let Some(bytes) = ctx.mem.page_bytes_mut(lo, span) {
                // In lane order, so overlapping lanes end with the highest lane's bytes.
                if let Store::Dwords(k) = store {
                    let first = usize::from(data.first);
                    let k = usize::from(k).min(data.count);
                    each(
                        exec,
                        #[inline(always)]
                        |lane| {
                            let o = (addr[lane] - lo) as usize;
                            for i in 0..k {
                                let v = ctx.wave.vgpr[first + i][lane];
                                bytes[o + 4 * i..o + 4 * i + 4].copy_from_slice(&v.to_le_bytes());
                            }
                        },
                    );
                    return Ok(true);
                }
                each(
                    exec,
                    #[inline(always)]
                    |lane| {
                        let (b, len) = store.bytes(data.get(ctx.wave, lane));
                        let o = (addr[lane] - lo) as usize;
                        bytes[o..o + len].copy_from_slice(&b[..len]);
                    },
                );
                return Ok(true);
            }
            if lanes(exec).any(|lane| !ctx.mem.is_mapped(addr[lane], n as u64)) {
                return Ok(false);
            }
            for lane in lanes(exec) {
                let (bytes, len) = store.bytes(data.get(ctx.wave, lane));
                match ctx.mem.page_bytes_mut(addr[lane], len) {
                    Some(dst) => dst.copy_from_slice(&bytes[..len]),
                    // Mapped (checked above) but crossing a page: the general write.
                    None => ctx.store(addr[lane], &bytes[..len])?,
                }
            }
            Ok(true)
        }
        Access::Atomic(..) => Ok(false),
    }
}

fn read_runs(
    ctx: &mut WaveCtx<'_>,
    lds_limit: u64,
    resolve: &impl Fn(usize, u64) -> (Loc, u64),
    lane: usize,
    out: &mut [u8],
) -> Result<(), Fault> {
    let mut done = 0;
    while done < out.len() {
        let (loc, run) = resolve(lane, done as u64);
        let end = (done as u64)
            .saturating_add(run.max(1))
            .min(out.len() as u64) as usize;
        let part = &mut out[done..end];
        match loc {
            Loc::Global(a) => ctx.load(a, part)?,
            Loc::Lds(a) => lds_read(ctx.lds, lds_limit, a, part),
            Loc::Skip => part.fill(0),
        }
        done = end;
    }
    Ok(())
}

fn write_runs(
    ctx: &mut WaveCtx<'_>,
    lds_limit: u64,
    resolve: &impl Fn(usize, u64) -> (Loc, u64),
    lane: usize,
    data: &[u8],
) -> Result<(), Fault> {
    let mut done = 0;
    while done < data.len() {
        let (loc, run) = resolve(lane, done as u64);
        let end = (done as u64)
            .saturating_add(run.max(1))
            .min(data.len() as u64) as usize;
        let part = &data[done..end];
        match loc {
            Loc::Global(a) => ctx.store(a, part)?,
            Loc::Lds(a) => lds_write(ctx.lds, lds_limit, a, part),
            Loc::Skip => {}
        }
        done = end;
    }
    Ok(())
}

/// The type of an operand (B32 for anything that is not a register).
pub fn operand_type(op: &Operand) -> OperandType {
    match *op {
        Operand::Src { ty, .. } | Operand::Literal { ty, .. } => ty,
        Operand::Off => OperandType::B32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_extend_and_d16_keeps_the_other_half() {
        assert_eq!(Load::I8.result(&[0x80], 0)[0], 0xffff_ff80);
        assert_eq!(Load::U8.result(&[0x80], 7)[0], 0x80);
        assert_eq!(Load::I16.result(&[0x00, 0x80], 0)[0], 0xffff_8000);
        let d16 = |bytes, signed, hi| Load::D16 { bytes, signed, hi };
        assert_eq!(
            d16(1, true, false).result(&[0xff], 0x1234_5678)[0],
            0x1234_ffff
        );
        assert_eq!(
            d16(1, false, true).result(&[0xff], 0x1234_5678)[0],
            0x00ff_5678
        );
        assert_eq!(
            d16(2, false, true).result(&[0xcd, 0xab], 0x1234_5678)[0],
            0xabcd_5678
        );
        assert_eq!(
            Load::Dwords(2).result(&[1, 0, 0, 0, 2, 0, 0, 0], 0),
            [1, 2, 0, 0]
        );
    }

    #[test]
    fn stores_take_the_right_bytes() {
        let d = [0xaabb_ccdd, 0x1122_3344, 0, 0];
        assert_eq!(Store::B8Hi.bytes(d).0[0], 0xbb);
        assert_eq!(&Store::B16Hi.bytes(d).0[..2], &[0xbb, 0xaa]);
        assert_eq!(Store::Dwords(2).bytes(d).1, 8);
    }

    #[test]
    fn lds_out_of_range_reads_zero_and_drops_writes() {
        let mut lds = vec![0u8; 8];
        lds_write(&mut lds, 8, 6, &[1, 2, 3, 4]);
        assert_eq!(lds, [0, 0, 0, 0, 0, 0, 1, 2]);
        let mut out = [9u8; 4];
        lds_read(&lds, 8, 6, &mut out);
        assert_eq!(out, [1, 2, 0, 0]);
        lds_read(&lds, 4, 2, &mut out);
        assert_eq!(out, [0, 0, 0, 0]);
        lds_read(&lds, 8, u64::MAX - 1, &mut out);
        assert_eq!(out, [0; 4]);
    }

    #[test]
    fn swizzle_interleaves_elements() {
        let s = Swizzled {
            base: 0x1000,
            element: 4,
            index_stride: 32,
        };
        assert_eq!(s.address(0, 0), 0x1000);
        assert_eq!(s.address(1, 0), 0x1004);
        assert_eq!(s.address(0, 4), 0x1000 + 128);
        assert_eq!(s.address(3, 6), 0x1000 + 128 + 12 + 2);
    }
}
