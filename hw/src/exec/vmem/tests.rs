//! Directed tests of the vmem datapath: instructions assembled with `arch`'s
//! assembler, run on a small wave against a [`Backing`] holding known bytes
//! and an LDS buffer; expected values are computed here from the byte pattern.

mod buffer_ds;
mod coverage;
mod global;

use arch::device::FaultKind;
use arch::isa::{asm::assemble_line, Target};

use crate::exec::{execute, ExecCtx, MemOp, ScalarState, Vgprs, WaveEnv, Writes, MAX_LANES};
use crate::mem::backing::Backing;

/// Start and size of the mapped device memory.
const MEM: u64 = 0x1_0000;
const MEM_SIZE: u64 = 0x4000;
/// The wave's private slice (FLAT_SCRATCH), mapped separately.
const SCRATCH: u64 = 0x8_0000;
const SCRATCH_SIZE: u64 = 0x2000;
/// LDS bytes of the workgroup.
const LDS: usize = 1024;

/// The initial byte at device address `a`.
fn byte_at(a: u64) -> u8 {
    (a.wrapping_mul(13) ^ (a >> 8)).wrapping_add(5) as u8
}

/// The initial little-endian `n`-byte value at `a`.
fn value_at(a: u64, n: usize) -> u64 {
    (0..n).fold(0u64, |acc, i| {
        acc | u64::from(byte_at(a + i as u64)) << (8 * i)
    })
}

/// A wave with 64 VGPRs, all lanes active, memory and LDS filled with patterns.
struct Rig {
    wave64: bool,
    s: ScalarState,
    rows: Vec<[u32; 32]>,
    mem: Backing,
    lds: Vec<u8>,
    env: WaveEnv,
}

impl Rig {
    fn new(wave64: bool) -> Rig {
        let mut mem = Backing::new();
        mem.map(MEM, MEM_SIZE).unwrap();
        let bytes: Vec<u8> = (0..MEM_SIZE).map(|i| byte_at(MEM + i)).collect();
        mem.write(MEM, &bytes).unwrap();
        mem.map(SCRATCH, SCRATCH_SIZE).unwrap();
        let mut s = ScalarState::new();
        s.sgpr[126] = u32::MAX;
        s.sgpr[127] = if wave64 { u32::MAX } else { 0 };
        s.flat_scratch = SCRATCH;
        let lds = (0..LDS).map(|i| (i as u8).wrapping_mul(7) ^ 0x5a).collect();
        Rig {
            wave64,
            s,
            rows: vec![[0; 32]; if wave64 { 128 } else { 64 }],
            mem,
            lds,
            env: WaveEnv {
                target_wave64: wave64,
                scratch_slice: SCRATCH,
                scratch_per_item: 64,
                lds_bytes: LDS as u32,
                ..WaveEnv::default()
            },
        }
    }

    fn lanes(&self) -> usize {
        if self.wave64 {
            64
        } else {
            32
        }
    }

    fn target(&self) -> Target {
        self.env.target()
    }

    fn set_v(&mut self, reg: usize, f: impl Fn(usize) -> u32) {
        for lane in 0..self.lanes() {
            let row = if self.wave64 {
                2 * reg + lane / 32
            } else {
                reg
            };
            self.rows[row][lane % 32] = f(lane);
        }
    }

    fn v(&self, reg: usize, lane: usize) -> u32 {
        let row = if self.wave64 {
            2 * reg + lane / 32
        } else {
            reg
        };
        self.rows[row][lane % 32]
    }

    fn set_exec(&mut self, mask: u64) {
        self.s.sgpr[126] = mask as u32;
        self.s.sgpr[127] = (mask >> 32) as u32;
    }

    /// Runs one instruction; on success applies its VGPR writes to the rig.
    fn run(&mut self, text: &str) -> Result<Writes, FaultKind> {
        let inst = assemble_line(self.target(), text)
            .unwrap_or_else(|e| panic!("`{text}`: {e:?}"))
            .unwrap_or_else(|| panic!("`{text}`: empty"));
        let mut out = Writes::default();
        let v = Vgprs {
            rows: &self.rows,
            wave64: self.wave64,
        };
        let mut ctx = ExecCtx {
            memory: crate::mem::staged::DeviceMem::Direct(&mut self.mem),
            lds: &mut self.lds,
            env: &self.env,
            pc: 0,
            cycle: 0,
            lds_out_of_range: None,
        };
        execute(&inst, &self.s, v, &mut ctx, &mut out)?;
        for w in &out.vgpr {
            for lane in 0..self.lanes() {
                if w.mask >> lane & 1 != 0 {
                    let row = if self.wave64 {
                        2 * usize::from(w.reg) + lane / 32
                    } else {
                        usize::from(w.reg)
                    };
                    self.rows[row][lane % 32] = w.values[lane];
                }
            }
        }
        Ok(out)
    }

    fn ok(&mut self, text: &str) -> Writes {
        self.run(text).unwrap_or_else(|e| panic!("`{text}`: {e:?}"))
    }

    fn read(&self, a: u64, n: usize) -> u64 {
        let mut b = [0u8; 8];
        self.mem.read(a, &mut b[..n]).unwrap();
        u64::from_le_bytes(b)
    }

    fn lds_u32(&self, o: usize) -> u32 {
        u32::from_le_bytes(self.lds[o..o + 4].try_into().unwrap())
    }
}

/// Both wave sizes.
const WAVES: [bool; 2] = [false, true];

/// Asserts that the instruction recorded exactly `want` as its accesses.
fn assert_access(out: &Writes, op: MemOp, want: &[(u8, u64, u8)]) {
    assert_eq!(out.access.op, op);
    assert_eq!(out.access.lanes, want);
}

/// `MAX_LANES` as a mask-friendly helper.
fn all(lanes: usize) -> u64 {
    if lanes == MAX_LANES {
        u64::MAX
    } else {
        (1 << lanes) - 1
    }
}
