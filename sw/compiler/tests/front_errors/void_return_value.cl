// EXPECT: 3:10: void function should not return a value
kernel void k(global int *p) {
  return 1;
}
