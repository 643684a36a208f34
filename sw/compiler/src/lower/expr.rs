//! Expressions: one IR value per component.

use super::{unsupported, Lowerer, Place, R};
use crate::front::ast::BinaryOp as B;
use crate::front::builtins::Builtin as FB;
use crate::front::diag::Loc;
use crate::front::tast::{CastKind, Expr, ExprKind, UnaryOp as U};
use crate::front::types::{self as ft, Scalar};
use crate::ir::{
    BinaryOp, ConvertOp, FloatCC, InstKind, IntCC, TernaryOp, Type, UnaryOp, Value, WorkItemQuery,
};

impl Lowerer<'_> {
    /// The condition of `if`/loops/`&&`: a `bool` expression as an `i1`.
    pub(super) fn cond(&mut self, e: &Expr) -> R<Value> {
        let v = self.rvalue(e)?;
        Ok(self.b().truth(v[0]))
    }

    pub(super) fn place(&mut self, e: &Expr) -> R<Place> {
        match &e.kind {
            ExprKind::Var(id) => {
                let key = self.key(*id);
                if let Some(&lv) = self.locals.get(&key) {
                    let p = self.b().local_addr(lv);
                    return Ok(Place::Mem(p, e.ty.clone()));
                }
                if let Some(&off) = self.privates.get(&key) {
                    let p = self.b().private_addr(off);
                    return Ok(Place::Mem(p, e.ty.clone()));
                }
                if let Some(&p) = self.arg_records.get(&key) {
                    return Ok(Place::Mem(p, e.ty.clone()));
                }
                if !self.env.contains_key(&key) {
                    return unsupported(e.loc, "a variable in private memory");
                }
                Ok(Place::Var(key))
            }
            ExprKind::Deref(p) => {
                let ptr = self.rvalue(p)?[0];
                if let ft::Type::Scalar(Scalar::Bool) = e.ty {
                    return unsupported(e.loc, "bool in memory");
                }
                Ok(Place::Mem(ptr, e.ty.clone()))
            }
            ExprKind::Swizzle(base, lanes) => {
                let p = self.place(base)?;
                Ok(Place::Lanes(Box::new(p), lanes.clone()))
            }
            ExprKind::VecIndex(base, idx) => {
                let p = self.place(base)?;
                let i = self.rvalue(idx)?[0];
                let n = base.ty.width();
                if let Place::Mem(ptr, ft::Type::Vector(s, _)) = p {
                    // In memory: the component's address, as clang does.
                    let t = super::scalar_type(s);
                    let mut b = self.b();
                    let size = b.iconst(Type::I32, i64::from(t.bytes()));
                    let off = b.imul(i, size);
                    return Ok(Place::Mem(b.ptr_add(ptr, off), ft::Type::Scalar(s)));
                }
                Ok(Place::Lane(Box::new(p), i, n))
            }
            ExprKind::Global(id) => {
                let p = self.global_addr(*id, e.loc)?;
                Ok(Place::Mem(p, e.ty.clone()))
            }
            ExprKind::Member(base, field) => {
                // A member of a struct in memory: the struct's address plus
                // the member's offset.
                let Place::Mem(ptr, ft::Type::Record(r)) = self.place(base)? else {
                    return unsupported(e.loc, "members of a struct not in memory");
                };
                let f = &self.tu.records.get(r).fields[*field as usize];
                let (offset, ty) = (f.offset, f.ty.clone());
                if offset == 0 {
                    return Ok(Place::Mem(ptr, ty));
                }
                let mut b = self.b();
                let off = b.iconst(Type::I32, i64::from(offset));
                Ok(Place::Mem(b.ptr_add(ptr, off), ty))
            }
            _ => unsupported(e.loc, "this kind of lvalue"),
        }
    }

    /// The scalar parts of an aggregate (struct, union, array) in memory,
    /// in layout order: byte offset and IR type. A struct or array value is
    /// these parts' values (a copy `a = b` moves each); a union is copied
    /// as dwords (bytes where its size is not a multiple of 4), since its
    /// members overlap.
    pub(super) fn aggregate_leaves(
        &self,
        ty: &ft::Type,
        base: u32,
        loc: Loc,
        out: &mut Vec<(u32, Type)>,
    ) -> R<()> {
        match ty {
            ft::Type::Record(r) => {
                let rec = self.tu.records.get(*r);
                if rec.is_union {
                    let (t, step) = if rec.size % 4 == 0 && rec.align >= 4 {
                        (Type::I32, 4)
                    } else {
                        (Type::I8, 1)
                    };
                    for k in (0..rec.size).step_by(step) {
                        out.push((base + k, t));
                    }
                    return Ok(());
                }
                for f in &rec.fields {
                    self.aggregate_leaves(&f.ty, base + f.offset, loc, out)?;
                }
                Ok(())
            }
            ft::Type::Array(elem, n) => {
                let stride = self.tu.records.size_of(elem);
                if n.saturating_mul(stride) > 4096 {
                    return unsupported(loc, "copying an array of more than 4096 bytes");
                }
                for k in 0..*n {
                    self.aggregate_leaves(elem, base + k * stride, loc, out)?;
                }
                Ok(())
            }
            ft::Type::Vector(_, n) => {
                let t = self.ir_type(ty, loc)?;
                for i in 0..u32::from(*n) {
                    out.push((base + i * t.bytes(), t));
                }
                Ok(())
            }
            t => {
                out.push((base, self.ir_type(t, loc)?));
                Ok(())
            }
        }
    }

    fn mem_parts(&mut self, ptr: Value, ty: &ft::Type, loc: Loc) -> R<Vec<(Value, Type)>> {
        if matches!(ty, ft::Type::Record(_) | ft::Type::Array(..)) {
            let mut leaves = Vec::new();
            self.aggregate_leaves(ty, 0, loc, &mut leaves)?;
            let mut out = Vec::with_capacity(leaves.len());
            for (o, t) in leaves {
                let a = if o == 0 {
                    ptr
                } else {
                    let mut b = self.b();
                    let off = b.iconst(Type::I32, i64::from(o));
                    b.ptr_add(ptr, off)
                };
                out.push((a, t));
            }
            return Ok(out);
        }
        let t = self.ir_type(ty, loc)?;
        let n = ty.width().max(1) as u32;
        if ty.is_pointer() {
            // A pointer in memory: one 32- or 64-bit part.
            return Ok(vec![(ptr, t)]);
        }
        let mut out = vec![(ptr, t)];
        for i in 1..n {
            let mut b = self.b();
            let off = b.iconst(Type::I32, i64::from(i * t.bytes()));
            out.push((b.ptr_add(ptr, off), t));
        }
        Ok(out)
    }

    /// The `lanes` of a vector's values. `.hi`/`.odd` of a 3-component
    /// vector name its padding lane, whose value OpenCL leaves undefined
    /// (6.1.7): it reads as zero of the element type.
    fn pick_lanes(&mut self, all: &[Value], lanes: &[u8]) -> Vec<Value> {
        let mut out = Vec::with_capacity(lanes.len());
        for &l in lanes {
            out.push(match all.get(l as usize) {
                Some(&v) => v,
                None => {
                    let t = self.func.ty(all[0]);
                    if t.is_float() {
                        self.b().fconst(t, 0.0)
                    } else {
                        self.b().iconst(t, 0)
                    }
                }
            });
        }
        out
    }

    pub(super) fn read(&mut self, p: &Place, loc: Loc) -> R<Vec<Value>> {
        match p {
            Place::Var(k) => Ok(self.env[k].clone()),
            Place::Mem(ptr, ty) => {
                let parts = self.mem_parts(*ptr, ty, loc)?;
                let mut out = Vec::new();
                for (a, t) in parts {
                    out.push(match self.promoted_member(a, t, loc)? {
                        Some(k) => self.env[&k][0],
                        None => self.b().load(t, a),
                    });
                }
                Ok(out)
            }
            Place::Lanes(base, lanes) => {
                let all = self.read(base, loc)?;
                Ok(self.pick_lanes(&all, lanes))
            }
            Place::Lane(base, i, _) => {
                let all = self.read(base, loc)?;
                Ok(vec![self.select_lane(&all, *i)])
            }
        }
    }

    pub(super) fn write(&mut self, p: &Place, vals: &[Value], loc: Loc) -> R<()> {
        match p {
            Place::Var(k) => {
                self.env.insert(*k, vals.to_vec());
                Ok(())
            }
            Place::Mem(ptr, ty) => {
                if self.in_kernarg(*ptr) {
                    return unsupported(loc, "assigning to a struct kernel argument");
                }
                let parts = self.mem_parts(*ptr, ty, loc)?;
                for ((a, t), v) in parts.into_iter().zip(vals) {
                    match self.promoted_member(a, t, loc)? {
                        Some(k) => {
                            self.env.insert(k, vec![*v]);
                        }
                        None => self.b().store(a, *v),
                    }
                }
                Ok(())
            }
            Place::Lane(base, i, n) => {
                // Every component keeps its value but the indexed one.
                let mut all = self.read(base, loc)?;
                for (k, c) in all.iter_mut().enumerate().take(usize::from(*n)) {
                    let mut b = self.b();
                    let kk = b.iconst(Type::I32, k as i64);
                    let hit = b.icmp(IntCC::Eq, *i, kk);
                    *c = b.select(hit, vals[0], *c);
                }
                self.write(base, &all, loc)
            }
            Place::Lanes(base, lanes) => match &**base {
                Place::Mem(ptr, ty) => {
                    if self.in_kernarg(*ptr) {
                        return unsupported(loc, "assigning to a struct kernel argument");
                    }
                    let parts = self.mem_parts(*ptr, ty, loc)?;
                    for (&l, v) in lanes.iter().zip(vals) {
                        let (a, t) = parts[l as usize];
                        match self.promoted_member(a, t, loc)? {
                            Some(k) => {
                                self.env.insert(k, vec![*v]);
                            }
                            None => self.b().store(a, *v),
                        }
                    }
                    Ok(())
                }
                _ => {
                    let mut all = self.read(base, loc)?;
                    for (&l, v) in lanes.iter().zip(vals) {
                        all[l as usize] = *v;
                    }
                    self.write(base, &all, loc)
                }
            },
        }
    }

    /// True when `p` points into a struct kernel argument's bytes.
    fn in_kernarg(&self, mut p: Value) -> bool {
        loop {
            if self.arg_records.values().any(|&a| a == p) {
                return true;
            }
            match self.func.def_inst(p) {
                Some(InstKind::PtrAdd { base, .. }) => p = *base,
                _ => return false,
            }
        }
    }

    /// The value of `e` (its components); `()` for void.
    pub(super) fn rvalue(&mut self, e: &Expr) -> R<Vec<Value>> {
        let loc = e.loc;
        match &e.kind {
            ExprKind::IntConst(v) => {
                let t = self.ir_type(&e.ty, loc)?;
                let bits = if t == Type::I1 { *v & 1 } else { *v };
                Ok(vec![self.constant(t, bits)])
            }
            ExprKind::FloatConst(x) => match e.ty {
                ft::Type::Scalar(Scalar::Float) => Ok(vec![self.b().f32const(*x as f32)]),
                ft::Type::Scalar(Scalar::Double) => Ok(vec![self.b().f64const(*x)]),
                // `1.5h` (cl_khr_fp16): the literal rounded to half once.
                ft::Type::Scalar(Scalar::Half) => Ok(vec![self.b().fconst(Type::F16, *x)]),
                _ => unsupported(loc, "this floating constant"),
            },
            ExprKind::Var(_)
            | ExprKind::Global(_)
            | ExprKind::Deref(_)
            | ExprKind::Swizzle(..)
            | ExprKind::VecIndex(..)
            | ExprKind::Member(..)
                if e.is_lvalue() =>
            {
                let p = self.place(e)?;
                self.read(&p, loc)
            }
            ExprKind::Swizzle(base, lanes) => {
                let all = self.rvalue(base)?;
                Ok(self.pick_lanes(&all, lanes))
            }
            ExprKind::VecIndex(base, idx) => {
                let all = self.rvalue(base)?;
                if let ft::Type::Array(_, n) = base.ty {
                    // An element of an array value (`f(x).arr[i]`): each of
                    // the element's parts chosen among the n elements'.
                    let n = n as usize;
                    if n == 0 || all.len() % n != 0 {
                        return unsupported(loc, "subscripting this array value");
                    }
                    let m = all.len() / n;
                    if let ExprKind::IntConst(k) = idx.kind {
                        // Out of range is undefined; element 0 as below.
                        let k = usize::try_from(k).ok().filter(|&k| k < n).unwrap_or(0);
                        return Ok(all[k * m..(k + 1) * m].to_vec());
                    }
                    let i = self.rvalue(idx)?[0];
                    let mut out = Vec::with_capacity(m);
                    for j in 0..m {
                        let column: Vec<Value> = (0..n).map(|k| all[k * m + j]).collect();
                        out.push(self.select_lane(&column, i));
                    }
                    return Ok(out);
                }
                let i = self.rvalue(idx)?[0];
                Ok(vec![self.select_lane(&all, i)])
            }
            ExprKind::Unary(op, a) => self.unary(*op, a, &e.ty),
            ExprKind::Binary(B::LogAnd | B::LogOr, a, b) => {
                let and = matches!(&e.kind, ExprKind::Binary(B::LogAnd, ..));
                let ca = self.cond(a)?;
                let c = if speculatable(b) {
                    let cb = self.cond(b)?;
                    let op = if and { BinaryOp::And } else { BinaryOp::Or };
                    self.b().binary(op, ca, cb)
                } else {
                    let (rb, sb) = (self.func.create_block(), self.func.create_block());
                    if and {
                        self.b().brif(ca, rb, &[], sb, &[]);
                    } else {
                        self.b().brif(ca, sb, &[], rb, &[]);
                    }
                    let env0 = self.env.clone();
                    self.cur = rb;
                    let cb = self.cond(b)?;
                    let i1 = self.leave(vec![cb]);
                    self.cur = sb;
                    self.env = env0;
                    self.terminated = false;
                    let k = self.constant(Type::I1, u64::from(!and));
                    let i2 = self.leave(vec![k]);
                    self.join(vec![i1, i2])[0]
                };
                self.bool_to_value(c, &e.ty, loc)
            }
            ExprKind::Binary(op @ (B::Add | B::Sub), a, b) if self.contracts(e) => {
                // a * b + c → fma(a, b, c); c + a * b likewise; a * b - c →
                // fma(a, b, -c); c - a * b → fma(-a, b, c) (clang's choices:
                // the left multiply first).
                let mul_left = matches!(a.kind, ExprKind::Binary(B::Mul, ..));
                let (m, c) = if mul_left { (a, b) } else { (b, a) };
                let ExprKind::Binary(B::Mul, x, y) = &m.kind else {
                    unreachable!("contracts() checked the multiply")
                };
                let (mut vx, vy, mut vc) = (self.rvalue(x)?, self.rvalue(y)?, self.rvalue(c)?);
                if *op == B::Sub {
                    let negated = if mul_left { &mut vc } else { &mut vx };
                    *negated = negated.iter().map(|&v| self.fneg(v)).collect();
                }
                let t = self.func.ty(vx[0]);
                Ok((0..vx.len())
                    .map(|i| {
                        // Constant operands fold as clang's constant
                        // evaluator does: the product rounded, then the sum.
                        match self.fold_float(B::Mul, t, vx[i], vy[i]) {
                            Some(m) => self
                                .fold_float(B::Add, t, m, vc[i])
                                .unwrap_or_else(|| self.b().binary(BinaryOp::Fadd, m, vc[i])),
                            None => self.b().ternary(TernaryOp::Fma, vx[i], vy[i], vc[i]),
                        }
                    })
                    .collect())
            }
            ExprKind::Binary(op, a, b) => {
                let va = self.rvalue(a)?;
                let vb = self.rvalue(b)?;
                self.binary(*op, &a.ty, &va, &vb, &e.ty, loc)
            }
            ExprKind::PtrOffset(p, i) => {
                let base = self.rvalue(p)?[0];
                let elem = match p.ty.pointee() {
                    Some(pt) => self.tu.records.size_of(&pt.ty),
                    None => return unsupported(loc, "pointer arithmetic on a non-pointer"),
                };
                let idx = self.index32(i)?;
                let off = self.scaled_offset(base, idx, elem);
                Ok(vec![self.b().ptr_add(base, off)])
            }
            ExprKind::PtrDiff(a, b) => {
                // (a - b) / sizeof(*a) as a `long` (C: exact, the pointers
                // into one array), as clang's `sdiv exact`: a shift for a
                // power-of-two size.
                let elem = self
                    .tu
                    .records
                    .size_of(&a.ty.pointee().expect("pointer").ty)
                    .max(1);
                let (pa, pb) = (self.rvalue(a)?[0], self.rvalue(b)?[0]);
                let bits = self.func.ty(pa).bits();
                let mut bl = self.b();
                let ia = bl.convert(ConvertOp::Bitcast, pa, Type::int_of_bits(bits));
                let ib = bl.convert(ConvertOp::Bitcast, pb, Type::int_of_bits(bits));
                let mut d = bl.isub(ia, ib);
                if bits < 64 {
                    d = bl.convert(ConvertOp::Sext, d, Type::I64);
                }
                if elem == 1 {
                    return Ok(vec![d]);
                }
                if elem.is_power_of_two() {
                    let k = bl.iconst(Type::I64, i64::from(elem.trailing_zeros()));
                    return Ok(vec![bl.binary(BinaryOp::Ashr, d, k)]);
                }
                let k = bl.iconst(Type::I64, i64::from(elem));
                Ok(vec![self.sdivrem64(d, k).0])
            }
            ExprKind::Assign(l, r) => {
                let p = self.place(l)?;
                let v = self.rvalue(r)?;
                self.write(&p, &v, loc)?;
                Ok(v)
            }
            ExprKind::CompoundAssign {
                op,
                lhs,
                rhs,
                compute,
            } => {
                let p = self.place(lhs)?;
                let old = self.read(&p, loc)?;
                if let Some((x, y)) = self.compound_fma(*op, rhs, compute) {
                    let (mut vx, vy) = (self.rvalue(x)?, self.rvalue(y)?);
                    let oc = self.convert(&old, &lhs.ty, compute, loc)?;
                    if *op == B::Sub {
                        vx = vx
                            .iter()
                            .map(|&v| self.b().unary(UnaryOp::Fneg, v))
                            .collect();
                    }
                    let n: Vec<Value> = (0..vx.len())
                        .map(|i| self.b().ternary(TernaryOp::Fma, vx[i], vy[i], oc[i]))
                        .collect();
                    let new = self.convert(&n, compute, &lhs.ty, loc)?;
                    self.write(&p, &new, loc)?;
                    return Ok(new);
                }
                let r = self.rvalue(rhs)?;
                let new = if compute.is_pointer() {
                    let elem = self
                        .tu
                        .records
                        .size_of(&compute.pointee().expect("pointer").ty);
                    let idx = self.narrow_index(r[0], &rhs.ty, loc)?;
                    let mut off = self.scaled_offset(old[0], idx, elem);
                    let mut b = self.b();
                    if *op == B::Sub {
                        off = b.unary(UnaryOp::Ineg, off);
                    }
                    vec![b.ptr_add(old[0], off)]
                } else {
                    let oc = self.convert(&old, &lhs.ty, compute, loc)?;
                    let n = self.binary(*op, compute, &oc, &r, compute, loc)?;
                    self.convert(&n, compute, &lhs.ty, loc)?
                };
                self.write(&p, &new, loc)?;
                Ok(new)
            }
            ExprKind::IncDec {
                inc,
                prefix,
                operand,
            } => {
                let p = self.place(operand)?;
                let old = self.read(&p, loc)?;
                let ty = &operand.ty;
                let new = if ty.is_pointer() {
                    let elem = self.tu.records.size_of(&ty.pointee().expect("pointer").ty);
                    let step = if *inc { elem as i64 } else { -(elem as i64) };
                    let mut b = self.b();
                    let off = b.iconst(Type::I32, step);
                    vec![b.ptr_add(old[0], off)]
                } else {
                    let s = ty.elem_scalar().expect("arithmetic");
                    let t = super::scalar_type(s);
                    if t == Type::I1 {
                        return unsupported(loc, format!("++/-- on {}", s.name()));
                    }
                    let mut out = Vec::new();
                    for &v in &old {
                        out.push(self.step_one(v, t, s, *inc)?);
                    }
                    out
                };
                self.write(&p, &new, loc)?;
                Ok(if *prefix { new } else { old })
            }
            ExprKind::Cond { cond, then, els } => self.conditional(cond, then, els, loc),
            ExprKind::Cast(kind, a) => self.cast(*kind, a, &e.ty, loc),
            ExprKind::AddrOf(inner) => match &inner.kind {
                ExprKind::Deref(p) => self.rvalue(p),
                // A `__local` or private variable has an address, and so
                // has a member of a struct in memory.
                ExprKind::Var(_) | ExprKind::Member(..) | ExprKind::Global(_) => {
                    match self.place(inner)? {
                        Place::Mem(p, _) => Ok(vec![p]),
                        _ => unsupported(loc, "taking the address of a variable"),
                    }
                }
                _ => unsupported(loc, "taking the address of a variable"),
            },
            ExprKind::Member(base, field) => {
                // A member of a struct value (`make(x).a`): its parts
                // among the struct's.
                let ft::Type::Record(r) = base.ty else {
                    return unsupported(loc, "members of a struct value");
                };
                let all = self.rvalue(base)?;
                let f = &self.tu.records.get(r).fields[*field as usize];
                let mut leaves = Vec::new();
                self.aggregate_leaves(&base.ty, 0, loc, &mut leaves)?;
                let mut mine = Vec::new();
                self.aggregate_leaves(&f.ty, f.offset, loc, &mut mine)?;
                let Some(start) = mine
                    .first()
                    .and_then(|m| leaves.iter().position(|l| l == m))
                else {
                    // A union value is its dwords (or bytes): the member's
                    // parts are reassembled from the bits that hold them.
                    return self.reinterpret_leaves(&all, &leaves, &mine, loc);
                };
                Ok(all[start..start + mine.len()].to_vec())
            }
            ExprKind::VectorLiteral(parts) => {
                let mut out = Vec::new();
                for p in parts {
                    out.extend(self.rvalue(p)?);
                }
                Ok(out)
            }
            ExprKind::Call(fid, args) => {
                let name = self.tu.functions[fid.0 as usize].name.as_str();
                let query = match name {
                    "gs_local_size" => Some(WorkItemQuery::LocalSize),
                    "gs_global_size" => Some(WorkItemQuery::GlobalSize),
                    _ => None,
                };
                let mut vals = Vec::new();
                for a in args {
                    vals.push(self.rvalue(a)?);
                }
                if let Some(q) = query {
                    return self.work_item(q, vals[0][0], loc);
                }
                self.inline_call(*fid, vals, loc)
            }
            ExprKind::Builtin(bi, args) => self.builtin(*bi, args, &e.ty, loc),
            ExprKind::Comma(a, b) => {
                self.rvalue(a)?;
                self.rvalue(b)
            }
            _ => unsupported(loc, "this expression"),
        }
    }

    /// The values of parts `want` (offset, type) read from the bits of an
    /// aggregate value whose parts `have` (equal-sized integers: a union's
    /// dwords or bytes) are `vals`, little-endian.
    fn reinterpret_leaves(
        &mut self,
        vals: &[Value],
        have: &[(u32, Type)],
        want: &[(u32, Type)],
        loc: Loc,
    ) -> R<Vec<Value>> {
        let Some(&(_, ht)) = have.first() else {
            return unsupported(loc, "a member of an empty union");
        };
        let w = ht.bytes();
        let mut out = Vec::with_capacity(want.len());
        for &(off, t) in want {
            if t == Type::I1 || have.iter().any(|&(_, h)| h != ht) {
                return unsupported(loc, "this member of a union value");
            }
            let bits = t.bits();
            let wide = if bits > 32 { Type::I64 } else { Type::I32 };
            let mut acc: Option<Value> = None;
            // The parts overlapping [off, off + size), shifted into place.
            for (k, &(ho, _)) in have.iter().enumerate() {
                if ho + w <= off || ho >= off + t.bytes() {
                    continue;
                }
                let mut b = self.b();
                let mut v = vals[k];
                if ht != wide {
                    v = b.convert(ConvertOp::Zext, v, wide);
                }
                let part = if ho >= off {
                    let sh = b.iconst(wide, i64::from((ho - off) * 8));
                    b.binary(BinaryOp::Shl, v, sh)
                } else {
                    let sh = b.iconst(wide, i64::from((off - ho) * 8));
                    b.binary(BinaryOp::Lshr, v, sh)
                };
                acc = Some(match acc {
                    None => part,
                    Some(a) => b.binary(BinaryOp::Or, a, part),
                });
            }
            let Some(mut v) = acc else {
                return unsupported(loc, "a member of a union value");
            };
            let int_t = Type::int_of_bits(bits);
            let mut b = self.b();
            if int_t != wide {
                v = b.convert(ConvertOp::Trunc, v, int_t);
            }
            if t != int_t {
                v = b.convert(ConvertOp::Bitcast, v, t);
            }
            out.push(v);
        }
        Ok(out)
    }

    /// Component `i` (a run-time `i32`) of the vector `all`: a chain of
    /// selects (out of range, undefined in OpenCL, gives component 0).
    fn select_lane(&mut self, all: &[Value], i: Value) -> Value {
        let mut r = all[0];
        for (k, &c) in all.iter().enumerate().skip(1) {
            let mut b = self.b();
            let kk = b.iconst(Type::I32, k as i64);
            let hit = b.icmp(IntCC::Eq, i, kk);
            r = b.select(hit, c, r);
        }
        r
    }

    /// `e` is `a * b + c` (either order) or `a * b - c` on `float`s and
    /// the options and the function's FP_CONTRACT let it fuse.
    fn contracts(&self, e: &Expr) -> bool {
        let ExprKind::Binary(_, a, b) = &e.kind else {
            return false;
        };
        let is_mul = |x: &Expr| matches!(x.kind, ExprKind::Binary(B::Mul, ..));
        self.contraction_on()
            && matches!(
                e.ty.elem_scalar(),
                Some(Scalar::Half | Scalar::Float | Scalar::Double)
            )
            && (is_mul(a) || is_mul(b))
    }

    /// The options and the function's FP_CONTRACT allow fusing.
    fn contraction_on(&self) -> bool {
        match self.opts.fp_contract {
            super::FpContract::Off => false,
            super::FpContract::On => self.tfunc().fp_contract,
            super::FpContract::Fast => true,
        }
    }

    /// `lhs += x * y` / `lhs -= x * y` computed in `compute` (a float
    /// type) fuses like `lhs = lhs + x * y` (clang contracts compound
    /// assignments too): the multiply's operands.
    fn compound_fma<'e>(
        &self,
        op: B,
        rhs: &'e Expr,
        compute: &ft::Type,
    ) -> Option<(&'e Expr, &'e Expr)> {
        match &rhs.kind {
            ExprKind::Binary(B::Mul, x, y)
                if matches!(op, B::Add | B::Sub)
                    && self.contraction_on()
                    && rhs.ty == *compute
                    && matches!(
                        compute.elem_scalar(),
                        Some(Scalar::Half | Scalar::Float | Scalar::Double)
                    ) =>
            {
                Some((x, y))
            }
            _ => None,
        }
    }

    /// A `long` index as an `i32` (sign-extended by `ptr_add`): an index
    /// widened from 32 bits is used before the widening.
    fn index32(&mut self, i: &Expr) -> R<Value> {
        if let ExprKind::Cast(CastKind::IntToInt, inner) = &i.kind {
            if inner.ty.elem_scalar().is_some_and(|s| s.size() <= 4) {
                let v = self.rvalue(inner)?;
                return self
                    .convert(&v, &inner.ty, &ft::Type::INT, i.loc)
                    .map(|v| v[0]);
            }
        }
        if let ExprKind::IntConst(k) = i.kind {
            return Ok(self.b().iconst(Type::I32, k as i64));
        }
        let v = self.rvalue(i)?[0];
        self.narrow_index(v, &i.ty, i.loc)
    }

    pub(super) fn narrow_index(&mut self, v: Value, _ty: &ft::Type, loc: Loc) -> R<Value> {
        // A sign-extended `int` is the `int`; a widened work-item query
        // (`size_t` ids and sizes) is below 2^31, so the same holds.
        let narrow = match self.func.def_inst(v) {
            Some(InstKind::Convert {
                op: ConvertOp::Sext,
                arg,
                ..
            }) if self.func.ty(*arg) == Type::I32 => Some(*arg),
            Some(InstKind::Convert {
                op: ConvertOp::Zext,
                arg,
                ..
            }) if matches!(self.func.def_inst(*arg), Some(InstKind::WorkItem { .. })) => Some(*arg),
            _ => None,
        };
        let _ = loc;
        match self.func.ty(v) {
            Type::I32 => Ok(v),
            _ if narrow.is_some() => Ok(narrow.expect("checked")),
            _ => match self.func.iconst_value(v) {
                Some(k) if i32::try_from(k).is_ok() => Ok(self.b().iconst(Type::I32, k)),
                // A genuinely 64-bit index (a `size_t` live across a loop,
                // a `long` product): the offset stays 64-bit.
                _ => Ok(v),
            },
        }
    }

    /// `idx * elem` bytes as an offset for `base`: 32-bit for an `i32`
    /// index; a 64-bit index is scaled in 64 bits for a 64-bit pointer
    /// (a shift for a power of two, as clang does) and truncated for a
    /// 32-bit (LDS or private) one.
    pub(super) fn scaled_offset(&mut self, base: Value, idx: Value, elem: u32) -> Value {
        let ptr_bits = self.func.ty(base).bits();
        let mut b = self.b();
        let idx = if b.func.ty(idx) == Type::I64 && ptr_bits == 32 {
            b.convert(ConvertOp::Trunc, idx, Type::I32)
        } else {
            idx
        };
        let t = b.func.ty(idx);
        if t == Type::I64 && elem.is_power_of_two() {
            if elem == 1 {
                return idx;
            }
            let sh = b.iconst(Type::I64, i64::from(elem.trailing_zeros()));
            return b.shl(idx, sh);
        }
        let size = b.iconst(t, i64::from(elem));
        b.imul(idx, size)
    }

    /// `i1` → the expression's type (`int` 0/1, or a vector's -1/0).
    pub(super) fn bool_to_value(&mut self, c: Value, ty: &ft::Type, loc: Loc) -> R<Vec<Value>> {
        let t = self.ir_type(ty, loc)?;
        if t == Type::I1 {
            return Ok(vec![c]);
        }
        let one = if ty.is_vector() { -1 } else { 1 };
        let mut b = self.b();
        let (o, z) = (b.iconst(t, one), b.iconst(t, 0));
        Ok(vec![b.select(c, o, z)])
    }

    fn unary(&mut self, op: U, a: &Expr, ty: &ft::Type) -> R<Vec<Value>> {
        let loc = a.loc;
        let va = self.rvalue(a)?;
        let s = ty.elem_scalar().expect("arithmetic");
        let mut out = Vec::new();
        for v in va {
            let vt = self.func.ty(v);
            let narrow = matches!(vt, Type::I8 | Type::I16);
            let r = match op {
                U::Neg if narrow => {
                    let z = self.b().iconst(vt, 0);
                    self.narrow_binary(B::Sub, s, z, v, loc)?
                }
                U::BitNot if narrow => {
                    let m = self.b().iconst(vt, -1);
                    self.narrow_binary(B::BitXor, s, v, m, loc)?
                }
                U::Neg if s.is_float() => self.b().unary(UnaryOp::Fneg, v),
                U::Neg => self.b().unary(UnaryOp::Ineg, v),
                U::BitNot => self.b().unary(UnaryOp::Not, v),
                U::LogNot => {
                    let c = if vt == Type::I1 {
                        self.b().unary(UnaryOp::Not, v)
                    } else if vt.is_ptr() {
                        let mut b = self.b();
                        let n = b.iconst(Type::int_of_bits(vt.bits()), 0);
                        let n = b.convert(ConvertOp::Bitcast, n, vt);
                        b.icmp(IntCC::Eq, v, n)
                    } else if vt.is_float() {
                        let mut b = self.b();
                        let z = b.fconst(vt, 0.0);
                        b.fcmp(FloatCC::Oeq, v, z)
                    } else {
                        let mut b = self.b();
                        let z = b.iconst(vt, 0);
                        b.icmp(IntCC::Eq, v, z)
                    };
                    let one = if ty.is_vector() { -1 } else { 1 };
                    let t = super::scalar_type(s);
                    let mut b = self.b();
                    let (o, z) = (b.iconst(t, one), b.iconst(t, 0));
                    b.select(c, o, z)
                }
            };
            out.push(r);
        }
        Ok(out)
    }

    /// `a op b` per component; `ty` is the operands' type, `rty` the result's.
    fn binary(
        &mut self,
        op: B,
        ty: &ft::Type,
        va: &[Value],
        vb: &[Value],
        rty: &ft::Type,
        loc: Loc,
    ) -> R<Vec<Value>> {
        let Some(s) = ty.elem_scalar() else {
            // Pointer comparisons: unsigned, on the address.
            let cc = match op {
                B::Eq => IntCC::Eq,
                B::Ne => IntCC::Ne,
                B::Lt => IntCC::Ult,
                B::Le => IntCC::Ule,
                B::Gt => IntCC::Ugt,
                B::Ge => IntCC::Uge,
                _ => return unsupported(loc, format!("`{}` on pointers", op.text())),
            };
            let mut out = Vec::new();
            for (&a, &b) in va.iter().zip(vb) {
                if self.func.ty(a) != self.func.ty(b) {
                    return unsupported(loc, "comparing pointers to different address spaces");
                }
                let c = self.b().icmp(cc, a, b);
                out.extend(self.bool_to_value(c, &ft::Type::INT, loc)?);
            }
            return Ok(out);
        };
        let t = super::scalar_type(s);
        let is_cmp = matches!(op, B::Lt | B::Gt | B::Le | B::Ge | B::Eq | B::Ne);
        // 64-bit integers reach the IR; the back end takes the operations it
        // has (and `trunc(lshr(imul(zext a, zext b), 32))` becomes `umul_hi`).
        if !is_cmp && matches!(t, Type::I8 | Type::I16) {
            let mut out = Vec::new();
            for (&a, &b) in va.iter().zip(vb) {
                out.push(self.narrow_binary(op, s, a, b, loc)?);
            }
            return Ok(out);
        }
        if !is_cmp
            && !matches!(
                t,
                Type::I32 | Type::F16 | Type::F32 | Type::F64 | Type::I1 | Type::I64
            )
        {
            return unsupported(loc, format!("arithmetic on {}", s.name()));
        }
        let mut out = Vec::new();
        for (&a, &b) in va.iter().zip(vb) {
            if is_cmp {
                let c = self.compare(op, s, a, b);
                let elem_rty = if rty.is_vector() {
                    rty.clone()
                } else {
                    ft::Type::INT
                };
                out.extend(self.bool_to_value(c, &elem_rty, loc)?);
                continue;
            }
            if let Some(k) = self.fold_float(op, t, a, b) {
                out.push(k);
                continue;
            }
            if let Some(k) = self.absorb_fneg(op, a, b) {
                out.push(k);
                continue;
            }
            let irop = if s.is_float() {
                match op {
                    B::Add => BinaryOp::Fadd,
                    B::Sub => BinaryOp::Fsub,
                    B::Mul => BinaryOp::Fmul,
                    B::Div if t == Type::F32 => {
                        out.push(self.fdiv(a, b));
                        continue;
                    }
                    // Double division is always correctly rounded (clang's
                    // `fdiv double` expansion in the back end); half
                    // division is clang's f32-reciprocal sequence there.
                    B::Div => BinaryOp::Fdiv,
                    _ => return unsupported(loc, format!("`{}` on floats", op.text())),
                }
            } else {
                let signed = s.is_signed();
                if t == Type::I64 && matches!(op, B::Div | B::Rem) {
                    let (q, r) = if signed {
                        self.sdivrem64(a, b)
                    } else {
                        self.udivrem64(a, b)
                    };
                    out.push(if op == B::Div { q } else { r });
                    continue;
                }
                match int_binary_op(op, signed) {
                    Some(irop) => irop,
                    None => return unsupported(loc, format!("`{}` here", op.text())),
                }
            };
            out.push(self.b().binary(irop, a, b));
        }
        Ok(out)
    }

    /// `a op b` for a comparison operator, as an `i1`.
    fn compare(&mut self, op: B, s: Scalar, a: Value, b: Value) -> Value {
        let t = super::scalar_type(s);
        if s.is_float() {
            let (cc, swap) = match op {
                B::Lt => (FloatCC::Olt, false),
                B::Gt => (FloatCC::Ogt, false),
                B::Le => (FloatCC::Ole, false),
                B::Ge => (FloatCC::Oge, false),
                B::Eq => (FloatCC::Oeq, false),
                _ => (FloatCC::Une, false),
            };
            let (x, y) = if swap { (b, a) } else { (a, b) };
            self.b().fcmp(cc, x, y)
        } else {
            let signed = s.is_signed();
            let cc = match (op, signed) {
                (B::Lt, true) => IntCC::Slt,
                (B::Lt, false) => IntCC::Ult,
                (B::Gt, true) => IntCC::Sgt,
                (B::Gt, false) => IntCC::Ugt,
                (B::Le, true) => IntCC::Sle,
                (B::Le, false) => IntCC::Ule,
                (B::Ge, true) => IntCC::Sge,
                (B::Ge, false) => IntCC::Uge,
                (B::Eq, _) => IntCC::Eq,
                _ => IntCC::Ne,
            };
            match (self.func.iconst_value(a), self.func.iconst_value(b)) {
                // Folded: an inlined helper's `d == 0` on a constant `d`.
                (Some(x), Some(y)) if t == Type::I32 => {
                    let r = cc.eval32(x as u32, y as u32);
                    self.b().iconst(Type::I1, i64::from(r))
                }
                // `char`/`short` components (vector compares) live in the
                // low bits of 32-bit registers: compare them extended.
                _ if matches!(t, Type::I8 | Type::I16) => {
                    let (x, y) = (self.widen32(a, signed), self.widen32(b, signed));
                    self.b().icmp(cc, x, y)
                }
                _ => self.b().icmp(cc, a, b),
            }
        }
    }

    /// A comparison (or a vector comparison) used as a condition or mask:
    /// its `i1`s directly, without the int 0/1 (-1/0) round trip.
    pub(super) fn compare_as_bool(&mut self, e: &Expr) -> R<Option<Vec<Value>>> {
        let ExprKind::Binary(op, a, b) = &e.kind else {
            return Ok(None);
        };
        if !matches!(op, B::Lt | B::Gt | B::Le | B::Ge | B::Eq | B::Ne) {
            return Ok(None);
        }
        let Some(s) = a.ty.elem_scalar() else {
            return Ok(None);
        };
        let va = self.rvalue(a)?;
        let vb = self.rvalue(b)?;
        Ok(Some(
            va.iter()
                .zip(&vb)
                .map(|(&x, &y)| self.compare(*op, s, x, y))
                .collect(),
        ))
    }

    fn conditional(&mut self, cond: &Expr, then: &Expr, els: &Expr, loc: Loc) -> R<Vec<Value>> {
        if cond.ty.is_vector() {
            // Component-wise: both arms, one select per component (seed 004).
            let m = self.rvalue(cond)?;
            let t = self.rvalue(then)?;
            let f = self.rvalue(els)?;
            let mut out = Vec::new();
            for i in 0..t.len() {
                out.push(self.b().select(m[i], t[i], f[i]));
            }
            return Ok(out);
        }
        let c = self.cond(cond)?;
        if let Some(k) = self.func.iconst_value(c) {
            return self.rvalue(if k != 0 { then } else { els });
        }
        if speculatable(then) && speculatable(els) {
            let t = self.rvalue(then)?;
            let f = self.rvalue(els)?;
            let mut out = Vec::new();
            for i in 0..t.len() {
                out.push(self.b().select(c, t[i], f[i]));
            }
            return Ok(out);
        }
        let _ = loc;
        let (tb, eb) = (self.func.create_block(), self.func.create_block());
        self.b().brif(c, tb, &[], eb, &[]);
        let env0 = self.env.clone();
        self.cur = tb;
        let t = self.rvalue(then)?;
        let i1 = self.leave(t);
        self.cur = eb;
        self.env = env0;
        self.terminated = false;
        let f = self.rvalue(els)?;
        let i2 = self.leave(f);
        Ok(self.join(vec![i1, i2]))
    }
}

/// True when `e` may be evaluated in lanes (or cases) that do not want its
/// value: no memory access, no side effect, no division (which may fault
/// or be undefined), no call.
pub(super) fn speculatable(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::IntConst(_) | ExprKind::FloatConst(_) => true,
        ExprKind::Var(_) => true,
        ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => speculatable(a),
        ExprKind::Swizzle(a, _) => speculatable(a),
        ExprKind::VecIndex(a, i) => speculatable(a) && speculatable(i),
        ExprKind::Binary(op, a, b) => {
            !matches!(op, B::Div | B::Rem) && speculatable(a) && speculatable(b)
        }
        ExprKind::Cond { cond, then, els } => {
            speculatable(cond) && speculatable(then) && speculatable(els)
        }
        ExprKind::VectorLiteral(parts) => parts.iter().all(speculatable),
        ExprKind::Builtin(bi, args) => {
            matches!(bi, FB::Fabs | FB::Fmin | FB::Fmax | FB::Min | FB::Max)
                && args.iter().all(speculatable)
        }
        _ => false,
    }
}

/// The IR operation of integer operator `op` on `signed` or unsigned
/// operands (`None`: not an arithmetic or bitwise operator).
pub(super) fn int_binary_op(op: B, signed: bool) -> Option<BinaryOp> {
    Some(match op {
        B::Add => BinaryOp::Iadd,
        B::Sub => BinaryOp::Isub,
        B::Mul => BinaryOp::Imul,
        B::Div if signed => BinaryOp::Sdiv,
        B::Div => BinaryOp::Udiv,
        B::Rem if signed => BinaryOp::Srem,
        B::Rem => BinaryOp::Urem,
        B::Shl => BinaryOp::Shl,
        B::Shr if signed => BinaryOp::Ashr,
        B::Shr => BinaryOp::Lshr,
        B::BitAnd => BinaryOp::And,
        B::BitOr => BinaryOp::Or,
        B::BitXor => BinaryOp::Xor,
        _ => return None,
    })
}
