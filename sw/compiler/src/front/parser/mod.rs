//! Recursive-descent parser: preprocessed tokens → [`ast`](super::ast).
//! Typedef names are tracked per scope (C's "lexer hack") so `(T)x` and
//! `T * p;` parse as a cast and a declaration. The first error stops the
//! parse (no recovery).

mod expr;
mod stmt;

use super::ast::*;
use super::diag::{err, Loc, Result};
use super::lexer::{spelling, Interner, Pragma, Punct, Sym, Tok, Token};
use super::types::{builtin_type_names, AddrSpace, Scalar, Type};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kw {
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
        fp16: false,
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
            Tok::Pragma(Pragma::Fp16(on)) => {
                p.fp16 = on;
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
pub(super) const MAX_DEPTH: u32 = 400;

pub(super) struct Parser<'a> {
    toks: Vec<Token>,
    pos: usize,
    int: &'a Interner,
    kw: HashMap<Sym, Kw>,
    builtin: HashMap<Sym, Type>,
    /// Per scope: name → is a typedef (false: an ordinary name shadowing one).
    scopes: Vec<HashMap<Sym, bool>>,
    fp_contract: bool,
    /// cl_khr_fp16 enabled by `#pragma OPENCL EXTENSION` so far.
    fp16: bool,
    depth: u32,
}

/// The refusal of `aligned` after a typedef's name (it would give the
/// typedef, not the record, an alignment).
const TYPEDEF_ALIGNED: &str = "attribute 'aligned' on a typedef name is not supported; put it after the struct's closing brace";

#[derive(Default)]
pub(super) struct Specs {
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
    pub(super) fn peek(&self) -> &Token {
        &self.toks[self.pos]
    }
    pub(super) fn peek_at(&self, k: usize) -> &Token {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)]
    }
    pub(super) fn loc(&self) -> Loc {
        self.peek().loc
    }
    pub(super) fn next(&mut self) -> Token {
        let t = self.toks[self.pos].clone();
        if t.tok != Tok::Eof {
            self.pos += 1;
        }
        t
    }
    pub(super) fn is(&self, p: Punct) -> bool {
        self.peek().is(p)
    }
    pub(super) fn eat(&mut self, p: Punct) -> bool {
        if self.is(p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    pub(super) fn describe(&self, t: &Token) -> String {
        match t.tok {
            Tok::Eof => "end of file".into(),
            // A literal may hold a line splice: keep the message on one line.
            _ => format!(
                "'{}'",
                spelling(&t.tok, self.int)
                    .replace('\n', "\\n")
                    .replace('\r', "\\r")
            ),
        }
    }
    pub(super) fn expect(&mut self, p: Punct, ctx: &str) -> Result<Loc> {
        if self.is(p) {
            return Ok(self.next().loc);
        }
        let t = self.peek().clone();
        err(
            t.loc,
            format!("expected '{}'{ctx}, found {}", p.text(), self.describe(&t)),
        )
    }
    pub(super) fn kw_of(&self, t: &Token) -> Option<Kw> {
        match t.tok {
            Tok::Ident(s) => self.kw.get(&s).copied(),
            _ => None,
        }
    }
    pub(super) fn is_kw(&self, k: Kw) -> bool {
        self.kw_of(self.peek()) == Some(k)
    }
    pub(super) fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return err(self.loc(), "nesting is too deep");
        }
        Ok(())
    }
    pub(super) fn is_typedef_name(&self, s: Sym) -> bool {
        for scope in self.scopes.iter().rev() {
            if let Some(&t) = scope.get(&s) {
                return t;
            }
        }
        false
    }
    pub(super) fn declare(&mut self, name: Sym, is_typedef: bool) {
        self.scopes
            .last_mut()
            .expect("global scope")
            .insert(name, is_typedef);
    }
    /// True when the token at offset k starts a type name or declaration.
    pub(super) fn starts_type(&self, k: usize) -> bool {
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

    pub(super) fn specs(&mut self) -> Result<Specs> {
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
                        let (aligned, packed) = self.record_attribute(&mut sp.attrs)?;
                        if let (
                            true,
                            Some(BaseType::Record {
                                fields: Some(_),
                                packed: p,
                                ..
                            }),
                        ) = (packed, &mut sp.base)
                        {
                            // `struct {…} __attribute__((packed))`.
                            *p = true;
                        }
                        if let Some(a) = aligned {
                            // `struct {…} __attribute__((aligned(N)))`: the
                            // record's own alignment; elsewhere in the
                            // specifiers (before the type), the same.
                            match &mut sp.base {
                                Some(BaseType::Record {
                                    fields: Some(_),
                                    align,
                                    ..
                                }) => *align = Some(Box::new(a)),
                                _ => {
                                    return err(
                                        t.loc,
                                        "attribute 'aligned' is supported on a struct or union definition only",
                                    )
                                }
                            }
                        }
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
                        let name = self.int.get(s);
                        return err(
                            t.loc,
                            format!(
                                "'{name}' is not supported by this compiler: {}",
                                unsupported_type_reason(name)
                            ),
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

    /// Parses `__attribute__((…))`: kernel attributes go into `attrs`;
    /// the alignment of `aligned(N)` (a constant expression, evaluated by
    /// sema) is returned for the caller to apply.
    pub(super) fn attribute(&mut self, attrs: &mut FnAttrs) -> Result<Option<Expr>> {
        Ok(self.record_attribute(attrs)?.0)
    }

    /// [`Self::attribute`], also saying whether it held `packed` (which
    /// only a record definition takes; elsewhere clang ignores it with a
    /// warning, and so is it here).
    pub(super) fn record_attribute(&mut self, attrs: &mut FnAttrs) -> Result<(Option<Expr>, bool)> {
        self.pos += 1;
        self.expect(Punct::LParen, " after '__attribute__'")?;
        self.expect(Punct::LParen, " after '__attribute__('")?;
        let mut aligned = None;
        let mut packed = false;
        loop {
            if self.is(Punct::RParen) {
                break;
            }
            let t = self.next();
            let Tok::Ident(s) = t.tok else {
                return err(t.loc, "expected an attribute name");
            };
            let name = self.int.get(s).trim_matches('_').to_string();
            if name == "packed" {
                packed = true;
                if !self.eat(Punct::Comma) {
                    break;
                }
                continue;
            }
            if name == "aligned" {
                if !self.eat(Punct::LParen) {
                    return err(
                        t.loc,
                        "attribute 'aligned' without an alignment is not supported; write aligned(N)",
                    );
                }
                aligned = Some(self.assign_expr()?);
                self.expect(Punct::RParen, " to end the 'aligned' attribute")?;
                if !self.eat(Punct::Comma) {
                    break;
                }
                continue;
            }
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
                "vec_type_hint" => {
                    // The code object names the type as clang does: the
                    // unsigned scalar types by their short names.
                    let words: Vec<String> = args
                        .iter()
                        .map(|a| super::lexer::spelling(&a.tok, self.int))
                        .collect();
                    let text = words.join(" ");
                    let text = match text.as_str() {
                        "unsigned char" => "uchar".to_string(),
                        "unsigned short" => "ushort".to_string(),
                        "unsigned int" | "unsigned" => "uint".to_string(),
                        "unsigned long" => "ulong".to_string(),
                        _ => text,
                    };
                    if words.is_empty() {
                        return err(t.loc, "'vec_type_hint' attribute takes one type");
                    }
                    attrs.vec_type_hint = Some(text);
                }
                "always_inline" | "noinline" | "overloadable" | "const" | "pure" | "unused"
                | "used" | "nosvm" | "convergent" | "flatten" | "cold" | "hot" | "weak" => {}
                _ => return err(t.loc, format!("attribute '{name}' is not supported")),
            }
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RParen, " to end the attribute list")?;
        self.expect(Punct::RParen, " to end the attribute list")?;
        Ok((aligned, packed))
    }

    pub(super) fn record_body(&mut self, is_union: bool) -> Result<BaseType> {
        let mut tag = None;
        let mut align = None;
        let mut packed = false;
        while self.is_kw(Kw::Attribute) {
            let mut ignored = FnAttrs::default();
            let (a, p) = self.record_attribute(&mut ignored)?;
            align = a.map(Box::new).or(align);
            packed |= p;
        }
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
                align: None,
                packed: false,
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
            if matches!(
                &sp.base,
                Some(BaseType::Record {
                    tag: None,
                    fields: Some(_),
                    ..
                })
            ) && self.is(Punct::Semi)
            {
                // C11's anonymous struct or union member: its members are
                // named as members of the enclosing record.
                fields.push(FieldDecl {
                    name: None,
                    ty: base,
                    loc: sp.loc,
                });
                self.pos += 1;
                continue;
            }
            loop {
                let (name, ty, loc) = self.declarator(base.clone(), false)?;
                let Some(name) = name else {
                    return err(loc, "expected a member name");
                };
                if self.is(Punct::Colon) {
                    return err(self.loc(), "bit-fields are not supported");
                }
                if self.is_kw(Kw::Attribute) {
                    // clang packs or aligns just this member; the layout
                    // here takes attributes on the whole record only.
                    return err(
                        self.loc(),
                        "attributes on a struct or union member are not supported; \
                         put 'packed' or 'aligned' on the struct or union definition",
                    );
                }
                fields.push(FieldDecl {
                    name: Some(name),
                    ty,
                    loc,
                });
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
            align,
            packed,
        })
    }

    pub(super) fn enum_body(&mut self) -> Result<BaseType> {
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

    pub(super) fn base_of(&self, sp: &Specs) -> Result<SynType> {
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
    pub(super) fn declarator(
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
                        if self.attribute(&mut ignored)?.is_some() {
                            return err(loc, "attribute 'aligned' on a pointer is not supported");
                        }
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

    pub(super) fn suffixes(&mut self, ty: SynType) -> Result<SynType> {
        self.enter()?;
        let r = self.suffixes_inner(ty);
        self.depth -= 1;
        r
    }

    pub(super) fn suffixes_inner(&mut self, ty: SynType) -> Result<SynType> {
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

    pub(super) fn type_name(&mut self) -> Result<SynType> {
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

    pub(super) fn item(&mut self) -> Result<Item> {
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
            let at = self.loc();
            if self.attribute(&mut sp.attrs)?.is_some() && sp.is_typedef {
                return err(at, TYPEDEF_ALIGNED);
            }
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
                sp.attrs.fp16 = self.fp16;
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

    pub(super) fn init_declarators(
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
                // `aligned` on a variable only moves where it is placed,
                // which changes no result: accepted and not applied.
                let at = self.loc();
                let mut ignored = FnAttrs::default();
                if self.attribute(&mut ignored)?.is_some() && sp.is_typedef {
                    return err(at, TYPEDEF_ALIGNED);
                }
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

    pub(super) fn initializer(&mut self) -> Result<Expr> {
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
}

/// Why a type clang knows is refused here (the `Kw::Unsupported` words).
fn unsupported_type_reason(name: &str) -> &'static str {
    match name {
        "pipe" => "pipes need a host runtime that gpusim's driver does not have",
        "queue_t" => "device-side enqueue needs a device queue that gpusim's driver does not have",
        // image*_t and sampler_t.
        _ => "images and samplers need the texture unit (MIMG instructions), which gpusim's GPU models do not have",
    }
}
