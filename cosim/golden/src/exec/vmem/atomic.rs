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
//! * Float `Fmin`/`Fmax`: `mem = (src < old) ? src : old` (resp. `>`), an
//!   ordered compare, so a NaN source leaves memory unchanged and a NaN in
//!   memory stays; `-0` and `+0` compare equal and keep the old value.
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
        use AtomicOp::*;
        let f = f32::from_bits;
        match self {
            Swap => src,
            CmpSwap => {
                if old == extra {
                    src
                } else {
                    old
                }
            }
            FCmpSwap => {
                if f(old) == f(extra) {
                    src
                } else {
                    old
                }
            }
            Add => old.wrapping_add(src),
            Sub => old.wrapping_sub(src),
            Rsub => src.wrapping_sub(old),
            Csub => old.saturating_sub(src),
            Smin => (old as i32).min(src as i32) as u32,
            Umin => old.min(src),
            Smax => (old as i32).max(src as i32) as u32,
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
            Fmin => {
                if f(src) < f(old) {
                    src
                } else {
                    old
                }
            }
            Fmax => {
                if f(src) > f(old) {
                    src
                } else {
                    old
                }
            }
            Fadd => (f(old) + f(src)).to_bits(),
            Mskor => (old & !src) | extra,
            Wrap => {
                if old >= src {
                    old - src
                } else {
                    old.wrapping_add(extra)
                }
            }
        }
    }

    /// The new 64-bit memory value (`Fadd`, `Csub` and `Wrap` have no 64-bit
    /// form; they are computed on the low dword).
    pub fn apply64(self, old: u64, src: u64, extra: u64) -> u64 {
        use AtomicOp::*;
        let f = f64::from_bits;
        match self {
            Swap => src,
            CmpSwap => {
                if old == extra {
                    src
                } else {
                    old
                }
            }
            FCmpSwap => {
                if f(old) == f(extra) {
                    src
                } else {
                    old
                }
            }
            Add => old.wrapping_add(src),
            Sub => old.wrapping_sub(src),
            Rsub => src.wrapping_sub(old),
            Smin => (old as i64).min(src as i64) as u64,
            Umin => old.min(src),
            Smax => (old as i64).max(src as i64) as u64,
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
            Fmin => {
                if f(src) < f(old) {
                    src
                } else {
                    old
                }
            }
            Fmax => {
                if f(src) > f(old) {
                    src
                } else {
                    old
                }
            }
            Mskor => (old & !src) | extra,
            Fadd | Csub | Wrap => {
                u64::from(self.apply32(old as u32, src as u32, extra as u32)) | (old & !0xffff_ffff)
            }
        }
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
        assert_eq!(Fmax.apply32(b(-0.0), b(0.0), 0), b(-0.0));
        assert_eq!(FCmpSwap.apply32(b(-0.0), b(5.0), b(0.0)), b(5.0));
        assert_eq!(Fadd.apply32(b(1.5), b(2.25), 0), b(3.75));
        assert_eq!(
            Fmax.apply64(2.0f64.to_bits(), 3.0f64.to_bits(), 0),
            3.0f64.to_bits()
        );
    }
}
