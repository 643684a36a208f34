// One compare-exchange step (j, k) of a bitonic sort network: element i pairs
// with i ^ j; the direction is ascending when (i & k) == 0.
#include "gpusim_cl.h"

__kernel void bitonic_step(__global uint *data, uint j, uint k) {
  uint i = gs_global_id(0);
  uint ixj = i ^ j;
  if (ixj > i) {
    uint a = data[i];
    uint b = data[ixj];
    bool up = (i & k) == 0;
    if ((a > b) == up) {
      data[i] = b;
      data[ixj] = a;
    }
  }
}
