//! The instruction set of the IR: ISA-neutral, one result at most, every
//! operation per lane. OpenCL's `?:` stays a [`InstKind::Select`] until
//! instruction selection, which is where seed 004's masked form is chosen.

use super::entities::{Block, LocalVar, Value};
use super::types::{AddrSpace, Type};

/// Two-operand arithmetic and logic (operands and result of one type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// Wrapping integer add.
    Iadd,
    /// Wrapping integer subtract.
    Isub,
    /// Wrapping integer multiply (low half).
    Imul,
    /// Signed division (OpenCL leaves division by zero undefined).
    Sdiv,
    /// Unsigned division.
    Udiv,
    /// Signed remainder (sign of the dividend, as C).
    Srem,
    /// Unsigned remainder.
    Urem,
    /// Bitwise and (also logical and on `i1`).
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// Shift left (amount taken modulo the width, as OpenCL defines).
    Shl,
    /// Logical shift right.
    Lshr,
    /// Arithmetic shift right.
    Ashr,
    /// Signed minimum.
    Smin,
    /// Signed maximum.
    Smax,
    /// Unsigned minimum.
    Umin,
    /// Unsigned maximum.
    Umax,
    /// Float add.
    Fadd,
    /// Float subtract.
    Fsub,
    /// Float multiply.
    Fmul,
    /// Float divide, correctly rounded (`f64` only: the lowering expands
    /// `f32` division itself, by the precision the options ask for).
    Fdiv,
    /// Float minimum.
    Fmin,
    /// Float maximum.
    Fmax,
}

impl BinaryOp {
    /// What the operation is in OpenCL C, for diagnostics: the operator
    /// (`` `/` ``) or built-in (`` `min` ``) a user wrote.
    pub fn opencl(self) -> &'static str {
        match self {
            BinaryOp::Iadd | BinaryOp::Fadd => "`+`",
            BinaryOp::Isub | BinaryOp::Fsub => "`-`",
            BinaryOp::Imul | BinaryOp::Fmul => "`*`",
            BinaryOp::Sdiv | BinaryOp::Udiv | BinaryOp::Fdiv => "`/`",
            BinaryOp::Srem | BinaryOp::Urem => "`%`",
            BinaryOp::And => "`&`",
            BinaryOp::Or => "`|`",
            BinaryOp::Xor => "`^`",
            BinaryOp::Shl => "`<<`",
            BinaryOp::Lshr | BinaryOp::Ashr => "`>>`",
            BinaryOp::Smin | BinaryOp::Umin | BinaryOp::Fmin => "`min`",
            BinaryOp::Smax | BinaryOp::Umax | BinaryOp::Fmax => "`max`",
        }
    }

    /// Every operation, for the printer's reverse lookup and tests.
    pub const ALL: [BinaryOp; 23] = [
        BinaryOp::Iadd,
        BinaryOp::Isub,
        BinaryOp::Imul,
        BinaryOp::Sdiv,
        BinaryOp::Udiv,
        BinaryOp::Srem,
        BinaryOp::Urem,
        BinaryOp::And,
        BinaryOp::Or,
        BinaryOp::Xor,
        BinaryOp::Shl,
        BinaryOp::Lshr,
        BinaryOp::Ashr,
        BinaryOp::Smin,
        BinaryOp::Smax,
        BinaryOp::Umin,
        BinaryOp::Umax,
        BinaryOp::Fadd,
        BinaryOp::Fsub,
        BinaryOp::Fmul,
        BinaryOp::Fdiv,
        BinaryOp::Fmin,
        BinaryOp::Fmax,
    ];

    /// The textual IR name.
    pub fn name(self) -> &'static str {
        match self {
            BinaryOp::Iadd => "iadd",
            BinaryOp::Isub => "isub",
            BinaryOp::Imul => "imul",
            BinaryOp::Sdiv => "sdiv",
            BinaryOp::Udiv => "udiv",
            BinaryOp::Srem => "srem",
            BinaryOp::Urem => "urem",
            BinaryOp::And => "and",
            BinaryOp::Or => "or",
            BinaryOp::Xor => "xor",
            BinaryOp::Shl => "shl",
            BinaryOp::Lshr => "lshr",
            BinaryOp::Ashr => "ashr",
            BinaryOp::Smin => "smin",
            BinaryOp::Smax => "smax",
            BinaryOp::Umin => "umin",
            BinaryOp::Umax => "umax",
            BinaryOp::Fadd => "fadd",
            BinaryOp::Fsub => "fsub",
            BinaryOp::Fmul => "fmul",
            BinaryOp::Fdiv => "fdiv",
            BinaryOp::Fmin => "fmin",
            BinaryOp::Fmax => "fmax",
        }
    }

    /// True for operations on floats.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            BinaryOp::Fadd
                | BinaryOp::Fsub
                | BinaryOp::Fmul
                | BinaryOp::Fdiv
                | BinaryOp::Fmin
                | BinaryOp::Fmax
        )
    }

    /// True when `a op b == b op a`.
    pub fn is_commutative(self) -> bool {
        !matches!(
            self,
            BinaryOp::Isub
                | BinaryOp::Sdiv
                | BinaryOp::Udiv
                | BinaryOp::Srem
                | BinaryOp::Urem
                | BinaryOp::Shl
                | BinaryOp::Lshr
                | BinaryOp::Ashr
                | BinaryOp::Fsub
                | BinaryOp::Fdiv
        )
    }

    /// True when the operation may trap or is undefined for some inputs, so it
    /// must not be executed for lanes whose result is not wanted (division).
    pub fn may_trap(self) -> bool {
        matches!(
            self,
            BinaryOp::Sdiv | BinaryOp::Udiv | BinaryOp::Srem | BinaryOp::Urem
        )
    }
}

/// One-operand operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// Integer negate.
    Ineg,
    /// Bitwise not (logical not on `i1`).
    Not,
    /// Float negate.
    Fneg,
    /// Float absolute value.
    Fabs,
}

impl UnaryOp {
    /// What the operation is in OpenCL C, for diagnostics.
    pub fn opencl(self) -> &'static str {
        match self {
            UnaryOp::Ineg | UnaryOp::Fneg => "unary `-`",
            UnaryOp::Not => "`~`",
            UnaryOp::Fabs => "`fabs`",
        }
    }

    /// The textual IR name.
    pub fn name(self) -> &'static str {
        match self {
            UnaryOp::Ineg => "ineg",
            UnaryOp::Not => "not",
            UnaryOp::Fneg => "fneg",
            UnaryOp::Fabs => "fabs",
        }
    }
}

/// Three-operand operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TernaryOp {
    /// Integer multiply-accumulate `a * b + c` (wrapping).
    Imad,
    /// Fused float multiply-add.
    Fma,
}

impl TernaryOp {
    /// The textual IR name.
    pub fn name(self) -> &'static str {
        match self {
            TernaryOp::Imad => "imad",
            TernaryOp::Fma => "fma",
        }
    }
}

/// Integer comparison conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntCC {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// signed `<`
    Slt,
    /// signed `<=`
    Sle,
    /// signed `>`
    Sgt,
    /// signed `>=`
    Sge,
    /// unsigned `<`
    Ult,
    /// unsigned `<=`
    Ule,
    /// unsigned `>`
    Ugt,
    /// unsigned `>=`
    Uge,
}

impl IntCC {
    /// The textual IR name.
    pub fn name(self) -> &'static str {
        match self {
            IntCC::Eq => "eq",
            IntCC::Ne => "ne",
            IntCC::Slt => "slt",
            IntCC::Sle => "sle",
            IntCC::Sgt => "sgt",
            IntCC::Sge => "sge",
            IntCC::Ult => "ult",
            IntCC::Ule => "ule",
            IntCC::Ugt => "ugt",
            IntCC::Uge => "uge",
        }
    }

    /// Evaluates the condition on 32-bit operands (constant folding).
    pub fn eval32(self, a: u32, b: u32) -> bool {
        let (sa, sb) = (a as i32, b as i32);
        match self {
            IntCC::Eq => a == b,
            IntCC::Ne => a != b,
            IntCC::Slt => sa < sb,
            IntCC::Sle => sa <= sb,
            IntCC::Sgt => sa > sb,
            IntCC::Sge => sa >= sb,
            IntCC::Ult => a < b,
            IntCC::Ule => a <= b,
            IntCC::Ugt => a > b,
            IntCC::Uge => a >= b,
        }
    }
}

/// Float comparison conditions (ordered: false when either operand is NaN,
/// except `Une`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatCC {
    /// ordered `==`
    Oeq,
    /// unordered or `!=`
    Une,
    /// ordered `<`
    Olt,
    /// ordered `<=`
    Ole,
    /// ordered `>`
    Ogt,
    /// ordered `>=`
    Oge,
}

impl FloatCC {
    /// The textual IR name.
    pub fn name(self) -> &'static str {
        match self {
            FloatCC::Oeq => "oeq",
            FloatCC::Une => "une",
            FloatCC::Olt => "olt",
            FloatCC::Ole => "ole",
            FloatCC::Ogt => "ogt",
            FloatCC::Oge => "oge",
        }
    }
}

/// Conversions between types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConvertOp {
    /// Zero-extend an integer (or `i1` to 0/1).
    Zext,
    /// Sign-extend an integer (or `i1` to 0/-1).
    Sext,
    /// Truncate an integer.
    Trunc,
    /// Signed integer to float.
    SiToFp,
    /// Unsigned integer to float.
    UiToFp,
    /// Float to signed integer (round toward zero).
    FpToSi,
    /// Float to unsigned integer (round toward zero).
    FpToUi,
    /// Reinterpret the bits (same width).
    Bitcast,
    /// Widen a float (`f32` to `f64`; exact).
    FpExt,
    /// Narrow a float (`f64` to `f32`, round to nearest even).
    FpTrunc,
}

impl ConvertOp {
    /// The OpenCL C types of a conversion `from` → `to` (IR types do not
    /// keep signedness; the operation does), for diagnostics:
    /// `conversion from ulong to double`.
    pub fn opencl(self, from: Type, to: Type) -> String {
        let unsigned = |t: Type| match t {
            Type::I8 => "uchar",
            Type::I16 => "ushort",
            Type::I32 => "uint",
            Type::I64 => "ulong",
            t => t.opencl_name(),
        };
        let (f, t) = match self {
            ConvertOp::Zext => (unsigned(from), to.opencl_name()),
            ConvertOp::UiToFp => (unsigned(from), to.opencl_name()),
            ConvertOp::FpToUi => (from.opencl_name(), unsigned(to)),
            _ => (from.opencl_name(), to.opencl_name()),
        };
        let what = if self == ConvertOp::Bitcast {
            "reinterpretation"
        } else {
            "conversion"
        };
        format!("{what} from {f} to {t}")
    }

    /// The textual IR name.
    pub fn name(self) -> &'static str {
        match self {
            ConvertOp::Zext => "zext",
            ConvertOp::Sext => "sext",
            ConvertOp::Trunc => "trunc",
            ConvertOp::SiToFp => "sitofp",
            ConvertOp::UiToFp => "uitofp",
            ConvertOp::FpToSi => "fptosi",
            ConvertOp::FpToUi => "fptoui",
            ConvertOp::Bitcast => "bitcast",
            ConvertOp::FpExt => "fpext",
            ConvertOp::FpTrunc => "fptrunc",
        }
    }
}

/// Read-modify-write atomic operations (return the old value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    /// `atomic_add`
    Add,
    /// `atomic_sub`
    Sub,
    /// `atomic_xchg`
    Xchg,
    /// `atomic_min` (signed)
    Smin,
    /// `atomic_max` (signed)
    Smax,
    /// `atomic_and`
    And,
    /// `atomic_or`
    Or,
    /// `atomic_min` (unsigned)
    Umin,
    /// `atomic_max` (unsigned)
    Umax,
    /// `atomic_xor`
    Xor,
}

impl AtomicOp {
    /// The textual IR name.
    pub fn name(self) -> &'static str {
        match self {
            AtomicOp::Add => "add",
            AtomicOp::Sub => "sub",
            AtomicOp::Xchg => "xchg",
            AtomicOp::Smin => "smin",
            AtomicOp::Smax => "smax",
            AtomicOp::And => "and",
            AtomicOp::Or => "or",
            AtomicOp::Umin => "umin",
            AtomicOp::Umax => "umax",
            AtomicOp::Xor => "xor",
        }
    }
}

/// Work-item geometry queries (OpenCL's `get_*` functions); `dim` 0..=2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WorkItemQuery {
    /// `get_local_id` — divergent.
    LocalId,
    /// `get_group_id` — uniform.
    GroupId,
    /// `get_local_size` — uniform.
    LocalSize,
    /// `get_num_groups` — uniform.
    NumGroups,
    /// `get_global_id` — divergent.
    GlobalId,
    /// `get_global_size` — uniform.
    GlobalSize,
    /// `get_global_offset` (its low 32 bits) — uniform.
    GlobalOffset,
    /// `get_work_dim` (`dim` ignored) — uniform.
    WorkDim,
}

impl WorkItemQuery {
    /// The textual IR name.
    pub fn name(self) -> &'static str {
        match self {
            WorkItemQuery::LocalId => "local_id",
            WorkItemQuery::GroupId => "group_id",
            WorkItemQuery::LocalSize => "local_size",
            WorkItemQuery::NumGroups => "num_groups",
            WorkItemQuery::GlobalId => "global_id",
            WorkItemQuery::GlobalSize => "global_size",
            WorkItemQuery::GlobalOffset => "global_offset",
            WorkItemQuery::WorkDim => "work_dim",
        }
    }

    /// True when the value differs between the lanes of a wave.
    pub fn is_divergent(self) -> bool {
        matches!(self, WorkItemQuery::LocalId | WorkItemQuery::GlobalId)
    }
}

/// Built-in functions reached through calls (OpenCL's library), kept as
/// calls so the back end picks the instruction (or sequence) per target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `mul24(a, b)` (signed 24-bit multiply).
    Mul24,
    /// `mad24(a, b, c)`.
    Mad24,
    /// `clz(x)` on 32 bits.
    Clz,
    /// `popcount(x)` on 32 bits.
    Popcount,
    /// `abs(x)` on signed 32 bits (result as unsigned bits).
    Abs,
    /// `sqrt(x)` on f32.
    Sqrt,
    /// `floor(x)` on f32 (exact).
    Floor,
    /// Hardware reciprocal square root on f32 (`v_rsq_f32`, ~1 ULP).
    Rsq,
    /// `ctz(x)` on 32 bits (`ctz(0)` = 32).
    Ctz,
    /// Bit reversal of 32 bits.
    Bitreverse,
    /// `alignbit(hi, lo, s)`: bits `[s + 31 : s]` of the 64-bit `hi:lo`
    /// (`s` modulo 32); `alignbit(x, x, s)` rotates `x` right by `s`.
    Alignbit,
    /// `ldexp(x: f32, e: i32)`: `x * 2^e` (`v_ldexp_f32`).
    Ldexp,
    /// The mantissa of an f32 in ±[0.5, 1) (`v_frexp_mant_f32`).
    FrexpMant,
    /// The exponent of an f32 as an `i32` (`v_frexp_exp_i32_f32`).
    FrexpExp,
    /// Hardware reciprocal on f32 (`v_rcp_f32`, ~1 ULP).
    Rcp,
    /// High 32 bits of the unsigned 64-bit product (`v_mul_hi_u32`).
    UmulHi,
    /// High 32 bits of the signed 64-bit product (`v_mul_hi_i32`).
    SmulHi,
    /// `mbcnt_lo(mask, acc)`: `acc` + the set bits of `mask` below this
    /// lane (lanes 0..31). Divergent whatever its operands.
    MbcntLo,
    /// `mbcnt_hi(mask, acc)`: the same for lanes 32..63 (wave64).
    MbcntHi,
    /// `ds_bpermute(addr, data)`: the `data` of lane `addr / 4` modulo 32
    /// within the lane's own 32-lane half (gfx1030 wave64 permutes each half
    /// on its own; wave32 is one half); reads inactive lanes as 0. Divergent.
    Bpermute,
    /// The wave size, 32 or 64, as an `i32` (a constant the back end
    /// chooses: the IR does not know it). Uniform.
    WaveSize,
    /// `readfirstlane(x)`: `x` of the first active lane
    /// (`v_readfirstlane_b32`). Uniform whatever its operand.
    ReadFirstLane,
    /// `readlane(x, lane)`: `x` of lane `lane` (a uniform lane number;
    /// `v_readlane_b32`). Uniform whatever its operands.
    ReadLane,
    /// IEEE (correctly rounded) f32 `a / b`: `v_div_scale_f32` ×2,
    /// `v_rcp_f32`, Newton steps with `v_fma_f32`, `v_div_fmas_f32`,
    /// `v_div_fixup_f32` (clang's `-cl-fp32-correctly-rounded-divide-sqrt`).
    FdivIeee,
    /// Hardware sine of `x` revolutions, `sin(2πx)` (`v_sin_f32`; about
    /// 1 ULP-of-1 absolute error, valid for |x| <= 256). The device library
    /// reduces the argument first.
    HwSin,
    /// Hardware cosine of `x` revolutions (`v_cos_f32`).
    HwCos,
    /// Hardware `2^x` (`v_exp_f32`, ~1 ULP; denormal results flushed).
    HwExp2,
    /// Hardware `log2(x)` (`v_log_f32`, ~1 ULP; denormal inputs flushed).
    HwLog2,
    /// `x - floor(x)`, at most the largest float below 1 (`v_fract_f32`).
    Fract,
    /// Round to the nearest integer, ties to even (`v_rndne_f32`).
    Rndne,
    /// Round toward zero (`v_trunc_f32`).
    Trunc,
    /// Round toward +infinity (`v_ceil_f32`).
    Ceil,
}

impl Builtin {
    /// The OpenCL name.
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Mul24 => "mul24",
            Builtin::Mad24 => "mad24",
            Builtin::Clz => "clz",
            Builtin::Popcount => "popcount",
            Builtin::Abs => "abs",
            Builtin::Sqrt => "sqrt",
            Builtin::Floor => "floor",
            Builtin::Rsq => "rsq",
            Builtin::Ctz => "ctz",
            Builtin::Bitreverse => "bitreverse",
            Builtin::Alignbit => "alignbit",
            Builtin::Ldexp => "ldexp",
            Builtin::FrexpMant => "frexp_mant",
            Builtin::FrexpExp => "frexp_exp",
            Builtin::Rcp => "rcp",
            Builtin::UmulHi => "umul_hi",
            Builtin::SmulHi => "smul_hi",
            Builtin::MbcntLo => "mbcnt_lo",
            Builtin::MbcntHi => "mbcnt_hi",
            Builtin::Bpermute => "bpermute",
            Builtin::ReadFirstLane => "readfirstlane",
            Builtin::WaveSize => "wave_size",
            Builtin::ReadLane => "readlane",
            Builtin::FdivIeee => "fdiv_ieee",
            Builtin::HwSin => "hw_sin",
            Builtin::HwCos => "hw_cos",
            Builtin::HwExp2 => "hw_exp2",
            Builtin::HwLog2 => "hw_log2",
            Builtin::Fract => "fract",
            Builtin::Rndne => "rndne",
            Builtin::Trunc => "trunc",
            Builtin::Ceil => "ceil",
        }
    }

    /// True when the result is an `f32` (the others give `i32`).
    pub fn is_float(self) -> bool {
        self.result_type() == Type::F32
    }

    /// The result type.
    pub fn result_type(self) -> Type {
        match self {
            Builtin::Sqrt
            | Builtin::Floor
            | Builtin::Rsq
            | Builtin::Ldexp
            | Builtin::FrexpMant
            | Builtin::Rcp
            | Builtin::FdivIeee
            | Builtin::HwSin
            | Builtin::HwCos
            | Builtin::HwExp2
            | Builtin::HwLog2
            | Builtin::Fract
            | Builtin::Rndne
            | Builtin::Trunc
            | Builtin::Ceil => Type::F32,
            _ => Type::I32,
        }
    }

    /// The argument types, in order.
    pub fn arg_types(self) -> &'static [Type] {
        const F: Type = Type::F32;
        const I: Type = Type::I32;
        match self {
            Builtin::Sqrt | Builtin::Floor | Builtin::Rsq => &[F],
            Builtin::FrexpMant | Builtin::FrexpExp | Builtin::Rcp => &[F],
            Builtin::HwSin | Builtin::HwCos | Builtin::HwExp2 | Builtin::HwLog2 => &[F],
            Builtin::Fract | Builtin::Rndne | Builtin::Trunc | Builtin::Ceil => &[F],
            Builtin::Ldexp => &[F, I],
            Builtin::FdivIeee => &[F, F],
            Builtin::Mul24
            | Builtin::UmulHi
            | Builtin::SmulHi
            | Builtin::MbcntLo
            | Builtin::MbcntHi
            | Builtin::Bpermute
            | Builtin::ReadLane => &[I, I],
            Builtin::Mad24 | Builtin::Alignbit => &[I, I, I],
            Builtin::Clz | Builtin::Popcount | Builtin::Abs | Builtin::Ctz => &[I],
            Builtin::Bitreverse | Builtin::ReadFirstLane => &[I],
            Builtin::WaveSize => &[],
        }
    }

    /// Number of arguments.
    pub fn arity(self) -> usize {
        self.arg_types().len()
    }

    /// True when the result differs between lanes whatever the operands
    /// (the lane's position in the wave, or another lane's data).
    pub fn is_cross_lane(self) -> bool {
        matches!(
            self,
            Builtin::MbcntLo | Builtin::MbcntHi | Builtin::Bpermute
        )
    }

    /// True when the result is the same in every lane whatever the
    /// operands (it reads one lane's value for the whole wave).
    pub fn is_wave_uniform(self) -> bool {
        matches!(
            self,
            Builtin::ReadFirstLane | Builtin::ReadLane | Builtin::WaveSize
        )
    }

    /// True when the result depends on which lanes are active (EXEC), so
    /// the call must stay where it is (no merging, no hoisting).
    pub fn reads_exec(self) -> bool {
        matches!(self, Builtin::ReadFirstLane | Builtin::Bpermute)
    }
}

/// A branch destination with the values passed to the block's parameters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BlockCall {
    /// The destination.
    pub block: Block,
    /// One value per parameter of `block`.
    pub args: Vec<Value>,
}

/// What an instruction does.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum InstKind {
    /// An integer (or `i1`) constant, stored sign-extended.
    Iconst {
        /// The type (`i1`..`i64`).
        ty: Type,
        /// The value.
        imm: i64,
    },
    /// A float constant by its bits (f32 bits in the low 32 for `f32`).
    Fconst {
        /// `f16`, `f32` or `f64`.
        ty: Type,
        /// The IEEE bits.
        bits: u64,
    },
    /// `op arg`.
    Unary {
        /// The operation.
        op: UnaryOp,
        /// The operand.
        arg: Value,
    },
    /// `op a, b`.
    Binary {
        /// The operation.
        op: BinaryOp,
        /// The operands.
        args: [Value; 2],
    },
    /// `op a, b, c`.
    Ternary {
        /// The operation.
        op: TernaryOp,
        /// The operands.
        args: [Value; 3],
    },
    /// Integer or pointer comparison, `i1` result.
    Icmp {
        /// The condition.
        cond: IntCC,
        /// The operands.
        args: [Value; 2],
    },
    /// Float comparison, `i1` result.
    Fcmp {
        /// The condition.
        cond: FloatCC,
        /// The operands.
        args: [Value; 2],
    },
    /// `cond ? args[0] : args[1]` per lane (OpenCL's `?:`; seed 004's `vselect`).
    Select {
        /// An `i1`.
        cond: Value,
        /// The true and false values.
        args: [Value; 2],
    },
    /// A conversion to `to`.
    Convert {
        /// Which conversion.
        op: ConvertOp,
        /// The operand.
        arg: Value,
        /// The result type.
        to: Type,
    },
    /// `base + offset` bytes; an `i32` offset is sign-extended.
    PtrAdd {
        /// A pointer.
        base: Value,
        /// `i32` or `i64` bytes.
        offset: Value,
    },
    /// Loads a `ty` from `addr`.
    Load {
        /// The loaded type.
        ty: Type,
        /// A pointer.
        addr: Value,
    },
    /// Stores `value` at `addr`.
    Store {
        /// A pointer.
        addr: Value,
        /// The stored value.
        value: Value,
    },
    /// Atomic read-modify-write; the result is the old value.
    Atomic {
        /// The operation.
        op: AtomicOp,
        /// A global or local pointer.
        addr: Value,
        /// The operand.
        value: Value,
    },
    /// Atomic compare-and-swap: stores `value` where `addr` holds `cmp`;
    /// the result is the old value (the swap happened when it equals `cmp`).
    AtomicCas {
        /// A global or local pointer.
        addr: Value,
        /// The expected value.
        cmp: Value,
        /// The value stored on a match.
        value: Value,
    },
    /// A device-scope acquire-release memory fence: every memory access of
    /// this work-item before it completes before any after it, and later
    /// loads see what other work-items released (OpenCL's `atomic_work_item_fence`,
    /// `__builtin_amdgcn_fence(…, "agent")`, the ordering of acquire and
    /// release atomics).
    Fence,
    /// `barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)`: workgroup
    /// execution barrier with memory ordering.
    Barrier,
    /// A work-item geometry query, `i32` result.
    WorkItem {
        /// Which query.
        query: WorkItemQuery,
        /// The dimension, 0..=2.
        dim: u8,
    },
    /// The value of kernel parameter `index` (read from the kernarg segment).
    KernelArg {
        /// Index into [`Function::params`](super::Function::params).
        index: u32,
    },
    /// The LDS address of a `__local` variable (`ptr.local`).
    LocalAddr {
        /// The variable.
        var: LocalVar,
    },
    /// The address of private memory at `offset` in the work-item's
    /// private segment (`ptr.private`; see `Function::private_size`).
    PrivateAddr {
        /// Bytes from the segment's start.
        offset: u32,
    },
    /// The address of program-scope data object `index`
    /// ([`Function::data`](super::Function::data)): `ptr.constant` for
    /// read-only data, `ptr.global` for a writable variable. The back end
    /// computes it PC-relatively (`s_getpc_b64` + the object's offset), as
    /// clang does.
    DataAddr {
        /// Index into `Function::data`.
        index: u32,
    },
    /// A call to a built-in.
    Call {
        /// The function.
        builtin: Builtin,
        /// Its arguments.
        args: Vec<Value>,
    },
    /// Unconditional branch.
    Jump {
        /// The destination.
        dest: BlockCall,
    },
    /// Conditional branch on an `i1`.
    Brif {
        /// The condition.
        cond: Value,
        /// Taken when true.
        then_dest: BlockCall,
        /// Taken when false.
        else_dest: BlockCall,
    },
    /// End of the kernel for this work-item.
    Return,
}

impl InstKind {
    /// True for instructions that end a block.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            InstKind::Jump { .. } | InstKind::Brif { .. } | InstKind::Return
        )
    }

    /// True for instructions with effects beyond their result (never removed,
    /// never merged, never moved across one another).
    pub fn has_side_effects(&self) -> bool {
        matches!(
            self,
            InstKind::Store { .. }
                | InstKind::Atomic { .. }
                | InstKind::AtomicCas { .. }
                | InstKind::Fence
                | InstKind::Barrier
                | InstKind::Jump { .. }
                | InstKind::Brif { .. }
                | InstKind::Return
        )
    }

    /// The value operands, in order (branch arguments included).
    pub fn operands(&self) -> Vec<Value> {
        let mut out = Vec::new();
        self.for_each_operand(|v| out.push(v));
        out
    }

    /// Calls `f` on every value operand, in order.
    pub fn for_each_operand(&self, mut f: impl FnMut(Value)) {
        match self {
            InstKind::Iconst { .. }
            | InstKind::Fconst { .. }
            | InstKind::Barrier
            | InstKind::Fence
            | InstKind::WorkItem { .. }
            | InstKind::KernelArg { .. }
            | InstKind::LocalAddr { .. }
            | InstKind::PrivateAddr { .. }
            | InstKind::DataAddr { .. }
            | InstKind::Return => {}
            InstKind::Unary { arg, .. } | InstKind::Convert { arg, .. } => f(*arg),
            InstKind::Binary { args, .. }
            | InstKind::Icmp { args, .. }
            | InstKind::Fcmp { args, .. } => args.iter().for_each(|&v| f(v)),
            InstKind::Ternary { args, .. } => args.iter().for_each(|&v| f(v)),
            InstKind::Select { cond, args } => {
                f(*cond);
                args.iter().for_each(|&v| f(v));
            }
            InstKind::PtrAdd { base, offset } => {
                f(*base);
                f(*offset);
            }
            InstKind::Load { addr, .. } => f(*addr),
            InstKind::Store { addr, value } | InstKind::Atomic { addr, value, .. } => {
                f(*addr);
                f(*value);
            }
            InstKind::AtomicCas { addr, cmp, value } => {
                f(*addr);
                f(*cmp);
                f(*value);
            }
            InstKind::Call { args, .. } => args.iter().for_each(|&v| f(v)),
            InstKind::Jump { dest } => dest.args.iter().for_each(|&v| f(v)),
            InstKind::Brif {
                cond,
                then_dest,
                else_dest,
            } => {
                f(*cond);
                then_dest.args.iter().for_each(|&v| f(v));
                else_dest.args.iter().for_each(|&v| f(v));
            }
        }
    }

    /// Rewrites every value operand through `f` (used by the passes).
    pub fn map_operands(&mut self, mut f: impl FnMut(Value) -> Value) {
        match self {
            InstKind::Iconst { .. }
            | InstKind::Fconst { .. }
            | InstKind::Barrier
            | InstKind::Fence
            | InstKind::WorkItem { .. }
            | InstKind::KernelArg { .. }
            | InstKind::LocalAddr { .. }
            | InstKind::PrivateAddr { .. }
            | InstKind::DataAddr { .. }
            | InstKind::Return => {}
            InstKind::Unary { arg, .. } | InstKind::Convert { arg, .. } => *arg = f(*arg),
            InstKind::Binary { args, .. }
            | InstKind::Icmp { args, .. }
            | InstKind::Fcmp { args, .. } => args.iter_mut().for_each(|v| *v = f(*v)),
            InstKind::Ternary { args, .. } => args.iter_mut().for_each(|v| *v = f(*v)),
            InstKind::Select { cond, args } => {
                *cond = f(*cond);
                args.iter_mut().for_each(|v| *v = f(*v));
            }
            InstKind::PtrAdd { base, offset } => {
                *base = f(*base);
                *offset = f(*offset);
            }
            InstKind::Load { addr, .. } => *addr = f(*addr),
            InstKind::Store { addr, value } | InstKind::Atomic { addr, value, .. } => {
                *addr = f(*addr);
                *value = f(*value);
            }
            InstKind::AtomicCas { addr, cmp, value } => {
                *addr = f(*addr);
                *cmp = f(*cmp);
                *value = f(*value);
            }
            InstKind::Call { args, .. } => args.iter_mut().for_each(|v| *v = f(*v)),
            InstKind::Jump { dest } => dest.args.iter_mut().for_each(|v| *v = f(*v)),
            InstKind::Brif {
                cond,
                then_dest,
                else_dest,
            } => {
                *cond = f(*cond);
                then_dest.args.iter_mut().for_each(|v| *v = f(*v));
                else_dest.args.iter_mut().for_each(|v| *v = f(*v));
            }
        }
    }

    /// The branch destinations of a terminator, with their arguments.
    pub fn block_calls(&self) -> Vec<&BlockCall> {
        match self {
            InstKind::Jump { dest } => vec![dest],
            InstKind::Brif {
                then_dest,
                else_dest,
                ..
            } => vec![then_dest, else_dest],
            _ => Vec::new(),
        }
    }

    /// Calls `f` on every branch destination of a terminator (to retarget
    /// it or change its arguments).
    pub fn for_each_block_call_mut(&mut self, mut f: impl FnMut(&mut BlockCall)) {
        match self {
            InstKind::Jump { dest } => f(dest),
            InstKind::Brif {
                then_dest,
                else_dest,
                ..
            } => {
                f(then_dest);
                f(else_dest);
            }
            _ => {}
        }
    }

    /// The branch destinations of a terminator.
    pub fn successors(&self) -> Vec<Block> {
        self.block_calls().into_iter().map(|c| c.block).collect()
    }
}

/// `AddrSpace` of a pointer type, for the loads and stores.
pub fn space_of(ty: Type) -> Option<AddrSpace> {
    match ty {
        Type::Ptr(s) => Some(s),
        _ => None,
    }
}
