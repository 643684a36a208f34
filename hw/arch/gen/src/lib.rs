//! The table generator of `arch`: reads the declarative ISA descriptions in
//! `hw/arch/isa/{gfx1030,gfx803}/FAMILY.isa`, validates them, and renders
//! `hw/arch/src/isa/tables/generated.rs` and `docs/isa-coverage.md`.
//!
//! The description format is documented in `docs/isa-description.md`. In short,
//! every non-blank, non-`#` line is `NUMBER MNEMONIC FIELD:TYPE...`.
//!
//! This crate has no dependencies on purpose: it must build before `arch`
//! (whose tables it writes), and it only does text processing.

#![deny(missing_docs)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Write as _};
use std::fs;
use std::path::{Path, PathBuf};

/// The ISAs, in the order their tables are emitted: (directory name, static name).
pub const ISAS: [(&str, &str); 2] = [("gfx1030", "GFX1030"), ("gfx803", "GFX803")];

/// Encoding families in `arch::isa::Family::ALL` order, with their Rust variant
/// name and the size of their opcode field's value space.
pub const FAMILIES: [(&str, &str, u32); 17] = [
    ("SOP1", "Sop1", 256),
    ("SOP2", "Sop2", 128),
    ("SOPK", "Sopk", 32),
    ("SOPC", "Sopc", 128),
    ("SOPP", "Sopp", 128),
    ("SMEM", "Smem", 256),
    ("VOP1", "Vop1", 256),
    ("VOP2", "Vop2", 64),
    ("VOPC", "Vopc", 256),
    ("VOP3", "Vop3", 1024),
    ("VOP3P", "Vop3p", 128),
    ("DS", "Ds", 256),
    ("FLAT", "Flat", 128),
    ("GLOBAL", "Global", 128),
    ("SCRATCH", "Scratch", 128),
    ("MUBUF", "Mubuf", 256),
    ("MTBUF", "Mtbuf", 16),
];

/// Families gfx803 (GCN3) does not have.
const NOT_ON_GFX803: [&str; 3] = ["VOP3P", "GLOBAL", "SCRATCH"];

/// `arch::isa::Field` names: (description spelling, Rust variant).
pub const FIELDS: [(&str, &str); 19] = [
    ("sdst", "Sdst"),
    ("ssrc0", "Ssrc0"),
    ("ssrc1", "Ssrc1"),
    ("simm16", "Simm16"),
    ("sdata", "Sdata"),
    ("sbase", "Sbase"),
    ("soffset", "Soffset"),
    ("vdst", "Vdst"),
    ("src0", "Src0"),
    ("src1", "Src1"),
    ("src2", "Src2"),
    ("k", "K"),
    ("vcc", "Vcc"),
    ("vaddr", "Vaddr"),
    ("vdata", "Vdata"),
    ("data0", "Data0"),
    ("data1", "Data1"),
    ("saddr", "Saddr"),
    ("srsrc", "Srsrc"),
];

/// `arch::isa::OperandType` names: (description spelling, Rust variant).
pub const TYPES: [(&str, &str); 14] = [
    ("b16", "B16"),
    ("f16", "F16"),
    ("v2b16", "V2B16"),
    ("v2f16", "V2F16"),
    ("b32", "B32"),
    ("f32", "F32"),
    ("b64", "B64"),
    ("f64", "F64"),
    ("b96", "B96"),
    ("b128", "B128"),
    ("b160", "B160"),
    ("b256", "B256"),
    ("b512", "B512"),
    ("lanemask", "LaneMask"),
];

/// A description error, naming the file and line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The file (as given to the parser).
    pub file: String,
    /// 1-based line number, 0 for whole-file problems.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for Error {}

/// One operand of a row: indices into [`FIELDS`] and [`TYPES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operand {
    /// Index into [`FIELDS`].
    pub field: usize,
    /// Index into [`TYPES`].
    pub ty: usize,
}

/// One instruction of one family of one ISA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Opcode field value.
    pub number: u16,
    /// LLVM's mnemonic without encoding suffixes.
    pub mnemonic: String,
    /// Operands in print order.
    pub operands: Vec<Operand>,
}

/// All rows of one ISA: per family index (into [`FAMILIES`]), sorted by number.
pub type IsaRows = Vec<Vec<Row>>;

/// Parses one description file of family `family` (index into [`FAMILIES`]).
pub fn parse_file(file: &str, family: usize, text: &str) -> Result<Vec<Row>, Error> {
    let err = |line: usize, message: String| Error {
        file: file.to_string(),
        line,
        message,
    };
    let mut rows: Vec<Row> = Vec::new();
    let mut numbers = BTreeMap::new();
    let mut mnemonics = BTreeMap::new();
    let (fam_name, _, range) = FAMILIES[family];
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(num), Some(mnemonic)) = (words.next(), words.next()) else {
            return Err(err(
                n,
                format!("expected `NUMBER MNEMONIC OPERAND...`, found `{line}`"),
            ));
        };
        let number: u32 = num
            .parse()
            .map_err(|_| err(n, format!("opcode number `{num}` is not a decimal integer")))?;
        if number >= range {
            return Err(err(
                n,
                format!("opcode number {number} is outside {fam_name}'s range 0..{range}"),
            ));
        }
        if !mnemonic.starts_with(|c: char| c.is_ascii_lowercase())
            || !mnemonic
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        {
            return Err(err(
                n,
                format!("mnemonic `{mnemonic}` must be lower-case letters, digits and `_`"),
            ));
        }
        for suffix in ["_e32", "_e64", "_sdwa", "_dpp", "_dpp8"] {
            if mnemonic.ends_with(suffix) {
                return Err(err(
                    n,
                    format!("mnemonic `{mnemonic}` carries the encoding suffix `{suffix}`"),
                ));
            }
        }
        if let Some(prev) = numbers.insert(number, n) {
            return Err(err(
                n,
                format!("opcode number {number} already used on line {prev}"),
            ));
        }
        if let Some(prev) = mnemonics.insert(mnemonic.to_string(), n) {
            return Err(err(
                n,
                format!("mnemonic `{mnemonic}` already used on line {prev}"),
            ));
        }
        let mut operands = Vec::new();
        for word in words {
            let Some((f, t)) = word.split_once(':') else {
                return Err(err(n, format!("operand `{word}` is not `field:type`")));
            };
            let field = FIELDS
                .iter()
                .position(|(name, _)| *name == f)
                .ok_or_else(|| err(n, format!("unknown field `{f}` in `{word}`")))?;
            let ty = TYPES
                .iter()
                .position(|(name, _)| *name == t)
                .ok_or_else(|| err(n, format!("unknown type `{t}` in `{word}`")))?;
            operands.push(Operand { field, ty });
        }
        if operands.len() > 6 {
            return Err(err(
                n,
                format!("{} operands; an instruction has at most 6", operands.len()),
            ));
        }
        rows.push(Row {
            number: number as u16,
            mnemonic: mnemonic.to_string(),
            operands,
        });
    }
    rows.sort_by_key(|r| r.number);
    Ok(rows)
}

/// Reads and validates every description under `isa_dir` (`hw/arch/isa`).
pub fn load(isa_dir: &Path) -> Result<Vec<IsaRows>, Error> {
    let mut all = Vec::new();
    for (isa, _) in ISAS {
        let dir = isa_dir.join(isa);
        let whole = |message: String| Error {
            file: dir.display().to_string(),
            line: 0,
            message,
        };
        let entries =
            fs::read_dir(&dir).map_err(|e| whole(format!("cannot read directory: {e}")))?;
        let mut files = BTreeSet::new();
        for entry in entries {
            let path = entry.map_err(|e| whole(e.to_string()))?.path();
            if path.extension().and_then(|e| e.to_str()) == Some("isa") {
                files.insert(path);
            }
        }
        let mut rows: IsaRows = vec![Vec::new(); FAMILIES.len()];
        for path in files {
            let file = path.display().to_string();
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let Some(family) = FAMILIES.iter().position(|(name, _, _)| *name == stem) else {
                return Err(Error {
                    file,
                    line: 0,
                    message: format!("unknown family `{stem}`"),
                });
            };
            if isa == "gfx803" && NOT_ON_GFX803.contains(&stem) {
                return Err(Error {
                    file,
                    line: 0,
                    message: format!("gfx803 has no {stem} encoding"),
                });
            }
            let text = fs::read_to_string(&path).map_err(|e| Error {
                file: file.clone(),
                line: 0,
                message: e.to_string(),
            })?;
            rows[family] = parse_file(&file, family, &text)?;
        }
        all.push(rows);
    }
    Ok(all)
}

/// The Rust variant name of a mnemonic (`v_add_co_ci_u32` → `V_ADD_CO_CI_U32`).
pub fn variant(mnemonic: &str) -> String {
    mnemonic.to_ascii_uppercase()
}

/// Renders `generated.rs`.
pub fn render_tables(isas: &[IsaRows]) -> String {
    let mnemonics: BTreeSet<&str> = isas
        .iter()
        .flat_map(|rows| rows.iter().flatten().map(|r| r.mnemonic.as_str()))
        .collect();
    let index: BTreeMap<&str, usize> = mnemonics.iter().enumerate().map(|(i, m)| (*m, i)).collect();
    let n = mnemonics.len();
    let mut s = String::new();
    s.push_str(
        "// @generated by arch-gen — do not edit. Source: hw/arch/isa/*.isa; regenerate with\n",
    );
    s.push_str("// `cargo run -p arch-gen` (`-- --check` verifies this file is current).\n");
    s.push_str("use super::{Field as F, IsaTables, OpInfo, OperandSpec};\n");
    s.push_str("use crate::isa::{Family, OperandType as T};\n\n");
    s.push_str("/// Every instruction of both ISAs, named as in AMD's manuals (the upper-cased\n");
    s.push_str("/// LLVM mnemonic). Variants are in mnemonic order.\n");
    s.push_str("#[allow(non_camel_case_types)]\n#[rustfmt::skip]\n");
    s.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\n");
    s.push_str("pub enum Opcode {\n");
    for m in &mnemonics {
        let _ = writeln!(s, "    /// `{m}`\n    {},", variant(m));
    }
    s.push_str("}\n\n");
    let _ = writeln!(
        s,
        "/// LLVM's mnemonics, in [`Opcode`] order (which is sorted)."
    );
    let _ = writeln!(s, "#[rustfmt::skip]\nstatic MNEMONICS: [&str; {n}] = [");
    for m in &mnemonics {
        let _ = writeln!(s, "    \"{m}\",");
    }
    s.push_str("];\n\n");
    s.push_str("#[rustfmt::skip]\nimpl Opcode {\n");
    let _ = writeln!(
        s,
        "    /// Every opcode, in declaration (= mnemonic) order."
    );
    let _ = writeln!(s, "    pub const ALL: [Opcode; {n}] = [");
    for m in &mnemonics {
        let _ = writeln!(s, "        Opcode::{},", variant(m));
    }
    s.push_str("    ];\n\n");
    s.push_str("    /// LLVM's mnemonic (without `_e32`/`_e64`/`_sdwa`/`_dpp` suffixes).\n");
    s.push_str(
        "    pub fn mnemonic(self) -> &'static str {\n        MNEMONICS[self as usize]\n    }\n\n",
    );
    s.push_str("    /// Looks a mnemonic up (without suffixes); binary search, as this is only\n");
    s.push_str("    /// on the assembler's path.\n");
    s.push_str("    pub fn from_mnemonic(m: &str) -> Option<Opcode> {\n");
    s.push_str("        MNEMONICS.binary_search(&m).ok().map(|i| Opcode::ALL[i])\n    }\n}\n");
    for ((_, name), rows) in ISAS.iter().zip(isas) {
        let total: usize = rows.iter().map(Vec::len).sum();
        let _ = writeln!(s, "\n/// {name}: every row, sorted by (family, number).");
        let _ = writeln!(
            s,
            "#[rustfmt::skip]\nstatic {name}_ROWS: [OpInfo; {total}] = ["
        );
        let mut offsets = Vec::new();
        let mut at = 0usize;
        for (fam, fam_rows) in rows.iter().enumerate() {
            offsets.push(at);
            for r in fam_rows {
                let ops: Vec<String> = r
                    .operands
                    .iter()
                    .map(|o| {
                        format!(
                            "OperandSpec {{ field: F::{}, ty: T::{} }}",
                            FIELDS[o.field].1, TYPES[o.ty].1
                        )
                    })
                    .collect();
                let _ = writeln!(
                    s,
                    "    OpInfo {{ opcode: Opcode::{}, family: Family::{}, number: {}, operands: &[{}] }},",
                    variant(&r.mnemonic),
                    FAMILIES[fam].1,
                    r.number,
                    ops.join(", ")
                );
                let _ = index[r.mnemonic.as_str()];
            }
            at += fam_rows.len();
        }
        s.push_str("];\n");
        let mut refs = Vec::new();
        for (fam, fam_rows) in rows.iter().enumerate() {
            let Some(last) = fam_rows.last() else {
                refs.push("&[]".to_string());
                continue;
            };
            let len = usize::from(last.number) + 1;
            let mut table = vec![u16::MAX; len];
            for (i, r) in fam_rows.iter().enumerate() {
                table[usize::from(r.number)] = (offsets[fam] + i) as u16;
            }
            let static_name = format!("{name}_{}", FAMILIES[fam].0);
            let _ = writeln!(
                s,
                "/// {name} {}: opcode number → index into `{name}_ROWS` (`u16::MAX`: no such opcode).",
                FAMILIES[fam].0
            );
            let _ = writeln!(
                s,
                "#[rustfmt::skip]\nstatic {static_name}: [u16; {len}] = ["
            );
            for chunk in table.chunks(16) {
                let cells: Vec<String> = chunk
                    .iter()
                    .map(|&v| {
                        if v == u16::MAX {
                            "NO".to_string()
                        } else {
                            v.to_string()
                        }
                    })
                    .collect();
                let _ = writeln!(s, "    {},", cells.join(", "));
            }
            s.push_str("];\n");
            refs.push(format!("&{static_name}"));
        }
        let _ = writeln!(s, "\n/// The {name} tables.");
        let _ = writeln!(
            s,
            "#[rustfmt::skip]\npub(super) static {name}: IsaTables = IsaTables {{"
        );
        let _ = writeln!(s, "    rows: &{name}_ROWS,");
        s.push_str("    by_number: [\n");
        for r in refs {
            let _ = writeln!(s, "        {r},");
        }
        s.push_str("    ],\n};\n");
    }
    s.push_str("\n/// A hole in a `by_number` table.\nconst NO: u16 = u16::MAX;\n");
    s
}

/// Renders `docs/isa-coverage.md`.
pub fn render_coverage(isas: &[IsaRows]) -> String {
    let mut s = String::new();
    s.push_str("# ISA coverage\n\n");
    s.push_str("<!-- @generated by arch-gen from hw/arch/isa/*.isa — do not edit. -->\n\n");
    s.push_str("Instructions in the tables of `arch` (generated from the descriptions in\n");
    s.push_str(
        "`hw/arch/isa/`, which `hw/arch/isa/extract.py` extracts from LLVM 19), per ISA and\n",
    );
    s.push_str("encoding family. VOP1/VOP2/VOPC instructions promoted to the 64-bit encoding\n");
    s.push_str("appear again under VOP3, where the hardware numbers them.\n\n");
    s.push_str("| ISA | ");
    for (f, _, _) in FAMILIES {
        let _ = write!(s, "{f} | ");
    }
    s.push_str("total |\n|---|");
    for _ in FAMILIES {
        s.push_str("---:|");
    }
    s.push_str("---:|\n");
    for ((isa, _), rows) in ISAS.iter().zip(isas) {
        let _ = write!(s, "| {isa} | ");
        for r in rows {
            let _ = write!(s, "{} | ", r.len());
        }
        let _ = writeln!(s, "{} |", rows.iter().map(Vec::len).sum::<usize>());
    }
    for ((isa, _), rows) in ISAS.iter().zip(isas) {
        let _ = writeln!(s, "\n## {isa}");
        for (fam, r) in rows.iter().enumerate() {
            if r.is_empty() {
                continue;
            }
            let _ = writeln!(
                s,
                "\n### {isa} {} ({} instructions)\n",
                FAMILIES[fam].0,
                r.len()
            );
            let names: Vec<String> = r
                .iter()
                .map(|r| format!("`{}` ({})", r.mnemonic, r.number))
                .collect();
            let _ = writeln!(s, "{}", names.join(", "));
        }
    }
    s
}

/// The repository root (this crate lives in `hw/arch/gen`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../..")
        .components()
        .collect()
}

/// The generated files: (path relative to the root, contents).
pub fn generate(root: &Path) -> Result<Vec<(PathBuf, String)>, Error> {
    let isas = load(&root.join("hw/arch/isa"))?;
    Ok(vec![
        (
            PathBuf::from("hw/arch/src/isa/tables/generated.rs"),
            render_tables(&isas),
        ),
        (
            PathBuf::from("docs/isa-coverage.md"),
            render_coverage(&isas),
        ),
    ])
}

/// Files under `root` whose contents differ from what [`generate`] produces.
pub fn stale(root: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    for (rel, text) in generate(root)? {
        if fs::read_to_string(root.join(&rel)).ok().as_deref() != Some(text.as_str()) {
            out.push(rel);
        }
    }
    Ok(out)
}
