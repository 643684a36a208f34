// reduced from seed 2000584 (inputs: cosim::fuzz::clgen::exec::inputs(2000584)): wave32 -O1: buffer out differs, first at byte 0: [ac, 66, d5, 47, 51, f7, 59, 2c] (clang) vs [ec, 5c, ff, 3c, b6, 26, b3, 26] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
int __attribute__((overloadable)) convert_int(ulong x) { return (int)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
uint __attribute__((overloadable)) convert_uint(int x) { return (uint)x; }
ushort __attribute__((overloadable)) convert_ushort(ulong x) { return (ushort)x; }
float __attribute__((overloadable)) convert_float(int x) { return (float)x; }
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
float4 __attribute__((overloadable)) convert_float4(int4 x) { return __builtin_convertvector(x, float4); }
ushort __attribute__((overloadable)) convert_ushort(uint x) { return (ushort)x; }
char __attribute__((overloadable)) convert_char(ulong x) { return (char)x; }
ushort __attribute__((overloadable)) convert_ushort(int x) { return (ushort)x; }
uint2 __attribute__((overloadable)) convert_uint2(uint2 x) { return __builtin_convertvector(x, uint2); }
uint2 __attribute__((overloadable)) convert_uint2(int2 x) { return __builtin_convertvector(x, uint2); }
uint2 __attribute__((overloadable)) convert_uint2(ulong2 x) { return __builtin_convertvector(x, uint2); }
uchar __attribute__((overloadable)) convert_uchar(uint x) { return (uchar)x; }
uint8 __attribute__((overloadable)) convert_uint8(uint8 x) { return __builtin_convertvector(x, uint8); }
int8 __attribute__((overloadable)) convert_int8(uint8 x) { return __builtin_convertvector(x, int8); }
uint __attribute__((overloadable)) convert_uint(float x) { return (uint)x; }
#endif
static uchar sub_uchar(uchar a, uchar b) { return (uchar)(a - b); }
static uchar div_uchar(uchar a, uchar b) { return b == 0 ? a : (uchar)(a / b); }
static uchar mod_uchar(uchar a, uchar b) { return b == 0 ? a : (uchar)(a % b); }
static uchar shr_uchar(uchar a, uchar b) { return (uchar)(a >> (b & 7)); }
static float in_uchar_float(float x) { return (x > -1.0f && x < 256.0f) ? x : 0.0f; }
static ushort add_ushort(ushort a, ushort b) { return (ushort)(a + b); }
static ushort mul_ushort(ushort a, ushort b) { return (ushort)((uint)a * (uint)b); }
static ushort div_ushort(ushort a, ushort b) { return b == 0 ? a : (ushort)(a / b); }
static ushort mod_ushort(ushort a, ushort b) { return b == 0 ? a : (ushort)(a % b); }
static ushort neg_ushort(ushort a) { return (ushort)(-a); }
static float in_ushort_float(float x) { return (x > -1.0f && x < 65536.0f) ? x : 0.0f; }
static int add_int(int a, int b) { return ((b > 0 && a > INT_MAX - b) || (b < 0 && a < INT_MIN - b)) ? a : a + b; }
static int sub_int(int a, int b) { return ((b < 0 && a > INT_MAX + b) || (b > 0 && a < INT_MIN + b)) ? a : a - b; }
static int mul_int(int a, int b) { long r = (long)a * (long)b; return (r > INT_MAX || r < INT_MIN) ? a : (int)r; }
static int mod_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }
static int shl_int(int a, int b) { return (int)((uint)a << b); }
static uint add_uint(uint a, uint b) { return (uint)(a + b); }
static uint sub_uint(uint a, uint b) { return (uint)(a - b); }
static uint div_uint(uint a, uint b) { return b == 0 ? a : (uint)(a / b); }
static uint mod_uint(uint a, uint b) { return b == 0 ? a : (uint)(a % b); }
static uint shl_uint(uint a, uint b) { return (uint)((uint)a << b); }
static uint shr_uint(uint a, uint b) { return a >> b; }
static uint neg_uint(uint a) { return (uint)(-a); }
static float in_uint_float(float x) { return (x > -1.0f && x < 4294967296.0f) ? x : 0.0f; }
static double in_uint_double(double x) { return (x > -1.0 && x < 4294967296.0) ? x : 0.0; }
static ulong add_ulong(ulong a, ulong b) { return (ulong)(a + b); }
static ulong mul_ulong(ulong a, ulong b) { return (ulong)(a * b); }
static ulong mod_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a % b); }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
__kernel void clgen(__global ulong *out, __global const uint *in, __constant uint *cb, __global uint *gbuf, __global uint *acc) {
  size_t gid = gs_global_id(0);
  uint lid = gs_local_id(0);
  __local uint lm[64];
  __local uint lacc[8];
  ulong h = 0x9e3779b97f4a7c15UL;
  __global uint *gp = gbuf + gid * 8;
  gs_barrier();
  ulong2 v1 = ((ulong2)(((ulong)lid), add_ulong(((ulong)gp[(64u) % 8u]), gid)));
  int8 v2 = ((int8)(sub_int(((int)lid), convert_int(in[(((ulong)lid)) % 256UL])), ((int)~convert_int(cb[4])), as_int((0.03125f)), add_int(((int)lid), ((int)gp[(in[(lid) % 256u]) % 8u])), as_int(((float)gp[(1UL) % 8UL])), ((int)gp[(1772305502u) % 8u]), ((int)(((ulong8)(((ulong)gp[(15u) % 8u]), ((ulong)in[(((uint)v1.s0)) % 256u]), ((ulong)lid), gid, convert_ulong(lid), ((ulong)in[(256u) % 256u]), ((ulong)in[(((ulong)cb[13])) % 256UL]), ((ulong)cb[11])))).s2), ((int)lid)));
  int v3 = mul_int(((int)~((int)((char)in[(3760926694u) % 256u]))), mod_int(((int)gp[(9196235107052163821UL) % 8UL]), convert_int(gid)));
  float v4 = as_float(((uint)(((uint)(((ulong2)(convert_ulong(lid), convert_ulong(v2.s3)))).s0) ^ convert_uint(v2.s0))));
  ushort v5 = ((ushort)(div_ushort(((ushort)in_ushort_float(v4)), ((ushort)cb[13])) & convert_ushort(v1.s1)));
  uint3 v6 = ((uint3)(in[(in[(14977599991284684866UL) % 256UL]) % 256u], div_uint(1098549212u, 728467464u), 31u));
  int2 v7 = ((int2)(((int)v1.x), shl_int(((int)gp[(in[(convert_ulong(v6.y)) % 256UL]) % 8u]), ((int)cb[2]))));
  uint2 v8 = (((uint2)(add_uint(lid, ((uint)gid)))) ^ ((uint2)(((uint)(284455382u ^ ((uint)v7.x))), ((uint)(in[(cb[2]) % 256u] | convert_uint(v3))))));
  gs_barrier();
  gs_barrier();
  gs_barrier();
  gs_barrier();
  v2 = convert_int8(convert_uint8(((uint8)(1585357129u, convert_uint(gid), in[(((ulong)v7.s1)) % 256UL], lid, 2470861682u, in[(((ulong)in[(((uint)v3)) % 256u])) % 256UL], lid, cb[10]))));
  gs_barrier();
  gs_barrier();
  h = mix(h, (ulong)v2.s4);
  h = mix(h, (ulong)(uint)v5);
  h = mix(h, (ulong)v6.s0);
  h = mix(h, (ulong)v6.s1);
  h = mix(h, (ulong)v6.s2);
  h = mix(h, (ulong)v7.s0);
  h = mix(h, (ulong)v7.s1);
  h = mix(h, (ulong)v8.s0);
  h = mix(h, (ulong)v8.s1);
  out[gid] = h;
}
