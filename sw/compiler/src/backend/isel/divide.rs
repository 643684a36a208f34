//! 32-bit integer division and remainder. gfx1030 has no integer divide:
//! the quotient comes from a float reciprocal refined in integers, then
//! corrected twice (the expansion LLVM's AMDGPU back end uses):
//!
//! 1. `r ≈ 2^32 / d` from `v_rcp_iflag_f32` scaled by `0x4f7ffffe` (2^32
//!    less a margin so the estimate never overshoots);
//! 2. one Newton step in integers: `r += mulhi(r, -d * r)`;
//! 3. `q = mulhi(n, r)`, `rem = n - q * d`; twice: `if rem >= d { q++; rem -= d }`.
//!
//! Signed forms divide magnitudes and fix the signs: the quotient is
//! negative when the operands' signs differ, the remainder takes the
//! dividend's sign (C's truncating division). Division by zero gives
//! whatever the sequence yields (OpenCL leaves it undefined).

use arch::isa::Opcode;

use super::Isel;
use crate::backend::minst::{MOp, RegClass, VReg};
use crate::ir::BinaryOp;

impl Isel<'_> {
    fn vtemp(&mut self) -> MOp {
        MOp::Reg(self.mc.vreg(RegClass::Vgpr, 1), 0)
    }

    /// `d = n op m` for a division or remainder, per lane.
    pub(super) fn divrem(&mut self, d: VReg, op: BinaryOp, n: MOp, m: MOp) {
        let signed = matches!(op, BinaryOp::Sdiv | BinaryOp::Srem);
        let want_rem = matches!(op, BinaryOp::Srem | BinaryOp::Urem);
        let (un, um, sn, sm) = if signed {
            let sn = self.vtemp();
            let sm = self.vtemp();
            self.vop2(Opcode::V_ASHRREV_I32, sn, MOp::Imm(31), n, false);
            self.vop2(Opcode::V_ASHRREV_I32, sm, MOp::Imm(31), m, false);
            // |x| = (x + s) ^ s with s = x >> 31.
            let abs = |s: &mut Self, x: MOp, sx: MOp| {
                let t = s.vtemp();
                s.vop2(Opcode::V_ADD_NC_U32, t, x, sx, true);
                let u = s.vtemp();
                s.vop2(Opcode::V_XOR_B32, u, t, sx, true);
                u
            };
            let un = abs(self, n, sn);
            let um = abs(self, m, sm);
            (un, um, Some(sn), Some(sm))
        } else {
            let n = self.in_vgpr(n);
            let m = self.in_vgpr(m);
            (n, m, None, None)
        };
        let (q, rem) = self.udivrem(un, um);
        let out = MOp::Reg(d, 0);
        match (signed, want_rem) {
            (false, false) => self.vop1(Opcode::V_MOV_B32, out, q),
            (false, true) => self.vop1(Opcode::V_MOV_B32, out, rem),
            (true, false) => {
                let s = self.vtemp();
                self.vop2(Opcode::V_XOR_B32, s, sn.unwrap(), sm.unwrap(), true);
                let t = self.vtemp();
                self.vop2(Opcode::V_XOR_B32, t, q, s, true);
                self.vop2(Opcode::V_SUB_NC_U32, out, t, s, false);
            }
            (true, true) => {
                let sn = sn.unwrap();
                let t = self.vtemp();
                self.vop2(Opcode::V_XOR_B32, t, rem, sn, true);
                self.vop2(Opcode::V_SUB_NC_U32, out, t, sn, false);
            }
        }
    }

    /// Unsigned quotient and remainder of two VGPR values.
    fn udivrem(&mut self, n: MOp, d: MOp) -> (MOp, MOp) {
        let f = self.vtemp();
        self.vop1(Opcode::V_CVT_F32_U32, f, d);
        let rf = self.vtemp();
        self.vop1(Opcode::V_RCP_IFLAG_F32, rf, f);
        let sf = self.vtemp();
        self.vop2(Opcode::V_MUL_F32, sf, MOp::Imm(0x4f7f_fffe), rf, true);
        let r = self.vtemp();
        self.vop1(Opcode::V_CVT_U32_F32, r, sf);
        let negd = self.vtemp();
        self.vop2(Opcode::V_SUB_NC_U32, negd, MOp::Imm(0), d, false);
        let e = self.vtemp();
        self.vop3(Opcode::V_MUL_LO_U32, &[e, negd, r]);
        let h = self.vtemp();
        self.vop3(Opcode::V_MUL_HI_U32, &[h, r, e]);
        let r2 = self.vtemp();
        self.vop2(Opcode::V_ADD_NC_U32, r2, r, h, true);
        let mut q = self.vtemp();
        self.vop3(Opcode::V_MUL_HI_U32, &[q, n, r2]);
        let qd = self.vtemp();
        self.vop3(Opcode::V_MUL_LO_U32, &[qd, q, d]);
        let mut rem = self.vtemp();
        self.vop2(Opcode::V_SUB_NC_U32, rem, n, qd, false);
        for _ in 0..2 {
            let ge = self.new_mask();
            self.vop3(Opcode::V_CMP_GE_U32, &[MOp::Reg(ge, 0), rem, d]);
            let q1 = self.vtemp();
            self.vop2(Opcode::V_ADD_NC_U32, q1, MOp::Imm(1), q, true);
            let r1 = self.vtemp();
            self.vop2(Opcode::V_SUB_NC_U32, r1, rem, d, false);
            let nq = self.vtemp();
            self.vop3(Opcode::V_CNDMASK_B32, &[nq, q, q1, MOp::Reg(ge, 0)]);
            let nr = self.vtemp();
            self.vop3(Opcode::V_CNDMASK_B32, &[nr, rem, r1, MOp::Reg(ge, 0)]);
            q = nq;
            rem = nr;
        }
        (q, rem)
    }
}
