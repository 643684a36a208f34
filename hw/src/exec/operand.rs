//! Source operand fetch: scalar registers, inline constants, literals and VGPR
//! lanes, as the operand-read stage of the pipeline delivers them. One reader
//! for every family, so an inline-constant rule lives in one place.

use arch::device::{FaultKind, PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE};
use arch::isa::{Operand, OperandType};

use super::{ScalarState, Vgprs, MAX_LANES};

/// Source codes of the special constants (gfx1030).
mod special {
    pub const SHARED_BASE: u16 = 235;
    pub const SHARED_LIMIT: u16 = 236;
    pub const PRIVATE_BASE: u16 = 237;
    pub const PRIVATE_LIMIT: u16 = 238;
    pub const POPS_EXITING_WAVE_ID: u16 = 239;
    pub const VCCZ: u16 = 251;
    pub const EXECZ: u16 = 252;
    pub const SCC: u16 = 253;
}

/// The value of inline constant `code` (128–208, 240–248) read as `ty`, 64 bits
/// wide (a 32-bit read takes the low dword; a 16-bit read takes the low half
/// of the 32-bit integer constants, or the f16 float constant).
pub fn inline_constant(code: u16, ty: OperandType) -> Option<u64> {
    let bits = ty.element_bits();
    let int = match code {
        128..=192 => Some(i64::from(code - 128)),
        193..=208 => Some(-(i64::from(code - 192))),
        _ => None,
    };
    if let Some(i) = int {
        // An integer constant is a 32-bit value for 16-bit operands too: a
        // 16-bit read takes its low half, and op_sel's high half of -1 is
        // 0xffff, not 0 (as on the golden GPU; issue 14).
        return Some(match bits {
            16 | 32 => (i as u64) & 0xffff_ffff,
            _ => i as u64,
        });
    }
    // 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 1/(2π)
    const F16: [u64; 9] = [
        0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
    ];
    const F32: [u64; 9] = [
        0x3f00_0000,
        0xbf00_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x4000_0000,
        0xc000_0000,
        0x4080_0000,
        0xc080_0000,
        0x3e22_f983,
    ];
    const F64: [u64; 9] = [
        0x3fe0_0000_0000_0000,
        0xbfe0_0000_0000_0000,
        0x3ff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0x4000_0000_0000_0000,
        0xc000_0000_0000_0000,
        0x4010_0000_0000_0000,
        0xc010_0000_0000_0000,
        0x3fc4_5f30_6dc9_c882,
    ];
    let i = match code {
        240..=248 => usize::from(code - 240),
        _ => return None,
    };
    Some(match bits {
        16 => F16[i],
        32 => F32[i],
        _ => F64[i],
    })
}

/// Reads a scalar (uniform) operand: an SGPR range, a special, an inline
/// constant or a literal, `ty.dwords()` dwords wide (at most 2 here; wider SGPR
/// ranges are read with [`sgpr_range`]). A VGPR operand is an error.
pub fn scalar(op: &Operand, s: &ScalarState, v: &Vgprs<'_>) -> Result<u64, FaultKind> {
    match *op {
        Operand::Literal { value, ty } => Ok(match ty {
            OperandType::F64 => u64::from(value) << 32,
            _ => u64::from(value),
        }),
        Operand::Src { code, ty } => scalar_code(code, ty, s, v.wave64),
        Operand::Off => Ok(0),
    }
}

fn scalar_code(
    code: u16,
    ty: OperandType,
    s: &ScalarState,
    wave64: bool,
) -> Result<u64, FaultKind> {
    let two = ty.dwords(if wave64 {
        arch::isa::Target::GFX1030_W64
    } else {
        arch::isa::Target::GFX1030_W32
    }) >= 2;
    match code {
        0..=127 => {
            let lo = u64::from(s.sgpr[usize::from(code)]);
            if two {
                let hi = s.sgpr.get(usize::from(code) + 1).copied().unwrap_or(0);
                Ok(lo | u64::from(hi) << 32)
            } else {
                Ok(lo)
            }
        }
        // A lane mask in wave64 is 64 bits wide: -1 means every lane.
        128..=208 | 240..=248 if ty == OperandType::LaneMask && wave64 => {
            Ok(inline_constant(code, OperandType::B64).unwrap_or(0))
        }
        128..=208 | 240..=248 => Ok(inline_constant(code, ty).unwrap_or(0)),
        special::SHARED_BASE => Ok(if two { SHARED_APERTURE_BASE } else { 0 }),
        special::SHARED_LIMIT => Ok(if two {
            SHARED_APERTURE_BASE + 0xffff_ffff
        } else {
            0xffff_ffff
        }),
        special::PRIVATE_BASE => Ok(if two { PRIVATE_APERTURE_BASE } else { 0 }),
        special::PRIVATE_LIMIT => Ok(if two {
            PRIVATE_APERTURE_BASE + 0xffff_ffff
        } else {
            0xffff_ffff
        }),
        special::POPS_EXITING_WAVE_ID => Ok(0),
        special::VCCZ => Ok(u64::from(masked(s.vcc(), wave64) == 0)),
        special::EXECZ => Ok(u64::from(masked(s.exec(), wave64) == 0)),
        special::SCC => Ok(u64::from(s.scc)),
        _ => Err(FaultKind::IllegalInstruction {
            reason: format!("source code {code} cannot be read as a scalar operand"),
        }),
    }
}

/// `mask` limited to the wave's lanes.
#[inline]
pub fn masked(mask: u64, wave64: bool) -> u64 {
    if wave64 {
        mask
    } else {
        mask & 0xffff_ffff
    }
}

/// Reads `n` consecutive SGPRs starting at source code `code` (SMEM bases,
/// buffer resources).
pub fn sgpr_range<const N: usize>(code: u16, s: &ScalarState) -> Result<[u32; N], FaultKind> {
    let start = usize::from(code);
    if start + N > 128 {
        return Err(FaultKind::IllegalInstruction {
            reason: format!(
                "scalar register range s[{start}:{}] is out of range",
                start + N - 1
            ),
        });
    }
    let mut out = [0u32; N];
    out.copy_from_slice(&s.sgpr[start..start + N]);
    Ok(out)
}

/// Reads a vector operand's dword `dword` (0 for 32-bit, 0–1 for 64-bit, ...)
/// for every lane: VGPRs per lane, anything else broadcast. Lanes past the
/// wave size read 0.
pub fn vector_dword(
    op: &Operand,
    dword: u16,
    s: &ScalarState,
    v: &Vgprs<'_>,
) -> Result<[u32; MAX_LANES], FaultKind> {
    let mut out = [0u32; MAX_LANES];
    let lanes = if v.wave64 { 64 } else { 32 };
    match *op {
        Operand::Src { code, .. } if code >= 256 => {
            let reg = usize::from(code - 256 + dword);
            if reg >= v.count() {
                return Err(vgpr_out_of_range(reg, v));
            }
            for (lane, o) in out.iter_mut().enumerate().take(lanes) {
                *o = v.get(reg, lane).unwrap_or(0);
            }
        }
        _ => {
            let value = scalar(op, s, v)?;
            let d = (value >> (32 * u32::from(dword.min(1)))) as u32;
            let d = if dword > 1 { 0 } else { d };
            out[..lanes].fill(d);
        }
    }
    Ok(out)
}

/// Reads a 64-bit vector operand (a VGPR pair, or a broadcast 64-bit scalar).
pub fn vector_u64(
    op: &Operand,
    s: &ScalarState,
    v: &Vgprs<'_>,
) -> Result<[u64; MAX_LANES], FaultKind> {
    let lo = vector_dword(op, 0, s, v)?;
    let mut out = [0u64; MAX_LANES];
    match *op {
        Operand::Src { code, .. } if code >= 256 => {
            let hi = vector_dword(op, 1, s, v)?;
            for i in 0..MAX_LANES {
                out[i] = u64::from(lo[i]) | u64::from(hi[i]) << 32;
            }
        }
        _ => {
            let value = scalar(op, s, v)?;
            out.fill(value);
        }
    }
    Ok(out)
}

/// The fault for a VGPR beyond the wave's allocation.
pub fn vgpr_out_of_range(reg: usize, v: &Vgprs<'_>) -> FaultKind {
    FaultKind::IllegalInstruction {
        reason: format!(
            "v{reg} is beyond the wave's allocation of {} VGPRs",
            v.count()
        ),
    }
}

/// The VGPR number of a VGPR operand.
pub fn vgpr_index(op: &Operand) -> Option<u16> {
    match *op {
        Operand::Src { code, .. } if code >= 256 => Some(code - 256),
        _ => None,
    }
}

/// The SGPR source code of a scalar destination operand.
pub fn sgpr_code(op: &Operand) -> Option<u8> {
    match *op {
        Operand::Src { code, .. } if code < 128 => Some(code as u8),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_lane_mask_constants_cover_all_lanes_of_the_wave() {
        let s = ScalarState::new();
        let rows = [[0u32; 32]; 0];
        let minus_one = Operand::Src {
            code: 193,
            ty: OperandType::LaneMask,
        };
        let w64 = Vgprs {
            rows: &rows,
            wave64: true,
        };
        let w32 = Vgprs {
            rows: &rows,
            wave64: false,
        };
        assert_eq!(scalar(&minus_one, &s, &w64), Ok(u64::MAX));
        assert_eq!(scalar(&minus_one, &s, &w32), Ok(0xffff_ffff));
    }
}
