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
}

impl Ty {
    pub fn name(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::UInt => "uint",
            Ty::Long => "long",
            Ty::ULong => "ulong",
            Ty::Float => "float",
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
        }
    }
    pub fn add(self, a: u64, b: u64) -> u64 {
        match self {
            Ty::Int | Ty::UInt => (a as u32).wrapping_add(b as u32) as u64,
            Ty::Long | Ty::ULong => a.wrapping_add(b),
            Ty::Float => (f32::from_bits(a as u32) + f32::from_bits(b as u32)).to_bits() as u64,
        }
    }
    pub fn min(self, a: u64, b: u64) -> u64 {
        let less = match self {
            Ty::Int => (a as u32 as i32) < (b as u32 as i32),
            Ty::UInt => (a as u32) < (b as u32),
            Ty::Long => (a as i64) < (b as i64),
            Ty::ULong => a < b,
            Ty::Float => f32::from_bits(a as u32) < f32::from_bits(b as u32),
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
}

/// Every element type.
pub const TYPES: [Ty; 5] = [Ty::Int, Ty::UInt, Ty::Long, Ty::ULong, Ty::Float];

/// Values (bits) as buffer dwords, low word first.
pub fn words(t: Ty, v: &[u64]) -> Vec<u32> {
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
    if t.words() == 2 {
        w.chunks(2)
            .map(|c| c[0] as u64 | (c[1] as u64) << 32)
            .collect()
    } else {
        w.iter().map(|&x| x as u64).collect()
    }
}
