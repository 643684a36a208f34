//! Semantic analysis: the language the front end accepts and the typed
//! AST it builds (conversions explicit, seed-004 conditionals, built-ins).

use compiler::front::ast::BinaryOp;
use compiler::front::builtins::Builtin;
use compiler::front::tast::{CastKind, Expr, ExprKind, Init, Stmt, TranslationUnit};
use compiler::front::types::{AddrSpace, Scalar, Type};
use compiler::front::{compile_to_typed_ast, Options, Source};

fn ok(src: &str) -> TranslationUnit {
    compile_to_typed_ast(
        Source::Text {
            name: "t.cl",
            text: src,
        },
        &Options::default(),
    )
    .unwrap_or_else(|d| panic!("{d}"))
}
fn fails(src: &str) -> String {
    compile_to_typed_ast(
        Source::Text {
            name: "t.cl",
            text: src,
        },
        &Options::default(),
    )
    .expect_err("must fail")
    .message
}

/// The expression of the `n`th expression statement / return / decl init in the function.
fn exprs(tu: &TranslationUnit, f: &str) -> Vec<Expr> {
    fn walk(s: &Stmt, out: &mut Vec<Expr>) {
        match s {
            Stmt::Expr(e) | Stmt::Return(Some(e)) | Stmt::Decl(_, Some(Init::Expr(e))) => {
                out.push(e.clone())
            }
            Stmt::Block(b) => b.iter().for_each(|s| walk(s, out)),
            Stmt::If(_, t, e) => {
                walk(t, out);
                if let Some(e) = e {
                    walk(e, out);
                }
            }
            Stmt::For { init, body, .. } => {
                init.iter().for_each(|s| walk(s, out));
                walk(body, out);
            }
            Stmt::While { body, .. } | Stmt::DoWhile { body, .. } | Stmt::Switch { body, .. } => {
                walk(body, out)
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for s in tu
        .function(f)
        .expect("function")
        .body
        .as_ref()
        .expect("body")
    {
        walk(s, &mut out);
    }
    out
}

/// The right-hand side of an assignment expression.
fn rhs(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Assign(_, r) => r,
        _ => panic!("not an assignment: {e:?}"),
    }
}

#[test]
fn language_tour_type_checks() {
    let tu = ok(r#"
typedef struct { float2 pos; int id; } particle;
typedef enum { RED, GREEN = 5, BLUE } colour;
__constant float weights[4] = {0.25f, 0.5f, 0.125f, 0.125f};
static inline int clamp_add(int a, int b) { return min(max(a + b, -100), 100); }
float dot3(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void tour(__global particle *ps, __global float4 *v, __global int *out, __local float *scratch, uint n) {
  size_t gid = get_global_id(0);
  uint lid = (uint)get_local_id(0);
  __local int hist[8][8];
  int arr[3] = {1, 2};
  float4 a = v[gid], b = (float4)(1.0f, 2.0f, (float2)(3.0f, 4.0f));
  float4 c = a.wzyx * 2.0f + b;
  c.xy = c.zw;
  c.s3 = dot3(a, b);
  uint4 bits = as_uint4(c);
  int4 iv = convert_int4(c) >> 1;
  out[0] = iv.x + iv.hi.y + (int)bits.s0 + arr[1] + GREEN + BLUE + (int)sizeof(particle);
  particle p = ps[gid];
  p.pos += (float2)(weights[lid & 3]);
  ps[gid] = p;
  ps->id = (int)n;
  scratch[lid] = fma(a.x, b.y, mad(a.z, b.w, 1.0f));
  barrier(CLK_LOCAL_MEM_FENCE);
  hist[lid & 7][lid >> 3 & 7] = 0;
  atomic_add(&hist[0][0], 1);
  atomic_inc((volatile __global int *)&out[1]);
  int acc = 0;
  for (int i = 0; i < 4; ++i) {
    if (i == 2) continue;
    acc += i;
  }
  do { acc--; } while (acc > 10);
  while (acc < 0) acc++;
  switch (acc & 3) {
  case 0: acc = 1; break;
  case 1: case 2: acc = 2; break;
  default: acc = 3;
  }
  out[2] = clamp_add(acc, popcount(acc) + clz((uint)acc) + (int)rotate(lid, 3u) + abs(-acc));
  out[3] = select(1, 2, acc > 1) + (acc > 0 ? acc : -acc) + (int)mul_hi(lid, 7u);
  float f = sqrt(fabs(c.x)) + rsqrt(2.0f) + floor(c.y) + ceil(c.z) + exp2(c.w) + log2(1.0f);
  f += fmin(f, 1.0f) + fmax(c, 0.5f).x;
  out[4] = (int)f + (int)(uint)(ulong)&out[0] + (lid == 0 ? 1 : 0);
  __global int *q = out + 5;
  *q++ = (int)(q - out);
  out[6] = __builtin_amdgcn_readfirstlane((int)__builtin_amdgcn_workitem_id_x()) + get_work_dim();
}
"#);
    let f = tu.function("tour").unwrap();
    let k = f.kernel.as_ref().unwrap();
    assert_eq!(k.local_vars.len(), 1);
    assert_eq!(
        tu.records.size_of(&f.vars[k.local_vars[0].0 as usize].ty),
        256
    );
    assert_eq!(tu.globals[0].space, AddrSpace::Constant);
    let rec = &tu.records.list[0];
    assert_eq!(
        (rec.name.as_str(), rec.size, rec.fields[1].offset),
        ("particle", 16, 8)
    );
}

#[test]
fn implicit_conversions_are_explicit_casts() {
    let tu = ok("kernel void k(global float *o, int i, uchar c, uint u) { o[0] = i + c; o[1] = i + u; o[2] = i * 0.5f; }");
    let e = exprs(&tu, "k");
    // o[0] = i + c: c promoted to int, the int sum converted to float.
    let r = rhs(&e[0]);
    let ExprKind::Cast(CastKind::IntToFloat, sum) = &r.kind else {
        panic!("{r:?}")
    };
    let ExprKind::Binary(BinaryOp::Add, _, c) = &sum.kind else {
        panic!()
    };
    assert_eq!(sum.ty, Type::INT);
    assert!(matches!(c.kind, ExprKind::Cast(CastKind::IntToInt, _)));
    // int + uint is uint (usual arithmetic conversions).
    let ExprKind::Cast(_, sum) = &rhs(&e[1]).kind else {
        panic!()
    };
    assert_eq!(sum.ty, Type::UINT);
    // int * float is float.
    assert_eq!(rhs(&e[2]).ty, Type::FLOAT);
}

#[test]
fn seed_004_conditionals_keep_their_own_node() {
    let tu = ok(r#"
kernel void k(global int4 *o, int4 a, int4 b, int4 op3, int4 m_int, int s) {
  bool4 m = a > b;           // comparison result (-1/0) to bool4: != 0
  o[0] = m ? (a + b) : 0;    // zero mode
  o[1] = m ? (a + b) : op3;  // merge mode
  o[2] = m ? 0 : (a + b);    // inverted form
  o[3] = m_int ? a : b;      // integer-vector mask: MSB rule
  o[4] = s ? a : b;          // scalar mask: != 0
  o[5] = !m ? a : b;
  o[6] = (m & (a < 0)) ? a : b;
}
"#);
    let e = exprs(&tu, "k");
    let ExprKind::Cast(CastKind::VecToBoolVec, _) = &e[0].kind else {
        panic!("bool4 m = a > b: {:?}", e[0].kind)
    };
    assert_eq!(e[0].ty, Type::Vector(Scalar::Bool, 4));
    for (i, stmt) in e.iter().enumerate().take(4).skip(1) {
        let r = rhs(stmt);
        let ExprKind::Cond { cond, then, els } = &r.kind else {
            panic!("{r:?}")
        };
        assert_eq!(cond.ty, Type::Vector(Scalar::Bool, 4));
        assert!(matches!(cond.kind, ExprKind::Var(_)));
        let int4 = Type::Vector(Scalar::Int, 4);
        assert_eq!((&then.ty, &els.ty, &r.ty), (&int4, &int4, &int4));
        // The `0` arm becomes a splat of int 0; the operation stays an operand.
        let (zero, op) = match i {
            1 => (Some(els), then),
            3 => (Some(then), els),
            _ => (None, then),
        };
        if let Some(z) = zero {
            assert!(
                matches!(&z.kind, ExprKind::Cast(CastKind::Splat, z) if matches!(z.kind, ExprKind::IntConst(0))),
                "{z:?}"
            );
        }
        assert!(matches!(op.kind, ExprKind::Binary(BinaryOp::Add, ..)));
    }
    let r = rhs(&e[4]);
    let ExprKind::Cond { cond, .. } = &r.kind else {
        panic!()
    };
    assert!(matches!(
        cond.kind,
        ExprKind::Cast(CastKind::MaskFromMsb, _)
    ));
    let r = rhs(&e[5]);
    let ExprKind::Cond { cond, .. } = &r.kind else {
        panic!()
    };
    assert_eq!(cond.ty, Type::BOOL);
    assert!(matches!(cond.kind, ExprKind::Cast(CastKind::ToBool, _)));
    let ExprKind::Cond { cond, .. } = &rhs(&e[6]).kind else {
        panic!()
    };
    assert!(matches!(cond.kind, ExprKind::Unary(..)) && cond.ty == Type::Vector(Scalar::Bool, 4));
    let ExprKind::Cond { cond, .. } = &rhs(&e[7]).kind else {
        panic!()
    };
    assert_eq!(cond.ty, Type::Vector(Scalar::Bool, 4));
    // Arithmetic on a mask is an error; a mask is no kernel argument.
    assert!(fails("kernel void k(bool4 m) { }")
        .contains("'bool4' cannot be used as the type of a kernel parameter"));
    assert!(fails("int4 f(bool4 m) { return m + m; }")
        .starts_with("invalid operands to binary expression ('bool4' and 'bool4')"));
}

#[test]
fn builtins_resolve_overloads() {
    let tu = ok("kernel void k(global float4 *o, global uint *u, float4 v, float s, uint x, uchar c) { o[0] = fmin(v, s); o[1] = clamp(v, 0.0f, 1.0f); u[0] = clz(x); u[1] = abs((int)x); u[2] = clz(c); }");
    let e = exprs(&tu, "k");
    let r = rhs(&e[0]);
    let ExprKind::Builtin(Builtin::Fmin, ops) = &r.kind else {
        panic!("{r:?}")
    };
    assert!(matches!(ops[1].kind, ExprKind::Cast(CastKind::Splat, _)));
    assert_eq!(r.ty, Type::Vector(Scalar::Float, 4));
    // clamp comes from the device library (a linked `__gpusim_clamp_f32`,
    // applied per component), its scalar bounds splat.
    let ExprKind::Builtin(Builtin::Lib(f), ops) = &rhs(&e[1]).kind else {
        panic!("{:?}", rhs(&e[1]))
    };
    assert_eq!(tu.functions[f.0 as usize].name, "__gpusim_clamp_f32");
    assert!(matches!(ops[2].kind, ExprKind::Cast(CastKind::Splat, _)));
    assert!(matches!(
        rhs(&e[2]).kind,
        ExprKind::Builtin(Builtin::Clz, _)
    ));
    let ExprKind::Builtin(Builtin::Abs, _) = &rhs(&e[3]).kind else {
        panic!()
    };
    assert_eq!(rhs(&e[3]).ty, Type::UINT);
    // clz(uchar) is the uchar overload, converted to uint for the store.
    let ExprKind::Cast(CastKind::IntToInt, inner) = &rhs(&e[4]).kind else {
        panic!("{:?}", rhs(&e[4]))
    };
    assert_eq!(inner.ty, Type::Scalar(Scalar::UChar));
    // Work-item functions are size_t; OpenCL 2.0 atomics take atomic types.
    let tu = ok("kernel void k(global atomic_int *a, global int *o) { o[0] = atomic_fetch_add_explicit(a, 2, memory_order_relaxed, memory_scope_work_group) + (int)get_group_id(1); atomic_store(a, 0); }");
    let e = exprs(&tu, "k");
    let ExprKind::Binary(_, l, _) = &rhs(&e[0]).kind else {
        panic!()
    };
    let ExprKind::Builtin(Builtin::AtomicRmw(_), ops) = &l.kind else {
        panic!()
    };
    assert!(matches!(ops[3].kind, ExprKind::IntConst(1)));
    let ExprKind::Builtin(Builtin::AtomicStore, ops) = &e[1].kind else {
        panic!()
    };
    assert!(
        matches!(ops[2].kind, ExprKind::IntConst(5)),
        "atomic_store defaults to seq_cst"
    );
    assert!(
        fails("kernel void k(global int *a) { atomic_fetch_add(a, 1); }")
            .contains("must be a pointer to an atomic type")
    );
}

#[test]
fn generic_address_space_and_private_pointers() {
    // OpenCL 2.0: an unqualified pointer is generic; named spaces convert to it.
    ok("void set(int *p, int v) { *p = v; } kernel void k(global int *g, local int *l) { int x; set(&x, 1); set(g, x); set(l, 2); }");
    assert!(
        fails("void set(int *p) { *p = 1; } kernel void k(constant int *c) { set(c); }")
            .contains("changes address space of pointer")
    );
    assert!(
        fails("kernel void k(global int *g) { int *p = g; global int *h = p; h[0] = 1; }")
            .contains("changes address space of pointer")
    );
}

#[test]
fn constant_expressions_fold() {
    let tu = ok("#define N (4 * 8 + 1)\nkernel void k(global int *o) { int a[N][(N - 1) / 2]; a[0][0] = 1; o[0] = a[0][0]; }");
    let f = tu.function("k").unwrap();
    assert_eq!(
        f.vars[1].ty,
        Type::Array(Box::new(Type::Array(Box::new(Type::INT), 16)), 33)
    );
    assert!(fails("kernel void k(global int *o) { int a[-1]; }").contains("array size is negative"));
}

#[test]
fn geometric_and_vload_vstore() {
    let tu = ok("kernel void k(global const float *in, global float *out, float4 a, float4 b) { float4 v = vload4(1, in); vstore4(normalize(v) * dot(a, b) + cross(a, b) + mix(a, b, 0.5f), 0, out); out[8] = length(a) + distance(a, b); }");
    let e = exprs(&tu, "k");
    assert!(matches!(e[0].kind, ExprKind::Builtin(Builtin::Vload(4), _)));
    assert!(matches!(
        e[1].kind,
        ExprKind::Builtin(Builtin::Vstore(4), _)
    ));
    assert!(
        fails("kernel void k(global const float *in) { vstore4((float4)(0.0f), 0, in); }")
            .contains("needs a pointer to a writable scalar")
    );
    assert!(
        fails("kernel void k(global float *o, float4 a, int4 b) { o[0] = dot(a, b); }")
            .starts_with("no matching overload of 'dot'")
    );
}

#[test]
fn pointer_sign_mismatch_is_accepted_like_clang() {
    // clang only warns (-Wpointer-sign); other pointee mismatches are errors here.
    ok("void f(global uint *p) { p[0] = 1u; } kernel void k(global int *q) { f(q); }");
    assert!(fails(
        "void f(global uint *p) { p[0] = 1u; } kernel void k(global short *q) { f(q); }"
    )
    .starts_with("passing '__global short *' to parameter of incompatible type '__global uint *'"));
}

#[test]
fn kernel_type_names_follow_clang() {
    // Oracle: clang-19 -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1030,
    // llvm-readelf --notes, on this same source.
    let tu = ok("typedef const int cint;\ntypedef __global int gint;\ntypedef uint myu;\ntypedef struct T { int x; } tt;\n\
                 typedef struct { int a; float b; } pair;\nstruct S { int x; };\n\
                 kernel void k(global cint *a, gint *b, myu c, global myu *d, global tt *e, global uint4 *f,\n\
                 global pair *p, pair v, struct S s, global struct S *q) {}");
    let names: Vec<String> = tu
        .function("k")
        .unwrap()
        .kernel
        .as_ref()
        .unwrap()
        .args
        .iter()
        .map(|a| a.type_name.clone())
        .collect();
    assert_eq!(
        names,
        [
            "int*",
            "int*",
            "myu",
            "myu*",
            "tt*",
            "uint4*",
            "pair*",
            "pair",
            "struct S",
            "struct S*"
        ]
    );
}

#[test]
fn constant_vector_subscripts_are_swizzles() {
    let tu = ok("kernel void k(global float *o, float4 v) { v[3] = 1.0f; o[0] = v[1] + v[3]; }");
    let e = exprs(&tu, "k");
    let ExprKind::Assign(l, _) = &e[0].kind else {
        panic!()
    };
    assert!(matches!(&l.kind, ExprKind::Swizzle(_, lanes) if lanes == &vec![3u8]));
    // A run-time index selects the component per lane.
    let tu = ok("kernel void k(global float *o, float4 v, int i) { o[0] = v[i]; }");
    let e = exprs(&tu, "k");
    let ExprKind::Assign(_, r) = &e[0].kind else {
        panic!()
    };
    assert!(matches!(&r.kind, ExprKind::VecIndex(..)), "{r:?}");
    assert!(
        fails("kernel void k(global float *o, float4 v) { o[0] = v[4]; }")
            .starts_with("vector index 4 is out of range for 'float4'")
    );
}
