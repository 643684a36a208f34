//! Ctrl-C during a run: the handler only sets a flag; the clocked models'
//! per-cycle hook sees it and stops the run with an `Interrupted` fault, so the
//! waveform and the partial results are flushed on the way out.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Installs the handler (once; later calls do nothing).
pub fn install() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        // Without a handler Ctrl-C still ends the process, only less tidily.
        let _ = ctrlc::set_handler(|| REQUESTED.store(true, Ordering::Relaxed));
    });
}

/// True once Ctrl-C was pressed.
#[inline]
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}
