// EXPECT: 3:10: use of unknown builtin '__builtin_amdgcn_frobnicate'
kernel void k(global uint *p) {
  p[0] = __builtin_amdgcn_frobnicate(p[1]);
}
