//! Walks every VALU row of the gfx1030 table (VOP1, VOP2, VOPC, VOP3, VOP3P;
//! VOP1/VOP2/VOPC also as SDWA, DPP16 and DPP8) through `hw::exec::execute`
//! on both wave sizes: each must execute, route to `exec::fp`, or return the
//! deliberate not-implemented fault; nothing else (no other fault, no panic
//! but the FP stubs'). Every opcode of the gfx1030 corpus must execute.
//!
//! This file is its own test binary because it silences the panic hook while
//! it catches the FP stubs' `todo!()` panics (until `exec::fp` lands).

use std::panic::{catch_unwind, AssertUnwindSafe};

use arch::device::FaultKind;
use arch::isa::tables::{tables, Field, OpInfo};
use arch::isa::{
    Family, Instruction, Isa, Modifiers, Opcode, Operand, OperandType, Target, Variant,
    MAX_OPERANDS,
};
use hw::exec::{execute_isolated, ScalarState, Vgprs};

#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Executed,
    RoutedToFp,
    NotImplemented,
    Failed(String),
}

fn build(row: &OpInfo, target: Target, variant: Variant) -> Instruction {
    let mut operands = [Operand::Off; MAX_OPERANDS];
    for (o, spec) in operands.iter_mut().zip(row.operands) {
        let ty = spec.ty;
        *o = match spec.field {
            Field::Vdst => Operand::vgpr(0, ty),
            Field::Sdst => Operand::scalar(4, ty),
            Field::Vcc => Operand::scalar(106, ty),
            // v_writelane's data is a scalar (a VGPR there is an illegal encoding).
            Field::Src0 if row.opcode == Opcode::V_WRITELANE_B32 => Operand::scalar(3, ty),
            Field::Src0 => Operand::vgpr(8, ty),
            Field::Src1 if ty == OperandType::LaneMask => Operand::scalar(6, ty),
            Field::Src1 if variant != Variant::Plain || row.family != Family::Vop3 => {
                Operand::vgpr(12, ty)
            }
            Field::Src1 => Operand::scalar(2, ty),
            Field::Src2 if ty == OperandType::LaneMask => Operand::scalar(6, ty),
            Field::Src2 => Operand::scalar(10, ty),
            Field::K => Operand::Literal {
                value: 0x3f80_0000,
                ty,
            },
            _ => Operand::Off,
        };
    }
    let mut modifiers = Modifiers::default();
    match variant {
        Variant::Sdwa => {
            modifiers.dst_sel = 6;
            modifiers.src0_sel = 6;
            modifiers.src1_sel = 6;
        }
        Variant::Dpp16 => {
            modifiers.dpp_ctrl = 0xe4;
            modifiers.row_mask = 0xf;
            modifiers.bank_mask = 0xf;
        }
        Variant::Dpp8 => modifiers.dpp8 = (0..8).fold(0, |m, i| m | i << (3 * i)),
        Variant::Plain => {}
    }
    if row.family == Family::Vop3p {
        modifiers.op_sel_hi = 7;
    }
    Instruction {
        target,
        opcode: row.opcode,
        family: row.family,
        variant,
        operands,
        operand_count: row.operands.len() as u8,
        modifiers,
        size: 8,
    }
}

/// Executes `inst` over VGPR rows `rows` and scalar state `s` with an empty
/// memory; a panic comes back as its message.
fn execute_caught(
    inst: &Instruction,
    rows: &[[u32; 32]],
    s: &ScalarState,
) -> Result<Result<(), FaultKind>, String> {
    let v = Vgprs {
        rows,
        wave64: inst.target.wave64,
    };
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = catch_unwind(AssertUnwindSafe(|| {
        execute_isolated(inst, s, v).map(|_| ())
    }));
    std::panic::set_hook(prev);
    r.map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

/// The outcome of a panic with message `msg`.
fn panicked(msg: String) -> Outcome {
    if msg.contains("not yet implemented: fp") {
        Outcome::RoutedToFp
    } else {
        Outcome::Failed(format!("panic: {msg}"))
    }
}

fn run(inst: &Instruction) -> Outcome {
    let rows = vec![[0x4040_0000u32; 32]; if inst.target.wave64 { 48 } else { 24 }];
    let mut s = ScalarState::new();
    s.sgpr[126] = 0x0f0f_f0f1;
    s.sgpr[127] = 0x8000_0001;
    match execute_caught(inst, &rows, &s) {
        Ok(Ok(())) => Outcome::Executed,
        Ok(Err(FaultKind::IllegalInstruction { reason }))
            if reason.contains("is not implemented in the cycle model") =>
        {
            Outcome::NotImplemented
        }
        Ok(Err(FaultKind::IllegalInstruction { .. })) if inst.opcode == Opcode::V_ILLEGAL => {
            Outcome::Executed
        }
        Ok(Err(e)) => Outcome::Failed(format!("{e:?}")),
        Err(msg) => panicked(msg),
    }
}

/// The opcodes the gfx1030 kernel corpus uses (wave32 and wave64).
const CORPUS: &[Opcode] = &[
    Opcode::V_ADD_NC_U32,
    Opcode::V_MOV_B32,
    Opcode::V_ADD_CO_CI_U32,
    Opcode::V_ADD_CO_U32,
    Opcode::V_LSHLREV_B64,
    Opcode::V_MAD_U64_U32,
    Opcode::V_LSHLREV_B32,
    Opcode::V_FMAC_F32,
    Opcode::V_MUL_LO_U32,
    Opcode::V_MUL_F32,
    Opcode::V_XOR_B32,
    Opcode::V_SUB_NC_U32,
    Opcode::V_MUL_HI_U32,
    Opcode::V_CNDMASK_B32,
    Opcode::V_ADD_F32,
    Opcode::V_AND_B32,
    Opcode::V_LSHRREV_B32,
    Opcode::V_ADD3_U32,
    Opcode::V_CMPX_EQ_U32,
    Opcode::V_SUBREV_NC_U32,
    Opcode::V_MBCNT_LO_U32_B32,
    Opcode::V_MBCNT_HI_U32_B32,
    Opcode::V_LSHL_ADD_U32,
    Opcode::V_OR_B32,
    Opcode::V_CMP_GT_U32,
    Opcode::V_CMP_GE_U32,
    Opcode::V_READLANE_B32,
    Opcode::V_CMPX_GT_U32,
    Opcode::V_CVT_U32_F32,
    Opcode::V_CVT_F32_U32,
    Opcode::V_SUB_CO_U32,
    Opcode::V_CMP_EQ_U32,
    Opcode::V_SUB_F32,
    Opcode::V_RCP_IFLAG_F32,
    Opcode::V_MAX_I32,
    Opcode::V_CMP_NE_U32,
    Opcode::V_CMP_LE_U32,
    Opcode::V_ALIGNBIT_B32,
    Opcode::V_SUB_CO_CI_U32,
    Opcode::V_MAX_F32,
    Opcode::V_LDEXP_F32,
    Opcode::V_CMPX_NE_U32,
    Opcode::V_RCP_F32,
    Opcode::V_MIN_U32,
    Opcode::V_MAD_U32_U24,
    Opcode::V_FREXP_MANT_F32,
    Opcode::V_FREXP_EXP_I32_F32,
    Opcode::V_FMAMK_F32,
    Opcode::V_CVT_I32_F32,
    Opcode::V_CMP_GT_F32,
    Opcode::V_BFE_I32,
    Opcode::V_ASHRREV_I32,
    Opcode::V_ADD_NC_U16,
    Opcode::V_SUBREV_CO_CI_U32,
    Opcode::V_TRUNC_F32,
    Opcode::V_SQRT_F32,
    Opcode::V_RSQ_F32,
    Opcode::V_READFIRSTLANE_B32,
    Opcode::V_NOT_B32,
    Opcode::V_MIN_F32,
    Opcode::V_MAX_U32,
    Opcode::V_MAD_U16,
    Opcode::V_MAD_I32_I24,
    Opcode::V_LSHRREV_B64,
    Opcode::V_LSHL_OR_B32,
    Opcode::V_FLOOR_F32,
    Opcode::V_FFBL_B32,
    Opcode::V_FFBH_U32,
    Opcode::V_CVT_F32_I32,
    Opcode::V_CMPX_LT_I32,
    Opcode::V_CMPX_LE_I64,
    Opcode::V_CMP_NE_U64,
    Opcode::V_CMP_LT_I32,
    Opcode::V_CMP_GT_I32,
    Opcode::V_BFREV_B32,
    Opcode::V_BFE_U32,
    Opcode::V_BCNT_U32_B32,
    Opcode::V_ASHRREV_I64,
    Opcode::V_AND_OR_B32,
];

/// Serialises the tests of this binary: each silences the (global) panic hook
/// while it catches the FP stubs' panics.
static QUIET: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn every_valu_row_executes_or_is_deliberately_unimplemented() {
    let _quiet = QUIET.lock().unwrap_or_else(|e| e.into_inner());
    std::panic::set_hook(Box::new(|_| {}));
    let valu = [
        Family::Vop1,
        Family::Vop2,
        Family::Vopc,
        Family::Vop3,
        Family::Vop3p,
    ];
    let mut counts = [0usize; 3];
    let mut row_counts = [0usize; 3];
    let mut not_implemented = Vec::new();
    let mut failures = Vec::new();
    let mut corpus_missing = Vec::new();
    for target in [Target::GFX1030_W32, Target::GFX1030_W64] {
        for row in tables(Isa::Gfx1030)
            .rows
            .iter()
            .filter(|r| valu.contains(&r.family))
        {
            let mut variants = vec![Variant::Plain];
            let has_src0 = row.operands.iter().any(|o| o.field == Field::Src0);
            if matches!(row.family, Family::Vop1 | Family::Vop2 | Family::Vopc) && has_src0 {
                variants.extend([Variant::Sdwa, Variant::Dpp16, Variant::Dpp8]);
            }
            for variant in variants {
                let inst = build(row, target, variant);
                let outcome = run(&inst);
                let name = format!(
                    "{} {:?} {:?} w64={}",
                    row.opcode.mnemonic(),
                    row.family,
                    variant,
                    target.wave64
                );
                let per_row = variant == Variant::Plain && target.wave64;
                match outcome {
                    Outcome::Executed => {
                        counts[0] += 1;
                        row_counts[0] += usize::from(per_row);
                    }
                    Outcome::RoutedToFp => {
                        counts[1] += 1;
                        row_counts[1] += usize::from(per_row);
                    }
                    Outcome::NotImplemented => {
                        counts[2] += 1;
                        row_counts[2] += usize::from(per_row);
                        if variant == Variant::Plain && target.wave64 {
                            not_implemented.push(format!(
                                "{} ({:?})",
                                row.opcode.mnemonic(),
                                row.family
                            ));
                        }
                        if CORPUS.contains(&row.opcode) && variant == Variant::Plain {
                            corpus_missing.push(name.clone());
                        }
                    }
                    Outcome::Failed(why) => failures.push(format!("{name}: {why}")),
                }
            }
        }
    }
    let _ = std::panic::take_hook();
    println!(
        "VALU table walk (rows x variants x wave sizes): {} executed, {} routed to exec::fp, {} not implemented",
        counts[0], counts[1], counts[2]
    );
    println!(
        "VALU rows (plain encoding): {} executed, {} routed to exec::fp, {} not implemented",
        row_counts[0], row_counts[1], row_counts[2]
    );
    println!(
        "not implemented ({}): {}",
        not_implemented.len(),
        not_implemented.join(", ")
    );
    assert!(
        failures.is_empty(),
        "unexpected outcomes:\n{}",
        failures.join("\n")
    );
    assert!(
        corpus_missing.is_empty(),
        "corpus opcodes not implemented: {corpus_missing:?}"
    );
    // The corpus's SDWA forms.
    for (op, family) in [
        (Opcode::V_XOR_B32, Family::Vop2),
        (Opcode::V_CMP_NE_U32, Family::Vopc),
        (Opcode::V_ADD_NC_U32, Family::Vop2),
    ] {
        let row = tables(Isa::Gfx1030)
            .rows
            .iter()
            .find(|r| r.opcode == op && r.family == family)
            .expect("row");
        for target in [Target::GFX1030_W32, Target::GFX1030_W64] {
            assert_eq!(
                run(&build(row, target, Variant::Sdwa)),
                Outcome::Executed,
                "{op:?} SDWA"
            );
        }
    }
}

/// Every VALU instruction of the prebuilt gfx1030 corpus (wave32 and wave64),
/// decoded from the code objects, executes or routes to `exec::fp`.
#[test]
fn every_corpus_valu_instruction_executes() {
    use arch::code_object::CodeObject;
    use arch::isa::decode_all;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels/prebuilt");
    let mut seen = 0;
    let mut objects = 0;
    let mut failures = Vec::new();
    let _quiet = QUIET.lock().unwrap_or_else(|e| e.into_inner());
    std::panic::set_hook(Box::new(|_| {}));
    for dir in ["gfx1030", "gfx1030-w64"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let bytes = std::fs::read(entry.path()).expect("readable code object");
            let Ok(co) = CodeObject::parse(&bytes) else {
                continue;
            };
            let Some(target) = co.target() else { continue };
            let Ok(insts) = decode_all(target, &co.text().bytes) else {
                continue;
            };
            objects += 1;
            for (_, inst) in insts {
                let valu = [
                    Family::Vop1,
                    Family::Vop2,
                    Family::Vopc,
                    Family::Vop3,
                    Family::Vop3p,
                ];
                if !valu.contains(&inst.family) {
                    continue;
                }
                seen += 1;
                match run_wide(&inst) {
                    Outcome::Executed | Outcome::RoutedToFp => {}
                    other => failures.push(format!("{inst}: {other:?}")),
                }
            }
        }
    }
    let _ = std::panic::take_hook();
    println!("corpus VALU instructions run: {seen} from {objects} code objects");
    assert!(objects > 0 && seen > 0, "no corpus code objects decoded");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// [`run`] with the full 256-VGPR allocation (corpus register numbers).
fn run_wide(inst: &Instruction) -> Outcome {
    let rows = vec![[0x3f80_0001u32; 32]; if inst.target.wave64 { 512 } else { 256 }];
    let mut s = ScalarState::new();
    for (i, r) in s.sgpr.iter_mut().enumerate() {
        *r = (i as u32).wrapping_mul(0x9e37_79b9);
    }
    s.sgpr[124] = 0; // m0: movrel offsets stay in range
    s.sgpr[126] = 0xffff_0f0f;
    s.sgpr[127] = 0x0f0f_ffff;
    match execute_caught(inst, &rows, &s) {
        Ok(Ok(())) => Outcome::Executed,
        Ok(Err(e)) => Outcome::Failed(format!("{e:?}")),
        Err(msg) => panicked(msg),
    }
}
