//! Shared by the sub-group and work-group tests: the element types, their
//! inputs, operations and identities, and their buffers as dwords.

#![allow(dead_code)]

/// An element type of the sub-group and work-group functions.
#[derive(Clone, Copy, Debug)]
pub enum Ty {
    Int,
    UInt,
    Long,
    ULong,
    Float,
    /// cl_khr_fp16; two values per dword in buffers.
    Half,
}

/// A half's bits as f64 (exact).
fn half_value(b: u64) -> f64 {
    compiler::ir::half::f16_bits_to_f64(b as u16)
}

/// `v` rounded to the nearest half, as bits.
fn half_bits(v: f64) -> u64 {
    compiler::ir::half::f64_to_f16_bits(v) as u64
}

impl Ty {
    pub fn name(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::UInt => "uint",
            Ty::Long => "long",
            Ty::ULong => "ulong",
            Ty::Float => "float",
            Ty::Half => "half",
        }
    }
    pub fn words(self) -> usize {
        match self {
            Ty::Long | Ty::ULong => 2,
            _ => 1,
        }
    }
    /// Input `i` as bits (small integers for float, so sums are exact in
    /// any order; the full range with the extremes for the integers).
    pub fn input(self, i: u32, r: u64) -> u64 {
        let edge = i % 13 == 0;
        match self {
            Ty::Int => {
                let v = if edge {
                    [i32::MIN, i32::MAX, -1][i as usize % 3]
                } else {
                    r as i32
                };
                v as u32 as u64
            }
            Ty::UInt => {
                (if edge {
                    [0, u32::MAX, 1][i as usize % 3]
                } else {
                    r as u32
                }) as u64
            }
            Ty::Long => {
                if edge {
                    [i64::MIN, i64::MAX, -1][i as usize % 3] as u64
                } else {
                    r
                }
            }
            Ty::ULong => {
                if edge {
                    [0, u64::MAX, 1][i as usize % 3]
                } else {
                    r
                }
            }
            Ty::Float => (((r % 2001) as i32 - 1000) as f32).to_bits() as u64,
            // -2..=2: every partial sum of up to 1024 of them is a half
            // integer (|s| <= 2048), exact in any order.
            Ty::Half => half_bits(f64::from((r % 5) as i32 - 2)),
        }
    }
    pub fn add(self, a: u64, b: u64) -> u64 {
        match self {
            Ty::Int | Ty::UInt => (a as u32).wrapping_add(b as u32) as u64,
            Ty::Long | Ty::ULong => a.wrapping_add(b),
            Ty::Float => (f32::from_bits(a as u32) + f32::from_bits(b as u32)).to_bits() as u64,
            Ty::Half => half_bits(half_value(a) + half_value(b)),
        }
    }
    pub fn min(self, a: u64, b: u64) -> u64 {
        let less = match self {
            Ty::Int => (a as u32 as i32) < (b as u32 as i32),
            Ty::UInt => (a as u32) < (b as u32),
            Ty::Long => (a as i64) < (b as i64),
            Ty::ULong => a < b,
            Ty::Float => f32::from_bits(a as u32) < f32::from_bits(b as u32),
            Ty::Half => half_value(a) < half_value(b),
        };
        if less {
            a
        } else {
            b
        }
    }
    pub fn max(self, a: u64, b: u64) -> u64 {
        if self.min(a, b) == a {
            b
        } else {
            a
        }
    }
    pub fn identity(self, op: usize) -> u64 {
        match (self, op) {
            (Ty::Float, 0) => 0.0f32.to_bits() as u64,
            (Ty::Half, 0) => 0,
            (Ty::Half, 1) => 0x7c00,
            (Ty::Half, _) => 0xfc00,
            (_, 0) => 0,
            (Ty::Int, 1) => i32::MAX as u32 as u64,
            (Ty::UInt, 1) => u32::MAX as u64,
            (Ty::Long, 1) => i64::MAX as u64,
            (Ty::ULong, 1) => u64::MAX,
            (Ty::Float, 1) => f32::INFINITY.to_bits() as u64,
            (Ty::Int, _) => i32::MIN as u32 as u64,
            (Ty::UInt, _) => 0,
            (Ty::Long, _) => i64::MIN as u64,
            (Ty::ULong, _) => 0,
            (Ty::Float, _) => f32::NEG_INFINITY.to_bits() as u64,
        }
    }
    pub fn op(self, op: usize, a: u64, b: u64) -> u64 {
        match op {
            0 => self.add(a, b),
            1 => self.min(a, b),
            _ => self.max(a, b),
        }
    }

    /// The bits of 3 of this type (the predicates' test value).
    pub fn three(self) -> u64 {
        match self {
            Ty::Float => 3.0f32.to_bits() as u64,
            Ty::Half => half_bits(3.0),
            _ => 3,
        }
    }
}

/// Every element type.
pub const TYPES: [Ty; 6] = [Ty::Int, Ty::UInt, Ty::Long, Ty::ULong, Ty::Float, Ty::Half];

/// The pragma a kernel using `t` needs (cl_khr_fp16 for half).
pub fn pragma(t: Ty) -> &'static str {
    match t {
        Ty::Half => "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n",
        _ => "",
    }
}

/// Values (bits) as buffer dwords, low word first.
pub fn words(t: Ty, v: &[u64]) -> Vec<u32> {
    if let Ty::Half = t {
        return v
            .chunks(2)
            .map(|c| c[0] as u32 | (c.get(1).copied().unwrap_or(0) as u32) << 16)
            .collect();
    }
    v.iter()
        .flat_map(|&b| {
            if t.words() == 2 {
                vec![b as u32, (b >> 32) as u32]
            } else {
                vec![b as u32]
            }
        })
        .collect()
}

/// Buffer dwords back to values (bits).
pub fn unwords(t: Ty, w: &[u32]) -> Vec<u64> {
    if let Ty::Half = t {
        return w
            .iter()
            .flat_map(|&x| [(x & 0xffff) as u64, (x >> 16) as u64])
            .collect();
    }
    if t.words() == 2 {
        w.chunks(2)
            .map(|c| c[0] as u64 | (c[1] as u64) << 32)
            .collect()
    } else {
        w.iter().map(|&x| x as u64).collect()
    }
}
