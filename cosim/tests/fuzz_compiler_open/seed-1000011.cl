// reduced from seed 1000011 (inputs: cosim::fuzz::clgen::exec::inputs(1000011)): wave32 -O1: buffer out differs, first at byte 0: [01, d1, 40, 99, 88, 9e, d0, 8e] (clang) vs [3d, 28, 1a, 90, d8, ff, 4a, 69] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
ulong __attribute__((overloadable)) convert_ulong(uint x) { return (ulong)x; }
float __attribute__((overloadable)) convert_float(int x) { return (float)x; }
float __attribute__((overloadable)) convert_float(ulong x) { return (float)x; }
double __attribute__((overloadable)) convert_double(uint x) { return (double)x; }
ulong __attribute__((overloadable)) convert_ulong(float x) { return (ulong)x; }
int __attribute__((overloadable)) convert_int(uint x) { return (int)x; }
uint __attribute__((overloadable)) convert_uint(int x) { return (uint)x; }
char __attribute__((overloadable)) convert_char(uint x) { return (char)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
uint __attribute__((overloadable)) convert_uint(float x) { return (uint)x; }
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
int __attribute__((overloadable)) convert_int(ulong x) { return (int)x; }
uchar __attribute__((overloadable)) convert_uchar(uint x) { return (uchar)x; }
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
int __attribute__((overloadable)) convert_int(long x) { return (int)x; }
int __attribute__((overloadable)) convert_int(float x) { return (int)x; }
long __attribute__((overloadable)) convert_long(uint x) { return (long)x; }
#endif
static char sub_char(char a, char b) { return (char)(a - b); }
static char mul_char(char a, char b) { return (char)(a * b); }
static char div_char(char a, char b) { return b == 0 ? a : (char)(a / b); }
static char mod_char(char a, char b) { return b == 0 ? a : (char)(a % b); }
static char neg_char(char a) { return (char)(-a); }
static short neg_short(short a) { return (short)(-a); }
static ushort add_ushort(ushort a, ushort b) { return (ushort)(a + b); }
static ushort div_ushort(ushort a, ushort b) { return b == 0 ? a : (ushort)(a / b); }
static float in_ushort_float(float x) { return (x > -1.0f && x < 65536.0f) ? x : 0.0f; }
static int sub_int(int a, int b) { return ((b < 0 && a > INT_MAX + b) || (b > 0 && a < INT_MIN + b)) ? a : a - b; }
static int mul_int(int a, int b) { long r = (long)a * (long)b; return (r > INT_MAX || r < INT_MIN) ? a : (int)r; }
static int shl_int(int a, int b) { return (int)((uint)a << b); }
static int shr_int(int a, int b) { return a >> b; }
static int neg_int(int a) { return a == INT_MIN ? a : -a; }
static float in_int_float(float x) { return (x >= -2147483648.0f && x < 2147483648.0f) ? x : 0.0f; }
static uint div_uint(uint a, uint b) { return b == 0 ? a : (uint)(a / b); }
static uint mod_uint(uint a, uint b) { return b == 0 ? a : (uint)(a % b); }
static uint shr_uint(uint a, uint b) { return a >> b; }
static float in_uint_float(float x) { return (x > -1.0f && x < 4294967296.0f) ? x : 0.0f; }
static long mod_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }
static ulong add_ulong(ulong a, ulong b) { return (ulong)(a + b); }
static ulong sub_ulong(ulong a, ulong b) { return (ulong)(a - b); }
static ulong mul_ulong(ulong a, ulong b) { return (ulong)(a * b); }
static ulong div_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a / b); }
static ulong shl_ulong(ulong a, ulong b) { return (ulong)((ulong)a << b); }
static ulong shr_ulong(ulong a, ulong b) { return a >> b; }
static ulong neg_ulong(ulong a) { return (ulong)(-a); }
static float in_ulong_float(float x) { return (x > -1.0f && x < 18446744073709551616.0f) ? x : 0.0f; }
static double in_ulong_double(double x) { return (x > -1.0 && x < 18446744073709551616.0) ? x : 0.0; }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
typedef struct { short f0; char f1; ulong f2; uchar f3; } S0;
typedef struct { uint f0; int f1; short f2; short f3; } S1;
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
  __global uint *v1 = gp + (convert_ulong(cb[6])) % 2UL;
  __global uint *v2 = gp + (shr_ulong(gid, 256UL)) % 4UL;
  int4 v3 = ((int4)(((127u != ((uint)gid)) ? 15 : ((int)v2[(255UL) % 5UL])), ((((uchar)cb[8]) > ((uchar)1)) ? (-174315034) : 255), ((int)v2[(16UL) % 5UL]), shl_int(((int)v1[(((uint)gid)) % 7u]), ((int)v1[(1743027387u) % 7u]))));
  __global uint *v4 = gp + (neg_ulong(256UL)) % 1UL;
  float2 v5 = ((float2)((convert_float(v3.s1) / convert_float(gid))));
  ulong v6 = as_ulong((((double)gp[(lid) % 8u]) / (convert_double(cb[15]) + ((double)gid))));
  ulong3 v7 = ((ulong3)(as_ulong(convert_double(v1[(convert_ulong(in_ulong_float(v5.s1))) % 7UL])), neg_ulong(((ulong)lid)), v6));
  v3.yw = ((int2)(127, convert_int(v2[(cb[4]) % 5u])));
  gs_atomic_add_g(&acc[0], mod_uint(2742428810u, ((uint)(v1[(((ulong)cb[15])) % 7UL] ^ v2[(v7.x) % 5UL]))));
  lm[lid] = as_uint((-((float)gp[(in[(v1[(((uint)v7.x)) % 7u]) % 256u]) % 8u])));
  gs_barrier();
  v6 = (ulong)(lm[(lid + 7u) % 64u] + lacc[2]);
  gs_barrier();
  v1[(((ulong)lid)) % 7UL] = ((uint)(shr_uint(in[(((ulong)gp[(((ulong)v3.z)) % 8UL])) % 256UL], in[(((ulong)in[(v2[(((ulong)in[(((ulong)lid)) % 256UL])) % 5UL]) % 256u])) % 256UL]) ^ ((uint)(((int2)(256))).s1)));
  v1[(convert_ulong(v2[(convert_ulong(in_ulong_float(v5.s0))) % 5UL])) % 7UL] = cb[14];
  for (ulong i8 = 0; i8 < 3; i8 += 1) {
    if ((((short)in[(in[(in[(i8) % 256UL]) % 256u]) % 256u])) < (((short)0))) {
      v6 = shl_ulong(v6, add_ulong(((ulong)(sub_ulong(0UL, ((ulong)in[(((ulong)v1[(convert_ulong(in[(5533396843179567646UL) % 256UL])) % 7UL])) % 256UL])) | as_ulong(convert_double(cb[8])))), mul_ulong(mul_ulong(((ulong)v1[(convert_ulong(in[(14834391319386090380UL) % 256UL])) % 7UL]), i8), shl_ulong(v7.y, ((ulong)in[(v4[(((ulong)in[(1134654162u) % 256u])) % 8UL]) % 256u])))));
      v3.hi = v3.zx;
    }
  }
  if (lid % 5u == 0u) {
    gs_atomic_add_l(&lacc[5], v1[(convert_ulong(gp[(lid) % 8u])) % 7UL]);
    for (int i9 = 0; i9 < 1; i9++) {
      v7.zy = ((ulong2)(neg_ulong(v7.s1), shl_ulong(((ulong)in_ulong_float(v5.y)), 2UL)));
      for (int i10 = 0; i10 < 3; i10++) {
        char v11 = ((((ushort)(((ushort)cb[3]) ^ ((ushort)32))) >= ((ushort)in_ushort_float(v5.s1))) ? mul_char(((char)cb[8]), ((char)v7.x)) : ((char)(sub_char(((char)v1[(convert_uint(v3.s1)) % 7u]), convert_char(i9)) & convert_char(cb[2]))));
        v11 = mul_char(v11, neg_char(mod_char(div_char(((char)v1[(((uint)i10)) % 7u]), convert_char(i10)), ((char)in[(convert_ulong(i10)) % 256UL]))));
        h = mix(h, (ulong)(int)v11);
      }
      if ((add_ushort(((ushort)~((ushort)v3.w)), div_ushort(((ushort)v4[(((ulong)i9)) % 8UL]), ((ushort)v3.s2)))) > (((ushort)(((ushort)in[(cb[9]) % 256u]) ^ ((ushort)in_ushort_float(v5.x)))))) break;
    }
  }
  switch ((((uint)(((uint)(3745111851u & 2991877722u)) | mod_uint(((uint)v7.y), in[(v1[(in[(v6) % 256UL]) % 7u]) % 256u])))) % 4u) {
  case 0: {
    int v12 = shl_int(convert_int((((ulong3)(((((long)cb[5]) > ((long)in[(gp[(((ulong)v2[(((ulong)v3.x)) % 5UL])) % 8UL]) % 256u])) ? convert_ulong(in[(convert_uint(in_uint_float(v5.x))) % 256u]) : ((ulong)in[(convert_uint(v6)) % 256u])), ((ulong)in_ulong_float(((float)gp[(lid) % 8u]))), add_ulong(((ulong)v3.s0), ((ulong)in[(v2[(2747302863791725182UL) % 5UL]) % 256u]))))).s1), ((((short)v7.s2) == neg_short(((short)gp[(4130874721u) % 8u]))) ? ((((ushort)8) != ((ushort)v2[(convert_uint(v7.s2)) % 5u])) ? ((int)v6) : convert_int(v6)) : mul_int(255, v3.y)));
    gs_atomic_add_l(&lacc[4], shr_uint(div_uint(cb[3], 2905140259u), as_uint(((float)v3.s1))));
    h = mix(h, (ulong)v12);
  }
  case 1: {
    v3.odd = ((int2)(((int)in_int_float(((float)v1[(((ulong)in_ulong_float(v5.x))) % 7UL])))));
  }
  case 2: {
    ulong16 v13 = (((ulong16)(((ulong)~((ulong)v4[(0u) % 8u])), ((((long)gid) == ((long)gp[(cb[3]) % 8u])) ? convert_ulong(in[(((ulong)lid)) % 256UL]) : ((ulong)cb[3])), ((ulong)gp[(in[(v4[(in[(convert_ulong(gp[(((uint)v3.w)) % 8u])) % 256UL]) % 8u]) % 256u]) % 8u]), ((ulong)0L), ((ulong)(((int2)(((int)in[(((uint)gid)) % 256u])))).s0), mul_ulong(convert_ulong(in[(((ulong)gp[(in[(((ulong)cb[10])) % 256UL]) % 8u])) % 256UL]), 15UL), ((ulong)in_ulong_double((9.238719940185547e-7))), neg_ulong(1189935292468378803UL), shr_ulong(convert_ulong(in[(9643864011960237564UL) % 256UL]), ((ulong)cb[8])), shr_ulong(convert_ulong(in_ulong_float(v5.x)), v7.s2), as_ulong((2503018929870995.5)), ((ulong)in[(cb[5]) % 256u]), ((((long)cb[2]) > ((long)cb[3])) ? gid : ((ulong)v2[(2971026414u) % 5u])), ((ulong)(((ulong)cb[4]) | ((ulong)v1[(((uint)v7.y)) % 7u]))), ((ulong)~((ulong)in[(cb[4]) % 256u])), shr_ulong(gid, ((ulong)v1[(65535UL) % 7UL])))) | ((ulong16)(((ulong)((long)v6)), convert_ulong(((uint)v6)), (v7).s0, ((ulong)lid), as_ulong(((double)gid)), neg_ulong(((ulong)v4[(((uint)in_uint_float(v5.s1))) % 8u])), convert_ulong(cb[15]), ((ulong)~((ulong)in[(v6) % 256UL])), shl_ulong(12720348015705948863UL, 63UL), convert_ulong(in[(in[(gp[(v2[(((uint)in_uint_float(v5.y))) % 5u]) % 8u]) % 256u]) % 256u]), as_ulong((7.392372936010361e-9)), ((ulong)(((ulong)gp[(((ulong)v1[(((ulong)cb[5])) % 7UL])) % 8UL]) | convert_ulong(v3.s0))), shr_ulong(((ulong)gp[(32UL) % 8UL]), convert_ulong(gp[(((uint)v3.s2)) % 8u])), ((ulong)(v6 | 15UL)), shl_ulong(((ulong)v1[(15187381067337901086UL) % 7UL]), convert_ulong(lid)), ((ulong)((int)((char)v1[(2u) % 7u]))))));
    h = mix(h, (ulong)v13.s0);
    h = mix(h, (ulong)v13.s1);
    h = mix(h, (ulong)v13.s2);
    h = mix(h, (ulong)v13.s3);
    h = mix(h, (ulong)v13.s4);
    h = mix(h, (ulong)v13.s5);
    h = mix(h, (ulong)v13.s6);
    h = mix(h, (ulong)v13.s7);
    h = mix(h, (ulong)v13.s8);
    h = mix(h, (ulong)v13.s9);
    h = mix(h, (ulong)v13.sa);
    h = mix(h, (ulong)v13.sb);
    h = mix(h, (ulong)v13.sc);
    h = mix(h, (ulong)v13.sd);
    h = mix(h, (ulong)v13.se);
    h = mix(h, (ulong)v13.sf);
  } break;
  default: {
    if ((((ushort)256)) != (((ushort)~((ushort)127)))) {
      switch ((((uint)~v2[(32u) % 5u])) % 4u) {
      case 0: {
        v7.xzy = ((ulong3)(((ulong)cb[0]), neg_ulong(((ulong)in[(((ulong)v2[(5408694120131952238UL) % 5UL])) % 256UL])), convert_ulong(cb[0])));
      } break;
      case 1: {
        v6 = add_ulong(v6, mul_ulong(neg_ulong(convert_ulong(lid)), convert_ulong(v2[(127u) % 5u])));
      } break;
      case 2: {
        __global uint *v14 = gp + (((ulong)lid)) % 3UL;
        gs_atomic_add_l(&lacc[5], mod_uint(as_uint(((float)v7.s1)), shr_uint(convert_uint(gid), lid)));
        h = mix(h, (ulong)v14[0]);
        h = mix(h, (ulong)v14[1]);
        h = mix(h, (ulong)v14[2]);
        h = mix(h, (ulong)v14[3]);
        h = mix(h, (ulong)v14[4]);
        h = mix(h, (ulong)v14[5]);
      } break;
      default: {
        v3.s1 = ((((uchar)(((uchar)cb[4]) | convert_uchar(lid))) != ((uchar)97)) ? neg_int(((int)gp[(((uint)in_uint_float(v5.y))) % 8u])) : ((int)in_int_float((((float4)(convert_float(v7.s0), (0.0625f), ((float)in[(convert_uint(v7.s0)) % 256u]), convert_float(gp[(((ulong)cb[7])) % 8UL])))).s0)));
        v5.s0 = as_float(as_uint((-222327840.0f)));
      }
      }
      if (lid % 5u == 0u) {
        v5 = ((float2)(((float)((short)in[(255u) % 256u])), (((float2)(((float)cb[0])))).s1));
        v3 = ((int4)(((int)v6), sub_int(((int)cb[0]), ((int)cb[14])), convert_int(256L), as_int(v5.y)));
      }
      gp[(((ulong)(((uint4)(gp[(15952531090485968010UL) % 8UL], 3u, v2[(convert_ulong(in[(((ulong)lid)) % 256UL])) % 5UL], 2873143656u))).s1)) % 8UL] = as_uint(((float)v1[(3482016192u) % 7u]));
    }
    v3.s0 = as_int(as_float(lid));
  }
  }
  v4[(((ulong)cb[14])) % 8UL] = shr_uint(as_uint(((float)gp[(convert_ulong(v2[(in[(cb[9]) % 256u]) % 5u])) % 8UL])), in[(16973515814562243924UL) % 256UL]);
  gp[(as_ulong(((double)v6))) % 8UL] = div_uint(as_uint((17276150.0f)), ((convert_double(cb[9]) >= ((double)gid)) ? v4[(in[(((uint)v7.s1)) % 256u]) % 8u] : cb[12]));
  v3 = ((int4)((-881682450), (-574659235), shr_int(65535, ((int)v4[(v6) % 8UL])), ((int)v2[(256u) % 5u])));
  v3.wx = ((int2)(mul_int(convert_int(in[(1796237028u) % 256u]), ((int)gp[(convert_ulong(in[(v2[(cb[6]) % 5u]) % 256u])) % 8UL])), convert_int(in_int_float((((float8)(((float)gid), ((float)cb[4]), ((float)cb[9]), ((float)gp[(gp[(cb[14]) % 8u]) % 8u]), (-237998.52f), (172232.44f), convert_float(gid), (0.0078125f)))).s5))));
  ulong v15 = ((ulong)gp[(((ulong)v2[(((ulong)cb[1])) % 5UL])) % 8UL]);
  if ((((long)(mod_long(15L, 4136951896335851854L) & ((long)(((long)in[(v2[(convert_uint(v6)) % 5u]) % 256u]) & convert_long(v4[(2705523038u) % 8u])))))) != (((long)v15))) {
    v7 = ((ulong3)(add_ulong(16674118395123438527UL, convert_ulong(in[(convert_ulong(lid)) % 256UL])), ((ulong)~((ulong)in_ulong_float(v5.s1))), mul_ulong(((ulong)v1[(in[(((uint)v6)) % 256u]) % 7u]), v15)));
  } else {
    v6 = add_ulong(v6, shr_ulong(neg_ulong(div_ulong(((ulong)lid), 15119667413790696736UL)), neg_ulong(shr_ulong(3UL, ((ulong)in[(15UL) % 256UL])))));
    v3.xz = ((int2)(shr_int(convert_int(cb[14]), convert_int(gp[(((ulong)cb[2])) % 8UL])), ((int)convert_long(v4[(v1[(in[(((uint)v7.s2)) % 256u]) % 7u]) % 8u]))));
  }
  h = mix(h, (ulong)v1[0]);
  h = mix(h, (ulong)v1[1]);
  h = mix(h, (ulong)v1[2]);
  h = mix(h, (ulong)v1[3]);
  h = mix(h, (ulong)v1[4]);
  h = mix(h, (ulong)v1[5]);
  h = mix(h, (ulong)v1[6]);
  h = mix(h, (ulong)v2[0]);
  h = mix(h, (ulong)v2[1]);
  h = mix(h, (ulong)v2[2]);
  h = mix(h, (ulong)v2[3]);
  h = mix(h, (ulong)v2[4]);
  h = mix(h, (ulong)v3.s0);
  h = mix(h, (ulong)v3.s1);
  h = mix(h, (ulong)v3.s2);
  h = mix(h, (ulong)v3.s3);
  h = mix(h, (ulong)v4[0]);
  h = mix(h, (ulong)v4[1]);
  h = mix(h, (ulong)v4[2]);
  h = mix(h, (ulong)v4[3]);
  h = mix(h, (ulong)v4[4]);
  h = mix(h, (ulong)v4[5]);
  h = mix(h, (ulong)v4[6]);
  h = mix(h, (ulong)v4[7]);
  h = mix(h, fbits(v5.s0));
  h = mix(h, fbits(v5.s1));
  h = mix(h, (ulong)v6);
  h = mix(h, (ulong)v7.s0);
  h = mix(h, (ulong)v7.s1);
  h = mix(h, (ulong)v7.s2);
  h = mix(h, (ulong)v15);
  out[gid] = h;
}
