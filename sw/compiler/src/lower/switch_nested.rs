//! `case` labels inside nested statements of a `switch` (a label inside a
//! block, an `if` or a loop of the switch body, as in Duff's device), which
//! clang accepts.
//!
//! The back end takes structured control flow only, so a jump into the
//! middle of an `if` or a loop is not a branch. The body is walked once in
//! program order, as `switch.rs` walks a flat body, with two per-lane flags:
//! `active` (the lane runs the statements here) and `entered` (the lane
//! has passed its label, so it never enters again). Each label sets
//! `active |= !entered && selector matches; entered |= that`; every run of
//! statements without labels is guarded by `active`, and a statement that
//! holds labels is walked inside:
//!
//! - a block: its statements, the same way;
//! - `if (c) T else E`: `c` is evaluated by the active lanes only (`t`,
//!   false elsewhere); T runs with `active && t`, E with `active && !t`
//!   (lanes entering at a label inside either join there), and afterwards
//!   `active` is the union of what left T and E;
//! - a loop: its condition is `pending || (active && c)`, where `pending` is
//!   "not entered and the selector matches a label inside this loop" (those
//!   lanes go in without testing `c`, which they must not evaluate: `--n`
//!   in Duff's device), the step runs for active lanes only, and the body
//!   is walked; a lane enters at its label in the first iteration. Such a
//!   loop always leaves through its break flag (`loops.rs`), because its
//!   `break`s sit inside the `active` guards.
//!
//! A divergent selector makes this a wave running lanes that entered at
//! different labels together (clang-19 compiles such a Duff's device into
//! irreducible control flow and gets it wrong: docs/compiler.md).

use super::{switch, unsupported, Lowerer, VarKey, R};
use crate::front::diag::Loc;
use crate::front::tast::{self, CaseId, Stmt};
use crate::ir::{self, Type, Value};

/// A `switch` whose labels are nested, being lowered.
pub(super) struct NestedLabels {
    /// Its frame and its depth among `Lowerer::switches` (its own context
    /// is the last one while its body is walked).
    frame: u32,
    depth: usize,
    /// The selector and its IR type.
    sel: Value,
    ty: Type,
    /// The key of the `entered` flag.
    entered: VarKey,
    cases: Vec<(u64, CaseId)>,
    default: Option<CaseId>,
    loc: Loc,
}

impl Lowerer<'_> {
    /// The innermost statement being lowered is in the body of a switch
    /// with nested labels, at its own level (not in a nested switch or an
    /// inlined call).
    pub(super) fn in_labelled_switch(&self) -> bool {
        self.nested_labels
            .last()
            .is_some_and(|n| n.frame == self.frame().id && n.depth == self.switches.len())
    }

    /// Lowers `switch (cond) { list }` whose labels are nested.
    pub(super) fn switch_nested(
        &mut self,
        cond: &tast::Expr,
        list: &[Stmt],
        cases: &[(u64, CaseId)],
        default: Option<CaseId>,
    ) -> R<()> {
        let sel = self.rvalue(cond)?[0];
        let ty = self.func.ty(sel);
        let outer = self.env.clone();
        // Every declaration of the body is defined (zero) on every path from
        // here: the walk guards its initialisation, and the joins keep only
        // variables defined on each edge.
        let mut decls = Vec::new();
        collect_decls(list, &mut decls);
        for id in decls {
            let var = &self.tfunc().vars[id.0 as usize];
            let in_memory = var.address_taken
                || matches!(
                    var.ty,
                    crate::front::types::Type::Array(..) | crate::front::types::Type::Record(_)
                );
            if !in_memory && var.space != crate::front::types::AddrSpace::Local {
                let (t, loc) = (var.ty.clone(), var.loc);
                let z = self.zero(&t, loc)?;
                let key = self.key(id);
                self.env.insert(key, z);
            }
        }
        let (_, off, continued) = self.push_switch();
        let entered = (self.frame().id, u32::MAX - 130 - self.switches.len() as u32);
        self.env.insert(entered, vec![off]);
        self.nested_labels.push(NestedLabels {
            frame: self.frame().id,
            depth: self.switches.len(),
            sel,
            ty,
            entered,
            cases: cases.to_vec(),
            default,
            loc: cond.loc,
        });
        let r = self.walk_labelled(list);
        self.nested_labels.pop();
        self.finish_switch(r, continued, &outer)
    }

    /// Statements of a body with labels: runs without labels under
    /// `active`, the others walked.
    pub(super) fn walk_labelled(&mut self, list: &[Stmt]) -> R<()> {
        let mut start = None;
        for (i, s) in list.iter().enumerate() {
            if self.terminated {
                break;
            }
            if matches!(s, Stmt::Case(_)) || switch::has_label(s) {
                if let Some(st) = start.take() {
                    self.guard_run(&list[st..i])?;
                }
                self.labelled_stmt(s)?;
            } else if start.is_none() {
                start = Some(i);
            }
        }
        match start {
            Some(st) if !self.terminated => self.guard_run(&list[st..]),
            _ => Ok(()),
        }
    }

    /// `if (active) { seg }`.
    fn guard_run(&mut self, seg: &[Stmt]) -> R<()> {
        let (key, off) = self.switch_flag();
        let active = self.env[&key][0];
        self.guard_segment(active, seg, off, key)?;
        self.skip_rest = false;
        Ok(())
    }

    /// The innermost switch's `active` key and its `false`.
    fn switch_flag(&self) -> (VarKey, Value) {
        let s = self.switches.last().expect("inside a switch");
        (s.key, s.off)
    }

    fn labelled_stmt(&mut self, s: &Stmt) -> R<()> {
        let loc = self.nested_labels.last().expect("walking").loc;
        match s {
            Stmt::Case(id) => self.enter_label(*id),
            Stmt::Block(list) => self.walk_labelled(list),
            Stmt::If(c, t, e) => self.labelled_if(c, t, e.as_deref()),
            Stmt::While { cond, body, unroll } => {
                self.labelled_loop = Some(labels_in(body));
                self.lower_loop(&[], Some(cond), None, body, false, *unroll)
            }
            Stmt::DoWhile { body, cond, unroll } => {
                self.labelled_loop = Some(labels_in(body));
                self.lower_loop(&[], Some(cond), None, body, true, *unroll)
            }
            Stmt::For {
                init,
                cond,
                step,
                body,
                unroll,
            } => {
                self.guard_run(init)?;
                self.labelled_loop = Some(labels_in(body));
                self.lower_loop(&[], cond.as_ref(), step.as_ref(), body, false, *unroll)
            }
            _ => unsupported(loc, "a `case` label in this statement"),
        }
    }

    /// A label: the lanes whose selector matches and that have not entered
    /// yet start running here.
    pub(super) fn enter_label(&mut self, id: CaseId) -> R<()> {
        let (key, _) = self.switch_flag();
        let enter = self.pending(&[id])?;
        let n = self.nested_labels.last().expect("walking");
        let entered_key = n.entered;
        let (active, entered) = (self.env[&key][0], self.env[&entered_key][0]);
        let mut b = self.b();
        let active = b.binary(ir::BinaryOp::Or, active, enter);
        let entered = b.binary(ir::BinaryOp::Or, entered, enter);
        self.env.insert(key, vec![active]);
        self.env.insert(entered_key, vec![entered]);
        Ok(())
    }

    /// Lanes that have not entered and whose selector matches one of `labels`.
    fn pending(&mut self, labels: &[CaseId]) -> R<Value> {
        let n = self.nested_labels.last().expect("walking");
        let (sel, ty, cases, default, loc, entered_key) =
            (n.sel, n.ty, n.cases.clone(), n.default, n.loc, n.entered);
        let matches = self.enter_condition(sel, ty, labels, &cases, default, loc)?;
        let entered = self.env[&entered_key][0];
        let mut b = self.b();
        let one = b.iconst(Type::I1, 1);
        let fresh = b.binary(ir::BinaryOp::Xor, entered, one);
        Ok(b.binary(ir::BinaryOp::And, fresh, matches))
    }

    /// `if (c) t else e` holding labels.
    fn labelled_if(&mut self, c: &tast::Expr, t: &Stmt, e: Option<&Stmt>) -> R<()> {
        let (key, _) = self.switch_flag();
        let saved = self.env[&key][0];
        let taken = self.guarded_cond(saved, c)?;
        let mut b = self.b();
        let one = b.iconst(Type::I1, 1);
        let on_then = b.binary(ir::BinaryOp::And, saved, taken);
        let not_taken = b.binary(ir::BinaryOp::Xor, taken, one);
        let on_else = b.binary(ir::BinaryOp::And, saved, not_taken);
        self.env.insert(key, vec![on_then]);
        self.labelled_or_guarded(t)?;
        let after_then = self.env[&key][0];
        self.env.insert(key, vec![on_else]);
        if let Some(e) = e {
            self.labelled_or_guarded(e)?;
        }
        let after_else = self.env[&key][0];
        let both = self.b().binary(ir::BinaryOp::Or, after_then, after_else);
        self.env.insert(key, vec![both]);
        Ok(())
    }

    fn labelled_or_guarded(&mut self, s: &Stmt) -> R<()> {
        if matches!(s, Stmt::Case(_)) || switch::has_label(s) {
            self.labelled_stmt(s)
        } else {
            self.guard_run(std::slice::from_ref(s))
        }
    }

    /// `c` evaluated by the lanes in `active` only; false in the others.
    fn guarded_cond(&mut self, active: Value, c: &tast::Expr) -> R<Value> {
        let tmp = (self.frame().id, u32::MAX - 194 - self.switches.len() as u32);
        let off = self.b().iconst(Type::I1, 0);
        match self.func.iconst_value(active) {
            Some(0) => return Ok(off),
            Some(_) => return self.cond(c),
            None => {}
        }
        self.env.insert(tmp, vec![off]);
        let (tb, eb) = (self.func.create_block(), self.func.create_block());
        self.b().brif(active, tb, &[], eb, &[]);
        let env0 = self.env.clone();
        self.cur = tb;
        self.terminated = false;
        let v = self.cond(c)?;
        self.env.insert(tmp, vec![v]);
        let mut incoming = vec![self.leave(Vec::new())];
        self.cur = eb;
        self.env = env0;
        self.terminated = false;
        incoming.push(self.leave(Vec::new()));
        self.join(incoming);
        let v = self.env[&tmp][0];
        self.env.remove(&tmp);
        Ok(v)
    }

    /// The condition of a loop holding `labels`: the lanes still to enter
    /// at one of them go in untested; active lanes test `c`.
    pub(super) fn labelled_loop_cond(&mut self, c: &tast::Expr, labels: &[CaseId]) -> R<Value> {
        let (key, _) = self.switch_flag();
        let pending = self.pending(labels)?;
        let active = self.env[&key][0];
        let t = self.guarded_cond(active, c)?;
        Ok(self.b().binary(ir::BinaryOp::Or, pending, t))
    }

    /// A loop step in a labelled switch: for active lanes only.
    pub(super) fn labelled_step(&mut self, step: &tast::Expr) -> R<()> {
        self.guard_run(&[Stmt::Expr(step.clone())])
    }
}

/// The labels of the enclosing switch inside `s` (not in a nested switch).
fn labels_in(s: &Stmt) -> Vec<CaseId> {
    let mut out = Vec::new();
    fn walk(s: &Stmt, out: &mut Vec<CaseId>) {
        match s {
            Stmt::Case(id) => out.push(*id),
            Stmt::Block(l) => l.iter().for_each(|s| walk(s, out)),
            Stmt::If(_, t, e) => {
                walk(t, out);
                if let Some(e) = e {
                    walk(e, out);
                }
            }
            Stmt::While { body, .. } | Stmt::DoWhile { body, .. } | Stmt::For { body, .. } => {
                walk(body, out)
            }
            _ => {}
        }
    }
    walk(s, &mut out);
    out
}

/// Every declaration in `list` (in blocks, conditionals, loops and `for`
/// initialisers; not in nested switches, which zero their own).
fn collect_decls(list: &[Stmt], out: &mut Vec<tast::VarId>) {
    for s in list {
        collect_decl(s, out);
    }
}

fn collect_decl(s: &Stmt, out: &mut Vec<tast::VarId>) {
    match s {
        Stmt::Decl(id, _) => out.push(*id),
        Stmt::Block(l) => collect_decls(l, out),
        Stmt::If(_, t, e) => {
            collect_decl(t, out);
            if let Some(e) = e {
                collect_decl(e, out);
            }
        }
        Stmt::While { body, .. } | Stmt::DoWhile { body, .. } => collect_decl(body, out),
        Stmt::For { init, body, .. } => {
            collect_decls(init, out);
            collect_decl(body, out);
        }
        _ => {}
    }
}
