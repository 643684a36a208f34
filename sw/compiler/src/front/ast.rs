//! The parser's output: an untyped syntax tree (boxed, a [`Loc`] on every
//! node). Names are still symbols and types are still as written; the
//! semantic pass ([`super::sema`]) turns this into the typed AST.

use super::diag::Loc;
use super::lexer::Sym;
use super::types::{AddrSpace, Type};

/// Unary operators (prefix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum UnaryOp {
    Plus,
    Neg,
    BitNot,
    LogNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

/// Binary operators (arithmetic, bitwise, shifts, comparisons, logical).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogAnd,
    LogOr,
}

impl BinaryOp {
    /// The operator's spelling.
    pub fn text(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Rem => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            BitAnd => "&",
            BitXor => "^",
            BitOr => "|",
            LogAnd => "&&",
            LogOr => "||",
        }
    }
    /// True for `< > <= >= == !=`.
    pub fn is_comparison(self) -> bool {
        use BinaryOp::*;
        matches!(self, Lt | Gt | Le | Ge | Eq | Ne)
    }
}

/// A type as written: base specifiers with qualifiers, then declarator parts.
#[derive(Clone, Debug)]
pub enum SynType {
    /// Specifiers: the base type and its qualifiers.
    Base {
        /// The base type.
        base: BaseType,
        /// `const`.
        konst: bool,
        /// `volatile`.
        volatile: bool,
        /// `__global` etc. when written.
        space: Option<AddrSpace>,
        /// Where the specifiers start.
        loc: Loc,
    },
    /// `T *` with the pointer's own qualifiers.
    Pointer {
        /// What it points to.
        pointee: Box<SynType>,
        /// `* const`.
        konst: bool,
        /// `* volatile`.
        volatile: bool,
        /// `* restrict`.
        restrict: bool,
        /// The `*`.
        loc: Loc,
    },
    /// `T [N]` (N absent: `[]`).
    Array {
        /// Element type.
        elem: Box<SynType>,
        /// The length expression.
        len: Option<Box<Expr>>,
        /// The `[`.
        loc: Loc,
    },
    /// `T (params)`.
    Function {
        /// Return type.
        ret: Box<SynType>,
        /// Parameters (name, type, location).
        params: Vec<ParamDecl>,
        /// `(void)` or `()`: no parameters.
        loc: Loc,
    },
}

/// A base type specifier.
#[derive(Clone, Debug)]
pub enum BaseType {
    /// A built-in type (`uint`, `float4`, `atomic_int`, `bool2`...).
    Builtin(Type),
    /// A typedef name.
    Typedef(Sym),
    /// `struct`/`union` with an optional tag and an optional member list.
    Record {
        /// `union` rather than `struct`.
        is_union: bool,
        /// The tag.
        tag: Option<Sym>,
        /// Members, when this is a definition.
        fields: Option<Vec<FieldDecl>>,
        /// `__attribute__((aligned(N)))` on the definition: N, a constant
        /// expression.
        align: Option<Box<Expr>>,
        /// `__attribute__((packed))` on the definition: members without
        /// padding, alignment 1 (before any `aligned`).
        packed: bool,
    },
    /// `enum` with an optional tag and enumerators (value expressions optional).
    Enum {
        /// The tag.
        tag: Option<Sym>,
        /// Enumerators, when this is a definition.
        items: Option<Vec<(Sym, Option<Expr>, Loc)>>,
    },
}

/// A struct/union member.
#[derive(Clone, Debug)]
pub struct FieldDecl {
    /// Member name; None for an anonymous struct or union member (C11).
    pub name: Option<Sym>,
    /// Member type.
    pub ty: SynType,
    /// Where the name is.
    pub loc: Loc,
}

/// A function parameter.
#[derive(Clone, Debug)]
pub struct ParamDecl {
    /// Name (None in a prototype without names).
    pub name: Option<Sym>,
    /// Type as written.
    pub ty: SynType,
    /// `read_only` / `write_only` / `read_write` when written.
    pub access: Option<Sym>,
    /// Where the parameter is.
    pub loc: Loc,
}

/// An expression.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where its operator (or first token) is.
    pub loc: Loc,
}

/// Expression kinds.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// Identifier.
    Ident(Sym),
    /// Integer or floating pp-number (checked by sema).
    Number(Sym),
    /// Character literal.
    Char(Sym),
    /// String literal(s), concatenated, quotes included.
    Str(Vec<Sym>),
    /// Prefix/postfix unary operator.
    Unary(UnaryOp, Box<Expr>),
    /// Binary operator.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `a = b` (op None) or `a op= b`.
    Assign(Option<BinaryOp>, Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `f(args)`.
    Call(Box<Expr>, Vec<Expr>),
    /// `a[i]`.
    Index(Box<Expr>, Box<Expr>),
    /// `a.m` (arrow false) or `a->m` (arrow true); `.` also spells swizzles.
    Member(Box<Expr>, Sym, bool),
    /// `(T)e`.
    Cast(Box<SynType>, Box<Expr>),
    /// `(T)(a, b, ...)` with a vector T and two or more elements.
    VectorLiteral(Box<SynType>, Vec<Expr>),
    /// `sizeof(T)`.
    SizeofType(Box<SynType>),
    /// `sizeof e`.
    SizeofExpr(Box<Expr>),
    /// `__alignof__(T)` / `_Alignof(T)`.
    AlignofType(Box<SynType>),
    /// `vec_step(T)` or `vec_step(e)` as a type.
    VecStepType(Box<SynType>),
    /// `a, b`.
    Comma(Box<Expr>, Box<Expr>),
    /// `{ ... }` initializer list (only in initializers).
    InitList(Vec<Expr>),
}

/// A declared name with its type and initializer.
#[derive(Clone, Debug)]
pub struct VarDeclAst {
    /// Name.
    pub name: Sym,
    /// Type as written.
    pub ty: SynType,
    /// Initializer (an [`ExprKind::InitList`] for braces).
    pub init: Option<Expr>,
    /// `static`.
    pub is_static: bool,
    /// `typedef`.
    pub is_typedef: bool,
    /// `extern`.
    pub is_extern: bool,
    /// Where the name is.
    pub loc: Loc,
}

/// A statement.
#[derive(Clone, Debug)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Where it starts.
    pub loc: Loc,
}

/// Statement kinds.
#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `e;`
    Expr(Expr),
    /// Declarations (`int a = 1, b;`), typedefs and tag declarations
    /// (the latter two have no variable: `Decl(vec![])` plus the record in the type).
    Decl(Vec<VarDeclAst>, Option<SynType>),
    /// `{ ... }`
    Block(Vec<Stmt>),
    /// `if (c) a else b`
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    /// `while (c) body` with its `#pragma unroll`.
    While(Expr, Box<Stmt>, Option<Option<u32>>),
    /// `do body while (c);`
    DoWhile(Box<Stmt>, Expr, Option<Option<u32>>),
    /// `for (init; cond; step) body`
    For(
        Option<Box<Stmt>>,
        Option<Expr>,
        Option<Expr>,
        Box<Stmt>,
        Option<Option<u32>>,
    ),
    /// `switch (c) body`
    Switch(Expr, Box<Stmt>),
    /// `case e:` (followed by its statement in the enclosing list).
    Case(Expr),
    /// `default:`
    Default,
    /// `break;`
    Break,
    /// `continue;`
    Continue,
    /// `return e?;`
    Return(Option<Expr>),
    /// `;`
    Empty,
}

/// Kernel and function attributes the front end keeps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FnAttrs {
    /// `reqd_work_group_size(x, y, z)`.
    pub reqd_work_group_size: Option<[u32; 3]>,
    /// `work_group_size_hint(x, y, z)`.
    pub work_group_size_hint: Option<[u32; 3]>,
    /// `vec_type_hint(T)`: `T` as OpenCL C spells it (`uchar2`).
    pub vec_type_hint: Option<String>,
    /// `#pragma OPENCL EXTENSION cl_khr_fp16 : enable` was in effect at
    /// the definition (clang then allows `half` parameters).
    pub fp16: bool,
}

/// A top-level item.
#[derive(Clone, Debug)]
pub enum Item {
    /// A function definition.
    Function {
        /// Name.
        name: Sym,
        /// Its function type (a [`SynType::Function`]).
        ty: SynType,
        /// `__kernel` / `kernel`.
        is_kernel: bool,
        /// Attributes.
        attrs: FnAttrs,
        /// The body.
        body: Vec<Stmt>,
        /// FP_CONTRACT state at the definition.
        fp_contract: bool,
        /// Where the name is.
        loc: Loc,
    },
    /// Declarations at file scope (variables, prototypes, typedefs, tags).
    Decl(Vec<VarDeclAst>, Option<SynType>),
}
