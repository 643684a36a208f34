//! The harness shared by the `exec_valu*` integration tests: a wave's
//! registers, one instruction run through `hw::exec::execute`, and its writes
//! applied back.

#![allow(dead_code)]

pub use arch::device::FaultKind;
use arch::isa::asm::assemble_line;
use arch::isa::Target;
use hw::exec::{execute_isolated, ScalarState, Vgprs, Writes};

/// A wave's registers, with helpers to run one instruction and apply it.
pub struct Wave {
    pub s: ScalarState,
    pub rows: Vec<[u32; 32]>,
    pub wave64: bool,
}

impl Wave {
    pub fn new(wave64: bool, vgprs: usize) -> Wave {
        let mut s = ScalarState::new();
        s.sgpr[126] = u32::MAX;
        if wave64 {
            s.sgpr[127] = u32::MAX;
        }
        Wave {
            s,
            rows: vec![[0; 32]; if wave64 { 2 * vgprs } else { vgprs }],
            wave64,
        }
    }

    pub fn lanes(&self) -> usize {
        if self.wave64 {
            64
        } else {
            32
        }
    }

    pub fn row(&self, reg: usize, lane: usize) -> usize {
        if self.wave64 {
            2 * reg + lane / 32
        } else {
            reg
        }
    }

    pub fn set(&mut self, reg: usize, lane: usize, value: u32) {
        let r = self.row(reg, lane);
        self.rows[r][lane % 32] = value;
    }

    pub fn get(&self, reg: usize, lane: usize) -> u32 {
        self.rows[self.row(reg, lane)][lane % 32]
    }

    pub fn set_exec(&mut self, exec: u64) {
        self.s.sgpr[126] = exec as u32;
        self.s.sgpr[127] = if self.wave64 { (exec >> 32) as u32 } else { 0 };
    }

    pub fn exec(&self) -> u64 {
        if self.wave64 {
            self.s.exec()
        } else {
            self.s.exec() & 0xffff_ffff
        }
    }

    pub fn fill(&mut self, reg: usize, seed: u64) -> Vec<u32> {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut out = Vec::new();
        for lane in 0..self.lanes() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Mix in boundary values so carries and signs are exercised.
            let v = match lane % 8 {
                0 => 0,
                1 => u32::MAX,
                2 => 0x8000_0000,
                3 => 0x7fff_ffff,
                _ => x as u32,
            };
            self.set(reg, lane, v);
            out.push(v);
        }
        out
    }

    pub fn try_run(&self, text: &str) -> Result<Writes, FaultKind> {
        let target = if self.wave64 {
            Target::GFX1030_W64
        } else {
            Target::GFX1030_W32
        };
        let inst = assemble_line(target, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .expect("an instruction");
        let v = Vgprs {
            rows: &self.rows,
            wave64: self.wave64,
        };
        execute_isolated(&inst, &self.s, v)
    }

    pub fn run(&mut self, text: &str) -> Writes {
        let out = self
            .try_run(text)
            .unwrap_or_else(|e| panic!("{text}: {e:?}"));
        for w in &out.vgpr {
            for lane in 0..self.lanes() {
                if w.mask >> lane & 1 != 0 {
                    self.set(usize::from(w.reg), lane, w.values[lane]);
                }
            }
        }
        for &(code, value) in &out.sgpr {
            self.s.sgpr[usize::from(code)] = value;
        }
        out
    }

    /// The lane mask written to SGPR `code` (and `code + 1` in wave64).
    pub fn mask_at(&self, code: usize) -> u64 {
        let lo = u64::from(self.s.sgpr[code]);
        if self.wave64 {
            lo | u64::from(self.s.sgpr[code + 1]) << 32
        } else {
            lo
        }
    }
}

pub const EXEC_PATTERN: u64 = 0xf0f0_3c3c_a5a5_5a5b;

pub fn both(f: impl Fn(bool)) {
    f(false);
    f(true);
}

/// SDWA source select (zero or sign extended), as the ISA defines it.
pub fn sel(x: u32, sel: u32, sext: bool) -> u32 {
    let (shift, bits) = match sel {
        0..=3 => (8 * sel, 8),
        4 | 5 => (16 * (sel - 4), 16),
        _ => return x,
    };
    let f = (x >> shift) & ((1 << bits) - 1);
    if sext && f >> (bits - 1) & 1 != 0 {
        f | !0u32 << bits
    } else {
        f
    }
}
