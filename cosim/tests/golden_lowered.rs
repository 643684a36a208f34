//! Differential tests of the golden model's pre-lowered fast paths
//! (`golden::exec::lowered`): the same work with the fast paths on and
//! off must leave identical register state, memory and statistics.
//!
//! * Random operands: every lowered instruction form runs on per-lane values
//!   drawn from a mix of random bits and float specials (±0, ±inf, quiet and
//!   signalling NaNs with payloads, denormals, ±1, the largest finite),
//!   under random EXEC masks, several float MODEs (denormals flushed or kept,
//!   round-to-nearest or toward zero) and with VGPR sources and scalar
//!   sources. Each form is checked to actually lower (so the test cannot pass
//!   by comparing the general path with itself).
//! * The whole corpus: every workload's final buffers and statistics.

use std::path::{Path, PathBuf};

use arch::code_object::CodeObject;
use arch::isa::{assemble, decode, Target};
use cosim::workload::{self, Workload};
use golden::exec::lowered::{lower, Lowered};
use golden::testing::{Kernel, DATA};
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::Driver;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }

    /// A value that is often a float special.
    fn value(&mut self) -> u32 {
        const SPECIAL: [u32; 16] = [
            0x0000_0000,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7fc0_1234,
            0xffa0_0001, // signalling NaN with a payload
            0x7f80_0001,
            0x0000_0001, // smallest denormal
            0x807f_ffff, // largest negative denormal
            0x0080_0000, // smallest normal
            0x3f80_0000,
            0xbf80_0000,
            0x7f7f_ffff,
            0x0000_001f,
            0xffff_ffff,
        ];
        match self.next() % 4 {
            0 => SPECIAL[(self.next() % 16) as usize],
            // Small exponents: products and sums near the denormal range.
            1 => (self.u32() & 0x81ff_ffff) | 0x0080_0000,
            _ => self.u32(),
        }
    }
}

/// Instruction forms per target; operands: v1..v4 random per lane, s10/s11
/// random scalars, s[12:13] a destination, vcc random.
fn forms(target: Target) -> Vec<&'static str> {
    let common = [
        "v_mov_b32 v5, v1",
        "v_mov_b32 v5, s10",
        "v_mov_b32 v5, 0x3f800000",
        "v_mov_b32 v5, -4",
        "v_not_b32 v5, v1",
        "v_and_b32 v5, v1, v2",
        "v_and_b32 v5, s10, v2",
        "v_or_b32 v5, v1, v2",
        "v_xor_b32 v5, 0x12345678, v2",
        "v_lshlrev_b32 v5, v1, v2",
        "v_lshrrev_b32 v5, 3, v2",
        "v_ashrrev_i32 v5, v1, v2",
        "v_min_i32 v5, v1, v2",
        "v_max_i32 v5, s10, v2",
        "v_min_u32 v5, v1, v2",
        "v_max_u32 v5, v1, v2",
        "v_mul_lo_u32 v5, v1, v2",
        "v_mul_hi_u32 v5, v1, v2",
        "v_mul_hi_i32 v5, v1, s10",
        "v_mul_u32_u24 v5, v1, v2",
        "v_mul_i32_i24 v5, v1, v2",
        "v_alignbit_b32 v5, v1, v2, v3",
        "v_bfi_b32 v5, v1, v2, v3",
        "v_bfe_u32 v5, v1, v2, v3",
        "v_bfe_i32 v5, v1, 8, 5",
        "v_mad_u32_u24 v5, v1, v2, v3",
        "v_mad_i32_i24 v5, v1, v2, v3",
        "v_cndmask_b32 v5, v1, v2, vcc",
        "v_cndmask_b32_e64 v5, v1, v2, s[12:13]",
        // The destination is also a source (read before written, per lane).
        "v_and_b32 v1, v1, v2",
        "v_xor_b32 v2, v2, v2",
        "v_bfi_b32 v3, v1, v3, v3",
        "v_fma_f32 v2, v1, v2, v3",
        "v_cndmask_b32 v2, v1, v2, vcc",
        "v_cmp_gt_u32 vcc, v1, v2",
        "v_cmp_eq_u32 vcc, v1, v2",
        "v_cmp_le_i32 vcc, s10, v2",
        "v_cmp_ne_i32_e64 s[12:13], v1, v2",
        "v_cmp_ge_u32_e64 s[12:13], v1, 7",
        "v_cmpx_eq_u32 vcc, v1, v2",
        "v_cmp_gt_f32 vcc, v1, v2",
        "v_cmp_nlt_f32_e64 s[12:13], v1, v2",
        "v_cmp_u_f32 vcc, s10, v2",
        "v_cmp_lg_f32 vcc, v1, v2",
        "v_cmpx_gt_i32_e64 s[12:13], v1, s10",
        "v_lshlrev_b64 v[6:7], v1, v[2:3]",
        "v_lshlrev_b64 v[6:7], 2, s[10:11]",
        // Destination pairs overlapping the sources.
        "v_lshlrev_b64 v[2:3], 2, v[2:3]",
        "v_lshlrev_b64 v[1:2], v1, v[2:3]",
        "v_mad_u64_u32 v[3:4], s[12:13], v1, v4, v[3:4]",
        "v_mad_u64_u32 v[1:2], s[12:13], s10, v2, v[1:2]",
        "v_mad_u64_u32 v[6:7], s[12:13], v1, v2, v[3:4]",
        "v_add_f32 v5, v1, v2",
        "v_add_f32 v5, s10, v2",
        "v_sub_f32 v5, v1, v2",
        "v_subrev_f32 v5, v1, v2",
        "v_mul_f32 v5, v1, v2",
        "v_mul_f32 v5, 0x40490fdb, v2",
        "v_fma_f32 v5, v1, v2, v3",
        "v_ldexp_f32 v5, v1, v2",
        "v_min_f32 v5, v1, v2",
        "v_max_f32 v5, s10, v2",
        "v_cvt_f32_i32 v5, v1",
        "v_cvt_f32_u32 v5, v1",
        "v_cvt_i32_f32 v5, v1",
        "v_cvt_u32_f32 v5, v1",
        "v_rcp_f32 v5, v1",
        "v_sqrt_f32 v5, v1",
        "v_rsq_f32 v5, v1",
        "v_frexp_mant_f32 v5, v1",
        "v_frexp_exp_i32_f32 v5, v1",
        "v_fract_f32 v5, v1",
        "v_floor_f32 v5, v1",
        "v_exp_f32 v5, v1",
        "v_sin_f32 v5, v1",
    ];
    let mut v: Vec<&'static str> = common.to_vec();
    if target == Target::GFX803 {
        v.extend([
            "v_add_u32 v5, vcc, v1, v2",
            "v_addc_u32 v2, vcc, v1, v2, vcc",
            "v_sub_u32 v5, vcc, v1, v2",
            "v_subrev_u32 v5, vcc, v1, v2",
            "v_add_u32_e64 v5, s[12:13], v1, v2",
            "v_addc_u32 v5, vcc, v1, v2, vcc",
            "v_subb_u32 v5, vcc, v1, v2, vcc",
            "v_subbrev_u32_e64 v5, s[12:13], v1, v2, vcc",
            "v_mac_f32 v5, v1, v2",
            "v_mad_f32 v5, v1, v2, v3",
        ]);
    } else {
        let w64 = target.wave64;
        v.extend([
            "v_add_nc_u32 v5, v1, v2",
            "v_sub_nc_u32 v5, v1, v2",
            "v_subrev_nc_u32 v5, s10, v2",
            "v_lshl_add_u32 v5, v1, 3, v2",
            "v_add_lshl_u32 v5, v1, v2, v3",
            "v_add3_u32 v5, v1, v2, v3",
            "v_lshl_or_b32 v5, v1, v2, v3",
            "v_and_or_b32 v5, v1, v2, v3",
            "v_or3_b32 v5, v1, v2, v3",
            "v_xor3_b32 v5, v1, v2, v3",
            "v_xad_u32 v5, v1, v2, v3",
            "v_fmac_f32 v5, v1, v2",
            "v_xnor_b32 v5, v1, v2",
            "v_mad_u64_u32 v[6:7], null, v1, v2, v[3:4]",
        ]);
        if w64 {
            v.extend([
                "v_add_co_u32 v5, vcc, v1, v2",
                "v_sub_co_ci_u32 v1, vcc, v1, v2, vcc",
                "v_sub_co_u32 v5, s[12:13], v1, v2",
                "v_add_co_ci_u32 v5, vcc, v1, v2, vcc",
                "v_subrev_co_ci_u32 v5, vcc, v1, v2, vcc",
            ]);
        } else {
            v.extend([
                "v_add_co_u32 v5, vcc_lo, v1, v2",
                "v_sub_co_ci_u32 v1, vcc_lo, v1, v2, vcc_lo",
                "v_sub_co_u32 v5, s12, v1, v2",
                "v_add_co_ci_u32 v5, vcc_lo, v1, v2, vcc_lo",
                "v_sub_co_ci_u32 v5, s12, v1, v2, s13",
                "v_subrev_co_ci_u32 v5, vcc_lo, v1, v2, vcc_lo",
            ]);
        }
    }
    v.extend(scalar_forms(target));
    v.into_iter()
        .map(|s| {
            if target != Target::GFX803 {
                // gfx1030 `v_cmpx` writes EXEC only.
                match s {
                    "v_cmpx_eq_u32 vcc, v1, v2" => return "v_cmpx_eq_u32 v1, v2",
                    "v_cmpx_gt_i32_e64 s[12:13], v1, s10" => return "v_cmpx_gt_i32_e64 v1, s10",
                    _ => {}
                }
            }
            if target.wave64 {
                s
            } else {
                // wave32 masks: one SGPR.
                match s {
                    "v_cndmask_b32 v5, v1, v2, vcc" => "v_cndmask_b32 v5, v1, v2, vcc_lo",
                    "v_cndmask_b32 v2, v1, v2, vcc" => "v_cndmask_b32 v2, v1, v2, vcc_lo",
                    "v_cndmask_b32_e64 v5, v1, v2, s[12:13]" => "v_cndmask_b32_e64 v5, v1, v2, s12",
                    "v_cmp_gt_u32 vcc, v1, v2" => "v_cmp_gt_u32 vcc_lo, v1, v2",
                    "v_cmp_eq_u32 vcc, v1, v2" => "v_cmp_eq_u32 vcc_lo, v1, v2",
                    "v_cmp_le_i32 vcc, s10, v2" => "v_cmp_le_i32 vcc_lo, s10, v2",
                    "v_cmp_gt_f32 vcc, v1, v2" => "v_cmp_gt_f32 vcc_lo, v1, v2",
                    "v_cmp_nlt_f32_e64 s[12:13], v1, v2" => "v_cmp_nlt_f32_e64 s12, v1, v2",
                    "v_cmp_u_f32 vcc, s10, v2" => "v_cmp_u_f32 vcc_lo, s10, v2",
                    "v_cmp_lg_f32 vcc, v1, v2" => "v_cmp_lg_f32 vcc_lo, v1, v2",
                    "v_cmp_ne_i32_e64 s[12:13], v1, v2" => "v_cmp_ne_i32_e64 s12, v1, v2",
                    "v_cmp_ge_u32_e64 s[12:13], v1, 7" => "v_cmp_ge_u32_e64 s12, v1, 7",
                    "v_mad_u64_u32 v[6:7], s[12:13], v1, v2, v[3:4]" => {
                        "v_mad_u64_u32 v[6:7], s12, v1, v2, v[3:4]"
                    }
                    "v_mad_u64_u32 v[3:4], s[12:13], v1, v4, v[3:4]" => {
                        "v_mad_u64_u32 v[3:4], s12, v1, v4, v[3:4]"
                    }
                    "v_mad_u64_u32 v[1:2], s[12:13], s10, v2, v[1:2]" => {
                        "v_mad_u64_u32 v[1:2], s12, s10, v2, v[1:2]"
                    }
                    other => other,
                }
            }
        })
        .collect()
}

/// Scalar forms: s10..s13 random, SCC random, s20/s[20:21] destinations.
fn scalar_forms(target: Target) -> Vec<&'static str> {
    let mut v = vec![
        "s_ff1_i32_b32 s20, s10",
        "s_ff1_i32_b32 s20, 0",
        "s_ff1_i32_b64 s20, s[10:11]",
        "s_ff1_i32_b64 s20, exec",
        "s_bcnt1_i32_b32 s20, s10",
        "s_bcnt1_i32_b32 s20, 0",
        "s_bcnt1_i32_b64 s20, s[10:11]",
        "v_readlane_b32 s20, v1, s10",
        "v_readlane_b32 s20, v2, 5",
        "v_readlane_b32 s20, v3, 63",
        "s_add_u32 s20, s10, s11",
        "s_sub_u32 s20, s10, 0x1234",
        "s_add_i32 s20, s10, s11",
        "s_sub_i32 s20, s10, s11",
        "s_addc_u32 s20, s10, s11",
        "s_subb_u32 s20, s10, s11",
        "s_min_i32 s20, s10, s11",
        "s_min_u32 s20, s10, s11",
        "s_max_i32 s20, s10, -3",
        "s_max_u32 s20, s10, s11",
        "s_cselect_b32 s20, s10, s11",
        "s_and_b32 s20, s10, s11",
        "s_or_b32 s20, s10, 0",
        "s_xor_b32 s20, s10, s11",
        "s_andn2_b32 s20, s10, s11",
        "s_orn2_b32 s20, s10, s11",
        "s_lshl_b32 s20, s10, s11",
        "s_lshr_b32 s20, s10, 5",
        "s_ashr_i32 s20, s10, s11",
        "s_mul_i32 s20, s10, s11",
        "s_and_b64 s[20:21], s[10:11], s[12:13]",
        "s_or_b64 s[20:21], exec, s[12:13]",
        "s_xor_b64 s[20:21], s[10:11], -1",
        "s_andn2_b64 exec, exec, s[10:11]",
        "s_orn2_b64 s[20:21], s[10:11], s[12:13]",
        "s_lshl_b64 s[20:21], s[10:11], s12",
        "s_lshr_b64 s[20:21], s[10:11], 33",
        "s_cselect_b64 s[20:21], s[10:11], -1",
        "s_mov_b32 s20, s10",
        "s_mov_b32 s20, 0x12345678",
        "s_mov_b64 s[20:21], s[10:11]",
        "s_mov_b64 vcc, -1",
        "s_mov_b32 s20, 1.0",
        "s_mov_b64 s[20:21], 0.5",
        "s_and_b64 s[20:21], s[10:11], -4.0",
        "s_add_u32 s20, vcc_lo, 64",
        "s_cmp_lg_u64 exec, 0",
        "s_cmp_eq_u32 s10, s11",
        "s_cmp_lg_i32 s10, 5",
        "s_cmp_lt_i32 s10, s11",
        "s_cmp_ge_u32 s10, s11",
        "s_cmp_le_u32 s10, s10",
        "s_cmp_gt_i32 s10, -7",
        "s_cmp_eq_u64 s[10:11], s[12:13]",
        "s_cmp_lg_u64 s[10:11], 0",
        "s_cbranch_scc0 1\ns_mov_b32 s20, 7",
        "s_cbranch_scc1 1\ns_mov_b32 s20, 7",
        "s_cbranch_vccz 1\ns_mov_b32 s20, 7",
        "s_cbranch_vccnz 1\ns_mov_b32 s20, 7",
        "s_cbranch_execz 1\ns_mov_b32 s20, 7",
        "s_cbranch_execnz 1\ns_mov_b32 s20, 7",
        "s_branch 1\ns_mov_b32 s20, 7",
        "s_waitcnt 0",
        "s_nop 3",
    ];
    if target.wave64 {
        v.extend([
            "s_and_saveexec_b64 s[20:21], s[10:11]",
            "s_or_saveexec_b64 s[20:21], s[10:11]",
            "s_xor_saveexec_b64 s[20:21], s[10:11]",
            "s_andn2_saveexec_b64 s[20:21], s[10:11]",
        ]);
    } else {
        v.extend([
            "s_and_saveexec_b32 s20, s10",
            "s_or_saveexec_b32 s20, s10",
            "s_xor_saveexec_b32 s20, s10",
            "s_andn2_saveexec_b32 s20, s10",
        ]);
    }
    v
}

/// The program: load v1..v4 per lane from the data buffer, set scalars,
/// VCC, MODE and EXEC, run `form`, end.
fn program(target: Target, form: &str, rng: &mut Rng, mode: u32) -> String {
    let mut p = String::new();
    // v8 = DATA + lane * 16 (v0 is the work-item id); v9 = 0.
    p += "v_lshlrev_b32 v8, 4, v0\nv_mov_b32 v9, 0\n";
    if target == Target::GFX803 {
        p += &format!("v_add_u32 v8, vcc, {DATA:#x}, v8\n");
        for r in 1..=4 {
            p += &format!("flat_load_dword v{r}, v[8:9]\nv_add_u32 v8, vcc, 4, v8\n");
        }
    } else {
        p += &format!("v_add_nc_u32 v8, {DATA:#x}, v8\n");
        for r in 1..=4 {
            p += &format!(
                "global_load_dword v{r}, v[8:9], off offset:{}\n",
                4 * (r - 1)
            );
        }
    }
    p += "s_waitcnt vmcnt(0) lgkmcnt(0)\n";
    for s in [10, 11, 12, 13] {
        p += &format!("s_mov_b32 s{s}, {:#x}\n", rng.value());
    }
    p += &format!(
        "s_mov_b32 vcc_lo, {:#x}\ns_mov_b32 vcc_hi, {:#x}\n",
        rng.u32(),
        rng.u32()
    );
    p += &format!("s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 10), {mode:#x}\n");
    // A random SCC.
    p += "s_cmp_lt_u32 s10, s11\n";
    let exec = match rng.next() % 3 {
        0 => u64::MAX,
        _ => rng.next(),
    };
    p += &format!("s_mov_b32 exec_lo, {:#x}\n", exec as u32);
    if target.wave64 {
        p += &format!("s_mov_b32 exec_hi, {:#x}\n", (exec >> 32) as u32);
    }
    p += form;
    p += "\ns_endpgm\n";
    p
}

#[test]
fn fast_paths_match_the_general_path_on_random_operands() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    // MODE[9:0]: f32 round, f16/f64 round, f32 denorm, f16/f64 denorm,
    // DX10_CLAMP, IEEE.
    let modes = [0x2f0, 0x000, 0x330, 0x0c0, 0x2f3, 0x110, 0x220, 0x3f1];
    let mut checked = 0;
    for target in [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64] {
        for form in forms(target) {
            // The form must lower, or this test compares the general path with itself.
            let bytes = assemble(target, form).unwrap_or_else(|e| panic!("{form}: {e}"));
            let inst = decode(target, &bytes).unwrap_or_else(|e| panic!("{form}: {e}"));
            assert_ne!(
                lower(&inst, 0),
                Lowered::Generic,
                "{target:?}: `{form}` does not lower"
            );
            for round in 0..12 {
                let mode = modes[round % modes.len()];
                let data: Vec<u8> = (0..64 * 4)
                    .flat_map(|_| rng.value().to_le_bytes())
                    .collect();
                let source = program(target, form, &mut rng, mode);
                let run = |fast: bool| {
                    let mut k = Kernel::new(target, &source).data(&data);
                    k.fast_paths = fast;
                    k.run()
                        .unwrap_or_else(|e| panic!("{target:?} `{form}`: {e}\n{source}"))
                };
                let (f, g) = (run(true), run(false));
                assert_eq!(f.waves.len(), 1);
                let (a, b) = (&f.waves[0], &g.waves[0]);
                assert_eq!(a.sgpr, b.sgpr, "{target:?} `{form}` mode {mode:#x}: SGPRs");
                if let Some((r, l)) = first_difference(&a.vgpr, &b.vgpr) {
                    panic!(
                        "{target:?} `{form}` mode {mode:#x}: v{r} lane {l}: fast {:#x}, general {:#x}",
                        a.vgpr[r][l], b.vgpr[r][l]
                    );
                }
                assert_eq!(a.scc, b.scc, "{target:?} `{form}`: SCC");
                assert_eq!(f.stats(), g.stats(), "{target:?} `{form}`: statistics");
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked} cases");
}

/// The first (register, lane) where two VGPR files differ.
fn first_difference(a: &[[u32; 64]], b: &[[u32; 64]]) -> Option<(usize, usize)> {
    assert_eq!(a.len(), b.len());
    (0..a.len())
        .flat_map(|r| (0..64).map(move |l| (r, l)))
        .find(|&(r, l)| a[r][l] != b[r][l])
}

/// Final buffers and statistics of a corpus workload.
fn corpus_run(path: &Path, fast: bool) -> (Vec<Vec<u8>>, golden::stats::GoldenStats) {
    let w = Workload::load(path).expect("workload");
    let p = w.prepare().expect("prepared");
    let isa = CodeObject::parse(&p.code_object)
        .expect("code object")
        .isa()
        .expect("modelled");
    let mut config = GoldenConfig::new(isa);
    config.fast_paths = fast;
    let gpu = GoldenGpu::new(config).expect("config");
    let mut driver = Driver::new(gpu).expect("driver");
    let finals = workload::execute(&mut driver, &p).expect("runs");
    (
        finals.into_iter().map(|b| b.bytes).collect(),
        driver.device().stats(),
    )
}

#[test]
fn every_corpus_workload_is_identical_with_and_without_fast_paths() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../workloads/corpus");
    let mut count = 0;
    for target in ["gfx803", "gfx1030", "gfx1030-w64"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(target))
            .expect("workload directory")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .collect();
        files.sort();
        for f in files {
            let (fast, general) = (corpus_run(&f, true), corpus_run(&f, false));
            assert_eq!(fast.1, general.1, "{}: statistics", f.display());
            assert!(fast.0 == general.0, "{}: final buffers differ", f.display());
            count += 1;
        }
    }
    assert!(count >= 72, "{count} workloads");
}

/// FLAT/GLOBAL load and store forms; v[10:11] is a per-lane address.
fn memory_forms(target: Target) -> Vec<&'static str> {
    if target == Target::GFX803 {
        vec![
            "flat_load_dword v5, v[10:11]",
            "flat_load_dwordx2 v[5:6], v[10:11]",
            "flat_load_dwordx4 v[4:7], v[10:11]",
            "flat_load_sbyte v5, v[10:11]",
            "flat_load_ushort v5, v[10:11]",
            "flat_load_ubyte v5, v[10:11]",
            "flat_load_sshort v5, v[10:11]",
            "flat_store_dword v[10:11], v2",
            "flat_store_dwordx3 v[10:11], v[1:3]",
            "flat_store_byte v[10:11], v2",
            "flat_store_short v[10:11], v3",
        ]
    } else {
        vec![
            "global_load_dword v5, v[10:11], off",
            "global_load_dwordx2 v[5:6], v[10:11], off offset:-4",
            "global_load_dwordx4 v[4:7], v[10:11], off offset:16",
            "global_load_sbyte v5, v[10:11], off",
            "global_load_short_d16_hi v1, v[10:11], off",
            "global_load_ubyte v5, v[10:11], off offset:3",
            "global_load_ushort v5, v[10:11], off",
            "global_load_sshort v5, v12, s[14:15]",
            "global_load_ubyte_d16 v1, v[10:11], off",
            "global_load_dword v5, v12, s[14:15] offset:8",
            "global_store_dword v[10:11], v2, off",
            "global_store_dwordx4 v[10:11], v[1:4], off offset:4",
            "global_store_byte_d16_hi v[10:11], v2, off",
            "global_store_short v12, v3, s[14:15]",
            "flat_load_dword v5, v[10:11]",
            "flat_store_dwordx2 v[10:11], v[1:2] offset:8",
        ]
    }
}

#[test]
fn memory_fast_paths_match_the_general_path() {
    let mut rng = Rng(0x0bad_cafe_f00d_1234);
    let mut checked = 0;
    let mut faults = 0;
    for target in [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64] {
        for form in memory_forms(target) {
            for round in 0..10 {
                let data: Vec<u8> = (0..64 * 4)
                    .flat_map(|_| rng.value().to_le_bytes())
                    .collect();
                // Addresses: anywhere in the first 256 KiB of the buffer (unaligned,
                // some crossing 64 KiB pages), or near its end (some lanes unmapped).
                // or within one page (the single-translation path).
                let (mask, base) = match round % 4 {
                    3 => (0x3ff, DATA + 0x10_0000 - 0x200),
                    1 => (0xfff, DATA + 0x100),
                    _ => (0x3_ffff, DATA),
                };
                let mut source = program(target, "", &mut rng, 0xf0);
                let end = source.rfind("s_mov_b32 exec_lo").expect("exec set");
                let add = if target == Target::GFX803 {
                    format!("v_add_u32 v10, vcc, {base:#x}, v10\n")
                } else {
                    format!("v_add_nc_u32 v10, {base:#x}, v10\n")
                };
                let setup = format!(
                    "v_and_b32 v10, {mask:#x}, v1\n{add}v_mov_b32 v11, 0\n\
                     v_and_b32 v12, {mask:#x}, v2\ns_mov_b32 s14, {base:#x}\ns_mov_b32 s15, 0\n"
                );
                source.insert_str(end, &setup);
                source =
                    source.replace("s_endpgm", &format!("{form}\ns_waitcnt vmcnt(0)\ns_endpgm"));
                let run = |fast: bool| {
                    let mut k = Kernel::new(target, &source).data(&data);
                    k.fast_paths = fast;
                    k.run()
                };
                match (run(true), run(false)) {
                    (Ok(f), Ok(g)) => {
                        let (a, b) = (&f.waves[0], &g.waves[0]);
                        assert_eq!(a.sgpr, b.sgpr, "{target:?} `{form}`: SGPRs");
                        if let Some((r, l)) = first_difference(&a.vgpr, &b.vgpr) {
                            panic!("{target:?} `{form}`: v{r} lane {l} differs\n{source}");
                        }
                        assert!(
                            f.read(DATA, 0x10_0000) == g.read(DATA, 0x10_0000),
                            "{target:?} `{form}`: memory differs"
                        );
                        assert_eq!(f.stats(), g.stats(), "{target:?} `{form}`: statistics");
                    }
                    (Err(f), Err(g)) => {
                        assert_eq!(f, g, "{target:?} `{form}`: fault reports");
                        faults += 1;
                    }
                    (f, g) => panic!(
                        "{target:?} `{form}`: fast {:?} vs general {:?}",
                        f.err(),
                        g.err()
                    ),
                }
                checked += 1;
            }
        }
    }
    assert!(
        checked > 250 && faults > 20,
        "{checked} cases, {faults} faults"
    );
}
