//! `gpusim compile`: OpenCL C → a gfx1030 code object with gpusim's own
//! compiler (`sw/compiler`). The arguments follow clang's spelling, so they
//! are parsed by hand: `-O2`, `-DNAME=V`, `-Idir` and `-ffp-contract=fast`
//! are single tokens clap does not model.

use std::path::PathBuf;

use compiler::backend::subvector::{Report, SubvectorRewrite};
use compiler::lower::{FpContract, FpDivSqrt};
use compiler::{compile, CompileOptions, Source};

use super::CliError;

/// What the command line asked for.
#[derive(Debug, Default)]
struct Request {
    input: Option<PathBuf>,
    output: Option<PathBuf>,
    listing: bool,
    emit_ir: bool,
    opts: CompileOptions,
}

fn parse(args: &[String]) -> Result<Request, CliError> {
    let bad = |m: String| Err(CliError::BadInput(m));
    let mut r = Request::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| -> Result<String, CliError> {
            it.next()
                .cloned()
                .ok_or_else(|| CliError::BadInput(format!("{flag} needs a value")))
        };
        match a.as_str() {
            "-o" => r.output = Some(value("-o")?.into()),
            "-S" => r.listing = true,
            "--emit-ir" => r.emit_ir = true,
            "--wave64" | "-mwavefrontsize64" => {
                r.opts.backend.wave64 = true;
                r.opts.front.wave64 = true;
            }
            "-O0" => r.opts.backend.optimize = false,
            "-O" | "-O1" | "-O2" | "-O3" => r.opts.backend.optimize = true,
            "--target" => {
                let t = value("--target")?;
                if t != "gfx1030" {
                    return bad(format!("--target {t}: only gfx1030 is supported"));
                }
            }
            "-D" => define(&mut r, &value("-D")?),
            "-I" => r.opts.front.include_dirs.push(value("-I")?.into()),
            "-U" => r.opts.front.undefines.push(value("-U")?),
            "-include" => r.opts.front.forced_includes.push(value("-include")?.into()),
            "-cl-single-precision-constant" => r.opts.front.single_precision_constant = true,
            // gpusim's front end gives no warnings: nothing to silence or promote.
            "-w" | "-Werror" => {}
            // clang's floating-point flags with clang's meaning: contraction
            // of `a * b + c` within an expression (`on` honours
            // `#pragma OPENCL FP_CONTRACT`, `fast` ignores it); the f32
            // division and `sqrt` expansions (clang-19's for each flag).
            "-ffp-contract=off" => r.opts.lower.fp_contract = FpContract::Off,
            "-ffp-contract=on" => r.opts.lower.fp_contract = FpContract::On,
            "-ffp-contract=fast" => r.opts.lower.fp_contract = FpContract::Fast,
            // Relaxed math allows contraction regardless of the pragma and
            // divides by `a * rcp(b)`, `sqrt` a bare `v_sqrt_f32`; it wins
            // over the correctly-rounded flag in either order (as in clang-19).
            "-cl-fast-relaxed-math" => {
                r.opts.lower.fp_contract = FpContract::Fast;
                r.opts.lower.fp_div_sqrt = FpDivSqrt::Relaxed;
            }
            "-cl-fp32-correctly-rounded-divide-sqrt" => {
                if r.opts.lower.fp_div_sqrt != FpDivSqrt::Relaxed {
                    r.opts.lower.fp_div_sqrt = FpDivSqrt::CorrectlyRounded;
                }
            }
            // `__OPENCL_C_VERSION__` and the feature macros follow it, as
            // in clang-19 (default: OpenCL C 1.2); the language accepted
            // is the same.
            s if s.starts_with("-cl-std=") => {
                let v = &s["-cl-std=".len()..];
                r.opts.front.cl_std = Some(compiler::front::parse_cl_std(v).ok_or_else(|| {
                    CliError::BadInput(format!("{s}: say CL1.0, CL1.1, CL1.2, CL2.0 or CL3.0"))
                })?);
            }
            // Seed 000's sub-vector pass (docs/compiler.md "Seed 000").
            s if s.starts_with("--subvector=") => {
                let v = &s["--subvector=".len()..];
                r.opts.backend.subvector.rewrite = SubvectorRewrite::parse(v).ok_or_else(|| {
                    CliError::BadInput(format!("{s}: say loop, duplicate, hw or off"))
                })?;
            }
            s if s.starts_with("--subvector-threshold=") => {
                r.opts.backend.subvector.threshold = count(s, "--subvector-threshold=")?;
            }
            s if s.starts_with("--subvector-chunk=") => {
                r.opts.backend.subvector.chunk = count(s, "--subvector-chunk=")?;
            }
            s if s.starts_with("--target=") => {
                if s != "--target=gfx1030" {
                    return bad(format!("{s}: only gfx1030 is supported"));
                }
            }
            s if s.starts_with("-D") => define(&mut r, &s[2..]),
            s if s.starts_with("-I") => r.opts.front.include_dirs.push(s[2..].into()),
            s if s.starts_with("-U") => r.opts.front.undefines.push(s[2..].to_string()),
            s if s.starts_with('-') => return bad(format!("unknown option `{s}`")),
            s => {
                if r.input.is_some() {
                    return bad(format!("`{s}`: only one source file"));
                }
                r.input = Some(s.into());
            }
        }
    }
    Ok(r)
}

/// The compiler options in `words` (`-DTILE=16`, `-cl-fast-relaxed-math`,
/// `-mwavefrontsize64`, … — what `gpusim compile` takes besides its input
/// and outputs): a workload's `source:` kernel is compiled with these.
pub fn parse_options(words: &[String]) -> Result<CompileOptions, String> {
    let r = parse(words).map_err(|e| e.to_string())?;
    if let Some(i) = &r.input {
        return Err(format!(
            "`{}`: not an option (the source file is `source:`)",
            i.display()
        ));
    }
    if r.output.is_some() || r.listing || r.emit_ir {
        return Err("-o, -S and --emit-ir choose `gpusim compile`'s outputs; a workload takes only compiler options".into());
    }
    Ok(r.opts)
}

/// The positive count after `flag` in `s`.
fn count(s: &str, flag: &str) -> Result<u16, CliError> {
    s[flag.len()..]
        .parse::<u16>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| CliError::BadInput(format!("{s}: needs a count from 1 to 65535")))
}

fn define(r: &mut Request, d: &str) {
    let (n, v) = match d.split_once('=') {
        Some((n, v)) => (n.to_string(), Some(v.to_string())),
        None => (d.to_string(), None),
    };
    r.opts.front.defines.push((n, v));
}

/// The sub-vector pass's segments and decisions as listing comments.
fn subvector_summary(r: &Report) -> String {
    let mut s = format!(
        "; subvector: {:?}, threshold {} VGPRs, {} segments, {} runs rewritten, {} shared VGPRs (of {} before)\n",
        r.rewrite,
        r.threshold,
        r.segments.len(),
        r.rewritten(),
        r.shared_vgprs,
        r.vgprs_before
    );
    for (i, seg) in r.segments.iter().enumerate() {
        s += &format!(
            ";   segment {i}: {:?} items {}..{} usage {}\n",
            seg.kind, seg.items.start, seg.items.end, seg.usage
        );
    }
    for reg in &r.regions {
        let what = match &reg.outcome {
            Ok(()) => "rewritten".to_string(),
            Err(why) => format!("conventional: {why}"),
        };
        s += &format!(
            ";   segments {}..{}: {what}\n",
            reg.segments.start, reg.segments.end
        );
    }
    if let Some(n) = &r.note {
        s += &format!(";   {n}\n");
    }
    s
}

/// Runs `gpusim compile ARGS…`; returns what to print on stdout.
pub fn run(args: &[String]) -> Result<String, CliError> {
    let r = parse(args)?;
    let Some(input) = r.input else {
        return Err(CliError::BadInput("no source file given".into()));
    };
    // An unreadable input has no line to show under a caret: say so plainly
    // (the diagnostic's three-line form printed a blank line and a lone `^`).
    if let Err(e) = std::fs::File::open(&input) {
        return Err(CliError::BadInput(format!(
            "{}: cannot read the source file: {e}",
            input.display()
        )));
    }
    // A diagnostic is bad input (exit 2) with clang's three-line form.
    let c =
        compile(Source::Path(&input), &r.opts).map_err(|d| CliError::Diagnostic(d.to_string()))?;
    let mut out = String::new();
    if r.emit_ir {
        for f in &c.ir {
            out += &compiler::ir::print(f);
        }
    }
    // `-S`: assembly (to -o's file when given, else stdout), never the ELF.
    let asm = r.listing.then(|| {
        super::compile_asm::assembly(&c.kernels, &|k| {
            if k.subvector.rewrite != SubvectorRewrite::Off {
                subvector_summary(&k.subvector)
            } else {
                String::new()
            }
        })
    });
    let bytes: &[u8] = asm.as_deref().map_or(&c.code_object, str::as_bytes);
    match r.output {
        Some(path) => std::fs::write(&path, bytes).map_err(|source| CliError::Io { path, source })?,
        None if asm.is_some() => out += asm.as_deref().unwrap_or_default(),
        None if !r.emit_ir => {
            return Err(CliError::BadInput(
                "say where the code object goes with -o (or print assembly with -S / IR with --emit-ir)".into(),
            ))
        }
        None => {}
    }
    Ok(out)
}
