// reduced from seed 2000774 (inputs: cosim::fuzz::clgen::exec::inputs(2000774)): wave32 -O1: buffer out differs, first at byte 0: [21, 55, 6a, 94, e4, e8, 1c, 01] (clang) vs [00, ed, 35, 9a, db, f9, d6, 58] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
float __attribute__((overloadable)) convert_float(ulong x) { return (float)x; }
ulong __attribute__((overloadable)) convert_ulong(uint x) { return (ulong)x; }
uint __attribute__((overloadable)) convert_uint(long x) { return (uint)x; }
short __attribute__((overloadable)) convert_short(uint x) { return (short)x; }
int __attribute__((overloadable)) convert_int(ulong x) { return (int)x; }
ulong __attribute__((overloadable)) convert_ulong(long x) { return (ulong)x; }
int __attribute__((overloadable)) convert_int(float x) { return (int)x; }
short __attribute__((overloadable)) convert_short(int x) { return (short)x; }
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
double __attribute__((overloadable)) convert_double(uint x) { return (double)x; }
uchar __attribute__((overloadable)) convert_uchar(double x) { return (uchar)x; }
short __attribute__((overloadable)) convert_short(float x) { return (short)x; }
float __attribute__((overloadable)) convert_float(double x) { return (float)x; }
uint3 __attribute__((overloadable)) convert_uint3(ulong3 x) { return __builtin_convertvector(x, uint3); }
double __attribute__((overloadable)) convert_double(int x) { return (double)x; }
char __attribute__((overloadable)) convert_char(long x) { return (char)x; }
short __attribute__((overloadable)) convert_short(long x) { return (short)x; }
char __attribute__((overloadable)) convert_char(float x) { return (char)x; }
char __attribute__((overloadable)) convert_char(ulong x) { return (char)x; }
uint __attribute__((overloadable)) convert_uint(short x) { return (uint)x; }
double __attribute__((overloadable)) convert_double(float x) { return (double)x; }
int __attribute__((overloadable)) convert_int(uint x) { return (int)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
uint __attribute__((overloadable)) convert_uint(double x) { return (uint)x; }
long __attribute__((overloadable)) convert_long(ulong x) { return (long)x; }
float2 __attribute__((overloadable)) convert_float2(int2 x) { return __builtin_convertvector(x, float2); }
ushort __attribute__((overloadable)) convert_ushort(uint x) { return (ushort)x; }
ulong __attribute__((overloadable)) convert_ulong(double x) { return (ulong)x; }
#endif
static char sub_char(char a, char b) { return (char)(a - b); }
static char mul_char(char a, char b) { return (char)(a * b); }
static char mod_char(char a, char b) { return b == 0 ? a : (char)(a % b); }
static char shr_char(char a, char b) { return (char)(a >> (b & 7)); }
static char neg_char(char a) { return (char)(-a); }
static float in_char_float(float x) { return (x > -129.0f && x < 128.0f) ? x : 0.0f; }
static uchar sub_uchar(uchar a, uchar b) { return (uchar)(a - b); }
static uchar mul_uchar(uchar a, uchar b) { return (uchar)(a * b); }
static uchar div_uchar(uchar a, uchar b) { return b == 0 ? a : (uchar)(a / b); }
static uchar mod_uchar(uchar a, uchar b) { return b == 0 ? a : (uchar)(a % b); }
static float in_uchar_float(float x) { return (x > -1.0f && x < 256.0f) ? x : 0.0f; }
static double in_uchar_double(double x) { return (x > -1.0 && x < 256.0) ? x : 0.0; }
static short mul_short(short a, short b) { return (short)(a * b); }
static short div_short(short a, short b) { return b == 0 ? a : (short)(a / b); }
static short mod_short(short a, short b) { return b == 0 ? a : (short)(a % b); }
static short neg_short(short a) { return (short)(-a); }
static float in_short_float(float x) { return (x > -32769.0f && x < 32768.0f) ? x : 0.0f; }
static double in_short_double(double x) { return (x > -32769.0 && x < 32768.0) ? x : 0.0; }
static float in_ushort_float(float x) { return (x > -1.0f && x < 65536.0f) ? x : 0.0f; }
static int add_int(int a, int b) { return ((b > 0 && a > INT_MAX - b) || (b < 0 && a < INT_MIN - b)) ? a : a + b; }
static int div_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }
static int mod_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }
static float in_int_float(float x) { return (x >= -2147483648.0f && x < 2147483648.0f) ? x : 0.0f; }
static double in_int_double(double x) { return (x >= -2147483648.0 && x < 2147483648.0) ? x : 0.0; }
static uint add_uint(uint a, uint b) { return (uint)(a + b); }
static uint sub_uint(uint a, uint b) { return (uint)(a - b); }
static uint div_uint(uint a, uint b) { return b == 0 ? a : (uint)(a / b); }
static uint mod_uint(uint a, uint b) { return b == 0 ? a : (uint)(a % b); }
static uint shl_uint(uint a, uint b) { return (uint)((uint)a << b); }
static uint shr_uint(uint a, uint b) { return a >> b; }
static float in_uint_float(float x) { return (x > -1.0f && x < 4294967296.0f) ? x : 0.0f; }
static double in_uint_double(double x) { return (x > -1.0 && x < 4294967296.0) ? x : 0.0; }
static long mul_long(long a, long b) { return ((a > 0 && b > 0 && a > LONG_MAX / b) || (a > 0 && b <= 0 && b < LONG_MIN / a) || (a <= 0 && b > 0 && a < LONG_MIN / b) || (a < 0 && b < 0 && b < LONG_MAX / a)) ? a : a * b; }
static long div_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a / b; }
static long shl_long(long a, long b) { return (long)((ulong)a << b); }
static long shr_long(long a, long b) { return a >> b; }
static float in_long_float(float x) { return (x >= -9223372036854775808.0f && x < 9223372036854775808.0f) ? x : 0.0f; }
static ulong add_ulong(ulong a, ulong b) { return (ulong)(a + b); }
static ulong sub_ulong(ulong a, ulong b) { return (ulong)(a - b); }
static ulong mul_ulong(ulong a, ulong b) { return (ulong)(a * b); }
static ulong div_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a / b); }
static ulong mod_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a % b); }
static ulong shl_ulong(ulong a, ulong b) { return (ulong)((ulong)a << b); }
static ulong neg_ulong(ulong a) { return (ulong)(-a); }
static float in_ulong_float(float x) { return (x > -1.0f && x < 18446744073709551616.0f) ? x : 0.0f; }
static double in_ulong_double(double x) { return (x > -1.0 && x < 18446744073709551616.0) ? x : 0.0; }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
static ulong dbits(double x) { return x != x ? 0x7ff8000000000000UL : as_ulong(x); }
typedef struct { short f0; double f1; } S0;
typedef struct { long f0; ulong f1; } S1;
__kernel void clgen(__global ulong *out, __global const uint *in, __constant uint *cb, __global uint *gbuf, __global uint *acc) {
  size_t gid = gs_global_id(0);
  uint lid = gs_local_id(0);
  __local uint lm[64];
  __local uint lacc[8];
  ulong h = 0x9e3779b97f4a7c15UL;
  __global uint *gp = gbuf + gid * 8;
  gs_barrier();
  float16 v1 = ((float16)((convert_float(in[(gid) % 256UL]) * convert_float(gid)), convert_float(gid), (-3168060.3f), ((0.4375f) + (-9545933.0f)), ((2.0f) + ((float)cb[3])), ((float)lid), (3.875f), (convert_float(cb[6]) * (0.1171875f)), (((float2)(convert_float(in[(8999975295203790382UL) % 256UL]), convert_float(gid)))).s0, ((((long)cb[15]) <= convert_long(lid)) ? ((float)lid) : ((float)gid)), convert_float(convert_ulong(cb[0])), (0.0034179688f), ((float)cb[11]), (((float8)(convert_float(gp[(cb[10]) % 8u]), ((float)gid), ((float)lid), convert_float(cb[8]), (1.984375f), convert_float(gp[(((ulong)cb[14])) % 8UL]), ((float)lid), ((float)gid)))).s4, ((float)((uchar)gp[(in[(2948154947u) % 256u]) % 8u])), (3.875f)));
  float v2 = (-convert_float(in[(((ulong)in[(32267057u) % 256u])) % 256UL]));
  ulong v3 = ((ulong)in_ulong_float((((float2)((-((float)gp[(((uint)gid)) % 8u])), (-((float)lid))))).s0));
  long v4 = shl_long(((long)in_long_float(v1.s4)), shr_long(div_long(((long)gid), 7337684099416943947L), as_long(((double)cb[0]))));
  S0 v5;
  gs_atomic_add_g(&acc[5], ((uint)(((uint)v5.f0) & ((uint)(cb[5] & in[(((ulong)gp[(((ulong)in[(63UL) % 256UL])) % 8UL])) % 256UL])))));
  gs_atomic_umax_g(&acc[4], ((((((long)lid) <= v4) ? ((short)v3) : ((short)cb[13])) >= div_short(((short)in[(convert_ulong(in[(((ulong)lid)) % 256UL])) % 256UL]), ((short)27245))) ? convert_uint(in_uint_float(v1.s0)) : ((uint)(cb[10] & ((uint)in_uint_float(v2))))));
  v3 = mul_ulong(v3, mod_ulong(((ulong)((((int2)(((int)v3))) ^ ((int2)(((int)cb[14]), ((int)gid))))).s0), ((ulong)(((uint3)(316594367u, ((uint)in_uint_float(((float)v3))), ((uint)(((uint)v3) ^ cb[6]))))).s2)));
  v3 = ((ulong)~((ulong)~((ulong)(((uint4)(((uint)in_uint_float(v2)), ((uint)in_uint_double(v5.f1)), 1u, lid))).s0)));
  if (((-(v2 * ((float)v4)))) != ((0.0625f))) {
    v2 = ((-(((float8)(((float)gid), ((float)v5.f0), ((float)cb[1]), convert_float(in[(convert_ulong(in[(((uint)in_uint_double(v5.f1))) % 256u])) % 256UL]), ((float)v5.f0), v1.s0, convert_float(in[(8u) % 256u]), ((float)v4)))).s2) * ((convert_float(in[(cb[14]) % 256u]) + v1.s2) * (-((float)cb[9]))));
    short v6[2];
    v6[0] = ((short)20843);
    v6[1] = convert_short((((int4)(convert_int(v3), ((int)in[(convert_ulong(v4)) % 256UL]), convert_int(in_int_float(v1.s9)), ((int)gp[(((ulong)((int)v5.f0))) % 8UL])))).s0);
    h = mix(h, (ulong)(int)v6[0]);
    h = mix(h, (ulong)(int)v6[1]);
  } else {
    double v7 = ((sub_uchar(mod_uchar(((uchar)in[(v3) % 256UL]), ((uchar)cb[3])), ((uchar)(((uchar)cb[2]) | ((uchar)in[(convert_uint(v3)) % 256u])))) == mod_uchar(mul_uchar(((uchar)82), ((uchar)in_uchar_float(v1.s9))), ((uchar)230))) ? (((-63687995303.50435) + (0.00096893310546875)) + v5.f1) : (convert_double(cb[4]) - (((double)gp[(64u) % 8u]) * ((double)v2))));
    if ((div_uchar(((uchar)((char)79)), convert_uchar(in_uchar_double(v5.f1)))) <= (mod_uchar(((uchar)gid), ((uchar)v4)))) {
      v4 = mul_long(v4, ((((((((char)63) < ((char)cb[13])) ? ((short)v4) : ((short)cb[12])) > ((short)(((short)cb[9]) | convert_short(in_short_float(v2))))) ? (((float)v7) * convert_float(v5.f1)) : ((float)in[(convert_ulong(v4)) % 256UL])) > ((float)v7)) ? ((long)(convert_uint3(((ulong3)(((ulong)cb[14]), ((ulong)in[(31u) % 256u]), gid)))).s0) : as_long(convert_double(((int)((char)lid))))));
      gs_atomic_add_l(&lacc[5], ((((ushort)19728) > ((ushort)(((ushort)in_ushort_float(v2)) ^ ((ushort)lid)))) ? convert_uint(gid) : mod_uint(cb[7], ((uint)v3))));
    } else {
      short v8 = neg_short(((short)~((((short)in_short_double(v5.f1)) == ((short)in_short_double(v7))) ? convert_short(in_short_float(v1.sa)) : ((short)in[(((ulong)lid)) % 256UL]))));
      h = mix(h, (ulong)(int)v8);
    }
    h = mix(h, dbits(v7));
  }
  v4 = shl_long(v4, ((long)cb[12]));
  if ((as_float(((uint)in_uint_float(v2)))) >= ((-(0.0625f)))) {
    v1.s8 = (((float)v5.f1) / (((float4)(v1.s1))).s3);
    gs_atomic_add_l(&lacc[5], ((uint)(as_uint(((float)cb[5])) ^ ((uint)(((int4)(((int)v3), ((int)in_int_float(v2)), ((int)cb[1]), ((int)in[(in[(6579927768172052261UL) % 256UL]) % 256u])))).s1))));
    if ((((uint)(((uint)v3) | as_uint(((float)in[(((uint)gid)) % 256u]))))) >= (mod_uint(63u, convert_uint(v4)))) {
      float16 v9 = v1;
      gp[(neg_ulong(convert_ulong(in_ulong_float(v9.s5)))) % 8UL] = cb[8];
      v1 = ((float16)((-((float)in[(8UL) % 256UL]))));
      h = mix(h, fbits(v9.s0));
      h = mix(h, fbits(v9.s1));
      h = mix(h, fbits(v9.s2));
      h = mix(h, fbits(v9.s3));
      h = mix(h, fbits(v9.s4));
      h = mix(h, fbits(v9.s5));
      h = mix(h, fbits(v9.s6));
      h = mix(h, fbits(v9.s7));
      h = mix(h, fbits(v9.s8));
      h = mix(h, fbits(v9.s9));
      h = mix(h, fbits(v9.sa));
      h = mix(h, fbits(v9.sb));
      h = mix(h, fbits(v9.sc));
      h = mix(h, fbits(v9.sd));
      h = mix(h, fbits(v9.se));
      h = mix(h, fbits(v9.sf));
    } else {
      v5.f0 = ((short)(((((char)32) >= convert_char(v4)) ? convert_short(v4) : ((short)v4)) ^ mul_short(((short)in[(convert_ulong(v4)) % 256UL]), ((short)gid))));
      gs_atomic_or_g(&acc[6], div_uint((((uint3)(16u, cb[6], 2u))).s1, ((uint)(((int4)(((int)v3), 63, ((int)in_int_double(v5.f1)), convert_int(in_int_float(v2))))).s3)));
      v2 -= ((31103.965f) - ((((2.3096799850463867e-7) <= convert_double(in[(((uint)in_uint_float(v2))) % 256u])) ? convert_float(gp[(convert_uint(in_uint_float(v1.s9))) % 8u]) : (0.029296875f)) / ((float)v5.f0)));
    }
  }
  lm[lid] = ((uint)in_uint_double(as_double(((ulong)in[(convert_ulong(v4)) % 256UL]))));
  gs_barrier();
  v3 = (ulong)(lm[(lid + 54u) % 64u] + lacc[1]);
  gs_barrier();
  if ((mul_char(((char)(((char)3) | convert_char(in_char_float(v1.s0)))), ((char)in_char_float(v1.s3)))) >= (sub_char(((char)-30), convert_char(v3)))) {
    if (lid % 2u == 1u) {
      uint v10 = add_uint(mod_uint(shr_uint(lid, ((uint)v4)), div_uint(cb[1], convert_uint(v5.f0))), ((uint)v5.f0));
      v3 = (((ulong2)(((ulong)(((ulong)in[(gid) % 256UL]) & ((ulong)gp[(((uint)in_uint_float(v2))) % 8u]))), ((((float)gid) <= ((float)lid)) ? 32UL : ((ulong)v10))))).s1;
      long v11 = ((long)(shr_long(shl_long(convert_long(cb[1]), ((long)in[(((ulong)v10)) % 256UL])), as_long(convert_double(v1.s2))) | ((long)in[(((ulong)gp[(((ulong)v4)) % 8UL])) % 256UL])));
      h = mix(h, (ulong)v10);
      h = mix(h, (ulong)v11);
    } else {
      if ((((((short)~((short)gp[(gid) % 8UL])) != ((short)in_short_float(v2))) ? ((int)cb[15]) : mod_int(convert_int(in[(16UL) % 256UL]), ((int)v3)))) <= (((int)v3))) {
        S1 v12;
        v12.f0 = as_long(((double)gid));
        v12.f1 = sub_ulong(((ulong)cb[10]), ((ulong)in_ulong_double(v5.f1)));
        v12.f1 = ((ulong)in_ulong_float((((float2)(((0.9375f) - (-2461473.0f)), ((65535UL <= ((ulong)gp[(3778949222u) % 8u])) ? ((float)v12.f1) : convert_float(gp[(((ulong)cb[12])) % 8UL]))))).s0));
        h = mix(h, (ulong)v12.f0);
        h = mix(h, (ulong)v12.f1);
      }
    }
    v5.f1 = ((double)mod_int(3, ((int)v4)));
  }
  v1.se = ((((float3)(((float)v5.f0), (28728.16f), (-394259740.0f))) * ((float3)(((float)gid))))).s1;
  if ((convert_ulong(lid)) >= (((ulong)((uint)((uchar)in[(2125914934u) % 256u]))))) {
    gs_atomic_add_l(&lacc[0], ((div_long(((long)gid), ((long)v3)) > ((long)(((int2)(convert_int(in[(((ulong)in_ulong_float(v1.s4))) % 256UL]), 7))).s0)) ? ((((uchar)7) <= ((uchar)1)) ? ((uint)v5.f0) : ((uint)v5.f0)) : 840120853u));
    switch ((as_uint(((float)v3))) % 4u) {
    case 0: {
      if (((-(v1.sa * v2))) != (((float)v3))) {
        v1.s98 = (((float2)(as_float(in[(((ulong)gp[(((ulong)in_ulong_double(v5.f1))) % 8UL])) % 256UL]), (((float)gid) * ((float)cb[8])))) - ((float2)(((3.96875f) / (3.875f)), (((float)gp[(((ulong)in[(2443424563u) % 256u])) % 8UL]) * (-304506.13f)))));
      }
      if ((sub_ulong(((ulong)in_ulong_float(v2)), 1UL)) > (((ulong)((int)v5.f0)))) {
        v1.s9be = ((float3)((0.05859375f), (((float4)(((float)v5.f1)))).s2, (convert_float(in[(v3) % 256UL]) - ((float)v5.f1))));
        v3 = mul_ulong(v3, ((ulong)(add_ulong(((ulong)(65535UL ^ ((ulong)in[(in[(192520340u) % 256u]) % 256u]))), ((ulong)gp[(convert_ulong(((int)v5.f0))) % 8UL])) | ((ulong)(((int8)(((((int)lid) == ((int)cb[7])) ? 7 : ((int)cb[10])), (((int4)(((int)v3), ((int)cb[15]), ((int)v5.f0), 1))).s3, as_int(((float)gp[(((ulong)in_ulong_float(v1.s5))) % 8UL])), ((int)v4), ((int)in_int_float(((float)lid))), add_int(((int)cb[11]), convert_int(in_int_float(v2))), div_int((-518590510), ((int)cb[14])), mod_int((-1689719272), ((int)cb[13]))))).s3))));
      } else {
        v2 = ((float)gid);
        gs_atomic_and_g(&acc[3], sub_uint(((((char)18) < convert_char(v4)) ? in[(8UL) % 256UL] : lid), add_uint(643393039u, in[(convert_ulong(cb[7])) % 256UL])));
      }
    }
    case 1: {
      if ((((uchar)(convert_uchar(in_uchar_float((((float2)(convert_float(in[(gid) % 256UL]), ((float)lid)))).s0)) ^ (((0.5) < (-3.4752042402951265e18)) ? ((uchar)in[(((ulong)in[(convert_uint(in_uint_double(v5.f1))) % 256u])) % 256UL]) : convert_uchar(in[(2044588921u) % 256u]))))) == (((uchar)v4))) {
        char v13[5];
        v13[0] = neg_char(((char)v5.f0));
        v13[1] = ((char)12);
        v13[2] = mod_char(((char)-96), ((char)v4));
        v13[3] = ((char)(((char)8) & ((char)in_char_float(v1.se))));
        v13[4] = shr_char(((char)cb[12]), ((char)in[(((uint)gid)) % 256u]));
        v3 = shl_ulong(v3, ((ulong)(mul_ulong((((ulong4)(gid, ((ulong)in_ulong_float(v2)), 18371122379749356489UL, 65535UL))).s3, 3167363061747673088UL) ^ as_ulong((((4.511093720793724e-10) > ((double)v3)) ? ((double)cb[13]) : ((double)in[(in[(((ulong)cb[13])) % 256UL]) % 256u]))))));
        h = mix(h, (ulong)(int)v13[0]);
        h = mix(h, (ulong)(int)v13[1]);
        h = mix(h, (ulong)(int)v13[2]);
        h = mix(h, (ulong)(int)v13[3]);
        h = mix(h, (ulong)(int)v13[4]);
      } else {
        v4 = div_long(((long)lid), div_long(((long)in_long_float((v1.s3c6).s0)), ((((short)32374) == ((short)-1)) ? ((long)cb[8]) : convert_long(v3))));
        v3 = mul_ulong(v3, shl_ulong(convert_ulong(in_ulong_float(((((float2)(((float)in[(gid) % 256UL]))) - ((float2)((0.109375f), ((float)cb[13]))))).s0)), div_ulong(neg_ulong(((ulong)in[(((uint)v4)) % 256u])), 16794234387944839299UL)));
      }
    }
    case 2: {
      for (uint i14 = 0; i14 < 4; i14 += 1) {
        char v15 = ((char)cb[15]);
        gs_atomic_add_l(&lacc[4], convert_uint(v3));
        v1.sd1 = (convert_float2(((int2)(((int)in[(convert_uint(v3)) % 256u]), 1091700852))) + ((float2)(((10339590.0f) * ((float)cb[11])))));
        h = mix(h, (ulong)(int)v15);
      }
      v4 = convert_long(cb[13]);
    }
    default: {
      v4 = ((long)(((long)gid) ^ ((long)(div_long(7L, ((long)lid)) | shl_long(convert_long(cb[6]), 3L)))));
    }
    }
  } else {
    if ((convert_short(v4)) != (((((ushort)cb[14]) >= convert_ushort(cb[8])) ? ((short)lid) : convert_short(gp[(((ulong)cb[5])) % 8UL])))) {
      gs_atomic_add_l(&lacc[7], convert_uint(mul_long(v4, ((long)in_long_float(v2)))));
      v1 = ((float16)((0.12451172f), (((float)in[(convert_ulong(in_ulong_double(v5.f1))) % 256UL]) / convert_float(lid)), as_float(convert_uint(v4)), (((float)cb[9]) + (127.99805f)), (((float4)(v2))).s3, (convert_float(lid) + (7.0f)), (32.0f), ((float)gp[(255UL) % 8UL]), (-(2.0f)), ((-513205570.0f) / (-359526880.0f)), ((float)((ushort)gp[(((uint)gid)) % 8u])), (((float4)(((float)gp[(15UL) % 8UL]), (-499479.6f), ((float)v5.f1), (-49477710.0f)))).s2, (((float)v5.f1) - (0.03125f)), (((float3)(convert_float(gid)))).s2, (((float)v4) / (-69994060.0f)), (convert_float(gp[(v3) % 8UL]) - (-53066.867f))));
      short v16 = ((short)(convert_short(in_short_float(v2)) ^ neg_short(mul_short(((short)3501), ((short)gp[(gid) % 8UL])))));
      h = mix(h, (ulong)(int)v16);
    }
    for (int i17 = 0; i17 < 2; i17++) {
      gs_atomic_add_l(&lacc[5], shl_uint(8u, ((uint)(((uint)i17) ^ convert_uint(v4)))));
    }
  }
  v1.sa = ((((float)gid) * (422656.28f)) / (((float8)(((float)v3), (1.875f), (2818936.3f), ((float)cb[2]), (31.5f), ((float)cb[11]), ((float)cb[6]), ((float)in[(cb[4]) % 256u])))).s5);
  h = mix(h, fbits(v1.s0));
  h = mix(h, fbits(v1.s1));
  h = mix(h, fbits(v1.s2));
  h = mix(h, fbits(v1.s3));
  h = mix(h, fbits(v1.s4));
  h = mix(h, fbits(v1.s5));
  h = mix(h, fbits(v1.s6));
  h = mix(h, fbits(v1.s7));
  h = mix(h, fbits(v1.s8));
  h = mix(h, fbits(v1.s9));
  h = mix(h, fbits(v1.sa));
  h = mix(h, fbits(v1.sb));
  h = mix(h, fbits(v1.sc));
  h = mix(h, fbits(v1.sd));
  h = mix(h, fbits(v1.se));
  h = mix(h, fbits(v1.sf));
  h = mix(h, fbits(v2));
  h = mix(h, (ulong)v3);
  h = mix(h, (ulong)v4);
  h = mix(h, (ulong)(int)v5.f0);
  h = mix(h, dbits(v5.f1));
  out[gid] = h;
}
