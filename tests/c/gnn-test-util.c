/* gnn-test-util.c */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-test-util.h"

GnnTensor *
gnn_test_tensor_d (const double *data, gsize n, const gint64 *shape, guint ndim)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *t = gnn_tensor_new_from_doubles (data, n, shape, ndim, &error);
  g_assert_no_error (error);
  return t;
}

void
gnn_test_assert_close (GnnTensor *t, const double *expected, gsize n, double rtol, double atol)
{
  g_autoptr(GError) error = NULL;
  gsize got_n = 0;
  g_autofree double *got = gnn_tensor_to_doubles (t, &got_n, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (got_n, ==, n);
  for (gsize i = 0; i < n; i++)
    {
      if (isnan (expected[i]))
        {
          g_assert_true (isnan (got[i]));
          continue;
        }
      if (fabs (got[i] - expected[i]) > atol + rtol * fabs (expected[i]))
        g_error ("element %" G_GSIZE_FORMAT ": got %.10g, expected %.10g", i, got[i], expected[i]);
    }
}

void
gnn_test_assert_shape (GnnTensor *t, const gint64 *shape, guint ndim)
{
  guint nd;
  const gint64 *s = gnn_tensor_get_shape (t, &nd);

  g_assert_cmpuint (nd, ==, ndim);
  for (guint i = 0; i < ndim; i++)
    g_assert_cmpint (s[i], ==, shape[i]);
}

/* sum (y * v) for fixed weights v, so that every output element counts differently */
static GnnTensor *
weighted_sum (GnnTensor *y)
{
  g_autoptr(GError) error = NULL;
  guint nd;
  const gint64 *shape = gnn_tensor_get_shape (y, &nd);
  gsize n = (gsize) gnn_tensor_get_numel (y);
  g_autofree double *w = g_new (double, MAX (n, 1));
  g_autoptr(GnnTensor) v = NULL, yd = NULL, p = NULL;
  GnnTensor *s;

  for (gsize i = 0; i < n; i++)
    w[i] = 1.0 + 0.5 * sin (1.7 * (double) i + 0.3);
  v = gnn_tensor_new_from_doubles (w, n, shape, nd, &error);
  g_assert_no_error (error);
  yd = gnn_tensor_to_dtype (y, GNN_DTYPE_FLOAT64, &error);
  g_assert_no_error (error);
  p = gnn_tensor_mul (yd, v, &error);
  g_assert_no_error (error);
  s = gnn_tensor_sum_all (p, &error);
  g_assert_no_error (error);
  return s;
}

static double
eval_sum (GnnTestFunc fn, gpointer data, GnnTensor *x)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_autoptr(GnnTensor) y = fn (x, data, &error);
  g_autoptr(GnnTensor) s = NULL;

  g_assert_no_error (error);
  s = weighted_sum (y);
  return gnn_tensor_item (s, NULL);
}

void
gnn_test_gradcheck (GnnTestFunc fn, gpointer data, GnnTensor *x, double eps, double tol)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) y = NULL, s = NULL;
  g_autofree double *grad = NULL;
  g_autofree double *xv = NULL;
  gsize n = 0;
  const gint64 *shape;
  guint ndim;

  g_assert_cmpint (gnn_tensor_get_dtype (x), ==, GNN_DTYPE_FLOAT64);
  gnn_tensor_set_requires_grad (x, TRUE, &error);
  g_assert_no_error (error);
  gnn_tensor_set_grad (x, NULL, &error);   /* x may come from an earlier check */
  y = fn (x, data, &error);
  g_assert_no_error (error);
  s = weighted_sum (y);
  gnn_tensor_backward (s, NULL, FALSE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (gnn_tensor_get_grad (x));
  grad = gnn_tensor_to_doubles (gnn_tensor_get_grad (x), &n, &error);
  g_assert_no_error (error);
  xv = gnn_tensor_to_doubles (x, &n, &error);
  shape = gnn_tensor_get_shape (x, &ndim);

  for (gsize i = 0; i < n; i++)
    {
      g_autofree double *p = g_memdup2 (xv, n * sizeof (double));
      g_autoptr(GnnTensor) xp = NULL, xm = NULL;
      double fp, fm, numeric;

      p[i] = xv[i] + eps;
      xp = gnn_tensor_new_from_doubles (p, n, shape, ndim, NULL);
      p[i] = xv[i] - eps;
      xm = gnn_tensor_new_from_doubles (p, n, shape, ndim, NULL);
      fp = eval_sum (fn, data, xp);
      fm = eval_sum (fn, data, xm);
      numeric = (fp - fm) / (2 * eps);
      if (fabs (numeric - grad[i]) > tol * (1 + fabs (numeric)))
        g_error ("gradcheck: element %" G_GSIZE_FORMAT ": analytic %.10g, numeric %.10g", i, grad[i], numeric);
    }
}

typedef struct {
  GnnTestFunc fn;
  gpointer data;
} FirstGrad;

/* x -> d (weighted sum of fn (x)) / dx, recorded (create_graph), with grad mode on even
 * inside the finite differences' no-grad evaluation */
static GnnTensor *
first_grad (GnnTensor *x, gpointer data, GError **error)
{
  FirstGrad *f = data;
  gboolean prev = gnn_set_grad_enabled (TRUE);
  g_autoptr(GnnTensor) xr = gnn_tensor_detach (x);
  g_autoptr(GnnTensor) y = NULL, s = NULL, xin = NULL;
  g_autoptr(GPtrArray) g = NULL;
  GnnTensor *result = NULL;

  /* the outer check differentiates with respect to x itself: keep it when it is a leaf that
   * requires grad, else differentiate a leaf alias */
  xin = gnn_tensor_get_requires_grad (x) ? g_object_ref (x) : g_object_ref (xr);
  if (!gnn_tensor_get_requires_grad (xin))
    gnn_tensor_set_requires_grad (xin, TRUE, NULL);
  if ((y = f->fn (xin, f->data, error)))
    {
      s = weighted_sum (y);
      if ((g = gnn_autograd_grad (&s, 1, NULL, 0, &xin, 1, TRUE, TRUE, FALSE, error)))
        result = g_object_ref (g_ptr_array_index (g, 0));
    }
  gnn_set_grad_enabled (prev);
  return result;
}

void
gnn_test_gradgradcheck (GnnTestFunc fn, gpointer data, GnnTensor *x, double eps, double tol)
{
  FirstGrad f = { fn, data };

  gnn_test_gradcheck (first_grad, &f, x, eps, tol);
}

void
gnn_test_init (int *argc, char ***argv)
{
  const char *wanted = g_getenv ("GNN_BACKEND");
  g_autoptr(GError) error = NULL;
  GnnBackend *cpu;

  g_test_init (argc, argv, NULL);
  cpu = gnn_backend_get_for_device_type ("cpu", &error);
  g_assert_no_error (error);
  if (wanted && *wanted && g_strcmp0 (wanted, "help") != 0)
    g_assert_cmpstr (gnn_backend_get_name (cpu), ==, wanted);
}

GnnBackend *
gnn_test_backend_named (const char *name)
{
  g_autoptr(GError) error = NULL;
  GnnBackend *b = gnn_backend_get_by_name (name, &error);

  g_assert_no_error (error);
  g_assert_nonnull (b);
  return b;
}

GnnTensor *
gnn_test_weighted_sum (GnnTensor *y, GError **error)
{
  gint64 n = gnn_tensor_get_numel (y);
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (y, &ndim);
  g_autoptr(GnnTensor) w = gnn_tensor_new_arange (1, n + 1, 1, gnn_tensor_get_dtype (y), NULL, error);
  g_autoptr(GnnTensor) wr = w ? gnn_tensor_reshape (w, shape, ndim, error) : NULL;
  g_autoptr(GnnTensor) p = wr ? gnn_tensor_mul (y, wr, error) : NULL;

  return p ? gnn_tensor_sum_all (p, error) : NULL;
}

GnnTensor *
gnn_test_randn (const gint64 *shape, guint ndim, guint64 seed)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *x;

  gnn_manual_seed (seed);
  x = gnn_tensor_new_randn (shape, ndim, NULL, GNN_DTYPE_FLOAT64, NULL, &error);
  g_assert_no_error (error);
  return x;
}
