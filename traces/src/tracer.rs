//! The [`Tracer`]: walks hardware state, declaring signals on the first walk and
//! recording which values changed on every later one.

use crate::{Probe, TraceError};

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

/// Marks a signal of at most 64 bits in [`Tracer::wide_at`].
const NARROW: u32 = u32::MAX;

/// A slot's generation before its first sample: generations count up from 0
/// by one per write, so they do not reach it.
const NO_HINT: u64 = u64::MAX;

/// Walks hardware state: the first walk declares every signal, each later walk
/// records which values changed since the previous one.
///
/// Sampling compares values by position (the n-th signal of a walk is the n-th
/// declared one), so a later walk neither formats nor allocates; the hardware's
/// structure must not change between walks ([`Tracer::walk`] reports it if it
/// does).
#[derive(Debug)]
pub struct Tracer {
    mode: Mode,
    /// Current scope path (declaring only).
    path: String,
    /// Position of the next signal in the current walk.
    cursor: usize,
    signals: Vec<SignalDecl>,
    /// Values by declaration index (the low word for signals wider than 64 bits).
    values: Vec<u64>,
    /// Indices whose value changed during the current sampling walk: the
    /// first `n_changed` entries. Sized to the number of signals once declared,
    /// so that sampling stores every index and only advances the count on a
    /// change (no data-dependent branch, no capacity check).
    changed: Vec<usize>,
    n_changed: usize,
    /// For each signal, where its words start in `wide`, or `NARROW`.
    wide_at: Vec<u32>,
    /// The words of all signals wider than 64 bits, in walk order.
    wide: Vec<u64>,
    /// Position of the next wide signal's words in the current walk.
    wide_cursor: usize,
    /// The current sampling walk visited a signal the declaring walk did not
    /// have (or a wide signal with another word count).
    overrun: bool,
    /// The first problem found while declaring (bad width or name).
    declare_error: Option<TraceError>,
    /// Every `scope` call of the declaring walk, in walk order.
    scopes: Vec<ScopeSpan>,
    /// Position of the next `scope` call in the current walk.
    scope_cursor: usize,
    /// The words a [`Tracer::flat_scope`] block writes before they are
    /// compared with `values` (reused; sized to the largest block).
    scratch: Vec<u64>,
    /// By scope number, what the sampling fast paths need to know of it (a
    /// compact copy of `scopes`, built when the declaring walk ends).
    spans: Vec<Span>,
    /// By scope number, the change generation a [`Tracer::slots_hinted`]
    /// slot had when it was last sampled (`NO_HINT` before that).
    hints: Vec<u64>,
    /// Sample hinted slots whose generation did not change anyway and panic
    /// if their values did (a write the model did not count).
    check_hints: bool,
    /// Some scope is skipped by [`Tracer::skip_unwanted`].
    any_skip: bool,
}

/// A scope as the sampling fast paths ([`Tracer::flat_scope`],
/// [`Tracer::flat_run`], [`Tracer::unless_idle`]) see it: 16 bytes, so that
/// the checks of a walk touch few cache lines.
#[derive(Clone, Copy, Debug, Default)]
struct Span {
    /// First signal index inside.
    first: u32,
    /// Signals inside.
    signals: u32,
    /// `scope` calls it makes, its own included.
    scopes: u32,
    /// `SPAN_*` bits.
    flags: u32,
}

/// The scope holds no wide signal and its counts fit the fields: the fast
/// paths may use it (otherwise they leave it to the ordinary walk).
const SPAN_PLAIN: u32 = 1;
/// Sampling walks skip the scope (no wanted signal inside).
const SPAN_SKIP: u32 = 2;
/// The scope's first signal (an [`unless_idle`](Tracer::unless_idle) slot's
/// flag) was 0 at the last sample.
const SPAN_QUIET: u32 = 4;

impl Span {
    fn of(s: &ScopeSpan, values: &[u64]) -> Span {
        let fit = |n: usize| u32::try_from(n).ok();
        let plain = (fit(s.first), fit(s.first + s.signals), fit(s.subscopes + 1));
        let (first, signals, scopes, mut flags) = match plain {
            (Some(f), Some(_), Some(k)) if s.wide_words == 0 => {
                (f, s.signals as u32, k, SPAN_PLAIN)
            }
            _ => (0, 0, 0, 0),
        };
        if s.skip {
            flags |= SPAN_SKIP;
        }
        if s.signals > 0 && values.get(s.first) == Some(&0) {
            flags |= SPAN_QUIET;
        }
        Span {
            first,
            signals,
            scopes,
            flags,
        }
    }

    /// True if the fast paths may treat it as a block of `signals` signals
    /// starting at `first` that makes `scopes` scope calls.
    #[inline(always)]
    fn is(&self, first: usize, signals: usize, scopes: usize) -> bool {
        self.flags & SPAN_PLAIN != 0
            && self.first as usize == first
            && self.signals as usize == signals
            && self.scopes as usize == scopes
    }
}

/// What one `scope` call of the declaring walk covered, so that a sampling
/// walk can step over a scope no one looks at without visiting it.
#[derive(Clone, Copy, Debug, Default)]
struct ScopeSpan {
    /// First signal index inside.
    first: usize,
    /// Signals inside (nested scopes included).
    signals: usize,
    /// Words of wide signals inside.
    wide_words: usize,
    /// `scope` calls nested inside.
    subscopes: usize,
    /// Sampling walks skip this scope.
    skip: bool,
}

/// `value` with the bits above `width` cleared.
#[inline(always)]
fn mask(value: u64, width: u32) -> u64 {
    if width >= 64 {
        value
    } else {
        value & ((1u64 << width) - 1)
    }
}

/// Appends the decimal digits of `v`.
fn push_decimal(s: &mut String, v: usize) {
    let mut buf = [0; 20];
    let digits = crate::line::decimal(v as u64, &mut buf);
    s.extend(digits.iter().map(|&d| char::from(d)));
}

/// Number of 64-bit words of a `width`-bit signal.
#[inline(always)]
fn words_for(width: u32) -> usize {
    width.div_ceil(64) as usize
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
            n_changed: 0,
            wide_at: Vec::new(),
            wide: Vec::new(),
            wide_cursor: 0,
            overrun: false,
            scopes: Vec::new(),
            scope_cursor: 0,
            declare_error: None,
            scratch: Vec::new(),
            spans: Vec::new(),
            hints: Vec::new(),
            check_hints: cfg!(debug_assertions),
            any_skip: false,
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

    /// Current values, by declaration index (for a signal wider than 64 bits,
    /// its low word; see [`Tracer::value_words`]).
    pub fn values(&self) -> &[u64] {
        &self.values
    }

    /// The current value of signal `index` as little-endian 64-bit words (one
    /// word for signals of at most 64 bits). Empty if `index` is out of range.
    pub fn value_words(&self, index: usize) -> &[u64] {
        match (self.wide_at.get(index), self.signals.get(index)) {
            (Some(&NARROW), _) => &self.values[index..=index],
            (Some(&at), Some(s)) => {
                let at = at as usize;
                &self.wide[at..at + words_for(s.width)]
            }
            _ => &[],
        }
    }

    /// Indices changed by the last sampling walk.
    pub fn changed(&self) -> &[usize] {
        &self.changed[..self.n_changed]
    }

    /// True once the declaring walk has ended.
    pub fn is_declared(&self) -> bool {
        self.mode == Mode::Sample
    }

    /// Ends a walk: after the first one (declaring), later walks sample.
    /// Returns the indices that changed in this walk (all of them after the first).
    pub fn end_walk(&mut self) -> &[usize] {
        if self.mode == Mode::Declare {
            self.mode = Mode::Sample;
            self.changed = (0..self.signals.len()).collect();
            self.n_changed = self.changed.len();
            let values = &self.values;
            self.spans = self.scopes.iter().map(|s| Span::of(s, values)).collect();
            self.hints = vec![NO_HINT; self.spans.len()];
        }
        self.cursor = 0;
        self.wide_cursor = 0;
        self.scope_cursor = 0;
        self.changed()
    }

    /// Starts a walk (clears the change list of the previous one).
    pub fn begin_walk(&mut self) {
        self.cursor = 0;
        self.wide_cursor = 0;
        self.scope_cursor = 0;
        self.overrun = false;
        self.n_changed = 0;
    }

    /// One whole walk: [`begin_walk`](Tracer::begin_walk), `body`, then
    /// [`end_walk`](Tracer::end_walk). Returns the changed indices, or an error
    /// if a declaration was invalid (the tracer then starts over, declaring on
    /// its next walk) or the walk's structure differs from the declaring
    /// walk's.
    pub fn walk(&mut self, body: impl FnOnce(&mut Tracer)) -> Result<&[usize], TraceError> {
        self.begin_walk();
        body(self);
        if let Some(e) = self.declare_error.take() {
            // Back to an empty registry: the next walk declares afresh.
            *self = Tracer::names();
            return Err(e);
        }
        if self.mode == Mode::Sample && (self.overrun || self.cursor != self.signals.len()) {
            let visited = self.cursor;
            self.end_walk();
            return Err(TraceError::StructureChanged {
                declared: self.signals.len(),
                visited,
            });
        }
        Ok(self.end_walk())
    }

    /// Emits the signals of `body` under the scope `name` (an empty name adds
    /// no level).
    #[inline]
    pub fn scope(&mut self, name: &str, body: impl FnOnce(&mut Tracer)) {
        let k = self.scope_cursor;
        self.scope_cursor = k + 1;
        if self.mode == Mode::Sample {
            if let Some(span) = self.scopes.get(k).filter(|s| s.skip) {
                self.cursor += span.signals;
                self.wide_cursor += span.wide_words;
                self.scope_cursor += span.subscopes;
                return;
            }
            body(self);
        } else {
            self.declare_scope(name, body);
        }
    }

    /// Samples a block of fixed shape in one step: `fill` writes the
    /// `signals` values the block's scope would emit (in walk order, bits
    /// above each width clear) into a buffer that is then compared with the
    /// last values as one run of words; only a block that differs is walked
    /// word by word to record its changed signals. `scopes` is the number of
    /// `scope` calls the block's ordinary walk makes (its own included).
    ///
    /// Returns false, having done nothing, while declaring or when the scope at
    /// this position of the declaring walk does not have that shape: the
    /// caller then walks the block the ordinary way (which also reports a
    /// changed structure). [`signals!`](crate::signals) blocks use this.
    #[inline]
    pub fn flat_scope(
        &mut self,
        signals: usize,
        scopes: usize,
        fill: impl FnOnce(&mut [u64]),
    ) -> bool {
        if self.mode != Mode::Sample {
            return false;
        }
        let (i, k) = (self.cursor, self.scope_cursor);
        let Some(&span) = self.spans.get(k).filter(|s| s.is(i, signals, scopes)) else {
            return false;
        };
        self.cursor = i + signals;
        self.scope_cursor = k + scopes;
        if span.flags & SPAN_SKIP == 0 {
            self.sample_block(i, signals, fill);
        }
        true
    }

    /// Samples `count` consecutive blocks of the same fixed shape (the
    /// elements of a vector of [`signals!`](crate::signals) blocks) as one
    /// block: `fill` writes all `count * signals` values. Each element makes
    /// `scopes` scope calls (at least 1). As [`Tracer::flat_scope`], returns
    /// false having done nothing while declaring, when the first or last
    /// element's scope of the declaring walk does not have that shape, or when
    /// a filter skips scopes (the elements are then sampled one by one).
    #[inline]
    pub fn flat_run(
        &mut self,
        count: usize,
        signals: usize,
        scopes: usize,
        fill: impl FnOnce(&mut [u64]),
    ) -> bool {
        if self.mode != Mode::Sample || count == 0 || scopes == 0 || self.any_skip {
            return false;
        }
        let (i, k) = (self.cursor, self.scope_cursor);
        let (last_i, last_k) = (i + (count - 1) * signals, k + (count - 1) * scopes);
        let first_ok = self.spans.get(k).is_some_and(|s| s.is(i, signals, scopes));
        let last_ok = self
            .spans
            .get(last_k)
            .is_some_and(|s| s.is(last_i, signals, scopes));
        if !(first_ok && last_ok) {
            return false;
        }
        self.cursor = i + count * signals;
        self.scope_cursor = k + count * scopes;
        self.sample_block(i, count * signals, fill);
        true
    }

    /// The sampling half of [`Tracer::flat_scope`] for signals `i..i + n`.
    #[inline]
    fn sample_block(&mut self, i: usize, n: usize, fill: impl FnOnce(&mut [u64])) {
        if self.scratch.len() < n {
            self.scratch.resize(n, 0);
        }
        let new = &mut self.scratch[..n];
        fill(new);
        let Some(old) = self.values.get_mut(i..i + n) else {
            self.overrun = true;
            return;
        };
        // Most blocks do not change in most cycles. A branch-free fold rather
        // than `==` (a `memcmp` call, slow for a few dozen words).
        let diff = old
            .iter()
            .zip(new.iter())
            .fold(0, |d, (&o, &v)| d | (o ^ v));
        if diff == 0 {
            return;
        }
        // Indices before `i` were visited earlier in this walk, so at most `i`
        // are recorded and the `n` slots after them exist.
        let Some(changed) = self.changed.get_mut(self.n_changed..self.n_changed + n) else {
            self.overrun = true;
            return;
        };
        // Branch-free: every index is stored, the count advances on a change
        // (which signals of a block change is not predictable).
        let mut c = 0;
        for (j, (o, &v)) in old.iter_mut().zip(new.iter()).enumerate() {
            let differs = *o != v;
            *o = v;
            changed[c] = i + j;
            c += usize::from(differs);
        }
        self.n_changed += c;
    }

    /// Walks `body` — which must emit exactly one scope whose first signal is
    /// a liveness flag (a slot's `valid`) — unless the slot is not `live` now
    /// and its flag was already 0 at the previous sample: an unused slot's
    /// registers do not change, so sampling steps over them. This keeps the
    /// cost of tracing proportional to the slots in use.
    #[inline]
    pub fn unless_idle(&mut self, live: bool, body: impl FnOnce(&mut Tracer)) {
        if self.mode == Mode::Declare {
            return body(self);
        }
        let k = self.scope_cursor;
        let span = self.spans.get(k).copied();
        if let Some(s) = span {
            if !live && s.flags & (SPAN_PLAIN | SPAN_QUIET) == SPAN_PLAIN | SPAN_QUIET {
                self.cursor += s.signals as usize;
                self.scope_cursor += s.scopes as usize;
                return;
            }
        }
        body(self);
        // Whether the next sample may step over the slot if it is idle then:
        // its flag is 0 now.
        if let Some(s) = span {
            let quiet = s.signals > 0 && self.values.get(s.first as usize) == Some(&0);
            if let Some(s) = self.spans.get_mut(k) {
                s.flags = s.flags & !SPAN_QUIET | if quiet { SPAN_QUIET } else { 0 };
            }
        }
    }

    /// A row of slots named `{prefix}{i}`, each a block whose first signal is
    /// its liveness flag: the same as probing slot `i` through
    /// [`unless_idle`](Tracer::unless_idle)`(live(slot), ..)` one after the
    /// other. For blocks of fixed shape the sampling loop computes each slot's
    /// position from its index instead of from the previous slot's scope (a
    /// chain of dependent loads through the whole row), so stepping over an
    /// idle slot costs two independent loads.
    pub fn slots<T: Probe>(&mut self, prefix: &str, items: &[T], live: impl Fn(&T) -> bool) {
        self.slots_with(prefix, items, None, live);
    }

    /// As [`Tracer::slots`], with a change generation per slot (`gens[i]`
    /// for `items[i]`) that the model bumps whenever it may have written the
    /// slot: a slot whose generation is the one it had at its previous sample
    /// is stepped over without reading its registers. A write without a bump
    /// would leave the waveform stale; [`Tracer::check_hints`] (on in debug
    /// builds) samples such slots anyway and panics if they changed.
    pub fn slots_hinted<T: Probe>(
        &mut self,
        prefix: &str,
        items: &[T],
        gens: &[u64],
        live: impl Fn(&T) -> bool,
    ) {
        self.slots_with(prefix, items, Some(gens), live);
    }

    /// Whether [`Tracer::slots_hinted`] checks every slot it steps over
    /// (panicking on a slot whose values changed though its generation did
    /// not). On by default in debug builds; for tests of a model's bumps.
    pub fn check_hints(&mut self, on: bool) {
        self.check_hints = on;
    }

    fn slots_with<T: Probe>(
        &mut self,
        prefix: &str,
        items: &[T],
        gens: Option<&[u64]>,
        live: impl Fn(&T) -> bool,
    ) {
        if T::FLAT != 0 && T::SCOPES != 0 && self.fixed_slots(items, gens, &live) {
            return;
        }
        for (i, v) in items.iter().enumerate() {
            self.indexed(prefix, i, |t, n| t.unless_idle(live(v), |t| v.probe(n, t)));
        }
    }

    /// The sampling loop of [`Tracer::slots`]; false, having done nothing,
    /// while declaring or if the first or last slot's scope does not have the
    /// type's shape.
    fn fixed_slots<T: Probe>(
        &mut self,
        items: &[T],
        gens: Option<&[u64]>,
        live: &impl Fn(&T) -> bool,
    ) -> bool {
        let (n, f, k) = (items.len(), T::FLAT, T::SCOPES);
        if self.mode != Mode::Sample || n == 0 || gens.is_some_and(|g| g.len() != n) {
            return false;
        }
        let (c0, k0) = (self.cursor, self.scope_cursor);
        let shaped = |t: &Tracer, i: usize| {
            t.spans
                .get(k0 + i * k)
                .is_some_and(|s| s.is(c0 + i * f, f, k))
        };
        if !(shaped(self, 0) && shaped(self, n - 1)) {
            return false;
        }
        match gens {
            None => {
                for (i, v) in items.iter().enumerate() {
                    self.fixed_slot(i, v, (c0, k0), live, None);
                }
            }
            Some(gens) => {
                // Which slots' generations moved, as a bit mask per 64 slots
                // (branch-free: a few of them move in a given cycle), before
                // touching any slot or its scope.
                for base in (0..n).step_by(64) {
                    let end = (base + 64).min(n);
                    let mut moved = 0u64;
                    if k == 1 {
                        if let Some(hints) = self.hints.get(k0 + base..k0 + end) {
                            for (j, (&h, &g)) in hints.iter().zip(&gens[base..end]).enumerate() {
                                moved |= u64::from(h != g) << j;
                            }
                        }
                    } else {
                        for (j, &g) in gens[base..end].iter().enumerate() {
                            let h = self.hints.get(k0 + (base + j) * k).copied();
                            moved |= u64::from(h != Some(g)) << j;
                        }
                    }
                    if self.check_hints {
                        for i in (base..end).filter(|&i| moved >> (i - base) & 1 == 0) {
                            self.check_unchanged(i, c0 + i * f, f, |out| items[i].flat(out));
                        }
                    }
                    // In slot order, so that changes are listed in signal order.
                    while moved != 0 {
                        let i = base + moved.trailing_zeros() as usize;
                        moved &= moved - 1;
                        self.fixed_slot(i, &items[i], (c0, k0), live, Some(gens[i]));
                    }
                }
            }
        }
        self.cursor = c0 + n * f;
        self.scope_cursor = k0 + n * k;
        true
    }

    /// Samples slot `i` of a [`Tracer::fixed_slots`] row whose first slot's
    /// signals and scopes start at `c0` and `k0`, unless it is idle and was
    /// at its last sample; records its generation `gen` if it is sampled.
    #[inline(always)]
    fn fixed_slot<T: Probe>(
        &mut self,
        i: usize,
        v: &T,
        (c0, k0): (usize, usize),
        live: &impl Fn(&T) -> bool,
        gen: Option<u64>,
    ) {
        let (f, k) = (T::FLAT, T::SCOPES);
        let (c, kk) = (c0 + i * f, k0 + i * k);
        let Some(&s) = self.spans.get(kk).filter(|s| s.is(c, f, k)) else {
            self.overrun = true;
            return;
        };
        let quiet = s.flags & SPAN_QUIET != 0;
        if s.flags & SPAN_SKIP != 0 || (quiet && !live(v)) {
            return;
        }
        // Only a sampled slot's generation is recorded: its values are then
        // the slot's as of that generation.
        if let (Some(g), Some(h)) = (gen, self.hints.get_mut(kk)) {
            *h = g;
        }
        self.sample_block(c, f, |out| v.flat(out));
        let now_quiet = self.values.get(c) == Some(&0);
        if now_quiet != quiet {
            if let Some(s) = self.spans.get_mut(kk) {
                s.flags ^= SPAN_QUIET;
            }
        }
    }

    /// Panics if slot `slot`'s values (signals `c..c + f`) differ from the
    /// last sampled ones: its generation said it was not written.
    #[cold]
    #[inline(never)]
    fn check_unchanged(&mut self, slot: usize, c: usize, f: usize, fill: impl FnOnce(&mut [u64])) {
        let mut now = vec![0; f];
        fill(&mut now);
        if let Some(last) = self.values.get(c..c + f) {
            if let Some(j) = (0..f).find(|&j| last[j] != now[j]) {
                let name = self.signals.get(c + j).map_or("?", |d| d.path.as_str());
                panic!(
                    "slot {slot}: `{name}` changed from {:#x} to {:#x} without a generation bump \
                     (the model wrote it without counting the write)",
                    last[j], now[j]
                );
            }
        }
    }

    fn declare_scope(&mut self, name: &str, body: impl FnOnce(&mut Tracer)) {
        let k = self.scopes.len();
        self.scopes.push(ScopeSpan {
            first: self.cursor,
            ..ScopeSpan::default()
        });
        let (cursor, wide_cursor) = (self.cursor, self.wide_cursor);
        let len = self.path.len();
        if !name.is_empty() {
            if !self.path.is_empty() {
                self.path.push('.');
            }
            self.path.push_str(name);
        }
        body(self);
        self.path.truncate(len);
        let subscopes = self.scopes.len() - k - 1;
        self.scopes[k] = ScopeSpan {
            first: cursor,
            signals: self.cursor - cursor,
            wide_words: self.wide_cursor - wide_cursor,
            subscopes,
            skip: false,
        };
    }

    /// Makes sampling walks step over every scope that holds no signal with
    /// `wanted[index]` set (after the declaring walk; `wanted` has one entry
    /// per signal). Skipped signals keep stale values and never show as
    /// changed: for writers that only look at the wanted ones.
    pub fn skip_unwanted(&mut self, wanted: &[bool]) {
        // prefix[i]: wanted signals before index i.
        let mut prefix = Vec::with_capacity(wanted.len() + 1);
        prefix.push(0usize);
        for &w in wanted {
            prefix.push(prefix[prefix.len() - 1] + usize::from(w));
        }
        let count = |a: usize, b: usize| match (prefix.get(a), prefix.get(b)) {
            (Some(x), Some(y)) => y - x,
            // Out of range (wanted too short): keep the scope.
            _ => 1,
        };
        for (k, s) in self.scopes.iter_mut().enumerate() {
            s.skip = count(s.first, s.first + s.signals) == 0;
            if let Some(f) = self.spans.get_mut(k) {
                f.flags = f.flags & !SPAN_SKIP | if s.skip { SPAN_SKIP } else { 0 };
            }
            self.any_skip |= s.skip;
        }
    }

    /// Calls `body` with the name `{prefix}{index}`; the name is only formatted
    /// while declaring.
    #[inline]
    pub fn indexed(&mut self, prefix: &str, index: usize, body: impl FnOnce(&mut Tracer, &str)) {
        if self.mode == Mode::Declare {
            // By hand: `format!` costs more than the rest of declaring a name.
            let mut name = String::with_capacity(prefix.len() + 20);
            name.push_str(prefix);
            push_decimal(&mut name, index);
            body(self, &name);
        } else {
            body(self, "");
        }
    }

    /// A valid/payload port: `{name}_valid`, then the payload's signals.
    #[inline]
    pub fn valid_port(&mut self, name: &str, valid: bool, payload: impl FnOnce(&mut Tracer)) {
        if self.mode == Mode::Declare {
            let mut flag = String::with_capacity(name.len() + 6);
            flag.push_str(name);
            flag.push_str("_valid");
            self.signal(&flag, 1, u64::from(valid));
        } else {
            self.signal("", 1, u64::from(valid));
        }
        payload(self);
    }

    /// One leaf signal of `width` bits (1 to 64; wider signals use
    /// [`Tracer::wide`]). Bits above `width` are ignored.
    #[inline]
    pub fn signal(&mut self, name: &str, width: u32, value: u64) {
        let value = mask(value, width);
        let i = self.cursor;
        self.cursor = i + 1;
        if self.mode == Mode::Sample {
            match (self.values.get_mut(i), self.changed.get_mut(self.n_changed)) {
                (Some(v), Some(slot)) => {
                    let differs = *v != value;
                    *v = value;
                    *slot = i;
                    self.n_changed += usize::from(differs);
                }
                _ => self.overrun = true,
            }
        } else {
            self.declare_narrow(name, width, value);
        }
    }

    /// The declaring half of [`Tracer::signal`], kept out of line so that the
    /// sampling path inlined into every probe stays small.
    #[cold]
    #[inline(never)]
    fn declare_narrow(&mut self, name: &str, width: u32, value: u64) {
        if !(1..=64).contains(&width) {
            let path = self.full_path(name);
            self.note_error(TraceError::BadWidth { path, width });
        }
        self.declare(name, width, value, NARROW);
    }

    /// A leaf signal of any width, given as little-endian 64-bit words
    /// (`words.len()` must be `width.div_ceil(64)`; bits above `width` are
    /// ignored). Use it for signals wider than 64 bits (a 1,024-bit vector
    /// register row, a 128-bit descriptor).
    pub fn wide(&mut self, name: &str, width: u32, words: &[u64]) {
        let n = words_for(width);
        match self.mode {
            Mode::Declare => {
                if width == 0 || words.len() != n {
                    let path = self.full_path(name);
                    self.note_error(TraceError::BadWidth { path, width });
                }
                let at = self.wide.len() as u32;
                for k in 0..n {
                    let w = words.get(k).copied().unwrap_or(0);
                    self.wide.push(mask(w, width - 64 * k as u32));
                }
                let low = self.wide.get(at as usize).copied().unwrap_or(0);
                self.declare(name, width, low, at);
            }
            Mode::Sample => {
                let i = self.cursor;
                let at = self.wide_cursor;
                let declared = self.wide_at.get(i).copied() == Some(at as u32)
                    && at + n <= self.wide.len()
                    && words.len() == n;
                if !declared {
                    self.overrun = true;
                } else {
                    let mut changed = false;
                    for (k, &w) in words.iter().enumerate() {
                        let w = mask(w, width - 64 * k as u32);
                        if self.wide[at + k] != w {
                            self.wide[at + k] = w;
                            changed = true;
                        }
                    }
                    if changed {
                        self.values[i] = self.wide[at];
                        self.changed[self.n_changed] = i;
                        self.n_changed += 1;
                    }
                }
            }
        }
        self.wide_cursor += n;
        self.cursor += 1;
    }

    fn full_path(&self, name: &str) -> String {
        if self.path.is_empty() {
            name.to_string()
        } else if name.is_empty() {
            self.path.clone()
        } else {
            let mut path = String::with_capacity(self.path.len() + 1 + name.len());
            path.push_str(&self.path);
            path.push('.');
            path.push_str(name);
            path
        }
    }

    fn note_error(&mut self, e: TraceError) {
        if self.declare_error.is_none() {
            self.declare_error = Some(e);
        }
    }

    fn declare(&mut self, name: &str, width: u32, value: u64, wide_at: u32) {
        let path = self.full_path(name);
        let bad_component = path.is_empty()
            || path
                .split('.')
                .any(|c| c.is_empty() || c.bytes().any(|b| !b.is_ascii_graphic()));
        if bad_component {
            self.note_error(TraceError::BadName { path: path.clone() });
        }
        self.signals.push(SignalDecl { path, width });
        self.values.push(value);
        self.wide_at.push(wide_at);
    }
}
