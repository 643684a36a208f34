// EXPECT: 3:8: variable has incomplete type 'void'
kernel void k(global int *p) {
  void x;
}
