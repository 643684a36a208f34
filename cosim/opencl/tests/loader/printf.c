/* OpenCL C printf through the platform: a kernel built from source prints
 * one line per work-item with several conversions; the lines reach the
 * host program's standard output by the time the command completes
 * (between the "before" and "after" markers; cosim/opencl/tests/printf.rs
 * checks them against lines it formats itself). A second kernel prints a
 * constant string only from work-item 0. With a code object as argv[1]
 * (clang-19's, linked with ROCm's __printf_alloc), its kernel
 * `hello_bin(__global const int *a)` prints too, through
 * clCreateProgramWithBinary, between "binary before" and "binary after". */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

#define CHECK(what, e)                                                        \
  if ((e) != CL_SUCCESS) {                                                    \
    printf("%s: %d\n", what, (int)(e));                                       \
    return 1;                                                                 \
  }

static const char *src =
    "__kernel void hello(__global const int *a, float f, uint u) {\n"
    "  int i = (int)get_global_id(0);\n"
    "  printf(\"item %d: a=%5d u=%u x=%#x f=%.2f c=%c s=%s %%\\n\",\n"
    "         i, a[i], u + i, u * (i + 1), f * i, 'A' + i, \"str\");\n"
    "}\n"
    "__kernel void once(void) {\n"
    "  if (get_global_id(0) == 0) printf(\"once from %s\\n\", \"the device\");\n"
    "}\n";

static int binary(const char *path, cl_context c, cl_device_id d, cl_command_queue q, cl_mem b) {
  FILE *f = fopen(path, "rb");
  if (!f) { printf("cannot open %s\n", path); return 1; }
  static unsigned char code[1 << 20];
  size_t len = fread(code, 1, sizeof code, f);
  fclose(f);
  const unsigned char *bin = code;
  cl_int e;
  cl_program prog = clCreateProgramWithBinary(c, 1, &d, &len, &bin, NULL, &e);
  CHECK("binary program", e);
  CHECK("binary build", clBuildProgram(prog, 1, &d, "", NULL, NULL));
  cl_kernel k = clCreateKernel(prog, "hello_bin", &e);
  CHECK("binary kernel", e);
  CHECK("binary arg", clSetKernelArg(k, 0, sizeof b, &b));
  size_t global = 4, local = 4;
  printf("binary before\n");
  fflush(stdout);
  CHECK("binary ndrange", clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK("binary finish", clFinish(q));
  printf("binary after\n");
  clReleaseKernel(k);
  clReleaseProgram(prog);
  return 0;
}

int main(int argc, char **argv) {
  cl_platform_id p; cl_device_id d; cl_int e;
  CHECK("platform", clGetPlatformIDs(1, &p, NULL));
  CHECK("device", clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  CHECK("context", e);
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  CHECK("queue", e);
  cl_program prog = clCreateProgramWithSource(c, 1, &src, NULL, &e);
  CHECK("program", e);
  e = clBuildProgram(prog, 1, &d, "", NULL, NULL);
  if (e != CL_SUCCESS) {
    static char log[1 << 16];
    clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    printf("build: %d\n%s\n", (int)e, log);
    return 1;
  }
  cl_kernel k = clCreateKernel(prog, "hello", &e);
  CHECK("kernel", e);
  cl_kernel once = clCreateKernel(prog, "once", &e);
  CHECK("kernel once", e);
  enum { N = 8 };
  cl_int a[N];
  for (int i = 0; i < N; i++) a[i] = (i - 3) * 111;
  cl_mem b = clCreateBuffer(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &e);
  CHECK("buffer", e);
  float f = 1.25f;
  cl_uint u = 40;
  CHECK("arg 0", clSetKernelArg(k, 0, sizeof b, &b));
  CHECK("arg 1", clSetKernelArg(k, 1, sizeof f, &f));
  CHECK("arg 2", clSetKernelArg(k, 2, sizeof u, &u));
  size_t global = N, local = N, one = 4;
  printf("before\n");
  fflush(stdout);
  CHECK("ndrange", clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK("finish", clFinish(q));
  printf("after\n");
  fflush(stdout);
  CHECK("once", clEnqueueNDRangeKernel(q, once, 1, NULL, &one, NULL, 0, NULL, NULL));
  CHECK("finish once", clFinish(q));
  if (argc > 1 && binary(argv[1], c, d, q, b)) return 1;
  printf("printf done\n");
  clReleaseMemObject(b); clReleaseKernel(k); clReleaseKernel(once);
  clReleaseProgram(prog); clReleaseCommandQueue(q); clReleaseContext(c);
  return 0;
}
