//! Linking: copies a device-library function, and every library function it
//! calls, into the translation unit being checked. The copies get new
//! [`FuncId`]s (the library's calls are renumbered) and every location of
//! the copy becomes the user's call site, so an error while lowering the
//! library code points at the call that brought it in.

use super::super::diag::Loc;
use super::super::tast::{Expr, ExprKind, FuncId, Function, Init, Stmt};
use super::Library;

/// Makes `lib`'s function `id` (and its callees) part of `dest`, reusing a
/// copy already there (library names are reserved, so a function of that
/// name can only be an earlier copy). Returns the copy's id in `dest`.
pub(crate) fn link(lib: &Library, id: FuncId, dest: &mut Vec<Function>, at: Loc) -> FuncId {
    let name = &lib.tu.functions[id.0 as usize].name;
    if let Some(i) = dest.iter().position(|f| &f.name == name) {
        return FuncId(i as u32);
    }
    // Callees first (the library's call graph has no cycles: sema refused them).
    let callees: Vec<FuncId> = lib.tu.functions[id.0 as usize]
        .calls
        .iter()
        .map(|&(c, _)| c)
        .collect();
    let mut map: Vec<(FuncId, FuncId)> = Vec::new();
    for c in callees {
        if !map.iter().any(|m| m.0 == c) {
            let new = link(lib, c, dest, at);
            map.push((c, new));
        }
    }
    let mut f = lib.tu.functions[id.0 as usize].clone();
    let remap = |old: FuncId| map.iter().find(|m| m.0 == old).map_or(old, |m| m.1);
    f.loc = at;
    for v in &mut f.vars {
        v.loc = at;
    }
    for c in &mut f.calls {
        *c = (remap(c.0), at);
    }
    if let Some(body) = &mut f.body {
        for s in body {
            stmt(s, &remap, at);
        }
    }
    dest.push(f);
    FuncId(dest.len() as u32 - 1)
}

fn stmt(s: &mut Stmt, remap: &dyn Fn(FuncId) -> FuncId, at: Loc) {
    match s {
        Stmt::Expr(e) | Stmt::Return(Some(e)) => expr(e, remap, at),
        Stmt::Decl(_, Some(i)) => init(i, remap, at),
        Stmt::Decl(_, None) | Stmt::Return(None) => {}
        Stmt::Block(list) => list.iter_mut().for_each(|s| stmt(s, remap, at)),
        Stmt::If(c, t, e) => {
            expr(c, remap, at);
            stmt(t, remap, at);
            if let Some(e) = e {
                stmt(e, remap, at);
            }
        }
        Stmt::While { cond, body, .. } | Stmt::DoWhile { body, cond, .. } => {
            expr(cond, remap, at);
            stmt(body, remap, at);
        }
        Stmt::For {
            init,
            cond,
            step,
            body,
            ..
        } => {
            init.iter_mut().for_each(|s| stmt(s, remap, at));
            for e in [cond, step].into_iter().flatten() {
                expr(e, remap, at);
            }
            stmt(body, remap, at);
        }
        Stmt::Switch { cond, body, .. } => {
            expr(cond, remap, at);
            stmt(body, remap, at);
        }
        Stmt::Case(_) | Stmt::Break | Stmt::Continue | Stmt::Empty => {}
    }
}

fn init(i: &mut Init, remap: &dyn Fn(FuncId) -> FuncId, at: Loc) {
    match i {
        Init::Expr(e) => expr(e, remap, at),
        Init::List(l) => l.iter_mut().for_each(|i| init(i, remap, at)),
        Init::Zero => {}
    }
}

fn expr(e: &mut Expr, remap: &dyn Fn(FuncId) -> FuncId, at: Loc) {
    e.loc = at;
    match &mut e.kind {
        ExprKind::IntConst(_)
        | ExprKind::FloatConst(_)
        | ExprKind::Var(_)
        | ExprKind::Global(_) => {}
        ExprKind::Unary(_, a)
        | ExprKind::Cast(_, a)
        | ExprKind::AddrOf(a)
        | ExprKind::Deref(a)
        | ExprKind::Member(a, _)
        | ExprKind::Swizzle(a, _) => expr(a, remap, at),
        ExprKind::IncDec { operand, .. } => expr(operand, remap, at),
        ExprKind::Binary(_, a, b)
        | ExprKind::PtrOffset(a, b)
        | ExprKind::PtrDiff(a, b)
        | ExprKind::Assign(a, b)
        | ExprKind::VecIndex(a, b)
        | ExprKind::Comma(a, b)
        | ExprKind::CompoundAssign { lhs: a, rhs: b, .. } => {
            expr(a, remap, at);
            expr(b, remap, at);
        }
        ExprKind::Cond { cond, then, els } => {
            expr(cond, remap, at);
            expr(then, remap, at);
            expr(els, remap, at);
        }
        ExprKind::VectorLiteral(list) | ExprKind::Builtin(_, list) => {
            list.iter_mut().for_each(|e| expr(e, remap, at))
        }
        ExprKind::Call(f, list) => {
            *f = remap(*f);
            list.iter_mut().for_each(|e| expr(e, remap, at));
        }
    }
}
