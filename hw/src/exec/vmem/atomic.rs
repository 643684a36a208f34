//! The arithmetic of memory atomics, shared by FLAT/GLOBAL/MUBUF (performed at
//! L2 in hardware) and DS (performed in the LDS).

/// One atomic operation. Operands are named as in the RDNA2 guide: `data` is
/// DATA (DS `data0`, the VGPR data of the others), `data2` is DATA2 (DS
/// `data1`); compare-and-swap takes its compare value in `data2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AtomicOp {
    /// `mem = data`.
    Swap,
    /// `mem = mem == data2 ? data : mem` (integer compare).
    Cmpswap,
    /// `mem + data`.
    Add,
    /// `mem - data`.
    Sub,
    /// `data - mem` (DS).
    Rsub,
    /// `mem >= data ? mem - data : 0` (gfx1030 `*_atomic_csub`, clamped).
    Csub,
    /// Signed minimum.
    Smin,
    /// Unsigned minimum.
    Umin,
    /// Signed maximum.
    Smax,
    /// Unsigned maximum.
    Umax,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise xor.
    Xor,
    /// `mem >= data ? 0 : mem + 1`.
    Inc,
    /// `mem == 0 || mem > data ? data : mem - 1`.
    Dec,
    /// Float compare-and-swap: `mem = mem == data2 (as floats) ? data : mem`.
    Fcmpswap,
    /// Float minimum.
    Fmin,
    /// Float maximum.
    Fmax,
    /// Float add (DS `ds_add_f32`, round to nearest even).
    Fadd,
    /// `(mem & !data) | data2` (DS).
    Mskor,
    /// `mem >= data ? mem - data : mem + data2` (DS `ds_wrap_rtn_b32`).
    Wrap,
}

/// The new memory value of `op` on `old`, 32 bits wide unless `wide`.
/// Integer operations run on 64 bits and are cut to the width at the end
/// (wrapping, saturating and comparing alike); only signed compares and the
/// float operations look at the width.
pub(crate) fn apply(op: AtomicOp, wide: bool, old: u64, data: u64, data2: u64) -> u64 {
    let mask = if wide { u64::MAX } else { 0xffff_ffff };
    let (old, data, data2) = (old & mask, data & mask, data2 & mask);
    let signed = |x: u64| {
        if wide {
            x as i64
        } else {
            i64::from(x as u32 as i32)
        }
    };
    let result = match op {
        AtomicOp::Swap => data,
        AtomicOp::Cmpswap => {
            if old == data2 {
                data
            } else {
                old
            }
        }
        AtomicOp::Add => old.wrapping_add(data),
        AtomicOp::Sub => old.wrapping_sub(data),
        AtomicOp::Rsub => data.wrapping_sub(old),
        AtomicOp::Csub => old.saturating_sub(data),
        AtomicOp::Smin if signed(old) <= signed(data) => old,
        AtomicOp::Smax if signed(old) >= signed(data) => old,
        AtomicOp::Smin | AtomicOp::Smax => data,
        AtomicOp::Umin => old.min(data),
        AtomicOp::Umax => old.max(data),
        AtomicOp::And => old & data,
        AtomicOp::Or => old | data,
        AtomicOp::Xor => old ^ data,
        AtomicOp::Inc => {
            if old >= data {
                0
            } else {
                old + 1
            }
        }
        AtomicOp::Dec => {
            if old == 0 || old > data {
                data
            } else {
                old - 1
            }
        }
        AtomicOp::Fcmpswap => {
            let equal = if wide {
                f64::from_bits(old) == f64::from_bits(data2)
            } else {
                f32::from_bits(old as u32) == f32::from_bits(data2 as u32)
            };
            if equal {
                data
            } else {
                old
            }
        }
        AtomicOp::Fmin | AtomicOp::Fmax => fminmax(old, data, wide, op == AtomicOp::Fmin),
        AtomicOp::Fadd if wide => (f64::from_bits(old) + f64::from_bits(data)).to_bits(),
        AtomicOp::Fadd => {
            u64::from((f32::from_bits(old as u32) + f32::from_bits(data as u32)).to_bits())
        }
        AtomicOp::Mskor => (old & !data) | data2,
        AtomicOp::Wrap => {
            if old >= data {
                old - data
            } else {
                old.wrapping_add(data2)
            }
        }
    };
    result & mask
}

/// IEEE-754 minNum/maxNum on raw bits of a float (f64 if `wide`, else the
/// f32 in the low half): a NaN loses to a number (two NaNs give the first,
/// quieted), and -0 is below +0. Denormals are compared as they are (memory
/// atomics do not flush them); an f32 widens to f64 exactly, so one compare
/// serves both widths.
fn fminmax(a: u64, b: u64, wide: bool, min: bool) -> u64 {
    let value = |bits: u64| {
        if wide {
            f64::from_bits(bits)
        } else {
            f64::from(f32::from_bits(bits as u32))
        }
    };
    let quiet = if wide { 1 << 51 } else { 1 << 22 };
    let (x, y) = (value(a), value(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => a | quiet,
        (true, false) => b,
        (false, true) => a,
        _ if x == y => {
            // Equal numbers have equal bits except for ±0.
            if min {
                a | b
            } else {
                a & b
            }
        }
        _ if (x < y) == min => a,
        _ => b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_ops_at_both_widths() {
        // (op, old, data, data2, expected32)
        let cases: [(AtomicOp, u32, u32, u32, u32); 14] = [
            (AtomicOp::Add, 0xffff_ffff, 2, 0, 1),
            (AtomicOp::Sub, 1, 2, 0, 0xffff_ffff),
            (AtomicOp::Rsub, 1, 5, 0, 4),
            (AtomicOp::Csub, 1, 5, 0, 0),
            (AtomicOp::Csub, 7, 5, 0, 2),
            (AtomicOp::Smin, 0xffff_fffe, 3, 0, 0xffff_fffe),
            (AtomicOp::Umin, 0xffff_fffe, 3, 0, 3),
            (AtomicOp::Smax, 0xffff_fffe, 3, 0, 3),
            (AtomicOp::Umax, 0xffff_fffe, 3, 0, 0xffff_fffe),
            (AtomicOp::Inc, 5, 5, 0, 0),
            (AtomicOp::Inc, 4, 5, 0, 5),
            (AtomicOp::Dec, 0, 9, 0, 9),
            (AtomicOp::Dec, 10, 9, 0, 9),
            (AtomicOp::Dec, 4, 9, 0, 3),
        ];
        for (op, old, data, data2, want) in cases {
            let got = apply(op, false, old.into(), data.into(), data2.into());
            assert_eq!(got, u64::from(want), "{op:?} {old:#x} {data:#x}");
        }
        assert_eq!(apply(AtomicOp::Add, true, u64::MAX, 2, 0), 1);
        assert_eq!(apply(AtomicOp::Smin, true, u64::MAX, 3, 0), u64::MAX);
        assert_eq!(apply(AtomicOp::Umin, true, u64::MAX, 3, 0), 3);
        assert_eq!(apply(AtomicOp::Cmpswap, true, 1 << 40, 9, 1 << 40), 9);
        assert_eq!(apply(AtomicOp::Cmpswap, true, 1 << 40, 9, 1), 1 << 40);
        assert_eq!(apply(AtomicOp::Mskor, false, 0xff00, 0x0f00, 0x3), 0xf003);
        assert_eq!(apply(AtomicOp::Wrap, false, 3, 5, 10), 13);
        assert_eq!(apply(AtomicOp::Wrap, false, 7, 5, 10), 2);
    }

    #[test]
    fn float_ops_follow_min_num_and_signed_zero() {
        let nan = 0x7fc0_0001u64;
        let one = 1.0f32.to_bits() as u64;
        let neg0 = 0x8000_0000u64;
        assert_eq!(apply(AtomicOp::Fmin, false, nan, one, 0), one);
        assert_eq!(apply(AtomicOp::Fmax, false, one, nan, 0), one);
        assert_eq!(apply(AtomicOp::Fmin, false, 0, neg0, 0), neg0);
        assert_eq!(apply(AtomicOp::Fmax, false, neg0, 0, 0), 0);
        assert_eq!(
            apply(AtomicOp::Fmin, false, (-2.0f32).to_bits() as u64, one, 0),
            (-2.0f32).to_bits() as u64
        );
        // fcmpswap: +0 equals -0, NaN equals nothing.
        assert_eq!(apply(AtomicOp::Fcmpswap, false, 0, 7, neg0), 7);
        assert_eq!(apply(AtomicOp::Fcmpswap, false, nan, 7, nan), nan);
        let d = |x: f64| x.to_bits();
        assert_eq!(apply(AtomicOp::Fmax, true, d(-1.0), d(0.5), 0), d(0.5));
        assert_eq!(
            apply(AtomicOp::Fadd, false, one, one, 0),
            2.0f32.to_bits() as u64
        );
    }
}
