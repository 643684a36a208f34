//! Memory dependences for seed 002: addresses as affine forms over SSA
//! values, and the test "can these two accesses touch the same byte" that
//! uses the driver's facts (docs/compiler.md "Seed 002").
//!
//! Index arithmetic is taken as not wrapping (`i32` index expressions and
//! the sign extension of a `ptr_add` offset): OpenCL leaves signed overflow
//! undefined, and an index that wraps would address outside the buffer.

use std::collections::{BTreeMap, HashMap};

use super::{Facts, Relation};
use crate::ir::{AddrSpace, BinaryOp, ConvertOp, Function, InstKind, LocalVar, Type, Value};

/// What an address is relative to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Root {
    /// Kernel parameter `index` (a pointer argument).
    Param(u32),
    /// A `__local` variable.
    Local(LocalVar),
    /// Nothing known: only the affine terms say where it is.
    Opaque,
}

/// `root + Σ coeff·atom + offset` bytes (or a plain integer with
/// [`Root::Opaque`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Affine {
    /// The base.
    pub root: Root,
    /// Non-constant parts: atom value → coefficient (never 0).
    pub terms: BTreeMap<Value, i64>,
    /// The constant part.
    pub offset: i64,
}

impl Affine {
    fn constant(c: i64) -> Affine {
        Affine {
            root: Root::Opaque,
            terms: BTreeMap::new(),
            offset: c,
        }
    }

    fn atom(v: Value) -> Affine {
        Affine {
            root: Root::Opaque,
            terms: BTreeMap::from([(v, 1)]),
            offset: 0,
        }
    }

    /// `self + k·other`, or `None` when both have a root (a pointer plus a
    /// pointer means nothing).
    fn add_scaled(&self, other: &Affine, k: i64) -> Option<Affine> {
        let root = match (self.root, other.root) {
            (r, Root::Opaque) => r,
            (Root::Opaque, r) if k == 1 => r,
            _ => return None,
        };
        let mut terms = self.terms.clone();
        for (&v, &c) in &other.terms {
            let e = terms.entry(v).or_insert(0);
            *e = e.checked_add(c.checked_mul(k)?)?;
            if *e == 0 {
                terms.remove(&v);
            }
        }
        Some(Affine {
            root,
            terms,
            offset: self.offset.checked_add(other.offset.checked_mul(k)?)?,
        })
    }

    fn scaled(&self, k: i64) -> Option<Affine> {
        if self.root != Root::Opaque {
            return None;
        }
        Affine::constant(0).add_scaled(self, k)
    }

    /// The coefficient of `v` (0 when absent).
    pub fn coeff(&self, v: Value) -> i64 {
        self.terms.get(&v).copied().unwrap_or(0)
    }
}

/// Affine forms of values, memoised.
pub struct AffineCache {
    memo: HashMap<Value, Affine>,
}

impl AffineCache {
    /// An empty cache.
    pub fn new() -> AffineCache {
        AffineCache {
            memo: HashMap::new(),
        }
    }

    /// The affine form of `v` (an atom when it is nothing better).
    pub fn of(&mut self, f: &Function, v: Value) -> Affine {
        if let Some(a) = self.memo.get(&v) {
            return a.clone();
        }
        let a = self.compute(f, v).unwrap_or_else(|| Affine::atom(v));
        self.memo.insert(v, a.clone());
        a
    }

    fn compute(&mut self, f: &Function, v: Value) -> Option<Affine> {
        let k = f.def_inst(v)?.clone();
        Some(match k {
            InstKind::Iconst { imm, .. } => Affine::constant(imm),
            InstKind::KernelArg { index } if matches!(f.ty(v), Type::Ptr(_)) => Affine {
                root: Root::Param(index),
                terms: BTreeMap::new(),
                offset: 0,
            },
            InstKind::LocalAddr { var } => Affine {
                root: Root::Local(var),
                terms: BTreeMap::new(),
                offset: 0,
            },
            InstKind::PtrAdd { base, offset } => {
                let (b, o) = (self.of(f, base), self.of(f, offset));
                b.add_scaled(&o, 1)?
            }
            InstKind::Binary { op, args: [a, b] } if f.ty(v).bits() >= 32 => {
                let (x, y) = (self.of(f, a), self.of(f, b));
                match op {
                    BinaryOp::Iadd => x.add_scaled(&y, 1)?,
                    BinaryOp::Isub => x.add_scaled(&y, -1)?,
                    BinaryOp::Imul => match (f.iconst_value(a), f.iconst_value(b)) {
                        (_, Some(c)) => x.scaled(c)?,
                        (Some(c), _) => y.scaled(c)?,
                        _ => return None,
                    },
                    BinaryOp::Shl => {
                        let s = f.iconst_value(b)?;
                        if !(0..31).contains(&s) {
                            return None;
                        }
                        x.scaled(1 << s)?
                    }
                    _ => return None,
                }
            }
            InstKind::Convert {
                op: ConvertOp::Sext | ConvertOp::Zext,
                arg,
                ..
            } if f.ty(arg).bits() >= 32 => self.of(f, arg),
            _ => return None,
        })
    }
}

impl Default for AffineCache {
    fn default() -> Self {
        AffineCache::new()
    }
}

/// One memory access of a loop body, as the dependence test sees it.
#[derive(Clone, Debug)]
pub struct Access {
    /// Its address.
    pub addr: Affine,
    /// Bytes accessed.
    pub size: i64,
    /// Address space.
    pub space: AddrSpace,
    /// A store (or an atomic: [`Access::fence`]).
    pub writes: bool,
    /// An atomic: ordered against every other access.
    pub fence: bool,
}

impl Access {
    /// The access an unrolled copy makes when the induction variable `iv`
    /// is `iv + k`.
    pub fn shifted(&self, iv: Value, k: i64) -> Access {
        let mut a = self.clone();
        a.addr.offset += self.addr.coeff(iv) * k;
        a
    }
}

/// True when `a` and `b` never touch a common byte, given the driver's
/// facts: the same base and the same non-constant terms with
/// non-intersecting constant ranges; or two pointer parameters whose
/// regions are disjoint; or two parameters that overlap at a known base
/// distance, with the same terms and non-intersecting ranges once the
/// distance is added. Two loads are always independent. Anything else may
/// alias (no fact, no reordering: spec 002 §6 behaviour 7).
pub fn independent(a: &Access, b: &Access, facts: &Facts) -> bool {
    if !a.writes && !b.writes {
        return true;
    }
    if a.fence || b.fence {
        return false;
    }
    let local = |s: AddrSpace| s == AddrSpace::Local;
    if local(a.space) != local(b.space) {
        return true;
    }
    let apart = |da: i64, db: i64| da + a.size <= db || db + b.size <= da;
    if a.addr.root == b.addr.root {
        return a.addr.terms == b.addr.terms && apart(a.addr.offset, b.addr.offset);
    }
    let (Root::Param(p), Root::Param(q)) = (a.addr.root, b.addr.root) else {
        return false;
    };
    match facts.relation(p, q) {
        Some(Relation::Disjoint) => true,
        Some(Relation::Overlap { delta }) => {
            // `delta` = base(q) − base(p): b's bytes sit `delta` further on.
            a.addr.terms == b.addr.terms && apart(a.addr.offset, b.addr.offset + delta)
        }
        None => false,
    }
}
