// EXPECT: 4:5: 'break' statement not in loop or switch statement
kernel void k(global int *p) {
  if (p[0])
    break;
}
