/* An unchanged OpenCL host program: loads a code object (argv[1], the
 * corpus's saxpy for gfx1030), runs y = a*x + y on 1000 elements and checks
 * the result (cosim/opencl/tests/loader.rs builds it with clang-19 against
 * the ICD loader). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(what, e)                                                        \
  if ((e) != CL_SUCCESS) {                                                    \
    printf("%s: %d\n", what, (int)(e));                                       \
    return 1;                                                                 \
  }

int main(int argc, char **argv) {
  if (argc != 2) { printf("usage: saxpy FILE.hsaco\n"); return 2; }
  FILE *f = fopen(argv[1], "rb");
  if (!f) { printf("cannot open %s\n", argv[1]); return 2; }
  static unsigned char code[1 << 20];
  size_t len = fread(code, 1, sizeof code, f);
  fclose(f);
  cl_platform_id p; cl_device_id d; cl_int e;
  CHECK("platform", clGetPlatformIDs(1, &p, NULL));
  CHECK("device", clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &d, NULL));
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  CHECK("context", e);
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  CHECK("queue", e);
  const unsigned char *bin = code;
  cl_program prog = clCreateProgramWithBinary(c, 1, &d, &len, &bin, NULL, &e);
  CHECK("program", e);
  CHECK("build", clBuildProgram(prog, 1, &d, "", NULL, NULL));
  cl_kernel k = clCreateKernel(prog, "saxpy", &e);
  CHECK("kernel", e);
  enum { N = 1000 };
  float x[N], y[N];
  for (int i = 0; i < N; i++) { x[i] = (float)i; y[i] = 1.0f; }
  cl_mem bx = clCreateBuffer(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x, x, &e);
  CHECK("x", e);
  cl_mem by = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof y, NULL, &e);
  CHECK("y", e);
  CHECK("write y", clEnqueueWriteBuffer(q, by, CL_FALSE, 0, sizeof y, y, 0, NULL, NULL));
  cl_uint n = N; float a = 2.0f;
  CHECK("arg 0", clSetKernelArg(k, 0, sizeof n, &n));
  CHECK("arg 1", clSetKernelArg(k, 1, sizeof a, &a));
  CHECK("arg 2", clSetKernelArg(k, 2, sizeof bx, &bx));
  CHECK("arg 3", clSetKernelArg(k, 3, sizeof by, &by));
  size_t global = 1024, local = 64;
  CHECK("ndrange", clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK("read", clEnqueueReadBuffer(q, by, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
  CHECK("finish", clFinish(q));
  for (int i = 0; i < N; i++) {
    if (y[i] != 2.0f * (float)i + 1.0f) { printf("y[%d] = %g\n", i, y[i]); return 1; }
  }
  clReleaseMemObject(bx); clReleaseMemObject(by); clReleaseKernel(k);
  clReleaseProgram(prog); clReleaseCommandQueue(q); clReleaseContext(c);
  printf("saxpy ok\n");
  return 0;
}
