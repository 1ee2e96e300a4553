/* gnn-linear.c: GnnLinear
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "gnn-module-private.h"
#include "gnn-props-private.h"
#include "core/gnn-tensor-private.h"
#include "gnn-linear.h"
#include "gnn-init.h"

/**
 * GnnLinear:
 *
 * A fully connected layer, as `torch.nn.Linear`: y = x Wᵀ + b.
 *
 * The layer holds the parameters `weight`, of shape (out_features, in_features), and `bias`,
 * of shape (out_features); without a bias ([property@Gnn.Linear:bias] %FALSE) the name
 * `bias` is registered empty, as PyTorch's `register_parameter ('bias', None)`, and left out
 * of [method@Gnn.Module.named_parameters].
 *
 * They are initialised as PyTorch's `reset_parameters` does: the weight with
 * [func@Gnn.init_kaiming_uniform_] (a = √5), which draws from U(-1/√in_features,
 * 1/√in_features), and the bias from the same distribution. The numbers come from the
 * default [class@Gnn.Generator] (see [func@Gnn.manual_seed]), so they differ from PyTorch's.
 *
 * The input is a tensor of shape `(*, in_features)`; the output has shape `(*, out_features)`.
 * The layer prints as PyTorch's: "Linear(in_features=4, out_features=3, bias=True)".
 *
 * A layer can be created with [ctor@Gnn.Linear.new] or by type, from its properties:
 * `g_object_new (GNN_TYPE_LINEAR, "in-features", 4, "out-features", 3, NULL)`.
 */
struct _GnnLinear
{
  GnnModule parent_instance;

  int in_features;
  int out_features;
  gboolean bias;
};

enum {
  PROP_0,
  PROP_IN_FEATURES,
  PROP_OUT_FEATURES,
  PROP_BIAS,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnLinear, gnn_linear, GNN_TYPE_MODULE)



gboolean
gnn_module_reset_kaiming_uniform (GnnModule  *module,
                                  const char *name,
                                  GError    **error)
{
  GnnParameter *weight = gnn_module_find_parameter (module, "weight");
  GnnParameter *bias = gnn_module_find_parameter (module, "bias");
  gint64 fan_in;
  double bound;

  if (weight == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s has no parameter `weight`", name);
      return FALSE;
    }
  if (!gnn_init_kaiming_uniform_ (GNN_TENSOR (weight), sqrt (5.0), "fan_in", "leaky_relu", NULL, error))
    return FALSE;
  if (bias == NULL)
    return TRUE;
  if (!gnn_init_calculate_fan_in_and_fan_out (GNN_TENSOR (weight), &fan_in, NULL, error))
    return FALSE;
  bound = fan_in > 0 ? 1 / sqrt ((double) fan_in) : 0;
  return gnn_init_uniform_ (GNN_TENSOR (bias), -bound, bound, NULL, error);
}

static gboolean
gnn_linear_setup (GnnModule *module,
                  GError   **error)
{
  GnnLinear *self = GNN_LINEAR (module);
  g_autoptr(GnnParameter) weight = NULL;
  g_autoptr(GnnParameter) bias = NULL;
  gint64 wshape[2] = { self->out_features, self->in_features };
  gint64 bshape[1] = { self->out_features };

  if (!GNN_MODULE_CLASS (gnn_linear_parent_class)->setup (module, error))
    return FALSE;

  weight = gnn_module_new_parameter (wshape, 2, gnn_module_dtype (module), error);
  if (weight == NULL || !gnn_module_register_parameter (module, "weight", weight, error))
    return FALSE;
  if (self->bias)
    {
      bias = gnn_module_new_parameter (bshape, 1, gnn_module_dtype (module), error);
      if (bias == NULL)
        return FALSE;
    }
  /* "bias" is both the construct property (nn.Linear's argument) and the parameter, as in
   * PyTorch: registration allows a parameter named as a construct-only property */
  if (!gnn_module_register_parameter (module, "bias", bias, error))
    return FALSE;
  return gnn_module_reset_kaiming_uniform (GNN_MODULE (self), "Linear", error);
}

static GnnArgs *
gnn_linear_forward (GnnModule *module,
                    GnnArgs   *input,
                    GError   **error)
{
  GnnLinear *self = GNN_LINEAR (module);
  GnnTensor *weight, *bias;
  g_autoptr(GnnTensor) out = NULL;
  const gint64 *shape;
  GnnTensor *x;
  guint ndim;

  x = gnn_args_get_tensor (input, 0, error);
  if (x == NULL)
    {
      g_prefix_error (error, "Linear: ");
      return NULL;
    }
  shape = gnn_tensor_get_shape (x, &ndim);
  if (ndim == 0 || shape[ndim - 1] != self->in_features)
    {
      g_autofree char *s = gnn_shape_to_string (ndim, shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Linear: expected input with last dimension %d (in_features), got shape %s",
                   self->in_features, s);
      return NULL;
    }
  weight = gnn_module_tensor (module, "weight", TRUE, error);
  if (weight == NULL)
    return NULL;
  bias = gnn_module_tensor (module, "bias", FALSE, error);
  if (bias == NULL && error && *error)
    return NULL;
  out = gnn_tensor_linear (x, weight, bias, error);
  if (out == NULL)
    {
      g_prefix_error (error, "Linear: ");
      return NULL;
    }
  return gnn_args_new_tensor (out);
}

static char *
gnn_linear_extra_repr (GnnModule *module)
{
  GnnLinear *self = GNN_LINEAR (module);

  return g_strdup_printf ("in_features=%d, out_features=%d, bias=%s",
                          self->in_features, self->out_features,
                          gnn_module_find_parameter (GNN_MODULE (self), "bias") ? "True" : "False");
}

static void
gnn_linear_class_init (GnnLinearClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_linear_setup;
  module_class->forward = gnn_linear_forward;
  module_class->extra_repr = gnn_linear_extra_repr;

  /**
   * GnnLinear:in-features:
   *
   * The size of each input sample (`in_features`), at least 0.
   */
  props[PROP_IN_FEATURES] = (GnnProp) {
    g_param_spec_int ("in-features", NULL, NULL, G_MININT, G_MAXINT, 0,
                      GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnLinear, in_features), gnn_prop_check_size };

  /**
   * GnnLinear:out-features:
   *
   * The size of each output sample (`out_features`), at least 0.
   */
  props[PROP_OUT_FEATURES] = (GnnProp) {
    g_param_spec_int ("out-features", NULL, NULL, G_MININT, G_MAXINT, 0,
                      GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnLinear, out_features), gnn_prop_check_size };

  /**
   * GnnLinear:bias:
   *
   * Whether the layer learns an additive bias (`bias`). The parameter itself is found by its
   * name, "bias", with [method@Gnn.Module.get_parameter].
   */
  props[PROP_BIAS] = (GnnProp) {
    g_param_spec_boolean ("bias", NULL, NULL, TRUE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnLinear, bias) };

  gnn_props_install (object_class, props, N_PROPS);
  gnn_module_class_uses_dtype (module_class);
}

static void
gnn_linear_init (GnnLinear *self)
{
  self->bias = TRUE;
}

/**
 * gnn_linear_new_with_dtype:
 * @in_features: the size of each input sample, at least 0
 * @out_features: the size of each output sample, at least 0
 * @bias: whether the layer learns an additive bias
 * @dtype: the floating-point element type of the parameters
 * @error: return location for a #GError
 *
 * Creates a fully connected layer whose parameters are of @dtype (`nn.Linear (in_features,
 * out_features, bias, dtype=dtype)`), initialised as PyTorch initialises them.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set when a size is negative or
 *   the parameters could not be made (a dtype that is not floating point, no memory)
 */
GnnLinear *
gnn_linear_new_with_dtype (int        in_features,
                           int        out_features,
                           gboolean   bias,
                           GnnDtype   dtype,
                           GError   **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_LINEAR,
                                  "in-features", in_features,
                                  "out-features", out_features,
                                  "bias", bias,
                                  "dtype", dtype,
                                  NULL);
}

/**
 * gnn_linear_new:
 * @in_features: the size of each input sample, at least 0
 * @out_features: the size of each output sample, at least 0
 * @bias: whether the layer learns an additive bias
 * @error: return location for a #GError
 *
 * Creates a fully connected layer with float32 parameters (`nn.Linear (in_features,
 * out_features, bias)`), initialised as PyTorch initialises them.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set when a size is negative or
 *   the parameters could not be made
 */
GnnLinear *
gnn_linear_new (int        in_features,
                int        out_features,
                gboolean   bias,
                GError   **error)
{
  return gnn_linear_new_with_dtype (in_features, out_features, bias, GNN_DTYPE_FLOAT32, error);
}

/**
 * gnn_linear_get_in_features:
 * @self: a linear layer
 *
 * Gets [property@Gnn.Linear:in-features].
 *
 * Returns: the size of each input sample
 */
int
gnn_linear_get_in_features (GnnLinear *self)
{
  g_return_val_if_fail (GNN_IS_LINEAR (self), 0);
  return self->in_features;
}

/**
 * gnn_linear_get_out_features:
 * @self: a linear layer
 *
 * Gets [property@Gnn.Linear:out-features].
 *
 * Returns: the size of each output sample
 */
int
gnn_linear_get_out_features (GnnLinear *self)
{
  g_return_val_if_fail (GNN_IS_LINEAR (self), 0);
  return self->out_features;
}

/**
 * gnn_linear_get_bias:
 * @self: a linear layer
 *
 * Whether the layer was created with a bias ([property@Gnn.Linear:bias]). The parameter is
 * `gnn_module_get_parameter (self, "bias", &error)`.
 *
 * Returns: %TRUE when the layer learns an additive bias
 */
gboolean
gnn_linear_get_bias (GnnLinear *self)
{
  g_return_val_if_fail (GNN_IS_LINEAR (self), FALSE);
  return self->bias;
}

/**
 * gnn_linear_get_dtype:
 * @self: a linear layer
 *
 * Gets [property@Gnn.Module:dtype].
 *
 * Returns: the element type of the weight, or the one asked at construction when there is
 *   no weight
 */
GnnDtype
gnn_linear_get_dtype (GnnLinear *self)
{
  g_return_val_if_fail (GNN_IS_LINEAR (self), GNN_DTYPE_FLOAT32);
  return gnn_module_dtype (GNN_MODULE (self));
}

/**
 * gnn_linear_reset_parameters:
 * @self: a linear layer
 * @error: return location for a #GError
 *
 * Draws new values for the weight and the bias, in place, as PyTorch's
 * `Linear.reset_parameters`: the weight with [func@Gnn.init_kaiming_uniform_] (a = √5),
 * the bias from U(-1/√in_features, 1/√in_features) (zeros when in_features is 0), both from
 * the default [class@Gnn.Generator].
 *
 * Returns: %TRUE on success, %FALSE with @error set (also when the layer's setup failed)
 */
gboolean
gnn_linear_reset_parameters (GnnLinear *self,
                             GError   **error)
{
  g_return_val_if_fail (GNN_IS_LINEAR (self), FALSE);
  if (!gnn_module_ensure_setup (GNN_MODULE (self), error))
    return FALSE;
  return gnn_module_reset_kaiming_uniform (GNN_MODULE (self), "Linear", error);
}

/* the layer types of this file, for gnn_module_new_from_type_name() to find by name */
void
gnn_linear_ensure_types (void)
{
  g_type_ensure (GNN_TYPE_LINEAR);
}
