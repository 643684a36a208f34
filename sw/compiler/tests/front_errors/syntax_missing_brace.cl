// EXPECT: 5:1: expected '}' at end of input
kernel void k(global int *p) {
  if (p[0]) {
    p[1] = 2;
}
