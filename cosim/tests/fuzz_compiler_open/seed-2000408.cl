// reduced from seed 2000408 (inputs: cosim::fuzz::clgen::exec::inputs(2000408)): wave32 -O1: buffer out differs, first at byte 0: [10, 71, 23, 23, 5c, 16, 28, 19] (clang) vs [37, a8, 21, da, f6, 24, 24, 5d] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
int __attribute__((overloadable)) convert_int(uchar x) { return (int)x; }
short __attribute__((overloadable)) convert_short(int x) { return (short)x; }
ulong __attribute__((overloadable)) convert_ulong(uint x) { return (ulong)x; }
short __attribute__((overloadable)) convert_short(ulong x) { return (short)x; }
short __attribute__((overloadable)) convert_short(uint x) { return (short)x; }
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
float __attribute__((overloadable)) convert_float(uint x) { return (float)x; }
int __attribute__((overloadable)) convert_int(uint x) { return (int)x; }
float __attribute__((overloadable)) convert_float(ulong x) { return (float)x; }
float __attribute__((overloadable)) convert_float(short x) { return (float)x; }
double __attribute__((overloadable)) convert_double(int x) { return (double)x; }
double __attribute__((overloadable)) convert_double(float x) { return (double)x; }
double __attribute__((overloadable)) convert_double(uint x) { return (double)x; }
double __attribute__((overloadable)) convert_double(ulong x) { return (double)x; }
char __attribute__((overloadable)) convert_char(short x) { return (char)x; }
uint __attribute__((overloadable)) convert_uint(double x) { return (uint)x; }
int __attribute__((overloadable)) convert_int(short x) { return (int)x; }
long __attribute__((overloadable)) convert_long(double x) { return (long)x; }
uint __attribute__((overloadable)) convert_uint(int x) { return (uint)x; }
float __attribute__((overloadable)) convert_float(double x) { return (float)x; }
ushort __attribute__((overloadable)) convert_ushort(int x) { return (ushort)x; }
int8 __attribute__((overloadable)) convert_int8(int8 x) { return __builtin_convertvector(x, int8); }
#endif
static uchar mul_uchar(uchar a, uchar b) { return (uchar)(a * b); }
static uchar div_uchar(uchar a, uchar b) { return b == 0 ? a : (uchar)(a / b); }
static short mul_short(short a, short b) { return (short)(a * b); }
static short div_short(short a, short b) { return b == 0 ? a : (short)(a / b); }
static short mod_short(short a, short b) { return b == 0 ? a : (short)(a % b); }
static short shr_short(short a, short b) { return (short)(a >> (b & 7)); }
static short neg_short(short a) { return (short)(-a); }
static double in_short_double(double x) { return (x > -32769.0 && x < 32768.0) ? x : 0.0; }
static ushort add_ushort(ushort a, ushort b) { return (ushort)(a + b); }
static ushort div_ushort(ushort a, ushort b) { return b == 0 ? a : (ushort)(a / b); }
static ushort mod_ushort(ushort a, ushort b) { return b == 0 ? a : (ushort)(a % b); }
static ushort shr_ushort(ushort a, ushort b) { return (ushort)(a >> (b & 7)); }
static int add_int(int a, int b) { return ((b > 0 && a > INT_MAX - b) || (b < 0 && a < INT_MIN - b)) ? a : a + b; }
static int sub_int(int a, int b) { return ((b < 0 && a > INT_MAX + b) || (b > 0 && a < INT_MIN + b)) ? a : a - b; }
static int mul_int(int a, int b) { long r = (long)a * (long)b; return (r > INT_MAX || r < INT_MIN) ? a : (int)r; }
static int mod_int(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }
static int shl_int(int a, int b) { return (int)((uint)a << b); }
static int shr_int(int a, int b) { return a >> b; }
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
static long neg_long(long a) { return a == LONG_MIN ? a : -a; }
static double in_long_double(double x) { return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? x : 0.0; }
static ulong add_ulong(ulong a, ulong b) { return (ulong)(a + b); }
static ulong sub_ulong(ulong a, ulong b) { return (ulong)(a - b); }
static ulong mul_ulong(ulong a, ulong b) { return (ulong)(a * b); }
static ulong shl_ulong(ulong a, ulong b) { return (ulong)((ulong)a << b); }
static ulong shr_ulong(ulong a, ulong b) { return a >> b; }
static double in_ulong_double(double x) { return (x > -1.0 && x < 18446744073709551616.0) ? x : 0.0; }
static ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
static ulong dbits(double x) { return x != x ? 0x7ff8000000000000UL : as_ulong(x); }
__kernel void clgen(__global ulong *out, __global const uint *in, __constant uint *cb, __global uint *gbuf, __global uint *acc) {
  size_t gid = gs_global_id(0);
  uint lid = gs_local_id(0);
  __local uint lm[64];
  __local uint lacc[8];
  ulong h = 0x9e3779b97f4a7c15UL;
  __global uint *gp = gbuf + gid * 8;
  gs_barrier();
  uint v1 = neg_uint(lid);
  double v2 = ((double)cb[7]);
  int v3 = ((int)(convert_int(((uchar)1)) & ((int)in[(cb[4]) % 256u])));
  ulong v4[6];
  short v5[6];
  v5[0] = ((((short)v4[(32u) % 6u]) != ((short)lid)) ? convert_short(v3) : ((short)in[(in[(convert_ulong(in[(5486881562902813489UL) % 256UL])) % 256UL]) % 256u]));
  v5[1] = ((convert_ulong(v1) == convert_ulong(in_ulong_double(v2))) ? convert_short(gid) : ((short)cb[5]));
  v5[2] = ((short)gid);
  v5[3] = ((((long)gid) >= ((long)cb[14])) ? ((short)v3) : ((short)in_short_double(v2)));
  v5[4] = ((short)((char)gp[(3UL) % 8UL]));
  v5[5] = convert_short(in[(in[(2315070615u) % 256u]) % 256u]);
  gs_atomic_umax_g(&acc[4], add_uint(shl_uint(((uint)gid), in[(721683787u) % 256u]), ((uint)(((ulong2)(((ulong)in[(((ulong)gp[(lid) % 8u])) % 256UL]), convert_ulong(gp[(cb[11]) % 8u])))).s1)));
  lm[lid] = add_uint(add_uint(417378673u, cb[14]), ((uint)(convert_uint(v4[(convert_ulong(gp[(((uint)gid)) % 8u])) % 6UL]) ^ 16u)));
  gs_barrier();
  v1 = (uint)(lm[(lid + 57u) % 64u] + lacc[5]);
  gs_barrier();
  gp[(convert_ulong(in_ulong_double(v2))) % 8UL] = ((uint)gid);
  gs_atomic_xor_g(&acc[2], neg_uint(((uint)(((uint)v3) | convert_uint(v5[(gp[(in[(v1) % 256u]) % 8u]) % 6u])))));
  if ((((ushort)((((ulong2)(15222437496292827318UL, ((ulong)gp[(2039271853319966530UL) % 8UL]))) * ((ulong2)(((ulong)lid), convert_ulong(in_ulong_double(v2)))))).s1)) < (((ushort)v3))) {
    v3 = ((int)((short)lid));
    ulong *p6 = &v4[0];
    v1 = neg_uint((((uint3)(shr_uint(cb[3], 32u), ((uint)((ushort)48781)), as_uint((255.0f))))).s2);
    ulong *p7 = &v4[1];
    h = mix(h, (ulong)*p6);
    h = mix(h, (ulong)*p7);
  } else {
    for (uint i8 = 0; i8 < (uint)((((uint)(in[(lid) % 256u] ^ ((uint)in_uint_double(v2))))) % 5u); i8 += 1) {
      for (ulong i9 = 0; i9 < 4; i9 += 1) {
        v3 = add_int(((int)(shl_int(((int)in_int_double(v2)), 3) ^ as_int(convert_float(v1)))), ((((int4)(((int)gid), 289164467, ((int)v1), convert_int(i8))) | ((int4)(((int)gid), 1623780306, ((int)v4[(((uint)i9)) % 6u]), v3)))).s2);
        if ((((double)(((float8)((-(37274230.0f)), (convert_float(gid) / ((float)in[(gid) % 256UL])), (((float)i9) * ((float)gp[(v1) % 8u])), (((float)in[(convert_ulong(cb[14])) % 256UL]) * convert_float(gid)), (convert_float(v5[(((uint)gid)) % 6u]) / convert_float(cb[8])), (((float)gid) + (0.00390625f)), (((float)v3) * (0.0078125f)), ((float)i8)))).s7)) <= (as_double(((ulong)i8)))) break;
      }
      v2 += (as_double(as_ulong(convert_double(((int)v5[(2291808873u) % 6u])))) - ((double)gid));
      if ((div_uint((((uint3)(lid, in[(8u) % 256u], 1100757094u))).s0, as_uint((-4735599.0f)))) != (convert_uint(((short)v3)))) {
        v2 = (-convert_double(((float)in[(((uint)v5[(2UL) % 6UL])) % 256u])));
        v1 = shl_uint(v1, mod_uint(((uint)v5[(lid) % 6u]), (((convert_double(gp[(((ulong)gp[(((ulong)((int)v5[(127UL) % 6UL]))) % 8UL])) % 8UL]) - ((double)v1)) < convert_double(v4[(63u) % 6u])) ? add_uint(((uint)gid), 7u) : ((uint)in_uint_double(((double)v1))))));
        uint16 v10 = ((uint16)(div_uint(v1, ((uint)gid)), as_uint((0.0009765625f)), 8u, mod_uint(v1, cb[14]), ((uint)(((uint)v4[(802326754u) % 6u]) & in[(((ulong)v1)) % 256UL])), mod_uint(1250579810u, cb[12]), ((uint)in_uint_float((((float8)(((float)gp[(((uint)v3)) % 8u])))).s7)), add_uint(((uint)v5[(v1) % 6u]), ((uint)v4[(i8) % 6u])), sub_uint(31u, lid), add_uint(in[(convert_ulong(in_ulong_double(v2))) % 256UL], ((uint)gid)), lid, ((uint)(255u ^ ((uint)v5[(((ulong)((int)v5[(((uint)in_uint_double(v2))) % 6u]))) % 6UL]))), shr_uint(((uint)in_uint_double(v2)), gp[(v4[(convert_ulong(cb[4])) % 6UL]) % 8UL]), ((uint)(31u ^ 3u)), as_uint(((float)gp[(0u) % 8u])), cb[1]));
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
    }
    v3 = ((((long)((uint)mul_uchar(((uchar)127), ((uchar)in[(cb[13]) % 256u])))) < add_long(convert_long(in[(256u) % 256u]), 32L)) ? ((int)(sub_int(1, ((int)gid)) ^ 256)) : ((int)v4[(3167095735u) % 6u]));
    switch ((((uint)(shr_uint(in[(convert_uint(v5[(15876271586442707616UL) % 6UL])) % 256u], ((uint)v3)) ^ ((convert_double(((int)v5[(lid) % 6u])) != ((double)in[(((ulong)in[(8UL) % 256UL])) % 256UL])) ? lid : ((uint)gid))))) % 4u) {
    case 0: {
      v4[(((uint)v3)) % 6u] = ((ulong)in_ulong_double(v2));
    } break;
    case 1: {
      v1 = mul_uint(v1, ((uint)(((uint)gid) & cb[12])));
      v2 = as_double(gid);
    }
    case 2: {
      v2 = (((double)(((float8)(((0.015625f) * convert_float(in[(((ulong)lid)) % 256UL])), (((float)lid) * ((float)gid)), (-((float)v5[(in[(((ulong)gp[(((ulong)((int)v5[(((ulong)cb[4])) % 6UL]))) % 8UL])) % 256UL]) % 6u])), (-(-359138.78f)), (((float)gid) * ((float)v1)), ((float)cb[7]), (((float2)(convert_float(v5[(gp[(convert_ulong(in[(((ulong)cb[13])) % 256UL])) % 8UL]) % 6u]), (0.484375f)))).s1, ((float)lid)))).s6) - ((double)v3));
      if ((((uchar)(((uchar)gid) & div_uchar(((uchar)v1), ((uchar)lid))))) < (((uchar)15))) {
        uchar v11 = ((uchar)cb[8]);
        v5[(gp[(((ulong)lid)) % 8UL]) % 6u] = ((short)2);
        ulong *p12 = &v4[2];
        h = mix(h, (ulong)(uint)v11);
        h = mix(h, (ulong)*p12);
      } else {
        v3 = mod_int(((int)(((ulong3)(add_ulong(((ulong)lid), ((ulong)cb[2])), ((ulong)~((ulong)gp[(gid) % 8UL])), ((convert_char(lid) >= convert_char(v5[(((uint)v3)) % 6u])) ? ((ulong)lid) : ((ulong)v3))))).s2), as_int(((0.9921875f) + ((float)gp[(v4[(lid) % 6u]) % 8UL]))));
        v2 *= (((double)(((float2)((((float)v3) * convert_float(cb[1])), ((float)convert_uint(in_uint_double(v2)))))).s1) * as_double(add_ulong(((ulong)in[(gp[(((uint)v3)) % 8u]) % 256u]), convert_ulong(cb[4]))));
        v1 = ((((((long)(((long)in_long_double(v2)) ^ convert_long(cb[7]))) > as_long(((double)lid))) ? mod_int(1, ((int)lid)) : shr_int(1, ((int)gid))) >= convert_int(shr_short(convert_short(v4[(cb[5]) % 6u]), ((short)gp[(convert_ulong(gp[(gp[(((ulong)((int)v5[(convert_ulong(cb[10])) % 6UL]))) % 8UL]) % 8u])) % 8UL])))) ? lid : as_uint((-((float)v4[(16UL) % 6UL]))));
      }
    } break;
    default: {
      long v13 = ((long)(convert_long(in_long_double(v2)) ^ neg_long(((long)v4[(convert_ulong(cb[4])) % 6UL]))));
      h = mix(h, (ulong)v13);
    }
    }
  }
  gs_atomic_add_l(&lacc[4], as_uint(((float)in[(v1) % 256u])));
  gs_atomic_add_l(&lacc[4], cb[10]);
  if (((((((float)v1) / (0.125f)) <= ((7.5f) - ((float)in[(((ulong)((int)v5[(((ulong)cb[0])) % 6UL]))) % 256UL]))) ? add_ushort(((ushort)11220), ((ushort)in[(((uint)v4[(((uint)v3)) % 6u])) % 256u])) : shr_ushort(((ushort)v3), ((ushort)cb[14])))) == (convert_ushort(cb[6]))) {
    if (lid % 4u == 1u) {
      v2 = as_double(((ulong)in_ulong_double(v2)));
    }
    v2 = ((double)((((float2)(((float)lid))) - ((float2)((((float)in[(convert_ulong(in[(lid) % 256u])) % 256UL]) + ((float)v4[(convert_uint(v4[(12947791111720354502UL) % 6UL])) % 6u])), (((float)in[(cb[6]) % 256u]) * (96164280.0f)))))).s1);
    short v14 = ((short)(((((ushort)gid) < mod_ushort(((ushort)8), ((ushort)cb[0]))) ? ((short)v4[(((ulong)in[(14008622161749606210UL) % 256UL])) % 6UL]) : mod_short(convert_short(gp[(32u) % 8u]), ((short)63))) & ((short)v4[(2u) % 6u])));
    h = mix(h, (ulong)(int)v14);
  }
  v1 = shl_uint(v1, mod_uint(((uint)v5[(((uint)v4[(((uint)v5[(5460660304768480270UL) % 6UL])) % 6u])) % 6u]), mod_uint(div_uint(1970268934u, convert_uint(gid)), sub_uint(1505263262u, ((uint)gid)))));
  v1 = mul_uint(v1, mul_uint(neg_uint(((uint)v4[(convert_uint(v3)) % 6u])), cb[12]));
  v3 = shl_int(v3, ((int)v5[(((uint)gid)) % 6u]));
  lm[lid] = ((convert_float(v2) < ((0.00390625f) + ((float)cb[11]))) ? ((uint)(in[(15u) % 256u] ^ ((uint)in_uint_double(v2)))) : as_uint((31680408.0f)));
  gs_barrier();
  v1 = (uint)(lm[(lid + 54u) % 64u] + lacc[1]);
  gs_barrier();
  if (lid % 6u == 1u) {
    v2 = as_double(convert_ulong(((uint)convert_ushort((((int4)(v3))).s3))));
    for (int i15 = 0; i15 < (int)((add_uint(cb[8], ((uint)v3))) % 5u); i15++) {
      v2 = as_double(((ulong)cb[0]));
      v5[(((uint)~gp[(31u) % 8u])) % 6u] = ((short)cb[1]);
    }
  }
  if (lid % 3u == 0u) {
    if (lid % 2u == 1u) {
      v5[(((((uint)v5[(v4[(255u) % 6u]) % 6UL]) <= ((uint)gid)) ? 127u : gp[(((uint)in_uint_double(v2))) % 8u])) % 6u] = shr_short(((short)(((short)lid) & ((short)in_short_double(v2)))), mul_short(convert_short(cb[7]), ((short)3)));
      v5[(cb[11]) % 6u] = div_short(((short)v1), neg_short(((short)gp[(1474477487u) % 8u])));
    }
    if ((11260600702065914341UL) >= (((ulong)~((ulong)lid)))) {
      v2 *= (((v2 * ((double)in[(3394906964u) % 256u])) * ((6.103515625e-5) - convert_double(gp[(((ulong)v1)) % 8UL]))) * (-((double)gp[(7u) % 8u])));
      if (lid % 2u == 1u) {
        v3 = mul_int(v3, as_int(((float)gp[(3245408463u) % 8u])));
        v4[(((uint)(32u ^ in[(((ulong)v1)) % 256UL]))) % 6u] = v4[(((ulong)cb[2])) % 6UL];
        v4[(((uint)(0u & ((uint)v4[(((ulong)lid)) % 6UL])))) % 6u] = shl_ulong(shl_ulong(63UL, ((ulong)gp[(gp[(v4[(32u) % 6u]) % 8UL]) % 8u])), as_ulong(((double)gid)));
        ulong *p16 = &v4[1];
        h = mix(h, (ulong)*p16);
      }
    }
    switch ((gp[(cb[1]) % 8u]) % 4u) {
    case 0: {
      v2 = ((div_uint(lid, sub_uint(256u, ((uint)gid))) <= ((uint)(convert_int8(((int8)(((int)v4[(cb[13]) % 6u]), ((int)in_int_double(v2)), ((int)gid), 410012446, ((int)cb[11]), convert_int(v1), ((int)cb[8]), ((int)v5[(convert_uint(v5[(cb[4]) % 6u])) % 6u]))))).s7)) ? ((((double)in[(convert_ulong(cb[2])) % 256UL]) + ((double)in[(((ulong)gp[(791387165u) % 8u])) % 256UL])) / ((double)in[(3585345913u) % 256u])) : (((double)0) + v2));
    } break;
    case 1: {
      for (int i17 = 0; i17 < (int)((sub_uint(32u, lid)) % 5u); i17++) {
        gs_atomic_and_g(&acc[3], ((uint)i17));
      }
      for (long i18 = 0; i18 < (long)((shl_uint(0u, 3013228232u)) % 5u); i18 += 1) {
        gp[(mul_ulong(v4[(2058081923u) % 6u], convert_ulong(in[(convert_uint(v4[(((uint)v5[(cb[15]) % 6u])) % 6u])) % 256u]))) % 8UL] = ((uint)div_ushort(((ushort)lid), convert_ushort(v3)));
        v5[(as_uint(((float)lid))) % 6u] = ((short)in[(((uint)v3)) % 256u]);
        if (lid % 6u == 0u) break;
      }
    } break;
    case 2: {
      v5[(((uint)(((ulong2)(((ulong)cb[4])))).s0)) % 6u] = ((short)gp[(0u) % 8u]);
    } break;
    default: {
      gs_atomic_add_l(&lacc[0], cb[1]);
    }
    }
  } else {
    v4[(sub_uint(((uint)v4[(((uint)gid)) % 6u]), 64u)) % 6u] = 15UL;
    v3 = ((int)in[(gp[(lid) % 8u]) % 256u]);
    ulong *p19 = &v4[0];
    v4[(v1) % 6u] = ((ulong)((int)v5[(((ulong)cb[2])) % 6UL]));
    h = mix(h, (ulong)*p19);
  }
  h = mix(h, (ulong)v1);
  h = mix(h, dbits(v2));
  h = mix(h, (ulong)v3);
  h = mix(h, (ulong)v4[0]);
  h = mix(h, (ulong)v4[1]);
  h = mix(h, (ulong)v4[2]);
  h = mix(h, (ulong)v4[3]);
  h = mix(h, (ulong)v4[4]);
  h = mix(h, (ulong)v4[5]);
  h = mix(h, (ulong)(int)v5[0]);
  h = mix(h, (ulong)(int)v5[1]);
  h = mix(h, (ulong)(int)v5[2]);
  h = mix(h, (ulong)(int)v5[3]);
  h = mix(h, (ulong)(int)v5[4]);
  h = mix(h, (ulong)(int)v5[5]);
  out[gid] = h;
}
