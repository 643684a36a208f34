// EXPECT: 3:3: 'continue' statement not in loop statement
kernel void k(global int *p) {
  continue;
}
