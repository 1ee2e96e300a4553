/* gnn-graph.c: the autograd graph: grad mode, nodes and their edges, saved tensors checked
 * against version counters, hooks on nodes, and the recording of in-place ops
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The layer below ops/: ops record nodes here, and nothing here calls an op. The formulas of
 * the nodes this file makes itself (CopySlices, AsStridedBackward0) live in ops/ with the
 * others and come in as arguments; AccumulateGrad nodes have no backward function: the engine
 * (autograd/engine) accumulates into their variable.
 */
#include "config.h"

#include <string.h>

#include "gnn-graph-private.h"
#include "core/gnn-profiler-hooks-private.h"

/* ---- grad mode ---------------------------------------------------------------------- */

static __thread gboolean grad_disabled;

/**
 * gnn_is_grad_enabled:
 *
 * Checks whether operations on this thread record the autograd graph (`torch.is_grad_enabled
 * ()`).
 *
 * Returns: whether operations on this thread record the autograd graph
 *   (`torch.is_grad_enabled ()`)
 *
 * MT safe: grad mode is per thread.
 */
gboolean
gnn_is_grad_enabled (void)
{
  return !grad_disabled;
}

/**
 * gnn_set_grad_enabled:
 * @enabled: whether to record the autograd graph on this thread
 *
 * Sets grad mode for the calling thread (`torch.set_grad_enabled`).
 *
 * Returns: the previous setting
 *
 * MT safe: grad mode is per thread.
 */
gboolean
gnn_set_grad_enabled (gboolean enabled)
{
  gboolean old = !grad_disabled;
  grad_disabled = !enabled;
  return old;
}

static __thread gboolean inference_mode;

/**
 * gnn_is_inference_mode_enabled:
 *
 * Checks whether inference mode is on for the calling thread
 * (`torch.is_inference_mode_enabled ()`).
 *
 * Returns: whether inference mode is on for the calling thread
 *
 * Since: 0.1
 */
gboolean
gnn_is_inference_mode_enabled (void)
{
  return inference_mode;
}

/**
 * gnn_set_inference_mode_enabled:
 * @enabled: whether to turn inference mode on
 * @grad_enabled: (out) (optional): where to store the grad mode before the call
 *
 * Sets inference mode for the calling thread, as `torch.inference_mode (mode)` does on entry:
 * with @enabled, grad mode is turned off and every tensor whose memory is made from now on is
 * an inference tensor ([method@Gnn.Tensor.is_inference]); without, grad mode is turned on
 * and new tensors are normal ones (`inference_mode (False)` inside `no_grad` records the
 * graph again, as torch's does). In-place updates of normal tensors stay allowed in inference
 * mode. To leave, set the previous inference mode and then the previous grad mode back with
 * [func@Gnn.set_grad_enabled].
 *
 * Returns: the previous inference mode
 *
 * MT safe: the mode is per thread.
 *
 * Since: 0.1
 */
gboolean
gnn_set_inference_mode_enabled (gboolean  enabled,
                                gboolean *grad_enabled)
{
  gboolean old = inference_mode;

  if (grad_enabled)
    *grad_enabled = !grad_disabled;
  inference_mode = enabled;
  grad_disabled = enabled;
  gnn_tensor_set_creating_inference (enabled);
  return old;
}

struct _GnnNoGradGuard
{
  gboolean previous;
};

/**
 * gnn_no_grad_guard_new: (skip)
 *
 * Turns grad mode off for the calling thread until the guard is freed, which restores the
 * previous mode. Bindings use [func@Gnn.set_grad_enabled] (Python: `with Gnn.no_grad ():`).
 *
 * Returns: (transfer full): a guard for [method@Gnn.NoGradGuard.free]
 */
GnnNoGradGuard *
gnn_no_grad_guard_new (void)
{
  GnnNoGradGuard *guard = g_new (GnnNoGradGuard, 1);
  guard->previous = gnn_set_grad_enabled (FALSE);
  return guard;
}

/**
 * gnn_no_grad_guard_free: (skip)
 * @guard: a guard from [func@Gnn.NoGradGuard.new]
 *
 * Restores the grad mode that was in force when @guard was made.
 */
void
gnn_no_grad_guard_free (GnnNoGradGuard *guard)
{
  g_return_if_fail (guard != NULL);
  gnn_set_grad_enabled (guard->previous);
  g_free (guard);
}

/* ---- anomaly mode ------------------------------------------------------------------- */

/* global, as torch's AnomalyMode is: set from one thread, read by every thread's engine */
static gint anomaly_enabled;
static gint anomaly_check_nan = TRUE;

G_LOCK_DEFINE_STATIC (anomaly_trace);
static GnnAnomalyTraceFunc anomaly_trace_func;
static gpointer anomaly_trace_data;
static GDestroyNotify anomaly_trace_notify;

/**
 * gnn_autograd_set_anomaly_enabled:
 * @enabled: whether to turn anomaly detection on
 * @check_nan: with @enabled, whether a backward formula that returns NaN is an error
 *
 * Turns the autograd engine's anomaly detection on or off, as
 * `torch.autograd.set_detect_anomaly (mode, check_nan)` does. While it is on, every node the
 * graph records keeps the forward trace that [func@Gnn.autograd_set_anomaly_trace_func]'s
 * function gives (Python's traceback in the bindings), a backward that fails leaves a report
 * naming the node and that trace for [func@Gnn.autograd_take_anomaly_report], and, with
 * @check_nan, a node whose backward returns a gradient holding NaN fails with
 * `Function 'SqrtBackward0' returned nan values in its 0th output.` (torch's words).
 * It slows every op down: turn it on to find where a NaN comes from, not to train.
 *
 * MT safe: the mode is one for the process, as torch's is.
 *
 * Since: 0.1
 */
void
gnn_autograd_set_anomaly_enabled (gboolean enabled,
                                  gboolean check_nan)
{
  g_atomic_int_set (&anomaly_check_nan, !!check_nan);
  g_atomic_int_set (&anomaly_enabled, !!enabled);
}

/**
 * gnn_autograd_is_anomaly_enabled:
 *
 * Checks whether anomaly detection is on (`torch.is_anomaly_enabled ()`).
 *
 * Returns: whether [func@Gnn.autograd_set_anomaly_enabled] turned anomaly detection on
 *
 * Since: 0.1
 */
gboolean
gnn_autograd_is_anomaly_enabled (void)
{
  return g_atomic_int_get (&anomaly_enabled);
}

/**
 * gnn_autograd_is_anomaly_check_nan_enabled:
 *
 * Checks whether anomaly detection, when on, fails a backward that returns NaN
 * (`torch.is_anomaly_check_nan_enabled ()`; %TRUE by default).
 *
 * Returns: the @check_nan of the last [func@Gnn.autograd_set_anomaly_enabled]
 *
 * Since: 0.1
 */
gboolean
gnn_autograd_is_anomaly_check_nan_enabled (void)
{
  return g_atomic_int_get (&anomaly_check_nan);
}

/**
 * gnn_autograd_set_anomaly_trace_func:
 * @func: (nullable) (scope notified) (closure user_data) (destroy notify): the function that
 *   describes where the program is, or %NULL for none
 * @user_data: data for @func
 * @notify: (nullable): frees @user_data when @func is replaced
 *
 * Sets the function that anomaly detection calls each time the graph records a node, on the
 * thread that records it, for the forward trace the node keeps: the Python bindings set one
 * that gives Python's traceback, as torch's anomaly mode records it. Without one a node keeps
 * no trace and a report names only the node.
 *
 * Since: 0.1
 */
void
gnn_autograd_set_anomaly_trace_func (GnnAnomalyTraceFunc func,
                                     gpointer            user_data,
                                     GDestroyNotify      notify)
{
  GDestroyNotify old_notify;
  gpointer old_data;

  G_LOCK (anomaly_trace);
  old_notify = anomaly_trace_notify;
  old_data = anomaly_trace_data;
  anomaly_trace_func = func;
  anomaly_trace_data = user_data;
  anomaly_trace_notify = notify;
  G_UNLOCK (anomaly_trace);
  if (old_notify)
    old_notify (old_data);
}

/* the forward trace a node recorded now keeps, or NULL when anomaly mode is off */
static char *
anomaly_trace (void)
{
  GnnAnomalyTraceFunc func;
  gpointer data;

  if (!g_atomic_int_get (&anomaly_enabled))
    return NULL;
  G_LOCK (anomaly_trace);
  func = anomaly_trace_func;
  data = anomaly_trace_data;
  G_UNLOCK (anomaly_trace);
  return func ? func (data) : g_strdup ("");
}

/* ---- nodes -------------------------------------------------------------------------- */

static guint64 next_sequence_nr;
static gulong next_hook_id = 1;

void
gnn_node_release_saved (GnnNode *node)
{
  for (guint i = 0; i < node->n_saved; i++)
    {
      g_clear_object (&node->saved[i].tensor);
      g_clear_object (&node->saved[i].unpacked);
      g_clear_pointer (&node->saved[i].edge, gnn_node_unref);
    }
  node->released = TRUE;
}

/* the last reference to @node went (gnn_node_unref) */
static void
node_free (GnnNode *node)
{
  gnn_node_release_saved (node);
  if (node->ctx_free && node->ctx)
    node->ctx_free (node->ctx);
  g_free (node->anomaly_trace);
  g_free (node->saved);
  for (guint i = 0; i < node->n_inputs; i++)
    if (node->edges[i].node)
      gnn_node_unref (node->edges[i].node);
  g_free (node->edges);
  g_free (node->in_ndim);
  g_free (node->in_shape);
  g_free (node->in_dtype);
  if (node->pre_hooks)
    {
      for (guint i = 0; i < node->pre_hooks->len; i++)
        {
          GnnNodeHook *h = &g_array_index (node->pre_hooks, GnnNodeHook, i);
          if (h->destroy)
            h->destroy (h->data);
        }
      g_array_unref (node->pre_hooks);
    }
  if (node->variable)
    {
      GnnTensorPrivate *vp = gnn_tensor_priv (node->variable);
      if (vp->grad_accumulator == node)
        vp->grad_accumulator = NULL;
      g_object_unref (node->variable);
    }
  g_free (node);
}

static GnnNode *
node_new (const char *name, GnnBackwardFunc backward, guint n_inputs, guint n_outputs)
{
  GnnNode *node = g_new0 (GnnNode, 1);

  g_atomic_ref_count_init (&node->header.ref_count);
  node->header.name = name;
  node->header.free = node_free;
  node->backward = backward;
  node->n_inputs = n_inputs;
  node->n_outputs = n_outputs;
  node->edges = g_new0 (GnnEdge, MAX (n_inputs, 1));
  node->sequence_nr = g_atomic_pointer_add (&next_sequence_nr, 1);
  if (backward)
    node->anomaly_trace = anomaly_trace ();
  /* so that its backward runs inside the backward range of the module that recorded it; an
   * AccumulateGrad (no backward) stays in the range of the node that feeds it */
  if (GNN_PROFILER_IS_ACTIVE () && backward)
    node->profile_scope = gnn_profiler_node_scope ();
  return node;
}

static GnnNode *
get_accumulator (GnnTensor *leaf)
{
  GnnTensorPrivate *p = gnn_tensor_priv (leaf);
  GnnNode *acc;

  if (p->grad_accumulator)
    return gnn_node_ref (p->grad_accumulator);
  acc = node_new ("AccumulateGrad", NULL, 0, 1);
  acc->sequence_nr = G_MAXUINT64;
  acc->variable = g_object_ref (leaf);
  p->grad_accumulator = acc;
  return acc;
}

GnnNode *
gnn_autograd_gradient_edge (GnnTensor *t,
                            guint     *input_nr)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  if (!p->requires_grad)
    return NULL;
  if (p->grad_fn)
    {
      *input_nr = p->output_nr;
      return gnn_node_ref (p->grad_fn);
    }
  *input_nr = 0;
  return get_accumulator (t);
}

gboolean
gnn_autograd_needed (GnnTensor **inputs,
                     guint       n_inputs)
{
  if (grad_disabled)
    return FALSE;
  for (guint i = 0; i < n_inputs; i++)
    if (inputs[i] && gnn_tensor_priv (inputs[i])->requires_grad)
      return TRUE;
  return FALSE;
}

static GnnNode *
make_node (const char *name, GnnBackwardFunc backward, GnnTensor **inputs, guint n_inputs,
           guint n_outputs)
{
  GnnNode *node = node_new (name, backward, n_inputs, n_outputs);

  node->in_ndim = g_new (guint8, MAX (n_inputs, 1));
  node->in_shape = g_malloc (sizeof (gint64[GNN_MAX_DIMS]) * MAX (n_inputs, 1));
  node->in_dtype = g_new (GnnDtype, MAX (n_inputs, 1));
  for (guint i = 0; i < n_inputs; i++)
    {
      if (inputs[i] == NULL)
        {
          node->in_ndim[i] = 0;
          node->in_dtype[i] = GNN_DTYPE_FLOAT32;
          continue;
        }
      GnnTensorPrivate *p = gnn_tensor_priv (inputs[i]);
      node->in_ndim[i] = (guint8) p->ndim;
      memcpy (node->in_shape[i], p->shape, sizeof (gint64) * p->ndim);
      node->in_dtype[i] = p->dtype;
      node->edges[i].node = gnn_autograd_gradient_edge (inputs[i], &node->edges[i].input_nr);
    }
  return node;
}

GnnNode *
gnn_autograd_record (const char       *name,
                     GnnBackwardFunc   backward,
                     GnnTensor       **inputs,
                     guint             n_inputs,
                     GnnTensor       **outputs,
                     guint             n_outputs)
{
  GnnNode *node;

  if (!gnn_autograd_needed (inputs, n_inputs))
    return NULL;
  node = make_node (name, backward, inputs, n_inputs, n_outputs);
  for (guint i = 0; i < n_outputs; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (outputs[i]);
      if (!gnn_dtype_is_floating (p->dtype))
        continue;
      g_clear_pointer (&p->grad_fn, gnn_node_unref);
      p->grad_fn = gnn_node_ref (node);
      p->output_nr = i;
      p->requires_grad = TRUE;
    }
  gnn_node_unref (node);  /* the outputs hold it */
  return node;
}

void
gnn_node_save (GnnNode   *node,
               GnnTensor *tensor)
{
  GnnTensorPrivate *p = gnn_tensor_priv (tensor);
  GnnSavedTensor *s;

  node->saved = g_renew (GnnSavedTensor, node->saved, node->n_saved + 1);
  s = &node->saved[node->n_saved++];
  s->tensor = gnn_tensor_new_alias (tensor);
  s->version = p->version->version;
  s->is_output = p->grad_fn == node;
  s->inference = p->version->inference && !inference_mode;
  s->owner_name = p->grad_fn ? gnn_node_get_name (p->grad_fn) : NULL;
  s->output_nr = p->output_nr;
  s->edge = NULL;
  s->edge_nr = 0;
  s->unpacked = NULL;
  if (!s->is_output)
    s->edge = gnn_autograd_gradient_edge (tensor, &s->edge_nr);
}

gboolean
gnn_node_saved_requires_grad (GnnNode *node,
                              guint    i)
{
  g_assert (i < node->n_saved);
  return node->saved[i].is_output || node->saved[i].edge != NULL;
}

void
gnn_node_clear_unpacked (GnnNode *node)
{
  for (guint i = 0; i < node->n_saved; i++)
    g_clear_object (&node->saved[i].unpacked);
}

/* An alias of the saved tensor carrying its history: an output of @node gets @node as its
 * grad_fn (a cycle until gnn_node_clear_unpacked), an input the edge it had when saved. A
 * leaf's alias shares the leaf's AccumulateGrad, so that its gradient reaches the leaf. */
static GnnTensor *
unpack_with_history (GnnNode *node, GnnSavedTensor *s)
{
  GnnTensor *t;
  GnnTensorPrivate *p;

  if (s->unpacked)
    return s->unpacked;
  if (!s->is_output && s->edge == NULL)
    return s->tensor;
  t = gnn_tensor_new_alias (s->tensor);
  p = gnn_tensor_priv (t);
  p->requires_grad = TRUE;
  if (s->is_output)
    {
      p->grad_fn = gnn_node_ref (node);
      p->output_nr = s->output_nr;
    }
  else if (s->edge->variable)
    p->grad_accumulator = s->edge;   /* borrowed: s->edge holds it while t lives */
  else
    {
      p->grad_fn = gnn_node_ref (s->edge);
      p->output_nr = s->edge_nr;
    }
  s->unpacked = t;
  return t;
}

GnnTensor *
gnn_node_saved (GnnNode *node,
                guint    i,
                GError **error)
{
  GnnSavedTensor *s;
  GnnTensorPrivate *p;

  g_assert (i < node->n_saved);
  s = &node->saved[i];
  if (s->tensor == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                   "Trying to backward through the graph a second time (or directly access saved "
                   "tensors after they have already been freed). Saved intermediate values of the "
                   "graph are freed when you call backward. Specify retain_graph=TRUE if you need "
                   "to backward through the graph a second time.");
      return NULL;
    }
  if (s->inference)
    {
      /* torch refuses when the op records; ops here cannot fail once they have run, so the
       * backward that needs the tensor fails */
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "Inference tensors cannot be saved for backward. To work around you "
                           "can make a clone to get a normal tensor and use it in autograd.");
      return NULL;
    }
  p = gnn_tensor_priv (s->tensor);
  if (p->version->version != s->version)
    {
      g_autofree char *shape = gnn_shape_to_string (p->ndim, p->shape);
      g_autofree char *owner = NULL;
      if (s->owner_name)
        owner = g_strdup_printf (", which is output %u of %s,", s->output_nr,
                                 s->is_output ? gnn_node_get_name (node) : s->owner_name);
      static const char *const type_names[] = {
        [GNN_DTYPE_FLOAT32] = "torch.FloatTensor", [GNN_DTYPE_FLOAT64] = "torch.DoubleTensor",
        [GNN_DTYPE_INT64] = "torch.LongTensor", [GNN_DTYPE_BOOL] = "torch.BoolTensor",
        [GNN_DTYPE_UINT8] = "torch.ByteTensor", [GNN_DTYPE_FLOAT16] = "torch.HalfTensor",
        [GNN_DTYPE_BFLOAT16] = "torch.BFloat16Tensor", [GNN_DTYPE_INT32] = "torch.IntTensor",
        [GNN_DTYPE_INT16] = "torch.ShortTensor", [GNN_DTYPE_INT8] = "torch.CharTensor",
      };
      g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                   "one of the variables needed for gradient computation has been modified by an "
                   "inplace operation: [%s %s]%s is at version %" G_GUINT64_FORMAT
                   "; expected version %" G_GUINT64_FORMAT " instead",
                   type_names[p->dtype], shape, owner ? owner : "",
                   p->version->version, s->version);
      return NULL;
    }
  if (!grad_disabled)
    return unpack_with_history (node, s);
  return s->tensor;
}

void
gnn_node_set_ctx (GnnNode       *node,
                  gpointer       ctx,
                  GDestroyNotify ctx_free)
{
  node->ctx = ctx;
  node->ctx_free = ctx_free;
}

gulong
gnn_node_add_pre_hook (GnnNode        *node,
                       guint           index,
                       gboolean        last,
                       GnnNodeHookFunc func,
                       gpointer        data,
                       GDestroyNotify  destroy)
{
  GnnNodeHook h = { func, index, last, data, destroy, 0 };

  h.id = g_atomic_pointer_add (&next_hook_id, 1);
  if (node->pre_hooks == NULL)
    node->pre_hooks = g_array_new (FALSE, FALSE, sizeof (GnnNodeHook));
  g_array_append_val (node->pre_hooks, h);
  return h.id;
}

gboolean
gnn_node_remove_hook (GnnNode *node,
                      gulong   id)
{
  if (node->pre_hooks == NULL)
    return FALSE;
  for (guint i = 0; i < node->pre_hooks->len; i++)
    {
      GnnNodeHook *h = &g_array_index (node->pre_hooks, GnnNodeHook, i);
      if (h->id == id)
        {
          GDestroyNotify destroy = h->destroy;
          gpointer data = h->data;
          g_array_remove_index (node->pre_hooks, i);
          if (destroy)
            destroy (data);
          return TRUE;
        }
    }
  return FALSE;
}

gulong
gnn_autograd_next_hook_id (void)
{
  return g_atomic_pointer_add (&next_hook_id, 1);
}

/* ---- in place ----------------------------------------------------------------------- */

gboolean
gnn_autograd_check_inplace (GnnTensor *self,
                            GError   **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);

  if (p->version->inference && !inference_mode)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "Inplace update to inference tensor outside InferenceMode is not "
                           "allowed.You can make a clone to get a normal tensor before doing "
                           "inplace update.See https://github.com/pytorch/rfcs/pull/17 for more "
                           "details.");
      return FALSE;
    }
  if (grad_disabled)
    return TRUE;
  if (p->inplace_forbidden && p->grad_fn)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                   "Output %u of %s is a view and is being modified inplace. This view was created "
                   "inside a custom Function (or because an input was returned as-is) and the autograd "
                   "logic to handle view+inplace would override the custom backward associated with the "
                   "custom Function, leading to incorrect gradients. This behavior is forbidden. You can "
                   "fix this by cloning the output of the custom Function.",
                   p->output_nr, gnn_node_get_name (p->grad_fn));
      return FALSE;
    }
  if (p->requires_grad && p->grad_fn == NULL && p->base == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           "a leaf Variable that requires grad is being used in an in-place operation.");
      return FALSE;
    }
  if (p->base)
    {
      GnnTensorPrivate *bp = gnn_tensor_priv (p->base);
      if (bp->requires_grad && bp->grad_fn == NULL)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                               "a view of a leaf Variable that requires grad is being used in an "
                               "in-place operation.");
          return FALSE;
        }
      if (bp->requires_grad && !gnn_tensor_is_contiguous_priv (bp))
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                               "in-place operations on a view of a non-contiguous tensor that "
                               "requires grad are not supported: apply the operation out of place");
          return FALSE;
        }
    }
  return TRUE;
}

GnnNode *
gnn_autograd_prepare_inplace (const char      *name,
                              GnnBackwardFunc  backward,
                              GnnTensor      **inputs,
                              guint            n_inputs)
{
  if (!gnn_autograd_needed (inputs, n_inputs))
    return NULL;
  return make_node (name, backward, inputs, n_inputs, 1);
}

/* ---- in place on views: PyTorch's CopySlices ---------------------------------------- */

static void
view_geometry_free (gpointer data)
{
  GnnViewGeometry *g = data;
  if (g->fn)
    gnn_node_unref (g->fn);
  g_free (g);
}

/* @self is a view of a contiguous base and @node its in-place op's node: the base's history
 * becomes CopySlices (op's node), the view's a strided view of the base's */
static void
rebase_history (GnnTensor       *self,
                GnnNode         *node,
                GnnBackwardFunc  copy_slices_backward,
                GnnBackwardFunc  as_strided_backward)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  GnnTensor *base = p->base;
  GnnTensorPrivate *bp = gnn_tensor_priv (base);
  GnnTensor *inputs[3] = { base, NULL, NULL };
  GnnNode *cs;
  GnnViewGeometry *g = g_new0 (GnnViewGeometry, 1);
  GnnViewGeometry *g2;

  g->ndim = p->ndim;
  memcpy (g->shape, p->shape, sizeof (gint64) * p->ndim);
  memcpy (g->strides, p->strides, sizeof (gint64) * p->ndim);
  g->offset = p->offset - bp->offset;
  g2 = g_memdup2 (g, sizeof *g);

  cs = make_node ("CopySlices", copy_slices_backward, inputs, 1, 1);
  /* CopySlices takes the op's other inputs as its own */
  cs->edges = g_renew (GnnEdge, cs->edges, node->n_inputs);
  cs->in_ndim = g_renew (guint8, cs->in_ndim, node->n_inputs);
  cs->in_shape = g_realloc (cs->in_shape, sizeof (gint64[GNN_MAX_DIMS]) * node->n_inputs);
  cs->in_dtype = g_renew (GnnDtype, cs->in_dtype, node->n_inputs);
  for (guint j = 1; j < node->n_inputs; j++)
    {
      cs->edges[j] = node->edges[j];
      if (cs->edges[j].node)
        gnn_node_ref (cs->edges[j].node);
      cs->in_ndim[j] = node->in_ndim[j];
      memcpy (cs->in_shape[j], node->in_shape[j], sizeof (gint64[GNN_MAX_DIMS]));
      cs->in_dtype[j] = node->in_dtype[j];
    }
  cs->n_inputs = node->n_inputs;
  g->fn = node;   /* takes the reference */
  gnn_node_set_ctx (cs, g, view_geometry_free);

  g_clear_pointer (&bp->grad_fn, gnn_node_unref);
  bp->grad_fn = cs;
  bp->output_nr = 0;
  bp->requires_grad = TRUE;

  /* the view now derives from the base's new history */
  g_clear_pointer (&p->grad_fn, gnn_node_unref);
  {
    GnnNode *vn = make_node ("AsStridedBackward0", as_strided_backward, inputs, 1, 1);
    gnn_node_set_ctx (vn, g2, view_geometry_free);
    p->grad_fn = vn;
    p->output_nr = 0;
    p->requires_grad = TRUE;
  }
}

void
gnn_autograd_commit_inplace (GnnTensor       *self,
                             GnnNode         *node,
                             GnnBackwardFunc  copy_slices_backward,
                             GnnBackwardFunc  as_strided_backward)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);

  p->version->version++;
  if (node == NULL)
    return;
  if (p->base && gnn_tensor_is_contiguous_priv (gnn_tensor_priv (p->base)))
    {
      rebase_history (self, node, copy_slices_backward, as_strided_backward);
      return;
    }
  g_clear_pointer (&p->grad_fn, gnn_node_unref);
  p->grad_fn = node;
  p->output_nr = 0;
  p->requires_grad = TRUE;
}
