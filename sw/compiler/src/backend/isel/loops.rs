//! Loops: a natural loop with one latch and one exit block, exits taken
//! from anywhere in its body by a conditional branch.
//!
//! ```text
//!     s_mov_b32 save, exec_lo          ; the lanes that enter
//! head:                                ; the header's code
//!     ...                              ; divergent exit (break) from any block:
//!     s_andn2_b32 exec_lo, exec_lo, exit_mask      ; exiting lanes stop
//!     s_cbranch_execz end                          ; all lanes left
//!     ...
//!     s_branch head                    ; the latch's back edge
//! end:
//!     s_mov_b32 exec_lo, save          ; every lane that entered continues
//! ```
//!
//! A uniform exit is a scalar branch (`s_cmp_lg_u32` + `s_cbranch_scc*`) to
//! `end`. Values an exiting lane hands to the exit block's parameters are
//! copied under `EXEC = exiting lanes` before those lanes are switched off.

use arch::isa::{Family, Opcode};

use super::Isel;
use crate::backend::minst::{special, MOp};
use crate::backend::BackendError;
use crate::ir::{Block, BlockCall, InstKind, Value, ValueDef};

/// A loop being emitted.
#[derive(Clone, Copy, Debug)]
pub struct LoopCtx {
    /// The header block.
    pub header: Block,
    /// The single block outside the loop that its exits reach.
    pub exit: Block,
    /// Label at the header's code.
    pub head: u32,
    /// Label after the loop (where EXEC is restored).
    pub end: u32,
}

impl Isel<'_> {
    /// Emits the loop headed by `header`; returns its exit block.
    pub(in crate::backend) fn emit_loop(&mut self, header: Block) -> Result<Block, BackendError> {
        let latches: Vec<Block> = self
            .cfg
            .back_edges
            .iter()
            .filter(|&&(_, h)| h == header)
            .map(|&(l, _)| l)
            .collect();
        if latches.len() != 1 {
            return Err(BackendError::Unsupported(format!(
                "a loop with {} paths back to its start (`continue` from nested \
                 control flow) is not supported by the back end",
                latches.len()
            )));
        }
        let body = self.cfg.loop_blocks(latches[0], header);
        let mut exits: Vec<Block> = Vec::new();
        for b in &body {
            for s in &self.cfg.succs[b.index()] {
                if !body.contains(s) && !exits.contains(s) {
                    exits.push(*s);
                }
            }
        }
        let [exit] = exits[..] else {
            return Err(BackendError::Unsupported(format!(
                "a loop that leaves to {} different places (`break` or `return` \
                 from nested control flow) is not supported by the back end",
                exits.len()
            )));
        };
        let w64 = self.opts.wave64;
        let mov = if w64 {
            Opcode::S_MOV_B64
        } else {
            Opcode::S_MOV_B32
        };
        let save = self.new_mask();
        self.push(
            mov,
            Family::Sop1,
            1,
            &[MOp::Reg(save, 0), MOp::Phys(special::EXEC)],
        );
        let head = self.mc.label();
        let end = self.mc.label();
        self.mc.place(head);
        self.loops.push(LoopCtx {
            header,
            exit,
            head,
            end,
        });
        self.walk(header, Some(header), true)?;
        self.loops.pop();
        self.mc.place(end);
        self.push(
            mov,
            Family::Sop1,
            1,
            &[MOp::Phys(special::EXEC), MOp::Reg(save, 0)],
        );
        Ok(exit)
    }

    /// A conditional branch out of the innermost loop at the end of `b`;
    /// returns the block the remaining lanes continue in.
    pub(in crate::backend) fn exit_branch(
        &mut self,
        b: Block,
        cond: Value,
        then_dest: &BlockCall,
        else_dest: &BlockCall,
    ) -> Result<Block, BackendError> {
        let ctx = *self.loops.last().expect("inside a loop");
        let exit_if_true = then_dest.block == ctx.exit;
        let (exit_call, cont) = if exit_if_true {
            (then_dest, else_dest)
        } else {
            (else_dest, then_dest)
        };
        if cont.block == ctx.exit {
            return Err(BackendError::Unsupported(
                "a branch in a loop whose both sides leave the loop is not supported by the back end"
                    .into(),
            ));
        }
        let w64 = self.opts.wave64;
        if self.uni.is_divergent_branch(b) {
            let m = self.mask(cond)?;
            let exit_mask = if exit_if_true {
                m
            } else {
                let n = self.new_mask();
                let not = if w64 {
                    Opcode::S_NOT_B64
                } else {
                    Opcode::S_NOT_B32
                };
                self.push(not, Family::Sop1, 1, &[MOp::Reg(n, 0), MOp::Reg(m, 0)]);
                n
            };
            if !exit_call.args.is_empty() {
                let tmp = self.new_mask();
                let saveexec = if w64 {
                    Opcode::S_AND_SAVEEXEC_B64
                } else {
                    Opcode::S_AND_SAVEEXEC_B32
                };
                self.push(
                    saveexec,
                    Family::Sop1,
                    1,
                    &[MOp::Reg(tmp, 0), MOp::Reg(exit_mask, 0)],
                );
                self.edge_copies(exit_call)?;
                let mov = if w64 {
                    Opcode::S_MOV_B64
                } else {
                    Opcode::S_MOV_B32
                };
                self.push(
                    mov,
                    Family::Sop1,
                    1,
                    &[MOp::Phys(special::EXEC), MOp::Reg(tmp, 0)],
                );
            }
            let andn2 = if w64 {
                Opcode::S_ANDN2_B64
            } else {
                Opcode::S_ANDN2_B32
            };
            self.push(
                andn2,
                Family::Sop2,
                1,
                &[
                    MOp::Phys(special::EXEC),
                    MOp::Phys(special::EXEC),
                    MOp::Reg(exit_mask, 0),
                ],
            );
            self.branch(Opcode::S_CBRANCH_EXECZ, ctx.end);
        } else {
            self.cond_to_scc(cond)?;
            let params = &self.f.block(exit_call.block).params;
            let copies = params.iter().zip(&exit_call.args).any(|(p, a)| p != a);
            if copies {
                let stay = self.mc.label();
                let op = if exit_if_true {
                    Opcode::S_CBRANCH_SCC0
                } else {
                    Opcode::S_CBRANCH_SCC1
                };
                self.branch(op, stay);
                self.edge_copies(exit_call)?;
                self.branch(Opcode::S_BRANCH, ctx.end);
                self.mc.place(stay);
            } else {
                // Nothing to copy on the way out: branch straight to the end.
                let op = if exit_if_true {
                    Opcode::S_CBRANCH_SCC1
                } else {
                    Opcode::S_CBRANCH_SCC0
                };
                self.branch(op, ctx.end);
            }
        }
        self.edge_copies(cont)?;
        Ok(cont.block)
    }
}

impl Isel<'_> {
    /// Finds the uniform 32-bit compares whose only use is the uniform
    /// branch ending their block: they are selected at the branch as an
    /// `s_cmp_*` whose SCC the branch reads (`s_cmp_lt_u32` +
    /// `s_cbranch_scc0`), instead of a 0/1 in an SGPR (`s_cselect_b32`)
    /// compared with zero again (`s_cmp_lg_u32`).
    pub(in crate::backend) fn find_fused_compares(&mut self) {
        for &b in self.f.blocks() {
            let Some(&term) = self.f.block(b).insts.last() else {
                continue;
            };
            let InstKind::Brif { cond, .. } = self.f.inst(term).kind else {
                continue;
            };
            let ValueDef::Inst(ci) = self.f.value(cond).def else {
                continue;
            };
            let InstKind::Icmp { args, .. } = self.f.inst(ci).kind else {
                continue;
            };
            let narrow = args.iter().all(|&a| self.f.ty(a).bits() <= 32);
            if narrow
                && !self.uni.is_divergent_branch(b)
                && !self.uni.is_divergent(cond)
                && self.uses[cond.index()] == 1
                && self.f.block(b).insts.contains(&ci)
                && !self.deferred[ci.index()]
            {
                self.deferred[ci.index()] = true;
                self.fused[cond.index()] = true;
            }
        }
    }

    /// Sets SCC to the uniform boolean `cond` for a scalar branch.
    pub(in crate::backend) fn cond_to_scc(&mut self, cond: Value) -> Result<(), BackendError> {
        if self.fused[cond.index()] {
            let Some(&InstKind::Icmp { cond: cc, args }) = self.f.def_inst(cond) else {
                unreachable!("found by find_fused_compares")
            };
            return self.scalar_compare(cc, args);
        }
        let c = self.sbool(cond)?;
        self.push(
            Opcode::S_CMP_LG_U32,
            Family::Sopc,
            0,
            &[MOp::Reg(c, 0), MOp::Imm(0)],
        );
        Ok(())
    }
}
