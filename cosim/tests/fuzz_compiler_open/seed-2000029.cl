// reduced from seed 2000029 (inputs: cosim::fuzz::clgen::exec::inputs(2000029)): wave32 -O1: buffer out differs, first at byte 8: [5c, ef, 63, 7a, c3, b2, a2, 90] (clang) vs [cc, fe, 22, 94, ca, 31, 32, af] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
double __attribute__((overloadable)) convert_double(uint x) { return (double)x; }
ulong __attribute__((overloadable)) convert_ulong(uint x) { return (ulong)x; }
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
int __attribute__((overloadable)) convert_int(uint x) { return (int)x; }
ulong __attribute__((overloadable)) convert_ulong(double x) { return (ulong)x; }
uint __attribute__((overloadable)) convert_uint(double x) { return (uint)x; }
uint __attribute__((overloadable)) convert_uint(long x) { return (uint)x; }
double __attribute__((overloadable)) convert_double(ulong x) { return (double)x; }
double __attribute__((overloadable)) convert_double(int x) { return (double)x; }
float __attribute__((overloadable)) convert_float(double x) { return (float)x; }
ushort __attribute__((overloadable)) convert_ushort(int x) { return (ushort)x; }
float __attribute__((overloadable)) convert_float(short x) { return (float)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
double __attribute__((overloadable)) convert_double(float x) { return (double)x; }
ushort __attribute__((overloadable)) convert_ushort(uint x) { return (ushort)x; }
char __attribute__((overloadable)) convert_char(uint x) { return (char)x; }
ulong __attribute__((overloadable)) convert_ulong(float x) { return (ulong)x; }
double __attribute__((overloadable)) convert_double(long x) { return (double)x; }
ushort __attribute__((overloadable)) convert_ushort(double x) { return (ushort)x; }
long __attribute__((overloadable)) convert_long(uint x) { return (long)x; }
long __attribute__((overloadable)) convert_long(int x) { return (long)x; }
ulong __attribute__((overloadable)) convert_ulong(long x) { return (ulong)x; }
uchar __attribute__((overloadable)) convert_uchar(ulong x) { return (uchar)x; }
float __attribute__((overloadable)) convert_float(ulong x) { return (float)x; }
ushort __attribute__((overloadable)) convert_ushort(ulong x) { return (ushort)x; }
#endif
static char sub_char(char a, char b) { return (char)(a - b); }
static char mod_char(char a, char b) { return b == 0 ? a : (char)(a % b); }
static char shl_char(char a, char b) { return (char)((uint)a << (b & 7)); }
static double in_char_double(double x) { return (x > -129.0 && x < 128.0) ? x : 0.0; }
static uchar add_uchar(uchar a, uchar b) { return (uchar)(a + b); }
static uchar shl_uchar(uchar a, uchar b) { return (uchar)((uint)a << (b & 7)); }
static uchar neg_uchar(uchar a) { return (uchar)(-a); }
static double in_uchar_double(double x) { return (x > -1.0 && x < 256.0) ? x : 0.0; }
static short add_short(short a, short b) { return (short)(a + b); }
static short sub_short(short a, short b) { return (short)(a - b); }
static short mul_short(short a, short b) { return (short)(a * b); }
static short shl_short(short a, short b) { return (short)((uint)a << (b & 7)); }
static float in_short_float(float x) { return (x > -32769.0f && x < 32768.0f) ? x : 0.0f; }
static double in_short_double(double x) { return (x > -32769.0 && x < 32768.0) ? x : 0.0; }
static ushort add_ushort(ushort a, ushort b) { return (ushort)(a + b); }
static ushort mul_ushort(ushort a, ushort b) { return (ushort)((uint)a * (uint)b); }
static ushort shl_ushort(ushort a, ushort b) { return (ushort)((uint)a << (b & 7)); }
static ushort neg_ushort(ushort a) { return (ushort)(-a); }
static double in_ushort_double(double x) { return (x > -1.0 && x < 65536.0) ? x : 0.0; }
static int add_int(int a, int b) { return ((b > 0 && a > INT_MAX - b) || (b < 0 && a < INT_MIN - b)) ? a : a + b; }
static int sub_int(int a, int b) { return ((b < 0 && a > INT_MAX + b) || (b > 0 && a < INT_MIN + b)) ? a : a - b; }
static int mul_int(int a, int b) { long r = (long)a * (long)b; return (r > INT_MAX || r < INT_MIN) ? a : (int)r; }
static int div_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }
static int mod_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }
static int shl_int(int a, int b) { return (int)((uint)a << b); }
static int shr_int(int a, int b) { return a >> b; }
static int neg_int(int a) { return a == INT_MIN ? a : -a; }
static float in_int_float(float x) { return (x >= -2147483648.0f && x < 2147483648.0f) ? x : 0.0f; }
static uint add_uint(uint a, uint b) { return (uint)(a + b); }
static uint sub_uint(uint a, uint b) { return (uint)(a - b); }
static uint div_uint(uint a, uint b) { return b == 0 ? a : (uint)(a / b); }
static uint mod_uint(uint a, uint b) { return b == 0 ? a : (uint)(a % b); }
static uint shr_uint(uint a, uint b) { return a >> b; }
static uint neg_uint(uint a) { return (uint)(-a); }
static double in_uint_double(double x) { return (x > -1.0 && x < 4294967296.0) ? x : 0.0; }
static long add_long(long a, long b) { return ((b > 0 && a > LONG_MAX - b) || (b < 0 && a < LONG_MIN - b)) ? a : a + b; }
static long mul_long(long a, long b) { return ((a > 0 && b > 0 && a > LONG_MAX / b) || (a > 0 && b <= 0 && b < LONG_MIN / a) || (a <= 0 && b > 0 && a < LONG_MIN / b) || (a < 0 && b < 0 && b < LONG_MAX / a)) ? a : a * b; }
static long mod_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }
static double in_long_double(double x) { return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? x : 0.0; }
static ulong add_ulong(ulong a, ulong b) { return (ulong)(a + b); }
static ulong sub_ulong(ulong a, ulong b) { return (ulong)(a - b); }
static ulong mul_ulong(ulong a, ulong b) { return (ulong)(a * b); }
static ulong div_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a / b); }
static ulong mod_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a % b); }
static ulong shl_ulong(ulong a, ulong b) { return (ulong)((ulong)a << b); }
static ulong shr_ulong(ulong a, ulong b) { return a >> b; }
static ulong neg_ulong(ulong a) { return (ulong)(-a); }
static float in_ulong_float(float x) { return (x > -1.0f && x < 18446744073709551616.0f) ? x : 0.0f; }
static double in_ulong_double(double x) { return (x > -1.0 && x < 18446744073709551616.0) ? x : 0.0; }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
static ulong dbits(double x) { return x != x ? 0x7ff8000000000000UL : as_ulong(x); }
typedef struct { short f0; long f1; int f2; } S0;
typedef struct { short f0; ulong f1; } S1;
__kernel void clgen(__global ulong *out, __global const uint *in, __constant uint *cb, __global uint *gbuf, __global uint *acc) {
  size_t gid = gs_global_id(0);
  uint lid = gs_local_id(0);
  __local uint lm[64];
  __local uint lacc[8];
  ulong h = 0x9e3779b97f4a7c15UL;
  __global uint *gp = gbuf + gid * 8;
  lm[lid] = lid * 2654435761u;
  if (lid < 8u) lacc[lid] = lid;
  gs_barrier();
  ulong3 v1 = (((ulong3)(((convert_double(in[(lid) % 256u]) != ((double)in[(0u) % 256u])) ? convert_ulong(gp[(((uint)gid)) % 8u]) : 31UL), ((ulong)(((ulong)gp[(cb[6]) % 8u]) ^ ((ulong)lid))), ((ulong)(255UL & ((ulong)lid))))) - ((ulong3)(((ulong)(10170358451985585501UL & gid)), ((ulong)lid), 5545690357487040144UL)));
  double v2 = ((double)((int)((short)lid)));
  S0 v3;
  v3.f0 = ((((char)gid) > ((char)in[(((ulong)in_ulong_double(v2))) % 256UL])) ? ((short)in[(845956149u) % 256u]) : ((short)in[(cb[12]) % 256u]));
  v3.f1 = ((long)cb[6]);
  v3.f2 = shr_int(convert_int(v1.s0), ((int)gid));
  double v4 = ((convert_int((((uint4)(div_uint(63u, convert_uint(v1.x)), 15u, ((uint)(528009074u & cb[13])), ((uint)(lid | cb[8]))))).s1) != shr_int(((int)(15 ^ ((int)cb[14]))), as_int(((float)v3.f2)))) ? (((convert_double(in[(lid) % 256u]) * (31.0)) >= ((255.0) - convert_double(cb[7]))) ? as_double(((ulong)lid)) : ((double)v1.s0)) : (-((double)cb[11])));
  if (((as_float(lid) / ((80878850.0f) + ((float)v3.f2)))) > ((((float)in[(convert_ulong(in_ulong_double(v4))) % 256UL]) * ((float)in[(convert_ulong(in[(13793333805859707954UL) % 256UL])) % 256UL])))) {
    gs_atomic_add_l(&lacc[5], convert_uint(in_uint_double(v2)));
    for (uint i5 = 0; i5 < (uint)((((uint)(in[(((ulong)in[(((uint)v1.z)) % 256u])) % 256UL] & 64u))) % 5u); i5 += 1) {
      v2 = ((double)in[(32UL) % 256UL]);
      gs_atomic_add_g(&acc[5], convert_uint(((long)in_long_double((2.60770320892334e-8)))));
      if (lid % 4u == 0u) break;
    }
    v4 *= ((convert_double(gid) * (((double)lid) / ((double)gid))) / (-(((double)gp[(convert_uint(v1.s2)) % 8u]) * convert_double(lid))));
  } else {
    for (uint i6 = 0; i6 < (uint)((2994969498u) % 5u); i6 += 1) {
      gs_atomic_add_g(&acc[5], convert_uint(v1.y));
    }
    for (long i7 = 0; i7 < (long)((as_uint(((float)v2))) % 5u); i7 += 1) {
      gs_atomic_add_l(&lacc[0], gp[(2u) % 8u]);
      float v8 = ((float)neg_uchar(((uchar)(((uchar)gp[(8197659314174001032UL) % 8UL]) & convert_uchar(lid)))));
      h = mix(h, fbits(v8));
    }
    v2 += ((convert_double(cb[15]) * ((double)(((float8)(((float)gp[(((ulong)in_ulong_double(v4))) % 8UL]), (55106650.0f), ((float)v4), ((float)v4), (99303250.0f), (3.96875f), ((float)v2), ((float)in[(64u) % 256u])))).s5)) - ((5.4569682106375694e-11) * (v4 + ((double)gp[(((ulong)in[(31UL) % 256UL])) % 8UL]))));
  }
  for (int i9 = 0; i9 < 4; i9++) {
    gs_atomic_umax_g(&acc[4], ((uint)(neg_uint(((uint)v1.y)) ^ ((uint)(convert_uint(v1.s0) ^ ((uint)i9))))));
    if (((-((0.5) + ((double)cb[15])))) == ((11387164026.51134))) {
      for (int i10 = 0; i10 < 1; i10++) {
        v2 += (-((double)(((float2)((26439074.0f), (((float)cb[11]) - (-10353481.0f))))).s0));
        v4 *= ((((((short)gp[(2u) % 8u]) >= shl_short(v3.f0, convert_short(in[(((ulong)in_ulong_double(v2))) % 256UL]))) ? neg_int(((int)cb[3])) : div_int(convert_int(cb[8]), convert_int(cb[12]))) < 1516614480) ? ((double)mul_ulong(32UL, ((ulong)gp[(((ulong)cb[14])) % 8UL]))) : ((((short)(convert_short(lid) ^ v3.f0)) == sub_short(((short)i9), ((short)17961))) ? ((7.0) + (9.5367431640625e-7)) : (convert_double(i10) * ((double)cb[9]))));
      }
      v3.f1 = ((long)(add_long(((long)v1.x), ((long)i9)) & ((long)cb[8])));
    }
    gp[(((ulong)in_ulong_double((-32067330944.790005)))) % 8UL] = sub_uint(2u, shr_uint(15u, convert_uint(in_uint_double(v4))));
    if ((((((int)((ushort)cb[4])) < ((int)in[(convert_ulong(cb[4])) % 256UL])) ? 0u : ((uint)~cb[10]))) < (as_uint(convert_float(v4)))) break;
  }
  switch ((((uint)(((int2)(sub_int(((int)gid), (-132529862)), ((int)(64 ^ 1256319591))))).s0)) % 4u) {
  case 0: {
    if (lid % 5u == 1u) {
      for (int i11 = 0; i11 < (int)((convert_uint((((ulong4)(gid, convert_ulong(in[(1056523913u) % 256u]), gid, 17378132279910814856UL))).s2)) % 5u); i11++) {
        v3.f0 = mul_short(((((ushort)v1.s0) <= convert_ushort(i11)) ? ((short)in[(lid) % 256u]) : ((short)-2796)), ((short)in_short_float((((float2)(convert_float(v3.f0), (7.875f)))).s1)));
        gs_atomic_or_g(&acc[1], ((uint)((8UL != convert_ulong(((int)v3.f0))) ? convert_uchar(in[(6989286287359756499UL) % 256UL]) : ((uchar)255))));
      }
      v2 = convert_double(((int)((char)(((char)~((char)gid)) & mod_char(((char)-1), ((char)29))))));
    } else {
      v1.xzy = ((ulong3)(neg_ulong(((ulong)in[(in[(convert_ulong(in_ulong_double(v2))) % 256UL]) % 256u])), ((((float)cb[0]) < ((float)in[(3u) % 256u])) ? gid : gid), add_ulong(63UL, v1.y)));
      if ((((-(437809180.0f)) * ((float)in[(((ulong)gp[(((uint)in_uint_double(v4))) % 8u])) % 256UL]))) == (convert_float(v3.f0))) {
        gs_atomic_add_g(&acc[0], ((uint)v3.f2));
        short v12 = ((short)8);
        h = mix(h, (ulong)(int)v12);
      } else {
        v4 = ((7.9998779296875) + convert_double((((float4)(((0.24804688f) * ((float)gp[(in[(cb[9]) % 256u]) % 8u])), (((float)v3.f1) + ((float)in[(((ulong)cb[11])) % 256UL])), (((float)lid) - ((float)in[(7UL) % 256UL])), (((float)in[(gid) % 256UL]) / convert_float(lid))))).s1));
        v2 = (v4 / (((((float)cb[2]) * ((float)cb[10])) >= ((-27288032.0f) + ((float)cb[4]))) ? convert_double(((int)((short)in_short_double(v2)))) : (((double)((int)v3.f0)) * v4)));
      }
    }
  } break;
  case 1: {
    if (lid % 4u == 1u) {
      gs_atomic_add_l(&lacc[4], div_uint(((uint)(in[(convert_ulong(in_ulong_double(v2))) % 256UL] ^ ((uint)v3.f2))), ((uint)in_uint_double(v4))));
      for (ulong i13 = 0; i13 < (ulong)((convert_uint((((ulong8)(7UL, ((ulong)lid), v1.z, gid, ((ulong)in_ulong_double(v2)), convert_ulong(lid), 1932041446243803518UL, ((ulong)in_ulong_double(v2))))).s6)) % 5u); i13 += 1) {
        v4 = as_double(shr_ulong(div_ulong(((ulong)gp[(convert_ulong(cb[10])) % 8UL]), convert_ulong(in[(i13) % 256UL])), i13));
      }
      gp[(4440852086446292632UL) % 8UL] = ((uint)((int)in_int_float((((float3)(((float)gp[(((ulong)cb[14])) % 8UL]), (0.125f), (-1002504.1f)))).s2)));
    } else {
      if (lid % 3u == 0u) {
        double v14 = as_double(sub_ulong(((ulong)in_ulong_double(v4)), ((((uchar)in_uchar_double(v2)) != ((uchar)in[(gp[(convert_ulong(in_ulong_double(v4))) % 8UL]) % 256u])) ? convert_ulong(in_ulong_double(v2)) : convert_ulong(cb[7]))));
        h = mix(h, dbits(v14));
      } else {
        v4 = (((convert_double(gid) + convert_double(in[(((uint)gid)) % 256u])) / ((0.00024318695068359375) - ((double)in[(((ulong)cb[6])) % 256UL]))) / (((-((double)gp[(gid) % 8UL])) == (((double)v1.x) / (4.470348358154297e-8))) ? ((double)(((float2)((4.0f)))).s1) : ((-2.0044658285515267e17) * ((double)in[(((ulong)gp[(935734569u) % 8u])) % 256UL]))));
        gs_atomic_umax_g(&acc[4], as_uint(((float)cb[11])));
      }
      v2 = ((double)v1.s0);
      v2 += convert_double(((uint)neg_ushort(add_ushort(convert_ushort(gp[(((uint)v3.f1)) % 8u]), ((ushort)v1.y)))));
    }
    if ((as_ulong(((double)gid))) <= (((ulong)~11373898015679140621UL))) {
      ulong v15[4];
      v15[0] = div_ulong(((ulong)cb[0]), convert_ulong(in[(2UL) % 256UL]));
      v15[1] = ((ulong)~convert_ulong(in[(((ulong)in[(((ulong)in[(in[(convert_ulong(gp[(((ulong)in_ulong_double(v4))) % 8UL])) % 256UL]) % 256u])) % 256UL])) % 256UL]));
      v15[2] = sub_ulong(((ulong)gp[(65535u) % 8u]), convert_ulong(in_ulong_double(v4)));
      v15[3] = shl_ulong(((ulong)gp[(lid) % 8u]), ((ulong)lid));
      h = mix(h, (ulong)v15[0]);
      h = mix(h, (ulong)v15[1]);
      h = mix(h, (ulong)v15[2]);
      h = mix(h, (ulong)v15[3]);
    } else {
      v3.f2 = ((sub_char(convert_char(gid), ((char)in[(((ulong)cb[3])) % 256UL])) >= ((char)-70)) ? v3.f2 : ((((char)8) >= ((char)in_char_double(v2))) ? ((int)v1.s2) : ((int)cb[7])));
      gs_atomic_add_l(&lacc[5], ((uint)(((((short)in_short_double(v4)) > v3.f0) ? ((uint)v3.f1) : 2450589513u) | ((uint)(((uint)gid) ^ lid)))));
      short v16 = ((short)(((ulong8)(mul_ulong(v1.s0, convert_ulong(in[(((ulong)v3.f2)) % 256UL])), ((ulong)(((ulong)lid) | 7UL)), ((ulong)in_ulong_float((((float3)(convert_float(in[(gid) % 256UL])))).s2)), ((ulong)(v1.y ^ ((ulong)cb[0]))), neg_ulong(255UL), mul_ulong(convert_ulong(in_ulong_double(v2)), ((ulong)((int)v3.f0))), 255UL, neg_ulong(9097667132532660701UL)))).s1);
      h = mix(h, (ulong)(int)v16);
    }
  }
  case 2: {
    v3.f0 = ((short)in_short_double(v2));
  }
  default: {
    v1.s0 = ((((uchar)(((uchar)cb[1]) | ((uchar)85))) != add_uchar(((uchar)v1.s2), ((uchar)v1.s0))) ? ((ulong)cb[8]) : gid);
  }
  }
  __global uint *v17 = gp + (((((uchar)in_uchar_double(v2)) > ((uchar)v1.s0)) ? convert_ulong(cb[4]) : convert_ulong(in[(lid) % 256u]))) % 4UL;
  v1.xy = ((ulong2)(gid, mod_ulong(((ulong)in_ulong_double(v2)), convert_ulong(in[(2847526015u) % 256u]))));
  if (lid % 5u == 0u) {
    gs_atomic_add_g(&acc[0], ((uint)((ushort)57550)));
    __global uint *v18 = gp + (shr_ulong(((ulong)gp[(convert_uint(v3.f1)) % 8u]), 15UL)) % 1UL;
    v2 = (((double)v3.f1) * ((double)v18[(convert_ulong(cb[10])) % 8UL]));
    h = mix(h, (ulong)v18[0]);
    h = mix(h, (ulong)v18[1]);
    h = mix(h, (ulong)v18[2]);
    h = mix(h, (ulong)v18[3]);
    h = mix(h, (ulong)v18[4]);
    h = mix(h, (ulong)v18[5]);
    h = mix(h, (ulong)v18[6]);
    h = mix(h, (ulong)v18[7]);
  } else {
    switch ((((uint)(2u & ((uint)v3.f1)))) % 4u) {
    case 0: {
      v1.yxz = ((ulong3)(shl_ulong(v1.z, 3UL)));
    } break;
    case 1: {
      if (lid % 3u == 0u) {
        float v19 = ((float)gp[(((ulong)((int)v3.f0))) % 8UL]);
        h = mix(h, fbits(v19));
      } else {
        v3.f2 = as_int((((float)gp[(16u) % 8u]) - convert_float(gp[(((uint)in_uint_double(v2))) % 8u])));
        v4 -= (9.387731552124023e-7);
      }
    } break;
    case 2: {
      v17[(((ulong)(((ulong)in_ulong_double(v4)) | 255UL))) % 5UL] = cb[7];
      v4 += ((as_double(convert_ulong(in_ulong_double(v2))) - v2) - (-(convert_double(v17[(244412784446706179UL) % 5UL]) * (57642380.01483573))));
    } break;
    default: {
      if ((v1.z) < (((ulong)~9444037568091491474UL))) {
        v4 = ((double)cb[7]);
        v4 = ((double)(((float8)(((0.984375f) + ((float)v4)), ((float)v3.f0), ((float)gid), convert_float(gp[(15724823324260884138UL) % 8UL]), as_float(255u), ((float)((short)cb[8])), as_float(3170102974u), ((float)lid)))).s2);
        gs_atomic_add_l(&lacc[5], convert_uint(v1.y));
      }
      if ((as_float(in[(((ulong)in_ulong_double(v2))) % 256UL])) < ((-((float)lid)))) {
        gs_atomic_add_g(&acc[5], ((uint)(mod_uint(((uint)in_uint_double(v2)), 3u) | add_uint(gp[(in[(lid) % 256u]) % 8u], v17[(((ulong)cb[5])) % 5UL]))));
        v3.f0 = ((short)cb[9]);
        v3.f0 = ((short)lid);
      } else {
        v1 = ((ulong3)(shr_ulong(gid, 3UL), ((ulong)~convert_ulong(in[(((ulong)in_ulong_double(v4))) % 256UL])), ((ulong)(((ulong)in_ulong_double(v2)) ^ 7UL))));
      }
    }
    }
    v2 += (-(-(((double)lid) * (7.450580596923828e-9))));
    for (long i20 = 0; i20 < 2; i20 += 1) {
      v3.f0 = ((short)~((short)gp[(8UL) % 8UL]));
      for (ulong i21 = 0; i21 < 2; i21 += 1) {
        v2 -= ((double)gp[(convert_ulong(lid)) % 8UL]);
      }
    }
  }
  if ((((char)lid)) != (((((float)v1.x) >= ((float)v2)) ? convert_char(in[(in[(((ulong)lid)) % 256UL]) % 256u]) : ((char)in_char_double(v4))))) {
    v1.xy = ((ulong2)(convert_ulong((((uint2)(15u, 2213335121u))).s0), as_ulong(((double)gp[(v1.x) % 8UL]))));
    v2 = (1.999969482421875);
    for (ulong i22 = 0; i22 < 2; i22 += 1) {
      v1 = (((ulong3)(((ulong)((int)((short)127))), neg_ulong(((ulong)cb[9])), mod_ulong(((ulong)in[(((ulong)in[(((uint)in_uint_double(v4))) % 256u])) % 256UL]), v1.s0))) & (v1 ^ v1));
      __global uint *v23 = gp + (((ulong)(((ulong)in[(((uint)in_uint_double(v4))) % 256u]) | i22))) % 4UL;
      h = mix(h, (ulong)v23[0]);
      h = mix(h, (ulong)v23[1]);
      h = mix(h, (ulong)v23[2]);
      h = mix(h, (ulong)v23[3]);
      h = mix(h, (ulong)v23[4]);
    }
  }
  v1.yzx = ((ulong3)(convert_ulong(in_ulong_float((((float4)(convert_float(cb[10])))).s3)), neg_ulong(((ulong)cb[12])), ((ulong)~3UL)));
  if ((shl_ushort(neg_ushort(convert_ushort(v3.f2)), ((ushort)(((uint2)(2400277704u, cb[0]))).s1))) != (((ushort)(((ulong4)(8081755702840222198UL, ((ulong)in[(15u) % 256u]), ((ulong)v17[(0u) % 5u]), ((ulong)in[(((ulong)lid)) % 256UL])))).s3))) {
    if (((((float)gp[(convert_ulong(cb[10])) % 8UL]) + (((float)cb[14]) * (0.4375f)))) <= ((((float)v17[(v1.s1) % 5UL]) * ((float)v1.z)))) {
      short v24 = ((short)(((int3)(add_int(((int)v1.s1), (-1969308611)), ((int)(convert_int(cb[11]) | ((int)cb[14]))), ((int)in[(v17[(16u) % 5u]) % 256u])))).s0);
      h = mix(h, (ulong)(int)v24);
    } else {
      for (long i25 = 0; i25 < (long)((shr_uint(3888041997u, ((uint)gid))) % 5u); i25 += 1) {
        v4 = (((((float)i25) <= convert_float(v3.f0)) ? ((double)(((float4)(((float)v2), ((float)gp[(convert_uint(i25)) % 8u]), ((float)v1.y), ((float)cb[1])))).s0) : (convert_double(v3.f1) / ((double)lid))) * ((convert_double(v17[(gp[(in[(in[(lid) % 256u]) % 256u]) % 8u]) % 5u]) + v4) * ((0.001953125) / convert_double(cb[13]))));
        v4 = v2;
        v3.f1 = as_long(convert_double((((float3)((0.99609375f), ((float)i25), ((float)lid)))).s1));
      }
    }
    S0 v26;
    v26.f0 = add_short(((short)cb[10]), ((short)18773));
    v26.f1 = ((long)in[(((ulong)in[(((ulong)in[(cb[11]) % 256u])) % 256UL])) % 256UL]);
    v26.f2 = mul_int(((int)v1.s0), convert_int(gid));
    h = mix(h, (ulong)(int)v26.f0);
    h = mix(h, (ulong)v26.f1);
    h = mix(h, (ulong)v26.f2);
  }
  v4 += ((neg_ushort(((ushort)in[(cb[11]) % 256u])) < mul_ushort((((0.00048828125f) > ((float)in[(16072582371914182120UL) % 256UL])) ? ((ushort)63658) : convert_ushort(in_ushort_double(v4))), ((ushort)(((ushort)cb[9]) | ((ushort)in[(((uint)gid)) % 256u]))))) ? ((-convert_double(cb[8])) + (2.9103830456733704e-11)) : ((-((double)gid)) / convert_double(cb[10])));
  if (lid % 2u == 0u) {
    if ((2831969051u) != (add_uint(gp[(((uint)gid)) % 8u], ((uint)v3.f0)))) {
      for (long i27 = 0; i27 < (long)((v17[(gid) % 5UL]) % 5u); i27 += 1) {
        v3.f1 = mod_long(add_long(convert_long(in[(((uint)gid)) % 256u]), 127L), ((long)(convert_long(((int)v3.f0)) ^ 64L)));
        v4 = (as_double(shl_ulong(convert_ulong(cb[11]), convert_ulong(i27))) * ((convert_double(cb[1]) * ((double)lid)) * (1.8477439880371094e-6)));
        gs_atomic_add_l(&lacc[0], 127u);
      }
    }
    float2 v28 = ((float2)((((float)v1.y) / ((float)gid)), ((2214409.0f) * (0.060546875f))));
    v1.xzy = v1;
    h = mix(h, fbits(v28.s0));
    h = mix(h, fbits(v28.s1));
  } else {
    if (lid % 3u == 0u) {
      v3.f2 = shl_int(mod_int(255, convert_int(gp[(v17[(((ulong)in[(lid) % 256u])) % 5UL]) % 8u])), mod_int(((int)gid), ((int)v3.f0)));
    } else {
      gs_atomic_and_g(&acc[3], ((uint)((uchar)(((uchar)in[(63UL) % 256UL]) ^ ((uchar)in_uchar_double(v4))))));
    }
    v2 *= convert_double((((float3)(((127u > in[(gp[(convert_uint(in_uint_double(v4))) % 8u]) % 256u]) ? ((float)in[(((ulong)((int)v3.f0))) % 256UL]) : convert_float(v17[(convert_ulong(in[(((ulong)cb[4])) % 256UL])) % 5UL]))))).s2);
  }
  if ((shl_uchar(((uchar)(((uchar)v1.x) & convert_uchar(gid))), convert_uchar(v1.y))) > (((uchar)gp[(convert_ulong(v17[(0u) % 5u])) % 8UL]))) {
    uint v29[3];
    v29[0] = ((((char)v17[(convert_ulong(in[(((ulong)v17[(((ulong)v3.f2)) % 5UL])) % 256UL])) % 5UL]) <= convert_char(gp[(7u) % 8u])) ? v17[(cb[5]) % 5u] : gp[(((ulong)cb[11])) % 8UL]);
    v29[1] = cb[7];
    v29[2] = gp[(convert_uint(in_uint_double(v2))) % 8u];
    for (uint i30 = 0; i30 < 4; i30 += 1) {
      v1.s2 = ((add_uint(lid, 32u) >= (((uint4)(in[(((ulong)in[(((ulong)i30)) % 256UL])) % 256UL]))).s0) ? ((((float)gp[(v29[(7555490338792958160UL) % 3UL]) % 8u]) != ((float)cb[12])) ? ((ulong)cb[6]) : 65535UL) : 0UL);
      v3.f2 = shl_int(((int)(((int)cb[11]) & ((int)cb[14]))), convert_int(cb[1]));
    }
    if (((-157700000.0f)) == (convert_float(v1.z))) {
      gs_atomic_add_l(&lacc[3], convert_uint(in_uint_double(v4)));
      v4 += ((convert_double((((float3)(((float)v3.f2)))).s1) / (convert_double(lid) * ((double)cb[8]))) / ((double)cb[15]));
    }
    h = mix(h, (ulong)v29[0]);
    h = mix(h, (ulong)v29[1]);
    h = mix(h, (ulong)v29[2]);
  } else {
    if ((((char)(shl_char(((char)-1), convert_char(cb[15])) ^ shl_char(((char)gid), ((char)1))))) > (((char)v3.f2))) {
      v4 = ((((1.0186340659856796e-10) / (122187352791.76962)) / (v4 * v2)) * (5229688.21363743));
      v2 *= ((double)v1.y);
    } else {
      v4 += as_double(mod_ulong(neg_ulong(v1.s1), as_ulong(((double)cb[1]))));
      for (int i31 = 0; i31 < 1; i31++) {
        v4 -= (((double)v17[(15UL) % 5UL]) * (-(((double)gp[(convert_uint(in_uint_double(v4))) % 8u]) + (-5911198622209.226))));
      }
      if (lid % 4u == 1u) {
        v2 = (convert_double(cb[5]) + convert_double((((float3)(((((char)in[(((uint)in_uint_double(v2))) % 256u]) >= ((char)gid)) ? ((float)v17[(convert_uint(v1.s0)) % 5u]) : (1.9375f)), convert_float(gid), (((float)in[(convert_uint(v3.f1)) % 256u]) + (0.25f))))).s2));
        v4 = convert_double((((float3)((-((float)v17[(convert_ulong(cb[1])) % 5UL])), (((float2)(((float)cb[11]), (61422348.0f)))).s1, (((float)v4) - (2.0f))))).s1);
      }
    }
  }
  v3.f1 = mul_long(convert_long(cb[15]), ((long)(((int8)(7))).s7));
  gs_atomic_xor_g(&acc[2], ((((ushort)(convert_ushort(cb[3]) | convert_ushort(v1.z))) <= ((((float)v3.f2) > convert_float(gp[(in[(((uint)gid)) % 256u]) % 8u])) ? convert_ushort(cb[4]) : ((ushort)44950))) ? ((uint)((short)in[(65535UL) % 256UL])) : as_uint(((float)gid))));
  h = mix(h, (ulong)v1.s0);
  h = mix(h, (ulong)v1.s1);
  h = mix(h, (ulong)v1.s2);
  h = mix(h, dbits(v2));
  h = mix(h, (ulong)(int)v3.f0);
  h = mix(h, (ulong)v3.f1);
  h = mix(h, (ulong)v3.f2);
  h = mix(h, dbits(v4));
  h = mix(h, (ulong)v17[0]);
  h = mix(h, (ulong)v17[1]);
  h = mix(h, (ulong)v17[2]);
  h = mix(h, (ulong)v17[3]);
  h = mix(h, (ulong)v17[4]);
  out[gid] = h;
}
