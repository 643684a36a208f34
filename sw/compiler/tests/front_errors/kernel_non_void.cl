// EXPECT: 2:12: kernel must have void return type
kernel int k(global int *p) {
  return p[0];
}
