/* test-attention.c: scaled dot-product attention (the fused kernels and the composed formula)
 *
 * Tiny shapes: the suite runs under valgrind and on the reference backend.
 */
#include "config.h"

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END

static void
assert_error (GError **error, gint code, const char *fragment)
{
  g_assert_error (*error, GNN_ERROR, code);
  if (strstr ((*error)->message, fragment) == NULL)
    g_error ("error message '%s' lacks '%s'", (*error)->message, fragment);
  g_clear_error (error);
}

/* a float64 tensor of @shape with values sin (a · i + b) */
static GnnTensor *
wave (const gint64 *shape, guint ndim, double a, double b)
{
  gint64 n = 1;
  g_autofree double *v = NULL;

  for (guint d = 0; d < ndim; d++)
    n *= shape[d];
  v = g_new (double, n);
  for (gint64 i = 0; i < n; i++)
    v[i] = sin (a * (double) i + b);
  return gnn_test_tensor_d (v, n, shape, ndim);
}

/* softmax (q kᵀ scale + mask) v with generic ops; @mask additive or NULL */
static GnnTensor *
composed (GnnTensor *q, GnnTensor *k, GnnTensor *v, GnnTensor *mask, double scale, GError **error)
{
  guint nd = gnn_tensor_get_ndim (k);
  g_autoptr(GnnTensor) kt = gnn_tensor_transpose (k, nd - 2, nd - 1, error);
  g_autoptr(GnnTensor) s = kt ? gnn_tensor_matmul (q, kt, error) : NULL;
  g_autoptr(GnnTensor) ss = s ? gnn_tensor_mul_scalar (s, scale, error) : NULL;
  g_autoptr(GnnTensor) sm = ss && mask ? gnn_tensor_add (ss, mask, 1.0, error) : ss ? g_object_ref (ss) : NULL;
  g_autoptr(GnnTensor) p = sm ? gnn_tensor_softmax (sm, -1, error) : NULL;

  return p ? gnn_tensor_matmul (p, v, error) : NULL;
}

static void
assert_tensors_close (GnnTensor *got, GnnTensor *want, double tol)
{
  g_autoptr(GError) error = NULL;
  gsize n = 0;
  g_autofree double *w = NULL;

  OK (w = gnn_tensor_to_doubles (want, &n, &error));
  gnn_test_assert_close (got, w, n, tol, tol);
}

/* the values against the composed formula: no mask, a bool mask and a float mask broadcast over
 * the batch dims, a causal call with S > L, the default and a given scale */
static void
test_values (void)
{
  g_autoptr(GError) error = NULL;
  const gint64 sq[] = { 2, 3, 4, 5 }, sk[] = { 2, 3, 6, 5 }, sv[] = { 2, 3, 6, 2 }, sm[] = { 3, 1, 6 };
  g_autoptr(GnnTensor) q = wave (sq, 4, 0.7, 0.1), k = wave (sk, 4, 1.3, 0.5), v = wave (sv, 4, 0.9, 0.3);
  g_autoptr(GnnTensor) fmask = wave (sm, 3, 2.1, 0.0);
  g_autoptr(GnnTensor) bmask = NULL, badd = NULL, neg = NULL, zero = NULL, causal = NULL, full = NULL;
  double scale0 = 1.0 / sqrt (5.0);

  /* bool: attend where the float mask is > -0.5; the additive form for the composed formula */
  OK (bmask = gnn_tensor_gt_scalar (fmask, -0.5, &error));
  OK (neg = gnn_tensor_new_full (sm, 3, -INFINITY, GNN_DTYPE_FLOAT64, "cpu", &error));
  OK (badd = gnn_tensor_masked_fill (neg, bmask, 0.0, &error));
  OK (full = gnn_tensor_new_full (GNN_TEST_SHAPE (4, 6), 2, -INFINITY, GNN_DTYPE_FLOAT64, "cpu", &error));
  OK (causal = gnn_tensor_triu (full, 1, &error));

  {
    g_autoptr(GnnTensor) got = NULL, want = NULL;
    OK (got = gnn_scaled_dot_product_attention (q, k, v, NULL, 0.0, FALSE, 0.0, &error));
    OK (want = composed (q, k, v, NULL, scale0, &error));
    gnn_test_assert_shape (got, GNN_TEST_SHAPE (2, 3, 4, 2), 4);
    assert_tensors_close (got, want, 1e-12);
  }
  {
    g_autoptr(GnnTensor) got = NULL, want = NULL;
    OK (got = gnn_scaled_dot_product_attention (q, k, v, fmask, 0.0, FALSE, 0.3, &error));
    OK (want = composed (q, k, v, fmask, 0.3, &error));
    assert_tensors_close (got, want, 1e-12);
  }
  {
    g_autoptr(GnnTensor) got = NULL, want = NULL;
    OK (got = gnn_scaled_dot_product_attention (q, k, v, bmask, 0.0, FALSE, NAN, &error));
    OK (want = composed (q, k, v, badd, scale0, &error));
    assert_tensors_close (got, want, 1e-12);
  }
  {
    g_autoptr(GnnTensor) got = NULL, want = NULL;
    OK (got = gnn_scaled_dot_product_attention (q, k, v, NULL, 0.0, TRUE, -1.0, &error));
    OK (want = composed (q, k, v, causal, scale0, &error));
    assert_tensors_close (got, want, 1e-12);
  }
  /* float32 follows float64 */
  {
    g_autoptr(GnnTensor) q32 = NULL, k32 = NULL, v32 = NULL, got = NULL, want = NULL;
    OK (q32 = gnn_tensor_to_dtype (q, GNN_DTYPE_FLOAT32, &error));
    OK (k32 = gnn_tensor_to_dtype (k, GNN_DTYPE_FLOAT32, &error));
    OK (v32 = gnn_tensor_to_dtype (v, GNN_DTYPE_FLOAT32, &error));
    OK (got = gnn_scaled_dot_product_attention (q32, k32, v32, NULL, 0.0, TRUE, 0.0, &error));
    g_assert_cmpint (gnn_tensor_get_dtype (got), ==, GNN_DTYPE_FLOAT32);
    OK (want = composed (q, k, v, causal, scale0, &error));
    assert_tensors_close (got, want, 1e-5);
  }
}

/* a causal call never reads a later key or value: NaN there stays out of the earlier rows */
static void
test_causal_no_future (void)
{
  g_autoptr(GError) error = NULL;
  const gint64 shape[] = { 1, 5, 3 };
  g_autoptr(GnnTensor) q = wave (shape, 3, 0.7, 0.1);
  g_autofree double *kv = NULL, *vv = NULL, *out = NULL;
  g_autoptr(GnnTensor) k = NULL, v = NULL, y = NULL;
  gsize n = 0;

  {
    g_autoptr(GnnTensor) k0 = wave (shape, 3, 1.1, 0.2), v0 = wave (shape, 3, 0.4, 0.9);
    OK (kv = gnn_tensor_to_doubles (k0, &n, &error));
    OK (vv = gnn_tensor_to_doubles (v0, &n, &error));
  }
  for (guint e = 0; e < 3; e++)
    kv[4 * 3 + e] = vv[4 * 3 + e] = vv[3 * 3 + e] = NAN;   /* key 4, values 3 and 4 */
  k = gnn_test_tensor_d (kv, 15, shape, 3);
  v = gnn_test_tensor_d (vv, 15, shape, 3);
  OK (y = gnn_scaled_dot_product_attention (q, k, v, NULL, 0.0, TRUE, 0.0, &error));
  OK (out = gnn_tensor_to_doubles (y, &n, &error));
  for (guint i = 0; i < 5; i++)
    for (guint e = 0; e < 3; e++)
      if (i < 3)
        g_assert_true (isfinite (out[i * 3 + e]));
      else
        g_assert_true (isnan (out[i * 3 + e]));
}

/* a row whose every key is masked out is NaN, as softmax gives */
static void
test_fully_masked (void)
{
  g_autoptr(GError) error = NULL;
  const gint64 shape[] = { 2, 3 };
  g_autoptr(GnnTensor) q = wave (shape, 2, 0.7, 0.1), k = wave (shape, 2, 1.1, 0.2), v = wave (shape, 2, 0.4, 0.9);
  g_autoptr(GnnTensor) m = gnn_test_tensor_d (GNN_TEST_DATA (1, 0, 0, 0), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) mb = NULL, y = NULL;
  g_autofree double *out = NULL;
  gsize n = 0;

  OK (mb = gnn_tensor_to_dtype (m, GNN_DTYPE_BOOL, &error));
  OK (y = gnn_scaled_dot_product_attention (q, k, v, mb, 0.0, FALSE, 0.0, &error));
  OK (out = gnn_tensor_to_doubles (y, &n, &error));
  for (guint e = 0; e < 3; e++)
    {
      g_assert_cmpfloat_with_epsilon (out[e], sin (0.4 * e + 0.9), 1e-12);   /* key 0 alone */
      g_assert_true (isnan (out[3 + e]));
    }
}

typedef struct {
  guint which;            /* the input x stands for: 0 q, 1 k, 2 v */
  GnnTensor *qkv[3];
  GnnTensor *mask;
  gboolean causal;
  double scale;
} GradCase;

static GnnTensor *
f_attention (GnnTensor *x, gpointer data, GError **error)
{
  const GradCase *c = data;
  GnnTensor *in[3] = { c->qkv[0], c->qkv[1], c->qkv[2] };
  g_autoptr(GnnTensor) y = NULL, w = NULL;
  guint nd;
  const gint64 *shape;

  in[c->which] = x;
  if (!(y = gnn_scaled_dot_product_attention (in[0], in[1], in[2], c->mask, 0.0, c->causal, c->scale, error)))
    return NULL;
  if (gnn_tensor_get_requires_grad (y) &&
      g_strcmp0 (gnn_tensor_get_grad_fn_name (y), "ScaledDotProductAttentionBackward0") != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED, "expected the fused node, got %s",
                   gnn_tensor_get_grad_fn_name (y));
      return NULL;
    }
  shape = gnn_tensor_get_shape (y, &nd);
  w = wave (shape, nd, 0.37, 1.0);
  return gnn_tensor_mul (y, w, error);
}

/* a float64 gradcheck of q, k and v through the fused backward: plain, float mask, causal */
static void
test_gradcheck (void)
{
  g_autoptr(GError) error = NULL;
  const gint64 sq[] = { 2, 3, 2 }, sk[] = { 2, 4, 2 }, sv[] = { 2, 4, 3 }, sm[] = { 3, 4 };
  g_autoptr(GnnTensor) q = wave (sq, 3, 0.7, 0.1), k = wave (sk, 3, 1.3, 0.5), v = wave (sv, 3, 0.9, 0.3);
  g_autoptr(GnnTensor) mask = wave (sm, 2, 2.1, 0.0);
  GnnTensor *masks[3] = { NULL, mask, NULL };

  for (guint variant = 0; variant < 3; variant++)
    for (guint which = 0; which < 3; which++)
      {
        GradCase c = { which, { q, k, v }, masks[variant], variant == 2, variant == 1 ? 0.8 : 0.0 };
        g_autoptr(GnnTensor) x = gnn_tensor_clone (c.qkv[which], &error);

        g_assert_no_error (error);
        gnn_test_gradcheck (f_attention, &c, x, 1e-6, 1e-6);
      }
}

/* the fused backward is differentiable once: a double backward is refused (the gradgradcheck
 * of the composed formula is what the other paths have) */
static void
test_double_backward_refused (void)
{
  g_autoptr(GError) error = NULL;
  const gint64 s[] = { 3, 2 };
  g_autoptr(GnnTensor) q = wave (s, 2, 0.7, 0.1), k = wave (s, 2, 1.3, 0.5), v = wave (s, 2, 0.9, 0.3);
  g_autoptr(GnnTensor) y = NULL, l = NULL;
  g_autoptr(GPtrArray) g1 = NULL, g2 = NULL;

  OK (gnn_tensor_set_requires_grad (q, TRUE, &error));
  OK (y = gnn_scaled_dot_product_attention (q, k, v, NULL, 0.0, FALSE, 0.0, &error));
  OK (l = gnn_tensor_sum_all (y, &error));
  g1 = gnn_autograd_grad (&l, 1, NULL, 0, &q, 1, TRUE, TRUE, FALSE, &error);
  g_assert_null (g1);
  assert_error (&error, GNN_ERROR_NOT_SUPPORTED, "double backward");
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) q = wave (GNN_TEST_SHAPE (2, 3, 4), 3, 0.7, 0.1);
  g_autoptr(GnnTensor) k = wave (GNN_TEST_SHAPE (2, 5, 4), 3, 1.3, 0.5);
  g_autoptr(GnnTensor) v = wave (GNN_TEST_SHAPE (2, 5, 2), 3, 0.9, 0.3);
  g_autoptr(GnnTensor) k3 = wave (GNN_TEST_SHAPE (2, 5, 3), 3, 1.3, 0.5);
  g_autoptr(GnnTensor) v6 = wave (GNN_TEST_SHAPE (2, 6, 2), 3, 0.9, 0.3);
  g_autoptr(GnnTensor) kb = wave (GNN_TEST_SHAPE (3, 5, 4), 3, 1.3, 0.5);
  g_autoptr(GnnTensor) k2 = wave (GNN_TEST_SHAPE (5, 4), 2, 1.3, 0.5);
  g_autoptr(GnnTensor) badmask = wave (GNN_TEST_SHAPE (3, 4), 2, 1.0, 0.0);
  g_autoptr(GnnTensor) goodmask = wave (GNN_TEST_SHAPE (3, 5), 2, 1.0, 0.0);
  g_autoptr(GnnTensor) q32 = NULL, qi = NULL, m32 = NULL;

  g_assert_null (gnn_scaled_dot_product_attention (q, k3, v, NULL, 0.0, FALSE, 0.0, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "same embedding size E (query of shape [2, 3, 4], key of shape [2, 5, 3])");
  g_assert_null (gnn_scaled_dot_product_attention (q, k, v6, NULL, 0.0, FALSE, 0.0, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "same sequence length S");
  g_assert_null (gnn_scaled_dot_product_attention (q, kb, v, NULL, 0.0, FALSE, 0.0, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "batch dimensions");
  g_assert_null (gnn_scaled_dot_product_attention (q, k2, v, NULL, 0.0, FALSE, 0.0, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "ranks 3, 2 and 3");
  g_assert_null (gnn_scaled_dot_product_attention (q, k, v, badmask, 0.0, FALSE, 0.0, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "attn_mask of shape [3, 4] does not broadcast to the scores' shape [2, 3, 5]");
  g_assert_null (gnn_scaled_dot_product_attention (q, k, v, goodmask, 0.0, TRUE, 0.0, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "is_causal");
  g_assert_null (gnn_scaled_dot_product_attention (q, k, v, NULL, 1.0, FALSE, 0.0, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "dropout_p must be in [0, 1), got 1");
  OK (q32 = gnn_tensor_to_dtype (q, GNN_DTYPE_FLOAT32, &error));
  g_assert_null (gnn_scaled_dot_product_attention (q32, k, v, NULL, 0.0, FALSE, 0.0, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "query float32, key float64");
  OK (qi = gnn_tensor_to_dtype (q, GNN_DTYPE_INT64, &error));
  g_assert_null (gnn_scaled_dot_product_attention (qi, qi, qi, NULL, 0.0, FALSE, 0.0, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "floating");
  OK (m32 = gnn_tensor_to_dtype (goodmask, GNN_DTYPE_FLOAT32, &error));
  g_assert_null (gnn_scaled_dot_product_attention (q, k, v, m32, 0.0, FALSE, 0.0, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "attn_mask of dtype bool or float64");
}

/* dropout_p > 0 runs the composed formula: rows still sum the values with weights ≥ 0 */
static void
test_dropout (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) q = wave (GNN_TEST_SHAPE (4, 3), 2, 0.7, 0.1), k = wave (GNN_TEST_SHAPE (5, 3), 2, 1.3, 0.5);
  g_autoptr(GnnTensor) v = wave (GNN_TEST_SHAPE (5, 2), 2, 0.9, 0.3);
  g_autoptr(GnnTensor) y = NULL;

  OK (y = gnn_scaled_dot_product_attention (q, k, v, NULL, 0.5, FALSE, 0.0, &error));
  gnn_test_assert_shape (y, GNN_TEST_SHAPE (4, 2), 2);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/attention/sdpa/values", test_values);
  g_test_add_func ("/attention/sdpa/causal-no-future", test_causal_no_future);
  g_test_add_func ("/attention/sdpa/fully-masked", test_fully_masked);
  g_test_add_func ("/attention/sdpa/gradcheck", test_gradcheck);
  g_test_add_func ("/attention/sdpa/double-backward-refused", test_double_backward_refused);
  g_test_add_func ("/attention/sdpa/errors", test_errors);
  g_test_add_func ("/attention/sdpa/dropout", test_dropout);
  return g_test_run ();
}
