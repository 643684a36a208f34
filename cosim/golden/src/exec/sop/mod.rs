//! Scalar ALU: SOP2, SOPC and SOPK here; SOP1 in `sop1.rs`, SOPP in `sopp.rs`.
//!
//! SCC rules follow AMD's manuals: arithmetic sets SCC to the carry/borrow
//! (unsigned) or overflow (signed); bitwise ops, shifts, `s_bfe`, `s_absdiff`,
//! `s_not`, `s_bcnt` set SCC = (result != 0); min/max set SCC when src0 was
//! chosen; `s_cselect`, `s_mov`, `s_mul`, `s_bfm`, `s_movk`, `s_mulk` leave it.

pub(super) mod sop1;
pub(super) mod sopp;

use arch::device::Fault;
use arch::isa::{Family, Instruction, Opcode, Operand};

use super::{illegal, not_implemented, Flow, Wave, WaveCtx};

/// Executes one SOP1, SOP2, SOPK, SOPC or SOPP instruction.
pub fn execute(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    match inst.family {
        Family::Sop1 => sop1::execute(ctx, inst),
        Family::Sop2 => sop2(ctx.wave, inst),
        Family::Sopc => sopc(ctx.wave, inst),
        Family::Sopk => sopk(ctx, inst),
        Family::Sopp => sopp::execute(ctx, inst),
        _ => Err(not_implemented(inst)),
    }
}

/// Operand `i` of `inst`, or a fault if the decoder produced fewer.
pub(super) fn operand(inst: &Instruction, i: usize) -> Result<&Operand, Fault> {
    inst.operands()
        .get(i)
        .ok_or_else(|| illegal(format!("{inst}: operand {i} is missing")))
}

/// Sign- or zero-extending bit-field extract with AMD's rules: width 0 gives 0;
/// a field reaching past the top is the (arithmetic for signed) shift alone.
pub(super) fn bfe(value: u64, offset: u32, width: u32, bits: u32, signed: bool) -> u64 {
    if width == 0 {
        return 0;
    }
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let v = value & mask;
    let sext = |x: u64| -> i64 {
        if bits == 64 {
            x as i64
        } else {
            ((x << (64 - bits)) as i64) >> (64 - bits)
        }
    };
    let r = if offset + width < bits {
        let shl = (v << (bits - offset - width)) & mask;
        if signed {
            (sext(shl) >> (bits - width)) as u64
        } else {
            shl >> (bits - width)
        }
    } else if signed {
        (sext(v) >> offset) as u64
    } else {
        v >> offset
    };
    r & mask
}

fn sop2(w: &mut Wave, inst: &Instruction) -> Result<Flow, Fault> {
    use Opcode::*;
    let (d, a) = (operand(inst, 0)?, operand(inst, 1)?);
    let b = operand(inst, 2).map_err(|e| {
        if matches!(inst.opcode, S_CBRANCH_G_FORK | S_RFE_RESTORE_B64) {
            // Two sources, no destination; not modelled (docs/golden-coverage.md).
            not_implemented(inst)
        } else {
            e
        }
    })?;
    let s0 = |w: &Wave| w.read_scalar(a);
    let s1 = |w: &Wave| w.read_scalar(b);
    let s0_64 = |w: &Wave| w.read_scalar64(a);
    let s1_64 = |w: &Wave| w.read_scalar64(b);
    let nz = |v: u32| Some(v != 0);
    let nz64 = |v: u64| Some(v != 0);
    let with_nz = |v: u32| (v, Some(v != 0));
    let with_nz64 = |v: u64| (v, Some(v != 0));
    // 32-bit results.
    let r32: Option<(u32, Option<bool>)> = match inst.opcode {
        S_ADD_U32 => {
            let (r, c) = s0(w)?.overflowing_add(s1(w)?);
            Some((r, Some(c)))
        }
        S_SUB_U32 => {
            let (r, c) = s0(w)?.overflowing_sub(s1(w)?);
            Some((r, Some(c)))
        }
        S_ADD_I32 => {
            let (r, o) = (s0(w)? as i32).overflowing_add(s1(w)? as i32);
            Some((r as u32, Some(o)))
        }
        S_SUB_I32 => {
            let (r, o) = (s0(w)? as i32).overflowing_sub(s1(w)? as i32);
            Some((r as u32, Some(o)))
        }
        S_ADDC_U32 => {
            let t = u64::from(s0(w)?) + u64::from(s1(w)?) + u64::from(w.scc);
            Some((t as u32, Some(t >> 32 != 0)))
        }
        S_SUBB_U32 => {
            let (x, y) = (u64::from(s0(w)?), u64::from(s1(w)?) + u64::from(w.scc));
            Some((x.wrapping_sub(y) as u32, Some(y > x)))
        }
        S_MIN_I32 => {
            let (x, y) = (s0(w)? as i32, s1(w)? as i32);
            Some((x.min(y) as u32, Some(x < y)))
        }
        S_MIN_U32 => {
            let (x, y) = (s0(w)?, s1(w)?);
            Some((x.min(y), Some(x < y)))
        }
        S_MAX_I32 => {
            let (x, y) = (s0(w)? as i32, s1(w)? as i32);
            Some((x.max(y) as u32, Some(x > y)))
        }
        S_MAX_U32 => {
            let (x, y) = (s0(w)?, s1(w)?);
            Some((x.max(y), Some(x > y)))
        }
        S_CSELECT_B32 => Some((if w.scc { s0(w)? } else { s1(w)? }, None)),
        S_AND_B32 => Some(with_nz(s0(w)? & s1(w)?)),
        S_OR_B32 => Some(with_nz(s0(w)? | s1(w)?)),
        S_XOR_B32 => Some(with_nz(s0(w)? ^ s1(w)?)),
        S_ANDN2_B32 => Some(with_nz(s0(w)? & !s1(w)?)),
        S_ORN2_B32 => Some(with_nz(s0(w)? | !s1(w)?)),
        S_NAND_B32 => Some(with_nz(!(s0(w)? & s1(w)?))),
        S_NOR_B32 => Some(with_nz(!(s0(w)? | s1(w)?))),
        S_XNOR_B32 => Some(with_nz(!(s0(w)? ^ s1(w)?))),
        S_LSHL_B32 => Some(with_nz(s0(w)? << (s1(w)? & 31))),
        S_LSHR_B32 => Some(with_nz(s0(w)? >> (s1(w)? & 31))),
        S_ASHR_I32 => Some(with_nz(((s0(w)? as i32) >> (s1(w)? & 31)) as u32)),
        S_BFM_B32 => {
            let (x, y) = (s0(w)? & 31, s1(w)? & 31);
            Some((((1u32 << x).wrapping_sub(1)) << y, None))
        }
        S_MUL_I32 => Some((s0(w)?.wrapping_mul(s1(w)?), None)),
        S_MUL_HI_U32 => Some((((u64::from(s0(w)?) * u64::from(s1(w)?)) >> 32) as u32, None)),
        S_MUL_HI_I32 => Some((
            ((i64::from(s0(w)? as i32) * i64::from(s1(w)? as i32)) >> 32) as u32,
            None,
        )),
        S_BFE_U32 | S_BFE_I32 => {
            let (x, y) = (s0(w)?, s1(w)?);
            let r = bfe(
                u64::from(x),
                y & 31,
                (y >> 16) & 0x7f,
                32,
                inst.opcode == S_BFE_I32,
            ) as u32;
            Some((r, nz(r)))
        }
        S_ABSDIFF_I32 => {
            let r = (s0(w)? as i32).wrapping_sub(s1(w)? as i32).wrapping_abs() as u32;
            Some((r, nz(r)))
        }
        S_LSHL1_ADD_U32 | S_LSHL2_ADD_U32 | S_LSHL3_ADD_U32 | S_LSHL4_ADD_U32 => {
            let n = match inst.opcode {
                S_LSHL1_ADD_U32 => 1,
                S_LSHL2_ADD_U32 => 2,
                S_LSHL3_ADD_U32 => 3,
                _ => 4,
            };
            let t = (u64::from(s0(w)?) << n) + u64::from(s1(w)?);
            Some((t as u32, Some(t >> 32 != 0)))
        }
        S_PACK_LL_B32_B16 => Some(((s0(w)? & 0xffff) | (s1(w)? << 16), None)),
        S_PACK_LH_B32_B16 => Some(((s0(w)? & 0xffff) | (s1(w)? & 0xffff_0000), None)),
        S_PACK_HH_B32_B16 => Some(((s0(w)? >> 16) | (s1(w)? & 0xffff_0000), None)),
        _ => None,
    };
    if let Some((r, scc)) = r32 {
        w.write_scalar(d, r)?;
        if let Some(s) = scc {
            w.scc = s;
        }
        return Ok(Flow::Next);
    }
    // 64-bit results.
    let r64: (u64, Option<bool>) = match inst.opcode {
        S_CSELECT_B64 => (if w.scc { s0_64(w)? } else { s1_64(w)? }, None),
        S_AND_B64 => with_nz64(s0_64(w)? & s1_64(w)?),
        S_OR_B64 => with_nz64(s0_64(w)? | s1_64(w)?),
        S_XOR_B64 => with_nz64(s0_64(w)? ^ s1_64(w)?),
        S_ANDN2_B64 => with_nz64(s0_64(w)? & !s1_64(w)?),
        S_ORN2_B64 => with_nz64(s0_64(w)? | !s1_64(w)?),
        S_NAND_B64 => with_nz64(!(s0_64(w)? & s1_64(w)?)),
        S_NOR_B64 => with_nz64(!(s0_64(w)? | s1_64(w)?)),
        S_XNOR_B64 => with_nz64(!(s0_64(w)? ^ s1_64(w)?)),
        S_LSHL_B64 => with_nz64(s0_64(w)? << (s1(w)? & 63)),
        S_LSHR_B64 => with_nz64(s0_64(w)? >> (s1(w)? & 63)),
        S_ASHR_I64 => with_nz64(((s0_64(w)? as i64) >> (s1(w)? & 63)) as u64),
        S_BFM_B64 => {
            let (x, y) = (s0(w)? & 63, s1(w)? & 63);
            (((1u64 << x).wrapping_sub(1)) << y, None)
        }
        S_BFE_U64 | S_BFE_I64 => {
            let (x, y) = (s0_64(w)?, s1(w)?);
            let r = bfe(x, y & 63, (y >> 16) & 0x7f, 64, inst.opcode == S_BFE_I64);
            (r, nz64(r))
        }
        _ => return Err(not_implemented(inst)),
    };
    w.write_scalar64(d, r64.0)?;
    if let Some(s) = r64.1 {
        w.scc = s;
    }
    Ok(Flow::Next)
}

fn sopc(w: &mut Wave, inst: &Instruction) -> Result<Flow, Fault> {
    use Opcode::*;
    let a = operand(inst, 0)?;
    if inst.opcode == S_SET_GPR_IDX_ON {
        // One register operand; the mode bits are an immediate (simm16).
        // M0[7:0] = index, M0[15:12] = which operands are indexed.
        let index = w.read_scalar(a)? & 0xff;
        let mode = u32::from(inst.modifiers.simm16 & 0xf);
        let m0 = &mut w.sgpr[usize::from(crate::wave::M0)];
        *m0 = (*m0 & !0xf0ff) | index | (mode << 12);
        w.gpr_idx_enabled = true;
        return Ok(Flow::Next);
    }
    let b = operand(inst, 1)?;
    let scc = match inst.opcode {
        S_CMP_EQ_U64 => w.read_scalar64(a)? == w.read_scalar64(b)?,
        S_CMP_LG_U64 => w.read_scalar64(a)? != w.read_scalar64(b)?,
        S_BITCMP0_B64 => (w.read_scalar64(a)? >> (w.read_scalar(b)? & 63)) & 1 == 0,
        S_BITCMP1_B64 => (w.read_scalar64(a)? >> (w.read_scalar(b)? & 63)) & 1 == 1,
        op => {
            let (x, y) = (w.read_scalar(a)?, w.read_scalar(b)?);
            let (i, j) = (x as i32, y as i32);
            match op {
                S_CMP_EQ_I32 | S_CMP_EQ_U32 => x == y,
                S_CMP_LG_I32 | S_CMP_LG_U32 => x != y,
                S_CMP_GT_I32 => i > j,
                S_CMP_GE_I32 => i >= j,
                S_CMP_LT_I32 => i < j,
                S_CMP_LE_I32 => i <= j,
                S_CMP_GT_U32 => x > y,
                S_CMP_GE_U32 => x >= y,
                S_CMP_LT_U32 => x < y,
                S_CMP_LE_U32 => x <= y,
                S_BITCMP0_B32 => (x >> (y & 31)) & 1 == 0,
                S_BITCMP1_B32 => (x >> (y & 31)) & 1 == 1,
                _ => return Err(not_implemented(inst)),
            }
        }
    };
    w.scc = scc;
    Ok(Flow::Next)
}

fn sopk(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    use Opcode::*;
    let imm = inst.modifiers.simm16;
    let simm = i32::from(imm as i16);
    let w = &mut *ctx.wave;
    match inst.opcode {
        S_VERSION | S_WAITCNT_VSCNT | S_WAITCNT_VMCNT | S_WAITCNT_EXPCNT | S_WAITCNT_LGKMCNT => {}
        S_MOVK_I32 => w.write_scalar(operand(inst, 0)?, simm as u32)?,
        S_CMOVK_I32 => {
            if w.scc {
                w.write_scalar(operand(inst, 0)?, simm as u32)?;
            }
        }
        S_CMPK_EQ_I32 | S_CMPK_LG_I32 | S_CMPK_GT_I32 | S_CMPK_GE_I32 | S_CMPK_LT_I32
        | S_CMPK_LE_I32 => {
            let x = w.read_scalar(operand(inst, 0)?)? as i32;
            w.scc = match inst.opcode {
                S_CMPK_EQ_I32 => x == simm,
                S_CMPK_LG_I32 => x != simm,
                S_CMPK_GT_I32 => x > simm,
                S_CMPK_GE_I32 => x >= simm,
                S_CMPK_LT_I32 => x < simm,
                _ => x <= simm,
            };
        }
        S_CMPK_EQ_U32 | S_CMPK_LG_U32 | S_CMPK_GT_U32 | S_CMPK_GE_U32 | S_CMPK_LT_U32
        | S_CMPK_LE_U32 => {
            let x = w.read_scalar(operand(inst, 0)?)?;
            let k = u32::from(imm);
            w.scc = match inst.opcode {
                S_CMPK_EQ_U32 => x == k,
                S_CMPK_LG_U32 => x != k,
                S_CMPK_GT_U32 => x > k,
                S_CMPK_GE_U32 => x >= k,
                S_CMPK_LT_U32 => x < k,
                _ => x <= k,
            };
        }
        S_ADDK_I32 => {
            let d = operand(inst, 0)?;
            let (r, o) = (w.read_scalar(d)? as i32).overflowing_add(simm);
            w.write_scalar(d, r as u32)?;
            w.scc = o;
        }
        S_MULK_I32 => {
            let d = operand(inst, 0)?;
            let r = (w.read_scalar(d)? as i32).wrapping_mul(simm);
            w.write_scalar(d, r as u32)?;
        }
        S_GETREG_B32 => {
            let v = sopp::getreg(ctx, imm);
            ctx.wave.write_scalar(operand(inst, 0)?, v)?;
        }
        S_SETREG_B32 => {
            let v = w.read_scalar(operand(inst, 0)?)?;
            sopp::setreg(ctx.wave, imm, v);
        }
        S_SETREG_IMM32_B32 => sopp::setreg(w, imm, inst.modifiers.imm32),
        S_CALL_B64 => {
            w.write_scalar64(operand(inst, 0)?, ctx.pc.wrapping_add(4))?;
            return Ok(Flow::Jump(branch(ctx.pc, imm)));
        }
        S_SUBVECTOR_LOOP_BEGIN => return subvector_begin(w, inst, ctx.pc),
        S_SUBVECTOR_LOOP_END => return subvector_end(w, inst, ctx.pc),
        _ => return Err(not_implemented(inst)),
    }
    Ok(Flow::Next)
}

/// The target of a PC-relative jump of `simm16` dwords from the instruction at `pc`.
pub(super) fn branch(pc: u64, simm16: u16) -> u64 {
    pc.wrapping_add(4)
        .wrapping_add((i64::from(simm16 as i16) * 4) as u64)
}

/// `s_subvector_loop_begin sdst, LABEL_END`: runs a wave64 loop body once per
/// 32-lane half, low half first. EXEC = 0 skips the loop; an empty low half runs
/// only the high pass (sdst = 0); otherwise sdst saves EXEC_HI and EXEC_HI = 0.
fn subvector_begin(w: &mut Wave, inst: &Instruction, pc: u64) -> Result<Flow, Fault> {
    let d = operand(inst, 0)?;
    let exec = w.exec();
    if exec == 0 {
        return Ok(Flow::Jump(branch(pc, inst.modifiers.simm16)));
    }
    if exec as u32 == 0 {
        w.write_scalar(d, 0)?;
    } else {
        w.write_scalar(d, (exec >> 32) as u32)?;
        w.set_exec(exec & 0xffff_ffff);
    }
    Ok(Flow::Next)
}

/// `s_subvector_loop_end sdst, LABEL_START`: after the low pass, if sdst holds
/// high-half lanes, swap halves (sdst keeps EXEC_LO) and loop again; after the
/// high pass, restore EXEC_LO from sdst and fall through.
fn subvector_end(w: &mut Wave, inst: &Instruction, pc: u64) -> Result<Flow, Fault> {
    let d = operand(inst, 0)?;
    let exec = w.exec();
    let saved = w.read_scalar(d)?;
    if exec as u32 != 0 {
        if saved != 0 {
            w.write_scalar(d, exec as u32)?;
            w.set_exec(u64::from(saved) << 32);
            return Ok(Flow::Jump(branch(pc, inst.modifiers.simm16)));
        }
    } else {
        w.set_exec((exec & !0xffff_ffff) | u64::from(saved));
    }
    Ok(Flow::Next)
}

#[cfg(test)]
mod tests {
    use super::bfe;

    #[test]
    fn bfe_follows_llvm_constant_folding() {
        // Field inside the word.
        assert_eq!(bfe(0x0000_ff00, 8, 4, 32, false), 0xf);
        assert_eq!(bfe(0x0000_ff00, 8, 4, 32, true), 0xffff_ffff);
        // Field reaching past bit 31: just the shift (arithmetic when signed).
        assert_eq!(bfe(0x8000_0000, 28, 8, 32, true), 0xffff_fff8);
        assert_eq!(bfe(0x8000_0000, 28, 8, 32, false), 0x8);
        assert_eq!(bfe(0x1234, 0, 0, 32, false), 0);
        assert_eq!(
            bfe(0x8000_0000_0000_0000, 60, 4, 64, true),
            0xffff_ffff_ffff_fff8
        );
        assert_eq!(bfe(0xabcd_0000_0000, 32, 16, 64, false), 0xabcd);
    }
}
