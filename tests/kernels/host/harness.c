/*
 * Host-CPU execution harness for the corpus kernels (test-only).
 *
 * The kernels are compiled for the host with clang-19 -x cl (gpusim_cl.h
 * then routes work-item ids, sizes, barriers and cross-lane reads to the
 * gs_host_* functions below). Work-groups run one after another; the
 * work-items of a group run as POSIX threads sharing a pthread barrier, so
 * barrier and LDS semantics (static __local variables become shared
 * globals) hold. Waves are modelled as 64 consecutive work-items.
 *
 * A small generated driver (see tests/tests/corpus/host.rs) loads the
 * argument buffers, calls gs_host_run and writes the buffers back.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned g_grid[3], g_local[3], g_group[3];
static void (*g_item)(void);
static pthread_barrier_t g_barrier;
static int *g_exchange;
static __thread unsigned t_local[3];

unsigned gs_host_local_id(unsigned d) { return d < 3 ? t_local[d] : 0; }
unsigned gs_host_group_id(unsigned d) { return d < 3 ? g_group[d] : 0; }
unsigned gs_host_local_size(unsigned d) { return d < 3 ? g_local[d] : 1; }
unsigned gs_host_global_size(unsigned d) { return d < 3 ? g_grid[d] : 1; }
void gs_host_barrier(void) { pthread_barrier_wait(&g_barrier); }

static unsigned linear_id(void) {
  return (t_local[2] * g_local[1] + t_local[1]) * g_local[0] + t_local[0];
}

int gs_host_bpermute(int addr, int v) {
  unsigned me = linear_id();
  g_exchange[me] = v;
  pthread_barrier_wait(&g_barrier);
  unsigned src = me - me % 64 + ((unsigned)addr / 4) % 64;
  int r = g_exchange[src];
  pthread_barrier_wait(&g_barrier);
  return r;
}

static void *work_item(void *arg) {
  unsigned id = (unsigned)(size_t)arg;
  t_local[0] = id % g_local[0];
  t_local[1] = id / g_local[0] % g_local[1];
  t_local[2] = id / (g_local[0] * g_local[1]);
  g_item();
  return NULL;
}

void gs_host_run(const unsigned grid[3], const unsigned local[3], void (*item)(void)) {
  memcpy(g_grid, grid, sizeof g_grid);
  memcpy(g_local, local, sizeof g_local);
  g_item = item;
  unsigned n = local[0] * local[1] * local[2];
  pthread_t *threads = calloc(n, sizeof *threads);
  g_exchange = calloc(n, sizeof *g_exchange);
  if (!threads || !g_exchange) {
    fprintf(stderr, "harness: out of memory\n");
    exit(2);
  }
  for (g_group[2] = 0; g_group[2] < grid[2] / local[2]; g_group[2]++)
    for (g_group[1] = 0; g_group[1] < grid[1] / local[1]; g_group[1]++)
      for (g_group[0] = 0; g_group[0] < grid[0] / local[0]; g_group[0]++) {
        pthread_barrier_init(&g_barrier, NULL, n);
        for (unsigned i = 0; i < n; i++)
          if (pthread_create(&threads[i], NULL, work_item, (void *)(size_t)i) != 0) {
            fprintf(stderr, "harness: pthread_create failed\n");
            exit(2);
          }
        for (unsigned i = 0; i < n; i++)
          pthread_join(threads[i], NULL);
        pthread_barrier_destroy(&g_barrier);
      }
  free(threads);
  free(g_exchange);
}

static char *arg_path(const char *dir, int index) {
  static char path[4096];
  snprintf(path, sizeof path, "%s/arg%d.bin", dir, index);
  return path;
}

void *gs_host_load(const char *dir, int index, size_t *bytes) {
  FILE *f = fopen(arg_path(dir, index), "rb");
  if (!f) {
    fprintf(stderr, "harness: cannot open %s\n", arg_path(dir, index));
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  *bytes = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  /* Slack so a wrong index in a kernel does not corrupt the heap silently. */
  char *p = calloc(*bytes + 64, 1);
  if (!p || fread(p, 1, *bytes, f) != *bytes) {
    fprintf(stderr, "harness: cannot read %s\n", arg_path(dir, index));
    exit(2);
  }
  fclose(f);
  return p;
}

void gs_host_save(const char *dir, int index, const void *p, size_t bytes) {
  FILE *f = fopen(arg_path(dir, index), "wb");
  if (!f || fwrite(p, 1, bytes, f) != bytes) {
    fprintf(stderr, "harness: cannot write %s\n", arg_path(dir, index));
    exit(2);
  }
  fclose(f);
}
