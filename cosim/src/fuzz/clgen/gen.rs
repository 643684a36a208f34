//! The random OpenCL C program generator (in the spirit of Csmith and
//! CLsmith, written from their published descriptions): every program has
//! defined behaviour by construction — integer operations go through the
//! safe wrappers of [`super::prelude`], float-to-integer conversions through
//! range guards, indices are reduced modulo the array length, loops have
//! constant or `% 5` bounds and counters the body cannot assign, barriers
//! sit only at the kernel's top level (never under divergent control flow),
//! each lane writes only its own slots of local and global scratch memory
//! between barriers, and atomics are commutative with their results unused
//! — so the bytes a program leaves are determined by the source alone.
//!
//! The program is one kernel over a grid of [`GRID`] work-items in groups
//! of [`WG`]; each lane folds every variable into a 64-bit hash written to
//! `out[gid]`, and the scratch and atomic buffers are compared too.
//! Output is one statement per line, blocks opening at a line's end and
//! closing on a line of their own, so the reducer can delete lines.

use super::prelude;
use super::scalar::Scalar;
use crate::fuzz::gen::Rng;

/// Work-items in the grid.
pub const GRID: u32 = 128;
/// Work-items per workgroup.
pub const WG: u32 = 64;
/// `uint`s of the input buffer `in`.
pub const IN_LEN: usize = 256;
/// `uint`s of the constant buffer `cb`.
pub const CB_LEN: usize = 16;
/// `uint`s of global scratch per lane (`gbuf[gid * M ..]`).
pub const M: usize = 8;
/// Global atomic counters (`acc`).
pub const ACC: usize = 8;

const ALL: &[Scalar] = &[
    Scalar::Char,
    Scalar::UChar,
    Scalar::Short,
    Scalar::UShort,
    Scalar::Int,
    Scalar::UInt,
    Scalar::Long,
    Scalar::ULong,
    Scalar::Float,
    Scalar::Double,
];
/// Component types of vector variables (the first four in the subset
/// gpusim compiles today).
const VCOMP: &[Scalar] = &[
    Scalar::UInt,
    Scalar::Int,
    Scalar::Float,
    Scalar::ULong,
    Scalar::UChar,
    Scalar::Short,
];

/// The type of a variable.
#[derive(Clone, Debug, PartialEq)]
enum Ty {
    S(Scalar),
    V(Scalar, u32),
    Arr(Scalar, usize),
    /// Struct type index.
    St(usize),
    /// `__global uint *` with this many valid elements from it.
    GPtr(usize),
    /// `T *` (private) to one element.
    PPtr(Scalar),
}

#[derive(Clone, Debug)]
struct Var {
    name: String,
    ty: Ty,
    /// Loop counters: read, never assigned.
    readonly: bool,
}

/// Knobs of the generator.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Top-level statements of the kernel body.
    pub statements: usize,
    /// Maximum expression depth.
    pub expr_depth: u32,
    /// Maximum statement nesting.
    pub block_depth: u32,
    /// Use float division (clang's and gpusim's 2.5-ulp sequences must agree).
    pub float_div: bool,
    /// Also generate what gpusim's compiler refuses today (so those
    /// programs are counted as refusals, not checked): `++` on counters
    /// other than `int`, arithmetic on `char`/`short` vectors, direct
    /// 8/16-bit to 64-bit integer extensions. Off, those are written the
    /// long way (`i += 1`, `(long)(int)s`) or not at all; `continue`
    /// (refused under nested conditionals) is generated only here.
    pub full_language: bool,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            statements: 14,
            expr_depth: 3,
            block_depth: 3,
            float_div: true,
            full_language: false,
        }
    }
}

/// A generated program: its source lines.
#[derive(Clone, Debug)]
pub struct Program {
    /// The source, one statement per line.
    pub lines: Vec<String>,
}

impl Program {
    /// The source text.
    pub fn source(&self) -> String {
        let mut s = self.lines.join("\n");
        s.push('\n');
        s
    }
}

struct Gen<'a> {
    r: Rng,
    cfg: &'a GenConfig,
    scopes: Vec<Vec<Var>>,
    structs: Vec<Vec<Scalar>>,
    body: Vec<String>,
    indent: usize,
    counter: usize,
    converts: Vec<(String, String)>,
}

/// Generates the program of `seed`.
pub fn generate(seed: u64, cfg: &GenConfig) -> Program {
    let mut g = Gen {
        r: Rng::new(seed),
        cfg,
        scopes: vec![Vec::new()],
        structs: Vec::new(),
        body: Vec::new(),
        indent: 1,
        counter: 0,
        converts: Vec::new(),
    };
    for _ in 0..1 + g.r.below(2) {
        let n = 2 + g.r.below(3) as usize;
        let fields = (0..n).map(|_| g.pick(ALL)).collect();
        g.structs.push(fields);
    }
    g.kernel_body();
    let mut lines = vec![
        format!("// clgen seed {seed}"),
        "#include \"gpusim_cl.h\"".to_string(),
    ];
    lines.extend(prelude::clang_converts(&g.converts));
    lines.extend(prelude::helpers());
    for (i, fields) in g.structs.iter().enumerate() {
        let f: Vec<String> = fields
            .iter()
            .enumerate()
            .map(|(j, t)| format!("{} f{j};", t.name()))
            .collect();
        lines.push(format!("typedef struct {{ {} }} S{i};", f.join(" ")));
    }
    lines.push("__kernel void clgen(__global ulong *out, __global const uint *in, __constant uint *cb, __global uint *gbuf, __global uint *acc) {".into());
    lines.append(&mut g.body);
    lines.push("}".into());
    Program { lines }
}

fn hex(i: u32) -> char {
    std::char::from_digit(i, 16).unwrap()
}

impl Gen<'_> {
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.r.below(xs.len() as u64) as usize]
    }
    /// A vector component type.
    fn vcomp(&mut self) -> Scalar {
        let n = if self.cfg.full_language {
            VCOMP.len()
        } else {
            4
        };
        self.pick(&VCOMP[..n])
    }
    /// An integer source type of vector `convert_`.
    fn vsource(&mut self) -> Scalar {
        let all = [
            Scalar::UInt,
            Scalar::Int,
            Scalar::ULong,
            Scalar::UChar,
            Scalar::Short,
        ];
        let n = if self.cfg.full_language { all.len() } else { 3 };
        self.pick(&all[..n])
    }
    fn hash_of(&self, t: Scalar, e: String) -> String {
        match t {
            Scalar::Float => format!("fbits({e})"),
            Scalar::Double => format!("dbits({e})"),
            t if t.bits() < 32 && !self.cfg.full_language => {
                format!("(ulong)({}){e}", if t.signed() { "int" } else { "uint" })
            }
            _ => format!("(ulong){e}"),
        }
    }
    fn fresh(&mut self, p: &str) -> String {
        self.counter += 1;
        format!("{p}{}", self.counter)
    }
    fn line(&mut self, s: String) {
        self.body.push(format!("{}{s}", "  ".repeat(self.indent)));
    }
    fn declare(&mut self, name: &str, ty: Ty, readonly: bool) {
        self.scopes.last_mut().unwrap().push(Var {
            name: name.to_string(),
            ty,
            readonly,
        });
    }
    fn vars(&self) -> impl Iterator<Item = &Var> {
        self.scopes.iter().flatten()
    }

    fn kernel_body(&mut self) {
        self.line("size_t gid = gs_global_id(0);".into());
        self.line("uint lid = gs_local_id(0);".into());
        self.line(format!("__local uint lm[{WG}];"));
        self.line(format!("__local uint lacc[{ACC}];"));
        self.line("ulong h = 0x9e3779b97f4a7c15UL;".into());
        self.line(format!("__global uint *gp = gbuf + gid * {M};"));
        self.declare("gid", Ty::S(Scalar::ULong), true);
        self.declare("lid", Ty::S(Scalar::UInt), true);
        self.declare("gp", Ty::GPtr(M), true);
        self.line("lm[lid] = lid * 2654435761u;".into());
        self.line(format!("if (lid < {ACC}u) lacc[lid] = lid;"));
        self.line("gs_barrier();".into());
        for _ in 0..4 + self.r.below(4) {
            self.decl_stmt();
        }
        for _ in 0..self.cfg.statements {
            if self.r.chance(12) {
                self.barrier_unit();
            } else {
                self.stmt(0);
            }
        }
        self.hash_scope(0);
        self.line("out[gid] = h;".into());
    }

    /// Folds every variable declared in scope `depth` into `h`.
    fn hash_scope(&mut self, depth: usize) {
        let vars: Vec<Var> = self.scopes[depth].clone();
        for v in vars {
            let n = &v.name;
            let parts: Vec<String> = match &v.ty {
                Ty::S(t) => vec![self.hash_of(*t, n.clone())],
                Ty::V(t, k) => (0..*k)
                    .map(|i| self.hash_of(*t, format!("{n}.s{}", hex(i))))
                    .collect(),
                Ty::Arr(t, len) => (0..*len)
                    .map(|i| self.hash_of(*t, format!("{n}[{i}]")))
                    .collect(),
                Ty::St(s) => self.structs[*s]
                    .iter()
                    .enumerate()
                    .map(|(j, t)| self.hash_of(*t, format!("{n}.f{j}")))
                    .collect(),
                Ty::GPtr(len) => (0..*len).map(|i| format!("(ulong){n}[{i}]")).collect(),
                Ty::PPtr(t) => vec![self.hash_of(*t, format!("*{n}"))],
            };
            if v.name == "gid" || v.name == "lid" || v.name == "gp" {
                continue;
            }
            for p in parts {
                self.line(format!("h = mix(h, {p});"));
            }
        }
    }

    fn decl_stmt(&mut self) {
        let name = self.fresh("v");
        match self.r.below(10) {
            0..=4 => {
                let t = self.pick(ALL);
                let e = self.expr(t, self.cfg.expr_depth);
                self.line(format!("{} {name} = {e};", t.name()));
                self.declare(&name, Ty::S(t), false);
            }
            5 | 6 => {
                let t = self.vcomp();
                let k = self.pick(&[2, 3, 4, 8, 16]);
                let e = self.vexpr(t, k, 2);
                self.line(format!("{}{k} {name} = {e};", t.name()));
                self.declare(&name, Ty::V(t, k), false);
            }
            7 => {
                let t = self.pick(ALL);
                let len = 2 + self.r.below(5) as usize;
                // One line with a brace initializer: the reducer deletes
                // whole lines, and deleting one element's store would leave
                // it uninitialized (undefined, so the compilers may differ:
                // seed 2000477's reduction did that).
                let elems: Vec<String> = (0..len).map(|_| self.expr(t, 1)).collect();
                self.line(format!(
                    "{} {name}[{len}] = {{{}}};",
                    t.name(),
                    elems.join(", ")
                ));
                self.declare(&name, Ty::Arr(t, len), false);
            }
            8 => {
                let s = self.r.below(self.structs.len() as u64) as usize;
                let fields: Vec<String> = self.structs[s]
                    .clone()
                    .into_iter()
                    .map(|t| self.expr(t, 1))
                    .collect();
                self.line(format!("S{s} {name} = {{{}}};", fields.join(", ")));
                self.declare(&name, Ty::St(s), false);
            }
            _ => {
                // A pointer into the lane's global scratch at a 64-bit offset.
                let k = 1 + self.r.below(4) as usize;
                let e = self.expr(Scalar::ULong, 1);
                self.line(format!("__global uint *{name} = gp + ({e}) % {k}UL;"));
                self.declare(&name, Ty::GPtr(M - k + 1), true);
            }
        }
    }

    /// A top-level exchange through local memory: write own slot, barrier,
    /// read another lane's slot and the local counters, barrier.
    fn barrier_unit(&mut self) {
        let e = self.expr(Scalar::UInt, 2);
        self.line(format!("lm[lid] = {e};"));
        self.line("gs_barrier();".into());
        let ints: Vec<Var> = self
            .vars()
            .filter(|v| !v.readonly && matches!(v.ty, Ty::S(t) if !t.is_float()))
            .cloned()
            .collect();
        let k = 1 + self.r.below(WG as u64 - 1);
        let read = format!(
            "lm[(lid + {k}u) % {WG}u] + lacc[{}]",
            self.r.below(ACC as u64)
        );
        if let Some(v) = ints.get(self.r.below(ints.len().max(1) as u64) as usize) {
            let Ty::S(t) = v.ty else { unreachable!() };
            self.line(format!("{} = ({})({read});", v.name, t.name()));
        } else {
            self.line(format!("h = mix(h, {read});"));
        }
        self.line("gs_barrier();".into());
    }

    fn block(&mut self, depth: u32, n: u64) {
        self.indent += 1;
        self.scopes.push(Vec::new());
        for _ in 0..1 + self.r.below(n) {
            self.stmt(depth + 1);
        }
        let d = self.scopes.len() - 1;
        self.hash_scope(d);
        self.scopes.pop();
        self.indent -= 1;
    }

    fn stmt(&mut self, depth: u32) {
        let nest = depth < self.cfg.block_depth;
        match self.r.below(20) {
            0..=1 => self.decl_stmt(),
            2..=4 if nest => {
                let c = self.cond();
                self.line(format!("if ({c}) {{"));
                self.block(depth, 3);
                if self.r.chance(50) {
                    self.line("} else {".into());
                    self.block(depth, 3);
                }
                self.line("}".into());
            }
            5..=6 if nest => {
                let i = self.fresh("i");
                let t = self.pick(&[Scalar::Int, Scalar::UInt, Scalar::Long, Scalar::ULong]);
                let bound = if self.r.chance(50) {
                    format!("{}", 1 + self.r.below(4))
                } else {
                    format!("({})(({}) % 5u)", t.name(), self.expr(Scalar::UInt, 1))
                };
                let step = if t == Scalar::Int || self.cfg.full_language {
                    format!("{i}++")
                } else {
                    format!("{i} += 1")
                };
                self.line(format!(
                    "for ({} {i} = 0; {i} < {bound}; {step}) {{",
                    t.name()
                ));
                self.scopes.push(vec![Var {
                    name: i,
                    ty: Ty::S(t),
                    readonly: true,
                }]);
                self.block(depth, 3);
                if self.r.chance(30) {
                    let c = self.cond();
                    // gpusim refuses a `continue` under nested conditionals today.
                    let kw = if self.r.chance(50) || !self.cfg.full_language {
                        "break"
                    } else {
                        "continue"
                    };
                    self.line(format!("  if ({c}) {kw};"));
                }
                self.scopes.pop();
                self.line("}".into());
            }
            7 if nest => {
                let e = self.expr(Scalar::UInt, 2);
                self.line(format!("switch (({e}) % 4u) {{"));
                for c in 0..3 {
                    self.line(format!("case {c}: {{"));
                    self.block(depth, 2);
                    let brk = if self.r.chance(70) { " break;" } else { "" };
                    self.line(format!("}}{brk}"));
                }
                self.line("default: {".into());
                self.block(depth, 2);
                self.line("}".into());
                self.line("}".into());
            }
            8 => {
                // One operation per counter: different operations on one
                // counter do not commute, so their order would show.
                let k = self.r.below(ACC as u64);
                let op = ["add", "or", "xor", "and", "umax"][k as usize % 5];
                let e = self.expr(Scalar::UInt, 2);
                self.line(format!("gs_atomic_{op}_g(&acc[{k}], {e});"));
            }
            9 => {
                let k = self.r.below(ACC as u64);
                let e = self.expr(Scalar::UInt, 2);
                self.line(format!("gs_atomic_add_l(&lacc[{k}], {e});"));
            }
            10 => {
                let ptrs: Vec<(String, usize)> = self
                    .vars()
                    .filter_map(|v| match v.ty {
                        Ty::GPtr(n) => Some((v.name.clone(), n)),
                        _ => None,
                    })
                    .collect();
                let (p, n) = ptrs[self.r.below(ptrs.len() as u64) as usize].clone();
                let i = self.expr(Scalar::ULong, 1);
                let e = self.expr(Scalar::UInt, 2);
                self.line(format!("{p}[({i}) % {n}UL] = {e};"));
            }
            _ => self.assign(),
        }
    }

    fn cond(&mut self) -> String {
        if self.r.chance(30) {
            format!("lid % {}u == {}u", 2 + self.r.below(5), self.r.below(2))
        } else {
            let t = self.pick(ALL);
            let (a, b) = (self.expr(t, 2), self.expr(t, 1));
            let op = self.pick(&["<", "<=", ">", ">=", "==", "!="]);
            format!("({a}) {op} ({b})")
        }
    }

    fn assign(&mut self) {
        let targets: Vec<Var> = self.vars().filter(|v| !v.readonly).cloned().collect();
        let Some(v) = targets
            .get(self.r.below(targets.len().max(1) as u64) as usize)
            .cloned()
        else {
            return self.decl_stmt();
        };
        let n = v.name;
        match v.ty {
            Ty::S(t) => {
                let e = self.expr(t, self.cfg.expr_depth);
                if t.is_float() && self.r.chance(40) {
                    let op = self.pick(&["+=", "-=", "*="]);
                    self.line(format!("{n} {op} {e};"));
                } else if !t.is_float() && self.r.chance(30) {
                    let op = self.pick(&["add", "sub", "mul", "shl"]);
                    self.line(format!("{n} = {op}_{}({n}, {e});", t.name()));
                } else {
                    self.line(format!("{n} = {e};"));
                }
            }
            Ty::V(t, k) => match self.r.below(4) {
                0 => {
                    let e = self.vexpr(t, k, 2);
                    self.line(format!("{n} = {e};"));
                }
                1 => {
                    let i = self.r.below(k as u64) as u32;
                    let e = self.expr(t, 2);
                    self.line(format!("{n}.s{} = {e};", hex(i)));
                }
                2 if k >= 2 && k != 3 => {
                    let half = self.pick(&["lo", "hi", "even", "odd"]);
                    let e = if k == 2 {
                        self.expr(t, 2)
                    } else {
                        self.vexpr(t, k / 2, 2)
                    };
                    self.line(format!("{n}.{half} = {e};"));
                }
                _ => {
                    // A swizzle lvalue with distinct components.
                    let m = (2 + self.r.below(2) as u32).min(k);
                    let mut idx: Vec<u32> = (0..k).collect();
                    for i in (1..idx.len()).rev() {
                        let j = self.r.below(i as u64 + 1) as usize;
                        idx.swap(i, j);
                    }
                    let sw = swizzle(&idx[..m as usize], k);
                    let e = self.vexpr(t, m, 2);
                    self.line(format!("{n}.{sw} = {e};"));
                }
            },
            Ty::Arr(t, len) => {
                let i = self.expr(Scalar::UInt, 1);
                let e = self.expr(t, 2);
                self.line(format!("{n}[({i}) % {len}u] = {e};"));
            }
            Ty::St(s) => {
                let j = self.r.below(self.structs[s].len() as u64) as usize;
                let t = self.structs[s][j];
                let e = self.expr(t, 2);
                self.line(format!("{n}.f{j} = {e};"));
            }
            Ty::PPtr(t) => {
                let e = self.expr(t, 2);
                self.line(format!("*{n} = {e};"));
            }
            Ty::GPtr(_) => {}
        }
        // Sometimes take a private pointer to an array element.
        if self.r.chance(8) {
            let arrs: Vec<(String, Scalar, usize)> = self
                .vars()
                .filter_map(|v| match v.ty {
                    Ty::Arr(t, n) => Some((v.name.clone(), t, n)),
                    _ => None,
                })
                .collect();
            if let Some((a, t, len)) = arrs.first().cloned() {
                let p = self.fresh("p");
                let k = self.r.below(len as u64);
                self.line(format!("{} *{p} = &{a}[{k}];", t.name()));
                self.declare(&p, Ty::PPtr(t), false);
            }
        }
    }

    /// An expression of type exactly `t`, free of side effects.
    fn expr(&mut self, t: Scalar, depth: u32) -> String {
        if depth == 0 || self.r.chance(25) {
            return self.leaf(t);
        }
        let d = depth - 1;
        match self.r.below(10) {
            0..=4 => {
                let (a, b) = (self.expr(t, d), self.expr(t, d));
                if t.is_float() {
                    let ops: &[&str] = if self.cfg.float_div {
                        &["+", "-", "*", "*", "/"]
                    } else {
                        &["+", "-", "*"]
                    };
                    let op = self.pick(ops);
                    format!("({a} {op} {b})")
                } else {
                    let op = self.pick(&[
                        "add", "sub", "mul", "div", "mod", "shl", "shr", "&", "|", "^",
                    ]);
                    if op.len() == 1 {
                        format!("(({})({a} {op} {b}))", t.name())
                    } else {
                        format!("{op}_{}({a}, {b})", t.name())
                    }
                }
            }
            5 => {
                let a = self.expr(t, d);
                if t.is_float() {
                    format!("(-{a})")
                } else if self.r.chance(50) {
                    format!("neg_{}({a})", t.name())
                } else {
                    format!("(({})~{a})", t.name())
                }
            }
            6 => {
                let c = self.cond_depth(d);
                let (a, b) = (self.expr(t, d), self.expr(t, d));
                format!("(({c}) ? {a} : {b})")
            }
            7 => {
                let s = self.pick(ALL);
                let e = self.expr(s, d);
                self.convert(s, t, e)
            }
            8 => {
                // A component of a vector expression.
                let c = if t.is_float() {
                    Scalar::Float
                } else {
                    self.vcomp()
                };
                let k = self.pick(&[2, 3, 4, 8]);
                let v = self.vexpr(c, k, d);
                let i = self.r.below(k as u64) as u32;
                let e = format!("({v}).s{}", hex(i));
                self.convert(c, t, e)
            }
            _ => {
                // Reinterpretation of a same-width value.
                let other = match t {
                    Scalar::UInt => Some(Scalar::Float),
                    Scalar::Float => Some(Scalar::UInt),
                    Scalar::Int => Some(Scalar::Float),
                    Scalar::ULong | Scalar::Long => Some(Scalar::Double),
                    Scalar::Double => Some(Scalar::ULong),
                    _ => None,
                };
                match other {
                    Some(o) if !(t.is_float() && o.is_float()) => {
                        let e = self.expr(o, d);
                        format!("as_{}({e})", t.name())
                    }
                    // as_float of arbitrary bits may be NaN: fine, hashed canonically.
                    _ => self.leaf(t),
                }
            }
        }
    }

    fn cond_depth(&mut self, d: u32) -> String {
        let t = self.pick(ALL);
        let (a, b) = (self.expr(t, d), self.expr(t, d));
        let op = self.pick(&["<", "<=", ">", ">=", "==", "!="]);
        format!("{a} {op} {b}")
    }

    /// Converts expression `e` of type `s` to `t` without undefined behaviour.
    fn convert(&mut self, s: Scalar, t: Scalar, e: String) -> String {
        if s == t {
            return e;
        }
        let (s, e) = if s.is_float() && !t.is_float() {
            (s, format!("in_{}_{}({e})", t.name(), s.name()))
        } else if !self.cfg.full_language && !s.is_float() && s.bits() < 32 && t.bits() == 64 {
            // Through 32 bits: the direct extension is a gap of gpusim's.
            let via = if s.signed() {
                Scalar::Int
            } else {
                Scalar::UInt
            };
            (via, format!("(({}){e})", via.name()))
        } else {
            (s, e)
        };
        if s == t {
            return e;
        }
        if self.r.chance(30) {
            self.use_convert(t.name().to_string(), s.name().to_string());
            format!("convert_{}({e})", t.name())
        } else {
            format!("(({}){e})", t.name())
        }
    }

    fn use_convert(&mut self, to: String, from: String) {
        if !self.converts.contains(&(to.clone(), from.clone())) {
            self.converts.push((to, from));
        }
    }

    fn leaf(&mut self, t: Scalar) -> String {
        let vars: Vec<Var> = self.vars().cloned().collect();
        match self.r.below(8) {
            0 | 1 => constant(&mut self.r, t),
            2 => {
                let i = self.index(IN_LEN);
                self.convert(Scalar::UInt, t, format!("in[{i}]"))
            }
            3 => {
                let i = self.r.below(CB_LEN as u64);
                self.convert(Scalar::UInt, t, format!("cb[{i}]"))
            }
            _ => {
                let v = &vars[self.r.below(vars.len() as u64) as usize];
                let n = v.name.clone();
                match v.ty.clone() {
                    Ty::S(s) => self.convert(s, t, n),
                    Ty::V(s, k) => {
                        let i = self.r.below(k as u64) as u32;
                        let c = if k <= 4 && self.r.chance(50) {
                            format!("{n}.{}", ['x', 'y', 'z', 'w'][i as usize])
                        } else {
                            format!("{n}.s{}", hex(i))
                        };
                        self.convert(s, t, c)
                    }
                    Ty::Arr(s, len) => {
                        let i = self.index(len);
                        self.convert(s, t, format!("{n}[{i}]"))
                    }
                    Ty::St(st) => {
                        let j = self.r.below(self.structs[st].len() as u64) as usize;
                        let s = self.structs[st][j];
                        self.convert(s, t, format!("{n}.f{j}"))
                    }
                    Ty::GPtr(len) => {
                        let i = self.index(len);
                        self.convert(Scalar::UInt, t, format!("{n}[{i}]"))
                    }
                    Ty::PPtr(s) => self.convert(s, t, format!("(*{n})")),
                }
            }
        }
    }

    /// An in-bounds index for an array of `len`: a 64-bit or 32-bit value
    /// reduced modulo `len`.
    fn index(&mut self, len: usize) -> String {
        if self.r.chance(50) {
            let e = self.expr(Scalar::ULong, 0);
            format!("({e}) % {len}UL")
        } else {
            let e = self.expr(Scalar::UInt, 0);
            format!("({e}) % {len}u")
        }
    }

    /// A vector expression of `t` × `k`.
    fn vexpr(&mut self, t: Scalar, k: u32, depth: u32) -> String {
        let vn = format!("{}{k}", t.name());
        let same: Vec<String> = self
            .vars()
            .filter(|v| v.ty == Ty::V(t, k))
            .map(|v| v.name.clone())
            .collect();
        let wider: Vec<(String, u32)> = self
            .vars()
            .filter_map(|v| match v.ty {
                Ty::V(s, m) if s == t && m != k => Some((v.name.clone(), m)),
                _ => None,
            })
            .collect();
        let choice = if depth == 0 {
            self.r.below(4)
        } else {
            self.r.below(8)
        };
        match choice {
            0 if !same.is_empty() => same[self.r.below(same.len() as u64) as usize].clone(),
            1 if !wider.is_empty() && k <= 16 => {
                let (n, m) = wider[self.r.below(wider.len() as u64) as usize].clone();
                let idx: Vec<u32> = (0..k).map(|_| self.r.below(m as u64) as u32).collect();
                format!("{n}.{}", swizzle(&idx, m))
            }
            2 => {
                let e = self.expr(t, depth.min(1));
                format!("(({vn})({e}))")
            }
            4 | 5 => {
                let (a, b) = (self.vexpr(t, k, depth - 1), self.vexpr(t, k, depth - 1));
                let ops: &[&str] = if t.is_float() {
                    &["+", "-", "*"]
                } else if t.signed() {
                    &["&", "|", "^"]
                } else {
                    &["+", "-", "*", "&", "|", "^", "<<", ">>"]
                };
                let op = self.pick(ops);
                format!("({a} {op} {b})")
            }
            6 if !t.is_float() => {
                // convert_ from another integer (or float, for float
                // targets) vector type: always defined.
                let s = self.vsource();
                let e = self.vexpr(s, k, depth - 1);
                self.use_convert(vn.clone(), format!("{}{k}", s.name()));
                format!("convert_{vn}({e})")
            }
            6 => {
                let s = self.vsource();
                let e = self.vexpr(s, k, depth - 1);
                self.use_convert(vn.clone(), format!("{}{k}", s.name()));
                format!("convert_{vn}({e})")
            }
            _ => {
                let parts: Vec<String> = (0..k).map(|_| self.expr(t, depth.min(1))).collect();
                format!("(({vn})({}))", parts.join(", "))
            }
        }
    }
}

fn swizzle(idx: &[u32], of: u32) -> String {
    if of <= 4 && idx.iter().all(|&i| i < 4) {
        idx.iter()
            .map(|&i| ['x', 'y', 'z', 'w'][i as usize])
            .collect()
    } else {
        format!("s{}", idx.iter().map(|&i| hex(i)).collect::<String>())
    }
}

/// A literal of type `t` (small integer types through a cast).
fn constant(r: &mut Rng, t: Scalar) -> String {
    let small = [
        0u64, 1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 127, 255, 256, 65535,
    ];
    let v = if r.chance(60) {
        small[r.below(small.len() as u64) as usize]
    } else {
        r.next_u64()
    };
    match t {
        Scalar::Float => {
            let x = (v as i32 as f32) / (1 << r.below(12)) as f32;
            format!("({x:?}f)")
        }
        Scalar::Double => {
            let x = (v as i64 as f64) / (1u64 << r.below(40)) as f64;
            format!("({x:?})")
        }
        Scalar::ULong => format!("{v}UL"),
        Scalar::UInt => format!("{}u", v as u32),
        Scalar::Long => {
            let x = v as i64;
            if x == i64::MIN {
                "LONG_MIN".into()
            } else if x < 0 {
                format!("({x}L)")
            } else {
                format!("{x}L")
            }
        }
        Scalar::Int => {
            let x = v as i32;
            if x == i32::MIN {
                "INT_MIN".into()
            } else if x < 0 {
                format!("({x})")
            } else {
                format!("{x}")
            }
        }
        s => {
            let x = match s {
                Scalar::Char => v as i8 as i64,
                Scalar::UChar => v as u8 as i64,
                Scalar::Short => v as i16 as i64,
                _ => v as u16 as i64,
            };
            format!("(({}){x})", s.name())
        }
    }
}
