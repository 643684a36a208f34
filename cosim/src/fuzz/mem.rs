//! Random memory instructions for the random programs: SMEM loads, LDS
//! reads/writes/atomics and GLOBAL loads/stores/atomics, each with the wait
//! that makes its result architecturally visible, at addresses that stay
//! inside what the program maps.
//!
//! Addresses (set by the prologue, [`super::Program::code`]):
//! * `v30` = lane × 128: the lane's slice of the input region of the data
//!   buffer (read-only here: SMEM reads it too, and the scalar cache must not
//!   see a vector store);
//! * `v28` = `v30` + [`SCRATCH`]: the lane's slice of the scratch region,
//!   the only one random stores and atomics write;
//! * `v27` = lane × 16: the lane's 16 bytes of LDS ([`LDS_BYTES`] in all);
//! * `s[36:39]` = [`BUFFER_DESCRIPTOR`] over the whole data buffer, for the
//!   MUBUF forms (`offen`: the same lane slices as the GLOBAL forms).
//!
//! Every lane touches only its own slice, so no two lanes of one
//! instruction write one address (which lane wins would be the models'
//! choice, not the ISA's). A load is followed by `s_waitcnt vmcnt(0)` or
//! `lgkmcnt(0)`, a store by `s_waitcnt_vscnt null, 0`, in the same
//! [`super::Item::Mem`], so the shrinker never separates them: reading a
//! load's destination before its wait is a program error on hardware, not
//! a model disagreement.

use arch::isa::asm::assemble_line;
use arch::isa::{Instruction, Target};

use super::gen::{Rng, SGPRS, VGPRS};

/// Offset of the scratch region in the data buffer (stores and atomics).
pub const SCRATCH: u32 = 0x6000;
/// LDS bytes the program allocates (16 per lane of a wave64).
pub const LDS_BYTES: u32 = 1024;

/// Dword 3 of the buffer descriptor in `s[36:39]` (gfx10): DST_SEL_XYZW,
/// FORMAT = 32_FLOAT, RESOURCE_LEVEL = 1, OOB_SELECT = 3 (raw: bounds
/// checked against NUM_RECORDS bytes), as Mesa builds raw buffers.
pub const BUFFER_DESCRIPTOR: u32 = 0x3101_6fac;

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

/// A byte offset inside a lane's 128-byte slice for a `bytes`-wide access.
fn slice_offset(rng: &mut Rng, bytes: u32) -> u32 {
    bytes * rng.below(u64::from(128 / bytes)) as u32
}

/// One random memory item: the instruction and its wait, as LLVM syntax.
pub fn random_text(rng: &mut Rng) -> Vec<String> {
    const VM: &str = "s_waitcnt vmcnt(0)";
    const LGKM: &str = "s_waitcnt lgkmcnt(0)";
    const VS: &str = "s_waitcnt_vscnt null, 0";
    let lines: Vec<String> = match rng.below(19) {
        // MUBUF loads and stores through the descriptor (lane slices).
        16..=18 => {
            let base = if rng.chance(50) { "v30" } else { "v28" };
            match rng.below(4) {
                0 => {
                    let off = slice_offset(rng, 4);
                    let d = vreg(rng, 1);
                    vec![
                        format!("buffer_load_dword {d}, {base}, s[36:39], 0 offen offset:{off}"),
                        VM.into(),
                    ]
                }
                1 => {
                    let off = slice_offset(rng, 8);
                    let d = vreg(rng, 2);
                    vec![
                        format!("buffer_load_dwordx2 {d}, {base}, s[36:39], 0 offen offset:{off}"),
                        VM.into(),
                    ]
                }
                2 => {
                    let off = slice_offset(rng, 2);
                    let d = vreg(rng, 1);
                    vec![
                        format!("buffer_load_ushort {d}, {base}, s[36:39], 0 offen offset:{off}"),
                        VM.into(),
                    ]
                }
                _ => {
                    let off = slice_offset(rng, 4);
                    let s = vreg(rng, 1);
                    vec![
                        format!("buffer_store_dword {s}, v28, s[36:39], 0 offen offset:{off}"),
                        VS.into(),
                    ]
                }
            }
        }
        // GLOBAL loads from the input or the scratch slice.
        0..=3 => {
            let (op, dwords, bytes) = [
                ("global_load_dword", 1, 4),
                ("global_load_dwordx2", 2, 8),
                ("global_load_dwordx4", 4, 16),
                ("global_load_ubyte", 1, 1),
                ("global_load_sshort", 1, 2),
                ("global_load_short_d16_hi", 1, 2),
                ("global_load_sbyte_d16", 1, 1),
            ][rng.below(7) as usize];
            let base = if rng.chance(50) { "v30" } else { "v28" };
            let off = slice_offset(rng, bytes);
            let d = vreg(rng, dwords);
            vec![format!("{op} {d}, {base}, s[4:5] offset:{off}"), VM.into()]
        }
        // GLOBAL stores to the scratch slice.
        4..=6 => {
            let (op, dwords, bytes) = [
                ("global_store_dword", 1, 4),
                ("global_store_dwordx2", 2, 8),
                ("global_store_byte", 1, 1),
                ("global_store_short_d16_hi", 1, 2),
            ][rng.below(4) as usize];
            let off = slice_offset(rng, bytes);
            let s = vreg(rng, dwords);
            vec![format!("{op} v28, {s}, s[4:5] offset:{off}"), VS.into()]
        }
        // GLOBAL atomics on the scratch slice, with or without the old value.
        7 | 8 => {
            let op = ["add", "smax", "umin", "xor", "swap", "inc"][rng.below(6) as usize];
            let off = slice_offset(rng, 4);
            let s = vreg(rng, 1);
            if rng.chance(50) {
                let d = vreg(rng, 1);
                vec![
                    format!("global_atomic_{op} {d}, v28, {s}, s[4:5] offset:{off} glc"),
                    VM.into(),
                ]
            } else {
                vec![
                    format!("global_atomic_{op} v28, {s}, s[4:5] offset:{off}"),
                    VS.into(),
                ]
            }
        }
        // LDS: the lane's 16 bytes.
        9..=12 => {
            let off4 = 4 * rng.below(4);
            let off8 = 8 * rng.below(2);
            let line = match rng.below(6) {
                0 => format!("ds_write_b32 v27, {} offset:{off4}", vreg(rng, 1)),
                1 => format!("ds_read_b32 {}, v27 offset:{off4}", vreg(rng, 1)),
                2 => format!("ds_write_b64 v27, {} offset:{off8}", vreg(rng, 2)),
                3 => format!("ds_read_b64 {}, v27 offset:{off8}", vreg(rng, 2)),
                4 => format!("ds_add_u32 v27, {} offset:{off4}", vreg(rng, 1)),
                _ => {
                    let d = vreg(rng, 1);
                    format!("ds_max_rtn_i32 {d}, v27, {} offset:{off4}", vreg(rng, 1))
                }
            };
            vec![line, LGKM.into()]
        }
        // SMEM loads from the input region (never stored to).
        _ => {
            let dwords = [1u16, 2, 4][rng.below(3) as usize];
            let op = match dwords {
                1 => "s_load_dword",
                2 => "s_load_dwordx2",
                _ => "s_load_dwordx4",
            };
            let off = 4 * rng.below(0x400);
            let d = sreg(rng, dwords);
            vec![format!("{op} {d}, s[4:5], {off:#x}"), LGKM.into()]
        }
    };
    lines
}

/// One random memory item as instructions (see [`random_text`]).
pub fn random(rng: &mut Rng, target: Target) -> Result<Vec<Instruction>, String> {
    random_text(rng)
        .iter()
        .map(|line| match assemble_line(target, line) {
            Ok(Some(inst)) => Ok(inst),
            Ok(None) => Err(format!("`{line}`: not an instruction")),
            Err(e) => Err(format!("`{line}`: {e}")),
        })
        .collect()
}
