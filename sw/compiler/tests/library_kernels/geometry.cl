// Normals of triangles: cross products, normalised; the angle to a light.
__kernel void geometry(__global float4 *normal, __global float *angle, __global const float4 *a,
                       __global const float4 *b, __global const float4 *c, float4 light) {
  int i = get_global_id(0);
  float3 n = normalize(cross(b[i].xyz - a[i].xyz, c[i].xyz - a[i].xyz));
  normal[i] = (float4)(n, 0.0f);
  angle[i] = acos(clamp(dot(n, normalize(light.xyz)), -1.0f, 1.0f));
}
