// EXPECT: 2:1: unterminated conditional directive
#if defined(FOO)
kernel void k(global int *p) { p[0] = 1; }
