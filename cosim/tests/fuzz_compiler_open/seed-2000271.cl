// reduced from seed 2000271 (inputs: cosim::fuzz::clgen::exec::inputs(2000271)): wave32 -O1: buffer out differs, first at byte 2: [7a, a5, 4c, 3d, 38, eb, bf, 22] (clang) vs [7a, a5, cc, f0, c8, ea, bf, a2] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
ulong __attribute__((overloadable)) convert_ulong(uint x) { return (ulong)x; }
char __attribute__((overloadable)) convert_char(uchar x) { return (char)x; }
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
char __attribute__((overloadable)) convert_char(ulong x) { return (char)x; }
short __attribute__((overloadable)) convert_short(float x) { return (short)x; }
uint __attribute__((overloadable)) convert_uint(float x) { return (uint)x; }
int __attribute__((overloadable)) convert_int(float x) { return (int)x; }
char __attribute__((overloadable)) convert_char(float x) { return (char)x; }
long __attribute__((overloadable)) convert_long(uint x) { return (long)x; }
float8 __attribute__((overloadable)) convert_float8(uint8 x) { return __builtin_convertvector(x, float8); }
double __attribute__((overloadable)) convert_double(float x) { return (double)x; }
short __attribute__((overloadable)) convert_short(char x) { return (short)x; }
#endif
static char add_char(char a, char b) { return (char)(a + b); }
static char sub_char(char a, char b) { return (char)(a - b); }
static char mul_char(char a, char b) { return (char)(a * b); }
static char mod_char(char a, char b) { return b == 0 ? a : (char)(a % b); }
static char shl_char(char a, char b) { return (char)((uint)a << (b & 7)); }
static char neg_char(char a) { return (char)(-a); }
static float in_char_float(float x) { return (x > -129.0f && x < 128.0f) ? x : 0.0f; }
static uchar mul_uchar(uchar a, uchar b) { return (uchar)(a * b); }
static uchar div_uchar(uchar a, uchar b) { return b == 0 ? a : (uchar)(a / b); }
static short add_short(short a, short b) { return (short)(a + b); }
static short sub_short(short a, short b) { return (short)(a - b); }
static short mul_short(short a, short b) { return (short)(a * b); }
static short div_short(short a, short b) { return b == 0 ? a : (short)(a / b); }
static short shl_short(short a, short b) { return (short)((uint)a << (b & 7)); }
static float in_short_float(float x) { return (x > -32769.0f && x < 32768.0f) ? x : 0.0f; }
static int add_int(int a, int b) { return ((b > 0 && a > INT_MAX - b) || (b < 0 && a < INT_MIN - b)) ? a : a + b; }
static int mul_int(int a, int b) { long r = (long)a * (long)b; return (r > INT_MAX || r < INT_MIN) ? a : (int)r; }
static float in_int_float(float x) { return (x >= -2147483648.0f && x < 2147483648.0f) ? x : 0.0f; }
static uint add_uint(uint a, uint b) { return (uint)(a + b); }
static uint sub_uint(uint a, uint b) { return (uint)(a - b); }
static uint div_uint(uint a, uint b) { return b == 0 ? a : (uint)(a / b); }
static uint mod_uint(uint a, uint b) { return b == 0 ? a : (uint)(a % b); }
static uint shl_uint(uint a, uint b) { return (uint)((uint)a << b); }
static float in_uint_float(float x) { return (x > -1.0f && x < 4294967296.0f) ? x : 0.0f; }
static ulong add_ulong(ulong a, ulong b) { return (ulong)(a + b); }
static ulong mul_ulong(ulong a, ulong b) { return (ulong)(a * b); }
static ulong div_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a / b); }
static ulong mod_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a % b); }
static ulong shl_ulong(ulong a, ulong b) { return (ulong)((ulong)a << b); }
static float in_ulong_float(float x) { return (x > -1.0f && x < 18446744073709551616.0f) ? x : 0.0f; }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
static ulong dbits(double x) { return x != x ? 0x7ff8000000000000UL : as_ulong(x); }
typedef struct { uchar f0; double f1; short f2; } S0;
__kernel void clgen(__global ulong *out, __global const uint *in, __constant uint *cb, __global uint *gbuf, __global uint *acc) {
  size_t gid = gs_global_id(0);
  uint lid = gs_local_id(0);
  __local uint lm[64];
  __local uint lacc[8];
  ulong h = 0x9e3779b97f4a7c15UL;
  __global uint *gp = gbuf + gid * 8;
  gs_barrier();
  __global uint *v1 = gp + (((ulong)(convert_ulong(gp[(11935162531198905644UL) % 8UL]) ^ gid))) % 1UL;
  char v2 = ((char)(((char)gp[(((ulong)gp[(gp[(gid) % 8UL]) % 8u])) % 8UL]) ^ ((char)gid)));
  char v3 = convert_char(mul_uchar(((uchar)in[(gid) % 256UL]), ((uchar)gid)));
  short v4 = shl_short(((short)64), ((short)v3));
  float v5 = convert_float(div_short(((((int)v4) >= convert_int(in[(((ulong)lid)) % 256UL])) ? v4 : ((short)gid)), mul_short(((short)7), ((short)v3))));
  float2 v6 = convert_float2((((uint2)(gp[(255u) % 8u], ((uint)v3))) << ((uint2)(8u, v1[(((uint)v3)) % 8u]))));
  h = mix(h, fbits(v5));
  out[gid] = h;
}
