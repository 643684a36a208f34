// EXPECT: 3:12: invalid character '@' in source
kernel void k(global int *p) {
  p[0] = 1 @ 2;
}
