// EXPECT: 2:35: 'bool' cannot be used as the type of a kernel parameter
kernel void k(global int *p, bool b) {
  p[0] = b;
}
