//! Ctrl-C (SIGINT), SIGTERM (a batch system's time limit) and SIGHUP during a
//! run: the handler only records which signal came; the clocked models'
//! per-cycle hook sees it and stops the run with an `Interrupted` fault naming
//! the signal, so the waveform and the partial results are flushed on the way
//! out.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal received (0: none yet).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    // Async-signal-safe: one atomic store.
    SIGNAL.store(signal, Ordering::Relaxed);
}

/// Installs the handler (once; later calls do nothing).
pub fn install() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        #[cfg(unix)]
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: sigaction with a zeroed mask and a handler that only
            // stores to an atomic; SA_RESTART keeps interrupted reads going.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                // Without a handler the signal still ends the process, only less tidily.
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
        #[cfg(not(unix))]
        let _ = ctrlc::set_handler(|| SIGNAL.store(2, Ordering::Relaxed));
    });
}

/// True once a signal came.
#[inline]
pub fn requested() -> bool {
    SIGNAL.load(Ordering::Relaxed) != 0
}

/// The signal that came, as a user knows it (`SIGINT (Ctrl-C)`, `SIGTERM`).
pub fn signal_name() -> &'static str {
    name(SIGNAL.load(Ordering::Relaxed))
}

fn name(signal: i32) -> &'static str {
    match signal {
        15 => "SIGTERM",
        1 => "SIGHUP",
        _ => "SIGINT (Ctrl-C)",
    }
}

#[cfg(test)]
mod tests {
    #[cfg(unix)]
    #[test]
    fn signal_numbers_name_their_signals() {
        assert_eq!(super::name(libc::SIGTERM), "SIGTERM");
        assert_eq!(super::name(libc::SIGINT), "SIGINT (Ctrl-C)");
        assert_eq!(super::name(libc::SIGHUP), "SIGHUP");
    }
}
