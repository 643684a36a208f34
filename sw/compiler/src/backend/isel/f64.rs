//! Instruction selection: `double` on the gfx1030 f64 VALU, and the
//! conversions between 64-bit integers and floats. Every sequence is the
//! one clang-19 emits for the same LLVM operation (`fdiv double`,
//! `sitofp i64`, `fptoui float to i64`, ...): the same instructions give
//! the same bits, which the conformance tests check on the golden GPU.
//!
//! A `double` lives in a VGPR pair, low dword first (floats are always
//! per lane). A constant operand whose low dword is zero is an f64 inline
//! constant or a 32-bit literal (the high dword, as the hardware reads it);
//! any other constant is moved into a VGPR pair first. At most one source
//! of an instruction reads the constant bus (SGPRs, literals); the others
//! are copied into VGPRs — simpler than counting the gfx10 limit of two,
//! and `v_div_fmas_f64` already reads VCC.

use arch::isa::operand::inline_code_for;
use arch::isa::{Family, Opcode, OperandType};

use super::{Isel, Loc};
use crate::backend::minst::{special, MInst, MOp, RegClass, VReg};
use crate::backend::BackendError;
use crate::ir::*;

/// `-2^32` as the high dword of a double (its low dword is zero).
const NEG_2P32_F64_HI: u32 = 0xc1f0_0000;
/// `2^-32` as a float.
const P2M32_F32: u32 = 0x2f80_0000;
/// `-2^32` as a float.
const NEG_2P32_F32: u32 = 0xcf80_0000;
/// The f64 inline constant 1.0 (high dword).
const ONE_F64_HI: u32 = 0x3ff0_0000;

/// A source operand with the type its slot reads.
#[derive(Clone, Copy)]
enum Src {
    /// A 64-bit float source.
    D(MOp),
    /// A 32-bit source (integer or float).
    W(MOp),
}

fn vcmp_f64(cc: FloatCC) -> Opcode {
    match cc {
        FloatCC::Oeq => Opcode::V_CMP_EQ_F64,
        FloatCC::Une => Opcode::V_CMP_NEQ_F64,
        FloatCC::Olt => Opcode::V_CMP_LT_F64,
        FloatCC::Ole => Opcode::V_CMP_LE_F64,
        FloatCC::Ogt => Opcode::V_CMP_GT_F64,
        FloatCC::Oge => Opcode::V_CMP_GE_F64,
    }
}

/// True for the conversions this file selects.
fn is_wide_float_convert(op: ConvertOp, from: Type, to: Type) -> bool {
    match op {
        ConvertOp::FpExt | ConvertOp::FpTrunc => true,
        ConvertOp::SiToFp | ConvertOp::UiToFp => to == Type::F64 || from == Type::I64,
        ConvertOp::FpToSi | ConvertOp::FpToUi => from == Type::F64 || to == Type::I64,
        _ => false,
    }
}

impl Isel<'_> {
    /// Selects `i` when it computes on a `double` or converts between a
    /// float and a 64-bit type; false when it is not such an instruction.
    pub(in crate::backend) fn lower_f64(&mut self, i: Inst) -> Result<bool, BackendError> {
        let data = self.f.inst(i);
        let (kind, result) = (data.kind.clone(), data.result);
        let Some(r) = result else {
            return Ok(false);
        };
        let f64_result = self.f.ty(r) == Type::F64;
        match kind {
            InstKind::Binary { op, args } if f64_result => self.binary_f64(r, op, args)?,
            InstKind::Select { args, .. } if f64_result && self.min_max[i.index()].is_some() => {
                let op = self.min_max[i.index()].expect("checked");
                self.binary_f64(r, op, args)?;
            }
            // Any width: one v_cndmask per dword (as for i64).
            InstKind::Select { cond, args } if f64_result => self.select(r, cond, args)?,
            InstKind::Unary { op, arg } if f64_result => self.unary_f64(r, op, arg)?,
            InstKind::Ternary {
                op: TernaryOp::Fma,
                args,
            } if f64_result => {
                let d = self.f64_dst(r);
                let s = [
                    self.d_src(args[0])?,
                    self.d_src(args[1])?,
                    self.d_src(args[2])?,
                ];
                self.emit(Opcode::V_FMA_F64, Family::Vop3, MOp::Reg(d, 0), &s, 0, 0);
            }
            InstKind::Fcmp { cond, args } if self.f.ty(args[0]) == Type::F64 => {
                let m = match self.def_loc(r) {
                    Loc::Mask(m) => m,
                    _ => {
                        let m = self.new_mask();
                        self.locs[r.index()] = Some(Loc::Mask(m));
                        m
                    }
                };
                let s = [self.d_src(args[0])?, self.d_src(args[1])?];
                self.emit(vcmp_f64(cond), Family::Vop3, MOp::Reg(m, 0), &s, 0, 0);
            }
            InstKind::Convert { op, arg, to } if is_wide_float_convert(op, self.f.ty(arg), to) => {
                self.convert_wide(r, op, arg, to)?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    // ---- operands and destinations ---------------------------------------

    /// The VGPR pair a `double` result is defined into.
    fn f64_dst(&mut self, r: Value) -> VReg {
        match self.def_loc(r) {
            Loc::V(d) => d,
            _ => {
                let d = self.mc.vreg(RegClass::Vgpr, 2);
                self.locs[r.index()] = Some(Loc::V(d));
                d
            }
        }
    }

    /// A 64-bit float source: its register pair, an f64 constant whose
    /// low dword is zero, or a constant moved into a VGPR pair.
    fn d_src(&mut self, v: Value) -> Result<Src, BackendError> {
        Ok(Src::D(match self.loc(v)? {
            Loc::V(r) | Loc::S(r) => MOp::Reg(r, 0),
            Loc::Const(0, hi) => MOp::Imm(hi),
            _ => MOp::Reg(self.vpair(v)?, 0),
        }))
    }

    /// A 64-bit value in a VGPR pair (copied there unless it already is).
    fn vpair(&mut self, v: Value) -> Result<VReg, BackendError> {
        if let Loc::V(r) = self.loc(v)? {
            return Ok(r);
        }
        let t = self.mc.vreg(RegClass::Vgpr, 2);
        for k in 0..2 {
            let s = self.src_part(v, k)?;
            self.vop1(Opcode::V_MOV_B32, MOp::Reg(t, k), s);
        }
        Ok(t)
    }

    fn on_bus(&self, s: Src) -> bool {
        match s {
            Src::D(MOp::Imm(x)) => inline_code_for(x, OperandType::F64).is_none(),
            Src::W(MOp::Imm(x)) => inline_code_for(x, OperandType::F32).is_none(),
            Src::D(MOp::Reg(r, _)) | Src::W(MOp::Reg(r, _)) => {
                self.mc.vregs[r.0 as usize].class == RegClass::Sgpr
            }
            Src::D(MOp::Phys(_)) | Src::W(MOp::Phys(_)) => true,
            _ => false,
        }
    }

    /// Copies a source into VGPRs (both dwords of a 64-bit one).
    fn copy_to_vgprs(&mut self, s: Src) -> MOp {
        match s {
            Src::W(o) => self.in_vgpr(o),
            Src::D(o) => {
                let t = self.mc.vreg(RegClass::Vgpr, 2);
                let (lo, hi) = match o {
                    MOp::Imm(hi) => (MOp::Imm(0), MOp::Imm(hi)),
                    MOp::Reg(r, k) => (MOp::Reg(r, k), MOp::Reg(r, k + 1)),
                    other => (other, other),
                };
                self.vop1(Opcode::V_MOV_B32, MOp::Reg(t, 0), lo);
                self.vop1(Opcode::V_MOV_B32, MOp::Reg(t, 1), hi);
                MOp::Reg(t, 0)
            }
        }
    }

    /// Appends `op d, srcs…` with `neg`/`abs` source modifier bits,
    /// keeping at most one constant-bus source (the first).
    fn emit(&mut self, op: Opcode, family: Family, d: MOp, srcs: &[Src], neg: u8, abs: u8) {
        let mut ops = vec![d];
        let mut bus = false;
        for &s in srcs {
            let o = if self.on_bus(s) {
                if bus {
                    self.copy_to_vgprs(s)
                } else {
                    bus = true;
                    match s {
                        Src::D(o) | Src::W(o) => o,
                    }
                }
            } else {
                match s {
                    Src::D(o) | Src::W(o) => o,
                }
            };
            ops.push(o);
        }
        let mut mi = MInst::new(op, family, 1, &ops);
        mi.modifiers.neg = neg;
        mi.modifiers.abs = abs;
        self.mc.push(mi);
    }

    /// A VOP3 with one destination, every source in a VGPR (or inline).
    fn v3(&mut self, op: Opcode, d: MOp, srcs: &[Src]) {
        self.emit(op, Family::Vop3, d, srcs, 0, 0);
    }

    fn fresh(&mut self, dwords: u8) -> MOp {
        MOp::Reg(self.mc.vreg(RegClass::Vgpr, dwords), 0)
    }

    // ---- arithmetic --------------------------------------------------------

    fn binary_f64(
        &mut self,
        r: Value,
        op: BinaryOp,
        [a, b]: [Value; 2],
    ) -> Result<(), BackendError> {
        let d = MOp::Reg(self.f64_dst(r), 0);
        if op == BinaryOp::Fdiv {
            let (x, y) = (self.vpair(a)?, self.vpair(b)?);
            self.fdiv_f64(d, MOp::Reg(x, 0), MOp::Reg(y, 0));
            return Ok(());
        }
        let (x, y) = (self.d_src(a)?, self.d_src(b)?);
        let (o, neg) = match op {
            BinaryOp::Fadd => (Opcode::V_ADD_F64, 0),
            // a - b is a + (-b), as clang selects it.
            BinaryOp::Fsub => (Opcode::V_ADD_F64, 2),
            BinaryOp::Fmul => (Opcode::V_MUL_F64, 0),
            BinaryOp::Fmin => (Opcode::V_MIN_F64, 0),
            BinaryOp::Fmax => (Opcode::V_MAX_F64, 0),
            _ => {
                return Err(BackendError::Unsupported(format!(
                    "{} on double is not supported by the back end",
                    op.opencl()
                )))
            }
        };
        self.emit(o, Family::Vop3, d, &[x, y], neg, 0);
        Ok(())
    }

    fn unary_f64(&mut self, r: Value, op: UnaryOp, a: Value) -> Result<(), BackendError> {
        let d = self.f64_dst(r);
        let (mask_op, k) = match op {
            UnaryOp::Fneg => (Opcode::V_XOR_B32, 0x8000_0000),
            UnaryOp::Fabs => (Opcode::V_AND_B32, 0x7fff_ffff),
            _ => return Err(BackendError::Internal(format!("{} on f64", op.name()))),
        };
        // The sign is bit 31 of the high dword; the low dword is copied.
        let (lo, hi) = (self.src_part(a, 0)?, self.src_part(a, 1)?);
        self.vop1(Opcode::V_MOV_B32, MOp::Reg(d, 0), lo);
        self.vop2(mask_op, MOp::Reg(d, 1), MOp::Imm(k), hi, true);
        Ok(())
    }

    /// IEEE `a / b` on f64 (`a`, `b` VGPR pairs), clang-19's expansion:
    /// both operands scaled by `v_div_scale_f64` (the numerator's sets VCC
    /// for `v_div_fmas_f64`), the reciprocal refined by two Newton steps,
    /// one quotient correction, `v_div_fixup_f64` for the special cases.
    /// Nothing between the VCC write and its read touches VCC.
    fn fdiv_f64(&mut self, d: MOp, a: MOp, b: MOp) {
        let den = self.fresh(2);
        let num = self.fresh(2);
        self.push(
            Opcode::V_DIV_SCALE_F64,
            Family::Vop3,
            2,
            &[den, MOp::Phys(special::NULL), b, b, a],
        );
        self.push(
            Opcode::V_DIV_SCALE_F64,
            Family::Vop3,
            2,
            &[num, MOp::Phys(special::VCC), a, b, a],
        );
        let r0 = self.fresh(2);
        self.push(Opcode::V_RCP_F64, Family::Vop1, 1, &[r0, den]);
        let one = Src::D(MOp::Imm(ONE_F64_HI));
        let mut r = r0;
        for _ in 0..2 {
            // e = fma(-den, r, 1.0); r = fma(r, e, r)
            let e = self.fresh(2);
            self.emit(
                Opcode::V_FMA_F64,
                Family::Vop3,
                e,
                &[Src::D(den), Src::D(r), one],
                1,
                0,
            );
            let r2 = self.fresh(2);
            self.v3(Opcode::V_FMA_F64, r2, &[Src::D(r), Src::D(e), Src::D(r)]);
            r = r2;
        }
        let q = self.fresh(2);
        self.v3(Opcode::V_MUL_F64, q, &[Src::D(num), Src::D(r)]);
        let e = self.fresh(2);
        self.emit(
            Opcode::V_FMA_F64,
            Family::Vop3,
            e,
            &[Src::D(den), Src::D(q), Src::D(num)],
            1,
            0,
        );
        let t = self.fresh(2);
        self.v3(
            Opcode::V_DIV_FMAS_F64,
            t,
            &[Src::D(e), Src::D(r), Src::D(q)],
        );
        self.v3(
            Opcode::V_DIV_FIXUP_F64,
            d,
            &[Src::D(t), Src::D(b), Src::D(a)],
        );
    }

    // ---- conversions -------------------------------------------------------

    fn convert_wide(
        &mut self,
        r: Value,
        op: ConvertOp,
        a: Value,
        to: Type,
    ) -> Result<(), BackendError> {
        let from = self.f.ty(a);
        // Integer results may be uniform (SGPRs): computed per lane in a
        // temporary, then read back from the first active lane.
        let (dv, back) = match self.def_loc(r) {
            Loc::V(d) => (d, None),
            Loc::S(s) => (self.mc.vreg(RegClass::Vgpr, self.dwords(to)), Some(s)),
            l => return Err(BackendError::Internal(format!("{} into {l:?}", op.name()))),
        };
        let d = MOp::Reg(dv, 0);
        let unsupported = || {
            BackendError::Unsupported(format!(
                "{} is not supported by the back end",
                op.opencl(from, to)
            ))
        };
        match (op, from, to) {
            (ConvertOp::FpExt, Type::F32, Type::F64) => {
                let x = self.src(a)?;
                self.vop1(Opcode::V_CVT_F64_F32, d, x);
            }
            (ConvertOp::FpTrunc, Type::F64, Type::F32) => {
                let x = self.d_src(a)?;
                self.emit(Opcode::V_CVT_F32_F64, Family::Vop1, d, &[x], 0, 0);
            }
            (ConvertOp::SiToFp | ConvertOp::UiToFp, Type::I32, Type::F64) => {
                let o = if op == ConvertOp::SiToFp {
                    Opcode::V_CVT_F64_I32
                } else {
                    Opcode::V_CVT_F64_U32
                };
                let x = self.src(a)?;
                self.vop1(o, d, x);
            }
            (ConvertOp::FpToSi | ConvertOp::FpToUi, Type::F64, Type::I32) => {
                let o = if op == ConvertOp::FpToSi {
                    Opcode::V_CVT_I32_F64
                } else {
                    Opcode::V_CVT_U32_F64
                };
                let x = self.d_src(a)?;
                self.emit(o, Family::Vop1, d, &[x], 0, 0);
            }
            (ConvertOp::SiToFp | ConvertOp::UiToFp, Type::I64, Type::F64) => {
                // hi * 2^32 + lo, both exact in double until the add.
                let signed = op == ConvertOp::SiToFp;
                let (lo, hi) = (self.src_part(a, 0)?, self.src_part(a, 1)?);
                let h = self.fresh(2);
                let o = if signed {
                    Opcode::V_CVT_F64_I32
                } else {
                    Opcode::V_CVT_F64_U32
                };
                self.vop1(o, h, hi);
                let l = self.fresh(2);
                self.vop1(Opcode::V_CVT_F64_U32, l, lo);
                let hs = self.fresh(2);
                self.v3(Opcode::V_LDEXP_F64, hs, &[Src::D(h), Src::W(MOp::Imm(32))]);
                self.v3(Opcode::V_ADD_F64, d, &[Src::D(hs), Src::D(l)]);
            }
            (ConvertOp::FpToSi | ConvertOp::FpToUi, Type::F64, Type::I64) => {
                // t = trunc(x); hi = floor(t * 2^-32); lo = fma(hi, -2^32, t).
                let x = self.d_src(a)?;
                let t = self.fresh(2);
                self.emit(Opcode::V_TRUNC_F64, Family::Vop1, t, &[x], 0, 0);
                let s = self.fresh(2);
                self.v3(
                    Opcode::V_LDEXP_F64,
                    s,
                    &[Src::D(t), Src::W(MOp::Imm((-32i32) as u32))],
                );
                let hf = self.fresh(2);
                self.push(Opcode::V_FLOOR_F64, Family::Vop1, 1, &[hf, s]);
                let lf = self.fresh(2);
                self.v3(
                    Opcode::V_FMA_F64,
                    lf,
                    &[Src::D(MOp::Imm(NEG_2P32_F64_HI)), Src::D(hf), Src::D(t)],
                );
                self.push(
                    Opcode::V_CVT_U32_F64,
                    Family::Vop1,
                    1,
                    &[MOp::Reg(dv, 0), lf],
                );
                let o = if op == ConvertOp::FpToSi {
                    Opcode::V_CVT_I32_F64
                } else {
                    Opcode::V_CVT_U32_F64
                };
                self.push(o, Family::Vop1, 1, &[MOp::Reg(dv, 1), hf]);
            }
            (ConvertOp::SiToFp | ConvertOp::UiToFp, Type::I64, Type::F32) => {
                self.i64_to_f32(d, a, op == ConvertOp::SiToFp)?;
            }
            (ConvertOp::FpToSi | ConvertOp::FpToUi, Type::F32, Type::I64) => {
                self.f32_to_i64(dv, a, op == ConvertOp::FpToSi)?;
            }
            _ => return Err(unsupported()),
        }
        if let Some(s) = back {
            for k in 0..self.dwords(to) {
                self.push(
                    Opcode::V_READFIRSTLANE_B32,
                    Family::Vop1,
                    1,
                    &[MOp::Reg(s, k), MOp::Reg(dv, k)],
                );
            }
        }
        Ok(())
    }

    /// `(float)x` for a 64-bit `x` (LLVM AMDGPU's `LowerINT_TO_FP32`):
    /// shift the value left so its leading significant bit is bit 63, fold
    /// the low dword into a sticky bit, convert the high dword, scale back
    /// with `v_ldexp_f32`. The signed form shifts by the redundant sign bits.
    fn i64_to_f32(&mut self, d: MOp, a: Value, signed: bool) -> Result<(), BackendError> {
        let x = self.vpair(a)?;
        let (lo, hi) = (MOp::Reg(x, 0), MOp::Reg(x, 1));
        let sh = self.fresh(1);
        if signed {
            // min(ffbh_i32(hi) - 1, 32 + ((lo ^ hi) >> 31)): ffbh_i32 is -1
            // for 0 and -1, so the minimum picks the second then.
            let opp = self.fresh(1);
            self.vop2(Opcode::V_XOR_B32, opp, lo, hi, true);
            let opp2 = self.fresh(1);
            self.vop2(Opcode::V_ASHRREV_I32, opp2, MOp::Imm(31), opp, false);
            let f = self.fresh(1);
            self.vop1(Opcode::V_FFBH_I32, f, hi);
            let f1 = self.fresh(1);
            self.vop2(Opcode::V_ADD_NC_U32, f1, MOp::Imm(u32::MAX), f, true);
            let max = self.fresh(1);
            self.vop2(Opcode::V_ADD_NC_U32, max, MOp::Imm(32), opp2, true);
            self.vop2(Opcode::V_MIN_U32, sh, f1, max, true);
        } else {
            let f = self.fresh(1);
            self.vop1(Opcode::V_FFBH_U32, f, hi);
            self.vop2(Opcode::V_MIN_U32, sh, MOp::Imm(32), f, true);
        }
        let n = self.fresh(2);
        self.push(
            Opcode::V_LSHLREV_B64,
            Family::Vop3,
            1,
            &[n, sh, MOp::Reg(x, 0)],
        );
        let MOp::Reg(nr, _) = n else { unreachable!() };
        let sticky = self.fresh(1);
        self.vop2(
            Opcode::V_MIN_U32,
            sticky,
            MOp::Imm(1),
            MOp::Reg(nr, 0),
            true,
        );
        let m = self.fresh(1);
        self.vop2(Opcode::V_OR_B32, m, MOp::Reg(nr, 1), sticky, true);
        let c = self.fresh(1);
        let o = if signed {
            Opcode::V_CVT_F32_I32
        } else {
            Opcode::V_CVT_F32_U32
        };
        self.vop1(o, c, m);
        let e = self.fresh(1);
        self.vop2(Opcode::V_SUB_NC_U32, e, MOp::Imm(32), sh, false);
        self.vop3(Opcode::V_LDEXP_F32, &[d, c, e]);
        Ok(())
    }

    /// `(long)x`/`(ulong)x` for a float `x` (LLVM AMDGPU's
    /// `LowerFP_TO_INT64` for f32): `t = trunc(x)`, `hi = floor(t * 2^-32)`,
    /// `lo = fma(hi, -2^32, t)`, each converted to a dword; the signed form
    /// converts `|t|` and negates the 64-bit result by the sign of `t`.
    fn f32_to_i64(&mut self, dv: VReg, a: Value, signed: bool) -> Result<(), BackendError> {
        let x = self.src(a)?;
        let t = self.fresh(1);
        self.vop1(Opcode::V_TRUNC_F32, t, x);
        let abs = if signed { 2 } else { 0 };
        let s = self.fresh(1);
        self.emit(
            Opcode::V_MUL_F32,
            Family::Vop3,
            s,
            &[Src::W(MOp::Imm(P2M32_F32)), Src::W(t)],
            0,
            abs,
        );
        let hf = self.fresh(1);
        self.vop1(Opcode::V_FLOOR_F32, hf, s);
        let lf = self.fresh(1);
        self.emit(
            Opcode::V_FMA_F32,
            Family::Vop3,
            lf,
            &[Src::W(MOp::Imm(NEG_2P32_F32)), Src::W(hf), Src::W(t)],
            0,
            abs << 1,
        );
        let (hi, lo) = (self.fresh(1), self.fresh(1));
        self.vop1(Opcode::V_CVT_U32_F32, hi, hf);
        self.vop1(Opcode::V_CVT_U32_F32, lo, lf);
        let (d0, d1) = (MOp::Reg(dv, 0), MOp::Reg(dv, 1));
        if !signed {
            self.vop1(Opcode::V_MOV_B32, d0, lo);
            self.vop1(Opcode::V_MOV_B32, d1, hi);
            return Ok(());
        }
        // (v ^ sign) - sign, sign = t >> 31 (all ones for negative t).
        let sign = self.fresh(1);
        self.vop2(Opcode::V_ASHRREV_I32, sign, MOp::Imm(31), t, false);
        let (xl, xh) = (self.fresh(1), self.fresh(1));
        self.vop2(Opcode::V_XOR_B32, xl, lo, sign, true);
        self.vop2(Opcode::V_XOR_B32, xh, hi, sign, true);
        let vcc = MOp::Phys(special::VCC);
        self.vop3_defs(Opcode::V_SUB_CO_U32, 2, &[d0, vcc, xl, sign]);
        self.push(
            Opcode::V_SUB_CO_CI_U32,
            Family::Vop2,
            2,
            &[d1, vcc, xh, sign, vcc],
        );
        Ok(())
    }
}
