// reduced from seed 2000017 (inputs: cosim::fuzz::clgen::exec::inputs(2000017)): wave32 -O1: buffer out differs, first at byte 216: [1f, 62, ed, 58, 29, 27, 75, 44] (clang) vs [1c, c5, a3, 61, 29, 6e, 4f, 4f] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
ulong __attribute__((overloadable)) convert_ulong(uint x) { return (ulong)x; }
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
uint __attribute__((overloadable)) convert_uint(long x) { return (uint)x; }
short __attribute__((overloadable)) convert_short(uint x) { return (short)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
float __attribute__((overloadable)) convert_float(short x) { return (float)x; }
uint __attribute__((overloadable)) convert_uint(int x) { return (uint)x; }
uint __attribute__((overloadable)) convert_uint(float x) { return (uint)x; }
ulong __attribute__((overloadable)) convert_ulong(float x) { return (ulong)x; }
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
int __attribute__((overloadable)) convert_int(uint x) { return (int)x; }
float __attribute__((overloadable)) convert_float(uchar x) { return (float)x; }
uint8 __attribute__((overloadable)) convert_uint8(int8 x) { return __builtin_convertvector(x, uint8); }
ushort __attribute__((overloadable)) convert_ushort(uint x) { return (ushort)x; }
uchar __attribute__((overloadable)) convert_uchar(uint x) { return (uchar)x; }
uint3 __attribute__((overloadable)) convert_uint3(int3 x) { return __builtin_convertvector(x, uint3); }
char __attribute__((overloadable)) convert_char(uchar x) { return (char)x; }
#endif
static char mul_char(char a, char b) { return (char)(a * b); }
static char shr_char(char a, char b) { return (char)(a >> (b & 7)); }
static char neg_char(char a) { return (char)(-a); }
static uchar add_uchar(uchar a, uchar b) { return (uchar)(a + b); }
static uchar mul_uchar(uchar a, uchar b) { return (uchar)(a * b); }
static uchar neg_uchar(uchar a) { return (uchar)(-a); }
static float in_uchar_float(float x) { return (x > -1.0f && x < 256.0f) ? x : 0.0f; }
static short div_short(short a, short b) { return b == 0 ? a : (short)(a / b); }
static ushort mul_ushort(ushort a, ushort b) { return (ushort)((uint)a * (uint)b); }
static ushort mod_ushort(ushort a, ushort b) { return b == 0 ? a : (ushort)(a % b); }
static int div_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }
static int shr_int(int a, int b) { return a >> b; }
static float in_int_float(float x) { return (x >= -2147483648.0f && x < 2147483648.0f) ? x : 0.0f; }
static uint add_uint(uint a, uint b) { return (uint)(a + b); }
static uint sub_uint(uint a, uint b) { return (uint)(a - b); }
static uint mul_uint(uint a, uint b) { return (uint)(a * b); }
static uint div_uint(uint a, uint b) { return b == 0 ? a : (uint)(a / b); }
static uint mod_uint(uint a, uint b) { return b == 0 ? a : (uint)(a % b); }
static uint shl_uint(uint a, uint b) { return (uint)((uint)a << b); }
static uint shr_uint(uint a, uint b) { return a >> b; }
static uint neg_uint(uint a) { return (uint)(-a); }
static float in_uint_float(float x) { return (x > -1.0f && x < 4294967296.0f) ? x : 0.0f; }
static ulong sub_ulong(ulong a, ulong b) { return (ulong)(a - b); }
static ulong div_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a / b); }
static ulong shl_ulong(ulong a, ulong b) { return (ulong)((ulong)a << b); }
static ulong shr_ulong(ulong a, ulong b) { return a >> b; }
static float in_ulong_float(float x) { return (x > -1.0f && x < 18446744073709551616.0f) ? x : 0.0f; }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
typedef struct { int f0; uint f1; short f2; uchar f3; } S0;
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
  uint8 v1 = (((uint8)(((((uchar)cb[15]) <= ((uchar)lid)) ? lid : 3130188794u), ((uint)gid), neg_uint(in[(convert_ulong(in[(((ulong)in[(in[(1u) % 256u]) % 256u])) % 256UL])) % 256UL]), shr_uint(((uint)gid), ((uint)gid)), mod_uint(((uint)gid), ((uint)gid)), add_uint(15707167u, gp[(667107283u) % 8u]), ((uint)(1408601820u ^ 63u)), 31u)) ^ ((uint8)(as_uint(((float)gp[(lid) % 8u])), neg_uint(gp[(convert_uint(gid)) % 8u]), div_uint(64u, 3809067618u), mul_uint(32u, ((uint)gid)), ((uint)gid), mul_uint(in[(in[(((ulong)in[(127UL) % 256UL])) % 256UL]) % 256u], convert_uint(gid)), (((uint8)(gp[(63u) % 8u], gp[(16UL) % 8UL], gp[(((ulong)cb[4])) % 8UL], gp[(gp[(gid) % 8UL]) % 8u], 64u, in[(gid) % 256UL], gp[(((ulong)in[(lid) % 256u])) % 8UL], in[(cb[11]) % 256u]))).s0, convert_uint(((long)gp[(17762572318718036084UL) % 8UL])))));
  char v2 = mul_char(((char)gp[(((ulong)gp[(((ulong)gp[(((ulong)gp[(in[(gid) % 256UL]) % 8u])) % 8UL])) % 8UL])) % 8UL]), shr_char(((char)76), ((char)(((char)31) | ((char)gid)))));
  S0 v3;
  v3.f0 = as_int(((float)gid));
  v3.f1 = neg_uint(0u);
  v3.f2 = convert_short(in[(in[(((ulong)lid)) % 256UL]) % 256u]);
  v3.f3 = add_uchar(((uchar)gid), ((uchar)in[(gp[(v1.s5) % 8u]) % 256u]));
  uint v4 = mul_uint(((((char)-1) >= ((char)(((char)v1.s4) & ((char)cb[10])))) ? ((uint)v3.f2) : cb[8]), mul_uint(convert_uint((((ulong4)(gid, ((ulong)gp[(v1.s1) % 8u]), gid, convert_ulong(cb[2])))).s1), ((uint)~63u)));
  __global uint *v5 = gp + (((ulong)(((ulong)cb[12]) ^ ((ulong)lid)))) % 3UL;
  uchar v6[2];
  v6[0] = ((uchar)~((uchar)v5[(gp[(gid) % 8UL]) % 6u]));
  v6[1] = ((uchar)gp[(32UL) % 8UL]);
  __global uint *v7 = gp + (shr_ulong(convert_ulong(((int)v3.f2)), ((ulong)in[(65535u) % 256u]))) % 3UL;
  gs_atomic_add_l(&lacc[3], in[(((ulong)in[(convert_ulong(v4)) % 256UL])) % 256UL]);
  v4 = add_uint(((div_uint(v1.s4, 212356053u) > ((uint)v6[(lid) % 2u])) ? v5[(((ulong)((int)v2))) % 6UL] : shr_uint(2u, cb[10])), ((uint)in_uint_float((((float)v1.s4) * ((float)v5[(((uint)v6[(((ulong)cb[12])) % 2UL])) % 6u])))));
  v3.f2 = ((short)lid);
  lm[lid] = add_uint(2450036709u, mod_uint(cb[12], 4281900007u));
  gs_barrier();
  v4 = (uint)(lm[(lid + 19u) % 64u] + lacc[0]);
  gs_barrier();
  lm[lid] = gp[(11836266556953222830UL) % 8UL];
  gs_barrier();
  v2 = (char)(lm[(lid + 51u) % 64u] + lacc[2]);
  gs_barrier();
  lm[lid] = as_uint(((((uchar)212) > v3.f3) ? ((float)cb[8]) : (8.0f)));
  gs_barrier();
  v2 = (char)(lm[(lid + 9u) % 64u] + lacc[3]);
  gs_barrier();
  lm[lid] = sub_uint(sub_uint(in[(convert_ulong(gp[(v4) % 8u])) % 256UL], v7[(in[(32u) % 256u]) % 6u]), as_uint(((float)lid)));
  gs_barrier();
  v4 = (uint)(lm[(lid + 28u) % 64u] + lacc[0]);
  gs_barrier();
  v3.f0 = ((int)v3.f2);
  float v8[6];
  v8[0] = convert_float(((short)v5[(0u) % 6u]));
  v8[1] = as_float(255u);
  v8[2] = ((float)lid);
  v8[3] = as_float(4219934274u);
  v8[4] = (((float)v5[(127u) % 6u]) - (-3503677.3f));
  v8[5] = ((float)cb[13]);
  switch ((as_uint(((float)((long)gid)))) % 4u) {
  case 0: {
    switch ((((uint)v6[(((ulong)in[(((ulong)gp[(((ulong)v7[(v4) % 6u])) % 8UL])) % 256UL])) % 2UL])) % 4u) {
    case 0: {
      gs_atomic_or_g(&acc[1], ((uint)~convert_uint(((int)v2))));
    } break;
    case 1: {
      if (lid % 4u == 0u) {
        v1.hi = v1.s6350;
        uchar *p9 = &v6[0];
        v8[(((convert_int(v2) < ((int)v6[(2u) % 2u])) ? 3955027562u : convert_uint(in_uint_float(v8[(3UL) % 6UL])))) % 6u] = ((float)gid);
        v4 = add_uint(v4, cb[4]);
        uchar *p10 = &v6[1];
        h = mix(h, (ulong)(uint)*p9);
        h = mix(h, (ulong)(uint)*p10);
      } else {
        v8[(((((ushort)41032) == ((ushort)v5[(((uint)v6[(((ulong)cb[3])) % 2UL])) % 6u])) ? lid : ((uint)gid))) % 6u] = (-(((float)v7[(convert_ulong(v5[(in[(convert_ulong(in_ulong_float(v8[(((ulong)v1.s5)) % 6UL]))) % 256UL]) % 6u])) % 6UL]) / convert_float(v5[(((ulong)cb[3])) % 6UL])));
      }
    } break;
    case 2: {
      v6[(((uint)(v7[(255u) % 6u] | convert_uint(v6[(3u) % 2u])))) % 2u] = ((uchar)(v1.s4770).s2);
      uchar *p11 = &v6[1];
      v6[(sub_uint(1435336255u, ((uint)v3.f2))) % 2u] = neg_uchar(mul_uchar(((uchar)v1.s0), ((uchar)32)));
      h = mix(h, (ulong)(uint)*p11);
    } break;
    default: {
      for (uint i12 = 0; i12 < 4; i12 += 1) {
        v4 = convert_uint(in_uint_float(v8[(v4) % 6u]));
      }
      if (lid % 3u == 1u) {
        v2 = convert_char(in[(((ulong)v1.s7)) % 256UL]);
        v4 = mul_uint(((uint)(((ulong8)(shl_ulong(convert_ulong(v5[(cb[7]) % 6u]), ((ulong)in[(127u) % 256u])), ((ulong)(((int4)(((int)cb[15]), 3, convert_int(in[(((uint)v6[(cb[9]) % 2u])) % 256u]), ((int)cb[14])))).s1), ((ulong)(gid & 31UL)), 0UL, div_ulong(((ulong)v4), ((ulong)cb[13])), (((-1379602896146084645L) >= 15L) ? 63UL : convert_ulong(in_ulong_float(v8[(12725914119289058211UL) % 6UL]))), convert_ulong(lid), sub_ulong(((ulong)gp[(((ulong)cb[2])) % 8UL]), 65535UL)))).s3), mul_uint(sub_uint(v1.s0, 32u), ((uint)(7u ^ gp[(convert_ulong(v7[(lid) % 6u])) % 8UL]))));
        gs_atomic_add_l(&lacc[4], ((uint)(((uint)(((int2)(((int)v6[(v5[(2u) % 6u]) % 2u])))).s1) ^ v7[(((ulong)((uint)v6[(((ulong)in_ulong_float(v8[(((ulong)v3.f1)) % 6UL]))) % 2UL]))) % 6UL])));
      }
    }
    }
    for (long i13 = 0; i13 < (long)((((uint)~31u)) % 5u); i13 += 1) {
      v4 = as_uint((((float8)((((float)gp[(((ulong)i13)) % 8UL]) / ((float)cb[8])), convert_float(v6[(cb[10]) % 2u]), (373782.97f), ((gp[(convert_ulong(in_ulong_float(v8[(((uint)v6[(1u) % 2u])) % 6u]))) % 8UL] >= convert_uint(i13)) ? (3084027.8f) : ((float)cb[0])), v8[(32UL) % 6UL], (-convert_float(v5[(cb[1]) % 6u])), ((float)v5[(((ulong)gp[(10952665042886943842UL) % 8UL])) % 6UL]), (((float)v1.s3) - (0.03125f))))).s1);
      if ((((int)(((int)((long)v4)) & ((int)v5[(0UL) % 6UL])))) <= (shr_int(((int)lid), ((int)v5[(convert_uint(i13)) % 6u])))) {
        v4 = in[(cb[4]) % 256u];
        uchar *p14 = &v6[0];
        h = mix(h, (ulong)(uint)*p14);
      }
    }
  } break;
  case 1: {
    v5[(sub_ulong(((ulong)in[(v1.s7) % 256u]), 255UL)) % 6UL] = in[(((ulong)cb[11])) % 256UL];
  } break;
  case 2: {
    v1 = (convert_uint8(((int8)(65535))) | ((uint8)(((uint)v6[(gp[(64u) % 8u]) % 2u]), ((uint)v2), shr_uint(in[(convert_ulong(v5[(((ulong)in[(cb[12]) % 256u])) % 6UL])) % 256UL], lid), shr_uint(cb[0], ((uint)v6[(((ulong)((uint)v6[(convert_ulong(((uint)v6[(convert_uint(v6[(((ulong)((uint)v6[(32UL) % 2UL]))) % 2UL])) % 2u]))) % 2UL]))) % 2UL])), mod_uint(v5[(3260385405u) % 6u], in[(((ulong)cb[11])) % 256UL]), ((uint)(((ulong8)(((ulong)cb[11]), ((ulong)lid), ((ulong)v5[(v1.s2) % 6u]), convert_ulong(v4), 65535UL, convert_ulong(v5[(cb[0]) % 6u]), convert_ulong(cb[9]), gid))).s7), sub_uint(in[(15UL) % 256UL], v1.s3), as_uint(((float)gp[(((ulong)in[(cb[10]) % 256u])) % 8UL])))));
  } break;
  default: {
    if ((mod_ushort(((convert_float(gp[(((uint)gid)) % 8u]) > (8.0f)) ? convert_ushort(gid) : ((ushort)gid)), ((ushort)(((ushort)v5[(v7[(31UL) % 6UL]) % 6u]) | ((ushort)v2))))) == (mul_ushort(convert_ushort(cb[10]), ((ushort)63)))) {
      S0 v15;
      v15.f0 = div_int(((int)in_int_float(v8[(6061601480339583444UL) % 6UL])), ((int)cb[8]));
      v15.f1 = in[(v5[(in[(127UL) % 256UL]) % 6u]) % 256u];
      v15.f2 = div_short(((short)in[(gid) % 256UL]), convert_short(v4));
      v15.f3 = convert_uchar(v2);
      if ((((int)~((int)v15.f3))) != (((((ulong)((int)v2)) == ((ulong)cb[10])) ? convert_int(cb[3]) : ((int)gid)))) {
        gs_atomic_add_l(&lacc[0], shr_uint(v7[(lid) % 6u], ((((short)gid) > ((short)v2)) ? 2684139577u : in[(((ulong)((uint)v3.f3))) % 256UL])));
        gs_atomic_add_l(&lacc[1], neg_uint(((((uchar)255) > ((uchar)in_uchar_float(v8[(9244822833616802915UL) % 6UL]))) ? in[(in[(17991915847094351849UL) % 256UL]) % 256u] : ((uint)v3.f3))));
      }
      gs_atomic_add_l(&lacc[0], ((((((double)cb[10]) == (479408290208.56244)) ? ((float)v3.f0) : v8[(((ulong)in[(in[(978601558u) % 256u]) % 256u])) % 6UL]) >= ((4095.9375f) * ((float)gp[(convert_ulong(((int)v3.f2))) % 8UL]))) ? shl_uint(16u, ((uint)v2)) : v5[(32u) % 6u]));
      h = mix(h, (ulong)v15.f0);
      h = mix(h, (ulong)v15.f1);
      h = mix(h, (ulong)(int)v15.f2);
      h = mix(h, (ulong)(uint)v15.f3);
    }
  }
  }
  lm[lid] = as_uint((convert_float(v1.s4) * (-547169.1f)));
  gs_barrier();
  v4 = (uint)(lm[(lid + 53u) % 64u] + lacc[3]);
  gs_barrier();
  v1 = ((uint8)(1436480374u));
  switch ((convert_uint(mul_uchar(((uchar)v5[(255u) % 6u]), ((uchar)255)))) % 4u) {
  case 0: {
    if ((convert_uchar(in[(((ulong)v5[(((ulong)lid)) % 6UL])) % 256UL])) <= (((uchar)cb[3]))) {
      v4 = neg_uint(3u);
      switch ((((uint)~((uint)(gp[(in[(3u) % 256u]) % 8u] | lid)))) % 4u) {
      case 0: {
        v5[(((ulong)(((ulong)in_ulong_float(v8[(647621752u) % 6u])) & ((ulong)((uint)v6[(((uint)v2)) % 2u]))))) % 6UL] = 136882810u;
      } break;
      case 1: {
        v6[(((65535u > 1u) ? 383126955u : 7u)) % 2u] = ((uchar)15);
      } break;
      case 2: {
        v4 = add_uint(((uint)(((uint)(((int3)(((int)in[(((ulong)v1.s7)) % 256UL])))).s0) ^ convert_uint(in_uint_float(v8[(convert_uint(v3.f0)) % 6u])))), add_uint(((uint)((ulong)gp[(((ulong)v7[(((ulong)lid)) % 6UL])) % 8UL])), ((uint)(cb[5] | 32u))));
      } break;
      default: {
        v1.s124 = (convert_uint3(((int3)(convert_int(cb[0]), ((int)gp[(((ulong)v5[(((ulong)in[(((ulong)gp[(2UL) % 8UL])) % 256UL])) % 6UL])) % 8UL]), ((int)gp[(((ulong)cb[0])) % 8UL])))) >> v1.s065);
      }
      }
    }
    if ((((((uint)(v4 ^ 32u)) == ((uint)(cb[0] & cb[11]))) ? as_int((1.0f)) : as_int(convert_float(v6[(convert_ulong(cb[3])) % 2UL])))) >= (as_int(((float)v7[(cb[6]) % 6u])))) {
      for (long i16 = 0; i16 < (long)((in[(64UL) % 256UL]) % 5u); i16 += 1) {
        v6[(((uint)v2)) % 2u] = ((uchar)in[(((ulong)in[(((ulong)v4)) % 256UL])) % 256UL]);
        gp[(((ulong)(16UL ^ ((ulong)in[(convert_ulong(in[(32u) % 256u])) % 256UL])))) % 8UL] = shl_uint(((uint)~2572111389u), as_uint(((float)i16)));
      }
      v6[(((uint)(((ulong4)(gid))).s0)) % 2u] = ((neg_char(((char)32)) > ((char)(((char)cb[13]) | ((char)in[(((ulong)in[(((ulong)v1.s4)) % 256UL])) % 256UL])))) ? ((uchar)(((uchar)in_uchar_float(v8[(((ulong)((uint)v6[(((ulong)v1.s4)) % 2UL]))) % 6UL])) ^ ((uchar)107))) : ((((double)gp[(((ulong)((int)v2))) % 8UL]) >= ((double)v8[(in[(((ulong)in[(((ulong)v4)) % 256UL])) % 256UL]) % 6u])) ? convert_uchar(lid) : ((uchar)gp[(convert_ulong(lid)) % 8UL])));
    }
  } break;
  case 1: {
    v4 = (((uint8)(564166653u, shl_uint(((uint)gid), cb[15]), v1.s3, ((uint)(((uint)in_uint_float(v8[(v4) % 6u])) & ((uint)v6[(65535u) % 2u]))), shl_uint(cb[7], in[(((ulong)in_ulong_float(v8[(127u) % 6u]))) % 256UL]), shr_uint(cb[12], v7[(7UL) % 6UL]), ((uint)in_uint_float((((float3)(convert_float(v4), ((float)lid), convert_float(lid)))).s0)), 65535u))).s3;
  } break;
  case 2: {
    v5[(((ulong)((int)((char)v1.s6)))) % 6UL] = mod_uint(0u, ((uint)(((int2)(255, ((int)in[(v7[(cb[9]) % 6u]) % 256u])))).s0));
  } break;
  default: {
    v2 = ((char)(((char)1) & convert_char(v6[(cb[6]) % 2u])));
  }
  }
  lm[lid] = mul_uint(((uint)(cb[13] & v7[(v1.s2) % 6u])), as_uint(convert_float(v6[(((ulong)v4)) % 2UL])));
  gs_barrier();
  v2 = (char)(lm[(lid + 8u) % 64u] + lacc[6]);
  gs_barrier();
  h = mix(h, (ulong)v1.s0);
  h = mix(h, (ulong)v1.s1);
  h = mix(h, (ulong)v1.s2);
  h = mix(h, (ulong)v1.s3);
  h = mix(h, (ulong)v1.s4);
  h = mix(h, (ulong)v1.s5);
  h = mix(h, (ulong)v1.s6);
  h = mix(h, (ulong)v1.s7);
  h = mix(h, (ulong)(int)v2);
  h = mix(h, (ulong)v3.f0);
  h = mix(h, (ulong)v3.f1);
  h = mix(h, (ulong)(int)v3.f2);
  h = mix(h, (ulong)(uint)v3.f3);
  h = mix(h, (ulong)v4);
  h = mix(h, (ulong)v5[0]);
  h = mix(h, (ulong)v5[1]);
  h = mix(h, (ulong)v5[2]);
  h = mix(h, (ulong)v5[3]);
  h = mix(h, (ulong)v5[4]);
  h = mix(h, (ulong)v5[5]);
  h = mix(h, (ulong)(uint)v6[0]);
  h = mix(h, (ulong)(uint)v6[1]);
  h = mix(h, (ulong)v7[0]);
  h = mix(h, (ulong)v7[1]);
  h = mix(h, (ulong)v7[2]);
  h = mix(h, (ulong)v7[3]);
  h = mix(h, (ulong)v7[4]);
  h = mix(h, (ulong)v7[5]);
  h = mix(h, fbits(v8[0]));
  h = mix(h, fbits(v8[1]));
  h = mix(h, fbits(v8[2]));
  h = mix(h, fbits(v8[3]));
  h = mix(h, fbits(v8[4]));
  h = mix(h, fbits(v8[5]));
  out[gid] = h;
}
