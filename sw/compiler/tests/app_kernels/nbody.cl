// N-body accelerations (256 bodies, softened), rsqrt per pair.
__kernel void k(__global const float4 *pos, __global float4 *acc) {
  int i = get_global_id(0);
  float4 p = pos[i];
  float3 a = (float3)(0.0f);
  for (int j = 0; j < 256; j++) {
    float4 q = pos[j];
    float3 d = q.xyz - p.xyz;
    float r2 = dot(d, d) + 0.01f;
    float inv = rsqrt(r2);
    a += d * (q.w * inv * inv * inv);
  }
  acc[i] = (float4)(a, 0.0f);
}
