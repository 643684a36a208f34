// EXPECT: 3:15: invalid operands to binary expression ('float' and 'float')
kernel void k(global float *p) {
  p[0] = p[1] % 2.0f;
}
