//! Which gfx803 table rows have a gfx1030 translation by table (same
//! operation and operands, possibly renamed or promoted to VOP3) or by an
//! emulation sequence; prints the count and the rows without one
//! (`cargo run -p sw --example xlate_coverage`). Operand-dependent refusals
//! (`s_getreg`/`s_setreg` outside MODE[9:0], DPP wave shifts, `flat_scratch`
//! reads, ...) are decided per instruction and not counted here.

use arch::isa::tables::tables;
use arch::isa::{Family, Isa};
use sw::xlate::expand::alu::{is_cmpx, rename};
use sw::xlate::forms::{has_other_shape, is_unfused_mad};
use sw::xlate::tables::row;
use sw::xlate::tables::{cmp_of_cmpx, flags, D16};

fn main() {
    let mut by_table = 0;
    let mut emulated = 0;
    let mut missing = Vec::new();
    let rows = tables(Isa::Gfx803).rows;
    for r in rows {
        let op = rename(r.opcode);
        let same = row(Isa::Gfx1030, r.family, op).is_some_and(|n| {
            n.operands.len() == r.operands.len()
                && n.operands
                    .iter()
                    .zip(r.operands)
                    .all(|(a, b)| a.ty == b.ty && a.field == b.field)
        });
        let promoted = matches!(r.family, Family::Vop1 | Family::Vop2 | Family::Vopc)
            && row(Isa::Gfx1030, Family::Vop3, op).is_some_and(|n| {
                n.operands.len() == r.operands.len()
                    && n.operands.iter().zip(r.operands).all(|(a, b)| a.ty == b.ty)
            });
        if flags(r.opcode) & D16 != 0 {
            missing.push(format!(
                "{} ({}): refused, d16 layout differs",
                r.opcode.mnemonic(),
                r.family
            ));
        } else if is_cmpx(r.opcode) {
            match cmp_of_cmpx(r.opcode).and_then(|c| row(Isa::Gfx1030, r.family, c)) {
                Some(_) => emulated += 1,
                None => missing.push(format!("{} ({})", r.opcode.mnemonic(), r.family)),
            }
        } else if is_unfused_mad(r.opcode) || has_other_shape(r.opcode) {
            emulated += 1;
        } else if same || promoted {
            by_table += 1;
        } else {
            missing.push(format!("{} ({})", r.opcode.mnemonic(), r.family));
        }
    }
    println!(
        "{} gfx803 rows: {by_table} re-encoded, {emulated} emulated, {} without a translation",
        rows.len(),
        missing.len()
    );
    for m in missing {
        println!("  {m}");
    }
}
