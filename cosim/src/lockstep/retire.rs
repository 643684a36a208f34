//! The per-retire comparison: what the golden model computed for one
//! instruction (its [`Record`]) against what the clocked model retired, as a
//! pure function from the two to their [`Difference`]s.

use arch::isa::Opcode;
use hw::event::Retire;

use super::report::{self, Report};

/// What the golden model computed for one instruction, kept until the clocked
/// model retires it.
#[derive(Clone, Debug)]
pub(super) struct Record {
    pub seq: u64,
    pub pc: u64,
    pub inst: arch::isa::Instruction,
    pub exec: u64,
    pub sgpr_before: [u32; 128],
    pub sgpr_after: [u32; 128],
    pub scc_before: bool,
    pub scc_after: bool,
    pub mode_after: u32,
    /// Sub-vector passes (docs/variable-wavefront.md): the golden model's
    /// VGPRs right after the instruction (later instructions of the window
    /// run on the golden model before this one's later parts retire), the
    /// passes issued and not yet retired, and whether the last one issued.
    pub passes: Option<Passes>,
}

/// The sub-vector passes of one instruction.
#[derive(Clone, Debug)]
pub(super) struct Passes {
    pub vgpr_after: Vec<[u32; 64]>,
    pub in_flight: u32,
    pub last_issued: bool,
}

impl Record {
    /// Values that legitimately differ between the models (time, hardware
    /// ids): the cycle model's are taken, not compared.
    pub fn model_specific(&self) -> bool {
        matches!(
            self.inst.opcode,
            Opcode::S_MEMTIME | Opcode::S_MEMREALTIME | Opcode::S_GETREG_B32
        )
    }
}

/// One way a retired instruction differs from the golden model's record
/// (the cycle model's value first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Difference {
    /// The program counter.
    Pc { clocked: u64, golden: u64 },
    /// EXEC at issue (of the lanes the pass covers), masked to the wave size.
    Exec { clocked: u64, golden: u64 },
    /// An SGPR the cycle model wrote (`Some`) or left alone (`None`).
    Sgpr {
        code: u8,
        clocked: Option<u32>,
        golden: u32,
    },
    /// SCC written (`Some`) or not.
    Scc { clocked: Option<bool>, golden: bool },
    /// The MODE register.
    Mode { clocked: u32, golden: u32 },
    /// A VGPR written beyond the golden wave's allocation.
    VgprBeyond { reg: usize },
    /// The lanes of a VGPR whose written values differ, with both sides.
    VgprLanes {
        reg: usize,
        lanes: Vec<usize>,
        clocked: Box<[u32; 64]>,
        golden: Box<[u32; 64]>,
    },
}

/// Compares the clocked model's retirement `r` with the golden record `rec`;
/// `golden_vgpr` is the golden wave's VGPRs after the instruction and
/// `lanes` its wave size. Empty when they agree.
pub(super) fn differences(
    rec: &Record,
    r: &Retire,
    golden_vgpr: &[[u32; 64]],
    lanes: u32,
) -> Vec<Difference> {
    let mut out = Vec::new();
    let lane_mask = if lanes == 64 { u64::MAX } else { 0xffff_ffff };
    if rec.pc != r.pc {
        out.push(Difference::Pc {
            clocked: r.pc,
            golden: rec.pc,
        });
    }
    let expected_exec = rec.exec & r.part.map_or(u64::MAX, |p| p.lanes);
    if expected_exec & lane_mask != r.exec & lane_mask {
        out.push(Difference::Exec {
            clocked: r.exec & lane_mask,
            golden: expected_exec & lane_mask,
        });
    }
    let model_specific = rec.model_specific();
    let mut written = [false; 128];
    for &(code, value) in &r.writes.sgpr {
        let c = usize::from(code);
        if c >= 128 || code == hw::exec::code::NULL {
            continue;
        }
        written[c] = true;
        if value != rec.sgpr_after[c] && !model_specific {
            out.push(Difference::Sgpr {
                code,
                clocked: Some(value),
                golden: rec.sgpr_after[c],
            });
        }
    }
    for (c, (after, before)) in rec.sgpr_after.iter().zip(&rec.sgpr_before).enumerate() {
        if !written[c] && after != before {
            out.push(Difference::Sgpr {
                code: c as u8,
                clocked: None,
                golden: *after,
            });
        }
    }
    match r.writes.scc {
        Some(scc) if scc != rec.scc_after => out.push(Difference::Scc {
            clocked: Some(scc),
            golden: rec.scc_after,
        }),
        None if rec.scc_after != rec.scc_before => out.push(Difference::Scc {
            clocked: None,
            golden: rec.scc_after,
        }),
        _ => {}
    }
    if let Some(mode) = r.writes.mode {
        if mode != rec.mode_after {
            out.push(Difference::Mode {
                clocked: mode,
                golden: rec.mode_after,
            });
        }
    }
    for w in &r.writes.vgpr {
        let reg = usize::from(w.reg);
        let Some(gv) = golden_vgpr.get(reg) else {
            out.push(Difference::VgprBeyond { reg });
            continue;
        };
        let differ: Vec<usize> = (0..lanes as usize)
            .filter(|&l| w.mask >> l & 1 == 1 && w.values[l] != gv[l])
            .collect();
        if !differ.is_empty() {
            out.push(Difference::VgprLanes {
                reg,
                lanes: differ,
                clocked: Box::new(w.values),
                golden: Box::new(*gv),
            });
        }
    }
    out
}

/// Adds the lines of `diffs` to `rep`, in order.
pub(super) fn describe(mut rep: Report, diffs: &[Difference]) -> Report {
    for d in diffs {
        rep = match d {
            Difference::Pc { clocked, golden } => {
                rep.side("pc", format!("{clocked:#x}"), format!("{golden:#x}"))
            }
            Difference::Exec { clocked, golden } => rep.side(
                "EXEC at issue",
                format!("{clocked:#018x}"),
                format!("{golden:#018x}"),
            ),
            Difference::Sgpr {
                code,
                clocked,
                golden,
            } => rep.side(
                &report::sgpr_name(*code),
                clocked.map_or("(not written)".into(), |v| format!("{v:#010x}")),
                format!("{golden:#010x}"),
            ),
            Difference::Scc { clocked, golden } => rep.side(
                "scc",
                clocked.map_or("(not written)".into(), |v| u8::from(v).to_string()),
                u8::from(*golden).to_string(),
            ),
            Difference::Mode { clocked, golden } => {
                rep.side("mode", format!("{clocked:#x}"), format!("{golden:#x}"))
            }
            Difference::VgprBeyond { reg } => rep.side(
                &format!("v{reg}"),
                "written".into(),
                "(beyond the allocation)".into(),
            ),
            Difference::VgprLanes {
                reg,
                lanes,
                clocked,
                golden,
            } => rep.lanes(*reg, lanes, clocked, golden),
        };
    }
    rep
}

#[cfg(test)]
mod tests {
    use super::*;
    use arch::isa::{decode, Target};
    use hw::exec::{VgprWrite, Writes};

    /// A record of `s_endpgm` at 0x100 with EXEC = all 32 lanes and nothing
    /// changed, and the retirement that matches it.
    fn agreeing() -> (Record, Retire) {
        let inst = decode(Target::GFX1030_W32, &[0x00, 0x00, 0x81, 0xbf]).expect("s_endpgm");
        let rec = Record {
            seq: 7,
            pc: 0x100,
            inst,
            exec: 0xffff_ffff,
            sgpr_before: [0; 128],
            sgpr_after: [0; 128],
            scc_before: false,
            scc_after: false,
            mode_after: 0,
            passes: None,
        };
        let r = Retire {
            wave: arch::device::WaveId::default(),
            pc: 0x100,
            seq: 7,
            inst,
            exec: 0xffff_ffff,
            writes: Writes::default(),
            cycle: 42,
            part: None,
        };
        (rec, r)
    }

    #[test]
    fn agreeing_records_have_no_differences() {
        let (rec, r) = agreeing();
        assert!(differences(&rec, &r, &[[0; 64]], 32).is_empty());
    }

    /// Each kind of difference is found, in the order the report lists them,
    /// and EXEC is compared on the wave's lanes only.
    #[test]
    fn differences_are_found_in_report_order() {
        let (mut rec, mut r) = agreeing();
        r.pc = 0x104;
        r.exec = 0xffff_fffe | 0xff << 40; // lane 0 off; lanes above 32 ignored
        rec.sgpr_after[3] = 9; // the golden model wrote s3, the cycle model did not
        r.writes.sgpr.push((5, 1)); // the cycle model wrote s5 = 1, golden has 0
        r.writes.scc = Some(true);
        let mut w = VgprWrite {
            reg: 1,
            mask: 0b110,
            ..VgprWrite::default()
        };
        w.values[1] = 5; // lane 1 differs; lane 0 is not in the mask
        w.values[0] = 99;
        r.writes.vgpr.push(w);
        r.writes.vgpr.push(VgprWrite {
            reg: 4,
            mask: 1,
            ..VgprWrite::default()
        });
        let golden_vgpr = vec![[0u32; 64]; 2];
        let d = differences(&rec, &r, &golden_vgpr, 32);
        let kinds: Vec<&str> = d
            .iter()
            .map(|d| match d {
                Difference::Pc { .. } => "pc",
                Difference::Exec { .. } => "exec",
                Difference::Sgpr {
                    clocked: Some(_), ..
                } => "sgpr written",
                Difference::Sgpr { clocked: None, .. } => "sgpr not written",
                Difference::Scc { .. } => "scc",
                Difference::Mode { .. } => "mode",
                Difference::VgprBeyond { .. } => "beyond",
                Difference::VgprLanes { .. } => "lanes",
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "pc",
                "exec",
                "sgpr written",
                "sgpr not written",
                "scc",
                "lanes",
                "beyond"
            ]
        );
        assert_eq!(
            d[1],
            Difference::Exec {
                clocked: 0xffff_fffe,
                golden: 0xffff_ffff
            }
        );
        match &d[5] {
            Difference::VgprLanes { reg, lanes, .. } => {
                assert_eq!((*reg, lanes.as_slice()), (1, &[1][..]))
            }
            other => panic!("{other:?}"),
        }
        let text = describe(Report::new(r.wave, Some(&rec.inst), r.cycle), &d).text();
        assert!(text.contains("(not written)"), "{text}");
        assert!(text.contains("v1 lane 1"), "{text}");
    }

    /// A sub-vector pass compares EXEC on its own lanes only.
    #[test]
    fn a_pass_compares_its_lanes_of_exec() {
        let (rec, mut r) = agreeing();
        r.exec = 0xffff;
        r.part = Some(hw::event::PartPass {
            part: 0,
            lanes: 0xffff,
            first: true,
            last: false,
        });
        assert!(differences(&rec, &r, &[[0; 64]], 32).is_empty());
    }
}
