//! The launch comparison: a wave's initial state on the clocked model (its
//! `WaveLaunch` event) against the wave the golden model created for the
//! same workgroup.

use arch::device::WaveId;
use golden::wave::Wave;
use hw::exec::ScalarState;

use super::report::{self, Report};

/// What the clocked model launched a wave with.
pub(super) struct Launch<'a> {
    pub wave: WaveId,
    pub pc: u64,
    pub scalar: &'a ScalarState,
    /// The first three VGPRs (the work-item ids).
    pub vgpr: &'a [[u32; 64]; 3],
    /// VGPRs allocated.
    pub vgprs: u16,
}

/// The report of how `launch` differs from the golden wave `g` at `cycle`,
/// or `None` when they agree: pc, every SGPR, SCC and MODE, the VGPR
/// allocation, and the work-item ids.
pub(super) fn compare(launch: &Launch, g: &Wave, cycle: u64) -> Option<Report> {
    let mut r = Report::new(launch.wave, None, cycle);
    r = r.line("initial state differs:".into());
    let mut bad = false;
    if g.pc != launch.pc {
        r = r.side("pc", format!("{:#x}", launch.pc), format!("{:#x}", g.pc));
        bad = true;
    }
    let scalar = launch.scalar;
    for (code, (a, b)) in scalar.sgpr.iter().zip(&g.sgpr).enumerate() {
        if a != b {
            r = r.side(
                &report::sgpr_name(code as u8),
                format!("{a:#010x}"),
                format!("{b:#010x}"),
            );
            bad = true;
        }
    }
    if scalar.scc != g.scc || scalar.mode != g.mode {
        r = r.side(
            "scc/mode",
            format!("{} {:#x}", u8::from(scalar.scc), scalar.mode),
            format!("{} {:#x}", u8::from(g.scc), g.mode),
        );
        bad = true;
    }
    if usize::from(launch.vgprs) != g.vgpr.len() {
        r = r.side(
            "VGPRs allocated",
            launch.vgprs.to_string(),
            g.vgpr.len().to_string(),
        );
        bad = true;
    }
    let lanes = g.target.wave_size() as usize;
    for (reg, values) in launch.vgpr.iter().enumerate().take(g.vgpr.len().min(3)) {
        if let Some(lane) = (0..lanes).find(|&l| values[l] != g.vgpr[reg][l]) {
            r = r.side(
                &format!("v{reg} lane {lane}"),
                format!("{:#010x}", values[lane]),
                format!("{:#010x}", g.vgpr[reg][lane]),
            );
            bad = true;
        }
    }
    bad.then_some(r)
}
