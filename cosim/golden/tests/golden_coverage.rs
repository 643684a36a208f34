//! Golden model: opcode coverage of the scalar and memory families (SOP1,
//! SOP2, SOPK, SOPC, SOPP, SMEM, DS, FLAT/GLOBAL/SCRATCH, MUBUF/MTBUF) of
//! both ISAs. Every table row is assembled with legal operands and executed
//! once in a small wave with mapped memory; the counts and the lists of what
//! is not implemented are printed (`--nocapture`), and the lists must match
//! the documented ones in `docs/golden-coverage.md` (below, `EXPECTED_*`).
//! The VOP families have their own test in `golden_valu_coverage.rs`.

use arch::isa::tables::{tables, Field, OpInfo};
use arch::isa::{Family, Isa, Target};
use golden::testing::probe::{Probe, MEM};

/// Rows that legitimately fault as not implemented (`docs/golden-coverage.md`
/// says why), per ISA.
const EXPECTED_GFX803: &[&str] = &[
    // Trap return, GCN3 fork/join, VSKIP, halting.
    "s_rfe_b64",
    "s_rfe_restore_b64",
    "s_cbranch_join",
    "s_cbranch_g_fork",
    "s_cbranch_i_fork",
    "s_setvskip",
    "s_sendmsghalt",
    // GDS / GWS.
    "ds_gws_init",
    "ds_gws_sema_v",
    "ds_gws_sema_br",
    "ds_gws_sema_p",
    "ds_gws_barrier",
    "ds_gws_sema_release_all",
    "ds_ordered_count",
    // LDS DMA.
    "buffer_store_lds_dword",
];
const EXPECTED_GFX1030: &[&str] = &[
    "s_rfe_b64",
    "s_sendmsghalt",
    "ds_gws_init",
    "ds_gws_sema_v",
    "ds_gws_sema_br",
    "ds_gws_sema_p",
    "ds_gws_barrier",
    "ds_gws_sema_release_all",
    "ds_ordered_count",
];

/// Rows whose execution faults by design with another fault (both ISAs).
const EXPECTED_FAULTS: &[&str] = &[
    // A trap with no trap handler: "trap handlers are not modelled".
    "s_trap",
];

/// Register text for `dwords` registers of kind `p` (`s` or `v`) from `base`.
fn regs(p: char, base: u32, dwords: u32) -> String {
    if dwords == 1 {
        format!("{p}{base}")
    } else {
        format!("{p}[{base}:{}]", base + dwords - 1)
    }
}

/// The 16-bit immediate of a SOPK/SOPP row.
fn simm16(name: &str) -> &'static str {
    match name {
        "s_getreg_b32" | "s_setreg_b32" | "s_setreg_imm32_b32" => "hwreg(HW_REG_MODE)",
        "s_sendmsg" | "s_sendmsghalt" => "sendmsg(MSG_GS_DONE, GS_OP_NOP)",
        "s_waitcnt_depctr" => "0xffff",
        _ => "0",
    }
}

/// Assembly text for one row with legal operands (see [`setup`] for what
/// the registers hold).
fn row_text(t: Target, row: &OpInfo) -> String {
    let name = row.opcode.mnemonic();
    let family = row.family;
    let mut ops = Vec::new();
    for spec in row.operands {
        let n = u32::from(spec.ty.dwords(t));
        let text = match (family, spec.field) {
            (_, Field::Simm16) => simm16(name).to_string(),
            // s_set_gpr_idx_on's second operand is its mode immediate.
            (Family::Sopc, Field::Ssrc1) if name == "s_set_gpr_idx_on" => "1".to_string(),
            (_, Field::K) => "0x12".to_string(),
            (Family::Smem, Field::Sdata) if name.starts_with("s_atc_probe") => "0".to_string(),
            (Family::Smem, Field::Sdata) => regs('s', 40, n),
            (Family::Smem, Field::Sbase) if n == 2 => regs('s', 4, 2),
            (Family::Smem, Field::Sbase) => regs('s', 8, 4),
            (Family::Smem, Field::Soffset) => "s6".to_string(),
            (_, Field::Sdst) => regs('s', 40, n),
            (_, Field::Ssrc0) => regs('s', 24, n),
            (_, Field::Ssrc1) => regs('s', 28, n),
            (Family::Ds, Field::Vaddr) => "v1".to_string(),
            (Family::Ds, Field::Data0) => regs('v', 8, n),
            (Family::Ds, Field::Data1) => regs('v', 12, n),
            (Family::Mubuf | Family::Mtbuf, Field::Vaddr) => "v1".to_string(),
            (Family::Mubuf | Family::Mtbuf, Field::Srsrc) => regs('s', 8, 4),
            (Family::Mubuf | Family::Mtbuf, Field::Soffset) => "s12".to_string(),
            (_, Field::Vaddr) if n == 2 => regs('v', 2, 2),
            (_, Field::Vaddr) => "v1".to_string(),
            (_, Field::Saddr) if name.ends_with("_addtid") => regs('s', 4, 2),
            (_, Field::Saddr) => "off".to_string(),
            (_, Field::Vdata) => regs('v', 8, n),
            (_, Field::Vdst) => regs('v', 20, n),
            (_, f) => format!("<{}>", f.name()),
        };
        ops.push(text);
    }
    let mut s = format!("{name} {}", ops.join(", "));
    match family {
        // GWS and ordered count exist only in their GDS form.
        Family::Ds if name.starts_with("ds_gws") || name == "ds_ordered_count" => s += " gds",
        // LDS-to-memory: the data comes from LDS at M0, no VGPR address.
        Family::Mubuf if name.starts_with("buffer_store_lds") => s += " lds",
        Family::Mubuf if !row.operands.is_empty() => s += " offen",
        Family::Mtbuf => {
            // 32_32_32_32 UINT: gfx803 dfmt 14 | nfmt 4 << 4; gfx1030 BUF_FMT 76.
            let f = if t.isa == Isa::Gfx803 { 0x4e } else { 76 };
            s += &format!(" format:{f} offen");
        }
        _ => {}
    }
    s
}

/// The wave's registers and memory for every row: scalar sources hold small
/// values, `s[4:5]` the memory window's address (SMEM), `s6` an offset,
/// `s[8:11]` a buffer resource over the window (stride 16, 4 KiB,
/// 32_32_32_32 format), `v1` a per-lane byte offset, `v[2:3]` a per-lane
/// address in the window, `v8..v15` data.
fn setup(t: Target) -> Probe {
    let mut p = Probe::new(t);
    let w = &mut p.wave;
    for i in 24..40 {
        w.sgpr[i] = (i as u32 - 22) & 3;
    }
    w.sgpr[4] = MEM as u32;
    w.sgpr[5] = (MEM >> 32) as u32;
    w.sgpr[6] = 0x10;
    let w3 = match t.isa {
        // DST_SEL XYZW, NUM_FORMAT UINT (4), DATA_FORMAT 32_32_32_32 (14).
        Isa::Gfx803 => 4 | 5 << 3 | 6 << 6 | 7 << 9 | 4 << 12 | 14 << 15,
        // DST_SEL XYZW, FORMAT 32_32_32_32_UINT (76), OOB_SELECT raw (3).
        Isa::Gfx1030 => 4 | 5 << 3 | 6 << 6 | 7 << 9 | 76 << 12 | 3 << 28,
    };
    w.sgpr[8..12].copy_from_slice(&[MEM as u32, (MEM >> 32) as u32 | 16 << 16, 0x1000, w3]);
    w.sgpr[12] = 0;
    p.set_vgpr(1, |l| 16 * l as u32);
    p.set_vgpr(2, |l| MEM as u32 + 16 * l as u32);
    p.set_vgpr(3, |_| (MEM >> 32) as u32);
    for r in 8..16 {
        p.set_vgpr(r, |l| (r * 64 + l) as u32);
    }
    p
}

/// Outcome counts of one family on one target.
#[derive(Default)]
struct Tally {
    ok: usize,
    not_implemented: Vec<&'static str>,
    other: Vec<(&'static str, String)>,
    unassembled: Vec<String>,
}

fn tally(t: Target, family: Family) -> Tally {
    let mut out = Tally::default();
    for row in tables(t.isa).rows.iter().filter(|r| r.family == family) {
        let text = row_text(t, row);
        let bytes = match arch::isa::assemble(t, &text) {
            Ok(b) => b,
            Err(e) => {
                out.unassembled.push(format!("{text}: {e}"));
                continue;
            }
        };
        let inst = match arch::isa::decode(t, &bytes) {
            Ok(i) => i,
            Err(e) => {
                out.unassembled.push(format!("{text}: decode: {e}"));
                continue;
            }
        };
        let mut p = setup(t);
        match p.run(&inst) {
            Ok(_) => out.ok += 1,
            Err(f) if format!("{f:?}").contains("not implemented") => {
                out.not_implemented.push(row.opcode.mnemonic())
            }
            Err(f) => out
                .other
                .push((row.opcode.mnemonic(), format!("{text}: {f:?}"))),
        }
    }
    out
}

#[test]
fn coverage_of_every_scalar_and_memory_opcode() {
    let families = [
        Family::Sop1,
        Family::Sop2,
        Family::Sopk,
        Family::Sopc,
        Family::Sopp,
        Family::Smem,
        Family::Ds,
        Family::Flat,
        Family::Global,
        Family::Scratch,
        Family::Mubuf,
        Family::Mtbuf,
    ];
    let mut problems = Vec::new();
    for t in [Target::GFX803, Target::GFX1030_W64, Target::GFX1030_W32] {
        let mut missing = Vec::new();
        for family in families {
            let r = tally(t, family);
            let rows = r.ok + r.not_implemented.len() + r.other.len() + r.unassembled.len();
            if rows == 0 {
                continue;
            }
            println!(
                "{:<8} {:<3} {family:<7} implemented {:>3}, not implemented {:>2} {:?}, other faults {}",
                t.isa.name(),
                t.wave_size(),
                r.ok,
                r.not_implemented.len(),
                r.not_implemented,
                r.other.len()
            );
            for (_, o) in &r.other {
                println!("    {o}");
            }
            for o in &r.unassembled {
                println!("    {o}");
            }
            problems.extend(r.unassembled.iter().map(|u| format!("{t:?}: {u}")));
            problems.extend(
                r.other
                    .iter()
                    .filter(|(name, _)| !EXPECTED_FAULTS.contains(name))
                    .map(|(_, u)| format!("{t:?}: {u}")),
            );
            missing.extend(r.not_implemented);
        }
        let expected = if t.isa == Isa::Gfx803 {
            EXPECTED_GFX803
        } else {
            EXPECTED_GFX1030
        };
        let mut missing_sorted = missing.clone();
        missing_sorted.sort_unstable();
        let mut expected_sorted = expected.to_vec();
        expected_sorted.sort_unstable();
        if missing_sorted != expected_sorted {
            problems.push(format!(
                "{t:?}: not implemented {missing_sorted:?}, documented {expected_sorted:?}"
            ));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Every buffer format code of both ISAs through a typed load and store
/// (and their d16 forms): each valid format converts, each invalid one is
/// an illegal-instruction fault naming the format, none is not implemented.
#[test]
fn coverage_of_every_buffer_format() {
    for t in [Target::GFX803, Target::GFX1030_W32] {
        let codes: Vec<u8> = match t.isa {
            // dfmt | nfmt << 4
            Isa::Gfx803 => (0..128).collect(),
            Isa::Gfx1030 => (0..128).collect(),
        };
        let (mut ok, mut invalid, mut other) = (0, Vec::new(), Vec::new());
        for code in codes {
            let mut p = setup(t);
            p.wave.set_exec(1);
            let w3 = &mut p.wave.sgpr[11];
            *w3 = match t.isa {
                Isa::Gfx803 => {
                    (*w3 & !(0x7f << 12)) | u32::from(code >> 4) << 12 | u32::from(code & 0xf) << 15
                }
                Isa::Gfx1030 => (*w3 & !(0x7f << 12)) | u32::from(code) << 12,
            };
            let (d16_load, d16_store) = match t.isa {
                Isa::Gfx803 => ("v[20:23]", "v[8:11]"),
                Isa::Gfx1030 => ("v[20:21]", "v[8:9]"),
            };
            let texts = [
                "buffer_load_format_xyzw v[20:23], v1, s[8:11], s12 offen".to_string(),
                "buffer_store_format_xyzw v[8:11], v1, s[8:11], s12 offen".to_string(),
                format!("buffer_load_format_d16_xyzw {d16_load}, v1, s[8:11], s12 offen"),
                format!("buffer_store_format_d16_xyzw {d16_store}, v1, s[8:11], s12 offen"),
            ];
            let results: Vec<_> = texts.iter().map(|s| p.exec(s)).collect();
            if results.iter().all(|r| r.is_ok()) {
                ok += 1;
            } else if results
                .iter()
                .all(|r| matches!(r, Err(e) if e.contains("is not a valid")))
            {
                invalid.push(code);
            } else {
                other.push((code, results));
            }
        }
        println!(
            "{:<8} buffer formats: converted {ok}, invalid {} {invalid:?}",
            t.isa.name(),
            invalid.len()
        );
        assert!(other.is_empty(), "{t:?}: {other:?}");
        // gfx803: DATA_FORMAT 0 and 15, NUM_FORMAT 6, and FLOAT with 8-bit
        // or 2_10_10_10 / 10_10_10_2 components; gfx1030: 0 and past 77.
        let expected = match t.isa {
            Isa::Gfx803 => (0..128u8)
                .filter(|c| {
                    let (df, nf) = (c & 0xf, c >> 4);
                    df == 0 || df == 15 || nf == 6 || (nf == 7 && matches!(df, 1 | 3 | 8 | 9 | 10))
                })
                .collect::<Vec<_>>(),
            Isa::Gfx1030 => (0..128u8).filter(|&c| c == 0 || c > 77).collect(),
        };
        assert_eq!(invalid, expected, "{t:?}");
    }
}

/// Every FLAT/GLOBAL/MUBUF atomic row again in its returning form (`glc`,
/// with the destination the returning form adds on FLAT/GLOBAL): none may
/// fault, and the pre-op value must come back (memory starts zeroed, so
/// every returned dword is 0 and the destination's canary is gone).
#[test]
fn coverage_of_returning_atomics() {
    let mut problems = Vec::new();
    for t in [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64] {
        let mut count = 0;
        for row in tables(t.isa).rows.iter().filter(|r| {
            matches!(r.family, Family::Flat | Family::Global | Family::Mubuf)
                && r.opcode.mnemonic().contains("_atomic_")
        }) {
            let name = row.opcode.mnemonic();
            let base = row_text(t, row);
            let data_dwords = row
                .operands
                .iter()
                .find(|s| s.field == Field::Vdata)
                .map_or(1, |s| u32::from(s.ty.dwords(t)));
            // cmpswap returns half its data (the old value only).
            let ret = if name.contains("cmpswap") {
                data_dwords / 2
            } else {
                data_dwords
            };
            let (text, dst) = if row.family == Family::Mubuf {
                (format!("{base} glc"), 8)
            } else {
                let (head, rest) = base.split_once(' ').unwrap_or((&base, ""));
                (format!("{head} {}, {rest} glc", regs('v', 20, ret)), 20)
            };
            let mut p = setup(t);
            p.set_vgpr(dst, |_| 0xcafe_f00d);
            match p.exec(&text) {
                Ok(_) => {
                    count += 1;
                    let lanes = p.wave.lanes() as usize;
                    if (0..lanes).any(|l| p.wave.vgpr[dst][l] != 0) {
                        problems.push(format!("{t:?} {text}: pre-op value not returned"));
                    }
                }
                Err(e) => problems.push(format!("{t:?} {text}: {e}")),
            }
        }
        println!("{:<8} {} returning atomics run", t.isa.name(), count);
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
