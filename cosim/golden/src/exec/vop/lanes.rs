//! SDWA byte/word selects and DPP lane permutes.

use arch::isa::{Instruction, Isa, Variant};

/// SDWA source select: `sel` 0–3 = BYTE_0..3, 4–5 = WORD_0..1, 6 = DWORD;
/// the field is zero- or (`sext`) sign-extended.
#[inline]
pub fn sdwa_select(v: u32, sel: u8, sext: bool) -> u32 {
    let (shift, width) = match sel {
        0..=3 => (8 * u32::from(sel), 8),
        4 | 5 => (16 * u32::from(sel - 4), 16),
        _ => return v,
    };
    let field = (v >> shift) & ((1 << width) - 1);
    if sext {
        (((field << (32 - width)) as i32) >> (32 - width)) as u32
    } else {
        field
    }
}

/// SDWA destination: the low `8`/`16` bits of `r` go to the field `sel`
/// names; the other bits are zero (`dst_unused` 0, UNUSED_PAD), the field's
/// sign above it and zero below (1, UNUSED_SEXT), or `old`'s (2, UNUSED_PRESERVE).
#[inline]
pub fn sdwa_dst(old: u32, r: u32, sel: u8, unused: u8) -> u32 {
    let (shift, width) = match sel {
        0..=3 => (8 * u32::from(sel), 8),
        4 | 5 => (16 * u32::from(sel - 4), 16),
        _ => return r,
    };
    let low = (1u32 << width) - 1;
    let field = (r & low) << shift;
    match unused {
        1 => {
            let negative = r >> (width - 1) & 1 != 0;
            let above = if negative {
                u32::MAX.checked_shl(shift + width).unwrap_or(0)
            } else {
                0
            };
            field | above
        }
        2 => (old & !(low << shift)) | field,
        _ => field,
    }
}

/// Where lane `l` reads from under DPP16 control `ctrl`, if anywhere.
fn dpp16_source(isa: Isa, ctrl: u16, l: usize, lanes: usize) -> Option<usize> {
    let row = l & !15;
    let i = l & 15;
    let n = usize::from(ctrl & 15);
    match ctrl {
        0x000..=0x0ff => Some((l & !3) | usize::from(ctrl >> (2 * (l & 3)) & 3)),
        0x101..=0x10f => (i + n < 16).then_some(l + n),
        0x111..=0x11f => (i >= n).then(|| l - n),
        0x121..=0x12f => Some(row + ((i + 16 - n) & 15)),
        0x130 if isa == Isa::Gfx803 => (l + 1 < lanes).then_some(l + 1),
        0x134 if isa == Isa::Gfx803 => Some((l + 1) % lanes),
        0x138 if isa == Isa::Gfx803 => l.checked_sub(1),
        0x13c if isa == Isa::Gfx803 => Some((l + lanes - 1) % lanes),
        0x140 => Some(row + 15 - i),
        0x141 => Some((l & !7) + 7 - (l & 7)),
        0x142 if isa == Isa::Gfx803 => (row >= 16).then(|| row - 1),
        0x143 if isa == Isa::Gfx803 => (l >= 32).then_some(31),
        0x150..=0x15f if isa == Isa::Gfx1030 => Some(row + n),
        0x160..=0x16f if isa == Isa::Gfx1030 => Some(row + (i ^ n)),
        _ => None,
    }
}

/// Permutes `v` (src0 of a DPP instruction) in place and returns the mask of
/// lanes that may write: the row and bank masks, minus lanes whose source is
/// invalid (or inactive, without `fi`) when `bound_ctrl` does not turn such a
/// read into 0. DPP8 reads 0 from an inactive lane without `fi`.
pub fn dpp(inst: &Instruction, v: &mut [u32; 64], exec: u64) -> u64 {
    let m = inst.modifiers;
    let isa = inst.target.isa;
    let lanes = inst.target.wave_size() as usize;
    let src = *v;
    let mut writable = 0u64;
    if inst.variant == Variant::Dpp8 {
        for (l, x) in v.iter_mut().enumerate().take(lanes) {
            let s = (l & !7) | (m.dpp8 >> (3 * (l & 7)) & 7) as usize;
            *x = if exec >> s & 1 != 0 || m.fi {
                src[s]
            } else {
                0
            };
        }
        return u64::MAX;
    }
    for (l, x) in v.iter_mut().enumerate().take(lanes) {
        let row_on = m.row_mask >> (l / 16) & 1 != 0;
        let bank_on = m.bank_mask >> ((l >> 2) & 3) & 1 != 0;
        if !row_on || !bank_on {
            continue;
        }
        let source = dpp16_source(isa, m.dpp_ctrl & 0x1ff, l, lanes)
            .filter(|&s| s < lanes && (exec >> s & 1 != 0 || m.fi));
        match source {
            Some(s) => {
                *x = src[s];
                writable |= 1 << l;
            }
            None if m.bound_ctrl => {
                *x = 0;
                writable |= 1 << l;
            }
            None => {}
        }
    }
    writable
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sdwa_selects_and_destinations() {
        assert_eq!(sdwa_select(0x8180_7f01, 1, false), 0x7f);
        assert_eq!(sdwa_select(0x8180_7f01, 3, true), 0xffff_ff81);
        assert_eq!(sdwa_select(0x8180_7f01, 5, true), 0xffff_8180);
        assert_eq!(sdwa_select(0x8180_7f01, 4, false), 0x7f01);
        assert_eq!(sdwa_dst(0xaabb_ccdd, 0x1234_5680, 1, 0), 0x0000_8000);
        assert_eq!(sdwa_dst(0xaabb_ccdd, 0x1234_5680, 1, 1), 0xffff_8000);
        assert_eq!(sdwa_dst(0xaabb_ccdd, 0x1234_5680, 1, 2), 0xaabb_80dd);
        assert_eq!(sdwa_dst(0xaabb_ccdd, 0x1234_8680, 5, 1), 0x8680_0000);
        assert_eq!(sdwa_dst(0xaabb_ccdd, 0x1234_5680, 6, 2), 0x1234_5680);
    }

    #[test]
    fn dpp16_sources() {
        let g = Isa::Gfx1030;
        // quad_perm:[3,2,1,0]
        assert_eq!(dpp16_source(g, 0x1b, 5, 32), Some(6));
        assert_eq!(dpp16_source(g, 0x111, 16, 32), None);
        assert_eq!(dpp16_source(g, 0x111, 17, 32), Some(16));
        assert_eq!(dpp16_source(g, 0x101, 15, 32), None);
        assert_eq!(dpp16_source(g, 0x121, 16, 32), Some(31));
        assert_eq!(dpp16_source(g, 0x140, 17, 32), Some(30));
        assert_eq!(dpp16_source(g, 0x141, 9, 32), Some(14));
        assert_eq!(dpp16_source(g, 0x153, 20, 32), Some(19));
        assert_eq!(dpp16_source(g, 0x161, 20, 32), Some(21));
        assert_eq!(dpp16_source(Isa::Gfx803, 0x142, 20, 64), Some(15));
        assert_eq!(dpp16_source(Isa::Gfx803, 0x143, 40, 64), Some(31));
        assert_eq!(dpp16_source(Isa::Gfx803, 0x138, 0, 64), None);
    }
}
