/* gnn-ops-ctc.c: the connectionist temporal classification loss, forward and backward
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * PyTorch 1.13's algorithm (aten/src/ATen/native/LossCTC.cpp, after Graves et al. 2006): the
 * forward variables alpha over the extended target (blanks between and around the labels) in
 * log space give each sample's negative log likelihood; backward computes the beta variables
 * and the gradient with respect to the log probabilities as PyTorch writes it,
 * exp (log_probs) − exp (log Σ alpha beta + nll − log_probs) (which is the gradient of the
 * logits when log_probs comes from log_softmax). Run in double precision on the host.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-ops-private.h"

#define NEEDS(j) (node->edges[(j)].node != NULL)

typedef struct {
  gint64 T, N, C;             /* time, batch, classes */
  gint64 blank;
  gboolean zero_infinity;
  gboolean batched;
  gint64 *input_lengths;      /* N */
  gint64 *target_lengths;     /* N */
  gint64 *target_offsets;     /* N: where sample n's labels start in targets */
  gint64 *targets;            /* the labels, flat */
  double *nll;                /* N, from the forward */
} Ctc;

static void
ctc_free (gpointer data)
{
  Ctc *c = data;

  g_free (c->input_lengths);
  g_free (c->target_lengths);
  g_free (c->target_offsets);
  g_free (c->targets);
  g_free (c->nll);
  g_free (c);
}

static inline double
lse2 (double a, double b)
{
  double m = MAX (a, b);

  if (m == -INFINITY)
    return -INFINITY;
  return m + log (exp (a - m) + exp (b - m));
}

static inline double
lse3 (double a, double b, double c)
{
  return lse2 (lse2 (a, b), c);
}

/* the label at position s of sample n's extended target */
static inline gint64
label_at (const Ctc *c, gint64 n, gint64 s)
{
  return (s % 2 == 0) ? c->blank : c->targets[c->target_offsets[n] + s / 2];
}

/* lp[t, n, k] of log_probs (T, N, C) held as doubles */
#define LP(t, n, k) lp[((t) * c->N + (n)) * c->C + (k)]

/* alpha (T_n × S') of sample n; returns its negative log likelihood */
static double
ctc_alpha (const Ctc *c, const double *lp, gint64 n, double *alpha)
{
  gint64 Tn = c->input_lengths[n], L = c->target_lengths[n], S = 2 * L + 1;

  if (Tn == 0)
    return L == 0 ? 0.0 : INFINITY;
  for (gint64 s = 0; s < S; s++)
    alpha[s] = -INFINITY;
  alpha[0] = LP (0, n, c->blank);
  if (S > 1)
    alpha[1] = LP (0, n, label_at (c, n, 1));
  for (gint64 t = 1; t < Tn; t++)
    for (gint64 s = 0; s < S; s++)
      {
        gint64 l = label_at (c, n, s);
        double a = alpha[(t - 1) * S + s];
        double b = s >= 1 ? alpha[(t - 1) * S + s - 1] : -INFINITY;
        double d = (s >= 2 && l != c->blank && l != label_at (c, n, s - 2)) ? alpha[(t - 1) * S + s - 2] : -INFINITY;

        alpha[t * S + s] = LP (t, n, l) + lse3 (a, b, d);
      }
  return -(S > 1 ? lse2 (alpha[(Tn - 1) * S + S - 1], alpha[(Tn - 1) * S + S - 2]) : alpha[(Tn - 1) * S]);
}

static void
ctc_beta (const Ctc *c, const double *lp, gint64 n, double *beta)
{
  gint64 Tn = c->input_lengths[n], L = c->target_lengths[n], S = 2 * L + 1;

  for (gint64 i = 0; i < Tn * S; i++)
    beta[i] = -INFINITY;
  beta[(Tn - 1) * S + S - 1] = LP (Tn - 1, n, label_at (c, n, S - 1));
  if (S > 1)
    beta[(Tn - 1) * S + S - 2] = LP (Tn - 1, n, label_at (c, n, S - 2));
  for (gint64 t = Tn - 2; t >= 0; t--)
    for (gint64 s = 0; s < S; s++)
      {
        gint64 l = label_at (c, n, s);
        double a = beta[(t + 1) * S + s];
        double b = s + 1 < S ? beta[(t + 1) * S + s + 1] : -INFINITY;
        double d = (s + 2 < S && l != c->blank && l != label_at (c, n, s + 2)) ? beta[(t + 1) * S + s + 2] : -INFINITY;

        beta[t * S + s] = LP (t, n, l) + lse3 (a, b, d);
      }
}

/* log_probs as doubles (T, N, C), contiguous */
static double *
log_probs_doubles (GnnTensor *log_probs, GError **error)
{
  g_autoptr(GnnTensor) d = gnn_tensor_detach (log_probs);

  return gnn_tensor_to_doubles (d, NULL, error);
}

static gboolean
ctc_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  Ctc *c = node->ctx;
  GnnTensor *log_probs;
  g_autofree double *lp = NULL, *g = NULL, *grad = NULL, *alpha = NULL, *beta = NULL, *lcab = NULL;
  g_autoptr(GnnTensor) grad64 = NULL, cast = NULL;
  gint64 shape[3] = { c->T, c->N, c->C }, maxS = 1;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if ((log_probs = gnn_node_saved (node, 0, error)) == NULL ||
      (lp = log_probs_doubles (log_probs, error)) == NULL ||
      (g = gnn_tensor_to_doubles (go[0], NULL, error)) == NULL)
    return FALSE;
  for (gint64 n = 0; n < c->N; n++)
    maxS = MAX (maxS, 2 * c->target_lengths[n] + 1);
  grad = g_new0 (double, c->T * c->N * c->C);
  alpha = g_new (double, MAX (c->T, 1) * maxS);
  beta = g_new (double, MAX (c->T, 1) * maxS);
  lcab = g_new (double, c->C);
  for (gint64 n = 0; n < c->N; n++)
    {
      gint64 Tn = c->input_lengths[n], S = 2 * c->target_lengths[n] + 1;
      double nll = c->nll[n], gn = g[c->batched ? n : 0];

      if (Tn == 0 || (c->zero_infinity && isinf (nll)))
        continue;   /* no time steps, or a zeroed infinite loss: no gradient */
      ctc_alpha (c, lp, n, alpha);
      ctc_beta (c, lp, n, beta);
      for (gint64 t = 0; t < Tn; t++)
        {
          for (gint64 k = 0; k < c->C; k++)
            lcab[k] = -INFINITY;
          for (gint64 s = 0; s < S; s++)
            {
              gint64 l = label_at (c, n, s);

              lcab[l] = lse2 (lcab[l], alpha[t * S + s] + beta[t * S + s]);
            }
          for (gint64 k = 0; k < c->C; k++)
            {
              double x = LP (t, n, k);

              grad[(t * c->N + n) * c->C + k] = (exp (x) - exp (lcab[k] + nll - x)) * gn;
            }
        }
    }
  if ((grad64 = gnn_tensor_new_from_doubles (grad, c->T * c->N * c->C, shape, 3, error)) == NULL)
    return FALSE;
  if (!c->batched)
    {
      g_autoptr(GnnTensor) squeezed = gnn_tensor_squeeze_dim (grad64, 1, error);

      if (squeezed == NULL)
        return FALSE;
      g_object_unref (grad64);
      grad64 = g_steal_pointer (&squeezed);
    }
  if ((cast = gnn_tensor_to_dtype (grad64, gnn_tensor_get_dtype (log_probs), error)) == NULL)
    return FALSE;
  gi[0] = gnn_tensor_to_device_of (cast, log_probs, error);
  return gi[0] != NULL;
}

static gboolean
fail (GError **error, int code, const char *format, ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (GError **error, int code, const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, GNN_ERROR, code, "ctc_loss: %s", message);
  return FALSE;
}

/* fills @c from the arguments, checked as PyTorch checks them */
static gboolean
ctc_init (Ctc *c, GnnTensor *log_probs, GnnTensor *targets, const gint64 *input_lengths, guint n_input_lengths,
          const gint64 *target_lengths, guint n_target_lengths, gint64 blank, GError **error)
{
  guint nd = gnn_tensor_get_ndim (log_probs), ntd = gnn_tensor_get_ndim (targets);
  const gint64 *s = gnn_tensor_get_shape (log_probs, NULL), *st = gnn_tensor_get_shape (targets, NULL);
  g_autofree gint64 *flat = NULL;
  gsize n_flat = 0;
  gint64 total = 0;

  if (!gnn_dtype_is_floating (gnn_tensor_get_dtype (log_probs)))
    return fail (error, GNN_ERROR_DTYPE, "expected floating-point log_probs, got %s",
                 gnn_dtype_get_name (gnn_tensor_get_dtype (log_probs)));
  if (nd != 3 && nd != 2)
    return fail (error, GNN_ERROR_SHAPE, "expected log_probs of shape (T, N, C) or (T, C), got %u dimensions", nd);
  c->batched = nd == 3;
  c->T = s[0];
  c->N = c->batched ? s[1] : 1;
  c->C = s[nd - 1];
  if (blank < 0 || blank >= c->C)
    return fail (error, GNN_ERROR_INDEX, "blank must be in label range: got %" G_GINT64_FORMAT " for %"
                 G_GINT64_FORMAT " classes", blank, c->C);
  c->blank = blank;
  if (n_input_lengths != c->N || n_target_lengths != c->N)
    return fail (error, GNN_ERROR_SHAPE, "expected %" G_GINT64_FORMAT " input and target lengths (the batch "
                 "size), got %u and %u", c->N, n_input_lengths, n_target_lengths);
  if (gnn_tensor_get_dtype (targets) != GNN_DTYPE_INT64 && gnn_tensor_get_dtype (targets) != GNN_DTYPE_INT32)
    return fail (error, GNN_ERROR_DTYPE, "expected integer targets, got %s",
                 gnn_dtype_get_name (gnn_tensor_get_dtype (targets)));
  c->input_lengths = g_memdup2 (input_lengths, c->N * sizeof (gint64));
  c->target_lengths = g_memdup2 (target_lengths, c->N * sizeof (gint64));
  c->target_offsets = g_new (gint64, c->N);
  for (gint64 n = 0; n < c->N; n++)
    {
      if (input_lengths[n] < 0 || input_lengths[n] > c->T)
        return fail (error, GNN_ERROR_SHAPE, "Expected input_lengths to have value at most %" G_GINT64_FORMAT
                     ", but got value %" G_GINT64_FORMAT, c->T, input_lengths[n]);
      if (target_lengths[n] < 0)
        return fail (error, GNN_ERROR_SHAPE, "expected non-negative target lengths, got %" G_GINT64_FORMAT,
                     target_lengths[n]);
      total += target_lengths[n];
    }
  if ((flat = gnn_tensor_to_int64s (targets, &n_flat, error)) == NULL && gnn_tensor_get_numel (targets) > 0)
    return FALSE;
  /* targets (N, S) padded (or (S) unbatched), or the labels of the batch concatenated */
  if (c->batched && ntd == 2)
    {
      if (st[0] != c->N)
        return fail (error, GNN_ERROR_SHAPE, "expected targets of %" G_GINT64_FORMAT " rows, got %" G_GINT64_FORMAT,
                     c->N, st[0]);
      for (gint64 n = 0; n < c->N; n++)
        {
          if (target_lengths[n] > st[1])
            return fail (error, GNN_ERROR_SHAPE, "Expected tensor to have size at least %" G_GINT64_FORMAT
                         " at dimension 1, but got size %" G_GINT64_FORMAT " for targets",
                         target_lengths[n], st[1]);
          c->target_offsets[n] = n * st[1];
        }
    }
  else if (ntd == 1)
    {
      gint64 at = 0;

      if (!c->batched && target_lengths[0] > st[0])
        return fail (error, GNN_ERROR_SHAPE, "expected at least %" G_GINT64_FORMAT " targets, got %" G_GINT64_FORMAT,
                     target_lengths[0], st[0]);
      if (c->batched && st[0] != total)
        return fail (error, GNN_ERROR_SHAPE, "expected the %" G_GINT64_FORMAT " labels of the target lengths "
                     "concatenated, got %" G_GINT64_FORMAT " targets", total, st[0]);
      for (gint64 n = 0; n < c->N; n++)
        {
          c->target_offsets[n] = at;
          at += target_lengths[n];
        }
    }
  else
    {
      g_autofree char *ts = gnn_shape_to_string (ntd, st);

      return fail (error, GNN_ERROR_SHAPE, "expected targets (N, S) or one-dimensional, got shape %s", ts);
    }
  for (gint64 n = 0; n < c->N; n++)
    for (gint64 i = 0; i < target_lengths[n]; i++)
      {
        gint64 l = flat[c->target_offsets[n] + i];

        if (l < 0 || l >= c->C || l == blank)
          return fail (error, GNN_ERROR_INDEX, "target %" G_GINT64_FORMAT " of sample %" G_GINT64_FORMAT
                       " is out of range: expected a class in [0, %" G_GINT64_FORMAT ") other than the blank %"
                       G_GINT64_FORMAT, l, n, c->C, blank);
      }
  c->targets = g_steal_pointer (&flat);
  return TRUE;
}

/**
 * gnn_tensor_ctc_loss_nll:
 * @log_probs: the log probabilities of the classes, (T, N, C), or (T, C) for one sequence
 *   (as log_softmax gives them)
 * @targets: the int64 (or int32) labels: (N, S) padded, or the labels of the batch
 *   concatenated (one dimension); none is the blank
 * @input_lengths: (array length=n_input_lengths): the length of each input sequence, at most T
 * @n_input_lengths: N
 * @target_lengths: (array length=n_target_lengths): the length of each target
 * @n_target_lengths: N
 * @blank: the class of the blank, in [0, C)
 * @zero_infinity: whether an infinite loss (an input too short for its target) and its
 *   gradient become zero
 * @error: return location for a #GError
 *
 * The negative log likelihood of each target under the connectionist temporal
 * classification of @log_probs (the unreduced `torch.nn.functional.ctc_loss`), with its
 * backward as PyTorch 1.13 computes it. [method@Gnn.Tensor.ctc_loss] reduces it.
 * Bad shapes, lengths and labels are GErrors naming what was expected and found.
 *
 * Returns: (transfer full): the losses, (N), or 0-d for (T, C) log probabilities, or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_ctc_loss_nll (GnnTensor    *log_probs,
                         GnnTensor    *targets,
                         const gint64 *input_lengths,
                         guint         n_input_lengths,
                         const gint64 *target_lengths,
                         guint         n_target_lengths,
                         gint64        blank,
                         gboolean      zero_infinity,
                         GError      **error)
{
  Ctc *c;
  g_autofree double *lp = NULL, *alpha = NULL;
  g_autoptr(GnnTensor) nll64 = NULL, cast = NULL;
  GnnTensor *out;
  GnnNode *node;
  gint64 maxS = 1, shape1;

  g_return_val_if_fail (GNN_IS_TENSOR (log_probs), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (targets), NULL);
  c = g_new0 (Ctc, 1);
  c->zero_infinity = zero_infinity;
  if (!ctc_init (c, log_probs, targets, input_lengths, n_input_lengths, target_lengths, n_target_lengths, blank,
                 error) ||
      ((lp = log_probs_doubles (log_probs, error)) == NULL && c->T * c->N * c->C > 0))
    {
      ctc_free (c);
      return NULL;
    }
  for (gint64 n = 0; n < c->N; n++)
    maxS = MAX (maxS, 2 * c->target_lengths[n] + 1);
  alpha = g_new (double, MAX (c->T, 1) * maxS);
  c->nll = g_new (double, c->N);
  for (gint64 n = 0; n < c->N; n++)
    {
      c->nll[n] = ctc_alpha (c, lp, n, alpha);
      if (zero_infinity && isinf (c->nll[n]))
        c->nll[n] = INFINITY;   /* kept for backward; the output is 0 */
    }
  {
    g_autofree double *shown = g_memdup2 (c->nll, c->N * sizeof (double));

    for (gint64 n = 0; n < c->N; n++)
      if (zero_infinity && isinf (shown[n]))
        shown[n] = 0.0;
    shape1 = c->N;
    nll64 = gnn_tensor_new_from_doubles (shown, c->N, &shape1, c->batched ? 1 : 0, error);
  }
  if (nll64 == NULL || (cast = gnn_tensor_to_dtype (nll64, gnn_tensor_get_dtype (log_probs), error)) == NULL ||
      (out = gnn_tensor_to_device_of (cast, log_probs, error)) == NULL)
    {
      ctc_free (c);
      return NULL;
    }
  if ((node = gnn_autograd_record ("CtcLossBackward0", ctc_backward, &log_probs, 1, &out, 1)))
    {
      gnn_node_save (node, log_probs);
      gnn_node_set_ctx (node, c, ctc_free);
    }
  else
    ctc_free (c);
  return out;
}
