/* gnn-dtype.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"
#include "gnn-dtype.h"
#include "gnn-error.h"

static const struct {
  const char *name;
  gsize size;
  gboolean floating;
  int rank;   /* promotion order; uint8 and int8 share one, and meet in int16 */
} dtype_info[] = {
  [GNN_DTYPE_FLOAT32]  = { "float32", 4, TRUE, 6 },
  [GNN_DTYPE_FLOAT64]  = { "float64", 8, TRUE, 7 },
  [GNN_DTYPE_INT64]    = { "int64", 8, FALSE, 4 },
  [GNN_DTYPE_BOOL]     = { "bool", 1, FALSE, 0 },
  [GNN_DTYPE_UINT8]    = { "uint8", 1, FALSE, 1 },
  [GNN_DTYPE_FLOAT16]  = { "float16", 2, TRUE, 5 },
  [GNN_DTYPE_BFLOAT16] = { "bfloat16", 2, TRUE, 5 },
  [GNN_DTYPE_INT32]    = { "int32", 4, FALSE, 3 },
  [GNN_DTYPE_INT16]    = { "int16", 2, FALSE, 2 },
  [GNN_DTYPE_INT8]     = { "int8", 1, FALSE, 1 },
};
G_STATIC_ASSERT (G_N_ELEMENTS (dtype_info) == GNN_N_DTYPES);

static gboolean
dtype_valid (GnnDtype dtype)
{
  return (guint) dtype < G_N_ELEMENTS (dtype_info);
}

/**
 * gnn_dtype_get_size:
 * @dtype: a dtype
 *
 * Returns the size of one element of @dtype in bytes.
 *
 * Returns: the size of one element of @dtype in bytes
 *
 * MT safe.
 */
gsize
gnn_dtype_get_size (GnnDtype dtype)
{
  g_return_val_if_fail (dtype_valid (dtype), 0);
  return dtype_info[dtype].size;
}

/**
 * gnn_dtype_get_name:
 * @dtype: a dtype
 *
 * Returns PyTorch's name of @dtype without the `torch.` prefix, such as "float32".
 *
 * Returns: PyTorch's name of @dtype without the `torch.` prefix, such as "float32"
 *
 * MT safe.
 */
const char *
gnn_dtype_get_name (GnnDtype dtype)
{
  g_return_val_if_fail (dtype_valid (dtype), NULL);
  return dtype_info[dtype].name;
}

/**
 * gnn_dtype_is_floating:
 * @dtype: a dtype
 *
 * Checks whether @dtype is a floating-point type (`torch.is_floating_point`).
 *
 * Returns: whether @dtype is a floating-point type (`torch.is_floating_point`)
 *
 * MT safe.
 */
gboolean
gnn_dtype_is_floating (GnnDtype dtype)
{
  g_return_val_if_fail (dtype_valid (dtype), FALSE);
  return dtype_info[dtype].floating;
}

/**
 * gnn_dtype_from_name:
 * @name: a name such as "float32", "float", "double", "long", "int64", "int", "short", "bool",
 *   "uint8", "half"
 * @out_dtype: (out): the dtype
 * @error: return location for a #GError
 *
 * Parses a dtype name, accepting PyTorch's names and aliases, with or without `torch.`.
 *
 * Returns: %TRUE on success
 *
 * MT safe.
 */
gboolean
gnn_dtype_from_name (const char *name,
                     GnnDtype   *out_dtype,
                     GError    **error)
{
  static const struct { const char *alias; GnnDtype dtype; } aliases[] = {
    { "float", GNN_DTYPE_FLOAT32 }, { "double", GNN_DTYPE_FLOAT64 }, { "long", GNN_DTYPE_INT64 },
    { "half", GNN_DTYPE_FLOAT16 }, { "int", GNN_DTYPE_INT32 }, { "short", GNN_DTYPE_INT16 },
  };

  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (out_dtype != NULL, FALSE);

  if (g_str_has_prefix (name, "torch."))
    name += 6;
  for (guint i = 0; i < G_N_ELEMENTS (dtype_info); i++)
    if (g_str_equal (name, dtype_info[i].name))
      {
        *out_dtype = (GnnDtype) i;
        return TRUE;
      }
  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (g_str_equal (name, aliases[i].alias))
      {
        *out_dtype = aliases[i].dtype;
        return TRUE;
      }
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
               "Unknown dtype '%s': expected one of float32, float64, int64, bool, uint8, float16, bfloat16, "
               "int32, int16, int8",
               name);
  return FALSE;
}

/**
 * gnn_dtype_promote:
 * @a: a dtype
 * @b: another dtype
 *
 * The result dtype of a binary operation between tensors of dtypes @a and @b, following
 * PyTorch's type promotion (`torch.promote_types`): bool < uint8 / int8 < int16 < int32 <
 * int64 < float16 / bfloat16 < float32 < float64, where uint8 with int8 gives int16 (the
 * smallest type holding both ranges) and float16 with bfloat16 gives float32.
 *
 * Returns: the promoted dtype
 *
 * MT safe.
 */
GnnDtype
gnn_dtype_promote (GnnDtype a,
                   GnnDtype b)
{
  g_return_val_if_fail (dtype_valid (a) && dtype_valid (b), GNN_DTYPE_FLOAT32);
  if (a == b)
    return a;
  if ((a == GNN_DTYPE_FLOAT16 && b == GNN_DTYPE_BFLOAT16) ||
      (a == GNN_DTYPE_BFLOAT16 && b == GNN_DTYPE_FLOAT16))
    return GNN_DTYPE_FLOAT32;
  if ((a == GNN_DTYPE_UINT8 && b == GNN_DTYPE_INT8) || (a == GNN_DTYPE_INT8 && b == GNN_DTYPE_UINT8))
    return GNN_DTYPE_INT16;
  return dtype_info[a].rank >= dtype_info[b].rank ? a : b;
}
