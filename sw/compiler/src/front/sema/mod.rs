//! Semantic analysis: the untyped AST → the typed AST ([`super::tast`]).
//! Resolves names and types, makes implicit conversions explicit, checks
//! lvalues, address spaces and qualifiers, resolves built-in overloads,
//! lays out structs, and collects kernel signatures. Stops at the first error.

mod call;
mod convert;
mod expr;
mod operators;
mod stmt;

use super::ast::{self, BaseType, Item, SynType};
use super::diag::{err, Loc, Result};
use super::lexer::{Interner, Sym};
use super::tast::*;
use super::types::{AddrSpace, Record, RecordId, Records, Scalar, Type};
use std::collections::{HashMap, HashSet};

/// A type with the qualifiers written on it.
#[derive(Clone, Debug)]
pub(crate) struct QualType {
    pub ty: Type,
    pub konst: bool,
    pub volatile: bool,
    /// A `restrict` pointer (`.is_restrict` of a kernel argument).
    pub restrict: bool,
    pub space: Option<AddrSpace>,
}

#[derive(Clone, Debug)]
pub(super) enum Name {
    Var(VarId),
    Global(GlobalId),
    Func(FuncId),
    Typedef(QualType),
    EnumConst(i64),
}

#[derive(Default)]
pub(super) struct Scope {
    names: HashMap<Sym, Name>,
    tags: HashMap<Sym, Option<RecordId>>,
}

pub(super) struct SwitchCtx {
    ty: Type,
    cases: Vec<(u64, CaseId)>,
    default: Option<CaseId>,
    seen: HashSet<u64>,
}

pub(super) struct FnCtx {
    vars: Vec<Var>,
    ret: Type,
    is_kernel: bool,
    loops: u32,
    switches: Vec<SwitchCtx>,
    block_depth: u32,
    calls: Vec<(FuncId, Loc)>,
    local_vars: Vec<VarId>,
    next_case: u32,
    /// `const` integer variables with a constant initializer and its value:
    /// clang folds them into array sizes (`const int T = 16; float a[T];`,
    /// a GNU extension it accepts with a warning).
    const_ints: Vec<(VarId, i128)>,
}

pub(crate) struct Sema<'a> {
    int: &'a Interner,
    records: Records,
    scopes: Vec<Scope>,
    functions: Vec<Function>,
    globals: Vec<Global>,
    f: Option<FnCtx>,
    /// `-cl-single-precision-constant`: unsuffixed floating literals are `float`.
    single_precision_constant: bool,
    /// `amdhsa.printf` entries, one per `printf` call (`call/printf.rs`).
    printf_formats: Vec<String>,
    /// cl_khr_fp16 was enabled (`#pragma OPENCL EXTENSION`) before the
    /// function being checked: `half` kernel parameters are allowed.
    fp16: bool,
}

/// Checks a parsed translation unit and builds the typed AST.
pub fn analyze(items: &[Item], int: &Interner) -> Result<TranslationUnit> {
    analyze_with(items, int, false)
}

/// [`analyze`] with `-cl-single-precision-constant` on or off.
pub fn analyze_with(
    items: &[Item],
    int: &Interner,
    single_precision_constant: bool,
) -> Result<TranslationUnit> {
    let mut s = Sema {
        int,
        records: Records::default(),
        scopes: vec![Scope::default()],
        functions: Vec::new(),
        globals: Vec::new(),
        f: None,
        single_precision_constant,
        printf_formats: Vec::new(),
        fp16: false,
    };
    for item in items {
        match item {
            Item::Function {
                name,
                ty,
                is_kernel,
                attrs,
                body,
                fp_contract,
                loc,
            } => s.function(*name, ty, *is_kernel, attrs, body, *fp_contract, *loc)?,
            Item::Decl(decls, base) => s.file_scope_decl(decls, base.as_ref())?,
        }
    }
    s.check_calls()?;
    Ok(TranslationUnit {
        records: s.records,
        functions: s.functions,
        globals: s.globals,
        printf: s.printf_formats,
    })
}

impl Sema<'_> {
    pub(super) fn name(&self, s: Sym) -> &str {
        self.int.get(s)
    }
    pub(super) fn lookup(&self, s: Sym) -> Option<&Name> {
        self.scopes.iter().rev().find_map(|sc| sc.names.get(&s))
    }
    pub(crate) fn type_name(&self, t: &Type) -> String {
        self.records.name(t)
    }
    pub(super) fn declare(&mut self, s: Sym, n: Name, loc: Loc) -> Result<()> {
        let scope = self.scopes.last_mut().expect("scope");
        if let Some(old) = scope.names.get(&s) {
            let redeclarable =
                matches!((old, &n), (Name::Typedef(a), Name::Typedef(b)) if a.ty == b.ty);
            if !redeclarable {
                return err(loc, format!("redefinition of '{}'", self.int.get(s)));
            }
        }
        self.scopes.last_mut().expect("scope").names.insert(s, n);
        Ok(())
    }

    // ---- types ---------------------------------------------------------

    pub(crate) fn resolve(&mut self, t: &SynType) -> Result<QualType> {
        match t {
            SynType::Base {
                base,
                konst,
                volatile,
                space,
                loc,
            } => {
                let mut q = match base {
                    BaseType::Builtin(ty) => QualType {
                        ty: ty.clone(),
                        konst: false,
                        volatile: false,
                        space: None,
                        restrict: false,
                    },
                    BaseType::Typedef(s) => match self.lookup(*s) {
                        Some(Name::Typedef(q)) => q.clone(),
                        _ => return err(*loc, format!("unknown type name '{}'", self.name(*s))),
                    },
                    BaseType::Record {
                        is_union,
                        tag,
                        fields,
                        align,
                        packed,
                    } => {
                        let id = self.record(*is_union, *tag, fields.as_deref(), *packed, *loc)?;
                        if let Some(a) = align {
                            self.align_record(id, a)?;
                        }
                        QualType {
                            ty: Type::Record(id),
                            konst: false,
                            volatile: false,
                            space: None,
                            restrict: false,
                        }
                    }
                    BaseType::Enum { tag: _, items } => {
                        if let Some(items) = items {
                            let mut next = 0i64;
                            for (name, value, iloc) in items {
                                if let Some(v) = value {
                                    let e = self.rvalue(v)?;
                                    next =
                                        expr::const_int(&e).ok_or_else(|| super::diag::Error {
                                            loc: v.loc,
                                            msg: "expression is not an integer constant expression"
                                                .into(),
                                        })? as i64;
                                }
                                self.declare(*name, Name::EnumConst(next), *iloc)?;
                                next = next.wrapping_add(1);
                            }
                        }
                        QualType {
                            ty: Type::INT,
                            konst: false,
                            volatile: false,
                            space: None,
                            restrict: false,
                        }
                    }
                };
                q.konst |= *konst;
                q.volatile |= *volatile;
                if let Some(sp) = space {
                    if q.space.is_some_and(|o| o != *sp) {
                        return err(*loc, "multiple address spaces specified for type");
                    }
                    q.space = Some(*sp);
                }
                Ok(q)
            }
            SynType::Pointer {
                pointee,
                konst,
                volatile,
                restrict,
                loc,
            } => {
                let p = self.resolve(pointee)?;
                if let Type::Array(..) = p.ty {
                    // Pointers to arrays work in C but nothing in OpenCL kernels needs them.
                    return err(*loc, "pointers to arrays are not supported");
                }
                let space = p.space.unwrap_or(AddrSpace::Generic);
                Ok(QualType {
                    ty: Type::Pointer(Box::new(super::types::Pointee {
                        ty: p.ty,
                        space,
                        konst: p.konst || space == AddrSpace::Constant,
                        volatile: p.volatile,
                    })),
                    konst: *konst,
                    volatile: *volatile,
                    restrict: *restrict,
                    space: None,
                })
            }
            SynType::Array { elem, len, loc } => {
                let e = self.resolve(elem)?;
                if e.ty == Type::Void {
                    return err(*loc, "array has incomplete element type 'void'");
                }
                if let Type::Record(r) = e.ty {
                    if !self.records.get(r).complete {
                        return err(
                            *loc,
                            format!(
                                "array has incomplete element type '{}'",
                                self.type_name(&e.ty)
                            ),
                        );
                    }
                }
                let n = match len {
                    None => 0,
                    Some(l) => {
                        let v = self.rvalue(l)?;
                        if !v.ty.is_integer() || v.ty.is_vector() {
                            return err(
                                l.loc,
                                format!(
                                    "size of array has non-integer type '{}'",
                                    self.type_name(&v.ty)
                                ),
                            );
                        }
                        let consts = self.f.as_ref().map_or(&[][..], |f| &f.const_ints[..]);
                        let folded = expr::const_int_with(&v, &|id| {
                            consts.iter().find(|(v, _)| *v == id).map(|&(_, k)| k)
                        });
                        let Some(n) = folded else {
                            return err(
                                l.loc,
                                "variable length arrays are not supported in OpenCL",
                            );
                        };
                        if n <= 0 {
                            return err(
                                l.loc,
                                if n == 0 {
                                    "zero-length arrays are not supported".to_string()
                                } else {
                                    "array size is negative".to_string()
                                },
                            );
                        }
                        if n > (1 << 28) {
                            return err(l.loc, "array is too large");
                        }
                        n as u32
                    }
                };
                Ok(QualType {
                    ty: Type::Array(Box::new(e.ty), n),
                    ..e
                })
            }
            SynType::Function { loc, .. } => err(
                *loc,
                "function types are only allowed in function declarations",
            ),
        }
    }

    pub(super) fn record(
        &mut self,
        is_union: bool,
        tag: Option<Sym>,
        fields: Option<&[ast::FieldDecl]>,
        packed: bool,
        loc: Loc,
    ) -> Result<RecordId> {
        let kw = if is_union { "union" } else { "struct" };
        let existing = tag.and_then(|t| {
            let in_current = self
                .scopes
                .last()
                .expect("scope")
                .tags
                .get(&t)
                .copied()
                .flatten();
            if fields.is_some() {
                in_current
            } else {
                self.scopes
                    .iter()
                    .rev()
                    .find_map(|sc| sc.tags.get(&t).copied().flatten())
            }
        });
        let id = match existing {
            Some(id) => {
                if self.records.get(id).is_union != is_union {
                    return err(
                        loc,
                        format!(
                            "use of '{}' with tag type that does not match previous declaration",
                            self.name(tag.expect("tagged"))
                        ),
                    );
                }
                id
            }
            None => {
                let name = tag.map(|t| self.name(t).to_string()).unwrap_or_default();
                self.records.list.push(Record {
                    name,
                    is_union,
                    fields: Vec::new(),
                    size: 0,
                    align: 1,
                    complete: false,
                    tagged: tag.is_some(),
                });
                let id = RecordId(self.records.list.len() as u32 - 1);
                if let Some(t) = tag {
                    self.scopes
                        .last_mut()
                        .expect("scope")
                        .tags
                        .insert(t, Some(id));
                }
                id
            }
        };
        let Some(fields) = fields else { return Ok(id) };
        if self.records.get(id).complete {
            return err(
                loc,
                format!("redefinition of '{kw} {}'", self.records.get(id).name),
            );
        }
        let mut members = Vec::new();
        let mut names = HashSet::new();
        for f in fields {
            let q = self.resolve(&f.ty)?;
            if q.space
                .is_some_and(|s| s != AddrSpace::Private && s != AddrSpace::Generic)
            {
                return err(f.loc, "field may not be qualified with an address space");
            }
            match &q.ty {
                Type::Void => return err(f.loc, "field has incomplete type 'void'"),
                Type::Record(r) if !self.records.get(*r).complete => {
                    return err(
                        f.loc,
                        format!("field has incomplete type '{}'", self.type_name(&q.ty)),
                    )
                }
                Type::Array(_, 0) => return err(f.loc, "flexible array members are not supported"),
                _ => {}
            }
            // An anonymous member has no name ("", never found by a
            // name); its own members are found through it (`member`).
            let n = f.name.map(|s| self.name(s).to_string()).unwrap_or_default();
            if !n.is_empty() && !names.insert(n.clone()) {
                return err(f.loc, format!("duplicate member '{n}'"));
            }
            members.push((n, q.ty));
        }
        let (fields, size, align) = self.records.layout(is_union, members, packed);
        let r = &mut self.records.list[id.0 as usize];
        r.fields = fields;
        r.size = size;
        r.align = align;
        r.complete = true;
        Ok(id)
    }

    /// `__attribute__((aligned(N)))` on a record's definition: its
    /// alignment becomes at least N (a power of two), its size a multiple
    /// of that, as clang lays it out.
    fn align_record(&mut self, id: RecordId, a: &ast::Expr) -> Result<()> {
        let e = self.rvalue(a)?;
        let n = match convert::const_int(&e) {
            Some(n) if n > 0 && n <= 1 << 16 && (n & (n - 1)) == 0 => n as u32,
            Some(_) => return err(a.loc, "requested alignment is not a power of 2"),
            None => return err(a.loc, "'aligned' attribute requires an integer constant"),
        };
        let r = &mut self.records.list[id.0 as usize];
        r.align = r.align.max(n);
        r.size = r.size.div_ceil(r.align) * r.align;
        Ok(())
    }

    /// Names an anonymous record after its typedef (for messages and metadata).
    pub(super) fn name_anonymous(&mut self, ty: &Type, name: Sym) {
        if let Type::Record(r) = ty {
            let rec = &mut self.records.list[r.0 as usize];
            if rec.name.is_empty() {
                rec.name = self.int.get(name).to_string();
            }
        }
    }

    // ---- file scope ----------------------------------------------------

    pub(super) fn file_scope_decl(
        &mut self,
        decls: &[ast::VarDeclAst],
        base: Option<&SynType>,
    ) -> Result<()> {
        if decls.is_empty() {
            if let Some(b) = base {
                self.resolve(b)?;
            }
            return Ok(());
        }
        for d in decls {
            if let SynType::Function { .. } = d.ty {
                if d.is_typedef {
                    return err(d.loc, "function typedefs are not supported");
                }
                self.prototype(d.name, &d.ty, d.loc)?;
                continue;
            }
            let q = self.resolve(&d.ty)?;
            if d.is_typedef {
                self.name_anonymous(&q.ty, d.name);
                self.declare(d.name, Name::Typedef(q), d.loc)?;
                continue;
            }
            let space = q.space.unwrap_or(AddrSpace::Global);
            match space {
                AddrSpace::Constant | AddrSpace::Global => {}
                _ => {
                    return err(
                        d.loc,
                        "program scope variable must reside in global or constant address space",
                    );
                }
            }
            if space == AddrSpace::Constant && d.init.is_none() && !d.is_extern {
                return err(
                    d.loc,
                    "variable in constant address space must be initialized",
                );
            }
            let mut ty = q.ty.clone();
            let init = match &d.init {
                Some(i) => Some(self.initializer(i, &mut ty)?),
                None => None,
            };
            self.check_object_type(&ty, d.loc)?;
            let id = GlobalId(self.globals.len() as u32);
            self.globals.push(Global {
                name: self.name(d.name).to_string(),
                ty,
                space,
                konst: q.konst || space == AddrSpace::Constant,
                init,
                loc: d.loc,
            });
            self.declare(d.name, Name::Global(id), d.loc)?;
        }
        Ok(())
    }

    pub(super) fn check_object_type(&self, ty: &Type, loc: Loc) -> Result<()> {
        match ty {
            Type::Void => err(loc, "variable has incomplete type 'void'"),
            Type::Array(_, 0) => err(
                loc,
                "definition of variable with array type needs an explicit size or an initializer",
            ),
            Type::Record(r) if !self.records.get(*r).complete => err(
                loc,
                format!("variable has incomplete type '{}'", self.type_name(ty)),
            ),
            _ => Ok(()),
        }
    }

    /// Resolves a function type: return type and parameter (name, type, quals, loc).
    #[allow(clippy::type_complexity)]
    pub(super) fn fn_type(
        &mut self,
        ty: &SynType,
    ) -> Result<(Type, Vec<(Option<Sym>, QualType, Loc, String, Option<Sym>)>)> {
        let SynType::Function { ret, params, .. } = ty else {
            unreachable!("caller checks")
        };
        let r = self.resolve(ret)?;
        if matches!(r.ty, Type::Array(..)) {
            return err(ty_loc(ret), "function cannot return array type");
        }
        let mut ps = Vec::new();
        for p in params {
            let mut q = self.resolve(&p.ty)?;
            if q.ty == Type::Void {
                return err(p.loc, "parameter has incomplete type 'void'");
            }
            if let Type::Array(e, _) = &q.ty {
                // Array parameters are pointers (C); the qualifiers move to the pointee.
                let space = q.space.take().unwrap_or(AddrSpace::Generic);
                q.ty = Type::Pointer(Box::new(super::types::Pointee {
                    ty: (**e).clone(),
                    space,
                    konst: q.konst,
                    volatile: q.volatile,
                }));
                q.konst = false;
            }
            ps.push((p.name, q, p.loc, self.metadata_type_name(&p.ty), p.access));
        }
        Ok((r.ty, ps))
    }

    pub(super) fn prototype(&mut self, name: Sym, ty: &SynType, loc: Loc) -> Result<FuncId> {
        let (ret, params) = self.fn_type(ty)?;
        let vars: Vec<Var> = params
            .iter()
            .map(|(n, q, l, _, _)| Var {
                name: n.map(|n| self.name(n).to_string()).unwrap_or_default(),
                ty: q.ty.clone(),
                space: AddrSpace::Private,
                konst: q.konst,
                volatile: q.volatile,
                is_param: true,
                address_taken: false,
                loc: *l,
            })
            .collect();
        if let Some(Name::Func(id)) = self.scopes[0].names.get(&name).cloned() {
            let f = &self.functions[id.0 as usize];
            let same = f.ret == ret
                && f.params == vars.len()
                && f.vars[..f.params]
                    .iter()
                    .zip(&vars)
                    .all(|(a, b)| a.ty == b.ty);
            if !same {
                return err(loc, format!("conflicting types for '{}'", self.name(name)));
            }
            return Ok(id);
        }
        let id = FuncId(self.functions.len() as u32);
        self.functions.push(Function {
            name: self.name(name).to_string(),
            ret,
            params: vars.len(),
            vars,
            body: None,
            kernel: None,
            fp_contract: true,
            calls: Vec::new(),
            loc,
        });
        if self.lookup(name).is_some() && self.scopes.len() == 1 {
            return err(
                loc,
                format!(
                    "redefinition of '{}' as a different kind of symbol",
                    self.name(name)
                ),
            );
        }
        self.scopes[0].names.insert(name, Name::Func(id));
        Ok(id)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn function(
        &mut self,
        name: Sym,
        ty: &SynType,
        is_kernel: bool,
        attrs: &ast::FnAttrs,
        body: &[ast::Stmt],
        fp_contract: bool,
        loc: Loc,
    ) -> Result<()> {
        self.fp16 = attrs.fp16;
        let id = self.prototype(name, ty, loc)?;
        if self.functions[id.0 as usize].body.is_some() {
            return err(loc, format!("redefinition of '{}'", self.name(name)));
        }
        let (ret, params) = self.fn_type(ty)?;
        if is_kernel && ret != Type::Void {
            return err(loc, "kernel must have void return type");
        }
        let mut ctx = FnCtx {
            vars: Vec::new(),
            ret: ret.clone(),
            is_kernel,
            loops: 0,
            switches: Vec::new(),
            block_depth: 0,
            calls: Vec::new(),
            local_vars: Vec::new(),
            next_case: 0,
            const_ints: Vec::new(),
        };
        let mut args = Vec::new();
        self.scopes.push(Scope::default());
        for (pname, q, ploc, tname, access) in &params {
            let Some(pname) = pname else {
                return err(*ploc, "parameter name omitted");
            };
            if let Some(sp) = q.space {
                if sp != AddrSpace::Private {
                    return err(
                        *ploc,
                        format!(
                            "parameter may not be qualified with an address space ('{}')",
                            sp.name()
                        ),
                    );
                }
            }
            if is_kernel {
                args.push(self.kernel_arg(
                    self.name(*pname),
                    q,
                    *ploc,
                    tname.clone(),
                    access.map(|a| self.name(a).trim_start_matches("__").to_string()),
                )?);
            }
            let vid = VarId(ctx.vars.len() as u32);
            ctx.vars.push(Var {
                name: self.name(*pname).to_string(),
                ty: q.ty.clone(),
                space: AddrSpace::Private,
                konst: q.konst,
                volatile: q.volatile,
                is_param: true,
                address_taken: false,
                loc: *ploc,
            });
            self.declare(*pname, Name::Var(vid), *ploc)?;
        }
        self.f = Some(ctx);
        let mut out = Vec::new();
        let r = self.block_items(body, &mut out);
        self.scopes.pop();
        let ctx = self.f.take().expect("function context");
        r?;
        let f = &mut self.functions[id.0 as usize];
        f.vars = ctx.vars;
        f.body = Some(out);
        f.fp_contract = fp_contract;
        f.calls = ctx.calls;
        f.loc = loc;
        if is_kernel {
            f.kernel = Some(KernelInfo {
                args,
                reqd_work_group_size: attrs.reqd_work_group_size,
                work_group_size_hint: attrs.work_group_size_hint,
                vec_type_hint: attrs.vec_type_hint.clone(),
                local_vars: ctx.local_vars,
            });
        } else if attrs.reqd_work_group_size.is_some() {
            return err(
                loc,
                "'reqd_work_group_size' attribute only applies to kernel functions",
            );
        }
        Ok(())
    }

    pub(super) fn kernel_arg(
        &self,
        name: &str,
        q: &QualType,
        loc: Loc,
        type_name: String,
        access: Option<String>,
    ) -> Result<KernelArg> {
        let ty = &q.ty;
        let mut a = KernelArg {
            name: name.to_string(),
            type_name,
            ty: ty.clone(),
            size: self.records.size_of(ty),
            align: self.records.align_of(ty),
            value_kind: ValueKind::ByValue,
            address_space: None,
            pointee_align: None,
            access,
            is_const: false,
            is_volatile: false,
            is_restrict: q.restrict,
        };
        match ty {
            Type::Pointer(p) => {
                match p.space {
                    AddrSpace::Global | AddrSpace::Constant => {
                        a.value_kind = ValueKind::GlobalBuffer
                    }
                    AddrSpace::Local => {
                        a.value_kind = ValueKind::DynamicSharedPointer;
                        a.pointee_align = Some(self.records.align_of(&p.ty));
                    }
                    s => {
                        let what = if s == AddrSpace::Generic {
                            "the generic address space (add __global, __constant or __local)"
                        } else {
                            "the __private address space"
                        };
                        return err(
                            loc,
                            format!("kernel parameter cannot be declared as a pointer to {what}"),
                        );
                    }
                }
                if p.ty.is_pointer() {
                    return err(
                        loc,
                        "kernel parameter cannot be declared as a pointer to a pointer",
                    );
                }
                a.size = 8;
                a.align = 8;
                if p.space == AddrSpace::Local {
                    a.size = 4;
                    a.align = 4;
                }
                a.address_space = Some(p.space);
                a.is_const = p.konst || p.space == AddrSpace::Constant;
                a.is_volatile = p.volatile;
            }
            Type::Scalar(Scalar::Bool) | Type::Vector(Scalar::Bool, _) => {
                return err(
                    loc,
                    format!(
                        "'{}' cannot be used as the type of a kernel parameter",
                        self.type_name(ty)
                    ),
                )
            }
            Type::Scalar(Scalar::Half) | Type::Vector(Scalar::Half, _) if !self.fp16 => return err(
                loc,
                "declaring function parameter of type 'half' is not allowed; did you forget * ?",
            ),
            Type::Atomic(_) => return err(loc, "atomic types cannot be kernel parameters"),
            _ => {}
        }
        if a.type_name == "size_t"
            || a.type_name == "ptrdiff_t"
            || a.type_name == "intptr_t"
            || a.type_name == "uintptr_t"
        {
            return err(
                loc,
                format!(
                    "'{}' cannot be used as the type of a kernel parameter",
                    a.type_name
                ),
            );
        }
        Ok(a)
    }

    /// Every called function has a body, and no function reaches itself.
    pub(super) fn check_calls(&self) -> Result<()> {
        for f in &self.functions {
            for (callee, loc) in &f.calls {
                if self.functions[callee.0 as usize].body.is_none() {
                    return err(
                        *loc,
                        format!(
                            "function '{}' is declared but never defined",
                            self.functions[callee.0 as usize].name
                        ),
                    );
                }
            }
        }
        // Iterative DFS with colours: 0 new, 1 on the stack, 2 done.
        let n = self.functions.len();
        let mut colour = vec![0u8; n];
        for start in 0..n {
            if colour[start] != 0 {
                continue;
            }
            let mut stack = vec![(start, 0usize)];
            colour[start] = 1;
            while let Some((node, edge)) = stack.pop() {
                let calls = &self.functions[node].calls;
                if edge < calls.len() {
                    stack.push((node, edge + 1));
                    let (c, loc) = calls[edge];
                    match colour[c.0 as usize] {
                        0 => {
                            colour[c.0 as usize] = 1;
                            stack.push((c.0 as usize, 0));
                        }
                        1 => {
                            return err(
                                loc,
                                format!(
                                    "recursion is not supported: gpusim inlines every call into the kernel (call to '{}')",
                                    self.functions[c.0 as usize].name
                                ),
                            )
                        }
                        _ => {}
                    }
                } else {
                    colour[node] = 2;
                }
            }
        }
        Ok(())
    }
}

fn ty_loc(t: &SynType) -> Loc {
    match t {
        SynType::Base { loc, .. }
        | SynType::Pointer { loc, .. }
        | SynType::Array { loc, .. }
        | SynType::Function { loc, .. } => *loc,
    }
}

impl Sema<'_> {
    /// The `.type_name` metadata spelling of a parameter type, as clang
    /// writes it: as written, without qualifiers or address spaces,
    /// pointers as `T*`; a typedef that itself carries a qualifier or an
    /// address space (`typedef __global S gw_queue;`) is replaced by the
    /// type it names, because dropping the qualifier desugars it.
    fn metadata_type_name(&self, t: &SynType) -> String {
        match t {
            SynType::Base { base, .. } => match base {
                BaseType::Builtin(ty) => self.records.name(ty),
                BaseType::Typedef(s) => match self.lookup(*s) {
                    Some(Name::Typedef(q)) if q.space.is_some() || q.konst || q.volatile => {
                        self.plain_type_name(&q.ty)
                    }
                    _ => self.name(*s).to_string(),
                },
                BaseType::Record { is_union, tag, .. } => {
                    format!(
                        "{} {}",
                        if *is_union { "union" } else { "struct" },
                        tag.map(|t| self.name(t)).unwrap_or("(anonymous)")
                    )
                }
                BaseType::Enum { tag, .. } => format!(
                    "enum {}",
                    tag.map(|t| self.name(t)).unwrap_or("(anonymous)")
                ),
            },
            SynType::Pointer { pointee, .. } | SynType::Array { elem: pointee, .. } => {
                format!("{}*", self.metadata_type_name(pointee))
            }
            SynType::Function { .. } => "function".into(),
        }
    }

    /// A resolved type's metadata spelling (records by tag or typedef name).
    fn plain_type_name(&self, ty: &Type) -> String {
        match ty {
            Type::Record(r) => {
                let rec = self.records.get(*r);
                match (rec.tagged, rec.is_union) {
                    (true, false) => format!("struct {}", rec.name),
                    (true, true) => format!("union {}", rec.name),
                    _ => rec.name.clone(),
                }
            }
            Type::Pointer(p) => format!("{}*", self.plain_type_name(&p.ty)),
            t => self.records.name(t),
        }
    }
}
