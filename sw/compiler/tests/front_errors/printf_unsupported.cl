// EXPECT: 3:3: implicit declaration of function 'printf' is invalid in OpenCL
kernel void k(global int *p) {
  printf("%d", p[0]);
}
