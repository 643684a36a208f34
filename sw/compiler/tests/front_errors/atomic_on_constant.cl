// EXPECT: 3:21: address argument to atomic operation must be a pointer to non-const type ('__constant uint *' invalid)
kernel void k(constant uint *c, global uint *p) {
  p[0] = atomic_inc(c);
}
