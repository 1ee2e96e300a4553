/* test-rnn.c: GnnRNN, GnnLSTM and GnnGRU and their cells GnnRNNCell, GnnLSTMCell and
 * GnnGRUCell: shapes, parameter names, errors and a float64 gradcheck (test_rnn.py compares
 * them with PyTorch)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-test-util.h"
#include "gnn-module-private.h"
#include "cpu/gnn-cpu-fastmath.h"

#include <float.h>
#include <string.h>

static GnnModule *
make (GType type, const char *first, ...)
{
  g_autoptr(GError) error = NULL;
  va_list ap;
  GnnModule *m;

  va_start (ap, first);
  m = GNN_MODULE (g_object_new_valist (type, first, ap));
  va_end (ap);
  g_assert_true (gnn_module_ensure_setup (m, &error));
  g_assert_no_error (error);
  return m;
}

static GnnTensor *
rand_input (const gint64 *shape, guint ndim, GnnDtype dtype)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *x;

  gnn_manual_seed (5);
  x = gnn_tensor_new_randn (shape, ndim, NULL, dtype, NULL, &error);
  g_assert_no_error (error);
  return x;
}

static void
test_shapes (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) lstm = make (GNN_TYPE_LSTM, "input-size", 3, "hidden-size", 5, "num-layers", 2,
                                    "bidirectional", TRUE, "proj-size", 2, "batch-first", TRUE, NULL);
  g_autoptr(GnnModule) gru = make (GNN_TYPE_GRU, "input-size", 3, "hidden-size", 4, NULL);
  g_autoptr(GnnTensor) x = rand_input (GNN_TEST_SHAPE (2, 6, 3), 3, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) xu = rand_input (GNN_TEST_SHAPE (6, 3), 2, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnArgs) in = gnn_args_new_tensor (x);
  g_autoptr(GnnArgs) out = gnn_module_forward (lstm, in, &error);
  g_autoptr(GnnArgs) in_u = gnn_args_new_tensor (xu);
  g_autoptr(GnnArgs) out_u = NULL;
  g_auto(GStrv) names = NULL;
  const char *want[] = { "weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "weight_hr_l0",
                         "weight_ih_l0_reverse", "weight_hh_l0_reverse", "bias_ih_l0_reverse",
                         "bias_hh_l0_reverse", "weight_hr_l0_reverse", "weight_ih_l1" };
  g_autoptr(GPtrArray) params = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (gnn_args_get_n_values (out), ==, 3);
  gnn_test_assert_shape (gnn_args_get_tensor (out, 0, NULL), GNN_TEST_SHAPE (2, 6, 4), 3);
  gnn_test_assert_shape (gnn_args_get_tensor (out, 1, NULL), GNN_TEST_SHAPE (4, 2, 2), 3);
  gnn_test_assert_shape (gnn_args_get_tensor (out, 2, NULL), GNN_TEST_SHAPE (4, 2, 5), 3);

  params = gnn_module_named_parameters (lstm, NULL, TRUE, TRUE, &names);
  g_assert_cmpuint (params->len, ==, 20);
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    g_assert_cmpstr (names[i], ==, want[i]);
  gnn_test_assert_shape (GNN_TENSOR (gnn_module_find_parameter (lstm, "weight_ih_l1")), GNN_TEST_SHAPE (20, 4), 2);
  gnn_test_assert_shape (GNN_TENSOR (gnn_module_find_parameter (lstm, "weight_hh_l1")), GNN_TEST_SHAPE (20, 2), 2);
  gnn_test_assert_shape (GNN_TENSOR (gnn_module_find_parameter (lstm, "weight_hr_l1")), GNN_TEST_SHAPE (2, 5), 2);

  out_u = gnn_module_forward (gru, in_u, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (gnn_args_get_tensor (out_u, 0, NULL), GNN_TEST_SHAPE (6, 4), 2);
  gnn_test_assert_shape (gnn_args_get_tensor (out_u, 1, NULL), GNN_TEST_SHAPE (1, 4), 2);
}

static void
expect_error (GnnModule *m, GnnTensor *x, GnnTensor *h, const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnArgs) in = gnn_args_new_tensor (x);
  g_autoptr(GnnArgs) out = NULL;

  if (h)
    gnn_args_add_tensor (in, h);
  out = gnn_module_forward (m, in, &error);
  g_assert_null (out);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) rnn = make (GNN_TYPE_RNN, "input-size", 3, "hidden-size", 4, "num-layers", 2, NULL);
  g_autoptr(GnnModule) lstm = make (GNN_TYPE_LSTM, "input-size", 3, "hidden-size", 4, NULL);
  g_autoptr(GnnTensor) x4 = rand_input (GNN_TEST_SHAPE (1, 2, 3, 3), 4, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) x5 = rand_input (GNN_TEST_SHAPE (2, 3, 5), 3, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) x = rand_input (GNN_TEST_SHAPE (2, 3, 3), 3, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) h = rand_input (GNN_TEST_SHAPE (1, 3, 4), 3, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) h2 = rand_input (GNN_TEST_SHAPE (3, 4), 2, GNN_DTYPE_FLOAT32);
  GnnModule *bad;

  expect_error (lstm, x4, NULL, "LSTM: Expected input to be 2-D or 3-D but received 4-D tensor");
  expect_error (rnn, x5, NULL, "RNN: input.size(-1) must be equal to input_size. Expected 3, got 5");
  expect_error (rnn, x, h, "RNN: Expected hidden size (2, 3, 4), got [1, 3, 4]");
  expect_error (lstm, x, h2, "LSTM: For batched 3-D input, hx should also be 3-D but got 2D tensor");

  bad = gnn_module_new_or_error (&error, GNN_TYPE_GRU, "input-size", 3, "hidden-size", 4, "proj-size", 2, NULL);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "GRU: proj_size argument is only supported for LSTM, not RNN or GRU");
}

static void
test_cells (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) lstm = make (GNN_TYPE_LSTM_CELL, "input-size", 3, "hidden-size", 4, NULL);
  g_autoptr(GnnModule) rnn = make (GNN_TYPE_RNN_CELL, "input-size", 3, "hidden-size", 4, "bias", FALSE, NULL);
  g_autoptr(GnnTensor) x = rand_input (GNN_TEST_SHAPE (2, 3), 2, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) xu = rand_input (GNN_TEST_SHAPE (3), 1, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) h3 = rand_input (GNN_TEST_SHAPE (3, 4), 2, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) hu = rand_input (GNN_TEST_SHAPE (2, 4), 2, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnArgs) in = gnn_args_new_tensor (x);
  g_autoptr(GnnArgs) out = gnn_module_forward (lstm, in, &error);
  g_autoptr(GnnArgs) in_u = gnn_args_new_tensor (xu);
  g_autoptr(GnnArgs) out_u = NULL;
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) params = NULL;
  g_autoptr(GnnRNNCell) bad = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (gnn_args_get_n_values (out), ==, 2);
  gnn_test_assert_shape (gnn_args_get_tensor (out, 0, NULL), GNN_TEST_SHAPE (2, 4), 2);
  gnn_test_assert_shape (gnn_args_get_tensor (out, 1, NULL), GNN_TEST_SHAPE (2, 4), 2);
  params = gnn_module_named_parameters (lstm, NULL, TRUE, TRUE, &names);
  g_assert_cmpuint (params->len, ==, 4);
  g_assert_cmpstr (names[0], ==, "weight_ih");
  g_assert_cmpstr (names[3], ==, "bias_hh");
  gnn_test_assert_shape (GNN_TENSOR (gnn_module_find_parameter (lstm, "weight_hh")), GNN_TEST_SHAPE (16, 4), 2);
  g_assert_null (gnn_module_find_parameter (rnn, "bias_ih"));
  g_assert_cmpint (gnn_rnn_cell_base_get_hidden_size (GNN_RNN_CELL_BASE (rnn)), ==, 4);

  out_u = gnn_module_forward (rnn, in_u, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_args_get_n_values (out_u), ==, 1);
  gnn_test_assert_shape (gnn_args_get_tensor (out_u, 0, NULL), GNN_TEST_SHAPE (4), 1);

  expect_error (rnn, x, h3, "RNNCell: Input batch size 2 doesn't match hidden0 batch size 3");
  expect_error (rnn, xu, hu, "RNNCell: For unbatched 1-D input, hx should also be 1-D but got 2D tensor");
  expect_error (lstm, hu, NULL, "LSTMCell: input has inconsistent input_size: got 4 expected 3");

  bad = gnn_module_new_or_error (&error, GNN_TYPE_RNN_CELL, "input-size", 3, "hidden-size", 4, "nonlinearity",
                                 "gelu", NULL);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "RNNCell: Unknown nonlinearity: gelu");
}

/* the weighted sum of every output of @data's forward on x */
static GnnTensor *
rnn_fn (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnArgs) in = gnn_args_new_tensor (x);
  g_autoptr(GnnArgs) out = gnn_module_forward (GNN_MODULE (data), in, error);
  g_autoptr(GnnTensor) total = NULL;

  if (out == NULL)
    return NULL;
  for (guint k = 0; k < gnn_args_get_n_values (out); k++)
    {
      GnnTensor *y = gnn_args_get_tensor (out, k, error);
      g_autoptr(GnnTensor) sq = gnn_tensor_mul (y, y, error);
      g_autoptr(GnnTensor) s = sq ? gnn_tensor_sum_all (sq, error) : NULL;
      g_autoptr(GnnTensor) ws = s ? gnn_tensor_mul_scalar (s, k + 1.0, error) : NULL;
      GnnTensor *next;

      if (ws == NULL)
        return NULL;
      next = total ? gnn_tensor_add (total, ws, 1.0, error) : g_object_ref (ws);
      g_clear_object (&total);
      if (!(total = next))
        return NULL;
    }
  return g_steal_pointer (&total);
}

static void
test_gradcheck (void)
{
  g_autoptr(GnnModule) lstm = make (GNN_TYPE_LSTM, "input-size", 2, "hidden-size", 3, "num-layers", 2,
                                    "bidirectional", TRUE, "proj-size", 2, "dtype", GNN_DTYPE_FLOAT64, NULL);
  g_autoptr(GnnModule) gru = make (GNN_TYPE_GRU, "input-size", 2, "hidden-size", 3, "bidirectional", TRUE,
                                   "dtype", GNN_DTYPE_FLOAT64, NULL);
  g_autoptr(GnnModule) rnn = make (GNN_TYPE_RNN, "input-size", 2, "hidden-size", 3, "num-layers", 2,
                                   "batch-first", TRUE, "dtype", GNN_DTYPE_FLOAT64, NULL);
  g_autoptr(GnnTensor) x = rand_input (GNN_TEST_SHAPE (3, 2, 2), 3, GNN_DTYPE_FLOAT64);

  gnn_test_gradcheck (rnn_fn, lstm, x, 1e-6, 1e-5);
  gnn_test_gradcheck (rnn_fn, gru, x, 1e-6, 1e-5);
  gnn_test_gradcheck (rnn_fn, rnn, x, 1e-6, 1e-5);
}

/* the layers whose directions run as one op (LSTM without proj_size, GRU), in float64 */
static void
test_fused_gradcheck (void)
{
  g_autoptr(GnnModule) lstm = make (GNN_TYPE_LSTM, "input-size", 2, "hidden-size", 3, "num-layers", 2,
                                    "bidirectional", TRUE, "dtype", GNN_DTYPE_FLOAT64, NULL);
  g_autoptr(GnnModule) lstm1 = make (GNN_TYPE_LSTM, "input-size", 2, "hidden-size", 4, "bias", FALSE,
                                     "batch-first", TRUE, "dtype", GNN_DTYPE_FLOAT64, NULL);
  g_autoptr(GnnModule) gru = make (GNN_TYPE_GRU, "input-size", 2, "hidden-size", 3, "num-layers", 2,
                                   "bidirectional", TRUE, "batch-first", TRUE, "dtype", GNN_DTYPE_FLOAT64, NULL);
  g_autoptr(GnnModule) gru1 = make (GNN_TYPE_GRU, "input-size", 2, "hidden-size", 4, "bias", FALSE,
                                    "dtype", GNN_DTYPE_FLOAT64, NULL);
  g_autoptr(GnnTensor) x = rand_input (GNN_TEST_SHAPE (3, 2, 2), 3, GNN_DTYPE_FLOAT64);
  g_autoptr(GError) error = NULL;

  /* the fused path really runs: one node for the layer's direction */
  {
    g_autoptr(GnnArgs) in = gnn_args_new_tensor (x);
    g_autoptr(GnnArgs) out = gnn_module_forward (gru1, in, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (gnn_tensor_get_grad_fn_name (gnn_args_get_tensor (out, 0, NULL)), ==, "GruLayerBackward0");
  }
  gnn_test_gradcheck (rnn_fn, lstm, x, 1e-6, 1e-5);
  gnn_test_gradcheck (rnn_fn, lstm1, x, 1e-6, 1e-5);
  gnn_test_gradcheck (rnn_fn, gru, x, 1e-6, 1e-5);
  gnn_test_gradcheck (rnn_fn, gru1, x, 1e-6, 1e-5);
}

/* The layer's outputs and the gradients of its input and parameters, with the directions
 * as one op (@fused) or as the per-step ops (GNN_RNN_FUSED=0). */
static void
run_layer (GType type, GnnDtype dtype, gboolean fused, GnnTensor **value, GnnTensor **grad_x, GPtrArray **grads)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = NULL;
  g_autoptr(GnnTensor) x = rand_input (GNN_TEST_SHAPE (5, 3, 4), 3, dtype);
  g_autoptr(GPtrArray) params = NULL;
  g_autoptr(GnnArgs) in = NULL, out = NULL;
  GnnTensor *y0;

  if (fused)
    g_unsetenv ("GNN_RNN_FUSED");
  else
    g_setenv ("GNN_RNN_FUSED", "0", TRUE);
  gnn_manual_seed (11);
  m = make (type, "input-size", 4, "hidden-size", 6, "num-layers", 2, "bidirectional", TRUE, "dtype", dtype, NULL);
  g_assert_true (gnn_tensor_set_requires_grad (x, TRUE, &error));
  in = gnn_args_new_tensor (x);
  out = gnn_module_forward (m, in, &error);
  g_assert_no_error (error);
  y0 = gnn_args_get_tensor (out, 0, &error);
  g_assert_no_error (error);
  g_assert_nonnull (gnn_tensor_get_grad_fn_name (y0));
  *value = rnn_fn (x, m, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_backward (*value, NULL, FALSE, &error));
  g_assert_no_error (error);
  *grad_x = g_object_ref (gnn_tensor_get_grad (x));
  params = gnn_module_parameters (m, TRUE);
  *grads = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint k = 0; k < params->len; k++)
    g_ptr_array_add (*grads, g_object_ref (gnn_tensor_get_grad (params->pdata[k])));
  g_unsetenv ("GNN_RNN_FUSED");
}

/* the fused layers give the per-step ops' values and gradients (float32 within 1e-5 relative:
 * the same formulas, in another order of rounding) */
static void
test_fused_matches_unfused (void)
{
  const GType types[] = { GNN_TYPE_LSTM, GNN_TYPE_GRU };
  const GnnDtype dtypes[] = { GNN_DTYPE_FLOAT32, GNN_DTYPE_FLOAT64 };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    for (guint j = 0; j < G_N_ELEMENTS (dtypes); j++)
      {
        g_autoptr(GnnTensor) v1 = NULL, v2 = NULL, gx1 = NULL, gx2 = NULL;
        g_autoptr(GPtrArray) g1 = NULL, g2 = NULL;
        g_autoptr(GError) error = NULL;
        double rtol = dtypes[j] == GNN_DTYPE_FLOAT32 ? 1e-5 : 1e-12, atol = dtypes[j] == GNN_DTYPE_FLOAT32 ? 1e-5 : 1e-12;

        run_layer (types[i], dtypes[j], TRUE, &v1, &gx1, &g1);
        run_layer (types[i], dtypes[j], FALSE, &v2, &gx2, &g2);
        g_assert_true (gnn_tensor_allclose (v1, v2, rtol, atol, FALSE, &error));
        g_assert_true (gnn_tensor_allclose (gx1, gx2, rtol, atol, FALSE, &error));
        g_assert_cmpuint (g1->len, ==, g2->len);
        for (guint k = 0; k < g1->len; k++)
          g_assert_true (gnn_tensor_allclose (g1->pdata[k], g2->pdata[k], rtol, atol, FALSE, &error));
        g_assert_no_error (error);
      }
}

static void
test_cell_gradcheck (void)
{
  g_autoptr(GnnModule) lstm = make (GNN_TYPE_LSTM_CELL, "input-size", 2, "hidden-size", 3, "dtype",
                                    GNN_DTYPE_FLOAT64, NULL);
  g_autoptr(GnnModule) gru = make (GNN_TYPE_GRU_CELL, "input-size", 2, "hidden-size", 3, "dtype",
                                   GNN_DTYPE_FLOAT64, NULL);
  g_autoptr(GnnModule) rnn = make (GNN_TYPE_RNN_CELL, "input-size", 2, "hidden-size", 3, "nonlinearity", "relu",
                                   "dtype", GNN_DTYPE_FLOAT64, NULL);
  g_autoptr(GnnTensor) x = rand_input (GNN_TEST_SHAPE (2, 2), 2, GNN_DTYPE_FLOAT64);

  gnn_test_gradcheck (rnn_fn, lstm, x, 1e-6, 1e-5);
  gnn_test_gradcheck (rnn_fn, gru, x, 1e-6, 1e-5);
  gnn_test_gradcheck (rnn_fn, rnn, x, 1e-6, 1e-5);
}

/* the float's place in the ordered sequence of floats, so that a difference counts ulps */
static gint64
float_order (float f)
{
  gint32 i;

  memcpy (&i, &f, sizeof i);
  return i < 0 ? (gint64) G_MININT32 - i : i;
}

/* The CPU cell kernels' float tanh and sigmoid against libm in double rounded to float, over
 * every 1021st float of magnitude up to 200 (the gates saturate long before) plus every float
 * of [0.5, 0.6] (where tanh changes its formula): at most 4 ulps where the result is a normal
 * float, an absolute error under FLT_MIN below that; NaN, ±inf and ±0 as libm has them. */
static void
test_fastmath (void)
{
  gint64 worst_tanh = 0, worst_sig = 0;
  double worst_tiny = 0;
  float lo = 0.5f, hi = 0.6f;
  guint32 ulo, uhi;

  memcpy (&ulo, &lo, 4);
  memcpy (&uhi, &hi, 4);
  for (guint64 u = 0; u <= G_MAXUINT32; u += 1021)
    for (int dense = 0; dense < 2; dense++)
      {
        guint32 bits = (guint32) u;
        float x, t, s, tr, sr;

        if (dense)
          {
            if (u / 1021 > uhi - ulo)
              continue;
            bits = ulo + (guint32) u / 1021;
          }
        memcpy (&x, &bits, 4);
        if (isnan (x) || fabsf (x) > 200)
          continue;
        t = gnn_cpu_tanhf (x);
        s = gnn_cpu_sigmoidf (x);
        tr = (float) tanh ((double) x);
        sr = (float) (1.0 / (1.0 + exp (-(double) x)));
        if (fabsf (tr) >= FLT_MIN)
          worst_tanh = MAX (worst_tanh, ABS (float_order (t) - float_order (tr)));
        else
          worst_tiny = MAX (worst_tiny, fabs ((double) t - tr));
        if (sr >= FLT_MIN)
          worst_sig = MAX (worst_sig, ABS (float_order (s) - float_order (sr)));
        else
          worst_tiny = MAX (worst_tiny, fabs ((double) s - sr));
      }
  g_test_message ("tanh %" G_GINT64_FORMAT " ulp, sigmoid %" G_GINT64_FORMAT " ulp, below FLT_MIN %g",
                  worst_tanh, worst_sig, worst_tiny);
  g_assert_cmpint (worst_tanh, <=, 4);
  g_assert_cmpint (worst_sig, <=, 4);
  g_assert_cmpfloat (worst_tiny, <, FLT_MIN);
  g_assert_true (isnan (gnn_cpu_tanhf (NAN)) && isnan (gnn_cpu_sigmoidf (NAN)));
  g_assert_true (isnan (gnn_cpu_tanhf (-NAN)) && isnan (gnn_cpu_sigmoidf (-NAN)));
  g_assert_cmpfloat (gnn_cpu_tanhf (INFINITY), ==, 1.0f);
  g_assert_cmpfloat (gnn_cpu_tanhf (-INFINITY), ==, -1.0f);
  g_assert_cmpfloat (gnn_cpu_tanhf (1e30f), ==, 1.0f);
  g_assert_cmpfloat (gnn_cpu_sigmoidf (INFINITY), ==, 1.0f);
  g_assert_cmpfloat (gnn_cpu_sigmoidf (-INFINITY), <, FLT_MIN);
  g_assert_cmpfloat (gnn_cpu_sigmoidf (-INFINITY), >=, 0.0f);
  g_assert_cmpfloat (gnn_cpu_sigmoidf (0.0f), ==, 0.5f);
  g_assert_true (gnn_cpu_tanhf (-0.0f) == 0.0f && signbit (gnn_cpu_tanhf (-0.0f)));
  g_assert_true (gnn_cpu_tanhf (0.0f) == 0.0f && !signbit (gnn_cpu_tanhf (0.0f)));
}

/* The gradients of the parameters of @type's layer for the gradient penalty ||d f / d x||^2
 * (f = rnn_fn), with the directions as one op (@fused) or as the per-step ops: the fused
 * layers' backward under create_graph recomputes the steps with the composed ops */
static GPtrArray *
penalty_grads (GType type, gboolean fused)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = NULL;
  g_autoptr(GnnTensor) x = rand_input (GNN_TEST_SHAPE (3, 2, 2), 3, GNN_DTYPE_FLOAT64);
  g_autoptr(GnnTensor) f = NULL, sq = NULL, p = NULL;
  g_autoptr(GPtrArray) gx = NULL, params = NULL;
  GPtrArray *grads;

  if (!fused)
    g_setenv ("GNN_RNN_FUSED", "0", TRUE);
  gnn_manual_seed (11);
  m = make (type, "input-size", 2, "hidden-size", 3, "bidirectional", TRUE, "dtype", GNN_DTYPE_FLOAT64, NULL);
  g_assert_true (gnn_tensor_set_requires_grad (x, TRUE, &error));
  f = rnn_fn (x, m, &error);
  g_assert_no_error (error);
  gx = gnn_autograd_grad (&f, 1, NULL, 0, &x, 1, TRUE, TRUE, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_get_requires_grad (gx->pdata[0]));
  sq = gnn_tensor_mul (gx->pdata[0], gx->pdata[0], &error);
  p = gnn_tensor_sum_all (sq, &error);
  g_assert_no_error (error);
  params = gnn_module_parameters (m, TRUE);
  grads = gnn_autograd_grad (&p, 1, NULL, 0, (GnnTensor **) params->pdata, params->len, FALSE, FALSE, FALSE, &error);
  g_assert_no_error (error);
  g_unsetenv ("GNN_RNN_FUSED");
  return grads;
}

static void
test_fused_double_backward (void)
{
  const GType types[] = { GNN_TYPE_LSTM, GNN_TYPE_GRU };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      g_autoptr(GPtrArray) g1 = penalty_grads (types[i], TRUE), g2 = penalty_grads (types[i], FALSE);
      g_autoptr(GError) error = NULL;

      g_assert_cmpuint (g1->len, ==, g2->len);
      for (guint k = 0; k < g1->len; k++)
        {
          g_assert_true (gnn_tensor_allclose (g1->pdata[k], g2->pdata[k], 1e-10, 1e-12, FALSE, &error));
          g_assert_no_error (error);
        }
    }
}

/* W_hh changed in place between the fused layer's forward and its backward: torch's error */
static void
test_fused_version_check (void)
{
  const GType types[] = { GNN_TYPE_LSTM, GNN_TYPE_GRU };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnModule) m = make (types[i], "input-size", 2, "hidden-size", 3, NULL);
      g_autoptr(GnnTensor) x = rand_input (GNN_TEST_SHAPE (3, 2, 2), 3, GNN_DTYPE_FLOAT32);
      g_autoptr(GnnTensor) f = rnn_fn (x, m, &error);
      GnnTensor *w = GNN_TENSOR (gnn_module_get_parameter (m, "weight_hh_l0", &error));

      g_assert_no_error (error);
      {
        g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

        g_assert_true (gnn_tensor_mul_scalar_ (w, 2.0, &error));
        g_assert_no_error (error);
      }
      g_assert_false (gnn_tensor_backward (f, NULL, FALSE, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
      g_assert_nonnull (strstr (error->message, "modified by an inplace operation"));
    }
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/rnn/shapes", test_shapes);
  g_test_add_func ("/rnn/errors", test_errors);
  g_test_add_func ("/rnn/gradcheck", test_gradcheck);
  g_test_add_func ("/rnn/cells", test_cells);
  g_test_add_func ("/rnn/cell-gradcheck", test_cell_gradcheck);
  g_test_add_func ("/rnn/fused-gradcheck", test_fused_gradcheck);
  g_test_add_func ("/rnn/fused-matches-unfused", test_fused_matches_unfused);
  g_test_add_func ("/rnn/fastmath", test_fastmath);
  g_test_add_func ("/rnn/fused-double-backward", test_fused_double_backward);
  g_test_add_func ("/rnn/fused-version-check", test_fused_version_check);
  return g_test_run ();
}
