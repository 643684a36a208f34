//! One view of a channel's front-end activity for both models: the golden
//! GPU counts waits in device steps, the clocked GPU in cycles, and each
//! keeps its own statistics type; printing and cross-model comparisons read
//! this view.

use golden::channel_activity::ChannelActivity;
use hw::stats::ChannelStats;

/// A channel's activity; `acquire_wait` and `idle_wait` are golden steps or
/// clocked cycles.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChannelView {
    /// The channel index.
    pub channel: u32,
    /// Entries processed (GP_GET advanced past them).
    pub entries: u64,
    /// Commands completed.
    pub commands: u64,
    /// DISPATCH commands handed to the dispatcher.
    pub dispatches: u64,
    /// SEMAPHORE_ACQUIRE commands completed.
    pub acquires: u64,
    /// Acquires that did not hold when first checked.
    pub acquires_waited: u64,
    /// Time spent waiting on acquires.
    pub acquire_wait: u64,
    /// SEMAPHORE_RELEASE commands executed.
    pub releases: u64,
    /// WAIT_FOR_IDLE commands that had to wait.
    pub idle_waits: u64,
    /// Time spent in WAIT_FOR_IDLE.
    pub idle_wait: u64,
    /// GP_GET as the channel moved (bounded).
    pub history: Vec<u32>,
    /// True when more GP_GET changes happened than the history keeps.
    pub truncated: bool,
}

impl ChannelView {
    /// What does not depend on timing: which acquires found their semaphore
    /// not yet released, and for how long, depends on when each model reads
    /// it (golden: at once; clocked: after a memory round trip).
    pub fn counts(&self) -> ChannelView {
        ChannelView {
            acquires_waited: 0,
            acquire_wait: 0,
            idle_waits: 0,
            idle_wait: 0,
            ..self.clone()
        }
    }
}

impl From<&ChannelActivity> for ChannelView {
    fn from(c: &ChannelActivity) -> ChannelView {
        ChannelView {
            channel: c.channel,
            entries: c.entries_processed,
            commands: c.commands,
            dispatches: c.dispatches,
            acquires: c.acquires,
            acquires_waited: c.acquires_waited,
            acquire_wait: c.acquire_wait_steps,
            releases: c.releases,
            idle_waits: c.idle_waits,
            idle_wait: c.idle_wait_steps,
            history: c.gp_get_history.clone(),
            truncated: c.history_truncated,
        }
    }
}

impl From<&ChannelStats> for ChannelView {
    fn from(c: &ChannelStats) -> ChannelView {
        ChannelView {
            channel: c.channel,
            entries: c.entries_processed,
            commands: c.commands,
            dispatches: c.dispatches,
            acquires: c.acquires,
            acquires_waited: c.acquires_waited,
            acquire_wait: c.acquire_wait_cycles,
            releases: c.releases,
            idle_waits: c.idle_waits,
            idle_wait: c.idle_wait_cycles,
            history: c.gp_get_history.clone(),
            truncated: c.history_truncated,
        }
    }
}
