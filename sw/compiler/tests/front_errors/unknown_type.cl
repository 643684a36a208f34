// EXPECT: 3:3: unknown type name 'vec3'
kernel void k(global int *p) {
  vec3 v;
  p[0] = 0;
}
