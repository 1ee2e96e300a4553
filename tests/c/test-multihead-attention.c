/* test-multihead-attention.c: gnn_multi_head_attention_forward and GnnMultiheadAttention
 *
 * Tiny shapes: the suite runs under valgrind and on the reference backend.
 */
#include "config.h"

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END

/* a float64 tensor of @shape with values sin (a · i + b) */
static GnnTensor *
wave (const gint64 *shape, guint ndim, double a, double b)
{
  gsize n = 1;
  g_autofree double *d = NULL;

  for (guint i = 0; i < ndim; i++)
    n *= shape[i];
  d = g_new (double, n);
  for (gsize i = 0; i < n; i++)
    d[i] = sin (a * i + b);
  return gnn_test_tensor_d (d, n, shape, ndim);
}

typedef struct {
  guint which;            /* what x stands for: 0 query, 1 key, 2 in_proj_weight, 3 bias_k */
  GnnTensor *t[4];
  GnnTensor *out_w, *out_b, *in_b, *bias_v, *mask;
  gboolean need_weights;
} GradCase;

static GnnTensor *
f_mha (GnnTensor *x, gpointer data, GError **error)
{
  const GradCase *c = data;
  GnnTensor *in[4] = { c->t[0], c->t[1], c->t[2], c->t[3] };
  g_autoptr(GnnTensor) y = NULL, w = NULL, wy = NULL, sum = NULL;

  in[c->which] = x;
  if (!(y = gnn_multi_head_attention_forward (in[0], in[1], in[1], 4, 2, in[2], c->in_b, in[3], in[3] ? c->bias_v : NULL,
                                              FALSE, 0.0, c->out_w, c->out_b, FALSE, NULL, c->need_weights, c->mask,
                                              NULL, NULL, NULL, TRUE, FALSE, &w, error)))
    return NULL;
  if (!(wy = gnn_tensor_mul (y, y, error)))
    return NULL;
  if (w == NULL)
    return g_steal_pointer (&wy);
  if (!(sum = gnn_tensor_sum_all (w, error)))
    return NULL;
  return gnn_tensor_add (wy, sum, 0.5, error);
}

/* a float64 gradcheck of the query, the key, the in-projection and bias_k, with and without
 * the weights, with a float mask */
static void
test_gradcheck (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) q = wave (GNN_TEST_SHAPE (3, 2, 4), 3, 0.7, 0.1);
  g_autoptr(GnnTensor) k = wave (GNN_TEST_SHAPE (2, 2, 4), 3, 1.3, 0.5);
  g_autoptr(GnnTensor) win = wave (GNN_TEST_SHAPE (12, 4), 2, 0.3, 0.2);
  g_autoptr(GnnTensor) bin = wave (GNN_TEST_SHAPE (12), 1, 0.9, 0.4);
  g_autoptr(GnnTensor) wout = wave (GNN_TEST_SHAPE (4, 4), 2, 0.5, 0.6);
  g_autoptr(GnnTensor) bout = wave (GNN_TEST_SHAPE (4), 1, 1.7, 0.0);
  g_autoptr(GnnTensor) bk = wave (GNN_TEST_SHAPE (1, 1, 4), 3, 2.1, 0.3);
  g_autoptr(GnnTensor) bv = wave (GNN_TEST_SHAPE (1, 1, 4), 3, 1.9, 0.8);
  g_autoptr(GnnTensor) mask = wave (GNN_TEST_SHAPE (3, 2), 2, 2.3, 0.0);

  for (guint nw = 0; nw < 2; nw++)
    for (guint which = 0; which < 4; which++)
      {
        GradCase c = { which, { q, k, win, bk }, wout, bout, bin, bv, mask, nw };
        g_autoptr(GnnTensor) x = gnn_tensor_clone (c.t[which], &error);

        g_assert_no_error (error);
        gnn_test_gradcheck (f_mha, &c, x, 1e-6, 1e-6);
      }
}

static void
test_layer (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnMultiheadAttention) mha = NULL;
  g_autoptr(GnnArgs) in = NULL, out = NULL;
  g_autoptr(GnnTensor) x = NULL, x32 = NULL;
  GnnTensor *y, *w;

  OK (mha = gnn_multihead_attention_new (4, 2, &error));
  g_assert_cmpint (gnn_multihead_attention_get_embed_dim (mha), ==, 4);
  g_assert_cmpint (gnn_multihead_attention_get_num_heads (mha), ==, 2);
  x = wave (GNN_TEST_SHAPE (3, 2, 4), 3, 0.7, 0.1);
  OK (x32 = gnn_tensor_to_dtype (x, GNN_DTYPE_FLOAT32, &error));
  in = gnn_args_new ();
  gnn_args_add_tensor (in, x32);
  gnn_args_add_tensor (in, x32);
  gnn_args_add_tensor (in, x32);
  OK (out = gnn_module_forward (GNN_MODULE (mha), in, &error));
  g_assert_cmpuint (gnn_args_get_n_values (out), ==, 2);
  OK (y = gnn_args_get_tensor (out, 0, &error));
  OK (w = gnn_args_get_tensor (out, 1, &error));
  gnn_test_assert_shape (y, GNN_TEST_SHAPE (3, 2, 4), 3);
  gnn_test_assert_shape (w, GNN_TEST_SHAPE (2, 3, 3), 3);
  g_clear_object (&out);

  /* need_weights=False as a keyword: no weights */
  {
    GValue v = G_VALUE_INIT;

    g_value_init (&v, G_TYPE_BOOLEAN);
    g_value_set_boolean (&v, FALSE);
    gnn_args_set_kwarg (in, "need_weights", &v);
    g_value_unset (&v);
  }
  OK (out = gnn_module_forward (GNN_MODULE (mha), in, &error));
  g_assert_null (gnn_args_get_tensor (out, 1, NULL));
  g_assert_finalize_object (g_steal_pointer (&mha));
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnMultiheadAttention) bad = gnn_multihead_attention_new (5, 2, &error);
  g_autoptr(GnnTensor) q = wave (GNN_TEST_SHAPE (3, 2, 4), 3, 0.7, 0.1);
  g_autoptr(GnnTensor) k = wave (GNN_TEST_SHAPE (2, 2, 4), 3, 1.3, 0.5);
  g_autoptr(GnnTensor) k2 = wave (GNN_TEST_SHAPE (2, 4), 2, 1.3, 0.5);
  g_autoptr(GnnTensor) win = wave (GNN_TEST_SHAPE (12, 4), 2, 0.3, 0.2);
  g_autoptr(GnnTensor) wout = wave (GNN_TEST_SHAPE (4, 4), 2, 0.5, 0.6);
  g_autoptr(GnnTensor) m = wave (GNN_TEST_SHAPE (3, 3), 2, 0.5, 0.6);
  GnnTensor *y;

  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "embed_dim must be divisible by num_heads"));
  g_clear_error (&error);

  y = gnn_multi_head_attention_forward (q, k2, k2, 4, 2, win, NULL, NULL, NULL, FALSE, 0, wout, NULL, FALSE, NULL,
                                        TRUE, NULL, NULL, NULL, NULL, TRUE, FALSE, NULL, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "expected `key` and `value` to be 3-D"));
  g_clear_error (&error);

  y = gnn_multi_head_attention_forward (q, k, k, 4, 2, win, NULL, NULL, NULL, FALSE, 0, wout, NULL, FALSE, NULL,
                                        TRUE, m, NULL, NULL, NULL, TRUE, FALSE, NULL, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "The shape of the 2D attn_mask is [3, 3], but should be (3, 2)"));
  g_clear_error (&error);

  y = gnn_multi_head_attention_forward (q, k, k, 4, 3, win, NULL, NULL, NULL, FALSE, 0, wout, NULL, FALSE, NULL,
                                        TRUE, NULL, NULL, NULL, NULL, TRUE, FALSE, NULL, &error);
  g_assert_null (y);
  g_assert_nonnull (strstr (error->message, "not divisible by num_heads"));
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/multihead-attention/gradcheck", test_gradcheck);
  g_test_add_func ("/multihead-attention/layer", test_layer);
  g_test_add_func ("/multihead-attention/errors", test_errors);
  return g_test_run ();
}
