//! Cross-check of the CPU references against the kernel sources: every
//! kernel is compiled for the host CPU with clang-19 (`gpusim_cl.h` has a
//! host branch), run by `tests/kernels/host/harness.c` (one thread per
//! work-item, pthread barriers, groups in sequence) on its default launch,
//! and the resulting buffers must pass the kernel's own `check`. A
//! reference that does not compute what the OpenCL source says fails here.
//! Skipped with a note when clang-19 is not on PATH.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::{fs, io};

use corpus::{all, ArgSpec, ArgValue, BufferData, CorpusKernel, ScalarValue};

/// The generated C driver: loads buffers, sets scalars, runs the grid,
/// saves buffers.
fn driver(k: &CorpusKernel) -> String {
    let mut params = Vec::new();
    let mut statics = String::new();
    let mut setup = String::new();
    let mut save = String::new();
    for (i, spec) in k.launch.args.iter().enumerate() {
        let ty = match spec {
            ArgSpec::Buffer(_) => {
                let _ = writeln!(statics, "static size_t n{i};");
                let _ = writeln!(setup, "  a{i} = gs_host_load(dir, {i}, &n{i});");
                let _ = writeln!(save, "  gs_host_save(dir, {i}, a{i}, n{i});");
                "void *"
            }
            ArgSpec::Local { bytes, .. } => {
                let _ = writeln!(setup, "  a{i} = calloc({bytes}, 1);");
                "void *"
            }
            ArgSpec::Scalar { value, .. } => match value {
                ScalarValue::U32(v) => {
                    let _ = writeln!(setup, "  a{i} = {v}u;");
                    "unsigned "
                }
                ScalarValue::I32(v) => {
                    let _ = writeln!(setup, "  a{i} = {v};");
                    "int "
                }
                ScalarValue::U64(v) => {
                    let _ = writeln!(setup, "  a{i} = {v}ull;");
                    "unsigned long long "
                }
                ScalarValue::F32(v) => {
                    let bits = v.to_bits();
                    let _ = writeln!(setup, "  {{ unsigned b = {bits}u; memcpy(&a{i}, &b, 4); }}");
                    "float "
                }
            },
        };
        let _ = writeln!(statics, "static {ty}a{i};");
        params.push((ty, format!("a{i}")));
    }
    let decl: Vec<String> = params.iter().map(|(t, n)| format!("{t}{n}")).collect();
    let call: Vec<&str> = params.iter().map(|(_, n)| n.as_str()).collect();
    let d = k.launch.dims;
    format!(
        "#include <stdlib.h>\n#include <string.h>\n\
         void gs_host_run(const unsigned grid[3], const unsigned local[3], void (*item)(void));\n\
         void *gs_host_load(const char *dir, int index, size_t *bytes);\n\
         void gs_host_save(const char *dir, int index, const void *p, size_t bytes);\n\
         void {name}({decl});\n{statics}\
         static void item(void) {{ {name}({call}); }}\n\
         int main(int argc, char **argv) {{\n  const char *dir = argc > 1 ? argv[1] : \".\";\n{setup}\
         \x20 unsigned grid[3] = {{{g0}, {g1}, {g2}}}, local[3] = {{{l0}, {l1}, {l2}}};\n\
         \x20 gs_host_run(grid, local, item);\n{save}  return 0;\n}}\n",
        name = k.name,
        decl = decl.join(", "),
        call = call.join(", "),
        g0 = d.grid[0],
        g1 = d.grid[1],
        g2 = d.grid[2],
        l0 = d.local[0],
        l1 = d.local[1],
        l2 = d.local[2],
    )
}

fn run_tool(cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{cmd:?} failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Builds and runs one kernel on the host; returns the final argument values.
fn run_on_host(k: &CorpusKernel, dir: &Path, harness_obj: &Path) -> Result<Vec<ArgValue>, String> {
    let include = corpus::kernels_dir().join("include");
    let kobj = dir.join(format!("{}.o", k.name));
    run_tool(
        Command::new("clang-19")
            .args(["-x", "cl", "-cl-std=CL2.0", "-O1", "-I"])
            .arg(&include)
            .arg("-c")
            .arg(k.source_path())
            .arg("-o")
            .arg(&kobj),
    )?;
    let src = dir.join(format!("{}_driver.c", k.name));
    fs::write(&src, driver(k)).map_err(|e| e.to_string())?;
    let exe = dir.join(format!("{}_run", k.name));
    run_tool(
        Command::new("clang-19")
            .arg("-O1")
            .arg(&src)
            .arg(harness_obj)
            .arg(&kobj)
            .arg("-o")
            .arg(&exe)
            .args(["-lpthread", "-lm"]),
    )?;
    let mut args = k.launch.materialize();
    for (i, a) in args.iter().enumerate() {
        if let ArgValue::Buffer(b) = a {
            fs::write(dir.join(format!("arg{i}.bin")), b.to_le_bytes())
                .map_err(|e| e.to_string())?;
        }
    }
    run_tool(Command::new(&exe).arg(dir))?;
    for (i, a) in args.iter_mut().enumerate() {
        if let ArgValue::Buffer(b) = a {
            let bytes = fs::read(dir.join(format!("arg{i}.bin"))).map_err(|e| e.to_string())?;
            *b = BufferData::from_le_bytes(b.elem(), &bytes).ok_or("ragged buffer file")?;
        }
    }
    Ok(args)
}

struct TempDir(PathBuf);

impl TempDir {
    fn new() -> io::Result<TempDir> {
        let p = std::env::temp_dir().join(format!("gpusim-corpus-host-{}", std::process::id()));
        fs::create_dir_all(&p)?;
        Ok(TempDir(p))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[test]
fn references_match_the_kernel_sources_run_on_the_host() {
    if !corpus::missing_tools(&["clang-19"]).is_empty() {
        eprintln!("skipping the host cross-check of the references: clang-19 not on PATH");
        return;
    }
    let tmp = TempDir::new().expect("temp dir");
    let harness_obj = tmp.0.join("harness.o");
    run_tool(
        Command::new("clang-19")
            .args(["-O1", "-c"])
            .arg(corpus::kernels_dir().join("host/harness.c"))
            .arg("-o")
            .arg(&harness_obj),
    )
    .expect("harness compiles");
    let mut failures = Vec::new();
    for k in all() {
        let dir = tmp.0.join(k.name);
        fs::create_dir_all(&dir).expect("kernel dir");
        match run_on_host(k, &dir, &harness_obj) {
            Ok(actual) => {
                if let Err(e) = k.check(&actual) {
                    failures.push(format!("{}: {e}", k.name));
                }
            }
            Err(e) => failures.push(format!("{}: {e}", k.name)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} kernels disagree with their reference:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
