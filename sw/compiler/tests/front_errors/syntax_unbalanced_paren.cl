// EXPECT: 3:16: expected ')' to match '(', found ';'
kernel void k(global int *p) {
  p[0] = (1 + 2;
}
