//! Instruction selection: the dispatch of one IR instruction ([`Isel::lower`])
//! and the 32-bit integer and float arithmetic, compares and selects —
//! SALU for uniform values, VALU for divergent ones.

use arch::isa::{Family, Opcode};

use super::{Isel, Loc};
use crate::backend::minst::{MOp, RegClass, VReg};
use crate::backend::BackendError;
use crate::ir::*;

fn unsupported(what: String) -> BackendError {
    BackendError::Unsupported(what)
}

/// SALU opcode of a 32-bit integer operation.
fn salu(op: BinaryOp) -> Option<Opcode> {
    Some(match op {
        BinaryOp::Iadd => Opcode::S_ADD_U32,
        BinaryOp::Isub => Opcode::S_SUB_U32,
        BinaryOp::Imul => Opcode::S_MUL_I32,
        BinaryOp::And => Opcode::S_AND_B32,
        BinaryOp::Or => Opcode::S_OR_B32,
        BinaryOp::Xor => Opcode::S_XOR_B32,
        BinaryOp::Shl => Opcode::S_LSHL_B32,
        BinaryOp::Lshr => Opcode::S_LSHR_B32,
        BinaryOp::Ashr => Opcode::S_ASHR_I32,
        BinaryOp::Smin => Opcode::S_MIN_I32,
        BinaryOp::Smax => Opcode::S_MAX_I32,
        BinaryOp::Umin => Opcode::S_MIN_U32,
        BinaryOp::Umax => Opcode::S_MAX_U32,
        _ => return None,
    })
}

/// VALU opcode of a 32-bit operation, and whether its sources are in
/// reversed order (`v_lshlrev_b32 d, amount, value`).
fn valu(op: BinaryOp) -> Option<(Opcode, bool)> {
    Some(match op {
        BinaryOp::Iadd => (Opcode::V_ADD_NC_U32, false),
        BinaryOp::Isub => (Opcode::V_SUB_NC_U32, false),
        BinaryOp::Imul => (Opcode::V_MUL_LO_U32, false),
        BinaryOp::And => (Opcode::V_AND_B32, false),
        BinaryOp::Or => (Opcode::V_OR_B32, false),
        BinaryOp::Xor => (Opcode::V_XOR_B32, false),
        BinaryOp::Shl => (Opcode::V_LSHLREV_B32, true),
        BinaryOp::Lshr => (Opcode::V_LSHRREV_B32, true),
        BinaryOp::Ashr => (Opcode::V_ASHRREV_I32, true),
        BinaryOp::Smin => (Opcode::V_MIN_I32, false),
        BinaryOp::Smax => (Opcode::V_MAX_I32, false),
        BinaryOp::Umin => (Opcode::V_MIN_U32, false),
        BinaryOp::Umax => (Opcode::V_MAX_U32, false),
        BinaryOp::Fadd => (Opcode::V_ADD_F32, false),
        BinaryOp::Fsub => (Opcode::V_SUB_F32, false),
        BinaryOp::Fmul => (Opcode::V_MUL_F32, false),
        BinaryOp::Fmin => (Opcode::V_MIN_F32, false),
        BinaryOp::Fmax => (Opcode::V_MAX_F32, false),
        BinaryOp::Sdiv | BinaryOp::Udiv | BinaryOp::Srem | BinaryOp::Urem | BinaryOp::Fdiv => {
            return None
        }
    })
}

fn vcmp_int(cc: IntCC) -> Opcode {
    match cc {
        IntCC::Eq => Opcode::V_CMP_EQ_U32,
        IntCC::Ne => Opcode::V_CMP_NE_U32,
        IntCC::Slt => Opcode::V_CMP_LT_I32,
        IntCC::Sle => Opcode::V_CMP_LE_I32,
        IntCC::Sgt => Opcode::V_CMP_GT_I32,
        IntCC::Sge => Opcode::V_CMP_GE_I32,
        IntCC::Ult => Opcode::V_CMP_LT_U32,
        IntCC::Ule => Opcode::V_CMP_LE_U32,
        IntCC::Ugt => Opcode::V_CMP_GT_U32,
        IntCC::Uge => Opcode::V_CMP_GE_U32,
    }
}

fn scmp_int(cc: IntCC) -> Opcode {
    match cc {
        IntCC::Eq => Opcode::S_CMP_EQ_U32,
        IntCC::Ne => Opcode::S_CMP_LG_U32,
        IntCC::Slt => Opcode::S_CMP_LT_I32,
        IntCC::Sle => Opcode::S_CMP_LE_I32,
        IntCC::Sgt => Opcode::S_CMP_GT_I32,
        IntCC::Sge => Opcode::S_CMP_GE_I32,
        IntCC::Ult => Opcode::S_CMP_LT_U32,
        IntCC::Ule => Opcode::S_CMP_LE_U32,
        IntCC::Ugt => Opcode::S_CMP_GT_U32,
        IntCC::Uge => Opcode::S_CMP_GE_U32,
    }
}

fn vcmp_float(cc: FloatCC) -> Opcode {
    match cc {
        FloatCC::Oeq => Opcode::V_CMP_EQ_F32,
        FloatCC::Une => Opcode::V_CMP_NEQ_F32,
        FloatCC::Olt => Opcode::V_CMP_LT_F32,
        FloatCC::Ole => Opcode::V_CMP_LE_F32,
        FloatCC::Ogt => Opcode::V_CMP_GT_F32,
        FloatCC::Oge => Opcode::V_CMP_GE_F32,
    }
}

impl Isel<'_> {
    /// Refuses `v` when its type is wider than 32 bits (not a pointer) or an
    /// 8/16-bit or half value the selection does not handle here.
    pub(super) fn check_width(&self, v: Value, what: &str) -> Result<(), BackendError> {
        let t = self.f.ty(v);
        if t.bits() > 32 && !t.is_ptr() {
            return Err(unsupported(format!(
                "{what} on {} is not supported by the back end yet",
                t.opencl_name()
            )));
        }
        if t == Type::F16 || t == Type::I8 || t == Type::I16 {
            return Err(unsupported(format!(
                "{what} on {} values is not supported by the back end yet",
                t.opencl_name()
            )));
        }
        Ok(())
    }

    /// Selects instruction `i`.
    pub(super) fn lower(&mut self, i: Inst) -> Result<(), BackendError> {
        if self.lower_f16(i)? || self.lower_f64(i)? || self.lower_kernarg_ext(i)? {
            return Ok(());
        }
        let d = self.f.inst(i);
        let kind = d.kind.clone();
        let result = d.result;
        if let Some(r) = result {
            if matches!(kind, InstKind::Iconst { .. } | InstKind::Fconst { .. }) {
                return Ok(());
            }
            if self.f.ty(r) == Type::I64 {
                match kind {
                    InstKind::Binary { op, args } => return self.binary64(r, op, args),
                    InstKind::Unary { op, arg } => return self.unary64(r, op, arg),
                    // Any width: one v_cndmask per dword.
                    InstKind::Select { cond, args } => return self.select(r, cond, args),
                    _ => {}
                }
            }
            // Loads, conversions and atomics (32 or 64 bits) handle their
            // own widths (i8/i16 live in the low bits of a 32-bit register,
            // the high bits unspecified); a select of i8/i16 picks whole
            // registers, so their low bits too.
            let narrow_select = matches!(kind, InstKind::Select { .. })
                && matches!(self.f.ty(r), Type::I8 | Type::I16 | Type::F16);
            let own_width = narrow_select
                || matches!(
                    kind,
                    InstKind::Load { .. }
                        | InstKind::Convert { .. }
                        | InstKind::KernelArg { .. }
                        | InstKind::Atomic { .. }
                        | InstKind::AtomicCas { .. }
                );
            if self.f.ty(r) != Type::I1 && !own_width {
                self.check_width(r, "an operation")?;
            }
        }
        let r = || result.expect("the verifier checked the result");
        match kind {
            InstKind::Iconst { .. } | InstKind::Fconst { .. } => {}
            InstKind::KernelArg { index } => self.kernel_arg(r(), index)?,
            InstKind::WorkItem { query, dim } => self.work_item(r(), query, dim)?,
            InstKind::LocalAddr { var } => {
                let off = self.lds_offsets[var.index()];
                self.locs[r().index()] = Some(Loc::Const(off, 0));
            }
            InstKind::PrivateAddr { offset } => {
                self.locs[r().index()] = Some(Loc::Const(offset, 0));
            }
            InstKind::DataAddr { index } => self.data_addr(r(), index),
            InstKind::Binary { op, args } => self.binary(r(), op, args)?,
            InstKind::Unary { op, arg } => self.unary(r(), op, arg)?,
            InstKind::Ternary { op, args } => self.ternary(r(), op, args)?,
            InstKind::Icmp { cond, args } => self.icmp(r(), cond, args)?,
            InstKind::Fcmp { cond, args } => {
                let m = match self.def_loc(r()) {
                    Loc::Mask(m) => m,
                    _ => {
                        let m = self.new_mask();
                        self.locs[r().index()] = Some(Loc::Mask(m));
                        m
                    }
                };
                let (a, b) = (self.src(args[0])?, self.src(args[1])?);
                self.vop3(vcmp_float(cond), &[MOp::Reg(m, 0), a, b]);
            }
            InstKind::Select { args, .. } if self.min_max[i.index()].is_some() => {
                let op = self.min_max[i.index()].expect("checked");
                self.binary(r(), op, args)?;
            }
            InstKind::Select { cond, args } => {
                if !super::masked_select::lower_masked(self, i)? {
                    self.select(r(), cond, args)?;
                }
            }
            InstKind::Convert { op, arg, to } => self.convert(r(), op, arg, to)?,
            InstKind::PtrAdd { base, offset } => self.ptr_add(r(), base, offset)?,
            InstKind::Load { ty, addr } => self.load(r(), ty, addr)?,
            InstKind::Store { addr, value } => self.store(addr, value)?,
            InstKind::Atomic { op, addr, value } => self.atomic(r(), op, addr, value)?,
            InstKind::AtomicCas { addr, cmp, value } => self.atomic_cas(r(), addr, cmp, value)?,
            InstKind::Barrier => {
                self.push(Opcode::S_BARRIER, Family::Sopp, 0, &[]);
            }
            InstKind::Fence => {
                // What clang emits for an agent-scope acquire: every counter
                // waited for (the waitcnt pass does it before
                // `buffer_gl1_inv`), then the L1 and L0 caches invalidated.
                self.push(Opcode::BUFFER_GL1_INV, Family::Mubuf, 0, &[]);
                self.push(Opcode::BUFFER_GL0_INV, Family::Mubuf, 0, &[]);
            }
            InstKind::Call { builtin, args } => self.call(r(), builtin, &args)?,
            InstKind::Jump { .. } | InstKind::Brif { .. } | InstKind::Return => {
                unreachable!("terminators are handled by the region walk")
            }
        }
        Ok(())
    }

    /// The location of result `v` and its register (results are never constants).
    pub(super) fn dst(&mut self, v: Value) -> (Loc, VReg) {
        let l = self.def_loc(v);
        let r = match l {
            Loc::S(r) | Loc::V(r) | Loc::SBool(r) | Loc::Mask(r) => r,
            Loc::Const(..) => unreachable!("results are registers"),
        };
        (l, r)
    }

    /// `d = op(a, b)` on 32 bits into `dst` (SALU or VALU by `dst`'s class).
    pub(super) fn binary_into(
        &mut self,
        dst: Loc,
        op: BinaryOp,
        a: Value,
        b: Value,
    ) -> Result<(), BackendError> {
        match dst {
            Loc::S(d) => {
                let o =
                    salu(op).ok_or_else(|| unsupported(format!("a uniform {}", op.opencl())))?;
                let (x, y) = (self.ssrc_part(a, 0)?, self.ssrc_part(b, 0)?);
                self.sop2(o, MOp::Reg(d, 0), x, y);
            }
            Loc::V(d) if op.may_trap() => {
                let (x, y) = (self.src(a)?, self.src(b)?);
                self.divrem(d, op, x, y);
            }
            Loc::V(d) => {
                let (o, rev) = valu(op).ok_or_else(|| {
                    unsupported(format!(
                        "{} on {} is not supported by the back end yet",
                        op.opencl(),
                        self.f.ty(a).opencl_name()
                    ))
                })?;
                let (x, y) = (self.src(a)?, self.src(b)?);
                let (x, y) = if rev { (y, x) } else { (x, y) };
                if o == Opcode::V_MUL_LO_U32 {
                    self.vop3(o, &[MOp::Reg(d, 0), x, y]);
                } else {
                    self.vop2(o, MOp::Reg(d, 0), x, y, op.is_commutative());
                }
            }
            Loc::SBool(d) => {
                let o = salu(op).ok_or_else(|| unsupported(format!("{} on bool", op.opencl())))?;
                let (x, y) = (self.sbool(a)?, self.sbool(b)?);
                self.sop2(o, MOp::Reg(d, 0), MOp::Reg(x, 0), MOp::Reg(y, 0));
            }
            Loc::Mask(d) => {
                let w = self.opts.wave64;
                let o = match op {
                    BinaryOp::And => {
                        if w {
                            Opcode::S_AND_B64
                        } else {
                            Opcode::S_AND_B32
                        }
                    }
                    BinaryOp::Or => {
                        if w {
                            Opcode::S_OR_B64
                        } else {
                            Opcode::S_OR_B32
                        }
                    }
                    BinaryOp::Xor => {
                        if w {
                            Opcode::S_XOR_B64
                        } else {
                            Opcode::S_XOR_B32
                        }
                    }
                    _ => return Err(unsupported(format!("{} on bool", op.opencl()))),
                };
                let (x, y) = (self.mask(a)?, self.mask(b)?);
                self.sop2(o, MOp::Reg(d, 0), MOp::Reg(x, 0), MOp::Reg(y, 0));
            }
            Loc::Const(..) => unreachable!(),
        }
        Ok(())
    }

    /// `r = op(args)` on 32 bits.
    pub(super) fn binary(
        &mut self,
        r: Value,
        op: BinaryOp,
        args: [Value; 2],
    ) -> Result<(), BackendError> {
        let (l, d) = self.dst(r);
        if let (Loc::S(_), true) = (l, salu(op).is_none()) {
            // No SALU form (floats never get here): compute per lane, read back.
            let t = self.mc.vreg(RegClass::Vgpr, 1);
            self.binary_into(Loc::V(t), op, args[0], args[1])?;
            self.readfirstlane(d, MOp::Reg(t, 0));
            return Ok(());
        }
        self.binary_into(l, op, args[0], args[1])
    }

    /// `dst = op(a)` on 32 bits (SALU or VALU by `dst`'s class).
    pub(super) fn unary_into(
        &mut self,
        dst: Loc,
        op: UnaryOp,
        a: Value,
    ) -> Result<(), BackendError> {
        let w = self.opts.wave64;
        match (dst, op) {
            (Loc::S(d), UnaryOp::Ineg) => {
                let x = self.ssrc_part(a, 0)?;
                self.sop2(Opcode::S_SUB_U32, MOp::Reg(d, 0), MOp::Imm(0), x);
            }
            (Loc::S(d), UnaryOp::Not) => {
                let x = self.ssrc_part(a, 0)?;
                self.push(Opcode::S_NOT_B32, Family::Sop1, 1, &[MOp::Reg(d, 0), x]);
            }
            (Loc::V(d), UnaryOp::Ineg) => {
                let x = self.src(a)?;
                self.vop2(Opcode::V_SUB_NC_U32, MOp::Reg(d, 0), MOp::Imm(0), x, false);
            }
            (Loc::V(d), UnaryOp::Not) => {
                let x = self.src(a)?;
                self.vop1(Opcode::V_NOT_B32, MOp::Reg(d, 0), x);
            }
            (Loc::V(d), UnaryOp::Fneg) => {
                let x = self.src(a)?;
                self.vop2(
                    Opcode::V_XOR_B32,
                    MOp::Reg(d, 0),
                    MOp::Imm(0x8000_0000),
                    x,
                    true,
                );
            }
            (Loc::V(d), UnaryOp::Fabs) => {
                let x = self.src(a)?;
                self.vop2(
                    Opcode::V_AND_B32,
                    MOp::Reg(d, 0),
                    MOp::Imm(0x7fff_ffff),
                    x,
                    true,
                );
            }
            (Loc::SBool(d), UnaryOp::Not) => {
                let x = self.sbool(a)?;
                self.sop2(
                    Opcode::S_XOR_B32,
                    MOp::Reg(d, 0),
                    MOp::Reg(x, 0),
                    MOp::Imm(1),
                );
            }
            (Loc::Mask(d), UnaryOp::Not) => {
                let x = self.mask(a)?;
                let o = if w {
                    Opcode::S_NOT_B64
                } else {
                    Opcode::S_NOT_B32
                };
                self.push(o, Family::Sop1, 1, &[MOp::Reg(d, 0), MOp::Reg(x, 0)]);
            }
            (l, op) => return Err(BackendError::Internal(format!("{} into {l:?}", op.name()))),
        }
        Ok(())
    }

    /// `r = op(a)` on 32 bits.
    pub(super) fn unary(&mut self, r: Value, op: UnaryOp, a: Value) -> Result<(), BackendError> {
        let l = self.def_loc(r);
        self.unary_into(l, op, a)
    }

    /// `dst = op(args)` (fused multiply-add and the other three-operand
    /// operations; always VALU).
    pub(super) fn ternary_into(
        &mut self,
        dst: Loc,
        op: TernaryOp,
        args: [Value; 3],
    ) -> Result<(), BackendError> {
        match (dst, op) {
            (Loc::V(d), TernaryOp::Fma) => {
                let (a, b, c) = (self.src(args[0])?, self.src(args[1])?, self.src(args[2])?);
                self.vop3(Opcode::V_FMA_F32, &[MOp::Reg(d, 0), a, b, c]);
            }
            (Loc::V(d), TernaryOp::Imad) => {
                // No 32-bit integer mad on gfx1030: multiply, then add.
                let (a, b, c) = (self.src(args[0])?, self.src(args[1])?, self.src(args[2])?);
                let t = self.mc.vreg(RegClass::Vgpr, 1);
                self.vop3(Opcode::V_MUL_LO_U32, &[MOp::Reg(t, 0), a, b]);
                self.vop2(
                    Opcode::V_ADD_NC_U32,
                    MOp::Reg(d, 0),
                    c,
                    MOp::Reg(t, 0),
                    true,
                );
            }
            (Loc::S(d), TernaryOp::Imad) => {
                let (a, b, c) = (
                    self.ssrc_part(args[0], 0)?,
                    self.ssrc_part(args[1], 0)?,
                    self.ssrc_part(args[2], 0)?,
                );
                let t = self.mc.vreg(RegClass::Sgpr, 1);
                self.sop2(Opcode::S_MUL_I32, MOp::Reg(t, 0), a, b);
                self.sop2(Opcode::S_ADD_U32, MOp::Reg(d, 0), MOp::Reg(t, 0), c);
            }
            (l, op) => return Err(BackendError::Internal(format!("{} into {l:?}", op.name()))),
        }
        Ok(())
    }

    /// `r = op(args)`.
    pub(super) fn ternary(
        &mut self,
        r: Value,
        op: TernaryOp,
        args: [Value; 3],
    ) -> Result<(), BackendError> {
        let l = self.def_loc(r);
        self.ternary_into(l, op, args)
    }

    /// `r = a cond b`: a lane mask (`v_cmp_*`) for a divergent result, 0/1 in
    /// an SGPR (`s_cmp_*` + `s_cselect_b32`) for a uniform one; 64-bit
    /// operands go to `icmp64`.
    pub(super) fn icmp(
        &mut self,
        r: Value,
        cond: IntCC,
        args: [Value; 2],
    ) -> Result<(), BackendError> {
        if self.f.ty(args[0]).bits() == 64 {
            return self.icmp64(r, cond, args);
        }
        if self.f.ty(args[0]).bits() > 32 {
            return Err(unsupported(
                "64-bit comparisons are not supported by the back end yet".into(),
            ));
        }
        match self.def_loc(r) {
            Loc::Mask(m) => {
                let (a, b) = (self.src(args[0])?, self.src(args[1])?);
                self.vop3(vcmp_int(cond), &[MOp::Reg(m, 0), a, b]);
            }
            Loc::SBool(d) => {
                self.scalar_compare(cond, args)?;
                self.push(
                    Opcode::S_CSELECT_B32,
                    Family::Sop2,
                    1,
                    &[MOp::Reg(d, 0), MOp::Imm(1), MOp::Imm(0)],
                );
            }
            l => return Err(BackendError::Internal(format!("icmp into {l:?}"))),
        }
        Ok(())
    }

    /// `s_cmp_*` of two uniform 32-bit values: SCC = `a cond b`.
    pub(super) fn scalar_compare(
        &mut self,
        cond: IntCC,
        args: [Value; 2],
    ) -> Result<(), BackendError> {
        let (a, b) = (self.ssrc_part(args[0], 0)?, self.ssrc_part(args[1], 0)?);
        let b = if matches!((a, b), (MOp::Imm(_), MOp::Imm(_))) {
            self.in_sgpr(b)
        } else {
            b
        };
        self.push(scmp_int(cond), Family::Sopc, 0, &[a, b]);
        Ok(())
    }

    /// `op` copied into a new SGPR (`s_mov_b32`).
    pub(super) fn in_sgpr(&mut self, op: MOp) -> MOp {
        let t = self.mc.vreg(RegClass::Sgpr, 1);
        self.push(Opcode::S_MOV_B32, Family::Sop1, 1, &[MOp::Reg(t, 0), op]);
        MOp::Reg(t, 0)
    }

    /// `r = cond ? t : f` computing both arms (the arms are already selected)
    /// and blending with `v_cndmask_b32` (or `s_cselect` when uniform).
    pub(super) fn select(
        &mut self,
        r: Value,
        cond: Value,
        args: [Value; 2],
    ) -> Result<(), BackendError> {
        let dw = self.dwords(self.f.ty(r));
        match self.def_loc(r) {
            Loc::V(d) => {
                let m = self.mask(cond)?;
                for k in 0..dw {
                    let (t, f) = (self.src_part(args[0], k)?, self.src_part(args[1], k)?);
                    self.vop3(
                        Opcode::V_CNDMASK_B32,
                        &[MOp::Reg(d, k), f, t, MOp::Reg(m, 0)],
                    );
                }
            }
            Loc::S(d) => {
                let c = self.sbool(cond)?;
                self.push(
                    Opcode::S_CMP_LG_U32,
                    Family::Sopc,
                    0,
                    &[MOp::Reg(c, 0), MOp::Imm(0)],
                );
                for k in 0..dw {
                    let (t, f) = (self.ssrc_part(args[0], k)?, self.ssrc_part(args[1], k)?);
                    self.sop2(Opcode::S_CSELECT_B32, MOp::Reg(d, k), t, f);
                }
            }
            Loc::Mask(d) | Loc::SBool(d) => {
                // (c & t) | (f & !c), on lane masks or on 0/1.
                let is_mask = matches!(self.def_loc(r), Loc::Mask(_));
                let w = self.opts.wave64 && is_mask;
                let get = |s: &mut Self, v| if is_mask { s.mask(v) } else { s.sbool(v) };
                let (c, t, f) = (get(self, cond)?, get(self, args[0])?, get(self, args[1])?);
                let x = self.mc.vreg(RegClass::Sgpr, if w { 2 } else { 1 });
                let y = self.mc.vreg(RegClass::Sgpr, if w { 2 } else { 1 });
                let (and, andn2, or) = if w {
                    (Opcode::S_AND_B64, Opcode::S_ANDN2_B64, Opcode::S_OR_B64)
                } else {
                    (Opcode::S_AND_B32, Opcode::S_ANDN2_B32, Opcode::S_OR_B32)
                };
                self.sop2(and, MOp::Reg(x, 0), MOp::Reg(c, 0), MOp::Reg(t, 0));
                self.sop2(andn2, MOp::Reg(y, 0), MOp::Reg(f, 0), MOp::Reg(c, 0));
                self.sop2(or, MOp::Reg(d, 0), MOp::Reg(x, 0), MOp::Reg(y, 0));
            }
            Loc::Const(..) => unreachable!(),
        }
        Ok(())
    }

    /// `d = s` with `v_mov_b32` (`vector`) or `s_mov_b32`.
    pub(super) fn mov(&mut self, vector: bool, d: MOp, s: MOp) {
        if vector {
            self.vop1(Opcode::V_MOV_B32, d, s);
        } else {
            self.push(Opcode::S_MOV_B32, Family::Sop1, 1, &[d, s]);
        }
    }
}
