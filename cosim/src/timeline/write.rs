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
    let mut emit = |out: &mut std::io::BufWriter<std::fs::File>, v: serde_json::Value| {
        let sep = if first { "\n" } else { ",\n" };
        first = false;
        write!(out, "{sep}{v}").map_err(io)
    };
    write!(
        out,
        "{{\"displayTimeUnit\":\"ns\",\"otherData\":{{\"generator\":\"gpusim\",\"time_unit\":\"1 us of trace time = 1 GPU cycle\",\"cycles\":{},\"partial\":{partial}}},\"traceEvents\":[",
        r.last
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
        emit(&mut out, json!({"name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": name}}))?;
        emit(&mut out, json!({"name": "process_sort_index", "ph": "M", "pid": pid, "tid": 0, "args": {"sort_index": pid}}))?;
    }
    for (t, name) in &r.names {
        emit(&mut out, json!({"name": "thread_name", "ph": "M", "pid": t.pid, "tid": t.tid, "args": {"name": name}}))?;
        emit(&mut out, json!({"name": "thread_sort_index", "ph": "M", "pid": t.pid, "tid": t.tid, "args": {"sort_index": t.tid}}))?;
    }
    // Spans and instants track by track, in time order; an enclosing span
    // (longer) before the spans inside it.
    let mut by_track: BTreeMap<Track, Vec<(u64, std::cmp::Reverse<u64>, serde_json::Value)>> =
        BTreeMap::new();
    for s in &r.spans {
        let args: serde_json::Map<String, serde_json::Value> =
            s.args.iter().map(|(k, v)| (k.to_string(), json!(v))).collect();
        by_track.entry(s.track).or_default().push((
            s.start,
            std::cmp::Reverse(s.end - s.start),
            json!({"name": s.name, "cat": s.cat, "ph": "X", "ts": s.start, "dur": s.end - s.start,
                   "pid": s.track.pid, "tid": s.track.tid, "args": args}),
        ));
    }
    for i in &r.instants {
        by_track.entry(i.track).or_default().push((
            i.at,
            std::cmp::Reverse(0),
            json!({"name": i.name, "cat": "frontend", "ph": "i", "s": "t", "ts": i.at,
                   "pid": i.track.pid, "tid": i.track.tid}),
        ));
    }
    for (_, mut events) in by_track {
        events.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
        for (_, _, v) in events {
            emit(&mut out, v)?;
        }
    }
    for c in &r.counters {
        emit(&mut out, json!({"name": c.name, "ph": "C", "ts": c.at, "pid": 0, "tid": 0,
                              "args": {"value": c.value}}))?;
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
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
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
        let name = e.get("name").and_then(|n| n.as_str()).ok_or_else(|| at("no name"))?;
        let ph = e.get("ph").and_then(|p| p.as_str()).ok_or_else(|| at("no ph"))?;
        let pid = e.get("pid").and_then(|p| p.as_u64()).ok_or_else(|| at("no pid"))?;
        let tid = e.get("tid").and_then(|p| p.as_u64()).ok_or_else(|| at("no tid"))?;
        if ph == "M" {
            let arg = e.get("args").and_then(|a| a.as_object()).ok_or_else(|| at("metadata without args"))?;
            match name {
                "process_name" | "thread_name" => {
                    arg.get("name").and_then(|n| n.as_str()).ok_or_else(|| at("no args.name"))?;
                    if name == "thread_name" {
                        summary.tracks += 1;
                    }
                }
                "process_sort_index" | "thread_sort_index" => {
                    arg.get("sort_index").and_then(|n| n.as_i64()).ok_or_else(|| at("no args.sort_index"))?;
                }
                other => return Err(at(&format!("unknown metadata `{other}`"))),
            }
            continue;
        }
        let ts = e.get("ts").and_then(|t| t.as_u64()).ok_or_else(|| at("no integer ts"))?;
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
                let dur = e.get("dur").and_then(|t| t.as_u64()).ok_or_else(|| at("no integer dur"))?;
                if dur == 0 {
                    return Err(at("empty span"));
                }
                let cat = e.get("cat").and_then(|c| c.as_str()).ok_or_else(|| at("no cat"))?;
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
                let args = e.get("args").and_then(|a| a.as_object()).ok_or_else(|| at("counter without args"))?;
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
