//! Shared by the back-end tests: run a compiled kernel on the golden GPU
//! through the driver and read the buffers back.

#![allow(dead_code)]

use arch::device::Device;
use arch::isa::Isa;
use compiler::backend::{code_object, CompiledKernel};
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::{Arg, Driver, LaunchDims};

/// A kernel parameter: name, IR type, OpenCL type name (the metadata's).
pub type Param<'a> = (&'a str, compiler::ir::Type, &'a str);

/// A `__global int *` parameter.
pub fn int_buffer(name: &str) -> Param<'_> {
    use compiler::ir::{AddrSpace, Type};
    (name, Type::Ptr(AddrSpace::Global), "int*")
}

/// An `int` parameter.
pub fn int_value(name: &str) -> Param<'_> {
    (name, compiler::ir::Type::I32, "int")
}

/// An empty kernel `name` with `params` (the set-up every builder test repeats).
pub fn kernel(name: &str, params: &[Param<'_>]) -> compiler::ir::Function {
    let mut f = compiler::ir::Function::new(name);
    for &(p, ty, type_name) in params {
        f.add_param(p, ty, type_name);
    }
    f
}

/// The first `N` kernel arguments as values, in parameter order.
pub fn kernel_args<const N: usize>(b: &mut compiler::ir::Builder<'_>) -> [compiler::ir::Value; N] {
    std::array::from_fn(|i| b.kernel_arg(i as u32))
}

/// The address of dword `index` of buffer `base`: `base + (index << 2)`.
pub fn dword_at(
    b: &mut compiler::ir::Builder<'_>,
    base: compiler::ir::Value,
    index: compiler::ir::Value,
) -> compiler::ir::Value {
    let two = b.iconst(compiler::ir::Type::I32, 2);
    let off = b.shl(index, two);
    b.ptr_add(base, off)
}

/// A counted do-while loop with an accumulator, its result stored per
/// work-item: `i = 0; acc = init; do { acc = step(i, acc); } while (++i < bound);
/// out[gid] = acc;` then `ret` (the loop tests' shared shape).
pub fn accumulate_loop(
    b: &mut compiler::ir::Builder<'_>,
    init: compiler::ir::Value,
    bound: compiler::ir::Value,
    out: compiler::ir::Value,
    gid: compiler::ir::Value,
    step: impl FnOnce(
        &mut compiler::ir::Builder<'_>,
        compiler::ir::Value,
        compiler::ir::Value,
    ) -> compiler::ir::Value,
) {
    use compiler::ir::{IntCC, Type};
    let zero = b.iconst(Type::I32, 0);
    let one = b.iconst(Type::I32, 1);
    let head = b.create_block();
    let exit = b.create_block();
    let i = b.block_param(head, Type::I32);
    let acc = b.block_param(head, Type::I32);
    let r = b.block_param(exit, Type::I32);
    b.jump(head, &[zero, init]);
    b.switch_to(head);
    let acc2 = step(b, i, acc);
    let i2 = b.iadd(i, one);
    let more = b.icmp(IntCC::Slt, i2, bound);
    b.brif(more, head, &[i2, acc2], exit, &[acc2]);
    b.switch_to(exit);
    let po = dword_at(b, out, gid);
    b.store(po, r);
    b.ret();
}

/// A kernel argument for [`run`].
#[derive(Clone, Debug)]
pub enum TestArg {
    /// A global buffer of dwords (read back after the run).
    Buf(Vec<u32>),
    /// A 32-bit value.
    U32(u32),
    /// A by-value argument of any size: its little-endian bytes.
    Bytes(Vec<u8>),
}

/// Runs `k` over `grid` work-items in workgroups of `wg` on the golden
/// gfx1030 GPU; returns every buffer argument's final contents.
pub fn run(
    k: &CompiledKernel,
    grid: u32,
    wg: u32,
    args: &[TestArg],
) -> Result<Vec<Vec<u32>>, String> {
    let gpu = GoldenGpu::new(GoldenConfig::new(Isa::Gfx1030)).map_err(|e| e.to_string())?;
    run_on(gpu, k, grid, wg, args).map(|(out, _)| out)
}

/// Compiles OpenCL C `src` (file name `t.cl`) with the default options
/// (`-O`) for wave32 or wave64; a diagnostic panics with the wave size.
pub fn build(src: &str, wave64: bool) -> compiler::Compiled {
    let mut o = compiler::CompileOptions::default();
    o.backend.wave64 = wave64;
    compiler::compile(
        compiler::Source::Text {
            name: "t.cl",
            text: src,
        },
        &o,
    )
    .unwrap_or_else(|d| panic!("wave64={wave64}:\n{d}"))
}

/// [`build`]'s one kernel.
pub fn build_kernel(src: &str, wave64: bool) -> CompiledKernel {
    build(src, wave64)
        .kernels
        .into_iter()
        .next()
        .expect("one kernel")
}

/// [`run`] on any device; also returns the driver (and so the device, for its statistics).
pub fn run_on<D: Device>(
    gpu: D,
    k: &CompiledKernel,
    grid: u32,
    wg: u32,
    args: &[TestArg],
) -> Result<(Vec<Vec<u32>>, Driver<D>), String> {
    let elf = code_object(std::slice::from_ref(k)).map_err(|e| e.to_string())?;
    check_objdump(k, &elf)?;
    run_elf_on(gpu, &elf, &k.name, grid, wg, args)
}

/// Runs kernel `name` of the code object `elf` (ours or clang's) on the
/// golden gfx1030 GPU; returns every buffer argument's final contents.
pub fn run_elf(
    elf: &[u8],
    name: &str,
    grid: u32,
    wg: u32,
    args: &[TestArg],
) -> Result<Vec<Vec<u32>>, String> {
    let gpu = GoldenGpu::new(GoldenConfig::new(Isa::Gfx1030)).map_err(|e| e.to_string())?;
    run_elf_on(gpu, elf, name, grid, wg, args).map(|(out, _)| out)
}

/// [`run_elf`] on any device.
pub fn run_elf_on<D: Device>(
    gpu: D,
    elf: &[u8],
    name: &str,
    grid: u32,
    wg: u32,
    args: &[TestArg],
) -> Result<(Vec<Vec<u32>>, Driver<D>), String> {
    run_elf_dims_on(gpu, elf, name, LaunchDims::linear(grid, wg), args)
}

/// [`run_elf`] with any launch geometry (1-3 dimensions) on the golden GPU.
pub fn run_elf_dims(
    elf: &[u8],
    name: &str,
    dims: LaunchDims,
    args: &[TestArg],
) -> Result<Vec<Vec<u32>>, String> {
    let gpu = GoldenGpu::new(GoldenConfig::new(Isa::Gfx1030)).map_err(|e| e.to_string())?;
    run_elf_dims_on(gpu, elf, name, dims, args).map(|(out, _)| out)
}

/// [`run_elf_dims`] on any device.
pub fn run_elf_dims_on<D: Device>(
    gpu: D,
    elf: &[u8],
    name: &str,
    dims: LaunchDims,
    args: &[TestArg],
) -> Result<(Vec<Vec<u32>>, Driver<D>), String> {
    let mut d = Driver::new(gpu).map_err(|e| e.to_string())?;
    let p = d.load(elf).map_err(|e| e.to_string())?;
    let lk = p.kernel(name).map_err(|e| e.to_string())?.clone();
    let mut dargs = Vec::new();
    let mut bufs = Vec::new();
    for a in args {
        match a {
            TestArg::Buf(v) => {
                let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
                let b = d.create_buffer(&bytes).map_err(|e| e.to_string())?;
                bufs.push(b);
                dargs.push(Arg::Buffer(b.address));
            }
            TestArg::U32(x) => dargs.push(Arg::u32(*x)),
            TestArg::Bytes(b) => dargs.push(Arg::Value(b.clone())),
        }
    }
    d.launch(&lk, dims, &dargs).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for b in bufs {
        let bytes = d.download(b).map_err(|e| e.to_string())?;
        out.push(
            bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        );
    }
    Ok((out, d))
}

/// clang-19's object of OpenCL C 2.0 `src` for gfx1030 (wave64 when asked)
/// with ROCm's device libraries (`$ROCM_BC`, default Debian's
/// rocm-device-libs), or why not; `tag` names its temporary directory.
pub fn clang_rocm_object(src: &str, wave64: bool, tag: &str) -> Result<Vec<u8>, String> {
    let bc = std::env::var("ROCM_BC")
        .unwrap_or_else(|_| "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode".into());
    if !std::path::Path::new(&bc).join("ocml.bc").exists() {
        return Err(format!("no ROCm device libraries in {bc}"));
    }
    let dir = std::env::temp_dir().join(format!("gpusim_rocm_{}_{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let (cl, hsaco) = (dir.join("k.cl"), dir.join("k.hsaco"));
    std::fs::write(&cl, src).map_err(|e| e.to_string())?;
    let mut c = std::process::Command::new("clang-19");
    c.args([
        "-x",
        "cl",
        "-cl-std=CL2.0",
        "-target",
        "amdgcn-amd-amdhsa",
        "-mcpu=gfx1030",
    ]);
    if wave64 {
        c.arg("-mwavefrontsize64");
    }
    c.arg("-O3")
        .arg(format!("--rocm-device-lib-path={bc}"))
        .arg(&cl)
        .arg("-o")
        .arg(&hsaco);
    let out = c.output().map_err(|e| format!("clang-19: {e}"))?;
    let r = if out.status.success() {
        std::fs::read(&hsaco).map_err(|e| e.to_string())
    } else {
        Err(format!(
            "clang-19 failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ))
    };
    let _ = std::fs::remove_dir_all(&dir);
    r
}

/// Where the precise-output files live.
pub fn expect_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expect")
}

/// Compares `actual` with `tests/expect/NAME`; with `UPDATE_EXPECT=1` in the
/// environment, rewrites the file instead (the one command that regenerates
/// every precise-output test: `UPDATE_EXPECT=1 cargo test --release -p compiler`).
pub fn check_expect(name: &str, actual: &str) {
    let path = expect_dir().join(name);
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::create_dir_all(expect_dir()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "{} is missing: run `UPDATE_EXPECT=1 cargo test --release -p compiler` to create it",
            path.display()
        )
    });
    if expected != actual {
        panic!(
            "precise output {} differs (regenerate with UPDATE_EXPECT=1 if intended)\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display()
        );
    }
}

/// Acceptance check run on every object the tests execute (the seed-004
/// objects included): when `llvm-objdump-19` is installed, its whole
/// `-d` output — header, symbols, addresses, encodings, instructions — is
/// exactly what `gpusim disasm` prints (the same `arch::isa::listing`
/// functions), its instructions are our listing's, and `llvm-readelf-19
/// --notes` reads the kernel's metadata.
pub fn check_objdump(k: &CompiledKernel, elf: &[u8]) -> Result<(), String> {
    use arch::code_object::CodeObject;
    use arch::isa::listing::{file_header, section_listing};
    use std::process::Command;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::OnceLock;
    static HAVE: OnceLock<bool> = OnceLock::new();
    static SERIAL: AtomicU64 = AtomicU64::new(0);
    let have = *HAVE.get_or_init(|| {
        ["llvm-objdump-19", "llvm-readelf-19"].iter().all(|t| {
            Command::new(t)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
    });
    if !have {
        return Ok(());
    }
    let dir = std::env::temp_dir().join(format!("gpusim-compiler-objdump-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let file = format!(
        "{}-{}.hsaco",
        k.name,
        SERIAL.fetch_add(1, Ordering::Relaxed)
    );
    let path = dir.join(&file);
    std::fs::write(&path, elf).map_err(|e| e.to_string())?;
    let mut cmd = Command::new("llvm-objdump-19");
    cmd.arg("-d").current_dir(&dir);
    if k.target.wave64 {
        cmd.arg("--mattr=+wavefrontsize64");
    }
    let o = cmd.arg(&file).output().map_err(|e| e.to_string())?;
    let notes = Command::new("llvm-readelf-19")
        .args(["--notes", &file])
        .current_dir(&dir)
        .output()
        .map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&path);
    let text = String::from_utf8_lossy(&o.stdout);
    // What `gpusim disasm FILE` prints.
    let co = CodeObject::parse(elf).map_err(|e| e.to_string())?;
    let target = co.target().ok_or("the object's target is not modelled")?;
    let mut disasm = String::new();
    file_header(&file, &mut disasm);
    section_listing(
        target,
        co.text().address,
        &co.text().bytes,
        &co.labels(),
        &mut disasm,
    )
    .map_err(|e| e.to_string())?;
    if text != disasm {
        return Err(format!(
            "llvm-objdump-19 -d differs from gpusim disasm:\n{text}\n--- gpusim disasm\n{disasm}"
        ));
    }
    // The instruction column is our listing.
    let theirs: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with(char::is_whitespace) && !l.trim().is_empty())
        .map(|l| l.split("//").next().unwrap_or("").trim())
        .collect();
    let listing = k.listing();
    let ours: Vec<&str> = listing.lines().map(str::trim).collect();
    if theirs.len() < ours.len() || theirs[..ours.len()] != ours[..] {
        return Err(format!(
            "llvm-objdump-19 disagrees with our listing:\n{text}\n--- ours\n{listing}"
        ));
    }
    let notes = String::from_utf8_lossy(&notes.stdout);
    let wave = if k.target.wave64 { 64 } else { 32 };
    for needle in [
        "NT_AMDGPU_METADATA".to_string(),
        format!(".name:           {}", k.name),
        format!(".wavefront_size: {wave}"),
    ] {
        if !notes.contains(&needle) {
            return Err(format!(
                "llvm-readelf-19 --notes lacks `{needle}`:\n{notes}"
            ));
        }
    }
    Ok(())
}
