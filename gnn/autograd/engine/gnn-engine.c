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
#include "gnn-autograd.h"
#include "ops/gnn-ops-private.h"
#include "ops/gnn-autocast-private.h"
#include "core/gnn-profiler-hooks-private.h"

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

#define TASK_INLINE_BUFFER 4
#define TASKS_LOCAL 32

typedef struct _Tasks Tasks;

typedef struct {
  GnnNode *node;       /* borrowed: the graph keeps it alive while the task exists */
  Tasks *owner;        /* the run the task belongs to */
  guint dependencies;
  guint n_buffer;
  gboolean claimed;    /* node->engine_task points here */
  gboolean needed;     /* gnn_autograd_grad's mode: leads to a captured edge */
  gboolean seen;       /* pushed on the dependency count's stack */
  GnnTensor **buffer;  /* one per node output: inline_buffer or allocated */
  GnnTensor *inline_buffer[TASK_INLINE_BUFFER];
} NodeTask;

/* The tasks of one backward run: the first ones on the caller's stack, the others allocated.
 * A node's task is found through node->engine_task when this run holds it, else in a table
 * that only a nested or concurrent run over the same nodes needs. */
struct _Tasks {
  NodeTask *local;     /* TASKS_LOCAL tasks on the caller's stack, not initialised */
  guint n_local;
  GPtrArray *all;      /* every task, in order of creation */
  GHashTable *other;   /* node -> task for nodes another run holds, or NULL */
};

static void
node_task_clear (NodeTask *t)
{
  for (guint i = 0; i < t->n_buffer; i++)
    g_clear_object (&t->buffer[i]);
  if (t->buffer != t->inline_buffer)
    g_free (t->buffer);
  if (t->claimed)
    g_atomic_pointer_set (&t->node->engine_task, NULL);
}

static void
tasks_clear (Tasks *tasks)
{
  if (tasks->all == NULL)
    return;
  for (guint i = 0; i < tasks->all->len; i++)
    {
      NodeTask *t = tasks->all->pdata[i];
      node_task_clear (t);
      if (t < tasks->local || t >= tasks->local + TASKS_LOCAL)
        g_free (t);
    }
  g_ptr_array_unref (tasks->all);
  g_clear_pointer (&tasks->other, g_hash_table_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Tasks, tasks_clear)

static NodeTask *
task_lookup (Tasks *tasks, GnnNode *node)
{
  NodeTask *t = g_atomic_pointer_get (&node->engine_task);
  if (t && t->owner == tasks)
    return t;
  return tasks->other ? g_hash_table_lookup (tasks->other, node) : NULL;
}

static NodeTask *
task_for (Tasks *tasks, GnnNode *node)
{
  NodeTask *t = task_lookup (tasks, node);
  if (t == NULL)
    {
      if (tasks->n_local < TASKS_LOCAL)
        {
          t = &tasks->local[tasks->n_local++];
          memset (t, 0, sizeof *t);
        }
      else
        t = g_new0 (NodeTask, 1);
      t->node = node;
      t->owner = tasks;
      t->n_buffer = node->n_outputs;
      t->buffer = node->n_outputs <= TASK_INLINE_BUFFER ? t->inline_buffer
                                                       : g_new0 (GnnTensor *, node->n_outputs);
      if (tasks->all == NULL)
        tasks->all = g_ptr_array_new ();
      g_ptr_array_add (tasks->all, t);
      t->claimed = g_atomic_pointer_compare_and_exchange (&node->engine_task, NULL, t);
      if (!t->claimed)
        {
          if (tasks->other == NULL)
            tasks->other = g_hash_table_new (NULL, NULL);
          g_hash_table_insert (tasks->other, node, t);
        }
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

static gint
compare_sequence_nr (gconstpointer a, gconstpointer b)
{
  guint64 x = ((const GnnNode *) a)->sequence_nr, y = ((const GnnNode *) b)->sequence_nr;
  return x < y ? -1 : x > y;
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

/* ---- anomaly detection --------------------------------------------------------------- */

/* the report of the last backward that failed on this thread under anomaly mode */
static GPrivate anomaly_report = G_PRIVATE_INIT (g_free);

/**
 * gnn_autograd_take_anomaly_report:
 *
 * Takes the report that anomaly detection ([func@Gnn.autograd_set_anomaly_enabled]) left when
 * a backward failed on this thread: `Error detected in MulBackward0. Traceback of forward call
 * that caused the error:` and the trace the node recorded, as torch's anomaly mode warns. A
 * later failure replaces it; taking it clears it.
 *
 * Returns: (transfer full) (nullable): the report, or %NULL when no backward failed under
 *   anomaly mode since the last call
 *
 * Since: 0.1
 */
char *
gnn_autograd_take_anomaly_report (void)
{
  char *report = g_private_get (&anomaly_report);
  g_private_set (&anomaly_report, NULL);
  return report;
}

static void
anomaly_note_failure (GnnNode *node)
{
  const char *trace = node->anomaly_trace;
  char *report;

  if (trace && *trace)
    report = g_strdup_printf ("Error detected in %s. Traceback of forward call that caused the "
                              "error:\n%s", gnn_node_get_name (node), trace);
  else
    report = g_strdup_printf ("Error detected in %s. No forward trace was recorded (no trace "
                              "function was set when the node was recorded, or anomaly mode was "
                              "off)", gnn_node_get_name (node));
  g_private_replace (&anomaly_report, report);
}

/* anomaly mode's check of a node's results, as torch's engine makes it after each formula */
static gboolean
anomaly_check_nan (GnnNode *node, GnnTensor **grad_inputs, GError **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

  for (guint j = 0; j < node->n_inputs; j++)
    {
      g_autoptr(GnnTensor) ne = NULL;
      g_autoptr(GnnTensor) count = NULL;
      GError *local = NULL;
      double n;

      if (grad_inputs[j] == NULL || !gnn_dtype_is_floating (gnn_tensor_get_dtype (grad_inputs[j])))
        continue;
      if (!(ne = gnn_tensor_ne (grad_inputs[j], grad_inputs[j], error)) ||
          !(count = gnn_tensor_sum_all (ne, error)))
        return FALSE;
      n = gnn_tensor_item (count, &local);
      if (local)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      if (n > 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                       "Function '%s' returned nan values in its %uth output.",
                       gnn_node_get_name (node), j);
          return FALSE;
        }
    }
  return TRUE;
}

/* In gnn_autograd_grad's mode: marks the nodes that lead to a captured edge (the edges point
 * at nodes recorded earlier, so one pass in order of recording settles each node after the
 * nodes it points at); the others are not run. */
static gint
compare_task_sequence_nr (gconstpointer a, gconstpointer b)
{
  const NodeTask *x = *(NodeTask * const *) a, *y = *(NodeTask * const *) b;
  return compare_sequence_nr (x->node, y->node);
}

static void
mark_needed (Tasks *tasks, GnnNode **capture, guint n_capture)
{
  g_autoptr(GPtrArray) order = tasks->all ? g_ptr_array_copy (tasks->all, NULL, NULL)
                                          : g_ptr_array_new ();

  g_ptr_array_sort (order, compare_task_sequence_nr);
  for (guint k = 0; k < n_capture; k++)
    if (capture[k])
      {
        NodeTask *t = task_lookup (tasks, capture[k]);
        if (t)
          t->needed = TRUE;
      }
  for (guint n = 0; n < order->len; n++)
    {
      NodeTask *t = order->pdata[n];
      GnnNode *node = t->node;
      for (guint i = 0; i < node->n_inputs && !t->needed; i++)
        if (node->edges[i].node && task_lookup (tasks, node->edges[i].node)->needed)
          t->needed = TRUE;
    }
}

gboolean
gnn_autograd_run_backward (GnnTensor **roots,
                           GnnTensor **grads,
                           guint       n_roots,
                           gboolean    retain_graph,
                           gboolean    create_graph,
                           GnnNode   **capture,
                           guint      *capture_nr,
                           guint       n_capture,
                           GnnTensor **captured,
                           GError    **error)
{
  /* root_nodes may hold the only reference to a root's node (a leaf's AccumulateGrad):
   * declared first, it is released last, after the tasks that point at those nodes */
  g_autoptr(GPtrArray) root_nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) gnn_node_unref);
  /* declared after root_nodes, so cleared before the nodes it points at can go */
  NodeTask local_tasks[TASKS_LOCAL];
  g_auto(Tasks) tasks_storage = { local_tasks, 0, NULL, NULL };
  Tasks *tasks = &tasks_storage;
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();
  g_autoptr(GPtrArray) heap = g_ptr_array_new ();
  gboolean needed = capture != NULL;
  GnnTensor *grad_inputs_local[8];
  gboolean prev_mode;
  gboolean ok = TRUE;
  gpointer module_ranges = NULL;    /* the modules' backward ranges a profiler has open */

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
      if (!t->seen)
        {
          t->seen = TRUE;
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
          NodeTask *nt = task_for (tasks, next);
          nt->dependencies++;
          if (!nt->seen)
            {
              nt->seen = TRUE;
              g_ptr_array_add (stack, next);
            }
        }
    }
  if (needed)
    mark_needed (tasks, capture, n_capture);

  for (guint r = 0; r < root_nodes->len; r++)
    {
      NodeTask *t = task_lookup (tasks, root_nodes->pdata[r]);
      if (t->dependencies == 0)
        {
          t->dependencies = G_MAXUINT;  /* pushed */
          heap_push (heap, t);
        }
    }

  /* with create_graph the formulas record: the gradients are differentiable in turn */
  prev_mode = gnn_set_grad_enabled (create_graph);
  gnn_autocast_exclude_push ();
  while (heap->len > 0 && ok)
    {
      NodeTask *t = heap_pop (heap);
      GnnNode *node = t->node;
      GnnTensor **grad_inputs = node->n_inputs <= G_N_ELEMENTS (grad_inputs_local)
                                ? grad_inputs_local : g_new0 (GnnTensor *, node->n_inputs);
      gboolean run = !needed || (node->n_inputs > 0 && t->needed);

      if (grad_inputs == grad_inputs_local)
        memset (grad_inputs_local, 0, sizeof grad_inputs_local);
      gpointer profiled = NULL;
      gboolean failed;

      run_pre_hooks (node, t->buffer, FALSE);
      if (!needed)
        run_pre_hooks (node, t->buffer, TRUE);   /* retain_grad: not in gnn_autograd_grad */
      for (guint k = 0; k < n_capture; k++)
        if (capture[k] == node && t->buffer[capture_nr[k]] && captured[k] == NULL)
          captured[k] = g_object_ref (t->buffer[capture_nr[k]]);
      /* the node's backward as a profiler range, its kernels inside */
      if (run && GNN_PROFILER_IS_ACTIVE ())
        {
          /* ... inside the backward range of the module whose forward recorded it */
          if (node->profile_scope)
            gnn_profiler_module_backward_enter (&module_ranges, node->profile_scope);
          profiled = gnn_profiler_backward_begin (gnn_node_get_name (node));
        }
      failed = run && !(node->backward ? node->backward (node, t->buffer, grad_inputs, error)
                                       : accumulate_grad (node, t->buffer, error));

      gnn_profiler_range_close (profiled);
      if (failed)
        {
          const char *name = gnn_node_get_name (node);
          if (error && *error && !g_str_has_prefix ((*error)->message, name))
            g_prefix_error (error, "%s: ", name);
          ok = FALSE;
        }
      else if (run && node->backward && gnn_autograd_is_anomaly_enabled () &&
               gnn_autograd_is_anomaly_check_nan_enabled () &&
               !anomaly_check_nan (node, grad_inputs, error))
        ok = FALSE;
      gnn_node_clear_unpacked (node);
      if (run && !retain_graph && node->variable == NULL)
        gnn_node_release_saved (node);
      for (guint j = 0; j < node->n_inputs && ok; j++)
        {
          GnnEdge *e = &node->edges[j];
          NodeTask *next;

          if (e->node == NULL)
            continue;
          next = task_lookup (tasks, e->node);
          if (grad_inputs[j])
            {
              if (!check_grad_input (node, j, grad_inputs[j], error) ||
                  !buffer_add (next, e->input_nr, grad_inputs[j], error))
                ok = FALSE;
            }
          if (ok && --next->dependencies == 0)
            heap_push (heap, next);
        }
      /* the formula, the NaN check or the gradients' shapes failed at this node */
      if (!ok && gnn_autograd_is_anomaly_enabled ())
        anomaly_note_failure (node);
      for (guint j = 0; j < node->n_inputs; j++)
        g_clear_object (&grad_inputs[j]);
      if (grad_inputs != grad_inputs_local)
        g_free (grad_inputs);
      /* free the gradients this node consumed as soon as possible */
      for (guint i = 0; i < node->n_outputs; i++)
        g_clear_object (&t->buffer[i]);
    }
  gnn_profiler_module_backward_end (module_ranges);
  gnn_autocast_exclude_pop ();
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

/* The gradient @self starts backward with: @gradient cast to @self's dtype, or one for a
 * scalar; @index names it in errors as torch does. */
static GnnTensor *
root_gradient (GnnTensor *self, GnnTensor *gradient, guint index, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  g_autoptr(GnnTensor) g = NULL;

  if (gradient == NULL)
    {
      if (gnn_shape_numel (p->ndim, p->shape) != 1)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                               "grad can be implicitly created only for scalar outputs");
          return NULL;
        }
      g = gnn_tensor_new_like (self, p->dtype, p->ndim, p->shape, error);
      if (g == NULL || !gnn_tensor_fill_ (g, 1.0, error))
        return NULL;
      return g_steal_pointer (&g);
    }
  else
    {
      GnnTensorPrivate *gp = gnn_tensor_priv (gradient);
      if (gp->ndim != p->ndim || memcmp (gp->shape, p->shape, sizeof (gint64) * p->ndim) != 0)
        {
          g_autofree char *a = gnn_shape_to_string (gp->ndim, gp->shape);
          g_autofree char *b = gnn_shape_to_string (p->ndim, p->shape);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "Mismatch in shape: grad_output[%u] has a shape of %s and output[%u] has a shape of %s",
                       index, a, index, b);
          return NULL;
        }
      if (!gnn_check_same_device ("backward", self, gradient, error))
        return NULL;
      return gnn_tensor_cast (gradient, p->dtype, error);
    }
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
 * [method@Gnn.Tensor.backward_full] also records the gradients' own graph (create_graph).
 *
 * Returns: %TRUE on success; on failure @error names the op whose backward failed
 */
gboolean
gnn_tensor_backward (GnnTensor *self,
                     GnnTensor *gradient,
                     gboolean   retain_graph,
                     GError   **error)
{
  return gnn_tensor_backward_full (self, gradient, retain_graph, FALSE, error);
}

/**
 * gnn_tensor_backward_full:
 * @self: the tensor to differentiate, usually a scalar loss
 * @gradient: (nullable): the gradient of the final result with respect to @self; may be
 *   %NULL only when @self has one element (then it is one)
 * @retain_graph: whether to keep the saved tensors for another backward; torch's default
 *   is @create_graph
 * @create_graph: whether to record the graph of the gradients themselves, so that they can
 *   be differentiated again (higher-order gradients)
 * @error: return location for a #GError
 *
 * [method@Gnn.Tensor.backward] with `create_graph` (`Tensor.backward (gradient, retain_graph,
 * create_graph)`): with @create_graph the backward formulas run with grad mode on, so the
 * gradients accumulated into the leaves' `grad` have a grad_fn of their own (a leaf's `grad`
 * is replaced by `grad + new` out of place rather than added to in place). An op whose
 * double backward gnn lacks fails with %GNN_ERROR_NOT_SUPPORTED naming it.
 *
 * Returns: %TRUE on success; on failure @error names the op whose backward failed
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_backward_full (GnnTensor *self,
                          GnnTensor *gradient,
                          gboolean   retain_graph,
                          gboolean   create_graph,
                          GError   **error)
{
  g_autoptr(GnnTensor) g = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (gradient == NULL || GNN_IS_TENSOR (gradient), FALSE);
  if (!gnn_tensor_priv (self)->requires_grad)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "element 0 of tensors does not require grad and does not have a grad_fn");
      return FALSE;
    }
  if (!(g = root_gradient (self, gradient, 0, error)))
    return FALSE;
  return gnn_autograd_run_backward (&self, &g, 1, retain_graph, create_graph, NULL, NULL, 0, NULL, error);
}

static void
object_unref_nullable (gpointer object)
{
  if (object)
    g_object_unref (object);
}

/**
 * gnn_autograd_grad:
 * @outputs: (array length=n_outputs): the tensors to differentiate
 * @n_outputs: the number of @outputs
 * @grad_outputs: (array length=n_grad_outputs) (nullable): the gradient of the final result
 *   with respect to each output (%NULL, or an entry %NULL, for one: only for an output of
 *   one element)
 * @n_grad_outputs: the number of @grad_outputs: 0 or @n_outputs
 * @inputs: (array length=n_inputs): the tensors to differentiate with respect to
 * @n_inputs: the number of @inputs
 * @retain_graph: whether to keep the saved tensors for another backward (torch's default is
 *   @create_graph)
 * @create_graph: whether to record the graph of the gradients, so that they can be
 *   differentiated again
 * @allow_unused: whether an input that no output depends on gets a %NULL gradient instead of
 *   an error
 * @error: return location for a #GError
 *
 * The gradients of @outputs with respect to @inputs (`torch.autograd.grad`): the sum over the
 * outputs of each output's vector-Jacobian product with its grad output. Nothing is
 * accumulated into any tensor's `grad`, and only the part of the graph between the outputs
 * and the inputs runs.
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): one gradient per input, shaped as it;
 *   an entry is %NULL for an unused input when @allow_unused; %NULL with @error set on failure
 *
 * Since: 0.1
 */
GPtrArray *
gnn_autograd_grad (GnnTensor **outputs,
                   guint       n_outputs,
                   GnnTensor **grad_outputs,
                   guint       n_grad_outputs,
                   GnnTensor **inputs,
                   guint       n_inputs,
                   gboolean    retain_graph,
                   gboolean    create_graph,
                   gboolean    allow_unused,
                   GError    **error)
{
  g_autoptr(GPtrArray) grads = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) result = NULL;
  g_autofree GnnNode **capture = NULL;
  g_autofree guint *capture_nr = NULL;
  g_autofree GnnTensor **captured = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (outputs != NULL || n_outputs == 0, NULL);
  g_return_val_if_fail (inputs != NULL || n_inputs == 0, NULL);
  g_return_val_if_fail (grad_outputs != NULL || n_grad_outputs == 0, NULL);
  if (n_grad_outputs != 0 && n_grad_outputs != n_outputs)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                   "grad requires one grad_output per output: got %u grad_outputs for %u outputs",
                   n_grad_outputs, n_outputs);
      return NULL;
    }
  if (n_inputs == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "grad requires at least one input: got an empty list of inputs");
      return NULL;
    }
  for (guint i = 0; i < n_outputs; i++)
    {
      GnnTensor *g;

      g_return_val_if_fail (GNN_IS_TENSOR (outputs[i]), NULL);
      if (!gnn_tensor_priv (outputs[i])->requires_grad)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                       "element %u of tensors does not require grad and does not have a grad_fn", i);
          return NULL;
        }
      if (!(g = root_gradient (outputs[i], n_grad_outputs ? grad_outputs[i] : NULL, i, error)))
        return NULL;
      g_ptr_array_add (grads, g);
    }
  capture = g_new0 (GnnNode *, n_inputs);
  capture_nr = g_new0 (guint, n_inputs);
  captured = g_new0 (GnnTensor *, n_inputs);
  for (guint k = 0; k < n_inputs && ok; k++)
    {
      g_return_val_if_fail (GNN_IS_TENSOR (inputs[k]), NULL);
      if (!(capture[k] = gnn_autograd_gradient_edge (inputs[k], &capture_nr[k])))
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                               "One of the differentiated Tensors does not require grad");
          ok = FALSE;
        }
    }
  if (ok)
    ok = gnn_autograd_run_backward (outputs, (GnnTensor **) grads->pdata, n_outputs, retain_graph,
                                    create_graph, capture, capture_nr, n_inputs, captured, error);
  result = g_ptr_array_new_full (n_inputs, object_unref_nullable);
  for (guint k = 0; k < n_inputs; k++)
    {
      if (ok && captured[k] == NULL && !allow_unused)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                               "One of the differentiated Tensors appears to not have been used in "
                               "the graph. Set allow_unused=True if this is the desired behavior.");
          ok = FALSE;
        }
      g_ptr_array_add (result, captured[k]);
      g_clear_pointer (&capture[k], gnn_node_unref);
    }
  return ok ? g_steal_pointer (&result) : NULL;
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
