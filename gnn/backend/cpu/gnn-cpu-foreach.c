/* gnn-cpu-foreach.c: the multi-tensor (FOREACH_) kernels of the CPU backend
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * FOREACH_LERP updates a whole list of tensors in one call: list_out[j] = lerp (list_out[j],
 * list_in[j], lerp.weight). The work is the total number of elements of all pairs, split over gnn's
 * threads as one range, so that a model of many small tensors uses every thread as well as
 * one big tensor does. Pairs whose two operands are contiguous (the parameters of a model)
 * take a flat loop the compiler vectorises; any other pair goes through the strided driver.
 */
#include "config.h"

#include <string.h>

#include "gnn-cpu-private.h"

/* PyTorch's lerp with a scalar weight: start + w * (end - start) when |w| < 0.5, else
 * end - (end - start) * (1 - w). The branch is taken once per call, outside the loops. */
#define LERP_FLAT(NAME, T)                                                                \
GNN_CPU_MULTIVERSION                                                                      \
static void                                                                               \
NAME (T *o, const T *x, gint64 n, double weight)                                          \
{                                                                                         \
  const T w = (T) weight;                                                                 \
  if (w < (T) 0.5 && w > (T) -0.5)                                                        \
    {                                                                                     \
      for (gint64 i = 0; i < n; i++)                                                      \
        o[i] = o[i] + w * (x[i] - o[i]);                                                  \
    }                                                                                     \
  else                                                                                    \
    {                                                                                     \
      const T omw = (T) 1 - w;                                                            \
      for (gint64 i = 0; i < n; i++)                                                      \
        o[i] = x[i] - (x[i] - o[i]) * omw;                                                \
    }                                                                                     \
}

LERP_FLAT (lerp_flat_f32, float)
LERP_FLAT (lerp_flat_f64, double)

/* the strided form, for gnn_cpu_foreach: d[0] out, d[1] the same tensor read, d[2] end */
#define LERP_STRIDED(NAME, T)                                                             \
static void                                                                               \
NAME (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)                     \
{                                                                                         \
  const T w = (T) args->params.lerp.weight;                                               \
  const gboolean near = w < (T) 0.5 && w > (T) -0.5;                                      \
  for (gint64 i = 0; i < n; i++)                                                          \
    {                                                                                     \
      T a = *(const T *) (d[1] + i * s[1]);                                               \
      T b = *(const T *) (d[2] + i * s[2]);                                               \
      *(T *) (d[0] + i * s[0]) = near ? a + w * (b - a) : b - (b - a) * ((T) 1 - w);      \
    }                                                                                     \
}

LERP_STRIDED (lerp_strided_f32, float)
LERP_STRIDED (lerp_strided_f64, double)

/* Whether @t's elements are laid out row-major without gaps (size-1 dimensions ignored). */
static gboolean
is_flat (const GnnKernelTensor *t)
{
  gint64 expected = 1;

  for (guint d = t->ndim; d-- > 0;)
    {
      if (t->shape[d] == 1)
        continue;
      if (t->strides[d] != expected)
        return FALSE;
      expected *= t->shape[d];
    }
  return TRUE;
}

static gint64
numel_of (const GnnKernelTensor *t)
{
  gint64 n = 1;

  for (guint d = 0; d < t->ndim; d++)
    n *= t->shape[d];
  return n;
}

/* The flat pairs of one call, laid end to end: pair k covers [start[k], start[k + 1]) of the
 * total range. A thread's range starts at the pair found by bisection. */
typedef struct {
  guint n;
  gint64 *start;      /* n + 1 entries */
  char **out;
  char **in;
  GnnDtype dtype;
  double weight;
} FlatJob;

static void
flat_range (gpointer data, gint64 begin, gint64 end)
{
  FlatJob *job = data;
  guint lo = 0, hi = job->n;

  /* the last pair whose start is <= begin */
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;
      if (job->start[mid] <= begin)
        lo = mid;
      else
        hi = mid;
    }
  for (guint k = lo; k < job->n && job->start[k] < end; k++)
    {
      gint64 b = MAX (begin, job->start[k]) - job->start[k];
      gint64 e = MIN (end, job->start[k + 1]) - job->start[k];
      if (e <= b)
        continue;
      if (job->dtype == GNN_DTYPE_FLOAT32)
        lerp_flat_f32 ((float *) job->out[k] + b, (const float *) job->in[k] + b, e - b, job->weight);
      else
        lerp_flat_f64 ((double *) job->out[k] + b, (const double *) job->in[k] + b, e - b, job->weight);
    }
}

static gboolean
foreach_error (GError **error, GnnError code, const char *format, ...) G_GNUC_PRINTF (3, 4);

static gboolean
foreach_error (GError **error, GnnError code, const char *format, ...)
{
  va_list ap;
  g_autofree char *msg = NULL;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, GNN_ERROR, code, "cpu: foreach_lerp: %s", msg);
  return FALSE;
}

/* list_out[j] (shape S_j) = lerp (list_out[j], list_in[j] (shape S_j), lerp.weight), j < n_list */
static gboolean
k_foreach_lerp (const GnnKernelArgs *args, GError **error)
{
  GnnDtype dtype;
  FlatJob job = { 0 };
  g_autofree gint64 *start = NULL;
  g_autofree char **outs = NULL, **ins = NULL;
  gint64 total = 0;

  if (args->n_list == 0)
    return TRUE;
  if (args->list_out == NULL || args->list_in == NULL)
    return foreach_error (error, GNN_ERROR_INVALID_ARGUMENT, "%u pairs announced but no operand lists given",
                          args->n_list);
  dtype = args->list_out[0].dtype;
  if (dtype != GNN_DTYPE_FLOAT32 && dtype != GNN_DTYPE_FLOAT64)
    return foreach_error (error, GNN_ERROR_NOT_SUPPORTED, "no kernel for dtype %s", gnn_dtype_get_name (dtype));
  for (guint j = 0; j < args->n_list; j++)
    {
      const GnnKernelTensor *o = &args->list_out[j], *x = &args->list_in[j];
      if (o->dtype != dtype || x->dtype != dtype)
        return foreach_error (error, GNN_ERROR_DTYPE, "pair %u has dtypes %s and %s, expected %s", j,
                              gnn_dtype_get_name (o->dtype), gnn_dtype_get_name (x->dtype),
                              gnn_dtype_get_name (dtype));
      if (o->ndim != x->ndim || o->ndim > GNN_MAX_DIMS ||
          memcmp (o->shape, x->shape, sizeof (gint64) * o->ndim) != 0)
        return foreach_error (error, GNN_ERROR_SHAPE, "the two operands of pair %u differ in shape", j);
    }

  /* flat pairs in one threaded range; the others one by one through the strided driver */
  start = g_new (gint64, args->n_list + 1);
  outs = g_new (char *, args->n_list);
  ins = g_new (char *, args->n_list);
  for (guint j = 0; j < args->n_list; j++)
    {
      const GnnKernelTensor *o = &args->list_out[j], *x = &args->list_in[j];
      gint64 n = numel_of (o);

      if (n == 0)
        continue;
      if (is_flat (o) && is_flat (x))
        {
          start[job.n] = total;
          outs[job.n] = o->data;
          ins[job.n] = x->data;
          job.n++;
          total += n;
        }
      else
        {
          GnnKernelArgs one = { 0 };
          one.op = GNN_BACKEND_OP_FOREACH_LERP;
          one.out = (GnnKernelTensor *) o;
          one.in[0] = o;
          one.in[1] = x;
          one.n_in = 2;
          one.params.lerp.weight = args->params.lerp.weight;
          gnn_cpu_foreach (&one, dtype == GNN_DTYPE_FLOAT32 ? lerp_strided_f32 : lerp_strided_f64);
        }
    }
  if (job.n == 0)
    return TRUE;
  start[job.n] = total;
  job.start = start;
  job.out = outs;
  job.in = ins;
  job.dtype = dtype;
  job.weight = args->params.lerp.weight;
  if (total < 2 * GNN_CPU_GRAIN)
    flat_range (&job, 0, total);
  else
    gnn_parallel_for (total, GNN_CPU_GRAIN, flat_range, &job);
  return TRUE;
}

void
gnn_cpu_register_foreach (GnnCpuKernel *table)
{
  table[GNN_BACKEND_OP_FOREACH_LERP] = k_foreach_lerp;
}
