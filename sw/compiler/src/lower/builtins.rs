//! Lowering of built-in calls: work-item queries, library calls, `mul_hi`
//! written in C, atomics with their memory orders and compare-and-swap
//! (division and `sqrt` expansions: `arith.rs`).

use super::{unsupported, Lowerer, R};
use crate::front::builtins::{AtomicOp as FAtomic, Builtin as FB};
use crate::front::diag::Loc;
use crate::front::tast::{CastKind, Expr, ExprKind};
use crate::front::types as ft;
use crate::ir::{
    AtomicOp, BinaryOp, Builtin as IrBuiltin, ConvertOp, FloatCC, InstKind, IntCC, TernaryOp, Type,
    UnaryOp, Value, WorkItemQuery,
};

impl Lowerer<'_> {
    /// Fences an atomic with memory order `order` needs: (before, after).
    /// Release orders fence before, acquire orders after (C11's constants:
    /// relaxed 0, consume 1, acquire 2, release 3, acq_rel 4, seq_cst 5).
    pub(super) fn ordering(&mut self, order: Value, loc: Loc) -> R<(bool, bool)> {
        match self.func.iconst_value(order) {
            Some(0) => Ok((false, false)),
            Some(1 | 2) => Ok((false, true)),
            Some(3) => Ok((true, false)),
            Some(4 | 5) => Ok((true, true)),
            _ => unsupported(loc, "an atomic with a non-constant or unknown memory order"),
        }
    }

    /// `atomic_cmpxchg(p, cmp, val)` → the old value, and the 2.0
    /// `compare_exchange(p, &expected, desired, …)` → `bool`, which writes
    /// the value seen to `expected` (an SSA variable here: writing it on
    /// success too is the same, the value seen then equals it). On 32-bit
    /// integers; orders other than relaxed put fences around it.
    pub(super) fn compare_exchange(&mut self, bi: FB, args: &[Expr], loc: Loc) -> R<Vec<Value>> {
        if bi == FB::AtomicCmpxchg {
            // [ptr, cmp, val, order, scope]
            let order = self.rvalue(&args[3])?[0];
            let (before, after) = self.ordering(order, loc)?;
            let Some(float) = atomic_kind(&args[1].ty) else {
                return unsupported(
                    loc,
                    "atomics on types other than int, uint, long, ulong and float",
                );
            };
            let p = self.rvalue(&args[0])?[0];
            let c = self.rvalue(&args[1])?[0];
            let v = self.rvalue(&args[2])?[0];
            let (c, v) = (self.atomic_bits(c, float), self.atomic_bits(v, float));
            let old = self.fenced_cas(p, c, v, before, after);
            return Ok(vec![if float {
                self.b().convert(ConvertOp::Bitcast, old, Type::F32)
            } else {
                old
            }]);
        }
        // [ptr, expected_ptr, desired, success order, failure order, scope]
        let (mut before, mut after) = (false, false);
        for o in &args[3..5] {
            let o = self.rvalue(o)?[0];
            let (b, a) = self.ordering(o, loc)?;
            before |= b;
            after |= a;
        }
        let Some(float) = atomic_kind(&args[2].ty) else {
            return unsupported(
                loc,
                "atomics on types other than int, uint, long, ulong and float",
            );
        };
        let mut e = &args[1];
        while let ExprKind::Cast(CastKind::PtrToPtr, inner) = &e.kind {
            e = inner;
        }
        let ExprKind::AddrOf(expected) = &e.kind else {
            return unsupported(
                args[1].loc,
                "compare-exchange whose expected value is not `&variable`",
            );
        };
        let place = self.place(expected)?;
        let p = self.rvalue(&args[0])?[0];
        let c = self.read(&place, loc)?[0];
        let v = self.rvalue(&args[2])?[0];
        let (c, v) = (self.atomic_bits(c, float), self.atomic_bits(v, float));
        let old = self.fenced_cas(p, c, v, before, after);
        let seen = if float {
            self.b().convert(ConvertOp::Bitcast, old, Type::F32)
        } else {
            old
        };
        self.write(&place, &[seen], loc)?;
        let ok = self.b().icmp(IntCC::Eq, old, c);
        self.bool_to_value(ok, &ft::Type::BOOL, loc)
    }

    /// An atomic's operand as the integer the memory operation takes: a
    /// float's bits.
    fn atomic_bits(&mut self, v: Value, float: bool) -> Value {
        if float {
            self.b().convert(ConvertOp::Bitcast, v, Type::I32)
        } else {
            v
        }
    }

    /// `atomic_cas(p, c, v)` with a fence before (release) and after
    /// (acquire) as the memory order asks; the old value.
    fn fenced_cas(&mut self, p: Value, c: Value, v: Value, before: bool, after: bool) -> Value {
        if before {
            self.b().fence();
        }
        let old = self.b().atomic_cas(p, c, v);
        if after {
            self.b().fence();
        }
        old
    }

    /// A `size_t` work-item function (`get_global_id(d)`, `get_local_size(d)`,
    /// the linear ids, ...) as a 64-bit value when `wide`, else its low 32
    /// bits (a query narrowed by a cast); `None` when `bi` is not one.
    ///
    /// `get_local_size` is the size of this work-group, smaller than the
    /// enqueued size in a partial last group (OpenCL 2.0 non-uniform
    /// work-groups): `min(enqueued, global size - group id * enqueued)`.
    /// The local linear id uses those sizes (it is the work-item's place
    /// in the group's packing into waves); the global linear id is 64-bit
    /// when `wide`, since a 3-D grid may hold more than 2^32 work-items.
    pub(super) fn work_item_query(
        &mut self,
        bi: FB,
        args: &[Expr],
        wide: bool,
        loc: Loc,
    ) -> R<Option<Value>> {
        let widen = |l: &mut Self, v: Value| {
            if wide {
                l.b().convert(ConvertOp::Zext, v, Type::I64)
            } else {
                v
            }
        };
        let v = match bi {
            FB::GetLocalSize => {
                let d = self.rvalue(&args[0])?[0];
                self.per_dimension(d, 1, |l, d| l.group_size(d))
            }
            FB::GetLocalLinearId => {
                let mut b = self.b();
                let l: Vec<Value> = (0..3)
                    .map(|d| b.work_item(WorkItemQuery::LocalId, d))
                    .collect();
                let (s0, s1) = (self.group_size(0), self.group_size(1));
                let mut b = self.b();
                let t = b.binary(BinaryOp::Imul, l[2], s1);
                let t = b.binary(BinaryOp::Iadd, t, l[1]);
                let t = b.binary(BinaryOp::Imul, t, s0);
                b.binary(BinaryOp::Iadd, t, l[0])
            }
            // `uint`, never widened.
            FB::GetWorkDim => return Ok(Some(self.b().work_item(WorkItemQuery::WorkDim, 0))),
            FB::GetGlobalLinearId => {
                let mut b = self.b();
                let q = |b: &mut crate::ir::Builder<'_>, q, d| {
                    let v = b.work_item(q, d);
                    if wide {
                        b.convert(ConvertOp::Zext, v, Type::I64)
                    } else {
                        v
                    }
                };
                let g: Vec<Value> = (0..3)
                    .map(|d| q(&mut b, WorkItemQuery::GlobalId, d))
                    .collect();
                let s0 = q(&mut b, WorkItemQuery::GlobalSize, 0);
                let s1 = q(&mut b, WorkItemQuery::GlobalSize, 1);
                let t = b.binary(BinaryOp::Imul, g[2], s1);
                let t = b.binary(BinaryOp::Iadd, t, g[1]);
                let t = b.binary(BinaryOp::Imul, t, s0);
                return Ok(Some(b.binary(BinaryOp::Iadd, t, g[0])));
            }
            _ => match size_t_query(bi) {
                Some(q) => {
                    let d = self.rvalue(&args[0])?[0];
                    self.work_item(q, d, loc)?[0]
                }
                None => return Ok(None),
            },
        };
        Ok(Some(widen(self, v)))
    }

    /// Query `q` in dimension `dim` (32-bit). A dimension that is not a
    /// constant selects among the three; one above 2 gives what OpenCL
    /// says (1 for sizes and counts, 0 for ids).
    pub(super) fn work_item(&mut self, q: WorkItemQuery, dim: Value, _loc: Loc) -> R<Vec<Value>> {
        let outside = match q {
            WorkItemQuery::LocalId
            | WorkItemQuery::GroupId
            | WorkItemQuery::GlobalId
            | WorkItemQuery::GlobalOffset => 0,
            _ => 1,
        };
        Ok(vec![
            self.per_dimension(dim, outside, |l, d| l.b().work_item(q, d))
        ])
    }

    /// `f(d)` for the dimension `dim` holds: directly for a constant,
    /// otherwise a select among the three (`outside` above 2).
    fn per_dimension(
        &mut self,
        dim: Value,
        outside: i64,
        mut f: impl FnMut(&mut Self, u8) -> Value,
    ) -> Value {
        match self.func.iconst_value(dim) {
            Some(d @ 0..=2) => f(self, d as u8),
            Some(_) => self.b().iconst(Type::I32, outside),
            None => {
                let vals: Vec<Value> = (0..3).map(|d| f(self, d)).collect();
                // The operand is a `uint` (sema converted it).
                let mut b = self.b();
                let mut r = b.iconst(Type::I32, outside);
                for d in (0..3).rev() {
                    let k = b.iconst(Type::I32, d as i64);
                    let is = b.icmp(IntCC::Eq, dim, k);
                    r = b.select(is, vals[d], r);
                }
                r
            }
        }
    }

    /// This work-group's size in dimension `d` (32-bit): the enqueued size,
    /// or what is left of the grid in a partial last group.
    fn group_size(&mut self, d: u8) -> Value {
        let mut b = self.b();
        let enqueued = b.work_item(WorkItemQuery::LocalSize, d);
        let grid = b.work_item(WorkItemQuery::GlobalSize, d);
        let group = b.work_item(WorkItemQuery::GroupId, d);
        let start = b.binary(BinaryOp::Imul, group, enqueued);
        let left = b.binary(BinaryOp::Isub, grid, start);
        b.binary(BinaryOp::Umin, enqueued, left)
    }

    /// `rsqrt(x)` on f32 (2 ULP allowed): `v_rsq_f32` (about 1 ULP), with
    /// denormal inputs, which it flushes, scaled by 2^24 first and the
    /// result by 2^12 after.
    fn rsqrt_f32(&mut self, x: Value) -> Value {
        let mut bl = self.b();
        let smallest_normal = bl.f32const(f32::MIN_POSITIVE);
        let ax = bl.unary(UnaryOp::Fabs, x);
        let tiny = bl.fcmp(FloatCC::Olt, ax, smallest_normal);
        let (up, down, zero) = (
            bl.iconst(Type::I32, 24),
            bl.iconst(Type::I32, 12),
            bl.iconst(Type::I32, 0),
        );
        let s = bl.select(tiny, up, zero);
        let scaled = bl.call(IrBuiltin::Ldexp, &[x, s]);
        let r = bl.call(IrBuiltin::Rsq, &[scaled]);
        let e = bl.select(tiny, down, zero);
        bl.call(IrBuiltin::Ldexp, &[r, e])
    }

    /// A device-library call: the linked scalar function inlined once per
    /// component. A pointer form's function returns `(value, stored)`; the
    /// stored components (an `int` one as its bits) are written through the
    /// pointer operand, the last. A work-group function (one parameter
    /// more than its operands) gets the kernel's LDS scratch as that one.
    fn library_call(
        &mut self,
        f: crate::front::tast::FuncId,
        args: &[Expr],
        vals: &[Vec<Value>],
        loc: Loc,
    ) -> R<Vec<Value>> {
        let params = self.tu.functions[f.0 as usize].params;
        if params == args.len() + 1 {
            // A work-group function: its last parameter is the kernel's
            // scratch in LDS, reserved on the first call.
            let lv = match self.wg_scratch {
                Some(lv) => lv,
                None => {
                    let lv = self.func.add_local(WG_SCRATCH_BYTES, 8);
                    self.wg_scratch = Some(lv);
                    lv
                }
            };
            let mut vals = vals.to_vec();
            vals.push(vec![self.b().local_addr(lv)]);
            return self.inline_call(f, vals, loc);
        }
        let out_ptr = (args.len() > params).then(|| {
            let p = args.last().expect("a pointer operand");
            let pointee = p.ty.pointee().expect("sema checked a pointer").ty.clone();
            (vals[args.len() - 1][0], pointee)
        });
        let callee = &self.tu.functions[f.0 as usize];
        if params == 0
            || callee.ret == crate::front::types::Type::Void
            || callee.vars[..params].iter().any(|v| v.ty.is_vector())
        {
            // Geometric functions take the whole vectors; sub-group
            // queries and barriers are called once (scalars, no result).
            return self.inline_call(f, vals[..params].to_vec(), loc);
        }
        let (mut out, mut stored) = (Vec::new(), Vec::new());
        for i in 0..vals[0].len() {
            let a: Vec<Vec<Value>> = vals[..params].iter().map(|v| vec![v[i]]).collect();
            let r = self.inline_call(f, a, loc)?;
            out.push(r[0]);
            if out_ptr.is_some() {
                stored.push(r[1]);
            }
        }
        if out_ptr.is_some()
            && self.func.ty(out[0]) == Type::F32
            && self.func.ty(vals[0][0]) == Type::F16
        {
            // A `half` pointer form's function returns the float one's
            // `float2`: the value rounds to half here (once), as does a
            // stored `half`.
            for v in out.iter_mut() {
                *v = self.b().convert(ConvertOp::FpTrunc, *v, Type::F16);
            }
            if out_ptr.as_ref().is_some_and(|(_, ty)| ty.is_float()) {
                for v in stored.iter_mut() {
                    *v = self.b().convert(ConvertOp::FpTrunc, *v, Type::F16);
                }
            }
        }
        if let Some((p, ty)) = out_ptr {
            if ty.is_integer() {
                for v in &mut stored {
                    // A `double` function returns the `int` in the low bits.
                    *v = if self.func.ty(*v) == Type::F64 {
                        let bits = self.b().convert(ConvertOp::Bitcast, *v, Type::I64);
                        self.b().convert(ConvertOp::Trunc, bits, Type::I32)
                    } else {
                        self.b().convert(ConvertOp::Bitcast, *v, Type::I32)
                    };
                }
            }
            self.write(&super::Place::Mem(p, ty), &stored, loc)?;
        }
        Ok(out)
    }

    pub(super) fn builtin(
        &mut self,
        bi: FB,
        args: &[Expr],
        ty: &ft::Type,
        loc: Loc,
    ) -> R<Vec<Value>> {
        if let FB::Printf(id) = bi {
            return self.printf(id, args, loc);
        }
        let dim_query = match bi {
            FB::WorkitemId(d) => Some((WorkItemQuery::LocalId, d)),
            FB::WorkgroupId(d) => Some((WorkItemQuery::GroupId, d)),
            _ => None,
        };
        if let Some((q, d)) = dim_query {
            return Ok(vec![self.b().work_item(q, d)]);
        }
        // size_t is 64-bit (the cast in `cast` asks for 32 bits when narrowed).
        if let Some(v) = self.work_item_query(bi, args, true, loc)? {
            return Ok(vec![v]);
        }
        if matches!(bi, FB::AtomicCompareExchange | FB::AtomicCmpxchg) {
            return self.compare_exchange(bi, args, loc);
        }
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.rvalue(a)?);
        }
        let s = ty.elem_scalar();
        let float = s.is_some_and(|s| s.is_float());
        let per = |l: &mut Self, op: BinaryOp| -> Vec<Value> {
            (0..vals[0].len())
                .map(|i| l.b().binary(op, vals[0][i], vals[1][i]))
                .collect()
        };
        match bi {
            FB::Fabs => Ok(vals[0]
                .iter()
                .map(|&v| self.b().unary(UnaryOp::Fabs, v))
                .collect()),
            FB::Fmin if float => Ok(per(self, BinaryOp::Fmin)),
            FB::Fmax if float => Ok(per(self, BinaryOp::Fmax)),
            FB::Min | FB::Max if float => Ok(per(
                self,
                if bi == FB::Min {
                    BinaryOp::Fmin
                } else {
                    BinaryOp::Fmax
                },
            )),
            FB::Min | FB::Max if s.is_some_and(|s| super::scalar_type(s) == Type::I32) => {
                let signed = s.is_some_and(|s| s.is_signed());
                let op = match (bi == FB::Min, signed) {
                    (true, true) => BinaryOp::Smin,
                    (true, false) => BinaryOp::Umin,
                    (false, true) => BinaryOp::Smax,
                    (false, false) => BinaryOp::Umax,
                };
                Ok(per(self, op))
            }
            FB::Fma | FB::Mad if float => Ok((0..vals[0].len())
                .map(|i| {
                    self.b()
                        .ternary(TernaryOp::Fma, vals[0][i], vals[1][i], vals[2][i])
                })
                .collect()),
            FB::Sqrt if ir_scalar(ty) == Some(Type::F32) => {
                Ok(vals[0].iter().map(|&v| self.sqrt_f32(v)).collect())
            }
            FB::MbcntLo | FB::MbcntHi | FB::DsBpermute => {
                let ib = match bi {
                    FB::MbcntLo => IrBuiltin::MbcntLo,
                    FB::MbcntHi => IrBuiltin::MbcntHi,
                    _ => IrBuiltin::Bpermute,
                };
                Ok(vec![self.b().call(ib, &[vals[0][0], vals[1][0]])])
            }
            FB::ReadFirstLane => Ok(vec![self.b().call(IrBuiltin::ReadFirstLane, &[vals[0][0]])]),
            FB::WaveSize => Ok(vec![self.b().call(IrBuiltin::WaveSize, &[])]),
            FB::ReadLane => Ok(vec![self
                .b()
                .call(IrBuiltin::ReadLane, &[vals[0][0], vals[1][0]])]),
            FB::Vload(n) | FB::Vstore(n) => {
                // [off, p] / [data, off, p]: n elements from p + off * n.
                let k = matches!(bi, FB::Vstore(_)) as usize;
                let elem = match args[1 + k].ty.pointee() {
                    Some(pt) => pt.ty.clone(),
                    None => return unsupported(loc, "vload/vstore through a non-pointer"),
                };
                let size = self.tu.records.size_of(&elem);
                let base = vals[1 + k][0];
                let idx = self.narrow_index(vals[k][0], &args[k].ty, loc)?;
                let off = self.scaled_offset(base, idx, size * u32::from(n));
                let first = self.b().ptr_add(base, off);
                let mut out = Vec::new();
                for i in 0..u32::from(n) {
                    let mut b = self.b();
                    let at = b.iconst(Type::I32, i64::from(i * size));
                    let a = b.ptr_add(first, at);
                    let place = super::Place::Mem(a, elem.clone());
                    if k == 1 {
                        self.write(&place, &[vals[0][i as usize]], loc)?;
                    } else {
                        out.push(self.read(&place, loc)?[0]);
                    }
                }
                Ok(out)
            }
            FB::Lib(f) => self.library_call(f, args, &vals, loc),
            FB::LibRel(f) => {
                let r = self.library_call(f, args, &vals, loc)?;
                if !ty.is_vector() {
                    return Ok(r);
                }
                // OpenCL's vector true is -1 (all bits), its scalar true 1;
                // a `double` vector's result is a `long` vector, a `half`
                // vector's a `short` vector.
                let elem = ir_scalar(ty);
                Ok(r.into_iter()
                    .map(|v| {
                        let v = if elem == Some(Type::I64) {
                            self.b().convert(ConvertOp::Sext, v, Type::I64)
                        } else {
                            v
                        };
                        let t = self.b().unary(UnaryOp::Ineg, v);
                        // (negated in 32 bits: the back end has no 16-bit negate)
                        if elem == Some(Type::I16) {
                            self.b().convert(ConvertOp::Trunc, t, Type::I16)
                        } else {
                            t
                        }
                    })
                    .collect())
            }
            FB::Any | FB::All => {
                let t = ir_scalar(&args[0].ty).expect("an integer gentype");
                let zero = self.constant(t, 0);
                let mut bl = self.b();
                let (one, none) = (bl.iconst(Type::I32, 1), bl.iconst(Type::I32, 0));
                let mut acc = None;
                for &v in &vals[0] {
                    let neg = bl.icmp(IntCC::Slt, v, zero);
                    let bit = bl.select(neg, one, none);
                    acc = Some(match acc {
                        None => bit,
                        Some(a) if bi == FB::All => bl.binary(BinaryOp::And, a, bit),
                        Some(a) => bl.binary(BinaryOp::Or, a, bit),
                    });
                }
                Ok(vec![acc.expect("a component")])
            }
            FB::Select => {
                let t = ir_scalar(&args[2].ty).expect("an integer gentype");
                let vector = args[2].ty.is_vector();
                let zero = self.constant(t, 0);
                Ok((0..vals[0].len())
                    .map(|i| {
                        let mut bl = self.b();
                        // Vectors test the most significant bit, scalars != 0.
                        let cc = if vector { IntCC::Slt } else { IntCC::Ne };
                        let c = bl.icmp(cc, vals[2][i], zero);
                        bl.select(c, vals[1][i], vals[0][i])
                    })
                    .collect())
            }
            FB::HwSqrt
            | FB::HwRsq
            | FB::Floor
            | FB::HwSin
            | FB::HwCos
            | FB::HwFract
            | FB::HwFrexpMant
            | FB::HwFrexpExp
            | FB::HwExp2
            | FB::HwLog2
            | FB::Ceil
            | FB::Trunc
            | FB::Rint
            | FB::Recip
            | FB::HwRcp
                if ir_scalar(&args[0].ty) == Some(Type::F32) =>
            {
                let ib = match bi {
                    FB::HwSqrt => IrBuiltin::Sqrt,
                    FB::HwRsq => IrBuiltin::Rsq,
                    FB::HwSin => IrBuiltin::HwSin,
                    FB::HwCos => IrBuiltin::HwCos,
                    FB::HwFract => IrBuiltin::Fract,
                    FB::HwFrexpMant => IrBuiltin::FrexpMant,
                    FB::HwFrexpExp => IrBuiltin::FrexpExp,
                    FB::HwExp2 => IrBuiltin::HwExp2,
                    FB::HwLog2 => IrBuiltin::HwLog2,
                    FB::Ceil => IrBuiltin::Ceil,
                    FB::Trunc => IrBuiltin::Trunc,
                    FB::Rint => IrBuiltin::Rndne,
                    FB::Recip | FB::HwRcp => IrBuiltin::Rcp,
                    _ => IrBuiltin::Floor,
                };
                Ok(vals[0].iter().map(|&v| self.b().call(ib, &[v])).collect())
            }
            FB::MulHi if ir_scalar(ty) == Some(Type::I32) => {
                let ib = if s.is_some_and(|s| s.is_signed()) {
                    IrBuiltin::SmulHi
                } else {
                    IrBuiltin::UmulHi
                };
                Ok((0..vals[0].len())
                    .map(|i| self.b().call(ib, &[vals[0][i], vals[1][i]]))
                    .collect())
            }
            FB::HwLdexp => Ok(vec![self
                .b()
                .call(IrBuiltin::Ldexp, &[vals[0][0], vals[1][0]])]),
            FB::HalfDivide if ir_scalar(ty) == Some(Type::F32) => Ok((0..vals[0].len())
                .map(|i| {
                    let mut b = self.b();
                    let r = b.call(IrBuiltin::Rcp, &[vals[1][i]]);
                    b.binary(BinaryOp::Fmul, vals[0][i], r)
                })
                .collect()),
            FB::Rsqrt if float => Ok(vals[0].iter().map(|&v| self.rsqrt_f32(v)).collect()),
            FB::Copysign if float => Ok((0..vals[0].len())
                .map(|i| {
                    let mut b = self.b();
                    let x = b.convert(ConvertOp::Bitcast, vals[0][i], Type::I32);
                    let y = b.convert(ConvertOp::Bitcast, vals[1][i], Type::I32);
                    let mag = b.iconst(Type::I32, 0x7fff_ffff);
                    let sign = b.iconst(Type::I32, i64::from(i32::MIN));
                    let x = b.binary(BinaryOp::And, x, mag);
                    let y = b.binary(BinaryOp::And, y, sign);
                    let r = b.binary(BinaryOp::Or, x, y);
                    b.convert(ConvertOp::Bitcast, r, Type::F32)
                })
                .collect()),
            FB::Bitreverse | FB::Alignbit | FB::Rotate | FB::RotateRight
                if ir_scalar(ty) == Some(Type::I32) =>
            {
                Ok((0..vals[0].len())
                    .map(|i| {
                        let a: Vec<Value> = vals.iter().map(|v| v[i]).collect();
                        let mut b = self.b();
                        match bi {
                            FB::Bitreverse => b.call(IrBuiltin::Bitreverse, &a),
                            FB::Alignbit => b.call(IrBuiltin::Alignbit, &a),
                            // rotr(x, s) = alignbit(x, x, s); rotl(x, s) = rotr(x, -s mod 32).
                            FB::RotateRight => b.call(IrBuiltin::Alignbit, &[a[0], a[0], a[1]]),
                            _ => {
                                let s = b.unary(UnaryOp::Ineg, a[1]);
                                b.call(IrBuiltin::Alignbit, &[a[0], a[0], s])
                            }
                        }
                    })
                    .collect())
            }
            FB::Popcount | FB::Clz | FB::Ctz | FB::Abs | FB::Mul24 | FB::Mad24 => {
                let arg = args[0].ty.elem_scalar();
                if arg.map(super::scalar_type) != Some(Type::I32) {
                    return unsupported(
                        loc,
                        format!(
                            "the built-in {} (only int and uint are supported)",
                            self.call_text(bi, args)
                        ),
                    );
                }
                let signed = arg.is_some_and(|s| s.is_signed());
                let ib = match bi {
                    FB::Popcount => IrBuiltin::Popcount,
                    FB::Clz => IrBuiltin::Clz,
                    FB::Ctz => IrBuiltin::Ctz,
                    // abs of an unsigned value is the value.
                    FB::Abs if !signed => return Ok(vals[0].clone()),
                    FB::Abs => IrBuiltin::Abs,
                    // The IR's 24-bit multiplies are the signed ones.
                    _ if !signed => {
                        let name = super::builtin_names::spelling(bi);
                        return unsupported(loc, format!("the built-in {name}(uint, ...)"));
                    }
                    FB::Mul24 => IrBuiltin::Mul24,
                    _ => IrBuiltin::Mad24,
                };
                Ok((0..vals[0].len())
                    .map(|i| {
                        let a: Vec<Value> = vals.iter().map(|v| v[i]).collect();
                        self.b().call(ib, &a)
                    })
                    .collect())
            }
            FB::AtomicRmw(op) | FB::AtomicRmwFetch(op) => {
                // [ptr, value, order, scope]. The IR atomic has no ordering
                // of its own: fences around it give acquire and release.
                let (before, after) = self.ordering(vals[2][0], loc)?;
                let signed = ty.elem_scalar().is_some_and(|s| s.is_signed());
                let Some(float) = atomic_kind(ty) else {
                    return unsupported(
                        loc,
                        "atomics on types other than int, uint, long, ulong and float",
                    );
                };
                let irop = match (op, signed) {
                    (FAtomic::Add, _) => AtomicOp::Add,
                    (FAtomic::Sub, _) => AtomicOp::Sub,
                    (FAtomic::Xchg, _) => AtomicOp::Xchg,
                    (FAtomic::And, _) => AtomicOp::And,
                    (FAtomic::Or, _) => AtomicOp::Or,
                    (FAtomic::Min, true) => AtomicOp::Smin,
                    (FAtomic::Max, true) => AtomicOp::Smax,
                    (FAtomic::Min, false) => AtomicOp::Umin,
                    (FAtomic::Max, false) => AtomicOp::Umax,
                    (FAtomic::Xor, _) => AtomicOp::Xor,
                };
                if before {
                    self.b().fence();
                }
                let v = self.atomic_bits(vals[1][0], float);
                let old = self.b().atomic(irop, vals[0][0], v);
                if after {
                    self.b().fence();
                }
                if float {
                    // Only an exchange (sema): the old bits as a float.
                    return Ok(vec![self.b().convert(ConvertOp::Bitcast, old, Type::F32)]);
                }
                if let FB::AtomicRmwFetch(_) = bi {
                    // GNU op-then-fetch: the new value, recomputed from the old.
                    let bop = match irop {
                        AtomicOp::Add => BinaryOp::Iadd,
                        AtomicOp::Sub => BinaryOp::Isub,
                        AtomicOp::And => BinaryOp::And,
                        AtomicOp::Or => BinaryOp::Or,
                        AtomicOp::Xor => BinaryOp::Xor,
                        AtomicOp::Smin => BinaryOp::Smin,
                        AtomicOp::Smax => BinaryOp::Smax,
                        AtomicOp::Umin => BinaryOp::Umin,
                        AtomicOp::Umax => BinaryOp::Umax,
                        _ => return unsupported(loc, "this atomic op-then-fetch"),
                    };
                    return Ok(vec![self.b().binary(bop, old, vals[1][0])]);
                }
                Ok(vec![old])
            }
            FB::AtomicLoad | FB::AtomicStore => {
                // [ptr, order, scope] / [ptr, value, order, scope]: an atomic
                // `or 0` reads, an exchange writes (both never merged, moved
                // or removed, unlike plain loads and stores).
                let store = bi == FB::AtomicStore;
                let order = vals[if store { 2 } else { 1 }][0];
                let (before, after) = self.ordering(order, loc)?;
                let vt = if store { &args[1].ty } else { ty };
                let Some(float) = atomic_kind(vt) else {
                    return unsupported(
                        loc,
                        "atomics on types other than int, uint, long, ulong and float",
                    );
                };
                if before {
                    self.b().fence();
                }
                let r = if store {
                    let v = self.atomic_bits(vals[1][0], float);
                    self.b().atomic(AtomicOp::Xchg, vals[0][0], v);
                    Vec::new()
                } else {
                    let t = match ir_scalar(vt) {
                        Some(Type::I64) => Type::I64,
                        _ => Type::I32,
                    };
                    let z = self.b().iconst(t, 0);
                    let old = self.b().atomic(AtomicOp::Or, vals[0][0], z);
                    vec![if float {
                        self.b().convert(ConvertOp::Bitcast, old, Type::F32)
                    } else {
                        old
                    }]
                };
                if after {
                    self.b().fence();
                }
                Ok(r)
            }
            // A wave runs in lockstep: its barrier only orders memory.
            FB::Fence | FB::WorkItemFence | FB::MemFence | FB::WaveBarrier => {
                self.b().fence();
                Ok(Vec::new())
            }
            FB::Barrier | FB::SBarrier => {
                self.b().barrier();
                Ok(Vec::new())
            }
            _ => unsupported(loc, format!("the built-in {}", self.call_text(bi, args))),
        }
    }

    /// The call of `bi` as the user wrote it, for diagnostics:
    /// `fmin(double, double)`, `__builtin_amdgcn_implicitarg_ptr()`.
    fn call_text(&self, bi: FB, args: &[Expr]) -> String {
        let name = super::builtin_names::spelling(bi);
        self.tu.records.call_text(&name, args.iter().map(|a| &a.ty))
    }
}

/// An operand of a recognised `mul_hi`: a 32-bit value, or (`Err`) a
/// 64-bit constant that fits in 32 bits.
pub(super) type MulHiOperand = Result<Value, i64>;

/// `trunc(lshr(imul(ext a, ext b), 32))` to 32 bits, with `a` and `b`
/// extended from 32 bits the same way (OpenCL's `mul_hi` written in C, as
/// the corpus header's `gs_mul_hi`): the high half of the 32-bit product,
/// one `v_mul_hi_u32`/`_i32` instead of 64-bit arithmetic.
pub(super) fn mul_hi_of(
    f: &crate::ir::Function,
    x: Value,
    to: Type,
) -> Option<(IrBuiltin, MulHiOperand, MulHiOperand)> {
    if to != Type::I32 || f.ty(x) != Type::I64 {
        return None;
    }
    // Either shift: the low 32 bits of `p >> 32` are the same.
    let InstKind::Binary {
        op: BinaryOp::Lshr | BinaryOp::Ashr,
        args: [p, s],
    } = f.def_inst(x)?
    else {
        return None;
    };
    if f.iconst_value(*s) != Some(32) {
        return None;
    }
    let InstKind::Binary {
        op: BinaryOp::Imul,
        args: [l, r],
    } = f.def_inst(*p)?
    else {
        return None;
    };
    // An operand is a 32-bit value extended, or a constant (Err) that
    // either extension of 32 bits gives.
    let ext = |v: Value| match f.def_inst(v)? {
        InstKind::Convert { op, arg, .. }
            if matches!(op, ConvertOp::Zext | ConvertOp::Sext) && f.ty(*arg) == Type::I32 =>
        {
            Some((Some(*op), Ok(*arg)))
        }
        InstKind::Iconst { imm, .. } => Some((None, Err(*imm))),
        _ => None,
    };
    let ((ol, a), (or, b)) = (ext(*l)?, ext(*r)?);
    let op = ol.or(or)?;
    let fits = |x: &Result<Value, i64>| match *x {
        Ok(_) => true,
        Err(k) if op == ConvertOp::Zext => u32::try_from(k).is_ok(),
        Err(k) => i32::try_from(k).is_ok(),
    };
    if ol.is_some_and(|o| o != op) || or.is_some_and(|o| o != op) || !fits(&a) || !fits(&b) {
        return None;
    }
    let ol = op;
    let hi = if ol == ConvertOp::Zext {
        IrBuiltin::UmulHi
    } else {
        IrBuiltin::SmulHi
    };
    Some((hi, a, b))
}

pub(super) fn size_t_query(bi: FB) -> Option<WorkItemQuery> {
    Some(match bi {
        FB::GetGlobalId => WorkItemQuery::GlobalId,
        FB::GetLocalId => WorkItemQuery::LocalId,
        FB::GetGroupId => WorkItemQuery::GroupId,
        FB::GetGlobalSize => WorkItemQuery::GlobalSize,
        FB::GetEnqueuedLocalSize => WorkItemQuery::LocalSize,
        FB::GetGlobalOffset => WorkItemQuery::GlobalOffset,
        FB::GetNumGroups => WorkItemQuery::NumGroups,
        _ => return None,
    })
}

/// Bytes of LDS the work-group functions (`lib/workgroup.cl`) share in a
/// kernel that calls one: an 8-byte slot per wave of the largest
/// work-group (1024 work-items in waves of 32).
const WG_SCRATCH_BYTES: u32 = 8 * 1024 / 32;

/// Whether an atomic on a `t` works on a float's bits (`Some(true)`) or on
/// a 32- or 64-bit integer (`Some(false)`); `None` for other types.
fn atomic_kind(t: &ft::Type) -> Option<bool> {
    match ir_scalar(t)? {
        Type::I32 | Type::I64 => Some(false),
        Type::F32 => Some(true),
        _ => None,
    }
}

/// The IR type of `t`'s element scalar (`int4` → `i32`), if it has one.
fn ir_scalar(t: &ft::Type) -> Option<Type> {
    t.elem_scalar().map(super::scalar_type)
}

/// The high 64 bits of the unsigned 128-bit product `a * b`, from 32-bit
/// partial products (`v_mul_hi_u32` and `v_mul_lo_u32`): the middle
/// column's carries go into the high word.
pub(super) fn umulhi64(bl: &mut crate::ir::Builder<'_>, a: Value, b: Value) -> Value {
    let k32 = bl.iconst(Type::I64, 32);
    let halves = |bl: &mut crate::ir::Builder<'_>, v: Value| {
        let lo = bl.convert(ConvertOp::Trunc, v, Type::I32);
        let hi = bl.binary(BinaryOp::Lshr, v, k32);
        (lo, bl.convert(ConvertOp::Trunc, hi, Type::I32))
    };
    let (al, ah) = halves(bl, a);
    let (bl_, bh) = halves(bl, b);
    let zext =
        |bl: &mut crate::ir::Builder<'_>, v: Value| bl.convert(ConvertOp::Zext, v, Type::I64);
    let p0_hi = bl.call(IrBuiltin::UmulHi, &[al, bl_]);
    let p1_lo = bl.binary(BinaryOp::Imul, al, bh);
    let p1_hi = bl.call(IrBuiltin::UmulHi, &[al, bh]);
    let p2_lo = bl.binary(BinaryOp::Imul, ah, bl_);
    let p2_hi = bl.call(IrBuiltin::UmulHi, &[ah, bl_]);
    let p3_lo = bl.binary(BinaryOp::Imul, ah, bh);
    let p3_hi = bl.call(IrBuiltin::UmulHi, &[ah, bh]);
    // Middle column: at most 3 * (2^32 - 1), so its carry fits.
    let (a0, a1, a2) = (zext(bl, p0_hi), zext(bl, p1_lo), zext(bl, p2_lo));
    let mid = bl.binary(BinaryOp::Iadd, a0, a1);
    let mid = bl.binary(BinaryOp::Iadd, mid, a2);
    let carry = bl.binary(BinaryOp::Lshr, mid, k32);
    let p3_hi = zext(bl, p3_hi);
    let p3_hi = bl.binary(BinaryOp::Shl, p3_hi, k32);
    let p3 = {
        let lo = zext(bl, p3_lo);
        bl.binary(BinaryOp::Or, p3_hi, lo)
    };
    let (h1, h2) = (zext(bl, p1_hi), zext(bl, p2_hi));
    let hi = bl.binary(BinaryOp::Iadd, p3, h1);
    let hi = bl.binary(BinaryOp::Iadd, hi, h2);
    bl.binary(BinaryOp::Iadd, hi, carry)
}
