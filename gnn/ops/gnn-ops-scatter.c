/* gnn-ops-scatter.c: writing into a copy of a tensor at indices: scatter, scatter_add and
 * scatter_reduce (an index per element, along a dim), index_copy and index_fill (an index per
 * slice of a dim)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One mechanism: scatter_into runs the SCATTER_ADD or SCATTER_REDUCE kernel on the part of a
 * contiguous result that the index covers; index_copy and index_fill expand their index of
 * slices to one index per element and scatter the same way. The backward formulas are written
 * with these ops, gather, where and arithmetic, so that they can be differentiated again.
 */
#include "config.h"

#include <string.h>

#include "gnn-ops-private.h"

#define NEEDS(j) (node->edges[(j)].node != NULL)

typedef enum {
  REDUCE_NONE,    /* scatter and the index ops: the value replaces the one in place */
  REDUCE_SUM,
  REDUCE_PROD,
  REDUCE_MEAN,
  REDUCE_AMAX,
  REDUCE_AMIN,
} Reduce;

static const char *const reduce_names[] = { "none", "sum", "prod", "mean", "amax", "amin" };

/* @t as a view without history of at least one dimension (a 0-dim tensor as [1]) */
static GnnTensor *
at_least_1d (GnnTensor *t)
{
  static const gint64 one = 1;
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  if (p->ndim > 0)
    return gnn_tensor_new_view (t, p->ndim, p->shape, p->strides, p->offset);
  return gnn_tensor_new_view (t, 1, &one, &one, p->offset);
}

/* Writes @src (of at least @index's shape) into @out (contiguous, without history, as many
 * dims as @index) at @index along @dim with the kernel @op: SCATTER_ADD, or SCATTER_REDUCE
 * combining as @kreduce says. Only the part of @out that @index covers (@index's sizes, @out's
 * along @dim) goes through the kernel. */
static gboolean
scatter_into (GnnTensor *out, guint dim, GnnTensor *index, GnnTensor *src, GnnBackendOp op, int kreduce,
              GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (out), *ip = gnn_tensor_priv (index), *sp = gnn_tensor_priv (src);
  guint nd = p->ndim;
  gint64 cover[GNN_MAX_DIMS], outer, size, inner, n_index = ip->shape[dim];
  g_autoptr(GnnTensor) sv = NULL, s = NULL, idx = NULL, view = NULL, part = NULL;

  memcpy (cover, ip->shape, sizeof (gint64) * nd);
  cover[dim] = p->shape[dim];
  gnn_layout_around (nd, cover, dim, &outer, &size, &inner);
  if (outer * inner * n_index == 0)
    return TRUE;
  sv = gnn_tensor_new_view (src, nd, ip->shape, sp->strides, sp->offset);
  if (!(s = gnn_tensor_contiguous_as (sv, p->dtype, error)) ||
      !(idx = gnn_tensor_contiguous_as (index, GNN_DTYPE_INT64, error)))
    return FALSE;
  if (memcmp (cover, p->shape, sizeof (gint64) * nd) == 0)
    return gnn_run_index_kernel (op, kreduce, out, s, idx, outer, size, inner, n_index, error);
  view = gnn_tensor_new_view (out, nd, cover, p->strides, p->offset);
  if (!(part = gnn_tensor_clone_contiguous (view, p->dtype, error)) ||
      !gnn_run_index_kernel (op, kreduce, part, s, idx, outer, size, inner, n_index, error))
    return FALSE;
  return gnn_tensor_copy_into (view, part, error);
}

/* How many values meet at each place of @like's shape (at least one dimension) in @dtype: the
 * entries of @index along @dim that hit it, plus one where @include_self; at least one (the
 * divisor of a mean). No history. */
static GnnTensor *
scatter_count (GnnTensor *like, guint dim, GnnTensor *index, gboolean include_self, GnnDtype dtype, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (like), *ip = gnn_tensor_priv (index);
  const char *device = gnn_tensor_get_device (like);
  g_autoptr(GnnTensor) count = NULL, ones = NULL;

  if (!(count = gnn_tensor_new_full (p->shape, p->ndim, include_self ? 1 : 0, dtype, device, error)) ||
      !(ones = gnn_tensor_new_full (ip->shape, ip->ndim, 1, dtype, device, error)) ||
      !scatter_into (count, dim, index, ones, GNN_BACKEND_OP_SCATTER_ADD, 0, error))
    return NULL;
  return gnn_tensor_clamp_min (count, 1, error);
}

/* @sum / @count, rounded down for integers as torch's scatter_reduce mean does (no history) */
static GnnTensor *
divide_mean (GnnTensor *sum, GnnTensor *count, GError **error)
{
  GnnDtype dt = gnn_tensor_priv (sum)->dtype;
  GnnTensor *ops[2] = { sum, count };
  g_autoptr(GnnTensor) q = NULL, back = NULL, over = NULL, over_n = NULL;

  if (!(q = gnn_elementwise ("scatter_reduce", GNN_BACKEND_OP_DIV, ops, 2, dt, dt, NULL, error)))
    return NULL;
  if (gnn_dtype_is_floating (dt))
    return g_steal_pointer (&q);
  /* the kernel truncates: one less where that rounded a negative quotient up (count > 0) */
  if (!(back = gnn_tensor_mul (q, count, error)) || !(over = gnn_tensor_gt (back, sum, error)) ||
      !(over_n = gnn_tensor_cast (over, dt, error)))
    return NULL;
  return gnn_tensor_sub (q, over_n, 1, error);
}

/* The scatter (REDUCE_NONE) or scatter_reduce of @src into a copy of @self: contiguous, in
 * @self's compute dtype, without history; all three at least one-dimensional and checked.
 * Without @include_self the places hit start from the reduction's identity (amax and amin:
 * from one of the values that meet there). */
static GnnTensor *
scatter_compute (GnnTensor *self, guint dim, GnnTensor *index, GnnTensor *src, Reduce reduce,
                 gboolean include_self, GError **error)
{
  GnnTensorPrivate *ip = gnn_tensor_priv (index);
  GnnDtype compute = gnn_compute_dtype (gnn_tensor_priv (self)->dtype);
  g_autoptr(GnnTensor) out = NULL, first = NULL, count = NULL;
  GnnBackendOp op = GNN_BACKEND_OP_SCATTER_REDUCE;
  int kreduce = GNN_KERNEL_SCATTER_REPLACE;

  switch (reduce)
    {
    case REDUCE_SUM:
    case REDUCE_MEAN: op = GNN_BACKEND_OP_SCATTER_ADD; break;
    case REDUCE_PROD: kreduce = GNN_KERNEL_SCATTER_PROD; break;
    case REDUCE_AMAX: kreduce = GNN_KERNEL_SCATTER_AMAX; break;
    case REDUCE_AMIN: kreduce = GNN_KERNEL_SCATTER_AMIN; break;
    case REDUCE_NONE: break;
    }
  if (!(out = gnn_tensor_clone_contiguous (self, compute, error)))
    return NULL;
  if (!include_self && reduce != REDUCE_NONE)
    {
      if (reduce == REDUCE_AMAX || reduce == REDUCE_AMIN)
        first = g_object_ref (src);
      else if (!(first = gnn_tensor_new_full (ip->shape, ip->ndim, reduce == REDUCE_PROD ? 1 : 0, compute,
                                              gnn_tensor_get_device (self), error)))
        return NULL;
      if (!scatter_into (out, dim, index, first, GNN_BACKEND_OP_SCATTER_REDUCE, GNN_KERNEL_SCATTER_REPLACE, error))
        return NULL;
    }
  if (!scatter_into (out, dim, index, src, op, kreduce, error))
    return NULL;
  if (reduce != REDUCE_MEAN)
    return g_steal_pointer (&out);
  if (!(count = scatter_count (out, dim, index, include_self, compute, error)))
    return NULL;
  return divide_mean (out, count, error);
}

/* Checks scatter's operands as torch 1.13 does (@src NULL for the value form) and
 * normalizes @dim into @d: an int64 index with as many dims as self and src, no larger than
 * src anywhere nor than self but along @d, its entries in [0, size of self along @d). */
static gboolean
scatter_check (const char *op, GnnTensor *self, int dim, GnnTensor *index, GnnTensor *src, guint *d, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self), *ip = gnn_tensor_priv (index);
  GnnTensorPrivate *sp = src ? gnn_tensor_priv (src) : NULL;
  guint nd = MAX (p->ndim, 1);

  if (!gnn_check_index_dtype (op, index, FALSE, error))
    return FALSE;
  if (sp && sp->dtype != p->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s(): Expected self.dtype to be equal to src.dtype (got %s and %s)",
                   op, gnn_dtype_get_name (p->dtype), gnn_dtype_get_name (sp->dtype));
      return FALSE;
    }
  if (!gnn_normalize_dim (dim, p->ndim, d, error))
    return FALSE;
  if (MAX (ip->ndim, 1) != nd || (sp && MAX (sp->ndim, 1) != nd))
    {
      gboolean vs_self = MAX (ip->ndim, 1) != nd;
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s(): Index tensor must have the same number of dimensions as %s tensor (got %u and %u)",
                   op, vs_self ? "self" : "src", ip->ndim, vs_self ? p->ndim : sp->ndim);
      return FALSE;
    }
  for (guint i = 0; i < ip->ndim; i++)
    if ((i != *d && ip->shape[i] > (p->ndim ? p->shape[i] : 1)) ||
        (sp && ip->shape[i] > (sp->ndim ? sp->shape[i] : 1)))
      {
        g_autofree char *is = gnn_shape_to_string (ip->ndim, ip->shape);
        g_autofree char *ss = gnn_shape_to_string (p->ndim, p->shape);
        g_autofree char *rs = sp ? gnn_shape_to_string (sp->ndim, sp->shape) : NULL;
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "%s(): Expected index %s to be smaller than self %s apart from dimension %u%s%s",
                     op, is, ss, *d, sp ? " and to be smaller size than src " : "", sp ? rs : "");
        return FALSE;
      }
  if (!gnn_check_same_device (op, self, index, error) || (src && !gnn_check_same_device (op, self, src, error)))
    return FALSE;
  return gnn_check_index_bounds (op, index, *d, p->ndim ? p->shape[*d] : 1, FALSE, error);
}

/* ---- autograd ----------------------------------------------------------------------- */

typedef struct {
  guint dim;
  Reduce reduce;
  gboolean include_self;
  gboolean sums;       /* index_fill's value: src's gradient summed over the places */
} ScatterCtx;

static GnnTensor *scatter_reduce (GnnTensor *self, guint dim, GnnTensor *index, GnnTensor *src, Reduce reduce,
                                  gboolean include_self, const char *grad_fn, GError **error);

/* @t narrowed to @index's shape (a recorded op where @t has history) */
static GnnTensor *
narrow_to (GnnTensor *t, GnnTensor *index, GError **error)
{
  GnnTensorPrivate *ip = gnn_tensor_priv (index);
  GnnTensor *cur = g_object_ref (t);

  for (guint i = 0; i < ip->ndim && cur; i++)
    if (gnn_tensor_priv (cur)->shape[i] != ip->shape[i])
      {
        GnnTensor *next = gnn_tensor_narrow (cur, (int) i, 0, ip->shape[i], error);
        g_object_unref (cur);
        cur = next;
      }
  return cur;
}

/* A bool mask as a tensor of @like's dtype (no history: a mask has no gradient) */
static GnnTensor *
mask_as (GnnTensor *mask, GnnTensor *like, GError **error)
{
  return gnn_tensor_cast (mask, gnn_tensor_priv (like)->dtype, error);
}

/* amax / amin: the gradient shared evenly among the values equal to the result (self's where
 * it is one, and every src value scattered to that place) */
static gboolean
extreme_backward (GnnNode *node, GnnTensor *g, GnnTensor *index, GnnTensor **gself, GnnTensor **gsrc, GError **error)
{
  ScatterCtx *ctx = node->ctx;
  GnnTensor *self, *src, *result;
  g_autoptr(GnnTensor) part = NULL, value = NULL, self_eq = NULL, src_eq = NULL, self_is = NULL, src_is = NULL,
    n = NULL, share = NULL, shared_src = NULL;

  if (!(self = gnn_node_saved (node, 1, error)) || !(src = gnn_node_saved (node, 2, error)) ||
      !(result = gnn_node_saved (node, 3, error)) || !(part = narrow_to (src, index, error)) ||
      !(value = gnn_tensor_gather (result, (int) ctx->dim, index, error)) ||
      !(self_eq = gnn_tensor_eq (self, result, error)) || !(src_eq = gnn_tensor_eq (part, value, error)) ||
      !(self_is = mask_as (self_eq, g, error)) || !(src_is = mask_as (src_eq, g, error)) ||
      !(n = gnn_tensor_scatter_add (self_is, (int) ctx->dim, index, src_is, error)) ||
      !(share = gnn_tensor_div (g, n, error)))
    return FALSE;
  if (NEEDS (0) && !(*gself = gnn_tensor_mul (self_is, share, error)))
    return FALSE;
  if (NEEDS (1) && (!(shared_src = gnn_tensor_gather (share, (int) ctx->dim, index, error)) ||
                    !(*gsrc = gnn_tensor_mul (src_is, shared_src, error))))
    return FALSE;
  return TRUE;
}

/* prod: the product of the other values that meet at a place, computed without dividing by
 * a zero (torch's formula: self's zeros masked to one, and src's single zeros given the
 * product of the rest) */
static gboolean
prod_backward (GnnNode *node, GnnTensor *g, GnnTensor *index, GnnTensor **gself, GnnTensor **gsrc, GError **error)
{
  ScatterCtx *ctx = node->ctx;
  int dim = (int) ctx->dim;
  GnnTensor *self, *src, *result;

  if (!(self = gnn_node_saved (node, 1, error)) || !(src = gnn_node_saved (node, 2, error)) ||
      !(result = gnn_node_saved (node, 3, error)))
    return FALSE;
  if (NEEDS (0))
    {
      g_autoptr(GnnTensor) self_zero = NULL, masked = NULL, excl = NULL, gm = NULL;

      if (!(self_zero = gnn_tensor_eq_scalar (self, 0, error)) ||
          !(masked = gnn_tensor_masked_fill (self, self_zero, 1, error)) ||
          !(excl = scatter_reduce (masked, ctx->dim, index, src, REDUCE_PROD, ctx->include_self,
                                   "ScatterReduceBackward0", error)) ||
          !(gm = gnn_tensor_mul (g, excl, error)) || !(*gself = gnn_tensor_div (gm, masked, error)))
        return FALSE;
    }
  if (NEEDS (1))
    {
      g_autoptr(GnnTensor) part = NULL, zero = NULL, zero_n = NULL, zeros = NULL, hits = NULL, n_zeros = NULL,
        one_zero = NULL, single = NULL, masked = NULL, excl = NULL, ge = NULL, a = NULL, gr = NULL, gra = NULL,
        nonzero = NULL, b = NULL, many = NULL, n_many = NULL;

      if (!(part = narrow_to (src, index, error)) || !(zero = gnn_tensor_eq_scalar (part, 0, error)) ||
          !(zero_n = mask_as (zero, g, error)) ||
          !(zeros = gnn_tensor_new_zeros_like (g, gnn_tensor_priv (g)->dtype, node->in_ndim[0], node->in_shape[0],
                                               error)) ||
          !(hits = gnn_tensor_scatter_add (zeros, dim, index, zero_n, error)) ||
          !(n_zeros = gnn_tensor_gather (hits, dim, index, error)) ||
          !(one_zero = gnn_tensor_eq_scalar (n_zeros, 1, error)) ||
          !(single = gnn_where (zero, one_zero, zero, error)) ||
          !(masked = gnn_tensor_masked_fill (part, single, 1, error)) ||
          !(excl = scatter_reduce (self, ctx->dim, index, masked, REDUCE_PROD, ctx->include_self,
                                   "ScatterReduceBackward0", error)) ||
          !(ge = gnn_tensor_mul (g, excl, error)) || !(a = gnn_tensor_gather (ge, dim, index, error)) ||
          !(gr = gnn_tensor_mul (g, result, error)) || !(gra = gnn_tensor_gather (gr, dim, index, error)) ||
          !(nonzero = gnn_tensor_masked_fill (part, zero, 1, error)) || !(b = gnn_tensor_div (gra, nonzero, error)) ||
          !(*gsrc = gnn_where (single, a, b, error)))
        return FALSE;
      /* two zeros or more at one place: the gradient is right but its derivative is not
       * torch's formula either: refused under create_graph, as torch refuses it */
      if (gnn_is_grad_enabled ())
        {
          GError *local = NULL;
          double n;

          if (!(many = gnn_tensor_gt_scalar (n_zeros, 1, error)) || !(n_many = gnn_tensor_sum_all (many, error)))
            return FALSE;
          n = gnn_tensor_item (n_many, &local);
          if (local != NULL)
            {
              g_propagate_error (error, local);
              return FALSE;
            }
          if (n > 0 && !gnn_check_double_backward (node, &g, error))
            return FALSE;
        }
    }
  return TRUE;
}

/* scatter, scatter_add, scatter_reduce and the index ops that scatter (index_copy,
 * index_fill): the gradient of src is the output's gradient gathered at the index; self's is
 * the output's where self is kept (zero where scatter replaced it), as the reduction says */
static gboolean
scatter_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  ScatterCtx *ctx = node->ctx;
  int dim = (int) ctx->dim;
  GnnTensor *index, *g = go[0];
  gboolean want_src = node->n_inputs > 1 && NEEDS (1);
  g_autoptr(GnnTensor) gself = NULL, gsrc = NULL, count = NULL;

  if (g == NULL)
    return TRUE;
  if (!(index = gnn_node_saved (node, 0, error)))
    return FALSE;
  if (want_src && !ctx->sums && (node->in_ndim[1] != gnn_tensor_priv (index)->ndim ||
                   memcmp (node->in_shape[1], gnn_tensor_priv (index)->shape, sizeof (gint64) * node->in_ndim[1])))
    {
      g_autofree char *is = gnn_shape_to_string (gnn_tensor_priv (index)->ndim, gnn_tensor_priv (index)->shape);
      g_autofree char *ss = gnn_shape_to_string (node->in_ndim[1], node->in_shape[1]);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: the gradient of src is defined where src has the index's shape, got index %s and src %s",
                   gnn_node_get_name (node), is, ss);
      return FALSE;
    }
  switch (ctx->reduce)
    {
    case REDUCE_NONE:
      if (NEEDS (0) && !(gself = gnn_tensor_scatter_value (g, dim, index, 0, NULL, error)))
        return FALSE;
      if (want_src && !(gsrc = gnn_tensor_gather (g, dim, index, error)))
        return FALSE;
      break;
    case REDUCE_SUM:
      gself = g_object_ref (g);
      if (want_src && !(gsrc = gnn_tensor_gather (g, dim, index, error)))
        return FALSE;
      break;
    case REDUCE_MEAN:
      {
        g_autoptr(GnnTensor) g1 = at_least_1d (g);
        g_autoptr(GnnTensor) i1 = at_least_1d (index);
        g_autoptr(GnnTensor) count1 = scatter_count (g1, ctx->dim, i1, ctx->include_self, gnn_tensor_priv (g)->dtype,
                                                     error);
        if (count1 == NULL || !(count = gnn_tensor_reshape (count1, gnn_tensor_priv (g)->shape, gnn_tensor_priv (g)->ndim, error)) ||
            !(gself = gnn_tensor_div (g, count, error)))
          return FALSE;
        if (want_src && !(gsrc = gnn_tensor_gather (gself, dim, index, error)))
          return FALSE;
      }
      break;
    case REDUCE_AMAX:
    case REDUCE_AMIN:
      if (!extreme_backward (node, g, index, &gself, &gsrc, error))
        return FALSE;
      break;
    case REDUCE_PROD:
      if (!prod_backward (node, g, index, &gself, &gsrc, error))
        return FALSE;
      break;
    }
  if (NEEDS (0))
    {
      if (!ctx->include_self && ctx->reduce != REDUCE_NONE)
        {
          GnnTensor *kept = gnn_tensor_scatter_value (gself, dim, index, 0, NULL, error);
          g_clear_object (&gself);
          if (!(gself = kept))
            return FALSE;
        }
      if (!(gi[0] = gnn_tensor_cast (gself, node->in_dtype[0], error)))
        return FALSE;
    }
  if (want_src && ctx->sums)
    {
      g_autoptr(GnnTensor) total = gnn_tensor_sum_all (gsrc, error);
      return total != NULL && (gi[1] = gnn_tensor_cast (total, node->in_dtype[1], error)) != NULL;
    }
  if (want_src)
    gi[1] = g_steal_pointer (&gsrc);
  return TRUE;
}

/* the 1.13 reduce= forms of scatter have no derivative in torch */
static gboolean
not_implemented_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "derivative for aten::scatter is not implemented (scatter with reduce='add' or "
                       "reduce='multiply'; scatter_add and scatter_reduce have one)");
  return FALSE;
}

/* The scatter of @src into @self (checked; @dim normalized), cast to @self's dtype and
 * recorded as @grad_fn with the inputs @self and @grad_src (the tensor src's gradient goes
 * to, summed over the index where @sums; NULL: none); NULL @grad_fn: the NotImplemented node
 * of scatter's reduce forms */
static GnnTensor *
scatter_record (GnnTensor *self, guint dim, GnnTensor *index, GnnTensor *src, GnnTensor *grad_src, Reduce reduce,
                gboolean include_self, gboolean sums, const char *grad_fn, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  g_autoptr(GnnTensor) s1 = at_least_1d (self), i1 = at_least_1d (index), r1 = at_least_1d (src);
  g_autoptr(GnnTensor) computed = NULL, shaped = NULL;
  GnnTensor *inputs[2] = { self, grad_src }, *out;
  guint n_inputs = grad_src ? 2 : 1;
  GnnNode *node;
  ScatterCtx *ctx;

  if (!(computed = scatter_compute (s1, dim, i1, r1, reduce, include_self, error)) ||
      !(shaped = gnn_tensor_reshape (computed, p->shape, p->ndim, error)) ||
      !(out = gnn_tensor_cast (shaped, p->dtype, error)))
    return NULL;
  if (grad_fn == NULL)
    {
      gnn_autograd_record ("NotImplemented", not_implemented_backward, inputs, n_inputs, &out, 1);
      return out;
    }
  node = gnn_autograd_record (grad_fn, scatter_backward, inputs, n_inputs, &out, 1);
  if (node == NULL)
    return out;
  gnn_node_save (node, index);
  if (reduce == REDUCE_PROD || reduce == REDUCE_AMAX || reduce == REDUCE_AMIN)
    {
      gnn_node_save (node, self);
      gnn_node_save (node, src);
      gnn_node_save (node, out);
    }
  ctx = g_new (ScatterCtx, 1);
  ctx->dim = dim;
  ctx->reduce = reduce;
  ctx->include_self = include_self;
  ctx->sums = sums;
  gnn_node_set_ctx (node, ctx, g_free);
  return out;
}

/* scatter_record of a src that is also the input its gradient goes to */
static GnnTensor *
scatter_reduce (GnnTensor *self, guint dim, GnnTensor *index, GnnTensor *src, Reduce reduce,
                gboolean include_self, const char *grad_fn, GError **error)
{
  return scatter_record (self, dim, index, src, src, reduce, include_self, FALSE, grad_fn, error);
}

/* ---- scatter, scatter_add, scatter_reduce ------------------------------------------- */

/* scatter's reduce argument: NULL (replace), "add" or "multiply" */
static gboolean
scatter_mode (const char *reduce, Reduce *mode, GError **error)
{
  if (reduce == NULL)
    *mode = REDUCE_NONE;
  else if (g_str_equal (reduce, "add"))
    *mode = REDUCE_SUM;
  else if (g_str_equal (reduce, "multiply"))
    *mode = REDUCE_PROD;
  else
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "scatter(): reduce argument must be either add or multiply, got '%s'", reduce);
      return FALSE;
    }
  return TRUE;
}

/**
 * gnn_tensor_scatter:
 * @self: a tensor
 * @dim: the dimension to index
 * @index: an int64 tensor with as many dimensions as @self, no larger than @src in any
 *   dimension nor than @self in any but @dim, each entry in [0, size of @dim)
 * @src: the values written, of @self's dtype, at least as large as @index in every dimension
 * @reduce: (nullable): %NULL to replace, or "add" or "multiply" (torch 1.13's `reduce=`
 *   forms, which have no gradient, as in torch)
 * @error: return location for a #GError
 *
 * A copy of @self with @src written at @index along @dim (`torch.scatter (self, dim, index,
 * src, reduce=None)`): out[index[i][j][k]][j][k] = src[i][j][k] for @dim 0, where only the
 * part of @src that @index covers is read. Where several entries of @index name one place,
 * the last one's value stays (torch leaves it undefined). An index out of range is an error
 * naming it, the dimension and its size. The gradient goes to @src where it was written and
 * to @self where it was kept.
 *
 * Returns: (transfer full): the scattered copy, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_scatter (GnnTensor *self, int dim, GnnTensor *index, GnnTensor *src, const char *reduce, GError **error)
{
  Reduce mode;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (index), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (src), NULL);
  if (!scatter_mode (reduce, &mode, error) || !scatter_check ("scatter", self, dim, index, src, &d, error))
    return NULL;
  return scatter_reduce (self, d, index, src, mode, TRUE, reduce ? NULL : "ScatterBackward0", error);
}

/**
 * gnn_tensor_scatter_value:
 * @self: a tensor
 * @dim: the dimension to index
 * @index: an int64 tensor with as many dimensions as @self, no larger than @self in any
 *   dimension but @dim, each entry in [0, size of @dim)
 * @value: the value written (cast to @self's dtype)
 * @reduce: (nullable): %NULL to replace, or "add" or "multiply"
 * @error: return location for a #GError
 *
 * [method@Gnn.Tensor.scatter] with one value written at every index (`torch.scatter (self,
 * dim, index, value)`, `ScatterBackward1`).
 *
 * Returns: (transfer full): the scattered copy, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_scatter_value (GnnTensor *self, int dim, GnnTensor *index, double value, const char *reduce,
                          GError **error)
{
  g_autoptr(GnnTensor) vt = NULL, src = NULL;
  GnnTensorPrivate *p;
  Reduce mode;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (index), NULL);
  p = gnn_tensor_priv (self);
  if (!scatter_mode (reduce, &mode, error) || !scatter_check ("scatter", self, dim, index, NULL, &d, error))
    return NULL;
  /* the value in self's dtype first (an int64 self takes 2.7 as 2), as a src of the index's
   * shape that needs no gradient */
  if (!(vt = gnn_tensor_new_scalar (value, p->dtype, gnn_tensor_get_device (self), error)) ||
      !(src = gnn_tensor_new_full (gnn_tensor_priv (index)->shape, gnn_tensor_priv (index)->ndim,
                                   gnn_tensor_item (vt, NULL), p->dtype, gnn_tensor_get_device (self), error)))
    return NULL;
  return scatter_record (self, d, index, src, NULL, mode, TRUE, FALSE, reduce ? NULL : "ScatterBackward1", error);
}

/**
 * gnn_tensor_scatter_add:
 * @self: a tensor
 * @dim: the dimension to index
 * @index: an int64 tensor as for [method@Gnn.Tensor.scatter]
 * @src: the values added, of @self's dtype, at least as large as @index in every dimension
 * @error: return location for a #GError
 *
 * A copy of @self with @src added at @index along @dim (`torch.scatter_add (self, dim, index,
 * src)`): out[index[i][j][k]][j][k] += src[i][j][k] for @dim 0; values that meet at one
 * place all add up, in index order. An index out of range is an error naming it.
 *
 * Returns: (transfer full): the sums, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_scatter_add (GnnTensor *self, int dim, GnnTensor *index, GnnTensor *src, GError **error)
{
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (index), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (src), NULL);
  if (!scatter_check ("scatter_add", self, dim, index, src, &d, error))
    return NULL;
  return scatter_reduce (self, d, index, src, REDUCE_SUM, TRUE, "ScatterAddBackward0", error);
}

/**
 * gnn_tensor_scatter_reduce:
 * @self: a tensor
 * @dim: the dimension to index
 * @index: an int64 tensor as for [method@Gnn.Tensor.scatter]
 * @src: the values reduced, of @self's dtype, at least as large as @index in every dimension
 * @reduce: "sum", "prod", "mean", "amax" or "amin"
 * @include_self: whether @self's value at a place takes part in its reduction
 * @error: return location for a #GError
 *
 * A copy of @self where every place that @index names holds the reduction of the @src values
 * scattered to it, with @self's value there when @include_self (`torch.scatter_reduce (self,
 * dim, index, src, reduce, include_self=True)`); places no index names keep @self's value.
 * An integer mean rounds down, as torch's. amax and amin share the gradient evenly among the
 * values equal to the result; prod's gradient is the product of the other values, zeros
 * included.
 *
 * Returns: (transfer full): the reductions, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_scatter_reduce (GnnTensor  *self,
                           int         dim,
                           GnnTensor  *index,
                           GnnTensor  *src,
                           const char *reduce,
                           gboolean    include_self,
                           GError    **error)
{
  Reduce mode = REDUCE_NONE;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (index), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (src), NULL);
  g_return_val_if_fail (reduce != NULL, NULL);
  for (guint k = REDUCE_SUM; k < G_N_ELEMENTS (reduce_names); k++)
    if (g_str_equal (reduce, reduce_names[k]))
      mode = (Reduce) k;
  if (mode == REDUCE_NONE)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "scatter_reduce(): reduce argument must be either sum, prod, mean, amax or amin, got '%s'",
                   reduce);
      return NULL;
    }
  if (!scatter_check ("scatter_reduce", self, dim, index, src, &d, error))
    return NULL;
  return scatter_reduce (self, d, index, src, mode, include_self, "ScatterReduceBackward0", error);
}

/* ---- index_copy, index_fill --------------------------------------------------------- */

/* Checks the index of index_copy and index_fill: int64, of at most one dimension, its
 * entries in range along @dim of @self (counting from the end where negative, for @wraps) */
static gboolean
index_check (const char *op, GnnTensor *self, int dim, GnnTensor *index, gboolean wraps, guint *d, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self), *ip = gnn_tensor_priv (index);

  if (!gnn_check_index_dtype (op, index, FALSE, error))
    return FALSE;
  if (ip->ndim > 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s(): Index has to be a vector or a scalar, got %u dimensions",
                   op, ip->ndim);
      return FALSE;
    }
  if (!gnn_normalize_dim (dim, p->ndim, d, error) || !gnn_check_same_device (op, self, index, error))
    return FALSE;
  return gnn_check_index_bounds (op, index, *d, p->ndim ? p->shape[*d] : 1, wraps, error);
}

/* The index of slices along @dim as one index per element of @self's shape (at least one
 * dimension) with @dim of the index's size: [1, .., n, .., 1] expanded, negative entries
 * counted from the end; the shape in @shape. No history. */
static GnnTensor *
slice_index (GnnTensor *self, guint dim, GnnTensor *index, gint64 *shape, GError **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_autoptr(GnnTensor) s1 = at_least_1d (self);
  GnnTensorPrivate *p = gnn_tensor_priv (s1);
  gint64 vshape[GNN_MAX_DIMS], size = p->shape[dim];
  g_autoptr(GnnTensor) neg = NULL, wrapped = NULL, fixed = NULL, v = NULL, e = NULL;

  for (guint i = 0; i < p->ndim; i++)
    {
      vshape[i] = i == dim ? gnn_tensor_get_numel (index) : 1;
      shape[i] = i == dim ? vshape[i] : p->shape[i];
    }
  if (!(neg = gnn_tensor_lt_scalar (index, 0, error)) || !(wrapped = gnn_tensor_add_scalar (index, (double) size, error)) ||
      !(fixed = gnn_where (neg, wrapped, index, error)) || !(v = gnn_tensor_reshape (fixed, vshape, p->ndim, error)) ||
      !(e = gnn_tensor_expand (v, shape, p->ndim, error)))
    return NULL;
  return gnn_tensor_contiguous_as (e, GNN_DTYPE_INT64, error);
}

/**
 * gnn_tensor_index_copy:
 * @self: a tensor
 * @dim: the dimension to index
 * @index: an int64 tensor of at most one dimension: the slices of @self along @dim written,
 *   each in [0, size of @dim)
 * @source: the slices written, of @self's dtype and shape but along @dim, where it has as
 *   many entries as @index
 * @error: return location for a #GError
 *
 * A copy of @self with slice @index[i] along @dim replaced by slice i of @source
 * (`torch.index_copy (self, dim, index, source)`); where an index repeats, the last slice
 * stays. An index out of range is an error naming it, the dimension and its size.
 *
 * Returns: (transfer full): the copy, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_index_copy (GnnTensor *self, int dim, GnnTensor *index, GnnTensor *source, GError **error)
{
  GnnTensorPrivate *p, *sp;
  gint64 shape[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) idx = NULL;
  gint64 n;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (index), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (source), NULL);
  p = gnn_tensor_priv (self);
  sp = gnn_tensor_priv (source);
  if (!index_check ("index_copy_", self, dim, index, FALSE, &d, error))
    return NULL;
  if (sp->dtype != p->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "index_copy_(): self and source expected to have the same dtype, but got (self) %s and (source) %s",
                   gnn_dtype_get_name (p->dtype), gnn_dtype_get_name (sp->dtype));
      return NULL;
    }
  if (MAX (sp->ndim, 1) != MAX (p->ndim, 1))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "index_copy_(): When source and destination are not scalars, their dimensionality must match. "
                   "Source dimensionality (%u), destination dimensionality (%u)", sp->ndim, p->ndim);
      return NULL;
    }
  n = gnn_tensor_get_numel (index);
  if ((sp->ndim ? sp->shape[d] : 1) != n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "index_copy_(): Number of indices (%" G_GINT64_FORMAT ") should be equal to source.size(dim) (%"
                   G_GINT64_FORMAT ")", n, sp->ndim ? sp->shape[d] : 1);
      return NULL;
    }
  for (guint i = 0; i < sp->ndim; i++)
    if (i != d && sp->shape[i] != p->shape[i])
      {
        g_autofree char *ss = gnn_shape_to_string (sp->ndim, sp->shape);
        g_autofree char *ds = gnn_shape_to_string (p->ndim, p->shape);
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "index_copy_(): Source/destination tensor must have same slice shapes: source %s and "
                     "destination %s differ at dimension %u", ss, ds, i);
        return NULL;
      }
  if (!gnn_check_same_device ("index_copy_", self, source, error) ||
      !(idx = slice_index (self, d, index, shape, error)))
    return NULL;
  return scatter_record (self, d, idx, source, source, REDUCE_NONE, TRUE, FALSE, "IndexCopyBackward0", error);
}

/* index_fill of @value (a 0-dim tensor of @self's dtype); @grad_value: the input its
 * gradient goes to (NULL for a number) */
static GnnTensor *
index_fill (GnnTensor *self, int dim, GnnTensor *index, GnnTensor *value, GnnTensor *grad_value, GError **error)
{
  gint64 shape[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) idx = NULL, full = NULL;
  guint d;

  if (!index_check ("index_fill_", self, dim, index, TRUE, &d, error) ||
      !(idx = slice_index (self, d, index, shape, error)))
    return NULL;
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    if (!(full = gnn_tensor_expand (value, shape, gnn_tensor_priv (idx)->ndim, error)))
      return NULL;
  }
  return scatter_record (self, d, idx, full, grad_value, REDUCE_NONE, TRUE, TRUE,
                         grad_value ? "IndexFillBackward1" : "IndexFillBackward0", error);
}

/**
 * gnn_tensor_index_fill:
 * @self: a tensor
 * @dim: the dimension to index
 * @index: an int64 tensor of at most one dimension: the slices of @self along @dim filled,
 *   each in [-size, size) of @dim (negative ones count from the end)
 * @value: the value written (cast to @self's dtype)
 * @error: return location for a #GError
 *
 * A copy of @self with the slices at @index along @dim filled with @value
 * (`torch.index_fill (self, dim, index, value)`). An index out of range is an error naming it,
 * the dimension and its size.
 *
 * Returns: (transfer full): the filled copy, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_index_fill (GnnTensor *self, int dim, GnnTensor *index, double value, GError **error)
{
  g_autoptr(GnnTensor) v = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (index), NULL);
  if (!(v = gnn_tensor_new_scalar (value, gnn_tensor_priv (self)->dtype, gnn_tensor_get_device (self), error)))
    return NULL;
  return index_fill (self, dim, index, v, NULL, error);
}

/**
 * gnn_tensor_index_fill_tensor:
 * @self: a tensor
 * @dim: the dimension to index
 * @index: an int64 tensor as for [method@Gnn.Tensor.index_fill]
 * @value: a 0-dim tensor whose value is written
 * @error: return location for a #GError
 *
 * [method@Gnn.Tensor.index_fill] with the value a 0-dim tensor, which gets the sum of the
 * gradient over the filled slices (`IndexFillBackward1`).
 *
 * Returns: (transfer full): the filled copy, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_index_fill_tensor (GnnTensor *self, int dim, GnnTensor *index, GnnTensor *value, GError **error)
{
  g_autoptr(GnnTensor) vd = NULL, v = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (index), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (value), NULL);
  if (gnn_tensor_priv (value)->ndim != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "index_fill_ only supports a 0-dimensional value tensor, but got tensor with %u dimension(s).",
                   gnn_tensor_priv (value)->ndim);
      return NULL;
    }
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    if (!(vd = gnn_tensor_to_device_of (value, self, error)) ||
        !(v = gnn_tensor_cast (vd, gnn_tensor_priv (self)->dtype, error)))
      return NULL;
  }
  return index_fill (self, dim, index, v, value, error);
}
