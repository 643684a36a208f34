// reduced from seed 1000081 (inputs: cosim::fuzz::clgen::exec::inputs(1000081)): wave32 -O1: buffer out differs, first at byte 48: [9c, ff, af, ef, 01, d5, e4, eb] (clang) vs [4b, 8d, 2a, 8d, 96, 80, eb, a5] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
char __attribute__((overloadable)) convert_char(uint x) { return (char)x; }
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
short __attribute__((overloadable)) convert_short(uint x) { return (short)x; }
float __attribute__((overloadable)) convert_float(ulong x) { return (float)x; }
uint3 __attribute__((overloadable)) convert_uint3(int3 x) { return __builtin_convertvector(x, uint3); }
ushort __attribute__((overloadable)) convert_ushort(char x) { return (ushort)x; }
char __attribute__((overloadable)) convert_char(ulong x) { return (char)x; }
char __attribute__((overloadable)) convert_char(int x) { return (char)x; }
int3 __attribute__((overloadable)) convert_int3(ulong3 x) { return __builtin_convertvector(x, int3); }
long __attribute__((overloadable)) convert_long(uint x) { return (long)x; }
int __attribute__((overloadable)) convert_int(long x) { return (int)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
long __attribute__((overloadable)) convert_long(float x) { return (long)x; }
float __attribute__((overloadable)) convert_float(int x) { return (float)x; }
#endif
static char add_char(char a, char b) { return (char)(a + b); }
static char mul_char(char a, char b) { return (char)(a * b); }
static char mod_char(char a, char b) { return b == 0 ? a : (char)(a % b); }
static char shl_char(char a, char b) { return (char)((uint)a << (b & 7)); }
static char shr_char(char a, char b) { return (char)(a >> (b & 7)); }
static char neg_char(char a) { return (char)(-a); }
static float in_char_float(float x) { return (x > -129.0f && x < 128.0f) ? x : 0.0f; }
static double in_char_double(double x) { return (x > -129.0 && x < 128.0) ? x : 0.0; }
static ushort mul_ushort(ushort a, ushort b) { return (ushort)((uint)a * (uint)b); }
static ushort neg_ushort(ushort a) { return (ushort)(-a); }
static int add_int(int a, int b) { return ((b > 0 && a > INT_MAX - b) || (b < 0 && a < INT_MIN - b)) ? a : a + b; }
static uint add_uint(uint a, uint b) { return (uint)(a + b); }
static uint div_uint(uint a, uint b) { return b == 0 ? a : (uint)(a / b); }
static uint mod_uint(uint a, uint b) { return b == 0 ? a : (uint)(a % b); }
static uint shl_uint(uint a, uint b) { return (uint)((uint)a << b); }
static float in_uint_float(float x) { return (x > -1.0f && x < 4294967296.0f) ? x : 0.0f; }
static double in_uint_double(double x) { return (x > -1.0 && x < 4294967296.0) ? x : 0.0; }
static long add_long(long a, long b) { return ((b > 0 && a > LONG_MAX - b) || (b < 0 && a < LONG_MIN - b)) ? a : a + b; }
static long shl_long(long a, long b) { return (long)((ulong)a << b); }
static float in_long_float(float x) { return (x >= -9223372036854775808.0f && x < 9223372036854775808.0f) ? x : 0.0f; }
static ulong sub_ulong(ulong a, ulong b) { return (ulong)(a - b); }
static ulong div_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a / b); }
static float in_ulong_float(float x) { return (x > -1.0f && x < 18446744073709551616.0f) ? x : 0.0f; }
static double in_ulong_double(double x) { return (x > -1.0 && x < 18446744073709551616.0) ? x : 0.0; }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
typedef struct { int f0; uint f1; } S0;
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
  __global uint *v1 = gp + (((((ushort)0) == ((ushort)2)) ? convert_ulong(in[(gid) % 256UL]) : ((ulong)lid))) % 4UL;
  S0 v2;
  v2.f0 = ((int)~convert_int(v1[(((ulong)cb[8])) % 5UL]));
  v2.f1 = mod_uint(310345228u, 170731594u);
  char v3 = shl_char(((char)(add_char(convert_char(in[(((ulong)cb[14])) % 256UL]), ((char)cb[11])) ^ neg_char(((char)v2.f0)))), mod_char(((char)cb[1]), ((char)in_char_float(convert_float(v1[(((ulong)cb[2])) % 5UL])))));
  float v4 = (((float)convert_short(v1[(0UL) % 5UL])) - (((float)((uchar)213)) * (((-989635727290444978L) == 1L) ? convert_float(gid) : (-832048.44f))));
  __global uint *v5 = gp + (((ulong)lid)) % 1UL;
  uint3 v6 = convert_uint3(((int3)(add_int(((int)in[(((ulong)in_ulong_float(v4))) % 256UL]), ((int)gid)))));
  lm[lid] = ((uint)~((uint)(in[(gp[(((uint)in_uint_float(v4))) % 8u]) % 256u] ^ 7u)));
  gs_barrier();
  v3 = (char)(lm[(lid + 13u) % 64u] + lacc[4]);
  gs_barrier();
  v3 = ((char)(((char)(((convert_ushort(v3) <= ((ushort)gid)) ? convert_char(in[(7u) % 256u]) : ((char)-25)) | convert_char((((ulong8)(8UL))).s6))) | ((char)cb[3])));
  v3 = mod_char(shr_char(mul_char(convert_char(v2.f0), ((char)-25)), ((char)in_char_double((-82571287750.69754)))), ((char)-115));
  gs_atomic_and_g(&acc[3], ((uint)(convert_int3(((ulong3)(15828160297082051662UL, 256UL, ((ulong)lid))))).s1));
  v2.f1 = (((uint3)(((uint)in_uint_float(((float)v6.y)))))).s2;
  if ((div_ulong(((ulong)(((int3)(((int)in[(((ulong)lid)) % 256UL]), ((int)v1[(554108463u) % 5u]), ((int)v6.x)))).s2), ((ulong)in_ulong_double(((double)in[(11178705713384991611UL) % 256UL]))))) < (((ulong)(255UL ^ 2297578614857649621UL)))) {
    gs_atomic_add_l(&lacc[7], cb[9]);
    if (lid % 6u == 0u) {
      if ((((char)v5[(1840948471u) % 8u])) == (((char)in[(((ulong)lid)) % 256UL]))) {
        v4 -= ((float)in[(v2.f1) % 256u]);
        v6.s0 = div_uint(add_uint(((uint)v3), ((uint)in_uint_float(v4))), 51878677u);
      }
    } else {
      v1[(((ulong)in_ulong_double(((double)gp[(v5[(3232598306725809169UL) % 8UL]) % 8u])))) % 5UL] = ((uint)in_uint_double(((double)convert_long(cb[8]))));
    }
  }
  long v7 = ((long)(((int2)((((int4)(7, ((int)in[(((ulong)v2.f1)) % 256UL]), ((int)v2.f1), ((int)cb[2])))).s3, convert_int(2L)))).s0);
  for (int i8 = 0; i8 < 1; i8++) {
    if ((((ulong)v1[(in[(((uint)gid)) % 256u]) % 5u])) > (convert_ulong((((int4)(2, ((int)in[(((uint)v3)) % 256u]), ((int)cb[2]), ((int)v5[(convert_ulong(((int)v3))) % 8UL])))).s1))) {
      v7 = shl_long(v7, convert_long(cb[2]));
    }
    v4 *= (((((float2)(convert_float(cb[3]), ((float)v2.f1))) - ((float2)(((float)gp[(v2.f1) % 8u]), (512751940.0f))))).s0 + ((float)gp[(((ulong)v2.f1)) % 8UL]));
    for (long i9 = 0; i9 < 2; i9 += 1) {
      v7 = convert_long(in_long_float((-convert_float(v1[(gid) % 5UL]))));
    }
  }
  v1[(sub_ulong(((ulong)cb[13]), ((ulong)v5[(12082063129719884440UL) % 8UL]))) % 5UL] = as_uint((((float)v6.x) * (1.984375f)));
  v2.f1 = ((uint)(((uint)((uchar)v1[(((ulong)cb[2])) % 5UL])) | ((uint)in_uint_float(((float)v1[(((uint)v3)) % 5u])))));
  v7 = add_long(v7, ((long)in[(gid) % 256UL]));
  v4 = ((float)mul_ushort(((ushort)(((ushort)cb[12]) | ((ushort)8))), neg_ushort(((ushort)v7))));
  gs_atomic_add_l(&lacc[4], shl_uint(((uint)(v5[(((ulong)v6.x)) % 8UL] & cb[7])), as_uint(convert_float(cb[14]))));
  v4 = ((((((double)v6.s0) == ((double)v2.f0)) ? convert_float(gid) : ((float)v6.s2)) - (((float)cb[10]) * (3.75f))) + (((float)v6.z) * convert_float(v2.f0)));
  h = mix(h, (ulong)v1[0]);
  h = mix(h, (ulong)v1[1]);
  h = mix(h, (ulong)v1[2]);
  h = mix(h, (ulong)v1[3]);
  h = mix(h, (ulong)v1[4]);
  h = mix(h, (ulong)v2.f0);
  h = mix(h, (ulong)v2.f1);
  h = mix(h, (ulong)(int)v3);
  h = mix(h, fbits(v4));
  h = mix(h, (ulong)v5[0]);
  h = mix(h, (ulong)v5[1]);
  h = mix(h, (ulong)v5[2]);
  h = mix(h, (ulong)v5[3]);
  h = mix(h, (ulong)v5[4]);
  h = mix(h, (ulong)v5[5]);
  h = mix(h, (ulong)v5[6]);
  h = mix(h, (ulong)v5[7]);
  h = mix(h, (ulong)v6.s0);
  h = mix(h, (ulong)v6.s1);
  h = mix(h, (ulong)v6.s2);
  h = mix(h, (ulong)v7);
  out[gid] = h;
}
