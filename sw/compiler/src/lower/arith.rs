//! What clang expands inline for arithmetic built-ins and operators: f32
//! division and `sqrt` (the default OpenCL precision and the correctly
//! rounded forms), 64-bit integer division and remainder.

use super::builtins::umulhi64;
use super::{FpDivSqrt, Lowerer};
use crate::ir::{
    BinaryOp, Builtin as IrBuiltin, ConvertOp, FloatCC, IntCC, TernaryOp, Type, UnaryOp, Value,
};

impl Lowerer<'_> {
    /// `a / b` on f32 as clang-19 expands it for OpenCL by default (2.5 ULP
    /// allowed, denormals kept): the mantissas divided through `v_rcp`, the
    /// exponents subtracted, `ldexp` putting them together. The same
    /// instructions, so the same bits as clang's objects.
    pub(super) fn fdiv(&mut self, a: Value, b: Value) -> Value {
        match self.opts.fp_div_sqrt {
            FpDivSqrt::Default => {}
            FpDivSqrt::Relaxed => {
                let mut bl = self.b();
                let r = bl.call(IrBuiltin::Rcp, &[b]);
                return bl.binary(BinaryOp::Fmul, r, a);
            }
            FpDivSqrt::CorrectlyRounded => return self.b().call(IrBuiltin::FdivIeee, &[a, b]),
        }
        let mut bl = self.b();
        let ma = bl.call(IrBuiltin::FrexpMant, &[a]);
        let ea = bl.call(IrBuiltin::FrexpExp, &[a]);
        let mb = bl.call(IrBuiltin::FrexpMant, &[b]);
        let eb = bl.call(IrBuiltin::FrexpExp, &[b]);
        let r = bl.call(IrBuiltin::Rcp, &[mb]);
        let q = bl.binary(BinaryOp::Fmul, ma, r);
        let e = bl.binary(BinaryOp::Isub, ea, eb);
        bl.call(IrBuiltin::Ldexp, &[q, e])
    }

    /// Unsigned 64-bit `x / y` and `x % y`, LLVM AMDGPU's expansion
    /// (`LowerUDIVREM64`): `2^64 / y` estimated with `v_rcp_f32` on `y` as
    /// a float (scaled by `0x5f7ffffc`, just under 2^64, so it never
    /// overshoots), split into two 32-bit halves, refined by two Newton
    /// steps in 64-bit integers (`r += mulhi(r, -y * r)`), then `q =
    /// mulhi(x, r)`, `rem = x - q * y` and twice `if rem >= y { q++; rem -=
    /// y }`. Operands whose high halves are both zero take the 32-bit
    /// division instead (clang's bypass, a branch). Division by zero gives
    /// whatever the sequence yields (undefined in OpenCL).
    pub(super) fn udivrem64(&mut self, x: Value, y: Value) -> (Value, Value) {
        // `x / y` then `x % y` in one block share one expansion (the join
        // of the first dominates the rest of its block).
        if let Some(&(_, _, _, q, r)) = self
            .divrem64_memo
            .iter()
            .find(|m| (m.0, m.1, m.2) == (x, y, self.cur))
        {
            return (q, r);
        }
        let (q, r) = self.udivrem64_branches(x, y);
        self.divrem64_memo.push((x, y, self.cur, q, r));
        (q, r)
    }

    fn udivrem64_branches(&mut self, x: Value, y: Value) -> (Value, Value) {
        let mut bl = self.b();
        let k32 = bl.iconst(Type::I64, 32);
        let hx = bl.binary(BinaryOp::Lshr, x, k32);
        let hy = bl.binary(BinaryOp::Lshr, y, k32);
        let h = bl.binary(BinaryOp::Or, hx, hy);
        let zero = bl.iconst(Type::I64, 0);
        let narrow = bl.icmp(IntCC::Eq, h, zero);
        if let Some(k) = self.func.iconst_value(narrow) {
            return if k != 0 {
                self.udivrem64_narrow(x, y)
            } else {
                self.udivrem64_wide(x, y)
            };
        }
        let (nb, wb) = (self.func.create_block(), self.func.create_block());
        self.b().brif(narrow, nb, &[], wb, &[]);
        let env0 = self.env.clone();
        self.cur = nb;
        let (q, r) = self.udivrem64_narrow(x, y);
        let narrow_edge = self.leave(vec![q, r]);
        self.cur = wb;
        self.env = env0;
        self.terminated = false;
        let (q, r) = self.udivrem64_wide(x, y);
        let wide_edge = self.leave(vec![q, r]);
        let out = self.join(vec![narrow_edge, wide_edge]);
        (out[0], out[1])
    }

    /// `x / y`, `x % y` of 64-bit values that fit 32 bits: the 32-bit
    /// division, zero-extended.
    fn udivrem64_narrow(&mut self, x: Value, y: Value) -> (Value, Value) {
        let mut bl = self.b();
        let x32 = bl.convert(ConvertOp::Trunc, x, Type::I32);
        let y32 = bl.convert(ConvertOp::Trunc, y, Type::I32);
        let q = bl.binary(BinaryOp::Udiv, x32, y32);
        let r = bl.binary(BinaryOp::Urem, x32, y32);
        let q = bl.convert(ConvertOp::Zext, q, Type::I64);
        let r = bl.convert(ConvertOp::Zext, r, Type::I64);
        (q, r)
    }

    fn udivrem64_wide(&mut self, x: Value, y: Value) -> (Value, Value) {
        let mut bl = self.b();
        let k32 = bl.iconst(Type::I64, 32);
        let f = |bl: &mut crate::ir::Builder<'_>, bits: u32| bl.f32const(f32::from_bits(bits));
        // 2^64 / y as a float, split into 32-bit halves.
        let ylo = bl.convert(ConvertOp::Trunc, y, Type::I32);
        let yhi = bl.binary(BinaryOp::Lshr, y, k32);
        let yhi = bl.convert(ConvertOp::Trunc, yhi, Type::I32);
        let flo = bl.convert(ConvertOp::UiToFp, ylo, Type::F32);
        let fhi = bl.convert(ConvertOp::UiToFp, yhi, Type::F32);
        let two32 = f(&mut bl, 0x4f80_0000);
        let fy = bl.ternary(TernaryOp::Fma, fhi, two32, flo);
        let rcp = bl.call(IrBuiltin::Rcp, &[fy]);
        let under_2_64 = f(&mut bl, 0x5f7f_fffc);
        let r = bl.binary(BinaryOp::Fmul, rcp, under_2_64);
        let two_m32 = f(&mut bl, 0x2f80_0000);
        let rh = bl.binary(BinaryOp::Fmul, r, two_m32);
        // Positive: floor is trunc.
        let rh = bl.call(IrBuiltin::Floor, &[rh]);
        let m_two32 = f(&mut bl, 0xcf80_0000);
        let rl = bl.ternary(TernaryOp::Fma, rh, m_two32, r);
        let rh = bl.convert(ConvertOp::FpToUi, rh, Type::I32);
        let rl = bl.convert(ConvertOp::FpToUi, rl, Type::I32);
        let rh = bl.convert(ConvertOp::Zext, rh, Type::I64);
        let rl = bl.convert(ConvertOp::Zext, rl, Type::I64);
        let rh = bl.binary(BinaryOp::Shl, rh, k32);
        let mut rcp64 = bl.binary(BinaryOp::Or, rh, rl);
        let zero = bl.iconst(Type::I64, 0);
        let neg_y = bl.binary(BinaryOp::Isub, zero, y);
        for _ in 0..2 {
            let e = bl.binary(BinaryOp::Imul, neg_y, rcp64);
            let step = umulhi64(&mut bl, rcp64, e);
            rcp64 = bl.binary(BinaryOp::Iadd, rcp64, step);
        }
        let mut q = umulhi64(&mut bl, x, rcp64);
        let qy = bl.binary(BinaryOp::Imul, q, y);
        let mut rem = bl.binary(BinaryOp::Isub, x, qy);
        let one = bl.iconst(Type::I64, 1);
        for _ in 0..2 {
            let over = bl.icmp(IntCC::Uge, rem, y);
            let q1 = bl.binary(BinaryOp::Iadd, q, one);
            let r1 = bl.binary(BinaryOp::Isub, rem, y);
            q = bl.select(over, q1, q);
            rem = bl.select(over, r1, rem);
        }
        (q, rem)
    }

    /// Signed 64-bit `x / y` and `x % y` (C's truncating division): the
    /// magnitudes divided unsigned, the quotient negated when the signs
    /// differ, the remainder given the dividend's sign. `i64::MIN / -1`
    /// wraps to `i64::MIN` (remainder 0), what LLVM's expansion gives.
    pub(super) fn sdivrem64(&mut self, x: Value, y: Value) -> (Value, Value) {
        let mut bl = self.b();
        let k63 = bl.iconst(Type::I64, 63);
        let sx = bl.binary(BinaryOp::Ashr, x, k63);
        let sy = bl.binary(BinaryOp::Ashr, y, k63);
        // |v| = (v ^ s) - s with s = v >> 63.
        let ax = bl.binary(BinaryOp::Xor, x, sx);
        let ax = bl.binary(BinaryOp::Isub, ax, sx);
        let ay = bl.binary(BinaryOp::Xor, y, sy);
        let ay = bl.binary(BinaryOp::Isub, ay, sy);
        let (q, r) = self.udivrem64(ax, ay);
        let mut bl = self.b();
        let sq = bl.binary(BinaryOp::Xor, sx, sy);
        let q = bl.binary(BinaryOp::Xor, q, sq);
        let q = bl.binary(BinaryOp::Isub, q, sq);
        let r = bl.binary(BinaryOp::Xor, r, sx);
        let r = bl.binary(BinaryOp::Isub, r, sx);
        (q, r)
    }

    /// `sqrt(x)` on f32 as clang-19 expands it for OpenCL by default (3 ULP
    /// allowed): `v_sqrt_f32` flushes denormal inputs, so inputs below
    /// 2^-126 are scaled by 2^32 first and the root by 2^-16 after.
    pub(super) fn sqrt_f32(&mut self, x: Value) -> Value {
        match self.opts.fp_div_sqrt {
            FpDivSqrt::Default => {}
            FpDivSqrt::Relaxed => return self.b().call(IrBuiltin::Sqrt, &[x]),
            FpDivSqrt::CorrectlyRounded => return self.sqrt_f32_correct(x),
        }
        let mut bl = self.b();
        let smallest_normal = bl.f32const(f32::MIN_POSITIVE);
        let tiny = bl.fcmp(FloatCC::Olt, x, smallest_normal);
        let (up, down, zero) = (
            bl.iconst(Type::I32, 32),
            bl.iconst(Type::I32, -16),
            bl.iconst(Type::I32, 0),
        );
        let s = bl.select(tiny, up, zero);
        let scaled = bl.call(IrBuiltin::Ldexp, &[x, s]);
        let root = bl.call(IrBuiltin::Sqrt, &[scaled]);
        let e = bl.select(tiny, down, zero);
        bl.call(IrBuiltin::Ldexp, &[root, e])
    }

    /// Correctly rounded `sqrt(x)` on f32, clang-19's sequence for
    /// `-cl-fp32-correctly-rounded-divide-sqrt` instruction for instruction
    /// (so the same bits): inputs below 2^-32 scaled by 2^32; `s =
    /// v_sqrt_f32`; its neighbours `s∓1 ulp` tested by the residuals
    /// `fma(-(s∓1), s, x)`; the root scaled back by 2^-16; ±0 and +inf
    /// returned as they are.
    fn sqrt_f32_correct(&mut self, x: Value) -> Value {
        let mut bl = self.b();
        let limit = bl.f32const(f32::from_bits(0x0f80_0000)); // 2^-32
        let small = bl.fcmp(FloatCC::Olt, x, limit);
        let up = bl.f32const(f32::from_bits(0x4f80_0000)); // 2^32
        let scaled = bl.binary(BinaryOp::Fmul, x, up);
        let xs = bl.select(small, scaled, x);
        let s = bl.call(IrBuiltin::Sqrt, &[xs]);
        let s_bits = bl.convert(ConvertOp::Bitcast, s, Type::I32);
        let (m1, p1) = (bl.iconst(Type::I32, -1), bl.iconst(Type::I32, 1));
        let below = bl.iadd(s_bits, m1);
        let above = bl.iadd(s_bits, p1);
        let below = bl.convert(ConvertOp::Bitcast, below, Type::F32);
        let above = bl.convert(ConvertOp::Bitcast, above, Type::F32);
        let nb = bl.unary(UnaryOp::Fneg, below);
        let na = bl.unary(UnaryOp::Fneg, above);
        let r_below = bl.ternary(TernaryOp::Fma, nb, s, xs);
        let r_above = bl.ternary(TernaryOp::Fma, na, s, xs);
        let zero = bl.f32const(0.0);
        let take_below = bl.fcmp(FloatCC::Ole, r_below, zero);
        let s = bl.select(take_below, below, s);
        let take_above = bl.fcmp(FloatCC::Ogt, r_above, zero);
        let s = bl.select(take_above, above, s);
        let down = bl.f32const(f32::from_bits(0x3780_0000)); // 2^-16
        let unscaled = bl.binary(BinaryOp::Fmul, s, down);
        let s = bl.select(small, unscaled, s);
        let inf = bl.f32const(f32::INFINITY);
        let is_zero = bl.fcmp(FloatCC::Oeq, xs, zero);
        let is_inf = bl.fcmp(FloatCC::Oeq, xs, inf);
        let keep = bl.binary(BinaryOp::Or, is_zero, is_inf);
        bl.select(keep, xs, s)
    }
}
