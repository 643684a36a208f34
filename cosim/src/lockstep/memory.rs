//! The memory comparison: after every cycle, the bytes this cycle's
//! instructions wrote (global memory or LDS) in both models; at the end of a
//! run, every mapped byte of device memory.

use arch::device::{Device, Fault, FaultKind, WaveId};
use golden::GoldenGpu;
use hw::exec::{MemSpace, MemWrite};
use hw::ClockedGpu;

use super::report::{self, Report};

/// Bytes compared per read at the end of a run.
const CHUNK: usize = 1 << 16;

/// Compares the bytes of each write in `touched` (by the wave and
/// instruction that made it) in both models. On a difference, the report so
/// far (the caller adds notes about the wave) and the wave (boxed: a report
/// is large and rare).
pub(super) fn compare_written(
    hw: &ClockedGpu,
    golden: &GoldenGpu,
    touched: &[(WaveId, MemWrite, arch::isa::Instruction)],
) -> Result<(), Box<(Report, WaveId)>> {
    for (wave, m, inst) in touched {
        let n = usize::from(m.len);
        let (mut a, mut b) = ([0u8; 16], [0u8; 16]);
        let (hw_ok, golden_ok) = match m.space {
            MemSpace::Global => (
                hw.backing().read(m.address, &mut a[..n]).is_ok(),
                golden.memory().read(m.address, &mut b[..n]).is_ok(),
            ),
            MemSpace::Lds => {
                let range = m.address as usize..m.address as usize + n;
                let hw_lds = hw.workgroup_lds(*wave).and_then(|l| l.get(range.clone()));
                let golden_lds = golden
                    .lds(wave.dispatch, wave.workgroup)
                    .and_then(|l| l.get(range));
                match (hw_lds, golden_lds) {
                    (Some(x), Some(y)) => {
                        a[..n].copy_from_slice(x);
                        b[..n].copy_from_slice(y);
                        (true, true)
                    }
                    // The workgroup has ended on one side: nothing left to compare.
                    _ => continue,
                }
            }
        };
        if !hw_ok || !golden_ok || a[..n] != b[..n] {
            let space = if m.space == MemSpace::Lds {
                "LDS"
            } else {
                "memory"
            };
            let side = |ok: bool, bytes: &[u8]| {
                if ok {
                    report::hex_bytes(bytes)
                } else {
                    "(not accessible)".into()
                }
            };
            let rep = Report::new(*wave, Some(inst), hw.now())
                .line("memory after this cycle's instructions differs:".into())
                .side(
                    &format!("{space} [{:#x}]", m.address),
                    side(hw_ok, &a[..n]),
                    side(golden_ok, &b[..n]),
                );
            return Err(Box::new((rep, *wave)));
        }
    }
    Ok(())
}

/// Compares every mapped byte of device memory in both models, adding the
/// bytes found equal to `compared`; the mismatch fault at the first
/// differing byte.
pub(super) fn compare_all(
    hw: &ClockedGpu,
    golden: &GoldenGpu,
    compared: &mut u64,
) -> Result<(), Box<Fault>> {
    let cycle = hw.now();
    let mut a = vec![0u8; CHUNK];
    let mut b = vec![0u8; CHUNK];
    let maps: Vec<(u64, u64)> = hw.backing().mappings().collect();
    for (base, size) in maps {
        let mut off = 0;
        while off < size {
            let n = (size - off).min(a.len() as u64) as usize;
            let addr = base + off;
            let hw_ok = hw.backing().read(addr, &mut a[..n]).is_ok();
            let golden_ok = golden.memory().read(addr, &mut b[..n]).is_ok();
            if !hw_ok || !golden_ok || a[..n] != b[..n] {
                let i = (0..n).find(|&i| a[i] != b[i]).unwrap_or(0);
                let report = format!(
                    "final memory differs at {:#x}: cycle model {:#04x}, golden {:#04x}{}",
                    addr + i as u64,
                    a[i],
                    b[i],
                    if golden_ok {
                        ""
                    } else {
                        " (not mapped in the golden model)"
                    }
                );
                return Err(Box::new(Fault {
                    kind: FaultKind::LockstepMismatch { report },
                    wave: None,
                    pc: None,
                    instruction: None,
                    cycle,
                    clock: arch::device::Clock::Cycles,
                }));
            }
            *compared += n as u64;
            off += n as u64;
        }
    }
    Ok(())
}
