//! Acceptance: LLVM's tools read what the back end writes.
//! `llvm-objdump-19 -d` lists exactly the instructions of our listing (the
//! text `gpusim disasm` prints); `llvm-readelf-19 --notes` reads the metadata
//! note. Skipped (with a message) when LLVM 19 is not installed.

use std::process::Command;

use compiler::backend::{code_object, compile, CompileOptions, CompiledKernel, MaskedSelect};
use compiler::ir::*;

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A kernel touching every instruction kind the back end emits: SMEM, VALU
/// e32/e64 with literals, compares, masked selects and blends, divergent and
/// uniform branches, LDS, barrier, atomics, waitcnts.
fn kitchen_sink(name: &str) -> Function {
    let mut f = Function::new(name);
    f.add_param("a", Type::Ptr(AddrSpace::Global), "int*");
    f.add_param("n", Type::I32, "int");
    let tmp = f.add_local(1024, 4);
    let mut b = Builder::new(&mut f);
    let a = b.kernel_arg(0);
    let n = b.kernel_arg(1);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let lid = b.work_item(WorkItemQuery::LocalId, 0);
    let two = b.iconst(Type::I32, 2);
    let off = b.shl(gid, two);
    let p = b.ptr_add(a, off);
    let x = b.load(Type::I32, p);
    let big = b.iconst(Type::I32, 0x12345);
    let y = b.iadd(x, big);
    let m = b.icmp(IntCC::Ult, lid, n);
    let s = b.select(m, y, x);
    let base = b.local_addr(tmp);
    let lo = b.shl(lid, two);
    let pl = b.ptr_add(base, lo);
    b.store(pl, s);
    b.barrier();
    let r = b.load(Type::I32, pl);
    let one = b.iconst(Type::I32, 1);
    let t = b.create_block();
    let j = b.create_block();
    let v = b.block_param(j, Type::I32);
    b.brif(m, t, &[], j, &[r]);
    b.switch_to(t);
    let r2 = b.iadd(r, one);
    b.jump(j, &[r2]);
    b.switch_to(j);
    b.store(p, v);
    b.atomic(AtomicOp::Add, a, one);
    b.ret();
    f
}

/// A divergent loop (backward branches, exits under EXEC).
fn looped(name: &str) -> Function {
    let mut f = Function::new(name);
    f.add_param("out", Type::Ptr(AddrSpace::Global), "int*");
    let mut b = Builder::new(&mut f);
    let out = b.kernel_arg(0);
    let lid = b.work_item(WorkItemQuery::LocalId, 0);
    let zero = b.iconst(Type::I32, 0);
    let one = b.iconst(Type::I32, 1);
    let head = b.create_block();
    let exit = b.create_block();
    let i = b.block_param(head, Type::I32);
    let r = b.block_param(exit, Type::I32);
    b.jump(head, &[zero]);
    b.switch_to(head);
    let i1 = b.iadd(i, one);
    let c = b.icmp(IntCC::Slt, i1, lid);
    b.brif(c, head, &[i1], exit, &[i1]);
    b.switch_to(exit);
    b.store(out, r);
    b.ret();
    f
}

/// Twelve loaded values live at once, folded at the end.
fn many_live(name: &str) -> Function {
    let mut f = Function::new(name);
    f.add_param("a", Type::Ptr(AddrSpace::Global), "int*");
    let mut b = Builder::new(&mut f);
    let a = b.kernel_arg(0);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let mut xs = Vec::new();
    for i in 0..12 {
        let c = b.iconst(Type::I32, 4 * i);
        let idx = b.iadd(gid, c);
        let p = b.ptr_add(a, idx);
        xs.push(b.load(Type::I32, p));
    }
    let mut r = xs[0];
    for &x in &xs[1..] {
        r = b.binary(BinaryOp::Xor, r, x);
    }
    b.store(a, r);
    b.ret();
    f
}

fn objects() -> Vec<(CompiledKernel, Vec<u8>)> {
    let mut out = Vec::new();
    for (wave64, policy) in [(false, MaskedSelect::Masked), (true, MaskedSelect::Blend)] {
        let name = if wave64 { "sink64" } else { "sink32" };
        let opts = CompileOptions {
            wave64,
            masked_select: policy,
            optimize: true,
            vgpr_limit: 0,
            ..Default::default()
        };
        let k = compile(&kitchen_sink(name), &opts).unwrap();
        let elf = code_object(std::slice::from_ref(&k)).unwrap();
        out.push((k, elf));
        let k = compile(
            &looped(&format!("loop{}", if wave64 { 64 } else { 32 })),
            &opts,
        )
        .unwrap();
        let elf = code_object(std::slice::from_ref(&k)).unwrap();
        out.push((k, elf));
        // A VGPR limit of 8 makes twelve live values spill (scratch instructions, s_setreg).
        let spilling = CompileOptions {
            vgpr_limit: 8,
            ..opts
        };
        let k = compile(&many_live(&format!("{name}_spill")), &spilling).unwrap();
        assert!(
            k.listing().contains("scratch_store_dword"),
            "{}",
            k.listing()
        );
        let elf = code_object(std::slice::from_ref(&k)).unwrap();
        out.push((k, elf));
    }
    out
}

fn write_temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gpusim-compiler-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn llvm_objdump_lists_the_same_instructions() {
    if !have("llvm-objdump-19") {
        eprintln!("skipped: llvm-objdump-19 not installed");
        return;
    }
    for (k, elf) in objects() {
        let path = write_temp(&format!("{}.hsaco", k.name), &elf);
        let mut cmd = Command::new("llvm-objdump-19");
        cmd.args(["-d", "--no-show-raw-insn", "--no-leading-addr"]);
        if k.target.wave64 {
            // The ELF header does not record the wave size (LLVM reads it from the descriptor only when loading).
            cmd.arg("--mattr=+wavefrontsize64");
        }
        let o = cmd.arg(&path).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8_lossy(&o.stdout);
        // Instruction lines are indented; drop LLVM's branch-target comments.
        let theirs: Vec<String> = text
            .lines()
            .filter(|l| l.starts_with(char::is_whitespace) && !l.trim().is_empty())
            .map(|l| l.split("//").next().unwrap().trim().to_string())
            .filter(|l| !l.starts_with("s_code_end"))
            .collect();
        let ours: Vec<String> = k.listing().lines().map(|l| l.trim().to_string()).collect();
        assert_eq!(
            theirs[..ours.len()],
            ours[..],
            "llvm-objdump-19 disagrees for {}:\n{text}",
            k.name
        );
    }
}

#[test]
fn llvm_readelf_reads_the_metadata_note() {
    if !have("llvm-readelf-19") {
        eprintln!("skipped: llvm-readelf-19 not installed");
        return;
    }
    for (k, elf) in objects() {
        let path = write_temp(&format!("{}-notes.hsaco", k.name), &elf);
        let o = Command::new("llvm-readelf-19")
            .arg("--notes")
            .arg(&path)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8_lossy(&o.stdout);
        let wave = if k.target.wave64 { "64" } else { "32" };
        for needle in [
            "NT_AMDGPU_METADATA".to_string(),
            format!(".name:           {}", k.name),
            format!(".symbol:         {}.kd", k.name),
            ".value_kind:     global_buffer".into(),
            ".value_kind:     global_buffer".into(),
            ".value_kind:     hidden_group_size_x".into(),
            format!(".wavefront_size: {wave}"),
            format!(
                ".group_segment_fixed_size: {}",
                k.descriptor.group_segment_fixed_size
            ),
            "amdhsa.target:   amdgcn-amd-amdhsa--gfx1030".into(),
        ] {
            assert!(text.contains(&needle), "`{needle}` missing:\n{text}");
        }
    }
}

/// `gpusim info` (`CodeObject::parse` + `describe`) reads our objects, and
/// decoding the code back (what `gpusim disasm` does) gives our listing.
#[test]
fn gpusim_info_and_disasm_read_the_object() {
    use arch::code_object::CodeObject;
    for (k, elf) in objects() {
        let co = CodeObject::parse(&elf).unwrap();
        let text = co.describe();
        assert!(text.contains("gfx1030") && text.contains(&k.name), "{text}");
        let kernel = co.kernels().iter().find(|x| x.name == k.name).unwrap();
        // The writer sets the entry offset from its layout; the rest round-trips.
        let mut read = kernel.descriptor;
        assert!(read.kernel_code_entry_byte_offset > 0);
        read.kernel_code_entry_byte_offset = 0;
        assert_eq!(read, k.descriptor, "the descriptor round-trips");
        let decoded: String = arch::isa::decode_all(k.target, &k.code)
            .unwrap()
            .iter()
            .map(|(_, i)| format!("{i}\n"))
            .collect();
        assert_eq!(decoded, k.listing(), "{}", k.name);
    }
}

/// Branch relaxation: the conformance kernel `long_branch` (loops and an
/// `if` around ~36 K dwords of code) compiles to long jumps that
/// llvm-objdump-19 decodes as our listing says, each landing on an
/// instruction, forwards and backwards, wave32 and wave64; the kernel's
/// SGPR count covers the jumps' pair. (Its results against clang-19's:
/// `--test conformance`.)
#[test]
fn long_branches_are_pc_relative_jumps_llvm_decodes() {
    if !have("llvm-objdump-19") {
        eprintln!("skipped: llvm-objdump-19 not installed");
        return;
    }
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels");
    for wave64 in [false, true] {
        let mut opts = compiler::CompileOptions::default().include(dir.join("include"));
        opts.backend.wave64 = wave64;
        opts.front.wave64 = wave64;
        let c = compiler::compile(
            compiler::Source::Path(&dir.join("conformance/long_branch.cl")),
            &opts,
        )
        .unwrap();
        let k = &c.kernels[0];
        let ins = &k.instructions;
        let starts: std::collections::HashSet<u32> = ins.iter().map(|(a, _)| *a).collect();
        let (mut forward, mut backward) = (0, 0);
        let mut pair = None;
        for w in ins.windows(4) {
            if w[0].1.opcode != arch::isa::Opcode::S_GETPC_B64 {
                continue;
            }
            let lit = |i: &arch::isa::Instruction| match i.operands[2] {
                arch::isa::Operand::Literal { value, .. } => value,
                _ => panic!("{i}: the distance is not a literal"),
            };
            let delta = (u64::from(lit(&w[2].1)) << 32 | u64::from(lit(&w[1].1))) as i64;
            let to = i64::from(w[0].0) + 4 + delta;
            assert!(
                starts.contains(&(to as u32)),
                "a long jump to {to:#x}, not an instruction"
            );
            assert_eq!(w[3].1.opcode, arch::isa::Opcode::S_SETPC_B64);
            if delta > 0 {
                forward += 1
            } else {
                backward += 1
            }
            pair = Some(w[0].1.to_string());
        }
        assert!(
            forward >= 2 && backward >= 2,
            "{forward} forward, {backward} backward long jumps"
        );
        // s_getpc_b64 s[p:p+1]: the SGPR count covers p + 2.
        let p: u32 = pair.unwrap()["s_getpc_b64 s[".len()..]
            .split(':')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            k.metadata.sgpr_count >= p + 2,
            "sgpr_count {} < {}",
            k.metadata.sgpr_count,
            p + 2
        );
        let path = write_temp(&format!("long_branch_{wave64}.hsaco"), &c.code_object);
        let mut cmd = Command::new("llvm-objdump-19");
        cmd.args(["-d", "--no-show-raw-insn", "--no-leading-addr"]);
        if wave64 {
            cmd.arg("--mattr=+wavefrontsize64");
        }
        let o = cmd.arg(&path).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8_lossy(&o.stdout);
        let theirs: Vec<String> = text
            .lines()
            .filter(|l| l.starts_with(char::is_whitespace) && !l.trim().is_empty())
            .map(|l| l.split("//").next().unwrap().trim().to_string())
            .filter(|l| !l.starts_with("s_code_end"))
            .collect();
        let ours: Vec<String> = k.listing().lines().map(|l| l.trim().to_string()).collect();
        assert_eq!(
            theirs[..ours.len()],
            ours[..],
            "llvm-objdump-19 disagrees (wave64 {wave64})"
        );
    }
}

/// The long jump's bytes are those LLVM writes: llvm-mc-19 encodes our
/// `s_getpc_b64`, `s_add_u32` (a literal distance), `s_setpc_b64` and the
/// inverted branch as we do, and the `s_addc_u32` keeps its high half as a
/// literal even when it is 0 or -1 (llvm-mc would choose an inline
/// constant; LLVM's relaxation writes a fixup, hence a literal), which is
/// the shape clang-19's object of the same kernel has.
#[test]
fn long_jump_bytes_match_llvm_mc_and_clang() {
    if !have("llvm-mc-19") {
        eprintln!("skipped: llvm-mc-19 not installed");
        return;
    }
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels");
    let opts = compiler::CompileOptions::default().include(dir.join("include"));
    let c = compiler::compile(
        compiler::Source::Path(&dir.join("conformance/long_branch.cl")),
        &opts,
    )
    .unwrap();
    let k = &c.kernels[0];
    let bytes_of = |at: u32, len: usize| k.code[at as usize..at as usize + len].to_vec();
    let mut checked = 0;
    for (n, (_, i)) in k.instructions.iter().enumerate() {
        if i.opcode != arch::isa::Opcode::S_GETPC_B64 {
            continue;
        }
        let (prev_at, prev) = &k.instructions[n - 1];
        let mut text = String::new();
        let mut ours = Vec::new();
        if prev.opcode.mnemonic().starts_with("s_cbranch") {
            text += &format!("{prev}\n");
            ours.extend(bytes_of(*prev_at, 4));
        }
        for (a, j) in [
            &k.instructions[n],
            &k.instructions[n + 1],
            &k.instructions[n + 3],
        ] {
            text += &format!("{j}\n");
            ours.extend(bytes_of(*a, usize::from(j.size)));
        }
        let o = Command::new("bash")
            .arg("-c")
            .arg(format!(
                "printf '{text}' | llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx1030 -show-encoding"
            ))
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        let theirs: Vec<u8> = out
            .lines()
            .filter_map(|l| l.split("encoding: [").nth(1))
            .flat_map(|e| {
                e.trim_end_matches(']')
                    .split(',')
                    .map(|b| u8::from_str_radix(b.trim_start_matches("0x"), 16).unwrap())
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(
            ours, theirs,
            "llvm-mc-19 encodes\n{text}differently:\n{out}"
        );
        // s_addc_u32 s[p+1], s[p+1], literal: SOP2 opcode 4, ssrc1 = 0xff.
        let (a, addc) = &k.instructions[n + 2];
        let b = bytes_of(*a, 8);
        let p1 = b[0];
        assert_eq!(addc.size, 8);
        assert_eq!(b[..4], [p1, 0xff, p1, 0x82], "{addc}");
        checked += 1;
    }
    assert!(checked >= 4, "{checked} long jumps");
    // clang-19's object has the same s_addc_u32 shape after its s_getpc_b64s.
    let clang = std::fs::read(dir.join("conformance/prebuilt/gfx1030/long_branch.hsaco")).unwrap();
    let shapes = clang
        .windows(24)
        .filter(|w| {
            w[1] == 0x1f
                && w[3] == 0xbe
                && w[5] == 0xff
                && w[7] == 0x80
                && w[13] == 0xff
                && w[15] == 0x82
        })
        .count();
    assert!(shapes >= 3, "clang's long jumps: {shapes}");
}
