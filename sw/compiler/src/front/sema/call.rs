//! Calls: user functions and built-in overload resolution.

use super::super::ast::{self, ExprKind as A};
use super::super::builtins::{lookup, Atomic1, Atomic2, AtomicOp, Builtin, Sig, P};
use super::super::diag::{err, Loc, Result};
use super::super::tast::*;
use super::super::types::{AddrSpace, Scalar, Type};
use super::expr::{const_int, int_const, rv, Ctx};
use super::{Name, Sema};

mod library;
mod printf;

const RELAXED: i128 = 0;
const SEQ_CST: i128 = 5;
const SCOPE_WORK_GROUP: i128 = 1;
const SCOPE_DEVICE: i128 = 2;

fn p_type(p: P) -> Type {
    match p {
        P::U32 => Type::UINT,
        P::I32 => Type::INT,
        P::F32 => Type::FLOAT,
        P::U64 => Type::ULONG,
        P::I64 => Type::LONG,
        P::Void => Type::Void,
        P::Bool => Type::BOOL,
        P::U16 => Type::Scalar(Scalar::UShort),
        P::ConstBytePtr => Type::Pointer(Box::new(super::super::types::Pointee {
            ty: Type::Scalar(Scalar::UChar),
            space: AddrSpace::Constant,
            konst: true,
            volatile: false,
        })),
    }
}

impl Sema<'_> {
    pub(crate) fn call(&mut self, f: &ast::Expr, args: &[ast::Expr], loc: Loc) -> Result<Expr> {
        let A::Ident(name) = f.kind else {
            return err(
                f.loc,
                "called object is not a function (function pointers are not supported in OpenCL)",
            );
        };
        match self.lookup(name).cloned() {
            Some(Name::Func(id)) => self.user_call(id, args, loc),
            Some(_) => {
                let v = self.expr(f)?;
                err(
                    f.loc,
                    format!(
                        "called object type '{}' is not a function",
                        self.type_name(&v.ty)
                    ),
                )
            }
            None => {
                let n = self.name(name).to_string();
                match lookup(&n) {
                    None if n == "printf" => self.printf_call(args, loc),
                    Some(sig) => self.builtin_call(&n, sig, args, loc),
                    None if n.starts_with("__builtin_") => {
                        err(f.loc, format!("use of unknown builtin '{n}'"))
                    }
                    None => err(
                        f.loc,
                        format!("implicit declaration of function '{n}' is invalid in OpenCL"),
                    ),
                }
            }
        }
    }

    pub(super) fn arity(
        &self,
        name: &str,
        args: &[ast::Expr],
        min: usize,
        max: usize,
        loc: Loc,
    ) -> Result<()> {
        if args.len() < min {
            return err(
                loc,
                format!(
                    "too few arguments to function call '{name}', expected {}{min}, have {}",
                    if min != max { "at least " } else { "" },
                    args.len()
                ),
            );
        }
        if args.len() > max {
            return err(
                loc,
                format!(
                    "too many arguments to function call '{name}', expected {}{max}, have {}",
                    if min != max { "at most " } else { "" },
                    args.len()
                ),
            );
        }
        Ok(())
    }

    pub(super) fn user_call(&mut self, id: FuncId, args: &[ast::Expr], loc: Loc) -> Result<Expr> {
        let f = &self.functions[id.0 as usize];
        let (name, n, ret) = (f.name.clone(), f.params, f.ret.clone());
        let ptypes: Vec<Type> = f.vars[..n].iter().map(|v| v.ty.clone()).collect();
        self.arity(&name, args, n, n, loc)?;
        let mut out = Vec::with_capacity(n);
        for (a, t) in args.iter().zip(&ptypes) {
            let v = self.rvalue(a)?;
            out.push(self.convert(v, t, Ctx::Pass)?);
        }
        self.ctx().calls.push((id, loc));
        Ok(rv(ExprKind::Call(id, out), ret, loc))
    }

    pub(super) fn const_operand(&mut self, a: &ast::Expr, what: &str, name: &str) -> Result<Expr> {
        let v = self.rvalue(a)?;
        match const_int(&v) {
            Some(c) => Ok(int_const(c, Type::INT, a.loc)),
            None => err(
                a.loc,
                format!("{what} argument to '{name}' must be an integer constant"),
            ),
        }
    }

    pub(super) fn no_match(&self, name: &str, vals: &[Expr], loc: Loc) -> Result<Expr> {
        let tys: Vec<String> = vals.iter().map(|v| self.type_name(&v.ty)).collect();
        err(
            loc,
            format!(
                "no matching overload of '{name}' for argument types ({})",
                tys.join(", ")
            ),
        )
    }

    /// The gentype of a call: the first vector argument's type, else the
    /// usual arithmetic conversion of the scalar arguments.
    pub(super) fn gentype(&self, vals: &[Expr]) -> Type {
        if let Some(v) = vals.iter().find(|v| v.ty.is_vector()) {
            return v.ty.clone();
        }
        let mut t = vals[0].ty.elem_scalar().expect("arithmetic");
        for v in &vals[1..] {
            let s = v.ty.elem_scalar().expect("arithmetic");
            if s != t {
                t = match (s.is_float(), t.is_float()) {
                    (true, false) => s,
                    (false, true) => t,
                    _ if s.rank() > t.rank() || (s.rank() == t.rank() && !s.is_signed()) => s,
                    _ => t,
                };
            }
        }
        Type::Scalar(t)
    }

    /// Converts gentype operands to `t`: scalars may be converted (and
    /// splat when `mix` allows it from operand 1 on); vectors must match.
    pub(super) fn gen_args(
        &self,
        name: &str,
        vals: Vec<Expr>,
        t: &Type,
        mix: bool,
        loc: Loc,
    ) -> Result<Vec<Expr>> {
        if vals
            .iter()
            .enumerate()
            .any(|(i, v)| v.ty != *t && (v.ty.is_vector() || (t.is_vector() && !(mix && i > 0))))
        {
            return self.no_match(name, &vals, loc).map(|_| Vec::new());
        }
        Ok(vals.into_iter().map(|v| self.arith_cast(v, t)).collect())
    }

    pub(super) fn builtin_call(
        &mut self,
        name: &str,
        sig: Sig,
        args: &[ast::Expr],
        loc: Loc,
    ) -> Result<Expr> {
        let mk = |b: Builtin, ops: Vec<Expr>, ty: Type| rv(ExprKind::Builtin(b, ops), ty, loc);
        match sig {
            Sig::Fixed(b, params, ret) => {
                self.arity(name, args, params.len(), params.len(), loc)?;
                let mut ops = Vec::new();
                for (a, p) in args.iter().zip(params) {
                    let v = self.rvalue(a)?;
                    if *p == P::Bool {
                        ops.push(self.make_bool(v, a.loc)?);
                        continue;
                    }
                    if !v.ty.is_scalar() {
                        return err(
                            a.loc,
                            format!(
                                "passing '{}' to parameter of incompatible type '{}'",
                                self.type_name(&v.ty),
                                self.type_name(&p_type(*p))
                            ),
                        );
                    }
                    ops.push(self.convert(v, &p_type(*p), Ctx::Pass)?);
                }
                Ok(mk(b, ops, p_type(ret)))
            }
            Sig::FloatGen(..) | Sig::IntGen(..) | Sig::AnyGen(..) => {
                let (b, n, mix) = match sig {
                    Sig::FloatGen(b, n, mix) | Sig::IntGen(b, n, mix) => (b, n, mix),
                    Sig::AnyGen(b, n) => (b, n, true),
                    _ => unreachable!("matched above"),
                };
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
                let t = self.gentype(&vals);
                let ok = match sig {
                    Sig::FloatGen(..) => t.is_float(),
                    Sig::IntGen(..) => t.is_integer(),
                    _ => true,
                };
                if !ok {
                    return self.no_match(name, &vals, loc);
                }
                let ops = self.gen_args(name, vals, &t, mix, loc)?;
                self.native_or_library(name, mk(b, ops, t))
            }
            Sig::Int32Gen(b, n) | Sig::IntToUnsigned(b, n) => {
                self.arity(name, args, n, n, loc)?;
                let vals = args
                    .iter()
                    .map(|a| self.rvalue(a))
                    .collect::<Result<Vec<_>>>()?;
                if vals
                    .iter()
                    .any(|v| !v.ty.is_integer() || v.ty.elem_scalar() == Some(Scalar::Bool))
                {
                    return self.no_match(name, &vals, loc);
                }
                let t = self.gentype(&vals);
                let s = t.elem_scalar().expect("integer");
                if matches!(sig, Sig::Int32Gen(..)) && !matches!(s, Scalar::Int | Scalar::UInt) {
                    return self.no_match(name, &vals, loc);
                }
                let ops = self.gen_args(name, vals, &t, false, loc)?;
                let ret = if matches!(sig, Sig::IntToUnsigned(..)) {
                    t.with_elem(s.to_unsigned())
                } else {
                    t
                };
                self.native_or_library(name, mk(b, ops, ret))
            }
            Sig::Generic {
                stem,
                n,
                splat,
                kind,
            } => self.generic_call(name, stem, n, splat, kind, args, loc),
            Sig::SubGroup(kind) => self.sub_group_call(name, kind, false, args, loc),
            Sig::WorkGroup(kind) => self.sub_group_call(name, kind, true, args, loc),
            Sig::AnyAll(all) => {
                self.arity(name, args, 1, 1, loc)?;
                let v = self.rvalue(&args[0])?;
                if !v.ty.is_integer() || v.ty.elem_scalar() == Some(Scalar::Bool) {
                    return self.no_match(name, &[v], loc);
                }
                let b = if all { Builtin::All } else { Builtin::Any };
                Ok(mk(b, vec![v], Type::INT))
            }
            Sig::Geometric(b, n, scalar) => {
                self.arity(name, args, n, n, loc)?;
                let vals = args
                    .iter()
                    .map(|a| self.rvalue(a))
                    .collect::<Result<Vec<_>>>()?;
                let t = vals[0].ty.clone();
                let ok = t.is_float()
                    && t.width() <= 4
                    && vals.iter().all(|v| v.ty == t)
                    && (b != Builtin::Cross || matches!(t.width(), 3 | 4));
                if !ok {
                    return self.no_match(name, &vals, loc);
                }
                let ret = if scalar {
                    Type::Scalar(t.elem_scalar().expect("float"))
                } else {
                    t.clone()
                };
                // The library's geometric functions take whole vectors:
                // `__gpusim_length_f32v4`.
                let stem = name.strip_prefix("fast_").unwrap_or(name);
                let suffix = match (t.elem_scalar(), t.width()) {
                    (Some(Scalar::Float), 1) => "f32".to_string(),
                    (Some(Scalar::Float), w) => format!("f32v{w}"),
                    (Some(Scalar::Double), 1) => "f64".to_string(),
                    (Some(Scalar::Double), w) => format!("f64v{w}"),
                    (Some(Scalar::Half), 1) => "f16".to_string(),
                    (Some(Scalar::Half), w) => format!("f16v{w}"),
                    _ => String::new(),
                };
                let what = self.call_text(name, &vals);
                self.library_builtin(stem, &suffix, &what, vals, ret, false, loc)
            }
            Sig::AsyncCopy(strided) => self.async_copy_call(name, strided, args, loc),
            Sig::WaitGroupEvents => {
                self.arity(name, args, 2, 2, loc)?;
                let n = self.rvalue(&args[0])?;
                let ev = self.rvalue(&args[1])?;
                if !n.ty.is_integer() || !ev.ty.is_pointer() {
                    return self.no_match(name, &[n, ev], loc);
                }
                // The copies are complete; the barrier makes every work-item's
                // part visible to all (local and global memory).
                Ok(mk(
                    Builtin::Barrier,
                    vec![
                        int_const(3, Type::UINT, loc),
                        int_const(SCOPE_WORK_GROUP, Type::INT, loc),
                    ],
                    Type::Void,
                ))
            }
            Sig::Prefetch => self.prefetch_call(name, args, loc),
            Sig::VloadHalf { n, aligned } => {
                self.half_vector_call(name, n, aligned, None, args, loc)
            }
            Sig::VstoreHalf { n, aligned, mode } => {
                self.half_vector_call(name, n, aligned, Some(mode), args, loc)
            }
            Sig::Vload(n) | Sig::Vstore(n) => {
                let store = matches!(sig, Sig::Vstore(_));
                let k = store as usize;
                self.arity(name, args, 2 + k, 2 + k, loc)?;
                let p = self.rvalue(&args[1 + k])?;
                let elem = match p.ty.pointee() {
                    Some(pt)
                        if matches!(pt.ty, Type::Scalar(s) if s != Scalar::Bool)
                            && !(store && (pt.konst || pt.space == AddrSpace::Constant)) =>
                    {
                        pt.ty.clone()
                    }
                    _ => {
                        return err(
                            args[1 + k].loc,
                            format!(
                                "'{name}' needs a pointer to a{} scalar ('{}' invalid)",
                                if store { " writable" } else { "" },
                                self.type_name(&p.ty)
                            ),
                        )
                    }
                };
                let off = self.rvalue(&args[k])?;
                let off = self.convert(off, &Type::ULONG, Ctx::Pass)?;
                let vt = Type::Vector(elem.elem_scalar().expect("scalar"), n);
                if store {
                    let mut d = self.rvalue(&args[0])?;
                    // The pointer picks the overload; a scalar converts to
                    // it as clang converts one (a splat: `vstore3(v.x, 0,
                    // p)`, the Khronos `vector_swizzle` test's form).
                    if matches!(d.ty, Type::Scalar(s) if s != Scalar::Bool) {
                        d = self.convert(d, &vt, Ctx::Pass)?;
                    }
                    if d.ty != vt {
                        return err(
                            args[0].loc,
                            format!(
                                "'{name}' stores a '{}' ('{}' given)",
                                self.type_name(&vt),
                                self.type_name(&d.ty)
                            ),
                        );
                    }
                    return Ok(mk(Builtin::Vstore(n), vec![d, off, p], Type::Void));
                }
                Ok(mk(Builtin::Vload(n), vec![off, p], vt))
            }
            Sig::Library(m) => self.library_call(name, m, args, loc),
            Sig::Select => {
                self.arity(name, args, 3, 3, loc)?;
                let vals = args
                    .iter()
                    .map(|a| self.rvalue(a))
                    .collect::<Result<Vec<_>>>()?;
                let (a, b, c) = (&vals[0], &vals[1], &vals[2]);
                let ok = a.ty.is_arith()
                    && a.ty == b.ty
                    && c.ty.is_integer()
                    && c.ty.width() == a.ty.width()
                    && (!a.ty.is_vector()
                        || c.ty.elem_scalar().map(Scalar::size)
                            == a.ty.elem_scalar().map(Scalar::size));
                if !ok {
                    return self.no_match(name, &vals, loc);
                }
                let t = a.ty.clone();
                Ok(mk(Builtin::Select, vals, t))
            }
            Sig::Barrier | Sig::MemFence => {
                self.arity(name, args, 1, 1, loc)?;
                let v = self.rvalue(&args[0])?;
                let flags = self.convert(v, &Type::UINT, Ctx::Pass)?;
                if matches!(sig, Sig::MemFence) {
                    return Ok(mk(Builtin::MemFence, vec![flags], Type::Void));
                }
                Ok(mk(
                    Builtin::Barrier,
                    vec![flags, int_const(SCOPE_WORK_GROUP, Type::INT, loc)],
                    Type::Void,
                ))
            }
            Sig::WorkGroupBarrier => {
                self.arity(name, args, 1, 2, loc)?;
                let v = self.rvalue(&args[0])?;
                let flags = self.convert(v, &Type::UINT, Ctx::Pass)?;
                let scope = match args.get(1) {
                    Some(a) => self.const_operand(a, "memory scope", name)?,
                    None => int_const(SCOPE_WORK_GROUP, Type::INT, loc),
                };
                Ok(mk(Builtin::Barrier, vec![flags, scope], Type::Void))
            }
            Sig::WorkItemFence => {
                self.arity(name, args, 3, 3, loc)?;
                let v = self.rvalue(&args[0])?;
                let flags = self.convert(v, &Type::UINT, Ctx::Pass)?;
                let order = self.const_operand(&args[1], "memory order", name)?;
                let scope = self.const_operand(&args[2], "memory scope", name)?;
                Ok(mk(
                    Builtin::WorkItemFence,
                    vec![flags, order, scope],
                    Type::Void,
                ))
            }
            Sig::AmdgcnFence => {
                self.arity(name, args, 2, 2, loc)?;
                let order = self.const_operand(&args[0], "memory order", name)?;
                let A::Str(parts) = &args[1].kind else {
                    return err(
                        args[1].loc,
                        "the scope argument of '__builtin_amdgcn_fence' must be a string literal",
                    );
                };
                let text: String = parts
                    .iter()
                    .map(|p| {
                        let s = self.int.get(*p);
                        s[1..s.len() - 1].to_string()
                    })
                    .collect();
                let scope = match text.as_str() {
                    "" => 3,
                    "agent" => SCOPE_DEVICE,
                    "workgroup" => SCOPE_WORK_GROUP,
                    "wavefront" => 4,
                    "singlethread" => 0,
                    s => {
                        return err(
                            args[1].loc,
                            format!("unsupported synchronization scope '{s}'"),
                        )
                    }
                };
                Ok(mk(
                    Builtin::Fence,
                    vec![order, int_const(scope, Type::INT, args[1].loc)],
                    Type::Void,
                ))
            }
            Sig::Atomic1(kind) => {
                let nargs = match kind {
                    Atomic1::Inc | Atomic1::Dec => 1,
                    Atomic1::Rmw(_) => 2,
                    Atomic1::Cmpxchg => 3,
                };
                self.arity(name, args, nargs, nargs, loc)?;
                let (ptr, s, space) = self.atomic_pointer(&args[0], name, false)?;
                let scope = int_const(
                    if space == AddrSpace::Local {
                        SCOPE_WORK_GROUP
                    } else {
                        SCOPE_DEVICE
                    },
                    Type::INT,
                    loc,
                );
                let order = int_const(RELAXED, Type::INT, loc);
                let vt = Type::Scalar(s);
                let mut vals = Vec::new();
                for a in &args[1..] {
                    let v = self.rvalue(a)?;
                    vals.push(self.convert(v, &vt, Ctx::Pass)?);
                }
                let one = || int_const(1, vt.clone(), loc);
                Ok(match kind {
                    Atomic1::Inc => mk(
                        Builtin::AtomicRmw(AtomicOp::Add),
                        vec![ptr, one(), order, scope],
                        vt.clone(),
                    ),
                    Atomic1::Dec => mk(
                        Builtin::AtomicRmw(AtomicOp::Sub),
                        vec![ptr, one(), order, scope],
                        vt.clone(),
                    ),
                    Atomic1::Rmw(op) => {
                        if s.is_float() && op != AtomicOp::Xchg {
                            return err(
                                args[0].loc,
                                format!("'{name}' requires a pointer to an integer"),
                            );
                        }
                        let v = vals.pop().expect("one value");
                        mk(
                            Builtin::AtomicRmw(op),
                            vec![ptr, v, order, scope],
                            vt.clone(),
                        )
                    }
                    Atomic1::Cmpxchg => {
                        let val = vals.pop().expect("two values");
                        let cmp = vals.pop().expect("two values");
                        mk(
                            Builtin::AtomicCmpxchg,
                            vec![ptr, cmp, val, order, scope],
                            vt.clone(),
                        )
                    }
                })
            }
            Sig::Atomic2(kind, explicit) => self.atomic2(
                name,
                kind,
                if explicit { Some(false) } else { None },
                args,
                loc,
            ),
            Sig::ClangAtomic(kind) => self.atomic2(name, kind, Some(true), args, loc),
            Sig::GnuAtomic(kind) => self.atomic2(name, kind, None, args, loc),
            Sig::GnuOpFetch(op) => {
                let mut e = self.atomic2(name, Atomic2::Rmw(op), None, args, loc)?;
                if let ExprKind::Builtin(b, _) = &mut e.kind {
                    *b = Builtin::AtomicRmwFetch(op);
                }
                Ok(e)
            }
            Sig::FloatConst(v, takes_str) => {
                let n = takes_str as usize;
                self.arity(name, args, n, n, loc)?;
                if takes_str && !matches!(args[0].kind, A::Str(_)) {
                    return err(args[0].loc, format!("'{name}' takes a string literal"));
                }
                Ok(rv(ExprKind::FloatConst(v), Type::FLOAT, loc))
            }
            Sig::Convert | Sig::As => {
                self.conversion_builtin(name, matches!(sig, Sig::As), args, loc)
            }
        }
    }

    /// The pointer operand of an atomic: (converted value, element scalar, address space).
    pub(super) fn atomic_pointer(
        &mut self,
        a: &ast::Expr,
        name: &str,
        want_atomic: bool,
    ) -> Result<(Expr, Scalar, AddrSpace)> {
        let p = self.rvalue(a)?;
        let tn = self.type_name(&p.ty);
        let Some(pt) = p.ty.pointee().cloned() else {
            return err(
                a.loc,
                format!("address argument to atomic operation must be a pointer ('{tn}' invalid)"),
            );
        };
        let s = match (&pt.ty, want_atomic) {
            (Type::Atomic(s), true) => *s,
            (Type::Scalar(s), false) if matches!(s, Scalar::Int | Scalar::UInt | Scalar::Long | Scalar::ULong | Scalar::Float) => *s,
            (_, true) => return err(a.loc, format!("address argument to '{name}' must be a pointer to an atomic type ('{tn}' invalid)")),
            _ => return err(a.loc, format!("address argument to '{name}' must be a pointer to int, uint, long, ulong or float ('{tn}' invalid)")),
        };
        if pt.konst || pt.space == AddrSpace::Constant {
            return err(a.loc, format!("address argument to atomic operation must be a pointer to non-const type ('{tn}' invalid)"));
        }
        if pt.space == AddrSpace::Private {
            return err(a.loc, format!("address argument to atomic operation cannot point to the __private address space ('{tn}' invalid)"));
        }
        Ok((p, s, pt.space))
    }

    /// OpenCL 2.0 atomics. `explicit`: None = implicit order/scope, Some(false)
    /// = `_explicit` (scope optional), Some(true) = `__opencl_atomic_*` (all required).
    pub(super) fn atomic2(
        &mut self,
        name: &str,
        kind: Atomic2,
        explicit: Option<bool>,
        args: &[ast::Expr],
        loc: Loc,
    ) -> Result<Expr> {
        let (values, orders) = match kind {
            Atomic2::Load => (0, 1),
            Atomic2::Init => (1, 0),
            Atomic2::CompareExchange => (2, 2),
            Atomic2::Store | Atomic2::Rmw(_) => (1, 1),
            Atomic2::FlagTestAndSet | Atomic2::FlagClear => (0, 1),
        };
        // GNU `__atomic_*`: plain pointers, orders always given, no scope;
        // compare-exchange has a `weak` flag before its orders.
        let gnu = name.starts_with("__atomic_");
        let weak = (gnu && matches!(kind, Atomic2::CompareExchange)) as usize;
        let (min, max) = match explicit {
            None if gnu => (1 + values + weak + orders, 1 + values + weak + orders),
            None => (1 + values, 1 + values),
            Some(false) => (1 + values + orders, 2 + values + orders),
            Some(true) => (
                1 + values + orders + (orders > 0) as usize,
                1 + values + orders + (orders > 0) as usize,
            ),
        };
        self.arity(name, args, min, max, loc)?;
        let (ptr, s, space) = self.atomic_pointer(&args[0], name, !gnu)?;
        let vt = Type::Scalar(s);
        let flag = matches!(kind, Atomic2::FlagTestAndSet | Atomic2::FlagClear);
        if flag && s != Scalar::Int {
            return err(
                args[0].loc,
                format!("address argument to '{name}' must be a pointer to atomic_flag"),
            );
        }
        let mut ops = vec![ptr];
        if flag {
            // atomic_flag is clang's `atomic_int`: set is 1, clear 0.
            let v = matches!(kind, Atomic2::FlagTestAndSet) as i128;
            ops.push(int_const(v, vt.clone(), loc));
        }
        let mut i = 1;
        if matches!(kind, Atomic2::CompareExchange) {
            let e = self.rvalue(&args[1])?;
            let want = Type::ptr(vt.clone(), AddrSpace::Generic);
            let e = match &e.ty {
                Type::Pointer(p)
                    if p.ty == vt
                        && p.space != AddrSpace::Generic
                        && p.space != AddrSpace::Constant =>
                {
                    super::expr::cast(e, CastKind::PtrToPtr, want)
                }
                _ => self.convert(e, &want, Ctx::Pass)?,
            };
            ops.push(e);
            i = 2;
        }
        let nvals = if matches!(kind, Atomic2::CompareExchange) {
            1
        } else {
            values
        };
        // cl_ext_float_atomics: add, sub, min and max on atomic_float
        // (not GNU atomics on plain floats) are the library's loops.
        let float_rmw =
            match kind {
                Atomic2::Rmw(
                    op @ (AtomicOp::Add | AtomicOp::Sub | AtomicOp::Min | AtomicOp::Max),
                ) if s == Scalar::Float && !gnu => Some(op),
                _ => None,
            };
        for a in &args[i..i + nvals] {
            let v = self.rvalue(a)?;
            if let Atomic2::Rmw(op) = kind {
                if s.is_float() && op != AtomicOp::Xchg && float_rmw.is_none() {
                    return err(
                        args[0].loc,
                        format!("'{name}' requires a pointer to an atomic integer"),
                    );
                }
            }
            ops.push(self.convert(v, &vt, Ctx::Pass)?);
        }
        i += nvals;
        if weak == 1 {
            // gfx1030's compare-and-swap never fails spuriously: weak = strong.
            self.rvalue(&args[i])?;
            i += 1;
        }
        let default_scope = if space == AddrSpace::Local {
            SCOPE_WORK_GROUP
        } else {
            SCOPE_DEVICE
        };
        for k in 0..orders {
            let o = match args.get(i + k) {
                Some(a) => self.const_operand(a, "memory order", name)?,
                None => int_const(
                    if explicit.is_none() { SEQ_CST } else { RELAXED },
                    Type::INT,
                    loc,
                ),
            };
            ops.push(o);
        }
        if matches!(kind, Atomic2::Init) {
            ops.push(int_const(RELAXED, Type::INT, loc));
        }
        let scope = match args.get(i + orders) {
            Some(a) => self.const_operand(a, "memory scope", name)?,
            None => int_const(default_scope, Type::INT, loc),
        };
        ops.push(scope);
        if let Some(op) = float_rmw {
            return self.float_atomic(name, op, space, ops, loc);
        }
        Ok(match kind {
            Atomic2::Load => rv(ExprKind::Builtin(Builtin::AtomicLoad, ops), vt, loc),
            Atomic2::Store | Atomic2::Init | Atomic2::FlagClear => rv(
                ExprKind::Builtin(Builtin::AtomicStore, ops),
                Type::Void,
                loc,
            ),
            Atomic2::FlagTestAndSet => {
                let old = rv(
                    ExprKind::Builtin(Builtin::AtomicRmw(AtomicOp::Xchg), ops),
                    vt,
                    loc,
                );
                let zero = int_const(0, Type::INT, loc);
                rv(
                    ExprKind::Binary(ast::BinaryOp::Ne, Box::new(old), Box::new(zero)),
                    Type::INT,
                    loc,
                )
            }
            Atomic2::Rmw(op) => rv(ExprKind::Builtin(Builtin::AtomicRmw(op), ops), vt, loc),
            Atomic2::CompareExchange => rv(
                ExprKind::Builtin(Builtin::AtomicCompareExchange, ops),
                Type::BOOL,
                loc,
            ),
        })
    }

    pub(super) fn conversion_builtin(
        &mut self,
        name: &str,
        is_as: bool,
        args: &[ast::Expr],
        loc: Loc,
    ) -> Result<Expr> {
        let rest = name.split_once('_').map(|x| x.1).unwrap_or("");
        let (tname, suffix) = match rest.find('_') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        let Some(to) = scalar_or_vector_named(tname) else {
            return err(
                loc,
                format!("implicit declaration of function '{name}' is invalid in OpenCL"),
            );
        };
        self.arity(name, args, 1, 1, loc)?;
        let v = self.rvalue(&args[0])?;
        if is_as {
            if !suffix.is_empty() {
                return err(
                    loc,
                    format!("implicit declaration of function '{name}' is invalid in OpenCL"),
                );
            }
            let (a, b) = (self.records.size_of(&v.ty), self.records.size_of(&to));
            if !(v.ty.is_arith() || v.ty.is_pointer()) || a != b {
                return err(
                    loc,
                    format!(
                        "invalid reinterpretation: sizes of '{}' and '{}' must match",
                        self.type_name(&v.ty),
                        self.type_name(&to)
                    ),
                );
            }
            return Ok(super::expr::cast(v, CastKind::Bitcast, to));
        }
        if !v.ty.is_arith() || v.ty.width() != to.width() || v.ty.is_vector() != to.is_vector() {
            return self.no_match(name, &[v], loc);
        }
        // To half with a directed rounding: the library's one-step
        // rounding of the float, or of the double the source converts to
        // exactly (an integer past 2^53 overflows half in every mode
        // whatever the double's rounding).
        if to.elem_scalar() == Some(Scalar::Half) && matches!(suffix, "_rtz" | "_rtp" | "_rtn") {
            let what = self.call_text(name, std::slice::from_ref(&v));
            let (src, elem) = match v.ty.elem_scalar() {
                Some(Scalar::Half) => return Ok(v),
                Some(Scalar::Float) => (v, "f32"),
                _ => {
                    let d = v.ty.with_elem(Scalar::Double);
                    (self.arith_cast(v, &d), "f64")
                }
            };
            let bits = self.library_builtin(
                &format!("vstore_half{suffix}"),
                elem,
                &what,
                vec![src],
                to.with_elem(Scalar::UShort),
                false,
                loc,
            )?;
            return Ok(super::expr::cast(bits, CastKind::Bitcast, to));
        }
        let from_float = v.ty.is_float();
        let to_float = to.is_float();
        // Only the default rounding of each conversion is implemented: rtz
        // for float → int, rte otherwise; saturation is not.
        let ok = match suffix {
            "" => true,
            "_rtz" => from_float && !to_float,
            "_rte" => !from_float || to_float,
            _ => false,
        };
        if !ok {
            return err(
                loc,
                format!(
                    "'{name}': saturating and non-default rounding conversions are not supported"
                ),
            );
        }
        Ok(self.arith_cast(v, &to))
    }
}

/// `int`, `uchar4`, `float16`… by name (no bool, no atomics): the target
/// type of `convert_T` / `as_T`.
fn scalar_or_vector_named(name: &str) -> Option<Type> {
    let digits = name.len() - name.bytes().rev().take_while(u8::is_ascii_digit).count();
    let (base, width) = name.split_at(digits);
    let s = match base {
        "char" => Scalar::Char,
        "uchar" => Scalar::UChar,
        "short" => Scalar::Short,
        "ushort" => Scalar::UShort,
        "int" => Scalar::Int,
        "uint" => Scalar::UInt,
        "long" => Scalar::Long,
        "ulong" => Scalar::ULong,
        "half" => Scalar::Half,
        "float" => Scalar::Float,
        "double" => Scalar::Double,
        _ => return None,
    };
    match width {
        "" => Some(Type::Scalar(s)),
        "2" | "3" | "4" | "8" | "16" => Some(Type::Vector(s, width.parse().ok()?)),
        _ => None,
    }
}
