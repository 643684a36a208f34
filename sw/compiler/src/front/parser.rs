//! Recursive-descent parser: preprocessed tokens → [`ast`](super::ast).
//! Typedef names are tracked per scope (C's "lexer hack") so `(T)x` and
//! `T * p;` parse as a cast and a declaration. The first error stops the
//! parse (no recovery).

use super::ast::*;
use super::diag::{err, Loc, Result};
use super::lexer::{spelling, Interner, Pragma, Punct, Sym, Tok, Token};
use super::types::{builtin_type_names, AddrSpace, Scalar, Type};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kw {
    Void,
    Char,
    Short,
    Int,
    Long,
    Float,
    Double,
    Half,
    Bool,
    Signed,
    Unsigned,
    Struct,
    Union,
    Enum,
    Typedef,
    Static,
    Extern,
    Inline,
    Const,
    Volatile,
    Restrict,
    Space(AddrSpace),
    Kernel,
    Attribute,
    If,
    Else,
    For,
    While,
    Do,
    Switch,
    Case,
    Default,
    Break,
    Continue,
    Return,
    Goto,
    Sizeof,
    Alignof,
    VecStep,
    Access,
    Register,
    Auto,
    Unsupported,
}

const KEYWORDS: &[(&str, Kw)] = &[
    ("void", Kw::Void),
    ("char", Kw::Char),
    ("short", Kw::Short),
    ("int", Kw::Int),
    ("long", Kw::Long),
    ("float", Kw::Float),
    ("double", Kw::Double),
    ("half", Kw::Half),
    ("bool", Kw::Bool),
    ("_Bool", Kw::Bool),
    ("signed", Kw::Signed),
    ("__signed__", Kw::Signed),
    ("unsigned", Kw::Unsigned),
    ("struct", Kw::Struct),
    ("union", Kw::Union),
    ("enum", Kw::Enum),
    ("typedef", Kw::Typedef),
    ("static", Kw::Static),
    ("extern", Kw::Extern),
    ("inline", Kw::Inline),
    ("__inline", Kw::Inline),
    ("__inline__", Kw::Inline),
    ("const", Kw::Const),
    ("__const", Kw::Const),
    ("volatile", Kw::Volatile),
    ("restrict", Kw::Restrict),
    ("__restrict", Kw::Restrict),
    ("__restrict__", Kw::Restrict),
    ("__global", Kw::Space(AddrSpace::Global)),
    ("global", Kw::Space(AddrSpace::Global)),
    ("__local", Kw::Space(AddrSpace::Local)),
    ("local", Kw::Space(AddrSpace::Local)),
    ("__constant", Kw::Space(AddrSpace::Constant)),
    ("constant", Kw::Space(AddrSpace::Constant)),
    ("__private", Kw::Space(AddrSpace::Private)),
    ("private", Kw::Space(AddrSpace::Private)),
    ("__generic", Kw::Space(AddrSpace::Generic)),
    ("generic", Kw::Space(AddrSpace::Generic)),
    ("__kernel", Kw::Kernel),
    ("kernel", Kw::Kernel),
    ("__attribute__", Kw::Attribute),
    ("__attribute", Kw::Attribute),
    ("if", Kw::If),
    ("else", Kw::Else),
    ("for", Kw::For),
    ("while", Kw::While),
    ("do", Kw::Do),
    ("switch", Kw::Switch),
    ("case", Kw::Case),
    ("default", Kw::Default),
    ("break", Kw::Break),
    ("continue", Kw::Continue),
    ("return", Kw::Return),
    ("goto", Kw::Goto),
    ("sizeof", Kw::Sizeof),
    ("__alignof__", Kw::Alignof),
    ("_Alignof", Kw::Alignof),
    ("__alignof", Kw::Alignof),
    ("vec_step", Kw::VecStep),
    ("__read_only", Kw::Access),
    ("read_only", Kw::Access),
    ("__write_only", Kw::Access),
    ("write_only", Kw::Access),
    ("__read_write", Kw::Access),
    ("read_write", Kw::Access),
    ("register", Kw::Register),
    ("auto", Kw::Auto),
    ("image1d_t", Kw::Unsupported),
    ("image2d_t", Kw::Unsupported),
    ("image3d_t", Kw::Unsupported),
    ("image1d_array_t", Kw::Unsupported),
    ("image2d_array_t", Kw::Unsupported),
    ("image1d_buffer_t", Kw::Unsupported),
    ("sampler_t", Kw::Unsupported),
    ("event_t", Kw::Unsupported),
    ("pipe", Kw::Unsupported),
    ("queue_t", Kw::Unsupported),
    ("clk_event_t", Kw::Unsupported),
    ("reserve_id_t", Kw::Unsupported),
    ("ndrange_t", Kw::Unsupported),
    ("_Complex", Kw::Unsupported),
    ("_Atomic", Kw::Unsupported),
    ("__int128", Kw::Unsupported),
    ("asm", Kw::Unsupported),
    ("__asm__", Kw::Unsupported),
];

/// Parses a whole translation unit.
pub fn parse(toks: Vec<Token>, interner: &mut Interner) -> Result<Vec<Item>> {
    let mut kw = HashMap::new();
    for (s, k) in KEYWORDS {
        kw.insert(interner.intern(s), *k);
    }
    let mut builtin = HashMap::new();
    for (s, t) in builtin_type_names() {
        builtin.insert(interner.intern(&s), t);
    }
    let mut p = Parser {
        toks,
        pos: 0,
        int: interner,
        kw,
        builtin,
        scopes: vec![HashMap::new()],
        fp_contract: true,
        depth: 0,
    };
    let mut items = Vec::new();
    loop {
        match p.peek().tok {
            Tok::Eof => return Ok(items),
            Tok::Punct(Punct::Semi) => p.pos += 1,
            Tok::Pragma(Pragma::FpContract(on)) => {
                p.fp_contract = on;
                p.pos += 1;
            }
            Tok::Pragma(Pragma::Unroll(_)) => {
                return err(
                    p.peek().loc,
                    "expected a for, while, or do-while loop to follow '#pragma unroll'",
                )
            }
            _ => items.push(p.item()?),
        }
    }
}

/// Deepest expression/statement nesting before the parser gives up (keeps
/// the recursion off the end of the stack on hostile input).
const MAX_DEPTH: u32 = 400;

struct Parser<'a> {
    toks: Vec<Token>,
    pos: usize,
    int: &'a Interner,
    kw: HashMap<Sym, Kw>,
    builtin: HashMap<Sym, Type>,
    /// Per scope: name → is a typedef (false: an ordinary name shadowing one).
    scopes: Vec<HashMap<Sym, bool>>,
    fp_contract: bool,
    depth: u32,
}

#[derive(Default)]
struct Specs {
    base: Option<BaseType>,
    konst: bool,
    volatile: bool,
    space: Option<AddrSpace>,
    is_static: bool,
    is_extern: bool,
    is_typedef: bool,
    is_kernel: bool,
    attrs: FnAttrs,
    access: Option<Sym>,
    signed: Option<bool>,
    short: bool,
    long: u8,
    int_kw: bool,
    char_kw: bool,
    loc: Loc,
}

impl Parser<'_> {
    fn peek(&self) -> &Token {
        &self.toks[self.pos]
    }
    fn peek_at(&self, k: usize) -> &Token {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)]
    }
    fn loc(&self) -> Loc {
        self.peek().loc
    }
    fn next(&mut self) -> Token {
        let t = self.toks[self.pos].clone();
        if t.tok != Tok::Eof {
            self.pos += 1;
        }
        t
    }
    fn is(&self, p: Punct) -> bool {
        self.peek().is(p)
    }
    fn eat(&mut self, p: Punct) -> bool {
        if self.is(p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn describe(&self, t: &Token) -> String {
        match t.tok {
            Tok::Eof => "end of file".into(),
            _ => format!("'{}'", spelling(&t.tok, self.int)),
        }
    }
    fn expect(&mut self, p: Punct, ctx: &str) -> Result<Loc> {
        if self.is(p) {
            return Ok(self.next().loc);
        }
        let t = self.peek().clone();
        err(
            t.loc,
            format!("expected '{}'{ctx}, found {}", p.text(), self.describe(&t)),
        )
    }
    fn kw_of(&self, t: &Token) -> Option<Kw> {
        match t.tok {
            Tok::Ident(s) => self.kw.get(&s).copied(),
            _ => None,
        }
    }
    fn is_kw(&self, k: Kw) -> bool {
        self.kw_of(self.peek()) == Some(k)
    }
    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return err(self.loc(), "nesting is too deep");
        }
        Ok(())
    }
    fn is_typedef_name(&self, s: Sym) -> bool {
        for scope in self.scopes.iter().rev() {
            if let Some(&t) = scope.get(&s) {
                return t;
            }
        }
        false
    }
    fn declare(&mut self, name: Sym, is_typedef: bool) {
        self.scopes
            .last_mut()
            .expect("global scope")
            .insert(name, is_typedef);
    }
    /// True when the token at offset k starts a type name or declaration.
    fn starts_type(&self, k: usize) -> bool {
        let t = self.peek_at(k);
        match t.tok {
            Tok::Ident(s) => match self.kw.get(&s) {
                Some(kw) => matches!(
                    kw,
                    Kw::Void
                        | Kw::Char
                        | Kw::Short
                        | Kw::Int
                        | Kw::Long
                        | Kw::Float
                        | Kw::Double
                        | Kw::Half
                        | Kw::Bool
                        | Kw::Signed
                        | Kw::Unsigned
                        | Kw::Struct
                        | Kw::Union
                        | Kw::Enum
                        | Kw::Typedef
                        | Kw::Static
                        | Kw::Extern
                        | Kw::Inline
                        | Kw::Const
                        | Kw::Volatile
                        | Kw::Restrict
                        | Kw::Space(_)
                        | Kw::Kernel
                        | Kw::Attribute
                        | Kw::Access
                        | Kw::Register
                        | Kw::Auto
                        | Kw::Unsupported
                ),
                None => self.builtin.contains_key(&s) || self.is_typedef_name(s),
            },
            _ => false,
        }
    }

    // ---- declarations ------------------------------------------------------

    fn specs(&mut self) -> Result<Specs> {
        let mut sp = Specs {
            loc: self.loc(),
            ..Default::default()
        };
        loop {
            let t = self.peek().clone();
            let Tok::Ident(s) = t.tok else { break };
            if let Some(k) = self.kw.get(&s).copied() {
                match k {
                    Kw::Const => sp.konst = true,
                    Kw::Volatile => sp.volatile = true,
                    Kw::Restrict | Kw::Inline | Kw::Register | Kw::Auto => {}
                    Kw::Static => sp.is_static = true,
                    Kw::Extern => sp.is_extern = true,
                    Kw::Typedef => sp.is_typedef = true,
                    Kw::Kernel => sp.is_kernel = true,
                    Kw::Access => sp.access = Some(s),
                    Kw::Space(a) => {
                        if sp.space.is_some_and(|b| b != a) {
                            return err(t.loc, "multiple address spaces specified for type");
                        }
                        sp.space = Some(a);
                    }
                    Kw::Attribute => {
                        self.attribute(&mut sp.attrs)?;
                        continue;
                    }
                    Kw::Signed | Kw::Unsigned => {
                        if sp.signed.is_some() || sp.base.is_some() {
                            return err(
                                t.loc,
                                "cannot combine with previous declaration specifier",
                            );
                        }
                        sp.signed = Some(k == Kw::Signed);
                    }
                    Kw::Short => sp.short = true,
                    Kw::Long => sp.long += 1,
                    Kw::Int => sp.int_kw = true,
                    Kw::Char => sp.char_kw = true,
                    Kw::Void | Kw::Float | Kw::Double | Kw::Half | Kw::Bool => {
                        if sp.base.is_some()
                            || sp.signed.is_some()
                            || sp.short
                            || sp.long > 0
                            || sp.int_kw
                            || sp.char_kw
                        {
                            return err(
                                t.loc,
                                "cannot combine with previous declaration specifier",
                            );
                        }
                        sp.base = Some(BaseType::Builtin(match k {
                            Kw::Void => Type::Void,
                            Kw::Float => Type::FLOAT,
                            Kw::Double => Type::Scalar(Scalar::Double),
                            Kw::Half => Type::Scalar(Scalar::Half),
                            _ => Type::BOOL,
                        }));
                    }
                    Kw::Struct | Kw::Union | Kw::Enum => {
                        if sp.base.is_some() {
                            return err(
                                t.loc,
                                "cannot combine with previous declaration specifier",
                            );
                        }
                        self.pos += 1;
                        sp.base = Some(if k == Kw::Enum {
                            self.enum_body()?
                        } else {
                            self.record_body(k == Kw::Union)?
                        });
                        continue;
                    }
                    Kw::Unsupported => {
                        return err(
                            t.loc,
                            format!("'{}' is not supported by this compiler", self.int.get(s)),
                        );
                    }
                    _ => break,
                }
                self.pos += 1;
                continue;
            }
            let int_words =
                sp.signed.is_some() || sp.short || sp.long > 0 || sp.int_kw || sp.char_kw;
            if sp.base.is_none() && !int_words {
                if let Some(ty) = self.builtin.get(&s) {
                    sp.base = Some(BaseType::Builtin(ty.clone()));
                    self.pos += 1;
                    continue;
                }
                if self.is_typedef_name(s) {
                    sp.base = Some(BaseType::Typedef(s));
                    self.pos += 1;
                    continue;
                }
            }
            break;
        }
        let int_words = sp.signed.is_some() || sp.short || sp.long > 0 || sp.int_kw || sp.char_kw;
        if int_words {
            if sp.base.is_some()
                || (sp.short && (sp.long > 0 || sp.char_kw))
                || (sp.char_kw && sp.long > 0)
            {
                return err(sp.loc, "cannot combine with previous declaration specifier");
            }
            if sp.long > 1 {
                return err(
                    sp.loc,
                    "'long long' is not supported in OpenCL C (use 'long')",
                );
            }
            let s = if sp.char_kw {
                Scalar::Char
            } else if sp.short {
                Scalar::Short
            } else if sp.long == 1 {
                Scalar::Long
            } else {
                Scalar::Int
            };
            let s = if sp.signed == Some(false) {
                s.to_unsigned()
            } else {
                s
            };
            sp.base = Some(BaseType::Builtin(Type::Scalar(s)));
        }
        Ok(sp)
    }

    fn attribute(&mut self, attrs: &mut FnAttrs) -> Result<()> {
        self.pos += 1;
        self.expect(Punct::LParen, " after '__attribute__'")?;
        self.expect(Punct::LParen, " after '__attribute__('")?;
        loop {
            if self.is(Punct::RParen) {
                break;
            }
            let t = self.next();
            let Tok::Ident(s) = t.tok else {
                return err(t.loc, "expected an attribute name");
            };
            let name = self.int.get(s).trim_matches('_').to_string();
            let mut args = Vec::new();
            if self.eat(Punct::LParen) {
                let mut depth = 0;
                loop {
                    let a = self.next();
                    match a.tok {
                        Tok::Eof => return err(a.loc, "expected ')' to end the attribute"),
                        Tok::Punct(Punct::LParen) => depth += 1,
                        Tok::Punct(Punct::RParen) if depth == 0 => break,
                        Tok::Punct(Punct::RParen) => depth -= 1,
                        _ => {}
                    }
                    args.push(a);
                }
            }
            match name.as_str() {
                "reqd_work_group_size" | "work_group_size_hint" => {
                    let nums: Vec<u32> = args
                        .iter()
                        .filter(|a| !a.is(Punct::Comma))
                        .map(|a| match a.tok {
                            Tok::Number(n) => super::lexer::parse_int_literal(self.int.get(n))
                                .ok()
                                .flatten()
                                .map(|l| l.value as u32),
                            _ => None,
                        })
                        .collect::<Option<Vec<u32>>>()
                        .filter(|v| v.len() == 3 && v.iter().all(|&x| x > 0))
                        .ok_or_else(|| super::diag::Error {
                            loc: t.loc,
                            msg: format!(
                                "'{name}' attribute takes three positive integer constants"
                            ),
                        })?;
                    let v = Some([nums[0], nums[1], nums[2]]);
                    if name == "reqd_work_group_size" {
                        attrs.reqd_work_group_size = v;
                    } else {
                        attrs.work_group_size_hint = v;
                    }
                }
                "always_inline" | "noinline" | "overloadable" | "const" | "pure" | "unused"
                | "used" | "vec_type_hint" | "nosvm" | "convergent" | "flatten" | "cold"
                | "hot" | "weak" => {}
                _ => return err(t.loc, format!("attribute '{name}' is not supported")),
            }
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RParen, " to end the attribute list")?;
        self.expect(Punct::RParen, " to end the attribute list")?;
        Ok(())
    }

    fn record_body(&mut self, is_union: bool) -> Result<BaseType> {
        let mut tag = None;
        if let Tok::Ident(s) = self.peek().tok {
            if self.kw_of(self.peek()) != Some(Kw::Attribute) {
                tag = Some(s);
                self.pos += 1;
            }
        }
        if !self.eat(Punct::LBrace) {
            if tag.is_none() {
                let t = self.peek().clone();
                return err(
                    t.loc,
                    format!("expected '{{' or a tag name, found {}", self.describe(&t)),
                );
            }
            return Ok(BaseType::Record {
                is_union,
                tag,
                fields: None,
            });
        }
        let mut fields = Vec::new();
        while !self.eat(Punct::RBrace) {
            if !self.starts_type(0) {
                let t = self.peek().clone();
                return err(
                    t.loc,
                    format!("expected a member declaration, found {}", self.describe(&t)),
                );
            }
            let sp = self.specs()?;
            let base = self.base_of(&sp)?;
            loop {
                let (name, ty, loc) = self.declarator(base.clone(), false)?;
                let Some(name) = name else {
                    return err(loc, "expected a member name");
                };
                if self.is(Punct::Colon) {
                    return err(self.loc(), "bit-fields are not supported");
                }
                fields.push(FieldDecl { name, ty, loc });
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            self.expect(Punct::Semi, " after member declaration")?;
        }
        Ok(BaseType::Record {
            is_union,
            tag,
            fields: Some(fields),
        })
    }

    fn enum_body(&mut self) -> Result<BaseType> {
        let mut tag = None;
        if let Tok::Ident(s) = self.peek().tok {
            tag = Some(s);
            self.pos += 1;
        }
        if !self.eat(Punct::LBrace) {
            if tag.is_none() {
                return err(self.loc(), "expected '{' or a tag name after 'enum'");
            }
            return Ok(BaseType::Enum { tag, items: None });
        }
        let mut items = Vec::new();
        while !self.eat(Punct::RBrace) {
            let t = self.next();
            let Tok::Ident(s) = t.tok else {
                return err(t.loc, "expected an enumerator name");
            };
            let v = if self.eat(Punct::Assign) {
                Some(self.assign_expr()?)
            } else {
                None
            };
            self.declare(s, false);
            items.push((s, v, t.loc));
            if !self.eat(Punct::Comma) {
                self.expect(Punct::RBrace, " after enumerator list")?;
                break;
            }
        }
        Ok(BaseType::Enum {
            tag,
            items: Some(items),
        })
    }

    fn base_of(&self, sp: &Specs) -> Result<SynType> {
        let Some(base) = sp.base.clone() else {
            let t = self.peek();
            return err(
                sp.loc,
                format!("expected a type specifier before {}", self.describe(t)),
            );
        };
        Ok(SynType::Base {
            base,
            konst: sp.konst,
            volatile: sp.volatile,
            space: sp.space,
            loc: sp.loc,
        })
    }

    /// Parses a declarator around `base`: returns the name (None for an
    /// abstract declarator, allowed when `abstract_ok`), the full type and
    /// the name's location.
    fn declarator(
        &mut self,
        base: SynType,
        abstract_ok: bool,
    ) -> Result<(Option<Sym>, SynType, Loc)> {
        self.enter()?;
        let mut ty = base;
        let depth = self.depth;
        while self.is(Punct::Star) {
            self.enter()?;
            let loc = self.next().loc;
            let (mut konst, mut volatile, mut restrict) = (false, false, false);
            loop {
                match self.kw_of(self.peek()) {
                    Some(Kw::Const) => konst = true,
                    Some(Kw::Volatile) => volatile = true,
                    Some(Kw::Restrict) => restrict = true,
                    Some(Kw::Space(_)) => {
                        return err(self.loc(), "an address space after '*' qualifies the pointer variable, which is not supported here; write it before the type");
                    }
                    Some(Kw::Attribute) => {
                        let mut ignored = FnAttrs::default();
                        self.attribute(&mut ignored)?;
                        continue;
                    }
                    _ => break,
                }
                self.pos += 1;
            }
            ty = SynType::Pointer {
                pointee: Box::new(ty),
                konst,
                volatile,
                restrict,
                loc,
            };
        }
        self.depth = depth;
        let loc = self.loc();
        let result = if self.is(Punct::LParen)
            && (matches!(
                self.peek_at(1).tok,
                Tok::Punct(Punct::Star) | Tok::Punct(Punct::LParen)
            ) || (matches!(self.peek_at(1).tok, Tok::Ident(_)) && !self.starts_type(1)))
        {
            // Nested declarator: the suffixes after ')' apply first.
            self.pos += 1;
            let inner_start = self.pos;
            let mut depth = 1;
            while depth > 0 {
                let t = self.next();
                match t.tok {
                    Tok::Punct(Punct::LParen) => depth += 1,
                    Tok::Punct(Punct::RParen) => depth -= 1,
                    Tok::Eof => return err(loc, "expected ')'"),
                    _ => {}
                }
            }
            let outer = self.suffixes(ty)?;
            let end = self.pos;
            self.pos = inner_start;
            let (name, full, nloc) = self.declarator(outer, abstract_ok)?;
            self.expect(Punct::RParen, " to end the declarator")?;
            self.pos = end;
            (name, full, nloc)
        } else {
            let name = match self.peek().tok {
                Tok::Ident(s) if self.kw_of(self.peek()).is_none() => {
                    self.pos += 1;
                    Some(s)
                }
                _ => None,
            };
            if name.is_none() && !abstract_ok {
                let t = self.peek().clone();
                return err(
                    t.loc,
                    format!("expected an identifier, found {}", self.describe(&t)),
                );
            }
            (name, self.suffixes(ty)?, loc)
        };
        self.depth -= 1;
        Ok(result)
    }

    fn suffixes(&mut self, ty: SynType) -> Result<SynType> {
        self.enter()?;
        let r = self.suffixes_inner(ty);
        self.depth -= 1;
        r
    }

    fn suffixes_inner(&mut self, ty: SynType) -> Result<SynType> {
        if self.is(Punct::LBracket) {
            let loc = self.next().loc;
            let len = if self.is(Punct::RBracket) {
                None
            } else {
                Some(Box::new(self.assign_expr()?))
            };
            self.expect(Punct::RBracket, " after array size")?;
            let elem = self.suffixes(ty)?;
            return Ok(SynType::Array {
                elem: Box::new(elem),
                len,
                loc,
            });
        }
        if self.is(Punct::LParen) {
            let loc = self.next().loc;
            let mut params = Vec::new();
            if self.is_kw(Kw::Void) && self.peek_at(1).is(Punct::RParen) {
                self.pos += 1;
            }
            if !self.eat(Punct::RParen) {
                loop {
                    if self.is(Punct::Ellipsis) {
                        return err(
                            self.loc(),
                            "variadic functions are not supported in OpenCL C",
                        );
                    }
                    if !self.starts_type(0) {
                        let t = self.peek().clone();
                        return err(
                            t.loc,
                            format!(
                                "expected a parameter declaration, found {}",
                                self.describe(&t)
                            ),
                        );
                    }
                    let ploc = self.loc();
                    let sp = self.specs()?;
                    let base = self.base_of(&sp)?;
                    let (name, pty, nloc) = self.declarator(base, true)?;
                    params.push(ParamDecl {
                        name,
                        ty: pty,
                        access: sp.access,
                        loc: if name.is_some() { nloc } else { ploc },
                    });
                    if !self.eat(Punct::Comma) {
                        break;
                    }
                }
                self.expect(Punct::RParen, " after parameter list")?;
            }
            let ret = self.suffixes(ty)?;
            return Ok(SynType::Function {
                ret: Box::new(ret),
                params,
                loc,
            });
        }
        Ok(ty)
    }

    fn type_name(&mut self) -> Result<SynType> {
        let sp = self.specs()?;
        if sp.is_static || sp.is_typedef || sp.is_extern || sp.is_kernel {
            return err(sp.loc, "storage class not allowed in a type name");
        }
        let base = self.base_of(&sp)?;
        let (name, ty, loc) = self.declarator(base, true)?;
        if name.is_some() {
            return err(loc, "expected ')' after the type name");
        }
        Ok(ty)
    }

    fn item(&mut self) -> Result<Item> {
        if !self.starts_type(0) {
            let t = self.peek().clone();
            if let Tok::Ident(s) = t.tok {
                if self.kw_of(&t).is_none()
                    && matches!(self.peek_at(1).tok, Tok::Ident(_) | Tok::Punct(Punct::Star))
                {
                    return err(t.loc, format!("unknown type name '{}'", self.int.get(s)));
                }
            }
            return err(
                t.loc,
                format!("expected a declaration, found {}", self.describe(&t)),
            );
        }
        let mut sp = self.specs()?;
        let base = self.base_of(&sp)?;
        if self.eat(Punct::Semi) {
            return Ok(Item::Decl(Vec::new(), Some(base)));
        }
        let (name, ty, loc) = self.declarator(base.clone(), false)?;
        let name = name.expect("declarator requires a name");
        while self.is_kw(Kw::Attribute) {
            self.attribute(&mut sp.attrs)?;
        }
        if let SynType::Function { params, .. } = &ty {
            if self.is(Punct::LBrace) {
                if sp.is_typedef {
                    return err(loc, "function definition declared 'typedef'");
                }
                self.declare(name, false);
                self.scopes.push(HashMap::new());
                for p in params {
                    if let Some(n) = p.name {
                        self.declare(n, false);
                    }
                }
                let fp_contract = self.fp_contract;
                let body = self.block_body()?;
                self.scopes.pop();
                return Ok(Item::Function {
                    name,
                    ty,
                    is_kernel: sp.is_kernel,
                    attrs: sp.attrs,
                    body,
                    fp_contract,
                    loc,
                });
            }
        }
        if sp.is_kernel && !matches!(ty, SynType::Function { .. }) {
            return err(sp.loc, "'__kernel' can only be applied to a function");
        }
        let decls = self.init_declarators(&sp, base.clone(), name, ty, loc)?;
        Ok(Item::Decl(decls, Some(base)))
    }

    fn init_declarators(
        &mut self,
        sp: &Specs,
        base: SynType,
        name: Sym,
        ty: SynType,
        loc: Loc,
    ) -> Result<Vec<VarDeclAst>> {
        let mut out = Vec::new();
        let (mut name, mut ty, mut loc) = (name, ty, loc);
        loop {
            while self.is_kw(Kw::Attribute) {
                let mut ignored = FnAttrs::default();
                self.attribute(&mut ignored)?;
            }
            let init = if self.eat(Punct::Assign) {
                if sp.is_typedef {
                    return err(
                        loc,
                        "illegal initializer (only variables can be initialized)",
                    );
                }
                Some(self.initializer()?)
            } else {
                None
            };
            self.declare(name, sp.is_typedef);
            out.push(VarDeclAst {
                name,
                ty,
                init,
                is_static: sp.is_static,
                is_typedef: sp.is_typedef,
                is_extern: sp.is_extern,
                loc,
            });
            if !self.eat(Punct::Comma) {
                break;
            }
            let (n, t, l) = self.declarator(base.clone(), false)?;
            name = n.expect("declarator requires a name");
            ty = t;
            loc = l;
        }
        self.expect(Punct::Semi, " after declaration")?;
        Ok(out)
    }

    fn initializer(&mut self) -> Result<Expr> {
        if self.is(Punct::LBrace) {
            self.enter()?;
            let loc = self.next().loc;
            let mut elems = Vec::new();
            while !self.eat(Punct::RBrace) {
                if self.is(Punct::Dot) || self.is(Punct::LBracket) {
                    return err(self.loc(), "designated initializers are not supported");
                }
                elems.push(self.initializer()?);
                if !self.eat(Punct::Comma) {
                    self.expect(Punct::RBrace, " to end the initializer list")?;
                    break;
                }
            }
            self.depth -= 1;
            return Ok(Expr {
                kind: ExprKind::InitList(elems),
                loc,
            });
        }
        self.assign_expr()
    }

    // ---- statements --------------------------------------------------------

    fn block_body(&mut self) -> Result<Vec<Stmt>> {
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

    fn stmt(&mut self) -> Result<Stmt> {
        self.enter()?;
        let r = self.stmt_inner();
        self.depth -= 1;
        r
    }

    fn paren_expr(&mut self, what: &str) -> Result<Expr> {
        self.expect(Punct::LParen, &format!(" after '{what}'"))?;
        let e = self.expr()?;
        self.expect(Punct::RParen, &format!(" after the '{what}' condition"))?;
        Ok(e)
    }

    fn stmt_inner(&mut self) -> Result<Stmt> {
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
                Some(Kw::Goto) => return err(loc, "'goto' is not supported"),
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
    fn scoped_stmt(&mut self) -> Result<Stmt> {
        self.scopes.push(HashMap::new());
        let r = self.stmt();
        self.scopes.pop();
        r
    }

    fn for_rest(&mut self) -> Result<StmtKind> {
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

    fn local_decl(&mut self) -> Result<StmtKind> {
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

    // ---- expressions -------------------------------------------------------

    fn expr(&mut self) -> Result<Expr> {
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

    fn assign_expr(&mut self) -> Result<Expr> {
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

    fn cond_expr(&mut self) -> Result<Expr> {
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

    fn binary(&mut self, min_prec: u8) -> Result<Expr> {
        let mut lhs = self.unary()?;
        let depth = self.depth;
        let r = self.binary_rest(&mut lhs, min_prec);
        self.depth = depth;
        r.map(|_| lhs)
    }

    fn binary_rest(&mut self, lhs: &mut Expr, min_prec: u8) -> Result<()> {
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

    fn unary(&mut self) -> Result<Expr> {
        self.enter()?;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self) -> Result<Expr> {
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

    fn postfix(&mut self, e: Expr) -> Result<Expr> {
        let depth = self.depth;
        let r = self.postfix_rest(e);
        self.depth = depth;
        r
    }

    fn postfix_rest(&mut self, mut e: Expr) -> Result<Expr> {
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

    fn primary(&mut self) -> Result<Expr> {
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
