//! `tests/loader/events.c` (a chain of commands with wait lists, markers,
//! barriers, `clEnqueueTask`, event callbacks, event info) through the ICD
//! loader on gpusim, on each model the environment selects (functional,
//! cycle, lockstep), and on PoCL, which shows the program's expectations
//! are an implementation's, not only this one's; and the rectangular
//! transfer program (`rect.c`) likewise.

mod common;

use common::*;

#[test]
fn events_markers_barriers_and_tasks_on_every_model_and_on_pocl() {
    for model in ["functional", "cycle", "lockstep"] {
        if let Some(out) = run_c_on(Icd::Gpusim, "events", &[], &[("GPUSIM_MODEL", model)]) {
            assert!(out.contains("events ok"), "{model}: {out}");
        }
    }
    if let Some(out) = run_c_on(Icd::Pocl, "events", &[], &[]) {
        assert!(out.contains("events ok"), "PoCL: {out}");
    }
}

/// The bad-argument program on the clocked models too (the checks are the
/// API's, but the dispatches in it run on the model).
#[test]
fn the_error_program_passes_on_the_cycle_model() {
    if let Some(out) = run_c_on(Icd::Gpusim, "errors", &[], &[("GPUSIM_MODEL", "cycle")]) {
        assert!(out.contains("errors ok"), "{out}");
    }
}

/// `tests/loader/rect.c`: rectangular reads, writes and copies against a
/// host model of the layout, and their bad arguments, on gpusim and PoCL.
#[test]
fn rectangular_transfers_on_gpusim_and_on_pocl() {
    for icd in [Icd::Gpusim, Icd::Pocl] {
        if let Some(out) = run_c_on(icd, "rect", &[], &[]) {
            assert!(out.contains("rect ok"), "{icd:?}: {out}");
        }
    }
}
