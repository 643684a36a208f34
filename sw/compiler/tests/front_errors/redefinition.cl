// EXPECT: 4:9: redefinition of 'a'
kernel void k(global int *p) {
  int a = 1;
  float a = 2.0f;
  p[0] = a;
}
