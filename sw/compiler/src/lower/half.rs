//! Conversions to and from `half` (cl_khr_fp16), with clang-19's meaning
//! and its instruction choices where they decide the bits:
//!
//! * `half` ↔ `float` are the hardware conversions (`v_cvt_f32_f16`,
//!   `v_cvt_f16_f32`: round to nearest even, denormals kept);
//! * `half` → `double` and `half` → integer go through `float`, which
//!   holds every half exactly, so nothing rounds twice;
//! * integer → `half` goes through `float` as LLVM's AMDGPU lowering
//!   does (`sitofp i32 to half` is `fptrunc (sitofp i32 to float)`; for a
//!   `char`/`short` both steps are exact but the last);
//! * `double` → `half` is correctly rounded by integer operations on the
//!   bits (LLVM's `LowerFP_TO_FP16` expansion for f64, which clang emits
//!   when unsafe math is off): `(half)(float)d` would round twice.

use super::{Lowerer, R};
use crate::front::diag::Loc;
use crate::front::types::Scalar;
use crate::ir::{BinaryOp, ConvertOp, IntCC, Type, Value};

impl Lowerer<'_> {
    /// `x` of scalar type `fs` converted to `ts`, one of them `half`.
    pub(super) fn half_convert(&mut self, x: Value, fs: Scalar, ts: Scalar, loc: Loc) -> R<Value> {
        if fs == Scalar::Half {
            let f = self.b().convert(ConvertOp::FpExt, x, Type::F32);
            return match ts {
                Scalar::Half => Ok(x),
                Scalar::Float => Ok(f),
                // Every half fits an int: LLVM converts to 32 bits and
                // extends (an infinity or NaN, undefined in OpenCL, then
                // gives v_cvt_i32_f32's clamped value extended, as clang).
                Scalar::Long | Scalar::ULong => {
                    let (mid, ext) = if ts == Scalar::Long {
                        (Scalar::Int, ConvertOp::Sext)
                    } else {
                        (Scalar::UInt, ConvertOp::Zext)
                    };
                    let w = self.float_convert(f, Scalar::Float, mid, loc)?;
                    Ok(self.b().convert(ext, w, Type::I64))
                }
                _ => self.float_convert(f, Scalar::Float, ts, loc),
            };
        }
        match fs {
            Scalar::Double => Ok(self.f64_to_f16(x)),
            Scalar::Float => Ok(self.b().convert(ConvertOp::FpTrunc, x, Type::F16)),
            _ => {
                let f = self.float_convert(x, fs, Scalar::Float, loc)?;
                Ok(self.b().convert(ConvertOp::FpTrunc, f, Type::F16))
            }
        }
    }

    /// `(half)d`, correctly rounded, computed on the bits of `d`: the 11
    /// significant bits and a sticky bit are gathered into a 32-bit
    /// integer `V` with two guard bits, denormal results shifted right
    /// (keeping stickiness), then rounded to nearest even by the low 3
    /// bits; exponents past half's range give an infinity, NaN a quiet NaN.
    fn f64_to_f16(&mut self, d: Value) -> Value {
        let mut b = self.b();
        let u = b.convert(ConvertOp::Bitcast, d, Type::I64);
        let k32 = b.iconst(Type::I64, 32);
        let uh64 = b.binary(BinaryOp::Lshr, u, k32);
        let uh = b.convert(ConvertOp::Trunc, uh64, Type::I32);
        let ul = b.convert(ConvertOp::Trunc, u, Type::I32);
        let c = |b: &mut crate::ir::Builder, x: i64| b.iconst(Type::I32, x);
        // E: the exponent rebiased for half (1023 - 15).
        let k20 = c(&mut b, 20);
        let e0 = b.binary(BinaryOp::Lshr, uh, k20);
        let k7ff = c(&mut b, 0x7ff);
        let e1 = b.binary(BinaryOp::And, e0, k7ff);
        let k1008 = c(&mut b, 1008);
        let e = b.binary(BinaryOp::Isub, e1, k1008);
        // M: the top 10 mantissa bits and a guard bit, below them a sticky
        // bit for everything else.
        let k8 = c(&mut b, 8);
        let m0 = b.binary(BinaryOp::Lshr, uh, k8);
        let kffe = c(&mut b, 0xffe);
        let m1 = b.binary(BinaryOp::And, m0, kffe);
        let k1ff = c(&mut b, 0x1ff);
        let low = b.binary(BinaryOp::And, uh, k1ff);
        let rest = b.binary(BinaryOp::Or, low, ul);
        let zero = c(&mut b, 0);
        let one = c(&mut b, 1);
        let nz = b.icmp(IntCC::Ne, rest, zero);
        let sticky = b.select(nz, one, zero);
        let m = b.binary(BinaryOp::Or, m1, sticky);
        // I: the result for an infinity or NaN (a quiet NaN if M != 0).
        let mnz = b.icmp(IntCC::Ne, m, zero);
        let k200 = c(&mut b, 0x200);
        let q = b.select(mnz, k200, zero);
        let k7c00 = c(&mut b, 0x7c00);
        let inf_nan = b.binary(BinaryOp::Or, q, k7c00);
        // A denormal result: the significand with its leading one, shifted
        // right by 1 - E (at most 13), sticky if bits were lost.
        let sub = b.binary(BinaryOp::Isub, one, e);
        let lo = b.binary(BinaryOp::Smax, sub, zero);
        let k13 = c(&mut b, 13);
        let sh = b.binary(BinaryOp::Smin, lo, k13);
        let k1000 = c(&mut b, 0x1000);
        let sig = b.binary(BinaryOp::Or, m, k1000);
        let dn = b.binary(BinaryOp::Lshr, sig, sh);
        let back = b.binary(BinaryOp::Shl, dn, sh);
        let lost = b.icmp(IntCC::Ne, back, sig);
        let lost1 = b.select(lost, one, zero);
        let denormal = b.binary(BinaryOp::Or, dn, lost1);
        // A normal result: E above M.
        let k12 = c(&mut b, 12);
        let eh = b.binary(BinaryOp::Shl, e, k12);
        let normal = b.binary(BinaryOp::Or, eh, m);
        let tiny = b.icmp(IntCC::Slt, e, one);
        let v = b.select(tiny, denormal, normal);
        // Round to nearest even on the two guard bits and the sticky bit.
        let k7 = c(&mut b, 7);
        let low3 = b.binary(BinaryOp::And, v, k7);
        let k3 = c(&mut b, 3);
        let eq3 = b.icmp(IntCC::Eq, low3, k3);
        let k5 = c(&mut b, 5);
        let gt5 = b.icmp(IntCC::Sgt, low3, k5);
        let up = b.binary(BinaryOp::Or, eq3, gt5);
        let up1 = b.select(up, one, zero);
        let k2 = c(&mut b, 2);
        let v2 = b.binary(BinaryOp::Lshr, v, k2);
        let rounded = b.binary(BinaryOp::Iadd, v2, up1);
        let k30 = c(&mut b, 30);
        let big = b.icmp(IntCC::Sgt, e, k30);
        let r1 = b.select(big, k7c00, rounded);
        // E == 1039: the double was an infinity or a NaN.
        let k1039 = c(&mut b, 1039);
        let special = b.icmp(IntCC::Eq, e, k1039);
        let r2 = b.select(special, inf_nan, r1);
        let k16 = c(&mut b, 16);
        let s0 = b.binary(BinaryOp::Lshr, uh, k16);
        let k8000 = c(&mut b, 0x8000);
        let sign = b.binary(BinaryOp::And, s0, k8000);
        let r = b.binary(BinaryOp::Or, r2, sign);
        let r16 = b.convert(ConvertOp::Trunc, r, Type::I16);
        b.convert(ConvertOp::Bitcast, r16, Type::F16)
    }
}
