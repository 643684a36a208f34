/* Events, markers, barriers, clEnqueueTask and event callbacks, checked on
 * whichever platform the loader finds first (cosim/opencl/tests/events.rs
 * runs it on gpusim, on each model, and on PoCL). Prints "events ok". */
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cl_int e_ = (call);                                                        \
    if (e_ != CL_SUCCESS) {                                                    \
      printf("line %d: %s: %d\n", __LINE__, #call, e_);                        \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static int called;
static void CL_CALLBACK on_complete(cl_event ev, cl_int status, void *data) {
  (void)ev;
  if (status == CL_COMPLETE && data == &called) called++;
}

static const char *source =
    "__kernel void task(__global int *a) { a[0] = get_global_size(0) * 100 + 7; }\n"
    "__kernel void inc(__global int *a) { a[get_global_id(0)] += 1; }\n";

static cl_int status_of(cl_event ev) {
  cl_int s = -1;
  clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
  return s;
}

static cl_command_type type_of(cl_event ev) {
  cl_command_type t = 0;
  clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL);
  return t;
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  cl_platform_id p;
  cl_device_id d;
  cl_int e;
  CHECK(clGetPlatformIDs(1, &p, NULL));
  CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
  char name[256];
  CHECK(clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, NULL));
  int is_pocl = strstr(name, "Portable Computing Language") != NULL;
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  CHECK(e);
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  CHECK(e);
  cl_program prog = clCreateProgramWithSource(c, 1, &source, NULL, &e);
  CHECK(e);
  CHECK(clBuildProgram(prog, 1, &d, NULL, NULL, NULL));
  cl_kernel task = clCreateKernel(prog, "task", &e);
  CHECK(e);
  cl_kernel inc = clCreateKernel(prog, "inc", &e);
  CHECK(e);
  int zeros[256] = {0};
  cl_mem b = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof zeros, zeros, &e);
  CHECK(e);
  CHECK(clSetKernelArg(task, 0, sizeof b, &b));
  CHECK(clSetKernelArg(inc, 0, sizeof b, &b));

  /* A chain: write -> kernel -> marker -> kernel -> barrier -> read, each
   * waiting for the one before. */
  cl_event w, k1, m, k2, bar, r, t;
  int ones[256];
  for (int i = 0; i < 256; i++) ones[i] = 1;
  CHECK(clEnqueueWriteBuffer(q, b, CL_FALSE, 0, sizeof ones, ones, 0, NULL, &w));
  size_t global = 256;
  CHECK(clEnqueueNDRangeKernel(q, inc, 1, NULL, &global, NULL, 1, &w, &k1));
  CHECK(clEnqueueMarkerWithWaitList(q, 1, &k1, &m));
  CHECK(clEnqueueNDRangeKernel(q, inc, 1, NULL, &global, NULL, 1, &m, &k2));
  CHECK(clEnqueueBarrierWithWaitList(q, 0, NULL, &bar));
  int back[256];
  CHECK(clEnqueueReadBuffer(q, b, CL_FALSE, 0, sizeof back, back, 1, &bar, &r));
  CHECK(clWaitForEvents(1, &r));
  for (int i = 0; i < 256; i++)
    if (back[i] != 3) { printf("element %d: %d, want 3\n", i, back[i]); return 1; }
  cl_event all[] = {w, k1, m, k2, bar, r};
  CHECK(clWaitForEvents(6, all));
  for (int i = 0; i < 6; i++)
    if (status_of(all[i]) != CL_COMPLETE) { printf("event %d not complete\n", i); return 1; }
  if (type_of(w) != CL_COMMAND_WRITE_BUFFER || type_of(k1) != CL_COMMAND_NDRANGE_KERNEL ||
      type_of(m) != CL_COMMAND_MARKER || type_of(bar) != CL_COMMAND_BARRIER ||
      type_of(r) != CL_COMMAND_READ_BUFFER) {
    printf("command types %#x %#x %#x %#x %#x\n", type_of(w), type_of(k1), type_of(m),
           type_of(bar), type_of(r));
    return 1;
  }

  /* clEnqueueTask: one work-item. */
  CHECK(clEnqueueTask(q, task, 0, NULL, &t));
  CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof back, back, 1, &t, NULL));
  if (back[0] != 107 || back[1] != 3) { printf("task: %d %d\n", back[0], back[1]); return 1; }
  /* CL_COMMAND_TASK; PoCL 3.1 reports CL_COMMAND_NDRANGE_KERNEL. */
  if (type_of(t) != CL_COMMAND_TASK && type_of(t) != CL_COMMAND_NDRANGE_KERNEL) {
    printf("task type %#x\n", type_of(t));
    return 1;
  }

  /* Callbacks: on a complete event, called (now or soon) with CL_COMPLETE. */
  CHECK(clSetEventCallback(t, CL_COMPLETE, on_complete, &called));
  CHECK(clSetEventCallback(r, CL_COMPLETE, on_complete, &called));
  CHECK(clFinish(q));
  for (int spin = 0; called < 2 && spin < 1000000; spin++) {}
  if (called != 2) { printf("callbacks called %d times\n", called); return 1; }
  if (clSetEventCallback(t, 12345, on_complete, NULL) != CL_INVALID_VALUE) { printf("bad status\n"); return 1; }

  /* Every kernel of a program; migrating a buffer (nothing to move here). */
  cl_kernel all_kernels[4];
  cl_uint nk = 0;
  CHECK(clCreateKernelsInProgram(prog, 4, all_kernels, &nk));
  if (nk != 2) { printf("%u kernels in the program\n", nk); return 1; }
  for (cl_uint i = 0; i < nk; i++) CHECK(clReleaseKernel(all_kernels[i]));
  if (clCreateKernelsInProgram(prog, 1, all_kernels, NULL) != CL_INVALID_VALUE) { printf("too few slots\n"); return 1; }
  cl_event mig;
  CHECK(clEnqueueMigrateMemObjects(q, 1, &b, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, &mig));
  CHECK(clWaitForEvents(1, &mig));
  CHECK(clReleaseEvent(mig));
  CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
  if (back[1] != 3) { printf("after the migration: %d\n", back[1]); return 1; }
  CHECK(clUnloadPlatformCompiler(p));

  /* The OpenCL 1.1 forms. */
  cl_event m2;
  CHECK(clEnqueueMarker(q, &m2));
  CHECK(clEnqueueBarrier(q));
  /* PoCL 3.1 does not implement clEnqueueWaitForEvents (it aborts). */
  if (!is_pocl) {
    CHECK(clEnqueueWaitForEvents(q, 1, &m2));
    if (clEnqueueWaitForEvents(q, 0, NULL) != CL_INVALID_VALUE) { printf("empty wait\n"); return 1; }
  }
  CHECK(clFinish(q));

  cl_event evs[] = {w, k1, m, k2, bar, r, t, m2};
  for (int i = 0; i < 8; i++) CHECK(clReleaseEvent(evs[i]));
  CHECK(clReleaseMemObject(b));
  CHECK(clReleaseKernel(task));
  CHECK(clReleaseKernel(inc));
  CHECK(clReleaseProgram(prog));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(c));
  printf("events ok\n");
  return 0;
}
