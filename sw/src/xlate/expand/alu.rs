//! Re-targeting: a legacy instruction whose operation exists on gfx1030
//! becomes that gfx1030 instruction (one for one), and the unfused
//! multiply-adds gfx1030 removed become exact two-instruction emulations.

use arch::isa::operand::{classify, SrcKind};
use arch::isa::{Family, Instruction, Isa, Opcode, Operand, OperandType, Variant};

use super::emit::{inst, mov_imm, Emitter};
use super::Context;
use crate::xlate::forms::{self, is_unfused_mad};
use crate::xlate::tables::{self, row as info};
use crate::xlate::{XlateError, OUTPUT};

/// gfx803 opcodes whose operation gfx1030 has under another name.
///
/// | gfx803 | gfx1030 | why |
/// |---|---|---|
/// | `v_add_u32` (VCC carry-out) | `v_add_co_u32` | gfx9 renamed the carry-out forms `_co_`; gfx10 keeps them VOP3-only |
/// | `v_sub_u32`, `v_subrev_u32` | `v_sub_co_u32`, `v_subrev_co_u32` | same |
/// | `v_addc_u32` | `v_add_co_ci_u32` | carry-in forms renamed `_co_ci_` |
/// | `v_subb_u32`, `v_subbrev_u32` | `v_sub_co_ci_u32`, `v_subrev_co_ci_u32` | same |
/// | `v_add_u16`, `v_sub_u16` | `v_add_nc_u16`, `v_sub_nc_u16` | gfx10 "no carry" names; VOP3-only |
pub fn rename(op: Opcode) -> Opcode {
    match op {
        Opcode::V_ADD_U32 => Opcode::V_ADD_CO_U32,
        Opcode::V_SUB_U32 => Opcode::V_SUB_CO_U32,
        Opcode::V_SUBREV_U32 => Opcode::V_SUBREV_CO_U32,
        Opcode::V_ADDC_U32 => Opcode::V_ADD_CO_CI_U32,
        Opcode::V_SUBB_U32 => Opcode::V_SUB_CO_CI_U32,
        Opcode::V_SUBBREV_U32 => Opcode::V_SUBREV_CO_CI_U32,
        Opcode::V_ADD_U16 => Opcode::V_ADD_NC_U16,
        Opcode::V_SUB_U16 => Opcode::V_SUB_NC_U16,
        other => other,
    }
}

/// Same mnemonic on both ISAs but a different meaning, or a meaning that
/// depends on where the code lives: never re-targeted blindly.
fn semantic_difference(inst: &Instruction) -> Option<&'static str> {
    Some(match inst.opcode {
        Opcode::S_GETREG_B32 | Opcode::S_SETREG_B32 | Opcode::S_SETREG_IMM32_B32
            if !is_mode_float_field(inst.modifiers.simm16) =>
        {
            "hardware register numbering and layouts differ between gfx8 and gfx10 (only MODE[9:0] is mapped)"
        }
        Opcode::S_SETPC_B64 | Opcode::S_SWAPPC_B64 => {
            "indirect control flow: the translated code does not live at the legacy addresses"
        }
        Opcode::S_SENDMSG | Opcode::S_SENDMSGHALT => "message encodings differ",
        Opcode::S_CBRANCH_G_FORK | Opcode::S_CBRANCH_I_FORK | Opcode::S_CBRANCH_JOIN => {
            "GCN3 fork/join has no gfx10 equivalent"
        }
        _ if tables::flags(inst.opcode) & tables::D16 != 0 => {
            "gfx803 d16 memory data is unpacked (one component per VGPR), gfx1030's packed"
        }
        _ if inst.variant == Variant::Dpp16
            && (0x130..=0x143).contains(&inst.modifiers.dpp_ctrl) =>
        {
            "DPP wave shifts/rotates and row broadcasts do not exist on gfx10"
        }
        _ => return None,
    })
}

/// gfx8 `v_cmpx_*` (writes EXEC and VCC/SDST).
pub fn is_cmpx(op: Opcode) -> bool {
    tables::flags(op) & tables::CMPX != 0
}

/// Operands that mean the same on both ISAs with the same code (the common
/// case, checked inline): non-source operands, SGPRs s0..s101, VCC, M0,
/// EXEC, inline constants, vccz/execz/scc/lds_direct, the literal and VGPRs.
#[inline]
fn same_code(op: Operand) -> bool {
    match op {
        Operand::Src { code, .. } => {
            matches!(code, 0..=101 | 106 | 107 | 124 | 126..=208 | 240..=248 | 251..=511)
        }
        _ => true,
    }
}

/// Maps a gfx803 operand to gfx1030's source space.
pub fn map_operand(op: Operand) -> Result<Operand, String> {
    if same_code(op) {
        return Ok(op);
    }
    let Operand::Src { code, ty } = op else {
        return Ok(op);
    };
    let code = match classify(Isa::Gfx803, code) {
        SrcKind::Ttmp(n) => 108 + n,
        SrcKind::Named(name, _) => match code {
            // vcc, m0, exec, vccz, execz, scc, lds_direct: same codes.
            106 | 107 | 124 | 126 | 127 | 251..=254 => code,
            _ => return Err(format!("operand `{name}` has no gfx1030 equivalent")),
        },
        SrcKind::Invalid => return Err(format!("invalid source code {code}")),
        _ => code,
    };
    Ok(Operand::Src { code, ty })
}

fn unsupported(inst: &Instruction, offset: u32, reason: impl Into<String>) -> XlateError {
    XlateError::Unsupported {
        offset: offset as usize,
        text: inst.to_string(),
        reason: reason.into(),
    }
}

/// Compares two rows' operand lists by type, and by field unless
/// `types_only` (VOP2/VOPC → VOP3 promotion turns the implicit `vcc` into
/// `sdst`/`src2`).
fn same_operands(
    a: &[arch::isa::OperandSpec],
    b: &[arch::isa::OperandSpec],
    types_only: bool,
) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.ty == y.ty && (types_only || x.field == y.field))
}

/// How a gfx803 (family, opcode) re-targets, decided once per table row:
/// the renamed opcode, whether gfx1030 has it in the same family with the
/// same operands (`direct`) or only as VOP3 (`promote`, for the plain
/// VOP1/VOP2/VOPC forms), and the SMEM `soffset` rule.
#[derive(Clone, Copy, Debug)]
struct Plan {
    op: Opcode,
    direct: bool,
    promote: bool,
    /// The gfx803 row ends with `soffset` (the immediate form omits it).
    smem_soffset: bool,
    /// Operands of the gfx803 row.
    row_len: u8,
    /// Handled by a special expansion, or refused, depending on the opcode
    /// alone (`misc`, `v_cmpx`, unfused mads, `s_getpc`, the opcodes of
    /// [`semantic_difference`]): never on the one-for-one path.
    special: bool,
    /// The row's first operand is a 16-bit VGPR result of VOP1/VOP2/VOP3
    /// ([`high16_to_clear`] may apply).
    high16: bool,
    /// Index of the gfx1030 row's direct encoding in [`Plans::encs`]
    /// (`u16::MAX`: none; `arch`'s encoder writes it).
    enc: u16,
}

/// The re-targeting plans, per gfx803 (opcode, family), and the direct
/// encodings of their gfx1030 rows.
struct Plans {
    by_op: Vec<[Option<Plan>; FAMILIES]>,
    encs: Vec<super::direct_encode::Enc>,
}

/// Opcodes [`semantic_difference`] looks at (besides D16 and DPP, checked
/// separately).
fn has_semantic_check(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::S_GETREG_B32
            | Opcode::S_SETREG_B32
            | Opcode::S_SETREG_IMM32_B32
            | Opcode::S_SETPC_B64
            | Opcode::S_SWAPPC_B64
            | Opcode::S_SENDMSG
            | Opcode::S_SENDMSGHALT
            | Opcode::S_CBRANCH_G_FORK
            | Opcode::S_CBRANCH_I_FORK
            | Opcode::S_CBRANCH_JOIN
    )
}

/// Families per opcode in the plan index (`Family as usize` < this).
const FAMILIES: usize = Family::ALL.len();

fn plans() -> &'static [[Option<Plan>; FAMILIES]] {
    &all_plans().by_op
}

fn all_plans() -> &'static Plans {
    static PLANS: std::sync::OnceLock<Plans> = std::sync::OnceLock::new();
    PLANS.get_or_init(|| {
        let rows = arch::isa::tables::tables(Isa::Gfx803).rows;
        let n = rows
            .iter()
            .map(|r| r.opcode as usize + 1)
            .max()
            .unwrap_or(0);
        let mut plans = vec![[None; FAMILIES]; n];
        let mut encs = Vec::new();
        for row in rows {
            let op = rename(row.opcode);
            let direct = info(Isa::Gfx1030, row.family, op)
                .is_some_and(|new| same_operands(row.operands, new.operands, false));
            let promote = !direct
                && matches!(row.family, Family::Vop1 | Family::Vop2 | Family::Vopc)
                && info(Isa::Gfx1030, Family::Vop3, op)
                    .is_some_and(|new| same_operands(row.operands, new.operands, true));
            let out_family = if direct { row.family } else { Family::Vop3 };
            let enc =
                match info(Isa::Gfx1030, out_family, op).and_then(super::direct_encode::Enc::of) {
                    Some(e) if direct || promote => {
                        encs.push(e);
                        (encs.len() - 1) as u16
                    }
                    _ => u16::MAX,
                };
            if let Some(slot) = plans[row.opcode as usize].get_mut(row.family as usize) {
                *slot = Some(Plan {
                    enc,
                    op,
                    direct,
                    promote,
                    smem_soffset: row
                        .operands
                        .last()
                        .is_some_and(|o| o.field == arch::isa::Field::Soffset),
                    row_len: row.operands.len() as u8,
                    special: forms::has_other_shape(row.opcode)
                        || is_cmpx(row.opcode)
                        || is_unfused_mad(row.opcode)
                        || row.opcode == Opcode::S_GETPC_B64
                        || has_semantic_check(row.opcode)
                        || tables::flags(row.opcode) & tables::D16 != 0,
                    high16: matches!(row.family, Family::Vop1 | Family::Vop2 | Family::Vop3)
                        && row.operands.first().is_some_and(|o| {
                            o.field == arch::isa::Field::Vdst
                                && matches!(o.ty, OperandType::B16 | OperandType::F16)
                        }),
                });
            }
        }
        Plans { by_op: plans, encs }
    })
}

/// The one-for-one path of the expansion: when `legacy` is an instruction that
/// nothing but [`retarget`] (and [`high16_to_clear`]) handles — decided from
/// a per-row table and two instance checks — its re-targeted form and
/// whether the 16-bit high-half clear may apply. `None`: take the general
/// path (which also reports every error).
#[inline]
pub fn plain(legacy: &Instruction) -> Option<(Instruction, bool)> {
    plain_plan(legacy).map(|plan| (plain_inst(legacy, plan), plan.high16))
}

/// What the one-for-one path did with an instruction.
pub(super) enum Retargeted {
    /// Its re-targeted form is written to the output (directly encoded);
    /// the 16-bit high-half clear may apply.
    Written(bool),
    /// Its re-targeted form, for `arch`'s encoder; the clear may apply.
    Inst(Instruction, bool),
}

/// [`plain`] writing the re-targeted instruction straight into `out` when
/// its gfx1030 row has a direct encoding ([`super::direct_encode`]), which gives the
/// bytes `arch::isa::encode` would (a test compares them).
#[inline]
pub(super) fn retarget_plain(legacy: &Instruction, out: &mut Vec<u8>) -> Option<Retargeted> {
    let plan = plain_plan(legacy)?;
    if legacy.variant == Variant::Plain {
        if let Some(enc) = all_plans().encs.get(usize::from(plan.enc)) {
            if enc.write(legacy, out) {
                return Some(Retargeted::Written(plan.high16));
            }
        }
    }
    Some(Retargeted::Inst(plain_inst(legacy, plan), plan.high16))
}

/// The one-for-one path's eligibility: the row's plan when nothing but
/// re-targeting applies.
#[inline]
fn plain_plan(legacy: &Instruction) -> Option<&'static Plan> {
    // By reference: copying the 10-byte `Option<Plan>` out of the table
    // went through the stack with a store-forwarding stall.
    let plan = plans()
        .get(legacy.opcode as usize)?
        .get(legacy.family as usize)?
        .as_ref()?;
    if plan.special
        || !(plan.direct || (plan.promote && legacy.variant == Variant::Plain))
        || legacy.variant == Variant::Dpp16
        || matches!(legacy.family, Family::Sop1 | Family::Sop2 | Family::Sopk)
            && matches!(
                legacy.operands().first(),
                Some(Operand::Src {
                    code: 102 | 103,
                    ..
                })
            )
    {
        return None;
    }
    let n = usize::from(legacy.operand_count);
    if !legacy.operands[..n].iter().all(|&o| same_code(o)) {
        return None;
    }
    Some(plan)
}

/// The re-targeted form of an instruction [`plain_plan`] accepted.
#[inline]
fn plain_inst(legacy: &Instruction, plan: &Plan) -> Instruction {
    let mut out = *legacy;
    apply_plan(&mut out, plan);
    out
}

/// Rewrites a legacy instruction whose operands already have their gfx1030
/// codes into the plan's gfx1030 opcode and family.
#[inline]
fn apply_plan(out: &mut Instruction, plan: &Plan) {
    // gfx8 SMEM with an immediate offset has no soffset; gfx10 names `null`.
    if out.family == Family::Smem && plan.smem_soffset && out.operand_count + 1 == plan.row_len {
        out.operands[usize::from(out.operand_count)] = Operand::scalar(NULL, OperandType::B32);
        out.operand_count += 1;
    }
    if !plan.direct {
        out.family = Family::Vop3;
    }
    out.target = OUTPUT;
    out.opcode = plan.op;
    out.size = 0;
}

/// The one gfx1030 instruction that does what `inst` does.
pub fn retarget(legacy: &Instruction, offset: u32) -> Result<Instruction, XlateError> {
    let mut out = *legacy;
    retarget_in_place(&mut out, offset)?;
    Ok(out)
}

/// [`retarget`] rewriting a copy of the legacy instruction in place (no
/// 100-byte `Result` to move on the hot path).
pub fn retarget_in_place(out: &mut Instruction, offset: u32) -> Result<(), XlateError> {
    if let Some(why) = semantic_difference(out) {
        return Err(unsupported(out, offset, why));
    }
    let plan = plans()
        .get(out.opcode as usize)
        .and_then(|p| p.get(out.family as usize).copied().flatten())
        .ok_or_else(|| unsupported(out, offset, "no gfx803 table row"))?;
    if !(plan.direct || (plan.promote && out.variant == Variant::Plain)) {
        return Err(unsupported(
            out,
            offset,
            format!(
                "gfx1030 has no `{}` encoding with the same operands",
                plan.op.mnemonic()
            ),
        ));
    }
    // Operands whose code changes (rare): refused ones are reported with
    // the legacy instruction still intact.
    for i in 0..usize::from(out.operand_count) {
        if !same_code(out.operands[i]) {
            out.operands[i] =
                map_operand(out.operands[i]).map_err(|e| unsupported(out, offset, e))?;
        }
    }
    apply_plan(out, &plan);
    Ok(())
}

/// gfx1030's `null` SGPR.
pub const NULL: u16 = 125;

fn is_f16_mad(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::V_MAC_F16 | Opcode::V_MAD_F16 | Opcode::V_MADMK_F16 | Opcode::V_MADAK_F16
    )
}

/// `d = a × b + c` with the product rounded, then the sum rounded: the
/// product into the summary's free VGPR, then the add. The gfx8 forms flush
/// f32 denormals whatever MODE says (`docs/floating-point.md`): when the
/// kernel's MODE keeps them, the pair runs under `s_denorm_mode` flushing
/// f32 and MODE is restored after.
pub fn unfused_mad(
    legacy: &Instruction,
    offset: u32,
    ctx: &Context,
    out: &mut Emitter,
) -> Result<(), XlateError> {
    let ops = legacy.operands();
    let m = legacy.modifiers;
    // (dst, a, b, c) and the legacy source index of each of a, b, c.
    let (d, a, b, c) = match (legacy.opcode, ops) {
        (Opcode::V_MAC_F32 | Opcode::V_MAC_F16, [d, a, b]) => (*d, *a, *b, *d),
        (Opcode::V_MAD_F32 | Opcode::V_MAD_LEGACY_F32 | Opcode::V_MAD_F16, [d, a, b, c]) => {
            (*d, *a, *b, *c)
        }
        (Opcode::V_MADMK_F32 | Opcode::V_MADMK_F16, [d, a, k, c]) => (*d, *a, *k, *c),
        (Opcode::V_MADAK_F32 | Opcode::V_MADAK_F16, [d, a, b, k]) => (*d, *a, *b, *k),
        _ => return Err(unsupported(legacy, offset, "unexpected operand list")),
    };
    let map = |o: Operand| map_operand(o).map_err(|e| unsupported(legacy, offset, e));
    let (d, a, b, c) = (map(d)?, map(a)?, map(b)?, map(c)?);
    let half = is_f16_mad(legacy.opcode);
    let (ty, mul_op, add_op) = match legacy.opcode {
        _ if half => (OperandType::F16, Opcode::V_MUL_F16, Opcode::V_ADD_F16),
        Opcode::V_MAD_LEGACY_F32 => (
            OperandType::F32,
            Opcode::V_MUL_LEGACY_F32,
            Opcode::V_ADD_F32,
        ),
        _ => (OperandType::F32, Opcode::V_MUL_F32, Opcode::V_ADD_F32),
    };
    let t = Operand::vgpr(ctx.layout.temp_vgpr, ty);
    let mut mul = inst(mul_op, Family::Vop3, &[t, a, b]);
    mul.modifiers.neg = m.neg & 0b11;
    mul.modifiers.abs = m.abs & 0b11;
    let mut add = inst(add_op, Family::Vop3, &[d, t, c]);
    // The add's src1 is the legacy src2 (not for v_mac, whose src2 is vdst).
    if !matches!(legacy.opcode, Opcode::V_MAC_F32 | Opcode::V_MAC_F16) {
        add.modifiers.neg = (m.neg >> 2 & 1) << 1;
        add.modifiers.abs = (m.abs >> 2 & 1) << 1;
    }
    add.modifiers.clamp = m.clamp;
    add.modifiers.omod = m.omod;
    let e = |e: super::EmitError| e.at(offset);
    if half {
        // The f16 forms follow MODE (`docs/floating-point.md`); gfx8 zeroes
        // the destination's high half, gfx1030 keeps it.
        let Operand::Src { code, .. } = d else {
            return Err(unsupported(legacy, offset, "destination is not a VGPR"));
        };
        for i in [
            shrink(mul),
            shrink(add),
            clear_high16(code.saturating_sub(256)),
        ] {
            out.emit(&i).map_err(e)?;
        }
        return Ok(());
    }
    if ctx.layout.writes_mode {
        // MODE is not known statically: save FP_DENORM single, flush, restore.
        let save = Operand::scalar(MODE_SAVE_SGPR, OperandType::B32);
        let mut get = inst(Opcode::S_GETREG_B32, Family::Sopk, &[save]);
        get.modifiers.simm16 = MODE_DENORM_F32;
        let mut clear = inst(Opcode::S_SETREG_IMM32_B32, Family::Sopk, &[]);
        clear.modifiers.simm16 = MODE_DENORM_F32;
        clear.modifiers.imm32 = 0;
        let mut restore = inst(Opcode::S_SETREG_B32, Family::Sopk, &[save]);
        restore.modifiers.simm16 = MODE_DENORM_F32;
        for i in [get, clear, shrink(mul), shrink(add), restore] {
            out.emit(&i).map_err(e)?;
        }
        return Ok(());
    }
    let flush = ctx.layout.denorm_f32 != 0;
    if flush {
        out.emit(&denorm_mode(0, ctx.layout.denorm_f16_f64))
            .map_err(e)?;
    }
    out.emit(&shrink(mul)).map_err(e)?;
    out.emit(&shrink(add)).map_err(e)?;
    if flush {
        out.emit(&denorm_mode(
            ctx.layout.denorm_f32,
            ctx.layout.denorm_f16_f64,
        ))
        .map_err(e)?;
    }
    Ok(())
}

/// A scalar temporary gfx803 code cannot name (see `abi::TEMP_SGPR`).
const MODE_SAVE_SGPR: u16 = 103;
/// `hwreg(HW_REG_MODE, 4, 2)`: FP_DENORM single.
const MODE_DENORM_F32: u16 = (1 << 11) | (4 << 6) | 1;

/// True for an `s_getreg`/`s_setreg` `hwreg` field inside MODE[9:0]
/// (FP_ROUND, FP_DENORM, DX10_CLAMP, IEEE), which gfx8 and gfx10 lay out alike.
fn is_mode_float_field(simm16: u16) -> bool {
    let id = simm16 & 0x3f;
    let offset = simm16 >> 6 & 0x1f;
    let size = (simm16 >> 11 & 0x1f) + 1;
    id == 1 && offset + size <= 10
}

/// `s_denorm_mode`: FP_DENORM single in [1:0], double/half in [3:2].
fn denorm_mode(f32_mode: u8, f16_f64_mode: u8) -> Instruction {
    let mut i = inst(Opcode::S_DENORM_MODE, Family::Sopp, &[]);
    i.modifiers.simm16 = u16::from(f32_mode & 3) | u16::from(f16_f64_mode & 3) << 2;
    i
}

/// The 4-byte VOP2 form of a VOP3 two-source instruction when nothing needs
/// VOP3 (no modifiers, a VGPR in src1, no literal in src1).
fn shrink(i: Instruction) -> Instruction {
    let m = i.modifiers;
    let plain = m.neg == 0 && m.abs == 0 && !m.clamp && m.omod == 0;
    let src1_vgpr = matches!(i.operands[2], Operand::Src { code, .. } if code >= 256);
    if plain && src1_vgpr && info(Isa::Gfx1030, Family::Vop2, i.opcode).is_some() {
        let mut s = i;
        s.family = Family::Vop2;
        s
    } else {
        i
    }
}

/// gfx8 `v_cmpx_* dst, a, b` writes the comparison to `dst` (VCC for `_e32`,
/// SDST for `_e64`) AND to EXEC; gfx10's `v_cmpx` writes only EXEC. So:
/// `v_cmp_* dst, a, b` (same encoding family) then `s_mov_b64 exec, dst`.
/// Lanes inactive before the compare read 0 in both, as on gfx8.
pub fn cmpx(legacy: &Instruction, offset: u32, out: &mut Emitter) -> Result<(), XlateError> {
    let cmp = tables::cmp_of_cmpx(legacy.opcode)
        .ok_or_else(|| unsupported(legacy, offset, "no v_cmp_* counterpart"))?;
    let mut as_cmp = *legacy;
    as_cmp.opcode = cmp;
    let c = retarget(&as_cmp, offset)?;
    let dst = c.operands[0];
    if matches!(dst, Operand::Src { code: EXEC_LO, .. }) {
        return Err(unsupported(legacy, offset, "v_cmpx with EXEC as its SDST"));
    }
    let mov = inst(
        Opcode::S_MOV_B64,
        Family::Sop1,
        &[
            Operand::scalar(EXEC_LO, OperandType::B64),
            with_type(dst, OperandType::B64),
        ],
    );
    out.emit(&c)
        .and_then(|_| out.emit(&mov))
        .map_err(|e| e.at(offset))
}

/// EXEC's source code.
const EXEC_LO: u16 = 126;

fn with_type(op: Operand, ty: OperandType) -> Operand {
    match op {
        Operand::Src { code, .. } => Operand::Src { code, ty },
        other => other,
    }
}

/// The VGPR whose high half a gfx8 16-bit VALU result zeroes, when `legacy`
/// is one: a VOP1/VOP2/VOP3 (not SDWA, whose `dst_sel`/`dst_unused` say
/// what happens) writing a `b16`/`f16` destination. gfx1030 keeps the high
/// half, so the expansion clears it after the operation.
pub fn high16_to_clear(legacy: &Instruction) -> Option<u16> {
    if !matches!(legacy.family, Family::Vop1 | Family::Vop2 | Family::Vop3)
        || legacy.variant == Variant::Sdwa
    {
        return None;
    }
    let row = info(Isa::Gfx803, legacy.family, legacy.opcode)?;
    let first = row.operands.first()?;
    if first.field != arch::isa::Field::Vdst
        || !matches!(first.ty, OperandType::B16 | OperandType::F16)
    {
        return None;
    }
    match legacy.operands().first() {
        Some(Operand::Src { code, .. }) if *code >= 256 => Some(*code - 256),
        _ => None,
    }
}

/// `v_and_b32_e32 v{d}, 0xffff, v{d}`.
pub fn clear_high16(d: u16) -> Instruction {
    let v = Operand::vgpr(d, OperandType::B32);
    inst(
        Opcode::V_AND_B32,
        Family::Vop2,
        &[
            v,
            Operand::Literal {
                value: 0xffff,
                ty: OperandType::B32,
            },
            v,
        ],
    )
}

/// `s_getpc_b64 sdst` at legacy byte `offset`: the address the legacy code
/// would see (its next instruction in the legacy image, which stays loaded),
/// as two `s_mov_b32` — so PC-relative data references reach the legacy
/// image's read-only data. SCC is untouched, as by `s_getpc_b64`.
pub fn getpc(
    legacy: &Instruction,
    offset: u32,
    ctx: &Context,
    out: &mut Emitter,
) -> Result<(), XlateError> {
    if ctx.layout.legacy_entry == 0 {
        return Err(unsupported(
            legacy,
            offset,
            "s_getpc_b64 needs the legacy code's device address (Binding::legacy_entry)",
        ));
    }
    let Some(Operand::Src { code, .. }) = legacy.operands().first().copied() else {
        return Err(unsupported(legacy, offset, "unexpected operand list"));
    };
    let dst = map_operand(Operand::scalar(code, OperandType::B32))
        .map_err(|e| unsupported(legacy, offset, e))?;
    let Operand::Src { code: lo, .. } = dst else {
        return Err(unsupported(legacy, offset, "unexpected destination"));
    };
    let pc = ctx.layout.legacy_entry + u64::from(offset) + u64::from(legacy.size);
    for (reg, value) in [(lo, pc as u32), (lo + 1, (pc >> 32) as u32)] {
        out.emit(&mov_imm(reg, value)).map_err(|e| e.at(offset))?;
    }
    Ok(())
}
