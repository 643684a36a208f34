/* Rectangular transfers (clEnqueue{Read,Write,Copy}BufferRect) against a
 * host model of the same layout, with pitches, origins and 3D regions, and
 * their bad arguments; on whichever platform the loader finds first
 * (tests/events.rs runs it on gpusim and on PoCL). Prints "rect ok". */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cl_int e_ = (call);                                                        \
    if (e_ != CL_SUCCESS) { printf("line %d: %s: %d\n", __LINE__, #call, e_); return 1; } \
  } while (0)
#define EXPECT(call, want)                                                     \
  do {                                                                         \
    cl_int e_ = (call);                                                        \
    if (e_ != (want)) { printf("line %d: %s: %d, want %d\n", __LINE__, #call, e_, want); return 1; } \
  } while (0)

enum { SIZE = 4096 };

/* The reference: copies a rectangle between two byte arrays. */
static void model(unsigned char *dst, const size_t *dorg, size_t drow, size_t dslice,
                  const unsigned char *src, const size_t *sorg, size_t srow, size_t sslice,
                  const size_t *region) {
  for (size_t z = 0; z < region[2]; z++)
    for (size_t y = 0; y < region[1]; y++)
      memcpy(dst + (dorg[2] + z) * dslice + (dorg[1] + y) * drow + dorg[0],
             src + (sorg[2] + z) * sslice + (sorg[1] + y) * srow + sorg[0], region[0]);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  cl_platform_id p;
  cl_device_id d;
  cl_int e;
  CHECK(clGetPlatformIDs(1, &p, NULL));
  CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  CHECK(e);
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  CHECK(e);
  static unsigned char dev[SIZE], host[SIZE], back[SIZE], want[SIZE];
  for (int i = 0; i < SIZE; i++) dev[i] = (unsigned char)(i * 7 + 3);
  for (int i = 0; i < SIZE; i++) host[i] = (unsigned char)(i * 13 + 1);
  cl_mem a = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, SIZE, dev, &e);
  CHECK(e);
  cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, SIZE, NULL, &e);
  CHECK(e);

  /* Read: a 10x3x2 box of a (row 40, slice 160) into host layout (row 16,
   * slice 64) at an origin. */
  size_t bo[3] = {5, 1, 2}, ho[3] = {2, 0, 1}, region[3] = {10, 3, 2};
  memcpy(back, host, SIZE);
  memcpy(want, host, SIZE);
  CHECK(clEnqueueReadBufferRect(q, a, CL_TRUE, bo, ho, region, 40, 160, 16, 64, back, 0, NULL, NULL));
  model(want, ho, 16, 64, dev, bo, 40, 160, region);
  if (memcmp(back, want, SIZE)) { printf("read rect differs\n"); return 1; }

  /* Write: host box into a, then the whole buffer back. */
  memcpy(want, dev, SIZE);
  CHECK(clEnqueueWriteBufferRect(q, a, CL_TRUE, bo, ho, region, 40, 160, 16, 64, host, 0, NULL, NULL));
  model(want, bo, 40, 160, host, ho, 16, 64, region);
  CHECK(clEnqueueReadBuffer(q, a, CL_TRUE, 0, SIZE, back, 0, NULL, NULL));
  if (memcmp(back, want, SIZE)) { printf("write rect differs\n"); return 1; }

  /* Copy: a box of a into b (tight pitches 0 on the destination). */
  unsigned char zero[SIZE] = {0};
  CHECK(clEnqueueWriteBuffer(q, b, CL_TRUE, 0, SIZE, zero, 0, NULL, NULL));
  size_t so[3] = {3, 2, 1}, dorg[3] = {0, 0, 0}, r2[3] = {7, 4, 3};
  unsigned char ref[SIZE] = {0};
  CHECK(clEnqueueCopyBufferRect(q, a, b, so, dorg, r2, 32, 256, 0, 0, 0, NULL, NULL));
  model(ref, dorg, 7, 28, want, so, 32, 256, r2);
  CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, SIZE, back, 0, NULL, NULL));
  if (memcmp(back, ref, SIZE)) { printf("copy rect differs\n"); return 1; }

  /* Bad arguments. */
  size_t zero_region[3] = {0, 1, 1}, big[3] = {64, 64, 2};
  EXPECT(clEnqueueReadBufferRect(q, a, CL_TRUE, bo, ho, zero_region, 0, 0, 0, 0, back, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT(clEnqueueReadBufferRect(q, a, CL_TRUE, bo, ho, region, 4, 0, 0, 0, back, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT(clEnqueueReadBufferRect(q, a, CL_TRUE, bo, ho, region, 40, 100, 0, 0, back, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT(clEnqueueReadBufferRect(q, a, CL_TRUE, bo, ho, big, 0, 0, 0, 0, back, 0, NULL, NULL), CL_INVALID_VALUE);
  size_t o1[3] = {0, 0, 0}, o2[3] = {4, 0, 0}, r3[3] = {8, 2, 1};
  EXPECT(clEnqueueCopyBufferRect(q, a, a, o1, o2, r3, 16, 32, 16, 32, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  size_t o3[3] = {8, 0, 0};
  CHECK(clEnqueueCopyBufferRect(q, a, a, o1, o3, r3, 16, 32, 16, 32, 0, NULL, NULL));

  CHECK(clReleaseMemObject(a));
  CHECK(clReleaseMemObject(b));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(c));
  printf("rect ok\n");
  return 0;
}
