//! The sweep's SVG plots (plotters, SVG backend; text is laid out by the
//! viewer, so no font is needed here):
//! - `STAT-vs-PARAM.svg`: each kept stat against each swept parameter, a line
//!   per workload, the other parameters held at the baseline point's values;
//! - `speedup.svg`: baseline cycles / cycles of every point, per workload;
//! - `stalls-wN.svg`: per workload, stalled SIMD-cycles by reason per point.

use std::path::{Path, PathBuf};

use plotters::prelude::*;

use super::collect::Collected;

/// Series colours (distinct in print and for common colour-blindness).
const COLOURS: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xb2),
    RGBColor(0xd5, 0x5e, 0x00),
    RGBColor(0x00, 0x9e, 0x73),
    RGBColor(0xcc, 0x79, 0xa7),
    RGBColor(0xe6, 0x9f, 0x00),
    RGBColor(0x56, 0xb4, 0xe9),
    RGBColor(0x00, 0x00, 0x00),
    RGBColor(0xf0, 0xe4, 0x42),
];

/// Stall reasons in the order the stacked bars draw them.
const STALLS: [&str; 7] = [
    "dependency",
    "waitcnt",
    "barrier",
    "bank_conflict",
    "no_ready_wave",
    "fetch",
    "backpressure",
];

type DrawResult<T> = Result<T, String>;

fn err<E: std::fmt::Display>(e: E) -> String {
    format!("plot: {e}")
}

/// A file-name-safe form of a stat or parameter path.
fn slug(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// A workload's short name (file stem and its directory: `gfx1030/saxpy`).
fn short(workload: &str) -> String {
    let p = Path::new(workload);
    let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned());
    let dir = p
        .parent()
        .and_then(|d| d.file_name())
        .map(|s| s.to_string_lossy().into_owned());
    match (dir, stem) {
        (Some(d), Some(s)) => format!("{d}/{s}"),
        (None, Some(s)) => s,
        _ => workload.to_string(),
    }
}

/// Draws every plot into `dir`; returns the files written.
pub fn draw(c: &Collected, dir: &Path) -> DrawResult<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut written = Vec::new();
    let m = &c.manifest;
    for param in &m.parameters {
        for stat in &m.stats {
            let path = dir.join(format!("{}-vs-{}.svg", slug(stat), slug(param)));
            if metric_vs_parameter(c, stat, param, &path)? {
                written.push(path);
            }
        }
    }
    let path = dir.join("speedup.svg");
    if speedup(c, &path)? {
        written.push(path);
    }
    for w in 0..m.workloads.len() {
        let path = dir.join(format!("stalls-w{w}.svg"));
        if stalls(c, w, &path)? {
            written.push(path);
        }
    }
    Ok(written)
}

/// The points that differ from the baseline only in `param`, in sweep order,
/// with `param`'s value (one per distinct value).
fn slice(c: &Collected, param: &str) -> Vec<(usize, String)> {
    let m = &c.manifest;
    let base = &m.points[m.baseline];
    let mut out: Vec<(usize, String)> = Vec::new();
    for (i, p) in m.points.iter().enumerate() {
        let others_same = m
            .parameters
            .iter()
            .filter(|q| *q != param)
            .all(|q| p.get(q) == base.get(q));
        let label = match p.get(param) {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => continue,
        };
        if others_same && !out.iter().any(|(_, l)| *l == label) {
            out.push((i, label));
        }
    }
    out
}

/// The y range of `values` with a margin, starting at 0 when all are positive.
fn y_range(values: impl Iterator<Item = f64>) -> Option<std::ops::Range<f64>> {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
        (l.min(v), h.max(v))
    });
    if !lo.is_finite() {
        return None;
    }
    let lo = if lo >= 0.0 { 0.0 } else { lo * 1.1 };
    let hi = if hi > lo { hi * 1.1 } else { lo + 1.0 };
    Some(lo..hi)
}

fn metric_vs_parameter(c: &Collected, stat: &str, param: &str, path: &Path) -> DrawResult<bool> {
    let xs = slice(c, param);
    let workloads = &c.manifest.workloads;
    let series: Vec<Vec<(f64, f64)>> = (0..workloads.len())
        .map(|w| {
            xs.iter()
                .enumerate()
                .filter_map(|(k, (p, _))| c.number(*p, w, stat).map(|v| (k as f64, v)))
                .collect()
        })
        .collect();
    let Some(y) = y_range(series.iter().flatten().map(|&(_, v)| v)) else {
        return Ok(false);
    };
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let labels: Vec<String> = xs.iter().map(|(_, l)| l.clone()).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("{stat} vs {param}"), ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(-0.5f64..(xs.len() as f64 - 0.5), y)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(param)
        .y_desc(stat)
        .x_labels(xs.len().max(1))
        .x_label_formatter(&|x| {
            let k = x.round();
            if (x - k).abs() < 1e-6 && k >= 0.0 {
                labels.get(k as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .draw()
        .map_err(err)?;
    for (w, points) in series.iter().enumerate() {
        let colour = COLOURS[w % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
            .map_err(err)?
            .label(short(&workloads[w]))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(
                points
                    .iter()
                    .map(|&(x, y)| Circle::new((x, y), 4, colour.filled())),
            )
            .map_err(err)?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(true)
}

fn speedup(c: &Collected, path: &Path) -> DrawResult<bool> {
    let m = &c.manifest;
    let n = m.points.len();
    let series: Vec<Vec<(f64, f64)>> = (0..m.workloads.len())
        .map(|w| {
            let base = c.number(m.baseline, w, "cycles");
            (0..n)
                .filter_map(|p| {
                    let cyc = c.number(p, w, "cycles")?;
                    Some((p as f64, base? / cyc.max(1.0)))
                })
                .collect()
        })
        .collect();
    let Some(y) = y_range(series.iter().flatten().map(|&(_, v)| v)) else {
        return Ok(false);
    };
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "speed-up over point {} (baseline cycles / cycles)",
                m.baseline
            ),
            ("sans-serif", 20),
        )
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), y)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("point (configs/point-NNNN.yaml; overrides in results.csv)")
        .y_desc("speed-up")
        .x_labels(n.clamp(1, 24))
        .x_label_formatter(&|x| format!("{}", x.round() as i64))
        .draw()
        .map_err(err)?;
    chart
        .draw_series(LineSeries::new(
            vec![(-0.5, 1.0), (n as f64 - 0.5, 1.0)],
            BLACK.mix(0.4),
        ))
        .map_err(err)?;
    for (w, points) in series.iter().enumerate() {
        let colour = COLOURS[w % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
            .map_err(err)?
            .label(short(&m.workloads[w]))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(
                points
                    .iter()
                    .map(|&(x, y)| Circle::new((x, y), 4, colour.filled())),
            )
            .map_err(err)?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(true)
}

fn stalls(c: &Collected, w: usize, path: &Path) -> DrawResult<bool> {
    let m = &c.manifest;
    let n = m.points.len();
    let bars: Vec<Option<Vec<f64>>> = (0..n)
        .map(|p| {
            STALLS
                .iter()
                .map(|s| c.number(p, w, &format!("summary.stalls.{s}")))
                .collect()
        })
        .collect();
    if bars.iter().all(Option::is_none) {
        return Ok(false);
    }
    let top = bars
        .iter()
        .flatten()
        .map(|b| b.iter().sum::<f64>())
        .fold(0.0f64, f64::max)
        .max(0.01);
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("stalled SIMD-cycles by reason: {}", short(&m.workloads[w])),
            ("sans-serif", 20),
        )
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..(top * 1.25).min(1.0))
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("point")
        .y_desc("fraction of SIMD-cycles")
        .x_labels(n.clamp(1, 24))
        .x_label_formatter(&|x| format!("{}", x.round() as i64))
        .draw()
        .map_err(err)?;
    for (k, reason) in STALLS.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let rects: Vec<Rectangle<(f64, f64)>> = bars
            .iter()
            .enumerate()
            .filter_map(|(p, b)| {
                let b = b.as_ref()?;
                let below: f64 = b[..k].iter().sum();
                Some(Rectangle::new(
                    [(p as f64 - 0.35, below), (p as f64 + 0.35, below + b[k])],
                    colour.filled(),
                ))
            })
            .collect();
        chart
            .draw_series(rects)
            .map_err(err)?
            .label(*reason)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(true)
}
