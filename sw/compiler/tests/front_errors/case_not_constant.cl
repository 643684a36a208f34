// EXPECT: 4:8: expression is not an integer constant expression
kernel void k(global int *p, int v) {
  switch (p[0]) {
  case v:
    p[1] = 1;
  }
}
