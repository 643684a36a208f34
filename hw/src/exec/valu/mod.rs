//! The vector ALU datapath: VOP1, VOP2, VOPC, VOP3 (VOP3a and VOP3b) and
//! VOP3P, with the SDWA, DPP16 and DPP8 extensions.
//!
//! 1. decode the instruction's shape (destinations, source types),
//! 2. fetch sources per lane through [`super::operand`], apply the
//!    lane permutation (DPP), sub-dword selects (SDWA), `op_sel` halves and the
//!    float input modifiers (`abs`, `neg` on the sign bit),
//! 3. compute per lane (integer and bit ops here; floating point through
//!    [`fp`](super::fp)), apply output modifiers and clamping,
//! 4. describe the result in [`Writes`]: EXEC-masked VGPR lanes (DPP row/bank
//!    masks, SDWA destination selects and 16-bit halves merged with the old
//!    value), lane masks (VCC, carry-outs, compare results, EXEC) as SGPR entries.
//!
//! Files: `cmp` (VOPC), `int` (integer and bit ops), `float` (floating-point
//! routing), `lane` (cross-lane ops: readlane, writelane, movrel, permlane),
//! `packed` (VOP3P), `sdwa_dpp` (source and destination transforms).

// Lanes are indexed by number throughout: a lane's bit in EXEC, VCC and the
// DPP masks is its index, so index loops read like the hardware does.
#![allow(clippy::needless_range_loop)]

use arch::device::FaultKind;
use arch::isa::{Family, Instruction, Opcode, Operand, OperandType, Variant};

use super::fp::FpMode;
use super::operand;
use super::{code, ExecCtx, ScalarState, VgprWrite, Vgprs, Writes, MAX_LANES};

mod cmp;
mod float;
mod int;
mod lane;
mod packed;
mod packed_float;
mod sdwa_dpp;

/// Per-lane values of one operand (32-bit values zero-extended).
pub(crate) type LaneVals = [u64; MAX_LANES];

/// How an operand's bits are read and written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    /// 16-bit integer (low half, or the half `op_sel` picks).
    B16,
    /// IEEE half.
    F16,
    /// 32-bit integer or bits.
    B32,
    /// IEEE single.
    F32,
    /// 64-bit integer or bits.
    B64,
    /// IEEE double.
    F64,
}

impl Ty {
    fn of(ty: OperandType) -> Ty {
        match ty {
            OperandType::B16 => Ty::B16,
            OperandType::F16 => Ty::F16,
            OperandType::F32 => Ty::F32,
            OperandType::B64 => Ty::B64,
            OperandType::F64 => Ty::F64,
            _ => Ty::B32,
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::F32 | Ty::F64)
    }

    fn wide(self) -> bool {
        matches!(self, Ty::B64 | Ty::F64)
    }

    fn half(self) -> bool {
        matches!(self, Ty::B16 | Ty::F16)
    }

    /// The sign bit of a float of this type.
    fn sign(self) -> u64 {
        match self {
            Ty::F16 | Ty::B16 => 1 << 15,
            Ty::F64 | Ty::B64 => 1 << 63,
            _ => 1 << 31,
        }
    }
}

/// One instruction being executed: its state at issue and its shape.
pub(crate) struct Cx<'a> {
    pub inst: &'a Instruction,
    pub s: &'a ScalarState,
    pub v: Vgprs<'a>,
    /// Lanes in the wave (32 or 64).
    pub lanes: usize,
    /// EXEC limited to the wave's lanes.
    pub exec: u64,
    /// Lanes whose result is written: EXEC, narrowed by DPP row/bank masks and
    /// out-of-range DPP sources (without `bound_ctrl`).
    pub write_mask: u64,
    /// The FP part of MODE.
    pub mode: FpMode,
    /// Leading destination operands.
    pub ndst: usize,
}

impl<'a> Cx<'a> {
    /// All lanes of the wave.
    pub fn all(&self) -> u64 {
        if self.lanes == 64 {
            u64::MAX
        } else {
            0xffff_ffff
        }
    }

    /// The operand `i` counted from the first source.
    pub fn src_op(&self, i: usize) -> Result<&'a Operand, FaultKind> {
        self.inst
            .operands()
            .get(self.ndst + i)
            .ok_or_else(|| malformed(self.inst))
    }

    /// Source `i` in print order, read as `ty` with every source transform
    /// (DPP lane select, SDWA select, `op_sel`, float `abs`/`neg`).
    pub fn src(&mut self, i: usize, ty: Ty) -> Result<LaneVals, FaultKind> {
        let op = *self.src_op(i)?;
        self.read(&op, i, ty)
    }

    /// Reads operand `op` as source number `i` (modifier bit index).
    pub fn read(&mut self, op: &Operand, i: usize, ty: Ty) -> Result<LaneVals, FaultKind> {
        let mut vals = self.raw(op, ty.wide())?;
        let m = &self.inst.modifiers;
        match self.inst.variant {
            Variant::Dpp16 | Variant::Dpp8 if i == 0 => {
                self.write_mask &= sdwa_dpp::dpp_permute(self, &mut vals);
            }
            Variant::Sdwa if i < 2 => {
                let sel = if i == 0 { m.src0_sel } else { m.src1_sel };
                let sext = m.sext >> i & 1 != 0;
                for x in vals.iter_mut().take(self.lanes) {
                    *x = u64::from(sdwa_dpp::sdwa_select(*x as u32, sel, sext));
                }
            }
            _ => {}
        }
        if ty.half() && self.inst.family == Family::Vop3 && m.op_sel >> i & 1 != 0 {
            for x in vals.iter_mut().take(self.lanes) {
                *x >>= 16;
            }
        }
        if ty.half() {
            for x in vals.iter_mut().take(self.lanes) {
                *x &= 0xffff;
            }
        }
        if (m.neg | m.abs) >> i & 1 != 0 && self.inst.family != Family::Vop3p {
            // Which bits are float sign modifiers is the opcode's (LLVM's
            // tables), not the operand type's: `v_cndmask_b32_e64 v0, -v1, …`
            // reads untyped bits and still negates.
            let takes = arch::isa::family::float_input_modifiers(self.inst, i);
            let sign = ty.sign();
            let abs = takes.abs && m.abs >> i & 1 != 0;
            let neg = takes.neg && m.neg >> i & 1 != 0;
            if abs || neg {
                for x in vals.iter_mut().take(self.lanes) {
                    if abs {
                        *x &= !sign;
                    }
                    if neg {
                        *x ^= sign;
                    }
                }
            }
        }
        Ok(vals)
    }

    /// The operand's value per lane without modifiers.
    pub fn raw(&self, op: &Operand, wide: bool) -> Result<LaneVals, FaultKind> {
        if wide {
            operand::vector_u64(op, self.s, &self.v)
        } else {
            let d = operand::vector_dword(op, 0, self.s, &self.v)?;
            let mut out = [0u64; MAX_LANES];
            for (o, x) in out.iter_mut().zip(d.iter()) {
                *o = u64::from(*x);
            }
            Ok(out)
        }
    }

    /// A lane-mask source (VOP3 `src2` of `v_cndmask`, carry-in): a scalar read.
    pub fn mask_src(&self, op: &Operand) -> Result<u64, FaultKind> {
        let m = operand::scalar(op, self.s, &self.v)?;
        Ok(operand::masked(m, self.lanes == 64))
    }

    /// The scalar destination code of operand `i` (an SGPR range or VCC).
    pub fn sdst_code(&self, i: usize) -> Result<u8, FaultKind> {
        self.inst
            .operands()
            .get(i)
            .and_then(operand::sgpr_code)
            .ok_or_else(|| malformed(self.inst))
    }

    /// Writes lane mask `mask` to the scalar destination starting at `code`
    /// (one SGPR in wave32, a pair in wave64; `null` drops it).
    pub fn write_mask_sgpr(&self, out: &mut Writes, code: u8, mask: u64) {
        if code == code::NULL {
            return;
        }
        out.sgpr.push((code, mask as u32));
        if self.lanes == 64 {
            out.sgpr.push((code + 1, (mask >> 32) as u32));
        }
    }

    /// Writes dword `k` of a multi-dword destination (`v_mqsad_u32_u8`).
    pub fn write_vgpr_dword(
        &self,
        out: &mut Writes,
        k: usize,
        vals: &LaneVals,
    ) -> Result<(), FaultKind> {
        let op = self
            .inst
            .operands()
            .first()
            .ok_or_else(|| malformed(self.inst))?;
        let reg = usize::from(operand::vgpr_index(op).ok_or_else(|| malformed(self.inst))?) + k;
        if reg >= self.v.count() {
            return Err(operand::vgpr_out_of_range(reg, &self.v));
        }
        let mut w = VgprWrite {
            reg: reg as u16,
            mask: self.write_mask & self.all(),
            values: [0; MAX_LANES],
        };
        for lane in 0..self.lanes {
            w.values[lane] = vals[lane] as u32;
        }
        out.vgpr.push(w);
        Ok(())
    }

    /// Writes the per-lane result `vals` of type `ty` to the destination VGPR
    /// operand `dst` for the lanes in `mask`, merging sub-dword results
    /// (SDWA `dst_sel`, 16-bit halves) with the register's old value.
    pub fn write_vgpr(
        &self,
        out: &mut Writes,
        dst: usize,
        ty: Ty,
        vals: &LaneVals,
        mask: u64,
    ) -> Result<(), FaultKind> {
        let op = self
            .inst
            .operands()
            .get(dst)
            .ok_or_else(|| malformed(self.inst))?;
        let reg = operand::vgpr_index(op).ok_or_else(|| malformed(self.inst))?;
        let dwords = if ty.wide() { 2 } else { 1 };
        let r = usize::from(reg);
        if r + dwords > self.v.count() {
            return Err(operand::vgpr_out_of_range(r + dwords - 1, &self.v));
        }
        let mask = mask & self.all();
        let m = &self.inst.modifiers;
        let mut w = VgprWrite {
            reg,
            mask,
            values: [0; MAX_LANES],
        };
        // SDWA writes its selected field, or with dst_sel:DWORD the whole
        // ALU result (a 16-bit result zero-extended), as the golden GPU does:
        // the "keep the other half" rule is for the VOP1/VOP2/VOP3 forms.
        let sdwa = self.inst.variant == Variant::Sdwa;
        let hi_half = self.inst.family == Family::Vop3 && m.op_sel & 8 != 0;
        for lane in 0..self.lanes {
            if mask >> lane & 1 == 0 {
                continue;
            }
            let x = vals[lane];
            w.values[lane] = if sdwa {
                let old = self.v.get(r, lane).unwrap_or(0);
                sdwa_dpp::sdwa_dst(x as u32, old, m.dst_sel, m.dst_unused)
            } else if ty.half() {
                // gfx10 16-bit results keep the other half of the register.
                let old = self.v.get(r, lane).unwrap_or(0);
                if hi_half {
                    old & 0xffff | (x as u32) << 16
                } else {
                    old & 0xffff_0000 | x as u32 & 0xffff
                }
            } else {
                x as u32
            };
        }
        out.vgpr.push(w);
        if dwords == 2 {
            let mut hi = VgprWrite {
                reg: reg + 1,
                mask,
                values: [0; MAX_LANES],
            };
            for lane in 0..self.lanes {
                hi.values[lane] = (vals[lane] >> 32) as u32;
            }
            out.vgpr.push(hi);
        }
        Ok(())
    }
}

/// The fault for an instruction whose operands do not match its opcode.
pub(crate) fn malformed(inst: &Instruction) -> FaultKind {
    FaultKind::IllegalInstruction {
        reason: format!("`{inst}` has operands its opcode does not take"),
    }
}

/// Number of leading destination operands in LLVM's print order.
fn destinations(inst: &Instruction) -> usize {
    use Opcode as O;
    match inst.opcode {
        O::V_NOP | O::V_PIPEFLUSH | O::V_CLREXCP | O::V_ILLEGAL => 0,
        O::V_ADD_CO_U32
        | O::V_SUB_CO_U32
        | O::V_SUBREV_CO_U32
        | O::V_ADD_CO_CI_U32
        | O::V_SUB_CO_CI_U32
        | O::V_SUBREV_CO_CI_U32
        | O::V_DIV_SCALE_F32
        | O::V_DIV_SCALE_F64
        | O::V_MAD_U64_U32
        | O::V_MAD_I64_I32 => 2,
        op => match cmp::classify(op) {
            Some(c) if c.x => 0,
            // A VOPC SDWA/e32 compare prints its mask destination (vcc or an SGPR).
            _ => 1,
        },
    }
}

/// Executes one VALU instruction.
pub fn execute(
    inst: &Instruction,
    s: &ScalarState,
    v: Vgprs<'_>,
    _ctx: &mut ExecCtx<'_>,
    out: &mut Writes,
) -> Result<(), FaultKind> {
    let lanes = if v.wave64 { 64 } else { 32 };
    let exec = operand::masked(s.exec(), v.wave64);
    let mut cx = Cx {
        inst,
        s,
        v,
        lanes,
        exec,
        write_mask: exec,
        mode: FpMode::from_mode(s.mode),
        ndst: destinations(inst),
    };
    if matches!(inst.variant, Variant::Dpp16) {
        cx.write_mask &= sdwa_dpp::dpp_row_bank_mask(inst, lanes);
    }
    if inst.operands().len() < cx.ndst {
        return Err(malformed(inst));
    }
    if inst.family == Family::Vop3p {
        return packed::execute(&mut cx, out);
    }
    if let Some(c) = cmp::classify(inst.opcode) {
        return cmp::execute(&mut cx, c, out);
    }
    if let Some(done) = lane::execute(&mut cx, out)? {
        return Ok(done);
    }
    if int::execute(&mut cx, out)? {
        return Ok(());
    }
    if float::execute(&mut cx, out)? {
        return Ok(());
    }
    Err(super::unimplemented(inst))
}
