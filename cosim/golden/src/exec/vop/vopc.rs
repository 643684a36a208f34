//! VOPC semantics: vector compares and `v_cmp_class`, in their `_e32`, SDWA,
//! DPP and `_e64` forms.
//!
//! A compare writes one bit per lane (inactive lanes 0) to VCC (`_e32`), to
//! its `sdst` (`_e64`, gfx1030 SDWA). `v_cmpx_*` also writes EXEC; on gfx803
//! it writes both VCC/`sdst` and EXEC, on gfx1030 only EXEC (its `_e64` form
//! has no `sdst`). Float compares read denormals per MODE, treat ±0 as equal,
//! and are unordered with NaN.

use std::cmp::Ordering;
use std::sync::OnceLock;

use arch::device::Fault;
use arch::isa::tables::Field;
use arch::isa::{Instruction, Opcode};

use super::{each_lane, narrow, Valu};
use crate::exec::{not_implemented, Flow, WaveCtx};
use crate::fp::{self, Format, F16, F32, F64};

/// Executes one VOPC instruction.
pub fn execute(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    let mut v = Valu::new(ctx.wave, inst)?;
    if compare(&mut v)? {
        Ok(Flow::Next)
    } else {
        Err(not_implemented(inst))
    }
}

/// The operand type of a compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    Float(Format),
}

/// One compare opcode, decoded from its (generated) mnemonic once.
#[derive(Clone, Copy, Debug)]
struct Cmp {
    /// The predicate as a truth table over {less, equal, greater, unordered}
    /// (bits 0..3); `class` compares use `None`.
    table: Option<u8>,
    ty: Ty,
    /// `v_cmpx`: also writes EXEC.
    exec: bool,
}

/// Predicate truth tables, by the mnemonic's predicate name.
fn predicate(name: &str) -> Option<u8> {
    const LT: u8 = 1;
    const EQ: u8 = 2;
    const GT: u8 = 4;
    const UN: u8 = 8;
    Some(match name {
        "f" => 0,
        "lt" => LT,
        "eq" => EQ,
        "le" => LT | EQ,
        "gt" => GT,
        "lg" | "ne" => LT | GT,
        "ge" => GT | EQ,
        "o" => LT | EQ | GT,
        "u" => UN,
        "nge" => LT | UN,
        "nlg" => EQ | UN,
        "ngt" => LT | EQ | UN,
        "nle" => GT | UN,
        "neq" => LT | GT | UN,
        "nlt" => GT | EQ | UN,
        "tru" | "t" => LT | EQ | GT | UN,
        _ => return None,
    })
}

/// Parses `v_cmp[x]_<pred>_<type>`.
fn parse(mnemonic: &str) -> Option<Cmp> {
    let (exec, rest) = if let Some(r) = mnemonic.strip_prefix("v_cmpx_") {
        (true, r)
    } else {
        (false, mnemonic.strip_prefix("v_cmp_")?)
    };
    let (pred, ty) = rest.rsplit_once('_')?;
    let ty = match ty {
        "i16" => Ty::I16,
        "u16" => Ty::U16,
        "i32" => Ty::I32,
        "u32" => Ty::U32,
        "i64" => Ty::I64,
        "u64" => Ty::U64,
        "f16" => Ty::Float(F16),
        "f32" => Ty::Float(F32),
        "f64" => Ty::Float(F64),
        _ => return None,
    };
    let table = if pred == "class" {
        None
    } else {
        Some(predicate(pred)?)
    };
    Some(Cmp { table, ty, exec })
}

/// Compare facts for every opcode, built once from the generated mnemonics
/// (so no per-opcode list is written by hand).
fn table() -> &'static [Option<Cmp>] {
    static TABLE: OnceLock<Vec<Option<Cmp>>> = OnceLock::new();
    TABLE.get_or_init(|| Opcode::ALL.iter().map(|o| parse(o.mnemonic())).collect())
}

/// The element type of a 32-bit compare, for the fast paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty32 {
    /// `u32`.
    U32,
    /// `i32`.
    I32,
    /// `f32` (through [`fp::compare`] with the MODE).
    F32,
}

/// For the fast paths: a 32-bit compare's truth table (bits: less, equal,
/// greater, unordered), element type and whether it writes EXEC (`v_cmpx`),
/// from the same parsed mnemonics as `compare`; `None` for `class`,
/// 16- and 64-bit compares.
pub fn compare32(op: Opcode) -> Option<(u8, Ty32, bool)> {
    let c = (*table().get(op as usize)?)?;
    let ty = match c.ty {
        Ty::U32 => Ty32::U32,
        Ty::I32 => Ty32::I32,
        Ty::Float(f) if f == F32 => Ty32::F32,
        _ => return None,
    };
    Some((c.table?, ty, c.exec))
}

/// The bit of `ord` in a predicate truth table.
#[inline]
pub fn holds(table: u8, ord: Option<Ordering>) -> bool {
    let bit = match ord {
        Some(Ordering::Less) => 1,
        Some(Ordering::Equal) => 2,
        Some(Ordering::Greater) => 4,
        None => 8,
    };
    table & bit != 0
}

/// The compare mask over the lanes of `exec`, monomorphised per type.
#[inline]
fn lanes(
    exec: u64,
    a: &[u64; 64],
    b: &[u64; 64],
    table: u8,
    ord: impl Fn(u64, u64) -> Option<Ordering>,
) -> u64 {
    let mut mask = 0;
    each_lane(exec, |l| {
        mask |= u64::from(holds(table, ord(a[l], b[l]))) << l
    });
    mask
}

/// Runs `v`'s opcode if it is a compare; `Ok(false)` otherwise.
pub(super) fn compare(v: &mut Valu<'_>) -> Result<bool, Fault> {
    let Some(Some(c)) = table().get(v.inst.opcode as usize).copied() else {
        return Ok(false);
    };
    let wide = matches!(c.ty, Ty::I64 | Ty::U64 | Ty::Float(F64));
    let (a, b) = if wide {
        (v.src64(0)?, v.src64(1)?)
    } else {
        let (a, b) = (v.src(0)?, v.src(1)?);
        (a.map(u64::from), b.map(u64::from))
    };
    let mut mask = 0u64;
    match c.table {
        None => {
            let Ty::Float(fmt) = c.ty else {
                return Ok(false);
            };
            each_lane(v.exec, |l| {
                let x = if wide { a[l] } else { narrow(fmt, a[l] as u32) };
                mask |= u64::from(fp::class(fmt, x, b[l] as u32)) << l;
            });
        }
        Some(t) => {
            let e = v.exec;
            mask = match c.ty {
                Ty::I16 => lanes(e, &a, &b, t, |x, y| Some((x as i16).cmp(&(y as i16)))),
                Ty::U16 => lanes(e, &a, &b, t, |x, y| Some((x as u16).cmp(&(y as u16)))),
                Ty::I32 => lanes(e, &a, &b, t, |x, y| Some((x as i32).cmp(&(y as i32)))),
                Ty::U32 => lanes(e, &a, &b, t, |x, y| Some((x as u32).cmp(&(y as u32)))),
                Ty::I64 => lanes(e, &a, &b, t, |x, y| Some((x as i64).cmp(&(y as i64)))),
                Ty::U64 => lanes(e, &a, &b, t, |x, y| Some(x.cmp(&y))),
                Ty::Float(fmt) => {
                    let m = v.fp(fmt);
                    lanes(e, &a, &b, t, |x, y| {
                        let (x, y) = if wide {
                            (x, y)
                        } else {
                            (narrow(fmt, x as u32), narrow(fmt, y as u32))
                        };
                        fp::compare(fmt, x, y, m)
                    })
                }
            };
        }
    }
    mask &= v.exec;
    if v.has(Field::Sdst) || v.has(Field::Vcc) {
        v.write_mask_out(mask)?;
    }
    if c.exec {
        v.w.set_exec(mask);
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mnemonics_parse_into_predicates() {
        let c = parse("v_cmpx_nlt_f16").unwrap();
        assert!(c.exec);
        assert_eq!(c.ty, Ty::Float(F16));
        assert_eq!(c.table, Some(2 | 4 | 8));
        let c = parse("v_cmp_class_f64").unwrap();
        assert_eq!(c.table, None);
        assert_eq!(parse("v_cmp_ne_u64").unwrap().table, Some(5));
        assert!(parse("v_add_f32").is_none());
        // Every VOPC row of both ISAs is understood.
        for isa in [arch::isa::Isa::Gfx803, arch::isa::Isa::Gfx1030] {
            for row in arch::isa::tables::tables(isa).rows {
                if row.family == arch::isa::Family::Vopc {
                    assert!(parse(row.opcode.mnemonic()).is_some(), "{:?}", row.opcode);
                }
            }
        }
    }
}
