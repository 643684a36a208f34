//! `ds_swizzle_b32`'s 16-bit offset as LLVM prints and parses it:
//! `swizzle(QUAD_PERM,a,b,c,d)` when bit 15 is set and bits 14:8 are clear;
//! otherwise (bit 15 clear) a bit-mask permute `and[4:0] or[9:5] xor[14:10]`,
//! printed as `SWAP`, `REVERSE`, `BROADCAST` or `BITMASK_PERM` when it is one;
//! any other value as a plain decimal.

use std::fmt;

use crate::isa::syntax::{parse_int, Token};
use crate::isa::AsmError;

/// Writes the offset value (nonzero) as LLVM does.
pub(super) fn write(imm: u16, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if imm & 0xff00 == 0x8000 {
        f.write_str("swizzle(QUAD_PERM")?;
        for lane in 0..4 {
            write!(f, ",{}", imm >> (2 * lane) & 3)?;
        }
        return f.write_str(")");
    }
    if imm & 0x8000 != 0 {
        return write!(f, "{imm}");
    }
    let and = imm & 0x1f;
    let or = imm >> 5 & 0x1f;
    let xor = imm >> 10 & 0x1f;
    if and == 0x1f && or == 0 && xor.count_ones() == 1 {
        write!(f, "swizzle(SWAP,{xor})")
    } else if and == 0x1f && or == 0 && xor > 0 && (xor + 1).is_power_of_two() {
        write!(f, "swizzle(REVERSE,{})", xor + 1)
    } else {
        let group = 0x20 - and;
        if group > 1 && group.is_power_of_two() && or < group && xor == 0 {
            write!(f, "swizzle(BROADCAST,{group},{or})")
        } else {
            // Each character says what lane-id bit (MSB first) becomes: 0/1 forced,
            // p preserved, i inverted.
            let probe0 = or ^ xor;
            let probe1 = (0x1f & and | or) ^ xor;
            f.write_str("swizzle(BITMASK_PERM,\"")?;
            for bit in (0..5).rev() {
                let (p0, p1) = (probe0 >> bit & 1, probe1 >> bit & 1);
                f.write_str(match (p0, p1) {
                    (1, 1) => "1",
                    (0, 0) => "0",
                    (0, _) => "p",
                    _ => "i",
                })?;
            }
            f.write_str("\")")
        }
    }
}

/// Parses `swizzle(MODE,args...)` (the text after `offset:`).
pub(super) fn parse(token: &Token<'_>, text: &str) -> Result<u16, AsmError> {
    let inner = text
        .strip_prefix("swizzle(")
        .and_then(|t| t.strip_suffix(')'))
        .ok_or_else(|| token.error("expected `swizzle(MODE,...)`"))?;
    let mut parts = inner.split(',').map(str::trim);
    let mode = parts.next().unwrap_or_default();
    let args: Vec<&str> = parts.collect();
    let int = |s: &str, lo: i64, hi: i64| -> Result<u16, AsmError> {
        match parse_int(s) {
            Some(v) if (lo..=hi).contains(&v) => Ok(v as u16),
            _ => Err(token.error(format!(
                "swizzle argument `{s}` must be an integer in {lo}..={hi}"
            ))),
        }
    };
    let want = |n: usize| -> Result<(), AsmError> {
        if args.len() == n {
            Ok(())
        } else {
            Err(token.error(format!(
                "swizzle({mode}) takes {n} argument(s), {} given",
                args.len()
            )))
        }
    };
    let pow2 = |v: u16, s: &str| -> Result<u16, AsmError> {
        if v.is_power_of_two() {
            Ok(v)
        } else {
            Err(token.error(format!("swizzle argument `{s}` must be a power of two")))
        }
    };
    match mode {
        "QUAD_PERM" => {
            want(4)?;
            let mut imm = 0x8000;
            for (lane, a) in args.iter().enumerate() {
                imm |= int(a, 0, 3)? << (2 * lane);
            }
            Ok(imm)
        }
        "SWAP" => {
            want(1)?;
            let n = pow2(int(args[0], 1, 16)?, args[0])?;
            Ok(0x1f | n << 10)
        }
        "REVERSE" => {
            want(1)?;
            let n = pow2(int(args[0], 2, 32)?, args[0])?;
            Ok(0x1f | (n - 1) << 10)
        }
        "BROADCAST" => {
            want(2)?;
            let size = pow2(int(args[0], 2, 32)?, args[0])?;
            let lane = int(args[1], 0, i64::from(size) - 1)?;
            Ok((0x20 - size) | lane << 5)
        }
        "BITMASK_PERM" => {
            want(1)?;
            let mask = args[0]
                .strip_prefix('"')
                .and_then(|s| s.strip_suffix('"'))
                .filter(|s| s.len() == 5)
                .ok_or_else(|| {
                    token.error("BITMASK_PERM takes a 5-character string of 0, 1, p, i")
                })?;
            // As LLVM: `0` and `1` force the bit (and-mask clear), `p`/`i` keep/invert it.
            let (mut and, mut or, mut xor) = (0u16, 0u16, 0u16);
            for (i, c) in mask.bytes().enumerate() {
                let bit = 1 << (4 - i);
                match c {
                    b'0' => {}
                    b'1' => or |= bit,
                    b'p' => and |= bit,
                    b'i' => {
                        and |= bit;
                        xor |= bit;
                    }
                    _ => {
                        return Err(token.error(format!(
                            "BITMASK_PERM character `{}` is not 0, 1, p or i",
                            c as char
                        )))
                    }
                }
            }
            Ok(and | or << 5 | xor << 10)
        }
        _ => Err(token.error(format!("unknown swizzle mode `{mode}`"))),
    }
}
