//! How many worker threads the clocked GPU evaluates its compute units on:
//! `--threads N` (exactly N), `--threads auto` (every core the process may
//! use, each clock edge on them only while they pay) or `--threads auto:N`
//! (up to N, adaptively). Results are identical for any choice
//! (docs/cycle-model.md, "Worker threads" and "Adaptive threads").

use std::fmt;
use std::str::FromStr;

/// The clocked GPU's worker threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threads {
    /// Exactly this many threads (1: the calling thread only).
    Fixed(usize),
    /// Up to this many, used while measuring shows they pay
    /// (`hw::ClockedGpu::set_adaptive_threads`).
    Adaptive(usize),
}

impl Threads {
    /// `auto`: adaptive over every core this process may use.
    pub fn auto() -> Threads {
        Threads::Adaptive(cores())
    }

    /// `auto` over `share` of the cores: each of `jobs` processes running
    /// at once gets `cores / jobs` threads (at least 1), so that together
    /// they ask for no more threads than there are cores.
    pub fn share_of(jobs: usize) -> Threads {
        Threads::Adaptive((cores() / jobs.max(1)).max(1))
    }

    /// The most threads it may use.
    pub fn max(self) -> usize {
        match self {
            Threads::Fixed(n) | Threads::Adaptive(n) => n,
        }
    }
}

/// Cores this process may use (its CPU affinity and quota).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Default for Threads {
    /// One thread: what a library host gets unless it asks.
    fn default() -> Threads {
        Threads::Fixed(1)
    }
}

impl fmt::Display for Threads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Threads::Fixed(n) => write!(f, "{n}"),
            Threads::Adaptive(n) => write!(f, "auto:{n}"),
        }
    }
}

impl FromStr for Threads {
    type Err = String;

    /// `N`, `auto` or `auto:N`, N ≥ 1.
    fn from_str(s: &str) -> Result<Threads, String> {
        let count = |t: &str| match t.trim().parse::<usize>() {
            Ok(0) => Err("--threads must be at least 1".to_string()),
            Ok(n) => Ok(n),
            Err(_) => Err(format!(
                "--threads {s}: expected a thread count, `auto` or `auto:N`"
            )),
        };
        match s.trim() {
            "auto" => Ok(Threads::auto()),
            t => match t.strip_prefix("auto:") {
                Some(n) => Ok(Threads::Adaptive(count(n)?)),
                None => Ok(Threads::Fixed(count(t)?)),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_counts_and_auto() {
        assert_eq!("3".parse(), Ok(Threads::Fixed(3)));
        assert_eq!("auto:2".parse(), Ok(Threads::Adaptive(2)));
        assert_eq!("auto".parse(), Ok(Threads::auto()));
        for bad in ["0", "auto:0", "", "two", "auto:", "-1"] {
            assert!(bad.parse::<Threads>().is_err(), "{bad}");
        }
        assert!("0".parse::<Threads>().unwrap_err().contains("at least 1"));
    }

    #[test]
    fn a_share_is_at_least_one_thread() {
        assert_eq!(Threads::share_of(usize::MAX), Threads::Adaptive(1));
        assert_eq!(Threads::share_of(1), Threads::auto());
        assert_eq!(Threads::share_of(0), Threads::auto());
    }
}
