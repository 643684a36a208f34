// EXPECT: 2:32: attributes on a struct or union member are not supported; put 'packed' or 'aligned' on the struct or union definition
typedef struct { char c; int i __attribute__((packed)); } T;
kernel void k(global T *p) { p[0].i = 1; }
