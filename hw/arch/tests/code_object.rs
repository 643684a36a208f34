//! Code object reader and writer, checked against the LLVM outputs committed
//! next to the fixtures by `tests/data/code_object/make.sh`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use arch::code_object::{
    AddressSpace, CodeObject, CodeObjectError, CodeObjectVersion, CodeObjectWriter,
    ComputePgmRsrc1, ComputePgmRsrc2, ComputePgmRsrc3, FeatureSetting, Kernel,
    KernelCodeProperties, KernelDescriptor, NewKernel, SymbolKind, ValueKind,
};
use arch::isa::{Isa, Target};
use proptest::prelude::*;
use serde_norway::Value as Yaml;

/// The v4/v5 fixtures built by clang-19 from kernels.cl.
const CLANG_FIXTURES: [&str; 4] = ["gfx803", "gfx1030", "gfx1030_w64", "gfx1030_v4"];

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/code_object")
}

fn read(name: &str) -> Vec<u8> {
    let path = data_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read_text(name: &str) -> String {
    String::from_utf8(read(name)).expect("UTF-8")
}

fn parse(name: &str) -> CodeObject {
    CodeObject::parse(&read(&format!("{name}.co"))).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The YAML document `llvm-readelf --notes` prints for the metadata note.
fn notes_yaml(text: &str) -> Yaml {
    let doc = corpus::readelf_metadata_yaml(text);
    serde_norway::from_str(&doc).unwrap_or_else(|e| panic!("readelf YAML: {e}\n{doc}"))
}

fn y<'a>(v: &'a Yaml, key: &str) -> Option<&'a Yaml> {
    v.as_mapping().and_then(|m| m.get(key))
}

fn y_u32(v: &Yaml, key: &str) -> u32 {
    y(v, key)
        .and_then(Yaml::as_u64)
        .unwrap_or_else(|| panic!("no integer `{key}` in {v:?}")) as u32
}

fn y_str<'a>(v: &'a Yaml, key: &str) -> Option<&'a str> {
    y(v, key).and_then(Yaml::as_str)
}

fn y_bool(v: &Yaml, key: &str) -> bool {
    y(v, key).and_then(Yaml::as_bool).unwrap_or(false)
}

/// `llvm-objdump -s` hex dump lines (`addr w0 w1 w2 w3  ascii`) as address -> byte.
fn hex_dump(text: &str) -> BTreeMap<u64, u8> {
    let mut bytes = BTreeMap::new();
    for line in text.lines().filter(|l| l.starts_with(' ')) {
        let mut words = line.split_whitespace();
        let Some(addr) = words.next().and_then(|a| u64::from_str_radix(a, 16).ok()) else {
            continue;
        };
        let mut at = addr;
        // At most four groups of hex; the ASCII column follows.
        for w in words.take(4) {
            if w.len() % 2 != 0 || !w.chars().all(|c| c.is_ascii_hexdigit()) {
                break;
            }
            for i in (0..w.len()).step_by(2) {
                bytes.insert(at, u8::from_str_radix(&w[i..i + 2], 16).expect("hex"));
                at += 1;
            }
        }
    }
    bytes
}

/// `0000000000001d00 <add>:` labels of `llvm-objdump -d`.
fn dis_labels(text: &str) -> Vec<(u64, String)> {
    text.lines()
        .filter_map(|l| {
            let (addr, rest) = l.split_once(" <")?;
            let name = rest.strip_suffix(">:")?;
            Some((u64::from_str_radix(addr, 16).ok()?, name.to_string()))
        })
        .collect()
}

/// Every metadata field of every kernel against llvm-readelf's decoding.
fn check_against_readelf(co: &CodeObject, notes: &Yaml) {
    let kernels = y(notes, "amdhsa.kernels")
        .and_then(Yaml::as_sequence)
        .expect("amdhsa.kernels");
    assert_eq!(co.kernels().len(), kernels.len());
    let version = y(notes, "amdhsa.version")
        .and_then(Yaml::as_sequence)
        .expect("version");
    let version: Vec<u32> = version
        .iter()
        .map(|v| v.as_u64().expect("int") as u32)
        .collect();
    assert_eq!(co.metadata().version.to_vec(), version);
    assert_eq!(
        co.metadata().target.as_deref(),
        y_str(notes, "amdhsa.target")
    );
    for (k, yk) in co.kernels().iter().zip(kernels) {
        let m = &k.metadata;
        assert_eq!(m.name, y_str(yk, ".name").expect("name"));
        assert_eq!(k.name, m.name);
        assert_eq!(m.symbol, y_str(yk, ".symbol").expect("symbol"));
        assert_eq!(k.descriptor_symbol, m.symbol);
        assert_eq!(
            m.group_segment_fixed_size,
            y_u32(yk, ".group_segment_fixed_size")
        );
        assert_eq!(
            m.private_segment_fixed_size,
            y_u32(yk, ".private_segment_fixed_size")
        );
        assert_eq!(m.kernarg_segment_size, y_u32(yk, ".kernarg_segment_size"));
        assert_eq!(m.kernarg_segment_align, y_u32(yk, ".kernarg_segment_align"));
        assert_eq!(m.wavefront_size, y_u32(yk, ".wavefront_size"));
        assert_eq!(m.sgpr_count, y_u32(yk, ".sgpr_count"));
        assert_eq!(m.vgpr_count, y_u32(yk, ".vgpr_count"));
        assert_eq!(
            m.max_flat_workgroup_size,
            y_u32(yk, ".max_flat_workgroup_size")
        );
        assert_eq!(m.sgpr_spill_count, Some(y_u32(yk, ".sgpr_spill_count")));
        assert_eq!(m.vgpr_spill_count, Some(y_u32(yk, ".vgpr_spill_count")));
        assert_eq!(m.language.as_deref(), y_str(yk, ".language"));
        assert_eq!(
            m.uses_dynamic_stack,
            y(yk, ".uses_dynamic_stack").and_then(Yaml::as_bool)
        );
        let args = y(yk, ".args").and_then(Yaml::as_sequence).expect("args");
        assert_eq!(m.args.len(), args.len(), "kernel {}", m.name);
        for (a, ya) in m.args.iter().zip(args) {
            assert_eq!(a.name.as_deref(), y_str(ya, ".name"));
            assert_eq!(a.type_name.as_deref(), y_str(ya, ".type_name"));
            assert_eq!(a.offset, y_u32(ya, ".offset"));
            assert_eq!(a.size, y_u32(ya, ".size"));
            assert_eq!(
                a.value_kind.name(),
                y_str(ya, ".value_kind").expect("value kind")
            );
            assert_eq!(
                a.address_space.as_ref().map(AddressSpace::name),
                y_str(ya, ".address_space")
            );
            assert_eq!(
                a.pointee_align,
                y(ya, ".pointee_align")
                    .and_then(Yaml::as_u64)
                    .map(|v| v as u32)
            );
            assert_eq!(a.is_const, y_bool(ya, ".is_const"));
            assert_eq!(a.is_restrict, y_bool(ya, ".is_restrict"));
        }
        // The descriptor agrees with the metadata.
        let d = &k.descriptor;
        assert_eq!(d.group_segment_fixed_size, m.group_segment_fixed_size);
        assert_eq!(d.private_segment_fixed_size, m.private_segment_fixed_size);
        assert_eq!(d.kernarg_size, m.kernarg_segment_size);
        assert_eq!(k.wavefront_size(), m.wavefront_size);
    }
}

#[test]
fn clang_fixtures_match_llvm_readelf_notes() {
    for name in CLANG_FIXTURES {
        let co = parse(name);
        check_against_readelf(&co, &notes_yaml(&read_text(&format!("{name}.notes.txt"))));
    }
}

#[test]
fn descriptors_match_llvm_objdump_rodata() {
    for name in CLANG_FIXTURES {
        let co = parse(name);
        let rodata = hex_dump(&read_text(&format!("{name}.rodata.txt")));
        for k in co.kernels() {
            let dumped: Vec<u8> = (0..64)
                .map(|i| rodata[&(k.descriptor_address + i)])
                .collect();
            // Reserved bytes are zero in LLVM's output, so re-encoding is exact.
            assert_eq!(
                k.descriptor.to_bytes().to_vec(),
                dumped,
                "{name} {}",
                k.name
            );
            let entry = k.descriptor_address as i64 + k.descriptor.kernel_code_entry_byte_offset;
            assert_eq!(k.entry, entry as u64);
        }
    }
}

#[test]
fn symbols_and_kernel_code_match_llvm_objdump_disassembly() {
    for name in CLANG_FIXTURES {
        let co = parse(name);
        let labels = dis_labels(&read_text(&format!("{name}.dis.txt")));
        let symbols: Vec<(u64, String)> = co
            .symbols()
            .iter()
            .map(|s| (s.address, s.name.clone()))
            .collect();
        assert_eq!(symbols, labels, "{name}");
        let as_labels: Vec<(u64, String)> = co
            .labels()
            .into_iter()
            .map(|l| (l.address, l.name))
            .collect();
        assert_eq!(as_labels, labels);
        assert!(co
            .symbols()
            .windows(2)
            .all(|w| w[0].address <= w[1].address));
        for k in co.kernels() {
            let sym = co
                .symbols()
                .iter()
                .find(|s| s.name == k.name)
                .expect("kernel symbol");
            assert_eq!(sym.kind, SymbolKind::Kernel);
            assert_eq!((sym.address, sym.size), (k.entry, k.code.len() as u64));
            assert_eq!(k.code_range, k.entry..k.entry + sym.size);
            let start = (k.entry - co.text().address) as usize;
            assert_eq!(k.code, co.text().bytes[start..start + k.code.len()]);
            // Every kernel ends in s_endpgm (0xbf810000).
            assert_eq!(
                k.code[k.code.len() - 4..],
                [0x00, 0x00, 0x81, 0xbf],
                "{name} {}",
                k.name
            );
        }
    }
}

#[test]
fn versions_processors_and_targets() {
    let expect = [
        (
            "gfx803",
            CodeObjectVersion::V5,
            "gfx803",
            0x2a,
            Target::GFX803,
        ),
        (
            "gfx1030",
            CodeObjectVersion::V5,
            "gfx1030",
            0x36,
            Target::GFX1030_W32,
        ),
        (
            "gfx1030_w64",
            CodeObjectVersion::V5,
            "gfx1030",
            0x36,
            Target::GFX1030_W64,
        ),
        (
            "gfx1030_v4",
            CodeObjectVersion::V4,
            "gfx1030",
            0x36,
            Target::GFX1030_W32,
        ),
    ];
    for (name, version, processor, flags, target) in expect {
        let co = parse(name);
        assert_eq!(co.version(), version, "{name}");
        assert_eq!(co.processor(), processor);
        assert_eq!(co.e_flags(), flags);
        assert_eq!(
            (co.xnack(), co.sramecc()),
            (FeatureSetting::Unsupported, FeatureSetting::Unsupported)
        );
        assert_eq!(co.target(), Some(target), "{name}");
        assert!(co.kernels().iter().all(|k| k.target() == Some(target)));
        assert_eq!(
            co.kernels()
                .iter()
                .map(|k| k.name.as_str())
                .collect::<Vec<_>>(),
            ["add", "copy", "scratch"]
        );
    }
}

#[test]
fn gfx1030_descriptor_fields_decode_to_known_values() {
    let co = parse("gfx1030");
    let add = co.kernel("add").expect("add");
    let d = &add.descriptor;
    // Bytes 48..60 of add.kd in gfx1030.rodata.txt: 8000af60 8c000000 0904.
    assert_eq!(d.compute_pgm_rsrc1.bits(), 0x60af_0080);
    let r1 = d.compute_pgm_rsrc1;
    assert_eq!(r1.granulated_workitem_vgpr_count.value(), 0);
    assert_eq!(r1.granulated_wavefront_sgpr_count.value(), 2);
    assert_eq!(
        (
            r1.float_denorm_mode_32.value(),
            r1.float_denorm_mode_16_64.value()
        ),
        (3, 3)
    );
    assert!(r1.enable_dx10_clamp && r1.enable_ieee_mode && r1.wgp_mode && r1.mem_ordered);
    assert!(!r1.privileged && !r1.fwd_progress);
    let r2 = d.compute_pgm_rsrc2;
    assert_eq!(r2.bits(), 0x8c);
    assert_eq!(r2.user_sgpr_count.value(), 6);
    assert!(
        r2.enable_sgpr_workgroup_id_x
            && !r2.enable_sgpr_workgroup_id_y
            && !r2.enable_sgpr_workgroup_id_z
    );
    assert_eq!(r2.enable_vgpr_workitem_id.value(), 0);
    assert!(!r2.enable_sgpr_private_segment_wave_byte_offset);
    let p = d.kernel_code_properties;
    assert_eq!(p.bits(), 0x409);
    assert!(
        p.enable_sgpr_private_segment_buffer
            && p.enable_sgpr_kernarg_segment_ptr
            && p.enable_wavefront_size32
    );
    assert!(
        !p.enable_sgpr_dispatch_ptr && !p.enable_sgpr_flat_scratch_init && !p.uses_dynamic_stack
    );
    assert_eq!(d.kernarg_size, 56);
    // The scratch kernel needs private memory and flat scratch.
    let s = co.kernel("scratch").expect("scratch").descriptor;
    assert_eq!(s.private_segment_fixed_size, 72);
    assert!(
        s.compute_pgm_rsrc2
            .enable_sgpr_private_segment_wave_byte_offset
    );
    assert!(s.kernel_code_properties.enable_sgpr_flat_scratch_init);
    // Wave64 build: same kernel without the wave32 bit.
    let w64 = parse("gfx1030_w64");
    assert!(
        !w64.kernel("add")
            .expect("add")
            .descriptor
            .kernel_code_properties
            .enable_wavefront_size32
    );
}

#[test]
fn argument_kinds_of_add() {
    let co = parse("gfx803");
    let args = &co.kernel("add").expect("add").metadata.args;
    let got: Vec<(&str, u32, u32, &ValueKind, Option<&AddressSpace>)> = args
        .iter()
        .map(|a| {
            (
                a.name.as_deref().unwrap_or(""),
                a.offset,
                a.size,
                &a.value_kind,
                a.address_space.as_ref(),
            )
        })
        .collect();
    use AddressSpace::*;
    use ValueKind::*;
    assert_eq!(
        got,
        [
            ("out", 0, 8, &GlobalBuffer, Some(&Global)),
            ("in", 8, 8, &GlobalBuffer, Some(&Global)),
            ("tmp", 16, 4, &DynamicSharedPointer, Some(&Local)),
            ("n", 20, 4, &ByValue, None),
            ("scale", 24, 4, &ByValue, None),
            ("bias", 32, 8, &ByValue, None),
            ("s", 40, 16, &ByValue, None),
        ]
    );
    assert!(args[1].is_const);
    assert_eq!(args[6].type_name.as_deref(), Some("S"));
}

#[test]
fn code_object_v2_loads() {
    let co = parse("v2_gfx803");
    assert_eq!(co.version(), CodeObjectVersion::V2);
    assert_eq!(co.processor(), "gfx803");
    assert_eq!(co.producer(), Some("gpusim make.sh"));
    assert_eq!(co.target(), Some(Target::GFX803));
    let names: Vec<&str> = co.kernels().iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["copy_v2", "empty_v2"]);

    let copy = co.kernel("copy_v2").expect("copy_v2");
    let labels = dis_labels(&read_text("v2_gfx803.dis.txt"));
    assert_eq!(labels[0], (copy.descriptor_address, "copy_v2".to_string()));
    assert_eq!(copy.entry, copy.descriptor_address + 256);
    // s_load_dwordx4 s[4:7], s[0:1], 0x0 ... s_endpgm, as in v2_gfx803.dis.txt.
    assert_eq!(copy.code[..8], [0x00, 0x01, 0x0a, 0xc0, 0, 0, 0, 0]);
    assert_eq!(copy.code.len(), 0x48);
    assert_eq!(copy.code[0x44..], [0x00, 0x00, 0x81, 0xbf]);
    let akc = copy.amd_kernel_code.expect("amd_kernel_code_t");
    assert_eq!((akc.version_major, akc.version_minor), (1, 2));
    assert_eq!(
        (
            akc.machine_version_major,
            akc.machine_version_minor,
            akc.machine_version_stepping
        ),
        (8, 0, 3)
    );
    assert_eq!(
        (
            akc.wavefront_sgpr_count,
            akc.workitem_vgpr_count,
            akc.wavefront_size
        ),
        (16, 4, 6)
    );
    assert_eq!(akc.kernarg_segment_byte_size, 32);
    let d = copy.descriptor;
    assert_eq!(d.kernarg_size, 32);
    assert_eq!(d.kernel_code_entry_byte_offset, 256);
    assert_eq!(
        d.compute_pgm_rsrc1.granulated_wavefront_sgpr_count.value(),
        1
    );
    assert_eq!(d.compute_pgm_rsrc2.user_sgpr_count.value(), 2);
    assert!(d.compute_pgm_rsrc2.enable_sgpr_workgroup_id_x);
    assert!(d.kernel_code_properties.enable_sgpr_kernarg_segment_ptr);
    assert!(!d.kernel_code_properties.enable_sgpr_private_segment_buffer);
    assert_eq!(copy.wavefront_size(), 64);

    // The YAML metadata, against llvm-readelf's printing of the same note.
    let yaml = notes_yaml(&read_text("v2_gfx803.notes.txt"));
    let ykernels = y(&yaml, "Kernels")
        .and_then(Yaml::as_sequence)
        .expect("Kernels");
    for (k, yk) in co.kernels().iter().zip(ykernels) {
        let cp = y(yk, "CodeProps").expect("CodeProps");
        let m = &k.metadata;
        assert_eq!(m.name, y_str(yk, "Name").expect("Name"));
        assert_eq!(m.kernarg_segment_size, y_u32(cp, "KernargSegmentSize"));
        assert_eq!(
            m.group_segment_fixed_size,
            y_u32(cp, "GroupSegmentFixedSize")
        );
        assert_eq!(m.wavefront_size, y_u32(cp, "WavefrontSize"));
        assert_eq!(
            (m.sgpr_count, m.vgpr_count),
            (y_u32(cp, "NumSGPRs"), y_u32(cp, "NumVGPRs"))
        );
        assert_eq!(
            m.group_segment_fixed_size,
            k.descriptor.group_segment_fixed_size
        );
    }
    let args: Vec<(Option<&str>, u32, u32, &ValueKind)> = copy
        .metadata
        .args
        .iter()
        .map(|a| (a.name.as_deref(), a.offset, a.size, &a.value_kind))
        .collect();
    assert_eq!(
        args,
        [
            (Some("dst"), 0, 8, &ValueKind::GlobalBuffer),
            (Some("src"), 8, 8, &ValueKind::GlobalBuffer),
            (Some("n"), 16, 4, &ValueKind::ByValue),
            (None, 24, 8, &ValueKind::HiddenGlobalOffsetX),
        ]
    );
    assert_eq!(
        copy.metadata.args[0].address_space,
        Some(AddressSpace::Global)
    );
    assert!(copy.metadata.args[1].is_const);
    let empty = co.kernel("empty_v2").expect("empty_v2");
    assert_eq!(empty.descriptor.group_segment_fixed_size, 256);
    assert_eq!(
        empty
            .descriptor
            .compute_pgm_rsrc2
            .granulated_lds_size
            .value(),
        2
    );
    assert_eq!(empty.code, [0x00, 0x00, 0x81, 0xbf]);
}

/// Rebuilds a code object's kernels with the writer.
fn rewrite(co: &CodeObject) -> Vec<u8> {
    let mut w = CodeObjectWriter::new(co.isa().expect("modelled ISA"));
    for k in co.kernels() {
        w.add_kernel(NewKernel {
            name: k.name.clone(),
            code: k.code.clone(),
            descriptor: k.descriptor,
            metadata: k.metadata.clone(),
        });
    }
    w.write().expect("write")
}

fn same_kernel(a: &Kernel, b: &Kernel) {
    assert_eq!(a.name, b.name);
    assert_eq!(a.code, b.code);
    assert_eq!(a.metadata, b.metadata);
    assert_eq!(a.target(), b.target());
    let (mut da, mut db) = (a.descriptor, b.descriptor);
    // Only the entry offset depends on the layout.
    da.kernel_code_entry_byte_offset = 0;
    db.kernel_code_entry_byte_offset = 0;
    assert_eq!(da, db);
}

#[test]
fn writer_round_trips_v5_fixtures() {
    for name in ["gfx803", "gfx1030", "gfx1030_w64"] {
        let original = parse(name);
        let bytes = rewrite(&original);
        let back = CodeObject::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back.version(), CodeObjectVersion::V5);
        assert_eq!(back.processor(), original.processor());
        assert_eq!(back.e_flags(), original.e_flags());
        assert_eq!(back.metadata(), original.metadata());
        assert_eq!(back.kernels().len(), original.kernels().len());
        for (a, b) in original.kernels().iter().zip(back.kernels()) {
            same_kernel(a, b);
            assert_eq!(b.entry % 256, 0);
        }
        // Writing what was read back gives the same bytes.
        assert_eq!(rewrite(&back), bytes);
    }
}

#[test]
fn writer_builds_kernels_from_scratch() {
    let descriptor = KernelDescriptor {
        kernarg_size: 8,
        compute_pgm_rsrc1: ComputePgmRsrc1::from_bits(0x00ac_0040),
        compute_pgm_rsrc2: ComputePgmRsrc2::from_bits(0x84),
        kernel_code_properties: KernelCodeProperties {
            enable_sgpr_kernarg_segment_ptr: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let metadata = arch::code_object::KernelMetadata {
        kernarg_segment_size: 8,
        kernarg_segment_align: 8,
        wavefront_size: 64,
        sgpr_count: 8,
        vgpr_count: 1,
        max_flat_workgroup_size: 64,
        ..Default::default()
    };
    let mut w = CodeObjectWriter::new(Isa::Gfx803);
    for name in ["first", "second"] {
        // s_nop 0; s_endpgm
        let code = vec![0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x81, 0xbf];
        w.add_kernel(NewKernel {
            name: name.into(),
            code,
            descriptor,
            metadata: metadata.clone(),
        });
    }
    let co = CodeObject::parse(&w.write().expect("write")).expect("parse");
    assert_eq!(co.processor(), "gfx803");
    assert_eq!(co.e_flags(), 0x2a);
    assert_eq!(co.target(), Some(Target::GFX803));
    assert_eq!(
        co.metadata().target.as_deref(),
        Some("amdgcn-amd-amdhsa--gfx803")
    );
    let second = co.kernel("second").expect("second");
    assert_eq!(second.metadata.symbol, "second.kd");
    assert_eq!(second.code.len(), 8);
    assert_eq!(second.entry, co.kernel("first").expect("first").entry + 256);
    let err = CodeObjectWriter::new(Isa::Gfx803)
        .add_kernel(NewKernel {
            name: "a".into(),
            code: vec![],
            descriptor,
            metadata: metadata.clone(),
        })
        .add_kernel(NewKernel {
            name: "a".into(),
            code: vec![],
            descriptor,
            metadata,
        })
        .write();
    assert!(
        matches!(err, Err(CodeObjectError::Write(ref m)) if m.contains("two kernels")),
        "{err:?}"
    );
}

#[test]
fn describe_names_everything() {
    let text = parse("gfx1030").describe();
    for needle in [
        "code object v5, processor gfx1030",
        "kernel add",
        "kernel scratch",
        "wavefront size      32",
        "granulated_workitem_vgpr_count",
        "enable_sgpr_workgroup_id_x",
        "enable_wavefront_size32             1",
        "kernarg segment     56 bytes, align 8",
        "0  out    float*  0       8     global_buffer           global",
        "2  tmp    float*  16      4     dynamic_shared_pointer  local",
        "6  s      S       40      16    by_value                -",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
    assert!(parse("v2_gfx803")
        .to_string()
        .contains("code object v2, processor gfx803"));
}

#[test]
fn errors_name_the_problem() {
    let good = read("gfx1030.co");
    assert_eq!(
        CodeObject::parse(b"hello").unwrap_err(),
        CodeObjectError::NotElf
    );
    assert_eq!(CodeObject::parse(&[]).unwrap_err(), CodeObjectError::NotElf);
    let mut elf32 = good.clone();
    elf32[4] = 1;
    assert!(matches!(
        CodeObject::parse(&elf32),
        Err(CodeObjectError::WrongClass { offset: 4, .. })
    ));
    let mut x86 = good.clone();
    x86[18] = 62;
    assert_eq!(
        CodeObject::parse(&x86).unwrap_err(),
        CodeObjectError::WrongMachine(62)
    );
    let mut sysv = good.clone();
    sysv[7] = 0;
    assert_eq!(
        CodeObject::parse(&sysv).unwrap_err(),
        CodeObjectError::WrongOsAbi(0)
    );
    let mut v9 = good.clone();
    v9[8] = 9;
    assert_eq!(
        CodeObject::parse(&v9).unwrap_err(),
        CodeObjectError::UnsupportedAbiVersion(9)
    );
    // Cutting off the section headers.
    let err = CodeObject::parse(&good[..good.len() - 100]).unwrap_err();
    assert!(matches!(err, CodeObjectError::Truncated { .. }), "{err}");
    assert!(err.to_string().contains("section header table"), "{err}");
    // Renaming the descriptor symbols ("add.kd" -> "add.kx") in the string tables.
    let renamed = replace_all(&good, b"add.kd\0", b"add.kx\0");
    let err = CodeObject::parse(&renamed).unwrap_err();
    assert_eq!(
        err,
        CodeObjectError::MissingDescriptor {
            kernel: "add".into(),
            symbol: "add.kd".into()
        }
    );
    // Breaking the MessagePack: the map key "amdhsa.kernels" loses its string header.
    let key = b"\xaeamdhsa.kernels";
    let at = find(&good, key).expect("msgpack key");
    let mut bad = good.clone();
    bad[at] = 0xc1; // never used in MessagePack
    let err = CodeObject::parse(&bad).unwrap_err();
    assert!(
        matches!(
            err,
            CodeObjectError::BadMetadata {
                format: "MessagePack",
                ..
            }
        ),
        "{err}"
    );
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn replace_all(hay: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = hay.to_vec();
    let mut i = 0;
    while let Some(p) = find(&out[i..], from) {
        out[i + p..i + p + to.len()].copy_from_slice(to);
        i += p + 1;
    }
    out
}

#[test]
fn bit_fields_round_trip() {
    for v in [
        0u32,
        0xffff_ffff,
        0x60af_0080,
        0x8000_0001,
        0x1800_0000,
        0x1234_5678,
    ] {
        assert_eq!(ComputePgmRsrc1::from_bits(v).bits(), v);
        assert_eq!(ComputePgmRsrc2::from_bits(v).bits(), v);
        assert_eq!(ComputePgmRsrc3::from_bits(v).bits(), v);
        assert_eq!(KernelCodeProperties::from_bits(v as u16).bits(), v as u16);
    }
}

/// Runs an LLVM tool, or returns None (with a note) when it is not installed.
fn llvm(tool: &str, args: &[&str]) -> Option<String> {
    match Command::new(tool).args(args).output() {
        Ok(out) => {
            assert!(
                out.status.success(),
                "{tool} {args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            Some(String::from_utf8(out.stdout).expect("UTF-8"))
        }
        Err(_) => {
            eprintln!("note: {tool} not installed, skipping the LLVM comparison");
            None
        }
    }
}

#[test]
fn written_code_object_is_accepted_by_llvm() {
    let dir = std::env::temp_dir().join(format!("gpusim-code-object-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for name in ["gfx803", "gfx1030", "gfx1030_w64"] {
        let path = dir.join(format!("{name}.co"));
        std::fs::write(&path, rewrite(&parse(name))).expect("write");
        let p = path.to_str().expect("path");
        let Some(notes) = llvm("llvm-readelf-19", &["--notes", p]) else {
            return;
        };
        // Same metadata as clang's object, as LLVM decodes it.
        assert_eq!(
            notes_yaml(&notes),
            notes_yaml(&read_text(&format!("{name}.notes.txt"))),
            "{name}"
        );
        let dis = llvm("llvm-objdump-19", &["-d", p]).expect("llvm-objdump-19");
        assert!(!dis.contains("error"), "{dis}");
        let labels: Vec<String> = dis_labels(&dis).into_iter().map(|l| l.1).collect();
        assert_eq!(labels, ["add", "copy", "scratch"]);
        // The instructions are LLVM's own, modulo addresses.
        let insts = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| {
                    l.starts_with('\t') && !l.contains("s_code_end") && !l.trim().starts_with("...")
                })
                .map(|l| l.split("//").next().unwrap_or("").trim().to_string())
                .filter(|l| !l.is_empty())
                .collect()
        };
        let want: Vec<String> = insts(&read_text(&format!("{name}.dis.txt")));
        let got = insts(&dis);
        assert!(!got.is_empty());
        // Branch comments name targets by address, so compare only the text before "//".
        let want_prefix: Vec<&String> = want.iter().filter(|l| !l.starts_with("s_nop")).collect();
        let got_prefix: Vec<&String> = got.iter().filter(|l| !l.starts_with("s_nop")).collect();
        assert_eq!(got_prefix, want_prefix, "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn committed_llvm_outputs_have_not_drifted() {
    for name in CLANG_FIXTURES.iter().chain(&["v2_gfx803"]) {
        let path = data_dir().join(format!("{name}.co"));
        let p = path.to_str().expect("path");
        let Some(notes) = llvm("llvm-readelf-19", &["--notes", p]) else {
            return;
        };
        assert_eq!(
            notes,
            read_text(&format!("{name}.notes.txt")),
            "{name}.notes.txt drifted: run make.sh"
        );
        if *name != "v2_gfx803" {
            let rodata =
                llvm("llvm-objdump-19", &["-s", "-j", ".rodata", p]).expect("llvm-objdump-19");
            let body: String = rodata.lines().skip(3).map(|l| format!("{l}\n")).collect();
            assert_eq!(
                body,
                read_text(&format!("{name}.rodata.txt")),
                "{name}.rodata.txt drifted: run make.sh"
            );
            let dis = llvm("llvm-objdump-19", &["-d", p]).expect("llvm-objdump-19");
            let body: String = dis.lines().skip(2).map(|l| format!("{l}\n")).collect();
            let want = read_text(&format!("{name}.dis.txt"));
            assert!(body == want, "{name}.dis.txt drifted: run make.sh");
        }
    }
}

fn fixtures() -> Vec<Vec<u8>> {
    CLANG_FIXTURES
        .iter()
        .chain(&["v2_gfx803"])
        .map(|n| read(&format!("{n}.co")))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = CodeObject::parse(&bytes);
        // Also behind a valid-looking AMDGPU header.
        let mut elf = read("gfx1030.co")[..64].to_vec();
        elf.extend_from_slice(&bytes);
        let _ = CodeObject::parse(&elf);
    }

    #[test]
    fn mutated_fixtures_never_panic(
        which in 0usize..5,
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..16),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
    ) {
        let mut bytes = fixtures().swap_remove(which);
        for (at, v) in edits {
            let i = at.index(bytes.len());
            bytes[i] = v;
        }
        if truncate {
            bytes.truncate(cut.index(bytes.len()));
        }
        let _ = CodeObject::parse(&bytes);
    }

    #[test]
    fn mutated_headers_never_panic(
        which in 0usize..5,
        at in 0usize..64,
        v in any::<u64>(),
    ) {
        // Header fields (offsets, counts, sizes) are where wild values hurt most.
        let mut bytes = fixtures().swap_remove(which);
        let end = (at + 8).min(64);
        bytes[at..end].copy_from_slice(&v.to_le_bytes()[..end - at]);
        let _ = CodeObject::parse(&bytes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn mutated_section_headers_never_panic(
        which in 0usize..5,
        entry in any::<prop::sample::Index>(),
        field in 0usize..8,
        v in any::<u64>(),
    ) {
        // Overwrite one 8-byte slot of one section header with a wild value.
        let mut bytes = fixtures().swap_remove(which);
        let shoff = u64::from_le_bytes(bytes[40..48].try_into().expect("8 bytes")) as usize;
        let shnum = u16::from_le_bytes([bytes[60], bytes[61]]) as usize;
        let at = shoff + entry.index(shnum) * 64 + field * 8;
        bytes[at..at + 8].copy_from_slice(&v.to_le_bytes());
        let _ = CodeObject::parse(&bytes);
    }
}

#[test]
fn duplicate_kernels_in_metadata_are_an_error() {
    // Write kernels "add" and "adx", then rename "adx" to "add" everywhere.
    let co = parse("gfx1030");
    let mut w = CodeObjectWriter::new(Isa::Gfx1030);
    for (name, k) in [("add", &co.kernels()[0]), ("adx", &co.kernels()[1])] {
        w.add_kernel(NewKernel {
            name: name.into(),
            code: k.code.clone(),
            descriptor: k.descriptor,
            metadata: k.metadata.clone(),
        });
    }
    let bad = replace_all(&w.write().expect("write"), b"adx", b"add");
    let err = CodeObject::parse(&bad).unwrap_err();
    assert!(
        err.to_string().contains("two kernels are called `add`"),
        "{err}"
    );
}

/// The PT_LOAD segment holding virtual address `a`: its file offset of `a`
/// and its flags.
fn file_offset(elf: &[u8], a: u64) -> Option<(usize, u32)> {
    let le = |at: usize, n: usize| {
        elf[at..at + n]
            .iter()
            .rev()
            .fold(0u64, |acc, &b| acc << 8 | u64::from(b))
    };
    let (phoff, phnum) = (le(0x20, 8) as usize, le(0x38, 2) as usize);
    (0..phnum).find_map(|i| {
        let h = phoff + i * 56;
        let (ty, flags) = (le(h, 4), le(h + 4, 4) as u32);
        let (off, vaddr, filesz) = (le(h + 8, 8), le(h + 16, 8), le(h + 32, 8));
        (ty == 1 && (vaddr..vaddr + filesz).contains(&a))
            .then(|| ((a - vaddr + off) as usize, flags))
    })
}

/// Program-scope data: a read-only object lands in the read-only segment,
/// a writable one in the read-write segment, and each PC-relative
/// reference (`s_getpc_b64` + the REL32 lo/hi literals) is patched to
/// `data - pc`, as ld.lld resolves clang's relocations.
#[test]
fn writer_places_data_and_patches_pc_relative_references() {
    use arch::code_object::{DataReloc, NewData};
    // s_getpc_b64 s[0:1]; s_add_u32 s0, s0, lit; s_addc_u32 s1, s1, lit; s_endpgm
    let code: Vec<u8> = [
        0xbe801f00u32,
        0x8000ff00,
        0x0bad_da7a,
        0x8201ff01,
        0x0bad_da7a,
        0xbf810000,
    ]
    .iter()
    .flat_map(|w| w.to_le_bytes())
    .collect();
    let tables = [
        ("tab", vec![1u8, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], false),
        ("var", vec![0xaa; 8], true),
    ];
    // A writer with both objects and the kernel's reference to `target`.
    let writer = |target: &str| {
        let mut w = CodeObjectWriter::new(Isa::Gfx1030);
        w.add_kernel(NewKernel {
            name: "k".into(),
            code: code.clone(),
            descriptor: KernelDescriptor::default(),
            metadata: arch::code_object::KernelMetadata {
                wavefront_size: 32,
                max_flat_workgroup_size: 64,
                ..Default::default()
            },
        });
        for (name, bytes, writable) in &tables {
            w.add_data(NewData {
                name: (*name).into(),
                bytes: bytes.clone(),
                align: 4,
                writable: *writable,
            });
        }
        for hi in [false, true] {
            w.add_reloc(DataReloc {
                kernel: "k".into(),
                offset: if hi { 16 } else { 8 },
                pc: 4,
                data: target.into(),
                hi,
            });
        }
        w
    };
    for (name, bytes, writable) in &tables {
        let elf = writer(name).write().expect("write");
        let co = CodeObject::parse(&elf).expect("parse");
        let k = co.kernel("k").expect("k");
        let lo = u32::from_le_bytes(k.code[8..12].try_into().unwrap());
        let hi = u32::from_le_bytes(k.code[16..20].try_into().unwrap());
        let addr = (k.entry + 4).wrapping_add(u64::from(hi) << 32 | u64::from(lo));
        let (off, flags) = file_offset(&elf, addr).expect("the address is in a loaded segment");
        assert_eq!(&elf[off..off + bytes.len()], &bytes[..], "{name}");
        // PF_W (2) exactly for the writable object.
        assert_eq!(flags & 2 != 0, *writable, "{name}: segment flags {flags}");
    }
    // A reference to an object that does not exist is refused.
    assert!(writer("missing").write().is_err());
}
