//! Native code for the lowered vector forms (`exec::lowered`): host SIMD over
//! groups of four lanes (`i32x4`), each group's result merged into the
//! destination under its four EXEC bits. Every lane function reads only its
//! own lane, so a group may be written as soon as it is computed, as the
//! lowered path's "compute every lane, then write" does.
//!
//! Floating point: the host's IEEE operation where its bits provably equal
//! the interpreter's (the lowered path's own `Checks`: nearest-even, no
//! denormal that MODE flushes, no NaN result); a group where any EXEC lane
//! fails the check is recomputed by the interpreter's lane function
//! ([`super::helpers::lane4`]). Operations without a host instruction of the
//! same bits call that function for every group.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32X4, I32, I32X4, I64, I64X2, I8X16};
use cranelift_codegen::ir::{ConstantData, Endianness, InstBuilder, MemFlags, Value};

use super::{arity, Emit};
use crate::exec::lowered::{Carry, Lowered, Op, Src};
use crate::exec::vop::vopc::Ty32;
use crate::fp::{Mode, Round};
use crate::jit::helpers;

/// One group of four lanes inside a [`Emit::for_groups`] loop: the address
/// of its lane 0 in VGPR 0, and its first lane (`4 g`) as a shift for masks.
#[derive(Clone, Copy)]
struct Gi {
    base: Value,
    shift: Value,
}

/// A source of a vector instruction: a VGPR, or a wave-uniform value (the
/// scalar and its broadcast).
#[derive(Clone, Copy)]
enum V {
    Reg(u16),
    Uni(Value, Value),
}

impl Emit<'_> {
    /// Lane bit masks of a group, for expanding four mask bits.
    fn lane_bits(&mut self) -> Value {
        self.vconst([1, 2, 4, 8])
    }

    /// The four bits of `mask` (I64) for group `g` as an `i32x4` of all-ones
    /// or zero lanes.
    fn expand(&mut self, mask: Value, g: Gi) -> Value {
        let t = self.b.ins().ushr(mask, g.shift);
        let t = self.b.ins().band_imm(t, 15);
        let t = self.b.ins().ireduce(I32, t);
        let v = self.b.ins().splat(I32X4, t);
        let bits = self.lane_bits();
        let v = self.b.ins().band(v, bits);
        self.b.ins().icmp(IntCC::Equal, v, bits)
    }

    /// The lanes of an `i32x4` mask as bits `4g..4g+4` of an I64.
    fn collect(&mut self, m: Value, g: Gi) -> Value {
        let bits = self.b.ins().vhigh_bits(I32, m);
        let bits = self.b.ins().uextend(I64, bits);
        self.b.ins().ishl(bits, g.shift)
    }

    fn vflags(&self) -> MemFlags {
        MemFlags::trusted()
    }

    /// Byte offset of VGPR `n` from its lane 0.
    fn voff(n: u16) -> i32 {
        i32::from(n) * 64 * 4
    }

    fn vload(&mut self, n: u16, g: Gi) -> Value {
        let fl = self.vflags();
        self.b.ins().load(I32X4, fl, g.base, Self::voff(n))
    }

    fn vstore(&mut self, n: u16, g: Gi, v: Value) {
        let fl = self.vflags();
        self.b.ins().store(fl, v, g.base, Self::voff(n));
    }

    /// Emits `body` once, as a loop over the wave's groups of four lanes
    /// (8 or 16 passes): one copy of the IR per instruction instead of one
    /// per group keeps compile time (which grew faster than linearly with
    /// block size: 0.3 s for a 64-instruction wave64 block unrolled) small.
    /// `acc` is an optional I64 carried from pass to pass (a lane mask being
    /// collected); its final value is returned.
    fn for_groups(
        &mut self,
        acc: Option<Value>,
        mut body: impl FnMut(&mut Self, Gi, Option<Value>) -> Option<Value>,
    ) -> Option<Value> {
        let (head, exit) = (self.b.create_block(), self.b.create_block());
        let g = self.b.append_block_param(head, I64);
        let carried = acc.map(|_| self.b.append_block_param(head, I64));
        let out = acc.map(|_| self.b.append_block_param(exit, I64));
        let zero = self.b.ins().iconst(I64, 0);
        let mut args = vec![zero];
        args.extend(acc);
        self.b.ins().jump(head, &args);
        self.b.switch_to_block(head);
        let off = self.b.ins().ishl_imm(g, 4);
        let off = if self.ptr == I64 {
            off
        } else {
            self.b.ins().ireduce(self.ptr, off)
        };
        let base = self.b.ins().iadd(self.vgpr, off);
        let shift = self.b.ins().ishl_imm(g, 2);
        let new = body(self, Gi { base, shift }, carried);
        let next = self.b.ins().iadd_imm(g, 1);
        let groups = i64::from(self.groups());
        let more = self.b.ins().icmp_imm(IntCC::UnsignedLessThan, next, groups);
        let mut again = vec![next];
        again.extend(new);
        let done: Vec<Value> = new.into_iter().collect();
        self.b.ins().brif(more, head, &again, exit, &done);
        self.b.switch_to_block(exit);
        out
    }

    fn src(&mut self, s: &Src) -> V {
        let x = match *s {
            Src::Vgpr(n) => return V::Reg(n),
            Src::Sgpr(i) => self.sload(u16::from(i)),
            Src::Imm(v) => self.b.ins().iconst(I32, i64::from(v)),
            // Excluded by the plan.
            Src::Scalar(_) => self.b.ins().iconst(I32, 0),
        };
        let v = self.b.ins().splat(I32X4, x);
        V::Uni(x, v)
    }

    fn group(&mut self, s: V, g: Gi) -> Value {
        match s {
            V::Reg(n) => self.vload(n, g),
            V::Uni(_, v) => v,
        }
    }

    fn groups(&self) -> u32 {
        if self.wave64 {
            16
        } else {
            8
        }
    }

    /// `dst[g] = m ? r : dst[g]`.
    fn merge(&mut self, d: u16, g: Gi, m: Value, r: Value) {
        let old = self.vload(d, g);
        let new = self.b.ins().bitselect(m, r, old);
        self.vstore(d, g, new);
    }

    /// A lowered vector instruction; `op` is its `Map` operation's slot in
    /// the block's lane-operation table.
    pub(super) fn valu(&mut self, l: &Lowered, op: &Op) {
        match *l {
            Lowered::Map { op: o, d, ref s } => {
                let exec = self.exec();
                let n = arity(o);
                let srcs: Vec<V> = s[..n].iter().map(|x| self.src(x)).collect();
                self.for_groups(None, |e, g, _| {
                    let m = e.expand(exec, g);
                    let v: Vec<Value> = srcs.iter().map(|&x| e.group(x, g)).collect();
                    let r = e.map(o, op, &srcs, &v, m);
                    e.merge(d, g, m, r);
                    None
                });
            }
            Lowered::Carry {
                kind,
                d,
                ref a,
                ref b,
                ref cin,
                ref cout,
            } => {
                let cin = match cin {
                    Some(op) => self.read_mask(op),
                    None => self.b.ins().iconst(I64, 0),
                };
                let exec = self.exec();
                let (a, b) = (self.src(a), self.src(b));
                let one = self.vconst([1; 4]);
                let carry0 = self.b.ins().iconst(I64, 0);
                let carry = self.for_groups(Some(carry0), |e, g, carry| {
                    let m = e.expand(exec, g);
                    let (x, y) = (e.group(a, g), e.group(b, g));
                    let (x, y) = match kind {
                        Carry::Subrev | Carry::SubrevCi => (y, x),
                        _ => (x, y),
                    };
                    let ci = e.expand(cin, g);
                    let ci = e.b.ins().band(ci, one);
                    let (r, c) = match kind {
                        Carry::Add | Carry::AddCi => {
                            let s1 = e.b.ins().iadd(x, y);
                            let c1 = e.b.ins().icmp(IntCC::UnsignedLessThan, s1, x);
                            let s2 = e.b.ins().iadd(s1, ci);
                            let c2 = e.b.ins().icmp(IntCC::UnsignedLessThan, s2, s1);
                            (s2, e.b.ins().bor(c1, c2))
                        }
                        _ => {
                            let d1 = e.b.ins().isub(x, y);
                            let b1 = e.b.ins().icmp(IntCC::UnsignedLessThan, x, y);
                            let d2 = e.b.ins().isub(d1, ci);
                            let b2 = e.b.ins().icmp(IntCC::UnsignedLessThan, d1, ci);
                            (d2, e.b.ins().bor(b1, b2))
                        }
                    };
                    e.merge(d, g, m, r);
                    let bits = e.collect(c, g);
                    carry.map(|c| e.b.ins().bor(c, bits))
                });
                let carry = carry.unwrap_or(carry0);
                let carry = self.b.ins().band(carry, exec);
                self.write_mask(cout, carry);
            }
            Lowered::Cndmask {
                d,
                ref a,
                ref b,
                ref cond,
            } => {
                let cond = self.read_mask(cond);
                let exec = self.exec();
                let (a, b) = (self.src(a), self.src(b));
                self.for_groups(None, |e, g, _| {
                    let m = e.expand(exec, g);
                    let c = e.expand(cond, g);
                    let (x, y) = (e.group(a, g), e.group(b, g));
                    let r = e.b.ins().bitselect(c, y, x);
                    e.merge(d, g, m, r);
                    None
                });
            }
            Lowered::Cmp {
                ty,
                table,
                ref a,
                ref b,
                ref dst,
                exec_write,
            } => {
                let exec = self.exec();
                let (a, b) = (self.src(a), self.src(b));
                let mask0 = self.b.ins().iconst(I64, 0);
                let mask = self.for_groups(Some(mask0), |e, g, mask| {
                    let (x, y) = (e.group(a, g), e.group(b, g));
                    let bits = e.compare(ty, table, x, y, g);
                    mask.map(|m| e.b.ins().bor(m, bits))
                });
                let mask = mask.unwrap_or(mask0);
                let mask = self.b.ins().band(mask, exec);
                if let Some(dst) = dst {
                    self.write_mask(dst, mask);
                }
                if exec_write {
                    self.write_mask(
                        &arch::isa::Operand::Src {
                            code: crate::wave::EXEC_LO,
                            ty: arch::isa::OperandType::LaneMask,
                        },
                        mask,
                    );
                }
            }
            Lowered::ReadLane { src, ref sel, dst } => {
                let sel = match self.src(sel) {
                    V::Uni(x, _) => x,
                    V::Reg(_) => self.b.ins().iconst(I32, 0),
                };
                let lanes = if self.wave64 { 63 } else { 31 };
                let lane = self.b.ins().band_imm(sel, lanes);
                let lane = self.b.ins().uextend(self.ptr, lane);
                let off = self.b.ins().ishl_imm(lane, 2);
                let addr = self.b.ins().iadd(self.vgpr, off);
                let fl = self.vflags();
                let v = self.b.ins().load(I32, fl, addr, i32::from(src) * 64 * 4);
                self.dst32(&dst, v);
            }
            Lowered::Lshl64 { d, ref a, ref b } => {
                // The plan admits a constant amount and a VGPR pair.
                let (Src::Imm(n), Src::Vgpr(r)) = (*a, *b) else {
                    return;
                };
                let n = i64::from(n & 63);
                let exec = self.exec();
                self.for_groups(None, |e, g, _| {
                    let m = e.expand(exec, g);
                    // Both halves of the group are read before either is
                    // written (the pairs may overlap).
                    let lo = e.vload(r, g);
                    let hi = e.vload(r + 1, g);
                    let (nlo, nhi) = match n {
                        0 => (lo, hi),
                        1..=31 => {
                            let l = e.b.ins().ishl_imm(lo, n);
                            let h = e.b.ins().ishl_imm(hi, n);
                            let c = e.b.ins().ushr_imm(lo, 32 - n);
                            (l, e.b.ins().bor(h, c))
                        }
                        _ => {
                            let z = e.vconst([0; 4]);
                            let h = if n == 32 {
                                lo
                            } else {
                                e.b.ins().ishl_imm(lo, n - 32)
                            };
                            (z, h)
                        }
                    };
                    e.merge(d, g, m, nlo);
                    e.merge(d + 1, g, m, nhi);
                    None
                });
            }
            Lowered::MadU64 {
                d,
                ref a,
                ref b,
                ref c,
                ref cout,
            } => self.mad_u64(d, a, b, c, cout),
            // Excluded by the plan.
            _ => {}
        }
    }

    /// `v_mad_u64_u32`: `d[0:1] = a * b + c[0:1]` per lane, the carry out of
    /// bit 63 to the mask `cout`, two lanes at a time as `i64x2`.
    fn mad_u64(&mut self, d: u16, a: &Src, b: &Src, c: &Src, cout: &arch::isa::Operand) {
        let exec = self.exec();
        let (x, y) = (self.src(a), self.src(b));
        // The addend: a VGPR pair, or a wave-uniform 64-bit value.
        let c_uni = match super::scalar64(c) {
            Some(Some(s)) => {
                let v = self.s64(&s);
                Some(self.b.ins().splat(I64X2, v))
            }
            _ => None,
        };
        let c_reg = match *c {
            Src::Vgpr(r) => Some(r),
            _ => None,
        };
        let le = MemFlags::new().with_endianness(Endianness::Little);
        let mut lo_idx = [0u8; 16];
        let mut hi_idx = [0u8; 16];
        for (k, (l, h)) in lo_idx.iter_mut().zip(hi_idx.iter_mut()).enumerate() {
            // Dword k of the result: the low (high) half of 64-bit lane k.
            let lane = (k / 4) as u8;
            *l = lane * 8 + (k % 4) as u8;
            *h = lane * 8 + 4 + (k % 4) as u8;
        }
        let lo_sel = self
            .b
            .func
            .dfg
            .immediates
            .push(ConstantData::from(&lo_idx[..]));
        let hi_sel = self
            .b
            .func
            .dfg
            .immediates
            .push(ConstantData::from(&hi_idx[..]));
        let carry0 = self.b.ins().iconst(I64, 0);
        let carry = self.for_groups(Some(carry0), |e, g, carry| {
            let m = e.expand(exec, g);
            let (xv, yv) = (e.group(x, g), e.group(y, g));
            let cv = c_reg.map(|r| (e.vload(r, g), e.vload(r + 1, g)));
            let mut sums = [xv; 2];
            let mut bits = e.b.ins().iconst(I32, 0);
            for (half, sum) in sums.iter_mut().enumerate() {
                let widen = |e: &mut Self, v: Value| {
                    if half == 0 {
                        e.b.ins().uwiden_low(v)
                    } else {
                        e.b.ins().uwiden_high(v)
                    }
                };
                let (xw, yw) = (widen(e, xv), widen(e, yv));
                // Zero-extended 32-bit factors: the low 64 bits are the product.
                let p = e.b.ins().imul(xw, yw);
                let cw = match (cv, c_uni) {
                    (Some((cl, ch)), _) => {
                        let l = widen(e, cl);
                        let h = widen(e, ch);
                        let h = e.b.ins().ishl_imm(h, 32);
                        e.b.ins().bor(h, l)
                    }
                    (None, Some(u)) => u,
                    // Excluded by the plan.
                    (None, None) => {
                        let z = e.b.ins().iconst(I64, 0);
                        e.b.ins().splat(I64X2, z)
                    }
                };
                let s = e.b.ins().iadd(p, cw);
                // Carry out of bit 63: the top bit of (p & c) | ((p | c) & !s).
                let both = e.b.ins().band(p, cw);
                let either = e.b.ins().bor(p, cw);
                let lost = e.b.ins().band_not(either, s);
                let co = e.b.ins().bor(both, lost);
                let cb = e.b.ins().vhigh_bits(I32, co);
                let cb = if half == 0 {
                    cb
                } else {
                    e.b.ins().ishl_imm(cb, 2)
                };
                bits = e.b.ins().bor(bits, cb);
                *sum = e.b.ins().bitcast(I8X16, le, s);
            }
            let lo = e.b.ins().shuffle(sums[0], sums[1], lo_sel);
            let hi = e.b.ins().shuffle(sums[0], sums[1], hi_sel);
            let lo = e.b.ins().bitcast(I32X4, le, lo);
            let hi = e.b.ins().bitcast(I32X4, le, hi);
            e.merge(d, g, m, lo);
            e.merge(d + 1, g, m, hi);
            let bits = e.b.ins().uextend(I64, bits);
            let bits = e.b.ins().ishl(bits, g.shift);
            carry.map(|c| e.b.ins().bor(c, bits))
        });
        let carry = carry.unwrap_or(carry0);
        let carry = self.b.ins().band(carry, exec);
        self.write_mask(cout, carry);
    }

    /// Bits `4g..4g+4` of a 32-bit compare's lane mask (before EXEC).
    fn compare(&mut self, ty: Ty32, table: u8, x: Value, y: Value, g: Gi) -> Value {
        let m = match ty {
            Ty32::U32 | Ty32::I32 => {
                let signed = ty == Ty32::I32;
                let cc = match (table & 7, signed) {
                    (0, _) => None,
                    (7, _) => Some(None),
                    (1, false) => Some(Some(IntCC::UnsignedLessThan)),
                    (1, true) => Some(Some(IntCC::SignedLessThan)),
                    (2, _) => Some(Some(IntCC::Equal)),
                    (3, false) => Some(Some(IntCC::UnsignedLessThanOrEqual)),
                    (3, true) => Some(Some(IntCC::SignedLessThanOrEqual)),
                    (4, false) => Some(Some(IntCC::UnsignedGreaterThan)),
                    (4, true) => Some(Some(IntCC::SignedGreaterThan)),
                    (5, _) => Some(Some(IntCC::NotEqual)),
                    (6, false) => Some(Some(IntCC::UnsignedGreaterThanOrEqual)),
                    _ => Some(Some(IntCC::SignedGreaterThanOrEqual)),
                };
                match cc {
                    None => return self.b.ins().iconst(I64, 0),
                    Some(None) => self.vconst([u32::MAX; 4]),
                    Some(Some(cc)) => self.b.ins().icmp(cc, x, y),
                }
            }
            Ty32::F32 => {
                if !Mode::from_register(self.mode).f32.denorm_in {
                    // Inputs flushed: the interpreter's compare.
                    let fl = MemFlags::trusted();
                    self.b.ins().stack_store(x, self.buf, 0);
                    self.b.ins().stack_store(y, self.buf, 16);
                    let p = self.b.ins().stack_addr(self.ptr, self.buf, 0);
                    let f = self.fn_ptr(helpers::cmp4 as *const () as usize);
                    let t = self.b.ins().iconst(I32, i64::from(table));
                    let mo = self.b.ins().iconst(I32, i64::from(self.mode));
                    let call = self.b.ins().call_indirect(self.cmp4_sig, f, &[t, mo, p]);
                    let bits = self.b.inst_results(call)[0];
                    let _ = fl;
                    let bits = self.b.ins().uextend(I64, bits);
                    return self.b.ins().ishl(bits, g.shift);
                }
                // IEEE compare (±0 equal, NaN unordered), one condition per
                // table bit: less, equal, greater, unordered.
                let (fx, fy) = (self.as_f32x4(x), self.as_f32x4(y));
                let mut m: Option<Value> = None;
                for (bit, cc) in [
                    (1, FloatCC::LessThan),
                    (2, FloatCC::Equal),
                    (4, FloatCC::GreaterThan),
                    (8, FloatCC::Unordered),
                ] {
                    if table & bit != 0 {
                        let c = self.b.ins().fcmp(cc, fx, fy);
                        m = Some(match m {
                            Some(p) => self.b.ins().bor(p, c),
                            None => c,
                        });
                    }
                }
                match m {
                    Some(m) => m,
                    None => return self.b.ins().iconst(I64, 0),
                }
            }
        };
        self.collect(m, g)
    }

    fn as_f32x4(&mut self, x: Value) -> Value {
        let fl = MemFlags::new().with_endianness(Endianness::Little);
        self.b.ins().bitcast(F32X4, fl, x)
    }

    fn as_i32x4(&mut self, x: Value) -> Value {
        let fl = MemFlags::new().with_endianness(Endianness::Little);
        self.b.ins().bitcast(I32X4, fl, x)
    }

    /// The interpreter's lane function over the group's lanes.
    fn lane_call(&mut self, op: &Op, v: &[Value]) -> Value {
        for (i, &x) in v.iter().enumerate() {
            self.b.ins().stack_store(x, self.buf, 16 * i as i32);
        }
        let p = self.b.ins().stack_addr(self.ptr, self.buf, 0);
        let f = self.fn_ptr(helpers::lane4 as *const () as usize);
        let o = self.fn_ptr(op as *const Op as usize);
        let mo = self.b.ins().iconst(I32, i64::from(self.mode));
        self.b.ins().call_indirect(self.lane4_sig, f, &[o, mo, p]);
        self.b.ins().stack_load(I32X4, self.buf, 48)
    }

    /// `x & 0x7fffffff` is a denormal (as `valu::denormal`): all-ones lanes.
    fn denormal(&mut self, x: Value) -> Value {
        let abs = self.vconst([0x7fff_ffff; 4]);
        let one = self.vconst([1; 4]);
        let top = self.vconst([0x007f_ffff; 4]);
        let t = self.b.ins().band(x, abs);
        let t = self.b.ins().isub(t, one);
        self.b.ins().icmp(IntCC::UnsignedLessThan, t, top)
    }

    /// A host `f32` result `r` (bits) of inputs `ins`, kept where it stands
    /// (see the module doc) and else the lane function's for the group.
    fn checked(&mut self, op: &Op, v: &[Value], ins: &[Value], r: Value, m: Value) -> Value {
        let fm = Mode::from_register(self.mode).f32;
        // `fp::mad` flushes whatever MODE says (not reached: MadF32 calls).
        let fr = self.as_f32x4(r);
        let mut bad = self.b.ins().fcmp(FloatCC::Unordered, fr, fr);
        if !fm.denorm_in {
            for &x in ins {
                let d = self.denormal(x);
                bad = self.b.ins().bor(bad, d);
            }
        }
        if !fm.denorm_out {
            let d = self.denormal(r);
            bad = self.b.ins().bor(bad, d);
        }
        let bad = self.b.ins().band(bad, m);
        let any = self.b.ins().vhigh_bits(I32, bad);
        let (slow, join) = (self.b.create_block(), self.b.create_block());
        let out = self.b.append_block_param(join, I32X4);
        self.b.ins().brif(any, slow, &[], join, &[r]);
        self.b.switch_to_block(slow);
        let exact = self.lane_call(op, v);
        self.b.ins().jump(join, &[exact]);
        self.b.switch_to_block(join);
        out
    }

    /// One group of a `Map` operation (before EXEC).
    fn map(&mut self, o: Op, op: &Op, srcs: &[V], v: &[Value], m: Value) -> Value {
        let fm = Mode::from_register(self.mode).f32;
        let nearest = fm.round == Round::NearestEven;
        let c24 = |e: &mut Self, x: Value| {
            let k = e.vconst([0xff_ffff; 4]);
            e.b.ins().band(x, k)
        };
        let s24 = |e: &mut Self, x: Value| {
            let x = e.b.ins().ishl_imm(x, 8);
            e.b.ins().sshr_imm(x, 8)
        };
        match o {
            Op::Mov => v[0],
            Op::Not => self.b.ins().bnot(v[0]),
            Op::AddNc if crate::jit::planted_bug() => {
                let s = self.b.ins().iadd(v[0], v[1]);
                let one = self.vconst([1; 4]);
                self.b.ins().bxor(s, one)
            }
            Op::AddNc => self.b.ins().iadd(v[0], v[1]),
            Op::SubNc => self.b.ins().isub(v[0], v[1]),
            Op::SubrevNc => self.b.ins().isub(v[1], v[0]),
            Op::And => self.b.ins().band(v[0], v[1]),
            Op::Or => self.b.ins().bor(v[0], v[1]),
            Op::Xor => self.b.ins().bxor(v[0], v[1]),
            Op::Xnor => {
                let x = self.b.ins().bxor(v[0], v[1]);
                self.b.ins().bnot(x)
            }
            Op::Lshlrev | Op::Lshrrev | Op::Ashrrev => {
                let kind = match o {
                    Op::Lshlrev => 0,
                    Op::Lshrrev => 1,
                    _ => 2,
                };
                self.shift(kind, v[1], srcs[0], v[0])
            }
            Op::MinI => self.b.ins().smin(v[0], v[1]),
            Op::MaxI => self.b.ins().smax(v[0], v[1]),
            Op::MinU => self.b.ins().umin(v[0], v[1]),
            Op::MaxU => self.b.ins().umax(v[0], v[1]),
            Op::MulLo => self.b.ins().imul(v[0], v[1]),
            Op::MulHiU | Op::MulHiI | Op::AlignBit => self.per_lane(o, v),
            Op::MulU24 | Op::MadU24 => {
                let (x, y) = (c24(self, v[0]), c24(self, v[1]));
                let p = self.b.ins().imul(x, y);
                if o == Op::MadU24 {
                    self.b.ins().iadd(p, v[2])
                } else {
                    p
                }
            }
            Op::MulI24 | Op::MadI24 => {
                // The low 32 bits of the 48-bit product.
                let (x, y) = (s24(self, v[0]), s24(self, v[1]));
                let p = self.b.ins().imul(x, y);
                if o == Op::MadI24 {
                    self.b.ins().iadd(p, v[2])
                } else {
                    p
                }
            }
            Op::LshlAdd | Op::LshlOr => {
                let s = self.shift(0, v[0], srcs[1], v[1]);
                if o == Op::LshlAdd {
                    self.b.ins().iadd(s, v[2])
                } else {
                    self.b.ins().bor(s, v[2])
                }
            }
            Op::AddLshl => {
                let s = self.b.ins().iadd(v[0], v[1]);
                self.shift(0, s, srcs[2], v[2])
            }
            Op::Add3 => {
                let s = self.b.ins().iadd(v[0], v[1]);
                self.b.ins().iadd(s, v[2])
            }
            Op::AndOr => {
                let s = self.b.ins().band(v[0], v[1]);
                self.b.ins().bor(s, v[2])
            }
            Op::Or3 => {
                let s = self.b.ins().bor(v[0], v[1]);
                self.b.ins().bor(s, v[2])
            }
            Op::Xor3 => {
                let s = self.b.ins().bxor(v[0], v[1]);
                self.b.ins().bxor(s, v[2])
            }
            Op::Xad => {
                let s = self.b.ins().bxor(v[0], v[1]);
                self.b.ins().iadd(s, v[2])
            }
            Op::Bfi => self.b.ins().bitselect(v[0], v[1], v[2]),
            Op::AddF32 | Op::SubF32 | Op::SubrevF32 | Op::MulF32 if nearest => {
                let (a, b) = (self.as_f32x4(v[0]), self.as_f32x4(v[1]));
                let r = match o {
                    Op::AddF32 => self.b.ins().fadd(a, b),
                    Op::SubF32 => self.b.ins().fsub(a, b),
                    Op::SubrevF32 => self.b.ins().fsub(b, a),
                    _ => self.b.ins().fmul(a, b),
                };
                let r = self.as_i32x4(r);
                self.checked(op, v, &v[..2], r, m)
            }
            Op::FmaF32 if nearest && self.has_fma => {
                let (a, b, c) = (
                    self.as_f32x4(v[0]),
                    self.as_f32x4(v[1]),
                    self.as_f32x4(v[2]),
                );
                let r = self.b.ins().fma(a, b, c);
                let r = self.as_i32x4(r);
                self.checked(op, v, &v[..3], r, m)
            }
            // Integers convert exactly or round to nearest even (no denormal
            // result): the host's conversion, as the lowered path uses.
            Op::CvtF32I32 if nearest => {
                let f = self.b.ins().fcvt_from_sint(F32X4, v[0]);
                self.as_i32x4(f)
            }
            // Truncating, saturating, NaN 0: Rust's `as`, and the host's
            // saturating conversion.
            Op::CvtI32F32 => {
                let f = self.as_f32x4(v[0]);
                self.b.ins().fcvt_to_sint_sat(I32X4, f)
            }
            _ => self.lane_call(op, v),
        }
    }

    /// A left (0), logical right (1) or arithmetic right (2) shift of `x` by
    /// `amount & 31`: one SIMD shift for a uniform amount, per lane else.
    fn shift(&mut self, kind: u8, x: Value, amount: V, amount_v: Value) -> Value {
        let op = |e: &mut Self, x: Value, n: Value| match kind {
            0 => e.b.ins().ishl(x, n),
            1 => e.b.ins().ushr(x, n),
            _ => e.b.ins().sshr(x, n),
        };
        match amount {
            V::Uni(n, _) => {
                let n = self.b.ins().band_imm(n, 31);
                op(self, x, n)
            }
            V::Reg(_) => {
                let mut r = x;
                for l in 0..4u8 {
                    let xl = self.b.ins().extractlane(x, l);
                    let nl = self.b.ins().extractlane(amount_v, l);
                    let nl = self.b.ins().band_imm(nl, 31);
                    let y = op(self, xl, nl);
                    r = self.b.ins().insertlane(r, y, l);
                }
                r
            }
        }
    }

    /// Operations done one lane at a time in host scalar code.
    fn per_lane(&mut self, o: Op, v: &[Value]) -> Value {
        let mut r = v[0];
        for l in 0..4u8 {
            let a = self.b.ins().extractlane(v[0], l);
            let b = self.b.ins().extractlane(v[1], l);
            let y = match o {
                Op::MulHiU => self.b.ins().umulhi(a, b),
                Op::MulHiI => self.b.ins().smulhi(a, b),
                // AlignBit: ((a:b) >> (c & 31)) as u32.
                _ => {
                    let c = self.b.ins().extractlane(v[2], l);
                    let c = self.b.ins().band_imm(c, 31);
                    let c = self.b.ins().uextend(I64, c);
                    let hi = self.b.ins().uextend(I64, a);
                    let hi = self.b.ins().ishl_imm(hi, 32);
                    let lo = self.b.ins().uextend(I64, b);
                    let ab = self.b.ins().bor(hi, lo);
                    let s = self.b.ins().ushr(ab, c);
                    self.b.ins().ireduce(I32, s)
                }
            };
            r = self.b.ins().insertlane(r, y, l);
        }
        r
    }
}
