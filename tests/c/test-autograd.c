/* test-autograd.c: the graph, backward, version counters, hooks and grad mode */
#include "config.h"

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END

static GnnTensor *
leaf (const double *data, gsize n, const gint64 *shape, guint ndim)
{
  GnnTensor *t = gnn_test_tensor_d (data, n, shape, ndim);
  gnn_tensor_set_requires_grad (t, TRUE, NULL);
  return t;
}

static void
test_basic_graph (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (1, 2, 3), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) y = NULL, z = NULL, s = NULL;

  OK (y = gnn_tensor_mul (x, x, &error));
  OK (z = gnn_tensor_add_scalar (y, 1, &error));
  OK (s = gnn_tensor_sum_all (z, &error));
  g_assert_true (gnn_tensor_is_leaf (x));
  g_assert_false (gnn_tensor_is_leaf (y));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, "MulBackward0");
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (z), ==, "AddBackward0");
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (s), ==, "SumBackward0");
  g_assert_null (gnn_tensor_get_grad_fn_name (x));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (2, 4, 6), 3, 0, 1e-12);
  /* non-leaves keep no grad unless asked */
  g_assert_null (gnn_tensor_get_grad (y));
}

static void
test_accumulation_and_retain_graph (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) y = NULL, s = NULL;

  OK (y = gnn_tensor_mul (x, x, &error));
  OK (s = gnn_tensor_sum_all (y, &error));
  OK (gnn_tensor_backward (s, NULL, TRUE, &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (4, 8), 2, 0, 1e-12);

  /* the saved tensors are gone now */
  g_assert_false (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_nonnull (strstr (error->message, "backward through the graph a second time"));
  g_assert_nonnull (strstr (error->message, "MulBackward0"));
}

static void
test_diamond (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (3), 1, GNN_TEST_SHAPE (1), 1);
  g_autoptr(GnnTensor) a = NULL, b = NULL, c = NULL, s = NULL;

  /* s = (2x) * (x + 1): ds/dx = 2(x+1) + 2x = 4x + 2 */
  OK (a = gnn_tensor_mul_scalar (x, 2, &error));
  OK (b = gnn_tensor_add_scalar (x, 1, &error));
  OK (c = gnn_tensor_mul (a, b, &error));
  OK (s = gnn_tensor_sum_all (c, &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (14), 1, 0, 1e-12);
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) c = gnn_test_tensor_d (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) y = NULL, i = NULL;

  /* a tensor without history */
  g_assert_false (gnn_tensor_backward (c, NULL, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_nonnull (strstr (error->message, "does not require grad"));
  g_clear_error (&error);

  /* a non-scalar without a gradient */
  OK (y = gnn_tensor_mul (x, x, &error));
  g_assert_false (gnn_tensor_backward (y, NULL, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_nonnull (strstr (error->message, "only for scalar outputs"));
  g_clear_error (&error);

  /* a gradient of the wrong shape */
  g_assert_false (gnn_tensor_backward (y, c, FALSE, &error) && FALSE);
  g_clear_error (&error);
  {
    g_autoptr(GnnTensor) wrong = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3), 3, GNN_TEST_SHAPE (3), 1);
    g_assert_false (gnn_tensor_backward (y, wrong, FALSE, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
    g_clear_error (&error);
  }

  /* integer tensors cannot require grad; non-leaves cannot stop requiring it */
  OK (i = gnn_tensor_to_dtype (c, GNN_DTYPE_INT64, &error));
  g_assert_false (gnn_tensor_set_requires_grad (i, TRUE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_false (gnn_tensor_set_requires_grad (y, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_clear_error (&error);

  /* in place on a leaf that requires grad */
  g_assert_false (gnn_tensor_add_scalar_ (x, 1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_nonnull (strstr (error->message, "leaf Variable that requires grad"));
  g_clear_error (&error);
  /* ... but fine with grad mode off, as optimizers do */
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    OK (gnn_tensor_add_scalar_ (x, 1, &error));
  }
  gnn_test_assert_close (x, GNN_TEST_DATA (2, 3), 2, 0, 0);
}

static void
test_version_counter (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (1, 2, 3), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) y = NULL, z = NULL, s = NULL, v = NULL;
  guint64 before;

  OK (y = gnn_tensor_add_scalar (x, 1, &error));
  OK (z = gnn_tensor_mul (y, y, &error));   /* saves y */
  OK (s = gnn_tensor_sum_all (z, &error));
  OK (v = gnn_tensor_narrow (y, 0, 1, 1, &error));
  g_assert_true (gnn_tensor_is_view (v));
  g_assert_true (gnn_tensor_get_base (v) == y);
  before = gnn_tensor_get_version (y);
  {
    /* an in-place change through a detached alias is seen through the shared version */
    g_autoptr(GnnTensor) d = gnn_tensor_detach (y);
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    OK (gnn_tensor_mul_scalar_ (d, 2, &error));
  }
  g_assert_cmpuint (gnn_tensor_get_version (y), ==, before + 1);
  g_assert_cmpuint (gnn_tensor_get_version (v), ==, before + 1);
  g_assert_false (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_nonnull (strstr (error->message, "modified by an inplace operation"));
  g_assert_nonnull (strstr (error->message, "AddBackward0"));
  g_assert_nonnull (strstr (error->message, "MulBackward0"));
}

static void
test_inplace_records (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) w = leaf (GNN_TEST_DATA (5, 7), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) y = NULL, s = NULL;

  /* y = 3x; y += w; y *= w  ->  s = Σ (3x + w) w; ds/dx = 3w, ds/dw = 3x + 2w */
  OK (y = gnn_tensor_mul_scalar (x, 3, &error));
  OK (gnn_tensor_add_ (y, w, 1.0, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, "AddBackward0");
  OK (gnn_tensor_mul_ (y, w, &error));
  OK (s = gnn_tensor_sum_all (y, &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (15, 21), 2, 0, 1e-12);
  gnn_test_assert_close (gnn_tensor_get_grad (w), GNN_TEST_DATA (13, 20), 2, 0, 1e-12);
}

static void
test_mul_inplace_saved_self (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) y = NULL, s = NULL;

  /* y.mul_(y) saves y and then changes it: PyTorch refuses at backward */
  OK (y = gnn_tensor_add_scalar (x, 0, &error));
  OK (gnn_tensor_mul_ (y, y, &error));
  OK (s = gnn_tensor_sum_all (y, &error));
  g_assert_false (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_nonnull (strstr (error->message, "inplace"));
}

static void
test_no_grad (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) y = NULL, z = NULL;

  g_assert_true (gnn_is_grad_enabled ());
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_assert_false (gnn_is_grad_enabled ());
    OK (y = gnn_tensor_mul (x, x, &error));
    g_assert_false (gnn_tensor_get_requires_grad (y));
    g_assert_null (gnn_tensor_get_grad_fn_name (y));
    {
      g_autoptr(GnnNoGradGuard) inner = gnn_no_grad_guard_new ();
    }
    g_assert_false (gnn_is_grad_enabled ());
  }
  g_assert_true (gnn_is_grad_enabled ());
  OK (z = gnn_tensor_mul (x, x, &error));
  g_assert_true (gnn_tensor_get_requires_grad (z));
}

static gpointer
thread_records (gpointer data)
{
  GnnTensor *x = data;
  g_autoptr(GnnTensor) y = gnn_tensor_mul (x, x, NULL);
  return GINT_TO_POINTER (gnn_is_grad_enabled () && gnn_tensor_get_requires_grad (y));
}

static void
test_grad_mode_thread_local (void)
{
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  GThread *t = g_thread_new ("other", thread_records, x);

  g_assert_true (GPOINTER_TO_INT (g_thread_join (t)));
  g_assert_false (gnn_is_grad_enabled ());
}

static GnnTensor *
double_grad (GnnTensor *grad, gpointer user_data)
{
  int *calls = user_data;
  (*calls)++;
  return gnn_tensor_mul_scalar (grad, 2.0, NULL);
}

static void
test_hooks (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) y = NULL, z = NULL, s = NULL;
  int leaf_calls = 0, inner_calls = 0;
  gulong leaf_id, inner_id;

  OK (y = gnn_tensor_mul_scalar (x, 3, &error));
  OK (z = gnn_tensor_mul (y, y, &error));
  OK (s = gnn_tensor_sum_all (z, &error));
  OK (leaf_id = gnn_tensor_register_hook (x, double_grad, &leaf_calls, NULL, &error));
  OK (inner_id = gnn_tensor_register_hook (y, double_grad, &inner_calls, NULL, &error));
  gnn_tensor_retain_grad (y);
  g_assert_true (gnn_tensor_get_retains_grad (y));
  OK (gnn_tensor_backward (s, NULL, TRUE, &error));
  /* dz/dy = 2y = 6x, doubled by y's hook; retain_grad sees the hooked value */
  gnn_test_assert_close (gnn_tensor_get_grad (y), GNN_TEST_DATA (12, 24), 2, 0, 1e-12);
  /* then times 3, then doubled again by x's hook */
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (72, 144), 2, 0, 1e-12);
  g_assert_cmpint (leaf_calls, ==, 1);
  g_assert_cmpint (inner_calls, ==, 1);

  g_assert_true (gnn_tensor_remove_hook (x, leaf_id));
  g_assert_true (gnn_tensor_remove_hook (y, inner_id));
  g_assert_false (gnn_tensor_remove_hook (y, inner_id));
  OK (gnn_tensor_set_grad (x, NULL, &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (18, 36), 2, 0, 1e-12);
  g_assert_cmpint (leaf_calls, ==, 1);

  /* hooks need requires_grad */
  {
    g_autoptr(GnnTensor) c = gnn_test_tensor_d (GNN_TEST_DATA (1), 1, GNN_TEST_SHAPE (1), 1);
    g_assert_cmpuint (gnn_tensor_register_hook (c, double_grad, &leaf_calls, NULL, &error), ==, 0);
    g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  }
}

static void
test_detach_and_set_grad (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) y = NULL, d = NULL, wrong = NULL;

  OK (y = gnn_tensor_mul_scalar (x, 2, &error));
  d = gnn_tensor_detach (y);
  g_assert_false (gnn_tensor_get_requires_grad (d));
  g_assert_true (gnn_tensor_shares_storage (d, y));
  wrong = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3), 3, GNN_TEST_SHAPE (3), 1);
  g_assert_false (gnn_tensor_set_grad (x, wrong, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
}

static void
test_detach_in_place (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) y = NULL, z = NULL, s = NULL, v = NULL;

  OK (y = gnn_tensor_mul_scalar (x, 2, &error));
  OK (z = gnn_tensor_mul (y, x, &error));     /* made before: keeps its history */
  OK (gnn_tensor_detach_ (y, &error));
  g_assert_false (gnn_tensor_get_requires_grad (y));
  g_assert_true (gnn_tensor_is_leaf (y));
  g_assert_null (gnn_tensor_get_grad_fn_name (y));
  gnn_test_assert_close (y, GNN_TEST_DATA (2, 4), 2, 0, 0);
  OK (s = gnn_tensor_sum_all (z, &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (4, 8), 2, 1e-6, 1e-6);
  /* a view is refused */
  OK (v = gnn_tensor_view (x, GNN_TEST_SHAPE (2), 1, &error));
  g_assert_false (gnn_tensor_detach_ (v, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_true (gnn_tensor_get_requires_grad (x));
}

static void
test_backward_from_leaf (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) g = gnn_test_tensor_d (GNN_TEST_DATA (0.5, -1), 2, GNN_TEST_SHAPE (2), 1);

  /* the leaf's AccumulateGrad node is the root, held only by the engine while it runs */
  OK (gnn_tensor_backward (x, g, FALSE, &error));
  OK (gnn_tensor_backward (x, g, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (1, -2), 2, 0, 0);
}

static void
test_no_leak_of_graph (void)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *x = leaf (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  GnnTensor *y, *s;

  OK (y = gnn_tensor_mul (x, x, &error));
  OK (s = gnn_tensor_sum_all (y, &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_object_unref (y);
  g_assert_finalize_object (s);
  g_assert_finalize_object (x);
}

/* a custom function in C: y = x², dy/dx = 2x */
typedef struct { GnnFunction parent_instance; } TestSquare;
typedef struct { GnnFunctionClass parent_class; } TestSquareClass;
G_DEFINE_TYPE (TestSquare, test_square, GNN_TYPE_FUNCTION)

static GPtrArray *
test_square_forward (GnnFunction *self, GPtrArray *inputs, GError **error)
{
  GnnTensor *x = inputs->pdata[0];
  GPtrArray *out = g_ptr_array_new_with_free_func (g_object_unref);
  GnnTensor *y;

  g_assert_false (gnn_is_grad_enabled ());
  gnn_function_save_for_backward (self, inputs);
  y = gnn_tensor_mul (x, x, error);
  if (y == NULL)
    {
      g_ptr_array_unref (out);
      return NULL;
    }
  g_ptr_array_add (out, y);
  return out;
}

static GPtrArray *
test_square_backward (GnnFunction *self, GPtrArray *grads, GError **error)
{
  g_autoptr(GPtrArray) saved = gnn_function_get_saved_tensors (self, error);
  GPtrArray *out;
  GnnTensor *g;

  if (saved == NULL)
    return NULL;
  g = gnn_tensor_mul (grads->pdata[0], saved->pdata[0], error);
  out = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (out, gnn_tensor_mul_scalar (g, 2.0, error));
  g_object_unref (g);
  return out;
}

static void
test_square_class_init (TestSquareClass *klass)
{
  GNN_FUNCTION_CLASS (klass)->forward = test_square_forward;
  GNN_FUNCTION_CLASS (klass)->backward = test_square_backward;
}

static void
test_square_init (TestSquare *self)
{
}

static void
test_custom_function (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (1, -2, 3), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnFunction) f = g_object_new (test_square_get_type (), NULL);
  g_autoptr(GPtrArray) in = g_ptr_array_new ();
  g_autoptr(GPtrArray) out = NULL;
  g_autoptr(GnnTensor) s = NULL;

  g_ptr_array_add (in, x);
  OK (out = gnn_function_apply (f, in, &error));
  g_assert_cmpuint (out->len, ==, 1);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (out->pdata[0]), ==, "TestSquareBackward");
  g_assert_true (gnn_function_needs_input_grad (f, 0));
  gnn_test_assert_close (out->pdata[0], GNN_TEST_DATA (1, 4, 9), 3, 0, 0);
  OK (s = gnn_tensor_sum_all (out->pdata[0], &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (2, -4, 6), 3, 0, 1e-12);
}

/* ---- create_graph: second derivatives ------------------------------------------------ */

typedef enum {
  GG_TANH_LINEAR, GG_SIGMOID, GG_RELU, GG_LEAKY_RELU, GG_ELU, GG_GELU, GG_SILU,
  GG_SOFTMAX, GG_LOG_SOFTMAX, GG_CONV2D, GG_ARITH, GG_VAR,
} GradGradCase;

/* x is (2, 3) for every case but the convolution's (1, 1, 3, 3) */
static GnnTensor *
gradgrad_fn (GnnTensor *x, gpointer data, GError **error)
{
  GradGradCase c = GPOINTER_TO_INT (data);
  g_autoptr(GnnTensor) w = gnn_test_tensor_d (GNN_TEST_DATA (0.3, -0.5, 0.8, 0.1, 0.7, -0.2), 6,
                                              GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) xw = NULL, t = NULL;

  switch (c)
    {
    case GG_TANH_LINEAR:
      if (!(t = gnn_tensor_linear (x, w, NULL, error)))
        return NULL;
      return gnn_tensor_tanh (t, error);
    case GG_SIGMOID:
      if (!(xw = gnn_tensor_mul (x, x, error)))
        return NULL;
      return gnn_tensor_sigmoid (xw, error);
    case GG_RELU:
      /* relu'' is 0: the second derivative comes from the product */
      if (!(xw = gnn_tensor_relu (x, error)))
        return NULL;
      return gnn_tensor_mul (xw, x, error);
    case GG_LEAKY_RELU:
      if (!(xw = gnn_tensor_leaky_relu (x, 0.1, error)))
        return NULL;
      return gnn_tensor_mul (xw, x, error);
    case GG_ELU:
      return gnn_tensor_elu (x, 1.3, error);
    case GG_GELU:
      return gnn_tensor_gelu (x, "none", error);
    case GG_SILU:
      return gnn_tensor_silu (x, error);
    case GG_SOFTMAX:
      return gnn_tensor_softmax (x, 1, error);
    case GG_LOG_SOFTMAX:
      return gnn_tensor_log_softmax (x, 0, error);
    case GG_CONV2D:
      {
        g_autoptr(GnnTensor) k = gnn_test_tensor_d (GNN_TEST_DATA (0.3, -0.5, 0.8, 0.1, 0.7, -0.2, 0.4, 0.9), 8,
                                                    GNN_TEST_SHAPE (2, 1, 2, 2), 4);
        const gint64 one[2] = { 1, 1 }, zero[2] = { 0, 0 };
        if (!(t = gnn_tensor_conv2d (x, k, NULL, one, zero, one, 1, error)))
          return NULL;
        return gnn_tensor_mul (t, t, error);
      }
    case GG_ARITH:
      {
        g_autoptr(GnnTensor) e = NULL, d = NULL;
        /* exp (x) / (1 + x²) + sqrt (x² + 1) */
        if (!(xw = gnn_tensor_mul (x, x, error)) || !(t = gnn_tensor_add_scalar (xw, 1.0, error)) ||
            !(e = gnn_tensor_exp (x, error)) || !(d = gnn_tensor_div (e, t, error)))
          return NULL;
        {
          g_autoptr(GnnTensor) r = gnn_tensor_sqrt (t, error);
          return r ? gnn_tensor_add (d, r, 1.0, error) : NULL;
        }
      }
    case GG_VAR:
      {
        int dim = 1;
        return gnn_tensor_var (x, &dim, 1, 1.0, FALSE, error);
      }
    }
  g_assert_not_reached ();
}

static void
test_gradgrad (void)
{
  for (GradGradCase c = GG_TANH_LINEAR; c <= GG_VAR; c++)
    {
      g_autoptr(GnnTensor) x = NULL;

      if (c == GG_CONV2D)
        x = gnn_test_tensor_d (GNN_TEST_DATA (0.2, -0.7, 1.1, 0.5, -0.3, 0.9, -1.2, 0.4, 0.6), 9,
                               GNN_TEST_SHAPE (1, 1, 3, 3), 4);
      else
        x = gnn_test_tensor_d (GNN_TEST_DATA (0.2, -0.7, 1.1, 0.5, -0.3, 0.9), 6, GNN_TEST_SHAPE (2, 3), 2);
      gnn_test_gradgradcheck (gradgrad_fn, GINT_TO_POINTER (c), x, 1e-6, 1e-5);
    }
}

/* torch's names for the nodes of a gradient: the kernels' own BackwardBackward nodes */
static void
test_create_graph_names (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (0.5, -1, 2), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) y = NULL, s = NULL;
  g_autoptr(GPtrArray) g = NULL;

  OK (y = gnn_tensor_sigmoid (x, &error));
  OK (s = gnn_tensor_sum_all (y, &error));
  OK (g = gnn_autograd_grad (&s, 1, NULL, 0, &x, 1, TRUE, TRUE, FALSE, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (g->pdata[0]), ==, "SigmoidBackwardBackward0");
  /* nothing accumulated into x.grad */
  g_assert_null (gnn_tensor_get_grad (x));
  g_clear_pointer (&g, g_ptr_array_unref);

  /* without create_graph the gradient has no history */
  OK (g = gnn_autograd_grad (&s, 1, NULL, 0, &x, 1, TRUE, FALSE, FALSE, &error));
  g_assert_null (gnn_tensor_get_grad_fn_name (g->pdata[0]));
  gnn_test_assert_close (g->pdata[0], GNN_TEST_DATA (0.2350037122, 0.1966119332, 0.1049935854), 3, 0, 1e-9);
}

/* backward_full (create_graph): the leaf's grad has a graph; a second derivative through it */
static void
test_backward_create_graph (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) y = NULL, s = NULL, g2 = NULL, s2 = NULL;

  OK (y = gnn_tensor_pow_scalar (x, 3.0, &error));
  OK (s = gnn_tensor_sum_all (y, &error));
  OK (gnn_tensor_backward_full (s, NULL, TRUE, TRUE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (3, 12), 2, 0, 1e-12);
  g_assert_nonnull (gnn_tensor_get_grad_fn_name (gnn_tensor_get_grad (x)));
  OK (s2 = gnn_tensor_sum_all (gnn_tensor_get_grad (x), &error));
  OK (g2 = g_object_ref (gnn_tensor_get_grad (x)));
  OK (gnn_tensor_set_grad (x, NULL, &error));
  OK (gnn_tensor_backward (s2, NULL, FALSE, &error));
  /* d/dx Σ 3x² = 6x */
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (6, 12), 2, 0, 1e-12);
}

static void
test_autograd_grad_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) u = leaf (GNN_TEST_DATA (3), 1, GNN_TEST_SHAPE (1), 1);
  g_autoptr(GnnTensor) c = gnn_test_tensor_d (GNN_TEST_DATA (3), 1, GNN_TEST_SHAPE (1), 1);
  g_autoptr(GnnTensor) y = NULL, s = NULL, p = NULL, idx = NULL;
  g_autoptr(GPtrArray) g = NULL;
  GnnTensor *both[2];

  OK (y = gnn_tensor_mul (x, x, &error));
  OK (s = gnn_tensor_sum_all (y, &error));
  both[0] = x;
  both[1] = u;
  g = gnn_autograd_grad (&s, 1, NULL, 0, both, 2, TRUE, FALSE, FALSE, &error);
  g_assert_null (g);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_nonnull (strstr (error->message, "Set allow_unused=True"));
  g_clear_error (&error);
  OK (g = gnn_autograd_grad (&s, 1, NULL, 0, both, 2, TRUE, FALSE, TRUE, &error));
  g_assert_cmpuint (g->len, ==, 2);
  g_assert_null (g->pdata[1]);
  gnn_test_assert_close (g->pdata[0], GNN_TEST_DATA (2, 4), 2, 0, 1e-12);
  g_clear_pointer (&g, g_ptr_array_unref);

  g_assert_null (gnn_autograd_grad (&s, 1, NULL, 0, &c, 1, TRUE, FALSE, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_nonnull (strstr (error->message, "does not require grad"));
  g_clear_error (&error);
  g_assert_null (gnn_autograd_grad (&y, 1, NULL, 0, &x, 1, TRUE, FALSE, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_nonnull (strstr (error->message, "only for scalar outputs"));
  g_clear_error (&error);

  /* an op without a double backward says so instead of giving a gradient without history */
  {
    g_autoptr(GnnTensor) img = leaf (GNN_TEST_DATA (1, 2, 3, 4), 4, GNN_TEST_SHAPE (1, 1, 2, 2), 4);
    g_autoptr(GnnTensor) sq = NULL, pooled = NULL, ps = NULL;
    const gint64 k[2] = { 2, 2 }, zero[2] = { 0, 0 }, one[2] = { 1, 1 };

    OK (sq = gnn_tensor_mul (img, img, &error));
    OK (pooled = gnn_tensor_max_pool2d (sq, k, k, zero, one, FALSE, NULL, &error));
    OK (p = gnn_tensor_mul (pooled, pooled, &error));
    OK (ps = gnn_tensor_sum_all (p, &error));
    g_assert_null (gnn_autograd_grad (&ps, 1, NULL, 0, &img, 1, FALSE, TRUE, FALSE, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
    g_assert_nonnull (strstr (error->message, "MaxPool2DWithIndicesBackward0"));
    g_assert_nonnull (strstr (error->message, "double backward"));
  }
}

/* WGAN-GP: the penalty (‖∂ critic / ∂ x‖₂ − 1)² averaged over the batch, as a function of the
 * critic's first weight, with the critic tanh (x W1ᵀ + b1) W2ᵀ: its gradient needs create_graph */
static GnnTensor *
gradient_penalty (GnnTensor *w1, gpointer data, GError **error)
{
  gboolean prev = gnn_set_grad_enabled (TRUE);
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0.2, -0.7, 1.1, 0.5, -0.3, 0.9), 6,
                                              GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) b1 = gnn_test_tensor_d (GNN_TEST_DATA (0.1, -0.2, 0.3, 0.05), 4, GNN_TEST_SHAPE (4), 1);
  g_autoptr(GnnTensor) w2 = gnn_test_tensor_d (GNN_TEST_DATA (0.7, -1.1, 0.4, 0.9), 4, GNN_TEST_SHAPE (1, 4), 2);
  g_autoptr(GnnTensor) h = NULL, a = NULL, score = NULL, ones = NULL, sq = NULL, n2 = NULL, n = NULL;
  g_autoptr(GnnTensor) d = NULL, p = NULL;
  g_autoptr(GPtrArray) g = NULL;
  GnnTensor *result = NULL;
  int dim = 1;

  gnn_tensor_set_requires_grad (x, TRUE, NULL);
  if ((h = gnn_tensor_linear (x, w1, b1, error)) && (a = gnn_tensor_tanh (h, error)) &&
      (score = gnn_tensor_linear (a, w2, NULL, error)) &&
      (ones = gnn_tensor_new_from_doubles (GNN_TEST_DATA (1, 1), 2, GNN_TEST_SHAPE (2, 1), 2, error)) &&
      (g = gnn_autograd_grad (&score, 1, &ones, 1, &x, 1, TRUE, TRUE, FALSE, error)) &&
      (sq = gnn_tensor_mul (g->pdata[0], g->pdata[0], error)) && (n2 = gnn_tensor_sum (sq, &dim, 1, FALSE, error)) &&
      (n = gnn_tensor_sqrt (n2, error)) && (d = gnn_tensor_add_scalar (n, -1.0, error)) &&
      (p = gnn_tensor_mul (d, d, error)))
    result = gnn_tensor_mean_all (p, error);
  gnn_set_grad_enabled (prev);
  return result;
}

static void
test_gradient_penalty (void)
{
  g_autoptr(GnnTensor) w1 = gnn_test_tensor_d (GNN_TEST_DATA (0.3, -0.5, 0.8, 0.1, 0.7, -0.2, 0.4, 0.9, -0.6,
                                                               0.2, 0.5, -0.3), 12, GNN_TEST_SHAPE (4, 3), 2);

  gnn_test_gradcheck (gradient_penalty, NULL, w1, 1e-6, 1e-6);
}

/* inference mode: no graph, tensors made inside are inference tensors (and their views and
 * detached aliases), which outside refuse in-place updates and requires_grad and cannot be saved
 * for backward; in-place updates of normal tensors stay allowed inside; leaving restores the
 * grad mode of before; inference_mode (False) turns grad mode on (torch 1.13's rules) */
static void
test_inference_mode (void)
{
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) w = leaf (GNN_TEST_DATA (1, 1, 1), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) y = NULL, v = NULL, d = NULL, c = NULL, r = NULL, s = NULL, z = NULL;
  g_autoptr(GnnTensor) xv = NULL, ww = NULL;
  GError *error = NULL;
  gboolean prev_grad = FALSE;

  g_assert_false (gnn_is_inference_mode_enabled ());
  g_assert_false (gnn_set_inference_mode_enabled (TRUE, &prev_grad));
  g_assert_true (prev_grad);
  g_assert_true (gnn_is_inference_mode_enabled ());
  g_assert_false (gnn_is_grad_enabled ());
  OK (y = gnn_tensor_mul_scalar (x, 2, &error));
  OK (ww = gnn_tensor_mul (w, w, &error));      /* no graph even from a leaf requiring grad */
  g_assert_null (gnn_tensor_get_grad_fn_name (ww));
  g_assert_false (gnn_tensor_get_requires_grad (ww));
  g_assert_true (gnn_tensor_is_inference (y));
  g_assert_false (gnn_tensor_is_inference (x));
  OK (xv = gnn_tensor_view (x, GNN_TEST_SHAPE (3), 1, &error));
  g_assert_false (gnn_tensor_is_inference (xv));  /* a view of a normal tensor stays normal */
  OK (gnn_tensor_add_scalar_ (x, 1, &error));    /* in place on a normal tensor: allowed */
  OK (gnn_tensor_add_scalar_ (y, 1, &error));    /* and on an inference tensor inside */
  OK (gnn_tensor_set_requires_grad (y, TRUE, &error));
  OK (gnn_tensor_set_requires_grad (y, FALSE, &error));
  {
    gboolean inner_grad = TRUE;
    g_assert_true (gnn_set_inference_mode_enabled (FALSE, &inner_grad));
    g_assert_false (inner_grad);
    g_assert_true (gnn_is_grad_enabled ());
    OK (z = gnn_tensor_mul_scalar (x, 1, &error));
    g_assert_false (gnn_tensor_is_inference (z));
    g_assert_false (gnn_set_inference_mode_enabled (TRUE, NULL));
    gnn_set_grad_enabled (inner_grad);
  }
  g_assert_true (gnn_set_inference_mode_enabled (FALSE, NULL));
  gnn_set_grad_enabled (prev_grad);
  g_assert_true (gnn_is_grad_enabled ());
  g_assert_false (gnn_is_inference_mode_enabled ());
  gnn_test_assert_close (y, GNN_TEST_DATA (3, 5, 7), 3, 0, 0);

  /* outside: views and detached aliases are inference tensors, clones are not */
  OK (v = gnn_tensor_view (y, GNN_TEST_SHAPE (3), 1, &error));
  d = gnn_tensor_detach (y);
  OK (c = gnn_tensor_clone (y, &error));
  g_assert_true (gnn_tensor_is_inference (v));
  g_assert_true (gnn_tensor_is_inference (d));
  g_assert_false (gnn_tensor_is_inference (c));

  g_assert_false (gnn_tensor_add_scalar_ (y, 1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_true (g_str_has_prefix (error->message,
                                   "Inplace update to inference tensor outside InferenceMode is not allowed."));
  g_clear_error (&error);
  g_assert_false (gnn_tensor_fill_ (v, 0, &error));      /* through a view too, and under no_grad */
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_clear_error (&error);
  gnn_set_grad_enabled (FALSE);
  g_assert_false (gnn_tensor_add_scalar_ (y, 1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_clear_error (&error);
  gnn_set_grad_enabled (TRUE);
  gnn_test_assert_close (y, GNN_TEST_DATA (3, 5, 7), 3, 0, 0);
  OK (gnn_tensor_add_scalar_ (c, 1, &error));

  g_assert_false (gnn_tensor_set_requires_grad (y, TRUE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_cmpstr (error->message, ==, "Setting requires_grad=True on inference tensor outside "
                                       "InferenceMode is not allowed.");
  g_clear_error (&error);

  /* w + y saves nothing: its backward runs; w * y saves y: its backward fails */
  OK (r = gnn_tensor_add (w, y, 1, &error));
  OK (s = gnn_tensor_sum_all (r, &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (w), GNN_TEST_DATA (1, 1, 1), 3, 0, 0);
  g_clear_object (&r);
  g_clear_object (&s);
  OK (r = gnn_tensor_mul (w, y, &error));
  OK (s = gnn_tensor_sum_all (r, &error));
  g_assert_false (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_cmpstr (error->message, ==, "MulBackward0: Inference tensors cannot be saved for backward. To work "
                                       "around you can make a clone to get a normal tensor and use "
                                       "it in autograd.");
  g_clear_error (&error);
}

/* anomaly mode: a formula returning NaN is an error naming it (torch's words), a failed
 * backward leaves a report with the trace the node recorded; off, or with check_nan off, the
 * NaN gradient comes through */
static char *
count_trace (gpointer data)
{
  guint *calls = data;
  return g_strdup_printf ("trace %u\n", ++*calls);
}

static GnnTensor *
sqrt_times_zero_sum (GnnTensor *x, GError **error)
{
  g_autoptr(GnnTensor) r = gnn_tensor_sqrt (x, error);
  g_autoptr(GnnTensor) z = r ? gnn_tensor_mul_scalar (r, 0.0, error) : NULL;
  return z ? gnn_tensor_sum_all (z, error) : NULL;
}

static void
test_anomaly_mode (void)
{
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (0, 1), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) s = NULL;
  g_autoptr(GPtrArray) g = NULL;
  g_autofree char *report = NULL;
  g_autofree double *v = NULL;
  GError *error = NULL;
  guint calls = 0;
  gsize n;

  g_assert_false (gnn_autograd_is_anomaly_enabled ());
  g_assert_true (gnn_autograd_is_anomaly_check_nan_enabled ());

  /* off: sqrt'(0) · 0 is NaN and nothing complains */
  OK (s = sqrt_times_zero_sum (x, &error));
  OK (g = gnn_autograd_grad (&s, 1, NULL, 0, &x, 1, FALSE, FALSE, FALSE, &error));
  OK (v = gnn_tensor_to_doubles (g->pdata[0], &n, &error));
  g_assert_true (isnan (v[0]));
  g_assert_cmpfloat (v[1], ==, 0.0);
  g_assert_null (gnn_autograd_take_anomaly_report ());
  g_clear_pointer (&g, g_ptr_array_unref);
  g_clear_object (&s);

  gnn_autograd_set_anomaly_trace_func (count_trace, &calls, NULL);
  gnn_autograd_set_anomaly_enabled (TRUE, TRUE);
  OK (s = sqrt_times_zero_sum (x, &error));
  g_assert_cmpuint (calls, ==, 3);           /* SqrtBackward0, MulBackward0, SumBackward0 */
  g_assert_null (gnn_autograd_grad (&s, 1, NULL, 0, &x, 1, FALSE, FALSE, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_cmpstr (error->message, ==, "Function 'SqrtBackward0' returned nan values in its 0th output.");
  g_clear_error (&error);
  report = gnn_autograd_take_anomaly_report ();
  g_assert_cmpstr (report, ==, "Error detected in SqrtBackward0. Traceback of forward call that caused "
                               "the error:\ntrace 1\n");
  g_assert_null (gnn_autograd_take_anomaly_report ());
  g_clear_object (&s);

  /* the second operand of x / x gets 0 · -1 / 0²: NaN in the node's output 1 */
  {
    g_autoptr(GnnTensor) q = NULL;
    OK (q = gnn_tensor_div (x, x, &error));
    OK (s = gnn_tensor_sum_all (q, &error));
    g_assert_false (gnn_tensor_backward (s, NULL, FALSE, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
    g_assert_cmpstr (error->message, ==, "Function 'DivBackward0' returned nan values in its 1th output.");
    g_clear_error (&error);
    g_clear_pointer (&report, g_free);
    report = gnn_autograd_take_anomaly_report ();
    g_assert_nonnull (strstr (report, "Error detected in DivBackward0."));
    g_clear_object (&s);
  }

  /* check_nan off: the NaN comes through, no report */
  gnn_autograd_set_anomaly_enabled (TRUE, FALSE);
  g_assert_false (gnn_autograd_is_anomaly_check_nan_enabled ());
  OK (s = sqrt_times_zero_sum (x, &error));
  OK (g = gnn_autograd_grad (&s, 1, NULL, 0, &x, 1, FALSE, FALSE, FALSE, &error));
  g_clear_pointer (&v, g_free);
  OK (v = gnn_tensor_to_doubles (g->pdata[0], &n, &error));
  g_assert_true (isnan (v[0]));
  g_assert_null (gnn_autograd_take_anomaly_report ());

  gnn_autograd_set_anomaly_enabled (FALSE, TRUE);
  gnn_autograd_set_anomaly_trace_func (NULL, NULL, NULL);
}

/* torch.nn.utils: gradient clipping and parameters as one vector, in float64 */
static void
set_grads (GnnTensor **params, const double *ga, const double *gb)
{
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (ga, 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (gb, 4, GNN_TEST_SHAPE (2, 2), 2);
  GError *error = NULL;

  OK (gnn_tensor_set_grad (params[0], a, &error));
  OK (gnn_tensor_set_grad (params[1], b, &error));
}

static void
test_clip_grad (void)
{
  g_autoptr(GnnTensor) pa = leaf (GNN_TEST_DATA (0.5, 1), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) pb = leaf (GNN_TEST_DATA (1, 2, 3, 4), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) pc = leaf (GNN_TEST_DATA (7), 1, GNN_TEST_SHAPE (1), 1);   /* no grad */
  GnnTensor *params[3] = { pa, pb, pc };
  const double ga[2] = { 3, -4 }, gb[4] = { 1, 2, 2, 0 };
  GError *error = NULL;
  double c;

  /* the 2-norm of (5, 3) is √34: the gradients are scaled by 1 / (√34 + 1e-6) */
  set_grads (params, ga, gb);
  {
    g_autoptr(GnnTensor) total = NULL;
    OK (total = gnn_clip_grad_norm_ (params, 3, 1.0, 2.0, FALSE, &error));
    g_assert_cmpuint (gnn_tensor_get_ndim (total), ==, 0);
    g_assert_cmpfloat_with_epsilon (gnn_tensor_item (total, NULL), sqrt (34.0), 1e-12);
    c = 1.0 / (sqrt (34.0) + 1e-6);
    gnn_test_assert_close (gnn_tensor_get_grad (pa), GNN_TEST_DATA (3 * c, -4 * c), 2, 1e-12, 1e-14);
    gnn_test_assert_close (gnn_tensor_get_grad (pb), GNN_TEST_DATA (c, 2 * c, 2 * c, 0), 4, 1e-12, 1e-14);
    g_assert_null (gnn_tensor_get_grad (pc));
  }
  /* under the bound nothing changes; the inf norm is the largest |g| */
  set_grads (params, ga, gb);
  {
    g_autoptr(GnnTensor) total = NULL;
    OK (total = gnn_clip_grad_norm_ (params, 2, 10.0, INFINITY, TRUE, &error));
    g_assert_cmpfloat (gnn_tensor_item (total, NULL), ==, 4.0);
    gnn_test_assert_close (gnn_tensor_get_grad (pa), ga, 2, 0, 0);
  }
  /* 1-norm 12: scaled by 6 / (12 + 1e-6) */
  {
    g_autoptr(GnnTensor) total = NULL;
    OK (total = gnn_clip_grad_norm_ (params, 2, 6.0, 1.0, FALSE, &error));
    g_assert_cmpfloat (gnn_tensor_item (total, NULL), ==, 12.0);
    c = 6.0 / (12.0 + 1e-6);
    gnn_test_assert_close (gnn_tensor_get_grad (pa), GNN_TEST_DATA (3 * c, -4 * c), 2, 1e-12, 1e-14);
  }
  /* a non-finite total is an error with error_if_nonfinite, else it scales by NaN */
  set_grads (params, GNN_TEST_DATA (INFINITY, 1), gb);
  g_assert_null (gnn_clip_grad_norm_ (params, 2, 1.0, 2.0, TRUE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "is non-finite, so it cannot be clipped"));
  g_clear_error (&error);
  gnn_test_assert_close (gnn_tensor_get_grad (pb), gb, 4, 0, 0);   /* untouched */
  {
    g_autoptr(GnnTensor) total = NULL;
    OK (total = gnn_clip_grad_norm_ (params, 2, 1.0, 2.0, FALSE, &error));
    g_assert_true (isinf (gnn_tensor_item (total, NULL)));
  }
  /* no gradients at all: a float32 zero */
  {
    g_autoptr(GnnTensor) total = NULL;
    OK (total = gnn_clip_grad_norm_ (&pc, 1, 1.0, 2.0, FALSE, &error));
    g_assert_cmpint (gnn_tensor_get_dtype (total), ==, GNN_DTYPE_FLOAT32);
    g_assert_cmpfloat (gnn_tensor_item (total, NULL), ==, 0.0);
  }

  set_grads (params, ga, gb);
  g_assert_true (gnn_clip_grad_value_ (params, 3, 1.5, &error));
  g_assert_no_error (error);
  gnn_test_assert_close (gnn_tensor_get_grad (pa), GNN_TEST_DATA (1.5, -1.5), 2, 0, 0);
  gnn_test_assert_close (gnn_tensor_get_grad (pb), GNN_TEST_DATA (1, 1.5, 1.5, 0), 4, 0, 0);

  /* parameters_to_vector and back */
  {
    g_autoptr(GnnTensor) vec = NULL;
    g_autoptr(GnnTensor) doubled = NULL;
    g_autoptr(GnnTensor) wrong = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3), 3, GNN_TEST_SHAPE (3), 1);

    OK (vec = gnn_parameters_to_vector (params, 3, &error));
    gnn_test_assert_close (vec, GNN_TEST_DATA (0.5, 1, 1, 2, 3, 4, 7), 7, 0, 0);
    g_assert_null (gnn_parameters_to_vector (NULL, 0, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    OK (doubled = gnn_tensor_mul_scalar (vec, 2.0, &error));
    {
      g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
      g_assert_true (gnn_vector_to_parameters (doubled, params, 3, &error));
      g_assert_no_error (error);
    }
    gnn_test_assert_close (pb, GNN_TEST_DATA (2, 4, 6, 8), 4, 0, 0);
    gnn_test_assert_close (pc, GNN_TEST_DATA (14), 1, 0, 0);
    g_assert_false (gnn_vector_to_parameters (wrong, params, 3, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
    g_assert_nonnull (strstr (error->message, "expected a 1-d vector of 7 elements"));
    g_clear_error (&error);
  }
}

/* the graph behind a tensor: grad_fn and its next functions, as torch's */
static void
test_node_graph (void)
{
  g_autoptr(GnnTensor) x = leaf (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) w = gnn_test_tensor_d (GNN_TEST_DATA (3, 4), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) m = NULL, e = NULL, a = NULL, y = NULL;
  g_autoptr(GnnNode) kept = NULL;
  GnnNode *sum, *add, *mul, *exp, *acc;
  GError *error = NULL;
  guint nr = 99;

  OK (m = gnn_tensor_mul (x, w, &error));
  OK (e = gnn_tensor_exp (x, &error));
  OK (a = gnn_tensor_add (m, e, 1.0, &error));
  OK (y = gnn_tensor_sum_all (a, &error));
  g_assert_null (gnn_tensor_get_grad_fn (x));
  g_assert_null (gnn_tensor_get_grad_fn (w));
  sum = gnn_tensor_get_grad_fn (y);
  g_assert_cmpstr (gnn_node_get_name (sum), ==, "SumBackward0");
  g_assert_cmpuint (gnn_node_get_n_next_functions (sum), ==, 1);
  add = gnn_node_get_next_function (sum, 0, &nr);
  g_assert_true (add == gnn_tensor_get_grad_fn (a));
  g_assert_cmpuint (nr, ==, 0);
  g_assert_cmpstr (gnn_node_get_name (add), ==, "AddBackward0");
  g_assert_cmpuint (gnn_node_get_n_next_functions (add), ==, 2);
  mul = gnn_node_get_next_function (add, 0, NULL);
  exp = gnn_node_get_next_function (add, 1, NULL);
  g_assert_cmpstr (gnn_node_get_name (mul), ==, "MulBackward0");
  g_assert_cmpstr (gnn_node_get_name (exp), ==, "ExpBackward0");
  /* x's gradient goes to its AccumulateGrad; w needs none */
  acc = gnn_node_get_next_function (mul, 0, &nr);
  g_assert_cmpstr (gnn_node_get_name (acc), ==, "AccumulateGrad");
  g_assert_true (gnn_node_get_variable (acc) == x);
  g_assert_cmpuint (gnn_node_get_n_next_functions (acc), ==, 0);
  g_assert_true (gnn_node_get_next_function (exp, 0, NULL) == acc);
  nr = 99;
  g_assert_null (gnn_node_get_next_function (mul, 1, &nr));
  g_assert_cmpuint (nr, ==, 0);
  g_assert_null (gnn_node_get_variable (mul));

  /* a reference keeps a node (and the graph behind it) after its tensors go */
  kept = gnn_node_ref (mul);
  g_clear_object (&y);
  g_clear_object (&a);
  g_clear_object (&m);
  g_assert_cmpstr (gnn_node_get_name (kept), ==, "MulBackward0");
  g_assert_true (gnn_node_get_variable (gnn_node_get_next_function (kept, 0, NULL)) == x);
  g_assert_true (G_TYPE_IS_BOXED (GNN_TYPE_NODE));
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/autograd/basic-graph", test_basic_graph);
  g_test_add_func ("/autograd/accumulation-retain-graph", test_accumulation_and_retain_graph);
  g_test_add_func ("/autograd/diamond", test_diamond);
  g_test_add_func ("/autograd/errors", test_errors);
  g_test_add_func ("/autograd/version-counter", test_version_counter);
  g_test_add_func ("/autograd/inplace-records", test_inplace_records);
  g_test_add_func ("/autograd/inplace-saved-self", test_mul_inplace_saved_self);
  g_test_add_func ("/autograd/no-grad", test_no_grad);
  g_test_add_func ("/autograd/grad-mode-thread-local", test_grad_mode_thread_local);
  g_test_add_func ("/autograd/hooks", test_hooks);
  g_test_add_func ("/autograd/detach-set-grad", test_detach_and_set_grad);
  g_test_add_func ("/autograd/no-leak", test_no_leak_of_graph);
  g_test_add_func ("/autograd/backward-from-leaf", test_backward_from_leaf);
  g_test_add_func ("/autograd/custom-function", test_custom_function);
  g_test_add_func ("/autograd/gradgrad", test_gradgrad);
  g_test_add_func ("/autograd/create-graph-names", test_create_graph_names);
  g_test_add_func ("/autograd/backward-create-graph", test_backward_create_graph);
  g_test_add_func ("/autograd/grad-errors", test_autograd_grad_errors);
  g_test_add_func ("/autograd/gradient-penalty", test_gradient_penalty);
  g_test_add_func ("/autograd/anomaly-mode", test_anomaly_mode);
  g_test_add_func ("/autograd/clip-grad", test_clip_grad);
  g_test_add_func ("/autograd/node-graph", test_node_graph);
  g_test_add_func ("/autograd/inference-mode", test_inference_mode);
  g_test_add_func ("/autograd/detach-in-place", test_detach_in_place);
  return g_test_run ();
}
