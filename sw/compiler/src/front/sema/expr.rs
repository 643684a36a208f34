//! Expressions: typing, implicit conversions, lvalues, constant folding
//! for integer constant expressions.

use super::super::ast::{self, BinaryOp, ExprKind as A, UnaryOp as AU};
use super::super::diag::{err, Loc, Result};
use super::super::lexer::{parse_char_literal, parse_float_literal, parse_int_literal};
use super::super::tast::*;
use super::super::types::{AddrSpace, Pointee, Scalar, Type};
use super::{Name, Sema};

/// Where an implicit conversion happens (it picks the message wording).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ctx {
    Assign,
    Init,
    Pass,
    Return,
}

pub(crate) fn rv(kind: ExprKind, ty: Type, loc: Loc) -> Expr {
    Expr {
        kind,
        ty,
        cat: ValueCat::RValue,
        loc,
    }
}

pub(crate) fn cast(e: Expr, kind: CastKind, ty: Type) -> Expr {
    let loc = e.loc;
    rv(ExprKind::Cast(kind, Box::new(e)), ty, loc)
}

/// All-ones mask of a scalar type's width (the element's for vectors).
pub(crate) fn mask(ty: &Type) -> u64 {
    match ty.elem_scalar().map(Scalar::size).unwrap_or(8) {
        8 => u64::MAX,
        n => (1u64 << (n * 8)) - 1,
    }
}

/// `v` reduced to what `ty` (an integer scalar) can hold, as C's
/// conversion rules say (wrap, then sign-extend signed types).
pub(crate) fn wrap(v: i128, ty: &Type) -> i128 {
    let Some(s) = ty.elem_scalar() else {
        return v as i64 as i128;
    };
    if s == Scalar::Bool {
        return (v != 0) as i128;
    }
    let bits = s.size() * 8;
    let m = v as u64 & mask(ty);
    if s.is_signed() && bits < 64 && m >> (bits - 1) & 1 == 1 {
        (m as i128) - (1i128 << bits)
    } else if s.is_signed() && bits == 64 {
        m as i64 as i128
    } else {
        m as i128
    }
}

pub(crate) fn int_const(v: i128, ty: Type, loc: Loc) -> Expr {
    let bits = v as u64 & mask(&ty);
    rv(ExprKind::IntConst(bits), ty, loc)
}

/// The value of an integer constant expression (None when not constant).
pub(crate) fn const_int(e: &Expr) -> Option<i128> {
    if !e.ty.is_integer() || e.ty.is_vector() {
        return None;
    }
    Some(match &e.kind {
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

fn is_null_constant(e: &Expr) -> bool {
    e.ty.is_integer() && !e.ty.is_vector() && const_int(e) == Some(0)
}

fn promoted_scalar(s: Scalar) -> Scalar {
    match s {
        Scalar::Bool | Scalar::Char | Scalar::UChar | Scalar::Short | Scalar::UShort => Scalar::Int,
        s => s,
    }
}

/// C's usual arithmetic conversions on two (promoted) scalar types.
fn common_scalar(a: Scalar, b: Scalar) -> Scalar {
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
            ExprKind::Member(b, _) | ExprKind::Swizzle(b, _) => self.mark_taken(b),
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
                let compatible = p.ty == q.ty || p.ty == Type::Void || q.ty == Type::Void || matches!((&p.ty, &q.ty), (Type::Atomic(a), Type::Scalar(b)) | (Type::Scalar(b), Type::Atomic(a)) if a == b);
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
    fn common_type(&self, a: &Type, b: &Type, op: &str, loc: Loc) -> Result<Type> {
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

    fn cmp_result(&self, t: &Type) -> Type {
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

    pub(crate) fn expr(&mut self, e: &ast::Expr) -> Result<Expr> {
        let loc = e.loc;
        match &e.kind {
            A::Ident(s) => self.ident(*s, loc),
            A::Number(s) => self.number(self.int.get(*s), loc),
            A::Char(s) => match parse_char_literal(self.int.get(*s)) {
                Some(v) => Ok(int_const(v as i128, Type::INT, loc)),
                None => err(loc, "invalid or multi-character character constant"),
            },
            A::Str(_) => err(
                loc,
                "string literals are only supported as the scope operand of __builtin_amdgcn_fence",
            ),
            A::Unary(op, x) => self.unary(*op, x, loc),
            A::Binary(op, a, b) => self.binary(*op, a, b, loc),
            A::Assign(op, a, b) => self.assign(*op, a, b, loc),
            A::Cond(c, a, b) => self.conditional(c, a, b, loc),
            A::Call(f, args) => self.call(f, args, loc),
            A::Index(a, i) => {
                let base = self.rvalue(a)?;
                let idx = self.rvalue(i)?;
                let (ptr, idx) =
                    match (&base.ty, &idx.ty) {
                        (Type::Pointer(_), t) if t.is_integer() && !t.is_vector() => (base, idx),
                        (t, Type::Pointer(_)) if t.is_integer() && !t.is_vector() => (idx, base),
                        (Type::Vector(..), _) => return err(
                            loc,
                            "subscripting a vector is not supported; use a swizzle (.s0 ... .sF)",
                        ),
                        _ => {
                            return err(
                                loc,
                                format!(
                                    "subscripted value is not an array or pointer ('{}')",
                                    self.type_name(&base.ty)
                                ),
                            )
                        }
                    };
                let p = ptr.ty.pointee().expect("pointer").clone();
                if p.ty == Type::Void {
                    return err(loc, "subscript of pointer to incomplete type 'void'");
                }
                let off = self.ptr_offset(ptr, idx, false, loc);
                Ok(self.deref(off, loc))
            }
            A::Member(b, name, arrow) => self.member(b, *name, *arrow, loc),
            A::Cast(t, x) => {
                let q = self.resolve(t)?;
                let v = self.rvalue(x)?;
                self.explicit_cast(v, &q.ty, loc)
            }
            A::VectorLiteral(t, elems) => {
                let q = self.resolve(t)?;
                if !q.ty.is_vector() {
                    // (T)(a, b) with a scalar T is a cast of a comma expression.
                    let mut it = elems.iter();
                    let mut v = self.rvalue(it.next().expect("two or more"))?;
                    for x in it {
                        let r = self.rvalue(x)?;
                        let ty = r.ty.clone();
                        v = rv(ExprKind::Comma(Box::new(v), Box::new(r)), ty, loc);
                    }
                    return self.explicit_cast(v, &q.ty, loc);
                }
                let mut vals = Vec::new();
                for x in elems {
                    vals.push(self.rvalue(x)?);
                }
                self.vector_literal(q.ty, vals, loc, false)
            }
            A::SizeofType(t) => {
                let q = self.resolve(t)?;
                self.size_const(&q.ty, loc)
            }
            A::SizeofExpr(x) => {
                let v = self.expr(x)?;
                self.size_const(&v.ty, loc)
            }
            A::AlignofType(t) => {
                let q = self.resolve(t)?;
                Ok(int_const(
                    self.records.align_of(&q.ty) as i128,
                    Type::ULONG,
                    loc,
                ))
            }
            A::VecStepType(t) => {
                let q = self.resolve(t)?;
                let n = match q.ty {
                    Type::Vector(_, 3) => 4,
                    Type::Vector(_, n) => n as i128,
                    Type::Scalar(_) => 1,
                    _ => return err(loc, "vec_step requires a scalar or vector type"),
                };
                Ok(int_const(n, Type::INT, loc))
            }
            A::Comma(a, b) => {
                let a = self.rvalue(a)?;
                let b = self.rvalue(b)?;
                let ty = b.ty.clone();
                Ok(rv(ExprKind::Comma(Box::new(a), Box::new(b)), ty, loc))
            }
            A::InitList(_) => err(loc, "initializer lists are only allowed in declarations"),
        }
    }

    fn size_const(&self, ty: &Type, loc: Loc) -> Result<Expr> {
        match ty {
            Type::Void => err(
                loc,
                "invalid application of 'sizeof' to an incomplete type 'void'",
            ),
            Type::Record(r) if !self.records.get(*r).complete => err(
                loc,
                format!(
                    "invalid application of 'sizeof' to an incomplete type '{}'",
                    self.type_name(ty)
                ),
            ),
            _ => Ok(int_const(
                self.records.size_of(ty) as i128,
                Type::ULONG,
                loc,
            )),
        }
    }

    fn ident(&mut self, s: super::Sym, loc: Loc) -> Result<Expr> {
        match self.lookup(s).cloned() {
            Some(Name::Var(v)) => {
                let var = &self.f.as_ref().expect("function").vars[v.0 as usize];
                Ok(Expr { kind: ExprKind::Var(v), ty: var.ty.clone(), cat: ValueCat::LValue { space: var.space, konst: var.konst, volatile: var.volatile }, loc })
            }
            Some(Name::Global(g)) => {
                let gl = &self.globals[g.0 as usize];
                Ok(Expr { kind: ExprKind::Global(g), ty: gl.ty.clone(), cat: ValueCat::LValue { space: gl.space, konst: gl.konst, volatile: false }, loc })
            }
            Some(Name::EnumConst(v)) => Ok(int_const(v as i128, Type::INT, loc)),
            Some(Name::Typedef(_)) => err(loc, format!("unexpected type name '{}': expected expression", self.name(s))),
            Some(Name::Func(_)) => err(loc, format!("function '{}' can only be called (function pointers are not supported in OpenCL)", self.name(s))),
            None => match self.name(s) {
                "true" => Ok(int_const(1, Type::INT, loc)),
                "false" => Ok(int_const(0, Type::INT, loc)),
                n => err(loc, format!("use of undeclared identifier '{n}'")),
            },
        }
    }

    fn number(&self, text: &str, loc: Loc) -> Result<Expr> {
        match parse_int_literal(text) {
            Ok(Some(l)) => {
                let v = l.value;
                let fits_i32 = v <= i32::MAX as u64;
                let fits_u32 = v <= u32::MAX as u64;
                let fits_i64 = v <= i64::MAX as u64;
                let s = match (l.unsigned, l.long) {
                    (false, false) if fits_i32 => Scalar::Int,
                    (false, false) if !l.decimal && fits_u32 => Scalar::UInt,
                    (false, _) if fits_i64 => Scalar::Long,
                    (false, _) if !l.decimal => Scalar::ULong,
                    (true, false) if fits_u32 => Scalar::UInt,
                    (true, _) => Scalar::ULong,
                    _ => return err(
                        loc,
                        "integer literal is too large to be represented in a signed integer type",
                    ),
                };
                Ok(int_const(v as i128, Type::Scalar(s), loc))
            }
            Ok(None) => match parse_float_literal(text) {
                Ok((v, k)) => {
                    let (ty, v) = match k {
                        'f' => (Type::FLOAT, v as f32 as f64),
                        'h' => (Type::Scalar(Scalar::Half), v),
                        _ => (Type::Scalar(Scalar::Double), v),
                    };
                    Ok(rv(ExprKind::FloatConst(v), ty, loc))
                }
                Err(m) => err(loc, m),
            },
            Err(m) => err(loc, m),
        }
    }

    pub(crate) fn deref(&mut self, p: Expr, loc: Loc) -> Expr {
        let pt = p.ty.pointee().expect("pointer").clone();
        Expr {
            ty: pt.ty.clone(),
            kind: ExprKind::Deref(Box::new(p)),
            cat: ValueCat::LValue {
                space: pt.space,
                konst: pt.konst,
                volatile: pt.volatile,
            },
            loc,
        }
    }

    fn ptr_offset(&mut self, p: Expr, idx: Expr, negate: bool, loc: Loc) -> Expr {
        let mut i = self.arith_cast(idx, &Type::LONG);
        if negate {
            i = rv(ExprKind::Unary(UnaryOp::Neg, Box::new(i)), Type::LONG, loc);
        }
        let ty = p.ty.clone();
        rv(ExprKind::PtrOffset(Box::new(p), Box::new(i)), ty, loc)
    }

    fn unary(&mut self, op: AU, x: &ast::Expr, loc: Loc) -> Result<Expr> {
        match op {
            AU::AddrOf => {
                let v = self.expr(x)?;
                let ValueCat::LValue {
                    space,
                    konst,
                    volatile,
                } = v.cat
                else {
                    return err(loc, "cannot take the address of an rvalue");
                };
                if let ExprKind::Swizzle(..) = v.kind {
                    return err(loc, "address of vector element requested");
                }
                self.mark_taken(&v);
                let ty = Type::Pointer(Box::new(Pointee {
                    ty: v.ty.clone(),
                    space,
                    konst,
                    volatile,
                }));
                Ok(rv(ExprKind::AddrOf(Box::new(v)), ty, loc))
            }
            AU::Deref => {
                let v = self.rvalue(x)?;
                match v.ty.pointee() {
                    Some(p) if p.ty == Type::Void => {
                        err(loc, "indirection of a 'void *' pointer is not allowed")
                    }
                    Some(_) => Ok(self.deref(v, loc)),
                    None => err(
                        loc,
                        format!(
                            "indirection requires pointer operand ('{}' invalid)",
                            self.type_name(&v.ty)
                        ),
                    ),
                }
            }
            AU::PreInc | AU::PreDec | AU::PostInc | AU::PostDec => {
                let v = self.expr(x)?;
                let name = if matches!(op, AU::PreInc | AU::PostInc) {
                    "increment"
                } else {
                    "decrement"
                };
                if !(v.ty.is_arith() || v.ty.is_pointer())
                    || v.ty.elem_scalar() == Some(Scalar::Bool)
                {
                    return err(
                        loc,
                        format!("cannot {name} value of type '{}'", self.type_name(&v.ty)),
                    );
                }
                self.lvalue_check(&v, "")?;
                let ty = v.ty.clone();
                Ok(rv(
                    ExprKind::IncDec {
                        inc: matches!(op, AU::PreInc | AU::PostInc),
                        prefix: matches!(op, AU::PreInc | AU::PreDec),
                        operand: Box::new(v),
                    },
                    ty,
                    loc,
                ))
            }
            AU::Plus | AU::Neg | AU::BitNot => {
                let v = self.rvalue(x)?;
                let ok = match op {
                    AU::BitNot => v.ty.is_integer(),
                    _ => {
                        v.ty.is_arith() && v.ty.elem_scalar() != Some(Scalar::Bool)
                            || v.ty == Type::BOOL
                    }
                };
                if !ok {
                    return err(
                        loc,
                        format!(
                            "invalid argument type '{}' to unary expression",
                            self.type_name(&v.ty)
                        ),
                    );
                }
                let v = if v.ty.elem_scalar() == Some(Scalar::Bool) && v.ty.is_vector() {
                    v
                } else {
                    self.promote(v)
                };
                if op == AU::Plus {
                    return Ok(v);
                }
                let ty = v.ty.clone();
                let uop = if op == AU::Neg {
                    UnaryOp::Neg
                } else {
                    UnaryOp::BitNot
                };
                Ok(rv(ExprKind::Unary(uop, Box::new(v)), ty, loc))
            }
            AU::LogNot => {
                let v = self.rvalue(x)?;
                match &v.ty {
                    Type::Vector(Scalar::Bool, _) => {
                        let ty = v.ty.clone();
                        Ok(rv(ExprKind::Unary(UnaryOp::LogNot, Box::new(v)), ty, loc))
                    }
                    Type::Vector(..) => {
                        let ty = self.cmp_result(&v.ty);
                        Ok(rv(ExprKind::Unary(UnaryOp::LogNot, Box::new(v)), ty, loc))
                    }
                    _ => {
                        let b = self
                            .make_bool(v, loc)
                            .map_err(|_| super::super::diag::Error {
                                loc,
                                msg: "invalid argument type to unary expression '!'".into(),
                            })?;
                        Ok(rv(
                            ExprKind::Unary(UnaryOp::LogNot, Box::new(b)),
                            Type::INT,
                            loc,
                        ))
                    }
                }
            }
        }
    }

    /// Types a binary operator on two values (shared with compound assignment).
    pub(crate) fn binary_values(
        &mut self,
        op: BinaryOp,
        a: Expr,
        b: Expr,
        loc: Loc,
    ) -> Result<Expr> {
        let bad = |s: &Self| {
            err(
                loc,
                format!(
                    "invalid operands to binary expression ('{}' and '{}')",
                    s.type_name(&a.ty),
                    s.type_name(&b.ty)
                ),
            )
        };
        use BinaryOp::*;
        match op {
            LogAnd | LogOr => {
                if a.ty.is_vector() || b.ty.is_vector() {
                    return err(loc, format!("vector operands of '{}' are not supported; use '{}' on comparison results", op.text(), if op == LogAnd { "&" } else { "|" }));
                }
                if !a.ty.is_scalar() || !b.ty.is_scalar() {
                    return bad(self);
                }
                let a = self.make_bool(a, loc)?;
                let b = self.make_bool(b, loc)?;
                Ok(rv(
                    ExprKind::Binary(op, Box::new(a), Box::new(b)),
                    Type::INT,
                    loc,
                ))
            }
            Add | Sub if a.ty.is_pointer() || b.ty.is_pointer() => match (&a.ty, &b.ty) {
                (Type::Pointer(p), Type::Pointer(q)) if op == Sub => {
                    if p.ty != q.ty || p.space != q.space {
                        return err(
                            loc,
                            format!(
                                "'{}' and '{}' are not pointers to compatible types",
                                self.type_name(&a.ty),
                                self.type_name(&b.ty)
                            ),
                        );
                    }
                    if p.ty == Type::Void {
                        return err(loc, "arithmetic on pointers to void");
                    }
                    Ok(rv(
                        ExprKind::PtrDiff(Box::new(a), Box::new(b)),
                        Type::LONG,
                        loc,
                    ))
                }
                (Type::Pointer(p), t) if t.is_integer() && !t.is_vector() => {
                    if p.ty == Type::Void {
                        return err(loc, "arithmetic on a pointer to void");
                    }
                    Ok(self.ptr_offset(a, b, op == Sub, loc))
                }
                (t, Type::Pointer(p)) if t.is_integer() && !t.is_vector() && op == Add => {
                    if p.ty == Type::Void {
                        return err(loc, "arithmetic on a pointer to void");
                    }
                    Ok(self.ptr_offset(b, a, false, loc))
                }
                _ => bad(self),
            },
            Lt | Gt | Le | Ge | Eq | Ne if a.ty.is_pointer() || b.ty.is_pointer() => {
                let ok = match (&a.ty, &b.ty) {
                    (Type::Pointer(p), Type::Pointer(q)) => {
                        (p.ty == q.ty || p.ty == Type::Void || q.ty == Type::Void)
                            && (p.space == q.space
                                || p.space == AddrSpace::Generic
                                || q.space == AddrSpace::Generic)
                    }
                    (Type::Pointer(_), _) => is_null_constant(&b),
                    _ => is_null_constant(&a),
                };
                if !ok {
                    return err(
                        loc,
                        format!(
                            "comparison of distinct pointer types ('{}' and '{}')",
                            self.type_name(&a.ty),
                            self.type_name(&b.ty)
                        ),
                    );
                }
                let (a, b) = if !a.ty.is_pointer() {
                    let t = b.ty.clone();
                    (cast(a, CastKind::IntToPtr, t), b)
                } else if !b.ty.is_pointer() {
                    let t = a.ty.clone();
                    (a, cast(b, CastKind::IntToPtr, t))
                } else if a.ty != b.ty {
                    let t = a.ty.clone();
                    (a, cast(b, CastKind::PtrToPtr, t))
                } else {
                    (a, b)
                };
                Ok(rv(
                    ExprKind::Binary(op, Box::new(a), Box::new(b)),
                    Type::INT,
                    loc,
                ))
            }
            Shl | Shr => {
                if !a.ty.is_integer()
                    || !b.ty.is_integer()
                    || a.ty.elem_scalar() == Some(Scalar::Bool) && a.ty.is_vector()
                {
                    return bad(self);
                }
                if !a.ty.is_vector() && b.ty.is_vector() {
                    return err(
                        loc,
                        format!(
                            "a vector shift count requires a vector left operand ('{}' and '{}')",
                            self.type_name(&a.ty),
                            self.type_name(&b.ty)
                        ),
                    );
                }
                if a.ty.is_vector() && b.ty.is_vector() && a.ty.width() != b.ty.width() {
                    return err(loc, format!("cannot convert between vector values of different size ('{}' and '{}')", self.type_name(&a.ty), self.type_name(&b.ty)));
                }
                let a = self.promote(a);
                let ty = a.ty.clone();
                let b = self.arith_cast(b, &ty);
                Ok(rv(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty, loc))
            }
            _ => {
                if !a.ty.is_arith() || !b.ty.is_arith() {
                    return bad(self);
                }
                let boolvec = |t: &Type| t.is_vector() && t.elem_scalar() == Some(Scalar::Bool);
                if boolvec(&a.ty) || boolvec(&b.ty) {
                    // Bool vectors: only & | ^ == != between masks of one width;
                    // an integer vector (a comparison result) becomes a mask (!= 0).
                    let same_width =
                        a.ty.is_vector() && b.ty.is_vector() && a.ty.width() == b.ty.width();
                    if !same_width
                        || !matches!(op, BitAnd | BitOr | BitXor | Eq | Ne)
                        || !a.ty.is_integer()
                        || !b.ty.is_integer()
                    {
                        return bad(self);
                    }
                    let mask = Type::Vector(Scalar::Bool, a.ty.width());
                    let a = self.arith_cast(a, &mask);
                    let b = self.arith_cast(b, &mask);
                    let ty = a.ty.clone();
                    return Ok(rv(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty, loc));
                }
                let ty = self.common_type(&a.ty, &b.ty, op.text(), loc)?;
                if matches!(op, Rem | BitAnd | BitOr | BitXor) && !ty.is_integer() {
                    return bad(self);
                }
                let a = self.arith_cast(a, &ty);
                let b = self.arith_cast(b, &ty);
                let rty = if op.is_comparison() {
                    self.cmp_result(&ty)
                } else {
                    ty
                };
                Ok(rv(ExprKind::Binary(op, Box::new(a), Box::new(b)), rty, loc))
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, a: &ast::Expr, b: &ast::Expr, loc: Loc) -> Result<Expr> {
        let a = self.rvalue(a)?;
        let b = self.rvalue(b)?;
        self.binary_values(op, a, b, loc)
    }

    fn assign(
        &mut self,
        op: Option<BinaryOp>,
        a: &ast::Expr,
        b: &ast::Expr,
        loc: Loc,
    ) -> Result<Expr> {
        let lhs = self.expr(a)?;
        self.lvalue_check(&lhs, "")?;
        if let Type::Record(r) = lhs.ty {
            if op.is_some() {
                return err(
                    loc,
                    format!(
                        "invalid operands to binary expression ('{}' and '{}')",
                        self.type_name(&lhs.ty),
                        self.type_name(&lhs.ty)
                    ),
                );
            }
            let _ = r;
        }
        let rhs = self.rvalue(b)?;
        let ty = lhs.ty.clone();
        let Some(op) = op else {
            let rhs = self.convert(rhs, &ty, Ctx::Assign)?;
            return Ok(rv(ExprKind::Assign(Box::new(lhs), Box::new(rhs)), ty, loc));
        };
        if lhs.ty.is_pointer() {
            if !matches!(op, BinaryOp::Add | BinaryOp::Sub)
                || !rhs.ty.is_integer()
                || rhs.ty.is_vector()
            {
                return err(
                    loc,
                    format!(
                        "invalid operands to binary expression ('{}' and '{}')",
                        self.type_name(&lhs.ty),
                        self.type_name(&rhs.ty)
                    ),
                );
            }
            let rhs = self.arith_cast(rhs, &Type::LONG);
            return Ok(rv(
                ExprKind::CompoundAssign {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                    compute: ty.clone(),
                },
                ty,
                loc,
            ));
        }
        // Type the operation as `lhs op rhs` on a stand-in for the lhs value.
        let stand_in = rv(ExprKind::IntConst(0), lhs.ty.clone(), lhs.loc);
        let typed = self.binary_values(op, stand_in, rhs, loc)?;
        let ExprKind::Binary(_, l, r) = typed.kind else {
            unreachable!("arithmetic op")
        };
        let compute = l.ty.clone();
        if compute.is_vector() && !ty.is_vector() {
            return err(
                loc,
                format!(
                    "assigning to '{}' from incompatible type '{}'",
                    self.type_name(&ty),
                    self.type_name(&compute)
                ),
            );
        }
        Ok(rv(
            ExprKind::CompoundAssign {
                op,
                lhs: Box::new(lhs),
                rhs: r,
                compute,
            },
            ty,
            loc,
        ))
    }

    fn conditional(
        &mut self,
        c: &ast::Expr,
        a: &ast::Expr,
        b: &ast::Expr,
        loc: Loc,
    ) -> Result<Expr> {
        let cond = self.rvalue(c)?;
        let then = self.rvalue(a)?;
        let els = self.rvalue(b)?;
        if let Type::Vector(cs, n) = cond.ty {
            // Component-wise select (OpenCL 6.3.i, seed 004): a bool-vector
            // mask as is, an integer-vector mask by its MSB (what select() and
            // clang do); the arms are vectors of the same width (a scalar arm
            // such as `0` is splat).
            if cs.is_float() {
                return err(
                    c.loc,
                    format!(
                        "vector condition type '{}' must be an integer or bool vector",
                        self.type_name(&cond.ty)
                    ),
                );
            }
            let ty = match (&then.ty, &els.ty) {
                (Type::Vector(..), _) | (_, Type::Vector(..)) => {
                    self.common_type(&then.ty, &els.ty, "?:", loc)?
                }
                _ => {
                    return err(
                        loc,
                        format!(
                            "vector condition type '{}' requires vector operands ('{}' and '{}')",
                            self.type_name(&cond.ty),
                            self.type_name(&then.ty),
                            self.type_name(&els.ty)
                        ),
                    )
                }
            };
            if ty.width() != n {
                return err(loc, format!("vector condition type '{}' and result type '{}' do not have the same number of elements", self.type_name(&cond.ty), self.type_name(&ty)));
            }
            let es = ty.elem_scalar().expect("vector");
            if cs != Scalar::Bool && cs.size() != es.size() {
                return err(loc, format!("vector condition type '{}' and result type '{}' do not have elements of the same size", self.type_name(&cond.ty), self.type_name(&ty)));
            }
            let mask_ty = Type::Vector(Scalar::Bool, n);
            let cond = if cs == Scalar::Bool {
                cond
            } else {
                cast(cond, CastKind::MaskFromMsb, mask_ty)
            };
            let then = self.arith_cast(then, &ty);
            let els = self.arith_cast(els, &ty);
            return Ok(rv(
                ExprKind::Cond {
                    cond: Box::new(cond),
                    then: Box::new(then),
                    els: Box::new(els),
                },
                ty,
                loc,
            ));
        }
        let cond = self.make_bool(cond, c.loc)?;
        let ty = match (&then.ty, &els.ty) {
            (t, u) if t.is_arith() && u.is_arith() => self.common_type(t, u, "?:", loc)?,
            (Type::Void, Type::Void) => Type::Void,
            (Type::Pointer(p), Type::Pointer(q)) => {
                if p.space != q.space {
                    return err(loc, format!("conditional operator with the second and third operands of type ('{}' and '{}') which are pointers to non-overlapping address spaces", self.type_name(&then.ty), self.type_name(&els.ty)));
                }
                if p.ty == q.ty || q.ty == Type::Void {
                    then.ty.clone()
                } else if p.ty == Type::Void {
                    els.ty.clone()
                } else {
                    return err(
                        loc,
                        format!(
                            "pointer type mismatch ('{}' and '{}')",
                            self.type_name(&then.ty),
                            self.type_name(&els.ty)
                        ),
                    );
                }
            }
            (Type::Pointer(_), _) if is_null_constant(&els) => then.ty.clone(),
            (_, Type::Pointer(_)) if is_null_constant(&then) => els.ty.clone(),
            (Type::Record(x), Type::Record(y)) if x == y => then.ty.clone(),
            _ => {
                return err(
                    loc,
                    format!(
                        "incompatible operand types ('{}' and '{}')",
                        self.type_name(&then.ty),
                        self.type_name(&els.ty)
                    ),
                )
            }
        };
        let fix = |s: &Self, e: Expr| -> Expr {
            if e.ty == ty {
                e
            } else if ty.is_pointer() {
                let k = if e.ty.is_pointer() {
                    CastKind::PtrToPtr
                } else {
                    CastKind::IntToPtr
                };
                cast(e, k, ty.clone())
            } else {
                s.arith_cast(e, &ty)
            }
        };
        let then = fix(self, then);
        let els = fix(self, els);
        Ok(rv(
            ExprKind::Cond {
                cond: Box::new(cond),
                then: Box::new(then),
                els: Box::new(els),
            },
            ty,
            loc,
        ))
    }

    fn member(&mut self, b: &ast::Expr, name: super::Sym, arrow: bool, loc: Loc) -> Result<Expr> {
        let base = if arrow {
            let p = self.rvalue(b)?;
            match p.ty.pointee() {
                Some(pt) if matches!(pt.ty, Type::Record(_)) => self.deref(p, loc),
                _ => {
                    return err(
                        loc,
                        format!(
                            "member reference type '{}' is not a pointer to a struct or union",
                            self.type_name(&p.ty)
                        ),
                    )
                }
            }
        } else {
            self.expr(b)?
        };
        let n = self.name(name).to_string();
        match &base.ty {
            Type::Record(r) => {
                let rec = self.records.get(*r);
                if !rec.complete {
                    return err(
                        loc,
                        format!(
                            "incomplete definition of type '{}'",
                            self.type_name(&base.ty)
                        ),
                    );
                }
                let Some((i, f)) = rec.fields.iter().enumerate().find(|(_, f)| f.name == n) else {
                    return err(
                        loc,
                        format!("no member named '{n}' in '{}'", self.type_name(&base.ty)),
                    );
                };
                let ty = f.ty.clone();
                let cat = base.cat;
                Ok(Expr {
                    kind: ExprKind::Member(Box::new(base), i as u32),
                    ty,
                    cat,
                    loc,
                })
            }
            Type::Vector(s, w) if !arrow => {
                let (s, w) = (*s, *w);
                let lanes = swizzle(&n, w).map_err(|m| super::super::diag::Error {
                    loc,
                    msg: m.replace("TYPE", &self.type_name(&base.ty)),
                })?;
                let ty = if lanes.len() == 1 {
                    Type::Scalar(s)
                } else {
                    Type::Vector(s, lanes.len() as u8)
                };
                let cat = base.cat;
                Ok(Expr {
                    kind: ExprKind::Swizzle(Box::new(base), lanes),
                    ty,
                    cat,
                    loc,
                })
            }
            t => err(
                loc,
                format!(
                    "member reference base type '{}' is not a structure or union",
                    self.type_name(t)
                ),
            ),
        }
    }

    /// `(T)e`.
    pub(crate) fn explicit_cast(&mut self, v: Expr, to: &Type, loc: Loc) -> Result<Expr> {
        let mut v = v;
        v.loc = loc;
        if v.ty == *to {
            return Ok(v);
        }
        let bad = |s: &Self, v: &Expr| {
            err(
                loc,
                format!(
                    "invalid conversion from '{}' to '{}'",
                    s.type_name(&v.ty),
                    s.type_name(to)
                ),
            )
        };
        match (&v.ty.clone(), to) {
            (_, Type::Void) => Ok(cast(v, CastKind::ToVoid, Type::Void)),
            (Type::Scalar(_), Type::Scalar(_)) | (Type::Scalar(_), Type::Vector(..)) => Ok(self.arith_cast(v, to)),
            (Type::Vector(a, n), Type::Vector(b, m)) if n == m && (*a == Scalar::Bool) != (*b == Scalar::Bool) => Ok(self.arith_cast(v, to)),
            (Type::Vector(..), Type::Vector(..)) => err(loc, format!("invalid conversion between vector types '{}' and '{}'; use convert_{}() or as_{}()", self.type_name(&v.ty), self.type_name(to), self.type_name(to), self.type_name(to))),
            (Type::Pointer(p), Type::Pointer(q)) => {
                let ok = p.space == q.space || q.space == AddrSpace::Generic && p.space != AddrSpace::Constant || p.space == AddrSpace::Generic && q.space != AddrSpace::Constant;
                if !ok {
                    return err(loc, format!("casting '{}' to type '{}' changes address space of pointer", self.type_name(&v.ty), self.type_name(to)));
                }
                Ok(cast(v, CastKind::PtrToPtr, to.clone()))
            }
            (Type::Pointer(_), Type::Scalar(s)) if s.is_integer() => {
                if *s == Scalar::Bool {
                    Ok(cast(v, CastKind::ToBool, to.clone()))
                } else {
                    Ok(cast(v, CastKind::PtrToInt, to.clone()))
                }
            }
            (Type::Scalar(s), Type::Pointer(_)) if s.is_integer() => Ok(cast(v, CastKind::IntToPtr, to.clone())),
            _ => bad(self, &v),
        }
    }

    /// `(T)(a, b, ...)` or `{a, b, ...}` for a vector T: element scalars are
    /// converted to T's element type; vector elements must have it already.
    pub(crate) fn vector_literal(
        &mut self,
        ty: Type,
        elems: Vec<Expr>,
        loc: Loc,
        braces: bool,
    ) -> Result<Expr> {
        let Type::Vector(s, n) = ty else {
            unreachable!("caller checks")
        };
        let mut total = 0u32;
        let mut out = Vec::with_capacity(elems.len());
        for e in elems {
            match &e.ty {
                Type::Scalar(_) => {
                    total += 1;
                    out.push(self.arith_cast(e, &Type::Scalar(s)));
                }
                Type::Vector(es, m) if *es == s => {
                    total += *m as u32;
                    out.push(e);
                }
                t => {
                    return err(
                        e.loc,
                        format!(
                            "cannot use a value of type '{}' in a '{}' vector literal",
                            self.type_name(t),
                            self.type_name(&ty)
                        ),
                    );
                }
            }
        }
        if braces && total < n as u32 {
            // A short brace list zero-fills, like C aggregates.
            while total < n as u32 {
                out.push(int_const(0, Type::INT, loc));
                let z = out.pop().expect("pushed");
                out.push(self.arith_cast(z, &Type::Scalar(s)));
                total += 1;
            }
        }
        if total != n as u32 {
            let what = if total < n as u32 {
                "too few"
            } else {
                "too many"
            };
            return err(loc, format!("{what} elements in vector initialization (expected {n} elements, have {total})"));
        }
        Ok(rv(ExprKind::VectorLiteral(out), ty, loc))
    }
}

/// The lanes a swizzle name selects from a vector of `width`
/// (`xyzw`, `rgba`, `s0..sF`/`S0..SF`, `lo`, `hi`, `even`, `odd`).
fn swizzle(name: &str, width: u8) -> std::result::Result<Vec<u8>, String> {
    let padded = if width == 3 { 4 } else { width };
    let lanes: Vec<u8> = match name {
        "lo" => (0..padded / 2).collect(),
        "hi" => (padded / 2..padded).collect(),
        "even" => (0..padded).step_by(2).collect(),
        "odd" => (1..padded).step_by(2).collect(),
        _ => {
            if let Some(digits) = name.strip_prefix('s').or_else(|| name.strip_prefix('S')) {
                digits
                    .chars()
                    .map(|c| {
                        c.to_digit(16)
                            .map(|d| d as u8)
                            .ok_or_else(|| format!("illegal vector component name '{name}'"))
                    })
                    .collect::<std::result::Result<Vec<u8>, String>>()?
            } else {
                let xyzw = name.chars().all(|c| "xyzw".contains(c));
                let rgba = name.chars().all(|c| "rgba".contains(c));
                if !xyzw && !rgba {
                    return Err(format!("illegal vector component name '{name}'"));
                }
                if width > 4 {
                    return Err(format!("vector component access has invalid length ('.{name}' on 'TYPE': use .s0 ... .sF)"));
                }
                name.chars()
                    .map(|c| "xyzw".find(c).or_else(|| "rgba".find(c)).expect("checked") as u8)
                    .collect()
            }
        }
    };
    if lanes.is_empty() {
        return Err(format!("illegal vector component name '{name}'"));
    }
    if let Some(l) = lanes
        .iter()
        .find(|&&l| l >= width && !(width == 3 && l == 3 && matches!(name, "hi" | "odd")))
    {
        let _ = l;
        return Err("vector component access exceeds type 'TYPE'".to_string());
    }
    if !matches!(lanes.len(), 1 | 2 | 3 | 4 | 8 | 16) {
        return Err(format!(
            "vector component access has invalid length {}",
            lanes.len()
        ));
    }
    Ok(lanes)
}
