/* gnn-init.c: parameter initialisation, as torch.nn.init
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "nn/gnn-module-private.h"
#include "backend/gnn-math-private.h"

/* The functions here follow torch/nn/init.py line by line: the same formulas, the same
 * defaults, the same error messages. The numbers come from a GnnGenerator, not from
 * PyTorch's generator, so only their distribution matches PyTorch's. */


/* set while gnn_module_new_skip_init builds a module: initialisers leave tensors as they are */
static __thread gboolean skipping;

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
  if (skipping)
    return TRUE;
  g_autoptr(GnnNoGradGuard) guard = NULL;
  g_autoptr(GnnTensor) draws = NULL;
  const char *device_name = NULL;
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
  device_name = gnn_tensor_get_device (tensor);
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
  if (skipping)
    return TRUE;
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

/* the dtype numbers are drawn in: float64 for float64 tensors, float32 otherwise (as
 * PyTorch's accumulate type); they are rounded once into @tensor's dtype */
static GnnDtype
draw_dtype_for (GnnTensor *tensor)
{
  return gnn_tensor_get_dtype (tensor) == GNN_DTYPE_FLOAT64 ? GNN_DTYPE_FLOAT64 : GNN_DTYPE_FLOAT32;
}

static gboolean
check_floating (GnnTensor  *tensor,
                const char *fn,
                GError    **error)
{
  GnnDtype dtype = gnn_tensor_get_dtype (tensor);

  if (gnn_dtype_is_floating (dtype))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
               "%s: expected a floating-point tensor, got %s", fn, gnn_dtype_get_name (dtype));
  return FALSE;
}

/* a new tensor shaped as @tensor, on its device, of @dtype, drawn uniformly from [0, 1)
 * (@normal FALSE) or from N(0, 1) (@normal TRUE) */
static GnnTensor *
draw_like (GnnTensor    *tensor,
           gboolean      normal,
           GnnDtype      dtype,
           GnnGenerator *generator,
           GError      **error)
{
  const char *device_name = gnn_tensor_get_device (tensor);
  const gint64 *shape;
  guint ndim;

  shape = gnn_tensor_get_shape (tensor, &ndim);
  if (normal)
    return gnn_tensor_new_randn (shape, ndim, generator, dtype, device_name, error);
  return gnn_tensor_new_rand (shape, ndim, generator, dtype, device_name, error);
}

/* copies @n float64 values, in row-major order, into @tensor (of @n elements) on its
 * device; the caller holds a no-grad guard */
static gboolean
copy_from_host (GnnTensor    *tensor,
                const double *data,
                gsize         n,
                GError      **error)
{
  const char *device_name = gnn_tensor_get_device (tensor);
  g_autoptr(GnnTensor) host = NULL;
  g_autoptr(GnnTensor) moved = NULL;
  const gint64 *shape;
  guint ndim;

  shape = gnn_tensor_get_shape (tensor, &ndim);
  host = gnn_tensor_new_from_doubles (data, n, shape, ndim, error);
  if (host == NULL)
    return FALSE;
  moved = gnn_tensor_to_device (host, device_name, error);
  if (moved == NULL)
    return FALSE;
  return gnn_tensor_copy_ (tensor, moved, error);
}

/**
 * gnn_init_normal_:
 * @tensor: the floating-point tensor to fill, such as a [class@Gnn.Parameter]
 * @mean: the mean of the normal distribution; PyTorch's default is 0
 * @std: the standard deviation, not negative; PyTorch's default is 1
 * @generator: (nullable): the generator to draw from; %NULL for the default one
 * @error: return location for a #GError
 *
 * Fills @tensor in place with numbers drawn from the normal distribution N(@mean, @std²)
 * (`torch.nn.init.normal_`). Autograd does not record it.
 *
 * Returns: %TRUE on success, %FALSE with @error set when @tensor is not floating point or
 *   @std is negative
 */
gboolean
gnn_init_normal_ (GnnTensor    *tensor,
                  double        mean,
                  double        std,
                  GnnGenerator *generator,
                  GError      **error)
{
  if (skipping)
    return TRUE;
  g_autoptr(GnnNoGradGuard) guard = NULL;
  g_autoptr(GnnTensor) draws = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);

  if (!check_floating (tensor, "normal_", error))
    return FALSE;
  if (!(std >= 0.0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "normal expects std >= 0.0, but found std %g", std);
      return FALSE;
    }
  if (gnn_tensor_get_numel (tensor) == 0)
    return TRUE;

  guard = gnn_no_grad_guard_new ();
  draws = draw_like (tensor, TRUE, draw_dtype_for (tensor), generator, error);
  if (draws == NULL ||
      !gnn_tensor_mul_scalar_ (draws, std, error) ||
      !gnn_tensor_add_scalar_ (draws, mean, error))
    return FALSE;
  return gnn_tensor_copy_ (tensor, draws, error);
}

static double
norm_cdf (double x)
{
  return (1.0 + erf (x / M_SQRT2)) / 2.0;
}

/**
 * gnn_init_trunc_normal_:
 * @tensor: the floating-point tensor to fill
 * @mean: the mean of the normal distribution; PyTorch's default is 0
 * @std: the standard deviation of the normal distribution, above 0; PyTorch's default is 1
 * @a: the lower cut-off; PyTorch's default is -2
 * @b: the upper cut-off, not below @a; PyTorch's default is 2
 * @generator: (nullable): the generator to draw from; %NULL for the default one
 * @error: return location for a #GError
 *
 * Fills @tensor in place with numbers drawn from the normal distribution N(@mean, @std²)
 * truncated to [@a, @b] (`torch.nn.init.trunc_normal_`), by PyTorch's inverse-CDF method:
 * u is drawn uniformly from [2 cdf(α) - 1, 2 cdf(β) - 1], with α = (@a - @mean) / @std and
 * β = (@b - @mean) / @std, and the value is @mean + @std √2 erfinv(u), clamped to [@a, @b].
 * The method works best when @mean lies within [@a - 2 @std, @b + 2 @std] (PyTorch warns
 * otherwise; gnn does not).
 *
 * Returns: %TRUE on success, %FALSE with @error set when @tensor is not floating point,
 *   @std is not positive or @a > @b
 */
gboolean
gnn_init_trunc_normal_ (GnnTensor    *tensor,
                        double        mean,
                        double        std,
                        double        a,
                        double        b,
                        GnnGenerator *generator,
                        GError      **error)
{
  if (skipping)
    return TRUE;
  g_autoptr(GnnNoGradGuard) guard = NULL;
  g_autoptr(GnnTensor) draws = NULL;
  g_autofree double *v = NULL;
  gsize n = 0;
  double lo, hi;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);

  if (!check_floating (tensor, "trunc_normal_", error))
    return FALSE;
  if (!(std > 0.0) || !isfinite (std))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "trunc_normal_ expects std > 0, but found std %g", std);
      return FALSE;
    }
  lo = 2 * norm_cdf ((a - mean) / std) - 1;
  hi = 2 * norm_cdf ((b - mean) / std) - 1;
  if (!(lo <= hi))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "uniform_ expects to return a [from, to) range, but found from=%g > to=%g", lo, hi);
      return FALSE;
    }
  if (gnn_tensor_get_numel (tensor) == 0)
    return TRUE;

  guard = gnn_no_grad_guard_new ();
  /* the uniform draws are taken in the tensor's accumulate type, as uniform_ takes them;
   * erfinv, scaling and clamping are done on the host in float64 */
  draws = draw_like (tensor, FALSE, draw_dtype_for (tensor), generator, error);
  if (draws == NULL)
    return FALSE;
  v = gnn_tensor_to_doubles (draws, &n, error);
  if (v == NULL)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    {
      double x = gnn_math_erfinv (lo + (hi - lo) * v[i]);

      x = x * (std * M_SQRT2) + mean;
      v[i] = CLAMP (x, a, b);
    }
  return copy_from_host (tensor, v, n, error);
}

/**
 * gnn_init_constant_:
 * @tensor: the tensor to fill, of any dtype
 * @val: the value to fill it with
 * @error: return location for a #GError
 *
 * Fills @tensor in place with @val (`torch.nn.init.constant_`), converted to its dtype.
 * Autograd does not record it.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
gnn_init_constant_ (GnnTensor *tensor,
                    double     val,
                    GError   **error)
{
  if (skipping)
    return TRUE;
  g_autoptr(GnnNoGradGuard) guard = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);

  guard = gnn_no_grad_guard_new ();
  return gnn_tensor_fill_ (tensor, val, error);
}

/**
 * gnn_init_zeros_:
 * @tensor: the tensor to fill, of any dtype
 * @error: return location for a #GError
 *
 * Fills @tensor in place with zeros (`torch.nn.init.zeros_`). Autograd does not record it.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
gnn_init_zeros_ (GnnTensor *tensor,
                 GError   **error)
{
  if (skipping)
    return TRUE;
  g_autoptr(GnnNoGradGuard) guard = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);

  guard = gnn_no_grad_guard_new ();
  return gnn_tensor_zero_ (tensor, error);
}

/**
 * gnn_init_ones_:
 * @tensor: the tensor to fill, of any dtype
 * @error: return location for a #GError
 *
 * Fills @tensor in place with ones (`torch.nn.init.ones_`). Autograd does not record it.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
gnn_init_ones_ (GnnTensor *tensor,
                GError   **error)
{
  if (skipping)
    return TRUE;
  return gnn_init_constant_ (tensor, 1.0, error);
}

/**
 * gnn_init_eye_:
 * @tensor: the 2-dimensional tensor to fill, of any dtype
 * @error: return location for a #GError
 *
 * Fills @tensor in place with the identity matrix (`torch.nn.init.eye_`): ones on the
 * main diagonal, zeros elsewhere, also for a rectangular matrix. This preserves the
 * identity of the inputs in a [class@Gnn.Linear] layer. Autograd does not record it.
 *
 * Returns: %TRUE on success, %FALSE with @error set when @tensor does not have exactly 2
 *   dimensions
 */
gboolean
gnn_init_eye_ (GnnTensor *tensor,
               GError   **error)
{
  if (skipping)
    return TRUE;
  g_autoptr(GnnNoGradGuard) guard = NULL;
  g_autoptr(GnnTensor) eye = NULL;
  const char *device_name = NULL;
  const gint64 *shape;
  guint ndim;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);

  shape = gnn_tensor_get_shape (tensor, &ndim);
  if (ndim != 2)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "Only tensors with 2 dimensions are supported");
      return FALSE;
    }
  if (gnn_tensor_get_numel (tensor) == 0)
    return TRUE;

  guard = gnn_no_grad_guard_new ();
  device_name = gnn_tensor_get_device (tensor);
  eye = gnn_tensor_new_eye (shape[0], shape[1], gnn_tensor_get_dtype (tensor), device_name, error);
  if (eye == NULL)
    return FALSE;
  return gnn_tensor_copy_ (tensor, eye, error);
}

/* the standard deviation Glorot and Bengio give: gain × √(2 / (fan_in + fan_out)); FALSE
 * with @error set for fewer than 2 dimensions. *@empty is set when @tensor has no elements
 * (then there is nothing to fill) */
static gboolean
xavier_std (GnnTensor *tensor,
            double     gain,
            double    *std,
            gboolean  *empty,
            GError   **error)
{
  gint64 fan_in, fan_out;

  if (!check_floating (tensor, "xavier", error) ||
      !gnn_init_calculate_fan_in_and_fan_out (tensor, &fan_in, &fan_out, error))
    return FALSE;
  *empty = gnn_tensor_get_numel (tensor) == 0;
  if (!*empty)
    *std = gain * sqrt (2.0 / (double) (fan_in + fan_out));
  return TRUE;
}

/**
 * gnn_init_xavier_uniform_:
 * @tensor: the floating-point tensor to fill, of at least 2 dimensions
 * @gain: a scaling factor, such as [func@Gnn.init_calculate_gain] gives; PyTorch's
 *   default is 1
 * @generator: (nullable): the generator to draw from; %NULL for the default one
 * @error: return location for a #GError
 *
 * Fills @tensor in place with numbers drawn from U(-bound, bound), bound = @gain × √(6 /
 * (fan_in + fan_out)), as Glorot and Bengio (2010) describe
 * (`torch.nn.init.xavier_uniform_`).
 *
 * Returns: %TRUE on success, %FALSE with @error set when @tensor is not floating point or
 *   has fewer than 2 dimensions
 */
gboolean
gnn_init_xavier_uniform_ (GnnTensor    *tensor,
                          double        gain,
                          GnnGenerator *generator,
                          GError      **error)
{
  if (skipping)
    return TRUE;
  gboolean empty;
  double std, bound;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);

  if (!xavier_std (tensor, gain, &std, &empty, error))
    return FALSE;
  if (empty)
    return TRUE;
  bound = sqrt (3.0) * std;
  return gnn_init_uniform_ (tensor, -bound, bound, generator, error);
}

/**
 * gnn_init_xavier_normal_:
 * @tensor: the floating-point tensor to fill, of at least 2 dimensions
 * @gain: a scaling factor, such as [func@Gnn.init_calculate_gain] gives; PyTorch's
 *   default is 1
 * @generator: (nullable): the generator to draw from; %NULL for the default one
 * @error: return location for a #GError
 *
 * Fills @tensor in place with numbers drawn from N(0, std²), std = @gain × √(2 / (fan_in +
 * fan_out)), as Glorot and Bengio (2010) describe (`torch.nn.init.xavier_normal_`).
 *
 * Returns: %TRUE on success, %FALSE with @error set when @tensor is not floating point or
 *   has fewer than 2 dimensions
 */
gboolean
gnn_init_xavier_normal_ (GnnTensor    *tensor,
                         double        gain,
                         GnnGenerator *generator,
                         GError      **error)
{
  if (skipping)
    return TRUE;
  gboolean empty;
  double std;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);

  if (!xavier_std (tensor, gain, &std, &empty, error))
    return FALSE;
  if (empty)
    return TRUE;
  return gnn_init_normal_ (tensor, 0.0, std, generator, error);
}

/**
 * gnn_init_kaiming_normal_:
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
 * Fills @tensor in place with numbers drawn from N(0, std²), std = gain / √fan, as He et
 * al. (2015) describe (`torch.nn.init.kaiming_normal_`). A tensor without elements is
 * left as it is.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
gnn_init_kaiming_normal_ (GnnTensor    *tensor,
                          double        a,
                          const char   *mode,
                          const char   *nonlinearity,
                          GnnGenerator *generator,
                          GError      **error)
{
  if (skipping)
    return TRUE;
  GError *local = NULL;
  gint64 fan;
  double gain;

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
  return gnn_init_normal_ (tensor, 0.0, gain / sqrt ((double) fan), generator, error);
}

/* Householder QR of the m × n row-major matrix @a (m >= n), overwritten. Writes the
 * reduced Q (m × n, row-major) into @q and the diagonal of R into @rdiag. */
static void
householder_qr (double *a,
                gsize   m,
                gsize   n,
                double *q,
                double *rdiag)
{
  g_autofree double *vs = g_new0 (double, m * n);   /* column k holds reflector k */
  g_autofree double *betas = g_new0 (double, n);

  for (gsize k = 0; k < n; k++)
    {
      double norm = 0, alpha, vnorm2 = 0;

      for (gsize i = k; i < m; i++)
        norm += a[i * n + k] * a[i * n + k];
      norm = sqrt (norm);
      alpha = a[k * n + k] >= 0 ? -norm : norm;
      for (gsize i = k; i < m; i++)
        {
          double vi = a[i * n + k] - (i == k ? alpha : 0.0);

          vs[i * n + k] = vi;
          vnorm2 += vi * vi;
        }
      betas[k] = vnorm2 > 0 ? 2.0 / vnorm2 : 0.0;
      /* a[k:, k:] -= beta v (vᵀ a[k:, k:]) */
      for (gsize j = k; j < n; j++)
        {
          double s = 0;

          for (gsize i = k; i < m; i++)
            s += vs[i * n + k] * a[i * n + j];
          s *= betas[k];
          for (gsize i = k; i < m; i++)
            a[i * n + j] -= s * vs[i * n + k];
        }
      rdiag[k] = a[k * n + k];
    }

  /* Q = H_0 … H_{n-1} [I; 0], applied from the last reflector */
  memset (q, 0, sizeof (double) * m * n);
  for (gsize j = 0; j < n; j++)
    q[j * n + j] = 1.0;
  for (gsize kk = n; kk-- > 0;)
    for (gsize j = 0; j < n; j++)
      {
        double s = 0;

        for (gsize i = kk; i < m; i++)
          s += vs[i * n + kk] * q[i * n + j];
        s *= betas[kk];
        for (gsize i = kk; i < m; i++)
          q[i * n + j] -= s * vs[i * n + kk];
      }
}

/**
 * gnn_init_orthogonal_:
 * @tensor: the floating-point tensor to fill, of at least 2 dimensions
 * @gain: a scaling factor; PyTorch's default is 1
 * @generator: (nullable): the generator to draw from; %NULL for the default one
 * @error: return location for a #GError
 *
 * Fills @tensor in place with a (semi-)orthogonal matrix, as Saxe et al. (2013) describe
 * (`torch.nn.init.orthogonal_`). @tensor is seen as a matrix of `size (0)` rows, its other
 * dimensions flattened into columns. A matrix of that shape is drawn from N(0, 1)
 * (transposed when it is wide), factored as QR, and Q, with each column multiplied by the
 * sign of R's diagonal element (which makes the result uniformly distributed), times
 * @gain, is written into @tensor. Its rows (wide) or columns (tall) are then orthogonal
 * with norm @gain. The factorisation runs on the host, in float64.
 *
 * Returns: %TRUE on success, %FALSE with @error set when @tensor is not floating point or
 *   has fewer than 2 dimensions
 */
gboolean
gnn_init_orthogonal_ (GnnTensor    *tensor,
                      double        gain,
                      GnnGenerator *generator,
                      GError      **error)
{
  if (skipping)
    return TRUE;
  g_autoptr(GnnNoGradGuard) guard = NULL;
  g_autoptr(GnnTensor) draws = NULL;
  g_autofree double *v = NULL;
  g_autofree double *a = NULL;
  g_autofree double *q = NULL;
  g_autofree double *rdiag = NULL;
  g_autofree double *out = NULL;
  gsize n = 0, rows, cols, m, k;
  gboolean wide;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);

  if (gnn_tensor_get_ndim (tensor) < 2)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "Only tensors with 2 or more dimensions are supported");
      return FALSE;
    }
  if (!check_floating (tensor, "orthogonal_", error))
    return FALSE;
  if (gnn_tensor_get_numel (tensor) == 0)
    return TRUE;

  guard = gnn_no_grad_guard_new ();
  rows = (gsize) gnn_tensor_get_size (tensor, 0, NULL);
  cols = (gsize) gnn_tensor_get_numel (tensor) / rows;
  /* the rows × cols normal matrix, drawn in the shape of @tensor (the same numbers in the
   * same order as PyTorch's flattened view) */
  draws = draw_like (tensor, TRUE, draw_dtype_for (tensor), generator, error);
  if (draws == NULL)
    return FALSE;
  v = gnn_tensor_to_doubles (draws, &n, error);
  if (v == NULL)
    return FALSE;
  g_assert (n == rows * cols);

  /* factor the tall m × k matrix: the draws, or their transpose when wide */
  wide = rows < cols;
  m = wide ? cols : rows;
  k = wide ? rows : cols;
  a = g_new (double, m * k);
  for (gsize i = 0; i < rows; i++)
    for (gsize j = 0; j < cols; j++)
      {
        if (wide)
          a[j * k + i] = v[i * cols + j];
        else
          a[i * k + j] = v[i * cols + j];
      }
  q = g_new (double, m * k);
  rdiag = g_new (double, k);
  householder_qr (a, m, k, q, rdiag);

  /* q *= sign (diag (r)), transposed back when wide, times gain */
  out = g_new (double, n);
  for (gsize i = 0; i < m; i++)
    for (gsize j = 0; j < k; j++)
      {
        double ph = rdiag[j] > 0 ? 1.0 : rdiag[j] < 0 ? -1.0 : 0.0;
        double x = q[i * k + j] * ph * gain;

        if (wide)
          out[j * cols + i] = x;
        else
          out[i * cols + j] = x;
      }
  return copy_from_host (tensor, out, n, error);
}

/**
 * gnn_module_new_skip_init:
 * @type_name: a module type name, as for [ctor@Gnn.Module.new_from_type_name]
 * @n_properties: the number of properties
 * @names: (array length=n_properties): the property names
 * @values: (array length=n_properties): the property values
 * @error: return location for a #GError
 *
 * Creates a module without running its parameter initialisation, as
 * `torch.nn.utils.skip_init`: every `gnn_init_*` function called while the module sets itself
 * up leaves its tensor as it is, so the parameters hold unspecified values until they are
 * loaded or initialised. This saves the cost of an initialisation that a load would overwrite.
 *
 * Returns: (transfer full): the module, or %NULL with @error set
 */
GnnModule *
gnn_module_new_skip_init (const char   *type_name,
                          guint         n_properties,
                          const char  **names,
                          const GValue *values,
                          GError      **error)
{
  GnnModule *module;
  gboolean previous = skipping;

  skipping = TRUE;
  module = gnn_module_new_from_type_name (type_name, n_properties, names, values, error);
  skipping = previous;
  return module;
}
