//! The preprocessor: `#include "…"`/`<…>` through the including file's
//! directory and `-I`, object- and function-like `#define` (with `#`, `##`
//! and `__VA_ARGS__`), `#undef`, `#if/#ifdef/#ifndef/#elif/#else/#endif`
//! with constant expressions and `defined`, `#error`, `#pragma` and
//! `_Pragma("…")`, `-D NAME[=V]`, `__FILE__`/`__LINE__`.
//!
//! Macro expansion follows Prosser's algorithm (every token carries the set
//! of macros that must not expand it again), so recursive macros stop and
//! nothing loops. A token that comes out of a macro body gets the location
//! of the macro's use, so errors point at the line the programmer wrote;
//! tokens of macro arguments keep their own location. `#pragma unroll [N]`
//! and `#pragma OPENCL FP_CONTRACT` become [`Tok::Pragma`] tokens that the
//! parser attaches to the next loop / function; other pragmas are ignored.

mod eval;
mod expand;

use super::diag::{err, Error, Loc, Result, SourceMap};
use super::lexer::{lex, unescape, Interner, Pragma, Punct, Sym, Tok, Token};
use eval::Eval;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Macros clang predefines for `-target amdgcn-amd-amdhsa -mcpu=gfx1030`
/// whatever the `-cl-std` that OpenCL sources test or use (target,
/// extensions, limits, math constants; `clang-19 ... -E -dM - </dev/null`
/// lists them), plus the OpenCL memory flags and orders the OpenCL headers
/// would declare. The ones that depend on `-cl-std`: [`version_macros`].
/// The OpenCL C version clang compiles without `-cl-std` (its
/// `__OPENCL_C_VERSION__` then is 120).
pub const DEFAULT_CL_STD: u32 = 120;

/// The macros whose presence or value depends on the OpenCL C version
/// `cl_std` (`-cl-std=CL1.2` → 120; `None`: clang's default, 1.2), as
/// clang-19 defines them for gfx1030: `__OPENCL_C_VERSION__`, and the
/// OpenCL C 2.0/3.0 feature macros and extensions it reports per version
/// (`clang-19 -x cl -cl-std=CLx.y … -dM -E` compared version by version).
/// The image, pipe and device-enqueue features clang also reports are left
/// out: gpusim refuses those types. `__OPENCL_VERSION__` (the *device's*
/// OpenCL version) clang does not define; an OpenCL runtime passes it, and
/// gpusim's does (`opencl_version`, the version the device reports).
pub fn version_macros(cl_std: Option<u32>, opencl_version: Option<u32>) -> String {
    let v = cl_std.unwrap_or(DEFAULT_CL_STD);
    let mut s = format!("#define __OPENCL_C_VERSION__ {v}\n");
    if let Some(d) = opencl_version {
        s += &format!("#define __OPENCL_VERSION__ {d}\n");
    }
    let mut on: Vec<&str> = Vec::new();
    if v == 200 {
        on.extend([
            "__opencl_c_atomic_order_acq_rel",
            "__opencl_c_atomic_order_seq_cst",
            "__opencl_c_atomic_scope_all_devices",
            "__opencl_c_atomic_scope_device",
            "__opencl_c_generic_address_space",
            "__opencl_c_program_scope_global_variables",
            "__opencl_c_work_group_collective_functions",
            "cl_khr_subgroups",
            "cl_khr_mipmap_image",
            "cl_khr_mipmap_image_writes",
        ]);
    } else {
        on.push("__opencl_c_named_address_space_builtins");
    }
    if v >= 300 {
        on.push("__opencl_c_fp64");
    }
    for m in on {
        s += &format!("#define {m} 1\n");
    }
    s
}

const PREDEFINED: &str = "\
#define CL_VERSION_1_0 100
#define CL_VERSION_1_1 110
#define CL_VERSION_1_2 120
#define CL_VERSION_2_0 200
#define __OPENCL_C__ 1
#define __AMDGCN__ 1
#define __AMDGPU__ 1
#define __AMD__ 1
#define __gfx1030__ 1
#define __AMDGCN_WAVEFRONT_SIZE 32
#define __ENDIAN_LITTLE__ 1
#define __GPUSIM_CC__ 1
#define __ATOMIC_RELAXED 0
#define __ATOMIC_CONSUME 1
#define __ATOMIC_ACQUIRE 2
#define __ATOMIC_RELEASE 3
#define __ATOMIC_ACQ_REL 4
#define __ATOMIC_SEQ_CST 5
#define __OPENCL_MEMORY_SCOPE_WORK_ITEM 0
#define __OPENCL_MEMORY_SCOPE_WORK_GROUP 1
#define __OPENCL_MEMORY_SCOPE_DEVICE 2
#define __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES 3
#define __OPENCL_MEMORY_SCOPE_SUB_GROUP 4
#define memory_order_relaxed __ATOMIC_RELAXED
#define memory_order_acquire __ATOMIC_ACQUIRE
#define memory_order_release __ATOMIC_RELEASE
#define memory_order_acq_rel __ATOMIC_ACQ_REL
#define memory_order_seq_cst __ATOMIC_SEQ_CST
#define memory_scope_work_item __OPENCL_MEMORY_SCOPE_WORK_ITEM
#define memory_scope_work_group __OPENCL_MEMORY_SCOPE_WORK_GROUP
#define memory_scope_device __OPENCL_MEMORY_SCOPE_DEVICE
#define memory_scope_all_svm_devices __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES
#define memory_scope_sub_group __OPENCL_MEMORY_SCOPE_SUB_GROUP
#define ATOMIC_FLAG_INIT 0
#define ATOMIC_VAR_INIT(x) (x)
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
#define CLK_IMAGE_MEM_FENCE 4
#define FLT_MAX 0x1.fffffep127f
#define FLT_MIN 0x1.0p-126f
#define FLT_EPSILON 0x1.0p-23f
#define INT_MAX 2147483647
#define INT_MIN (-2147483647 - 1)
#define UINT_MAX 0xffffffffu
#define CHAR_BIT 8
#define M_PI_F 3.14159274101257324219f
#define MAXFLOAT 0x1.fffffep127f
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf(\"\")
#define CL_VERSION_3_0 300
#define __GFX10__ 1
#define __AMDGCN_WAVEFRONT_SIZE__ 32
#define __AMDGCN_CUMODE__ 0
#define __amdgcn_processor__ \"gfx1030\"
#define __amdgcn_target_id__ \"gfx1030\"
#define __HAS_FMAF__ 1
#define __HAS_FP64__ 1
#define __HAS_LDEXPF__ 1
#define __LITTLE_ENDIAN__ 1
#define __LP64__ 1
#define _LP64 1
#define __CHAR_BIT__ 8
#define __SIZEOF_SHORT__ 2
#define __SIZEOF_INT__ 4
#define __SIZEOF_LONG__ 8
#define __SIZEOF_FLOAT__ 4
#define __SIZEOF_DOUBLE__ 8
#define __SIZEOF_POINTER__ 8
#define __SIZEOF_SIZE_T__ 8
#define __SIZEOF_PTRDIFF_T__ 8
#define FP_FAST_FMA 1
#define FP_FAST_FMAF 1
#define MAX_WORK_DIM 3
#define NULL ((void*)0)
#define cl_khr_fp64 1
#define cl_khr_fp16 1
#define cl_khr_byte_addressable_store 1
#define cl_khr_global_int32_base_atomics 1
#define cl_khr_global_int32_extended_atomics 1
#define cl_khr_local_int32_base_atomics 1
#define cl_khr_local_int32_extended_atomics 1
#define cl_khr_int64_base_atomics 1
#define cl_khr_int64_extended_atomics 1
#define cl_khr_3d_image_writes 1
#define cl_amd_media_ops 1
#define cl_amd_media_ops2 1
#define cl_clang_storage_class_specifiers 1
#define __opencl_c_int64 1
#define CHAR_MAX SCHAR_MAX
#define CHAR_MIN SCHAR_MIN
#define SCHAR_MAX 127
#define SCHAR_MIN (-128)
#define UCHAR_MAX 255
#define SHRT_MAX 32767
#define SHRT_MIN (-32768)
#define USHRT_MAX 65535
#define LONG_MAX 0x7fffffffffffffffL
#define LONG_MIN (-0x7fffffffffffffffL-1)
#define ULONG_MAX 0xffffffffffffffffUL
#define FLT_DIG 6
#define FLT_MANT_DIG 24
#define FLT_MAX_10_EXP +38
#define FLT_MAX_EXP +128
#define FLT_MIN_10_EXP -37
#define FLT_MIN_EXP -125
#define FLT_RADIX 2
#define DBL_DIG 15
#define DBL_EPSILON 0x1.0p-52
#define DBL_MANT_DIG 53
#define DBL_MAX 0x1.fffffffffffffp1023
#define DBL_MAX_10_EXP +308
#define DBL_MAX_EXP +1024
#define DBL_MIN 0x1.0p-1022
#define DBL_MIN_10_EXP -307
#define DBL_MIN_EXP -1021
#define DBL_RADIX 2
#define HUGE_VALF __builtin_huge_valf()
#define M_E 0x1.5bf0a8b145769p+1
#define M_LOG2E 0x1.71547652b82fep+0
#define M_LOG10E 0x1.bcb7b1526e50ep-2
#define M_LN2 0x1.62e42fefa39efp-1
#define M_LN10 0x1.26bb1bbb55516p+1
#define M_PI 0x1.921fb54442d18p+1
#define M_PI_2 0x1.921fb54442d18p+0
#define M_PI_4 0x1.921fb54442d18p-1
#define M_1_PI 0x1.45f306dc9c883p-2
#define M_2_PI 0x1.45f306dc9c883p-1
#define M_2_SQRTPI 0x1.20dd750429b6dp+0
#define M_SQRT2 0x1.6a09e667f3bcdp+0
#define M_SQRT1_2 0x1.6a09e667f3bcdp-1
#define M_E_F 2.71828182845904523536028747135266250f
#define M_LOG2E_F 1.44269504088896340735992468100189214f
#define M_LOG10E_F 0.434294481903251827651128918916605082f
#define M_LN2_F 0.693147180559945309417232121458176568f
#define M_LN10_F 2.30258509299404568401799145468436421f
#define M_PI_2_F 1.57079632679489661923132169163975144f
#define M_PI_4_F 0.785398163397448309615660845819875721f
#define M_1_PI_F 0.318309886183790671537767526745028724f
#define M_2_PI_F 0.636619772367581343075535053490057448f
#define M_2_SQRTPI_F 1.12837916709551257389615890312154517f
#define M_SQRT2_F 1.41421356237309504880168872420969808f
#define M_SQRT1_2_F 0.707106781186547524400844362104849039f
";

/// Deepest `#include` nesting (a self-including header stops here).
const MAX_INCLUDE_DEPTH: usize = 200;
/// Most tokens macro expansion may produce in one translation unit: a
/// bound so exponential macros end with an error instead of exhausting memory.
const MAX_EXPANDED_TOKENS: usize = 50_000_000;

struct Macro {
    /// None: object-like.
    params: Option<Vec<Sym>>,
    variadic: bool,
    body: Vec<Token>,
    loc: Loc,
}

/// A token source: a file's tokens or a macro argument, with the tokens
/// that macro expansion pushed back in front of it (top = next).
struct Src {
    toks: Vec<Token>,
    pos: usize,
    pending: Vec<Token>,
}

impl Src {
    fn new(toks: Vec<Token>) -> Self {
        Src {
            toks,
            pos: 0,
            pending: Vec::new(),
        }
    }
    fn next(&mut self) -> Token {
        if let Some(t) = self.pending.pop() {
            return t;
        }
        let t = self.toks[self.pos].clone();
        if t.tok != Tok::Eof {
            self.pos += 1;
        }
        t
    }
    fn peek(&self) -> &Token {
        self.pending.last().unwrap_or(&self.toks[self.pos])
    }
    /// The rest of the current directive line (file tokens only).
    fn line(&mut self) -> Vec<Token> {
        let mut out = Vec::new();
        while !self.toks[self.pos].bol {
            out.push(self.toks[self.pos].clone());
            self.pos += 1;
        }
        out
    }
}

struct Cond {
    taken: bool,
    seen_else: bool,
    loc: Loc,
}

/// Names the preprocessor compares against, interned once.
struct Names {
    defined: Sym,
    file: Sym,
    line: Sym,
    pragma_op: Sym,
    va_args: Sym,
}

/// Preprocesses `main_path` (already read as `main_text`) with `-D`
/// definitions and `-I` directories into one token stream ending in Eof.
pub fn preprocess(
    sm: &mut SourceMap,
    interner: &mut Interner,
    main_path: &str,
    main_text: String,
    opts: &super::Options,
) -> Result<Vec<Token>> {
    let (defines, include_dirs) = (&opts.defines, &opts.include_dirs);
    let names = Names {
        defined: interner.intern("defined"),
        file: interner.intern("__FILE__"),
        line: interner.intern("__LINE__"),
        pragma_op: interner.intern("_Pragma"),
        va_args: interner.intern("__VA_ARGS__"),
    };
    let mut pp = Pp {
        sm,
        int: interner,
        names,
        macros: HashMap::new(),
        include_dirs: include_dirs.to_vec(),
        out: Vec::new(),
        depth: 0,
        once: HashSet::new(),
        expanded: 0,
        nesting: 0,
        line_marks: HashMap::new(),
    };
    let mut builtin = PREDEFINED.to_string();
    builtin += &version_macros(opts.cl_std, opts.opencl_version);
    if opts.wave64 {
        builtin = builtin.replace("WAVEFRONT_SIZE 32", "WAVEFRONT_SIZE 64");
        builtin = builtin.replace("WAVEFRONT_SIZE__ 32", "WAVEFRONT_SIZE__ 64");
    }
    pp.run_buffer("<built-in>", builtin, None)?;
    let mut cmdline = String::new();
    for (name, value) in defines {
        if name.is_empty()
            || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            || name.as_bytes()[0].is_ascii_digit()
        {
            return Err(Error {
                loc: Loc {
                    file: u32::MAX,
                    line: 1,
                    col: 1,
                },
                msg: format!("macro name '{name}' given with -D is not an identifier"),
            });
        }
        cmdline.push_str(&format!(
            "#define {name} {}\n",
            value.as_deref().unwrap_or("1")
        ));
    }
    for name in &opts.undefines {
        if name.is_empty()
            || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            || name.as_bytes()[0].is_ascii_digit()
        {
            return Err(Error {
                loc: Loc {
                    file: u32::MAX,
                    line: 1,
                    col: 1,
                },
                msg: format!("macro name '{name}' given with -U is not an identifier"),
            });
        }
        cmdline.push_str(&format!("#undef {name}\n"));
    }
    pp.run_buffer("<command line>", cmdline, None)?;
    // `-include FILE`: as if the main file began with `#include "FILE"`
    // written in the current directory.
    let mut forced = String::new();
    for f in &opts.forced_includes {
        let path = f.to_string_lossy();
        if path.contains('"') || path.contains('\n') {
            return Err(Error {
                loc: Loc {
                    file: u32::MAX,
                    line: 1,
                    col: 1,
                },
                msg: format!("cannot include '{path}' given with -include"),
            });
        }
        forced.push_str(&format!("#include \"{path}\"\n"));
    }
    if !forced.is_empty() {
        pp.run_buffer("<command line>", forced, Some(PathBuf::from(".")))?;
    }
    let dir = Path::new(main_path).parent().map(Path::to_path_buf);
    pp.run_buffer(main_path, main_text, dir)?;
    let loc = pp.out.last().map(|t| t.loc).unwrap_or_default();
    pp.out.push(Token {
        tok: Tok::Eof,
        loc,
        bol: true,
        space: false,
        hide: None,
    });
    Ok(pp.out)
}

struct Pp<'a> {
    sm: &'a mut SourceMap,
    int: &'a mut Interner,
    names: Names,
    macros: HashMap<Sym, Rc<Macro>>,
    include_dirs: Vec<PathBuf>,
    out: Vec<Token>,
    depth: usize,
    once: HashSet<PathBuf>,
    expanded: usize,
    nesting: u32,
    /// `#line` directives by file: from which physical line on, the
    /// offset `__LINE__` adds and the name `__FILE__` says.
    line_marks: HashMap<u32, Vec<LineMark>>,
}

/// One `#line N ["name"]`: lines from `from` on are numbered from `N`.
#[derive(Clone, Copy)]
struct LineMark {
    from: u32,
    offset: i64,
    name: Option<Sym>,
}

fn with_hide(mut t: Token, add: &Rc<Vec<Sym>>) -> Token {
    t.hide = Some(match &t.hide {
        None => add.clone(),
        Some(h) => {
            let mut v: Vec<Sym> = h.iter().chain(add.iter()).copied().collect();
            v.sort_unstable();
            v.dedup();
            Rc::new(v)
        }
    });
    t
}

impl Pp<'_> {
    /// The `#line` in force at `loc`, if any.
    fn line_mark(&self, loc: Loc) -> Option<LineMark> {
        let marks = self.line_marks.get(&loc.file)?;
        marks.iter().rev().find(|m| m.from <= loc.line).copied()
    }

    fn name(&self, t: &Token) -> Option<&str> {
        match t.tok {
            Tok::Ident(s) => Some(self.int.get(s)),
            _ => None,
        }
    }

    fn run_buffer(&mut self, path: &str, text: String, dir: Option<PathBuf>) -> Result<()> {
        let file = self.sm.add(path, text);
        let toks = lex(&self.sm.file(file).text, file, self.int)?;
        let mut src = Src::new(toks);
        let mut conds: Vec<Cond> = Vec::new();
        loop {
            let from_file = src.pending.is_empty();
            let t = src.next();
            if from_file && t.bol && t.is(Punct::Hash) {
                self.directive(&mut src, &mut conds, t.loc, dir.as_deref())?;
                continue;
            }
            match t.tok {
                Tok::Eof => break,
                Tok::Ident(s) if s == self.names.pragma_op => {
                    self.pragma_operator(&mut src, t.loc)?;
                }
                Tok::Ident(_) => {
                    if !self.expand(&t, &mut src)? {
                        self.out.push(t);
                    }
                }
                _ => self.out.push(t),
            }
        }
        if let Some(c) = conds.last() {
            return err(c.loc, "unterminated conditional directive");
        }
        Ok(())
    }

    fn directive(
        &mut self,
        src: &mut Src,
        conds: &mut Vec<Cond>,
        hash: Loc,
        dir: Option<&Path>,
    ) -> Result<()> {
        if src.peek().bol {
            return Ok(()); // the null directive
        }
        let d = src.next();
        let Some(name) = self.name(&d).map(str::to_string) else {
            return err(d.loc, "invalid preprocessing directive");
        };
        match name.as_str() {
            "define" => {
                let line = src.line();
                self.define(line, d.loc)
            }
            "undef" => {
                let line = src.line();
                match line.first().map(|t| t.tok) {
                    Some(Tok::Ident(s)) => {
                        self.macros.remove(&s);
                        Ok(())
                    }
                    _ => err(
                        line.first().map_or(d.loc, |t| t.loc),
                        "macro name must be an identifier",
                    ),
                }
            }
            "include" => {
                let line = src.line();
                self.include(line, d.loc, dir)
            }
            "if" | "ifdef" | "ifndef" => {
                let line = src.line();
                let taken = match name.as_str() {
                    "if" => self.eval_condition(line, d.loc)?,
                    _ => {
                        let Some(Tok::Ident(s)) = line.first().map(|t| t.tok) else {
                            return err(
                                line.first().map_or(d.loc, |t| t.loc),
                                "macro name must be an identifier",
                            );
                        };
                        self.macros.contains_key(&s) == (name == "ifdef")
                    }
                };
                conds.push(Cond {
                    taken,
                    seen_else: false,
                    loc: hash,
                });
                if !taken {
                    self.skip_group(src, hash)?;
                }
                Ok(())
            }
            "elif" => {
                let line = src.line();
                let Some(c) = conds.last_mut() else {
                    return err(d.loc, "#elif without #if");
                };
                if c.seen_else {
                    return err(d.loc, "#elif after #else");
                }
                if c.taken {
                    return self.skip_group(src, hash);
                }
                let taken = self.eval_condition(line, d.loc)?;
                conds.last_mut().expect("checked above").taken = taken;
                if !taken {
                    self.skip_group(src, hash)?;
                }
                Ok(())
            }
            "else" => {
                src.line();
                let Some(c) = conds.last_mut() else {
                    return err(d.loc, "#else without #if");
                };
                if c.seen_else {
                    return err(d.loc, "#else after #else");
                }
                c.seen_else = true;
                if c.taken {
                    return self.skip_group(src, hash);
                }
                c.taken = true;
                Ok(())
            }
            "endif" => {
                src.line();
                if conds.pop().is_none() {
                    return err(d.loc, "#endif without #if");
                }
                Ok(())
            }
            "pragma" => {
                let line = src.line();
                self.pragma(line, d.loc)
            }
            "error" => {
                src.line();
                // The message as written (after `error` and its blank).
                let raw = self.sm.file(d.loc.file).line_text(d.loc.line);
                let text = raw.get(d.loc.col as usize + 4..).unwrap_or("").trim();
                err(d.loc, format!("#error {text}"))
            }
            "warning" | "ident" => {
                src.line();
                Ok(())
            }
            "line" => {
                let toks = src.line();
                let number = match toks.first().map(|t| t.tok) {
                    Some(Tok::Number(n)) => self.int.get(n).parse::<u32>().ok(),
                    _ => None,
                };
                let Some(number) = number else {
                    return err(d.loc, "#line needs a line number");
                };
                let name = match toks.get(1).map(|t| t.tok) {
                    Some(Tok::Str(sym)) => Some(sym),
                    None => None,
                    Some(_) => return err(d.loc, "#line's file name must be a string"),
                };
                let from = d.loc.line + 1;
                self.line_marks
                    .entry(d.loc.file)
                    .or_default()
                    .push(LineMark {
                        from,
                        offset: i64::from(number) - i64::from(from),
                        name,
                    });
                Ok(())
            }
            _ => err(d.loc, "invalid preprocessing directive"),
        }
    }

    /// Skips a false group up to (not including) the `#elif`, `#else` or
    /// `#endif` that ends it.
    fn skip_group(&mut self, src: &mut Src, start: Loc) -> Result<()> {
        let mut depth = 0usize;
        loop {
            let t = &src.toks[src.pos];
            if t.tok == Tok::Eof {
                return err(start, "unterminated conditional directive");
            }
            if t.bol && t.is(Punct::Hash) {
                let next = &src.toks[src.pos + 1];
                if !next.bol {
                    match self.name(next) {
                        Some("if" | "ifdef" | "ifndef") => depth += 1,
                        Some("endif") if depth > 0 => depth -= 1,
                        Some("elif" | "else" | "endif") if depth == 0 => return Ok(()),
                        _ => {}
                    }
                }
            }
            src.pos += 1;
        }
    }

    fn define(&mut self, line: Vec<Token>, dloc: Loc) -> Result<()> {
        let Some(first) = line.first() else {
            return err(dloc, "macro name missing");
        };
        let Tok::Ident(name) = first.tok else {
            return err(first.loc, "macro name must be an identifier");
        };
        if name == self.names.defined {
            return err(first.loc, "'defined' cannot be used as a macro name");
        }
        let mut i = 1;
        let mut params = None;
        let mut variadic = false;
        if line.get(1).is_some_and(|t| t.is(Punct::LParen) && !t.space) {
            let mut ps = Vec::new();
            i = 2;
            loop {
                let Some(t) = line.get(i) else {
                    return err(first.loc, "missing ')' in macro parameter list");
                };
                i += 1;
                match t.tok {
                    Tok::Punct(Punct::RParen) if ps.is_empty() && !variadic => break,
                    Tok::Punct(Punct::Ellipsis) => {
                        variadic = true;
                        ps.push(self.names.va_args);
                    }
                    Tok::Ident(p) if !variadic => {
                        if ps.contains(&p) {
                            return err(
                                t.loc,
                                format!("duplicate macro parameter name '{}'", self.int.get(p)),
                            );
                        }
                        ps.push(p);
                    }
                    _ => return err(t.loc, "invalid token in macro parameter list"),
                }
                match line.get(i).map(|t| t.tok) {
                    Some(Tok::Punct(Punct::Comma)) if !variadic => i += 1,
                    Some(Tok::Punct(Punct::RParen)) => {
                        i += 1;
                        break;
                    }
                    _ => {
                        return err(
                            line.get(i).map_or(t.loc, |t| t.loc),
                            "expected ',' or ')' in macro parameter list",
                        )
                    }
                }
            }
            params = Some(ps);
        }
        let body: Vec<Token> = line[i..].to_vec();
        if let (Some(b), Some(l)) = (body.first(), body.last()) {
            if b.is(Punct::HashHash) || l.is(Punct::HashHash) {
                let at = if b.is(Punct::HashHash) { b.loc } else { l.loc };
                return err(at, "'##' cannot appear at either end of a macro expansion");
            }
        }
        if let Some(ps) = &params {
            for (k, t) in body.iter().enumerate() {
                if t.is(Punct::Hash)
                    && !matches!(body.get(k + 1).map(|n| n.tok), Some(Tok::Ident(s)) if ps.contains(&s))
                {
                    return err(t.loc, "'#' is not followed by a macro parameter");
                }
            }
        }
        self.macros.insert(
            name,
            Rc::new(Macro {
                params,
                variadic,
                body,
                loc: first.loc,
            }),
        );
        Ok(())
    }

    fn include(&mut self, line: Vec<Token>, dloc: Loc, dir: Option<&Path>) -> Result<()> {
        let Some(first) = line.first() else {
            return err(dloc, "expected \"FILENAME\" or <FILENAME>");
        };
        let (name, quoted) = match first.tok {
            Tok::Str(s) => {
                let text = self.int.get(s);
                (text[1..text.len() - 1].to_string(), true)
            }
            Tok::Punct(Punct::Lt) => {
                let src_line = self.sm.file(first.loc.file).line_text(first.loc.line);
                let rest = src_line.get(first.loc.col as usize..).unwrap_or("");
                let Some(end) = rest.find('>') else {
                    return err(first.loc, "expected '>'");
                };
                (rest[..end].to_string(), false)
            }
            _ => return err(first.loc, "expected \"FILENAME\" or <FILENAME>"),
        };
        let mut candidates: Vec<PathBuf> = Vec::new();
        if quoted {
            candidates.push(dir.map_or_else(|| PathBuf::from(&name), |d| d.join(&name)));
        }
        candidates.extend(self.include_dirs.iter().map(|d| d.join(&name)));
        let Some(path) = candidates.into_iter().find(|p| p.is_file()) else {
            return err(first.loc, format!("'{name}' file not found"));
        };
        let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
        if self.once.contains(&canonical) {
            return Ok(());
        }
        if self.depth >= MAX_INCLUDE_DEPTH {
            return err(first.loc, "#include nested too deeply");
        }
        let text = std::fs::read_to_string(&path).map_err(|e| Error {
            loc: first.loc,
            msg: format!("cannot read '{}': {e}", path.display()),
        })?;
        self.depth += 1;
        let sub_dir = path.parent().map(Path::to_path_buf);
        let r = self.run_buffer(&path.to_string_lossy(), text, sub_dir);
        self.depth -= 1;
        r
    }

    fn pragma(&mut self, line: Vec<Token>, dloc: Loc) -> Result<()> {
        let Some(first) = line.first() else {
            return Ok(());
        };
        match self.name(first) {
            Some("unroll") => {
                let rest: Vec<Token> = line[1..].to_vec();
                let n = if rest.is_empty() {
                    None
                } else {
                    let expanded = self.expand_list(rest)?;
                    let loc = expanded.first().map_or(first.loc, |t| t.loc);
                    let mut ev = Eval {
                        toks: &expanded,
                        pos: 0,
                        int: self.int,
                        loc,
                        depth: 0,
                    };
                    let v = ev.expr()?;
                    if ev.pos != expanded.len() {
                        return err(
                            expanded[ev.pos].loc,
                            "expected an integer constant after '#pragma unroll'",
                        );
                    }
                    if v.0 <= 0 || v.0 > u32::MAX as i64 {
                        return err(loc, format!("invalid value '{}'; must be positive", v.0));
                    }
                    Some(v.0 as u32)
                };
                self.out.push(Token {
                    tok: Tok::Pragma(Pragma::Unroll(n)),
                    loc: first.loc,
                    bol: false,
                    space: true,
                    hide: None,
                });
            }
            Some("nounroll") => {
                self.out.push(Token {
                    tok: Tok::Pragma(Pragma::Unroll(Some(1))),
                    loc: first.loc,
                    bol: false,
                    space: true,
                    hide: None,
                });
            }
            Some("once") => {
                let path = PathBuf::from(&self.sm.file(dloc.file).path);
                self.once.insert(path.canonicalize().unwrap_or(path));
            }
            Some("OPENCL") => {
                let words: Vec<&str> = line.iter().skip(1).filter_map(|t| self.name(t)).collect();
                if words.first() == Some(&"FP_CONTRACT") {
                    let on = match words.get(1) {
                        Some(&"ON") | Some(&"DEFAULT") => true,
                        Some(&"OFF") => false,
                        _ => return err(
                            first.loc,
                            "expected 'ON', 'OFF' or 'DEFAULT' after '#pragma OPENCL FP_CONTRACT'",
                        ),
                    };
                    self.out.push(Token {
                        tok: Tok::Pragma(Pragma::FpContract(on)),
                        loc: first.loc,
                        bol: false,
                        space: true,
                        hide: None,
                    });
                } else if words.first() == Some(&"EXTENSION")
                    && matches!(words.get(1), Some(&"cl_khr_fp16") | Some(&"all"))
                {
                    // `:` is not a name: words are EXTENSION, the name, the state.
                    let on = match words.get(2) {
                        Some(&"enable") => true,
                        Some(&"disable") => false,
                        _ => return Ok(()),
                    };
                    self.out.push(Token {
                        tok: Tok::Pragma(Pragma::Fp16(on)),
                        loc: first.loc,
                        bol: false,
                        space: true,
                        hide: None,
                    });
                }
            }
            _ => {} // unknown pragmas are ignored, as C requires
        }
        Ok(())
    }

    fn pragma_operator(&mut self, src: &mut Src, loc: Loc) -> Result<()> {
        let open = src.next();
        let s = src.next();
        let close = src.next();
        let Tok::Str(sym) = s.tok else {
            return err(s.loc, "_Pragma takes a parenthesized string literal");
        };
        if !open.is(Punct::LParen) || !close.is(Punct::RParen) {
            return err(loc, "_Pragma takes a parenthesized string literal");
        }
        let text = self.int.get(sym).to_string();
        let inner = unescape(&text[1..text.len() - 1]).ok_or_else(|| Error {
            loc: s.loc,
            msg: "invalid escape in _Pragma string".into(),
        })?;
        let inner = String::from_utf8_lossy(&inner).into_owned();
        let mut toks = lex(&inner, loc.file, self.int)?;
        toks.pop();
        for t in &mut toks {
            t.loc = s.loc;
        }
        self.pragma(toks, loc)
    }

    fn eval_condition(&mut self, line: Vec<Token>, dloc: Loc) -> Result<bool> {
        if line.is_empty() {
            return err(dloc, "expected value in expression");
        }
        // `defined X` / `defined(X)` are replaced before expansion.
        let mut pre = Vec::with_capacity(line.len());
        let mut i = 0;
        while i < line.len() {
            let t = &line[i];
            if t.tok == Tok::Ident(self.names.defined) {
                let paren = line.get(i + 1).is_some_and(|n| n.is(Punct::LParen));
                let at = if paren { i + 2 } else { i + 1 };
                let Some(Tok::Ident(s)) = line.get(at).map(|n| n.tok) else {
                    return err(
                        line.get(at).map_or(t.loc, |n| n.loc),
                        "macro name must be an identifier",
                    );
                };
                if paren && !line.get(at + 1).is_some_and(|n| n.is(Punct::RParen)) {
                    return err(
                        line.get(at + 1).map_or(t.loc, |n| n.loc),
                        "missing ')' after 'defined'",
                    );
                }
                let v = if self.macros.contains_key(&s) {
                    "1"
                } else {
                    "0"
                };
                pre.push(Token {
                    tok: Tok::Number(self.int.intern(v)),
                    ..t.clone()
                });
                i = at + 1 + paren as usize;
                continue;
            }
            pre.push(t.clone());
            i += 1;
        }
        let toks = self.expand_list(pre)?;
        let mut ev = Eval {
            toks: &toks,
            pos: 0,
            int: self.int,
            loc: dloc,
            depth: 0,
        };
        let v = ev.expr()?;
        if ev.pos != toks.len() {
            return err(
                toks[ev.pos].loc,
                "token is not a valid binary operator in a preprocessor subexpression",
            );
        }
        Ok(v.0 != 0)
    }
}

fn with_hide_set(t: &Token, add: &Rc<Vec<Sym>>) -> Rc<Vec<Sym>> {
    match &t.hide {
        None => add.clone(),
        Some(_) => with_hide(t.clone(), add).hide.expect("just set"),
    }
}
