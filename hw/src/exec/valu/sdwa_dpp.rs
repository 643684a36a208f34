//! The SDWA and DPP transforms: sub-dword source selects and destination
//! merges, and the DPP16/DPP8 lane permutations of `src0`.

use arch::isa::{Instruction, Variant};

use super::{Cx, LaneVals};

/// SDWA source select: byte 0–3 (0–3), word 0–1 (4–5), dword (6), zero- or
/// sign-extended to 32 bits.
pub(crate) fn sdwa_select(x: u32, sel: u8, sext: bool) -> u32 {
    let (shift, bits) = match sel {
        0..=3 => (8 * u32::from(sel), 8),
        4 | 5 => (16 * u32::from(sel - 4), 16),
        _ => return x,
    };
    let field = (x >> shift) & ((1u32 << bits) - 1);
    if sext {
        let up = 32 - bits;
        ((field << up) as i32 >> up) as u32
    } else {
        field
    }
}

/// SDWA destination merge: the low bits of `x` go to the selected field of the
/// register; the rest is zero (`dst_unused` 0), the field's sign (1, above the
/// field; below it zero) or the old value (2).
pub(crate) fn sdwa_dst(x: u32, old: u32, sel: u8, unused: u8) -> u32 {
    let (shift, bits) = match sel {
        0..=3 => (8 * u32::from(sel), 8),
        4 | 5 => (16 * u32::from(sel - 4), 16),
        _ => return x,
    };
    let field_mask = ((1u32 << bits) - 1) << shift;
    let placed = (x << shift) & field_mask;
    match unused {
        2 => old & !field_mask | placed,
        1 => {
            let top = shift + bits;
            let negative = x >> (bits - 1) & 1 != 0;
            if negative && top < 32 {
                placed | !0u32 << top
            } else {
                placed
            }
        }
        _ => placed,
    }
}

/// Lanes a DPP16 instruction may write: its row mask (16-lane rows) and bank
/// mask (4-lane banks within each row).
pub(crate) fn dpp_row_bank_mask(inst: &Instruction, lanes: usize) -> u64 {
    let m = &inst.modifiers;
    let mut mask = 0u64;
    for lane in 0..lanes {
        let row = lane >> 4;
        let bank = (lane >> 2) & 3;
        if m.row_mask >> row & 1 != 0 && m.bank_mask >> bank & 1 != 0 {
            mask |= 1 << lane;
        }
    }
    mask
}

/// The source lane a DPP16 control reads for `lane`, or `None` when it is out
/// of the row.
fn dpp16_source(ctrl: u16, lane: usize) -> Option<usize> {
    let row = lane & !15;
    let i = lane & 15;
    let n = usize::from(ctrl & 15);
    match ctrl {
        0x000..=0x0ff => {
            let q = lane & 3;
            Some((lane & !3) | usize::from(ctrl >> (2 * q) & 3))
        }
        0x101..=0x10f => (i + n < 16).then_some(row + i + n),
        0x111..=0x11f => (i >= n).then(|| row + i - n),
        0x121..=0x12f => Some(row + ((i + 16 - n) & 15)),
        0x140 => Some(row + 15 - i),
        0x141 => Some((lane & !7) + 7 - (lane & 7)),
        0x150..=0x15f => Some(row + n),
        0x160..=0x16f => Some(row + (i ^ n)),
        _ => None,
    }
}

/// Permutes `vals` (src0 of every lane) as the instruction's DPP16 or DPP8
/// controls say. Returns the lanes that may still be written: a lane whose
/// source is out of range or inactive (without `fi`) is dropped unless
/// `bound_ctrl` makes it read zero.
pub(crate) fn dpp_permute(cx: &Cx<'_>, vals: &mut LaneVals) -> u64 {
    let m = &cx.inst.modifiers;
    let src = *vals;
    let mut ok = cx.all();
    for lane in 0..cx.lanes {
        let from = match cx.inst.variant {
            Variant::Dpp8 => Some((lane & !7) | (m.dpp8 >> (3 * (lane & 7)) & 7) as usize),
            _ => dpp16_source(m.dpp_ctrl & 0x1ff, lane),
        };
        let valid = match from {
            Some(f) if f < cx.lanes => m.fi || cx.exec >> f & 1 != 0,
            _ => false,
        };
        match from {
            Some(f) if valid => vals[lane] = src[f],
            _ => {
                vals[lane] = 0;
                // DPP8 has no bound_ctrl: a disabled source reads zero.
                if cx.inst.variant == Variant::Dpp16 && !m.bound_ctrl {
                    ok &= !(1 << lane);
                }
            }
        }
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_bytes_and_words() {
        let x = 0x8a7b_f1c2u32;
        assert_eq!(sdwa_select(x, 0, false), 0xc2);
        assert_eq!(sdwa_select(x, 0, true), 0xffff_ffc2);
        assert_eq!(sdwa_select(x, 2, true), 0x7b);
        assert_eq!(sdwa_select(x, 5, true), 0xffff_8a7b);
        assert_eq!(sdwa_select(x, 4, false), 0xf1c2);
        assert_eq!(sdwa_select(x, 6, true), x);
    }

    #[test]
    fn destination_merges() {
        assert_eq!(sdwa_dst(0x1ff, 0xaabb_ccdd, 1, 2), 0xaabb_ffdd);
        assert_eq!(sdwa_dst(0x1ff, 0xaabb_ccdd, 1, 0), 0x0000_ff00);
        assert_eq!(sdwa_dst(0x80, 0, 1, 1), 0xffff_8000);
        assert_eq!(sdwa_dst(0x7f, 0, 1, 1), 0x0000_7f00);
        assert_eq!(sdwa_dst(0x8001, 0xffff_ffff, 5, 1), 0x8001_0000);
    }

    #[test]
    fn dpp16_controls() {
        assert_eq!(dpp16_source(0x1b, 5), Some(6)); // quad_perm [3,2,1,0]
        assert_eq!(dpp16_source(0x101, 15), None); // row_shl:1 at row end
        assert_eq!(dpp16_source(0x101, 14), Some(15));
        assert_eq!(dpp16_source(0x111, 16), None); // row_shr:1 at row start
        assert_eq!(dpp16_source(0x121, 16), Some(31)); // row_ror:1
        assert_eq!(dpp16_source(0x140, 17), Some(30)); // row_mirror
        assert_eq!(dpp16_source(0x141, 9), Some(14)); // row_half_mirror
        assert_eq!(dpp16_source(0x153, 40), Some(35)); // row_share:3
        assert_eq!(dpp16_source(0x165, 33), Some(36)); // row_xmask:5
    }
}
