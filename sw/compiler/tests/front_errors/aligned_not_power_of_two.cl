// EXPECT: 2:50: requested alignment is not a power of 2
typedef struct { int a; } __attribute__((aligned(12))) T;
kernel void k(global T *p) { p[0].a = 1; }
