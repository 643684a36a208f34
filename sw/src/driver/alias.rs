//! Seed 002 (docs/compiler.md "Seed 002"): before a dispatch of a kernel
//! compiled from source, the driver compares every pair of pointer
//! arguments and describes how the memory they can reach relates —
//! identical, disjoint (with the gap) or partially overlapping (each
//! region's start/end, the overlap's start/end and size). Identical pairs
//! produce no metadata (spec 002 §3); the JIT side (`compiler::specialise`)
//! recompiles when the report has any pair.
//!
//! The region of a pointer argument is `[address, end of its allocation)`:
//! a kernel may index forwards from the pointer it was given up to the end
//! of the buffer the driver allocated; reaching below the pointer or past
//! the allocation is out of bounds. Where the caller can bound the reach
//! (the compiler's or the workload's knowledge) the region is cut to
//! `address + reach`.

use std::ops::Range;

use arch::code_object::ValueKind;
use arch::device::Device;

use super::kernarg::{is_hidden, Arg};
use super::loader::LoadedKernel;
use super::{Driver, DriverError};

/// The memory one pointer argument can reach.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    /// Index among the kernel's explicit arguments.
    pub arg: usize,
    /// Device addresses `[start, end)`.
    pub range: Range<u64>,
}

impl Region {
    /// Bytes in the region.
    pub fn size(&self) -> u64 {
        self.range.end - self.range.start
    }
}

/// How two regions relate (the identical case has no metadata).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// No byte in common; `gap_bytes` separate the end of the lower region
    /// from the start of the higher one (0 when they touch).
    Disjoint {
        /// Bytes between the regions.
        gap_bytes: u64,
    },
    /// Some bytes in common, not all.
    PartialOverlap {
        /// `[max(start), min(end))`.
        overlap: Range<u64>,
    },
}

/// Metadata for one pair of pointer arguments (`first.arg < second.arg`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PairMetadata {
    /// The lower-numbered argument's region.
    pub first: Region,
    /// The higher-numbered argument's region.
    pub second: Region,
    /// Their relation.
    pub relation: Relation,
}

impl PairMetadata {
    /// `second.start − first.start` in bytes: the distance the compiler
    /// measures dependences with.
    pub fn delta(&self) -> i64 {
        self.second.range.start.wrapping_sub(self.first.range.start) as i64
    }

    /// Bytes in common (0 for disjoint regions).
    pub fn overlap_bytes(&self) -> u64 {
        match &self.relation {
            Relation::Disjoint { .. } => 0,
            Relation::PartialOverlap { overlap } => overlap.end - overlap.start,
        }
    }
}

/// The analysis of one dispatch's pointer arguments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AliasReport {
    /// Every pointer argument's region, in argument order.
    pub regions: Vec<Region>,
    /// Metadata for each non-identical pair, ordered by (first, second).
    pub pairs: Vec<PairMetadata>,
    /// Pairs of arguments whose regions are identical (no metadata).
    pub identical: Vec<(usize, usize)>,
}

impl AliasReport {
    /// True when recompiling cannot help: no pair has metadata.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// A text key of everything the compiler's decisions depend on: for each
    /// pair with metadata, the argument indices, the relation and (for an
    /// overlap) the base distance. Disjoint pairs leave out their gap, so
    /// layouts that differ only there share a compiled variant.
    pub fn signature(&self) -> String {
        let mut s = String::new();
        for p in &self.pairs {
            if !s.is_empty() {
                s.push(';');
            }
            match p.relation {
                Relation::Disjoint { .. } => {
                    s += &format!("{}-{}:disjoint", p.first.arg, p.second.arg)
                }
                Relation::PartialOverlap { .. } => {
                    s += &format!("{}-{}:overlap{:+}", p.first.arg, p.second.arg, p.delta())
                }
            }
        }
        s
    }
}

/// Classifies every pair of `regions` (spec 002 §3): identical (same start
/// and end), disjoint (`end₁ ≤ start₂` or `end₂ ≤ start₁`), else a partial
/// overlap `[max(start), min(end))`. Empty regions reach nothing and are
/// paired with nothing.
pub fn analyse(regions: &[Region]) -> AliasReport {
    let mut report = AliasReport {
        regions: regions.to_vec(),
        ..AliasReport::default()
    };
    for (i, a) in regions.iter().enumerate() {
        for b in &regions[i + 1..] {
            if a.size() == 0 || b.size() == 0 {
                continue;
            }
            let (first, second) = if a.arg <= b.arg { (a, b) } else { (b, a) };
            let relation = if first.range == second.range {
                report.identical.push((first.arg, second.arg));
                continue;
            } else if first.range.end <= second.range.start {
                Relation::Disjoint {
                    gap_bytes: second.range.start - first.range.end,
                }
            } else if second.range.end <= first.range.start {
                Relation::Disjoint {
                    gap_bytes: first.range.start - second.range.end,
                }
            } else {
                Relation::PartialOverlap {
                    overlap: first.range.start.max(second.range.start)
                        ..first.range.end.min(second.range.end),
                }
            };
            report.pairs.push(PairMetadata {
                first: first.clone(),
                second: second.clone(),
                relation,
            });
        }
    }
    report.pairs.sort_by_key(|p| (p.first.arg, p.second.arg));
    report
}

impl<D: Device> Driver<D> {
    /// The region of every global-pointer argument of `kernel` for a
    /// dispatch with `args` (explicit arguments, as [`Driver::launch`]
    /// takes them): from the pointer to the end of the allocation holding
    /// it, cut to `reach[i]` bytes where the caller bounds argument `i`.
    /// A pointer outside every allocation (e.g. null) gets an empty region.
    pub fn alias_regions(
        &self,
        kernel: &LoadedKernel,
        args: &[Arg],
        reach: &[Option<u64>],
    ) -> Result<Vec<Region>, DriverError> {
        let explicit: Vec<_> = kernel
            .kernel
            .metadata
            .args
            .iter()
            .filter(|a| !is_hidden(&a.value_kind))
            .collect();
        if explicit.len() != args.len() {
            return Err(DriverError::ArgCount {
                kernel: kernel.kernel.name.clone(),
                expected: explicit.len(),
                got: args.len(),
            });
        }
        let mut out = Vec::new();
        for (i, (meta, arg)) in explicit.iter().zip(args).enumerate() {
            let (ValueKind::GlobalBuffer, Arg::Buffer(addr)) = (&meta.value_kind, arg) else {
                continue;
            };
            let end = match self.heap().find(*addr) {
                Some(a) => a.range().end,
                None => *addr,
            };
            let end = match reach.get(i).copied().flatten() {
                Some(n) => end.min(addr.saturating_add(n)),
                None => end,
            };
            out.push(Region {
                arg: i,
                range: *addr..end,
            });
        }
        Ok(out)
    }

    /// [`alias_regions`](Driver::alias_regions) then [`analyse`]: the
    /// metadata for one dispatch (spec 002 Fig 5 steps 202–204).
    pub fn analyse_aliases(
        &self,
        kernel: &LoadedKernel,
        args: &[Arg],
    ) -> Result<AliasReport, DriverError> {
        Ok(analyse(&self.alias_regions(kernel, args, &[])?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(arg: usize, start: u64, end: u64) -> Region {
        Region {
            arg,
            range: start..end,
        }
    }

    #[test]
    fn the_three_cases_of_fig_3() {
        // Fig 3B: identical — no metadata.
        let rep = analyse(&[r(0, 0x800, 0x840), r(1, 0x800, 0x840)]);
        assert!(rep.is_empty());
        assert_eq!(rep.identical, vec![(0, 1)]);
        // Fig 3C: disjoint, two 4-byte entries apart.
        let rep = analyse(&[r(0, 0x800, 0x840), r(1, 0x848, 0x888)]);
        assert_eq!(rep.pairs[0].relation, Relation::Disjoint { gap_bytes: 8 });
        assert_eq!(rep.pairs[0].delta(), 0x48);
        // Fig 3D: partial overlap.
        let rep = analyse(&[r(0, 0x800, 0x840), r(1, 0x810, 0x850)]);
        assert_eq!(
            rep.pairs[0].relation,
            Relation::PartialOverlap {
                overlap: 0x810..0x840
            }
        );
        assert_eq!(rep.pairs[0].overlap_bytes(), 0x30);
        assert_eq!(rep.signature(), "0-1:overlap+16");
    }

    #[test]
    fn every_pair_of_several_arguments_and_the_order_of_arguments() {
        // out below in (a negative distance), one identical pair, one disjoint.
        let rep = analyse(&[
            r(0, 0x1010, 0x1100),
            r(1, 0x1000, 0x1100),
            r(2, 0x1000, 0x1100),
            r(3, 0x2000, 0x2100),
        ]);
        assert_eq!(rep.identical, vec![(1, 2)]);
        let keys: Vec<_> = rep
            .pairs
            .iter()
            .map(|p| (p.first.arg, p.second.arg))
            .collect();
        assert_eq!(keys, vec![(0, 1), (0, 2), (0, 3), (1, 3), (2, 3)]);
        assert_eq!(rep.pairs[0].delta(), -16);
        assert_eq!(
            rep.pairs[2].relation,
            Relation::Disjoint {
                gap_bytes: 0x2000 - 0x1100
            }
        );
        assert_eq!(
            rep.signature(),
            "0-1:overlap-16;0-2:overlap-16;0-3:disjoint;1-3:disjoint;2-3:disjoint"
        );
        // Empty regions pair with nothing.
        assert!(analyse(&[r(0, 0x10, 0x10), r(1, 0x10, 0x20)]).is_empty());
    }
}
