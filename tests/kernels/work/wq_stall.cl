// A faulty parent for the deadlock report (not in the work registry):
// work-item 0 reserves one entry and never publishes it, so the front end
// waits at g0 for sem[g0] forever; the last work-item still inserts the
// terminal block behind the stalled reservation. `gpusim run` must report the
// blocked channels, entries and semaphores and exit 3, never hang.
#include "gpusim_cl.h"
#include "gpusim_work.h"

__kernel void wq_stall(gw_queue *wq) {
  if (gs_global_id(0) == 0) {
    uint first;
    gw_reserve(wq, 0u, &first); /* ... and no gw_publish */
  }
  gw_done(wq);
}
