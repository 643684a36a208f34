// EXPECT: 3:10: indirection requires pointer operand ('int' invalid)
kernel void k(global int *p, int x) {
  p[0] = *x;
}
