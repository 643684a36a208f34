//! The kernel corpus's registry, part of the product: every corpus kernel's
//! default launch and Rust CPU reference, the work-creation kernels, and the
//! seeded generator of buffer contents. `gpusim` runs these for a workload's
//! `reference: corpus` check, a corpus workload's default launch and seeded
//! buffers; the test crate `corpus` (in `tests/`) re-exports this crate and
//! adds the end-to-end tests. The data (OpenCL C sources, code objects
//! prebuilt by clang-19 for gfx803, gfx1030 and gfx1030 wave64, LLVM's
//! disassembly of them) stays in `tests/kernels/` ([`kernels_dir`]).
//!
//! A simulator test takes a [`CorpusKernel`], loads
//! [`CorpusKernel::prebuilt_path`] for its target, allocates the buffers
//! from [`Launch::materialize`] (each as [`BufferData::to_le_bytes`]),
//! dispatches with [`Dims`], reads the buffers back and calls
//! [`CorpusKernel::check`].
//!
//! ```
//! let k = corpus_ref::find("saxpy").expect("saxpy is registered");
//! let initial = k.launch.materialize();
//! let expected = k.expected().expect("the reference runs on the default launch");
//! // A "device" that does nothing fails the check: y must change.
//! assert!(k.check_against(&expected, &initial).is_err());
//! assert!(k.check_against(&expected, &expected).is_ok());
//! ```
//!
//! Runtime conventions the kernels rely on (see `kernels/include/gpusim_cl.h`
//! and `docs/corpus.md`): work-group and grid sizes are read from the HSA
//! dispatch packet, the global offset is zero and grids are whole
//! work-groups.
#![deny(missing_docs)]

use std::path::PathBuf;

pub use arch::isa::Target;

pub mod args;
pub mod compare;
pub mod error;
mod kernels;
pub mod prng;
pub mod types;
pub mod work;

pub use error::CorpusError;
pub use types::{
    ArgSpec, ArgValue, BufferData, BufferSpec, Compare, Dims, ElemType, Init, Launch, ScalarValue,
};

/// A CPU reference: given the geometry and the initial argument values, it
/// overwrites every output buffer with its expected final contents.
pub type Reference = fn(&Dims, &mut [ArgValue]) -> Result<(), CorpusError>;

/// One corpus kernel.
#[derive(Clone, Copy, Debug)]
pub struct CorpusKernel {
    /// Kernel name = file stem of the `.cl` source = ELF symbol.
    pub name: &'static str,
    /// What the kernel exercises (one line).
    pub summary: &'static str,
    /// The default launch.
    pub launch: Launch,
    /// The CPU reference.
    pub reference: Reference,
}

/// The metadata YAML document in `llvm-readelf --notes` output (the
/// `NT_AMDGPU_METADATA` or v2 `NT_AMD_HSA_METADATA` note, from its `---`
/// line to its `...` line, de-indented as readelf prints the first line),
/// ready for a YAML parser; empty when there is none.
pub fn readelf_metadata_yaml(notes: &str) -> String {
    let mut doc = String::new();
    for l in notes.lines().skip_while(|l| l.trim() != "---") {
        doc.push_str(if l.trim() == "---" { "---" } else { l });
        doc.push('\n');
        if l.trim() == "..." {
            break;
        }
    }
    doc
}

/// The tools of `tools` that do not run (`TOOL --version` fails): the
/// LLVM-backed checks skip themselves, saying so, when any is missing.
pub fn missing_tools<'a>(tools: &[&'a str]) -> Vec<&'a str> {
    tools
        .iter()
        .copied()
        .filter(|t| {
            !std::process::Command::new(t)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .collect()
}

/// The three compilation targets, in the order of their directory names
/// `gfx803`, `gfx1030`, `gfx1030-w64`.
pub const TARGETS: [Target; 3] = [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64];

/// The directory name used for `target` under `prebuilt/` and `expected/`.
pub fn target_dir(target: Target) -> &'static str {
    match (target.isa, target.wave64) {
        (arch::isa::Isa::Gfx803, _) => "gfx803",
        (arch::isa::Isa::Gfx1030, false) => "gfx1030",
        (arch::isa::Isa::Gfx1030, true) => "gfx1030-w64",
    }
}

/// Absolute path of `tests/kernels` in this checkout (this crate is
/// `cosim/corpus-ref/`, two levels below the repository root).
pub fn kernels_dir() -> PathBuf {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .nth(2)
        .unwrap_or(manifest)
        .join("tests")
        .join("kernels")
}

impl CorpusKernel {
    /// The OpenCL C source, `tests/kernels/<name>.cl`.
    pub fn source_path(&self) -> PathBuf {
        kernels_dir().join(format!("{}.cl", self.name))
    }

    /// The prebuilt code object, `tests/kernels/prebuilt/<target>/<name>.hsaco`.
    pub fn prebuilt_path(&self, target: Target) -> PathBuf {
        kernels_dir()
            .join("prebuilt")
            .join(target_dir(target))
            .join(format!("{}.hsaco", self.name))
    }

    /// `llvm-objdump-19 -d` output for the prebuilt object.
    pub fn expected_disassembly_path(&self, target: Target) -> PathBuf {
        kernels_dir()
            .join("expected")
            .join(target_dir(target))
            .join(format!("{}.dis", self.name))
    }

    /// `llvm-readelf-19 --notes` output (code object metadata) for the
    /// prebuilt object.
    pub fn expected_notes_path(&self, target: Target) -> PathBuf {
        kernels_dir()
            .join("expected")
            .join(target_dir(target))
            .join(format!("{}.notes", self.name))
    }

    /// Reads the prebuilt code object.
    pub fn load_prebuilt(&self, target: Target) -> std::io::Result<Vec<u8>> {
        std::fs::read(self.prebuilt_path(target))
    }

    /// Runs the reference on `args` (initial values in, final values out)
    /// after checking the argument count and that the grid is made of whole
    /// work-groups.
    pub fn run_reference(&self, dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
        if args.len() != self.launch.args.len() {
            return Err(CorpusError::ArgCount {
                kernel: self.name,
                expected: self.launch.args.len(),
                got: args.len(),
            });
        }
        if !dims.is_uniform() {
            return Err(CorpusError::BadLaunch {
                kernel: self.name,
                reason: format!(
                    "grid {:?} is not a multiple of the work-group {:?}",
                    dims.grid, dims.local
                ),
            });
        }
        (self.reference)(dims, args)
    }

    /// The expected final argument values of the default launch.
    pub fn expected(&self) -> Result<Vec<ArgValue>, CorpusError> {
        let mut args = self.launch.materialize();
        self.run_reference(&self.launch.dims, &mut args)?;
        Ok(args)
    }

    /// Checks the final argument values of a default-launch run against the
    /// reference.
    pub fn check(&self, actual: &[ArgValue]) -> Result<(), CorpusError> {
        self.check_against(&self.expected()?, actual)
    }

    /// Checks `actual` against precomputed `expected` values, buffer by
    /// buffer, with each buffer's [`Compare`] mode from the default launch.
    /// Scalars and LDS sizes must be identical.
    pub fn check_against(
        &self,
        expected: &[ArgValue],
        actual: &[ArgValue],
    ) -> Result<(), CorpusError> {
        for values in [expected, actual] {
            if values.len() != self.launch.args.len() {
                return Err(CorpusError::ArgCount {
                    kernel: self.name,
                    expected: self.launch.args.len(),
                    got: values.len(),
                });
            }
        }
        for (i, spec) in self.launch.args.iter().enumerate() {
            match (spec, &expected[i], &actual[i]) {
                (ArgSpec::Buffer(b), ArgValue::Buffer(e), ArgValue::Buffer(a)) => {
                    compare::compare_buffer(self.name, i, b.name, b.compare, e, a)?
                }
                (_, e, a) if e == a => {}
                (_, e, a) => {
                    return Err(CorpusError::ArgKind {
                        index: i,
                        expected: "the launch's argument",
                        found: format!("{} (expected {})", a.describe(), e.describe()),
                    })
                }
            }
        }
        Ok(())
    }
}

/// Every corpus kernel, sorted by name.
pub fn all() -> &'static [CorpusKernel] {
    kernels::ALL
}

/// The corpus kernel called `name`.
pub fn find(name: &str) -> Option<&'static CorpusKernel> {
    all().iter().find(|k| k.name == name)
}
