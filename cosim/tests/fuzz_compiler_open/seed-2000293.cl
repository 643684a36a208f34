// reduced from seed 2000293 (inputs: cosim::fuzz::clgen::exec::inputs(2000293)): wave32 -O1: buffer out differs, first at byte 0: [b9, 1d, 63, 67, 5d, 13, fd, 70] (clang) vs [ec, e9, 48, 55, bd, f9, 4d, 49] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
int __attribute__((overloadable)) convert_int(uchar x) { return (int)x; }
int __attribute__((overloadable)) convert_int(ulong x) { return (int)x; }
int __attribute__((overloadable)) convert_int(uint x) { return (int)x; }
short __attribute__((overloadable)) convert_short(int x) { return (short)x; }
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
uint __attribute__((overloadable)) convert_uint(double x) { return (uint)x; }
ulong __attribute__((overloadable)) convert_ulong(uint x) { return (ulong)x; }
ushort __attribute__((overloadable)) convert_ushort(uint x) { return (ushort)x; }
uchar __attribute__((overloadable)) convert_uchar(uint x) { return (uchar)x; }
uchar __attribute__((overloadable)) convert_uchar(float x) { return (uchar)x; }
uchar __attribute__((overloadable)) convert_uchar(int x) { return (uchar)x; }
uint __attribute__((overloadable)) convert_uint(int x) { return (uint)x; }
double __attribute__((overloadable)) convert_double(int x) { return (double)x; }
#endif
static uchar add_uchar(uchar a, uchar b) { return (uchar)(a + b); }
static uchar div_uchar(uchar a, uchar b) { return b == 0 ? a : (uchar)(a / b); }
static uchar mod_uchar(uchar a, uchar b) { return b == 0 ? a : (uchar)(a % b); }
static uchar shl_uchar(uchar a, uchar b) { return (uchar)((uint)a << (b & 7)); }
static float in_uchar_float(float x) { return (x > -1.0f && x < 256.0f) ? x : 0.0f; }
static double in_uchar_double(double x) { return (x > -1.0 && x < 256.0) ? x : 0.0; }
static ushort sub_ushort(ushort a, ushort b) { return (ushort)(a - b); }
static ushort mul_ushort(ushort a, ushort b) { return (ushort)((uint)a * (uint)b); }
static ushort shr_ushort(ushort a, ushort b) { return (ushort)(a >> (b & 7)); }
static float in_ushort_float(float x) { return (x > -1.0f && x < 65536.0f) ? x : 0.0f; }
static double in_ushort_double(double x) { return (x > -1.0 && x < 65536.0) ? x : 0.0; }
static int add_int(int a, int b) { return ((b > 0 && a > INT_MAX - b) || (b < 0 && a < INT_MIN - b)) ? a : a + b; }
static int mul_int(int a, int b) { long r = (long)a * (long)b; return (r > INT_MAX || r < INT_MIN) ? a : (int)r; }
static int div_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }
static uint add_uint(uint a, uint b) { return (uint)(a + b); }
static uint sub_uint(uint a, uint b) { return (uint)(a - b); }
static uint mul_uint(uint a, uint b) { return (uint)(a * b); }
static uint div_uint(uint a, uint b) { return b == 0 ? a : (uint)(a / b); }
static uint mod_uint(uint a, uint b) { return b == 0 ? a : (uint)(a % b); }
static uint shl_uint(uint a, uint b) { return (uint)((uint)a << b); }
static uint shr_uint(uint a, uint b) { return a >> b; }
static uint neg_uint(uint a) { return (uint)(-a); }
static float in_uint_float(float x) { return (x > -1.0f && x < 4294967296.0f) ? x : 0.0f; }
static double in_uint_double(double x) { return (x > -1.0 && x < 4294967296.0) ? x : 0.0; }
static float in_ulong_float(float x) { return (x > -1.0f && x < 18446744073709551616.0f) ? x : 0.0f; }
static double in_ulong_double(double x) { return (x > -1.0 && x < 18446744073709551616.0) ? x : 0.0; }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
static ulong dbits(double x) { return x != x ? 0x7ff8000000000000UL : as_ulong(x); }
typedef struct { uchar f0; int f1; int f2; } S0;
__kernel void clgen(__global ulong *out, __global const uint *in, __constant uint *cb, __global uint *gbuf, __global uint *acc) {
  size_t gid = gs_global_id(0);
  uint lid = gs_local_id(0);
  __local uint lm[64];
  __local uint lacc[8];
  ulong h = 0x9e3779b97f4a7c15UL;
  __global uint *gp = gbuf + gid * 8;
  gs_barrier();
  uchar v1 = ((uchar)gid);
  short v2 = convert_short((((int3)(div_int(64, convert_int(v1)), convert_int(gid), (((int3)(convert_int(cb[14]), convert_int(gp[(((ulong)gp[(3575043402u) % 8u])) % 8UL]), 7))).s2))).s1);
  S0 v3;
  S0 v4;
  float3 v5 = ((float3)(as_float(((uint)v1)), ((-393068.53f) / (63.0f)), ((float)v1)));
  uint v6 = ((uint)v2);
  double v7 = (((double)v5.x) / (((double)cb[3]) - ((double)v6)));
  gs_barrier();
  gs_barrier();
  gs_barrier();
  gs_barrier();
  gs_atomic_or_g(&acc[6], add_uint(shl_uint(convert_uint(v3.f2), cb[6]), mul_uint(convert_uint(in_uint_float(v5.y)), lid)));
  lm[lid] = ((uint)(((int2)(((int)lid), add_int(((int)v6), ((int)in[(((uint)v4.f0)) % 256u]))))).s1);
  gs_barrier();
  v6 = (uint)(lm[(lid + 9u) % 64u] + lacc[6]);
  gs_barrier();
  lm[lid] = mod_uint(sub_uint(((uint)in_uint_double(v7)), convert_uint(in_uint_double(v7))), convert_uint(in_uint_float(v5.z)));
  gs_barrier();
  v1 = (uchar)(lm[(lid + 10u) % 64u] + lacc[3]);
  gs_barrier();
  v7 = ((2.9685907065868378e-8) * (convert_double(cb[15]) / convert_double(((int)((char)v1)))));
  lm[lid] = ((uint)(((ulong2)(63UL, 15425975308330139574UL))).s1);
  gs_barrier();
  v6 = (uint)(lm[(lid + 52u) % 64u] + lacc[0]);
  gs_barrier();
  h = mix(h, (ulong)(uint)v1);
  h = mix(h, (ulong)(int)v2);
  h = mix(h, (ulong)(uint)v3.f0);
  h = mix(h, (ulong)v3.f1);
  h = mix(h, (ulong)v3.f2);
  h = mix(h, (ulong)(uint)v4.f0);
  h = mix(h, (ulong)v4.f1);
  h = mix(h, (ulong)v4.f2);
  h = mix(h, fbits(v5.s0));
  h = mix(h, fbits(v5.s1));
  h = mix(h, fbits(v5.s2));
  h = mix(h, (ulong)v6);
  h = mix(h, dbits(v7));
  out[gid] = h;
}
