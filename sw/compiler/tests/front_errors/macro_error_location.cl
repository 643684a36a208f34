// EXPECT: 4:10: use of undeclared identifier 'undefined_offset'
#define LOAD(ptr, i) ((ptr)[i] + undefined_offset)
kernel void k(global int *p) {
  p[0] = LOAD(p, 1);
}
