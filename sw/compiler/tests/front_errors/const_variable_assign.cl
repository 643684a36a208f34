// EXPECT: 4:3: cannot assign to variable 'n' with const-qualified type
kernel void k(global int *p) {
  const int n = 4;
  n = 5;
  p[0] = n;
}
