/* gnn-tensor-graph.c: GnnTensor's place in the autograd graph: requires_grad, grad_fn, leaves,
 * detach, gradient hooks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What computes and stores gradients (backward, grad, retain_grad) is the engine's
 * (autograd/engine/gnn-engine.c).
 */
#include "config.h"

#include <string.h>

#include "gnn-graph-private.h"

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
  if (requires_grad && p->version->inference && !gnn_is_inference_mode_enabled ())
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "Setting requires_grad=True on inference tensor outside InferenceMode "
                           "is not allowed.");
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
 * gnn_tensor_get_grad_fn:
 * @self: a tensor
 *
 * Gets the node that made the tensor (`Tensor.grad_fn`): the backward function of the op
 * that computed it, from which [method@Gnn.Node.get_next_function] walks the graph.
 *
 * Returns: (transfer none) (nullable): the node that made the tensor, or %NULL for a leaf
 *
 * Since: 0.1
 */
GnnNode *
gnn_tensor_get_grad_fn (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return gnn_tensor_priv (self)->grad_fn;
}

/**
 * gnn_node_get_n_next_functions:
 * @node: a node
 *
 * Gets the number of the node's next functions (`len (grad_fn.next_functions)`): one per
 * input of the op that recorded it, whether or not that input needs a gradient.
 *
 * Returns: the number of next functions of @node (0 for an `AccumulateGrad` node)
 *
 * Since: 0.1
 */
guint
gnn_node_get_n_next_functions (GnnNode *node)
{
  g_return_val_if_fail (node != NULL, 0);
  return node->n_inputs;
}

/**
 * gnn_node_get_next_function:
 * @node: a node
 * @index: the input of the op, below [method@Gnn.Node.get_n_next_functions]
 * @input_nr: (out) (optional): where the gradient enters the next node: the output of the
 *   op that made the input, 0 for a leaf's `AccumulateGrad`
 *
 * Gets the node that input @index's gradient flows to (`grad_fn.next_functions[index]`): the
 * node that made that input, the `AccumulateGrad` node of a leaf that requires grad, or
 * %NULL (torch's `(None, 0)`) for an input that needs no gradient.
 *
 * Returns: (transfer none) (nullable): the next node, or %NULL
 *
 * Since: 0.1
 */
GnnNode *
gnn_node_get_next_function (GnnNode *node,
                            guint    index,
                            guint   *input_nr)
{
  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (index < node->n_inputs, NULL);
  if (input_nr)
    *input_nr = node->edges[index].node ? node->edges[index].input_nr : 0;
  return node->edges[index].node;
}

/**
 * gnn_node_get_variable:
 * @node: a node
 *
 * Gets the leaf an `AccumulateGrad` node accumulates into (`grad_fn.variable`).
 *
 * Returns: (transfer none) (nullable): the leaf, or %NULL for a node of an op
 *
 * Since: 0.1
 */
GnnTensor *
gnn_node_get_variable (GnnNode *node)
{
  g_return_val_if_fail (node != NULL, NULL);
  return node->variable;
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

/**
 * gnn_tensor_detach_:
 * @self: a tensor that is not a view
 * @error: return location for a #GError
 *
 * Detaches @self in place (`Tensor.detach_`): it drops the node that made it and becomes a
 * leaf that does not require grad, keeping its storage, shape and version counter. Tensors
 * made from @self before keep their history. A view cannot be detached in place (use
 * [method@Gnn.Tensor.detach]), as in PyTorch.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_detach_ (GnnTensor *self,
                    GError   **error)
{
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  p = gnn_tensor_priv (self);
  if (p->base != NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "Can't detach views in-place. Use detach() instead.");
      return FALSE;
    }
  g_clear_pointer (&p->grad_fn, gnn_node_unref);
  p->output_nr = 0;
  p->requires_grad = FALSE;
  p->retains_grad = FALSE;
  return TRUE;
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
  return p->grad_fn != NULL && gnn_node_remove_hook (p->grad_fn, hook_id);
}
