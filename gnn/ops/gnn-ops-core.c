/* gnn-ops-core.c: checks, broadcasting, dtype handling and the elementwise driver
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "gnn-ops-private.h"

gboolean
gnn_check_same_device (const char *op, GnnTensor *a, GnnTensor *b, GError **error)
{
  GnnStorage *sa = gnn_tensor_priv (a)->storage, *sb = gnn_tensor_priv (b)->storage;

  if (G_LIKELY (sa->entry == sb->entry && sa->device == sb->device))
    return TRUE;
  if (g_str_equal (sa->entry->device_type, sb->entry->device_type) && sa->device == sb->device)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DEVICE,
                   "%s: expected all tensors to be on the same backend, but found '%s' and '%s'",
                   op, sa->entry->name, sb->entry->name);
      return FALSE;
    }
  g_set_error (error, GNN_ERROR, GNN_ERROR_DEVICE,
               "%s: expected all tensors to be on the same device, but found at least two devices, %s and %s",
               op, gnn_tensor_get_device (a), gnn_tensor_get_device (b));
  return FALSE;
}

gboolean
gnn_check_floating (const char *op, GnnTensor *t, GError **error)
{
  GnnDtype d = gnn_tensor_priv (t)->dtype;

  if (G_LIKELY (gnn_dtype_is_floating (d)))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
               "%s: expected a floating-point tensor, got %s", op, gnn_dtype_get_name (d));
  return FALSE;
}

gboolean
gnn_broadcast_shapes (const char *op, guint na, const gint64 *sa, guint nb, const gint64 *sb,
                      guint *n_out, gint64 *out, GError **error)
{
  guint n = MAX (na, nb);
  gint64 result[GNN_MAX_DIMS];

  if (n > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: at most %d dimensions", op, GNN_MAX_DIMS);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      gint64 a = i < n - na ? 1 : sa[i - (n - na)];
      gint64 b = i < n - nb ? 1 : sb[i - (n - nb)];
      if (a != b && a != 1 && b != 1)
        {
          g_autofree char *as = gnn_shape_to_string (na, sa);
          g_autofree char *bs = gnn_shape_to_string (nb, sb);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s: the size of tensor a (%" G_GINT64_FORMAT ") must match the size of tensor b (%"
                       G_GINT64_FORMAT ") at non-singleton dimension %u (shapes %s and %s)",
                       op, a, b, i, as, bs);
          return FALSE;
        }
      result[i] = a == 1 ? b : a;
    }
  /* out may alias sa or sb */
  memcpy (out, result, sizeof (gint64) * n);
  *n_out = n;
  return TRUE;
}

void
gnn_kernel_tensor_contiguous (GnnTensor *t, guint ndim, const gint64 *shape, GnnKernelTensor *kt)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  gint64 stride = 1;

  kt->data = gnn_tensor_data_ptr (p);
  kt->dtype = p->dtype;
  kt->ndim = ndim;
  for (guint i = ndim; i-- > 0;)
    {
      kt->shape[i] = shape[i];
      kt->strides[i] = stride;
      stride *= shape[i];
    }
}

void
gnn_kernel_tensor_3d (GnnTensor *t, gint64 d0, gint64 d1, gint64 d2, GnnKernelTensor *kt)
{
  gnn_kernel_tensor_contiguous (t, 3, (const gint64[]) { d0, d1, d2 }, kt);
}

GnnDtype
gnn_compute_dtype (GnnDtype dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_FLOAT16:
    case GNN_DTYPE_BFLOAT16:
      return GNN_DTYPE_FLOAT32;
    case GNN_DTYPE_BOOL:
    case GNN_DTYPE_UINT8:
    case GNN_DTYPE_INT32:
    case GNN_DTYPE_INT16:
    case GNN_DTYPE_INT8:
      return GNN_DTYPE_INT64;
    default:
      return dtype;
    }
}

int
gnn_half_operands (GnnTensor *const *ins, guint n, GnnTensor **f32, GnnDtype *low, GError **error)
{
  GnnDtype half = GNN_DTYPE_FLOAT32;
  gboolean seen = FALSE;

  for (guint i = 0; i < n; i++)
    {
      GnnDtype d;

      if (ins[i] == NULL)
        continue;
      d = gnn_tensor_priv (ins[i])->dtype;
      if ((d != GNN_DTYPE_FLOAT16 && d != GNN_DTYPE_BFLOAT16) || (seen && d != half))
        return 0;
      half = d;
      seen = TRUE;
    }
  if (!seen)
    return 0;
  for (guint i = 0; i < n; i++)
    f32[i] = NULL;
  for (guint i = 0; i < n; i++)
    if (ins[i] && !(f32[i] = gnn_tensor_to_dtype (ins[i], GNN_DTYPE_FLOAT32, error)))
      {
        gnn_half_operands_clear (f32, n);
        return -1;
      }
  *low = half;
  return 1;
}

void
gnn_half_operands_clear (GnnTensor **f32, guint n)
{
  for (guint i = 0; i < n; i++)
    g_clear_object (&f32[i]);
}

GnnTensor *
gnn_half_result (GnnTensor *result, GnnDtype low, GError **error)
{
  GnnTensor *out;

  if (result == NULL)
    return NULL;
  out = gnn_tensor_to_dtype (result, low, error);
  g_object_unref (result);
  return out;
}

/* bool 0, integers 1, floating types 2: the categories of torch.result_type */
static int
dtype_category (GnnDtype dtype)
{
  return dtype == GNN_DTYPE_BOOL ? 0 : gnn_dtype_is_floating (dtype) ? 2 : 1;
}

GnnDtype
gnn_result_dtype (GnnTensor *a, GnnTensor *b)
{
  GnnTensorPrivate *pa = gnn_tensor_priv (a), *pb = gnn_tensor_priv (b);
  GnnDtype dim, zero;

  if ((pa->ndim == 0) == (pb->ndim == 0))
    return gnn_dtype_promote (pa->dtype, pb->dtype);
  dim = pa->ndim > 0 ? pa->dtype : pb->dtype;
  zero = pa->ndim > 0 ? pb->dtype : pa->dtype;
  /* a zero-dimensional tensor only counts when its category (bool < integer < floating) is
   * above the dimensioned one's, as torch.result_type combines them */
  if (dtype_category (zero) > dtype_category (dim))
    return gnn_dtype_promote (dim, zero);
  return dim;
}

GnnTensor *
gnn_sum_to (GnnTensor *grad, guint ndim, const gint64 *shape, GError **error)
{
  GnnTensorPrivate *gp = gnn_tensor_priv (grad);
  int dims[GNN_MAX_DIMS];
  guint n = 0, lead;
  g_autoptr(GnnTensor) summed = NULL;

  if (gp->ndim == ndim && memcmp (gp->shape, shape, sizeof (gint64) * ndim) == 0)
    return g_object_ref (grad);
  lead = gp->ndim - ndim;
  for (guint i = 0; i < gp->ndim; i++)
    if (i < lead || (shape[i - lead] == 1 && gp->shape[i] != 1))
      dims[n++] = (int) i;
  if (n == 0)
    return gnn_tensor_view (grad, shape, ndim, error);
  summed = gnn_tensor_sum (grad, dims, n, TRUE, error);
  if (summed == NULL)
    return NULL;
  return gnn_tensor_reshape (summed, shape, ndim, error);
}

/* Whether @t is a 0-d tensor in host memory: PyTorch lets one be used as a scalar with
 * tensors on any device. */
static gboolean
is_host_scalar (GnnTensor *t)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  return p->ndim == 0 && p->storage->entry->funcs->is_host;
}

/* The 0-d host tensor @t copied to @like's device, for an op on that device. No autograd. */
static GnnTensor *
scalar_to_device_of (GnnTensor *t, GnnTensor *like, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  GnnStorage *ls = gnn_tensor_priv (like)->storage;
  GnnTensor *c = gnn_tensor_new_on (ls->entry, ls->device, p->dtype, 0, NULL, error);
  GnnStorage *cs;

  if (c == NULL)
    return NULL;
  cs = gnn_tensor_priv (c)->storage;
  if (!cs->entry->funcs->copy_from_host (cs->entry->backend, cs->device, cs->data, gnn_tensor_data_ptr (p),
                                         gnn_dtype_get_size (p->dtype), error))
    g_clear_object (&c);
  return c;
}

/* Fills @in with @inputs, where a 0-d host tensor used with tensors on a device that is not
 * host memory is replaced by its copy there (a new reference in @moved); @anchor, when
 * given, is the tensor whose device counts (an output), else the first input that is not
 * such a scalar. */
static gboolean
place_host_scalars (GnnTensor **inputs, guint n, GnnTensor *anchor, GnnTensor **in, GnnTensor **moved,
                    GError **error)
{
  for (guint k = 0; k < n; k++)
    in[k] = inputs[k];
  for (guint k = 0; anchor == NULL && k < n; k++)
    if (!is_host_scalar (inputs[k]))
      anchor = inputs[k];
  if (anchor == NULL || gnn_tensor_priv (anchor)->storage->entry->funcs->is_host)
    return TRUE;
  for (guint k = 0; k < n; k++)
    if (is_host_scalar (inputs[k]))
      {
        if (!(moved[k] = scalar_to_device_of (inputs[k], anchor, error)))
          return FALSE;
        in[k] = moved[k];
      }
  return TRUE;
}

/* Runs @op into @out with the inputs already in @args. */
static gboolean
run_elementwise_kernel (GnnBackendOp           op,
                        GnnTensor             *out,
                        GnnKernelArgs         *args,
                        guint                  n_inputs,
                        const GnnKernelParams *params,
                        GError               **error)
{
  GnnKernelTensor kout;

  gnn_tensor_to_kernel (out, &kout);
  args->op = op;
  args->out = &kout;
  args->n_in = n_inputs;
  if (params)
    args->params = *params;
  return gnn_run_kernel (out, args, error);
}

GnnTensor *
gnn_elementwise (const char   *name,
                 GnnBackendOp  op,
                 GnnTensor   **inputs,
                 guint         n_inputs,
                 GnnDtype      compute,
                 GnnDtype      out_dtype,
                 const GnnKernelParams *params,
                 GError      **error)
{
  gint64 shape[GNN_MAX_DIMS];
  guint ndim;
  GnnTensor *cast[3] = { NULL, NULL, NULL };
  GnnKernelTensor kin[3];
  GnnKernelArgs args = { 0 };
  GnnTensor *out = NULL;
  /* comparisons write bool themselves; any other kernel computes in @compute, converted after */
  gboolean direct = out_dtype == compute ||
                    (out_dtype == GNN_DTYPE_BOOL && op >= GNN_BACKEND_OP_EQ && op <= GNN_BACKEND_OP_GE);
  GnnTensor *placed[3] = { NULL, NULL, NULL };
  GnnTensor *moved[3] = { NULL, NULL, NULL };

  g_assert (n_inputs >= 1 && n_inputs <= 3);
  if (!place_host_scalars (inputs, n_inputs, NULL, placed, moved, error))
    goto out;
  inputs = placed;
  ndim = gnn_tensor_priv (inputs[0])->ndim;
  memcpy (shape, gnn_tensor_priv (inputs[0])->shape, sizeof (gint64) * ndim);
  for (guint k = 1; k < n_inputs; k++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (inputs[k]);
      if (!gnn_check_same_device (name, inputs[0], inputs[k], error) ||
          !gnn_broadcast_shapes (name, ndim, shape, p->ndim, p->shape, &ndim, shape, error))
        goto out;
    }

  for (guint k = 0; k < n_inputs; k++)
    {
      GnnDtype d = gnn_tensor_priv (inputs[k])->dtype;
      GnnTensor *src = inputs[k];
      /* cast[k] only holds converted copies: the inputs themselves are borrowed */
      if (d != compute && !(op == GNN_BACKEND_OP_WHERE && k == 0))
        {
          if (!(cast[k] = gnn_tensor_clone_contiguous (inputs[k], compute, error)))
            goto out;
          src = cast[k];
        }
      gnn_kernel_tensor_broadcast (src, ndim, shape, &kin[k]);
      args.in[k] = &kin[k];
    }

  out = gnn_tensor_new_like (inputs[0], direct ? out_dtype : compute, ndim, shape, error);
  if (out == NULL)
    goto out;
  if (gnn_shape_numel (ndim, shape) > 0)
    {
      if (!run_elementwise_kernel (op, out, &args, n_inputs, params, error))
        {
          g_clear_object (&out);
          goto out;
        }
    }
  if (!direct)
    {
      GnnTensor *converted = gnn_tensor_clone_contiguous (out, out_dtype, error);
      g_object_unref (out);
      out = converted;
    }

out:
  for (guint k = 0; k < n_inputs; k++)
    {
      g_clear_object (&cast[k]);
      g_clear_object (&moved[k]);
    }
  return out;
}

gboolean
gnn_elementwise_into (const char   *name,
                      GnnBackendOp  op,
                      GnnTensor    *out,
                      GnnTensor   **inputs,
                      guint         n_inputs,
                      const GnnKernelParams *params,
                      GError      **error)
{
  GnnTensorPrivate *op_ = gnn_tensor_priv (out);
  GnnDtype compute = gnn_compute_dtype (op_->dtype);
  GnnTensor *cast[3] = { NULL, NULL, NULL };
  g_autoptr(GnnTensor) target = NULL;
  GnnKernelTensor kin[3];
  GnnKernelArgs args = { 0 };
  gboolean ok = FALSE;
  GnnTensor *placed[3] = { NULL, NULL, NULL };
  GnnTensor *moved[3] = { NULL, NULL, NULL };

  if (!place_host_scalars (inputs, n_inputs, out, placed, moved, error))
    goto out;
  inputs = placed;
  for (guint k = 0; k < n_inputs; k++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (inputs[k]);
      gint64 bshape[GNN_MAX_DIMS];
      guint bnd;

      if (!gnn_check_same_device (name, out, inputs[k], error) ||
          !gnn_broadcast_shapes (name, op_->ndim, op_->shape, p->ndim, p->shape, &bnd, bshape, error))
        goto out;
      if (bnd != op_->ndim || memcmp (bshape, op_->shape, sizeof (gint64) * bnd) != 0)
        {
          g_autofree char *os = gnn_shape_to_string (op_->ndim, op_->shape);
          g_autofree char *bs = gnn_shape_to_string (bnd, bshape);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s: output with shape %s doesn't match the broadcast shape %s", name, os, bs);
          goto out;
        }
    }
  if (gnn_shape_numel (op_->ndim, op_->shape) == 0)
    {
      ok = TRUE;
      goto out;
    }
  for (guint k = 0; k < n_inputs; k++)
    {
      if (!(cast[k] = gnn_tensor_cast (inputs[k], compute, error)))
        goto out;
      gnn_kernel_tensor_broadcast (cast[k], op_->ndim, op_->shape, &kin[k]);
      args.in[k] = &kin[k];
    }
  /* storage dtypes without kernels compute into a temporary */
  target = compute == op_->dtype ? g_object_ref (out)
                                 : gnn_tensor_new_like (out, compute, op_->ndim, op_->shape, error);
  if (target == NULL)
    goto out;
  if (!run_elementwise_kernel (op, target, &args, n_inputs, params, error))
    goto out;
  ok = target == out ? TRUE : gnn_tensor_copy_into (out, target, error);

out:
  for (guint k = 0; k < n_inputs; k++)
    {
      g_clear_object (&cast[k]);
      g_clear_object (&moved[k]);
    }
  return ok;
}
