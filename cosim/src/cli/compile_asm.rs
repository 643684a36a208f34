//! `gpusim compile -S`: the compiled kernels as an assembly file in LLVM's
//! AMDGPU syntax, which `llvm-mc -triple amdgcn-amd-amdhsa -mcpu=gfx1030`
//! assembles back to the same `.text` bytes and kernel descriptors
//! (`cosim/tests/compile_asm.rs` checks both).
//!
//! Branch targets are labels (`.LBB<kernel>_<n>`), not the raw `simm16`
//! the encoder wrote, so the file can be edited and re-assembled. Each
//! kernel's entry is 256-byte aligned with zero fill, the layout of
//! gpusim's code-object writer. The descriptor is written as an
//! `.amdhsa_kernel` block; the metadata note is not (its fields are in a
//! comment), so a loadable code object still comes from `-o K.hsaco`.

use std::collections::BTreeMap;
use std::fmt::Write;

use compiler::backend::CompiledKernel;

/// The assembly for `kernels`, in the code object's order. `extra` gives
/// per-kernel comment lines (the sub-vector pass's report) written after
/// the kernel's code.
pub fn assembly(kernels: &[CompiledKernel], extra: &dyn Fn(&CompiledKernel) -> String) -> String {
    let mut s = String::new();
    // Wave64 is an assembler option, not a directive: say how to assemble.
    let wave64 = kernels
        .first()
        .is_some_and(|k| k.metadata.wavefront_size == 64);
    let mattr = if wave64 {
        " -mattr=+wavefrontsize64"
    } else {
        ""
    };
    let _ = writeln!(
        s,
        "; gpusim compile -S. Assemble: llvm-mc-19 -triple amdgcn-amd-amdhsa -mcpu=gfx1030{mattr} -filetype=obj K.s -o K.o"
    );
    s += "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx1030\"\n";
    s += "\t.amdhsa_code_object_version 5\n";
    s += "\t.text\n";
    for (n, k) in kernels.iter().enumerate() {
        text(&mut s, n, k);
        for line in extra(k).lines() {
            let _ = writeln!(s, "{line}");
        }
    }
    for k in kernels {
        descriptor(&mut s, k);
    }
    s
}

/// One kernel's code: a global function symbol, its instructions and a
/// label before each branch target.
fn text(s: &mut String, n: usize, k: &CompiledKernel) {
    // Every branch target, numbered in address order.
    let targets: BTreeMap<u64, usize> = {
        let mut t: Vec<u64> = k
            .instructions
            .iter()
            .filter_map(|(at, i)| i.branch_target(u64::from(*at)))
            .collect();
        t.sort_unstable();
        t.dedup();
        t.into_iter().enumerate().map(|(i, a)| (a, i)).collect()
    };
    let label = |addr: u64| format!(".LBB{n}_{}", targets[&addr]);
    let name = &k.name;
    let _ = writeln!(s, "\t.globl {name}");
    let _ = writeln!(s, "\t.p2align 8, 0");
    let _ = writeln!(s, "\t.type {name},@function");
    let _ = writeln!(s, "{name}:");
    for (at, i) in &k.instructions {
        let here = u64::from(*at);
        if targets.contains_key(&here) {
            let _ = writeln!(s, "{}:", label(here));
        }
        match i.branch_target(here) {
            Some(to) => {
                // `s_cbranch_execz 21` → `s_cbranch_execz .LBB0_2`: the
                // mnemonic is the first word of the printed form.
                let text = i.to_string();
                let mnemonic = text.split_whitespace().next().unwrap_or_default();
                if targets.contains_key(&to) {
                    let _ = writeln!(s, "\t{mnemonic} {}", label(to));
                } else {
                    // A target that is not an instruction start (never
                    // produced by the back end): keep the raw offset.
                    let _ = writeln!(s, "\t{text}");
                }
            }
            None => {
                let _ = writeln!(s, "\t{i}");
            }
        }
    }
    // A branch to the end of the code (after the last instruction).
    let end = k.code.len() as u64;
    if targets.contains_key(&end) {
        let _ = writeln!(s, "{}:", label(end));
    }
    let _ = writeln!(s, ".Lfunc_end{n}:");
    let _ = writeln!(s, "\t.size {name}, .Lfunc_end{n}-{name}");
    let md = &k.metadata;
    let _ = writeln!(
        s,
        "\t; metadata: {} kernarg bytes (align {}), wave{}, {} SGPRs, {} VGPRs, {} VGPR spill slots",
        md.kernarg_segment_size,
        md.kernarg_segment_align,
        md.wavefront_size,
        md.sgpr_count,
        md.vgpr_count,
        md.vgpr_spill_count.unwrap_or(0)
    );
}

/// The kernel descriptor as `.amdhsa_kernel` directives, decoded from the
/// descriptor gpusim writes so that llvm-mc rebuilds the same 64 bytes.
fn descriptor(s: &mut String, k: &CompiledKernel) {
    let d = &k.descriptor;
    let r1 = d.compute_pgm_rsrc1.bits();
    let r2 = d.compute_pgm_rsrc2.bits();
    let props = d.kernel_code_properties.bits();
    let bit = |v: u32, b: u32| (v >> b) & 1;
    let wave32 = bit(u32::from(props), 10) == 1;
    // llvm-mc derives the VGPR granules from the next free VGPR: one
    // granule is 8 VGPRs in wave32 and 4 in wave64 on gfx10.
    let granule = if wave32 { 8 } else { 4 };
    let next_free_vgpr = ((r1 & 0x3f) + 1) * granule;
    // gfx10 ignores the SGPR granules (always 0); the count only has to
    // cover the user and system SGPRs.
    let next_free_sgpr = k.metadata.sgpr_count.max(1);
    let _ = writeln!(s, "\t.rodata");
    let _ = writeln!(s, "\t.p2align 6, 0");
    let _ = writeln!(s, "\t.amdhsa_kernel {}", k.name);
    let mut dir = |name: &str, v: u32| {
        let _ = writeln!(s, "\t\t.amdhsa_{name} {v}");
    };
    dir("group_segment_fixed_size", d.group_segment_fixed_size);
    dir("private_segment_fixed_size", d.private_segment_fixed_size);
    dir("kernarg_size", d.kernarg_size);
    dir("user_sgpr_count", (r2 >> 1) & 0x1f);
    dir("user_sgpr_private_segment_buffer", bit(u32::from(props), 0));
    dir("user_sgpr_dispatch_ptr", bit(u32::from(props), 1));
    dir("user_sgpr_queue_ptr", bit(u32::from(props), 2));
    dir("user_sgpr_kernarg_segment_ptr", bit(u32::from(props), 3));
    dir("user_sgpr_dispatch_id", bit(u32::from(props), 4));
    dir("user_sgpr_flat_scratch_init", bit(u32::from(props), 5));
    dir("user_sgpr_private_segment_size", bit(u32::from(props), 6));
    dir("wavefront_size32", u32::from(wave32));
    // SCRATCH_EN: gfx10 spells it as the wave offset SGPR (no architected
    // flat scratch).
    dir("system_sgpr_private_segment_wavefront_offset", bit(r2, 0));
    dir("system_sgpr_workgroup_id_x", bit(r2, 7));
    dir("system_sgpr_workgroup_id_y", bit(r2, 8));
    dir("system_sgpr_workgroup_id_z", bit(r2, 9));
    dir("system_sgpr_workgroup_info", bit(r2, 10));
    dir("system_vgpr_workitem_id", (r2 >> 11) & 3);
    dir("next_free_vgpr", next_free_vgpr);
    dir("next_free_sgpr", next_free_sgpr);
    // gpusim's SGPR counts already include VCC where used: reserve nothing.
    dir("reserve_vcc", 0);
    dir("reserve_flat_scratch", 0);
    dir("float_round_mode_32", (r1 >> 12) & 3);
    dir("float_round_mode_16_64", (r1 >> 14) & 3);
    dir("float_denorm_mode_32", (r1 >> 16) & 3);
    dir("float_denorm_mode_16_64", (r1 >> 18) & 3);
    dir("dx10_clamp", bit(r1, 21));
    dir("ieee_mode", bit(r1, 23));
    dir("fp16_overflow", bit(r1, 26));
    dir("workgroup_processor_mode", bit(r1, 29));
    dir("memory_ordered", bit(r1, 30));
    dir("forward_progress", bit(r1, 31));
    dir("shared_vgpr_count", d.compute_pgm_rsrc3.bits() & 0xf);
    let _ = writeln!(s, "\t.end_amdhsa_kernel");
}
