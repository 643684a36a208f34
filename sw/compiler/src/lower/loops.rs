//! Loops: the header/body/continue/exit blocks of `for`, `while` and
//! `do`, and the flags that let `break`, `continue` and `return` leave a
//! loop from inside nested conditionals (the back end wants one exit
//! block per loop).

use super::{return_keys, return_of, Env, Incoming, LoopCtx, Lowerer, R};
use crate::front::diag::Loc;
use crate::front::tast::{self, Stmt};
use crate::front::types as ft;
use crate::ir::{self, Builder, Type, Value};

impl Lowerer<'_> {
    /// A loop: `init` once, then `header: cond? → body → continue: step →
    /// header`; a do-while tests at the bottom.
    pub(super) fn lower_loop(
        &mut self,
        init: &[Stmt],
        cond: Option<&tast::Expr>,
        step: Option<&tast::Expr>,
        body: &Stmt,
        bottom_test: bool,
        unroll: Option<Option<u32>>,
    ) -> R<()> {
        // A loop holding labels of a switch (`switch_nested.rs`): its
        // condition lets the lanes still to enter in, its step runs for
        // active lanes, and its breaks (inside `active` guards) use the flag.
        let labelled = self.labelled_loop.take();
        let outer = self.env.clone();
        self.stmts(init)?;
        if self.terminated {
            return Ok(());
        }
        // No frame or variable has this key: one flag per loop depth.
        let break_flag = (needs_break_flag(body) || labelled.is_some()).then(|| {
            let k = (u32::MAX - 2, self.loops.len() as u32);
            let zero = self.b().iconst(Type::I32, 0);
            self.env.insert(k, vec![zero]);
            k
        });
        // Every variable in scope gets a header parameter (unused ones are
        // cheap: the optimiser and the register allocator drop them).
        let header = self.func.create_block();
        if let Some(n) = unroll {
            self.func.unroll_hints.push((header, n));
        }
        let mut args = Vec::new();
        let mut henv = Env::new();
        for (k, vals) in &self.env {
            let mut hv = Vec::new();
            for &v in vals {
                let ty = self.func.ty(v);
                hv.push(self.func.append_block_param(header, ty));
                args.push(v);
            }
            henv.insert(*k, hv);
        }
        self.b().jump(header, &args);
        self.cur = header;
        self.env = henv.clone();
        self.loops.push(LoopCtx {
            break_flag,
            ..LoopCtx::default()
        });
        if !bottom_test {
            if let Some(c) = cond {
                let c = match &labelled {
                    Some(l) => self.labelled_loop_cond(c, l)?,
                    None => self.cond(c)?,
                };
                self.leave_loop_when(c, false);
            }
        }
        self.loop_body_top = matches!(body, Stmt::Block(_));
        self.stmt(body)?;
        self.loop_body_top = false;
        if !self.terminated {
            let inc = self.leave(Vec::new());
            self.loops.last_mut().expect("pushed").continues.push(inc);
        }
        let ctx = self.loops.pop().expect("pushed");
        let returned = ctx.returned;
        let mut breaks = ctx.breaks;
        self.join(ctx.continues);
        if let (Some(k), false) = (break_flag, self.terminated) {
            // The lanes that broke leave here, before the step, all
            // together: the one exit the back end takes from the latch.
            let flag = self.env[&k][0];
            let mut b = self.b();
            let zero = b.iconst(Type::I32, 0);
            let c = b.icmp(ir::IntCC::Ne, flag, zero);
            let rest = self.func.create_block();
            breaks.push(Incoming {
                block: self.cur,
                env: self.env.clone(),
                extra: Vec::new(),
                branch: Some((c, rest, true)),
            });
            self.cur = rest;
        }
        if !self.terminated {
            if let Some(s) = step {
                if labelled.is_some() {
                    self.labelled_step(s)?;
                } else {
                    self.rvalue(s)?;
                }
            }
            let mut latch_from = self.cur;
            if bottom_test {
                if let Some(c) = cond {
                    let c = match &labelled {
                        Some(l) => self.labelled_loop_cond(c, l)?,
                        None => self.cond(c)?,
                    };
                    let latch = self.func.create_block();
                    breaks.push(Incoming {
                        block: self.cur,
                        env: self.env.clone(),
                        extra: Vec::new(),
                        branch: Some((c, latch, false)),
                    });
                    latch_from = latch;
                }
            }
            let mut back = Vec::new();
            for (k, hv) in &henv {
                let now = &self.env[k];
                debug_assert_eq!(now.len(), hv.len());
                back.extend_from_slice(now);
            }
            let mut b = Builder::new(&mut self.func);
            b.switch_to(latch_from);
            b.jump(header, &back);
        }
        self.join(breaks);
        // Variables declared in `init` go out of scope with the loop.
        self.env.retain(|k, _| outer.contains_key(k));
        if returned && !self.terminated {
            self.after_loop_return()?;
        }
        Ok(())
    }

    /// The innermost loop of this frame leaves through its break flag
    /// ([`needs_break_flag`]).
    pub(super) fn flagged_loop(&self) -> bool {
        self.loops.len() > self.frame().loop_base
            && self.loops.last().is_some_and(|l| l.break_flag.is_some())
    }

    /// A flagged exit of the innermost loop: set its flag, go to its
    /// continue join.
    pub(super) fn flagged_exit(&mut self) {
        let k = self
            .loops
            .last()
            .and_then(|l| l.break_flag)
            .expect("a flagged loop");
        let one = self.b().iconst(Type::I32, 1);
        self.env.insert(k, vec![one]);
        let inc = self.leave(Vec::new());
        self.loops
            .last_mut()
            .expect("in a loop")
            .continues
            .push(inc);
    }

    /// A frame with a `return` inside a loop gets a flag (0) and a return
    /// value (zero) before its first statement, so loop headers and joins
    /// carry them like variables.
    pub(super) fn start_return_flag(&mut self, ret: &ft::Type, loc: Loc) -> R<()> {
        let (flag, value) = return_keys(self.frame().id);
        let zero = self.b().iconst(Type::I32, 0);
        self.env.insert(flag, vec![zero]);
        if !matches!(ret, ft::Type::Void) {
            let z = self.zero(ret, loc)?;
            self.env.insert(value, z);
        }
        Ok(())
    }

    /// `if (c) return v;` inside a loop: the flag and the value are set
    /// where `c` holds (`v` is speculatable) and the loop exits on `c`,
    /// the exit form the back end takes (`if (c) break;`); after the loop
    /// [`Lowerer::after_loop_return`] finishes the return.
    pub(super) fn return_from_loop(&mut self, c: Value, value: Option<&tast::Expr>) -> R<()> {
        let (fk, vk) = return_keys(self.frame().id);
        if let Some(e) = value {
            let vals = self.rvalue(e)?;
            let old = self.env[&vk].clone();
            let mut b = self.b();
            let new: Vec<Value> = vals
                .iter()
                .zip(&old)
                .map(|(&v, &o)| b.select(c, v, o))
                .collect();
            self.env.insert(vk, new);
        }
        let old = self.env[&fk][0];
        let mut b = self.b();
        let one = b.iconst(Type::I32, 1);
        let flag = b.select(c, one, old);
        self.env.insert(fk, vec![flag]);
        self.exit_loop_on(c);
        Ok(())
    }

    /// A conditional exit of the innermost loop on `c` (one of its breaks);
    /// code continues in a new block where `c` is false. Returns the loop.
    pub(super) fn branch_out_of_loop(&mut self, c: Value) -> &mut LoopCtx {
        self.leave_loop_when(c, true)
    }

    /// A conditional exit of the innermost loop, taken when `c` is `when`;
    /// code continues in a new block otherwise. Returns the loop.
    fn leave_loop_when(&mut self, c: Value, when: bool) -> &mut LoopCtx {
        let rest = self.func.create_block();
        let inc = Incoming {
            block: self.cur,
            env: self.env.clone(),
            extra: Vec::new(),
            branch: Some((c, rest, when)),
        };
        self.cur = rest;
        let ctx = self.loops.last_mut().expect("inside a loop");
        ctx.breaks.push(inc);
        ctx
    }

    /// The innermost loop's exit branch on `c` for a `return` inside it;
    /// code continues where `c` is false.
    pub(super) fn exit_loop_on(&mut self, c: Value) {
        self.branch_out_of_loop(c).returned = true;
    }

    /// After a loop a `return` left: leave the enclosing loop the same way,
    /// or return (a conditional edge to the frame's return join; for the
    /// kernel, a guarded `ret`).
    pub(super) fn after_loop_return(&mut self) -> R<()> {
        let (fk, vk) = return_keys(self.frame().id);
        let flag = self.env[&fk][0];
        let mut b = self.b();
        let zero = b.iconst(Type::I32, 0);
        let c = b.icmp(ir::IntCC::Ne, flag, zero);
        if self.flagged_loop() {
            // The enclosing loop's exits are flagged: where `c`, set its
            // flag and go to its continue join.
            let (tb, rest) = (self.func.create_block(), self.func.create_block());
            self.b().brif(c, tb, &[], rest, &[]);
            let env0 = self.env.clone();
            self.cur = tb;
            self.loops.last_mut().expect("in a loop").returned = true;
            self.flagged_exit();
            self.cur = rest;
            self.env = env0;
            self.terminated = false;
        } else if self.loops.len() > self.frame().loop_base {
            self.exit_loop_on(c);
        } else if self.frames.len() == 1 {
            let (ret, rest) = (self.func.create_block(), self.func.create_block());
            self.b().brif(c, ret, &[], rest, &[]);
            let mut b = Builder::new(&mut self.func);
            b.switch_to(ret);
            b.ret();
            self.cur = rest;
        } else {
            let rest = self.func.create_block();
            let inc = Incoming {
                block: self.cur,
                env: self.env.clone(),
                extra: self.env.get(&vk).cloned().unwrap_or_default(),
                branch: Some((c, rest, true)),
            };
            let frame = self.frames.last_mut().expect("an inlined frame");
            frame.returns.as_mut().expect("inlined").push(inc);
            self.cur = rest;
        }
        Ok(())
    }
}

/// A `return` somewhere inside a loop of `s` (`in_loop`: `s` is in one).
pub(super) fn returns_in_loop(s: &Stmt, in_loop: bool) -> bool {
    match s {
        Stmt::Return(_) => in_loop,
        Stmt::Block(list) => list.iter().any(|s| returns_in_loop(s, in_loop)),
        Stmt::If(_, t, e) => {
            returns_in_loop(t, in_loop) || e.as_deref().is_some_and(|e| returns_in_loop(e, in_loop))
        }
        Stmt::While { body, .. } | Stmt::DoWhile { body, .. } | Stmt::For { body, .. } => {
            returns_in_loop(body, true)
        }
        Stmt::Switch { body, .. } => returns_in_loop(body, in_loop),
        _ => false,
    }
}

/// `{ S…; break; }` with no other jump in S: the statements before the break.
pub(super) fn body_then_break(s: &Stmt) -> Option<&[Stmt]> {
    let Stmt::Block(list) = s else { return None };
    let (last, body) = list.split_last()?;
    (matches!(last, Stmt::Break) && !body.is_empty() && !body.iter().any(has_jump)).then_some(body)
}

/// The statement contains a break, continue or return (conservatively,
/// also inside nested loops).
pub(super) fn has_jump(s: &Stmt) -> bool {
    match s {
        Stmt::Break | Stmt::Continue | Stmt::Return(_) => true,
        Stmt::Block(l) => l.iter().any(has_jump),
        Stmt::If(_, t, e) => has_jump(t) || e.as_deref().is_some_and(has_jump),
        Stmt::While { body, .. } | Stmt::DoWhile { body, .. } | Stmt::For { body, .. } => {
            has_jump(body)
        }
        Stmt::Switch { body, .. } => has_jump(body),
        _ => false,
    }
}

/// The loop body's `break`s need the flag form: the back end takes a loop
/// exit only as a conditional branch from outside nested conditionals, so
/// a `break` nested deeper than `if (c) break;` / `if (c) { S; break; }`,
/// or any `break` after a `continue` (whose rest is nested in a
/// conditional), becomes "set a flag and continue", the loop leaving on the
/// flag after its continue join. Other loops keep their direct exits.
pub(super) fn needs_break_flag(body: &Stmt) -> bool {
    let top: &[Stmt] = match body {
        Stmt::Block(l) => l,
        s => std::slice::from_ref(s),
    };
    let direct = |s: &Stmt| match s {
        Stmt::If(_, t, None) => {
            is_break(t) || body_then_break(t).is_some() || return_of(t).is_some()
        }
        Stmt::Break => true,
        _ => false,
    };
    let nested_break = top.iter().any(|s| !direct(s) && loop_jump(s, true));
    let after_continue = top
        .iter()
        .skip_while(|s| !loop_jump(s, false))
        .any(|s| loop_jump(s, true));
    nested_break || after_continue
}

/// `s` holds a `break` (`brk`) or `continue` of the loop it is in (not of
/// a nested loop; a switch's own breaks are its).
pub(super) fn loop_jump(s: &Stmt, brk: bool) -> bool {
    match s {
        Stmt::Break | Stmt::Return(_) => brk,
        Stmt::Continue => !brk,
        Stmt::Block(l) => l.iter().any(|s| loop_jump(s, brk)),
        Stmt::If(_, t, e) => loop_jump(t, brk) || e.as_deref().is_some_and(|e| loop_jump(e, brk)),
        Stmt::Switch { body, .. } => loop_jump_in_switch(body, brk),
        _ => false,
    }
}

/// Inside a switch: its `break`s are its own, but a `continue` or a
/// `return` leaves the loop.
pub(super) fn loop_jump_in_switch(s: &Stmt, brk: bool) -> bool {
    match s {
        Stmt::Return(_) => brk,
        Stmt::Continue => !brk,
        Stmt::Block(l) => l.iter().any(|s| loop_jump_in_switch(s, brk)),
        Stmt::If(_, t, e) => {
            loop_jump_in_switch(t, brk) || e.as_deref().is_some_and(|e| loop_jump_in_switch(e, brk))
        }
        Stmt::Switch { body, .. } => loop_jump_in_switch(body, brk),
        _ => false,
    }
}

/// `continue;` or `{ continue; }`.
pub(super) fn is_continue(s: &Stmt) -> bool {
    match s {
        Stmt::Continue => true,
        Stmt::Block(list) => matches!(list.as_slice(), [Stmt::Continue]),
        _ => false,
    }
}

/// `break;` or `{ break; }`.
pub(super) fn is_break(s: &Stmt) -> bool {
    match s {
        Stmt::Break => true,
        Stmt::Block(list) => matches!(list.as_slice(), [Stmt::Break]),
        _ => false,
    }
}
