//! Pieces shared by the memory families' fast paths (`smem/fill.rs`,
//! `ds/fill.rs`, `flat/fill.rs`, `mubuf/fill.rs`): 256-bit sets of accepted
//! field values, computed once by calling the reference checks, and the
//! second-dword read.
//!
//! Like the ALU fast paths, a memory fast path answers "this instruction" or
//! "not sure"; its caller then runs the family's full decoder, which produces
//! the result or names the error. `family/fill_tests.rs` compares the two on
//! random words.

use std::sync::OnceLock;

use super::mem;
use crate::isa::{OperandType, Target};

/// A set of 8-bit field values.
pub(super) type Set256 = [u64; 4];

/// The values `0..256` for which `ok` holds, as a set.
pub(super) fn set_of(mut ok: impl FnMut(u16) -> bool) -> Set256 {
    let mut set = [0u64; 4];
    for n in 0..256u16 {
        if ok(n) {
            set[usize::from(n >> 6)] |= 1 << (n & 63);
        }
    }
    set
}

/// True when `n` is in `set` (values of 256 and up never are).
#[inline(always)]
pub(super) fn contains(set: &Set256, n: u32) -> bool {
    n < 256 && set[(n >> 6) as usize & 3] >> (n & 63) & 1 != 0
}

/// Per wave size (wave32, wave64), per operand type: the first-register numbers
/// [`mem::vgpr`] accepts for a VGPR range of that type.
type VgprSets = [[Set256; OperandType::ALL.len()]; 2];

fn vgpr_sets() -> &'static VgprSets {
    static SETS: OnceLock<VgprSets> = OnceLock::new();
    SETS.get_or_init(|| {
        let mut sets = [[[0u64; 4]; OperandType::ALL.len()]; 2];
        for (wave, target) in [Target::GFX1030_W32, Target::GFX1030_W64]
            .into_iter()
            .enumerate()
        {
            // The check depends on the range's width only, which depends on the
            // wave size only (lane masks), not on the ISA.
            for ty in OperandType::ALL {
                sets[wave][ty as usize] =
                    set_of(|n| mem::vgpr(target, u32::from(n), ty, "").is_ok());
            }
        }
        sets
    })
}

/// True when [`mem::vgpr`] accepts a `ty` range starting at `v[n]` on a target
/// with this wave size.
#[inline(always)]
pub(super) fn vgpr_ok(wave64: bool, ty: OperandType, n: u32) -> bool {
    contains(&vgpr_sets()[usize::from(wave64)][ty as usize], n)
}

/// The dword at byte `at` of `bytes`, if present.
#[inline(always)]
pub(super) fn dword_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(*bytes.get(at..)?.first_chunk::<4>()?))
}
