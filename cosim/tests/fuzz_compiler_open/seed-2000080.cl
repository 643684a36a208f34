// reduced from seed 2000080 (inputs: cosim::fuzz::clgen::exec::inputs(2000080)): wave32 -O1: buffer out differs, first at byte 48: [11, 34, c6, 05, 66, 05, d5, 4d] (clang) vs [e7, 91, c4, 6a, 19, b9, 4b, 6c] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
ulong __attribute__((overloadable)) convert_ulong(uint x) { return (ulong)x; }
uchar __attribute__((overloadable)) convert_uchar(ulong x) { return (uchar)x; }
int __attribute__((overloadable)) convert_int(uint x) { return (int)x; }
int __attribute__((overloadable)) convert_int(float x) { return (int)x; }
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
float2 __attribute__((overloadable)) convert_float2(ulong2 x) { return __builtin_convertvector(x, float2); }
double __attribute__((overloadable)) convert_double(float x) { return (double)x; }
double __attribute__((overloadable)) convert_double(int x) { return (double)x; }
int __attribute__((overloadable)) convert_int(ushort x) { return (int)x; }
float3 __attribute__((overloadable)) convert_float3(int3 x) { return __builtin_convertvector(x, float3); }
ulong __attribute__((overloadable)) convert_ulong(float x) { return (ulong)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
float __attribute__((overloadable)) convert_float(ulong x) { return (float)x; }
short __attribute__((overloadable)) convert_short(uint x) { return (short)x; }
ushort __attribute__((overloadable)) convert_ushort(short x) { return (ushort)x; }
char __attribute__((overloadable)) convert_char(ushort x) { return (char)x; }
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
int __attribute__((overloadable)) convert_int(uchar x) { return (int)x; }
int2 __attribute__((overloadable)) convert_int2(int2 x) { return __builtin_convertvector(x, int2); }
uint __attribute__((overloadable)) convert_uint(float x) { return (uint)x; }
double __attribute__((overloadable)) convert_double(uint x) { return (double)x; }
uint __attribute__((overloadable)) convert_uint(int x) { return (uint)x; }
float __attribute__((overloadable)) convert_float(int x) { return (float)x; }
uchar __attribute__((overloadable)) convert_uchar(float x) { return (uchar)x; }
float __attribute__((overloadable)) convert_float(uchar x) { return (float)x; }
uchar __attribute__((overloadable)) convert_uchar(uint x) { return (uchar)x; }
int __attribute__((overloadable)) convert_int(ulong x) { return (int)x; }
#endif
static char mul_char(char a, char b) { return (char)(a * b); }
static float in_char_float(float x) { return (x > -129.0f && x < 128.0f) ? x : 0.0f; }
static float in_uchar_float(float x) { return (x > -1.0f && x < 256.0f) ? x : 0.0f; }
static short mul_short(short a, short b) { return (short)(a * b); }
static short div_short(short a, short b) { return b == 0 ? a : (short)(a / b); }
static short mod_short(short a, short b) { return b == 0 ? a : (short)(a % b); }
static short shr_short(short a, short b) { return (short)(a >> (b & 7)); }
static float in_short_float(float x) { return (x > -32769.0f && x < 32768.0f) ? x : 0.0f; }
static ushort add_ushort(ushort a, ushort b) { return (ushort)(a + b); }
static ushort mul_ushort(ushort a, ushort b) { return (ushort)((uint)a * (uint)b); }
static ushort div_ushort(ushort a, ushort b) { return b == 0 ? a : (ushort)(a / b); }
static ushort mod_ushort(ushort a, ushort b) { return b == 0 ? a : (ushort)(a % b); }
static ushort shr_ushort(ushort a, ushort b) { return (ushort)(a >> (b & 7)); }
static ushort neg_ushort(ushort a) { return (ushort)(-a); }
static float in_ushort_float(float x) { return (x > -1.0f && x < 65536.0f) ? x : 0.0f; }
static double in_ushort_double(double x) { return (x > -1.0 && x < 65536.0) ? x : 0.0; }
static int add_int(int a, int b) { return ((b > 0 && a > INT_MAX - b) || (b < 0 && a < INT_MIN - b)) ? a : a + b; }
static int sub_int(int a, int b) { return ((b < 0 && a > INT_MAX + b) || (b > 0 && a < INT_MIN + b)) ? a : a - b; }
static int mul_int(int a, int b) { long r = (long)a * (long)b; return (r > INT_MAX || r < INT_MIN) ? a : (int)r; }
static int mod_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }
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
static ulong add_ulong(ulong a, ulong b) { return (ulong)(a + b); }
static ulong sub_ulong(ulong a, ulong b) { return (ulong)(a - b); }
static ulong div_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a / b); }
static ulong mod_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a % b); }
static float in_ulong_float(float x) { return (x > -1.0f && x < 18446744073709551616.0f) ? x : 0.0f; }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong fbits(float x) { return x != x ? 0x7fc00000UL : (ulong)as_uint(x); }
static ulong dbits(double x) { return x != x ? 0x7ff8000000000000UL : as_ulong(x); }
typedef struct { float f0; char f1; double f2; uchar f3; } S0;
typedef struct { ushort f0; float f1; short f2; } S1;
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
  v1.f0 = (((float)gp[(((ulong)gp[(17916730411677884387UL) % 8UL])) % 8UL]) * (-20397996.0f));
  v1.f1 = ((char)(convert_char(gp[(1137415326u) % 8u]) & ((char)-118)));
  v1.f2 = ((double)((int)((char)gid)));
  v1.f3 = convert_uchar(convert_ulong(cb[10]));
  float v2 = ((-(((float)cb[10]) - ((float)gp[(in[(cb[9]) % 256u]) % 8u]))) / (-as_float(in[(cb[10]) % 256u])));
  int4 v3 = ((int4)(add_int(convert_int(in[(((ulong)in[(gid) % 256UL])) % 256UL]), convert_int(in_int_float(v2))), sub_int(((int)lid), convert_int(lid)), convert_int(lid), 256));
  ushort v4[5];
  v4[0] = convert_ushort(in[(cb[12]) % 256u]);
  v4[1] = div_ushort(((ushort)in[(31u) % 256u]), ((ushort)v1.f1));
  v4[2] = neg_ushort(((ushort)lid));
  v4[3] = mul_ushort(convert_ushort(cb[12]), ((ushort)cb[5]));
  v4[4] = ((ushort)(((ushort)cb[7]) | ((ushort)64)));
  float v5 = ((((((short)-14553) == ((short)gid)) ? convert_float(in[(lid) % 256u]) : (-11514418.0f)) + ((float)((uint)v4[(lid) % 5u]))) * as_float(((uint)gid)));
  for (ulong i6 = 0; i6 < (ulong)((((uint)(gp[(gid) % 8UL] & 65535u))) % 5u); i6 += 1) {
    v1.f2 = convert_double((convert_float2(((ulong2)(i6, ((ulong)in[(256UL) % 256UL]))))).s0);
  }
  if ((((((uint)in_uint_float(v5)) < gp[(in[(((ulong)in[(16UL) % 256UL])) % 256UL]) % 8u]) ? (convert_float(lid) * ((float)v4[(in[(convert_uint(v4[(((ulong)v3.s1)) % 5UL])) % 256u]) % 5u])) : ((float)((short)15558)))) >= ((((float3)((186183840.0f), (597348860.0f), v5))).s1)) {
    v1.f2 = convert_double(((int)((short)15)));
  } else {
    for (int i7 = 0; i7 < (int)((in[(4213071652735190607UL) % 256UL]) % 5u); i7++) {
      gs_atomic_xor_g(&acc[2], shl_uint(cb[2], ((uint)~in[(((ulong)v3.y)) % 256UL])));
    }
    v4[(((((short)-24259) <= ((short)255)) ? ((uint)v1.f1) : cb[2])) % 5u] = ((ushort)in_ushort_float((convert_float3(((int3)(convert_int(in[(7659806183686173560UL) % 256UL]), convert_int(v4[(in[(255UL) % 256UL]) % 5u]), ((int)in[(((ulong)cb[6])) % 256UL]))))).s0));
  }
  switch ((shr_uint(((uint)~gp[(convert_ulong(in_ulong_float(v1.f0))) % 8UL]), mod_uint(1180509345u, 4232859472u))) % 4u) {
  case 0: {
    if ((mul_char(((char)~((char)in[(4815662854008917424UL) % 256UL])), ((char)~((char)v3.s0)))) <= (((char)(((char)7) | ((char)in_char_float(v2)))))) {
      short v8 = ((short)in[(((ulong)((uint)v4[(((uint)v3.s3)) % 5u]))) % 256UL]);
      if (((((float)(3407876062.218782)) - (convert_float(v4[(1342397283870208760UL) % 5UL]) / convert_float(in[(convert_ulong(((int)v8))) % 256UL])))) >= ((-v2))) {
        v2 *= (v5 * (((float3)((convert_float(gid) / ((float)v3.s3)), v2, v2))).s1);
        v8 = mul_short(v8, ((short)(((short)7) ^ mul_short(convert_short(cb[5]), shr_short(((short)12075), ((short)gp[(((ulong)gp[(256UL) % 8UL])) % 8UL]))))));
      }
      h = mix(h, (ulong)(int)v8);
    } else {
      v2 = ((((ushort)57287) >= mod_ushort(convert_ushort(gp[(convert_ulong(((uint)v1.f3))) % 8UL]), mul_ushort(((ushort)15), ((ushort)32)))) ? (((344699520.0f) * (-80257.14f)) / ((float)gid)) : (((float8)((4.0f), ((-7255394.0f) - convert_float(cb[12])), (((float)in[(gid) % 256UL]) - (0.0009765625f)), ((float)in[(((ulong)in[(((ulong)gp[(((uint)gid)) % 8u])) % 256UL])) % 256UL]), ((float)cb[0]), ((float)cb[4]), ((((uint)v4[(((ulong)lid)) % 5UL]) >= cb[7]) ? ((float)v1.f3) : (3.984375f)), ((215177890.0f) - ((float)cb[8]))))).s4);
      if (((-38891684730930.43)) < (((v1.f2 > (0.03125)) ? (0.0039061903953552246) : (-5986902503.462257)))) {
        v1.f2 = (-(-((double)in[(gp[(lid) % 8u]) % 256u])));
      }
    }
  } break;
  case 1: {
    v1.f0 = (((float)v3.s3) - ((float)((ulong)in_ulong_float(v1.f0))));
  } break;
  case 2: {
    switch ((div_uint(3047749321u, ((((char)gp[(in[(((uint)v4[(in[(0u) % 256u]) % 5u])) % 256u]) % 8u]) != convert_char(cb[12])) ? gp[(cb[5]) % 8u] : ((uint)v1.f1)))) % 4u) {
    case 0: {
      if (lid % 4u == 1u) {
        v5 = ((((float)((long)v3.w)) * ((float)in[(in[(((ulong)cb[2])) % 256UL]) % 256u])) / (0.5f));
        v4[(((uint)(256u & cb[3]))) % 5u] = convert_ushort(div_short(((short)cb[7]), ((short)in_short_float(v2))));
        gs_atomic_xor_g(&acc[2], ((31UL == sub_ulong(((ulong)in_ulong_float(v2)), ((ulong)gp[(cb[8]) % 8u]))) ? ((((float)cb[7]) < v2) ? lid : cb[10]) : ((((char)127) == ((char)in[(in[(64UL) % 256UL]) % 256u])) ? 720592290u : ((uint)v4[(gp[(63u) % 8u]) % 5u]))));
      } else {
        gs_atomic_add_l(&lacc[1], div_uint(as_uint((155792860.0f)), ((convert_char(v4[(((ulong)((int)v1.f1))) % 5UL]) <= ((char)-115)) ? ((uint)in_uint_float(v2)) : convert_uint(gid))));
      }
      for (uint i9 = 0; i9 < (uint)((((uint)gid)) % 5u); i9 += 1) {
        v4[(((uint)(((int2)((-1830954752), (-1909329284)))).s0)) % 5u] = convert_ushort(in[(((ulong)gp[(convert_ulong(lid)) % 8UL])) % 256UL]);
      }
    } break;
    case 1: {
      if (lid % 6u == 0u) {
        v3.lo = ((int2)(add_int(convert_int(v1.f3), ((int)gid))));
      }
      v1.f0 = ((float)gid);
    }
    case 2: {
      v1.f1 = ((char)-1);
      for (long i10 = 0; i10 < (long)((((uint)(((uint)gid) & in[(((ulong)in[(((ulong)((uint)v4[(1UL) % 5UL]))) % 256UL])) % 256UL]))) % 5u); i10 += 1) {
        v1.f2 = (((0.007568359375) - ((double)cb[2])) * (-((double)cb[13])));
        v3.odd = convert_int2(v3.xz);
      }
    } break;
    default: {
      if ((add_ulong(((ulong)(convert_ulong(in[(in[(127u) % 256u]) % 256u]) & 1UL)), mod_ulong(15UL, ((ulong)v3.w)))) == (div_ulong(((ulong)v3.s1), ((ulong)cb[10])))) {
        v2 *= ((convert_float(convert_uint(in_uint_float(v5))) * ((float)cb[0])) * ((63.999023f) * (((float)in[(((ulong)in_ulong_float(v1.f0))) % 256UL]) / ((float)cb[13]))));
      } else {
        v2 = (0.12402344f);
      }
    }
    }
    for (uint i11 = 0; i11 < 1; i11 += 1) {
      double v12[5];
      v12[0] = as_double(convert_ulong(((uint)v4[(8608998608586815361UL) % 5UL])));
      v12[1] = ((3.625864244101373e17) - (3391146444542004.0));
      v12[2] = (convert_double(v3.s3) * ((double)i11));
      v12[3] = (convert_double(v5) / convert_double(lid));
      v12[4] = as_double(convert_ulong(in_ulong_float(v5)));
      h = mix(h, dbits(v12[0]));
      h = mix(h, dbits(v12[1]));
      h = mix(h, dbits(v12[2]));
      h = mix(h, dbits(v12[3]));
      h = mix(h, dbits(v12[4]));
    }
  } break;
  default: {
    v3 = ((int4)(mod_int(((int)v1.f1), 8), neg_int(convert_int(in_int_float(v5))), ((int)(convert_int(cb[6]) | (-719839090))), neg_int(((int)in_int_double(v1.f2)))));
  }
  }
  v1.f0 = convert_float(((((double)gp[(((ulong)v3.x)) % 8UL]) > ((double)((uint)v4[(32UL) % 5UL]))) ? ((char)gid) : convert_char(in[(3441233332u) % 256u])));
  gs_atomic_xor_g(&acc[2], ((uint)(((uint)in_uint_float(v5)) | ((uint)~lid))));
  v4[(as_uint((211210820.0f))) % 5u] = neg_ushort(add_ushort(((ushort)gp[(lid) % 8u]), convert_ushort(lid)));
  v3.hi = ((int2)(((int)v4[(((ulong)in_ulong_float(v2))) % 5UL]), shr_int(((int)v4[(0u) % 5u]), convert_int(gp[(lid) % 8u]))));
  switch ((7u) % 4u) {
  case 0: {
    v4[(shl_uint(lid, 2u)) % 5u] = ((ushort)15);
  } break;
  case 1: {
    v4[(mul_uint(((uint)in_uint_float(v2)), convert_uint(v3.z))) % 5u] = ((ushort)in_ushort_double((((double)v3.s3) * ((double)((uint)v4[(168610366141978774UL) % 5UL])))));
  }
  case 2: {
    if ((((char)((uchar)in_uchar_float((((float4)((1023.9844f), (1.0f), (105316820.0f), convert_float(v3.s1)))).s1)))) < (((((uchar)2) == convert_uchar(in_uchar_float(v2))) ? ((char)in[(in[(in[(convert_uint(v3.s2)) % 256u]) % 256u]) % 256u]) : ((char)lid)))) {
      v1.f0 = as_float(gp[(((uint)in_uint_double(v1.f2))) % 8u]);
      if ((convert_ushort(gp[(cb[12]) % 8u])) < (div_ushort(((ushort)v1.f1), v4[(((uint)v4[(31UL) % 5UL])) % 5u]))) {
        v3 = ((((int4)(((int)in[(convert_ulong(in_ulong_float(v2))) % 256UL]))) ^ v3) ^ (((int4)(convert_int(v4[(convert_uint(gid)) % 5u]))) | v3));
        v1.f1 = ((char)v1.f3);
        v2 = (((((float)gp[(gp[(((ulong)cb[9])) % 8UL]) % 8u]) * convert_float(cb[8])) / ((float)cb[8])) + ((((float)in[(gp[(gp[(convert_ulong(((uint)v4[(((uint)in_uint_float(v1.f0))) % 5u]))) % 8UL]) % 8u]) % 256u]) + v2) * (-v2)));
      }
      v5 = (((float8)(convert_float(v1.f3), convert_float(v3.s2), (((float)v3.s2) + ((float)cb[1])), ((float)((uchar)in_uchar_float(v2))), (-(-100306280.0f)), (((float8)(((float)gp[(((uint)v1.f1)) % 8u]), (1.0f), ((float)v1.f2), v5, ((float)in[(8u) % 256u]), ((float)gp[(1901550386656798217UL) % 8UL]), (7.75f), convert_float(lid)))).s5, (-convert_float(cb[14])), ((1.0f) * ((float)cb[9]))))).s0;
    } else {
      if ((((double)(((float8)((((float)cb[1]) * ((float)lid))))).s6)) < ((-((double)in[(31u) % 256u])))) {
        v2 = v2;
        uint v13 = add_uint(((uint)in_uint_float(v5)), neg_uint(cb[4]));
        v4[(as_uint((0.0546875f))) % 5u] = ((ushort)((((uchar)8) <= ((uchar)v3.s1)) ? 8u : ((uint)in_uint_float(v5))));
        h = mix(h, (ulong)v13);
      }
    }
    gs_atomic_umax_g(&acc[4], 8u);
  }
  default: {
    for (ulong i14 = 0; i14 < (ulong)((as_uint(((float)in[(32UL) % 256UL]))) % 5u); i14 += 1) {
      v3.hi = ((int2)(8, ((((uchar)cb[7]) <= convert_uchar(cb[2])) ? convert_int(i14) : convert_int(in[(cb[7]) % 256u]))));
      ushort v15[3];
      v15[0] = ((((double)gid) > ((double)in[(((uint)in_uint_float(v2))) % 256u])) ? ((ushort)cb[6]) : ((ushort)cb[7]));
      v15[1] = (((497510.44f) != ((float)in[(((ulong)cb[14])) % 256UL])) ? ((ushort)in[(gp[(gp[(((uint)v1.f1)) % 8u]) % 8u]) % 256u]) : ((ushort)cb[6]));
      v15[2] = ((ushort)in_ushort_float((((float3)(v5, ((float)gp[(64UL) % 8UL]), convert_float(cb[1])))).s2));
      h = mix(h, (ulong)(uint)v15[0]);
      h = mix(h, (ulong)(uint)v15[1]);
      h = mix(h, (ulong)(uint)v15[2]);
    }
    v2 += convert_float(in[(32UL) % 256UL]);
  }
  }
  for (uint i16 = 0; i16 < (uint)(((((uint8)(((uint)v4[(((ulong)((uint)v4[(7u) % 5u]))) % 5UL]), 1u, in[(((ulong)cb[7])) % 256UL], 31u, ((uint)in_uint_float(v2)), ((uint)v3.s2), cb[12], ((uint)v4[(gp[(in[(((ulong)in_ulong_float(v2))) % 256UL]) % 8u]) % 5u])))).s6) % 5u); i16 += 1) {
    v2 = (((((float4)(((float)gid), ((float)i16), ((float)v3.s0), (7.0f))) * ((float4)(((float)i16), ((float)gp[(convert_ulong(i16)) % 8UL]), (-2005916.0f), convert_float(i16))))).s1 * ((convert_float(in[(((uint)v3.x)) % 256u]) + ((float)gp[(cb[1]) % 8u])) * (((float4)(((float)cb[9]), (21350314.0f), (0.0625f), convert_float(v3.s1)))).s2));
    if ((((((int)(((int)v1.f1) ^ ((int)in_int_float(v2)))) < mul_int(convert_int(gp[(in[(15UL) % 256UL]) % 8u]), v3.w)) ? ((short)8) : shr_short(((short)v4[(((ulong)i16)) % 5UL]), ((short)cb[3])))) >= (mod_short(((short)in[(convert_uint(v4[(((uint)in_uint_float(v2))) % 5u])) % 256u]), ((short)i16)))) {
      uint8 v17 = ((uint8)(lid, sub_uint(31u, 3201601885u), shl_uint(2592992320u, cb[9]), ((uint)(((uint)in_uint_float(v2)) ^ cb[11])), ((uint)(((uint)v4[(((ulong)cb[7])) % 5UL]) ^ cb[5])), sub_uint(in[(3UL) % 256UL], ((uint)gid)), ((((int)in_int_float(v5)) != 1) ? 0u : cb[2]), i16));
      v5 *= (convert_float(v3.z) - (((float4)((((float)v1.f1) - ((float)lid)), (((float)cb[7]) * (0.12109375f)), as_float(256u), ((1.0f) / convert_float(v3.y))))).s3);
      v4[(((uint)(gp[(((uint)v3.s0)) % 8u] & in[(((uint)in_uint_float(v2))) % 256u]))) % 5u] = ((ushort)(((ulong4)(((ulong)(convert_ulong(cb[14]) & 7UL))))).s1);
      h = mix(h, (ulong)v17.s0);
      h = mix(h, (ulong)v17.s1);
      h = mix(h, (ulong)v17.s2);
      h = mix(h, (ulong)v17.s3);
      h = mix(h, (ulong)v17.s4);
      h = mix(h, (ulong)v17.s5);
      h = mix(h, (ulong)v17.s6);
      h = mix(h, (ulong)v17.s7);
    }
  }
  v2 = ((float)((int)gid));
  ushort *p18 = &v4[0];
  v2 = (((((float2)((4.0f), ((float)cb[13])))).s0 + (((float3)(((float)v3.x), convert_float((*p18)), (2074028.3f)))).s0) - (63.0f));
  *p18 = shr_ushort(((ushort)gp[(((uint)in_uint_float(v2))) % 8u]), neg_ushort(((ushort)cb[15])));
  for (ulong i19 = 0; i19 < 2; i19 += 1) {
    v4[(gp[(((ulong)((uint)v4[(((uint)in_uint_float(v2))) % 5u]))) % 8UL]) % 5u] = (*p18);
  }
  lm[lid] = mod_uint(mod_uint(convert_uint(in_uint_float(v1.f0)), 256u), div_uint(in[(((ulong)((uint)(*p18)))) % 256UL], ((uint)v4[(((ulong)((uint)v4[(convert_ulong(v3.s0)) % 5UL]))) % 5UL])));
  gs_barrier();
  h = mix(h, lm[(lid + 57u) % 64u] + lacc[2]);
  gs_barrier();
  h = mix(h, fbits(v1.f0));
  h = mix(h, (ulong)(int)v1.f1);
  h = mix(h, dbits(v1.f2));
  h = mix(h, (ulong)(uint)v1.f3);
  h = mix(h, fbits(v2));
  h = mix(h, (ulong)v3.s0);
  h = mix(h, (ulong)v3.s1);
  h = mix(h, (ulong)v3.s2);
  h = mix(h, (ulong)v3.s3);
  h = mix(h, (ulong)(uint)v4[0]);
  h = mix(h, (ulong)(uint)v4[1]);
  h = mix(h, (ulong)(uint)v4[2]);
  h = mix(h, (ulong)(uint)v4[3]);
  h = mix(h, (ulong)(uint)v4[4]);
  h = mix(h, fbits(v5));
  h = mix(h, (ulong)(uint)*p18);
  out[gid] = h;
}
