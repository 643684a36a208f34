//! `s_waitcnt` insertion: a forward data-flow over per-register wait
//! entries (as Mesa ACO's `aco_insert_waitcnt.cpp` and LLVM's
//! `SIInsertWaitcnts` do).
//!
//! gfx10 counts outstanding memory operations in three counters:
//! `vmcnt` (vector-memory loads and returning atomics, complete in order),
//! `vscnt` (vector-memory stores, `s_waitcnt_vscnt`) and `lgkmcnt` (LDS in
//! order, scalar loads out of order). Each register written by an
//! outstanding load carries how many later operations of its counter were
//! issued after it; an instruction that reads or rewrites that register
//! first waits until the counter is at most that number (0 when scalar loads
//! are outstanding, which return out of order). At a label the states of
//! every branch to it and of the fall-through are merged conservatively.
//! A barrier waits for everything (the workgroup release of OpenCL's
//! `barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)`).

use std::collections::HashMap;

use arch::isa::{Family, Instruction, Modifiers, Opcode, Operand, Target};

use super::minst::special;
use super::rewrite::{physical, PItem, PhysOp};
use super::BackendError;

const VM_MAX: u8 = 63;
const LGKM_MAX: u8 = 63;
const VS_MAX: u8 = 63;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Counter {
    Vm,
    Lgkm,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct State {
    /// (register code, counter) -> operations of that counter issued after it.
    pending: HashMap<(u16, Counter), u8>,
    vm: u8,
    lgkm: u8,
    vs: u8,
    smem: bool,
}

impl State {
    fn merge(&mut self, o: &State) {
        for (&k, &age) in &o.pending {
            let e = self.pending.entry(k).or_insert(age);
            *e = (*e).min(age);
        }
        self.vm = self.vm.max(o.vm);
        self.lgkm = self.lgkm.max(o.lgkm);
        self.vs = self.vs.max(o.vs);
        self.smem |= o.smem;
    }

    fn waited(&mut self, c: Counter, n: u8) {
        self.pending.retain(|&(_, pc), age| pc != c || *age < n);
        match c {
            Counter::Vm => self.vm = self.vm.min(n),
            Counter::Lgkm => {
                self.lgkm = self.lgkm.min(n);
                if n == 0 {
                    self.smem = false;
                }
            }
        }
    }

    fn issue(&mut self, c: Counter, regs: &[u16]) {
        for ((_, pc), age) in self.pending.iter_mut() {
            if *pc == c {
                *age = age.saturating_add(1).min(62);
            }
        }
        for &r in regs {
            self.pending.insert((r, c), 0);
        }
        match c {
            Counter::Vm => self.vm = self.vm.saturating_add(1).min(VM_MAX),
            Counter::Lgkm => self.lgkm = self.lgkm.saturating_add(1).min(LGKM_MAX),
        }
    }
}

/// The register codes an operand covers.
fn regs(op: &Operand, target: Target, out: &mut Vec<u16>) {
    if let Operand::Src { code, ty } = *op {
        // SGPRs, VCC and EXEC (0..=127) and VGPRs (256..).
        if !(128..256).contains(&code) {
            out.extend(code..code + u16::from(ty.dwords(target)));
        }
    }
}

/// What memory counter an instruction increments, and whether it is a store.
fn event(i: &Instruction, defs: u8) -> Option<(Option<Counter>, bool)> {
    // Cache invalidations move no data.
    if matches!(i.opcode, Opcode::BUFFER_GL0_INV | Opcode::BUFFER_GL1_INV) {
        return None;
    }
    match i.family {
        Family::Smem => Some((Some(Counter::Lgkm), false)),
        Family::Ds => Some((Some(Counter::Lgkm), false)),
        Family::Global | Family::Flat | Family::Scratch | Family::Mubuf | Family::Mtbuf => {
            if defs > 0 {
                Some((Some(Counter::Vm), false))
            } else {
                Some((None, true))
            }
        }
        _ => None,
    }
}

fn waitcnt(target: Target, vm: u8, lgkm: u8) -> Result<Instruction, BackendError> {
    let (vm, lgkm) = (u16::from(vm), u16::from(lgkm));
    let modifiers = Modifiers {
        simm16: (vm & 0xf) | (vm >> 4 & 3) << 14 | 7 << 4 | (lgkm & 0x3f) << 8,
        ..Default::default()
    };
    physical(target, Opcode::S_WAITCNT, Family::Sopp, &[], modifiers)
}

fn waitcnt_vscnt(target: Target, n: u8) -> Result<Instruction, BackendError> {
    let modifiers = Modifiers {
        simm16: u16::from(n),
        ..Default::default()
    };
    physical(
        target,
        Opcode::S_WAITCNT_VSCNT,
        Family::Sopk,
        &[PhysOp::Code(special::NULL)],
        modifiers,
    )
}

/// Inserts the waits `items` needs. Loops (backward branches) make the
/// data-flow cyclic: the pass reruns with each loop head's state merged with
/// its back edges' until nothing changes (ages saturate, so it terminates).
pub fn insert(items: Vec<PItem>, target: Target) -> Result<Vec<PItem>, BackendError> {
    let mut entry: HashMap<u32, State> = HashMap::new();
    loop {
        let (out, back) = pass(&items, target, &entry)?;
        let mut changed = false;
        for (l, s) in back {
            let e = entry.entry(l).or_default();
            let before = e.clone();
            e.merge(&s);
            changed |= *e != before;
        }
        if !changed {
            return Ok(out);
        }
    }
}

/// One pass; returns the code and the states at backward branches.
#[allow(clippy::type_complexity)]
fn pass(
    items: &[PItem],
    target: Target,
    entry: &HashMap<u32, State>,
) -> Result<(Vec<PItem>, Vec<(u32, State)>), BackendError> {
    let mut out = Vec::with_capacity(items.len() + items.len() / 4);
    let mut back = Vec::new();
    let mut placed = std::collections::HashSet::new();
    let mut at_label: HashMap<u32, State> = entry.clone();
    // `None` after an unconditional branch: the next code is reached only by labels.
    let mut state = Some(State::default());
    let mut touched = Vec::new();
    for item in items.iter().cloned() {
        match item {
            PItem::Label(l) => {
                placed.insert(l);
                if let Some(s) = at_label.remove(&l) {
                    match &mut state {
                        Some(st) => st.merge(&s),
                        None => state = Some(s),
                    }
                }
                out.push(PItem::Label(l));
            }
            PItem::Inst(i, defs, target_label) => {
                let st = state.get_or_insert_with(State::default);
                let mut need_vm = VM_MAX;
                let mut need_lgkm = LGKM_MAX;
                let mut need_vs = VS_MAX;
                // A barrier and a fence (its first invalidation) wait for
                // every outstanding memory access.
                if matches!(i.opcode, Opcode::S_BARRIER | Opcode::BUFFER_GL1_INV) {
                    need_vm = 0;
                    need_lgkm = 0;
                    need_vs = 0;
                } else {
                    touched.clear();
                    for op in i.operands() {
                        regs(op, target, &mut touched);
                    }
                    for r in &touched {
                        for c in [Counter::Vm, Counter::Lgkm] {
                            if let Some(&age) = st.pending.get(&(*r, c)) {
                                match c {
                                    Counter::Vm => need_vm = need_vm.min(age),
                                    Counter::Lgkm => {
                                        need_lgkm = need_lgkm.min(if st.smem { 0 } else { age })
                                    }
                                }
                            }
                        }
                    }
                }
                let wait_vm = need_vm < st.vm;
                let wait_lgkm = need_lgkm < st.lgkm;
                if wait_vm || wait_lgkm {
                    let vm = if wait_vm { need_vm } else { VM_MAX };
                    let lgkm = if wait_lgkm { need_lgkm } else { LGKM_MAX };
                    out.push(PItem::Inst(waitcnt(target, vm, lgkm)?, 0, None));
                    if wait_vm {
                        st.waited(Counter::Vm, vm);
                    }
                    if wait_lgkm {
                        st.waited(Counter::Lgkm, lgkm);
                    }
                }
                if need_vs < st.vs {
                    out.push(PItem::Inst(waitcnt_vscnt(target, need_vs)?, 0, None));
                    st.vs = need_vs;
                }
                if let Some((counter, store)) = event(&i, defs) {
                    touched.clear();
                    for op in &i.operands()[..usize::from(defs)] {
                        regs(op, target, &mut touched);
                    }
                    if let Some(c) = counter {
                        if i.family == Family::Smem {
                            st.smem = true;
                        }
                        st.issue(c, &touched);
                    }
                    if store {
                        st.vs = st.vs.saturating_add(1).min(VS_MAX);
                    }
                }
                if let Some(l) = target_label.filter(|l| placed.contains(l)) {
                    back.push((l, st.clone()));
                    if i.opcode == Opcode::S_BRANCH {
                        state = None;
                    }
                } else if let Some(l) = target_label {
                    let snapshot = st.clone();
                    at_label
                        .entry(l)
                        .and_modify(|s| s.merge(&snapshot))
                        .or_insert(snapshot);
                    if i.opcode == Opcode::S_BRANCH {
                        state = None;
                    }
                }
                out.push(PItem::Inst(i, defs, target_label));
            }
        }
    }
    Ok((out, back))
}
