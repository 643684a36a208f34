// EXPECT: 2:28: kernel parameter cannot be declared as a pointer to the __private address space
kernel void k(private int *p) {
  p[0] = 1;
}
