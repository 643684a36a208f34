// n-body-like all-pairs interaction: float4 bodies (x, y, z, mass), softened
// distance, hardware rsqrt for the force, sqrt and a division for the
// potential. out[i] = (ax, ay, az, potential). Approximate (rsq is ~1 ULP,
// OpenCL division is 2.5 ULP), so the reference uses a tolerance.
#include "gpusim_cl.h"

__kernel void nbody(__global const float4 *pos, __global float4 *out, uint n, float eps2) {
  uint i = gs_global_id(0);
  if (i >= n)
    return;
  float4 pi = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f, pot = 0.0f;
  for (uint j = 0; j < n; j++) {
    float4 pj = pos[j];
    float dx = pj.x - pi.x;
    float dy = pj.y - pi.y;
    float dz = pj.z - pi.z;
    float r2 = dx * dx + dy * dy + dz * dz + eps2;
    float inv = gs_rsqrt(r2);
    float s = pj.w * inv * inv * inv;
    ax += dx * s;
    ay += dy * s;
    az += dz * s;
    pot += pj.w / gs_sqrt(r2);
  }
  out[i] = (float4)(ax, ay, az, pot);
}
