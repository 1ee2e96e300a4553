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

/* the loops of each floating dtype, lerp_flat_f32 to lerp_strided_f64 */
#define T float
#define NAME(x) x##_f32
#include "gnn-cpu-foreach-tmpl.c"
#define T double
#define NAME(x) x##_f64
#include "gnn-cpu-foreach-tmpl.c"

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
      gint64 n = gnn_shape_numel (o->ndim, o->shape);

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
