// reduced from seed 2000745 (inputs: cosim::fuzz::clgen::exec::inputs(2000745)): wave32 -O1: buffer out differs, first at byte 40: [6a, f2, 18, fc, 10, 2f, 05, 44] (clang) vs [97, c7, 6b, 07, 21, c4, 8e, d4] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
int __attribute__((overloadable)) convert_int(uint x) { return (int)x; }
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
ulong __attribute__((overloadable)) convert_ulong(uint x) { return (ulong)x; }
uchar __attribute__((overloadable)) convert_uchar(ulong x) { return (uchar)x; }
uint __attribute__((overloadable)) convert_uint(int x) { return (uint)x; }
double __attribute__((overloadable)) convert_double(float x) { return (double)x; }
float __attribute__((overloadable)) convert_float(int x) { return (float)x; }
short __attribute__((overloadable)) convert_short(uint x) { return (short)x; }
long __attribute__((overloadable)) convert_long(uint x) { return (long)x; }
uchar __attribute__((overloadable)) convert_uchar(uint x) { return (uchar)x; }
uint __attribute__((overloadable)) convert_uint(float x) { return (uint)x; }
float __attribute__((overloadable)) convert_float(ulong x) { return (float)x; }
short __attribute__((overloadable)) convert_short(ushort x) { return (short)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
ushort __attribute__((overloadable)) convert_ushort(int x) { return (ushort)x; }
uchar __attribute__((overloadable)) convert_uchar(short x) { return (uchar)x; }
ulong3 __attribute__((overloadable)) convert_ulong3(uint3 x) { return __builtin_convertvector(x, ulong3); }
float2 __attribute__((overloadable)) convert_float2(uint2 x) { return __builtin_convertvector(x, float2); }
short __attribute__((overloadable)) convert_short(double x) { return (short)x; }
char __attribute__((overloadable)) convert_char(int x) { return (char)x; }
double __attribute__((overloadable)) convert_double(ulong x) { return (double)x; }
uchar __attribute__((overloadable)) convert_uchar(ushort x) { return (uchar)x; }
uint8 __attribute__((overloadable)) convert_uint8(uint8 x) { return __builtin_convertvector(x, uint8); }
double __attribute__((overloadable)) convert_double(uint x) { return (double)x; }
ulong __attribute__((overloadable)) convert_ulong(float x) { return (ulong)x; }
int __attribute__((overloadable)) convert_int(ulong x) { return (int)x; }
int __attribute__((overloadable)) convert_int(float x) { return (int)x; }
short __attribute__((overloadable)) convert_short(ulong x) { return (short)x; }
#endif
static char sub_char(char a, char b) { return (char)(a - b); }
static uchar mod_uchar(uchar a, uchar b) { return b == 0 ? a : (uchar)(a % b); }
static short add_short(short a, short b) { return (short)(a + b); }
static short sub_short(short a, short b) { return (short)(a - b); }
static float in_short_float(float x) { return (x > -32769.0f && x < 32768.0f) ? x : 0.0f; }
static double in_short_double(double x) { return (x > -32769.0 && x < 32768.0) ? x : 0.0; }
static ushort sub_ushort(ushort a, ushort b) { return (ushort)(a - b); }
static ushort mul_ushort(ushort a, ushort b) { return (ushort)((uint)a * (uint)b); }
static ushort div_ushort(ushort a, ushort b) { return b == 0 ? a : (ushort)(a / b); }
static ushort shl_ushort(ushort a, ushort b) { return (ushort)((uint)a << (b & 7)); }
static float in_ushort_float(float x) { return (x > -1.0f && x < 65536.0f) ? x : 0.0f; }
static double in_ushort_double(double x) { return (x > -1.0 && x < 65536.0) ? x : 0.0; }
static int sub_int(int a, int b) { return ((b < 0 && a > INT_MAX + b) || (b > 0 && a < INT_MIN + b)) ? a : a - b; }
static int mul_int(int a, int b) { long r = (long)a * (long)b; return (r > INT_MAX || r < INT_MIN) ? a : (int)r; }
static int div_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }
static int mod_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }
static int shl_int(int a, int b) { return (int)((uint)a << b); }
static int shr_int(int a, int b) { return a >> b; }
static int neg_int(int a) { return a == INT_MIN ? a : -a; }
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
static long div_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a / b; }
static long mod_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }
static long shl_long(long a, long b) { return (long)((ulong)a << b); }
static ulong div_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a / b); }
static ulong mod_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a % b); }
static ulong shl_ulong(ulong a, ulong b) { return (ulong)((ulong)a << b); }
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
  uint v1 = (((0.00390625) < (1.944573953480462e17)) ? add_uint(shr_uint(1592549750u, convert_uint(gid)), ((uint)(15u & gp[(((ulong)gp[(4146117577u) % 8u])) % 8UL]))) : neg_uint(shr_uint(gp[(11565541368904843545UL) % 8UL], 16u)));
  int v2 = ((int)(convert_int(in[(4487782293896643049UL) % 256UL]) & div_int(((int)gp[(((ulong)lid)) % 8UL]), shl_int(((int)gid), ((int)gid)))));
  int v3 = v2;
  float8 v4 = ((float8)(convert_float(v1), (((float3)((0.5f), convert_float(v1), convert_float(lid)))).s1, (16.0f), (127.0f), convert_float(((ushort)39345)), (((float)gp[(((uint)v2)) % 8u]) - ((float)v3)), ((float)v1), ((((uchar)gp[(convert_ulong(in[(convert_ulong(in[(((uint)gid)) % 256u])) % 256UL])) % 8UL]) >= convert_uchar(gid)) ? convert_float(in[(((ulong)lid)) % 256UL]) : convert_float(in[(18308407621324258396UL) % 256UL]))));
  int v5 = as_int((((float4)(((float)((short)1)), (((float)v1) + ((float)in[(3UL) % 256UL])), as_float(593180581u), (-(0.00390625f))))).s0);
  for (ulong i6 = 0; i6 < 4; i6 += 1) {
    for (uint i7 = 0; i7 < (uint)((((1455754390 >= ((int)in[(14769801541340256344UL) % 256UL])) ? gp[(((ulong)lid)) % 8UL] : cb[11])) % 5u); i7 += 1) {
      float v8 = (((as_double(3881226997405127198UL) * convert_double((((float3)(((float)v5), ((float)in[(convert_uint(v2)) % 256u]), ((float)v2)))).s1)) > (((double)(((float8)(((float)gp[(v1) % 8u]), ((float)lid), ((float)cb[12]), ((float)gid), (131622800.0f), convert_float(lid), ((float)in[(convert_ulong(cb[12])) % 256UL]), convert_float(v2)))).s5) * ((double)i7))) ? (convert_float(v3) / ((float)((double)i6))) : (-((float)i7)));
      h = mix(h, fbits(v8));
    }
  }
  short v9 = ((short)in[(v1) % 256u]);
  v2 = ((int)~((mod_long(((long)v1), convert_long(v2)) >= ((convert_short(cb[4]) < ((short)7654)) ? convert_long(lid) : ((long)cb[0]))) ? ((convert_uchar(gp[(((ulong)in_ulong_float(v4.s6))) % 8UL]) >= ((uchar)v2)) ? ((int)v1) : 127) : sub_int(((int)cb[11]), ((int)lid))));
  ushort v10[4];
  v10[0] = mul_ushort(((ushort)in[(gp[(2UL) % 8UL]) % 256u]), ((ushort)cb[12]));
  v10[1] = shl_ushort(((ushort)63), ((ushort)cb[13]));
  v10[2] = ((ushort)in_ushort_double(((double)gid)));
  v10[3] = convert_ushort(gp[(14299495170061140626UL) % 8UL]);
  if (lid % 3u == 0u) {
    switch ((mul_uint(((((char)cb[6]) != ((char)11)) ? 65535u : convert_uint(v3)), convert_uint(v3))) % 4u) {
    case 0: {
      for (int i11 = 0; i11 < (int)((v1) % 5u); i11++) {
        v1 = 0u;
      }
      v10[(((uint)((char)-30))) % 4u] = ((ushort)in[(4206923619u) % 256u]);
    } break;
    case 1: {
      if ((((short)in[(((ulong)in_ulong_float(v4.s0))) % 256UL])) < (((short)((char)-1)))) {
        v1 = mul_uint(v1, convert_uint(in_uint_float(v4.s4)));
      }
    } break;
    case 2: {
      gs_atomic_and_g(&acc[3], as_uint((((float2)(convert_float(cb[14])))).s0));
    }
    default: {
      ushort v12 = ((ushort)(((ushort)(((ushort)v2) | ((ushort)31))) | ((ushort)255)));
      float v13[4];
      v13[0] = (((float)cb[4]) * (0.0f));
      v13[1] = (convert_float(lid) / convert_float(v12));
      v13[2] = (0.21875f);
      v13[3] = (-((float)in[(64u) % 256u]));
      h = mix(h, (ulong)(uint)v12);
      h = mix(h, fbits(v13[0]));
      h = mix(h, fbits(v13[1]));
      h = mix(h, fbits(v13[2]));
      h = mix(h, fbits(v13[3]));
    }
    }
  } else {
    v4 = ((float8)((((float)v5) - convert_float(gid)), ((float)v3), as_float(in[(v1) % 256u]), (-118605490.0f), ((convert_short(lid) >= ((short)8)) ? ((float)v2) : (0.0f)), as_float(65535u), (convert_float(v5) / ((float)v1)), as_float(((uint)v2))));
    v2 = ((int)in_int_float(v4.s6));
  }
  if ((((((short)(((uint2)(4272274218u, ((uint)v10[(((ulong)v3)) % 4UL])))).s1) == v9) ? shl_uint(8u, convert_uint(v5)) : ((uint)v2))) > (((((short)in_short_float(v4.s1)) < convert_short(v10[(((ulong)lid)) % 4UL])) ? convert_uint(v2) : ((uint)gid)))) {
    if ((shl_ushort(div_ushort(((ushort)in_ushort_float(v4.s4)), ((ushort)in[(convert_ulong(((int)v9))) % 256UL])), ((ushort)(((ushort)7) ^ v10[(convert_uint(v2)) % 4u])))) > (convert_ushort(v2))) {
      gs_atomic_add_l(&lacc[5], ((uint)(add_uint(421523127u, in[(in[(((ulong)in[(((ulong)cb[1])) % 256UL])) % 256UL]) % 256u]) ^ sub_uint(v1, ((uint)v9)))));
      for (int i14 = 0; i14 < (int)((div_uint(gp[(((ulong)cb[3])) % 8UL], ((uint)v5))) % 5u); i14++) {
        v10[(((uint)v2)) % 4u] = ((ushort)((uchar)67));
        v2 = sub_int(v2, ((int)(mod_int(as_int(((float)v10[(((ulong)in[(((uint)v5)) % 256u])) % 4UL])), sub_int(convert_int(v1), ((int)cb[4]))) | sub_int(neg_int(convert_int(in[(((ulong)gp[(791983995u) % 8u])) % 256UL])), as_int((12894552.0f))))));
      }
      uchar v15 = convert_uchar(v9);
      h = mix(h, (ulong)(uint)v15);
    } else {
      v4 = (v4 - ((float8)(((float)v5))));
      short v16 = ((short)(((int8)(div_int(((int)cb[1]), v2)))).s5);
      switch ((((uint)(convert_ulong3(((uint3)(1533440233u, lid, ((uint)v5))))).s0)) % 4u) {
      case 0: {
        v4.s0 = (convert_float2(((uint2)(1671731459u, ((uint)in_uint_float(v4.s1)))))).s1;
        v9 = add_short(convert_short(in_short_double(((double)gp[(in[(2u) % 256u]) % 8u]))), ((short)16841));
      }
      case 1: {
        gs_atomic_or_g(&acc[1], ((uint)((int)in_int_float(v4.s1))));
      } break;
      case 2: {
        gs_atomic_xor_g(&acc[2], mod_uint(sub_uint(v1, 3331740559u), 2053522890u));
      } break;
      default: {
        v3 = ((int)(as_int((((float)v5) + (15.75f))) | ((int)(((int)gp[(((uint)gid)) % 8u]) | mul_int(31, ((int)in[(convert_uint(v5)) % 256u]))))));
      }
      }
      h = mix(h, (ulong)(int)v16);
    }
    if ((convert_ulong(((((uint4)(cb[3], ((uint)v9), ((uint)in_uint_float(v4.s6)), 65535u)) ^ ((uint4)(convert_uint(v10[(((ulong)cb[12])) % 4UL]), 544007958u, cb[9], cb[6])))).s3)) >= (((ulong)v5))) {
      v9 = ((short)v3);
      v3 = ((as_double(((((char)1) > convert_char(v5)) ? ((ulong)in_ulong_float(v4.s6)) : 256UL)) == ((-convert_double(gid)) + ((5.093170329928398e-11) + ((double)((uint)v10[(convert_uint(v5)) % 4u]))))) ? ((((((uchar)47) != convert_uchar(v10[(3u) % 4u])) ? in[(in[(((ulong)v3)) % 256UL]) % 256u] : 2477005597u) == ((uint)in_uint_float(v4.s1))) ? shl_int(((int)v9), ((int)gp[(convert_ulong(v2)) % 8UL])) : sub_int(convert_int(in[(0u) % 256u]), ((int)v9))) : ((int)(((uint3)(((uint)(((uint)in_uint_float(v4.s6)) ^ convert_uint(v3))), mul_uint(((uint)v3), convert_uint(v3)), convert_uint(((short)in[(((ulong)v5)) % 256UL]))))).s1));
      if ((mod_uchar(((uchar)(convert_uchar(cb[6]) & ((uchar)lid))), ((uchar)(convert_uchar(gp[(((ulong)in_ulong_float(v4.s3))) % 8UL]) & convert_uchar(gid))))) < (((uchar)(((int2)(convert_int(gp[(((uint)v2)) % 8u]), convert_int(cb[2])))).s0))) {
        v4 = ((float8)((((float)cb[7]) + ((float)in[(16u) % 256u])), ((float)v3), (((float)in[(gid) % 256UL]) * ((float)v3)), ((((uchar)191) >= ((uchar)in[(31UL) % 256UL])) ? ((float)lid) : v4.s7), (((float2)(((float)v2), convert_float(lid)))).s1, ((float)cb[14]), (v4.s6723).s2, ((18012655331847079213UL > ((ulong)v2)) ? convert_float(v2) : convert_float(gp[(4073417310u) % 8u]))));
      }
    }
    for (long i17 = 0; i17 < (long)((shl_uint(((uint)v10[(convert_ulong(((int)v9))) % 4UL]), 700003690u)) % 5u); i17 += 1) {
      gs_atomic_add_g(&acc[5], mod_uint(7u, 702556077u));
      gs_atomic_xor_g(&acc[2], (convert_uint8(((uint8)(((uint)v5))))).s2);
      v3 = ((int)v10[(convert_ulong(v2)) % 4UL]);
      if (lid % 3u == 1u) break;
    }
  }
  if ((((-((float)v10[(gid) % 4UL])) - (((float)in[(lid) % 256u]) * ((float)v3)))) >= (((float)in[(((ulong)v1)) % 256UL]))) {
    v2 = v2;
    ushort *p18 = &v10[1];
    h = mix(h, (ulong)(uint)*p18);
  } else {
    if (((convert_double(convert_ulong(in[(((ulong)in[(1UL) % 256UL])) % 256UL])) + convert_double(cb[6]))) <= (((double)v5))) {
      v5 = ((int)(as_int(((float)gp[(2010143310u) % 8u])) | ((int)~((int)((uint)v3)))));
    }
  }
  v9 = ((short)v2);
  gp[(div_ulong(7862029904915138827UL, 63UL)) % 8UL] = add_uint(neg_uint(lid), ((uint)(gp[(in[(((uint)gid)) % 256u]) % 8u] & lid)));
  v2 = as_int(((((float2)(((float)v3), (4312092.0f)))).s0 / (((float)cb[10]) * (0.21875f))));
  switch ((sub_uint(((uint)~cb[15]), gp[(((ulong)lid)) % 8UL])) % 4u) {
  case 0: {
    v1 = mul_uint(v1, (((as_float(cb[14]) - as_float(((uint)v10[(v1) % 4u]))) != ((v4.s304 * v4.s127)).s1) ? ((uint)(mul_uint(7u, 16u) & mod_uint(in[(gp[(((ulong)in[(((ulong)((uint)v10[(((uint)v3)) % 4u]))) % 256UL])) % 8UL]) % 256u], ((uint)v5)))) : div_uint(((uint)(in[(((ulong)v5)) % 256UL] & 127u)), shl_uint(in[(convert_uint(in_uint_float(v4.s0))) % 256u], ((uint)v10[(cb[0]) % 4u])))));
  }
  case 1: {
    v1 = as_uint((convert_float(v5) - as_float(convert_uint(v5))));
  }
  case 2: {
    if ((((sub_char(((char)gp[(((uint)v5)) % 8u]), convert_char(v5)) <= ((char)gp[(((ulong)in[(((ulong)v2)) % 256UL])) % 8UL])) ? mod_ulong(((ulong)in[(((ulong)cb[11])) % 256UL]), ((ulong)cb[12])) : ((((double)lid) <= ((double)lid)) ? ((ulong)v2) : convert_ulong(in_ulong_float(v4.s5))))) <= (shl_ulong(((ulong)in[(((ulong)in_ulong_float(v4.s3))) % 256UL]), 32UL))) {
      v1 = shl_uint(v1, as_uint(((float)((char)(((char)v9) ^ ((char)1))))));
      if ((div_long(((long)lid), ((long)(((long)in[(4279561849u) % 256u]) ^ 1637138413761210894L)))) != (shl_long(((long)gid), (-4954205474560603733L)))) {
        v2 = shl_int(v2, ((int)cb[13]));
        v9 = convert_short(cb[13]);
        v3 = sub_int(sub_int(((int)in_int_float(v4.s7)), ((int)v1)), shr_int(convert_int((((ulong3)(((ulong)cb[0]), ((ulong)((uint)v10[(convert_ulong(cb[4])) % 4UL])), ((ulong)v2)))).s0), convert_int(in_int_float(v4.s7))));
      } else {
        v3 = 255;
        v3 = 256;
        ushort *p19 = &v10[3];
        v3 = ((int)(as_int(convert_float(v10[(cb[4]) % 4u])) & ((int)cb[9])));
        h = mix(h, (ulong)(uint)*p19);
      }
    }
    v9 = sub_short(convert_short(((((ulong3)(63UL, convert_ulong(cb[13]), 1UL)) & ((ulong3)(gid, ((ulong)((int)v9)), 10611887007633881384UL)))).s1), ((short)(((ulong4)((((ulong4)(((ulong)in_ulong_float(v4.s4)), ((ulong)v1), ((ulong)cb[3]), convert_ulong(v3)))).s1, ((ulong)(((ulong)cb[8]) & gid)), (((ulong4)(((ulong)v1), 64UL, ((ulong)v1), gid))).s1, ((ulong)in[(9807396335448211743UL) % 256UL])))).s1));
  } break;
  default: {
    v1 = mul_uint(((uint)(mul_uint(((uint)v5), 32u) | cb[6])), ((uint)(((ulong3)(convert_ulong(in[(v1) % 256u])))).s2));
  }
  }
  gs_atomic_add_l(&lacc[7], mod_uint(lid, ((uint)(lid ^ v1))));
  v10[(1051253060u) % 4u] = ((ushort)(((ushort)3) & sub_ushort(((ushort)7), ((ushort)lid))));
  v10[(((uint)~((uint)v9))) % 4u] = ((((ushort)(convert_ushort(v2) ^ ((ushort)15706))) <= ((ushort)((long)((int)v9)))) ? convert_ushort(v2) : mul_ushort(((ushort)cb[9]), ((ushort)37373)));
  h = mix(h, (ulong)v1);
  h = mix(h, (ulong)v2);
  h = mix(h, (ulong)v3);
  h = mix(h, fbits(v4.s0));
  h = mix(h, fbits(v4.s1));
  h = mix(h, fbits(v4.s2));
  h = mix(h, fbits(v4.s3));
  h = mix(h, fbits(v4.s4));
  h = mix(h, fbits(v4.s5));
  h = mix(h, fbits(v4.s6));
  h = mix(h, fbits(v4.s7));
  h = mix(h, (ulong)v5);
  h = mix(h, (ulong)(int)v9);
  h = mix(h, (ulong)(uint)v10[0]);
  h = mix(h, (ulong)(uint)v10[1]);
  h = mix(h, (ulong)(uint)v10[2]);
  h = mix(h, (ulong)(uint)v10[3]);
  out[gid] = h;
}
