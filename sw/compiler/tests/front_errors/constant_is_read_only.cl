// EXPECT: 3:4: read-only variable is not assignable
kernel void k(constant int *c, global int *p) {
  c[0] = 1;
  p[0] = c[1];
}
