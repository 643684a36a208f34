//! Every memory-family row of the gfx1030 table runs: it either executes or
//! returns the not-implemented fault, and only the rows listed here may do
//! the latter.

use super::*;
use arch::isa::tables::{tables, Field};
use arch::isa::{Family, Isa, OperandType};

/// Rows deliberately not implemented, with the reason.
const NOT_IMPLEMENTED: &[(&str, &str)] = &[
    ("ds_gws_init", "GDS / global wave sync is not modelled"),
    ("ds_gws_sema_v", "GDS"),
    ("ds_gws_sema_br", "GDS"),
    ("ds_gws_sema_p", "GDS"),
    ("ds_gws_barrier", "GDS"),
    ("ds_gws_sema_release_all", "GDS"),
    ("ds_ordered_count", "GDS"),
];

fn expected_unimplemented(m: &str) -> bool {
    NOT_IMPLEMENTED.iter().any(|(n, _)| *n == m)
}

/// A VGPR range of `ty` starting at `first`.
fn vreg(first: u32, ty: OperandType) -> String {
    let n = u32::from(ty.dwords(Target::GFX1030_W32));
    if n == 1 {
        format!("v{first}")
    } else {
        format!("v[{first}:{}]", first + n - 1)
    }
}

/// Assembly text for one row with legal operands.
fn text_of(family: Family, m: &str, ops: &[(Field, OperandType)]) -> String {
    let mut parts = Vec::new();
    for &(field, ty) in ops {
        parts.push(match (family, field) {
            (_, Field::Vdst) => vreg(10, ty),
            (Family::Ds, Field::Vaddr) => "v1".into(),
            (_, Field::Data0) => vreg(20, ty),
            (_, Field::Data1) => vreg(24, ty),
            (Family::Mubuf | Family::Mtbuf, Field::Vdata) => vreg(20, ty),
            (Family::Mubuf | Family::Mtbuf, Field::Vaddr) => "v1".into(),
            (_, Field::Vdata) => vreg(20, ty),
            (Family::Scratch, Field::Vaddr) => "v1".into(),
            (_, Field::Vaddr) => "v[2:3]".into(),
            (Family::Global, Field::Saddr) if m.contains("addtid") => "s[12:13]".into(),
            (_, Field::Saddr) => "off".into(),
            (_, Field::Srsrc) => "s[8:11]".into(),
            (_, Field::Soffset) => "0".into(),
            _ => "?".into(),
        });
    }
    let mut t = format!("{m} {}", parts.join(", "));
    if matches!(family, Family::Mubuf | Family::Mtbuf) && !ops.is_empty() {
        if family == Family::Mtbuf {
            t.push_str(" format:[BUF_FMT_32_FLOAT]");
        }
        t.push_str(" offen");
    }
    if m.starts_with("ds_gws") || m == "ds_ordered_count" {
        t.push_str(" gds");
    }
    t
}

#[test]
fn every_memory_row_is_implemented_or_deliberately_not() {
    let families = [
        Family::Ds,
        Family::Flat,
        Family::Global,
        Family::Scratch,
        Family::Mubuf,
        Family::Mtbuf,
    ];
    for wave64 in WAVES {
        let mut report = Vec::new();
        let mut failures = Vec::new();
        for family in families {
            let (mut done, mut not) = (0, 0);
            for row in tables(Isa::Gfx1030)
                .rows
                .iter()
                .filter(|r| r.family == family)
            {
                let m = row.opcode.mnemonic();
                let ops: Vec<_> = row.operands.iter().map(|o| (o.field, o.ty)).collect();
                let text = text_of(family, m, &ops);
                let mut r = Rig::new(wave64);
                // Addresses: VGPR offsets 0x10, 64-bit address MEM + 0x100,
                // a raw V# over MEM, LDS offset 0x10, saddr MEM.
                r.set_v(1, |_| 0x10);
                r.set_v(2, |_| (MEM + 0x100) as u32);
                r.set_v(3, |_| 0);
                r.s.sgpr[8] = MEM as u32;
                r.s.sgpr[10] = 0x1000;
                r.s.sgpr[11] = 3 << 28 | 22 << 12; // raw, 32_FLOAT
                r.s.sgpr[12] = MEM as u32;
                let result = r.run(&text);
                let unimpl = matches!(&result, Err(FaultKind::IllegalInstruction { reason })
                    if reason.contains("not implemented"));
                match (&result, expected_unimplemented(m)) {
                    (Ok(_), false) => done += 1,
                    (Err(_), true) if unimpl => not += 1,
                    _ => failures.push(format!("{text}: {result:?}")),
                }
            }
            report.push(format!(
                "{family}: {done} implemented, {not} not implemented"
            ));
        }
        // Returning atomics (glc) of every FLAT/GLOBAL/MUBUF atomic row.
        let mut glc = 0;
        for row in tables(Isa::Gfx1030).rows.iter() {
            let m = row.opcode.mnemonic();
            if !m.contains("_atomic_") {
                continue;
            }
            let ops: Vec<_> = row.operands.iter().map(|o| (o.field, o.ty)).collect();
            let mut text = text_of(row.family, m, &ops);
            if row.family != Family::Mubuf {
                // FLAT/GLOBAL print the returned value first.
                let cmp = m.contains("cmpswap");
                let ty = ops.iter().find(|o| o.0 == Field::Vdata).map(|o| o.1);
                let dw = ty.map_or(1, |t| t.dwords(Target::GFX1030_W32)) / if cmp { 2 } else { 1 };
                let dst = if dw == 1 {
                    "v10".to_string()
                } else {
                    "v[10:11]".to_string()
                };
                text = text.replacen(' ', &format!(" {dst}, "), 1);
            }
            text.push_str(" glc");
            let mut r = Rig::new(wave64);
            r.set_v(1, |_| 0x10);
            r.set_v(2, |_| (MEM + 0x100) as u32);
            r.set_v(3, |_| 0);
            r.s.sgpr[8] = MEM as u32;
            r.s.sgpr[10] = 0x1000;
            r.s.sgpr[11] = 3 << 28 | 22 << 12; // raw, 32_FLOAT
            match r.run(&text) {
                Ok(out) if !out.vgpr.is_empty() => glc += 1,
                other => failures.push(format!("{text}: {other:?}")),
            }
        }
        report.push(format!("returning atomics: {glc}"));
        println!("wave64={wave64}: {}", report.join("; "));
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
