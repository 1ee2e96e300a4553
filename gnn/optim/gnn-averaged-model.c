/* gnn-averaged-model.c: GnnAverageFunction, GnnAveragedModel and gnn_update_bn, as
 * torch.optim.swa_utils
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "nn/gnn-module-private.h"
#include "nn/gnn-props-private.h"
#include "ops/gnn-ops-private.h"
#include "gnn-averaged-model.h"

/* ---- GnnAverageFunction --------------------------------------------------------------- */

/**
 * GnnAverageFunction:
 *
 * An averaging function for [class@Gnn.AveragedModel]: the `avg_fn` or `multi_avg_fn` of
 * `torch.optim.swa_utils`.
 *
 * The built-in functions are PyTorch's:
 *
 * - [ctor@Gnn.AverageFunction.new_ema] and [ctor@Gnn.AverageFunction.new_ema_multi]
 *   (`get_ema_avg_fn`, `get_ema_multi_avg_fn`): an exponential moving average,
 *   averaged ← decay · averaged + (1 − decay) · current;
 * - [ctor@Gnn.AverageFunction.new_swa] and [ctor@Gnn.AverageFunction.new_swa_multi]
 *   (`get_swa_avg_fn`, `get_swa_multi_avg_fn`): the equal-weight average of stochastic weight
 *   averaging, averaged ← averaged + (current − averaged) / (n_averaged + 1).
 *
 * They do not call a function per tensor: the floating-point tensors of each device and dtype
 * are updated by one call of the backend's fused kernel ([func@Gnn.foreach_lerp_], the
 * interpolation weight 1 − decay or 1 / (n_averaged + 1)), whichever form (one tensor or a
 * list) the function has. Integer tensors (a BatchNorm's `num_batches_tracked`, averaged when
 * [property@Gnn.AveragedModel:use-buffers] is set) follow what PyTorch does on the CPU: the
 * formula is computed in float32 and the result truncated into the integer tensor; the list
 * form of SWA refuses them, as PyTorch's `_foreach_addcdiv_` does.
 *
 * User functions are wrapped with [ctor@Gnn.AverageFunction.new_callback] (one tensor at a
 * time, returning the new value) or [ctor@Gnn.AverageFunction.new_multi_callback] (the lists
 * of a device and dtype, updated in place). The form decides which property of the averaged
 * model takes the function: [property@Gnn.AveragedModel:avg-fn] or
 * [property@Gnn.AveragedModel:multi-avg-fn].
 */

typedef enum {
  KIND_EMA,
  KIND_SWA,
  KIND_CALLBACK,
} AverageKind;

struct _GnnAverageFunction
{
  GObject parent_instance;

  AverageKind kind;
  gboolean multi;
  double decay;
  GnnAvgFunc func;
  GnnMultiAvgFunc multi_func;
  gpointer user_data;
  GDestroyNotify destroy;
};

G_DEFINE_FINAL_TYPE (GnnAverageFunction, gnn_average_function, G_TYPE_OBJECT)

static void
gnn_average_function_finalize (GObject *object)
{
  GnnAverageFunction *self = GNN_AVERAGE_FUNCTION (object);

  if (self->destroy)
    self->destroy (self->user_data);
  G_OBJECT_CLASS (gnn_average_function_parent_class)->finalize (object);
}

static void
gnn_average_function_class_init (GnnAverageFunctionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_average_function_finalize;
}

static void
gnn_average_function_init (GnnAverageFunction *self)
{
  self->decay = NAN;
}

static GnnAverageFunction *
new_ema (double decay, gboolean multi, GError **error)
{
  GnnAverageFunction *self;

  /* written so that NaN is refused too */
  if (!(decay >= 0.0 && decay <= 1.0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Invalid decay value %g provided. Please provide a value in [0,1] range.", decay);
      return NULL;
    }
  self = g_object_new (GNN_TYPE_AVERAGE_FUNCTION, NULL);
  self->kind = KIND_EMA;
  self->multi = multi;
  self->decay = decay;
  return self;
}

/**
 * gnn_average_function_new_ema:
 * @decay: the weight of the average, in [0, 1]
 * @error: return location for a #GError
 *
 * The exponential moving average of one tensor (`get_ema_avg_fn (decay)`):
 * averaged ← decay · averaged + (1 − decay) · current. For [property@Gnn.AveragedModel:avg-fn].
 *
 * Returns: (transfer full): the function, or %NULL with @error set when @decay is outside
 *   [0, 1]
 */
GnnAverageFunction *
gnn_average_function_new_ema (double   decay,
                              GError **error)
{
  return new_ema (decay, FALSE, error);
}

/**
 * gnn_average_function_new_ema_multi:
 * @decay: the weight of the average, in [0, 1]
 * @error: return location for a #GError
 *
 * The exponential moving average of lists of tensors, in place (`get_ema_multi_avg_fn
 * (decay)`): `_foreach_lerp_ (averaged, current, 1 - decay)`, one fused kernel call for each
 * device and dtype. For [property@Gnn.AveragedModel:multi-avg-fn].
 *
 * Returns: (transfer full): the function, or %NULL with @error set when @decay is outside
 *   [0, 1]
 */
GnnAverageFunction *
gnn_average_function_new_ema_multi (double   decay,
                                    GError **error)
{
  return new_ema (decay, TRUE, error);
}

static GnnAverageFunction *
new_swa (gboolean multi)
{
  GnnAverageFunction *self = g_object_new (GNN_TYPE_AVERAGE_FUNCTION, NULL);

  self->kind = KIND_SWA;
  self->multi = multi;
  return self;
}

/**
 * gnn_average_function_new_swa:
 *
 * The equal-weight average of one tensor (`get_swa_avg_fn ()`): averaged ← averaged +
 * (current − averaged) / (n_averaged + 1). This is what [class@Gnn.AveragedModel] does when
 * given no function. For [property@Gnn.AveragedModel:avg-fn].
 *
 * Returns: (transfer full): the function
 */
GnnAverageFunction *
gnn_average_function_new_swa (void)
{
  return new_swa (FALSE);
}

/**
 * gnn_average_function_new_swa_multi:
 *
 * The equal-weight average of lists of tensors, in place (`get_swa_multi_avg_fn ()`):
 * `_foreach_lerp_ (averaged, current, 1 / (n_averaged + 1))`. As in PyTorch, integer tensors
 * are refused. For [property@Gnn.AveragedModel:multi-avg-fn].
 *
 * Returns: (transfer full): the function
 */
GnnAverageFunction *
gnn_average_function_new_swa_multi (void)
{
  return new_swa (TRUE);
}

/**
 * gnn_average_function_new_callback:
 * @func: (scope notified) (closure user_data) (destroy destroy): the function
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the function object goes
 *
 * Wraps a user function of one tensor (an `avg_fn`), called for each averaged tensor; its
 * result is copied into the averaged tensor. For [property@Gnn.AveragedModel:avg-fn].
 *
 * Returns: (transfer full): the function
 */
GnnAverageFunction *
gnn_average_function_new_callback (GnnAvgFunc     func,
                                   gpointer       user_data,
                                   GDestroyNotify destroy)
{
  GnnAverageFunction *self;

  g_return_val_if_fail (func != NULL, NULL);
  self = g_object_new (GNN_TYPE_AVERAGE_FUNCTION, NULL);
  self->kind = KIND_CALLBACK;
  self->func = func;
  self->user_data = user_data;
  self->destroy = destroy;
  return self;
}

/**
 * gnn_average_function_new_multi_callback:
 * @func: (scope notified) (closure user_data) (destroy destroy): the function
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the function object goes
 *
 * Wraps a user function of lists of tensors (a `multi_avg_fn`), called once for each device
 * and dtype with the tensors to update in place. For
 * [property@Gnn.AveragedModel:multi-avg-fn].
 *
 * Returns: (transfer full): the function
 */
GnnAverageFunction *
gnn_average_function_new_multi_callback (GnnMultiAvgFunc func,
                                         gpointer        user_data,
                                         GDestroyNotify  destroy)
{
  GnnAverageFunction *self;

  g_return_val_if_fail (func != NULL, NULL);
  self = g_object_new (GNN_TYPE_AVERAGE_FUNCTION, NULL);
  self->kind = KIND_CALLBACK;
  self->multi = TRUE;
  self->multi_func = func;
  self->user_data = user_data;
  self->destroy = destroy;
  return self;
}

/**
 * gnn_average_function_get_multi:
 * @self: a function
 *
 * Checks whether the function takes lists of tensors (a `multi_avg_fn`) rather than one tensor
 * at a time (an `avg_fn`).
 *
 * Returns: whether the function takes lists of tensors (a `multi_avg_fn`) rather than one
 *   tensor at a time (an `avg_fn`)
 */
gboolean
gnn_average_function_get_multi (GnnAverageFunction *self)
{
  g_return_val_if_fail (GNN_IS_AVERAGE_FUNCTION (self), FALSE);
  return self->multi;
}

/**
 * gnn_average_function_get_decay:
 * @self: a function
 *
 * Returns the decay of an exponential moving average; NaN for the other functions.
 *
 * Returns: the decay of an exponential moving average; NaN for the other functions
 */
double
gnn_average_function_get_decay (GnnAverageFunction *self)
{
  g_return_val_if_fail (GNN_IS_AVERAGE_FUNCTION (self), NAN);
  return self->decay;
}

/* the tensors of one device and dtype */
typedef struct {
  GnnStorage *like;      /* borrowed: a storage of the group's device */
  GnnDtype dtype;
  GPtrArray *averaged;   /* borrowed */
  GPtrArray *current;
} Group;

static void
group_free (gpointer data)
{
  Group *g = data;

  g_ptr_array_unref (g->averaged);
  g_ptr_array_unref (g->current);
  g_free (g);
}

/* PyTorch's _group_tensors_by_device_and_dtype: groups in the order of first appearance */
static GPtrArray *
group_by_device_and_dtype (GnnTensor **averaged, GnnTensor **current, guint n)
{
  GPtrArray *groups = g_ptr_array_new_with_free_func (group_free);

  for (guint i = 0; i < n; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (averaged[i]);
      Group *g = NULL;

      for (guint k = 0; k < groups->len && g == NULL; k++)
        {
          Group *c = groups->pdata[k];
          if (c->dtype == p->dtype && c->like->entry == p->storage->entry && c->like->device == p->storage->device)
            g = c;
        }
      if (g == NULL)
        {
          g = g_new0 (Group, 1);
          g->like = p->storage;
          g->dtype = p->dtype;
          g->averaged = g_ptr_array_new ();
          g->current = g_ptr_array_new ();
          g_ptr_array_add (groups, g);
        }
      g_ptr_array_add (g->averaged, averaged[i]);
      g_ptr_array_add (g->current, current[i]);
    }
  return groups;
}

/* @t on @like's device, without autograd history: a detached alias of @t when it is there
 * already (as PyTorch's `p.detach ().to (device)`) */
static GnnTensor *
on_device_of (GnnTensor *t, GnnTensor *like, GError **error)
{
  if (gnn_check_same_device ("update_parameters", t, like, NULL))
    return gnn_tensor_detach (t);
  return gnn_tensor_to_device (t, gnn_tensor_get_device (like), error);
}

/* averaged ← trunc (f32 (decay · averaged + (1 − decay) · current)): PyTorch's
 * `p_ema.copy_ (p_ema * decay + p_model * (1 - decay))` on an integer tensor */
static gboolean
ema_integer (GnnTensor *averaged, GnnTensor *current, double decay, GError **error)
{
  g_autoptr(GnnTensor) a = gnn_tensor_to_dtype (averaged, GNN_DTYPE_FLOAT32, error);
  g_autoptr(GnnTensor) c = a ? gnn_tensor_to_dtype (current, GNN_DTYPE_FLOAT32, error) : NULL;
  g_autoptr(GnnTensor) ad = c ? gnn_tensor_mul_scalar (a, decay, error) : NULL;
  g_autoptr(GnnTensor) cd = ad ? gnn_tensor_mul_scalar (c, 1.0 - decay, error) : NULL;
  g_autoptr(GnnTensor) sum = cd ? gnn_tensor_add (ad, cd, 1.0, error) : NULL;

  return sum && gnn_tensor_copy_ (averaged, sum, error);
}

/* averaged ← trunc (f32 (averaged + (current − averaged) / (n + 1))): PyTorch's `get_swa_avg_fn`
 * on an integer tensor, its true division giving float32 */
static gboolean
swa_integer (GnnTensor *averaged, GnnTensor *current, gint64 n, GError **error)
{
  g_autoptr(GnnTensor) diff = gnn_tensor_sub (current, averaged, 1.0, error);
  g_autoptr(GnnTensor) df = diff ? gnn_tensor_to_dtype (diff, GNN_DTYPE_FLOAT32, error) : NULL;
  g_autoptr(GnnTensor) q = df ? gnn_tensor_div_scalar (df, (double) (n + 1), error) : NULL;
  g_autoptr(GnnTensor) a = q ? gnn_tensor_to_dtype (averaged, GNN_DTYPE_FLOAT32, error) : NULL;
  g_autoptr(GnnTensor) sum = a ? gnn_tensor_add (a, q, 1.0, error) : NULL;

  return sum && gnn_tensor_copy_ (averaged, sum, error);
}

/* one group through a built-in function */
static gboolean
apply_builtin (GnnAverageFunction *self, Group *g, gint64 n, GError **error)
{
  if (gnn_dtype_is_floating (g->dtype))
    {
      double weight = self->kind == KIND_EMA ? 1.0 - self->decay : 1.0 / ((double) n + 1.0);
      return gnn_foreach_lerp_ ((GnnTensor **) g->averaged->pdata, (GnnTensor **) g->current->pdata,
                                g->averaged->len, weight, error);
    }
  if (self->kind == KIND_SWA && self->multi)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "Integer division with addcdiv is no longer supported (get_swa_multi_avg_fn on %s "
                   "tensors: average integer buffers with get_swa_avg_fn, or leave use_buffers off)",
                   gnn_dtype_get_name (g->dtype));
      return FALSE;
    }
  for (guint i = 0; i < g->averaged->len; i++)
    {
      gboolean ok = self->kind == KIND_EMA
        ? ema_integer (g->averaged->pdata[i], g->current->pdata[i], self->decay, error)
        : swa_integer (g->averaged->pdata[i], g->current->pdata[i], n, error);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* one group through a user function, with detached aliases of the averaged tensors */
static gboolean
apply_callback (GnnAverageFunction *self, Group *g, GnnTensor *n_averaged, GError **error)
{
  g_autoptr(GPtrArray) aliases = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GnnTensor) count = on_device_of (n_averaged, g->averaged->pdata[0], error);

  if (count == NULL)
    return FALSE;
  for (guint i = 0; i < g->averaged->len; i++)
    g_ptr_array_add (aliases, gnn_tensor_detach (g->averaged->pdata[i]));

  if (self->multi)
    {
      GError *local = NULL;
      if (!self->multi_func ((GnnTensor **) aliases->pdata, (GnnTensor **) g->current->pdata, aliases->len,
                             count, self->user_data, &local))
        {
          if (local == NULL)
            local = g_error_new_literal (GNN_ERROR, GNN_ERROR_FAILED,
                                         "multi_avg_fn failed without setting an error");
          g_propagate_error (error, local);
          return FALSE;
        }
      return TRUE;
    }
  for (guint i = 0; i < aliases->len; i++)
    {
      g_autoptr(GnnTensor) result = self->func (aliases->pdata[i], g->current->pdata[i], count, self->user_data);
      if (result == NULL || !GNN_IS_TENSOR (result))
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_FAILED, "avg_fn returned no tensor");
          return FALSE;
        }
      if (!gnn_tensor_copy_ (aliases->pdata[i], result, error))
        {
          g_prefix_error (error, "copying the result of avg_fn: ");
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * gnn_average_function_apply:
 * @self: a function
 * @averaged: (array length=n): the averaged tensors, updated in place
 * @current: (array length=n): the current tensors, one for each of @averaged, of the same
 *   shape (moved to the device of their averaged tensor when on another)
 * @n: the number of tensors in each list
 * @n_averaged: the number of models averaged so far, an int64 scalar tensor
 * @error: return location for a #GError
 *
 * Updates @averaged in place with the function, whichever its form: the lists are grouped by
 * device and dtype (PyTorch's `_group_tensors_by_device_and_dtype`); a list function is called
 * once for each group, a function of one tensor once for each tensor (its result copied into
 * the averaged tensor). This is the step of
 * [method@Gnn.AveragedModel.update_parameters] after the first; it runs with grad mode off.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_average_function_apply (GnnAverageFunction *self,
                            GnnTensor         **averaged,
                            GnnTensor         **current,
                            guint               n,
                            GnnTensor          *n_averaged,
                            GError            **error)
{
  g_autoptr(GnnNoGradGuard) guard = NULL;
  g_autoptr(GPtrArray) moved = NULL;
  g_autoptr(GPtrArray) groups = NULL;
  gint64 count = 0;

  g_return_val_if_fail (GNN_IS_AVERAGE_FUNCTION (self), FALSE);
  g_return_val_if_fail (n == 0 || (averaged != NULL && current != NULL), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (n_averaged), FALSE);
  if (n == 0)
    return TRUE;
  guard = gnn_no_grad_guard_new ();
  if (gnn_tensor_get_numel (n_averaged) != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "n_averaged must be a tensor of one element, got %" G_GINT64_FORMAT " elements",
                   gnn_tensor_get_numel (n_averaged));
      return FALSE;
    }
  if (self->kind == KIND_SWA)
    {
      GError *local = NULL;
      count = (gint64) gnn_tensor_item (n_averaged, &local);
      if (local)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
    }

  /* the current tensors on their averaged tensor's device, without history */
  moved = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n; i++)
    {
      GnnTensor *a = averaged[i], *c = current[i];
      guint na, nc;
      const gint64 *sa, *sc;
      GnnTensor *m;

      g_return_val_if_fail (GNN_IS_TENSOR (a) && GNN_IS_TENSOR (c), FALSE);
      sa = gnn_tensor_get_shape (a, &na);
      sc = gnn_tensor_get_shape (c, &nc);
      if (na != nc || memcmp (sa, sc, sizeof (gint64) * na) != 0)
        {
          g_autofree char *as = gnn_shape_to_string (na, sa);
          g_autofree char *cs = gnn_shape_to_string (nc, sc);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "averaging: tensor %u has shape %s in the average but %s in the model", i, as, cs);
          return FALSE;
        }
      if (!(m = on_device_of (c, a, error)))
        return FALSE;
      if (gnn_tensor_get_dtype (m) != gnn_tensor_get_dtype (a))
        {
          GnnTensor *conv = gnn_tensor_to_dtype (m, gnn_tensor_get_dtype (a), error);
          g_object_unref (m);
          if (!(m = conv))
            return FALSE;
        }
      g_ptr_array_add (moved, m);
    }

  groups = group_by_device_and_dtype (averaged, (GnnTensor **) moved->pdata, n);
  for (guint k = 0; k < groups->len; k++)
    {
      Group *g = groups->pdata[k];
      gboolean ok = self->kind == KIND_CALLBACK ? apply_callback (self, g, n_averaged, error)
                                                : apply_builtin (self, g, count, error);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* ---- GnnAveragedModel ------------------------------------------------------------------ */

/**
 * GnnAveragedModel:
 *
 * A running average of a model's parameters, for Stochastic Weight Averaging (SWA) and
 * Exponential Moving Averages (EMA), as `torch.optim.swa_utils.AveragedModel`.
 *
 * It holds a copy of the model ([method@Gnn.Module.copy]) under the name `module` and
 * forwards calls to it, and an int64 scalar buffer `n_averaged`, the number of models
 * averaged so far. Its state dict is PyTorch's: `n_averaged`, then `module.<name>` for each
 * entry of the model's.
 *
 * [method@Gnn.AveragedModel.update_parameters] blends a model's current parameters into the
 * average: the first call copies them, later ones apply the averaging function
 * ([property@Gnn.AveragedModel:avg-fn] or [property@Gnn.AveragedModel:multi-avg-fn], at most
 * one of them; without either, the equal-weight average of SWA). The built-in functions of
 * [class@Gnn.AverageFunction] update all the floating-point tensors of a device and dtype
 * with one fused kernel call. With [property@Gnn.AveragedModel:use-buffers] the buffers (a
 * BatchNorm's running statistics) are averaged too; without it they are copied from the model
 * at each update, as current PyTorch does (1.13 left them alone).
 *
 * The device given to [ctor@Gnn.AveragedModel.new] (or the inherited
 * [property@Gnn.Module:device] at construction) is where the average lives.
 *
 * For BatchNorm layers the running statistics of the average may be recomputed from data with
 * [func@Gnn.update_bn].
 */

struct _GnnAveragedModel
{
  GnnModule parent_instance;

  GnnModule *model;          /* construct-time only: copied by setup, then dropped */
  GnnAverageFunction *avg_fn;
  GnnAverageFunction *multi_avg_fn;
  gboolean use_buffers;
};

enum {
  PROP_0,
  PROP_MODEL,
  PROP_AVG_FN,
  PROP_MULTI_AVG_FN,
  PROP_USE_BUFFERS,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnAveragedModel, gnn_averaged_model, GNN_TYPE_MODULE)

static void
gnn_averaged_model_dispose (GObject *object)
{
  /* the functions may hold closures of a binding: drop them at dispose */
  gnn_props_clear (object);
  G_OBJECT_CLASS (gnn_averaged_model_parent_class)->dispose (object);
}

static gboolean
gnn_averaged_model_setup (GnnModule *module, GError **error)
{
  GnnAveragedModel *self = GNN_AVERAGED_MODEL (module);
  g_autoptr(GnnTensor) n_averaged = NULL;

  if (!GNN_MODULE_CLASS (gnn_averaged_model_parent_class)->setup (module, error))
    return FALSE;
  if (self->avg_fn && self->multi_avg_fn)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Only one of avg_fn and multi_avg_fn should be provided");
      return FALSE;
    }
  if (self->avg_fn && self->avg_fn->multi)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "avg_fn takes a function of one tensor (new_ema, new_swa, new_callback), got a "
                           "function of lists: give it as multi_avg_fn");
      return FALSE;
    }
  if (self->multi_avg_fn && !self->multi_avg_fn->multi)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "multi_avg_fn takes a function of lists (new_ema_multi, new_swa_multi, "
                           "new_multi_callback), got a function of one tensor: give it as avg_fn");
      return FALSE;
    }
  n_averaged = gnn_tensor_new_zeros (NULL, 0, GNN_DTYPE_INT64, NULL, error);
  if (n_averaged == NULL || !gnn_module_register_buffer (module, "n_averaged", n_averaged, TRUE, error))
    return FALSE;
  if (self->model)
    {
      g_autoptr(GnnModule) model = g_steal_pointer (&self->model);
      g_autoptr(GnnModule) copy = gnn_module_copy (model, error);

      if (copy == NULL || !gnn_module_register_module (module, "module", copy, error))
        return FALSE;
    }
  return TRUE;
}

static GnnArgs *
gnn_averaged_model_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnModule *inner = gnn_averaged_model_get_module (GNN_AVERAGED_MODEL (module));

  if (inner == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "AveragedModel has no module: create it with a model");
      return NULL;
    }
  return gnn_module_forward (inner, input, error);
}

static void
gnn_averaged_model_class_init (GnnAveragedModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->dispose = gnn_averaged_model_dispose;
  module_class->setup = gnn_averaged_model_setup;
  module_class->forward = gnn_averaged_model_forward;

  /**
   * GnnAveragedModel:model:
   *
   * The model to average (`model`): at construction, a copy of it ([method@Gnn.Module.copy])
   * becomes the child `module`; the model itself is not kept.
   */
  props[PROP_MODEL] = (GnnProp) {
    g_param_spec_object ("model", NULL, NULL, GNN_TYPE_MODULE, G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnAveragedModel, model) };

  /**
   * GnnAveragedModel:avg-fn:
   *
   * The averaging function of one tensor (`avg_fn`), or %NULL. Not saved in the state dict.
   */
  props[PROP_AVG_FN] = (GnnProp) {
    g_param_spec_object ("avg-fn", NULL, NULL, GNN_TYPE_AVERAGE_FUNCTION, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnAveragedModel, avg_fn) };

  /**
   * GnnAveragedModel:multi-avg-fn:
   *
   * The averaging function of lists of tensors, updating them in place (`multi_avg_fn`), or
   * %NULL. At most one of it and [property@Gnn.AveragedModel:avg-fn] may be set; with
   * neither, the equal-weight average of SWA is used. Not saved in the state dict.
   */
  props[PROP_MULTI_AVG_FN] = (GnnProp) {
    g_param_spec_object ("multi-avg-fn", NULL, NULL, GNN_TYPE_AVERAGE_FUNCTION, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnAveragedModel, multi_avg_fn) };

  /**
   * GnnAveragedModel:use-buffers:
   *
   * Whether the buffers are averaged as the parameters are (`use_buffers`); otherwise they are
   * copied from the model at each update.
   */
  props[PROP_USE_BUFFERS] = (GnnProp) {
    g_param_spec_boolean ("use-buffers", NULL, NULL, FALSE, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnAveragedModel, use_buffers) };

  gnn_props_install (object_class, props, N_PROPS);
}

static void
gnn_averaged_model_init (GnnAveragedModel *self)
{
}

/**
 * gnn_averaged_model_new:
 * @model: the model to average
 * @device: (nullable): the device for the average, such as "cpu" or "cuda:0"; %NULL keeps the
 *   model's
 * @avg_fn: (nullable): an averaging function of one tensor (see [class@Gnn.AverageFunction])
 * @multi_avg_fn: (nullable): an averaging function of lists of tensors
 * @use_buffers: whether the buffers are averaged too
 * @error: return location for a #GError
 *
 * Creates an averaged model (`AveragedModel (model, device, avg_fn, multi_avg_fn,
 * use_buffers)`): a copy of @model, moved to @device, and `n_averaged` = 0.
 *
 * Returns: (transfer full): the averaged model, or %NULL with @error set when both functions
 *   are given, a function has the wrong form, the model cannot be copied or the device is
 *   unknown
 */
GnnAveragedModel *
gnn_averaged_model_new (GnnModule          *model,
                        const char         *device,
                        GnnAverageFunction *avg_fn,
                        GnnAverageFunction *multi_avg_fn,
                        gboolean            use_buffers,
                        GError            **error)
{
  g_autoptr(GnnAveragedModel) self = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (model), NULL);
  g_return_val_if_fail (avg_fn == NULL || GNN_IS_AVERAGE_FUNCTION (avg_fn), NULL);
  g_return_val_if_fail (multi_avg_fn == NULL || GNN_IS_AVERAGE_FUNCTION (multi_avg_fn), NULL);
  self = g_object_new (GNN_TYPE_AVERAGED_MODEL, "model", model, "avg-fn", avg_fn,
                       "multi-avg-fn", multi_avg_fn, "use-buffers", use_buffers, NULL);
  if (!gnn_module_setup (GNN_MODULE (self), error))
    return NULL;
  if (device && !gnn_module_to_device (GNN_MODULE (self), device, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * gnn_averaged_model_get_module:
 * @self: an averaged model
 *
 * Returns the averaged copy of the model (`module`).
 *
 * Returns: (transfer none) (nullable): the averaged copy of the model (`module`)
 */
GnnModule *
gnn_averaged_model_get_module (GnnAveragedModel *self)
{
  GnnModuleSlot *s;

  g_return_val_if_fail (GNN_IS_AVERAGED_MODEL (self), NULL);
  s = gnn_module_find_slot (gnn_module_priv (GNN_MODULE (self))->modules, "module");
  return s && s->value ? GNN_MODULE (s->value) : NULL;
}

static GnnTensor *
n_averaged_buffer (GnnAveragedModel *self, GError **error)
{
  GnnModuleSlot *s = gnn_module_find_slot (gnn_module_priv (GNN_MODULE (self))->buffers, "n_averaged");

  if (s == NULL || s->value == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "AveragedModel has no n_averaged buffer");
      return NULL;
    }
  return GNN_TENSOR (s->value);
}

/**
 * gnn_averaged_model_get_n_averaged:
 * @self: an averaged model
 *
 * Returns the number of models averaged so far (the value of the buffer `n_averaged`).
 *
 * Returns: the number of models averaged so far (the value of the buffer `n_averaged`)
 */
gint64
gnn_averaged_model_get_n_averaged (GnnAveragedModel *self)
{
  GnnTensor *t;

  g_return_val_if_fail (GNN_IS_AVERAGED_MODEL (self), 0);
  t = n_averaged_buffer (self, NULL);
  return t ? (gint64) gnn_tensor_item (t, NULL) : 0;
}

/**
 * gnn_averaged_model_get_avg_fn:
 * @self: an averaged model
 *
 * Gets [property@Gnn.AveragedModel:avg-fn].
 *
 * Returns: (transfer none) (nullable): [property@Gnn.AveragedModel:avg-fn]
 */
GnnAverageFunction *
gnn_averaged_model_get_avg_fn (GnnAveragedModel *self)
{
  g_return_val_if_fail (GNN_IS_AVERAGED_MODEL (self), NULL);
  return self->avg_fn;
}

/**
 * gnn_averaged_model_get_multi_avg_fn:
 * @self: an averaged model
 *
 * Gets [property@Gnn.AveragedModel:multi-avg-fn].
 *
 * Returns: (transfer none) (nullable): [property@Gnn.AveragedModel:multi-avg-fn]
 */
GnnAverageFunction *
gnn_averaged_model_get_multi_avg_fn (GnnAveragedModel *self)
{
  g_return_val_if_fail (GNN_IS_AVERAGED_MODEL (self), NULL);
  return self->multi_avg_fn;
}

/**
 * gnn_averaged_model_get_use_buffers:
 * @self: an averaged model
 *
 * Gets [property@Gnn.AveragedModel:use-buffers].
 *
 * Returns: [property@Gnn.AveragedModel:use-buffers]
 */
gboolean
gnn_averaged_model_get_use_buffers (GnnAveragedModel *self)
{
  g_return_val_if_fail (GNN_IS_AVERAGED_MODEL (self), FALSE);
  return self->use_buffers;
}

/**
 * gnn_averaged_model_set_use_buffers:
 * @self: an averaged model
 * @use_buffers: whether the buffers are averaged too
 *
 * Sets [property@Gnn.AveragedModel:use-buffers].
 */
void
gnn_averaged_model_set_use_buffers (GnnAveragedModel *self,
                                    gboolean          use_buffers)
{
  g_return_if_fail (GNN_IS_AVERAGED_MODEL (self));
  gnn_prop_set (self, &props[PROP_USE_BUFFERS], use_buffers);
}

/* The tensors of @what ("parameter" or "buffer") of the average and of the model, checked to
 * pair up by count and shape. */
static gboolean
pair_up (GnnModule *averaged, GnnModule *model, gboolean buffers, GPtrArray **avg_out, GPtrArray **model_out,
         GError **error)
{
  const char *what = buffers ? "buffer" : "parameter";
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) a = buffers ? gnn_module_named_buffers (averaged, NULL, TRUE, TRUE, &names)
                                   : gnn_module_named_parameters (averaged, NULL, TRUE, TRUE, &names);
  g_autoptr(GPtrArray) m = buffers ? gnn_module_buffers (model, TRUE) : gnn_module_parameters (model, TRUE);

  if (a->len != m->len)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "update_parameters: the model has %u %ss but the averaged model has %u", m->len, what, a->len);
      return FALSE;
    }
  for (guint i = 0; i < a->len; i++)
    {
      guint na, nm;
      const gint64 *sa = gnn_tensor_get_shape (a->pdata[i], &na);
      const gint64 *sm = gnn_tensor_get_shape (m->pdata[i], &nm);

      if (na != nm || memcmp (sa, sm, sizeof (gint64) * na) != 0)
        {
          g_autofree char *as = gnn_shape_to_string (na, sa);
          g_autofree char *ms = gnn_shape_to_string (nm, sm);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "update_parameters: %s %u (%s) has shape %s in the model but %s in the averaged model",
                       what, i, names[i], ms, as);
          return FALSE;
        }
    }
  *avg_out = g_steal_pointer (&a);
  *model_out = g_steal_pointer (&m);
  return TRUE;
}

/* dst ← src, src moved to dst's device first */
static gboolean
copy_values (GnnTensor *dst, GnnTensor *src, GError **error)
{
  g_autoptr(GnnTensor) moved = on_device_of (src, dst, error);

  return moved && gnn_tensor_copy_ (dst, moved, error);
}

/**
 * gnn_averaged_model_update_parameters:
 * @self: an averaged model
 * @model: the model whose current parameters to average in, of the same structure as the
 *   averaged copy
 * @error: return location for a #GError
 *
 * Blends @model's parameters into the average (`update_parameters (model)`). When
 * `n_averaged` is 0 they are copied; otherwise the averaging function updates the average
 * (see [class@Gnn.AveragedModel]). With [property@Gnn.AveragedModel:use-buffers] the buffers
 * are treated as the parameters; without it they are copied from @model. Then `n_averaged`
 * grows by one. No gradient is recorded.
 *
 * Parameters and buffers pair up in the order of [method@Gnn.Module.parameters] and
 * [method@Gnn.Module.buffers]; their numbers and shapes are checked before anything changes
 * (PyTorch would silently stop at the shorter list). Tensors of @model on another device are
 * moved to the average's, and converted to its dtype.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_averaged_model_update_parameters (GnnAveragedModel *self,
                                      GnnModule        *model,
                                      GError          **error)
{
  g_autoptr(GnnNoGradGuard) guard = NULL;
  g_autoptr(GPtrArray) ap = NULL, mp = NULL, ab = NULL, mb = NULL;
  g_autoptr(GPtrArray) averaged = g_ptr_array_new ();
  g_autoptr(GPtrArray) current = g_ptr_array_new ();
  g_autoptr(GnnAverageFunction) fallback = NULL;
  GnnAverageFunction *fn;
  GnnModule *inner;
  GnnTensor *n_averaged;
  GError *local = NULL;
  gint64 n;

  g_return_val_if_fail (GNN_IS_AVERAGED_MODEL (self), FALSE);
  g_return_val_if_fail (GNN_IS_MODULE (model), FALSE);
  if (!gnn_module_setup (GNN_MODULE (self), error))
    return FALSE;
  inner = gnn_averaged_model_get_module (self);
  if (inner == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "AveragedModel has no module: create it with a model");
      return FALSE;
    }
  if (!(n_averaged = n_averaged_buffer (self, error)))
    return FALSE;
  if (self->avg_fn && self->multi_avg_fn)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Only one of avg_fn and multi_avg_fn should be provided");
      return FALSE;
    }
  if (!pair_up (inner, model, FALSE, &ap, &mp, error) || !pair_up (inner, model, TRUE, &ab, &mb, error))
    return FALSE;
  n = (gint64) gnn_tensor_item (n_averaged, &local);
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }

  guard = gnn_no_grad_guard_new ();
  g_ptr_array_extend (averaged, ap, NULL, NULL);
  g_ptr_array_extend (current, mp, NULL, NULL);
  if (self->use_buffers)
    {
      g_ptr_array_extend (averaged, ab, NULL, NULL);
      g_ptr_array_extend (current, mb, NULL, NULL);
    }

  if (n == 0)
    {
      for (guint i = 0; i < averaged->len; i++)
        if (!copy_values (averaged->pdata[i], current->pdata[i], error))
          return FALSE;
    }
  else
    {
      fn = self->multi_avg_fn ? self->multi_avg_fn : self->avg_fn;
      if (fn == NULL)
        fn = fallback = gnn_average_function_new_swa ();
      if (!gnn_average_function_apply (fn, (GnnTensor **) averaged->pdata, (GnnTensor **) current->pdata,
                                       averaged->len, n_averaged, error))
        return FALSE;
    }

  /* without use_buffers, the buffers follow the model */
  if (!self->use_buffers)
    for (guint i = 0; i < ab->len; i++)
      if (!copy_values (ab->pdata[i], mb->pdata[i], error))
        return FALSE;
  return gnn_tensor_add_scalar_ (n_averaged, 1.0, error);
}

/* ---- update_bn --------------------------------------------------------------------------- */

/* the input of one batch: a tensor, the first item of a list model, or the first value of
 * an args object; a new reference */
static GnnTensor *
batch_input (GObject *item, guint index, GError **error)
{
  if (GNN_IS_TENSOR (item))
    return g_object_ref (GNN_TENSOR (item));
  if (G_IS_LIST_MODEL (item) && g_list_model_get_n_items (G_LIST_MODEL (item)) > 0)
    {
      g_autoptr(GObject) first = g_list_model_get_item (G_LIST_MODEL (item), 0);
      if (GNN_IS_TENSOR (first))
        return g_object_ref (GNN_TENSOR (first));
    }
  if (GNN_IS_ARGS (item) && gnn_args_get_n_values (GNN_ARGS (item)) > 0 && gnn_args_is_tensor (GNN_ARGS (item), 0))
    return g_object_ref (gnn_args_get_tensor (GNN_ARGS (item), 0, NULL));
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "update_bn: batch %u is a %s; expected a tensor, or a list whose first item is a tensor",
               index, item ? G_OBJECT_TYPE_NAME (item) : "NULL");
  return NULL;
}

/**
 * gnn_update_bn:
 * @loader: a list of batches (a data loader): each a [class@Gnn.Tensor], or a #GListModel (or
 *   [class@Gnn.Args]) whose first item is the input tensor
 * @model: the model whose BatchNorm statistics to recompute, such as a
 *   [class@Gnn.AveragedModel]
 * @device: (nullable): a device to move each input to first, or %NULL
 * @error: return location for a #GError
 *
 * Recomputes the running statistics of every [class@Gnn.BatchNorm] layer of @model from the
 * data (`torch.optim.swa_utils.update_bn`): their statistics are reset, each layer is made a
 * cumulative average ([property@Gnn.BatchNorm:cumulative-average], PyTorch's `momentum=None`),
 * and the model is called on every batch in training mode, without recording gradients.
 * Afterwards the layers' averaging mode is restored and the whole model is put back in the
 * mode @model had (as `model.train (was_training)`). A model without BatchNorm layers is left
 * alone and the loader is not read.
 *
 * Returns: %TRUE on success; on an error (a batch that is not a tensor, a failing forward) the
 *   modes are restored too and the statistics are those of the batches seen so far
 */
gboolean
gnn_update_bn (GListModel *loader,
               GnnModule  *model,
               const char *device,
               GError    **error)
{
  g_autoptr(GPtrArray) modules = NULL;
  g_autoptr(GPtrArray) norms = g_ptr_array_new ();
  g_autoptr(GArray) cumulative = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_autoptr(GnnNoGradGuard) guard = NULL;
  gboolean was_training, ok = TRUE;
  guint n;

  g_return_val_if_fail (G_IS_LIST_MODEL (loader), FALSE);
  g_return_val_if_fail (GNN_IS_MODULE (model), FALSE);

  modules = gnn_module_modules (model);
  for (guint i = 0; i < modules->len; i++)
    if (GNN_IS_BATCH_NORM (modules->pdata[i]))
      {
        GnnBatchNorm *bn = modules->pdata[i];
        gboolean c = gnn_batch_norm_get_cumulative_average (bn);
        if (!gnn_batch_norm_reset_running_stats (bn, error))
          return FALSE;
        g_ptr_array_add (norms, bn);
        g_array_append_val (cumulative, c);
      }
  if (norms->len == 0)
    return TRUE;

  was_training = gnn_module_get_training (model);
  gnn_module_train (model, TRUE);
  for (guint i = 0; i < norms->len; i++)
    gnn_batch_norm_set_cumulative_average (norms->pdata[i], TRUE);

  guard = gnn_no_grad_guard_new ();
  n = g_list_model_get_n_items (loader);
  for (guint i = 0; i < n && ok; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (loader, i);
      g_autoptr(GnnTensor) input = batch_input (item, i, error);
      g_autoptr(GnnTensor) moved = NULL;
      g_autoptr(GnnArgs) args = NULL;
      g_autoptr(GnnArgs) out = NULL;

      if (input == NULL)
        {
          ok = FALSE;
          break;
        }
      moved = device ? gnn_tensor_to_device (input, device, error) : g_object_ref (input);
      if (moved == NULL)
        {
          ok = FALSE;
          break;
        }
      args = gnn_args_new_tensor (moved);
      out = gnn_module_forward (model, args, error);
      ok = out != NULL;
    }

  for (guint i = 0; i < norms->len; i++)
    gnn_batch_norm_set_cumulative_average (norms->pdata[i], g_array_index (cumulative, gboolean, i));
  gnn_module_train (model, was_training);
  return ok;
}
