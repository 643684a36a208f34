//! The typed AST: the front end's output and the interface the AST→IR
//! lowering consumes. See the module documentation of [`super`] for the
//! invariants every node satisfies.

use super::ast::BinaryOp;
use super::diag::Loc;
use super::types::{AddrSpace, Records, Type};

/// Index of a function in [`TranslationUnit::functions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FuncId(pub u32);
/// Index of a variable in its function's [`Function::vars`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VarId(pub u32);
/// Index of a program-scope variable in [`TranslationUnit::globals`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GlobalId(pub u32);
/// A `case`/`default` label inside a [`Stmt::Switch`] body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CaseId(pub u32);

/// A whole program after semantic analysis.
#[derive(Clone, Debug, Default)]
pub struct TranslationUnit {
    /// Struct/union layouts ([`Type::Record`] indexes them).
    pub records: Records,
    /// Every function with a body or a prototype, in source order.
    pub functions: Vec<Function>,
    /// Program-scope variables (`__constant`, `__global`).
    pub globals: Vec<Global>,
    /// `amdhsa.printf` entries of the `printf` calls, the call with
    /// `Builtin::Printf(id)` at index `id - 1`.
    pub printf: Vec<String>,
}

impl TranslationUnit {
    /// The kernels, in source order.
    pub fn kernels(&self) -> impl Iterator<Item = (FuncId, &Function)> {
        self.functions
            .iter()
            .enumerate()
            .filter(|(_, f)| f.kernel.is_some())
            .map(|(i, f)| (FuncId(i as u32), f))
    }
    /// The function named `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }
}

/// A function (kernel or helper).
#[derive(Clone, Debug)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// Return type (`void` for kernels).
    pub ret: Type,
    /// Parameters: the first `params` entries of `vars`.
    pub params: usize,
    /// Parameters, then locals in declaration order (inner scopes included;
    /// names may repeat, ids do not).
    pub vars: Vec<Var>,
    /// The body (None: only a prototype; never called, or sema reports it).
    pub body: Option<Vec<Stmt>>,
    /// Kernel facts, for `__kernel` functions.
    pub kernel: Option<KernelInfo>,
    /// `#pragma OPENCL FP_CONTRACT` state at the definition (default ON:
    /// `a * b + c` may become one fma).
    pub fp_contract: bool,
    /// Functions this one calls (with the call's location), for call-graph walks.
    pub calls: Vec<(FuncId, Loc)>,
    /// Where the name is.
    pub loc: Loc,
}

/// A parameter or local variable.
#[derive(Clone, Debug)]
pub struct Var {
    /// Name as written.
    pub name: String,
    /// Type (parameters: arrays already adjusted to pointers).
    pub ty: Type,
    /// Where it lives: `Private` for parameters and ordinary locals, `Local`
    /// for a kernel's `__local` variables.
    pub space: AddrSpace,
    /// `const` variable.
    pub konst: bool,
    /// `volatile` variable.
    pub volatile: bool,
    /// A parameter.
    pub is_param: bool,
    /// Its address is taken somewhere (`&v`, or an array that decays):
    /// it needs memory, not just a register.
    pub address_taken: bool,
    /// Where it is declared.
    pub loc: Loc,
}

/// A program-scope variable.
#[derive(Clone, Debug)]
pub struct Global {
    /// Name.
    pub name: String,
    /// Type.
    pub ty: Type,
    /// `Constant` or `Global`.
    pub space: AddrSpace,
    /// `const`-qualified (always true for `__constant`).
    pub konst: bool,
    /// Initializer (None: zero).
    pub init: Option<Init>,
    /// Where it is declared.
    pub loc: Loc,
}

/// What the code-object metadata needs about a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelInfo {
    /// One entry per parameter, in order.
    pub args: Vec<KernelArg>,
    /// `__attribute__((reqd_work_group_size(x, y, z)))`.
    pub reqd_work_group_size: Option<[u32; 3]>,
    /// `__attribute__((work_group_size_hint(x, y, z)))`.
    pub work_group_size_hint: Option<[u32; 3]>,
    /// `__attribute__((vec_type_hint(T)))`: `T` as OpenCL C spells it.
    pub vec_type_hint: Option<String>,
    /// The kernel's own `__local` variables (static LDS allocation).
    pub local_vars: Vec<VarId>,
}

/// `.value_kind` of a kernel argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// A `__global` or `__constant` pointer.
    GlobalBuffer,
    /// A `__local` pointer (the host gives a size; the driver allocates LDS).
    DynamicSharedPointer,
    /// A scalar, vector or struct passed by value.
    ByValue,
}

/// One kernel argument's metadata.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelArg {
    /// Parameter name.
    pub name: String,
    /// `.type_name`: the type as written without address space, pointers
    /// as `T*` (`float4*`, `uint`, `gw_queue*`).
    pub type_name: String,
    /// The parameter's type.
    pub ty: Type,
    /// Bytes in the kernarg segment (4 for `__local` pointers).
    pub size: u32,
    /// Alignment in the kernarg segment.
    pub align: u32,
    /// Kind of argument.
    pub value_kind: ValueKind,
    /// Pointee address space for pointers.
    pub address_space: Option<AddrSpace>,
    /// Pointee alignment for `__local` pointers (`.pointee_align`).
    pub pointee_align: Option<u32>,
    /// Access qualifier as written (`read_only`...), for images (unused today).
    pub access: Option<String>,
    /// Pointee is `const` (or the pointer is `__constant`).
    pub is_const: bool,
    /// Pointee is `volatile`.
    pub is_volatile: bool,
    /// Pointer is `restrict`.
    pub is_restrict: bool,
}

/// Lvalue or rvalue, and for lvalues where the object lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueCat {
    /// A value.
    RValue,
    /// An object: its address space and qualifiers.
    LValue {
        /// Where the object is.
        space: AddrSpace,
        /// `const` object (or `__constant`).
        konst: bool,
        /// `volatile` object.
        volatile: bool,
    },
}

/// A typed expression.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What it computes.
    pub kind: ExprKind,
    /// Its type (never an array for rvalues: arrays decay explicitly).
    pub ty: Type,
    /// Lvalue or rvalue.
    pub cat: ValueCat,
    /// Where the operator (or first token) is.
    pub loc: Loc,
}

impl Expr {
    /// An lvalue.
    pub fn is_lvalue(&self) -> bool {
        matches!(self.cat, ValueCat::LValue { .. })
    }
}

/// Unary operators left after semantic analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-x` (integers wrap; floats flip the sign).
    Neg,
    /// `~x` (integers; `boolN`: component-wise not).
    BitNot,
    /// `!x`: scalar → `int` 0/1; vector → signed-int vector of -1/0.
    LogNot,
}

/// Conversions; the source type is the operand's, the target the node's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastKind {
    /// Integer (or bool) to integer, scalar or component-wise vector
    /// (truncate, sign- or zero-extend by the source's signedness).
    IntToInt,
    /// Integer to floating point (round to nearest even).
    IntToFloat,
    /// Floating point to integer (round toward zero; out of range is
    /// undefined in C — the back end picks the hardware's saturation).
    FloatToInt,
    /// Floating point to another precision.
    FloatToFloat,
    /// Scalar (arithmetic or pointer) to `bool`: `x != 0`.
    ToBool,
    /// `intN`/`floatN` → `boolN`: component-wise `!= 0` (the bool-vector extension).
    VecToBoolVec,
    /// `boolN` → integer vector: true → all ones (-1), false → 0, like a vector comparison.
    BoolVecToVec,
    /// Integer vector → `boolN` by each component's most significant bit:
    /// only for the condition of `?:` on an integer vector (OpenCL's `select` rule).
    MaskFromMsb,
    /// Scalar → vector: every component gets the value (the operand already
    /// has the element type).
    Splat,
    /// `as_T`: reinterpret the bits (same size).
    Bitcast,
    /// Pointer to pointer (same or different pointee; address space kept
    /// or changed to/from generic).
    PtrToPtr,
    /// Pointer to integer.
    PtrToInt,
    /// Integer to pointer (including the null pointer constant).
    IntToPtr,
    /// Array lvalue → pointer to its first element (same address space).
    ArrayToPointer,
    /// Discard the value (`(void)e`).
    ToVoid,
}

/// Typed expression kinds.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// Integer constant: the value's two's-complement bits, truncated to the type.
    IntConst(u64),
    /// Floating constant (already rounded to the type's precision).
    FloatConst(f64),
    /// A parameter or local (lvalue).
    Var(VarId),
    /// A program-scope variable (lvalue).
    Global(GlobalId),
    /// Unary operator; the operand has the node's type (LogNot: see [`UnaryOp`]).
    Unary(UnaryOp, Box<Expr>),
    /// Arithmetic, bitwise, shift or comparison on operands of one type
    /// (after the usual arithmetic conversions; for shifts the right
    /// operand has the left's type and is taken modulo the bit width, as
    /// OpenCL specifies). Comparisons return `int` for scalars and the
    /// signed-int vector of the operands' element size for vectors
    /// (true = -1). `LogAnd`/`LogOr` short-circuit; their operands are `bool`.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `ptr + index` in elements (index is `long`); the node's type is the pointer's.
    PtrOffset(Box<Expr>, Box<Expr>),
    /// `a - b` of two pointers to the same type: a `long` element count.
    PtrDiff(Box<Expr>, Box<Expr>),
    /// `lhs = rhs` (rhs already converted to lhs's type); value is the new lhs.
    Assign(Box<Expr>, Box<Expr>),
    /// `lhs op= rhs`: lhs is read, converted to `compute` (rhs already has that
    /// type), combined, converted back; for a pointer lhs `compute` is the
    /// pointer type and rhs is a `long` element count (`Add`/`Sub` only).
    CompoundAssign {
        /// The operator.
        op: BinaryOp,
        /// The object updated.
        lhs: Box<Expr>,
        /// The other operand.
        rhs: Box<Expr>,
        /// The type the operation is done in.
        compute: Type,
    },
    /// `++`/`--`, prefix (value after) or postfix (value before); pointers
    /// step one element, floats by 1.0.
    IncDec {
        /// `++` (else `--`).
        inc: bool,
        /// Prefix form.
        prefix: bool,
        /// The object updated.
        operand: Box<Expr>,
    },
    /// `cond ? then : els` — kept as its own node so the middle end can make
    /// it a `select` (seed 004). `cond` is `bool` (scalar; only the chosen arm
    /// is evaluated) or `boolN` (component-wise: both arms are evaluated and
    /// component i comes from `then` when `cond[i]`); `then` and `els` have
    /// the node's type.
    Cond {
        /// The condition or mask.
        cond: Box<Expr>,
        /// Chosen when true.
        then: Box<Expr>,
        /// Chosen when false.
        els: Box<Expr>,
    },
    /// A conversion (implicit ones included).
    Cast(CastKind, Box<Expr>),
    /// `&lvalue`: a pointer into the lvalue's address space.
    AddrOf(Box<Expr>),
    /// `*ptr` (also what `p[i]` and `p->m` become): an lvalue in the pointee's space.
    Deref(Box<Expr>),
    /// Struct/union member `field` (index into the record's fields) of an
    /// lvalue or rvalue record.
    Member(Box<Expr>, u32),
    /// Vector components `lanes` of a vector (`.xyzw`, `.s0..sF`, `.lo/.hi/
    /// .even/.odd`); one lane gives the element type. An lvalue when the
    /// base is and no lane repeats.
    Swizzle(Box<Expr>, Vec<u8>),
    /// `v[i]` with a run-time index `i` (an `int`): one component of a
    /// vector, chosen per lane. An lvalue when the vector is. An index out
    /// of range is undefined (OpenCL C 6.3.i leaves it so, as C does for
    /// arrays).
    VecIndex(Box<Expr>, Box<Expr>),
    /// `(T)(a, b, ...)`: elements are scalars or vectors of T's element
    /// type whose widths add up to T's width.
    VectorLiteral(Vec<Expr>),
    /// Call of a user function (arguments converted to the parameter types).
    Call(FuncId, Vec<Expr>),
    /// Call of a built-in: see [`Builtin`] for each one's operand list.
    Builtin(Builtin, Vec<Expr>),
    /// `a, b`.
    Comma(Box<Expr>, Box<Expr>),
}

/// An initializer.
#[derive(Clone, Debug)]
pub enum Init {
    /// One value, converted to the object's type.
    Expr(Expr),
    /// Braces: exactly one entry per array element / struct member (missing
    /// ones are [`Init::Zero`]; a union gets one entry, for its first member).
    List(Vec<Init>),
    /// Zero-fill.
    Zero,
}

/// A typed statement.
#[derive(Clone, Debug)]
pub enum Stmt {
    /// An expression evaluated for its effects.
    Expr(Expr),
    /// A local variable comes into scope (with its initializer).
    Decl(VarId, Option<Init>),
    /// `{ ... }`.
    Block(Vec<Stmt>),
    /// `if`: cond is `bool`.
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    /// `while`: cond is `bool`; `unroll` from `#pragma unroll` (Some(None): fully).
    While {
        /// Condition (`bool`).
        cond: Expr,
        /// Body.
        body: Box<Stmt>,
        /// `#pragma unroll` request.
        unroll: Option<Option<u32>>,
    },
    /// `do body while (cond);`.
    DoWhile {
        /// Body.
        body: Box<Stmt>,
        /// Condition (`bool`).
        cond: Expr,
        /// `#pragma unroll` request.
        unroll: Option<Option<u32>>,
    },
    /// `for (init; cond; step) body`; `init` declarations are scoped to the loop.
    For {
        /// Declarations or an expression statement.
        init: Vec<Stmt>,
        /// Condition (`bool`); None means true.
        cond: Option<Expr>,
        /// Step expression.
        step: Option<Expr>,
        /// Body.
        body: Box<Stmt>,
        /// `#pragma unroll` request.
        unroll: Option<Option<u32>>,
    },
    /// `switch`: `cond` is an integer (promoted); `cases` maps each value
    /// (converted to cond's type, bits as u64) to its label in `body`.
    Switch {
        /// The controlling value.
        cond: Expr,
        /// The body with [`Stmt::Case`] labels inside.
        body: Box<Stmt>,
        /// `case` values and their labels.
        cases: Vec<(u64, CaseId)>,
        /// The `default` label.
        default: Option<CaseId>,
    },
    /// A `case`/`default` label position.
    Case(CaseId),
    /// `break` (innermost loop or switch).
    Break,
    /// `continue` (innermost loop).
    Continue,
    /// `return`, the value converted to the return type.
    Return(Option<Expr>),
    /// `;`.
    Empty,
}

/// Read-modify-write atomic operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum AtomicOp {
    Add,
    Sub,
    Xchg,
    Min,
    Max,
    And,
    Or,
    Xor,
}

/// A resolved built-in. The operands of the [`ExprKind::Builtin`]
/// node are listed per variant; integer-constant operands (orders, scopes)
/// are `int` [`ExprKind::IntConst`] nodes. Memory orders use
/// clang's `__ATOMIC_*` numbering (0 relaxed, 2 acquire, 3 release, 4
/// acq_rel, 5 seq_cst); scopes use `__OPENCL_MEMORY_SCOPE_*` (0 work-item,
/// 1 work-group, 2 device, 3 all SVM devices, 4 sub-group).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `get_global_id(dim)`: `[dim: uint]` → `ulong` (size_t). Same shape for the next seven.
    GetGlobalId,
    /// `get_local_id(dim)`.
    GetLocalId,
    /// `get_group_id(dim)`.
    GetGroupId,
    /// `get_global_size(dim)`.
    GetGlobalSize,
    /// `get_local_size(dim)`.
    GetLocalSize,
    /// `get_num_groups(dim)`.
    GetNumGroups,
    /// `get_global_offset(dim)` (always 0 on gpusim's driver, but the call is kept).
    GetGlobalOffset,
    /// `get_enqueued_local_size(dim)`.
    GetEnqueuedLocalSize,
    /// `get_work_dim()`: `[]` → `uint`.
    GetWorkDim,
    /// `get_global_linear_id()`: `[]` → `ulong`.
    GetGlobalLinearId,
    /// `get_local_linear_id()`: `[]` → `ulong`.
    GetLocalLinearId,
    /// `__builtin_amdgcn_workitem_id_{x,y,z}()`: `[]` → `uint` (dimension 0..2).
    WorkitemId(u8),
    /// `__builtin_amdgcn_workgroup_id_{x,y,z}()`: `[]` → `uint`.
    WorkgroupId(u8),
    /// `__builtin_amdgcn_workgroup_size_{x,y,z}()`: `[]` → `ushort`.
    WorkgroupSize(u8),
    /// `__builtin_amdgcn_grid_size_{x,y,z}()`: `[]` → `uint`.
    GridSize(u8),
    /// `printf(format, …)` with `amdhsa.printf` entry `id`: the values to
    /// store after the ID, in order (`sema/call/printf.rs`) → `int` (0).
    Printf(u32),
    /// `__builtin_amdgcn_dispatch_ptr()`: `[]` → `__constant uchar *` (the HSA dispatch packet).
    DispatchPtr,
    /// `__builtin_amdgcn_implicitarg_ptr()`: `[]` → `__constant uchar *`.
    ImplicitArgPtr,
    /// `__builtin_amdgcn_kernarg_segment_ptr()`: `[]` → `__constant uchar *`.
    KernargSegmentPtr,
    /// `__builtin_amdgcn_s_barrier()`: `[]` → void (the bare `s_barrier`, no fences).
    SBarrier,
    /// `__builtin_amdgcn_wave_barrier()`: `[]` → void (a compiler-only wave barrier).
    WaveBarrier,
    /// `__builtin_amdgcn_wavefrontsize()`: `[]` → `uint` (32 or 64, as compiled).
    WaveSize,
    /// `__builtin_amdgcn_fence(order, "scope")`: `[order, scope]` → void.
    Fence,
    /// `__builtin_amdgcn_ds_bpermute(addr, data)`: `[int, int]` → `int`.
    DsBpermute,
    /// `__builtin_amdgcn_ds_permute(addr, data)`: `[int, int]` → `int`.
    DsPermute,
    /// `__builtin_amdgcn_mbcnt_lo(mask, acc)`: `[uint, uint]` → `uint`.
    MbcntLo,
    /// `__builtin_amdgcn_mbcnt_hi(mask, acc)`: `[uint, uint]` → `uint`.
    MbcntHi,
    /// `__builtin_amdgcn_readfirstlane(v)`: `[int]` → `int`.
    ReadFirstLane,
    /// `__builtin_amdgcn_readlane(v, lane)`: `[int, int]` → `int`.
    ReadLane,
    /// `__builtin_amdgcn_rsqf(x)`: `[float]` → `float` (hardware v_rsq, ~1 ULP).
    HwRsq,
    /// `__builtin_amdgcn_rcpf(x)`: `[float]` → `float` (hardware v_rcp).
    HwRcp,
    /// `__builtin_amdgcn_sqrtf(x)`: `[float]` → `float` (hardware v_sqrt).
    HwSqrt,
    /// `__builtin_amdgcn_exp2f(x)`: `[float]` → `float` (hardware v_exp).
    HwExp2,
    /// `__builtin_amdgcn_logf(x)`: `[float]` → `float` (hardware v_log, base 2).
    HwLog2,
    /// `__builtin_amdgcn_fmed3f(a, b, c)`: `[float; 3]` → `float`.
    Fmed3,
    /// `__builtin_amdgcn_ubfe(x, offset, width)`: `[uint; 3]` → `uint`.
    Ubfe,
    /// `__builtin_amdgcn_sbfe(x, offset, width)`: `[int, uint, uint]` → `int`.
    Sbfe,
    /// `__builtin_amdgcn_alignbit(hi, lo, shift)`: `[uint; 3]` → `uint`.
    Alignbit,
    /// `__builtin_amdgcn_s_sleep(n)`: `[int]` → void.
    SSleep,
    /// `__builtin_amdgcn_s_memtime()`: `[]` → `ulong`.
    SMemtime,
    /// `barrier(flags)` / `work_group_barrier(flags[, scope])`:
    /// `[flags: uint, scope]` → void (fences by flags around `s_barrier`).
    Barrier,
    /// `mem_fence` / `read_mem_fence` / `write_mem_fence(flags)`:
    /// `[flags: uint]` → void (work-group scope, acq_rel).
    MemFence,
    /// `atomic_work_item_fence(flags, order, scope)`: `[uint, order, scope]` → void.
    WorkItemFence,
    /// Square root, correctly rounded (`sqrt`, `__builtin_sqrtf`); float gentype, one operand.
    Sqrt,
    /// `rsqrt`, `native_rsqrt`.
    Rsqrt,
    /// `fabs`, `__builtin_fabsf`.
    Fabs,
    /// `floor`.
    Floor,
    /// `ceil`.
    Ceil,
    /// `trunc`.
    Trunc,
    /// `rint` (half to even).
    Rint,
    /// `native_recip`: `1/x`.
    Recip,
    /// `fmin(x, y)` (the second operand may be a scalar: it is splat).
    Fmin,
    /// `fmax(x, y)`.
    Fmax,
    /// `copysign(x, y)`.
    Copysign,
    /// `fma(a, b, c)`: fused, one rounding.
    Fma,
    /// `mad(a, b, c)`: may be fused or not (the back end chooses).
    Mad,
    /// `mix(x, y, a)`: `x + (y - x) * a` (a may be a scalar: it is splat).
    Mix,
    /// `dot(a, b)`: float scalar/vector operands of one type → the element type.
    Dot,
    /// `cross(a, b)`: `float3`/`float4` (the w of a float4 result is 0).
    Cross,
    /// `length(v)` → the element type.
    Length,
    /// `distance(a, b)` → the element type.
    Distance,
    /// `normalize(v)` → v's type.
    Normalize,
    /// `vloadN(offset, p)`: `[offset: ulong, p]` → the N-vector of `*p`'s
    /// type read from `p + offset * N` (element-aligned).
    Vload(u8),
    /// `vstoreN(data, offset, p)`: `[data, offset: ulong, p]` → void, writes
    /// `p + offset * N`.
    Vstore(u8),
    /// `clz(x)`, `__builtin_clz` (0 → bit width for `clz`; undefined for `__builtin_clz(0)`, the back end gives 32). Integer gentype, one operand.
    Clz,
    /// `ctz(x)`, `__builtin_ctz`.
    Ctz,
    /// `popcount(x)`, `__builtin_popcount`.
    Popcount,
    /// `__builtin_bitreverse32(x)`.
    Bitreverse,
    /// `mul_hi(a, b)`: high half of the full product.
    MulHi,
    /// `rotate(v, n)`: rotate left by `n` modulo the width (`__builtin_rotateleft32` too).
    Rotate,
    /// `__builtin_rotateright32(v, n)`.
    RotateRight,
    /// `abs(x)`: result is the unsigned type of the operand.
    Abs,
    /// `abs_diff(a, b)`: unsigned result.
    AbsDiff,
    /// `add_sat(a, b)`.
    AddSat,
    /// `sub_sat(a, b)`.
    SubSat,
    /// `hadd(a, b)`: `(a + b) >> 1` without overflow.
    Hadd,
    /// `mad24(a, b, c)`: 24-bit multiply plus c (int/uint gentypes).
    Mad24,
    /// `mul24(a, b)`.
    Mul24,
    /// `min(a, b)`: integer or float gentype (b may be a scalar).
    Min,
    /// `max(a, b)`.
    Max,
    /// `clamp(x, lo, hi)`.
    Clamp,
    /// `select(a, b, c)`: component i is `c[i]`'s MSB ? `b[i]` : `a[i]` for
    /// vectors, `c != 0 ? b : a` for scalars; operands `[a, b, c]`.
    Select,
    /// GNU `__atomic_{op}_fetch(p, v, order)`: the read-modify-write of
    /// [`Builtin::AtomicRmw`] (same operands) returning the new value.
    AtomicRmwFetch(AtomicOp),
    /// Atomic read-modify-write, every flavour (1.x `atomic_add`, 2.0
    /// `atomic_fetch_add[_explicit]`, clang `__opencl_atomic_fetch_add`):
    /// `[ptr, value, order, scope]` → the old value. `ptr` points to an
    /// integer (or `atomic_*`) in `__global`, `__local` or generic memory.
    AtomicRmw(AtomicOp),
    /// OpenCL 1.x `atomic_cmpxchg(p, cmp, val)`: `[ptr, cmp, val, order, scope]` → old value.
    AtomicCmpxchg,
    /// 2.0 `atomic_compare_exchange_{strong,weak}[_explicit]` and
    /// `__opencl_atomic_compare_exchange_*`: `[ptr, expected_ptr, desired,
    /// success order, failure order, scope]` → `bool`; on failure the value
    /// seen is written to `*expected_ptr`.
    AtomicCompareExchange,
    /// `atomic_load[_explicit]`, `__opencl_atomic_load`: `[ptr, order, scope]` → value.
    AtomicLoad,
    /// `atomic_store[_explicit]`, `atomic_init`, `__opencl_atomic_store`: `[ptr, value, order, scope]` → void.
    AtomicStore,
    /// `__builtin_expect(v, e)`: `[v, e]` → v (a hint).
    Expect,
    /// `__builtin_assume(c)`: `[bool]` → void (a hint).
    Assume,
    /// A device-library function ([`super::library`]), already linked into
    /// the translation unit: operands as the OpenCL function's; the
    /// lowering inlines the scalar function once per component.
    Lib(FuncId),
    /// `__builtin_amdgcn_sinf(x)`: `[float]` → `float`, `sin(2πx)` (hardware `v_sin_f32`).
    HwSin,
    /// `__builtin_amdgcn_cosf(x)`: `[float]` → `float` (hardware `v_cos_f32`).
    HwCos,
    /// `__builtin_amdgcn_fractf(x)`: `[float]` → `float` (`v_fract_f32`).
    HwFract,
    /// `__builtin_amdgcn_ldexpf(x, e)`: `[float, int]` → `float` (`v_ldexp_f32`).
    HwLdexp,
    /// `__builtin_amdgcn_frexp_mantf(x)`: `[float]` → `float` in ±[0.5, 1) (`v_frexp_mant_f32`).
    HwFrexpMant,
    /// `__builtin_amdgcn_frexp_expf(x)`: `[float]` → `int` (`v_frexp_exp_i32_f32`).
    HwFrexpExp,
    /// `half_divide`, `native_divide`: `x * (1/y)` with the hardware reciprocal.
    HalfDivide,
    /// A relational device-library function (1/0 per component): the
    /// lowering makes a vector form's true -1.
    LibRel(FuncId),
    /// `any(x)`: `[igentype]` → `int`, 1 when any component's sign bit is set.
    Any,
    /// `all(x)`: 1 when every component's sign bit is set.
    All,
}
