/* An unchanged OpenCL host program: a buffer made from host bytes, one
 * element overwritten, read back (cosim/opencl/tests/loader.rs builds it
 * with clang-19 against the ICD loader). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
int main(void) {
  cl_platform_id p; cl_uint n = 0; cl_int e;
  if (clGetPlatformIDs(1, &p, &n) != CL_SUCCESS || n != 1) { printf("no platform\n"); return 1; }
  cl_device_id d;
  if (clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &d, NULL) != CL_SUCCESS) { printf("no device\n"); return 1; }
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  if (e != CL_SUCCESS) { printf("context %d\n", e); return 1; }
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  if (e != CL_SUCCESS) { printf("queue %d\n", e); return 1; }
  unsigned v[64]; for (int i = 0; i < 64; i++) v[i] = i * 3;
  cl_mem b = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof v, v, &e);
  if (e != CL_SUCCESS) { printf("buffer %d\n", e); return 1; }
  unsigned w = 12345, back[64];
  e = clEnqueueWriteBuffer(q, b, CL_TRUE, 40, 4, &w, 0, NULL, NULL);
  if (e != CL_SUCCESS) { printf("write %d\n", e); return 1; }
  e = clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL);
  if (e != CL_SUCCESS) { printf("read %d\n", e); return 1; }
  clFinish(q);
  for (int i = 0; i < 64; i++) {
    unsigned want = i == 10 ? 12345u : (unsigned)i * 3;
    if (back[i] != want) { printf("element %d: %u, want %u\n", i, back[i], want); return 1; }
  }
  clReleaseMemObject(b); clReleaseCommandQueue(q); clReleaseContext(c);
  printf("round trip ok\n");
  return 0;
}
