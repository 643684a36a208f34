//! DS: the LDS instructions (gfx1030).
//!
//! Address = `addr` VGPR + `offset` (16 bits), a sum that wraps at 32 bits; the two-address forms use
//! `addr + offsetN · size` (`· 64` for `st64`). gfx1030 does not use M0 as an
//! LDS limit: the bound is the workgroup's allocation, and an access reaching
//! past it reads 0 and is not written (each access checked as a unit). No
//! alignment is forced (gfx1030 runs with unaligned LDS access enabled).
//! Lanes are processed in lane order, so atomics from several lanes to one
//! address compose. `ds_swizzle_b32`, `ds_permute_b32` and `ds_bpermute_b32`
//! move data between lanes through the LDS crossbar without touching LDS
//! memory; on gfx1030 they work within each 32-lane half of a wave64, and a
//! lane reading an inactive lane gets 0.

use arch::device::FaultKind;
use arch::isa::{Instruction, Opcode};

use super::atomic::{self, AtomicOp};
use super::kind::Ext;
use super::{active_lanes, extend, lanes_of, malformed, push_vgpr, take, vgpr_base};
use crate::exec::{
    code, ExecCtx, MemOp, MemSpace, MemWrite, ScalarState, Vgprs, Writes, MAX_LANES,
};

/// What a DS opcode does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ds {
    /// `vdst, addr`: read `bytes`.
    Read { bytes: u8, ext: Ext },
    /// `addr, data0`: write `bytes` (`hi`: from bits 31:16).
    Write { bytes: u8, hi: bool },
    /// `vdst, addr`: two reads of `bytes` (4 or 8).
    Read2 { bytes: u8, st64: bool },
    /// `addr, data0, data1`: two writes of `bytes`.
    Write2 { bytes: u8, st64: bool },
    /// `[vdst,] addr, data0[, data1]`.
    Atomic { op: AtomicOp, wide: bool, rtn: bool },
    /// `vdst, addr, data0, data1`: two exchanges.
    Wrxchg2 { wide: bool, st64: bool },
    /// `vdst, addr`.
    Swizzle,
    /// `vdst, addr, data0`: forward permute.
    Permute,
    /// `vdst, addr, data0`: backward permute.
    Bpermute,
    /// `vdst`: read at M0 + offset + 4 · lane.
    ReadAddtid,
    /// `data0`: write at M0 + offset + 4 · lane.
    WriteAddtid,
    /// `vdst`: add (`append`) or subtract (`consume`) the active-lane count
    /// at M0 + offset; every active lane gets the pre-op value.
    Counter { consume: bool },
    /// `vdst, addr, data0`: conditional exchange of two dwords.
    Condxchg32,
    /// No operation.
    Nop,
}

/// The DS operation of `op`, `None` for what is not modelled.
fn classify(op: Opcode) -> Option<Ds> {
    use AtomicOp as A;
    use Opcode as O;
    let at = |op, wide, rtn| Ds::Atomic { op, wide, rtn };
    Some(match op {
        O::DS_NOP => Ds::Nop,
        O::DS_READ_U8 => Ds::Read {
            bytes: 1,
            ext: Ext::Zero,
        },
        O::DS_READ_I8 => Ds::Read {
            bytes: 1,
            ext: Ext::Sign,
        },
        O::DS_READ_U16 => Ds::Read {
            bytes: 2,
            ext: Ext::Zero,
        },
        O::DS_READ_I16 => Ds::Read {
            bytes: 2,
            ext: Ext::Sign,
        },
        O::DS_READ_B32 => Ds::Read {
            bytes: 4,
            ext: Ext::Zero,
        },
        O::DS_READ_B64 => Ds::Read {
            bytes: 8,
            ext: Ext::Zero,
        },
        O::DS_READ_B96 => Ds::Read {
            bytes: 12,
            ext: Ext::Zero,
        },
        O::DS_READ_B128 => Ds::Read {
            bytes: 16,
            ext: Ext::Zero,
        },
        O::DS_READ_U8_D16 => Ds::Read {
            bytes: 1,
            ext: Ext::Lo16 { sign: false },
        },
        O::DS_READ_U8_D16_HI => Ds::Read {
            bytes: 1,
            ext: Ext::Hi16 { sign: false },
        },
        O::DS_READ_I8_D16 => Ds::Read {
            bytes: 1,
            ext: Ext::Lo16 { sign: true },
        },
        O::DS_READ_I8_D16_HI => Ds::Read {
            bytes: 1,
            ext: Ext::Hi16 { sign: true },
        },
        O::DS_READ_U16_D16 => Ds::Read {
            bytes: 2,
            ext: Ext::Lo16 { sign: false },
        },
        O::DS_READ_U16_D16_HI => Ds::Read {
            bytes: 2,
            ext: Ext::Hi16 { sign: false },
        },
        O::DS_WRITE_B8 => Ds::Write {
            bytes: 1,
            hi: false,
        },
        O::DS_WRITE_B16 => Ds::Write {
            bytes: 2,
            hi: false,
        },
        O::DS_WRITE_B8_D16_HI => Ds::Write { bytes: 1, hi: true },
        O::DS_WRITE_B16_D16_HI => Ds::Write { bytes: 2, hi: true },
        O::DS_WRITE_B32 => Ds::Write {
            bytes: 4,
            hi: false,
        },
        O::DS_WRITE_B64 => Ds::Write {
            bytes: 8,
            hi: false,
        },
        O::DS_WRITE_B96 => Ds::Write {
            bytes: 12,
            hi: false,
        },
        O::DS_WRITE_B128 => Ds::Write {
            bytes: 16,
            hi: false,
        },
        O::DS_READ2_B32 => Ds::Read2 {
            bytes: 4,
            st64: false,
        },
        O::DS_READ2ST64_B32 => Ds::Read2 {
            bytes: 4,
            st64: true,
        },
        O::DS_READ2_B64 => Ds::Read2 {
            bytes: 8,
            st64: false,
        },
        O::DS_READ2ST64_B64 => Ds::Read2 {
            bytes: 8,
            st64: true,
        },
        O::DS_WRITE2_B32 => Ds::Write2 {
            bytes: 4,
            st64: false,
        },
        O::DS_WRITE2ST64_B32 => Ds::Write2 {
            bytes: 4,
            st64: true,
        },
        O::DS_WRITE2_B64 => Ds::Write2 {
            bytes: 8,
            st64: false,
        },
        O::DS_WRITE2ST64_B64 => Ds::Write2 {
            bytes: 8,
            st64: true,
        },
        O::DS_WRXCHG2_RTN_B32 => Ds::Wrxchg2 {
            wide: false,
            st64: false,
        },
        O::DS_WRXCHG2ST64_RTN_B32 => Ds::Wrxchg2 {
            wide: false,
            st64: true,
        },
        O::DS_WRXCHG2_RTN_B64 => Ds::Wrxchg2 {
            wide: true,
            st64: false,
        },
        O::DS_WRXCHG2ST64_RTN_B64 => Ds::Wrxchg2 {
            wide: true,
            st64: true,
        },
        O::DS_SWIZZLE_B32 => Ds::Swizzle,
        O::DS_PERMUTE_B32 => Ds::Permute,
        O::DS_BPERMUTE_B32 => Ds::Bpermute,
        O::DS_READ_ADDTID_B32 => Ds::ReadAddtid,
        O::DS_WRITE_ADDTID_B32 => Ds::WriteAddtid,
        O::DS_APPEND => Ds::Counter { consume: false },
        O::DS_CONSUME => Ds::Counter { consume: true },
        O::DS_CONDXCHG32_RTN_B64 => Ds::Condxchg32,
        // 32-bit atomics without and with return.
        O::DS_ADD_U32 => at(A::Add, false, false),
        O::DS_SUB_U32 => at(A::Sub, false, false),
        O::DS_RSUB_U32 => at(A::Rsub, false, false),
        O::DS_INC_U32 => at(A::Inc, false, false),
        O::DS_DEC_U32 => at(A::Dec, false, false),
        O::DS_MIN_I32 => at(A::Smin, false, false),
        O::DS_MAX_I32 => at(A::Smax, false, false),
        O::DS_MIN_U32 => at(A::Umin, false, false),
        O::DS_MAX_U32 => at(A::Umax, false, false),
        O::DS_AND_B32 => at(A::And, false, false),
        O::DS_OR_B32 => at(A::Or, false, false),
        O::DS_XOR_B32 => at(A::Xor, false, false),
        O::DS_MSKOR_B32 => at(A::Mskor, false, false),
        O::DS_CMPST_B32 => at(A::Cmpswap, false, false),
        O::DS_CMPST_F32 => at(A::Fcmpswap, false, false),
        O::DS_MIN_F32 => at(A::Fmin, false, false),
        O::DS_MAX_F32 => at(A::Fmax, false, false),
        O::DS_ADD_F32 => at(A::Fadd, false, false),
        O::DS_ADD_RTN_U32 => at(A::Add, false, true),
        O::DS_SUB_RTN_U32 => at(A::Sub, false, true),
        O::DS_RSUB_RTN_U32 => at(A::Rsub, false, true),
        O::DS_INC_RTN_U32 => at(A::Inc, false, true),
        O::DS_DEC_RTN_U32 => at(A::Dec, false, true),
        O::DS_MIN_RTN_I32 => at(A::Smin, false, true),
        O::DS_MAX_RTN_I32 => at(A::Smax, false, true),
        O::DS_MIN_RTN_U32 => at(A::Umin, false, true),
        O::DS_MAX_RTN_U32 => at(A::Umax, false, true),
        O::DS_AND_RTN_B32 => at(A::And, false, true),
        O::DS_OR_RTN_B32 => at(A::Or, false, true),
        O::DS_XOR_RTN_B32 => at(A::Xor, false, true),
        O::DS_MSKOR_RTN_B32 => at(A::Mskor, false, true),
        O::DS_WRXCHG_RTN_B32 => at(A::Swap, false, true),
        O::DS_CMPST_RTN_B32 => at(A::Cmpswap, false, true),
        O::DS_CMPST_RTN_F32 => at(A::Fcmpswap, false, true),
        O::DS_MIN_RTN_F32 => at(A::Fmin, false, true),
        O::DS_MAX_RTN_F32 => at(A::Fmax, false, true),
        O::DS_WRAP_RTN_B32 => at(A::Wrap, false, true),
        O::DS_ADD_RTN_F32 => at(A::Fadd, false, true),
        // 64-bit atomics without and with return.
        O::DS_ADD_U64 => at(A::Add, true, false),
        O::DS_SUB_U64 => at(A::Sub, true, false),
        O::DS_RSUB_U64 => at(A::Rsub, true, false),
        O::DS_INC_U64 => at(A::Inc, true, false),
        O::DS_DEC_U64 => at(A::Dec, true, false),
        O::DS_MIN_I64 => at(A::Smin, true, false),
        O::DS_MAX_I64 => at(A::Smax, true, false),
        O::DS_MIN_U64 => at(A::Umin, true, false),
        O::DS_MAX_U64 => at(A::Umax, true, false),
        O::DS_AND_B64 => at(A::And, true, false),
        O::DS_OR_B64 => at(A::Or, true, false),
        O::DS_XOR_B64 => at(A::Xor, true, false),
        O::DS_MSKOR_B64 => at(A::Mskor, true, false),
        O::DS_CMPST_B64 => at(A::Cmpswap, true, false),
        O::DS_CMPST_F64 => at(A::Fcmpswap, true, false),
        O::DS_MIN_F64 => at(A::Fmin, true, false),
        O::DS_MAX_F64 => at(A::Fmax, true, false),
        O::DS_ADD_RTN_U64 => at(A::Add, true, true),
        O::DS_SUB_RTN_U64 => at(A::Sub, true, true),
        O::DS_RSUB_RTN_U64 => at(A::Rsub, true, true),
        O::DS_INC_RTN_U64 => at(A::Inc, true, true),
        O::DS_DEC_RTN_U64 => at(A::Dec, true, true),
        O::DS_MIN_RTN_I64 => at(A::Smin, true, true),
        O::DS_MAX_RTN_I64 => at(A::Smax, true, true),
        O::DS_MIN_RTN_U64 => at(A::Umin, true, true),
        O::DS_MAX_RTN_U64 => at(A::Umax, true, true),
        O::DS_AND_RTN_B64 => at(A::And, true, true),
        O::DS_OR_RTN_B64 => at(A::Or, true, true),
        O::DS_XOR_RTN_B64 => at(A::Xor, true, true),
        O::DS_MSKOR_RTN_B64 => at(A::Mskor, true, true),
        O::DS_WRXCHG_RTN_B64 => at(A::Swap, true, true),
        O::DS_CMPST_RTN_B64 => at(A::Cmpswap, true, true),
        O::DS_CMPST_RTN_F64 => at(A::Fcmpswap, true, true),
        O::DS_MIN_RTN_F64 => at(A::Fmin, true, true),
        O::DS_MAX_RTN_F64 => at(A::Fmax, true, true),
        _ => return None,
    })
}

/// True for the atomics that take a second data operand (`data1`).
fn two_data(op: AtomicOp) -> bool {
    matches!(
        op,
        AtomicOp::Mskor | AtomicOp::Cmpswap | AtomicOp::Fcmpswap | AtomicOp::Wrap
    )
}

/// The workgroup's LDS as the DS unit sees it: the allocation's bytes.
struct Lds<'c, 'a> {
    ctx: &'c mut ExecCtx<'a>,
    len: u64,
}

impl Lds<'_, '_> {
    /// Reads `buf.len()` bytes at `addr`; zeros when out of range (noted in
    /// [`ExecCtx::lds_out_of_range`]).
    fn read(&mut self, addr: u64, buf: &mut [u8]) {
        let end = addr + buf.len() as u64;
        if end <= self.len {
            buf.copy_from_slice(&self.ctx.lds[addr as usize..end as usize]);
        } else {
            buf.fill(0);
            self.ctx.note_lds_outside(addr.max(self.len), false);
        }
    }

    /// Writes `data` at `addr` and records it; dropped when out of range
    /// (noted in [`ExecCtx::lds_out_of_range`]).
    fn write(&mut self, addr: u64, data: &[u8], out: &mut Writes) {
        let end = addr + data.len() as u64;
        if end > self.len {
            self.ctx.note_lds_outside(addr.max(self.len), true);
            return;
        }
        self.ctx.lds[addr as usize..end as usize].copy_from_slice(data);
        let mut w = MemWrite {
            address: addr,
            len: data.len() as u8,
            data: [0; 16],
            space: MemSpace::Lds,
        };
        w.data[..data.len()].copy_from_slice(data);
        out.memory.push(w);
    }

    fn read_u64(&mut self, addr: u64, bytes: usize) -> u64 {
        let mut b = [0u8; 8];
        self.read(addr, &mut b[..bytes]);
        u64::from_le_bytes(b)
    }
}

/// A VGPR value of `lane`, 64 bits wide when `wide`.
#[inline]
/// The LDS byte address of an address VGPR plus an instruction offset: a
/// 32-bit sum that wraps, as the hardware's adder does (LLVM folds a
/// constant into the offset field even when the base left in the VGPR is
/// negative: `tile[63 - l]`), so such an access stays in range.
fn lds_address(base: u32, offset: u32) -> u64 {
    u64::from(base.wrapping_add(offset))
}

fn get(v: &Vgprs<'_>, reg: usize, lane: usize, wide: bool) -> u64 {
    let lo = u64::from(v.get(reg, lane).unwrap_or(0));
    if wide {
        lo | u64::from(v.get(reg + 1, lane).unwrap_or(0)) << 32
    } else {
        lo
    }
}

/// Executes a DS instruction.
pub(super) fn execute(
    inst: &Instruction,
    s: &ScalarState,
    v: &Vgprs<'_>,
    ctx: &mut ExecCtx<'_>,
    out: &mut Writes,
) -> Result<(), FaultKind> {
    let unimpl = || crate::exec::unimplemented(inst);
    // GDS (and with it GWS and ordered count) is not modelled.
    if inst.modifiers.gds {
        return Err(unimpl());
    }
    let op = classify(inst.opcode).ok_or_else(unimpl)?;
    if op == Ds::Nop {
        return Ok(());
    }
    out.access.op = MemOp::Lds;
    let active = active_lanes(s, v);
    let offset = inst.modifiers.offset as u32 & 0xffff;
    let mut i = 0;
    match op {
        Ds::Swizzle | Ds::Permute | Ds::Bpermute => {
            return cross_lane(inst, op, s, v, active, out);
        }
        Ds::Counter { consume } => {
            // The counter lives at M0[15:0] + offset (M0 carries the pointer,
            // as LLVM selects it); one access for the wave.
            let a = lds_address(s.sgpr[usize::from(code::M0)] & 0xffff, offset);
            let reg = vgpr_base(inst, &take(inst, &mut i)?, 1, v)?;
            let mut lds = Lds {
                len: super::lds_len(ctx) as u64,
                ctx,
            };
            let old = lds.read_u64(a, 4) as u32;
            let n = active.count_ones();
            let new = if consume {
                old.wrapping_sub(n)
            } else {
                old.wrapping_add(n)
            };
            if active != 0 {
                out.access.lanes.push((active.trailing_zeros() as u8, a, 4));
                lds.write(a, &new.to_le_bytes(), out);
            }
            push_vgpr(out, reg, active, &[old; MAX_LANES]);
            return Ok(());
        }
        Ds::ReadAddtid | Ds::WriteAddtid => {
            let base = lds_address(s.sgpr[usize::from(code::M0)] & 0xffff, offset);
            let mut lds = Lds {
                len: super::lds_len(ctx) as u64,
                ctx,
            };
            let reg = vgpr_base(inst, &take(inst, &mut i)?, 1, v)?;
            let mut values = [0u32; MAX_LANES];
            for lane in lanes_of(active) {
                let a = base + 4 * lane as u64;
                out.access.lanes.push((lane as u8, a, 4));
                if op == Ds::ReadAddtid {
                    values[lane] = lds.read_u64(a, 4) as u32;
                } else {
                    let d = v.get(reg, lane).unwrap_or(0).to_le_bytes();
                    lds.write(a, &d, out);
                }
            }
            if op == Ds::ReadAddtid {
                push_vgpr(out, reg, active, &values);
            }
            return Ok(());
        }
        _ => {}
    }
    // Operands in print order: [vdst], addr, [data0], [data1].
    let (dst_dwords, data_dwords, n_data) = match op {
        Ds::Read { bytes, .. } => (usize::from(bytes.div_ceil(4)), 0, 0),
        Ds::Write { bytes, .. } => (0, usize::from(bytes.div_ceil(4)), 1),
        Ds::Read2 { bytes, .. } => (usize::from(bytes / 2), 0, 0),
        Ds::Write2 { bytes, .. } => (0, usize::from(bytes / 4), 2),
        Ds::Wrxchg2 { wide, .. } => (if wide { 4 } else { 2 }, if wide { 2 } else { 1 }, 2),
        Ds::Condxchg32 => (2, 2, 1),
        Ds::Atomic { op, wide, rtn } => {
            let w = if wide { 2 } else { 1 };
            (if rtn { w } else { 0 }, w, if two_data(op) { 2 } else { 1 })
        }
        _ => return Err(unimpl()),
    };
    let vdst = if dst_dwords > 0 {
        Some(vgpr_base(inst, &take(inst, &mut i)?, dst_dwords, v)?)
    } else {
        None
    };
    let addr = super::operand::vector_dword(&take(inst, &mut i)?, 0, s, v)?;
    let mut data = [0usize; 2];
    for d in data.iter_mut().take(n_data) {
        *d = vgpr_base(inst, &take(inst, &mut i)?, data_dwords, v)?;
    }
    let mut lds = Lds {
        len: super::lds_len(ctx) as u64,
        ctx,
    };
    let mut values = [[0u32; MAX_LANES]; 4];
    match op {
        Ds::Read { bytes, ext } => {
            for lane in lanes_of(active) {
                let a = lds_address(addr[lane], offset);
                out.access.lanes.push((lane as u8, a, bytes));
                let mut b = [0u8; 16];
                lds.read(a, &mut b[..usize::from(bytes)]);
                if bytes >= 4 {
                    for (k, val) in values.iter_mut().enumerate().take(dst_dwords) {
                        val[lane] = u32::from_le_bytes([
                            b[4 * k],
                            b[4 * k + 1],
                            b[4 * k + 2],
                            b[4 * k + 3],
                        ]);
                    }
                } else {
                    let raw = u32::from_le_bytes([b[0], b[1], 0, 0]);
                    let prev = v.get(vdst.unwrap_or(0), lane).unwrap_or(0);
                    values[0][lane] = extend(ext, bytes, raw, prev);
                }
            }
        }
        Ds::Write { bytes, hi } => {
            for lane in lanes_of(active) {
                let a = lds_address(addr[lane], offset);
                out.access.lanes.push((lane as u8, a, bytes));
                let mut b = [0u8; 16];
                for k in 0..data_dwords {
                    let d = v.get(data[0] + k, lane).unwrap_or(0);
                    b[4 * k..4 * k + 4].copy_from_slice(&d.to_le_bytes());
                }
                if hi {
                    b.copy_within(2..4, 0);
                }
                lds.write(a, &b[..usize::from(bytes)], out);
            }
        }
        Ds::Read2 { bytes, st64 } | Ds::Write2 { bytes, st64 } => {
            let scale = u32::from(bytes) * if st64 { 64 } else { 1 };
            let offs = [
                u32::from(inst.modifiers.offset0) * scale,
                u32::from(inst.modifiers.offset1) * scale,
            ];
            let w = usize::from(bytes / 4);
            let read = matches!(op, Ds::Read2 { .. });
            for lane in lanes_of(active) {
                for (j, o) in offs.iter().enumerate() {
                    let a = lds_address(addr[lane], *o);
                    out.access.lanes.push((lane as u8, a, bytes));
                    let mut b = [0u8; 8];
                    if read {
                        lds.read(a, &mut b[..usize::from(bytes)]);
                        for k in 0..w {
                            values[j * w + k][lane] = u32::from_le_bytes([
                                b[4 * k],
                                b[4 * k + 1],
                                b[4 * k + 2],
                                b[4 * k + 3],
                            ]);
                        }
                    } else {
                        for k in 0..w {
                            let d = v.get(data[j] + k, lane).unwrap_or(0);
                            b[4 * k..4 * k + 4].copy_from_slice(&d.to_le_bytes());
                        }
                        lds.write(a, &b[..usize::from(bytes)], out);
                    }
                }
            }
        }
        Ds::Wrxchg2 { wide, st64 } => {
            let bytes = if wide { 8u8 } else { 4 };
            let scale = u32::from(bytes) * if st64 { 64 } else { 1 };
            let offs = [
                u32::from(inst.modifiers.offset0) * scale,
                u32::from(inst.modifiers.offset1) * scale,
            ];
            let w = usize::from(bytes / 4);
            for lane in lanes_of(active) {
                for (j, o) in offs.iter().enumerate() {
                    let a = lds_address(addr[lane], *o);
                    out.access.lanes.push((lane as u8, a, bytes));
                    let old = lds.read_u64(a, usize::from(bytes));
                    let new = get(v, data[j], lane, wide).to_le_bytes();
                    lds.write(a, &new[..usize::from(bytes)], out);
                    values[j * w][lane] = old as u32;
                    if wide {
                        values[j * w + 1][lane] = (old >> 32) as u32;
                    }
                }
            }
        }
        Ds::Atomic { op: aop, wide, .. } => {
            let bytes = if wide { 8u8 } else { 4 };
            for lane in lanes_of(active) {
                let a = lds_address(addr[lane], offset);
                out.access.lanes.push((lane as u8, a, bytes));
                let d0 = get(v, data[0], lane, wide);
                let d1 = if n_data == 2 {
                    get(v, data[1], lane, wide)
                } else {
                    0
                };
                // DS compare-stores carry the compare value first (DATA) and the
                // new value second (DATA2); the others take DATA, DATA2 in order.
                let (x, y) = match aop {
                    AtomicOp::Cmpswap | AtomicOp::Fcmpswap => (d1, d0),
                    _ => (d0, d1),
                };
                let old = lds.read_u64(a, usize::from(bytes));
                let new = atomic::apply(aop, wide, old, x, y).to_le_bytes();
                lds.write(a, &new[..usize::from(bytes)], out);
                values[0][lane] = old as u32;
                values[1][lane] = (old >> 32) as u32;
            }
        }
        Ds::Condxchg32 => {
            // RDNA3's pseudo-code (RDNA2 only names it): the qword at
            // (addr + offset) & 0xfff8; each dword is replaced by its data
            // dword with bit 31 cleared when that data dword has bit 31 set.
            for lane in lanes_of(active) {
                let a = lds_address(addr[lane], offset) & 0xfff8;
                out.access.lanes.push((lane as u8, a, 8));
                for (k, val) in values.iter_mut().enumerate().take(2) {
                    let ak = a + 4 * k as u64;
                    val[lane] = lds.read_u64(ak, 4) as u32;
                    let d = v.get(data[0] + k, lane).unwrap_or(0);
                    if d >> 31 != 0 {
                        lds.write(ak, &(d & 0x7fff_ffff).to_le_bytes(), out);
                    }
                }
            }
        }
        _ => return Err(malformed(inst)),
    }
    if let Some(reg) = vdst {
        for (k, val) in values.iter().enumerate().take(dst_dwords) {
            push_vgpr(out, reg + k, active, val);
        }
    }
    Ok(())
}

/// `ds_swizzle_b32`, `ds_permute_b32`, `ds_bpermute_b32`: lane exchanges
/// within each 32-lane half.
/// The source lane of `ds_swizzle_b32` lane `lane` in gfx1030's rotate
/// (offset 0xc000..0xe000) and FFT (0xe000 and up) modes, per the RDNA2
/// guide's pseudo-code, within the lane's 32-lane half: rotate takes lane
/// `(i & mask) | ((i ± rot) & !mask)` (`mask` = offset[4:0], `rot` =
/// offset[9:5], subtracted when offset[10]); FFT takes
/// `(reverse5(i) >> popcount(mask)) | (i & mask)`.
fn swizzle_rotate_fft(offset: u32, lane: usize) -> usize {
    let mask = (offset & 0x1f) as usize;
    let i = lane & 31;
    let j = if offset >= 0xe000 {
        let reversed = ((i as u32).reverse_bits() >> 27) as usize;
        (reversed >> mask.count_ones()) | (i & mask)
    } else {
        let r = (offset >> 5 & 0x1f) as usize;
        let rot = if offset & 0x400 != 0 { 32 - r } else { r };
        (i & mask) | ((i + rot) & !mask & 31)
    };
    (lane & 32) | j
}

fn cross_lane(
    inst: &Instruction,
    op: Ds,
    s: &ScalarState,
    v: &Vgprs<'_>,
    active: u64,
    out: &mut Writes,
) -> Result<(), FaultKind> {
    let mut i = 0;
    let dst = vgpr_base(inst, &take(inst, &mut i)?, 1, v)?;
    let addr = super::operand::vector_dword(&take(inst, &mut i)?, 0, s, v)?;
    let offset = inst.modifiers.offset as u32 & 0xffff;
    let src = if op == Ds::Swizzle {
        addr
    } else {
        super::operand::vector_dword(&take(inst, &mut i)?, 0, s, v)?
    };
    let read = |lane: usize| {
        if active >> lane & 1 != 0 {
            src[lane]
        } else {
            0
        }
    };
    let mut values = [0u32; MAX_LANES];
    match op {
        Ds::Swizzle => {
            for lane in lanes_of(active) {
                let from = if offset >= 0xc000 {
                    swizzle_rotate_fft(offset, lane)
                } else if offset & 0x8000 != 0 {
                    let sel = (offset >> (2 * (lane & 3))) as usize & 3;
                    (lane & !3) | sel
                } else {
                    let (and, or, xor) = (offset & 31, offset >> 5 & 31, offset >> 10 & 31);
                    let l = lane as u32 & 31;
                    (((l & and) | or) ^ xor) as usize | (lane & 32)
                };
                values[lane] = read(from);
            }
        }
        Ds::Bpermute => {
            for lane in lanes_of(active) {
                let from = (addr[lane].wrapping_add(offset) >> 2) as usize & 31 | (lane & 32);
                values[lane] = read(from);
            }
        }
        _ => {
            // Forward permute: each active lane sends its data to the lane it
            // names; later lanes win; lanes nobody sends to receive 0.
            let mut got = [0u32; MAX_LANES];
            for lane in lanes_of(active) {
                let to = (addr[lane].wrapping_add(offset) >> 2) as usize & 31 | (lane & 32);
                got[to] = src[lane];
            }
            for lane in lanes_of(active) {
                values[lane] = got[lane];
            }
        }
    }
    push_vgpr(out, dst, active, &values);
    Ok(())
}
