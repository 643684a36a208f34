// reduced from seed 2000261 (inputs: cosim::fuzz::clgen::exec::inputs(2000261)): wave32 -O1: buffer out differs, first at byte 0: [00, 00, 00, 00, 00, 00, 00, 00] (clang) vs [25, 86, a5, 4b, d1, 93, 51, ab] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
long __attribute__((overloadable)) convert_long(uint x) { return (long)x; }
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
int __attribute__((overloadable)) convert_int(ulong x) { return (int)x; }
long __attribute__((overloadable)) convert_long(ulong x) { return (long)x; }
ulong __attribute__((overloadable)) convert_ulong(long x) { return (ulong)x; }
uint __attribute__((overloadable)) convert_uint(double x) { return (uint)x; }
float __attribute__((overloadable)) convert_float(ulong x) { return (float)x; }
float __attribute__((overloadable)) convert_float(ushort x) { return (float)x; }
ulong __attribute__((overloadable)) convert_ulong(uint x) { return (ulong)x; }
float __attribute__((overloadable)) convert_float(long x) { return (float)x; }
ulong __attribute__((overloadable)) convert_ulong(float x) { return (ulong)x; }
char __attribute__((overloadable)) convert_char(float x) { return (char)x; }
double __attribute__((overloadable)) convert_double(uint x) { return (double)x; }
uchar __attribute__((overloadable)) convert_uchar(long x) { return (uchar)x; }
ushort __attribute__((overloadable)) convert_ushort(long x) { return (ushort)x; }
long __attribute__((overloadable)) convert_long(float x) { return (long)x; }
uchar __attribute__((overloadable)) convert_uchar(float x) { return (uchar)x; }
uint __attribute__((overloadable)) convert_uint(long x) { return (uint)x; }
uint __attribute__((overloadable)) convert_uint(ushort x) { return (uint)x; }
uchar __attribute__((overloadable)) convert_uchar(uint x) { return (uchar)x; }
#endif
static char sub_char(char a, char b) { return (char)(a - b); }
static char mul_char(char a, char b) { return (char)(a * b); }
static float in_char_float(float x) { return (x > -129.0f && x < 128.0f) ? x : 0.0f; }
static uchar add_uchar(uchar a, uchar b) { return (uchar)(a + b); }
static uchar mod_uchar(uchar a, uchar b) { return b == 0 ? a : (uchar)(a % b); }
static uchar shl_uchar(uchar a, uchar b) { return (uchar)((uint)a << (b & 7)); }
static float in_uchar_float(float x) { return (x > -1.0f && x < 256.0f) ? x : 0.0f; }
static float in_short_float(float x) { return (x > -32769.0f && x < 32768.0f) ? x : 0.0f; }
static ushort add_ushort(ushort a, ushort b) { return (ushort)(a + b); }
static ushort sub_ushort(ushort a, ushort b) { return (ushort)(a - b); }
static ushort div_ushort(ushort a, ushort b) { return b == 0 ? a : (ushort)(a / b); }
static ushort mod_ushort(ushort a, ushort b) { return b == 0 ? a : (ushort)(a % b); }
static ushort shl_ushort(ushort a, ushort b) { return (ushort)((uint)a << (b & 7)); }
static ushort shr_ushort(ushort a, ushort b) { return (ushort)(a >> (b & 7)); }
static ushort neg_ushort(ushort a) { return (ushort)(-a); }
static float in_ushort_float(float x) { return (x > -1.0f && x < 65536.0f) ? x : 0.0f; }
static double in_ushort_double(double x) { return (x > -1.0 && x < 65536.0) ? x : 0.0; }
static int sub_int(int a, int b) { return ((b < 0 && a > INT_MAX + b) || (b > 0 && a < INT_MIN + b)) ? a : a - b; }
static int div_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }
static int shl_int(int a, int b) { return (int)((uint)a << b); }
static int neg_int(int a) { return a == INT_MIN ? a : -a; }
static float in_int_float(float x) { return (x >= -2147483648.0f && x < 2147483648.0f) ? x : 0.0f; }
static uint add_uint(uint a, uint b) { return (uint)(a + b); }
static uint sub_uint(uint a, uint b) { return (uint)(a - b); }
static uint mul_uint(uint a, uint b) { return (uint)(a * b); }
static uint div_uint(uint a, uint b) { return b == 0 ? a : (uint)(a / b); }
static uint mod_uint(uint a, uint b) { return b == 0 ? a : (uint)(a % b); }
static uint shr_uint(uint a, uint b) { return a >> b; }
static uint neg_uint(uint a) { return (uint)(-a); }
static float in_uint_float(float x) { return (x > -1.0f && x < 4294967296.0f) ? x : 0.0f; }
static double in_uint_double(double x) { return (x > -1.0 && x < 4294967296.0) ? x : 0.0; }
static long add_long(long a, long b) { return ((b > 0 && a > LONG_MAX - b) || (b < 0 && a < LONG_MIN - b)) ? a : a + b; }
static long sub_long(long a, long b) { return ((b < 0 && a > LONG_MAX + b) || (b > 0 && a < LONG_MIN + b)) ? a : a - b; }
static long mul_long(long a, long b) { return ((a > 0 && b > 0 && a > LONG_MAX / b) || (a > 0 && b <= 0 && b < LONG_MIN / a) || (a <= 0 && b > 0 && a < LONG_MIN / b) || (a < 0 && b < 0 && b < LONG_MAX / a)) ? a : a * b; }
static long div_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a / b; }
static long mod_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }
static long shl_long(long a, long b) { return (long)((ulong)a << b); }
static long shr_long(long a, long b) { return a >> b; }
static long neg_long(long a) { return a == LONG_MIN ? a : -a; }
static float in_long_float(float x) { return (x >= -9223372036854775808.0f && x < 9223372036854775808.0f) ? x : 0.0f; }
static ulong add_ulong(ulong a, ulong b) { return (ulong)(a + b); }
static ulong shl_ulong(ulong a, ulong b) { return (ulong)((ulong)a << b); }
static ulong shr_ulong(ulong a, ulong b) { return a >> b; }
static float in_ulong_float(float x) { return (x > -1.0f && x < 18446744073709551616.0f) ? x : 0.0f; }
static double in_ulong_double(double x) { return (x > -1.0 && x < 18446744073709551616.0) ? x : 0.0; }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
static ulong dbits(double x) { return x != x ? 0x7ff8000000000000UL : as_ulong(x); }
typedef struct { long f0; double f1; float f2; long f3; } S0;
__kernel void clgen(__global ulong *out, __global const uint *in, __constant uint *cb, __global uint *gbuf, __global uint *acc) {
  size_t gid = gs_global_id(0);
  uint lid = gs_local_id(0);
  __local uint lm[64];
  __local uint lacc[8];
  ulong h = 0x9e3779b97f4a7c15UL;
  __global uint *gp = gbuf + gid * 8;
  gs_barrier();
  S0 v1;
  long v2 = ((long)div_int(neg_int(((int)gid)), ((int)in_int_float((((float3)(v1.f2))).s0))));
  S0 v3;
  ushort v4 = shr_ushort(convert_ushort((((ulong4)(63UL))).s1), sub_ushort(((ushort)in[(127u) % 256u]), neg_ushort(((ushort)in_ushort_double(v3.f1)))));
  S0 v5;
  float v6 = (((float)v1.f1) / ((float)v5.f1));
  float v7 = (((-((float)v2)) * (v3.f2 + convert_float(v4))) * as_float(add_uint(8u, convert_uint(in_uint_float(v6)))));
  gs_barrier();
  gs_barrier();
  gs_barrier();
  v4 = (ushort)(lm[(lid + 18u) % 64u] + lacc[6]);
  gs_barrier();
  v7 = (-((((float)v2) * ((float)cb[11])) * ((v3.f2 != (0.015625f)) ? v6 : ((float)v4))));
  if ((((short)lid)) > (((short)(((short)in_short_float(v5.f2)) | ((short)v4))))) {
    v3.f0 = ((((float)((ushort)gp[(((ulong)((uint)v4))) % 8UL])) == (((float3)(convert_float(gid), convert_float(cb[9]), (0.015625f)))).s0) ? convert_long((((ulong2)(((ulong)in_ulong_double(v1.f1)), ((ulong)cb[13])))).s0) : convert_long(cb[10]));
    gp[(((ulong)(((uint4)(lid))).s0)) % 8UL] = 0u;
    if ((((ulong)lid)) > (((ulong)in_ulong_double(v3.f1)))) {
      if ((add_ushort(((ushort)(((int3)(641218589, ((int)in[(cb[8]) % 256u]), ((int)v1.f0)))).s2), ((((char)in_char_float(v7)) >= ((char)in[(((uint)in_uint_float(v6))) % 256u])) ? ((ushort)3970) : ((ushort)in_ushort_float(v7))))) <= (((ushort)(((ulong3)(32UL, ((ulong)v2), ((ulong)gp[(((ulong)v3.f0)) % 8UL])))).s2))) {
        v1.f2 = ((-v6) / (-((float)v2)));
      } else {
        gs_atomic_or_g(&acc[6], (((uint8)(convert_uint(in_uint_double(((double)v6)))))).s6);
      }
    }
  }
  v5.f1 = convert_double(((uint)((uchar)(((uchar)cb[6]) ^ ((uchar)37)))));
  gs_atomic_add_l(&lacc[5], cb[0]);
  v6 = ((float)gp[(((ulong)v2)) % 8UL]);
  for (uint i9 = 0; i9 < 3; i9 += 1) {
    v3.f3 = ((long)shl_ulong(((ulong)gp[(((uint)in_uint_double(v3.f1))) % 8u]), gid));
    for (uint i10 = 0; i10 < 4; i10 += 1) {
      ulong v11 = convert_ulong(i10);
      for (uint i12 = 0; i12 < (uint)((add_uint(gp[(convert_ulong(in[(10169782503600419666UL) % 256UL])) % 8UL], ((uint)in_uint_float(v6)))) % 5u); i12 += 1) {
        v6 *= (as_float(shr_uint(in[(((ulong)in_ulong_float(v5.f2))) % 256UL], 1u)) * v1.f2);
        v3.f0 = add_long(mod_long(((long)v11), ((long)cb[1])), ((long)(((ulong2)(convert_ulong(i10), convert_ulong(in[(i12) % 256u])))).s1));
        if (lid % 5u == 1u) break;
      }
      h = mix(h, (ulong)v11);
    }
    gp[(((ulong)((uint)v4))) % 8UL] = neg_uint(((uint)(convert_uint(in_uint_float(v6)) ^ ((uint)v2))));
  }
  if (lid % 2u == 0u) {
    switch ((((sub_int((-1628177302), ((int)v4)) == ((convert_uchar(v3.f3) != ((uchar)gid)) ? 2083691261 : ((int)v3.f3))) ? mod_uint(916890835u, 255u) : ((uint)~lid))) % 4u) {
    case 0: {
      v2 = shl_long(v2, ((convert_ushort(gid) > shl_ushort(((((int)in[(convert_ulong(in_ulong_float(v7))) % 256UL]) >= convert_int(in[(convert_ulong(cb[5])) % 256UL])) ? convert_ushort(v5.f3) : convert_ushort(v2)), ((31L > ((long)gid)) ? ((ushort)cb[10]) : ((ushort)in[(((ulong)in_ulong_double(v1.f1))) % 256UL])))) ? ((long)~v2) : ((long)in[(cb[6]) % 256u])));
      v6 += (-(as_float(((uint)v1.f0)) - (-(-2018054.8f))));
    } break;
    case 1: {
      v2 = mul_long(convert_long(in[(((uint)in_uint_double(v1.f1))) % 256u]), div_long(sub_long(convert_long(in_long_float(v7)), ((long)in_long_float(v3.f2))), ((long)gid)));
      if ((((uchar)141)) < (add_uchar(convert_uchar(in_uchar_float(v6)), ((uchar)1)))) {
        v6 = (((float3)(((float)in[(3u) % 256u])))).s2;
        v1.f0 = shr_long(((long)cb[15]), ((long)(((uint8)(((uint)v4)))).s2));
      } else {
        v4 = add_ushort(v4, div_ushort(((ushort)in_ushort_double((((double)v1.f2) * v1.f1))), ((ushort)256)));
        v6 = ((float)mod_uint(((uint)(cb[0] ^ cb[5])), ((uint)in_uint_float(((float)in[(in[(3469491632u) % 256u]) % 256u])))));
        v4 = shl_ushort(v4, sub_ushort(div_ushort(shr_ushort(((ushort)v5.f0), ((ushort)0)), ((ushort)in_ushort_float(v6))), ((ushort)64)));
      }
    } break;
    case 2: {
      v7 = ((float)shl_int(431434842, ((int)3UL)));
      v4 = ((ushort)neg_long(v5.f0));
    }
    default: {
      v4 = sub_ushort(v4, shl_ushort(neg_ushort(mod_ushort(convert_ushort(v1.f3), convert_ushort(gid))), shr_ushort(((convert_uint(v3.f0) == 31u) ? ((ushort)in[(1262485110857671627UL) % 256UL]) : ((ushort)32)), ((ushort)in_ushort_double(v1.f1)))));
    }
    }
  } else {
    if ((shl_uchar(((uchar)in[(16UL) % 256UL]), convert_uchar(in_uchar_float(v7)))) >= (mod_uchar(((uchar)in_uchar_float(v3.f2)), ((uchar)gid)))) {
      gp[(add_ulong(((ulong)in[(((uint)v5.f0)) % 256u]), convert_ulong(in[(convert_uint(v2)) % 256u]))) % 8UL] = ((uint)~div_uint(cb[14], gp[(in[(convert_ulong(lid)) % 256UL]) % 8u]));
      for (uint i13 = 0; i13 < 1; i13 += 1) {
        v2 = sub_long(((long)in_long_float(v7)), neg_long(as_long(((double)v7))));
        v4 = convert_ushort(v1.f0);
        __global uint *v14 = gp + (add_ulong(((ulong)in[(504418789u) % 256u]), 32UL)) % 2UL;
        h = mix(h, (ulong)v14[0]);
        h = mix(h, (ulong)v14[1]);
        h = mix(h, (ulong)v14[2]);
        h = mix(h, (ulong)v14[3]);
        h = mix(h, (ulong)v14[4]);
        h = mix(h, (ulong)v14[5]);
        h = mix(h, (ulong)v14[6]);
        if ((((char)-122)) > (((char)(((char)i13) & convert_char(in_char_float(v6)))))) break;
      }
      v6 = (((float8)((63.5f)))).s5;
    } else {
      v1.f3 = mul_long(shr_long(((long)gp[(convert_uint(v4)) % 8u]), convert_long(in[(((ulong)in[(16UL) % 256UL])) % 256UL])), convert_long(in_long_float(v3.f2)));
      switch ((((uint)in_uint_float((((float)cb[4]) * ((float)in[(15UL) % 256UL]))))) % 4u) {
      case 0: {
        gs_atomic_add_l(&lacc[7], ((uint)in_uint_float(v6)));
        v6 -= ((((float8)((((float)gid) - ((float)v5.f1)), (((float4)(convert_float(in[(31UL) % 256UL]), convert_float(cb[8]), v3.f2, ((float)in[(convert_ulong(cb[9])) % 256UL])))).s1, (((float)gid) / (-5276069.0f)), v5.f2, ((float)gid), (((float)lid) * ((float)in[(convert_ulong(in[(3u) % 256u])) % 256UL])), ((convert_uchar(in[(convert_ulong(lid)) % 256UL]) >= ((uchar)in[(11204652330239223276UL) % 256UL])) ? ((float)gp[(1u) % 8u]) : (0.03125f)), ((486581.4f) * ((float)cb[1]))))).s3 + (0.015625f));
      }
      case 1: {
        v4 = convert_ushort(gid);
        v7 = ((float)v2);
      } break;
      case 2: {
        v1.f3 = convert_long(((((uint8)(in[(((uint)in_uint_float(v5.f2))) % 256u])) + ((uint8)(((uint)v2), 2630716426u, 63u, cb[4], 8u, in[(((ulong)in[(((ulong)in_ulong_float(v5.f2))) % 256UL])) % 256UL], convert_uint(v3.f3), 2u)))).s3);
        gs_atomic_add_l(&lacc[7], 2u);
      } break;
      default: {
        v6 = ((-333046.88f) * as_float(in[(64UL) % 256UL]));
        v7 = ((v7 / (-convert_float(cb[10]))) * ((float)v1.f0));
      }
      }
    }
    gs_atomic_add_l(&lacc[5], as_uint(convert_float(v3.f0)));
    v6 *= as_float(neg_uint(add_uint(31u, cb[1])));
  }
  h = mix(h, (ulong)v1.f0);
  h = mix(h, dbits(v1.f1));
  h = mix(h, fbits(v1.f2));
  h = mix(h, (ulong)v1.f3);
  h = mix(h, (ulong)v2);
  h = mix(h, (ulong)v3.f0);
  h = mix(h, dbits(v3.f1));
  h = mix(h, fbits(v3.f2));
  h = mix(h, (ulong)v3.f3);
  h = mix(h, (ulong)(uint)v4);
  h = mix(h, (ulong)v5.f0);
  h = mix(h, dbits(v5.f1));
  h = mix(h, fbits(v5.f2));
  h = mix(h, (ulong)v5.f3);
  h = mix(h, fbits(v6));
  h = mix(h, fbits(v7));
  out[gid] = h;
}
