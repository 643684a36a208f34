//! Statements.

use super::*;
use crate::front::ast::*;
use crate::front::diag::{err, Result};
use crate::front::lexer::{Pragma, Punct, Tok};
use std::collections::HashMap;

impl Parser<'_> {
    // ---- statements --------------------------------------------------------

    pub(super) fn block_body(&mut self) -> Result<Vec<Stmt>> {
        self.expect(Punct::LBrace, "")?;
        let mut out = Vec::new();
        while !self.eat(Punct::RBrace) {
            if self.peek().tok == Tok::Eof {
                return err(self.loc(), "expected '}' at end of input");
            }
            out.push(self.stmt()?);
        }
        Ok(out)
    }

    pub(super) fn stmt(&mut self) -> Result<Stmt> {
        self.enter()?;
        let r = self.stmt_inner();
        self.depth -= 1;
        r
    }

    pub(super) fn paren_expr(&mut self, what: &str) -> Result<Expr> {
        self.expect(Punct::LParen, &format!(" after '{what}'"))?;
        let e = self.expr()?;
        self.expect(Punct::RParen, &format!(" after the '{what}' condition"))?;
        Ok(e)
    }

    pub(super) fn stmt_inner(&mut self) -> Result<Stmt> {
        let loc = self.loc();
        let kind = match self.peek().tok {
            Tok::Pragma(Pragma::Unroll(n)) => {
                self.pos += 1;
                let mut s = self.stmt()?;
                match &mut s.kind {
                    StmtKind::For(.., u)
                    | StmtKind::While(_, _, u)
                    | StmtKind::DoWhile(_, _, u) => *u = Some(n),
                    _ => {
                        return err(
                            loc,
                            "expected a for, while, or do-while loop to follow '#pragma unroll'",
                        )
                    }
                }
                return Ok(s);
            }
            Tok::Pragma(Pragma::FpContract(_)) => {
                return err(loc, "'#pragma OPENCL FP_CONTRACT' inside a function is not supported (put it at file scope)");
            }
            // Takes effect for the next function definition only.
            Tok::Pragma(Pragma::Fp16(on)) => {
                self.fp16 = on;
                self.pos += 1;
                StmtKind::Empty
            }
            Tok::Punct(Punct::LBrace) => {
                self.scopes.push(HashMap::new());
                let b = self.block_body();
                self.scopes.pop();
                StmtKind::Block(b?)
            }
            Tok::Punct(Punct::Semi) => {
                self.pos += 1;
                StmtKind::Empty
            }
            _ => match self.kw_of(self.peek()) {
                Some(Kw::If) => {
                    self.pos += 1;
                    let c = self.paren_expr("if")?;
                    let then = Box::new(self.scoped_stmt()?);
                    let els = if self.is_kw(Kw::Else) {
                        self.pos += 1;
                        Some(Box::new(self.scoped_stmt()?))
                    } else {
                        None
                    };
                    StmtKind::If(c, then, els)
                }
                Some(Kw::While) => {
                    self.pos += 1;
                    let c = self.paren_expr("while")?;
                    StmtKind::While(c, Box::new(self.scoped_stmt()?), None)
                }
                Some(Kw::Do) => {
                    self.pos += 1;
                    let body = Box::new(self.scoped_stmt()?);
                    if !self.is_kw(Kw::While) {
                        let t = self.peek().clone();
                        return err(
                            t.loc,
                            format!(
                                "expected 'while' in do/while loop, found {}",
                                self.describe(&t)
                            ),
                        );
                    }
                    self.pos += 1;
                    let c = self.paren_expr("while")?;
                    self.expect(Punct::Semi, " after do/while statement")?;
                    StmtKind::DoWhile(body, c, None)
                }
                Some(Kw::For) => {
                    self.pos += 1;
                    self.expect(Punct::LParen, " after 'for'")?;
                    self.scopes.push(HashMap::new());
                    let r = self.for_rest();
                    self.scopes.pop();
                    r?
                }
                Some(Kw::Switch) => {
                    self.pos += 1;
                    let c = self.paren_expr("switch")?;
                    StmtKind::Switch(c, Box::new(self.scoped_stmt()?))
                }
                Some(Kw::Case) => {
                    self.pos += 1;
                    let e = self.cond_expr()?;
                    self.expect(Punct::Colon, " after 'case'")?;
                    StmtKind::Case(e)
                }
                Some(Kw::Default) => {
                    self.pos += 1;
                    self.expect(Punct::Colon, " after 'default'")?;
                    StmtKind::Default
                }
                Some(Kw::Break) => {
                    self.pos += 1;
                    self.expect(Punct::Semi, " after 'break'")?;
                    StmtKind::Break
                }
                Some(Kw::Continue) => {
                    self.pos += 1;
                    self.expect(Punct::Semi, " after 'continue'")?;
                    StmtKind::Continue
                }
                Some(Kw::Return) => {
                    self.pos += 1;
                    let e = if self.is(Punct::Semi) {
                        None
                    } else {
                        Some(self.expr()?)
                    };
                    self.expect(Punct::Semi, " after return statement")?;
                    StmtKind::Return(e)
                }
                // The lowering builds structured control flow only (the
                // back end needs every branch to join at its post-dominator);
                // a `goto` could make the CFG irreducible, so it is refused.
                Some(Kw::Goto) => {
                    return err(
                        loc,
                        "'goto' is not supported: gpusim compiles structured control flow only (write the jump as a loop with 'break'/'continue' or a flag)",
                    )
                }
                _ if self.starts_type(0) => self.local_decl()?,
                _ => {
                    if let (Tok::Ident(s), Tok::Ident(_)) = (self.peek().tok, self.peek_at(1).tok) {
                        if self.kw_of(self.peek()).is_none() {
                            return err(loc, format!("unknown type name '{}'", self.int.get(s)));
                        }
                    }
                    if matches!(self.peek().tok, Tok::Ident(_)) && self.peek_at(1).is(Punct::Colon)
                    {
                        return err(loc, "labels are not supported");
                    }
                    let e = self.expr()?;
                    self.expect(Punct::Semi, " after expression")?;
                    StmtKind::Expr(e)
                }
            },
        };
        Ok(Stmt { kind, loc })
    }

    /// A sub-statement gets its own scope (C99: the body of if/for/while is a block).
    pub(super) fn scoped_stmt(&mut self) -> Result<Stmt> {
        self.scopes.push(HashMap::new());
        let r = self.stmt();
        self.scopes.pop();
        r
    }

    pub(super) fn for_rest(&mut self) -> Result<StmtKind> {
        let init = if self.eat(Punct::Semi) {
            None
        } else if self.starts_type(0) {
            let loc = self.loc();
            Some(Box::new(Stmt {
                kind: self.local_decl()?,
                loc,
            }))
        } else {
            let loc = self.loc();
            let e = self.expr()?;
            self.expect(Punct::Semi, " in 'for'")?;
            Some(Box::new(Stmt {
                kind: StmtKind::Expr(e),
                loc,
            }))
        };
        let cond = if self.is(Punct::Semi) {
            None
        } else {
            Some(self.expr()?)
        };
        self.expect(Punct::Semi, " in 'for'")?;
        let step = if self.is(Punct::RParen) {
            None
        } else {
            Some(self.expr()?)
        };
        self.expect(Punct::RParen, " after 'for' clauses")?;
        let body = self.scoped_stmt()?;
        Ok(StmtKind::For(init, cond, step, Box::new(body), None))
    }

    pub(super) fn local_decl(&mut self) -> Result<StmtKind> {
        let sp = self.specs()?;
        let base = self.base_of(&sp)?;
        if sp.is_kernel {
            return err(sp.loc, "'__kernel' can only be applied to a function");
        }
        if self.eat(Punct::Semi) {
            return Ok(StmtKind::Decl(Vec::new(), Some(base)));
        }
        let (name, ty, loc) = self.declarator(base.clone(), false)?;
        let name = name.expect("declarator requires a name");
        if matches!(ty, SynType::Function { .. }) {
            return err(
                loc,
                "function declarations inside a function are not supported",
            );
        }
        let decls = self.init_declarators(&sp, base.clone(), name, ty, loc)?;
        Ok(StmtKind::Decl(decls, Some(base)))
    }
}
