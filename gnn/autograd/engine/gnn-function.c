/* gnn-function.c: custom autograd functions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "gnn-engine-private.h"
#include "gnn-function.h"
#include "ops/gnn-ops-private.h"

/**
 * GnnFunction:
 *
 * A custom differentiable operation, as `torch.autograd.Function`: subclass it, implement
 * `forward` and `backward`, and call [method@Gnn.Function.apply].
 *
 * `forward` runs with grad mode off and returns new tensors; what `backward` needs it keeps
 * with [method@Gnn.Function.save_for_backward] (checked against in-place changes when read
 * back with [method@Gnn.Function.get_saved_tensors]) or in the subclass's own fields. When
 * an input requires grad, apply records one graph node whose backward calls the `backward`
 * virtual method with a gradient for every output (zeros for outputs that received none), and
 * expects one gradient per input, each %NULL or of the input's shape.
 *
 * A function object is used for one call of apply, as a `ctx` is in PyTorch.
 */

typedef struct {
  GPtrArray *saved;          /* GnnTensor aliases without history */
  GArray *saved_versions;    /* guint64 */
  GArray *needs_grad;        /* gboolean per input */
  gboolean applied;
  GnnNode *node;             /* borrowed: the node owns the function */
} GnnFunctionPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (GnnFunction, gnn_function, G_TYPE_OBJECT)

static void
gnn_function_dispose (GObject *object)
{
  GnnFunctionPrivate *priv = gnn_function_get_instance_private (GNN_FUNCTION (object));

  g_clear_pointer (&priv->saved, g_ptr_array_unref);
  G_OBJECT_CLASS (gnn_function_parent_class)->dispose (object);
}

static void
gnn_function_finalize (GObject *object)
{
  GnnFunctionPrivate *priv = gnn_function_get_instance_private (GNN_FUNCTION (object));

  g_clear_pointer (&priv->saved_versions, g_array_unref);
  g_clear_pointer (&priv->needs_grad, g_array_unref);
  G_OBJECT_CLASS (gnn_function_parent_class)->finalize (object);
}

static GPtrArray *
gnn_function_real_forward (GnnFunction *self, GPtrArray *inputs, GError **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "%s does not implement forward", G_OBJECT_TYPE_NAME (self));
  return NULL;
}

static GPtrArray *
gnn_function_real_backward (GnnFunction *self, GPtrArray *grad_outputs, GError **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "%s does not implement backward", G_OBJECT_TYPE_NAME (self));
  return NULL;
}

static void
gnn_function_class_init (GnnFunctionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = gnn_function_dispose;
  object_class->finalize = gnn_function_finalize;
  klass->forward = gnn_function_real_forward;
  klass->backward = gnn_function_real_backward;
}

static void
gnn_function_init (GnnFunction *self)
{
}

/* A vfunc from a binding may return NULL without an error (a Python exception that is not
 * a GLib.Error): make sure the caller always gets one. */
static GPtrArray *
call_checked (GnnFunction *self, gboolean fwd, GPtrArray *args, GError **error)
{
  GnnFunctionClass *klass = GNN_FUNCTION_GET_CLASS (self);
  GError *local = NULL;
  GPtrArray *out = fwd ? klass->forward (self, args, &local) : klass->backward (self, args, &local);

  if (out == NULL)
    {
      if (local == NULL)
        local = g_error_new (GNN_ERROR, GNN_ERROR_FAILED, "%s.%s returned no tensors and no error",
                             G_OBJECT_TYPE_NAME (self), fwd ? "forward" : "backward");
      g_propagate_error (error, local);
      return NULL;
    }
  if (local)
    g_propagate_error (error, local);
  return out;
}

/**
 * gnn_function_forward: (virtual forward)
 * @self: a function
 * @inputs: (element-type Gnn.Tensor): the inputs
 * @error: return location for a #GError
 *
 * Calls the `forward` virtual method directly, without recording anything. Use
 * [method@Gnn.Function.apply] to run the function.
 *
 * Returns: (transfer full) (element-type Gnn.Tensor): the outputs, or %NULL with @error set
 */
GPtrArray *
gnn_function_forward (GnnFunction *self,
                      GPtrArray   *inputs,
                      GError     **error)
{
  g_return_val_if_fail (GNN_IS_FUNCTION (self), NULL);
  g_return_val_if_fail (inputs != NULL, NULL);
  return call_checked (self, TRUE, inputs, error);
}

/**
 * gnn_function_backward: (virtual backward)
 * @self: a function
 * @grad_outputs: (element-type Gnn.Tensor): one gradient per output of forward
 * @error: return location for a #GError
 *
 * Calls the `backward` virtual method directly. The autograd engine calls it; users need not.
 *
 * Returns: (transfer full) (element-type Gnn.Tensor): one gradient per input, each possibly
 *   %NULL, or %NULL with @error set
 */
GPtrArray *
gnn_function_backward (GnnFunction *self,
                       GPtrArray   *grad_outputs,
                       GError     **error)
{
  g_return_val_if_fail (GNN_IS_FUNCTION (self), NULL);
  g_return_val_if_fail (grad_outputs != NULL, NULL);
  return call_checked (self, FALSE, grad_outputs, error);
}

/**
 * gnn_function_save_for_backward:
 * @self: a function
 * @tensors: (element-type Gnn.Tensor): tensors backward will need
 *
 * Keeps tensors for backward (`ctx.save_for_backward`). Call it from forward. Replaces what
 * was saved before. A saved output of forward comes back in backward with the function's node
 * as its history (under create_graph), so that a backward written with ops differentiates
 * again, as torch's saved outputs do.
 */
void
gnn_function_save_for_backward (GnnFunction *self,
                                GPtrArray   *tensors)
{
  GnnFunctionPrivate *priv;

  g_return_if_fail (GNN_IS_FUNCTION (self));
  g_return_if_fail (tensors != NULL);
  priv = gnn_function_get_instance_private (self);
  g_clear_pointer (&priv->saved, g_ptr_array_unref);
  g_clear_pointer (&priv->saved_versions, g_array_unref);
  priv->saved = g_ptr_array_new_with_free_func (g_object_unref);
  priv->saved_versions = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint i = 0; i < tensors->len; i++)
    {
      GnnTensor *t = tensors->pdata[i];
      guint64 v;
      g_return_if_fail (GNN_IS_TENSOR (t));
      v = gnn_tensor_get_version (t);
      g_ptr_array_add (priv->saved, g_object_ref (t));
      g_array_append_val (priv->saved_versions, v);
    }
}

/**
 * gnn_function_get_saved_tensors:
 * @self: a function
 * @error: return location for a #GError
 *
 * The tensors given to [method@Gnn.Function.save_for_backward] (`ctx.saved_tensors`).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the saved tensors, or %NULL with
 *   @error set when one was modified in place since it was saved, or when backward already
 *   ran without retain_graph
 */
GPtrArray *
gnn_function_get_saved_tensors (GnnFunction *self,
                                GError     **error)
{
  GnnFunctionPrivate *priv;
  GPtrArray *out;

  g_return_val_if_fail (GNN_IS_FUNCTION (self), NULL);
  priv = gnn_function_get_instance_private (self);
  out = g_ptr_array_new_with_free_func (g_object_unref);
  if (priv->node)
    {
      /* recorded: the node keeps them, freed after backward unless retain_graph */
      for (guint i = 0; i < priv->node->n_saved; i++)
        {
          GnnTensor *t = gnn_node_saved (priv->node, i, error);
          if (t == NULL)
            {
              g_ptr_array_unref (out);
              return NULL;
            }
          g_ptr_array_add (out, g_object_ref (t));
        }
      return out;
    }
  if (priv->saved == NULL)
    return out;
  for (guint i = 0; i < priv->saved->len; i++)
    {
      GnnTensor *t = priv->saved->pdata[i];
      guint64 want = g_array_index (priv->saved_versions, guint64, i);
      if (gnn_tensor_get_version (t) != want)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                       "one of the variables needed for gradient computation has been modified by an "
                       "inplace operation: saved tensor %u of %s is at version %" G_GUINT64_FORMAT
                       "; expected version %" G_GUINT64_FORMAT " instead",
                       i, G_OBJECT_TYPE_NAME (self), gnn_tensor_get_version (t), want);
          g_ptr_array_unref (out);
          return NULL;
        }
      g_ptr_array_add (out, g_object_ref (t));
    }
  return out;
}

/**
 * gnn_function_needs_input_grad:
 * @self: a function
 * @index: an input index
 *
 * Whether a gradient for input @index will be used (`ctx.needs_input_grad[index]`), so that
 * backward can skip computing the others. Valid once apply has started.
 *
 * Returns: whether input @index needs a gradient
 */
gboolean
gnn_function_needs_input_grad (GnnFunction *self,
                               guint        index)
{
  GnnFunctionPrivate *priv;

  g_return_val_if_fail (GNN_IS_FUNCTION (self), FALSE);
  priv = gnn_function_get_instance_private (self);
  if (priv->needs_grad == NULL || index >= priv->needs_grad->len)
    return FALSE;
  return g_array_index (priv->needs_grad, gboolean, index);
}

typedef struct {
  GnnFunction *function;
  guint n_outputs;
  guint8 *ndim;
  gint64 (*shape)[GNN_MAX_DIMS];
  GnnDtype *dtype;
} FunctionCtx;

static void
function_ctx_free (gpointer data)
{
  FunctionCtx *ctx = data;
  GnnFunctionPrivate *priv = gnn_function_get_instance_private (ctx->function);

  priv->node = NULL;
  g_object_unref (ctx->function);
  g_free (ctx->ndim);
  g_free (ctx->shape);
  g_free (ctx->dtype);
  g_free (ctx);
}

static gboolean
function_node_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  FunctionCtx *ctx = node->ctx;
  GnnFunction *self = ctx->function;
  g_autoptr(GPtrArray) grads_out = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) grads_in = NULL;
  GnnTensor *like = NULL;

  for (guint i = 0; i < node->n_outputs && like == NULL; i++)
    like = go[i];
  if (like == NULL)
    return TRUE;   /* no output received a gradient */
  for (guint i = 0; i < node->n_outputs; i++)
    {
      if (go[i])
        g_ptr_array_add (grads_out, g_object_ref (go[i]));
      else
        {
          /* an output that received no gradient gets zeros of its shape */
          GnnTensor *z = gnn_tensor_new_like (like, ctx->dtype[i], ctx->ndim[i], ctx->shape[i], error);
          if (z == NULL || !gnn_tensor_zero_ (z, error))
            {
              g_clear_object (&z);
              return FALSE;
            }
          g_ptr_array_add (grads_out, z);
        }
    }
  grads_in = gnn_function_backward (self, grads_out, error);
  if (grads_in == NULL)
    return FALSE;
  if (grads_in->len != node->n_inputs)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                   "function %sBackward returned an incorrect number of gradients (expected %u, got %u)",
                   G_OBJECT_TYPE_NAME (self), node->n_inputs, grads_in->len);
      return FALSE;
    }
  for (guint j = 0; j < node->n_inputs; j++)
    {
      GnnTensor *g = grads_in->pdata[j];
      if (g == NULL || node->edges[j].node == NULL)
        continue;
      if (!GNN_IS_TENSOR (g))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                       "function %sBackward returned something that is not a tensor at index %u",
                       G_OBJECT_TYPE_NAME (self), j);
          return FALSE;
        }
      gi[j] = gnn_tensor_cast (g, node->in_dtype[j], error);
      if (gi[j] == NULL)
        return FALSE;
    }
  return TRUE;
}

/**
 * gnn_function_apply:
 * @self: a function, used for this call only
 * @inputs: (element-type Gnn.Tensor): the inputs
 * @error: return location for a #GError
 *
 * Runs forward with grad mode off and, when grad mode is on and an input requires grad,
 * records a node whose backward calls the `backward` virtual method (`Function.apply`). The
 * node is named after the class, as "MyFunctionBackward". Forward must return tensors it made
 * (an input returned as it is comes back as a new view of it).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the outputs, or %NULL with @error set
 */
GPtrArray *
gnn_function_apply (GnnFunction *self,
                    GPtrArray   *inputs,
                    GError     **error)
{
  GnnFunctionPrivate *priv;
  g_autoptr(GPtrArray) raw = NULL;
  GPtrArray *outputs;
  gboolean prev, record;
  GnnNode *node;
  FunctionCtx *ctx;
  const char *name;

  g_return_val_if_fail (GNN_IS_FUNCTION (self), NULL);
  g_return_val_if_fail (inputs != NULL, NULL);
  priv = gnn_function_get_instance_private (self);
  if (priv->applied)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s was already applied: make a new function object for each call",
                   G_OBJECT_TYPE_NAME (self));
      return NULL;
    }
  priv->applied = TRUE;
  for (guint i = 0; i < inputs->len; i++)
    if (!GNN_IS_TENSOR (inputs->pdata[i]))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s.apply: input %u is not a tensor", G_OBJECT_TYPE_NAME (self), i);
        return NULL;
      }
  record = gnn_autograd_needed ((GnnTensor **) inputs->pdata, inputs->len);
  priv->needs_grad = g_array_sized_new (FALSE, TRUE, sizeof (gboolean), inputs->len);
  for (guint i = 0; i < inputs->len; i++)
    {
      gboolean need = record && gnn_tensor_get_requires_grad (inputs->pdata[i]);
      g_array_append_val (priv->needs_grad, need);
    }

  prev = gnn_set_grad_enabled (FALSE);
  raw = gnn_function_forward (self, inputs, error);
  gnn_set_grad_enabled (prev);
  if (raw == NULL)
    return NULL;

  outputs = g_ptr_array_new_full (raw->len, g_object_unref);
  for (guint i = 0; i < raw->len; i++)
    {
      GnnTensor *t = raw->pdata[i];
      gboolean is_input = FALSE;

      if (!GNN_IS_TENSOR (t))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s.forward: output %u is not a tensor", G_OBJECT_TYPE_NAME (self), i);
          g_ptr_array_unref (outputs);
          return NULL;
        }
      for (guint k = 0; k < inputs->len && !is_input; k++)
        is_input = inputs->pdata[k] == (gpointer) t;
      /* an output must own its autograd identity */
      g_ptr_array_add (outputs, is_input || gnn_tensor_priv (t)->grad_fn ? gnn_tensor_new_alias (t) : g_object_ref (t));
    }
  if (!record)
    return outputs;

  {
    g_autofree char *full = g_strconcat (G_OBJECT_TYPE_NAME (self), "Backward", NULL);
    name = g_intern_string (full);
  }
  node = gnn_autograd_record (name, function_node_backward, (GnnTensor **) inputs->pdata, inputs->len,
                              (GnnTensor **) outputs->pdata, outputs->len);
  if (node)
    {
      ctx = g_new0 (FunctionCtx, 1);
      ctx->function = g_object_ref (self);
      ctx->n_outputs = outputs->len;
      ctx->ndim = g_new (guint8, MAX (outputs->len, 1));
      ctx->shape = g_malloc (sizeof (gint64[GNN_MAX_DIMS]) * MAX (outputs->len, 1));
      ctx->dtype = g_new (GnnDtype, MAX (outputs->len, 1));
      for (guint i = 0; i < outputs->len; i++)
        {
          GnnTensorPrivate *p = gnn_tensor_priv (outputs->pdata[i]);
          ctx->ndim[i] = (guint8) p->ndim;
          memcpy (ctx->shape[i], p->shape, sizeof (gint64) * p->ndim);
          ctx->dtype[i] = p->dtype;
        }
      gnn_node_set_ctx (node, ctx, function_ctx_free);
      /* the node keeps the saved tensors, with the versions they had when saved */
      priv->node = node;
      for (guint i = 0; priv->saved && i < priv->saved->len; i++)
        {
          gnn_node_save (node, priv->saved->pdata[i]);
          node->saved[node->n_saved - 1].version = g_array_index (priv->saved_versions, guint64, i);
        }
      g_clear_pointer (&priv->saved, g_ptr_array_unref);
    }
  return outputs;
}
