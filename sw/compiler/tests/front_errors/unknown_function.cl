// EXPECT: 3:10: implicit declaration of function 'fancy_sqrt' is invalid in OpenCL
kernel void k(global float *p) {
  p[0] = fancy_sqrt(p[1]);
}
