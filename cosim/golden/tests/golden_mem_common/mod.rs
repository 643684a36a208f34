//! Shared helpers of the golden memory tests.
//!
//! The VALU is not needed: per-lane register values come from the data buffer
//! through a MUBUF load whose V# (in `s[8:11]`) has stride 4 and ADD_TID, so
//! lane `l` of row `k` reads `DATA + 256 * k + 4 * l` (the loader itself is
//! checked by `mubuf_add_tid_loader_and_offen_idxen`).

#![allow(dead_code)]

use arch::isa::{Isa, Target};
use golden::testing::{Finished, Kernel, DATA};
use golden::wave::Wave;

/// The three targets.
pub const ALL: [Target; 3] = [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64];

/// Bytes per loader row.
pub const ROW: u64 = 256;

/// Assembly that sets `m0 = -1` and loads `rows` loader rows into `v10`, `v11`, ....
pub fn preamble(t: Target, rows: usize) -> String {
    // gfx1030: OOB_SELECT = 3 (raw) so the stride-4 records are range-checked as bytes.
    let w3: u32 = (1 << 23) | if t.isa == Isa::Gfx1030 { 3 << 28 } else { 0 };
    // m0 = -1 as the compiler sets it for gfx803 DS (M0 is the LDS clamp there).
    let mut s = format!(
        "s_mov_b32 m0, -1\ns_mov_b32 s8, {DATA:#x}\ns_mov_b32 s9, {:#x}\ns_mov_b32 s10, -1\ns_mov_b32 s11, {w3:#x}\n",
        4 << 16
    );
    for k in 0..rows {
        s += &format!(
            "s_mov_b32 s12, {}\nbuffer_load_dword v{}, off, s[8:11], s12\n",
            k as u64 * ROW,
            10 + k
        );
    }
    s
}

/// Data-buffer bytes holding `rows` (row k, lane l = `f(k, l)`), then `extra` at `extra_at`.
pub fn rows(n: usize, f: impl Fn(usize, usize) -> u32) -> Vec<u8> {
    let mut out = vec![0u8; n * ROW as usize];
    for k in 0..n {
        for l in 0..64 {
            let at = k * ROW as usize + 4 * l;
            out[at..at + 4].copy_from_slice(&f(k, l).to_le_bytes());
        }
    }
    out
}

/// Runs a one-wave kernel and returns its final state.
pub fn run(k: &Kernel) -> Finished {
    let done = k
        .run()
        .unwrap_or_else(|e| panic!("{:?}: {e}\n{}", k.target, k.source));
    assert_eq!(done.waves.len(), 1, "{:?}", k.target);
    done
}

/// Asserts `v{reg}` of every lane of the wave against `expected(lane)`.
pub fn check(w: &Wave, reg: usize, expected: impl Fn(usize) -> u32) {
    for lane in 0..w.lanes() as usize {
        let got = w.vgpr[reg][lane];
        let want = expected(lane);
        assert_eq!(
            got, want,
            "{:?}: v{reg} lane {lane} = {got:#x}, expected {want:#x}",
            w.target
        );
    }
}
