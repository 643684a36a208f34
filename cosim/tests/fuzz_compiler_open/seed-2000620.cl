// reduced from seed 2000620 (inputs: cosim::fuzz::clgen::exec::inputs(2000620)): wave32 -O1: buffer out differs, first at byte 96: [77, cc, 7e, 7d, 01, 5c, c0, b8] (clang) vs [48, 20, d8, 06, 07, 56, bb, a8] (gpusim)
#include "gpusim_cl.h"
#ifdef CLGEN_CLANG
uint2 __attribute__((overloadable)) convert_uint2(ulong2 x) { return __builtin_convertvector(x, uint2); }
uint __attribute__((overloadable)) convert_uint(short x) { return (uint)x; }
uint __attribute__((overloadable)) convert_uint(ulong x) { return (uint)x; }
uint __attribute__((overloadable)) convert_uint(char x) { return (uint)x; }
ushort __attribute__((overloadable)) convert_ushort(uint x) { return (ushort)x; }
ulong __attribute__((overloadable)) convert_ulong(int x) { return (ulong)x; }
char __attribute__((overloadable)) convert_char(short x) { return (char)x; }
int __attribute__((overloadable)) convert_int(uint x) { return (int)x; }
short __attribute__((overloadable)) convert_short(char x) { return (short)x; }
#endif
static char mul_char(char a, char b) { return (char)(a * b); }
static char shr_char(char a, char b) { return (char)(a >> (b & 7)); }
static char neg_char(char a) { return (char)(-a); }
static ushort sub_ushort(ushort a, ushort b) { return (ushort)(a - b); }
static ushort div_ushort(ushort a, ushort b) { return b == 0 ? a : (ushort)(a / b); }
static ushort shl_ushort(ushort a, ushort b) { return (ushort)((uint)a << (b & 7)); }
static int neg_int(int a) { return a == INT_MIN ? a : -a; }
static uint add_uint(uint a, uint b) { return (uint)(a + b); }
static uint sub_uint(uint a, uint b) { return (uint)(a - b); }
static uint div_uint(uint a, uint b) { return b == 0 ? a : (uint)(a / b); }
static uint mod_uint(uint a, uint b) { return b == 0 ? a : (uint)(a % b); }
static uint shl_uint(uint a, uint b) { return (uint)((uint)a << b); }
static float in_uint_float(float x) { return (x > -1.0f && x < 4294967296.0f) ? x : 0.0f; }
static long sub_long(long a, long b) { return ((b < 0 && a > LONG_MAX + b) || (b > 0 && a < LONG_MIN + b)) ? a : a - b; }
static long mod_long(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }
static ulong mul_ulong(ulong a, ulong b) { return (ulong)(a * b); }
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
  uint2 v1 = (convert_uint2(((ulong2)(convert_ulong(cb[12]), 16UL))) * ((uint2)(((uint)gid), gp[(convert_ulong(gp[(in[(8u) % 256u]) % 8u])) % 8UL])));
  char v2 = mul_char(neg_char(((char)((uchar)gid))), ((char)(((char)lid) & shr_char(((char)cb[9]), ((char)v1.x)))));
  char v3[4];
  float v4 = (((float)gp[(15UL) % 8UL]) * (((((uchar)gid) < ((uchar)64)) ? (837563600.0f) : ((float)gp[(((ulong)cb[13])) % 8UL])) * as_float(v1.s0)));
  short v5[5];
  v5[4] = ((short)lid);
  gs_barrier();
  gs_barrier();
  for (long i10 = 0; i10 < (long)((((uint)(256u | lid))) % 5u); i10 += 1) {
    if ((div_ushort(shl_ushort(convert_ushort(in[(0UL) % 256UL]), ((ushort)v2)), sub_ushort(((ushort)gp[(8567690494898919342UL) % 8UL]), ((ushort)gid)))) > (((ushort)v3[(gid) % 4UL]))) {
      v2 = v2;
      gs_atomic_add_l(&lacc[3], ((uint)(convert_uint((((ulong2)(((ulong)((int)v2)), gid))).s1) & ((uint)((uchar)cb[5])))));
      v4 -= (((16.0f) - (((float8)((-36625.5f), ((float)v1.s0), convert_float(v1.x), ((float)in[(convert_ulong(((int)v5[(((ulong)cb[2])) % 5UL]))) % 256UL]), ((float)cb[4]), ((float)cb[14]), ((float)in[(8UL) % 256UL]), ((float)in[(v1.s0) % 256u])))).s0) * (265509380.0f));
      char *p11 = &v3[2];
      h = mix(h, (ulong)(int)*p11);
    }
  }
  for (int i14 = 0; i14 < (int)(((((uint3)(8u))).s1) % 5u); i14++) {
    uint8 v15 = v1.yxyyyxxy;
    h = mix(h, (ulong)v15.s0);
    h = mix(h, (ulong)v15.s1);
    h = mix(h, (ulong)v15.s2);
    h = mix(h, (ulong)v15.s3);
    h = mix(h, (ulong)v15.s4);
    h = mix(h, (ulong)v15.s5);
    h = mix(h, (ulong)v15.s6);
    h = mix(h, (ulong)v15.s7);
  }
  gs_atomic_add_l(&lacc[7], sub_uint(((uint)convert_int(gp[(((uint)v2)) % 8u])), ((uint)(convert_uint(v2) | cb[5]))));
  v1.xy = ((uint2)(3u));
  if ((((((short)(convert_short(v3[(((ulong)((int)v5[(convert_ulong(gp[(lid) % 8u])) % 5UL]))) % 4UL]) ^ ((short)lid))) != ((short)(((short)26687) ^ ((short)256)))) ? sub_long(5056425857001749935L, 5270215805770601564L) : ((((ushort)cb[12]) < ((ushort)45283)) ? 8490244919880084853L : ((long)lid)))) != (mod_long(16L, ((long)((int)v3[(in[(v1.s0) % 256u]) % 4u]))))) {
    for (ulong i16 = 0; i16 < 3; i16 += 1) {
      __global uint *v17 = gp + (mul_ulong(11017122026126757588UL, ((ulong)((int)v2)))) % 3UL;
      h = mix(h, (ulong)v17[0]);
      h = mix(h, (ulong)v17[1]);
      h = mix(h, (ulong)v17[2]);
      h = mix(h, (ulong)v17[3]);
      h = mix(h, (ulong)v17[4]);
      h = mix(h, (ulong)v17[5]);
      if (lid % 2u == 0u) break;
    }
  } else {
    gs_atomic_or_g(&acc[1], ((as_uint(((float)cb[13])) > in[(in[(((ulong)cb[13])) % 256UL]) % 256u]) ? div_uint(((uint)in_uint_float(v4)), 31u) : ((uint)~in[(((ulong)in[(gp[(in[(convert_uint(v5[(convert_ulong(cb[11])) % 5UL])) % 256u]) % 8u]) % 256u])) % 256UL])));
    v1.even = 2030416710u;
    v1.xy = v1;
  }
  gp[(shl_ulong(((ulong)cb[14]), gid)) % 8UL] = cb[9];
  gs_atomic_add_l(&lacc[2], v1.y);
  lm[lid] = shl_uint(mod_uint(v1.x, gp[(2UL) % 8UL]), as_uint(((float)in[(2u) % 256u])));
  gs_barrier();
  v2 = (char)(lm[(lid + 11u) % 64u] + lacc[7]);
  gs_barrier();
  v1.even = sub_uint(((uint)(gp[(1232298329u) % 8u] & gp[(63UL) % 8UL])), sub_uint(31u, in[(cb[6]) % 256u]));
  h = mix(h, (ulong)v1.s0);
  h = mix(h, (ulong)v1.s1);
  h = mix(h, (ulong)(int)v2);
  h = mix(h, (ulong)(int)v3[0]);
  h = mix(h, (ulong)(int)v3[1]);
  h = mix(h, (ulong)(int)v3[2]);
  h = mix(h, (ulong)(int)v3[3]);
  h = mix(h, fbits(v4));
  h = mix(h, (ulong)(int)v5[0]);
  h = mix(h, (ulong)(int)v5[1]);
  h = mix(h, (ulong)(int)v5[2]);
  h = mix(h, (ulong)(int)v5[3]);
  h = mix(h, (ulong)(int)v5[4]);
  out[gid] = h;
}
