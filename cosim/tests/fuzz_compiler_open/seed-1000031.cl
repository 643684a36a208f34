// reduced from seed 1000031 (inputs: cosim::fuzz::clgen::exec::inputs(1000031)): wave32 -O1: buffer out differs, first at byte 8: [08, 7b, 73, a7, 8d, 26, 0d, bc] (clang) vs [84, 4e, d8, e3, 32, bb, b3, a3] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
float __attribute__((overloadable)) convert_float(ulong x) { return (float)x; }
char __attribute__((overloadable)) convert_char(uint x) { return (char)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
long __attribute__((overloadable)) convert_long(uint x) { return (long)x; }
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
uchar __attribute__((overloadable)) convert_uchar(uint x) { return (uchar)x; }
ushort __attribute__((overloadable)) convert_ushort(float x) { return (ushort)x; }
int __attribute__((overloadable)) convert_int(ulong x) { return (int)x; }
int __attribute__((overloadable)) convert_int(long x) { return (int)x; }
uint __attribute__((overloadable)) convert_uint(float x) { return (uint)x; }
ushort __attribute__((overloadable)) convert_ushort(int x) { return (ushort)x; }
ulong __attribute__((overloadable)) convert_ulong(uint x) { return (ulong)x; }
double __attribute__((overloadable)) convert_double(uint x) { return (double)x; }
uint __attribute__((overloadable)) convert_uint(uchar x) { return (uint)x; }
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
uint __attribute__((overloadable)) convert_uint(double x) { return (uint)x; }
float __attribute__((overloadable)) convert_float(long x) { return (float)x; }
double __attribute__((overloadable)) convert_double(ulong x) { return (double)x; }
ulong __attribute__((overloadable)) convert_ulong(long x) { return (ulong)x; }
ulong __attribute__((overloadable)) convert_ulong(float x) { return (ulong)x; }
short __attribute__((overloadable)) convert_short(long x) { return (short)x; }
uint __attribute__((overloadable)) convert_uint(long x) { return (uint)x; }
short __attribute__((overloadable)) convert_short(uint x) { return (short)x; }
int8 __attribute__((overloadable)) convert_int8(int8 x) { return __builtin_convertvector(x, int8); }
float8 __attribute__((overloadable)) convert_float8(int8 x) { return __builtin_convertvector(x, float8); }
ushort __attribute__((overloadable)) convert_ushort(uint x) { return (ushort)x; }
long __attribute__((overloadable)) convert_long(int x) { return (long)x; }
uchar __attribute__((overloadable)) convert_uchar(char x) { return (uchar)x; }
#endif
static char add_char(char a, char b) { return (char)(a + b); }
static char sub_char(char a, char b) { return (char)(a - b); }
static uchar mod_uchar(uchar a, uchar b) { return b == 0 ? a : (uchar)(a % b); }
static uchar shr_uchar(uchar a, uchar b) { return (uchar)(a >> (b & 7)); }
static short div_short(short a, short b) { return b == 0 ? a : (short)(a / b); }
static float in_short_float(float x) { return (x > -32769.0f && x < 32768.0f) ? x : 0.0f; }
static ushort mul_ushort(ushort a, ushort b) { return (ushort)((uint)a * (uint)b); }
static float in_ushort_float(float x) { return (x > -1.0f && x < 65536.0f) ? x : 0.0f; }
static int add_int(int a, int b) { return ((b > 0 && a > INT_MAX - b) || (b < 0 && a < INT_MIN - b)) ? a : a + b; }
static int mul_int(int a, int b) { long r = (long)a * (long)b; return (r > INT_MAX || r < INT_MIN) ? a : (int)r; }
static int mod_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }
static float in_int_float(float x) { return (x >= -2147483648.0f && x < 2147483648.0f) ? x : 0.0f; }
static uint sub_uint(uint a, uint b) { return (uint)(a - b); }
static uint mul_uint(uint a, uint b) { return (uint)(a * b); }
static uint div_uint(uint a, uint b) { return b == 0 ? a : (uint)(a / b); }
static uint mod_uint(uint a, uint b) { return b == 0 ? a : (uint)(a % b); }
static uint shl_uint(uint a, uint b) { return (uint)((uint)a << b); }
static uint shr_uint(uint a, uint b) { return a >> b; }
static uint neg_uint(uint a) { return (uint)(-a); }
static float in_uint_float(float x) { return (x > -1.0f && x < 4294967296.0f) ? x : 0.0f; }
static double in_uint_double(double x) { return (x > -1.0 && x < 4294967296.0) ? x : 0.0; }
static long mul_long(long a, long b) { return ((a > 0 && b > 0 && a > LONG_MAX / b) || (a > 0 && b <= 0 && b < LONG_MIN / a) || (a <= 0 && b > 0 && a < LONG_MIN / b) || (a < 0 && b < 0 && b < LONG_MAX / a)) ? a : a * b; }
static long div_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a / b; }
static long mod_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }
static long shl_long(long a, long b) { return (long)((ulong)a << b); }
static long shr_long(long a, long b) { return a >> b; }
static float in_long_float(float x) { return (x >= -9223372036854775808.0f && x < 9223372036854775808.0f) ? x : 0.0f; }
static ulong sub_ulong(ulong a, ulong b) { return (ulong)(a - b); }
static ulong mul_ulong(ulong a, ulong b) { return (ulong)(a * b); }
static ulong div_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a / b); }
static ulong mod_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a % b); }
static ulong shl_ulong(ulong a, ulong b) { return (ulong)((ulong)a << b); }
static ulong neg_ulong(ulong a) { return (ulong)(-a); }
static float in_ulong_float(float x) { return (x > -1.0f && x < 18446744073709551616.0f) ? x : 0.0f; }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
typedef struct { float f0; char f1; ulong f2; } S0;
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
  S0 v1;
  v1.f0 = (convert_float(gid) - (0.9921875f));
  v1.f1 = ((char)(((char)in[(lid) % 256u]) ^ convert_char(in[(cb[10]) % 256u])));
  v1.f2 = ((ulong)(((int8)(((int)in[(lid) % 256u])))).s1);
  uint v2 = ((uint)gid);
  long v3[5];
  v3[0] = ((long)gp[(v2) % 8u]);
  v3[1] = mod_long(((long)gp[(convert_ulong(((int)v1.f1))) % 8UL]), (-6968554521096555828L));
  v3[2] = ((long)(convert_long(in[(3140106766u) % 256u]) | ((long)((int)v1.f1))));
  v3[3] = mul_long(32L, ((long)cb[6]));
  v3[4] = ((long)in_long_float((((float4)((0.0073242188f), convert_float(in[(((ulong)gp[(((ulong)in[(((ulong)gp[(((uint)v1.f2)) % 8u])) % 256UL])) % 8UL])) % 256UL]), ((float)in[(cb[5]) % 256u]), ((float)gid)))).s0));
  float16 v4 = ((float16)(((float)gid), (((float)v3[(((ulong)cb[5])) % 5UL]) * convert_float(cb[3])), convert_float(v2), ((((uchar)gp[(((ulong)lid)) % 8UL]) > convert_uchar(gp[(cb[15]) % 8u])) ? (-215395980.0f) : (16.0f)), (((float)cb[6]) * (-5866236.0f)), (((float)in[(256u) % 256u]) + convert_float(lid)), ((float)v2), ((float)gp[(1910559280u) % 8u]), as_float(63u), ((float)cb[10]), ((convert_ushort(in_ushort_float(v1.f0)) >= ((ushort)gid)) ? v1.f0 : ((float)in[(8u) % 256u])), (((float3)((-1252457.4f), convert_float(gp[(((ulong)v3[(14271160640854511854UL) % 5UL])) % 8UL]), ((float)gid)))).s1, (-(4.0f)), (((float)v1.f1) + ((float)cb[7])), (v1.f0 / convert_float(v2)), ((-38525150.0f) - ((float)cb[0]))));
  if ((((char)mul_int(((int)v3[(16u) % 5u]), convert_int(v1.f2)))) < (((char)(((char)lid) & ((char)-1))))) {
    if (lid % 5u == 0u) {
      if ((((double)gp[(gid) % 8UL])) <= (((double)(v4.se9d5).s1))) {
        gs_atomic_add_l(&lacc[5], ((uint)~cb[7]));
      } else {
        gs_atomic_xor_g(&acc[7], in[(63u) % 256u]);
        gs_atomic_add_l(&lacc[7], as_uint(((float)v2)));
      }
      v4.sf = as_float(((v3[(((ulong)in[(cb[0]) % 256u])) % 5UL] == ((long)v1.f2)) ? 31u : cb[10]));
    } else {
      if ((((int)cb[1])) <= (((int)(convert_int(v3[(((ulong)in_ulong_float(v4.se))) % 5UL]) ^ ((int)v1.f2))))) {
        long v5 = ((long)v1.f2);
        h = mix(h, (ulong)v5);
      } else {
        v3[(2354365603u) % 5u] = ((long)in_long_float((((float4)(as_float(lid), ((v4.s8 == ((float)gid)) ? ((float)gid) : ((float)v1.f1)), ((float)v3[(255UL) % 5UL]), (0.015625f)))).s0));
        v3[(((uint)(2u & ((uint)in_uint_float(v4.sa))))) % 5u] = ((((ulong)~((ulong)gp[(cb[14]) % 8u])) >= shl_ulong(v1.f2, 16UL)) ? ((long)~((long)lid)) : ((long)(((long)cb[3]) | v3[(gp[(convert_uint(in_uint_float(v4.s9))) % 8u]) % 5u])));
        v4.se = convert_float(in[(1UL) % 256UL]);
        long *p6 = &v3[0];
        h = mix(h, (ulong)*p6);
      }
    }
  } else {
    for (long i7 = 0; i7 < 3; i7 += 1) {
      ushort v8 = ((cb[5] != 255u) ? mul_ushort(convert_ushort((((int4)(((int)lid)))).s0), ((ushort)(((ushort)54663) ^ ((ushort)lid)))) : ((ushort)((((int8)(((int)cb[2]), ((int)gid), ((int)cb[11]), 127, (-673591464), ((int)in_int_float(v4.s4)), ((int)in_int_float(v4.sa)), ((int)in_int_float(v4.sb)))) | ((int8)(((int)in_int_float(v4.s7)), ((int)lid), convert_int(v3[(((ulong)((int)v1.f1))) % 5UL]), ((int)cb[11]), ((int)gid), ((int)gp[(cb[8]) % 8u]), ((int)in[(gid) % 256UL]), ((int)i7))))).s2));
      v1.f1 = add_char(((char)v8), ((char)v2));
      h = mix(h, (ulong)(uint)v8);
    }
    if ((((char)(sub_char(convert_char(in[(32u) % 256u]), ((char)gp[(((uint)in_uint_float(v4.s8))) % 8u])) ^ ((char)(((char)cb[7]) & ((char)63)))))) <= (((((int)cb[6]) < ((int)gp[(convert_ulong(gp[(2865230225u) % 8u])) % 8UL])) ? ((char)in[(gp[(in[(((uint)v1.f1)) % 256u]) % 8u]) % 256u]) : ((char)gid)))) {
      uchar v9[3];
      v9[0] = mod_uchar(((uchar)127), ((uchar)cb[13]));
      v9[1] = ((uchar)gid);
      v9[2] = ((uchar)(((uchar)in[(((ulong)cb[15])) % 256UL]) ^ ((uchar)0)));
      v9[(div_uint(lid, ((uint)in_uint_float(v4.sa)))) % 3u] = v9[(2u) % 3u];
      h = mix(h, (ulong)(uint)v9[0]);
      h = mix(h, (ulong)(uint)v9[1]);
      h = mix(h, (ulong)(uint)v9[2]);
    }
    v4.sca = ((float2)((((float)lid) * ((float)lid)), (convert_float(cb[4]) - ((float)cb[2]))));
  }
  if ((((((double)cb[8]) * ((double)cb[2])) + (-((double)in[(((ulong)in[(((ulong)gp[(941151083u) % 8u])) % 256UL])) % 256UL])))) < ((convert_double(gp[(gid) % 8UL]) - ((double)cb[10])))) {
    v1.f0 = convert_float(gid);
    v3[(mod_uint(64u, lid)) % 5u] = ((long)(((long)(convert_long(v2) ^ v3[(((ulong)gp[(3u) % 8u])) % 5UL])) | (-6667692233837392410L)));
  } else {
    int3 v10 = ((int3)(((int)v3[(((ulong)in[(gp[(8UL) % 8UL]) % 256u])) % 5UL])));
    v2 = ((shl_uint(convert_uint(((uchar)cb[1])), ((uint)(65535u | cb[6]))) <= ((div_ulong(10243061736627916872UL, convert_ulong(cb[3])) >= (((ulong2)(2457633551959153967UL))).s0) ? sub_uint(((uint)in_uint_float(v4.s4)), lid) : lid)) ? ((uint)(div_uint(gp[(v2) % 8u], convert_uint(v1.f2)) ^ as_uint(((float)cb[0])))) : convert_uint(in_uint_double((1.192074705613777e-7))));
    h = mix(h, (ulong)v10.s0);
    h = mix(h, (ulong)v10.s1);
    h = mix(h, (ulong)v10.s2);
  }
  v4.s4d7 = ((float3)((((float)cb[6]) - v4.sa), as_float(convert_uint(gid)), (((float)v2) + ((float)cb[12]))));
  v1.f0 = (-1879167.9f);
  v3[(((uint)(((ulong3)(gid))).s0)) % 5u] = shr_long(div_long(((long)v2), ((long)in[(((uint)in_uint_float(v4.s9))) % 256u])), mul_long(convert_long(in[(8UL) % 256UL]), 8765099713620812684L));
  long *p11 = &v3[0];
  v4.sbe7 = ((float3)((((float4)((0.00390625f), convert_float((*p11)), v4.s6, ((float)gid)))).s0, convert_float(in[(((uint)in_uint_float(v4.sf))) % 256u]), (-((float)gid))));
  for (ulong i12 = 0; i12 < (ulong)((((convert_double(gid) >= ((double)cb[14])) ? 65535u : 1158110596u)) % 5u); i12 += 1) {
    gs_atomic_xor_g(&acc[2], shl_uint(((uint)in_uint_double((0.0))), shr_uint(lid, convert_uint(gid))));
    *p11 = as_long(((2691048525973.6255) * ((double)i12)));
    *p11 = ((long)(convert_long(v2) & mul_long((*p11), ((long)v1.f2))));
    if (lid % 5u == 1u) break;
  }
  v2 = mul_uint(v2, ((uint)~shr_uint(cb[10], shr_uint(convert_uint(in_uint_float(v1.f0)), 127u))));
  if (lid % 3u == 0u) {
    v4.s1f = ((float2)(((cb[14] == 1601935722u) ? (3.75f) : ((float)(*p11))), (((float)gid) - ((float)v3[(274023773u) % 5u]))));
    long *p13 = &v3[4];
    for (int i14 = 0; i14 < (int)((sub_uint(in[(convert_ulong(v3[(v1.f2) % 5UL])) % 256UL], in[(convert_ulong(in_ulong_float(v4.s9))) % 256UL])) % 5u); i14++) {
      if ((div_short(((short)(convert_short((*p13)) | convert_short(gp[(convert_uint((*p13))) % 8u]))), ((short)in[(((uint)gid)) % 256u]))) > (((short)gid))) {
        short v15 = ((short)19061);
        h = mix(h, (ulong)(int)v15);
      }
      if ((mod_uchar(((uchar)in[(((uint)(*p11))) % 256u]), shr_uchar(((uchar)68), ((uchar)i14)))) > (((uchar)(((uchar)lid) | ((uchar)lid))))) {
        *p11 = ((long)(5013597281342093405L ^ ((long)(((uint3)(((uint)(*p11)), 64u, convert_uint((*p11))))).s1)));
        long *p16 = &v3[0];
        h = mix(h, (ulong)*p16);
      } else {
        v4.even = convert_float8(convert_int8(((int8)(((int)(*p11)), i14, ((int)cb[11]), ((int)gid), 63, 64, ((int)lid), ((int)(*p11))))));
        *p11 = convert_long((((uint4)(mod_uint(convert_uint(gid), convert_uint((*p13))), ((uint)(in[(12112458475145550270UL) % 256UL] ^ convert_uint(in_uint_float(v4.s1)))), ((((int)v1.f1) == ((int)cb[0])) ? convert_uint(gid) : ((uint)v1.f2)), ((uint)(2u & 2352357879u))))).s1);
        v3[(((uint)(*p13))) % 5u] = ((long)((int)v1.f1));
      }
      if ((shl_ulong(((ulong)(((ulong)v3[(1u) % 5u]) | ((ulong)in[(in[(12197702186668307024UL) % 256UL]) % 256u]))), sub_ulong(((ulong)in[(lid) % 256u]), ((ulong)in[(cb[9]) % 256u])))) >= (mul_ulong(5011986291453874465UL, convert_ulong((*p13))))) break;
    }
    h = mix(h, (ulong)*p13);
  }
  lm[lid] = mul_uint(in[(v1.f2) % 256UL], ((uint)~in[(convert_ulong((*p11))) % 256UL]));
  gs_barrier();
  v2 = (uint)(lm[(lid + 60u) % 64u] + lacc[4]);
  gs_barrier();
  gs_atomic_add_l(&lacc[6], shl_uint(((uint)(cb[12] ^ gp[(convert_ulong(v2)) % 8UL])), ((((int)(*p11)) != ((int)v2)) ? 4252136902u : ((uint)v3[(((uint)(*p11))) % 5u]))));
  for (ulong i17 = 0; i17 < 2; i17 += 1) {
    gp[(as_ulong(convert_double(cb[11]))) % 8UL] = as_uint((v4.s02d).s1);
    if ((((char)~((797108710u != 32u) ? convert_char(cb[15]) : ((char)cb[12])))) >= (((char)(*p11)))) {
      S0 v18;
      v18.f0 = ((float)v2);
      v18.f1 = ((char)(((char)lid) | ((char)lid)));
      v18.f2 = neg_ulong(63UL);
      if (lid % 6u == 1u) {
        v1.f0 = as_float(lid);
        v18.f2 = 18225443332592773963UL;
      }
      h = mix(h, fbits(v18.f0));
      h = mix(h, (ulong)(int)v18.f1);
      h = mix(h, (ulong)v18.f2);
    } else {
      gs_atomic_or_g(&acc[1], lid);
    }
    if ((as_long((-5.316026141719336e16))) >= (((long)in[(((uint)v3[(65535UL) % 5UL])) % 256u]))) {
      if ((((short)(((short)(((short)in_short_float(v4.s4)) & ((short)cb[12]))) ^ ((short)cb[0])))) <= (((short)cb[2]))) {
        *p11 = ((long)~shl_long(convert_long(gp[(((uint)in_uint_float(v4.sd))) % 8u]), (*p11)));
      }
    } else {
      v1.f0 = (-convert_float(gp[(in[(256u) % 256u]) % 8u]));
      if ((((ushort)(*p11))) < (((ushort)(((ushort)(*p11)) | convert_ushort(in[(in[(((ulong)cb[2])) % 256UL]) % 256u]))))) {
        v1.f0 = ((mod_int(127, 65535) == add_int(((int)lid), ((int)(*p11)))) ? ((float)in[(cb[9]) % 256u]) : ((0.25f) / convert_float(v3[(((uint)in_uint_float(v4.s1))) % 5u])));
        v1.f0 = (((0.0625f) * convert_float(v2)) / (((float2)((-18529704.0f)))).s0);
      } else {
        __global uint *v19 = gp + (mul_ulong(i17, 283684198931269303UL)) % 4UL;
        h = mix(h, (ulong)v19[0]);
        h = mix(h, (ulong)v19[1]);
        h = mix(h, (ulong)v19[2]);
        h = mix(h, (ulong)v19[3]);
        h = mix(h, (ulong)v19[4]);
      }
      v3[(((uint)gid)) % 5u] = ((long)as_uint(((float)in[(1u) % 256u])));
    }
  }
  if (lid % 4u == 1u) {
    v3[(shl_uint(((uint)v3[(((uint)in_uint_float(v1.f0))) % 5u]), in[(convert_ulong(in[(((ulong)in_ulong_float(v4.s0))) % 256UL])) % 256UL])) % 5u] = convert_long(((int)v1.f1));
    gs_atomic_add_l(&lacc[7], neg_uint(convert_uint(convert_ulong(in[(convert_uint(gid)) % 256u]))));
    v1.f2 = ((convert_uchar(convert_char(in[(convert_ulong(in[(1u) % 256u])) % 256UL])) != ((uchar)255)) ? mod_ulong(gid, ((ulong)v3[(((uint)v3[(in[(((ulong)gp[(31u) % 8u])) % 256UL]) % 5u])) % 5u])) : v1.f2);
  }
  lm[lid] = cb[5];
  gs_barrier();
  v2 = (uint)(lm[(lid + 5u) % 64u] + lacc[6]);
  gs_barrier();
  h = mix(h, fbits(v1.f0));
  h = mix(h, (ulong)(int)v1.f1);
  h = mix(h, (ulong)v1.f2);
  h = mix(h, (ulong)v2);
  h = mix(h, (ulong)v3[0]);
  h = mix(h, (ulong)v3[1]);
  h = mix(h, (ulong)v3[2]);
  h = mix(h, (ulong)v3[3]);
  h = mix(h, (ulong)v3[4]);
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
  h = mix(h, (ulong)*p11);
  out[gid] = h;
}
