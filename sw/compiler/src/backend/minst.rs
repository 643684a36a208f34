//! Machine IR: gfx1030 instructions (opcode + encoding family from `arch`'s
//! tables) whose register operands are still virtual. Instruction selection
//! produces it; register allocation maps virtual registers to physical ones;
//! emission turns each into an [`arch::isa::Instruction`].

use arch::isa::{Family, Modifiers, Opcode};

/// Register file of a virtual register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegClass {
    /// Scalar registers (uniform values, lane masks).
    Sgpr,
    /// Vector registers (one value per lane).
    Vgpr,
}

/// A virtual register: `dwords` consecutive registers of one class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VReg(pub u32);

/// What the allocator needs to know about a virtual register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VRegInfo {
    /// Register file.
    pub class: RegClass,
    /// Consecutive registers.
    pub dwords: u8,
    /// Required alignment of the first register (SGPR pairs are even).
    pub align: u8,
    /// A register fixed by the hardware ABI (kernarg pointer, workgroup ids,
    /// work-item ids): its physical register number within the class.
    pub fixed: Option<u16>,
}

/// Special-register source codes.
pub mod special {
    /// `vcc_lo` (the pair `vcc` in wave64).
    pub const VCC: u16 = 106;
    /// `m0`.
    pub const M0: u16 = 124;
    /// `null` (gfx10).
    pub const NULL: u16 = 125;
    /// `exec_lo` (the pair `exec` in wave64).
    pub const EXEC: u16 = 126;
    /// The inline constant -1: all ones at any width. A 64-bit lane mask of
    /// all lanes needs it — `MOp::Imm(u32::MAX)` on a 64-bit operand is the
    /// literal 0xffffffff, which is zero-extended (lanes 32–63 clear).
    pub const ALL_ONES: u16 = 193;
}

/// A machine operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MOp {
    /// Dword `sub` onwards of a virtual register (the width comes from the
    /// opcode's operand type).
    Reg(VReg, u8),
    /// A physical register or special register by its source code.
    Phys(u16),
    /// A constant: inline when it is one of the inline constants of the
    /// operand's type, else a literal.
    Imm(u32),
    /// The `off` placeholder.
    Off,
}

/// One machine instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MInst {
    /// What it does.
    pub opcode: Opcode,
    /// The encoding it is emitted in.
    pub family: Family,
    /// Operands in LLVM's print order (the table row's order).
    pub ops: Vec<MOp>,
    /// The first `defs` operands are written.
    pub defs: u8,
    /// The destination is also read: a partial (EXEC-masked) write that must
    /// keep the inactive lanes' old contents (seed 004's merge mode).
    pub tied: bool,
    /// Modifier fields (`simm16`, `offset`, `glc`, ...).
    pub modifiers: Modifiers,
    /// For a branch: the label it jumps to.
    pub target: Option<u32>,
    /// A plain register copy the allocator may coalesce away.
    pub is_copy: bool,
}

/// An item of the linear machine code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// An instruction.
    Inst(MInst),
    /// A branch target.
    Label(u32),
}

/// The machine code of one kernel before register allocation.
#[derive(Clone, Debug, Default)]
pub struct MachineCode {
    /// Virtual registers.
    pub vregs: Vec<VRegInfo>,
    /// The code, in order.
    pub items: Vec<Item>,
    /// Labels made so far.
    pub labels: u32,
}

impl MachineCode {
    /// The loops' back edges: (position of the head label, position of the
    /// branch back to it), in code order. Structured code puts a loop's
    /// head before its body, so a branch to an earlier label closes a loop.
    pub fn back_edges(&self) -> Vec<(usize, usize)> {
        let mut label_at = std::collections::HashMap::new();
        let mut out = Vec::new();
        for (pos, item) in self.items.iter().enumerate() {
            match item {
                Item::Label(l) => {
                    label_at.insert(*l, pos);
                }
                Item::Inst(i) => {
                    if let Some(&head) = i.target.and_then(|l| label_at.get(&l)) {
                        out.push((head, pos));
                    }
                }
            }
        }
        out
    }

    /// A new virtual register.
    pub fn vreg(&mut self, class: RegClass, dwords: u8) -> VReg {
        let align = if class == RegClass::Sgpr && dwords >= 2 {
            dwords.min(4)
        } else {
            1
        };
        self.vregs.push(VRegInfo {
            class,
            dwords,
            align,
            fixed: None,
        });
        VReg(self.vregs.len() as u32 - 1)
    }

    /// A virtual register pinned to physical register `index` of its class.
    pub fn fixed(&mut self, class: RegClass, dwords: u8, index: u16) -> VReg {
        let v = self.vreg(class, dwords);
        self.vregs[v.0 as usize].fixed = Some(index);
        v
    }

    /// A fresh label.
    pub fn label(&mut self) -> u32 {
        self.labels += 1;
        self.labels - 1
    }

    /// Appends an instruction.
    pub fn push(&mut self, i: MInst) {
        self.items.push(Item::Inst(i));
    }

    /// Places a label here.
    pub fn place(&mut self, label: u32) {
        self.items.push(Item::Label(label));
    }
}

impl MInst {
    /// An instruction with `defs` leading destination operands.
    pub fn new(opcode: Opcode, family: Family, defs: u8, ops: &[MOp]) -> MInst {
        MInst {
            opcode,
            family,
            ops: ops.to_vec(),
            defs,
            tied: false,
            modifiers: Modifiers::default(),
            target: None,
            is_copy: false,
        }
    }

    /// The virtual registers written.
    pub fn def_regs(&self) -> impl Iterator<Item = VReg> + '_ {
        self.ops[..self.defs as usize]
            .iter()
            .filter_map(|o| match o {
                MOp::Reg(r, _) => Some(*r),
                _ => None,
            })
    }

    /// The virtual registers read (including a tied destination).
    pub fn use_regs(&self) -> impl Iterator<Item = VReg> + '_ {
        let tied = if self.tied { 0 } else { self.defs as usize };
        self.ops[tied..].iter().filter_map(|o| match o {
            MOp::Reg(r, _) => Some(*r),
            _ => None,
        })
    }
}

/// True for an instruction that reads SCC (the scalar condition code).
pub fn reads_scc(op: Opcode) -> bool {
    matches!(
        op.mnemonic(),
        "s_cbranch_scc0"
            | "s_cbranch_scc1"
            | "s_cselect_b32"
            | "s_cselect_b64"
            | "s_addc_u32"
            | "s_subb_u32"
            | "s_cmov_b32"
            | "s_cmov_b64"
            | "s_cmovk_i32"
    )
}

/// True for an instruction that writes SCC.
pub fn writes_scc(op: Opcode, family: Family) -> bool {
    let m = op.mnemonic();
    match family {
        Family::Sopc => true,
        Family::Sop2 => !m.starts_with("s_cselect"),
        Family::Sop1 => {
            m.contains("saveexec")
                || ["s_not", "s_bcnt", "s_abs", "s_wqm", "s_quadmask", "s_ff"]
                    .iter()
                    .any(|p| m.starts_with(p))
        }
        Family::Sopk => {
            m.starts_with("s_cmpk") || m.starts_with("s_addk") || m.starts_with("s_mulk")
        }
        _ => false,
    }
}
