//! Expressions: typing, implicit conversions, lvalues, constant folding
//! for integer constant expressions.

use super::super::ast::{self, ExprKind as A};
use super::super::diag::{err, Loc, Result};
use super::super::lexer::{parse_char_literal, parse_float_literal, parse_int_literal};
use super::super::tast::*;
use super::super::types::{AddrSpace, Scalar, Type};
pub(crate) use super::convert::{const_int, const_int_with, int_const, mask, wrap};
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

impl Sema<'_> {
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
                let (ptr, idx) = match (&base.ty, &idx.ty) {
                    (Type::Pointer(_), t) if t.is_integer() && !t.is_vector() => (base, idx),
                    (t, Type::Pointer(_)) if t.is_integer() && !t.is_vector() => (idx, base),
                    (Type::Vector(s, w), t) if t.is_integer() && !t.is_vector() => {
                        // A constant subscript is the swizzle .sN; a
                        // variable one selects the component per lane.
                        let (s, w) = (*s, *w);
                        let Some(k) = const_int(&idx) else {
                            let cat = base.cat;
                            let idx = self.arith_cast(idx, &Type::INT);
                            return Ok(Expr {
                                kind: ExprKind::VecIndex(Box::new(base), Box::new(idx)),
                                ty: Type::Scalar(s),
                                cat,
                                loc,
                            });
                        };
                        if k < 0 || k >= w as i128 {
                            return err(
                                i.loc,
                                format!(
                                    "vector index {k} is out of range for '{}'",
                                    self.type_name(&base.ty)
                                ),
                            );
                        }
                        let cat = base.cat;
                        return Ok(Expr {
                            kind: ExprKind::Swizzle(Box::new(base), vec![k as u8]),
                            ty: Type::Scalar(s),
                            cat,
                            loc,
                        });
                    }
                    (Type::Array(elem, _), t)
                        if t.is_integer() && !t.is_vector() && !base.is_lvalue() =>
                    {
                        // An array member of a struct value (`f(x).arr[i]`):
                        // no address to decay to; the element is chosen
                        // among the array's values (as a vector's by `v[i]`).
                        let ty = (**elem).clone();
                        let idx = self.arith_cast(idx, &Type::INT);
                        return Ok(Expr {
                            kind: ExprKind::VecIndex(Box::new(base), Box::new(idx)),
                            ty,
                            cat: ValueCat::RValue,
                            loc,
                        });
                    }
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

    pub(super) fn size_const(&self, ty: &Type, loc: Loc) -> Result<Expr> {
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

    pub(super) fn ident(&mut self, s: super::Sym, loc: Loc) -> Result<Expr> {
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

    pub(super) fn number(&self, text: &str, loc: Loc) -> Result<Expr> {
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
                        // `-cl-single-precision-constant`: as if suffixed `f`.
                        _ if self.single_precision_constant => (Type::FLOAT, v as f32 as f64),
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

    pub(super) fn ptr_offset(&mut self, p: Expr, idx: Expr, negate: bool, loc: Loc) -> Expr {
        let mut i = self.arith_cast(idx, &Type::LONG);
        if negate {
            i = rv(ExprKind::Unary(UnaryOp::Neg, Box::new(i)), Type::LONG, loc);
        }
        let ty = p.ty.clone();
        rv(ExprKind::PtrOffset(Box::new(p), Box::new(i)), ty, loc)
    }

    pub(super) fn member(
        &mut self,
        b: &ast::Expr,
        name: super::Sym,
        arrow: bool,
        loc: Loc,
    ) -> Result<Expr> {
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
                let Some(path) = self.records.member_path(*r, &n) else {
                    return err(
                        loc,
                        format!("no member named '{n}' in '{}'", self.type_name(&base.ty)),
                    );
                };
                // Through anonymous members: one Member per level.
                let cat = base.cat;
                let mut e = base;
                for i in path {
                    let Type::Record(r) = e.ty else {
                        unreachable!("member_path walks records")
                    };
                    let ty = self.records.get(r).fields[i as usize].ty.clone();
                    e = Expr {
                        kind: ExprKind::Member(Box::new(e), i),
                        ty,
                        cat,
                        loc,
                    };
                }
                Ok(e)
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
                // `.xyzw` names the first four lanes of an 8- or 16-lane
                // vector too (clang-19 accepts it; the Khronos test
                // `vector_swizzle` uses it); `.rgba` stays OpenCL C 3.0's,
                // for up to four lanes.
                if width > 4 && rgba && !xyzw {
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
