// EXPECT: 3:3: unterminated /* comment
kernel void k(global int *p) {
  /* forgot to close
  p[0] = 1;
}
