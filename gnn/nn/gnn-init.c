/* gnn-init.c: parameter initialisation, as torch.nn.init
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn.h"

/* The functions here follow torch/nn/init.py line by line: the same formulas, the same
 * defaults, the same error messages. The numbers come from a GnnGenerator, not from
 * PyTorch's generator, so only their distribution matches PyTorch's. */

/**
 * gnn_init_calculate_gain:
 * @nonlinearity: the name of the non-linear function: "linear", "conv1d", "conv2d",
 *   "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "sigmoid",
 *   "tanh", "relu", "leaky_relu" or "selu"
 * @param: the negative slope for "leaky_relu"; NAN for PyTorch's default (`None`, which
 *   means 0.01). Ignored by the other functions
 * @error: return location for a #GError
 *
 * The recommended gain for a non-linearity (`torch.nn.init.calculate_gain`): 1 for the
 * linear functions and sigmoid, 5/3 for tanh, √2 for relu, √(2 / (1 + slope²)) for
 * leaky_relu, 3/4 for selu.
 *
 * MT safe.
 *
 * Returns: the gain, or 0 with @error set when @nonlinearity is unknown or @param is not a
 *   finite number
 */
double
gnn_init_calculate_gain (const char *nonlinearity,
                         double      param,
                         GError    **error)
{
  static const char *const linear_fns[] = {
    "linear", "conv1d", "conv2d", "conv3d",
    "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", NULL
  };

  g_return_val_if_fail (nonlinearity != NULL, 0.0);

  if (g_strv_contains (linear_fns, nonlinearity) || g_str_equal (nonlinearity, "sigmoid"))
    return 1.0;
  if (g_str_equal (nonlinearity, "tanh"))
    return 5.0 / 3;
  if (g_str_equal (nonlinearity, "relu"))
    return sqrt (2.0);
  if (g_str_equal (nonlinearity, "leaky_relu"))
    {
      double negative_slope = isnan (param) ? 0.01 : param;

      if (!isfinite (negative_slope))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "negative_slope %g not a valid number", param);
          return 0.0;
        }
      return sqrt (2.0 / (1 + negative_slope * negative_slope));
    }
  if (g_str_equal (nonlinearity, "selu"))
    return 3.0 / 4;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "Unsupported nonlinearity %s", nonlinearity);
  return 0.0;
}

/**
 * gnn_init_calculate_fan_in_and_fan_out:
 * @tensor: a tensor of at least 2 dimensions, shaped as a weight: (out, in, *kernel)
 * @fan_in: (out) (optional): return location for the fan-in: `size (1)` times the
 *   receptive field (the product of the sizes after the second)
 * @fan_out: (out) (optional): return location for the fan-out: `size (0)` times the
 *   receptive field
 * @error: return location for a #GError
 *
 * The number of inputs and outputs each unit of a weight connects
 * (`torch.nn.init._calculate_fan_in_and_fan_out`). For a [class@Gnn.Linear] weight of shape
 * (out_features, in_features) they are in_features and out_features.
 *
 * MT safe.
 *
 * Returns: %TRUE on success, %FALSE with @error set when @tensor has fewer than 2
 *   dimensions
 */
gboolean
gnn_init_calculate_fan_in_and_fan_out (GnnTensor *tensor,
                                       gint64    *fan_in,
                                       gint64    *fan_out,
                                       GError   **error)
{
  const gint64 *shape;
  guint ndim;
  gint64 receptive_field_size = 1;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);

  shape = gnn_tensor_get_shape (tensor, &ndim);
  if (ndim < 2)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
      return FALSE;
    }
  for (guint i = 2; i < ndim; i++)
    receptive_field_size *= shape[i];
  if (fan_in)
    *fan_in = shape[1] * receptive_field_size;
  if (fan_out)
    *fan_out = shape[0] * receptive_field_size;
  return TRUE;
}

/* _calculate_correct_fan: the fan @mode names, case-insensitively */
static gboolean
calculate_correct_fan (GnnTensor  *tensor,
                       const char *mode,
                       gint64     *fan,
                       GError    **error)
{
  g_autofree char *lower = g_ascii_strdown (mode, -1);
  gint64 fan_in, fan_out;

  if (!g_str_equal (lower, "fan_in") && !g_str_equal (lower, "fan_out"))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Mode %s not supported, please use one of ['fan_in', 'fan_out']", lower);
      return FALSE;
    }
  if (!gnn_init_calculate_fan_in_and_fan_out (tensor, &fan_in, &fan_out, error))
    return FALSE;
  *fan = g_str_equal (lower, "fan_in") ? fan_in : fan_out;
  return TRUE;
}

/**
 * gnn_init_uniform_:
 * @tensor: the floating-point tensor to fill, such as a [class@Gnn.Parameter]
 * @a: the lower bound
 * @b: the upper bound, not below @a
 * @generator: (nullable): the generator to draw from; %NULL for the default one
 * @error: return location for a #GError
 *
 * Fills @tensor in place with numbers drawn from the uniform distribution U(@a, @b)
 * (`torch.nn.init.uniform_`). Autograd does not record it, so a parameter that requires
 * grad can be filled.
 *
 * Returns: %TRUE on success, %FALSE with @error set when @tensor is not floating point or
 *   @a > @b
 */
gboolean
gnn_init_uniform_ (GnnTensor    *tensor,
                   double        a,
                   double        b,
                   GnnGenerator *generator,
                   GError      **error)
{
  g_autoptr(GnnNoGradGuard) guard = NULL;
  g_autoptr(GnnDevice) device = NULL;
  g_autoptr(GnnTensor) draws = NULL;
  g_autofree char *device_name = NULL;
  const gint64 *shape;
  GnnDtype dtype, draw_dtype;
  guint ndim;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);

  dtype = gnn_tensor_get_dtype (tensor);
  if (!gnn_dtype_is_floating (dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "uniform_: expected a floating-point tensor, got %s", gnn_dtype_get_name (dtype));
      return FALSE;
    }
  if (!(a <= b))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "uniform_ expects to return a [from, to) range, but found from=%g > to=%g", a, b);
      return FALSE;
    }
  if (gnn_tensor_get_numel (tensor) == 0)
    return TRUE;

  guard = gnn_no_grad_guard_new ();
  shape = gnn_tensor_get_shape (tensor, &ndim);
  device = gnn_tensor_get_device (tensor);
  device_name = gnn_device_to_string (device);
  /* draw in float64 for float64 tensors, float32 otherwise (as PyTorch's accumulate type),
   * scale, then round once into @tensor's dtype */
  draw_dtype = dtype == GNN_DTYPE_FLOAT64 ? GNN_DTYPE_FLOAT64 : GNN_DTYPE_FLOAT32;
  draws = gnn_tensor_new_rand (shape, ndim, generator, draw_dtype, device_name, error);
  if (draws == NULL ||
      !gnn_tensor_mul_scalar_ (draws, b - a, error) ||
      !gnn_tensor_add_scalar_ (draws, a, error))
    return FALSE;
  return gnn_tensor_copy_ (tensor, draws, error);
}

/**
 * gnn_init_kaiming_uniform_:
 * @tensor: the floating-point tensor to fill, of at least 2 dimensions
 * @a: the negative slope of the rectifier used after this layer (only used with
 *   "leaky_relu"); PyTorch's default is 0
 * @mode: (nullable): "fan_in" (the default, for %NULL) keeps the variance of the
 *   activations in the forward pass; "fan_out" keeps that of the gradients in the backward
 *   pass
 * @nonlinearity: (nullable): the non-linear function, as for
 *   [func@Gnn.init_calculate_gain]; %NULL for PyTorch's default, "leaky_relu"
 * @generator: (nullable): the generator to draw from; %NULL for the default one
 * @error: return location for a #GError
 *
 * Fills @tensor in place with numbers drawn from U(-bound, bound), bound = gain × √(3 /
 * fan), as He et al. (2015) describe (`torch.nn.init.kaiming_uniform_`). A tensor without
 * elements is left as it is.
 *
 * [class@Gnn.Linear] initialises its weight with @a = √5, which gives bound =
 * 1 / √in_features.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
gnn_init_kaiming_uniform_ (GnnTensor    *tensor,
                           double        a,
                           const char   *mode,
                           const char   *nonlinearity,
                           GnnGenerator *generator,
                           GError      **error)
{
  GError *local = NULL;
  gint64 fan;
  double gain, std, bound;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);

  if (mode == NULL)
    mode = "fan_in";
  if (nonlinearity == NULL)
    nonlinearity = "leaky_relu";
  /* PyTorch warns "Initializing zero-element tensors is a no-op" and returns */
  if (gnn_tensor_get_numel (tensor) == 0)
    return TRUE;
  if (!calculate_correct_fan (tensor, mode, &fan, error))
    return FALSE;
  gain = gnn_init_calculate_gain (nonlinearity, a, &local);
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  std = gain / sqrt ((double) fan);
  bound = sqrt (3.0) * std;
  return gnn_init_uniform_ (tensor, -bound, bound, generator, error);
}
