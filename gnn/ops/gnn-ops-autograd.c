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
  if (!gnn_check_double_backward (node, go, error))
    return FALSE;
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
  if (!gnn_check_double_backward (node, go, error))
    return FALSE;
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

  /* create_graph: the grad keeps its history, and a new one is added out of place */
  if (gnn_is_grad_enabled () && gnn_tensor_priv (owned)->requires_grad)
    {
      g_autoptr(GnnTensor) cast = gnn_tensor_cast (owned, vp->dtype, error);
      GnnTensor *sum;

      if (cast == NULL)
        return FALSE;
      if (vp->grad == NULL)
        {
          vp->grad = g_steal_pointer (&cast);
          return TRUE;
        }
      if (!(sum = gnn_tensor_add (vp->grad, cast, 1.0, error)))
        return FALSE;
      g_object_unref (vp->grad);
      vp->grad = sum;
      return TRUE;
    }
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

/* ---- backward formulas without a double backward ------------------------------------ */

gboolean
gnn_check_double_backward (GnnNode    *node,
                           GnnTensor **grad_outputs,
                           GError    **error)
{
  gboolean needed = FALSE;

  if (!gnn_is_grad_enabled ())
    return TRUE;
  for (guint i = 0; i < node->n_outputs && !needed; i++)
    needed = grad_outputs[i] && gnn_tensor_priv (grad_outputs[i])->requires_grad;
  for (guint i = 0; i < node->n_saved && !needed; i++)
    needed = gnn_node_saved_requires_grad (node, i);
  if (!needed)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "%s: double backward (create_graph=True) is not implemented for this op: its "
               "gradient cannot be differentiated again", gnn_node_get_name (node));
  return FALSE;
}
