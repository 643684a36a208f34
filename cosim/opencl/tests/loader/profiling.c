/* Event profiling: a queue with CL_QUEUE_PROFILING_ENABLE times a write, two
 * kernels (one doing 256 times the other's work), a marker and a read. Each
 * event's QUEUED <= SUBMIT <= START <= END (= COMPLETE where the platform
 * answers it), a command of the in-order queue starts after the previous one
 * ended, and a kernel takes time. An event of a queue without profiling
 * answers CL_PROFILING_INFO_NOT_AVAILABLE; a bad name CL_INVALID_VALUE.
 * On gpusim (deterministic simulated time) the heavier kernel takes longer,
 * and the program prints each kernel's START..END as "kernel ns: A B" and the
 * first START and last END as "span ns: S E" for the test to compare with the
 * model's cycles. */
#define CL_TARGET_OPENCL_VERSION 200
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

#define CHECK(what, e)                                                        \
  if ((e) != CL_SUCCESS) {                                                    \
    printf("%s: %d\n", what, (int)(e));                                       \
    return 1;                                                                 \
  }

static const char *src =
    "__kernel void work(__global uint *a, uint rounds) {\n"
    "  size_t i = get_global_id(0);\n"
    "  uint x = a[i];\n"
    "  for (uint r = 0; r < rounds; r++) x = x * 1664525u + 1013904223u;\n"
    "  a[i] = x;\n"
    "}\n";

static int times(cl_event e, const char *what, cl_ulong t[4]) {
  cl_int s = CL_SUCCESS;
  const cl_profiling_info names[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                      CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
  for (int i = 0; i < 4 && s == CL_SUCCESS; i++) {
    size_t size = 0;
    s = clGetEventProfilingInfo(e, names[i], sizeof t[i], &t[i], &size);
    if (s == CL_SUCCESS && size != sizeof(cl_ulong)) { printf("%s: size %zu\n", what, size); return 1; }
  }
  CHECK(what, s);
  if (!(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3])) {
    printf("%s: out of order %llu %llu %llu %llu\n", what, (unsigned long long)t[0],
           (unsigned long long)t[1], (unsigned long long)t[2], (unsigned long long)t[3]);
    return 1;
  }
  return 0;
}

int main(void) {
  cl_platform_id p; cl_device_id d; cl_int e;
  CHECK("platform", clGetPlatformIDs(1, &p, NULL));
  char name[256] = "";
  clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, NULL);
  int gpusim = strcmp(name, "gpusim") == 0;
  CHECK("device", clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
  cl_command_queue_properties props = 0;
  CHECK("device queue properties", clGetDeviceInfo(d, CL_DEVICE_QUEUE_PROPERTIES, sizeof props, &props, NULL));
  if (!(props & CL_QUEUE_PROFILING_ENABLE)) { printf("the device does not report profiling\n"); return 1; }
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  CHECK("context", e);
  cl_command_queue q = clCreateCommandQueue(c, d, CL_QUEUE_PROFILING_ENABLE, &e);
  CHECK("queue", e);
  CHECK("queue properties", clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL));
  if (!(props & CL_QUEUE_PROFILING_ENABLE)) { printf("CL_QUEUE_PROPERTIES: %llu\n", (unsigned long long)props); return 1; }
  cl_command_queue plain = clCreateCommandQueue(c, d, 0, &e);
  CHECK("plain queue", e);
  cl_program prog = clCreateProgramWithSource(c, 1, &src, NULL, &e);
  CHECK("program", e);
  CHECK("build", clBuildProgram(prog, 1, &d, "", NULL, NULL));
  cl_kernel k = clCreateKernel(prog, "work", &e);
  CHECK("kernel", e);
  enum { N = 256 };
  cl_uint host[N];
  for (int i = 0; i < N; i++) host[i] = (cl_uint)i;
  cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof host, NULL, &e);
  CHECK("buffer", e);
  CHECK("arg 0", clSetKernelArg(k, 0, sizeof b, &b));
  size_t global = N, local = 64;
  cl_event ev[5];
  CHECK("write", clEnqueueWriteBuffer(q, b, CL_FALSE, 0, sizeof host, host, 0, NULL, &ev[0]));
  cl_uint light = 4, heavy = 1024;
  CHECK("arg 1", clSetKernelArg(k, 1, sizeof light, &light));
  CHECK("light", clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev[1]));
  CHECK("arg 1 again", clSetKernelArg(k, 1, sizeof heavy, &heavy));
  CHECK("heavy", clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev[2]));
  CHECK("marker", clEnqueueMarkerWithWaitList(q, 0, NULL, &ev[3]));
  CHECK("read", clEnqueueReadBuffer(q, b, CL_FALSE, 0, sizeof host, host, 0, NULL, &ev[4]));
  CHECK("finish", clFinish(q));
  CHECK("wait", clWaitForEvents(5, ev));
  const char *what[5] = {"write", "light kernel", "heavy kernel", "marker", "read"};
  cl_ulong t[5][4];
  for (int i = 0; i < 5; i++) {
    if (times(ev[i], what[i], t[i])) return 1;
    if (i > 0 && t[i][2] < t[i - 1][3]) {
      printf("%s starts at %llu, before %s ends at %llu\n", what[i], (unsigned long long)t[i][2],
             what[i - 1], (unsigned long long)t[i - 1][3]);
      return 1;
    }
  }
  for (int i = 1; i <= 2; i++) {
    if (t[i][3] <= t[i][2]) { printf("%s takes no time\n", what[i]); return 1; }
  }
  cl_ulong complete = 0;
  e = clGetEventProfilingInfo(ev[2], CL_PROFILING_COMMAND_COMPLETE, sizeof complete, &complete, NULL);
  if (e == CL_SUCCESS && complete < t[2][3]) { printf("COMPLETE %llu < END\n", (unsigned long long)complete); return 1; }
  if (gpusim) {
    if (e != CL_SUCCESS) { printf("COMPLETE: %d\n", (int)e); return 1; }
    if (t[2][3] - t[2][2] <= t[1][3] - t[1][2]) {
      printf("the heavy kernel (%llu ns) is not slower than the light one (%llu ns)\n",
             (unsigned long long)(t[2][3] - t[2][2]), (unsigned long long)(t[1][3] - t[1][2]));
      return 1;
    }
    for (int i = 1; i <= 2; i++)
      printf("%s ns: %llu %llu\n", what[i], (unsigned long long)t[i][2], (unsigned long long)t[i][3]);
  }
  cl_ulong v;
  e = clGetEventProfilingInfo(ev[1], 0x1290, sizeof v, &v, NULL);
  if (e != CL_INVALID_VALUE) { printf("a bad name: %d\n", (int)e); return 1; }
  e = clGetEventProfilingInfo(ev[1], CL_PROFILING_COMMAND_START, 1, &v, NULL);
  if (e != CL_INVALID_VALUE) { printf("a short buffer: %d\n", (int)e); return 1; }
  cl_event unprofiled;
  CHECK("plain kernel", clEnqueueNDRangeKernel(plain, k, 1, NULL, &global, &local, 0, NULL, &unprofiled));
  CHECK("plain finish", clFinish(plain));
  e = clGetEventProfilingInfo(unprofiled, CL_PROFILING_COMMAND_START, sizeof v, &v, NULL);
  if (e != CL_PROFILING_INFO_NOT_AVAILABLE) { printf("without profiling: %d\n", (int)e); return 1; }
  /* The results, so the kernels really ran. */
  for (int i = 0; i < N; i++) {
    cl_uint x = (cl_uint)i;
    for (cl_uint r = 0; r < light + heavy; r++) x = x * 1664525u + 1013904223u;
    if (host[i] != x) { printf("a[%d] = %u, expected %u\n", i, host[i], x); return 1; }
  }
  for (int i = 0; i < 5; i++) clReleaseEvent(ev[i]);
  clReleaseEvent(unprofiled);
  clReleaseMemObject(b); clReleaseKernel(k); clReleaseProgram(prog);
  clReleaseCommandQueue(q); clReleaseCommandQueue(plain); clReleaseContext(c);
  printf("profiling ok\n");
  return 0;
}
