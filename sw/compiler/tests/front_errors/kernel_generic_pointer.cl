// EXPECT: 2:20: kernel parameter cannot be declared as a pointer to the generic address space (add __global, __constant or __local)
kernel void k(int *p) {
  p[0] = 1;
}
