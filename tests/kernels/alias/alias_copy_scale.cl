// Seed 002: copy with scale, `out` possibly equal to `in + d` (a shift of
// a buffer in place). Each work-item handles `per_item` consecutive
// elements.
__kernel void copy_scale(__global float *out, __global const float *in,
                         float s, uint per_item) {
    uint start = (uint)get_global_id(0) * per_item;
    uint end = start + per_item;
    for (uint i = start; i < end; i++)
        out[i] = in[i] * s;
}
