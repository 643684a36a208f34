//! Random-program lockstep (`gpusim fuzz-lockstep`): random valid gfx1030
//! programs ([`gen`]) run with the golden and the clocked GPU in lockstep;
//! a mismatch is shrunk to a minimal program ([`shrink`]).
//!
//! A program is one workgroup of one wave (wave32 or wave64): a prologue
//! loads v1..v23 per lane from a data buffer (random bits, float specials,
//! denormals), sets s10..s29, VCC, SCC and a random float MODE; the body is
//! random ALU instructions, memory instructions with their waits
//! ([`mem`]: SMEM, DS, GLOBAL, FLAT, SCRATCH, MUBUF and MTBUF within mapped
//! memory and the private segment), EXEC changes and
//! bounded loops; the epilogue
//! restores EXEC (when the body may have changed it) and stores every pool
//! register back, so the final memory comparison sees all state too.
//! Lockstep compares every retired instruction's results.

pub mod clgen;
pub mod gen;
pub mod known;
pub mod mem;

use arch::code_object::{
    AddressSpace, CodeObjectWriter, ComputePgmRsrc1, ComputePgmRsrc2, KernelArg, KernelDescriptor,
    KernelMetadata, NewKernel, ValueKind,
};
use arch::isa::{assemble, encode, Instruction, Target};
use sw::driver::{Arg, Driver, DriverError, LaunchDims};

use crate::model::{Model, ModelDevice, ModelOptions};
use gen::Rng;
use mem::MemFamily;

/// Which memory items a program draws, and how often.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemMix {
    /// The families memory items come from (each equally likely).
    pub families: Vec<MemFamily>,
    /// Percent of body items that are memory items.
    pub percent: u64,
}

impl Default for MemMix {
    /// Every family, 8 % of the body.
    fn default() -> MemMix {
        MemMix {
            families: MemFamily::ALL.to_vec(),
            percent: 8,
        }
    }
}

/// One element of a program body.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A random instruction.
    Inst(Instruction),
    /// Set EXEC to this mask (divergence).
    SetExec(u64),
    /// Run the inner items this many times (1..=4), counted in s30.
    Loop(u32, Vec<Item>),
    /// A memory instruction and the wait for it ([`mem`]): one item, so the
    /// shrinker keeps or drops them together.
    Mem(Vec<Instruction>),
}

/// A whole random program.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// Wave size.
    pub target: Target,
    /// MODE[9:0] set by the prologue (rounding, denormals, DX10 clamp, IEEE).
    pub mode: u32,
    /// Initial s10..=s29, then VCC (low, high).
    pub scalars: Vec<u32>,
    /// Initial data buffer (per lane 32 dwords: v0 slot unused, v1..v23).
    pub data: Vec<u8>,
    /// The body.
    pub body: Vec<Item>,
}

/// Bytes per lane in the data buffer's input region (32 dwords).
const LANE_BYTES: u32 = 128;
/// Offset of the VGPR output region.
const OUT: u32 = 0x2000;
/// Offset of the SGPR output region.
const SOUT: u32 = 0x4000;
/// Data buffer size (the scratch region of random stores at the end).
const DATA_BYTES: usize = (mem::SCRATCH + 0x2000) as usize;

impl Program {
    /// A random program of about `length` body instructions (memory items
    /// from every family, [`MemMix::default`]).
    pub fn random(
        rng: &mut Rng,
        target: Target,
        rows: &[&'static arch::isa::OpInfo],
        length: usize,
    ) -> Program {
        Program::random_with(rng, target, rows, length, &MemMix::default())
    }

    /// A random program of about `length` body instructions whose memory
    /// items follow `mix`.
    pub fn random_with(
        rng: &mut Rng,
        target: Target,
        rows: &[&'static arch::isa::OpInfo],
        length: usize,
        mix: &MemMix,
    ) -> Program {
        const MODES: [u32; 8] = [0x2f0, 0x000, 0x330, 0x0c0, 0x2f3, 0x110, 0x220, 0x3f1];
        let mode = MODES[rng.below(8) as usize];
        let scalars = (0..22).map(|_| rng.value()).collect();
        let data = (0..DATA_BYTES / 4)
            .flat_map(|_| rng.value().to_le_bytes())
            .collect();
        let mut body = Vec::new();
        let mut n = 0;
        while n < length {
            let roll = rng.below(100);
            if roll < 3 {
                body.push(Item::SetExec(exec_mask(rng, target)));
            } else if (6..6 + mix.percent).contains(&roll)
                && !rows.is_empty()
                && !mix.families.is_empty()
            {
                // The templates assemble by construction (a test checks).
                if let Ok(m) = mem::random_in(rng, target, &mix.families) {
                    body.push(Item::Mem(m));
                    n += 1;
                }
            } else if roll < 6 && length - n > 4 {
                let inner_len = 1 + rng.below(6) as usize;
                let inner = (0..inner_len)
                    .map(|_| Item::Inst(random_inst(rng, target, rows)))
                    .collect();
                body.push(Item::Loop(1 + rng.below(4) as u32, inner));
                n += inner_len;
            } else {
                body.push(Item::Inst(random_inst(rng, target, rows)));
                n += 1;
            }
        }
        Program {
            target,
            mode,
            scalars,
            data,
            body,
        }
    }

    /// A program of the one instruction `inst` (per-instruction differential).
    pub fn single(rng: &mut Rng, inst: Instruction) -> Program {
        let mut p = Program::random(rng, inst.target, &[], 0);
        if rng.chance(50) {
            p.body.push(Item::SetExec(exec_mask(rng, inst.target)));
        }
        p.body.push(Item::Inst(inst));
        p
    }

    /// Body instructions, counting each loop's inner ones once per iteration.
    pub fn executed_instructions(&self) -> u64 {
        fn count(items: &[Item]) -> u64 {
            items
                .iter()
                .map(|i| match i {
                    Item::Inst(_) => 1,
                    Item::Mem(m) => m.len() as u64,
                    Item::SetExec(_) => 0,
                    Item::Loop(n, inner) => u64::from(*n) * count(inner),
                })
                .sum()
        }
        count(&self.body)
    }

    /// The body as assembly text (the form a regression test keeps).
    pub fn body_text(&self) -> String {
        fn text(items: &[Item], indent: &str, out: &mut String) {
            for i in items {
                match i {
                    Item::Inst(inst) => out.push_str(&format!("{indent}{inst}\n")),
                    Item::Mem(m) => {
                        for inst in m {
                            out.push_str(&format!("{indent}{inst}\n"));
                        }
                    }
                    Item::SetExec(m) => out.push_str(&format!("{indent}(exec = {m:#x})\n")),
                    Item::Loop(n, inner) => {
                        out.push_str(&format!("{indent}(loop {n} times)\n"));
                        text(inner, &format!("{indent}    "), out);
                    }
                }
            }
        }
        let mut out = String::new();
        text(&self.body, "", &mut out);
        out
    }

    /// The kernel's machine code.
    pub fn code(&self) -> Result<Vec<u8>, String> {
        let t = self.target;
        let asm = |s: &str| assemble(t, s).map_err(|e| format!("{e}: {s}"));
        let mut code = Vec::new();
        // FLAT_SCRATCH = flat scratch init (s[2:3]) + the wave's scratch
        // offset (s5), as clang's prologue sets it with flat scratch on
        // gfx10; then the kernarg pointer's data buffer into s[4:5].
        let mut pro = String::from(
            "s_add_u32 s2, s2, s5\ns_addc_u32 s3, s3, 0\n\
             s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s2\n\
             s_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s3\n\
             s_load_dwordx2 s[4:5], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\n",
        );
        pro += &format!("v_lshlrev_b32 v30, {}, v0\n", LANE_BYTES.trailing_zeros());
        pro += &format!("v_add_nc_u32 v28, {:#x}, v30\n", mem::SCRATCH);
        pro += "v_lshlrev_b32 v27, 4, v0\n";
        pro += &format!(
            "s_mov_b32 s36, s4\ns_mov_b32 s37, s5\ns_mov_b32 s38, {DATA_BYTES:#x}\ns_mov_b32 s39, {:#x}\n",
            mem::BUFFER_DESCRIPTOR
        );
        pro += &prologue_addresses(t);
        for r in gen::VGPRS.0..=gen::VGPRS.1 {
            pro += &format!("global_load_dword v{r}, v30, s[4:5] offset:{}\n", 4 * r);
        }
        pro += "s_waitcnt vmcnt(0)\n";
        for (i, v) in self.scalars[..20].iter().enumerate() {
            pro += &format!("s_mov_b32 s{}, {v:#x}\n", gen::SGPRS.0 + i as u16);
        }
        pro += &format!("s_mov_b32 vcc_lo, {:#x}\n", self.scalars[20]);
        if t.wave64 {
            pro += &format!("s_mov_b32 vcc_hi, {:#x}\n", self.scalars[21]);
        }
        pro += &format!(
            "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 10), {:#x}\n",
            self.mode
        );
        pro += "s_cmp_lt_u32 s10, s11\n";
        code.extend(asm(&pro)?);
        let mut writes_exec = false;
        emit(t, &self.body, &mut code, &mut writes_exec)?;
        let mut epi = String::from("s_cselect_b32 s31, 1, 0\ns_mov_b32 s32, exec_lo\n");
        if t.wave64 {
            epi += "s_mov_b32 s33, exec_hi\n";
        } else {
            epi += "s_mov_b32 s33, 0\n";
        }
        if writes_exec {
            epi += "s_mov_b32 exec_lo, -1\n";
            if t.wave64 {
                epi += "s_mov_b32 exec_hi, -1\n";
            }
        }
        epi += &format!("v_add_nc_u32 v31, {OUT:#x}, v30\nv_add_nc_u32 v32, {SOUT:#x}, v30\n");
        for r in gen::VGPRS.0..=gen::VGPRS.1 {
            epi += &format!("global_store_dword v31, v{r}, s[4:5] offset:{}\n", 4 * r);
        }
        let scalars: Vec<String> = (gen::SGPRS.0..=gen::SGPRS.1)
            .map(|s| format!("s{s}"))
            .chain(["vcc_lo", "vcc_hi", "s31", "s32", "s33"].map(String::from))
            .collect();
        for (i, s) in scalars.iter().enumerate() {
            if *s == "vcc_hi" && !t.wave64 {
                continue;
            }
            epi += &format!(
                "v_mov_b32 v1, {s}\nglobal_store_dword v32, v1, s[4:5] offset:{}\n",
                4 * i
            );
        }
        epi += "s_endpgm\n";
        code.extend(asm(&epi)?);
        Ok(code)
    }

    /// The program as a code object v5 with one kernel `fuzz(data)`.
    pub fn code_object(&self) -> Result<Vec<u8>, String> {
        let t = self.target;
        let mut descriptor = KernelDescriptor::default();
        descriptor.kernel_code_properties.enable_wavefront_size32 = !t.wave64;
        descriptor
            .kernel_code_properties
            .enable_sgpr_kernarg_segment_ptr = true;
        descriptor
            .kernel_code_properties
            .enable_sgpr_flat_scratch_init = true;
        // USER_SGPR_COUNT = 4 (the kernarg pointer, flat scratch init), then
        // workgroup id X (s4) and the scratch wave offset (s5, bit 0).
        descriptor.compute_pgm_rsrc2 = ComputePgmRsrc2::from_bits(1 | (4 << 1) | (1 << 7));
        descriptor.private_segment_fixed_size = mem::PRIVATE_BYTES;
        // 64 VGPR blocks: the most a wave may have.
        descriptor.compute_pgm_rsrc1 = ComputePgmRsrc1::from_bits(0x3f);
        descriptor.kernarg_size = 8;
        descriptor.group_segment_fixed_size = mem::LDS_BYTES;
        let metadata = KernelMetadata {
            args: vec![KernelArg {
                name: Some("data".into()),
                offset: 0,
                size: 8,
                value_kind: ValueKind::GlobalBuffer,
                address_space: Some(AddressSpace::Global),
                type_name: None,
                access: None,
                actual_access: None,
                pointee_align: None,
                is_const: false,
                is_restrict: false,
                is_volatile: false,
                is_pipe: false,
            }],
            kernarg_segment_size: 8,
            kernarg_segment_align: 8,
            wavefront_size: t.wave_size(),
            group_segment_fixed_size: mem::LDS_BYTES,
            private_segment_fixed_size: mem::PRIVATE_BYTES,
            max_flat_workgroup_size: t.wave_size(),
            ..KernelMetadata::default()
        };
        let mut w = CodeObjectWriter::new(arch::isa::Isa::Gfx1030);
        w.add_kernel(NewKernel {
            name: "fuzz".into(),
            code: self.code()?,
            descriptor,
            metadata,
        });
        w.write().map_err(|e| e.to_string())
    }
}

/// The address registers of the memory items ([`mem`]'s module doc): the
/// strided descriptor, the soffset and saddr bases, the 64-bit slice
/// addresses, the private offset and the LDS `st64` bases. VCC is a carry
/// here; the prologue sets its random value afterwards.
fn prologue_addresses(t: Target) -> String {
    let vcc = if t.wave64 { "vcc" } else { "vcc_lo" };
    let scratch = mem::SCRATCH;
    let mut s = format!(
        "s_mov_b32 s40, s4\ns_or_b32 s41, s5, {stride:#x}\ns_mov_b32 s42, {DATA_BYTES:#x}\n\
         s_mov_b32 s43, {desc:#x}\ns_mov_b32 s44, {scratch:#x}\ns_movk_i32 s45, 0x80\n\
         s_add_u32 s46, s4, {neg:#x}\ns_addc_u32 s47, s5, 0\n\
         s_add_u32 s48, s4, {scratch:#x}\ns_addc_u32 s49, s5, 0\n",
        stride = LANE_BYTES << 16,
        desc = mem::BUFFER_DESCRIPTOR,
        neg = scratch + LANE_BYTES,
    );
    s += &format!("v_mov_b32 v33, v0\nv_mov_b32 v34, {scratch:#x}\n");
    s += &format!("v_mov_b32 v36, s5\nv_add_co_u32 v35, {vcc}, s4, v30\n");
    s += &format!("v_add_co_ci_u32_e32 v36, {vcc}, 0, v36, {vcc}\n");
    s += &format!("v_add_co_u32 v37, {vcc}, {scratch:#x}, v35\n");
    s += &format!("v_add_co_ci_u32_e32 v38, {vcc}, 0, v36, {vcc}\n");
    s += "v_and_b32 v39, 3, v0\nv_lshlrev_b32 v39, 6, v39\n";
    s += &format!(
        "v_lshl_add_u32 v40, v0, 2, {st64:#x}\nv_lshl_add_u32 v41, v0, 3, {st64:#x}\n",
        st64 = mem::LDS_ST64
    );
    s
}

fn exec_mask(rng: &mut Rng, t: Target) -> u64 {
    let m = match rng.below(4) {
        0 => 0,
        1 => rng.next_u64() & rng.next_u64(),
        _ => rng.next_u64(),
    };
    if t.wave64 {
        m
    } else {
        m & 0xffff_ffff
    }
}

fn random_inst(rng: &mut Rng, t: Target, rows: &[&'static arch::isa::OpInfo]) -> Instruction {
    loop {
        let row = rows[rng.below(rows.len() as u64) as usize];
        if let Some(i) = gen::instruction(rng, t, row) {
            return i;
        }
    }
}

fn emit(
    t: Target,
    items: &[Item],
    code: &mut Vec<u8>,
    writes_exec: &mut bool,
) -> Result<(), String> {
    for item in items {
        match item {
            Item::Inst(i) => {
                *writes_exec |= gen::may_write_exec(i);
                encode(i, code).map_err(|e| format!("{i}: {e}"))?;
            }
            Item::Mem(m) => {
                for i in m {
                    encode(i, code).map_err(|e| format!("{i}: {e}"))?;
                }
            }
            Item::SetExec(m) => {
                *writes_exec = true;
                let mut s = format!("s_mov_b32 exec_lo, {:#x}\n", *m as u32);
                if t.wave64 {
                    s += &format!("s_mov_b32 exec_hi, {:#x}\n", (m >> 32) as u32);
                }
                code.extend(assemble(t, &s).map_err(|e| e.to_string())?);
            }
            Item::Loop(n, inner) => {
                code.extend(
                    assemble(t, &format!("s_mov_b32 s30, {n}\n")).map_err(|e| e.to_string())?,
                );
                let start = code.len();
                emit(t, inner, code, writes_exec)?;
                code.extend(
                    assemble(t, "s_sub_u32 s30, s30, 1\ns_cmp_lg_u32 s30, 0\n")
                        .map_err(|e| e.to_string())?,
                );
                // s_cbranch_scc1 back to `start`: offset in dwords from the next instruction.
                let back = (code.len() + 4 - start) / 4;
                let branch = assemble(t, &format!("s_cbranch_scc1 {}", -(back as i64)))
                    .map_err(|e| e.to_string())?;
                code.extend(branch);
            }
        }
    }
    Ok(())
}

/// How a program run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Both models agreed on every instruction and the final memory.
    Agree,
    /// Lockstep found a difference (the checker's report).
    Mismatch(String),
    /// Something else failed (a fault, a watchdog): also a finding.
    Error(String),
}

/// Something to plant in the clocked model (tests of the fuzzer itself).
pub type Plant = Option<hw::inject::InjectKind>;

/// Runs `p` in lockstep; `plant` arms a fault in the clocked GPU.
pub fn run(p: &Program, plant: Plant) -> Verdict {
    run_and_read(p, plant).0
}

/// [`run`], also returning the data buffer as the kernel left it (`None`
/// when the run did not finish): what tests of the memory items check.
pub fn run_and_read(p: &Program, plant: Plant) -> (Verdict, Option<Vec<u8>>) {
    let elf = match p.code_object() {
        Ok(e) => e,
        Err(e) => return (Verdict::Error(format!("building the program: {e}")), None),
    };
    let device = match ModelDevice::new(&ModelOptions {
        model: Model::Lockstep,
        isa: arch::isa::Isa::Gfx1030,
        config: hw::GpuConfig::one_cu(),
        watchdog: Some(2_000_000),
        wave_watchdog: None,
    }) {
        Ok(d) => d,
        Err(e) => return (Verdict::Error(e), None),
    };
    let result = (|| -> Result<Vec<u8>, DriverError> {
        let mut driver = Driver::new(device)?;
        if let (Some(kind), ModelDevice::Lockstep(l, _)) = (plant, driver.device_mut()) {
            l.clocked_mut().inject(Some(hw::inject::Injection {
                wave: arch::device::WaveId {
                    dispatch: 0,
                    workgroup: [0, 0, 0],
                    wave: 0,
                },
                kind,
            }));
        }
        let program = driver.load(&elf)?;
        let kernel = program.kernel("fuzz")?.clone();
        let data = driver.create_buffer(&p.data)?;
        let wave = p.target.wave_size();
        driver.launch(
            &kernel,
            LaunchDims::linear(wave, wave),
            &[Arg::Buffer(data.address)],
        )?;
        driver.download(data)
    })();
    match result {
        Ok(memory) => (Verdict::Agree, Some(memory)),
        Err(DriverError::Device(arch::device::DeviceError::Fault(f)))
            if matches!(f.kind, arch::device::FaultKind::LockstepMismatch { .. }) =>
        {
            (Verdict::Mismatch(f.to_string()), None)
        }
        Err(e) => (Verdict::Error(e.to_string()), None),
    }
}

/// Shrinks a failing program: removes body items (halving chunks, then one
/// by one), unrolls loops into their bodies and drops loop iterations, while
/// `fails` still holds; returns the smallest failing program found.
pub fn shrink(p: &Program, fails: &dyn Fn(&Program) -> bool) -> Program {
    let mut best = p.clone();
    let mut chunk = (best.body.len() / 2).max(1);
    loop {
        let mut i = 0;
        let mut progress = false;
        while i < best.body.len() {
            let mut trial = best.clone();
            let end = (i + chunk).min(trial.body.len());
            trial.body.drain(i..end);
            if fails(&trial) {
                best = trial;
                progress = true;
            } else {
                i += chunk;
            }
        }
        if chunk == 1 {
            if !progress {
                break;
            }
        } else {
            chunk = (chunk / 2).max(1);
        }
    }
    // Loops: replace by their inner items (once), then shrink those too.
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..best.body.len() {
            if let Item::Loop(_, inner) = &best.body[i] {
                let mut trial = best.clone();
                let inner = inner.clone();
                trial.body.splice(i..=i, inner);
                if fails(&trial) {
                    best = shrink(&trial, fails);
                    changed = true;
                    break;
                }
            }
        }
    }
    best
}

/// What a fuzzing session did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FuzzReport {
    /// Programs run.
    pub programs: u64,
    /// Body instructions executed (loop bodies once per iteration).
    pub instructions: u64,
    /// Failing programs on new disagreements, shrunk: (seed of the
    /// program, verdict, minimal body).
    pub failures: Vec<(u64, Verdict, String)>,
    /// Programs stopped by a known divergence ([`known`]), per mnemonic.
    pub known: std::collections::BTreeMap<String, u64>,
}

/// `gpusim fuzz-lockstep`: `programs` random programs of about `length`
/// instructions each, program `i` from seed `seed + i` (so any one reruns
/// alone), alternating wave32 and wave64; failures are shrunk. `progress`
/// is called after every program.
pub fn fuzz_lockstep(
    seed: u64,
    programs: u64,
    length: usize,
    plant: Plant,
    include_known: bool,
    progress: &mut dyn FnMut(&FuzzReport),
) -> FuzzReport {
    // Programs are drawn from every row and the known-divergent opcodes
    // removed afterwards, so a longer known list changes no other draw.
    fuzz_lockstep_with(
        seed,
        programs,
        length,
        &MemMix::default(),
        plant,
        include_known,
        progress,
    )
}

/// [`fuzz_lockstep`] with the memory items of `mix`.
pub fn fuzz_lockstep_with(
    seed: u64,
    programs: u64,
    length: usize,
    mix: &MemMix,
    plant: Plant,
    include_known: bool,
    progress: &mut dyn FnMut(&FuzzReport),
) -> FuzzReport {
    let rows = gen::alu_rows(true);
    let mut report = FuzzReport::default();
    for i in 0..programs {
        let s = seed.wrapping_add(i);
        let mut rng = Rng::new(s);
        let target = if s % 2 == 0 {
            Target::GFX1030_W32
        } else {
            Target::GFX1030_W64
        };
        let mut p = Program::random_with(&mut rng, target, &rows, length, mix);
        if !include_known {
            p.body = without_known(&p.body);
        }
        report.programs += 1;
        report.instructions += p.executed_instructions();
        let verdict = run(&p, plant);
        if let Some(m) = known::known_divergence(&verdict) {
            *report.known.entry(m).or_default() += 1;
        } else if verdict != Verdict::Agree {
            let same = |q: &Program| {
                std::mem::discriminant(&run(q, plant)) == std::mem::discriminant(&verdict)
            };
            let small = shrink(&p, &same);
            report
                .failures
                .push((s, run(&small, plant), small.body_text()));
        }
        progress(&report);
    }
    report
}

/// `items` without the instructions of known-divergent opcodes.
fn without_known(items: &[Item]) -> Vec<Item> {
    items
        .iter()
        .filter_map(|i| match i {
            Item::Inst(inst) if known::is_known(inst.opcode.mnemonic()) => None,
            Item::Loop(n, inner) => Some(Item::Loop(*n, without_known(inner))),
            other => Some(other.clone()),
        })
        .collect()
}
