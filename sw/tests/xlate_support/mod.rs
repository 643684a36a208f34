//! What the random-program tests share: a one-kernel gfx803 code object
//! around a body, a run on a golden GPU of either ISA, and label resolution
//! for the assembler (which takes branch offsets in dwords, not labels).

#![allow(dead_code)] // each test crate uses its own part

use std::collections::HashMap;

use arch::code_object::{
    CodeObjectWriter, ComputePgmRsrc1, ComputePgmRsrc2, KernelArg, KernelDescriptor,
    KernelMetadata, NewKernel, ValueKind,
};
use arch::isa::{assemble, Isa, Target};
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::{Arg, Driver, LaunchDims};

/// Work-items: one wave64 workgroup.
pub const LANES: u32 = 64;

/// The shape of a test kernel `k(global uint *out)`.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// VGPRs the descriptor allocates (a multiple of 4).
    pub vgprs: u32,
    /// MODE's f32 denormal field (0 flush, 3 keep).
    pub denorm_f32: u32,
    /// LDS bytes.
    pub lds_bytes: u32,
    /// Bytes of the `out` buffer.
    pub out_bytes: u32,
}

/// A gfx803 code object v5 with one kernel `k(global uint *out)` whose code
/// is `source` (complete: it must end with `s_endpgm`).
pub fn code_object(source: &str, shape: Shape) -> Vec<u8> {
    let code = assemble(Target::GFX803, source).unwrap_or_else(|e| panic!("{e}\n{source}"));
    let mut descriptor = KernelDescriptor {
        kernarg_size: 8,
        group_segment_fixed_size: shape.lds_bytes,
        // f16/f64 denormals kept, f32 as asked.
        compute_pgm_rsrc1: ComputePgmRsrc1::from_bits(
            (shape.vgprs / 4 - 1) | shape.denorm_f32 << 16 | 3 << 18,
        ),
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
        group_segment_fixed_size: shape.lds_bytes,
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

/// The `out` dwords after one run of `elf`'s kernel `k` (one wave64
/// workgroup) on a golden GPU of `isa` (gfx1030: translated at dispatch).
pub fn run(isa: Isa, elf: &[u8], out_bytes: u32) -> Result<Vec<u32>, String> {
    let gpu = GoldenGpu::new(GoldenConfig::new(isa)).map_err(|e| e.to_string())?;
    let mut d = Driver::new(gpu).map_err(|e| e.to_string())?;
    let p = d.load(elf).map_err(|e| e.to_string())?;
    let k = p.kernel("k").map_err(|e| e.to_string())?.clone();
    let out = d
        .alloc(u64::from(out_bytes), 256)
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

/// Native (gfx803) and translated (gfx1030) `out` dwords, or a description
/// of the first difference (`dwords_per_lane` names lane and dword).
pub fn compare(source: &str, shape: Shape, dwords_per_lane: u32) -> Result<Vec<u32>, String> {
    let elf = code_object(source, shape);
    let native = run(Isa::Gfx803, &elf, shape.out_bytes).map_err(|e| format!("native: {e}"))?;
    let translated =
        run(Isa::Gfx1030, &elf, shape.out_bytes).map_err(|e| format!("translated: {e}"))?;
    match native.iter().zip(&translated).position(|(a, b)| a != b) {
        None => Ok(native),
        Some(i) => {
            let i = i as u32;
            let lane = i / dwords_per_lane;
            let at = if lane < LANES {
                format!("lane {lane} dword {}", i % dwords_per_lane)
            } else {
                format!("shared dword {}", i - LANES * dwords_per_lane)
            };
            Err(format!(
                "{at}: translated {:#010x}, native {:#010x}",
                translated[i as usize], native[i as usize]
            ))
        }
    }
}

/// Assembles text with labels (`NAME:` lines) and branches to them
/// (`s_cbranch_* @NAME`) into text the assembler takes (dword offsets).
pub fn resolve_labels(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .collect();
    let mut at = Vec::with_capacity(lines.len());
    let mut labels = HashMap::new();
    let mut dwords = 0i64;
    for l in &lines {
        at.push(dwords);
        if let Some(name) = l.strip_suffix(':') {
            labels.insert(name.to_string(), dwords);
        } else {
            // Branch operands do not change the size; assemble with 0.
            let probe = match l.split_once(" @") {
                Some((op, _)) => format!("{op} 0"),
                None => l.to_string(),
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

/// Every instruction name `docs/translation.md` mentions (brace forms such
/// as `v_cmp_{eq,ne}_{u32,i32}` and `s_load_dword{,x2}` expanded).
pub fn doc_names() -> std::collections::HashSet<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/translation.md");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut names = std::collections::HashSet::new();
    for token in text.split(|c: char| c.is_whitespace() || "`|;()/".contains(c)) {
        let token = token.trim_matches(|c: char| ",.:".contains(c));
        expand_braces(token, &mut names);
    }
    names.retain(|n| {
        ["s_", "v_", "ds_", "flat_", "buffer_", "global_", "tbuffer_"]
            .iter()
            .any(|p| n.starts_with(p))
    });
    names
}

fn expand_braces(token: &str, out: &mut std::collections::HashSet<String>) {
    match (token.find('{'), token.find('}')) {
        (Some(open), Some(close)) if open < close => {
            for alt in token[open + 1..close].split(',') {
                expand_braces(
                    &format!("{}{alt}{}", &token[..open], &token[close + 1..]),
                    out,
                );
            }
        }
        _ => {
            out.insert(token.to_string());
        }
    }
}

/// The gfx803 opcode names in legacy code `code` (decoded from the start up
/// to the first undecodable word).
pub fn opcode_names(code: &[u8]) -> Vec<&'static str> {
    let mut names = Vec::new();
    let mut at = 0;
    while at < code.len() {
        match arch::isa::decode(Target::GFX803, &code[at..]) {
            Ok(i) => {
                names.push(i.opcode.mnemonic());
                at += usize::from(i.size.max(4));
            }
            Err(_) => break,
        }
    }
    names
}
