// EXPECT: 4:10: too few arguments to function call 'twice', expected 2, have 1
int twice(int a, int b) { return a * b; }
kernel void k(global int *p) {
  p[0] = twice(p[1]);
}
