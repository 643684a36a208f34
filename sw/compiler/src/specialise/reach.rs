//! How far a kernel can reach from each pointer argument (seed 002, the
//! driver's "ranges the kernel can reach where the compiler can bound
//! them"): for every global-pointer parameter, the byte range
//! `[lo, hi)` relative to the pointer that its loads, stores and atomics
//! can touch, as [`Bound`] expressions over the by-value arguments and the
//! launch geometry. The driver evaluates them at dispatch
//! ([`ReachBounds::eval`]) and cuts each argument's region to its reach, so
//! two pointers into one buffer that the kernel uses on separate parts
//! become disjoint instead of "to the end of the allocation".
//!
//! Soundness before precision: a parameter gets a bound only when every
//! access through it has one; a pointer that escapes (stored, compared,
//! converted, passed to a call) or an access whose base the analysis cannot
//! trace leaves every parameter unbounded. Index arithmetic is interval
//! arithmetic on mathematical integers; each `i32` result, each unsigned
//! operation's operands and each loop limit carries a range check that
//! [`Bound::eval`] enforces, so a launch whose values could wrap gets no
//! bound (and the driver falls back to the allocation's end) rather than a
//! wrong one. Induction variables are bounded by their loop's exit test
//! (`i < n` holds inside the body) when they start at a bounded value and
//! only grow by a positive constant.

use std::collections::{HashMap, HashSet};

use crate::ir::{
    cfg::Cfg, AddrSpace, BinaryOp, Block, ConvertOp, Function, InstKind, IntCC, ParamKind, Type,
    Value, ValueDef, WorkItemQuery,
};

/// An integer bound, evaluated at dispatch time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// A constant.
    Const(i64),
    /// By-value parameter `index` (its bits read as `bits` wide, signed or not).
    Arg {
        /// Parameter index.
        index: u32,
        /// Read as a signed integer.
        signed: bool,
        /// 32 or 64.
        bits: u32,
    },
    /// A launch-geometry value: `GlobalSize`, `LocalSize` or `NumGroups`.
    Geometry(WorkItemQuery, u8),
    /// Sum.
    Add(Box<Bound>, Box<Bound>),
    /// Difference.
    Sub(Box<Bound>, Box<Bound>),
    /// Product.
    Mul(Box<Bound>, Box<Bound>),
    /// Smaller of two.
    Min(Box<Bound>, Box<Bound>),
    /// Larger of two.
    Max(Box<Bound>, Box<Bound>),
    /// `⌊a / c⌋` for a constant `c > 0`.
    DivConst(Box<Bound>, i64),
    /// `a`, which must lie in `[lo, hi]`: outside it the no-wrap assumption
    /// the bound rests on fails, and the whole bound is unknown.
    Checked(Box<Bound>, i128, i128),
    /// The first bound's value, provided the second (only its range checks
    /// matter) evaluates.
    Guard(Box<Bound>, Box<Bound>),
}

/// What a dispatch supplies to evaluate a [`Bound`].
#[derive(Clone, Debug, Default)]
pub struct Dispatch {
    /// Raw little-endian bits of each by-value parameter (by parameter
    /// index; `None` for pointers or missing values).
    pub args: Vec<Option<u64>>,
    /// Global size per dimension.
    pub global_size: [u64; 3],
    /// Workgroup size per dimension.
    pub local_size: [u64; 3],
}

impl Bound {
    fn bin(f: fn(Box<Bound>, Box<Bound>) -> Bound, a: Bound, b: Bound) -> Bound {
        f(Box::new(a), Box::new(b))
    }

    fn checked(self, lo: i128, hi: i128) -> Bound {
        Bound::Checked(Box::new(self), lo, hi)
    }

    /// The value at `d`, or `None` where a range check fails or a value
    /// is missing.
    pub fn eval(&self, d: &Dispatch) -> Option<i128> {
        let two = |a: &Bound, b: &Bound| Some((a.eval(d)?, b.eval(d)?));
        Some(match self {
            Bound::Const(c) => *c as i128,
            Bound::Arg {
                index,
                signed,
                bits,
            } => {
                let raw = (*d.args.get(*index as usize)?)?;
                match (bits, signed) {
                    (32, false) => raw as u32 as i128,
                    (32, true) => raw as u32 as i32 as i128,
                    (_, false) => raw as i128,
                    (_, true) => raw as i64 as i128,
                }
            }
            Bound::Geometry(q, dim) => {
                let (g, l) = (
                    d.global_size[*dim as usize] as i128,
                    d.local_size[*dim as usize] as i128,
                );
                match q {
                    WorkItemQuery::GlobalSize => g,
                    WorkItemQuery::LocalSize => l,
                    WorkItemQuery::NumGroups if l > 0 => (g + l - 1) / l,
                    _ => return None,
                }
            }
            Bound::Add(a, b) => {
                let (x, y) = two(a, b)?;
                x.checked_add(y)?
            }
            Bound::Sub(a, b) => {
                let (x, y) = two(a, b)?;
                x.checked_sub(y)?
            }
            Bound::Mul(a, b) => {
                let (x, y) = two(a, b)?;
                x.checked_mul(y)?
            }
            Bound::Min(a, b) => {
                let (x, y) = two(a, b)?;
                x.min(y)
            }
            Bound::Max(a, b) => {
                let (x, y) = two(a, b)?;
                x.max(y)
            }
            Bound::DivConst(a, c) => a.eval(d)?.div_euclid(*c as i128),
            Bound::Guard(a, check) => {
                check.eval(d)?;
                a.eval(d)?
            }
            Bound::Checked(a, lo, hi) => {
                let x = a.eval(d)?;
                if x < *lo || x > *hi {
                    return None;
                }
                x
            }
        })
    }
}

/// An inclusive interval `[lo, hi]` of a value's possible values.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Interval {
    lo: Bound,
    hi: Bound,
}

impl Interval {
    fn exact(b: Bound) -> Interval {
        Interval {
            lo: b.clone(),
            hi: b,
        }
    }

    fn checked(self, lo: i128, hi: i128) -> Interval {
        Interval {
            lo: self.lo.checked(lo, hi),
            hi: self.hi.checked(lo, hi),
        }
    }

    fn union(self, other: Interval) -> Interval {
        Interval {
            lo: Bound::bin(Bound::Min, self.lo, other.lo),
            hi: Bound::bin(Bound::Max, self.hi, other.hi),
        }
    }
}

/// `[lo, hi)` bytes relative to one pointer parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamReach {
    /// The parameter index.
    pub param: u32,
    /// `None`: the kernel's accesses through it could not all be bounded.
    /// `Some((lo, hi))`: the bytes `[pointer + lo, pointer + hi)`.
    pub bytes: Option<(Bound, Bound)>,
}

/// The reach of every global-pointer parameter of one kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReachBounds {
    /// One entry per global-pointer parameter, in parameter order.
    pub params: Vec<ParamReach>,
}

impl ReachBounds {
    /// Bytes from each pointer that the kernel can reach at `d`, indexed by
    /// parameter (`None`: not a pointer, unbounded, or the kernel may reach
    /// below the pointer, which a region starting at the pointer cannot say).
    pub fn eval(&self, d: &Dispatch, params: usize) -> Vec<Option<u64>> {
        let mut out = vec![None; params];
        for p in &self.params {
            let Some((lo, hi)) = &p.bytes else { continue };
            let (Some(lo), Some(hi)) = (lo.eval(d), hi.eval(d)) else {
                continue;
            };
            if lo >= 0 && hi >= 0 {
                if let Some(slot) = out.get_mut(p.param as usize) {
                    *slot = u64::try_from(hi.max(lo)).ok();
                }
            }
        }
        out
    }
}

const I32_MIN: i128 = i32::MIN as i128;
const I32_MAX: i128 = i32::MAX as i128;
const U32_MAX: i128 = u32::MAX as i128;

/// Analyses `f` (a kernel's kept IR).
pub fn reach(f: &Function) -> ReachBounds {
    let pointer_params: Vec<u32> = f
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| p.kind == ParamKind::GlobalBuffer)
        .map(|(i, _)| i as u32)
        .collect();
    let unbounded = || ReachBounds {
        params: pointer_params
            .iter()
            .map(|&param| ParamReach { param, bytes: None })
            .collect(),
    };
    let mut a = Analysis {
        f,
        cfg: Cfg::new(f),
        memo: HashMap::new(),
        busy: HashSet::new(),
    };
    let mut acc: HashMap<u32, Option<Interval>> = HashMap::new();
    for &b in f.blocks() {
        for &i in &f.block(b).insts {
            let kind = &f.inst(i).kind;
            if escapes(f, kind) {
                return unbounded();
            }
            let (addr, size) = match kind {
                InstKind::Load { ty, addr } => (*addr, ty.bytes()),
                InstKind::Store { addr, value } => (*addr, f.ty(*value).bytes()),
                InstKind::Atomic { addr, value, .. } | InstKind::AtomicCas { addr, value, .. } => {
                    (*addr, f.ty(*value).bytes())
                }
                _ => continue,
            };
            if !is_global(f.ty(addr)) {
                continue;
            }
            let Some((param, off)) = a.pointer(addr) else {
                return unbounded();
            };
            let touched = off.map(|off| Interval {
                lo: off.lo,
                hi: Bound::bin(Bound::Add, off.hi, Bound::Const(size as i64)),
            });
            let merged = match acc.remove(&param) {
                Some(prev) => prev.zip(touched).map(|(p, t)| p.union(t)),
                None => touched,
            };
            acc.insert(param, merged);
        }
    }
    ReachBounds {
        params: pointer_params
            .iter()
            .map(|&param| ParamReach {
                param,
                // No access at all: an empty reach (the region pairs with nothing).
                bytes: match acc.remove(&param) {
                    Some(iv) => iv.map(|iv| (iv.lo, iv.hi)),
                    None => Some((Bound::Const(0), Bound::Const(0))),
                },
            })
            .collect(),
    }
}

/// A pointer into memory a pointer argument can address (global or constant).
fn is_global(ty: Type) -> bool {
    matches!(ty, Type::Ptr(AddrSpace::Global | AddrSpace::Constant))
}

/// True when `kind` uses a global pointer other than as an address, a
/// `ptr_add` base, a block argument or a `select` arm.
fn escapes(f: &Function, kind: &InstKind) -> bool {
    let global = |v: &Value| is_global(f.ty(*v));
    match kind {
        InstKind::Store { value, .. } => global(value),
        InstKind::Atomic { value, .. } => global(value),
        InstKind::AtomicCas { cmp, value, .. } => global(cmp) || global(value),
        InstKind::Icmp { args, .. } | InstKind::Binary { args, .. } => args.iter().any(global),
        InstKind::Convert { arg, .. } | InstKind::Unary { arg, .. } => global(arg),
        InstKind::Call { args, .. } => args.iter().any(global),
        InstKind::PtrAdd { offset, .. } => global(offset),
        _ => false,
    }
}

struct Analysis<'a> {
    f: &'a Function,
    cfg: Cfg,
    /// Intervals by (value, the block whose facts apply).
    memo: HashMap<(Value, Block), Option<Interval>>,
    /// Values being computed (a cycle means no bound).
    busy: HashSet<(Value, Block)>,
}

impl Analysis<'_> {
    /// The parameter a global pointer derives from (`None`: untraceable)
    /// and its byte offset (`None`: unbounded).
    fn pointer(&mut self, v: Value) -> Option<(u32, Option<Interval>)> {
        let f = self.f;
        let union = |a: Option<Interval>, b: Option<Interval>| Some(a?.union(b?));
        match f.value(v).def {
            ValueDef::Inst(i) => {
                let def_block = f.inst(i).block?;
                match &f.inst(i).kind {
                    InstKind::KernelArg { index } => {
                        Some((*index, Some(Interval::exact(Bound::Const(0)))))
                    }
                    InstKind::PtrAdd { base, offset } => {
                        let (p, b) = self.pointer(*base)?;
                        let o = self.interval(*offset, def_block).map(|o| {
                            if f.ty(*offset).bits() == 32 {
                                o.checked(I32_MIN, I32_MAX)
                            } else {
                                o
                            }
                        });
                        let sum = b.zip(o).map(|(b, o)| Interval {
                            lo: Bound::bin(Bound::Add, b.lo, o.lo),
                            hi: Bound::bin(Bound::Add, b.hi, o.hi),
                        });
                        Some((p, sum))
                    }
                    InstKind::Select { args, .. } => {
                        let (p, x) = self.pointer(args[0])?;
                        let (q, y) = self.pointer(args[1])?;
                        (p == q).then(|| (p, union(x, y)))
                    }
                    _ => None,
                }
            }
            ValueDef::Param(block, index) => {
                let key = (v, block);
                if !self.busy.insert(key) {
                    return None;
                }
                let incoming = self.incoming(block, index);
                let mut out: Option<(u32, Option<Interval>)> = None;
                let mut ok = true;
                let mut stepped = false;
                for (_, x) in incoming {
                    if x == v {
                        continue;
                    }
                    if self.steps_from(x, v) {
                        // `v + something` around a loop: the same parameter,
                        // an offset this analysis does not bound.
                        stepped = true;
                        continue;
                    }
                    match (self.pointer(x), out.take()) {
                        (Some(n), None) => out = Some(n),
                        (Some((q, y)), Some((p, acc))) if p == q => out = Some((p, union(acc, y))),
                        _ => {
                            ok = false;
                            break;
                        }
                    }
                }
                self.busy.remove(&key);
                match out {
                    Some((p, _)) if ok && stepped => Some((p, None)),
                    out if ok => out,
                    _ => None,
                }
            }
        }
    }

    /// True when pointer `x` is `v` plus offsets (`ptr_add` on `ptr_add` … on `v`).
    fn steps_from(&self, mut x: Value, v: Value) -> bool {
        while let Some(InstKind::PtrAdd { base, .. }) = self.f.def_inst(x) {
            if *base == v {
                return true;
            }
            x = *base;
        }
        false
    }

    /// `(predecessor, value)` for every edge into `block`'s parameter `index`.
    fn incoming(&self, block: Block, index: u32) -> Vec<(Block, Value)> {
        let f = self.f;
        let mut out = Vec::new();
        for &pred in &self.cfg.preds[block.index()] {
            let calls = f.terminator(pred).map(InstKind::block_calls);
            for c in calls.into_iter().flatten() {
                if c.block == block {
                    if let Some(&a) = c.args.get(index as usize) {
                        out.push((pred, a));
                    }
                }
            }
        }
        out
    }

    /// The interval of integer `v` as seen in block `at`.
    fn interval(&mut self, v: Value, at: Block) -> Option<Interval> {
        let f = self.f;
        let at = match f.value(v).def {
            // An instruction's operands are bounded where it is defined.
            ValueDef::Inst(i) => f.inst(i).block?,
            ValueDef::Param(..) => at,
        };
        let key = (v, at);
        if let Some(r) = self.memo.get(&key) {
            return r.clone();
        }
        if !self.busy.insert(key) {
            return None;
        }
        let r = self.compute(v, at);
        self.busy.remove(&key);
        self.memo.insert(key, r.clone());
        r
    }

    fn compute(&mut self, v: Value, at: Block) -> Option<Interval> {
        let f = self.f;
        let ty = f.ty(v);
        if !ty.is_int() || ty.bits() < 32 {
            return None;
        }
        let wide = ty.bits() == 64;
        let fit = |iv: Interval| {
            if wide {
                iv
            } else {
                iv.checked(I32_MIN, U32_MAX)
            }
        };
        let (block, index) = match f.value(v).def {
            ValueDef::Param(b, i) => (b, i),
            ValueDef::Inst(i) => return self.instruction(&f.inst(i).kind.clone(), at, fit),
        };
        // A block parameter: invariant (one value from every edge but its
        // own back edges), or an induction variable.
        let incoming = self.incoming(block, index);
        let others: Vec<_> = incoming.iter().filter(|(_, x)| *x != v).collect();
        if let Some((p0, x0)) = others.first() {
            if others.iter().all(|(_, x)| x == x0) {
                return self.interval(*x0, *p0);
            }
        }
        self.induction(v, block, &incoming, at)
    }

    fn instruction(
        &mut self,
        kind: &InstKind,
        at: Block,
        fit: impl Fn(Interval) -> Interval,
    ) -> Option<Interval> {
        let f = self.f;
        let add = |a: Bound, b: Bound| Bound::bin(Bound::Add, a, b);
        let sub = |a: Bound, b: Bound| Bound::bin(Bound::Sub, a, b);
        Some(match kind {
            InstKind::Iconst { imm, .. } => Interval::exact(Bound::Const(*imm)),
            InstKind::KernelArg { index } => {
                let p = f.params.get(*index as usize)?;
                if p.kind != ParamKind::ByValue || !p.ty.is_int() {
                    return None;
                }
                let unsigned = p.type_name.starts_with('u') || p.type_name == "size_t";
                Interval::exact(Bound::Arg {
                    index: *index,
                    signed: !unsigned,
                    bits: p.ty.bits(),
                })
            }
            InstKind::WorkItem { query, dim } => {
                let size = |q| Bound::Geometry(q, *dim);
                let below = |q| Interval {
                    lo: Bound::Const(0),
                    hi: sub(size(q), Bound::Const(1)),
                };
                match query {
                    WorkItemQuery::GlobalId => below(WorkItemQuery::GlobalSize),
                    WorkItemQuery::LocalId => below(WorkItemQuery::LocalSize),
                    WorkItemQuery::GroupId => below(WorkItemQuery::NumGroups),
                    q => Interval::exact(size(*q)),
                }
            }
            InstKind::Binary { op, args: [a, b] } => {
                let (x, y) = (self.interval(*a, at)?, self.interval(*b, at)?);
                let nonneg = |iv: Interval| iv.checked(0, i128::MAX);
                let konst = f.iconst_value(*b);
                fit(match op {
                    BinaryOp::Iadd => Interval {
                        lo: add(x.lo, y.lo),
                        hi: add(x.hi, y.hi),
                    },
                    BinaryOp::Isub => Interval {
                        lo: sub(x.lo, y.hi),
                        hi: sub(x.hi, y.lo),
                    },
                    BinaryOp::Imul => multiply(x, y),
                    BinaryOp::Shl => {
                        let s = konst.filter(|s| (0..31).contains(s))?;
                        multiply(x, Interval::exact(Bound::Const(1 << s)))
                    }
                    BinaryOp::Lshr | BinaryOp::Udiv => {
                        let c = match op {
                            BinaryOp::Lshr => 1i64 << konst.filter(|s| (0..31).contains(s))?,
                            _ => konst.filter(|&c| c > 0)?,
                        };
                        let x = nonneg(x);
                        Interval {
                            lo: Bound::DivConst(Box::new(x.lo), c),
                            hi: Bound::DivConst(Box::new(x.hi), c),
                        }
                    }
                    BinaryOp::Urem => {
                        let c = konst.filter(|&c| c > 0)?;
                        Interval {
                            lo: Bound::Const(0),
                            hi: Bound::Min(Box::new(nonneg(x).hi), Box::new(Bound::Const(c - 1))),
                        }
                    }
                    BinaryOp::And => {
                        // With a non-negative mask the result is within [0, mask].
                        let c = konst.filter(|&c| c >= 0)?;
                        Interval {
                            lo: Bound::Const(0),
                            hi: Bound::Const(c),
                        }
                    }
                    BinaryOp::Smin | BinaryOp::Umin => {
                        let (x, y) = if *op == BinaryOp::Umin {
                            (nonneg(x), nonneg(y))
                        } else {
                            (x, y)
                        };
                        Interval {
                            lo: Bound::bin(Bound::Min, x.lo, y.lo),
                            hi: Bound::bin(Bound::Min, x.hi, y.hi),
                        }
                    }
                    BinaryOp::Smax | BinaryOp::Umax => {
                        let (x, y) = if *op == BinaryOp::Umax {
                            (nonneg(x), nonneg(y))
                        } else {
                            (x, y)
                        };
                        Interval {
                            lo: Bound::bin(Bound::Max, x.lo, y.lo),
                            hi: Bound::bin(Bound::Max, x.hi, y.hi),
                        }
                    }
                    _ => return None,
                })
            }
            InstKind::Convert { op, arg, to } if to.is_int() => {
                if f.ty(*arg).bits() < 32 {
                    return None;
                }
                let x = self.interval(*arg, at)?;
                match op {
                    // Zero extension keeps the value when it is non-negative
                    // as the analysis sees it (an i32 in [0, 2^32)).
                    ConvertOp::Zext => x.checked(0, U32_MAX),
                    ConvertOp::Sext => x.checked(I32_MIN, I32_MAX),
                    ConvertOp::Trunc if to.bits() == 32 => x.checked(I32_MIN, U32_MAX),
                    _ => return None,
                }
            }
            InstKind::Select { args, .. } => {
                let x = self.interval(args[0], at)?;
                let y = self.interval(args[1], at)?;
                x.union(y)
            }
            _ => return None,
        })
    }

    /// An induction variable `v` (parameter of loop header `header`): it
    /// starts at the values from outside the loop and each back edge adds a
    /// positive constant; inside the loop body (blocks dominated by the
    /// header's stay edge) the header's exit test bounds it from above.
    fn induction(
        &mut self,
        v: Value,
        header: Block,
        incoming: &[(Block, Value)],
        at: Block,
    ) -> Option<Interval> {
        let f = self.f;
        let latches: Vec<Block> = self
            .cfg
            .back_edges
            .iter()
            .filter(|(_, h)| *h == header)
            .map(|(l, _)| *l)
            .collect();
        if latches.is_empty() {
            return None;
        }
        let mut init: Option<Interval> = None;
        for &(pred, x) in incoming {
            if latches.contains(&pred) {
                // Each back edge: `v + c` with a constant c > 0.
                let Some(InstKind::Binary {
                    op: BinaryOp::Iadd,
                    args: [a, b],
                }) = f.def_inst(x)
                else {
                    return None;
                };
                let step = if *a == v {
                    f.iconst_value(*b)
                } else if *b == v {
                    f.iconst_value(*a)
                } else {
                    None
                };
                if !step.is_some_and(|c| c > 0 && c < (1 << 16)) {
                    return None;
                }
            } else {
                let iv = self.interval(x, pred)?;
                init = Some(match init {
                    Some(i) => i.union(iv),
                    None => iv,
                });
            }
        }
        let init = init?;
        // The exit test at the header, seen from the edge that stays.
        let Some(InstKind::Brif {
            cond,
            then_dest,
            else_dest,
        }) = f.terminator(header)
        else {
            return None;
        };
        let body: Vec<Block> = latches
            .iter()
            .flat_map(|&l| self.cfg.loop_blocks(l, header))
            .collect();
        let (stay, holds) = if body.contains(&then_dest.block) && !body.contains(&else_dest.block) {
            (then_dest.block, true)
        } else if body.contains(&else_dest.block) && !body.contains(&then_dest.block) {
            (else_dest.block, false)
        } else {
            return None;
        };
        if stay == header || !self.cfg.dominates(stay, at) || !body.contains(&at) {
            return None;
        }
        let Some(InstKind::Icmp { cond: cc, args }) = f.def_inst(*cond) else {
            return None;
        };
        // Normalise to `v cc' limit` that holds inside the body.
        let (cc, limit) = if args[0] == v {
            (*cc, args[1])
        } else if args[1] == v {
            (swap(*cc), args[0])
        } else {
            return None;
        };
        let cc = if holds { cc } else { negate(cc) };
        let (below, unsigned) = match cc {
            IntCC::Ult => (1, true),
            IntCC::Ule => (0, true),
            IntCC::Slt => (1, false),
            IntCC::Sle => (0, false),
            _ => return None,
        };
        let lim = self.interval(limit, header)?;
        // The limit must keep `v + step` from wrapping before the test ends the loop.
        // An unsigned test also needs the whole limit non-negative: a
        // negative limit reads as a huge unsigned one.
        let top = I32_MAX - (1 << 16);
        let lim_hi = if unsigned {
            Bound::Guard(
                Box::new(lim.hi.checked(0, top)),
                Box::new(lim.lo.checked(0, top)),
            )
        } else {
            lim.hi.checked(I32_MIN, top)
        };
        let lo = if unsigned {
            init.lo.checked(0, I32_MAX)
        } else {
            init.lo
        };
        Some(Interval {
            lo,
            hi: Bound::bin(Bound::Sub, lim_hi, Bound::Const(below)),
        })
    }
}

/// Interval product: the extremes are among the four corner products.
fn multiply(x: Interval, y: Interval) -> Interval {
    let p = |a: &Bound, b: &Bound| Bound::bin(Bound::Mul, a.clone(), b.clone());
    let corners = [
        p(&x.lo, &y.lo),
        p(&x.lo, &y.hi),
        p(&x.hi, &y.lo),
        p(&x.hi, &y.hi),
    ];
    let fold = |f: fn(Box<Bound>, Box<Bound>) -> Bound| {
        corners[1..]
            .iter()
            .fold(corners[0].clone(), |acc, c| Bound::bin(f, acc, c.clone()))
    };
    Interval {
        lo: fold(Bound::Min),
        hi: fold(Bound::Max),
    }
}

/// `a cc b` ⇔ `b swap(cc) a`.
fn swap(cc: IntCC) -> IntCC {
    match cc {
        IntCC::Ult => IntCC::Ugt,
        IntCC::Ule => IntCC::Uge,
        IntCC::Ugt => IntCC::Ult,
        IntCC::Uge => IntCC::Ule,
        IntCC::Slt => IntCC::Sgt,
        IntCC::Sle => IntCC::Sge,
        IntCC::Sgt => IntCC::Slt,
        IntCC::Sge => IntCC::Sle,
        c => c,
    }
}

/// `!(a cc b)` ⇔ `a negate(cc) b`.
fn negate(cc: IntCC) -> IntCC {
    match cc {
        IntCC::Ult => IntCC::Uge,
        IntCC::Ule => IntCC::Ugt,
        IntCC::Ugt => IntCC::Ule,
        IntCC::Uge => IntCC::Ult,
        IntCC::Slt => IntCC::Sge,
        IntCC::Sle => IntCC::Sgt,
        IntCC::Sgt => IntCC::Sle,
        IntCC::Sge => IntCC::Slt,
        IntCC::Eq => IntCC::Ne,
        IntCC::Ne => IntCC::Eq,
    }
}
