/* gnn-tensor-autograd.c: the autograd side of GnnTensor
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "gnn-node-private.h"
#include "ops/gnn-ops-private.h"

/**
 * gnn_tensor_get_requires_grad:
 * @self: a tensor
 *
 * Checks whether gradients are computed for the tensor (`Tensor.requires_grad`).
 *
 * Returns: whether gradients are computed for the tensor (`Tensor.requires_grad`)
 */
gboolean
gnn_tensor_get_requires_grad (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  return gnn_tensor_priv (self)->requires_grad;
}

/**
 * gnn_tensor_set_requires_grad:
 * @self: a tensor
 * @requires_grad: whether to compute gradients for it
 * @error: return location for a #GError
 *
 * Sets whether autograd records operations on the tensor (`Tensor.requires_grad_`). Only
 * leaves can change it, and only floating-point tensors can require gradients.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_tensor_set_requires_grad (GnnTensor *self,
                              gboolean   requires_grad,
                              GError   **error)
{
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  p = gnn_tensor_priv (self);
  if (p->grad_fn != NULL && !requires_grad)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "you can only change requires_grad flags of leaf variables. If you want to "
                           "use a computed variable in a subgraph that doesn't require differentiation "
                           "use var_no_grad = var.detach().");
      return FALSE;
    }
  if (requires_grad && !gnn_dtype_is_floating (p->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "only Tensors of floating point dtype can require gradients, got %s",
                   gnn_dtype_get_name (p->dtype));
      return FALSE;
    }
  p->requires_grad = requires_grad || p->grad_fn != NULL;
  return TRUE;
}

/**
 * gnn_tensor_get_grad:
 * @self: a tensor
 *
 * Returns the gradient accumulated by backward (`Tensor.grad`).
 *
 * Returns: (transfer none) (nullable): the gradient accumulated by backward (`Tensor.grad`)
 */
GnnTensor *
gnn_tensor_get_grad (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return gnn_tensor_priv (self)->grad;
}

/**
 * gnn_tensor_set_grad:
 * @self: a tensor
 * @grad: (nullable): the new gradient, with the tensor's shape, dtype and device, or %NULL
 * @error: return location for a #GError
 *
 * Replaces the gradient (`Tensor.grad = grad`); %NULL clears it, as `zero_grad (set_to_none)`.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_tensor_set_grad (GnnTensor *self,
                     GnnTensor *grad,
                     GError   **error)
{
  GnnTensorPrivate *p, *gp;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (grad == NULL || GNN_IS_TENSOR (grad), FALSE);
  p = gnn_tensor_priv (self);
  if (grad)
    {
      gp = gnn_tensor_priv (grad);
      if (gp->dtype != p->dtype)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "assigned grad has data of a different type (%s, expected %s)",
                       gnn_dtype_get_name (gp->dtype), gnn_dtype_get_name (p->dtype));
          return FALSE;
        }
      if (gp->ndim != p->ndim || memcmp (gp->shape, p->shape, sizeof (gint64) * p->ndim) != 0)
        {
          g_autofree char *a = gnn_shape_to_string (gp->ndim, gp->shape);
          g_autofree char *b = gnn_shape_to_string (p->ndim, p->shape);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "assigned grad has data of a different size (%s, expected %s)", a, b);
          return FALSE;
        }
      if (!gnn_check_same_device ("set_grad", self, grad, error))
        return FALSE;
    }
  if (grad)
    g_object_ref (grad);
  g_clear_object (&p->grad);
  p->grad = grad;
  return TRUE;
}

/**
 * gnn_tensor_get_grad_fn_name:
 * @self: a tensor
 *
 * Returns the name of the node that made the tensor, as PyTorch names it (`type
 * (t.grad_fn).__name__`, such as "AddBackward0"), or %NULL for a leaf.
 *
 * Returns: (nullable): the name of the node that made the tensor, as PyTorch names it
 *   (`type (t.grad_fn).__name__`, such as "AddBackward0"), or %NULL for a leaf
 */
const char *
gnn_tensor_get_grad_fn_name (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return gnn_tensor_priv (self)->grad_fn ? gnn_node_get_name (gnn_tensor_priv (self)->grad_fn) : NULL;
}

/**
 * gnn_tensor_is_leaf:
 * @self: a tensor
 *
 * Checks whether the tensor was made by the user rather than by a recorded op
 * (`Tensor.is_leaf`).
 *
 * Returns: whether the tensor was made by the user rather than by a recorded op
 *   (`Tensor.is_leaf`)
 */
gboolean
gnn_tensor_is_leaf (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  return gnn_tensor_priv (self)->grad_fn == NULL;
}

/**
 * gnn_tensor_backward:
 * @self: the tensor to differentiate, usually a scalar loss
 * @gradient: (nullable): the gradient of the final result with respect to @self; may be
 *   %NULL only when @self has one element (then it is one)
 * @retain_graph: whether to keep the saved tensors for another backward
 * @error: return location for a #GError
 *
 * Computes the gradients of @self with respect to the graph's leaves and accumulates them
 * into their `grad` (`Tensor.backward`). Without @retain_graph the saved tensors are freed,
 * and a second backward through the same nodes fails. Hooks run on the calling thread.
 * Higher-order gradients (create_graph) are not supported.
 *
 * Returns: %TRUE on success; on failure @error names the op whose backward failed
 */
gboolean
gnn_tensor_backward (GnnTensor *self,
                     GnnTensor *gradient,
                     gboolean   retain_graph,
                     GError   **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) g = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (gradient == NULL || GNN_IS_TENSOR (gradient), FALSE);
  p = gnn_tensor_priv (self);
  if (!p->requires_grad)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "element 0 of tensors does not require grad and does not have a grad_fn");
      return FALSE;
    }
  if (gradient == NULL)
    {
      if (gnn_shape_numel (p->ndim, p->shape) != 1)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                               "grad can be implicitly created only for scalar outputs");
          return FALSE;
        }
      g = gnn_tensor_new_like (self, p->dtype, p->ndim, p->shape, error);
      if (g == NULL || !gnn_tensor_fill_ (g, 1.0, error))
        return FALSE;
    }
  else
    {
      GnnTensorPrivate *gp = gnn_tensor_priv (gradient);
      if (gp->ndim != p->ndim || memcmp (gp->shape, p->shape, sizeof (gint64) * p->ndim) != 0)
        {
          g_autofree char *a = gnn_shape_to_string (gp->ndim, gp->shape);
          g_autofree char *b = gnn_shape_to_string (p->ndim, p->shape);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "Mismatch in shape: grad_output[0] has a shape of %s and output[0] has a shape of %s", a, b);
          return FALSE;
        }
      if (!gnn_check_same_device ("backward", self, gradient, error))
        return FALSE;
      g = gnn_tensor_cast (gradient, p->dtype, error);
      if (g == NULL)
        return FALSE;
    }
  return gnn_autograd_run_backward (&self, &g, 1, retain_graph, error);
}

/**
 * gnn_tensor_detach:
 * @self: a tensor
 *
 * A tensor sharing @self's storage and version counter, without autograd history
 * (`Tensor.detach`).
 *
 * Returns: (transfer full): the detached tensor
 */
GnnTensor *
gnn_tensor_detach (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return gnn_tensor_new_alias (self);
}

typedef struct {
  GWeakRef tensor;
} RetainData;

static void
retain_data_free (gpointer data)
{
  RetainData *r = data;
  g_weak_ref_clear (&r->tensor);
  g_free (r);
}

static GnnTensor *
retain_hook (GnnNode *node, guint index, GnnTensor *grad, gpointer data)
{
  RetainData *r = data;
  g_autoptr(GnnTensor) t = g_weak_ref_get (&r->tensor);
  GnnTensorPrivate *p;

  if (t == NULL)
    return NULL;
  p = gnn_tensor_priv (t);
  if (p->grad == NULL)
    p->grad = gnn_tensor_clone_contiguous (grad, p->dtype, NULL);
  else
    gnn_tensor_add_ (p->grad, grad, 1.0, NULL);
  return NULL;
}

/**
 * gnn_tensor_retain_grad:
 * @self: a tensor
 *
 * Makes backward fill the `grad` of a non-leaf tensor too (`Tensor.retain_grad`). No effect
 * on leaves or on tensors that do not require grad.
 */
void
gnn_tensor_retain_grad (GnnTensor *self)
{
  GnnTensorPrivate *p;
  RetainData *r;

  g_return_if_fail (GNN_IS_TENSOR (self));
  p = gnn_tensor_priv (self);
  if (p->grad_fn == NULL || p->retains_grad)
    return;
  r = g_new0 (RetainData, 1);
  g_weak_ref_init (&r->tensor, self);
  gnn_node_add_pre_hook (p->grad_fn, p->output_nr, TRUE, retain_hook, r, retain_data_free);
  p->retains_grad = TRUE;
}

/**
 * gnn_tensor_get_retains_grad:
 * @self: a tensor
 *
 * Checks whether [method@Gnn.Tensor.retain_grad] was called on this non-leaf.
 *
 * Returns: whether [method@Gnn.Tensor.retain_grad] was called on this non-leaf
 */
gboolean
gnn_tensor_get_retains_grad (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  return gnn_tensor_priv (self)->retains_grad;
}

typedef struct {
  GnnTensorHookFunc func;
  gpointer data;
  GDestroyNotify destroy;
} TensorHookData;

static void
tensor_hook_data_free (gpointer data)
{
  TensorHookData *h = data;
  if (h->destroy)
    h->destroy (h->data);
  g_free (h);
}

static GnnTensor *
tensor_hook_trampoline (GnnNode *node, guint index, GnnTensor *grad, gpointer data)
{
  TensorHookData *h = data;
  return h->func (grad, h->data);
}

/**
 * gnn_tensor_register_hook:
 * @self: a tensor that requires grad
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is removed
 * @error: return location for a #GError
 *
 * Registers a gradient hook (`Tensor.register_hook`): each time a gradient for the tensor is
 * computed, @func sees it and may return a replacement. Hooks run in registration order, on
 * the thread that called backward; on a leaf they run before the gradient is accumulated.
 *
 * Returns: a handle for [method@Gnn.Tensor.remove_hook], or 0 with @error set
 */
gulong
gnn_tensor_register_hook (GnnTensor        *self,
                          GnnTensorHookFunc func,
                          gpointer          user_data,
                          GDestroyNotify    destroy,
                          GError          **error)
{
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self), 0);
  g_return_val_if_fail (func != NULL, 0);
  p = gnn_tensor_priv (self);
  if (!p->requires_grad)
    {
      if (destroy)
        destroy (user_data);
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "cannot register a hook on a tensor that doesn't require gradient");
      return 0;
    }
  if (p->grad_fn)
    {
      TensorHookData *h = g_new (TensorHookData, 1);
      h->func = func;
      h->data = user_data;
      h->destroy = destroy;
      return gnn_node_add_pre_hook (p->grad_fn, p->output_nr, FALSE, tensor_hook_trampoline, h,
                                    tensor_hook_data_free);
    }
  else
    {
      GnnTensorHook h = { func, user_data, destroy, gnn_autograd_next_hook_id () };
      if (p->hooks == NULL)
        p->hooks = g_array_new (FALSE, FALSE, sizeof (GnnTensorHook));
      g_array_append_val (p->hooks, h);
      return h.id;
    }
}

/**
 * gnn_tensor_remove_hook:
 * @self: the tensor the hook was registered on
 * @hook_id: the handle from [method@Gnn.Tensor.register_hook]
 *
 * Removes a gradient hook (`RemovableHandle.remove ()`).
 *
 * Returns: whether a hook was removed
 */
gboolean
gnn_tensor_remove_hook (GnnTensor *self,
                        gulong     hook_id)
{
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  p = gnn_tensor_priv (self);
  if (p->hooks)
    for (guint i = 0; i < p->hooks->len; i++)
      {
        GnnTensorHook h = g_array_index (p->hooks, GnnTensorHook, i);
        if (h.id == hook_id)
          {
            g_array_remove_index (p->hooks, i);
            if (h.destroy)
              h.destroy (h.data);
            return TRUE;
          }
      }
  if (p->grad_fn && p->grad_fn->pre_hooks)
    for (guint i = 0; i < p->grad_fn->pre_hooks->len; i++)
      if (g_array_index (p->grad_fn->pre_hooks, GnnNodeHook, i).id == hook_id)
        {
          gnn_node_remove_hook (p->grad_fn, hook_id);
          return TRUE;
        }
  return FALSE;
}
