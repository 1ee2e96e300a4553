/* test-layers-more.c: the layers of gnn-layers-more.c from C: shapes and values, printed
 * forms, state-dict keys, float64 gradient checks and the errors of bad inputs */
#include "gnn-test-util.h"

static GnnTensor *
forward (GnnModule *m, GnnTensor *x, GError **error)
{
  return gnn_module_forward_tensor (m, x, error);
}

static GnnTensor *
run_module (GnnTensor *x, gpointer data, GError **error)
{
  return forward (GNN_MODULE (data), x, error);
}

static GnnTensor *
arange_d (gint64 n, const gint64 *shape, guint ndim)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_tensor_new_arange (0, n, 1, GNN_DTYPE_FLOAT64, NULL, &error);
  GnnTensor *t;

  g_assert_no_error (error);
  t = gnn_tensor_reshape (a, shape, ndim, &error);
  g_assert_no_error (error);
  return t;
}

static void
assert_repr (gpointer m, const char *want)
{
  g_autofree char *s = gnn_module_to_string (GNN_MODULE (m));

  g_assert_cmpstr (s, ==, want);
}

static void
test_shuffles (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnPixelShuffle) ps = gnn_pixel_shuffle_new (2);
  g_autoptr(GnnPixelUnshuffle) pu = gnn_pixel_unshuffle_new (2);
  g_autoptr(GnnChannelShuffle) cs = gnn_channel_shuffle_new (2);
  g_autoptr(GnnTensor) x = arange_d (16, GNN_TEST_SHAPE (1, 4, 2, 2), 4);
  g_autoptr(GnnTensor) y = NULL, back = NULL, z = NULL, bad = NULL;
  /* output [0, h·2 + i, w·2 + j] = input [i·2 + j, h, w] */
  const double want[16] = { 0, 4, 1, 5, 8, 12, 9, 13, 2, 6, 3, 7, 10, 14, 11, 15 };
  const double shuffled[4] = { 0, 8, 4, 12 };

  assert_repr (ps, "PixelShuffle(upscale_factor=2)");
  assert_repr (cs, "ChannelShuffle(groups=2)");
  y = forward (GNN_MODULE (ps), x, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y, GNN_TEST_SHAPE (1, 1, 4, 4), 4);
  gnn_test_assert_close (y, want, 16, 0, 0);
  back = forward (GNN_MODULE (pu), y, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_equal (back, x, &error));
  z = forward (GNN_MODULE (cs), x, &error);
  g_assert_no_error (error);
  {
    g_autoptr(GnnTensor) first = gnn_tensor_select (z, 2, 0, &error);
    g_autoptr(GnnTensor) col = gnn_tensor_select (first, 2, 0, &error);

    gnn_test_assert_close (col, shuffled, 4, 0, 0);
  }
  gnn_test_gradcheck (run_module, ps, x, 1e-6, 1e-6);
  bad = arange_d (12, GNN_TEST_SHAPE (1, 3, 2, 2), 4);
  g_clear_object (&y);
  y = forward (GNN_MODULE (ps), bad, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "input.size(-3)=3 is not divisible by 4"));
}

static void
test_fold (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnUnfold) u = gnn_unfold_new (GNN_TEST_SHAPE (2, 2), GNN_TEST_SHAPE (1, 1), GNN_TEST_SHAPE (0, 0),
                                           GNN_TEST_SHAPE (1, 1));
  g_autoptr(GnnFold) f = gnn_fold_new (GNN_TEST_SHAPE (3, 3), GNN_TEST_SHAPE (2, 2), GNN_TEST_SHAPE (1, 1),
                                       GNN_TEST_SHAPE (0, 0), GNN_TEST_SHAPE (1, 1));
  g_autoptr(GnnTensor) x = arange_d (9, GNN_TEST_SHAPE (1, 1, 3, 3), 4);
  g_autoptr(GnnTensor) cols = NULL, back = NULL, bad = NULL, y = NULL;
  /* every position counted once per block that covers it: corners 1, edges 2, centre 4 */
  const double want[9] = { 0, 2, 2, 6, 16, 10, 6, 14, 8 };

  assert_repr (u, "Unfold(kernel_size=(2, 2), dilation=(1, 1), padding=(0, 0), stride=(1, 1))");
  cols = forward (GNN_MODULE (u), x, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (cols, GNN_TEST_SHAPE (1, 4, 4), 3);
  back = forward (GNN_MODULE (f), cols, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (back, want, 9, 0, 0);
  gnn_test_gradcheck (run_module, u, x, 1e-6, 1e-6);
  gnn_test_gradcheck (run_module, f, cols, 1e-6, 1e-6);
  bad = arange_d (12, GNN_TEST_SHAPE (1, 4, 3), 3);
  y = forward (GNN_MODULE (f), bad, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "sliding blocks 2 * 2 = 4, but got input.size(2)=3"));
}

static void
test_instance_norm (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnInstanceNorm1d) m = gnn_instance_norm1d_new (2, 1e-5, 0.1, TRUE, TRUE, GNN_DTYPE_FLOAT64, &error);
  g_autoptr(GnnTensor) x = arange_d (8, GNN_TEST_SHAPE (1, 2, 4), 3);
  g_autoptr(GnnTensor) y = NULL, bad = NULL;
  g_autoptr(GHashTable) sd = NULL;
  const double rm[2] = { 0.15, 0.55 };

  g_assert_no_error (error);
  assert_repr (m, "InstanceNorm1d(2, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)");
  y = forward (GNN_MODULE (m), x, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y, GNN_TEST_SHAPE (1, 2, 4), 3);
  {
    GnnTensor *running = gnn_module_get_buffer (GNN_MODULE (m), "running_mean", &error);

    g_assert_no_error (error);
    gnn_test_assert_close (running, rm, 2, 1e-12, 1e-12);
  }
  gnn_module_set_training (GNN_MODULE (m), FALSE);
  gnn_test_gradcheck (run_module, m, x, 1e-6, 1e-6);
  bad = arange_d (8, GNN_TEST_SHAPE (1, 2, 2, 2), 4);
  g_clear_object (&y);
  y = forward (GNN_MODULE (m), bad, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "expected 2D or 3D input (got 4D input)"));
}

static void
test_pools (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnAdaptiveMaxPool2d) am = gnn_adaptive_max_pool2d_new (GNN_TEST_SHAPE (2, 2), TRUE);
  g_autoptr(GnnMaxUnpool2d) un = gnn_max_unpool2d_new (GNN_TEST_SHAPE (2, 2), NULL, GNN_TEST_SHAPE (0, 0));
  g_autoptr(GnnLocalResponseNorm) lrn = gnn_local_response_norm_new (2, 1e-4, 0.75, 1.0);
  g_autoptr(GnnLPPool1d) lp = gnn_lp_pool1d_new (2, 2, 0);
  g_autoptr(GnnTensor) x = arange_d (16, GNN_TEST_SHAPE (1, 1, 4, 4), 4);
  g_autoptr(GnnTensor) l = arange_d (4, GNN_TEST_SHAPE (1, 4), 2);
  g_autoptr(GnnArgs) in = gnn_args_new_tensor (x);
  g_autoptr(GnnArgs) out = NULL, un_out = NULL;
  g_autoptr(GnnTensor) y = NULL;
  const double maxima[4] = { 5, 7, 13, 15 }, where[4] = { 5, 7, 13, 15 };
  const double norms[2] = { 1, 3.605551275463989 };

  assert_repr (am, "AdaptiveMaxPool2d(output_size=(2, 2))");
  assert_repr (un, "MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))");
  assert_repr (lp, "LPPool1d(norm_type=2, kernel_size=2, stride=None, ceil_mode=False)");
  out = gnn_module_forward (GNN_MODULE (am), in, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (gnn_args_get_tensor (out, 0, NULL), maxima, 4, 0, 0);
  {
    g_autoptr(GnnTensor) idx = gnn_tensor_to_dtype (gnn_args_get_tensor (out, 1, NULL), GNN_DTYPE_FLOAT64, &error);

    gnn_test_assert_close (idx, where, 4, 0, 0);
  }
  un_out = gnn_module_forward (GNN_MODULE (un), out, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (gnn_args_get_tensor (un_out, 0, NULL), GNN_TEST_SHAPE (1, 1, 4, 4), 4);
  gnn_test_gradcheck (run_module, am, x, 1e-6, 1e-6);
  gnn_test_gradcheck (run_module, lrn, x, 1e-6, 1e-6);
  y = forward (GNN_MODULE (lp), l, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (y, norms, 2, 1e-12, 1e-12);
}

static void
test_upsample_and_dropout (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnUpsample) up = gnn_upsample_new (NULL, 0, (const double[]) { 2.0 }, 1, "nearest", FALSE);
  g_autoptr(GnnUpsamplingBilinear2d) bi = gnn_upsampling_bilinear2d_new (GNN_TEST_SHAPE (3), 1, NULL, 0);
  g_autoptr(GnnAlphaDropout) ad = gnn_alpha_dropout_new (0.5);
  g_autoptr(GnnTensor) x = arange_d (4, GNN_TEST_SHAPE (1, 1, 2, 2), 4);
  g_autoptr(GnnTensor) y = NULL, z = NULL, d = NULL;
  const double corners[9] = { 0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3 };

  assert_repr (up, "Upsample(scale_factor=2.0, mode=nearest)");
  assert_repr (ad, "AlphaDropout(p=0.5, inplace=False)");
  y = forward (GNN_MODULE (up), x, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y, GNN_TEST_SHAPE (1, 1, 4, 4), 4);
  z = forward (GNN_MODULE (bi), x, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (z, corners, 9, 1e-12, 1e-12);
  gnn_module_set_training (GNN_MODULE (ad), FALSE);
  d = forward (GNN_MODULE (ad), x, &error);
  g_assert_no_error (error);
  g_assert_true (d == x);
}

static void
test_embedding_bag (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnEmbeddingBag) m = gnn_embedding_bag_new (4, 2, "sum", FALSE, 0, GNN_DTYPE_FLOAT64, &error);
  g_autoptr(GnnTensor) w = arange_d (8, GNN_TEST_SHAPE (4, 2), 2);
  g_autoptr(GnnTensor) idx = NULL, offs = NULL, y = NULL;
  g_autoptr(GnnEmbeddingBag) bad = NULL;
  g_autoptr(GBytes) ib = NULL, ob = NULL;
  const gint64 ids[5] = { 1, 0, 3, 2, 2 }, starts[3] = { 0, 2, 2 };
  /* bags [1, 0 (padding)], [], [3, 2, 2]: rows (2, 3), zeros, (6, 7) + 2 (4, 5) */
  const double sums[6] = { 2, 3, 0, 0, 14, 17 }, means[6] = { 2, 3, 0, 0, 14.0 / 3, 17.0 / 3 };

  g_assert_no_error (error);
  assert_repr (m, "EmbeddingBag(4, 2, mode=sum, padding_idx=0)");
  ib = g_bytes_new (ids, sizeof ids);
  ob = g_bytes_new (starts, sizeof starts);
  idx = gnn_tensor_new_from_bytes (ib, GNN_DTYPE_INT64, GNN_TEST_SHAPE (5), 1, NULL, &error);
  offs = gnn_tensor_new_from_bytes (ob, GNN_DTYPE_INT64, GNN_TEST_SHAPE (3), 1, NULL, &error);
  g_assert_no_error (error);
  y = gnn_tensor_embedding_bag (idx, w, offs, "sum", NULL, FALSE, 0, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (y, sums, 6, 0, 0);
  g_clear_object (&y);
  y = gnn_tensor_embedding_bag (idx, w, offs, NULL, NULL, FALSE, 0, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (y, means, 6, 1e-12, 1e-12);
  g_clear_object (&y);
  y = gnn_tensor_embedding_bag (idx, w, NULL, "sum", NULL, FALSE, 0, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  y = gnn_tensor_embedding_bag (idx, w, offs, "mean", w, FALSE, 0, &error);
  g_assert_null (y);
  g_assert_nonnull (strstr (error->message, "only supported for mode='sum'"));
  g_clear_error (&error);
  bad = gnn_embedding_bag_new (4, 2, "sum", FALSE, 7, GNN_DTYPE_FLOAT32, &error);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/layers-more/shuffles", test_shuffles);
  g_test_add_func ("/layers-more/fold", test_fold);
  g_test_add_func ("/layers-more/instance-norm", test_instance_norm);
  g_test_add_func ("/layers-more/pools", test_pools);
  g_test_add_func ("/layers-more/upsample-and-dropout", test_upsample_and_dropout);
  g_test_add_func ("/layers-more/embedding-bag", test_embedding_bag);
  return g_test_run ();
}
