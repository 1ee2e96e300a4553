/* test-conv.c: conv1d / conv2d / conv3d / conv_transpose2d / conv_transpose3d, max / avg / adaptive
 * pooling (2-d and 3-d) and their layers: hand-computed cases,
 * float64 gradchecks, shape errors that name the layer, printed forms
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-test-util.h"

static const gint64 one[2] = { 1, 1 }, zero[2] = { 0, 0 };

static GnnTensor *
image_3x3 (gboolean requires_grad)
{
  GnnTensor *x = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, 5, 6, 7, 8, 9), 9, GNN_TEST_SHAPE (1, 1, 3, 3), 4);

  if (requires_grad)
    gnn_tensor_set_requires_grad (x, TRUE, NULL);
  return x;
}

static GnnTensor *
kernel_2x2 (gboolean requires_grad)
{
  GnnTensor *w = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4), 4, GNN_TEST_SHAPE (1, 1, 2, 2), 4);

  if (requires_grad)
    gnn_tensor_set_requires_grad (w, TRUE, NULL);
  return w;
}

static void
test_conv2d_by_hand (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = image_3x3 (TRUE);
  g_autoptr(GnnTensor) w = kernel_2x2 (TRUE);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (0.5), 1, GNN_TEST_SHAPE (1), 1);
  g_autoptr(GnnTensor) y = NULL, s = NULL, y2 = NULL;
  const gint64 stride2[2] = { 2, 2 };

  gnn_tensor_set_requires_grad (b, TRUE, NULL);
  y = gnn_tensor_conv2d (x, w, b, one, zero, one, 1, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y, GNN_TEST_SHAPE (1, 1, 2, 2), 4);
  gnn_test_assert_close (y, GNN_TEST_DATA (37.5, 47.5, 67.5, 77.5), 4, 1e-12, 1e-12);
  s = gnn_tensor_sum_all (y, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_no_error (error);
  /* grad input = col2im (Wᵀ · 1): the weights covering each pixel */
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (1, 3, 2, 4, 10, 6, 3, 7, 4), 9, 1e-12, 1e-12);
  /* grad weight = the sum of the windows each weight sees */
  gnn_test_assert_close (gnn_tensor_get_grad (w), GNN_TEST_DATA (12, 16, 24, 28), 4, 1e-12, 1e-12);
  gnn_test_assert_close (gnn_tensor_get_grad (b), GNN_TEST_DATA (4), 1, 1e-12, 1e-12);

  /* padding 1, stride 2: the corners see only parts of the kernel */
  y2 = gnn_tensor_conv2d (x, w, NULL, stride2, one, one, 1, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (y2, GNN_TEST_DATA (4, 18, 36, 77), 4, 1e-12, 1e-12);
}

static void
test_conv1d_by_hand (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, 5), 5, GNN_TEST_SHAPE (1, 5), 2);
  g_autoptr(GnnTensor) w = gnn_test_tensor_d (GNN_TEST_DATA (1, -1), 2, GNN_TEST_SHAPE (1, 1, 2), 3);
  g_autoptr(GnnTensor) y = NULL;

  /* dilation 2: x[i] - x[i + 2], unbatched (C, L) input */
  y = gnn_tensor_conv1d (x, w, NULL, 1, 0, 2, 1, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y, GNN_TEST_SHAPE (1, 3), 2);
  gnn_test_assert_close (y, GNN_TEST_DATA (-2, -2, -2), 3, 1e-12, 1e-12);
}

/* gradchecks: sum of (output * fixed weights), so that the gradient is not trivially 0 */
static GnnTensor *
weighted_sum (GnnTensor *y, GError **error)
{
  gint64 n = gnn_tensor_get_numel (y);
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (y, &ndim);
  g_autoptr(GnnTensor) w = gnn_tensor_new_arange (1, n + 1, 1, GNN_DTYPE_FLOAT64, NULL, error);
  g_autoptr(GnnTensor) wr = w ? gnn_tensor_reshape (w, shape, ndim, error) : NULL;
  g_autoptr(GnnTensor) p = wr ? gnn_tensor_mul (y, wr, error) : NULL;

  return p ? gnn_tensor_sum_all (p, error) : NULL;
}

typedef struct {
  GnnTensor *x, *w, *b;
  gint64 stride[2], padding[2], dilation[2], groups;
} ConvCase;

static GnnTensor *
conv_of_input (GnnTensor *x, gpointer data, GError **error)
{
  ConvCase *c = data;
  g_autoptr(GnnTensor) y = gnn_tensor_conv2d (x, c->w, c->b, c->stride, c->padding, c->dilation, c->groups, error);
  return y ? weighted_sum (y, error) : NULL;
}

static GnnTensor *
conv_of_weight (GnnTensor *w, gpointer data, GError **error)
{
  ConvCase *c = data;
  g_autoptr(GnnTensor) y = gnn_tensor_conv2d (c->x, w, c->b, c->stride, c->padding, c->dilation, c->groups, error);
  return y ? weighted_sum (y, error) : NULL;
}

static GnnTensor *
conv_of_bias (GnnTensor *b, gpointer data, GError **error)
{
  ConvCase *c = data;
  g_autoptr(GnnTensor) y = gnn_tensor_conv2d (c->x, c->w, b, c->stride, c->padding, c->dilation, c->groups, error);
  return y ? weighted_sum (y, error) : NULL;
}

static GnnTensor *
module_fn (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) y = gnn_module_forward_tensor (GNN_MODULE (data), x, error);
  return y ? weighted_sum (y, error) : NULL;
}

static void
test_gradcheck (void)
{
  g_autoptr(GError) error = NULL;
  ConvCase c = { NULL, NULL, NULL, { 2, 1 }, { 1, 2 }, { 1, 2 }, 2 };
  g_autoptr(GnnTensor) x = gnn_test_randn (GNN_TEST_SHAPE (2, 4, 5, 6), 4, 1);
  g_autoptr(GnnTensor) w = gnn_test_randn (GNN_TEST_SHAPE (6, 2, 3, 2), 4, 2);
  g_autoptr(GnnTensor) b = gnn_test_randn (GNN_TEST_SHAPE (6), 1, 3);
  g_autoptr(GnnConv1d) c1 = NULL;
  g_autoptr(GnnConv2d) c2 = NULL;
  g_autoptr(GnnTensor) x1 = gnn_test_randn (GNN_TEST_SHAPE (2, 2, 7), 3, 4);
  g_autoptr(GnnTensor) x2 = gnn_test_randn (GNN_TEST_SHAPE (3, 5, 4), 3, 5);

  c.x = x;
  c.w = w;
  c.b = b;
  gnn_test_gradcheck (conv_of_input, &c, x, 1e-6, 1e-5);
  gnn_test_gradcheck (conv_of_weight, &c, w, 1e-6, 1e-5);
  gnn_test_gradcheck (conv_of_bias, &c, b, 1e-6, 1e-5);

  c1 = gnn_conv1d_new (2, 4, 3, 2, 1, 1, 2, TRUE, GNN_DTYPE_FLOAT64, &error);
  g_assert_no_error (error);
  gnn_test_gradcheck (module_fn, c1, x1, 1e-6, 1e-5);
  c2 = g_object_new (GNN_TYPE_CONV2D, "in-channels", 3, "out-channels", 2,
                     "kernel-size", g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, GNN_TEST_SHAPE (2, 3), 2, sizeof (gint64)),
                     "padding", g_variant_new_string ("same"), "dtype", GNN_DTYPE_FLOAT64, NULL);
  gnn_test_gradcheck (module_fn, c2, x2, 1e-6, 1e-5);
  g_assert_finalize_object (g_steal_pointer (&c1));
  g_assert_finalize_object (g_steal_pointer (&c2));
}

static void
test_modules (void)
{
  g_autoptr(GError) error = NULL;
  GnnConv2d *c2 = gnn_conv2d_new (3, 8, GNN_TEST_SHAPE (3, 3), NULL, one, NULL, 1, TRUE, GNN_DTYPE_FLOAT64, &error);
  GnnConv1d *c1 = gnn_conv1d_new (4, 6, 5, 2, 0, 3, 2, FALSE, GNN_DTYPE_FLOAT64, &error);
  g_autofree char *r2 = NULL, *r1 = NULL;
  g_autoptr(GnnTensor) bad = gnn_test_randn (GNN_TEST_SHAPE (2, 4, 8, 8), 4, 1);
  g_autoptr(GnnTensor) bad1 = gnn_test_randn (GNN_TEST_SHAPE (4, 4, 4, 9), 4, 1);
  GnnTensor *y;
  GnnParameter *weight;
  guint ndim;
  const gint64 *shape;

  g_assert_no_error (error);
  r2 = gnn_module_to_string (GNN_MODULE (c2));
  g_assert_cmpstr (r2, ==, "Conv2d(3, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))");
  r1 = gnn_module_to_string (GNN_MODULE (c1));
  g_assert_cmpstr (r1, ==, "Conv1d(4, 6, kernel_size=(5,), stride=(2,), dilation=(3,), groups=2, bias=False)");
  weight = gnn_module_get_parameter (GNN_MODULE (c1), "weight", &error);
  g_assert_no_error (error);
  shape = gnn_tensor_get_shape (GNN_TENSOR (weight), &ndim);
  g_assert_cmpuint (ndim, ==, 3);
  g_assert_cmpint (shape[0], ==, 6);
  g_assert_cmpint (shape[1], ==, 2);
  g_assert_cmpint (shape[2], ==, 5);

  /* wrong shapes: the layer, the expected and the actual shape */
  y = gnn_module_forward_tensor (GNN_MODULE (c2), bad, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "Conv2d: "));
  g_assert_nonnull (strstr (error->message, "C = 3 channels"));
  g_assert_nonnull (strstr (error->message, "[2, 4, 8, 8]"));
  g_clear_error (&error);
  y = gnn_module_forward_tensor (GNN_MODULE (c1), bad1, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "Conv1d: "));
  g_assert_nonnull (strstr (error->message, "(N, C, L)"));
  g_assert_nonnull (strstr (error->message, "[4, 4, 4, 9]"));
  g_clear_error (&error);

  /* bad hyperparameters */
  g_assert_null (gnn_conv2d_new (3, 8, GNN_TEST_SHAPE (3, 3), NULL, NULL, NULL, 2, TRUE, GNN_DTYPE_FLOAT32, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_conv2d_new (2, 2, GNN_TEST_SHAPE (0, 3), NULL, NULL, NULL, 1, TRUE, GNN_DTYPE_FLOAT32, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_assert_finalize_object (c2);
  g_assert_finalize_object (c1);
}

static void
test_pool_by_hand (void)
{
  g_autoptr(GError) error = NULL;
  double v[16];
  g_autoptr(GnnTensor) x = NULL, y = NULL, idx = NULL, s = NULL, a = NULL, a2 = NULL, a3 = NULL;
  g_autoptr(GnnTensor) img = image_3x3 (FALSE);
  const gint64 k2[2] = { 2, 2 }, s2[2] = { 2, 2 };

  for (guint i = 0; i < 16; i++)
    v[i] = i + 1;
  x = gnn_test_tensor_d (v, 16, GNN_TEST_SHAPE (1, 1, 4, 4), 4);
  gnn_tensor_set_requires_grad (x, TRUE, NULL);
  y = gnn_tensor_max_pool2d (x, k2, NULL, NULL, NULL, FALSE, &idx, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (y, GNN_TEST_DATA (6, 8, 14, 16), 4, 0, 0);
  g_assert_cmpint (gnn_tensor_get_dtype (idx), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (idx, GNN_TEST_DATA (5, 7, 13, 15), 4, 0, 0);
  s = gnn_tensor_sum_all (y, &error);
  g_assert_true (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_no_error (error);
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1),
                         16, 0, 0);

  a = gnn_tensor_avg_pool2d (x, k2, NULL, NULL, FALSE, TRUE, 0, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (a, GNN_TEST_DATA (3.5, 5.5, 11.5, 13.5), 4, 1e-12, 1e-12);
  /* padding 1: the divisor counts the padding or not */
  a2 = gnn_tensor_avg_pool2d (img, k2, s2, GNN_TEST_SHAPE (1, 1), FALSE, FALSE, 0, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (a2, GNN_TEST_DATA (1, 2.5, 5.5, 7), 4, 1e-12, 1e-12);
  a3 = gnn_tensor_avg_pool2d (img, k2, s2, GNN_TEST_SHAPE (1, 1), FALSE, TRUE, 0, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (a3, GNN_TEST_DATA (0.25, 1.25, 2.75, 7), 4, 1e-12, 1e-12);
}

static GnnTensor *
max_pool_fn (GnnTensor *x, gpointer data, GError **error)
{
  const gint64 k[2] = { 3, 2 }, st[2] = { 2, 1 }, p[2] = { 1, 1 }, d[2] = { 1, 2 };
  g_autoptr(GnnTensor) y = gnn_tensor_max_pool2d (x, k, st, p, d, TRUE, NULL, error);
  return y ? weighted_sum (y, error) : NULL;
}

static GnnTensor *
avg_pool_fn (GnnTensor *x, gpointer data, GError **error)
{
  const gint64 k[2] = { 3, 2 }, st[2] = { 2, 1 }, p[2] = { 1, 1 };
  g_autoptr(GnnTensor) y = gnn_tensor_avg_pool2d (x, k, st, p, TRUE, GPOINTER_TO_INT (data), 0, error);
  return y ? weighted_sum (y, error) : NULL;
}

static void
test_pool_gradcheck_and_modules (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_randn (GNN_TEST_SHAPE (2, 3, 6, 5), 4, 7);
  g_autoptr(GnnTensor) bad = gnn_test_randn (GNN_TEST_SHAPE (6, 5), 2, 7);
  GnnMaxPool2d *mp = gnn_max_pool2d_new (GNN_TEST_SHAPE (2, 2), NULL, NULL, NULL, FALSE);
  GnnAvgPool2d *ap = gnn_avg_pool2d_new (GNN_TEST_SHAPE (3, 3), GNN_TEST_SHAPE (1, 1), GNN_TEST_SHAPE (1, 1),
                                         FALSE, TRUE, 0);
  g_autofree char *r1 = NULL, *r2 = NULL;
  GnnTensor *y;

  /* (random values: no ties, so max is differentiable at x) */
  gnn_test_gradcheck (max_pool_fn, NULL, x, 1e-6, 1e-5);
  gnn_test_gradcheck (avg_pool_fn, GINT_TO_POINTER (TRUE), x, 1e-6, 1e-5);
  gnn_test_gradcheck (avg_pool_fn, GINT_TO_POINTER (FALSE), x, 1e-6, 1e-5);
  gnn_test_gradcheck (module_fn, mp, x, 1e-6, 1e-5);
  gnn_test_gradcheck (module_fn, ap, x, 1e-6, 1e-5);

  r1 = gnn_module_to_string (GNN_MODULE (mp));
  g_assert_cmpstr (r1, ==, "MaxPool2d(kernel_size=(2, 2), stride=(2, 2), padding=0, dilation=1, ceil_mode=False)");
  r2 = gnn_module_to_string (GNN_MODULE (ap));
  g_assert_cmpstr (r2, ==, "AvgPool2d(kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))");

  y = gnn_module_forward_tensor (GNN_MODULE (mp), bad, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "MaxPool2d: expected a 3-d (C, H, W) or 4-d (N, C, H, W) input, got shape [6, 5]"));
  g_clear_error (&error);
  y = gnn_module_forward_tensor (GNN_MODULE (ap), bad, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "AvgPool2d: "));
  g_clear_error (&error);

  g_assert_finalize_object (mp);
  g_assert_finalize_object (ap);
}

static GnnTensor *
adaptive_fn (GnnTensor *x, gpointer data, GError **error)
{
  const gint64 size[2] = { 4, 3 };
  g_autoptr(GnnTensor) y = gnn_tensor_adaptive_avg_pool2d (x, size, error);
  return y ? weighted_sum (y, error) : NULL;
}

static void
test_adaptive (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) img = image_3x3 (FALSE);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) x = gnn_test_randn (GNN_TEST_SHAPE (2, 3, 7, 5), 4, 9);
  g_autoptr(GnnTensor) bad = gnn_test_randn (GNN_TEST_SHAPE (5), 1, 9);
  GnnAdaptiveAvgPool2d *m = gnn_adaptive_avg_pool2d_new (GNN_TEST_SHAPE (2, -1));
  g_autofree char *r = NULL;
  GnnTensor *out;

  /* 3 -> 2: windows [0, 2) and [1, 3), overlapping */
  y = gnn_tensor_adaptive_avg_pool2d (img, GNN_TEST_SHAPE (2, 2), &error);
  g_assert_no_error (error);
  gnn_test_assert_close (y, GNN_TEST_DATA (3, 4, 6, 7), 4, 1e-12, 1e-12);
  gnn_test_gradcheck (adaptive_fn, NULL, x, 1e-6, 1e-5);
  gnn_test_gradcheck (module_fn, m, x, 1e-6, 1e-5);
  r = gnn_module_to_string (GNN_MODULE (m));
  g_assert_cmpstr (r, ==, "AdaptiveAvgPool2d(output_size=(2, None))");
  out = gnn_module_forward_tensor (GNN_MODULE (m), bad, &error);
  g_assert_null (out);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "AdaptiveAvgPool2d: "));
  g_assert_nonnull (strstr (error->message, "got shape [5]"));
  g_assert_finalize_object (m);
}

static GnnTensor *
transposed_of_input (GnnTensor *x, gpointer data, GError **error)
{
  ConvCase *c = data;
  const gint64 op[2] = { 1, 0 };
  g_autoptr(GnnTensor) y = gnn_tensor_conv_transpose2d (x, c->w, c->b, c->stride, c->padding, op, c->groups,
                                                        c->dilation, error);
  return y ? weighted_sum (y, error) : NULL;
}

static GnnTensor *
transposed_of_weight (GnnTensor *w, gpointer data, GError **error)
{
  ConvCase *c = data;
  const gint64 op[2] = { 1, 0 };
  g_autoptr(GnnTensor) y = gnn_tensor_conv_transpose2d (c->x, w, c->b, c->stride, c->padding, op, c->groups,
                                                        c->dilation, error);
  return y ? weighted_sum (y, error) : NULL;
}

static void
test_conv_transpose (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x1 = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4), 4, GNN_TEST_SHAPE (1, 1, 2, 2), 4);
  g_autoptr(GnnTensor) w1 = gnn_test_tensor_d (GNN_TEST_DATA (1, 10), 2, GNN_TEST_SHAPE (1, 1, 1, 2), 4);
  g_autoptr(GnnTensor) y = NULL;
  ConvCase c = { NULL, NULL, NULL, { 2, 1 }, { 1, 0 }, { 1, 2 }, 2 };
  g_autoptr(GnnTensor) x = gnn_test_randn (GNN_TEST_SHAPE (2, 4, 3, 4), 4, 11);
  g_autoptr(GnnTensor) w = gnn_test_randn (GNN_TEST_SHAPE (4, 3, 3, 2), 4, 12);
  g_autoptr(GnnTensor) b = gnn_test_randn (GNN_TEST_SHAPE (6), 1, 13);
  g_autoptr(GnnTensor) bad = gnn_test_randn (GNN_TEST_SHAPE (1, 5, 3, 3), 4, 1);
  GnnConvTranspose2d *m = gnn_conv_transpose2d_new (4, 6, GNN_TEST_SHAPE (3, 3), GNN_TEST_SHAPE (2, 2),
                                                    GNN_TEST_SHAPE (1, 1), GNN_TEST_SHAPE (1, 1), 2, TRUE, NULL,
                                                    GNN_DTYPE_FLOAT64, &error);
  g_autofree char *r = NULL;
  GnnTensor *out;

  /* a (1, 2) kernel, stride (1, 2): every input pixel writes itself and 10 times itself */
  y = gnn_tensor_conv_transpose2d (x1, w1, NULL, GNN_TEST_SHAPE (1, 2), zero, zero, 1, one, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y, GNN_TEST_SHAPE (1, 1, 2, 4), 4);
  gnn_test_assert_close (y, GNN_TEST_DATA (1, 10, 2, 20, 3, 30, 4, 40), 8, 1e-12, 1e-12);

  c.x = x;
  c.w = w;
  c.b = b;
  gnn_test_gradcheck (transposed_of_input, &c, x, 1e-6, 1e-5);
  gnn_test_gradcheck (transposed_of_weight, &c, w, 1e-6, 1e-5);

  g_assert_no_error (error);
  gnn_test_gradcheck (module_fn, m, x, 1e-6, 1e-5);
  r = gnn_module_to_string (GNN_MODULE (m));
  g_assert_cmpstr (r, ==, "ConvTranspose2d(4, 6, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), "
                          "output_padding=(1, 1), groups=2)");
  out = gnn_module_forward_tensor (GNN_MODULE (m), bad, &error);
  g_assert_null (out);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "ConvTranspose2d: "));
  g_assert_nonnull (strstr (error->message, "C = 4 channels, got shape [1, 5, 3, 3]"));
  g_clear_error (&error);
  g_assert_null (gnn_conv_transpose2d_new (2, 2, GNN_TEST_SHAPE (3, 3), NULL, NULL, GNN_TEST_SHAPE (1, 1), 1, TRUE,
                                           NULL, GNN_DTYPE_FLOAT64, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_finalize_object (m);
}

/* ---- 3-d forms ---------------------------------------------------------------------------- */

typedef struct {
  GnnTensor *x, *w, *b;
  gint64 stride[3], padding[3], dilation[3], output_padding[3], groups;
  gboolean transposed;
} Conv3dCase;

static GnnTensor *
conv3d_run (Conv3dCase *c, GnnTensor *x, GnnTensor *w, GnnTensor *b, GError **error)
{
  g_autoptr(GnnTensor) y = c->transposed
    ? gnn_tensor_conv_transpose3d (x, w, b, c->stride, c->padding, c->output_padding, c->groups, c->dilation, error)
    : gnn_tensor_conv3d (x, w, b, c->stride, c->padding, c->dilation, c->groups, error);
  return y ? weighted_sum (y, error) : NULL;
}

static GnnTensor *
conv3d_of_input (GnnTensor *x, gpointer data, GError **error)
{
  Conv3dCase *c = data;
  return conv3d_run (c, x, c->w, c->b, error);
}

static GnnTensor *
conv3d_of_weight (GnnTensor *w, gpointer data, GError **error)
{
  Conv3dCase *c = data;
  return conv3d_run (c, c->x, w, c->b, error);
}

static GnnTensor *
conv3d_of_bias (GnnTensor *b, gpointer data, GError **error)
{
  Conv3dCase *c = data;
  return conv3d_run (c, c->x, c->w, b, error);
}

/* float64 gradchecks of conv3d and conv_transpose3d (strides, padding, dilation, groups,
 * output padding) with respect to input, weight and bias, and of both layers */
static void
test_conv3d_gradcheck (void)
{
  g_autoptr(GError) error = NULL;
  Conv3dCase c = { NULL, NULL, NULL, { 2, 1, 1 }, { 1, 0, 2 }, { 1, 2, 1 }, { 0, 0, 0 }, 2, FALSE };
  Conv3dCase t = { NULL, NULL, NULL, { 2, 1, 2 }, { 1, 0, 1 }, { 1, 2, 1 }, { 1, 0, 1 }, 2, TRUE };
  g_autoptr(GnnTensor) x = gnn_test_randn (GNN_TEST_SHAPE (2, 4, 4, 5, 3), 5, 11);
  g_autoptr(GnnTensor) w = gnn_test_randn (GNN_TEST_SHAPE (6, 2, 2, 2, 3), 5, 12);
  g_autoptr(GnnTensor) b = gnn_test_randn (GNN_TEST_SHAPE (6), 1, 13);
  g_autoptr(GnnTensor) tx = gnn_test_randn (GNN_TEST_SHAPE (2, 4, 2, 3, 2), 5, 14);
  g_autoptr(GnnTensor) tw = gnn_test_randn (GNN_TEST_SHAPE (4, 3, 2, 2, 3), 5, 15);
  g_autoptr(GnnTensor) tb = gnn_test_randn (GNN_TEST_SHAPE (6), 1, 16);
  g_autoptr(GnnTensor) ux = gnn_test_randn (GNN_TEST_SHAPE (3, 4, 4, 3), 4, 17);
  g_autoptr(GnnConv3d) c3 = NULL;
  g_autoptr(GnnConvTranspose3d) t3 = NULL;
  g_autofree char *r1 = NULL, *r2 = NULL;

  c.x = x; c.w = w; c.b = b;
  gnn_test_gradcheck (conv3d_of_input, &c, x, 1e-6, 1e-5);
  gnn_test_gradcheck (conv3d_of_weight, &c, w, 1e-6, 1e-5);
  gnn_test_gradcheck (conv3d_of_bias, &c, b, 1e-6, 1e-5);
  t.x = tx; t.w = tw; t.b = tb;
  gnn_test_gradcheck (conv3d_of_input, &t, tx, 1e-6, 1e-5);
  gnn_test_gradcheck (conv3d_of_weight, &t, tw, 1e-6, 1e-5);
  gnn_test_gradcheck (conv3d_of_bias, &t, tb, 1e-6, 1e-5);

  /* the layers: 'same' padding with a reflect mode, and an unbatched input */
  c3 = g_object_new (GNN_TYPE_CONV3D, "in-channels", 3, "out-channels", 2,
                     "kernel-size", g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, GNN_TEST_SHAPE (2, 3, 1), 3,
                                                               sizeof (gint64)),
                     "padding", g_variant_new_string ("same"), "padding-mode", "reflect",
                     "dtype", GNN_DTYPE_FLOAT64, NULL);
  gnn_test_gradcheck (module_fn, c3, ux, 1e-6, 1e-5);
  r1 = gnn_module_to_string (GNN_MODULE (c3));
  g_assert_cmpstr (r1, ==, "Conv3d(3, 2, kernel_size=(2, 3, 1), stride=(1, 1, 1), padding=same, padding_mode=reflect)");
  t3 = gnn_conv_transpose3d_new (3, 4, GNN_TEST_SHAPE (2, 2, 2), GNN_TEST_SHAPE (2, 2, 2), NULL,
                                 GNN_TEST_SHAPE (1, 1, 1), 1, TRUE, NULL, GNN_DTYPE_FLOAT64, &error);
  g_assert_no_error (error);
  gnn_test_gradcheck (module_fn, t3, ux, 1e-6, 1e-5);
  r2 = gnn_module_to_string (GNN_MODULE (t3));
  g_assert_cmpstr (r2, ==, "ConvTranspose3d(3, 4, kernel_size=(2, 2, 2), stride=(2, 2, 2), output_padding=(1, 1, 1))");
  g_assert_finalize_object (g_steal_pointer (&c3));
  g_assert_finalize_object (g_steal_pointer (&t3));
}

static GnnTensor *
max_pool3d_fn (GnnTensor *x, gpointer data, GError **error)
{
  const gint64 k[3] = { 2, 3, 2 }, st[3] = { 1, 2, 1 }, p[3] = { 1, 1, 0 }, d[3] = { 2, 1, 1 };
  g_autoptr(GnnTensor) y = gnn_tensor_max_pool3d (x, k, st, p, d, TRUE, NULL, error);
  return y ? weighted_sum (y, error) : NULL;
}

static GnnTensor *
avg_pool3d_fn (GnnTensor *x, gpointer data, GError **error)
{
  const gint64 k[3] = { 3, 2, 3 }, st[3] = { 2, 1, 2 }, p[3] = { 1, 1, 1 };
  gint64 divisor = GPOINTER_TO_INT (data) == 2 ? 5 : 0;
  g_autoptr(GnnTensor) y = gnn_tensor_avg_pool3d (x, k, st, p, TRUE, GPOINTER_TO_INT (data) == 1, divisor, error);
  return y ? weighted_sum (y, error) : NULL;
}

static GnnTensor *
adaptive3d_fn (GnnTensor *x, gpointer data, GError **error)
{
  const gint64 size[3] = { 3, -1, 2 };
  g_autoptr(GnnTensor) y = gnn_tensor_adaptive_avg_pool3d (x, size, error);
  return y ? weighted_sum (y, error) : NULL;
}

static GnnTensor *
adaptive_max3d_fn (GnnTensor *x, gpointer data, GError **error)
{
  const gint64 size[3] = { 3, -1, 3 };
  g_autoptr(GnnTensor) idx = NULL;
  g_autoptr(GnnTensor) y = gnn_tensor_adaptive_max_pool3d (x, size, &idx, error);
  return y ? weighted_sum (y, error) : NULL;
}

/* float64 gradchecks of the 3-d pools, hand-computed values, the layers' printed forms and
 * the errors that name the expected and the found shapes */
static void
test_pool3d (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_randn (GNN_TEST_SHAPE (2, 2, 5, 6, 4), 5, 21);
  g_autoptr(GnnTensor) bad = gnn_test_randn (GNN_TEST_SHAPE (6, 5, 4), 3, 22);
  g_autoptr(GnnTensor) cube = gnn_tensor_new_arange (0, 8, 1, GNN_DTYPE_FLOAT64, NULL, &error);
  g_autoptr(GnnTensor) cube5 = NULL, m = NULL, idx = NULL, a = NULL, ad = NULL, y = NULL;
  GnnMaxPool3d *mp = gnn_max_pool3d_new (GNN_TEST_SHAPE (2, 2, 2), NULL, NULL, NULL, FALSE);
  GnnAvgPool3d *ap = gnn_avg_pool3d_new (GNN_TEST_SHAPE (3, 3, 3), GNN_TEST_SHAPE (1, 1, 1),
                                         GNN_TEST_SHAPE (1, 1, 1), FALSE, TRUE, 0);
  GnnAdaptiveAvgPool3d *aap = gnn_adaptive_avg_pool3d_new (GNN_TEST_SHAPE (2, -1, 3));
  g_autoptr(GnnBatchNorm3d) bn = gnn_batch_norm3d_new_full (2, 1e-5, 0.1, TRUE, TRUE, GNN_DTYPE_FLOAT64, &error);
  g_autofree char *r1 = NULL, *r2 = NULL, *r3 = NULL, *r4 = NULL;
  const gint64 *ishape;
  guint indim;

  g_assert_no_error (error);
  /* (random values: no ties, so max is differentiable at x) */
  gnn_test_gradcheck (max_pool3d_fn, NULL, x, 1e-6, 1e-5);
  gnn_test_gradcheck (avg_pool3d_fn, GINT_TO_POINTER (0), x, 1e-6, 1e-5);
  gnn_test_gradcheck (avg_pool3d_fn, GINT_TO_POINTER (1), x, 1e-6, 1e-5);
  gnn_test_gradcheck (avg_pool3d_fn, GINT_TO_POINTER (2), x, 1e-6, 1e-5);
  gnn_test_gradcheck (adaptive3d_fn, NULL, x, 1e-6, 1e-5);
  gnn_test_gradcheck (adaptive_max3d_fn, NULL, x, 1e-6, 1e-5);
  gnn_test_gradcheck (module_fn, mp, x, 1e-6, 1e-5);
  gnn_test_gradcheck (module_fn, ap, x, 1e-6, 1e-5);
  gnn_test_gradcheck (module_fn, aap, x, 1e-6, 1e-5);
  gnn_test_gradcheck (module_fn, bn, x, 1e-6, 1e-5);

  /* a 2×2×2 cube 0..7: the max is 7 at index 7, the mean 3.5 */
  cube5 = gnn_tensor_reshape (cube, GNN_TEST_SHAPE (1, 1, 2, 2, 2), 5, &error);
  g_assert_no_error (error);
  m = gnn_tensor_max_pool3d (cube5, GNN_TEST_SHAPE (2, 2, 2), NULL, NULL, NULL, FALSE, &idx, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (m, GNN_TEST_DATA (7), 1, 0, 0);
  g_assert_cmpfloat (gnn_tensor_item (idx, &error), ==, 7);
  g_assert_no_error (error);
  a = gnn_tensor_avg_pool3d (cube5, GNN_TEST_SHAPE (2, 2, 2), NULL, NULL, FALSE, TRUE, 0, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (a, GNN_TEST_DATA (3.5), 1, 1e-12, 1e-12);
  ad = gnn_tensor_avg_pool3d (cube5, GNN_TEST_SHAPE (2, 2, 2), NULL, NULL, FALSE, TRUE, 4, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (ad, GNN_TEST_DATA (7), 1, 1e-12, 1e-12);

  y = gnn_module_forward_tensor (GNN_MODULE (aap), x, &error);
  g_assert_no_error (error);
  ishape = gnn_tensor_get_shape (y, &indim);
  g_assert_cmpuint (indim, ==, 5);
  g_assert_cmpint (ishape[2], ==, 2);
  g_assert_cmpint (ishape[3], ==, 6);
  g_assert_cmpint (ishape[4], ==, 3);
  g_clear_object (&y);

  r1 = gnn_module_to_string (GNN_MODULE (mp));
  g_assert_cmpstr (r1, ==, "MaxPool3d(kernel_size=(2, 2, 2), stride=(2, 2, 2), padding=0, dilation=1, ceil_mode=False)");
  r2 = gnn_module_to_string (GNN_MODULE (ap));
  g_assert_cmpstr (r2, ==, "AvgPool3d(kernel_size=(3, 3, 3), stride=(1, 1, 1), padding=(1, 1, 1))");
  r3 = gnn_module_to_string (GNN_MODULE (aap));
  g_assert_cmpstr (r3, ==, "AdaptiveAvgPool3d(output_size=(2, None, 3))");
  r4 = gnn_module_to_string (GNN_MODULE (bn));
  g_assert_cmpstr (r4, ==, "BatchNorm3d(2, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)");
  {
    g_autoptr(GnnAdaptiveMaxPool3d) amp = gnn_adaptive_max_pool3d_new (GNN_TEST_SHAPE (1, 1, 1), TRUE);
    g_autoptr(GnnArgs) in = gnn_args_new_tensor (cube5);
    g_autoptr(GnnArgs) out = gnn_module_forward (GNN_MODULE (amp), in, &error);
    g_autofree char *r5 = gnn_module_to_string (GNN_MODULE (amp));

    g_assert_no_error (error);
    g_assert_cmpuint (gnn_args_get_n_values (out), ==, 2);
    gnn_test_assert_close (gnn_args_get_tensor (out, 0, NULL), GNN_TEST_DATA (7), 1, 0, 0);
    g_assert_cmpfloat (gnn_tensor_item (gnn_args_get_tensor (out, 1, NULL), &error), ==, 7);
    g_assert_cmpstr (r5, ==, "AdaptiveMaxPool3d(output_size=(1, 1, 1))");
  }

  y = gnn_module_forward_tensor (GNN_MODULE (mp), bad, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "MaxPool3d: expected a 4-d (C, D, H, W) or 5-d (N, C, D, H, W) input, got shape [6, 5, 4]"));
  g_clear_error (&error);
  y = gnn_module_forward_tensor (GNN_MODULE (bn), bad, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "BatchNorm3d: expected 5D input (got 3D input)"));
  g_clear_error (&error);
  y = gnn_tensor_max_pool3d (x, GNN_TEST_SHAPE (2, 2, 2), NULL, GNN_TEST_SHAPE (2, 0, 0), NULL, FALSE, NULL, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "pad should be smaller than or equal to half of kernel size"));
  g_clear_error (&error);
  y = gnn_tensor_conv3d (x, bad, NULL, GNN_TEST_SHAPE (1, 1, 1), GNN_TEST_SHAPE (0, 0, 0), GNN_TEST_SHAPE (1, 1, 1), 1,
                         &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "conv3d: expected a 5-d weight (out_channels, in_channels / groups, kD, kH, kW) with out_channels divisible by groups=1, got shape [6, 5, 4]"));
  g_clear_error (&error);
  y = gnn_tensor_conv3d (bad, x, NULL, GNN_TEST_SHAPE (1, 1, 1), GNN_TEST_SHAPE (0, 0, 0), GNN_TEST_SHAPE (1, 1, 1), 1,
                         &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "conv3d: expected a 4-d (C, D, H, W) or 5-d (N, C, D, H, W) input with C = 2 channels, got shape [6, 5, 4]"));
  g_clear_error (&error);
  g_assert_finalize_object (mp);
  g_assert_finalize_object (ap);
  g_assert_finalize_object (aap);
  g_assert_finalize_object (g_steal_pointer (&bn));
}

/* Dropout3d zeroes whole (n, c) volumes, scales the rest by 1 / (1 - p), and an unbatched
 * (C, D, H, W) input per channel */
static void
test_dropout3d (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) ones = gnn_tensor_new_ones (GNN_TEST_SHAPE (4, 6, 2, 3, 2), 5, GNN_DTYPE_FLOAT64, NULL, &error);
  g_autoptr(GnnTensor) ones4 = gnn_tensor_new_ones (GNN_TEST_SHAPE (8, 2, 3, 2), 4, GNN_DTYPE_FLOAT64, NULL, &error);
  g_autoptr(GnnDropout3d) d = gnn_dropout3d_new (0.5, &error);
  g_autoptr(GnnTensor) y = NULL, y4 = NULL;
  g_autofree double *v = NULL, *v4 = NULL;
  g_autofree char *r = NULL;
  guint kept = 0;

  g_assert_no_error (error);
  gnn_manual_seed (3);
  y = gnn_module_forward_tensor (GNN_MODULE (d), ones, &error);
  g_assert_no_error (error);
  v = gnn_tensor_to_doubles (y, NULL, &error);
  g_assert_no_error (error);
  for (guint ch = 0; ch < 24; ch++)
    {
      for (guint j = 1; j < 12; j++)
        g_assert_cmpfloat (v[ch * 12 + j], ==, v[ch * 12]);
      g_assert_true (v[ch * 12] == 0 || v[ch * 12] == 2);
      kept += v[ch * 12] == 2;
    }
  g_assert_cmpuint (kept, >, 0);
  g_assert_cmpuint (kept, <, 24);
  y4 = gnn_tensor_dropout3d (ones4, 0.5, TRUE, &error);
  g_assert_no_error (error);
  v4 = gnn_tensor_to_doubles (y4, NULL, &error);
  g_assert_no_error (error);
  for (guint ch = 0; ch < 8; ch++)
    for (guint j = 1; j < 12; j++)
      g_assert_cmpfloat (v4[ch * 12 + j], ==, v4[ch * 12]);
  r = gnn_module_to_string (GNN_MODULE (d));
  g_assert_cmpstr (r, ==, "Dropout3d(p=0.5, inplace=False)");
  g_assert_null (gnn_dropout3d_new (1.5, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/conv/conv2d-by-hand", test_conv2d_by_hand);
  g_test_add_func ("/conv/conv1d-by-hand", test_conv1d_by_hand);
  g_test_add_func ("/conv/gradcheck", test_gradcheck);
  g_test_add_func ("/conv/modules", test_modules);
  g_test_add_func ("/conv/pool-by-hand", test_pool_by_hand);
  g_test_add_func ("/conv/pool-gradcheck-and-modules", test_pool_gradcheck_and_modules);
  g_test_add_func ("/conv/adaptive-avg-pool", test_adaptive);
  g_test_add_func ("/conv/conv-transpose2d", test_conv_transpose);
  g_test_add_func ("/conv/conv3d-gradcheck", test_conv3d_gradcheck);
  g_test_add_func ("/conv/pool3d", test_pool3d);
  g_test_add_func ("/conv/dropout3d", test_dropout3d);
  return g_test_run ();
}
