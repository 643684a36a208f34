//! `switch` as structured code.
//!
//! The back end takes structured control flow only (every branch joins at
//! its immediate post-dominator, no block reached from two regions), so a
//! `switch` is not a jump table or a chain of gotos into a shared body. It
//! becomes a run of guarded segments with an `i1` variable `active` (the
//! lanes executing the body: entered at a label and not yet broken out):
//!
//! ```text
//! active = false
//! segment k (the statements from label k to label k+1):
//!     active = active | (v == case values of k)        // default: v matches no case
//!     if (active) { statements of k }                  // break: active = false
//! ```
//!
//! Fall-through is `active` staying true into the next segment; `break`
//! sets it false and ends its statement list, and an enclosing list guards
//! its own rest with `if (active)` (`Lowerer::stmts`). With a divergent
//! selector each segment is an EXEC-masked region (clang's divergent switch
//! is such a chain too); with a uniform one, scalar branches. A segment
//! that ends in a break leaves `active` the same constant `false` on both
//! edges, so the join needs no parameter and the next segment tests its own
//! labels alone.
//!
//! `continue` inside a switch in a loop leaves the switch like `break` and
//! sets a per-lane `continued` flag; after the switch, `if (continued)
//! continue;` takes those lanes to the loop's next iteration.
//!
//! Labels inside nested statements of the body (Duff's device):
//! `switch_nested.rs`.

use super::{unsupported, Lowerer, VarKey, R};
use crate::front::diag::Loc;
use crate::front::tast::{self, CaseId, Stmt};
use crate::ir::{self, Type, Value};

/// A `switch` being lowered.
pub(super) struct SwitchCtx {
    /// The frame and loop depth it is in: a `break` at that depth is its own.
    frame: u32,
    loops: usize,
    /// The environment key of its `active` flag.
    pub(super) key: VarKey,
    /// The one `false` (defined before the switch) every break writes.
    pub(super) off: Value,
    /// In a loop of this frame: the key of the `continued` flag (lanes that
    /// left the switch by `continue`; they skip the rest of the loop body).
    continued: Option<VarKey>,
}

impl Lowerer<'_> {
    /// The innermost breakable statement is a `switch` of this frame.
    pub(super) fn switch_innermost(&self) -> bool {
        self.switches
            .last()
            .is_some_and(|s| s.frame == self.frame().id && s.loops == self.loops.len())
    }

    /// `break` out of the innermost switch: `active` becomes false and the
    /// rest of the statement list is dead on this path.
    pub(super) fn switch_break(&mut self) {
        let s = self.switches.last().expect("checked by the caller");
        let (key, off) = (s.key, s.off);
        self.env.insert(key, vec![off]);
        self.skip_rest = true;
    }

    /// `continue` inside the innermost switch: the lane leaves the switch
    /// like a `break` and is flagged, so that after the switch it continues
    /// the loop (`if (continued) continue;`).
    pub(super) fn switch_continue(&mut self, loc: Loc) -> R<()> {
        let s = self.switches.last().expect("checked by the caller");
        let (key, off, continued) = (s.key, s.off, s.continued);
        let Some(flag) = continued else {
            return unsupported(loc, "`continue` outside a loop");
        };
        let on = self.b().iconst(Type::I1, 1);
        self.env.insert(key, vec![off]);
        self.env.insert(flag, vec![on]);
        self.skip_rest = true;
        Ok(())
    }

    /// `s` may break out of the innermost switch (a `break` not inside a
    /// nested loop or switch).
    pub(super) fn breaks_switch(&self, s: &Stmt) -> bool {
        self.switch_innermost() && has_switch_break(s)
    }

    /// The statements after one that may have broken out of the switch, run
    /// where `active` still holds.
    pub(super) fn guard_switch_rest(&mut self, rest: &[Stmt]) -> R<()> {
        let key = self.switches.last().expect("checked by the caller").key;
        let active = self.env[&key][0];
        match self.func.iconst_value(active) {
            Some(0) => Ok(()),
            Some(_) => self.stmts(rest),
            None => self.diamond(active, rest, &[]),
        }
    }

    /// Lowers `switch (cond) body`.
    pub(super) fn switch(
        &mut self,
        cond: &tast::Expr,
        body: &Stmt,
        cases: &[(u64, CaseId)],
        default: Option<CaseId>,
    ) -> R<()> {
        let list = match body {
            Stmt::Block(list) => list.as_slice(),
            s => std::slice::from_ref(s),
        };
        if list
            .iter()
            .any(|s| !matches!(s, Stmt::Case(_)) && has_label(s))
        {
            return self.switch_nested(cond, list, cases, default);
        }
        let v = self.rvalue(cond)?[0];
        let ty = self.func.ty(v);
        let outer = self.env.clone();
        // Statements before the first label never run; a declaration there
        // (or in any segment) stays in scope for the later ones, so every
        // top-level declaration is defined (zero) on every path from here.
        for s in list {
            if let Stmt::Decl(id, _) = s {
                let var = &self.tfunc().vars[id.0 as usize];
                let in_memory = var.address_taken
                    || matches!(
                        var.ty,
                        crate::front::types::Type::Array(..) | crate::front::types::Type::Record(_)
                    );
                if !in_memory && var.space != crate::front::types::AddrSpace::Local {
                    let (t, loc) = (var.ty.clone(), var.loc);
                    let z = self.zero(&t, loc)?;
                    let key = self.key(*id);
                    self.env.insert(key, z);
                }
            }
        }
        let (key, off, continued) = self.push_switch();
        // With a default label and no break, every lane still here when the
        // last segment starts has entered and fallen through: it runs
        // unguarded (so a switch whose every segment returns ends the path).
        let always_last = default.is_some() && !list.iter().any(has_switch_break);
        let starts: Vec<usize> = (0..list.len())
            .filter(|&i| {
                matches!(list[i], Stmt::Case(_))
                    && (i == 0 || !matches!(list[i - 1], Stmt::Case(_)))
            })
            .collect();
        let r = (|| {
            for (n, &start) in starts.iter().enumerate() {
                if self.terminated {
                    break;
                }
                let end = starts.get(n + 1).copied().unwrap_or(list.len());
                let labels_end = (start..end)
                    .find(|&i| !matches!(list[i], Stmt::Case(_)))
                    .unwrap_or(end);
                let labels: Vec<CaseId> = list[start..labels_end]
                    .iter()
                    .map(|s| match s {
                        Stmt::Case(id) => *id,
                        _ => unreachable!("labels only"),
                    })
                    .collect();
                let enter = self.enter_condition(v, ty, &labels, cases, default, cond.loc)?;
                let before = self.env[&key][0];
                let active = if before == off {
                    enter
                } else {
                    self.b().binary(ir::BinaryOp::Or, before, enter)
                };
                self.env.insert(key, vec![active]);
                let seg = &list[labels_end..end];
                if n + 1 == starts.len() && always_last {
                    self.stmts(seg)?;
                } else {
                    self.guard_segment(active, seg, off, key)?;
                }
            }
            Ok(())
        })();
        self.finish_switch(r, continued, &outer)
    }

    /// A switch's flags (`active` false, and in a loop `continued` false)
    /// and its context pushed: its `active` key, the `false` every break
    /// writes, the `continued` key.
    pub(super) fn push_switch(&mut self) -> (VarKey, Value, Option<VarKey>) {
        let off = self.b().iconst(Type::I1, 0);
        let key = (self.frame().id, u32::MAX - 2 - self.switches.len() as u32);
        self.env.insert(key, vec![off]);
        let continued = (self.loops.len() > self.frame().loop_base).then(|| {
            let flag = (self.frame().id, u32::MAX - 66 - self.switches.len() as u32);
            self.env.insert(flag, vec![off]);
            flag
        });
        self.switches.push(SwitchCtx {
            frame: self.frame().id,
            loops: self.loops.len(),
            key,
            off,
            continued,
        });
        (key, off, continued)
    }

    /// After the body (`r`): the context popped, the switch's own variables
    /// out of scope, and lanes that took a `continue` inside it continue
    /// the loop.
    pub(super) fn finish_switch(
        &mut self,
        r: R<()>,
        continued: Option<VarKey>,
        outer: &super::Env,
    ) -> R<()> {
        self.switches.pop();
        self.skip_rest = false;
        r?;
        let continued = continued.and_then(|flag| self.env.get(&flag).map(|v| v[0]));
        self.env.retain(|k, _| outer.contains_key(k));
        match continued.map(|c| (c, self.func.iconst_value(c))) {
            Some((_, Some(0))) | None => Ok(()),
            Some((_, Some(_))) => self.stmt(&Stmt::Continue),
            Some((c, None)) if !self.terminated => self.diamond(c, &[Stmt::Continue], &[]),
            Some(_) => Ok(()),
        }
    }

    /// `if (active) { seg }`, where the path around it keeps `active` false.
    pub(super) fn guard_segment(
        &mut self,
        active: Value,
        seg: &[Stmt],
        off: Value,
        key: VarKey,
    ) -> R<()> {
        match self.func.iconst_value(active) {
            Some(0) => return Ok(()),
            Some(_) => return self.stmts(seg),
            None => {}
        }
        let (tb, eb) = (self.func.create_block(), self.func.create_block());
        self.b().brif(active, tb, &[], eb, &[]);
        let env0 = self.env.clone();
        let mut incoming = Vec::new();
        self.cur = tb;
        self.terminated = false;
        self.stmts(seg)?;
        self.skip_rest = false;
        if !self.terminated {
            incoming.push(self.leave(Vec::new()));
        }
        self.cur = eb;
        self.env = env0;
        self.env.insert(key, vec![off]);
        self.terminated = false;
        incoming.push(self.leave(Vec::new()));
        self.join(incoming);
        Ok(())
    }

    /// The lanes that enter at a segment with `labels`: the selector equals
    /// one of its case values, or (the default label) none of the switch's.
    pub(super) fn enter_condition(
        &mut self,
        v: Value,
        ty: Type,
        labels: &[CaseId],
        cases: &[(u64, CaseId)],
        default: Option<CaseId>,
        loc: Loc,
    ) -> R<Value> {
        if labels.iter().any(|l| Some(*l) == default) {
            // Also the segment's own case labels enter it, but they are
            // among the values the default excludes: "matches none of the
            // other segments' values" is the union.
            let mut acc: Option<Value> = None;
            for &(bits, id) in cases {
                if labels.contains(&id) {
                    continue;
                }
                let c = self.b().iconst(ty, case_imm(ty, bits));
                let ne = self.b().icmp(ir::IntCC::Ne, v, c);
                acc = Some(match acc {
                    None => ne,
                    Some(a) => self.b().binary(ir::BinaryOp::And, a, ne),
                });
            }
            return Ok(acc.unwrap_or_else(|| self.b().iconst(Type::I1, 1)));
        }
        let mut acc: Option<Value> = None;
        for &(bits, id) in cases {
            if !labels.contains(&id) {
                continue;
            }
            let c = self.b().iconst(ty, case_imm(ty, bits));
            let eq = self.b().icmp(ir::IntCC::Eq, v, c);
            acc = Some(match acc {
                None => eq,
                Some(a) => self.b().binary(ir::BinaryOp::Or, a, eq),
            });
        }
        match acc {
            Some(a) => Ok(a),
            None => unsupported(loc, "a `switch` label that is neither `case` nor `default`"),
        }
    }
}

/// A `break` of the enclosing switch, or a `continue` that leaves it, inside
/// `s` (not of a nested loop or switch).
fn has_switch_break(s: &Stmt) -> bool {
    match s {
        Stmt::Break | Stmt::Continue => true,
        Stmt::Block(l) => l.iter().any(has_switch_break),
        Stmt::If(_, t, e) => has_switch_break(t) || e.as_deref().is_some_and(has_switch_break),
        _ => false,
    }
}

/// A `case`/`default` label of the enclosing switch inside `s`.
pub(super) fn has_label(s: &Stmt) -> bool {
    match s {
        Stmt::Case(_) => true,
        Stmt::Block(l) => l.iter().any(has_label),
        Stmt::If(_, t, e) => has_label(t) || e.as_deref().is_some_and(has_label),
        Stmt::While { body, .. } | Stmt::DoWhile { body, .. } | Stmt::For { body, .. } => {
            has_label(body)
        }
        _ => false,
    }
}

/// A case value's bits as the IR constant of the selector's type (sign
/// extended from its width, as the lowering writes integer constants).
fn case_imm(ty: Type, bits: u64) -> i64 {
    match ty {
        Type::I64 => bits as i64,
        _ => bits as u32 as i32 as i64,
    }
}
