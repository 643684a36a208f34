//! FLAT, GLOBAL and SCRATCH semantics, EXEC-masked over 32 or 64 lanes.
//!
//! * FLAT (both ISAs): address = `VGPR[vaddr:vaddr+1] + offset` (unsigned;
//!   gfx803 has no offset). The segment is chosen per lane by aperture: the
//!   shared aperture `[SHARED_APERTURE_BASE, +4 GiB)` reaches the workgroup's
//!   LDS at the low 32 bits (out-of-range bytes read 0, writes dropped, as
//!   for DS); the private aperture reaches the lane's scratch at private
//!   offset = the low 32 bits; anything else is device memory.
//! * GLOBAL (gfx1030): `saddr` SGPR pair + zero-extended 32-bit `VGPR[vaddr]`,
//!   or the 64-bit `VGPR[vaddr]` when `saddr` is `off`; plus the signed 12-bit
//!   offset. `*_addtid`: `saddr + 4 * lane + offset`. Never goes through the
//!   apertures.
//! * SCRATCH (gfx1030): private offset = `VGPR[vaddr]` (or 0 when `off`) +
//!   `saddr` SGPR (or 0) + the signed offset, wrapped to 32 bits.
//! * Private addresses use the dispatch's swizzled scratch layout
//!   ([`ScratchLayout`](super::super::dispatch::ScratchLayout)): dword element
//!   `o / 4` of lane `l` of the wave whose slice starts at `B` lives at
//!   `B + (o / 4) * 4 * wave_size + 4 * l + o % 4`, the same layout the MUBUF
//!   private segment V# addresses, so both paths see the same data. `B` is
//!   what the kernel prologue put in FLAT_SCRATCH: on gfx803
//!   `SH_HIDDEN_PRIVATE_BASE_VIMID + FLAT_SCRATCH_HI * 256` (offset flat
//!   scratch; FLAT_SCRATCH_LO holds the per-lane size), on gfx1030 the 64-bit
//!   FLAT_SCRATCH register itself.
//! * Atomics return the pre-op value when `glc` is set. `cmpswap` data is
//!   `{src, cmp}`. An unmapped device byte is a `MemoryViolation` naming it.
//! * Not implemented: the `lds` bit (load to LDS).

use arch::device::Fault;
use arch::isa::{Family, Instruction, Isa, Operand};

use super::super::wave::{PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE};
use super::vmem::access::{classify, Access};
use super::vmem::{perform, perform_global, Loc, Operands, Regs, Swizzled};
use super::{each, illegal, not_implemented, Flow, Wave, WaveCtx};

/// Which segment a lane's address falls in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Segment {
    Global,
    Lds,
    Private,
}

/// Executes one FLAT, GLOBAL or SCRATCH instruction.
pub fn execute(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    let Some(access) = classify(inst.opcode) else {
        return Err(not_implemented(inst));
    };
    if inst.modifiers.lds {
        return Err(not_implemented(inst));
    }
    let w = &*ctx.wave;
    let ops = inst.operands();
    let addtid = matches!(
        inst.opcode,
        arch::isa::Opcode::GLOBAL_LOAD_DWORD_ADDTID | arch::isa::Opcode::GLOBAL_STORE_DWORD_ADDTID
    );
    // Operand order: [vdst] [vaddr] [vdata] [saddr] (see arch's FLAT family).
    let returns = match access {
        Access::Load(_) => true,
        Access::Atomic(..) => inst.modifiers.glc,
        Access::Store(_) => false,
    };
    let mut next = 0;
    let mut take = || -> Result<&Operand, Fault> {
        let op = ops
            .get(next)
            .ok_or_else(|| illegal(format!("{inst}: operand {next} is missing")))?;
        next += 1;
        Ok(op)
    };
    let dst = if returns { Some(take()?) } else { None };
    let vaddr = if addtid { None } else { Some(take()?) };
    let data = if matches!(access, Access::Load(_)) {
        None
    } else {
        Some(take()?)
    };
    let saddr = if inst.family == Family::Flat {
        None
    } else {
        Some(take()?)
    };
    let mut operands = Operands {
        dst: dst.map(|o| Regs::of(w, o)).transpose()?,
        data: data.map(|o| Regs::of(w, o)).transpose()?,
    };
    if let (Some(d), Access::Atomic(..)) = (&mut operands.dst, access) {
        // A returning atomic's destination is its value size (cmpswap: half the data).
        *d = d.with_count(access.bytes() / 4);
    }
    let exec = w.exec();
    let offset = i64::from(inst.modifiers.offset);
    let vaddr_reg = match vaddr {
        Some(op @ Operand::Src { .. }) => Some(Regs::of(w, op)?),
        _ => None,
    };
    let sbase = match saddr {
        Some(op @ Operand::Src { .. }) => Some(match inst.family {
            Family::Scratch => u64::from(w.read_scalar(op)?),
            _ => w.read_scalar64(op)?,
        }),
        _ => None,
    };
    // Per-lane address (device address, LDS address or private offset) and segment.
    let mut addr = [0u64; 64];
    let mut seg = [Segment::Global; 64];
    let off = offset as u64;
    let fast = ctx.mem.fast_paths();
    match (inst.family, vaddr_reg, sbase) {
        // The common forms, with the register arrays read directly (the same
        // sums as the general loop below).
        (Family::Flat | Family::Global, Some(r), None) if fast && r.count >= 2 && !addtid => {
            let (lo, hi) = (
                &w.vgpr[usize::from(r.first)],
                &w.vgpr[usize::from(r.first) + 1],
            );
            let flat = inst.family == Family::Flat;
            each(
                exec,
                #[inline(always)]
                |lane| {
                    let a = (u64::from(lo[lane]) | u64::from(hi[lane]) << 32).wrapping_add(off);
                    if flat {
                        (addr[lane], seg[lane]) = aperture(a);
                    } else {
                        addr[lane] = a;
                    }
                },
            );
        }
        (Family::Global, Some(r), Some(s)) if fast && !addtid => {
            let v = &w.vgpr[usize::from(r.first)];
            each(
                exec,
                #[inline(always)]
                |lane| {
                    addr[lane] = s.wrapping_add(u64::from(v[lane])).wrapping_add(off);
                },
            );
        }
        _ => general_addresses(
            inst,
            w,
            exec,
            (vaddr_reg, sbase, addtid, offset),
            &mut addr,
            &mut seg,
        ),
    }
    if ctx.mem.fast_paths()
        && !matches!(access, Access::Atomic(..))
        && all_global(exec, &seg)
        && perform_global(ctx, access, operands, exec, &addr)?
    {
        return Ok(Flow::Next);
    }
    let w = &*ctx.wave;
    let private = Swizzled::scratch(&ctx.env.scratch, private_base(ctx, w));
    let lds_limit = ctx.lds.len() as u64;
    perform(ctx, access, operands, exec, lds_limit, |lane, delta| {
        let a = addr[lane].wrapping_add(delta);
        match seg[lane] {
            Segment::Global => (Loc::Global(a), u64::MAX),
            Segment::Lds => (Loc::Lds(a), u64::MAX),
            Segment::Private => (Loc::Global(private.address(lane as u64, a)), private.run(a)),
        }
    })?;
    Ok(Flow::Next)
}

/// True when every lane of `exec` addresses device memory.
#[inline]
fn all_global(exec: u64, seg: &[Segment; 64]) -> bool {
    let mut all = true;
    each(
        exec,
        #[inline(always)]
        |lane| all &= seg[lane] == Segment::Global,
    );
    all
}

/// Per-lane address (device address, LDS address or private offset) and
/// segment, for every FLAT/GLOBAL/SCRATCH form.
fn general_addresses(
    inst: &Instruction,
    w: &Wave,
    exec: u64,
    (vaddr_reg, sbase, addtid, offset): (Option<Regs>, Option<u64>, bool, i64),
    addr: &mut [u64; 64],
    seg: &mut [Segment; 64],
) {
    for lane in super::vmem::lanes(exec) {
        let v = vaddr_reg.map(|r| r.get(w, lane));
        let (a, s) = match inst.family {
            Family::Flat => {
                let v = v.map_or(0, |d| u64::from(d[0]) | u64::from(d[1]) << 32);
                aperture(v.wrapping_add(offset as u64))
            }
            Family::Scratch => {
                let v = v.map_or(0, |d| u64::from(d[0]));
                let o = v
                    .wrapping_add(sbase.unwrap_or(0))
                    .wrapping_add(offset as u64);
                (o & 0xffff_ffff, Segment::Private)
            }
            _ => {
                let base = match (sbase, v) {
                    _ if addtid => sbase.unwrap_or(0).wrapping_add(4 * lane as u64),
                    (Some(s), Some(d)) => s.wrapping_add(u64::from(d[0])),
                    (None, Some(d)) => u64::from(d[0]) | u64::from(d[1]) << 32,
                    (Some(s), None) => s,
                    (None, None) => 0,
                };
                (base.wrapping_add(offset as u64), Segment::Global)
            }
        };
        addr[lane] = a;
        seg[lane] = s;
    }
}

/// The segment of a FLAT address and the address within it.
fn aperture(address: u64) -> (u64, Segment) {
    match address >> 32 {
        x if x == SHARED_APERTURE_BASE >> 32 => (address & 0xffff_ffff, Segment::Lds),
        x if x == PRIVATE_APERTURE_BASE >> 32 => (address & 0xffff_ffff, Segment::Private),
        _ => (address, Segment::Global),
    }
}

/// Start of this wave's scratch slice as FLAT_SCRATCH describes it.
fn private_base(ctx: &WaveCtx<'_>, w: &Wave) -> u64 {
    match w.target.isa {
        // FLAT_SCRATCH_HI (the pair's high dword) is the slice's offset from the
        // hidden private base in 256-byte units.
        Isa::Gfx803 => ctx
            .env
            .hidden_private_base
            .wrapping_add((w.flat_scratch() >> 32) << 8),
        Isa::Gfx1030 => w.flat_scratch(),
    }
}
