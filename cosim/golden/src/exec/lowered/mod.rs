//! The lowered path: the most common vector ALU (and, in `scalar.rs`, scalar)
//! instructions lowered once into a plan that runs per wave — a faster second
//! path beside the family files, equal to them by test.
//!
//! When the program cache decodes an instruction it also [`lower`]s it: an
//! instruction in the plain encoding, without modifiers, whose operands are
//! all 32-bit (or the 64-bit shift / multiply-add forms listed below) becomes a
//! [`Lowered`] value with its operands resolved by table field once — the
//! VGPR numbers, the scalar operands, the carry masks. The interpreter then
//! runs it through [`execute`], a tight lane loop over the register arrays,
//! instead of the general path (`Valu`: table row, operand slots, modifier
//! handling, DPP/SDWA, 16-bit halves for every instruction).
//!
//! Lowering lives here; execution in `valu.rs` (lane functions) and
//! `lanes.rs` (lane loops, operand borrowing).
//!
//! The semantics are not duplicated: every lane function is the one
//! the general path uses for that opcode (the same integer expression or the
//! same `fp::` entry point with the same MODE — or the host's own result
//! where it provably equals that entry point's: f32 add/mul/fma when
//! nearest-even and no denormal is involved, int↔f32 conversions, which the
//! host truncates and saturates, and rounds to nearest even, exactly as
//! `fp::to_int` / `fp::from_*` do), restricted to the case where
//! the general path's modifier handling is the identity (no `abs`/`neg`/
//! `op_sel`/`omod`/`clamp`, no SDWA/DPP, 32-bit types). Anything unusual at
//! run time — VGPR indexing mode on, a register beyond the allocation, a
//! scalar operand that does not read as a value — makes [`execute`] return
//! `None` *before any state changes*, and the general path runs the
//! instruction instead (and reports the fault, if any). The differential test
//! `cosim/tests/golden_lowered.rs` runs random operands through both paths
//! and the whole corpus with the fast paths on and off and requires identical
//! state, memory and statistics.

pub(super) mod lanes;
pub mod scalar;
pub(crate) mod valu;

use arch::isa::tables::Field;
use arch::isa::{Family, Instruction, Modifiers, Opcode, Operand, OperandType, Target, Variant};

use super::vop::vopc::Ty32;
use super::{Flow, Wave};
use crate::fp::F32;
use crate::wave::{NULL, VCC_LO};
use arch::isa::operand::VGPR_BASE;
use scalar::Salu;

/// A 32-bit source operand, resolved at lowering time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Src {
    /// A VGPR (its number).
    Vgpr(u16),
    /// Anything scalar (SGPR, constant, literal), read with [`Wave::read_scalar`]
    /// (or [`Wave::read_scalar64`] for a 64-bit source).
    Scalar(Operand),
    /// A 32-bit source that is `sgpr[i]` (resolved by [`scalar::S32::of`]).
    Sgpr(u8),
    /// A 32-bit source whose value does not depend on the wave (a constant or
    /// literal, as [`Wave::read_scalar`] reads it for its operand type).
    Imm(u32),
}

impl Src {
    /// The value of a scalar source read as 32 bits (`None`: the general
    /// path must run; a VGPR is not a scalar).
    #[inline(always)]
    pub fn scalar32(&self, w: &Wave) -> Option<u32> {
        match *self {
            Src::Sgpr(i) => Some(w.sgpr[usize::from(i)]),
            Src::Imm(v) => Some(v),
            Src::Scalar(ref op) => w.read_scalar(op).ok(),
            Src::Vgpr(_) => None,
        }
    }

    /// The wave-uniform 32-bit value of a source whose lanes are read in place
    /// when it is a VGPR (then 0, unused); `None`: the general path must run.
    #[inline(always)]
    pub fn uniform32(&self, w: &Wave) -> Option<u32> {
        match self {
            Src::Vgpr(_) => Some(0),
            _ => self.scalar32(w),
        }
    }

    /// The 64-bit counterpart of [`Src::uniform32`] for a source read as a
    /// pair: only a VGPR pair or a 64-bit scalar operand.
    #[inline(always)]
    pub fn uniform64(&self, w: &Wave) -> Option<u64> {
        match self {
            Src::Vgpr(_) => Some(0),
            Src::Scalar(op) => w.read_scalar64(op).ok(),
            Src::Sgpr(_) | Src::Imm(_) => None,
        }
    }

    /// This source with a scalar operand resolved for 32-bit reads (only for
    /// operands read by [`Src::scalar32`], never by a 64-bit read).
    fn resolved32(self, target: Target) -> Src {
        match self {
            Src::Scalar(op) => match scalar::S32::of(target, op) {
                scalar::S32::Reg(i) => Src::Sgpr(i),
                scalar::S32::Imm(v) => Src::Imm(v),
                scalar::S32::Op(op) => Src::Scalar(op),
            },
            other => other,
        }
    }
}

/// A pure per-lane 32-bit operation of up to three sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `v_mov_b32`.
    Mov,
    /// `v_add_nc_u32`.
    AddNc,
    /// `v_sub_nc_u32`.
    SubNc,
    /// `v_subrev_nc_u32`.
    SubrevNc,
    /// `v_and_b32`.
    And,
    /// `v_or_b32`.
    Or,
    /// `v_xor_b32`.
    Xor,
    /// `v_xnor_b32`.
    Xnor,
    /// `v_lshlrev_b32`.
    Lshlrev,
    /// `v_lshrrev_b32`.
    Lshrrev,
    /// `v_ashrrev_i32`.
    Ashrrev,
    /// `v_min_i32`.
    MinI,
    /// `v_max_i32`.
    MaxI,
    /// `v_min_u32`.
    MinU,
    /// `v_max_u32`.
    MaxU,
    /// `v_mul_lo_u32`.
    MulLo,
    /// `v_mul_hi_u32`.
    MulHiU,
    /// `v_mul_hi_i32`.
    MulHiI,
    /// `v_mul_u32_u24`.
    MulU24,
    /// `v_mul_i32_i24`.
    MulI24,
    /// `v_lshl_add_u32`.
    LshlAdd,
    /// `v_add_lshl_u32`.
    AddLshl,
    /// `v_add3_u32`.
    Add3,
    /// `v_lshl_or_b32`.
    LshlOr,
    /// `v_and_or_b32`.
    AndOr,
    /// `v_or3_b32`.
    Or3,
    /// `v_xor3_b32`.
    Xor3,
    /// `v_xad_u32`.
    Xad,
    /// `v_alignbit_b32`.
    AlignBit,
    /// `v_bfi_b32`.
    Bfi,
    /// `v_not_b32`.
    Not,
    /// `v_add_f32`.
    AddF32,
    /// `v_sub_f32`.
    SubF32,
    /// `v_subrev_f32`.
    SubrevF32,
    /// `v_mul_f32`.
    MulF32,
    /// `v_fma_f32 (and v_fmac_f32 with c = vdst)`.
    FmaF32,
    /// `v_mad_f32 (and v_mac_f32 with c = vdst)`.
    MadF32,
    /// `v_ldexp_f32`.
    LdexpF32,
    /// `v_min_f32`.
    MinF32,
    /// `v_max_f32`.
    MaxF32,
    /// `v_cvt_f32_i32`.
    CvtF32I32,
    /// `v_cvt_f32_u32`.
    CvtF32U32,
    /// `v_bfe_u32`.
    BfeU32,
    /// `v_bfe_i32`.
    BfeI32,
    /// `v_mad_u32_u24`.
    MadU24,
    /// `v_mad_i32_i24`.
    MadI24,
    /// `v_cvt_i32_f32` (truncating, saturating; `vop1::int_from`).
    CvtI32F32,
    /// `v_cvt_u32_f32` (truncating, saturating; `vop1::int_from`).
    CvtU32F32,
    /// An `f32` unary operation of `vop1::float_unary` (`v_rcp_f32`,
    /// `v_sqrt_f32`, `v_frexp_mant_f32`, ...): the same function pointer.
    Unary(Opcode),
}

/// Carry flavours of the add/subtract family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carry {
    /// `v_add_co_u32 / gfx803 v_add_u32`.
    Add,
    /// `v_sub_co_u32 / gfx803 v_sub_u32`.
    Sub,
    /// `v_subrev_co_u32 / gfx803 v_subrev_u32`.
    Subrev,
    /// `v_add_co_ci_u32 / gfx803 v_addc_u32`.
    AddCi,
    /// `v_sub_co_ci_u32 / gfx803 v_subb_u32`.
    SubCi,
    /// `v_subrev_co_ci_u32 / gfx803 v_subbrev_u32`.
    SubrevCi,
}

/// An instruction in its lowered form.
///
/// `repr(u8)` (here and on the operand enums): an explicit one-byte tag, so
/// the per-instruction `match` is a byte load and a jump rather than a
/// decoding of niche values spread over nested fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Lowered {
    /// Run the general path.
    Generic,
    /// A scalar instruction (see [`scalar`]).
    Scalar(Salu),
    /// `vdst = op(s[0], s[1], s[2])` over the EXEC lanes.
    Map {
        /// The lane function.
        op: Op,
        /// Destination VGPR.
        d: u16,
        /// Sources (unused ones are a zero literal).
        s: [Src; 3],
    },
    /// Add/subtract with carry-out (and carry-in) masks.
    Carry {
        /// Which add/subtract.
        kind: Carry,
        /// Destination VGPR.
        d: u16,
        /// src0.
        a: Src,
        /// src1.
        b: Src,
        /// Carry-in mask operand.
        cin: Option<Operand>,
        /// Carry-out mask destination.
        cout: Operand,
    },
    /// `v_cndmask_b32`: `vdst = cond ? b : a`.
    Cndmask {
        /// Destination VGPR.
        d: u16,
        /// src0 (condition clear).
        a: Src,
        /// src1 (condition set).
        b: Src,
        /// The condition mask operand.
        cond: Operand,
    },
    /// 32-bit compare writing a lane mask and/or EXEC.
    Cmp {
        /// Element type.
        ty: Ty32,
        /// Truth table over {less, equal, greater, unordered} (bits 0..3).
        table: u8,
        /// src0.
        a: Src,
        /// src1.
        b: Src,
        /// The mask destination (VCC or `sdst`), if any.
        dst: Option<Operand>,
        /// `v_cmpx`: the mask also becomes EXEC.
        exec_write: bool,
    },
    /// `v_readlane_b32`: `sdst = vgpr[src][sel % lanes]`.
    ReadLane {
        /// The VGPR read.
        src: u16,
        /// Lane select (a scalar source).
        sel: Src,
        /// Destination SGPR.
        dst: Operand,
    },
    /// `v_lshlrev_b64`: `vdst[0:1] = b[0:1] << (a & 63)`.
    Lshl64 {
        /// Destination VGPR pair (first register).
        d: u16,
        /// Shift amount.
        a: Src,
        /// 64-bit value.
        b: Src,
    },
    /// `v_mad_u64_u32`: `vdst[0:1] = a * b + c[0:1]`, carry-out to `sdst`.
    MadU64 {
        /// Destination VGPR pair (first register).
        d: u16,
        /// src0.
        a: Src,
        /// src1.
        b: Src,
        /// 64-bit addend.
        c: Src,
        /// Carry-out mask destination.
        cout: Operand,
    },
}

/// The lowered form of `inst` at byte address `pc` ([`Lowered::Generic`]
/// when no fast path applies).
pub fn lower(inst: &Instruction, pc: u64) -> Lowered {
    if let Some(s) = scalar::lower(inst, pc) {
        return Lowered::Scalar(s);
    }
    try_lower(inst).unwrap_or(Lowered::Generic)
}

/// True when every modifier the VALU semantics read (`Valu::src`, `write`,
/// `post`, `clamp`, DPP/SDWA) has its default value. Other fields (e.g. the
/// `simm16` in which the decoder keeps a VOP3 `v_cmpx`'s implicit EXEC
/// destination) are not read by the VALU.
fn valu_modifiers_default(m: &Modifiers) -> bool {
    let d = Modifiers::default();
    m.clamp == d.clamp
        && m.omod == d.omod
        && m.neg == d.neg
        && m.abs == d.abs
        && m.op_sel == d.op_sel
        && m.op_sel_hi == d.op_sel_hi
        && m.neg_hi == d.neg_hi
        && m.dst_sel == d.dst_sel
        && m.dst_unused == d.dst_unused
        && m.src0_sel == d.src0_sel
        && m.src1_sel == d.src1_sel
        && m.sext == d.sext
        && m.dpp_ctrl == d.dpp_ctrl
        && m.row_mask == d.row_mask
        && m.bank_mask == d.bank_mask
        && m.bound_ctrl == d.bound_ctrl
        && m.fi == d.fi
        && m.dpp8 == d.dpp8
}

fn try_lower(inst: &Instruction) -> Option<Lowered> {
    if !matches!(
        inst.family,
        Family::Vop1 | Family::Vop2 | Family::Vop3 | Family::Vopc
    ) || inst.variant != Variant::Plain
        || !valu_modifiers_default(&inst.modifiers)
    {
        return None;
    }
    let info = super::vop::row(inst)?;
    // Operands by field, as the general path finds them.
    let mut by: [Option<(Operand, OperandType)>; 8] = [None; 8];
    let mut vccs = 0;
    for (i, spec) in info.operands.iter().enumerate() {
        let n = if spec.field == Field::Vcc {
            vccs += 1;
            vccs - 1
        } else {
            0
        };
        let slot = match (spec.field, n) {
            (Field::Vdst, 0) => 0,
            (Field::Sdst, 0) => 1,
            (Field::Vcc, 0) => 2,
            (Field::Vcc, 1) => 3,
            (Field::Src0, 0) => 4,
            (Field::Src1, 0) => 5,
            (Field::Src2, 0) => 6,
            _ => return None,
        };
        by[slot] = Some((*inst.operands().get(i)?, spec.ty));
    }
    let bits32 =
        |o: Option<(Operand, OperandType)>| o.map_or(true, |(_, t)| t.element_bits() == 32);
    let vgpr = |o: Option<(Operand, OperandType)>| match o? {
        (Operand::Src { code, .. }, _) if code >= VGPR_BASE => Some(code - VGPR_BASE),
        _ => None,
    };
    // A source read as a 64-bit pair keeps its operand (`Wave::read_scalar64`).
    let src64 = |o: Option<(Operand, OperandType)>| match o? {
        (Operand::Src { code, .. }, _) if code >= VGPR_BASE => Some(Src::Vgpr(code - VGPR_BASE)),
        (op @ (Operand::Src { .. } | Operand::Literal { .. }), _) => Some(Src::Scalar(op)),
        (Operand::Off, _) => None,
    };
    // A source read as 32 bits: a scalar one resolved to an SGPR index or a
    // constant where its value allows.
    let src = |o: Option<(Operand, OperandType)>| src64(o).map(|x| x.resolved32(inst.target));
    // A mask destination the fast path may write without a possible fault:
    // an SGPR (pair), VCC or `null`.
    let mask_dst = |o: Option<(Operand, OperandType)>| match o? {
        (op @ Operand::Src { code, .. }, _) if code <= VCC_LO || code == NULL => Some(op),
        _ => None,
    };
    let [vdst, sdst, vcc0, vcc1, s0, s1, s2, _] = by;
    use Opcode::*;
    let op = match inst.opcode {
        V_MOV_B32 => Op::Mov,
        V_ADD_NC_U32 => Op::AddNc,
        V_SUB_NC_U32 => Op::SubNc,
        V_SUBREV_NC_U32 => Op::SubrevNc,
        V_AND_B32 => Op::And,
        V_OR_B32 => Op::Or,
        V_XOR_B32 => Op::Xor,
        V_XNOR_B32 => Op::Xnor,
        V_LSHLREV_B32 => Op::Lshlrev,
        V_LSHRREV_B32 => Op::Lshrrev,
        V_ASHRREV_I32 => Op::Ashrrev,
        V_MIN_I32 => Op::MinI,
        V_MAX_I32 => Op::MaxI,
        V_MIN_U32 => Op::MinU,
        V_MAX_U32 => Op::MaxU,
        V_MUL_LO_U32 => Op::MulLo,
        V_MUL_HI_U32 => Op::MulHiU,
        V_MUL_HI_I32 => Op::MulHiI,
        V_MUL_U32_U24 => Op::MulU24,
        V_MUL_I32_I24 => Op::MulI24,
        V_LSHL_ADD_U32 => Op::LshlAdd,
        V_ADD_LSHL_U32 => Op::AddLshl,
        V_ADD3_U32 => Op::Add3,
        V_LSHL_OR_B32 => Op::LshlOr,
        V_AND_OR_B32 => Op::AndOr,
        V_OR3_B32 => Op::Or3,
        V_XOR3_B32 => Op::Xor3,
        V_XAD_U32 => Op::Xad,
        V_ALIGNBIT_B32 => Op::AlignBit,
        V_BFI_B32 => Op::Bfi,
        V_NOT_B32 => Op::Not,
        V_ADD_F32 => Op::AddF32,
        V_SUB_F32 => Op::SubF32,
        V_SUBREV_F32 => Op::SubrevF32,
        V_MUL_F32 => Op::MulF32,
        V_FMA_F32 => Op::FmaF32,
        V_MAD_F32 => Op::MadF32,
        V_LDEXP_F32 => Op::LdexpF32,
        V_MIN_F32 => Op::MinF32,
        V_MAX_F32 => Op::MaxF32,
        V_CVT_F32_I32 => Op::CvtF32I32,
        V_CVT_F32_U32 => Op::CvtF32U32,
        V_CVT_I32_F32 => Op::CvtI32F32,
        V_BFE_U32 => Op::BfeU32,
        V_BFE_I32 => Op::BfeI32,
        V_MAD_U32_U24 => Op::MadU24,
        V_MAD_I32_I24 => Op::MadI24,
        V_CVT_U32_F32 => Op::CvtU32F32,
        op if matches!(super::vop::vop1::float_unary(op), Some((f, _)) if f == F32) => {
            Op::Unary(op)
        }
        V_FMAC_F32 | V_MAC_F32 => {
            // `accumulate`: c is vdst's current value (the `_e64` src2 is tied to it).
            if !(bits32(vdst) && bits32(s0) && bits32(s1)) {
                return None;
            }
            let d = vgpr(vdst)?;
            let op = if inst.opcode == V_FMAC_F32 {
                Op::FmaF32
            } else {
                Op::MadF32
            };
            return Some(Lowered::Map {
                op,
                d,
                s: [src(s0)?, src(s1)?, Src::Vgpr(d)],
            });
        }
        V_ADD_U32 | V_ADD_CO_U32 | V_SUB_U32 | V_SUB_CO_U32 | V_SUBREV_U32 | V_SUBREV_CO_U32
        | V_ADDC_U32 | V_ADD_CO_CI_U32 | V_SUBB_U32 | V_SUB_CO_CI_U32 | V_SUBBREV_U32
        | V_SUBREV_CO_CI_U32 => {
            if !(bits32(vdst) && bits32(s0) && bits32(s1)) {
                return None;
            }
            let kind = match inst.opcode {
                V_ADD_U32 | V_ADD_CO_U32 => Carry::Add,
                V_SUB_U32 | V_SUB_CO_U32 => Carry::Sub,
                V_SUBREV_U32 | V_SUBREV_CO_U32 => Carry::Subrev,
                V_ADDC_U32 | V_ADD_CO_CI_U32 => Carry::AddCi,
                V_SUBB_U32 | V_SUB_CO_CI_U32 => Carry::SubCi,
                _ => Carry::SubrevCi,
            };
            let carry_in = matches!(kind, Carry::AddCi | Carry::SubCi | Carry::SubrevCi);
            // `mask_in`: src2 in VOP3, else the second vcc (the first when there is only one).
            let cin = if !carry_in {
                None
            } else if let Some((op, _)) = s2 {
                Some(op)
            } else {
                let second = vdst.is_some() && vcc1.is_some();
                Some(if second { vcc1? } else { vcc0? }.0)
            };
            // `write_mask_out`: sdst, else the first vcc.
            let cout = if sdst.is_some() {
                mask_dst(sdst)?
            } else {
                mask_dst(vcc0)?
            };
            return Some(Lowered::Carry {
                kind,
                d: vgpr(vdst)?,
                a: src(s0)?,
                b: src(s1)?,
                cin,
                cout,
            });
        }
        V_READLANE_B32 => {
            // A scalar lane select and a writable SGPR destination (not
            // `null`, whose write the general path drops: left to it).
            let dst = match sdst? {
                (op @ Operand::Src { code, .. }, _) if code < 128 && code != NULL => op,
                _ => return None,
            };
            let sel = match src(s1)? {
                Src::Vgpr(_) => return None,
                sel => sel,
            };
            return Some(Lowered::ReadLane {
                src: vgpr(s0)?,
                sel,
                dst,
            });
        }
        V_CNDMASK_B32 => {
            if !(bits32(vdst) && bits32(s0) && bits32(s1)) {
                return None;
            }
            let cond = if let Some((op, _)) = s2 {
                op
            } else {
                let second = vdst.is_some() && vcc1.is_some();
                if second { vcc1? } else { vcc0? }.0
            };
            return Some(Lowered::Cndmask {
                d: vgpr(vdst)?,
                a: src(s0)?,
                b: src(s1)?,
                cond,
            });
        }
        op if super::vop::vopc::compare32(op).is_some() => {
            let (table, ty, exec_write) = super::vop::vopc::compare32(op)?;
            if !(bits32(s0) && bits32(s1)) {
                return None;
            }
            // `compare`: the mask goes to sdst, else the vcc operand, if either exists.
            let dst = if sdst.is_some() {
                Some(mask_dst(sdst)?)
            } else if vcc0.is_some() {
                Some(mask_dst(vcc0)?)
            } else {
                None
            };
            return Some(Lowered::Cmp {
                ty,
                table,
                a: src(s0)?,
                b: src(s1)?,
                dst,
                exec_write,
            });
        }
        V_LSHLREV_B64 => {
            return Some(Lowered::Lshl64 {
                d: vgpr(vdst)?,
                a: src(s0)?,
                b: src64(s1)?,
            });
        }
        V_MAD_U64_U32 => {
            return Some(Lowered::MadU64 {
                d: vgpr(vdst)?,
                a: src(s0)?,
                b: src(s1)?,
                c: src64(s2)?,
                cout: mask_dst(sdst)?,
            });
        }
        _ => return None,
    };
    if !(bits32(vdst) && bits32(s0) && bits32(s1) && bits32(s2)) || sdst.is_some() || vcc0.is_some()
    {
        return None;
    }
    let d = vgpr(vdst)?;
    // Never read (the op's source count stops before it).
    let dummy = Src::Imm(0);
    let s = [
        src(s0)?,
        if s1.is_some() { src(s1)? } else { dummy },
        if s2.is_some() { src(s2)? } else { dummy },
    ];
    Some(Lowered::Map { op, d, s })
}

/// Runs a lowered instruction; `None` (with nothing changed) when the general
/// path must run it.
#[inline]
pub fn execute(w: &mut Wave, lowered: &Lowered) -> Option<Flow> {
    match lowered {
        Lowered::Generic => None,
        Lowered::Scalar(s) => scalar::execute(w, s),
        _ if w.gpr_idx_enabled => None,
        _ => valu::valu(w, lowered).map(|()| Flow::Next),
    }
}
