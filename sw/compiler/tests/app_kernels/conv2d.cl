// 3x3 convolution of a 64x64 image, edges clamped.
__kernel void k(__global const float *img, __global const float *w, __global float *out) {
  int x = get_global_id(0), y = get_global_id(1);
  float s = 0.0f;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      int xx = clamp(x + dx, 0, 63), yy = clamp(y + dy, 0, 63);
      s = fma(img[yy * 64 + xx], w[(dy + 1) * 3 + dx + 1], s);
    }
  out[y * 64 + x] = clamp(s, -1.0f, 1.0f);
}
