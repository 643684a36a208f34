// EXPECT: 3:2: #error WIDTH must be defined with -D
#ifndef WIDTH
#error WIDTH must be defined with -D
#endif
kernel void k(global int *p) { p[0] = 1; }
