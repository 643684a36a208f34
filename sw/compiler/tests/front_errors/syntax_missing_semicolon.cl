// EXPECT: 4:3: expected ';' after declaration, found 'p'
kernel void k(global int *p) {
  int x = 1
  p[0] = x;
}
