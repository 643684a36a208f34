//! Every SOP*/SMEM row of the gfx1030 table is either implemented or returns
//! the not-implemented fault on purpose.

use arch::device::FaultKind;
use arch::isa::tables::{tables, Field};
use arch::isa::{Family, Instruction, Isa, Modifiers, Opcode, Operand, Variant, MAX_OPERANDS};

use super::{Bench, WAVES};

/// Rows that fault by design (see the module documentation of `exec::scalar`).
const NOT_IMPLEMENTED: [Opcode; 2] = [Opcode::S_RFE_B64, Opcode::S_SENDMSGHALT];

/// `s_trap` is a fault of its own kind (trap handlers are not modelled).
const TRAPS: [Opcode; 1] = [Opcode::S_TRAP];

/// Builds the instruction a decoder would for `row`, with register operands
/// only (destination `s[0..]`, sources from `s20`/`s24`, bases `s[2..]`).
fn instruction(bench: &Bench, row: &arch::isa::OpInfo) -> Instruction {
    let mut operands = [Operand::Off; MAX_OPERANDS];
    let mut n = 0;
    for spec in row.operands {
        let code = match spec.field {
            Field::Sdst | Field::Sdata => 0,
            Field::Ssrc0 => 20,
            Field::Ssrc1 => 24,
            Field::Sbase => 2,
            Field::Soffset => 125,
            // Immediates are modifiers, not operands.
            _ => continue,
        };
        operands[n] = Operand::Src { code, ty: spec.ty };
        n += 1;
    }
    Instruction {
        target: bench.target(),
        opcode: row.opcode,
        family: row.family,
        variant: Variant::Plain,
        operands,
        operand_count: n as u8,
        modifiers: Modifiers::default(),
        size: if row.family == Family::Smem { 8 } else { 4 },
    }
}

#[test]
fn every_scalar_row_is_implemented_or_deliberately_not() {
    let families = [
        Family::Sop1,
        Family::Sop2,
        Family::Sopk,
        Family::Sopc,
        Family::Sopp,
        Family::Smem,
    ];
    for wave64 in WAVES {
        let mut t = Bench::new(wave64);
        t.mem.map(0x1_0000, 0x1000).expect("map");
        // s[2:3] points at mapped memory; s[2:5] is a V# over it.
        t.s.sgpr[2] = 0x1_0000;
        t.s.sgpr[3] = 0;
        t.s.sgpr[4] = 0x100;
        t.s.sgpr[5] = 0;
        t.s.sgpr[20] = 3;
        t.s.sgpr[24] = 5;
        let mut rows = 0;
        for row in tables(Isa::Gfx1030)
            .rows
            .iter()
            .filter(|r| families.contains(&r.family))
        {
            rows += 1;
            let inst = instruction(&t, row);
            let name = row.opcode.mnemonic();
            match t.exec(&inst) {
                Ok(_) => assert!(
                    !NOT_IMPLEMENTED.contains(&row.opcode) && !TRAPS.contains(&row.opcode),
                    "{name} should fault"
                ),
                Err(FaultKind::IllegalInstruction { reason }) => {
                    let deliberate = if NOT_IMPLEMENTED.contains(&row.opcode) {
                        reason.contains("not implemented in the cycle model")
                    } else {
                        TRAPS.contains(&row.opcode) && reason.contains("trap handlers")
                    };
                    assert!(deliberate, "{name}: {reason}");
                }
                Err(e) => panic!("{name}: {e:?}"),
            }
        }
        // SOP1 65 + SOP2 51 + SOPK 27 + SOPC 18 + SOPP 37 + SMEM 16.
        assert_eq!(rows, 214, "the gfx1030 scalar table changed size");
    }
}
