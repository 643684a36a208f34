//! Directed tests of the scalar datapath, run through `exec::execute` on
//! instructions built with `arch`'s assembler. Expected values are computed by
//! hand (in the comments) or by an independent formula, never by the code under
//! test.

mod control;
mod coverage;
mod smem;
mod sop;

use arch::device::FaultKind;
use arch::isa::asm::assemble_line;
use arch::isa::{Instruction, Target};

use crate::exec::{execute, ExecCtx, ScalarState, Vgprs, WaveEnv, Writes};
use crate::mem::backing::Backing;

/// A wave's scalar state plus the context an instruction runs in.
pub(super) struct Bench {
    pub s: ScalarState,
    pub mem: Backing,
    pub env: WaveEnv,
    pub pc: u64,
    pub cycle: u64,
}

impl Bench {
    pub fn new(wave64: bool) -> Bench {
        Bench {
            s: ScalarState::new(),
            mem: Backing::new(),
            env: WaveEnv {
                target_wave64: wave64,
                ..WaveEnv::default()
            },
            pc: 0x1000,
            cycle: 0,
        }
    }

    pub fn target(&self) -> Target {
        self.env.target()
    }

    /// Assembles one line for this wave's target.
    pub fn inst(&self, text: &str) -> Instruction {
        match assemble_line(self.target(), text) {
            Ok(Some(i)) => i,
            other => panic!("cannot assemble `{text}`: {other:?}"),
        }
    }

    /// Runs `inst` on the current state.
    pub fn exec(&mut self, inst: &Instruction) -> Result<Writes, FaultKind> {
        let mut lds = [0u8; 0];
        let mut ctx = ExecCtx {
            memory: crate::mem::staged::DeviceMem::Direct(&mut self.mem),
            lds: &mut lds,
            env: &self.env,
            pc: self.pc,
            cycle: self.cycle,
            lds_out_of_range: None,
        };
        let v = Vgprs {
            rows: &[],
            wave64: self.env.target_wave64,
        };
        let mut out = Writes::default();
        // Stale contents must not leak into the record.
        out.sgpr.push((99, 0xdead));
        out.scc = Some(true);
        out.branch = Some(7);
        execute(inst, &self.s, v, &mut ctx, &mut out).map(|()| out)
    }

    /// Assembles and runs one line; panics on a fault.
    pub fn run(&mut self, text: &str) -> Writes {
        let inst = self.inst(text);
        match self.exec(&inst) {
            Ok(w) => w,
            Err(e) => panic!("`{text}` faulted: {e:?}"),
        }
    }

    /// Applies a record to the state (as the pipeline's writeback does).
    pub fn apply(&mut self, w: &Writes) {
        for &(c, v) in &w.sgpr {
            self.s.sgpr[usize::from(c)] = v;
        }
        if let Some(c) = w.scc {
            self.s.scc = c;
        }
        if let Some(m) = w.mode {
            self.s.mode = m;
        }
        if let Some(t) = w.trapsts {
            self.s.trapsts = t;
        }
        if let Some(f) = w.flat_scratch {
            self.s.flat_scratch = f;
        }
    }
}

/// Both wave sizes.
pub(super) const WAVES: [bool; 2] = [false, true];

/// The record's scalar writes as a vector, for comparisons.
pub(super) fn sgprs(w: &Writes) -> Vec<(u8, u32)> {
    w.sgpr.clone()
}
