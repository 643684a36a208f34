// EXPECT: 4:10: too many arguments to function call 'twice', expected 1, have 2
int twice(int x) { return 2 * x; }
kernel void k(global int *p) {
  p[0] = twice(p[1], p[2]);
}
