// 3x3 integer convolution (weights 1 2 1 / 2 4 2 / 1 2 1) with clamp-to-edge
// borders on a width x height image of uints. Launched with 16x16 work-groups,
// so a wave32 covers 16 pixels of two rows: each store writes half of two
// 128-byte lines (docs/cycle-model.md, "Partial-line writes at the L2").
__kernel void conv2d_3x3(__global const uint *in, __global uint *out, uint width, uint height) {
  uint x = get_global_id(0);
  uint y = get_global_id(1);
  if (x >= width || y >= height)
    return;
  uint acc = 0;
  for (int dy = -1; dy <= 1; dy++) {
    for (int dx = -1; dx <= 1; dx++) {
      int xx = clamp((int)x + dx, 0, (int)width - 1);
      int yy = clamp((int)y + dy, 0, (int)height - 1);
      uint k = (uint)((2 - abs(dx)) * (2 - abs(dy)));
      acc += in[yy * (int)width + xx] * k;
    }
  }
  out[y * width + x] = acc;
}
