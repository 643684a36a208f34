//! The JIT (`golden::jit`) against the interpreter on hand-written loops:
//! identical final registers, memory, statistics and faults, with blocks
//! compiled at their first execution (threshold 1) and after a few.

use arch::isa::{assemble, Target};
use golden::testing::{Kernel, DATA};

/// `prologue`, then `body` looped `n` times (counter in s20), then `epilogue`.
fn looped(target: Target, prologue: &str, body: &str, n: u32, epilogue: &str) -> String {
    let tail = format!("s_add_u32 s20, s20, 1\ns_cmp_lt_u32 s20, {n}\n");
    let size = assemble(target, &format!("{body}\n{tail}"))
        .expect("loop body assembles")
        .len();
    // s_cbranch: target = pc + 4 + 4 * simm16.
    let back = -((size as i64 + 4) / 4) as i16 as u16;
    format!("{prologue}\ns_mov_b32 s20, 0\n{body}\n{tail}s_cbranch_scc1 {back:#x}\n{epilogue}\ns_endpgm\n")
}

/// Runs `source` with the interpreter and with the JIT at several
/// thresholds; everything observable must be equal.
fn same(target: Target, source: &str, data: &[u8]) {
    let mut k = Kernel::new(target, source).data(data);
    let reference = k.run();
    for threshold in [1, 3] {
        k.jit = Some(threshold);
        let jit = k.run();
        match (&reference, &jit) {
            (Ok(a), Ok(b)) => {
                let (wa, wb) = (&a.waves[0], &b.waves[0]);
                assert_eq!(wa.sgpr, wb.sgpr, "{target:?} t{threshold}: SGPRs\n{source}");
                assert_eq!(wa.scc, wb.scc, "{target:?}: SCC");
                for (r, (x, y)) in wa.vgpr.iter().zip(&wb.vgpr).enumerate() {
                    assert_eq!(x, y, "{target:?} t{threshold}: v{r}\n{source}");
                }
                assert_eq!(a.stats(), b.stats(), "{target:?} t{threshold}: statistics");
                assert_eq!(a.read(DATA, 4096), b.read(DATA, 4096), "{target:?}: memory");
                let s = b.gpu.jit_stats().expect("JIT on");
                assert!(s.blocks > 0, "{target:?}: nothing compiled");
            }
            (Err(a), Err(b)) => assert_eq!(a, b, "{target:?}: faults"),
            (a, b) => panic!("{target:?}: interpreter {a:?}\nJIT {b:?}"),
        }
    }
}

fn data() -> Vec<u8> {
    let mut x = 0x9e37_79b9u32;
    (0..1024)
        .flat_map(|i| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            // Some float specials among random bits.
            let v = match i % 7 {
                0 => 0x0000_0001,
                1 => 0x7fc0_0001,
                _ => x,
            };
            v.to_le_bytes()
        })
        .collect()
}

const TARGETS: [Target; 2] = [Target::GFX1030_W32, Target::GFX1030_W64];

fn vcc(t: Target) -> &'static str {
    if t.wave64 {
        "vcc"
    } else {
        "vcc_lo"
    }
}

#[test]
fn integer_and_float_loop() {
    for t in TARGETS {
        let prologue = format!(
            "v_lshlrev_b32 v8, 2, v0\nv_add_nc_u32 v8, {DATA:#x}, v8\nv_mov_b32 v9, 0\n\
             global_load_dword v2, v[8:9], off\nglobal_load_dword v5, v[8:9], off offset:256\n\
             s_waitcnt vmcnt(0)\nv_mov_b32 v1, 0\nv_mov_b32 v3, 1.0\ns_mov_b32 s11, 7"
        );
        let body = format!(
            "v_add_nc_u32 v1, v1, v0\nv_mul_lo_u32 v4, v1, v0\nv_xor_b32 v4, v4, v2\n\
             v_lshlrev_b32 v6, v0, v4\nv_ashrrev_i32 v7, 3, v6\nv_min_u32 v7, v7, v6\n\
             v_add_f32 v3, v3, v2\nv_mul_f32 v10, v3, v5\nv_fmac_f32 v10, v2, v5\n\
             v_sub_f32 v11, v10, v3\nv_max_f32 v12, v10, v11\nv_cvt_i32_f32 v13, v12\n\
             v_cvt_f32_i32 v14, v7\nv_mul_hi_u32 v15, v4, v2\nv_alignbit_b32 v16, v4, v2, v1\n\
             v_cmp_gt_u32 {vcc}, 9, v0\nv_cndmask_b32 v17, v4, v10, {vcc}\n\
             v_add_co_u32 v18, {vcc}, v4, v2\nv_add_co_ci_u32 v19, {vcc}, v7, v6, {vcc}\n\
             v_cmp_lt_f32 {sd}, v10, v3\nv_bfe_u32 v20, v4, 3, 9\n\
             v_mad_u32_u24 v21, v4, v6, v1\nv_lshl_add_u32 v22, v4, 2, v6\n\
             s_mul_i32 s11, s11, 3\ns_xor_b32 s12, s11, s20\ns_lshr_b32 s13, s12, 1\n\
             v_readlane_b32 s14, v4, 5",
            vcc = vcc(t),
            sd = if t.wave64 { "s[30:31]" } else { "s30" },
        );
        let epilogue =
            "global_store_dword v[8:9], v10, off\nglobal_store_dword v[8:9], v19, off offset:512";
        let src = looped(t, &prologue, &body, 20, epilogue);
        same(t, &src, &data());
    }
}

#[test]
fn divergent_exec_and_saveexec() {
    for t in TARGETS {
        let (sv, exec) = if t.wave64 {
            (
                "s_and_saveexec_b64 s[40:41], vcc",
                "s_mov_b64 exec, s[40:41]",
            )
        } else {
            ("s_and_saveexec_b32 s40, vcc_lo", "s_mov_b32 exec_lo, s40")
        };
        let body = format!(
            "v_and_b32 v3, 3, v1\nv_cmp_eq_u32 {vcc}, 1, v3\n{sv}\n\
             v_add_nc_u32 v2, v2, v1\nv_cmpx_lt_u32 v1, v2\nv_mul_f32 v4, v4, v4\n{exec}\n\
             v_add_nc_u32 v1, 3, v1",
            vcc = vcc(t),
        );
        let src = looped(
            t,
            "v_mov_b32 v1, v0\nv_mov_b32 v2, 0\nv_cvt_f32_u32 v4, v0",
            &body,
            13,
            "",
        );
        same(t, &src, &data());
    }
}

#[test]
fn modes_denormals_and_nan() {
    // Denormals flushed, round toward zero, then the default: the host
    // result must never stand where it differs.
    for mode in [0x000u32, 0x0f0, 0x0f3, 0x2f0, 0x0c0] {
        for t in TARGETS {
            let prologue = format!(
                "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 10), {mode:#x}\n\
                 v_lshlrev_b32 v8, 2, v0\nv_add_nc_u32 v8, {DATA:#x}, v8\nv_mov_b32 v9, 0\n\
                 global_load_dword v2, v[8:9], off\nglobal_load_dword v5, v[8:9], off offset:256\n\
                 s_waitcnt vmcnt(0)\nv_mov_b32 v3, 0x00400000"
            );
            let body = "v_mul_f32 v3, v3, v5\nv_add_f32 v4, v3, v2\nv_fma_f32 v6, v4, v5, v2\n\
                        v_sub_f32 v7, v2, v5\nv_cmp_neq_f32 vcc_lo, v6, v7\nv_cvt_f32_i32 v10, v2\n\
                        v_cmp_class_f32 vcc_lo, v6, 3";
            let body = if t.wave64 {
                body.replace("vcc_lo", "vcc")
            } else {
                body.to_string()
            };
            let src = looped(t, &prologue, &body, 6, "");
            same(t, &src, &data());
        }
    }
}

#[test]
fn faults_inside_a_compiled_block() {
    // The third pass stores through an unmapped address: same fault (wave,
    // PC, address, step) with the store interpreted inside a block.
    for t in TARGETS {
        let body = format!(
            "v_add_nc_u32 v1, v1, 1\nv_cmp_eq_u32 {vcc}, 2, v1\n\
             v_cndmask_b32 v9, 0, 0x7000, {vcc}\nglobal_store_dword v[8:9], v1, off",
            vcc = vcc(t)
        );
        let prologue = format!("v_mov_b32 v1, 0\nv_mov_b32 v8, {DATA:#x}\nv_mov_b32 v9, 0");
        let src = looped(t, &prologue, &body, 5, "");
        let k = Kernel::new(t, &src);
        assert!(k.run().is_err(), "the store must fault");
        same(t, &src, &[]);
    }
}

#[test]
fn the_step_budget_is_counted_exactly() {
    // The watchdog stops both at the same instruction.
    for t in TARGETS {
        let src = looped(t, "v_mov_b32 v1, 0", "v_add_nc_u32 v1, v1, 1", 1000, "");
        let mut k = Kernel::new(t, &src);
        k.budget = 777;
        let a = k.run().expect_err("watchdog");
        k.jit = Some(1);
        let b = k.run().expect_err("watchdog");
        assert_eq!(a, b);
    }
}

/// The native 64-bit forms: `v_lshlrev_b64` by constants (0, below 32, 32,
/// above 32; destination overlapping the source pair) and `v_mad_u64_u32`
/// with VGPR-pair, SGPR-pair and constant addends, carries out of bit 63
/// (large random factors and addends), under a divergent EXEC.
#[test]
fn sixty_four_bit_address_forms() {
    for t in TARGETS {
        let (sdst, cmp) = if t.wave64 {
            ("s[30:31]", "s_and_saveexec_b64 s[40:41], vcc")
        } else {
            ("s30", "s_and_saveexec_b32 s40, vcc_lo")
        };
        let prologue = format!(
            "v_lshlrev_b32 v8, 2, v0\nv_add_nc_u32 v8, {DATA:#x}, v8\nv_mov_b32 v9, 0\n\
             global_load_dword v2, v[8:9], off\nglobal_load_dword v3, v[8:9], off offset:256\n\
             global_load_dword v4, v[8:9], off offset:512\n\
             global_load_dword v5, v[8:9], off offset:768\n\
             s_waitcnt vmcnt(0)\ns_mov_b32 s12, 0xfffffff0\ns_mov_b32 s13, 0xffffffff\n\
             v_and_b32 v6, 1, v0\nv_cmp_eq_u32 {vcc}, 0, v6\n{cmp}",
            vcc = vcc(t),
        );
        let body = format!(
            "v_lshlrev_b64 v[10:11], 0, v[2:3]\nv_lshlrev_b64 v[12:13], 3, v[2:3]\n\
             v_lshlrev_b64 v[14:15], 32, v[4:5]\nv_lshlrev_b64 v[16:17], 45, v[2:3]\n\
             v_lshlrev_b64 v[3:4], 7, v[2:3]\n\
             v_mad_u64_u32 v[18:19], {sdst}, v2, v5, v[4:5]\n\
             v_mad_u64_u32 v[20:21], {sdst}, v5, s13, s[12:13]\n\
             v_mad_u64_u32 v[22:23], {sdst}, s12, v3, 0\n\
             v_mad_u64_u32 v[4:5], {vcc}, v4, v18, v[4:5]\n\
             v_add_nc_u32 v2, v2, v19\nv_xor_b32 v5, v5, v21\nv_add_nc_u32 v3, v3, v23",
            vcc = vcc(t),
        );
        let src = looped(t, &prologue, &body, 9, "");
        same(t, &src, &data());
        // They ran as native code (a block Cranelift rejected would be
        // interpreted, and the comparison above would prove nothing).
        let mut k = Kernel::new(t, &src).data(&data());
        k.jit = Some(1);
        let run = k.run().expect("runs");
        let s = run.gpu.jit_stats().expect("JIT on");
        for name in ["v_lshlrev_b64", "v_mad_u64_u32"] {
            assert!(
                !s.fallback_opcodes.contains_key(name),
                "{t:?}: {name} compiled as an interpreter call: {:?}",
                s.fallback_opcodes
            );
        }
        assert!(s.native[arch::isa::Family::Vop3 as usize] >= 9 * 8, "{s:?}");
    }
}
