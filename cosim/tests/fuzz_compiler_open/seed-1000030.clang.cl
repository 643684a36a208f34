// clgen seed 1000030
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
uchar __attribute__((overloadable)) convert_uchar(uint x) { return (uchar)x; }
char __attribute__((overloadable)) convert_char(uint x) { return (char)x; }
uint __attribute__((overloadable)) convert_uint(long x) { return (uint)x; }
ulong __attribute__((overloadable)) convert_ulong(uint x) { return (ulong)x; }
char __attribute__((overloadable)) convert_char(short x) { return (char)x; }
uint __attribute__((overloadable)) convert_uint(double x) { return (uint)x; }
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
uchar __attribute__((overloadable)) convert_uchar(ulong x) { return (uchar)x; }
int __attribute__((overloadable)) convert_int(long x) { return (int)x; }
float __attribute__((overloadable)) convert_float(uchar x) { return (float)x; }
double __attribute__((overloadable)) convert_double(float x) { return (double)x; }
uint __attribute__((overloadable)) convert_uint(char x) { return (uint)x; }
long __attribute__((overloadable)) convert_long(uint x) { return (long)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
int __attribute__((overloadable)) convert_int(char x) { return (int)x; }
char __attribute__((overloadable)) convert_char(float x) { return (char)x; }
ulong __attribute__((overloadable)) convert_ulong(double x) { return (ulong)x; }
double __attribute__((overloadable)) convert_double(uint x) { return (double)x; }
uint __attribute__((overloadable)) convert_uint(uchar x) { return (uint)x; }
double __attribute__((overloadable)) convert_double(int x) { return (double)x; }
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
int __attribute__((overloadable)) convert_int(uint x) { return (int)x; }
float __attribute__((overloadable)) convert_float(ulong x) { return (float)x; }
int __attribute__((overloadable)) convert_int(double x) { return (int)x; }
#endif
static char add_char(char a, char b) { return (char)(a + b); }
static char sub_char(char a, char b) { return (char)(a - b); }
static char mul_char(char a, char b) { return (char)(a * b); }
static char div_char(char a, char b) { return b == 0 ? a : (char)(a / b); }
static char mod_char(char a, char b) { return b == 0 ? a : (char)(a % b); }
static char shl_char(char a, char b) { return (char)((uint)a << (b & 7)); }
static char shr_char(char a, char b) { return (char)(a >> (b & 7)); }
static char neg_char(char a) { return (char)(-a); }
static float in_char_float(float x) { return (x > -129.0f && x < 128.0f) ? x : 0.0f; }
static double in_char_double(double x) { return (x > -129.0 && x < 128.0) ? x : 0.0; }
static uchar add_uchar(uchar a, uchar b) { return (uchar)(a + b); }
static uchar sub_uchar(uchar a, uchar b) { return (uchar)(a - b); }
static uchar mul_uchar(uchar a, uchar b) { return (uchar)(a * b); }
static uchar div_uchar(uchar a, uchar b) { return b == 0 ? a : (uchar)(a / b); }
static uchar mod_uchar(uchar a, uchar b) { return b == 0 ? a : (uchar)(a % b); }
static uchar shl_uchar(uchar a, uchar b) { return (uchar)((uint)a << (b & 7)); }
static uchar shr_uchar(uchar a, uchar b) { return (uchar)(a >> (b & 7)); }
static uchar neg_uchar(uchar a) { return (uchar)(-a); }
static float in_uchar_float(float x) { return (x > -1.0f && x < 256.0f) ? x : 0.0f; }
static double in_uchar_double(double x) { return (x > -1.0 && x < 256.0) ? x : 0.0; }
static short add_short(short a, short b) { return (short)(a + b); }
static short sub_short(short a, short b) { return (short)(a - b); }
static short mul_short(short a, short b) { return (short)(a * b); }
static short div_short(short a, short b) { return b == 0 ? a : (short)(a / b); }
static short mod_short(short a, short b) { return b == 0 ? a : (short)(a % b); }
static short shl_short(short a, short b) { return (short)((uint)a << (b & 7)); }
static short shr_short(short a, short b) { return (short)(a >> (b & 7)); }
static short neg_short(short a) { return (short)(-a); }
static float in_short_float(float x) { return (x > -32769.0f && x < 32768.0f) ? x : 0.0f; }
static double in_short_double(double x) { return (x > -32769.0 && x < 32768.0) ? x : 0.0; }
static ushort add_ushort(ushort a, ushort b) { return (ushort)(a + b); }
static ushort sub_ushort(ushort a, ushort b) { return (ushort)(a - b); }
static ushort mul_ushort(ushort a, ushort b) { return (ushort)((uint)a * (uint)b); }
static ushort div_ushort(ushort a, ushort b) { return b == 0 ? a : (ushort)(a / b); }
static ushort mod_ushort(ushort a, ushort b) { return b == 0 ? a : (ushort)(a % b); }
static ushort shl_ushort(ushort a, ushort b) { return (ushort)((uint)a << (b & 7)); }
static ushort shr_ushort(ushort a, ushort b) { return (ushort)(a >> (b & 7)); }
static ushort neg_ushort(ushort a) { return (ushort)(-a); }
static float in_ushort_float(float x) { return (x > -1.0f && x < 65536.0f) ? x : 0.0f; }
static double in_ushort_double(double x) { return (x > -1.0 && x < 65536.0) ? x : 0.0; }
static int add_int(int a, int b) { return ((b > 0 && a > INT_MAX - b) || (b < 0 && a < INT_MIN - b)) ? a : a + b; }
static int sub_int(int a, int b) { return ((b < 0 && a > INT_MAX + b) || (b > 0 && a < INT_MIN + b)) ? a : a - b; }
static int mul_int(int a, int b) { long r = (long)a * (long)b; return (r > INT_MAX || r < INT_MIN) ? a : (int)r; }
static int div_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }
static int mod_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }
static int shl_int(int a, int b) { return (int)((uint)a << b); }
static int shr_int(int a, int b) { return a >> b; }
static int neg_int(int a) { return a == INT_MIN ? a : -a; }
static float in_int_float(float x) { return (x >= -2147483648.0f && x < 2147483648.0f) ? x : 0.0f; }
static double in_int_double(double x) { return (x >= -2147483648.0 && x < 2147483648.0) ? x : 0.0; }
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
static long add_long(long a, long b) { return ((b > 0 && a > LONG_MAX - b) || (b < 0 && a < LONG_MIN - b)) ? a : a + b; }
static long sub_long(long a, long b) { return ((b < 0 && a > LONG_MAX + b) || (b > 0 && a < LONG_MIN + b)) ? a : a - b; }
static long mul_long(long a, long b) { return ((a > 0 && b > 0 && a > LONG_MAX / b) || (a > 0 && b <= 0 && b < LONG_MIN / a) || (a <= 0 && b > 0 && a < LONG_MIN / b) || (a < 0 && b < 0 && b < LONG_MAX / a)) ? a : a * b; }
static long div_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a / b; }
static long mod_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }
static long shl_long(long a, long b) { return (long)((ulong)a << b); }
static long shr_long(long a, long b) { return a >> b; }
static long neg_long(long a) { return a == LONG_MIN ? a : -a; }
static float in_long_float(float x) { return (x >= -9223372036854775808.0f && x < 9223372036854775808.0f) ? x : 0.0f; }
static double in_long_double(double x) { return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? x : 0.0; }
static ulong add_ulong(ulong a, ulong b) { return (ulong)(a + b); }
static ulong sub_ulong(ulong a, ulong b) { return (ulong)(a - b); }
static ulong mul_ulong(ulong a, ulong b) { return (ulong)(a * b); }
static ulong div_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a / b); }
static ulong mod_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a % b); }
static ulong shl_ulong(ulong a, ulong b) { return (ulong)((ulong)a << b); }
static ulong shr_ulong(ulong a, ulong b) { return a >> b; }
static ulong neg_ulong(ulong a) { return (ulong)(-a); }
static float in_ulong_float(float x) { return (x > -1.0f && x < 18446744073709551616.0f) ? x : 0.0f; }
static double in_ulong_double(double x) { return (x > -1.0 && x < 18446744073709551616.0) ? x : 0.0; }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
static ulong dbits(double x) { return x != x ? 0x7ff8000000000000UL : as_ulong(x); }
typedef struct { double f0; long f1; uchar f2; } S0;
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
  v1.f0 = ((double)((long)gp[(((ulong)cb[15])) % 8UL]));
  v1.f1 = ((long)cb[4]);
  v1.f2 = ((((short)16) >= ((short)gp[(2778931492u) % 8u])) ? ((uchar)cb[0]) : convert_uchar(lid));
  char v2[2];
  v2[0] = ((char)in[(gid) % 256UL]);
  v2[1] = shr_char(convert_char(gp[(lid) % 8u]), ((char)v1.f1));
  S0 v3;
  v3.f0 = (((double)cb[11]) / ((double)((int)v2[(gp[(256u) % 8u]) % 2u])));
  v3.f1 = ((long)gp[(lid) % 8u]);
  v3.f2 = shr_uchar(((uchar)in_uchar_double(v1.f0)), convert_uchar(in[(92870057u) % 256u]));
  __global uint *v4 = gp + (neg_ulong(convert_ulong(in[(convert_uint(v3.f1)) % 256u]))) % 3UL;
  char v5 = mul_char(convert_char(((short)15)), div_char(((char)96), div_char(convert_char(lid), ((char)gp[(cb[15]) % 8u]))));
  v3.f1 = ((long)((int)v5));
  v1.f1 = (-4921145770088265799L);
  for (ulong i6 = 0; i6 < (ulong)((((uint)gid)) % 5u); i6 += 1) {
    v3.f2 = mul_uchar(neg_uchar(((uchar)1)), ((uchar)(convert_uchar(lid) | ((uchar)1))));
    if (((((float)in[(((ulong)gp[(((ulong)((int)v5))) % 8UL])) % 256UL]) / (-convert_float(v4[(((ulong)in[(((ulong)gp[(convert_uint(in_uint_double(v3.f0))) % 8u])) % 256UL])) % 6UL])))) <= (((float)cb[13]))) {
      v1.f2 = add_uchar(convert_uchar(gid), convert_uchar(cb[15]));
    }
  }
  gs_atomic_add_l(&lacc[3], ((add_ulong(gid, 63UL) >= ((ulong)(((ulong)((int)v5)) | ((ulong)in[(((ulong)((int)v2[(8u) % 2u]))) % 256UL])))) ? ((uint)~4285444030u) : ((uint)gid)));
  v2[(((uint)(cb[15] & ((uint)in_uint_double(v1.f0))))) % 2u] = shl_char(((((long)lid) <= 127L) ? ((char)gid) : convert_char(cb[7])), ((char)in[(convert_ulong(v4[(((ulong)gp[(gp[(65535UL) % 8UL]) % 8u])) % 6UL])) % 256UL]));
  v2[(((uint)~lid)) % 2u] = shl_char(((char)-1), mod_char(((char)cb[7]), ((char)v4[(v4[(lid) % 6u]) % 6u])));
  if ((mul_int(convert_int(((long)gp[(((ulong)gp[(1UL) % 8UL])) % 8UL])), ((int)v4[(((ulong)v3.f1)) % 6UL]))) != (add_int(63, ((int)in[(((uint)v3.f1)) % 256u])))) {
    S0 v7;
    v7.f0 = convert_double((((float8)(convert_float(v3.f2)))).s0);
    v7.f1 = ((long)((int)v2[(cb[7]) % 2u]));
    v7.f2 = ((uchar)v2[(((ulong)v4[(gid) % 6UL])) % 2UL]);
    v2[(((uint)~in[(cb[5]) % 256u])) % 2u] = sub_char(div_char(v2[(in[(cb[6]) % 256u]) % 2u], ((char)0)), ((char)(convert_char(gp[(((ulong)gp[(((ulong)((uint)v3.f2))) % 8UL])) % 8UL]) & ((char)64))));
    h = mix(h, dbits(v7.f0));
    h = mix(h, (ulong)v7.f1);
    h = mix(h, (ulong)(uint)v7.f2);
  } else {
    v3.f2 = sub_uchar(add_uchar(((uchar)64), ((uchar)2)), ((uchar)127));
    v2[(as_uint(((float)v3.f1))) % 2u] = neg_char(((char)~((char)cb[2])));
  }
  long v8 = ((long)(((long)v4[(convert_ulong(cb[15])) % 6UL]) ^ as_long((-(399570881219455.75)))));
  if ((((uchar)gp[(((uint)gid)) % 8u])) <= (((uchar)(((uint8)(362157902u))).s1))) {
    switch ((convert_uint(v5)) % 4u) {
    case 0: {
      gs_atomic_or_g(&acc[6], in[(cb[11]) % 256u]);
      if (lid % 2u == 0u) {
        v1.f1 = ((as_uint(((float)cb[3])) == ((convert_long(cb[0]) == ((long)gid)) ? cb[12] : 2u)) ? shr_long(v3.f1, convert_long(cb[0])) : ((long)(((uint2)(gp[(((ulong)((int)v2[(((uint)v8)) % 2u]))) % 8UL], 2184068380u))).s1));
        char *p9 = &v2[1];
        h = mix(h, (ulong)(int)*p9);
      } else {
        v1.f0 = (2.3283064365386963e-10);
        gs_atomic_add_l(&lacc[0], ((uint)(in[(convert_ulong(in[(32u) % 256u])) % 256UL] | mod_uint(7u, 712974086u))));
        v1.f1 = (((((1.8044374883174896e-9) != ((double)((uint)v3.f2))) ? ((uchar)v2[(convert_ulong(((int)v5))) % 2UL]) : ((uchar)v5)) != ((uchar)lid)) ? ((3L <= v8) ? ((long)lid) : convert_long(lid)) : convert_long(in[(convert_ulong(in[(32UL) % 256UL])) % 256UL]));
      }
    }
    case 1: {
      v3.f1 = ((long)(((long)((-1227655817502708090L) | ((long)in[(gid) % 256UL]))) ^ mod_long(9040601214418393575L, 7L)));
    } break;
    case 2: {
      gs_atomic_or_g(&acc[6], in[(convert_uint(v5)) % 256u]);
      if (lid % 3u == 1u) {
        v8 = ((long)(((long)~convert_long(in[(1981891291u) % 256u])) | shl_long(((long)cb[12]), ((((int)cb[15]) == convert_int(v5)) ? convert_long(in[(convert_ulong(((int)v2[(4929672302114827262UL) % 2UL]))) % 256UL]) : v1.f1))));
      }
    } break;
    default: {
      switch ((8u) % 4u) {
      case 0: {
        ulong16 v10 = ((ulong16)(((ulong)~255UL)));
        h = mix(h, (ulong)v10.s0);
        h = mix(h, (ulong)v10.s1);
        h = mix(h, (ulong)v10.s2);
        h = mix(h, (ulong)v10.s3);
        h = mix(h, (ulong)v10.s4);
        h = mix(h, (ulong)v10.s5);
        h = mix(h, (ulong)v10.s6);
        h = mix(h, (ulong)v10.s7);
        h = mix(h, (ulong)v10.s8);
        h = mix(h, (ulong)v10.s9);
        h = mix(h, (ulong)v10.sa);
        h = mix(h, (ulong)v10.sb);
        h = mix(h, (ulong)v10.sc);
        h = mix(h, (ulong)v10.sd);
        h = mix(h, (ulong)v10.se);
        h = mix(h, (ulong)v10.sf);
      }
      case 1: {
        v5 = shl_char(v5, neg_char(convert_char(in_char_float((((float2)((-((float)in[(((ulong)((int)v5))) % 256UL])), (((float)cb[2]) - ((float)gid))))).s1))));
        v3.f2 = convert_uchar(cb[13]);
      } break;
      case 2: {
        v5 = add_char(v5, ((char)~sub_char(((char)(v5 | ((char)cb[4]))), v2[(convert_uint(v3.f1)) % 2u])));
        v5 = mod_char(((char)~v5), ((char)(((ulong4)(shr_ulong(((ulong)v8), convert_ulong(gp[(((ulong)in_ulong_double(v3.f0))) % 8UL])), gid, mod_ulong(((ulong)((int)v5)), 11430817030065689308UL), div_ulong(255UL, 2UL)))).s2));
      } break;
      default: {
        v1.f0 = ((double)(((float4)(((65535L > ((long)cb[5])) ? (64.0f) : (0.030761719f)), ((((uchar)15) < convert_uchar(in[(((ulong)((int)v2[(16296117416389167897UL) % 2UL]))) % 256UL])) ? (1762676.0f) : (0.0014648438f)), ((0.0f) * (-22558652.0f)), convert_float(in[(convert_ulong(((uint)v1.f2))) % 256UL])))).s3);
        v1.f2 = ((uchar)v4[(((uint)v3.f1)) % 6u]);
      }
      }
    }
    }
  }
  v3.f2 = ((uchar)gp[(gp[(((ulong)in_ulong_double(v1.f0))) % 8UL]) % 8u]);
  for (int i11 = 0; i11 < 1; i11++) {
    v3.f1 = ((long)((uint)v3.f2));
    gp[(((ulong)lid)) % 8UL] = ((uint)(63u ^ cb[7]));
  }
  if ((((ulong)(add_ulong(gid, 7UL) ^ mul_ulong(((ulong)gp[(cb[11]) % 8u]), convert_ulong(in_ulong_double(v1.f0)))))) != (shl_ulong(((ulong)lid), ((ulong)in[(((ulong)v8)) % 256UL])))) {
    v5 = ((as_ulong((-((double)v1.f1))) != mul_ulong(as_ulong(convert_double(lid)), sub_ulong(1UL, ((ulong)in[(2462288952629397426UL) % 256UL])))) ? mul_char(((char)v8), neg_char(convert_char(cb[12]))) : mod_char(((char)lid), ((char)(((char)15) | ((char)in_char_double(v3.f0))))));
    v3.f0 = ((27573001393.949085) * (0.0));
  } else {
    v1.f1 = neg_long(((long)(v8 & v8)));
    char *p12 = &v2[0];
    if ((convert_long((((uint4)(((uint)~gp[(convert_uint(v1.f2)) % 8u])))).s0)) == (neg_long(2L))) {
      if ((((float)in[(((ulong)cb[0])) % 256UL])) > (((convert_double(((int)(*p12))) == convert_double(((int)(*p12)))) ? ((float)v1.f2) : convert_float(in[(convert_uint(v2[(1u) % 2u])) % 256u])))) {
        v1.f2 = mul_uchar(((uchar)in[(2UL) % 256UL]), ((uchar)(((uint4)(lid, convert_uint(in_uint_double(v3.f0)), in[(((uint)v2[(14855240478816640893UL) % 2UL])) % 256u], ((uint)gid)))).s1));
        v1.f2 = ((div_long(((long)((int)(*p12))), ((long)in[(3u) % 256u])) <= as_long(convert_double(v4[(gp[(cb[15]) % 8u]) % 6u]))) ? ((uchar)in[(0u) % 256u]) : ((uchar)gp[(convert_ulong(cb[5])) % 8UL]));
      } else {
        gs_atomic_add_l(&lacc[7], mul_uint((((uint8)(in[(((ulong)v1.f1)) % 256UL]))).s4, ((uint)(255u ^ convert_uint(v3.f1)))));
      }
      v8 = ((long)(((((int4)(((int)in[(((ulong)v8)) % 256UL]), ((int)in[(convert_uint(gid)) % 256u]), (-890974576), ((int)v2[(1307956632u) % 2u]))) ^ ((int4)(((int)v5), convert_int(in[(((uint)v3.f1)) % 256u]), ((int)v3.f2), ((int)cb[7])))) | ((int4)(as_int((0.0625f)), shl_int(((int)cb[4]), convert_int(cb[6])), mod_int(1, ((int)v3.f2)), ((int)~((int)cb[15])))))).s3);
    }
    h = mix(h, (ulong)(int)*p12);
  }
  for (ulong i13 = 0; i13 < (ulong)((shl_uint(((uint)v3.f1), 1351509359u)) % 5u); i13 += 1) {
    v8 = as_long(convert_double((((float2)(convert_float(((ulong)lid)), (((float)cb[0]) * ((float)lid))))).s0));
    if ((convert_float(i13)) == (((float)in[(((ulong)in_ulong_double(v3.f0))) % 256UL]))) break;
  }
  if ((((uint)(((uint)(convert_uint(v8) ^ 1814421447u)) ^ mul_uint(((uint)v5), 3261970856u)))) != (in[(cb[5]) % 256u])) {
    if (lid % 4u == 0u) {
      v5 = shl_char(v5, ((char)lid));
      char *p14 = &v2[1];
      v8 = ((473883903 != neg_int((((int8)(convert_int(in_int_double(v1.f0))))).s7)) ? ((long)gp[(3u) % 8u]) : convert_long(cb[5]));
      h = mix(h, (ulong)(int)*p14);
    } else {
      for (long i15 = 0; i15 < 1; i15 += 1) {
        v1.f1 = as_long((((double)v3.f1) * (4.470348358154297e-8)));
      }
    }
    v3.f1 = shl_long(neg_long(5157988330789788979L), 32L);
    char *p16 = &v2[1];
    h = mix(h, (ulong)(int)*p16);
  } else {
    v2[(as_uint(((float)cb[5]))) % 2u] = ((char)~mul_char(v2[(((ulong)v4[(gid) % 6UL])) % 2UL], convert_char(in[(gid) % 256UL])));
  }
  h = mix(h, dbits(v1.f0));
  h = mix(h, (ulong)v1.f1);
  h = mix(h, (ulong)(uint)v1.f2);
  h = mix(h, (ulong)(int)v2[0]);
  h = mix(h, (ulong)(int)v2[1]);
  h = mix(h, dbits(v3.f0));
  h = mix(h, (ulong)v3.f1);
  h = mix(h, (ulong)(uint)v3.f2);
  h = mix(h, (ulong)v4[0]);
  h = mix(h, (ulong)v4[1]);
  h = mix(h, (ulong)v4[2]);
  h = mix(h, (ulong)v4[3]);
  h = mix(h, (ulong)v4[4]);
  h = mix(h, (ulong)v4[5]);
  h = mix(h, (ulong)(int)v5);
  h = mix(h, (ulong)v8);
  out[gid] = h;
}
