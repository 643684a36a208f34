//! Macro expansion (Prosser's algorithm): a use of a macro is replaced by
//! its body with the arguments substituted (`#` stringizes, `##` pastes),
//! and every token carries the hide set of macros that must not expand it
//! again.

use std::rc::Rc;

use super::super::diag::{err, Loc, Result};
use super::super::lexer::{lex, spelling, Punct, Sym, Tok, Token};
use super::{with_hide, with_hide_set, Macro, Pp, Src, MAX_EXPANDED_TOKENS};

impl Pp<'_> {
    /// Expands the macro named by `t` if it is one and may expand here;
    /// the result goes in front of `src`. False when `t` stays as it is.
    pub(super) fn expand(&mut self, t: &Token, src: &mut Src) -> Result<bool> {
        let Tok::Ident(name) = t.tok else {
            return Ok(false);
        };
        if t.hide
            .as_ref()
            .is_some_and(|h| h.binary_search(&name).is_ok())
        {
            return Ok(false);
        }
        if name == self.names.line || name == self.names.file {
            let mark = self.line_mark(t.loc);
            let text = if name == self.names.line {
                (i64::from(t.loc.line) + mark.map_or(0, |m| m.offset)).to_string()
            } else if let Some(named) = mark.and_then(|m| m.name) {
                self.int.get(named).to_string()
            } else {
                format!("{:?}", self.sm.file(t.loc.file).path)
            };
            let sym = self.int.intern(&text);
            let tok = if name == self.names.line {
                Tok::Number(sym)
            } else {
                Tok::Str(sym)
            };
            src.pending.push(Token {
                tok,
                loc: t.loc,
                bol: false,
                space: t.space,
                hide: None,
            });
            return Ok(true);
        }
        let Some(m) = self.macros.get(&name).cloned() else {
            return Ok(false);
        };
        let hide = Rc::new(vec![name]);
        let result: Vec<Token> = match &m.params {
            // Object-like: no parameters, but `##` still pastes.
            None => self.substitute(&m, &[], Vec::new(), t.loc)?,
            Some(params) => {
                if !src.peek().is(Punct::LParen) {
                    return Ok(false);
                }
                src.next();
                let args = self.collect_args(src, t, params.len(), m.variadic)?;
                self.substitute(&m, params, args, t.loc)?
            }
        };
        self.expanded += result.len();
        if self.expanded > MAX_EXPANDED_TOKENS {
            return err(t.loc, "macro expansion produces too many tokens");
        }
        let mut result: Vec<Token> = result
            .into_iter()
            .map(|r| with_hide(r, &with_hide_set(t, &hide)))
            .collect();
        if let Some(first) = result.first_mut() {
            first.space = t.space;
        }
        src.pending.extend(result.into_iter().rev());
        Ok(true)
    }

    pub(super) fn collect_args(
        &mut self,
        src: &mut Src,
        t: &Token,
        nparams: usize,
        variadic: bool,
    ) -> Result<Vec<Vec<Token>>> {
        let mut args: Vec<Vec<Token>> = vec![Vec::new()];
        let mut depth = 0usize;
        loop {
            let a = src.next();
            match a.tok {
                Tok::Eof => return err(t.loc, "unterminated function-like macro invocation"),
                Tok::Punct(Punct::LParen) => depth += 1,
                Tok::Punct(Punct::RParen) if depth == 0 => break,
                Tok::Punct(Punct::RParen) => depth -= 1,
                Tok::Punct(Punct::Comma) if depth == 0 && !(variadic && args.len() == nparams) => {
                    args.push(Vec::new());
                    continue;
                }
                _ => {}
            }
            args.last_mut().expect("never empty").push(a);
        }
        if nparams == 0 && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        if variadic && args.len() + 1 == nparams {
            args.push(Vec::new());
        }
        let name = self.name(t).unwrap_or("").to_string();
        if args.len() > nparams {
            return err(
                t.loc,
                format!("too many arguments provided to function-like macro invocation '{name}'"),
            );
        }
        if args.len() < nparams {
            return err(
                t.loc,
                format!("too few arguments provided to function-like macro invocation '{name}'"),
            );
        }
        Ok(args)
    }

    pub(super) fn substitute(
        &mut self,
        m: &Macro,
        params: &[Sym],
        args: Vec<Vec<Token>>,
        at: Loc,
    ) -> Result<Vec<Token>> {
        let param_of = |t: &Token| match t.tok {
            Tok::Ident(s) => params.iter().position(|p| *p == s),
            _ => None,
        };
        let mut expanded: Vec<Option<Vec<Token>>> = vec![None; args.len()];
        let body = &m.body;
        let mut out: Vec<Token> = Vec::new();
        // True when the last thing appended was an empty argument (a
        // placemarker): a following `##` then pastes with nothing.
        let mut placemarker = false;
        let mut i = 0;
        while i < body.len() {
            let b = &body[i];
            if b.is(Punct::Hash) && m.params.is_some() {
                let p = param_of(&body[i + 1]).expect("checked at #define");
                out.push(self.stringize(&args[p], at, b.space));
                placemarker = false;
                i += 2;
                continue;
            }
            if b.is(Punct::HashHash) {
                let rhs: Vec<Token> = match param_of(&body[i + 1]) {
                    Some(p) => args[p].clone(),
                    None => vec![Token {
                        loc: at,
                        ..body[i + 1].clone()
                    }],
                };
                i += 2;
                let lhs = if placemarker { None } else { out.pop() };
                match (lhs, rhs.split_first()) {
                    (Some(l), Some((r0, rest))) => {
                        let pasted = self.paste(&l, r0)?;
                        out.push(pasted);
                        out.extend(rest.iter().cloned());
                    }
                    (None, Some(_)) => out.extend(rhs.iter().cloned()),
                    (Some(l), None) => out.push(l),
                    (None, None) => {}
                }
                placemarker = rhs.is_empty() && placemarker;
                continue;
            }
            if let Some(p) = param_of(b) {
                let before_paste = body.get(i + 1).is_some_and(|n| n.is(Punct::HashHash));
                let toks = if before_paste {
                    args[p].clone()
                } else {
                    if expanded[p].is_none() {
                        expanded[p] = Some(self.expand_list(args[p].clone())?);
                    }
                    expanded[p].clone().expect("just set")
                };
                placemarker = toks.is_empty();
                let mut toks = toks;
                if let Some(f) = toks.first_mut() {
                    f.space = b.space;
                }
                out.extend(toks);
                i += 1;
                continue;
            }
            out.push(Token {
                loc: at,
                bol: false,
                ..b.clone()
            });
            placemarker = false;
            i += 1;
        }
        let _ = m.loc;
        Ok(out)
    }

    pub(super) fn stringize(&mut self, arg: &[Token], at: Loc, space: bool) -> Token {
        let mut s = String::from("\"");
        for (k, t) in arg.iter().enumerate() {
            if k > 0 && t.space {
                s.push(' ');
            }
            let sp = spelling(&t.tok, self.int);
            if matches!(t.tok, Tok::Str(_) | Tok::Char(_)) {
                for c in sp.chars() {
                    if c == '"' || c == '\\' {
                        s.push('\\');
                    }
                    s.push(c);
                }
            } else {
                s.push_str(&sp);
            }
        }
        s.push('"');
        Token {
            tok: Tok::Str(self.int.intern(&s)),
            loc: at,
            bol: false,
            space,
            hide: None,
        }
    }

    pub(super) fn paste(&mut self, l: &Token, r: &Token) -> Result<Token> {
        let text = format!(
            "{}{}",
            spelling(&l.tok, self.int),
            spelling(&r.tok, self.int)
        );
        let toks = lex(&text, l.loc.file, self.int)
            .ok()
            .filter(|t| t.len() == 2);
        match toks {
            Some(t) => Ok(Token {
                tok: t[0].tok,
                loc: l.loc,
                bol: false,
                space: l.space,
                hide: l.hide.clone(),
            }),
            None => err(
                l.loc,
                format!("pasting formed '{text}', an invalid preprocessing token"),
            ),
        }
    }

    /// Fully macro-expands a token list on its own (macro arguments, `#if`
    /// lines, `#pragma unroll` counts).
    pub(super) fn expand_list(&mut self, toks: Vec<Token>) -> Result<Vec<Token>> {
        // Arguments that contain macro calls expand recursively: bound it.
        self.nesting += 1;
        if self.nesting > 200 {
            let loc = toks.first().map(|t| t.loc).unwrap_or_default();
            return err(loc, "macro arguments are too deeply nested");
        }
        let r = self.expand_list_inner(toks);
        self.nesting -= 1;
        r
    }

    pub(super) fn expand_list_inner(&mut self, mut toks: Vec<Token>) -> Result<Vec<Token>> {
        let loc = toks.last().map(|t| t.loc).unwrap_or_default();
        toks.push(Token {
            tok: Tok::Eof,
            loc,
            bol: true,
            space: false,
            hide: None,
        });
        let mut src = Src::new(toks);
        let mut out = Vec::new();
        loop {
            let t = src.next();
            if t.tok == Tok::Eof {
                return Ok(out);
            }
            if !self.expand(&t, &mut src)? {
                out.push(t);
            }
        }
    }
}
