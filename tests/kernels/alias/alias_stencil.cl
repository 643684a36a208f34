// Seed 002: a three-point stencil along one row per work-item, reading `in`
// and writing `out` through separate pointers that may overlap (an
// in-place smoothing passes `out = in + d`). Each copy of the loop body
// reads in[i-1], in[i], in[i+1], so with `out = in + d` the grouping of
// unrolled copies is limited by d - 1, d and d + 1.
__kernel void stencil_row(__global const float *in, __global float *out,
                          uint n, uint row_stride) {
    uint base = (uint)get_global_id(0) * row_stride;
    uint last = n - 1;
    for (uint i = 1; i < last; i++) {
        uint k = base + i;
        out[k] = 0.25f * in[k - 1] + 0.5f * in[k] + 0.25f * in[k + 1];
    }
}
