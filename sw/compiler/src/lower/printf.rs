//! `printf` lowering (`docs/driver.md` "printf" describes the buffer):
//!
//! ```text
//! buf  = the hidden printf-buffer argument (a `ParamKind::PrintfBuffer` parameter)
//! size = buf[1]                                  // the buffer's whole size
//! old  = atomic_add(&buf[0], N)                  // N = 4 + Σ sizes
//! if (8 + old + N <= size) {                     // fits
//!     store ID, the operands, the work-item tag at buf + 8 + old
//! } else {
//!     atomic_add((uint *)(buf + size), 1)         // gpusim's lost-record counter
//! }
//! ```
//!
//! An atomic add rather than ockl's compare-and-swap loop: one atomic per
//! lane and no loop; `used` may pass the size, which tells the driver that
//! records were lost, and the counter says how many. The tag is the
//! work-group's linear id and the work-item's local linear id, so the driver
//! prints in work-item order.

use super::{Lowerer, R};
use crate::front::diag::Loc;
use crate::front::tast::Expr;
use crate::front::types::{Scalar, Type as FType};
use crate::ir::{AddrSpace, AtomicOp, ConvertOp, IntCC, Type, Value, WorkItemQuery};

impl Lowerer<'_> {
    /// `printf` with `amdhsa.printf` entry `id` and the operands sema built.
    pub(super) fn printf(&mut self, id: u32, args: &[Expr], _loc: Loc) -> R<Vec<Value>> {
        // The entry travels with the kernel to the code object.
        let entry = self.tu.printf[id as usize - 1].clone();
        if !self.func.printf.contains(&entry) {
            self.func.printf.push(entry);
        }
        // Operands: each component with its storage type.
        let mut stores: Vec<(Value, u32)> = Vec::new();
        let mut bytes = 4u32;
        for a in args {
            let vals = self.rvalue(a)?;
            let (scalar, slots) = match &a.ty {
                FType::Vector(s, n) => (*s, if *n == 3 { 4 } else { u32::from(*n) }),
                FType::Scalar(s) => (*s, 1),
                _ => (Scalar::ULong, 1),
            };
            let elem = scalar.size();
            for (k, v) in vals.into_iter().enumerate() {
                let want = super::scalar_type(scalar);
                let v = if self.func.ty(v) != want && want.is_int() && self.func.ty(v).is_int() {
                    self.b().convert(ConvertOp::Trunc, v, want)
                } else {
                    v
                };
                stores.push((v, bytes + k as u32 * elem));
            }
            bytes += elem * slots;
        }
        let tag_at = bytes;
        bytes += 8;

        let buf = self.printf_buffer();
        let mut b = self.b();
        let four = b.iconst(Type::I64, 4);
        let size_addr = b.ptr_add(buf, four);
        let size = b.load(Type::I32, size_addr);
        let n = b.iconst(Type::I32, i64::from(bytes));
        let old = b.atomic(AtomicOp::Add, buf, n);
        let end_n = b.iconst(Type::I32, i64::from(bytes) + 8);
        let end = b.iadd(old, end_n);
        // `old` may be near 2^32 only after 4 GiB of records: the buffer is
        // at most 1 GiB, so the sum cannot wrap below `size` unnoticed.
        let fits = b.icmp(IntCC::Ule, end, size);
        let (yes, no) = (self.func.create_block(), self.func.create_block());
        self.b().brif(fits, yes, &[], no, &[]);
        let env0 = self.env.clone();

        self.cur = yes;
        let mut b = self.b();
        let old64 = b.convert(ConvertOp::Zext, old, Type::I64);
        let eight = b.iconst(Type::I64, 8);
        let off = b.iadd(old64, eight);
        let rec = b.ptr_add(buf, off);
        let idv = b.iconst(Type::I32, i64::from(id));
        b.store(rec, idv);
        for (v, at) in stores {
            let mut b = self.b();
            let o = b.iconst(Type::I64, i64::from(at));
            let p = b.ptr_add(rec, o);
            b.store(p, v);
        }
        let (group, item) = self.linear_ids();
        let mut b = self.b();
        let o = b.iconst(Type::I64, i64::from(tag_at));
        let p = b.ptr_add(rec, o);
        b.store(p, group);
        let o = b.iconst(Type::I64, i64::from(tag_at) + 4);
        let p = b.ptr_add(rec, o);
        b.store(p, item);
        let fit_edge = self.leave(Vec::new());

        self.cur = no;
        self.env = env0;
        self.terminated = false;
        let mut b = self.b();
        let size64 = b.convert(ConvertOp::Zext, size, Type::I64);
        let counter = b.ptr_add(buf, size64);
        let one = b.iconst(Type::I32, 1);
        b.atomic(AtomicOp::Add, counter, one);
        let lost_edge = self.leave(Vec::new());
        self.join(vec![fit_edge, lost_edge]);
        Ok(vec![self.b().iconst(Type::I32, 0)])
    }

    /// The printf buffer pointer: the kernel's hidden parameter, added the
    /// first time a `printf` is lowered.
    fn printf_buffer(&mut self) -> Value {
        let index = match self.func.printf_param() {
            Some(i) => i,
            None => self.func.add_printf_param(),
        };
        let v = self.b().kernel_arg(index);
        debug_assert_eq!(self.func.ty(v), Type::Ptr(AddrSpace::Global));
        v
    }

    /// (work-group linear id, local linear id) as `i32`s.
    fn linear_ids(&mut self) -> (Value, Value) {
        let mut b = self.b();
        let lid: Vec<Value> = (0..3)
            .map(|d| b.work_item(WorkItemQuery::LocalId, d))
            .collect();
        let lsz: Vec<Value> = (0..3)
            .map(|d| b.work_item(WorkItemQuery::LocalSize, d))
            .collect();
        let gid: Vec<Value> = (0..3)
            .map(|d| b.work_item(WorkItemQuery::GroupId, d))
            .collect();
        let ng: Vec<Value> = (0..3)
            .map(|d| b.work_item(WorkItemQuery::NumGroups, d))
            .collect();
        let lin = |b: &mut crate::ir::Builder<'_>, id: &[Value], sz: &[Value]| {
            let t = b.imul(id[2], sz[1]);
            let t = b.iadd(t, id[1]);
            let t = b.imul(t, sz[0]);
            b.iadd(t, id[0])
        };
        let item = lin(&mut b, &lid, &lsz);
        let group = lin(&mut b, &gid, &ng);
        (group, item)
    }
}
