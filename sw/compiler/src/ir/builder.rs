//! A builder that appends instructions at the end of a current block and
//! infers result types — what the AST→IR lowering and the tests use.
//!
//! ```
//! use compiler::ir::{AddrSpace, Builder, Function, IntCC, Type, WorkItemQuery};
//! let mut f = Function::new("k");
//! f.add_param("out", Type::Ptr(AddrSpace::Global), "int*");
//! let mut b = Builder::new(&mut f);
//! let out = b.kernel_arg(0);
//! let id = b.work_item(WorkItemQuery::GlobalId, 0);
//! let four = b.iconst(Type::I32, 4);
//! let off = b.imul(id, four);
//! let p = b.ptr_add(out, off);
//! b.store(p, id);
//! b.ret();
//! compiler::ir::verify(&f).unwrap();
//! ```

use super::entities::{Block, LocalVar, Value};
use super::function::Function;
use super::instructions::*;
use super::types::Type;

/// Appends instructions to a current block of a [`Function`].
pub struct Builder<'f> {
    /// The function being built.
    pub func: &'f mut Function,
    block: Block,
}

impl<'f> Builder<'f> {
    /// A builder positioned at the end of the entry block (created if absent).
    pub fn new(func: &'f mut Function) -> Builder<'f> {
        let block = match func.entry() {
            Some(b) => b,
            None => func.create_block(),
        };
        Builder { func, block }
    }

    /// The current block.
    pub fn current_block(&self) -> Block {
        self.block
    }

    /// Creates a block (not switched to).
    pub fn create_block(&mut self) -> Block {
        self.func.create_block()
    }

    /// Adds a parameter to `block`.
    pub fn block_param(&mut self, block: Block, ty: Type) -> Value {
        self.func.append_block_param(block, ty)
    }

    /// Continues appending at the end of `block`.
    pub fn switch_to(&mut self, block: Block) {
        self.block = block;
    }

    fn push(&mut self, kind: InstKind, ty: Type) -> Value {
        self.func
            .append_inst(self.block, kind, Some(ty))
            .1
            .expect("a result type was given")
    }

    fn push_void(&mut self, kind: InstKind) {
        self.func.append_inst(self.block, kind, None);
    }

    /// An integer constant of type `ty`.
    pub fn iconst(&mut self, ty: Type, imm: i64) -> Value {
        self.push(InstKind::Iconst { ty, imm }, ty)
    }

    /// An `f32` constant.
    pub fn f32const(&mut self, x: f32) -> Value {
        self.push(
            InstKind::Fconst {
                ty: Type::F32,
                bits: u64::from(x.to_bits()),
            },
            Type::F32,
        )
    }

    /// An `f64` constant.
    pub fn f64const(&mut self, x: f64) -> Value {
        self.push(
            InstKind::Fconst {
                ty: Type::F64,
                bits: x.to_bits(),
            },
            Type::F64,
        )
    }

    /// An `f16` constant (its bits).
    pub fn f16const(&mut self, bits: u16) -> Value {
        self.push(
            InstKind::Fconst {
                ty: Type::F16,
                bits: u64::from(bits),
            },
            Type::F16,
        )
    }

    /// A float constant of type `ty` with the value `x` rounded to it
    /// (to nearest even).
    pub fn fconst(&mut self, ty: Type, x: f64) -> Value {
        match ty {
            Type::F64 => self.f64const(x),
            Type::F16 => self.f16const(super::half::f64_to_f16_bits(x)),
            _ => self.f32const(x as f32),
        }
    }

    /// `op a, b` (result of `a`'s type).
    pub fn binary(&mut self, op: BinaryOp, a: Value, b: Value) -> Value {
        let ty = self.func.ty(a);
        self.push(InstKind::Binary { op, args: [a, b] }, ty)
    }

    /// `a + b`.
    pub fn iadd(&mut self, a: Value, b: Value) -> Value {
        self.binary(BinaryOp::Iadd, a, b)
    }

    /// `a - b`.
    pub fn isub(&mut self, a: Value, b: Value) -> Value {
        self.binary(BinaryOp::Isub, a, b)
    }

    /// `a * b`.
    pub fn imul(&mut self, a: Value, b: Value) -> Value {
        self.binary(BinaryOp::Imul, a, b)
    }

    /// `a << b`.
    pub fn shl(&mut self, a: Value, b: Value) -> Value {
        self.binary(BinaryOp::Shl, a, b)
    }

    /// `op a`.
    pub fn unary(&mut self, op: UnaryOp, a: Value) -> Value {
        let ty = self.func.ty(a);
        self.push(InstKind::Unary { op, arg: a }, ty)
    }

    /// `op a, b, c` (result of `a`'s type).
    pub fn ternary(&mut self, op: TernaryOp, a: Value, b: Value, c: Value) -> Value {
        let ty = self.func.ty(a);
        self.push(
            InstKind::Ternary {
                op,
                args: [a, b, c],
            },
            ty,
        )
    }

    /// Integer comparison.
    pub fn icmp(&mut self, cond: IntCC, a: Value, b: Value) -> Value {
        self.push(InstKind::Icmp { cond, args: [a, b] }, Type::I1)
    }

    /// Float comparison.
    pub fn fcmp(&mut self, cond: FloatCC, a: Value, b: Value) -> Value {
        self.push(InstKind::Fcmp { cond, args: [a, b] }, Type::I1)
    }

    /// `cond ? t : f`. A condition that is not `i1` is compared with zero
    /// first (`cond != 0`), as OpenCL's `?:` and seed 004 (§4, step 402) do.
    pub fn select(&mut self, cond: Value, t: Value, f: Value) -> Value {
        let cond = self.truth(cond);
        let ty = self.func.ty(t);
        self.push(InstKind::Select { cond, args: [t, f] }, ty)
    }

    /// `v` as an `i1`: itself if it is one, else `v != 0`.
    pub fn truth(&mut self, v: Value) -> Value {
        let ty = self.func.ty(v);
        if ty == Type::I1 {
            return v;
        }
        let zero = self.iconst(ty, 0);
        self.icmp(IntCC::Ne, v, zero)
    }

    /// A conversion.
    pub fn convert(&mut self, op: ConvertOp, arg: Value, to: Type) -> Value {
        self.push(InstKind::Convert { op, arg, to }, to)
    }

    /// `base + offset` bytes.
    pub fn ptr_add(&mut self, base: Value, offset: Value) -> Value {
        let ty = self.func.ty(base);
        self.push(InstKind::PtrAdd { base, offset }, ty)
    }

    /// Loads a `ty`.
    pub fn load(&mut self, ty: Type, addr: Value) -> Value {
        self.push(InstKind::Load { ty, addr }, ty)
    }

    /// A device-scope acquire-release fence.
    pub fn fence(&mut self) {
        self.push_void(InstKind::Fence)
    }

    /// Atomic compare-and-swap, returning the old value.
    pub fn atomic_cas(&mut self, addr: Value, cmp: Value, value: Value) -> Value {
        let ty = self.func.ty(value);
        self.push(InstKind::AtomicCas { addr, cmp, value }, ty)
    }

    /// Stores `value` at `addr`.
    pub fn store(&mut self, addr: Value, value: Value) {
        self.push_void(InstKind::Store { addr, value })
    }

    /// Atomic read-modify-write, returning the old value.
    pub fn atomic(&mut self, op: AtomicOp, addr: Value, value: Value) -> Value {
        let ty = self.func.ty(value);
        self.push(InstKind::Atomic { op, addr, value }, ty)
    }

    /// Workgroup barrier.
    pub fn barrier(&mut self) {
        self.push_void(InstKind::Barrier)
    }

    /// A work-item geometry query.
    pub fn work_item(&mut self, query: WorkItemQuery, dim: u8) -> Value {
        self.push(InstKind::WorkItem { query, dim }, Type::I32)
    }

    /// The value of kernel parameter `index`.
    pub fn kernel_arg(&mut self, index: u32) -> Value {
        let ty = self.func.params[index as usize].ty;
        self.push(InstKind::KernelArg { index }, ty)
    }

    /// The LDS address of `var`.
    pub fn local_addr(&mut self, var: LocalVar) -> Value {
        self.push(
            InstKind::LocalAddr { var },
            Type::Ptr(super::AddrSpace::Local),
        )
    }

    /// The address of private memory at `offset`.
    pub fn private_addr(&mut self, offset: u32) -> Value {
        self.push(
            InstKind::PrivateAddr { offset },
            Type::Ptr(super::AddrSpace::Private),
        )
    }

    /// The address of program-scope data object `index`.
    pub fn data_addr(&mut self, index: u32) -> Value {
        let space = if self.func.data[index as usize].writable {
            super::AddrSpace::Global
        } else {
            super::AddrSpace::Constant
        };
        self.push(InstKind::DataAddr { index }, Type::Ptr(space))
    }

    /// A built-in call.
    pub fn call(&mut self, builtin: Builtin, args: &[Value]) -> Value {
        let ty = builtin.result_type();
        self.push(
            InstKind::Call {
                builtin,
                args: args.to_vec(),
            },
            ty,
        )
    }

    /// Jumps to `block` passing `args`.
    pub fn jump(&mut self, block: Block, args: &[Value]) {
        self.push_void(InstKind::Jump {
            dest: BlockCall {
                block,
                args: args.to_vec(),
            },
        })
    }

    /// Branches on `cond` (compared with zero if not `i1`).
    pub fn brif(
        &mut self,
        cond: Value,
        then_block: Block,
        then_args: &[Value],
        else_block: Block,
        else_args: &[Value],
    ) {
        let cond = self.truth(cond);
        self.push_void(InstKind::Brif {
            cond,
            then_dest: BlockCall {
                block: then_block,
                args: then_args.to_vec(),
            },
            else_dest: BlockCall {
                block: else_block,
                args: else_args.to_vec(),
            },
        })
    }

    /// Ends the kernel.
    pub fn ret(&mut self) {
        self.push_void(InstKind::Return)
    }
}
