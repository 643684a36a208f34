//! Wave state: the register files of one wavefront and the operand helpers every
//! execution file uses to read sources and write destinations.
//!
//! The scalar file is indexed by the 9-bit source code itself (0–127), so
//! `s5`, `vcc_hi`, `m0`, `exec_lo`, the trap temporaries and gfx803's
//! `flat_scratch` all live in [`Wave::sgpr`] at the code the decoder produced.
//! VGPRs are lane arrays: `vgpr[n][lane]`, always 64 lanes wide (a wave32 uses
//! lanes 0–31). EXEC and VCC are the usual SGPR pairs; in wave32 only their low
//! halves are lane masks.

use arch::device::{Fault, FaultKind, LdsOutOfRange, WaveId};
use arch::isa::operand::{classify, SrcKind, VGPR_BASE};
use arch::isa::{Isa, Operand, OperandType, Target};

/// SGPR-space code of `vcc_lo`.
pub const VCC_LO: u16 = 106;
/// SGPR-space code of `vcc_hi`.
pub const VCC_HI: u16 = 107;
/// SGPR-space code of `m0`.
pub const M0: u16 = 124;
/// SGPR-space code of `null` (reads 0, writes are dropped).
pub const NULL: u16 = 125;
/// SGPR-space code of `exec_lo`.
pub const EXEC_LO: u16 = 126;
/// SGPR-space code of `exec_hi`.
pub const EXEC_HI: u16 = 127;
/// gfx803: SGPR-space code of `flat_scratch_lo` (`flat_scratch_hi` is 103).
pub const FLAT_SCRATCH_LO_GFX803: u16 = 102;

/// The flat apertures are part of the architectural contract (see `arch::device`).
pub use arch::device::{PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE};

use arch::isa::operand::{INLINE_F16, INLINE_F32, INLINE_F64};

/// Where a wave is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaveStatus {
    /// Ready to issue its next instruction.
    Running,
    /// Waiting at `s_barrier` for the rest of its workgroup.
    Barrier,
    /// Executed `s_endpgm`.
    Ended,
}

/// One wavefront's architectural state.
#[derive(Clone, Debug)]
pub struct Wave {
    /// Which wave this is (dispatch, workgroup, index in the workgroup).
    pub id: WaveId,
    /// ISA and wave size.
    pub target: Target,
    /// Scalar registers and specials, indexed by source code 0–127.
    pub sgpr: [u32; 128],
    /// Vector registers, one 64-lane array per register (`vgpr.len()` are allocated).
    pub vgpr: Vec<[u32; 64]>,
    /// Scalar condition code.
    pub scc: bool,
    /// Byte address of the next instruction.
    pub pc: u64,
    /// The MODE hardware register (round and denormal modes, IEEE, DX10 clamp, ...).
    pub mode: u32,
    /// The TRAPSTS hardware register (written only by `s_setreg`).
    pub trapsts: u32,
    /// gfx1030 FLAT_SCRATCH (a hardware register there, set with `s_setreg`).
    pub flat_scratch: u64,
    /// gfx803 VGPR indexing mode is on (`s_set_gpr_idx_on`). While it is, the
    /// VALU adds `M0[7:0]` to the VGPR numbers of the operands selected by
    /// `M0[15:12]` (bit 0 src0, 1 src1, 2 src2, 3 vdst), as GCN3 specifies.
    pub gpr_idx_enabled: bool,
    /// Life-cycle state.
    pub status: WaveStatus,
    /// Index of this wave among all waves of its dispatch (its scratch slot).
    pub slot: u64,
    /// The wave's first LDS access outside its work-group's allocation.
    pub lds_out_of_range: Option<Box<LdsOutOfRange>>,
    /// Instructions this wave has executed (the per-wave watchdog's count).
    pub instructions: u64,
}

/// An `IllegalInstruction` fault with `reason` (wave, pc and text are filled in
/// by the interpreter loop).
pub fn illegal(reason: impl Into<String>) -> Fault {
    fault(FaultKind::IllegalInstruction {
        reason: reason.into(),
    })
}

/// A fault of `kind` whose location the interpreter loop fills in.
pub fn fault(kind: FaultKind) -> Fault {
    Fault::at_step(kind, 0)
}

impl Wave {
    /// A wave with every register zero and `vgprs` vector registers.
    pub fn new(id: WaveId, target: Target, vgprs: usize) -> Wave {
        Wave {
            id,
            target,
            sgpr: [0; 128],
            vgpr: vec![[0; 64]; vgprs],
            scc: false,
            pc: 0,
            mode: 0,
            trapsts: 0,
            flat_scratch: 0,
            gpr_idx_enabled: false,
            status: WaveStatus::Running,
            slot: 0,
            lds_out_of_range: None,
            instructions: 0,
        }
    }

    /// Lanes per wave (32 or 64).
    #[inline]
    pub fn lanes(&self) -> u32 {
        self.target.wave_size()
    }

    /// All-lanes mask for the wave size.
    #[inline]
    pub fn full_mask(&self) -> u64 {
        if self.target.wave64 {
            u64::MAX
        } else {
            0xffff_ffff
        }
    }

    /// EXEC as a lane mask (bits above the wave size are zero).
    #[inline]
    pub fn exec(&self) -> u64 {
        self.pair(EXEC_LO) & self.full_mask()
    }

    /// Sets EXEC (wave32 leaves `exec_hi` untouched).
    #[inline]
    pub fn set_exec(&mut self, mask: u64) {
        self.set_mask(EXEC_LO, mask);
    }

    /// VCC as a lane mask.
    #[inline]
    pub fn vcc(&self) -> u64 {
        self.pair(VCC_LO) & self.full_mask()
    }

    /// Sets VCC (wave32 leaves `vcc_hi` untouched).
    #[inline]
    pub fn set_vcc(&mut self, mask: u64) {
        self.set_mask(VCC_LO, mask);
    }

    /// M0.
    #[inline]
    pub fn m0(&self) -> u32 {
        self.sgpr[usize::from(M0)]
    }

    fn pair(&self, code: u16) -> u64 {
        let i = usize::from(code);
        u64::from(self.sgpr[i]) | (u64::from(self.sgpr[i + 1]) << 32)
    }

    fn set_mask(&mut self, code: u16, mask: u64) {
        let i = usize::from(code);
        self.sgpr[i] = mask as u32;
        if self.target.wave64 {
            self.sgpr[i + 1] = (mask >> 32) as u32;
        }
    }

    /// The FLAT_SCRATCH base (gfx803: the `flat_scratch` SGPR pair; gfx1030: the
    /// hardware register).
    pub fn flat_scratch(&self) -> u64 {
        match self.target.isa {
            Isa::Gfx803 => self.pair(FLAT_SCRATCH_LO_GFX803),
            Isa::Gfx1030 => self.flat_scratch,
        }
    }

    /// Vector register `n` (its 64 lanes), or a fault when the kernel did not allocate it.
    #[inline]
    pub fn vgpr(&self, n: u16) -> Result<&[u32; 64], Fault> {
        self.vgpr
            .get(usize::from(n))
            .ok_or_else(|| self.vgpr_fault(n))
    }

    /// Mutable vector register `n`.
    #[inline]
    pub fn vgpr_mut(&mut self, n: u16) -> Result<&mut [u32; 64], Fault> {
        let count = self.vgpr.len();
        self.vgpr
            .get_mut(usize::from(n))
            .ok_or_else(|| vgpr_fault(n, count))
    }

    fn vgpr_fault(&self, n: u16) -> Fault {
        vgpr_fault(n, self.vgpr.len())
    }

    /// Reads a scalar source as 32 bits (the low dword of a 64-bit operand).
    /// Handles SGPRs, specials, inline constants (integer, and float in the
    /// operand's width), literals and the `src_*` registers.
    pub fn read_scalar(&self, op: &Operand) -> Result<u32, Fault> {
        match *op {
            Operand::Src { code, ty } => {
                if ty.element_bits() == 64 {
                    return Ok(self.read_scalar64(op)? as u32);
                }
                self.read_code32(code, ty)
            }
            Operand::Literal { value, .. } => Ok(value),
            Operand::Off => Err(illegal("operand `off` read as a scalar value")),
        }
    }

    /// Reads a scalar source as 64 bits: a register pair, a sign-extended integer
    /// constant, a 64-bit float constant, or a literal (zero-extended, or the high
    /// half of an `f64`).
    pub fn read_scalar64(&self, op: &Operand) -> Result<u64, Fault> {
        match *op {
            Operand::Src { code, ty } => self.read_code64(code, ty),
            Operand::Literal { value, ty } => Ok(if ty == OperandType::F64 {
                u64::from(value) << 32
            } else {
                u64::from(value)
            }),
            Operand::Off => Err(illegal("operand `off` read as a scalar value")),
        }
    }

    fn read_code32(&self, code: u16, ty: OperandType) -> Result<u32, Fault> {
        match code {
            NULL => Ok(0),
            0..=127 => Ok(self.sgpr[usize::from(code)]),
            128..=192 => Ok(u32::from(code) - 128),
            193..=208 => Ok((192 - i32::from(code)) as u32),
            240..=248 => {
                let i = usize::from(code - 240);
                Ok(match ty.element_bits() {
                    16 => u32::from(INLINE_F16[i]),
                    _ => INLINE_F32[i],
                })
            }
            _ => Ok(self.read_special(code)? as u32),
        }
    }

    fn read_code64(&self, code: u16, ty: OperandType) -> Result<u64, Fault> {
        match code {
            NULL => Ok(0),
            0..=126 => Ok(self.pair(code)),
            // A 64-bit read starting at exec_hi has no partner register.
            127 => Ok(u64::from(self.sgpr[127])),
            128..=192 => Ok(u64::from(code) - 128),
            193..=208 => Ok((192 - i64::from(code)) as u64),
            240..=248 => {
                let i = usize::from(code - 240);
                // A wave64 lane mask is a 64-bit operand: the f64 value, as
                // for any 64-bit operand (the cycle model agrees).
                Ok(match ty.element_bits() {
                    _ if ty == OperandType::LaneMask => INLINE_F64[i],
                    64 => INLINE_F64[i],
                    16 => u64::from(INLINE_F16[i]),
                    _ => u64::from(INLINE_F32[i]),
                })
            }
            _ => self.read_special(code),
        }
    }

    /// The `src_*` registers and VGPR-in-scalar-context errors.
    fn read_special(&self, code: u16) -> Result<u64, Fault> {
        Ok(match code {
            235 => SHARED_APERTURE_BASE,
            236 => SHARED_APERTURE_BASE | 0xffff_ffff,
            237 => PRIVATE_APERTURE_BASE,
            238 => PRIVATE_APERTURE_BASE | 0xffff_ffff,
            // No POPS in compute: no wave is ever exiting an ordered section.
            239 => 0,
            251 => u64::from(self.vcc() == 0),
            252 => u64::from(self.exec() == 0),
            253 => u64::from(self.scc),
            _ => {
                return Err(illegal(format!(
                    "source code {code} ({:?}) cannot be read as a scalar value",
                    classify(self.target.isa, code)
                )))
            }
        })
    }

    /// Writes a 32-bit scalar destination (`null` drops the write).
    pub fn write_scalar(&mut self, op: &Operand, value: u32) -> Result<(), Fault> {
        match *op {
            Operand::Src { code: NULL, .. } => Ok(()),
            Operand::Src { code, .. } if code < 128 => {
                self.sgpr[usize::from(code)] = value;
                Ok(())
            }
            _ => Err(self.bad_dst(op)),
        }
    }

    /// Writes a 64-bit scalar destination (a register pair).
    pub fn write_scalar64(&mut self, op: &Operand, value: u64) -> Result<(), Fault> {
        match *op {
            Operand::Src { code: NULL, .. } => Ok(()),
            Operand::Src { code, .. } if code < 127 => {
                let i = usize::from(code);
                self.sgpr[i] = value as u32;
                self.sgpr[i + 1] = (value >> 32) as u32;
                Ok(())
            }
            _ => Err(self.bad_dst(op)),
        }
    }

    /// Writes a lane-mask destination: one SGPR in wave32, a pair in wave64.
    pub fn write_mask(&mut self, op: &Operand, mask: u64) -> Result<(), Fault> {
        if self.target.wave64 {
            self.write_scalar64(op, mask)
        } else {
            self.write_scalar(op, mask as u32)
        }
    }

    /// Reads a lane-mask source: one SGPR (or constant) in wave32, a pair in wave64.
    pub fn read_mask(&self, op: &Operand) -> Result<u64, Fault> {
        if self.target.wave64 {
            self.read_scalar64(op)
        } else {
            Ok(u64::from(self.read_scalar(op)?))
        }
    }

    fn bad_dst(&self, op: &Operand) -> Fault {
        illegal(format!(
            "`{}` cannot be a scalar destination",
            op.display(self.target)
        ))
    }

    /// Reads a 32-bit source for every lane: a VGPR's lanes, or a scalar value
    /// broadcast to all 64 lanes.
    pub fn read_lanes(&self, op: &Operand) -> Result<[u32; 64], Fault> {
        match *op {
            Operand::Src { code, .. } if code >= VGPR_BASE => Ok(*self.vgpr(code - VGPR_BASE)?),
            _ => Ok([self.read_scalar(op)?; 64]),
        }
    }

    /// Reads a 64-bit source for every lane: a VGPR pair, or a 64-bit scalar broadcast.
    pub fn read_lanes64(&self, op: &Operand) -> Result<[u64; 64], Fault> {
        match *op {
            Operand::Src { code, .. } if code >= VGPR_BASE => {
                let n = code - VGPR_BASE;
                let lo = self.vgpr(n)?;
                let hi = self.vgpr(n + 1)?;
                Ok(std::array::from_fn(|l| {
                    u64::from(lo[l]) | (u64::from(hi[l]) << 32)
                }))
            }
            _ => Ok([self.read_scalar64(op)?; 64]),
        }
    }

    /// The VGPR number of a vector operand.
    pub fn vgpr_index(&self, op: &Operand) -> Result<u16, Fault> {
        match *op {
            Operand::Src { code, .. } if code >= VGPR_BASE => Ok(code - VGPR_BASE),
            _ => Err(illegal(format!(
                "`{}` is not a vector register",
                op.display(self.target)
            ))),
        }
    }

    /// What a source code names on this wave's ISA (for error messages).
    pub fn describe(&self, code: u16) -> SrcKind {
        classify(self.target.isa, code)
    }
}

fn vgpr_fault(n: u16, count: usize) -> Fault {
    illegal(format!(
        "v{n} is beyond the kernel's VGPR allocation of {count} registers"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wave(target: Target) -> Wave {
        Wave::new(WaveId::default(), target, 8)
    }

    #[test]
    fn constants_and_registers_read_as_the_operand_type_says() {
        let mut w = wave(Target::GFX1030_W32);
        w.sgpr[4] = 0xdead_beef;
        w.sgpr[5] = 0x1234_5678;
        let s = |code, ty| Operand::Src { code, ty };
        assert_eq!(w.read_scalar(&s(4, OperandType::B32)), Ok(0xdead_beef));
        assert_eq!(
            w.read_scalar64(&s(4, OperandType::B64)),
            Ok(0x1234_5678_dead_beef)
        );
        // -1 inline: 32-bit all ones; 64-bit sign-extended.
        assert_eq!(w.read_scalar(&s(193, OperandType::B32)), Ok(u32::MAX));
        assert_eq!(w.read_scalar64(&s(193, OperandType::B64)), Ok(u64::MAX));
        // 1.0 in three widths.
        assert_eq!(w.read_scalar(&s(242, OperandType::F32)), Ok(0x3f80_0000));
        assert_eq!(w.read_scalar(&s(242, OperandType::F16)), Ok(0x3c00));
        assert_eq!(
            w.read_scalar64(&s(242, OperandType::F64)),
            Ok(0x3ff0_0000_0000_0000)
        );
        // Literals: f64 literal is the high half, b64 zero-extends.
        let lit = |value, ty| Operand::Literal { value, ty };
        assert_eq!(
            w.read_scalar64(&lit(0x4000_0000, OperandType::F64)),
            Ok(0x4000_0000_0000_0000)
        );
        assert_eq!(
            w.read_scalar64(&lit(0xffff_fff0, OperandType::B64)),
            Ok(0xffff_fff0)
        );
        // src_scc, src_execz.
        w.scc = true;
        assert_eq!(w.read_scalar(&s(253, OperandType::B32)), Ok(1));
        assert_eq!(w.read_scalar(&s(252, OperandType::B32)), Ok(1));
        w.set_exec(0xffff_ffff_ffff_ffff);
        // wave32 keeps exec_hi and masks EXEC to 32 lanes.
        assert_eq!(w.exec(), 0xffff_ffff);
        assert_eq!(w.sgpr[127], 0);
        assert_eq!(w.read_scalar(&s(252, OperandType::B32)), Ok(0));
        assert!(w.read_scalar(&s(254, OperandType::B32)).is_err());
        assert!(w.vgpr(8).is_err());
        assert!(w.vgpr(7).is_ok());
    }
}
