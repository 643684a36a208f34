//! Lowering of built-in calls and of what clang expands inline: float
//! division and `sqrt`, 64-bit division, `mul_hi` written in C, atomics
//! with their memory orders and compare-and-swap.

use super::{unsupported, FpDivSqrt, Lowerer, R};
use crate::front::builtins::{AtomicOp as FAtomic, Builtin as FB};
use crate::front::diag::Loc;
use crate::front::tast::{CastKind, Expr, ExprKind};
use crate::front::types as ft;
use crate::ir::{
    AtomicOp, BinaryOp, Builtin as IrBuiltin, ConvertOp, FloatCC, InstKind, IntCC, TernaryOp, Type,
    UnaryOp, Value, WorkItemQuery,
};

impl Lowerer<'_> {
    /// `a / b` on f32 as clang-19 expands it for OpenCL by default (2.5 ULP
    /// allowed, denormals kept): the mantissas divided through `v_rcp`, the
    /// exponents subtracted, `ldexp` putting them together. The same
    /// instructions, so the same bits as clang's objects.
    pub(super) fn fdiv(&mut self, a: Value, b: Value) -> Value {
        match self.opts.fp_div_sqrt {
            FpDivSqrt::Default => {}
            FpDivSqrt::Relaxed => {
                let mut bl = self.b();
                let r = bl.call(IrBuiltin::Rcp, &[b]);
                return bl.binary(BinaryOp::Fmul, r, a);
            }
            FpDivSqrt::CorrectlyRounded => return self.b().call(IrBuiltin::FdivIeee, &[a, b]),
        }
        let mut bl = self.b();
        let ma = bl.call(IrBuiltin::FrexpMant, &[a]);
        let ea = bl.call(IrBuiltin::FrexpExp, &[a]);
        let mb = bl.call(IrBuiltin::FrexpMant, &[b]);
        let eb = bl.call(IrBuiltin::FrexpExp, &[b]);
        let r = bl.call(IrBuiltin::Rcp, &[mb]);
        let q = bl.binary(BinaryOp::Fmul, ma, r);
        let e = bl.binary(BinaryOp::Isub, ea, eb);
        bl.call(IrBuiltin::Ldexp, &[q, e])
    }

    /// Unsigned 64-bit `a / b` and `a % b` by restoring division, one
    /// quotient bit per step, unrolled (straight-line, so it needs no loop
    /// and stays correct in every lane whatever the others do). Division by
    /// zero gives all ones and `a`, as undefined behaviour allows.
    pub(super) fn udivrem64(&mut self, a: Value, b: Value) -> (Value, Value) {
        let mut bl = self.b();
        let zero = bl.iconst(Type::I64, 0);
        let one = bl.iconst(Type::I64, 1);
        let (mut q, mut r) = (zero, zero);
        for k in (0..64).rev() {
            let kk = bl.iconst(Type::I64, k);
            let bit = bl.binary(BinaryOp::Lshr, a, kk);
            let bit = bl.binary(BinaryOp::And, bit, one);
            let shifted = bl.binary(BinaryOp::Shl, r, one);
            r = bl.binary(BinaryOp::Or, shifted, bit);
            let ge = bl.icmp(IntCC::Uge, r, b);
            let less = bl.binary(BinaryOp::Isub, r, b);
            r = bl.select(ge, less, r);
            let qbit = bl.select(ge, one, zero);
            let q2 = bl.binary(BinaryOp::Shl, q, one);
            q = bl.binary(BinaryOp::Or, q2, qbit);
        }
        (q, r)
    }

    /// `sqrt(x)` on f32 as clang-19 expands it for OpenCL by default (3 ULP
    /// allowed): `v_sqrt_f32` flushes denormal inputs, so inputs below
    /// 2^-126 are scaled by 2^32 first and the root by 2^-16 after.
    pub(super) fn sqrt_f32(&mut self, x: Value) -> Value {
        match self.opts.fp_div_sqrt {
            FpDivSqrt::Default => {}
            FpDivSqrt::Relaxed => return self.b().call(IrBuiltin::Sqrt, &[x]),
            FpDivSqrt::CorrectlyRounded => return self.sqrt_f32_correct(x),
        }
        let mut bl = self.b();
        let smallest_normal = bl.f32const(f32::MIN_POSITIVE);
        let tiny = bl.fcmp(FloatCC::Olt, x, smallest_normal);
        let (up, down, zero) = (
            bl.iconst(Type::I32, 32),
            bl.iconst(Type::I32, -16),
            bl.iconst(Type::I32, 0),
        );
        let s = bl.select(tiny, up, zero);
        let scaled = bl.call(IrBuiltin::Ldexp, &[x, s]);
        let root = bl.call(IrBuiltin::Sqrt, &[scaled]);
        let e = bl.select(tiny, down, zero);
        bl.call(IrBuiltin::Ldexp, &[root, e])
    }

    /// Correctly rounded `sqrt(x)` on f32, clang-19's sequence for
    /// `-cl-fp32-correctly-rounded-divide-sqrt` instruction for instruction
    /// (so the same bits): inputs below 2^-32 scaled by 2^32; `s =
    /// v_sqrt_f32`; its neighbours `s∓1 ulp` tested by the residuals
    /// `fma(-(s∓1), s, x)`; the root scaled back by 2^-16; ±0 and +inf
    /// returned as they are.
    fn sqrt_f32_correct(&mut self, x: Value) -> Value {
        let mut bl = self.b();
        let limit = bl.f32const(f32::from_bits(0x0f80_0000)); // 2^-32
        let small = bl.fcmp(FloatCC::Olt, x, limit);
        let up = bl.f32const(f32::from_bits(0x4f80_0000)); // 2^32
        let scaled = bl.binary(BinaryOp::Fmul, x, up);
        let xs = bl.select(small, scaled, x);
        let s = bl.call(IrBuiltin::Sqrt, &[xs]);
        let s_bits = bl.convert(ConvertOp::Bitcast, s, Type::I32);
        let (m1, p1) = (bl.iconst(Type::I32, -1), bl.iconst(Type::I32, 1));
        let below = bl.iadd(s_bits, m1);
        let above = bl.iadd(s_bits, p1);
        let below = bl.convert(ConvertOp::Bitcast, below, Type::F32);
        let above = bl.convert(ConvertOp::Bitcast, above, Type::F32);
        let nb = bl.unary(UnaryOp::Fneg, below);
        let na = bl.unary(UnaryOp::Fneg, above);
        let r_below = bl.ternary(TernaryOp::Fma, nb, s, xs);
        let r_above = bl.ternary(TernaryOp::Fma, na, s, xs);
        let zero = bl.f32const(0.0);
        let take_below = bl.fcmp(FloatCC::Ole, r_below, zero);
        let s = bl.select(take_below, below, s);
        let take_above = bl.fcmp(FloatCC::Ogt, r_above, zero);
        let s = bl.select(take_above, above, s);
        let down = bl.f32const(f32::from_bits(0x3780_0000)); // 2^-16
        let unscaled = bl.binary(BinaryOp::Fmul, s, down);
        let s = bl.select(small, unscaled, s);
        let inf = bl.f32const(f32::INFINITY);
        let is_zero = bl.fcmp(FloatCC::Oeq, xs, zero);
        let is_inf = bl.fcmp(FloatCC::Oeq, xs, inf);
        let keep = bl.binary(BinaryOp::Or, is_zero, is_inf);
        bl.select(keep, xs, s)
    }

    /// Fences an atomic with memory order `order` needs: (before, after).
    /// Release orders fence before, acquire orders after (C11's constants:
    /// relaxed 0, consume 1, acquire 2, release 3, acq_rel 4, seq_cst 5).
    pub(super) fn ordering(&mut self, order: Value, loc: Loc) -> R<(bool, bool)> {
        match self.func.iconst_value(order) {
            Some(0) => Ok((false, false)),
            Some(1 | 2) => Ok((false, true)),
            Some(3) => Ok((true, false)),
            Some(4 | 5) => Ok((true, true)),
            _ => unsupported(loc, "an atomic with a non-constant or unknown memory order"),
        }
    }

    /// `atomic_cmpxchg(p, cmp, val)` → the old value, and the 2.0
    /// `compare_exchange(p, &expected, desired, …)` → `bool`, which writes
    /// the value seen to `expected` (an SSA variable here: writing it on
    /// success too is the same, the value seen then equals it). On 32-bit
    /// integers; orders other than relaxed put fences around it.
    pub(super) fn compare_exchange(&mut self, bi: FB, args: &[Expr], loc: Loc) -> R<Vec<Value>> {
        let is_i32 = |e: &Expr| ir_scalar(&e.ty) == Some(Type::I32);
        if bi == FB::AtomicCmpxchg {
            // [ptr, cmp, val, order, scope]
            let order = self.rvalue(&args[3])?[0];
            let (before, after) = self.ordering(order, loc)?;
            if !is_i32(&args[1]) {
                return unsupported(loc, "atomics on types other than int/uint");
            }
            let p = self.rvalue(&args[0])?[0];
            let c = self.rvalue(&args[1])?[0];
            let v = self.rvalue(&args[2])?[0];
            return Ok(vec![self.fenced_cas(p, c, v, before, after)]);
        }
        // [ptr, expected_ptr, desired, success order, failure order, scope]
        let (mut before, mut after) = (false, false);
        for o in &args[3..5] {
            let o = self.rvalue(o)?[0];
            let (b, a) = self.ordering(o, loc)?;
            before |= b;
            after |= a;
        }
        if !is_i32(&args[2]) {
            return unsupported(loc, "atomics on types other than int/uint");
        }
        let mut e = &args[1];
        while let ExprKind::Cast(CastKind::PtrToPtr, inner) = &e.kind {
            e = inner;
        }
        let ExprKind::AddrOf(expected) = &e.kind else {
            return unsupported(
                args[1].loc,
                "compare-exchange whose expected value is not `&variable`",
            );
        };
        let place = self.place(expected)?;
        let p = self.rvalue(&args[0])?[0];
        let c = self.read(&place, loc)?[0];
        let v = self.rvalue(&args[2])?[0];
        let old = self.fenced_cas(p, c, v, before, after);
        self.write(&place, &[old], loc)?;
        let ok = self.b().icmp(IntCC::Eq, old, c);
        self.bool_to_value(ok, &ft::Type::BOOL, loc)
    }

    /// `atomic_cas(p, c, v)` with a fence before (release) and after
    /// (acquire) as the memory order asks; the old value.
    fn fenced_cas(&mut self, p: Value, c: Value, v: Value, before: bool, after: bool) -> Value {
        if before {
            self.b().fence();
        }
        let old = self.b().atomic_cas(p, c, v);
        if after {
            self.b().fence();
        }
        old
    }

    pub(super) fn work_item(&mut self, q: WorkItemQuery, dim: Value, loc: Loc) -> R<Vec<Value>> {
        match self.func.iconst_value(dim) {
            Some(d @ 0..=2) => Ok(vec![self.b().work_item(q, d as u8)]),
            _ => unsupported(loc, "a work-item query with a non-constant dimension"),
        }
    }

    pub(super) fn builtin(
        &mut self,
        bi: FB,
        args: &[Expr],
        ty: &ft::Type,
        loc: Loc,
    ) -> R<Vec<Value>> {
        let dim_query = match bi {
            FB::WorkitemId(d) => Some((WorkItemQuery::LocalId, d)),
            FB::WorkgroupId(d) => Some((WorkItemQuery::GroupId, d)),
            _ => None,
        };
        if let Some((q, d)) = dim_query {
            return Ok(vec![self.b().work_item(q, d)]);
        }
        if let Some(q) = size_t_query(bi) {
            let d = self.rvalue(&args[0])?[0];
            let v = self.work_item(q, d, loc)?[0];
            // size_t is 64-bit: widen (the cast in `cast` avoids this when narrowed).
            return Ok(vec![self.b().convert(ConvertOp::Zext, v, Type::I64)]);
        }
        if matches!(bi, FB::AtomicCompareExchange | FB::AtomicCmpxchg) {
            return self.compare_exchange(bi, args, loc);
        }
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.rvalue(a)?);
        }
        let s = ty.elem_scalar();
        let float = s.is_some_and(|s| s.is_float());
        let per = |l: &mut Self, op: BinaryOp| -> Vec<Value> {
            (0..vals[0].len())
                .map(|i| l.b().binary(op, vals[0][i], vals[1][i]))
                .collect()
        };
        match bi {
            FB::Fabs => Ok(vals[0]
                .iter()
                .map(|&v| self.b().unary(UnaryOp::Fabs, v))
                .collect()),
            FB::Fmin if float => Ok(per(self, BinaryOp::Fmin)),
            FB::Fmax if float => Ok(per(self, BinaryOp::Fmax)),
            FB::Min | FB::Max if float => Ok(per(
                self,
                if bi == FB::Min {
                    BinaryOp::Fmin
                } else {
                    BinaryOp::Fmax
                },
            )),
            FB::Min | FB::Max if s.is_some_and(|s| super::scalar_type(s) == Type::I32) => {
                let signed = s.is_some_and(|s| s.is_signed());
                let op = match (bi == FB::Min, signed) {
                    (true, true) => BinaryOp::Smin,
                    (true, false) => BinaryOp::Umin,
                    (false, true) => BinaryOp::Smax,
                    (false, false) => BinaryOp::Umax,
                };
                Ok(per(self, op))
            }
            FB::Fma | FB::Mad if float => Ok((0..vals[0].len())
                .map(|i| {
                    self.b()
                        .ternary(TernaryOp::Fma, vals[0][i], vals[1][i], vals[2][i])
                })
                .collect()),
            FB::Sqrt if ir_scalar(ty) == Some(Type::F32) => {
                Ok(vals[0].iter().map(|&v| self.sqrt_f32(v)).collect())
            }
            FB::MbcntLo | FB::MbcntHi | FB::DsBpermute => {
                let ib = match bi {
                    FB::MbcntLo => IrBuiltin::MbcntLo,
                    FB::MbcntHi => IrBuiltin::MbcntHi,
                    _ => IrBuiltin::Bpermute,
                };
                Ok(vec![self.b().call(ib, &[vals[0][0], vals[1][0]])])
            }
            FB::ReadFirstLane => Ok(vec![self.b().call(IrBuiltin::ReadFirstLane, &[vals[0][0]])]),
            FB::ReadLane => Ok(vec![self
                .b()
                .call(IrBuiltin::ReadLane, &[vals[0][0], vals[1][0]])]),
            FB::HwSqrt | FB::HwRsq | FB::Floor if float => {
                let ib = match bi {
                    FB::HwSqrt => IrBuiltin::Sqrt,
                    FB::HwRsq => IrBuiltin::Rsq,
                    _ => IrBuiltin::Floor,
                };
                Ok(vals[0].iter().map(|&v| self.b().call(ib, &[v])).collect())
            }
            FB::Bitreverse | FB::Alignbit | FB::Rotate | FB::RotateRight
                if ir_scalar(ty) == Some(Type::I32) =>
            {
                Ok((0..vals[0].len())
                    .map(|i| {
                        let a: Vec<Value> = vals.iter().map(|v| v[i]).collect();
                        let mut b = self.b();
                        match bi {
                            FB::Bitreverse => b.call(IrBuiltin::Bitreverse, &a),
                            FB::Alignbit => b.call(IrBuiltin::Alignbit, &a),
                            // rotr(x, s) = alignbit(x, x, s); rotl(x, s) = rotr(x, -s mod 32).
                            FB::RotateRight => b.call(IrBuiltin::Alignbit, &[a[0], a[0], a[1]]),
                            _ => {
                                let s = b.unary(UnaryOp::Ineg, a[1]);
                                b.call(IrBuiltin::Alignbit, &[a[0], a[0], s])
                            }
                        }
                    })
                    .collect())
            }
            FB::Popcount | FB::Clz | FB::Ctz | FB::Abs | FB::Mul24 | FB::Mad24 => {
                let arg = args[0].ty.elem_scalar();
                if arg.map(super::scalar_type) != Some(Type::I32) {
                    return unsupported(loc, format!("{bi:?} on types other than int/uint"));
                }
                let signed = arg.is_some_and(|s| s.is_signed());
                let ib = match bi {
                    FB::Popcount => IrBuiltin::Popcount,
                    FB::Clz => IrBuiltin::Clz,
                    FB::Ctz => IrBuiltin::Ctz,
                    // abs of an unsigned value is the value.
                    FB::Abs if !signed => return Ok(vals[0].clone()),
                    FB::Abs => IrBuiltin::Abs,
                    // The IR's 24-bit multiplies are the signed ones.
                    _ if !signed => return unsupported(loc, format!("{bi:?} on uint")),
                    FB::Mul24 => IrBuiltin::Mul24,
                    _ => IrBuiltin::Mad24,
                };
                Ok((0..vals[0].len())
                    .map(|i| {
                        let a: Vec<Value> = vals.iter().map(|v| v[i]).collect();
                        self.b().call(ib, &a)
                    })
                    .collect())
            }
            FB::AtomicRmw(op) => {
                // [ptr, value, order, scope]. The IR atomic has no ordering
                // of its own: fences around it give acquire and release.
                let (before, after) = self.ordering(vals[2][0], loc)?;
                let signed = ty.elem_scalar().is_some_and(|s| s.is_signed());
                if ir_scalar(ty) != Some(Type::I32) {
                    return unsupported(loc, "atomics on types other than int/uint");
                }
                let irop = match (op, signed) {
                    (FAtomic::Add, _) => AtomicOp::Add,
                    (FAtomic::Sub, _) => AtomicOp::Sub,
                    (FAtomic::Xchg, _) => AtomicOp::Xchg,
                    (FAtomic::And, _) => AtomicOp::And,
                    (FAtomic::Or, _) => AtomicOp::Or,
                    (FAtomic::Min, true) => AtomicOp::Smin,
                    (FAtomic::Max, true) => AtomicOp::Smax,
                    (FAtomic::Min, false) => AtomicOp::Umin,
                    (FAtomic::Max, false) => AtomicOp::Umax,
                    (FAtomic::Xor, _) => AtomicOp::Xor,
                };
                if before {
                    self.b().fence();
                }
                let old = self.b().atomic(irop, vals[0][0], vals[1][0]);
                if after {
                    self.b().fence();
                }
                Ok(vec![old])
            }
            FB::AtomicLoad | FB::AtomicStore => {
                // [ptr, order, scope] / [ptr, value, order, scope]: an atomic
                // `or 0` reads, an exchange writes (both never merged, moved
                // or removed, unlike plain loads and stores).
                let store = bi == FB::AtomicStore;
                let order = vals[if store { 2 } else { 1 }][0];
                let (before, after) = self.ordering(order, loc)?;
                let vt = if store { &args[1].ty } else { ty };
                if ir_scalar(vt) != Some(Type::I32) {
                    return unsupported(loc, "atomics on types other than int/uint");
                }
                if before {
                    self.b().fence();
                }
                let r = if store {
                    self.b().atomic(AtomicOp::Xchg, vals[0][0], vals[1][0]);
                    Vec::new()
                } else {
                    let z = self.b().iconst(Type::I32, 0);
                    vec![self.b().atomic(AtomicOp::Or, vals[0][0], z)]
                };
                if after {
                    self.b().fence();
                }
                Ok(r)
            }
            FB::Fence | FB::WorkItemFence | FB::MemFence => {
                self.b().fence();
                Ok(Vec::new())
            }
            FB::Barrier | FB::SBarrier => {
                self.b().barrier();
                Ok(Vec::new())
            }
            _ => unsupported(loc, format!("the built-in {bi:?}")),
        }
    }
}

/// An operand of a recognised `mul_hi`: a 32-bit value, or (`Err`) a
/// 64-bit constant that fits in 32 bits.
pub(super) type MulHiOperand = Result<Value, i64>;

/// `trunc(lshr(imul(ext a, ext b), 32))` to 32 bits, with `a` and `b`
/// extended from 32 bits the same way (OpenCL's `mul_hi` written in C, as
/// the corpus header's `gs_mul_hi`): the high half of the 32-bit product,
/// one `v_mul_hi_u32`/`_i32` instead of 64-bit arithmetic.
pub(super) fn mul_hi_of(
    f: &crate::ir::Function,
    x: Value,
    to: Type,
) -> Option<(IrBuiltin, MulHiOperand, MulHiOperand)> {
    if to != Type::I32 || f.ty(x) != Type::I64 {
        return None;
    }
    // Either shift: the low 32 bits of `p >> 32` are the same.
    let InstKind::Binary {
        op: BinaryOp::Lshr | BinaryOp::Ashr,
        args: [p, s],
    } = f.def_inst(x)?
    else {
        return None;
    };
    if f.iconst_value(*s) != Some(32) {
        return None;
    }
    let InstKind::Binary {
        op: BinaryOp::Imul,
        args: [l, r],
    } = f.def_inst(*p)?
    else {
        return None;
    };
    // An operand is a 32-bit value extended, or a constant (Err) that
    // either extension of 32 bits gives.
    let ext = |v: Value| match f.def_inst(v)? {
        InstKind::Convert { op, arg, .. }
            if matches!(op, ConvertOp::Zext | ConvertOp::Sext) && f.ty(*arg) == Type::I32 =>
        {
            Some((Some(*op), Ok(*arg)))
        }
        InstKind::Iconst { imm, .. } => Some((None, Err(*imm))),
        _ => None,
    };
    let ((ol, a), (or, b)) = (ext(*l)?, ext(*r)?);
    let op = ol.or(or)?;
    let fits = |x: &Result<Value, i64>| match *x {
        Ok(_) => true,
        Err(k) if op == ConvertOp::Zext => u32::try_from(k).is_ok(),
        Err(k) => i32::try_from(k).is_ok(),
    };
    if ol.is_some_and(|o| o != op) || or.is_some_and(|o| o != op) || !fits(&a) || !fits(&b) {
        return None;
    }
    let ol = op;
    let hi = if ol == ConvertOp::Zext {
        IrBuiltin::UmulHi
    } else {
        IrBuiltin::SmulHi
    };
    Some((hi, a, b))
}

pub(super) fn size_t_query(bi: FB) -> Option<WorkItemQuery> {
    Some(match bi {
        FB::GetGlobalId => WorkItemQuery::GlobalId,
        FB::GetLocalId => WorkItemQuery::LocalId,
        FB::GetGroupId => WorkItemQuery::GroupId,
        FB::GetGlobalSize => WorkItemQuery::GlobalSize,
        FB::GetLocalSize | FB::GetEnqueuedLocalSize => WorkItemQuery::LocalSize,
        FB::GetNumGroups => WorkItemQuery::NumGroups,
        _ => return None,
    })
}

/// The IR type of `t`'s element scalar (`int4` → `i32`), if it has one.
fn ir_scalar(t: &ft::Type) -> Option<Type> {
    t.elem_scalar().map(super::scalar_type)
}
