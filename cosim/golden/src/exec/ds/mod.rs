//! DS (local data share) semantics, both ISAs, EXEC-masked over 32 or 64 lanes.
//!
//! * Address: `VGPR[addr] + offset` (16-bit unsigned), a byte address in the
//!   workgroup's LDS; the sum wraps at 32 bits ([`lds_address`]). The two-address forms (`ds_read2*`, `ds_write2*`,
//!   `ds_wrxchg2*`) use `addr + offset0 * size` and `addr + offset1 * size`,
//!   `size` the element size (4 or 8) times 64 for the `st64` forms. No
//!   alignment is enforced (HSA runs with unaligned LDS access enabled).
//! * Bounds (AMD): every byte at or beyond the workgroup's LDS allocation reads
//!   as 0 and is not written. On gfx803 the DS unit also clamps to M0: bytes at
//!   or beyond `M0` (a byte count; the compiler sets `m0 = -1`, no clamp) behave
//!   the same. gfx1030 does not use M0 for DS.
//! * Atomics: read-modify-write per lane in ascending lane order; the `_rtn`
//!   forms return the old value. See [`super::vmem::atomic`] for each rule.
//! * `ds_swizzle_b32`: offset bit 15 set selects quad-permute mode (lane
//!   `4q + i` reads lane `4q + offset[2i+1:2i]`); clear selects bit-mask mode
//!   within 32-lane groups (`src = ((lane & and) | or) ^ xor`, masks in offset
//!   bits 4:0, 9:5, 14:10). gfx1030's FFT (offset >= 0xe000) and rotate
//!   (>= 0xc000) modes are in [`rare::swizzle_source`]. `ds_permute_b32` (push) and
//!   `ds_bpermute_b32` (pull) select lane `((VGPR[addr] + offset) / 4) mod
//!   wave size` on gfx803; on gfx1030 lane `((VGPR[addr] + offset) / 4) mod
//!   32` of the lane's own 32-lane half (a wave64 permutes its halves
//!   separately, as LLPC's and LLVM's wave64 shuffles assume: they combine
//!   two `ds_bpermute` with `v_permlane64`); a push collision is won by the
//!   highest source lane.
//!   Cross-lane reads of a lane whose EXEC bit is clear return 0.
//! * `ds_append`/`ds_consume`: the dword at `M0[15:0] + offset` is increased
//!   (decreased) by the number of active lanes; every active lane receives
//!   the old value. M0 is the counter's address here, so the gfx803 M0 clamp
//!   does not apply (only the allocation bounds the access).
//! * The `*_src2_*` forms, `ds_condxchg32_rtn_b64` and the `addtid` forms
//!   are in [`rare`]; GDS (`gds` bit, `ds_gws_*`,
//!   `ds_ordered_count`) is not implemented.

pub mod rare;

use arch::device::Fault;
use arch::isa::{Instruction, Isa, Opcode};

use super::sop::operand;
use super::vmem::atomic::AtomicOp;
use super::vmem::{lanes, lds_read, lds_write, Load, Regs, Store};
use super::{each, illegal, not_implemented, Flow, WaveCtx};

/// What a DS instruction does.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Nop,
    Read(Load),
    Write(Store),
    /// Element size in bytes, st64.
    Read2(u64, bool),
    Write2(u64, bool),
    /// Exchange at two addresses, returning both old values.
    Wrxchg2(u64, bool),
    /// Operation, 64-bit, returns the old value.
    Atomic(AtomicOp, bool, bool),
    Swizzle,
    Permute,
    Bpermute,
    Append,
    Consume,
}

fn classify(op: Opcode) -> Option<Kind> {
    use AtomicOp as A;
    use Opcode::*;
    let d16 = |bytes, signed, hi| Kind::Read(Load::D16 { bytes, signed, hi });
    let atomic = |a, wide, rtn| Kind::Atomic(a, wide, rtn);
    Some(match op {
        DS_NOP => Kind::Nop,
        DS_READ_U8 => Kind::Read(Load::U8),
        DS_READ_I8 => Kind::Read(Load::I8),
        DS_READ_U16 => Kind::Read(Load::U16),
        DS_READ_I16 => Kind::Read(Load::I16),
        DS_READ_B32 => Kind::Read(Load::Dwords(1)),
        DS_READ_B64 => Kind::Read(Load::Dwords(2)),
        DS_READ_B96 => Kind::Read(Load::Dwords(3)),
        DS_READ_B128 => Kind::Read(Load::Dwords(4)),
        DS_READ_U8_D16 => d16(1, false, false),
        DS_READ_U8_D16_HI => d16(1, false, true),
        DS_READ_I8_D16 => d16(1, true, false),
        DS_READ_I8_D16_HI => d16(1, true, true),
        DS_READ_U16_D16 => d16(2, false, false),
        DS_READ_U16_D16_HI => d16(2, false, true),
        DS_WRITE_B8 => Kind::Write(Store::B8),
        DS_WRITE_B16 => Kind::Write(Store::B16),
        DS_WRITE_B8_D16_HI => Kind::Write(Store::B8Hi),
        DS_WRITE_B16_D16_HI => Kind::Write(Store::B16Hi),
        DS_WRITE_B32 => Kind::Write(Store::Dwords(1)),
        DS_WRITE_B64 => Kind::Write(Store::Dwords(2)),
        DS_WRITE_B96 => Kind::Write(Store::Dwords(3)),
        DS_WRITE_B128 => Kind::Write(Store::Dwords(4)),
        DS_READ2_B32 => Kind::Read2(4, false),
        DS_READ2ST64_B32 => Kind::Read2(4, true),
        DS_READ2_B64 => Kind::Read2(8, false),
        DS_READ2ST64_B64 => Kind::Read2(8, true),
        DS_WRITE2_B32 => Kind::Write2(4, false),
        DS_WRITE2ST64_B32 => Kind::Write2(4, true),
        DS_WRITE2_B64 => Kind::Write2(8, false),
        DS_WRITE2ST64_B64 => Kind::Write2(8, true),
        DS_WRXCHG2_RTN_B32 => Kind::Wrxchg2(4, false),
        DS_WRXCHG2ST64_RTN_B32 => Kind::Wrxchg2(4, true),
        DS_WRXCHG2_RTN_B64 => Kind::Wrxchg2(8, false),
        DS_WRXCHG2ST64_RTN_B64 => Kind::Wrxchg2(8, true),
        DS_SWIZZLE_B32 => Kind::Swizzle,
        DS_PERMUTE_B32 => Kind::Permute,
        DS_BPERMUTE_B32 => Kind::Bpermute,
        DS_APPEND => Kind::Append,
        DS_CONSUME => Kind::Consume,
        // 32-bit atomics.
        DS_ADD_U32 => atomic(A::Add, false, false),
        DS_SUB_U32 => atomic(A::Sub, false, false),
        DS_RSUB_U32 => atomic(A::Rsub, false, false),
        DS_INC_U32 => atomic(A::Inc, false, false),
        DS_DEC_U32 => atomic(A::Dec, false, false),
        DS_MIN_I32 => atomic(A::Smin, false, false),
        DS_MAX_I32 => atomic(A::Smax, false, false),
        DS_MIN_U32 => atomic(A::Umin, false, false),
        DS_MAX_U32 => atomic(A::Umax, false, false),
        DS_AND_B32 => atomic(A::And, false, false),
        DS_OR_B32 => atomic(A::Or, false, false),
        DS_XOR_B32 => atomic(A::Xor, false, false),
        DS_MSKOR_B32 => atomic(A::Mskor, false, false),
        DS_CMPST_B32 => atomic(A::CmpSwap, false, false),
        DS_CMPST_F32 => atomic(A::FCmpSwap, false, false),
        DS_MIN_F32 => atomic(A::Fmin, false, false),
        DS_MAX_F32 => atomic(A::Fmax, false, false),
        DS_ADD_F32 => atomic(A::Fadd, false, false),
        DS_ADD_RTN_U32 => atomic(A::Add, false, true),
        DS_SUB_RTN_U32 => atomic(A::Sub, false, true),
        DS_RSUB_RTN_U32 => atomic(A::Rsub, false, true),
        DS_INC_RTN_U32 => atomic(A::Inc, false, true),
        DS_DEC_RTN_U32 => atomic(A::Dec, false, true),
        DS_MIN_RTN_I32 => atomic(A::Smin, false, true),
        DS_MAX_RTN_I32 => atomic(A::Smax, false, true),
        DS_MIN_RTN_U32 => atomic(A::Umin, false, true),
        DS_MAX_RTN_U32 => atomic(A::Umax, false, true),
        DS_AND_RTN_B32 => atomic(A::And, false, true),
        DS_OR_RTN_B32 => atomic(A::Or, false, true),
        DS_XOR_RTN_B32 => atomic(A::Xor, false, true),
        DS_MSKOR_RTN_B32 => atomic(A::Mskor, false, true),
        DS_WRXCHG_RTN_B32 => atomic(A::Swap, false, true),
        DS_CMPST_RTN_B32 => atomic(A::CmpSwap, false, true),
        DS_CMPST_RTN_F32 => atomic(A::FCmpSwap, false, true),
        DS_MIN_RTN_F32 => atomic(A::Fmin, false, true),
        DS_MAX_RTN_F32 => atomic(A::Fmax, false, true),
        DS_ADD_RTN_F32 => atomic(A::Fadd, false, true),
        DS_WRAP_RTN_B32 => atomic(A::Wrap, false, true),
        // 64-bit atomics.
        DS_ADD_U64 => atomic(A::Add, true, false),
        DS_SUB_U64 => atomic(A::Sub, true, false),
        DS_RSUB_U64 => atomic(A::Rsub, true, false),
        DS_INC_U64 => atomic(A::Inc, true, false),
        DS_DEC_U64 => atomic(A::Dec, true, false),
        DS_MIN_I64 => atomic(A::Smin, true, false),
        DS_MAX_I64 => atomic(A::Smax, true, false),
        DS_MIN_U64 => atomic(A::Umin, true, false),
        DS_MAX_U64 => atomic(A::Umax, true, false),
        DS_AND_B64 => atomic(A::And, true, false),
        DS_OR_B64 => atomic(A::Or, true, false),
        DS_XOR_B64 => atomic(A::Xor, true, false),
        DS_MSKOR_B64 => atomic(A::Mskor, true, false),
        DS_CMPST_B64 => atomic(A::CmpSwap, true, false),
        DS_CMPST_F64 => atomic(A::FCmpSwap, true, false),
        DS_MIN_F64 => atomic(A::Fmin, true, false),
        DS_MAX_F64 => atomic(A::Fmax, true, false),
        DS_ADD_RTN_U64 => atomic(A::Add, true, true),
        DS_SUB_RTN_U64 => atomic(A::Sub, true, true),
        DS_RSUB_RTN_U64 => atomic(A::Rsub, true, true),
        DS_INC_RTN_U64 => atomic(A::Inc, true, true),
        DS_DEC_RTN_U64 => atomic(A::Dec, true, true),
        DS_MIN_RTN_I64 => atomic(A::Smin, true, true),
        DS_MAX_RTN_I64 => atomic(A::Smax, true, true),
        DS_MIN_RTN_U64 => atomic(A::Umin, true, true),
        DS_MAX_RTN_U64 => atomic(A::Umax, true, true),
        DS_AND_RTN_B64 => atomic(A::And, true, true),
        DS_OR_RTN_B64 => atomic(A::Or, true, true),
        DS_XOR_RTN_B64 => atomic(A::Xor, true, true),
        DS_MSKOR_RTN_B64 => atomic(A::Mskor, true, true),
        DS_WRXCHG_RTN_B64 => atomic(A::Swap, true, true),
        DS_CMPST_RTN_B64 => atomic(A::CmpSwap, true, true),
        DS_CMPST_RTN_F64 => atomic(A::FCmpSwap, true, true),
        DS_MIN_RTN_F64 => atomic(A::Fmin, true, true),
        DS_MAX_RTN_F64 => atomic(A::Fmax, true, true),
        _ => return None,
    })
}

/// Destination dwords of a whole-dword read.
fn kind_dwords(kind: Kind) -> usize {
    match kind {
        Kind::Read(load) => load.dwords(),
        _ => 1,
    }
}

/// The LDS byte address of `base` (the address VGPR) plus an instruction
/// offset: a 32-bit sum that wraps, as the hardware's adder does. LLVM
/// relies on it from gfx7 on (`hasUsableDSOffset`): it folds a constant
/// into the offset field even when the base it leaves in the VGPR is
/// negative (`tile[63 - l]` becomes base `-4·l - 4` with offset 256), so a
/// 64-bit sum would put such accesses out of range.
#[inline(always)]
pub(crate) fn lds_address(base: u32, offset: u32) -> u64 {
    u64::from(base.wrapping_add(offset))
}

/// The LDS dword at byte `a` (bytes at or beyond `limit` read 0), as
/// [`lds_read`] of 4 bytes gives it, without a variable-length copy. The
/// in-range case is inlined into the lane loops; the rest is out of line.
#[inline(always)]
fn lds_u32(lds: &[u8], limit: u64, a: u64) -> u32 {
    if a.saturating_add(4) <= limit.min(lds.len() as u64) {
        if let Some(&[b0, b1, b2, b3]) = lds.get(a as usize..a as usize + 4) {
            return u32::from_le_bytes([b0, b1, b2, b3]);
        }
    }
    lds_u32_edge(lds, limit, a)
}

/// [`lds_u32`] for a dword not wholly inside the limit.
#[inline(never)]
fn lds_u32_edge(lds: &[u8], limit: u64, a: u64) -> u32 {
    let mut raw = [0u8; 4];
    lds_read(lds, limit, a, &mut raw);
    u32::from_le_bytes(raw)
}

/// Writes the LDS dword at byte `a` (bytes at or beyond `limit` dropped), as
/// [`lds_write`] of 4 bytes does, without a variable-length copy (in-range
/// case inlined, as [`lds_u32`]).
#[inline(always)]
fn lds_put_u32(lds: &mut [u8], limit: u64, a: u64, v: u32) {
    if a.saturating_add(4) <= limit.min(lds.len() as u64) {
        if let Some(dst) = lds.get_mut(a as usize..a as usize + 4) {
            dst.copy_from_slice(&v.to_le_bytes());
            return;
        }
    }
    lds_put_u32_edge(lds, limit, a, v);
}

/// [`lds_put_u32`] for a dword not wholly inside the limit.
#[inline(never)]
fn lds_put_u32_edge(lds: &mut [u8], limit: u64, a: u64, v: u32) {
    lds_write(lds, limit, a, &v.to_le_bytes());
}

/// Executes one DS instruction.
pub fn execute(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    let kind = match classify(inst.opcode) {
        Some(k) if !inst.modifiers.gds => k,
        // The rare forms (and the not-implemented GDS ones) live apart.
        _ => return rare::execute(ctx, inst),
    };
    let exec = ctx.wave.exec();
    // The LDS byte limit: the allocation, and on gfx803 also M0.
    let limit = match ctx.wave.target.isa {
        Isa::Gfx803 => (ctx.lds.len() as u64).min(u64::from(ctx.wave.m0())),
        Isa::Gfx1030 => ctx.lds.len() as u64,
    };
    let offset = u32::from(inst.modifiers.offset as u16);
    let regs = |i: usize| -> Result<Regs, Fault> { Regs::of(ctx.wave, operand(inst, i)?) };
    match kind {
        Kind::Nop => {}
        Kind::Read(Load::Dwords(_)) => {
            // Whole dwords: fixed-size reads (the same bytes as `lds_read`).
            let (dst, addr) = (regs(0)?.with_count(kind_dwords(kind)), regs(1)?);
            if dst.count == 1 && addr.count >= 1 {
                // One dword per lane. The addresses are copied first: each lane
                // reads its own before writing, so a destination that is the
                // address register sees the same values as the loop below.
                let av = ctx.wave.vgpr[usize::from(addr.first)];
                let reg = &mut ctx.wave.vgpr[usize::from(dst.first)];
                let lds = &*ctx.lds;
                each(
                    exec,
                    #[inline(always)]
                    |lane| reg[lane] = lds_u32(lds, limit, lds_address(av[lane], offset)),
                );
                return Ok(Flow::Next);
            }
            for lane in lanes(exec) {
                let a = lds_address(addr.get(ctx.wave, lane)[0], offset);
                for i in 0..dst.count {
                    let v = lds_u32(ctx.lds, limit, a + 4 * i as u64);
                    ctx.wave.vgpr[usize::from(dst.first) + i][lane] = v;
                }
            }
        }
        Kind::Read(load) => {
            let (dst, addr) = (regs(0)?.with_count(load.dwords()), regs(1)?);
            let mut raw = [0u8; 16];
            let raw = &mut raw[..load.bytes()];
            for lane in lanes(exec) {
                let a = lds_address(addr.get(ctx.wave, lane)[0], offset);
                lds_read(ctx.lds, limit, a, raw);
                let old = dst.get(ctx.wave, lane)[0];
                dst.set(ctx.wave, lane, &load.result(raw, old));
            }
        }
        Kind::Write(Store::Dwords(k)) => {
            // Whole dwords: fixed-size writes (the same bytes as `lds_write`).
            let (addr, data) = (regs(0)?, regs(1)?.with_count(usize::from(k)));
            if data.count == 1 && addr.count >= 1 {
                // One dword per lane, in lane order (the highest lane wins).
                let av = &ctx.wave.vgpr[usize::from(addr.first)];
                let dv = &ctx.wave.vgpr[usize::from(data.first)];
                let lds = &mut *ctx.lds;
                each(
                    exec,
                    #[inline(always)]
                    |lane| lds_put_u32(lds, limit, lds_address(av[lane], offset), dv[lane]),
                );
                return Ok(Flow::Next);
            }
            for lane in lanes(exec) {
                let a = lds_address(addr.get(ctx.wave, lane)[0], offset);
                let d = data.get(ctx.wave, lane);
                for (i, &v) in d.iter().enumerate().take(data.count) {
                    lds_put_u32(ctx.lds, limit, a + 4 * i as u64, v);
                }
            }
        }
        Kind::Write(store) => {
            let (addr, data) = (regs(0)?, regs(1)?.with_count(store.dwords()));
            for lane in lanes(exec) {
                let a = lds_address(addr.get(ctx.wave, lane)[0], offset);
                let (bytes, n) = store.bytes(data.get(ctx.wave, lane));
                lds_write(ctx.lds, limit, a, &bytes[..n]);
            }
        }
        Kind::Read2(4, st64) => {
            // ds_read2_b32 / ds_read2st64_b32: two dwords per lane, one register each.
            let scale = if st64 { 256 } else { 4 };
            let o0 = u32::from(inst.modifiers.offset0) * scale;
            let o1 = u32::from(inst.modifiers.offset1) * scale;
            let (dst, addr) = (regs(0)?, regs(1)?);
            let (first, a) = (usize::from(dst.first), usize::from(addr.first));
            // As `Regs::set`: only the registers the destination has.
            let second = dst.count >= 2;
            let (vgpr, lds) = (&mut ctx.wave.vgpr, &*ctx.lds);
            each(
                exec,
                #[inline(always)]
                |lane| {
                    let base = vgpr[a][lane];
                    let v0 = lds_u32(lds, limit, lds_address(base, o0));
                    let v1 = lds_u32(lds, limit, lds_address(base, o1));
                    vgpr[first][lane] = v0;
                    if second {
                        vgpr[first + 1][lane] = v1;
                    }
                },
            );
        }
        Kind::Read2(size, st64) | Kind::Write2(size, st64) | Kind::Wrxchg2(size, st64) => {
            // At most 8 · 64 · 255: the product fits in 32 bits.
            let scale = size as u32 * if st64 { 64 } else { 1 };
            let off = [
                u32::from(inst.modifiers.offset0) * scale,
                u32::from(inst.modifiers.offset1) * scale,
            ];
            let n = size as usize;
            let dw = n / 4;
            // Operand positions: read2 (vdst, addr); write2 (addr, d0, d1);
            // wrxchg2 (vdst, addr, d0, d1).
            let (dst, addr, data) = match kind {
                Kind::Read2(..) => (Some(regs(0)?), regs(1)?, None),
                Kind::Write2(..) => (None, regs(0)?, Some([regs(1)?, regs(2)?])),
                _ => (Some(regs(0)?), regs(1)?, Some([regs(2)?, regs(3)?])),
            };
            for lane in lanes(exec) {
                let base = addr.get(ctx.wave, lane)[0];
                let mut old = [0u32; 4];
                for (k, &o) in off.iter().enumerate() {
                    let a = lds_address(base, o);
                    if dst.is_some() {
                        for i in 0..dw {
                            old[k * dw + i] = lds_u32(ctx.lds, limit, a + 4 * i as u64);
                        }
                    }
                    if let Some(data) = data {
                        let d = data[k].get(ctx.wave, lane);
                        for (i, &v) in d.iter().enumerate().take(dw) {
                            lds_put_u32(ctx.lds, limit, a + 4 * i as u64, v);
                        }
                    }
                }
                if let Some(dst) = dst {
                    dst.set(ctx.wave, lane, &old);
                }
            }
        }
        Kind::Atomic(op, wide, rtn) => atomic(ctx, inst, op, wide, rtn, limit, exec)?,
        Kind::Swizzle | Kind::Permute | Kind::Bpermute => cross_lane(ctx, inst, kind, exec)?,
        Kind::Append | Kind::Consume => {
            let dst = regs(0)?;
            // M0 holds the counter's address here, not a clamp.
            let limit = ctx.lds.len() as u64;
            let a = lds_address(ctx.wave.m0() & 0xffff, offset);
            let mut raw = [0u8; 4];
            lds_read(ctx.lds, limit, a, &mut raw);
            let old = u32::from_le_bytes(raw);
            let count = exec.count_ones();
            let new = if matches!(kind, Kind::Append) {
                old.wrapping_add(count)
            } else {
                old.wrapping_sub(count)
            };
            if count > 0 {
                lds_write(ctx.lds, limit, a, &new.to_le_bytes());
            }
            for lane in lanes(exec) {
                dst.set(ctx.wave, lane, &[old]);
            }
        }
    }
    Ok(Flow::Next)
}

/// The DS atomics, with and without return.
fn atomic(
    ctx: &mut WaveCtx<'_>,
    inst: &Instruction,
    op: AtomicOp,
    wide: bool,
    rtn: bool,
    limit: u64,
    exec: u64,
) -> Result<(), Fault> {
    let ops = inst.operands();
    let first = usize::from(rtn);
    let reg = |i: usize| -> Result<Regs, Fault> {
        let o = ops
            .get(i)
            .ok_or_else(|| illegal(format!("{inst}: operand {i} is missing")))?;
        Regs::of(ctx.wave, o)
    };
    let dst = if rtn { Some(reg(0)?) } else { None };
    let addr = reg(first)?;
    let data0 = reg(first + 1)?;
    let data1 = if op.two_operands() {
        Some(reg(first + 2)?)
    } else {
        None
    };
    let offset = u32::from(inst.modifiers.offset as u16);
    let n = if wide { 8 } else { 4 };
    for lane in lanes(exec) {
        let a = lds_address(addr.get(ctx.wave, lane)[0], offset);
        let d0 = data0.get64(ctx.wave, lane);
        let d1 = data1.map_or(0, |r| r.get64(ctx.wave, lane));
        // ds_cmpst_*: DATA0 is the compare value, DATA1 the new value.
        let (src, extra) = match op {
            AtomicOp::CmpSwap | AtomicOp::FCmpSwap => (d1, d0),
            _ => (d0, d1),
        };
        let mut raw = [0u8; 8];
        lds_read(ctx.lds, limit, a, &mut raw[..n]);
        let old = u64::from_le_bytes(raw);
        let new = if wide {
            op.apply64(old, src, extra)
        } else {
            u64::from(op.apply32(old as u32, src as u32, extra as u32))
        };
        lds_write(ctx.lds, limit, a, &new.to_le_bytes()[..n]);
        if let Some(dst) = dst {
            dst.set(ctx.wave, lane, &[old as u32, (old >> 32) as u32]);
        }
    }
    Ok(())
}

/// `ds_swizzle_b32`, `ds_permute_b32`, `ds_bpermute_b32`: gather every lane's
/// result first, then write the EXEC lanes.
fn cross_lane(
    ctx: &mut WaveCtx<'_>,
    inst: &Instruction,
    kind: Kind,
    exec: u64,
) -> Result<(), Fault> {
    let w = &*ctx.wave;
    let size = w.lanes() as usize;
    let offset = inst.modifiers.offset as u16;
    let dst = Regs::of(w, operand(inst, 0)?)?;
    let addr = Regs::of(w, operand(inst, 1)?)?;
    let active = |lane: usize| exec >> lane & 1 != 0;
    let mut out = [0u32; 64];
    match kind {
        Kind::Swizzle => {
            let src = &w.vgpr[usize::from(addr.first)];
            let quad = offset & 0x8000 != 0;
            // gfx1030's FFT (0xe000+) and rotate (0xc000+) modes.
            let fft_rotate = quad && w.target.isa == Isa::Gfx1030 && offset >= 0xc000;
            let (and, or, xor) = (offset & 0x1f, offset >> 5 & 0x1f, offset >> 10 & 0x1f);
            for (lane, o) in out.iter_mut().enumerate().take(size) {
                let from = if fft_rotate {
                    rare::swizzle_source(offset, lane)
                } else if quad {
                    (lane & !3) | usize::from(offset >> (2 * (lane & 3)) & 3)
                } else {
                    (lane & 0x20) | usize::from((((lane as u16 & 0x1f) & and) | or) ^ xor)
                };
                *o = if active(from) { src[from] } else { 0 };
            }
        }
        Kind::Permute | Kind::Bpermute => {
            let data = &w.vgpr[usize::from(Regs::of(w, operand(inst, 2)?)?.first)];
            // gfx1030 permutes within each 32-lane half (a wave64 is two
            // halves; the address selects one of 32 lanes), GCN3 across all 64.
            let halves = w.target.isa == Isa::Gfx1030;
            let target = |lane: usize| {
                let a = u64::from(w.vgpr[usize::from(addr.first)][lane]) + u64::from(offset);
                if halves {
                    (a / 4) as usize & 31 | (lane & 32)
                } else {
                    (a / 4) as usize % size
                }
            };
            for lane in 0..size {
                if matches!(kind, Kind::Permute) {
                    // Push: ascending order, so the highest source lane wins.
                    if active(lane) {
                        out[target(lane)] = data[lane];
                    }
                } else {
                    let from = target(lane);
                    out[lane] = if active(from) { data[from] } else { 0 };
                }
            }
        }
        _ => return Err(not_implemented(inst)),
    }
    for lane in lanes(exec) {
        dst.set(ctx.wave, lane, &[out[lane]]);
    }
    Ok(())
}
