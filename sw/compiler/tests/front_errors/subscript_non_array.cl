// EXPECT: 4:11: subscripted value is not an array or pointer ('int')
kernel void k(global int *p) {
  int x = 1;
  p[0] = x[2];
}
