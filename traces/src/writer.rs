//! [`VcdTrace`]: a streaming VCD writer fed by [`Tracer`] walks.
//!
//! The header (scopes, variables) is written through the `vcd` crate once; the
//! value changes, which are the hot path, are formatted by hand into a reused
//! byte buffer with identifier codes prepared at declaration, so a sample
//! neither allocates nor goes through `fmt`.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::filter::Filter;
use crate::header::{write_header, FastHash, Out, Tree, NOT_WRITTEN};
use crate::line::{max_change_len, Line};
use crate::{TraceError, Tracer};

/// What to write and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VcdOptions {
    /// Globs over hierarchical names selecting the signals to write
    /// (`"gpu.cu0.*"`, `"*.valid"`, several separated by commas; a glob naming
    /// a scope selects everything under it). `None` writes every signal.
    pub filter: Option<String>,
    /// First cycle written (inclusive). All selected values are dumped at the
    /// first sample in the window, so the window reads on its own.
    pub from: Option<u64>,
    /// Last cycle written (inclusive).
    pub to: Option<u64>,
    /// Nanoseconds per cycle, written as the `$timescale` (timestamps are cycle
    /// numbers). Strict VCD readers accept only 1, 10 and 100.
    pub timescale_ns: u32,
    /// Samples between flushes of the write buffer to the file (0: only at
    /// [`VcdTrace::flush`] and the end).
    pub flush_every: u32,
}

impl Default for VcdOptions {
    fn default() -> Self {
        VcdOptions {
            filter: None,
            from: None,
            to: None,
            timescale_ns: 1,
            flush_every: 1024,
        }
    }
}

/// A VCD file being written, one sample per call to [`VcdTrace::sample`].
///
/// Dropping it without [`VcdTrace::finish`] (an early return, a fault being
/// reported, a handled Ctrl-C) still ends and flushes the file; only `finish`
/// reports errors from that last write.
pub struct VcdTrace {
    path: PathBuf,
    out: vcd::Writer<BufWriter<File>>,
    filter: Option<Filter>,
    from: u64,
    to: u64,
    timescale_ns: u32,
    flush_every: u32,
    tracer: Tracer,
    outs: Vec<Out>,
    /// The text of one sample, reused.
    line: Line,
    /// Last cycle passed to `sample`.
    last_cycle: Option<u64>,
    /// Last `#` timestamp written.
    last_written: Option<u64>,
    /// Last sampled cycle inside the window.
    last_in_window: Option<u64>,
    window_started: bool,
    header_written: bool,
    unflushed: u32,
    closed: bool,
}

impl std::fmt::Debug for VcdTrace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VcdTrace")
            .field("path", &self.path)
            .field("signals", &self.outs.len())
            .field("last_cycle", &self.last_cycle)
            .finish()
    }
}

impl VcdTrace {
    /// Creates (or truncates) the file at `path`. Nothing is written before the
    /// first [`sample`](VcdTrace::sample).
    pub fn create(path: &Path, options: VcdOptions) -> Result<VcdTrace, TraceError> {
        let from = options.from.unwrap_or(0);
        let to = options.to.unwrap_or(u64::MAX);
        if from > to {
            return Err(TraceError::BadWindow { from, to });
        }
        if options.timescale_ns == 0 {
            return Err(TraceError::BadTimescale);
        }
        let filter = options.filter.as_deref().map(Filter::parse).transpose()?;
        let file = File::create(path).map_err(|source| TraceError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(VcdTrace {
            path: path.to_path_buf(),
            out: vcd::Writer::new(BufWriter::with_capacity(1 << 16, file)),
            filter,
            from,
            to,
            timescale_ns: options.timescale_ns,
            flush_every: options.flush_every,
            tracer: Tracer::names(),
            outs: Vec::new(),
            line: Line::default(),
            last_cycle: None,
            last_written: None,
            last_in_window: None,
            window_started: false,
            header_written: false,
            unflushed: 0,
            closed: false,
        })
    }

    /// The file being written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The signal registry (every declared signal, selected or not).
    pub fn tracer(&self) -> &Tracer {
        &self.tracer
    }

    /// Records the state after clock edge `cycle`; `walk` probes the design
    /// (`|t| gpu.probe("gpu", t)`). The first call declares the signals and
    /// writes the header; outside the window `walk` is not even called. Cycles
    /// must increase from call to call.
    pub fn sample(&mut self, cycle: u64, walk: impl FnOnce(&mut Tracer)) -> Result<(), TraceError> {
        if let Some(last) = self.last_cycle {
            if cycle <= last {
                return Err(TraceError::TimeWentBack { cycle, last });
            }
        }
        if !self.tracer.is_declared() {
            if let Err(e) = self
                .tracer
                .walk(walk)
                .map(|_| ())
                .and_then(|_| self.declare())
            {
                // Start over on the next call rather than write a half header.
                self.tracer = Tracer::names();
                self.outs.clear();
                return Err(e);
            }
            self.last_cycle = Some(cycle);
            if self.in_window(cycle) {
                self.dump_all(cycle)?;
            }
            return Ok(());
        }
        self.last_cycle = Some(cycle);
        if !self.in_window(cycle) {
            return Ok(());
        }
        if let Err(e) = self.tracer.walk(walk) {
            // The walk may have updated some values without their changes
            // being written: dump everything at the next good sample.
            self.window_started = false;
            return Err(e);
        }
        if self.window_started {
            self.write_changes(cycle)?;
        } else {
            self.dump_all(cycle)?;
        }
        Ok(())
    }

    /// Pushes buffered text to the file (not `fsync`): what is on disk
    /// afterwards is a valid VCD up to the last sample.
    pub fn flush(&mut self) -> Result<(), TraceError> {
        self.unflushed = 0;
        let path = &self.path;
        self.out.flush().map_err(|source| TraceError::Io {
            path: path.clone(),
            source,
        })
    }

    /// Ends the file (a last timestamp so the final values show their
    /// duration) and flushes it, reporting any error.
    pub fn finish(mut self) -> Result<(), TraceError> {
        self.close()
    }

    fn in_window(&self, cycle: u64) -> bool {
        (self.from..=self.to).contains(&cycle)
    }

    fn io(&self, source: std::io::Error) -> TraceError {
        TraceError::Io {
            path: self.path.clone(),
            source,
        }
    }

    /// Checks, before anything is written, that `walk` declares valid names
    /// and that every glob of the filter selects one of them: what the first
    /// [`sample`](VcdTrace::sample) would find, found before a simulation
    /// runs to its end for a trace it cannot write. On an error the file is
    /// removed (it holds nothing yet) and the trace is spent: drop it.
    pub fn check_signals(&mut self, walk: impl FnOnce(&mut Tracer)) -> Result<(), TraceError> {
        let walked = self.tracer.walk(walk).map(|_| ());
        let checked = walked.and_then(|_| self.selection());
        self.tracer = Tracer::names();
        if checked.is_err() && !self.header_written {
            self.closed = true;
            let _ = std::fs::remove_file(&self.path);
        }
        checked.map(|_| ())
    }

    /// Which declared signals the filter keeps, after checking the names.
    fn selection(&self) -> Result<Vec<bool>, TraceError> {
        let signals = self.tracer.signals();
        let mut seen = HashSet::with_capacity_and_hasher(signals.len(), FastHash::default());
        for s in signals {
            if !s.path.contains('.') {
                return Err(TraceError::BadName {
                    path: s.path.clone(),
                });
            }
            if !seen.insert(s.path.as_str()) {
                return Err(TraceError::DuplicateName {
                    path: s.path.clone(),
                });
            }
        }
        match &self.filter {
            Some(f) => f.select(signals.iter().map(|s| s.path.as_str())),
            None => Ok(vec![true; signals.len()]),
        }
    }

    /// Checks the declared names, applies the filter, writes the header.
    fn declare(&mut self) -> Result<(), TraceError> {
        let selected = self.selection()?;
        let signals = self.tracer.signals();
        let tree = Tree::build(signals.iter().map(|s| s.path.as_str()), &selected);
        let mut outs = vec![NOT_WRITTEN; signals.len()];
        let vars = Some((&tree, signals, outs.as_mut_slice()));
        let r = write_header(self.out.writer(), self.timescale_ns, vars);
        r.map_err(|e| self.io(e))?;
        self.header_written = true;
        self.outs = outs;
        if self.filter.is_some() {
            self.tracer.skip_unwanted(&selected);
        }
        Ok(())
    }

    /// Writes every selected value at `cycle` (the start of the window).
    fn dump_all(&mut self, cycle: u64) -> Result<(), TraceError> {
        self.line.clear(0);
        self.line.timestamp(cycle);
        self.line.text_bytes(b"$dumpvars\n");
        for (i, o) in self.outs.iter().enumerate() {
            if o.width != 0 {
                let words = self.tracer.value_words(i);
                self.line.reserve(max_change_len(words.len()));
                self.line.change(o.width, words, &o.suffix);
            }
        }
        self.line.text_bytes(b"$end\n");
        self.window_started = true;
        self.last_written = Some(cycle);
        self.emit_line(cycle)
    }

    /// Writes the values the last walk changed (nothing at all if none of them
    /// is selected).
    fn write_changes(&mut self, cycle: u64) -> Result<(), TraceError> {
        let changed = self.tracer.changed();
        // Room for the timestamp and every change of at most 64 bits; wider
        // ones reserve more.
        self.line.clear(24 + changed.len() * max_change_len(1));
        let values = self.tracer.values();
        for &i in changed {
            let Some(o) = self.outs.get(i).filter(|o| o.width != 0) else {
                continue;
            };
            if self.line.is_empty() {
                self.line.timestamp(cycle);
            }
            if o.width <= 64 {
                self.line.change(o.width, &values[i..=i], &o.suffix);
            } else {
                let words = self.tracer.value_words(i);
                self.line.reserve(max_change_len(words.len()));
                self.line.change(o.width, words, &o.suffix);
            }
        }
        if !self.line.is_empty() {
            self.last_written = Some(cycle);
        }
        self.emit_line(cycle)
    }

    fn emit_line(&mut self, cycle: u64) -> Result<(), TraceError> {
        self.last_in_window = Some(cycle);
        if !self.line.is_empty() {
            let r = self.out.writer().write_all(self.line.text());
            r.map_err(|e| self.io(e))?;
        }
        self.unflushed += 1;
        if self.flush_every != 0 && self.unflushed >= self.flush_every {
            self.flush()?;
        }
        Ok(())
    }

    fn close(&mut self) -> Result<(), TraceError> {
        if self.closed {
            return Ok(());
        }
        self.closed = true;
        if !self.header_written {
            let r = write_header(self.out.writer(), self.timescale_ns, None);
            r.map_err(|e| self.io(e))?;
            self.header_written = true;
        }
        if let (Some(end), Some(last)) = (self.last_in_window, self.last_written) {
            if end > last {
                self.line.clear(0);
                self.line.timestamp(end);
                let r = self.out.writer().write_all(self.line.text());
                r.map_err(|e| self.io(e))?;
            }
        }
        self.flush()
    }
}

impl Drop for VcdTrace {
    fn drop(&mut self) {
        // Errors here have nowhere to go; `finish` reports them.
        let _ = self.close();
    }
}
