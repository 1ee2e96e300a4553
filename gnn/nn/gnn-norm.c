/* gnn-norm.c: GnnBatchNorm (GnnBatchNorm1d, GnnBatchNorm2d), GnnLayerNorm, GnnGroupNorm
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gnn-args-private.h"
#include "gnn-module-private.h"
#include "gnn-props-private.h"
#include "core/gnn-tensor-private.h"
#include "ops/gnn-ops-private.h"
#include "gnn-norm.h"

/* ---- helpers --------------------------------------------------------------------------- */

static const char *
py_bool (gboolean b)
{
  return b ? "True" : "False";
}

/* The tensor in slot @name of @slots, or NULL (no slot, or one registered empty). */
static GnnTensor *
find_tensor (GnnModule  *module,
             gboolean    buffer,
             const char *name)
{
  GnnModulePrivate *priv = gnn_module_priv (module);
  GnnModuleSlot *s = gnn_module_find_slot (buffer ? priv->buffers : priv->parameters, name);

  return s && s->value ? GNN_TENSOR (s->value) : NULL;
}

/* Registers a parameter of @shape filled with @value, or an empty slot when !@create. */
static gboolean
register_filled_parameter (GnnModule    *module,
                           const char   *name,
                           gboolean      create,
                           const gint64 *shape,
                           guint         ndim,
                           double        value,
                           GnnDtype      dtype,
                           GError      **error)
{
  g_autoptr(GnnTensor) data = NULL;
  g_autoptr(GnnParameter) p = NULL;

  if (create)
    {
      data = gnn_tensor_new_full (shape, ndim, value, dtype, NULL, error);
      if (data == NULL)
        return FALSE;
      p = gnn_parameter_new (data, TRUE, error);
      if (p == NULL)
        return FALSE;
    }
  return gnn_module_register_parameter (module, name, p, error);
}

/* weight to ones and bias to zeros, in place, when they exist */
static gboolean
reset_affine (GnnModule *module,
              GError   **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  GnnTensor *weight = find_tensor (module, FALSE, "weight");
  GnnTensor *bias = find_tensor (module, FALSE, "bias");

  if (weight && !gnn_tensor_fill_ (weight, 1.0, error))
    return FALSE;
  if (bias && !gnn_tensor_zero_ (bias, error))
    return FALSE;
  return TRUE;
}

/* ---- BatchNorm ------------------------------------------------------------------------- */

/**
 * GnnBatchNorm:
 *
 * The base of [class@Gnn.BatchNorm1d] and [class@Gnn.BatchNorm2d], as PyTorch's
 * `_BatchNorm`: batch normalisation over dimension 1 (the channels) of its input,
 * y = (x - E[x]) / √(Var[x] + eps) · weight + bias.
 *
 * With [property@Gnn.BatchNorm:affine] the layer holds the parameters `weight` (ones) and
 * `bias` (zeros), of shape (num_features); without, both names are registered empty. With
 * [property@Gnn.BatchNorm:track-running-stats] it holds the persistent buffers
 * `running_mean` (zeros), `running_var` (ones), of the layer's dtype, and
 * `num_batches_tracked`, an int64 scalar; the state dict lists weight, bias, running_mean,
 * running_var, num_batches_tracked, as PyTorch's does.
 *
 * In training mode the input is normalised with the mean and the biased variance of the
 * batch, and the running statistics (when tracked) move towards the batch mean and the
 * unbiased variance: running = (1 - m) · running + m · batch, where m is
 * [property@Gnn.BatchNorm:momentum], or 1 / num_batches_tracked (a cumulative moving
 * average) when [property@Gnn.BatchNorm:cumulative-average] is set; num_batches_tracked
 * grows by one on each training call. In evaluation mode the running statistics are used,
 * or the batch's when they are not tracked.
 *
 * PyTorch's `momentum=None` is [property@Gnn.BatchNorm:cumulative-average] %TRUE: a
 * separate boolean, so that every property keeps a plain value that serialises (a NaN
 * momentum would not survive JSON). The C constructors also read a NaN momentum as None.
 */
typedef struct
{
  int num_features;
  double eps;
  double momentum;
  gboolean cumulative_average;
  gboolean affine;
  gboolean track_running_stats;
} GnnBatchNormPrivate;

enum {
  BN_PROP_0,
  BN_PROP_NUM_FEATURES,
  BN_PROP_EPS,
  BN_PROP_MOMENTUM,
  BN_PROP_CUMULATIVE_AVERAGE,
  BN_PROP_AFFINE,
  BN_PROP_TRACK_RUNNING_STATS,
  BN_N_PROPS
};

static GnnProp bn_props[BN_N_PROPS];

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GnnBatchNorm, gnn_batch_norm, GNN_TYPE_MODULE)

#define BN_PRIV(self) ((GnnBatchNormPrivate *) gnn_batch_norm_get_instance_private (self))

struct _GnnBatchNorm1d
{
  GnnBatchNorm parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnBatchNorm1d, gnn_batch_norm1d, GNN_TYPE_BATCH_NORM)

struct _GnnBatchNorm2d
{
  GnnBatchNorm parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnBatchNorm2d, gnn_batch_norm2d, GNN_TYPE_BATCH_NORM)

struct _GnnBatchNorm3d
{
  GnnBatchNorm parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnBatchNorm3d, gnn_batch_norm3d, GNN_TYPE_BATCH_NORM)

static const char *
bn_name (GnnBatchNorm *self)
{
  if (GNN_IS_BATCH_NORM1D (self))
    return "BatchNorm1d";
  if (GNN_IS_BATCH_NORM2D (self))
    return "BatchNorm2d";
  if (GNN_IS_BATCH_NORM3D (self))
    return "BatchNorm3d";
  return G_OBJECT_TYPE_NAME (self);
}

static gboolean
reset_running_stats (GnnBatchNorm *self,
                     GError      **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  GnnTensor *rm = find_tensor (GNN_MODULE (self), TRUE, "running_mean");
  GnnTensor *rv = find_tensor (GNN_MODULE (self), TRUE, "running_var");
  GnnTensor *nbt = find_tensor (GNN_MODULE (self), TRUE, "num_batches_tracked");

  if (rm && !gnn_tensor_zero_ (rm, error))
    return FALSE;
  if (rv && !gnn_tensor_fill_ (rv, 1.0, error))
    return FALSE;
  if (nbt && !gnn_tensor_zero_ (nbt, error))
    return FALSE;
  return TRUE;
}

static gboolean
register_new_buffer (GnnModule  *module,
                     const char *name,
                     GnnTensor  *t,
                     GError    **error)
{
  g_autoptr(GnnTensor) owned = t;

  if (t == NULL)
    return FALSE;
  return gnn_module_register_buffer (module, name, t, TRUE, error);
}

static gboolean
gnn_batch_norm_setup (GnnModule *module,
                      GError   **error)
{
  GnnBatchNorm *self = GNN_BATCH_NORM (module);
  GnnBatchNormPrivate *priv = gnn_batch_norm_get_instance_private (self);
  gint64 shape[1] = { priv->num_features };
  GnnDtype dtype = gnn_module_dtype (module);

  if (!GNN_MODULE_CLASS (gnn_batch_norm_parent_class)->setup (module, error))
    return FALSE;
  if (!register_filled_parameter (module, "weight", priv->affine, shape, 1, 1.0, dtype, error) ||
      !register_filled_parameter (module, "bias", priv->affine, shape, 1, 0.0, dtype, error))
    return FALSE;
  if (priv->track_running_stats)
    {
      if (!register_new_buffer (module, "running_mean",
                                gnn_tensor_new_zeros (shape, 1, dtype, NULL, error), error) ||
          !register_new_buffer (module, "running_var",
                                gnn_tensor_new_ones (shape, 1, dtype, NULL, error), error) ||
          !register_new_buffer (module, "num_batches_tracked",
                                gnn_tensor_new_scalar (0, GNN_DTYPE_INT64, NULL, error), error))
        return FALSE;
    }
  else
    {
      if (!gnn_module_register_buffer (module, "running_mean", NULL, TRUE, error) ||
          !gnn_module_register_buffer (module, "running_var", NULL, TRUE, error) ||
          !gnn_module_register_buffer (module, "num_batches_tracked", NULL, TRUE, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
bn_check_input (GnnBatchNorm *self,
                GnnTensor    *x,
                GError      **error)
{
  GnnBatchNormPrivate *priv = gnn_batch_norm_get_instance_private (self);
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (x, &ndim);
  const char *expected = NULL;

  if (GNN_IS_BATCH_NORM1D (self) && ndim != 2 && ndim != 3)
    expected = "2D or 3D";
  else if (GNN_IS_BATCH_NORM2D (self) && ndim != 4)
    expected = "4D";
  else if (GNN_IS_BATCH_NORM3D (self) && ndim != 5)
    expected = "5D";
  else if (ndim < 2)
    expected = "at least 2D";
  if (expected)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: expected %s input (got %uD input)",
                   bn_name (self), expected, ndim);
      return FALSE;
    }
  if (shape[1] != priv->num_features)
    {
      g_autofree char *s = gnn_shape_to_string (ndim, shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected input with %d channels (num_features) in dimension 1, got shape %s",
                   bn_name (self), priv->num_features, s);
      return FALSE;
    }
  return TRUE;
}

static GnnArgs *
gnn_batch_norm_forward (GnnModule *module,
                        GnnArgs   *input,
                        GError   **error)
{
  GnnBatchNorm *self = GNN_BATCH_NORM (module);
  GnnBatchNormPrivate *priv = gnn_batch_norm_get_instance_private (self);
  gboolean training = gnn_module_get_training (module);
  GnnTensor *x, *rm, *rv, *nbt;
  double factor;

  x = gnn_args_get_tensor (input, 0, error);
  if (x == NULL)
    {
      g_prefix_error (error, "%s: ", bn_name (self));
      return NULL;
    }
  if (!bn_check_input (self, x, error))
    return NULL;

  rm = find_tensor (module, TRUE, "running_mean");
  rv = find_tensor (module, TRUE, "running_var");
  nbt = find_tensor (module, TRUE, "num_batches_tracked");

  factor = priv->cumulative_average ? 0.0 : priv->momentum;
  if (training && priv->track_running_stats && nbt)
    {
      g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

      if (!gnn_tensor_add_scalar_ (nbt, 1, error))
        return NULL;
      if (priv->cumulative_average)
        factor = 1.0 / gnn_tensor_item (nbt, NULL);
    }
  if (training)
    {
      guint ndim;
      const gint64 *shape = gnn_tensor_get_shape (x, &ndim);

      if (gnn_tensor_get_numel (x) <= shape[1])
        {
          g_autofree char *s = gnn_shape_to_string (ndim, shape);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s: expected more than 1 value per channel when training, got input size %s",
                       bn_name (self), s);
          return NULL;
        }
    }
  else if ((rm == NULL) != (rv == NULL))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: running_mean and running_var must both be set or both be None",
                   bn_name (self));
      return NULL;
    }
  /* as torch's _BatchNorm: the batch's statistics in training or when none are tracked,
   * the running ones updated only in training */
  return gnn_args_take_tensor_or_prefix (gnn_tensor_batch_norm (x, rm, rv, gnn_module_tensor (module, "weight", FALSE, NULL),
                                                                gnn_module_tensor (module, "bias", FALSE, NULL),
                                                                training || (rm == NULL && rv == NULL),
                                                                factor, priv->eps, error),
                                         bn_name (self), error);
}

static char *
gnn_batch_norm_extra_repr (GnnModule *module)
{
  GnnBatchNormPrivate *priv = gnn_batch_norm_get_instance_private (GNN_BATCH_NORM (module));
  g_autofree char *eps = gnn_python_float_repr (priv->eps);
  g_autofree char *momentum = priv->cumulative_average ? g_strdup ("None") : gnn_python_float_repr (priv->momentum);

  return g_strdup_printf ("%d, eps=%s, momentum=%s, affine=%s, track_running_stats=%s",
                          priv->num_features, eps, momentum, py_bool (priv->affine),
                          py_bool (priv->track_running_stats));
}

static void
gnn_batch_norm_class_init (GnnBatchNormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_batch_norm_setup;
  module_class->forward = gnn_batch_norm_forward;
  module_class->extra_repr = gnn_batch_norm_extra_repr;

  /**
   * GnnBatchNorm:num-features:
   *
   * The number of channels C of the input, dimension 1 (`num_features`).
   */
  bn_props[BN_PROP_NUM_FEATURES] = (GnnProp) {
    g_param_spec_int ("num-features", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnBatchNorm, num_features), gnn_prop_check_size };

  /**
   * GnnBatchNorm:eps:
   *
   * The value added to the variance for numerical stability (`eps`).
   */
  bn_props[BN_PROP_EPS] = (GnnProp) {
    g_param_spec_double ("eps", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 1e-5, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_PRIVATE_OFFSET (GnnBatchNorm, eps), gnn_prop_check_non_negative };

  /**
   * GnnBatchNorm:momentum:
   *
   * The weight of the batch statistics in the update of the running ones (`momentum`).
   * Ignored while [property@Gnn.BatchNorm:cumulative-average] is %TRUE.
   */
  bn_props[BN_PROP_MOMENTUM] = (GnnProp) {
    g_param_spec_double ("momentum", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.1, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_PRIVATE_OFFSET (GnnBatchNorm, momentum) };

  /**
   * GnnBatchNorm:cumulative-average:
   *
   * Whether the running statistics are a cumulative moving average, each batch weighted
   * 1 / num_batches_tracked: PyTorch's `momentum=None`. The printed form then reads
   * "momentum=None".
   */
  bn_props[BN_PROP_CUMULATIVE_AVERAGE] = (GnnProp) {
    g_param_spec_boolean ("cumulative-average", NULL, NULL, FALSE, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_PRIVATE_OFFSET (GnnBatchNorm, cumulative_average) };

  /**
   * GnnBatchNorm:affine:
   *
   * Whether the layer learns `weight` and `bias` (`affine`).
   */
  bn_props[BN_PROP_AFFINE] = (GnnProp) {
    g_param_spec_boolean ("affine", NULL, NULL, TRUE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnBatchNorm, affine) };

  /**
   * GnnBatchNorm:track-running-stats:
   *
   * Whether the layer keeps running statistics and uses them in evaluation mode
   * (`track_running_stats`).
   */
  bn_props[BN_PROP_TRACK_RUNNING_STATS] = (GnnProp) {
    g_param_spec_boolean ("track-running-stats", NULL, NULL, TRUE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnBatchNorm, track_running_stats) };

  gnn_props_install (object_class, bn_props, BN_N_PROPS);
  gnn_module_class_uses_dtype (module_class);
}

static void
gnn_batch_norm_init (GnnBatchNorm *self)
{
}

/**
 * gnn_batch_norm_get_num_features:
 * @self: a batch normalisation layer
 *
 * Gets [property@Gnn.BatchNorm:num-features].
 *
 * Returns: the number of channels
 */
int
gnn_batch_norm_get_num_features (GnnBatchNorm *self)
{
  g_return_val_if_fail (GNN_IS_BATCH_NORM (self), 0);
  return BN_PRIV (self)->num_features;
}

/**
 * gnn_batch_norm_get_eps:
 * @self: a batch normalisation layer
 *
 * Gets [property@Gnn.BatchNorm:eps].
 *
 * Returns: the value added to the variance
 */
double
gnn_batch_norm_get_eps (GnnBatchNorm *self)
{
  g_return_val_if_fail (GNN_IS_BATCH_NORM (self), 0);
  return BN_PRIV (self)->eps;
}

/**
 * gnn_batch_norm_set_eps:
 * @self: a batch normalisation layer
 * @eps: the value added to the variance, at least 0
 *
 * Sets [property@Gnn.BatchNorm:eps].
 */
void
gnn_batch_norm_set_eps (GnnBatchNorm *self,
                        double        eps)
{
  g_return_if_fail (GNN_IS_BATCH_NORM (self));
  gnn_prop_set (self, &bn_props[BN_PROP_EPS], eps);
}

/**
 * gnn_batch_norm_get_momentum:
 * @self: a batch normalisation layer
 *
 * Gets [property@Gnn.BatchNorm:momentum].
 *
 * Returns: the momentum of the running statistics (meaningless while
 *   [property@Gnn.BatchNorm:cumulative-average] is set)
 */
double
gnn_batch_norm_get_momentum (GnnBatchNorm *self)
{
  g_return_val_if_fail (GNN_IS_BATCH_NORM (self), 0);
  return BN_PRIV (self)->momentum;
}

/**
 * gnn_batch_norm_set_momentum:
 * @self: a batch normalisation layer
 * @momentum: the weight of the batch statistics in the running ones
 *
 * Sets [property@Gnn.BatchNorm:momentum]. It does not change
 * [property@Gnn.BatchNorm:cumulative-average].
 */
void
gnn_batch_norm_set_momentum (GnnBatchNorm *self,
                             double        momentum)
{
  g_return_if_fail (GNN_IS_BATCH_NORM (self));
  gnn_prop_set (self, &bn_props[BN_PROP_MOMENTUM], momentum);
}

/**
 * gnn_batch_norm_get_cumulative_average:
 * @self: a batch normalisation layer
 *
 * Gets [property@Gnn.BatchNorm:cumulative-average].
 *
 * Returns: %TRUE when the running statistics are a cumulative moving average
 *   (PyTorch's `momentum=None`)
 */
gboolean
gnn_batch_norm_get_cumulative_average (GnnBatchNorm *self)
{
  g_return_val_if_fail (GNN_IS_BATCH_NORM (self), FALSE);
  return BN_PRIV (self)->cumulative_average;
}

/**
 * gnn_batch_norm_set_cumulative_average:
 * @self: a batch normalisation layer
 * @cumulative_average: whether to keep a cumulative moving average
 *
 * Sets [property@Gnn.BatchNorm:cumulative-average]: %TRUE is PyTorch's `momentum = None`.
 */
void
gnn_batch_norm_set_cumulative_average (GnnBatchNorm *self,
                                       gboolean      cumulative_average)
{
  g_return_if_fail (GNN_IS_BATCH_NORM (self));
  gnn_prop_set (self, &bn_props[BN_PROP_CUMULATIVE_AVERAGE], cumulative_average);
}

/**
 * gnn_batch_norm_get_affine:
 * @self: a batch normalisation layer
 *
 * Gets [property@Gnn.BatchNorm:affine].
 *
 * Returns: whether the layer learns weight and bias
 */
gboolean
gnn_batch_norm_get_affine (GnnBatchNorm *self)
{
  g_return_val_if_fail (GNN_IS_BATCH_NORM (self), FALSE);
  return BN_PRIV (self)->affine;
}

/**
 * gnn_batch_norm_get_track_running_stats:
 * @self: a batch normalisation layer
 *
 * Gets [property@Gnn.BatchNorm:track-running-stats].
 *
 * Returns: whether the layer keeps running statistics
 */
gboolean
gnn_batch_norm_get_track_running_stats (GnnBatchNorm *self)
{
  g_return_val_if_fail (GNN_IS_BATCH_NORM (self), FALSE);
  return BN_PRIV (self)->track_running_stats;
}

/**
 * gnn_batch_norm_reset_running_stats:
 * @self: a batch normalisation layer
 * @error: return location for a #GError
 *
 * Sets running_mean to zeros, running_var to ones and num_batches_tracked to 0, in place
 * (`reset_running_stats`); does nothing when the layer tracks no statistics.
 *
 * Returns: %TRUE on success, %FALSE with @error set (also when the layer's setup failed)
 */
gboolean
gnn_batch_norm_reset_running_stats (GnnBatchNorm *self,
                                    GError      **error)
{
  g_return_val_if_fail (GNN_IS_BATCH_NORM (self), FALSE);
  if (!gnn_module_ensure_setup (GNN_MODULE (self), error))
    return FALSE;
  return reset_running_stats (self, error);
}

/**
 * gnn_batch_norm_reset_parameters:
 * @self: a batch normalisation layer
 * @error: return location for a #GError
 *
 * Resets the running statistics ([method@Gnn.BatchNorm.reset_running_stats]), then sets
 * weight to ones and bias to zeros (`reset_parameters`).
 *
 * Returns: %TRUE on success, %FALSE with @error set (also when the layer's setup failed)
 */
gboolean
gnn_batch_norm_reset_parameters (GnnBatchNorm *self,
                                 GError      **error)
{
  g_return_val_if_fail (GNN_IS_BATCH_NORM (self), FALSE);
  if (!gnn_module_ensure_setup (GNN_MODULE (self), error))
    return FALSE;
  return reset_running_stats (self, error) && reset_affine (GNN_MODULE (self), error);
}

/**
 * GnnBatchNorm1d:
 *
 * Batch normalisation of an input of shape (N, C) or (N, C, L), as `torch.nn.BatchNorm1d`;
 * see [class@Gnn.BatchNorm]. Any other rank is refused ("BatchNorm1d: expected 2D or 3D
 * input (got 4D input)"). The layer prints as PyTorch's:
 * "BatchNorm1d(3, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)".
 */
static void
gnn_batch_norm1d_class_init (GnnBatchNorm1dClass *klass)
{
}

static void
gnn_batch_norm1d_init (GnnBatchNorm1d *self)
{
}

static gpointer
bn_new (GType      type,
        int        num_features,
        double     eps,
        double     momentum,
        gboolean   affine,
        gboolean   track_running_stats,
        GnnDtype   dtype,
        GError   **error)
{
  gboolean none = isnan (momentum);

  return gnn_module_new_or_error (error, type,
                                  "num-features", num_features,
                                  "eps", eps,
                                  "momentum", none ? 0.1 : momentum,
                                  "cumulative-average", none,
                                  "affine", affine,
                                  "track-running-stats", track_running_stats,
                                  "dtype", dtype,
                                  NULL);
}

/**
 * gnn_batch_norm1d_new:
 * @num_features: the number of channels C, at least 0
 * @error: return location for a #GError
 *
 * Creates a float32 `nn.BatchNorm1d (num_features)`: eps 1e-5, momentum 0.1, affine,
 * tracking running statistics.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 */
GnnBatchNorm1d *
gnn_batch_norm1d_new (int      num_features,
                      GError **error)
{
  return bn_new (GNN_TYPE_BATCH_NORM1D, num_features, 1e-5, 0.1, TRUE, TRUE, GNN_DTYPE_FLOAT32, error);
}

/**
 * gnn_batch_norm1d_new_full:
 * @num_features: the number of channels C, at least 0
 * @eps: the value added to the variance
 * @momentum: the momentum of the running statistics; NaN for PyTorch's None (a cumulative
 *   moving average, [property@Gnn.BatchNorm:cumulative-average])
 * @affine: whether the layer learns weight and bias
 * @track_running_stats: whether the layer keeps running statistics
 * @dtype: the floating-point element type of the parameters and statistics
 * @error: return location for a #GError
 *
 * Creates `nn.BatchNorm1d (num_features, eps, momentum, affine, track_running_stats,
 * dtype=dtype)`.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 */
GnnBatchNorm1d *
gnn_batch_norm1d_new_full (int        num_features,
                           double     eps,
                           double     momentum,
                           gboolean   affine,
                           gboolean   track_running_stats,
                           GnnDtype   dtype,
                           GError   **error)
{
  return bn_new (GNN_TYPE_BATCH_NORM1D, num_features, eps, momentum, affine, track_running_stats,
                 dtype, error);
}

/**
 * GnnBatchNorm2d:
 *
 * Batch normalisation of an input of shape (N, C, H, W), as `torch.nn.BatchNorm2d`; see
 * [class@Gnn.BatchNorm]. Any other rank is refused ("BatchNorm2d: expected 4D input (got 3D
 * input)"). The layer prints as PyTorch's:
 * "BatchNorm2d(3, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)".
 */
static void
gnn_batch_norm2d_class_init (GnnBatchNorm2dClass *klass)
{
}

static void
gnn_batch_norm2d_init (GnnBatchNorm2d *self)
{
}

/**
 * gnn_batch_norm2d_new:
 * @num_features: the number of channels C, at least 0
 * @error: return location for a #GError
 *
 * Creates a float32 `nn.BatchNorm2d (num_features)`: eps 1e-5, momentum 0.1, affine,
 * tracking running statistics.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 */
GnnBatchNorm2d *
gnn_batch_norm2d_new (int      num_features,
                      GError **error)
{
  return bn_new (GNN_TYPE_BATCH_NORM2D, num_features, 1e-5, 0.1, TRUE, TRUE, GNN_DTYPE_FLOAT32, error);
}

/**
 * gnn_batch_norm2d_new_full:
 * @num_features: the number of channels C, at least 0
 * @eps: the value added to the variance
 * @momentum: the momentum of the running statistics; NaN for PyTorch's None (a cumulative
 *   moving average, [property@Gnn.BatchNorm:cumulative-average])
 * @affine: whether the layer learns weight and bias
 * @track_running_stats: whether the layer keeps running statistics
 * @dtype: the floating-point element type of the parameters and statistics
 * @error: return location for a #GError
 *
 * Creates `nn.BatchNorm2d (num_features, eps, momentum, affine, track_running_stats,
 * dtype=dtype)`.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 */
GnnBatchNorm2d *
gnn_batch_norm2d_new_full (int        num_features,
                           double     eps,
                           double     momentum,
                           gboolean   affine,
                           gboolean   track_running_stats,
                           GnnDtype   dtype,
                           GError   **error)
{
  return bn_new (GNN_TYPE_BATCH_NORM2D, num_features, eps, momentum, affine, track_running_stats,
                 dtype, error);
}

/**
 * GnnBatchNorm3d:
 *
 * Batch normalisation of an input of shape (N, C, D, H, W), as `torch.nn.BatchNorm3d`; see
 * [class@Gnn.BatchNorm], whose statistics it computes over N, D, H and W with the same
 * batch-norm ops. Any other rank is refused ("BatchNorm3d: expected 5D input (got 4D input)").
 * The layer prints as PyTorch's:
 * "BatchNorm3d(3, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)".
 *
 * Since: 0.1
 */
static void
gnn_batch_norm3d_class_init (GnnBatchNorm3dClass *klass)
{
}

static void
gnn_batch_norm3d_init (GnnBatchNorm3d *self)
{
}

/**
 * gnn_batch_norm3d_new:
 * @num_features: the number of channels C, at least 0
 * @error: return location for a #GError
 *
 * Creates a float32 `nn.BatchNorm3d (num_features)`: eps 1e-5, momentum 0.1, affine,
 * tracking running statistics.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnBatchNorm3d *
gnn_batch_norm3d_new (int      num_features,
                      GError **error)
{
  return bn_new (GNN_TYPE_BATCH_NORM3D, num_features, 1e-5, 0.1, TRUE, TRUE, GNN_DTYPE_FLOAT32, error);
}

/**
 * gnn_batch_norm3d_new_full:
 * @num_features: the number of channels C, at least 0
 * @eps: the value added to the variance
 * @momentum: the momentum of the running statistics; NaN for PyTorch's None (a cumulative
 *   moving average, [property@Gnn.BatchNorm:cumulative-average])
 * @affine: whether the layer learns weight and bias
 * @track_running_stats: whether the layer keeps running statistics
 * @dtype: the floating-point element type of the parameters and statistics
 * @error: return location for a #GError
 *
 * Creates `nn.BatchNorm3d (num_features, eps, momentum, affine, track_running_stats,
 * dtype=dtype)`.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnBatchNorm3d *
gnn_batch_norm3d_new_full (int        num_features,
                           double     eps,
                           double     momentum,
                           gboolean   affine,
                           gboolean   track_running_stats,
                           GnnDtype   dtype,
                           GError   **error)
{
  return bn_new (GNN_TYPE_BATCH_NORM3D, num_features, eps, momentum, affine, track_running_stats,
                 dtype, error);
}

/* ---- LayerNorm ------------------------------------------------------------------------- */

/**
 * GnnLayerNorm:
 *
 * Layer normalisation over the last dimensions of the input, as `torch.nn.LayerNorm`:
 * y = (x - E[x]) / √(Var[x] + eps) · weight + bias, the mean and the biased variance taken
 * over the trailing dimensions given by [property@Gnn.LayerNorm:normalized-shape], in
 * training and evaluation mode alike.
 *
 * With [property@Gnn.LayerNorm:elementwise-affine] the layer holds `weight` (ones) and
 * `bias` (zeros), of shape normalized_shape; without, both names are registered empty.
 *
 * The normalized shape is a construct-only [struct@GLib.Variant] of type "ax" (an array of
 * int64), so that bindings pass it as a plain list: in Python,
 * `Gnn.LayerNorm(normalized_shape=GLib.Variant('ax', [4, 5]))`; C code can use
 * [ctor@Gnn.LayerNorm.new]. The layer prints as PyTorch's:
 * "LayerNorm((4, 5), eps=1e-05, elementwise_affine=True)".
 */
struct _GnnLayerNorm
{
  GnnModule parent_instance;

  GVariant *shape;                 /* the property ("ax") */
  const gint64 *normalized_shape;  /* its values, set at setup */
  guint n_dims;
  double eps;
  gboolean elementwise_affine;
};

enum {
  LN_PROP_0,
  LN_PROP_NORMALIZED_SHAPE,
  LN_PROP_EPS,
  LN_PROP_ELEMENTWISE_AFFINE,
  LN_N_PROPS
};

static GnnProp ln_props[LN_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnLayerNorm, gnn_layer_norm, GNN_TYPE_MODULE)

static gboolean
gnn_layer_norm_setup (GnnModule *module,
                      GError   **error)
{
  GnnLayerNorm *self = GNN_LAYER_NORM (module);
  gsize n;

  self->normalized_shape = gnn_prop_int64s (self->shape, &n);
  self->n_dims = n;
  if (!GNN_MODULE_CLASS (gnn_layer_norm_parent_class)->setup (module, error))
    return FALSE;
  if (self->n_dims == 0 || self->n_dims > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "LayerNorm: normalized_shape must have between 1 and %d dimensions, got %u",
                   GNN_MAX_DIMS, self->n_dims);
      return FALSE;
    }
  for (guint i = 0; i < self->n_dims; i++)
    if (self->normalized_shape[i] < 0)
      {
        g_autofree char *s = gnn_shape_to_string (self->n_dims, self->normalized_shape);
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "LayerNorm: Trying to create tensor with negative dimension: normalized_shape=%s", s);
        return FALSE;
      }
  return register_filled_parameter (module, "weight", self->elementwise_affine, self->normalized_shape,
                                    self->n_dims, 1.0, gnn_module_dtype (module), error) &&
         register_filled_parameter (module, "bias", self->elementwise_affine, self->normalized_shape,
                                    self->n_dims, 0.0, gnn_module_dtype (module), error);
}

static GnnArgs *
gnn_layer_norm_forward (GnnModule *module,
                        GnnArgs   *input,
                        GError   **error)
{
  GnnLayerNorm *self = GNN_LAYER_NORM (module);
  const gint64 *shape;
  GnnTensor *x;
  gboolean ok;
  guint ndim;

  x = gnn_args_get_tensor (input, 0, error);
  if (x == NULL)
    {
      g_prefix_error (error, "LayerNorm: ");
      return NULL;
    }
  shape = gnn_tensor_get_shape (x, &ndim);
  ok = ndim >= self->n_dims &&
       memcmp (shape + ndim - self->n_dims, self->normalized_shape, self->n_dims * sizeof (gint64)) == 0;
  if (!ok)
    {
      g_autofree char *want = gnn_shape_to_string (self->n_dims, self->normalized_shape);
      g_autofree char *got = gnn_shape_to_string (ndim, shape);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "LayerNorm: expected input with shape [*, %s, got shape %s",
                   want + 1, got);
      /* want + 1 drops the "[": it reads "[*, 4, 5]" */
      return NULL;
    }
  return gnn_args_take_tensor_or_prefix (gnn_tensor_layer_norm (x, self->normalized_shape, self->n_dims,
                                                                gnn_module_tensor (module, "weight", FALSE, NULL),
                                                                gnn_module_tensor (module, "bias", FALSE, NULL),
                                                                self->eps, error),
                                         "LayerNorm", error);
}

static char *
gnn_layer_norm_extra_repr (GnnModule *module)
{
  GnnLayerNorm *self = GNN_LAYER_NORM (module);
  g_autofree char *eps = gnn_python_float_repr (self->eps);
  GString *s = g_string_new ("(");

  for (guint i = 0; i < self->n_dims; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", self->normalized_shape[i]);
  g_string_append_printf (s, "%s), eps=%s, elementwise_affine=%s", self->n_dims == 1 ? "," : "",
                          eps, py_bool (self->elementwise_affine));
  return g_string_free (s, FALSE);
}

static GVariant *
shape_to_variant (const gint64 *shape,
                  guint         n)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, shape, n, sizeof (gint64));
}

static void
gnn_layer_norm_class_init (GnnLayerNormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_layer_norm_setup;
  module_class->forward = gnn_layer_norm_forward;
  module_class->extra_repr = gnn_layer_norm_extra_repr;

  /**
   * GnnLayerNorm:normalized-shape:
   *
   * The shape of the trailing dimensions normalised over (`normalized_shape`), as a
   * variant of type "ax": PyTorch's int (one dimension) is a one-element array.
   */
  ln_props[LN_PROP_NORMALIZED_SHAPE] = (GnnProp) {
    g_param_spec_variant ("normalized-shape", NULL, NULL, G_VARIANT_TYPE ("ax"), NULL, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnLayerNorm, shape), NULL, gnn_prop_get_int64s_or_empty };

  /**
   * GnnLayerNorm:eps:
   *
   * The value added to the variance for numerical stability (`eps`).
   */
  ln_props[LN_PROP_EPS] = (GnnProp) {
    g_param_spec_double ("eps", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 1e-5, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnLayerNorm, eps), gnn_prop_check_non_negative };

  /**
   * GnnLayerNorm:elementwise-affine:
   *
   * Whether the layer learns `weight` and `bias` (`elementwise_affine`).
   */
  ln_props[LN_PROP_ELEMENTWISE_AFFINE] = (GnnProp) {
    g_param_spec_boolean ("elementwise-affine", NULL, NULL, TRUE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnLayerNorm, elementwise_affine) };

  gnn_props_install (object_class, ln_props, LN_N_PROPS);
  gnn_module_class_uses_dtype (GNN_MODULE_CLASS (klass));
}

static void
gnn_layer_norm_init (GnnLayerNorm *self)
{
}

/**
 * gnn_layer_norm_new:
 * @normalized_shape: (array length=n_dims): the trailing dimensions to normalise over
 * @n_dims: the length of @normalized_shape, at least 1
 * @error: return location for a #GError
 *
 * Creates a float32 `nn.LayerNorm (normalized_shape)`: eps 1e-5, elementwise affine.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 */
GnnLayerNorm *
gnn_layer_norm_new (const gint64  *normalized_shape,
                    guint          n_dims,
                    GError       **error)
{
  return gnn_layer_norm_new_full (normalized_shape, n_dims, 1e-5, TRUE, GNN_DTYPE_FLOAT32, error);
}

/**
 * gnn_layer_norm_new_full:
 * @normalized_shape: (array length=n_dims): the trailing dimensions to normalise over
 * @n_dims: the length of @normalized_shape, at least 1
 * @eps: the value added to the variance
 * @elementwise_affine: whether the layer learns weight and bias
 * @dtype: the floating-point element type of the parameters
 * @error: return location for a #GError
 *
 * Creates `nn.LayerNorm (normalized_shape, eps, elementwise_affine, dtype=dtype)`.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set (an empty or negative
 *   shape)
 */
GnnLayerNorm *
gnn_layer_norm_new_full (const gint64  *normalized_shape,
                         guint          n_dims,
                         double         eps,
                         gboolean       elementwise_affine,
                         GnnDtype       dtype,
                         GError       **error)
{
  g_return_val_if_fail (normalized_shape != NULL || n_dims == 0, NULL);
  return gnn_module_new_or_error (error, GNN_TYPE_LAYER_NORM,
                                  "normalized-shape", shape_to_variant (normalized_shape, n_dims),
                                  "eps", eps,
                                  "elementwise-affine", elementwise_affine,
                                  "dtype", dtype,
                                  NULL);
}

/**
 * gnn_layer_norm_get_normalized_shape:
 * @self: a layer normalisation layer
 * @n_dims: (out): the number of dimensions
 *
 * Gets [property@Gnn.LayerNorm:normalized-shape].
 *
 * Returns: (array length=n_dims) (transfer none): the normalized shape
 */
const gint64 *
gnn_layer_norm_get_normalized_shape (GnnLayerNorm *self,
                                     guint        *n_dims)
{
  g_return_val_if_fail (GNN_IS_LAYER_NORM (self), NULL);
  g_return_val_if_fail (n_dims != NULL, NULL);
  *n_dims = self->n_dims;
  return self->normalized_shape;
}

/**
 * gnn_layer_norm_get_eps:
 * @self: a layer normalisation layer
 *
 * Gets [property@Gnn.LayerNorm:eps].
 *
 * Returns: the value added to the variance
 */
double
gnn_layer_norm_get_eps (GnnLayerNorm *self)
{
  g_return_val_if_fail (GNN_IS_LAYER_NORM (self), 0);
  return self->eps;
}

/**
 * gnn_layer_norm_set_eps:
 * @self: a layer normalisation layer
 * @eps: the value added to the variance, at least 0
 *
 * Sets [property@Gnn.LayerNorm:eps].
 */
void
gnn_layer_norm_set_eps (GnnLayerNorm *self,
                        double        eps)
{
  g_return_if_fail (GNN_IS_LAYER_NORM (self));
  gnn_prop_set (self, &ln_props[LN_PROP_EPS], eps);
}

/**
 * gnn_layer_norm_get_elementwise_affine:
 * @self: a layer normalisation layer
 *
 * Gets [property@Gnn.LayerNorm:elementwise-affine].
 *
 * Returns: whether the layer learns weight and bias
 */
gboolean
gnn_layer_norm_get_elementwise_affine (GnnLayerNorm *self)
{
  g_return_val_if_fail (GNN_IS_LAYER_NORM (self), FALSE);
  return self->elementwise_affine;
}

/**
 * gnn_layer_norm_reset_parameters:
 * @self: a layer normalisation layer
 * @error: return location for a #GError
 *
 * Sets weight to ones and bias to zeros, in place (`reset_parameters`).
 *
 * Returns: %TRUE on success, %FALSE with @error set (also when the layer's setup failed)
 */
gboolean
gnn_layer_norm_reset_parameters (GnnLayerNorm *self,
                                 GError      **error)
{
  g_return_val_if_fail (GNN_IS_LAYER_NORM (self), FALSE);
  if (!gnn_module_ensure_setup (GNN_MODULE (self), error))
    return FALSE;
  return reset_affine (GNN_MODULE (self), error);
}

/* ---- GroupNorm ------------------------------------------------------------------------- */

/**
 * GnnGroupNorm:
 *
 * Group normalisation, as `torch.nn.GroupNorm`: the C channels of an input of shape
 * `(N, C, *)` are split into num_groups groups, each normalised over its channels and the
 * remaining dimensions with its mean and biased variance, then scaled and shifted per
 * channel: y = (x - E[x]) / √(Var[x] + eps) · weight + bias. Training and evaluation
 * mode agree.
 *
 * With [property@Gnn.GroupNorm:affine] the layer holds `weight` (ones) and `bias`
 * (zeros), of shape (num_channels). num_channels must be divisible by num_groups.
 * The layer prints as PyTorch's: "GroupNorm(2, 4, eps=1e-05, affine=True)".
 */
struct _GnnGroupNorm
{
  GnnModule parent_instance;

  int num_groups;
  int num_channels;
  double eps;
  gboolean affine;
};

enum {
  GN_PROP_0,
  GN_PROP_NUM_GROUPS,
  GN_PROP_NUM_CHANNELS,
  GN_PROP_EPS,
  GN_PROP_AFFINE,
  GN_N_PROPS
};

static GnnProp gn_props[GN_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnGroupNorm, gnn_group_norm, GNN_TYPE_MODULE)

static gboolean
gnn_group_norm_setup (GnnModule *module,
                      GError   **error)
{
  GnnGroupNorm *self = GNN_GROUP_NORM (module);
  gint64 shape[1] = { self->num_channels };

  if (!GNN_MODULE_CLASS (gnn_group_norm_parent_class)->setup (module, error))
    return FALSE;
  if (self->num_groups <= 0 || self->num_channels < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "GroupNorm: num_groups must be positive and num_channels not negative "
                   "(got num_groups=%d, num_channels=%d)", self->num_groups, self->num_channels);
      return FALSE;
    }
  if (self->num_channels % self->num_groups != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "GroupNorm: num_channels must be divisible by num_groups (got num_groups=%d, num_channels=%d)",
                   self->num_groups, self->num_channels);
      return FALSE;
    }
  return register_filled_parameter (module, "weight", self->affine, shape, 1, 1.0, gnn_module_dtype (module), error) &&
         register_filled_parameter (module, "bias", self->affine, shape, 1, 0.0, gnn_module_dtype (module), error);
}

static GnnArgs *
gnn_group_norm_forward (GnnModule *module,
                        GnnArgs   *input,
                        GError   **error)
{
  GnnGroupNorm *self = GNN_GROUP_NORM (module);
  const gint64 *shape;
  GnnTensor *x;
  guint ndim;

  x = gnn_args_get_tensor (input, 0, error);
  if (x == NULL)
    {
      g_prefix_error (error, "GroupNorm: ");
      return NULL;
    }
  shape = gnn_tensor_get_shape (x, &ndim);
  if (ndim < 2 || shape[1] != self->num_channels)
    {
      g_autofree char *got = gnn_shape_to_string (ndim, shape);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "GroupNorm: expected input of shape [N, %d, *] (num_channels), got shape %s",
                   self->num_channels, got);
      return NULL;
    }
  return gnn_args_take_tensor_or_prefix (gnn_tensor_group_norm (x, self->num_groups,
                                                                gnn_module_tensor (module, "weight", FALSE, NULL),
                                                                gnn_module_tensor (module, "bias", FALSE, NULL),
                                                                self->eps, error),
                                         "GroupNorm", error);
}

static char *
gnn_group_norm_extra_repr (GnnModule *module)
{
  GnnGroupNorm *self = GNN_GROUP_NORM (module);
  g_autofree char *eps = gnn_python_float_repr (self->eps);

  return g_strdup_printf ("%d, %d, eps=%s, affine=%s", self->num_groups, self->num_channels, eps,
                          py_bool (self->affine));
}

static void
gnn_group_norm_class_init (GnnGroupNormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_group_norm_setup;
  module_class->forward = gnn_group_norm_forward;
  module_class->extra_repr = gnn_group_norm_extra_repr;

  /**
   * GnnGroupNorm:num-groups:
   *
   * The number of groups the channels are split into (`num_groups`).
   */
  gn_props[GN_PROP_NUM_GROUPS] = (GnnProp) {
    g_param_spec_int ("num-groups", NULL, NULL, G_MININT, G_MAXINT, 1, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnGroupNorm, num_groups) };

  /**
   * GnnGroupNorm:num-channels:
   *
   * The number of channels C of the input, dimension 1 (`num_channels`).
   */
  gn_props[GN_PROP_NUM_CHANNELS] = (GnnProp) {
    g_param_spec_int ("num-channels", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnGroupNorm, num_channels) };

  /**
   * GnnGroupNorm:eps:
   *
   * The value added to the variance for numerical stability (`eps`).
   */
  gn_props[GN_PROP_EPS] = (GnnProp) {
    g_param_spec_double ("eps", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 1e-5, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnGroupNorm, eps), gnn_prop_check_non_negative };

  /**
   * GnnGroupNorm:affine:
   *
   * Whether the layer learns a per-channel `weight` and `bias` (`affine`).
   */
  gn_props[GN_PROP_AFFINE] = (GnnProp) {
    g_param_spec_boolean ("affine", NULL, NULL, TRUE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnGroupNorm, affine) };

  gnn_props_install (object_class, gn_props, GN_N_PROPS);
  gnn_module_class_uses_dtype (GNN_MODULE_CLASS (klass));
}

static void
gnn_group_norm_init (GnnGroupNorm *self)
{
}

/**
 * gnn_group_norm_new:
 * @num_groups: the number of groups, at least 1
 * @num_channels: the number of channels, a multiple of @num_groups
 * @error: return location for a #GError
 *
 * Creates a float32 `nn.GroupNorm (num_groups, num_channels)`: eps 1e-5, affine.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 */
GnnGroupNorm *
gnn_group_norm_new (int      num_groups,
                    int      num_channels,
                    GError **error)
{
  return gnn_group_norm_new_full (num_groups, num_channels, 1e-5, TRUE, GNN_DTYPE_FLOAT32, error);
}

/**
 * gnn_group_norm_new_full:
 * @num_groups: the number of groups, at least 1
 * @num_channels: the number of channels, a multiple of @num_groups
 * @eps: the value added to the variance
 * @affine: whether the layer learns weight and bias
 * @dtype: the floating-point element type of the parameters
 * @error: return location for a #GError
 *
 * Creates `nn.GroupNorm (num_groups, num_channels, eps, affine, dtype=dtype)`.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set (num_channels not divisible
 *   by num_groups)
 */
GnnGroupNorm *
gnn_group_norm_new_full (int        num_groups,
                         int        num_channels,
                         double     eps,
                         gboolean   affine,
                         GnnDtype   dtype,
                         GError   **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_GROUP_NORM,
                                  "num-groups", num_groups,
                                  "num-channels", num_channels,
                                  "eps", eps,
                                  "affine", affine,
                                  "dtype", dtype,
                                  NULL);
}

/**
 * gnn_group_norm_get_num_groups:
 * @self: a group normalisation layer
 *
 * Gets [property@Gnn.GroupNorm:num-groups].
 *
 * Returns: the number of groups
 */
int
gnn_group_norm_get_num_groups (GnnGroupNorm *self)
{
  g_return_val_if_fail (GNN_IS_GROUP_NORM (self), 0);
  return self->num_groups;
}

/**
 * gnn_group_norm_get_num_channels:
 * @self: a group normalisation layer
 *
 * Gets [property@Gnn.GroupNorm:num-channels].
 *
 * Returns: the number of channels
 */
int
gnn_group_norm_get_num_channels (GnnGroupNorm *self)
{
  g_return_val_if_fail (GNN_IS_GROUP_NORM (self), 0);
  return self->num_channels;
}

/**
 * gnn_group_norm_get_eps:
 * @self: a group normalisation layer
 *
 * Gets [property@Gnn.GroupNorm:eps].
 *
 * Returns: the value added to the variance
 */
double
gnn_group_norm_get_eps (GnnGroupNorm *self)
{
  g_return_val_if_fail (GNN_IS_GROUP_NORM (self), 0);
  return self->eps;
}

/**
 * gnn_group_norm_set_eps:
 * @self: a group normalisation layer
 * @eps: the value added to the variance, at least 0
 *
 * Sets [property@Gnn.GroupNorm:eps].
 */
void
gnn_group_norm_set_eps (GnnGroupNorm *self,
                        double        eps)
{
  g_return_if_fail (GNN_IS_GROUP_NORM (self));
  gnn_prop_set (self, &gn_props[GN_PROP_EPS], eps);
}

/**
 * gnn_group_norm_get_affine:
 * @self: a group normalisation layer
 *
 * Gets [property@Gnn.GroupNorm:affine].
 *
 * Returns: whether the layer learns weight and bias
 */
gboolean
gnn_group_norm_get_affine (GnnGroupNorm *self)
{
  g_return_val_if_fail (GNN_IS_GROUP_NORM (self), FALSE);
  return self->affine;
}

/**
 * gnn_group_norm_reset_parameters:
 * @self: a group normalisation layer
 * @error: return location for a #GError
 *
 * Sets weight to ones and bias to zeros, in place (`reset_parameters`).
 *
 * Returns: %TRUE on success, %FALSE with @error set (also when the layer's setup failed)
 */
gboolean
gnn_group_norm_reset_parameters (GnnGroupNorm *self,
                                 GError      **error)
{
  g_return_val_if_fail (GNN_IS_GROUP_NORM (self), FALSE);
  if (!gnn_module_ensure_setup (GNN_MODULE (self), error))
    return FALSE;
  return reset_affine (GNN_MODULE (self), error);
}

/* the layer types of this file, for gnn_module_new_from_type_name() to find by name */
void
gnn_norm_ensure_types (void)
{
  g_type_ensure (GNN_TYPE_BATCH_NORM1D);
  g_type_ensure (GNN_TYPE_BATCH_NORM2D);
  g_type_ensure (GNN_TYPE_LAYER_NORM);
  g_type_ensure (GNN_TYPE_GROUP_NORM);
  g_type_ensure (GNN_TYPE_BATCH_NORM3D);
}
