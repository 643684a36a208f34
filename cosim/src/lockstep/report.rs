//! The mismatch report: both sides in one format, then the wave's registers.
//!
//! ```text
//! dispatch 0 workgroup (1,0,0) wave 2, cycle 5123, `v_add_f32_e32 v1, v2, v3`
//!   what                     cycle model          golden
//!   v1 lane 3                0x3f800000           0x3f800001
//! registers (cycle model | golden):
//!   s0  0x00001000 | 0x00001000
//!   ...
//! ```

use std::fmt::Write;

use arch::device::WaveId;
use arch::isa::Instruction;
use golden::wave::Wave;
use hw::exec::ScalarState;

/// A report being built. Creating one costs nothing (the lockstep checker makes
/// one per retired instruction); text is formatted only when lines are added.
pub struct Report {
    wave: WaveId,
    inst: Option<Instruction>,
    cycle: u64,
    out: String,
}

/// The assembler name of scalar source code `code`.
pub fn sgpr_name(code: u8) -> String {
    match code {
        0..=105 => format!("s{code}"),
        106 => "vcc_lo".into(),
        107 => "vcc_hi".into(),
        108..=123 => format!("ttmp{}", code - 108),
        124 => "m0".into(),
        125 => "null".into(),
        126 => "exec_lo".into(),
        _ => "exec_hi".into(),
    }
}

/// Bytes as `0x..` in memory order.
pub fn hex_bytes(b: &[u8]) -> String {
    let mut s = String::from("0x");
    for x in b {
        let _ = write!(s, "{x:02x}");
    }
    s
}

impl Report {
    /// A report about `wave` (and its instruction) at `cycle`.
    pub fn new(wave: WaveId, inst: Option<&Instruction>, cycle: u64) -> Report {
        Report {
            wave,
            inst: inst.copied(),
            cycle,
            out: String::new(),
        }
    }

    /// A free line.
    pub fn line(mut self, text: String) -> Report {
        let _ = writeln!(self.out, "  {text}");
        self
    }

    /// One compared value: what it is, the cycle model's side, the golden side.
    pub fn side(mut self, what: &str, cycle_model: String, golden: String) -> Report {
        if !self.out.contains("cycle model  ") {
            let _ = writeln!(self.out, "  {:<24} {:<22} golden", "what", "cycle model");
        }
        let _ = writeln!(self.out, "  {what:<24} {cycle_model:<22} {golden}");
        self
    }

    /// The differing lanes of VGPR `reg` (at most 8 shown).
    pub fn lanes(
        mut self,
        reg: usize,
        lanes: &[usize],
        cycle_model: &[u32; 64],
        golden: &[u32; 64],
    ) -> Report {
        for &l in lanes.iter().take(8) {
            self = self.side(
                &format!("v{reg} lane {l}"),
                format!("{:#010x}", cycle_model[l]),
                format!("{:#010x}", golden[l]),
            );
        }
        if lanes.len() > 8 {
            let list: Vec<String> = lanes.iter().map(|l| l.to_string()).collect();
            self = self.line(format!(
                "v{reg}: {} lanes differ: {}",
                lanes.len(),
                list.join(",")
            ));
        }
        self
    }

    /// The wave's registers on both sides (SGPRs that differ or are non-zero,
    /// EXEC/VCC/SCC/M0, and the first VGPRs lane 0 and the first lane that differs).
    pub fn dump(
        mut self,
        cycle_model: Option<(ScalarState, Vec<[u32; 64]>)>,
        golden: &Wave,
    ) -> Report {
        let Some((s, v)) = cycle_model else {
            return self.line("(the cycle model's wave is no longer resident)".into());
        };
        let _ = writeln!(self.out, "registers (cycle model | golden):");
        let _ = writeln!(
            self.out,
            "  exec {:#018x} | {:#018x}   vcc {:#018x} | {:#018x}   scc {} | {}   m0 {:#010x} | {:#010x}",
            s.exec(),
            golden.exec(),
            s.vcc(),
            u64::from(golden.sgpr[106]) | u64::from(golden.sgpr[107]) << 32,
            u8::from(s.scc),
            u8::from(golden.scc),
            s.sgpr[124],
            golden.sgpr[124]
        );
        for code in 0..106usize {
            if s.sgpr[code] != 0 || golden.sgpr[code] != 0 {
                let mark = if s.sgpr[code] != golden.sgpr[code] {
                    "  <<"
                } else {
                    ""
                };
                let _ = writeln!(
                    self.out,
                    "  {:<6} {:#010x} | {:#010x}{mark}",
                    sgpr_name(code as u8),
                    s.sgpr[code],
                    golden.sgpr[code]
                );
            }
        }
        let lanes = golden.target.wave_size() as usize;
        for (r, (a, b)) in v.iter().zip(golden.vgpr.iter()).enumerate() {
            match (0..lanes).find(|&l| a[l] != b[l]) {
                Some(l) => {
                    let _ = writeln!(
                        self.out,
                        "  v{r:<5} lane {l}: {:#010x} | {:#010x}  <<",
                        a[l], b[l]
                    );
                }
                None if r < 16 => {
                    let _ = writeln!(
                        self.out,
                        "  v{r:<5} lane 0: {:#010x} | {:#010x}",
                        a[0], b[0]
                    );
                }
                None => {}
            }
        }
        self
    }

    /// The finished text.
    pub fn text(self) -> String {
        let mut head = format!("{}, cycle {}", self.wave, self.cycle);
        if let Some(i) = &self.inst {
            let _ = write!(head, ", `{i}`");
        }
        head.push('\n');
        head + &self.out
    }
}
