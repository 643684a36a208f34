// EXPECT: 5:10: passing '__local int *' to '__global int *' changes address space of pointer
void helper(global int *q) { q[0] = 1; }
kernel void k(global int *p) {
  local int tile[64];
  helper(tile);
  p[0] = tile[0];
}
