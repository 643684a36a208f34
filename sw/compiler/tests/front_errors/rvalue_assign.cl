// EXPECT: 3:8: expression is not assignable
kernel void k(global int *p) {
  p[0] + 1 = 2;
}
