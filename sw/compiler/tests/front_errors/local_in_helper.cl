// EXPECT: 3:13: non-kernel function variable cannot be declared in local address space
void helper(global int *p) {
  local int tmp[4];
  tmp[0] = p[0];
  p[1] = tmp[0];
}
kernel void k(global int *p) { helper(p); }
