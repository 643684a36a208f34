// Row softmax: one work-group of 64 per row, max and sum reduced in local memory.
__kernel void softmax(__global float *out, __global const float *in, int n) {
  __local float red[64];
  int row = get_group_id(0), lid = get_local_id(0);
  __global const float *x = in + row * n;
  float m = -INFINITY;
  for (int i = lid; i < n; i += 64) m = fmax(m, x[i]);
  red[lid] = m;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 32; s > 0; s >>= 1) {
    if (lid < s) red[lid] = fmax(red[lid], red[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  m = red[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  float sum = 0.0f;
  for (int i = lid; i < n; i += 64) sum += exp(x[i] - m);
  red[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 32; s > 0; s >>= 1) {
    if (lid < s) red[lid] += red[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float inv = 1.0f / red[0];
  for (int i = lid; i < n; i += 64) out[row * n + i] = exp(x[i] - m) * inv;
}
