//! Hand-written and random gfx803 programs run natively on the gfx803
//! golden GPU and, translated, on the gfx1030 golden GPU: the output buffers
//! must be identical, and where the answer is known independently (the
//! unfused multiply-add rounding and denormal rules) equal to it.

use arch::code_object::{
    CodeObjectWriter, ComputePgmRsrc1, ComputePgmRsrc2, KernelArg, KernelDescriptor,
    KernelMetadata, NewKernel, ValueKind,
};
use arch::isa::{assemble, Isa, Target};
use corpus::prng::SplitMix64;
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::{Arg, Driver, LaunchDims};

/// Work-items (one wave64 workgroup) and output dwords per work-item.
const LANES: u32 = 64;
const OUT_DWORDS: u32 = 8;
/// Dwords after the per-lane outputs that every lane may update atomically.
const SHARED_DWORDS: u32 = 16;

/// `out = s[2:3]` from the kernarg; `v[10:11]` = out + lane × 32.
const PROLOGUE: &str = "
    s_load_dwordx2 s[2:3], s[0:1], 0x0
    v_lshlrev_b32_e32 v10, 5, v0
    s_waitcnt lgkmcnt(0)
    v_mov_b32_e32 v11, s3
    v_add_u32_e32 v10, vcc, s2, v10
    v_addc_u32_e32 v11, vcc, 0, v11, vcc
";

/// Stores v[20:27] at `v[10:11]` and ends.
const EPILOGUE: &str = "
    flat_store_dwordx4 v[10:11], v[20:23]
    v_add_u32_e32 v12, vcc, 16, v10
    v_addc_u32_e32 v13, vcc, 0, v11, vcc
    flat_store_dwordx4 v[12:13], v[24:27]
    s_waitcnt vmcnt(0)
    s_endpgm
";

/// A gfx803 code object v5 with one kernel `k(global uint *out)` whose body
/// is `text`, with MODE's f32 denormal field `denorm_f32`.
fn code_object(text: &str, denorm_f32: u32) -> Vec<u8> {
    let source = format!("{PROLOGUE}\n{text}\n{EPILOGUE}");
    let code = assemble(Target::GFX803, &source).unwrap_or_else(|e| panic!("{e}\n{source}"));
    let mut descriptor = KernelDescriptor {
        kernarg_size: 8,
        group_segment_fixed_size: 4 * LANES,
        // 32 VGPRs (8 blocks of 4), f16/f64 denormals kept, f32 as asked.
        compute_pgm_rsrc1: ComputePgmRsrc1::from_bits(7 | denorm_f32 << 16 | 3 << 18),
        // USER_SGPR_COUNT = 2 (the kernarg pointer).
        compute_pgm_rsrc2: ComputePgmRsrc2::from_bits(2 << 1),
        ..Default::default()
    };
    descriptor
        .kernel_code_properties
        .enable_sgpr_kernarg_segment_ptr = true;
    let metadata = KernelMetadata {
        args: vec![KernelArg {
            name: Some("out".into()),
            type_name: None,
            offset: 0,
            size: 8,
            value_kind: ValueKind::from_name("global_buffer"),
            address_space: None,
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
        group_segment_fixed_size: 4 * LANES,
        wavefront_size: 64,
        max_flat_workgroup_size: 64,
        ..Default::default()
    };
    let mut w = CodeObjectWriter::new(Isa::Gfx803);
    w.add_kernel(NewKernel {
        name: "k".into(),
        code,
        descriptor,
        metadata,
    });
    w.write().expect("code object")
}

/// The output dwords of one run on a golden GPU of `isa`.
fn run(isa: Isa, elf: &[u8]) -> Result<Vec<u32>, String> {
    let gpu = GoldenGpu::new(GoldenConfig::new(isa)).map_err(|e| e.to_string())?;
    let mut d = Driver::new(gpu).map_err(|e| e.to_string())?;
    let p = d.load(elf).map_err(|e| e.to_string())?;
    let k = p.kernel("k").map_err(|e| e.to_string())?.clone();
    let out = d
        .alloc(u64::from((LANES * OUT_DWORDS + SHARED_DWORDS) * 4), 256)
        .map_err(|e| e.to_string())?;
    d.launch(
        &k,
        LaunchDims::linear(LANES, LANES),
        &[Arg::Buffer(out.address)],
    )
    .map_err(|e| e.to_string())?;
    let bytes = d.download(out).map_err(|e| e.to_string())?;
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// Native and translated outputs, asserted identical.
fn both(text: &str, denorm_f32: u32) -> Vec<u32> {
    let elf = code_object(text, denorm_f32);
    let native = run(Isa::Gfx803, &elf).unwrap_or_else(|e| panic!("native: {e}\n{text}"));
    let translated = run(Isa::Gfx1030, &elf).unwrap_or_else(|e| panic!("translated: {e}\n{text}"));
    if let Some(i) = native.iter().zip(&translated).position(|(a, b)| a != b) {
        panic!(
            "lane {} dword {}: translated {:#010x}, native {:#010x}\n{text}",
            i as u32 / OUT_DWORDS,
            i as u32 % OUT_DWORDS,
            translated[i],
            native[i]
        );
    }
    native
}

#[test]
fn unfused_multiply_adds_round_twice_like_gfx8() {
    let text = "
        v_cvt_f32_u32_e32 v1, v0
        v_mul_f32_e32 v2, 0x3dcccccd, v1          // p = lane * 0.1
        v_mov_b32_e32 v20, 1.0
        v_mac_f32_e32 v20, v2, v2                 // p*p + 1
        s_mov_b32 s4, 0x3eaaaaab
        v_mad_f32 v21, v2, s4, -v1                // p/3 - lane
        v_madmk_f32 v22, v2, 0x40490fdb, v1       // p*pi + lane
        v_madak_f32 v23, v2, v1, 0x3dcccccd       // p*lane + 0.1
        v_mov_b32_e32 v24, 0
        v_mov_b32_e32 v25, 0
        v_mov_b32_e32 v26, 0
        v_mov_b32_e32 v27, 0
    ";
    let out = both(text, 0);
    let mut fused_would_differ = false;
    for lane in 0..LANES {
        let x = lane as f32;
        let p = x * f32::from_bits(0x3dcc_cccd);
        let third = f32::from_bits(0x3eaa_aaab);
        let pi = f32::from_bits(0x4049_0fdb);
        let tenth = f32::from_bits(0x3dcc_cccd);
        let want = [p * p + 1.0, p * third - x, p * pi + x, p * x + tenth];
        let fused = [
            p.mul_add(p, 1.0),
            p.mul_add(third, -x),
            p.mul_add(pi, x),
            p.mul_add(x, tenth),
        ];
        let base = (lane * OUT_DWORDS) as usize;
        for (k, w) in want.iter().enumerate() {
            assert_eq!(out[base + k], w.to_bits(), "lane {lane} value {k}");
            fused_would_differ |= fused[k].to_bits() != w.to_bits();
        }
    }
    assert!(fused_would_differ, "the test must tell fused from unfused");
}

#[test]
fn unfused_multiply_adds_flush_denormals_even_when_mode_keeps_them() {
    let text = "
        v_mov_b32_e32 v2, 0x1e3ce508              // 1e-20: the square is denormal
        v_mov_b32_e32 v3, 1                       // the smallest denormal
        v_mov_b32_e32 v20, 0
        v_mac_f32_e32 v20, v2, v2                 // flushed product: 0
        v_mul_f32_e32 v21, v2, v2                 // MODE keeps denormals: 1e-40
        v_mad_f32 v22, v2, v2, v3                 // flushed inputs and product: 0
        v_add_f32_e32 v23, 0, v3                  // MODE restored: the denormal
        v_mov_b32_e32 v24, 0
        v_mov_b32_e32 v25, 0
        v_mov_b32_e32 v26, 0
        v_mov_b32_e32 v27, 0
    ";
    let out = both(text, 3);
    let tiny = f32::from_bits(0x1e3c_e508);
    assert_eq!(out[..4], [0, (tiny * tiny).to_bits(), 0, 1]);
    assert_ne!((tiny * tiny).to_bits(), 0);
}

/// One random VALU/SALU instruction over v1..v8 / s4..s9 (carries through
/// VCC and SCC, the unfused multiply-adds, selects).
fn random_inst(r: &mut SplitMix64) -> String {
    let v = |r: &mut SplitMix64| format!("v{}", r.range_i64(1, 8));
    let s = |r: &mut SplitMix64| format!("s{}", r.range_i64(4, 9));
    let (a, b, c) = (v(r), v(r), v(r));
    match r.range_i64(0, 14) {
        0 => format!("v_add_u32_e32 {a}, vcc, {b}, {c}"),
        1 => format!("v_addc_u32_e32 {a}, vcc, {b}, {c}, vcc"),
        2 => format!("v_sub_u32_e32 {a}, vcc, {}, {c}", s(r)),
        3 => format!("v_subb_u32_e32 {a}, vcc, {b}, {c}, vcc"),
        4 => format!("v_subrev_u32_e64 {a}, s[12:13], {b}, {c}"),
        5 => format!("v_subbrev_u32_e64 {a}, vcc, {b}, {c}, s[12:13]"),
        6 => format!("v_mac_f32_e32 {a}, {b}, {c}"),
        7 => format!("v_mad_f32 {a}, {b}, -{c}, {}", v(r)),
        8 => format!("v_cmp_gt_u32_e32 vcc, {b}, {c}"),
        9 => format!("v_cndmask_b32_e32 {a}, {b}, {c}, vcc"),
        10 => format!("s_add_u32 {}, {}, {}", s(r), s(r), s(r)),
        11 => format!("s_addc_u32 {}, {}, 0x{:x}", s(r), s(r), r.next_u64() as u32),
        12 => format!("v_xor_b32_e32 {a}, {}, {c}", s(r)),
        13 => format!("v_cmpx_lt_u32_e64 s[16:17], {b}, {c}"),
        _ => format!("v_mul_lo_u32 {a}, {b}, {c}"),
    }
}

/// Random straight-line code plus a divergent section under a lane-dependent
/// EXEC; random initial registers (including float specials and denormals).
fn random_program(seed: u64) -> String {
    let mut r = SplitMix64::new(seed);
    let mut t = String::new();
    let specials = [
        0u32,
        1,
        0x8000_0001,
        0x7f80_0000,
        0x7fc0_0000,
        0x3f80_0000,
        0x0080_0000,
    ];
    for i in 1..=8 {
        let bits = if r.range_i64(0, 3) == 0 {
            specials[r.range_i64(0, specials.len() as i64 - 1) as usize]
        } else {
            r.next_u64() as u32
        };
        t += &format!("v_mov_b32_e32 v{i}, 0x{bits:x}\nv_xor_b32_e32 v{i}, v{i}, v0\n");
    }
    for i in 4..=9 {
        t += &format!("s_mov_b32 s{i}, 0x{:x}\n", r.next_u64() as u32);
    }
    for _ in 0..r.range_i64(4, 16) {
        t += &random_inst(&mut r);
        t.push('\n');
    }
    // Divergent: lanes where v1 > v2 run more code, the rest skip it.
    t += "v_cmp_gt_u32_e32 vcc, v1, v2\ns_and_saveexec_b64 s[14:15], vcc\ns_cbranch_execz BODY_END\n";
    for _ in 0..r.range_i64(2, 8) {
        t += &random_inst(&mut r);
        t.push('\n');
    }
    t += "BODY_END_LABEL\ns_or_b64 exec, exec, s[14:15]\n";
    for i in 0..8 {
        t += &format!("v_mov_b32_e32 v{}, v{}\n", 20 + i, 1 + i);
    }
    t
}

/// Resolves the one forward branch of [`random_program`] (the assembler
/// takes dword offsets, not labels).
fn resolve(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let from = lines
        .iter()
        .position(|l| l.contains("BODY_END"))
        .expect("branch");
    let to = lines
        .iter()
        .position(|l| *l == "BODY_END_LABEL")
        .expect("label");
    let dwords: usize = lines[from + 1..to]
        .iter()
        .map(|l| {
            assemble(Target::GFX803, l)
                .unwrap_or_else(|e| panic!("{e}: {l}"))
                .len()
                / 4
        })
        .sum();
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        if i == from {
            out += &format!("s_cbranch_execz {dwords}\n");
        } else if i != to {
            out += l;
            out.push('\n');
        }
    }
    out
}

/// Issue 9's property test, in deterministic form: random legacy programs
/// (carries, unfused multiply-adds with float specials, divergent EXEC) give
/// identical registers (stored to memory) native and translated.
#[test]
fn random_programs_match_native_gfx803() {
    for seed in 0..40 {
        both(
            &resolve(&random_program(seed)),
            if seed % 2 == 0 { 0 } else { 3 },
        );
    }
}

/// Assembles text with labels (`NAME:` lines) and branches to them
/// (`s_cbranch_* @NAME`): the assembler takes dword offsets.
fn resolve_labels(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut at = Vec::with_capacity(lines.len());
    let mut labels = std::collections::HashMap::new();
    let mut dwords = 0i64;
    for l in &lines {
        at.push(dwords);
        if let Some(name) = l.strip_suffix(':') {
            labels.insert(name.to_string(), dwords);
        } else {
            // Branch operands do not change the size; assemble with 0.
            let probe = l.split(" @").next().unwrap_or(l);
            let probe = if l.contains(" @") {
                format!("{probe} 0")
            } else {
                probe.to_string()
            };
            let n = assemble(Target::GFX803, &probe).unwrap_or_else(|e| panic!("{e}: {l}"));
            dwords += n.len() as i64 / 4;
        }
    }
    let mut out = String::new();
    for (l, here) in lines.iter().zip(&at) {
        if l.ends_with(':') {
            continue;
        }
        match l.split_once(" @") {
            Some((op, name)) => {
                let target = labels[name];
                out += &format!("{op} {}\n", target - (here + 1));
            }
            None => {
                out += l;
                out.push('\n');
            }
        }
    }
    out
}

/// A random memory or ALU instruction for [`random_memory_program`]: global
/// stores/loads/atomics on the lane's own slot (v[10:11]) and on the shared
/// dwords (v[14:15]), LDS through the lane's word (v9) and its neighbour's
/// (v16), with the waits gfx8 needs.
fn random_memory_inst(r: &mut SplitMix64) -> String {
    let v = |r: &mut SplitMix64| format!("v{}", r.range_i64(1, 8));
    let (a, b) = (v(r), v(r));
    match r.range_i64(0, 9) {
        0 => format!("flat_store_dword v[10:11], {a}\nflat_load_dword {b}, v[10:11]\ns_waitcnt vmcnt(0) lgkmcnt(0)"),
        1 => format!("flat_atomic_add {b}, v[10:11], {a} glc\ns_waitcnt vmcnt(0) lgkmcnt(0)"),
        2 => format!("flat_atomic_add v[14:15], {a}"),
        3 => format!("flat_atomic_xor v[14:15], {a}\nflat_load_dword {b}, v[10:11]\ns_waitcnt vmcnt(1) lgkmcnt(0)"),
        4 => format!("ds_write_b32 v9, {a}\nds_read_b32 {b}, v16\ns_waitcnt lgkmcnt(0)"),
        5 => format!("ds_add_u32 v9, {a}\nds_read_b32 {b}, v9\ns_waitcnt lgkmcnt(0)"),
        6 => format!("flat_atomic_umax v[14:15], {a}\ns_waitcnt vmcnt(0) lgkmcnt(0)\nflat_load_dword {b}, v[14:15]\ns_waitcnt vmcnt(0) lgkmcnt(0)"),
        _ => random_inst(r),
    }
}

/// Random programs with a loop (trip count 1..4), divergence inside it,
/// LDS, global loads/stores and atomics.
fn random_memory_program(seed: u64) -> String {
    let mut r = SplitMix64::new(seed ^ 0x5eed);
    let mut t = String::from(
        "v_lshlrev_b32_e32 v9, 2, v0
         v_xor_b32_e32 v16, 4, v9
         s_add_u32 s18, s2, 0x800
         s_addc_u32 s19, s3, 0
         v_mov_b32_e32 v14, s18
         v_mov_b32_e32 v15, s19
         s_mov_b32 m0, -1\n",
    );
    for i in 1..=8 {
        t += &format!(
            "v_mov_b32_e32 v{i}, 0x{:x}\nv_xor_b32_e32 v{i}, v{i}, v0\n",
            r.next_u64() as u32
        );
    }
    for i in 4..=9 {
        t += &format!("s_mov_b32 s{i}, 0x{:x}\n", r.next_u64() as u32);
    }
    t += &format!("s_mov_b32 s20, {}\nLOOP:\n", r.range_i64(1, 4));
    for _ in 0..r.range_i64(2, 6) {
        t += &random_memory_inst(&mut r);
        t.push('\n');
    }
    t += "v_cmp_gt_u32_e32 vcc, v1, v2\ns_and_saveexec_b64 s[14:15], vcc\ns_cbranch_execz @SKIP\n";
    for _ in 0..r.range_i64(1, 5) {
        t += &random_memory_inst(&mut r);
        t.push('\n');
    }
    t += "SKIP:\ns_or_b64 exec, exec, s[14:15]\n";
    t += "s_sub_u32 s20, s20, 1\ns_cmp_lg_u32 s20, 0\ns_cbranch_scc1 @LOOP\n";
    for i in 0..8 {
        t += &format!("v_mov_b32_e32 v{}, v{}\n", 20 + i, 1 + i);
    }
    resolve_labels(&t)
}

/// The rest of issue 9's property test: loops, divergence, LDS, global
/// loads/stores and atomics (returning and not), native == translated.
#[test]
fn random_memory_programs_match_native_gfx803() {
    let mut shared_written = 0;
    for seed in 0..30 {
        let out = both(&random_memory_program(seed), 0);
        let shared = &out[(LANES * OUT_DWORDS) as usize..];
        shared_written += usize::from(shared.iter().any(|&w| w != 0));
    }
    assert!(
        shared_written >= 10,
        "atomics reach the shared dwords: {shared_written}"
    );
}

/// The f16 unfused multiply-adds (gfx1030 has none): product rounded to
/// half, sum rounded, high half zeroed.
#[test]
fn half_unfused_multiply_adds_match_native() {
    let text = "
        v_cvt_f32_u32_e32 v1, v0
        v_mul_f32_e32 v1, 0x3e4ccccd, v1          // lane * 0.2
        v_cvt_f16_f32_e32 v2, v1
        v_add_f16_e32 v3, 0.5, v2
        v_mov_b32_e32 v20, -1
        v_mov_b32_e32 v21, 0xffff3c00
        v_mov_b32_e32 v22, -1
        v_mov_b32_e32 v23, -1
        v_mov_b32_e32 v24, -1
        v_mac_f16_e32 v21, v2, v3                 // x*y + 1
        v_mad_f16 v22, v2, -v3, v2
        v_madmk_f16 v23, v2, 0x4248, v3           // x*3.14 + y
        v_madak_f16 v24, v2, v3, 0x2e66           // x*y + 0.1
        v_mov_b32_e32 v20, v21
        v_mov_b32_e32 v25, 0
        v_mov_b32_e32 v26, 0
        v_mov_b32_e32 v27, 0
    ";
    let out = both(text, 0);
    assert!(out
        .iter()
        .step_by(OUT_DWORDS as usize)
        .any(|&w| w != 0x3c00));
    for lane in 0..LANES as usize {
        for k in 0..5 {
            assert_eq!(
                out[lane * OUT_DWORDS as usize + k] >> 16,
                0,
                "lane {lane} value {k}"
            );
        }
    }
}

/// Forms whose gfx1030 counterpart has another shape.
#[test]
fn reshaped_forms_match_native() {
    let text = "
        v_mov_b32_e32 v2, 0x10005
        v_mov_b32_e32 v3, 0x20003
        v_mov_b32_e32 v20, -1
        v_subrev_u16_e32 v20, v3, v2              // v2 - v3 = 2
        v_mov_b32_e32 v21, -1
        v_subrev_u16_e32 v21, 7, v2               // 5 - 7 = 0xfffe
        v_cmp_t_u16_e32 vcc, v2, v3
        v_cndmask_b32_e64 v22, 0, 1, vcc
        v_cmp_f_i16_e64 s[20:21], v2, v3
        v_cndmask_b32_e64 v23, 0, 1, s[20:21]
        buffer_wbinvl1_vol
        s_dcache_wb
        s_dcache_inv_vol
        v_mov_b32_e32 v24, 0
        v_mov_b32_e32 v25, 0
        v_mov_b32_e32 v26, 0
        v_mov_b32_e32 v27, 0
    ";
    let out = both(text, 0);
    assert_eq!(out[..4], [2, 0xfffe, 1, 0]);
}

/// DPP row operations keep their meaning (rows of 16 lanes on both),
/// including bound control and sources in disabled lanes.
#[test]
fn dpp_row_operations_match_native() {
    let text = "
        v_lshlrev_b32_e32 v1, 8, v0
        v_or_b32_e32 v1, 0x55, v1
        v_mov_b32_e32 v20, -1
        v_mov_b32_dpp v20, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
        v_mov_b32_e32 v21, -1
        v_mov_b32_dpp v21, v1 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
        v_mov_b32_e32 v22, -1
        v_mov_b32_dpp v22, v1 row_shl:3 row_mask:0xf bank_mask:0xf
        v_mov_b32_e32 v23, -1
        v_xor_b32_dpp v23, v1, v1 row_ror:5 row_mask:0xa bank_mask:0xf
        v_mov_b32_e32 v24, -1
        v_and_b32_e32 v2, 3, v0
        v_cmp_ne_u32_e32 vcc, 0, v2
        s_and_saveexec_b64 s[20:21], vcc
        v_mov_b32_dpp v24, v1 row_shr:1 row_mask:0xf bank_mask:0xf
        s_or_b64 exec, exec, s[20:21]
        v_mov_b32_e32 v25, 0
        v_mov_b32_e32 v26, 0
        v_mov_b32_e32 v27, 0
    ";
    let out = both(text, 0);
    let lane = |l: usize, k: usize| out[l * OUT_DWORDS as usize + k];
    assert_eq!(lane(4, 0), (5 << 8) | 0x55, "quad_perm");
    assert_eq!(lane(17, 1), (16 << 8) | 0x55, "row_shr");
}

/// LLVM's gfx8 division turns f32 denormals on and off with `s_setreg`; the
/// mad emulation then cannot know MODE statically and saves/restores it.
#[test]
fn mode_writes_and_unfused_mads_compose() {
    let text = "
        v_mov_b32_e32 v2, 0x1e3ce508              // 1e-20
        s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3
        v_mul_f32_e32 v20, v2, v2                 // denormal kept
        v_mov_b32_e32 v21, 0
        v_mac_f32_e32 v21, v2, v2                 // gfx8 mac flushes: 0
        v_mul_f32_e32 v22, v2, v2                 // MODE restored: kept
        s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0
        v_mul_f32_e32 v23, v2, v2                 // flushed
        s_getreg_b32 s30, hwreg(HW_REG_MODE, 0, 10)
        v_mov_b32_e32 v24, s30
        v_mov_b32_e32 v25, 0
        v_mov_b32_e32 v26, 0
        v_mov_b32_e32 v27, 0
    ";
    let out = both(text, 0);
    let tiny = f32::from_bits(0x1e3c_e508);
    let d = (tiny * tiny).to_bits();
    assert_eq!(out[..4], [d, 0, d, 0]);
    assert_eq!(out[4] >> 4 & 3, 0, "FP_DENORM single read back");
}

/// `s_getpc_b64` + a PC-relative load reads the legacy image, translated too.
#[test]
fn pc_relative_loads_read_the_legacy_image() {
    let text = "
        s_getpc_b64 s[24:25]
        s_load_dword s26, s[24:25], 0x0
        s_waitcnt lgkmcnt(0)
        v_mov_b32_e32 v20, s26
        v_mov_b32_e32 v21, 0
        v_mov_b32_e32 v22, 0
        v_mov_b32_e32 v23, 0
        v_mov_b32_e32 v24, 0
        v_mov_b32_e32 v25, 0
        v_mov_b32_e32 v26, 0
        v_mov_b32_e32 v27, 0
    ";
    let out = both(text, 0);
    let word = assemble(Target::GFX803, "s_load_dword s26, s[24:25], 0x0").unwrap();
    assert_eq!(
        out[0],
        u32::from_le_bytes([word[0], word[1], word[2], word[3]])
    );
}

/// gfx8 16-bit VALU results zero the high half of the destination; gfx1030
/// keeps it (the translation clears it with `v_and_b32`).
#[test]
fn sixteen_bit_results_clear_the_high_half_like_gfx8() {
    let text = "
        v_mov_b32_e32 v2, 0x10001
        v_mov_b32_e32 v3, 0x20002
        v_mov_b32_e32 v20, -1
        v_add_u16_e32 v20, v2, v3
        v_mov_b32_e32 v21, -1
        v_mad_u16 v21, v2, v3, v2
        v_mov_b32_e32 v22, -1
        v_mul_lo_u16_e32 v22, v2, v3
        v_mov_b32_e32 v23, -1
        v_add_f16_e32 v23, v2, v3
        v_mov_b32_e32 v24, -1
        v_sub_u16_e64 v24, v3, v2
        v_mov_b32_e32 v25, -1
        v_max_u16_e32 v25, v2, v3
        v_mov_b32_e32 v26, -1
        v_cvt_f16_u16_e32 v26, v2
        v_mov_b32_e32 v27, -1
        v_fma_f16 v27, v3, v3, v2
    ";
    let out = both(text, 0);
    for (k, want) in [3, 3, 2, 0x0003, 1, 2, 0x3c00].into_iter().enumerate() {
        assert_eq!(out[k], want, "value {k}");
    }
    assert_eq!(out[7] >> 16, 0, "fma_f16 high half");
}
