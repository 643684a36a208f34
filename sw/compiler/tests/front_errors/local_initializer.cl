// EXPECT: 3:13: '__local' variable cannot have an initializer
kernel void k(global int *p) {
  local int x = 3;
  p[0] = x;
}
