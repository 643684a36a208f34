//! The DS forms `ds.rs` leaves out: gfx803's `*_src2_*` (LDS-to-LDS
//! atomics), `ds_condxchg32_rtn_b64` and gfx1030's `ds_{read,write}_addtid_b32`.
//! GDS, GWS and `ds_ordered_count` stay not implemented (no GDS in this
//! model; see `docs/golden-coverage.md`).
//!
//! * `*_src2_*` (GCN3 guide): `A = ADDR`, `B = A + 4 * off`, `DS[A] =
//!   op(DS[A], DS[B])`, where `off` is `{offset1[6], offset1[6:0], offset0}`
//!   (a sign-extended 15-bit count) or, when `offset1[7]` is set,
//!   `{A[31], A[31:17]}` (the stride rides in the address's high bits; the
//!   address itself is then `A[16:0]`, as CLRX's reverse-engineered notes
//!   also read it). The 64-bit forms use the same `4 *` scale (the guide
//!   writes no other). `op` is the matching atomic with `DS[B]` as data
//!   (`write_src2` is a copy).
//! * `ds_condxchg32_rtn_b64` (RDNA3 guide's pseudo-code; the GCN3/RDNA2
//!   guides only say "conditional write exchange"): `A0 = (ADDR + offset) &
//!   0xfff8`, `A1 = A0 + 4`; returns both old dwords, and writes
//!   `DATA[30:0]` to A0 when `DATA[31]`, `DATA[62:32]` to A1 when
//!   `DATA[63]` (bit 31 of each written dword cleared).
//! * `ds_swizzle_b32` on gfx1030, offsets 0xc000 and up (the guide's
//!   pseudo-code): rotate mode, `j = (i & mask) | ((i + rot) & !mask)` with
//!   `mask = offset[4:0]`, `rot = offset[9:5]` (negated when `offset[10]`),
//!   and FFT mode (0xe000 and up), `j = (rev5(i) >> popcount(mask)) | (i &
//!   mask)`; both stay within the lane's 32-lane half (the pseudo-code's
//!   `(i + rot) & ~mask` can carry into bit 5 before `j |= i & 0x20`; the
//!   carry is dropped here, since every other swizzle mode works per half).
//! * `addtid`: lane `l` accesses `offset + M0[15:0] + 4 * l`; M0 is the base
//!   address here, so gfx803's M0 clamp does not apply.

use arch::device::Fault;
use arch::isa::{Instruction, Isa, Opcode};

use crate::exec::sop::operand;
use crate::exec::vmem::atomic::AtomicOp;
use crate::exec::vmem::{lanes, lds_read, lds_write, Regs};
use crate::exec::{not_implemented, Flow, WaveCtx};

/// Executes one of this file's DS forms; a fault naming it as not
/// implemented for any other (GDS, GWS, ordered count).
pub fn execute(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    use Opcode::*;
    if inst.modifiers.gds {
        return Err(not_implemented(inst));
    }
    match inst.opcode {
        DS_CONDXCHG32_RTN_B64 => condxchg32(ctx, inst)?,
        DS_WRITE_ADDTID_B32 | DS_READ_ADDTID_B32 => addtid(ctx, inst)?,
        op => match src2_op(op) {
            Some((atomic, wide)) => src2(ctx, inst, atomic, wide)?,
            None => return Err(not_implemented(inst)),
        },
    }
    Ok(Flow::Next)
}

/// The atomic of a `*_src2_*` opcode and whether it is 64-bit.
fn src2_op(op: Opcode) -> Option<(AtomicOp, bool)> {
    use AtomicOp as A;
    use Opcode::*;
    Some(match op {
        DS_ADD_SRC2_U32 => (A::Add, false),
        DS_SUB_SRC2_U32 => (A::Sub, false),
        DS_RSUB_SRC2_U32 => (A::Rsub, false),
        DS_INC_SRC2_U32 => (A::Inc, false),
        DS_DEC_SRC2_U32 => (A::Dec, false),
        DS_MIN_SRC2_I32 => (A::Smin, false),
        DS_MAX_SRC2_I32 => (A::Smax, false),
        DS_MIN_SRC2_U32 => (A::Umin, false),
        DS_MAX_SRC2_U32 => (A::Umax, false),
        DS_AND_SRC2_B32 => (A::And, false),
        DS_OR_SRC2_B32 => (A::Or, false),
        DS_XOR_SRC2_B32 => (A::Xor, false),
        DS_WRITE_SRC2_B32 => (A::Swap, false),
        DS_MIN_SRC2_F32 => (A::Fmin, false),
        DS_MAX_SRC2_F32 => (A::Fmax, false),
        DS_ADD_SRC2_F32 => (A::Fadd, false),
        DS_ADD_SRC2_U64 => (A::Add, true),
        DS_SUB_SRC2_U64 => (A::Sub, true),
        DS_RSUB_SRC2_U64 => (A::Rsub, true),
        DS_INC_SRC2_U64 => (A::Inc, true),
        DS_DEC_SRC2_U64 => (A::Dec, true),
        DS_MIN_SRC2_I64 => (A::Smin, true),
        DS_MAX_SRC2_I64 => (A::Smax, true),
        DS_MIN_SRC2_U64 => (A::Umin, true),
        DS_MAX_SRC2_U64 => (A::Umax, true),
        DS_AND_SRC2_B64 => (A::And, true),
        DS_OR_SRC2_B64 => (A::Or, true),
        DS_XOR_SRC2_B64 => (A::Xor, true),
        DS_WRITE_SRC2_B64 => (A::Swap, true),
        DS_MIN_SRC2_F64 => (A::Fmin, true),
        DS_MAX_SRC2_F64 => (A::Fmax, true),
        _ => return None,
    })
}

/// The LDS byte limit of the address-VGPR forms: the allocation, and on
/// gfx803 also M0.
fn limit(ctx: &WaveCtx<'_>) -> u64 {
    match ctx.wave.target.isa {
        Isa::Gfx803 => (ctx.lds.len() as u64).min(u64::from(ctx.wave.m0())),
        Isa::Gfx1030 => ctx.lds.len() as u64,
    }
}

/// The `(A, B)` addresses of a `*_src2_*` form for address VGPR value `addr`.
pub fn src2_addresses(addr: u32, offset: u16) -> (u32, u32) {
    // Both offset sources are sign-extended 15-bit element counts.
    let sext15 = |x: u32| ((x << 17) as i32 >> 17) as u32;
    let (a, count) = if offset & 0x8000 != 0 {
        (addr & 0x1_ffff, sext15(addr >> 17))
    } else {
        (addr, sext15(u32::from(offset)))
    };
    (a, a.wrapping_add(count.wrapping_mul(4)))
}

fn src2(ctx: &mut WaveCtx<'_>, inst: &Instruction, op: AtomicOp, wide: bool) -> Result<(), Fault> {
    let addr = Regs::of(ctx.wave, operand(inst, 0)?)?;
    let limit = limit(ctx);
    let n = if wide { 8 } else { 4 };
    let offset = inst.modifiers.offset as u16;
    for lane in lanes(ctx.wave.exec()) {
        let (a, b) = src2_addresses(addr.get(ctx.wave, lane)[0], offset);
        let (mut old, mut src) = ([0u8; 8], [0u8; 8]);
        lds_read(ctx.lds, limit, u64::from(a), &mut old[..n]);
        lds_read(ctx.lds, limit, u64::from(b), &mut src[..n]);
        let (old, src) = (u64::from_le_bytes(old), u64::from_le_bytes(src));
        let new = if wide {
            op.apply64(old, src, 0)
        } else {
            u64::from(op.apply32(old as u32, src as u32, 0))
        };
        lds_write(ctx.lds, limit, u64::from(a), &new.to_le_bytes()[..n]);
    }
    Ok(())
}

fn condxchg32(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<(), Fault> {
    let dst = Regs::of(ctx.wave, operand(inst, 0)?)?;
    let addr = Regs::of(ctx.wave, operand(inst, 1)?)?;
    let data = Regs::of(ctx.wave, operand(inst, 2)?)?;
    let limit = limit(ctx);
    let offset = u32::from(inst.modifiers.offset as u16);
    for lane in lanes(ctx.wave.exec()) {
        let a0 = u64::from(addr.get(ctx.wave, lane)[0].wrapping_add(offset) & 0xfff8);
        let d = data.get(ctx.wave, lane);
        let mut old = [0u32; 2];
        for (k, a) in [a0, a0 + 4].into_iter().enumerate() {
            let mut raw = [0u8; 4];
            lds_read(ctx.lds, limit, a, &mut raw);
            old[k] = u32::from_le_bytes(raw);
            if d[k] >> 31 != 0 {
                lds_write(ctx.lds, limit, a, &(d[k] & 0x7fff_ffff).to_le_bytes());
            }
        }
        dst.set(ctx.wave, lane, &old);
    }
    Ok(())
}

/// The source lane of lane `lane` in `ds_swizzle_b32`'s gfx1030 rotate and
/// FFT modes (`offset >= 0xc000`).
pub fn swizzle_source(offset: u16, lane: usize) -> usize {
    let mask = usize::from(offset & 0x1f);
    let half = lane & 0x20;
    let i = lane & 0x1f;
    let j = if offset >= 0xe000 {
        let rev = ((i as u32).reverse_bits() >> 27) as usize;
        (rev >> mask.count_ones()) | (i & mask)
    } else {
        let r = usize::from(offset >> 5 & 0x1f);
        let rot = if offset & 0x400 != 0 { 32 - r } else { r };
        (i & mask) | ((i + rot) & !mask & 0x1f)
    };
    half | j
}

fn addtid(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<(), Fault> {
    let reg = Regs::of(ctx.wave, operand(inst, 0)?)?;
    // M0 is the base address, not a clamp: only the allocation bounds it.
    let limit = ctx.lds.len() as u64;
    let base = u64::from(inst.modifiers.offset as u16) + u64::from(ctx.wave.m0() & 0xffff);
    let write = inst.opcode == Opcode::DS_WRITE_ADDTID_B32;
    for lane in lanes(ctx.wave.exec()) {
        let a = base + 4 * lane as u64;
        if write {
            let v = reg.get(ctx.wave, lane)[0];
            lds_write(ctx.lds, limit, a, &v.to_le_bytes());
        } else {
            let mut raw = [0u8; 4];
            lds_read(ctx.lds, limit, a, &mut raw);
            reg.set(ctx.wave, lane, &[u32::from_le_bytes(raw)]);
        }
    }
    Ok(())
}
