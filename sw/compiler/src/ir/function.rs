//! A kernel in SSA form: arenas of values, instructions and blocks, plus the
//! layout (block order, instruction order within a block). Blocks take
//! parameters instead of phi nodes (cranelift's choice): a branch passes one
//! value per parameter.

use super::entities::{Block, Inst, LocalVar, Value};
use super::instructions::InstKind;
use super::types::{AddrSpace, Type};

/// How a kernel parameter is passed (and described in the metadata note).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A scalar passed by value.
    ByValue,
    /// A `__global`/`__constant` pointer (`global_buffer`).
    GlobalBuffer,
    /// A `__local` pointer whose LDS the launcher sizes (`dynamic_shared_pointer`).
    LocalBuffer,
    /// The hidden printf buffer (`hidden_printf_buffer`, a global pointer at
    /// implicit-argument offset 72): not an OpenCL parameter; the lowering
    /// adds it when the kernel calls `printf`.
    PrintfBuffer,
    /// A vector or struct passed by value (`by_value` of `size` bytes at an
    /// offset aligned to `align`). Its [`InstKind::KernelArg`] is a
    /// `ptr.constant` to the bytes in the kernarg segment; the lowering
    /// loads the components from there (clang reads them with `s_load`).
    Aggregate {
        /// Bytes (the OpenCL type's `sizeof`).
        size: u32,
        /// Alignment in bytes.
        align: u32,
    },
}

/// A kernel parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name in the source (metadata `.name`).
    pub name: String,
    /// The IR type ([`Type::Ptr`] for buffers).
    pub ty: Type,
    /// How it is passed.
    pub kind: ParamKind,
    /// The OpenCL type name for the metadata (`int*`, `float`, ...).
    pub type_name: String,
    /// For a `__local` pointer: its pointee type's alignment (metadata
    /// `.pointee_align`, where the driver places the LDS it passes); 0 when
    /// not known.
    pub pointee_align: u32,
    /// For a pointer: its type qualifiers as the metadata reports them
    /// (`.is_const`, `.is_volatile`, `.is_restrict`; what
    /// `clGetKernelArgInfo` answers).
    pub qualifiers: ArgQualifiers,
}

/// A pointer parameter's qualifiers: `const`/`volatile` of the pointee
/// (`__constant` counts as `const`), `restrict` of the pointer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ArgQualifiers {
    /// The pointee is `const`, or the pointer is `__constant`.
    pub is_const: bool,
    /// The pointee is `volatile`.
    pub is_volatile: bool,
    /// The pointer is `restrict`.
    pub is_restrict: bool,
}

/// Where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// The result of an instruction.
    Inst(Inst),
    /// Parameter `index` of a block.
    Param(Block, u32),
}

/// One SSA value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueData {
    /// Its type.
    pub ty: Type,
    /// Its definition.
    pub def: ValueDef,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct InstData {
    /// What it does.
    pub kind: InstKind,
    /// Its result, if it has one.
    pub result: Option<Value>,
    /// The block it is laid out in (`None` once removed).
    pub block: Option<Block>,
}

/// One basic block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockData {
    /// Its parameters.
    pub params: Vec<Value>,
    /// Its instructions in order; the last is the terminator.
    pub insts: Vec<Inst>,
}

/// A statically sized `__local` variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalVarData {
    /// Bytes.
    pub size: u32,
    /// Alignment in bytes (a power of two).
    pub align: u32,
}

/// A program-scope variable's bytes (`__constant float w[5] = {…};`),
/// placed in the code object's `.rodata` (read-only) or `.data` (a
/// writable `__global` variable of OpenCL 2.0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataObject {
    /// Its symbol (the variable's name; shared by every kernel of the
    /// program that uses it).
    pub name: String,
    /// Its initial bytes (zero where not initialised).
    pub bytes: Vec<u8>,
    /// Alignment in bytes (a power of two).
    pub align: u32,
    /// A writable `__global` variable (else read-only).
    pub writable: bool,
}

/// A kernel.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Function {
    /// The kernel's name (its symbol).
    pub name: String,
    /// Its parameters, in order.
    pub params: Vec<Param>,
    /// Statically allocated LDS variables.
    pub locals: Vec<LocalVarData>,
    /// Bytes of private (scratch) memory per work-item for variables kept
    /// in memory (private arrays, variables whose address is taken); each
    /// is reached through [`InstKind::PrivateAddr`](super::InstKind::PrivateAddr).
    pub private_size: u32,
    /// Required workgroup size (`reqd_work_group_size`), if declared.
    pub reqd_workgroup_size: Option<[u32; 3]>,
    /// `work_group_size_hint`, if declared (metadata only).
    pub workgroup_size_hint: Option<[u32; 3]>,
    /// `vec_type_hint`, if declared (metadata only).
    pub vec_type_hint: Option<String>,
    /// `#pragma unroll` requests by loop header: `None` to unroll fully,
    /// `Some(n)` for `n` copies of the body (`Some(1)`: `nounroll`).
    pub unroll_hints: Vec<(Block, Option<u32>)>,
    /// Program-scope variables the kernel reads or writes, reached through
    /// [`InstKind::DataAddr`](super::InstKind::DataAddr).
    pub data: Vec<DataObject>,
    values: Vec<ValueData>,
    insts: Vec<InstData>,
    blocks: Vec<BlockData>,
    /// Block order; the first is the entry.
    layout: Vec<Block>,
    /// `amdhsa.printf` entries of the `printf` calls this kernel makes
    /// (`lower/printf.rs`); non-empty exactly when it has a
    /// [`ParamKind::PrintfBuffer`] parameter.
    pub printf: Vec<String>,
}

impl Function {
    /// An empty kernel called `name`.
    pub fn new(name: impl Into<String>) -> Function {
        Function {
            name: name.into(),
            ..Default::default()
        }
    }

    /// Adds a kernel parameter; returns its index.
    pub fn add_param(&mut self, name: &str, ty: Type, type_name: &str) -> u32 {
        let kind = match ty {
            Type::Ptr(AddrSpace::Global | AddrSpace::Constant) => ParamKind::GlobalBuffer,
            Type::Ptr(AddrSpace::Local) => ParamKind::LocalBuffer,
            _ => ParamKind::ByValue,
        };
        self.params.push(Param {
            name: name.into(),
            ty,
            kind,
            type_name: type_name.into(),
            pointee_align: 0,
            qualifiers: ArgQualifiers::default(),
        });
        self.params.len() as u32 - 1
    }

    /// The index of the hidden printf-buffer parameter, if any.
    pub fn printf_param(&self) -> Option<u32> {
        self.params
            .iter()
            .position(|p| p.kind == ParamKind::PrintfBuffer)
            .map(|i| i as u32)
    }

    /// Adds the hidden printf-buffer parameter (a global pointer the
    /// driver passes as `hidden_printf_buffer`); returns its index.
    pub fn add_printf_param(&mut self) -> u32 {
        self.params.push(Param {
            name: "__printf_buffer".into(),
            ty: Type::Ptr(AddrSpace::Global),
            kind: ParamKind::PrintfBuffer,
            type_name: "char*".into(),
            pointee_align: 0,
            qualifiers: ArgQualifiers::default(),
        });
        self.params.len() as u32 - 1
    }

    /// Adds a by-value vector or struct parameter of `size` bytes aligned
    /// to `align` (see [`ParamKind::Aggregate`]); returns its index.
    pub fn add_aggregate_param(
        &mut self,
        name: &str,
        size: u32,
        align: u32,
        type_name: &str,
    ) -> u32 {
        self.params.push(Param {
            name: name.into(),
            ty: Type::Ptr(AddrSpace::Constant),
            kind: ParamKind::Aggregate {
                size,
                align: align.max(1),
            },
            type_name: type_name.into(),
            pointee_align: 0,
            qualifiers: ArgQualifiers::default(),
        });
        self.params.len() as u32 - 1
    }

    /// Declares a `__local` variable.
    pub fn add_local(&mut self, size: u32, align: u32) -> LocalVar {
        self.locals.push(LocalVarData { size, align });
        LocalVar(self.locals.len() as u32 - 1)
    }

    /// Reserves `size` bytes of private memory aligned to `align` (a power
    /// of two); returns their offset in the work-item's private segment.
    pub fn add_private(&mut self, size: u32, align: u32) -> u32 {
        let align = align.max(1);
        let offset = self.private_size.div_ceil(align) * align;
        self.private_size = offset + size;
        offset
    }

    /// The `#pragma unroll` request of the loop headed by `header`:
    /// `None` without one, `Some(None)` to unroll fully, `Some(Some(n))`.
    pub fn unroll_hint(&self, header: Block) -> Option<Option<u32>> {
        self.unroll_hints
            .iter()
            .find(|(h, _)| *h == header)
            .map(|&(_, n)| n)
    }

    /// Removes parameter `index` of `block` (its uses and the matching
    /// branch arguments must be gone already); the later parameters move
    /// down one place.
    pub fn remove_block_param(&mut self, block: Block, index: usize) {
        let params = &mut self.blocks[block.index()].params;
        params.remove(index);
        for (j, &p) in params.iter().enumerate().skip(index) {
            self.values[p.index()].def = ValueDef::Param(block, j as u32);
        }
    }

    /// Creates a block and appends it to the layout.
    pub fn create_block(&mut self) -> Block {
        let b = Block(self.blocks.len() as u32);
        self.blocks.push(BlockData::default());
        self.layout.push(b);
        b
    }

    /// Adds a parameter of type `ty` to `block`.
    pub fn append_block_param(&mut self, block: Block, ty: Type) -> Value {
        let index = self.blocks[block.index()].params.len() as u32;
        let v = self.make_value(ty, ValueDef::Param(block, index));
        self.blocks[block.index()].params.push(v);
        v
    }

    fn make_value(&mut self, ty: Type, def: ValueDef) -> Value {
        self.values.push(ValueData { ty, def });
        Value(self.values.len() as u32 - 1)
    }

    /// Appends an instruction to `block`, with a result of `result_ty` if given.
    pub fn append_inst(
        &mut self,
        block: Block,
        kind: InstKind,
        result_ty: Option<Type>,
    ) -> (Inst, Option<Value>) {
        let inst = Inst(self.insts.len() as u32);
        let result = result_ty.map(|ty| self.make_value(ty, ValueDef::Inst(inst)));
        self.insts.push(InstData {
            kind,
            result,
            block: Some(block),
        });
        self.blocks[block.index()].insts.push(inst);
        (inst, result)
    }

    /// The instruction list of `b`, for passes that reorder (the caller keeps
    /// each instruction's `block` field in step).
    pub fn block_insts_mut(&mut self, b: Block) -> &mut Vec<Inst> {
        &mut self.blocks[b.index()].insts
    }

    /// Moves `inst` (already in `before`'s block) to just before `before`.
    pub fn move_before(&mut self, inst: Inst, before: Inst) {
        let b = self.insts[before.index()].block.expect("placed");
        let list = &mut self.blocks[b.index()].insts;
        list.retain(|&i| i != inst);
        let at = list
            .iter()
            .position(|&i| i == before)
            .expect("in its block");
        list.insert(at, inst);
        self.insts[inst.index()].block = Some(b);
    }

    /// Removes block `b` and its instructions from the layout (nothing may
    /// branch to it any more).
    pub fn remove_block(&mut self, b: Block) {
        self.layout.retain(|&x| x != b);
        for i in std::mem::take(&mut self.blocks[b.index()].insts) {
            self.insts[i.index()].block = None;
        }
    }

    /// Removes `inst` from the layout (its result must be unused).
    pub fn remove_inst(&mut self, inst: Inst) {
        if let Some(b) = self.insts[inst.index()].block.take() {
            self.blocks[b.index()].insts.retain(|&i| i != inst);
        }
    }

    /// The entry block.
    pub fn entry(&self) -> Option<Block> {
        self.layout.first().copied()
    }

    /// Blocks in layout order.
    pub fn blocks(&self) -> &[Block] {
        &self.layout
    }

    /// Number of blocks ever created (arena size).
    pub fn block_count(&self) -> usize {
        self.blocks.len()
    }

    /// Number of values ever created (arena size).
    pub fn value_count(&self) -> usize {
        self.values.len()
    }

    /// Number of instructions ever created (arena size).
    pub fn inst_count(&self) -> usize {
        self.insts.len()
    }

    /// A block's data.
    pub fn block(&self, b: Block) -> &BlockData {
        &self.blocks[b.index()]
    }

    /// An instruction's data.
    pub fn inst(&self, i: Inst) -> &InstData {
        &self.insts[i.index()]
    }

    /// An instruction's data, mutably (passes rewrite operands in place).
    pub fn inst_mut(&mut self, i: Inst) -> &mut InstData {
        &mut self.insts[i.index()]
    }

    /// A value's data.
    pub fn value(&self, v: Value) -> ValueData {
        self.values[v.index()]
    }

    /// A value's type.
    pub fn ty(&self, v: Value) -> Type {
        self.values[v.index()].ty
    }

    /// True if `v` indexes the value arena (the verifier checks operands with it).
    pub fn is_valid_value(&self, v: Value) -> bool {
        v.index() < self.values.len()
    }

    /// The defining instruction of `v`, if it is an instruction result.
    pub fn def_inst(&self, v: Value) -> Option<&InstKind> {
        match self.values[v.index()].def {
            ValueDef::Inst(i) => Some(&self.insts[i.index()].kind),
            ValueDef::Param(..) => None,
        }
    }

    /// The last instruction of `b` if it is a terminator.
    pub fn terminator(&self, b: Block) -> Option<&InstKind> {
        let last = *self.blocks[b.index()].insts.last()?;
        let k = &self.insts[last.index()].kind;
        k.is_terminator().then_some(k)
    }

    /// Successor blocks of `b`.
    pub fn successors(&self, b: Block) -> Vec<Block> {
        self.terminator(b)
            .map(|t| t.successors())
            .unwrap_or_default()
    }

    /// Predecessors of every block (indexed by block), in layout order.
    pub fn predecessors(&self) -> Vec<Vec<Block>> {
        let mut preds = vec![Vec::new(); self.blocks.len()];
        for &b in &self.layout {
            for s in self.successors(b) {
                if !preds[s.index()].contains(&b) {
                    preds[s.index()].push(b);
                }
            }
        }
        preds
    }

    /// How many times each value is used as an operand (indexed by value).
    pub fn use_counts(&self) -> Vec<u32> {
        let mut n = vec![0u32; self.values.len()];
        for &b in &self.layout {
            for &i in &self.blocks[b.index()].insts {
                self.insts[i.index()]
                    .kind
                    .for_each_operand(|v| n[v.index()] += 1);
            }
        }
        n
    }

    /// If `v` is an integer constant, its value.
    pub fn iconst_value(&self, v: Value) -> Option<i64> {
        match self.def_inst(v)? {
            InstKind::Iconst { imm, .. } => Some(*imm),
            _ => None,
        }
    }
}
