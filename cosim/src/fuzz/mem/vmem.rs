//! The vector memory rows: MUBUF and MTBUF through the buffer descriptors,
//! FLAT, GLOBAL and SCRATCH (see the module above for the registers the
//! prologue sets).

use arch::isa::{Family, Field, OpInfo};

use super::{
    access_bytes, aligned_offset, alignment, cache_bits, descriptor_with_format, dwords_of, vreg,
    PRIVATE_BYTES, VM, VS,
};
use crate::fuzz::gen::Rng;

/// What an instruction does to memory.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Load,
    Store,
    /// An atomic; `true` when it returns the old value (`glc`).
    Atomic(bool),
}

impl Kind {
    fn of(rng: &mut Rng, mnemonic: &str) -> Kind {
        if mnemonic.contains("_atomic_") {
            Kind::Atomic(rng.chance(50))
        } else if mnemonic.contains("store") {
            Kind::Store
        } else {
            Kind::Load
        }
    }

    fn writes(self) -> bool {
        self != Kind::Load
    }

    /// The wait that makes the access visible (returned data or memory).
    fn wait(self) -> &'static str {
        match self {
            Kind::Load | Kind::Atomic(true) => VM,
            Kind::Store | Kind::Atomic(false) => VS,
        }
    }

    /// The cache bits: random, with `glc` forced to mean "return" on atomics
    /// (which have no `dlc`).
    fn cache(self, rng: &mut Rng) -> String {
        match self {
            Kind::Atomic(ret) => {
                let glc = if ret { " glc" } else { "" };
                format!("{glc}{}", cache_bits(rng, &["slc"]))
            }
            _ => cache_bits(rng, &["glc", "slc", "dlc"]),
        }
    }
}

/// A MUBUF or MTBUF row: vdata, an addressing form that reaches the lane's
/// slice (writes: the scratch region), soffset, the instruction offset
/// inside the slice, random cache bits; MTBUF a random unified format, the
/// MUBUF format forms a random format in the strided descriptor's dword 3.
pub fn buffer(rng: &mut Rng, row: &OpInfo) -> Vec<String> {
    let m = row.opcode.mnemonic();
    if row.operands.is_empty() {
        // buffer_gl0_inv, buffer_gl1_inv: cache invalidates, no data.
        return vec![m.to_string()];
    }
    let kind = Kind::of(rng, m);
    let bytes = access_bytes(m);
    let format_op = m.contains("format");
    let mut lines = Vec::new();
    // Valid gfx10 unified formats are 1..=77 (BUF_FMT_8_UNORM ..
    // BUF_FMT_32_32_32_32_FLOAT).
    let format = 1 + rng.below(77) as u8;
    if format_op && row.family == Family::Mubuf {
        lines.push(format!(
            "s_mov_b32 s43, {:#x}",
            descriptor_with_format(format)
        ));
    }
    let raw = if format_op && row.family == Family::Mubuf {
        "s[40:43]"
    } else {
        "s[36:39]"
    };
    // (vaddr, descriptor, soffset, addressing bits), all reaching the lane's
    // 128-byte slice of the scratch region or (loads) the input region.
    let forms = if kind.writes() { 4 } else { 6 };
    let (vaddr, rsrc, soffset, mode) = match rng.below(forms) {
        0 => ("v28", raw, "0", " offen"),
        1 => ("v30", raw, "s44", " offen"),
        2 => ("v[33:34]", "s[40:43]", "0", " idxen offen"),
        3 => ("v33", "s[40:43]", "s44", " idxen"),
        4 => ("v30", raw, "0", " offen"),
        // Loads only: every lane reads one address (no write, no race).
        _ => ("off", raw, "0", ""),
    };
    let vdata_dwords = dwords_of(row, Field::Vdata).unwrap_or(1);
    let vdata = vreg(rng, vdata_dwords);
    let off = aligned_offset(rng, 128, bytes, alignment(bytes));
    let fmt = if row.family == Family::Mtbuf {
        format!(" format:{format}")
    } else {
        String::new()
    };
    let cache = kind.cache(rng);
    lines.push(format!(
        "{m} {vdata}, {vaddr}, {rsrc}, {soffset}{fmt}{mode} offset:{off}{cache}"
    ));
    lines.push(kind.wait().into());
    lines
}

/// A FLAT, GLOBAL or SCRATCH row: an address form inside the lane's slice
/// (FLAT and GLOBAL: the data buffer's input or, for writes, scratch
/// region; SCRATCH: the lane's private segment), random cache bits.
pub fn flat(rng: &mut Rng, row: &OpInfo) -> Vec<String> {
    let m = row.opcode.mnemonic();
    let kind = Kind::of(rng, m);
    let bytes = access_bytes(m);
    let align = alignment(bytes);
    let data_dwords = dwords_of(row, Field::Vdata).unwrap_or(1);
    let data = match kind {
        Kind::Load => String::new(),
        _ => format!(", {}", vreg(rng, data_dwords)),
    };
    let dst = match kind {
        Kind::Load => format!("{}, ", vreg(rng, dwords_of(row, Field::Vdst).unwrap_or(1))),
        Kind::Atomic(true) => {
            // cmpswap's data is {src, cmp}; it returns one value.
            let d = if m.contains("cmpswap") {
                data_dwords / 2
            } else {
                data_dwords
            };
            format!("{}, ", vreg(rng, d))
        }
        _ => String::new(),
    };
    let cache = kind.cache(rng);
    let (addr, off) = match row.family {
        Family::Flat => {
            let pair = if kind.writes() || rng.chance(50) {
                "v[37:38]"
            } else {
                "v[35:36]"
            };
            (
                pair.to_string(),
                aligned_offset(rng, 128, bytes, align) as i32,
            )
        }
        Family::Scratch => scratch_address(rng, bytes, align),
        _ if m.contains("addtid") => {
            // saddr + 4 × lane + offset: each lane its own dword.
            if kind.writes() {
                let off = 256 * rng.below(8) as i32;
                ("s[48:49]".into(), off)
            } else {
                ("s[4:5]".into(), 4 * rng.below(512) as i32)
            }
        }
        _ => global_address(rng, kind.writes(), bytes, align),
    };
    // `addr` is "vaddr" (FLAT), "vaddr, saddr" (GLOBAL, SCRATCH) or
    // "saddr" (addtid); data goes between vaddr and saddr.
    let line = match addr.split_once(", ") {
        Some((v, s)) => format!("{m} {dst}{v}{data}, {s} offset:{off}{cache}"),
        None if m.contains("addtid") => {
            let d = data.trim_start_matches(", ");
            let d = if d.is_empty() {
                dst.trim_end_matches(", ")
            } else {
                d
            };
            format!("{m} {d}, {addr} offset:{off}{cache}")
        }
        None => format!("{m} {dst}{addr}{data} offset:{off}{cache}"),
    };
    vec![line, kind.wait().into()]
}

/// A GLOBAL `vaddr, saddr` and offset inside the lane's slice.
fn global_address(rng: &mut Rng, writes: bool, bytes: u32, align: u32) -> (String, i32) {
    match rng.below(3) {
        0 => {
            let v = if writes || rng.chance(50) {
                "v28"
            } else {
                "v30"
            };
            let off = aligned_offset(rng, 128, bytes, align) as i32;
            (format!("{v}, s[4:5]"), off)
        }
        1 => {
            // s[46:47] is 128 bytes past the scratch region's start:
            // negative offsets reach back into the lane's slice.
            let off = aligned_offset(rng, 128, bytes, align) as i32 - 128;
            ("v30, s[46:47]".into(), off)
        }
        _ => {
            let v = if writes || rng.chance(50) {
                "v[37:38]"
            } else {
                "v[35:36]"
            };
            let off = aligned_offset(rng, 128, bytes, align) as i32;
            (format!("{v}, off"), off)
        }
    }
}

/// A SCRATCH `vaddr, saddr` (`v39` ≤ 192, `s45` = 128, or neither) and an
/// offset that keeps the access inside the lane's private segment.
fn scratch_address(rng: &mut Rng, bytes: u32, align: u32) -> (String, i32) {
    match rng.below(3) {
        0 => {
            let off = aligned_offset(rng, PRIVATE_BYTES - 192, bytes, align) as i32;
            ("v39, off".into(), off)
        }
        1 => {
            let off = aligned_offset(rng, PRIVATE_BYTES, bytes, align) as i32 - 128;
            ("off, s45".into(), off)
        }
        _ => {
            let off = aligned_offset(rng, PRIVATE_BYTES, bytes, align) as i32;
            ("off, off".into(), off)
        }
    }
}
