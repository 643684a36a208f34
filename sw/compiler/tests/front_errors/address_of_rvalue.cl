// EXPECT: 3:12: cannot take the address of an rvalue
kernel void k(global int *p) {
  int *q = &(p[0] + 1);
}
