// EXPECT: 3:13: initializing 'float' with an expression of incompatible type 'float4'
kernel void k(global float *p, float4 v) {
  float x = v;
  p[0] = x;
}
