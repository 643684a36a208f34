// EXPECT: 3:1: labels are not supported
kernel void k(global int *p) {
again:
  p[0]++;
}
