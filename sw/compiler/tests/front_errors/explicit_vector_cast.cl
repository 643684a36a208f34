// EXPECT: 3:10: invalid conversion between vector types 'float4' and 'int4'; use convert_int4() or as_int4()
kernel void k(global int4 *p, float4 v) {
  p[0] = (int4)v;
}
