//! User events (`tests/loader/user_events.c`): commands deferred behind a
//! user event, run in order when it completes, failed when it fails, with
//! the kernel arguments of their enqueue; callbacks at the transitions; a
//! wait for a user event never set gives up after `GPUSIM_WAIT_TIMEOUT`.
//! On every model of gpusim and on PoCL.

mod common;

use std::time::Instant;

use common::*;

#[test]
fn user_events_defer_commands_on_every_model_and_on_pocl() {
    for model in ["functional", "cycle", "lockstep"] {
        let started = Instant::now();
        let vars = [("GPUSIM_MODEL", model), ("GPUSIM_WAIT_TIMEOUT", "0.5")];
        if let Some(out) = run_c_on(Icd::Gpusim, "user_events", &[], &vars) {
            assert!(out.contains("user events ok"), "{model}: {out}");
            // The one wait that times out, not the default minute.
            assert!(started.elapsed().as_secs() < 30, "{model}");
        }
    }
    if let Some(out) = run_c_on(Icd::Pocl, "user_events", &[], &[]) {
        assert!(out.contains("user events ok"), "PoCL: {out}");
    }
}
