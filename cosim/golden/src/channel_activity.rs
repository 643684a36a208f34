//! Per-channel front-end activity: what each channel processed and how long it
//! waited, for `gpusim run --stats` and for tests that replay seed 001's worked
//! example entry by entry.

use serde::Serialize;

/// GP_GET values kept per channel in [`ChannelActivity::gp_get_history`]; later
/// changes are counted but not stored (a long run must not grow without bound).
pub const GP_GET_HISTORY_LIMIT: usize = 4096;

/// What one channel's front end did since reset.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ChannelActivity {
    /// The channel index.
    pub channel: u32,
    /// Entries whose command block completed (GP_GET advanced past them).
    pub entries_processed: u64,
    /// Commands completed on this channel.
    pub commands: u64,
    /// DISPATCH commands handed to the dispatcher.
    pub dispatches: u64,
    /// GP_GET as the channel moved: its value when the channel first started an
    /// entry, then its value after every advance (at most
    /// [`GP_GET_HISTORY_LIMIT`] values; see `history_truncated`).
    pub gp_get_history: Vec<u32>,
    /// True when more GP_GET changes happened than the history keeps.
    pub history_truncated: bool,
    /// SEMAPHORE_ACQUIRE commands completed.
    pub acquires: u64,
    /// Acquires that did not hold when first checked (the channel waited).
    pub acquires_waited: u64,
    /// Device steps spent waiting on acquires (from the first failed check to the
    /// step the acquire held).
    pub acquire_wait_steps: u64,
    /// SEMAPHORE_RELEASE commands executed (completion signals not included).
    pub releases: u64,
    /// WAIT_FOR_IDLE commands that had to wait.
    pub idle_waits: u64,
    /// Device steps spent in WAIT_FOR_IDLE.
    pub idle_wait_steps: u64,
}

impl ChannelActivity {
    /// Records a GP_GET value (the first start, or an advance).
    pub(crate) fn record_gp_get(&mut self, gp_get: u32) {
        if self.gp_get_history.len() < GP_GET_HISTORY_LIMIT {
            self.gp_get_history.push(gp_get);
        } else {
            self.history_truncated = true;
        }
    }

    /// True when anything happened on the channel.
    pub fn is_active(&self) -> bool {
        self.commands > 0 || !self.gp_get_history.is_empty()
    }
}
