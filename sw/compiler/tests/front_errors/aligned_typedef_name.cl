// EXPECT: 2:29: attribute 'aligned' on a typedef name is not supported; put it after the struct's closing brace
typedef struct { int a; } T __attribute__((aligned(8)));
kernel void k(global T *p) { p[0].a = 1; }
