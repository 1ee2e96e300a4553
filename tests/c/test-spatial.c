/* test-spatial.c: the 1-d forms of convolution and pooling (on the 2-d kernels with a unit
 * height): hand-computed cases, float64 gradchecks, errors that name the op
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-test-util.h"

static GnnTensor *
row_1_3_2_5_4 (void)
{
  return gnn_test_tensor_d (GNN_TEST_DATA (1, 3, 2, 5, 4), 5, GNN_TEST_SHAPE (1, 1, 5), 3);
}

static void
test_pool1d_by_hand (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = row_1_3_2_5_4 ();
  g_autoptr(GnnTensor) m = NULL, idx = NULL, mc = NULL, idxc = NULL, a = NULL, ad = NULL, u = NULL, ui = NULL;
  g_autoptr(GnnTensor) x2 = NULL;

  /* stride 0: the kernel size */
  m = gnn_tensor_max_pool1d (x, 2, 0, 0, 1, FALSE, &idx, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (m, GNN_TEST_SHAPE (1, 1, 2), 3);
  gnn_test_assert_close (m, GNN_TEST_DATA (3, 5), 2, 0, 0);
  g_assert_cmpint (gnn_tensor_get_dtype (idx), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (idx, GNN_TEST_DATA (1, 3), 2, 0, 0);
  /* ceil_mode keeps the last, partial window */
  mc = gnn_tensor_max_pool1d (x, 2, 2, 0, 1, TRUE, &idxc, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (mc, GNN_TEST_DATA (3, 5, 4), 3, 0, 0);
  gnn_test_assert_close (idxc, GNN_TEST_DATA (1, 3, 4), 3, 0, 0);

  /* padding 1 not counted: the end windows divide by 2 */
  a = gnn_tensor_avg_pool1d (x, 3, 1, 1, FALSE, FALSE, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (a, GNN_TEST_DATA (2, 2, 10.0 / 3, 11.0 / 3, 4.5), 5, 1e-12, 1e-12);

  /* windows [0, 3) and [2, 5) */
  ad = gnn_tensor_adaptive_avg_pool1d (x, 2, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (ad, GNN_TEST_DATA (2, 11.0 / 3), 2, 1e-12, 1e-12);

  /* unbatched (C, L) */
  x2 = gnn_tensor_squeeze_dim (x, 0, &error);
  g_assert_no_error (error);
  u = gnn_tensor_max_pool1d (x2, 3, 2, 1, 1, FALSE, &ui, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (u, GNN_TEST_SHAPE (1, 3), 2);
  gnn_test_assert_shape (ui, GNN_TEST_SHAPE (1, 3), 2);
  gnn_test_assert_close (u, GNN_TEST_DATA (3, 5, 5), 3, 0, 0);
  gnn_test_assert_close (ui, GNN_TEST_DATA (1, 3, 3), 3, 0, 0);
}

static void
test_conv_transpose1d_by_hand (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (1, 1, 2), 3);
  g_autoptr(GnnTensor) w = gnn_test_tensor_d (GNN_TEST_DATA (1, 10), 2, GNN_TEST_SHAPE (1, 1, 2), 3);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (0.5), 1, GNN_TEST_SHAPE (1), 1);
  g_autoptr(GnnTensor) y = NULL, y2 = NULL;

  /* stride 2: each input element writes itself and 10 times itself */
  y = gnn_tensor_conv_transpose1d (x, w, NULL, 2, 0, 0, 1, 1, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y, GNN_TEST_SHAPE (1, 1, 4), 3);
  gnn_test_assert_close (y, GNN_TEST_DATA (1, 10, 2, 20), 4, 1e-12, 1e-12);
  /* stride 1, output_padding 0, a bias: the middle element is 10 + 2 */
  y2 = gnn_tensor_conv_transpose1d (x, w, b, 1, 0, 0, 1, 1, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (y2, GNN_TEST_DATA (1.5, 12.5, 20.5), 3, 1e-12, 1e-12);
}

typedef struct {
  GnnTensor *x, *w, *b;
} TransposedCase;

static GnnTensor *
transposed_of_input (GnnTensor *x, gpointer data, GError **error)
{
  TransposedCase *c = data;
  g_autoptr(GnnTensor) y = gnn_tensor_conv_transpose1d (x, c->w, c->b, 2, 1, 1, 2, 1, error);
  return y ? gnn_test_weighted_sum (y, error) : NULL;
}

static GnnTensor *
transposed_of_weight (GnnTensor *w, gpointer data, GError **error)
{
  TransposedCase *c = data;
  g_autoptr(GnnTensor) y = gnn_tensor_conv_transpose1d (c->x, w, c->b, 2, 1, 1, 2, 1, error);
  return y ? gnn_test_weighted_sum (y, error) : NULL;
}

static GnnTensor *
transposed_of_bias (GnnTensor *b, gpointer data, GError **error)
{
  TransposedCase *c = data;
  g_autoptr(GnnTensor) y = gnn_tensor_conv_transpose1d (c->x, c->w, b, 1, 0, 0, 2, 2, error);
  return y ? gnn_test_weighted_sum (y, error) : NULL;
}

static GnnTensor *
max_pool_fn (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) y = gnn_tensor_max_pool1d (x, 3, 2, 1, 2, TRUE, NULL, error);
  return y ? gnn_test_weighted_sum (y, error) : NULL;
}

static GnnTensor *
avg_pool_fn (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) y = gnn_tensor_avg_pool1d (x, 3, 2, 1, TRUE, GPOINTER_TO_INT (data), error);
  return y ? gnn_test_weighted_sum (y, error) : NULL;
}

static GnnTensor *
adaptive_fn (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) y = gnn_tensor_adaptive_avg_pool1d (x, GPOINTER_TO_INT (data), error);
  return y ? gnn_test_weighted_sum (y, error) : NULL;
}

static GnnTensor *
lp_pool1d_fn (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) y = gnn_tensor_lp_pool1d (x, 3, 3, 2, TRUE, error);
  return y ? gnn_test_weighted_sum (y, error) : NULL;
}

static GnnTensor *
lp_pool2d_fn (GnnTensor *x, gpointer data, GError **error)
{
  const gint64 k[2] = { 2, 3 }, st[2] = { 1, 2 };
  g_autoptr(GnnTensor) y = gnn_tensor_lp_pool2d (x, 2, k, data ? st : NULL, FALSE, error);
  return y ? gnn_test_weighted_sum (y, error) : NULL;
}

/* positive values, so that x^p and its root are defined for every p */
static GnnTensor *
positive_input (const gint64 *shape, guint ndim, guint64 seed)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *x;

  gnn_manual_seed (seed);
  x = gnn_tensor_new_rand (shape, ndim, NULL, GNN_DTYPE_FLOAT64, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_add_scalar_ (x, 0.5, &error));
  g_assert_no_error (error);
  return x;
}

static void
test_lp_pool (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = row_1_3_2_5_4 ();
  g_autoptr(GnnTensor) y = NULL, y2 = NULL;
  g_autoptr(GnnTensor) p1 = positive_input (GNN_TEST_SHAPE (2, 2, 7), 3, 31);
  g_autoptr(GnnTensor) p2 = positive_input (GNN_TEST_SHAPE (2, 4, 7), 3, 32);

  /* the 2-norm of (1, 3), (2, 5): √10, √29 */
  y = gnn_tensor_lp_pool1d (x, 2, 2, 0, FALSE, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (y, GNN_TEST_DATA (sqrt (10), sqrt (29)), 2, 1e-12, 1e-12);
  /* p = 1: the window sums; the last, partial window of ceil_mode is its mean times the
   * kernel size, 4 · 2, as torch 1.13 computes it */
  y2 = gnn_tensor_lp_pool1d (x, 1, 2, 2, TRUE, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (y2, GNN_TEST_DATA (4, 7, 8), 3, 1e-12, 1e-12);

  gnn_test_gradcheck (lp_pool1d_fn, NULL, p1, 1e-6, 1e-5);
  gnn_test_gradcheck (lp_pool2d_fn, NULL, p2, 1e-6, 1e-5);
  gnn_test_gradcheck (lp_pool2d_fn, GINT_TO_POINTER (1), p2, 1e-6, 1e-5);

  g_assert_null (gnn_tensor_lp_pool1d (x, 0, 2, 0, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "lp_pool1d: norm_type must not be 0"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_lp_pool2d (x, 2, GNN_TEST_SHAPE (2, 2), NULL, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "lp_pool2d: "));
  g_clear_error (&error);
}

static void
test_dropout1d (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) ones = NULL, ones2 = NULL, y = NULL, y2 = NULL, ev = NULL, bad = NULL;
  g_autofree double *v = NULL;
  gsize n = 0;
  int dropped = 0;

  ones = gnn_tensor_new_full (GNN_TEST_SHAPE (4, 8, 5), 3, 1.0, GNN_DTYPE_FLOAT64, NULL, &error);
  g_assert_no_error (error);
  gnn_manual_seed (3);
  y = gnn_tensor_dropout1d (ones, 0.5, TRUE, &error);
  g_assert_no_error (error);
  v = gnn_tensor_to_doubles (y, &n, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 160);
  /* every (n, c) row is all 0 or all 2 */
  for (int r = 0; r < 32; r++)
    {
      for (int l = 1; l < 5; l++)
        g_assert_cmpfloat (v[r * 5 + l], ==, v[r * 5]);
      g_assert_true (v[r * 5] == 0 || v[r * 5] == 2);
      dropped += v[r * 5] == 0;
    }
  g_assert_cmpint (dropped, >, 4);
  g_assert_cmpint (dropped, <, 28);

  /* unbatched (C, L): the rows are the channels */
  ones2 = gnn_tensor_new_full (GNN_TEST_SHAPE (6, 4), 2, 1.0, GNN_DTYPE_FLOAT64, NULL, &error);
  g_assert_no_error (error);
  y2 = gnn_tensor_dropout1d (ones2, 1.0, TRUE, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y2, GNN_TEST_SHAPE (6, 4), 2);
  ev = gnn_tensor_dropout1d (ones2, 0.5, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (ev == ones2);

  bad = gnn_tensor_new_full (GNN_TEST_SHAPE (2, 2, 2, 2), 4, 1.0, GNN_DTYPE_FLOAT64, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (gnn_tensor_dropout1d (bad, 0.5, TRUE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "dropout1d: Expected 2D or 3D input, but received a 4D input"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_dropout1d (ones2, 1.5, TRUE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "dropout1d: dropout probability has to be between 0 and 1, but got 1.5"));
  g_clear_error (&error);
}

static void
test_gradcheck (void)
{
  g_autoptr(GnnTensor) x = gnn_test_randn (GNN_TEST_SHAPE (2, 4, 5), 3, 21);
  g_autoptr(GnnTensor) w = gnn_test_randn (GNN_TEST_SHAPE (4, 3, 3), 3, 22);
  g_autoptr(GnnTensor) b = gnn_test_randn (GNN_TEST_SHAPE (6), 1, 23);
  g_autoptr(GnnTensor) p = gnn_test_randn (GNN_TEST_SHAPE (2, 3, 7), 3, 24);
  g_autoptr(GnnTensor) pu = gnn_test_randn (GNN_TEST_SHAPE (3, 7), 2, 25);
  TransposedCase c = { x, w, b };

  gnn_test_gradcheck (transposed_of_input, &c, x, 1e-6, 1e-5);
  gnn_test_gradcheck (transposed_of_weight, &c, w, 1e-6, 1e-5);
  gnn_test_gradcheck (transposed_of_bias, &c, b, 1e-6, 1e-5);
  /* (random values: no ties, so max is differentiable at x) */
  gnn_test_gradcheck (max_pool_fn, NULL, p, 1e-6, 1e-5);
  gnn_test_gradcheck (max_pool_fn, NULL, pu, 1e-6, 1e-5);
  gnn_test_gradcheck (avg_pool_fn, GINT_TO_POINTER (TRUE), p, 1e-6, 1e-5);
  gnn_test_gradcheck (avg_pool_fn, GINT_TO_POINTER (FALSE), pu, 1e-6, 1e-5);
  gnn_test_gradcheck (adaptive_fn, GINT_TO_POINTER (3), p, 1e-6, 1e-5);
  gnn_test_gradcheck (adaptive_fn, GINT_TO_POINTER (5), pu, 1e-6, 1e-5);
}

static void
assert_error (GError **error, int code, const char *words)
{
  g_assert_error (*error, GNN_ERROR, code);
  if (strstr ((*error)->message, words) == NULL)
    g_error ("\"%s\" lacks \"%s\"", (*error)->message, words);
  g_clear_error (error);
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x4 = gnn_test_randn (GNN_TEST_SHAPE (1, 2, 3, 4), 4, 1);
  g_autoptr(GnnTensor) x = gnn_test_randn (GNN_TEST_SHAPE (1, 2, 4), 3, 2);
  g_autoptr(GnnTensor) w = gnn_test_randn (GNN_TEST_SHAPE (3, 2, 2), 3, 3);
  g_autoptr(GnnTensor) w4 = gnn_test_randn (GNN_TEST_SHAPE (2, 2, 2, 2), 4, 4);

  g_assert_null (gnn_tensor_max_pool1d (x4, 2, 0, 0, 1, FALSE, NULL, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "max_pool1d: expected a 2-d (C, L) or 3-d (N, C, L) input, got shape [1, 2, 3, 4]");
  g_assert_null (gnn_tensor_max_pool1d (x, 2, 0, 2, 1, FALSE, NULL, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "max_pool1d: pad should be at most half of kernel size, but got pad=2 and kernel_size=2");
  g_assert_null (gnn_tensor_max_pool1d (x, 9, 0, 0, 1, FALSE, NULL, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "max_pool1d: Given input size");
  g_assert_null (gnn_tensor_avg_pool1d (x4, 2, 0, 0, FALSE, TRUE, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "avg_pool1d: expected a 2-d");
  g_assert_null (gnn_tensor_avg_pool1d (x, 0, 0, 0, FALSE, TRUE, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "avg_pool1d: kernel size");
  g_assert_null (gnn_tensor_adaptive_avg_pool1d (x4, 2, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "adaptive_avg_pool1d: expected a 2-d");
  g_assert_null (gnn_tensor_adaptive_avg_pool1d (x, -1, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "adaptive_avg_pool1d: output_size must be non-negative");
  g_assert_null (gnn_tensor_conv_transpose1d (x, w, NULL, 1, 0, 0, 1, 1, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "conv_transpose1d: expected a 2-d (C, L) or 3-d (N, C, L) input with C = 3 "
                                         "channels, got shape [1, 2, 4]");
  g_assert_null (gnn_tensor_conv_transpose1d (x, w4, NULL, 1, 0, 0, 1, 1, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "conv_transpose1d: expected a 3-d weight (in_channels, out_channels / groups, "
                                         "kW), got shape [2, 2, 2, 2]");
  g_assert_null (gnn_tensor_conv1d (x, w4, NULL, 1, 0, 1, 1, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "conv1d: expected a 3-d weight (out_channels, in_channels / groups, kW)");
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/spatial/pool1d-by-hand", test_pool1d_by_hand);
  g_test_add_func ("/spatial/conv-transpose1d-by-hand", test_conv_transpose1d_by_hand);
  g_test_add_func ("/spatial/gradcheck", test_gradcheck);
  g_test_add_func ("/spatial/errors", test_errors);
  g_test_add_func ("/spatial/lp-pool", test_lp_pool);
  g_test_add_func ("/spatial/dropout1d", test_dropout1d);
  return g_test_run ();
}
