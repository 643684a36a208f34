// reduced from seed 2000306 (inputs: cosim::fuzz::clgen::exec::inputs(2000306)): wave32 -O1: buffer out differs, first at byte 32: [89, 36, 28, 32, 17, 91, 24, ac] (clang) vs [f8, 24, f5, e0, 4a, 17, 5d, c4] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
char __attribute__((overloadable)) convert_char(ulong x) { return (char)x; }
double __attribute__((overloadable)) convert_double(uint x) { return (double)x; }
long __attribute__((overloadable)) convert_long(uint x) { return (long)x; }
float __attribute__((overloadable)) convert_float(ulong x) { return (float)x; }
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
float __attribute__((overloadable)) convert_float(char x) { return (float)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
uint __attribute__((overloadable)) convert_uint(float x) { return (uint)x; }
float __attribute__((overloadable)) convert_float(long x) { return (float)x; }
#endif
static char add_char(char a, char b) { return (char)(a + b); }
static char sub_char(char a, char b) { return (char)(a - b); }
static char mod_char(char a, char b) { return b == 0 ? a : (char)(a % b); }
static char shr_char(char a, char b) { return (char)(a >> (b & 7)); }
static char neg_char(char a) { return (char)(-a); }
static uint sub_uint(uint a, uint b) { return (uint)(a - b); }
static uint div_uint(uint a, uint b) { return b == 0 ? a : (uint)(a / b); }
static uint mod_uint(uint a, uint b) { return b == 0 ? a : (uint)(a % b); }
static uint shl_uint(uint a, uint b) { return (uint)((uint)a << b); }
static uint shr_uint(uint a, uint b) { return a >> b; }
static uint neg_uint(uint a) { return (uint)(-a); }
static float in_uint_float(float x) { return (x > -1.0f && x < 4294967296.0f) ? x : 0.0f; }
static ulong shl_ulong(ulong a, ulong b) { return (ulong)((ulong)a << b); }
static ulong shr_ulong(ulong a, ulong b) { return a >> b; }
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
  ulong v1 = ((ulong)gp[(convert_ulong(cb[5])) % 8UL]);
  char v2[6];
  __global uint *v3 = gp + (as_ulong(convert_double(lid))) % 3UL;
  float16 v4 = (((float16)((((float2)(((float)v2[(((ulong)lid)) % 6UL])))).s1, ((float)convert_long(in[(64u) % 256u])), ((float)v3[(((ulong)cb[4])) % 6UL]), (((float)gid) + convert_float(v1)), ((lid >= ((uint)v1)) ? ((float)gid) : convert_float(v3[(1565587036711228450UL) % 6UL])), (((float)v1) * ((float)cb[7])), (((float)v1) - (2515537.8f)), as_float(((uint)v2[(gid) % 6UL])), (convert_float(in[(16u) % 256u]) + convert_float(cb[10])), ((((float)in[(in[(219222598u) % 256u]) % 256u]) < (4020596.8f)) ? convert_float(v1) : ((float)v3[(((ulong)lid)) % 6UL])), ((0.00390625f) + ((float)in[(convert_ulong(lid)) % 256UL])), ((float)cb[2]), (((float)cb[8]) * ((float)gid)), (((float)v2[(((ulong)((int)v2[(in[(((ulong)((int)v2[(((ulong)v3[(((uint)v2[(13532304571532033129UL) % 6UL])) % 6u])) % 6UL]))) % 256UL]) % 6u]))) % 6UL]) - ((float)cb[2])), (convert_float(cb[3]) - ((float)gid)), (((float)v1) - ((float)in[(lid) % 256u])))) - ((float16)((((float4)(convert_float(v3[(v1) % 6UL]), convert_float(cb[14]), (1435175.9f), ((float)gid)))).s3, ((float)v2[(255u) % 6u]), ((float)v1), convert_float(v1), ((0.984375f) + convert_float(v3[(((ulong)((int)v2[(((ulong)in[(in[(cb[1]) % 256u]) % 256u])) % 6UL]))) % 6UL])), as_float(cb[6]), (convert_float(gid) / (0.125f)), (((float)lid) - convert_float(v2[(((uint)v1)) % 6u])), ((float)gid), convert_float(gp[(1283517824u) % 8u]), as_float(2u), convert_float(lid), ((float)convert_uchar(gp[(((ulong)in[(gid) % 256UL])) % 8UL])), (((float8)((519777.6f), convert_float(v2[(((ulong)gp[(((uint)gid)) % 8u])) % 6UL]), ((float)v3[(((uint)v2[(convert_ulong(cb[6])) % 6UL])) % 6u]), ((float)cb[8]), (255.9961f), (0.12109375f), (137153090.0f), ((float)gp[(convert_uint(v1)) % 8u])))).s7, convert_float(v3[(((ulong)v3[(65535u) % 6u])) % 6UL]), (-((float)in[(v1) % 256UL])))));
  uint v5 = shr_uint(mod_uint(((uint)(lid ^ in[(v3[(convert_ulong(cb[14])) % 6UL]) % 256u])), ((uint)~((uint)gid))), ((uint)in_uint_float(v4.s4)));
  lm[lid] = ((uint)(((uint)v1) & div_uint(v3[(cb[5]) % 6u], v5)));
  gs_barrier();
  v5 = (uint)(lm[(lid + 43u) % 64u] + lacc[0]);
  gs_barrier();
  v1 = shl_ulong(v1, as_ulong((0.12109375)));
  v4.even = ((float8)(((float)v3[(256UL) % 6UL]), ((float)gid), (0.01171875f), as_float(((uint)in_uint_float(v4.s3))), (v4.s0 - ((float)in[(((ulong)gp[(((ulong)in[(((ulong)cb[8])) % 256UL])) % 8UL])) % 256UL])), ((convert_ulong(cb[2]) < 1798121789674075918UL) ? ((float)in[(convert_ulong(v3[(((ulong)lid)) % 6UL])) % 256UL]) : (63.0f)), ((convert_ushort(v3[(((ulong)lid)) % 6UL]) >= ((ushort)32)) ? convert_float(in[(((ulong)gp[(256u) % 8u])) % 256UL]) : ((float)cb[12])), (convert_float(cb[0]) - convert_float(lid))));
  v2[(in[(15UL) % 256UL]) % 6u] = ((char)21);
  v4.hi = (((float8)((((float)cb[6]) + ((float)v2[(gp[(lid) % 8u]) % 6u])), ((0.25f) - ((float)v2[(((ulong)cb[2])) % 6UL])), (((float)gid) - ((float)gid)), convert_float(((long)cb[1])), (v4.s9b8f).s3, (convert_float(v1) * ((float)cb[13])), (((float)gp[(16UL) % 8UL]) / ((float)lid)), (((float)gid) - ((float)v5)))) - ((float8)((((float)gp[(lid) % 8u]) - ((float)in[(convert_ulong(in[(lid) % 256u])) % 256UL])), (((float)v2[(gp[(32u) % 8u]) % 6u]) * ((float)lid)), ((-219441.88f) - (-32020558.0f)), (((float)in[(31UL) % 256UL]) * (2.0f)), (-((float)gp[(((ulong)in[(1UL) % 256UL])) % 8UL])), (((0.0) <= ((double)gid)) ? ((float)v1) : ((float)in[(9817548387581105843UL) % 256UL])), ((float)lid), (((float)in[(((ulong)v5)) % 256UL]) - (0.0009765625f)))));
  lm[lid] = neg_uint(((uint)in_uint_float(v4.s6)));
  gs_barrier();
  v5 = (uint)(lm[(lid + 51u) % 64u] + lacc[6]);
  gs_barrier();
  v5 = cb[10];
  switch ((3250839926u) % 4u) {
  case 0: {
    v5 = sub_uint(v5, convert_uint(v1));
  } break;
  case 1: {
    ulong v7 = (((ulong4)(3UL))).s1;
    char v8 = convert_char(v3[(lid) % 6u]);
    h = mix(h, (ulong)v7);
    h = mix(h, (ulong)(int)v8);
  }
  case 2: {
    for (long i9 = 0; i9 < 3; i9 += 1) {
      v5 = lid;
      gs_atomic_or_g(&acc[6], ((uint)i9));
    }
  } break;
  default: {
    v2[(((((float)in[(((ulong)cb[10])) % 256UL]) <= ((float)cb[6])) ? 15u : 0u)) % 6u] = ((char)0);
  }
  }
  v5 = shl_uint(((uint)((((uint2)(256u, cb[12]))).s0 ^ ((uint)(v3[(in[(in[(v3[(((uint)v1)) % 6u]) % 256u]) % 256u]) % 6u] | cb[15])))), sub_uint(((uint)(((uint)v1) ^ 3u)), neg_uint(convert_uint(gid))));
  float v10 = convert_float(gid);
  h = mix(h, (ulong)v1);
  h = mix(h, (ulong)(int)v2[0]);
  h = mix(h, (ulong)(int)v2[1]);
  h = mix(h, (ulong)(int)v2[2]);
  h = mix(h, (ulong)(int)v2[3]);
  h = mix(h, (ulong)(int)v2[4]);
  h = mix(h, (ulong)(int)v2[5]);
  h = mix(h, (ulong)v3[0]);
  h = mix(h, (ulong)v3[1]);
  h = mix(h, (ulong)v3[2]);
  h = mix(h, (ulong)v3[3]);
  h = mix(h, (ulong)v3[4]);
  h = mix(h, (ulong)v3[5]);
  h = mix(h, fbits(v4.s0));
  h = mix(h, fbits(v4.s1));
  h = mix(h, fbits(v4.s2));
  h = mix(h, fbits(v4.s3));
  h = mix(h, fbits(v4.s4));
  h = mix(h, fbits(v4.s5));
  h = mix(h, fbits(v4.s6));
  h = mix(h, fbits(v4.s7));
  h = mix(h, fbits(v4.s8));
  h = mix(h, fbits(v4.s9));
  h = mix(h, fbits(v4.sa));
  h = mix(h, fbits(v4.sb));
  h = mix(h, fbits(v4.sc));
  h = mix(h, fbits(v4.sd));
  h = mix(h, fbits(v4.se));
  h = mix(h, fbits(v4.sf));
  h = mix(h, (ulong)v5);
  h = mix(h, fbits(v10));
  out[gid] = h;
}
