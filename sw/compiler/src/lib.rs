//! gpusim's own kernel compiler: OpenCL C → gfx1030 code objects, written
//! without LLVM (clang-19 stays the oracle and the reference to beat).
//!
//! The pipeline, one module each, in the order [`compile`] runs them:
//! 1. [`front`] — preprocessor, lexer, parser and semantic analysis: OpenCL C
//!    source in, a typed AST out (errors as `file:line:col: error: message`).
//! 2. [`lower`] — the typed AST to IR: OpenCL vectors scalarised, builtins
//!    expanded, `switch` to branches, private variables promoted to SSA
//!    values where their address is not taken.
//! 3. [`ir`] — the ISA-neutral SSA IR (entity newtypes in arenas, a verifier,
//!    a printer), its analyses (CFG, uniformity, [`ir::counted_loop`]) and
//!    the `-O` passes, one file each under [`ir::opt`]; the conditional
//!    expression stays a `select` until instruction selection (seed 004).
//! 4. [`backend`] — gfx1030 code: instruction selection through `arch`
//!    ([`backend::isel`], EXEC-masked control flow), register allocation,
//!    seed 000's sub-vector pass, register rewriting, `s_waitcnt` insertion,
//!    assembly, the kernel descriptor and a code object v5; its module
//!    comment lists the passes in order.
//! 5. [`specialise`] — seed 002's dispatch-time specialisation: a kernel's
//!    kept IR recompiled with the driver's pointer-alias facts (loop
//!    unrolling and grouping, then [`backend::wide_merge`]), with a variant
//!    cache.
#![deny(missing_docs)]

pub mod backend;
pub mod front;
pub mod ir;
pub mod lower;
pub mod specialise;

use std::path::PathBuf;

pub use front::{Diagnostic, Source};

/// Options of the whole pipeline (what `gpusim compile` parses). The
/// default optimises (`-O`, as clang does for OpenCL C); `-O0` turns it off.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// `-D`, `-I`.
    pub front: front::Options,
    /// Floating-point contraction (`-ffp-contract`).
    pub lower: lower::Options,
    /// Wave size, `-O`, seed 004 policy.
    pub backend: backend::CompileOptions,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            front: front::Options::default(),
            lower: lower::Options::default(),
            backend: backend::CompileOptions {
                optimize: true,
                ..Default::default()
            },
        }
    }
}

impl CompileOptions {
    /// Adds an include directory (`-I`).
    pub fn include(mut self, dir: impl Into<PathBuf>) -> CompileOptions {
        self.front.include_dirs.push(dir.into());
        self
    }
}

/// Everything [`compile`] produced.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The lowered IR, one function per kernel (before back-end passes).
    pub ir: Vec<ir::Function>,
    /// The compiled kernels (listings, descriptors).
    pub kernels: Vec<backend::CompiledKernel>,
    /// The code object (ELF) holding every kernel.
    pub code_object: Vec<u8>,
}

/// Compiles OpenCL C source to a gfx1030 code object: front end, lowering,
/// back end. Every error — bad source, or a construct not supported yet
/// (`unsupported: …`) — is a [`Diagnostic`] at a source location.
pub fn compile(src: Source<'_>, opts: &CompileOptions) -> Result<Compiled, Diagnostic> {
    let (tu, sm) = front::compile_to_typed_ast_with_sources(src, &opts.front)?;
    let mut out = Compiled {
        ir: Vec::new(),
        kernels: Vec::new(),
        code_object: Vec::new(),
    };
    let kernels: Vec<_> = tu.kernels().map(|(id, f)| (id, f.loc)).collect();
    if kernels.is_empty() {
        let name = match src {
            Source::Path(p) => p.display().to_string(),
            Source::Text { name, .. } => name.to_string(),
        };
        return Err(Diagnostic {
            path: name,
            line: 1,
            col: 1,
            message: "no __kernel function to compile".into(),
            source_line: String::new(),
        });
    }
    for (id, loc) in kernels {
        let f = lower::lower_kernel(&tu, id, &opts.lower).map_err(|e| sm.diagnostic(&e))?;
        let k = backend::compile(&f, &opts.backend).map_err(|e| {
            let msg = match e {
                backend::BackendError::Unsupported(w) => format!("unsupported: {w}"),
                e => e.to_string(),
            };
            sm.diagnostic(&front::diag::Error { loc, msg })
        })?;
        out.ir.push(f);
        out.kernels.push(k);
    }
    out.code_object = backend::code_object(&out.kernels).map_err(|e| {
        sm.diagnostic(&front::diag::Error {
            loc: tu.functions[0].loc,
            msg: e.to_string(),
        })
    })?;
    Ok(out)
}
