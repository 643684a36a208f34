//! The `#if` expression evaluator (C's intmax_t/uintmax_t arithmetic).

use crate::front::diag::{err, Loc, Result};
use crate::front::lexer::{parse_char_literal, parse_int_literal, Interner, Punct, Tok, Token};

/// `#if` expression evaluator: values are (bits as i64, unsigned?) as in
/// C's intmax_t/uintmax_t arithmetic.
pub(super) struct Eval<'a> {
    pub(super) toks: &'a [Token],
    pub(super) pos: usize,
    pub(super) int: &'a Interner,
    pub(super) loc: Loc,
    pub(super) depth: u32,
}

type Val = (i64, bool);

impl Eval<'_> {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }
    fn peek_punct(&self) -> Option<Punct> {
        match self.peek()?.tok {
            Tok::Punct(p) => Some(p),
            _ => None,
        }
    }
    fn here(&self) -> Loc {
        self.peek()
            .map_or_else(|| self.toks.last().map_or(self.loc, |t| t.loc), |t| t.loc)
    }
    pub(super) fn expr(&mut self) -> Result<Val> {
        let c = self.binary(0)?;
        if self.peek_punct() == Some(Punct::Question) {
            self.pos += 1;
            let a = self.expr()?;
            if self.peek_punct() != Some(Punct::Colon) {
                return err(self.here(), "expected ':' in preprocessor conditional");
            }
            self.pos += 1;
            let b = self.expr()?;
            let uns = a.1 || b.1;
            return Ok(if c.0 != 0 { (a.0, uns) } else { (b.0, uns) });
        }
        Ok(c)
    }
    fn binary(&mut self, min_prec: u8) -> Result<Val> {
        let mut lhs = self.unary()?;
        while let Some(p) = self.peek_punct() {
            let prec = match p {
                Punct::PipePipe => 1,
                Punct::AmpAmp => 2,
                Punct::Pipe => 3,
                Punct::Caret => 4,
                Punct::Amp => 5,
                Punct::EqEq | Punct::Ne => 6,
                Punct::Lt | Punct::Gt | Punct::Le | Punct::Ge => 7,
                Punct::Shl | Punct::Shr => 8,
                Punct::Plus | Punct::Minus => 9,
                Punct::Star | Punct::Slash | Punct::Percent => 10,
                _ => break,
            };
            if prec <= min_prec {
                break;
            }
            let oloc = self.here();
            self.pos += 1;
            let rhs = self.binary(prec)?;
            let uns = lhs.1 || rhs.1;
            let (a, b) = (lhs.0, rhs.0);
            let cmp = |x: bool| (x as i64, false);
            lhs = match p {
                Punct::PipePipe => cmp(a != 0 || b != 0),
                Punct::AmpAmp => cmp(a != 0 && b != 0),
                Punct::Pipe => (a | b, uns),
                Punct::Caret => (a ^ b, uns),
                Punct::Amp => (a & b, uns),
                Punct::EqEq => cmp(a == b),
                Punct::Ne => cmp(a != b),
                Punct::Lt => cmp(if uns { (a as u64) < b as u64 } else { a < b }),
                Punct::Gt => cmp(if uns { a as u64 > b as u64 } else { a > b }),
                Punct::Le => cmp(if uns { a as u64 <= b as u64 } else { a <= b }),
                Punct::Ge => cmp(if uns { a as u64 >= b as u64 } else { a >= b }),
                Punct::Shl => (a.wrapping_shl(b as u32 & 63), lhs.1),
                Punct::Shr => (
                    if lhs.1 {
                        ((a as u64) >> (b as u32 & 63)) as i64
                    } else {
                        a >> (b as u32 & 63)
                    },
                    lhs.1,
                ),
                Punct::Plus => (a.wrapping_add(b), uns),
                Punct::Minus => (a.wrapping_sub(b), uns),
                Punct::Star => (a.wrapping_mul(b), uns),
                Punct::Slash | Punct::Percent => {
                    if b == 0 {
                        return err(
                            oloc,
                            if p == Punct::Slash {
                                "division by zero in preprocessor expression"
                            } else {
                                "remainder by zero in preprocessor expression"
                            },
                        );
                    }
                    let v = match (p, uns) {
                        (Punct::Slash, true) => ((a as u64) / b as u64) as i64,
                        (Punct::Slash, false) => a.wrapping_div(b),
                        (_, true) => ((a as u64) % b as u64) as i64,
                        _ => a.wrapping_rem(b),
                    };
                    (v, uns)
                }
                _ => unreachable!("filtered above"),
            };
        }
        Ok(lhs)
    }
    fn unary(&mut self) -> Result<Val> {
        self.depth += 1;
        if self.depth > 256 {
            return err(self.here(), "preprocessor expression is too deeply nested");
        }
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self) -> Result<Val> {
        let Some(t) = self.peek().cloned() else {
            return err(self.here(), "expected value in expression");
        };
        self.pos += 1;
        match t.tok {
            Tok::Punct(Punct::Minus) => self.unary().map(|v| (v.0.wrapping_neg(), v.1)),
            Tok::Punct(Punct::Plus) => self.unary(),
            Tok::Punct(Punct::Tilde) => self.unary().map(|v| (!v.0, v.1)),
            Tok::Punct(Punct::Bang) => self.unary().map(|v| ((v.0 == 0) as i64, false)),
            Tok::Punct(Punct::LParen) => {
                let v = self.expr()?;
                if self.peek_punct() != Some(Punct::RParen) {
                    return err(self.here(), "expected ')' in preprocessor expression");
                }
                self.pos += 1;
                Ok(v)
            }
            Tok::Number(s) => match parse_int_literal(self.int.get(s)) {
                Ok(Some(l)) => Ok((l.value as i64, l.unsigned || l.value > i64::MAX as u64)),
                Ok(None) => err(t.loc, "floating point literal in preprocessor expression"),
                Err(m) => err(t.loc, m),
            },
            Tok::Char(s) => match parse_char_literal(self.int.get(s)) {
                Some(v) => Ok((v, false)),
                None => err(t.loc, "invalid character constant"),
            },
            Tok::Ident(s) => Ok(((self.int.get(s) == "true") as i64, false)),
            _ => err(t.loc, "invalid token at start of a preprocessor expression"),
        }
    }
}
