// EXPECT: 3:10: non-void function should return a value
int f(int x) {
  if (x) return;
  return 1;
}
kernel void k(global int *p) { p[0] = f(p[1]); }
