// reduced from seed 2000477 (inputs: cosim::fuzz::clgen::exec::inputs(2000477)): wave32 -O0: buffer out differs, first at byte 0: [31, 22, 9c, 66, f0, 49, 85, bb] (clang) vs [28, 59, 6f, a9, a5, b6, 7b, cf] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
ulong __attribute__((overloadable)) convert_ulong(uint x) { return (ulong)x; }
uint __attribute__((overloadable)) convert_uint(char x) { return (uint)x; }
short __attribute__((overloadable)) convert_short(uint x) { return (short)x; }
double __attribute__((overloadable)) convert_double(uint x) { return (double)x; }
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
float __attribute__((overloadable)) convert_float(double x) { return (float)x; }
ulong __attribute__((overloadable)) convert_ulong(long x) { return (ulong)x; }
float __attribute__((overloadable)) convert_float(uchar x) { return (float)x; }
float __attribute__((overloadable)) convert_float(ulong x) { return (float)x; }
short __attribute__((overloadable)) convert_short(uchar x) { return (short)x; }
int __attribute__((overloadable)) convert_int(uint x) { return (int)x; }
uchar __attribute__((overloadable)) convert_uchar(double x) { return (uchar)x; }
int __attribute__((overloadable)) convert_int(float x) { return (int)x; }
uint8 __attribute__((overloadable)) convert_uint8(ulong8 x) { return __builtin_convertvector(x, uint8); }
uint __attribute__((overloadable)) convert_uint(uchar x) { return (uint)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
char __attribute__((overloadable)) convert_char(uint x) { return (char)x; }
int __attribute__((overloadable)) convert_int(uchar x) { return (int)x; }
short __attribute__((overloadable)) convert_short(ulong x) { return (short)x; }
#endif
static char sub_char(char a, char b) { return (char)(a - b); }
static char div_char(char a, char b) { return b == 0 ? a : (char)(a / b); }
static uchar add_uchar(uchar a, uchar b) { return (uchar)(a + b); }
static uchar sub_uchar(uchar a, uchar b) { return (uchar)(a - b); }
static uchar mul_uchar(uchar a, uchar b) { return (uchar)(a * b); }
static uchar div_uchar(uchar a, uchar b) { return b == 0 ? a : (uchar)(a / b); }
static uchar mod_uchar(uchar a, uchar b) { return b == 0 ? a : (uchar)(a % b); }
static uchar shl_uchar(uchar a, uchar b) { return (uchar)((uint)a << (b & 7)); }
static uchar shr_uchar(uchar a, uchar b) { return (uchar)(a >> (b & 7)); }
static uchar neg_uchar(uchar a) { return (uchar)(-a); }
static double in_uchar_double(double x) { return (x > -1.0 && x < 256.0) ? x : 0.0; }
static short div_short(short a, short b) { return b == 0 ? a : (short)(a / b); }
static float in_short_float(float x) { return (x > -32769.0f && x < 32768.0f) ? x : 0.0f; }
static int mul_int(int a, int b) { long r = (long)a * (long)b; return (r > INT_MAX || r < INT_MIN) ? a : (int)r; }
static float in_int_float(float x) { return (x >= -2147483648.0f && x < 2147483648.0f) ? x : 0.0f; }
static uint add_uint(uint a, uint b) { return (uint)(a + b); }
static uint sub_uint(uint a, uint b) { return (uint)(a - b); }
static uint mul_uint(uint a, uint b) { return (uint)(a * b); }
static uint div_uint(uint a, uint b) { return b == 0 ? a : (uint)(a / b); }
static uint shl_uint(uint a, uint b) { return (uint)((uint)a << b); }
static uint shr_uint(uint a, uint b) { return a >> b; }
static uint neg_uint(uint a) { return (uint)(-a); }
static double in_uint_double(double x) { return (x > -1.0 && x < 4294967296.0) ? x : 0.0; }
static long shl_long(long a, long b) { return (long)((ulong)a << b); }
static ulong add_ulong(ulong a, ulong b) { return (ulong)(a + b); }
static ulong mul_ulong(ulong a, ulong b) { return (ulong)(a * b); }
static ulong shl_ulong(ulong a, ulong b) { return (ulong)((ulong)a << b); }
static ulong shr_ulong(ulong a, ulong b) { return a >> b; }
static float in_ulong_float(float x) { return (x > -1.0f && x < 18446744073709551616.0f) ? x : 0.0f; }
static double in_ulong_double(double x) { return (x > -1.0 && x < 18446744073709551616.0) ? x : 0.0; }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
static ulong dbits(double x) { return x != x ? 0x7ff8000000000000UL : as_ulong(x); }
__kernel void clgen(__global ulong *out, __global const uint *in, __constant uint *cb, __global uint *gbuf, __global uint *acc) {
  size_t gid = gs_global_id(0);
  uint lid = gs_local_id(0);
  __local uint lm[64];
  __local uint lacc[8];
  ulong h = 0x9e3779b97f4a7c15UL;
  __global uint *gp = gbuf + gid * 8;
  gs_barrier();
  __global uint *v1 = gp + (((ulong)in[(convert_ulong(gp[(gp[(65535u) % 8u]) % 8u])) % 256UL])) % 2UL;
  uint v2 = sub_uint(15u, convert_uint(((char)(((ulong8)(((ulong)gp[(((ulong)in[(lid) % 256u])) % 8UL]), 32UL, ((ulong)lid), convert_ulong(cb[6]), 63UL, gid, ((ulong)lid), 15UL))).s5)));
  ulong3 v3 = ((ulong3)(((convert_short(v2) > ((short)255)) ? ((ulong)cb[1]) : ((ulong)gp[(v2) % 8u])), add_ulong(((ulong)v1[(((ulong)cb[5])) % 7UL]), ((ulong)cb[0])), ((ulong)v2)));
  uchar v4 = neg_uchar(convert_uchar(in[(convert_ulong(cb[2])) % 256UL]));
  double v5[4];
  v5[1] = ((((uchar)v2) < ((uchar)v1[(v2) % 7u])) ? ((double)v1[(convert_uint(gid)) % 7u]) : (-16192704178682.752));
  v5[2] = (((double)cb[2]) * (31552238435.985752));
  __global uint *v6 = gp + (((ulong)in_ulong_double(v5[(convert_uint(v3.x)) % 4u]))) % 2UL;
  lm[lid] = ((uint)(div_uint(gp[(31UL) % 8UL], gp[(((ulong)v1[(((ulong)in[(2604552168u) % 256u])) % 7UL])) % 8UL]) | as_uint((0.25f))));
  gs_barrier();
  gs_barrier();
  switch ((in[(convert_ulong(lid)) % 256UL]) % 4u) {
  case 0: {
    v5[(neg_uint(in[(in[(0UL) % 256UL]) % 256u])) % 4u] = (((double)gp[(((ulong)v2)) % 8UL]) + ((double)in[(2369219089u) % 256u]));
  } break;
  case 1: {
  }
  case 2: {
    v4 = ((uchar)cb[7]);
    for (ulong i16 = 0; i16 < (ulong)((gp[(((ulong)lid)) % 8UL]) % 5u); i16 += 1) {
      for (long i17 = 0; i17 < (long)((sub_uint(lid, 3901830267u)) % 5u); i17 += 1) {
        v3.zyx = ((ulong3)(((ulong)(((ulong)v6[(65535UL) % 7UL]) ^ ((ulong)lid)))));
      }
      if ((((ulong)(4839879119637715867UL | ((ulong)(((int3)(2, (-1441231689), convert_int(v4)))).s2)))) != (((ulong)((uint)v4)))) {
        short v18 = ((convert_float(cb[8]) <= as_float(((uint)v3.s1))) ? ((short)in_short_float((((float2)((((float)v3.s1) - (0.5f)), (((float2)(((float)lid), ((float)gid)))).s0))).s0)) : ((short)lid));
        h = mix(h, (ulong)(int)v18);
      } else {
        v2 = shl_uint(v2, neg_uint(((uint)div_short(convert_short(gid), ((short)in[(((ulong)in[(cb[12]) % 256u])) % 256UL])))));
        double *p19 = &v5[0];
        h = mix(h, dbits(*p19));
      }
      if (lid % 6u == 0u) break;
    }
  }
  default: {
    v2 = as_uint(as_float(((((ulong)v2) != 1283121109224592018UL) ? convert_uint(v3.z) : 104167915u)));
    v6[(mul_ulong(0UL, ((ulong)cb[9]))) % 7UL] = ((convert_char(gp[(((uint)gid)) % 8u]) < ((char)64)) ? (((uint3)(lid, convert_uint(v3.z), in[(((ulong)((uint)v4))) % 256UL]))).s2 : ((uint)(((uint)v4) ^ v6[(1UL) % 7UL])));
  }
  }
  gs_atomic_add_l(&lacc[7], shl_uint(div_uint(((uint)v4), v1[(((uint)v3.x)) % 7u]), ((uint)(lid & 1u))));
  lm[lid] = as_uint((0.375f));
  gs_barrier();
  v2 = (uint)(lm[(lid + 44u) % 64u] + lacc[1]);
  gs_barrier();
  v5[(((convert_uchar(cb[8]) != ((uchar)v6[(in[(((uint)gid)) % 256u]) % 7u])) ? ((uint)v4) : 2796446270u)) % 4u] = (((double)in[(in[(((uint)in_uint_double(v5[(3UL) % 4UL]))) % 256u]) % 256u]) * ((0.0) - ((double)gp[(v6[(0UL) % 7UL]) % 8u])));
  h = mix(h, (ulong)v1[0]);
  h = mix(h, (ulong)v1[1]);
  h = mix(h, (ulong)v1[2]);
  h = mix(h, (ulong)v1[3]);
  h = mix(h, (ulong)v1[4]);
  h = mix(h, (ulong)v1[5]);
  h = mix(h, (ulong)v1[6]);
  h = mix(h, (ulong)v2);
  h = mix(h, (ulong)v3.s0);
  h = mix(h, (ulong)v3.s1);
  h = mix(h, (ulong)v3.s2);
  h = mix(h, (ulong)(uint)v4);
  h = mix(h, dbits(v5[0]));
  h = mix(h, dbits(v5[1]));
  h = mix(h, dbits(v5[2]));
  h = mix(h, dbits(v5[3]));
  h = mix(h, (ulong)v6[0]);
  h = mix(h, (ulong)v6[1]);
  h = mix(h, (ulong)v6[2]);
  h = mix(h, (ulong)v6[3]);
  h = mix(h, (ulong)v6[4]);
  h = mix(h, (ulong)v6[5]);
  h = mix(h, (ulong)v6[6]);
  out[gid] = h;
}
