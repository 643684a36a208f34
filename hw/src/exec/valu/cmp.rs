//! VOPC (and its VOP3 and SDWA/DPP forms): integer, float and class compares.
//! A compare writes one bit per lane, zero for inactive lanes, to VCC (e32),
//! an SGPR range (VOP3 `sdst`, SDWA `sdst`), or EXEC (`v_cmpx`).

use arch::device::FaultKind;
use arch::isa::Opcode;

use super::super::fp::{self, Order};
use super::super::{code, Writes};
use super::{Cx, Ty};

/// Predicate or class test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum K {
    /// Ordered predicate: `mask` bit 0 less, 1 equal, 2 greater, 3 unordered.
    Pred,
    /// `v_cmp_class_*`.
    Class,
}

/// The operand type of a compare.
#[allow(clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum T {
    F16,
    F32,
    F64,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
}

/// One compare opcode's meaning.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cmp {
    pub kind: K,
    pub ty: T,
    /// Which outcomes are true (bit 0 less, 1 equal, 2 greater, 3 unordered).
    pub mask: u8,
    /// `v_cmpx`: writes EXEC.
    pub x: bool,
}

/// The compare an opcode performs, if it is one.
pub(crate) fn classify(op: Opcode) -> Option<Cmp> {
    use Opcode::*;
    let (kind, ty, mask, x) = match op {
        V_CMP_F_F32 => (K::Pred, T::F32, 0, false),
        V_CMP_LT_F32 => (K::Pred, T::F32, 1, false),
        V_CMP_EQ_F32 => (K::Pred, T::F32, 2, false),
        V_CMP_LE_F32 => (K::Pred, T::F32, 3, false),
        V_CMP_GT_F32 => (K::Pred, T::F32, 4, false),
        V_CMP_LG_F32 => (K::Pred, T::F32, 5, false),
        V_CMP_GE_F32 => (K::Pred, T::F32, 6, false),
        V_CMP_O_F32 => (K::Pred, T::F32, 7, false),
        V_CMP_U_F32 => (K::Pred, T::F32, 8, false),
        V_CMP_NGE_F32 => (K::Pred, T::F32, 9, false),
        V_CMP_NLG_F32 => (K::Pred, T::F32, 10, false),
        V_CMP_NGT_F32 => (K::Pred, T::F32, 11, false),
        V_CMP_NLE_F32 => (K::Pred, T::F32, 12, false),
        V_CMP_NEQ_F32 => (K::Pred, T::F32, 13, false),
        V_CMP_NLT_F32 => (K::Pred, T::F32, 14, false),
        V_CMP_TRU_F32 => (K::Pred, T::F32, 15, false),
        V_CMPX_F_F32 => (K::Pred, T::F32, 0, true),
        V_CMPX_LT_F32 => (K::Pred, T::F32, 1, true),
        V_CMPX_EQ_F32 => (K::Pred, T::F32, 2, true),
        V_CMPX_LE_F32 => (K::Pred, T::F32, 3, true),
        V_CMPX_GT_F32 => (K::Pred, T::F32, 4, true),
        V_CMPX_LG_F32 => (K::Pred, T::F32, 5, true),
        V_CMPX_GE_F32 => (K::Pred, T::F32, 6, true),
        V_CMPX_O_F32 => (K::Pred, T::F32, 7, true),
        V_CMPX_U_F32 => (K::Pred, T::F32, 8, true),
        V_CMPX_NGE_F32 => (K::Pred, T::F32, 9, true),
        V_CMPX_NLG_F32 => (K::Pred, T::F32, 10, true),
        V_CMPX_NGT_F32 => (K::Pred, T::F32, 11, true),
        V_CMPX_NLE_F32 => (K::Pred, T::F32, 12, true),
        V_CMPX_NEQ_F32 => (K::Pred, T::F32, 13, true),
        V_CMPX_NLT_F32 => (K::Pred, T::F32, 14, true),
        V_CMPX_TRU_F32 => (K::Pred, T::F32, 15, true),
        V_CMP_F_F64 => (K::Pred, T::F64, 0, false),
        V_CMP_LT_F64 => (K::Pred, T::F64, 1, false),
        V_CMP_EQ_F64 => (K::Pred, T::F64, 2, false),
        V_CMP_LE_F64 => (K::Pred, T::F64, 3, false),
        V_CMP_GT_F64 => (K::Pred, T::F64, 4, false),
        V_CMP_LG_F64 => (K::Pred, T::F64, 5, false),
        V_CMP_GE_F64 => (K::Pred, T::F64, 6, false),
        V_CMP_O_F64 => (K::Pred, T::F64, 7, false),
        V_CMP_U_F64 => (K::Pred, T::F64, 8, false),
        V_CMP_NGE_F64 => (K::Pred, T::F64, 9, false),
        V_CMP_NLG_F64 => (K::Pred, T::F64, 10, false),
        V_CMP_NGT_F64 => (K::Pred, T::F64, 11, false),
        V_CMP_NLE_F64 => (K::Pred, T::F64, 12, false),
        V_CMP_NEQ_F64 => (K::Pred, T::F64, 13, false),
        V_CMP_NLT_F64 => (K::Pred, T::F64, 14, false),
        V_CMP_TRU_F64 => (K::Pred, T::F64, 15, false),
        V_CMPX_F_F64 => (K::Pred, T::F64, 0, true),
        V_CMPX_LT_F64 => (K::Pred, T::F64, 1, true),
        V_CMPX_EQ_F64 => (K::Pred, T::F64, 2, true),
        V_CMPX_LE_F64 => (K::Pred, T::F64, 3, true),
        V_CMPX_GT_F64 => (K::Pred, T::F64, 4, true),
        V_CMPX_LG_F64 => (K::Pred, T::F64, 5, true),
        V_CMPX_GE_F64 => (K::Pred, T::F64, 6, true),
        V_CMPX_O_F64 => (K::Pred, T::F64, 7, true),
        V_CMPX_U_F64 => (K::Pred, T::F64, 8, true),
        V_CMPX_NGE_F64 => (K::Pred, T::F64, 9, true),
        V_CMPX_NLG_F64 => (K::Pred, T::F64, 10, true),
        V_CMPX_NGT_F64 => (K::Pred, T::F64, 11, true),
        V_CMPX_NLE_F64 => (K::Pred, T::F64, 12, true),
        V_CMPX_NEQ_F64 => (K::Pred, T::F64, 13, true),
        V_CMPX_NLT_F64 => (K::Pred, T::F64, 14, true),
        V_CMPX_TRU_F64 => (K::Pred, T::F64, 15, true),
        V_CMP_F_I32 => (K::Pred, T::I32, 0, false),
        V_CMP_LT_I32 => (K::Pred, T::I32, 1, false),
        V_CMP_EQ_I32 => (K::Pred, T::I32, 2, false),
        V_CMP_LE_I32 => (K::Pred, T::I32, 3, false),
        V_CMP_GT_I32 => (K::Pred, T::I32, 4, false),
        V_CMP_NE_I32 => (K::Pred, T::I32, 5, false),
        V_CMP_GE_I32 => (K::Pred, T::I32, 6, false),
        V_CMP_T_I32 => (K::Pred, T::I32, 7, false),
        V_CMP_CLASS_F32 => (K::Class, T::F32, 0, false),
        V_CMP_LT_I16 => (K::Pred, T::I16, 1, false),
        V_CMP_EQ_I16 => (K::Pred, T::I16, 2, false),
        V_CMP_LE_I16 => (K::Pred, T::I16, 3, false),
        V_CMP_GT_I16 => (K::Pred, T::I16, 4, false),
        V_CMP_NE_I16 => (K::Pred, T::I16, 5, false),
        V_CMP_GE_I16 => (K::Pred, T::I16, 6, false),
        V_CMP_CLASS_F16 => (K::Class, T::F16, 0, false),
        V_CMPX_F_I32 => (K::Pred, T::I32, 0, true),
        V_CMPX_LT_I32 => (K::Pred, T::I32, 1, true),
        V_CMPX_EQ_I32 => (K::Pred, T::I32, 2, true),
        V_CMPX_LE_I32 => (K::Pred, T::I32, 3, true),
        V_CMPX_GT_I32 => (K::Pred, T::I32, 4, true),
        V_CMPX_NE_I32 => (K::Pred, T::I32, 5, true),
        V_CMPX_GE_I32 => (K::Pred, T::I32, 6, true),
        V_CMPX_T_I32 => (K::Pred, T::I32, 7, true),
        V_CMPX_CLASS_F32 => (K::Class, T::F32, 0, true),
        V_CMPX_LT_I16 => (K::Pred, T::I16, 1, true),
        V_CMPX_EQ_I16 => (K::Pred, T::I16, 2, true),
        V_CMPX_LE_I16 => (K::Pred, T::I16, 3, true),
        V_CMPX_GT_I16 => (K::Pred, T::I16, 4, true),
        V_CMPX_NE_I16 => (K::Pred, T::I16, 5, true),
        V_CMPX_GE_I16 => (K::Pred, T::I16, 6, true),
        V_CMPX_CLASS_F16 => (K::Class, T::F16, 0, true),
        V_CMP_F_I64 => (K::Pred, T::I64, 0, false),
        V_CMP_LT_I64 => (K::Pred, T::I64, 1, false),
        V_CMP_EQ_I64 => (K::Pred, T::I64, 2, false),
        V_CMP_LE_I64 => (K::Pred, T::I64, 3, false),
        V_CMP_GT_I64 => (K::Pred, T::I64, 4, false),
        V_CMP_NE_I64 => (K::Pred, T::I64, 5, false),
        V_CMP_GE_I64 => (K::Pred, T::I64, 6, false),
        V_CMP_T_I64 => (K::Pred, T::I64, 7, false),
        V_CMP_CLASS_F64 => (K::Class, T::F64, 0, false),
        V_CMP_LT_U16 => (K::Pred, T::U16, 1, false),
        V_CMP_EQ_U16 => (K::Pred, T::U16, 2, false),
        V_CMP_LE_U16 => (K::Pred, T::U16, 3, false),
        V_CMP_GT_U16 => (K::Pred, T::U16, 4, false),
        V_CMP_NE_U16 => (K::Pred, T::U16, 5, false),
        V_CMP_GE_U16 => (K::Pred, T::U16, 6, false),
        V_CMPX_F_I64 => (K::Pred, T::I64, 0, true),
        V_CMPX_LT_I64 => (K::Pred, T::I64, 1, true),
        V_CMPX_EQ_I64 => (K::Pred, T::I64, 2, true),
        V_CMPX_LE_I64 => (K::Pred, T::I64, 3, true),
        V_CMPX_GT_I64 => (K::Pred, T::I64, 4, true),
        V_CMPX_NE_I64 => (K::Pred, T::I64, 5, true),
        V_CMPX_GE_I64 => (K::Pred, T::I64, 6, true),
        V_CMPX_T_I64 => (K::Pred, T::I64, 7, true),
        V_CMPX_CLASS_F64 => (K::Class, T::F64, 0, true),
        V_CMPX_LT_U16 => (K::Pred, T::U16, 1, true),
        V_CMPX_EQ_U16 => (K::Pred, T::U16, 2, true),
        V_CMPX_LE_U16 => (K::Pred, T::U16, 3, true),
        V_CMPX_GT_U16 => (K::Pred, T::U16, 4, true),
        V_CMPX_NE_U16 => (K::Pred, T::U16, 5, true),
        V_CMPX_GE_U16 => (K::Pred, T::U16, 6, true),
        V_CMP_F_U32 => (K::Pred, T::U32, 0, false),
        V_CMP_LT_U32 => (K::Pred, T::U32, 1, false),
        V_CMP_EQ_U32 => (K::Pred, T::U32, 2, false),
        V_CMP_LE_U32 => (K::Pred, T::U32, 3, false),
        V_CMP_GT_U32 => (K::Pred, T::U32, 4, false),
        V_CMP_NE_U32 => (K::Pred, T::U32, 5, false),
        V_CMP_GE_U32 => (K::Pred, T::U32, 6, false),
        V_CMP_T_U32 => (K::Pred, T::U32, 7, false),
        V_CMP_F_F16 => (K::Pred, T::F16, 0, false),
        V_CMP_LT_F16 => (K::Pred, T::F16, 1, false),
        V_CMP_EQ_F16 => (K::Pred, T::F16, 2, false),
        V_CMP_LE_F16 => (K::Pred, T::F16, 3, false),
        V_CMP_GT_F16 => (K::Pred, T::F16, 4, false),
        V_CMP_LG_F16 => (K::Pred, T::F16, 5, false),
        V_CMP_GE_F16 => (K::Pred, T::F16, 6, false),
        V_CMP_O_F16 => (K::Pred, T::F16, 7, false),
        V_CMPX_F_U32 => (K::Pred, T::U32, 0, true),
        V_CMPX_LT_U32 => (K::Pred, T::U32, 1, true),
        V_CMPX_EQ_U32 => (K::Pred, T::U32, 2, true),
        V_CMPX_LE_U32 => (K::Pred, T::U32, 3, true),
        V_CMPX_GT_U32 => (K::Pred, T::U32, 4, true),
        V_CMPX_NE_U32 => (K::Pred, T::U32, 5, true),
        V_CMPX_GE_U32 => (K::Pred, T::U32, 6, true),
        V_CMPX_T_U32 => (K::Pred, T::U32, 7, true),
        V_CMPX_F_F16 => (K::Pred, T::F16, 0, true),
        V_CMPX_LT_F16 => (K::Pred, T::F16, 1, true),
        V_CMPX_EQ_F16 => (K::Pred, T::F16, 2, true),
        V_CMPX_LE_F16 => (K::Pred, T::F16, 3, true),
        V_CMPX_GT_F16 => (K::Pred, T::F16, 4, true),
        V_CMPX_LG_F16 => (K::Pred, T::F16, 5, true),
        V_CMPX_GE_F16 => (K::Pred, T::F16, 6, true),
        V_CMPX_O_F16 => (K::Pred, T::F16, 7, true),
        V_CMP_F_U64 => (K::Pred, T::U64, 0, false),
        V_CMP_LT_U64 => (K::Pred, T::U64, 1, false),
        V_CMP_EQ_U64 => (K::Pred, T::U64, 2, false),
        V_CMP_LE_U64 => (K::Pred, T::U64, 3, false),
        V_CMP_GT_U64 => (K::Pred, T::U64, 4, false),
        V_CMP_NE_U64 => (K::Pred, T::U64, 5, false),
        V_CMP_GE_U64 => (K::Pred, T::U64, 6, false),
        V_CMP_T_U64 => (K::Pred, T::U64, 7, false),
        V_CMP_U_F16 => (K::Pred, T::F16, 8, false),
        V_CMP_NGE_F16 => (K::Pred, T::F16, 9, false),
        V_CMP_NLG_F16 => (K::Pred, T::F16, 10, false),
        V_CMP_NGT_F16 => (K::Pred, T::F16, 11, false),
        V_CMP_NLE_F16 => (K::Pred, T::F16, 12, false),
        V_CMP_NEQ_F16 => (K::Pred, T::F16, 13, false),
        V_CMP_NLT_F16 => (K::Pred, T::F16, 14, false),
        V_CMP_TRU_F16 => (K::Pred, T::F16, 15, false),
        V_CMPX_F_U64 => (K::Pred, T::U64, 0, true),
        V_CMPX_LT_U64 => (K::Pred, T::U64, 1, true),
        V_CMPX_EQ_U64 => (K::Pred, T::U64, 2, true),
        V_CMPX_LE_U64 => (K::Pred, T::U64, 3, true),
        V_CMPX_GT_U64 => (K::Pred, T::U64, 4, true),
        V_CMPX_NE_U64 => (K::Pred, T::U64, 5, true),
        V_CMPX_GE_U64 => (K::Pred, T::U64, 6, true),
        V_CMPX_T_U64 => (K::Pred, T::U64, 7, true),
        V_CMPX_U_F16 => (K::Pred, T::F16, 8, true),
        V_CMPX_NGE_F16 => (K::Pred, T::F16, 9, true),
        V_CMPX_NLG_F16 => (K::Pred, T::F16, 10, true),
        V_CMPX_NGT_F16 => (K::Pred, T::F16, 11, true),
        V_CMPX_NLE_F16 => (K::Pred, T::F16, 12, true),
        V_CMPX_NEQ_F16 => (K::Pred, T::F16, 13, true),
        V_CMPX_NLT_F16 => (K::Pred, T::F16, 14, true),
        V_CMPX_TRU_F16 => (K::Pred, T::F16, 15, true),
        _ => return None,
    };
    Some(Cmp { kind, ty, mask, x })
}

fn order<T: Ord>(a: T, b: T) -> Order {
    match a.cmp(&b) {
        std::cmp::Ordering::Less => Order::Less,
        std::cmp::Ordering::Equal => Order::Equal,
        std::cmp::Ordering::Greater => Order::Greater,
    }
}

fn holds(mask: u8, o: Order) -> bool {
    let bit = match o {
        Order::Less => 0,
        Order::Equal => 1,
        Order::Greater => 2,
        Order::Unordered => 3,
    };
    mask >> bit & 1 != 0
}

/// Executes a compare.
pub(crate) fn execute(cx: &mut Cx<'_>, c: Cmp, out: &mut Writes) -> Result<(), FaultKind> {
    let src_ty = match c.ty {
        T::F16 => Ty::F16,
        T::F32 => Ty::F32,
        T::F64 => Ty::F64,
        T::I16 | T::U16 => Ty::B16,
        T::I32 | T::U32 => Ty::B32,
        T::I64 | T::U64 => Ty::B64,
    };
    let a = cx.src(0, src_ty)?;
    let b = cx.src(1, if c.kind == K::Class { Ty::B32 } else { src_ty })?;
    let m = cx.mode;
    let mut result = 0u64;
    let active = cx.write_mask;
    for lane in 0..cx.lanes {
        if active >> lane & 1 == 0 {
            continue;
        }
        let (x, y) = (a[lane], b[lane]);
        let bit = match c.kind {
            K::Class => match c.ty {
                T::F16 => fp::class_f16(x as u16, y as u32),
                T::F64 => fp::class_f64(x, y as u32),
                _ => fp::class_f32(x as u32, y as u32),
            },
            K::Pred => {
                // Always-false and always-true predicates need no operands.
                if c.mask == 0 || c.mask == 15 || c.mask == 7 && !is_float(c.ty) {
                    c.mask != 0
                } else {
                    let o = match c.ty {
                        T::F16 => fp::compare_f16(x as u16, y as u16, &m),
                        T::F32 => fp::compare_f32(x as u32, y as u32, &m),
                        T::F64 => fp::compare_f64(x, y, &m),
                        T::I16 => order(x as u16 as i16, y as u16 as i16),
                        T::U16 => order(x as u16, y as u16),
                        T::I32 => order(x as u32 as i32, y as u32 as i32),
                        T::U32 => order(x as u32, y as u32),
                        T::I64 => order(x as i64, y as i64),
                        T::U64 => order(x, y),
                    };
                    holds(c.mask, o)
                }
            }
        };
        result |= u64::from(bit) << lane;
    }
    // v_cmpx writes EXEC; v_cmp its printed destination: vcc (e32), the
    // SDWA sdst, or the VOP3 sdst.
    let dst = if c.x { code::EXEC_LO } else { cx.sdst_code(0)? };
    cx.write_mask_sgpr(out, dst, result);
    Ok(())
}

fn is_float(t: T) -> bool {
    matches!(t, T::F16 | T::F32 | T::F64)
}
