// EXPECT: 2:15: 'image2d_t' is not supported by this compiler: images and samplers need the texture unit (MIMG instructions), which gpusim's GPU models do not have
kernel void k(image2d_t img, global float *p) {
  p[0] = 0.0f;
}
