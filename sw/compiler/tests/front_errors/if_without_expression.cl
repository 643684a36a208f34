// EXPECT: 2:2: expected value in expression
#if
#endif
kernel void k(global int *p) { p[0] = 1; }
