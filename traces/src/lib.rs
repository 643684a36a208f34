//! Signal registry, streaming VCD writer and reader, trace diff.
//!
//! Hardware blocks describe their registers and ports once, with
//! [`signals!`]; the simulator walks the whole design with a [`Tracer`] after
//! every clock edge. The first walk declares the signals (hierarchical names,
//! widths); every later walk only compares values by position, so tracing costs
//! no string work per cycle.
#![deny(missing_docs)]

mod probe;

pub use probe::{Leaf, Probe};

/// One declared signal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignalDecl {
    /// Hierarchical name, scopes separated by `.` (`gpu.cu0.sched.issue_wave`).
    pub path: String,
    /// Width in bits.
    pub width: u32,
}

/// Whether the walk declares signals or samples their values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Declare,
    Sample,
}

/// Walks hardware state: the first walk declares every signal, each later walk
/// records which values changed since the previous one.
#[derive(Debug)]
pub struct Tracer {
    mode: Mode,
    /// Current scope path (declaring only).
    path: String,
    /// Position of the next signal in the current walk.
    cursor: usize,
    signals: Vec<SignalDecl>,
    values: Vec<u64>,
    /// Indices whose value changed during the current sampling walk.
    changed: Vec<usize>,
}

impl Tracer {
    /// A tracer whose first walk declares the signals.
    pub fn names() -> Tracer {
        Tracer {
            mode: Mode::Declare,
            path: String::new(),
            cursor: 0,
            signals: Vec::new(),
            values: Vec::new(),
            changed: Vec::new(),
        }
    }

    /// The hierarchical names declared so far, in walk order.
    pub fn declared(&self) -> Vec<String> {
        self.signals.iter().map(|s| s.path.clone()).collect()
    }

    /// Every declared signal.
    pub fn signals(&self) -> &[SignalDecl] {
        &self.signals
    }

    /// Current values, by declaration index.
    pub fn values(&self) -> &[u64] {
        &self.values
    }

    /// Indices changed by the last sampling walk.
    pub fn changed(&self) -> &[usize] {
        &self.changed
    }

    /// Ends a walk: after the first one (declaring), later walks sample.
    /// Returns the indices that changed in this walk (all of them after the first).
    pub fn end_walk(&mut self) -> &[usize] {
        if self.mode == Mode::Declare {
            self.mode = Mode::Sample;
            self.changed = (0..self.signals.len()).collect();
        }
        self.cursor = 0;
        &self.changed
    }

    /// Starts a walk (clears the change list of the previous one).
    pub fn begin_walk(&mut self) {
        self.cursor = 0;
        self.changed.clear();
    }

    /// Emits the signals of `body` under the scope `name`.
    #[inline]
    pub fn scope(&mut self, name: &str, body: impl FnOnce(&mut Tracer)) {
        if self.mode == Mode::Declare {
            let len = self.path.len();
            if !self.path.is_empty() {
                self.path.push('.');
            }
            self.path.push_str(name);
            body(self);
            self.path.truncate(len);
        } else {
            body(self);
        }
    }

    /// Calls `body` with the name `{prefix}{index}`; the name is only formatted
    /// while declaring.
    #[inline]
    pub fn indexed(&mut self, prefix: &str, index: usize, body: impl FnOnce(&mut Tracer, &str)) {
        if self.mode == Mode::Declare {
            let name = format!("{prefix}{index}");
            body(self, &name);
        } else {
            body(self, "");
        }
    }

    /// A valid/payload port: `{name}_valid`, then the payload's signals.
    #[inline]
    pub fn valid_port(&mut self, name: &str, valid: bool, payload: impl FnOnce(&mut Tracer)) {
        if self.mode == Mode::Declare {
            self.signal(&format!("{name}_valid"), 1, u64::from(valid));
        } else {
            self.signal("", 1, u64::from(valid));
        }
        payload(self);
    }

    /// One leaf signal of `width` bits (at most 64).
    #[inline]
    pub fn signal(&mut self, name: &str, width: u32, value: u64) {
        debug_assert!((1..=64).contains(&width));
        match self.mode {
            Mode::Declare => {
                let path = if self.path.is_empty() {
                    name.to_string()
                } else {
                    format!("{}.{name}", self.path)
                };
                self.signals.push(SignalDecl { path, width });
                self.values.push(value);
            }
            Mode::Sample => {
                let i = self.cursor;
                if self.values[i] != value {
                    self.values[i] = value;
                    self.changed.push(i);
                }
            }
        }
        self.cursor += 1;
    }
}
