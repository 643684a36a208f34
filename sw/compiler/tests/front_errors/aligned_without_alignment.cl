// EXPECT: 3:24: attribute 'aligned' without an alignment is not supported; write aligned(N)
kernel void k(global int *p) {
  int x __attribute__((aligned));
  x = 1; p[0] = x;
}
