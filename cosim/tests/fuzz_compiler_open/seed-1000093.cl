// reduced from seed 1000093 (inputs: cosim::fuzz::clgen::exec::inputs(1000093)): wave32 -O1: buffer out differs, first at byte 104: [fb, 14, af, b1, 4b, e8, 1a, 05] (clang) vs [cc, 9a, 9d, 31, e9, 94, 7c, be] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
ulong2 __attribute__((overloadable)) convert_ulong2(ulong2 x) { return __builtin_convertvector(x, ulong2); }
int __attribute__((overloadable)) convert_int(uint x) { return (int)x; }
ulong __attribute__((overloadable)) convert_ulong(uint x) { return (ulong)x; }
int8 __attribute__((overloadable)) convert_int8(uint8 x) { return __builtin_convertvector(x, int8); }
int __attribute__((overloadable)) convert_int(ulong x) { return (int)x; }
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
uint __attribute__((overloadable)) convert_uint(int x) { return (uint)x; }
uint __attribute__((overloadable)) convert_uint(char x) { return (uint)x; }
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
float __attribute__((overloadable)) convert_float(long x) { return (float)x; }
char __attribute__((overloadable)) convert_char(int x) { return (char)x; }
ushort __attribute__((overloadable)) convert_ushort(float x) { return (ushort)x; }
long __attribute__((overloadable)) convert_long(uint x) { return (long)x; }
long __attribute__((overloadable)) convert_long(float x) { return (long)x; }
uint __attribute__((overloadable)) convert_uint(float x) { return (uint)x; }
int __attribute__((overloadable)) convert_int(float x) { return (int)x; }
ushort __attribute__((overloadable)) convert_ushort(uint x) { return (ushort)x; }
ushort __attribute__((overloadable)) convert_ushort(ulong x) { return (ushort)x; }
uint __attribute__((overloadable)) convert_uint(long x) { return (uint)x; }
double __attribute__((overloadable)) convert_double(uint x) { return (double)x; }
ulong __attribute__((overloadable)) convert_ulong(float x) { return (ulong)x; }
#endif
static char sub_char(char a, char b) { return (char)(a - b); }
static char mod_char(char a, char b) { return b == 0 ? a : (char)(a % b); }
static ushort sub_ushort(ushort a, ushort b) { return (ushort)(a - b); }
static ushort mul_ushort(ushort a, ushort b) { return (ushort)((uint)a * (uint)b); }
static float in_ushort_float(float x) { return (x > -1.0f && x < 65536.0f) ? x : 0.0f; }
static int mul_int(int a, int b) { long r = (long)a * (long)b; return (r > INT_MAX || r < INT_MIN) ? a : (int)r; }
static int div_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }
static int mod_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }
static int shl_int(int a, int b) { return (int)((uint)a << b); }
static float in_int_float(float x) { return (x >= -2147483648.0f && x < 2147483648.0f) ? x : 0.0f; }
static uint add_uint(uint a, uint b) { return (uint)(a + b); }
static uint sub_uint(uint a, uint b) { return (uint)(a - b); }
static uint mul_uint(uint a, uint b) { return (uint)(a * b); }
static uint mod_uint(uint a, uint b) { return b == 0 ? a : (uint)(a % b); }
static uint shl_uint(uint a, uint b) { return (uint)((uint)a << b); }
static uint shr_uint(uint a, uint b) { return a >> b; }
static uint neg_uint(uint a) { return (uint)(-a); }
static float in_uint_float(float x) { return (x > -1.0f && x < 4294967296.0f) ? x : 0.0f; }
static double in_uint_double(double x) { return (x > -1.0 && x < 4294967296.0) ? x : 0.0; }
static long neg_long(long a) { return a == LONG_MIN ? a : -a; }
static float in_long_float(float x) { return (x >= -9223372036854775808.0f && x < 9223372036854775808.0f) ? x : 0.0f; }
static ulong add_ulong(ulong a, ulong b) { return (ulong)(a + b); }
static ulong sub_ulong(ulong a, ulong b) { return (ulong)(a - b); }
static ulong div_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a / b); }
static ulong mod_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a % b); }
static ulong shr_ulong(ulong a, ulong b) { return a >> b; }
static float in_ulong_float(float x) { return (x > -1.0f && x < 18446744073709551616.0f) ? x : 0.0f; }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
static ulong dbits(double x) { return x != x ? 0x7ff8000000000000UL : as_ulong(x); }
typedef struct { double f0; uchar f1; } S0;
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
  ulong2 v1 = (convert_ulong2(((ulong2)(6305207161585176415UL))) & convert_ulong2(((ulong2)(((ulong)lid), 10007094239619190917UL))));
  int v2 = convert_int(neg_uint(cb[6]));
  uint v3 = (((((uint4)(lid)) | ((uint4)(cb[15], in[(((uint)v2)) % 256u], ((uint)v1.y), cb[6]))) ^ ((uint4)(((((char)53) == convert_char(v1.s1)) ? lid : in[(convert_ulong(cb[10])) % 256UL]), as_uint(((float)gp[(((ulong)in[(gid) % 256UL])) % 8UL])), shr_uint(63u, cb[12]), ((uint)v1.y))))).s1;
  uint v4 = ((uint)(v1.yyxx).s3);
  int8 v5 = (convert_int8(((uint8)(98207106u, 32u, gp[(32u) % 8u], cb[15], 65535u, cb[12], in[(gp[(convert_ulong(gp[(6075671625855535226UL) % 8UL])) % 8UL]) % 256u], ((uint)v2)))) & ((int8)((((int2)(15))).s0, div_int(convert_int(gid), 31), 16, ((int)gid), v2, convert_int(gid), convert_int(cb[11]), convert_int(65535u))));
  float v6[4];
  v6[0] = as_float(896509838u);
  v6[1] = (((float2)(convert_float(in[(((ulong)cb[15])) % 256UL])))).s0;
  v6[2] = ((float)v2);
  v6[3] = (((float)v3) * ((float)in[(convert_ulong(v4)) % 256UL]));
  float2 v7 = ((float2)((((float)lid) * ((float)in[(convert_ulong(v5.s6)) % 256UL])), (((float2)((0.0029296875f)))).s0));
  v2 = mod_int(((((uint)(3572877404u ^ convert_uint(v5.s7))) == convert_uint(((char)v2))) ? ((int)lid) : 297749996), ((int)v4));
  lm[lid] = add_uint(add_uint(3034242414u, cb[9]), ((uint)(cb[7] & ((uint)in_uint_float(v7.s0)))));
  gs_barrier();
  v2 = (int)(lm[(lid + 11u) % 64u] + lacc[6]);
  gs_barrier();
  lm[lid] = mul_uint(gp[(((ulong)cb[5])) % 8UL], v4);
  gs_barrier();
  v3 = (uint)(lm[(lid + 20u) % 64u] + lacc[6]);
  gs_barrier();
  if ((((((32u < ((uint)in_uint_float(v6[(convert_uint(gid)) % 4u]))) ? convert_float(cb[0]) : v6[(gid) % 4UL]) == (((float3)(((float)gid), (3086787.5f), (1.0f)))).s2) ? ((6123473269681504152L > ((long)cb[14])) ? ((ushort)cb[10]) : ((ushort)in[(((ulong)cb[12])) % 256UL])) : ((ushort)1230))) != (((ushort)6095))) {
    v1.s0 = ((((ushort)v5.s2) >= ((ushort)64)) ? convert_ulong(in[(v3) % 256u]) : ((ulong)~convert_ulong(in[(3UL) % 256UL])));
    v1 = ((ulong2)(div_ulong(convert_ulong(in[(((ulong)in_ulong_float(v7.s1))) % 256UL]), convert_ulong(in[(((ulong)v5.s5)) % 256UL])), mod_ulong(((ulong)v3), ((ulong)lid))));
  } else {
    v6[(cb[0]) % 4u] = (471015000.0f);
    v1.s1 = ((ulong)v3);
    for (long i8 = 0; i8 < (long)((((uint)(3703119212u | v4))) % 5u); i8 += 1) {
      v7 = ((float2)(((float)v1.y), (convert_float(i8) * ((float)gid))));
      v1.s1 = ((ulong)((((uint2)(255u, 2388966004u)) + ((uint2)(8u)))).s1);
    }
  }
  v4 = mul_uint(v4, as_uint((((0.1875f) / (-669104.2f)) * ((689041.44f) * (127.99805f)))));
  if (lid % 4u == 0u) {
    if ((convert_char(v5.s5)) < (((char)16))) {
      if ((sub_ushort(convert_ushort(in_ushort_float(v6[(convert_ulong(v2)) % 4UL])), ((ushort)v4))) != (convert_ushort(in_ushort_float(v6[(v3) % 4u])))) {
        v1 = ((ulong2)(((ulong)(7UL ^ 7UL)), shr_ulong(((ulong)cb[3]), v1.s1)));
        v4 = 2010382363u;
        gs_atomic_add_l(&lacc[6], shl_uint(7u, ((uint)gid)));
      }
      v1 = (((ulong2)(gid, add_ulong(((ulong)in_ulong_float(v6[(convert_ulong(v5.s0)) % 4UL])), ((ulong)lid)))) + convert_ulong2(((ulong2)(16209938252352779020UL))));
      gs_atomic_add_g(&acc[5], convert_uint(((((int2)(((int)in[(v1.s1) % 256UL]))) & ((int2)(((int)in_int_float(v6[(((ulong)v3)) % 4UL])), 256)))).s0));
    } else {
      for (int i9 = 0; i9 < 4; i9++) {
        gs_atomic_add_l(&lacc[2], ((uint)(as_uint(((float)cb[4])) ^ (((uint4)(127u))).s1)));
        v2 = ((int)(shl_int(((int)cb[15]), ((int)cb[1])) & ((neg_long(((long)v1.s1)) <= convert_long(in[(in[(((ulong)in[(((ulong)in_ulong_float(v7.s1))) % 256UL])) % 256UL]) % 256u])) ? ((int)~(-1218625630)) : as_int(((float)v3)))));
        if (lid % 2u == 0u) continue;
      }
      v4 = ((uint)v1.s0);
      switch ((3337941350u) % 4u) {
      case 0: {
        v6[(shr_uint(cb[9], ((uint)gid))) % 4u] = ((((ushort)in[(((ulong)in_ulong_float(v7.x))) % 256UL]) <= mul_ushort(((ushort)v2), ((ushort)v5.s1))) ? (((float)cb[7]) / ((float)cb[5])) : ((convert_long(in_long_float(v7.x)) <= 1L) ? ((float)in[(15959223802912171352UL) % 256UL]) : convert_float(lid)));
      } break;
      case 1: {
        gs_atomic_add_l(&lacc[2], shl_uint(((uint)~((uint)gid)), v4));
        v3 = sub_uint(convert_uint(in_uint_float(v7.s1)), ((uint)(((uint)(in[(convert_ulong(cb[13])) % 256UL] & ((uint)in_uint_float(v7.x)))) | ((uint)((int)gid)))));
      } break;
      case 2: {
        v5 = ((int8)(((int)(((int)in[(convert_uint(v5.s7)) % 256u]) & 8)), convert_int(in_int_float(((float)v5.s3))), 255, convert_int(in_int_float((((float3)(((float)v2), ((float)cb[4]), (0.0625f)))).s2)), convert_int(in_int_float(((float)cb[12]))), convert_int(cb[6]), 15, ((((short)v4) == ((short)255)) ? convert_int(in_int_float(v7.y)) : ((int)cb[10]))));
        v5.hi = ((int4)(((int)in_int_float(v7.x)), mul_int(((int)lid), ((int)in[(v4) % 256u])), ((int)(((int)v3) | v2)), ((int)(((int)v1.s0) | 348209359))));
      } break;
      default: {
        v3 = (((uint8)(((uint)(((uint)v2) & lid))))).s5;
      }
      }
    }
    gs_atomic_add_l(&lacc[2], ((((uint)(((uint)in_uint_float(v7.s1)) | 418567332u)) != 16u) ? 1767690654u : (((uint2)(v4, cb[0]))).s1));
    v1.lo = ((cb[14] >= cb[5]) ? ((ulong)in_ulong_float(v7.x)) : div_ulong(((ulong)gp[(cb[4]) % 8u]), 3937796026242631022UL));
  }
  v1.s1 = ((ulong)in_ulong_float(v7.s1));
  gp[(((ulong)~256UL)) % 8UL] = ((uint)(((uint)~((uint)v2)) | ((uint)in_uint_float((((float4)(((float)gp[(((ulong)in_ulong_float(v7.x))) % 8UL])))).s0))));
  lm[lid] = convert_uint(in_uint_float(v6[(lid) % 4u]));
  gs_barrier();
  v2 = (int)(lm[(lid + 50u) % 64u] + lacc[7]);
  gs_barrier();
  v7 = ((float2)((((float)v4) * ((float)v4)), ((float)((long)cb[1]))));
  lm[lid] = ((((ushort)(((ushort)gp[(((ulong)in_ulong_float(v7.s1))) % 8UL]) & convert_ushort(in[(((ulong)in[(gp[(cb[15]) % 8u]) % 256u])) % 256UL]))) >= ((ushort)(convert_ushort(v1.y) ^ ((ushort)v3)))) ? convert_uint(256L) : ((uint)in_uint_double(convert_double(in[(15u) % 256u]))));
  gs_barrier();
  v4 = (uint)(lm[(lid + 11u) % 64u] + lacc[2]);
  gs_barrier();
  switch ((((convert_ushort(in_ushort_float((((float8)(v7.s0, (-70832230.0f), ((float)in[(gid) % 256UL]), (0.12402344f), (0.00390625f), ((float)cb[8]), ((float)cb[5]), ((float)cb[8])))).s0)) > ((ushort)(((ushort)gid) ^ ((ushort)lid)))) ? cb[3] : mod_uint(((uint)in_uint_float(v6[(v3) % 4u])), in[(lid) % 256u]))) % 4u) {
  case 0: {
    gs_atomic_add_l(&lacc[2], ((uint)(in[(4094129406u) % 256u] | ((v7.y <= convert_float(in[(((ulong)in_ulong_float(v7.x))) % 256UL])) ? in[(convert_ulong(cb[1])) % 256UL] : ((uint)v2)))));
    v1.yx = ((ulong2)(((ulong)in_ulong_float(v7.x))));
  } break;
  case 1: {
    if ((div_ulong(((ulong)(convert_ulong(v5.s3) ^ ((ulong)in_ulong_float(v6[(((uint)in_uint_float(v7.x))) % 4u])))), ((ulong)v4))) == (sub_ulong(convert_ulong(cb[7]), convert_ulong(v4)))) {
      char v10 = ((char)(((convert_ulong(v4) == ((ulong)in_ulong_float((((float2)(v7.x))).s0))) ? ((char)(((char)v4) | ((char)gid))) : sub_char(((char)3), ((char)0))) | mod_char(((char)17), ((char)((ushort)lid)))));
      h = mix(h, (ulong)(int)v10);
    }
  }
  case 2: {
    for (int i11 = 0; i11 < (int)((as_uint((23262572.0f))) % 5u); i11++) {
      v2 = ((int)((char)(((char)0) ^ convert_char((((int3)(((int)in[(14542863657378664476UL) % 256UL]), convert_int(v4), ((int)in[(2u) % 256u])))).s2))));
      gs_atomic_or_g(&acc[6], ((uint)((((ulong4)(((ulong)in[(cb[14]) % 256u]))) * ((ulong4)(((ulong)v5.s3), convert_ulong(in_ulong_float(v7.y)), 255UL, v1.s0)))).s1));
      __global uint *v12 = gp + (10018939993110770897UL) % 3UL;
      h = mix(h, (ulong)v12[0]);
      h = mix(h, (ulong)v12[1]);
      h = mix(h, (ulong)v12[2]);
      h = mix(h, (ulong)v12[3]);
      h = mix(h, (ulong)v12[4]);
      h = mix(h, (ulong)v12[5]);
      if (lid % 3u == 1u) break;
    }
  } break;
  default: {
    v2 = shl_int(mul_int(((((uchar)in[(((uint)in_uint_float(v7.s1))) % 256u]) != ((uchar)in[(2387150896u) % 256u])) ? v5.s4 : 7), v2), ((int)(((int)(((int)in[(convert_ulong(gp[(((ulong)in_ulong_float(v7.s1))) % 8UL])) % 256UL]) & 0)) & ((int)in_int_float(v6[(in[(3976277969u) % 256u]) % 4u])))));
  }
  }
  S0 v13;
  v13.f0 = (8659190611667379.0);
  v13.f1 = ((uchar)in[(((ulong)in_ulong_float(v6[(in[(6142128099564478934UL) % 256UL]) % 4u]))) % 256UL]);
  v1.s1 = ((ulong)add_uint(2929627388u, cb[0]));
  h = mix(h, (ulong)v1.s0);
  h = mix(h, (ulong)v1.s1);
  h = mix(h, (ulong)v2);
  h = mix(h, (ulong)v3);
  h = mix(h, (ulong)v4);
  h = mix(h, (ulong)v5.s0);
  h = mix(h, (ulong)v5.s1);
  h = mix(h, (ulong)v5.s2);
  h = mix(h, (ulong)v5.s3);
  h = mix(h, (ulong)v5.s4);
  h = mix(h, (ulong)v5.s5);
  h = mix(h, (ulong)v5.s6);
  h = mix(h, (ulong)v5.s7);
  h = mix(h, fbits(v6[0]));
  h = mix(h, fbits(v6[1]));
  h = mix(h, fbits(v6[2]));
  h = mix(h, fbits(v6[3]));
  h = mix(h, fbits(v7.s0));
  h = mix(h, fbits(v7.s1));
  h = mix(h, dbits(v13.f0));
  h = mix(h, (ulong)(uint)v13.f1);
  out[gid] = h;
}
