// EXPECT: 3:11: variable length arrays are not supported in OpenCL
kernel void k(global int *p, int n) {
  int tmp[n];
  tmp[0] = 1;
  p[0] = tmp[0];
}
