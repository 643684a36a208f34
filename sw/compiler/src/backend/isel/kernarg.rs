//! Instruction selection: the kernel arguments the 32-bit path does not
//! read — a `double` (two dwords into a VGPR pair) and a vector or struct
//! passed by value, whose value is the address of its bytes in the kernarg
//! segment (`kernarg pointer + offset`, an SGPR pair); the lowering loads
//! the components through it, which become `s_load_dword*` as in clang —
//! and the address of program-scope data, also an SGPR pair.

use arch::isa::{Family, Opcode};

use super::{Isel, Loc};
use crate::backend::minst::{special, MInst, MOp, RegClass};
use crate::backend::BackendError;
use crate::ir::*;

impl Isel<'_> {
    /// Selects `i` when it is such a kernel argument; false otherwise.
    pub(in crate::backend) fn lower_kernarg_ext(&mut self, i: Inst) -> Result<bool, BackendError> {
        let data = self.f.inst(i);
        let (InstKind::KernelArg { index }, Some(r)) = (&data.kind, data.result) else {
            return Ok(false);
        };
        let index = *index as usize;
        let offset = self.kernarg.params[index];
        let kind = self.f.params[index].kind;
        let ty = self.f.ty(r);
        if let ParamKind::Aggregate { .. } = kind {
            let s = self.mc.vreg(RegClass::Sgpr, 2);
            let kp = self.kernarg_ptr;
            self.sop2(
                Opcode::S_ADD_U32,
                MOp::Reg(s, 0),
                MOp::Reg(kp, 0),
                MOp::Imm(offset),
            );
            self.sop2(
                Opcode::S_ADDC_U32,
                MOp::Reg(s, 1),
                MOp::Reg(kp, 1),
                MOp::Imm(0),
            );
            self.place_pair(r, s);
            return Ok(true);
        }
        if ty != Type::F64 {
            return Ok(false);
        }
        let s = self.mc.vreg(RegClass::Sgpr, 2);
        let mut load = MInst::new(
            Opcode::S_LOAD_DWORDX2,
            Family::Smem,
            1,
            &[
                MOp::Reg(s, 0),
                MOp::Reg(self.kernarg_ptr, 0),
                MOp::Phys(special::NULL),
            ],
        );
        load.modifiers.offset = offset as i32;
        self.mc.push(load);
        self.place_pair(r, s);
        Ok(true)
    }

    /// The address of program-scope data object `index`, PC-relative as
    /// clang computes it: `s_getpc_b64 s; s_add_u32 s0, s0, lo; s_addc_u32
    /// s1, s1, hi` with the literals patched by the code-object writer
    /// (`R_AMDGPU_REL32_LO/HI` in clang's relocatable object).
    pub(in crate::backend) fn data_addr(&mut self, r: Value, index: u32) {
        // Not an inline constant, so that both are encoded as 32-bit literals.
        const PLACEHOLDER: u32 = 0x0bad_da7a;
        let s = self.mc.vreg(RegClass::Sgpr, 2);
        self.push(Opcode::S_GETPC_B64, Family::Sop1, 1, &[MOp::Reg(s, 0)]);
        let pc = self.mc.label();
        self.mc.place(pc);
        self.sop2(
            Opcode::S_ADD_U32,
            MOp::Reg(s, 0),
            MOp::Reg(s, 0),
            MOp::Imm(PLACEHOLDER),
        );
        let lo_end = self.mc.label();
        self.mc.place(lo_end);
        self.sop2(
            Opcode::S_ADDC_U32,
            MOp::Reg(s, 1),
            MOp::Reg(s, 1),
            MOp::Imm(PLACEHOLDER),
        );
        let hi_end = self.mc.label();
        self.mc.place(hi_end);
        self.data_refs.push(super::DataRef {
            data: index,
            pc,
            lo_end,
            hi_end,
        });
        self.place_pair(r, s);
    }

    /// Defines 64-bit `r` from the SGPR pair `s`: `r` takes `s` when it is
    /// uniform, a VGPR copy otherwise (floats live in VGPRs).
    fn place_pair(&mut self, r: Value, s: crate::backend::minst::VReg) {
        match self.def_loc(r) {
            Loc::V(d) => {
                for k in 0..2 {
                    self.vop1(Opcode::V_MOV_B32, MOp::Reg(d, k), MOp::Reg(s, k));
                }
            }
            _ => self.locs[r.index()] = Some(Loc::S(s)),
        }
    }
}
