// All-pairs gravitational acceleration with rsqrt, softened.
__kernel void nbody(__global float4 *acc, __global const float4 *pos, int n, float eps2) {
  int i = get_global_id(0);
  float4 p = pos[i];
  float3 a = (float3)(0.0f);
  for (int j = 0; j < n; j++) {
    float4 q = pos[j];
    float3 d = q.xyz - p.xyz;
    float r2 = dot(d, d) + eps2;
    float inv = rsqrt(r2);
    a += d * (q.w * inv * inv * inv);
  }
  acc[i] = (float4)(a, 0.0f);
}
