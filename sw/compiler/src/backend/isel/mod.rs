//! Instruction selection: the walk over the structured CFG, value
//! locations and the helpers that build machine instructions.
//!
//! Where a value lives follows the uniformity analysis (Mesa ACO's rule):
//! uniform integers and pointers in SGPRs, divergent ones in VGPRs, floats
//! always in VGPRs (gfx1030 has no scalar float ALU), uniform booleans as 0/1
//! in an SGPR, divergent booleans as lane masks (one SGPR in wave32, a pair
//! in wave64). Constants stay constants until an operand needs a register.
//!
//! Control flow: a divergent `brif` becomes `s_and_saveexec` + `s_cbranch_execz`
//! over the then-part, `s_xor` of EXEC for the else-part, and `s_or` of EXEC
//! at the join (the immediate post-dominator); a uniform `brif` becomes
//! `s_cmp_lg_u32` + `s_cbranch_scc0` + `s_branch`. Block parameters become
//! copies at the end of each incoming edge, executed under that edge's EXEC.

// What each part selects (all `impl Isel` blocks):
mod alu; // the per-instruction dispatch; 32-bit arithmetic, compares, selects
mod builtins; // builtin calls (math, lane operations, IEEE division)
mod convert; // conversions between types and widths
mod divide; // 32-bit integer division and remainder
mod f16; // half arithmetic, compares, half <-> float conversions
mod f64; // double arithmetic, compares, 64-bit <-> float conversions
mod inputs; // kernel arguments, work-item queries
mod int64; // 64-bit integers as register pairs
mod kernarg; // double and by-value vector/struct kernel arguments
mod loops; // EXEC-masked loops
pub mod masked_select; // seed 004: `m ? op(a, b) : z` under EXEC = m
mod memory; // loads, stores, atomics, address arithmetic
mod minmax; // selects that are a min or max

use arch::isa::tables::info_for;
use arch::isa::{operand::inline_code_for, Family, Isa, Opcode, OperandType};

use super::abi::{KernargLayout, KERNARG_PTR_SGPR, USER_SGPRS};
use super::minst::{special, MInst, MOp, MachineCode, RegClass, VReg};
use super::{BackendError, CompileOptions};
use crate::ir::cfg::Cfg;
use crate::ir::*;

/// Where an IR value lives during selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    /// A constant (low and high dword).
    Const(u32, u32),
    /// SGPR(s).
    S(VReg),
    /// VGPR(s).
    V(VReg),
    /// A uniform boolean, 0 or 1, in an SGPR.
    SBool(VReg),
    /// A divergent boolean: a lane mask.
    Mask(VReg),
}

/// The state of instruction selection for one kernel.
pub struct Isel<'f> {
    pub(super) f: &'f Function,
    pub(super) cfg: Cfg,
    pub(super) uni: Uniformity,
    pub(super) opts: CompileOptions,
    pub(super) mc: MachineCode,
    pub(super) locs: Vec<Option<Loc>>,
    pub(super) uses: Vec<u32>,
    pub(super) kernarg: KernargLayout,
    pub(super) kernarg_ptr: VReg,
    pub(super) group_id: [Option<VReg>; 3],
    pub(super) local_id: [Option<VReg>; 3],
    pub(super) lds_offsets: Vec<u32>,
    pub(super) lds_size: u32,
    /// The kernel stores or performs atomics on global memory: uniform
    /// global loads then go through the vector cache (scalar loads are not
    /// coherent with vector stores).
    pub(super) writes_global: bool,
    /// Instructions folded into a later masked select (seed 004) or into
    /// the branch that reads them (a uniform compare).
    pub(super) deferred: Vec<bool>,
    /// Uniform compares selected at their branch as `s_cmp_*` (SCC).
    pub(super) fused: Vec<bool>,
    /// Selects that are a min or max of their compare's operands.
    pub(super) min_max: Vec<Option<BinaryOp>>,
    /// Index (in the walk) of the instruction being selected.
    pub(super) position: Vec<usize>,
    /// High halves of sign-extended 32-bit offsets computed in the current
    /// block (one `v_ashrrev_i32` serves every address built from one
    /// offset); cleared at each block, whose code may be skipped by EXEC.
    pub(super) sext_memo: Vec<(Value, MOp)>,
    /// The loops being emitted, innermost last.
    pub(super) loops: Vec<loops::LoopCtx>,
    /// With spilling: the SGPR holding 0 that scratch accesses use as `saddr`.
    pub(super) scratch: Option<VReg>,
    /// Addresses folded into memory instructions: (base, immediate offset).
    pub(super) folded: Vec<Option<(Value, i32)>>,
    /// PC-relative references to program-scope data
    /// ([`InstKind::DataAddr`]), resolved by the code-object writer.
    pub data_refs: Vec<DataRef>,
}

/// One `s_getpc_b64; s_add_u32 lo; s_addc_u32 hi` reference to data
/// object `data`: labels placed right after each of the three, so that
/// assembly knows where `s_getpc_b64`'s result points and where the two
/// 32-bit literals end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataRef {
    /// Index into `Function::data`.
    pub data: u32,
    /// After `s_getpc_b64` (the address it returns).
    pub pc: u32,
    /// After `s_add_u32` (its literal is the 4 bytes before).
    pub lo_end: u32,
    /// After `s_addc_u32`.
    pub hi_end: u32,
}

/// What the dispatch must initialise, found by selection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    /// Workgroup id SGPRs enabled (x, y, z).
    pub group_id: [bool; 3],
    /// Highest work-item id VGPR needed (0 = x only).
    pub max_local_dim: u8,
    /// Flat scratch is set up (spilling).
    pub scratch: bool,
}

impl<'f> Isel<'f> {
    /// Prepares selection of `f`.
    pub fn new(f: &'f Function, opts: CompileOptions, spill: bool) -> Isel<'f> {
        // Private variables live in scratch: set it up as for spilling.
        let spill = spill || f.private_size > 0;
        let cfg = Cfg::new(f);
        let uni = Uniformity::analyze(f, &cfg);
        let mut mc = MachineCode::default();
        let kernarg_ptr = mc.fixed(RegClass::Sgpr, 2, KERNARG_PTR_SGPR);
        // Work-item ids and workgroup ids are fixed registers: find which are used.
        let mut uses_group = [false; 3];
        let mut uses_local = [false; 3];
        let mut writes_global = false;
        for &b in f.blocks() {
            for &i in &f.block(b).insts {
                match &f.inst(i).kind {
                    InstKind::WorkItem { query, dim } => {
                        let d = usize::from(*dim);
                        match query {
                            WorkItemQuery::LocalId => uses_local[d] = true,
                            WorkItemQuery::GroupId => uses_group[d] = true,
                            WorkItemQuery::GlobalId => {
                                uses_local[d] = true;
                                uses_group[d] = true;
                            }
                            _ => {}
                        }
                    }
                    InstKind::Store { addr, .. }
                    | InstKind::Atomic { addr, .. }
                    | InstKind::AtomicCas { addr, .. } => {
                        writes_global |= matches!(f.ty(*addr), Type::Ptr(AddrSpace::Global));
                    }
                    _ => {}
                }
            }
        }
        // With spilling, the flat-scratch base follows the kernarg pointer
        // (user SGPRs s[2:3]) and the wave's scratch offset follows the
        // workgroup ids (the AMDGPUUsage order).
        let scratch_init = spill.then(|| mc.fixed(RegClass::Sgpr, 2, USER_SGPRS));
        let mut group_id = [None; 3];
        let mut next = USER_SGPRS + if spill { 2 } else { 0 };
        for d in 0..3 {
            if uses_group[d] {
                group_id[d] = Some(mc.fixed(RegClass::Sgpr, 1, next));
                next += 1;
            }
        }
        let scratch = scratch_init.map(|init| {
            let wave_offset = mc.fixed(RegClass::Sgpr, 1, next);
            super::spill::prologue(&mut mc, init, wave_offset)
        });
        let max_local = (0..3).rev().find(|&d| uses_local[d]).unwrap_or(0);
        let mut local_id = [None; 3];
        for (d, slot) in local_id.iter_mut().enumerate().take(max_local + 1) {
            if uses_local[d] {
                *slot = Some(mc.fixed(RegClass::Vgpr, 1, d as u16));
            }
        }
        let mut lds_offsets = Vec::new();
        let mut lds_size = 0u32;
        for l in &f.locals {
            lds_size = lds_size.next_multiple_of(l.align.max(1));
            lds_offsets.push(lds_size);
            lds_size += l.size;
        }
        Isel {
            f,
            cfg,
            uni,
            opts,
            mc,
            locs: vec![None; f.value_count()],
            uses: f.use_counts(),
            kernarg: KernargLayout::of(f, opts.global_offsets),
            kernarg_ptr,
            group_id,
            local_id,
            lds_offsets,
            lds_size,
            writes_global,
            deferred: vec![false; f.inst_count()],
            fused: vec![false; f.value_count()],
            min_max: vec![None; f.inst_count()],
            position: vec![0; f.inst_count()],
            sext_memo: Vec::new(),
            loops: Vec::new(),
            scratch,
            folded: vec![None; f.value_count()],
            data_refs: Vec::new(),
        }
    }

    /// The dispatch inputs the selected code reads.
    pub fn inputs(&self) -> Inputs {
        let max_local_dim = (0..3)
            .rev()
            .find(|&d| self.local_id[d].is_some())
            .unwrap_or(0) as u8;
        Inputs {
            group_id: self.group_id.map(|g| g.is_some()),
            max_local_dim,
            scratch: self.scratch.is_some(),
        }
    }

    /// Selects the whole kernel, then coalesces loop-carried copies.
    pub fn run(&mut self) -> Result<(), BackendError> {
        let entry = self
            .f
            .entry()
            .ok_or_else(|| BackendError::Unsupported("a kernel without blocks".into()))?;
        let mut n = 0;
        for &b in &self.cfg.rpo {
            for &i in &self.f.block(b).insts {
                self.position[i.index()] = n;
                n += 1;
            }
        }
        memory::fold_addresses(self);
        masked_select::find_candidates(self);
        self.find_fused_compares();
        self.find_min_max();
        self.region(entry, None)?;
        // Out of SSA: loop-carried values take their back-edge value's
        // registers where they do not interfere (no copy per iteration).
        super::coalesce::loop_copies(&mut self.mc);
        Ok(())
    }

    // ---- control flow -----------------------------------------------------

    /// Emits blocks from `start` until `stop` (exclusive) is reached.
    pub(super) fn region(&mut self, start: Block, stop: Option<Block>) -> Result<(), BackendError> {
        self.walk(start, stop, false)
    }

    /// Emits blocks from `start` until `stop`; with `enter`, `start` is a loop
    /// header being entered (so reaching `stop` = `start` again is the back edge).
    pub(super) fn walk(
        &mut self,
        start: Block,
        stop: Option<Block>,
        enter: bool,
    ) -> Result<(), BackendError> {
        let mut b = start;
        let mut first = true;
        loop {
            if Some(b) == stop && !(first && enter) {
                if enter {
                    let head = self.loops.last().expect("walking a loop").head;
                    self.branch(Opcode::S_BRANCH, head);
                }
                return Ok(());
            }
            let entering = first && enter;
            first = false;
            if !entering {
                if self.loops.iter().any(|l| l.header == b) {
                    return Err(BackendError::Unsupported(
                        "a `continue` from inside a nested conditional is not supported by the back end yet"
                            .into(),
                    ));
                }
                if self.cfg.back_edges.iter().any(|&(_, h)| h == b) {
                    b = self.emit_loop(b)?;
                    continue;
                }
            }
            self.sext_memo.clear();
            let insts = &self.f.block(b).insts;
            let (&term, body) = insts
                .split_last()
                .expect("verified: blocks end with a terminator");
            for &i in body {
                if !self.deferred[i.index()] {
                    self.lower(i)?;
                }
            }
            match self.f.inst(term).kind.clone() {
                InstKind::Return => {
                    if stop.is_some() {
                        return Err(BackendError::Unsupported(
                            "a `return` inside a conditional is not supported by the back end yet"
                                .into(),
                        ));
                    }
                    self.push(Opcode::S_ENDPGM, Family::Sopp, 0, &[]);
                    return Ok(());
                }
                InstKind::Jump { dest } => {
                    if self.loops.last().is_some_and(|l| l.exit == dest.block) {
                        return Err(BackendError::Unsupported(
                            "an unconditional `break` is not supported by the back end yet".into(),
                        ));
                    }
                    self.edge_copies(&dest)?;
                    b = dest.block;
                }
                InstKind::Brif {
                    cond,
                    then_dest,
                    else_dest,
                } if self
                    .loops
                    .last()
                    .is_some_and(|l| l.exit == then_dest.block || l.exit == else_dest.block) =>
                {
                    b = self.exit_branch(b, cond, &then_dest, &else_dest)?;
                }
                InstKind::Brif {
                    cond,
                    then_dest,
                    else_dest,
                } => {
                    let join = self.cfg.ipdom[b.index()].ok_or_else(|| {
                        BackendError::Unsupported(
                            "unstructured control flow (a branch whose sides never meet again) \
                             is not supported by the back end"
                                .into(),
                        )
                    })?;
                    if self.uni.is_divergent_branch(b) {
                        self.divergent_if(cond, &then_dest, &else_dest, join)?;
                    } else {
                        self.uniform_if(cond, &then_dest, &else_dest, join)?;
                    }
                    b = join;
                }
                _ => unreachable!("verified: the last instruction is a terminator"),
            }
        }
    }

    /// One side of an if: the edge's copies, then its blocks up to the join.
    fn arm(&mut self, dest: &BlockCall, join: Block) -> Result<(), BackendError> {
        self.edge_copies(dest)?;
        if dest.block != join {
            self.region(dest.block, Some(join))?;
        }
        Ok(())
    }

    fn divergent_if(
        &mut self,
        cond: Value,
        t: &BlockCall,
        e: &BlockCall,
        join: Block,
    ) -> Result<(), BackendError> {
        let mask = self.mask(cond)?;
        let save = self.new_mask();
        let w64 = self.opts.wave64;
        let saveexec = if w64 {
            Opcode::S_AND_SAVEEXEC_B64
        } else {
            Opcode::S_AND_SAVEEXEC_B32
        };
        self.push(
            saveexec,
            Family::Sop1,
            1,
            &[MOp::Reg(save, 0), MOp::Reg(mask, 0)],
        );
        let else_label = self.mc.label();
        self.branch(Opcode::S_CBRANCH_EXECZ, else_label);
        self.arm(t, join)?;
        let has_else = e.block != join || !e.args.is_empty();
        if has_else {
            let end = self.mc.label();
            self.mc.place(else_label);
            // EXEC is (saved & cond) here, or 0 when the then-part was skipped:
            // xor with the saved mask leaves (saved & !cond).
            let xor = if w64 {
                Opcode::S_XOR_B64
            } else {
                Opcode::S_XOR_B32
            };
            self.push(
                xor,
                Family::Sop2,
                1,
                &[
                    MOp::Phys(special::EXEC),
                    MOp::Phys(special::EXEC),
                    MOp::Reg(save, 0),
                ],
            );
            self.branch(Opcode::S_CBRANCH_EXECZ, end);
            self.arm(e, join)?;
            self.mc.place(end);
        } else {
            self.mc.place(else_label);
        }
        let or = if w64 {
            Opcode::S_OR_B64
        } else {
            Opcode::S_OR_B32
        };
        self.push(
            or,
            Family::Sop2,
            1,
            &[
                MOp::Phys(special::EXEC),
                MOp::Phys(special::EXEC),
                MOp::Reg(save, 0),
            ],
        );
        Ok(())
    }

    fn uniform_if(
        &mut self,
        cond: Value,
        t: &BlockCall,
        e: &BlockCall,
        join: Block,
    ) -> Result<(), BackendError> {
        self.cond_to_scc(cond)?;
        let else_label = self.mc.label();
        self.branch(Opcode::S_CBRANCH_SCC0, else_label);
        self.arm(t, join)?;
        let has_else = e.block != join || !e.args.is_empty();
        if has_else {
            let end = self.mc.label();
            self.branch(Opcode::S_BRANCH, end);
            self.mc.place(else_label);
            self.arm(e, join)?;
            self.mc.place(end);
        } else {
            self.mc.place(else_label);
        }
        Ok(())
    }

    /// Copies the branch arguments into the destination's parameters.
    ///
    /// The copies are parallel (a loop's back edge `header(b, a)` may pass
    /// a parameter to another one). They are sequentialised: a parameter
    /// passed to itself (a value the loop does not change) needs no copy, a
    /// copy is emitted once no pending copy still reads its destination, and
    /// only a cycle (`header(b, a)` into `(a, b)`) goes through a temporary,
    /// one per cycle — not one per argument, which cost every loop two moves
    /// per carried value and iteration.
    pub(super) fn edge_copies(&mut self, dest: &BlockCall) -> Result<(), BackendError> {
        let params = self.f.block(dest.block).params.clone();
        // (parameter, source): the source is the argument's own location, or
        // a temporary it was saved to to break a cycle.
        let mut pending: Vec<(Value, Result<Value, Loc>)> = params
            .iter()
            .zip(&dest.args)
            .filter(|(p, a)| p != a)
            .map(|(&p, &a)| (p, Ok(a)))
            .collect();
        while !pending.is_empty() {
            let ready = pending
                .iter()
                .position(|&(p, _)| !pending.iter().any(|&(_, src)| src == Ok(p)));
            match ready {
                Some(k) => {
                    let (p, src) = pending.remove(k);
                    let to = self.def_loc(p);
                    match src {
                        Ok(a) => self.copy_into(to, a)?,
                        Err(from) => self.copy_loc(to, from)?,
                    }
                }
                None => {
                    // Every pending destination is still read: a cycle.
                    // Save one parameter's current value and read it from there.
                    let (p, _) = pending[0];
                    let ty = self.f.ty(p);
                    let tmp = match self.def_loc(p) {
                        Loc::V(_) => Loc::V(self.mc.vreg(RegClass::Vgpr, self.dwords(ty))),
                        Loc::Mask(_) => Loc::Mask(self.new_mask()),
                        Loc::SBool(_) => Loc::SBool(self.mc.vreg(RegClass::Sgpr, 1)),
                        Loc::S(_) => Loc::S(self.mc.vreg(RegClass::Sgpr, self.dwords(ty))),
                        Loc::Const(..) => unreachable!("parameters are registers"),
                    };
                    self.copy_into(tmp, p)?;
                    for (_, src) in pending.iter_mut() {
                        if *src == Ok(p) {
                            *src = Err(tmp);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// `d = s` in the active lanes, `d` kept in the others. A lane mask is
    /// an SGPR, written by the SALU whatever EXEC says, so a plain copy on
    /// one side of a divergent if would overwrite the other side's lanes.
    pub(super) fn mask_merge(&mut self, d: VReg, s: VReg) {
        let w64 = self.opts.wave64;
        let (andn2, and, or) = if w64 {
            (Opcode::S_ANDN2_B64, Opcode::S_AND_B64, Opcode::S_OR_B64)
        } else {
            (Opcode::S_ANDN2_B32, Opcode::S_AND_B32, Opcode::S_OR_B32)
        };
        let exec = MOp::Phys(special::EXEC);
        let t = self.new_mask();
        self.push(
            andn2,
            Family::Sop2,
            1,
            &[MOp::Reg(d, 0), MOp::Reg(d, 0), exec],
        );
        self.push(
            and,
            Family::Sop2,
            1,
            &[MOp::Reg(t, 0), MOp::Reg(s, 0), exec],
        );
        self.push(
            or,
            Family::Sop2,
            1,
            &[MOp::Reg(d, 0), MOp::Reg(d, 0), MOp::Reg(t, 0)],
        );
    }

    /// Copies register location `from` into `to` (same kind).
    fn copy_loc(&mut self, to: Loc, from: Loc) -> Result<(), BackendError> {
        match (to, from) {
            (Loc::V(d), Loc::V(s)) => {
                let n = self.mc.vregs[s.0 as usize].dwords;
                for k in 0..n {
                    self.push(
                        Opcode::V_MOV_B32,
                        Family::Vop1,
                        1,
                        &[MOp::Reg(d, k), MOp::Reg(s, k)],
                    );
                }
            }
            (Loc::V(d), Loc::S(s)) => {
                let n = self.mc.vregs[s.0 as usize].dwords;
                for k in 0..n {
                    self.push(
                        Opcode::V_MOV_B32,
                        Family::Vop1,
                        1,
                        &[MOp::Reg(d, k), MOp::Reg(s, k)],
                    );
                }
            }
            (Loc::S(d), Loc::S(s)) | (Loc::SBool(d), Loc::SBool(s)) => {
                let n = self.mc.vregs[s.0 as usize].dwords;
                for k in 0..n {
                    self.push(
                        Opcode::S_MOV_B32,
                        Family::Sop1,
                        1,
                        &[MOp::Reg(d, k), MOp::Reg(s, k)],
                    );
                }
            }
            (Loc::Mask(d), Loc::Mask(s)) => self.mask_merge(d, s),
            (t, f) => {
                return Err(BackendError::Internal(format!(
                    "parallel copy from {f:?} to {t:?}"
                )))
            }
        }
        Ok(())
    }

    /// Copies value `v` into the registers of `to`.
    pub(super) fn copy_into(&mut self, to: Loc, v: Value) -> Result<(), BackendError> {
        let dwords = self.dwords(self.f.ty(v));
        match to {
            Loc::V(d) => {
                for k in 0..dwords {
                    let s = self.src_part(v, k)?;
                    let mut i =
                        MInst::new(Opcode::V_MOV_B32, Family::Vop1, 1, &[MOp::Reg(d, k), s]);
                    i.is_copy = true;
                    self.mc.push(i);
                }
            }
            Loc::S(d) => {
                for k in 0..dwords {
                    let s = self.ssrc_part(v, k)?;
                    let mut i =
                        MInst::new(Opcode::S_MOV_B32, Family::Sop1, 1, &[MOp::Reg(d, k), s]);
                    i.is_copy = true;
                    self.mc.push(i);
                }
            }
            Loc::SBool(d) => {
                let s = self.sbool(v)?;
                let mut i = MInst::new(
                    Opcode::S_MOV_B32,
                    Family::Sop1,
                    1,
                    &[MOp::Reg(d, 0), MOp::Reg(s, 0)],
                );
                i.is_copy = true;
                self.mc.push(i);
            }
            Loc::Mask(d) => {
                let s = self.mask(v)?;
                self.mask_merge(d, s);
            }
            Loc::Const(..) => unreachable!("parameters are never constants"),
        }
        Ok(())
    }

    // ---- value locations --------------------------------------------------

    /// Registers (dwords) a value of type `ty` takes.
    pub(super) fn dwords(&self, ty: Type) -> u8 {
        match ty {
            Type::I1 => self.opts.lane_mask_dwords(),
            t => t.bits().div_ceil(32) as u8,
        }
    }

    /// A fresh lane-mask register.
    pub(super) fn new_mask(&mut self) -> VReg {
        let n = self.opts.lane_mask_dwords();
        self.mc.vreg(RegClass::Sgpr, n)
    }

    /// The location a value is defined into (created on first request).
    pub(super) fn def_loc(&mut self, v: Value) -> Loc {
        if let Some(l) = self.locs[v.index()] {
            return l;
        }
        let ty = self.f.ty(v);
        let div = self.uni.is_divergent(v);
        let l = match ty {
            Type::I1 if div => Loc::Mask(self.new_mask()),
            Type::I1 => Loc::SBool(self.mc.vreg(RegClass::Sgpr, 1)),
            t if t.is_float() || div => Loc::V(self.mc.vreg(RegClass::Vgpr, self.dwords(t))),
            t => Loc::S(self.mc.vreg(RegClass::Sgpr, self.dwords(t))),
        };
        self.locs[v.index()] = Some(l);
        l
    }

    /// The location of an operand (constants are materialised lazily).
    pub(super) fn loc(&mut self, v: Value) -> Result<Loc, BackendError> {
        if let Some(l) = self.locs[v.index()] {
            return Ok(l);
        }
        match self.f.def_inst(v) {
            Some(InstKind::Iconst { imm, .. }) => Ok(Loc::Const(*imm as u32, (*imm >> 32) as u32)),
            Some(InstKind::Fconst { ty, bits }) => Ok(match ty {
                Type::F64 => Loc::Const(*bits as u32, (*bits >> 32) as u32),
                _ => Loc::Const(*bits as u32, 0),
            }),
            _ => Err(BackendError::Internal(format!(
                "{v} is used before it was selected"
            ))),
        }
    }

    /// Dword `k` of a value as an operand that may be an SGPR, a VGPR or a constant.
    pub(super) fn src_part(&mut self, v: Value, k: u8) -> Result<MOp, BackendError> {
        Ok(match self.loc(v)? {
            Loc::Const(lo, hi) => MOp::Imm(if k == 0 { lo } else { hi }),
            Loc::S(r) | Loc::V(r) | Loc::SBool(r) => MOp::Reg(r, k),
            Loc::Mask(_) => {
                // A divergent boolean used as a number: 0/1 per lane.
                let m = self.mask(v)?;
                let d = self.mc.vreg(RegClass::Vgpr, 1);
                self.vop3(
                    Opcode::V_CNDMASK_B32,
                    &[MOp::Reg(d, 0), MOp::Imm(0), MOp::Imm(1), MOp::Reg(m, 0)],
                );
                MOp::Reg(d, 0)
            }
        })
    }

    /// A 32-bit operand for any VALU source slot.
    pub(super) fn src(&mut self, v: Value) -> Result<MOp, BackendError> {
        self.src_part(v, 0)
    }

    /// Dword `k` of a value for a SALU instruction.
    pub(super) fn ssrc_part(&mut self, v: Value, k: u8) -> Result<MOp, BackendError> {
        match self.loc(v)? {
            Loc::V(_) => Err(BackendError::Internal(format!(
                "{v} is in VGPRs where a scalar is needed"
            ))),
            _ => self.src_part(v, k),
        }
    }

    /// A 32-bit value in a VGPR (copied there if it is not).
    pub(super) fn vreg_of(&mut self, v: Value, k: u8) -> Result<MOp, BackendError> {
        let s = self.src_part(v, k)?;
        Ok(self.in_vgpr(s))
    }

    /// `op` in a VGPR (`v_mov_b32` unless it already is one).
    pub(super) fn in_vgpr(&mut self, op: MOp) -> MOp {
        if self.is_vgpr(op) {
            return op;
        }
        let d = self.mc.vreg(RegClass::Vgpr, 1);
        self.push(Opcode::V_MOV_B32, Family::Vop1, 1, &[MOp::Reg(d, 0), op]);
        MOp::Reg(d, 0)
    }

    /// The value as a lane mask.
    pub(super) fn mask(&mut self, v: Value) -> Result<VReg, BackendError> {
        let w64 = self.opts.wave64;
        match self.loc(v)? {
            Loc::Mask(m) => Ok(m),
            Loc::SBool(b) => {
                let m = self.new_mask();
                self.push(
                    Opcode::S_CMP_LG_U32,
                    Family::Sopc,
                    0,
                    &[MOp::Reg(b, 0), MOp::Imm(0)],
                );
                let op = if w64 {
                    Opcode::S_CSELECT_B64
                } else {
                    Opcode::S_CSELECT_B32
                };
                self.push(
                    op,
                    Family::Sop2,
                    1,
                    &[MOp::Reg(m, 0), MOp::Phys(special::ALL_ONES), MOp::Imm(0)],
                );
                Ok(m)
            }
            Loc::Const(c, _) => {
                let m = self.new_mask();
                let op = if w64 {
                    Opcode::S_MOV_B64
                } else {
                    Opcode::S_MOV_B32
                };
                let bits = if c & 1 != 0 {
                    MOp::Phys(special::ALL_ONES)
                } else {
                    MOp::Imm(0)
                };
                self.push(op, Family::Sop1, 1, &[MOp::Reg(m, 0), bits]);
                Ok(m)
            }
            l => Err(BackendError::Internal(format!(
                "{v} ({l:?}) is not a boolean"
            ))),
        }
    }

    /// The value as a uniform 0/1 in an SGPR.
    pub(super) fn sbool(&mut self, v: Value) -> Result<VReg, BackendError> {
        let w64 = self.opts.wave64;
        match self.loc(v)? {
            Loc::SBool(b) => Ok(b),
            Loc::Const(c, _) => {
                let d = self.mc.vreg(RegClass::Sgpr, 1);
                self.push(
                    Opcode::S_MOV_B32,
                    Family::Sop1,
                    1,
                    &[MOp::Reg(d, 0), MOp::Imm(c & 1)],
                );
                Ok(d)
            }
            Loc::Mask(m) => {
                // A uniform value computed as a mask (a float compare): any active lane.
                let t = self.new_mask();
                let (and, cmp) = if w64 {
                    (Opcode::S_AND_B64, Opcode::S_CMP_LG_U64)
                } else {
                    (Opcode::S_AND_B32, Opcode::S_CMP_LG_U32)
                };
                self.push(
                    and,
                    Family::Sop2,
                    1,
                    &[MOp::Reg(t, 0), MOp::Reg(m, 0), MOp::Phys(special::EXEC)],
                );
                self.push(cmp, Family::Sopc, 0, &[MOp::Reg(t, 0), MOp::Imm(0)]);
                let d = self.mc.vreg(RegClass::Sgpr, 1);
                self.push(
                    Opcode::S_CSELECT_B32,
                    Family::Sop2,
                    1,
                    &[MOp::Reg(d, 0), MOp::Imm(1), MOp::Imm(0)],
                );
                Ok(d)
            }
            l => Err(BackendError::Internal(format!(
                "{v} ({l:?}) is not a boolean"
            ))),
        }
    }

    // ---- instruction building -----------------------------------------------

    /// Appends an instruction.
    pub(super) fn push(&mut self, op: Opcode, family: Family, defs: u8, ops: &[MOp]) {
        self.mc.push(MInst::new(op, family, defs, ops));
    }

    /// Appends a branch to `label`.
    pub(super) fn branch(&mut self, op: Opcode, label: u32) {
        let mut i = MInst::new(op, Family::Sopp, 0, &[]);
        i.target = Some(label);
        self.mc.push(i);
    }

    pub(super) fn is_vgpr(&self, op: MOp) -> bool {
        matches!(op, MOp::Reg(r, _) if self.mc.vregs[r.0 as usize].class == RegClass::Vgpr)
    }

    /// True when `op` reads the constant bus (an SGPR or a literal).
    fn on_constant_bus(&self, op: MOp) -> bool {
        match op {
            MOp::Reg(r, _) => self.mc.vregs[r.0 as usize].class == RegClass::Sgpr,
            MOp::Phys(_) => true,
            MOp::Imm(x) => inline_code_for(x, OperandType::B32).is_none(),
            MOp::Off => false,
        }
    }

    /// A VOP3 instruction (one destination), its sources legalised: at most
    /// two constant-bus reads (gfx10) of which at most one literal.
    pub(super) fn vop3(&mut self, op: Opcode, ops: &[MOp]) {
        self.vop3_defs(op, 1, ops)
    }

    /// A VOP3 instruction with `defs` destinations.
    pub(super) fn vop3_defs(&mut self, op: Opcode, defs: u8, ops: &[MOp]) {
        let mut ops = ops.to_vec();
        let mut bus = 0;
        let mut literals = 0;
        let mut seen: Vec<MOp> = Vec::new();
        // A lane-mask source (v_cndmask's mask, a carry-in) must stay an SGPR:
        // it takes its constant-bus slot first, and only the other sources
        // are moved to VGPRs when the bus is full.
        let specs = info_for(Isa::Gfx1030, Family::Vop3, op).map_or(&[][..], |i| i.operands);
        let is_mask = |k: usize| specs.get(k).is_some_and(|s| s.ty == OperandType::LaneMask);
        for (k, &o) in ops.iter().enumerate().skip(usize::from(defs)) {
            if is_mask(k) && self.on_constant_bus(o) && !seen.contains(&o) {
                bus += 1;
                seen.push(o);
            }
        }
        // Indexed: moving a source to a VGPR needs `self` mutably mid-loop.
        #[allow(clippy::needless_range_loop)]
        for k in usize::from(defs)..ops.len() {
            let o = ops[k];
            if is_mask(k) || !self.on_constant_bus(o) || seen.contains(&o) {
                continue;
            }
            let literal = matches!(o, MOp::Imm(_));
            if bus == 2 || (literal && literals == 1) {
                ops[k] = self.in_vgpr(o);
                continue;
            }
            bus += 1;
            literals += usize::from(literal);
            seen.push(o);
        }
        self.push(op, Family::Vop3, defs, &ops);
    }

    /// A two-source VALU operation `d = op(a, b)`: the 32-bit VOP2 encoding
    /// when the second source is a VGPR (after swapping a commutative
    /// operation), else VOP3.
    pub(super) fn vop2(&mut self, op: Opcode, d: MOp, a: MOp, b: MOp, commutes: bool) {
        let has_e32 = info_for(Isa::Gfx1030, Family::Vop2, op).is_some();
        if has_e32 && self.is_vgpr(b) {
            self.push(op, Family::Vop2, 1, &[d, a, b]);
        } else if has_e32 && commutes && self.is_vgpr(a) {
            self.push(op, Family::Vop2, 1, &[d, b, a]);
        } else {
            self.vop3(op, &[d, a, b]);
        }
    }

    /// A one-source VALU operation.
    pub(super) fn vop1(&mut self, op: Opcode, d: MOp, a: MOp) {
        if info_for(Isa::Gfx1030, Family::Vop1, op).is_some() {
            self.push(op, Family::Vop1, 1, &[d, a]);
        } else {
            self.vop3(op, &[d, a]);
        }
    }

    /// A SALU two-source operation; two literals cannot be encoded, so the
    /// second goes through `s_mov_b32`.
    pub(super) fn sop2(&mut self, op: Opcode, d: MOp, a: MOp, b: MOp) {
        let lit =
            |o: MOp| matches!(o, MOp::Imm(x) if inline_code_for(x, OperandType::B32).is_none());
        let b = if lit(a) && lit(b) && a != b {
            let t = self.mc.vreg(RegClass::Sgpr, 1);
            self.push(Opcode::S_MOV_B32, Family::Sop1, 1, &[MOp::Reg(t, 0), b]);
            MOp::Reg(t, 0)
        } else {
            b
        };
        self.push(op, Family::Sop2, 1, &[d, a, b]);
    }

    /// A uniform value computed by the VALU, moved to an SGPR.
    pub(super) fn readfirstlane(&mut self, d: VReg, v: MOp) {
        self.push(
            Opcode::V_READFIRSTLANE_B32,
            Family::Vop1,
            1,
            &[MOp::Reg(d, 0), v],
        );
    }
}
