// reduced from seed 2000506 (inputs: cosim::fuzz::clgen::exec::inputs(2000506)): wave32 -O1: buffer out differs, first at byte 0: [e4, 57, 3f, 75, c5, e3, e1, b3] (clang) vs [ec, cc, 4d, ff, ff, c3, bd, cf] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
char __attribute__((overloadable)) convert_char(uint x) { return (char)x; }
long __attribute__((overloadable)) convert_long(uint x) { return (long)x; }
double __attribute__((overloadable)) convert_double(uint x) { return (double)x; }
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
int __attribute__((overloadable)) convert_int(uint x) { return (int)x; }
ulong __attribute__((overloadable)) convert_ulong(uint x) { return (ulong)x; }
uchar __attribute__((overloadable)) convert_uchar(long x) { return (uchar)x; }
uchar __attribute__((overloadable)) convert_uchar(uint x) { return (uchar)x; }
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
int __attribute__((overloadable)) convert_int(ulong x) { return (int)x; }
int __attribute__((overloadable)) convert_int(short x) { return (int)x; }
int __attribute__((overloadable)) convert_int(double x) { return (int)x; }
short __attribute__((overloadable)) convert_short(ulong x) { return (short)x; }
int __attribute__((overloadable)) convert_int(char x) { return (int)x; }
float __attribute__((overloadable)) convert_float(ulong x) { return (float)x; }
float __attribute__((overloadable)) convert_float(int x) { return (float)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
double __attribute__((overloadable)) convert_double(float x) { return (double)x; }
char __attribute__((overloadable)) convert_char(ulong x) { return (char)x; }
uint __attribute__((overloadable)) convert_uint(long x) { return (uint)x; }
uint __attribute__((overloadable)) convert_uint(double x) { return (uint)x; }
ulong4 __attribute__((overloadable)) convert_ulong4(int4 x) { return __builtin_convertvector(x, ulong4); }
uint __attribute__((overloadable)) convert_uint(int x) { return (uint)x; }
long __attribute__((overloadable)) convert_long(int x) { return (long)x; }
int __attribute__((overloadable)) convert_int(long x) { return (int)x; }
double __attribute__((overloadable)) convert_double(int x) { return (double)x; }
ulong __attribute__((overloadable)) convert_ulong(double x) { return (ulong)x; }
ulong __attribute__((overloadable)) convert_ulong(long x) { return (ulong)x; }
float8 __attribute__((overloadable)) convert_float8(int8 x) { return __builtin_convertvector(x, float8); }
uchar __attribute__((overloadable)) convert_uchar(ulong x) { return (uchar)x; }
uint3 __attribute__((overloadable)) convert_uint3(int3 x) { return __builtin_convertvector(x, uint3); }
long __attribute__((overloadable)) convert_long(ulong x) { return (long)x; }
char __attribute__((overloadable)) convert_char(float x) { return (char)x; }
double __attribute__((overloadable)) convert_double(ulong x) { return (double)x; }
#endif
static char add_char(char a, char b) { return (char)(a + b); }
static char sub_char(char a, char b) { return (char)(a - b); }
static char mul_char(char a, char b) { return (char)(a * b); }
static char div_char(char a, char b) { return b == 0 ? a : (char)(a / b); }
static char mod_char(char a, char b) { return b == 0 ? a : (char)(a % b); }
static char shl_char(char a, char b) { return (char)((uint)a << (b & 7)); }
static float in_char_float(float x) { return (x > -129.0f && x < 128.0f) ? x : 0.0f; }
static uchar add_uchar(uchar a, uchar b) { return (uchar)(a + b); }
static uchar sub_uchar(uchar a, uchar b) { return (uchar)(a - b); }
static uchar neg_uchar(uchar a) { return (uchar)(-a); }
static short div_short(short a, short b) { return b == 0 ? a : (short)(a / b); }
static short shr_short(short a, short b) { return (short)(a >> (b & 7)); }
static float in_short_float(float x) { return (x > -32769.0f && x < 32768.0f) ? x : 0.0f; }
static float in_ushort_float(float x) { return (x > -1.0f && x < 65536.0f) ? x : 0.0f; }
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
static uint mod_uint(uint a, uint b) { return b == 0 ? a : (uint)(a % b); }
static uint shl_uint(uint a, uint b) { return (uint)((uint)a << b); }
static uint shr_uint(uint a, uint b) { return a >> b; }
static uint neg_uint(uint a) { return (uint)(-a); }
static float in_uint_float(float x) { return (x > -1.0f && x < 4294967296.0f) ? x : 0.0f; }
static double in_uint_double(double x) { return (x > -1.0 && x < 4294967296.0) ? x : 0.0; }
static long sub_long(long a, long b) { return ((b < 0 && a > LONG_MAX + b) || (b > 0 && a < LONG_MIN + b)) ? a : a - b; }
static long mul_long(long a, long b) { return ((a > 0 && b > 0 && a > LONG_MAX / b) || (a > 0 && b <= 0 && b < LONG_MIN / a) || (a <= 0 && b > 0 && a < LONG_MIN / b) || (a < 0 && b < 0 && b < LONG_MAX / a)) ? a : a * b; }
static long div_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a / b; }
static long shl_long(long a, long b) { return (long)((ulong)a << b); }
static double in_long_double(double x) { return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? x : 0.0; }
static ulong mod_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a % b); }
static ulong shl_ulong(ulong a, ulong b) { return (ulong)((ulong)a << b); }
static ulong shr_ulong(ulong a, ulong b) { return a >> b; }
static float in_ulong_float(float x) { return (x > -1.0f && x < 18446744073709551616.0f) ? x : 0.0f; }
static double in_ulong_double(double x) { return (x > -1.0 && x < 18446744073709551616.0) ? x : 0.0; }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
static ulong dbits(double x) { return x != x ? 0x7ff8000000000000UL : as_ulong(x); }
typedef struct { long f0; double f1; } S0;
__kernel void clgen(__global ulong *out, __global const uint *in, __constant uint *cb, __global uint *gbuf, __global uint *acc) {
  size_t gid = gs_global_id(0);
  uint lid = gs_local_id(0);
  __local uint lm[64];
  __local uint lacc[8];
  ulong h = 0x9e3779b97f4a7c15UL;
  __global uint *gp = gbuf + gid * 8;
  gs_barrier();
  uint v1 = lid;
  char v2 = convert_char((((uint2)((((1.96875) <= (1.9073486328125e-6)) ? lid : lid), 2705478727u))).s0);
  S0 v3;
  int v4 = ((convert_uint(gid) > cb[6]) ? div_int(((int)(((int)gp[(((uint)gid)) % 8u]) ^ ((int)in[(convert_uint(gid)) % 256u]))), ((((ulong)gp[(((uint)v2)) % 8u]) < ((ulong)gp[(cb[2]) % 8u])) ? convert_int(lid) : ((int)gp[(convert_ulong(in[(((ulong)cb[10])) % 256UL])) % 8UL]))) : div_int(convert_int(v1), neg_int(((int)lid))));
  uint4 v5 = ((uint4)(((uint)convert_uchar(v3.f0)), 27900235u, ((uint)(cb[10] & 3865192046u)), ((uint)convert_uchar(in[(17907503404510502363UL) % 256UL]))));
  int8 v6 = ((int8)(convert_int(in_int_float(convert_float(cb[12]))), convert_int(cb[10]), mod_int(convert_int(gid), (-1698723106)), ((int)in[(convert_uint(v2)) % 256u]), convert_int(convert_short(in[(v1) % 256u])), shl_int(((int)gid), ((int)cb[4])), ((int)(((uint2)(2478037986u, 3528785544u))).s0), convert_int(in_int_double(((double)cb[9])))));
  __global uint *v9 = gp + (((ulong)(((ulong)gp[(convert_ulong(v4)) % 8UL]) ^ convert_ulong(v5.s3)))) % 1UL;
  v9[(((ulong)in[(826649723u) % 256u])) % 8UL] = add_uint(as_uint(((float)in[(((ulong)v5.w)) % 256UL])), gp[(((uint)v4)) % 8u]);
  v4 = convert_int((((ulong8)(((ulong)(16UL | convert_ulong(cb[7])))))).s7);
  if ((((uchar)div_int(63, 7))) >= (((uchar)255))) {
    if (((-convert_double(v4))) >= ((((double)v3.f0) - (5.960464477539063e-8)))) {
      ushort v10 = ((ushort)in_ushort_float(as_float((((uint4)(in[(gid) % 256UL], 2868897397u, ((uint)v3.f0), in[(1u) % 256u]))).s0)));
      h = mix(h, (ulong)(uint)v10);
    } else {
      v2 = ((char)cb[15]);
    }
    for (uint i11 = 0; i11 < 4; i11 += 1) {
      if (lid % 4u == 1u) {
        v2 = add_char(v2, sub_char(((char)-34), ((char)cb[1])));
        v4 = (-1102255214);
        uint8 v12 = ((uint8)(((uint)32L), shl_uint(cb[9], v9[(cb[8]) % 8u]), cb[5], ((uint)(cb[3] & in[(13251508571929088795UL) % 256UL])), ((((double)cb[2]) < ((double)i11)) ? ((uint)v6.s1) : in[(255u) % 256u]), mod_uint(4208473727u, cb[11]), gp[(12097813102796386736UL) % 8UL], ((uint)(v9[(convert_ulong(lid)) % 8UL] & gp[(convert_ulong(in_ulong_double(v3.f1))) % 8UL]))));
        h = mix(h, (ulong)v12.s0);
        h = mix(h, (ulong)v12.s1);
        h = mix(h, (ulong)v12.s2);
        h = mix(h, (ulong)v12.s3);
        h = mix(h, (ulong)v12.s4);
        h = mix(h, (ulong)v12.s5);
        h = mix(h, (ulong)v12.s6);
        h = mix(h, (ulong)v12.s7);
      }
    }
    v1 = add_uint(v1, ((uint)in_uint_float(((-convert_float(in[(32u) % 256u])) * (convert_float(gp[(convert_ulong(cb[2])) % 8UL]) / ((float)gp[(((ulong)gp[(15u) % 8u])) % 8UL]))))));
  }
  v9[(((ulong)in_ulong_float((((float2)(convert_float(in[(8717476273593655563UL) % 256UL])))).s0))) % 8UL] = cb[6];
  if ((((-convert_double(v4)) - (-((double)gp[(32u) % 8u])))) == (((0.46875) - v3.f1))) {
    v2 = shl_char(v2, convert_char(v9[(cb[1]) % 8u]));
  } else {
    v3.f0 = ((long)cb[1]);
    gs_atomic_add_l(&lacc[3], cb[13]);
  }
  switch ((((uint)v6.s3)) % 4u) {
  case 0: {
    for (int i13 = 0; i13 < (int)((as_uint(((float)v5.s3))) % 5u); i13++) {
      gs_atomic_add_g(&acc[5], convert_uint(in_uint_float((((float4)((convert_float(v5.x) - convert_float(in[(((ulong)((int)v2))) % 256UL])), ((float)v3.f0), as_float(cb[7]), (((float3)((7819617.0f), (4.0f), ((float)v1)))).s0))).s3)));
      v6.s0 = shl_int(as_int(((float)in[(((uint)i13)) % 256u])), (-1975136339));
      if (lid % 3u == 0u) break;
    }
    if (lid % 6u == 0u) {
      v4 = 263425474;
      for (long i14 = 0; i14 < 4; i14 += 1) {
        v6.s136 = (((int3)(63, neg_int(((int)i14)), ((int)(((int)in[(convert_ulong(i14)) % 256UL]) & convert_int(gp[(((ulong)gp[(1665181349u) % 8u])) % 8UL]))))) | ((int3)(((int)in_int_float((((float2)(((float)v1), convert_float(v2)))).s0)), sub_int(((int)i14), ((int)i14)), as_int(convert_float(gid)))));
        gp[(((ulong)(((ulong)in[(127UL) % 256UL]) | convert_ulong(in[(7193514315403439642UL) % 256UL])))) % 8UL] = gp[(8u) % 8u];
      }
      if ((((uint)(((int2)(v6.s5))).s0)) <= (gp[(((uint)v4)) % 8u])) {
        v2 = mod_char(((char)in[(((ulong)in_ulong_double(v3.f1))) % 256UL]), div_char(((char)in_char_float(((float)lid))), ((char)lid)));
      }
    }
  }
  case 1: {
    v1 = add_uint(((uint)((short)in_short_float(((float)in[(((ulong)in[(((ulong)cb[5])) % 256UL])) % 256UL])))), 0u);
    v5.lo = (((uint2)(((uint)v4))) - ((uint2)(in[(convert_ulong(in[(((uint)v2)) % 256u])) % 256UL], add_uint(16u, ((uint)v4)))));
  }
  case 2: {
    float8 v15 = convert_float8(((int8)(as_int(convert_float(in[(255UL) % 256UL])), 65535, ((int)in_int_float((((float8)((-949205570.0f)))).s1)), ((((short)v2) < ((short)lid)) ? convert_int(in_int_double(v3.f1)) : convert_int(gid)), shr_int(((int)cb[0]), v6.s3), ((int)gp[(cb[0]) % 8u]), ((int)(convert_int(v5.y) ^ ((int)gp[(cb[0]) % 8u]))), ((int)v1))));
    if (lid % 3u == 1u) {
      v1 = ((uint)in_uint_float((((float3)((((float)cb[11]) + (1023.9844f))))).s1));
      gp[(((ulong)v6.s7)) % 8UL] = as_uint((-((float)gp[(((ulong)cb[10])) % 8UL])));
    } else {
      if ((((uint)~neg_uint(95677737u))) < (in[(17211238395964796120UL) % 256UL])) {
        v1 = ((uint)(((int8)(((int)in_int_double(v3.f1)), ((int)~v4), mod_int(((int)in_int_float(v15.s4)), convert_int(cb[4])), ((int)in_int_float((((float8)(((float)in[(8UL) % 256UL])))).s6)), (-1788950967), mul_int(((int)v9[(gp[(cb[8]) % 8u]) % 8u]), convert_int(gid)), 127, ((int)(((int)lid) & ((int)gp[(((uint)v4)) % 8u])))))).s5);
        v2 = ((char)v1);
        v6.s40 = v6.s41;
      }
      v15.s2 = (0.49609375f);
      char v16 = ((char)~((char)gp[(15u) % 8u]));
      h = mix(h, (ulong)(int)v16);
    }
    h = mix(h, fbits(v15.s0));
    h = mix(h, fbits(v15.s1));
    h = mix(h, fbits(v15.s2));
    h = mix(h, fbits(v15.s3));
    h = mix(h, fbits(v15.s4));
    h = mix(h, fbits(v15.s5));
    h = mix(h, fbits(v15.s6));
    h = mix(h, fbits(v15.s7));
  } break;
  default: {
    gs_atomic_add_l(&lacc[0], as_uint(as_float(1624336703u)));
    v1 = cb[4];
  }
  }
  if ((shr_ulong(convert_ulong(v1), ((ulong)lid))) < (as_ulong(convert_double(gp[(11693152089995079375UL) % 8UL])))) {
    for (long i17 = 0; i17 < (long)(((((uint4)(cb[12], v1, convert_uint(v6.s1), lid))).s1) % 5u); i17 += 1) {
      for (int i18 = 0; i18 < 4; i18++) {
        gs_atomic_and_g(&acc[3], shr_uint(shr_uint(gp[(((uint)gid)) % 8u], 1186493013u), v1));
        v3.f0 = ((long)cb[13]);
        float v19[3];
        v19[0] = ((float)i17);
        v19[1] = (((float4)(convert_float(cb[1]), ((float)gid), (-60136.914f), convert_float(v5.x)))).s3;
        v19[2] = as_float(31u);
        h = mix(h, fbits(v19[0]));
        h = mix(h, fbits(v19[1]));
        h = mix(h, fbits(v19[2]));
        if (lid % 3u == 1u) break;
      }
    }
    if (lid % 3u == 1u) {
      v1 = shl_uint(v1, ((uint)(3614781356u | ((((short)v1) == shr_short(((short)13143), ((short)cb[2]))) ? shl_uint(((uint)v6.s1), 972819163u) : ((uint)(((ulong4)(convert_ulong(v9[(31UL) % 8UL]), 9190057790544877005UL, 15206788783374522213UL, 31UL))).s0)))));
    }
    v2 = mul_char(v2, convert_char(cb[14]));
  }
  lm[lid] = as_uint(((float)in[(convert_ulong(v9[(2685392753u) % 8u])) % 256UL]));
  gs_barrier();
  v1 = (uint)(lm[(lid + 58u) % 64u] + lacc[7]);
  gs_barrier();
  float v20 = (((float2)(((32.0f) + convert_float(gp[(((ulong)v9[(((ulong)in[(v5.z) % 256u])) % 8UL])) % 8UL])), ((float)v2)))).s0;
  switch ((((uint)(((ulong2)(mod_ulong(16UL, 65535UL), (((ulong2)(((ulong)v5.y), convert_ulong(v6.s3)))).s1))).s1)) % 4u) {
  case 0: {
    for (ulong i21 = 0; i21 < (ulong)((((uint)~63u)) % 5u); i21 += 1) {
      if ((((uchar)8)) >= (add_uchar(((uchar)v3.f0), convert_uchar(in[(lid) % 256u])))) {
        v4 = add_int(v4, 1551513608);
        v5 = ((uint4)(mul_uint(gp[(v9[(2081781415u) % 8u]) % 8u], ((uint)v6.s4)), convert_uint(convert_uchar(gid)), convert_uint(in_uint_double(v3.f1)), shl_uint(in[(convert_ulong(cb[7])) % 256UL], in[(((ulong)v1)) % 256UL])));
        v5.xwz = convert_uint3(v6.s650);
      } else {
        v1 = (v5.ww).s1;
      }
      v3.f0 = sub_long(div_long(convert_long(gid), ((long)v6.s3)), ((long)(((int4)(convert_int(in[(((uint)gid)) % 256u]), 65535, ((int)v1), convert_int(in[(1797934522u) % 256u])))).s0));
    }
    switch ((((uint)((short)(convert_short(cb[4]) ^ ((short)726))))) % 4u) {
    case 0: {
      v3.f0 = convert_long(v4);
    }
    case 1: {
      uchar v22 = ((uchar)204);
      uint16 v23 = ((uint16)(shl_uint(v5.s1, ((uint)v4)), ((uint)(gp[(((ulong)v4)) % 8UL] ^ v1)), mul_uint(cb[15], convert_uint(v6.s4)), (v5.xywxxyzw).s7, ((((int)cb[5]) != v6.s3) ? ((uint)v6.s4) : cb[10]), ((uint)convert_uchar(v9[(cb[12]) % 8u])), sub_uint(v5.w, lid), lid, ((uint)convert_uchar(lid)), as_uint((0.0234375f)), add_uint(((uint)v2), lid), ((((short)-11706) != ((short)15877)) ? gp[(((ulong)v6.s2)) % 8UL] : convert_uint(v4)), ((uint)(((ulong4)(256UL))).s1), shr_uint(v1, v5.y), mul_uint(convert_uint(gid), in[(v5.s0) % 256u]), mod_uint(convert_uint(in_uint_double(v3.f1)), ((uint)in_uint_float(v20)))));
      h = mix(h, (ulong)(uint)v22);
      h = mix(h, (ulong)v23.s0);
      h = mix(h, (ulong)v23.s1);
      h = mix(h, (ulong)v23.s2);
      h = mix(h, (ulong)v23.s3);
      h = mix(h, (ulong)v23.s4);
      h = mix(h, (ulong)v23.s5);
      h = mix(h, (ulong)v23.s6);
      h = mix(h, (ulong)v23.s7);
      h = mix(h, (ulong)v23.s8);
      h = mix(h, (ulong)v23.s9);
      h = mix(h, (ulong)v23.sa);
      h = mix(h, (ulong)v23.sb);
      h = mix(h, (ulong)v23.sc);
      h = mix(h, (ulong)v23.sd);
      h = mix(h, (ulong)v23.se);
      h = mix(h, (ulong)v23.sf);
    }
    case 2: {
      v2 = convert_char(((((ulong3)(((ulong)((uint)((uchar)v6.s3))), ((((short)cb[6]) != ((short)v4)) ? 296579476567024224UL : ((ulong)cb[4])), convert_ulong(v9[(convert_uint(v3.f0)) % 8u]))) | (((ulong3)(((ulong)((int)v2)))) + ((ulong3)(gid, ((ulong)in[(convert_uint(v6.s7)) % 256u]), convert_ulong(in[(convert_ulong(((int)v2))) % 256UL])))))).s0);
      if ((neg_uchar(sub_uchar(((uchar)in[(((ulong)in_ulong_float(v20))) % 256UL]), ((uchar)0)))) == (((uchar)~((uchar)0)))) {
        v5.s2 = ((((char)~((char)7)) <= ((char)(((char)v1) & convert_char(in_char_float(v20))))) ? 986873919u : 3232202027u);
        v3.f1 = ((((double)v20) * convert_double(gid)) * convert_double(((int)v2)));
        v3.f0 = ((long)in_long_double((-((double)v9[(in[(v5.w) % 256u]) % 8u]))));
      } else {
        gs_atomic_add_l(&lacc[3], as_uint((-((float)v9[(((ulong)lid)) % 8UL]))));
        v1 = ((uint)(((ulong3)(((ulong)in_ulong_float((0.001953125f))), shl_ulong(((ulong)v5.x), 4019635429933911637UL), ((convert_long(v5.x) >= ((long)((int)v2))) ? ((ulong)((int)v2)) : convert_ulong(in_ulong_float(v20)))))).s1);
      }
    } break;
    default: {
      v9[(((ulong)((int)v2))) % 8UL] = ((uint)in_uint_float((convert_float(in[(((ulong)in_ulong_double(v3.f1))) % 256UL]) + (0.25f))));
      gp[(((ulong)in[(convert_uint(in_uint_float(v20))) % 256u])) % 8UL] = v1;
    }
    }
  } break;
  case 1: {
    v2 = ((char)in[(cb[15]) % 256u]);
  } break;
  case 2: {
    v3.f1 = ((((double)cb[2]) > ((double)v4)) ? ((double)v5.x) : (((double)v9[(((ulong)lid)) % 8UL]) * (1.1175870895385742e-8)));
  }
  default: {
    gs_atomic_add_l(&lacc[0], 256u);
  }
  }
  h = mix(h, (ulong)v1);
  h = mix(h, (ulong)(int)v2);
  h = mix(h, (ulong)v3.f0);
  h = mix(h, dbits(v3.f1));
  h = mix(h, (ulong)v4);
  h = mix(h, (ulong)v5.s0);
  h = mix(h, (ulong)v5.s1);
  h = mix(h, (ulong)v5.s2);
  h = mix(h, (ulong)v5.s3);
  h = mix(h, (ulong)v6.s0);
  h = mix(h, (ulong)v6.s1);
  h = mix(h, (ulong)v6.s2);
  h = mix(h, (ulong)v6.s3);
  h = mix(h, (ulong)v6.s4);
  h = mix(h, (ulong)v6.s5);
  h = mix(h, (ulong)v6.s6);
  h = mix(h, (ulong)v6.s7);
  h = mix(h, (ulong)v9[0]);
  h = mix(h, (ulong)v9[1]);
  h = mix(h, (ulong)v9[2]);
  h = mix(h, (ulong)v9[3]);
  h = mix(h, (ulong)v9[4]);
  h = mix(h, (ulong)v9[5]);
  h = mix(h, (ulong)v9[6]);
  h = mix(h, (ulong)v9[7]);
  h = mix(h, fbits(v20));
  out[gid] = h;
}
