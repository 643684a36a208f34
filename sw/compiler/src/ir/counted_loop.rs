//! The one counted-loop recogniser, shared by the loop passes: `-O`'s
//! single-block full unroll ([`super::opt::unroll_counted_loops`]), the
//! general unroller ([`super::opt::unroll`]) and seed 002's dispatch-time
//! unroll-and-group (`crate::specialise::unroll`).
//!
//! The shape (what the lowering makes of `for` and `while`): a header with
//! block parameters, entered from one preheader outside the loop by a jump,
//! ending in `brif cond, body, exit` (either way round) where `cond` is an
//! integer compare of an induction parameter `i` (or of `i + c`) with a
//! bound; one latch whose back edge passes `i op step` for a constant
//! `step`; no way out of the loop but the header's branch; no loop inside.
//! A single-block loop (the header is its own latch) is one too.
//!
//! What the recogniser accepts is the union of what its users need; each
//! user then states its own limits on the result (the general unroller
//! wants a separate body, seed 002 a straight chain counting up by one, the
//! single-block unroll constants) — so the shape is decided in one place
//! and each pass's extra conditions stay beside the pass.

use super::cfg::Cfg;
use super::entities::{Block, Value};
use super::function::{Function, ValueDef};
use super::instructions::{BinaryOp, BlockCall, InstKind, IntCC};

/// A loop in the shape of the module comment.
#[derive(Clone, Debug)]
pub struct CountedLoop {
    /// The loop header (tests the condition).
    pub header: Block,
    /// The block whose jump is the back edge (the header itself for a
    /// single-block loop).
    pub latch: Block,
    /// The one block outside the loop that jumps to the header.
    pub pre: Block,
    /// The preheader's jump into the header.
    pub entry: BlockCall,
    /// Every block of the loop, header first.
    pub blocks: Vec<Block>,
    /// The blocks other than the header, in reverse post-order.
    pub body: Vec<Block>,
    /// The header's branch into the loop and out of it.
    pub enter: BlockCall,
    /// The header's branch out of the loop.
    pub exit: BlockCall,
    /// The back edge (the latch's jump; `enter` for a single-block loop).
    pub back: BlockCall,
    /// Index of the induction parameter among the header's parameters.
    pub k: usize,
    /// The compared value: the parameter, or `i + c` (see [`Self::next_step`]).
    pub tested: Value,
    /// `Some(c)` when the compare reads `i + c` rather than `i`.
    pub next_step: Option<u32>,
    /// The induction value was the compare's second operand.
    pub swapped: bool,
    /// The loop goes on while `cc(tested, bound)` holds (branch sense and
    /// operand order already applied).
    pub cc: IntCC,
    /// The other operand of the compare.
    pub bound: Value,
    /// The back edge passes `i step_op step` (or `step step_op i` for a
    /// commutative operation).
    pub step_op: BinaryOp,
    /// The constant step.
    pub step: u32,
    /// Instructions per iteration (header and body).
    pub size: usize,
}

/// `cc` for swapped operands (`a < b` is `b > a`).
pub fn swap_cc(cc: IntCC) -> IntCC {
    match cc {
        IntCC::Slt => IntCC::Sgt,
        IntCC::Sle => IntCC::Sge,
        IntCC::Sgt => IntCC::Slt,
        IntCC::Sge => IntCC::Sle,
        IntCC::Ult => IntCC::Ugt,
        IntCC::Ule => IntCC::Uge,
        IntCC::Ugt => IntCC::Ult,
        IntCC::Uge => IntCC::Ule,
        c => c,
    }
}

/// The condition that holds when `cc` does not.
pub fn invert_cc(cc: IntCC) -> IntCC {
    match cc {
        IntCC::Eq => IntCC::Ne,
        IntCC::Ne => IntCC::Eq,
        IntCC::Slt => IntCC::Sge,
        IntCC::Sle => IntCC::Sgt,
        IntCC::Sgt => IntCC::Sle,
        IntCC::Sge => IntCC::Slt,
        IntCC::Ult => IntCC::Uge,
        IntCC::Ule => IntCC::Ugt,
        IntCC::Ugt => IntCC::Ule,
        IntCC::Uge => IntCC::Ult,
    }
}

/// One step of an induction variable, for the operations a trip count can
/// be simulated with.
pub fn step_eval(op: BinaryOp, i: u32, c: u32) -> Option<u32> {
    match op {
        BinaryOp::Iadd => Some(i.wrapping_add(c)),
        BinaryOp::Isub => Some(i.wrapping_sub(c)),
        BinaryOp::Imul => Some(i.wrapping_mul(c)),
        BinaryOp::Shl if c < 32 => Some(i << c),
        BinaryOp::Lshr if c < 32 => Some(i >> c),
        BinaryOp::Ashr if c < 32 => Some(((i as i32) >> c) as u32),
        _ => None,
    }
}

/// The block that defines `v` (`None` for an instruction no longer in one).
pub fn def_block(f: &Function, v: Value) -> Option<Block> {
    match f.value(v).def {
        ValueDef::Param(b, _) => Some(b),
        ValueDef::Inst(i) => f.inst(i).block,
    }
}

impl CountedLoop {
    /// True when `v` is defined inside the loop.
    pub fn defines(&self, f: &Function, v: Value) -> bool {
        def_block(f, v).is_some_and(|b| self.blocks.contains(&b))
    }
}

/// The loop of back edge `(latch, header)`, if it has the module comment's
/// shape.
pub fn recognise(f: &Function, cfg: &Cfg, latch: Block, header: Block) -> Option<CountedLoop> {
    let h = header;
    if cfg.back_edges.iter().filter(|e| e.1 == h).count() != 1 {
        return None;
    }
    let blocks = cfg.loop_blocks(latch, h);
    // Innermost: no other loop's header inside.
    if cfg
        .back_edges
        .iter()
        .any(|&(_, x)| x != h && blocks.contains(&x))
    {
        return None;
    }
    let outside: Vec<Block> = cfg.preds[h.index()]
        .iter()
        .copied()
        .filter(|p| !blocks.contains(p))
        .collect();
    let [pre] = outside[..] else { return None };
    let InstKind::Jump { dest: entry } = f.terminator(pre)? else {
        return None;
    };
    let InstKind::Brif {
        cond,
        then_dest,
        else_dest,
    } = f.terminator(h)?
    else {
        return None;
    };
    let (enter, exit, stay_if) = match (
        blocks.contains(&then_dest.block),
        blocks.contains(&else_dest.block),
    ) {
        (true, false) => (then_dest, else_dest, true),
        (false, true) => (else_dest, then_dest, false),
        _ => return None,
    };
    // The header's test is the only exit.
    for &b in blocks.iter().filter(|&&b| b != h) {
        if f.successors(b).iter().any(|s| !blocks.contains(s)) {
            return None;
        }
    }
    let back = if latch == h {
        enter.clone()
    } else {
        if enter.block == h {
            return None;
        }
        let InstKind::Jump { dest } = f.terminator(latch)? else {
            return None;
        };
        dest.clone()
    };
    let InstKind::Icmp { cond: cc, args } = f.def_inst(*cond)? else {
        return None;
    };
    let params = &f.block(h).params;
    // The induction operand: a parameter on either side first, then
    // `parameter + constant` on either side.
    let param = |v: Value| params.iter().position(|&p| p == v);
    let plus = |v: Value| match f.def_inst(v) {
        Some(InstKind::Binary {
            op: BinaryOp::Iadd,
            args: [p, c],
        }) => Some((param(*p)?, f.iconst_value(*c)? as u32)),
        _ => None,
    };
    let (side, k, next_step) = if let Some(k) = param(args[0]) {
        (0, k, None)
    } else if let Some(k) = param(args[1]) {
        (1, k, None)
    } else if let Some((k, c)) = plus(args[0]) {
        (0, k, Some(c))
    } else {
        let (k, c) = plus(args[1])?;
        (1, k, Some(c))
    };
    let swapped = side == 1;
    let cc = if swapped { swap_cc(*cc) } else { *cc };
    let cc = if stay_if { cc } else { invert_cc(cc) };
    let Some(&InstKind::Binary {
        op: step_op,
        args: [x, y],
    }) = f.def_inst(*back.args.get(k)?)
    else {
        return None;
    };
    let step = if x == params[k] {
        f.iconst_value(y)?
    } else if y == params[k] && step_op.is_commutative() {
        f.iconst_value(x)?
    } else {
        return None;
    } as u32;
    step_eval(step_op, 0, step)?;
    let body: Vec<Block> = cfg
        .rpo
        .iter()
        .copied()
        .filter(|b| *b != h && blocks.contains(b))
        .collect();
    let size = blocks.iter().map(|&b| f.block(b).insts.len()).sum();
    Some(CountedLoop {
        header: h,
        latch,
        pre,
        entry: entry.clone(),
        enter: enter.clone(),
        exit: exit.clone(),
        back,
        blocks,
        body,
        k,
        tested: args[side],
        next_step,
        swapped,
        cc,
        bound: args[1 - side],
        step_op,
        step,
        size,
    })
}
