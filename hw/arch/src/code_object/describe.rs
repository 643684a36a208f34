//! The human summary `gpusim info FILE` prints.

use std::fmt::{self, Write as _};

use super::descriptor::{
    ComputePgmRsrc1, ComputePgmRsrc2, ComputePgmRsrc3, KernelCodeProperties, KernelDescriptor,
};
use super::{CodeObject, FeatureSetting, Kernel};

/// Writes `name value` rows with the values in one column.
fn rows(out: &mut String, indent: usize, rows: &[(&str, String)]) {
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    for (name, value) in rows {
        let _ = writeln!(out, "{:indent$}{name:<width$}  {value}", "");
    }
}

fn feature(f: FeatureSetting) -> &'static str {
    match f {
        FeatureSetting::Unsupported => "unsupported",
        FeatureSetting::Any => "any",
        FeatureSetting::Off => "off",
        FeatureSetting::On => "on",
    }
}

fn b(v: bool) -> String {
    u8::from(v).to_string()
}

fn rsrc1(r: &ComputePgmRsrc1) -> Vec<(&'static str, String)> {
    vec![
        (
            "granulated_workitem_vgpr_count",
            r.granulated_workitem_vgpr_count.to_string(),
        ),
        (
            "granulated_wavefront_sgpr_count",
            r.granulated_wavefront_sgpr_count.to_string(),
        ),
        ("priority", r.priority.to_string()),
        ("float_round_mode_32", r.float_round_mode_32.to_string()),
        (
            "float_round_mode_16_64",
            r.float_round_mode_16_64.to_string(),
        ),
        ("float_denorm_mode_32", r.float_denorm_mode_32.to_string()),
        (
            "float_denorm_mode_16_64",
            r.float_denorm_mode_16_64.to_string(),
        ),
        ("priv", b(r.privileged)),
        ("enable_dx10_clamp", b(r.enable_dx10_clamp)),
        ("debug_mode", b(r.debug_mode)),
        ("enable_ieee_mode", b(r.enable_ieee_mode)),
        ("bulky", b(r.bulky)),
        ("cdbg_user", b(r.cdbg_user)),
        ("fp16_ovfl", b(r.fp16_ovfl)),
        ("wgp_mode", b(r.wgp_mode)),
        ("mem_ordered", b(r.mem_ordered)),
        ("fwd_progress", b(r.fwd_progress)),
    ]
}

fn rsrc2(r: &ComputePgmRsrc2) -> Vec<(&'static str, String)> {
    vec![
        (
            "enable_sgpr_private_segment_wave_byte_offset",
            b(r.enable_sgpr_private_segment_wave_byte_offset),
        ),
        ("user_sgpr_count", r.user_sgpr_count.to_string()),
        ("enable_trap_handler", b(r.enable_trap_handler)),
        (
            "enable_sgpr_workgroup_id_x",
            b(r.enable_sgpr_workgroup_id_x),
        ),
        (
            "enable_sgpr_workgroup_id_y",
            b(r.enable_sgpr_workgroup_id_y),
        ),
        (
            "enable_sgpr_workgroup_id_z",
            b(r.enable_sgpr_workgroup_id_z),
        ),
        (
            "enable_sgpr_workgroup_info",
            b(r.enable_sgpr_workgroup_info),
        ),
        (
            "enable_vgpr_workitem_id",
            r.enable_vgpr_workitem_id.to_string(),
        ),
        (
            "enable_exception_address_watch",
            b(r.enable_exception_address_watch),
        ),
        ("enable_exception_memory", b(r.enable_exception_memory)),
        ("granulated_lds_size", r.granulated_lds_size.to_string()),
        (
            "enable_exception_ieee_754_fp_invalid_operation",
            b(r.enable_exception_ieee_754_fp_invalid_operation),
        ),
        (
            "enable_exception_fp_denormal_source",
            b(r.enable_exception_fp_denormal_source),
        ),
        (
            "enable_exception_ieee_754_fp_division_by_zero",
            b(r.enable_exception_ieee_754_fp_division_by_zero),
        ),
        (
            "enable_exception_ieee_754_fp_overflow",
            b(r.enable_exception_ieee_754_fp_overflow),
        ),
        (
            "enable_exception_ieee_754_fp_underflow",
            b(r.enable_exception_ieee_754_fp_underflow),
        ),
        (
            "enable_exception_ieee_754_fp_inexact",
            b(r.enable_exception_ieee_754_fp_inexact),
        ),
        (
            "enable_exception_int_divide_by_zero",
            b(r.enable_exception_int_divide_by_zero),
        ),
    ]
}

fn rsrc3(r: &ComputePgmRsrc3) -> Vec<(&'static str, String)> {
    vec![
        ("shared_vgpr_count", r.shared_vgpr_count.to_string()),
        ("inst_pref_size", r.inst_pref_size.to_string()),
        ("trap_on_start", b(r.trap_on_start)),
        ("trap_on_end", b(r.trap_on_end)),
        ("image_op", b(r.image_op)),
    ]
}

fn properties(p: &KernelCodeProperties) -> Vec<(&'static str, String)> {
    vec![
        (
            "enable_sgpr_private_segment_buffer",
            b(p.enable_sgpr_private_segment_buffer),
        ),
        ("enable_sgpr_dispatch_ptr", b(p.enable_sgpr_dispatch_ptr)),
        ("enable_sgpr_queue_ptr", b(p.enable_sgpr_queue_ptr)),
        (
            "enable_sgpr_kernarg_segment_ptr",
            b(p.enable_sgpr_kernarg_segment_ptr),
        ),
        ("enable_sgpr_dispatch_id", b(p.enable_sgpr_dispatch_id)),
        (
            "enable_sgpr_flat_scratch_init",
            b(p.enable_sgpr_flat_scratch_init),
        ),
        (
            "enable_sgpr_private_segment_size",
            b(p.enable_sgpr_private_segment_size),
        ),
        (
            "enable_sgpr_grid_workgroup_count_x",
            b(p.enable_sgpr_grid_workgroup_count_x),
        ),
        (
            "enable_sgpr_grid_workgroup_count_y",
            b(p.enable_sgpr_grid_workgroup_count_y),
        ),
        (
            "enable_sgpr_grid_workgroup_count_z",
            b(p.enable_sgpr_grid_workgroup_count_z),
        ),
        ("enable_wavefront_size32", b(p.enable_wavefront_size32)),
        ("uses_dynamic_stack", b(p.uses_dynamic_stack)),
    ]
}

fn descriptor(out: &mut String, d: &KernelDescriptor) {
    rows(
        out,
        4,
        &[
            (
                "group_segment_fixed_size",
                d.group_segment_fixed_size.to_string(),
            ),
            (
                "private_segment_fixed_size",
                d.private_segment_fixed_size.to_string(),
            ),
            ("kernarg_size", d.kernarg_size.to_string()),
            (
                "kernel_code_entry_byte_offset",
                d.kernel_code_entry_byte_offset.to_string(),
            ),
            (
                "kernarg_preload_length",
                d.kernarg_preload.length.to_string(),
            ),
            (
                "kernarg_preload_offset",
                d.kernarg_preload.offset.to_string(),
            ),
        ],
    );
    let _ = writeln!(
        out,
        "    compute_pgm_rsrc1 0x{:08x}",
        d.compute_pgm_rsrc1.bits()
    );
    rows(out, 6, &rsrc1(&d.compute_pgm_rsrc1));
    let _ = writeln!(
        out,
        "    compute_pgm_rsrc2 0x{:08x}",
        d.compute_pgm_rsrc2.bits()
    );
    rows(out, 6, &rsrc2(&d.compute_pgm_rsrc2));
    let _ = writeln!(
        out,
        "    compute_pgm_rsrc3 0x{:08x}",
        d.compute_pgm_rsrc3.bits()
    );
    rows(out, 6, &rsrc3(&d.compute_pgm_rsrc3));
    let _ = writeln!(
        out,
        "    kernel_code_properties 0x{:04x}",
        d.kernel_code_properties.bits()
    );
    rows(out, 6, &properties(&d.kernel_code_properties));
}

fn args_table(out: &mut String, k: &Kernel) {
    let mut table: Vec<[String; 7]> = vec![[
        "#".into(),
        "name".into(),
        "type".into(),
        "offset".into(),
        "size".into(),
        "value kind".into(),
        "address space".into(),
    ]];
    for (i, a) in k.metadata.args.iter().enumerate() {
        table.push([
            i.to_string(),
            a.name.clone().unwrap_or_else(|| "-".into()),
            a.type_name.clone().unwrap_or_else(|| "-".into()),
            a.offset.to_string(),
            a.size.to_string(),
            a.value_kind.to_string(),
            a.address_space
                .as_ref()
                .map_or_else(|| "-".into(), |s| s.to_string()),
        ]);
    }
    let mut widths = [0usize; 7];
    for row in &table {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    for row in &table {
        let mut line = String::from("    ");
        for (cell, w) in row.iter().zip(widths) {
            let _ = write!(line, "{cell:<w$}  ");
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

impl CodeObject {
    /// A human-readable summary: version, processor, and per kernel its entry,
    /// descriptor fields, segment sizes, wave size, register counts and an
    /// argument table.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "code object v{}, processor {} (e_flags 0x{:x}, xnack {}, sramecc {})",
            self.version.number(),
            self.processor,
            self.e_flags,
            feature(self.xnack),
            feature(self.sramecc)
        );
        if let Some(t) = &self.metadata.target {
            let _ = writeln!(out, "target {t}");
        }
        if let Some(p) = &self.producer {
            let _ = writeln!(out, "producer {p}");
        }
        let r = self.text.range();
        let _ = writeln!(
            out,
            ".text 0x{:x}..0x{:x} ({} bytes)",
            r.start,
            r.end,
            self.text.bytes.len()
        );
        let _ = writeln!(out, "{} kernel(s)", self.kernels.len());
        for k in &self.kernels {
            let m = &k.metadata;
            let _ = writeln!(out, "\nkernel {}", k.name);
            rows(
                &mut out,
                2,
                &[
                    ("entry", format!("0x{:x}", k.entry)),
                    (
                        "code",
                        format!(
                            "0x{:x}..0x{:x} ({} bytes)",
                            k.code_range.start,
                            k.code_range.end,
                            k.code.len()
                        ),
                    ),
                    (
                        "descriptor",
                        format!("{} at 0x{:x}", k.descriptor_symbol, k.descriptor_address),
                    ),
                    ("wavefront size", k.wavefront_size().to_string()),
                    ("sgpr count", m.sgpr_count.to_string()),
                    ("vgpr count", m.vgpr_count.to_string()),
                    (
                        "group segment",
                        format!("{} bytes", m.group_segment_fixed_size),
                    ),
                    (
                        "private segment",
                        format!("{} bytes", m.private_segment_fixed_size),
                    ),
                    (
                        "kernarg segment",
                        format!(
                            "{} bytes, align {}",
                            m.kernarg_segment_size, m.kernarg_segment_align
                        ),
                    ),
                    ("max workgroup size", m.max_flat_workgroup_size.to_string()),
                ],
            );
            let _ = writeln!(out, "  descriptor fields:");
            descriptor(&mut out, &k.descriptor);
            let _ = writeln!(out, "  arguments:");
            if m.args.is_empty() {
                let _ = writeln!(out, "    (none)");
            } else {
                args_table(&mut out, k);
            }
        }
        out
    }
}

impl fmt::Display for CodeObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}
