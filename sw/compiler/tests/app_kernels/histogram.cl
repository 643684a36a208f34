// 64-bin histogram: atomic_inc in local memory, then one atomic_add per
// bin and group into the global bins.
__kernel void k(__global const uint *data, __global uint *bins) {
  __local uint h[64];
  int lid = get_local_id(0);
  if (lid < 64) h[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&h[data[get_global_id(0)] & 63u]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 64) atomic_add(&bins[lid], h[lid]);
}
