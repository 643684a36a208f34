//! The context a block's generated code runs with, and the functions the
//! generated code calls back into: the interpreter for one instruction, the
//! interpreter's lane functions for four lanes.

use arch::device::Fault;

use super::Block;
use crate::dispatch::DispatchEnv;
use crate::exec::lowered::valu::{compare_f32_lanes, lane};
use crate::exec::lowered::{self, Op};
use crate::exec::{self, Flow, WaveCtx};
use crate::memory::Memory;
use crate::wave::Wave;

/// What a block's code reads and writes besides the registers. `repr(C)`:
/// the generated code addresses the first fields by their offsets
/// ([`std::mem::offset_of!`]); the rest is for the interpreter calls.
#[repr(C)]
pub struct JitCtx {
    /// The wave's `sgpr[0..128]`.
    pub(crate) sgpr: *mut u32,
    /// The wave's VGPRs: register `n`, lane `l` at `vgpr[n * 64 + l]`.
    pub(crate) vgpr: *mut u32,
    /// The wave's SCC (a `bool`: 0 or 1).
    pub(crate) scc: *mut u8,
    /// EXEC lanes at the issue of every vector instruction run (out).
    pub(crate) active_lanes: u64,
    /// Instructions the wave may still run (in; at least one pass).
    pub(crate) budget: u64,
    /// Whole passes completed by chaining (out; also read by [`interp`]).
    pub(crate) iterations: u64,
    /// The next PC when the code returns 0 (out).
    pub(crate) next_pc: u64,
    /// Instructions of the last pass executed (out).
    pub(crate) exit_index: u32,
    pub(crate) wave: *mut Wave,
    pub(crate) memory: *mut Memory,
    pub(crate) lds: *mut u8,
    pub(crate) lds_len: usize,
    pub(crate) env: *const DispatchEnv,
    pub(crate) block: *const Block,
    /// The device step count at block entry.
    pub(crate) steps_base: u64,
    /// The flow of the interpreted instruction that ended the block.
    pub(crate) flow: Flow,
    /// The fault of the interpreted instruction that ended the block.
    pub(crate) fault: Option<Fault>,
}

/// Offsets of the fields the generated code uses.
pub(super) mod off {
    use super::JitCtx;
    use std::mem::offset_of;
    pub const SGPR: i32 = offset_of!(JitCtx, sgpr) as i32;
    pub const VGPR: i32 = offset_of!(JitCtx, vgpr) as i32;
    pub const SCC: i32 = offset_of!(JitCtx, scc) as i32;
    pub const ACTIVE_LANES: i32 = offset_of!(JitCtx, active_lanes) as i32;
    pub const BUDGET: i32 = offset_of!(JitCtx, budget) as i32;
    pub const ITERATIONS: i32 = offset_of!(JitCtx, iterations) as i32;
    pub const NEXT_PC: i32 = offset_of!(JitCtx, next_pc) as i32;
    pub const EXIT_INDEX: i32 = offset_of!(JitCtx, exit_index) as i32;
}

/// Runs instruction `k` of the block with the interpreter, exactly as
/// `run_wave` would (the lowered path, then the general one). Returns 0 to
/// go on, 1 when its flow ends the block (kept in `ctx.flow`), 2 on a fault
/// (kept in `ctx.fault`).
///
/// # Safety
/// `ctx` is the live context of a block being run by [`super::Jit::enter`].
pub(super) unsafe extern "C" fn interp(ctx: *mut JitCtx, k: u32) -> u32 {
    let ctx = &mut *ctx;
    let block = &*ctx.block;
    let k = k as usize;
    let d = &block.insts[k];
    let wave = &mut *ctx.wave;
    let pc = block.pcs[k];
    let result = match lowered::execute(wave, &d.lowered) {
        Some(flow) => Ok(match flow {
            Flow::Jump(t) => Flow::Jump(t),
            _ => Flow::Next,
        }),
        None => {
            let now = ctx.steps_base + ctx.iterations * block.insts.len() as u64 + k as u64;
            let mut wctx = WaveCtx {
                wave,
                mem: &mut *ctx.memory,
                lds: std::slice::from_raw_parts_mut(ctx.lds, ctx.lds_len),
                env: &*ctx.env,
                pc,
                now,
            };
            exec::execute(&mut wctx, &d.inst)
        }
    };
    match result {
        Ok(Flow::Next) => 0,
        Ok(flow) => {
            ctx.flow = flow;
            1
        }
        Err(f) => {
            ctx.fault = Some(f);
            2
        }
    }
}

/// The interpreter's lane function of `*op` over four lanes: `buf` holds
/// `a[4], b[4], c[4]`, and receives the results in `buf[12..16]`.
///
/// # Safety
/// `op` points to a live [`Op`]; `buf` to 16 writable `u32`s.
pub(super) unsafe extern "C" fn lane4(op: *const Op, mode: u32, buf: *mut u32) {
    let op = *op;
    let buf = std::slice::from_raw_parts_mut(buf, 16);
    for l in 0..4 {
        buf[12 + l] = lane(op, buf[l], buf[4 + l], buf[8 + l], mode);
    }
}

/// The interpreter's `f32` compare over four lanes: `buf` holds `a[4],
/// b[4]`; returns the lanes (bits 0–3) where `table` holds.
///
/// # Safety
/// `buf` points to 8 readable `u32`s.
pub(super) unsafe extern "C" fn cmp4(table: u32, mode: u32, buf: *const u32) -> u32 {
    let buf = std::slice::from_raw_parts(buf, 8);
    compare_f32_lanes(table as u8, &buf[..4], &buf[4..], mode)
}
