/* What a program learns about a kernel and a buffer besides running them
 * (found missing by the Khronos conformance tests' test_api):
 * CL_KERNEL_ATTRIBUTES and CL_KERNEL_COMPILE_WORK_GROUP_SIZE from the
 * kernel's attributes; on gpusim a NULL local size takes
 * reqd_work_group_size (OpenCL 2.1's rule, AMD's runtime's behaviour; PoCL
 * keeps OpenCL 1.2's CL_INVALID_WORK_GROUP_SIZE, checked as such), and
 * another local size is CL_INVALID_WORK_GROUP_SIZE; clGetKernelArgInfo
 * (address and type qualifiers, type names, names, the errors);
 * CL_KERNEL_LOCAL_MEM_SIZE counts the __local arguments set;
 * clSetMemObjectDestructorCallback runs the callbacks at the last
 * release, newest first; the device has a linker. Runs on gpusim and on
 * PoCL. */
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
    printf("%s: %ld, expected %ld\n", what, (long)(got), (long)(want));       \
    return 1;                                                                 \
  }

static const char *src =
    "__kernel __attribute__((reqd_work_group_size(8, 2, 1)))\n"
    "__attribute__((vec_type_hint(uint4)))\n"
    "void sizes(__global uint *out) {\n"
    "  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "  out[2 * i] = get_local_size(0);\n"
    "  out[2 * i + 1] = get_local_size(1);\n"
    "}\n"
    "__kernel void args(__global int *o, const __global float *a,\n"
    "                   volatile __global uint *restrict r, __constant int *c,\n"
    "                   __local float4 *l, const float4 v) {\n"
    "  l[get_local_id(0)] = v;\n"
    "  o[0] = (int)a[0] + (int)r[0] + c[0] + (int)l[0].x;\n"
    "}\n";

static int order[2], calls;
static void CL_CALLBACK gone(cl_mem m, void *data) {
  (void)m;
  if (calls < 2)
    order[calls] = (int)(size_t)data;
  calls++;
}

int main(void) {
  cl_platform_id p;
  cl_device_id d;
  cl_int e = clGetPlatformIDs(1, &p, NULL);
  CHECK("clGetPlatformIDs", e);
  e = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL);
  CHECK("clGetDeviceIDs", e);
  char platform[64] = "";
  clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof platform, platform, NULL);
  int pocl = strstr(platform, "Portable") != NULL || strstr(platform, "pocl") != NULL;
  cl_bool linker = CL_FALSE;
  e = clGetDeviceInfo(d, CL_DEVICE_LINKER_AVAILABLE, sizeof linker, &linker, NULL);
  CHECK("CL_DEVICE_LINKER_AVAILABLE", e);
  EXPECT("linker available", linker, CL_TRUE);
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  CHECK("clCreateContext", e);
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  CHECK("clCreateCommandQueue", e);
  cl_program prog = clCreateProgramWithSource(c, 1, &src, NULL, &e);
  CHECK("clCreateProgramWithSource", e);
  e = clBuildProgram(prog, 1, &d, "-cl-kernel-arg-info", NULL, NULL);
  if (e != CL_SUCCESS) {
    char log[4096] = "";
    clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    printf("build: %d\n%s\n", (int)e, log);
    return 1;
  }

  /* The attributes. */
  cl_kernel k = clCreateKernel(prog, "sizes", &e);
  CHECK("clCreateKernel sizes", e);
  char attrs[256] = "";
  e = clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL);
  CHECK("CL_KERNEL_ATTRIBUTES", e);
  {
    /* Spaces are the implementation's choice; compare without them. */
    char packed[256];
    size_t n = 0;
    for (const char *s = attrs; *s && n + 1 < sizeof packed; s++)
      if (*s != ' ')
        packed[n++] = *s;
    packed[n] = 0;
    if (!strstr(packed, "reqd_work_group_size(8,2,1)") ||
        !strstr(packed, "vec_type_hint(uint4)")) {
      printf("CL_KERNEL_ATTRIBUTES: '%s'\n", attrs);
      return 1;
    }
  }
  size_t compiled[3] = {0, 0, 0};
  e = clGetKernelWorkGroupInfo(k, d, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compiled,
                               compiled, NULL);
  CHECK("CL_KERNEL_COMPILE_WORK_GROUP_SIZE", e);
  EXPECT("compile size x", compiled[0], 8);
  EXPECT("compile size y", compiled[1], 2);
  EXPECT("compile size z", compiled[2], 1);

  /* A NULL local size is the required one; another is refused. */
  size_t global[2] = {16, 4};
  cl_uint out[2 * 16 * 4];
  cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof out, NULL, &e);
  CHECK("clCreateBuffer", e);
  e = clSetKernelArg(k, 0, sizeof b, &b);
  CHECK("clSetKernelArg", e);
  e = clEnqueueNDRangeKernel(q, k, 2, NULL, global, pocl ? compiled : NULL, 0, NULL, NULL);
  CHECK("NDRange with a NULL local size", e);
  if (pocl) {
    e = clEnqueueNDRangeKernel(q, k, 2, NULL, global, NULL, 0, NULL, NULL);
    EXPECT("OpenCL 1.2: a NULL local size with reqd_work_group_size", e,
           CL_INVALID_WORK_GROUP_SIZE);
  }
  e = clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
  CHECK("clEnqueueReadBuffer", e);
  for (int i = 0; i < 16 * 4; i++) {
    EXPECT("get_local_size(0)", out[2 * i], 8);
    EXPECT("get_local_size(1)", out[2 * i + 1], 2);
  }
  size_t other[2] = {4, 2};
  e = clEnqueueNDRangeKernel(q, k, 2, NULL, global, other, 0, NULL, NULL);
  EXPECT("a local size other than the required one", e, CL_INVALID_WORK_GROUP_SIZE);

  /* Argument information. */
  cl_kernel a = clCreateKernel(prog, "args", &e);
  CHECK("clCreateKernel args", e);
  static const struct {
    const char *name, *type;
    cl_kernel_arg_address_qualifier space;
    cl_kernel_arg_type_qualifier qual;
  } want[6] = {
      {"o", "int*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_NONE},
      {"a", "float*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_CONST},
      {"r", "uint*", CL_KERNEL_ARG_ADDRESS_GLOBAL,
       CL_KERNEL_ARG_TYPE_VOLATILE | CL_KERNEL_ARG_TYPE_RESTRICT},
      {"c", "int*", CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_TYPE_CONST},
      {"l", "float4*", CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_TYPE_NONE},
      {"v", "float4", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE},
  };
  for (cl_uint i = 0; i < 6; i++) {
    char name[64] = "", type[64] = "";
    cl_kernel_arg_address_qualifier space = 0;
    cl_kernel_arg_access_qualifier access = 0;
    cl_kernel_arg_type_qualifier qual = 99;
    e = clGetKernelArgInfo(a, i, CL_KERNEL_ARG_NAME, sizeof name, name, NULL);
    CHECK("CL_KERNEL_ARG_NAME", e);
    e = clGetKernelArgInfo(a, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL);
    CHECK("CL_KERNEL_ARG_TYPE_NAME", e);
    e = clGetKernelArgInfo(a, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof space, &space, NULL);
    CHECK("CL_KERNEL_ARG_ADDRESS_QUALIFIER", e);
    e = clGetKernelArgInfo(a, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access, NULL);
    CHECK("CL_KERNEL_ARG_ACCESS_QUALIFIER", e);
    e = clGetKernelArgInfo(a, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof qual, &qual, NULL);
    CHECK("CL_KERNEL_ARG_TYPE_QUALIFIER", e);
    if (strcmp(name, want[i].name) || strcmp(type, want[i].type)) {
      printf("argument %u: '%s' of type '%s', expected '%s' of type '%s'\n", i, name, type,
             want[i].name, want[i].type);
      return 1;
    }
    EXPECT("address qualifier", space, want[i].space);
    EXPECT("access qualifier", access, CL_KERNEL_ARG_ACCESS_NONE);
    EXPECT("type qualifier", qual, want[i].qual);
  }
  char name[64];
  e = clGetKernelArgInfo(a, 6, CL_KERNEL_ARG_NAME, sizeof name, name, NULL);
  EXPECT("an argument index past the last", e, CL_INVALID_ARG_INDEX);
  e = clGetKernelArgInfo(a, 0, 0x4242, sizeof name, name, NULL);
  EXPECT("an unknown query", e, CL_INVALID_VALUE);
  e = clGetKernelArgInfo(NULL, 0, CL_KERNEL_ARG_NAME, sizeof name, name, NULL);
  EXPECT("a null kernel", e, CL_INVALID_KERNEL);

  /* Local memory: at least what the __local argument asks for. */
  e = clSetKernelArg(a, 4, 4096, NULL);
  CHECK("clSetKernelArg __local", e);
  cl_ulong local = 0;
  e = clGetKernelWorkGroupInfo(a, d, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
  CHECK("CL_KERNEL_LOCAL_MEM_SIZE", e);
  if (local < 4096) {
    printf("CL_KERNEL_LOCAL_MEM_SIZE %lu with a 4096-byte __local argument\n",
           (unsigned long)local);
    return 1;
  }

  /* Destructor callbacks: at the last release, newest first. */
  cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, 64, NULL, &e);
  CHECK("clCreateBuffer", e);
  e = clSetMemObjectDestructorCallback(m, gone, (void *)1);
  CHECK("clSetMemObjectDestructorCallback", e);
  e = clSetMemObjectDestructorCallback(m, gone, (void *)2);
  CHECK("clSetMemObjectDestructorCallback", e);
  e = clSetMemObjectDestructorCallback(m, NULL, NULL);
  EXPECT("a null callback", e, CL_INVALID_VALUE);
  clRetainMemObject(m);
  clReleaseMemObject(m);
  EXPECT("callbacks before the last release", calls, 0);
  clReleaseMemObject(m);
  clFinish(q);
  EXPECT("callbacks after the last release", calls, 2);
  EXPECT("first callback run", order[0], 2);
  EXPECT("second callback run", order[1], 1);

  clReleaseMemObject(b);
  clReleaseKernel(a);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(c);
  printf("kernel info ok\n");
  return 0;
}
