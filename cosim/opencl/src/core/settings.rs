//! What the environment chose: the model and the GPU configuration
//! (`docs/opencl.md`). An application runs unchanged; these variables select
//! what it runs on.

use cosim::model::Model;
use hw::GpuConfig;

/// `GPUSIM_MODEL`: functional (default), cycle or lockstep.
pub const MODEL_VAR: &str = "GPUSIM_MODEL";
/// `GPUSIM_CONFIG`: a GPU configuration file (clocked models).
pub const CONFIG_VAR: &str = "GPUSIM_CONFIG";
/// `GPUSIM_PRESET`: a configuration preset name (`gpusim run --preset list`).
pub const PRESET_VAR: &str = "GPUSIM_PRESET";
/// `GPUSIM_STATS`: a JSON file of the model's statistics, rewritten after
/// every dispatch.
pub const STATS_VAR: &str = "GPUSIM_STATS";
/// `GPUSIM_VCD`: a VCD of the clocked GPU's signals (clocked models).
pub const VCD_VAR: &str = "GPUSIM_VCD";
/// `GPUSIM_TIMELINE`: a timeline (Trace Event Format, or SVG by extension).
pub const TIMELINE_VAR: &str = "GPUSIM_TIMELINE";
/// `GPUSIM_WATCHDOG`: the per-dispatch watchdog, as `gpusim run
/// --watchdog` (wave instructions on the functional model, cycles on the
/// clocked ones).
pub const WATCHDOG_VAR: &str = "GPUSIM_WATCHDOG";
/// `GPUSIM_WAVE_WATCHDOG`: the per-wave watchdog, as `gpusim run
/// --wave-watchdog`.
pub const WAVE_WATCHDOG_VAR: &str = "GPUSIM_WAVE_WATCHDOG";

/// The model and configuration the platform's device runs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The model.
    pub model: Model,
    /// The clocked GPU's configuration (its figures are the device's, for
    /// every model: the functional model runs the same programs).
    pub config: GpuConfig,
    /// Where the statistics go, if anywhere.
    pub stats: Option<std::path::PathBuf>,
    /// Where the waveform goes, if anywhere.
    pub vcd: Option<std::path::PathBuf>,
    /// Where the timeline goes, if anywhere.
    pub timeline: Option<std::path::PathBuf>,
    /// `GPUSIM_WATCHDOG`, if set.
    pub watchdog: Option<u64>,
    /// `GPUSIM_WAVE_WATCHDOG`, if set.
    pub wave_watchdog: Option<u64>,
}

impl Settings {
    /// Reads the settings through `var` (the process environment in the
    /// library; a map in tests). Errors are sentences naming the variable.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Settings, String> {
        let set = |name: &str| var(name).filter(|v| !v.is_empty());
        let model = match set(MODEL_VAR) {
            None => Model::Functional,
            Some(v) => <Model as clap::ValueEnum>::from_str(&v, true)
                .map_err(|_| format!("{MODEL_VAR}={v}: expected functional, cycle or lockstep"))?,
        };
        let config = match (set(CONFIG_VAR), set(PRESET_VAR)) {
            (Some(_), Some(_)) => {
                return Err(format!(
                    "{CONFIG_VAR} and {PRESET_VAR} are both set; set one"
                ))
            }
            (Some(path), None) => cosim::session::gpu_config(Some(std::path::Path::new(&path)))
                .map_err(|e| format!("{CONFIG_VAR}: {e}"))?,
            (None, Some(name)) => {
                cosim::session::preset_config(&name).map_err(|e| format!("{PRESET_VAR}: {e}"))?
            }
            (None, None) => GpuConfig::default_config(),
        };
        let clocked_only = |var: &str| -> Result<Option<std::path::PathBuf>, String> {
            match set(var) {
                Some(_) if model == Model::Functional => Err(format!(
                    "{var} needs {MODEL_VAR}=cycle or lockstep (the functional model has no clock)"
                )),
                v => Ok(v.map(Into::into)),
            }
        };
        let count = |var: &str| -> Result<Option<u64>, String> {
            set(var)
                .map(|v| {
                    v.parse::<u64>()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or(format!("{var}={v}: expected a positive whole number"))
                })
                .transpose()
        };
        Ok(Settings {
            model,
            config,
            stats: set(STATS_VAR).map(Into::into),
            vcd: clocked_only(VCD_VAR)?,
            timeline: clocked_only(TIMELINE_VAR)?,
            watchdog: count(WATCHDOG_VAR)?,
            wave_watchdog: count(WAVE_WATCHDOG_VAR)?,
        })
    }

    /// The session a context's device thread builds: this model and
    /// configuration, with the waveform and timeline asked for.
    pub fn session_options(&self) -> cosim::session::SessionOptions {
        let mut o = cosim::session::SessionOptions::new(self.model, self.config.clone());
        o.vcd = self.vcd.clone().map(|p| (p, traces::VcdOptions::default()));
        o.timeline = self.timeline.clone();
        o.label = "gpusim-opencl".into();
        o.watchdog = self.watchdog;
        // A functional wave may run as long as the whole dispatch may: an
        // application's kernel of one work-item looping over its data
        // (PyOpenCL's debug scan: 20 M instructions for 786 K elements) is
        // no runaway, and the per-dispatch limit still stops one.
        o.wave_watchdog =
            match (self.wave_watchdog, self.model) {
                (Some(n), _) => Some(n),
                (None, Model::Functional) => Some(self.watchdog.unwrap_or(
                    golden::GoldenConfig::new(arch::isa::Isa::Gfx1030).instruction_budget,
                )),
                (None, _) => None,
            };
        o
    }

    /// The process environment's settings.
    pub fn from_env() -> Result<Settings, String> {
        Settings::from_vars(|name| std::env::var(name).ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        }
    }

    #[test]
    fn defaults_are_the_functional_model_on_the_default_gpu() {
        let s = Settings::from_vars(vars(&[])).expect("defaults");
        assert_eq!(s.model, Model::Functional);
        assert_eq!(s.config, GpuConfig::default_config());
    }

    #[test]
    fn a_preset_and_a_model_are_read() {
        let s = Settings::from_vars(vars(&[(MODEL_VAR, "Cycle"), (PRESET_VAR, "navi21")]))
            .expect("navi21 is a preset");
        assert_eq!(s.model, Model::Cycle);
        assert_eq!(s.config, GpuConfig::preset("navi21").expect("navi21"));
    }

    #[test]
    fn watchdogs_are_read_and_a_functional_wave_may_run_as_long_as_its_dispatch() {
        let s = Settings::from_vars(vars(&[])).unwrap();
        let o = s.session_options();
        assert_eq!(o.watchdog, None);
        assert_eq!(
            o.wave_watchdog,
            Some(golden::GoldenConfig::new(arch::isa::Isa::Gfx1030).instruction_budget)
        );
        let s = Settings::from_vars(vars(&[(WATCHDOG_VAR, "1000")])).unwrap();
        assert_eq!(s.session_options().wave_watchdog, Some(1000));
        let s =
            Settings::from_vars(vars(&[(WAVE_WATCHDOG_VAR, "77"), (MODEL_VAR, "cycle")])).unwrap();
        assert_eq!(s.session_options().wave_watchdog, Some(77));
        let s = Settings::from_vars(vars(&[(MODEL_VAR, "cycle")])).unwrap();
        assert_eq!(s.session_options().wave_watchdog, None);
        let e = Settings::from_vars(vars(&[(WATCHDOG_VAR, "0")])).unwrap_err();
        assert!(e.starts_with("GPUSIM_WATCHDOG=0"), "{e}");
        let e = Settings::from_vars(vars(&[(WAVE_WATCHDOG_VAR, "lots")])).unwrap_err();
        assert!(e.starts_with("GPUSIM_WAVE_WATCHDOG=lots"), "{e}");
    }

    #[test]
    fn bad_values_are_sentences_naming_the_variable() {
        let e = Settings::from_vars(vars(&[(MODEL_VAR, "fast")])).unwrap_err();
        assert!(e.starts_with("GPUSIM_MODEL=fast"), "{e}");
        let e = Settings::from_vars(vars(&[(PRESET_VAR, "nope")])).unwrap_err();
        assert!(
            e.contains("GPUSIM_PRESET") && e.contains("unknown preset"),
            "{e}"
        );
        let e = Settings::from_vars(vars(&[(CONFIG_VAR, "/nonexistent.yaml")])).unwrap_err();
        assert!(e.contains("/nonexistent.yaml"), "{e}");
        let both = [(CONFIG_VAR, "a.yaml"), (PRESET_VAR, "navi21")];
        assert!(Settings::from_vars(vars(&both)).is_err());
        let e = Settings::from_vars(vars(&[(VCD_VAR, "a.vcd")])).unwrap_err();
        assert!(e.contains("GPUSIM_VCD needs"), "{e}");
    }

    #[test]
    fn outputs_reach_the_session() {
        let s = Settings::from_vars(vars(&[
            (MODEL_VAR, "cycle"),
            (VCD_VAR, "a.vcd"),
            (TIMELINE_VAR, "t.json"),
            (STATS_VAR, "s.json"),
        ]))
        .expect("valid");
        let o = s.session_options();
        assert_eq!(o.vcd.map(|(p, _)| p), Some("a.vcd".into()));
        assert_eq!(o.timeline, Some("t.json".into()));
        assert_eq!(s.stats, Some("s.json".into()));
    }
}
