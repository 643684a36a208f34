//! Translation of a block into Cranelift IR: the plan (which instructions
//! are native, what the block addresses) and the function's skeleton —
//! entry, one straight-line body, exits, the self-loop of chaining. The
//! instructions themselves are in `scalar.rs` and `vector.rs`.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I32X4, I64, I8};
use cranelift_codegen::ir::{
    AbiParam, ConstantData, InstBuilder, MemFlags, SigRef, Signature, StackSlot, StackSlotData,
    StackSlotKind, Type, Value,
};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::JITModule;
use cranelift_module::Module;

use super::helpers::{self, off};
use super::Code;
use crate::exec::lowered::scalar::{Salu, S32, S64};
use crate::exec::lowered::{Lowered, Op, Src};
use crate::program::Decoded;
use crate::wave::{NULL, VCC_LO};
use arch::isa::Operand;

#[path = "scalar.rs"]
mod scalar;
#[path = "vector.rs"]
mod vector;

/// What the code of a block will be: which instructions are native.
pub(super) struct Plan<'a> {
    pub insts: &'a [Decoded],
    pub pcs: &'a [u64],
    pub wave64: bool,
    pub mode: u32,
    pub has_fma: bool,
    /// Per instruction: emitted as native code (else an interpreter call).
    pub native: Vec<bool>,
    /// VGPRs the native code addresses.
    pub vgprs_needed: usize,
}

/// A 32-bit scalar source the native code reads: an SGPR or a constant.
fn s32_ok(s: &S32) -> bool {
    matches!(s, S32::Reg(_) | S32::Imm(_))
}

/// A 64-bit vector-instruction source the native code reads: a VGPR pair
/// (`None` inside), an SGPR pair or an integer constant, as
/// `Wave::read_scalar64` reads them (`Some(None)`: not native).
pub(super) fn scalar64(s: &Src) -> Option<Option<S64>> {
    match *s {
        Src::Vgpr(_) => Some(None),
        Src::Scalar(Operand::Src { code, .. }) => match code {
            NULL => Some(Some(S64::Imm(0))),
            0..=126 => Some(Some(S64::Pair(code as u8))),
            128..=192 => Some(Some(S64::Imm(u64::from(code) - 128))),
            193..=208 => Some(Some(S64::Imm((192 - i64::from(code)) as u64))),
            _ => None,
        },
        _ => None,
    }
}

/// A 64-bit scalar source the native code reads.
fn s64_ok(s: &S64) -> bool {
    matches!(s, S64::Pair(_) | S64::Imm(_))
}

/// A vector-instruction source the native code reads.
fn src_ok(s: &Src) -> bool {
    matches!(s, Src::Vgpr(_) | Src::Sgpr(_) | Src::Imm(_))
}

/// A scalar destination the native code writes (`null` drops the write).
fn dst_ok(op: &Operand, wide: bool) -> bool {
    matches!(*op, Operand::Src { code, .. } if code == NULL || code < if wide { 127 } else { 128 })
}

/// A lane-mask source read natively: an SGPR (pair) or `null`.
fn mask_src_ok(op: &Operand, wave64: bool) -> bool {
    dst_ok(op, wave64)
}

/// A lane-mask destination written natively (as the lowering allows).
fn mask_dst_ok(op: &Operand) -> bool {
    matches!(*op, Operand::Src { code, .. } if code <= VCC_LO || code == NULL)
}

/// Sources a [`Lowered::Map`] operation reads.
pub(super) fn arity(op: Op) -> usize {
    use Op::*;
    match op {
        Mov | Not | CvtF32I32 | CvtF32U32 | CvtI32F32 | CvtU32F32 | Unary(_) => 1,
        LshlAdd | AddLshl | Add3 | LshlOr | AndOr | Or3 | Xor3 | Xad | AlignBit | Bfi | FmaF32
        | MadF32 | BfeU32 | BfeI32 | MadU24 | MadI24 => 3,
        _ => 2,
    }
}

impl<'a> Plan<'a> {
    /// The plan for `insts` at `pcs` in a wave of that size and MODE.
    pub fn new(
        insts: &'a [Decoded],
        pcs: &'a [u64],
        wave64: bool,
        mode: u32,
        has_fma: bool,
    ) -> Plan<'a> {
        let mut vgprs = 0usize;
        let mut need = |s: &Src| {
            if let Src::Vgpr(v) = s {
                vgprs = vgprs.max(usize::from(*v) + 1);
            }
        };
        let native = insts
            .iter()
            .enumerate()
            .map(|(k, d)| {
                let ok = supported(&d.lowered, wave64, k + 1 == insts.len(), mode, has_fma);
                if ok {
                    match &d.lowered {
                        Lowered::Map { d, s, op } => {
                            need(&Src::Vgpr(*d));
                            s[..arity(*op)].iter().for_each(&mut need);
                        }
                        Lowered::Carry { d, a, b, .. } | Lowered::Cndmask { d, a, b, .. } => {
                            need(&Src::Vgpr(*d));
                            need(a);
                            need(b);
                        }
                        Lowered::Cmp { a, b, .. } => {
                            need(a);
                            need(b);
                        }
                        Lowered::ReadLane { src, .. } => need(&Src::Vgpr(*src)),
                        // The pairs: both registers.
                        Lowered::Lshl64 { d, b, .. } => {
                            need(&Src::Vgpr(*d + 1));
                            if let Src::Vgpr(r) = b {
                                need(&Src::Vgpr(*r + 1));
                            }
                        }
                        Lowered::MadU64 { d, a, b, c, .. } => {
                            need(&Src::Vgpr(*d + 1));
                            need(a);
                            need(b);
                            if let Src::Vgpr(r) = c {
                                need(&Src::Vgpr(*r + 1));
                            }
                        }
                        _ => {}
                    }
                }
                ok
            })
            .collect();
        Plan {
            insts,
            pcs,
            wave64,
            mode,
            has_fma,
            native,
            vgprs_needed: vgprs,
        }
    }
}

/// True when the host computes `op` itself in a block compiled for `mode`
/// (else every group of lanes would call the interpreter's generic lane
/// function, which costs more per lane than the interpreter's own loop,
/// monomorphised per operation: such an instruction is one interpreter call
/// for the whole wave instead).
fn host_computes(op: Op, mode: u32, has_fma: bool) -> bool {
    let nearest = crate::fp::Mode::from_register(mode).f32.round == crate::fp::Round::NearestEven;
    match op {
        Op::MinF32
        | Op::MaxF32
        | Op::LdexpF32
        | Op::Unary(_)
        | Op::MadF32
        | Op::BfeU32
        | Op::BfeI32
        | Op::CvtF32U32
        | Op::CvtU32F32 => false,
        Op::AddF32 | Op::SubF32 | Op::SubrevF32 | Op::MulF32 | Op::CvtF32I32 => nearest,
        Op::FmaF32 => nearest && has_fma,
        _ => true,
    }
}

/// True when the native code handles `l` (`last`: it ends the block).
fn supported(l: &Lowered, wave64: bool, last: bool, mode: u32, has_fma: bool) -> bool {
    use arch::isa::Opcode::*;
    match l {
        Lowered::Scalar(s) => match s {
            Salu::Op32 { d, a, b, .. } => s32_ok(a) && s32_ok(b) && dst_ok(d, false),
            Salu::Op64 { op, d, a, b, b32 } => {
                let shift = matches!(op, S_LSHL_B64 | S_LSHR_B64);
                s64_ok(a) && if shift { s32_ok(b32) } else { s64_ok(b) } && dst_ok(d, true)
            }
            Salu::Mov { wide, d, a, a64 }
            | Salu::SaveExec {
                wide, d, a, a64, ..
            } => dst_ok(d, *wide) && if *wide { s64_ok(a64) } else { s32_ok(a) },
            Salu::Cmp { op, a, b, a64, b64 } => {
                if matches!(op, S_CMP_EQ_U64 | S_CMP_LG_U64) {
                    s64_ok(a64) && s64_ok(b64)
                } else {
                    s32_ok(a) && s32_ok(b)
                }
            }
            Salu::Nop => true,
            Salu::Branch { .. } => last,
            Salu::Count { .. } => false,
        },
        Lowered::Map { op, s, .. } => {
            host_computes(*op, mode, has_fma) && s[..arity(*op)].iter().all(src_ok)
        }
        Lowered::Carry {
            a, b, cin, cout, ..
        } => {
            src_ok(a)
                && src_ok(b)
                && cin.as_ref().map_or(true, |c| mask_src_ok(c, wave64))
                && mask_dst_ok(cout)
        }
        Lowered::Cndmask { a, b, cond, .. } => src_ok(a) && src_ok(b) && mask_src_ok(cond, wave64),
        // `f32` compares with flushed denormal inputs would call the
        // interpreter's compare group by group: one call for the wave instead.
        Lowered::Cmp { a, b, dst, ty, .. } => {
            (*ty != crate::exec::vop::vopc::Ty32::F32
                || crate::fp::Mode::from_register(mode).f32.denorm_in)
                && src_ok(a)
                && src_ok(b)
                && dst.as_ref().map_or(true, mask_dst_ok)
        }
        Lowered::ReadLane { sel, .. } => matches!(sel, Src::Sgpr(_) | Src::Imm(_)),
        // `v_lshlrev_b64` by a constant (address arithmetic: `<< 2`, `<< 3`)
        // of a VGPR pair; other amounts go lane by lane in the interpreter.
        Lowered::Lshl64 { a, b, .. } => matches!(a, Src::Imm(_)) && matches!(b, Src::Vgpr(_)),
        Lowered::MadU64 { a, b, c, cout, .. } => {
            src_ok(a) && src_ok(b) && scalar64(c).is_some() && mask_dst_ok(cout)
        }
        Lowered::Generic => false,
    }
}

/// Compiles `plan` into the module; returns the code and the lane
/// operations its interpreter calls point to.
pub(super) fn compile(
    module: &mut JITModule,
    cctx: &mut cranelift_codegen::Context,
    fctx: &mut FunctionBuilderContext,
    plan: &Plan<'_>,
    _index: usize,
) -> Result<(Code, Box<[Op]>), String> {
    let ptr = module.target_config().pointer_type();
    module.clear_context(cctx);
    cctx.func.signature.params.push(AbiParam::new(ptr));
    cctx.func.signature.returns.push(AbiParam::new(I32));
    let call_conv = module.target_config().default_call_conv;
    // Every Map operation of the block, so that the code can point at it.
    let lane_ops: Box<[Op]> = plan
        .insts
        .iter()
        .map(|d| match d.lowered {
            Lowered::Map { op, .. } => op,
            _ => Op::Mov,
        })
        .collect();
    {
        let mut b = FunctionBuilder::new(&mut cctx.func, fctx);
        let sig = |params: &[Type], ret: Option<Type>| {
            let mut s = Signature::new(call_conv);
            s.params.extend(params.iter().map(|&t| AbiParam::new(t)));
            s.returns.extend(ret.map(AbiParam::new));
            s
        };
        let interp_sig = b.import_signature(sig(&[ptr, I32], Some(I32)));
        let lane4_sig = b.import_signature(sig(&[ptr, I32, ptr], None));
        let cmp4_sig = b.import_signature(sig(&[I32, I32, ptr], Some(I32)));
        let buf = b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 64, 4));
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let ctx = b.block_params(entry)[0];
        let fl = MemFlags::trusted();
        let sgpr = b.ins().load(ptr, fl, ctx, off::SGPR);
        let vgpr = b.ins().load(ptr, fl, ctx, off::VGPR);
        let scc = b.ins().load(ptr, fl, ctx, off::SCC);
        let budget0 = b.ins().load(I64, fl, ctx, off::BUDGET);
        let (lanes, iters, budget) = (
            Variable::from_u32(0),
            Variable::from_u32(1),
            Variable::from_u32(2),
        );
        b.declare_var(lanes, I64);
        b.declare_var(iters, I64);
        b.declare_var(budget, I64);
        let zero = b.ins().iconst(I64, 0);
        b.def_var(lanes, zero);
        b.def_var(iters, zero);
        b.def_var(budget, budget0);
        let head = b.create_block();
        b.ins().jump(head, &[]);
        b.switch_to_block(head);
        let mut e = Emit {
            b,
            ptr,
            ctx,
            sgpr,
            vgpr,
            scc,
            lanes,
            iters,
            budget,
            wave64: plan.wave64,
            mode: plan.mode,
            has_fma: plan.has_fma,
            interp_sig,
            lane4_sig,
            cmp4_sig,
            buf,
            head,
            len: plan.insts.len() as i64,
            start: plan.pcs[0],
        };
        e.body(plan, &lane_ops);
        e.b.seal_all_blocks();
        e.b.finalize();
    }
    let id = module
        .declare_anonymous_function(&cctx.func.signature)
        .map_err(|e| e.to_string())?;
    module
        .define_function(id, cctx)
        .map_err(|e| format!("{e:?}"))?;
    module.clear_context(cctx);
    module.finalize_definitions().map_err(|e| e.to_string())?;
    let f = module.get_finalized_function(id);
    // SAFETY: the function was generated with the `Code` signature.
    let code = unsafe { std::mem::transmute::<*const u8, Code>(f) };
    Ok((code, lane_ops))
}

/// The state of one translation.
pub(super) struct Emit<'f> {
    pub b: FunctionBuilder<'f>,
    pub ptr: Type,
    ctx: Value,
    pub sgpr: Value,
    pub vgpr: Value,
    pub scc: Value,
    lanes: Variable,
    iters: Variable,
    budget: Variable,
    pub wave64: bool,
    pub mode: u32,
    pub has_fma: bool,
    interp_sig: SigRef,
    pub lane4_sig: SigRef,
    pub cmp4_sig: SigRef,
    pub buf: StackSlot,
    head: cranelift_codegen::ir::Block,
    len: i64,
    start: u64,
}

impl Emit<'_> {
    /// Memory flags of register accesses (in bounds, checked at block entry).
    pub fn fl(&self) -> MemFlags {
        MemFlags::trusted()
    }

    /// `sgpr[i]`.
    pub fn sload(&mut self, i: u16) -> Value {
        let fl = self.fl();
        self.b.ins().load(I32, fl, self.sgpr, i32::from(i) * 4)
    }

    /// `sgpr[i] = v`.
    pub fn sstore(&mut self, i: u16, v: Value) {
        let fl = self.fl();
        self.b.ins().store(fl, v, self.sgpr, i32::from(i) * 4);
    }

    /// `sgpr[i] | sgpr[i + 1] << 32`.
    pub fn s64load(&mut self, i: u16) -> Value {
        let fl = self.fl();
        self.b.ins().load(I64, fl, self.sgpr, i32::from(i) * 4)
    }

    /// Writes the pair `sgpr[i], sgpr[i + 1]`.
    pub fn s64store(&mut self, i: u16, v: Value) {
        let fl = self.fl();
        self.b.ins().store(fl, v, self.sgpr, i32::from(i) * 4);
    }

    /// A lane mask register (EXEC, VCC) as the wave's `pair() & full_mask()`.
    pub fn mask_reg(&mut self, i: u16) -> Value {
        if self.wave64 {
            self.s64load(i)
        } else {
            let v = self.sload(i);
            self.b.ins().uextend(I64, v)
        }
    }

    /// EXEC (64 bits, zero above the wave size).
    pub fn exec(&mut self) -> Value {
        self.mask_reg(crate::wave::EXEC_LO)
    }

    /// SCC (I8, 0 or 1).
    pub fn scc_load(&mut self) -> Value {
        let fl = self.fl();
        self.b.ins().load(I8, fl, self.scc, 0)
    }

    /// SCC = `v` (I8, 0 or 1).
    pub fn scc_store(&mut self, v: Value) {
        let fl = self.fl();
        self.b.ins().store(fl, v, self.scc, 0);
    }

    /// A 32-bit scalar source.
    pub fn s32(&mut self, s: &S32) -> Value {
        match *s {
            S32::Reg(i) => self.sload(u16::from(i)),
            S32::Imm(v) => self.b.ins().iconst(I32, i64::from(v)),
            // Excluded by the plan.
            S32::Op(_) => self.b.ins().iconst(I32, 0),
        }
    }

    /// A 64-bit scalar source.
    pub fn s64(&mut self, s: &S64) -> Value {
        match *s {
            S64::Pair(i) => self.s64load(u16::from(i)),
            S64::Imm(v) => self.b.ins().iconst(I64, v as i64),
            S64::Op(_) => self.b.ins().iconst(I64, 0),
        }
    }

    /// The SGPR code of a register operand.
    fn code(op: &Operand) -> u16 {
        match *op {
            Operand::Src { code, .. } => code,
            _ => NULL,
        }
    }

    /// Writes a 32-bit scalar destination (`null`: dropped).
    pub fn dst32(&mut self, op: &Operand, v: Value) {
        let code = Self::code(op);
        if code != NULL {
            self.sstore(code, v);
        }
    }

    /// Writes a 64-bit scalar destination (`null`: dropped).
    pub fn dst64(&mut self, op: &Operand, v: Value) {
        let code = Self::code(op);
        if code != NULL {
            self.s64store(code, v);
        }
    }

    /// Reads a lane-mask operand (`Wave::read_mask`), 64 bits.
    pub fn read_mask(&mut self, op: &Operand) -> Value {
        let code = Self::code(op);
        if code == NULL {
            return self.b.ins().iconst(I64, 0);
        }
        self.mask_reg(code)
    }

    /// Writes a lane-mask destination (`Wave::write_mask`).
    pub fn write_mask(&mut self, op: &Operand, v: Value) {
        let code = Self::code(op);
        if code == NULL {
            return;
        }
        if self.wave64 {
            self.s64store(code, v);
        } else {
            let v = self.b.ins().ireduce(I32, v);
            self.sstore(code, v);
        }
    }

    /// Adds EXEC's population to the active-lane count.
    fn count_lanes(&mut self) {
        let exec = self.exec();
        let n = self.b.ins().popcnt(exec);
        let lanes = self.b.use_var(self.lanes);
        let sum = self.b.ins().iadd(lanes, n);
        self.b.def_var(self.lanes, sum);
    }

    /// A constant `i32x4`.
    pub fn vconst(&mut self, lanes: [u32; 4]) -> Value {
        let bytes: Vec<u8> = lanes.iter().flat_map(|x| x.to_le_bytes()).collect();
        let c = self.b.func.dfg.constants.insert(ConstantData::from(bytes));
        self.b.ins().vconst(I32X4, c)
    }

    /// A function pointer as a constant.
    pub fn fn_ptr(&mut self, f: usize) -> Value {
        self.b.ins().iconst(self.ptr, f as i64)
    }

    /// Stores the out fields and returns `code`.
    fn exit(&mut self, code: Value, exit_index: Value) {
        let fl = self.fl();
        let lanes = self.b.use_var(self.lanes);
        let iters = self.b.use_var(self.iters);
        self.b.ins().store(fl, lanes, self.ctx, off::ACTIVE_LANES);
        self.b.ins().store(fl, iters, self.ctx, off::ITERATIONS);
        self.b
            .ins()
            .store(fl, exit_index, self.ctx, off::EXIT_INDEX);
        self.b.ins().return_(&[code]);
    }

    /// Ends the block normally: `next_pc`, the whole pass done.
    fn exit_next(&mut self, next_pc: u64) {
        let fl = self.fl();
        let pc = self.b.ins().iconst(I64, next_pc as i64);
        self.b.ins().store(fl, pc, self.ctx, off::NEXT_PC);
        let index = self.b.ins().iconst(I32, self.len);
        let code = self.b.ins().iconst(I32, 0);
        self.exit(code, index);
    }

    /// The whole block body.
    fn body(&mut self, plan: &Plan<'_>, lane_ops: &[Op]) {
        let last = plan.insts.len() - 1;
        for (k, d) in plan.insts.iter().enumerate() {
            if !plan.native[k] {
                self.interp_call(k, d.vector);
                continue;
            }
            if d.vector {
                self.count_lanes();
            }
            match &d.lowered {
                Lowered::Scalar(Salu::Branch { cond, target }) => {
                    let next = plan.pcs[k].wrapping_add(u64::from(d.inst.size));
                    self.branch(*cond, *target, next);
                    return;
                }
                Lowered::Scalar(s) => self.salu(s),
                other => self.valu(other, &lane_ops[k]),
            }
        }
        let next = plan.pcs[last].wrapping_add(u64::from(plan.insts[last].inst.size));
        self.exit_next(next);
    }

    /// Instruction `k` through the interpreter, leaving the block when it
    /// changes the flow or faults.
    fn interp_call(&mut self, k: usize, vector: bool) {
        let lanes_k = if vector {
            let exec = self.exec();
            Some(self.b.ins().popcnt(exec))
        } else {
            None
        };
        let f = self.fn_ptr(helpers::interp as *const () as usize);
        let kv = self.b.ins().iconst(I32, k as i64);
        let call = self
            .b
            .ins()
            .call_indirect(self.interp_sig, f, &[self.ctx, kv]);
        let r = self.b.inst_results(call)[0];
        let (out, cont) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(r, out, &[], cont, &[]);
        // Out: count the instruction when it ran (1), not when it faulted (2).
        self.b.switch_to_block(out);
        let ran = self.b.ins().icmp_imm(IntCC::Equal, r, 1);
        if let Some(n) = lanes_k {
            let zero = self.b.ins().iconst(I64, 0);
            let add = self.b.ins().select(ran, n, zero);
            let lanes = self.b.use_var(self.lanes);
            let sum = self.b.ins().iadd(lanes, add);
            self.b.def_var(self.lanes, sum);
        }
        let ran32 = self.b.ins().uextend(I32, ran);
        let index = self.b.ins().iadd_imm(ran32, k as i64);
        self.exit(r, index);
        self.b.switch_to_block(cont);
        if let Some(n) = lanes_k {
            let lanes = self.b.use_var(self.lanes);
            let sum = self.b.ins().iadd(lanes, n);
            self.b.def_var(self.lanes, sum);
        }
    }

    /// The block's last instruction, a lowered branch: to the start (chained
    /// while the budget allows another pass), elsewhere, or not taken.
    fn branch(&mut self, cond: crate::exec::lowered::scalar::Cond, target: u64, next: u64) {
        use crate::exec::lowered::scalar::Cond;
        let taken = match cond {
            Cond::Always => None,
            Cond::Scc0 | Cond::Scc1 => {
                let s = self.scc_load();
                let cc = if cond == Cond::Scc1 {
                    IntCC::NotEqual
                } else {
                    IntCC::Equal
                };
                Some(self.b.ins().icmp_imm(cc, s, 0))
            }
            Cond::Vccz | Cond::Vccnz | Cond::Execz | Cond::Execnz => {
                let reg = if matches!(cond, Cond::Vccz | Cond::Vccnz) {
                    VCC_LO
                } else {
                    crate::wave::EXEC_LO
                };
                let m = self.mask_reg(reg);
                let cc = if matches!(cond, Cond::Vccz | Cond::Execz) {
                    IntCC::Equal
                } else {
                    IntCC::NotEqual
                };
                Some(self.b.ins().icmp_imm(cc, m, 0))
            }
        };
        let yes = self.b.create_block();
        match taken {
            None => {
                self.b.ins().jump(yes, &[]);
            }
            Some(c) => {
                let no = self.b.create_block();
                self.b.ins().brif(c, yes, &[], no, &[]);
                self.b.switch_to_block(no);
                self.exit_next(next);
            }
        }
        self.b.switch_to_block(yes);
        if target != self.start {
            self.exit_next(target);
            return;
        }
        // Chaining: one more pass done; loop while a whole pass fits.
        let fl = self.fl();
        let budget = self.b.use_var(self.budget);
        let budget = self.b.ins().iadd_imm(budget, -self.len);
        self.b.def_var(self.budget, budget);
        let iters = self.b.use_var(self.iters);
        let iters = self.b.ins().iadd_imm(iters, 1);
        self.b.def_var(self.iters, iters);
        // The interpreter calls of the next pass read the step count from it.
        self.b.ins().store(fl, iters, self.ctx, off::ITERATIONS);
        let again = self
            .b
            .ins()
            .icmp_imm(IntCC::UnsignedGreaterThanOrEqual, budget, self.len);
        let stop = self.b.create_block();
        self.b.ins().brif(again, self.head, &[], stop, &[]);
        self.b.switch_to_block(stop);
        let fl = self.fl();
        let pc = self.b.ins().iconst(I64, self.start as i64);
        self.b.ins().store(fl, pc, self.ctx, off::NEXT_PC);
        let index = self.b.ins().iconst(I32, 0);
        let code = self.b.ins().iconst(I32, 0);
        self.exit(code, index);
    }
}
