//! The IR verifier: structure (terminators, block parameters), SSA
//! (definitions dominate uses) and types. Passes run it in tests and behind
//! `CompileOptions::verify`; a failure names the instruction and the rule.

use thiserror::Error;

use super::cfg::Cfg;
use super::entities::{Block, Inst, Value};
use super::function::{Function, ValueDef};
use super::instructions::*;
use super::print::write_inst;
use super::types::{AddrSpace, Type};

/// A broken rule of the IR.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("IR verifier: {location}: {message}")]
pub struct VerifyError {
    /// Where (`block3: v7:i32 = iadd v1, v5`).
    pub location: String,
    /// What is wrong.
    pub message: String,
}

struct Verifier<'f> {
    f: &'f Function,
    cfg: Cfg,
    /// Position of each instruction in its block.
    position: Vec<usize>,
}

/// Checks `f`.
pub fn verify(f: &Function) -> Result<(), VerifyError> {
    let entry = f.entry().ok_or_else(|| VerifyError {
        location: format!("kernel @{}", f.name),
        message: "the kernel has no blocks".into(),
    })?;
    if !f.block(entry).params.is_empty() {
        return Err(VerifyError {
            location: entry.to_string(),
            message: "the entry block cannot have parameters".into(),
        });
    }
    let mut position = vec![usize::MAX; f.inst_count()];
    for &b in f.blocks() {
        for (n, &i) in f.block(b).insts.iter().enumerate() {
            position[i.index()] = n;
        }
    }
    let v = Verifier {
        f,
        cfg: Cfg::new(f),
        position,
    };
    for &b in f.blocks() {
        v.block(b)?;
    }
    Ok(())
}

impl Verifier<'_> {
    fn err(&self, b: Block, i: Option<Inst>, message: impl Into<String>) -> VerifyError {
        let location = match i {
            Some(i) => {
                let mut s = format!("{b}: ");
                let d = self.f.inst(i);
                if let Some(r) = d.result {
                    s += &format!("{r}:{} = ", self.f.ty(r));
                }
                let _ = write_inst(&d.kind, &mut s);
                s
            }
            None => b.to_string(),
        };
        VerifyError {
            location,
            message: message.into(),
        }
    }

    fn block(&self, b: Block) -> Result<(), VerifyError> {
        let insts = &self.f.block(b).insts;
        let Some(&last) = insts.last() else {
            return Err(self.err(b, None, "empty block (no terminator)"));
        };
        for &i in insts {
            let d = self.f.inst(i);
            if d.block != Some(b) {
                return Err(self.err(
                    b,
                    Some(i),
                    "instruction's block field disagrees with the layout",
                ));
            }
            if d.kind.is_terminator() != (i == last) {
                return Err(self.err(
                    b,
                    Some(i),
                    if i == last {
                        "the block does not end with a terminator"
                    } else {
                        "terminator in the middle of a block"
                    },
                ));
            }
            self.inst(b, i)?;
        }
        Ok(())
    }

    fn defined_before(&self, v: Value, b: Block, i: Inst) -> bool {
        if !self.f.is_valid_value(v) {
            return false;
        }
        match self.f.value(v).def {
            ValueDef::Param(pb, _) => self.cfg.dominates(pb, b),
            ValueDef::Inst(di) => match self.f.inst(di).block {
                None => false,
                Some(db) if db == b => self.position[di.index()] < self.position[i.index()],
                Some(db) => self.cfg.dominates(db, b),
            },
        }
    }

    fn inst(&self, b: Block, i: Inst) -> Result<(), VerifyError> {
        let f = self.f;
        let d = f.inst(i);
        let e = |m: String| self.err(b, Some(i), m);
        let mut bad = None;
        d.kind.for_each_operand(|v| {
            if bad.is_none() && !self.defined_before(v, b, i) {
                bad = Some(v);
            }
        });
        if let Some(v) = bad {
            return Err(e(format!(
                "{v} is used where its definition does not dominate"
            )));
        }
        let ty = |v: Value| f.ty(v);
        let result = d.result.map(|r| f.ty(r));
        let want_result = |t: Type| -> Result<(), VerifyError> {
            if result != Some(t) {
                return Err(e(format!("result type must be {t}")));
            }
            Ok(())
        };
        match &d.kind {
            InstKind::Iconst { ty: t, .. } => {
                if !(t.is_int() || *t == Type::I1) {
                    return Err(e(format!("iconst of non-integer type {t}")));
                }
                want_result(*t)?;
            }
            InstKind::Fconst { ty: t, .. } => {
                if !t.is_float() {
                    return Err(e(format!("fconst of non-float type {t}")));
                }
                want_result(*t)?;
            }
            InstKind::Unary { op, arg } => {
                let t = ty(*arg);
                let ok = match op {
                    UnaryOp::Ineg => t.is_int(),
                    UnaryOp::Not => t.is_int() || t == Type::I1,
                    UnaryOp::Fneg | UnaryOp::Fabs => t.is_float(),
                };
                if !ok {
                    return Err(e(format!("{} does not apply to {t}", op.name())));
                }
                want_result(t)?;
            }
            InstKind::Binary { op, args } => {
                let (a, c) = (ty(args[0]), ty(args[1]));
                if a != c {
                    return Err(e(format!("operand types differ: {a} and {c}")));
                }
                let logic = matches!(op, BinaryOp::And | BinaryOp::Or | BinaryOp::Xor);
                let ok = if op.is_float() {
                    a.is_float()
                } else {
                    a.is_int() || (logic && a == Type::I1)
                };
                if !ok {
                    return Err(e(format!("{} does not apply to {a}", op.name())));
                }
                want_result(a)?;
            }
            InstKind::Ternary { op, args } => {
                let t = ty(args[0]);
                if args.iter().any(|&v| ty(v) != t) {
                    return Err(e("operand types differ".into()));
                }
                let ok = match op {
                    TernaryOp::Imad => t.is_int(),
                    TernaryOp::Fma => t.is_float(),
                };
                if !ok {
                    return Err(e(format!("{} does not apply to {t}", op.name())));
                }
                want_result(t)?;
            }
            InstKind::Icmp { args, .. } => {
                let (a, c) = (ty(args[0]), ty(args[1]));
                if a != c || !(a.is_int() || a.is_ptr()) {
                    return Err(e(format!(
                        "icmp needs two integers or pointers of one type, got {a} and {c}"
                    )));
                }
                want_result(Type::I1)?;
            }
            InstKind::Fcmp { args, .. } => {
                let (a, c) = (ty(args[0]), ty(args[1]));
                if a != c || !a.is_float() {
                    return Err(e(format!(
                        "fcmp needs two floats of one type, got {a} and {c}"
                    )));
                }
                want_result(Type::I1)?;
            }
            InstKind::Select { cond, args } => {
                if ty(*cond) != Type::I1 {
                    return Err(e(format!("select condition is {}, not i1", ty(*cond))));
                }
                let (a, c) = (ty(args[0]), ty(args[1]));
                if a != c {
                    return Err(e(format!("select arms differ: {a} and {c}")));
                }
                want_result(a)?;
            }
            InstKind::Convert { op, arg, to } => {
                let from = ty(*arg);
                let ok = match op {
                    ConvertOp::Zext | ConvertOp::Sext => {
                        (from.is_int() || from == Type::I1)
                            && to.is_int()
                            && from.bits() < to.bits()
                    }
                    ConvertOp::Trunc => {
                        from.is_int() && (to.is_int() || *to == Type::I1) && from.bits() > to.bits()
                    }
                    ConvertOp::SiToFp | ConvertOp::UiToFp => from.is_int() && to.is_float(),
                    ConvertOp::FpToSi | ConvertOp::FpToUi => from.is_float() && to.is_int(),
                    ConvertOp::Bitcast => from.bits() == to.bits() && from != Type::I1,
                    ConvertOp::FpExt => from.is_float() && to.is_float() && from.bits() < to.bits(),
                    ConvertOp::FpTrunc => {
                        from.is_float() && to.is_float() && from.bits() > to.bits()
                    }
                };
                if !ok {
                    return Err(e(format!("{} cannot convert {from} to {to}", op.name())));
                }
                want_result(*to)?;
            }
            InstKind::PtrAdd { base, offset } => {
                if !ty(*base).is_ptr() {
                    return Err(e(format!("ptr_add base is {}, not a pointer", ty(*base))));
                }
                if !matches!(ty(*offset), Type::I32 | Type::I64) {
                    return Err(e(format!(
                        "ptr_add offset is {}, not i32 or i64",
                        ty(*offset)
                    )));
                }
                want_result(ty(*base))?;
            }
            InstKind::Load { ty: t, addr } => {
                if !ty(*addr).is_ptr() {
                    return Err(e("load address is not a pointer".into()));
                }
                if *t == Type::I1 {
                    return Err(e("i1 is not a memory type".into()));
                }
                want_result(*t)?;
            }
            InstKind::Store { addr, value } => {
                if !ty(*addr).is_ptr() {
                    return Err(e("store address is not a pointer".into()));
                }
                if matches!(ty(*addr), Type::Ptr(AddrSpace::Constant)) {
                    return Err(e("store to __constant memory".into()));
                }
                if ty(*value) == Type::I1 {
                    return Err(e("i1 is not a memory type".into()));
                }
                if result.is_some() {
                    return Err(e("store has no result".into()));
                }
            }
            InstKind::Atomic { addr, value, .. } => {
                if !matches!(ty(*addr), Type::Ptr(AddrSpace::Global | AddrSpace::Local)) {
                    return Err(e("atomics need a global or local pointer".into()));
                }
                if !matches!(ty(*value), Type::I32 | Type::I64) {
                    return Err(e("atomics are on i32 or i64".into()));
                }
                want_result(ty(*value))?;
            }
            InstKind::AtomicCas { addr, cmp, value } => {
                if !matches!(ty(*addr), Type::Ptr(AddrSpace::Global | AddrSpace::Local)) {
                    return Err(e("atomics need a global or local pointer".into()));
                }
                if !matches!(ty(*value), Type::I32 | Type::I64) || ty(*cmp) != ty(*value) {
                    return Err(e("atomics are on i32 or i64".into()));
                }
                want_result(ty(*value))?;
            }
            InstKind::Barrier | InstKind::Fence | InstKind::Return => {
                if result.is_some() {
                    return Err(e("no result expected".into()));
                }
            }
            InstKind::WorkItem { dim, .. } => {
                if *dim > 2 {
                    return Err(e(format!("dimension {dim} is not 0, 1 or 2")));
                }
                want_result(Type::I32)?;
            }
            InstKind::KernelArg { index } => {
                let Some(p) = f.params.get(*index as usize) else {
                    return Err(e(format!("the kernel has no parameter {index}")));
                };
                want_result(p.ty)?;
            }
            InstKind::PrivateAddr { offset } => {
                if *offset >= f.private_size {
                    return Err(e(format!(
                        "private offset {offset} beyond the {} bytes reserved",
                        f.private_size
                    )));
                }
                want_result(Type::Ptr(AddrSpace::Private))?;
            }
            InstKind::DataAddr { index } => {
                let Some(d) = f.data.get(*index as usize) else {
                    return Err(e(format!("no data object {index}")));
                };
                want_result(Type::Ptr(if d.writable {
                    AddrSpace::Global
                } else {
                    AddrSpace::Constant
                }))?;
            }
            InstKind::LocalAddr { var } => {
                if var.index() >= f.locals.len() {
                    return Err(e(format!("no local variable {var}")));
                }
                want_result(Type::Ptr(AddrSpace::Local))?;
            }
            InstKind::Call { builtin, args } => {
                if args.len() != builtin.arity() {
                    return Err(e(format!(
                        "{} takes {} arguments",
                        builtin.name(),
                        builtin.arity()
                    )));
                }
                for (&v, &want) in args.iter().zip(builtin.arg_types()) {
                    if ty(v) != want {
                        return Err(e(format!("{} takes {want} arguments", builtin.name())));
                    }
                }
                want_result(builtin.result_type())?;
            }
            InstKind::Jump { dest } => self.block_call(b, i, dest)?,
            InstKind::Brif {
                cond,
                then_dest,
                else_dest,
            } => {
                if ty(*cond) != Type::I1 {
                    return Err(e(format!("brif condition is {}, not i1", ty(*cond))));
                }
                self.block_call(b, i, then_dest)?;
                self.block_call(b, i, else_dest)?;
            }
        }
        Ok(())
    }

    fn block_call(&self, b: Block, i: Inst, c: &BlockCall) -> Result<(), VerifyError> {
        if c.block.index() >= self.f.block_count() || !self.f.blocks().contains(&c.block) {
            return Err(self.err(b, Some(i), format!("branch to unknown {}", c.block)));
        }
        if Some(c.block) == self.f.entry() {
            return Err(self.err(b, Some(i), "branch to the entry block"));
        }
        let params = &self.f.block(c.block).params;
        if params.len() != c.args.len() {
            return Err(self.err(
                b,
                Some(i),
                format!(
                    "{} takes {} arguments, {} given",
                    c.block,
                    params.len(),
                    c.args.len()
                ),
            ));
        }
        for (p, a) in params.iter().zip(&c.args) {
            if self.f.ty(*p) != self.f.ty(*a) {
                return Err(self.err(
                    b,
                    Some(i),
                    format!(
                        "argument {a} is {}, parameter {p} is {}",
                        self.f.ty(*a),
                        self.f.ty(*p)
                    ),
                ));
            }
        }
        Ok(())
    }
}
