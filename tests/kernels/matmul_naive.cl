// Naive matrix multiply C[M][N] = A[M][K] * B[K][N] on a 2-D grid (x = column,
// y = row). Explicit fma in k order, so the result is exact.
#include "gpusim_cl.h"

__kernel void matmul_naive(__global const float *A, __global const float *B, __global float *C,
                           uint M, uint N, uint K) {
  uint col = gs_global_id(0);
  uint row = gs_global_id(1);
  if (row >= M || col >= N)
    return;
  float acc = 0.0f;
  for (uint k = 0; k < K; k++)
    acc = gs_fma(A[row * K + k], B[k * N + col], acc);
  C[row * N + col] = acc;
}
