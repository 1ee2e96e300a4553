/* test-norm.c: GnnBatchNorm1d/2d, GnnLayerNorm, GnnGroupNorm */
#include "config.h"

#include "gnn-test-util.h"

static GnnTensor *
forward (gpointer module, GnnTensor *x)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *y = gnn_module_forward_tensor (GNN_MODULE (module), x, &error);

  g_assert_no_error (error);
  g_assert_nonnull (y);
  return y;
}

static GnnTensor *
buffer (gpointer module, const char *name)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *t = gnn_module_get_buffer (GNN_MODULE (module), name, &error);

  g_assert_no_error (error);
  return t;
}

static void
test_batch_norm_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnBatchNorm1d) bn = gnn_batch_norm1d_new (2, &error);
  /* (N=3, C=2): channel 0 = 1, 2, 3; channel 1 = 2, 4, 6 */
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 2, 4, 3, 6), 6, GNN_TEST_SHAPE (3, 2), 2);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) y2 = NULL;
  g_autoptr(GnnTensor) xf = NULL;
  double s0 = sqrt (2.0 / 3 + 1e-5), s1 = sqrt (8.0 / 3 + 1e-5);

  g_assert_no_error (error);
  xf = gnn_tensor_to_dtype (x, GNN_DTYPE_FLOAT32, &error);
  y = forward (bn, xf);
  gnn_test_assert_close (y, GNN_TEST_DATA (-1 / s0, -2 / s1, 0, 0, 1 / s0, 2 / s1), 6, 1e-5, 1e-6);
  /* running stats: 0.9 * 0 + 0.1 * mean; 0.9 * 1 + 0.1 * unbiased var */
  gnn_test_assert_close (buffer (bn, "running_mean"), GNN_TEST_DATA (0.2, 0.4), 2, 1e-6, 1e-7);
  gnn_test_assert_close (buffer (bn, "running_var"), GNN_TEST_DATA (1.0, 1.3), 2, 1e-6, 1e-7);
  g_assert_cmpfloat (gnn_tensor_item (buffer (bn, "num_batches_tracked"), NULL), ==, 1);
  g_assert_cmpint (gnn_tensor_get_dtype (buffer (bn, "num_batches_tracked")), ==, GNN_DTYPE_INT64);

  gnn_module_eval (GNN_MODULE (bn));
  y2 = forward (bn, xf);
  gnn_test_assert_close (y2, GNN_TEST_DATA ((1 - 0.2) / sqrt (1 + 1e-5), (2 - 0.4) / sqrt (1.3 + 1e-5),
                                            (2 - 0.2) / sqrt (1 + 1e-5), (4 - 0.4) / sqrt (1.3 + 1e-5),
                                            (3 - 0.2) / sqrt (1 + 1e-5), (6 - 0.4) / sqrt (1.3 + 1e-5)),
                         6, 1e-5, 1e-6);
  g_assert_cmpfloat (gnn_tensor_item (buffer (bn, "num_batches_tracked"), NULL), ==, 1);

  g_assert_true (gnn_batch_norm_reset_running_stats (GNN_BATCH_NORM (bn), &error));
  g_assert_no_error (error);
  gnn_test_assert_close (buffer (bn, "running_mean"), GNN_TEST_DATA (0, 0), 2, 0, 0);
  gnn_test_assert_close (buffer (bn, "running_var"), GNN_TEST_DATA (1, 1), 2, 0, 0);
  g_assert_cmpfloat (gnn_tensor_item (buffer (bn, "num_batches_tracked"), NULL), ==, 0);
}

static void
test_batch_norm_cumulative (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnBatchNorm1d) bn = gnn_batch_norm1d_new_full (1, 1e-5, NAN, FALSE, TRUE, GNN_DTYPE_FLOAT64, &error);
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (1, 3), 2, GNN_TEST_SHAPE (2, 1), 2);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (5, 9), 2, GNN_TEST_SHAPE (2, 1), 2);
  g_autofree char *repr = NULL;

  g_assert_no_error (error);
  g_assert_true (gnn_batch_norm_get_cumulative_average (GNN_BATCH_NORM (bn)));
  repr = gnn_module_to_string (GNN_MODULE (bn));
  g_assert_cmpstr (repr, ==, "BatchNorm1d(1, eps=1e-05, momentum=None, affine=False, track_running_stats=True)");
  g_object_unref (forward (bn, a));
  g_object_unref (forward (bn, b));
  /* the mean of the batch means (2, 7) and of the unbiased variances (2, 8) */
  gnn_test_assert_close (buffer (bn, "running_mean"), GNN_TEST_DATA (4.5), 1, 1e-12, 1e-12);
  gnn_test_assert_close (buffer (bn, "running_var"), GNN_TEST_DATA (5.0), 1, 1e-12, 1e-12);
}

static void
test_batch_norm_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnBatchNorm1d) bn1 = gnn_batch_norm1d_new (3, &error);
  g_autoptr(GnnBatchNorm2d) bn2 = gnn_batch_norm2d_new (3, &error);
  g_autoptr(GnnTensor) x4 = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2, 3, 2, 2), 4, GNN_DTYPE_FLOAT32, NULL, NULL);
  g_autoptr(GnnTensor) x3 = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2, 3, 2), 3, GNN_DTYPE_FLOAT32, NULL, NULL);
  g_autoptr(GnnTensor) xc = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2, 4), 2, GNN_DTYPE_FLOAT32, NULL, NULL);
  g_autoptr(GnnTensor) x1 = gnn_tensor_new_zeros (GNN_TEST_SHAPE (1, 3), 2, GNN_DTYPE_FLOAT32, NULL, NULL);
  GnnTensor *y;

  g_assert_no_error (error);
  y = gnn_module_forward_tensor (GNN_MODULE (bn1), x4, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "BatchNorm1d: expected 2D or 3D input (got 4D input)");
  g_clear_error (&error);
  y = gnn_module_forward_tensor (GNN_MODULE (bn2), x3, &error);
  g_assert_null (y);
  g_assert_cmpstr (error->message, ==, "BatchNorm2d: expected 4D input (got 3D input)");
  g_clear_error (&error);
  y = gnn_module_forward_tensor (GNN_MODULE (bn1), xc, &error);
  g_assert_null (y);
  g_assert_cmpstr (error->message, ==,
                   "BatchNorm1d: expected input with 3 channels (num_features) in dimension 1, got shape [2, 4]");
  g_clear_error (&error);
  y = gnn_module_forward_tensor (GNN_MODULE (bn1), x1, &error);
  g_assert_null (y);
  g_assert_cmpstr (error->message, ==,
                   "BatchNorm1d: expected more than 1 value per channel when training, got input size [1, 3]");
  g_clear_error (&error);
}

static void
test_norm_reprs (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnBatchNorm2d) bn = gnn_batch_norm2d_new (3, &error);
  g_autoptr(GnnLayerNorm) ln1 = gnn_layer_norm_new (GNN_TEST_SHAPE (4), 1, &error);
  g_autoptr(GnnLayerNorm) ln2 = gnn_layer_norm_new (GNN_TEST_SHAPE (4, 5), 2, &error);
  g_autoptr(GnnGroupNorm) gn = gnn_group_norm_new (2, 4, &error);
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL;
  GnnGroupNorm *bad;

  g_assert_no_error (error);
  a = gnn_module_to_string (GNN_MODULE (bn));
  b = gnn_module_to_string (GNN_MODULE (ln1));
  c = gnn_module_to_string (GNN_MODULE (ln2));
  d = gnn_module_to_string (GNN_MODULE (gn));
  g_assert_cmpstr (a, ==, "BatchNorm2d(3, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)");
  g_assert_cmpstr (b, ==, "LayerNorm((4,), eps=1e-05, elementwise_affine=True)");
  g_assert_cmpstr (c, ==, "LayerNorm((4, 5), eps=1e-05, elementwise_affine=True)");
  g_assert_cmpstr (d, ==, "GroupNorm(2, 4, eps=1e-05, affine=True)");

  bad = gnn_group_norm_new (3, 4, &error);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

static void
test_norm_shape_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnLayerNorm) ln = gnn_layer_norm_new (GNN_TEST_SHAPE (4), 1, &error);
  g_autoptr(GnnGroupNorm) gn = gnn_group_norm_new (2, 4, &error);
  g_autoptr(GnnTensor) x = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2, 3), 2, GNN_DTYPE_FLOAT32, NULL, NULL);
  GnnTensor *y;

  g_assert_no_error (error);
  y = gnn_module_forward_tensor (GNN_MODULE (ln), x, &error);
  g_assert_null (y);
  g_assert_cmpstr (error->message, ==, "LayerNorm: expected input with shape [*, 4], got shape [2, 3]");
  g_clear_error (&error);
  y = gnn_module_forward_tensor (GNN_MODULE (gn), x, &error);
  g_assert_null (y);
  g_assert_cmpstr (error->message, ==, "GroupNorm: expected input of shape [N, 4, *] (num_channels), got shape [2, 3]");
}

/* gradchecks: sum of (output * fixed weights), so that the gradient is not trivially 0 */
static GnnTensor *
weighted_sum (GnnTensor *y, GError **error)
{
  g_autoptr(GnnTensor) w = NULL;
  g_autoptr(GnnTensor) p = NULL;
  gint64 n = gnn_tensor_get_numel (y);

  w = gnn_tensor_new_arange (1, n + 1, 1, GNN_DTYPE_FLOAT64, NULL, error);
  if (w == NULL)
    return NULL;
  {
    guint ndim;
    const gint64 *shape = gnn_tensor_get_shape (y, &ndim);
    g_autoptr(GnnTensor) wr = gnn_tensor_reshape (w, shape, ndim, error);
    g_autoptr(GnnTensor) sq = gnn_tensor_mul (wr, wr, error);

    p = gnn_tensor_mul (y, sq, error);
  }
  return gnn_tensor_sum_all (p, error);
}

static GnnTensor *
module_fn (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) y = gnn_module_forward_tensor (GNN_MODULE (data), x, error);

  if (y == NULL)
    return NULL;
  return weighted_sum (y, error);
}

static GnnTensor *
rand_input (const gint64 *shape, guint ndim)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *x;

  gnn_manual_seed (3);
  x = gnn_tensor_new_randn (shape, ndim, NULL, GNN_DTYPE_FLOAT64, NULL, &error);
  g_assert_no_error (error);
  return x;
}

static void
test_gradcheck (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnBatchNorm1d) bn = gnn_batch_norm1d_new_full (3, 1e-5, 0.1, TRUE, TRUE, GNN_DTYPE_FLOAT64, &error);
  g_autoptr(GnnLayerNorm) ln = gnn_layer_norm_new_full (GNN_TEST_SHAPE (2, 3), 2, 1e-5, TRUE, GNN_DTYPE_FLOAT64, &error);
  g_autoptr(GnnGroupNorm) gn = gnn_group_norm_new_full (2, 4, 1e-5, TRUE, GNN_DTYPE_FLOAT64, &error);
  g_autoptr(GnnTensor) xb = rand_input (GNN_TEST_SHAPE (4, 3, 2), 3);
  g_autoptr(GnnTensor) xl = rand_input (GNN_TEST_SHAPE (2, 2, 3), 3);
  g_autoptr(GnnTensor) xg = rand_input (GNN_TEST_SHAPE (2, 4, 3), 3);

  g_assert_no_error (error);
  gnn_test_gradcheck (module_fn, bn, xb, 1e-6, 1e-5);
  gnn_test_gradcheck (module_fn, ln, xl, 1e-6, 1e-5);
  gnn_test_gradcheck (module_fn, gn, xg, 1e-6, 1e-5);
}

/* the functional forms on their own: instance norm (through batch norm on (1, N·C, ...)),
 * batch norm in evaluation with given statistics, and group norm without affine */
typedef struct {
  int which;
  GnnTensor *w, *b, *rm, *rv;
} FnCase;

static GnnTensor *
functional_fn (GnnTensor *x, gpointer data, GError **error)
{
  FnCase *c = data;
  g_autoptr(GnnTensor) y = NULL;

  switch (c->which)
    {
    case 0:  y = gnn_tensor_instance_norm (x, NULL, NULL, c->w, c->b, TRUE, 0.1, 1e-5, error); break;
    case 1:  y = gnn_tensor_batch_norm (x, c->rm, c->rv, c->w, c->b, FALSE, 0.1, 1e-5, error); break;
    default: y = gnn_tensor_group_norm (x, 3, NULL, NULL, 1e-5, error); break;
    }
  if (y == NULL)
    return NULL;
  return weighted_sum (y, error);
}

static void
test_functional_gradcheck (void)
{
  g_autoptr(GnnTensor) x = rand_input (GNN_TEST_SHAPE (2, 3, 4), 3);
  g_autoptr(GnnTensor) w = gnn_test_tensor_d (GNN_TEST_DATA (0.5, -1.5, 2.0), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (0.1, 0.2, -0.3), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) rm = gnn_test_tensor_d (GNN_TEST_DATA (0.3, -0.1, 0.2), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) rv = gnn_test_tensor_d (GNN_TEST_DATA (1.5, 0.7, 2.5), 3, GNN_TEST_SHAPE (3), 1);

  for (int k = 0; k < 3; k++)
    {
      FnCase c = { k, w, b, rm, rv };

      gnn_test_gradcheck (functional_fn, &c, x, 1e-6, 1e-5);
    }
}

static void
test_functional_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = rand_input (GNN_TEST_SHAPE (2, 3, 1), 3);
  g_autoptr(GnnTensor) v2 = rand_input (GNN_TEST_SHAPE (2), 1);
  GnnTensor *y;

  y = gnn_tensor_instance_norm (x, NULL, NULL, NULL, NULL, TRUE, 0.1, 1e-5, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==,
                   "instance_norm: Expected more than 1 spatial element when training, got input size [2, 3, 1]");
  g_clear_error (&error);
  y = gnn_tensor_batch_norm (x, v2, NULL, NULL, NULL, TRUE, 0.1, 1e-5, &error);
  g_assert_null (y);
  g_assert_cmpstr (error->message, ==, "batch_norm: running_mean should contain 3 elements not 2");
  g_clear_error (&error);
  y = gnn_tensor_batch_norm (x, NULL, NULL, NULL, NULL, FALSE, 0.1, 1e-5, &error);
  g_assert_null (y);
  g_assert_cmpstr (error->message, ==, "batch_norm: running_mean and running_var must be defined in evaluation mode");
  g_clear_error (&error);
  y = gnn_tensor_layer_norm (x, GNN_TEST_SHAPE (3), 1, NULL, NULL, 1e-5, &error);
  g_assert_null (y);
  g_assert_cmpstr (error->message, ==,
                   "layer_norm: Given normalized_shape=[3], expected input with shape [*, 3], but got input of size[2, 3, 1]");
  g_clear_error (&error);
  y = gnn_tensor_layer_norm (x, GNN_TEST_SHAPE (1), 1, v2, NULL, 1e-5, &error);
  g_assert_null (y);
  g_assert_cmpstr (error->message, ==,
                   "layer_norm: Expected weight to be of same shape as normalized_shape, but got weight of shape [2] "
                   "and normalized_shape = [1]");
  g_clear_error (&error);
  y = gnn_tensor_group_norm (x, 2, NULL, NULL, 1e-5, &error);
  g_assert_null (y);
  g_assert_cmpstr (error->message, ==,
                   "group_norm: Expected number of channels in input to be divisible by num_groups, but got input "
                   "of shape [2, 3, 1] and num_groups=2");
}

/* A training batch goes through the backend's fused batch norm kernels exactly when the
 * backend has them (the CPU and reference backends; others keep the composed ops, which
 * test-cuda compares with the fused ones). test_norm.py compares them with PyTorch and the
 * gradcheck above covers them. */
static void
test_batch_norm_fused_path (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnBatchNorm2d) bn = gnn_batch_norm2d_new (3, &error);
  g_autoptr(GnnTensor) x = rand_input (GNN_TEST_SHAPE (2, 3, 4, 4), 4);
  g_autoptr(GnnTensor) xf = NULL, y = NULL;
  GnnBackend *backend = gnn_backend_get_for_device_type ("cpu", NULL);
  gboolean fused = gnn_backend_supports_op (backend, GNN_BACKEND_OP_BATCH_NORM_STATS, GNN_DTYPE_FLOAT32);

  g_assert_no_error (error);
  xf = gnn_tensor_to_dtype (x, GNN_DTYPE_FLOAT32, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_set_requires_grad (xf, TRUE, &error));
  y = gnn_module_forward_tensor (GNN_MODULE (bn), xf, &error);
  g_assert_no_error (error);
  if (fused)
    g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, "NativeBatchNormBackward0");
  else
    g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), !=, "NativeBatchNormBackward0");
  /* the CPU and the reference backends both have the kernels */
  g_assert_true (fused);
}

static void
test_state_dict_keys (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnBatchNorm2d) bn = gnn_batch_norm2d_new (3, &error);
  g_autoptr(GnnBatchNorm2d) bare = gnn_batch_norm2d_new_full (3, 1e-5, 0.1, FALSE, FALSE, GNN_DTYPE_FLOAT32, &error);
  g_autoptr(GnnStateDict) sd = NULL;
  g_autoptr(GnnStateDict) sd2 = NULL;
  g_auto(GStrv) keys = NULL;
  g_auto(GStrv) keys2 = NULL;
  const char *want[] = { "weight", "bias", "running_mean", "running_var", "num_batches_tracked", NULL };

  g_assert_no_error (error);
  sd = gnn_module_state_dict (GNN_MODULE (bn), NULL, FALSE, &error);
  g_assert_no_error (error);
  keys = gnn_state_dict_get_keys (sd);
  g_assert_cmpstrv (keys, want);
  sd2 = gnn_module_state_dict (GNN_MODULE (bare), NULL, FALSE, &error);
  g_assert_no_error (error);
  keys2 = gnn_state_dict_get_keys (sd2);
  g_assert_cmpuint (g_strv_length (keys2), ==, 0);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/norm/batch-norm/values", test_batch_norm_values);
  g_test_add_func ("/norm/batch-norm/cumulative", test_batch_norm_cumulative);
  g_test_add_func ("/norm/batch-norm/errors", test_batch_norm_errors);
  g_test_add_func ("/norm/batch-norm/fused-path", test_batch_norm_fused_path);
  g_test_add_func ("/norm/reprs", test_norm_reprs);
  g_test_add_func ("/norm/shape-errors", test_norm_shape_errors);
  g_test_add_func ("/norm/gradcheck", test_gradcheck);
  g_test_add_func ("/norm/state-dict-keys", test_state_dict_keys);
  g_test_add_func ("/norm/functional/gradcheck", test_functional_gradcheck);
  g_test_add_func ("/norm/functional/errors", test_functional_errors);
  return g_test_run ();
}
