// EXPECT: 3:10: missing terminating " character in string literal
kernel void k(global int *p) {
  p[0] = "abc;
}
