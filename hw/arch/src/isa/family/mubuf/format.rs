//! MTBUF `format:` names as LLVM prints and parses them: gfx803 splits the
//! 7-bit field into a data format (bits 3:0) and a numeric format (bits 6:4);
//! gfx1030 has one unified format number. The default (1 on both ISAs:
//! `BUF_DATA_FORMAT_8`+`BUF_NUM_FORMAT_UNORM`, `BUF_FMT_8_UNORM`) is not printed;
//! a value without a name prints as a number.

use std::fmt;

use crate::isa::syntax::{parse_int, Token};
use crate::isa::{AsmError, Isa};

/// The field value LLVM leaves unprinted.
pub(super) const DEFAULT: u8 = 1;

/// gfx803 data formats, by field value.
const DFMT: [&str; 16] = [
    "INVALID",
    "8",
    "16",
    "8_8",
    "32",
    "16_16",
    "10_11_11",
    "11_11_10",
    "10_10_10_2",
    "2_10_10_10",
    "8_8_8_8",
    "32_32",
    "16_16_16_16",
    "32_32_32",
    "32_32_32_32",
    "RESERVED_15",
];
/// gfx803 numeric formats, by field value.
const NFMT: [&str; 8] = [
    "UNORM",
    "SNORM",
    "USCALED",
    "SSCALED",
    "UINT",
    "SINT",
    "RESERVED_6",
    "FLOAT",
];

/// gfx1030 unified formats, by field value (78 and up have no name).
const UNIFIED: [&str; 78] = [
    "BUF_FMT_INVALID",
    "BUF_FMT_8_UNORM",
    "BUF_FMT_8_SNORM",
    "BUF_FMT_8_USCALED",
    "BUF_FMT_8_SSCALED",
    "BUF_FMT_8_UINT",
    "BUF_FMT_8_SINT",
    "BUF_FMT_16_UNORM",
    "BUF_FMT_16_SNORM",
    "BUF_FMT_16_USCALED",
    "BUF_FMT_16_SSCALED",
    "BUF_FMT_16_UINT",
    "BUF_FMT_16_SINT",
    "BUF_FMT_16_FLOAT",
    "BUF_FMT_8_8_UNORM",
    "BUF_FMT_8_8_SNORM",
    "BUF_FMT_8_8_USCALED",
    "BUF_FMT_8_8_SSCALED",
    "BUF_FMT_8_8_UINT",
    "BUF_FMT_8_8_SINT",
    "BUF_FMT_32_UINT",
    "BUF_FMT_32_SINT",
    "BUF_FMT_32_FLOAT",
    "BUF_FMT_16_16_UNORM",
    "BUF_FMT_16_16_SNORM",
    "BUF_FMT_16_16_USCALED",
    "BUF_FMT_16_16_SSCALED",
    "BUF_FMT_16_16_UINT",
    "BUF_FMT_16_16_SINT",
    "BUF_FMT_16_16_FLOAT",
    "BUF_FMT_10_11_11_UNORM",
    "BUF_FMT_10_11_11_SNORM",
    "BUF_FMT_10_11_11_USCALED",
    "BUF_FMT_10_11_11_SSCALED",
    "BUF_FMT_10_11_11_UINT",
    "BUF_FMT_10_11_11_SINT",
    "BUF_FMT_10_11_11_FLOAT",
    "BUF_FMT_11_11_10_UNORM",
    "BUF_FMT_11_11_10_SNORM",
    "BUF_FMT_11_11_10_USCALED",
    "BUF_FMT_11_11_10_SSCALED",
    "BUF_FMT_11_11_10_UINT",
    "BUF_FMT_11_11_10_SINT",
    "BUF_FMT_11_11_10_FLOAT",
    "BUF_FMT_10_10_10_2_UNORM",
    "BUF_FMT_10_10_10_2_SNORM",
    "BUF_FMT_10_10_10_2_USCALED",
    "BUF_FMT_10_10_10_2_SSCALED",
    "BUF_FMT_10_10_10_2_UINT",
    "BUF_FMT_10_10_10_2_SINT",
    "BUF_FMT_2_10_10_10_UNORM",
    "BUF_FMT_2_10_10_10_SNORM",
    "BUF_FMT_2_10_10_10_USCALED",
    "BUF_FMT_2_10_10_10_SSCALED",
    "BUF_FMT_2_10_10_10_UINT",
    "BUF_FMT_2_10_10_10_SINT",
    "BUF_FMT_8_8_8_8_UNORM",
    "BUF_FMT_8_8_8_8_SNORM",
    "BUF_FMT_8_8_8_8_USCALED",
    "BUF_FMT_8_8_8_8_SSCALED",
    "BUF_FMT_8_8_8_8_UINT",
    "BUF_FMT_8_8_8_8_SINT",
    "BUF_FMT_32_32_UINT",
    "BUF_FMT_32_32_SINT",
    "BUF_FMT_32_32_FLOAT",
    "BUF_FMT_16_16_16_16_UNORM",
    "BUF_FMT_16_16_16_16_SNORM",
    "BUF_FMT_16_16_16_16_USCALED",
    "BUF_FMT_16_16_16_16_SSCALED",
    "BUF_FMT_16_16_16_16_UINT",
    "BUF_FMT_16_16_16_16_SINT",
    "BUF_FMT_16_16_16_16_FLOAT",
    "BUF_FMT_32_32_32_UINT",
    "BUF_FMT_32_32_32_SINT",
    "BUF_FMT_32_32_32_FLOAT",
    "BUF_FMT_32_32_32_32_UINT",
    "BUF_FMT_32_32_32_32_SINT",
    "BUF_FMT_32_32_32_32_FLOAT",
];

/// Writes ` format:...` for a non-default value.
pub(super) fn write(isa: Isa, value: u8, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if value == DEFAULT {
        return Ok(());
    }
    match isa {
        Isa::Gfx1030 => match UNIFIED.get(usize::from(value)) {
            Some(name) => write!(f, " format:[{name}]"),
            None => write!(f, " format:{value}"),
        },
        Isa::Gfx803 => {
            let (dfmt, nfmt) = (value & 15, value >> 4);
            f.write_str(" format:[")?;
            if dfmt != 1 {
                write!(f, "BUF_DATA_FORMAT_{}", DFMT[usize::from(dfmt)])?;
                if nfmt != 0 {
                    f.write_str(",")?;
                }
            }
            if nfmt != 0 {
                write!(f, "BUF_NUM_FORMAT_{}", NFMT[usize::from(nfmt & 7)])?;
            }
            f.write_str("]")
        }
    }
}

/// Parses the text after `format:`: a number, or `[NAME]` / `[DATA,NUM]` (gfx1030
/// also takes the split gfx803 names when they form a unified format).
pub(super) fn parse(isa: Isa, token: &Token<'_>, text: &str) -> Result<u8, AsmError> {
    if let Some(v) = parse_int(text) {
        return match u8::try_from(v) {
            Ok(v) if v < 128 => Ok(v),
            _ => Err(token.error(format!("format `{text}` is not in 0..=127"))),
        };
    }
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| {
            token.error(format!(
                "expected `format:[NAME]` or a number, found `{text}`"
            ))
        })?;
    let (mut dfmt, mut nfmt) = (None, None);
    for name in inner.split(',').map(str::trim) {
        if isa == Isa::Gfx1030 {
            if let Some(i) = UNIFIED.iter().position(|&n| n == name) {
                if inner.contains(',') {
                    return Err(
                        token.error(format!("`{name}` cannot be combined with another format"))
                    );
                }
                return Ok(i as u8);
            }
        }
        if let Some(i) = name
            .strip_prefix("BUF_DATA_FORMAT_")
            .and_then(|s| DFMT.iter().position(|&n| n == s))
        {
            if dfmt.replace(i as u8).is_some() {
                return Err(token.error("two data formats given"));
            }
        } else if let Some(i) = name
            .strip_prefix("BUF_NUM_FORMAT_")
            .and_then(|s| NFMT.iter().position(|&n| n == s))
        {
            if nfmt.replace(i as u8).is_some() {
                return Err(token.error("two numeric formats given"));
            }
        } else {
            return Err(token.error(format!("unknown buffer format `{name}`")));
        }
    }
    let (dfmt, nfmt) = (dfmt.unwrap_or(1), nfmt.unwrap_or(0));
    match isa {
        Isa::Gfx803 => Ok(dfmt | nfmt << 4),
        Isa::Gfx1030 => {
            let unified = format!(
                "BUF_FMT_{}_{}",
                DFMT[usize::from(dfmt)],
                NFMT[usize::from(nfmt)]
            );
            UNIFIED
                .iter()
                .position(|&n| n == unified)
                .map(|i| i as u8)
                .ok_or_else(|| token.error(format!("no unified gfx1030 format for `{inner}`")))
        }
    }
}
