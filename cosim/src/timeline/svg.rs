//! `--timeline FILE.svg`: the same tracks drawn as a picture (a row per
//! track, time to the right), for documents and for a quick look without a
//! trace viewer.

use std::collections::BTreeMap;
use std::path::Path;

use plotters::prelude::*;

use super::record::{Recorder, Track};

fn err<E: std::fmt::Display>(e: E) -> String {
    format!("timeline svg: {e}")
}

/// The fill of a span, by what it is.
fn colour(cat: &str, name: &str) -> RGBColor {
    match (cat, name) {
        ("simd", "issue") => RGBColor(0x00, 0x9e, 0x73),
        ("simd", n) if n.contains("waitcnt") => RGBColor(0xd5, 0x5e, 0x00),
        ("simd", n) if n.contains("dependency") => RGBColor(0xe6, 0x9f, 0x00),
        ("simd", n) if n.contains("barrier") => RGBColor(0xcc, 0x79, 0xa7),
        ("simd", n) if n.contains("fetch") => RGBColor(0x56, 0xb4, 0xe9),
        ("simd", n) if n.contains("no ready") => RGBColor(0xbb, 0xbb, 0xbb),
        ("simd", _) => RGBColor(0x88, 0x44, 0x44),
        ("issue", "VALU") => RGBColor(0x00, 0x72, 0xb2),
        ("issue", "VMEM") => RGBColor(0xd5, 0x5e, 0x00),
        ("issue", "LDS") => RGBColor(0xcc, 0x79, 0xa7),
        ("issue", _) => RGBColor(0x00, 0x9e, 0x73),
        ("wave", _) => RGBColor(0xc6, 0xdb, 0xef),
        ("workgroup", _) => RGBColor(0xd9, 0xd9, 0xd9),
        ("frontend", n) if n.contains("wait") => RGBColor(0xd5, 0x5e, 0x00),
        ("frontend", _) => RGBColor(0x56, 0xb4, 0xe9),
        _ => RGBColor(0x44, 0x44, 0x44),
    }
}

/// Draws `r` into `path`.
pub(crate) fn draw(r: &Recorder, path: &Path) -> Result<(), String> {
    // Rows: every track with a span, GPU first, then CU by CU.
    let mut rows: BTreeMap<Track, usize> = BTreeMap::new();
    for s in &r.spans {
        rows.entry(s.track).or_insert(0);
    }
    for (k, v) in rows.values_mut().enumerate() {
        *v = k;
    }
    let labels: Vec<String> = rows
        .keys()
        .map(|t| {
            let name = r.names.get(t).cloned().unwrap_or_default();
            if t.pid == 0 {
                name
            } else {
                format!("CU {} {name}", t.pid - 1)
            }
        })
        .collect();
    let n = rows.len().max(1);
    let height = (60 + 14 * n) as u32;
    let root = SVGBackend::new(path, (1400, height.max(200))).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let end = r.last.max(1) as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "gpusim timeline (issue green, stalls by reason, waves blue)",
            ("sans-serif", 16),
        )
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(200)
        .build_cartesian_2d(0f64..end, (n as f64)..0f64)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc("cycle")
        .y_labels(n)
        .y_label_formatter(&|y| {
            let k = y.floor();
            if (y - k - 0.0).abs() < 1e-9 {
                labels.get(k as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .label_style(("sans-serif", 10))
        .draw()
        .map_err(err)?;
    // Issue runs sit inside their wave's bar, thinner, drawn over it.
    for issue in [false, true] {
        let rects = r
            .spans
            .iter()
            .filter(|s| (s.cat == "issue") == issue)
            .filter_map(|s| {
                let row = *rows.get(&s.track)? as f64;
                let (top, bottom) = if issue {
                    (row + 0.3, row + 0.7)
                } else {
                    (row + 0.1, row + 0.9)
                };
                Some(Rectangle::new(
                    [(s.start as f64, top), (s.end as f64, bottom)],
                    colour(s.cat, &s.name).filled(),
                ))
            });
        chart.draw_series(rects).map_err(err)?;
    }
    root.present().map_err(err)
}
