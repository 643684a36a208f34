//! The Trace Event Format file ("JSON Object Format": `traceEvents`, with
//! `X` complete events, `i` instants, `C` counters and `M` metadata naming
//! the tracks), and a checker of what it writes.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;

use serde_json::json;

use super::record::{Recorder, Track};

/// Writes `r`'s events to `path`.
pub(crate) fn write(r: &Recorder, path: &Path, partial: bool) -> Result<(), String> {
    let io = |e: std::io::Error| format!("{}: {e}", path.display());
    let file = std::fs::File::create(path).map_err(io)?;
    let mut out = std::io::BufWriter::new(file);
    let mut first = true;
    let emit =
        |out: &mut std::io::BufWriter<std::fs::File>, first: &mut bool, v: serde_json::Value| {
            let sep = if *first { "\n" } else { ",\n" };
            *first = false;
            write!(out, "{sep}{v}").map_err(io)
        };
    write!(
        out,
        "{{\"displayTimeUnit\":\"ns\",\"otherData\":{{\"generator\":\"gpusim\",\"time_unit\":\"1 us of trace time = 1 GPU cycle\",\"cycles\":{},\"partial\":{partial},\"truncated_at\":{}}},\"traceEvents\":[",
        r.last,
        r.truncated_at.map_or("null".to_string(), |c| c.to_string())
    )
    .map_err(io)?;
    // Track names and order.
    let mut pids: BTreeMap<u32, String> = BTreeMap::new();
    pids.insert(0, "GPU".into());
    for t in r.names.keys() {
        if t.pid > 0 {
            pids.insert(t.pid, format!("CU {}", t.pid - 1));
        }
    }
    for (pid, name) in &pids {
        emit(
            &mut out,
            &mut first,
            json!({"name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": name}}),
        )?;
        emit(
            &mut out,
            &mut first,
            json!({"name": "process_sort_index", "ph": "M", "pid": pid, "tid": 0, "args": {"sort_index": pid}}),
        )?;
    }
    for (t, name) in &r.names {
        emit(
            &mut out,
            &mut first,
            json!({"name": "thread_name", "ph": "M", "pid": t.pid, "tid": t.tid, "args": {"name": name}}),
        )?;
        emit(
            &mut out,
            &mut first,
            json!({"name": "thread_sort_index", "ph": "M", "pid": t.pid, "tid": t.tid, "args": {"sort_index": t.tid}}),
        )?;
    }
    // Spans and instants track by track, in time order; an enclosing span
    // (longer) before the spans inside it. Written field by field: a long
    // run's million spans must be on disk within Slurm's KillWait.
    enum Ev<'a> {
        Span(&'a super::record::Span),
        Instant(&'a super::record::Instant),
    }
    let mut events: Vec<(Track, u64, std::cmp::Reverse<u64>, Ev)> = r
        .spans
        .iter()
        .map(|s| {
            (
                s.track,
                s.start,
                std::cmp::Reverse(s.end - s.start),
                Ev::Span(s),
            )
        })
        .chain(
            r.instants
                .iter()
                .map(|i| (i.track, i.at, std::cmp::Reverse(0), Ev::Instant(i))),
        )
        .collect();
    events.sort_by_key(|e| (e.0, e.1, e.2));
    let name = |n: &str| serde_json::to_string(n).unwrap_or_else(|_| "\"?\"".into());
    for (track, _, _, e) in &events {
        let sep = if first { "\n" } else { ",\n" };
        first = false;
        match e {
            Ev::Span(s) => {
                write!(
                    out,
                    "{sep}{{\"name\":{},\"cat\":\"{}\",\"ph\":\"X\",\"ts\":{},\"dur\":{},\"pid\":{},\"tid\":{},\"args\":{{",
                    name(&s.name),
                    s.cat,
                    s.start,
                    s.end - s.start,
                    track.pid,
                    track.tid
                )
                .map_err(io)?;
                for (k, (key, v)) in s.args.iter().enumerate() {
                    write!(out, "{}\"{key}\":{v}", if k > 0 { "," } else { "" }).map_err(io)?;
                }
                write!(out, "}}}}").map_err(io)?;
            }
            Ev::Instant(i) => write!(
                out,
                "{sep}{{\"name\":{},\"cat\":\"frontend\",\"ph\":\"i\",\"s\":\"t\",\"ts\":{},\"pid\":{},\"tid\":{}}}",
                name(&i.name),
                i.at,
                track.pid,
                track.tid
            )
            .map_err(io)?,
        }
    }
    for c in &r.counters {
        let sep = if first { "\n" } else { ",\n" };
        first = false;
        write!(
            out,
            "{sep}{{\"name\":\"{}\",\"ph\":\"C\",\"ts\":{},\"pid\":0,\"tid\":0,\"args\":{{\"value\":{}}}}}",
            c.name,
            c.at,
            if c.value.is_finite() { c.value } else { 0.0 }
        )
        .map_err(io)?;
    }
    writeln!(out, "\n]}}").map_err(io)?;
    out.flush().map_err(io)
}

/// What [`validate`] found in a trace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TraceSummary {
    /// `X` events by category.
    pub spans: BTreeMap<String, usize>,
    /// Counter samples by name.
    pub counters: BTreeMap<String, usize>,
    /// Instants.
    pub instants: usize,
    /// Named tracks (`thread_name` metadata).
    pub tracks: usize,
}

/// Checks a Trace Event Format file as `--timeline` writes it: every event
/// has the fields its phase needs, timestamps never go back within a track,
/// and complete events on a track nest (each one inside or after the ones
/// before it). Returns what it holds.
pub fn validate(text: &str) -> Result<TraceSummary, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let events = v
        .get("traceEvents")
        .and_then(|e| e.as_array())
        .ok_or("no traceEvents array")?;
    let mut summary = TraceSummary::default();
    // Per track: the last timestamp, and the ends of the open spans.
    let mut last: BTreeMap<(u64, u64), u64> = BTreeMap::new();
    let mut stacks: BTreeMap<(u64, u64), Vec<u64>> = BTreeMap::new();
    for (k, e) in events.iter().enumerate() {
        let at = |m: &str| format!("event {k} ({e}): {m}");
        let name = e
            .get("name")
            .and_then(|n| n.as_str())
            .ok_or_else(|| at("no name"))?;
        let ph = e
            .get("ph")
            .and_then(|p| p.as_str())
            .ok_or_else(|| at("no ph"))?;
        let pid = e
            .get("pid")
            .and_then(|p| p.as_u64())
            .ok_or_else(|| at("no pid"))?;
        let tid = e
            .get("tid")
            .and_then(|p| p.as_u64())
            .ok_or_else(|| at("no tid"))?;
        if ph == "M" {
            let arg = e
                .get("args")
                .and_then(|a| a.as_object())
                .ok_or_else(|| at("metadata without args"))?;
            match name {
                "process_name" | "thread_name" => {
                    arg.get("name")
                        .and_then(|n| n.as_str())
                        .ok_or_else(|| at("no args.name"))?;
                    if name == "thread_name" {
                        summary.tracks += 1;
                    }
                }
                "process_sort_index" | "thread_sort_index" => {
                    arg.get("sort_index")
                        .and_then(|n| n.as_i64())
                        .ok_or_else(|| at("no args.sort_index"))?;
                }
                other => return Err(at(&format!("unknown metadata `{other}`"))),
            }
            continue;
        }
        let ts = e
            .get("ts")
            .and_then(|t| t.as_u64())
            .ok_or_else(|| at("no integer ts"))?;
        match ph {
            "X" | "i" => {
                let track = (pid, tid);
                if let Some(&t) = last.get(&track) {
                    if ts < t {
                        return Err(at(&format!("ts {ts} before {t} on the same track")));
                    }
                }
                last.insert(track, ts);
                if ph == "i" {
                    summary.instants += 1;
                    continue;
                }
                let dur = e
                    .get("dur")
                    .and_then(|t| t.as_u64())
                    .ok_or_else(|| at("no integer dur"))?;
                if dur == 0 {
                    return Err(at("empty span"));
                }
                let cat = e
                    .get("cat")
                    .and_then(|c| c.as_str())
                    .ok_or_else(|| at("no cat"))?;
                let stack = stacks.entry(track).or_default();
                while stack.last().is_some_and(|&end| end <= ts) {
                    stack.pop();
                }
                if let Some(&end) = stack.last() {
                    if ts + dur > end {
                        return Err(at(&format!(
                            "overlaps the enclosing span ending at {end} without nesting in it"
                        )));
                    }
                }
                stack.push(ts + dur);
                *summary.spans.entry(cat.to_string()).or_default() += 1;
            }
            "C" => {
                let args = e
                    .get("args")
                    .and_then(|a| a.as_object())
                    .ok_or_else(|| at("counter without args"))?;
                if args.is_empty() || !args.values().all(|v| v.is_number()) {
                    return Err(at("counter args must be numbers"));
                }
                *summary.counters.entry(name.to_string()).or_default() += 1;
            }
            other => return Err(at(&format!("unexpected phase `{other}`"))),
        }
    }
    Ok(summary)
}
