// EXPECT: 3:10: use of undeclared identifier 'count'
kernel void k(global int *p) {
  p[0] = count + 1;
}
