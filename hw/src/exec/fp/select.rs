//! Operations that select or classify rather than compute: compare, class,
//! min/max/med3 with AMD's NaN rules, and the clamp output modifier.

use super::format::{Ctx, Fmt};
use super::Order;

/// Orders two non-NaN encodings as numbers, -0 below +0 (total order).
#[inline]
fn key(f: Fmt, x: u64) -> i128 {
    let m = f.abs(x) as i128;
    if f.sign(x) {
        -m - 1
    } else {
        m
    }
}

/// A denormal in or out of an operation that passes a value through: read as
/// signed zero unless denormals are kept both ways.
#[inline]
fn pass(f: Fmt, x: u64, c: Ctx) -> u64 {
    f.flush_in(x, c.dn.keep_in && c.dn.keep_out)
}

/// IEEE compare after input flushing: ±0 equal, NaN unordered.
pub(crate) fn compare(a: u64, b: u64, c: Ctx) -> Order {
    let f = c.f;
    if f.is_nan(a) || f.is_nan(b) {
        return Order::Unordered;
    }
    let a = f.flush_in(a, c.dn.keep_in);
    let b = f.flush_in(b, c.dn.keep_in);
    if f.is_zero(a) && f.is_zero(b) {
        return Order::Equal;
    }
    match key(f, a).cmp(&key(f, b)) {
        core::cmp::Ordering::Less => Order::Less,
        core::cmp::Ordering::Equal => Order::Equal,
        core::cmp::Ordering::Greater => Order::Greater,
    }
}

/// `v_cmp_class`: the class index of the raw bits (0 sNaN … 9 +inf).
pub(crate) fn class(x: u64, f: Fmt, mask: u32) -> bool {
    let s = f.sign(x);
    let idx = if f.is_snan(x) {
        0
    } else if f.is_nan(x) {
        1
    } else if f.is_inf(x) {
        if s {
            2
        } else {
            9
        }
    } else if f.is_zero(x) {
        if s {
            5
        } else {
            6
        }
    } else if f.is_denorm(x) {
        if s {
            4
        } else {
            7
        }
    } else if s {
        3
    } else {
        8
    };
    mask >> idx & 1 != 0
}

/// `v_min_*` / `v_max_*`: in IEEE mode a signalling NaN (src0 first) is
/// returned quieted; otherwise a NaN yields the other operand;
/// `min(-0, +0) = -0`, `max(-0, +0) = +0`.
pub(crate) fn min_max(a: u64, b: u64, want_max: bool, ieee: bool, c: Ctx) -> u64 {
    let f = c.f;
    if ieee {
        if f.is_snan(a) {
            return f.quiet(a);
        }
        if f.is_snan(b) {
            return f.quiet(b);
        }
    }
    if f.is_nan(a) {
        return if f.is_nan(b) { b } else { pass(f, b, c) };
    }
    if f.is_nan(b) {
        return pass(f, a, c);
    }
    let a = pass(f, a, c);
    let b = pass(f, b, c);
    if (key(f, a) > key(f, b)) == want_max {
        a
    } else {
        b
    }
}

/// `v_med3_*`: `min3` when any input is NaN, else the middle value.
pub(crate) fn med3(a: u64, b: u64, d: u64, ieee: bool, c: Ctx) -> u64 {
    let f = c.f;
    if f.is_nan(a) || f.is_nan(b) || f.is_nan(d) {
        let m = min_max(a, b, false, ieee, c);
        return min_max(m, d, false, ieee, c);
    }
    let lo = min_max(a, b, false, ieee, c);
    let hi = min_max(a, b, true, ieee, c);
    let mid = min_max(hi, d, false, ieee, c);
    min_max(lo, mid, true, ieee, c)
}

/// The clamp output modifier: [0, 1], NaN to +0 (in either DX10_CLAMP setting).
pub(crate) fn clamp(x: u64, f: Fmt) -> u64 {
    if f.is_nan(x) || (f.sign(x) && !f.is_zero(x)) {
        0
    } else if f.abs(x) > f.one() {
        f.one()
    } else {
        x
    }
}
