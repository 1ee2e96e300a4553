/* gnn-module-backward.c: module backward hooks (PyTorch's BackwardHook)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A hooked call passes the positional input tensors that require grad through an identity
 * node, and the outputs through another. In backward, the output node sees the gradients of
 * the outputs first: it runs the backward pre-hooks and keeps them. The input node sees the
 * gradients of the inputs later and runs the full backward hooks with both. Each call has its
 * own state, so a module called twice in one graph fires its hooks once per call.
 */
#include "config.h"

#include "gnn-module-private.h"
#include "autograd/graph/gnn-graph-private.h"
#include "ops/gnn-ops-private.h"

struct _GnnBackwardHookState
{
  gint ref;
  GnnModule *module;
  guint n_inputs;            /* positional input values */
  GArray *input_positions;   /* guint, of the wrapped inputs */
  gboolean inputs_wrapped;
  GnnArgs *grad_output;      /* set by the output node */
  guint n_outputs;
  GArray *output_positions;
};

static GnnBackwardHookState *
state_ref (GnnBackwardHookState *s)
{
  g_atomic_int_inc (&s->ref);
  return s;
}

static void
state_unref (gpointer data)
{
  GnnBackwardHookState *s = data;

  if (!g_atomic_int_dec_and_test (&s->ref))
    return;
  g_object_unref (s->module);
  g_array_unref (s->input_positions);
  g_clear_pointer (&s->output_positions, g_array_unref);
  g_clear_object (&s->grad_output);
  g_free (s);
}

gboolean
gnn_module_wants_backward_hooks (GnnModule *self)
{
  g_autoptr(GPtrArray) pre = gnn_module_hooks_for (self, GNN_HOOK_BACKWARD_PRE);
  g_autoptr(GPtrArray) post = NULL;

  if (pre != NULL)
    return TRUE;
  post = gnn_module_hooks_for (self, GNN_HOOK_BACKWARD);
  return post != NULL ||
         g_signal_has_handler_pending (self, gnn_module_signal_id (GNN_HOOK_BACKWARD_PRE), 0, FALSE) ||
         g_signal_has_handler_pending (self, gnn_module_signal_id (GNN_HOOK_BACKWARD), 0, FALSE);
}

static GnnArgs *
args_of_none (guint n)
{
  GnnArgs *a = gnn_args_new ();

  for (guint i = 0; i < n; i++)
    gnn_args_add_tensor (a, NULL);
  return a;
}

static void
run_backward_hooks (GnnBackwardHookState *s, GnnArgs *grad_input, GnnArgs *grad_output)
{
  g_autoptr(GPtrArray) hooks = gnn_module_hooks_for (s->module, GNN_HOOK_BACKWARD);

  for (guint i = 0; hooks && i < hooks->len; i++)
    {
      GnnModuleHook *h = hooks->pdata[i];
      ((GnnBackwardHookFunc) h->func) (s->module, grad_input, grad_output, h->data);
    }
  if (g_signal_has_handler_pending (s->module, gnn_module_signal_id (GNN_HOOK_BACKWARD), 0, FALSE))
    g_signal_emit (s->module, gnn_module_signal_id (GNN_HOOK_BACKWARD), 0, grad_input, grad_output);
}

/* a hook may put anything in the GnnArgs: take a tensor of the right shape or nothing */
static gboolean
take_grad (GnnArgs *args, guint pos, GnnNode *node, guint j, GnnTensor **out, GError **error)
{
  const GValue *v = gnn_args_get_value (args, pos);
  GnnTensor *t;

  if (v == NULL || !G_VALUE_HOLDS_OBJECT (v) || g_value_get_object (v) == NULL)
    return TRUE;
  t = g_value_get_object (v);
  if (!GNN_IS_TENSOR (t))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                   "backward hook of %s: gradient %u is not a tensor", "module", pos);
      return FALSE;
    }
  *out = g_object_ref (t);
  return TRUE;
}

/* outputs' gradients: pre-hooks, keep them, and run the full hooks now if no input needs a
 * gradient */
static gboolean
output_node_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnBackwardHookState *s = node->ctx;
  g_autoptr(GnnArgs) grad_output = args_of_none (s->n_outputs);
  g_autoptr(GPtrArray) pre = NULL;

  for (guint j = 0; j < node->n_outputs; j++)
    if (go[j])
      gnn_args_set_tensor (grad_output, g_array_index (s->output_positions, guint, j), go[j], NULL);

  pre = gnn_module_hooks_for (s->module, GNN_HOOK_BACKWARD_PRE);
  for (guint i = 0; pre && i < pre->len; i++)
    {
      GnnModuleHook *h = pre->pdata[i];
      ((GnnBackwardPreHookFunc) h->func) (s->module, grad_output, h->data);
    }
  if (g_signal_has_handler_pending (s->module, gnn_module_signal_id (GNN_HOOK_BACKWARD_PRE), 0, FALSE))
    g_signal_emit (s->module, gnn_module_signal_id (GNN_HOOK_BACKWARD_PRE), 0, grad_output);

  g_set_object (&s->grad_output, grad_output);
  if (!s->inputs_wrapped)
    {
      g_autoptr(GnnArgs) grad_input = args_of_none (s->n_inputs);
      run_backward_hooks (s, grad_input, grad_output);
    }
  for (guint j = 0; j < node->n_inputs; j++)
    if (!take_grad (grad_output, g_array_index (s->output_positions, guint, j), node, j, &gi[j], error))
      return FALSE;
  return TRUE;
}

/* inputs' gradients: the full backward hooks, which may replace them */
static gboolean
input_node_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnBackwardHookState *s = node->ctx;
  g_autoptr(GnnArgs) grad_input = args_of_none (s->n_inputs);
  g_autoptr(GnnArgs) grad_output = NULL;

  for (guint j = 0; j < node->n_outputs; j++)
    if (go[j])
      gnn_args_set_tensor (grad_input, g_array_index (s->input_positions, guint, j), go[j], NULL);
  grad_output = s->grad_output ? g_object_ref (s->grad_output) : args_of_none (s->n_outputs);
  run_backward_hooks (s, grad_input, grad_output);
  for (guint j = 0; j < node->n_inputs; j++)
    if (!take_grad (grad_input, g_array_index (s->input_positions, guint, j), node, j, &gi[j], error))
      return FALSE;
  return TRUE;
}

/* Passes the tensors of @args at @positions through a new identity node, replacing them by its
 * outputs, which may not be modified in place. */
static void
wrap (GnnBackwardHookState *s, GnnArgs *args, GArray *positions, GnnBackwardFunc backward)
{
  g_autoptr(GPtrArray) ins = g_ptr_array_new ();
  g_autoptr(GPtrArray) outs = g_ptr_array_new_with_free_func (g_object_unref);
  GnnNode *node;

  for (guint j = 0; j < positions->len; j++)
    {
      GnnTensor *t = gnn_args_get_tensor (args, g_array_index (positions, guint, j), NULL);
      g_ptr_array_add (ins, t);
      g_ptr_array_add (outs, gnn_tensor_new_alias (t));
    }
  node = gnn_autograd_record ("BackwardHookFunctionBackward", backward, (GnnTensor **) ins->pdata, ins->len,
                              (GnnTensor **) outs->pdata, outs->len);
  if (node == NULL)
    return;
  gnn_node_set_ctx (node, state_ref (s), state_unref);
  for (guint j = 0; j < positions->len; j++)
    {
      gnn_tensor_priv (outs->pdata[j])->inplace_forbidden = TRUE;
      gnn_args_set_tensor (args, g_array_index (positions, guint, j), outs->pdata[j], NULL);
    }
}

static GArray *
grad_positions (GnnArgs *args)
{
  GArray *positions = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < gnn_args_get_n_values (args); i++)
    if (gnn_args_is_tensor (args, i) && gnn_tensor_get_requires_grad (gnn_args_get_tensor (args, i, NULL)))
      g_array_append_val (positions, i);
  return positions;
}

GnnBackwardHookState *
gnn_backward_hooks_setup_input (GnnModule *self,
                                GnnArgs   *input)
{
  GnnBackwardHookState *s = g_new0 (GnnBackwardHookState, 1);

  s->ref = 1;
  s->module = g_object_ref (self);
  s->n_inputs = gnn_args_get_n_values (input);
  s->input_positions = grad_positions (input);
  s->inputs_wrapped = s->input_positions->len > 0;
  if (s->inputs_wrapped)
    wrap (s, input, s->input_positions, input_node_backward);
  return s;
}

void
gnn_backward_hooks_setup_output (GnnBackwardHookState *s,
                                 GnnArgs              *output)
{
  if (output != NULL)
    {
      s->n_outputs = gnn_args_get_n_values (output);
      s->output_positions = grad_positions (output);
      if (s->output_positions->len > 0)
        wrap (s, output, s->output_positions, output_node_backward);
    }
  state_unref (s);
}
