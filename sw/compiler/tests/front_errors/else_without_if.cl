// EXPECT: 2:2: #else without #if
#else
kernel void k(global int *p) { p[0] = 1; }
