// EXPECT: 3:14: implicit conversion between vector types ('int4' and 'float4') is not allowed; use convert_float4()
kernel void k(global float4 *p, int4 v) {
  float4 f = v;
  p[0] = f;
}
