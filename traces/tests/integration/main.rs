//! Integration tests of the traces crate (one test binary; topics in modules).
//!
//! The golden waveform `traces/golden/counter.vcd` is pinned by
//! `golden::counter_matches_golden`; after an intended format change rerun it
//! with `GPUSIM_BLESS=1 cargo test -p traces --test integration golden` to
//! rewrite the file, and review the diff.

mod bench;
mod design;
mod diff;
mod errors;
mod flat;
mod golden;
mod roundtrip;
mod window;
