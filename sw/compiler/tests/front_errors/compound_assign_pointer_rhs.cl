// EXPECT: 3:5: invalid operands to binary expression ('uint' and '__private uint *')
kernel void k(global uint *p, uint x) {
  x += &x;
  p[0] = x;
}
