// EXPECT: 3:19: casting '__local int *' to type '__global int *' changes address space of pointer
kernel void k(global int *p, local int *l) {
  global int *g = (global int *)l;
  p[0] = g[0];
}
