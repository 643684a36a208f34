// EXPECT: 3:12: illegal vector component name 'q'
kernel void k(global float *p, float4 v) {
  p[0] = v.q;
}
