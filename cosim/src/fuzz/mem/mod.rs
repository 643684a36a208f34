//! Random memory instructions for the random programs: every opcode the
//! gfx1030 tables hold for SMEM, DS, GLOBAL, FLAT, SCRATCH, MUBUF and MTBUF
//! (bar the GDS-only DS forms and the SMEM time reads and ATC probes,
//! [`excluded_row`]), each with the wait
//! that makes its result architecturally visible, at addresses that stay
//! inside what the program maps. The rows are enumerated from the arch
//! tables ([`rows`]), not from a hand list, so a row added there is drawn.
//!
//! Addresses (set by the prologue, [`super::Program::code`]):
//! * `v30` = lane × 128: the lane's slice of the input region of the data
//!   buffer (read-only here: SMEM reads it too, and the scalar cache must not
//!   see a vector store);
//! * `v28` = `v30` + [`SCRATCH`]: the lane's slice of the scratch region,
//!   the only one random stores and atomics write;
//! * `v33` = lane, `v34` = [`SCRATCH`]: index and offset for `idxen`
//!   through the strided descriptor `s[40:43]` (stride 128);
//! * `v[35:36]`, `v[37:38]`: 64-bit addresses of the lane's input and
//!   scratch slices (FLAT, GLOBAL with `saddr` off);
//! * `v39` = (lane mod 4) × 64: a private (scratch segment) offset;
//! * `v27` = lane × 16: the lane's 16 bytes of LDS; `v40` = [`LDS_ST64`] +
//!   lane × 4 and `v41` = [`LDS_ST64`] + lane × 8 for the `st64` forms;
//! * `s[36:39]` = [`BUFFER_DESCRIPTOR`] over the whole data buffer (raw);
//!   `s[40:43]` the same with stride 128 (its format is rewritten by the
//!   format items); `s44` = [`SCRATCH`] (soffset); `s45` = 128 (scratch
//!   `saddr`); `s[46:47]` = data + [`SCRATCH`] + 128 (negative GLOBAL
//!   offsets); `s[48:49]` = data + [`SCRATCH`] (`addtid` stores).
//!
//! Every lane touches only its own slice, so no two lanes of one
//! instruction write one address (which lane wins would be the models'
//! choice, not the ISA's). A load is followed by `s_waitcnt vmcnt(0)` or
//! `lgkmcnt(0)`, a store by `s_waitcnt_vscnt null, 0`, in the same
//! [`super::Item::Mem`], so the shrinker never separates them: reading a
//! load's destination before its wait is a program error on hardware, not
//! a model disagreement.

mod ds;
mod vmem;

use arch::isa::asm::assemble_line;
use arch::isa::{Family, Instruction, Isa, OpInfo, Opcode, Target};

use super::gen::{Rng, SGPRS, VGPRS};

/// Offset of the scratch region in the data buffer (stores and atomics).
pub const SCRATCH: u32 = 0x6000;
/// LDS bytes the program allocates: 16 per lane of a wave64 at 0, the
/// `st64` rows from [`LDS_ST64`], the `addtid` rows from [`LDS_ADDTID`],
/// the append/consume counters at [`LDS_COUNTER`].
pub const LDS_BYTES: u32 = 8192;
/// Start of the LDS region of the `st64` forms (8 rows of 512 bytes).
pub const LDS_ST64: u32 = 1024;
/// Start of the LDS region of the `addtid` forms (M0 points here).
pub const LDS_ADDTID: u32 = 5120;
/// The append/consume counters (M0 points here).
pub const LDS_COUNTER: u32 = 8176;
/// Bytes of private (scratch segment) memory per lane.
pub const PRIVATE_BYTES: u32 = 512;

/// Dword 3 of the buffer descriptor in `s[36:39]` (gfx10): DST_SEL_XYZW,
/// FORMAT = 32_FLOAT, RESOURCE_LEVEL = 1, OOB_SELECT = 3 (raw: bounds
/// checked against NUM_RECORDS bytes), as Mesa builds raw buffers.
pub const BUFFER_DESCRIPTOR: u32 = 0x3101_6fac;

/// Dword 3 of a descriptor with the gfx10 unified format `format`.
pub fn descriptor_with_format(format: u8) -> u32 {
    BUFFER_DESCRIPTOR & !(0x7f << 12) | u32::from(format & 0x7f) << 12
}

/// The memory families the generator draws (`gpusim fuzz-lockstep --mem`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemFamily {
    /// Scalar loads (`s_load_dword*` from the input region).
    Smem,
    /// LDS and the DS cross-lane forms.
    Ds,
    /// GLOBAL loads, stores and atomics.
    Global,
    /// FLAT loads, stores and atomics on global addresses.
    Flat,
    /// SCRATCH loads and stores on the private segment.
    Scratch,
    /// MUBUF loads, stores, format forms, atomics and cache invalidates.
    Mubuf,
    /// MTBUF typed loads and stores with random formats.
    Mtbuf,
}

impl MemFamily {
    /// Every family, in the order [`random_text`] draws from.
    pub const ALL: [MemFamily; 7] = [
        MemFamily::Smem,
        MemFamily::Ds,
        MemFamily::Global,
        MemFamily::Flat,
        MemFamily::Scratch,
        MemFamily::Mubuf,
        MemFamily::Mtbuf,
    ];

    /// The name `--mem` takes.
    pub fn name(self) -> &'static str {
        match self {
            MemFamily::Smem => "smem",
            MemFamily::Ds => "ds",
            MemFamily::Global => "global",
            MemFamily::Flat => "flat",
            MemFamily::Scratch => "scratch",
            MemFamily::Mubuf => "mubuf",
            MemFamily::Mtbuf => "mtbuf",
        }
    }

    /// Parses a comma-separated list of [`MemFamily::name`]s.
    pub fn parse_list(list: &str) -> Result<Vec<MemFamily>, String> {
        list.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                MemFamily::ALL
                    .into_iter()
                    .find(|f| f.name() == s)
                    .ok_or_else(|| {
                        let names: Vec<&str> = MemFamily::ALL.iter().map(|f| f.name()).collect();
                        format!("unknown memory family `{s}` (known: {})", names.join(", "))
                    })
            })
            .collect()
    }

    /// The encoding family of the arch tables.
    pub fn family(self) -> Family {
        match self {
            MemFamily::Smem => Family::Smem,
            MemFamily::Ds => Family::Ds,
            MemFamily::Global => Family::Global,
            MemFamily::Flat => Family::Flat,
            MemFamily::Scratch => Family::Scratch,
            MemFamily::Mubuf => Family::Mubuf,
            MemFamily::Mtbuf => Family::Mtbuf,
        }
    }
}

/// Rows never drawn: the GDS and GWS forms (no GDS in either model, and
/// they synchronise with other agents), and the SMEM time reads and ATC
/// probes (a clocked and a functional model legitimately differ on time;
/// the probes query address translation, which neither models).
pub fn excluded_row(row: &OpInfo) -> bool {
    let m = row.opcode.mnemonic();
    match row.family {
        Family::Ds => m.starts_with("ds_gws_") || row.opcode == Opcode::DS_ORDERED_COUNT,
        Family::Smem => {
            m.starts_with("s_memtime")
                || m.starts_with("s_memrealtime")
                || m.starts_with("s_atc_probe")
        }
        _ => false,
    }
}

/// The gfx1030 rows `family` draws from, in table order.
pub fn rows(family: MemFamily) -> Vec<&'static OpInfo> {
    arch::isa::tables::tables(Isa::Gfx1030)
        .rows
        .iter()
        .filter(|r| r.family == family.family() && !excluded_row(r))
        .collect()
}

/// A VGPR of the pool for a `dwords`-wide operand.
fn vreg(rng: &mut Rng, dwords: u16) -> String {
    let lo = VGPRS.0 + rng.below(u64::from(VGPRS.1 + 1 - VGPRS.0 - (dwords - 1))) as u16;
    if dwords == 1 {
        format!("v{lo}")
    } else {
        format!("v[{lo}:{}]", lo + dwords - 1)
    }
}

/// An SGPR of the pool for a `dwords`-wide destination (aligned as SMEM
/// requires: pairs even, quads a multiple of four).
fn sreg(rng: &mut Rng, dwords: u16) -> String {
    let align = dwords.min(4);
    let first = SGPRS.0.div_ceil(align) * align;
    let last = SGPRS.1 + 1 - dwords;
    let choices = (last - first) / align + 1;
    let lo = first + align * rng.below(u64::from(choices)) as u16;
    if dwords == 1 {
        format!("s{lo}")
    } else {
        format!("s[{lo}:{}]", lo + dwords - 1)
    }
}

/// A byte offset in `[0, room - bytes]`, a multiple of `align`.
fn aligned_offset(rng: &mut Rng, room: u32, bytes: u32, align: u32) -> u32 {
    align * rng.below(u64::from((room - bytes) / align + 1)) as u32
}

/// Bytes one lane's access of `mnemonic` touches (an upper bound for the
/// format forms, whose size the format decides: at most 16 bytes).
fn access_bytes(mnemonic: &str) -> u32 {
    let m = mnemonic;
    if m.contains("format") || m.contains("x4") || m.contains("b128") {
        16
    } else if m.contains("x3") || m.contains("b96") {
        12
    } else if m.contains("x2") || m.contains("64") {
        8
    } else if m.contains("byte") || m.contains("8") {
        1
    } else if m.contains("short") || m.contains("16") {
        2
    } else {
        4
    }
}

/// Natural alignment of an access of `bytes` (12-byte accesses: 4).
fn alignment(bytes: u32) -> u32 {
    if bytes == 12 {
        4
    } else {
        bytes
    }
}

/// Registers (dwords) the operand of `field` spans in `row`, if it has one.
fn dwords_of(row: &OpInfo, field: arch::isa::Field) -> Option<u16> {
    row.operands
        .iter()
        .find(|o| o.field == field)
        .map(|o| u16::from(o.ty.dwords(Target::GFX1030_W32)))
}

/// Random cache bits: each of `glc`, `slc`, `dlc` with probability ½ (the
/// ones `allowed` lists).
fn cache_bits(rng: &mut Rng, allowed: &[&str]) -> String {
    allowed
        .iter()
        .filter(|_| rng.chance(50))
        .map(|b| format!(" {b}"))
        .collect()
}

const VM: &str = "s_waitcnt vmcnt(0)";
const LGKM: &str = "s_waitcnt lgkmcnt(0)";
const VS: &str = "s_waitcnt_vscnt null, 0";

/// One random memory item from any family: the instruction and its wait,
/// as LLVM syntax.
pub fn random_text(rng: &mut Rng) -> Vec<String> {
    random_text_in(rng, &MemFamily::ALL)
}

/// One random memory item from one of `families` (every row of the family
/// equally likely).
pub fn random_text_in(rng: &mut Rng, families: &[MemFamily]) -> Vec<String> {
    let family = families[rng.below(families.len() as u64) as usize];
    let rows = rows(family);
    let row = rows[rng.below(rows.len() as u64) as usize];
    row_text(rng, row)
}

/// A random item of the one table row `row` (its family's operand rules).
pub fn row_text(rng: &mut Rng, row: &OpInfo) -> Vec<String> {
    match row.family {
        Family::Smem => smem(rng, row),
        Family::Ds => ds::text(rng, row),
        Family::Mubuf | Family::Mtbuf => vmem::buffer(rng, row),
        _ => vmem::flat(rng, row),
    }
}

/// SMEM loads from the input region (never stored to).
fn smem(rng: &mut Rng, row: &OpInfo) -> Vec<String> {
    if row.operands.is_empty() {
        // s_gl1_inv, s_dcache_inv: cache invalidates, no data.
        return vec![row.opcode.mnemonic().to_string()];
    }
    let dwords = dwords_of(row, arch::isa::Field::Sdata).unwrap_or(1);
    let off = 4 * rng.below(0x400);
    let d = sreg(rng, dwords.min(16));
    let m = row.opcode.mnemonic();
    // s_buffer_load through the raw descriptor: the same input region.
    let base = if m.starts_with("s_buffer") {
        "s[36:39]"
    } else {
        "s[4:5]"
    };
    vec![format!("{m} {d}, {base}, {off:#x}"), LGKM.into()]
}

/// One random memory item as instructions (see [`random_text`]).
pub fn random(rng: &mut Rng, target: Target) -> Result<Vec<Instruction>, String> {
    assemble_item(&random_text(rng), target)
}

/// One random memory item of `families` as instructions.
pub fn random_in(
    rng: &mut Rng,
    target: Target,
    families: &[MemFamily],
) -> Result<Vec<Instruction>, String> {
    assemble_item(&random_text_in(rng, families), target)
}

/// Assembles an item's lines.
pub fn assemble_item(lines: &[String], target: Target) -> Result<Vec<Instruction>, String> {
    lines
        .iter()
        .map(|line| match assemble_line(target, line) {
            Ok(Some(inst)) => Ok(inst),
            Ok(None) => Err(format!("`{line}`: not an instruction")),
            Err(e) => Err(format!("`{line}`: {e}")),
        })
        .collect()
}
