/* gnn-cpu-parallel.c: gnn's thread pool and the strided elementwise driver
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>
#include <cblas.h>

#include "gnn-cpu-private.h"

/* A small fork-join pool: the caller runs chunk 0, workers the rest. A job is published
 * under a mutex with a generation number; workers sleep on a condition variable. */
typedef struct {
  GMutex lock;
  GCond work_cond;
  GCond done_cond;
  guint generation;
  int n_workers;           /* threads besides the caller */
  int pending;
  GnnParallelFunc func;
  gpointer ctx;
  gint64 n, chunk;
  int n_chunks;
  int next_chunk;
  gboolean started;
} Pool;

static Pool pool = { 0 };

/* Iterations a thread polls for the next job (a worker) or the end of one (the caller)
 * before it sleeps on the condition variable: a training step is many short parallel ops,
 * and a futex sleep and wake-up between each cost more than the ops themselves. About
 * 50 µs, after which an idle worker sleeps and leaves the core to others. */
#define SPIN_ITERATIONS 2000

static inline void
cpu_relax (void)
{
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause ();
#elif defined(__aarch64__)
  __asm__ __volatile__ ("yield");
#endif
}
static int num_threads = 0;  /* 0: not yet decided */
static GMutex config_lock;
static __thread gboolean in_worker;

static void
run_chunks (void)
{
  for (;;)
    {
      int c;
      gint64 b, e;
      GnnParallelFunc func;
      gpointer ctx;

      g_mutex_lock (&pool.lock);
      if (pool.next_chunk >= pool.n_chunks)
        {
          g_mutex_unlock (&pool.lock);
          return;
        }
      c = pool.next_chunk++;
      func = pool.func;
      ctx = pool.ctx;
      b = c * pool.chunk;
      e = MIN (pool.n, b + pool.chunk);
      g_mutex_unlock (&pool.lock);
      func (ctx, b, e);
      g_mutex_lock (&pool.lock);
      if (--pool.pending == 0)
        g_cond_broadcast (&pool.done_cond);
      g_mutex_unlock (&pool.lock);
    }
}

static gpointer
worker_main (gpointer data)
{
  guint seen = 0;

  in_worker = TRUE;
  for (;;)
    {
      /* a hint read outside the lock; the job itself is read under it below */
      for (int i = 0; i < SPIN_ITERATIONS && (guint) g_atomic_int_get ((gint *) &pool.generation) == seen; i++)
        cpu_relax ();
      g_mutex_lock (&pool.lock);
      while (pool.generation == seen)
        g_cond_wait (&pool.work_cond, &pool.lock);
      seen = pool.generation;
      g_mutex_unlock (&pool.lock);
      run_chunks ();
    }
  return NULL;
}

static int
default_threads (void)
{
  const char *env = g_getenv ("GNN_NUM_THREADS");
  int n = env ? atoi (env) : 0;
  if (n <= 0)
    n = (int) g_get_num_processors ();
  return CLAMP (n, 1, 256);
}

static void
ensure_workers (int wanted_workers)
{
  /* workers are started once and never stopped; more may be added later */
  while (pool.n_workers < wanted_workers)
    {
      GThread *t = g_thread_new ("gnn-worker", worker_main, NULL);
      g_thread_unref (t);
      pool.n_workers++;
    }
}

/**
 * gnn_set_num_threads:
 * @n: the number of threads, at least 1
 *
 * Sets how many threads gnn's CPU kernels use (`torch.set_num_threads`), matrix products
 * included: OpenBLAS runs single-threaded inside gnn's threads, which split a batch of
 * products, or the rows of one. The default is the environment variable `GNN_NUM_THREADS`,
 * or the number of processors.
 * Reductions give the same bits for the same thread count. Callbacks and hooks always run on
 * the calling thread.
 *
 * MT safe.
 */
void
gnn_set_num_threads (int n)
{
  g_return_if_fail (n >= 1);
  g_mutex_lock (&config_lock);
  num_threads = MIN (n, 256);
  openblas_set_num_threads (1);
  g_mutex_unlock (&config_lock);
}

/**
 * gnn_get_num_threads:
 *
 * Returns how many threads gnn's CPU kernels use.
 *
 * Returns: how many threads gnn's CPU kernels use
 *
 * MT safe.
 */
int
gnn_get_num_threads (void)
{
  int n;

  g_mutex_lock (&config_lock);
  if (num_threads == 0)
    {
      num_threads = default_threads ();
      openblas_set_num_threads (1);
    }
  n = num_threads;
  g_mutex_unlock (&config_lock);
  return n;
}

static GMutex dispatch_lock;

void
gnn_parallel_for (gint64          n,
                  gint64          grain,
                  GnnParallelFunc func,
                  gpointer        ctx)
{
  int threads;
  int n_chunks;

  if (n <= 0)
    return;
  threads = gnn_get_num_threads ();
  grain = MAX (grain, 1);
  n_chunks = (int) MIN ((gint64) threads, (n + grain - 1) / grain);
  /* nested calls, one thread, or another dispatch already running: run here */
  if (n_chunks <= 1 || in_worker || !g_mutex_trylock (&dispatch_lock))
    {
      func (ctx, 0, n);
      return;
    }
  g_mutex_lock (&pool.lock);
  ensure_workers (threads - 1);
  pool.func = func;
  pool.ctx = ctx;
  pool.n = n;
  pool.chunk = (n + n_chunks - 1) / n_chunks;
  pool.n_chunks = (int) ((n + pool.chunk - 1) / pool.chunk);
  pool.next_chunk = 0;
  pool.pending = pool.n_chunks;
  pool.generation++;
  g_cond_broadcast (&pool.work_cond);
  g_mutex_unlock (&pool.lock);

  in_worker = TRUE;
  run_chunks ();
  in_worker = FALSE;

  for (int i = 0; i < SPIN_ITERATIONS && g_atomic_int_get (&pool.pending) > 0; i++)
    cpu_relax ();
  g_mutex_lock (&pool.lock);
  while (pool.pending > 0)
    g_cond_wait (&pool.done_cond, &pool.lock);
  g_mutex_unlock (&pool.lock);
  g_mutex_unlock (&dispatch_lock);
}

/* ---- the strided driver ------------------------------------------------------------- */

typedef struct {
  const GnnKernelArgs *args;
  GnnCpuLoop loop;
  int n_ops;
  int ndim;
  gint64 shape[GNN_MAX_DIMS];
  gint64 strides[4][GNN_MAX_DIMS];  /* bytes */
  char *base[4];
} Iter;

static void
iter_range (gpointer data, gint64 begin, gint64 end)
{
  Iter *it = data;
  int nd = it->ndim;
  gint64 idx[GNN_MAX_DIMS];
  gint64 inner = nd > 0 ? it->shape[nd - 1] : 1;
  gint64 inner_strides[4];
  gint64 pos = begin;

  for (int k = 0; k < it->n_ops; k++)
    inner_strides[k] = nd > 0 ? it->strides[k][nd - 1] : 0;

  /* the multi-index of begin */
  {
    gint64 rem = begin;
    for (int d = nd - 1; d >= 0; d--)
      {
        idx[d] = rem % it->shape[d];
        rem /= it->shape[d];
      }
  }

  while (pos < end)
    {
      char *ptrs[4];
      gint64 count;
      gint64 start_in = nd > 0 ? idx[nd - 1] : 0;

      for (int k = 0; k < it->n_ops; k++)
        {
          gint64 off = 0;
          for (int d = 0; d < nd; d++)
            off += idx[d] * it->strides[k][d];
          ptrs[k] = it->base[k] + off;
        }
      count = MIN (inner - start_in, end - pos);
      it->loop (ptrs, inner_strides, count, it->args);
      pos += count;
      if (nd == 0)
        break;
      /* advance the index past the segment */
      idx[nd - 1] += count;
      for (int d = nd - 1; d > 0 && idx[d] >= it->shape[d]; d--)
        {
          idx[d] = 0;
          idx[d - 1]++;
        }
    }
}

void
gnn_cpu_foreach (const GnnKernelArgs *args,
                 GnnCpuLoop           loop)
{
  Iter it;
  const GnnKernelTensor *ops[4];
  int n_ops = 1 + (int) args->n_in;
  const GnnKernelTensor *out = args->out;
  gint64 numel = 1;
  int nd = 0;

  ops[0] = out;
  for (guint k = 0; k < args->n_in; k++)
    ops[k + 1] = args->in[k];

  it.args = args;
  it.loop = loop;
  it.n_ops = n_ops;
  for (int k = 0; k < n_ops; k++)
    it.base[k] = ops[k]->data;

  /* drop size-1 dimensions and merge dimensions contiguous in every operand */
  for (guint d = 0; d < out->ndim; d++)
    {
      gint64 size = out->shape[d];
      numel *= size;
      if (size == 1)
        continue;
      if (nd > 0)
        {
          gboolean merge = TRUE;
          for (int k = 0; k < n_ops && merge; k++)
            {
              gsize es = gnn_dtype_get_size (ops[k]->dtype);
              if (it.strides[k][nd - 1] != ops[k]->strides[d] * (gint64) es * size)
                merge = FALSE;
            }
          if (merge)
            {
              it.shape[nd - 1] *= size;
              for (int k = 0; k < n_ops; k++)
                it.strides[k][nd - 1] = ops[k]->strides[d] * (gint64) gnn_dtype_get_size (ops[k]->dtype);
              continue;
            }
        }
      it.shape[nd] = size;
      for (int k = 0; k < n_ops; k++)
        it.strides[k][nd] = ops[k]->strides[d] * (gint64) gnn_dtype_get_size (ops[k]->dtype);
      nd++;
    }
  it.ndim = nd;
  if (numel == 0)
    return;
  if (numel < 2 * GNN_CPU_GRAIN)
    iter_range (&it, 0, numel);
  else
    gnn_parallel_for (numel, GNN_CPU_GRAIN, iter_range, &it);
}
