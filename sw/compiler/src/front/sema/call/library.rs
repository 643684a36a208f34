//! Calls of built-ins the device library implements ([`crate::front::library`]):
//! operand checks per the math table or a generic signature, linking the
//! library function into the translation unit, and the choice between a
//! built-in the lowering emits itself and the library's function.

use super::super::super::ast;
use super::super::super::builtins::{Builtin, GenKind, SubGroupKind};
use super::super::super::diag::{err, Loc, Result};
use super::super::super::tast::*;
use super::super::super::types::{AddrSpace, Scalar, Type};
use super::super::expr::rv;
use super::super::Sema;
use crate::front::library::table::{Impl, MathFn, Shape};

/// The library's name suffix of an element type (`_f32`, `_i8`, ...).
fn elem_suffix(s: Scalar) -> Option<&'static str> {
    Some(match s {
        Scalar::Char => "i8",
        Scalar::UChar => "u8",
        Scalar::Short => "i16",
        Scalar::UShort => "u16",
        Scalar::Int => "i32",
        Scalar::UInt => "u32",
        Scalar::Long => "i64",
        Scalar::ULong => "u64",
        Scalar::Half => "f16",
        Scalar::Float => "f32",
        Scalar::Double => "f64",
        _ => return None,
    })
}

impl Sema<'_> {
    /// `name(type, ...)` of a call, for messages.
    pub(super) fn call_text(&self, name: &str, vals: &[Expr]) -> String {
        self.records.call_text(name, vals.iter().map(|v| &v.ty))
    }

    /// Library function `sym` (for the OpenCL built-in `called`, the call
    /// `what`) linked into this translation unit and recorded as called.
    fn link_library(&mut self, called: &str, sym: &str, what: &str, loc: Loc) -> Result<FuncId> {
        if crate::front::library::building() {
            return err(
                loc,
                format!("the device library calls '{called}': call '{sym}' directly"),
            );
        }
        let (lib, id) = match crate::front::library::function(sym) {
            Ok(Some(f)) => f,
            Ok(None) => return err(loc, format!("unsupported: the built-in {what}")),
            Err(e) => return err(loc, e),
        };
        let fid = crate::front::library::link(lib, id, &mut self.functions, loc);
        self.ctx().calls.push((fid, loc));
        Ok(fid)
    }

    /// A call of library function `__gpusim_{stem}_{suffix}` (linked
    /// here) with `ops`; `what` (the OpenCL call, `add_sat(char4, char4)`)
    /// names a missing one. `rel`: a relational function whose vector
    /// forms give -1 for true.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn library_builtin(
        &mut self,
        stem: &str,
        suffix: &str,
        what: &str,
        ops: Vec<Expr>,
        ret: Type,
        rel: bool,
        loc: Loc,
    ) -> Result<Expr> {
        let sym = format!("__gpusim_{stem}_{suffix}");
        let fid = self.link_library(stem, &sym, what, loc)?;
        let b = if rel {
            Builtin::LibRel(fid)
        } else {
            Builtin::Lib(fid)
        };
        Ok(rv(ExprKind::Builtin(b, ops), ret, loc))
    }

    /// A gentype built-in the lowering emits itself for some element types
    /// (32-bit integer `clz`, float `min`): kept as is for those, else the
    /// device library's `__gpusim_{name}_{element}`.
    pub(super) fn native_or_library(&mut self, name: &str, e: Expr) -> Result<Expr> {
        let ExprKind::Builtin(b, ops) = &e.kind else {
            return Ok(e);
        };
        let elem = ops[0].ty.elem_scalar();
        let i32 = matches!(elem, Some(Scalar::Int | Scalar::UInt));
        let f32 = elem == Some(Scalar::Float);
        let f64 = elem == Some(Scalar::Double);
        let f16 = elem == Some(Scalar::Half);
        // `half_*` and `native_*` are defined on `float` alone.
        if (f16 || f64) && (name.starts_with("half_") || name.starts_with("native_")) {
            return self.no_match(name, ops, e.loc);
        }
        let native = match b {
            // `double` and `half` forms of what the lowering does on `float` alone.
            Builtin::Sqrt | Builtin::Floor | Builtin::Ceil | Builtin::Trunc | Builtin::Rint => {
                !(f64 || f16)
            }
            Builtin::Rsqrt | Builtin::Copysign => !(f64 || f16),
            Builtin::Popcount | Builtin::Clz | Builtin::Ctz | Builtin::Abs => i32,
            Builtin::MulHi | Builtin::Rotate => i32,
            Builtin::Mul24 | Builtin::Mad24 => elem == Some(Scalar::Int),
            Builtin::Min | Builtin::Max => i32 || f32 || f64 || f16,
            Builtin::Mix | Builtin::Clamp | Builtin::AddSat | Builtin::SubSat => false,
            Builtin::Hadd | Builtin::AbsDiff => false,
            _ => true,
        };
        if native || name.starts_with("__builtin_") || crate::front::library::building() {
            return Ok(e);
        }
        let Some(suffix) = elem.and_then(elem_suffix) else {
            return Ok(e);
        };
        let what = self.call_text(name, ops);
        let (ops, ty, loc) = match e.kind {
            ExprKind::Builtin(_, ops) => (ops, e.ty, e.loc),
            _ => unreachable!("matched above"),
        };
        self.library_builtin(name, suffix, &what, ops, ty, false, loc)
    }

    /// A [`Sig::Generic`] call: operands of one gentype (scalars splat where
    /// allowed), the per-component library function of its element type.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn generic_call(
        &mut self,
        name: &str,
        stem: &str,
        n: usize,
        splat: u8,
        kind: GenKind,
        args: &[ast::Expr],
        loc: Loc,
    ) -> Result<Expr> {
        self.arity(name, args, n, n, loc)?;
        let vals = args
            .iter()
            .map(|a| self.rvalue(a))
            .collect::<Result<Vec<_>>>()?;
        if vals
            .iter()
            .any(|v| !v.ty.is_arith() || v.ty.elem_scalar() == Some(Scalar::Bool))
        {
            return self.no_match(name, &vals, loc);
        }
        let what = self.call_text(name, &vals);
        if kind == GenKind::Upsample {
            let (hi, lo) = (&vals[0], &vals[1]);
            let s = hi.ty.elem_scalar().expect("arithmetic");
            let wide = match s {
                Scalar::Char => Scalar::Short,
                Scalar::UChar => Scalar::UShort,
                Scalar::Short => Scalar::Int,
                Scalar::UShort => Scalar::UInt,
                Scalar::Int => Scalar::Long,
                Scalar::UInt => Scalar::ULong,
                _ => return self.no_match(name, &vals, loc),
            };
            if lo.ty != hi.ty.with_elem(s.to_unsigned()) {
                return self.no_match(name, &vals, loc);
            }
            let ret = hi.ty.with_elem(wide);
            let suffix = elem_suffix(s).expect("an integer");
            return self.library_builtin(stem, suffix, &what, vals, ret, false, loc);
        }
        let t = self.gentype(&vals);
        let ok = match kind {
            GenKind::Float | GenKind::Rel => t.is_float(),
            GenKind::Int => t.is_integer(),
            _ => true,
        };
        if !ok {
            return self.no_match(name, &vals, loc);
        }
        let mut ops = Vec::with_capacity(n);
        for (i, v) in vals.iter().enumerate() {
            let scalar_ok = !v.ty.is_vector() && (!t.is_vector() || splat & (1 << i) != 0);
            if v.ty != t && !scalar_ok {
                return self.no_match(name, &vals, loc);
            }
            ops.push(self.arith_cast(v.clone(), &t));
        }
        let s = t.elem_scalar().expect("arithmetic");
        let ret = match (kind, t.is_vector()) {
            (GenKind::Rel, true) => t.with_elem(s.same_size_signed_int()),
            (GenKind::Rel, false) => Type::INT,
            _ => t.clone(),
        };
        let Some(suffix) = elem_suffix(s) else {
            return err(loc, format!("unsupported: the built-in {what}"));
        };
        self.library_builtin(stem, suffix, &what, ops, ret, kind == GenKind::Rel, loc)
    }

    /// A math built-in implemented by the device library: checks the
    /// operands against the table's shape, links the library function into
    /// this translation unit and records a [`Builtin::Lib`] call.
    pub(super) fn library_call(
        &mut self,
        name: &str,
        m: &MathFn,
        args: &[ast::Expr],
        loc: Loc,
    ) -> Result<Expr> {
        let (n, nf) = match m.shape {
            Shape::F1 | Shape::IF => (1, 1),
            Shape::F2 => (2, 2),
            Shape::F3 => (3, 3),
            Shape::FI | Shape::FPtrF | Shape::FPtrI => (2, 1),
            Shape::F2PtrI => (3, 2),
        };
        self.arity(name, args, n, n, loc)?;
        let vals = args
            .iter()
            .map(|a| self.rvalue(a))
            .collect::<Result<Vec<_>>>()?;
        let floats = &vals[..nf];
        if floats
            .iter()
            .any(|v| !v.ty.is_arith() || v.ty.elem_scalar() == Some(Scalar::Bool))
        {
            return self.no_match(name, &vals, loc);
        }
        let t = self.gentype(floats);
        if !t.is_float() {
            return self.no_match(name, &vals, loc);
        }
        let it = t.with_elem(Scalar::Int);
        let mut rest = vals[nf..].to_vec();
        let mut ops = self.gen_args(name, vals[..nf].to_vec(), &t, false, loc)?;
        match m.shape {
            Shape::FI => {
                let k = rest.remove(0);
                let ok = k.ty.is_integer()
                    && k.ty.elem_scalar() != Some(Scalar::Bool)
                    && (k.ty.width() == t.width() || (name == "ldexp" && !k.ty.is_vector()));
                if !ok {
                    return self.no_match(name, &vals, loc);
                }
                // Integer conversions to `int`/`intn` (a scalar `ldexp` exponent is splat).
                ops.push(self.arith_cast(k, &it));
            }
            Shape::FPtrF | Shape::FPtrI | Shape::F2PtrI => {
                let p = rest.remove(0);
                let want = if m.shape == Shape::FPtrF { &t } else { &it };
                match p.ty.pointee() {
                    Some(pt) if pt.ty == *want && !pt.konst && pt.space != AddrSpace::Constant => {}
                    _ => return self.no_match(name, &vals, loc),
                }
                ops.push(p);
            }
            _ => {}
        }
        let Impl::Lib(sym) = m.f32 else {
            unreachable!("native math built-ins take the FloatGen path")
        };
        let what = self.call_text(name, &vals);
        // The `double` and `half` forms are the library's `_f64` and
        // `_f16` functions; `half_*` and `native_*` are defined on `float`
        // alone.
        let float_only = name.starts_with("half_") || name.starts_with("native_");
        if float_only && t.elem_scalar() != Some(Scalar::Float) {
            return self.no_match(name, &vals, loc);
        }
        let sym = match t.elem_scalar() {
            Some(Scalar::Float) => sym.to_string(),
            Some(Scalar::Double) => sym.replace("_f32", "_f64"),
            Some(Scalar::Half) => sym.replace("_f32", "_f16"),
            _ => return err(loc, format!("unsupported: the built-in {what}")),
        };
        let fid = self.link_library(name, &sym, &what, loc)?;
        let ret = if m.shape == Shape::IF { it } else { t };
        Ok(rv(ExprKind::Builtin(Builtin::Lib(fid), ops), ret, loc))
    }

    /// A sub-group function (`lib/subgroup.cl`) or, with `work_group`, a
    /// work-group one (`lib/workgroup.cl`): operands checked against the
    /// specification's signatures (cl_khr_subgroups, OpenCL 2.0 §6.13.15:
    /// scalar `int uint long ulong float`), then the library's
    /// `__gpusim_{name}_{element}`. `work_group_broadcast` takes 1-3 local
    /// ids, passed as three `uint`s (missing ones 0); a work-group
    /// function's library form has one parameter more than its operands,
    /// the kernel's scratch, which the lowering supplies.
    pub(super) fn sub_group_call(
        &mut self,
        name: &str,
        kind: SubGroupKind,
        work_group: bool,
        args: &[ast::Expr],
        loc: Loc,
    ) -> Result<Expr> {
        let (lo, hi) = match kind {
            SubGroupKind::Query => (0, 0),
            SubGroupKind::Value | SubGroupKind::Predicate => (1, 1),
            SubGroupKind::Broadcast if work_group => (2, 4),
            SubGroupKind::Broadcast => (2, 2),
            SubGroupKind::Barrier => (1, 2),
        };
        self.arity(name, args, lo, hi, loc)?;
        let vals = args
            .iter()
            .map(|a| self.rvalue(a))
            .collect::<Result<Vec<_>>>()?;
        let what = self.call_text(name, &vals);
        let int_ok =
            |t: &Type| t.is_integer() && !t.is_vector() && t.elem_scalar() != Some(Scalar::Bool);
        if vals[1.min(vals.len())..].iter().any(|v| !int_ok(&v.ty)) {
            return self.no_match(name, &vals, loc);
        }
        let (suffix, ops, ret) = match kind {
            SubGroupKind::Query => ("u32", Vec::new(), Type::UINT),
            SubGroupKind::Barrier => {
                if !int_ok(&vals[0].ty) {
                    return self.no_match(name, &vals, loc);
                }
                // The scope (sub-group or wider) changes nothing for a wave.
                let flags = self.arith_cast(vals[0].clone(), &Type::UINT);
                ("u32", vec![flags], Type::Void)
            }
            SubGroupKind::Predicate => {
                if !int_ok(&vals[0].ty) {
                    return self.no_match(name, &vals, loc);
                }
                (
                    "i32",
                    vec![self.arith_cast(vals[0].clone(), &Type::INT)],
                    Type::INT,
                )
            }
            SubGroupKind::Value | SubGroupKind::Broadcast => {
                let t = vals[0].ty.clone();
                let suffix = match t.elem_scalar() {
                    _ if t.is_vector() => return self.no_match(name, &vals, loc),
                    Some(Scalar::Int) => "i32",
                    Some(Scalar::UInt) => "u32",
                    Some(Scalar::Long) => "i64",
                    Some(Scalar::ULong) => "u64",
                    Some(Scalar::Float) => "f32",
                    Some(Scalar::Double) => "f64",
                    Some(Scalar::Half) => "f16",
                    _ => return self.no_match(name, &vals, loc),
                };
                let mut ops = vec![vals[0].clone()];
                if kind == SubGroupKind::Broadcast {
                    for v in &vals[1..] {
                        ops.push(self.arith_cast(v.clone(), &Type::UINT));
                    }
                    while work_group && ops.len() < 4 {
                        ops.push(crate::front::sema::convert::int_const(0, Type::UINT, loc));
                    }
                }
                (suffix, ops, t)
            }
        };
        self.library_builtin(name, suffix, &what, ops, ret, false, loc)
    }
}

impl Sema<'_> {
    /// `vload_halfN`/`vloada_halfN`/`vstore_halfN[_r*]`/`vstorea_halfN[_r*]`
    /// (OpenCL 1.2 §6.12.7), written with the plain vector memory built-ins
    /// on the halves' bits and the library's conversions: `vload_halfN(o,
    /// p)` is `__gpusim_vload_half_f32(vloadN(o, (ushort *)p))` per
    /// component, `vstore_halfN_rtz(d, o, p)` is
    /// `vstoreN(__gpusim_vstore_half_rtz_f32(d), o, (ushort *)p)`. The
    /// aligned forms of a 3-vector step by 4 halves: `(ushort *)p + 4 o`.
    pub(super) fn half_vector_call(
        &mut self,
        name: &str,
        n: u8,
        aligned: bool,
        store: Option<&'static str>,
        args: &[ast::Expr],
        loc: Loc,
    ) -> Result<Expr> {
        let k = store.is_some() as usize;
        self.arity(name, args, 2 + k, 2 + k, loc)?;
        let vals = args
            .iter()
            .map(|a| self.rvalue(a))
            .collect::<Result<Vec<_>>>()?;
        let what = self.call_text(name, &vals);
        let p = vals[1 + k].clone();
        let Some(pt) =
            p.ty.pointee()
                .filter(|pt| pt.ty == Type::Scalar(Scalar::Half))
                .filter(|pt| store.is_none() || !(pt.konst || pt.space == AddrSpace::Constant))
                .cloned()
        else {
            return err(
                args[1 + k].loc,
                format!(
                    "'{name}' needs a pointer to {}half ('{}' given)",
                    if store.is_some() { "writable " } else { "" },
                    self.type_name(&p.ty)
                ),
            );
        };
        let vector = |s: Scalar| {
            if n == 1 {
                Type::Scalar(s)
            } else {
                Type::Vector(s, n)
            }
        };
        let bits = Type::Pointer(Box::new(super::super::super::types::Pointee {
            ty: Type::Scalar(Scalar::UShort),
            ..pt
        }));
        let bits = rv(
            ExprKind::Cast(CastKind::PtrToPtr, Box::new(p)),
            bits.clone(),
            loc,
        );
        let off = self.convert(vals[k].clone(), &Type::ULONG, super::super::expr::Ctx::Pass)?;
        let (off, bits) = if aligned && n == 3 {
            // 4 halves per element: the pointer moves, the offset is 0.
            let four = super::super::expr::int_const(4, Type::ULONG, loc);
            let scaled = rv(
                ExprKind::Binary(ast::BinaryOp::Mul, Box::new(off), Box::new(four)),
                Type::ULONG,
                loc,
            );
            let ty = bits.ty.clone();
            let moved = rv(
                ExprKind::PtrOffset(Box::new(bits), Box::new(scaled)),
                ty,
                loc,
            );
            (super::super::expr::int_const(0, Type::ULONG, loc), moved)
        } else {
            (off, bits)
        };
        match store {
            None => {
                let ld = rv(
                    ExprKind::Builtin(Builtin::Vload(n), vec![off, bits]),
                    vector(Scalar::UShort),
                    loc,
                );
                self.library_builtin(
                    "vload_half",
                    "f32",
                    &what,
                    vec![ld],
                    vector(Scalar::Float),
                    false,
                    loc,
                )
            }
            Some(mode) => {
                let d = vals[0].clone();
                // `double` data (cl_khr_fp64) rounds to half in one step.
                let elem = if d.ty == vector(Scalar::Double) {
                    "f64"
                } else {
                    "f32"
                };
                if d.ty != vector(Scalar::Float) && d.ty != vector(Scalar::Double) {
                    return err(
                        args[0].loc,
                        format!(
                            "'{name}' stores a '{}' ('{}' given)",
                            self.type_name(&vector(Scalar::Float)),
                            self.type_name(&d.ty)
                        ),
                    );
                }
                let h = self.library_builtin(
                    &format!("vstore_half_{mode}"),
                    elem,
                    &what,
                    vec![d],
                    vector(Scalar::UShort),
                    false,
                    loc,
                )?;
                Ok(rv(
                    ExprKind::Builtin(Builtin::Vstore(n), vec![h, off, bits]),
                    Type::Void,
                    loc,
                ))
            }
        }
    }
}

impl Sema<'_> {
    /// `async_work_group_copy(dst, src, n, event)` and
    /// `async_work_group_strided_copy(dst, src, n, stride, event)`: one
    /// pointer `__local`, the other `__global`, to the same gentype; the
    /// library's word copy (`lib/async_copy.cl`) with the pointers cast to
    /// words of the gentype's size (ulongs for 8 bytes and more).
    pub(super) fn async_copy_call(
        &mut self,
        name: &str,
        strided: bool,
        args: &[ast::Expr],
        loc: Loc,
    ) -> Result<Expr> {
        let nargs = 4 + strided as usize;
        self.arity(name, args, nargs, nargs, loc)?;
        let vals = args
            .iter()
            .map(|a| self.rvalue(a))
            .collect::<Result<Vec<_>>>()?;
        let (Some(d), Some(s)) = (vals[0].ty.pointee().cloned(), vals[1].ty.pointee().cloned())
        else {
            return self.no_match(name, &vals, loc);
        };
        let dir = match (d.space, s.space) {
            (AddrSpace::Local, AddrSpace::Global) => "lg",
            (AddrSpace::Global, AddrSpace::Local) => "gl",
            _ => return self.no_match(name, &vals, loc),
        };
        let elem_ok = matches!(d.ty, Type::Scalar(x) | Type::Vector(x, _) if x != Scalar::Bool);
        if d.ty != s.ty || !elem_ok || d.konst || !vals[nargs - 1].ty.is_integer() {
            return self.no_match(name, &vals, loc);
        }
        let size = self.records.size_of(&d.ty);
        let (word, suffix, words) = match size {
            1 => (Scalar::UChar, "u8", 1),
            2 => (Scalar::UShort, "u16", 1),
            4 => (Scalar::UInt, "u32", 1),
            _ => (Scalar::ULong, "u64", size / 8),
        };
        let what = self.call_text(name, &vals);
        let to_words = |e: Expr, p: &super::super::super::types::Pointee| {
            let ty = Type::Pointer(Box::new(super::super::super::types::Pointee {
                ty: Type::Scalar(word),
                ..p.clone()
            }));
            rv(ExprKind::Cast(CastKind::PtrToPtr, Box::new(e)), ty, loc)
        };
        let uint =
            |sema: &mut Self, e: Expr| sema.convert(e, &Type::UINT, super::super::expr::Ctx::Pass);
        let stride = if strided {
            uint(self, vals[3].clone())?
        } else {
            super::super::expr::int_const(1, Type::UINT, loc)
        };
        let ops = vec![
            to_words(vals[0].clone(), &d),
            to_words(vals[1].clone(), &s),
            uint(self, vals[2].clone())?,
            stride,
            super::super::expr::int_const(i128::from(words), Type::UINT, loc),
        ];
        self.library_builtin(
            &format!("async_copy_{dir}"),
            suffix,
            &what,
            ops,
            Type::UINT,
            false,
            loc,
        )
    }

    /// `prefetch(p, n)` on a `__global` gentype pointer: a hint, nothing to do.
    pub(super) fn prefetch_call(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        loc: Loc,
    ) -> Result<Expr> {
        self.arity(name, args, 2, 2, loc)?;
        let vals = args
            .iter()
            .map(|a| self.rvalue(a))
            .collect::<Result<Vec<_>>>()?;
        let Some(p) = vals[0]
            .ty
            .pointee()
            .cloned()
            .filter(|p| p.space == AddrSpace::Global)
        else {
            return self.no_match(name, &vals, loc);
        };
        if !vals[1].ty.is_integer() {
            return self.no_match(name, &vals, loc);
        }
        let what = self.call_text(name, &vals);
        let bytes = Type::Pointer(Box::new(super::super::super::types::Pointee {
            ty: Type::Scalar(Scalar::UChar),
            konst: true,
            ..p
        }));
        let ops = vec![
            rv(
                ExprKind::Cast(CastKind::PtrToPtr, Box::new(vals[0].clone())),
                bytes,
                loc,
            ),
            self.convert(vals[1].clone(), &Type::UINT, super::super::expr::Ctx::Pass)?,
        ];
        self.library_builtin("prefetch", "u8", &what, ops, Type::Void, false, loc)
    }
}

impl Sema<'_> {
    /// A cl_ext_float_atomics read-modify-write on `atomic_float`
    /// (`ops`: pointer, value, order, scope): the library's
    /// compare-and-swap loop for the pointer's address space
    /// (`lib/atomics.cl`), on the word's bits, with the order as an operand.
    pub(super) fn float_atomic(
        &mut self,
        name: &str,
        op: AtomicOp,
        space: AddrSpace,
        ops: Vec<Expr>,
        loc: Loc,
    ) -> Result<Expr> {
        let stem = match op {
            AtomicOp::Add => "add",
            AtomicOp::Sub => "sub",
            AtomicOp::Min => "min",
            _ => "max",
        };
        let sp = match space {
            AddrSpace::Global => "g",
            AddrSpace::Local => "l",
            _ => "p",
        };
        let what = self.call_text(name, &ops[..2]);
        let mut ops = ops;
        let _scope = ops.pop();
        let order = ops.pop().expect("an order");
        let v = ops.pop().expect("a value");
        let p = ops.pop().expect("a pointer");
        let pt = p.ty.pointee().cloned().expect("an atomic pointer");
        let words = Type::Pointer(Box::new(super::super::super::types::Pointee {
            ty: Type::Scalar(Scalar::UInt),
            ..pt
        }));
        let p = rv(ExprKind::Cast(CastKind::PtrToPtr, Box::new(p)), words, loc);
        let order = self.arith_cast(order, &Type::INT);
        self.library_builtin(
            &format!("atomic_fetch_{stem}_{sp}"),
            "f32",
            &what,
            vec![p, v, order],
            Type::FLOAT,
            false,
            loc,
        )
    }
}
