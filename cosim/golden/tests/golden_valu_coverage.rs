//! Golden model: opcode coverage of the vector families (every VOP row of
//! both ISAs executed once, counted), gfx803 VGPR indexing mode, and a VALU
//! throughput probe (ignored: timing, not a check).

use arch::isa::{Isa, Target};
use golden::testing::Kernel;
use golden::wave::Wave;

const ALL: [Target; 3] = [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64];

fn text(t: Target, src: &str) -> String {
    let w64 = t.wave64;
    src.replace("{vcc}", if w64 { "vcc" } else { "vcc_lo" })
        .replace("{m10}", if w64 { "s[10:11]" } else { "s10" })
}

/// Asserts `v{reg}[lane] == f(lane)` for every lane of the wave.
fn check(w: &Wave, reg: usize, f: impl Fn(u32) -> u32) {
    for lane in 0..w.lanes() {
        let got = w.vgpr[reg][lane as usize];
        assert_eq!(got, f(lane), "{:?}: v{reg} lane {lane}", w.target);
    }
}

/// Executes every VOP-family row of both ISAs once on register operands and
/// counts what the golden model implements. Nothing may panic, and every
/// row must be implemented (the corpus's instructions are named apart).
#[test]
fn coverage_of_every_vector_opcode() {
    use arch::code_object::KernelDescriptor;
    use arch::command::DispatchPacket;
    use arch::isa::tables::{tables, Field};
    use arch::isa::{Family, Instruction, Modifiers, Operand, OperandType, Variant, MAX_OPERANDS};
    use golden::dispatch::{DispatchEnv, ScratchLayout};
    use golden::exec::{execute, WaveCtx};
    use golden::memory::Memory;

    let corpus = [
        "v_add_nc_u32",
        "v_mov_b32",
        "v_add_u32",
        "v_add_co_ci_u32",
        "v_add_co_u32",
        "v_lshlrev_b64",
        "v_mad_u64_u32",
        "v_lshlrev_b32",
        "v_addc_u32",
        "v_mul_lo_u32",
        "v_mul_f32",
        "v_fmac_f32",
        "v_xor_b32",
        "v_mul_hi_u32",
        "v_cndmask_b32",
        "v_add_f32",
        "v_sub_nc_u32",
        "v_and_b32",
        "v_lshrrev_b32",
        "v_cmp_gt_u32",
        "v_mbcnt_lo_u32_b32",
        "v_or_b32",
        "v_fma_f32",
        "v_cmp_eq_u32",
        "v_sub_u32",
        "v_cmp_ge_u32",
        "v_add3_u32",
        "v_readlane_b32",
        "v_cmpx_eq_u32",
        "v_subrev_nc_u32",
        "v_mbcnt_hi_u32_b32",
        "v_lshl_add_u32",
        "v_cvt_u32_f32",
        "v_cvt_f32_u32",
        "v_cmpx_gt_u32",
        "v_cmp_ne_u32",
        "v_sub_f32",
        "v_rcp_iflag_f32",
        "v_max_i32",
        "v_cmp_le_u32",
        "v_alignbit_b32",
        "v_sub_co_u32",
        "v_subrev_u32",
        "v_mac_f32",
        "v_max_f32",
        "v_sub_co_ci_u32",
        "v_rcp_f32",
        "v_min_u32",
        "v_mad_u32_u24",
        "v_ldexp_f32",
        "v_cvt_i32_f32",
        "v_cmpx_ne_u32",
        "v_bfe_i32",
        "v_ashrrev_i32",
        "v_subb_u32",
        "v_frexp_mant_f32",
        "v_frexp_exp_i32_f32",
        "v_fmamk_f32",
        "v_cmp_lt_i32",
        "v_cmp_gt_f32",
        "v_add_nc_u16",
        "v_trunc_f32",
        "v_sqrt_f32",
        "v_rsq_f32",
        "v_readfirstlane_b32",
        "v_not_b32",
        "v_min_f32",
        "v_max_u32",
        "v_mad_u16",
        "v_mad_i32_i24",
        "v_lshrrev_b64",
        "v_floor_f32",
        "v_ffbl_b32",
        "v_ffbh_u32",
        "v_cvt_f32_i32",
        "v_cmp_ne_u64",
        "v_cmp_gt_i32",
        "v_bfrev_b32",
        "v_bfe_u32",
        "v_bcnt_u32_b32",
        "v_ashrrev_i64",
        "v_subrev_co_ci_u32",
        "v_madmk_f32",
        "v_lshl_or_b32",
        "v_cmpx_lt_i32",
        "v_cmpx_le_i64",
        "v_cmp_ge_u32",
        "v_and_or_b32",
        "v_add_u16",
        "v_subbrev_u32",
        "v_cmp_le_i64",
    ];
    let mut report = Vec::new();
    let mut missing_corpus = Vec::new();
    let mut missing = Vec::new();
    for target in [Target::GFX803, Target::GFX1030_W64] {
        for family in [
            Family::Vop1,
            Family::Vop2,
            Family::Vopc,
            Family::Vop3,
            Family::Vop3p,
        ] {
            let (mut ok, mut not_impl, mut other) = (0, Vec::new(), 0);
            let rows = tables(target.isa)
                .rows
                .iter()
                .filter(|r| r.family == family);
            for row in rows {
                let mut operands = [Operand::Off; MAX_OPERANDS];
                for (i, spec) in row.operands.iter().enumerate() {
                    let lane_select =
                        matches!(row.opcode.mnemonic(), "v_readlane_b32" | "v_writelane_b32")
                            || row.opcode.mnemonic().starts_with("v_permlane");
                    operands[i] = match spec.field {
                        Field::Vdst => Operand::Src {
                            code: 256 + 20,
                            ty: spec.ty,
                        },
                        Field::Sdst => Operand::Src {
                            code: 12,
                            ty: spec.ty,
                        },
                        Field::Vcc => Operand::Src {
                            code: 106,
                            ty: spec.ty,
                        },
                        Field::K => Operand::Literal {
                            value: 0x3f80_0000,
                            ty: spec.ty,
                        },
                        _ if spec.ty == OperandType::LaneMask => Operand::Src {
                            code: 10,
                            ty: spec.ty,
                        },
                        Field::Src0
                            if lane_select && row.opcode.mnemonic() == "v_writelane_b32" =>
                        {
                            Operand::Src {
                                code: 14,
                                ty: spec.ty,
                            }
                        }
                        Field::Src1 | Field::Src2 if lane_select => Operand::Src {
                            code: 15,
                            ty: spec.ty,
                        },
                        _ => Operand::Src {
                            code: 256 + 4 + 4 * i as u16,
                            ty: spec.ty,
                        },
                    };
                }
                let inst = Instruction {
                    target,
                    opcode: row.opcode,
                    family,
                    variant: Variant::Plain,
                    operands,
                    operand_count: row.operands.len() as u8,
                    modifiers: Modifiers::default(),
                    size: 8,
                };
                let mut wave = Wave::new(Default::default(), target, 64);
                wave.set_exec(u64::MAX);
                for (r, reg) in wave.vgpr.iter_mut().enumerate() {
                    for (l, x) in reg.iter_mut().enumerate() {
                        *x = (r as u32).wrapping_mul(0x9e37_79b9) ^ (l as u32 * 0x0101_0101);
                    }
                }
                let env = DispatchEnv {
                    number: 0,
                    channel: 0,
                    entry: 0,
                    target,
                    packet: DispatchPacket::default(),
                    descriptor: KernelDescriptor::default(),
                    dispatch_ptr: 0,
                    code_entry: 0,
                    lds_bytes: 0,
                    scratch: ScratchLayout::default(),
                    hidden_private_base: 0,
                    vgprs: 64,
                    workgroups: [1, 1, 1],
                    waves_per_workgroup: 1,
                };
                let mut mem = Memory::new();
                let mut lds = [0u8; 0];
                let mut ctx = WaveCtx {
                    wave: &mut wave,
                    mem: &mut mem,
                    lds: &mut lds,
                    env: &env,
                    pc: 0,
                    now: 0,
                };
                match execute(&mut ctx, &inst) {
                    Ok(_) => ok += 1,
                    Err(f) if format!("{f:?}").contains("not implemented") => {
                        not_impl.push(row.opcode.mnemonic())
                    }
                    Err(f) => {
                        other += 1;
                        println!("{target:?} {}: {f:?}", row.opcode.mnemonic());
                    }
                }
            }
            for name in &not_impl {
                missing.push(format!("{target:?} {name}"));
                if corpus.contains(name) {
                    missing_corpus.push(format!("{target:?} {name}"));
                }
            }
            report.push(format!(
                "{:<8} {family:<6} implemented {ok:>3}, not implemented {:>2} {:?}, other faults {other}",
                target.isa.name(),
                not_impl.len(),
                not_impl
            ));
        }
    }
    for line in &report {
        println!("{line}");
    }
    assert!(
        missing_corpus.is_empty(),
        "corpus instructions not implemented: {missing_corpus:?}"
    );
    // Every VOP row of both ISAs has golden semantics.
    assert!(missing.is_empty(), "not implemented: {missing:?}");
}

/// Executes one assembled instruction directly on `wave` (no dispatch).
fn exec_one(wave: &mut Wave, text: &str) -> Result<(), String> {
    use arch::code_object::KernelDescriptor;
    use arch::command::DispatchPacket;
    use golden::dispatch::{DispatchEnv, ScratchLayout};
    use golden::exec::{execute, WaveCtx};
    use golden::memory::Memory;
    let target = wave.target;
    let bytes = arch::isa::assemble(target, text).map_err(|e| e.to_string())?;
    let inst = arch::isa::decode(target, &bytes).map_err(|e| e.to_string())?;
    let env = DispatchEnv {
        number: 0,
        channel: 0,
        entry: 0,
        target,
        packet: DispatchPacket::default(),
        descriptor: KernelDescriptor::default(),
        dispatch_ptr: 0,
        code_entry: 0,
        lds_bytes: 0,
        scratch: ScratchLayout::default(),
        hidden_private_base: 0,
        vgprs: 64,
        workgroups: [1, 1, 1],
        waves_per_workgroup: 1,
    };
    let mut mem = Memory::new();
    let mut lds = [0u8; 0];
    let mut ctx = WaveCtx {
        wave,
        mem: &mut mem,
        lds: &mut lds,
        env: &env,
        pc: 0,
        now: 0,
    };
    execute(&mut ctx, &inst)
        .map(|_| ())
        .map_err(|f| format!("{f:?}"))
}

#[test]
fn gfx803_vgpr_indexing_mode() {
    // Indexing on (as s_set_gpr_idx_on 3, gpr_idx(SRC0,DST) leaves it):
    // v_mov_b32 v1, v4 reads v7 and writes v4.
    let mut w = Wave::new(Default::default(), Target::GFX803, 16);
    w.set_exec(u64::MAX);
    w.vgpr[7] = [0x77; 64];
    w.vgpr[4] = [0x44; 64];
    w.sgpr[124] = 3 | 0b1001 << 12;
    w.gpr_idx_enabled = true;
    exec_one(&mut w, "v_mov_b32 v1, v4").unwrap();
    check(&w, 4, |_| 0x77);
    check(&w, 1, |_| 0);
    // src1 only: v_add_u32 v2, vcc, v4, v4 reads v4 (0x77) + v7 (0x70).
    w.vgpr[7] = [0x70; 64];
    w.sgpr[124] = 3 | 0b0010 << 12;
    exec_one(&mut w, "v_add_u32 v2, vcc, v4, v4").unwrap();
    check(&w, 2, |_| 0xe7);
    w.gpr_idx_enabled = false;
    exec_one(&mut w, "v_mov_b32 v3, v4").unwrap();
    check(&w, 3, |_| 0x77);
}

/// Rough VALU throughput of the golden model (print only; run with
/// `cargo test --release -p golden --test golden_valu_coverage throughput -- --ignored --nocapture`).
#[test]
#[ignore = "timing, not a check"]
fn throughput() {
    for t in ALL {
        let body = "
            v_add_nc_u32 v1, v1, v0
            v_fma_f32 v2, v1, v2, v3
            v_xor_b32 v4, v1, v2
            v_cmp_gt_u32_e32 {vcc}, v4, v0
            v_cndmask_b32_e32 v5, v1, v4, {vcc}
            v_lshlrev_b64 v[6:7], 3, v[4:5]
            v_mad_u64_u32 v[8:9], {m10}, v4, v5, v[6:7]
            v_mul_f32 v3, v2, v3";
        let body = if t.isa == Isa::Gfx803 {
            body.replace("v_add_nc_u32 v1, v1, v0", "v_add_u32 v1, vcc, v1, v0")
                .replace("{m10}", "s[10:11]")
        } else {
            body.to_string()
        };
        // The body is 44 bytes; the branch goes back over it and the two scalar ops.
        let src = format!(
            "s_movk_i32 s20, 0x4e20\n{body}\ns_sub_u32 s20, s20, 1\ns_cmp_lg_u32 s20, 0\ns_cbranch_scc1 65522\ns_endpgm"
        );
        let mut k = Kernel::new(t, &text(t, &src));
        k.budget = 10_000_000;
        let start = std::time::Instant::now();
        let done = k.run().unwrap_or_else(|e| panic!("{e}"));
        let secs = start.elapsed().as_secs_f64();
        let lane_insts = 20_000.0 * 8.0 * f64::from(t.wave_size());
        println!(
            "{t:?}: {:.0} M active-lane VALU instructions/s ({} waves)",
            lane_insts / secs / 1e6,
            done.waves.len()
        );
    }
}

/// Every VOP1/VOP2/VOPC row in each SDWA/DPP form the assembler accepts for
/// it, executed once on register operands: none may fault. Prints, per
/// family and form, how many rows have it.
#[test]
fn coverage_of_sdwa_and_dpp_forms() {
    use arch::isa::tables::{tables, Field};
    use arch::isa::Family;
    use golden::testing::probe::Probe;
    let forms = [
        ("_sdwa", ""),
        ("_dpp", " quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"),
        ("_dpp", " dpp8:[1,0,3,2,5,4,7,6]"),
    ];
    let mut faults = Vec::new();
    for t in [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64] {
        let vcc = if t.wave64 { "vcc" } else { "vcc_lo" };
        for family in [Family::Vop1, Family::Vop2, Family::Vopc] {
            for (suffix, tail) in forms {
                let (mut ok, mut without) = (0, 0);
                for row in tables(t.isa).rows.iter().filter(|r| r.family == family) {
                    let ops: Vec<String> = row
                        .operands
                        .iter()
                        .map(|s| {
                            let n = u32::from(s.ty.dwords(t));
                            let r = |b: u32| {
                                if n == 1 {
                                    format!("v{b}")
                                } else {
                                    format!("v[{b}:{}]", b + n - 1)
                                }
                            };
                            match s.field {
                                Field::Vdst => r(20),
                                Field::Vcc | Field::Sdst => vcc.to_string(),
                                Field::Src0 => r(4),
                                Field::Src1 => r(8),
                                _ => r(12),
                            }
                        })
                        .collect();
                    let text =
                        format!("{}{suffix} {}{tail}", row.opcode.mnemonic(), ops.join(", "));
                    let Ok(bytes) = arch::isa::assemble(t, &text) else {
                        without += 1;
                        continue;
                    };
                    let inst =
                        arch::isa::decode(t, &bytes).unwrap_or_else(|e| panic!("{text}: {e}"));
                    let mut p = Probe::new(t);
                    for r in 0..32 {
                        p.set_vgpr(r, |l| ((r * 64 + l) as u32).wrapping_mul(0x0101_0101));
                    }
                    match p.run(&inst) {
                        Ok(_) => ok += 1,
                        Err(f) => faults.push(format!("{t:?} {text}: {f:?}")),
                    }
                }
                println!(
                    "{:<8} {:<2} {family:<5} {suffix}{}: {ok} rows run, {without} have no such form",
                    t.isa.name(),
                    t.wave_size(),
                    if tail.contains("dpp8") { "8" } else { "" }
                );
            }
        }
    }
    assert!(faults.is_empty(), "{faults:#?}");
}
