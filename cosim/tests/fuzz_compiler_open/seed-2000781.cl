// reduced from seed 2000781 (inputs: cosim::fuzz::clgen::exec::inputs(2000781)): wave32 -O1: buffer out differs, first at byte 0: [e3, 7d, 58, d5, 1f, 9d, 03, e9] (clang) vs [42, 2d, 68, ed, 80, 80, b3, 09] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
long __attribute__((overloadable)) convert_long(float x) { return (long)x; }
int __attribute__((overloadable)) convert_int(uint x) { return (int)x; }
double __attribute__((overloadable)) convert_double(int x) { return (double)x; }
uint __attribute__((overloadable)) convert_uint(short x) { return (uint)x; }
long __attribute__((overloadable)) convert_long(int x) { return (long)x; }
long __attribute__((overloadable)) convert_long(uint x) { return (long)x; }
ulong __attribute__((overloadable)) convert_ulong(long x) { return (ulong)x; }
int __attribute__((overloadable)) convert_int(long x) { return (int)x; }
short __attribute__((overloadable)) convert_short(int x) { return (short)x; }
float __attribute__((overloadable)) convert_float(long x) { return (float)x; }
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
int __attribute__((overloadable)) convert_int(short x) { return (int)x; }
uint __attribute__((overloadable)) convert_uint(ushort x) { return (uint)x; }
float __attribute__((overloadable)) convert_float(int x) { return (float)x; }
ushort __attribute__((overloadable)) convert_ushort(uint x) { return (ushort)x; }
short __attribute__((overloadable)) convert_short(uint x) { return (short)x; }
double __attribute__((overloadable)) convert_double(long x) { return (double)x; }
double __attribute__((overloadable)) convert_double(uint x) { return (double)x; }
uint __attribute__((overloadable)) convert_uint(double x) { return (uint)x; }
int __attribute__((overloadable)) convert_int(float x) { return (int)x; }
short __attribute__((overloadable)) convert_short(long x) { return (short)x; }
float __attribute__((overloadable)) convert_float(ulong x) { return (float)x; }
ulong2 __attribute__((overloadable)) convert_ulong2(int2 x) { return __builtin_convertvector(x, ulong2); }
char __attribute__((overloadable)) convert_char(ulong x) { return (char)x; }
uint __attribute__((overloadable)) convert_uint(long x) { return (uint)x; }
#endif
static short div_short(short a, short b) { return b == 0 ? a : (short)(a / b); }
static short mod_short(short a, short b) { return b == 0 ? a : (short)(a % b); }
static short shr_short(short a, short b) { return (short)(a >> (b & 7)); }
static double in_short_double(double x) { return (x > -32769.0 && x < 32768.0) ? x : 0.0; }
static ushort mul_ushort(ushort a, ushort b) { return (ushort)((uint)a * (uint)b); }
static ushort shl_ushort(ushort a, ushort b) { return (ushort)((uint)a << (b & 7)); }
static ushort neg_ushort(ushort a) { return (ushort)(-a); }
static int add_int(int a, int b) { return ((b > 0 && a > INT_MAX - b) || (b < 0 && a < INT_MIN - b)) ? a : a + b; }
static int sub_int(int a, int b) { return ((b < 0 && a > INT_MAX + b) || (b > 0 && a < INT_MIN + b)) ? a : a - b; }
static int mul_int(int a, int b) { long r = (long)a * (long)b; return (r > INT_MAX || r < INT_MIN) ? a : (int)r; }
static int div_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }
static int shl_int(int a, int b) { return (int)((uint)a << b); }
static int shr_int(int a, int b) { return a >> b; }
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
static double in_uint_double(double x) { return (x > -1.0 && x < 4294967296.0) ? x : 0.0; }
static long add_long(long a, long b) { return ((b > 0 && a > LONG_MAX - b) || (b < 0 && a < LONG_MIN - b)) ? a : a + b; }
static long mul_long(long a, long b) { return ((a > 0 && b > 0 && a > LONG_MAX / b) || (a > 0 && b <= 0 && b < LONG_MIN / a) || (a <= 0 && b > 0 && a < LONG_MIN / b) || (a < 0 && b < 0 && b < LONG_MAX / a)) ? a : a * b; }
static long div_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a / b; }
static long mod_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }
static long shl_long(long a, long b) { return (long)((ulong)a << b); }
static float in_long_float(float x) { return (x >= -9223372036854775808.0f && x < 9223372036854775808.0f) ? x : 0.0f; }
static double in_long_double(double x) { return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? x : 0.0; }
static ulong sub_ulong(ulong a, ulong b) { return (ulong)(a - b); }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
static ulong dbits(double x) { return x != x ? 0x7ff8000000000000UL : as_ulong(x); }
typedef struct { short f0; double f1; } S0;
__kernel void clgen(__global ulong *out, __global const uint *in, __constant uint *cb, __global uint *gbuf, __global uint *acc) {
  size_t gid = gs_global_id(0);
  uint lid = gs_local_id(0);
  __local uint lm[64];
  __local uint lacc[8];
  ulong h = 0x9e3779b97f4a7c15UL;
  __global uint *gp = gbuf + gid * 8;
  gs_barrier();
  int v1 = as_int((-((61395936.0f) / ((float)lid))));
  uint v2 = shr_uint(as_uint((((float)lid) * ((float)gp[(lid) % 8u]))), add_uint(((uint)(cb[9] & 1163305162u)), add_uint(convert_uint(gid), gp[(127u) % 8u])));
  long v3[5];
  v3[4] = ((convert_int(cb[9]) <= ((int)lid)) ? ((long)gp[(gp[(convert_uint(gid)) % 8u]) % 8u]) : ((long)v1));
  long v4 = v3[(in[(((ulong)v3[(((ulong)v2)) % 5UL])) % 256UL]) % 5u];
  short v5[5];
  S0 v6;
  ushort v7 = ((ushort)(((((int8)(((int)v2), ((int)in[(in[(((ulong)v3[(16378912075942954995UL) % 5UL])) % 256UL]) % 256u]), ((int)in[(convert_ulong(lid)) % 256UL]), 591814444, ((int)in_int_double(v6.f1)), ((int)lid), convert_int(cb[14]), (-1402119205))) | ((int8)(((int)gp[(convert_uint(v5[(((ulong)v3[(0UL) % 5UL])) % 5UL])) % 8u])))) ^ (((int8)(((int)in_int_double(v6.f1)), convert_int(lid), ((int)in[(((ulong)cb[14])) % 256UL]), v1, convert_int(cb[3]), 15, ((int)v5[(((ulong)v3[(convert_ulong(in[(((ulong)in[(7u) % 256u])) % 256UL])) % 5UL])) % 5UL]), convert_int(in[(15u) % 256u]))) ^ ((int8)(((int)in[(((uint)gid)) % 256u]), 1700713166, convert_int(in[(((ulong)gp[(v2) % 8u])) % 256UL]), ((int)v3[(((ulong)v4)) % 5UL]), ((int)in[(((ulong)cb[0])) % 256UL]), convert_int(in[(gp[(127UL) % 8UL]) % 256u]), (-753605489), 1467529928))))).s6);
  long v8 = convert_long(((((uint2)(in[(16u) % 256u], neg_uint(((uint)v1)))) ^ ((uint2)(2u, ((((long)v2) <= convert_long(v1)) ? 2398940208u : 15u))))).s1);
  switch ((3488851495u) % 4u) {
  case 0: {
    gs_atomic_or_g(&acc[1], 0u);
    v5[(shl_uint(((uint)v3[(((ulong)in[(((ulong)gp[(((ulong)v2)) % 8UL])) % 256UL])) % 5UL]), in[(convert_ulong(v8)) % 256UL])) % 5u] = convert_short((((int3)(((int)v6.f0), (((int2)(convert_int(v4), ((int)cb[13])))).s1, shr_int(63, ((int)cb[0]))))).s2);
  }
  case 1: {
    v1 = 32;
  } break;
  case 2: {
    v1 = shl_int(v1, as_int((((((ushort)in[(((uint)v5[(convert_ulong(v4)) % 5UL])) % 256u]) >= ((ushort)gp[(((uint)gid)) % 8u])) ? ((float)in[(((ulong)in[(((uint)v4)) % 256u])) % 256UL]) : convert_float(v4)) / convert_float(31u))));
  }
  default: {
    v1 = mul_int(add_int(((int)v2), shr_int(convert_int(v6.f0), ((int)in[(convert_uint(v7)) % 256u]))), ((int)v8));
  }
  }
  v1 = sub_int(v1, ((int)in_int_float((((float4)((0.21875f), (((float)v1) / convert_float(v3[(((ulong)lid)) % 5UL])), (convert_float(v1) + convert_float(gp[(2u) % 8u])), ((float)v2)))).s1)));
  v8 = shl_long(v8, ((long)in_long_double(v6.f1)));
  for (int i9 = 0; i9 < (int)((((uint)(3448783508u & 3136905154u))) % 5u); i9++) {
    if ((sub_int(as_int((0.0f)), (-527368476))) == (sub_int(0, 3))) {
      if ((convert_ushort(v2)) != (((ushort)gp[(((ulong)v2)) % 8UL]))) {
        v5[(in[(((ulong)v3[(65535UL) % 5UL])) % 256UL]) % 5u] = ((shr_short(convert_short(cb[7]), ((short)cb[9])) > ((short)i9)) ? ((short)15) : ((short)3089));
        v5[(mul_uint(64u, ((uint)gid))) % 5u] = ((short)in_short_double((((double)in[(2UL) % 256UL]) * convert_double(v4))));
        v6.f1 = (((((char)8) >= ((char)-84)) ? convert_double(in[(convert_ulong(v2)) % 256UL]) : convert_double(((int)v6.f0))) + ((double)v1));
      }
      v3[(convert_uint((((ulong8)(((ulong)cb[7]), convert_ulong(v8), convert_ulong(v3[(8UL) % 5UL]), ((ulong)in[(convert_uint(v7)) % 256u]), ((ulong)v2), ((ulong)((int)v5[(gp[(convert_uint(in_uint_double(v6.f1))) % 8u]) % 5u])), 255UL, convert_ulong(((uint)v7))))).s2)) % 5u] = ((long)~((convert_uchar(v4) <= ((uchar)v7)) ? ((long)cb[11]) : 256L));
      if (lid % 6u == 0u) {
        v1 = sub_int(v1, convert_int(in_int_float(as_float(((uint)(cb[3] | 65535u))))));
      } else {
        gp[(((ulong)(((int8)(2, ((int)in[(in[(cb[4]) % 256u]) % 256u]), convert_int(v2), ((int)v2), convert_int(v3[(16UL) % 5UL]), 32, ((int)v3[(((uint)gid)) % 5u]), ((int)cb[2])))).s3)) % 8UL] = 16u;
        v1 = v1;
        v3[(mod_uint(v2, cb[15])) % 5u] = ((long)in_long_float((((float2)(((convert_long(gp[(31u) % 8u]) <= ((long)cb[15])) ? ((float)v3[(((uint)gid)) % 5u]) : (1673293.1f))))).s0));
      }
    }
  }
  v4 = ((long)~((long)(((((char)v6.f0) != convert_char(v1)) ? ((long)cb[2]) : (-5098811019946035170L)) ^ mul_long(v4, ((long)in[(convert_ulong(((uint)v7))) % 256UL])))));
  long *p10 = &v3[1];
  v4 = add_long(v4, mod_long(((long)gid), convert_long(((int)mod_short(((short)0), ((short)gp[(gp[(((uint)v8)) % 8u]) % 8u]))))));
  long *p11 = &v3[3];
  for (uint i12 = 0; i12 < (uint)((((v5[(((uint)v5[(cb[4]) % 5u])) % 5u] <= convert_short(v3[(cb[5]) % 5u])) ? v2 : 3647040752u)) % 5u); i12 += 1) {
    if ((((long)(((long)(((long)((uint)v7)) ^ (*p11))) & ((long)7u)))) <= (((long)in_long_float((((float8)(convert_float(cb[12]), convert_float((*p10)), convert_float(v8), convert_float(i12), ((float)v4), ((float)v8), ((float)gp[(v2) % 8u]), convert_float(cb[4])))).s4)))) {
      gp[(((ulong)~8173109068123166108UL)) % 8UL] = ((uint)(((uint)(((ulong8)(1UL, ((ulong)(*p10)), 16UL, ((ulong)((int)v6.f0)), 9863745777083062886UL, ((ulong)in[(convert_ulong(cb[1])) % 256UL]), ((ulong)v8), 9239696239511659189UL))).s6) ^ mod_uint(((uint)(*p11)), 16u)));
      gs_atomic_xor_g(&acc[2], div_uint(gp[(cb[6]) % 8u], (((1.9073486328125e-6) == convert_double(gp[(((ulong)(*p10))) % 8UL])) ? i12 : ((uint)(*p10)))));
      v7 = mul_ushort(v7, ((ushort)(*p11)));
    }
  }
  for (uint i13 = 0; i13 < 3; i13 += 1) {
    v7 = ((ushort)(((ushort)cb[7]) ^ convert_ushort(cb[12])));
    v3[(((uint)v5[(gid) % 5UL])) % 5u] = ((long)v1);
    switch ((as_uint(((float)(0.000244140625)))) % 4u) {
    case 0: {
      *p10 = 3L;
    } break;
    case 1: {
      float v14 = (((-(31.875f)) * (((float)in[(255UL) % 256UL]) + convert_float(gp[(convert_uint(gid)) % 8u]))) * (((float2)((((float)in[(gp[(((ulong)cb[7])) % 8UL]) % 256u]) * ((float)gid))))).s1);
      h = mix(h, fbits(v14));
    }
    case 2: {
      gp[(((ulong)(((ulong)((uint)v7)) & ((ulong)in[(((ulong)in[(((uint)v6.f0)) % 256u])) % 256UL])))) % 8UL] = neg_uint(((uint)(16u & v2)));
    } break;
    default: {
      if (lid % 3u == 0u) {
        gp[(((ulong)(0UL & convert_ulong(v3[(((uint)in_uint_double(v6.f1))) % 5u])))) % 8UL] = cb[10];
        v7 = neg_ushort(shl_ushort(((ushort)v6.f0), ((234339765u == ((uint)v5[(convert_uint(gid)) % 5u])) ? ((ushort)4432) : ((ushort)(*p11)))));
        *p10 = as_long(((double)v8));
      }
    }
    }
  }
  v8 = shl_long(v8, convert_long(in_long_float((((float4)(((1.75f) / (31.875f)), ((float)v1), ((float)cb[2]), (convert_float(gid) + ((float)(*p11)))))).s2)));
  gs_atomic_add_l(&lacc[4], as_uint(as_float(((uint)v1))));
  for (ulong i15 = 0; i15 < (ulong)((((uint)~in[(1702387210u) % 256u])) % 5u); i15 += 1) {
    v1 = ((((short)(convert_ulong2(((int2)(((int)cb[2]))))).s1) == ((short)(*p11))) ? shr_int(as_int((0.1171875f)), ((int)(((int)in[(cb[0]) % 256u]) ^ ((int)in_int_double(v6.f1))))) : div_int(((int)in[(convert_ulong(v3[(((uint)v5[(gid) % 5UL])) % 5u])) % 256UL]), div_int(((int)v5[(((uint)v7)) % 5u]), 954488043)));
    long *p16 = &v3[3];
    h = mix(h, (ulong)*p16);
  }
  switch ((((uint)gid)) % 4u) {
  case 0: {
    if ((((ulong)in[(((uint)v4)) % 256u])) != (sub_ulong(convert_ulong(gp[(16UL) % 8UL]), ((ulong)((uint)v7))))) {
      *p10 = shl_long(16L, ((long)~(-5349309197369997637L)));
      long *p17 = &v3[4];
      v4 = div_long(((long)~mod_long(convert_long(cb[4]), convert_long(cb[4]))), ((((((ushort)(*p10)) != ((ushort)15)) ? ((uchar)gp[(3040360539u) % 8u]) : ((uchar)in[(((ulong)v1)) % 256UL])) <= ((uchar)(((uchar)v2) | ((uchar)(*p11))))) ? ((long)(convert_long(cb[6]) & convert_long(cb[14]))) : ((long)in_long_float((((float8)((0.015625f), ((float)v4), (89202750.0f), (0.24902344f), convert_float(v8), convert_float(v1), convert_float(v3[(15UL) % 5UL]), ((float)v3[(31u) % 5u])))).s7))));
      h = mix(h, (ulong)*p17);
    }
    v2 = neg_uint(((uint)(add_uint(gp[(convert_ulong(cb[13])) % 8UL], in[(7UL) % 256UL]) ^ gp[(((ulong)v8)) % 8UL])));
  }
  case 1: {
    gs_atomic_add_l(&lacc[7], sub_uint(((uint)convert_char(gid)), (((-156774816) == ((int)v2)) ? 63u : cb[10])));
  } break;
  case 2: {
    if ((cb[14]) <= (sub_uint(gp[(cb[9]) % 8u], convert_uint(v7)))) {
      uint4 v18 = ((((uint4)(cb[13], v2, 64u, gp[(((uint)v5[(convert_uint(v4)) % 5u])) % 8u])) & ((uint4)(3628744679u, convert_uint((*p11)), ((uint)v1), convert_uint(v5[(((ulong)v3[(convert_ulong(gp[(in[(((ulong)cb[12])) % 256UL]) % 8u])) % 5UL])) % 5UL])))) ^ ((uint4)(gp[(convert_ulong(gp[(2UL) % 8UL])) % 8UL], ((uint)v1), convert_uint(in_uint_double(v6.f1)), in[(((ulong)((uint)v7))) % 256UL])));
      v3[(div_uint(((uint)v4), in[(2UL) % 256UL])) % 5u] = ((long)~0L);
      h = mix(h, (ulong)v18.s0);
      h = mix(h, (ulong)v18.s1);
      h = mix(h, (ulong)v18.s2);
      h = mix(h, (ulong)v18.s3);
    } else {
      v3[(((lid < cb[11]) ? lid : 2u)) % 5u] = ((long)(convert_long(in[(7u) % 256u]) & mod_long(127L, (*p11))));
      if (((((0.015136719f) - (0.0f)) - ((0.24902344f) - (0.1875f)))) != ((((float)gp[(in[(((ulong)v2)) % 256UL]) % 8u]) - (2.0f)))) {
        v1 = mul_int(v1, shl_int(((int)convert_short(in[(((uint)v7)) % 256u])), convert_int((*p10))));
      }
      gp[(convert_ulong(gp[(convert_uint(v5[(((ulong)in[(7UL) % 256UL])) % 5UL])) % 8u])) % 8UL] = as_uint((-((float)cb[4])));
    }
  } break;
  default: {
    float v19 = (((float)((uint)(*p10))) / as_float(shl_uint(cb[13], lid)));
    h = mix(h, fbits(v19));
  }
  }
  lm[lid] = ((((long)(((long)v2) & ((long)v1))) <= 4510543114281362217L) ? 32u : ((3u != ((uint)v6.f0)) ? ((uint)v1) : cb[1]));
  gs_barrier();
  v1 = (int)(lm[(lid + 53u) % 64u] + lacc[5]);
  gs_barrier();
  h = mix(h, (ulong)v1);
  h = mix(h, (ulong)v2);
  h = mix(h, (ulong)v3[0]);
  h = mix(h, (ulong)v3[1]);
  h = mix(h, (ulong)v3[2]);
  h = mix(h, (ulong)v3[3]);
  h = mix(h, (ulong)v3[4]);
  h = mix(h, (ulong)v4);
  h = mix(h, (ulong)(int)v5[0]);
  h = mix(h, (ulong)(int)v5[1]);
  h = mix(h, (ulong)(int)v5[2]);
  h = mix(h, (ulong)(int)v5[3]);
  h = mix(h, (ulong)(int)v5[4]);
  h = mix(h, (ulong)(int)v6.f0);
  h = mix(h, dbits(v6.f1));
  h = mix(h, (ulong)(uint)v7);
  h = mix(h, (ulong)v8);
  h = mix(h, (ulong)*p10);
  h = mix(h, (ulong)*p11);
  out[gid] = h;
}
