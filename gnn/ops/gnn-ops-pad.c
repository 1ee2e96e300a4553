/* gnn-ops-pad.c: torch.nn.functional.pad (constant, reflect, replicate, circular), and flip
 * and roll, which read their input the same way
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Constant padding writes the (cropped) input into a tensor filled with the value; its
 * gradient is the constant padding of the gradient by the negated pads, so it differentiates
 * again. The other modes read each output position from one input position along each padded
 * dimension: one int64 index per dimension, applied with the INDEX_SELECT kernel dimension by
 * dimension; the gradient adds back through INDEX_ADD in the reverse order, and that
 * transposed op's own gradient is the forward again, so every backend that has the two index
 * kernels pads, and the padding differentiates to any order. flip and roll are the same
 * mechanism with a permutation as each dimension's index.
 */

#include "config.h"

#include <string.h>

#include "gnn-ops-private.h"

#define NEEDS(j) (node->edges[(j)].node != NULL)

typedef enum {
  PAD_CONSTANT,
  PAD_REFLECT,
  PAD_REPLICATE,
  PAD_CIRCULAR,
} PadMode;

static const char *const pad_mode_names[] = { "constant", "reflect", "replicate", "circular" };

/* ---- constant --------------------------------------------------------------------------- */

typedef struct {
  guint n_pad;
  gint64 pad[2 * GNN_MAX_DIMS];
} ConstantPadCtx;

static GnnTensor *constant_pad (GnnTensor *self, const gint64 *pad, guint n_pad, double value, GError **error);

/* the gradient is the padding of the gradient by the negated pads: the padded borders cut
 * off, the cropped ones given back as zeros */
static gboolean
constant_pad_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  ConstantPadCtx *ctx = node->ctx;
  gint64 neg[2 * GNN_MAX_DIMS];

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  for (guint i = 0; i < ctx->n_pad; i++)
    neg[i] = -ctx->pad[i];
  gi[0] = constant_pad (go[0], neg, ctx->n_pad, 0.0, error);
  return gi[0] != NULL;
}

/* @self with its last n_pad / 2 dimensions padded (pads checked: a pair per dimension from the
 * last, each crop no longer than the dimension) */
static GnnTensor *
constant_pad (GnnTensor *self, const gint64 *pad, guint n_pad, double value, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  gint64 shape[GNN_MAX_DIMS], src_shape[GNN_MAX_DIMS], src_off = p->offset, dst_off = 0;
  gint64 dst_strides[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) out = NULL;
  GnnNode *node;

  memcpy (shape, p->shape, sizeof shape);
  memcpy (src_shape, p->shape, sizeof src_shape);
  for (guint k = 0; k < n_pad / 2; k++)
    {
      guint d = p->ndim - 1 - k;
      gint64 l = pad[2 * k], r = pad[2 * k + 1];

      shape[d] = p->shape[d] + l + r;
      src_shape[d] = p->shape[d] - MAX (-l, 0) - MAX (-r, 0);
      src_off += MAX (-l, 0) * p->strides[d];
    }
  if (!(out = gnn_tensor_new_like (self, p->dtype, p->ndim, shape, error)) ||
      !gnn_tensor_fill_kernel (out, value, error))
    return NULL;
  gnn_contiguous_strides (p->ndim, shape, dst_strides);
  for (guint k = 0; k < n_pad / 2; k++)
    dst_off += MAX (pad[2 * k], 0) * dst_strides[p->ndim - 1 - k];
  if (gnn_shape_numel (p->ndim, src_shape) > 0)
    {
      g_autoptr(GnnTensor) src = gnn_tensor_new_view (self, p->ndim, src_shape, p->strides, src_off);
      g_autoptr(GnnTensor) dst = gnn_tensor_new_view (out, p->ndim, src_shape, dst_strides, dst_off);

      if (!gnn_tensor_copy_into (dst, src, error))
        return NULL;
    }
  node = gnn_autograd_record ("ConstantPadNdBackward0", constant_pad_backward, &self, 1, &out, 1);
  if (node)
    {
      ConstantPadCtx *ctx = g_new0 (ConstantPadCtx, 1);

      ctx->n_pad = n_pad;
      memcpy (ctx->pad, pad, n_pad * sizeof (gint64));
      gnn_node_set_ctx (node, ctx, g_free);
    }
  return g_steal_pointer (&out);
}

/* ---- reflect, replicate, circular: an index per padded dimension ----------------------- */

typedef struct {
  guint n;                        /* the dimensions read through an index */
  guint dims[GNN_MAX_DIMS];       /* which, in the order they are read */
  gint64 in_size[GNN_MAX_DIMS];   /* each one's size in the input */
  GnnTensor *index[GNN_MAX_DIMS]; /* where each output position reads, int64, output-sized */
  const char *name[2];            /* the nodes of the op and of its transpose (static) */
} ReindexPlan;

static void
reindex_plan_clear (gpointer data)
{
  ReindexPlan *plan = data;

  for (guint k = 0; k < plan->n; k++)
    g_clear_object (&plan->index[k]);
}

static void
reindex_plan_release (gpointer data)
{
  g_rc_box_release_full (data, reindex_plan_clear);
}

static GnnTensor *reindex (GnnTensor *x, ReindexPlan *plan, gboolean transpose, GError **error);

/* Adds dimension @d (of size @in in the input) read at the @len positions @src to @plan,
 * the index on @like's device. */
static gboolean
reindex_plan_add (ReindexPlan *plan, guint d, gint64 in, const gint64 *src, gint64 len, GnnTensor *like,
                  GError **error)
{
  g_autoptr(GnnTensor) host = gnn_tensor_new_from_int64s (src, len, &len, 1, error);
  guint k = plan->n;

  if (host == NULL || !(plan->index[k] = gnn_tensor_to_device_of (host, like, error)))
    return FALSE;
  plan->dims[k] = d;
  plan->in_size[k] = in;
  plan->n++;
  return TRUE;
}

/* the op's gradient is its transpose, and the transpose's the op */
static gboolean
reindex_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  gi[0] = reindex (go[0], node->ctx, TRUE, error);
  return gi[0] != NULL;
}

static gboolean
reindex_transpose_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  gi[0] = reindex (go[0], node->ctx, FALSE, error);
  return gi[0] != NULL;
}

/* Reads @x by @plan (@transpose: the transposed op, which adds @x, shaped as the result,
 * back into the input's shape), recording a node whose gradient is the other of the two. */
static GnnTensor *
reindex (GnnTensor *x, ReindexPlan *plan, gboolean transpose, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (x);
  GnnDtype compute = gnn_compute_dtype (p->dtype);
  gint64 shape[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) cur = NULL;
  GnnTensor *out;
  GnnNode *node;

  if (!(cur = gnn_tensor_contiguous_as (x, compute, error)))
    return NULL;
  memcpy (shape, p->shape, sizeof shape);
  for (guint j = 0; j < plan->n; j++)
    {
      /* forward: the plan's order; transposed: the reverse */
      guint k = transpose ? plan->n - 1 - j : j;
      guint d = plan->dims[k];
      gint64 outer, size, inner, n_index = gnn_tensor_get_numel (plan->index[k]);
      g_autoptr(GnnTensor) next = NULL;

      if (transpose)
        {
          shape[d] = plan->in_size[k];
          if (!(next = gnn_tensor_new_zeros_like (cur, compute, p->ndim, shape, error)))
            return NULL;
          gnn_layout_around (p->ndim, shape, d, &outer, &size, &inner);
          if (outer * inner * n_index > 0 &&
              !gnn_run_index_kernel (GNN_BACKEND_OP_INDEX_ADD, 0, next, cur, plan->index[k], outer, size, inner,
                                     n_index, error))
            return NULL;
        }
      else
        {
          gnn_layout_around (p->ndim, shape, d, &outer, &size, &inner);
          shape[d] = n_index;
          if (!(next = gnn_tensor_new_like (cur, compute, p->ndim, shape, error)))
            return NULL;
          if (outer * inner * n_index > 0 &&
              !gnn_run_index_kernel (GNN_BACKEND_OP_INDEX_SELECT, 0, next, cur, plan->index[k], outer, size, inner,
                                     n_index, error))
            return NULL;
        }
      g_set_object (&cur, next);
    }
  /* a new tensor even when nothing was read (flip of no dimension) */
  out = plan->n ? gnn_tensor_cast (cur, p->dtype, error) : gnn_tensor_clone_contiguous (x, p->dtype, error);
  if (out == NULL)
    return NULL;
  node = gnn_autograd_record (plan->name[transpose ? 1 : 0],
                              transpose ? reindex_transpose_backward : reindex_backward, &x, 1, &out, 1);
  if (node)
    gnn_node_set_ctx (node, g_rc_box_acquire (plan), reindex_plan_release);
  return out;
}

/* Where output position j (of in + l + r) reads along a dimension of @in positions. */
static gint64
pad_source (PadMode mode, gint64 j, gint64 in, gint64 l, gint64 r)
{
  gint64 i = j - l;

  switch (mode)
    {
    case PAD_REFLECT:
      if (i < 0)
        i = -i;
      else if (i >= in)
        i = 2 * (in - 1) - i;
      return i;
    case PAD_REPLICATE:
      return CLAMP (i, 0, in - 1);
    case PAD_CIRCULAR:
      {
        /* as torch: the cropped input wrapped around */
        gint64 start = MAX (-l, 0), kept = in - MAX (-l, 0) - MAX (-r, 0);
        gint64 m = (j - MAX (l, 0)) % kept;

        return start + (m < 0 ? m + kept : m);
      }
    case PAD_CONSTANT:
    default:
      g_assert_not_reached ();
    }
}

/* torch 1.13's checks of a non-constant padding of @self (@n pads, a pair per dimension) */
static gboolean
check_index_pad (GnnTensorPrivate *p, PadMode mode, const gint64 *pad, guint n_pad, GError **error)
{
  guint n = n_pad / 2;
  g_autofree char *shape = gnn_shape_to_string (p->ndim, p->shape);

  if (n < 1 || n > 3 || p->ndim < n + 1 || p->ndim > n + 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "pad(): Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now "
                   "(mode '%s' pads %u dimensions of a %u-dimensional input of %u or %u)",
                   pad_mode_names[mode], n, p->ndim, n + 1, n + 2);
      return FALSE;
    }
  if (mode == PAD_CIRCULAR && p->ndim != n + 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "pad(): Invalid padding size, expected %u but got %u (circular padding of a %u-dimensional "
                   "input pads all but its first two dimensions)", 2 * (p->ndim - 2), n_pad, p->ndim);
      return FALSE;
    }
  /* every dimension but a batch may not be empty */
  for (guint d = p->ndim == n + 2 ? 1 : 0; d < p->ndim; d++)
    if (p->shape[d] == 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "pad(): Expected %uD or %uD (batch mode) tensor with possibly 0 batch size and other non-zero "
                     "dimensions for input, but got: %s (padding mode '%s')", n + 1, n + 2, shape,
                     pad_mode_names[mode]);
        return FALSE;
      }
  for (guint k = 0; k < n; k++)
    {
      guint d = p->ndim - 1 - k;
      gint64 in = p->shape[d], l = pad[2 * k], r = pad[2 * k + 1];
      if (mode == PAD_REFLECT && (l >= in || r >= in))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "pad(): Padding size should be less than the corresponding input dimension, but got: "
                       "padding (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") at dimension %u of input %s",
                       l, r, d, shape);
          return FALSE;
        }
      if (mode == PAD_CIRCULAR && (l > in || r > in))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "pad(): Padding value causes wrapping around more than once: padding (%" G_GINT64_FORMAT
                       ", %" G_GINT64_FORMAT ") at dimension %u of input %s", l, r, d, shape);
          return FALSE;
        }
      if (in + MIN (l, 0) + MIN (r, 0) < (mode == PAD_CIRCULAR ? 0 : 1) ||
          in + l + r < (mode == PAD_CIRCULAR ? 0 : 1))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "pad(): input (size %" G_GINT64_FORMAT " at dimension %u) is too small for padding (%"
                       G_GINT64_FORMAT ", %" G_GINT64_FORMAT "): calculated output size %" G_GINT64_FORMAT,
                       in, d, l, r, in + l + r);
          return FALSE;
        }
    }
  return TRUE;
}

static GnnTensor *
index_pad_of (GnnTensor *self, PadMode mode, const gint64 *pad, guint n_pad, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  /* the node names, static as nodes keep them: [mode - 1][dimensions - 1][transposed] */
  static const char *const names[3][3][2] = {
    { { "ReflectionPad1DBackward0", "ReflectionPad1DBackwardBackward0" },
      { "ReflectionPad2DBackward0", "ReflectionPad2DBackwardBackward0" },
      { "ReflectionPad3DBackward0", "ReflectionPad3DBackwardBackward0" } },
    { { "ReplicationPad1DBackward0", "ReplicationPad1DBackwardBackward0" },
      { "ReplicationPad2DBackward0", "ReplicationPad2DBackwardBackward0" },
      { "ReplicationPad3DBackward0", "ReplicationPad3DBackwardBackward0" } },
    { { "CircularPad1DBackward0", "CircularPad1DBackwardBackward0" },
      { "CircularPad2DBackward0", "CircularPad2DBackwardBackward0" },
      { "CircularPad3DBackward0", "CircularPad3DBackwardBackward0" } },
  };
  ReindexPlan *plan = g_rc_box_new0 (ReindexPlan);
  GnnTensor *out = NULL;

  plan->name[0] = names[mode - 1][n_pad / 2 - 1][0];
  plan->name[1] = names[mode - 1][n_pad / 2 - 1][1];
  for (guint k = 0; k < n_pad / 2; k++)
    {
      gint64 in = p->shape[p->ndim - 1 - k], l = pad[2 * k], r = pad[2 * k + 1], len = MAX (in + l + r, 0);
      g_autofree gint64 *src = g_new (gint64, MAX (len, 1));

      for (gint64 j = 0; j < len; j++)
        src[j] = pad_source (mode, j, in, l, r);
      if (!reindex_plan_add (plan, p->ndim - 1 - k, in, src, len, self, error))
        goto out;
    }
  out = reindex (self, plan, FALSE, error);
out:
  reindex_plan_release (plan);
  return out;
}

/**
 * gnn_tensor_pad:
 * @self: a tensor
 * @pad: (array length=n_pad): pairs of pads (before, after), the first pair for the last
 *   dimension, the next for the one before it, and so on (`pad`); negative pads crop
 * @n_pad: the number of pads: even, at most twice the number of dimensions of @self (at most
 *   6 for the modes other than "constant")
 * @mode: (nullable): "constant" (%NULL is "constant"), "reflect", "replicate" or "circular"
 * @value: the value of the constant padding; the other modes take 0 only
 * @error: return location for a #GError
 *
 * Pads @self as `torch.nn.functional.pad (input, pad, mode, value)`: "constant" fills the
 * border with @value, "reflect" mirrors the input about its edges (without repeating them),
 * "replicate" repeats the edge values and "circular" wraps the input around. Constant
 * padding takes any number of pairs; the others pad 1, 2 or 3 dimensions of an input with
 * one or two dimensions more (a batch and channels, or channels alone; "circular" requires
 * both), as torch 1.13's. The gradient is differentiable again.
 *
 * Returns: (transfer full): the padded tensor, or %NULL with @error set (an odd or too long
 *   @pad, an unknown @mode, pads that crop more than a dimension or reflect past its end)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_pad (GnnTensor    *self,
                const gint64 *pad,
                guint         n_pad,
                const char   *mode,
                double        value,
                GError      **error)
{
  GnnTensorPrivate *p;
  PadMode m = PAD_CONSTANT;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (pad != NULL || n_pad == 0, NULL);
  p = gnn_tensor_priv (self);
  if (mode != NULL)
    {
      guint i;

      for (i = 0; i < G_N_ELEMENTS (pad_mode_names); i++)
        if (strcmp (mode, pad_mode_names[i]) == 0)
          break;
      if (i == G_N_ELEMENTS (pad_mode_names))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "pad(): Unrecognised padding mode %s (expected constant, reflect, replicate or circular)",
                       mode);
          return NULL;
        }
      m = (PadMode) i;
    }
  if (n_pad % 2 != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "pad(): Padding length must be divisible by 2, got %u", n_pad);
      return NULL;
    }
  if (n_pad > 2 * p->ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "pad(): Padding length too large: %u pads for a %u-dimensional input (at most %u)",
                   n_pad, p->ndim, 2 * p->ndim);
      return NULL;
    }
  /* the padded sizes, checked before any mode computes with them: a sum that overflows, and
   * a result whose size overflows (the index modes allocate a source index per element of
   * a padded dimension) */
  {
    gint64 oshape[GNN_MAX_DIMS];

    memcpy (oshape, p->shape, p->ndim * sizeof (gint64));
    for (guint k = 0; k < n_pad / 2; k++)
      {
        guint d = p->ndim - 1 - k;
        gint64 l = pad[2 * k], r = pad[2 * k + 1];

        if (__builtin_add_overflow (p->shape[d], l, &oshape[d]) ||
            __builtin_add_overflow (oshape[d], r, &oshape[d]))
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                         "pad(): the padded size of dimension %u (%" G_GINT64_FORMAT " + %" G_GINT64_FORMAT
                         " + %" G_GINT64_FORMAT ") overflows int64", d, p->shape[d], l, r);
            return NULL;
          }
        oshape[d] = MAX (oshape[d], 0);
      }
    if (!gnn_shape_check ("pad()", p->ndim, oshape, gnn_dtype_get_size (p->dtype), error))
      return NULL;
  }
  if (m == PAD_CONSTANT)
    {
      for (guint k = 0; k < n_pad / 2; k++)
        {
          guint d = p->ndim - 1 - k;
          gint64 l = pad[2 * k], r = pad[2 * k + 1];

          if (p->shape[d] + MIN (l, 0) + MIN (r, 0) < 0)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "pad(): negative padding (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") crops more than "
                           "the size %" G_GINT64_FORMAT " of dimension %u", l, r, p->shape[d], d);
              return NULL;
            }
        }
      return constant_pad (self, pad, n_pad, value, error);
    }
  if (value != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   "pad(): Padding mode \"%s\" doesn't take in value argument (got %g)", pad_mode_names[m], value);
      return NULL;
    }
  if (!check_index_pad (p, m, pad, n_pad, error))
    return NULL;
  return index_pad_of (self, m, pad, n_pad, error);
}

/* ---- flip and roll: permutations along dimensions ---------------------------------------- */

/* @self with each dimension of @dims (negative from the end; @what names the op) reversed,
 * or rolled by @shifts when given (then a dimension may come more than once, as torch's) */
static GnnTensor *
permute_along (GnnTensor      *self,
               const char     *what,
               const char     *name,
               const char     *transposed_name,
               const int      *dims,
               guint           n_dims,
               const gint64   *shifts,
               GError        **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  gboolean seen[GNN_MAX_DIMS] = { FALSE, };
  ReindexPlan *plan;
  GnnTensor *out = NULL;

  for (guint i = 0; i < n_dims; i++)
    {
      guint d;

      if (!gnn_normalize_dim (dims[i], MAX (p->ndim, 1), &d, error))
        return NULL;
      if (seen[d] && shifts == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                       "%s(): dim %u appears multiple times in the list of dims", what, d);
          return NULL;
        }
      seen[d] = TRUE;
    }
  plan = g_rc_box_new0 (ReindexPlan);
  plan->name[0] = name;
  plan->name[1] = transposed_name;
  for (guint i = 0; i < n_dims && p->ndim > 0; i++)
    {
      guint d;
      gint64 size;
      g_autofree gint64 *src = NULL;

      gnn_normalize_dim (dims[i], p->ndim, &d, NULL);
      size = p->shape[d];
      src = g_new (gint64, MAX (size, 1));
      for (gint64 j = 0; j < size; j++)
        {
          /* flip: from the end; roll by s: j comes from j - s, wrapped around */
          gint64 m = shifts ? (j - shifts[i] % size) % size : size - 1 - j;

          src[j] = m < 0 ? m + size : m;
        }
      if (!reindex_plan_add (plan, d, size, src, size, self, error))
        goto out;
    }
  out = reindex (self, plan, FALSE, error);
out:
  reindex_plan_release (plan);
  return out;
}

/**
 * gnn_tensor_flip:
 * @self: a tensor
 * @dims: (array length=n_dims): the dimensions to reverse, each once (negative from the end)
 * @n_dims: the number of dimensions in @dims
 * @error: return location for a #GError
 *
 * @self with the order of the entries along each of @dims reversed (`torch.flip`), a new
 * tensor (not a view, as torch's). The gradient is the flipped gradient.
 *
 * Returns: (transfer full): the flipped tensor, or %NULL with @error set (a dimension out of
 *   range or given twice)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_flip (GnnTensor  *self,
                 const int  *dims,
                 guint       n_dims,
                 GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  return permute_along (self, "flip", "FlipBackward0", "FlipBackwardBackward0", dims, n_dims, NULL, error);
}

/**
 * gnn_tensor_roll:
 * @self: a tensor
 * @shifts: (array length=n_shifts): by how many places each dimension rolls (towards the end
 *   when positive)
 * @n_shifts: the number of shifts
 * @dims: (array length=n_dims) (nullable): the dimensions to roll, one per shift; %NULL or
 *   none rolls the flattened tensor by the one shift and gives it back its shape
 * @n_dims: the number of dimensions in @dims
 * @error: return location for a #GError
 *
 * @self with its entries rolled along @dims (`torch.roll (self, shifts, dims)`): the entries
 * that roll past the end come back at the start. The gradient is the gradient rolled back.
 *
 * Returns: (transfer full): the rolled tensor, or %NULL with @error set (shifts and dims of
 *   different lengths, a dimension out of range or given twice)
 *
 * Since: 0.1
 */
typedef struct {
  gint64 shift;
} RollCtx;

/* roll of the flattened tensor: the gradient rolled back the same way */
static gboolean
roll_flat_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  gint64 back = -((RollCtx *) node->ctx)->shift;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  gi[0] = gnn_tensor_roll (go[0], &back, 1, NULL, 0, error);
  return gi[0] != NULL;
}

GnnTensor *
gnn_tensor_roll (GnnTensor    *self,
                 const gint64 *shifts,
                 guint         n_shifts,
                 const int    *dims,
                 guint         n_dims,
                 GError      **error)
{
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (shifts != NULL || n_shifts == 0, NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  p = gnn_tensor_priv (self);
  if (n_dims == 0)
    {
      /* torch: the flattened tensor rolled, given back @self's shape; one node */
      gint64 all = -1;
      const int zero = 0;
      g_autoptr(GnnTensor) flat = NULL, rolled = NULL, out = NULL;
      GnnNode *node;

      if (n_shifts != 1)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "roll(): shifts and dimensions must align. shifts: %u, dims: 0", n_shifts);
          return NULL;
        }
      {
        g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

        if (!(flat = gnn_tensor_reshape (self, &all, 1, error)) ||
            !(rolled = permute_along (flat, "roll", "RollBackward0", "RollBackwardBackward0", &zero, 1, shifts,
                                      error)) ||
            !(out = gnn_tensor_view (rolled, p->shape, p->ndim, error)))
          return NULL;
      }
      node = gnn_autograd_record ("RollBackward0", roll_flat_backward, &self, 1, &out, 1);
      if (node)
        {
          RollCtx *ctx = g_new (RollCtx, 1);

          ctx->shift = shifts[0];
          gnn_node_set_ctx (node, ctx, g_free);
        }
      return g_steal_pointer (&out);
    }
  if (n_shifts != n_dims)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "roll(): shifts and dimensions must align. shifts: %u, dims: %u", n_shifts, n_dims);
      return NULL;
    }
  return permute_along (self, "roll", "RollBackward0", "RollBackwardBackward0", dims, n_dims, shifts, error);
}
