// Prefix sums of groups of 256 by work_group_scan_inclusive_add, and the
// group totals by work_group_reduce_add.
__kernel void k(__global const uint *in, __global uint *out, __global uint *totals) {
  uint v = in[get_global_id(0)];
  out[get_global_id(0)] = work_group_scan_inclusive_add(v);
  uint t = work_group_reduce_add(v);
  if (get_local_id(0) == 0) totals[get_group_id(0)] = t;
}
