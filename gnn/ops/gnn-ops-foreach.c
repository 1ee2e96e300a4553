/* gnn-ops-foreach.c: multi-tensor ops (torch._foreach_*), one kernel call per device and dtype
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "gnn-ops-private.h"

/* The pairs of one (backend, device, dtype): one kernel call. */
typedef struct {
  GnnBackendEntry *entry;
  guint device;
  GnnDtype dtype;
  GArray *out;   /* GnnKernelTensor */
  GArray *in;    /* GnnKernelTensor */
  GPtrArray *selves;  /* GnnTensor*, borrowed: the fallback path and the version bumps */
  GPtrArray *ends;
} ForeachGroup;

static void
foreach_group_free (gpointer data)
{
  ForeachGroup *g = data;

  g_array_unref (g->out);
  g_array_unref (g->in);
  g_ptr_array_unref (g->selves);
  g_ptr_array_unref (g->ends);
  g_free (g);
}

static ForeachGroup *
find_group (GPtrArray *groups, GnnBackendEntry *entry, guint device, GnnDtype dtype)
{
  ForeachGroup *g;

  for (guint i = 0; i < groups->len; i++)
    {
      g = groups->pdata[i];
      if (g->entry == entry && g->device == device && g->dtype == dtype)
        return g;
    }
  g = g_new0 (ForeachGroup, 1);
  g->entry = entry;
  g->device = device;
  g->dtype = dtype;
  g->out = g_array_new (FALSE, FALSE, sizeof (GnnKernelTensor));
  g->in = g_array_new (FALSE, FALSE, sizeof (GnnKernelTensor));
  g->selves = g_ptr_array_new ();
  g->ends = g_ptr_array_new ();
  g_ptr_array_add (groups, g);
  return g;
}

/* The bytes one tensor's elements span in its storage. */
typedef struct {
  gconstpointer storage;
  gint64 lo, hi;     /* [lo, hi) */
  guint index;
} Extent;

static int
extent_cmp (gconstpointer a, gconstpointer b)
{
  const Extent *x = a, *y = b;

  if (x->storage != y->storage)
    return x->storage < y->storage ? -1 : 1;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Two outputs whose memory overlaps would race in a threaded kernel (and give an answer
 * that depends on the order): refuse them. Views of one storage that do not overlap are fine. */
static gboolean
check_no_overlap (GnnTensor **self, guint n, GError **error)
{
  g_autofree Extent *ext = g_new (Extent, n);
  guint m = 0;

  for (guint i = 0; i < n; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (self[i]);
      gint64 es = (gint64) gnn_dtype_get_size (p->dtype), lo = p->offset, hi = p->offset;

      if (gnn_shape_numel (p->ndim, p->shape) == 0)
        continue;
      for (guint d = 0; d < p->ndim; d++)
        {
          gint64 span = (p->shape[d] - 1) * p->strides[d];
          if (span < 0)
            lo += span;
          else
            hi += span;
        }
      ext[m].storage = p->storage;
      ext[m].lo = lo * es;
      ext[m].hi = (hi + 1) * es;
      ext[m].index = i;
      m++;
    }
  qsort (ext, m, sizeof (Extent), extent_cmp);
  for (guint k = 1; k < m; k++)
    if (ext[k].storage == ext[k - 1].storage && ext[k].lo < ext[k - 1].hi)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "_foreach_lerp_: tensors %u and %u of self overlap in memory",
                     MIN (ext[k - 1].index, ext[k].index), MAX (ext[k - 1].index, ext[k].index));
        return FALSE;
      }
  return TRUE;
}

/**
 * gnn_foreach_lerp_:
 * @self: (array length=n): the start tensors, changed in place
 * @end: (array length=n): the end tensors, one for each of @self, of the same shape, dtype
 *   and device
 * @n: the number of tensors in each list, at least 1
 * @weight: the interpolation weight
 * @error: return location for a #GError
 *
 * Interpolates every tensor of a list in place: @self[i] += @weight × (@end[i] − @self[i]),
 * with the formula of [method@Gnn.Tensor.lerp_] (`torch._foreach_lerp_`). The tensors are
 * grouped by device and dtype, and each group is updated by one call of the backend's
 * multi-tensor kernel (%GNN_BACKEND_OP_FOREACH_LERP) rather than one call per tensor: this is
 * the update of an exponential moving average of a model's parameters, or of an equal-weight
 * average with @weight = 1 / (n + 1). A dtype the backend has no such kernel for (float16,
 * bfloat16) falls back to one [method@Gnn.Tensor.lerp_] per tensor.
 *
 * Every tensor is checked before any changes: @self[i] and @end[i] must share a shape, a
 * dtype (floating) and a device, and the tensors of @self must not overlap each other. No
 * gradient is recorded: as for PyTorch's in-place ops, a leaf that requires grad is refused
 * while grad mode is on, and so is any tensor that would need a gradient through the
 * interpolation; run it inside a no-grad scope (as optimizers and [class@Gnn.AveragedModel]
 * do). Each tensor of @self has its version counter increased.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_foreach_lerp_ (GnnTensor **self,
                   GnnTensor **end,
                   guint       n,
                   double      weight,
                   GError    **error)
{
  g_autoptr(GPtrArray) groups = NULL;

  g_return_val_if_fail (n == 0 || (self != NULL && end != NULL), FALSE);
  if (n == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "_foreach_lerp_: Tensor list must have at least one tensor.");
      return FALSE;
    }

  /* every check first, so that a failure changes nothing */
  for (guint i = 0; i < n; i++)
    {
      GnnTensor *pair[2] = { self[i], end[i] };
      GnnTensorPrivate *sp, *ep;

      if (!GNN_IS_TENSOR (self[i]) || !GNN_IS_TENSOR (end[i]))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "_foreach_lerp_: element %u of the %s list is not a tensor", i,
                       GNN_IS_TENSOR (self[i]) ? "end" : "self");
          return FALSE;
        }
      sp = gnn_tensor_priv (self[i]);
      ep = gnn_tensor_priv (end[i]);
      if (!gnn_check_floating ("_foreach_lerp_", self[i], error))
        return FALSE;
      if (sp->dtype != ep->dtype)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "_foreach_lerp_: expected dtype %s for `end` but got dtype %s (tensor %u)",
                       gnn_dtype_get_name (sp->dtype), gnn_dtype_get_name (ep->dtype), i);
          return FALSE;
        }
      if (sp->ndim != ep->ndim || memcmp (sp->shape, ep->shape, sizeof (gint64) * sp->ndim) != 0)
        {
          g_autofree char *a = gnn_shape_to_string (sp->ndim, sp->shape);
          g_autofree char *b = gnn_shape_to_string (ep->ndim, ep->shape);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "_foreach_lerp_: tensor %u of self has shape %s but its end has shape %s",
                       i, a, b);
          return FALSE;
        }
      if (!gnn_check_same_device ("_foreach_lerp_", self[i], end[i], error))
        return FALSE;
      if (!gnn_autograd_check_inplace (self[i], error))
        return FALSE;
      if (gnn_autograd_needed (pair, 2))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "_foreach_lerp_: gradients through _foreach_lerp_ are not supported (tensor %u "
                       "requires grad); run it with grad mode off", i);
          return FALSE;
        }
    }
  if (!check_no_overlap (self, n, error))
    return FALSE;

  groups = g_ptr_array_new_with_free_func (foreach_group_free);
  for (guint i = 0; i < n; i++)
    {
      GnnTensorPrivate *sp = gnn_tensor_priv (self[i]);
      ForeachGroup *g = find_group (groups, sp->storage->entry, sp->storage->device, sp->dtype);
      GnnKernelTensor ko, ki;

      if (gnn_tensor_get_numel (self[i]) == 0)
        continue;
      gnn_tensor_to_kernel (self[i], &ko);
      gnn_tensor_to_kernel (end[i], &ki);
      g_array_append_val (g->out, ko);
      g_array_append_val (g->in, ki);
      g_ptr_array_add (g->selves, self[i]);
      g_ptr_array_add (g->ends, end[i]);
    }

  for (guint k = 0; k < groups->len; k++)
    {
      ForeachGroup *g = groups->pdata[k];
      GnnKernelArgs args = { 0 };

      if (g->out->len == 0)
        continue;
      if (!gnn_backend_supports_op (g->entry->backend, GNN_BACKEND_OP_FOREACH_LERP, g->dtype))
        {
          /* one lerp_ per tensor (which bumps the versions itself) */
          for (guint i = 0; i < g->selves->len; i++)
            if (!gnn_tensor_lerp_ (g->selves->pdata[i], g->ends->pdata[i], weight, error))
              return FALSE;
          continue;
        }
      args.op = GNN_BACKEND_OP_FOREACH_LERP;
      args.list_out = (GnnKernelTensor *) g->out->data;
      args.list_in = (const GnnKernelTensor *) g->in->data;
      args.n_list = g->out->len;
      args.params.lerp.weight = weight;
      if (!gnn_backend_entry_run (g->entry, g->device, &args, error))
        return FALSE;
      for (guint i = 0; i < g->selves->len; i++)
        gnn_tensor_bump_version (g->selves->pdata[i]);
    }
  /* empty tensors went to no kernel, but they were modified in place all the same */
  for (guint i = 0; i < n; i++)
    if (gnn_tensor_get_numel (self[i]) == 0)
      gnn_tensor_bump_version (self[i]);
  return TRUE;
}
