// EXPECT: 3:12: vector condition type 'int2' and result type 'float4' do not have the same number of elements
kernel void k(global float4 *p, int2 m, float4 a) {
  p[0] = m ? a : 0.0f;
}
