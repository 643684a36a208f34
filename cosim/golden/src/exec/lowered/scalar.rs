//! Pre-lowered fast paths for the most common scalar instructions: SOP2/SOPC
//! integer and bitwise operations, `s_mov`, the `s_*_saveexec` family, the
//! no-op waits and hints, and branches (with the target computed once).
//!
//! These restate the semantics of `sop/{mod,sop1,sopp}.rs` for the
//! listed opcodes (the expressions and SCC rules are copied from there); the
//! differential test `cosim/tests/golden_lowered.rs` runs every form on
//! random registers and SCC through both paths. Operands are checked when the
//! instruction is lowered (destinations must be writable SGPRs), and a
//! source that does not read as a value at run time sends the instruction to
//! the general path before anything changes.

use arch::device::WaveId;
use arch::isa::{Family, Instruction, Opcode, Operand, Target};

use crate::exec::sop::sop1::{first_set, nz};
use crate::exec::{Flow, Wave};
use crate::wave::{EXEC_LO, NULL};

/// A 32-bit scalar source resolved when lowered: an SGPR index, a value
/// (constant or literal: what [`Wave::read_scalar`] returns for it whatever the
/// wave's state), or the operand itself for anything state-dependent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum S32 {
    /// `sgpr[i]`.
    Reg(u8),
    /// A constant.
    Imm(u32),
    /// Read with [`Wave::read_scalar`] at run time.
    Op(Operand),
}

/// A 64-bit scalar source, as [`S32`] for [`Wave::read_scalar64`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum S64 {
    /// `sgpr[i] | sgpr[i + 1] << 32`.
    Pair(u8),
    /// A constant.
    Imm(u64),
    /// Read with [`Wave::read_scalar64`] at run time.
    Op(Operand),
}

/// True for source codes whose value does not depend on the wave: integer and
/// float inline constants and the aperture registers.
fn constant_code(code: u16) -> bool {
    matches!(code, 128..=208 | 235..=238 | 240..=248)
}

impl S32 {
    /// Resolves `op` for a wave of `target`.
    pub fn of(target: Target, op: Operand) -> S32 {
        let probe = Wave::new(WaveId::default(), target, 0);
        match op {
            Operand::Src { code, .. } if code < 128 && code != NULL => S32::Reg(code as u8),
            Operand::Src { code, .. } if code == NULL || constant_code(code) => {
                probe.read_scalar(&op).map_or(S32::Op(op), S32::Imm)
            }
            Operand::Literal { .. } => probe.read_scalar(&op).map_or(S32::Op(op), S32::Imm),
            _ => S32::Op(op),
        }
    }

    /// The value (`None`: the general path must run).
    #[inline(always)]
    pub fn read(&self, w: &Wave) -> Option<u32> {
        match *self {
            S32::Reg(i) => Some(w.sgpr[usize::from(i)]),
            S32::Imm(v) => Some(v),
            S32::Op(op) => w.read_scalar(&op).ok(),
        }
    }
}

impl S64 {
    /// Resolves `op` for a wave of `target`.
    pub fn of(target: Target, op: Operand) -> S64 {
        let probe = Wave::new(WaveId::default(), target, 0);
        match op {
            Operand::Src { code, .. } if code < 127 && code != NULL => S64::Pair(code as u8),
            Operand::Src { code, .. } if code == NULL || constant_code(code) => {
                probe.read_scalar64(&op).map_or(S64::Op(op), S64::Imm)
            }
            Operand::Literal { .. } => probe.read_scalar64(&op).map_or(S64::Op(op), S64::Imm),
            _ => S64::Op(op),
        }
    }

    /// The value (`None`: the general path must run).
    #[inline(always)]
    pub fn read(&self, w: &Wave) -> Option<u64> {
        match *self {
            S64::Pair(i) => {
                let i = usize::from(i);
                Some(u64::from(w.sgpr[i]) | (u64::from(w.sgpr[i + 1]) << 32))
            }
            S64::Imm(v) => Some(v),
            S64::Op(op) => w.read_scalar64(&op).ok(),
        }
    }
}

/// A lowered scalar operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Salu {
    /// 32-bit `d = f(a, b)` (SOP2), with the SCC rule of the opcode.
    Op32 {
        /// The opcode (one of the listed SOP2 32-bit ones).
        op: Opcode,
        /// Destination SGPR.
        d: Operand,
        /// src0.
        a: S32,
        /// src1.
        b: S32,
    },
    /// 64-bit bitwise / shift / select (SOP2).
    Op64 {
        /// The opcode.
        op: Opcode,
        /// Destination SGPR pair.
        d: Operand,
        /// src0.
        a: S64,
        /// src1 (64-bit; the shift forms read its low dword as [`S32`]).
        b: S64,
        /// src1 as a 32-bit value (shift amount).
        b32: S32,
    },
    /// One-source bit counts (SOP1): `s_ff1_i32_b32/b64` (no SCC) and
    /// `s_bcnt1_i32_b32/b64` (SCC = result != 0), as `sop/sop1.rs` computes them.
    Count {
        /// The opcode.
        op: Opcode,
        /// Destination SGPR.
        d: Operand,
        /// Source (32-bit forms).
        a: S32,
        /// Source (64-bit forms).
        a64: S64,
    },
    /// `s_mov_b32` (`wide` false) or `s_mov_b64`.
    Mov {
        /// 64-bit.
        wide: bool,
        /// Destination.
        d: Operand,
        /// Source (32-bit form).
        a: S32,
        /// Source (64-bit form).
        a64: S64,
    },
    /// `s_{and,or,xor,andn2}_saveexec_b{32,64}`.
    SaveExec {
        /// The opcode.
        op: Opcode,
        /// 64-bit (`_b64`).
        wide: bool,
        /// Destination (receives the old EXEC).
        d: Operand,
        /// Source (32-bit form).
        a: S32,
        /// Source (64-bit form).
        a64: S64,
    },
    /// SOPC compare setting SCC.
    Cmp {
        /// The opcode.
        op: Opcode,
        /// src0 (32-bit compares).
        a: S32,
        /// src1 (32-bit compares).
        b: S32,
        /// src0 (64-bit compares).
        a64: S64,
        /// src1 (64-bit compares).
        b64: S64,
    },
    /// A functional no-op (`s_waitcnt`, `s_nop`, ...).
    Nop,
    /// A branch to `target` when `cond` holds.
    Branch {
        /// When it is taken.
        cond: Cond,
        /// The absolute target.
        target: u64,
    },
}

/// Branch conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    /// Always (`s_branch`).
    Always,
    /// SCC clear.
    Scc0,
    /// SCC set.
    Scc1,
    /// VCC zero.
    Vccz,
    /// VCC not zero.
    Vccnz,
    /// EXEC zero.
    Execz,
    /// EXEC not zero.
    Execnz,
}

/// True for a destination `write_scalar` (`wide` false) or `write_scalar64`
/// accepts, so the fast path's write cannot fail.
fn writable(op: &Operand, wide: bool) -> bool {
    match *op {
        Operand::Src { code, .. } => code == NULL || if wide { code < 127 } else { code < 128 },
        _ => false,
    }
}

/// The lowered form of a scalar instruction at `pc`, if it has one.
pub fn lower(inst: &Instruction, pc: u64) -> Option<Salu> {
    use Opcode::*;
    let ops = inst.operands();
    let op = inst.opcode;
    let t = inst.target;
    let s32 = |o: Operand| S32::of(t, o);
    let s64 = |o: Operand| S64::of(t, o);
    match inst.family {
        Family::Sop2 => {
            let [d, a, b] = [*ops.first()?, *ops.get(1)?, *ops.get(2)?];
            match op {
                S_ADD_U32 | S_SUB_U32 | S_ADD_I32 | S_SUB_I32 | S_ADDC_U32 | S_SUBB_U32
                | S_MIN_I32 | S_MIN_U32 | S_MAX_I32 | S_MAX_U32 | S_CSELECT_B32 | S_AND_B32
                | S_OR_B32 | S_XOR_B32 | S_ANDN2_B32 | S_ORN2_B32 | S_LSHL_B32 | S_LSHR_B32
                | S_ASHR_I32 | S_MUL_I32
                    if writable(&d, false) =>
                {
                    Some(Salu::Op32 {
                        op,
                        d,
                        a: s32(a),
                        b: s32(b),
                    })
                }
                S_CSELECT_B64 | S_AND_B64 | S_OR_B64 | S_XOR_B64 | S_ANDN2_B64 | S_ORN2_B64
                | S_LSHL_B64 | S_LSHR_B64
                    if writable(&d, true) =>
                {
                    Some(Salu::Op64 {
                        op,
                        d,
                        a: s64(a),
                        b: s64(b),
                        b32: s32(b),
                    })
                }
                _ => None,
            }
        }
        Family::Sop1 => {
            let [d, a] = [*ops.first()?, *ops.get(1)?];
            match op {
                S_MOV_B32 if writable(&d, false) => Some(Salu::Mov {
                    wide: false,
                    d,
                    a: s32(a),
                    a64: s64(a),
                }),
                S_MOV_B64 if writable(&d, true) => Some(Salu::Mov {
                    wide: true,
                    d,
                    a: s32(a),
                    a64: s64(a),
                }),
                S_FF1_I32_B32 | S_FF1_I32_B64 | S_BCNT1_I32_B32 | S_BCNT1_I32_B64
                    if writable(&d, false) =>
                {
                    Some(Salu::Count {
                        op,
                        d,
                        a: s32(a),
                        a64: s64(a),
                    })
                }
                S_AND_SAVEEXEC_B64 | S_OR_SAVEEXEC_B64 | S_XOR_SAVEEXEC_B64
                | S_ANDN2_SAVEEXEC_B64
                    if writable(&d, true) =>
                {
                    Some(Salu::SaveExec {
                        op,
                        wide: true,
                        d,
                        a: s32(a),
                        a64: s64(a),
                    })
                }
                S_AND_SAVEEXEC_B32 | S_OR_SAVEEXEC_B32 | S_XOR_SAVEEXEC_B32
                | S_ANDN2_SAVEEXEC_B32
                    if writable(&d, false) =>
                {
                    Some(Salu::SaveExec {
                        op,
                        wide: false,
                        d,
                        a: s32(a),
                        a64: s64(a),
                    })
                }
                _ => None,
            }
        }
        Family::Sopc => match op {
            S_CMP_EQ_I32 | S_CMP_EQ_U32 | S_CMP_LG_I32 | S_CMP_LG_U32 | S_CMP_GT_I32
            | S_CMP_GE_I32 | S_CMP_LT_I32 | S_CMP_LE_I32 | S_CMP_GT_U32 | S_CMP_GE_U32
            | S_CMP_LT_U32 | S_CMP_LE_U32 | S_CMP_EQ_U64 | S_CMP_LG_U64 => {
                let (a, b) = (*ops.first()?, *ops.get(1)?);
                Some(Salu::Cmp {
                    op,
                    a: s32(a),
                    b: s32(b),
                    a64: s64(a),
                    b64: s64(b),
                })
            }
            _ => None,
        },
        Family::Sopp => {
            // `sop::branch`: pc + 4 + 4 * simm16.
            let target = pc
                .wrapping_add(4)
                .wrapping_add((i64::from(inst.modifiers.simm16 as i16) * 4) as u64);
            let cond = match op {
                S_NOP | S_WAITCNT | S_CLAUSE | S_WAITCNT_DEPCTR | S_INST_PREFETCH | S_SETPRIO => {
                    return Some(Salu::Nop)
                }
                S_BRANCH => Cond::Always,
                S_CBRANCH_SCC0 => Cond::Scc0,
                S_CBRANCH_SCC1 => Cond::Scc1,
                S_CBRANCH_VCCZ => Cond::Vccz,
                S_CBRANCH_VCCNZ => Cond::Vccnz,
                S_CBRANCH_EXECZ => Cond::Execz,
                S_CBRANCH_EXECNZ => Cond::Execnz,
                _ => return None,
            };
            Some(Salu::Branch { cond, target })
        }
        _ => None,
    }
}

/// Runs a lowered scalar instruction; `None` (nothing changed) sends it to
/// the general path.
#[inline]
pub fn execute(w: &mut Wave, s: &Salu) -> Option<Flow> {
    use Opcode::*;
    match *s {
        Salu::Op32 { op, d, a, b } => {
            let x = a.read(w)?;
            let y = b.read(w)?;
            let nz = |v: u32| (v, Some(v != 0));
            let (r, scc) = match op {
                S_ADD_U32 => {
                    let (r, c) = x.overflowing_add(y);
                    (r, Some(c))
                }
                S_SUB_U32 => {
                    let (r, c) = x.overflowing_sub(y);
                    (r, Some(c))
                }
                S_ADD_I32 => {
                    let (r, o) = (x as i32).overflowing_add(y as i32);
                    (r as u32, Some(o))
                }
                S_SUB_I32 => {
                    let (r, o) = (x as i32).overflowing_sub(y as i32);
                    (r as u32, Some(o))
                }
                S_ADDC_U32 => {
                    let t = u64::from(x) + u64::from(y) + u64::from(w.scc);
                    (t as u32, Some(t >> 32 != 0))
                }
                S_SUBB_U32 => {
                    let (p, q) = (u64::from(x), u64::from(y) + u64::from(w.scc));
                    (p.wrapping_sub(q) as u32, Some(q > p))
                }
                S_MIN_I32 => (
                    (x as i32).min(y as i32) as u32,
                    Some((x as i32) < (y as i32)),
                ),
                S_MIN_U32 => (x.min(y), Some(x < y)),
                S_MAX_I32 => (
                    (x as i32).max(y as i32) as u32,
                    Some((x as i32) > (y as i32)),
                ),
                S_MAX_U32 => (x.max(y), Some(x > y)),
                S_CSELECT_B32 => (if w.scc { x } else { y }, None),
                S_AND_B32 => nz(x & y),
                S_OR_B32 => nz(x | y),
                S_XOR_B32 => nz(x ^ y),
                S_ANDN2_B32 => nz(x & !y),
                S_ORN2_B32 => nz(x | !y),
                S_LSHL_B32 => nz(x << (y & 31)),
                S_LSHR_B32 => nz(x >> (y & 31)),
                S_ASHR_I32 => nz(((x as i32) >> (y & 31)) as u32),
                S_MUL_I32 => (x.wrapping_mul(y), None),
                _ => return None,
            };
            w.write_scalar(&d, r).ok()?;
            if let Some(s) = scc {
                w.scc = s;
            }
            Some(Flow::Next)
        }
        Salu::Op64 { op, d, a, b, b32 } => {
            let x = a.read(w)?;
            let (r, scc) = match op {
                S_LSHL_B64 | S_LSHR_B64 => {
                    let n = b32.read(w)? & 63;
                    let r = if op == S_LSHL_B64 { x << n } else { x >> n };
                    (r, Some(r != 0))
                }
                _ => {
                    let y = b.read(w)?;
                    let nz = |v: u64| (v, Some(v != 0));
                    match op {
                        S_CSELECT_B64 => (if w.scc { x } else { y }, None),
                        S_AND_B64 => nz(x & y),
                        S_OR_B64 => nz(x | y),
                        S_XOR_B64 => nz(x ^ y),
                        S_ANDN2_B64 => nz(x & !y),
                        S_ORN2_B64 => nz(x | !y),
                        _ => return None,
                    }
                }
            };
            w.write_scalar64(&d, r).ok()?;
            if let Some(s) = scc {
                w.scc = s;
            }
            Some(Flow::Next)
        }
        Salu::Count { op, d, a, a64 } => {
            // As `sop/sop1.rs` computes them.
            let (r, scc) = match op {
                S_FF1_I32_B32 => (first_set(u64::from(a.read(w)?)), None),
                S_FF1_I32_B64 => (first_set(a64.read(w)?), None),
                S_BCNT1_I32_B32 => nz(a.read(w)?.count_ones()),
                S_BCNT1_I32_B64 => nz(a64.read(w)?.count_ones()),
                _ => return None,
            };
            w.write_scalar(&d, r).ok()?;
            if let Some(s) = scc {
                w.scc = s;
            }
            Some(Flow::Next)
        }
        Salu::Mov { wide, d, a, a64 } => {
            if wide {
                let x = a64.read(w)?;
                w.write_scalar64(&d, x).ok()?;
            } else {
                let x = a.read(w)?;
                w.write_scalar(&d, x).ok()?;
            }
            Some(Flow::Next)
        }
        Salu::SaveExec {
            op,
            wide,
            d,
            a,
            a64,
        } => {
            let f = |s: u64, e: u64| match op {
                S_AND_SAVEEXEC_B64 | S_AND_SAVEEXEC_B32 => s & e,
                S_OR_SAVEEXEC_B64 | S_OR_SAVEEXEC_B32 => s | e,
                S_XOR_SAVEEXEC_B64 | S_XOR_SAVEEXEC_B32 => s ^ e,
                _ => s & !e,
            };
            let lo = usize::from(EXEC_LO);
            if wide {
                let s = a64.read(w)?;
                let old = u64::from(w.sgpr[lo]) | (u64::from(w.sgpr[lo + 1]) << 32);
                let new = f(s, old);
                // Cannot fail: the destination was checked when lowered.
                // D first, EXEC last, as `sop1::saveexec` (D may be EXEC).
                w.write_scalar64(&d, old).ok()?;
                w.sgpr[lo] = new as u32;
                w.sgpr[lo + 1] = (new >> 32) as u32;
                w.scc = new != 0;
            } else {
                let s = u64::from(a.read(w)?);
                let old = u64::from(w.sgpr[lo]);
                let new = f(s, old) as u32;
                w.write_scalar(&d, old as u32).ok()?;
                w.sgpr[lo] = new;
                w.scc = new != 0;
            }
            Some(Flow::Next)
        }
        Salu::Cmp { op, a, b, a64, b64 } => {
            w.scc = match op {
                S_CMP_EQ_U64 => a64.read(w)? == b64.read(w)?,
                S_CMP_LG_U64 => a64.read(w)? != b64.read(w)?,
                _ => {
                    let (x, y) = (a.read(w)?, b.read(w)?);
                    let (i, j) = (x as i32, y as i32);
                    match op {
                        S_CMP_EQ_I32 | S_CMP_EQ_U32 => x == y,
                        S_CMP_LG_I32 | S_CMP_LG_U32 => x != y,
                        S_CMP_GT_I32 => i > j,
                        S_CMP_GE_I32 => i >= j,
                        S_CMP_LT_I32 => i < j,
                        S_CMP_LE_I32 => i <= j,
                        S_CMP_GT_U32 => x > y,
                        S_CMP_GE_U32 => x >= y,
                        S_CMP_LT_U32 => x < y,
                        _ => x <= y,
                    }
                }
            };
            Some(Flow::Next)
        }
        Salu::Nop => Some(Flow::Next),
        Salu::Branch { cond, target } => {
            let taken = match cond {
                Cond::Always => true,
                Cond::Scc0 => !w.scc,
                Cond::Scc1 => w.scc,
                Cond::Vccz => w.vcc() == 0,
                Cond::Vccnz => w.vcc() != 0,
                Cond::Execz => w.exec() == 0,
                Cond::Execnz => w.exec() != 0,
            };
            Some(if taken {
                Flow::Jump(target)
            } else {
                Flow::Next
            })
        }
    }
}
