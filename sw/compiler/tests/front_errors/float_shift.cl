// EXPECT: 3:15: invalid operands to binary expression ('float' and 'int')
kernel void k(global float *p) {
  p[0] = p[1] << 2;
}
