#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define GID (__builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x())
kernel void add(global float *a, global const float *b, global const float *c, float s) {
  uint i = GID; a[i] = b[i] * s + c[i];
}
kernel void bytes(global uchar *a, global const uchar *b, global ushort *c, global const short *d) {
  uint i = GID; a[i] = b[i] + (uchar)(b[i+1] >> 1); c[i] = (ushort)(d[i] * 3 + c[i]);
  a[i+3] = (uchar)(c[i] & 0xf0) | b[i+7];
}
kernel void longs(global long *a, global const long *b, global ulong *c) {
  uint i = GID; a[i] = b[i] * 7 + (b[i] >> 3); c[i] = c[i] / 13 + a[i] % 5;
}
kernel void divs(global int *a, global const int *b, global uint *c) {
  uint i = GID; a[i] = a[i] / b[i]; c[i] = c[i] % (uint)b[i] + (uint)(b[i]<0?-b[i]:b[i]);
}
kernel void fmath(global float *a, global double *d, global half *h) {
  uint i = GID; float x = a[i];
  a[i] = __builtin_sqrtf(x) / (x + 1.0f) + __builtin_fminf(x, 2.0f) + __builtin_floorf(x) * 0.5f + (float)(int)x + (1.0f/__builtin_sqrtf(__builtin_fabsf(x))) + __builtin_exp2f(x) + __builtin_log2f(x);
  d[i] = d[i] * 3.0 + __builtin_fma(d[i], 2.5, 1.0) / (double)a[i];
  h[i] = h[i] * (half)2.0f + h[i+1];
}
kernel void sel(global int *a, global const int *b, int n) {
  uint i = GID; int x = b[i];
  a[i] = x > n ? x : -x; if (x < 0) a[i+1] = (x<n?x:n) ^ (x>3?x:3) ; a[i+2] = __builtin_popcount(x) + __builtin_clz(x) + (x << 5) + (x >> 7) + ((uint)x >> 9) + ((x<<8>>8)*(n<<8>>8)) + (int)(((long)x*n)>>32);
}
kernel void red(global float *a, local float *l) {
  uint t = __builtin_amdgcn_workitem_id_x(); l[t] = a[GID]; __builtin_amdgcn_s_barrier();
  for (uint s = 128; s > 0; s >>= 1) { if (t < s) l[t] += l[t + s]; __builtin_amdgcn_s_barrier(); }
  if (t == 0) a[__builtin_amdgcn_workgroup_id_x()] = l[0];
}
kernel void conv(global float *a, global const uchar4 *b, global int *c, global ushort *u) {
  uint i = GID; uchar4 v = b[i]; a[i] = v.x + v.y * 2.0f + v.z * 3.0f + v.w; c[i] = (int)(a[i+1] * 100.0f) + (int)__builtin_truncf(a[i+2]);
  u[i] = (ushort)(u[i] + u[i+1]) * (ushort)7; 
}
kernel void shorts(global short2 *a, global const short2 *b, global half2 *h) {
  uint i = GID; a[i] = a[i] + b[i] * (short2)(3, 5); h[i] = h[i] * h[i+1] + (half2)(1.0h, 2.0h);
}
kernel void b4(global uchar4 *a, global const uchar4 *b, global const uchar4 *c) {
  uint i = GID; a[i] = b[i] + c[i] * (uchar4)(3, 5, 7, 9) - (b[i] >> (uchar4)(1)) ;
}
kernel void s2(global short2 *a, global const short2 *b, global ushort2 *u) {
  uint i = GID; a[i] = a[i] * b[i] + (b[i] >> (short2)(2)); u[i] = u[i] / (ushort2)(3, 5) + (ushort2)(u[i].x > u[i].y ? u[i].x : u[i].y);
}
kernel void h2(global half2 *a, global const half2 *b, global half *h, global float *f) {
  uint i = GID; a[i] = a[i] * b[i] + b[i+1]; h[i] = h[i] * h[i+1] + (half)f[i]; f[i] = (float)h[i+2] * 3.0f;
}
kernel void pk(global uint *a, global const uint *b) {
  uint i = GID; uint x = b[i];
  uint r = ((x & 0xff) * 3) | (((x >> 8) & 0xff) + 7) << 8 | ((x >> 16) & 0xff) << 24;
  a[i] = r + (ushort)(x >> 16) * (ushort)x + (uchar)(x >> 24) - (char)(x >> 8);
}
kernel void dpp(global int *a, global float *f) {
  uint i = GID;
  int x = a[i];
  x += __builtin_amdgcn_update_dpp(0, x, 0x111, 0xf, 0xf, false);
  x += __builtin_amdgcn_update_dpp(0, x, 0x112, 0xf, 0xe, true);
  x += __builtin_amdgcn_mov_dpp(x, 0x1b, 0xf, 0xf, false);
  x += __builtin_amdgcn_update_dpp(0, x, 0x141, 0xa, 0xf, false);
  float y = f[i];
  y += __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(0, __builtin_bit_cast(int, y), 0x101, 0xf, 0xf, false));
  a[i] = x + __builtin_amdgcn_readfirstlane(x) + __builtin_amdgcn_readlane(x, 5); f[i] = y;
}
kernel void red64(global float *a) {
  uint i = GID; float y = a[i];

  a[i] = y + __builtin_amdgcn_ds_swizzle(y, 0x1f);
}
