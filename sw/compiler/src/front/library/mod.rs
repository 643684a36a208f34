//! The device library: OpenCL C math functions written in OpenCL C
//! (`sw/compiler/lib/*.cl`, one file per family), compiled by gpusim's own
//! front end once per process and linked into a kernel only when the
//! kernel calls them (the way LLVM's libclc and ROCm's ocml serve clang).
//!
//! Library functions have reserved names (`__gpusim_sin_f32`); [`table`]
//! says which OpenCL built-in maps to which. Sema resolves `sin(float4)` to
//! a [`super::builtins::Builtin::Lib`] call of the linked copy, and the
//! lowering inlines it once per component. Library code reaches the
//! hardware through clang's `__builtin_amdgcn_*` names (`sinf`, `exp2f`,
//! `logf`, `ldexpf`, `frexp_mantf`, `fractf`, ...) and calls other library
//! functions by their reserved names, never the OpenCL names (which would
//! need the library while it is being built).

mod link;
pub mod table;

use super::tast::{FuncId, TranslationUnit};
use std::cell::Cell;
use std::sync::OnceLock;

pub(crate) use link::link;

/// The library's source files, in the order they are concatenated (a file
/// may call functions of the files before it).
pub const SOURCES: &[(&str, &str)] = &[
    ("lib/common.cl", include_str!("../../../lib/common.cl")),
    ("lib/rounding.cl", include_str!("../../../lib/rounding.cl")),
    ("lib/exp_log.cl", include_str!("../../../lib/exp_log.cl")),
    ("lib/pow.cl", include_str!("../../../lib/pow.cl")),
    ("lib/trig.cl", include_str!("../../../lib/trig.cl")),
    ("lib/native.cl", include_str!("../../../lib/native.cl")),
    ("lib/special.cl", include_str!("../../../lib/special.cl")),
    (
        "lib/relational.cl",
        include_str!("../../../lib/relational.cl"),
    ),
    (
        "lib/geometric.cl",
        include_str!("../../../lib/geometric.cl"),
    ),
    ("lib/integer.cl", include_str!("../../../lib/integer.cl")),
];

/// The compiled library: a translation unit of helper functions only.
#[derive(Debug)]
pub struct Library {
    /// The typed functions (no kernels, no program-scope variables, no structs).
    pub tu: TranslationUnit,
}

impl Library {
    /// The library function named `name`.
    pub fn function(&self, name: &str) -> Option<FuncId> {
        self.tu
            .functions
            .iter()
            .position(|f| f.name == name && f.body.is_some())
            .map(|i| FuncId(i as u32))
    }
}

static LIBRARY: OnceLock<Result<Library, String>> = OnceLock::new();

thread_local! {
    static BUILDING: Cell<bool> = const { Cell::new(false) };
}

/// True while this thread compiles the library itself (sema then refuses
/// OpenCL names that map to the library instead of recursing).
pub(crate) fn building() -> bool {
    BUILDING.with(|b| b.get())
}

/// The library's whole source, as compiled.
pub fn source() -> String {
    let mut s = String::new();
    for (name, text) in SOURCES {
        s.push_str(&format!("/* ---- {name} ---- */\n"));
        s.push_str(text);
        s.push('\n');
    }
    s
}

/// The library, compiled on first use (once per process); an error is the
/// library's own bug, reported as text.
pub fn get() -> Result<&'static Library, String> {
    LIBRARY
        .get_or_init(|| {
            BUILDING.with(|b| b.set(true));
            let src = source();
            let r = super::compile_to_typed_ast(
                super::Source::Text {
                    name: "<gpusim device library>",
                    text: &src,
                },
                &super::Options::default(),
            );
            BUILDING.with(|b| b.set(false));
            let tu = r.map_err(|d| format!("the device library does not compile: {d}"))?;
            if !tu.globals.is_empty() || tu.kernels().next().is_some() {
                return Err("the device library may hold functions only".to_string());
            }
            Ok(Library { tu })
        })
        .as_ref()
        .map_err(Clone::clone)
}
