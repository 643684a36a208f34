// Predefined macros of clang-19 for -cl-std=CL2.0 gfx1030 (values written
// out so the test compares them with clang's).
#include "gpusim_cl.h"

kernel void predefined(global int *o) {
  uint i = gs_global_id(0);
  if (i != 0)
    return;
  // clang defines no __OPENCL_VERSION__ (OpenCL runtimes pass it); gpusim
  // defines it as a runtime would, so it is not compared here.
  o[0] = __SIZEOF_POINTER__ + __SIZEOF_INT__ * 10;
  o[1] = __OPENCL_C_VERSION__;
  o[2] = CL_VERSION_1_0 + CL_VERSION_1_1 + CL_VERSION_1_2 + CL_VERSION_2_0;
#if defined(__AMDGCN__) && defined(__AMDGPU__) && defined(__gfx1030__)
  o[3] = 1;
#endif
#if defined(__ENDIAN_LITTLE__) && defined(FP_FAST_FMAF) && defined(FP_FAST_FMA)
  o[4] = 1;
#endif
#if defined(cl_khr_fp64) && defined(cl_khr_int64_base_atomics) && defined(cl_khr_fp16)
  o[5] = 1;
#endif
#if defined(__IMAGE_SUPPORT__)
  o[6] = 1;
#endif
  o[7] = __OPENCL_C_VERSION__ >= CL_VERSION_2_0;
#ifdef __FAST_RELAXED_MATH__
  o[8] = 1;
#endif
  o[9] = sizeof(size_t) + sizeof(void *) * 10 + sizeof(double) * 100;
#ifdef __SPIR__
  o[10] = 1;
#endif
  o[11] = __CHAR_BIT__ + __SIZEOF_LONG__ * 100;
}
