/* gnn-engine.c: the autograd engine: backward over the graph, gradients of leaves, grad
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Above ops/: it sums gradients with ops and runs the nodes' backward formulas (ops/, and the
 * AccumulateGrad arithmetic of ops/gnn-ops-autograd.c) over the graph of autograd/graph.
 */
#include "config.h"

#include <string.h>

#include "gnn-engine-private.h"
#include "ops/gnn-ops-private.h"

/* ---- AccumulateGrad ----------------------------------------------------------------- */

/* An AccumulateGrad node: the leaf's tensor hooks see the gradient first, then it is
 * accumulated into the leaf's grad. */
static gboolean
accumulate_grad (GnnNode    *node,
                 GnnTensor **grad_outputs,
                 GError    **error)
{
  GnnTensorPrivate *vp = gnn_tensor_priv (node->variable);
  GnnTensor *grad = grad_outputs[0] ? g_object_ref (grad_outputs[0]) : NULL;

  if (grad == NULL)
    return TRUE;
  if (vp->hooks)
    for (guint i = 0; i < vp->hooks->len; i++)
      {
        GnnTensorHook *h = &g_array_index (vp->hooks, GnnTensorHook, i);
        GnnTensor *r = h->func (grad, h->data);
        if (r)
          {
            g_object_unref (grad);
            grad = r;
          }
      }
  return gnn_accumulate_grad (node->variable, grad, error);
}

/* ---- the engine --------------------------------------------------------------------- */

typedef struct {
  GnnNode *node;       /* borrowed: the graph keeps it alive while the task exists */
  guint dependencies;
  guint n_buffer;
  GnnTensor **buffer;  /* one per node output */
} NodeTask;

static void
node_task_free (gpointer data)
{
  NodeTask *t = data;
  for (guint i = 0; i < t->n_buffer; i++)
    g_clear_object (&t->buffer[i]);
  g_free (t->buffer);
  g_free (t);
}

static NodeTask *
task_for (GHashTable *tasks, GnnNode *node)
{
  NodeTask *t = g_hash_table_lookup (tasks, node);
  if (t == NULL)
    {
      t = g_new0 (NodeTask, 1);
      t->node = node;
      t->n_buffer = node->n_outputs;
      t->buffer = g_new0 (GnnTensor *, MAX (node->n_outputs, 1));
      g_hash_table_insert (tasks, node, t);
    }
  return t;
}

static gboolean
buffer_add (NodeTask *t, guint index, GnnTensor *grad, GError **error)
{
  if (t->buffer[index] == NULL)
    {
      t->buffer[index] = g_object_ref (grad);
      return TRUE;
    }
  else
    {
      GnnTensor *sum = gnn_tensor_add (t->buffer[index], grad, 1.0, error);
      if (sum == NULL)
        return FALSE;
      g_object_unref (t->buffer[index]);
      t->buffer[index] = sum;
      return TRUE;
    }
}

/* a max-heap of tasks by sequence number: later nodes first, as PyTorch's engine */
static void
heap_push (GPtrArray *heap, NodeTask *t)
{
  guint i = heap->len;
  g_ptr_array_add (heap, t);
  while (i > 0)
    {
      guint parent = (i - 1) / 2;
      NodeTask *a = heap->pdata[parent], *b = heap->pdata[i];
      if (a->node->sequence_nr >= b->node->sequence_nr)
        break;
      heap->pdata[parent] = b;
      heap->pdata[i] = a;
      i = parent;
    }
}

static NodeTask *
heap_pop (GPtrArray *heap)
{
  NodeTask *top = heap->pdata[0];
  NodeTask *last = g_ptr_array_steal_index (heap, heap->len - 1);
  guint i = 0;

  if (heap->len == 0)
    return top;
  heap->pdata[0] = last;
  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, m = i;
      if (l < heap->len && ((NodeTask *) heap->pdata[l])->node->sequence_nr > ((NodeTask *) heap->pdata[m])->node->sequence_nr)
        m = l;
      if (r < heap->len && ((NodeTask *) heap->pdata[r])->node->sequence_nr > ((NodeTask *) heap->pdata[m])->node->sequence_nr)
        m = r;
      if (m == i)
        break;
      gpointer tmp = heap->pdata[i];
      heap->pdata[i] = heap->pdata[m];
      heap->pdata[m] = tmp;
      i = m;
    }
  return top;
}

static gboolean
run_pre_hooks (GnnNode *node, GnnTensor **buffer, gboolean last)
{
  if (node->pre_hooks == NULL)
    return TRUE;
  for (guint i = 0; i < node->pre_hooks->len; i++)
    {
      GnnNodeHook h = g_array_index (node->pre_hooks, GnnNodeHook, i);
      GnnTensor *r;
      if (h.last != last || h.index >= node->n_outputs || buffer[h.index] == NULL)
        continue;
      r = h.func (node, h.index, buffer[h.index], h.data);
      if (r)
        {
          g_object_unref (buffer[h.index]);
          buffer[h.index] = r;
        }
    }
  return TRUE;
}

static gboolean
check_grad_input (GnnNode *node, guint j, GnnTensor *g, GError **error)
{
  GnnTensorPrivate *gp = gnn_tensor_priv (g);
  guint nd = node->in_ndim[j];

  if (gp->ndim != nd || memcmp (gp->shape, node->in_shape[j], sizeof (gint64) * nd) != 0)
    {
      g_autofree char *got = gnn_shape_to_string (gp->ndim, gp->shape);
      g_autofree char *want = gnn_shape_to_string (nd, node->in_shape[j]);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Function %s returned an invalid gradient at index %u - got %s but expected shape %s",
                   gnn_node_get_name (node), j, got, want);
      return FALSE;
    }
  return TRUE;
}

gboolean
gnn_autograd_run_backward (GnnTensor **roots,
                           GnnTensor **grads,
                           guint       n_roots,
                           gboolean    retain_graph,
                           GError    **error)
{
  /* root_nodes may hold the only reference to a root's node (a leaf's AccumulateGrad):
   * declared first, it is released last, after the tasks that point at those nodes */
  g_autoptr(GPtrArray) root_nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) gnn_node_unref);
  g_autoptr(GHashTable) tasks = g_hash_table_new_full (NULL, NULL, NULL, node_task_free);
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();
  g_autoptr(GPtrArray) heap = g_ptr_array_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  gboolean prev_mode;
  gboolean ok = TRUE;

  /* the roots' edges */
  for (guint r = 0; r < n_roots; r++)
    {
      guint input_nr = 0;
      GnnNode *node = gnn_autograd_gradient_edge (roots[r], &input_nr);
      NodeTask *t;

      if (node == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                       "element %u of tensors does not require grad and does not have a grad_fn", r);
          return FALSE;
        }
      g_ptr_array_add (root_nodes, node);
      t = task_for (tasks, node);
      if (!buffer_add (t, input_nr, grads[r], error))
        return FALSE;
      if (!g_hash_table_contains (seen, node))
        {
          g_hash_table_add (seen, node);
          g_ptr_array_add (stack, node);
        }
    }

  /* count dependencies */
  while (stack->len > 0)
    {
      GnnNode *node = g_ptr_array_steal_index (stack, stack->len - 1);
      for (guint i = 0; i < node->n_inputs; i++)
        {
          GnnNode *next = node->edges[i].node;
          if (next == NULL)
            continue;
          task_for (tasks, next)->dependencies++;
          if (!g_hash_table_contains (seen, next))
            {
              g_hash_table_add (seen, next);
              g_ptr_array_add (stack, next);
            }
        }
    }

  for (guint r = 0; r < root_nodes->len; r++)
    {
      NodeTask *t = g_hash_table_lookup (tasks, root_nodes->pdata[r]);
      if (t->dependencies == 0)
        {
          t->dependencies = G_MAXUINT;  /* pushed */
          heap_push (heap, t);
        }
    }

  prev_mode = gnn_set_grad_enabled (FALSE);
  while (heap->len > 0 && ok)
    {
      NodeTask *t = heap_pop (heap);
      GnnNode *node = t->node;
      g_autofree GnnTensor **grad_inputs = g_new0 (GnnTensor *, MAX (node->n_inputs, 1));

      run_pre_hooks (node, t->buffer, FALSE);
      run_pre_hooks (node, t->buffer, TRUE);
      if (!(node->backward ? node->backward (node, t->buffer, grad_inputs, error)
                           : accumulate_grad (node, t->buffer, error)))
        {
          const char *name = gnn_node_get_name (node);
          if (error && *error && !g_str_has_prefix ((*error)->message, name))
            g_prefix_error (error, "%s: ", name);
          ok = FALSE;
        }
      if (!retain_graph && node->variable == NULL)
        gnn_node_release_saved (node);
      for (guint j = 0; j < node->n_inputs && ok; j++)
        {
          GnnEdge *e = &node->edges[j];
          NodeTask *next;

          if (e->node == NULL)
            continue;
          next = g_hash_table_lookup (tasks, e->node);
          if (grad_inputs[j])
            {
              if (!check_grad_input (node, j, grad_inputs[j], error) ||
                  !buffer_add (next, e->input_nr, grad_inputs[j], error))
                ok = FALSE;
            }
          if (ok && --next->dependencies == 0)
            heap_push (heap, next);
        }
      for (guint j = 0; j < node->n_inputs; j++)
        g_clear_object (&grad_inputs[j]);
      /* free the gradients this node consumed as soon as possible */
      for (guint i = 0; i < node->n_outputs; i++)
        g_clear_object (&t->buffer[i]);
    }
  gnn_set_grad_enabled (prev_mode);
  return ok;
}

/* ---- GnnTensor: gradients ----------------------------------------------------------- */

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

  if (t != NULL)
    gnn_accumulate_grad (t, g_object_ref (grad), NULL);
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
