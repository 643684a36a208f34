//! Typed buffer accesses the common path (`mubuf/mod.rs`, 32-bit components
//! moved raw) does not take: every other data format with its numeric
//! format conversion, and the `d16` forms (16-bit register components:
//! gfx803 one per VGPR, low half; gfx1030 packed two per VGPR).
//!
//! Data formats (GCN3 `DATA_FORMAT`; gfx1030's unified `BUF_FMT_*` values
//! map onto the same layouts) name components from the most significant
//! end, so `X` is in the low bits: `2_10_10_10` is `X[9:0]`, `Y[19:10]`,
//! `Z[29:20]`, `W[31:30]`; `10_10_10_2` is `X[1:0]`, `Y[11:2]`, `Z[21:12]`,
//! `W[31:22]`; `10_11_11` is `X[10:0]`, `Y[21:11]`, `Z[31:22]`; `11_11_10` is
//! `X[9:0]`, `Y[20:10]`, `Z[31:21]` (the same reading Mesa's format tables
//! make).
//!
//! Loads convert each component to a 32-bit register value: UNORM
//! `v / (2^n - 1)`, SNORM `max(v / (2^(n-1) - 1), -1)`, USCALED/SSCALED `v` as a
//! float, UINT/SINT zero-/sign-extended, FLOAT widened (16-bit halves,
//! 11/10-bit unsigned floats with a 5-bit exponent). A `d16` load narrows
//! the float results to f16 (round to nearest even) and the integer ones to
//! their low 16 bits. Components the format lacks read as 0 (X, Y, Z) and 1
//! (W: 1.0 for the float-valued numeric formats).
//!
//! Stores convert the other way. The guides do not spell the rounding or
//! range rules out; this model rounds to nearest even and saturates to the
//! component's range (UNORM/SNORM clamp to [0, 1] / [-1, 1] first; NaN
//! stores 0, except as FLOAT, where it stays NaN; negative values store 0
//! in the unsigned 11/10-bit floats). The choices are listed in
//! `docs/golden-coverage.md`.
//!
//! Addressing is `mubuf/mod.rs`'s; an element is range-checked as one unit (an
//! out-of-range element loads as zero bytes, its store is dropped), and each
//! byte is placed with the buffer's swizzle.

use arch::device::Fault;
use arch::isa::{Family, Instruction, Isa, Opcode, Operand};

use crate::exec::mubuf::BufferResource;
use crate::exec::vmem::{lanes, Regs};
use crate::exec::{illegal, not_implemented, Flow, WaveCtx};
use crate::fp::{self, Format, FpMode, F16, F32};

/// The numeric format of a component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numeric {
    /// Unsigned normalized.
    Unorm,
    /// Signed normalized.
    Snorm,
    /// Unsigned integer read as a float.
    Uscaled,
    /// Signed integer read as a float.
    Sscaled,
    /// Unsigned integer.
    Uint,
    /// Signed integer.
    Sint,
    /// Floating point.
    Float,
}

impl Numeric {
    fn float_valued(self) -> bool {
        !matches!(self, Numeric::Uint | Numeric::Sint)
    }
}

/// A data format's memory layout and numeric format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Bytes per element.
    pub bytes: usize,
    /// `(bit offset, width)` of components X, Y, Z, W (width 0: absent).
    pub comps: [(u32, u32); 4],
    /// Numeric format.
    pub numeric: Numeric,
}

/// The layout of GCN3 `DATA_FORMAT` `dfmt`.
fn data_format(dfmt: u8) -> Option<(usize, [(u32, u32); 4])> {
    let l = |bytes, c: &[(u32, u32)]| {
        let mut comps = [(0, 0); 4];
        comps[..c.len()].copy_from_slice(c);
        Some((bytes, comps))
    };
    match dfmt {
        1 => l(1, &[(0, 8)]),
        2 => l(2, &[(0, 16)]),
        3 => l(2, &[(0, 8), (8, 8)]),
        4 => l(4, &[(0, 32)]),
        5 => l(4, &[(0, 16), (16, 16)]),
        6 => l(4, &[(0, 11), (11, 11), (22, 10)]),
        7 => l(4, &[(0, 10), (10, 11), (21, 11)]),
        8 => l(4, &[(0, 2), (2, 10), (12, 10), (22, 10)]),
        9 => l(4, &[(0, 10), (10, 10), (20, 10), (30, 2)]),
        10 => l(4, &[(0, 8), (8, 8), (16, 8), (24, 8)]),
        11 => l(8, &[(0, 32), (32, 32)]),
        12 => l(8, &[(0, 16), (16, 16), (32, 16), (48, 16)]),
        13 => l(12, &[(0, 32), (32, 32), (64, 32)]),
        14 => l(16, &[(0, 32), (32, 32), (64, 32), (96, 32)]),
        _ => None,
    }
}

/// gfx1030 unified format `BUF_FMT_*` as (GCN3 data format, numeric format);
/// values checked against `llvm-mc-19 -mcpu=gfx1030`.
fn unified(code: u8) -> Option<(u8, Numeric)> {
    use Numeric::*;
    const SIX: [Numeric; 6] = [Unorm, Snorm, Uscaled, Sscaled, Uint, Sint];
    const SEVEN: [Numeric; 7] = [Unorm, Snorm, Uscaled, Sscaled, Uint, Sint, Float];
    const THREE: [Numeric; 3] = [Uint, Sint, Float];
    // (first code, data format, numeric formats in order)
    let groups: [(u8, u8, &[Numeric]); 14] = [
        (1, 1, &SIX),
        (7, 2, &SEVEN),
        (14, 3, &SIX),
        (20, 4, &THREE),
        (23, 5, &SEVEN),
        (30, 6, &SEVEN),
        (37, 7, &SEVEN),
        (44, 8, &SIX),
        (50, 9, &SIX),
        (56, 10, &SIX),
        (62, 11, &THREE),
        (65, 12, &SEVEN),
        (72, 13, &THREE),
        (75, 14, &THREE),
    ];
    groups.iter().find_map(|&(first, dfmt, nums)| {
        let i = usize::from(code.checked_sub(first)?);
        nums.get(i).map(|&n| (dfmt, n))
    })
}

/// Decodes a format (MTBUF field encoding: gfx803 `dfmt | nfmt << 4`,
/// gfx1030 `BUF_FMT_*`).
pub fn layout(isa: Isa, format: u8) -> Option<Layout> {
    let (dfmt, numeric) = match isa {
        Isa::Gfx803 => {
            let numeric = match format >> 4 & 7 {
                0 => Numeric::Unorm,
                1 => Numeric::Snorm,
                2 => Numeric::Uscaled,
                3 => Numeric::Sscaled,
                4 => Numeric::Uint,
                5 => Numeric::Sint,
                7 => Numeric::Float,
                _ => return None,
            };
            (format & 0xf, numeric)
        }
        Isa::Gfx1030 => unified(format)?,
    };
    let (bytes, comps) = data_format(dfmt)?;
    // FLOAT exists for 16-, 32- and the 11/10-bit components only.
    if numeric == Numeric::Float && comps.iter().any(|&(_, w)| matches!(w, 2 | 8)) {
        return None;
    }
    Some(Layout {
        bytes,
        comps,
        numeric,
    })
}

/// Unsigned 11- and 10-bit floats (5-bit exponent, no sign).
const UF11: Format = Format {
    exp_bits: 5,
    man_bits: 6,
};
const UF10: Format = Format {
    exp_bits: 5,
    man_bits: 5,
};

fn small_float(bits: u32) -> Option<Format> {
    match bits {
        16 => Some(F16),
        11 => Some(UF11),
        10 => Some(UF10),
        _ => None,
    }
}

fn sext(v: u32, bits: u32) -> i32 {
    if bits >= 32 {
        v as i32
    } else {
        ((v << (32 - bits)) as i32) >> (32 - bits)
    }
}

/// An f64 value as f32 bits, rounded to nearest even.
fn f32_of(x: f64) -> u32 {
    fp::convert(fp::F64, F32, x.to_bits(), FpMode::IEEE, FpMode::IEEE) as u32
}

/// Component `v` (`bits` wide) as a 32-bit register value.
pub fn load_component(v: u32, bits: u32, numeric: Numeric) -> u32 {
    let max = |b: u32| ((1u64 << b) - 1) as f64;
    match numeric {
        Numeric::Unorm => f32_of(f64::from(v) / max(bits)),
        Numeric::Snorm => f32_of((f64::from(sext(v, bits)) / max(bits - 1)).max(-1.0)),
        Numeric::Uscaled => f32_of(f64::from(v)),
        Numeric::Sscaled => f32_of(f64::from(sext(v, bits))),
        Numeric::Uint => v,
        Numeric::Sint => sext(v, bits) as u32,
        Numeric::Float => match small_float(bits) {
            Some(f) => fp::convert(f, F32, u64::from(v), FpMode::IEEE, FpMode::IEEE) as u32,
            None => v,
        },
    }
}

/// Register value `x` as a `bits`-wide component.
pub fn store_component(x: u32, bits: u32, numeric: Numeric) -> u32 {
    let mask = if bits >= 32 {
        u32::MAX
    } else {
        (1 << bits) - 1
    };
    let f = f64::from(f32::from_bits(x));
    let round = |y: f64, lo: f64, hi: f64| -> i64 {
        if y.is_nan() {
            0
        } else {
            y.clamp(lo, hi).round_ties_even() as i64
        }
    };
    let umax = f64::from(mask);
    let smax = ((1u64 << (bits - 1)) - 1) as f64;
    let r = match numeric {
        Numeric::Unorm => round(f.clamp(0.0, 1.0) * umax, 0.0, umax),
        Numeric::Snorm => round(f.clamp(-1.0, 1.0) * smax, -smax, smax),
        Numeric::Uscaled => round(f, 0.0, umax),
        Numeric::Sscaled => round(f, -smax - 1.0, smax),
        Numeric::Uint => i64::from(x).min(i64::from(mask)),
        Numeric::Sint => i64::from(x as i32).clamp(-(smax as i64) - 1, smax as i64),
        Numeric::Float => match small_float(bits) {
            Some(F16) => fp::convert(F32, F16, u64::from(x), FpMode::IEEE, FpMode::IEEE) as i64,
            Some(small) => {
                // No sign: negative numbers (and -0) store 0, NaN stays NaN.
                let x = if F32.sign(u64::from(x)) && !F32.is_nan(u64::from(x)) {
                    0
                } else {
                    x & 0x7fff_ffff
                };
                fp::convert(F32, small, u64::from(x), FpMode::IEEE, FpMode::IEEE) as i64
            }
            None => i64::from(x),
        },
    };
    r as u32 & mask
}

/// What a typed opcode does: (load, register components, d16, d16 high half).
fn typed_op(op: Opcode) -> Option<(bool, usize, bool, bool)> {
    use Opcode::*;
    Some(match op {
        BUFFER_LOAD_FORMAT_X | TBUFFER_LOAD_FORMAT_X => (true, 1, false, false),
        BUFFER_LOAD_FORMAT_XY | TBUFFER_LOAD_FORMAT_XY => (true, 2, false, false),
        BUFFER_LOAD_FORMAT_XYZ | TBUFFER_LOAD_FORMAT_XYZ => (true, 3, false, false),
        BUFFER_LOAD_FORMAT_XYZW | TBUFFER_LOAD_FORMAT_XYZW => (true, 4, false, false),
        BUFFER_STORE_FORMAT_X | TBUFFER_STORE_FORMAT_X => (false, 1, false, false),
        BUFFER_STORE_FORMAT_XY | TBUFFER_STORE_FORMAT_XY => (false, 2, false, false),
        BUFFER_STORE_FORMAT_XYZ | TBUFFER_STORE_FORMAT_XYZ => (false, 3, false, false),
        BUFFER_STORE_FORMAT_XYZW | TBUFFER_STORE_FORMAT_XYZW => (false, 4, false, false),
        BUFFER_LOAD_FORMAT_D16_X | TBUFFER_LOAD_FORMAT_D16_X => (true, 1, true, false),
        BUFFER_LOAD_FORMAT_D16_XY | TBUFFER_LOAD_FORMAT_D16_XY => (true, 2, true, false),
        BUFFER_LOAD_FORMAT_D16_XYZ | TBUFFER_LOAD_FORMAT_D16_XYZ => (true, 3, true, false),
        BUFFER_LOAD_FORMAT_D16_XYZW | TBUFFER_LOAD_FORMAT_D16_XYZW => (true, 4, true, false),
        BUFFER_STORE_FORMAT_D16_X | TBUFFER_STORE_FORMAT_D16_X => (false, 1, true, false),
        BUFFER_STORE_FORMAT_D16_XY | TBUFFER_STORE_FORMAT_D16_XY => (false, 2, true, false),
        BUFFER_STORE_FORMAT_D16_XYZ | TBUFFER_STORE_FORMAT_D16_XYZ => (false, 3, true, false),
        BUFFER_STORE_FORMAT_D16_XYZW | TBUFFER_STORE_FORMAT_D16_XYZW => (false, 4, true, false),
        BUFFER_LOAD_FORMAT_D16_HI_X => (true, 1, true, true),
        BUFFER_STORE_FORMAT_D16_HI_X => (false, 1, true, true),
        _ => return None,
    })
}

/// A 32-bit register component as a d16 half and back.
fn to_half(v: u32, numeric: Numeric) -> u32 {
    if numeric.float_valued() {
        fp::convert(F32, F16, u64::from(v), FpMode::IEEE, FpMode::IEEE) as u32
    } else {
        v & 0xffff
    }
}

fn from_half(h: u32, numeric: Numeric) -> u32 {
    match numeric {
        Numeric::Sint => h as u16 as i16 as i32 as u32,
        Numeric::Uint => h & 0xffff,
        _ => fp::convert(F16, F32, u64::from(h & 0xffff), FpMode::IEEE, FpMode::IEEE) as u32,
    }
}

/// Executes a typed buffer load or store of any format (MUBUF `*_format_*`
/// with the V#'s format, MTBUF with the instruction's).
pub fn execute(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    let m = inst.modifiers;
    let Some((load, n, d16, hi)) = typed_op(inst.opcode) else {
        return Err(not_implemented(inst));
    };
    if m.lds || m.tfe {
        return Err(not_implemented(inst));
    }
    let w = &*ctx.wave;
    let isa = w.target.isa;
    let ops = inst.operands();
    let op = |i: usize| {
        ops.get(i)
            .ok_or_else(|| illegal(format!("{inst}: operand {i} is missing")))
    };
    let (vdata, vaddr, srsrc, soffset) = (op(0)?, op(1)?, op(2)?, op(3)?);
    let quad = match *srsrc {
        Operand::Src { code, .. } if usize::from(code) + 4 <= 128 => {
            let i = usize::from(code);
            [w.sgpr[i], w.sgpr[i + 1], w.sgpr[i + 2], w.sgpr[i + 3]]
        }
        _ => {
            return Err(illegal(format!(
                "{inst}: the buffer resource is not an SGPR quad"
            )))
        }
    };
    let rsrc = BufferResource::decode(isa, quad);
    let soffset = u64::from(w.read_scalar(soffset)?);
    let code = if inst.family == Family::Mtbuf {
        m.format
    } else {
        rsrc.format
    };
    let fmt = layout(isa, code).ok_or_else(|| {
        illegal(format!(
            "{inst}: buffer format {code:#x} is not a valid {} format",
            isa.name()
        ))
    })?;
    let data = Regs::of(w, vdata)?;
    // gfx1030 packs d16 components two per VGPR.
    let packed = d16 && isa == Isa::Gfx1030;
    let regs_needed = if packed { n.div_ceil(2) } else { n };
    if data.count < regs_needed {
        return Err(illegal(format!("{inst}: vdata is too narrow")));
    }
    let vaddr = match vaddr {
        Operand::Src { .. } => Some(Regs::of(w, vaddr)?),
        _ => None,
    };
    let inst_offset = m.offset as u32 & 0xfff;
    for lane in lanes(ctx.wave.exec()) {
        // Index and offset as mubuf/mod.rs forms them.
        let v = vaddr.map_or([0; 4], |r| r.get(ctx.wave, lane));
        let (vi, vo) = match (m.idxen, m.offen) {
            (true, true) => (v[0], v[1]),
            (true, false) => (v[0], 0),
            (false, true) => (0, v[0]),
            (false, false) => (0, 0),
        };
        let index = u64::from(vi) + if rsrc.add_tid { lane as u64 } else { 0 };
        let offset = u64::from(vo.wrapping_add(inst_offset));
        let skip = rsrc.out_of_range(index, offset, fmt.bytes as u64, soffset);
        let address = |i: usize| {
            rsrc.base
                .wrapping_add(soffset)
                .wrapping_add(rsrc.buffer_offset(index, offset + i as u64))
        };
        let regs = data.get(ctx.wave, lane);
        if load {
            let mut raw = [0u8; 16];
            if !skip {
                for (i, b) in raw[..fmt.bytes].iter_mut().enumerate() {
                    let mut one = [0u8; 1];
                    ctx.load(address(i), &mut one)?;
                    *b = one[0];
                }
            }
            let element = u128::from_le_bytes(raw);
            let mut comp = [0u32; 4];
            for (i, c) in comp.iter_mut().enumerate().take(n) {
                let (shift, bits) = fmt.comps[i];
                *c = if bits == 0 {
                    match (i, fmt.numeric.float_valued()) {
                        (3, true) => 1.0f32.to_bits(),
                        (3, false) => 1,
                        _ => 0,
                    }
                } else {
                    let mask = (1u128 << bits) - 1;
                    load_component((element >> shift & mask) as u32, bits, fmt.numeric)
                };
                if d16 {
                    *c = to_half(*c, fmt.numeric);
                }
            }
            let mut out = regs;
            if packed {
                for (i, &c) in comp.iter().enumerate().take(n) {
                    // Component i is half i % 2 of register i / 2; the d16_hi
                    // form puts its single component in the high half.
                    let half = if hi { 1 } else { i % 2 };
                    let r = &mut out[i / 2];
                    *r = if half == 0 {
                        (*r & 0xffff_0000) | c
                    } else {
                        (*r & 0xffff) | c << 16
                    };
                }
            } else {
                out[..n].copy_from_slice(&comp[..n]);
            }
            data.with_count(regs_needed).set(ctx.wave, lane, &out);
        } else {
            if skip {
                continue;
            }
            let mut element = 0u128;
            let mut written = 0u128;
            for i in 0..n {
                let (shift, bits) = fmt.comps[i];
                if bits == 0 {
                    continue;
                }
                let x = if packed {
                    let half = if hi { 1 } else { i % 2 };
                    from_half(regs[i / 2] >> (16 * half), fmt.numeric)
                } else if d16 {
                    from_half(regs[i], fmt.numeric)
                } else {
                    regs[i]
                };
                let mask = (1u128 << bits) - 1;
                element |= u128::from(store_component(x, bits, fmt.numeric)) << shift;
                written |= mask << shift;
            }
            // Only the bytes of the components the instruction has are written.
            let bytes = element.to_le_bytes();
            let mask = written.to_le_bytes();
            for i in 0..fmt.bytes {
                if mask[i] == 0 {
                    continue;
                }
                if mask[i] == 0xff {
                    ctx.store(address(i), &[bytes[i]])?;
                } else {
                    // A byte shared with an absent component keeps its bits.
                    let mut old = [0u8; 1];
                    ctx.load(address(i), &mut old)?;
                    ctx.store(address(i), &[(old[0] & !mask[i]) | bytes[i]])?;
                }
            }
        }
    }
    Ok(Flow::Next)
}
