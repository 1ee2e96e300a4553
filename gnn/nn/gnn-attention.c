/* gnn-attention.c: multi-head attention: gnn_multi_head_attention_forward (torch.nn.functional's
 * multi_head_attention_forward), GnnMultiheadAttention and its output projection's class
 * GnnNonDynamicallyQuantizableLinear
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The forward follows PyTorch 2's multi_head_attention_forward step by step, written with ops
 * (linear, cat, pad, reshape, bmm, softmax, dropout, scaled_dot_product_attention), so that the
 * backward comes from autograd: the in-projection, the bias_k / bias_v row and the zero row
 * appended to the keys and values, the masks merged into one additive float mask (a bool mask
 * is True where a key is masked out, the opposite of scaled_dot_product_attention's), then
 * either the explicit softmax (need_weights: the weights are returned) or the fused
 * scaled_dot_product_attention (no weights), and the out-projection.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-args-private.h"
#include "gnn-module-private.h"
#include "gnn-props-private.h"
#include "core/gnn-tensor-private.h"
#include "ops/gnn-ops-private.h"
#include "gnn-init.h"
#include "gnn-layers.h"
#include "gnn-attention.h"

static gboolean
shape_error (GError    **error,
             const char *name,
             const char *what,
             GnnTensor  *a,
             const char *a_name,
             GnnTensor  *b,
             const char *b_name)
{
  guint na, nb;
  const gint64 *sha = gnn_tensor_get_shape (a, &na);
  g_autofree char *sa = gnn_shape_to_string (na, sha);

  if (b)
    {
      const gint64 *shb = gnn_tensor_get_shape (b, &nb);
      g_autofree char *sb = gnn_shape_to_string (nb, shb);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: %s (%s of shape %s, %s of shape %s)", name, what,
                   a_name, sa, b_name, sb);
    }
  else
    g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: %s (%s of shape %s)", name, what, a_name, sa);
  return FALSE;
}

gboolean
gnn_canonical_mask (const char *name,
                    const char *mask_name,
                    GnnTensor  *mask,
                    GnnDtype    dtype,
                    gboolean    same_dtype,
                    GnnTensor **out,
                    GError    **error)
{
  GnnDtype mt;

  *out = NULL;
  if (mask == NULL)
    return TRUE;
  mt = gnn_tensor_get_dtype (mask);
  if (mt == GNN_DTYPE_BOOL)
    {
      guint nd;
      const gint64 *shape = gnn_tensor_get_shape (mask, &nd);
      g_autoptr(GnnTensor) zeros = gnn_tensor_new_zeros (shape, nd, dtype, gnn_tensor_get_device (mask), error);

      return zeros != NULL && (*out = gnn_tensor_masked_fill (zeros, mask, -INFINITY, error)) != NULL;
    }
  if (same_dtype && mt != dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: only bool and floating types of %s are supported, and a float %s must have the "
                   "query's dtype %s, got %s", name, mask_name, mask_name, gnn_dtype_get_name (dtype),
                   gnn_dtype_get_name (mt));
      return FALSE;
    }
  if (!same_dtype && !gnn_dtype_is_floating (mt))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "%s: only bool and floating types of %s are supported, got %s",
                   name, mask_name, gnn_dtype_get_name (mt));
      return FALSE;
    }
  *out = g_object_ref (mask);
  return TRUE;
}

/* replaces *@t by @next (NULL: a failed op); FALSE when @next is NULL */
static gboolean
replace (GnnTensor **t,
         GnnTensor  *next)
{
  if (next == NULL)
    return FALSE;
  g_clear_object (t);
  *t = next;
  return TRUE;
}

/* @t padded with one column of zeros on its last dimension, in place of *@t (NULL stays) */
static gboolean
pad_last (GnnTensor **t,
          GError    **error)
{
  static const gint64 pad[2] = { 0, 1 };

  return *t == NULL || replace (t, gnn_tensor_pad (*t, pad, 2, "constant", 0.0, error));
}

static gboolean
check_shapes (const char *name,
              GnnTensor  *query,
              GnnTensor  *key,
              GnnTensor  *value,
              GnnTensor  *key_padding_mask,
              GnnTensor  *attn_mask,
              int         num_heads,
              gboolean   *batched,
              GError    **error)
{
  guint qd = gnn_tensor_get_ndim (query), kd = gnn_tensor_get_ndim (key), vd = gnn_tensor_get_ndim (value);

  if (qd == 3)
    {
      *batched = TRUE;
      if (kd != 3 || vd != 3)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s: For batched (3-D) `query`, expected `key` and `value` to be 3-D but found %u-D "
                       "and %u-D tensors respectively", name, kd, vd);
          return FALSE;
        }
      if (key_padding_mask && gnn_tensor_get_ndim (key_padding_mask) != 2)
        return shape_error (error, name, "For batched (3-D) `query`, expected `key_padding_mask` to be `None` "
                            "or 2-D", key_padding_mask, "key_padding_mask", query, "query");
      if (attn_mask && gnn_tensor_get_ndim (attn_mask) != 2 && gnn_tensor_get_ndim (attn_mask) != 3)
        return shape_error (error, name, "For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D "
                            "or 3-D", attn_mask, "attn_mask", query, "query");
    }
  else if (qd == 2)
    {
      *batched = FALSE;
      if (kd != 2 || vd != 2)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s: For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found %u-D "
                       "and %u-D tensors respectively", name, kd, vd);
          return FALSE;
        }
      if (key_padding_mask && gnn_tensor_get_ndim (key_padding_mask) != 1)
        return shape_error (error, name, "For unbatched (2-D) `query`, expected `key_padding_mask` to be "
                            "`None` or 1-D", key_padding_mask, "key_padding_mask", query, "query");
      if (attn_mask)
        {
          guint md = gnn_tensor_get_ndim (attn_mask);

          if (md != 2 && md != 3)
            return shape_error (error, name, "For unbatched (2-D) `query`, expected `attn_mask` to be `None`, "
                                "2-D or 3-D", attn_mask, "attn_mask", query, "query");
          if (md == 3 &&
              (gnn_tensor_get_size (attn_mask, 0, NULL) != num_heads ||
               gnn_tensor_get_size (attn_mask, 1, NULL) != gnn_tensor_get_size (query, 0, NULL) ||
               gnn_tensor_get_size (attn_mask, 2, NULL) != gnn_tensor_get_size (key, 0, NULL)))
            {
              g_autofree char *s = gnn_shape_to_string (3, gnn_tensor_get_shape (attn_mask, NULL));

              g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "%s: Expected `attn_mask` shape to be (%d, %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                           ") but got %s", name, num_heads, gnn_tensor_get_size (query, 0, NULL),
                           gnn_tensor_get_size (key, 0, NULL), s);
              return FALSE;
            }
        }
    }
  else
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: query should be unbatched 2D or batched 3D tensor but received %u-D query tensor",
                   name, qd);
      return FALSE;
    }
  return TRUE;
}

/* the rows [@i · @n, (@i + 1) · @n) of @w (a view), or NULL for NULL */
static GnnTensor *
rows (GnnTensor *w,
      int        i,
      gint64     n,
      GError   **error)
{
  return w ? gnn_tensor_narrow (w, 0, i * n, n, error) : NULL;
}

static GnnTensor *
mha_forward (const char *name,
             GnnTensor  *query_in,
             GnnTensor  *key_in,
             GnnTensor  *value_in,
             int         embed_dim_to_check,
             int         num_heads,
             GnnTensor  *in_proj_weight,
             GnnTensor  *in_proj_bias,
             GnnTensor  *bias_k,
             GnnTensor  *bias_v,
             gboolean    add_zero_attn,
             double      dropout_p,
             GnnTensor  *out_proj_weight,
             GnnTensor  *out_proj_bias,
             gboolean    training,
             GnnTensor  *key_padding_mask_in,
             gboolean    need_weights,
             GnnTensor  *attn_mask_in,
             GnnTensor  *q_proj_weight,
             GnnTensor  *k_proj_weight,
             GnnTensor  *v_proj_weight,
             gboolean    average_attn_weights,
             gboolean    is_causal,
             GnnTensor **attn_weights,
             GError    **error)
{
  g_autoptr(GnnTensor) query = NULL, key = NULL, value = NULL, kpm = NULL, mask = NULL;
  g_autoptr(GnnTensor) q = NULL, k = NULL, v = NULL, out = NULL;
  g_autoptr(GnnTensor) wq = NULL, wk = NULL, wv = NULL, bq = NULL, bk = NULL, bv = NULL;
  gboolean batched, separate = in_proj_weight == NULL;
  GnnDtype dtype;
  gint64 L, N, E, S, H = num_heads, hd;
  const char *device;

  if (attn_weights)
    *attn_weights = NULL;
  if (!check_shapes (name, query_in, key_in, value_in, key_padding_mask_in, attn_mask_in, num_heads, &batched,
                     error))
    return NULL;
  if (batched)
    {
      query = g_object_ref (query_in);
      key = g_object_ref (key_in);
      value = g_object_ref (value_in);
      kpm = key_padding_mask_in ? g_object_ref (key_padding_mask_in) : NULL;
    }
  else if (!(query = gnn_tensor_unsqueeze (query_in, 1, error)) ||
           !(key = gnn_tensor_unsqueeze (key_in, 1, error)) ||
           !(value = gnn_tensor_unsqueeze (value_in, 1, error)) ||
           (key_padding_mask_in && !(kpm = gnn_tensor_unsqueeze (key_padding_mask_in, 0, error))))
    return NULL;

  dtype = gnn_tensor_get_dtype (query);
  device = gnn_tensor_get_device (query);
  L = gnn_tensor_get_size (query, 0, NULL);
  N = gnn_tensor_get_size (query, 1, NULL);
  E = gnn_tensor_get_size (query, 2, NULL);
  S = gnn_tensor_get_size (key, 0, NULL);

  {
    g_autoptr(GnnTensor) k2 = NULL;

    if (!gnn_canonical_mask (name, "key_padding_mask", kpm, dtype, TRUE, &k2, error))
      return NULL;
    g_clear_object (&kpm);
    kpm = g_steal_pointer (&k2);
  }
  if (is_causal && attn_mask_in == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                   "method `generate_square_subsequent_mask` to create this mask.", name);
      return NULL;
    }
  if (is_causal && kpm == NULL && !need_weights)
    ; /* the fused attention applies the causal mask itself: attn_mask is dropped */
  else
    {
      if (!gnn_canonical_mask (name, "attn_mask", attn_mask_in, dtype, TRUE, &mask, error))
        return NULL;
      if (kpm)
        is_causal = FALSE;
    }

  if (E != embed_dim_to_check)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: was expecting embedding dimension of %d, but got %" G_GINT64_FORMAT " (query of "
                   "shape (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "))",
                   name, embed_dim_to_check, E, L, N, E);
      return NULL;
    }
  if (num_heads <= 0 || E % num_heads != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: embed_dim %" G_GINT64_FORMAT " not divisible by num_heads %d", name, E, num_heads);
      return NULL;
    }
  hd = E / num_heads;
  if (separate)
    {
      if (gnn_tensor_get_size (key, 0, NULL) != gnn_tensor_get_size (value, 0, NULL) ||
          gnn_tensor_get_size (key, 1, NULL) != gnn_tensor_get_size (value, 1, NULL))
        {
          shape_error (error, name, "key's sequence and batch dims do not match value's", key_in, "key",
                            value_in, "value");
          return NULL;
        }
      if (q_proj_weight == NULL || k_proj_weight == NULL || v_proj_weight == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: use_separate_proj_weight is True but q_proj_weight, k_proj_weight or v_proj_weight "
                       "is None", name);
          return NULL;
        }
      wq = g_object_ref (q_proj_weight);
      wk = g_object_ref (k_proj_weight);
      wv = g_object_ref (v_proj_weight);
    }
  else
    {
      guint kn, vn;
      const gint64 *ks = gnn_tensor_get_shape (key, &kn), *vs = gnn_tensor_get_shape (value, &vn);

      if (kn != vn || memcmp (ks, vs, sizeof (gint64) * kn) != 0)
        {
          shape_error (error, name, "key shape does not match value shape", key_in, "key", value_in,
                            "value");
          return NULL;
        }
      if (gnn_tensor_get_ndim (in_proj_weight) != 2 || gnn_tensor_get_size (in_proj_weight, 0, NULL) != 3 * E ||
          gnn_tensor_get_size (in_proj_weight, 1, NULL) != E)
        {
          shape_error (error, name, "expected in_proj_weight of shape (3 * embed_dim, embed_dim)",
                            in_proj_weight, "in_proj_weight", query_in, "query");
          return NULL;
        }
      if (!(wq = rows (in_proj_weight, 0, E, error)) || !(wk = rows (in_proj_weight, 1, E, error)) ||
          !(wv = rows (in_proj_weight, 2, E, error)))
        return NULL;
    }
  if (gnn_tensor_get_size (key, 2, NULL) != gnn_tensor_get_size (wk, -1, NULL))
    {
          shape_error (error, name, "the key's last dimension is not kdim, the in-projection's", key_in, "key",
                        wk, separate ? "k_proj_weight" : "in_proj_weight");
          return NULL;
        }
  if (gnn_tensor_get_size (value, 2, NULL) != gnn_tensor_get_size (wv, -1, NULL))
    {
          shape_error (error, name, "the value's last dimension is not vdim, the in-projection's", value_in,
                        "value", wv, separate ? "v_proj_weight" : "in_proj_weight");
          return NULL;
        }
  if (in_proj_bias)
    {
      if (gnn_tensor_get_ndim (in_proj_bias) != 1 || gnn_tensor_get_size (in_proj_bias, 0, NULL) != 3 * E)
        {
          shape_error (error, name, "expected in_proj_bias of shape (3 * embed_dim)", in_proj_bias,
                            "in_proj_bias", query_in, "query");
          return NULL;
        }
      if (!(bq = rows (in_proj_bias, 0, E, error)) || !(bk = rows (in_proj_bias, 1, E, error)) ||
          !(bv = rows (in_proj_bias, 2, E, error)))
        return NULL;
    }
  /* the in-projection: q (L, N, E), k and v (S, N, E) */
  if (!(q = gnn_tensor_linear (query, wq, bq, error)) || !(k = gnn_tensor_linear (key, wk, bk, error)) ||
      !(v = gnn_tensor_linear (value, wv, bv, error)))
    return NULL;

  if (mask)
    {
      guint md = gnn_tensor_get_ndim (mask);

      if (md == 2)
        {
          if (gnn_tensor_get_size (mask, 0, NULL) != L || gnn_tensor_get_size (mask, 1, NULL) != S)
            {
              g_autofree char *s = gnn_shape_to_string (2, gnn_tensor_get_shape (mask, NULL));

              g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "%s: The shape of the 2D attn_mask is %s, but should be (%" G_GINT64_FORMAT ", %"
                           G_GINT64_FORMAT ").", name, s, L, S);
              return NULL;
            }
          if (!replace (&mask, gnn_tensor_unsqueeze (mask, 0, error)))
            return NULL;
        }
      else if (md == 3)
        {
          if (gnn_tensor_get_size (mask, 0, NULL) != N * H || gnn_tensor_get_size (mask, 1, NULL) != L ||
              gnn_tensor_get_size (mask, 2, NULL) != S)
            {
              g_autofree char *s = gnn_shape_to_string (3, gnn_tensor_get_shape (mask, NULL));

              g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "%s: The shape of the 3D attn_mask is %s, but should be (%" G_GINT64_FORMAT ", %"
                           G_GINT64_FORMAT ", %" G_GINT64_FORMAT ").", name, s, N * H, L, S);
              return NULL;
            }
        }
      else
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: attn_mask's dimension %u is not supported", name, md);
          return NULL;
        }
    }

  /* bias_k and bias_v: one more key and value, the same for every batch element */
  if (bias_k || bias_v)
    {
      GnnTensor *pair[2];
      gint64 shape[3] = { 1, N, E };
      g_autoptr(GnnTensor) ek = NULL, ev = NULL;

      if (bias_k == NULL || bias_v == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: bias_k and bias_v must both be given or "
                       "both be None", name);
          return NULL;
        }
      if (gnn_tensor_get_numel (bias_k) != E || gnn_tensor_get_numel (bias_v) != E)
        {
          shape_error (error, name, "expected bias_k and bias_v of shape (1, 1, embed_dim)", bias_k,
                            "bias_k", bias_v, "bias_v");
          return NULL;
        }
      if (!(ek = gnn_tensor_reshape (bias_k, (const gint64[]) { 1, 1, E }, 3, error)) ||
          !replace (&ek, gnn_tensor_expand (ek, shape, 3, error)) ||
          !(ev = gnn_tensor_reshape (bias_v, (const gint64[]) { 1, 1, E }, 3, error)) ||
          !replace (&ev, gnn_tensor_expand (ev, shape, 3, error)))
        return NULL;
      pair[0] = k;
      pair[1] = ek;
      if (!replace (&k, gnn_cat (pair, 2, 0, error)))
        return NULL;
      pair[0] = v;
      pair[1] = ev;
      if (!replace (&v, gnn_cat (pair, 2, 0, error)) || !pad_last (&mask, error) || !pad_last (&kpm, error))
        return NULL;
    }

  /* (L, N, E) -> (N · H, L, hd) */
  if (!replace (&q, gnn_tensor_reshape (q, (const gint64[]) { L, N * H, hd }, 3, error)) ||
      !replace (&q, gnn_tensor_transpose (q, 0, 1, error)) ||
      !replace (&k, gnn_tensor_reshape (k, (const gint64[]) { gnn_tensor_get_size (k, 0, NULL), N * H, hd }, 3,
                                        error)) ||
      !replace (&k, gnn_tensor_transpose (k, 0, 1, error)) ||
      !replace (&v, gnn_tensor_reshape (v, (const gint64[]) { gnn_tensor_get_size (v, 0, NULL), N * H, hd }, 3,
                                        error)) ||
      !replace (&v, gnn_tensor_transpose (v, 0, 1, error)))
    return NULL;

  if (add_zero_attn)
    {
      g_autoptr(GnnTensor) zeros = gnn_tensor_new_zeros ((const gint64[]) { N * H, 1, hd }, 3, dtype, device, error);
      GnnTensor *pair[2];

      if (zeros == NULL)
        return NULL;
      pair[0] = k;
      pair[1] = zeros;
      if (!replace (&k, gnn_cat (pair, 2, 1, error)))
        return NULL;
      pair[0] = v;
      if (!replace (&v, gnn_cat (pair, 2, 1, error)) || !pad_last (&mask, error) || !pad_last (&kpm, error))
        return NULL;
    }
  S = gnn_tensor_get_size (k, 1, NULL);

  /* the key padding mask (N, S) merged into the attention mask, (N · H, 1, S) */
  if (kpm)
    {
      if (gnn_tensor_get_ndim (kpm) != 2 || gnn_tensor_get_size (kpm, 0, NULL) != N ||
          gnn_tensor_get_size (kpm, 1, NULL) != S)
        {
          g_autofree char *s = gnn_shape_to_string (gnn_tensor_get_ndim (kpm), gnn_tensor_get_shape (kpm, NULL));

          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s: expecting key_padding_mask shape of (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                       "), but got %s", name, N, S - (bias_k ? 1 : 0) - (add_zero_attn ? 1 : 0), s);
          return NULL;
        }
      if (!replace (&kpm, gnn_tensor_reshape (kpm, (const gint64[]) { N, 1, 1, S }, 4, error)) ||
          !replace (&kpm, gnn_tensor_expand (kpm, (const gint64[]) { N, H, 1, S }, 4, error)) ||
          !replace (&kpm, gnn_tensor_reshape (kpm, (const gint64[]) { N * H, 1, S }, 3, error)))
        return NULL;
      if (mask == NULL)
        mask = g_steal_pointer (&kpm);
      else if (!replace (&mask, gnn_tensor_add (mask, kpm, 1.0, error)))
        return NULL;
    }
  if (!training)
    dropout_p = 0.0;

  if (need_weights)
    {
      g_autoptr(GnnTensor) qs = NULL, kt = NULL, w = NULL;

      if (!(qs = gnn_tensor_mul_scalar (q, sqrt (1.0 / (double) hd), error)) ||
          !(kt = gnn_tensor_transpose (k, 1, 2, error)) ||
          !(w = gnn_tensor_bmm (qs, kt, error)) ||
          (mask && !replace (&w, gnn_tensor_add (w, mask, 1.0, error))) ||
          !replace (&w, gnn_tensor_softmax (w, -1, error)))
        return NULL;
      if (dropout_p > 0)
        {
          g_autoptr(GnnTensor) dropped = gnn_tensor_dropout (w, dropout_p, TRUE, error);

          if (dropped == NULL || !(out = gnn_tensor_bmm (dropped, v, error)))
            return NULL;
        }
      else if (!(out = gnn_tensor_bmm (w, v, error)))
        return NULL;
      if (!replace (&out, gnn_tensor_transpose (out, 0, 1, error)) ||
          !replace (&out, gnn_tensor_reshape (out, (const gint64[]) { L * N, E }, 2, error)) ||
          !replace (&out, gnn_tensor_linear (out, out_proj_weight, out_proj_bias, error)) ||
          !replace (&out, gnn_tensor_reshape (out, (const gint64[]) { L, N, gnn_tensor_get_size (out, 1, NULL) },
                                              3, error)) ||
          !replace (&w, gnn_tensor_reshape (w, (const gint64[]) { N, H, L, S }, 4, error)))
        return NULL;
      if (average_attn_weights && !replace (&w, gnn_tensor_mean (w, (const int[]) { 1 }, 1, FALSE, error)))
        return NULL;
      if (!batched &&
          (!replace (&out, gnn_tensor_squeeze_dim (out, 1, error)) ||
           !replace (&w, gnn_tensor_squeeze_dim (w, 0, error))))
        return NULL;
      if (attn_weights)
        *attn_weights = g_steal_pointer (&w);
      return g_steal_pointer (&out);
    }

  /* no weights: the fused attention over (N, H, L, hd) */
  if (mask)
    {
      if (gnn_tensor_get_size (mask, 0, NULL) == 1)
        {
          if (!replace (&mask, gnn_tensor_unsqueeze (mask, 0, error)))
            return NULL;
        }
      else if (!replace (&mask, gnn_tensor_reshape (mask, (const gint64[]) { N, H, -1, S }, 4, error)))
        return NULL;
    }
  if (!replace (&q, gnn_tensor_reshape (q, (const gint64[]) { N, H, L, hd }, 4, error)) ||
      !replace (&k, gnn_tensor_reshape (k, (const gint64[]) { N, H, S, hd }, 4, error)) ||
      !replace (&v, gnn_tensor_reshape (v, (const gint64[]) { N, H, S, hd }, 4, error)) ||
      !(out = gnn_scaled_dot_product_attention (q, k, v, mask, dropout_p, is_causal, 0.0, error)) ||
      !replace (&out, gnn_tensor_permute (out, (const int[]) { 2, 0, 1, 3 }, 4, error)) ||
      !replace (&out, gnn_tensor_reshape (out, (const gint64[]) { L * N, E }, 2, error)) ||
      !replace (&out, gnn_tensor_linear (out, out_proj_weight, out_proj_bias, error)) ||
      !replace (&out, gnn_tensor_reshape (out, (const gint64[]) { L, N, gnn_tensor_get_size (out, 1, NULL) }, 3,
                                          error)))
    return NULL;
  if (!batched && !replace (&out, gnn_tensor_squeeze_dim (out, 1, error)))
    return NULL;
  return g_steal_pointer (&out);
}

/**
 * gnn_multi_head_attention_forward:
 * @query: the queries, (L, N, E) or unbatched (L, E)
 * @key: the keys, (S, N, kdim) or (S, kdim)
 * @value: the values, (S, N, vdim) or (S, vdim)
 * @embed_dim_to_check: the embedding size E the query must have
 * @num_heads: the number of heads, dividing E
 * @in_proj_weight: (nullable): the packed in-projection (3 · E, E) of the queries, keys and
 *   values; %NULL to use @q_proj_weight, @k_proj_weight and @v_proj_weight
 * @in_proj_bias: (nullable): the packed bias of the in-projection (3 · E), or %NULL
 * @bias_k: (nullable): a key (1, 1, E) appended to every sequence of keys, or %NULL
 * @bias_v: (nullable): a value (1, 1, E) appended to every sequence of values, or %NULL
 * @add_zero_attn: whether to append a key and a value of zeros after them
 * @dropout_p: the probability of dropping an attention weight, in training
 * @out_proj_weight: the out-projection (E, E)
 * @out_proj_bias: (nullable): its bias (E), or %NULL
 * @training: whether dropout applies
 * @key_padding_mask: (nullable): (N, S) or (S): bool (%TRUE: the key is ignored) or a float
 *   mask added to the scores
 * @need_weights: whether to compute and return the attention weights
 * @attn_mask: (nullable): (L, S) or (N · num_heads, L, S) ((num_heads, L, S) unbatched):
 *   bool (%TRUE: the query does not attend the key) or a float mask added to the scores
 * @q_proj_weight: (nullable): the queries' in-projection (E, E), with @in_proj_weight %NULL
 * @k_proj_weight: (nullable): the keys' in-projection (E, kdim)
 * @v_proj_weight: (nullable): the values' in-projection (E, vdim)
 * @average_attn_weights: whether the returned weights are averaged over the heads
 * @is_causal: the hint that @attn_mask is the causal mask (which must still be given); without
 *   @key_padding_mask and @need_weights the fused attention applies the causal mask itself
 * @attn_weights: (out) (optional) (nullable) (transfer full): the attention weights: (N, L, S)
 *   averaged, (N, num_heads, L, S) otherwise (without N unbatched); %NULL without
 *   @need_weights
 * @error: return location for a #GError
 *
 * Multi-head attention, `torch.nn.functional.multi_head_attention_forward` as PyTorch 2 writes
 * it (its `use_separate_proj_weight` is @in_proj_weight being %NULL; static_k and static_v are
 * not taken). The queries, keys and values are projected, split into @num_heads heads of E /
 * @num_heads features, attended with softmax (q kᵀ / √(E / num_heads) + masks), joined and
 * projected by @out_proj_weight. Written with ops: differentiable on every backend.
 *
 * Returns: (transfer full): the attention output, (L, N, E) or (L, E), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_multi_head_attention_forward (GnnTensor  *query,
                                  GnnTensor  *key,
                                  GnnTensor  *value,
                                  int         embed_dim_to_check,
                                  int         num_heads,
                                  GnnTensor  *in_proj_weight,
                                  GnnTensor  *in_proj_bias,
                                  GnnTensor  *bias_k,
                                  GnnTensor  *bias_v,
                                  gboolean    add_zero_attn,
                                  double      dropout_p,
                                  GnnTensor  *out_proj_weight,
                                  GnnTensor  *out_proj_bias,
                                  gboolean    training,
                                  GnnTensor  *key_padding_mask,
                                  gboolean    need_weights,
                                  GnnTensor  *attn_mask,
                                  GnnTensor  *q_proj_weight,
                                  GnnTensor  *k_proj_weight,
                                  GnnTensor  *v_proj_weight,
                                  gboolean    average_attn_weights,
                                  gboolean    is_causal,
                                  GnnTensor **attn_weights,
                                  GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (query) && GNN_IS_TENSOR (key) && GNN_IS_TENSOR (value), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (out_proj_weight), NULL);

  return mha_forward ("multi_head_attention_forward", query, key, value, embed_dim_to_check, num_heads,
                      in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight,
                      out_proj_bias, training, key_padding_mask, need_weights, attn_mask, q_proj_weight,
                      k_proj_weight, v_proj_weight, average_attn_weights, is_causal, attn_weights, error);
}

/* ---- NonDynamicallyQuantizableLinear ------------------------------------------------------- */

/**
 * GnnNonDynamicallyQuantizableLinear:
 *
 * The out-projection of [class@Gnn.MultiheadAttention], as PyTorch's
 * `NonDynamicallyQuantizableLinear`: a fully connected layer like [class@Gnn.Linear] (same
 * parameters `weight` and `bias`, same initialisation, same forward), a class of its own so
 * that it prints as PyTorch prints it.
 */
struct _GnnNonDynamicallyQuantizableLinear
{
  GnnModule parent_instance;

  int in_features;
  int out_features;
  gboolean bias;
};

G_DEFINE_FINAL_TYPE (GnnNonDynamicallyQuantizableLinear, gnn_non_dynamically_quantizable_linear, GNN_TYPE_MODULE)

enum {
  NDQ_PROP_0,
  NDQ_PROP_IN_FEATURES,
  NDQ_PROP_OUT_FEATURES,
  NDQ_PROP_BIAS,
  NDQ_N_PROPS
};

static GnnProp ndq_props[NDQ_N_PROPS];

static gboolean
ndq_setup (GnnModule *module,
           GError   **error)
{
  GnnNonDynamicallyQuantizableLinear *self = GNN_NON_DYNAMICALLY_QUANTIZABLE_LINEAR (module);
  g_autoptr(GnnParameter) weight = NULL, bias = NULL;
  gint64 wshape[2] = { self->out_features, self->in_features }, bshape[1] = { self->out_features };

  if (!GNN_MODULE_CLASS (gnn_non_dynamically_quantizable_linear_parent_class)->setup (module, error))
    return FALSE;
  weight = gnn_module_new_parameter (wshape, 2, gnn_module_dtype (module), error);
  if (weight == NULL || !gnn_module_register_parameter (module, "weight", weight, error))
    return FALSE;
  if (self->bias && !(bias = gnn_module_new_parameter (bshape, 1, gnn_module_dtype (module), error)))
    return FALSE;
  if (!gnn_module_register_parameter (module, "bias", bias, error))
    return FALSE;
  return gnn_module_reset_kaiming_uniform (module, "NonDynamicallyQuantizableLinear", error);
}

static GnnArgs *
ndq_forward (GnnModule *module,
             GnnArgs   *input,
             GError   **error)
{
  GnnTensor *x = gnn_args_first_tensor (input, "NonDynamicallyQuantizableLinear", error);
  GnnParameter *weight = gnn_module_find_parameter (module, "weight");
  GnnParameter *bias = gnn_module_find_parameter (module, "bias");

  if (x == NULL)
    return NULL;
  if (weight == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "NonDynamicallyQuantizableLinear has no parameter `weight`");
      return NULL;
    }
  return gnn_args_take_tensor_or_prefix (gnn_tensor_linear (x, GNN_TENSOR (weight), bias ? GNN_TENSOR (bias) : NULL,
                                                            error),
                                         "NonDynamicallyQuantizableLinear", error);
}

static char *
ndq_extra_repr (GnnModule *module)
{
  GnnNonDynamicallyQuantizableLinear *self = GNN_NON_DYNAMICALLY_QUANTIZABLE_LINEAR (module);

  return g_strdup_printf ("in_features=%d, out_features=%d, bias=%s", self->in_features, self->out_features,
                          gnn_module_find_parameter (module, "bias") ? "True" : "False");
}

static void
gnn_non_dynamically_quantizable_linear_class_init (GnnNonDynamicallyQuantizableLinearClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = ndq_setup;
  module_class->forward = ndq_forward;
  module_class->extra_repr = ndq_extra_repr;

  /**
   * GnnNonDynamicallyQuantizableLinear:in-features:
   *
   * The size of each input sample (`in_features`), at least 0.
   *
   * Since: 0.1
   */
  ndq_props[NDQ_PROP_IN_FEATURES] = (GnnProp) {
    g_param_spec_int ("in-features", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnNonDynamicallyQuantizableLinear, in_features), gnn_prop_check_size };

  /**
   * GnnNonDynamicallyQuantizableLinear:out-features:
   *
   * The size of each output sample (`out_features`), at least 0.
   *
   * Since: 0.1
   */
  ndq_props[NDQ_PROP_OUT_FEATURES] = (GnnProp) {
    g_param_spec_int ("out-features", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnNonDynamicallyQuantizableLinear, out_features), gnn_prop_check_size };

  /**
   * GnnNonDynamicallyQuantizableLinear:bias:
   *
   * Whether the layer learns an additive bias (`bias`).
   *
   * Since: 0.1
   */
  ndq_props[NDQ_PROP_BIAS] = (GnnProp) {
    g_param_spec_boolean ("bias", NULL, NULL, TRUE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnNonDynamicallyQuantizableLinear, bias) };

  gnn_props_install (G_OBJECT_CLASS (klass), ndq_props, NDQ_N_PROPS);
  gnn_module_class_uses_dtype (module_class);
}

static void
gnn_non_dynamically_quantizable_linear_init (GnnNonDynamicallyQuantizableLinear *self)
{
  self->bias = TRUE;
}

/* ---- MultiheadAttention ------------------------------------------------------------------ */

/**
 * GnnMultiheadAttention:
 *
 * Multi-head attention, as `torch.nn.MultiheadAttention`: the layer form of
 * [func@Gnn.multi_head_attention_forward], holding the projections as parameters.
 *
 * Its forward takes (query, key, value) and, by position after them or as keyword values,
 * `key_padding_mask` (a tensor or none), `need_weights` (default %TRUE), `attn_mask` (a tensor
 * or none), `average_attn_weights` (default %TRUE) and `is_causal` (default %FALSE); inputs
 * are (L, N, E), (N, L, E) with [property@Gnn.MultiheadAttention:batch-first], or unbatched
 * (L, E). It returns two values: the attention output, shaped as the query, and the attention
 * weights, or none without `need_weights`.
 *
 * The parameters are named, ordered and initialised as PyTorch's: `in_proj_weight` (3 · E, E)
 * (or `q_proj_weight`, `k_proj_weight` (E, kdim) and `v_proj_weight` (E, vdim) when kdim or
 * vdim differs from E) from xavier_uniform_, `in_proj_bias` (3 · E) zero, `bias_k` and
 * `bias_v` (1, 1, E) from xavier_normal_ with [property@Gnn.MultiheadAttention:add-bias-kv],
 * then the submodule `out_proj`, a [class@Gnn.NonDynamicallyQuantizableLinear] with a zero
 * bias.
 */
struct _GnnMultiheadAttention
{
  GnnModule parent_instance;

  int embed_dim;
  int num_heads;
  double dropout;
  gboolean bias;
  gboolean add_bias_kv;
  gboolean add_zero_attn;
  int kdim;
  int vdim;
  gboolean batch_first;
};

G_DEFINE_FINAL_TYPE (GnnMultiheadAttention, gnn_multihead_attention, GNN_TYPE_MODULE)

enum {
  PROP_0,
  PROP_EMBED_DIM,
  PROP_NUM_HEADS,
  PROP_DROPOUT,
  PROP_BIAS,
  PROP_ADD_BIAS_KV,
  PROP_ADD_ZERO_ATTN,
  PROP_KDIM,
  PROP_VDIM,
  PROP_BATCH_FIRST,
  N_PROPS
};

static GnnProp props[N_PROPS];

static int
kdim_of (GnnMultiheadAttention *self)
{
  return self->kdim > 0 ? self->kdim : self->embed_dim;
}

static int
vdim_of (GnnMultiheadAttention *self)
{
  return self->vdim > 0 ? self->vdim : self->embed_dim;
}

static gboolean
same_embed_dim (GnnMultiheadAttention *self)
{
  return kdim_of (self) == self->embed_dim && vdim_of (self) == self->embed_dim;
}

static gboolean
add_parameter (GnnModule    *module,
               const char   *name,
               const gint64 *shape,
               guint         ndim,
               GError      **error)
{
  g_autoptr(GnnParameter) p = gnn_module_new_parameter (shape, ndim, gnn_module_dtype (module), error);

  return p != NULL && gnn_module_register_parameter (module, name, p, error);
}

static gboolean
init_parameter (GnnModule  *module,
                const char *name,
                int         how,
                GError    **error)
{
  GnnParameter *p = gnn_module_find_parameter (module, name);

  if (p == NULL)
    return TRUE;
  switch (how)
    {
    case 0:
      return gnn_init_xavier_uniform_ (GNN_TENSOR (p), 1.0, NULL, error);
    case 1:
      return gnn_init_xavier_normal_ (GNN_TENSOR (p), 1.0, NULL, error);
    default:
      return gnn_init_zeros_ (GNN_TENSOR (p), error);
    }
}

static gboolean
gnn_multihead_attention_setup (GnnModule *module,
                               GError   **error)
{
  GnnMultiheadAttention *self = GNN_MULTIHEAD_ATTENTION (module);
  gint64 E = self->embed_dim;
  g_autoptr(GnnModule) out_proj = NULL;
  g_autoptr(GnnNoGradGuard) guard = NULL;

  if (!GNN_MODULE_CLASS (gnn_multihead_attention_parent_class)->setup (module, error))
    return FALSE;
  if (self->embed_dim <= 0 || self->num_heads <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "MultiheadAttention: embed_dim and num_heads must be greater than 0, got embed_dim=%d and "
                   "num_heads=%d", self->embed_dim, self->num_heads);
      return FALSE;
    }
  if (self->embed_dim % self->num_heads != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "MultiheadAttention: embed_dim must be divisible by num_heads, got embed_dim=%d and "
                   "num_heads=%d", self->embed_dim, self->num_heads);
      return FALSE;
    }
  if (!(self->dropout >= 0 && self->dropout <= 1))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "MultiheadAttention: dropout probability has to be between 0 and 1, but got %g", self->dropout);
      return FALSE;
    }
  if (!same_embed_dim (self))
    {
      if (!add_parameter (module, "q_proj_weight", (const gint64[]) { E, E }, 2, error) ||
          !add_parameter (module, "k_proj_weight", (const gint64[]) { E, kdim_of (self) }, 2, error) ||
          !add_parameter (module, "v_proj_weight", (const gint64[]) { E, vdim_of (self) }, 2, error))
        return FALSE;
    }
  else if (!add_parameter (module, "in_proj_weight", (const gint64[]) { 3 * E, E }, 2, error))
    return FALSE;
  if (self->bias && !add_parameter (module, "in_proj_bias", (const gint64[]) { 3 * E }, 1, error))
    return FALSE;
  if (self->add_bias_kv &&
      (!add_parameter (module, "bias_k", (const gint64[]) { 1, 1, E }, 3, error) ||
       !add_parameter (module, "bias_v", (const gint64[]) { 1, 1, E }, 3, error)))
    return FALSE;
  out_proj = gnn_module_new_or_error (error, GNN_TYPE_NON_DYNAMICALLY_QUANTIZABLE_LINEAR, "in-features", (int) E,
                                      "out-features", (int) E, "bias", self->bias,
                                      "dtype", gnn_module_dtype (module), NULL);
  if (out_proj == NULL || !gnn_module_register_module (module, "out_proj", out_proj, error))
    return FALSE;

  /* torch's _reset_parameters */
  guard = gnn_no_grad_guard_new ();
  return init_parameter (module, "in_proj_weight", 0, error) &&
         init_parameter (module, "q_proj_weight", 0, error) &&
         init_parameter (module, "k_proj_weight", 0, error) &&
         init_parameter (module, "v_proj_weight", 0, error) &&
         init_parameter (module, "in_proj_bias", 2, error) &&
         init_parameter (out_proj, "bias", 2, error) &&
         init_parameter (module, "bias_k", 1, error) &&
         init_parameter (module, "bias_v", 1, error);
}

/* The forward argument @name at position @index or given as a keyword: *@t a tensor or
 * NULL (absent or none) */
static gboolean
tensor_argument (GnnArgs    *input,
                 guint       index,
                 const char *name,
                 GnnTensor **t,
                 GError    **error)
{
  const GValue *v = gnn_args_get_kwarg (input, name);

  if (v == NULL && index < gnn_args_get_n_values (input))
    v = gnn_args_get_value (input, index);
  *t = NULL;
  if (v == NULL || (G_VALUE_HOLDS_OBJECT (v) && g_value_get_object (v) == NULL))
    return TRUE;
  if (G_VALUE_HOLDS_OBJECT (v) && GNN_IS_TENSOR (g_value_get_object (v)))
    {
      *t = g_value_get_object (v);
      return TRUE;
    }
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: expected a tensor or None, got %s", name,
               G_VALUE_TYPE_NAME (v));
  return FALSE;
}

/* likewise a boolean, @fallback when absent */
static gboolean
boolean_argument (GnnArgs    *input,
                  guint       index,
                  const char *name,
                  gboolean    fallback,
                  gboolean   *b,
                  GError    **error)
{
  const GValue *v = gnn_args_get_kwarg (input, name);

  if (v == NULL && index < gnn_args_get_n_values (input))
    v = gnn_args_get_value (input, index);
  *b = fallback;
  if (v == NULL)
    return TRUE;
  if (G_VALUE_HOLDS_BOOLEAN (v))
    {
      *b = g_value_get_boolean (v);
      return TRUE;
    }
  if (G_VALUE_HOLDS_INT64 (v) || G_VALUE_HOLDS_INT (v))
    {
      *b = G_VALUE_HOLDS_INT64 (v) ? g_value_get_int64 (v) != 0 : g_value_get_int (v) != 0;
      return TRUE;
    }
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: expected a boolean, got %s", name,
               G_VALUE_TYPE_NAME (v));
  return FALSE;
}

/* a parameter, or what a parametrization or pruning put in its place */
static GnnTensor *
param (GnnModule  *module,
       const char *name)
{
  return gnn_module_tensor (module, name, FALSE, NULL);
}

static GnnArgs *
gnn_multihead_attention_forward (GnnModule *module,
                                 GnnArgs   *input,
                                 GError   **error)
{
  GnnMultiheadAttention *self = GNN_MULTIHEAD_ATTENTION (module);
  GnnTensor *query, *key, *value, *kpm, *mask;
  gboolean need_weights, average, is_causal;
  g_autoptr(GnnTensor) q = NULL, k = NULL, v = NULL, out = NULL, weights = NULL;
  GnnModule *out_proj;
  GnnArgs *result;

  if (gnn_args_get_n_values (input) < 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "MultiheadAttention: forward takes query, key and value, got %u values",
                   gnn_args_get_n_values (input));
      return NULL;
    }
  if (!(query = gnn_args_get_tensor (input, 0, error)) || !(key = gnn_args_get_tensor (input, 1, error)) ||
      !(value = gnn_args_get_tensor (input, 2, error)) ||
      !tensor_argument (input, 3, "key_padding_mask", &kpm, error) ||
      !boolean_argument (input, 4, "need_weights", TRUE, &need_weights, error) ||
      !tensor_argument (input, 5, "attn_mask", &mask, error) ||
      !boolean_argument (input, 6, "average_attn_weights", TRUE, &average, error) ||
      !boolean_argument (input, 7, "is_causal", FALSE, &is_causal, error))
    {
      g_prefix_error (error, "MultiheadAttention: ");
      return NULL;
    }
  out_proj = gnn_module_get_submodule (module, "out_proj", error);
  if (out_proj == NULL)
    return NULL;
  if (self->batch_first && gnn_tensor_get_ndim (query) == 3)
    {
      if (!(q = gnn_tensor_transpose (query, 0, 1, error)) ||
          !(k = key == query ? g_object_ref (q) : gnn_tensor_transpose (key, 0, 1, error)) ||
          !(v = value == key ? g_object_ref (k) : gnn_tensor_transpose (value, 0, 1, error)))
        return NULL;
    }
  else
    {
      q = g_object_ref (query);
      k = g_object_ref (key);
      v = g_object_ref (value);
    }
  out = mha_forward ("MultiheadAttention", q, k, v, self->embed_dim, self->num_heads,
                     param (module, "in_proj_weight"), param (module, "in_proj_bias"), param (module, "bias_k"),
                     param (module, "bias_v"), self->add_zero_attn, self->dropout, param (out_proj, "weight"),
                     param (out_proj, "bias"), gnn_module_get_training (module), kpm, need_weights, mask,
                     param (module, "q_proj_weight"), param (module, "k_proj_weight"),
                     param (module, "v_proj_weight"), average, is_causal, &weights, error);
  if (out == NULL)
    return NULL;
  if (self->batch_first && gnn_tensor_get_ndim (query) == 3 && !replace (&out, gnn_tensor_transpose (out, 0, 1, error)))
    return NULL;
  result = gnn_args_new ();
  gnn_args_add_tensor (result, out);
  gnn_args_add_tensor (result, weights);
  return result;
}

static void
gnn_multihead_attention_class_init (GnnMultiheadAttentionClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_multihead_attention_setup;
  module_class->forward = gnn_multihead_attention_forward;

  /**
   * GnnMultiheadAttention:embed-dim:
   *
   * The size E of the queries and of the output (`embed_dim`).
   *
   * Since: 0.1
   */
  props[PROP_EMBED_DIM] = (GnnProp) {
    g_param_spec_int ("embed-dim", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnMultiheadAttention, embed_dim) };

  /**
   * GnnMultiheadAttention:num-heads:
   *
   * The number of parallel attention heads (`num_heads`), dividing
   * [property@Gnn.MultiheadAttention:embed-dim]: each head has embed_dim / num_heads features.
   *
   * Since: 0.1
   */
  props[PROP_NUM_HEADS] = (GnnProp) {
    g_param_spec_int ("num-heads", NULL, NULL, G_MININT, G_MAXINT, 1, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnMultiheadAttention, num_heads) };

  /**
   * GnnMultiheadAttention:dropout:
   *
   * The probability of dropping an attention weight in training (`dropout`), in [0, 1].
   *
   * Since: 0.1
   */
  props[PROP_DROPOUT] = (GnnProp) {
    gnn_param_spec_double ("dropout", 0.0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnMultiheadAttention, dropout) };

  /**
   * GnnMultiheadAttention:bias:
   *
   * Whether the in- and out-projections have biases (`bias`).
   *
   * Since: 0.1
   */
  props[PROP_BIAS] = (GnnProp) {
    g_param_spec_boolean ("bias", NULL, NULL, TRUE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnMultiheadAttention, bias) };

  /**
   * GnnMultiheadAttention:add-bias-kv:
   *
   * Whether the learnt key `bias_k` and value `bias_v` are appended to the keys and values
   * (`add_bias_kv`).
   *
   * Since: 0.1
   */
  props[PROP_ADD_BIAS_KV] = (GnnProp) {
    g_param_spec_boolean ("add-bias-kv", NULL, NULL, FALSE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnMultiheadAttention, add_bias_kv) };

  /**
   * GnnMultiheadAttention:add-zero-attn:
   *
   * Whether a key and a value of zeros are appended to the keys and values (`add_zero_attn`).
   *
   * Since: 0.1
   */
  props[PROP_ADD_ZERO_ATTN] = (GnnProp) {
    g_param_spec_boolean ("add-zero-attn", NULL, NULL, FALSE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnMultiheadAttention, add_zero_attn) };

  /**
   * GnnMultiheadAttention:kdim:
   *
   * The number of features of the keys (`kdim`); 0 (Python's None) for embed_dim.
   *
   * Since: 0.1
   */
  props[PROP_KDIM] = (GnnProp) {
    g_param_spec_int ("kdim", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnMultiheadAttention, kdim) };

  /**
   * GnnMultiheadAttention:vdim:
   *
   * The number of features of the values (`vdim`); 0 (Python's None) for embed_dim.
   *
   * Since: 0.1
   */
  props[PROP_VDIM] = (GnnProp) {
    g_param_spec_int ("vdim", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnMultiheadAttention, vdim) };

  /**
   * GnnMultiheadAttention:batch-first:
   *
   * Whether batched inputs and outputs are (N, L, E) instead of (L, N, E) (`batch_first`).
   *
   * Since: 0.1
   */
  props[PROP_BATCH_FIRST] = (GnnProp) {
    g_param_spec_boolean ("batch-first", NULL, NULL, FALSE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnMultiheadAttention, batch_first) };

  gnn_props_install (G_OBJECT_CLASS (klass), props, N_PROPS);
  gnn_module_class_uses_dtype (module_class);
}

static void
gnn_multihead_attention_init (GnnMultiheadAttention *self)
{
  self->num_heads = 1;
  self->bias = TRUE;
}

/**
 * gnn_multihead_attention_new:
 * @embed_dim: the size E of the queries and of the output
 * @num_heads: the number of heads, dividing @embed_dim
 * @error: return location for a #GError
 *
 * Creates a multi-head attention layer (`nn.MultiheadAttention (embed_dim, num_heads)`); the
 * other arguments are properties for g_object_new ().
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnMultiheadAttention *
gnn_multihead_attention_new (int      embed_dim,
                             int      num_heads,
                             GError **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_MULTIHEAD_ATTENTION, "embed-dim", embed_dim,
                                  "num-heads", num_heads, NULL);
}

/**
 * gnn_multihead_attention_get_embed_dim:
 * @self: a multi-head attention layer
 *
 * Gets [property@Gnn.MultiheadAttention:embed-dim].
 *
 * Returns: the embedding size
 *
 * Since: 0.1
 */
int
gnn_multihead_attention_get_embed_dim (GnnMultiheadAttention *self)
{
  g_return_val_if_fail (GNN_IS_MULTIHEAD_ATTENTION (self), 0);
  return self->embed_dim;
}

/**
 * gnn_multihead_attention_get_num_heads:
 * @self: a multi-head attention layer
 *
 * Gets [property@Gnn.MultiheadAttention:num-heads].
 *
 * Returns: the number of heads
 *
 * Since: 0.1
 */
int
gnn_multihead_attention_get_num_heads (GnnMultiheadAttention *self)
{
  g_return_val_if_fail (GNN_IS_MULTIHEAD_ATTENTION (self), 0);
  return self->num_heads;
}

void
gnn_attention_ensure_types (void)
{
  g_type_ensure (GNN_TYPE_NON_DYNAMICALLY_QUANTIZABLE_LINEAR);
  g_type_ensure (GNN_TYPE_MULTIHEAD_ATTENTION);
}
