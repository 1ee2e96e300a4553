/* test-module-attributes.c: tensor attributes of a module, plain and computed, as the layers'
 * forward reads them in place of a parameter (what pruning and parametrizations build on)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-test-util.h"
#include "gnn-module-private.h"

static GnnModule *
linear_2_3 (void)
{
  g_autoptr(GError) error = NULL;
  GnnModule *m = GNN_MODULE (gnn_linear_new (3, 2, TRUE, &error));

  g_assert_no_error (error);
  g_assert_true (gnn_module_to_dtype (m, GNN_DTYPE_FLOAT64, &error));
  g_assert_no_error (error);
  return m;
}

static GnnTensor *
forward (GnnModule *m, GnnTensor *x)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *y = gnn_module_forward_tensor (m, x, &error);

  g_assert_no_error (error);
  return y;
}

/* y = x wᵀ + b for x (1, 3), w (2, 3), b (2) */
static void
expect_linear (GnnTensor *y, const double *x, const double *w, const double *b)
{
  double want[2];

  for (int o = 0; o < 2; o++)
    want[o] = b[o] + x[0] * w[3 * o] + x[1] * w[3 * o + 1] + x[2] * w[3 * o + 2];
  gnn_test_assert_close (y, want, 2, 1e-6, 1e-6);
}

static void
test_plain_attribute (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = linear_2_3 ();
  double xs[3] = { 1, -2, 0.5 }, ws[6] = { 1, 2, 3, -1, 0, 4 }, zero[2] = { 0, 0 };
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (xs, 3, GNN_TEST_SHAPE (1, 3), 2);
  g_autoptr(GnnTensor) w = gnn_test_tensor_d (ws, 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) y = NULL, got = NULL;
  g_autoptr(GnnModule) copy = NULL;
  g_autoptr(GPtrArray) params = NULL;
  g_auto(GStrv) names = NULL;
  g_autoptr(GnnParameter) p = NULL;

  g_assert_true (gnn_init_zeros_ (GNN_TENSOR (gnn_module_get_parameter (m, "bias", NULL)), &error));
  g_assert_no_error (error);

  /* the name is the parameter's until it is removed */
  g_assert_false (gnn_module_set_tensor_attribute (m, "weight", w, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "it is a parameter"));
  g_clear_error (&error);
  /* a property is no attribute */
  g_assert_false (gnn_module_set_tensor_attribute (m, "training", w, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_assert_true (gnn_module_remove (m, "weight"));
  g_assert_true (gnn_module_set_tensor_attribute (m, "weight", w, &error));
  g_assert_no_error (error);
  y = forward (m, x);
  expect_linear (y, xs, ws, zero);

  /* read back as the forward reads it; not a parameter, not in the state dict */
  got = gnn_module_get_tensor (m, "weight", &error);
  g_assert_no_error (error);
  g_assert_true (got == w);
  params = gnn_module_parameters (m, TRUE);
  g_assert_cmpuint (params->len, ==, 1);
  names = gnn_module_list_tensor_attributes (m);
  g_assert_cmpuint (g_strv_length (names), ==, 1);
  g_assert_cmpstr (names[0], ==, "weight");

  /* a parameter cannot take the name while the attribute holds it */
  p = gnn_module_new_parameter (GNN_TEST_SHAPE (2, 3), 2, GNN_DTYPE_FLOAT64, &error);
  g_assert_no_error (error);
  g_assert_false (gnn_module_register_parameter (m, "weight", p, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* a deep copy has its own clone of the attribute */
  copy = gnn_module_copy (m, &error);
  g_assert_no_error (error);
  {
    g_autoptr(GnnTensor) cw = gnn_module_get_tensor (copy, "weight", &error);
    g_autoptr(GnnTensor) cy = NULL;
    g_assert_no_error (error);
    g_assert_true (cw != w);
    gnn_test_assert_close (cw, ws, 6, 0, 0);
    cy = forward (copy, x);
    expect_linear (cy, xs, ws, zero);
  }

  /* removing it frees the name; the forward then misses its weight */
  g_assert_true (gnn_module_remove (m, "weight"));
  g_assert_null (gnn_module_get_tensor (m, "weight", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_module_forward_tensor (m, x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "weight"));
  g_clear_error (&error);
  g_assert_true (gnn_module_register_parameter (m, "weight", p, &error));
  g_assert_no_error (error);
}

typedef struct {
  GnnTensor *original;
  guint calls;
  gboolean fail;
} Doubled;

/* weight = 2 · original, computed on every read */
static GnnTensor *
doubled (GnnModule *module, const char *name, gpointer data, GError **error)
{
  Doubled *d = data;

  d->calls++;
  if (d->fail)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "doubling %s failed on purpose", name);
      return NULL;
    }
  return gnn_tensor_mul_scalar (d->original, 2.0, error);
}

static void
doubled_free (gpointer data)
{
  Doubled *d = data;

  g_object_unref (d->original);
  g_free (d);
}

static void
test_computed_attribute (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = linear_2_3 ();
  double xs[3] = { 1, -2, 0.5 }, ws[6] = { 1, 2, 3, -1, 0, 4 }, ws2[6], zero[2] = { 0, 0 };
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (xs, 3, GNN_TEST_SHAPE (1, 3), 2);
  g_autoptr(GnnTensor) y = NULL, loss = NULL, v1 = NULL, v2 = NULL;
  Doubled *d = g_new0 (Doubled, 1);
  GnnTensor *grad;

  for (int i = 0; i < 6; i++)
    ws2[i] = 2 * ws[i];
  g_assert_true (gnn_init_zeros_ (GNN_TENSOR (gnn_module_get_parameter (m, "bias", NULL)), &error));
  {
    g_autoptr(GnnTensor) w = gnn_test_tensor_d (ws, 6, GNN_TEST_SHAPE (2, 3), 2);
    d->original = GNN_TENSOR (gnn_parameter_new (w, TRUE, &error));
    g_assert_no_error (error);
  }
  g_assert_true (gnn_module_remove (m, "weight"));
  g_assert_true (gnn_module_set_tensor_getter (m, "weight", doubled, d, doubled_free, &error));
  g_assert_no_error (error);
  /* a computed attribute is not assigned over */
  g_assert_false (gnn_module_set_tensor_attribute (m, "weight", x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  /* nor removed as a plain one */
  g_assert_false (gnn_module_remove (m, "weight"));

  y = forward (m, x);
  expect_linear (y, xs, ws2, zero);
  g_assert_cmpuint (d->calls, ==, 1);

  /* the gradient reaches the original: d(sum y)/d original = 2 · x for each row */
  loss = gnn_tensor_sum (y, NULL, 0, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_no_error (error);
  grad = gnn_tensor_get_grad (d->original);
  gnn_test_assert_close (grad, (double[]) { 2, -4, 1, 2, -4, 1 }, 6, 1e-6, 1e-6);

  /* each read outside a forward computes a new value that the caller owns */
  v1 = gnn_module_get_tensor (m, "weight", &error);
  v2 = gnn_module_get_tensor (m, "weight", &error);
  g_assert_no_error (error);
  g_assert_true (v1 != v2);
  gnn_test_assert_close (v1, ws2, 6, 0, 0);
  g_assert_cmpuint (d->calls, ==, 3);

  /* a failing computation is the forward's error */
  d->fail = TRUE;
  g_assert_null (gnn_module_forward_tensor (m, x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "on purpose"));
  g_clear_error (&error);
  d->fail = FALSE;

  /* a copy leaves computed attributes out, as it leaves hooks out */
  {
    g_autoptr(GnnModule) copy = gnn_module_copy (m, &error);
    g_auto(GStrv) names = NULL;
    g_assert_no_error (error);
    names = gnn_module_list_tensor_attributes (copy);
    g_assert_cmpuint (g_strv_length (names), ==, 0);
  }

  /* removing the getter frees its data and the name */
  g_assert_true (gnn_module_set_tensor_getter (m, "weight", NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_null (gnn_module_get_tensor_getter_data (m, "weight"));
}

/* a computed value read inside a nested forward call (with and without grad) stays valid for
 * the whole outer call */
static void
test_computed_in_sequential (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) inner = linear_2_3 ();
  g_autoptr(GnnSequential) seq = gnn_sequential_new (NULL, 0);
  double xs[3] = { 1, -2, 0.5 }, ws[6] = { 1, 2, 3, -1, 0, 4 }, ws2[6], zero[2] = { 0, 0 };
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (xs, 3, GNN_TEST_SHAPE (1, 3), 2);
  g_autoptr(GnnTensor) y = NULL;
  Doubled *d = g_new0 (Doubled, 1);

  for (int i = 0; i < 6; i++)
    ws2[i] = 2 * ws[i];
  g_assert_true (gnn_init_zeros_ (GNN_TENSOR (gnn_module_get_parameter (inner, "bias", NULL)), &error));
  d->original = gnn_test_tensor_d (ws, 6, GNN_TEST_SHAPE (2, 3), 2);
  g_assert_true (gnn_module_remove (inner, "weight"));
  g_assert_true (gnn_module_set_tensor_getter (inner, "weight", doubled, d, doubled_free, &error));
  gnn_sequential_append (seq, inner);
  for (int k = 0; k < 3; k++)
    {
      g_autoptr(GnnNoGradGuard) guard = k == 1 ? gnn_no_grad_guard_new () : NULL;
      g_clear_object (&y);
      y = forward (GNN_MODULE (seq), x);
      expect_linear (y, xs, ws2, zero);
    }
  g_assert_cmpuint (d->calls, ==, 3);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/module/attributes/plain", test_plain_attribute);
  g_test_add_func ("/module/attributes/computed", test_computed_attribute);
  g_test_add_func ("/module/attributes/computed-in-sequential", test_computed_in_sequential);
  return g_test_run ();
}
