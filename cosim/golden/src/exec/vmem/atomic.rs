//! Read-modify-write operations of the memory atomics (DS, FLAT/GLOBAL, MUBUF).
//!
//! Each takes the old memory value, the source data and (for the two-operand
//! forms) a second value, and returns the new memory value; the instruction
//! returns the old value when it has a result. Conventions, from the ISA
//! manuals' pseudo-code:
//!
//! * `CmpSwap`: `mem = (old == cmp) ? src : old`. FLAT/GLOBAL/MUBUF pass
//!   `src = DATA[0]`, `cmp = DATA[1]`; DS `ds_cmpst_*` pass `cmp = DATA0`,
//!   `src = DATA1` — the callers normalise to `(src, cmp)`.
//! * `Inc`: `mem = (old >= src) ? 0 : old + 1`; `Dec`:
//!   `mem = (old == 0 || old > src) ? src : old - 1` (unsigned).
//! * `Csub` (gfx1030 `*_atomic_csub`): `mem = (old >= src) ? old - src : 0`.
//! * `Mskor` (DS): `mem = (old & ~src) | extra`.
//! * `Wrap` (`ds_wrap_rtn_b32`): `mem = (old >= src) ? old - src : old + extra`.
//! * Float `Fmin`/`Fmax`: IEEE-754 minNum/maxNum of memory and source: a
//!   NaN loses to a number (two NaNs keep memory's, quieted), `-0` is below
//!   `+0`, denormals compared as they are. The guide's pseudo-code reads
//!   `(src < old) ? src : old`, but LLVM lowers `atomicrmw fmin`/`fmax`
//!   (minnum/maxnum semantics) to these instructions on gfx10, and the
//!   clocked GPU models minNum; random-program lockstep found the two apart.
//!   `FCmpSwap`/`ds_cmpst_f*` compare as floats (`+0 == -0`, NaN never equal).
//!   `Fadd` (`ds_add_f32`) is an IEEE single add, round to nearest even,
//!   denormals kept.

/// One atomic operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    /// Exchange.
    Swap,
    /// Integer compare-and-swap.
    CmpSwap,
    /// Float compare-and-swap.
    FCmpSwap,
    /// Add.
    Add,
    /// Subtract.
    Sub,
    /// Reverse subtract (`src - old`).
    Rsub,
    /// Subtract clamped at zero.
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
    /// Wrapping increment.
    Inc,
    /// Wrapping decrement.
    Dec,
    /// Float minimum.
    Fmin,
    /// Float maximum.
    Fmax,
    /// Float add (32-bit only).
    Fadd,
    /// Masked or.
    Mskor,
    /// Subtract or add (`ds_wrap_rtn_b32`).
    Wrap,
}

impl AtomicOp {
    /// True when the operation takes a second data value (`cmp`, mask or addend).
    pub fn two_operands(self) -> bool {
        matches!(
            self,
            AtomicOp::CmpSwap | AtomicOp::FCmpSwap | AtomicOp::Mskor | AtomicOp::Wrap
        )
    }

    /// The new 32-bit memory value.
    pub fn apply32(self, old: u32, src: u32, extra: u32) -> u32 {
        self.apply(false, old.into(), src.into(), extra.into()) as u32
    }

    /// The new 64-bit memory value (`Fadd`, `Csub` and `Wrap` have no 64-bit
    /// form; they are computed on the low dword).
    pub fn apply64(self, old: u64, src: u64, extra: u64) -> u64 {
        self.apply(true, old, src, extra)
    }

    /// Both widths: 32-bit operands in the low halves unless `wide`. Float
    /// compares widen an f32 to f64, which is exact.
    fn apply(self, wide: bool, old: u64, src: u64, extra: u64) -> u64 {
        use AtomicOp::*;
        let float = |x: u64| {
            if wide {
                f64::from_bits(x)
            } else {
                f64::from(f32::from_bits(x as u32))
            }
        };
        let signed = |x: u64| {
            if wide {
                x as i64
            } else {
                i64::from(x as u32 as i32)
            }
        };
        let low = if wide { u64::MAX } else { 0xffff_ffff };
        let (old32, src32, extra32) = (old as u32, src as u32, extra as u32);
        let new = match self {
            Swap => src,
            CmpSwap => {
                if old == extra {
                    src
                } else {
                    old
                }
            }
            FCmpSwap => {
                if float(old) == float(extra) {
                    src
                } else {
                    old
                }
            }
            Add => old.wrapping_add(src),
            Sub => old.wrapping_sub(src),
            Rsub => src.wrapping_sub(old),
            Smin if signed(src) < signed(old) => src,
            Smax if signed(src) > signed(old) => src,
            Smin | Smax => old,
            Umin => old.min(src),
            Umax => old.max(src),
            And => old & src,
            Or => old | src,
            Xor => old ^ src,
            Inc => {
                if old >= src {
                    0
                } else {
                    old + 1
                }
            }
            Dec => {
                if old == 0 || old > src {
                    src
                } else {
                    old - 1
                }
            }
            Fmin | Fmax => {
                let quiet = if wide { 1 << 51 } else { 1 << 22 };
                let (o, d) = (float(old), float(src));
                match (o.is_nan(), d.is_nan()) {
                    (true, true) => old | quiet,
                    (true, false) => src,
                    (false, true) => old,
                    // Equal numbers have equal bits except for ±0: -0 is
                    // the smaller.
                    _ if o == d && matches!(self, Fmin) => old | src,
                    _ if o == d => old & src,
                    _ if (d < o) == matches!(self, Fmin) => src,
                    _ => old,
                }
            }
            Mskor => (old & !src) | extra,
            // 32-bit only: on the low dword of a 64-bit word.
            Fadd | Csub | Wrap => {
                let new32 = match self {
                    Fadd => (f32::from_bits(old32) + f32::from_bits(src32)).to_bits(),
                    Csub => old32.saturating_sub(src32),
                    _ if old32 >= src32 => old32 - src32,
                    _ => old32.wrapping_add(extra32),
                };
                return u64::from(new32) | (old & !0xffff_ffff);
            }
        };
        new & low
    }
}

#[cfg(test)]
mod tests {
    use super::AtomicOp::*;

    #[test]
    fn integer_rules() {
        assert_eq!(Inc.apply32(5, 5, 0), 0);
        assert_eq!(Inc.apply32(4, 5, 0), 5);
        assert_eq!(Dec.apply32(0, 7, 0), 7);
        assert_eq!(Dec.apply32(9, 7, 0), 7);
        assert_eq!(Dec.apply32(3, 7, 0), 2);
        assert_eq!(Csub.apply32(3, 7, 0), 0);
        assert_eq!(Rsub.apply32(3, 10, 0), 7);
        assert_eq!(Smin.apply32(u32::MAX, 1, 0), u32::MAX);
        assert_eq!(Umin.apply32(u32::MAX, 1, 0), 1);
        assert_eq!(CmpSwap.apply32(4, 9, 4), 9);
        assert_eq!(CmpSwap.apply32(5, 9, 4), 5);
        assert_eq!(Mskor.apply32(0xff, 0x0f, 0x100), 0x1f0);
        assert_eq!(Wrap.apply32(3, 5, 10), 13);
        assert_eq!(Wrap.apply32(7, 5, 10), 2);
        assert_eq!(Smax.apply64(u64::MAX, 1, 0), 1);
        assert_eq!(Dec.apply64(0, 9, 0), 9);
    }

    #[test]
    fn float_rules() {
        let b = f32::to_bits;
        assert_eq!(Fmin.apply32(b(2.0), b(-1.0), 0), b(-1.0));
        assert_eq!(Fmin.apply32(b(2.0), b(f32::NAN), 0), b(2.0));
        assert_eq!(Fmax.apply32(b(-0.0), b(0.0), 0), b(0.0));
        assert_eq!(Fmin.apply32(b(0.0), b(-0.0), 0), b(-0.0));
        assert_eq!(Fmin.apply32(b(f32::NAN), b(3.0), 0), b(3.0));
        assert_eq!(FCmpSwap.apply32(b(-0.0), b(5.0), b(0.0)), b(5.0));
        assert_eq!(Fadd.apply32(b(1.5), b(2.25), 0), b(3.75));
        assert_eq!(
            Fmax.apply64(2.0f64.to_bits(), 3.0f64.to_bits(), 0),
            3.0f64.to_bits()
        );
    }
}
