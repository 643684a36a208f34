// EXPECT: 2:10: 'missing_header.h' file not found
#include "missing_header.h"
kernel void k(global int *p) { p[0] = 1; }
