//! Native code for the lowered scalar forms (`exec::lowered::scalar`): the
//! same expressions and SCC rules, as host scalar code on the wave's SGPRs.

use arch::isa::Opcode;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{InstBuilder, Value};

use super::Emit;
use crate::exec::lowered::scalar::Salu;
use crate::wave::EXEC_LO;

impl Emit<'_> {
    /// A lowered scalar instruction (not a branch: see `Emit::branch`).
    pub(super) fn salu(&mut self, s: &Salu) {
        use Opcode::*;
        match *s {
            Salu::Op32 { op, d, a, b } => {
                let x = self.s32(&a);
                let y = self.s32(&b);
                let (r, scc) = self.op32(op, x, y);
                self.dst32(&d, r);
                if let Some(c) = scc {
                    self.scc_store(c);
                }
            }
            Salu::Op64 { op, d, a, b, b32 } => {
                let x = self.s64(&a);
                let (r, scc) = match op {
                    S_LSHL_B64 | S_LSHR_B64 => {
                        let n = self.s32(&b32);
                        let n = self.b.ins().band_imm(n, 63);
                        let n = self.b.ins().uextend(I64, n);
                        let r = if op == S_LSHL_B64 {
                            self.b.ins().ishl(x, n)
                        } else {
                            self.b.ins().ushr(x, n)
                        };
                        (r, true)
                    }
                    _ => {
                        let y = self.s64(&b);
                        match op {
                            S_CSELECT_B64 => {
                                let c = self.scc_load();
                                (self.b.ins().select(c, x, y), false)
                            }
                            S_AND_B64 => (self.b.ins().band(x, y), true),
                            S_OR_B64 => (self.b.ins().bor(x, y), true),
                            S_XOR_B64 => (self.b.ins().bxor(x, y), true),
                            S_ANDN2_B64 => (self.b.ins().band_not(x, y), true),
                            // S_ORN2_B64 (the plan admits only the lowered list).
                            _ => (self.b.ins().bor_not(x, y), true),
                        }
                    }
                };
                self.dst64(&d, r);
                if scc {
                    let c = self.b.ins().icmp_imm(IntCC::NotEqual, r, 0);
                    self.scc_store(c);
                }
            }
            Salu::Mov { wide, d, a, a64 } => {
                if wide {
                    let x = self.s64(&a64);
                    self.dst64(&d, x);
                } else {
                    let x = self.s32(&a);
                    self.dst32(&d, x);
                }
            }
            Salu::SaveExec {
                op,
                wide,
                d,
                a,
                a64,
            } => {
                let ty = if wide { I64 } else { I32 };
                let s = if wide { self.s64(&a64) } else { self.s32(&a) };
                let old = if wide {
                    self.s64load(EXEC_LO)
                } else {
                    self.sload(EXEC_LO)
                };
                let new = match op {
                    S_AND_SAVEEXEC_B64 | S_AND_SAVEEXEC_B32 => self.b.ins().band(s, old),
                    S_OR_SAVEEXEC_B64 | S_OR_SAVEEXEC_B32 => self.b.ins().bor(s, old),
                    S_XOR_SAVEEXEC_B64 | S_XOR_SAVEEXEC_B32 => self.b.ins().bxor(s, old),
                    _ => self.b.ins().band_not(s, old),
                };
                debug_assert_eq!(self.b.func.dfg.value_type(new), ty);
                // D first, EXEC last, as `sop1::saveexec` (D may be EXEC).
                if wide {
                    self.dst64(&d, old);
                    self.s64store(EXEC_LO, new);
                } else {
                    self.dst32(&d, old);
                    self.sstore(EXEC_LO, new);
                }
                let c = self.b.ins().icmp_imm(IntCC::NotEqual, new, 0);
                self.scc_store(c);
            }
            Salu::Cmp { op, a, b, a64, b64 } => {
                let c = match op {
                    S_CMP_EQ_U64 | S_CMP_LG_U64 => {
                        let x = self.s64(&a64);
                        let y = self.s64(&b64);
                        let cc = if op == S_CMP_EQ_U64 {
                            IntCC::Equal
                        } else {
                            IntCC::NotEqual
                        };
                        self.b.ins().icmp(cc, x, y)
                    }
                    _ => {
                        let x = self.s32(&a);
                        let y = self.s32(&b);
                        let cc = match op {
                            S_CMP_EQ_I32 | S_CMP_EQ_U32 => IntCC::Equal,
                            S_CMP_LG_I32 | S_CMP_LG_U32 => IntCC::NotEqual,
                            S_CMP_GT_I32 => IntCC::SignedGreaterThan,
                            S_CMP_GE_I32 => IntCC::SignedGreaterThanOrEqual,
                            S_CMP_LT_I32 => IntCC::SignedLessThan,
                            S_CMP_LE_I32 => IntCC::SignedLessThanOrEqual,
                            S_CMP_GT_U32 => IntCC::UnsignedGreaterThan,
                            S_CMP_GE_U32 => IntCC::UnsignedGreaterThanOrEqual,
                            S_CMP_LT_U32 => IntCC::UnsignedLessThan,
                            _ => IntCC::UnsignedLessThanOrEqual,
                        };
                        self.b.ins().icmp(cc, x, y)
                    }
                };
                self.scc_store(c);
            }
            Salu::Nop | Salu::Branch { .. } | Salu::Count { .. } => {}
        }
    }

    /// A 32-bit SOP2 operation: the result and the new SCC, if it sets one.
    fn op32(&mut self, op: Opcode, x: Value, y: Value) -> (Value, Option<Value>) {
        use Opcode::*;
        let nz = |e: &mut Self, r: Value| {
            let c = e.b.ins().icmp_imm(IntCC::NotEqual, r, 0);
            (r, Some(c))
        };
        match op {
            S_ADD_U32 => {
                let r = self.b.ins().iadd(x, y);
                let c = self.b.ins().icmp(IntCC::UnsignedLessThan, r, x);
                (r, Some(c))
            }
            S_SUB_U32 => {
                let r = self.b.ins().isub(x, y);
                let c = self.b.ins().icmp(IntCC::UnsignedLessThan, x, y);
                (r, Some(c))
            }
            S_ADD_I32 | S_SUB_I32 => {
                // Signed overflow: the sign of the result differs from both
                // addends' (add) / from x's where x and y differ (sub).
                let (r, t) = if op == S_ADD_I32 {
                    let r = self.b.ins().iadd(x, y);
                    let p = self.b.ins().bxor(x, r);
                    let q = self.b.ins().bxor(y, r);
                    (r, self.b.ins().band(p, q))
                } else {
                    let r = self.b.ins().isub(x, y);
                    let p = self.b.ins().bxor(x, y);
                    let q = self.b.ins().bxor(x, r);
                    (r, self.b.ins().band(p, q))
                };
                let c = self.b.ins().icmp_imm(IntCC::SignedLessThan, t, 0);
                (r, Some(c))
            }
            S_ADDC_U32 | S_SUBB_U32 => {
                let c = self.scc_load();
                let c = self.b.ins().uextend(I64, c);
                let p = self.b.ins().uextend(I64, x);
                let q = self.b.ins().uextend(I64, y);
                if op == S_ADDC_U32 {
                    let t = self.b.ins().iadd(p, q);
                    let t = self.b.ins().iadd(t, c);
                    let r = self.b.ins().ireduce(I32, t);
                    let hi = self.b.ins().ushr_imm(t, 32);
                    let s = self.b.ins().icmp_imm(IntCC::NotEqual, hi, 0);
                    (r, Some(s))
                } else {
                    let q = self.b.ins().iadd(q, c);
                    let t = self.b.ins().isub(p, q);
                    let r = self.b.ins().ireduce(I32, t);
                    let s = self.b.ins().icmp(IntCC::UnsignedGreaterThan, q, p);
                    (r, Some(s))
                }
            }
            S_MIN_I32 | S_MIN_U32 | S_MAX_I32 | S_MAX_U32 => {
                let cc = match op {
                    S_MIN_I32 => IntCC::SignedLessThan,
                    S_MIN_U32 => IntCC::UnsignedLessThan,
                    S_MAX_I32 => IntCC::SignedGreaterThan,
                    _ => IntCC::UnsignedGreaterThan,
                };
                // min: x < y ? x : y (equal: either); max likewise.
                let c = self.b.ins().icmp(cc, x, y);
                let r = self.b.ins().select(c, x, y);
                (r, Some(c))
            }
            S_CSELECT_B32 => {
                let c = self.scc_load();
                (self.b.ins().select(c, x, y), None)
            }
            S_AND_B32 => {
                let r = self.b.ins().band(x, y);
                nz(self, r)
            }
            S_OR_B32 => {
                let r = self.b.ins().bor(x, y);
                nz(self, r)
            }
            S_XOR_B32 => {
                let r = self.b.ins().bxor(x, y);
                nz(self, r)
            }
            S_ANDN2_B32 => {
                let r = self.b.ins().band_not(x, y);
                nz(self, r)
            }
            S_ORN2_B32 => {
                let r = self.b.ins().bor_not(x, y);
                nz(self, r)
            }
            S_LSHL_B32 | S_LSHR_B32 | S_ASHR_I32 => {
                let n = self.b.ins().band_imm(y, 31);
                let r = match op {
                    S_LSHL_B32 => self.b.ins().ishl(x, n),
                    S_LSHR_B32 => self.b.ins().ushr(x, n),
                    _ => self.b.ins().sshr(x, n),
                };
                nz(self, r)
            }
            // S_MUL_I32 (the plan admits only the lowered list).
            _ => (self.b.ins().imul(x, y), None),
        }
    }
}
