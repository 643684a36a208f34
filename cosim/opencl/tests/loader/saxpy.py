# An unchanged PyOpenCL program: builds saxpy from source, runs it on 1000
# elements and checks y = 2x + 1 (cosim/opencl/tests/loader.rs runs it).
import numpy as np
import pyopencl as cl
ctx = cl.create_some_context(interactive=False)
q = cl.CommandQueue(ctx)
n = 1000
x = np.arange(n, dtype=np.float32)
y = np.ones(n, dtype=np.float32)
mf = cl.mem_flags
bx = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
by = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=y)
prg = cl.Program(ctx, """
__kernel void saxpy(uint n, float a, __global const float *x, __global float *y) {
  uint i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}""").build()
prg.saxpy(q, (1024,), (64,), np.uint32(n), np.float32(2.0), bx, by)
out = np.empty_like(y)
cl.enqueue_copy(q, out, by)
assert (out == 2 * x + 1).all(), out[:8]
print("pyopencl saxpy ok on", ctx.devices[0].name, ctx.devices[0].platform.name)
