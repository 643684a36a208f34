// EXPECT: 3:12: vector component access exceeds type 'float2'
kernel void k(global float *p, float2 v) {
  p[0] = v.z;
}
