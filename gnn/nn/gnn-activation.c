/* gnn-activation.c: GnnReLU and GnnLeakyReLU
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnn.h"
#include "gnn-activation.h"

/* The first positional input, which must be a tensor; @name prefixes the error. */
static GnnTensor *
first_tensor (GnnArgs    *input,
              const char *name,
              GError    **error)
{
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);

  if (x == NULL)
    g_prefix_error (error, "%s: ", name);
  return x;
}

static GnnArgs *
args_take_tensor (GnnTensor *t)
{
  GnnArgs *args = gnn_args_new_tensor (t);

  g_object_unref (t);
  return args;
}

/* Writes @value as Python's repr (float) does: the shortest digits that read back to the
 * same double, in fixed notation between 1e-4 and 1e16 (with ".0" on whole numbers),
 * otherwise as "1e-05", "1.5e+16". */
static char *
python_float_repr (double value)
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
  GnnTensor *x, *y;

  x = first_tensor (input, "ReLU", error);
  if (x == NULL)
    return NULL;
  y = gnn_tensor_relu (x, error);
  if (y == NULL)
    {
      g_prefix_error (error, "ReLU: ");
      return NULL;
    }
  return args_take_tensor (y);
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

static GParamSpec *leaky_properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnLeakyReLU, gnn_leaky_relu, GNN_TYPE_MODULE)

static GnnArgs *
gnn_leaky_relu_forward (GnnModule *module,
                        GnnArgs   *input,
                        GError   **error)
{
  GnnLeakyReLU *self = GNN_LEAKY_RELU (module);
  GnnTensor *x, *y;

  x = first_tensor (input, "LeakyReLU", error);
  if (x == NULL)
    return NULL;
  y = gnn_tensor_leaky_relu (x, self->negative_slope, error);
  if (y == NULL)
    {
      g_prefix_error (error, "LeakyReLU: ");
      return NULL;
    }
  return args_take_tensor (y);
}

static char *
gnn_leaky_relu_extra_repr (GnnModule *module)
{
  g_autofree char *slope = python_float_repr (GNN_LEAKY_RELU (module)->negative_slope);

  return g_strdup_printf ("negative_slope=%s", slope);
}

static void
gnn_leaky_relu_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  GnnLeakyReLU *self = GNN_LEAKY_RELU (object);

  switch (prop_id)
    {
    case PROP_NEGATIVE_SLOPE:
      g_value_set_double (value, self->negative_slope);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_leaky_relu_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  GnnLeakyReLU *self = GNN_LEAKY_RELU (object);

  switch (prop_id)
    {
    case PROP_NEGATIVE_SLOPE:
      gnn_leaky_relu_set_negative_slope (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_leaky_relu_class_init (GnnLeakyReLUClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->get_property = gnn_leaky_relu_get_property;
  object_class->set_property = gnn_leaky_relu_set_property;
  module_class->forward = gnn_leaky_relu_forward;
  module_class->extra_repr = gnn_leaky_relu_extra_repr;

  /**
   * GnnLeakyReLU:negative-slope:
   *
   * The slope for negative inputs (`negative_slope`); PyTorch's default is 0.01.
   */
  leaky_properties[PROP_NEGATIVE_SLOPE] =
    g_param_spec_double ("negative-slope", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.01,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS |
                         G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, leaky_properties);
}

static void
gnn_leaky_relu_init (GnnLeakyReLU *self)
{
  self->negative_slope = 0.01;
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
  if (self->negative_slope == negative_slope)
    return;
  self->negative_slope = negative_slope;
  g_object_notify_by_pspec (G_OBJECT (self), leaky_properties[PROP_NEGATIVE_SLOPE]);
}
