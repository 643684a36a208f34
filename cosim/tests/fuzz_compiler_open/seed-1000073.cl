// reduced from seed 1000073 (inputs: cosim::fuzz::clgen::exec::inputs(1000073)): wave32 -O1: buffer out differs, first at byte 0: [9a, 11, 81, ab, f2, e5, 02, a4] (clang) vs [cd, 83, cf, e2, ce, b5, f2, 7c] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
int __attribute__((overloadable)) convert_int(uint x) { return (int)x; }
short __attribute__((overloadable)) convert_short(uint x) { return (short)x; }
uchar __attribute__((overloadable)) convert_uchar(ulong x) { return (uchar)x; }
ulong __attribute__((overloadable)) convert_ulong(uint x) { return (ulong)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
ulong __attribute__((overloadable)) convert_ulong(long x) { return (ulong)x; }
char __attribute__((overloadable)) convert_char(ulong x) { return (char)x; }
uint __attribute__((overloadable)) convert_uint(long x) { return (uint)x; }
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
double __attribute__((overloadable)) convert_double(uint x) { return (double)x; }
double __attribute__((overloadable)) convert_double(ulong x) { return (double)x; }
short __attribute__((overloadable)) convert_short(char x) { return (short)x; }
ulong __attribute__((overloadable)) convert_ulong(double x) { return (ulong)x; }
double __attribute__((overloadable)) convert_double(int x) { return (double)x; }
int __attribute__((overloadable)) convert_int(ulong x) { return (int)x; }
float __attribute__((overloadable)) convert_float(char x) { return (float)x; }
ulong2 __attribute__((overloadable)) convert_ulong2(ulong2 x) { return __builtin_convertvector(x, ulong2); }
double __attribute__((overloadable)) convert_double(long x) { return (double)x; }
float __attribute__((overloadable)) convert_float(long x) { return (float)x; }
uint __attribute__((overloadable)) convert_uint(char x) { return (uint)x; }
uint4 __attribute__((overloadable)) convert_uint4(int4 x) { return __builtin_convertvector(x, uint4); }
ulong __attribute__((overloadable)) convert_ulong(float x) { return (ulong)x; }
uchar __attribute__((overloadable)) convert_uchar(double x) { return (uchar)x; }
uint __attribute__((overloadable)) convert_uint(ushort x) { return (uint)x; }
int __attribute__((overloadable)) convert_int(char x) { return (int)x; }
float __attribute__((overloadable)) convert_float(int x) { return (float)x; }
float __attribute__((overloadable)) convert_float(ulong x) { return (float)x; }
uint __attribute__((overloadable)) convert_uint(float x) { return (uint)x; }
long __attribute__((overloadable)) convert_long(int x) { return (long)x; }
uchar __attribute__((overloadable)) convert_uchar(uint x) { return (uchar)x; }
float __attribute__((overloadable)) convert_float(double x) { return (float)x; }
uint __attribute__((overloadable)) convert_uint(int x) { return (uint)x; }
char __attribute__((overloadable)) convert_char(uint x) { return (char)x; }
ulong3 __attribute__((overloadable)) convert_ulong3(ulong3 x) { return __builtin_convertvector(x, ulong3); }
ushort __attribute__((overloadable)) convert_ushort(uint x) { return (ushort)x; }
ushort __attribute__((overloadable)) convert_ushort(ulong x) { return (ushort)x; }
int __attribute__((overloadable)) convert_int(double x) { return (int)x; }
ushort __attribute__((overloadable)) convert_ushort(char x) { return (ushort)x; }
int __attribute__((overloadable)) convert_int(long x) { return (int)x; }
ulong4 __attribute__((overloadable)) convert_ulong4(int4 x) { return __builtin_convertvector(x, ulong4); }
long __attribute__((overloadable)) convert_long(uint x) { return (long)x; }
uint __attribute__((overloadable)) convert_uint(double x) { return (uint)x; }
short __attribute__((overloadable)) convert_short(ulong x) { return (short)x; }
#endif
static char sub_char(char a, char b) { return (char)(a - b); }
static char mod_char(char a, char b) { return b == 0 ? a : (char)(a % b); }
static char shr_char(char a, char b) { return (char)(a >> (b & 7)); }
static char neg_char(char a) { return (char)(-a); }
static float in_char_float(float x) { return (x > -129.0f && x < 128.0f) ? x : 0.0f; }
static double in_char_double(double x) { return (x > -129.0 && x < 128.0) ? x : 0.0; }
static uchar add_uchar(uchar a, uchar b) { return (uchar)(a + b); }
static double in_uchar_double(double x) { return (x > -1.0 && x < 256.0) ? x : 0.0; }
static short div_short(short a, short b) { return b == 0 ? a : (short)(a / b); }
static short mod_short(short a, short b) { return b == 0 ? a : (short)(a % b); }
static ushort mod_ushort(ushort a, ushort b) { return b == 0 ? a : (ushort)(a % b); }
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
static double in_int_double(double x) { return (x >= -2147483648.0 && x < 2147483648.0) ? x : 0.0; }
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
static long mod_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }
static long shl_long(long a, long b) { return (long)((ulong)a << b); }
static long shr_long(long a, long b) { return a >> b; }
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
typedef struct { long f0; float f1; uchar f2; } S0;
typedef struct { long f0; uint f1; ushort f2; uint f3; } S1;
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
  int v1 = mod_int(((((ulong)cb[12]) == shl_ulong(gid, 6432306222161570577UL)) ? mod_int(((int)gid), 2) : ((int)(convert_int(lid) ^ (-404509516)))), ((int)(((ulong8)(div_ulong(((ulong)in[(8UL) % 256UL]), ((ulong)cb[0])), neg_ulong(((ulong)lid)), ((ulong)((int)convert_short(gp[(4270044817u) % 8u]))), convert_ulong(((uint)convert_uchar(gid))), mod_ulong(((ulong)cb[15]), gid), mod_ulong(31UL, 3UL), shl_ulong(((ulong)gp[(((ulong)lid)) % 8UL]), ((ulong)lid)), mul_ulong(((ulong)lid), ((ulong)in[(convert_ulong(gp[(gid) % 8UL])) % 256UL]))))).s0));
  long v2 = add_long(((long)lid), ((long)((int)(((int)in[(((uint)v1)) % 256u]) | 1667973093))));
  char v3 = neg_char(((char)in[(1572188461u) % 256u]));
  ulong8 v4 = ((ulong8)(((ulong)(convert_ulong(in[(1250281839u) % 256u]) & 808973361153446522UL)), convert_ulong(v1), ((ulong)(((ulong)((int)v3)) | convert_ulong(in[(in[(convert_uint(gid)) % 256u]) % 256u]))), mul_ulong(((ulong)lid), convert_ulong(cb[7])), 32UL, ((ulong)((uint)((uchar)63))), ((ulong)~convert_ulong(v2)), ((((char)v1) <= convert_char(gid)) ? gid : 10155166080612957545UL)));
  double v5 = (((((convert_char(gid) > ((char)v1)) ? ((float)v4.s3) : convert_float(gp[(convert_uint(v2)) % 8u])) + ((float)lid)) > ((float)((long)cb[7]))) ? ((convert_double(in[(((uint)v3)) % 256u]) * ((double)cb[11])) + ((double)v1)) : (((((float)lid) > ((float)v3)) ? (1.862645149230957e-9) : ((double)in[(((uint)v2)) % 256u])) * (convert_double(gid) - convert_double(in[(convert_ulong(lid)) % 256UL]))));
  ulong3 v6 = ((ulong3)(convert_ulong(((int)convert_short(v3))), ((ulong)(convert_ulong(in_ulong_double(v5)) | ((ulong)in[(convert_ulong(v2)) % 256UL]))), as_ulong(convert_double(((int)v3)))));
  v4.s6 = ((ulong)~((ulong)(((ulong)cb[10]) & 8493643822358436235UL)));
  v1 = mul_int(v1, shl_int(add_int(((int)gp[(((uint)in_uint_double(v5))) % 8u]), convert_int(cb[11])), ((int)((((uint3)(63u)) * ((uint3)(7u, 2702568157u, convert_uint(v4.s5))))).s1)));
  lm[lid] = convert_uint(v4.s7);
  gs_barrier();
  v2 = (long)(lm[(lid + 12u) % 64u] + lacc[4]);
  gs_barrier();
  v1 = neg_int(((int)in_int_double(as_double(14873666636210662330UL))));
  gs_atomic_add_l(&lacc[2], gp[(convert_uint(v4.s2)) % 8u]);
  int v7 = shr_int(div_int(mul_int(convert_int(gid), ((int)cb[10])), as_int(convert_float(v3))), ((int)(((8u <= cb[8]) ? convert_int(in[(((ulong)((int)v3))) % 256UL]) : convert_int(gid)) | (((int4)(((int)v6.s2), ((int)cb[3]), ((int)v6.s2), ((int)v4.s4)))).s3)));
  for (long i8 = 0; i8 < 4; i8 += 1) {
    double v9 = (-((neg_ushort(((ushort)21784)) != ((ushort)v3)) ? (((double)gp[(((uint)v4.s1)) % 8u]) + convert_double(v1)) : ((double)(((float2)(((float)v4.s7), convert_float(in[(lid) % 256u])))).s1)));
    gs_atomic_xor_g(&acc[7], convert_uint(((v6.zxzx * ((ulong4)(((ulong)in[(65535UL) % 256UL]), convert_ulong(gp[(((ulong)v7)) % 8UL]), ((ulong)gp[(127UL) % 8UL]), ((ulong)((int)v3)))))).s3));
    v5 += ((double)cb[6]);
    h = mix(h, dbits(v9));
    if (lid % 4u == 1u) break;
  }
  switch ((mod_uint(neg_uint(32u), ((uint)v3))) % 4u) {
  case 0: {
    switch ((2891815669u) % 4u) {
    case 0: {
      v7 = shr_int((((int3)(((int)in[(1686115569u) % 256u]), 682225847, ((int)in_int_float((((float3)(((float)v1), (81420.586f), ((float)v1)))).s0))))).s0, add_int(((int)(((ulong3)(v4.s0))).s1), ((int)((short)in[(65535u) % 256u]))));
      v7 = mul_int(v7, mod_int(add_int(mul_int(3, convert_int(v4.s0)), ((int)lid)), add_int(((int)((long)gid)), ((int)in[(((ulong)cb[1])) % 256UL]))));
    } break;
    case 1: {
      v6.zx = (((ulong2)(sub_ulong(convert_ulong(in[(8u) % 256u]), convert_ulong(in[(32UL) % 256UL])), convert_ulong(in[(cb[3]) % 256u]))) * convert_ulong2(((ulong2)(v6.x, ((ulong)in_ulong_double(v5))))));
    } break;
    case 2: {
      v4.s1 = mod_ulong(((ulong)(convert_ulong(v2) ^ v4.s4)), add_ulong(((ulong)cb[9]), 17736857121436270194UL));
    } break;
    default: {
      v4.even = ((ulong4)(as_ulong((6.984919309616089e-10))));
      v4.s4 = ((ulong)(shr_ulong(32UL, 694496604834589173UL) | add_ulong(((ulong)cb[12]), convert_ulong(lid))));
    }
    }
  }
  case 1: {
    v5 = (-(((double)((float)v3)) * ((117725524.99574345) / convert_double(gid))));
    for (long i10 = 0; i10 < 2; i10 += 1) {
      if ((((-((double)v7)) + (((double)gid) * (239923312.34873688)))) < ((((double)cb[8]) * convert_double(i10)))) {
        float v11[3];
        v11[0] = as_float(((uint)v7));
        v11[1] = as_float(lid);
        v11[2] = (((float)v6.s0) + convert_float(i10));
        v5 *= ((neg_char(((char)gp[(convert_ulong(cb[2])) % 8UL])) <= ((char)v1)) ? ((double)(((float4)((((float3)(((float)v7), v11[(((uint)v1)) % 3u], ((float)v4.s5)))).s0, ((0.0625f) * (0.03125f)), (((float)i10) * convert_float(lid)), (v11[(lid) % 3u] * convert_float(v3))))).s2) : (((((float3)((4536323.0f)))).s0 >= ((((ulong)i10) > v6.s0) ? ((float)gp[(in[(64u) % 256u]) % 8u]) : ((float)v6.s2))) ? ((126728823707607.58) * convert_double(v4.s6)) : ((double)in[(cb[1]) % 256u])));
        v11[(((uint)~in[(convert_ulong(v1)) % 256UL])) % 3u] = (-as_float(in[(convert_uint(v3)) % 256u]));
        h = mix(h, fbits(v11[0]));
        h = mix(h, fbits(v11[1]));
        h = mix(h, fbits(v11[2]));
      }
      switch ((as_uint((-((float)v1)))) % 4u) {
      case 0: {
        v4.s1 = add_ulong(div_ulong(((ulong)cb[1]), convert_ulong(v1)), ((ulong)(convert_ulong(in[(((ulong)cb[2])) % 256UL]) ^ ((ulong)((int)v3)))));
        gs_atomic_add_l(&lacc[5], ((uint)~gp[(v4.s1) % 8UL]));
      }
      case 1: {
        v6.s2 = as_ulong((((double)lid) + (-3.8404779556012544e18)));
      } break;
      case 2: {
        v6.s1 = div_ulong(((ulong)(15253235935707905944UL | 2UL)), ((ulong)(((ulong)v2) ^ gid)));
      } break;
      default: {
        v2 = ((long)~((long)(convert_uint4(((int4)(((int)cb[11]), ((int)lid), (-1805454462), (-1796555090))))).s1));
        gs_atomic_add_l(&lacc[2], in[(in[(cb[3]) % 256u]) % 256u]);
      }
      }
    }
  }
  case 2: {
    v6.xz = ((ulong2)(convert_ulong(in_ulong_float(((float)v6.y)))));
    gs_atomic_add_l(&lacc[6], ((convert_uchar(in_uchar_double(v5)) < ((uchar)cb[6])) ? shr_uint(255u, ((uint)v4.s1)) : 16u));
  } break;
  default: {
    v3 = v3;
    for (int i12 = 0; i12 < (int)((((uint)v6.s1)) % 5u); i12++) {
      gs_atomic_add_l(&lacc[7], convert_uint(255L));
      v6.s0 = ((ulong)in_ulong_float(((float)0)));
      uint16 v13 = ((uint16)(convert_uint(((ushort)gid))));
      h = mix(h, (ulong)v13.s0);
      h = mix(h, (ulong)v13.s1);
      h = mix(h, (ulong)v13.s2);
      h = mix(h, (ulong)v13.s3);
      h = mix(h, (ulong)v13.s4);
      h = mix(h, (ulong)v13.s5);
      h = mix(h, (ulong)v13.s6);
      h = mix(h, (ulong)v13.s7);
      h = mix(h, (ulong)v13.s8);
      h = mix(h, (ulong)v13.s9);
      h = mix(h, (ulong)v13.sa);
      h = mix(h, (ulong)v13.sb);
      h = mix(h, (ulong)v13.sc);
      h = mix(h, (ulong)v13.sd);
      h = mix(h, (ulong)v13.se);
      h = mix(h, (ulong)v13.sf);
    }
  }
  }
  v7 = mod_int(convert_int(mul_uint(in[(convert_ulong(cb[7])) % 256UL], in[(convert_uint(v4.s1)) % 256u])), sub_int((((int3)((-215673192)))).s2, add_int(convert_int(v3), ((int)lid))));
  gs_atomic_and_g(&acc[3], convert_uint(in_uint_float((((float8)(((1045633.6f) * (4095.9375f)), as_float(((uint)v7)), ((((double)v7) <= (7.9998779296875)) ? (6858633.5f) : ((float)v1)), (((float4)(((float)gid)))).s3, (((float)v1) * (0.21875f)), (((float8)(((float)v5), ((float)v6.x), ((float)v5), (0.5f), (0.0073242188f), convert_float(v1), ((float)v3), convert_float(gid)))).s5, ((float)v3), ((1033530240.0f) * ((float)lid))))).s4)));
  if ((((((long)v4.s2) != shl_long(((long)lid), convert_long(v7))) ? ((uchar)(-1271592007524134290L)) : ((((double)lid) != (-1.094095601679921e17)) ? convert_uchar(v6.s2) : ((uchar)gp[(64u) % 8u])))) == (add_uchar(convert_uchar(in[(((uint)gid)) % 256u]), ((uchar)123)))) {
    v6.yzx = (v4.s625 >> (((ulong3)(((ulong)v7))) - ((ulong3)(((ulong)in_ulong_double(v5))))));
    v6.zyx = ((ulong3)(((ulong)(3319934012314664928UL ^ convert_ulong(cb[2]))), ((ulong)cb[11]), shl_ulong(((ulong)cb[13]), convert_ulong(((int)v3)))));
    if (lid % 3u == 0u) {
      for (ulong i14 = 0; i14 < (ulong)((sub_uint(convert_uint(v3), ((uint)in_uint_double(v5)))) % 5u); i14 += 1) {
        v2 = sub_long(v2, ((long)~((long)((((0.01171875) >= (-1974461841.687398)) ? 31L : 31L) ^ mul_long(((long)in_long_double(v5)), ((long)v4.s0))))));
      }
      v7 = sub_int(v7, shl_int(((mul_int(((int)in[(((ulong)in_ulong_double(v5))) % 256UL]), ((int)cb[2])) < div_int(((int)gid), v1)) ? div_int(1198280804, 1199949672) : shr_int(((int)v6.s1), 935263443)), ((int)(((convert_float(v5) >= convert_float(cb[6])) ? convert_int(v4.s5) : 64) ^ add_int(64, 162342538)))));
      v4.hi = (((ulong4)(((convert_int(v3) < convert_int(in[(4251460427u) % 256u])) ? 823870691220651836UL : ((ulong)in[(((ulong)((int)v3))) % 256UL])))) - ((ulong4)(convert_ulong(cb[9]), ((ulong)in[(((ulong)v7)) % 256UL]), ((((short)gp[(((ulong)in_ulong_double(v5))) % 8UL]) == ((short)0)) ? ((ulong)gp[(256u) % 8u]) : ((ulong)cb[4])), convert_ulong((((int2)(462841798))).s1))));
    } else {
      v2 = sub_long(mod_long(sub_long(31L, 2L), ((in[(((ulong)cb[15])) % 256UL] < ((uint)gid)) ? ((long)gid) : convert_long(((int)v3)))), ((long)(sub_long(((long)lid), ((long)v4.s3)) & shr_long(((long)gp[(((uint)v4.s3)) % 8u]), 31L))));
    }
  } else {
    v3 = ((char)in_char_double(v5));
    v6.zx = v4.s32;
    v5 += ((double)gp[(in[(convert_uint(v1)) % 256u]) % 8u]);
  }
  lm[lid] = ((uint)((((ulong3)(convert_ulong(gp[(65535u) % 8u]))) >> ((ulong3)(v6.z)))).s2);
  gs_barrier();
  v2 = (long)(lm[(lid + 12u) % 64u] + lacc[6]);
  gs_barrier();
  if ((((long)(((int3)(((((short)17217) >= ((short)v2)) ? 2103504148 : v7), ((((int)v3) >= v7) ? 3 : 32), div_int(31, ((int)in[(convert_uint(gid)) % 256u]))))).s1)) > (((long)(((long)cb[4]) | 691342090191510350L)))) {
    gp[(shl_ulong(((ulong)lid), ((ulong)in_ulong_double(v5)))) % 8UL] = (((uint2)(((uint)(cb[1] & cb[9])), mul_uint(convert_uint(v4.s0), in[(((ulong)in_ulong_double(v5))) % 256UL])))).s0;
    if ((((((uchar)(((uchar)in[(gp[(((uint)in_uint_double(v5))) % 8u]) % 256u]) & ((uchar)cb[11]))) == ((uchar)(((ulong2)(((ulong)in[(((ulong)((int)v3))) % 256UL]), ((ulong)cb[12])))).s1)) ? mod_short(((short)20799), ((short)lid)) : ((short)-14636))) > (div_short(((short)in[(256UL) % 256UL]), ((short)v2)))) {
      v2 = (-5277816747512837710L);
    } else {
      for (long i15 = 0; i15 < 1; i15 += 1) {
        v3 = ((char)(((char)((long)v4.s6)) ^ ((char)(convert_char(v6.s2) & ((char)(convert_char(in[(((uint)v1)) % 256u]) ^ ((char)in[(6935005396007147140UL) % 256UL])))))));
        v6 = (convert_ulong3(v6) + v6);
        gs_atomic_xor_g(&acc[2], ((uint)(neg_uint(4229604542u) ^ ((uint)(((uint)in_uint_double(v5)) ^ cb[2])))));
      }
      if ((((ushort)(((ushort)2) & convert_ushort(gp[(convert_ulong(cb[1])) % 8UL])))) <= (((ushort)(((ushort)gid) | convert_ushort(v6.s2))))) {
        gp[(((ulong)(gid | ((ulong)lid)))) % 8UL] = ((uint)(convert_uint(v2) & ((uint)gid)));
        v1 = mul_int(v1, ((int)gp[(31u) % 8u]));
      } else {
        v6 = (v4.s304 >> ((ulong3)(gid, div_ulong(((ulong)v2), ((ulong)v1)), convert_ulong(in[(2328582567u) % 256u]))));
        v1 = add_int(mod_int(((int)v3), ((convert_uint(v6.s1) < ((uint)in_uint_double(v5))) ? convert_int(lid) : ((int)lid))), (((int8)(((int)cb[14]), shl_int(16, convert_int(cb[6])), shl_int(((int)cb[9]), 3), ((int)~((int)v3)), neg_int(485533688), (-1855356359), as_int(convert_float(lid)), mul_int(((int)in_int_double(v5)), convert_int(in_int_double(v5)))))).s5);
        gp[(8956937569341966225UL) % 8UL] = ((uint)(shr_uint(cb[12], lid) & convert_uint(in_uint_float(convert_float(cb[12])))));
      }
      v3 = ((char)(((char)in_char_float((((float3)(((float)v6.x), (((float)in[(256UL) % 256UL]) - ((float)in[(10494226724622822530UL) % 256UL])), (((float)v7) * ((float)lid))))).s0)) & neg_char(((char)cb[13]))));
    }
    char v16 = ((char)~mod_char(((char)(((char)cb[7]) ^ ((char)in_char_double(v5)))), shr_char(((char)in[(gid) % 256UL]), ((char)v2))));
    h = mix(h, (ulong)(int)v16);
  } else {
    if ((2792917165204570462UL) < (((ulong)lid))) {
      __global uint *v17 = gp + (neg_ulong(convert_ulong(((int)v3)))) % 1UL;
      h = mix(h, (ulong)v17[0]);
      h = mix(h, (ulong)v17[1]);
      h = mix(h, (ulong)v17[2]);
      h = mix(h, (ulong)v17[3]);
      h = mix(h, (ulong)v17[4]);
      h = mix(h, (ulong)v17[5]);
      h = mix(h, (ulong)v17[6]);
      h = mix(h, (ulong)v17[7]);
    }
    v7 = ((int)(((int)~((int)cb[14])) | ((int)(((int)((ulong)gp[(2746312270u) % 8u])) & as_int(((float)lid))))));
    for (int i18 = 0; i18 < 4; i18++) {
      if ((((ushort)(((ulong2)(v6.s1, mod_ulong(v6.s2, ((ulong)cb[15]))))).s0)) > (((ushort)57312))) {
        v7 = add_int(v7, ((mod_ushort(mod_ushort(((ushort)7), ((ushort)in_ushort_double(v5))), convert_ushort(((char)v2))) < ((ushort)8UL)) ? ((int)(((int)(((int)v3) | convert_int(v3))) ^ shr_int(((int)gp[(lid) % 8u]), ((int)v2)))) : as_int((7411566.5f))));
        v7 = add_int(v7, ((int)(((int)v2) | ((int)gid))));
        v4.hi = convert_ulong4((((int4)(((int)in[(convert_ulong(((int)v3))) % 256UL]), ((int)v6.s2), convert_int(v2), ((int)in[(convert_ulong(cb[9])) % 256UL]))) & ((int4)(15))));
      } else {
        gs_atomic_xor_g(&acc[7], 1909837303u);
        v6 = ((ulong3)(shl_ulong(12882727128872330937UL, v6.s0), sub_ulong(convert_ulong(cb[1]), v4.s3), ((ulong)convert_long(gp[(((uint)v2)) % 8u]))));
        gs_atomic_and_g(&acc[3], ((div_ulong(gid, convert_ulong(in[(2UL) % 256UL])) >= ((((char)49) <= ((char)lid)) ? 4963335363757414350UL : v6.z)) ? convert_uint(v3) : div_uint(((uint)v2), ((uint)v4.s0))));
      }
    }
  }
  for (int i19 = 0; i19 < 4; i19++) {
    double v20[4];
    v20[0] = ((double)i19);
    v20[1] = (-((double)cb[11]));
    v20[2] = ((double)(((float2)(((float)v6.y), convert_float(in[(cb[4]) % 256u])))).s1);
    v20[3] = ((double)v7);
    switch ((((uint)in_uint_double(v5))) % 4u) {
    case 0: {
      gs_atomic_add_l(&lacc[7], ((uint)(((uint)(((uint)v7) ^ cb[2])) ^ ((uint)i19))));
    } break;
    case 1: {
      switch ((as_uint(((-10608987.0f) - (0.0009765625f)))) % 4u) {
      case 0: {
        v2 = as_long((((213032111616984.2) - ((double)((int)v3))) + convert_double(((uint)convert_uchar(in_uchar_double(v5))))));
        double *p21 = &v20[2];
        h = mix(h, dbits(*p21));
      } break;
      case 1: {
        v3 = sub_char(v3, ((char)gid));
      }
      case 2: {
        gs_atomic_or_g(&acc[1], add_uint(neg_uint(((uint)in_uint_double(v20[(((uint)in_uint_double(v5))) % 4u]))), convert_uint(in_uint_double(v20[(((ulong)cb[6])) % 4UL]))));
        gs_atomic_add_l(&lacc[4], div_uint(add_uint(4041743540u, ((uint)gid)), sub_uint(((uint)in_uint_double(v5)), 3887365416u)));
      } break;
      default: {
        v20[(((uint)v4.s2)) % 4u] = ((double)gid);
        v6.xz = v4.s32;
      }
      }
      v6.zx = ((ulong2)(1UL, ((convert_short(in[(((ulong)in_ulong_double(v20[(255UL) % 4UL]))) % 256UL]) > convert_short(gid)) ? convert_ulong(cb[10]) : v6.x)));
    } break;
    case 2: {
      for (int i22 = 0; i22 < 2; i22++) {
        gs_atomic_and_g(&acc[3], ((uint)(((((ushort)42409) == ((ushort)v2)) ? ((uint)v3) : ((uint)in_uint_double(v20[(8373710677444274699UL) % 4UL]))) ^ 2455348046u)));
        gs_atomic_add_l(&lacc[0], ((uint)(sub_uint(convert_uint(gid), cb[7]) & cb[4])));
      }
    } break;
    default: {
      if ((((float)v1)) < (((float)convert_double(lid)))) {
        v7 = v1;
      } else {
        gs_atomic_add_l(&lacc[3], ((uint)(((((ulong)cb[3]) >= 15UL) ? convert_uint(v7) : 3432610653u) & ((1000102403294122192L != ((long)in[(((ulong)lid)) % 256UL])) ? ((uint)in_uint_double(v5)) : in[(((ulong)in_ulong_double(v20[(((ulong)v7)) % 4UL]))) % 256UL]))));
      }
      gs_atomic_or_g(&acc[1], as_uint((-((float)in[(convert_uint(i19)) % 256u]))));
    }
    }
    h = mix(h, dbits(v20[0]));
    h = mix(h, dbits(v20[1]));
    h = mix(h, dbits(v20[2]));
    h = mix(h, dbits(v20[3]));
  }
  h = mix(h, (ulong)v1);
  h = mix(h, (ulong)v2);
  h = mix(h, (ulong)(int)v3);
  h = mix(h, (ulong)v4.s0);
  h = mix(h, (ulong)v4.s1);
  h = mix(h, (ulong)v4.s2);
  h = mix(h, (ulong)v4.s3);
  h = mix(h, (ulong)v4.s4);
  h = mix(h, (ulong)v4.s5);
  h = mix(h, (ulong)v4.s6);
  h = mix(h, (ulong)v4.s7);
  h = mix(h, dbits(v5));
  h = mix(h, (ulong)v6.s0);
  h = mix(h, (ulong)v6.s1);
  h = mix(h, (ulong)v6.s2);
  h = mix(h, (ulong)v7);
  out[gid] = h;
}
