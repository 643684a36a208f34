//! Expressions (precedence climbing, casts, vector literals, postfix chains).

use super::*;
use crate::front::ast::*;
use crate::front::diag::{err, Result};
use crate::front::lexer::{Punct, Sym, Tok};

impl Parser<'_> {
    // ---- expressions -------------------------------------------------------

    pub(super) fn expr(&mut self) -> Result<Expr> {
        let mut e = self.assign_expr()?;
        let depth = self.depth;
        while self.is(Punct::Comma) {
            // Every fold deepens the tree: it counts against the nesting limit.
            self.enter()?;
            let loc = self.next().loc;
            let r = self.assign_expr()?;
            e = Expr {
                kind: ExprKind::Comma(Box::new(e), Box::new(r)),
                loc,
            };
        }
        self.depth = depth;
        Ok(e)
    }

    pub(super) fn assign_expr(&mut self) -> Result<Expr> {
        self.enter()?;
        let lhs = self.cond_expr()?;
        let op = match self.peek().tok {
            Tok::Punct(p) => match p {
                Punct::Assign => Some(None),
                Punct::StarAssign => Some(Some(BinaryOp::Mul)),
                Punct::SlashAssign => Some(Some(BinaryOp::Div)),
                Punct::PercentAssign => Some(Some(BinaryOp::Rem)),
                Punct::PlusAssign => Some(Some(BinaryOp::Add)),
                Punct::MinusAssign => Some(Some(BinaryOp::Sub)),
                Punct::ShlAssign => Some(Some(BinaryOp::Shl)),
                Punct::ShrAssign => Some(Some(BinaryOp::Shr)),
                Punct::AmpAssign => Some(Some(BinaryOp::BitAnd)),
                Punct::CaretAssign => Some(Some(BinaryOp::BitXor)),
                Punct::PipeAssign => Some(Some(BinaryOp::BitOr)),
                _ => None,
            },
            _ => None,
        };
        let r = match op {
            Some(op) => {
                let loc = self.next().loc;
                let rhs = self.assign_expr()?;
                Expr {
                    kind: ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)),
                    loc,
                }
            }
            None => lhs,
        };
        self.depth -= 1;
        Ok(r)
    }

    pub(super) fn cond_expr(&mut self) -> Result<Expr> {
        let c = self.binary(0)?;
        if !self.is(Punct::Question) {
            return Ok(c);
        }
        let loc = self.next().loc;
        self.enter()?;
        let a = self.expr()?;
        self.expect(Punct::Colon, " in conditional expression")?;
        let b = self.cond_expr()?;
        self.depth -= 1;
        Ok(Expr {
            kind: ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
            loc,
        })
    }

    pub(super) fn binary(&mut self, min_prec: u8) -> Result<Expr> {
        let mut lhs = self.unary()?;
        let depth = self.depth;
        let r = self.binary_rest(&mut lhs, min_prec);
        self.depth = depth;
        r.map(|_| lhs)
    }

    pub(super) fn binary_rest(&mut self, lhs: &mut Expr, min_prec: u8) -> Result<()> {
        while let Tok::Punct(p) = self.peek().tok {
            let (prec, op) = match p {
                Punct::PipePipe => (1, BinaryOp::LogOr),
                Punct::AmpAmp => (2, BinaryOp::LogAnd),
                Punct::Pipe => (3, BinaryOp::BitOr),
                Punct::Caret => (4, BinaryOp::BitXor),
                Punct::Amp => (5, BinaryOp::BitAnd),
                Punct::EqEq => (6, BinaryOp::Eq),
                Punct::Ne => (6, BinaryOp::Ne),
                Punct::Lt => (7, BinaryOp::Lt),
                Punct::Gt => (7, BinaryOp::Gt),
                Punct::Le => (7, BinaryOp::Le),
                Punct::Ge => (7, BinaryOp::Ge),
                Punct::Shl => (8, BinaryOp::Shl),
                Punct::Shr => (8, BinaryOp::Shr),
                Punct::Plus => (9, BinaryOp::Add),
                Punct::Minus => (9, BinaryOp::Sub),
                Punct::Star => (10, BinaryOp::Mul),
                Punct::Slash => (10, BinaryOp::Div),
                Punct::Percent => (10, BinaryOp::Rem),
                _ => break,
            };
            if prec <= min_prec {
                break;
            }
            let loc = self.next().loc;
            self.enter()?;
            let rhs = self.binary(prec)?;
            let l = std::mem::replace(
                lhs,
                Expr {
                    kind: ExprKind::Number(Sym(0)),
                    loc,
                },
            );
            *lhs = Expr {
                kind: ExprKind::Binary(op, Box::new(l), Box::new(rhs)),
                loc,
            };
        }
        Ok(())
    }

    pub(super) fn unary(&mut self) -> Result<Expr> {
        self.enter()?;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    pub(super) fn unary_inner(&mut self) -> Result<Expr> {
        let t = self.peek().clone();
        let loc = t.loc;
        let op = match t.tok {
            Tok::Punct(Punct::PlusPlus) => Some(UnaryOp::PreInc),
            Tok::Punct(Punct::MinusMinus) => Some(UnaryOp::PreDec),
            Tok::Punct(Punct::Amp) => Some(UnaryOp::AddrOf),
            Tok::Punct(Punct::Star) => Some(UnaryOp::Deref),
            Tok::Punct(Punct::Plus) => Some(UnaryOp::Plus),
            Tok::Punct(Punct::Minus) => Some(UnaryOp::Neg),
            Tok::Punct(Punct::Tilde) => Some(UnaryOp::BitNot),
            Tok::Punct(Punct::Bang) => Some(UnaryOp::LogNot),
            _ => None,
        };
        if let Some(op) = op {
            self.pos += 1;
            let e = self.unary()?;
            return Ok(Expr {
                kind: ExprKind::Unary(op, Box::new(e)),
                loc,
            });
        }
        match self.kw_of(&t) {
            Some(Kw::Sizeof) => {
                self.pos += 1;
                if self.is(Punct::LParen) && self.starts_type(1) {
                    self.pos += 1;
                    let ty = self.type_name()?;
                    self.expect(Punct::RParen, " after the type name")?;
                    return Ok(Expr {
                        kind: ExprKind::SizeofType(Box::new(ty)),
                        loc,
                    });
                }
                let e = self.unary()?;
                return Ok(Expr {
                    kind: ExprKind::SizeofExpr(Box::new(e)),
                    loc,
                });
            }
            Some(k @ (Kw::Alignof | Kw::VecStep)) => {
                self.pos += 1;
                self.expect(Punct::LParen, "")?;
                if !self.starts_type(0) {
                    return err(self.loc(), "expected a type name");
                }
                let ty = Box::new(self.type_name()?);
                self.expect(Punct::RParen, " after the type name")?;
                let kind = if k == Kw::Alignof {
                    ExprKind::AlignofType(ty)
                } else {
                    ExprKind::VecStepType(ty)
                };
                return Ok(Expr { kind, loc });
            }
            _ => {}
        }
        if t.is(Punct::LParen) && self.starts_type(1) {
            self.pos += 1;
            let ty = self.type_name()?;
            self.expect(Punct::RParen, " after the type name in a cast")?;
            if self.is(Punct::LParen) && !self.starts_type(1) {
                // (T)(a, b, ...) is a vector literal; (T)(e) a cast.
                let ploc = self.next().loc;
                let mut elems = vec![self.assign_expr()?];
                while self.eat(Punct::Comma) {
                    elems.push(self.assign_expr()?);
                }
                self.expect(Punct::RParen, " to end the vector literal")?;
                let e = if elems.len() == 1 {
                    let inner = elems.pop().expect("one element");
                    let inner = self.postfix(inner)?;
                    Expr {
                        kind: ExprKind::Cast(Box::new(ty), Box::new(inner)),
                        loc,
                    }
                } else {
                    Expr {
                        kind: ExprKind::VectorLiteral(Box::new(ty), elems),
                        loc: ploc,
                    }
                };
                return self.postfix(e);
            }
            if self.is(Punct::LBrace) {
                return err(self.loc(), "compound literals are not supported");
            }
            let e = self.unary()?;
            return Ok(Expr {
                kind: ExprKind::Cast(Box::new(ty), Box::new(e)),
                loc,
            });
        }
        let p = self.primary()?;
        self.postfix(p)
    }

    pub(super) fn postfix(&mut self, e: Expr) -> Result<Expr> {
        let depth = self.depth;
        let r = self.postfix_rest(e);
        self.depth = depth;
        r
    }

    pub(super) fn postfix_rest(&mut self, mut e: Expr) -> Result<Expr> {
        loop {
            let loc = self.loc();
            if matches!(
                self.peek().tok,
                Tok::Punct(
                    Punct::LBracket
                        | Punct::LParen
                        | Punct::Dot
                        | Punct::Arrow
                        | Punct::PlusPlus
                        | Punct::MinusMinus
                )
            ) {
                self.enter()?;
            }
            match self.peek().tok {
                Tok::Punct(Punct::LBracket) => {
                    self.pos += 1;
                    let i = self.expr()?;
                    self.expect(Punct::RBracket, " after the subscript")?;
                    e = Expr {
                        kind: ExprKind::Index(Box::new(e), Box::new(i)),
                        loc,
                    };
                }
                Tok::Punct(Punct::LParen) => {
                    self.pos += 1;
                    let mut args = Vec::new();
                    if !self.eat(Punct::RParen) {
                        loop {
                            args.push(self.assign_expr()?);
                            if !self.eat(Punct::Comma) {
                                break;
                            }
                        }
                        self.expect(Punct::RParen, " after the call arguments")?;
                    }
                    let eloc = e.loc;
                    e = Expr {
                        kind: ExprKind::Call(Box::new(e), args),
                        loc: eloc,
                    };
                }
                Tok::Punct(p @ (Punct::Dot | Punct::Arrow)) => {
                    self.pos += 1;
                    let t = self.next();
                    let name = match t.tok {
                        Tok::Ident(s) => s,
                        _ => {
                            return err(
                                t.loc,
                                format!(
                                    "expected a member name after '{}', found {}",
                                    p.text(),
                                    self.describe(&t)
                                ),
                            )
                        }
                    };
                    e = Expr {
                        kind: ExprKind::Member(Box::new(e), name, p == Punct::Arrow),
                        loc: t.loc,
                    };
                }
                Tok::Punct(Punct::PlusPlus) => {
                    self.pos += 1;
                    e = Expr {
                        kind: ExprKind::Unary(UnaryOp::PostInc, Box::new(e)),
                        loc,
                    };
                }
                Tok::Punct(Punct::MinusMinus) => {
                    self.pos += 1;
                    e = Expr {
                        kind: ExprKind::Unary(UnaryOp::PostDec, Box::new(e)),
                        loc,
                    };
                }
                _ => return Ok(e),
            }
        }
    }

    pub(super) fn primary(&mut self) -> Result<Expr> {
        let t = self.next();
        let loc = t.loc;
        let kind = match t.tok {
            Tok::Ident(s) => {
                if let Some(k) = self.kw_of(&t) {
                    let _ = k;
                    return err(
                        loc,
                        format!("expected an expression, found '{}'", self.int.get(s)),
                    );
                }
                ExprKind::Ident(s)
            }
            Tok::Number(s) => ExprKind::Number(s),
            Tok::Char(s) => ExprKind::Char(s),
            Tok::Str(s) => {
                let mut v = vec![s];
                while let Tok::Str(s2) = self.peek().tok {
                    v.push(s2);
                    self.pos += 1;
                }
                ExprKind::Str(v)
            }
            Tok::Punct(Punct::LParen) => {
                let e = self.expr()?;
                self.expect(Punct::RParen, " to match '('")?;
                return Ok(e);
            }
            Tok::Pragma(_) => return err(loc, "a pragma cannot appear inside an expression"),
            _ => {
                return err(
                    loc,
                    format!("expected an expression, found {}", self.describe(&t)),
                )
            }
        };
        Ok(Expr { kind, loc })
    }
}
