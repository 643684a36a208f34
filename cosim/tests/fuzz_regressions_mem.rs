//! Regression tests of the random-program lockstep fuzzer's memory families
//! (MTBUF, MUBUF atomics and formats, FLAT, SCRATCH, the DS forms): each
//! bug test is a minimal program the shrinker produced, failing before its
//! fix (docs/reliability.md, "Bugs found and fixed: memory"), and the data
//! tests check that the new forms really move data to where they should.

use arch::isa::asm::assemble_line;
use arch::isa::Target;
use cosim::fuzz::mem::{self, MemFamily};
use cosim::fuzz::{self, gen, Item, Program, Verdict};

/// A program of the random prologue (fixed seed), optionally an EXEC mask,
/// then `body` (one instruction a line, LLVM syntax).
fn program(target: Target, exec: Option<u64>, body: &str) -> Program {
    let mut rng = gen::Rng::new(0x5eed);
    let mut p = Program::random(&mut rng, target, &[], 0);
    if let Some(m) = exec {
        p.body.push(Item::SetExec(m));
    }
    for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let inst = assemble_line(target, line)
            .unwrap_or_else(|e| panic!("{line}: {e}"))
            .expect("an instruction");
        p.body.push(Item::Inst(inst));
    }
    p
}

/// Runs `body` in lockstep on both wave sizes, with all lanes and with a
/// divergent EXEC, and requires agreement.
fn agree(body: &str) {
    for target in [Target::GFX1030_W32, Target::GFX1030_W64] {
        for exec in [None, Some(0x0f0f_3c3c_a5a5_f00f)] {
            let exec = exec.map(|m| if target.wave64 { m } else { m & 0xffff_ffff });
            let p = program(target, exec, body);
            let v = fuzz::run(&p, None);
            assert_eq!(
                v,
                Verdict::Agree,
                "wave{}:\n{}",
                target.wave_size(),
                p.body_text()
            );
        }
    }
}

/// `ds_bpermute_b32`/`ds_permute_b32` on gfx1030 select a lane of the
/// caller's own 32-lane half (a wave64 permutes its halves separately); the
/// golden GPU selected among all 64 lanes of a wave64.
#[test]
fn wave64_permutes_stay_in_their_half() {
    agree(
        "ds_bpermute_b32 v14, v9, v10 offset:57833
         s_waitcnt lgkmcnt(0)
         v_lshlrev_b32 v15, 2, v0
         v_add_nc_u32 v15, 0x80, v15
         ds_bpermute_b32 v16, v15, v11
         s_waitcnt lgkmcnt(0)
         ds_permute_b32 v17, v15, v12 offset:4
         s_waitcnt lgkmcnt(0)",
    );
}

/// Float atomic min/max (DS, GLOBAL, FLAT, MUBUF) are IEEE minNum/maxNum:
/// a NaN in memory loses to a number, -0 is below +0. The golden GPU kept a
/// NaN in memory and kept the old value of equal zeros.
#[test]
fn float_atomic_min_max_are_min_num() {
    agree(
        "v_mov_b32 v5, 0x7fc00000
         v_mov_b32 v6, 1.0
         v_mov_b32 v7, 0x80000000
         v_mov_b32 v8, 0
         ds_write_b32 v27, v5
         ds_write_b32 v27, v7 offset:4
         s_waitcnt lgkmcnt(0)
         ds_min_f32 v27, v6
         ds_max_f32 v27, v8 offset:4
         s_waitcnt lgkmcnt(0)
         ds_read_b64 v[9:10], v27
         s_waitcnt lgkmcnt(0)
         global_store_dword v28, v5, s[4:5]
         global_store_dword v28, v7, s[4:5] offset:4
         s_waitcnt_vscnt null, 0
         global_atomic_fmax v11, v28, v6, s[4:5] glc
         s_waitcnt vmcnt(0)
         global_atomic_fmin v12, v28, v8, s[4:5] offset:4 glc
         s_waitcnt vmcnt(0)
         global_load_dwordx2 v[13:14], v28, s[4:5]
         s_waitcnt vmcnt(0)
         global_atomic_fmin_x2 v28, v[17:18], s[4:5] offset:40
         s_waitcnt_vscnt null, 0",
    );
}

/// `ds_swizzle_b32` offsets 0xc000 and up (gfx1030's rotate and FFT modes)
/// stopped the clocked GPU ("not implemented in the cycle model").
#[test]
fn swizzle_rotate_and_fft_modes() {
    agree(
        "ds_swizzle_b32 v1, v2 offset:0xc123
         ds_swizzle_b32 v3, v4 offset:0xc5e3
         ds_swizzle_b32 v5, v6 offset:0xe00f
         ds_swizzle_b32 v7, v8 offset:0xffff
         s_waitcnt lgkmcnt(0)",
    );
}

/// The packed buffer formats 10_11_11 and 11_11_10 (codes 30..=43, the
/// FLOAT ones unsigned 11/10-bit floats) stopped the clocked GPU.
#[test]
fn packed_buffer_formats() {
    let mut body = String::new();
    for code in 30..=43 {
        body += &format!(
            "tbuffer_store_format_xyz v[1:3], v28, s[36:39], 0 format:{code} offen offset:16
             s_waitcnt_vscnt null, 0
             tbuffer_load_format_xyzw v[4:7], v28, s[36:39], 0 format:{code} offen offset:16
             s_waitcnt vmcnt(0)
             tbuffer_load_format_d16_xyz v[8:9], v30, s[36:39], 0 format:{code} offen offset:32
             s_waitcnt vmcnt(0)
             tbuffer_store_format_d16_x v10, v28, s[36:39], 0 format:{code} offen offset:48
             s_waitcnt_vscnt null, 0\n"
        );
    }
    agree(&body);
}

/// Every row of every memory family assembles as the generator writes it,
/// and each family draws every one of its table rows.
#[test]
fn every_memory_row_assembles() {
    let mut rng = gen::Rng::new(0x3e3);
    for family in MemFamily::ALL {
        let rows = mem::rows(family);
        assert!(!rows.is_empty(), "{family:?}");
        for row in rows {
            for _ in 0..8 {
                let lines = mem::row_text(&mut rng, row);
                for target in [Target::GFX1030_W32, Target::GFX1030_W64] {
                    let insts = mem::assemble_item(&lines, target)
                        .unwrap_or_else(|e| panic!("{family:?}: {e}"));
                    assert!(
                        insts.iter().any(|i| i.opcode == row.opcode),
                        "{lines:?} lacks {}",
                        row.opcode.mnemonic()
                    );
                }
            }
        }
    }
    // The only rows left out are the GDS ones.
    let ds = mem::rows(MemFamily::Ds).len();
    let all_ds = arch::isa::tables::tables(arch::isa::Isa::Gfx1030)
        .rows
        .iter()
        .filter(|r| r.family == arch::isa::Family::Ds)
        .count();
    assert_eq!(all_ds - ds, 7, "GWS (6) and ds_ordered_count");
    for family in [
        MemFamily::Mubuf,
        MemFamily::Mtbuf,
        MemFamily::Flat,
        MemFamily::Scratch,
        MemFamily::Global,
    ] {
        let all = arch::isa::tables::tables(arch::isa::Isa::Gfx1030)
            .rows
            .iter()
            .filter(|r| r.family == family.family())
            .count();
        assert_eq!(mem::rows(family).len(), all, "{family:?}");
    }
}

/// Each family alone, a slice of programs dense in memory items, in
/// lockstep (`gpusim fuzz-lockstep --mem F --mem-percent 40`).
#[test]
fn each_memory_family_agrees_in_lockstep() {
    for family in MemFamily::ALL {
        let mix = fuzz::MemMix {
            families: vec![family],
            percent: 40,
        };
        let report = fuzz::fuzz_lockstep_with(50, 6, 80, &mix, None, false, &mut |_| {});
        assert!(
            report.failures.is_empty(),
            "{family:?}: {:?}",
            report.failures
        );
    }
}

/// The new forms move data: FLAT through the 64-bit slice address, SCRATCH
/// through `vaddr`, `saddr` and neither (one private location), MTBUF with a
/// raw and a converting format, a MUBUF atomic's old value and new memory,
/// the DS two-address and `st64` forms, and a wave32 `ds_bpermute_b32`.
#[test]
fn new_memory_forms_move_data() {
    let target = Target::GFX1030_W32;
    // The input slot of v_r is lane * 128 + 4 * r; the epilogue stores v_r
    // at 0x2000 + lane * 128 + 4 * r.
    let p = program(
        target,
        None,
        "flat_load_dword v5, v[35:36] offset:8
         s_waitcnt vmcnt(0)
         scratch_store_dword v39, v3, off offset:16
         s_waitcnt_vscnt null, 0
         scratch_load_dword v6, v39, off offset:16
         s_waitcnt vmcnt(0)
         scratch_store_dword off, v4, s45 offset:-64
         s_waitcnt_vscnt null, 0
         scratch_load_dword v7, off, off offset:64
         s_waitcnt vmcnt(0)
         tbuffer_load_format_x v8, v30, s[36:39], 0 format:[BUF_FMT_32_FLOAT] offen offset:36
         s_waitcnt vmcnt(0)
         tbuffer_load_format_x v9, v30, s[36:39], 0 format:[BUF_FMT_8_UINT] offen offset:40
         s_waitcnt vmcnt(0)
         buffer_atomic_add v10, v28, s[36:39], 0 offen glc
         s_waitcnt vmcnt(0)
         ds_write2_b32 v27, v11, v12 offset1:3
         s_waitcnt lgkmcnt(0)
         ds_read2_b32 v[13:14], v27 offset0:3
         s_waitcnt lgkmcnt(0)
         ds_write2st64_b32 v40, v15, v16 offset0:1 offset1:2
         s_waitcnt lgkmcnt(0)
         ds_read2st64_b32 v[17:18], v40 offset0:2 offset1:1
         s_waitcnt lgkmcnt(0)
         v_xor_b32 v42, 1, v0
         v_lshlrev_b32 v42, 2, v42
         ds_bpermute_b32 v19, v42, v20
         s_waitcnt lgkmcnt(0)",
    );
    assert_eq!(fuzz::run(&p, None), Verdict::Agree);
    let out = fuzz::run_and_read(&p, None).1.expect("the program ran");
    let word = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    for lane in 0..32 {
        let input = |r: usize| word(&p.data, lane * 128 + 4 * r);
        let output = |r: usize| word(&out, 0x2000 + lane * 128 + 4 * r);
        let scratch_old = word(&p.data, 0x6000 + lane * 128);
        assert_eq!(output(5), input(2), "flat load, lane {lane}");
        assert_eq!(output(6), input(3), "scratch vaddr round trip, lane {lane}");
        assert_eq!(output(7), input(4), "scratch saddr/off, lane {lane}");
        assert_eq!(output(8), input(9), "tbuffer 32_FLOAT, lane {lane}");
        assert_eq!(output(9), input(10) & 0xff, "tbuffer 8_UINT, lane {lane}");
        assert_eq!(output(10), scratch_old, "atomic old value, lane {lane}");
        assert_eq!(
            word(&out, 0x6000 + lane * 128),
            scratch_old.wrapping_add(input(10)),
            "atomic add in memory, lane {lane}"
        );
        assert_eq!(
            (output(13), output(14)),
            (input(12), input(11)),
            "ds read2/write2, lane {lane}"
        );
        assert_eq!(
            (output(17), output(18)),
            (input(16), input(15)),
            "ds st64, lane {lane}"
        );
        let partner = |r: usize| word(&p.data, (lane ^ 1) * 128 + 4 * r);
        assert_eq!(output(19), partner(20), "ds_bpermute, lane {lane}");
    }
}
