// EXPECT: 4:10: too few arguments provided to function-like macro invocation 'F'
#define F(a, b) ((a) + (b))
kernel void k(global int *p) {
  p[0] = F(1);
}
