//! The fixed part of every generated program: the Csmith-style safe
//! arithmetic wrappers (each returns its first operand where the operation
//! would be undefined: signed overflow, division by zero, `MIN / -1`), the
//! float-to-integer range guards (an out-of-range conversion is undefined),
//! the hash helpers, and — for clang only, which is compiled with
//! `-nogpulib` — definitions of the `convert_<type>` built-ins the program
//! uses (the default-rounding conversions are exactly C casts, so a cast is
//! an independent definition of what gpusim's built-in must do).

use super::scalar::{Scalar, INTS};

/// The wrappers, guards and hash helpers, one function per line.
pub fn helpers() -> Vec<String> {
    let mut out = Vec::new();
    for &t in INTS {
        let n = t.name();
        let (min, max) = (t.min_macro(), t.max_macro());
        let small = t.bits() < 32;
        // Addition and subtraction.
        out.push(if !t.signed() || small {
            format!("static {n} add_{n}({n} a, {n} b) {{ return ({n})(a + b); }}")
        } else {
            format!("static {n} add_{n}({n} a, {n} b) {{ return ((b > 0 && a > {max} - b) || (b < 0 && a < {min} - b)) ? a : a + b; }}")
        });
        out.push(if !t.signed() || small {
            format!("static {n} sub_{n}({n} a, {n} b) {{ return ({n})(a - b); }}")
        } else {
            format!("static {n} sub_{n}({n} a, {n} b) {{ return ((b < 0 && a > {max} + b) || (b > 0 && a < {min} + b)) ? a : a - b; }}")
        });
        // Multiplication: ushort * ushort overflows int after promotion.
        out.push(match t {
            Scalar::UShort => format!("static {n} mul_{n}({n} a, {n} b) {{ return ({n})((uint)a * (uint)b); }}"),
            Scalar::Int => format!("static {n} mul_{n}({n} a, {n} b) {{ long r = (long)a * (long)b; return (r > INT_MAX || r < INT_MIN) ? a : (int)r; }}"),
            Scalar::Long => format!("static {n} mul_{n}({n} a, {n} b) {{ return ((a > 0 && b > 0 && a > LONG_MAX / b) || (a > 0 && b <= 0 && b < LONG_MIN / a) || (a <= 0 && b > 0 && a < LONG_MIN / b) || (a < 0 && b < 0 && b < LONG_MAX / a)) ? a : a * b; }}"),
            _ => format!("static {n} mul_{n}({n} a, {n} b) {{ return ({n})(a * b); }}"),
        });
        // Division and remainder.
        for (op, name) in [("/", "div"), ("%", "mod")] {
            out.push(if t.signed() && !small {
                format!("static {n} {name}_{n}({n} a, {n} b) {{ return (b == 0 || (a == {min} && b == -1)) ? a : a {op} b; }}")
            } else {
                format!("static {n} {name}_{n}({n} a, {n} b) {{ return b == 0 ? a : ({n})(a {op} b); }}")
            });
        }
        // Shifts: OpenCL masks the count to the operand's width, so any
        // count is defined; signed left shifts go through the unsigned type
        // (shifting a negative value left is undefined in C99).
        let u = t.unsigned().name();
        out.push(if small {
            format!("static {n} shl_{n}({n} a, {n} b) {{ return ({n})((uint)a << (b & 7)); }}")
        } else {
            format!("static {n} shl_{n}({n} a, {n} b) {{ return ({n})(({u})a << b); }}")
        });
        out.push(if small {
            format!("static {n} shr_{n}({n} a, {n} b) {{ return ({n})(a >> (b & 7)); }}")
        } else {
            format!("static {n} shr_{n}({n} a, {n} b) {{ return a >> b; }}")
        });
        // Negation: -MIN overflows.
        out.push(if t.signed() && !small {
            format!("static {n} neg_{n}({n} a) {{ return a == {min} ? a : -a; }}")
        } else {
            format!("static {n} neg_{n}({n} a) {{ return ({n})(-a); }}")
        });
        // Float -> integer: the value if it converts, else 0 (the bounds
        // are powers of two, exact in float and double).
        let (lo, hi) = t.float_bounds();
        for f in ["float", "double"] {
            let s = if f == "float" { "f" } else { "" };
            out.push(format!("static {f} in_{n}_{f}({f} x) {{ return (x {lo}{s} && x < {hi}{s}) ? x : 0.0{s}; }}"));
        }
    }
    out.push(
        "static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }"
            .into(),
    );
    out.push(
        "static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }".into(),
    );
    out.push(
        "static ulong dbits(double x) { return x != x ? 0x7ff8000000000000UL : as_ulong(x); }"
            .into(),
    );
    out
}

/// clang-only definitions (`#ifdef CLGEN_CLANG`) of the `convert_<to>`
/// built-ins a program calls: `uses` holds (to, from) type names, scalar or
/// vector.
pub fn clang_converts(uses: &[(String, String)]) -> Vec<String> {
    if uses.is_empty() {
        return Vec::new();
    }
    let mut out = vec!["#ifdef CLGEN_CLANG".to_string()];
    for (to, from) in uses {
        let body = if to.ends_with(|c: char| c.is_ascii_digit()) {
            format!("__builtin_convertvector(x, {to})")
        } else {
            format!("({to})x")
        };
        out.push(format!(
            "{to} __attribute__((overloadable)) convert_{to}({from} x) {{ return {body}; }}"
        ));
    }
    out.push("#endif".into());
    out
}
