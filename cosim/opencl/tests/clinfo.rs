//! `clinfo` (Debian `clinfo`, through the ICD loader `ocl-icd-libopencl1`)
//! lists the platform and its device when `OCL_ICD_VENDORS` names this
//! library; the figures follow `GPUSIM_PRESET`. Skipped, saying so, when
//! `clinfo` is not installed.

mod common;

use std::process::Command;

use common::library;

/// `clinfo ARGS` with only this platform visible, or `None` without clinfo.
fn clinfo(args: &[&str], vars: &[(&str, &str)]) -> Option<(String, String)> {
    let mut c = Command::new("clinfo");
    c.args(args)
        .env("OCL_ICD_VENDORS", library())
        .env_remove("GPUSIM_MODEL")
        .env_remove("GPUSIM_CONFIG")
        .env_remove("GPUSIM_PRESET");
    for (k, v) in vars {
        c.env(k, v);
    }
    match c.output() {
        Ok(o) => Some((
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )),
        Err(e) => {
            common::skip(&format!(
                "clinfo does not run ({e}); apt-get install clinfo ocl-icd-libopencl1"
            ));
            None
        }
    }
}

/// The value of the first `clinfo` line whose label is `label`.
fn field<'a>(out: &'a str, label: &str) -> Option<&'a str> {
    out.lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix(label).map(str::trim))
}

#[test]
fn clinfo_lists_the_platform_and_the_device() {
    let Some((list, _)) = clinfo(&["-l"], &[]) else {
        return;
    };
    assert!(list.contains("Platform #0: gpusim"), "{list}");
    assert!(list.contains("Device #0: gfx1030"), "{list}");
    let Some((out, err)) = clinfo(&[], &[("GPUSIM_PRESET", "navi21")]) else {
        return;
    };
    assert_eq!(
        field(&out, "Number of platforms"),
        Some("1"),
        "{out}\n{err}"
    );
    assert_eq!(field(&out, "Platform Name"), Some("gpusim"), "{out}");
    assert_eq!(
        field(&out, "Platform Extensions function suffix"),
        Some("GPUSIM"),
        "{out}"
    );
    assert_eq!(field(&out, "Device Name"), Some("gfx1030"), "{out}");
    assert_eq!(field(&out, "Max compute units"), Some("80"), "{out}");
    assert_eq!(field(&out, "Max clock frequency"), Some("2250MHz"), "{out}");
    assert_eq!(field(&out, "Device Type"), Some("GPU"), "{out}");
}

#[test]
fn a_wrong_setting_leaves_no_device_and_says_why() {
    let Some((out, err)) = clinfo(&[], &[("GPUSIM_MODEL", "fast")]) else {
        return;
    };
    assert_eq!(field(&out, "Platform Name"), Some("gpusim"), "{out}");
    assert_eq!(field(&out, "Number of devices"), Some("0"), "{out}");
    assert!(err.contains("GPUSIM_MODEL=fast"), "{err}");
}
