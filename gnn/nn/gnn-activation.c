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
}
