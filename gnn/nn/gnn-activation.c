/* gnn-activation.c: GnnReLU and GnnLeakyReLU
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnn-activation.h"
#include "gnn-parameter.h"
#include "gnn-args-private.h"
#include "gnn-module-private.h"
#include "gnn-props-private.h"

/* Writes @value as Python's repr (float) does: the shortest digits that read back to the
 * same double, in fixed notation between 1e-4 and 1e16 (with ".0" on whole numbers),
 * otherwise as "1e-05", "1.5e+16". */
char *
gnn_python_float_repr (double value)
{
  char buf[64] = "", digits[32];
  GString *out;
  int exponent, n_digits = 0, precision;
  char *e, *p;

  if (isnan (value))
    return g_strdup ("nan");
  if (isinf (value))
    return g_strdup (value > 0 ? "inf" : "-inf");
  if (value == 0)
    return g_strdup (signbit (value) ? "-0.0" : "0.0");

  for (precision = 1; precision <= 17; precision++)
    {
      char format[16];

      g_snprintf (format, sizeof format, "%%.%de", precision - 1);
      g_ascii_formatd (buf, sizeof buf, format, value);
      if (g_ascii_strtod (buf, NULL) == value)
        break;
    }
  /* buf is "-d.ddde±xx" */
  e = strchr (buf, 'e');
  exponent = atoi (e + 1);
  for (p = buf; p < e; p++)
    if (g_ascii_isdigit (*p))
      digits[n_digits++] = *p;
  while (n_digits > 1 && digits[n_digits - 1] == '0')
    n_digits--;
  digits[n_digits] = '\0';

  out = g_string_new (value < 0 ? "-" : "");
  if (exponent >= -4 && exponent < 16)
    {
      if (exponent < 0)
        {
          g_string_append (out, "0.");
          for (int i = 0; i < -exponent - 1; i++)
            g_string_append_c (out, '0');
          g_string_append (out, digits);
        }
      else if (n_digits <= exponent + 1)
        {
          g_string_append (out, digits);
          for (int i = n_digits; i < exponent + 1; i++)
            g_string_append_c (out, '0');
          g_string_append (out, ".0");
        }
      else
        {
          g_string_append_len (out, digits, exponent + 1);
          g_string_append_c (out, '.');
          g_string_append (out, digits + exponent + 1);
        }
    }
  else
    {
      g_string_append_c (out, digits[0]);
      if (n_digits > 1)
        {
          g_string_append_c (out, '.');
          g_string_append (out, digits + 1);
        }
      g_string_append_printf (out, "e%c%02d", exponent < 0 ? '-' : '+', ABS (exponent));
    }
  return g_string_free (out, FALSE);
}

/* ---- ReLU ------------------------------------------------------------------------------ */

/**
 * GnnReLU:
 *
 * The rectified linear unit, applied elementwise, as `torch.nn.ReLU`: ReLU(x) = max(0, x).
 *
 * It has no parameters; input and output have the same shape. PyTorch's `inplace` argument
 * has no counterpart. The layer prints as "ReLU()".
 */
struct _GnnReLU
{
  GnnModule parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnReLU, gnn_relu, GNN_TYPE_MODULE)

static GnnArgs *
gnn_relu_forward (GnnModule *module,
                  GnnArgs   *input,
                  GError   **error)
{
  GnnTensor *x;

  x = gnn_args_first_tensor (input, "ReLU", error);
  if (x == NULL)
    return NULL;
  return gnn_args_take_tensor_or_prefix (gnn_tensor_relu (x, error), "ReLU", error);
}

static void
gnn_relu_class_init (GnnReLUClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_relu_forward;
}

static void
gnn_relu_init (GnnReLU *self)
{
}

/**
 * gnn_relu_new:
 *
 * Creates a ReLU layer (`nn.ReLU ()`).
 *
 * Returns: (transfer full): the layer
 */
GnnReLU *
gnn_relu_new (void)
{
  return g_object_new (GNN_TYPE_RELU, NULL);
}

/* ---- LeakyReLU ------------------------------------------------------------------------- */

/**
 * GnnLeakyReLU:
 *
 * The leaky rectified linear unit, applied elementwise, as `torch.nn.LeakyReLU`:
 * LeakyReLU(x) = max(0, x) + negative_slope × min(0, x).
 *
 * It has no parameters; input and output have the same shape. PyTorch's `inplace` argument
 * has no counterpart. The layer prints as PyTorch's: "LeakyReLU(negative_slope=0.01)".
 */
struct _GnnLeakyReLU
{
  GnnModule parent_instance;

  double negative_slope;
};

enum {
  PROP_0,
  PROP_NEGATIVE_SLOPE,
  N_PROPS
};

static GnnProp leaky_props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnLeakyReLU, gnn_leaky_relu, GNN_TYPE_MODULE)

static GnnArgs *
gnn_leaky_relu_forward (GnnModule *module,
                        GnnArgs   *input,
                        GError   **error)
{
  GnnLeakyReLU *self = GNN_LEAKY_RELU (module);
  GnnTensor *x;

  x = gnn_args_first_tensor (input, "LeakyReLU", error);
  if (x == NULL)
    return NULL;
  return gnn_args_take_tensor_or_prefix (gnn_tensor_leaky_relu (x, self->negative_slope, error), "LeakyReLU", error);
}

static char *
gnn_leaky_relu_extra_repr (GnnModule *module)
{
  g_autofree char *slope = gnn_python_float_repr (GNN_LEAKY_RELU (module)->negative_slope);

  return g_strdup_printf ("negative_slope=%s", slope);
}

static void
gnn_leaky_relu_class_init (GnnLeakyReLUClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_leaky_relu_forward;
  module_class->extra_repr = gnn_leaky_relu_extra_repr;

  /**
   * GnnLeakyReLU:negative-slope:
   *
   * The slope for negative inputs (`negative_slope`); PyTorch's default is 0.01.
   */
  leaky_props[PROP_NEGATIVE_SLOPE] = (GnnProp) {
    g_param_spec_double ("negative-slope", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.01,
                         GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnLeakyReLU, negative_slope) };

  gnn_props_install (G_OBJECT_CLASS (klass), leaky_props, N_PROPS);
}

static void
gnn_leaky_relu_init (GnnLeakyReLU *self)
{
}

/**
 * gnn_leaky_relu_new:
 * @negative_slope: the slope for negative inputs; PyTorch's default is 0.01
 *
 * Creates a LeakyReLU layer (`nn.LeakyReLU (negative_slope)`).
 *
 * Returns: (transfer full): the layer
 */
GnnLeakyReLU *
gnn_leaky_relu_new (double negative_slope)
{
  return g_object_new (GNN_TYPE_LEAKY_RELU, "negative-slope", negative_slope, NULL);
}

/**
 * gnn_leaky_relu_get_negative_slope:
 * @self: a LeakyReLU layer
 *
 * Gets [property@Gnn.LeakyReLU:negative-slope].
 *
 * Returns: the slope for negative inputs
 */
double
gnn_leaky_relu_get_negative_slope (GnnLeakyReLU *self)
{
  g_return_val_if_fail (GNN_IS_LEAKY_RELU (self), 0.0);
  return self->negative_slope;
}

/**
 * gnn_leaky_relu_set_negative_slope:
 * @self: a LeakyReLU layer
 * @negative_slope: the slope for negative inputs
 *
 * Sets [property@Gnn.LeakyReLU:negative-slope]; the next forward uses it.
 */
void
gnn_leaky_relu_set_negative_slope (GnnLeakyReLU *self,
                                   double        negative_slope)
{
  g_return_if_fail (GNN_IS_LEAKY_RELU (self));
  gnn_prop_set (self, &leaky_props[PROP_NEGATIVE_SLOPE], negative_slope);
}

/* ---- ELU ------------------------------------------------------------------------------- */

/**
 * GnnELU:
 *
 * The exponential linear unit, applied elementwise, as `torch.nn.ELU`:
 * ELU(x) = x for x > 0, alpha × (exp(x) − 1) otherwise.
 *
 * It has no parameters; input and output have the same shape. PyTorch's `inplace` argument
 * has no counterpart. The layer prints as PyTorch's: "ELU(alpha=1.0)".
 *
 * Since: 0.1
 */
struct _GnnELU
{
  GnnModule parent_instance;

  double alpha;
};

enum {
  ELU_PROP_0,
  ELU_PROP_ALPHA,
  ELU_N_PROPS
};

static GnnProp elu_props[ELU_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnELU, gnn_elu, GNN_TYPE_MODULE)

static GnnArgs *
gnn_elu_forward (GnnModule *module,
                 GnnArgs   *input,
                 GError   **error)
{
  GnnTensor *x;

  x = gnn_args_first_tensor (input, "ELU", error);
  if (x == NULL)
    return NULL;
  return gnn_args_take_tensor_or_prefix (gnn_tensor_elu (x, GNN_ELU (module)->alpha, error), "ELU", error);
}

static char *
gnn_elu_extra_repr (GnnModule *module)
{
  g_autofree char *alpha = gnn_python_float_repr (GNN_ELU (module)->alpha);

  return g_strdup_printf ("alpha=%s", alpha);
}

static void
gnn_elu_class_init (GnnELUClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_elu_forward;
  module_class->extra_repr = gnn_elu_extra_repr;

  /**
   * GnnELU:alpha:
   *
   * The value ELU tends to for large negative inputs, scaled (`alpha`); PyTorch's default
   * is 1.0.
   *
   * Since: 0.1
   */
  elu_props[ELU_PROP_ALPHA] = (GnnProp) {
    g_param_spec_double ("alpha", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 1.0, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnELU, alpha) };

  gnn_props_install (G_OBJECT_CLASS (klass), elu_props, ELU_N_PROPS);
}

static void
gnn_elu_init (GnnELU *self)
{
}

/**
 * gnn_elu_new:
 * @alpha: the scale of the negative part; PyTorch's default is 1.0
 *
 * Creates an ELU layer (`nn.ELU (alpha)`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnELU *
gnn_elu_new (double alpha)
{
  return g_object_new (GNN_TYPE_ELU, "alpha", alpha, NULL);
}

/**
 * gnn_elu_get_alpha:
 * @self: an ELU layer
 *
 * Gets [property@Gnn.ELU:alpha].
 *
 * Returns: the scale of the negative part
 *
 * Since: 0.1
 */
double
gnn_elu_get_alpha (GnnELU *self)
{
  g_return_val_if_fail (GNN_IS_ELU (self), 0.0);
  return self->alpha;
}

/**
 * gnn_elu_set_alpha:
 * @self: an ELU layer
 * @alpha: the scale of the negative part
 *
 * Sets [property@Gnn.ELU:alpha]; the next forward uses it.
 *
 * Since: 0.1
 */
void
gnn_elu_set_alpha (GnnELU *self,
                   double  alpha)
{
  g_return_if_fail (GNN_IS_ELU (self));
  gnn_prop_set (self, &elu_props[ELU_PROP_ALPHA], alpha);
}

/* ---- GELU ------------------------------------------------------------------------------ */

/**
 * GnnGELU:
 *
 * The Gaussian error linear unit, applied elementwise, as `torch.nn.GELU`:
 * GELU(x) = x × Φ(x), with Φ the standard normal distribution function, or its tanh
 * approximation when [property@Gnn.GELU:approximate] is "tanh".
 *
 * It has no parameters; input and output have the same shape. The layer prints as
 * PyTorch's: "GELU(approximate='none')".
 *
 * Since: 0.1
 */
struct _GnnGELU
{
  GnnModule parent_instance;

  char *approximate;
};

enum {
  GELU_PROP_0,
  GELU_PROP_APPROXIMATE,
  GELU_N_PROPS
};

static GnnProp gelu_props[GELU_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnGELU, gnn_gelu, GNN_TYPE_MODULE)

static GnnArgs *
gnn_gelu_forward (GnnModule *module,
                  GnnArgs   *input,
                  GError   **error)
{
  GnnTensor *x;

  x = gnn_args_first_tensor (input, "GELU", error);
  if (x == NULL)
    return NULL;
  return gnn_args_take_tensor_or_prefix (gnn_tensor_gelu (x, GNN_GELU (module)->approximate, error), "GELU", error);
}

static char *
gnn_gelu_extra_repr (GnnModule *module)
{
  return g_strdup_printf ("approximate='%s'", GNN_GELU (module)->approximate);
}

static void
gnn_gelu_class_init (GnnGELUClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_gelu_forward;
  module_class->extra_repr = gnn_gelu_extra_repr;

  /**
   * GnnGELU:approximate:
   *
   * Which formula to use (`approximate`): "none" (the default, the exact one) or "tanh".
   * Another value is an error at the next forward. Setting %NULL restores "none".
   *
   * Since: 0.1
   */
  gelu_props[GELU_PROP_APPROXIMATE] = (GnnProp) {
    g_param_spec_string ("approximate", NULL, NULL, "none", GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnGELU, approximate) };

  gnn_props_install (G_OBJECT_CLASS (klass), gelu_props, GELU_N_PROPS);
}

static void
gnn_gelu_init (GnnGELU *self)
{
}

/**
 * gnn_gelu_new:
 * @approximate: (nullable): "none" (the exact formula, also for %NULL) or "tanh"
 *
 * Creates a GELU layer (`nn.GELU (approximate)`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnGELU *
gnn_gelu_new (const char *approximate)
{
  return g_object_new (GNN_TYPE_GELU, "approximate", approximate ? approximate : "none", NULL);
}

/**
 * gnn_gelu_get_approximate:
 * @self: a GELU layer
 *
 * Gets [property@Gnn.GELU:approximate].
 *
 * Returns: (transfer none): "none" or "tanh"
 *
 * Since: 0.1
 */
const char *
gnn_gelu_get_approximate (GnnGELU *self)
{
  g_return_val_if_fail (GNN_IS_GELU (self), NULL);
  return self->approximate;
}

/**
 * gnn_gelu_set_approximate:
 * @self: a GELU layer
 * @approximate: (nullable): "none" (also for %NULL) or "tanh"
 *
 * Sets [property@Gnn.GELU:approximate]; the next forward uses it.
 *
 * Since: 0.1
 */
void
gnn_gelu_set_approximate (GnnGELU    *self,
                          const char *approximate)
{
  g_return_if_fail (GNN_IS_GELU (self));
  gnn_prop_set (self, &gelu_props[GELU_PROP_APPROXIMATE], approximate);
}

/* ---- SiLU, Sigmoid, Tanh --------------------------------------------------------------- */

#define DEFINE_PLAIN_ACTIVATION(TypeName, type_name, TYPE, Name, op)                          \
  struct _##TypeName                                                                          \
  {                                                                                           \
    GnnModule parent_instance;                                                                \
  };                                                                                          \
                                                                                              \
  G_DEFINE_FINAL_TYPE (TypeName, type_name, GNN_TYPE_MODULE)                                  \
                                                                                              \
  static GnnArgs *                                                                            \
  type_name##_forward (GnnModule *module,                                                     \
                       GnnArgs   *input,                                                      \
                       GError   **error)                                                      \
  {                                                                                           \
    GnnTensor *x = gnn_args_first_tensor (input, Name, error);                                \
                                                                                              \
    if (x == NULL)                                                                            \
      return NULL;                                                                            \
    return gnn_args_take_tensor_or_prefix (op (x, error), Name, error);                       \
  }                                                                                           \
                                                                                              \
  static void                                                                                 \
  type_name##_class_init (TypeName##Class *klass)                                             \
  {                                                                                           \
    GNN_MODULE_CLASS (klass)->forward = type_name##_forward;                                  \
  }                                                                                           \
                                                                                              \
  static void                                                                                 \
  type_name##_init (TypeName *self)                                                           \
  {                                                                                           \
  }                                                                                           \
                                                                                              \
  TypeName *                                                                                  \
  type_name##_new (void)                                                                      \
  {                                                                                           \
    return g_object_new (TYPE, NULL);                                                         \
  }

/**
 * GnnSiLU:
 *
 * The sigmoid linear unit (swish), applied elementwise, as `torch.nn.SiLU`:
 * SiLU(x) = x × σ(x).
 *
 * It has no parameters; input and output have the same shape. PyTorch's `inplace` argument
 * has no counterpart. The layer prints as "SiLU()".
 *
 * Since: 0.1
 */

/**
 * gnn_silu_new:
 *
 * Creates a SiLU layer (`nn.SiLU ()`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
DEFINE_PLAIN_ACTIVATION (GnnSiLU, gnn_silu, GNN_TYPE_SILU, "SiLU", gnn_tensor_silu)

/**
 * GnnSigmoid:
 *
 * The logistic sigmoid, applied elementwise, as `torch.nn.Sigmoid`: σ(x) = 1 / (1 + exp(−x)).
 *
 * It has no parameters; input and output have the same shape. The layer prints as
 * "Sigmoid()".
 *
 * Since: 0.1
 */

/**
 * gnn_sigmoid_new:
 *
 * Creates a Sigmoid layer (`nn.Sigmoid ()`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
DEFINE_PLAIN_ACTIVATION (GnnSigmoid, gnn_sigmoid, GNN_TYPE_SIGMOID, "Sigmoid", gnn_tensor_sigmoid)

/**
 * GnnTanh:
 *
 * The hyperbolic tangent, applied elementwise, as `torch.nn.Tanh`.
 *
 * It has no parameters; input and output have the same shape. The layer prints as "Tanh()".
 *
 * Since: 0.1
 */

/**
 * gnn_tanh_new:
 *
 * Creates a Tanh layer (`nn.Tanh ()`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
DEFINE_PLAIN_ACTIVATION (GnnTanh, gnn_tanh, GNN_TYPE_TANH, "Tanh", gnn_tensor_tanh)

/* x / (1 + |x|), composed as PyTorch's F.softsign composes it, so that autograd gives its
 * gradient */
static GnnTensor *
softsign (GnnTensor *x,
          GError   **error)
{
  g_autoptr(GnnTensor) abs = gnn_tensor_abs (x, error);
  g_autoptr(GnnTensor) denominator = abs ? gnn_tensor_add_scalar (abs, 1.0, error) : NULL;

  return denominator ? gnn_tensor_div (x, denominator, error) : NULL;
}

/**
 * GnnSoftsign:
 *
 * Softsign, applied elementwise, as `torch.nn.Softsign`: Softsign(x) = x / (1 + |x|).
 *
 * It has no parameters; input and output have the same shape. The layer prints as
 * "Softsign()".
 *
 * Since: 0.1
 */

/**
 * gnn_softsign_new:
 *
 * Creates a Softsign layer (`nn.Softsign ()`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
DEFINE_PLAIN_ACTIVATION (GnnSoftsign, gnn_softsign, GNN_TYPE_SOFTSIGN, "Softsign", softsign)

/* relu6 (x) = hardtanh (x, 0, 6), as PyTorch's F.relu6 */
static GnnTensor *
relu6 (GnnTensor *x,
       GError   **error)
{
  return gnn_tensor_hardtanh (x, 0.0, 6.0, error);
}

/* x − tanh (x), composed as PyTorch's F.tanhshrink composes it (SubBackward0) */
static GnnTensor *
tanhshrink (GnnTensor *x,
            GError   **error)
{
  g_autoptr(GnnTensor) t = gnn_tensor_tanh (x, error);

  return t ? gnn_tensor_sub (x, t, 1.0, error) : NULL;
}

/* the softmax along dimension −3 of a 3-d or 4-d input (nn.Softmax2d) */
static GnnTensor *
softmax2d (GnnTensor *x,
           GError   **error)
{
  guint ndim = gnn_tensor_get_ndim (x);

  if (ndim != 3 && ndim != 4)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Softmax2d: Softmax2d requires a 3D or 4D tensor as input, got a %u-d tensor", ndim);
      return NULL;
    }
  return gnn_tensor_softmax (x, -3, error);
}

/**
 * GnnReLU6:
 *
 * ReLU6, applied elementwise, as `torch.nn.ReLU6`: ReLU6(x) = min(max(0, x), 6), hardtanh
 * between 0 and 6 (its gradient is 0 at 0 and 6, as PyTorch's).
 *
 * It has no parameters; input and output have the same shape. PyTorch's `inplace` argument,
 * where it has one, has no counterpart. The layer prints as "ReLU6()".
 *
 * Since: 0.1
 */

/**
 * gnn_relu6_new:
 *
 * Creates a ReLU6 layer (`nn.ReLU6 ()`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
DEFINE_PLAIN_ACTIVATION (GnnReLU6, gnn_relu6, GNN_TYPE_RELU6, "ReLU6", relu6)

/**
 * GnnHardsigmoid:
 *
 * The piecewise linear sigmoid, applied elementwise, as `torch.nn.Hardsigmoid`:
 * Hardsigmoid(x) = min(max(x + 3, 0), 6) / 6.
 *
 * It has no parameters; input and output have the same shape. PyTorch's `inplace` argument,
 * where it has one, has no counterpart. The layer prints as "Hardsigmoid()".
 *
 * Since: 0.1
 */

/**
 * gnn_hardsigmoid_new:
 *
 * Creates a Hardsigmoid layer (`nn.Hardsigmoid ()`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
DEFINE_PLAIN_ACTIVATION (GnnHardsigmoid, gnn_hardsigmoid, GNN_TYPE_HARDSIGMOID, "Hardsigmoid", gnn_tensor_hardsigmoid)

/**
 * GnnHardswish:
 *
 * Hardswish, applied elementwise, as `torch.nn.Hardswish`: Hardswish(x) = x × Hardsigmoid(x).
 *
 * It has no parameters; input and output have the same shape. PyTorch's `inplace` argument,
 * where it has one, has no counterpart. The layer prints as "Hardswish()".
 *
 * Since: 0.1
 */

/**
 * gnn_hardswish_new:
 *
 * Creates a Hardswish layer (`nn.Hardswish ()`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
DEFINE_PLAIN_ACTIVATION (GnnHardswish, gnn_hardswish, GNN_TYPE_HARDSWISH, "Hardswish", gnn_tensor_hardswish)

/**
 * GnnMish:
 *
 * Mish, applied elementwise, as `torch.nn.Mish`: Mish(x) = x × tanh(Softplus(x)).
 *
 * It has no parameters; input and output have the same shape. PyTorch's `inplace` argument,
 * where it has one, has no counterpart. The layer prints as "Mish()".
 *
 * Since: 0.1
 */

/**
 * gnn_mish_new:
 *
 * Creates a Mish layer (`nn.Mish ()`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
DEFINE_PLAIN_ACTIVATION (GnnMish, gnn_mish, GNN_TYPE_MISH, "Mish", gnn_tensor_mish)

/**
 * GnnSELU:
 *
 * The scaled exponential linear unit, applied elementwise, as `torch.nn.SELU`:
 * SELU(x) = scale × (max(0, x) + min(0, α (exp(x) − 1))), α ≈ 1.6733, scale ≈ 1.0507.
 *
 * It has no parameters; input and output have the same shape. PyTorch's `inplace` argument,
 * where it has one, has no counterpart. The layer prints as "SELU()".
 *
 * Since: 0.1
 */

/**
 * gnn_selu_new:
 *
 * Creates a SELU layer (`nn.SELU ()`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
DEFINE_PLAIN_ACTIVATION (GnnSELU, gnn_selu, GNN_TYPE_SELU, "SELU", gnn_tensor_selu)

/**
 * GnnLogSigmoid:
 *
 * The logarithm of the sigmoid, applied elementwise, as `torch.nn.LogSigmoid`:
 * LogSigmoid(x) = log(1 / (1 + exp(−x))), computed without overflow.
 *
 * It has no parameters; input and output have the same shape. PyTorch's `inplace` argument,
 * where it has one, has no counterpart. The layer prints as "LogSigmoid()".
 *
 * Since: 0.1
 */

/**
 * gnn_log_sigmoid_new:
 *
 * Creates a LogSigmoid layer (`nn.LogSigmoid ()`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
DEFINE_PLAIN_ACTIVATION (GnnLogSigmoid, gnn_log_sigmoid, GNN_TYPE_LOG_SIGMOID, "LogSigmoid", gnn_tensor_logsigmoid)

/**
 * GnnTanhshrink:
 *
 * Tanhshrink, applied elementwise, as `torch.nn.Tanhshrink`: Tanhshrink(x) = x − tanh(x).
 *
 * It has no parameters; input and output have the same shape. PyTorch's `inplace` argument,
 * where it has one, has no counterpart. The layer prints as "Tanhshrink()".
 *
 * Since: 0.1
 */

/**
 * gnn_tanhshrink_new:
 *
 * Creates a Tanhshrink layer (`nn.Tanhshrink ()`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
DEFINE_PLAIN_ACTIVATION (GnnTanhshrink, gnn_tanhshrink, GNN_TYPE_TANHSHRINK, "Tanhshrink", tanhshrink)

/**
 * GnnSoftmax2d:
 *
 * The softmax over the channels at every spatial position, as `torch.nn.Softmax2d`: the
 * softmax along dimension −3 of a (C, H, W) or (N, C, H, W) input; other inputs are an error.
 *
 * It has no parameters; input and output have the same shape. PyTorch's `inplace` argument,
 * where it has one, has no counterpart. The layer prints as "Softmax2d()".
 *
 * Since: 0.1
 */

/**
 * gnn_softmax2d_new:
 *
 * Creates a Softmax2d layer (`nn.Softmax2d ()`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
DEFINE_PLAIN_ACTIVATION (GnnSoftmax2d, gnn_softmax2d, GNN_TYPE_SOFTMAX2D, "Softmax2d", softmax2d)

/* ---- the activations with one or two number arguments ---------------------------------- */

/* An activation layer with N (1 or 2) double properties P0, P1 (defaults D0, D1) held in v[]:
 * FWD (module, x, v, error) runs it, REPR (v) writes its extra_repr. */
#define DEFINE_SCALAR_ACTIVATION(TypeName, type_name, TYPE, Name, N, P0, D0, P1, D1, FWD, REPR)  \
  struct _##TypeName                                                                          \
  {                                                                                           \
    GnnModule parent_instance;                                                                \
                                                                                              \
    double v[2];                                                                              \
  };                                                                                          \
                                                                                              \
  static GnnProp type_name##_props[3];                                                        \
                                                                                              \
  G_DEFINE_FINAL_TYPE (TypeName, type_name, GNN_TYPE_MODULE)                                  \
                                                                                              \
  static GnnArgs *                                                                            \
  type_name##_forward (GnnModule *module,                                                     \
                       GnnArgs   *input,                                                      \
                       GError   **error)                                                      \
  {                                                                                           \
    GnnTensor *x = gnn_args_first_tensor (input, Name, error);                                \
                                                                                              \
    if (x == NULL)                                                                            \
      return NULL;                                                                            \
    return gnn_args_take_tensor_or_prefix (FWD (module, x, ((TypeName *) module)->v, error), Name, error); \
  }                                                                                           \
                                                                                              \
  static char *                                                                               \
  type_name##_extra_repr (GnnModule *module)                                                  \
  {                                                                                           \
    return REPR (((TypeName *) module)->v);                                                   \
  }                                                                                           \
                                                                                              \
  static void                                                                                 \
  type_name##_class_init (TypeName##Class *klass)                                             \
  {                                                                                           \
    GNN_MODULE_CLASS (klass)->forward = type_name##_forward;                                  \
    GNN_MODULE_CLASS (klass)->extra_repr = type_name##_extra_repr;                            \
    type_name##_props[1] = (GnnProp) {                                                        \
      g_param_spec_double (P0, NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, D0,                     \
                           GNN_PARAM_RW | G_PARAM_CONSTRUCT),                                 \
      G_STRUCT_OFFSET (TypeName, v) };                                                        \
    if (N > 1)                                                                                \
      type_name##_props[2] = (GnnProp) {                                                      \
        g_param_spec_double (P1, NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, D1,                   \
                             GNN_PARAM_RW | G_PARAM_CONSTRUCT),                               \
        G_STRUCT_OFFSET (TypeName, v) + sizeof (double) };                                    \
    gnn_props_install (G_OBJECT_CLASS (klass), type_name##_props, N + 1);                     \
  }                                                                                           \
                                                                                              \
  static void                                                                                 \
  type_name##_init (TypeName *self)                                                           \
  {                                                                                           \
  }

/* "name=value, name=value" with Python's float repr of each value */
static char *
pair_repr (const char *n0, double v0, const char *n1, double v1)
{
  g_autofree char *a = gnn_python_float_repr (v0);
  g_autofree char *b = n1 ? gnn_python_float_repr (v1) : NULL;

  return n1 ? g_strdup_printf ("%s=%s, %s=%s", n0, a, n1, b) : g_strdup_printf ("%s=%s", n0, a);
}

/* a whole number as an int, as torch prints Softplus's int defaults ("beta=1, threshold=20"),
 * others as Python's float repr */
static char *
number_repr (double v)
{
  if (v == nearbyint (v) && fabs (v) < 1e15)
    return g_strdup_printf ("%.0f", v);
  return gnn_python_float_repr (v);
}

static char *
softplus_repr (const double *v)
{
  g_autofree char *beta = number_repr (v[0]);
  g_autofree char *threshold = number_repr (v[1]);

  return g_strdup_printf ("beta=%s, threshold=%s", beta, threshold);
}
static char *hardtanh_repr (const double *v) { return pair_repr ("min_val", v[0], "max_val", v[1]); }
static char *celu_repr (const double *v) { return pair_repr ("alpha", v[0], NULL, 0); }
static char *threshold_repr (const double *v) { return pair_repr ("threshold", v[0], "value", v[1]); }
static char *lambd_repr (const double *v) { return gnn_python_float_repr (v[0]); }

static GnnTensor *softplus_v (GnnModule *m, GnnTensor *x, const double *v, GError **error) { return gnn_tensor_softplus (x, v[0], v[1], error); }
static GnnTensor *hardtanh_v (GnnModule *m, GnnTensor *x, const double *v, GError **error) { return gnn_tensor_hardtanh (x, v[0], v[1], error); }
static GnnTensor *celu_v (GnnModule *m, GnnTensor *x, const double *v, GError **error) { return gnn_tensor_celu (x, v[0], error); }
static GnnTensor *threshold_v (GnnModule *m, GnnTensor *x, const double *v, GError **error) { return gnn_tensor_threshold (x, v[0], v[1], error); }
static GnnTensor *hardshrink_v (GnnModule *m, GnnTensor *x, const double *v, GError **error) { return gnn_tensor_hardshrink (x, v[0], error); }
static GnnTensor *softshrink_v (GnnModule *m, GnnTensor *x, const double *v, GError **error) { return gnn_tensor_softshrink (x, v[0], error); }
static char *rrelu_repr (const double *v) { return pair_repr ("lower", v[0], "upper", v[1]); }
/* random slopes in training mode, their mean in evaluation, as nn.RReLU */
static GnnTensor *
rrelu_v (GnnModule *m, GnnTensor *x, const double *v, GError **error)
{
  return gnn_tensor_rrelu (x, v[0], v[1], gnn_module_get_training (m), NULL, error);
}

/**
 * GnnSoftplus:
 *
 * Softplus, applied elementwise, as `torch.nn.Softplus`: Softplus(x) = log(1 + exp(β x)) / β,
 * x itself where β x > threshold.
 *
 * It has no parameters; input and output have the same shape. The layer prints as
 * PyTorch's: "Softplus(beta=1, threshold=20)".
 *
 * Since: 0.1
 */

/**
 * GnnSoftplus:beta:
 *
 * The sharpness β (`beta`); PyTorch's default is 1.
 *
 * Since: 0.1
 */

/**
 * GnnSoftplus:threshold:
 *
 * Above which β x the layer returns x itself (`threshold`); PyTorch's default is 20.
 *
 * Since: 0.1
 */
DEFINE_SCALAR_ACTIVATION (GnnSoftplus, gnn_softplus, GNN_TYPE_SOFTPLUS, "Softplus", 2, "beta", 1.0, "threshold", 20.0,
                          softplus_v, softplus_repr)

/**
 * gnn_softplus_new:
 * @beta: the sharpness; PyTorch's default is 1
 * @threshold: above which β x the result is x; PyTorch's default is 20
 *
 * Creates a Softplus layer (`nn.Softplus (beta, threshold)`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnSoftplus *
gnn_softplus_new (double beta,
                  double threshold)
{
  return g_object_new (GNN_TYPE_SOFTPLUS, "beta", beta, "threshold", threshold, NULL);
}

/**
 * GnnHardtanh:
 *
 * Hardtanh, applied elementwise, as `torch.nn.Hardtanh`: x limited to [min_val, max_val], its
 * gradient 0 at the bounds.
 *
 * It has no parameters; input and output have the same shape. PyTorch's `inplace` argument
 * has no counterpart. The layer prints as PyTorch's: "Hardtanh(min_val=-1.0, max_val=1.0)".
 *
 * Since: 0.1
 */

/**
 * GnnHardtanh:min-val:
 *
 * The lower bound (`min_val`); PyTorch's default is −1.
 *
 * Since: 0.1
 */

/**
 * GnnHardtanh:max-val:
 *
 * The upper bound (`max_val`); PyTorch's default is 1.
 *
 * Since: 0.1
 */
DEFINE_SCALAR_ACTIVATION (GnnHardtanh, gnn_hardtanh, GNN_TYPE_HARDTANH, "Hardtanh", 2, "min-val", -1.0, "max-val", 1.0,
                          hardtanh_v, hardtanh_repr)

/**
 * gnn_hardtanh_new:
 * @min_val: the lower bound; PyTorch's default is −1
 * @max_val: the upper bound; PyTorch's default is 1
 *
 * Creates a Hardtanh layer (`nn.Hardtanh (min_val, max_val)`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnHardtanh *
gnn_hardtanh_new (double min_val,
                  double max_val)
{
  return g_object_new (GNN_TYPE_HARDTANH, "min-val", min_val, "max-val", max_val, NULL);
}

/**
 * GnnCELU:
 *
 * The continuously differentiable exponential linear unit, applied elementwise, as
 * `torch.nn.CELU`: CELU(x) = max(0, x) + min(0, α (exp(x / α) − 1)).
 *
 * It has no parameters; input and output have the same shape. PyTorch's `inplace` argument
 * has no counterpart. The layer prints as PyTorch's: "CELU(alpha=1.0)".
 *
 * Since: 0.1
 */

/**
 * GnnCELU:alpha:
 *
 * The α of the negative part, not 0 (`alpha`); PyTorch's default is 1.
 *
 * Since: 0.1
 */
DEFINE_SCALAR_ACTIVATION (GnnCELU, gnn_celu, GNN_TYPE_CELU, "CELU", 1, "alpha", 1.0, NULL, 0.0, celu_v, celu_repr)

/**
 * gnn_celu_new:
 * @alpha: the α of the negative part; PyTorch's default is 1
 *
 * Creates a CELU layer (`nn.CELU (alpha)`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnCELU *
gnn_celu_new (double alpha)
{
  return g_object_new (GNN_TYPE_CELU, "alpha", alpha, NULL);
}

/**
 * GnnThreshold:
 *
 * Thresholding, applied elementwise, as `torch.nn.Threshold`: value where x ≤ threshold,
 * x elsewhere.
 *
 * It has no parameters; input and output have the same shape. PyTorch's `inplace` argument
 * has no counterpart. The layer prints as PyTorch's: "Threshold(threshold=0.1, value=20.0)".
 *
 * Since: 0.1
 */

/**
 * GnnThreshold:threshold:
 *
 * The value at or below which elements are replaced (`threshold`).
 *
 * Since: 0.1
 */

/**
 * GnnThreshold:value:
 *
 * What replaces them (`value`).
 *
 * Since: 0.1
 */
DEFINE_SCALAR_ACTIVATION (GnnThreshold, gnn_threshold, GNN_TYPE_THRESHOLD, "Threshold", 2, "threshold", 0.0, "value", 0.0,
                          threshold_v, threshold_repr)

/**
 * gnn_threshold_new:
 * @threshold: the value at or below which elements are replaced
 * @value: what replaces them
 *
 * Creates a Threshold layer (`nn.Threshold (threshold, value)`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnThreshold *
gnn_threshold_new (double threshold,
                   double value)
{
  return g_object_new (GNN_TYPE_THRESHOLD, "threshold", threshold, "value", value, NULL);
}

/**
 * GnnHardshrink:
 *
 * Hard shrinkage, applied elementwise, as `torch.nn.Hardshrink`: 0 where −λ ≤ x ≤ λ, x
 * elsewhere.
 *
 * It has no parameters; input and output have the same shape. The layer prints as
 * PyTorch's: "Hardshrink(0.5)".
 *
 * Since: 0.1
 */

/**
 * GnnHardshrink:lambd:
 *
 * The half-width λ of the band set to zero (`lambd`); PyTorch's default is 0.5.
 *
 * Since: 0.1
 */
DEFINE_SCALAR_ACTIVATION (GnnHardshrink, gnn_hardshrink, GNN_TYPE_HARDSHRINK, "Hardshrink", 1, "lambd", 0.5, NULL, 0.0,
                          hardshrink_v, lambd_repr)

/**
 * gnn_hardshrink_new:
 * @lambd: the half-width of the band set to zero; PyTorch's default is 0.5
 *
 * Creates a Hardshrink layer (`nn.Hardshrink (lambd)`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnHardshrink *
gnn_hardshrink_new (double lambd)
{
  return g_object_new (GNN_TYPE_HARDSHRINK, "lambd", lambd, NULL);
}

/**
 * GnnSoftshrink:
 *
 * Soft shrinkage, applied elementwise, as `torch.nn.Softshrink`: x − λ above λ, x + λ
 * below −λ, 0 between.
 *
 * It has no parameters; input and output have the same shape. The layer prints as
 * PyTorch's: "Softshrink(0.5)".
 *
 * Since: 0.1
 */

/**
 * GnnSoftshrink:lambd:
 *
 * The half-width λ ≥ 0 of the band set to zero (`lambd`); PyTorch's default is 0.5.
 *
 * Since: 0.1
 */
DEFINE_SCALAR_ACTIVATION (GnnSoftshrink, gnn_softshrink, GNN_TYPE_SOFTSHRINK, "Softshrink", 1, "lambd", 0.5, NULL, 0.0,
                          softshrink_v, lambd_repr)

/**
 * gnn_softshrink_new:
 * @lambd: the half-width of the band set to zero, ≥ 0; PyTorch's default is 0.5
 *
 * Creates a Softshrink layer (`nn.Softshrink (lambd)`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnSoftshrink *
gnn_softshrink_new (double lambd)
{
  return g_object_new (GNN_TYPE_SOFTSHRINK, "lambd", lambd, NULL);
}

/* ---- Softmax, LogSoftmax --------------------------------------------------------------- */

/* PyTorch's _get_softmax_dim, for a layer made with dim=None */
static int
softmax_dim (int      dim,
             guint    ndim)
{
  if (dim != GNN_SOFTMAX_DIM_NONE)
    return dim;
  return (ndim == 0 || ndim == 1 || ndim == 3) ? 0 : 1;
}

static char *
softmax_extra_repr (int dim)
{
  if (dim == GNN_SOFTMAX_DIM_NONE)
    return g_strdup ("dim=None");
  return g_strdup_printf ("dim=%d", dim);
}

#define DEFINE_SOFTMAX(TypeName, type_name, TYPE, CAST, IS, Name, op)                         \
  struct _##TypeName                                                                          \
  {                                                                                           \
    GnnModule parent_instance;                                                                \
                                                                                              \
    int dim;                                                                                  \
  };                                                                                          \
                                                                                              \
  static GnnProp type_name##_props[2];                                                        \
                                                                                              \
  G_DEFINE_FINAL_TYPE (TypeName, type_name, GNN_TYPE_MODULE)                                  \
                                                                                              \
  static GnnArgs *                                                                            \
  type_name##_forward (GnnModule *module,                                                     \
                       GnnArgs   *input,                                                      \
                       GError   **error)                                                      \
  {                                                                                           \
    GnnTensor *x = gnn_args_first_tensor (input, Name, error);                                \
                                                                                              \
    if (x == NULL)                                                                            \
      return NULL;                                                                            \
    return gnn_args_take_tensor_or_prefix (op (x, softmax_dim (CAST (module)->dim,            \
                                                               gnn_tensor_get_ndim (x)),      \
                                               error),                                        \
                                           Name, error);                                      \
  }                                                                                           \
                                                                                              \
  static char *                                                                               \
  type_name##_extra_repr (GnnModule *module)                                                  \
  {                                                                                           \
    return softmax_extra_repr (CAST (module)->dim);                                           \
  }                                                                                           \
                                                                                              \
  static void                                                                                 \
  type_name##_class_init (TypeName##Class *klass)                                             \
  {                                                                                           \
    GNN_MODULE_CLASS (klass)->forward = type_name##_forward;                                  \
    GNN_MODULE_CLASS (klass)->extra_repr = type_name##_extra_repr;                            \
    type_name##_props[1] = (GnnProp) {                                                        \
      g_param_spec_int ("dim", NULL, NULL, G_MININT, G_MAXINT, GNN_SOFTMAX_DIM_NONE,          \
                        GNN_PARAM_RW | G_PARAM_CONSTRUCT),                                    \
      G_STRUCT_OFFSET (TypeName, dim) };                                                      \
    gnn_props_install (G_OBJECT_CLASS (klass), type_name##_props, 2);                         \
  }                                                                                           \
                                                                                              \
  static void                                                                                 \
  type_name##_init (TypeName *self)                                                           \
  {                                                                                           \
  }                                                                                           \
                                                                                              \
  TypeName *                                                                                  \
  type_name##_new (int dim)                                                                   \
  {                                                                                           \
    return g_object_new (TYPE, "dim", dim, NULL);                                             \
  }                                                                                           \
                                                                                              \
  int                                                                                         \
  type_name##_get_dim (TypeName *self)                                                        \
  {                                                                                           \
    g_return_val_if_fail (IS (self), GNN_SOFTMAX_DIM_NONE);                                   \
    return self->dim;                                                                         \
  }                                                                                           \
                                                                                              \
  void                                                                                        \
  type_name##_set_dim (TypeName *self,                                                        \
                       int       dim)                                                         \
  {                                                                                           \
    g_return_if_fail (IS (self));                                                             \
    gnn_prop_set (self, &type_name##_props[1], dim);                                          \
  }

/**
 * GnnSoftmax:
 *
 * The softmax along one dimension, as `torch.nn.Softmax`:
 * Softmax(x)ᵢ = exp(xᵢ) / Σⱼ exp(xⱼ).
 *
 * It has no parameters; input and output have the same shape. The layer prints as
 * PyTorch's: "Softmax(dim=1)", or "Softmax(dim=None)" when made without a dimension.
 *
 * Since: 0.1
 */

/**
 * GnnSoftmax:dim:
 *
 * The dimension the softmax is taken along (`dim`); negative values count from the end.
 * [const@Gnn.SOFTMAX_DIM_NONE] (the default) is PyTorch's `dim=None`: the dimension is then
 * chosen from the input's as PyTorch's deprecated rule does (0 for 0, 1 or 3 dimensions,
 * 1 otherwise).
 *
 * Since: 0.1
 */

/**
 * gnn_softmax_new:
 * @dim: the dimension, or [const@Gnn.SOFTMAX_DIM_NONE] for PyTorch's `dim=None`
 *
 * Creates a Softmax layer (`nn.Softmax (dim)`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */

/**
 * gnn_softmax_get_dim:
 * @self: a Softmax layer
 *
 * Gets [property@Gnn.Softmax:dim].
 *
 * Returns: the dimension, or [const@Gnn.SOFTMAX_DIM_NONE]
 *
 * Since: 0.1
 */

/**
 * gnn_softmax_set_dim:
 * @self: a Softmax layer
 * @dim: the dimension, or [const@Gnn.SOFTMAX_DIM_NONE]
 *
 * Sets [property@Gnn.Softmax:dim]; the next forward uses it.
 *
 * Since: 0.1
 */
DEFINE_SOFTMAX (GnnSoftmax, gnn_softmax, GNN_TYPE_SOFTMAX, GNN_SOFTMAX, GNN_IS_SOFTMAX,
                "Softmax", gnn_tensor_softmax)

/**
 * GnnLogSoftmax:
 *
 * The logarithm of the softmax along one dimension, as `torch.nn.LogSoftmax`, computed
 * without forming the softmax: LogSoftmax(x)ᵢ = xᵢ − log Σⱼ exp(xⱼ).
 *
 * It has no parameters; input and output have the same shape. The layer prints as
 * PyTorch's: "LogSoftmax(dim=1)", or "LogSoftmax(dim=None)" when made without a dimension.
 *
 * Since: 0.1
 */

/**
 * GnnLogSoftmax:dim:
 *
 * The dimension the log-softmax is taken along (`dim`); negative values count from the
 * end. [const@Gnn.SOFTMAX_DIM_NONE] (the default) is PyTorch's `dim=None`, with the same
 * choice of dimension as [property@Gnn.Softmax:dim].
 *
 * Since: 0.1
 */

/**
 * gnn_log_softmax_new:
 * @dim: the dimension, or [const@Gnn.SOFTMAX_DIM_NONE] for PyTorch's `dim=None`
 *
 * Creates a LogSoftmax layer (`nn.LogSoftmax (dim)`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */

/**
 * gnn_log_softmax_get_dim:
 * @self: a LogSoftmax layer
 *
 * Gets [property@Gnn.LogSoftmax:dim].
 *
 * Returns: the dimension, or [const@Gnn.SOFTMAX_DIM_NONE]
 *
 * Since: 0.1
 */

/**
 * gnn_log_softmax_set_dim:
 * @self: a LogSoftmax layer
 * @dim: the dimension, or [const@Gnn.SOFTMAX_DIM_NONE]
 *
 * Sets [property@Gnn.LogSoftmax:dim]; the next forward uses it.
 *
 * Since: 0.1
 */
DEFINE_SOFTMAX (GnnLogSoftmax, gnn_log_softmax, GNN_TYPE_LOG_SOFTMAX, GNN_LOG_SOFTMAX,
                GNN_IS_LOG_SOFTMAX, "LogSoftmax", gnn_tensor_log_softmax)

/* softmax (−x) along @dim, composed as PyTorch's F.softmin composes it (SoftmaxBackward0) */
static GnnTensor *
softmin (GnnTensor *x,
         int        dim,
         GError   **error)
{
  g_autoptr(GnnTensor) n = gnn_tensor_neg (x, error);

  return n ? gnn_tensor_softmax (n, dim, error) : NULL;
}

/**
 * GnnSoftmin:
 *
 * The softmin along one dimension, as `torch.nn.Softmin`: the softmax of −x,
 * Softmin(x)ᵢ = exp(−xᵢ) / Σⱼ exp(−xⱼ).
 *
 * It has no parameters; input and output have the same shape. The layer prints as
 * PyTorch's: "Softmin(dim=1)", or "Softmin(dim=None)" when made without a dimension.
 *
 * Since: 0.1
 */

/**
 * GnnSoftmin:dim:
 *
 * The dimension the softmin is taken along (`dim`); negative values count from the end.
 * [const@Gnn.SOFTMAX_DIM_NONE] (the default) is PyTorch's `dim=None`, with the same choice of
 * dimension as [property@Gnn.Softmax:dim].
 *
 * Since: 0.1
 */

/**
 * gnn_softmin_new:
 * @dim: the dimension, or [const@Gnn.SOFTMAX_DIM_NONE] for PyTorch's `dim=None`
 *
 * Creates a Softmin layer (`nn.Softmin (dim)`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */

/**
 * gnn_softmin_get_dim:
 * @self: a Softmin layer
 *
 * Gets [property@Gnn.Softmin:dim].
 *
 * Returns: the dimension, or [const@Gnn.SOFTMAX_DIM_NONE]
 *
 * Since: 0.1
 */

/**
 * gnn_softmin_set_dim:
 * @self: a Softmin layer
 * @dim: the dimension, or [const@Gnn.SOFTMAX_DIM_NONE]
 *
 * Sets [property@Gnn.Softmin:dim]; the next forward uses it.
 *
 * Since: 0.1
 */
DEFINE_SOFTMAX (GnnSoftmin, gnn_softmin, GNN_TYPE_SOFTMIN, GNN_SOFTMIN, GNN_IS_SOFTMIN, "Softmin", softmin)

/**
 * GnnRReLU:
 *
 * The randomized leaky rectified linear unit, as `torch.nn.RReLU`: x where positive, a × x
 * elsewhere, a drawn uniformly from [lower, upper) for each element in training mode (from
 * gnn's default generator) and (lower + upper) / 2 in evaluation mode.
 *
 * It has no parameters; input and output have the same shape. PyTorch's `inplace` argument
 * has no counterpart. The layer prints as PyTorch's: "RReLU(lower=0.125, upper=0.3333333333333333)".
 *
 * Since: 0.1
 */

/**
 * GnnRReLU:lower:
 *
 * The lower bound of the slopes (`lower`); PyTorch's default is 1/8.
 *
 * Since: 0.1
 */

/**
 * GnnRReLU:upper:
 *
 * The upper bound of the slopes (`upper`); PyTorch's default is 1/3.
 *
 * Since: 0.1
 */
DEFINE_SCALAR_ACTIVATION (GnnRReLU, gnn_rrelu, GNN_TYPE_RRELU, "RReLU", 2, "lower", 1.0 / 8.0, "upper", 1.0 / 3.0,
                          rrelu_v, rrelu_repr)

/**
 * gnn_rrelu_new:
 * @lower: the lower bound of the slopes; PyTorch's default is 1/8
 * @upper: the upper bound of the slopes; PyTorch's default is 1/3
 *
 * Creates an RReLU layer (`nn.RReLU (lower, upper)`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnRReLU *
gnn_rrelu_new (double lower,
               double upper)
{
  return g_object_new (GNN_TYPE_RRELU, "lower", lower, "upper", upper, NULL);
}

/* ---- GLU ------------------------------------------------------------------------------- */

/**
 * GnnGLU:
 *
 * The gated linear unit, as `torch.nn.GLU`: GLU(a, b) = a ⊗ σ(b), a and b the halves of the
 * input along [property@Gnn.GLU:dim], whose size must be even.
 *
 * It has no parameters; the output is the input's shape with that dimension halved. The layer
 * prints as PyTorch's: "GLU(dim=-1)".
 *
 * Since: 0.1
 */
struct _GnnGLU
{
  GnnModule parent_instance;

  int dim;
};

static GnnProp glu_props[2];

G_DEFINE_FINAL_TYPE (GnnGLU, gnn_glu, GNN_TYPE_MODULE)

static GnnArgs *
gnn_glu_forward (GnnModule *module,
                 GnnArgs   *input,
                 GError   **error)
{
  GnnTensor *x = gnn_args_first_tensor (input, "GLU", error);

  if (x == NULL)
    return NULL;
  return gnn_args_take_tensor_or_prefix (gnn_tensor_glu (x, GNN_GLU (module)->dim, error), "GLU", error);
}

static char *
gnn_glu_extra_repr (GnnModule *module)
{
  return g_strdup_printf ("dim=%d", GNN_GLU (module)->dim);
}

static void
gnn_glu_class_init (GnnGLUClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_glu_forward;
  GNN_MODULE_CLASS (klass)->extra_repr = gnn_glu_extra_repr;

  /**
   * GnnGLU:dim:
   *
   * The dimension split in halves (`dim`); negative values count from the end. PyTorch's
   * default is −1.
   *
   * Since: 0.1
   */
  glu_props[1] = (GnnProp) {
    g_param_spec_int ("dim", NULL, NULL, G_MININT, G_MAXINT, -1, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnGLU, dim) };
  gnn_props_install (G_OBJECT_CLASS (klass), glu_props, 2);
}

static void
gnn_glu_init (GnnGLU *self)
{
}

/**
 * gnn_glu_new:
 * @dim: the dimension split in halves; PyTorch's default is −1
 *
 * Creates a GLU layer (`nn.GLU (dim)`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnGLU *
gnn_glu_new (int dim)
{
  return g_object_new (GNN_TYPE_GLU, "dim", dim, NULL);
}

/* ---- PReLU ----------------------------------------------------------------------------- */

/**
 * GnnPReLU:
 *
 * The parametric rectified linear unit, as `torch.nn.PReLU`: PReLU(x) = x where positive,
 * a × x elsewhere, with a learnt slope a, one for all channels or one per channel
 * (dimension 1 of the input).
 *
 * It holds the parameter `weight` of [property@Gnn.PReLU:num-parameters] slopes, each
 * [property@Gnn.PReLU:init] at first (the state-dict key is "weight", as PyTorch's). The layer
 * prints as PyTorch's: "PReLU(num_parameters=1)".
 *
 * Since: 0.1
 */
struct _GnnPReLU
{
  GnnModule parent_instance;

  int num_parameters;
  double init;
};

enum {
  PRELU_PROP_0,
  PRELU_PROP_NUM_PARAMETERS,
  PRELU_PROP_INIT,
  PRELU_N_PROPS
};

static GnnProp prelu_props[PRELU_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnPReLU, gnn_prelu, GNN_TYPE_MODULE)

static gboolean
gnn_prelu_setup (GnnModule *module,
                 GError   **error)
{
  GnnPReLU *self = GNN_PRELU (module);
  gint64 shape[1] = { self->num_parameters };
  g_autoptr(GnnTensor) data = NULL;
  g_autoptr(GnnParameter) p = NULL;

  if (!GNN_MODULE_CLASS (gnn_prelu_parent_class)->setup (module, error))
    return FALSE;
  if (self->num_parameters < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "PReLU: num_parameters must be at least 1, got %d", self->num_parameters);
      return FALSE;
    }
  if (!(data = gnn_tensor_new_full (shape, 1, self->init, gnn_module_dtype (module), NULL, error)) ||
      !(p = gnn_parameter_new (data, TRUE, error)))
    return FALSE;
  return gnn_module_register_parameter (module, "weight", p, error);
}

static GnnArgs *
gnn_prelu_forward (GnnModule *module,
                   GnnArgs   *input,
                   GError   **error)
{
  GnnModuleSlot *slot = gnn_module_find_slot (gnn_module_priv (module)->parameters, "weight");
  GnnTensor *x = gnn_args_first_tensor (input, "PReLU", error);

  if (x == NULL)
    return NULL;
  if (slot == NULL || slot->value == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "PReLU: the layer has no weight");
      return NULL;
    }
  return gnn_args_take_tensor_or_prefix (gnn_tensor_prelu (x, GNN_TENSOR (slot->value), error), "PReLU", error);
}

static char *
gnn_prelu_extra_repr (GnnModule *module)
{
  return g_strdup_printf ("num_parameters=%d", GNN_PRELU (module)->num_parameters);
}

static void
gnn_prelu_class_init (GnnPReLUClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_prelu_setup;
  module_class->forward = gnn_prelu_forward;
  module_class->extra_repr = gnn_prelu_extra_repr;

  /**
   * GnnPReLU:num-parameters:
   *
   * How many slopes the layer learns (`num_parameters`): 1, or the number of channels of
   * its input. PyTorch's default is 1.
   *
   * Since: 0.1
   */
  prelu_props[PRELU_PROP_NUM_PARAMETERS] = (GnnProp) {
    g_param_spec_int ("num-parameters", NULL, NULL, G_MININT, G_MAXINT, 1,
                      GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnPReLU, num_parameters) };

  /**
   * GnnPReLU:init:
   *
   * The initial value of every slope (`init`); PyTorch's default is 0.25.
   *
   * Since: 0.1
   */
  prelu_props[PRELU_PROP_INIT] = (GnnProp) {
    g_param_spec_double ("init", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.25,
                         GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnPReLU, init) };

  gnn_props_install (G_OBJECT_CLASS (klass), prelu_props, PRELU_N_PROPS);
}

static void
gnn_prelu_init (GnnPReLU *self)
{
}

/**
 * gnn_prelu_new:
 * @num_parameters: how many slopes: 1, or the number of channels; PyTorch's default is 1
 * @init: the initial slope; PyTorch's default is 0.25
 *
 * Creates a PReLU layer (`nn.PReLU (num_parameters, init)`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnPReLU *
gnn_prelu_new (int    num_parameters,
               double init)
{
  return g_object_new (GNN_TYPE_PRELU, "num-parameters", num_parameters, "init", init, NULL);
}

/* the layer types of this file, for gnn_module_new_from_type_name() to find by name */
void
gnn_activation_ensure_types (void)
{
  g_type_ensure (GNN_TYPE_RELU);
  g_type_ensure (GNN_TYPE_LEAKY_RELU);
  g_type_ensure (GNN_TYPE_ELU);
  g_type_ensure (GNN_TYPE_GELU);
  g_type_ensure (GNN_TYPE_SILU);
  g_type_ensure (GNN_TYPE_SIGMOID);
  g_type_ensure (GNN_TYPE_TANH);
  g_type_ensure (GNN_TYPE_SOFTSIGN);
  g_type_ensure (GNN_TYPE_SOFTMAX);
  g_type_ensure (GNN_TYPE_LOG_SOFTMAX);
  g_type_ensure (GNN_TYPE_SOFTMIN);
  g_type_ensure (GNN_TYPE_GLU);
  g_type_ensure (GNN_TYPE_PRELU);
  g_type_ensure (GNN_TYPE_RRELU);
  g_type_ensure (GNN_TYPE_SOFTPLUS);
  g_type_ensure (GNN_TYPE_HARDTANH);
  g_type_ensure (GNN_TYPE_CELU);
  g_type_ensure (GNN_TYPE_THRESHOLD);
  g_type_ensure (GNN_TYPE_HARDSHRINK);
  g_type_ensure (GNN_TYPE_SOFTSHRINK);
  g_type_ensure (GNN_TYPE_RELU6);
  g_type_ensure (GNN_TYPE_HARDSIGMOID);
  g_type_ensure (GNN_TYPE_HARDSWISH);
  g_type_ensure (GNN_TYPE_MISH);
  g_type_ensure (GNN_TYPE_SELU);
  g_type_ensure (GNN_TYPE_LOG_SIGMOID);
  g_type_ensure (GNN_TYPE_TANHSHRINK);
  g_type_ensure (GNN_TYPE_SOFTMAX2D);
}
