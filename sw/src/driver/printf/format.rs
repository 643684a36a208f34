//! The `printf` formatter: OpenCL C 1.2 §6.12.13 format strings applied to
//! the argument bytes a kernel wrote into the printf buffer.
//!
//! C semantics throughout (C99 7.19.6.1, as glibc prints): flags `- + space
//! # 0`, field width and precision (either may be `*`, which takes an `int`
//! argument, as clang accepts for OpenCL), length modifiers `hh h l` and,
//! with a vector specifier, `hl`; conversions `d i o u x X c s p f F e E g G
//! a A %`. OpenCL additions:
//!
//! - a vector specifier `vN` (N = 2, 3, 4, 8, 16) prints the N elements with
//!   the same flags, width and precision, separated by commas;
//! - a `float` argument is printed as the `double` of equal value (§6.12.13.2:
//!   "float arguments to printf are converted to double"); in the buffer it
//!   occupies 4 bytes (clang stores the `float`) or 8 (a `double`), and the
//!   formatter reads whichever the record holds;
//! - `%s` takes the string's bytes, which clang's convention stores in the
//!   record itself (a string literal's characters, NUL-padded to 4 bytes).
//!
//! The element size of a vector comes from the record (the argument's size
//! divided by the element count, with 3-element vectors occupying 4 slots),
//! so `%v4f` of a `float4` (which the specification spells `%v4hlf`) prints
//! the floats rather than reinterpreting them as doubles.

use super::number;

/// A conversion's flags, width, precision and length.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: Option<usize>,
    precision: Option<usize>,
    /// Vector element count (`vN`), 1 for a scalar.
    vector: usize,
    /// Length modifier: "", "hh", "h", "hl", "l" (also "ll", "j", "z", "t",
    /// "L" parsed for C compatibility and treated by their widths).
    length: &'static str,
    conv: u8,
}

/// Formats `fmt` with `args` (each argument's bytes, in order). An
/// unparsable directive or a missing argument is an error sentence; the
/// caller prints it in place of the record.
pub fn format(fmt: &str, args: &[&[u8]]) -> Result<Vec<u8>, String> {
    let f = fmt.as_bytes();
    let mut out = Vec::new();
    let mut next = 0usize;
    let mut take = |what: &str| -> Result<&[u8], String> {
        let a = args
            .get(next)
            .copied()
            .ok_or_else(|| format!("missing argument {} for {what}", next + 1))?;
        next += 1;
        Ok(a)
    };
    let mut i = 0;
    while i < f.len() {
        if f[i] != b'%' {
            out.push(f[i]);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        let mut s = Spec {
            vector: 1,
            ..Spec::default()
        };
        while i < f.len() {
            match f[i] {
                b'-' => s.left = true,
                b'+' => s.plus = true,
                b' ' => s.space = true,
                b'#' => s.alt = true,
                b'0' => s.zero = true,
                _ => break,
            }
            i += 1;
        }
        if f.get(i) == Some(&b'*') {
            i += 1;
            let w = int_of(take("`*` width")?) as i32;
            if w < 0 {
                s.left = true;
            }
            s.width = Some(w.unsigned_abs() as usize);
        } else {
            s.width = number_at(f, &mut i);
        }
        if f.get(i) == Some(&b'.') {
            i += 1;
            if f.get(i) == Some(&b'*') {
                i += 1;
                let p = int_of(take("`*` precision")?) as i32;
                // A negative precision is taken as if it were omitted.
                s.precision = (p >= 0).then_some(p as usize);
            } else {
                s.precision = Some(number_at(f, &mut i).unwrap_or(0));
            }
        }
        if f.get(i) == Some(&b'v') {
            i += 1;
            s.vector = number_at(f, &mut i).unwrap_or(0);
            if ![2, 3, 4, 8, 16].contains(&s.vector) {
                return Err(format!(
                    "bad vector specifier in `{}`",
                    String::from_utf8_lossy(&f[start..i])
                ));
            }
        }
        s.length = length_at(f, &mut i);
        let Some(&conv) = f.get(i) else {
            return Err(format!(
                "incomplete conversion `{}` at the end of the format",
                String::from_utf8_lossy(&f[start..])
            ));
        };
        i += 1;
        s.conv = conv;
        if conv == b'%' {
            out.push(b'%');
            continue;
        }
        if !b"diouxXcspfFeEgGaA".contains(&conv) {
            return Err(format!(
                "unknown conversion `{}`",
                String::from_utf8_lossy(&f[start..i])
            ));
        }
        let arg = take(&String::from_utf8_lossy(&f[start..i]))?;
        convert(&s, arg, &mut out)?;
    }
    Ok(out)
}

/// A decimal number at `f[*i..]`, if any.
fn number_at(f: &[u8], i: &mut usize) -> Option<usize> {
    let start = *i;
    let mut v = 0usize;
    while let Some(d) = f.get(*i).filter(|c| c.is_ascii_digit()) {
        v = v.saturating_mul(10).saturating_add(usize::from(d - b'0'));
        *i += 1;
    }
    (*i > start).then_some(v)
}

fn length_at(f: &[u8], i: &mut usize) -> &'static str {
    for m in ["hh", "hl", "ll", "h", "l", "j", "z", "t", "L"] {
        if f[*i..].starts_with(m.as_bytes()) {
            *i += m.len();
            return m;
        }
    }
    ""
}

/// Little-endian unsigned value of up to 8 bytes.
fn uint_of(b: &[u8]) -> u64 {
    let mut v = [0u8; 8];
    let n = b.len().min(8);
    v[..n].copy_from_slice(&b[..n]);
    u64::from_le_bytes(v)
}

/// Sign-extended value of up to 8 bytes.
fn int_of(b: &[u8]) -> i64 {
    let n = b.len().clamp(1, 8) as u32;
    let v = uint_of(b);
    let shift = 64 - 8 * n;
    ((v << shift) as i64) >> shift
}

/// Formats one conversion (every element of a vector) into `out`.
fn convert(s: &Spec, arg: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
    match s.conv {
        b's' => {
            let end = arg.iter().position(|&b| b == 0).unwrap_or(arg.len());
            let text = &arg[..end];
            let text = &text[..s.precision.map_or(text.len(), |p| p.min(text.len()))];
            pad(s, b"", text, false, out);
            return Ok(());
        }
        b'c' => {
            pad(s, b"", &[uint_of(arg) as u8], false, out);
            return Ok(());
        }
        b'p' => {
            let v = uint_of(arg);
            if v == 0 {
                pad(s, b"", b"(nil)", false, out);
            } else {
                let t = Spec {
                    alt: true,
                    length: "l",
                    conv: b'x',
                    ..s.clone()
                };
                integer(&t, 0, v, out);
            }
            return Ok(());
        }
        _ => {}
    }
    let n = s.vector;
    // 3-element vectors occupy four elements' room.
    let slots = if n == 3 { 4 } else { n };
    let elem = if n == 1 {
        arg.len()
    } else {
        let e = arg.len() / slots;
        if e == 0 || arg.len() % slots != 0 {
            return Err(format!(
                "a {}-byte argument cannot hold a {n}-element vector",
                arg.len()
            ));
        }
        e
    };
    for k in 0..n {
        if k > 0 {
            out.push(b',');
        }
        let e = &arg[k * elem..(k + 1) * elem];
        match s.conv {
            b'd' | b'i' => {
                let v = truncate_signed(int_of(e), s.length, elem);
                integer(s, v, 0, out);
            }
            b'o' | b'u' | b'x' | b'X' => {
                let v = truncate_unsigned(uint_of(e), s.length, elem);
                integer(s, 0, v, out);
            }
            b'c' => pad(s, b"", &[e[0]], false, out),
            _ => {
                let x = match elem {
                    2 => number::half_to_f64(uint_of(e) as u16),
                    4 => f64::from(f32::from_bits(uint_of(e) as u32)),
                    8 => f64::from_bits(uint_of(e)),
                    n => return Err(format!("a {n}-byte floating-point argument")),
                };
                float(s, x, out);
            }
        }
    }
    Ok(())
}

/// The value a signed conversion prints: the argument converted to the type
/// the length modifier names (`hh` → char, `h` → short, none/`hl` → int,
/// `l` → long). A scalar `int` conversion of an 8-byte argument keeps the
/// low 32 bits, as C's `int` would.
fn truncate_signed(v: i64, length: &str, elem: usize) -> i64 {
    match (length, elem) {
        ("hh", _) => v as i8 as i64,
        ("h", _) => v as i16 as i64,
        ("l" | "ll" | "j" | "z" | "t", _) => v,
        (_, 8) => v as i32 as i64,
        _ => v,
    }
}

fn truncate_unsigned(v: u64, length: &str, elem: usize) -> u64 {
    match (length, elem) {
        ("hh", _) => v as u8 as u64,
        ("h", _) => v as u16 as u64,
        ("l" | "ll" | "j" | "z" | "t", _) => v,
        _ => v as u32 as u64,
    }
}

/// Integer conversions: `sv` for d/i, `uv` for o/u/x/X.
fn integer(s: &Spec, sv: i64, uv: u64, out: &mut Vec<u8>) {
    let signed = matches!(s.conv, b'd' | b'i');
    let (neg, mag) = if signed {
        (sv < 0, sv.unsigned_abs())
    } else {
        (false, uv)
    };
    let mut digits = match s.conv {
        b'o' => format!("{mag:o}"),
        b'x' => format!("{mag:x}"),
        b'X' => format!("{mag:X}"),
        _ => mag.to_string(),
    }
    .into_bytes();
    if let Some(p) = s.precision {
        if p == 0 && mag == 0 {
            digits.clear();
        }
        if digits.len() < p {
            let mut z = vec![b'0'; p - digits.len()];
            z.extend_from_slice(&digits);
            digits = z;
        }
    }
    let mut prefix: Vec<u8> = Vec::new();
    if signed {
        if neg {
            prefix.push(b'-');
        } else if s.plus {
            prefix.push(b'+');
        } else if s.space {
            prefix.push(b' ');
        }
    }
    if s.alt {
        match s.conv {
            b'o' if digits.first() != Some(&b'0') => digits.insert(0, b'0'),
            b'x' if mag != 0 => prefix.extend_from_slice(b"0x"),
            b'X' if mag != 0 => prefix.extend_from_slice(b"0X"),
            _ => {}
        }
    }
    // The 0 flag is ignored when a precision is given.
    pad(s, &prefix, &digits, s.zero && s.precision.is_none(), out);
}

/// Floating-point conversions.
fn float(s: &Spec, x: f64, out: &mut Vec<u8>) {
    let upper = s.conv.is_ascii_uppercase();
    let mut prefix: Vec<u8> = Vec::new();
    if x.is_sign_negative() {
        prefix.push(b'-');
    } else if s.plus {
        prefix.push(b'+');
    } else if s.space {
        prefix.push(b' ');
    }
    if !x.is_finite() {
        let t = match (x.is_nan(), upper) {
            (true, false) => "nan",
            (true, true) => "NAN",
            (false, false) => "inf",
            (false, true) => "INF",
        };
        pad(s, &prefix, t.as_bytes(), false, out);
        return;
    }
    let a = x.abs();
    let conv = s.conv.to_ascii_lowercase();
    let body = match conv {
        b'f' => fixed_text(a, s.precision.unwrap_or(6), s.alt),
        b'e' => exp_text(a, s.precision.unwrap_or(6), s.alt, upper),
        b'g' => {
            let p = match s.precision {
                Some(0) => 1,
                Some(p) => p,
                None => 6,
            };
            let (_, x_exp) = number::scientific(a, p - 1);
            let mut t = if (p as i32) > x_exp && x_exp >= -4 {
                fixed_text(a, (p as i32 - 1 - x_exp) as usize, s.alt)
            } else {
                exp_text(a, p - 1, s.alt, upper)
            };
            if !s.alt {
                t = strip_zeros(t);
            }
            t
        }
        _ => {
            let (lead, frac, exp) = number::hex(a, s.precision);
            prefix.extend_from_slice(if upper { b"0X" } else { b"0x" });
            let mut t = lead.to_string();
            if !frac.is_empty() || s.alt {
                t.push('.');
            }
            t.push_str(&frac);
            t.push(if upper { 'P' } else { 'p' });
            t.push_str(&format!("{exp:+}"));
            if upper {
                t = t.to_ascii_uppercase();
            }
            t
        }
    };
    pad(s, &prefix, body.as_bytes(), s.zero, out);
}

fn fixed_text(a: f64, prec: usize, alt: bool) -> String {
    let (int, frac) = number::fixed(a, prec);
    let mut t = int;
    if prec > 0 || alt {
        t.push('.');
    }
    t.push_str(&frac);
    t
}

fn exp_text(a: f64, prec: usize, alt: bool, upper: bool) -> String {
    let (digits, exp) = number::scientific(a, prec);
    let mut t = String::new();
    t.push(digits[0] as char);
    if prec > 0 || alt {
        t.push('.');
    }
    t.push_str(&String::from_utf8_lossy(&digits[1..]));
    t.push(if upper { 'E' } else { 'e' });
    t.push(if exp < 0 { '-' } else { '+' });
    t.push_str(&format!("{:02}", exp.unsigned_abs()));
    t
}

/// `%g` without `#`: trailing fraction zeros and a bare point go.
fn strip_zeros(t: String) -> String {
    let (mant, exp) = match t.find(['e', 'E']) {
        Some(k) => (t[..k].to_string(), t[k..].to_string()),
        None => (t, String::new()),
    };
    let mant = if mant.contains('.') {
        mant.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        mant
    };
    mant + &exp
}

/// Pads `prefix` + `body` to the field width: spaces on the left, spaces on
/// the right with `-`, or zeros between prefix and body with `zero`.
fn pad(s: &Spec, prefix: &[u8], body: &[u8], zero: bool, out: &mut Vec<u8>) {
    let len = prefix.len() + body.len();
    let fill = s.width.unwrap_or(0).saturating_sub(len);
    if s.left {
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
        out.resize(out.len() + fill, b' ');
    } else if zero {
        out.extend_from_slice(prefix);
        out.resize(out.len() + fill, b'0');
        out.extend_from_slice(body);
    } else {
        out.resize(out.len() + fill, b' ');
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(fmt: &str, args: &[&[u8]]) -> String {
        String::from_utf8(format(fmt, args).unwrap()).unwrap()
    }

    #[test]
    fn vectors_join_with_commas() {
        let v: Vec<u8> = [1.0f32, 2.5, -3.0, 4.0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        assert_eq!(f("%v4hlf", &[&v]), "1.000000,2.500000,-3.000000,4.000000");
        let c = [1u8, 2, 255, 4];
        assert_eq!(f("%v4hhd", &[&c]), "1,2,-1,4");
        let i3: Vec<u8> = [1i32, 2, 3, 0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        assert_eq!(f("%v3hld", &[&i3]), "1,2,3");
    }

    #[test]
    fn errors_are_sentences() {
        assert!(format("%d", &[]).unwrap_err().contains("missing argument"));
        assert!(format("%v5d", &[&[0; 20]]).is_err());
        assert!(format("%k", &[&[0; 4]]).is_err());
        assert!(format("%", &[]).is_err());
    }
}
