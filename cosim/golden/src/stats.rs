//! Run statistics of the golden model.

use std::collections::BTreeMap;

use arch::isa::Family;
use serde::Serialize;

/// What the golden model has done since reset (serialisable for `--stats json`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GoldenStats {
    /// DISPATCH commands launched.
    pub dispatches: u64,
    /// Workgroups launched.
    pub workgroups: u64,
    /// Waves launched.
    pub waves: u64,
    /// Wave instructions executed.
    pub instructions: u64,
    /// Wave instructions by class (encoding family name: `SOP2`, `VOP3`, `DS`, ...).
    pub instructions_by_class: BTreeMap<String, u64>,
    /// Active-lane instructions: EXEC's population count at issue for vector
    /// instructions, 1 for scalar ones.
    pub active_lane_instructions: u64,
    /// Front-end commands processed.
    pub commands: u64,
    /// Device steps (the CYCLE counter of the functional model).
    pub steps: u64,
    /// Front-end activity of every channel that processed anything.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub channels: Vec<crate::channel_activity::ChannelActivity>,
}

/// Counters kept while running (arrays, cheap to bump).
#[derive(Clone, Debug, Default)]
pub struct Counters {
    pub(crate) dispatches: u64,
    pub(crate) workgroups: u64,
    pub(crate) waves: u64,
    pub(crate) by_family: [u64; Family::ALL.len()],
    pub(crate) active_lanes: u64,
    pub(crate) commands: u64,
}

impl Counters {
    /// The serialisable view.
    pub fn snapshot(&self, steps: u64) -> GoldenStats {
        GoldenStats {
            dispatches: self.dispatches,
            workgroups: self.workgroups,
            waves: self.waves,
            instructions: self.by_family.iter().sum(),
            instructions_by_class: Family::ALL
                .iter()
                .zip(self.by_family)
                .filter(|(_, n)| *n > 0)
                .map(|(f, n)| (f.name().to_string(), n))
                .collect(),
            active_lane_instructions: self.active_lanes,
            commands: self.commands,
            steps,
            channels: Vec::new(),
        }
    }
}
