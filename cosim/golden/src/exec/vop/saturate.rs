//! Integer `clamp`: the saturating narrowings that the VOP2, VOP3 and rare
//! executors share (a leaf, so those siblings do not import each other).

/// An exact unsigned result as 32 bits: saturated with `clamp` (LLVM,
/// AMDGPUModifierSyntax: on integer operations `clamp` clamps the result to
/// the largest and smallest representable value), else wrapped.
pub(super) fn sat_u32(x: u64, clamp: bool) -> u32 {
    if clamp {
        x.min(u64::from(u32::MAX)) as u32
    } else {
        x as u32
    }
}

/// An exact signed result as 32 bits: saturated with `clamp`, else wrapped.
pub(super) fn sat_i32(x: i64, clamp: bool) -> u32 {
    if clamp {
        x.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
    } else {
        x as u32
    }
}
