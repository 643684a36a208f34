// y = A x over uints (wrapping arithmetic, so every tile size gives the
// same bits), A n x n row-major, one work-item per row. TILE (a define:
// `defines: { TILE: 8 }` in the workload, `defines.TILE` in a sweep) is how
// many elements of a row are loaded before they are used, and the unroll
// factor of both loops: more loads in flight per wait, more VGPRs.
#ifndef TILE
#define TILE 4
#endif

__kernel void matvec_tile(__global const uint *a, __global const uint *x,
                          __global uint *y, uint n) {
    uint row = get_global_id(0);
    uint acc = 0;
    for (uint k0 = 0; k0 < n; k0 += TILE) {
        uint t[TILE];
#pragma unroll
        for (uint j = 0; j < TILE; j++)
            t[j] = a[row * n + k0 + j];
#pragma unroll
        for (uint j = 0; j < TILE; j++)
            acc += t[j] * x[k0 + j];
    }
    y[row] = acc;
}
