/* Global work offsets in clEnqueueNDRangeKernel: 1, 2 and 3 dimensions,
 * with and without a local size. argv[1] is the kernel (offset.cl): OpenCL C
 * source (built by the platform) or a code object (*.hsaco, clang-19's: its
 * get_global_id adds hidden_global_offset_{x,y,z}). Every work-item writes
 * its global id into a grid, so an id not shifted by the offset lands in the
 * wrong cell; the cells outside the offset range must stay zero.
 * With a second argument `plain`, a source kernel that never calls
 * get_global_offset runs with offsets; with a third, a code object of that
 * kernel without the hidden offsets (gpusim's compiler, by default) must be
 * refused a non-zero offset (CL_INVALID_GLOBAL_OFFSET) and still run with an
 * all-zero one. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(what, e)                                                        \
  if ((e) != CL_SUCCESS) {                                                    \
    printf("%s: %d\n", what, (int)(e));                                       \
    return 1;                                                                 \
  }

enum { W = 32, H = 8, D = 8 };
static cl_uint grid[W * H * D];

static cl_context c;
static cl_command_queue q;
static cl_kernel k;
static cl_mem bout, boffs;

/* One dispatch of `dim` dimensions; 0 when every cell and the recorded
 * offsets are right. */
static int run(cl_uint dim, const size_t *off, const size_t *global, const size_t *local) {
  cl_int e;
  memset(grid, 0, sizeof grid);
  cl_ulong offs[4] = {99, 99, 99, 99};
  CHECK("clear", clEnqueueWriteBuffer(q, bout, CL_TRUE, 0, sizeof grid, grid, 0, NULL, NULL));
  CHECK("clear offs", clEnqueueWriteBuffer(q, boffs, CL_TRUE, 0, sizeof offs, offs, 0, NULL, NULL));
  CHECK("ndrange", clEnqueueNDRangeKernel(q, k, dim, off, global, local, 0, NULL, NULL));
  CHECK("read", clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof grid, grid, 0, NULL, NULL));
  CHECK("read offs", clEnqueueReadBuffer(q, boffs, CL_TRUE, 0, sizeof offs, offs, 0, NULL, NULL));
  size_t lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  for (cl_uint i = 0; i < dim; i++) { lo[i] = off[i]; hi[i] = off[i] + global[i]; }
  for (cl_uint i = dim; i < 3; i++) hi[i] = 1;
  for (size_t z = 0; z < D; z++)
    for (size_t y = 0; y < H; y++)
      for (size_t x = 0; x < W; x++) {
        int in = x >= lo[0] && x < hi[0] && y >= lo[1] && y < hi[1] && z >= lo[2] && z < hi[2];
        cl_uint want = in ? (cl_uint)(1 + x + 100 * y + 10000 * z) : 0;
        cl_uint got = grid[(z * H + y) * W + x];
        if (got != want) {
          printf("%u-D: cell (%zu,%zu,%zu) = %u, expected %u\n", dim, x, y, z, got, want);
          return 1;
        }
      }
  for (cl_uint i = 0; i < 3; i++) {
    if (offs[i] != (cl_ulong)lo[i]) {
      printf("%u-D: get_global_offset(%u) = %llu, expected %zu\n", dim, i,
             (unsigned long long)offs[i], lo[i]);
      return 1;
    }
  }
  if (offs[3] != dim) {
    printf("%u-D: get_work_dim() = %llu\n", dim, (unsigned long long)offs[3]);
    return 1;
  }
  return 0;
}

static cl_program load(const char *path, cl_device_id d, cl_int *e) {
  FILE *f = fopen(path, "rb");
  if (!f) { printf("cannot open %s\n", path); exit(2); }
  static char text[1 << 20];
  size_t len = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[len] = 0;
  size_t n = strlen(path);
  if (n > 6 && strcmp(path + n - 6, ".hsaco") == 0) {
    const unsigned char *bin = (const unsigned char *)text;
    return clCreateProgramWithBinary(c, 1, &d, &len, &bin, NULL, e);
  }
  const char *src = text;
  return clCreateProgramWithSource(c, 1, &src, NULL, e);
}

int main(int argc, char **argv) {
  if (argc < 2) { printf("usage: offset offset.cl|offset.hsaco [plain [plain.hsaco]]\n"); return 2; }
  cl_platform_id p; cl_device_id d; cl_int e;
  CHECK("platform", clGetPlatformIDs(1, &p, NULL));
  CHECK("device", clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
  c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  CHECK("context", e);
  q = clCreateCommandQueue(c, d, 0, &e);
  CHECK("queue", e);
  bout = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof grid, NULL, &e);
  CHECK("out", e);
  boffs = clCreateBuffer(c, CL_MEM_READ_WRITE, 4 * sizeof(cl_ulong), NULL, &e);
  CHECK("offs", e);
  cl_uint w = W, h = H;

  if (argc > 2 && strcmp(argv[2], "plain") == 0) {
    /* A source kernel that never calls get_global_offset: its ids still
     * start at the offset (gpusim builds it again with the hidden offsets
     * on first need). */
    const char *src =
        "__kernel void ids(__global uint *out, __global ulong *offs, uint w, uint h) {\n"
        "  size_t x = get_global_id(0);\n"
        "  out[x] = (uint)(1 + x);\n"
        "}\n";
    cl_program prog = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    CHECK("program", e);
    CHECK("build", clBuildProgram(prog, 1, &d, "", NULL, NULL));
    k = clCreateKernel(prog, "ids", &e);
    CHECK("kernel", e);
    CHECK("arg 0", clSetKernelArg(k, 0, sizeof bout, &bout));
    CHECK("arg 1", clSetKernelArg(k, 1, sizeof boffs, &boffs));
    CHECK("arg 2", clSetKernelArg(k, 2, sizeof w, &w));
    CHECK("arg 3", clSetKernelArg(k, 3, sizeof h, &h));
    for (int round = 0; round < 3; round++) {
      /* An offset, none, and the offset again (the variant is kept). */
      size_t off = round == 1 ? 0 : 4 + round, global = 8;
      memset(grid, 0, sizeof grid);
      CHECK("clear", clEnqueueWriteBuffer(q, bout, CL_TRUE, 0, sizeof grid, grid, 0, NULL, NULL));
      CHECK("ndrange", clEnqueueNDRangeKernel(q, k, 1, &off, &global, NULL, 0, NULL, NULL));
      CHECK("read", clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof grid, grid, 0, NULL, NULL));
      for (size_t x = 0; x < W * H * D; x++) {
        cl_uint want = x >= off && x < off + global ? (cl_uint)(1 + x) : 0;
        if (grid[x] != want) {
          printf("plain, offset %zu: cell %zu = %u, expected %u\n", off, x, grid[x], want);
          return 1;
        }
      }
    }
    if (argc > 3) {
      /* The same kernel as a binary without the hidden offsets: nothing to
       * rebuild it from, so a non-zero offset is refused. */
      clReleaseKernel(k);
      cl_program bin = load(argv[3], d, &e);
      CHECK("binary program", e);
      CHECK("binary build", clBuildProgram(bin, 1, &d, "", NULL, NULL));
      k = clCreateKernel(bin, "ids", &e);
      CHECK("binary kernel", e);
      CHECK("arg 0", clSetKernelArg(k, 0, sizeof bout, &bout));
      CHECK("arg 1", clSetKernelArg(k, 1, sizeof boffs, &boffs));
      CHECK("arg 2", clSetKernelArg(k, 2, sizeof w, &w));
      CHECK("arg 3", clSetKernelArg(k, 3, sizeof h, &h));
      size_t off = 4, zero = 0, global = 8;
      e = clEnqueueNDRangeKernel(q, k, 1, &off, &global, NULL, 0, NULL, NULL);
      if (e != CL_INVALID_GLOBAL_OFFSET) { printf("refuse: %d\n", (int)e); return 1; }
      CHECK("zero offset", clEnqueueNDRangeKernel(q, k, 1, &zero, &global, NULL, 0, NULL, NULL));
      printf("offset refusal ok\n");
    }
    CHECK("finish", clFinish(q));
    printf("offset plain ok\n");
    return 0;
  }

  cl_program prog = load(argv[1], d, &e);
  CHECK("program", e);
  CHECK("build", clBuildProgram(prog, 1, &d, "", NULL, NULL));
  k = clCreateKernel(prog, "ids", &e);
  CHECK("kernel", e);
  CHECK("arg 0", clSetKernelArg(k, 0, sizeof bout, &bout));
  CHECK("arg 1", clSetKernelArg(k, 1, sizeof boffs, &boffs));
  CHECK("arg 2", clSetKernelArg(k, 2, sizeof w, &w));
  CHECK("arg 3", clSetKernelArg(k, 3, sizeof h, &h));

  size_t o1[1] = {5}, g1[1] = {16}, l1[1] = {4};
  size_t o2[2] = {3, 2}, g2[2] = {8, 4}, l2[2] = {4, 2};
  size_t o3[3] = {1, 2, 3}, g3[3] = {4, 2, 4}, l3[3] = {2, 1, 2};
  size_t z3[3] = {0, 0, 0};
  if (run(1, o1, g1, l1) || run(2, o2, g2, l2) || run(3, o3, g3, l3)) return 1;
  /* No local size: the platform chooses one; and a zero offset. */
  if (run(1, o1, g1, NULL) || run(3, z3, g3, NULL)) return 1;
  /* get_work_dim is the enqueue's work_dim, also with a size of 1 above x. */
  size_t g2b[2] = {8, 1}, g3b[3] = {4, 1, 1};
  if (run(2, o2, g2b, NULL) || run(3, o3, g3b, NULL)) return 1;
  /* An offset whose sum with the size overflows a size_t: the
   * specification's CL_INVALID_GLOBAL_OFFSET (PoCL 3.1 does not check it). */
  char name[256] = "";
  clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, NULL);
  if (!strstr(name, "Portable Computing Language")) {
    size_t huge[1] = {(size_t)-8};
    e = clEnqueueNDRangeKernel(q, k, 1, huge, g1, NULL, 0, NULL, NULL);
    if (e != CL_INVALID_GLOBAL_OFFSET) { printf("overflowing offset: %d\n", (int)e); return 1; }
  }
  CHECK("finish", clFinish(q));
  clReleaseMemObject(bout); clReleaseMemObject(boffs); clReleaseKernel(k);
  clReleaseProgram(prog); clReleaseCommandQueue(q); clReleaseContext(c);
  printf("offset ok\n");
  return 0;
}
