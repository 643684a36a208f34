#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// y = a x + y in double, then the group's dot(x, y) by a tree in local memory.
__kernel void k(__global const double *x, __global double *y, __global double *dots) {
  __local double part[256];
  int g = get_global_id(0), lid = get_local_id(0);
  double yi = fma(2.5, x[g], y[g]);
  y[g] = yi;
  part[lid] = x[g] * yi;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 128; s > 0; s >>= 1) {
    if (lid < s) part[lid] += part[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) dots[get_group_id(0)] = sqrt(fabs(part[0])) * exp(-1.0) + log1p(fabs(part[0]));
}
