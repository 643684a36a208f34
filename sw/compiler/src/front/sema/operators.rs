//! Operators: unary, binary, assignment and the conditional expression.

use super::convert::is_null_constant;
use super::expr::{cast, rv, Ctx};
use super::Sema;
use crate::front::ast::{self, BinaryOp, UnaryOp as AU};
use crate::front::diag::{err, Loc, Result};
use crate::front::tast::*;
use crate::front::types::{AddrSpace, Pointee, Scalar, Type};

impl Sema<'_> {
    pub(super) fn unary(&mut self, op: AU, x: &ast::Expr, loc: Loc) -> Result<Expr> {
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
                if let ExprKind::Swizzle(..) | ExprKind::VecIndex(..) = v.kind {
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

    pub(super) fn binary(
        &mut self,
        op: BinaryOp,
        a: &ast::Expr,
        b: &ast::Expr,
        loc: Loc,
    ) -> Result<Expr> {
        let a = self.rvalue(a)?;
        let b = self.rvalue(b)?;
        self.binary_values(op, a, b, loc)
    }

    pub(super) fn assign(
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
        // (An integer lhs with a pointer rhs would type as pointer arithmetic:
        // that has no compound form.)
        let (lty, rty) = (self.type_name(&lhs.ty), self.type_name(&rhs.ty));
        let stand_in = rv(ExprKind::IntConst(0), lhs.ty.clone(), lhs.loc);
        let typed = self.binary_values(op, stand_in, rhs, loc)?;
        let ExprKind::Binary(_, l, r) = typed.kind else {
            return err(
                loc,
                format!("invalid operands to binary expression ('{lty}' and '{rty}')"),
            );
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

    pub(super) fn conditional(
        &mut self,
        c: &ast::Expr,
        a: &ast::Expr,
        b: &ast::Expr,
        loc: Loc,
    ) -> Result<Expr> {
        let cond = self.rvalue(c)?;
        let then = self.rvalue(a)?;
        let els = self.rvalue(b)?;
        if cond.ty.is_scalar() && cond.ty.elem_scalar().is_some_and(|s| s.is_float()) {
            // OpenCL C 6.3.i: the condition of `?:` is an integer (clang
            // refuses a float one with this message; `if (x)` is fine).
            return err(
                loc,
                format!(
                    "used type '{}' where floating point type is not allowed",
                    self.type_name(&cond.ty)
                ),
            );
        }
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
}
