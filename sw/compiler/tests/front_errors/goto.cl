// EXPECT: 4:5: 'goto' is not supported: gpusim compiles structured control flow only (write the jump as a loop with 'break'/'continue' or a flag)
kernel void k(global int *p) {
  if (p[0] < 0)
    goto done;
  p[0] = 1;
done:
  p[1] = 2;
}
