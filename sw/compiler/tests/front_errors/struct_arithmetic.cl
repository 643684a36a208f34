// EXPECT: 5:12: invalid operands to binary expression ('struct s' and 'int')
struct s { int a; };
kernel void k(global int *p) {
  struct s x = {1};
  p[0] = x + 1;
}
