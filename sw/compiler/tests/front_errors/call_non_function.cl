// EXPECT: 4:10: called object type 'int' is not a function
kernel void k(global int *p) {
  int f = 1;
  p[0] = f(2);
}
