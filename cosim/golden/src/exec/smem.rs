//! SMEM: scalar memory loads (and gfx803's scalar stores), `s_memtime`, cache
//! controls.
//!
//! Address = base + immediate offset + soffset register (gfx803 has one or the
//! other; gfx1030 has both, `null` meaning none), with the two low bits ignored
//! as the hardware does. `s_buffer_*` take the base from a buffer resource (V#):
//! base = V#\[47:0\], and each dword whose byte offset lies at or beyond the
//! range (NUM_RECORDS bytes when STRIDE is 0, else NUM_RECORDS × STRIDE) reads
//! as zero (stores to it are dropped).

use arch::device::Fault;
use arch::isa::{Instruction, Opcode, Operand};

use super::sop::operand;
use super::{illegal, not_implemented, Flow, Wave, WaveCtx};

/// Executes one SMEM instruction.
pub fn execute(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    use Opcode::*;
    match inst.opcode {
        S_DCACHE_INV | S_DCACHE_WB | S_DCACHE_INV_VOL | S_DCACHE_WB_VOL | S_GL1_INV
        | S_ATC_PROBE | S_ATC_PROBE_BUFFER => Ok(Flow::Next),
        S_MEMTIME | S_MEMREALTIME => {
            let now = ctx.now;
            ctx.wave.write_scalar64(operand(inst, 0)?, now)?;
            Ok(Flow::Next)
        }
        S_LOAD_DWORD | S_LOAD_DWORDX2 | S_LOAD_DWORDX4 | S_LOAD_DWORDX8 | S_LOAD_DWORDX16 => {
            let (data, at) = plain_address(ctx.wave, inst)?;
            let n = dwords(ctx.wave, data)?;
            let mut values = [0u32; 16];
            // One translation when the block lies in one memory page (the same
            // bytes as the dword-by-dword loads below).
            let block = if ctx.mem.fast_paths() {
                ctx.mem.page_bytes(at, 4 * n.min(16))
            } else {
                None
            };
            if let Some(bytes) = block {
                for (v, b) in values.iter_mut().zip(bytes.chunks_exact(4)) {
                    *v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                }
            } else {
                for (i, v) in values.iter_mut().enumerate().take(n) {
                    *v = ctx.load_u32(at.wrapping_add(4 * i as u64))?;
                }
            }
            write_dwords(ctx.wave, data, &values[..n])
        }
        S_STORE_DWORD | S_STORE_DWORDX2 | S_STORE_DWORDX4 => {
            let (data, at) = plain_address(ctx.wave, inst)?;
            let values = read_dwords(ctx.wave, data)?;
            for (i, &v) in values.iter().enumerate() {
                ctx.store_u32(at.wrapping_add(4 * i as u64), v)?;
            }
            Ok(Flow::Next)
        }
        S_BUFFER_LOAD_DWORD
        | S_BUFFER_LOAD_DWORDX2
        | S_BUFFER_LOAD_DWORDX4
        | S_BUFFER_LOAD_DWORDX8
        | S_BUFFER_LOAD_DWORDX16 => {
            let (data, buf) = buffer_address(ctx.wave, inst)?;
            let n = dwords(ctx.wave, data)?;
            let mut values = [0u32; 16];
            for (i, v) in values.iter_mut().enumerate().take(n) {
                let offset = buf.offset + 4 * i as u64;
                if offset + 4 <= buf.range {
                    *v = ctx.load_u32(buf.base.wrapping_add(offset))?;
                }
            }
            write_dwords(ctx.wave, data, &values[..n])
        }
        S_BUFFER_STORE_DWORD | S_BUFFER_STORE_DWORDX2 | S_BUFFER_STORE_DWORDX4 => {
            let (data, buf) = buffer_address(ctx.wave, inst)?;
            let values = read_dwords(ctx.wave, data)?;
            for (i, &v) in values.iter().enumerate() {
                let offset = buf.offset + 4 * i as u64;
                if offset + 4 <= buf.range {
                    ctx.store_u32(buf.base.wrapping_add(offset), v)?;
                }
            }
            Ok(Flow::Next)
        }
        _ => Err(not_implemented(inst)),
    }
}

/// Immediate offset plus the soffset register (if the instruction has one).
fn offset(w: &Wave, inst: &Instruction) -> Result<i64, Fault> {
    let soffset = match inst.operands().get(2) {
        Some(op) => u64::from(w.read_scalar(op)?),
        None => 0,
    };
    Ok(i64::from(inst.modifiers.offset).wrapping_add(soffset as i64))
}

/// (data operand, dword-aligned address) of an `s_load`/`s_store`.
fn plain_address<'a>(w: &Wave, inst: &'a Instruction) -> Result<(&'a Operand, u64), Fault> {
    let data = operand(inst, 0)?;
    let base = w.read_scalar64(operand(inst, 1)?)?;
    let at = base.wrapping_add(offset(w, inst)? as u64) & !3;
    Ok((data, at))
}

/// A buffer access: V# base, dword-aligned byte offset, and the in-range limit.
struct BufferAccess {
    base: u64,
    offset: u64,
    range: u64,
}

fn buffer_address<'a>(
    w: &Wave,
    inst: &'a Instruction,
) -> Result<(&'a Operand, BufferAccess), Fault> {
    let data = operand(inst, 0)?;
    let Operand::Src { code, .. } = *operand(inst, 1)? else {
        return Err(illegal(format!(
            "{inst}: the buffer resource is not a register quad"
        )));
    };
    let i = usize::from(code);
    let v: [u32; 4] = match w.sgpr.get(i..i + 4) {
        Some(s) => [s[0], s[1], s[2], s[3]],
        None => {
            return Err(illegal(format!(
                "{inst}: the buffer resource runs past s127"
            )))
        }
    };
    let base = u64::from(v[0]) | (u64::from(v[1] & 0xffff) << 32);
    let stride = u64::from((v[1] >> 16) & 0x3fff);
    let records = u64::from(v[2]);
    let range = if stride == 0 {
        records
    } else {
        records * stride
    };
    // The offset is unsigned here: a negative sum wraps far out of range.
    let offset = (offset(w, inst)? as u64) & 0xffff_ffff & !3;
    Ok((
        data,
        BufferAccess {
            base,
            offset,
            range,
        },
    ))
}

/// Number of dwords an SMEM data operand spans.
fn dwords(w: &Wave, data: &Operand) -> Result<usize, Fault> {
    match *data {
        Operand::Src { ty, .. } => Ok(usize::from(ty.dwords(w.target))),
        _ => Err(illegal("SMEM data operand is not a register range")),
    }
}

fn write_dwords(w: &mut Wave, data: &Operand, values: &[u32]) -> Result<Flow, Fault> {
    let Operand::Src { code, .. } = *data else {
        return Err(illegal("SMEM data operand is not a register range"));
    };
    if code == super::super::wave::NULL {
        return Ok(Flow::Next);
    }
    let i = usize::from(code);
    match w.sgpr.get_mut(i..i + values.len()) {
        Some(regs) if i + values.len() <= 128 => regs.copy_from_slice(values),
        _ => {
            return Err(illegal(format!(
                "SMEM destination s{code} + {} dwords runs past the scalar file",
                values.len()
            )))
        }
    }
    Ok(Flow::Next)
}

fn read_dwords(w: &Wave, data: &Operand) -> Result<Vec<u32>, Fault> {
    let n = dwords(w, data)?;
    let Operand::Src { code, .. } = *data else {
        return Err(illegal("SMEM data operand is not a register range"));
    };
    let i = usize::from(code);
    w.sgpr.get(i..i + n).map(<[u32]>::to_vec).ok_or_else(|| {
        illegal(format!(
            "SMEM source s{code} + {n} dwords runs past the scalar file"
        ))
    })
}
