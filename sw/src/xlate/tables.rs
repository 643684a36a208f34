//! Constant-time look-ups over `arch`'s instruction tables, built once per
//! process: `arch::isa::tables::info_for` scans every row, which would make
//! translation cost grow with the table size on every instruction.

use std::sync::OnceLock;

use arch::isa::tables::tables;
use arch::isa::{Family, Isa, OpInfo, Opcode};

/// Per opcode: the row index in each family (`u16::MAX` = none), per ISA,
/// and name-derived flags.
struct Index {
    rows: [Vec<[u16; 17]>; 2],
    flags: Vec<u8>,
    /// `v_cmpx_*` → the `v_cmp_*` of the same comparison.
    cmp_of_cmpx: Vec<Option<Opcode>>,
}

/// `*_store_*` (and `_lds`-to-memory) memory forms.
pub const STORE: u8 = 1;
/// `*_atomic_*` memory forms.
pub const ATOMIC: u8 = 2;
/// gfx8 `v_cmpx_*` (writes EXEC and VCC/SDST).
pub const CMPX: u8 = 4;
/// Memory forms with 16-bit (`d16`) data.
pub const D16: u8 = 16;
/// Scalar-memory loads (`s_load_*`, `s_buffer_load_*`, `s_memtime`, ...).
pub const SMEM_LOAD: u8 = 8;

fn isa_slot(isa: Isa) -> usize {
    match isa {
        Isa::Gfx803 => 0,
        Isa::Gfx1030 => 1,
    }
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let all = [tables(Isa::Gfx803), tables(Isa::Gfx1030)];
        let n = all
            .iter()
            .flat_map(|t| t.rows.iter())
            .map(|r| r.opcode as usize + 1)
            .max()
            .unwrap_or(0);
        let mut rows = [vec![[u16::MAX; 17]; n], vec![[u16::MAX; 17]; n]];
        let mut flags = vec![0u8; n];
        let mut by_name = std::collections::HashMap::new();
        for t in &all {
            for r in t.rows {
                by_name.insert(r.opcode.mnemonic(), r.opcode);
            }
        }
        let mut cmp_of_cmpx = vec![None; n];
        for (slot, t) in all.iter().enumerate() {
            for (i, r) in t.rows.iter().enumerate() {
                rows[slot][r.opcode as usize][r.family as usize] = i as u16;
                let name = r.opcode.mnemonic();
                let f = &mut flags[r.opcode as usize];
                if name.contains("_store_") || name.starts_with("buffer_store_lds") {
                    *f |= STORE;
                }
                if name.contains("_d16") {
                    *f |= D16;
                }
                if name.contains("_atomic_") {
                    *f |= ATOMIC;
                }
                if let Some(rest) = name.strip_prefix("v_cmpx_") {
                    *f |= CMPX;
                    cmp_of_cmpx[r.opcode as usize] =
                        by_name.get(format!("v_cmp_{rest}").as_str()).copied();
                }
                if name.starts_with("s_load_")
                    || name.starts_with("s_buffer_load_")
                    || name.starts_with("s_scratch_load_")
                    || name.starts_with("s_memtime")
                    || name.starts_with("s_memrealtime")
                {
                    *f |= SMEM_LOAD;
                }
            }
        }
        Index {
            rows,
            flags,
            cmp_of_cmpx,
        }
    })
}

/// The table row of `opcode` in `family` on `isa` (what `info_for` returns).
pub fn row(isa: Isa, family: Family, opcode: Opcode) -> Option<&'static OpInfo> {
    let i = *index().rows[isa_slot(isa)]
        .get(opcode as usize)?
        .get(family as usize)?;
    tables(isa).rows.get(usize::from(i))
}

/// Name-derived flags of `opcode` ([`STORE`], [`ATOMIC`], [`CMPX`], [`SMEM_LOAD`], [`D16`]).
pub fn flags(opcode: Opcode) -> u8 {
    index().flags.get(opcode as usize).copied().unwrap_or(0)
}

/// The `v_cmp_*` performing the comparison of `v_cmpx_*` `opcode`.
pub fn cmp_of_cmpx(opcode: Opcode) -> Option<Opcode> {
    index().cmp_of_cmpx.get(opcode as usize).copied().flatten()
}
