// reduced from seed 2000007 (inputs: cosim::fuzz::clgen::exec::inputs(2000007)): wave32 -O1: buffer out differs, first at byte 0: [4d, a3, 7b, 59, ec, 40, f9, 16] (clang) vs [5c, 2f, f9, 1b, 9e, 9a, b6, 45] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
int __attribute__((overloadable)) convert_int(uint x) { return (int)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
ulong16 __attribute__((overloadable)) convert_ulong16(ulong16 x) { return __builtin_convertvector(x, ulong16); }
ushort __attribute__((overloadable)) convert_ushort(uint x) { return (ushort)x; }
char __attribute__((overloadable)) convert_char(uint x) { return (char)x; }
float __attribute__((overloadable)) convert_float(ulong x) { return (float)x; }
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
#endif
static int add_int(int a, int b) { return ((b > 0 && a > INT_MAX - b) || (b < 0 && a < INT_MIN - b)) ? a : a + b; }
static int sub_int(int a, int b) { return ((b < 0 && a > INT_MAX + b) || (b > 0 && a < INT_MIN + b)) ? a : a - b; }
static int mul_int(int a, int b) { long r = (long)a * (long)b; return (r > INT_MAX || r < INT_MIN) ? a : (int)r; }
static int div_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }
static int shl_int(int a, int b) { return (int)((uint)a << b); }
static int neg_int(int a) { return a == INT_MIN ? a : -a; }
static float in_int_float(float x) { return (x >= -2147483648.0f && x < 2147483648.0f) ? x : 0.0f; }
static uint add_uint(uint a, uint b) { return (uint)(a + b); }
static uint mul_uint(uint a, uint b) { return (uint)(a * b); }
static uint div_uint(uint a, uint b) { return b == 0 ? a : (uint)(a / b); }
static uint mod_uint(uint a, uint b) { return b == 0 ? a : (uint)(a % b); }
static uint shl_uint(uint a, uint b) { return (uint)((uint)a << b); }
static uint shr_uint(uint a, uint b) { return a >> b; }
static uint neg_uint(uint a) { return (uint)(-a); }
static ulong add_ulong(ulong a, ulong b) { return (ulong)(a + b); }
static ulong div_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a / b); }
static ulong shl_ulong(ulong a, ulong b) { return (ulong)((ulong)a << b); }
static ulong shr_ulong(ulong a, ulong b) { return a >> b; }
static ulong neg_ulong(ulong a) { return (ulong)(-a); }
static float in_ulong_float(float x) { return (x > -1.0f && x < 18446744073709551616.0f) ? x : 0.0f; }
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
  uint v1 = 1524536668u;
  uint v2 = ((shr_ulong((((ulong3)(((ulong)v1), gid, convert_ulong(in[(((ulong)v1)) % 256UL])))).s2, ((ulong)~12394692429581752824UL)) > convert_ulong(gp[(gp[(256UL) % 8UL]) % 8u])) ? ((uint)(mul_uint(cb[9], 32u) ^ ((uint)(((uint)gid) & cb[9])))) : div_uint(neg_uint(cb[11]), convert_uint((((int8)(1, ((int)cb[7]), ((int)v1), ((int)gp[(255u) % 8u]), ((int)gid), convert_int(lid), 256, ((int)cb[11])))).s6)));
  int v3 = div_int(((int)in_int_float((((float)gp[(65535UL) % 8UL]) * ((float)lid)))), ((int)(convert_int(v2) | add_int(((int)gid), convert_int(v2)))));
  __global uint *v4 = gp + (((ulong)(convert_ulong(v1) & ((ulong)lid)))) % 3UL;
  ulong16 v5 = convert_ulong16(((ulong16)(((ulong)v2), shr_ulong(((ulong)in[(((ulong)cb[1])) % 256UL]), 127UL), ((ulong)in[(((ulong)gp[(gid) % 8UL])) % 256UL]), ((ulong)in[(31u) % 256u]), ((ulong)(1473018482468517400UL | 0UL)), convert_ulong(((uint)((uchar)gp[(((ulong)v2)) % 8UL]))), shl_ulong(7UL, ((ulong)v3)), ((convert_float(cb[12]) > ((float)cb[1])) ? convert_ulong(v3) : ((ulong)v2)), ((127u == cb[11]) ? 65535UL : 63UL), convert_ulong(cb[1]), ((ulong)in[(cb[6]) % 256u]), add_ulong(((ulong)cb[10]), ((ulong)v1)), convert_ulong(cb[7]), gid, ((ulong)(((uint2)(in[(((uint)gid)) % 256u], lid))).s0), neg_ulong(convert_ulong(in[(127UL) % 256UL])))));
  gs_barrier();
  gs_barrier();
  v2 = cb[4];
  v2 = v1;
  float v7 = ((-(((float)gp[(convert_uint(v3)) % 8u]) / convert_float(gid))) / ((float)((char)127)));
  gs_atomic_umax_g(&acc[4], as_uint(v7));
  v2 = ((uint)(as_uint(((float)convert_ulong(in[(v5.s1) % 256UL]))) & ((uint)(((uint)7UL) ^ ((uint)~v4[(((ulong)lid)) % 6UL])))));
  gs_atomic_add_l(&lacc[3], shl_uint(shl_uint(cb[2], in[(lid) % 256u]), ((((long)cb[5]) >= 279561785944093040L) ? in[(convert_ulong(v1)) % 256UL] : 64u)));
  gs_atomic_add_l(&lacc[2], ((uint)(((int4)(((((int)v4[(gid) % 6UL]) < ((int)in_int_float(v7))) ? v3 : convert_int(cb[13])), ((((double)v2) < (5.820766091346741e-11)) ? ((int)in[(((ulong)in[(v2) % 256u])) % 256UL]) : ((int)in[(256UL) % 256UL])), ((int)cb[1]), neg_int(convert_int(cb[0]))))).s3));
  v1 = as_uint(((((float4)(((float)in[(lid) % 256u]))) - ((float4)(((float)v1), ((float)cb[15]), (-4405801.5f), convert_float(lid))))).s1);
  if (lid % 2u == 0u) {
    v4[(((convert_ulong(v2) != ((ulong)v2)) ? 15237853741726571973UL : ((ulong)v2))) % 6UL] = convert_uint(gid);
    if ((mul_int(0, 3)) == (sub_int(255, convert_int(v2)))) {
      gs_atomic_add_l(&lacc[0], ((uint)gid));
    } else {
      v5.s276 = ((v5.s9ee + ((ulong3)(2UL, ((ulong)in_ulong_float(v7)), 31UL))) >> ((ulong3)(((ulong)(((ulong)cb[7]) & gid)), 2UL, ((ulong)(convert_ulong(in[(cb[7]) % 256u]) & ((ulong)gp[(convert_ulong(v2)) % 8UL]))))));
      v7 = ((float)((uchar)16));
      v3 = shl_int(v3, ((int)(((ulong4)(div_ulong(v5.sf, ((ulong)gp[(((ulong)in[(v1) % 256u])) % 8UL])), shr_ulong(((ulong)v3), 1116301568658978232UL), ((ulong)(8UL ^ ((ulong)v1))), ((ulong)v1)))).s2));
    }
    v3 = ((int)~neg_int(((int)v1)));
  } else {
    gs_atomic_and_g(&acc[3], shl_uint(shr_uint(in[(((ulong)v1)) % 256UL], v2), ((v2 != 0u) ? in[(convert_ulong(in[(gp[(16388789306159755529UL) % 8UL]) % 256u])) % 256UL] : v4[(((uint)v5.s4)) % 6u])));
  }
  v1 = 127u;
  h = mix(h, (ulong)v1);
  h = mix(h, (ulong)v2);
  h = mix(h, (ulong)v3);
  h = mix(h, (ulong)v4[0]);
  h = mix(h, (ulong)v4[1]);
  h = mix(h, (ulong)v4[2]);
  h = mix(h, (ulong)v4[3]);
  h = mix(h, (ulong)v4[4]);
  h = mix(h, (ulong)v4[5]);
  h = mix(h, (ulong)v5.s0);
  h = mix(h, (ulong)v5.s1);
  h = mix(h, (ulong)v5.s2);
  h = mix(h, (ulong)v5.s3);
  h = mix(h, (ulong)v5.s4);
  h = mix(h, (ulong)v5.s5);
  h = mix(h, (ulong)v5.s6);
  h = mix(h, (ulong)v5.s7);
  h = mix(h, (ulong)v5.s8);
  h = mix(h, (ulong)v5.s9);
  h = mix(h, (ulong)v5.sa);
  h = mix(h, (ulong)v5.sb);
  h = mix(h, (ulong)v5.sc);
  h = mix(h, (ulong)v5.sd);
  h = mix(h, (ulong)v5.se);
  h = mix(h, (ulong)v5.sf);
  h = mix(h, fbits(v7));
  out[gid] = h;
}
