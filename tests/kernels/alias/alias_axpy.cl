// Seed 002: three pointer arguments, `out[i] = a[i] * s + b[i]` over
// `per_item` elements per work-item; every pair of the three may be
// identical, disjoint or overlapping.
__kernel void axpy_rows(__global float *out, __global const float *a,
                        __global const float *b, float s, uint per_item) {
    uint start = (uint)get_global_id(0) * per_item;
    uint end = start + per_item;
    for (uint i = start; i < end; i++)
        out[i] = a[i] * s + b[i];
}
