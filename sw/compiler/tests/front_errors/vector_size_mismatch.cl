// EXPECT: 3:12: cannot convert between vector values of different size ('float2' and 'float4')
kernel void k(global float4 *p, float2 a, float4 b) {
  p[0] = a + b;
}
