// EXPECT: 3:10: the format of 'printf' must be a string literal
kernel void k(global int *p, constant char *fmt) {
  printf(fmt, p[0]);
}
