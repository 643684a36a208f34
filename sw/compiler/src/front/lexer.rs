//! Tokens and the lexer (C preprocessing tokens: identifiers, pp-numbers,
//! character and string literals, punctuators), with symbol interning.

use super::diag::{err, Loc, Result};
use std::collections::HashMap;
use std::rc::Rc;

/// An interned identifier or literal spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

/// The symbol table: every spelling once, looked up by hashing (no
/// quadratic scans).
#[derive(Debug, Default)]
pub struct Interner {
    map: HashMap<Rc<str>, Sym>,
    names: Vec<Rc<str>>,
}

impl Interner {
    /// The symbol of `s`, adding it when new.
    pub fn intern(&mut self, s: &str) -> Sym {
        if let Some(&sym) = self.map.get(s) {
            return sym;
        }
        let rc: Rc<str> = Rc::from(s);
        let sym = Sym(self.names.len() as u32);
        self.names.push(rc.clone());
        self.map.insert(rc, sym);
        sym
    }
    /// The spelling of `sym`.
    pub fn get(&self, sym: Sym) -> &str {
        &self.names[sym.0 as usize]
    }
    /// The symbol of `s` if it was ever interned.
    pub fn lookup(&self, s: &str) -> Option<Sym> {
        self.map.get(s).copied()
    }
}

/// C punctuators (digraphs are not supported).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Punct {
    LBracket,
    RBracket,
    LParen,
    RParen,
    LBrace,
    RBrace,
    Dot,
    Arrow,
    PlusPlus,
    MinusMinus,
    Amp,
    Star,
    Plus,
    Minus,
    Tilde,
    Bang,
    Slash,
    Percent,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    EqEq,
    Ne,
    Caret,
    Pipe,
    AmpAmp,
    PipePipe,
    Question,
    Colon,
    Semi,
    Ellipsis,
    Assign,
    StarAssign,
    SlashAssign,
    PercentAssign,
    PlusAssign,
    MinusAssign,
    ShlAssign,
    ShrAssign,
    AmpAssign,
    CaretAssign,
    PipeAssign,
    Comma,
    Hash,
    HashHash,
}

impl Punct {
    /// The spelling.
    pub fn text(self) -> &'static str {
        use Punct::*;
        match self {
            LBracket => "[",
            RBracket => "]",
            LParen => "(",
            RParen => ")",
            LBrace => "{",
            RBrace => "}",
            Dot => ".",
            Arrow => "->",
            PlusPlus => "++",
            MinusMinus => "--",
            Amp => "&",
            Star => "*",
            Plus => "+",
            Minus => "-",
            Tilde => "~",
            Bang => "!",
            Slash => "/",
            Percent => "%",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            EqEq => "==",
            Ne => "!=",
            Caret => "^",
            Pipe => "|",
            AmpAmp => "&&",
            PipePipe => "||",
            Question => "?",
            Colon => ":",
            Semi => ";",
            Ellipsis => "...",
            Assign => "=",
            StarAssign => "*=",
            SlashAssign => "/=",
            PercentAssign => "%=",
            PlusAssign => "+=",
            MinusAssign => "-=",
            ShlAssign => "<<=",
            ShrAssign => ">>=",
            AmpAssign => "&=",
            CaretAssign => "^=",
            PipeAssign => "|=",
            Comma => ",",
            Hash => "#",
            HashHash => "##",
        }
    }
}

/// What a `#pragma` the parser cares about said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pragma {
    /// `#pragma unroll` (None: fully) or `#pragma unroll N`; `#pragma nounroll` is `Some(1)`.
    Unroll(Option<u32>),
    /// `#pragma OPENCL FP_CONTRACT ON|OFF` (DEFAULT is ON).
    FpContract(bool),
    /// `#pragma OPENCL EXTENSION cl_khr_fp16 : enable|disable` (also `all`).
    Fp16(bool),
}

/// A token's kind and spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// Identifier or keyword.
    Ident(Sym),
    /// pp-number (integer or floating literal, checked by the parser).
    Number(Sym),
    /// Character literal, quotes included.
    Char(Sym),
    /// String literal, quotes included.
    Str(Sym),
    /// Punctuator.
    Punct(Punct),
    /// A pragma the preprocessor turned into a token for the parser.
    Pragma(Pragma),
    /// End of input.
    Eof,
}

/// A token with its location and the layout facts the preprocessor needs.
#[derive(Clone, Debug)]
pub struct Token {
    /// Kind and spelling.
    pub tok: Tok,
    /// Where it was spelled (for a macro's body: where the macro was used).
    pub loc: Loc,
    /// First token on its line (directives start with such a `#`).
    pub bol: bool,
    /// Whitespace before it (matters for `#` stringizing).
    pub space: bool,
    /// Macros that must not expand this token again (Prosser's hide set).
    pub hide: Option<Rc<Vec<Sym>>>,
}

impl Token {
    /// True for punctuator `p`.
    pub fn is(&self, p: Punct) -> bool {
        self.tok == Tok::Punct(p)
    }
}

/// The spelling of a token (for stringizing, pasting and messages).
pub fn spelling(tok: &Tok, interner: &Interner) -> String {
    match tok {
        Tok::Ident(s) | Tok::Number(s) | Tok::Char(s) | Tok::Str(s) => interner.get(*s).to_string(),
        Tok::Punct(p) => p.text().to_string(),
        Tok::Pragma(_) => "#pragma".into(),
        Tok::Eof => "end of file".into(),
    }
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}
fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// Lexes one file (or buffer) into tokens, ending with [`Tok::Eof`].
/// Comments become whitespace; a backslash-newline is whitespace (line
/// splices inside a token are not supported, they are rare in kernels).
pub fn lex(text: &str, file: u32, interner: &mut Interner) -> Result<Vec<Token>> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len() / 3);
    let (mut i, mut line, mut line_start) = (0usize, 1u32, 0usize);
    let mut bol = true;
    let mut space = false;
    while i < b.len() {
        let c = b[i];
        let loc = Loc {
            file,
            line,
            col: (i - line_start) as u32 + 1,
        };
        if c == b'\n' {
            i += 1;
            line += 1;
            line_start = i;
            bol = true;
            space = false;
            continue;
        }
        if c == b' ' || c == b'\t' || c == b'\r' || c == 0x0b || c == 0x0c {
            i += 1;
            space = true;
            continue;
        }
        if c == b'\\'
            && (b.get(i + 1) == Some(&b'\n')
                || (b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n')))
        {
            i += if b[i + 1] == b'\r' { 3 } else { 2 };
            line += 1;
            line_start = i;
            space = true;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                // A line comment continues over a backslash-newline.
                if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
                    i += 1;
                    line += 1;
                    line_start = i + 1;
                }
                i += 1;
            }
            space = true;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            loop {
                if i + 1 >= b.len() {
                    return err(loc, "unterminated /* comment");
                }
                if b[i] == b'*' && b[i + 1] == b'/' {
                    i += 2;
                    break;
                }
                if b[i] == b'\n' {
                    line += 1;
                    line_start = i + 1;
                }
                i += 1;
            }
            space = true;
            continue;
        }
        let start = i;
        let tok = if is_ident_start(c) {
            while i < b.len() && is_ident_char(b[i]) {
                i += 1;
            }
            Tok::Ident(interner.intern(&text[start..i]))
        } else if c.is_ascii_digit()
            || (c == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            i += 1;
            while i < b.len() {
                let d = b[i];
                let exponent_sign =
                    (d == b'+' || d == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
                if !(exponent_sign || is_ident_char(d) || d == b'.') {
                    break;
                }
                i += 1;
            }
            Tok::Number(interner.intern(&text[start..i]))
        } else if c == b'"' || c == b'\'' {
            i += 1;
            loop {
                match b.get(i) {
                    None | Some(b'\n') => {
                        let what = if c == b'"' {
                            "string literal"
                        } else {
                            "character constant"
                        };
                        return err(
                            loc,
                            format!("missing terminating {} character in {what}", c as char),
                        );
                    }
                    Some(b'\\') => i += 2,
                    Some(&d) if d == c => {
                        i += 1;
                        break;
                    }
                    _ => i += 1,
                }
            }
            let sym = interner.intern(&text[start..i.min(b.len())]);
            if c == b'"' {
                Tok::Str(sym)
            } else {
                Tok::Char(sym)
            }
        } else {
            let (p, n) = punct_at(&b[i..]).ok_or_else(|| super::diag::Error {
                loc,
                msg: if c.is_ascii_graphic() {
                    format!("invalid character '{}' in source", c as char)
                } else {
                    format!("invalid byte 0x{c:02x} in source")
                },
            })?;
            i += n;
            Tok::Punct(p)
        };
        out.push(Token {
            tok,
            loc,
            bol,
            space,
            hide: None,
        });
        bol = false;
        space = false;
    }
    let loc = Loc {
        file,
        line,
        col: (i - line_start) as u32 + 1,
    };
    out.push(Token {
        tok: Tok::Eof,
        loc,
        bol: true,
        space: false,
        hide: None,
    });
    Ok(out)
}

fn punct_at(b: &[u8]) -> Option<(Punct, usize)> {
    use Punct::*;
    let at = |k: usize| b.get(k).copied().unwrap_or(0);
    let (c0, c1, c2) = (at(0), at(1), at(2));
    Some(match (c0, c1, c2) {
        (b'.', b'.', b'.') => (Ellipsis, 3),
        (b'<', b'<', b'=') => (ShlAssign, 3),
        (b'>', b'>', b'=') => (ShrAssign, 3),
        (b'-', b'>', _) => (Arrow, 2),
        (b'+', b'+', _) => (PlusPlus, 2),
        (b'-', b'-', _) => (MinusMinus, 2),
        (b'<', b'<', _) => (Shl, 2),
        (b'>', b'>', _) => (Shr, 2),
        (b'<', b'=', _) => (Le, 2),
        (b'>', b'=', _) => (Ge, 2),
        (b'=', b'=', _) => (EqEq, 2),
        (b'!', b'=', _) => (Ne, 2),
        (b'&', b'&', _) => (AmpAmp, 2),
        (b'|', b'|', _) => (PipePipe, 2),
        (b'*', b'=', _) => (StarAssign, 2),
        (b'/', b'=', _) => (SlashAssign, 2),
        (b'%', b'=', _) => (PercentAssign, 2),
        (b'+', b'=', _) => (PlusAssign, 2),
        (b'-', b'=', _) => (MinusAssign, 2),
        (b'&', b'=', _) => (AmpAssign, 2),
        (b'^', b'=', _) => (CaretAssign, 2),
        (b'|', b'=', _) => (PipeAssign, 2),
        (b'#', b'#', _) => (HashHash, 2),
        (b'[', _, _) => (LBracket, 1),
        (b']', _, _) => (RBracket, 1),
        (b'(', _, _) => (LParen, 1),
        (b')', _, _) => (RParen, 1),
        (b'{', _, _) => (LBrace, 1),
        (b'}', _, _) => (RBrace, 1),
        (b'.', _, _) => (Dot, 1),
        (b'&', _, _) => (Amp, 1),
        (b'*', _, _) => (Star, 1),
        (b'+', _, _) => (Plus, 1),
        (b'-', _, _) => (Minus, 1),
        (b'~', _, _) => (Tilde, 1),
        (b'!', _, _) => (Bang, 1),
        (b'/', _, _) => (Slash, 1),
        (b'%', _, _) => (Percent, 1),
        (b'<', _, _) => (Lt, 1),
        (b'>', _, _) => (Gt, 1),
        (b'^', _, _) => (Caret, 1),
        (b'|', _, _) => (Pipe, 1),
        (b'?', _, _) => (Question, 1),
        (b':', _, _) => (Colon, 1),
        (b';', _, _) => (Semi, 1),
        (b'=', _, _) => (Assign, 1),
        (b',', _, _) => (Comma, 1),
        (b'#', _, _) => (Hash, 1),
        _ => return None,
    })
}

/// An integer literal's value and the suffix letters that choose its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntLiteral {
    /// The value (literals wider than 64 bits are an error).
    pub value: u64,
    /// `u`/`U` present.
    pub unsigned: bool,
    /// `l`/`L`/`ll`/`LL` present.
    pub long: bool,
    /// Written in decimal (decimal literals never become unsigned implicitly).
    pub decimal: bool,
}

/// Parses an integer pp-number (`0x1f`, `017`, `42ul`, `0b101`); None when
/// the spelling is not an integer literal, Err text when it is malformed.
pub fn parse_int_literal(s: &str) -> std::result::Result<Option<IntLiteral>, String> {
    let lower = s.to_ascii_lowercase();
    let (digits, radix) = if let Some(h) = lower.strip_prefix("0x") {
        (h, 16)
    } else if let Some(bin) = lower.strip_prefix("0b") {
        (bin, 2)
    } else if lower.starts_with('0') && lower.as_bytes().get(1).is_some_and(u8::is_ascii_digit) {
        (&lower[1..], 8)
    } else {
        (&lower[..], 10)
    };
    if radix != 16 && (digits.contains('.') || digits.contains('e')) {
        return Ok(None);
    }
    if radix == 16 && (digits.contains('.') || digits.contains('p')) {
        return Ok(None);
    }
    let end = digits
        .find(|c: char| !c.is_digit(radix))
        .unwrap_or(digits.len());
    let (num, suffix) = digits.split_at(end);
    if num.is_empty() {
        if radix == 10 || suffix.starts_with('f') {
            return Ok(None);
        }
        return Err(format!(
            "invalid digit '{}' in integer constant",
            suffix.chars().next().unwrap_or('?')
        ));
    }
    if suffix.starts_with('f') && radix == 10 {
        return Ok(None); // 1f is not C but "1.f" style floats are handled elsewhere
    }
    let (unsigned, long) = match suffix {
        "" => (false, false),
        "u" => (true, false),
        "l" | "ll" => (false, true),
        "ul" | "lu" | "ull" | "llu" => (true, true),
        _ => {
            return Err(format!(
                "invalid suffix '{}' on integer constant",
                &s[s.len() - suffix.len()..]
            ))
        }
    };
    let value = u64::from_str_radix(num, radix).map_err(|_| {
        "integer literal is too large to be represented in any integer type".to_string()
    })?;
    Ok(Some(IntLiteral {
        value,
        unsigned,
        long,
        decimal: radix == 10,
    }))
}

/// Parses a floating pp-number: the value and whether it is `float`
/// (suffix `f`), `half` (suffix `h`) or `double` (no suffix).
pub fn parse_float_literal(s: &str) -> std::result::Result<(f64, char), String> {
    let lower = s.to_ascii_lowercase();
    let (body, kind) = if lower.starts_with("0x") {
        // Hex floats: the suffix f cannot be confused with a digit after the exponent.
        match lower.strip_suffix('f') {
            Some(b) if b.contains('p') => (b.to_string(), 'f'),
            _ => (lower.clone(), 'd'),
        }
    } else if let Some(b) = lower.strip_suffix('f') {
        (b.to_string(), 'f')
    } else if let Some(b) = lower.strip_suffix('h') {
        (b.to_string(), 'h')
    } else {
        (lower.clone(), 'd')
    };
    let value = if let Some(hex) = body.strip_prefix("0x") {
        parse_hex_float(hex)
    } else {
        body.parse::<f64>().ok()
    };
    match value {
        Some(v) => Ok((v, kind)),
        None => Err(format!("invalid numeric constant '{s}'")),
    }
}

fn parse_hex_float(s: &str) -> Option<f64> {
    let (mant, exp) = s.split_once('p')?;
    let exp: i32 = exp.parse().ok()?;
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let mut v = 0f64;
    for c in int.chars().chain(frac.chars()) {
        v = v * 16.0 + c.to_digit(16)? as f64;
    }
    Some(v * 2f64.powi(exp.saturating_sub((frac.len() as i32).saturating_mul(4))))
}

/// The value of a character literal (`'a'`, `'\n'`, `'\x41'`, `'\0'`).
pub fn parse_char_literal(s: &str) -> Option<i64> {
    let inner = s.strip_prefix('\'')?.strip_suffix('\'')?;
    let bytes = unescape(inner)?;
    match bytes.as_slice() {
        [b] => Some(*b as i8 as i64),
        _ => None,
    }
}

/// Decodes C escapes (`\n \t \\ \' \" \0 \xNN \NNN`).
pub fn unescape(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let c = *b.get(i + 1)?;
        i += 2;
        out.push(match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'\\' | b'\'' | b'"' | b'?' => c,
            b'x' => {
                let start = i;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    i += 1;
                }
                u32::from_str_radix(&s[start..i], 16)
                    .ok()
                    .filter(|v| *v < 256)? as u8
            }
            b'0'..=b'7' => {
                let start = i - 1;
                while i < b.len() && i < start + 3 && (b'0'..=b'7').contains(&b[i]) {
                    i += 1;
                }
                u32::from_str_radix(&s[start..i], 8)
                    .ok()
                    .filter(|v| *v < 256)? as u8
            }
            _ => return None,
        });
    }
    Some(out)
}
