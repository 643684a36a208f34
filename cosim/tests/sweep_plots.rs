//! `gpusim collect`'s plots: each stat against each parameter's values with
//! units, a series per setting of the other parameters named in a legend
//! beside the data, categorical parameters as grouped bars with their
//! change from the baseline, and the speed-up per parameter
//! (docs/sweeps.md "`gpusim collect DIR`").

mod cli_common;
use cli_common::{gpusim, root, temp_dir, text};

/// The `x` of the first `<text>` element holding `needle`.
fn text_x(svg: &str, needle: &str) -> Option<f64> {
    let at = svg.find(&format!(">{needle}"))?;
    let start = svg[..at].rfind("<text")?;
    let tag = &svg[start..at];
    let x = tag.split("x=\"").nth(1)?.split('"').next()?;
    x.parse().ok()
}

#[test]
fn plots_show_values_with_units_series_per_setting_and_bars_for_categories() {
    let dir = temp_dir("plots", "collect");
    let file = dir.join("s.yaml");
    std::fs::write(
        &file,
        format!(
            "workloads: [{}]\n\
             grid:\n  memory.l2.size_bytes: [64KiB, 256KiB]\n  cus: [1, 2]\n  cu.scheduler: [oldest-first, round-robin]\n\
             baseline: 3\nstats: [cycles]\n",
            root().join("workloads/corpus/gfx1030/saxpy.yaml").display()
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let o = gpusim(&[
        "sweep",
        file.to_str().unwrap(),
        "-j",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let o = gpusim(&["collect", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    // plotters writes each text on its own line: `>\n256 KiB\n<`.
    let plot = |name: &str| {
        std::fs::read_to_string(out.join("plots").join(name))
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .replace(">\n", ">")
            .replace("\n<", "<")
    };
    // Against the L2 size: its values with units, a series per setting of
    // the others, named in a legend right of the plot (the plot is 760
    // pixels wide).
    let l2 = plot("cycles-vs-memory.l2.size_bytes.svg");
    assert!(
        l2.contains(">256 KiB<") && l2.contains(">64 KiB<"),
        "no units"
    );
    assert!(!l2.contains(">262144<"));
    for series in [
        "cus = 1, cu.scheduler = oldest-first",
        "cus = 2, cu.scheduler = round-robin",
    ] {
        let x = text_x(&l2, series).unwrap_or_else(|| panic!("no legend entry {series}"));
        assert!(
            x >= 760.0,
            "legend entry `{series}` at x = {x}, on the plot"
        );
    }
    // The scheduler is a category: grouped bars, each labelled with its
    // change from the baseline's scheduler (oldest-first).
    let sched = plot("cycles-vs-cu.scheduler.svg");
    assert!(sched.contains(">oldest-first<") && sched.contains(">round-robin<"));
    assert!(sched.matches('%').count() >= 4, "no change labels");
    // 4 settings of the others × 2 schedulers = 8 bars (and the background).
    assert!(
        sched.matches("<rect").count() >= 9,
        "a category not drawn as bars"
    );
    // The speed-up per parameter, 1 marked, and the baseline named.
    let speed = plot("speedup-vs-cus.svg");
    assert!(speed.contains("speed-up 1 = point 3"), "baseline not named");
    assert!(speed.contains("<polyline"));
    assert!(!out.join("plots/speedup.svg").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
