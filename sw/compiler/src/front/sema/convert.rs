//! Conversions (implicit and arithmetic), value categories and integer
//! constant expressions.

use super::expr::{cast, rv, Ctx};
use super::Sema;
use crate::front::ast::{self, BinaryOp};
use crate::front::diag::{err, Loc, Result};
use crate::front::tast::*;
use crate::front::types::{AddrSpace, Pointee, Scalar, Type};

/// All-ones mask of a scalar type's width (the element's for vectors).
pub(crate) fn mask(ty: &Type) -> u64 {
    match ty.elem_scalar().map(Scalar::size).unwrap_or(8) {
        8 => u64::MAX,
        n => (1u64 << (n * 8)) - 1,
    }
}

/// `v` reduced to what `ty` (an integer scalar) can hold, as C's
/// conversion rules say ([`Scalar::wrap`]).
pub(crate) fn wrap(v: i128, ty: &Type) -> i128 {
    ty.elem_scalar().map_or(v as i64 as i128, |s| s.wrap(v))
}

pub(crate) fn int_const(v: i128, ty: Type, loc: Loc) -> Expr {
    let bits = v as u64 & mask(&ty);
    rv(ExprKind::IntConst(bits), ty, loc)
}

/// The value of an integer constant expression (None when not constant).
pub(crate) fn const_int(e: &Expr) -> Option<i128> {
    const_int_with(e, &|_| None)
}

/// [`const_int`] where a variable read has the value `var` gives (clang's
/// folding of `const` variables with constant initializers).
pub(crate) fn const_int_with(e: &Expr, var: &dyn Fn(VarId) -> Option<i128>) -> Option<i128> {
    if !e.ty.is_integer() || e.ty.is_vector() {
        return None;
    }
    let const_int = |x: &Expr| const_int_with(x, var);
    Some(match &e.kind {
        ExprKind::Var(id) => wrap(var(*id)?, &e.ty),
        ExprKind::IntConst(v) => wrap(*v as i128, &e.ty),
        ExprKind::Cast(CastKind::IntToInt | CastKind::ToBool, x) => wrap(const_int(x)?, &e.ty),
        ExprKind::Cast(CastKind::FloatToInt, x) => match x.kind {
            ExprKind::FloatConst(f) if f.is_finite() => wrap(f.trunc() as i128, &e.ty),
            _ => return None,
        },
        ExprKind::Unary(op, x) => {
            let v = const_int(x)?;
            match op {
                UnaryOp::Neg => wrap(-v, &e.ty),
                UnaryOp::BitNot => wrap(!v, &e.ty),
                UnaryOp::LogNot => (v == 0) as i128,
            }
        }
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (const_int(a)?, const_int(b)?);
            let uns = a.ty.elem_scalar().is_some_and(|s| !s.is_signed());
            let (ux, uy) = (x as u64 & mask(&a.ty), y as u64 & mask(&b.ty));
            let r: i128 = match op {
                BinaryOp::Add => x + y,
                BinaryOp::Sub => x - y,
                BinaryOp::Mul => x.wrapping_mul(y),
                BinaryOp::Div | BinaryOp::Rem if y == 0 => return None,
                BinaryOp::Div => {
                    if uns {
                        (ux / uy) as i128
                    } else {
                        x / y
                    }
                }
                BinaryOp::Rem => {
                    if uns {
                        (ux % uy) as i128
                    } else {
                        x % y
                    }
                }
                BinaryOp::Shl => x << (y as u32 % (a.ty.elem_scalar()?.size() * 8)),
                BinaryOp::Shr => {
                    let sh = y as u32 % (a.ty.elem_scalar()?.size() * 8);
                    if uns {
                        (ux >> sh) as i128
                    } else {
                        x >> sh
                    }
                }
                BinaryOp::BitAnd => x & y,
                BinaryOp::BitOr => x | y,
                BinaryOp::BitXor => x ^ y,
                BinaryOp::Lt => (if uns { ux < uy } else { x < y }) as i128,
                BinaryOp::Gt => (if uns { ux > uy } else { x > y }) as i128,
                BinaryOp::Le => (if uns { ux <= uy } else { x <= y }) as i128,
                BinaryOp::Ge => (if uns { ux >= uy } else { x >= y }) as i128,
                BinaryOp::Eq => (x == y) as i128,
                BinaryOp::Ne => (x != y) as i128,
                BinaryOp::LogAnd => (x != 0 && y != 0) as i128,
                BinaryOp::LogOr => (x != 0 || y != 0) as i128,
            };
            wrap(r, &e.ty)
        }
        ExprKind::Cond { cond, then, els } => {
            if const_int(cond)? != 0 {
                const_int(then)?
            } else {
                const_int(els)?
            }
        }
        _ => return None,
    })
}

pub(super) fn is_null_constant(e: &Expr) -> bool {
    e.ty.is_integer() && !e.ty.is_vector() && const_int(e) == Some(0)
}

pub(super) fn promoted_scalar(s: Scalar) -> Scalar {
    match s {
        Scalar::Bool | Scalar::Char | Scalar::UChar | Scalar::Short | Scalar::UShort => Scalar::Int,
        s => s,
    }
}

/// C's usual arithmetic conversions on two (promoted) scalar types.
pub(super) fn common_scalar(a: Scalar, b: Scalar) -> Scalar {
    let (a, b) = (promoted_scalar(a), promoted_scalar(b));
    if a == b {
        return a;
    }
    if a.is_float() || b.is_float() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    if a.is_signed() == b.is_signed() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
    if u.rank() >= s.rank() {
        u
    } else if s.size() > u.size() {
        s
    } else {
        s.to_unsigned()
    }
}

impl Sema<'_> {
    pub(crate) fn mark_taken(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Var(v) => {
                if let Some(f) = self.f.as_mut() {
                    f.vars[v.0 as usize].address_taken = true;
                }
            }
            ExprKind::Member(b, _) | ExprKind::Swizzle(b, _) | ExprKind::VecIndex(b, _) => {
                self.mark_taken(b)
            }
            _ => {}
        }
    }

    /// An expression as a value: arrays decay to a pointer to their first element.
    pub(crate) fn decay(&mut self, e: Expr) -> Expr {
        if let Type::Array(elem, _) = &e.ty {
            if let ValueCat::LValue {
                space,
                konst,
                volatile,
            } = e.cat
            {
                self.mark_taken(&e);
                let ty = Type::Pointer(Box::new(Pointee {
                    ty: (**elem).clone(),
                    space,
                    konst,
                    volatile,
                }));
                return cast(e, CastKind::ArrayToPointer, ty);
            }
        }
        e
    }

    pub(crate) fn rvalue(&mut self, e: &ast::Expr) -> Result<Expr> {
        let x = self.expr(e)?;
        Ok(self.decay(x))
    }

    pub(crate) fn expr_stmt(&mut self, e: &ast::Expr) -> Result<Expr> {
        self.rvalue(e)
    }

    /// Integer promotion (scalars only; vectors keep their type).
    pub(crate) fn promote(&self, e: Expr) -> Expr {
        match e.ty {
            Type::Scalar(s) if promoted_scalar(s) != s => self.arith_cast(e, &Type::INT),
            _ => e,
        }
    }

    /// A scalar or vector value converted to `to` (arithmetic types; a scalar
    /// to a vector is converted to the element type, then splat).
    pub(crate) fn arith_cast(&self, e: Expr, to: &Type) -> Expr {
        if e.ty == *to {
            return e;
        }
        if let (Type::Vector(s, _), false) = (to, e.ty.is_vector()) {
            let elem = self.arith_cast(e, &Type::Scalar(*s));
            return cast(elem, CastKind::Splat, to.clone());
        }
        let (Some(from), Some(dst)) = (e.ty.elem_scalar(), to.elem_scalar()) else {
            return e;
        };
        let kind = match (from.is_float(), dst.is_float()) {
            _ if dst == Scalar::Bool && !e.ty.is_vector() => CastKind::ToBool,
            _ if dst == Scalar::Bool => CastKind::VecToBoolVec,
            _ if from == Scalar::Bool && e.ty.is_vector() => CastKind::BoolVecToVec,
            (false, false) => CastKind::IntToInt,
            (false, true) => CastKind::IntToFloat,
            (true, false) => CastKind::FloatToInt,
            (true, true) => CastKind::FloatToFloat,
        };
        cast(e, kind, to.clone())
    }

    /// A scalar condition (`if`, loops, `!`, `&&`) converted to `bool`.
    pub(crate) fn make_bool(&mut self, e: Expr, loc: Loc) -> Result<Expr> {
        match &e.ty {
            Type::Scalar(Scalar::Bool) => Ok(e),
            Type::Scalar(_) => Ok(self.arith_cast(e, &Type::BOOL)),
            Type::Pointer(_) => Ok(cast(e, CastKind::ToBool, Type::BOOL)),
            t => err(
                loc,
                format!(
                    "statement requires expression of scalar type ('{}' invalid)",
                    self.type_name(t)
                ),
            ),
        }
    }

    pub(crate) fn condition(&mut self, e: &ast::Expr) -> Result<Expr> {
        let v = self.rvalue(e)?;
        self.make_bool(v, e.loc)
    }

    /// Implicit conversion of a value to `to` (assignment, initialization,
    /// argument passing, return).
    pub(crate) fn convert(&mut self, e: Expr, to: &Type, ctx: Ctx) -> Result<Expr> {
        if e.ty == *to {
            return Ok(e);
        }
        let loc = e.loc;
        let (from_s, to_s) = (self.type_name(&e.ty), self.type_name(to));
        let incompatible = |what: &str| -> String {
            match ctx {
                Ctx::Assign => format!("assigning to '{to_s}' from {what} '{from_s}'"),
                Ctx::Init => {
                    format!("initializing '{to_s}' with an expression of {what} '{from_s}'")
                }
                Ctx::Pass => format!("passing '{from_s}' to parameter of {what} '{to_s}'"),
                Ctx::Return => {
                    format!("returning '{from_s}' from a function with {what} result type '{to_s}'")
                }
            }
        };
        match (&e.ty, to) {
            (Type::Scalar(_), Type::Scalar(_)) => Ok(self.arith_cast(e, to)),
            (Type::Scalar(_), Type::Vector(..)) => Ok(self.arith_cast(e, to)),
            (Type::Vector(a, n), Type::Vector(Scalar::Bool, m)) if n == m && *a != Scalar::Bool => Ok(cast(e, CastKind::VecToBoolVec, to.clone())),
            (Type::Vector(..), Type::Vector(..)) => err(loc, format!("implicit conversion between vector types ('{from_s}' and '{to_s}') is not allowed; use convert_{to_s}()")),
            (Type::Scalar(_), Type::Pointer(_)) if is_null_constant(&e) => Ok(cast(e, CastKind::IntToPtr, to.clone())),
            (Type::Pointer(_), Type::Scalar(Scalar::Bool)) => Ok(cast(e, CastKind::ToBool, Type::BOOL)),
            (Type::Pointer(p), Type::Pointer(q)) => {
                if p.space != q.space && !(q.space == AddrSpace::Generic && p.space != AddrSpace::Constant) {
                    let verb = match ctx {
                        Ctx::Assign => "assigning",
                        Ctx::Init => "initializing",
                        Ctx::Pass => "passing",
                        Ctx::Return => "returning",
                    };
                    return err(loc, format!("{verb} '{from_s}' to '{to_s}' changes address space of pointer"));
                }
                // Same pointee, void, atomic T ↔ T, or integers differing only
                // in signedness (clang only warns: -Wpointer-sign).
                let sign_only = |a: &Type, b: &Type| match (a.elem_scalar(), b.elem_scalar()) {
                    (Some(x), Some(y)) => a.width() == b.width() && x.is_integer() && y.is_integer() && x != Scalar::Bool && y != Scalar::Bool && x.to_unsigned() == y.to_unsigned(),
                    _ => false,
                };
                let compatible = p.ty == q.ty
                    || p.ty == Type::Void
                    || q.ty == Type::Void
                    || sign_only(&p.ty, &q.ty)
                    || matches!((&p.ty, &q.ty), (Type::Atomic(a), Type::Scalar(b)) | (Type::Scalar(b), Type::Atomic(a)) if a == b);
                if !compatible {
                    return err(loc, incompatible("incompatible type"));
                }
                Ok(cast(e, CastKind::PtrToPtr, to.clone()))
            }
            (Type::Scalar(s), Type::Pointer(_)) if s.is_integer() => err(loc, format!("incompatible integer to pointer conversion {}", incompatible("type"))),
            (Type::Pointer(_), Type::Scalar(s)) if s.is_integer() => err(loc, format!("incompatible pointer to integer conversion {}", incompatible("type"))),
            _ => err(loc, incompatible("incompatible type")),
        }
    }

    /// The type both operands of an arithmetic operator are converted to.
    pub(super) fn common_type(&self, a: &Type, b: &Type, op: &str, loc: Loc) -> Result<Type> {
        let bad = || {
            err(
                loc,
                format!(
                    "invalid operands to binary expression ('{}' and '{}')",
                    self.type_name(a),
                    self.type_name(b)
                ),
            )
        };
        match (a, b) {
            (Type::Scalar(x), Type::Scalar(y)) => Ok(Type::Scalar(common_scalar(*x, *y))),
            (Type::Vector(x, n), Type::Vector(y, m)) => {
                if n != m {
                    return err(loc, format!("cannot convert between vector values of different size ('{}' and '{}')", self.type_name(a), self.type_name(b)));
                }
                if x != y {
                    return bad();
                }
                Ok(a.clone())
            }
            (Type::Vector(v, _), Type::Scalar(s)) | (Type::Scalar(s), Type::Vector(v, _)) => {
                if s.is_float() && !v.is_float() {
                    let _ = op;
                    return err(
                        loc,
                        format!(
                            "cannot convert between scalar type '{}' and vector type '{}'",
                            s.name(),
                            self.type_name(if a.is_vector() { a } else { b })
                        ),
                    );
                }
                Ok(if a.is_vector() { a.clone() } else { b.clone() })
            }
            _ => bad(),
        }
    }

    pub(super) fn cmp_result(&self, t: &Type) -> Type {
        match t {
            Type::Vector(s, n) => Type::Vector(s.same_size_signed_int(), *n),
            _ => Type::INT,
        }
    }

    pub(crate) fn lvalue_check(&self, e: &Expr, what: &str) -> Result<()> {
        match e.cat {
            ValueCat::RValue => err(e.loc, format!("expression is not assignable{what}")),
            ValueCat::LValue { konst, space, .. } => {
                if matches!(e.ty, Type::Array(..)) {
                    return err(
                        e.loc,
                        format!("array type '{}' is not assignable", self.type_name(&e.ty)),
                    );
                }
                if konst || space == AddrSpace::Constant {
                    let name = match &e.kind {
                        ExprKind::Var(v) => {
                            self.f.as_ref().map(|f| f.vars[v.0 as usize].name.clone())
                        }
                        ExprKind::Global(g) => Some(self.globals[g.0 as usize].name.clone()),
                        _ => None,
                    };
                    return err(
                        e.loc,
                        match name {
                            Some(n) => {
                                format!("cannot assign to variable '{n}' with const-qualified type")
                            }
                            None => "read-only variable is not assignable".to_string(),
                        },
                    );
                }
                if let ExprKind::Swizzle(_, lanes) = &e.kind {
                    let mut seen = 0u32;
                    for l in lanes {
                        if seen >> l & 1 == 1 {
                            return err(
                                e.loc,
                                "vector is not assignable (contains duplicate components)",
                            );
                        }
                        seen |= 1 << l;
                    }
                }
                Ok(())
            }
        }
    }
}
