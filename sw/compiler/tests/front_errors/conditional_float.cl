// EXPECT: 4:12: used type 'double' where floating point type is not allowed
kernel void k(global double *o) {
  double d = o[0];
  o[1] = d ? 1.0 : 2.0;
}
