// EXPECT: 3:19: incompatible integer to pointer conversion initializing '__global int *' with an expression of type 'int'
kernel void k(global int *p, int x) {
  global int *q = x;
  p[0] = q[0];
}
