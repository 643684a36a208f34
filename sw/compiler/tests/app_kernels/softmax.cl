// Row softmax: one work-group of 64 per row of 256, max and sum by
// work-group reductions, exp from the library.
__kernel void k(__global const float *in, __global float *out) {
  int row = get_group_id(0), lid = get_local_id(0);
  __global const float *x = in + row * 256;
  float m = -INFINITY;
  for (int i = lid; i < 256; i += 64) m = fmax(m, x[i]);
  m = work_group_reduce_max(m);
  float s = 0.0f;
  for (int i = lid; i < 256; i += 64) s += exp(x[i] - m);
  s = work_group_reduce_add(s);
  for (int i = lid; i < 256; i += 64) out[row * 256 + i] = exp(x[i] - m) / s;
}
