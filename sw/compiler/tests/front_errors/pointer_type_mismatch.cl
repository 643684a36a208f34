// EXPECT: 3:19: initializing '__global int *' with an expression of incompatible type '__global float *'
kernel void k(global int *p, global float *f) {
  global int *q = f;
  p[0] = q[0];
}
