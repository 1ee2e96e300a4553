/* gnn-ops-autograd.c: the backward formulas of the nodes autograd makes itself: CopySlices
 * and AsStridedBackward0 (in-place ops on views) and AccumulateGrad's sum
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The graph (autograd/graph) builds these nodes but calls no op, so their arithmetic lives
 * here with the other formulas; the engine (autograd/engine) calls gnn_accumulate_grad.
 */
#include "config.h"

#include "gnn-ops-private.h"

/* ---- in place on views: PyTorch's CopySlices ---------------------------------------- */

/* base grad: the incoming gradient, with the view's region replaced by the gradient the
 * in-place op gives its view input; the op's other inputs get theirs */
static gboolean
copy_slices_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnViewGeometry *g = node->ctx;
  GnnNode *fn = g->fn;
  g_autoptr(GnnTensor) result = NULL, region = NULL, slice = NULL;
  g_autofree GnnTensor **fn_gi = NULL;
  GnnTensor *fn_go[1];
  gboolean ok = TRUE;

  if (go[0] == NULL)
    return TRUE;
  result = gnn_tensor_clone_contiguous (go[0], gnn_tensor_priv (go[0])->dtype, error);
  if (result == NULL)
    return FALSE;
  region = gnn_tensor_new_view (result, g->ndim, g->shape, g->strides, g->offset);
  slice = gnn_tensor_clone_contiguous (region, gnn_tensor_priv (region)->dtype, error);
  if (slice == NULL)
    return FALSE;
  fn_go[0] = slice;
  fn_gi = g_new0 (GnnTensor *, MAX (fn->n_inputs, 1));
  if (!fn->backward (fn, fn_go, fn_gi, error))
    {
      g_prefix_error (error, "%s: ", gnn_node_get_name (fn));
      ok = FALSE;
    }
  if (ok)
    ok = fn_gi[0] ? gnn_tensor_copy_ (region, fn_gi[0], error) : gnn_tensor_zero_ (region, error);
  if (ok && node->edges[0].node)
    gi[0] = g_steal_pointer (&result);
  for (guint j = 1; j < fn->n_inputs; j++)
    {
      if (ok && node->edges[j].node)
        gi[j] = g_steal_pointer (&fn_gi[j]);
      g_clear_object (&fn_gi[j]);
    }
  g_clear_object (&fn_gi[0]);
  return ok;
}

/* the view's new history: a strided view of its base's */
static gboolean
as_strided_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnViewGeometry *g = node->ctx;
  g_autoptr(GnnTensor) z = NULL, region = NULL;

  if (go[0] == NULL || node->edges[0].node == NULL)
    return TRUE;
  z = gnn_tensor_new_like (go[0], node->in_dtype[0], node->in_ndim[0], node->in_shape[0], error);
  if (z == NULL || !gnn_tensor_zero_ (z, error))
    return FALSE;
  region = gnn_tensor_new_view (z, g->ndim, g->shape, g->strides, g->offset);
  if (!gnn_tensor_copy_ (region, go[0], error))
    return FALSE;
  gi[0] = g_steal_pointer (&z);
  return TRUE;
}

void
gnn_commit_inplace (GnnTensor *self,
                    GnnNode   *node)
{
  gnn_autograd_commit_inplace (self, node, copy_slices_backward, as_strided_backward);
}

/* ---- AccumulateGrad ----------------------------------------------------------------- */

gboolean
gnn_accumulate_grad (GnnTensor *variable,
                     GnnTensor *grad,
                     GError   **error)
{
  GnnTensorPrivate *vp = gnn_tensor_priv (variable);
  g_autoptr(GnnTensor) owned = grad;

  if (vp->grad == NULL)
    {
      GnnTensorPrivate *gp = gnn_tensor_priv (owned);
      if (G_OBJECT (owned)->ref_count == 1 && gp->base == NULL && gp->dtype == vp->dtype &&
          gnn_tensor_is_contiguous_priv (gp) && gp->grad_fn == NULL &&
          G_OBJECT_TYPE (owned) == GNN_TYPE_TENSOR)
        vp->grad = g_steal_pointer (&owned);
      else
        {
          vp->grad = gnn_tensor_clone_contiguous (owned, vp->dtype, error);
          if (vp->grad == NULL)
            return FALSE;
        }
      return TRUE;
    }
  return gnn_tensor_add_ (vp->grad, owned, 1.0, error);
}
