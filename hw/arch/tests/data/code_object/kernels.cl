// Fixture kernels for hw/arch/tests/code_object.rs (built by make.sh).
// -nogpulib: no OpenCL builtins, so work-item ids come from the AMDGPU builtins.
typedef struct { int a; float b; long c; } S;

__kernel void add(__global float *out, __global const float *in, __local float *tmp,
                  int n, float scale, long bias, S s) {
  uint l = __builtin_amdgcn_workitem_id_x();
  uint i = l + __builtin_amdgcn_workgroup_id_x() * 64;
  tmp[l] = in[i] * scale;
  __builtin_amdgcn_s_barrier();
  if (i < n) out[i] = tmp[63 - l] + (float)bias + s.a + s.b + s.c;
}

__kernel void copy(__global int *restrict dst, __global const int *restrict src) {
  uint i = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * 64;
  dst[i] = src[i];
}

// Uses a private array indexed dynamically so the kernel needs scratch.
__kernel void scratch(__global int *out, int k) {
  int a[17];
  for (int j = 0; j < 17; j++) a[j] = j * k;
  uint i = __builtin_amdgcn_workitem_id_x();
  out[i] = a[(i + k) % 17];
}
