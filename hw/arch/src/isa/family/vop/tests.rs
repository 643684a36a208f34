//! Unit tests of the VOP families. Every expected text and encoding was produced by
//! `llvm-mc-19` (`-show-encoding` to assemble, `--disassemble` to print).

use crate::isa::asm::assemble_line;
use crate::isa::{decode, encode, Target};

/// Parses `0x01,0x02,...`.
fn bytes(hex: &str) -> Vec<u8> {
    hex.split(',')
        .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).expect("test hex"))
        .collect()
}

/// Checks one LLVM case: decode prints `text`, encoding round-trips, and `text`
/// assembles back to the same bytes (when `assembles` is set).
fn check(target: Target, hex: &str, text: &str, assembles: bool) -> Result<(), String> {
    let b = bytes(hex);
    let inst = decode(target, &b).map_err(|e| format!("{text}: decode error {e}"))?;
    let printed = inst.to_string();
    if printed != text {
        return Err(format!("{hex}: printed `{printed}`, LLVM `{text}`"));
    }
    if assembles && usize::from(inst.size) != b.len() {
        return Err(format!("{text}: size {} vs {}", inst.size, b.len()));
    }
    let mut out = Vec::new();
    encode(&inst, &mut out).map_err(|e| format!("{text}: encode error {e}"))?;
    if b.get(..out.len()) != Some(&out[..]) {
        return Err(format!("{text}: re-encoded {out:02x?}, expected {b:02x?}"));
    }
    if assembles {
        let parsed = assemble_line(target, text)
            .map_err(|e| format!("{text}: assemble error {e}"))?
            .ok_or_else(|| format!("{text}: assembled to nothing"))?;
        let mut out = Vec::new();
        encode(&parsed, &mut out).map_err(|e| format!("{text}: encode error {e}"))?;
        if out != b {
            return Err(format!(
                "{text}: assembled to {out:02x?}, expected {b:02x?}"
            ));
        }
    }
    Ok(())
}

/// Checks that hand-written `text` assembles to `hex` (LLVM's choice of encoding).
fn check_assembly(target: Target, hex: &str, text: &str) -> Result<(), String> {
    let b = bytes(hex);
    let parsed = assemble_line(target, text)
        .map_err(|e| format!("{text}: assemble error {e}"))?
        .ok_or_else(|| format!("{text}: assembled to nothing"))?;
    let mut out = Vec::new();
    encode(&parsed, &mut out).map_err(|e| format!("{text}: encode error {e}"))?;
    if out != b {
        return Err(format!("{text}: assembled to {out:02x?}, LLVM {b:02x?}"));
    }
    Ok(())
}

/// Runs a table of cases, reporting every failure at once.
fn run(target: Target, cases: &[(&str, &str)]) {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(hex, text)| check(target, hex, text, true).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Checks `TARGET|BYTES|TEXT[|noasm|asmonly]` lines (see `hw/arch/tests/vop/gen.py`),
/// returning the number of cases and the failures.
fn check_lines(text: &str) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let mut total = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let mut parts = line.splitn(3, '|');
        let (Some(t), Some(hex), Some(expected)) = (parts.next(), parts.next(), parts.next())
        else {
            failures.push(format!("malformed line `{line}`"));
            continue;
        };
        let target = match t.trim() {
            "gfx803" => Target::GFX803,
            "gfx1030w64" | "gfx1030-w64" => Target::GFX1030_W64,
            _ => Target::GFX1030_W32,
        };
        total += 1;
        // `|asmonly`: hand-written assembly; only what it assembles to is checked.
        if let Some(text) = expected.strip_suffix("|asmonly") {
            if let Err(e) = check_assembly(target, hex.trim(), text) {
                failures.push(format!("[{t}] {e}"));
            }
            continue;
        }
        // `|noasm`: LLVM's text does not assemble back to these bytes (ignored bits).
        let (expected, assembles) = match expected.strip_suffix("|noasm") {
            Some(text) => (text, false),
            None => (expected, true),
        };
        if expected.trim() == "INVALID" {
            // LLVM rejects these bytes: so should we.
            if let Ok(inst) = decode(target, &bytes(hex.trim())) {
                failures.push(format!("[{t}] {hex}: LLVM rejects, we print `{inst}`"));
            }
            continue;
        }
        if let Err(e) = check(target, hex.trim(), expected.trim(), assembles) {
            failures.push(format!("[{t}] {e}"));
        }
    }
    (total, failures)
}

/// Asserts that every line of `text` passes.
fn assert_lines(name: &str, text: &str) {
    let (total, failures) = check_lines(text);
    assert!(total > 0, "{name}: no cases");
    assert!(
        failures.is_empty(),
        "{name}: {} of {total} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every VALU instruction clang-19 -O3 emits for `hw/arch/tests/vop/kernels.cl`
/// (gfx1030 wave32/wave64, gfx803) decodes, prints, re-encodes and assembles as
/// LLVM does.
#[test]
fn clang_kernel_instructions_match_llvm() {
    assert_lines(
        "kernels.txt",
        include_str!("../../../../tests/vop/kernels.txt"),
    );
}

/// Hand-written assembly (mostly without `_e32`/`_e64`) picks llvm-mc's encoding.
#[test]
fn hand_written_assembly_matches_llvm_mc() {
    assert_lines("asm.txt", include_str!("../../../../tests/vop/asm.txt"));
}

/// Where LLVM 19 and python3 are installed, regenerating the data gives the
/// committed files (skipped with a note otherwise).
#[test]
fn committed_vop_data_matches_llvm() {
    let tools = [
        "python3",
        "clang-19",
        "ld.lld-19",
        "llvm-objdump-19",
        "llvm-mc-19",
    ];
    if let Some(missing) = tools.iter().find(|t| {
        std::process::Command::new(t)
            .arg("--version")
            .output()
            .map_or(true, |o| !o.status.success())
    }) {
        eprintln!("note: {missing} not found; skipping the VOP data drift check");
        return;
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vop");
    let out = std::env::temp_dir().join(format!("arch-vop-drift-{}", std::process::id()));
    std::fs::create_dir_all(&out).expect("temp dir");
    let status = std::process::Command::new("python3")
        .arg(dir.join("gen.py"))
        .arg(&out)
        .status()
        .expect("run gen.py");
    assert!(status.success(), "gen.py failed");
    for file in ["kernels.txt", "asm.txt"] {
        let fresh = std::fs::read_to_string(out.join(file)).expect("fresh data");
        let committed = std::fs::read_to_string(dir.join(file)).expect("committed data");
        assert!(
            fresh == committed,
            "{file} differs from a fresh run of hw/arch/tests/vop/gen.py"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// Where llvm-mc-19 and python3 are installed, re-probing LLVM gives the committed
/// `flags.rs` (skipped with a note otherwise).
#[test]
fn committed_vop_flags_match_llvm() {
    if let Some(missing) = ["python3", "llvm-mc-19"].iter().find(|t| {
        std::process::Command::new(t)
            .arg("--version")
            .output()
            .map_or(true, |o| !o.status.success())
    }) {
        eprintln!("note: {missing} not found; skipping the VOP flags drift check");
        return;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::env::temp_dir().join(format!("arch-vop-flags-{}.rs", std::process::id()));
    let status = std::process::Command::new("python3")
        .arg(root.join("isa/vop_flags.py"))
        .arg(&out)
        .status()
        .expect("run vop_flags.py");
    assert!(status.success(), "vop_flags.py failed");
    let fresh = std::fs::read_to_string(&out).expect("fresh flags");
    let _ = std::fs::remove_file(&out);
    let committed = include_str!("flags.rs");
    assert!(
        fresh == committed,
        "flags.rs differs from a fresh run of hw/arch/isa/vop_flags.py"
    );
}

/// Checks a file of cases named by `VOP_CASES` (a development aid for comparing
/// against freshly generated LLVM output, e.g. random encodings); skipped when unset.
#[test]
fn cases_from_file() {
    let Ok(path) = std::env::var("VOP_CASES") else {
        return;
    };
    let text = std::fs::read_to_string(&path).expect("VOP_CASES file");
    let (total, failures) = check_lines(&text);
    eprintln!("{} of {total} cases failed", failures.len());
    for f in failures.iter().take(400) {
        eprintln!("{f}");
    }
}

/// Checks decode-only cases (LLVM's text does not assemble back to the same bytes,
/// e.g. a literal that prints as an inline constant).
fn run_decode_only(target: Target, cases: &[(&str, &str)]) {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(hex, text)| check(target, hex, text, false).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The forms clang emits and the printing rules that are easy to get wrong (wave32).
#[test]
fn gfx1030_wave32_forms() {
    run(
        Target::GFX1030_W32,
        &[
            // VOP3b carry-out printed without _e64 (no 32-bit form on gfx1030).
            ("0x02,0x6a,0x0f,0xd7,0x00,0x00,0x02,0x00", "v_add_co_u32 v2, vcc_lo, s0, v0"),
            // Implicit vcc operands of the 32-bit carry-in form.
            ("0x01,0x02,0x06,0x50", "v_add_co_ci_u32_e32 v3, vcc_lo, s1, v1, vcc_lo"),
            ("0x00,0x7d,0x76,0xd5,0x06,0x00,0x00,0x04", "v_mad_u64_u32 v[0:1], null, s6, s0, v[0:1]"),
            // gfx1030 v_cmpx writes EXEC only: no destination printed, field = exec_lo.
            ("0x7e,0x00,0x94,0xd4,0x01,0x00,0x02,0x00", "v_cmpx_gt_i32_e64 s1, v0"),
            ("0x01,0x00,0x28,0x7d", "v_cmpx_gt_i32_e32 s1, v0"),
            ("0x00,0x00,0xff,0xd6,0x82,0x00,0x02,0x00", "v_lshlrev_b64 v[0:1], 2, v[0:1]"),
            ("0x01,0x05,0x00,0x56", "v_fmac_f32_e32 v0, v1, v2"),
            ("0x00,0x00,0x01,0xd5,0x80,0x02,0x01,0x00", "v_cndmask_b32_e64 v0, 0, 1, s0"),
            ("0x00,0x02,0x01,0xd5,0x01,0x05,0x02,0x20", "v_cndmask_b32_e64 v0, -v1, |v2|, s0"),
            // A negated constant prints as neg(...) (a bare `-` would be another constant).
            ("0x00,0x00,0x03,0xd5,0xf2,0x02,0x02,0x20", "v_add_f32_e64 v0, neg(1.0), v1"),
            ("0x00,0x01,0x03,0xd5,0xf2,0x02,0x02,0x20", "v_add_f32_e64 v0, -|1.0|, v1"),
            ("0x00,0x82,0x03,0xd5,0x01,0x05,0x02,0x28", "v_add_f32_e64 v0, -v1, |v2| clamp mul:2"),
            ("0x00,0x01,0x03,0xd5,0x01,0x04,0x02,0x38", "v_add_f32_e64 v0, -|s1|, v2 div:2"),
            // op_sel lists one bit per source plus the destination.
            ("0x05,0x48,0x40,0xd7,0x01,0x05,0x0e,0x04", "v_mad_u16 v5, v1, v2, v3 op_sel:[1,0,0,1]"),
            ("0x05,0x08,0x03,0xd7,0x01,0x05,0x02,0x00", "v_add_nc_u16 v5, v1, v2 op_sel:[1,0,0]"),
            ("0x01,0x18,0x77,0xd7,0x02,0x07,0x10,0x00", "v_permlane16_b32 v1, v2, s3, s4 op_sel:[1,1]"),
            ("0x00,0x00,0x69,0xd5,0x01,0xff,0x01,0x00,0x34,0x12,0x00,0x00", "v_mul_lo_u32 v0, v1, 0x1234"),
            // VOP3P: op_sel_hi defaults to all ones (also the unused third bit).
            ("0x00,0x40,0x0e,0xcc,0x01,0x05,0x0e,0x1c", "v_pk_fma_f16 v0, v1, v2, v3"),
            (
                "0x00,0xcc,0x0e,0xcc,0x01,0x05,0x0e,0x34",
                "v_pk_fma_f16 v0, v1, v2, v3 op_sel:[1,0,0] op_sel_hi:[0,1,1] neg_lo:[1,0,0] neg_hi:[0,0,1] clamp",
            ),
            ("0x00,0x40,0x0a,0xcc,0x01,0x05,0x02,0x00", "v_pk_add_u16 v0, v1, v2 op_sel_hi:[0,0]"),
            // v_fma_mix*: default op_sel_hi 0, neg_lo/neg_hi print as -x / |x|.
            (
                "0x00,0x0e,0x20,0xcc,0x01,0x05,0x0e,0xac",
                "v_fma_mix_f32 v0, -v1, |v2|, -|v3| op_sel:[1,0,0] op_sel_hi:[1,0,0]",
            ),
            ("0x00,0x00,0x64,0xd5,0xff,0x04,0x02,0x00,0x00,0x00,0xf8,0x3f", "v_add_f64 v[0:1], 0x3ff80000, v[2:3]"),
            // The K constant prints as the raw dword, also for f16.
            ("0x01,0x05,0x00,0x5a,0x00,0x00,0x20,0x41", "v_fmaak_f32 v0, v1, v2, 0x41200000"),
            ("0x01,0x05,0x00,0x58,0x00,0x00,0x20,0x41", "v_fmamk_f32 v0, v1, 0x41200000, v2"),
            ("0x02,0x07,0x02,0x70,0x00,0x3c,0x00,0x00", "v_fmaak_f16 v1, v2, v3, 0x3c00"),
            ("0x01,0x05,0x00,0x7e", "v_readfirstlane_b32 s0, v1"),
            ("0x00,0x00,0x60,0xd7,0x01,0x07,0x01,0x00", "v_readlane_b32 s0, v1, 3"),
            ("0x00,0x00,0x00,0x7e", "v_nop"),
            ("0x01,0xcb,0x00,0x7e", "v_swap_b32 v0, v1"),
            // SDWA: an SGPR source (s0 bit), VOPC with an explicit sdst (sd bit).
            (
                "0xf9,0x04,0x00,0x38,0x01,0x06,0x80,0x06",
                "v_or_b32_sdwa v0, s1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD",
            ),
            ("0xf9,0x04,0x84,0x7d,0x01,0x85,0x00,0x06", "v_cmp_eq_u32_sdwa s5, v1, v2 src0_sel:BYTE_0 src1_sel:DWORD"),
            (
                "0xf9,0x04,0x00,0x06,0x01,0x66,0x16,0x26",
                "v_add_f32_sdwa v0, -v1, |v2| clamp mul:2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD",
            ),
            (
                "0xfa,0x04,0x00,0x06,0x01,0x01,0x9d,0xa1",
                "v_add_f32_dpp v0, -v1, |v2| row_shl:1 row_mask:0xa bank_mask:0x1 bound_ctrl:1 fi:1",
            ),
            ("0xfa,0x04,0x00,0x06,0x01,0x53,0x01,0xff", "v_add_f32_dpp v0, v1, v2 row_share:3 row_mask:0xf bank_mask:0xf"),
            ("0xea,0x04,0x00,0x06,0x01,0x77,0x39,0x05", "v_add_f32_dpp v0, v1, v2 dpp8:[7,6,5,4,3,2,1,0] fi:1"),
        ],
    );
    run_decode_only(
        Target::GFX1030_W32,
        &[
            // Literals equal to an inline constant of the operand type print as it.
            (
                "0xff,0x02,0x00,0x06,0x00,0x00,0x80,0x3f",
                "v_add_f32_e32 v0, 1.0, v1",
            ),
            (
                "0xff,0x02,0x00,0x06,0xf0,0xff,0xff,0xff",
                "v_add_f32_e32 v0, -16, v1",
            ),
            (
                "0xff,0x02,0x00,0x64,0x00,0x3c,0x01,0x00",
                "v_add_f16_e32 v0, 1.0, v1",
            ),
            (
                "0x00,0x00,0x64,0xd5,0xff,0x04,0x02,0x00,0x00,0x00,0xf0,0x3f",
                "v_add_f64 v[0:1], 1.0, v[2:3]",
            ),
            // An inline float on a 16-bit integer operand prints as the half's bits.
            (
                "0x00,0x00,0x03,0xd7,0xf2,0x02,0x02,0x00",
                "v_add_nc_u16 v0, 0x3c00, v1",
            ),
            // An odd SGPR for a 64-bit operand names the aligned pair.
            ("0x07,0x30,0x10,0x7f", "v_ceil_f64_e32 v[136:137], s[6:7]"),
        ],
    );
}

/// Wave64 lane masks: `vcc`, SGPR pairs.
#[test]
fn gfx1030_wave64_forms() {
    run(
        Target::GFX1030_W64,
        &[
            (
                "0x02,0x6a,0x0f,0xd7,0x00,0x00,0x02,0x00",
                "v_add_co_u32 v2, vcc, s0, v0",
            ),
            (
                "0x01,0x02,0x06,0x50",
                "v_add_co_ci_u32_e32 v3, vcc, s1, v1, vcc",
            ),
            (
                "0x00,0x00,0x01,0xd5,0x80,0x02,0x01,0x00",
                "v_cndmask_b32_e64 v0, 0, 1, s[0:1]",
            ),
            (
                "0x04,0x00,0x84,0xd4,0x01,0x00,0x02,0x00",
                "v_cmp_gt_i32_e64 s[4:5], s1, v0",
            ),
            (
                "0x00,0x7d,0x76,0xd5,0x06,0x00,0x00,0x04",
                "v_mad_u64_u32 v[0:1], null, s6, s0, v[0:1]",
            ),
        ],
    );
}

/// GCN3 forms: carries through vcc, v_mac, SDWA for byte code, VOPC SDWA unsuffixed.
#[test]
fn gfx803_forms() {
    run(
        Target::GFX803,
        &[
            ("0x06,0x00,0x00,0x32", "v_add_u32_e32 v0, vcc, s6, v0"),
            ("0x03,0x03,0x06,0x38", "v_addc_u32_e32 v3, vcc, v3, v1, vcc"),
            ("0x00,0x04,0x19,0xd1,0x06,0x00,0x02,0x00", "v_add_u32_e64 v0, s[4:5], s6, v0"),
            ("0x01,0x05,0x00,0x2c", "v_mac_f32_e32 v0, v1, v2"),
            ("0x01,0x05,0x00,0x30,0x00,0x00,0x20,0x41", "v_madak_f32 v0, v1, v2, 0x41200000"),
            ("0x00,0x00,0xd4,0xd0,0x01,0x00,0x02,0x00", "v_cmpx_gt_i32_e64 s[0:1], s1, v0"),
            ("0x01,0x00,0xa8,0x7d", "v_cmpx_gt_i32_e32 vcc, s1, v0"),
            (
                "0xf9,0x04,0x00,0x28,0x01,0x01,0x00,0x06",
                "v_or_b32_sdwa v0, v1, v2 dst_sel:BYTE_1 dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD",
            ),
            (
                "0xf9,0x04,0x00,0x32,0x01,0x06,0x06,0x08",
                "v_add_u32_sdwa v0, vcc, v1, sext(v2) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_0",
            ),
            ("0xf9,0x04,0x94,0x7d,0x01,0x00,0x00,0x06", "v_cmp_eq_u32 vcc, v1, v2 src0_sel:BYTE_0 src1_sel:DWORD"),
            ("0xfa,0x02,0x00,0x7e,0x01,0x30,0x01,0x1f", "v_mov_b32_dpp v0, v1 wave_shl:1 row_mask:0x1 bank_mask:0xf"),
            ("0x00,0x00,0x8f,0xd2,0x82,0x00,0x02,0x00", "v_lshlrev_b64 v[0:1], 2, v[0:1]"),
            ("0x00,0x6a,0xe0,0xd1,0x01,0x05,0x0e,0x04", "v_div_scale_f32 v0, vcc, v1, v2, v3"),
        ],
    );
}

/// Bad input gives the right error, never a panic.
#[test]
fn errors_name_the_problem() {
    use crate::isa::DecodeError;
    let t = Target::GFX1030_W32;
    // VOP3 needs 8 bytes; a literal 4 more.
    assert!(matches!(
        decode(t, &bytes("0x00,0x00,0x03,0xd5")),
        Err(DecodeError::Truncated { .. })
    ));
    assert!(matches!(
        decode(t, &bytes("0x00,0x00,0x03,0xd5,0xff,0x02,0x02,0x00")),
        Err(DecodeError::Truncated { .. })
    ));
    // A nonzero unused source field, a constant as a destination.
    assert!(matches!(
        decode(t, &bytes("0x00,0x00,0x03,0xd5,0x01,0x05,0x0a,0x00")),
        Err(DecodeError::InvalidOperand { .. })
    ));
    assert!(matches!(
        decode(t, &bytes("0xa2,0x00,0xce,0xd4,0x05,0x25,0x02,0x00")),
        Err(DecodeError::InvalidOperand { .. })
    ));
    // VOPC has no DPP form; gfx803 VOP3 has no literal.
    assert!(decode(t, &bytes("0xfa,0x04,0x84,0x7d,0x01,0xe4,0x00,0xff")).is_err());
    assert!(decode(
        Target::GFX803,
        &bytes("0x00,0x00,0x01,0xd1,0xff,0x04,0x02,0x00,0x00,0x00,0x00,0x00")
    )
    .is_err());
    let e = assemble_line(t, "v_add_f32 v0, v1, bogus").unwrap_err();
    assert_eq!(e.column, 19, "{e}");
    let e = assemble_line(t, "v_add_f32_e64 v0, v1, v2 mul:3").unwrap_err();
    assert_eq!(e.column, 26, "{e}");
    assert!(
        assemble_line(t, "v_add_co_u32 v0, s[0:1], v1, v2").is_err(),
        "wave32 lane mask is one SGPR"
    );
}

/// Fields a row has no operand for must be zero (one mask per row, shared by
/// the reference and fast decoders): llvm-mc-19 decodes `0x00000000` as gfx1030's
/// `v_illegal` and `0x7e000000` as `v_nop`, and rejects the same words with a
/// non-zero `src0`, `vdst` or `vsrc1` field ("invalid instruction encoding";
/// gfx803 decodes the VOP2 ones as `v_cndmask_b32`). LLVM ignores `v_nop`'s
/// `src0` field, which is rejected here so that every word re-encodes to itself.
#[test]
fn unused_fields_must_be_zero() {
    use crate::isa::DecodeError;
    let t = Target::GFX1030_W32;
    let word = |w: u32| decode(t, &w.to_le_bytes());
    assert_eq!(word(0).unwrap().to_string(), "v_illegal");
    assert_eq!(word(0x7e00_0000).unwrap().to_string(), "v_nop");
    for (w, field) in [
        (0x0000_0001, "src0 field is 1"),
        (0x0002_0000, "vdst field is 1"),
        (0x0000_0200, "vsrc1 field is 1"),
        (0x7e02_0000, "vdst field is 1"),
        (0x7e00_0001, "src0 field is 1"),
    ] {
        let e = word(w).unwrap_err();
        assert!(
            matches!(e, DecodeError::InvalidOperand { .. }),
            "{w:#x}: {e}"
        );
        assert!(e.to_string().contains(field), "{w:#x}: {e}");
    }
    let gfx803 = decode(Target::GFX803, &0x0000_0200u32.to_le_bytes()).unwrap();
    assert_eq!(gfx803.to_string(), "v_cndmask_b32_e32 v0, s0, v1, vcc");
}

proptest::proptest! {
    /// Arbitrary words never panic; whatever decodes re-encodes to the same bytes and
    /// prints something the assembler reads without panicking.
    #[test]
    fn arbitrary_words_round_trip(words in proptest::array::uniform3(proptest::prelude::any::<u32>()), pick in 0usize..8) {
        // Steer the first word into the VOP families half of the time.
        let prefixes = [0x7e00_0000u32, 0x7c00_0000, 0x0000_0000, 0xd400_0000, 0xcc00_0000, 0xd000_0000];
        let mut w = words;
        if let Some(p) = prefixes.get(pick) {
            w[0] = p | (w[0] & if *p == 0 { 0x7dff_ffff } else { 0x03ff_ffff });
        }
        let b: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        for target in [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64] {
            if let Ok(inst) = decode(target, &b) {
                let mut out = Vec::new();
                encode(&inst, &mut out).map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{inst}: {e}")))?;
                proptest::prop_assert_eq!(&out[..], &b[..usize::from(inst.size)], "{}", inst);
                let _ = assemble_line(target, &inst.to_string());
            }
        }
    }
}
