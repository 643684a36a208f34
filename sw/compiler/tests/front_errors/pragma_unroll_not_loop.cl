// EXPECT: 3:9: expected a for, while, or do-while loop to follow '#pragma unroll'
kernel void k(global int *p) {
#pragma unroll 4
  p[0] = 1;
}
