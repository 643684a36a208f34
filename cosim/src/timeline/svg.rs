//! `--timeline FILE.svg`: the same tracks drawn as a picture (a row per
//! track, time to the right), for documents and for a quick look without a
//! trace viewer.
//!
//! Written by hand rather than through a plotting crate so that its size is
//! bounded whatever the run: time is cut into columns of at least one pixel,
//! each column of a row takes the colour of what covered most of its cycles,
//! runs of equal columns become one rectangle, and all rectangles of one
//! colour are one `<path>`. A row therefore costs at most one rectangle per
//! column; when the rows together would still exceed [`MAX_RUNS`]
//! rectangles the columns widen (2, 4, … pixels) until they fit. Every row
//! is labelled, and a key names each colour drawn (one meaning per colour).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::record::{Recorder, Span, Track};

/// Rectangles at most in one picture: about 20 bytes each in a path, so the
/// file stays under 2 MB with its labels, and `rsvg-convert` draws it in
/// well under a second.
pub const MAX_RUNS: usize = 60_000;

/// Picture width and the plot's left edge (row labels to its left).
const WIDTH: usize = 1400;
const LEFT: usize = 190;
const RIGHT: usize = 20;
/// Row height; bars leave a pixel or two between rows.
const ROW: usize = 14;

/// What a span shows; each has one colour and one key entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    SimdIssue,
    StallDependency,
    StallWaitcnt,
    StallBarrier,
    StallBankConflict,
    StallNoReadyWave,
    StallFetch,
    StallBackpressure,
    StallOther,
    WaveResident,
    IssueValu,
    IssueVmem,
    IssueSmem,
    IssueLds,
    IssueScalar,
    Workgroup,
    Dispatch,
    FrontEndBusy,
    FrontEndWait,
    Other,
}

/// Every kind with its key text and colour, in key order. The colours are
/// pairwise distinct (Okabe–Ito first, then ColorBrewer's qualitative sets).
const KINDS: [(Kind, &str, &str); 20] = [
    (Kind::SimdIssue, "SIMD issues", "#009e73"),
    (Kind::StallDependency, "stall: dependency", "#e69f00"),
    (Kind::StallWaitcnt, "stall: waitcnt", "#d55e00"),
    (Kind::StallBarrier, "stall: barrier", "#cc79a7"),
    (Kind::StallBankConflict, "stall: bank conflict", "#7f3c8d"),
    (Kind::StallNoReadyWave, "stall: no ready wave", "#b0b0b0"),
    (Kind::StallFetch, "stall: fetch", "#56b4e9"),
    (Kind::StallBackpressure, "stall: backpressure", "#8c510a"),
    (Kind::StallOther, "stall: other", "#e31a1c"),
    (Kind::WaveResident, "wave resident", "#d6e6f5"),
    (Kind::IssueValu, "wave issues VALU", "#0072b2"),
    (Kind::IssueVmem, "wave issues VMEM", "#f0e442"),
    (Kind::IssueSmem, "wave issues SMEM", "#e7298a"),
    (Kind::IssueLds, "wave issues LDS", "#1b1b7a"),
    (Kind::IssueScalar, "wave issues SALU/branch", "#000000"),
    (Kind::Workgroup, "workgroup resident", "#eadbc8"),
    (Kind::Dispatch, "dispatch", "#b3de69"),
    (Kind::FrontEndBusy, "front end: fetch/execute", "#8dd3c7"),
    (Kind::FrontEndWait, "front end: waiting", "#fb8072"),
    (Kind::Other, "other", "#666666"),
];

/// A span's kind, from its category and name.
fn kind(s: &Span) -> Kind {
    let n = s.name.as_str();
    match s.cat {
        "simd" if n == "issue" => Kind::SimdIssue,
        "simd" => match n.strip_prefix("stall: ").unwrap_or(n) {
            "dependency" => Kind::StallDependency,
            "waitcnt" => Kind::StallWaitcnt,
            "barrier" => Kind::StallBarrier,
            "bank conflict" => Kind::StallBankConflict,
            "no ready wave" => Kind::StallNoReadyWave,
            "fetch" => Kind::StallFetch,
            "backpressure" => Kind::StallBackpressure,
            _ => Kind::StallOther,
        },
        "issue" => match n {
            "VALU" => Kind::IssueValu,
            "VMEM" => Kind::IssueVmem,
            "SMEM" => Kind::IssueSmem,
            "LDS" => Kind::IssueLds,
            _ => Kind::IssueScalar,
        },
        "wave" => Kind::WaveResident,
        "workgroup" => Kind::Workgroup,
        "dispatch" => Kind::Dispatch,
        "frontend" if n.contains("wait") || n.contains("error") => Kind::FrontEndWait,
        "frontend" => Kind::FrontEndBusy,
        _ => Kind::Other,
    }
}

fn index(k: Kind) -> usize {
    KINDS
        .iter()
        .position(|(x, ..)| *x == k)
        .unwrap_or(KINDS.len() - 1)
}

/// One row's rectangles: (first column, columns, kind index), per layer
/// (0: what the track is doing, 1: issue runs drawn over a wave's bar).
type Runs = [Vec<(usize, usize, usize)>; 2];

/// The runs of one row with `columns` columns of `per` cycles each.
fn row_runs(spans: &[&Span], columns: usize, per: f64, acc: &mut Vec<u64>) -> Runs {
    let mut out: Runs = [Vec::new(), Vec::new()];
    let nk = KINDS.len();
    for (layer, runs) in out.iter_mut().enumerate() {
        acc.clear();
        acc.resize(columns * nk, 0);
        let mut any = false;
        for s in spans
            .iter()
            .filter(|s| usize::from(s.cat == "issue") == layer)
        {
            any = true;
            let k = index(kind(s));
            let (a, b) = (s.start as f64, s.end.max(s.start + 1) as f64);
            let first = ((a / per) as usize).min(columns - 1);
            let last = (((b / per).ceil() as usize).max(first + 1)).min(columns);
            for c in first..last {
                let lo = a.max(c as f64 * per);
                let hi = b.min((c + 1) as f64 * per);
                if hi > lo {
                    // Cycles ×16 so that a span shorter than a cycle still counts.
                    acc[c * nk + k] += ((hi - lo) * 16.0).ceil() as u64;
                }
            }
        }
        if !any {
            continue;
        }
        let mut open: Option<(usize, usize)> = None;
        for c in 0..=columns {
            let best = (c < columns)
                .then(|| {
                    let col = &acc[c * nk..(c + 1) * nk];
                    let (k, &v) = col.iter().enumerate().max_by_key(|&(k, v)| (*v, nk - k))?;
                    (v > 0).then_some(k)
                })
                .flatten();
            match (open, best) {
                (Some((_, k)), Some(b)) if k == b => {}
                _ => {
                    if let Some((start, k)) = open.take() {
                        runs.push((start, c - start, k));
                    }
                    open = best.map(|b| (c, b));
                }
            }
        }
    }
    out
}

/// Draws `r` into `path`.
pub(crate) fn draw(r: &Recorder, path: &Path) -> Result<(), String> {
    let text = render(&r.spans, &r.names, r.last);
    std::fs::write(path, text).map_err(|e| format!("timeline svg: {}: {e}", path.display()))
}

/// Escapes text for SVG.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A round step near `span / 8` (1, 2 or 5 × 10^k) for the time ticks.
fn tick_step(span: f64) -> f64 {
    let raw = (span / 8.0).max(1.0);
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * p)
}

/// The picture's text: `spans` on tracks named by `names`, up to cycle `last`.
fn render(spans: &[Span], names: &BTreeMap<Track, String>, last: u64) -> String {
    // Rows: every track with a span, GPU first, then CU by CU.
    let mut by_track: BTreeMap<Track, Vec<&Span>> = BTreeMap::new();
    for s in spans {
        by_track.entry(s.track).or_default().push(s);
    }
    let label = |t: &Track| {
        let name = names.get(t).cloned().unwrap_or_default();
        if t.pid == 0 {
            name
        } else {
            format!("CU {} {name}", t.pid - 1)
        }
    };
    let end = last.max(1) as f64;
    let plot = WIDTH - LEFT - RIGHT;
    // Widen the columns until every row's rectangles fit the budget.
    let mut acc = Vec::new();
    let mut px = 1usize;
    let rows: Vec<(Track, Runs)> = loop {
        let columns = plot.div_ceil(px);
        let per = end / columns as f64;
        let rows: Vec<(Track, Runs)> = by_track
            .iter()
            .map(|(t, spans)| (*t, row_runs(spans, columns, per, &mut acc)))
            .collect();
        let n: usize = rows.iter().map(|(_, r)| r[0].len() + r[1].len()).sum();
        if n <= MAX_RUNS || px >= plot {
            break rows;
        }
        px *= 2;
    };
    let columns = plot.div_ceil(px);
    let per = end / columns as f64;
    let used: Vec<usize> = {
        let mut u: Vec<usize> = rows
            .iter()
            .flat_map(|(_, r)| r.iter().flatten().map(|&(_, _, k)| k))
            .collect();
        u.sort_unstable();
        u.dedup();
        u
    };
    // The key: four entries a line under the title.
    let key_cols = 4;
    let key_lines = used.len().div_ceil(key_cols);
    let axis_y = 44 + 16 * key_lines + 14;
    let top = axis_y + 6;
    let height = top + ROW * rows.len().max(1) + 28;
    let mut s = String::with_capacity(64 * 1024);
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\">\n\
         <rect width=\"{WIDTH}\" height=\"{height}\" fill=\"#ffffff\"/>\n"
    );
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"20\" font-size=\"15\" text-anchor=\"middle\">gpusim timeline: {} cycles, {} rows; one column = {:.1} cycles, coloured by what covered most of them</text>",
        WIDTH / 2,
        last,
        rows.len(),
        per
    );
    for (i, &k) in used.iter().enumerate() {
        let (_, name, colour) = KINDS[k];
        let x = LEFT + (i % key_cols) * 290;
        let y = 36 + 16 * (i / key_cols);
        let _ = writeln!(
            s,
            "<rect x=\"{x}\" y=\"{y}\" width=\"14\" height=\"10\" fill=\"{colour}\" stroke=\"#444\" stroke-width=\"0.5\"/><text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>",
            x + 20,
            y + 9,
            esc(name)
        );
    }
    // Time axis: ticks above the rows, grid lines through them.
    let step = tick_step(end);
    let scale = plot as f64 / end;
    let mut t = 0.0;
    s += "<g font-size=\"10\" text-anchor=\"middle\" stroke-width=\"0.5\">\n";
    while t <= end {
        let x = LEFT as f64 + t * scale;
        let _ = writeln!(
            s,
            "<text x=\"{x:.1}\" y=\"{}\">{}</text><line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{}\" y2=\"{}\" stroke=\"#dddddd\"/>",
            axis_y,
            t as u64,
            top,
            top + ROW * rows.len()
        );
        t += step;
    }
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\">cycle</text></g>",
        LEFT + plot / 2,
        top + ROW * rows.len() + 20
    );
    // Row labels (every row), and a rule between compute units.
    s += "<g font-size=\"10\" text-anchor=\"end\">\n";
    let mut last_pid = None;
    for (i, (t, _)) in rows.iter().enumerate() {
        let y = top + ROW * i;
        if last_pid.is_some_and(|p| p != t.pid) {
            let _ = writeln!(
                s,
                "<line x1=\"4\" x2=\"{}\" y1=\"{y}\" y2=\"{y}\" stroke=\"#999999\" stroke-width=\"0.5\"/>",
                WIDTH - RIGHT
            );
        }
        last_pid = Some(t.pid);
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            LEFT - 6,
            y + 10,
            esc(&label(t))
        );
    }
    s += "</g>\n";
    // One path per colour: the track's state, then issue runs over it.
    let col_w = plot as f64 / columns as f64;
    for layer in 0..2 {
        let (dy, h) = if layer == 0 { (2, 10) } else { (4, 6) };
        let mut paths: BTreeMap<usize, String> = BTreeMap::new();
        for (i, (_, runs)) in rows.iter().enumerate() {
            let y = top + ROW * i + dy;
            for &(c, n, k) in &runs[layer] {
                let x = LEFT as f64 + c as f64 * col_w;
                let w = n as f64 * col_w;
                let d = paths.entry(k).or_default();
                let _ = write!(d, "M{x:.1} {y}h{w:.1}v{h}h-{w:.1}z");
            }
        }
        for (k, d) in paths {
            let _ = writeln!(s, "<path fill=\"{}\" d=\"{d}\"/>", KINDS[k].2);
        }
    }
    s += "</svg>\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worst case for size: many rows, each changing state every cycle
    /// between kinds, so that every column of every row differs from its
    /// neighbours. The picture stays under 2 MB and, where `rsvg-convert`
    /// is installed, renders in under a second of CPU time.
    #[test]
    fn the_worst_case_picture_is_bounded_in_size_and_render_time() {
        let (rows, cycles) = (400u32, 4000u64);
        let mut spans = Vec::new();
        let mut names = BTreeMap::new();
        let kinds = ["issue", "stall: waitcnt", "stall: fetch", "stall: barrier"];
        for r in 0..rows {
            let track = Track {
                pid: 1 + r / 8,
                tid: 1 + r % 8,
            };
            names.insert(track, format!("SIMD {}", r % 8));
            for c in 0..cycles {
                // A pseudo-random kind per cycle and row.
                let k = ((c * 2654435761 + u64::from(r) * 40503) >> 7) as usize % kinds.len();
                spans.push(Span {
                    track,
                    name: kinds[k].to_string(),
                    cat: "simd",
                    start: c,
                    end: c + 1,
                    args: Vec::new(),
                });
            }
        }
        let svg = render(&spans, &names, cycles);
        assert!(svg.len() <= 2 << 20, "{} bytes", svg.len());
        // Every row is labelled.
        assert_eq!(svg.matches(">CU ").count(), rows as usize);
        let dir = std::env::temp_dir().join(format!("gpusim-svg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("worst.svg");
        std::fs::write(&file, &svg).unwrap();
        match crate::timeline::render_cpu_seconds(&file) {
            Some(t) => assert!(t < 1.0, "rsvg-convert took {t:.2} s of CPU"),
            None => eprintln!("skipped the render time: rsvg-convert is not installed"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn every_colour_means_one_thing() {
        let mut colours: Vec<&str> = KINDS.iter().map(|k| k.2).collect();
        colours.sort_unstable();
        colours.dedup();
        assert_eq!(colours.len(), KINDS.len());
    }
}
