/* gnn-pad.c: the padding layers (ConstantPad1d/2d/3d, ZeroPad2d, ReflectionPad1d/2d/3d,
 * ReplicationPad1d/2d/3d), each running gnn_tensor_pad with its mode
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-args-private.h"
#include "gnn-module-private.h"
#include "gnn-props-private.h"
#include "core/gnn-tensor-private.h"
#include "ops/gnn-ops.h"
#include "gnn-pad.h"

enum { PROP_0, PROP_PADDING, PROP_VALUE, N_PROPS };

/* @padding ("ax": one size for every side, or the pads as F.pad takes them) as F.pad's pads */
static const gint64 *
pads_of (GVariant *padding, guint n_dims, gint64 *pads, gsize *n_pads)
{
  gsize n = 0;
  const gint64 *given = gnn_prop_int64s (padding, &n);

  if (n != 1)
    {
      *n_pads = n;
      return given;
    }
  for (guint i = 0; i < 2 * n_dims; i++)
    pads[i] = given[0];
  *n_pads = 2 * n_dims;
  return pads;
}

static GnnArgs *
pad_forward (GnnModule  *module,
             GnnArgs    *input,
             const char *name,
             const char *mode,
             guint       n_dims,
             GVariant   *padding,
             double      value,
             GError    **error)
{
  GnnTensor *x = gnn_args_first_tensor (input, name, error);
  gint64 buf[6];
  gsize n_pads;
  const gint64 *pads;

  if (x == NULL)
    return NULL;
  pads = pads_of (padding, n_dims, buf, &n_pads);
  return gnn_args_take_tensor_or_prefix (gnn_tensor_pad (x, pads, n_pads, mode, value, error), name, error);
}

/* "padding=(1, 2), value=0.5" for the constant pads, "(1, 2)" for the others, as torch's */
static char *
pad_extra_repr (GVariant *padding, guint n_dims, gboolean has_value, double value)
{
  gint64 buf[6];
  gsize n_pads;
  const gint64 *pads = pads_of (padding, n_dims, buf, &n_pads);
  GString *s = g_string_new (has_value ? "padding=(" : "(");

  for (gsize i = 0; i < n_pads; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", pads[i]);
  g_string_append (s, n_pads == 1 ? ",)" : ")");
  if (has_value)
    {
      g_autofree char *v = gnn_python_float_repr (value);

      g_string_append_printf (s, ", value=%s", v);
    }
  return g_string_free (s, FALSE);
}

static GVariant *
padding_variant (const gint64 *padding, gsize n_padding)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, padding, n_padding, sizeof (gint64));
}

/* One class: its struct, the padding and (for the constant ones) value properties, forward,
 * repr and constructor; the documentation is above each use. */
#define DEFINE_PAD(TypeName, type_name, TYPE, CAST, NAME, MODE, N_DIMS, HAS_VALUE)                   \
  struct _##TypeName                                                                           \
  {                                                                                            \
    GnnModule parent_instance;                                                                 \
                                                                                               \
    GVariant *padding;                                                                         \
    double value;                                                                              \
  };                                                                                           \
                                                                                               \
  static GnnProp type_name##_props[N_PROPS];                                                   \
                                                                                               \
  G_DEFINE_FINAL_TYPE (TypeName, type_name, GNN_TYPE_MODULE)                                   \
                                                                                               \
  static GnnArgs *                                                                             \
  type_name##_forward (GnnModule *module, GnnArgs *input, GError **error)                      \
  {                                                                                            \
    TypeName *self = CAST (module);                                                            \
                                                                                               \
    return pad_forward (module, input, NAME, MODE, N_DIMS, self->padding, self->value, error); \
  }                                                                                            \
                                                                                               \
  static char *                                                                                \
  type_name##_extra_repr (GnnModule *module)                                                   \
  {                                                                                            \
    TypeName *self = CAST (module);                                                            \
                                                                                               \
    return pad_extra_repr (self->padding, N_DIMS, HAS_VALUE, self->value);                     \
  }                                                                                            \
                                                                                               \
  static void                                                                                  \
  type_name##_class_init (TypeName##Class *klass)                                              \
  {                                                                                            \
    GNN_MODULE_CLASS (klass)->forward = type_name##_forward;                                   \
    GNN_MODULE_CLASS (klass)->extra_repr = type_name##_extra_repr;                             \
    type_name##_props[PROP_PADDING] = (GnnProp) {                                              \
      gnn_param_spec_int64s ("padding", GNN_PARAM_RW | G_PARAM_CONSTRUCT),                     \
      G_STRUCT_OFFSET (TypeName, padding) };                                                   \
    if (HAS_VALUE)                                                                             \
      type_name##_props[PROP_VALUE] = (GnnProp) {                                              \
        gnn_param_spec_double ("value", 0.0, GNN_PARAM_RW | G_PARAM_CONSTRUCT),                \
        G_STRUCT_OFFSET (TypeName, value) };                                                   \
    gnn_props_install (G_OBJECT_CLASS (klass), type_name##_props, N_PROPS);                    \
  }                                                                                            \
                                                                                               \
  static void                                                                                  \
  type_name##_init (TypeName *self)                                                            \
  {                                                                                            \
  }

/**
 * GnnConstantPad1d:
 *
 * Pads one dimension, as `torch.nn.ConstantPad1d`: it fills the border with a constant value,
 * through [method@Gnn.Tensor.pad] (mode "constant"). Input (N, C, W) or (C, W); negative
 * padding crops. It has no parameters and prints as torch's: "ConstantPad1d(padding=(1, 1),
 * value=0.0)".
 *
 * Since: 0.1
 */

/**
 * GnnConstantPad1d:padding:
 *
 * The padding (`padding`), a #GVariant "ax": one size for all 2 sides, or the pads as
 * [method@Gnn.Tensor.pad] takes them (before, after, the last dimension first).
 *
 * Since: 0.1
 */

/**
 * GnnConstantPad1d:value:
 *
 * The value of the border (`value`).
 *
 * Since: 0.1
 */
DEFINE_PAD (GnnConstantPad1d, gnn_constant_pad1d, GNN_TYPE_CONSTANT_PAD1D, GNN_CONSTANT_PAD1D,
            "ConstantPad1d", "constant", 1, TRUE)

/**
 * gnn_constant_pad1d_new:
 * @padding: (array length=n_padding): one size for all 2 sides, or the pads as
 *   [method@Gnn.Tensor.pad] takes them
 * @n_padding: the number of sizes in @padding
 * @value: the value of the border
 *
 * Creates `nn.ConstantPad1d (padding, value)`; the pads are checked when the layer runs.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnConstantPad1d *
gnn_constant_pad1d_new (const gint64 *padding,
                        gsize         n_padding,
                        double        value)
{
  g_return_val_if_fail (padding != NULL && n_padding > 0, NULL);
  return g_object_new (GNN_TYPE_CONSTANT_PAD1D, "padding", padding_variant (padding, n_padding), "value", value, NULL);
}

/**
 * GnnConstantPad2d:
 *
 * Pads two dimensions, as `torch.nn.ConstantPad2d`: it fills the border with a constant value,
 * through [method@Gnn.Tensor.pad] (mode "constant"). Input (N, C, H, W) or (C, H, W); negative
 * padding crops. It has no parameters and prints as torch's: "ConstantPad2d(padding=(1, 1, 1,
 * 1), value=0.0)".
 *
 * Since: 0.1
 */

/**
 * GnnConstantPad2d:padding:
 *
 * The padding (`padding`), a #GVariant "ax": one size for all 4 sides, or the pads as
 * [method@Gnn.Tensor.pad] takes them (before, after, the last dimension first).
 *
 * Since: 0.1
 */

/**
 * GnnConstantPad2d:value:
 *
 * The value of the border (`value`).
 *
 * Since: 0.1
 */
DEFINE_PAD (GnnConstantPad2d, gnn_constant_pad2d, GNN_TYPE_CONSTANT_PAD2D, GNN_CONSTANT_PAD2D,
            "ConstantPad2d", "constant", 2, TRUE)

/**
 * gnn_constant_pad2d_new:
 * @padding: (array length=n_padding): one size for all 4 sides, or the pads as
 *   [method@Gnn.Tensor.pad] takes them
 * @n_padding: the number of sizes in @padding
 * @value: the value of the border
 *
 * Creates `nn.ConstantPad2d (padding, value)`; the pads are checked when the layer runs.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnConstantPad2d *
gnn_constant_pad2d_new (const gint64 *padding,
                        gsize         n_padding,
                        double        value)
{
  g_return_val_if_fail (padding != NULL && n_padding > 0, NULL);
  return g_object_new (GNN_TYPE_CONSTANT_PAD2D, "padding", padding_variant (padding, n_padding), "value", value, NULL);
}

/**
 * GnnConstantPad3d:
 *
 * Pads three dimensions, as `torch.nn.ConstantPad3d`: it fills the border with a constant
 * value, through [method@Gnn.Tensor.pad] (mode "constant"). Input (N, C, D, H, W) or (C, D, H,
 * W); negative padding crops. It has no parameters and prints as torch's:
 * "ConstantPad3d(padding=(1, 1, 1, 1, 1, 1), value=0.0)".
 *
 * Since: 0.1
 */

/**
 * GnnConstantPad3d:padding:
 *
 * The padding (`padding`), a #GVariant "ax": one size for all 6 sides, or the pads as
 * [method@Gnn.Tensor.pad] takes them (before, after, the last dimension first).
 *
 * Since: 0.1
 */

/**
 * GnnConstantPad3d:value:
 *
 * The value of the border (`value`).
 *
 * Since: 0.1
 */
DEFINE_PAD (GnnConstantPad3d, gnn_constant_pad3d, GNN_TYPE_CONSTANT_PAD3D, GNN_CONSTANT_PAD3D,
            "ConstantPad3d", "constant", 3, TRUE)

/**
 * gnn_constant_pad3d_new:
 * @padding: (array length=n_padding): one size for all 6 sides, or the pads as
 *   [method@Gnn.Tensor.pad] takes them
 * @n_padding: the number of sizes in @padding
 * @value: the value of the border
 *
 * Creates `nn.ConstantPad3d (padding, value)`; the pads are checked when the layer runs.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnConstantPad3d *
gnn_constant_pad3d_new (const gint64 *padding,
                        gsize         n_padding,
                        double        value)
{
  g_return_val_if_fail (padding != NULL && n_padding > 0, NULL);
  return g_object_new (GNN_TYPE_CONSTANT_PAD3D, "padding", padding_variant (padding, n_padding), "value", value, NULL);
}

/**
 * GnnZeroPad2d:
 *
 * Pads with zeros, as `torch.nn.ZeroPad2d`, through [method@Gnn.Tensor.pad] (mode "constant",
 * value 0). Input (N, C, H, W) or (C, H, W); negative padding crops. It has no parameters and
 * prints as torch's: "ZeroPad2d((1, 1, 1, 1))".
 *
 * Since: 0.1
 */

/**
 * GnnZeroPad2d:padding:
 *
 * The padding (`padding`), a #GVariant "ax": one size for all 4 sides, or the pads as
 * [method@Gnn.Tensor.pad] takes them (before, after, the last dimension first).
 *
 * Since: 0.1
 */
DEFINE_PAD (GnnZeroPad2d, gnn_zero_pad2d, GNN_TYPE_ZERO_PAD2D, GNN_ZERO_PAD2D,
            "ZeroPad2d", "constant", 2, FALSE)

/**
 * gnn_zero_pad2d_new:
 * @padding: (array length=n_padding): one size for all 4 sides, or the pads as
 *   [method@Gnn.Tensor.pad] takes them
 * @n_padding: the number of sizes in @padding
 *
 * Creates `nn.ZeroPad2d (padding)`; the pads are checked when the layer runs.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnZeroPad2d *
gnn_zero_pad2d_new (const gint64 *padding,
                    gsize         n_padding)
{
  g_return_val_if_fail (padding != NULL && n_padding > 0, NULL);
  return g_object_new (GNN_TYPE_ZERO_PAD2D, "padding", padding_variant (padding, n_padding), NULL);
}

/**
 * GnnReflectionPad1d:
 *
 * Pads one dimension, as `torch.nn.ReflectionPad1d`: it mirrors the input about its edges (the
 * edges not repeated), through [method@Gnn.Tensor.pad] (mode "reflect"). Input (N, C, W) or
 * (C, W); negative padding crops. It has no parameters and prints as torch's:
 * "ReflectionPad1d((1, 1))".
 *
 * Since: 0.1
 */

/**
 * GnnReflectionPad1d:padding:
 *
 * The padding (`padding`), a #GVariant "ax": one size for all 2 sides, or the pads as
 * [method@Gnn.Tensor.pad] takes them (before, after, the last dimension first).
 *
 * Since: 0.1
 */
DEFINE_PAD (GnnReflectionPad1d, gnn_reflection_pad1d, GNN_TYPE_REFLECTION_PAD1D, GNN_REFLECTION_PAD1D,
            "ReflectionPad1d", "reflect", 1, FALSE)

/**
 * gnn_reflection_pad1d_new:
 * @padding: (array length=n_padding): one size for all 2 sides, or the pads as
 *   [method@Gnn.Tensor.pad] takes them
 * @n_padding: the number of sizes in @padding
 *
 * Creates `nn.ReflectionPad1d (padding)`; the pads are checked when the layer runs.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnReflectionPad1d *
gnn_reflection_pad1d_new (const gint64 *padding,
                          gsize         n_padding)
{
  g_return_val_if_fail (padding != NULL && n_padding > 0, NULL);
  return g_object_new (GNN_TYPE_REFLECTION_PAD1D, "padding", padding_variant (padding, n_padding), NULL);
}

/**
 * GnnReflectionPad2d:
 *
 * Pads two dimensions, as `torch.nn.ReflectionPad2d`: it mirrors the input about its edges
 * (the edges not repeated), through [method@Gnn.Tensor.pad] (mode "reflect"). Input (N, C, H,
 * W) or (C, H, W); negative padding crops. It has no parameters and prints as torch's:
 * "ReflectionPad2d((1, 1, 1, 1))".
 *
 * Since: 0.1
 */

/**
 * GnnReflectionPad2d:padding:
 *
 * The padding (`padding`), a #GVariant "ax": one size for all 4 sides, or the pads as
 * [method@Gnn.Tensor.pad] takes them (before, after, the last dimension first).
 *
 * Since: 0.1
 */
DEFINE_PAD (GnnReflectionPad2d, gnn_reflection_pad2d, GNN_TYPE_REFLECTION_PAD2D, GNN_REFLECTION_PAD2D,
            "ReflectionPad2d", "reflect", 2, FALSE)

/**
 * gnn_reflection_pad2d_new:
 * @padding: (array length=n_padding): one size for all 4 sides, or the pads as
 *   [method@Gnn.Tensor.pad] takes them
 * @n_padding: the number of sizes in @padding
 *
 * Creates `nn.ReflectionPad2d (padding)`; the pads are checked when the layer runs.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnReflectionPad2d *
gnn_reflection_pad2d_new (const gint64 *padding,
                          gsize         n_padding)
{
  g_return_val_if_fail (padding != NULL && n_padding > 0, NULL);
  return g_object_new (GNN_TYPE_REFLECTION_PAD2D, "padding", padding_variant (padding, n_padding), NULL);
}

/**
 * GnnReflectionPad3d:
 *
 * Pads three dimensions, as `torch.nn.ReflectionPad3d`: it mirrors the input about its edges
 * (the edges not repeated), through [method@Gnn.Tensor.pad] (mode "reflect"). Input (N, C, D,
 * H, W) or (C, D, H, W); negative padding crops. It has no parameters and prints as torch's:
 * "ReflectionPad3d((1, 1, 1, 1, 1, 1))".
 *
 * Since: 0.1
 */

/**
 * GnnReflectionPad3d:padding:
 *
 * The padding (`padding`), a #GVariant "ax": one size for all 6 sides, or the pads as
 * [method@Gnn.Tensor.pad] takes them (before, after, the last dimension first).
 *
 * Since: 0.1
 */
DEFINE_PAD (GnnReflectionPad3d, gnn_reflection_pad3d, GNN_TYPE_REFLECTION_PAD3D, GNN_REFLECTION_PAD3D,
            "ReflectionPad3d", "reflect", 3, FALSE)

/**
 * gnn_reflection_pad3d_new:
 * @padding: (array length=n_padding): one size for all 6 sides, or the pads as
 *   [method@Gnn.Tensor.pad] takes them
 * @n_padding: the number of sizes in @padding
 *
 * Creates `nn.ReflectionPad3d (padding)`; the pads are checked when the layer runs.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnReflectionPad3d *
gnn_reflection_pad3d_new (const gint64 *padding,
                          gsize         n_padding)
{
  g_return_val_if_fail (padding != NULL && n_padding > 0, NULL);
  return g_object_new (GNN_TYPE_REFLECTION_PAD3D, "padding", padding_variant (padding, n_padding), NULL);
}

/**
 * GnnReplicationPad1d:
 *
 * Pads one dimension, as `torch.nn.ReplicationPad1d`: it repeats the edge values, through
 * [method@Gnn.Tensor.pad] (mode "replicate"). Input (N, C, W) or (C, W); negative padding
 * crops. It has no parameters and prints as torch's: "ReplicationPad1d((1, 1))".
 *
 * Since: 0.1
 */

/**
 * GnnReplicationPad1d:padding:
 *
 * The padding (`padding`), a #GVariant "ax": one size for all 2 sides, or the pads as
 * [method@Gnn.Tensor.pad] takes them (before, after, the last dimension first).
 *
 * Since: 0.1
 */
DEFINE_PAD (GnnReplicationPad1d, gnn_replication_pad1d, GNN_TYPE_REPLICATION_PAD1D, GNN_REPLICATION_PAD1D,
            "ReplicationPad1d", "replicate", 1, FALSE)

/**
 * gnn_replication_pad1d_new:
 * @padding: (array length=n_padding): one size for all 2 sides, or the pads as
 *   [method@Gnn.Tensor.pad] takes them
 * @n_padding: the number of sizes in @padding
 *
 * Creates `nn.ReplicationPad1d (padding)`; the pads are checked when the layer runs.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnReplicationPad1d *
gnn_replication_pad1d_new (const gint64 *padding,
                           gsize         n_padding)
{
  g_return_val_if_fail (padding != NULL && n_padding > 0, NULL);
  return g_object_new (GNN_TYPE_REPLICATION_PAD1D, "padding", padding_variant (padding, n_padding), NULL);
}

/**
 * GnnReplicationPad2d:
 *
 * Pads two dimensions, as `torch.nn.ReplicationPad2d`: it repeats the edge values, through
 * [method@Gnn.Tensor.pad] (mode "replicate"). Input (N, C, H, W) or (C, H, W); negative
 * padding crops. It has no parameters and prints as torch's: "ReplicationPad2d((1, 1, 1, 1))".
 *
 * Since: 0.1
 */

/**
 * GnnReplicationPad2d:padding:
 *
 * The padding (`padding`), a #GVariant "ax": one size for all 4 sides, or the pads as
 * [method@Gnn.Tensor.pad] takes them (before, after, the last dimension first).
 *
 * Since: 0.1
 */
DEFINE_PAD (GnnReplicationPad2d, gnn_replication_pad2d, GNN_TYPE_REPLICATION_PAD2D, GNN_REPLICATION_PAD2D,
            "ReplicationPad2d", "replicate", 2, FALSE)

/**
 * gnn_replication_pad2d_new:
 * @padding: (array length=n_padding): one size for all 4 sides, or the pads as
 *   [method@Gnn.Tensor.pad] takes them
 * @n_padding: the number of sizes in @padding
 *
 * Creates `nn.ReplicationPad2d (padding)`; the pads are checked when the layer runs.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnReplicationPad2d *
gnn_replication_pad2d_new (const gint64 *padding,
                           gsize         n_padding)
{
  g_return_val_if_fail (padding != NULL && n_padding > 0, NULL);
  return g_object_new (GNN_TYPE_REPLICATION_PAD2D, "padding", padding_variant (padding, n_padding), NULL);
}

/**
 * GnnReplicationPad3d:
 *
 * Pads three dimensions, as `torch.nn.ReplicationPad3d`: it repeats the edge values, through
 * [method@Gnn.Tensor.pad] (mode "replicate"). Input (N, C, D, H, W) or (C, D, H, W); negative
 * padding crops. It has no parameters and prints as torch's: "ReplicationPad3d((1, 1, 1, 1, 1,
 * 1))".
 *
 * Since: 0.1
 */

/**
 * GnnReplicationPad3d:padding:
 *
 * The padding (`padding`), a #GVariant "ax": one size for all 6 sides, or the pads as
 * [method@Gnn.Tensor.pad] takes them (before, after, the last dimension first).
 *
 * Since: 0.1
 */
DEFINE_PAD (GnnReplicationPad3d, gnn_replication_pad3d, GNN_TYPE_REPLICATION_PAD3D, GNN_REPLICATION_PAD3D,
            "ReplicationPad3d", "replicate", 3, FALSE)

/**
 * gnn_replication_pad3d_new:
 * @padding: (array length=n_padding): one size for all 6 sides, or the pads as
 *   [method@Gnn.Tensor.pad] takes them
 * @n_padding: the number of sizes in @padding
 *
 * Creates `nn.ReplicationPad3d (padding)`; the pads are checked when the layer runs.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnReplicationPad3d *
gnn_replication_pad3d_new (const gint64 *padding,
                           gsize         n_padding)
{
  g_return_val_if_fail (padding != NULL && n_padding > 0, NULL);
  return g_object_new (GNN_TYPE_REPLICATION_PAD3D, "padding", padding_variant (padding, n_padding), NULL);
}
