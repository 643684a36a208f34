//! The JIT: hot basic blocks of gfx1030 code translated into host machine
//! code with Cranelift, beside the interpreter (which stays the oracle).
//!
//! ```text
//! run_wave ─► at a block start (wave start, after a jump or a block):
//!             Jit::enter ─► count the start; at `threshold` compile the block
//!                          (instructions from the program cache up to the next
//!                          control-flow or MODE-changing instruction)
//!                        ─► run the generated code when the wave has budget for
//!                           a whole pass, else interpret as before
//! ```
//!
//! * **Registers in place.** The generated code addresses the wave's own
//!   register file: `sgpr[128]` (a `u32` array), the VGPRs (one 64-lane
//!   `u32` array per register, contiguous) and SCC, through pointers in a
//!   [`JitCtx`]; nothing is copied in or out.
//! * **Native instructions** (see `emit.rs`): the scalar forms of
//!   [`exec::lowered::scalar`] with register/constant operands, and the
//!   vector forms of [`exec::lowered`] with VGPR/SGPR/constant operands, as
//!   host SIMD over groups of 4 lanes under EXEC (8 groups in wave32, 16 in
//!   wave64). Floating point is exact: the host's IEEE add/mul/fma/convert/
//!   compare where it provably gives the interpreter's bits (nearest-even,
//!   no denormal input or result that MODE flushes, no NaN result), and
//!   otherwise a call from generated code into the interpreter's own lane
//!   function ([`exec::lowered::valu::lane`]).
//! * **Everything else** runs *inside the block* as a call into the
//!   interpreter at that instruction boundary ([`helpers::interp`]): the
//!   lowered path, then the general path — so state is the interpreter's by
//!   construction. Such a call may end the block (a jump, barrier, end or
//!   fault), which the generated code reports with the instruction's index.
//! * **Chaining.** A block whose last instruction branches back to its own
//!   start loops inside the generated code while the wave has budget for
//!   another whole pass.
//! * **Cache.** Each GPU keys its block starts by (ISA and wave size, start
//!   address, MODE register) — the MODE a block was compiled for is a
//!   constant in its code, and MODE only changes at instructions that end
//!   blocks. A host write to device memory (or a map/unmap) drops every
//!   block it overlaps, like the program cache. Translations live in a
//!   process-wide cache keyed by the same fields and the block's bytes, so
//!   a workload run again (or on another device) reuses them; cached code
//!   runs at first sight, the threshold only guards compiling.
//!
//! Counting is exact: a block runs only when the wave's remaining quantum
//! covers a whole pass, statistics are added per instruction executed (the
//! active-lane count is EXEC's population at each vector instruction's
//! issue, accumulated by the generated code), and the step count seen by an
//! interpreter call is the one it would see when interpreted. Only gfx1030
//! waves are compiled.

mod emit;
mod helpers;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use arch::device::Fault;
use arch::isa::{Family, Isa, Opcode};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::Module;

use crate::dispatch::DispatchEnv;
use crate::exec::Flow;
use crate::memory::Memory;
use crate::program::{target_bits, Decoded, ProgramCache};
use crate::stats::Counters;
use crate::wave::{Wave, WaveStatus};

pub use helpers::JitCtx;

/// The JIT setting [`crate::GoldenConfig::new`] starts with (the CLI's
/// `--jit on|off` sets it once, before building any device).
static DEFAULT_ON: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Sets whether new [`crate::GoldenConfig`]s have the JIT on.
pub fn set_default(on: bool) {
    DEFAULT_ON.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// The threshold new [`crate::GoldenConfig`]s start with:
/// [`DEFAULT_THRESHOLD`], or the environment's `GPUSIM_JIT_THRESHOLD` (for
/// tuning).
pub fn default_threshold() -> u32 {
    std::env::var("GPUSIM_JIT_THRESHOLD")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_THRESHOLD)
}

/// The process-wide threshold new [`crate::GoldenConfig`]s start with:
/// [`DEFAULT_PROCESS_THRESHOLD`], or the environment's
/// `GPUSIM_JIT_PROCESS_THRESHOLD` (for tuning).
pub fn default_process_threshold() -> u32 {
    std::env::var("GPUSIM_JIT_PROCESS_THRESHOLD")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_PROCESS_THRESHOLD)
}

/// Whether new [`crate::GoldenConfig`]s have the JIT on (off unless
/// [`set_default`] said otherwise).
pub fn default_on() -> bool {
    DEFAULT_ON.load(std::sync::atomic::Ordering::Relaxed)
}

/// A deliberate bug for the differential tests' self-check
/// (`cosim/tests/golden_jit_planted.rs`): with `GPUSIM_JIT_PLANT_BUG=1` in
/// the environment, `v_add_nc_u32` compiled by the JIT flips bit 0 of every
/// lane's sum. The random-program differential must find it; nothing else
/// sets it.
pub fn planted_bug() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("GPUSIM_JIT_PLANT_BUG").is_some_and(|v| v == "1"))
}

/// Executions of a block start before it is compiled (tiering: cold code is
/// interpreted, so a short workload does not pay for compilation).
pub const DEFAULT_THRESHOLD: u32 = 16;

/// Executions of a block start over the whole process before it is
/// compiled. Measured (docs/performance.md, branch `jit5`): Cranelift spends
/// ~0.8 M host instructions per compiled instruction, and a compiled
/// instruction saves a few hundred over interpreting it, so a block pays
/// for its compile after ~1,000–2,000 executions.
pub const DEFAULT_PROCESS_THRESHOLD: u32 = 1024;

/// Longest block, in instructions.
const MAX_BLOCK: usize = 64;

/// Cache key: target bits, start address, MODE.
type Key = (u64, u64, u32);

/// A multiplicative hasher for the small integer keys of the block maps: a
/// block start is looked up at every block entry, where SipHash (the
/// standard map's default, made for untrusted keys) cost as much as running a
/// short block. The keys are addresses the simulated program chose, so
/// flooding is not a concern here.
#[derive(Default, Clone, Copy)]
struct FastHasher(u64);

impl std::hash::Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        // FxHash's step: rotate, mix in, multiply by an odd constant.
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// A map with [`FastHasher`].
type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<FastHasher>>;

/// What the cache knows about a block start.
#[derive(Clone)]
enum Entry {
    /// Seen this many times, not compiled yet.
    Counting(u32),
    /// Compiled.
    Compiled(Arc<Compiled>),
    /// Cannot be compiled (e.g. its first instruction does not decode).
    Never,
}

/// The generated code of a block: `fn(ctx) -> exit code` (0 the pass or
/// passes completed, 1 an interpreted instruction changed the flow, 2 an
/// interpreted instruction faulted).
type Code = unsafe extern "C" fn(*mut JitCtx) -> u32;

/// A compiled block.
pub(crate) struct Block {
    /// Address of the first instruction.
    start: u64,
    /// Byte after the last instruction.
    end: u64,
    /// The instructions, as the program cache decoded them.
    insts: Vec<Decoded>,
    /// Their addresses.
    pcs: Vec<u64>,
    /// Family of each instruction (index into `Counters::by_family`).
    families: Vec<usize>,
    /// Instructions of each family in one pass.
    per_pass: Vec<(usize, u64)>,
    /// Scalar instructions in one pass.
    scalars: u64,
    /// Instructions of each family run as native code in one pass (for
    /// [`JitStats::native`]).
    native_per_pass: Vec<(usize, u64)>,
    /// Instructions of each family run through the interpreter in one pass
    /// (for [`JitStats::fallback`]).
    fallback_per_pass: Vec<(usize, u64)>,
    /// VGPRs the native code addresses (the wave must have allocated them).
    vgprs_needed: usize,
    /// Operations whose lanes the generated code may hand to the interpreter's
    /// lane function (pointed to from the code: kept alive with the block).
    _lane_ops: Box<[crate::exec::lowered::Op]>,
    /// The code.
    code: Code,
}

/// How much of the executed code was compiled, by family (dynamic counts).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JitStats {
    /// Blocks put to use (compiled, or found in the process-wide code cache).
    pub blocks: u64,
    /// Instructions compiled into blocks (static).
    pub compiled_instructions: u64,
    /// Per family (`Family as usize`): instructions executed as native code.
    pub native: Vec<u64>,
    /// Per family: instructions executed inside blocks through the interpreter.
    pub fallback: Vec<u64>,
    /// Instructions executed by the interpreter outside blocks.
    pub interpreted: u64,
    /// Blocks dropped by host writes to code memory.
    pub invalidated: u64,
    /// Instructions compiled as interpreter calls, by mnemonic (static:
    /// once per compiled block).
    pub fallback_opcodes: std::collections::BTreeMap<String, u64>,
}

/// A compiled block, the native flag of each of its instructions and the
/// bytes it was translated from.
pub(crate) struct Compiled {
    block: Block,
    native: Vec<bool>,
    bytes: Vec<u8>,
}

impl Compiled {
    /// True when `memory` holds this block's bytes at its address (then the
    /// program cache would decode the same instructions: the translation
    /// applies).
    fn matches(&self, memory: &Memory) -> bool {
        let mut buf = [0u8; MAX_BLOCK * 16];
        let Some(buf) = buf.get_mut(..self.bytes.len()) else {
            return false;
        };
        memory.read(self.block.start, buf).is_ok() && *buf == *self.bytes
    }
}

/// Key of the process-wide code cache: target bits, start address, MODE,
/// lowering on. Each key holds the translations of the different code seen
/// there (compared byte for byte with memory at lookup), so equal code at
/// the same address shares its translation across devices: a workload run
/// again, a sweep's points. Looking up needs no decoding — only a read of
/// the block's bytes — so a fresh device finds its cached blocks at the
/// cost of a map lookup and a compare.
type CodeKey = (u64, u64, u32, bool);

/// The process-wide code memory and translations. Code is never freed: it
/// is bounded by the distinct blocks a process runs.
struct Shared {
    module: JITModule,
    fctx: cranelift_frontend::FunctionBuilderContext,
    cctx: cranelift_codegen::Context,
    code: FastMap<CodeKey, Vec<Arc<Compiled>>>,
    /// Executions of block starts not compiled yet, over every device:
    /// (target bits, start, MODE, first 8 bytes) → count.
    counts: FastMap<(u64, u64, u32, u64), u32>,
    /// Host has FMA (then `v_fma_f32` is native).
    has_fma: bool,
}

// SAFETY: `JITModule` holds raw pointers into its own code memory; the
// module is only used under the `SHARED` mutex, and the code it hands out
// (plain functions) may run on any thread.
unsafe impl Send for Shared {}

// SAFETY: a `Compiled` is immutable once built (instructions, addresses, a
// function pointer, the lane operations its code points to).
unsafe impl Send for Compiled {}
// SAFETY: as above.
unsafe impl Sync for Compiled {}

static SHARED: OnceLock<Result<Mutex<Shared>, JitUnavailable>> = OnceLock::new();

/// The JIT state of one GPU: which block starts are hot, which are compiled.
pub struct Jit {
    entries: FastMap<Key, Entry>,
    threshold: u32,
    /// Executions over the process before compiling (at least `threshold`).
    process_threshold: u32,
    /// Lowering on in the program cache (part of the code key).
    lowering: bool,
    stats: JitStats,
}

impl std::fmt::Debug for Jit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Jit")
            .field("entries", &self.entries.len())
            .field("threshold", &self.threshold)
            .finish()
    }
}

/// The JIT could not be set up on this host.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the JIT is not available on this host: {0}")]
pub struct JitUnavailable(String);

impl Jit {
    /// A JIT for the host, compiling a block after `threshold` executions
    /// on this device (at least 1) and `process_threshold` over every device
    /// of the process; `lowering` says whether the program cache lowers
    /// instructions ([`crate::GoldenConfig::fast_paths`]).
    pub fn new(
        threshold: u32,
        process_threshold: u32,
        lowering: bool,
    ) -> Result<Jit, JitUnavailable> {
        if let Err(e) = SHARED.get_or_init(|| Shared::new().map(Mutex::new)) {
            return Err(e.clone());
        }
        let n = Family::Mtbuf as usize + 1;
        Ok(Jit {
            entries: FastMap::default(),
            threshold: threshold.max(1),
            process_threshold: process_threshold.max(threshold),
            lowering,
            stats: JitStats {
                native: vec![0; n],
                fallback: vec![0; n],
                ..JitStats::default()
            },
        })
    }

    /// What ran where so far.
    pub fn stats(&self) -> &JitStats {
        &self.stats
    }

    /// Counts instructions the interpreter ran outside blocks.
    #[inline]
    pub fn note_interpreted(&mut self, n: u64) {
        self.stats.interpreted += n;
    }

    /// Drops every block overlapping `[base, base + size)` (a host write).
    pub fn invalidate(&mut self, base: u64, size: u64) {
        let end = base.saturating_add(size.max(1));
        let before = self.entries.len();
        self.entries.retain(|&(_, start, _), e| match e {
            Entry::Compiled(c) => !(c.block.start < end && base < c.block.end),
            // A start address inside the range may now hold other code.
            _ => !(start >= base && start < end),
        });
        self.stats.invalidated += (before - self.entries.len()) as u64;
    }

    /// At a block start: runs the compiled block at `wave.pc` (compiling it
    /// first when it has become hot) if the wave may execute a whole pass
    /// within `budget` instructions. Returns the instructions executed
    /// (`Ok(0)`: nothing ran, interpret), with counters, steps, PC and status
    /// updated as the interpreter would have.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn enter(
        &mut self,
        wave: &mut Wave,
        lds: &mut [u8],
        env: &DispatchEnv,
        memory: &mut Memory,
        programs: &mut ProgramCache,
        counters: &mut Counters,
        steps: &mut u64,
        budget: u64,
    ) -> Result<u64, Fault> {
        if wave.target.isa != Isa::Gfx1030 || wave.gpr_idx_enabled {
            return Ok(0);
        }
        let key = (target_bits(wave.target), wave.pc, wave.mode);
        let seen = match self.entries.get(&key).cloned() {
            Some(Entry::Compiled(c)) => Some(c),
            Some(Entry::Never) => return Ok(0),
            Some(Entry::Counting(n)) => {
                if n + 1 < self.threshold {
                    self.entries.insert(key, Entry::Counting(n + 1));
                    return Ok(0);
                }
                if !self.hot_in_process(wave, memory, n + 1) {
                    self.entries.insert(key, Entry::Counting(0));
                    return Ok(0);
                }
                None
            }
            // Code this process has translated already (another device, an
            // earlier run) runs at once: the threshold only guards the cost
            // of compiling.
            None if self.threshold > 1 => match self.compile(wave, programs, memory, false) {
                Some(c) => {
                    self.entries.insert(key, Entry::Compiled(c.clone()));
                    Some(c)
                }
                None => {
                    self.entries.insert(key, Entry::Counting(1));
                    return Ok(0);
                }
            },
            None => None,
        };
        let index = match seen {
            Some(i) => i,
            None => match self.compile(wave, programs, memory, true) {
                Some(c) => {
                    self.entries.insert(key, Entry::Compiled(c.clone()));
                    c
                }
                None => {
                    self.entries.insert(key, Entry::Never);
                    return Ok(0);
                }
            },
        };
        let block = &index.block;
        let len = block.insts.len() as u64;
        if budget < len || wave.vgpr.len() < block.vgprs_needed {
            return Ok(0);
        }
        let wave_ptr: *mut Wave = wave;
        // SAFETY: the pointers stay valid for the call (the wave, its register
        // file — never resized while it runs — memory, LDS and the block are
        // borrowed for this function's duration), and nothing else touches
        // them meanwhile; the generated code only addresses registers the
        // block was checked for (`vgprs_needed`, `sgpr[0..128]`).
        let mut ctx = unsafe {
            JitCtx {
                sgpr: std::ptr::addr_of_mut!((*wave_ptr).sgpr).cast(),
                vgpr: (*wave_ptr).vgpr.as_mut_ptr().cast(),
                scc: std::ptr::addr_of_mut!((*wave_ptr).scc).cast(),
                active_lanes: 0,
                budget,
                iterations: 0,
                next_pc: 0,
                exit_index: 0,
                wave: wave_ptr,
                memory,
                lds: lds.as_mut_ptr(),
                lds_len: lds.len(),
                env,
                block,
                steps_base: *steps,
                flow: Flow::Next,
                fault: None,
            }
        };
        // SAFETY: `code` was generated for this context layout (see above).
        let code = unsafe { (block.code)(&mut ctx) };
        let executed = ctx.iterations * len + u64::from(ctx.exit_index);
        // Whole passes are counted from the block's per-pass totals; only a
        // pass left in the middle (an interpreted jump, end or fault) walks
        // its instructions.
        let (passes, partial) = if u64::from(ctx.exit_index) == len {
            (ctx.iterations + 1, 0)
        } else {
            (ctx.iterations, ctx.exit_index as usize)
        };
        if passes > 0 {
            for &(family, n) in &block.per_pass {
                counters.by_family[family] += n * passes;
            }
            // A scalar instruction counts one active lane (the generated
            // code counts EXEC's lanes of the vector ones).
            counters.active_lanes += block.scalars * passes;
            for &(family, n) in &block.native_per_pass {
                self.stats.native[family] += n * passes;
            }
            for &(family, n) in &block.fallback_per_pass {
                self.stats.fallback[family] += n * passes;
            }
        }
        let native = &index.native;
        for (k, &f) in block.families[..partial].iter().enumerate() {
            counters.by_family[f] += 1;
            counters.active_lanes += u64::from(!block.insts[k].vector);
            let side = if native[k] {
                &mut self.stats.native
            } else {
                &mut self.stats.fallback
            };
            side[f] += 1;
        }
        counters.active_lanes += ctx.active_lanes;
        let start_steps = *steps;
        *steps += executed;
        match code {
            0 => wave.pc = ctx.next_pc,
            1 => {
                let k = ctx.exit_index as usize - 1;
                let next = block.pcs[k].wrapping_add(u64::from(block.insts[k].inst.size));
                match ctx.flow {
                    Flow::Next => wave.pc = next,
                    Flow::Jump(target) => wave.pc = target,
                    Flow::Barrier => {
                        wave.pc = next;
                        wave.status = WaveStatus::Barrier;
                    }
                    Flow::End => wave.status = WaveStatus::Ended,
                }
            }
            _ => {
                let k = ctx.exit_index as usize;
                let pc = block.pcs[k];
                wave.pc = pc;
                let fault = ctx
                    .fault
                    .take()
                    .unwrap_or_else(|| crate::wave::illegal("JIT: fault without a report"));
                let text = block.insts[k].inst.to_string();
                return Err(crate::locate(
                    fault,
                    wave,
                    pc,
                    Some(text),
                    start_steps + executed,
                ));
            }
        }
        Ok(executed)
    }

    /// Adds `runs` executions of the block start at `wave.pc` to the
    /// process-wide count (one lock per `threshold` executions on a device);
    /// true once it reaches the process threshold. The count is keyed by the
    /// start, MODE and the first 8 bytes there, so other code loaded at the
    /// same address rarely shares it — and sharing only moves when a block is
    /// compiled, never what it computes.
    fn hot_in_process(&self, wave: &Wave, memory: &Memory, runs: u32) -> bool {
        if self.process_threshold <= self.threshold {
            return true;
        }
        let mut head = [0u8; 8];
        if memory.read(wave.pc, &mut head).is_err() {
            return true;
        }
        let key = (
            target_bits(wave.target),
            wave.pc,
            wave.mode,
            u64::from_le_bytes(head),
        );
        let Some(Ok(shared)) = SHARED.get().map(|s| s.as_ref()) else {
            return true;
        };
        let Ok(mut shared) = shared.lock() else {
            return true;
        };
        let count = shared.counts.entry(key).or_insert(0);
        *count = count.saturating_add(runs);
        *count >= self.process_threshold
    }

    /// The translation of the block starting at `wave.pc`: from the
    /// process-wide code cache, else (when `translate`) compiled now; `None`
    /// when there is none.
    fn compile(
        &mut self,
        wave: &Wave,
        programs: &mut ProgramCache,
        memory: &Memory,
        translate: bool,
    ) -> Option<Arc<Compiled>> {
        let start = wave.pc;
        let key = (target_bits(wave.target), start, wave.mode, self.lowering);
        let shared = SHARED.get()?.as_ref().ok()?;
        let cached = {
            let shared = shared.lock().ok()?;
            shared
                .code
                .get(&key)
                .and_then(|list| list.iter().find(|c| c.matches(memory)).cloned())
        };
        let compiled = match cached {
            Some(c) => c,
            None if !translate => return None,
            None => {
                let mut insts = Vec::new();
                let mut pcs = Vec::new();
                let mut pc = start;
                while insts.len() < MAX_BLOCK {
                    let Ok(d) = programs.fetch(wave.target, pc, memory) else {
                        break;
                    };
                    let d = *d;
                    insts.push(d);
                    pcs.push(pc);
                    pc = pc.wrapping_add(u64::from(d.inst.size));
                    if ends_block(&d) {
                        break;
                    }
                }
                if insts.is_empty() {
                    return None;
                }
                let mut bytes = vec![0u8; pc.wrapping_sub(start) as usize];
                memory.read(start, &mut bytes).ok()?;
                let mut shared = shared.lock().ok()?;
                let c = Arc::new(shared.translate(insts, pcs, wave, pc, bytes)?);
                shared.code.entry(key).or_default().push(c.clone());
                c
            }
        };
        self.stats.blocks += 1;
        self.stats.compiled_instructions += compiled.block.insts.len() as u64;
        let block = &compiled.block;
        for (d, _) in block
            .insts
            .iter()
            .zip(&compiled.native)
            .filter(|(_, &n)| !n)
        {
            *self
                .stats
                .fallback_opcodes
                .entry(d.inst.opcode.mnemonic().to_string())
                .or_default() += 1;
        }
        Some(compiled)
    }
}

impl Shared {
    fn new() -> Result<Shared, JitUnavailable> {
        let err = |e: &dyn std::fmt::Display| JitUnavailable(e.to_string());
        let mut flags = settings::builder();
        let opt = std::env::var("GPUSIM_JIT_OPT").unwrap_or_else(|_| "speed".into());
        flags.set("opt_level", &opt).map_err(|e| err(&e))?;
        flags.set("is_pic", "false").map_err(|e| err(&e))?;
        flags
            .set("use_colocated_libcalls", "false")
            .map_err(|e| err(&e))?;
        // The IR verifier checks the translator, not the program: a debug aid
        // (`GPUSIM_JIT_VERIFY=1` turns it on), a tenth of the compile time.
        let verify = std::env::var_os("GPUSIM_JIT_VERIFY").is_some();
        flags
            .set("enable_verifier", if verify { "true" } else { "false" })
            .map_err(|e| err(&e))?;
        let isa = cranelift_native::builder()
            .map_err(|e| err(&e))?
            .finish(settings::Flags::new(flags))
            .map_err(|e| err(&e))?;
        if isa.triple().architecture.to_string() != "x86_64" {
            return Err(JitUnavailable(format!(
                "host {} (the JIT emits x86-64 SIMD)",
                isa.triple()
            )));
        }
        let has_fma = isa
            .isa_flags()
            .iter()
            .any(|f| f.name == "has_fma" && f.as_bool() == Some(true));
        let module = JITModule::new(JITBuilder::with_isa(
            isa,
            cranelift_module::default_libcall_names(),
        ));
        let cctx = module.make_context();
        Ok(Shared {
            module,
            fctx: cranelift_frontend::FunctionBuilderContext::new(),
            cctx,
            code: FastMap::default(),
            counts: FastMap::default(),
            has_fma,
        })
    }

    /// Translates the block `insts` at `pcs` (ending before `end`).
    fn translate(
        &mut self,
        insts: Vec<Decoded>,
        pcs: Vec<u64>,
        wave: &Wave,
        end: u64,
        bytes: Vec<u8>,
    ) -> Option<Compiled> {
        let plan = emit::Plan::new(&insts, &pcs, wave.target.wave64, wave.mode, self.has_fma);
        let debug = std::env::var_os("GPUSIM_JIT_DEBUG").is_some();
        let began = std::time::Instant::now();
        let (code, lane_ops) =
            match emit::compile(&mut self.module, &mut self.cctx, &mut self.fctx, &plan, 0) {
                Ok(x) => x,
                Err(e) => {
                    if debug {
                        eprintln!("JIT: block at {:#x} not compiled: {e}", pcs[0]);
                    }
                    return None;
                }
            };
        let (native, vgprs_needed) = (plan.native.clone(), plan.vgprs_needed);
        if debug {
            eprintln!(
                "JIT: compiled {} instructions ({} native) at {:#x} (mode {:#x}, wave{}) in {} us",
                insts.len(),
                native.iter().filter(|&&n| n).count(),
                pcs[0],
                wave.mode,
                if wave.target.wave64 { 64 } else { 32 },
                began.elapsed().as_micros()
            );
        }
        drop(plan);
        let families: Vec<usize> = insts.iter().map(|d| d.inst.family as usize).collect();
        let mut per_pass: Vec<(usize, u64)> = Vec::new();
        for &f in &families {
            match per_pass.iter_mut().find(|(g, _)| *g == f) {
                Some((_, n)) => *n += 1,
                None => per_pass.push((f, 1)),
            }
        }
        let scalars = insts.iter().filter(|d| !d.vector).count() as u64;
        let count = |want: bool| {
            let mut out: Vec<(usize, u64)> = Vec::new();
            for (&f, _) in families.iter().zip(&native).filter(|(_, &n)| n == want) {
                match out.iter_mut().find(|(g, _)| *g == f) {
                    Some((_, n)) => *n += 1,
                    None => out.push((f, 1)),
                }
            }
            out
        };
        let (native_per_pass, fallback_per_pass) = (count(true), count(false));
        Some(Compiled {
            block: Block {
                start: pcs[0],
                end,
                insts,
                pcs,
                families,
                per_pass,
                vgprs_needed,
                scalars,
                native_per_pass,
                fallback_per_pass,
                _lane_ops: lane_ops,
                code,
            },
            bytes,
            native,
        })
    }
}

/// True when `d` ends a block: it may change the PC or MODE (every SOPP
/// except the lowered no-ops, the SOP1/SOPK control and MODE instructions).
fn ends_block(d: &Decoded) -> bool {
    use crate::exec::lowered::{scalar::Salu, Lowered};
    let inst = &d.inst;
    match inst.family {
        Family::Sopp => !matches!(d.lowered, Lowered::Scalar(Salu::Nop)),
        Family::Sop1 | Family::Sopk => {
            let name = format!("{:?}", inst.opcode);
            !(matches!(d.lowered, Lowered::Scalar(_))
                || name.starts_with("S_MOVK")
                || name.starts_with("S_CMOVK")
                || name.starts_with("S_CMPK")
                || name.starts_with("S_ADDK")
                || name.starts_with("S_MULK")
                || name.starts_with("S_GETREG")
                || (inst.family == Family::Sop1 && !sop1_may_jump(inst.opcode)))
        }
        _ => false,
    }
}

/// SOP1 opcodes that change the PC (or are gfx803-only state changes).
fn sop1_may_jump(op: Opcode) -> bool {
    let name = format!("{op:?}");
    [
        "SETPC", "SWAPPC", "RFE", "CBRANCH", "GPR_IDX", "SETREG", "SENDMSG",
    ]
    .iter()
    .any(|s| name.contains(s))
}
