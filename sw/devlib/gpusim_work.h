/*
 * gpusim_work.h - kernel threads create work on a GPU-owned channel
 * (seed 001, method 450), for OpenCL C 2.0 and clang-19:
 *
 *   clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1030 \
 *            -O3 -nogpulib -I sw/devlib -c k.cl
 *
 * The driver (sw/src/driver/gpu_channel.rs, Driver::launch_creating_work)
 * sets up the channel and passes a `__global gpusim_work_queue *` as the
 * parent kernel's first argument; it holds everything a thread needs: the
 * ring, soft and shadow GP_PUT, the per-entry semaphores, a block heap and
 * the table of child kernels. Children that create work get the same pointer
 * through their own arguments. docs/work-creation.md explains the protocol.
 *
 * Creating work, in this order (allocation first, so a refused reservation
 * never leaves a hole in the ring):
 *
 *   gw_block b;                                      // 1. write the blocks
 *   __global uchar *ka = gw_kernarg(wq, CHILD, n, 64);
 *   if (!ka || gw_block_new(wq, &b, GW_DISPATCH_DWORDS) != GW_OK) ...;
 *   *(__global uint *)(ka + 8) = n;                  //    child's explicit args
 *   gw_cmd_dispatch_1d(wq, &b, CHILD, ka, n, 64);
 *   uint first;                                      // 2. reserve N + 1 entries
 *   if (gw_reserve(wq, 1, &first) == GW_OK) {
 *     gw_set_entry(wq, first, &b);                   // 3. point the entries
 *     gw_publish(wq, first, 1);                      // 4. trailing acquire, fence,
 *   }                                                //    release sem[first - 1]
 *   gw_add_pending(wq, n);   // if the child calls gw_done itself
 *   gw_done(wq);             // 5. the last work-item inserts the terminal block
 *
 * Every function returns GW_OK or an error code; nothing here can hang the
 * front end: a refused reservation (GW_ERR_OVERFLOW) or heap allocation
 * (GW_ERR_HEAP) is counted for the driver's report, and the terminal block
 * still finds a slot.
 */
#ifndef GPUSIM_WORK_H
#define GPUSIM_WORK_H

/* Status codes. */
#define GW_OK 0
#define GW_ERR_OVERFLOW 1 /* the reservation reached past shadow GP_PUT */
#define GW_ERR_HEAP 2     /* the block heap is exhausted */
#define GW_ERR_KERNEL 3   /* no such child kernel */
#define GW_ERR_NO_SLOT 4  /* gw_finish found no entry for the terminal block */

/* Command opcodes and sizes (arch::command). */
#define GW_OP_NOP 0x00u
#define GW_OP_DISPATCH 0x01u
#define GW_OP_WAIT_FOR_IDLE 0x02u
#define GW_OP_ACQUIRE 0x03u
#define GW_OP_RELEASE 0x04u
#define GW_COMPARE_EQ 0u
#define GW_COMPARE_GE 1u
#define GW_DISPATCH_DWORDS 17u /* header + the 16-dword HSA packet */
#define GW_TRAILING_BYTES 32ul
#define GW_TERMINAL_BYTES 64ul
#define GW_TERMINAL_DWORDS 15u

/* The work-queue descriptor (byte offsets in gpu_channel.rs, module `wq`). */
typedef struct {
  ulong ring;      /*   0 entry ring: Q x 64-bit entries */
  ulong sems;      /*   8 per-entry semaphores: Q x u32 */
  ulong x;         /*  16 semaphore X */
  ulong y;         /*  24 semaphore Y */
  ulong heap;      /*  32 block heap */
  ulong kernels;   /*  40 gpusim_kernel[kernel_count] */
  ulong trailing;  /*  48 Q trailing-acquire blocks of this launch, 32 bytes each */
  ulong terminal;  /*  56 Q terminal blocks of this launch, 64 bytes each */
  uint q;          /*  64 entries */
  uint epoch;      /*  68 launch number: release payload, acquires compare >= */
  uint soft_put;   /*  72 soft GP_PUT: next entry to hand out (unwrapped) */
  uint shadow_put; /*  76 shadow GP_PUT: the limit (unwrapped) */
  uint heap_size;  /*  80 */
  uint heap_top;   /*  84 bytes handed out */
  uint pending;    /*  88 work-items that have not called gw_done */
  uint overflow_slot;         /*  92 first refused reservation's old + 1 */
  uint overflow_reservations; /*  96 */
  uint overflow_entries;      /* 100 */
  uint heap_failures;         /* 104 */
  uint kernel_count;          /* 108 */
  uint finished;              /* 112 terminal blocks inserted */
  uint g0;                    /* 116 */
  uint reservations;          /* 120 accepted */
  uint entries;               /* 124 accepted entries */
  uint errors;                /* 128 misuse */
  uint terminal_entry;        /* 132 where the terminal block went (unwrapped) */
  uint reserved[6];           /* 136 .. 159 */
} gpusim_work_queue;

/* One child kernel (module `kd`), 64 bytes. */
typedef struct {
  ulong kernel_object;    /*  0 kernel descriptor */
  ulong kernarg_template; /*  8 hidden arguments filled for a 1-D launch */
  uint kernarg_size;      /* 16 bytes, a multiple of 4 */
  int off_block_count;    /* 20 hidden_block_count_x, or -1 */
  int off_group_size;     /* 24 hidden_group_size_x, or -1 */
  int off_remainder;      /* 28 hidden_remainder_x, or -1 */
  int off_grid_dims;      /* 32 hidden_grid_dims, or -1 */
  uint reserved[7];       /* 36 .. 63 */
} gpusim_kernel;

/* A command block being written. */
typedef struct {
  __global uint *p; /* its first dword (in the heap) */
  uint len;         /* dwords written */
  uint cap;         /* dwords allocated */
} gw_block;

typedef __global gpusim_work_queue gw_queue;

/* --- atomics and ordering (device scope) -------------------------------- */

static inline uint gw_atomic_add(volatile __global uint *p, uint v) {
  return __opencl_atomic_fetch_add((volatile __global atomic_uint *)p, v, __ATOMIC_RELAXED,
                                   __OPENCL_MEMORY_SCOPE_DEVICE);
}
static inline uint gw_atomic_load(volatile __global uint *p) {
  return __opencl_atomic_load((volatile __global atomic_uint *)p, __ATOMIC_ACQUIRE,
                              __OPENCL_MEMORY_SCOPE_DEVICE);
}
static inline uint gw_atomic_cmpxchg(volatile __global uint *p, uint expected, uint desired) {
  __opencl_atomic_compare_exchange_strong((volatile __global atomic_uint *)p, &expected, desired,
                                          __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                          __OPENCL_MEMORY_SCOPE_DEVICE);
  return expected;
}
/* Makes every earlier write of this thread visible before the next one: the
 * semaphore release that publishes blocks comes after it. */
static inline void gw_fence(void) { __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent"); }
static inline void gw_store_release(volatile __global uint *p, uint v) {
  __opencl_atomic_store((volatile __global atomic_uint *)p, v, __ATOMIC_RELEASE,
                        __OPENCL_MEMORY_SCOPE_DEVICE);
}

/* wrap() of seed 001 section 3, valid for x in [-q, 2q). */
static inline int gw_wrap(int x, int q) { return x < 0 ? x + q : (x >= q ? x - q : x); }
/* The ring index of an unwrapped entry number. */
static inline uint gw_index(gw_queue *wq, uint entry) { return entry % wq->q; }
/* Address of sem[entry mod Q]. */
static inline ulong gw_sem(gw_queue *wq, uint entry) {
  return wq->sems + 4ul * (ulong)gw_index(wq, entry);
}

/* --- heap ---------------------------------------------------------------- */

/* bytes from the block heap (64-byte aligned), or 0 when it is exhausted. */
static inline __global uint *gw_alloc(gw_queue *wq, uint bytes) {
  uint size = (bytes + 63u) & ~63u;
  uint off = gw_atomic_add(&wq->heap_top, size);
  if (size == 0 || off > wq->heap_size || wq->heap_size - off < size) {
    gw_atomic_add(&wq->heap_failures, 1u);
    return 0;
  }
  return (__global uint *)(wq->heap + off);
}

static inline int gw_block_new(gw_queue *wq, gw_block *b, uint dwords) {
  b->p = gw_alloc(wq, dwords * 4u);
  b->len = 0;
  b->cap = b->p ? dwords : 0;
  return b->p ? GW_OK : GW_ERR_HEAP;
}

static inline void gw_put(gw_block *b, uint v) {
  if (b->len < b->cap)
    b->p[b->len] = v;
  b->len++;
}

/* --- commands (arch::command formats) ------------------------------------ */

static inline void gw_cmd_wait_for_idle(gw_block *b) { gw_put(b, GW_OP_WAIT_FOR_IDLE); }

static inline void gw_cmd_release(gw_block *b, ulong address, uint payload) {
  gw_put(b, GW_OP_RELEASE | (3u << 16));
  gw_put(b, (uint)address);
  gw_put(b, (uint)(address >> 32));
  gw_put(b, payload);
}

static inline void gw_cmd_acquire(gw_block *b, ulong address, uint payload, uint compare) {
  gw_put(b, GW_OP_ACQUIRE | (4u << 16));
  gw_put(b, (uint)address);
  gw_put(b, (uint)(address >> 32));
  gw_put(b, payload);
  gw_put(b, compare);
}

static inline __global const gpusim_kernel *gw_kernel(gw_queue *wq, uint child) {
  if (child >= wq->kernel_count) {
    gw_atomic_add(&wq->errors, 1u);
    return 0;
  }
  return (__global const gpusim_kernel *)wq->kernels + child;
}

/* A kernarg segment for a 1-D launch of child kernel `child` (grid and workgroup in
 * work-items): the driver's template with the hidden arguments set for this
 * geometry. The caller writes its explicit arguments at their offsets.
 * Returns 0 when the heap is exhausted or the kernel does not exist. */
static inline __global uchar *gw_kernarg(gw_queue *wq, uint child, uint grid, uint wg) {
  __global const gpusim_kernel *k = gw_kernel(wq, child);
  if (!k)
    return 0;
  uint size = k->kernarg_size;
  /* 256 bytes of slack: scalar loads may read past the segment's end. */
  __global uint *dst = gw_alloc(wq, size + 256u);
  if (!dst)
    return 0;
  __global const uint *src = (__global const uint *)k->kernarg_template;
  for (uint i = 0; i < size / 4u; i++)
    dst[i] = src[i];
  __global uchar *ka = (__global uchar *)dst;
  if (k->off_block_count >= 0)
    *(__global uint *)(ka + k->off_block_count) = grid / wg;
  if (k->off_group_size >= 0)
    *(__global ushort *)(ka + k->off_group_size) = (ushort)wg;
  if (k->off_remainder >= 0)
    *(__global ushort *)(ka + k->off_remainder) = (ushort)(grid % wg);
  if (k->off_grid_dims >= 0)
    *(__global ushort *)(ka + k->off_grid_dims) = (ushort)1;
  return ka;
}

/* DISPATCH of child kernel `child` over `grid` work-items in workgroups of `wg`
 * (1-D), with the kernarg segment from gw_kernarg. Returns GW_ERR_KERNEL for
 * an unknown child (nothing is written: do not publish the block). */
static inline int gw_cmd_dispatch_1d(gw_queue *wq, gw_block *b, uint child,
                                     __global uchar *kernarg, uint grid, uint wg) {
  __global const gpusim_kernel *k = gw_kernel(wq, child);
  if (!k)
    return GW_ERR_KERNEL;
  ulong object = k->kernel_object;
  ulong args = (ulong)kernarg;
  gw_put(b, GW_OP_DISPATCH | (16u << 16));
  gw_put(b, 2u | (1u << 16)); /* HSA packet type KERNEL_DISPATCH, 1 dimension */
  gw_put(b, (wg & 0xffffu) | (1u << 16));
  gw_put(b, 1u);
  gw_put(b, grid);
  gw_put(b, 1u);
  gw_put(b, 1u);
  gw_put(b, 0u); /* private segment bytes beyond the kernel's own */
  gw_put(b, 0u); /* group segment bytes beyond the kernel's own */
  gw_put(b, (uint)object);
  gw_put(b, (uint)(object >> 32));
  gw_put(b, (uint)args);
  gw_put(b, (uint)(args >> 32));
  gw_put(b, 0u); /* scratch: children have none */
  gw_put(b, 0u);
  gw_put(b, 0u); /* completion signal: none */
  gw_put(b, 0u);
  return GW_OK;
}

/* --- reserve, point, publish, finish ------------------------------------- */

/* Reserves n + 1 consecutive entries (n blocks and one trailing acquire) with
 * one atomic add on soft GP_PUT. Accepted when old + n + 2 <= shadow GP_PUT:
 * the spec's old + n + 1 <= shadow, keeping one more entry for the terminal
 * block. On success *first = old (unwrapped; gw_index gives the slot). */
static inline int gw_reserve(gw_queue *wq, uint n, uint *first) {
  uint want = n + 1u;
  uint old = gw_atomic_add(&wq->soft_put, want);
  uint shadow = wq->shadow_put;
  if (old + want + 1u <= shadow && old + want > old) {
    *first = old;
    gw_atomic_add(&wq->reservations, 1u);
    gw_atomic_add(&wq->entries, want);
    return GW_OK;
  }
  gw_atomic_add(&wq->overflow_reservations, 1u);
  gw_atomic_add(&wq->overflow_entries, want);
  /* The first refused reservation still starts inside the ring: its first
   * entry becomes the terminal block's slot. */
  if (old < shadow)
    gw_atomic_cmpxchg(&wq->overflow_slot, 0u, old + 1u);
  return GW_ERR_OVERFLOW;
}

/* Points entry `entry` (unwrapped) at block b. */
static inline int gw_set_entry(gw_queue *wq, uint entry, const gw_block *b) {
  if (b->len == 0 || b->len > b->cap)
    return GW_ERR_HEAP;
  ulong bits = (ulong)b->p | ((ulong)b->len << 48);
  ((__global ulong *)wq->ring)[gw_index(wq, entry)] = bits;
  return GW_OK;
}

/* Publishes a reservation of n blocks starting at `first` (entries first ..
 * first + n - 1 already point at their blocks): entry first + n gets the
 * trailing acquire on sem[first + n], then, after a release fence, the
 * thread releases sem[first - 1]. */
static inline void gw_publish(gw_queue *wq, uint first, uint n) {
  uint t = gw_index(wq, first + n);
  ulong block = wq->trailing + GW_TRAILING_BYTES * (ulong)t;
  ((__global ulong *)wq->ring)[t] = block | (5ul << 48);
  gw_fence();
  gw_store_release((volatile __global uint *)gw_sem(wq, first + wq->q - 1u), wq->epoch);
}

/* One DISPATCH as its own reservation (allocate, reserve one block, point,
 * publish). `kernarg` comes from gw_kernarg. */
static inline int gw_launch_1d(gw_queue *wq, uint child, __global uchar *kernarg, uint grid,
                               uint wg) {
  gw_block b;
  if (!kernarg)
    return GW_ERR_HEAP;
  if (gw_block_new(wq, &b, GW_DISPATCH_DWORDS) != GW_OK)
    return GW_ERR_HEAP;
  int err = gw_cmd_dispatch_1d(wq, &b, child, kernarg, grid, wg);
  if (err != GW_OK)
    return err;
  uint first;
  err = gw_reserve(wq, 1u, &first);
  if (err != GW_OK)
    return err;
  gw_set_entry(wq, first, &b);
  gw_publish(wq, first, 1u);
  return GW_OK;
}

/* The terminal block [WAIT_FOR_IDLE, release Y, acquire X, acquire sem[t]]
 * (prepared by the driver) in a one-entry reservation, published. Call it
 * exactly once per launch, after every other reservation (gw_done does).
 * Returns GW_ERR_OVERFLOW when it had to take the first refused
 * reservation's slot (the launch still ends cleanly). */
static inline int gw_finish(gw_queue *wq) {
  uint t = gw_atomic_add(&wq->soft_put, 1u);
  int status = GW_OK;
  if (t >= wq->shadow_put) {
    uint slot = gw_atomic_load(&wq->overflow_slot);
    if (slot == 0u) {
      gw_atomic_add(&wq->errors, 1u);
      return GW_ERR_NO_SLOT;
    }
    t = slot - 1u;
    status = GW_ERR_OVERFLOW;
  }
  uint i = gw_index(wq, t);
  ulong block = wq->terminal + GW_TERMINAL_BYTES * (ulong)i;
  ((__global ulong *)wq->ring)[i] = block | ((ulong)GW_TERMINAL_DWORDS << 48);
  gw_atomic_add(&wq->finished, 1u);
  wq->terminal_entry = t;
  gw_fence();
  gw_store_release((volatile __global uint *)gw_sem(wq, t + wq->q - 1u), wq->epoch);
  return status;
}

/* Completion counting: the driver starts `pending` at the parent's work-item
 * count. A thread that launches a child whose work-items will call gw_done
 * adds their count first; every work-item calls gw_done once when it has
 * created all its work. The one that brings the count to zero inserts the
 * terminal block, which is therefore allocated after every other entry. */
static inline void gw_add_pending(gw_queue *wq, uint n) { gw_atomic_add(&wq->pending, n); }

static inline int gw_done(gw_queue *wq) {
  if (gw_atomic_add(&wq->pending, 0xffffffffu) == 1u)
    return gw_finish(wq);
  return GW_OK;
}

#endif /* GPUSIM_WORK_H */
