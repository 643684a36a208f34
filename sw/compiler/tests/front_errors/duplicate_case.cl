// EXPECT: 5:8: duplicate case value '1'
kernel void k(global int *p) {
  switch (p[0]) {
  case 1: p[1] = 2; break;
  case 1: p[1] = 3; break;
  }
}
