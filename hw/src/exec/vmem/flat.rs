//! FLAT, GLOBAL and SCRATCH addressing (gfx1030).
//!
//! - GLOBAL: `saddr` an SGPR pair → base + zero-extended 32-bit VGPR offset;
//!   `saddr` `off` → 64-bit VGPR address. Plus the signed 12-bit offset.
//!   `*_addtid`: base + offset + 4 × lane.
//! - FLAT: 64-bit VGPR address + unsigned offset, then the aperture decides:
//!   the shared aperture reaches LDS, the private aperture the lane's
//!   private memory, anything else device memory.
//! - SCRATCH: private offset = VGPR (or SGPR, or neither) + signed offset.
//!
//! Private memory (SCRATCH and the FLAT private aperture) is swizzled from
//! FLAT_SCRATCH, which gfx1030 ("absolute flat scratch") holds as the device
//! address of the wave's slice: private byte `o` of lane `l` is at
//! `FLAT_SCRATCH + (o / 4) · 4 · L + 4 · l + o % 4` (docs/architecture.md).

use arch::device::{FaultKind, PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE};
use arch::isa::{Family, Instruction, Operand};

use super::kind::{self, Ext, Kind};
use super::{
    active_lanes, lanes_of, perform, reg_dwords, take, vgpr_base, wave_lanes, Loc, Mapping, Regs,
};
use crate::exec::operand;
use crate::exec::{ExecCtx, ScalarState, Vgprs, Writes, MAX_LANES};

/// Bytes each aperture spans.
const APERTURE_BYTES: u64 = 1 << 32;

/// Executes a FLAT, GLOBAL or SCRATCH instruction.
pub(super) fn execute(
    inst: &Instruction,
    s: &ScalarState,
    v: &Vgprs<'_>,
    ctx: &mut ExecCtx<'_>,
    out: &mut Writes,
) -> Result<(), FaultKind> {
    let k = kind::kind(inst.opcode).ok_or_else(|| crate::exec::unimplemented(inst))?;
    let m = &inst.modifiers;
    // LDS DMA (`lds` bit) is not modelled; see docs/golden-coverage.md.
    if m.lds || matches!(k, Kind::Format | Kind::CacheControl) {
        return Err(crate::exec::unimplemented(inst));
    }
    let addtid = matches!(k, Kind::LoadAddtid | Kind::StoreAddtid);
    let k = match k {
        Kind::LoadAddtid => Kind::Load {
            bytes: 4,
            ext: Ext::Zero,
        },
        Kind::StoreAddtid => Kind::Store {
            bytes: 4,
            hi: false,
        },
        other => other,
    };
    let (dst_dwords, data_dwords) = reg_dwords(k);
    let returns = match k {
        Kind::Load { .. } => true,
        Kind::Atomic { .. } => m.glc,
        _ => false,
    };
    let mut i = 0;
    let mut regs = Regs::default();
    if returns {
        regs.vdst = Some(vgpr_base(inst, &take(inst, &mut i)?, dst_dwords, v)?);
    }
    let vaddr = if addtid {
        Operand::Off
    } else {
        take(inst, &mut i)?
    };
    if data_dwords > 0 {
        regs.vdata = Some(vgpr_base(inst, &take(inst, &mut i)?, data_dwords, v)?);
    }
    let saddr = if inst.family == Family::Flat {
        Operand::Off
    } else {
        take(inst, &mut i)?
    };

    let active = active_lanes(s, v);
    let mut locs = [Loc::Global(0); MAX_LANES];
    let offset = i64::from(m.offset) as u64;
    match inst.family {
        Family::Flat => {
            let a = operand::vector_u64(&vaddr, s, v)?;
            for lane in lanes_of(active) {
                locs[lane] = aperture(a[lane].wrapping_add(offset));
            }
        }
        Family::Global if addtid => {
            let base = operand::scalar(&saddr, s, v)?.wrapping_add(offset);
            for lane in lanes_of(active) {
                locs[lane] = Loc::Global(base.wrapping_add(4 * lane as u64));
            }
        }
        Family::Global => match saddr {
            Operand::Src { .. } => {
                let base = operand::scalar(&saddr, s, v)?.wrapping_add(offset);
                let o = operand::vector_dword(&vaddr, 0, s, v)?;
                for lane in lanes_of(active) {
                    locs[lane] = Loc::Global(base.wrapping_add(u64::from(o[lane])));
                }
            }
            _ => {
                let a = operand::vector_u64(&vaddr, s, v)?;
                for lane in lanes_of(active) {
                    locs[lane] = Loc::Global(a[lane].wrapping_add(offset));
                }
            }
        },
        _ => {
            // SCRATCH: a 32-bit private offset from whichever address register is present.
            let base = (operand::scalar(&saddr, s, v)? as u32).wrapping_add(m.offset as u32);
            let o = match vaddr {
                Operand::Src { .. } => operand::vector_dword(&vaddr, 0, s, v)?,
                _ => [0; MAX_LANES],
            };
            for lane in lanes_of(active) {
                locs[lane] = Loc::Private(base.wrapping_add(o[lane]));
            }
        }
    }
    let map = Mapping {
        scratch_base: s.flat_scratch,
        lanes: u64::from(wave_lanes(v)),
        ..Mapping::default()
    };
    perform(inst, k, v, ctx, &map, &locs, active, regs, out)
}

/// The segment a FLAT address falls in.
#[inline]
fn aperture(a: u64) -> Loc {
    if a.wrapping_sub(SHARED_APERTURE_BASE) < APERTURE_BYTES {
        Loc::Lds((a - SHARED_APERTURE_BASE) as u32)
    } else if a.wrapping_sub(PRIVATE_APERTURE_BASE) < APERTURE_BYTES {
        Loc::Private((a - PRIVATE_APERTURE_BASE) as u32)
    } else {
        Loc::Global(a)
    }
}
