// EXPECT: 3:10: vector condition type 'float4' must be an integer or bool vector
kernel void k(global float4 *p, float4 m, float4 a) {
  p[0] = m ? a : 0.0f;
}
