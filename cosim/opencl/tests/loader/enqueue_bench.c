/* Host cost of an enqueue: N small commands through the C API, timed with
 * CLOCK_MONOTONIC. Prints microseconds per command for a 4-byte
 * clEnqueueWriteBuffer (no simulation: the API's checks, the handle
 * lookups, the round trip to the device thread, the driver's copy) and
 * for a one-work-item clEnqueueNDRangeKernel (that plus the dispatch on
 * the model), wall clock and process CPU time. Usage: enqueue_bench [N] (default 10000). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* CPU time of the whole process (every thread: the platform's device
 * thread too), which a loaded machine does not inflate as it does the
 * wall clock. */
static double cpu(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

#define CHECK(call)                                                            \
  do {                                                                         \
    cl_int e_ = (call);                                                        \
    if (e_ != CL_SUCCESS) { printf("line %d: %d\n", __LINE__, e_); return 1; } \
  } while (0)

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10000;
  cl_platform_id p;
  cl_device_id d;
  cl_int e;
  CHECK(clGetPlatformIDs(1, &p, NULL));
  CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  CHECK(e);
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  CHECK(e);
  const char *src = "__kernel void one(__global int *a) { a[0] += 1; }";
  cl_program prog = clCreateProgramWithSource(c, 1, &src, NULL, &e);
  CHECK(e);
  CHECK(clBuildProgram(prog, 1, &d, NULL, NULL, NULL));
  cl_kernel k = clCreateKernel(prog, "one", &e);
  CHECK(e);
  int zero = 0;
  cl_mem b = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &e);
  CHECK(e);
  CHECK(clSetKernelArg(k, 0, sizeof b, &b));
  size_t one = 1;
  /* Warm-up: the device thread, the first dispatch's one-time work. */
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL));
  CHECK(clFinish(q));
  int v = 0;
  double c0 = cpu(), t0 = now();
  for (int i = 0; i < n; i++)
    CHECK(clEnqueueWriteBuffer(q, b, CL_FALSE, 0, sizeof v, &v, 0, NULL, NULL));
  CHECK(clFinish(q));
  double c1 = cpu(), t1 = now();
  for (int i = 0; i < n; i++)
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL));
  CHECK(clFinish(q));
  double c2 = cpu(), t2 = now();
  int back = -1;
  CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof back, &back, 0, NULL, NULL));
  if (back != n) { printf("counter %d, want %d\n", back, n); return 1; }
  printf("write %.2f us/enqueue (cpu %.2f us)\n", (t1 - t0) * 1e6 / n, (c1 - c0) * 1e6 / n);
  printf("ndrange %.2f us/enqueue (cpu %.2f us)\n", (t2 - t1) * 1e6 / n, (c2 - c1) * 1e6 / n);
  printf("bench ok %d\n", n);
  return 0;
}
