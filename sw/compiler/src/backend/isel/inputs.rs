//! Instruction selection: kernel arguments (scalar loads from the kernarg
//! segment) and work-item queries (ids, sizes, hidden arguments).

use arch::isa::{Family, Opcode};

use super::{Isel, Loc};
use crate::backend::abi::{HIDDEN_GLOBAL_OFFSET, HIDDEN_GRID_DIMS};
use crate::backend::minst::{special, MInst, MOp, RegClass, VReg};
use crate::backend::BackendError;
use crate::ir::*;

impl Isel<'_> {
    /// `r = arg index`: a scalar load from the kernarg segment.
    pub(super) fn kernel_arg(&mut self, r: Value, index: u32) -> Result<(), BackendError> {
        let offset = self.kernarg.params[index as usize];
        let (l, d) = self.dst(r);
        let dwords = self.dwords(self.f.ty(r));
        // A char or short packed beside others (`char c, uchar uc, short
        // s` sit at bytes 0, 1 and 2): scalar loads read whole aligned
        // dwords, so the value is shifted down from its byte (its high bits
        // are the next arguments', which consumers of an i8/i16 ignore).
        let byte = offset & 3;
        let (op, dst) = match l {
            Loc::S(_) if byte == 0 => (
                if dwords == 2 {
                    Opcode::S_LOAD_DWORDX2
                } else {
                    Opcode::S_LOAD_DWORD
                },
                d,
            ),
            // A kernel argument is uniform unless it is a float (floats live in VGPRs).
            _ => (Opcode::S_LOAD_DWORD, self.mc.vreg(RegClass::Sgpr, 1)),
        };
        self.smem_load(op, dst, offset & !3);
        let dst = if byte == 0 {
            dst
        } else {
            let shifted = match l {
                Loc::S(_) => d,
                _ => self.mc.vreg(RegClass::Sgpr, 1),
            };
            self.sop2(
                Opcode::S_LSHR_B32,
                MOp::Reg(shifted, 0),
                MOp::Reg(dst, 0),
                MOp::Imm(8 * byte),
            );
            shifted
        };
        if let Loc::V(v) = l {
            self.push(
                Opcode::V_MOV_B32,
                Family::Vop1,
                1,
                &[MOp::Reg(v, 0), MOp::Reg(dst, 0)],
            );
        }
        Ok(())
    }

    /// `s_load_dword*` of `dst` from the kernarg segment at `offset` bytes.
    pub(super) fn smem_load(&mut self, op: Opcode, dst: VReg, offset: u32) {
        let mut i = MInst::new(
            op,
            Family::Smem,
            1,
            &[
                MOp::Reg(dst, 0),
                MOp::Reg(self.kernarg_ptr, 0),
                MOp::Phys(special::NULL),
            ],
        );
        i.modifiers.offset = offset as i32;
        self.mc.push(i);
    }

    /// A hidden argument (u16 when `half`), as an SGPR.
    pub(super) fn hidden(&mut self, at: u32, half: bool) -> VReg {
        let off = self.kernarg.hidden + at;
        let word = self.mc.vreg(RegClass::Sgpr, 1);
        self.smem_load(Opcode::S_LOAD_DWORD, word, off & !3);
        if !half {
            return word;
        }
        let d = self.mc.vreg(RegClass::Sgpr, 1);
        if off & 2 == 0 {
            self.sop2(
                Opcode::S_AND_B32,
                MOp::Reg(d, 0),
                MOp::Reg(word, 0),
                MOp::Imm(0xffff),
            );
        } else {
            self.sop2(
                Opcode::S_LSHR_B32,
                MOp::Reg(d, 0),
                MOp::Reg(word, 0),
                MOp::Imm(16),
            );
        }
        d
    }

    /// `r` = a work-item query (`global_id`, `local_size`, ...) in dimension `dim`.
    pub(super) fn work_item(
        &mut self,
        r: Value,
        q: WorkItemQuery,
        dim: u8,
    ) -> Result<(), BackendError> {
        let k = u32::from(dim);
        let dd = usize::from(dim);
        match q {
            WorkItemQuery::LocalId => {
                let v = self.local_id[dd].expect("found by the pre-scan");
                self.locs[r.index()] = Some(Loc::V(v));
            }
            WorkItemQuery::GroupId => {
                let s = self.group_id[dd].expect("found by the pre-scan");
                self.locs[r.index()] = Some(Loc::S(s));
            }
            WorkItemQuery::LocalSize => {
                let s = self.hidden(12 + 2 * k, true);
                self.locs[r.index()] = Some(Loc::S(s));
            }
            WorkItemQuery::NumGroups => {
                // Whole groups plus one for a partial last group.
                let count = self.hidden(4 * k, false);
                let rem = self.hidden(18 + 2 * k, true);
                let (_, d) = self.dst(r);
                self.push(
                    Opcode::S_CMP_LG_U32,
                    Family::Sopc,
                    0,
                    &[MOp::Reg(rem, 0), MOp::Imm(0)],
                );
                self.sop2(
                    Opcode::S_ADDC_U32,
                    MOp::Reg(d, 0),
                    MOp::Reg(count, 0),
                    MOp::Imm(0),
                );
            }
            WorkItemQuery::GlobalSize => {
                let count = self.hidden(4 * k, false);
                let size = self.hidden(12 + 2 * k, true);
                let rem = self.hidden(18 + 2 * k, true);
                let t = self.mc.vreg(RegClass::Sgpr, 1);
                self.sop2(
                    Opcode::S_MUL_I32,
                    MOp::Reg(t, 0),
                    MOp::Reg(count, 0),
                    MOp::Reg(size, 0),
                );
                let (_, d) = self.dst(r);
                self.sop2(
                    Opcode::S_ADD_U32,
                    MOp::Reg(d, 0),
                    MOp::Reg(t, 0),
                    MOp::Reg(rem, 0),
                );
            }
            WorkItemQuery::GlobalOffset => {
                // hidden_global_offset_{x,y,z}: 8 bytes each from +40 (the
                // low dword: offsets beyond 2^32 work-items do not occur).
                let s = self.hidden(HIDDEN_GLOBAL_OFFSET + 8 * k, false);
                self.locs[r.index()] = Some(Loc::S(s));
            }
            WorkItemQuery::WorkDim => {
                let s = self.hidden(HIDDEN_GRID_DIMS, true);
                self.locs[r.index()] = Some(Loc::S(s));
            }
            WorkItemQuery::GlobalId => {
                let size = self.hidden(12 + 2 * k, true);
                let g = self.group_id[dd].expect("found by the pre-scan");
                let l = self.local_id[dd].expect("found by the pre-scan");
                let mut t = self.mc.vreg(RegClass::Sgpr, 1);
                self.sop2(
                    Opcode::S_MUL_I32,
                    MOp::Reg(t, 0),
                    MOp::Reg(g, 0),
                    MOp::Reg(size, 0),
                );
                if self.kernarg.offsets {
                    // The launcher may pass an offset (OpenCL's
                    // global_work_offset) only to a kernel whose metadata
                    // lists it; kernels without it keep their code.
                    let offset = self.hidden(HIDDEN_GLOBAL_OFFSET + 8 * k, false);
                    let sum = self.mc.vreg(RegClass::Sgpr, 1);
                    self.sop2(
                        Opcode::S_ADD_U32,
                        MOp::Reg(sum, 0),
                        MOp::Reg(t, 0),
                        MOp::Reg(offset, 0),
                    );
                    t = sum;
                }
                let (_, d) = self.dst(r);
                self.vop2(
                    Opcode::V_ADD_NC_U32,
                    MOp::Reg(d, 0),
                    MOp::Reg(t, 0),
                    MOp::Reg(l, 0),
                    true,
                );
            }
        }
        Ok(())
    }
}
