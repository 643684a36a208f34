//! Typed-buffer data formats (MTBUF's `format:` field, and the V#'s format for
//! MUBUF `buffer_*_format_*`).
//!
//! Only the formats whose components are 32 bits wide are modelled: their
//! data moves unconverted whatever the numeric format (UINT, SINT, FLOAT). Any
//! other format is reported as not implemented by the caller.
//!
//! Encodings: gfx803 packs `DATA_FORMAT` (4 bits) and `NUM_FORMAT` (3 bits) as
//! `dfmt | nfmt << 4` (the MTBUF field order; the V# is converted to it);
//! gfx1030 has one 7-bit unified format (`BUF_FMT_*`, values checked against
//! `llvm-mc-19 -mcpu=gfx1030`).

use arch::isa::Isa;

/// A format with 32-bit components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format32 {
    /// Number of components in memory (1–4).
    pub components: u8,
    /// FLOAT numeric format (the default W component is 1.0 instead of 1).
    pub float: bool,
}

impl Format32 {
    /// The value of component `i` that memory does not hold: 0 for X/Y/Z, one
    /// for W (AMD's default fill).
    pub fn default_component(self, i: usize) -> u32 {
        match (i, self.float) {
            (3, true) => 1.0f32.to_bits(),
            (3, false) => 1,
            _ => 0,
        }
    }
}

/// Decodes `format` on `isa`; `None` for a format without 32-bit components.
pub fn decode(isa: Isa, format: u8) -> Option<Format32> {
    match isa {
        Isa::Gfx803 => {
            let dfmt = format & 0xf;
            let nfmt = format >> 4 & 7;
            let components = match dfmt {
                4 => 1,
                11 => 2,
                13 => 3,
                14 => 4,
                _ => return None,
            };
            // UINT (4), SINT (5), FLOAT (7): the only numeric formats LLVM allows with 32-bit data.
            if !matches!(nfmt, 4 | 5 | 7) {
                return None;
            }
            Some(Format32 {
                components,
                float: nfmt == 7,
            })
        }
        Isa::Gfx1030 => {
            let (components, first) = match format {
                20..=22 => (1, 20),
                62..=64 => (2, 62),
                72..=74 => (3, 72),
                75..=77 => (4, 75),
                _ => return None,
            };
            Some(Format32 {
                components,
                float: format - first == 2,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_decode_as_llvm_encodes_them() {
        // gfx803 [BUF_DATA_FORMAT_32_32, BUF_NUM_FORMAT_FLOAT] = 0x7b.
        assert_eq!(
            decode(Isa::Gfx803, 0x7b),
            Some(Format32 {
                components: 2,
                float: true
            })
        );
        // gfx1030 BUF_FMT_32_UINT = 20, BUF_FMT_32_32_32_32_FLOAT = 77.
        assert_eq!(decode(Isa::Gfx1030, 20).map(|f| f.components), Some(1));
        assert_eq!(
            decode(Isa::Gfx1030, 77),
            Some(Format32 {
                components: 4,
                float: true
            })
        );
        assert_eq!(decode(Isa::Gfx1030, 1), None);
        assert_eq!(decode(Isa::Gfx803, 0x71), None);
    }
}
