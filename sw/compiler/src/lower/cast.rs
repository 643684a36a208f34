//! Casts and conversions between scalar and vector types: OpenCL's
//! implicit conversions, explicit casts and `convert_T[_sat][_rte…]`
//! component by component.

use super::builtins::mul_hi_of;
use super::{unsupported, Lowerer, Place, R};
use crate::front::diag::Loc;
use crate::front::tast::{CastKind, Expr, ExprKind};
use crate::front::types as ft;
use crate::ir::{ConvertOp, FloatCC, IntCC, Type, Value};

impl Lowerer<'_> {
    pub(super) fn cast(
        &mut self,
        kind: CastKind,
        a: &Expr,
        to: &ft::Type,
        loc: Loc,
    ) -> R<Vec<Value>> {
        // A size_t work-item query narrowed to 32 bits: the query is 32-bit already.
        if let (CastKind::IntToInt, ExprKind::Builtin(bi, args)) = (kind, &a.kind) {
            if to.elem_scalar().is_some_and(|s| s.size() == 4) {
                if let Some(v) = self.work_item_query(*bi, args, false, loc)? {
                    return Ok(vec![v]);
                }
            }
        }
        if let (CastKind::ArrayToPointer, ExprKind::Deref(p)) = (kind, &a.kind) {
            // An array element of an array (`As[i][j]`): same address.
            return self.rvalue(p);
        }
        if let (CastKind::ArrayToPointer, ExprKind::Var(id)) = (kind, &a.kind) {
            // A `__local` array decays to its LDS address.
            if let Some(&lv) = self.locals.get(&self.key(*id)) {
                return Ok(vec![self.b().local_addr(lv)]);
            }
            // A private array decays to its address in the private segment.
            if let Some(&off) = self.privates.get(&self.key(*id)) {
                return Ok(vec![self.b().private_addr(off)]);
            }
        }
        if kind == CastKind::ArrayToPointer
            && matches!(a.kind, ExprKind::Global(_) | ExprKind::Member(..))
        {
            // A program-scope array, or an array member of a struct in
            // memory, decays to its address.
            if let Place::Mem(p, _) = self.place(a)? {
                return Ok(vec![p]);
            }
        }
        if matches!(
            kind,
            CastKind::ToBool | CastKind::MaskFromMsb | CastKind::VecToBoolVec
        ) {
            if let Some(c) = self.compare_as_bool(a)? {
                return Ok(c);
            }
        }
        let v = self.rvalue(a)?;
        match kind {
            CastKind::IntToInt
            | CastKind::IntToFloat
            | CastKind::FloatToInt
            | CastKind::FloatToFloat => self.convert(&v, &a.ty, to, loc),
            CastKind::ToBool | CastKind::VecToBoolVec => {
                let mut out = Vec::new();
                for x in v {
                    let t = self.func.ty(x);
                    let mut b = self.b();
                    out.push(match t {
                        Type::I1 => x,
                        Type::F32 | Type::F64 => {
                            let z = b.fconst(t, 0.0);
                            b.fcmp(FloatCC::Une, x, z)
                        }
                        t if t.is_int() => b.truth(x),
                        t if t.is_ptr() => {
                            let n = b.iconst(Type::int_of_bits(t.bits()), 0);
                            let n = b.convert(ConvertOp::Bitcast, n, t);
                            b.icmp(IntCC::Ne, x, n)
                        }
                        _ => return unsupported(loc, "this conversion to bool"),
                    });
                }
                Ok(out)
            }
            CastKind::BoolVecToVec => {
                let mut out = Vec::new();
                for x in v {
                    out.extend(self.bool_to_value(x, to, loc)?);
                }
                Ok(out)
            }
            CastKind::MaskFromMsb => {
                let mut out = Vec::new();
                for x in v {
                    let t = self.func.ty(x);
                    let mut b = self.b();
                    let z = b.iconst(t, 0);
                    out.push(b.icmp(IntCC::Slt, x, z));
                }
                Ok(out)
            }
            CastKind::Splat => Ok(vec![v[0]; to.width() as usize]),
            CastKind::Bitcast => {
                let t = self.ir_type(to, loc)?;
                let n_to = to.width().max(1) as usize;
                let three = |ty: &ft::Type| matches!(ty, ft::Type::Vector(_, 3));
                if v.len() != n_to && !three(to) && !three(&a.ty) {
                    return self.regroup_bits(&v, t, n_to, loc);
                }
                let mut out = Vec::new();
                for x in v {
                    if self.func.ty(x).bits() != t.bits() {
                        return unsupported(loc, "as_T between different element sizes");
                    }
                    // `as_uchar4(char4)`: the same IR type, nothing to do.
                    out.push(if self.func.ty(x) == t {
                        x
                    } else {
                        self.b().convert(ConvertOp::Bitcast, x, t)
                    });
                }
                Ok(out)
            }
            CastKind::PtrToPtr => {
                // To a generic pointer: the IR keeps the concrete space the
                // value has (after inlining it is always known).
                if matches!(to, ft::Type::Pointer(p) if p.space == ft::AddrSpace::Generic) {
                    return Ok(v);
                }
                let t = self.ir_type(to, loc)?;
                if self.func.ty(v[0]) != t {
                    return unsupported(loc, "a cast between address spaces");
                }
                Ok(v)
            }
            CastKind::ToVoid => Ok(Vec::new()),
            CastKind::ArrayToPointer => unsupported(loc, "arrays in private memory"),
            CastKind::PtrToInt | CastKind::IntToPtr => {
                // The bits, widened or narrowed through an integer of the
                // pointer's width (0 becomes the null pointer).
                let t = self.ir_type(to, loc)?;
                let x = v[0];
                let from = self.func.ty(x);
                let (int_from, int_to) =
                    (Type::int_of_bits(from.bits()), Type::int_of_bits(t.bits()));
                let mut b = self.b();
                let x = if from.is_ptr() {
                    b.convert(ConvertOp::Bitcast, x, int_from)
                } else {
                    x
                };
                let x = match int_to.bits().cmp(&int_from.bits()) {
                    std::cmp::Ordering::Greater => b.convert(ConvertOp::Zext, x, int_to),
                    std::cmp::Ordering::Less => b.convert(ConvertOp::Trunc, x, int_to),
                    std::cmp::Ordering::Equal => x,
                };
                Ok(vec![if t.is_ptr() {
                    b.convert(ConvertOp::Bitcast, x, t)
                } else {
                    x
                }])
            }
        }
    }

    /// Numeric conversion of every component from `from` to `to`.
    pub(super) fn convert(
        &mut self,
        v: &[Value],
        from: &ft::Type,
        to: &ft::Type,
        loc: Loc,
    ) -> R<Vec<Value>> {
        let (Some(fs), Some(ts)) = (from.elem_scalar(), to.elem_scalar()) else {
            return unsupported(loc, "this conversion");
        };
        let (ft_, tt) = (super::scalar_type(fs), super::scalar_type(ts));
        let mut out = Vec::new();
        for &x in v {
            let mul_hi = mul_hi_of(&self.func, x, tt);
            let constant = self
                .func
                .iconst_value(x)
                .filter(|_| ft_ != Type::I1 && tt != Type::I1);
            let mut b = self.b();
            let r = if ft_ == tt {
                x
            } else if fs.is_integer() && ts.is_integer() {
                // Constants convert here, so `x >> 32` on a 64-bit `x` still
                // sees a constant shift (the usual conversions widen the 32).
                if let Some(c) = constant {
                    let bits = ft_.bits();
                    let c = if fs.is_signed() || bits >= 64 {
                        c
                    } else {
                        c & ((1i64 << bits) - 1)
                    };
                    let tb = tt.bits();
                    let c = if tb >= 64 {
                        c
                    } else {
                        (c << (64 - tb)) >> (64 - tb)
                    };
                    out.push(b.iconst(tt, c));
                    continue;
                }
                if ft_ == Type::I1 {
                    let (o, z) = (b.iconst(tt, 1), b.iconst(tt, 0));
                    b.select(x, o, z)
                } else if tt == Type::I1 {
                    b.truth(x)
                } else if tt == Type::I64 && ft_.bits() < 32 {
                    // `(long)c`: through 32 bits (the back end extends to
                    // 64 bits from 32 only).
                    let op = if fs.is_signed() {
                        ConvertOp::Sext
                    } else {
                        ConvertOp::Zext
                    };
                    let w = b.convert(op, x, Type::I32);
                    b.convert(op, w, tt)
                } else if ft_ == Type::I64 && tt.bits() < 32 && mul_hi.is_none() {
                    let w = b.convert(ConvertOp::Trunc, x, Type::I32);
                    b.convert(ConvertOp::Trunc, w, tt)
                } else if tt.bits() > ft_.bits() {
                    let op = if fs.is_signed() {
                        ConvertOp::Sext
                    } else {
                        ConvertOp::Zext
                    };
                    b.convert(op, x, tt)
                } else if let Some((hi, a, c)) = mul_hi {
                    let mut operand = |x: Result<Value, i64>| match x {
                        Ok(v) => v,
                        Err(k) => b.iconst(Type::I32, i64::from(k as i32)),
                    };
                    let (a, c) = (operand(a), operand(c));
                    b.call(hi, &[a, c])
                } else {
                    b.convert(ConvertOp::Trunc, x, tt)
                }
            } else if fs.is_float() || ts.is_float() {
                self.float_convert(x, fs, ts, loc)?
            } else {
                return unsupported(
                    loc,
                    format!("conversion from {} to {}", fs.name(), ts.name()),
                );
            };
            out.push(r);
        }
        Ok(out)
    }
}
