//! Reading waveforms back (with `wellen`) for tests and regressions, and
//! comparing two of them.
//!
//! Times are read as cycles: [`VcdTrace`](crate::VcdTrace) writes cycle numbers
//! as timestamps. For VCDs from other tools a "cycle" is one time unit of the
//! file.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use crate::TraceError;

/// One value of a signal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A signal of at most 64 bits whose bits are all 0 or 1.
    Bits(u64),
    /// A wider signal whose bits are all 0 or 1: little-endian 64-bit words.
    Wide(Vec<u64>),
    /// Anything else (bits that are `x` or `z`, reals, strings), as text.
    Other(String),
}

impl Value {
    /// The value as an integer, if it is [`Value::Bits`].
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Bits(v) => Some(*v),
            _ => None,
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Bits(v) => write!(f, "{v:#x}"),
            Value::Wide(words) => {
                let top = words.iter().rposition(|&w| w != 0).unwrap_or(0);
                write!(f, "{:#x}", words[top])?;
                for w in words[..top].iter().rev() {
                    write!(f, "_{w:016x}")?;
                }
                Ok(())
            }
            Value::Other(s) => f.write_str(s),
        }
    }
}

/// One signal's history.
#[derive(Clone, Debug)]
struct Track {
    width: u32,
    /// (cycle, value), cycles increasing, consecutive values different.
    changes: Vec<(u64, Value)>,
}

/// A whole waveform loaded in memory.
#[derive(Clone, Debug)]
pub struct Waveform {
    /// Hierarchical names (`gpu.cu0.pc`) in file order.
    names: Vec<String>,
    tracks: HashMap<String, Track>,
    times: Vec<u64>,
    timescale: Option<(u32, String)>,
}

impl Waveform {
    /// Reads a VCD (or FST, GHW) file completely.
    pub fn load(path: impl AsRef<Path>) -> Result<Waveform, TraceError> {
        let path = path.as_ref();
        let read_error = |e: wellen::WellenError| TraceError::Read {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        // wellen panics on a file it cannot open: check first.
        if let Err(e) = std::fs::File::open(path) {
            return Err(TraceError::Read {
                path: path.to_path_buf(),
                message: e.to_string(),
            });
        }
        let options = wellen::LoadOptions {
            multi_thread: false,
            remove_scopes_with_empty_name: false,
        };
        let mut wave = wellen::simple::read_with_options(path, &options).map_err(read_error)?;
        let h = wave.hierarchy();
        let vars: Vec<(String, u32, wellen::SignalRef)> = h
            .iter_vars()
            .map(|v| (v.full_name(h), v.length().unwrap_or(0), v.signal_ref()))
            .collect();
        let timescale = h.timescale().map(|t| (t.factor, format!("{:?}", t.unit)));
        let mut refs: Vec<wellen::SignalRef> = vars.iter().map(|v| v.2).collect();
        refs.sort();
        refs.dedup();
        wave.load_signals(&refs);
        let times = wave.time_table().to_vec();
        let mut names = Vec::with_capacity(vars.len());
        let mut tracks = HashMap::with_capacity(vars.len());
        for (name, width, r) in vars {
            let mut changes: Vec<(u64, Value)> = Vec::new();
            if let Some(signal) = wave.get_signal(r) {
                for (t, v) in signal.iter_changes() {
                    let cycle = times.get(t as usize).copied().unwrap_or(0);
                    let v = decode(&v);
                    match changes.last_mut() {
                        Some((c, last)) if *c == cycle => *last = v,
                        Some((_, last)) if *last == v => {}
                        _ => changes.push((cycle, v)),
                    }
                }
            }
            if tracks
                .insert(name.clone(), Track { width, changes })
                .is_none()
            {
                names.push(name);
            }
        }
        Ok(Waveform {
            names,
            tracks,
            times,
            timescale,
        })
    }

    /// Hierarchical names and widths, in file order.
    pub fn signals(&self) -> impl Iterator<Item = (&str, u32)> + '_ {
        self.names
            .iter()
            .map(|n| (n.as_str(), self.tracks[n].width))
    }

    /// The width of `name`, if the waveform has it.
    pub fn width(&self, name: &str) -> Option<u32> {
        self.tracks.get(name).map(|t| t.width)
    }

    /// The value of `name` at `cycle` (the last change at or before it), or
    /// `None` for an unknown name or a cycle before the first value.
    pub fn value_at(&self, name: &str, cycle: u64) -> Option<&Value> {
        let changes = &self.tracks.get(name)?.changes;
        let n = changes.partition_point(|(c, _)| *c <= cycle);
        changes.get(n.checked_sub(1)?).map(|(_, v)| v)
    }

    /// [`value_at`](Waveform::value_at) as an integer (signals of at most 64
    /// bits with no `x`/`z`).
    pub fn u64_at(&self, name: &str, cycle: u64) -> Option<u64> {
        self.value_at(name, cycle)?.as_u64()
    }

    /// Every change of `name` as (cycle, new value), the first being its
    /// initial value.
    pub fn changes(&self, name: &str) -> Option<&[(u64, Value)]> {
        self.tracks.get(name).map(|t| t.changes.as_slice())
    }

    /// All timestamps of the file, increasing.
    pub fn cycles(&self) -> &[u64] {
        &self.times
    }

    /// The `$timescale` as (factor, unit), if the file has one.
    pub fn timescale(&self) -> Option<(u32, &str)> {
        self.timescale.as_ref().map(|(f, u)| (*f, u.as_str()))
    }
}

/// Decodes wellen's big-endian packed bits.
fn decode(v: &wellen::SignalValue) -> Value {
    match v {
        wellen::SignalValue::Binary(data, bits) => {
            let mut words = vec![0u64; (*bits as usize).div_ceil(64).max(1)];
            // `data` is most significant byte first; walk it from the end.
            for (k, &b) in data.iter().rev().enumerate() {
                if let Some(w) = words.get_mut(k / 8) {
                    *w |= u64::from(b) << (8 * (k % 8));
                }
            }
            if *bits <= 64 {
                Value::Bits(words[0])
            } else {
                Value::Wide(words)
            }
        }
        wellen::SignalValue::FourValue(..) | wellen::SignalValue::NineValue(..) => {
            let text = v.to_bit_string().unwrap_or_default();
            from_bit_string(&text).unwrap_or(Value::Other(text))
        }
        other => Value::Other(other.to_string()),
    }
}

/// A 0/1 bit string as a value; `None` if it has other characters.
fn from_bit_string(text: &str) -> Option<Value> {
    let mut words = vec![0u64; text.len().div_ceil(64).max(1)];
    for (k, c) in text.bytes().rev().enumerate() {
        match c {
            b'0' => {}
            b'1' => words[k / 64] |= 1 << (k % 64),
            _ => return None,
        }
    }
    Some(if text.len() <= 64 {
        Value::Bits(words[0])
    } else {
        Value::Wide(words)
    })
}

/// How two waveforms differ for one signal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Difference {
    /// The signal is only in the first waveform.
    OnlyInA {
        /// Hierarchical name.
        name: String,
    },
    /// The signal is only in the second waveform.
    OnlyInB {
        /// Hierarchical name.
        name: String,
    },
    /// The signal has different widths.
    Width {
        /// Hierarchical name.
        name: String,
        /// Width in the first waveform.
        a: u32,
        /// Width in the second waveform.
        b: u32,
    },
    /// The first cycle at which the values differ (`None`: no value yet).
    Value {
        /// Hierarchical name.
        name: String,
        /// First differing cycle.
        cycle: u64,
        /// Value in the first waveform.
        a: Option<Value>,
        /// Value in the second waveform.
        b: Option<Value>,
    },
}

impl Difference {
    /// The signal the difference is about.
    pub fn name(&self) -> &str {
        match self {
            Difference::OnlyInA { name }
            | Difference::OnlyInB { name }
            | Difference::Width { name, .. }
            | Difference::Value { name, .. } => name,
        }
    }
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |v: &Option<Value>| match v {
            Some(v) => v.to_string(),
            None => "(none)".to_string(),
        };
        match self {
            Difference::OnlyInA { name } => write!(f, "{name}: only in the first waveform"),
            Difference::OnlyInB { name } => write!(f, "{name}: only in the second waveform"),
            Difference::Width { name, a, b } => write!(f, "{name}: width {a} vs {b}"),
            Difference::Value { name, cycle, a, b } => {
                write!(f, "{name}: cycle {cycle}: {} vs {}", show(a), show(b))
            }
        }
    }
}

/// Compares two waveforms signal by signal: the first differing cycle of each
/// signal in both, and the signals only one has. Sorted by name; empty when
/// the waveforms show the same values (however their changes are spelt, e.g.
/// a value dumped again unchanged).
pub fn diff(a: &Waveform, b: &Waveform) -> Vec<Difference> {
    let mut names: BTreeMap<&str, (Option<&Track>, Option<&Track>)> = BTreeMap::new();
    for (n, t) in &a.tracks {
        names.entry(n).or_default().0 = Some(t);
    }
    for (n, t) in &b.tracks {
        names.entry(n).or_default().1 = Some(t);
    }
    let mut out = Vec::new();
    for (name, pair) in names {
        let name = name.to_string();
        match pair {
            (Some(_), None) => out.push(Difference::OnlyInA { name }),
            (None, Some(_)) => out.push(Difference::OnlyInB { name }),
            (Some(ta), Some(tb)) if ta.width != tb.width => out.push(Difference::Width {
                name,
                a: ta.width,
                b: tb.width,
            }),
            (Some(ta), Some(tb)) => {
                if let Some((cycle, a, b)) = first_difference(&ta.changes, &tb.changes) {
                    out.push(Difference::Value { name, cycle, a, b });
                }
            }
            (None, None) => {}
        }
    }
    out
}

/// Walks both change lists in cycle order; the first cycle where the held
/// values differ.
fn first_difference(
    a: &[(u64, Value)],
    b: &[(u64, Value)],
) -> Option<(u64, Option<Value>, Option<Value>)> {
    let (mut i, mut j) = (0, 0);
    let (mut va, mut vb): (Option<&Value>, Option<&Value>) = (None, None);
    loop {
        let next = match (a.get(i), b.get(j)) {
            (None, None) => return None,
            (Some(x), None) => x.0,
            (None, Some(y)) => y.0,
            (Some(x), Some(y)) => x.0.min(y.0),
        };
        while let Some((_, v)) = a.get(i).filter(|(c, _)| *c == next) {
            va = Some(v);
            i += 1;
        }
        while let Some((_, v)) = b.get(j).filter(|(c, _)| *c == next) {
            vb = Some(v);
            j += 1;
        }
        if va != vb {
            return Some((next, va.cloned(), vb.cloned()));
        }
    }
}
