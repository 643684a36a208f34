//! The `-O` pipeline ([`optimize`]), one file per pass, and the clean-up
//! the back end runs at every level ([`unify_returns`], [`unify_latches`],
//! [`dce`]):
//! * [`params`] — redundant block parameters, straight block chains;
//! * [`fold`](fold_constants) — constant folding;
//! * [`shrink_float`] — `(float)((double)x * 0.5)` done in `float`, as
//!   LLVM's InstCombine does when the result is the same;
//! * [`simplify`] — strength reduction, identities, reassociation;
//! * [`share_division`] — a remainder reuses its division;
//! * [`cse`] — value numbering over the dominator tree;
//! * [`licm`] — loop-invariant code motion;
//! * [`unroll`] — counted loops (the shared recogniser:
//!   [`crate::ir::counted_loop`]) unrolled fully or by a runtime count;
//! * [`dce`] — dead code;
//! * `cfg_cleanup` — one exit, one latch per loop.
//!
//! Each is linear (or linear times the dominator depth) in the function.

mod cfg_cleanup;
mod cse;
mod dce;
mod fold;
mod licm;
pub mod params;
mod share_division;
mod shrink_float;
mod simplify;
pub mod unroll;

use std::collections::HashMap;

use crate::ir::{Function, Inst, InstKind, Type, Value};

pub use cfg_cleanup::{unify_latches, unify_returns};
pub use cse::cse;
pub use dce::dce;
pub use fold::fold_constants;
pub use licm::licm;
pub use share_division::share_division;
pub use shrink_float::shrink_float;
pub use simplify::simplify;
pub use unroll::{unroll_counted_loops, unroll_loops, UnrollLimits};

/// Runs the `-O` pipeline: fold, simplify (strength reduction), CSE, LICM,
/// unrolling of small counted loops, then fold/CSE/DCE again.
pub fn optimize(f: &mut Function) {
    // Values passed unchanged around loops stop being loop parameters first,
    // so the loop analyses below see them as invariant.
    params::remove_redundant_params(f);
    params::merge_straight_blocks(f);
    fold_constants(f);
    shrink_float(f);
    simplify(f);
    share_division(f);
    cse(f);
    licm(f);
    let unrolled = unroll_counted_loops(f, 16, 64) + unroll_loops(f, UnrollLimits::default());
    if unrolled > 0 {
        params::remove_redundant_params(f);
        params::merge_straight_blocks(f);
        fold_constants(f);
        simplify(f);
        cse(f);
        licm(f);
    }
    dce(f);
}

/// Wraps `x` to the width of `ty` (sign-extended, as `Iconst` stores it).
fn wrap(ty: Type, x: i64) -> i64 {
    match ty.bits() {
        1 => x & 1,
        8 => x as i8 as i64,
        16 => x as i16 as i64,
        32 => x as i32 as i64,
        _ => x,
    }
}

/// Replaces every use of a key of `replace` by its value (followed to the
/// end of a chain).
fn apply_replacements<S: std::hash::BuildHasher>(
    f: &mut Function,
    replace: &HashMap<Value, Value, S>,
) {
    if replace.is_empty() {
        return;
    }
    let resolve = |mut v: Value| {
        while let Some(&n) = replace.get(&v) {
            v = n;
        }
        v
    };
    for b in f.blocks().to_vec() {
        for i in f.block(b).insts.clone() {
            f.inst_mut(i).kind.map_operands(resolve);
        }
    }
}

/// Places `kind` (with a result of `ty`) just before `at`; returns the result.
fn insert_before(f: &mut Function, at: Inst, kind: InstKind, ty: Type) -> Value {
    let b = f.inst(at).block.expect("placed");
    let (i, v) = f.append_inst(b, kind, Some(ty));
    f.move_before(i, at);
    v.expect("a result")
}
