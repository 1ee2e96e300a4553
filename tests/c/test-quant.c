/* test-quant.c: quantized tensors: rounding half to even, clamping, dequantize, per channel,
 * and the errors of bad parameters
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gnn/gnn.h>

static void
test_per_tensor_rounding (void)
{
  const float x[] = { 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 300.f, -300.f, 0.25f };
  const gint8 want[] = { 0, 2, 2, 0, -2, 127, -128, 0 };
  gint64 shape[] = { 8 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_floats (x, 8, shape, 1, &error);
  g_autoptr(GnnQuantizedTensor) q = NULL;
  g_autoptr(GnnTensor) ints = NULL;
  g_autoptr(GnnTensor) deq = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree float *d = NULL;
  gsize n;

  g_assert_no_error (error);
  q = gnn_quantize_per_tensor (t, 1.0, 0, GNN_QDTYPE_QINT8, &error);
  g_assert_no_error (error);
  ints = gnn_quantized_tensor_int_repr (q);
  g_assert_cmpint (gnn_tensor_get_dtype (ints), ==, GNN_DTYPE_INT8);
  bytes = gnn_tensor_get_bytes (ints, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), want, sizeof want);
  deq = gnn_quantized_tensor_dequantize (q, &error);
  g_assert_no_error (error);
  d = gnn_tensor_to_floats (deq, &n, &error);
  g_assert_cmpuint (n, ==, 8);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpfloat (d[i], ==, (float) want[i]);
  g_assert_cmpfloat (gnn_quantized_tensor_q_scale (q, &error), ==, 1.0);
  g_assert_cmpint (gnn_quantized_tensor_q_zero_point (q, &error), ==, 0);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_quantized_tensor_get_qscheme (q), ==, GNN_QSCHEME_PER_TENSOR_AFFINE);
  g_assert_cmpint (gnn_quantized_tensor_q_per_channel_axis (q, &error), ==, -1);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_object (&ints);
  g_assert_finalize_object (g_steal_pointer (&q));
}

static void
test_per_tensor_errors (void)
{
  const float x[] = { 1.f, 2.f };
  gint64 shape[] = { 2 };
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_floats (x, 2, shape, 1, NULL);
  g_autoptr(GnnTensor) d = gnn_tensor_new_zeros (shape, 1, GNN_DTYPE_FLOAT64, NULL, NULL);
  const double bad_scales[] = { 0.0, -1.0, NAN, INFINITY, 1e-300 };
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad_scales); i++)
    {
      g_assert_null (gnn_quantize_per_tensor (t, bad_scales[i], 0, GNN_QDTYPE_QINT8, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "scale"));
      g_clear_error (&error);
    }
  g_assert_null (gnn_quantize_per_tensor (t, 1.0, 128, GNN_QDTYPE_QINT8, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "[-128, 127]"));
  g_clear_error (&error);
  g_assert_null (gnn_quantize_per_tensor (t, 1.0, -1, GNN_QDTYPE_QUINT8, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_quantize_per_tensor (d, 1.0, 0, GNN_QDTYPE_QINT8, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "got float64"));
  g_clear_error (&error);
  g_assert_null (gnn_quantize_per_tensor (t, 1.0, 0, (GnnQDtype) 7, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_null (gnn_quantized_tensor_new_per_tensor (t, 1.0, 0, GNN_QDTYPE_QINT8, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
}

static void
test_per_channel (void)
{
  /* a 2x3 tensor, channels along dim 0 with scales 0.5 and 2, zero points 1 and -1 */
  const float x[] = { 0.25f, 0.75f, -1.f, 3.f, 5.f, -300.f };
  const gint8 want[] = { 1, 3, -1, 1, 1, -128 };
  const double s[] = { 0.5, 2.0 };
  const gint64 z[] = { 1, -1 };
  gint64 shape[] = { 2, 3 }, cshape[] = { 2 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_floats (x, 6, shape, 2, &error);
  g_autoptr(GnnTensor) st = gnn_tensor_new_from_doubles (s, 2, cshape, 1, &error);
  g_autoptr(GnnTensor) zt = gnn_tensor_new_from_int64s (z, 2, cshape, 1, &error);
  g_autoptr(GnnTensor) ints = NULL;
  g_autoptr(GnnTensor) deq = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree float *d = NULL;
  GnnQuantizedTensor *q;
  gsize n;

  q = gnn_quantize_per_channel (t, st, zt, 0, GNN_QDTYPE_QINT8, &error);
  g_assert_no_error (error);
  ints = gnn_quantized_tensor_int_repr (q);
  bytes = gnn_tensor_get_bytes (ints, &error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), want, sizeof want);
  deq = gnn_quantized_tensor_dequantize (q, &error);
  d = gnn_tensor_to_floats (deq, &n, &error);
  g_assert_cmpfloat (d[0], ==, 0.f);
  g_assert_cmpfloat (d[1], ==, 1.f);
  g_assert_cmpfloat (d[3], ==, 4.f);
  g_assert_cmpfloat (d[5], ==, -254.f);
  g_assert_cmpint (gnn_quantized_tensor_q_per_channel_axis (q, &error), ==, 0);
  g_assert_cmpfloat (gnn_quantized_tensor_q_scale (q, &error), ==, 0);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_quantize_per_channel (t, st, zt, 1, GNN_QDTYPE_QINT8, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_quantize_per_channel (t, st, zt, 2, GNN_QDTYPE_QINT8, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_clear_object (&ints);
  g_assert_finalize_object (q);
}

static GnnTensor *
floats (const float *x, gint64 n)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *t = gnn_tensor_new_from_floats (x, n, &n, 1, &error);

  g_assert_no_error (error);
  return t;
}

static void
test_min_max_observer (void)
{
  const float a[] = { 1.f, -2.f, 3.f };
  const float b[] = { 4.f, 0.5f };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) ta = floats (a, 3);
  g_autoptr(GnnTensor) tb = floats (b, 2);
  GnnMinMaxObserver *obs;
  gint64 qmin, qmax, zp;
  double scale;
  float mn, mx;

  obs = gnn_min_max_observer_new (GNN_QDTYPE_QUINT8, GNN_QSCHEME_PER_TENSOR_AFFINE, FALSE, &error);
  g_assert_no_error (error);
  gnn_min_max_observer_get_range (obs, &qmin, &qmax);
  g_assert_cmpint (qmin, ==, 0);
  g_assert_cmpint (qmax, ==, 255);
  /* no data yet: an error, where torch warns and returns 1.0 and 0 */
  g_assert_false (gnn_min_max_observer_calculate_qparams (obs, &scale, &zp, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (gnn_min_max_observer_observe (obs, ta, &error));
  g_assert_true (gnn_min_max_observer_observe (obs, tb, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_min_max_observer_get_min_max (obs, &mn, &mx, &error));
  g_assert_cmpfloat (mn, ==, -2.f);
  g_assert_cmpfloat (mx, ==, 4.f);
  g_assert_true (gnn_min_max_observer_calculate_qparams (obs, &scale, &zp, &error));
  /* torch 1.13: scale 6/255 in float32, zero point 0 - round (-2 / scale) = 85 */
  g_assert_cmpfloat (scale, ==, (double) (6.0f / 255.0f));
  g_assert_cmpint (zp, ==, 85);
  g_assert_finalize_object (obs);

  obs = gnn_min_max_observer_new (GNN_QDTYPE_QINT8, GNN_QSCHEME_PER_TENSOR_SYMMETRIC, TRUE, &error);
  g_assert_no_error (error);
  gnn_min_max_observer_get_range (obs, &qmin, &qmax);
  g_assert_cmpint (qmin, ==, -64);
  g_assert_cmpint (qmax, ==, 63);
  g_assert_true (gnn_min_max_observer_observe (obs, ta, &error));
  g_assert_true (gnn_min_max_observer_calculate_qparams (obs, &scale, &zp, &error));
  g_assert_cmpfloat (scale, ==, (double) (3.0f / 63.5f));
  g_assert_cmpint (zp, ==, 0);
  g_assert_finalize_object (obs);

  g_assert_null (gnn_min_max_observer_new (GNN_QDTYPE_QINT8, GNN_QSCHEME_PER_CHANNEL_AFFINE, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
}

static void
test_moving_average_observer (void)
{
  const float a[] = { 1.f, -2.f };
  const float b[] = { 11.f, -12.f };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) ta = floats (a, 2);
  g_autoptr(GnnTensor) tb = floats (b, 2);
  g_autoptr(GnnArgs) in = gnn_args_new_tensor (tb);
  g_autoptr(GnnArgs) out = NULL;
  GnnMovingAverageMinMaxObserver *obs;
  float mn, mx;

  obs = gnn_moving_average_min_max_observer_new (0.5, GNN_QDTYPE_QUINT8, GNN_QSCHEME_PER_TENSOR_AFFINE,
                                                 FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_min_max_observer_observe (GNN_MIN_MAX_OBSERVER (obs), ta, &error));
  /* the forward records too, and returns its input */
  out = gnn_module_forward (GNN_MODULE (obs), in, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_args_get_tensor (out, 0, NULL) == tb);
  g_assert_true (gnn_min_max_observer_get_min_max (GNN_MIN_MAX_OBSERVER (obs), &mn, &mx, &error));
  g_assert_cmpfloat (mn, ==, -7.f);
  g_assert_cmpfloat (mx, ==, 6.f);
  g_clear_object (&out);
  g_assert_finalize_object (obs);
}

static void
test_quantize_dynamic (void)
{
  /* a Linear 2 -> 1 with weight [1, -0.5] and bias 0.25: the weight scale is 1/127.5, its
   * integers [127, -64] (127.5 clamps to 127, -63.75 rounds to -64); x = [[2, 2]] gives the
   * activation scale 2/127 (reduce_range: 0..127), zero point 0 and integers [127, 127] */
  const float w[] = { 1.f, -0.5f };
  const float bias = 0.25f;
  const float xv[] = { 2.f, 2.f };
  gint64 wshape[] = { 1, 2 }, bshape[] = { 1 }, xshape[] = { 1, 2 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnSequential) seq = NULL;
  g_autoptr(GnnModule) q = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_floats (xv, 2, xshape, 2, &error);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) wt = gnn_tensor_new_from_floats (w, 2, wshape, 2, &error);
  g_autoptr(GnnTensor) bt = gnn_tensor_new_from_floats (&bias, 1, bshape, 1, &error);
  GnnLinear *lin = gnn_linear_new (2, 1, TRUE, &error);
  GnnModule *child;
  GType bad = GNN_TYPE_CONV2D;
  GType good = GNN_TYPE_LINEAR;
  g_autoptr(GnnQuantizedTensor) qw = NULL;
  double scale, expect;
  gint64 zp;

  g_assert_no_error (error);
  gnn_set_grad_enabled (FALSE);
  g_assert_true (gnn_tensor_copy_ (GNN_TENSOR (gnn_module_get_parameter (GNN_MODULE (lin), "weight", NULL)), wt, &error));
  g_assert_true (gnn_tensor_copy_ (GNN_TENSOR (gnn_module_get_parameter (GNN_MODULE (lin), "bias", NULL)), bt, &error));
  gnn_set_grad_enabled (TRUE);
  seq = gnn_sequential_new ((GnnModule **) &lin, 1);
  g_object_unref (lin);

  g_assert_null (gnn_quantize_dynamic (GNN_MODULE (seq), &bad, 1, GNN_QDTYPE_QINT8, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "GnnConv2d"));
  g_clear_error (&error);
  g_assert_null (gnn_quantize_dynamic (GNN_MODULE (seq), &good, 1, GNN_QDTYPE_QUINT8, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);

  q = gnn_quantize_dynamic (GNN_MODULE (seq), &good, 1, GNN_QDTYPE_QINT8, FALSE, &error);
  g_assert_no_error (error);
  child = gnn_module_get_submodule (q, "0", &error);
  g_assert_true (GNN_IS_DYNAMIC_QUANTIZED_LINEAR (child));
  g_assert_true (GNN_IS_LINEAR (gnn_module_get_submodule (GNN_MODULE (seq), "0", NULL)));
  qw = gnn_dynamic_quantized_linear_get_weight (GNN_DYNAMIC_QUANTIZED_LINEAR (child), &error);
  g_assert_no_error (error);
  scale = gnn_quantized_tensor_q_scale (qw, NULL);
  g_assert_cmpfloat (scale, ==, (double) (1.0f / 127.5f));
  g_assert_true (gnn_choose_qparams_per_tensor (x, TRUE, &scale, &zp, &error));
  g_assert_cmpfloat (scale, ==, 2.0 / 127);
  g_assert_cmpint (zp, ==, 0);

  y = gnn_module_forward_tensor (q, x, &error);
  g_assert_no_error (error);
  /* acc = 127·127 - 127·64 = 8001, y = acc × float32 (x_scale × w_scale) + bias */
  expect = 8001.0f * (float) ((2.0 / 127) * (double) (1.0f / 127.5f)) + 0.25f;
  g_assert_cmpfloat (gnn_tensor_item (y, NULL), ==, (float) expect);
}

/* a dynamically quantized model through its state dict, safetensors bytes and the module JSON:
 * torch's keys (scale, zero_point, then _packed_params' parts), the same outputs after the trip */
static void
test_dynamic_save_load (void)
{
  static const char *const want_keys[] = {
    "0.scale", "0.zero_point", "0._packed_params.weight", "0._packed_params.weight_scale",
    "0._packed_params.weight_zero_point", "0._packed_params.bias", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) seq = NULL;
  g_autoptr(GnnModule) q = NULL;
  g_autoptr(GnnModule) back = NULL;
  g_autoptr(GnnStateDict) sd = NULL;
  g_autoptr(GnnStateDict) loaded = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) y1 = NULL;
  g_autoptr(GnnTensor) y2 = NULL;
  g_autoptr(GnnQuantizedTensor) w1 = NULL;
  g_autoptr(GnnQuantizedTensor) w2 = NULL;
  g_autoptr(GnnTensor) i1 = NULL;
  g_autoptr(GnnTensor) i2 = NULL;
  g_autofree char *json = NULL;
  g_autofree char *text = NULL;
  g_autofree float *a = NULL;
  g_autofree float *b = NULL;
  g_auto(GStrv) keys = NULL;
  GType good = GNN_TYPE_LINEAR;
  gint64 shape[2] = { 9, 5 };
  float xs[45];
  gsize n1, n2;

  for (guint i = 0; i < 45; i++)
    xs[i] = sinf ((float) i * 0.7f) * 2.f;
  x = gnn_tensor_new_from_floats (xs, 45, shape, 2, &error);
  g_assert_no_error (error);
  {
    GnnLinear *lin = gnn_linear_new (5, 3, TRUE, &error);

    g_assert_no_error (error);
    seq = GNN_MODULE (gnn_sequential_new ((GnnModule **) &lin, 1));
    g_object_unref (lin);
  }
  q = gnn_quantize_dynamic (seq, &good, 1, GNN_QDTYPE_QINT8, FALSE, &error);
  g_assert_no_error (error);
  text = gnn_module_to_string (q);
  g_assert_cmpstr (text, ==, "Sequential(\n  (0): DynamicQuantizedLinear(in_features=5, out_features=3, "
                             "dtype=torch.qint8, qscheme=torch.per_tensor_affine)\n)");

  sd = gnn_module_state_dict (q, NULL, FALSE, &error);
  g_assert_no_error (error);
  keys = gnn_state_dict_get_keys (sd);
  g_assert_cmpstrv (keys, want_keys);
  g_assert_cmpint (gnn_tensor_get_dtype (gnn_state_dict_get_tensor (sd, "0._packed_params.weight", NULL)), ==,
                   GNN_DTYPE_INT8);
  g_assert_cmpint (gnn_tensor_get_dtype (gnn_state_dict_get_tensor (sd, "0._packed_params.weight_scale", NULL)), ==,
                   GNN_DTYPE_FLOAT64);
  bytes = gnn_safetensors_save_to_bytes (sd, NULL, &error);
  g_assert_no_error (error);
  loaded = gnn_safetensors_load_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);

  json = gnn_module_to_json (q, FALSE, &error);
  g_assert_no_error (error);
  back = gnn_module_new_from_json (json, -1, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_module_load_state_dict (back, loaded, TRUE, FALSE, NULL, NULL, &error));
  g_assert_no_error (error);

  y1 = gnn_module_forward_tensor (q, x, &error);
  g_assert_no_error (error);
  y2 = gnn_module_forward_tensor (back, x, &error);
  g_assert_no_error (error);
  a = gnn_tensor_to_floats (y1, &n1, &error);
  b = gnn_tensor_to_floats (y2, &n2, &error);
  g_assert_cmpuint (n1, ==, 27);
  g_assert_cmpmem (a, n1 * sizeof (float), b, n2 * sizeof (float));
  w1 = gnn_dynamic_quantized_linear_get_weight (
    GNN_DYNAMIC_QUANTIZED_LINEAR (gnn_module_get_submodule (q, "0", NULL)), &error);
  w2 = gnn_dynamic_quantized_linear_get_weight (
    GNN_DYNAMIC_QUANTIZED_LINEAR (gnn_module_get_submodule (back, "0", NULL)), &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (gnn_quantized_tensor_q_scale (w1, NULL), ==, gnn_quantized_tensor_q_scale (w2, NULL));
  i1 = gnn_quantized_tensor_int_repr (w1);
  i2 = gnn_quantized_tensor_int_repr (w2);
  g_assert_true (gnn_tensor_equal (i1, i2, &error));

  /* a loaded scale of 0 is an error at the next forward, naming it */
  g_assert_true (gnn_tensor_fill_ (gnn_state_dict_get_tensor (loaded, "0._packed_params.weight_scale", NULL), 0.0, &error));
  g_assert_true (gnn_module_load_state_dict (back, loaded, TRUE, FALSE, NULL, NULL, &error));
  g_clear_object (&y2);
  y2 = gnn_module_forward_tensor (back, x, &error);
  g_assert_null (y2);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "scale"));

  /* integers of another dtype: an error naming the key and both dtypes, not a conversion;
   * the layer keeps its weight, and a copy of it refuses them too */
  g_clear_error (&error);
  {
    g_autoptr(GnnTensor) wf = gnn_tensor_to_dtype (gnn_state_dict_get_tensor (loaded, "0._packed_params.weight", NULL),
                                                   GNN_DTYPE_FLOAT32, &error);
    g_autoptr(GnnModule) copy = NULL;
    g_autoptr(GnnStateDict) now = NULL;

    g_assert_no_error (error);
    gnn_state_dict_set_tensor (loaded, "0._packed_params.weight", wf);
    g_assert_false (gnn_module_load_state_dict (back, loaded, TRUE, FALSE, NULL, NULL, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
    g_assert_nonnull (strstr (error->message, "0._packed_params.weight"));
    g_assert_nonnull (strstr (error->message, "float32"));
    g_assert_nonnull (strstr (error->message, "int8"));
    g_clear_error (&error);
    now = gnn_module_state_dict (back, NULL, FALSE, &error);
    g_assert_no_error (error);
    g_assert_true (gnn_tensor_equal (i1, gnn_state_dict_get_tensor (now, "0._packed_params.weight", NULL), &error));
    copy = gnn_module_copy (q, &error);
    g_assert_no_error (error);
    g_assert_false (gnn_module_load_state_dict (copy, loaded, TRUE, FALSE, NULL, NULL, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  }
}

/* per channel: [[1, -2], [3, 4]] along axis 1 gives channel mins [1, -2] and maxes [3, 4];
 * quint8 affine: scales (3 - 0) / 255 and (4 + 2) / 255, zero points 0 and 85 */
static void
test_per_channel_observer (void)
{
  const float xv[] = { 1.f, -2.f, 3.f, 4.f };
  gint64 shape[] = { 2, 2 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_floats (xv, 4, shape, 2, &error);
  g_autoptr(GnnPerChannelMinMaxObserver) obs = NULL;
  g_autoptr(GnnTensor) scales = NULL;
  g_autoptr(GnnTensor) zps = NULL;
  g_autofree float *s = NULL;
  g_autofree gint64 *z = NULL;
  double sc;
  gint64 zp;
  gsize n;

  obs = gnn_per_channel_min_max_observer_new (1, GNN_QDTYPE_QUINT8, GNN_QSCHEME_PER_CHANNEL_AFFINE, FALSE, &error);
  g_assert_no_error (error);
  g_assert_false (gnn_per_channel_min_max_observer_calculate_qparams (obs, &scales, &zps, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (gnn_min_max_observer_observe (GNN_MIN_MAX_OBSERVER (obs), x, &error));
  g_assert_true (gnn_per_channel_min_max_observer_calculate_qparams (obs, &scales, &zps, &error));
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (zps), ==, GNN_DTYPE_INT32);
  s = gnn_tensor_to_floats (scales, &n, &error);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpfloat (s[0], ==, 3.f / 255.f);
  g_assert_cmpfloat (s[1], ==, 6.f / 255.f);
  z = gnn_tensor_to_int64s (zps, &n, &error);
  g_assert_cmpint (z[0], ==, 0);
  g_assert_cmpint (z[1], ==, 85);
  /* the per-tensor entry point refuses it */
  g_assert_false (gnn_min_max_observer_calculate_qparams (GNN_MIN_MAX_OBSERVER (obs), &sc, &zp, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_per_channel_min_max_observer_new (0, GNN_QDTYPE_QUINT8, GNN_QSCHEME_PER_TENSOR_AFFINE,
                                                       FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_clear_object (&scales);
  g_clear_object (&zps);
  g_assert_finalize_object (g_steal_pointer (&obs));
}

/* a histogram of 0..99 (one value per bin of 100 bins over the truncated range 0..99): the
 * search drops no outlier-free tail, so the parameters stay close to MinMax's */
static void
test_histogram_observer (void)
{
  float xv[100], yv[50];
  gint64 shape[] = { 100 }, yshape[] = { 50 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnHistogramObserver) obs = NULL;
  float mn, mx;
  double scale;
  gint64 zp;

  for (guint i = 0; i < 100; i++)
    xv[i] = (float) i;
  for (guint i = 0; i < 50; i++)
    yv[i] = (float) i * 3 - 20;
  x = gnn_tensor_new_from_floats (xv, 100, shape, 1, &error);
  y = gnn_tensor_new_from_floats (yv, 50, yshape, 1, &error);
  obs = gnn_histogram_observer_new (100, 16, GNN_QDTYPE_QUINT8, GNN_QSCHEME_PER_TENSOR_AFFINE, FALSE, &error);
  g_assert_no_error (error);
  g_assert_false (gnn_min_max_observer_calculate_qparams (GNN_MIN_MAX_OBSERVER (obs), &scale, &zp, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (gnn_min_max_observer_observe (GNN_MIN_MAX_OBSERVER (obs), x, &error));
  g_assert_true (gnn_min_max_observer_calculate_qparams (GNN_MIN_MAX_OBSERVER (obs), &scale, &zp, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (scale, >, 0.3);
  g_assert_cmpfloat (scale, <=, 99.0 / 255 + 1e-6);
  g_assert_cmpint (zp, ==, 0);
  /* a wider second batch: the range grows to cover both */
  g_assert_true (gnn_min_max_observer_observe (GNN_MIN_MAX_OBSERVER (obs), y, &error));
  g_assert_true (gnn_min_max_observer_get_min_max (GNN_MIN_MAX_OBSERVER (obs), &mn, &mx, &error));
  g_assert_cmpfloat (mn, ==, -20.f);
  g_assert_cmpfloat (mx, >=, 127.f);
  g_assert_true (gnn_min_max_observer_calculate_qparams (GNN_MIN_MAX_OBSERVER (obs), &scale, &zp, &error));
  g_assert_cmpint (zp, >, 0);
  g_assert_null (gnn_histogram_observer_new (0, 16, GNN_QDTYPE_QUINT8, GNN_QSCHEME_PER_TENSOR_AFFINE, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_finalize_object (g_steal_pointer (&obs));
}

/* a static quantized linear 2 -> 1: w = [1, -0.5] quantized per tensor with scale 1/127.5
 * (integers [127, -64]); x = [2, 2] quint8 with scale 2/127, zero point 0 (integers [127, 127]);
 * acc = 8001, real 8001 × (2/127 × 1/127.5) + 0.25 = 1.2382..., output scale 0.01, zero point 10
 * gives 10 + round (123.82) = 134; with relu, a negative result clamps to the zero point */
static void
test_static_linear (void)
{
  const float w[] = { 1.f, -0.5f }, b[] = { 0.25f }, xv[] = { 2.f, 2.f }, xn[] = { -2.f, 2.f };
  gint64 wshape[] = { 1, 2 }, bshape[] = { 1 }, xshape[] = { 1, 2 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) wt = gnn_tensor_new_from_floats (w, 2, wshape, 2, NULL);
  g_autoptr(GnnTensor) bt = gnn_tensor_new_from_floats (b, 1, bshape, 1, NULL);
  g_autoptr(GnnTensor) xt = gnn_tensor_new_from_floats (xv, 2, xshape, 2, NULL);
  g_autoptr(GnnTensor) xnt = gnn_tensor_new_from_floats (xn, 2, xshape, 2, NULL);
  g_autoptr(GnnQuantizedTensor) qw = gnn_quantize_per_tensor (wt, 1.0 / 127.5, 0, GNN_QDTYPE_QINT8, NULL);
  g_autoptr(GnnQuantizedTensor) qx = gnn_quantize_per_tensor (xt, 2.0 / 127, 0, GNN_QDTYPE_QUINT8, NULL);
  g_autoptr(GnnQuantizedTensor) qxn = gnn_quantize_per_tensor (xnt, 4.0 / 255, 128, GNN_QDTYPE_QUINT8, NULL);
  g_autoptr(GnnQuantizedTensor) qbad = gnn_quantize_per_tensor (xt, 0.1, 0, GNN_QDTYPE_QINT8, NULL);
  g_autoptr(GnnQuantizedTensor) y = NULL;
  g_autoptr(GnnQuantizedTensor) yr = NULL;
  g_autoptr(GnnTensor) ints = NULL;
  g_autoptr(GnnTensor) rints = NULL;
  g_autoptr(GnnLinearPackedParams) p = g_object_new (GNN_TYPE_LINEAR_PACKED_PARAMS, "in-features", 2,
                                                     "out-features", 1, NULL);
  float expect;

  g_assert_true (gnn_linear_packed_params_set_weight_bias (p, qw, bt, &error));
  g_assert_no_error (error);
  y = gnn_linear_packed_params_apply (p, qx, 0.01, 10, FALSE, &error);
  g_assert_no_error (error);
  ints = gnn_quantized_tensor_int_repr (y);
  expect = 8001.0f * (float) ((2.0 / 127) * (1.0 / 127.5)) + 0.25f;
  g_assert_cmpint ((gint64) gnn_tensor_item (ints, NULL), ==, 10 + (gint64) nearbyintf (expect * (1.0f / 0.01f)));
  g_assert_cmpint ((gint64) gnn_tensor_item (ints, NULL), ==, 134);
  yr = gnn_linear_packed_params_apply (p, qxn, 0.01, 10, TRUE, &error);
  g_assert_no_error (error);
  rints = gnn_quantized_tensor_int_repr (yr);
  g_assert_cmpint ((gint64) gnn_tensor_item (rints, NULL), ==, 10);
  g_assert_null (gnn_linear_packed_params_apply (p, qbad, 0.01, 10, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_null (gnn_linear_packed_params_apply (p, qx, 0.0, 10, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (gnn_linear_packed_params_set_weight_bias (p, qw, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_object (&ints);
  g_clear_object (&rints);
  g_assert_finalize_object (g_steal_pointer (&y));
  g_assert_finalize_object (g_steal_pointer (&p));
}

/* a 1x1x2x2 input of ones (scale 1/127, zero point 0 → integers 127) and a 1x1x2x2 weight of
 * ones (scale 1/127 → 127), padding 1: the corner windows see one input, the centre four;
 * acc = 127·127·k, real k (to float32 rounding), output scale 1/64: 64 k */
static void
test_static_conv2d (void)
{
  const float ones[] = { 1.f, 1.f, 1.f, 1.f };
  gint64 shape[] = { 1, 1, 2, 2 };
  const int stride[2] = { 1, 1 }, padding[2] = { 1, 1 }, dilation[2] = { 1, 1 }, zero[2] = { 0, 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_floats (ones, 4, shape, 4, NULL);
  g_autoptr(GnnQuantizedTensor) qx = gnn_quantize_per_tensor (t, 1.0 / 127, 0, GNN_QDTYPE_QUINT8, NULL);
  g_autoptr(GnnQuantizedTensor) qw = gnn_quantize_per_tensor (t, 1.0 / 127, 0, GNN_QDTYPE_QINT8, NULL);
  g_autoptr(GnnQuantizedTensor) y = NULL;
  g_autoptr(GnnTensor) ints = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const guint8 *q;
  const gint64 *oshape;
  guint ndim;

  y = gnn_quantized_conv2d (qx, qw, NULL, stride, padding, dilation, 1, 1.0 / 64, 0, FALSE, &error);
  g_assert_no_error (error);
  ints = gnn_quantized_tensor_int_repr (y);
  oshape = gnn_tensor_get_shape (ints, &ndim);
  g_assert_cmpuint (ndim, ==, 4);
  g_assert_cmpint (oshape[2], ==, 3);
  g_assert_cmpint (oshape[3], ==, 3);
  bytes = gnn_tensor_get_bytes (ints, &error);
  q = g_bytes_get_data (bytes, NULL);
  g_assert_cmpint (q[0], ==, 64);      /* a corner: one input */
  g_assert_cmpint (q[1], ==, 128);     /* an edge: two */
  g_assert_cmpint (q[4], ==, 255);     /* the centre: four, 256 clamped */
  g_assert_null (gnn_quantized_conv2d (qw, qw, NULL, stride, padding, dilation, 1, 1.0, 0, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_null (gnn_quantized_conv2d (qx, qw, NULL, stride, zero, dilation, 2, 1.0, 0, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_object (&ints);
  g_assert_finalize_object (g_steal_pointer (&y));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/quant/per-tensor/rounding", test_per_tensor_rounding);
  g_test_add_func ("/quant/per-tensor/errors", test_per_tensor_errors);
  g_test_add_func ("/quant/per-channel", test_per_channel);
  g_test_add_func ("/quant/observer/min-max", test_min_max_observer);
  g_test_add_func ("/quant/observer/moving-average", test_moving_average_observer);
  g_test_add_func ("/quant/dynamic/linear", test_quantize_dynamic);
  g_test_add_func ("/quant/dynamic/save-load", test_dynamic_save_load);
  g_test_add_func ("/quant/observer/per-channel", test_per_channel_observer);
  g_test_add_func ("/quant/observer/histogram", test_histogram_observer);
  g_test_add_func ("/quant/static/linear", test_static_linear);
  g_test_add_func ("/quant/static/conv2d", test_static_conv2d);
  return g_test_run ();
}
