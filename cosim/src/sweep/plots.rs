//! The sweep's SVG plots (plotters, SVG backend; text is laid out by the
//! viewer, so no font is needed here). For each swept parameter P:
//! - `STAT-vs-P.svg`: each kept stat against P's values (with units:
//!   `256 KiB`, `300 cycles`), one line per combination of the other
//!   parameters (and per workload), its legend naming them beside the plot;
//!   a categorical P (a scheduler, a flag) is drawn as grouped bars from 0,
//!   each bar labelled with its change from the baseline's category;
//! - `speedup-vs-P.svg`: the same for the baseline point's cycles / cycles,
//!   with 1× marked.
//!
//! And per workload `stalls-wN.svg`: stalled SIMD-cycles by reason per point.
//!
//! A numeric P whose values span 8× or more is placed on a log₂ axis (sizes
//! and counts are swept in powers of two); its ticks are the swept values.

use std::path::{Path, PathBuf};

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde_json::Value;

use super::collect::Collected;

/// Series colours (distinct in print and for common colour-blindness).
const COLOURS: [RGBColor; 12] = [
    RGBColor(0x00, 0x72, 0xb2),
    RGBColor(0xd5, 0x5e, 0x00),
    RGBColor(0x00, 0x9e, 0x73),
    RGBColor(0xcc, 0x79, 0xa7),
    RGBColor(0xe6, 0x9f, 0x00),
    RGBColor(0x56, 0xb4, 0xe9),
    RGBColor(0x00, 0x00, 0x00),
    RGBColor(0x99, 0x99, 0x33),
    RGBColor(0x88, 0x22, 0x55),
    RGBColor(0x44, 0xaa, 0x99),
    RGBColor(0x99, 0x99, 0x99),
    RGBColor(0x33, 0x22, 0x88),
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

/// The pseudo-stat of the speed-up plots.
const SPEEDUP: &str = "speedup";

/// Plot and legend widths; the legend sits right of the plot, never on it.
const PLOT_W: u32 = 760;
const LEGEND_W: u32 = 470;
/// Height of one workload's panel.
const PANEL_H: u32 = 420;

type DrawResult<T> = Result<T, String>;

/// A part of an SVG picture.
type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

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

/// A parameter's value with its unit, from the field's name: `_bytes`
/// fields in KiB/MiB/GiB, `_cycles` and latencies in cycles, `_mhz`, `_bits`.
pub fn with_unit(param: &str, v: &Value) -> String {
    let field = param.rsplit('.').next().unwrap_or(param);
    let Some(n) = v.as_f64() else {
        return match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
    };
    let int = n.fract() == 0.0 && n.abs() < 1e15;
    if field.ends_with("_bytes") && int {
        let b = n as u64;
        for (unit, scale) in [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] {
            if b >= scale && b % scale == 0 {
                return format!("{} {unit}", b / scale);
            }
            if b >= scale && (b * 10) % scale == 0 {
                return format!("{:.1} {unit}", b as f64 / scale as f64);
            }
        }
        return format!("{b} B");
    }
    let num = if int {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    };
    if field.ends_with("_cycles") || field.ends_with("latency") {
        format!("{num} cycles")
    } else if field.ends_with("_mhz") {
        format!("{num} MHz")
    } else if field.ends_with("_bits") {
        format!("{num} bits")
    } else if field.ends_with("_mbps_per_pin") {
        format!("{num} Mb/s/pin")
    } else {
        num
    }
}

/// Draws every plot into `dir`; returns the files written.
pub fn draw(c: &Collected, dir: &Path) -> DrawResult<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut written = Vec::new();
    let m = &c.manifest;
    for param in &m.parameters {
        for stat in m.stats.iter().map(String::as_str).chain([SPEEDUP]) {
            let path = dir.join(format!("{}-vs-{}.svg", slug(stat), slug(param)));
            if figure(c, stat, param, &path)? {
                written.push(path);
            }
        }
    }
    for w in 0..m.workloads.len() {
        let path = dir.join(format!("stalls-w{w}.svg"));
        if stalls(c, w, &path)? {
            written.push(path);
        }
    }
    Ok(written)
}

/// One line (or bar colour): a workload with the other parameters fixed.
struct Series {
    label: String,
    /// Index into [`COLOURS`] (the same setting has the same colour in
    /// every workload's panel).
    colour: usize,
    /// (index into the parameter's values, y).
    points: Vec<(usize, f64)>,
}

/// A parameter's values and the series to draw against them.
struct Slices {
    /// Distinct values: ascending when numeric, else in sweep order.
    values: Vec<Value>,
    /// Every value a number: a numeric axis; else categories.
    numeric: bool,
    series: Vec<Series>,
}

/// The y of point `p`, workload `w` for `stat` (`speedup`: the baseline's
/// cycles over this point's).
fn y_of(c: &Collected, p: usize, w: usize, stat: &str) -> Option<f64> {
    if stat == SPEEDUP {
        let base = c.number(c.manifest.baseline, w, "cycles")?;
        Some(base / c.number(p, w, "cycles")?.max(1.0))
    } else {
        c.number(p, w, stat)
    }
}

/// The series of workload `w`: one per setting of the other parameters.
fn slices(c: &Collected, stat: &str, param: &str, w: usize) -> Slices {
    let m = &c.manifest;
    let mut values: Vec<Value> = Vec::new();
    for p in &m.points {
        if let Some(v) = p.get(param) {
            if !values.contains(v) {
                values.push(v.clone());
            }
        }
    }
    let numeric = values.iter().all(Value::is_number);
    if numeric {
        values.sort_by(|a, b| {
            let (a, b) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
            a.total_cmp(&b)
        });
    }
    let others: Vec<&String> = m.parameters.iter().filter(|q| *q != param).collect();
    let mut series: Vec<Series> = Vec::new();
    {
        for (p, point) in m.points.iter().enumerate() {
            let Some(x) = point
                .get(param)
                .and_then(|v| values.iter().position(|u| u == v))
            else {
                continue;
            };
            let Some(y) = y_of(c, p, w, stat) else {
                continue;
            };
            let mut parts: Vec<String> = Vec::new();
            for q in &others {
                if let Some(v) = point.get(q.as_str()) {
                    parts.push(format!("{q} = {}", with_unit(q, v)));
                }
            }
            let label = if parts.is_empty() {
                short(&m.workloads[w])
            } else {
                parts.join(", ")
            };
            match series.iter_mut().find(|s| s.label == label) {
                Some(s) if !s.points.iter().any(|&(k, _)| k == x) => s.points.push((x, y)),
                Some(_) => {}
                None => series.push(Series {
                    label,
                    colour: 0,
                    points: vec![(x, y)],
                }),
            }
        }
    }
    for s in &mut series {
        s.points.sort_by_key(|&(x, _)| x);
    }
    Slices {
        values,
        numeric,
        series,
    }
}

/// The y range of `values` with a margin; from 0 when `from_zero` (bars).
fn y_range(values: impl Iterator<Item = f64>, from_zero: bool) -> Option<std::ops::Range<f64>> {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
        (l.min(v), h.max(v))
    });
    if !lo.is_finite() {
        return None;
    }
    if from_zero {
        let lo = lo.min(0.0);
        return Some(lo..if hi > lo { hi * 1.15 } else { lo + 1.0 });
    }
    let pad = if hi > lo {
        (hi - lo) * 0.1
    } else {
        hi.abs() * 0.1 + 1.0
    };
    Some((lo - pad)..(hi + pad))
}

/// The y-axis text, and for the speed-up the baseline it is relative to
/// (lines for the legend).
fn titles(c: &Collected, stat: &str) -> (String, Vec<String>) {
    let m = &c.manifest;
    if stat != SPEEDUP {
        return (stat.to_string(), Vec::new());
    }
    let mut base = vec![format!("speed-up 1 = point {}:", m.baseline)];
    for q in &m.parameters {
        if let Some(v) = m.points[m.baseline].get(q) {
            base.push(format!("  {q} = {}", with_unit(q, v)));
        }
    }
    ("speed-up (baseline cycles / cycles)".into(), base)
}

/// Draws the legend (colour swatch and text per series) into `area`.
fn legend(
    area: &Area<'_>,
    entries: &[(String, RGBColor, bool)],
    heading: &[String],
) -> DrawResult<()> {
    let font = |size: i32| ("sans-serif", size).into_font().color(&BLACK);
    for (i, h) in heading.iter().enumerate() {
        area.draw(&Text::new(h.clone(), (8, 40 + 17 * i as i32), font(13)))
            .map_err(err)?;
    }
    let top = 48 + 17 * heading.len() as i32;
    for (i, (label, colour, bar)) in entries.iter().enumerate() {
        let y = top + 18 * i as i32;
        if *bar {
            area.draw(&Rectangle::new([(8, y), (22, y + 10)], colour.filled()))
                .map_err(err)?;
        } else {
            area.draw(&PathElement::new(
                vec![(6, y + 5), (24, y + 5)],
                colour.stroke_width(2),
            ))
            .map_err(err)?;
            area.draw(&Circle::new((15, y + 5), 3, colour.filled()))
                .map_err(err)?;
        }
        area.draw(&Text::new(label.clone(), (30, y), font(12)))
            .map_err(err)?;
    }
    Ok(())
}

/// One stat (or the speed-up) against one parameter, a panel per
/// workload (each with its own y scale). Returns false when there is
/// nothing to draw (no passed job has the stat).
fn figure(c: &Collected, stat: &str, param: &str, path: &Path) -> DrawResult<bool> {
    let m = &c.manifest;
    let mut panels: Vec<Slices> = (0..m.workloads.len())
        .map(|w| slices(c, stat, param, w))
        .collect();
    // One colour per setting of the others, the same in every panel.
    let mut names: Vec<String> = Vec::new();
    for sl in &mut panels {
        for s in &mut sl.series {
            s.colour = match names.iter().position(|n| *n == s.label) {
                Some(i) => i,
                None => {
                    names.push(s.label.clone());
                    names.len() - 1
                }
            };
        }
    }
    if panels.iter().all(|p| p.series.is_empty()) {
        return Ok(false);
    }
    let bars = panels.iter().any(|p| !p.numeric);
    let (y_desc, mut heading) = titles(c, stat);
    heading.insert(
        0,
        if m.parameters.len() > 1 {
            "one series per setting of the others:".into()
        } else {
            "series:".into()
        },
    );
    let n = m.workloads.len().max(1) as u32;
    let height = (PANEL_H * n).max(70 + 17 * heading.len() as u32 + 18 * names.len() as u32);
    let root = SVGBackend::new(path, (PLOT_W + LEGEND_W, height)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let (left, right) = root.split_horizontally(PLOT_W);
    let entries: Vec<(String, RGBColor, bool)> = names
        .iter()
        .enumerate()
        .map(|(i, s)| (s.clone(), COLOURS[i % COLOURS.len()], bars))
        .collect();
    legend(&right, &entries, &heading)?;
    let left = left.shrink((0, 0), (PLOT_W, PANEL_H * n));
    let areas = left.split_evenly((n as usize, 1));
    for (w, (sl, area)) in panels.iter().zip(&areas).enumerate() {
        let ys = sl
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|&(_, y)| y));
        let ys: Vec<f64> = if stat == SPEEDUP {
            ys.chain([1.0]).collect()
        } else {
            ys.collect()
        };
        let Some(y) = y_range(ys.into_iter(), bars) else {
            continue;
        };
        let what = if stat == SPEEDUP { "speed-up" } else { stat };
        let caption = format!("{what} vs {param}: {}", short(&m.workloads[w]));
        let labels: Vec<String> = sl.values.iter().map(|v| with_unit(param, v)).collect();
        if bars {
            grouped_bars(c, area, sl, &labels, y, (&caption, &y_desc), param)?;
        } else {
            lines(
                area,
                sl,
                &labels,
                y,
                (&caption, &y_desc),
                param,
                stat == SPEEDUP,
            )?;
        }
    }
    root.present().map_err(err)?;
    Ok(true)
}

/// A y-axis tick: whole numbers from 100 up, else three significant digits.
fn y_tick(v: &f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else {
        significant(*v)
    }
}

/// A numeric parameter: a line per series at the values' positions.
fn lines(
    area: &Area<'_>,
    sl: &Slices,
    labels: &[String],
    y: std::ops::Range<f64>,
    (caption, y_desc): (&str, &str),
    param: &str,
    unit_line: bool,
) -> DrawResult<()> {
    let raw: Vec<f64> = sl.values.iter().filter_map(Value::as_f64).collect();
    let (lo, hi) = (raw.first().copied(), raw.last().copied());
    let log = matches!((lo, hi), (Some(l), Some(h)) if l > 0.0 && h / l >= 8.0);
    let pos: Vec<f64> = raw
        .iter()
        .map(|&v| if log { v.log2() } else { v })
        .collect();
    let (a, b) = match (pos.first(), pos.last()) {
        (Some(&a), Some(&b)) if b > a => (a, b),
        (Some(&a), _) => (a - 1.0, a + 1.0),
        _ => (0.0, 1.0),
    };
    let pad = (b - a) * 0.06;
    let x_desc = if log {
        format!("{param} (log scale)")
    } else {
        param.to_string()
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 18))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(80)
        .build_cartesian_2d((a - pad)..(b + pad), y.clone())
        .map_err(err)?;
    // The x ticks are the swept values (plotters would choose round
    // numbers, or powers of two of the log), drawn under the axis here.
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .x_desc(x_desc)
        .y_desc(y_desc)
        .y_label_formatter(&y_tick)
        .draw()
        .map_err(err)?;
    let tick = ("sans-serif", 12)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (k, &p) in pos.iter().enumerate() {
        chart
            .draw_series(LineSeries::new(
                vec![(p, y.start), (p, y.end)],
                BLACK.mix(0.12),
            ))
            .map_err(err)?;
        // Backend pixels, made relative to this panel.
        let (px, py) = chart.backend_coord(&(p, y.start));
        let (bx, by) = area.get_base_pixel();
        let (px, py) = (px - bx, py - by);
        area.draw(&PathElement::new(vec![(px, py), (px, py + 5)], BLACK))
            .map_err(err)?;
        area.draw(&Text::new(labels[k].clone(), (px, py + 7), tick.clone()))
            .map_err(err)?;
    }
    if unit_line {
        chart
            .draw_series(LineSeries::new(
                vec![(a - pad, 1.0), (b + pad, 1.0)],
                BLACK.mix(0.4),
            ))
            .map_err(err)?;
    }
    for s in &sl.series {
        let colour = COLOURS[s.colour % COLOURS.len()];
        let pts: Vec<(f64, f64)> = s.points.iter().map(|&(k, v)| (pos[k], v)).collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
            .map_err(err)?;
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 4, colour.filled())))
            .map_err(err)?;
    }
    Ok(())
}

/// A categorical parameter: per category a group of bars, one per series,
/// each labelled with its change from the series' value at the baseline
/// point's category.
fn grouped_bars(
    c: &Collected,
    area: &Area<'_>,
    sl: &Slices,
    labels: &[String],
    y: std::ops::Range<f64>,
    (caption, y_desc): (&str, &str),
    param: &str,
) -> DrawResult<()> {
    let m = &c.manifest;
    let n = sl.values.len();
    let base = m.points[m.baseline]
        .get(param)
        .and_then(|v| sl.values.iter().position(|u| u == v));
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 18))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(80)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), y)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(param)
        .y_desc(y_desc)
        .y_label_formatter(&y_tick)
        .x_labels(n.max(1))
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
    let ns = sl.series.len().max(1) as f64;
    let width = 0.8 / ns;
    let annotate = sl.series.len() * n <= 24;
    for (i, s) in sl.series.iter().enumerate() {
        let colour = COLOURS[s.colour % COLOURS.len()];
        let left = |k: usize| k as f64 - 0.4 + i as f64 * width;
        chart
            .draw_series(s.points.iter().map(|&(k, v)| {
                Rectangle::new(
                    [(left(k) + width * 0.05, 0.0), (left(k) + width * 0.95, v)],
                    colour.filled(),
                )
            }))
            .map_err(err)?;
        let reference = base.and_then(|b| s.points.iter().find(|&&(k, _)| k == b).map(|p| p.1));
        if let (true, Some(r)) = (annotate, reference.filter(|r| *r != 0.0)) {
            chart
                .draw_series(s.points.iter().map(|&(k, v)| {
                    let text = if Some(k) == base {
                        significant(v)
                    } else {
                        format!("{:+.1}%", (v / r - 1.0) * 100.0)
                    };
                    Text::new(
                        text,
                        (left(k) + width * 0.1, v),
                        ("sans-serif", 11)
                            .into_font()
                            .color(&BLACK)
                            .pos(Pos::new(HPos::Left, VPos::Bottom)),
                    )
                }))
                .map_err(err)?;
        }
    }
    Ok(())
}

/// `v` with three significant digits.
fn significant(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let digits = (2 - v.abs().log10().floor() as i32).max(0) as usize;
    format!("{v:.digits$}")
}

/// The overrides of point `p` in a short form for an axis label.
fn point_label(c: &Collected, p: usize) -> String {
    let m = &c.manifest;
    m.parameters
        .iter()
        .filter_map(|q| Some(with_unit(q, m.points[p].get(q)?)))
        .collect::<Vec<_>>()
        .join(", ")
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
    let height = (90 + 17 * (n as u32 + 2) + 18 * STALLS.len() as u32).max(500);
    let root = SVGBackend::new(path, (PLOT_W + LEGEND_W, height)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let (left, right) = root.split_horizontally(PLOT_W);
    let left = left.shrink((0, 0), (PLOT_W, 500));
    let entries: Vec<(String, RGBColor, bool)> = STALLS
        .iter()
        .enumerate()
        .map(|(k, s)| (s.replace('_', " "), COLOURS[k % COLOURS.len()], true))
        .collect();
    // The points' settings are too long for the axis: numbered there,
    // spelled out here.
    let mut heading = vec![format!("points ({}):", m.parameters.join(", "))];
    heading.extend((0..n).map(|p| format!("  {p}: {}", point_label(c, p))));
    heading.push("stall reason:".to_string());
    legend(&right, &entries, &heading)?;
    let mut chart = ChartBuilder::on(&left)
        .caption(
            format!("stalled SIMD-cycles by reason: {}", short(&m.workloads[w])),
            ("sans-serif", 18),
        )
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..(top * 1.25).min(1.0))
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("point (settings in the legend)")
        .y_desc("fraction of SIMD-cycles")
        .x_labels(n.clamp(1, 24))
        .x_label_formatter(&|x| {
            let k = x.round();
            if (x - k).abs() < 1e-6 && k >= 0.0 {
                format!("{k}")
            } else {
                String::new()
            }
        })
        .draw()
        .map_err(err)?;
    for k in 0..STALLS.len() {
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
        chart.draw_series(rects).map_err(err)?;
    }
    root.present().map_err(err)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_carry_their_units() {
        assert_eq!(with_unit("memory.l2.size_bytes", &json!(262144)), "256 KiB");
        assert_eq!(with_unit("memory.l2.size_bytes", &json!(4 << 20)), "4 MiB");
        assert_eq!(with_unit("memory.l2.size_bytes", &json!(1536)), "1.5 KiB");
        assert_eq!(with_unit("memory.dram.latency", &json!(300)), "300 cycles");
        assert_eq!(with_unit("shader_mhz", &json!(2100)), "2100 MHz");
        assert_eq!(with_unit("cus", &json!(4)), "4");
        assert_eq!(with_unit("cu.scheduler", &json!("greedy")), "greedy");
    }
}
