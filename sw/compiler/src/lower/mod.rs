//! AST → IR lowering: one [`ir::Function`] per kernel from the front end's
//! typed AST (`docs/compiler-backend.md`, "What the AST→IR lowering should
//! produce").
//!
//! * Variables whose address is never taken live in SSA values: the
//!   lowering keeps an environment (variable → its components' current
//!   values) and merges environments at joins with block parameters
//!   (braun-style SSA construction specialised to structured code: every
//!   join is known when it is built, so no incomplete phis are needed).
//! * OpenCL vectors are scalarised: an expression lowers to one value per
//!   component; a `float3` in memory takes four slots.
//! * `?:` becomes an IR `select` when both arms are safe to evaluate in
//!   every lane (no loads, stores, calls or divisions): seed 004's masked
//!   form is picked later, at instruction selection. Otherwise it branches.
//! * `&&`/`||` are `and`/`or` on `i1` when the right operand is safe to
//!   evaluate, branches otherwise.
//! * Calls to helper functions are inlined. The corpus header's
//!   `gs_local_size(d)` and `gs_global_size(d)` read the HSA dispatch packet
//!   through `__builtin_amdgcn_dispatch_ptr()`; the IR has no dispatch
//!   pointer, so calls to those two helpers with a constant dimension become
//!   the work-item queries they implement (the v5 hidden arguments give the
//!   same values on gpusim's driver).
//!
//! What is not lowered yet reports `unsupported: …` at the construct's
//! location (see `docs/compiler.md`, "Lowering").

mod arith;
mod builtin_names;
mod builtins;
mod cast;
mod data;
mod expr;
mod float;
mod half;
mod loops;
mod narrow;
mod printf;
mod promote;
mod switch;
mod switch_nested;

use std::collections::BTreeMap;

use crate::front::builtins::Builtin as FB;
use crate::front::diag::{Error, Loc};
use crate::front::tast::{self, FuncId, Stmt, TranslationUnit, VarId};
use crate::front::types::{self as ft, Scalar};
use crate::ir::{self, Block, Builder, Type, Value};
use loops::{body_then_break, is_break, is_continue, returns_in_loop};

type R<T> = Result<T, Error>;

fn unsupported<T>(loc: Loc, what: impl AsRef<str>) -> R<T> {
    Err(Error {
        loc,
        msg: format!("unsupported: {}", what.as_ref()),
    })
}

/// A variable of one inlined call frame.
type VarKey = (u32, u32);
/// Every SSA-resident variable in scope and its components' current values.
type Env = BTreeMap<VarKey, Vec<Value>>;

/// Where an lvalue is.
enum Place {
    /// An SSA variable (all its components).
    Var(VarKey),
    /// Memory at `ptr` holding a `ty`.
    Mem(Value, ft::Type),
    /// Components `lanes` of another place (a vector).
    Lanes(Box<Place>, Vec<u8>),
    /// The component at run-time index `.1` (an `i32`) of another place
    /// (a vector of `.2` components not in memory: in memory it is a
    /// [`Place::Mem`] at a computed address).
    Lane(Box<Place>, Value, u8),
}

/// An edge into a join block not yet emitted: the block it leaves, the
/// environment there and extra values (a `?:` result, a return value).
struct Incoming {
    block: Block,
    env: Env,
    extra: Vec<Value>,
    /// The edge is one side of a conditional branch still to be emitted:
    /// `(cond, other block, the join is taken when cond is true)`. Loop exits
    /// use it so that every exit of a loop targets the one join block (the
    /// back end wants a single exit block).
    branch: Option<(Value, Block, bool)>,
}

#[derive(Default)]
struct LoopCtx {
    breaks: Vec<Incoming>,
    continues: Vec<Incoming>,
    /// A `return` left the loop (see [`Lowerer::return_from_loop`]).
    returned: bool,
    /// The loop's `break`s set this flag and continue; the loop exits on it
    /// after the continue join ([`needs_break_flag`]).
    break_flag: Option<VarKey>,
}

/// The environment keys of a frame's "returned from inside a loop" flag
/// (an `i32`, 0 or 1) and of the value returned: no variable has these
/// indices.
fn return_keys(frame: u32) -> (VarKey, VarKey) {
    ((frame, u32::MAX), (frame, u32::MAX - 1))
}

struct Frame {
    id: u32,
    func: FuncId,
    /// Inlined frames collect their returns; the kernel's frame returns.
    returns: Option<Vec<Incoming>>,
    /// Loop depth when the frame started (break/continue stay inside it).
    loop_base: usize,
}

/// When `a * b + c` on floats becomes one fused multiply-add (clang's
/// `-ffp-contract`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FpContract {
    /// Never: every multiply and add rounds.
    Off,
    /// Within an expression, where `#pragma OPENCL FP_CONTRACT` is on
    /// (clang's default for OpenCL).
    #[default]
    On,
    /// Within an expression, whatever the pragma says.
    Fast,
}

/// How `f32` division and `sqrt` are expanded (clang's OpenCL flags).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FpDivSqrt {
    /// OpenCL's default accuracy (2.5 ULP division, 3 ULP `sqrt`), clang's
    /// expansions without flags.
    #[default]
    Default,
    /// `-cl-fast-relaxed-math`: `a * rcp(b)` and a bare `v_sqrt_f32`.
    Relaxed,
    /// `-cl-fp32-correctly-rounded-divide-sqrt`: IEEE division
    /// (`v_div_scale`/`v_div_fmas`/`v_div_fixup`) and the correctly
    /// rounded `sqrt` sequence.
    CorrectlyRounded,
}

/// Lowering options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Floating-point contraction.
    pub fp_contract: FpContract,
    /// Division and square root accuracy.
    pub fp_div_sqrt: FpDivSqrt,
}

/// Lowers kernel `kernel` of `tu` to the IR.
///
/// Address-taken locals and structs are kept in registers where
/// `promote.rs` can prove every access static; where a pointer to one
/// escapes that proof (a pointer variable carried around a loop, a member
/// read as another type), the kernel is lowered again with every such
/// local in private memory, which is always right, only slower.
pub fn lower_kernel(
    tu: &TranslationUnit,
    kernel: FuncId,
    opts: &Options,
) -> Result<ir::Function, Error> {
    let refused = std::cell::Cell::new(false);
    match lower_kernel_with(tu, kernel, opts, Promotion::Try(&refused)) {
        Err(_) if refused.get() => lower_kernel_with(tu, kernel, opts, Promotion::Off),
        r => r,
    }
}

/// Whether locals may be kept in registers (`promote.rs`), and where to
/// say that a promotion could not be kept.
#[derive(Clone, Copy)]
enum Promotion<'a> {
    Try(&'a std::cell::Cell<bool>),
    Off,
}

fn lower_kernel_with(
    tu: &TranslationUnit,
    kernel: FuncId,
    opts: &Options,
    promotion: Promotion<'_>,
) -> Result<ir::Function, Error> {
    let f = &tu.functions[kernel.0 as usize];
    let Some(info) = &f.kernel else {
        return unsupported(f.loc, format!("`{}` is not a kernel", f.name));
    };
    let Some(body) = &f.body else {
        return unsupported(f.loc, format!("kernel `{}` has no body", f.name));
    };
    let mut func = ir::Function::new(f.name.clone());
    func.reqd_workgroup_size = info.reqd_work_group_size;
    func.workgroup_size_hint = info.work_group_size_hint;
    func.vec_type_hint = info.vec_type_hint.clone();
    let entry = func.create_block();
    let mut l = Lowerer {
        tu,
        func,
        cur: entry,
        env: Env::new(),
        terminated: false,
        frames: vec![Frame {
            id: 0,
            func: kernel,
            returns: None,
            loop_base: 0,
        }],
        next_frame: 1,
        loops: Vec::new(),
        locals: BTreeMap::new(),
        privates: BTreeMap::new(),
        promoted: BTreeMap::new(),
        promoted_ranges: Vec::new(),
        promotion,
        loop_body_top: false,
        switches: Vec::new(),
        nested_labels: Vec::new(),
        labelled_loop: None,
        skip_rest: false,
        divrem64_memo: Vec::new(),
        arg_records: BTreeMap::new(),
        opts: *opts,
        wg_scratch: None,
    };
    for &id in &info.local_vars {
        let var = &f.vars[id.0 as usize];
        let size = tu.records.size_of(&var.ty);
        let align = tu.records.align_of(&var.ty);
        let lv = l.func.add_local(size, align);
        l.locals.insert((0, id.0), lv);
    }
    for (i, arg) in info.args.iter().enumerate() {
        let var = &f.vars[i];
        match &var.ty {
            ft::Type::Vector(..) | ft::Type::Record(_) | ft::Type::Scalar(Scalar::Half) => {
                // By value in the kernarg segment (clang's layout: the
                // type's size and alignment): a vector's components (and a
                // `half`, 2 bytes that a dword load would not address) are
                // loaded once into SSA values; a struct is read in place.
                let (size, align) = (tu.records.size_of(&var.ty), tu.records.align_of(&var.ty));
                l.func
                    .add_aggregate_param(&arg.name, size, align, &arg.type_name);
                let p = l.b().kernel_arg(i as u32);
                if !matches!(var.ty, ft::Type::Record(_)) {
                    let vals = l.read(&Place::Mem(p, var.ty.clone()), var.loc)?;
                    l.env.insert((0, i as u32), vals);
                } else {
                    l.arg_records.insert((0, i as u32), p);
                }
            }
            ft::Type::Array(..) => return unsupported(var.loc, "an array kernel argument"),
            t => {
                let ty = l.ir_type(t, var.loc)?;
                let index = l.func.add_param(&arg.name, ty, &arg.type_name);
                l.func.params[index as usize].qualifiers = ir::ArgQualifiers {
                    is_const: arg.is_const,
                    is_volatile: arg.is_volatile,
                    is_restrict: arg.is_restrict,
                };
                if let Some(pt) = t.pointee() {
                    // clang's `.pointee_align`: the driver aligns the LDS of
                    // a `__local long16 *` to 128 bytes, of a `char *` to 1.
                    l.func.params[index as usize].pointee_align =
                        tu.records.align_of(&pt.ty).max(1);
                }
                let v = l.b().kernel_arg(i as u32);
                l.env.insert((0, i as u32), vec![v]);
            }
        }
    }
    if body.iter().any(|s| returns_in_loop(s, false)) {
        l.start_return_flag(&ft::Type::Void, f.loc)?;
    }
    for s in body {
        l.stmt(s)?;
    }
    if !l.terminated {
        l.b().ret();
    }
    if !l.promoted.is_empty() {
        l.check_promoted(f.loc)?;
    }
    ir::verify(&l.func).map_err(|e| Error {
        loc: f.loc,
        msg: format!("internal compiler error: the lowered IR is malformed: {e}"),
    })?;
    Ok(l.func)
}

struct Lowerer<'a> {
    tu: &'a TranslationUnit,
    func: ir::Function,
    cur: Block,
    env: Env,
    /// The current block has its terminator: what follows is unreachable.
    terminated: bool,
    frames: Vec<Frame>,
    next_frame: u32,
    loops: Vec<LoopCtx>,
    /// The kernel's `__local` variables and their LDS allocations.
    locals: BTreeMap<VarKey, ir::LocalVar>,
    /// Variables kept in private memory (arrays, variables whose address is
    /// taken) and their offsets in the private segment.
    privates: BTreeMap<VarKey, u32>,
    /// Members of local structs kept in registers (`promote.rs`).
    promoted: promote::Members,
    /// The private byte ranges of those structs.
    promoted_ranges: Vec<(u32, u32)>,
    /// Whether locals may be promoted, and where a refusal is reported.
    promotion: Promotion<'a>,
    /// The next statement list lowered is a loop body's own.
    loop_body_top: bool,
    /// The `switch` statements being lowered, innermost last.
    switches: Vec<switch::SwitchCtx>,
    /// The switches with labels in nested statements, innermost last
    /// (`switch_nested.rs`).
    nested_labels: Vec<switch_nested::NestedLabels>,
    /// The next loop lowered is in such a switch and holds these labels.
    labelled_loop: Option<Vec<crate::front::tast::CaseId>>,
    /// A `break` of the innermost switch ended the current statement list:
    /// the rest of it is dead on this path (`switch.rs`).
    skip_rest: bool,
    /// 64-bit divisions done: (x, y, the block their results were made
    /// in, quotient, remainder).
    divrem64_memo: Vec<(Value, Value, Block, Value, Value)>,
    /// Struct kernel arguments: their bytes' address in the kernarg
    /// segment (read-only; the struct is read in place).
    arg_records: BTreeMap<VarKey, Value>,
    opts: Options,
    /// The LDS scratch of the work-group functions, reserved on the first
    /// call (`builtins.rs`).
    wg_scratch: Option<ir::LocalVar>,
}

impl<'a> Lowerer<'a> {
    /// A builder at the end of the current block.
    fn b(&mut self) -> Builder<'_> {
        let mut b = Builder::new(&mut self.func);
        b.switch_to(self.cur);
        b
    }

    fn frame(&self) -> &Frame {
        self.frames
            .last()
            .expect("the kernel's frame is never popped")
    }

    fn tfunc(&self) -> &'a tast::Function {
        &self.tu.functions[self.frame().func.0 as usize]
    }

    fn key(&self, v: VarId) -> VarKey {
        (self.frame().id, v.0)
    }

    /// The IR type of one component of `t`.
    fn ir_type(&self, t: &ft::Type, loc: Loc) -> R<Type> {
        Ok(match t {
            ft::Type::Scalar(s) | ft::Type::Vector(s, _) => scalar_type(*s),
            ft::Type::Pointer(p) => Type::Ptr(match p.space {
                ft::AddrSpace::Global => ir::AddrSpace::Global,
                ft::AddrSpace::Constant => ir::AddrSpace::Constant,
                ft::AddrSpace::Local => ir::AddrSpace::Local,
                ft::AddrSpace::Private => ir::AddrSpace::Private,
                ft::AddrSpace::Generic => {
                    return unsupported(loc, "generic address-space pointers")
                }
            }),
            ft::Type::Void => return unsupported(loc, "a value of type void"),
            ft::Type::Array(..) => return unsupported(loc, "arrays in private memory"),
            ft::Type::Record(_) => return unsupported(loc, "structs and unions"),
            ft::Type::Atomic(_) => return unsupported(loc, "atomic types"),
        })
    }

    /// Joins `incoming` edges at a new block: a parameter for every variable
    /// whose value differs between the edges, and one per extra value.
    /// Returns the extra parameters; with no edge the code after is dead.
    fn join(&mut self, incoming: Vec<Incoming>) -> Vec<Value> {
        if incoming.is_empty() {
            self.terminated = true;
            return Vec::new();
        }
        let join = self.func.create_block();
        let first = &incoming[0];
        let mut env = Env::new();
        let mut per_edge: Vec<Vec<Value>> = vec![Vec::new(); incoming.len()];
        for (key, vals) in &first.env {
            // Only variables in scope on every edge survive the join.
            if !incoming.iter().all(|i| i.env.contains_key(key)) {
                continue;
            }
            let mut merged = Vec::new();
            for (c, &v0) in vals.iter().enumerate() {
                if incoming.iter().all(|i| i.env[key][c] == v0) {
                    merged.push(v0);
                } else {
                    let ty = self.func.ty(v0);
                    merged.push(self.func.append_block_param(join, ty));
                    for (e, i) in incoming.iter().enumerate() {
                        per_edge[e].push(i.env[key][c]);
                    }
                }
            }
            env.insert(*key, merged);
        }
        let mut extra = Vec::new();
        for (c, &v0) in first.extra.iter().enumerate() {
            let ty = self.func.ty(v0);
            extra.push(self.func.append_block_param(join, ty));
            for (e, i) in incoming.iter().enumerate() {
                per_edge[e].push(i.extra[c]);
            }
        }
        for (i, args) in incoming.iter().zip(per_edge) {
            let mut b = Builder::new(&mut self.func);
            b.switch_to(i.block);
            match i.branch {
                None => b.jump(join, &args),
                Some((c, other, true)) => b.brif(c, join, &args, other, &[]),
                Some((c, other, false)) => b.brif(c, other, &[], join, &args),
            }
        }
        self.cur = join;
        self.env = env;
        self.terminated = false;
        extra
    }

    /// The current position as an edge to a join (and marks it terminated).
    fn leave(&mut self, extra: Vec<Value>) -> Incoming {
        self.terminated = true;
        Incoming {
            block: self.cur,
            env: self.env.clone(),
            extra,
            branch: None,
        }
    }

    fn stmts(&mut self, list: &[Stmt]) -> R<()> {
        if self.in_labelled_switch()
            && list
                .iter()
                .any(|s| matches!(s, Stmt::Case(_)) || switch::has_label(s))
        {
            self.loop_body_top = false;
            return self.walk_labelled(list);
        }
        // Only the loop body's own statement list may be restructured for a
        // `continue` (guarding the rest of a nested list would not skip the
        // statements after it).
        let body_top = std::mem::replace(&mut self.loop_body_top, false);
        for (i, s) in list.iter().enumerate() {
            if self.terminated {
                break; // unreachable code after return/break/continue
            }
            // A work-group fence next to `s_barrier` (the corpus header's
            // `gs_barrier`: release fence, s_barrier, acquire fence) is
            // covered by the IR barrier, which orders every memory access
            // of the work-group around it (waitcnt to zero before s_barrier).
            let next_to_barrier = [i.wrapping_sub(1), i + 1]
                .iter()
                .any(|&j| list.get(j).is_some_and(is_s_barrier));
            if is_workgroup_fence(s) && next_to_barrier {
                continue;
            }
            // `if (c) continue; REST` → `if (c) {} else { REST }`: the back
            // end does not take a continue out of a nested conditional.
            if let Stmt::If(cond, then, None) = s {
                if body_top && is_continue(then) && !self.terminated {
                    let c = self.cond(cond)?;
                    if self.func.iconst_value(c).is_none() {
                        let (tb, eb) = (self.func.create_block(), self.func.create_block());
                        self.b().brif(c, tb, &[], eb, &[]);
                        let env0 = self.env.clone();
                        self.cur = tb;
                        let skip = self.leave(Vec::new());
                        self.cur = eb;
                        self.env = env0;
                        self.terminated = false;
                        self.stmts(&list[i + 1..])?;
                        let mut incoming = vec![skip];
                        if !self.terminated {
                            incoming.push(self.leave(Vec::new()));
                        }
                        self.join(incoming);
                        return Ok(());
                    }
                    if self.func.iconst_value(c) != Some(0) {
                        return self.stmt(then);
                    }
                    continue;
                }
            }
            self.stmt(s)?;
            if std::mem::take(&mut self.skip_rest) {
                return Ok(());
            }
            if i + 1 < list.len() && !self.terminated && self.breaks_switch(s) {
                // Lanes that left the switch in `s` must skip the rest.
                return self.guard_switch_rest(&list[i + 1..]);
            }
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt) -> R<()> {
        if self.terminated {
            return Ok(());
        }
        match s {
            Stmt::Case(id) if self.in_labelled_switch() => self.enter_label(*id),
            Stmt::Empty | Stmt::Case(_) => Ok(()),
            Stmt::Expr(e) => self.rvalue(e).map(drop),
            Stmt::Decl(id, init) => self.decl(*id, init.as_ref()),
            Stmt::Block(list) => self.stmts(list),
            Stmt::If(cond, then, els) => {
                let c = self.cond(cond)?;
                if let Some(k) = self.func.iconst_value(c) {
                    // A constant condition (an inlined helper's dimension test).
                    return match (k != 0, els) {
                        (true, _) => self.stmt(then),
                        (false, Some(e)) => self.stmt(e),
                        (false, None) => Ok(()),
                    };
                }
                let in_loop = self.loops.len() > self.frame().loop_base && !self.flagged_loop();
                if let (Some(value), None, true) = (return_of(then), els, in_loop) {
                    let flag_key = return_keys(self.frame().id).0;
                    if value.is_none()
                        || value.is_some_and(expr::speculatable) && self.env.contains_key(&flag_key)
                    {
                        return self.return_from_loop(c, value);
                    }
                }
                let loop_break = self.loops.len() > self.frame().loop_base
                    && !self.switch_innermost()
                    && self.loops.last().is_some_and(|l| l.break_flag.is_none());
                if is_break(then) && els.is_none() && loop_break {
                    // `if (c) break;` as the loop exit branch itself: the back
                    // end takes loop exits as conditional branches to the one
                    // exit block, not as a block that only jumps there.
                    self.branch_out_of_loop(c);
                    return Ok(());
                }
                if let Some(body) = body_then_break(then) {
                    if els.is_none() && loop_break {
                        // `if (c) { S; break; }`: S in a diamond, then the
                        // exit branch on the same `c` (S cannot change it).
                        self.diamond(c, body, &[])?;
                        if self.terminated {
                            return Ok(());
                        }
                        self.branch_out_of_loop(c);
                        return Ok(());
                    }
                }
                let els = els.as_deref().map(std::slice::from_ref).unwrap_or(&[]);
                self.diamond(c, std::slice::from_ref(&**then), els)
            }
            Stmt::While { cond, body, unroll } => {
                self.lower_loop(&[], Some(cond), None, body, false, *unroll)
            }
            Stmt::DoWhile { body, cond, unroll } => {
                self.lower_loop(&[], Some(cond), None, body, true, *unroll)
            }
            Stmt::For {
                init,
                cond,
                step,
                body,
                unroll,
            } => self.lower_loop(init, cond.as_ref(), step.as_ref(), body, false, *unroll),
            Stmt::Switch {
                cond,
                body,
                cases,
                default,
            } => self.switch(cond, body, cases, *default),
            Stmt::Break if self.switch_innermost() => {
                self.switch_break();
                Ok(())
            }
            Stmt::Continue if self.switch_innermost() => self.switch_continue(self.tfunc().loc),
            Stmt::Break | Stmt::Continue => {
                if self.loops.len() <= self.frame().loop_base {
                    // Sema let it through: never expected.
                    return unsupported(self.tfunc().loc, "break/continue outside a loop");
                }
                if self.flagged_loop() && matches!(s, Stmt::Break) {
                    // A flagged break: set the flag, go to the continue join.
                    self.flagged_exit();
                    return Ok(());
                }
                let inc = self.leave(Vec::new());
                let ctx = self.loops.last_mut().expect("checked above");
                if matches!(s, Stmt::Break) {
                    ctx.breaks.push(inc);
                } else {
                    ctx.continues.push(inc);
                }
                Ok(())
            }
            Stmt::Return(value) => {
                let vals = match value {
                    Some(e) => self.rvalue(e)?,
                    None => Vec::new(),
                };
                if self.flagged_loop() {
                    // Inside a loop whose exits are flagged: record the
                    // return (flag and value) and leave like a flagged
                    // break; after the loop `after_loop_return` returns.
                    // Inside a switch of that loop, the lane leaves the
                    // switch like a `continue` (its loop flag set), and the
                    // loop's continue join takes it out.
                    let (fk, vk) = return_keys(self.frame().id);
                    if !self.env.contains_key(&fk) {
                        return unsupported(self.tfunc().loc, "this `return` inside a loop");
                    }
                    if value.is_some() {
                        self.env.insert(vk, vals);
                    }
                    let one = self.b().iconst(Type::I32, 1);
                    self.env.insert(fk, vec![one]);
                    let ctx = self.loops.last_mut().expect("in a loop");
                    ctx.returned = true;
                    let k = ctx.break_flag.expect("a flagged loop");
                    if self.switch_innermost() {
                        self.env.insert(k, vec![one]);
                        return self.switch_continue(self.tfunc().loc);
                    }
                    self.flagged_exit();
                    return Ok(());
                }
                if self.frames.len() == 1 {
                    self.b().ret();
                    self.terminated = true;
                } else {
                    let inc = self.leave(vals);
                    let frame = self.frames.last_mut().expect("an inlined frame");
                    frame.returns.as_mut().expect("inlined").push(inc);
                }
                Ok(())
            }
        }
    }

    /// `if (c) then else els` as a diamond joined with block parameters.
    fn diamond(&mut self, c: Value, then: &[Stmt], els: &[Stmt]) -> R<()> {
        let (tb, eb) = (self.func.create_block(), self.func.create_block());
        self.b().brif(c, tb, &[], eb, &[]);
        let env0 = self.env.clone();
        let mut incoming = Vec::new();
        self.cur = tb;
        self.terminated = false;
        self.stmts(then)?;
        if !self.terminated {
            incoming.push(self.leave(Vec::new()));
        }
        self.cur = eb;
        self.env = env0;
        self.terminated = false;
        self.stmts(els)?;
        if !self.terminated {
            incoming.push(self.leave(Vec::new()));
        }
        self.join(incoming);
        Ok(())
    }

    fn decl(&mut self, id: VarId, init: Option<&tast::Init>) -> R<()> {
        let var = &self.tfunc().vars[id.0 as usize];
        if var.space == ft::AddrSpace::Local {
            // Allocated in LDS at the kernel's start (no initializer in OpenCL).
            if self.locals.contains_key(&self.key(id)) {
                return Ok(());
            }
            return unsupported(var.loc, "__local variables outside a kernel");
        }
        let ty = var.ty.clone();
        let loc = var.loc;
        if var.address_taken || matches!(ty, ft::Type::Array(..) | ft::Type::Record(_)) {
            // In private memory (scratch): one slot per declaration, reused
            // when a loop runs the declaration again.
            let key = self.key(id);
            let offset = match self.privates.get(&key) {
                Some(&o) => o,
                None => {
                    let size = self.tu.records.size_of(&ty);
                    let align = self.tu.records.align_of(&ty);
                    let o = self.func.add_private(size.max(1), align);
                    self.privates.insert(key, o);
                    o
                }
            };
            if !matches!(ty, ft::Type::Array(..)) {
                // Structs and address-taken scalars in registers unless they
                // hold an array or a union (`promote.rs`).
                self.promote_struct(&ty, offset, loc)?;
            }
            return match init {
                Some(tast::Init::Expr(e)) => {
                    let vals = self.rvalue(e)?;
                    let p = self.b().private_addr(offset);
                    self.write(&Place::Mem(p, ty), &vals, loc)
                }
                Some(init @ tast::Init::List(_)) => self.init_private(offset, &ty, init, loc),
                // Undefined until written, as in C.
                Some(tast::Init::Zero) | None => Ok(()),
            };
        }
        let vals = match init {
            Some(tast::Init::Expr(e)) => self.rvalue(e)?,
            Some(tast::Init::List(_)) => return unsupported(loc, "brace initializers"),
            // No initializer: the value is undefined; zero keeps the SSA defined.
            Some(tast::Init::Zero) | None => self.zero(&ty, loc)?,
        };
        let key = self.key(id);
        self.env.insert(key, vals);
        Ok(())
    }

    /// Stores brace initializer `init` of an object of type `ty` at
    /// `offset` in the private segment: each element or member in turn,
    /// zero where the list stops early (C's rule), a union's first member.
    fn init_private(&mut self, offset: u32, ty: &ft::Type, init: &tast::Init, loc: Loc) -> R<()> {
        match (init, ty) {
            (tast::Init::List(items), ft::Type::Array(elem, _)) => {
                let stride = self.tu.records.size_of(elem);
                for (k, it) in items.iter().enumerate() {
                    self.init_private(offset + k as u32 * stride, elem, it, loc)?;
                }
                Ok(())
            }
            (tast::Init::List(items), ft::Type::Record(r)) => {
                let fields = self.tu.records.get(*r).fields.clone();
                for (it, f) in items.iter().zip(&fields) {
                    self.init_private(offset + f.offset, &f.ty, it, loc)?;
                }
                Ok(())
            }
            (tast::Init::Zero, ft::Type::Array(elem, n)) => {
                let stride = self.tu.records.size_of(elem);
                for k in 0..*n {
                    self.init_private(offset + k * stride, elem, init, loc)?;
                }
                Ok(())
            }
            (tast::Init::Zero, ft::Type::Record(r)) => {
                let rec = self.tu.records.get(*r);
                let take = if rec.is_union { 1 } else { rec.fields.len() };
                let fields: Vec<_> = rec.fields[..take.min(rec.fields.len())].to_vec();
                for f in &fields {
                    self.init_private(offset + f.offset, &f.ty, init, loc)?;
                }
                Ok(())
            }
            (tast::Init::Zero, t) => {
                let vals = self.zero(t, loc)?;
                let p = self.b().private_addr(offset);
                self.write(&Place::Mem(p, t.clone()), &vals, loc)
            }
            (tast::Init::Expr(e), t) => {
                let vals = self.rvalue(e)?;
                let p = self.b().private_addr(offset);
                self.write(&Place::Mem(p, t.clone()), &vals, loc)
            }
            (tast::Init::List(_), _) => unsupported(loc, "a brace initializer for this type"),
        }
    }

    /// Zero of every component of `ty`.
    fn zero(&mut self, ty: &ft::Type, loc: Loc) -> R<Vec<Value>> {
        let t = self.ir_type(ty, loc)?;
        let n = ty.width().max(1) as usize;
        let mut out = Vec::new();
        for _ in 0..n {
            out.push(self.constant(t, 0));
        }
        Ok(out)
    }

    fn constant(&mut self, t: Type, bits: u64) -> Value {
        let mut b = self.b();
        match t {
            Type::F32 => b.f32const(f32::from_bits(bits as u32)),
            Type::F64 => b.f64const(f64::from_bits(bits)),
            Type::F16 => b.iconst(Type::I32, bits as i64),
            // A pointer constant (null): the integer's bits as the pointer.
            Type::Ptr(s) => {
                let n = b.iconst(Type::int_of_bits(s.pointer_bits()), bits as i64);
                b.convert(ir::ConvertOp::Bitcast, n, t)
            }
            t => b.iconst(t, bits as i64),
        }
    }

    /// Inlines a call of `callee` with already lowered arguments.
    fn inline_call(&mut self, callee: FuncId, args: Vec<Vec<Value>>, loc: Loc) -> R<Vec<Value>> {
        let f = &self.tu.functions[callee.0 as usize];
        let Some(body) = &f.body else {
            return unsupported(loc, format!("a call of `{}`, which has no body", f.name));
        };
        if self.frames.len() > 64 {
            return unsupported(loc, "calls nested more than 64 deep");
        }
        let id = self.next_frame;
        self.next_frame += 1;
        self.frames.push(Frame {
            id,
            func: callee,
            returns: Some(Vec::new()),
            loop_base: self.loops.len(),
        });
        let caller_env = self.env.clone();
        for (i, a) in args.into_iter().enumerate() {
            let var = &f.vars[i];
            if var.address_taken || matches!(var.ty, ft::Type::Record(_)) {
                // A struct passed by value (or a parameter whose address is
                // taken) is the callee's own copy in private memory, kept
                // in registers where `promote.rs` can.
                let (ty, vloc) = (var.ty.clone(), var.loc);
                let size = self.tu.records.size_of(&ty);
                let align = self.tu.records.align_of(&ty);
                let o = self.func.add_private(size.max(1), align);
                self.privates.insert((id, i as u32), o);
                self.promote_struct(&ty, o, vloc)?;
                let p = self.b().private_addr(o);
                self.write(&Place::Mem(p, ty), &a, vloc)?;
                continue;
            }
            self.env.insert((id, i as u32), a);
        }
        if body.iter().any(|s| returns_in_loop(s, false)) {
            let ret = f.ret.clone();
            self.start_return_flag(&ret, loc)?;
        }
        self.stmts(body)?;
        let frame = self.frames.pop().expect("pushed");
        let mut returns = frame.returns.expect("inlined");
        if !self.terminated {
            // Falling off the end of a void function.
            returns.push(self.leave(Vec::new()));
        }
        let result = self.join(returns);
        // The callee's variables die; the caller's keep their (possibly
        // updated: none can be, no pointers to SSA variables) values.
        let keep: Vec<VarKey> = caller_env.keys().copied().collect();
        self.env.retain(|k, _| keep.contains(k));
        if self.terminated {
            return unsupported(loc, "a call that never returns");
        }
        Ok(result)
    }
}

fn is_s_barrier(s: &Stmt) -> bool {
    matches!(
        s,
        Stmt::Expr(tast::Expr {
            kind: tast::ExprKind::Builtin(FB::SBarrier, _),
            ..
        })
    )
}

/// `__builtin_amdgcn_fence(order, "workgroup")` (scope 1).
fn is_workgroup_fence(s: &Stmt) -> bool {
    match s {
        Stmt::Expr(tast::Expr {
            kind: tast::ExprKind::Builtin(FB::Fence, args),
            ..
        }) => matches!(
            args.get(1).map(|a| &a.kind),
            Some(tast::ExprKind::IntConst(1))
        ),
        _ => false,
    }
}

/// `return v;` or `{ return v; }`: `Some(v)` (`Some(None)` for `return;`).
fn return_of(s: &Stmt) -> Option<Option<&tast::Expr>> {
    match s {
        Stmt::Return(v) => Some(v.as_ref()),
        Stmt::Block(list) => match list.as_slice() {
            [Stmt::Return(v)] => Some(v.as_ref()),
            _ => None,
        },
        _ => None,
    }
}

/// The IR type of a scalar.
fn scalar_type(s: Scalar) -> Type {
    match s {
        Scalar::Bool => Type::I1,
        Scalar::Char | Scalar::UChar => Type::I8,
        Scalar::Short | Scalar::UShort => Type::I16,
        Scalar::Int | Scalar::UInt => Type::I32,
        Scalar::Long | Scalar::ULong => Type::I64,
        Scalar::Half => Type::F16,
        Scalar::Float => Type::F32,
        Scalar::Double => Type::F64,
    }
}
