//! Scalar memory: `s_load_dword*` and `s_buffer_load_dword*` read device
//! memory at issue; `s_memtime`/`s_memrealtime` read the cycle counter.
//!
//! Address = base + `soffset` SGPR (`null`: none) + the 21-bit signed
//! immediate, with the two low bits ignored. `s_load` takes its base from an
//! SGPR pair; `s_buffer_load` from the V# in an SGPR quad (base `V#[47:0]`,
//! STRIDE `dword1[29:16]`, NUM_RECORDS `dword2`): a dword whose byte offset is
//! at or beyond NUM_RECORDS (× STRIDE when STRIDE ≠ 0) reads as 0 without
//! touching memory. An unmapped byte is a memory-violation fault.

use arch::device::FaultKind;
use arch::isa::{Opcode, Operand};

use super::{code, malformed, write32, Regs, Writes};
use crate::exec::operand::sgpr_range;
use crate::exec::{unimplemented, ExecCtx, MemOp};

/// Largest load: `_dwordx16`.
const MAX_DWORDS: usize = 16;

/// Executes one SMEM instruction.
pub(super) fn execute(
    r: &Regs<'_, '_>,
    ctx: &mut ExecCtx<'_>,
    out: &mut Writes,
) -> Result<(), FaultKind> {
    use Opcode::*;
    let (dwords, buffer) = match r.inst.opcode {
        S_LOAD_DWORD => (1, false),
        S_LOAD_DWORDX2 => (2, false),
        S_LOAD_DWORDX4 => (4, false),
        S_LOAD_DWORDX8 => (8, false),
        S_LOAD_DWORDX16 => (16, false),
        S_BUFFER_LOAD_DWORD => (1, true),
        S_BUFFER_LOAD_DWORDX2 => (2, true),
        S_BUFFER_LOAD_DWORDX4 => (4, true),
        S_BUFFER_LOAD_DWORDX8 => (8, true),
        S_BUFFER_LOAD_DWORDX16 => (16, true),
        S_MEMTIME | S_MEMREALTIME => return r.write_dst(0, ctx.cycle, out),
        // Cache maintenance and translation probes change no architectural state.
        S_DCACHE_INV | S_GL1_INV | S_ATC_PROBE | S_ATC_PROBE_BUFFER => return Ok(()),
        _ => return Err(unimplemented(r.inst)),
    };
    let sdata = r.dst_code(0)?;
    if sdata != code::NULL && usize::from(sdata) + dwords > 128 {
        return Err(malformed(r.inst, "the data registers run past s127"));
    }
    let sbase = match *r.operand(1)? {
        Operand::Src { code, .. } if code < 128 => code,
        _ => return Err(malformed(r.inst, "sbase is not a scalar register")),
    };
    let soffset = match r.inst.operands().get(2) {
        Some(&Operand::Src { code, .. }) if code < 128 => r.sgpr(usize::from(code)),
        Some(Operand::Off) | None => 0,
        Some(_) => r.src32(2)?,
    };
    let imm = r.inst.modifiers.offset;
    let bytes = 4 * dwords;
    let mut data = [0u32; MAX_DWORDS];
    let address = if buffer {
        let [d0, d1, d2, _] = sgpr_range::<4>(sbase, r.s)?;
        let base = u64::from(d0) | u64::from(d1 & 0xffff) << 32;
        let stride = u64::from((d1 >> 16) & 0x3fff);
        let limit = if stride != 0 {
            u64::from(d2) * stride
        } else {
            u64::from(d2)
        };
        // Buffer offsets are 32-bit.
        let offset = u64::from(soffset.wrapping_add(imm as u32));
        for (i, d) in data.iter_mut().enumerate().take(dwords) {
            let o = offset + 4 * i as u64;
            if o < limit {
                *d = read_dword(ctx, base.wrapping_add(o) & !3)?;
            }
        }
        base.wrapping_add(offset) & !3
    } else {
        let [lo, hi] = sgpr_range::<2>(sbase, r.s)?;
        let base = u64::from(lo) | u64::from(hi) << 32;
        let address = base
            .wrapping_add(u64::from(soffset))
            .wrapping_add(i64::from(imm) as u64)
            & !3;
        let mut raw = [0u8; 4 * MAX_DWORDS];
        ctx.memory
            .read(address, &mut raw[..bytes])
            .map_err(violation)?;
        for (d, b) in data.iter_mut().zip(raw.chunks_exact(4)).take(dwords) {
            *d = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        address
    };
    if sdata != code::NULL {
        for (i, &d) in data.iter().enumerate().take(dwords) {
            write32(out, sdata + i as u8, d);
        }
    }
    out.access.op = MemOp::ScalarLoad;
    out.access.lanes.push((0, address, bytes as u8));
    Ok(())
}

fn read_dword(ctx: &mut ExecCtx<'_>, address: u64) -> Result<u32, FaultKind> {
    ctx.memory.read_u32(address).map_err(violation)
}

fn violation(address: u64) -> FaultKind {
    FaultKind::MemoryViolation {
        address,
        write: false,
    }
}
