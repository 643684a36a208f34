// A mix of library families: exp, trig, pow, rsqrt, geometric.
__kernel void mixed(__global float *o, __global const float *x) {
  size_t i = get_global_id(0);
  float v = x[i];
  o[i] = exp(v) + sin(v) * cos(v) + pow(v, 1.5f) + rsqrt(v) + dot((float4)(v), (float4)(1.0f)) +
         normalize((float2)(v, 1.0f)).x;
}
