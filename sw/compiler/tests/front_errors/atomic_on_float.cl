// EXPECT: 3:14: 'atomic_add' requires a pointer to an integer
kernel void k(global float *p) {
  atomic_add(p, 1.0f);
}
