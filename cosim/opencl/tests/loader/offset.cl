/* Global work offsets (tests/loader/offset.c): every work-item marks its
 * global id in a W x H x D grid; the one at the offset records what
 * get_global_offset and get_work_dim return. */
__kernel void ids(__global uint *out, __global ulong *offs, uint w, uint h) {
  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  out[(z * h + y) * w + x] = (uint)(1 + x + 100 * y + 10000 * z);
  if (x == get_global_offset(0) && y == get_global_offset(1) && z == get_global_offset(2)) {
    offs[0] = get_global_offset(0);
    offs[1] = get_global_offset(1);
    offs[2] = get_global_offset(2);
    offs[3] = get_work_dim();
  }
}
