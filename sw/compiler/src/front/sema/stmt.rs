//! Statements, local declarations and initializers.

use super::expr;
use super::{FnCtx, Name, Scope, Sema, SwitchCtx};
use crate::front::ast::{self, StmtKind, SynType};
use crate::front::diag::{err, Result};
use crate::front::tast::*;
use crate::front::types::{AddrSpace, Type};
use std::collections::HashSet;

impl Sema<'_> {
    // ---- statements ----------------------------------------------------

    pub(super) fn ctx(&mut self) -> &mut FnCtx {
        self.f.as_mut().expect("inside a function")
    }

    pub(super) fn block_items(&mut self, body: &[ast::Stmt], out: &mut Vec<Stmt>) -> Result<()> {
        self.ctx().block_depth += 1;
        for s in body {
            self.stmt(s, out)?;
        }
        self.ctx().block_depth -= 1;
        Ok(())
    }

    pub(super) fn sub_stmt(&mut self, s: &ast::Stmt) -> Result<Stmt> {
        self.scopes.push(Scope::default());
        let mut v = Vec::new();
        let r = self.stmt(s, &mut v);
        self.scopes.pop();
        r?;
        Ok(if v.len() == 1 {
            v.pop().expect("one")
        } else {
            Stmt::Block(v)
        })
    }

    pub(super) fn stmt(&mut self, s: &ast::Stmt, out: &mut Vec<Stmt>) -> Result<()> {
        let st = match &s.kind {
            StmtKind::Expr(e) => Stmt::Expr(self.expr_stmt(e)?),
            StmtKind::Decl(decls, base) => return self.local_decls(decls, base.as_ref(), out),
            StmtKind::Block(b) => {
                self.scopes.push(Scope::default());
                let mut v = Vec::new();
                let r = self.block_items(b, &mut v);
                self.scopes.pop();
                r?;
                Stmt::Block(v)
            }
            StmtKind::If(c, t, e) => {
                let c = self.condition(c)?;
                let t = self.sub_stmt(t)?;
                let e = match e {
                    Some(e) => Some(Box::new(self.sub_stmt(e)?)),
                    None => None,
                };
                Stmt::If(c, Box::new(t), e)
            }
            StmtKind::While(c, b, unroll) => {
                let cond = self.condition(c)?;
                let body = self.loop_body(b)?;
                Stmt::While {
                    cond,
                    body: Box::new(body),
                    unroll: *unroll,
                }
            }
            StmtKind::DoWhile(b, c, unroll) => {
                let body = self.loop_body(b)?;
                let cond = self.condition(c)?;
                Stmt::DoWhile {
                    body: Box::new(body),
                    cond,
                    unroll: *unroll,
                }
            }
            StmtKind::For(init, c, step, b, unroll) => {
                self.scopes.push(Scope::default());
                let r = (|| {
                    let mut i = Vec::new();
                    if let Some(init) = init {
                        self.stmt(init, &mut i)?;
                    }
                    let cond = match c {
                        Some(c) => Some(self.condition(c)?),
                        None => None,
                    };
                    let step = match step {
                        Some(e) => Some(self.expr_stmt(e)?),
                        None => None,
                    };
                    let body = self.loop_body(b)?;
                    Ok(Stmt::For {
                        init: i,
                        cond,
                        step,
                        body: Box::new(body),
                        unroll: *unroll,
                    })
                })();
                self.scopes.pop();
                r?
            }
            StmtKind::Switch(c, b) => {
                let cond = self.rvalue(c)?;
                if !cond.ty.is_integer() || cond.ty.is_vector() {
                    return err(
                        c.loc,
                        format!(
                            "statement requires expression of integer type ('{}' invalid)",
                            self.type_name(&cond.ty)
                        ),
                    );
                }
                let cond = self.promote(cond);
                self.ctx().switches.push(SwitchCtx {
                    ty: cond.ty.clone(),
                    cases: Vec::new(),
                    default: None,
                    seen: HashSet::new(),
                });
                let body = self.sub_stmt(b);
                let sw = self.ctx().switches.pop().expect("pushed");
                Stmt::Switch {
                    cond,
                    body: Box::new(body?),
                    cases: sw.cases,
                    default: sw.default,
                }
            }
            StmtKind::Case(e) => {
                let v = self.rvalue(e)?;
                let Some(sw_ty) = self
                    .f
                    .as_ref()
                    .and_then(|f| f.switches.last())
                    .map(|s| s.ty.clone())
                else {
                    return err(s.loc, "'case' statement not in switch statement");
                };
                let Some(c) = expr::const_int(&v).filter(|_| v.ty.is_integer()) else {
                    return err(e.loc, "expression is not an integer constant expression");
                };
                let bits = expr::wrap(c, &sw_ty) as u64;
                let bits = bits & expr::mask(&sw_ty);
                let ctx = self.ctx();
                let id = CaseId(ctx.next_case);
                ctx.next_case += 1;
                let sw = ctx.switches.last_mut().expect("checked");
                if !sw.seen.insert(bits) {
                    // clang's wording: the value converted to the switch's type.
                    let shown = expr::wrap(c, &sw_ty);
                    return err(e.loc, format!("duplicate case value '{shown}'"));
                }
                sw.cases.push((bits, id));
                Stmt::Case(id)
            }
            StmtKind::Default => {
                let ctx = self.ctx();
                let id = CaseId(ctx.next_case);
                ctx.next_case += 1;
                let Some(sw) = ctx.switches.last_mut() else {
                    return err(s.loc, "'default' statement not in switch statement");
                };
                if sw.default.is_some() {
                    return err(s.loc, "multiple default labels in one switch");
                }
                sw.default = Some(id);
                Stmt::Case(id)
            }
            StmtKind::Break => {
                let ctx = self.ctx();
                if ctx.loops == 0 && ctx.switches.is_empty() {
                    return err(s.loc, "'break' statement not in loop or switch statement");
                }
                Stmt::Break
            }
            StmtKind::Continue => {
                if self.ctx().loops == 0 {
                    return err(s.loc, "'continue' statement not in loop statement");
                }
                Stmt::Continue
            }
            StmtKind::Return(e) => {
                let ret = self.ctx().ret.clone();
                match (e, ret == Type::Void) {
                    (None, true) => Stmt::Return(None),
                    (None, false) => return err(s.loc, "non-void function should return a value"),
                    (Some(e), true) => {
                        let v = self.rvalue(e)?;
                        if v.ty != Type::Void {
                            return err(e.loc, "void function should not return a value");
                        }
                        Stmt::Return(Some(v))
                    }
                    (Some(e), false) => {
                        let v = self.rvalue(e)?;
                        Stmt::Return(Some(self.convert(v, &ret, expr::Ctx::Return)?))
                    }
                }
            }
            StmtKind::Empty => Stmt::Empty,
        };
        out.push(st);
        Ok(())
    }

    pub(super) fn loop_body(&mut self, b: &ast::Stmt) -> Result<Stmt> {
        self.ctx().loops += 1;
        // A `case` label inside a loop inside a switch belongs to that
        // switch, as in C (Duff's device); `break` there is the loop's.
        let r = self.sub_stmt(b);
        self.ctx().loops -= 1;
        r
    }

    pub(super) fn local_decls(
        &mut self,
        decls: &[ast::VarDeclAst],
        base: Option<&SynType>,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        if decls.is_empty() {
            if let Some(b) = base {
                self.resolve(b)?;
            }
            return Ok(());
        }
        for d in decls {
            let q = self.resolve(&d.ty)?;
            if d.is_typedef {
                self.name_anonymous(&q.ty, d.name);
                self.declare(d.name, Name::Typedef(q), d.loc)?;
                continue;
            }
            if d.is_extern {
                return err(
                    d.loc,
                    "extern declarations inside a function are not supported",
                );
            }
            if d.is_static {
                return err(
                    d.loc,
                    "static variables inside a function are not supported",
                );
            }
            let space = q.space.unwrap_or(AddrSpace::Private);
            let ctx = self.f.as_ref().expect("function");
            match space {
                AddrSpace::Private => {}
                AddrSpace::Local => {
                    if !ctx.is_kernel {
                        return err(d.loc, "non-kernel function variable cannot be declared in local address space");
                    }
                    if ctx.block_depth != 1 {
                        return err(d.loc, "variables in the local address space can only be declared in the outermost scope of a kernel function");
                    }
                    if d.init.is_some() {
                        return err(d.loc, "'__local' variable cannot have an initializer");
                    }
                }
                AddrSpace::Global | AddrSpace::Generic => {
                    return err(d.loc, format!("function scope variable cannot be declared in {} address space", space.name()));
                }
                AddrSpace::Constant => return err(d.loc, "'__constant' variables inside a function are not supported (declare them at program scope)"),
            }
            let mut ty = q.ty.clone();
            let init = match &d.init {
                Some(i) => Some(self.initializer(i, &mut ty)?),
                None => None,
            };
            self.check_object_type(&ty, d.loc)?;
            if q.konst && init.is_none() && space == AddrSpace::Private {
                return err(d.loc, "default initialization of an object of const type");
            }
            let vname = self.int.get(d.name).to_string();
            let ctx = self.ctx();
            let id = VarId(ctx.vars.len() as u32);
            ctx.vars.push(Var {
                name: vname,
                ty,
                space,
                konst: q.konst,
                volatile: q.volatile,
                is_param: false,
                address_taken: false,
                loc: d.loc,
            });
            if space == AddrSpace::Local {
                self.ctx().local_vars.push(id);
            }
            if let (true, Some(Init::Expr(e))) = (q.konst && space == AddrSpace::Private, &init) {
                let consts = &self.f.as_ref().expect("function").const_ints;
                let k = super::expr::const_int_with(e, &|id| {
                    consts.iter().find(|(v, _)| *v == id).map(|&(_, k)| k)
                });
                if let Some(k) = k.filter(|_| e.ty.is_integer()) {
                    self.ctx().const_ints.push((id, k));
                }
            }
            self.declare(d.name, Name::Var(id), d.loc)?;
            out.push(Stmt::Decl(id, init));
        }
        Ok(())
    }

    /// The initializer of aggregate `ty` from `items[*at..]`, C's brace
    /// elision: a member or element that is itself an array or struct
    /// takes as many of the items as it needs when its own item is not a
    /// brace list (`float m[2][2] = {1, 2, 3, 4}`). `whole`: the list is
    /// `ty`'s own (an unsized array takes every item; an elided one only
    /// what it holds). Missing members are zero.
    fn aggregate_items(
        &mut self,
        items: &[ast::Expr],
        at: &mut usize,
        ty: &mut Type,
        whole: bool,
    ) -> Result<Init> {
        let one = |s: &mut Self, at: &mut usize, t: &mut Type| -> Result<Init> {
            let it = &items[*at];
            let nested = matches!(it.kind, ast::ExprKind::InitList(_));
            if matches!(t, Type::Array(..) | Type::Record(_)) && !nested {
                s.aggregate_items(items, at, t, false)
            } else {
                *at += 1;
                s.initializer(it, t)
            }
        };
        match ty.clone() {
            Type::Array(elem, n) => {
                let mut out = Vec::new();
                while *at < items.len() && (out.len() < n as usize || n == 0 && whole) {
                    let mut et = (*elem).clone();
                    out.push(one(self, at, &mut et)?);
                }
                let n = if n == 0 { out.len().max(1) as u32 } else { n };
                out.resize(n as usize, Init::Zero);
                *ty = Type::Array(elem, n);
                Ok(Init::List(out))
            }
            Type::Record(r) => {
                let rec = self.records.get(r).clone();
                let max = if rec.is_union { 1 } else { rec.fields.len() };
                let mut out = Vec::new();
                for f in rec.fields.iter().take(max) {
                    if *at >= items.len() {
                        break;
                    }
                    let mut ft = f.ty.clone();
                    out.push(one(self, at, &mut ft)?);
                }
                out.resize(max, Init::Zero);
                Ok(Init::List(out))
            }
            _ => unreachable!("only aggregates"),
        }
    }

    /// Checks an initializer against `ty` (an array without a size takes it from the list).
    pub(super) fn initializer(&mut self, e: &ast::Expr, ty: &mut Type) -> Result<Init> {
        let ast::ExprKind::InitList(items) = &e.kind else {
            if let Type::Array(..) = ty {
                return err(e.loc, "array initializer must be an initializer list");
            }
            let v = self.rvalue(e)?;
            return Ok(Init::Expr(self.convert(v, ty, expr::Ctx::Init)?));
        };
        match ty.clone() {
            Type::Array(..) | Type::Record(_) => {
                let mut at = 0;
                let init = self.aggregate_items(items, &mut at, ty, true)?;
                if let Some(extra) = items.get(at) {
                    let what = if matches!(ty, Type::Array(..)) {
                        "array"
                    } else {
                        "struct"
                    };
                    return err(extra.loc, format!("excess elements in {what} initializer"));
                }
                Ok(init)
            }
            Type::Vector(s, n) => {
                let mut elems = Vec::new();
                for it in items {
                    let v = self.rvalue(it)?;
                    elems.push(v);
                }
                let lit = self.vector_literal(Type::Vector(s, n), elems, e.loc, true)?;
                Ok(Init::Expr(lit))
            }
            t => {
                if items.len() != 1 {
                    return err(
                        e.loc,
                        format!(
                            "initializer list for scalar type '{}' must have one element",
                            self.type_name(&t)
                        ),
                    );
                }
                let v = self.rvalue(&items[0])?;
                Ok(Init::Expr(self.convert(v, &t, expr::Ctx::Init)?))
            }
        }
    }
}
