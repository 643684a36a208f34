//! The per-CU decoded-instruction cache (a simulator speed-up, not hardware):
//! each pc is decoded once with `arch::isa::decode` from the backing store and
//! kept with what the pipeline needs to know about it (class, register
//! footprint, pipe rate). Host writes over cached code clear it.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use arch::isa::{decode, Family, Instruction, Opcode, Operand, OperandType, Target};

use crate::hash::AddressHasher;
use crate::mem::backing::Backing;
use crate::stats::Class;

/// What the issue stage does with an instruction besides executing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Executed by the datapath.
    None,
    /// `s_endpgm`.
    Endpgm,
    /// `s_barrier`.
    Barrier,
    /// `s_waitcnt` (gfx10 layout) or one of the single-counter forms.
    Waitcnt {
        /// vmcnt limit (63 = no wait).
        vm: u8,
        /// vscnt limit.
        vs: u8,
        /// lgkmcnt limit.
        lgkm: u8,
    },
    /// `s_nop N`: N + 1 issue cycles.
    Nop(u8),
    /// `s_sleep N`: 64 × N cycles.
    Sleep(u16),
    /// `s_setprio`.
    Setprio(u8),
    /// Functional no-op handled here (`s_clause`, `s_inst_prefetch`, `s_code_end`, ...).
    Ignore,
}

/// A decoded instruction with its pipeline facts.
#[derive(Clone, Copy, Debug)]
pub struct Decoded {
    /// The instruction.
    pub inst: Instruction,
    /// Issue class.
    pub class: Class,
    /// Handled in the issue stage.
    pub control: Control,
    /// Changes control flow (the wave waits for it to resolve).
    pub branch: bool,
    /// SGPRs 0–105 it names (sources or destinations).
    pub sgprs: u128,
    /// VGPRs it names.
    pub vgprs: [u64; 4],
    /// Reads registers not named by its operands (`movrel`): waits for all.
    pub indirect: bool,
    /// VGPR source reads per bank (for read-port conflicts), up to 4 banks of 16.
    pub bank_reads: [u8; 16],
    /// Cycles per half-wave VALU pass (1, transcendental or f64 rate).
    pub rate: u8,
    /// May run part by part in a sub-vector window ([`super::subvec::per_lane`]).
    pub per_lane: bool,
}

/// The cache: pc → decoded instruction or decode error text.
#[derive(Debug, Default, Clone)]
pub struct DecodeCache {
    map: HashMap<(u64, bool), Result<Decoded, String>, BuildHasherDefault<AddressHasher>>,
    lo: u64,
    hi: u64,
}

impl DecodeCache {
    /// Looks up (or decodes) the instruction at `pc` for a wave of that size.
    pub fn get(
        &mut self,
        pc: u64,
        wave64: bool,
        backing: &Backing,
        rates: (u8, u8),
        banks: u32,
    ) -> &Result<Decoded, String> {
        if self.map.is_empty() {
            self.lo = u64::MAX;
            self.hi = 0;
        }
        self.lo = self.lo.min(pc);
        self.hi = self.hi.max(pc + 12);
        self.map
            .entry((pc, wave64))
            .or_insert_with(|| decode_at(pc, wave64, backing, rates, banks))
    }

    /// Drops everything if `[address, address + len)` overlaps cached code.
    pub fn invalidate(&mut self, address: u64, len: u64) {
        if !self.map.is_empty() && address < self.hi && address.saturating_add(len) > self.lo {
            self.map.clear();
        }
    }
}

fn decode_at(
    pc: u64,
    wave64: bool,
    backing: &Backing,
    rates: (u8, u8),
    banks: u32,
) -> Result<Decoded, String> {
    let target = if wave64 {
        Target::GFX1030_W64
    } else {
        Target::GFX1030_W32
    };
    let mut buf = [0u8; 12];
    let mut len = 12;
    while backing.read(pc, &mut buf[..len]).is_err() {
        if len == 4 {
            return Err(format!("instruction fetch from unmapped address {pc:#x}"));
        }
        len -= 4;
    }
    let inst = decode(target, &buf[..len]).map_err(|e| e.to_string())?;
    Ok(describe(inst, target, rates, banks))
}

fn is_trans(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        V_EXP_F32
            | V_LOG_F32
            | V_RCP_F32
            | V_RCP_IFLAG_F32
            | V_RSQ_F32
            | V_SQRT_F32
            | V_SIN_F32
            | V_COS_F32
            | V_EXP_F16
            | V_LOG_F16
            | V_RCP_F16
            | V_RSQ_F16
            | V_SQRT_F16
            | V_SIN_F16
            | V_COS_F16
            | V_RCP_F64
            | V_RSQ_F64
            | V_SQRT_F64
    )
}

/// Classifies an instruction and records its register footprint.
pub fn describe(inst: Instruction, target: Target, rates: (u8, u8), banks: u32) -> Decoded {
    use Opcode::*;
    let op = inst.opcode;
    let simm = inst.modifiers.simm16;
    let control = match op {
        S_ENDPGM => Control::Endpgm,
        S_BARRIER => Control::Barrier,
        S_WAITCNT => Control::Waitcnt {
            vm: ((simm & 0xf) | ((simm >> 14) & 3) << 4) as u8,
            vs: 63,
            lgkm: ((simm >> 8) & 0x3f) as u8,
        },
        S_WAITCNT_VSCNT => Control::Waitcnt {
            vm: 63,
            vs: (simm & 0x3f) as u8,
            lgkm: 63,
        },
        S_WAITCNT_VMCNT => Control::Waitcnt {
            vm: (simm & 0x3f) as u8,
            vs: 63,
            lgkm: 63,
        },
        S_WAITCNT_LGKMCNT => Control::Waitcnt {
            vm: 63,
            vs: 63,
            lgkm: (simm & 0x3f) as u8,
        },
        S_NOP => Control::Nop((simm & 0xf) as u8),
        S_SLEEP => Control::Sleep(simm & 0x7f),
        S_SETPRIO => Control::Setprio((simm & 3) as u8),
        // The SOPK waitcnt forms also OR in their SGPR operand, read at issue
        // (issue.rs). expcnt counts exports and GDS, which a compute wave never
        // has outstanding, so `s_waitcnt_expcnt` never waits.
        S_CLAUSE | S_INST_PREFETCH | S_CODE_END | S_WAITCNT_EXPCNT | S_WAITCNT_DEPCTR => {
            Control::Ignore
        }
        _ => Control::None,
    };
    let branch = op.is_branch()
        || matches!(
            op,
            S_SETPC_B64 | S_SWAPPC_B64 | S_CALL_B64 | S_SUBVECTOR_LOOP_BEGIN | S_SUBVECTOR_LOOP_END
        );
    let class = match inst.family {
        _ if branch => Class::Branch,
        _ if control != Control::None => Class::Other,
        Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc | Family::Sopp => Class::Salu,
        Family::Smem => Class::Smem,
        Family::Vop1 | Family::Vop2 | Family::Vopc | Family::Vop3 | Family::Vop3p => Class::Valu,
        Family::Ds => Class::Lds,
        Family::Flat | Family::Global | Family::Scratch | Family::Mubuf | Family::Mtbuf => {
            Class::Vmem
        }
    };
    let mut sgprs = 0u128;
    let mut vgprs = [0u64; 4];
    let mut bank_reads = [0u8; 16];
    let mut src_seen = [0u64; 4];
    let mut f64 = false;
    let specs = inst.info().map(|i| i.operands).unwrap_or(&[]);
    for (i, o) in inst.operands().iter().enumerate() {
        if let Operand::Src { code, ty } = *o {
            f64 |= ty == OperandType::F64;
            let n = u16::from(ty.dwords(target));
            if code < 106 {
                for r in code..(code + n).min(106) {
                    sgprs |= 1 << r;
                }
            } else if code >= 256 {
                let is_src = specs.get(i).is_some_and(|s| {
                    matches!(
                        s.field,
                        arch::isa::Field::Src0 | arch::isa::Field::Src1 | arch::isa::Field::Src2
                    )
                });
                for r in (code - 256)..(code - 256 + n).min(256) {
                    let bit = 1u64 << (r % 64);
                    let first_read = src_seen[usize::from(r / 64)] & bit == 0;
                    vgprs[usize::from(r / 64)] |= bit;
                    if is_src && class == Class::Valu && first_read {
                        // A register read by two operands is read once.
                        src_seen[usize::from(r / 64)] |= bit;
                        let b = (u32::from(r) % banks.clamp(1, 16)) as usize;
                        bank_reads[b] = bank_reads[b].saturating_add(1);
                    }
                }
            }
        }
    }
    let indirect = matches!(
        op,
        V_MOVRELD_B32
            | V_MOVRELS_B32
            | V_MOVRELSD_B32
            | V_MOVRELSD_2_B32
            | S_MOVRELD_B32
            | S_MOVRELD_B64
            | S_MOVRELS_B32
            | S_MOVRELS_B64
            | S_MOVRELSD_2_B32
    );
    let rate = if class != Class::Valu {
        1
    } else if f64 {
        rates.1
    } else if is_trans(op) {
        rates.0
    } else {
        1
    };
    let per_lane = super::subvec::per_lane(&inst, class);
    Decoded {
        per_lane,
        inst,
        class,
        control,
        branch,
        sgprs,
        vgprs,
        indirect,
        bank_reads,
        rate,
    }
}
