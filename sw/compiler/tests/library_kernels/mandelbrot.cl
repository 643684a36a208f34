// Smooth-coloured Mandelbrot iteration counts (log2 of log2 of |z|).
__kernel void mandelbrot(__global float *out, int w, int h, int max_iter) {
  int x = get_global_id(0), y = get_global_id(1);
  float cr = -2.0f + 3.0f * x / w, ci = -1.5f + 3.0f * y / h;
  float zr = 0.0f, zi = 0.0f;
  int it = 0;
  while (zr * zr + zi * zi < 256.0f && it < max_iter) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    it++;
  }
  float smooth = it < max_iter ? it + 1.0f - log2(log2(zr * zr + zi * zi) * 0.5f) : (float)max_iter;
  out[y * w + x] = smooth;
}
