// Seed 002 Fig 3A: the output pass of histogram equalisation. Each
// work-item maps `per_item` consecutive pixels through the equalised CDF.
// `global_cdf` is unused, as in the spec's signature. When the driver knows
// how `inputImage` and `outputImage` overlap, gpusim recompiles the loop
// unrolled, loads grouped before stores and widened (docs/compiler.md
// "Seed 002").
__kernel void compute_output(__global const uint *inputImage,
                             __global const uint *global_cdf,
                             __global uint *outputImage,
                             __global const uint *local_cdf,
                             uint per_item) {
    uint start_offset = (uint)get_global_id(0) * per_item;
    uint final_offset = start_offset + per_item;
    for (uint i = start_offset; i < final_offset; i++)
        outputImage[i] = local_cdf[inputImage[i]];
}
