//! Every registered kernel has a source, prebuilt objects for the three
//! targets and oracle files, and the objects' metadata matches the launch.

use std::collections::BTreeSet;
use std::fs;

use corpus::{all, ArgSpec, ElemType, ScalarValue, Target, TARGETS};
use object::read::elf::{ElfFile64, FileHeader};
use object::{Endianness, Object, ObjectSymbol, SymbolKind};

/// `e_flags & EF_AMDGPU_MACH` values (LLVM's ELF.h; `object` does not name them).
const EF_AMDGPU_MACH: u32 = 0xff;
const MACH_GFX803: u32 = 0x2a;
const MACH_GFX1030: u32 = 0x36;

#[test]
fn registry_has_at_least_24_kernels_sorted_and_unique() {
    let names: Vec<&str> = all().iter().map(|k| k.name).collect();
    assert!(names.len() >= 24, "only {} kernels", names.len());
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(
        names, sorted,
        "registry must be sorted by name without duplicates"
    );
    assert_eq!(corpus::find("saxpy").map(|k| k.name), Some("saxpy"));
    assert!(corpus::find("no_such_kernel").is_none());
}

#[test]
fn every_source_file_is_registered_and_every_kernel_has_its_source() {
    let on_disk: BTreeSet<String> = fs::read_dir(corpus::kernels_dir())
        .expect("tests/kernels exists")
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".cl").map(str::to_string))
        .collect();
    let registered: BTreeSet<String> = all().iter().map(|k| k.name.to_string()).collect();
    assert_eq!(on_disk, registered);
    for k in all() {
        let src = fs::read_to_string(k.source_path()).expect("source readable");
        assert!(
            src.contains("#include \"gpusim_cl.h\""),
            "{}: must include gpusim_cl.h",
            k.name
        );
        assert!(
            src.contains(&format!("void\n{}(", k.name))
                || src.contains(&format!("void {}(", k.name)),
            "{}: the kernel function must be named after the file",
            k.name
        );
        assert_eq!(
            src.matches("__kernel").count(),
            1,
            "{}: one kernel per file",
            k.name
        );
    }
}

#[test]
fn prebuilt_objects_are_amdgpu_elf_with_the_kernel_symbol_and_nothing_undefined() {
    for k in all() {
        for t in TARGETS {
            let data = k
                .load_prebuilt(t)
                .unwrap_or_else(|e| panic!("{} {t:?}: {e}", k.name));
            let elf = ElfFile64::<Endianness>::parse(&*data)
                .unwrap_or_else(|e| panic!("{}: {e}", k.name));
            let h = elf.elf_header();
            assert_eq!(
                h.e_machine(elf.endian()),
                object::elf::EM_AMDGPU,
                "{}",
                k.name
            );
            let mach = h.e_flags(elf.endian()) & EF_AMDGPU_MACH;
            let want = if t == Target::GFX803 {
                MACH_GFX803
            } else {
                MACH_GFX1030
            };
            assert_eq!(mach, want, "{} {t:?}: wrong e_flags machine", k.name);
            let func = elf
                .symbols()
                .find(|s| s.name() == Ok(k.name))
                .unwrap_or_else(|| panic!("{} {t:?}: no symbol named like the kernel", k.name));
            assert_eq!(func.kind(), SymbolKind::Text, "{}", k.name);
            assert!(func.size() > 0, "{}", k.name);
            let kd = format!("{}.kd", k.name);
            assert!(
                elf.symbols().any(|s| s.name() == Ok(kd.as_str())),
                "{}: no kernel descriptor",
                k.name
            );
            for s in elf.symbols() {
                assert!(
                    !(s.is_undefined() && s.name().is_ok_and(|n| !n.is_empty())),
                    "{} {t:?}: unresolved symbol {:?}",
                    k.name,
                    s.name()
                );
            }
        }
    }
}

#[test]
fn oracle_disassembly_names_the_object_and_the_kernel_and_has_no_calls() {
    for k in all() {
        for t in TARGETS {
            let dis =
                fs::read_to_string(k.expected_disassembly_path(t)).expect("disassembly present");
            assert!(
                dis.starts_with(&format!("\n{}.hsaco:\tfile format elf64-amdgpu\n", k.name)),
                "{} {t:?}: .dis must be objdump output run inside prebuilt/",
                k.name
            );
            assert!(
                dis.contains(&format!("<{}>:\n", k.name)),
                "{} {t:?}",
                k.name
            );
            assert!(dis.contains("s_endpgm"), "{} {t:?}", k.name);
            assert!(
                !dis.contains("s_swappc") && !dis.contains("s_setpc"),
                "{} {t:?}: calls",
                k.name
            );
        }
    }
}

/// The metadata of the (single) kernel in a `llvm-readelf --notes` dump:
/// the explicit arguments as (type_name, value_kind), which of them are
/// `const` pointers, and the kernel fields.
struct Note {
    args: Vec<(String, String)>,
    is_const: Vec<usize>,
    fields: Vec<(String, String)>,
}

impl Note {
    fn parse(text: &str) -> Note {
        let mut args: Vec<(String, String)> = Vec::new();
        let mut fields = Vec::new();
        let mut is_const = Vec::new();
        let (mut in_args, mut ty, mut kind) = (false, String::new(), String::new());
        let flush = |ty: &mut String, kind: &mut String, args: &mut Vec<(String, String)>| {
            if !kind.is_empty() && !kind.starts_with("hidden_") {
                args.push((std::mem::take(ty), std::mem::take(kind)));
            }
            ty.clear();
            kind.clear();
        };
        for line in text.lines() {
            if line == "  - .args:" {
                in_args = true;
                continue;
            }
            if in_args && line.starts_with("      - ") {
                flush(&mut ty, &mut kind, &mut args);
            }
            if in_args && line.starts_with("    .") {
                flush(&mut ty, &mut kind, &mut args);
                in_args = false;
            }
            let body = line.trim_start().trim_start_matches("- ");
            let Some((key, value)) = body.split_once(':') else {
                continue;
            };
            let value = value.trim().trim_matches('\'').to_string();
            if in_args {
                match key {
                    ".type_name" => ty = value,
                    ".value_kind" => kind = value,
                    // Hidden arguments are never const, so the index is the
                    // explicit argument's.
                    ".is_const" if value == "true" => is_const.push(args.len()),
                    _ => {}
                }
            } else if line.starts_with("    .") {
                fields.push((key.trim().to_string(), value));
            }
        }
        Note {
            args,
            is_const,
            fields,
        }
    }

    fn field(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn number(&self, key: &str) -> u64 {
        self.field(key)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no numeric {key}"))
    }
}

fn note(k: &corpus::CorpusKernel, t: Target) -> Note {
    Note::parse(&fs::read_to_string(k.expected_notes_path(t)).expect("notes present"))
}

#[test]
fn launch_arguments_match_the_kernel_signature_in_the_metadata() {
    for k in all() {
        for t in TARGETS {
            let n = note(k, t);
            assert_eq!(n.field(".name"), Some(k.name));
            assert_eq!(
                n.args.len(),
                k.launch.args.len(),
                "{} {t:?}: argument count",
                k.name
            );
            for (i, (spec, (ty, kind))) in k.launch.args.iter().zip(&n.args).enumerate() {
                let ok = match spec {
                    ArgSpec::Buffer(b) => {
                        let scalar = format!("{}*", b.elem.name());
                        let vec4 = format!("{}4*", b.elem.name());
                        kind == "global_buffer"
                            && (*ty == scalar || (*ty == vec4 && b.len % 4 == 0))
                    }
                    ArgSpec::Scalar { value, .. } => {
                        let want = match value {
                            ScalarValue::U32(_) => "uint",
                            ScalarValue::I32(_) => "int",
                            ScalarValue::U64(_) => "ulong",
                            ScalarValue::F32(_) => "float",
                        };
                        kind == "by_value" && ty == want
                    }
                    ArgSpec::Local { .. } => kind == "dynamic_shared_pointer",
                };
                assert!(
                    ok,
                    "{} {t:?}: argument {i} {spec:?} vs metadata ({ty}, {kind})",
                    k.name
                );
            }
            let wave = n.number(".wavefront_size");
            assert_eq!(wave, t.wave_size() as u64, "{} {t:?}", k.name);
            let max = n.number(".max_flat_workgroup_size");
            let group = k.launch.dims.group_size() as u64;
            assert!(
                group <= max,
                "{}: work-group {group} > max_flat_workgroup_size {max}",
                k.name
            );
        }
    }
}

#[test]
fn default_launches_are_whole_groups_that_are_multiples_of_64() {
    for k in all() {
        let d = k.launch.dims;
        assert!(d.is_uniform(), "{}: {d:?}", k.name);
        assert_eq!(d.group_size() % 64, 0, "{}: {d:?}", k.name);
        // Calibration microbenchmarks run one (or a few) waves on purpose.
        if k.name.starts_with("ubench_") {
            continue;
        }
        let groups: u32 = d.groups().iter().product();
        assert!(groups >= 2, "{}: needs several work-groups", k.name);
        assert!(
            (256..=8192).contains(&d.work_items()),
            "{}: {} work-items",
            k.name,
            d.work_items()
        );
    }
}

#[test]
fn private_scratch_really_uses_scratch_memory() {
    let k = corpus::find("private_scratch").expect("registered");
    for t in TARGETS {
        assert!(
            note(k, t).number(".private_segment_fixed_size") > 0,
            "{t:?}"
        );
        let dis = fs::read_to_string(k.expected_disassembly_path(t)).expect("disassembly");
        let spills = dis
            .lines()
            .filter(|l| l.contains("\tscratch_") || l.contains("\tbuffer_"))
            .count();
        assert!(spills >= 2, "{t:?}: no scratch/buffer instructions");
    }
}

#[test]
fn lds_kernels_have_lds_and_the_rest_do_not() {
    let static_lds = [
        "fir",
        "lds_atomics",
        "matmul_tiled",
        "reduce_sum",
        "scan_wg",
        "transpose",
        "ubench_lds_chase",
    ];
    for k in all() {
        for t in TARGETS {
            let lds = note(k, t).number(".group_segment_fixed_size");
            assert_eq!(
                lds > 0,
                static_lds.contains(&k.name),
                "{} {t:?}: {lds} bytes of LDS",
                k.name
            );
        }
    }
}

#[test]
fn buffers_have_the_element_types_the_launch_claims() {
    for k in all() {
        for (spec, value) in k.launch.args.iter().zip(k.launch.materialize()) {
            match (spec, value) {
                (ArgSpec::Buffer(b), corpus::ArgValue::Buffer(d)) => {
                    assert_eq!(
                        (d.elem(), d.len()),
                        (b.elem, b.len),
                        "{} {}",
                        k.name,
                        b.name
                    );
                    let bytes = d.to_le_bytes();
                    assert_eq!(bytes.len(), b.len * b.elem.size());
                    assert_eq!(corpus::BufferData::from_le_bytes(b.elem, &bytes), Some(d));
                }
                (ArgSpec::Buffer(_), v) => panic!("{}: buffer materialised as {v:?}", k.name),
                _ => {}
            }
        }
    }
    assert_eq!(
        corpus::BufferData::from_le_bytes(ElemType::U32, &[1, 2, 3]),
        None
    );
}

#[test]
fn const_buffers_are_never_written_by_the_reference() {
    for k in all() {
        let n = note(k, Target::GFX1030_W32);
        // Only the in-place sort step has no read-only input.
        assert_eq!(
            n.is_const.is_empty(),
            k.name == "bitonic_step",
            "{}: const inputs",
            k.name
        );
        let initial = k.launch.materialize();
        let fin = k.expected().expect("reference runs");
        for &i in &n.is_const {
            assert!(
                matches!(k.launch.args[i], ArgSpec::Buffer(_)),
                "{}: const arg {i}",
                k.name
            );
            assert_eq!(initial[i], fin[i], "{}: const buffer {i} changed", k.name);
        }
    }
}
