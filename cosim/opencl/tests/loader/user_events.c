/* User events: commands waiting for one are deferred (a write, a kernel and
 * a read behind it in an in-order queue) and run when it is set to
 * CL_COMPLETE; a negative status fails the commands that wait for it; a
 * kernel's arguments are those of its enqueue even when it runs later;
 * callbacks fire at the transitions; rectangular transfers, a map and an
 * unmap deferred the same way; the API's errors. On gpusim only (PoCL
 * would wait for ever): clWaitForEvents on a user event that is never set
 * gives up after GPUSIM_WAIT_TIMEOUT seconds. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

#define CHECK(what, e)                                                        \
  if ((e) != CL_SUCCESS) {                                                    \
    printf("%s: %d\n", what, (int)(e));                                       \
    return 1;                                                                 \
  }
#define EXPECT(what, got, want)                                               \
  if ((got) != (want)) {                                                      \
    printf("%s: %d, expected %d\n", what, (int)(got), (int)(want));           \
    return 1;                                                                 \
  }

static const char *src =
    "__kernel void add(__global int *a, int v) { a[get_global_id(0)] += v; }\n";

static int calls[4];
static cl_int seen[4];
static void CL_CALLBACK note(cl_event e, cl_int status, void *data) {
  (void)e;
  int i = (int)(size_t)data;
  calls[i]++;
  seen[i] = status;
}

static cl_int status_of(cl_event e) {
  cl_int s = 99;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
  return s;
}

int main(void) {
  cl_platform_id p; cl_device_id d; cl_int e;
  CHECK("platform", clGetPlatformIDs(1, &p, NULL));
  char name[256] = "";
  clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, NULL);
  int gpusim = strcmp(name, "gpusim") == 0;
  CHECK("device", clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  CHECK("context", e);
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  CHECK("queue", e);
  cl_program prog = clCreateProgramWithSource(c, 1, &src, NULL, &e);
  CHECK("program", e);
  CHECK("build", clBuildProgram(prog, 1, &d, "", NULL, NULL));
  cl_kernel k = clCreateKernel(prog, "add", &e);
  CHECK("kernel", e);
  enum { N = 64 };
  cl_int data[N], out[N];
  for (int i = 0; i < N; i++) { data[i] = i * 3; out[i] = -1; }
  cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof data, NULL, &e);
  CHECK("buffer", e);
  cl_int one = 1;
  CHECK("arg 0", clSetKernelArg(k, 0, sizeof b, &b));
  CHECK("arg 1", clSetKernelArg(k, 1, sizeof one, &one));
  size_t global = N;

  /* A user event: submitted, of type CL_COMMAND_USER, on no queue. */
  cl_event u = clCreateUserEvent(c, &e);
  CHECK("user event", e);
  EXPECT("user event status", status_of(u), CL_SUBMITTED);
  cl_command_type type = 0;
  CHECK("type", clGetEventInfo(u, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  EXPECT("user event type", (cl_int)type, CL_COMMAND_USER);
  cl_command_queue none = q;
  CHECK("queue of", clGetEventInfo(u, CL_EVENT_COMMAND_QUEUE, sizeof none, &none, NULL));
  if (none != NULL) { printf("a user event has a queue\n"); return 1; }
  CHECK("callback u", clSetEventCallback(u, CL_COMPLETE, note, (void *)0));

  /* A write waiting for it, then a kernel and a read behind it in order. */
  cl_event w, kev, r;
  CHECK("write", clEnqueueWriteBuffer(q, b, CL_FALSE, 0, sizeof data, data, 1, &u, &w));
  CHECK("kernel", clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, &kev));
  CHECK("read", clEnqueueReadBuffer(q, b, CL_FALSE, 0, sizeof out, out, 0, NULL, &r));
  CHECK("callback k", clSetEventCallback(kev, CL_COMPLETE, note, (void *)1));
  CHECK("flush", clFlush(q));
  if (status_of(w) <= CL_COMPLETE || status_of(kev) <= CL_COMPLETE || status_of(r) <= CL_COMPLETE) {
    printf("commands completed before their user event: %d %d %d\n", status_of(w),
           status_of(kev), status_of(r));
    return 1;
  }
  if (calls[0] || calls[1]) { printf("callbacks fired early\n"); return 1; }
  for (int i = 0; i < N; i++)
    if (out[i] != -1) { printf("the read ran before its user event\n"); return 1; }

  CHECK("set complete", clSetUserEventStatus(u, CL_COMPLETE));
  CHECK("wait", clWaitForEvents(1, &r));
  EXPECT("read status", status_of(r), CL_COMPLETE);
  EXPECT("kernel status", status_of(kev), CL_COMPLETE);
  for (int i = 0; i < N; i++)
    if (out[i] != i * 3 + 1) { printf("out[%d] = %d, expected %d\n", i, out[i], i * 3 + 1); return 1; }
  EXPECT("user event callback calls", calls[0], 1);
  EXPECT("user event callback status", seen[0], CL_COMPLETE);
  EXPECT("kernel callback calls", calls[1], 1);
  EXPECT("kernel callback status", seen[1], CL_COMPLETE);

  /* Arguments are those of the enqueue: 10 is added, not 1000. */
  cl_event u2 = clCreateUserEvent(c, &e);
  CHECK("user event 2", e);
  cl_int ten = 10, thousand = 1000;
  CHECK("arg 10", clSetKernelArg(k, 1, sizeof ten, &ten));
  cl_event k2;
  CHECK("kernel 2", clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 1, &u2, &k2));
  CHECK("arg 1000", clSetKernelArg(k, 1, sizeof thousand, &thousand));
  CHECK("set complete 2", clSetUserEventStatus(u2, CL_COMPLETE));
  CHECK("finish", clFinish(q));
  CHECK("read 2", clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  for (int i = 0; i < N; i++)
    if (out[i] != i * 3 + 11) { printf("args: out[%d] = %d, expected %d\n", i, out[i], i * 3 + 11); return 1; }

  /* A negative status fails the commands waiting for it. */
  cl_event u3 = clCreateUserEvent(c, &e);
  CHECK("user event 3", e);
  cl_event k3, r3;
  CHECK("kernel 3", clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 1, &u3, &k3));
  CHECK("read 3", clEnqueueReadBuffer(q, b, CL_FALSE, 0, sizeof out, out, 1, &k3, &r3));
  CHECK("callback k3", clSetEventCallback(k3, CL_COMPLETE, note, (void *)2));
  CHECK("set failed", clSetUserEventStatus(u3, -1234));
  EXPECT("user event 3 status", status_of(u3), -1234);
  e = clWaitForEvents(1, &k3);
  EXPECT("wait for a failed command", e, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  if (status_of(k3) >= 0 || status_of(r3) >= 0) {
    printf("commands after a failed user event: %d %d\n", status_of(k3), status_of(r3));
    return 1;
  }
  /* The specification calls a CL_COMPLETE callback also for a command
   * that terminated abnormally, with its error; PoCL 3.1 does not call it. */
  if (gpusim) {
    EXPECT("failed callback calls", calls[2], 1);
    if (seen[2] >= 0) { printf("failed callback status %d\n", seen[2]); return 1; }
  }
  CHECK("finish 3", clFinish(q));
  CHECK("read after", clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  for (int i = 0; i < N; i++)
    if (out[i] != i * 3 + 11) { printf("the failed kernel ran: out[%d] = %d\n", i, out[i]); return 1; }

  /* Rectangular transfers, a map and an unmap behind user events. The
   * buffer is 8 rows of 8 ints; a 4 x 4 block of the host's 4 x 4 array is
   * written at column 2, row 1, copied to the same place of a second
   * buffer, and read back from there. */
  {
    cl_event u6 = clCreateUserEvent(c, &e);
    CHECK("user event 6", e);
    cl_mem b2 = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof data, NULL, &e);
    CHECK("buffer 2", e);
    cl_int zero = 0;
    CHECK("clear 2", clEnqueueFillBuffer(q, b2, &zero, sizeof zero, 0, sizeof data, 0, NULL, NULL));
    cl_int block[16], back[16];
    for (int i = 0; i < 16; i++) { block[i] = 500 + i; back[i] = -1; }
    size_t dev_origin[3] = {2 * sizeof(cl_int), 1, 0}, host_origin[3] = {0, 0, 0};
    size_t region[3] = {4 * sizeof(cl_int), 4, 1};
    size_t row = 8 * sizeof(cl_int), host_row = 4 * sizeof(cl_int);
    cl_event wr, cr, rr;
    CHECK("write rect", clEnqueueWriteBufferRect(q, b, CL_FALSE, dev_origin, host_origin, region,
                                                 row, 0, host_row, 0, block, 1, &u6, &wr));
    /* The origins and region are copied at the enqueue: changing them now
     * changes nothing. */
    dev_origin[0] = 0;
    region[1] = 1;
    size_t dev_origin2[3] = {2 * sizeof(cl_int), 1, 0}, region2[3] = {4 * sizeof(cl_int), 4, 1};
    CHECK("copy rect", clEnqueueCopyBufferRect(q, b, b2, dev_origin2, dev_origin2, region2,
                                               row, 0, row, 0, 0, NULL, &cr));
    CHECK("read rect", clEnqueueReadBufferRect(q, b2, CL_FALSE, dev_origin2, host_origin, region2,
                                               row, 0, host_row, 0, back, 0, NULL, &rr));
    if (status_of(wr) <= CL_COMPLETE || status_of(cr) <= CL_COMPLETE || status_of(rr) <= CL_COMPLETE ||
        back[0] != -1) {
      printf("rect commands ran before their user event\n");
      return 1;
    }
    CHECK("set 6", clSetUserEventStatus(u6, CL_COMPLETE));
    CHECK("wait rect", clWaitForEvents(1, &rr));
    for (int i = 0; i < 16; i++)
      if (back[i] != 500 + i) { printf("rect: back[%d] = %d\n", i, back[i]); return 1; }

    /* A map behind a user event: the pointer now, the bytes when it runs;
     * then an unmap behind another one writes the change back. */
    cl_event u7 = clCreateUserEvent(c, &e), mev;
    CHECK("user event 7", e);
    cl_int *m = (cl_int *)clEnqueueMapBuffer(q, b2, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                             sizeof data, 1, &u7, &mev, &e);
    CHECK("map", e);
    if (!m) { printf("no map pointer\n"); return 1; }
    if (status_of(mev) <= CL_COMPLETE) { printf("the map ran before its user event\n"); return 1; }
    CHECK("set 7", clSetUserEventStatus(u7, CL_COMPLETE));
    CHECK("wait map", clWaitForEvents(1, &mev));
    if (m[1 * 8 + 2] != 500 || m[4 * 8 + 5] != 515 || m[0] != 0) {
      printf("mapped: %d %d %d\n", m[1 * 8 + 2], m[4 * 8 + 5], m[0]);
      return 1;
    }
    m[0] = 4242;
    cl_event u8 = clCreateUserEvent(c, &e), uev;
    CHECK("user event 8", e);
    CHECK("unmap", clEnqueueUnmapMemObject(q, b2, m, 1, &u8, &uev));
    cl_int first = -1;
    cl_event fr;
    CHECK("read first", clEnqueueReadBuffer(q, b2, CL_FALSE, 0, sizeof first, &first, 0, NULL, &fr));
    if (status_of(uev) <= CL_COMPLETE || first != -1) { printf("the unmap ran early\n"); return 1; }
    CHECK("set 8", clSetUserEventStatus(u8, CL_COMPLETE));
    CHECK("wait first", clWaitForEvents(1, &fr));
    EXPECT("written back by the unmap", first, 4242);
    cl_event rect_events[] = {u6, wr, cr, rr, u7, mev, u8, uev, fr};
    for (unsigned i = 0; i < sizeof rect_events / sizeof rect_events[0]; i++)
      clReleaseEvent(rect_events[i]);
    clReleaseMemObject(b2);
  }

  /* Errors. */
  EXPECT("set twice", clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_OPERATION);
  EXPECT("set a command's event", clSetUserEventStatus(kev, CL_COMPLETE), CL_INVALID_EVENT);
  cl_event u4 = clCreateUserEvent(c, &e);
  CHECK("user event 4", e);
  EXPECT("set a positive status", clSetUserEventStatus(u4, CL_RUNNING), CL_INVALID_VALUE);
  cl_event nothing = clCreateUserEvent(NULL, &e);
  EXPECT("no context", e, CL_INVALID_CONTEXT);
  if (nothing != NULL) { printf("an event without a context\n"); return 1; }

  /* clEnqueueWaitForEvents (OpenCL 1.1; PoCL 3.1 does not implement it):
   * later commands wait for the user event. */
  if (gpusim) {
    cl_event u5 = clCreateUserEvent(c, &e), r5;
    CHECK("user event 5", e);
    CHECK("enqueue wait", clEnqueueWaitForEvents(q, 1, &u5));
    for (int i = 0; i < N; i++) out[i] = -1;
    CHECK("read 5", clEnqueueReadBuffer(q, b, CL_FALSE, 0, sizeof out, out, 0, NULL, &r5));
    if (status_of(r5) <= CL_COMPLETE || out[0] != -1) { printf("read 5 ran early\n"); return 1; }
    CHECK("set 5", clSetUserEventStatus(u5, CL_COMPLETE));
    CHECK("wait 5", clWaitForEvents(1, &r5));
    if (out[N - 1] != (N - 1) * 3 + 11) { printf("read 5: %d\n", out[N - 1]); return 1; }
    clReleaseEvent(u5);
    clReleaseEvent(r5);
  }

  /* Never set: the wait gives up (gpusim's documented limit). */
  if (gpusim) {
    e = clWaitForEvents(1, &u4);
    EXPECT("waiting for a user event never set", e, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  }
  CHECK("set 4", clSetUserEventStatus(u4, CL_COMPLETE));

  cl_event all[] = {u, w, kev, r, u2, k2, u3, k3, r3, u4};
  for (unsigned i = 0; i < sizeof all / sizeof all[0]; i++) clReleaseEvent(all[i]);
  clReleaseMemObject(b); clReleaseKernel(k); clReleaseProgram(prog);
  clReleaseCommandQueue(q); clReleaseContext(c);
  printf("user events ok\n");
  return 0;
}
