// EXPECT: 3:10: no matching overload of 'sqrt' for argument types (int4)
kernel void k(global float *p, int4 v) {
  p[0] = sqrt(v);
}
