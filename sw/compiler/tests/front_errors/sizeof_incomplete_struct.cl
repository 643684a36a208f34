// EXPECT: 3:10: invalid application of 'sizeof' to an incomplete type 'struct nope'
kernel void k(global int *p) {
  p[0] = sizeof(struct nope);
}
