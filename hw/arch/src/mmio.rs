//! The MMIO register map: what the driver reads and writes to control the GPU.
//!
//! All registers are 32 bits wide and addressed by byte offset. Global
//! registers sit at the bottom; channel `n`'s block of registers starts at
//! [`CHANNEL_BASE`]` + n * `[`CHANNEL_STRIDE`]. 64-bit quantities are split into
//! `_LO`/`_HI` halves; writing `_HI` after `_LO` is not required (each half is
//! an ordinary register).

/// Identifies the device: [`GPU_ID_GFX1030`] or [`GPU_ID_GFX803`].
pub const GPU_ID: u32 = 0x0000;
/// Device status (read-only): see the `STATUS_*` bits.
pub const STATUS: u32 = 0x0004;
/// Number of channels the device has (read-only).
pub const CHANNEL_COUNT: u32 = 0x0008;
/// Low half of the cycle (or step, for the functional model) counter (read-only).
pub const CYCLE_LO: u32 = 0x0010;
/// High half of the cycle counter (read-only).
pub const CYCLE_HI: u32 = 0x0014;

/// [`GPU_ID`] value of an RDNA2 gfx1030 device.
pub const GPU_ID_GFX1030: u32 = 0x1030;
/// [`GPU_ID`] value of a GCN3 gfx803 device.
pub const GPU_ID_GFX803: u32 = 0x0803;

/// [`STATUS`] bit: some channel has work pending or waves are running.
pub const STATUS_BUSY: u32 = 1 << 0;
/// [`STATUS`] bit: the device stopped on a fault (details in the [`crate::device::DeviceError::Fault`] the run returned).
pub const STATUS_FAULT: u32 = 1 << 1;

/// Offset of channel 0's registers.
pub const CHANNEL_BASE: u32 = 0x1000;
/// Bytes between consecutive channels' register blocks.
pub const CHANNEL_STRIDE: u32 = 0x40;

/// Channel register: low half of the entry ring's device address.
pub const CH_BASE_LO: u32 = 0x00;
/// Channel register: high half of the entry ring's device address.
pub const CH_BASE_HI: u32 = 0x04;
/// Channel register: number of entries `Q` in the ring (0 disables the channel).
pub const CH_SIZE: u32 = 0x08;
/// Channel register: arbitration priority; higher runs first, equal priorities round-robin.
pub const CH_PRIORITY: u32 = 0x0c;
/// Channel register: GP_GET, the next entry the front end processes. Written by the
/// driver only while the channel is disabled (to choose `g0`); advanced by the GPU.
pub const CH_GP_GET: u32 = 0x10;
/// Channel register: GP_PUT, one past the last submitted entry. Written by the host.
pub const CH_GP_PUT: u32 = 0x14;
/// Channel register: control bits (`CH_CONTROL_*`).
pub const CH_CONTROL: u32 = 0x18;
/// Channel register (read-only): what the channel is doing (`CH_STATE_*`).
pub const CH_STATE: u32 = 0x1c;

/// [`CH_CONTROL`] bit: the front end fetches from this channel.
pub const CH_CONTROL_ENABLE: u32 = 1 << 0;

/// [`CH_STATE`] value: nothing pending (GP_GET == GP_PUT).
pub const CH_STATE_IDLE: u32 = 0;
/// [`CH_STATE`] value: executing commands.
pub const CH_STATE_RUNNING: u32 = 1;
/// [`CH_STATE`] value: blocked on a semaphore acquire.
pub const CH_STATE_SEMAPHORE: u32 = 2;
/// [`CH_STATE`] value: blocked in a wait-for-idle.
pub const CH_STATE_WAIT_IDLE: u32 = 3;
/// [`CH_STATE`] value: stopped by a malformed entry or command block.
pub const CH_STATE_ERROR: u32 = 4;

/// Byte offset of register `reg` (one of the `CH_*` offsets) of channel `channel`.
pub const fn channel_reg(channel: u32, reg: u32) -> u32 {
    CHANNEL_BASE + channel * CHANNEL_STRIDE + reg
}

/// Splits an MMIO offset into (channel, register) when it falls in a channel block.
pub const fn split_channel_reg(offset: u32) -> Option<(u32, u32)> {
    if offset < CHANNEL_BASE {
        return None;
    }
    let rel = offset - CHANNEL_BASE;
    Some((rel / CHANNEL_STRIDE, rel % CHANNEL_STRIDE))
}

/// `wrap()` of seed 001 §3: brings an index in `[-q, 2q)` back into `[0, q)`.
pub const fn wrap(x: i64, q: u32) -> u32 {
    let q = q as i64;
    (if x < 0 {
        x + q
    } else if x >= q {
        x - q
    } else {
        x
    }) as u32
}

/// Number of pending entries `[GP_GET, GP_PUT)` modulo `q`.
pub const fn pending(gp_get: u32, gp_put: u32, q: u32) -> u32 {
    wrap(gp_put as i64 - gp_get as i64, q)
}

/// True when the ring is full: GP_GET == (GP_PUT + 1) mod Q (the entry at GP_PUT is never processed).
pub const fn is_full(gp_get: u32, gp_put: u32, q: u32) -> bool {
    gp_get == wrap(gp_put as i64 + 1, q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_matches_seed_examples() {
        // Seed 001 §6 item 10.
        assert_eq!(wrap(-1, 6), 5);
        assert_eq!(wrap(6, 6), 0);
        assert_eq!(wrap(-1, 8), 7);
        assert_eq!(wrap(9, 8), 1);
    }

    #[test]
    fn empty_and_full_rules() {
        assert_eq!(pending(3, 3, 8), 0);
        assert_eq!(pending(6, 2, 8), 4);
        assert!(is_full(0, 7, 8));
        assert!(is_full(4, 3, 8));
        assert!(!is_full(3, 3, 8));
        // GPU-owned channel init: GP_PUT = wrap(g0 - 1) makes Q-1 entries pending.
        let g0 = 5;
        let put = wrap(g0 as i64 - 1, 8);
        assert!(is_full(g0, put, 8));
        assert_eq!(pending(g0, put, 8), 7);
    }

    #[test]
    fn channel_offsets_round_trip() {
        let off = channel_reg(3, CH_GP_PUT);
        assert_eq!(split_channel_reg(off), Some((3, CH_GP_PUT)));
        assert_eq!(split_channel_reg(STATUS), None);
    }
}
