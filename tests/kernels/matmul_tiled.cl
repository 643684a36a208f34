// LDS-tiled matrix multiply with 16x16 tiles (work-group 16x16): each tile of
// A and B is staged in LDS between two barriers. Same fma order as
// matmul_naive (k ascending), so both give bit-identical C. M, N, K must be
// multiples of 16.
#include "gpusim_cl.h"

#define T 16

__kernel __attribute__((reqd_work_group_size(T, T, 1))) void
matmul_tiled(__global const float *A, __global const float *B, __global float *C, uint M, uint N,
             uint K) {
  __local float As[T][T];
  __local float Bs[T][T];
  uint tx = gs_local_id(0);
  uint ty = gs_local_id(1);
  uint col = gs_group_id(0) * T + tx;
  uint row = gs_group_id(1) * T + ty;
  float acc = 0.0f;
  for (uint k0 = 0; k0 < K; k0 += T) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    gs_barrier();
    for (uint k = 0; k < T; k++)
      acc = gs_fma(As[ty][k], Bs[k][tx], acc);
    gs_barrier();
  }
  C[row * N + col] = acc;
}
