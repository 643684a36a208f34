//! Instruction selection: calls of builtins (math, lane operations,
//! IEEE division).

use arch::isa::{Family, Opcode};

use super::{Isel, Loc};
use crate::backend::minst::{special, MInst, MOp, RegClass};
use crate::backend::BackendError;
use crate::ir::*;

impl Isel<'_> {
    /// `dst = b(args)`: a builtin call.
    pub(super) fn call_into(
        &mut self,
        dst: Loc,
        b: Builtin,
        args: &[Value],
    ) -> Result<(), BackendError> {
        if matches!(b, Builtin::ReadFirstLane | Builtin::ReadLane) {
            return self.read_one_lane(dst, b, args);
        }
        if b == Builtin::WaveSize {
            let w = MOp::Imm(if self.opts.wave64 { 64 } else { 32 });
            match dst {
                Loc::S(s) => self.push(Opcode::S_MOV_B32, Family::Sop1, 1, &[MOp::Reg(s, 0), w]),
                Loc::V(v) => self.vop1(Opcode::V_MOV_B32, MOp::Reg(v, 0), w),
                _ => unreachable!("built-ins return numbers"),
            }
            return Ok(());
        }
        let Loc::V(d) = dst else {
            // Uniform built-ins: per lane, then read back.
            let Loc::S(s) = dst else {
                unreachable!("built-ins return numbers")
            };
            let t = self.mc.vreg(RegClass::Vgpr, 1);
            self.call_into(Loc::V(t), b, args)?;
            self.readfirstlane(s, MOp::Reg(t, 0));
            return Ok(());
        };
        let d0 = MOp::Reg(d, 0);
        let mut a = Vec::new();
        for &v in args {
            a.push(self.src(v)?);
        }
        match b {
            Builtin::Mul24 => self.vop2(Opcode::V_MUL_I32_I24, d0, a[0], a[1], true),
            Builtin::Mad24 => self.vop3(Opcode::V_MAD_I32_I24, &[d0, a[0], a[1], a[2]]),
            Builtin::Popcount => self.vop3(Opcode::V_BCNT_U32_B32, &[d0, a[0], MOp::Imm(0)]),
            Builtin::Clz => {
                // v_ffbh_u32 gives -1 for 0; OpenCL's clz(0) is 32.
                let t = self.mc.vreg(RegClass::Vgpr, 1);
                self.vop1(Opcode::V_FFBH_U32, MOp::Reg(t, 0), a[0]);
                self.vop2(Opcode::V_MIN_U32, d0, MOp::Imm(32), MOp::Reg(t, 0), true);
            }
            Builtin::Abs => {
                let t = self.mc.vreg(RegClass::Vgpr, 1);
                self.vop2(
                    Opcode::V_SUB_NC_U32,
                    MOp::Reg(t, 0),
                    MOp::Imm(0),
                    a[0],
                    false,
                );
                self.vop2(Opcode::V_MAX_I32, d0, a[0], MOp::Reg(t, 0), true);
            }
            Builtin::Sqrt => self.vop1(Opcode::V_SQRT_F32, d0, a[0]),
            Builtin::Floor => self.vop1(Opcode::V_FLOOR_F32, d0, a[0]),
            Builtin::Bitreverse => self.vop1(Opcode::V_BFREV_B32, d0, a[0]),
            Builtin::Alignbit => self.vop3(Opcode::V_ALIGNBIT_B32, &[d0, a[0], a[1], a[2]]),
            Builtin::Rsq => self.vop1(Opcode::V_RSQ_F32, d0, a[0]),
            Builtin::Rcp => self.vop1(Opcode::V_RCP_F32, d0, a[0]),
            Builtin::FrexpMant => self.vop1(Opcode::V_FREXP_MANT_F32, d0, a[0]),
            Builtin::FrexpExp => self.vop1(Opcode::V_FREXP_EXP_I32_F32, d0, a[0]),
            Builtin::Ldexp => self.vop3(Opcode::V_LDEXP_F32, &[d0, a[0], a[1]]),
            Builtin::UmulHi => self.vop3(Opcode::V_MUL_HI_U32, &[d0, a[0], a[1]]),
            Builtin::SmulHi => self.vop3(Opcode::V_MUL_HI_I32, &[d0, a[0], a[1]]),
            Builtin::MbcntLo => self.vop3(Opcode::V_MBCNT_LO_U32_B32, &[d0, a[0], a[1]]),
            Builtin::MbcntHi => self.vop3(Opcode::V_MBCNT_HI_U32_B32, &[d0, a[0], a[1]]),
            Builtin::Bpermute => {
                // DS instructions take VGPR operands only.
                let (addr, data) = (self.in_vgpr(a[0]), self.in_vgpr(a[1]));
                self.push(Opcode::DS_BPERMUTE_B32, Family::Ds, 1, &[d0, addr, data]);
            }
            Builtin::ReadFirstLane | Builtin::ReadLane | Builtin::WaveSize => {
                unreachable!("handled above")
            }
            Builtin::FdivIeee => self.fdiv_ieee(d0, a[0], a[1]),
            Builtin::HwSin => self.vop1(Opcode::V_SIN_F32, d0, a[0]),
            Builtin::HwCos => self.vop1(Opcode::V_COS_F32, d0, a[0]),
            Builtin::HwExp2 => self.vop1(Opcode::V_EXP_F32, d0, a[0]),
            Builtin::HwLog2 => self.vop1(Opcode::V_LOG_F32, d0, a[0]),
            Builtin::Fract => self.vop1(Opcode::V_FRACT_F32, d0, a[0]),
            Builtin::Rndne => self.vop1(Opcode::V_RNDNE_F32, d0, a[0]),
            Builtin::Trunc => self.vop1(Opcode::V_TRUNC_F32, d0, a[0]),
            Builtin::Ceil => self.vop1(Opcode::V_CEIL_F32, d0, a[0]),
            Builtin::Ctz => {
                // v_ffbl_b32 gives -1 for 0; OpenCL's ctz(0) is 32.
                let t = self.mc.vreg(RegClass::Vgpr, 1);
                self.vop1(Opcode::V_FFBL_B32, MOp::Reg(t, 0), a[0]);
                self.vop2(Opcode::V_MIN_U32, d0, MOp::Imm(32), MOp::Reg(t, 0), true);
            }
        }
        Ok(())
    }

    /// IEEE `a / b` on f32, clang-19's sequence (the same instructions, so
    /// the same bits): both operands scaled by `v_div_scale_f32` (the
    /// numerator's also sets VCC, which `v_div_fmas_f32` reads), the
    /// reciprocal refined by one Newton step, the quotient by two, and
    /// `v_div_fixup_f32` for the special cases. The sequence is emitted as
    /// one piece, so nothing else touches VCC between its write and read.
    pub(super) fn fdiv_ieee(&mut self, d: MOp, a: MOp, b: MOp) {
        let (a, b) = (self.in_vgpr(a), self.in_vgpr(b));
        let mut t = || MOp::Reg(self.mc.vreg(RegClass::Vgpr, 1), 0);
        let (den, num, rcp, err, rcp2, q, err2, q2, r, fm) =
            (t(), t(), t(), t(), t(), t(), t(), t(), t(), t());
        let div_scale = Opcode::V_DIV_SCALE_F32;
        self.push(
            div_scale,
            Family::Vop3,
            2,
            &[den, MOp::Phys(special::NULL), b, b, a],
        );
        self.push(
            div_scale,
            Family::Vop3,
            2,
            &[num, MOp::Phys(special::VCC), a, b, a],
        );
        self.vop1(Opcode::V_RCP_F32, rcp, den);
        // fma(-den, rcp, 1.0): the negation is src0's `neg` modifier.
        self.fma_neg0(err, den, rcp, MOp::Imm(1.0f32.to_bits()));
        self.push(Opcode::V_FMA_F32, Family::Vop3, 1, &[rcp2, err, rcp, rcp]);
        self.push(Opcode::V_MUL_F32, Family::Vop2, 1, &[q, num, rcp2]);
        self.fma_neg0(err2, den, q, num);
        self.push(Opcode::V_FMA_F32, Family::Vop3, 1, &[q2, err2, rcp2, q]);
        self.fma_neg0(r, den, q2, num);
        self.push(Opcode::V_DIV_FMAS_F32, Family::Vop3, 1, &[fm, r, rcp2, q2]);
        self.push(Opcode::V_DIV_FIXUP_F32, Family::Vop3, 1, &[d, fm, b, a]);
    }

    /// `d = fma(-x, y, z)` (VOP3 with src0 negated).
    pub(super) fn fma_neg0(&mut self, d: MOp, x: MOp, y: MOp, z: MOp) {
        let mut i = MInst::new(Opcode::V_FMA_F32, Family::Vop3, 1, &[d, x, y, z]);
        i.modifiers.neg = 1;
        self.mc.push(i);
    }

    /// `readfirstlane(x)` / `readlane(x, lane)` into an SGPR: one
    /// `v_readfirstlane_b32` / `v_readlane_b32` (a uniform `x` is already
    /// the value: a move). A divergent lane number is made uniform first
    /// (its first active lane's), as clang does.
    pub(super) fn read_one_lane(
        &mut self,
        dst: Loc,
        b: Builtin,
        args: &[Value],
    ) -> Result<(), BackendError> {
        let s = match dst {
            Loc::S(s) => s,
            _ => self.mc.vreg(RegClass::Sgpr, 1),
        };
        let x = self.src(args[0])?;
        if !self.is_vgpr(x) {
            self.push(Opcode::S_MOV_B32, Family::Sop1, 1, &[MOp::Reg(s, 0), x]);
        } else if b == Builtin::ReadFirstLane {
            self.readfirstlane(s, x);
        } else {
            let mut lane = self.src(args[1])?;
            if self.is_vgpr(lane) {
                let l = self.mc.vreg(RegClass::Sgpr, 1);
                self.readfirstlane(l, lane);
                lane = MOp::Reg(l, 0);
            } else if let MOp::Imm(k) = lane {
                // Only inline constants fit VOP3: lanes are 0..63.
                lane = MOp::Imm(k & 63);
            }
            self.push(
                Opcode::V_READLANE_B32,
                Family::Vop3,
                1,
                &[MOp::Reg(s, 0), x, lane],
            );
        }
        match dst {
            Loc::S(_) => {}
            Loc::V(d) => self.vop1(Opcode::V_MOV_B32, MOp::Reg(d, 0), MOp::Reg(s, 0)),
            l => return Err(BackendError::Internal(format!("{} into {l:?}", b.name()))),
        }
        Ok(())
    }

    /// `r = b(args)`.
    pub(super) fn call(
        &mut self,
        r: Value,
        b: Builtin,
        args: &[Value],
    ) -> Result<(), BackendError> {
        let l = self.def_loc(r);
        self.call_into(l, b, args)
    }
}
