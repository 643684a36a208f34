//! Sub-vector looping (seed 000, docs/variable-wavefront.md): a wave wider
//! than its SIMD runs in *parts* of `simd_lanes` lanes (wave64 on SIMD32: two
//! halves; on a 16-lane SIMD: four quarters, wave32 two halves).
//!
//! * **Conventional order** (the default): every instruction runs on all
//!   parts before the next one (I1 p0, I1 p1, I2 p0, …) — the VALU's passes
//!   ([`super::simd::timing`]).
//! * **Sub-vector looping order**: a *window* of instructions runs on part 0,
//!   then the same window on part 1, … (I1 p0, I2 p0, I1 p1, I2 p1). A part
//!   whose EXEC bits are all zero is skipped.
//!
//! The window is what the hardware can run per part without changing any
//! result ([`per_lane`]): a run of instructions each of which reads and
//! writes only its own lane's VGPRs and at most reads scalar registers —
//! VALU instructions without a scalar destination, carry or compare result,
//! DPP or cross-lane operand, and vector-memory / LDS *loads*. Any other
//! instruction closes it (scalar and control instructions, branches,
//! instructions reading EXEC as a value such as `v_mbcnt_lo_u32_b32`,
//! barriers, waitcnts, stores and atomics, `v_readlane`/`v_permlane*`/
//! `ds_bpermute`, VOPC/`v_cmpx`), as does reaching the instruction buffer's
//! size (the window's code must stay in the buffer to be replayed for the
//! next part). EXEC cannot change inside a window (nothing in it writes it),
//! so the parts to run are known when it opens. The closing instruction then
//! runs in conventional order.
//!
//! Because no instruction of a window reads another lane, writes a scalar
//! register or memory, running it part by part gives the same registers and
//! memory as running each instruction on all parts (spec 000 §6.10); loads
//! of a window see the memory of its start in both orders as long as no
//! other wave writes the same bytes meanwhile (a race in either order).
//!
//! [`ModeCtl`] is the mode control unit (spec 000 Fig 8): per CU, it counts
//! the vector L0's accesses and misses over a window of accesses and, at the
//! end of each window, compares the miss rate with a programmable threshold.

use arbitrary_int::{u10, u2, u4};
use arch::isa::{Family, Instruction, Variant};

use crate::config::SubvectorMode;
use crate::exec::code::EXEC_LO;
use crate::stats::Class;
use arch::command::SubvectorHint;

/// Parts of a wave of `wave_lanes` on a SIMD of `simd_lanes` (1, 2 or 4).
#[inline]
pub fn parts(wave_lanes: u32, simd_lanes: u32) -> u8 {
    (wave_lanes / simd_lanes.max(1)).clamp(1, 4) as u8
}

/// The lanes of part `part` (`simd_lanes` wide).
#[inline]
pub fn part_lanes(part: u8, simd_lanes: u32) -> u64 {
    let width = simd_lanes.clamp(1, 64);
    let ones = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    ones.checked_shl(u32::from(part) * width).unwrap_or(0)
}

/// Bit p set when part p of a wave with EXEC `exec` has an active lane.
#[inline]
pub fn active_parts(exec: u64, parts: u8, simd_lanes: u32) -> u8 {
    (0..parts).fold(0, |m, p| {
        m | (u8::from(exec & part_lanes(p, simd_lanes) != 0) << p)
    })
}

/// Whether `inst` (of issue class `class`) may run part by part inside a
/// sub-vector window: it reads and writes only its own lane's VGPRs and reads
/// no other lane (see the module documentation).
pub fn per_lane(inst: &Instruction, class: Class) -> bool {
    let name = inst.opcode.mnemonic();
    // A part runs with EXEC limited to its lanes: an instruction reading
    // EXEC as a value (`v_mbcnt_lo_u32_b32 v0, exec_lo, 0`) would see that.
    let reads_exec = inst.operands().iter().any(|o| {
        matches!(o, arch::isa::Operand::Src { code, .. } if *code == u16::from(EXEC_LO) || *code == u16::from(EXEC_LO) + 1)
    });
    if reads_exec {
        return false;
    }
    match class {
        Class::Valu => {
            let writes_scalar = inst.family == Family::Vopc
                || name.starts_with("v_cmp")
                || name.contains("_co_")
                || name.starts_with("v_div_scale")
                || name.starts_with("v_mad_u64_u32")
                || name.starts_with("v_mad_i64_i32")
                || name.starts_with("v_readlane")
                || name.starts_with("v_readfirstlane")
                || inst
                    .info()
                    .is_some_and(|i| i.operands.iter().any(|o| o.field == arch::isa::Field::Sdst));
            let cross_lane = matches!(inst.variant, Variant::Dpp16 | Variant::Dpp8)
                || name.starts_with("v_permlane")
                || name.starts_with("v_writelane")
                || name.starts_with("v_movrel")
                || name.starts_with("v_swaprel");
            !writes_scalar && !cross_lane
        }
        Class::Vmem => name.contains("_load") && !name.contains("atomic"),
        Class::Lds => name.starts_with("ds_read") && !name.contains("addtid"),
        _ => false,
    }
}

/// What the issue stage does with a wave's next instruction in sub-vector
/// mode, given its window registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowStep {
    /// Issue it in conventional order (all parts); no window is open.
    Conventional,
    /// Open a window at this instruction and run it on part `part`; `rest`
    /// are the parts to run after it.
    Open {
        /// The first part with an active lane.
        part: u8,
        /// Later parts with active lanes (bit per part).
        rest: u8,
    },
    /// Run it on the open window's current part.
    Continue,
    /// The window closed here and part `part` is next: go back to the
    /// window's first instruction.
    LoopBack {
        /// The next part.
        part: u8,
        /// Parts after it.
        rest: u8,
    },
    /// The window closed after its last part: close it and issue this
    /// instruction in conventional order.
    Close,
}

/// The window decision for an instruction that is `per_lane` (and
/// `in_window`: the window including it still fits the instruction
/// buffer), for a wave whose window is `open` with `rest` parts to go, and
/// whose EXEC has the active parts `active`.
#[inline]
pub fn window_step(
    open: bool,
    rest: u8,
    per_lane: bool,
    in_window: bool,
    active: u8,
) -> WindowStep {
    match (open, per_lane && in_window) {
        (true, true) => WindowStep::Continue,
        (true, false) if rest != 0 => WindowStep::LoopBack {
            part: rest.trailing_zeros() as u8,
            rest: rest & (rest - 1),
        },
        (true, false) => WindowStep::Close,
        // A wave with no active part runs its instructions conventionally
        // (one issue cycle each, as an all-zero EXEC does).
        (false, true) if active != 0 && per_lane => WindowStep::Open {
            part: active.trailing_zeros() as u8,
            rest: active & (active - 1),
        },
        (false, _) => WindowStep::Conventional,
    }
}

traces::signals! {
/// The mode control unit (`gpu.cuN.modectl`, spec 000 Fig 8): counts the
/// CU's vector L0 accesses and misses over `window` accesses; at the end of
/// each window the miss rate (per mille) is compared with the threshold:
/// below → conventional order, at or above → sub-vector looping. Waves read
/// `subvec` when they open a window (in `auto` mode).
#[derive(Clone, Copy, Debug, Default)]
pub struct ModeCtl {
    /// The configured mode (0 conventional, 1 sub-vector, 2 auto).
    pub mode: u2,
    /// The current choice: sub-vector looping.
    pub subvec: bool,
    /// L0 accesses counted in this window.
    pub accesses: u32,
    /// L0 misses counted in this window.
    pub misses: u32,
    /// The miss rate of the last complete window, per mille.
    pub last_rate: u10,
    /// The threshold, per mille (programmable).
    pub threshold: u10,
    /// Windows completed (wraps).
    pub windows: u4,
    /// The L0 counters when the window started.
    @untraced
    pub base: (u64, u64),
    /// Accesses per window.
    @untraced
    pub window: u32,
}
}

impl ModeCtl {
    /// The unit in mode `mode` with the threshold (per mille) and window
    /// (accesses) given.
    pub fn new(mode: SubvectorMode, threshold: u32, window: u32) -> ModeCtl {
        ModeCtl {
            mode: u2::new(mode as u8),
            subvec: mode == SubvectorMode::Subvector,
            threshold: u10::new(threshold.min(1000) as u16),
            window: window.max(1),
            ..ModeCtl::default()
        }
    }

    /// Whether a wave opening a window now runs it in sub-vector order.
    #[inline]
    pub fn wants_subvec(&self) -> bool {
        self.subvec
    }

    /// The configured mode.
    pub fn configured(&self) -> SubvectorMode {
        match self.mode.value() {
            1 => SubvectorMode::Subvector,
            2 => SubvectorMode::Auto,
            _ => SubvectorMode::Conventional,
        }
    }

    /// True when observing the L0 counters `l0` changes no register
    /// ([`ModeCtl::eval`] gives the unit back unchanged; event skipping).
    pub fn settled(&self, l0: (u64, u64)) -> bool {
        if self.configured() != SubvectorMode::Auto {
            return true;
        }
        let n = self.eval(l0);
        (n.accesses, n.misses, n.base, n.windows.value())
            == (self.accesses, self.misses, self.base, self.windows.value())
            && (n.subvec, n.last_rate.value()) == (self.subvec, self.last_rate.value())
    }

    /// The registers after observing the L0's cumulative `(accesses, misses)`
    /// counters this cycle.
    #[inline]
    pub fn eval(&self, l0: (u64, u64)) -> ModeCtl {
        let mut n = *self;
        if self.configured() != SubvectorMode::Auto {
            return n;
        }
        n.accesses = (l0.0 - self.base.0).min(u64::from(u32::MAX)) as u32;
        n.misses = (l0.1 - self.base.1).min(u64::from(u32::MAX)) as u32;
        if n.accesses >= self.window {
            let rate = miss_rate_per_mille(n.misses, n.accesses);
            n.last_rate = u10::new(rate);
            n.subvec = choose_subvector(rate, self.threshold.value());
            n.windows = u4::new((self.windows.value() + 1) & 15);
            n.base = l0;
            n.accesses = 0;
            n.misses = 0;
        }
        n
    }
}

/// A wave's issue order: its dispatch's indication (seed 000 §4, the
/// driver's first indication) or, without one, the configured default.
pub fn wave_mode(hint: SubvectorHint, configured: SubvectorMode) -> SubvectorMode {
    match hint {
        SubvectorHint::None => configured,
        SubvectorHint::Conventional => SubvectorMode::Conventional,
        SubvectorHint::Subvector => SubvectorMode::Subvector,
        SubvectorHint::Auto => SubvectorMode::Auto,
    }
}

/// The miss rate of `misses` in `accesses`, per mille (rounded down).
#[inline]
pub fn miss_rate_per_mille(misses: u32, accesses: u32) -> u16 {
    if accesses == 0 {
        return 0;
    }
    (u64::from(misses.min(accesses)) * 1000 / u64::from(accesses)) as u16
}

/// Spec 000 Fig 8: a miss rate below the threshold keeps conventional order;
/// at or above it (equality included) selects sub-vector looping.
#[inline]
pub fn choose_subvector(rate_per_mille: u16, threshold_per_mille: u16) -> bool {
    rate_per_mille >= threshold_per_mille
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_and_their_lanes() {
        assert_eq!(parts(64, 32), 2);
        assert_eq!(parts(64, 16), 4);
        assert_eq!(parts(32, 16), 2);
        assert_eq!(parts(32, 32), 1);
        assert_eq!(part_lanes(1, 32), 0xffff_ffff_0000_0000);
        assert_eq!(part_lanes(3, 16), 0xffff_0000_0000_0000);
        assert_eq!(active_parts(0x0000_0001_0000_0000, 4, 16), 0b0100);
        assert_eq!(active_parts(0, 2, 32), 0);
    }

    #[test]
    fn the_dispatch_indication_wins_over_the_configured_mode() {
        use SubvectorMode::*;
        for configured in [Conventional, Subvector, Auto] {
            assert_eq!(wave_mode(SubvectorHint::None, configured), configured);
            assert_eq!(
                wave_mode(SubvectorHint::Conventional, configured),
                Conventional
            );
            assert_eq!(wave_mode(SubvectorHint::Subvector, configured), Subvector);
            assert_eq!(wave_mode(SubvectorHint::Auto, configured), Auto);
        }
    }

    #[test]
    fn window_steps() {
        assert_eq!(
            window_step(false, 0, true, true, 0b11),
            WindowStep::Open {
                part: 0,
                rest: 0b10
            }
        );
        assert_eq!(
            window_step(false, 0, true, true, 0b10),
            WindowStep::Open { part: 1, rest: 0 }
        );
        assert_eq!(
            window_step(false, 0, true, true, 0),
            WindowStep::Conventional
        );
        assert_eq!(
            window_step(false, 0, false, true, 0b11),
            WindowStep::Conventional
        );
        assert_eq!(
            window_step(true, 0b10, true, true, 0b11),
            WindowStep::Continue
        );
        assert_eq!(
            window_step(true, 0b1100, false, true, 0b1111),
            WindowStep::LoopBack {
                part: 2,
                rest: 0b1000
            }
        );
        assert_eq!(
            window_step(true, 0b10, true, false, 0b11),
            WindowStep::LoopBack { part: 1, rest: 0 }
        );
        assert_eq!(window_step(true, 0, false, true, 0b11), WindowStep::Close);
    }

    #[test]
    fn threshold_below_equal_above() {
        // 250 of 1000 accesses missed: 250 per mille.
        assert_eq!(miss_rate_per_mille(250, 1000), 250);
        assert!(!choose_subvector(249, 250), "below: conventional");
        assert!(choose_subvector(250, 250), "equal: sub-vector");
        assert!(choose_subvector(251, 250), "above: sub-vector");
    }

    #[test]
    fn mode_control_unit_decides_at_window_ends() {
        let m = ModeCtl::new(SubvectorMode::Auto, 500, 10);
        assert!(!m.subvec);
        // Nine accesses: the window is not over.
        let m = m.eval((9, 9));
        assert!(!m.subvec && m.accesses == 9);
        // Ten accesses, five misses: 500 ‰ = threshold → sub-vector.
        let m = m.eval((10, 5));
        assert!(m.subvec);
        assert_eq!(
            (m.accesses, m.last_rate.value(), m.windows.value()),
            (0, 500, 1)
        );
        // Next window: 4 misses in 10 → below → conventional.
        let m = m.eval((20, 9));
        assert!(!m.subvec);
        assert_eq!(m.last_rate.value(), 400);
        // Fixed modes never change.
        let f = ModeCtl::new(SubvectorMode::Subvector, 500, 10).eval((10, 0));
        assert!(f.subvec);
    }
}
