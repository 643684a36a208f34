//! Pre-lowered fast paths for the most common vector ALU instructions.
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
//! The semantics are not duplicated: every lane function below is the one
//! the general path uses for that opcode (the same integer expression or the
//! same `fp::` entry point with the same MODE), restricted to the case where
//! the general path's modifier handling is the identity (no `abs`/`neg`/
//! `op_sel`/`omod`/`clamp`, no SDWA/DPP, 32-bit types). Anything unusual at
//! run time — VGPR indexing mode on, a register beyond the allocation, a
//! scalar operand that does not read as a value — makes [`execute`] return
//! `None` *before any state changes*, and the general path runs the
//! instruction instead (and reports the fault, if any). The differential test
//! `cosim/tests/golden_fast_paths.rs` runs random operands through both paths
//! and the whole corpus with the fast paths on and off and requires identical
//! state, memory and statistics.

use arch::isa::tables::Field;
use arch::isa::{Family, Instruction, Modifiers, Opcode, Operand, OperandType, Target, Variant};

use super::fast_lanes::{self as lanes, carry_lanes, lanes_ref, map3, with_lanes, write64};
use super::fast_scalar::{self, Salu};
use super::sop::bfe;
use super::valu;
use super::vopc::{holds, Ty32};
use super::{Flow, Wave};
use crate::golden::fp::{self, FpMode, IntRound, Mode, Round, F32};
use crate::golden::wave::{NULL, VCC_LO};
use arch::isa::operand::VGPR_BASE;

/// A 32-bit source operand, resolved at lowering time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Src {
    /// A VGPR (its number).
    Vgpr(u16),
    /// Anything scalar (SGPR, constant, literal), read with [`Wave::read_scalar`]
    /// (or [`Wave::read_scalar64`] for a 64-bit source).
    Scalar(Operand),
    /// A 32-bit source that is `sgpr[i]` (resolved by [`fast_scalar::S32::of`]).
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

    /// This source with a scalar operand resolved for 32-bit reads (only for
    /// operands read by [`Src::scalar32`], never by a 64-bit read).
    fn resolved32(self, target: Target) -> Src {
        match self {
            Src::Scalar(op) => match fast_scalar::S32::of(target, op) {
                fast_scalar::S32::Reg(i) => Src::Sgpr(i),
                fast_scalar::S32::Imm(v) => Src::Imm(v),
                fast_scalar::S32::Op(op) => Src::Scalar(op),
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
    /// A scalar instruction (see [`super::fast_scalar`]).
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
    if let Some(s) = fast_scalar::lower(inst, pc) {
        return Lowered::Scalar(s);
    }
    try_lower(inst).map_or(Lowered::Generic, |l| resolve_sources(l, inst.target))
}

/// Resolves the 32-bit scalar sources of a lowered VALU form to an SGPR
/// index or a constant (the 64-bit ones keep their operand).
fn resolve_sources(l: Lowered, t: Target) -> Lowered {
    match l {
        Lowered::Map { op, d, s } => Lowered::Map {
            op,
            d,
            s: s.map(|x| x.resolved32(t)),
        },
        Lowered::Carry {
            kind,
            d,
            a,
            b,
            cin,
            cout,
        } => Lowered::Carry {
            kind,
            d,
            a: a.resolved32(t),
            b: b.resolved32(t),
            cin,
            cout,
        },
        Lowered::Cndmask { d, a, b, cond } => Lowered::Cndmask {
            d,
            a: a.resolved32(t),
            b: b.resolved32(t),
            cond,
        },
        Lowered::Cmp {
            ty,
            table,
            a,
            b,
            dst,
            exec_write,
        } => Lowered::Cmp {
            ty,
            table,
            a: a.resolved32(t),
            b: b.resolved32(t),
            dst,
            exec_write,
        },
        Lowered::Lshl64 { d, a, b } => Lowered::Lshl64 {
            d,
            a: a.resolved32(t),
            b,
        },
        Lowered::MadU64 { d, a, b, c, cout } => Lowered::MadU64 {
            d,
            a: a.resolved32(t),
            b: b.resolved32(t),
            c,
            cout,
        },
        other => other,
    }
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
    let info = valu::row(inst)?;
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
    let src = |o: Option<(Operand, OperandType)>| match o? {
        (Operand::Src { code, .. }, _) if code >= VGPR_BASE => Some(Src::Vgpr(code - VGPR_BASE)),
        (op @ (Operand::Src { .. } | Operand::Literal { .. }), _) => Some(Src::Scalar(op)),
        (Operand::Off, _) => None,
    };
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
        op if matches!(super::vop1::float_unary(op), Some((f, _)) if f == F32) => Op::Unary(op),
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
        op if super::vopc::compare32(op).is_some() => {
            let (table, ty, exec_write) = super::vopc::compare32(op)?;
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
                b: src(s1)?,
            });
        }
        V_MAD_U64_U32 => {
            return Some(Lowered::MadU64 {
                d: vgpr(vdst)?,
                a: src(s0)?,
                b: src(s1)?,
                c: src(s2)?,
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
    let dummy = Src::Scalar(Operand::Literal {
        value: 0,
        ty: OperandType::B32,
    });
    let s = [
        src(s0)?,
        if s1.is_some() { src(s1)? } else { dummy },
        if s2.is_some() { src(s2)? } else { dummy },
    ];
    Some(Lowered::Map { op, d, s })
}

/// A source's 32-bit lanes (a VGPR copied, a scalar broadcast), or `None`
/// when the general path must run (unallocated VGPR, unreadable operand).
#[inline]
fn lanes32(w: &Wave, s: &Src) -> Option<[u32; 64]> {
    match s {
        Src::Vgpr(n) => w.vgpr.get(usize::from(*n)).copied(),
        _ => s.scalar32(w).map(|x| [x; 64]),
    }
}

/// The f32 sign bit.
const SIGN: u32 = 0x8000_0000;

/// Exponent zero and a non-zero mantissa: `|x| - 1` below the mantissa mask
/// (one subtract and compare instead of two masks).
#[inline(always)]
fn denormal(x: u32) -> bool {
    (x & 0x7fff_ffff).wrapping_sub(1) < 0x007f_ffff
}

#[inline(always)]
fn nan(x: u32) -> bool {
    x & 0x7fff_ffff > 0x7f80_0000
}

/// True when MODE's denormal handling leaves inputs `xs` and result `r` of a
/// nearest-even host operation alone and `r` is not a NaN: then `fp::add`,
/// `fp::mul` and `fp::fma` return exactly `r` (their host path flushes inputs
/// only if denormal, fixes NaN results, and flushes only denormal results).
#[inline(always)]
fn host_result_stands(xs: &[u32], r: u32, m: FpMode) -> bool {
    m.round == Round::NearestEven
        && !nan(r)
        && (m.denorm_in || !xs.iter().any(|&x| denormal(x)))
        && (m.denorm_out || !denormal(r))
}

/// `fp::add` on f32 bits: the host sum when it provably stands, else `fp::add`.
#[inline(always)]
fn add_f32(a: u32, b: u32, m: FpMode) -> u32 {
    let r = (f32::from_bits(a) + f32::from_bits(b)).to_bits();
    if host_result_stands(&[a, b], r, m) {
        return r;
    }
    fp::add(F32, u64::from(a), u64::from(b), m) as u32
}

/// `fp::mul` on f32 bits, as [`add_f32`].
#[inline(always)]
fn mul_f32(a: u32, b: u32, m: FpMode) -> u32 {
    let r = (f32::from_bits(a) * f32::from_bits(b)).to_bits();
    if host_result_stands(&[a, b], r, m) {
        return r;
    }
    fp::mul(F32, u64::from(a), u64::from(b), m) as u32
}

/// `fp::fma` on f32 bits: its exact f64-based fused multiply-add when that
/// applies and the result stands, else `fp::fma`.
#[inline(always)]
fn fma_f32(a: u32, b: u32, c: u32, m: FpMode) -> u32 {
    if let Some(r) = fp::fma_f32_via_f64(a, b, c) {
        if host_result_stands(&[a, b, c], r, m) {
            return r;
        }
    }
    fp::fma(F32, u64::from(a), u64::from(b), u64::from(c), m) as u32
}

#[inline]
fn i24(x: u32) -> i64 {
    i64::from(((x << 8) as i32) >> 8)
}

/// Runs a lowered instruction; `None` (with nothing changed) when the general
/// path must run it.
#[inline]
pub fn execute(w: &mut Wave, lowered: &Lowered) -> Option<Flow> {
    match lowered {
        Lowered::Generic => None,
        Lowered::Scalar(s) => fast_scalar::execute(w, s),
        _ if w.gpr_idx_enabled => None,
        _ => valu(w, lowered).map(|()| Flow::Next),
    }
}

/// The vector part of [`execute`].
#[inline]
fn valu(w: &mut Wave, lowered: &Lowered) -> Option<()> {
    match *lowered {
        Lowered::Generic | Lowered::Scalar(_) => None,
        Lowered::Map { op, d, ref s } => {
            let mode = Mode::from_register(w.mode);
            let (m, ieee) = (mode.f32, mode.ieee);
            match op {
                Op::Mov => map3(
                    w,
                    d,
                    s,
                    1,
                    #[inline(always)]
                    |a, _, _| a,
                ),
                Op::Not => map3(
                    w,
                    d,
                    s,
                    1,
                    #[inline(always)]
                    |a, _, _| !a,
                ),
                Op::AddNc => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| a.wrapping_add(b),
                ),
                Op::SubNc => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| a.wrapping_sub(b),
                ),
                Op::SubrevNc => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| b.wrapping_sub(a),
                ),
                Op::And => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| a & b,
                ),
                Op::Or => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| a | b,
                ),
                Op::Xor => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| a ^ b,
                ),
                Op::Xnor => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| !(a ^ b),
                ),
                Op::Lshlrev => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| b << (a & 31),
                ),
                Op::Lshrrev => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| b >> (a & 31),
                ),
                Op::Ashrrev => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| ((b as i32) >> (a & 31)) as u32,
                ),
                Op::MinI => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| (a as i32).min(b as i32) as u32,
                ),
                Op::MaxI => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| (a as i32).max(b as i32) as u32,
                ),
                Op::MinU => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| a.min(b),
                ),
                Op::MaxU => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| a.max(b),
                ),
                Op::MulLo => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| a.wrapping_mul(b),
                ),
                Op::MulHiU => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| ((u64::from(a) * u64::from(b)) >> 32) as u32,
                ),
                Op::MulHiI => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32,
                ),
                Op::MulU24 => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff),
                ),
                Op::MulI24 => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| (i24(a) * i24(b)) as u32,
                ),
                Op::LshlAdd => map3(
                    w,
                    d,
                    s,
                    3,
                    #[inline(always)]
                    |a, b, c| (a << (b & 31)).wrapping_add(c),
                ),
                Op::AddLshl => map3(
                    w,
                    d,
                    s,
                    3,
                    #[inline(always)]
                    |a, b, c| a.wrapping_add(b) << (c & 31),
                ),
                Op::Add3 => map3(
                    w,
                    d,
                    s,
                    3,
                    #[inline(always)]
                    |a, b, c| a.wrapping_add(b).wrapping_add(c),
                ),
                Op::LshlOr => map3(
                    w,
                    d,
                    s,
                    3,
                    #[inline(always)]
                    |a, b, c| (a << (b & 31)) | c,
                ),
                Op::AndOr => map3(
                    w,
                    d,
                    s,
                    3,
                    #[inline(always)]
                    |a, b, c| (a & b) | c,
                ),
                Op::Or3 => map3(
                    w,
                    d,
                    s,
                    3,
                    #[inline(always)]
                    |a, b, c| a | b | c,
                ),
                Op::Xor3 => map3(
                    w,
                    d,
                    s,
                    3,
                    #[inline(always)]
                    |a, b, c| a ^ b ^ c,
                ),
                Op::Xad => map3(
                    w,
                    d,
                    s,
                    3,
                    #[inline(always)]
                    |a, b, c| (a ^ b).wrapping_add(c),
                ),
                Op::AlignBit => map3(
                    w,
                    d,
                    s,
                    3,
                    #[inline(always)]
                    |a, b, c| ((u64::from(a) << 32 | u64::from(b)) >> (c & 31)) as u32,
                ),
                Op::Bfi => map3(
                    w,
                    d,
                    s,
                    3,
                    #[inline(always)]
                    |a, b, c| (a & b) | (!a & c),
                ),
                Op::AddF32 => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| add_f32(a, b, m),
                ),
                // `fp::sub`: a + (-b).
                Op::SubF32 => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| add_f32(a, b ^ SIGN, m),
                ),
                Op::SubrevF32 => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| add_f32(b, a ^ SIGN, m),
                ),
                Op::MulF32 => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| mul_f32(a, b, m),
                ),
                Op::FmaF32 => map3(
                    w,
                    d,
                    s,
                    3,
                    #[inline(always)]
                    |a, b, c| fma_f32(a, b, c, m),
                ),
                Op::MadF32 => {
                    // `fp::mad` (f32): add(mul(a, b)) with denormals flushed whatever MODE says.
                    let mf = FpMode {
                        denorm_in: false,
                        denorm_out: false,
                        ..m
                    };
                    map3(
                        w,
                        d,
                        s,
                        3,
                        #[inline(always)]
                        |a, b, c| add_f32(mul_f32(a, b, mf), c, mf),
                    )
                }
                Op::LdexpF32 => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| fp::ldexp(F32, u64::from(a), b as i32, m) as u32,
                ),
                Op::MinF32 => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| fp::min_max(F32, u64::from(a), u64::from(b), false, ieee, m) as u32,
                ),
                Op::MaxF32 => map3(
                    w,
                    d,
                    s,
                    2,
                    #[inline(always)]
                    |a, b, _| fp::min_max(F32, u64::from(a), u64::from(b), true, ieee, m) as u32,
                ),
                Op::CvtF32I32 => map3(
                    w,
                    d,
                    s,
                    1,
                    #[inline(always)]
                    |a, _, _| fp::from_i64(F32, i64::from(a as i32), m) as u32,
                ),
                Op::CvtF32U32 => map3(
                    w,
                    d,
                    s,
                    1,
                    #[inline(always)]
                    |a, _, _| fp::from_u64(F32, u64::from(a), m) as u32,
                ),
                Op::BfeU32 => map3(
                    w,
                    d,
                    s,
                    3,
                    #[inline(always)]
                    |a, b, c| bfe(u64::from(a), b & 31, c & 31, 32, false) as u32,
                ),
                Op::BfeI32 => map3(
                    w,
                    d,
                    s,
                    3,
                    #[inline(always)]
                    |a, b, c| bfe(u64::from(a), b & 31, c & 31, 32, true) as u32,
                ),
                Op::MadU24 => map3(
                    w,
                    d,
                    s,
                    3,
                    #[inline(always)]
                    |a, b, c| (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff).wrapping_add(c),
                ),
                Op::MadI24 => map3(
                    w,
                    d,
                    s,
                    3,
                    #[inline(always)]
                    |a, b, c| ((i24(a) * i24(b)) as u32).wrapping_add(c),
                ),
                Op::CvtI32F32 => map3(
                    w,
                    d,
                    s,
                    1,
                    #[inline(always)]
                    |a, _, _| {
                        let (lo, hi) = (i64::from(i32::MIN), i64::from(i32::MAX));
                        fp::to_int(F32, u64::from(a), IntRound::Trunc, lo, hi, m) as u32
                    },
                ),
                Op::CvtU32F32 => map3(
                    w,
                    d,
                    s,
                    1,
                    #[inline(always)]
                    |a, _, _| {
                        let (lo, hi) = (0, i64::from(u32::MAX));
                        fp::to_int(F32, u64::from(a), IntRound::Trunc, lo, hi, m) as u32
                    },
                ),
                Op::Unary(op) => {
                    let (_, f) = super::vop1::float_unary(op)?;
                    map3(
                        w,
                        d,
                        s,
                        1,
                        #[inline(always)]
                        |a, _, _| f(u64::from(a), m) as u32,
                    )
                }
            }
        }
        Lowered::Carry {
            kind,
            d,
            a,
            b,
            cin,
            cout,
        } => {
            let cin = match cin {
                Some(op) => w.read_mask(&op).ok()? & w.full_mask(),
                None => 0,
            };
            let exec = w.exec();
            // Same expressions as `vop2::carry_op` (bit 32 is the carry/borrow),
            // one monomorphised loop per flavour.
            let carry = with_lanes(w, d, &[a, b, a], 2, |dst, a, b, _| match kind {
                Carry::Add | Carry::AddCi => carry_lanes(dst, a, b, cin, exec, |x, y, c| x + y + c),
                Carry::Sub | Carry::SubCi => carry_lanes(dst, a, b, cin, exec, |x, y, c| {
                    x.wrapping_sub(y).wrapping_sub(c) & 0x1_ffff_ffff
                }),
                Carry::Subrev | Carry::SubrevCi => carry_lanes(dst, a, b, cin, exec, |x, y, c| {
                    y.wrapping_sub(x).wrapping_sub(c) & 0x1_ffff_ffff
                }),
            })?;
            // `write_mask_out` writes only EXEC lanes' bits (cannot fault: checked when lowered).
            w.write_mask(&cout, carry & exec).ok()
        }
        Lowered::Cndmask { d, a, b, cond } => {
            let cond = w.read_mask(&cond).ok()? & w.full_mask();
            let exec = w.exec();
            with_lanes(w, d, &[a, b, a], 2, |dst, a, b, _| {
                lanes::each(exec, |l| {
                    dst[l] = if cond >> l & 1 != 0 { b[l] } else { a[l] };
                });
            })
        }
        Lowered::Cmp {
            ty,
            table,
            ref a,
            ref b,
            dst,
            exec_write,
        } => {
            let exec = w.exec();
            let mut mask = {
                let (ba, bb): ([u32; 64], [u32; 64]);
                let a = lanes_ref!(w, a, ba);
                let b = lanes_ref!(w, b, bb);
                match ty {
                    // The same truth table as `vopc::compare`, over flat masks.
                    Ty32::U32 => lanes::int_compare(a, b, exec, false, table),
                    Ty32::I32 => lanes::int_compare(a, b, exec, true, table),
                    Ty32::F32 => {
                        let m = Mode::from_register(w.mode).f32;
                        let mut mask = 0u64;
                        lanes::each(exec, |l| {
                            let o = fp::compare(F32, u64::from(a[l]), u64::from(b[l]), m);
                            mask |= u64::from(holds(table, o)) << l;
                        });
                        mask
                    }
                }
            };
            mask &= exec;
            if let Some(dst) = dst {
                w.write_mask(&dst, mask).ok()?;
            }
            if exec_write {
                w.set_exec(mask);
            }
            Some(())
        }
        Lowered::Lshl64 { d, ref a, ref b } => {
            let a = lanes32(w, a)?;
            let x = lanes::lanes64(w, b)?;
            write64(w, d, |l| x[l] << (a[l] & 63))
        }
        Lowered::MadU64 {
            d,
            ref a,
            ref b,
            ref c,
            cout,
        } => {
            let a = lanes32(w, a)?;
            let b = lanes32(w, b)?;
            let c = lanes::lanes64(w, c)?;
            let exec = w.exec();
            let mut carry = 0u64;
            let mut r = [0u64; 64];
            lanes::each(exec, |l| {
                let p = u64::from(a[l]) * u64::from(b[l]);
                let (x, o) = p.overflowing_add(c[l]);
                r[l] = x;
                carry |= u64::from(o) << l;
            });
            write64(w, d, |l| r[l])?;
            w.write_mask(&cout, carry & exec).ok()
        }
    }
}
