//! Comparison of final buffer contents with the reference, per
//! [`Compare`] mode.

use crate::error::CorpusError;
use crate::types::{BufferData, Compare};

/// Distance in units in the last place between two floats (`+0` and `-0`
/// are 0 apart; `u64::MAX` if exactly one is NaN; 0 if both are NaN).
pub fn ulp_distance(a: f32, b: f32) -> u64 {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => return 0,
        (true, false) | (false, true) => return u64::MAX,
        _ => {}
    }
    // Map the sign-magnitude encoding onto a monotonic integer line.
    fn ord(x: f32) -> i64 {
        let b = x.to_bits();
        let mag = (b & 0x7fff_ffff) as i64;
        if b >> 31 == 1 {
            -mag
        } else {
            mag
        }
    }
    (ord(a) - ord(b)).unsigned_abs()
}

/// True when element `i` of `actual` matches element `i` of `expected`
/// under `cmp` (the element-wise modes only).
fn element_matches(cmp: Compare, expected: &BufferData, actual: &BufferData, i: usize) -> bool {
    match (cmp, expected, actual) {
        (Compare::Ulps(n), BufferData::F32(e), BufferData::F32(a)) => {
            ulp_distance(e[i], a[i]) <= n as u64
        }
        (Compare::AbsRel { abs, rel }, BufferData::F32(e), BufferData::F32(a)) => {
            let (e, a) = (e[i], a[i]);
            if e.is_nan() || a.is_nan() {
                e.is_nan() && a.is_nan()
            } else {
                ((a as f64) - (e as f64)).abs() <= abs as f64 + rel as f64 * (e as f64).abs()
            }
        }
        // Exact, and tolerances applied to integer data, compare bits.
        _ => expected.bits(i) == actual.bits(i),
    }
}

/// Compares one buffer. `kernel`, `arg` and `name` only label the error.
pub fn compare_buffer(
    kernel: &'static str,
    arg: usize,
    name: &'static str,
    cmp: Compare,
    expected: &BufferData,
    actual: &BufferData,
) -> Result<(), CorpusError> {
    let mismatch = |index: usize, e: String, a: String, count: usize| CorpusError::Mismatch {
        kernel,
        arg,
        name,
        index,
        expected: e,
        actual: a,
        count,
    };
    if expected.elem() != actual.elem() || expected.len() != actual.len() {
        return Err(mismatch(
            0,
            format!("{} x {}", expected.len(), expected.elem().name()),
            format!("{} x {}", actual.len(), actual.elem().name()),
            expected.len().max(actual.len()),
        ));
    }
    if cmp == Compare::Multiset {
        let sorted = |b: &BufferData| {
            let mut v: Vec<u64> = (0..b.len()).filter_map(|i| b.bits(i)).collect();
            v.sort_unstable();
            v
        };
        let (e, a) = (sorted(expected), sorted(actual));
        let diffs: Vec<usize> = (0..e.len()).filter(|&i| e[i] != a[i]).collect();
        return match diffs.first() {
            None => Ok(()),
            Some(&i) => Err(mismatch(
                i,
                format!("sorted element {:#x}", e[i]),
                format!("sorted element {:#x}", a[i]),
                diffs.len(),
            )),
        };
    }
    let mut first = None;
    let mut count = 0;
    for i in 0..expected.len() {
        if !element_matches(cmp, expected, actual, i) {
            count += 1;
            first.get_or_insert(i);
        }
    }
    match first {
        None => Ok(()),
        Some(i) => Err(mismatch(
            i,
            expected.format(i).unwrap_or_default(),
            actual.format(i).unwrap_or_default(),
            count,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ulp_distance_crosses_zero_and_counts_steps() {
        assert_eq!(ulp_distance(1.0, 1.0), 0);
        assert_eq!(ulp_distance(0.0, -0.0), 0);
        assert_eq!(ulp_distance(1.0, f32::from_bits(1.0f32.to_bits() + 3)), 3);
        assert_eq!(ulp_distance(f32::from_bits(1), -f32::from_bits(1)), 2);
        assert_eq!(ulp_distance(f32::NAN, 1.0), u64::MAX);
    }

    #[test]
    fn modes_accept_and_reject() {
        let e = BufferData::F32(vec![1.0, 2.0]);
        let one_ulp = BufferData::F32(vec![1.0, f32::from_bits(2.0f32.to_bits() + 1)]);
        assert!(compare_buffer("k", 0, "b", Compare::Exact, &e, &one_ulp).is_err());
        assert!(compare_buffer("k", 0, "b", Compare::Ulps(1), &e, &one_ulp).is_ok());
        let far = BufferData::F32(vec![1.0, 2.5]);
        assert!(compare_buffer(
            "k",
            0,
            "b",
            Compare::AbsRel { abs: 0.1, rel: 0.1 },
            &e,
            &far
        )
        .is_err());
        let m = BufferData::U32(vec![3, 1, 2]);
        let p = BufferData::U32(vec![1, 2, 3]);
        assert!(compare_buffer("k", 0, "b", Compare::Multiset, &m, &p).is_ok());
        assert!(compare_buffer("k", 0, "b", Compare::Exact, &m, &p).is_err());
        let q = BufferData::U32(vec![1, 2, 2]);
        let err = compare_buffer("k", 1, "out", Compare::Multiset, &m, &q);
        assert!(matches!(
            err,
            Err(CorpusError::Mismatch {
                arg: 1,
                count: 1,
                ..
            })
        ));
    }
}
