// reduced from seed 1000011 (inputs: cosim::fuzz::clgen::exec::inputs(1000011)): wave32 -O1: buffer out differs, first at byte 3: [98, f7, 94, d0, 35, f6, bb, 87] (clang) vs [98, f7, 94, 9a, 34, f6, 7b, af] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
ulong __attribute__((overloadable)) convert_ulong(uint x) { return (ulong)x; }
float __attribute__((overloadable)) convert_float(ulong x) { return (float)x; }
double __attribute__((overloadable)) convert_double(uint x) { return (double)x; }
ulong __attribute__((overloadable)) convert_ulong(float x) { return (ulong)x; }
uint __attribute__((overloadable)) convert_uint(int x) { return (uint)x; }
char __attribute__((overloadable)) convert_char(uint x) { return (char)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
#endif
static char sub_char(char a, char b) { return (char)(a - b); }
static char mul_char(char a, char b) { return (char)(a * b); }
static float in_ushort_float(float x) { return (x > -1.0f && x < 65536.0f) ? x : 0.0f; }
static int shl_int(int a, int b) { return (int)((uint)a << b); }
static uint mod_uint(uint a, uint b) { return b == 0 ? a : (uint)(a % b); }
static float in_uint_float(float x) { return (x > -1.0f && x < 4294967296.0f) ? x : 0.0f; }
static ulong mul_ulong(ulong a, ulong b) { return (ulong)(a * b); }
static ulong shl_ulong(ulong a, ulong b) { return (ulong)((ulong)a << b); }
static ulong shr_ulong(ulong a, ulong b) { return a >> b; }
static ulong neg_ulong(ulong a) { return (ulong)(-a); }
static float in_ulong_float(float x) { return (x > -1.0f && x < 18446744073709551616.0f) ? x : 0.0f; }
static double in_ulong_double(double x) { return (x > -1.0 && x < 18446744073709551616.0) ? x : 0.0; }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
__kernel void clgen(__global ulong *out, __global const uint *in, __constant uint *cb, __global uint *gbuf, __global uint *acc) {
  size_t gid = gs_global_id(0);
  uint lid = gs_local_id(0);
  ulong h = 0x9e3779b97f4a7c15UL;
  __global uint *gp = gbuf + gid * 8;
  gs_barrier();
  __global uint *v1 = gp + (convert_ulong(cb[6])) % 2UL;
  __global uint *v2 = gp + (shr_ulong(gid, 256UL)) % 4UL;
  int4 v3 = ((int4)(((127u != ((uint)gid)) ? 15 : ((int)v2[(255UL) % 5UL])), ((((uchar)cb[8]) > ((uchar)1)) ? (-174315034) : 255), ((int)v2[(16UL) % 5UL]), shl_int(((int)v1[(((uint)gid)) % 7u]), ((int)v1[(1743027387u) % 7u]))));
  __global uint *v4 = gp + (neg_ulong(256UL)) % 1UL;
  float2 v5 = ((float2)((convert_float(v3.s1) / convert_float(gid))));
  ulong v6 = as_ulong((((double)gp[(lid) % 8u]) / (convert_double(cb[15]) + ((double)gid))));
  ulong3 v7 = ((ulong3)(as_ulong(convert_double(v1[(convert_ulong(in_ulong_float(v5.s1))) % 7UL])), neg_ulong(((ulong)lid)), v6));
  gs_barrier();
  gs_barrier();
    for (int i9 = 0; i9 < 1; i9++) {
      for (int i10 = 0; i10 < 3; i10++) {
        char v11 = ((((ushort)(((ushort)cb[3]) ^ ((ushort)32))) >= ((ushort)in_ushort_float(v5.s1))) ? mul_char(((char)cb[8]), ((char)v7.x)) : ((char)(sub_char(((char)v1[(convert_uint(v3.s1)) % 7u]), convert_char(i9)) & convert_char(cb[2]))));
        h = mix(h, (ulong)(int)v11);
      }
    }
  switch ((((uint)(((uint)(3745111851u & 2991877722u)) | mod_uint(((uint)v7.y), in[(v1[(in[(v6) % 256UL]) % 7u]) % 256u])))) % 4u) {
  case 2: {
    ulong16 v13 = (((ulong16)(((ulong)~((ulong)v4[(0u) % 8u])), ((((long)gid) == ((long)gp[(cb[3]) % 8u])) ? convert_ulong(in[(((ulong)lid)) % 256UL]) : ((ulong)cb[3])), ((ulong)gp[(in[(v4[(in[(convert_ulong(gp[(((uint)v3.w)) % 8u])) % 256UL]) % 8u]) % 256u]) % 8u]), ((ulong)0L), ((ulong)(((int2)(((int)in[(((uint)gid)) % 256u])))).s0), mul_ulong(convert_ulong(in[(((ulong)gp[(in[(((ulong)cb[10])) % 256UL]) % 8u])) % 256UL]), 15UL), ((ulong)in_ulong_double((9.238719940185547e-7))), neg_ulong(1189935292468378803UL), shr_ulong(convert_ulong(in[(9643864011960237564UL) % 256UL]), ((ulong)cb[8])), shr_ulong(convert_ulong(in_ulong_float(v5.x)), v7.s2), as_ulong((2503018929870995.5)), ((ulong)in[(cb[5]) % 256u]), ((((long)cb[2]) > ((long)cb[3])) ? gid : ((ulong)v2[(2971026414u) % 5u])), ((ulong)(((ulong)cb[4]) | ((ulong)v1[(((uint)v7.y)) % 7u]))), ((ulong)~((ulong)in[(cb[4]) % 256u])), shr_ulong(gid, ((ulong)v1[(65535UL) % 7UL])))) | ((ulong16)(((ulong)((long)v6)), convert_ulong(((uint)v6)), (v7).s0, ((ulong)lid), as_ulong(((double)gid)), neg_ulong(((ulong)v4[(((uint)in_uint_float(v5.s1))) % 8u])), convert_ulong(cb[15]), ((ulong)~((ulong)in[(v6) % 256UL])), shl_ulong(12720348015705948863UL, 63UL), convert_ulong(in[(in[(gp[(v2[(((uint)in_uint_float(v5.y))) % 5u]) % 8u]) % 256u]) % 256u]), as_ulong((7.392372936010361e-9)), ((ulong)(((ulong)gp[(((ulong)v1[(((ulong)cb[5])) % 7UL])) % 8UL]) | convert_ulong(v3.s0))), shr_ulong(((ulong)gp[(32UL) % 8UL]), convert_ulong(gp[(((uint)v3.s2)) % 8u])), ((ulong)(v6 | 15UL)), shl_ulong(((ulong)v1[(15187381067337901086UL) % 7UL]), convert_ulong(lid)), ((ulong)((int)((char)v1[(2u) % 7u]))))));
    h = mix(h, (ulong)v13.s0);
  } break;
  }
  h = mix(h, fbits(v5.s1));
  out[gid] = h;
}
