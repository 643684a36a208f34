//! `printf` (OpenCL C 1.2 §6.12.13) in the front end: the format must be a
//! string literal; it becomes an `amdhsa.printf` entry
//! (`"ID:NARGS:SIZE…:FORMAT"`, clang-19's convention, `docs/driver.md`
//! "printf") and the call a [`Builtin::Printf`] whose operands are the values
//! to store after the ID, in order:
//!
//! - `char`/`short`/`bool` scalars promoted to `int` (C's default argument
//!   promotions), `half` to `float`; other scalars and vectors as they are
//!   (a `float` stays 4 bytes, as clang stores it; 3-element vectors take
//!   the room of 4); pointers as a 64-bit `ulong` (for `%p`);
//! - a string literal (for `%s`) as its bytes, NUL-padded to a multiple of 4,
//!   in `uint` constants.
//!
//! Every record ends with gpusim's 8-byte work-item tag, which the lowering
//! writes: NARGS and the sizes include it (C ignores an argument no
//! conversion consumes, so other runtimes still decode the record).

use super::super::super::ast::{self, ExprKind as A};
use super::super::super::builtins::Builtin;
use super::super::super::diag::{err, Loc, Result};
use super::super::super::tast::*;
use super::super::super::types::{Scalar, Type};
use super::super::expr::{int_const, rv, Ctx};
use super::super::Sema;

/// Bytes of the work-item tag (`sw::driver::printf::TAG_BYTES`).
const TAG_BYTES: u32 = 8;

impl Sema<'_> {
    /// `printf(format, args…)`.
    pub(in super::super) fn printf_call(&mut self, args: &[ast::Expr], loc: Loc) -> Result<Expr> {
        let Some(first) = args.first() else {
            return err(
                loc,
                "too few arguments to function call 'printf', expected at least 1, have 0",
            );
        };
        let Some(format) = self.string_literal(first)? else {
            return err(first.loc, "the format of 'printf' must be a string literal");
        };
        // The format is cut at its first NUL, as C reads it.
        let format: Vec<u8> = format.into_iter().take_while(|&b| b != 0).collect();
        let string_args = string_positions(&format);
        let mut operands = Vec::new();
        let mut sizes = Vec::new();
        for (i, a) in args[1..].iter().enumerate() {
            if string_args.contains(&i) {
                let Some(mut bytes) = self.string_literal(a)? else {
                    return err(
                        a.loc,
                        "a '%s' argument of 'printf' must be a string literal (the string is copied into the printf buffer)",
                    );
                };
                bytes.push(0);
                bytes.resize(bytes.len().next_multiple_of(4), 0);
                for w in bytes.chunks(4) {
                    let v = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
                    operands.push(int_const(i128::from(v), Type::UINT, a.loc));
                }
                sizes.push(bytes.len() as u32);
                continue;
            }
            let v = self.rvalue(a)?;
            let promoted = match &v.ty {
                Type::Scalar(
                    Scalar::Bool | Scalar::Char | Scalar::UChar | Scalar::Short | Scalar::UShort,
                ) => self.convert(v, &Type::INT, Ctx::Pass)?,
                Type::Scalar(Scalar::Half) => self.convert(v, &Type::FLOAT, Ctx::Pass)?,
                Type::Scalar(_) => v,
                Type::Vector(s, _) if *s != Scalar::Bool => v,
                Type::Pointer(_) => self.explicit_cast(v, &Type::ULONG, a.loc)?,
                _ => {
                    let t = self.type_name(&v.ty);
                    return err(
                        a.loc,
                        format!("cannot pass an argument of type '{t}' to 'printf'"),
                    );
                }
            };
            sizes.push(match &promoted.ty {
                Type::Vector(s, 3) => s.size() * 4,
                Type::Vector(s, n) => s.size() * u32::from(*n),
                Type::Scalar(s) => s.size(),
                _ => 8,
            });
            operands.push(promoted);
        }
        sizes.push(TAG_BYTES);
        let id = self.printf_formats.len() as u32 + 1;
        let mut entry = format!("{id}:{}:", sizes.len());
        for s in &sizes {
            entry.push_str(&format!("{s}:"));
        }
        entry.push_str(&escape(&format));
        self.printf_formats.push(entry);
        Ok(rv(
            ExprKind::Builtin(Builtin::Printf(id), operands),
            Type::INT,
            loc,
        ))
    }

    /// The bytes of a string literal (escapes decoded), `None` if `e` is not one.
    fn string_literal(&self, e: &ast::Expr) -> Result<Option<Vec<u8>>> {
        let A::Str(parts) = &e.kind else {
            return Ok(None);
        };
        let mut out = Vec::new();
        for p in parts {
            let s = self.int.get(*p);
            let inner = &s[1..s.len() - 1];
            match super::super::super::lexer::unescape(inner) {
                Some(b) => out.extend_from_slice(&b),
                None => return err(e.loc, "invalid escape sequence in string literal"),
            }
        }
        Ok(Some(out))
    }
}

/// Indices (among the arguments after the format) that a `%s` consumes.
/// `*` widths and precisions consume an argument each.
fn string_positions(f: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut next = 0usize;
    let mut i = 0;
    while i < f.len() {
        if f[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if f.get(i) == Some(&b'%') {
            i += 1;
            continue;
        }
        while i < f.len() && !f[i].is_ascii_alphabetic() || f.get(i) == Some(&b'v') {
            if f[i] == b'*' {
                next += 1;
            }
            if f[i] == b'v' {
                i += 1;
                while i < f.len() && f[i].is_ascii_digit() {
                    i += 1;
                }
                continue;
            }
            i += 1;
        }
        // Length modifiers, then the conversion.
        while i < f.len() && b"hlLjzt".contains(&f[i]) {
            i += 1;
        }
        if let Some(&c) = f.get(i) {
            if c == b's' {
                out.push(next);
            }
            next += 1;
            i += 1;
        }
    }
    out
}

/// Escapes a format for `amdhsa.printf` as clang does: `:` as `\72`,
/// control characters as `\n`, `\t`… (`sw::driver::printf::unescape` is the
/// inverse).
fn escape(f: &[u8]) -> String {
    let mut out = String::new();
    for c in String::from_utf8_lossy(f).chars() {
        match c {
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\x0b' => out.push_str("\\v"),
            ':' => out.push_str("\\72"),
            c => out.push(c),
        }
    }
    out
}
