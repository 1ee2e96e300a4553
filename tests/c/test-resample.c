/* test-resample.c: torch.nn.functional.interpolate: hand-computed cases of each mode, float64
 * gradchecks, the errors that name what was expected
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-test-util.h"

static void
assert_error (GError **error, int code, const char *words)
{
  g_assert_error (*error, GNN_ERROR, code);
  if (strstr ((*error)->message, words) == NULL)
    g_error ("\"%s\" lacks \"%s\"", (*error)->message, words);
  g_clear_error (error);
}

static GnnTensor *
interp (GnnTensor *x, const gint64 *size, guint n_size, const double *scale, guint n_scale, const char *mode,
        gboolean align_corners)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *y = gnn_tensor_interpolate (x, size, n_size, scale, n_scale, mode, align_corners, FALSE, FALSE,
                                         &error);

  g_assert_no_error (error);
  return y;
}

static void
test_by_hand (void)
{
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1, 3, 2, 5), 4, GNN_TEST_SHAPE (1, 1, 4), 3);
  g_autoptr(GnnTensor) x2 = gnn_test_tensor_d (GNN_TEST_DATA (0, 2), 2, GNN_TEST_SHAPE (1, 1, 2), 3);
  g_autoptr(GnnTensor) sq = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4), 4, GNN_TEST_SHAPE (1, 1, 2, 2), 4);
  g_autoptr(GnnTensor) n1 = NULL, n2 = NULL, n3 = NULL, l1 = NULL, l2 = NULL, a1 = NULL, b1 = NULL, c1 = NULL;
  g_autoptr(GnnTensor) t1 = NULL, c2 = NULL;
  g_autoptr(GnnTensor) cube = NULL;
  g_autoptr(GError) error = NULL;

  /* nearest, twice the size: each element twice */
  n1 = interp (x, GNN_TEST_SHAPE (8), 1, NULL, 0, NULL, FALSE);
  gnn_test_assert_shape (n1, GNN_TEST_SHAPE (1, 1, 8), 3);
  gnn_test_assert_close (n1, GNN_TEST_DATA (1, 1, 3, 3, 2, 2, 5, 5), 8, 0, 0);
  /* nearest to 3: floor (o · 4/3) = 0, 1, 2; nearest-exact: floor ((o + 0.5) · 4/3) = 0, 2, 3 */
  n2 = interp (x, GNN_TEST_SHAPE (3), 1, NULL, 0, "nearest", FALSE);
  gnn_test_assert_close (n2, GNN_TEST_DATA (1, 3, 2), 3, 0, 0);
  n3 = interp (x, GNN_TEST_SHAPE (3), 1, NULL, 0, "nearest-exact", FALSE);
  gnn_test_assert_close (n3, GNN_TEST_DATA (1, 2, 5), 3, 0, 0);
  /* linear, corners aligned: (0, 2) to 3 is 0, 1, 2; not aligned, to 4: the source positions
   * are -0.25 (clamped to 0), 0.25, 0.75, 1.25 (past the last: the last) */
  l1 = interp (x2, GNN_TEST_SHAPE (3), 1, NULL, 0, "linear", TRUE);
  gnn_test_assert_close (l1, GNN_TEST_DATA (0, 1, 2), 3, 1e-15, 1e-15);
  l2 = interp (x2, GNN_TEST_SHAPE (4), 1, NULL, 0, "linear", FALSE);
  gnn_test_assert_close (l2, GNN_TEST_DATA (0, 0.5, 1.5, 2), 4, 1e-15, 1e-15);
  /* area to 2: the means of (1, 3) and (2, 5) */
  a1 = interp (x, GNN_TEST_SHAPE (2), 1, NULL, 0, "area", FALSE);
  gnn_test_assert_close (a1, GNN_TEST_DATA (2, 3.5), 2, 1e-15, 1e-15);
  /* bilinear with a scale factor, corners aligned: 2×2 to 3×3 */
  b1 = interp (sq, NULL, 0, GNN_TEST_DATA (1.5), 1, "bilinear", TRUE);
  gnn_test_assert_close (b1, GNN_TEST_DATA (1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4), 9, 1e-15, 1e-15);
  /* bicubic at the input's own size with corners aligned reads the input back */
  c1 = interp (sq, GNN_TEST_SHAPE (2, 2), 2, NULL, 0, "bicubic", TRUE);
  gnn_test_assert_close (c1, GNN_TEST_DATA (1, 2, 3, 4), 4, 1e-15, 1e-15);
  /* bicubic of a constant is that constant (the weights sum to 1, the borders clamp) */
  g_assert_true (gnn_tensor_fill_ (sq, 2.5, &error));
  g_assert_no_error (error);
  c2 = interp (sq, GNN_TEST_SHAPE (3, 5), 2, NULL, 0, "bicubic", FALSE);
  gnn_test_assert_close (c2, GNN_TEST_DATA (2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5,
                                            2.5, 2.5), 15, 1e-14, 1e-14);
  /* trilinear on (1, 1, 2, 2, 2) to 3×3×3, corners aligned: the centre is the mean */
  cube = gnn_test_tensor_d (GNN_TEST_DATA (0, 1, 2, 3, 4, 5, 6, 7), 8, GNN_TEST_SHAPE (1, 1, 2, 2, 2), 5);
  t1 = interp (cube, GNN_TEST_SHAPE (3), 1, NULL, 0, "trilinear", TRUE);
  gnn_test_assert_shape (t1, GNN_TEST_SHAPE (1, 1, 3, 3, 3), 5);
  {
    g_autofree double *v = gnn_tensor_to_doubles (t1, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpfloat_with_epsilon (v[13], 3.5, 1e-14);
    g_assert_cmpfloat_with_epsilon (v[26], 7, 1e-14);
  }
}

typedef struct {
  const char *mode;
  gint64 size[3];
  double scale[3];
  gboolean align_corners;
} Case;

static GnnTensor *
interp_fn (GnnTensor *x, gpointer data, GError **error)
{
  const Case *c = data;
  guint nsp = gnn_tensor_get_ndim (x) - 2;
  g_autoptr(GnnTensor) y = gnn_tensor_interpolate (x, c->size[0] ? c->size : NULL, c->size[0] ? nsp : 0,
                                                   c->size[0] ? NULL : c->scale, c->size[0] ? 0 : nsp, c->mode,
                                                   c->align_corners, FALSE, FALSE, error);

  return y ? gnn_test_weighted_sum (y, error) : NULL;
}

static void
test_gradcheck (void)
{
  g_autoptr(GnnTensor) x3 = gnn_test_randn (GNN_TEST_SHAPE (2, 2, 5), 3, 41);
  g_autoptr(GnnTensor) x4 = gnn_test_randn (GNN_TEST_SHAPE (1, 2, 4, 5), 4, 42);
  g_autoptr(GnnTensor) x5 = gnn_test_randn (GNN_TEST_SHAPE (1, 1, 3, 2, 4), 5, 43);
  const Case c3[] = {
    { "nearest", { 7 }, { 0 }, FALSE }, { "nearest-exact", { 3 }, { 0 }, FALSE },
    { "linear", { 8 }, { 0 }, FALSE }, { "linear", { 0 }, { 0.7 }, TRUE }, { "area", { 3 }, { 0 }, FALSE },
  };
  const Case c4[] = {
    { "bilinear", { 7, 3 }, { 0 }, FALSE }, { "bicubic", { 6, 9 }, { 0 }, FALSE },
    { "bicubic", { 0 }, { 1.5, 0.6 }, TRUE }, { "area", { 3, 2 }, { 0 }, FALSE },
    { "nearest", { 0 }, { 2.0, 1.3 }, FALSE },
  };
  const Case c5[] = {
    { "trilinear", { 4, 3, 5 }, { 0 }, FALSE }, { "trilinear", { 2, 4, 3 }, { 0 }, TRUE },
    { "area", { 2, 1, 3 }, { 0 }, FALSE }, { "nearest-exact", { 5, 3, 2 }, { 0 }, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (c3); i++)
    gnn_test_gradcheck (interp_fn, (gpointer) &c3[i], x3, 1e-6, 1e-6);
  for (guint i = 0; i < G_N_ELEMENTS (c4); i++)
    gnn_test_gradcheck (interp_fn, (gpointer) &c4[i], x4, 1e-6, 1e-6);
  for (guint i = 0; i < G_N_ELEMENTS (c5); i++)
    gnn_test_gradcheck (interp_fn, (gpointer) &c5[i], x5, 1e-6, 1e-6);
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_randn (GNN_TEST_SHAPE (1, 2, 4, 4), 4, 44);
  g_autoptr(GnnTensor) x2 = gnn_test_randn (GNN_TEST_SHAPE (2, 4), 2, 45);
  g_autoptr(GnnTensor) xi = gnn_tensor_new_zeros (GNN_TEST_SHAPE (1, 1, 3), 3, GNN_DTYPE_INT64, NULL, &error);
  const gint64 two[] = { 2, 2 }, three[] = { 2, 2, 2 }, zero[] = { 0, 2 };
  const double s2[] = { 2.0 }, sneg[] = { -1.0 }, tiny[] = { 0.1 };

  g_assert_no_error (error);
  g_assert_null (gnn_tensor_interpolate (x, two, 2, NULL, 0, "cubic", FALSE, FALSE, FALSE, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "interpolate: mode must be one of nearest, nearest-exact, "
                                                    "linear, bilinear, bicubic, trilinear, area, got 'cubic'");
  g_assert_null (gnn_tensor_interpolate (x2, two, 1, NULL, 0, NULL, FALSE, FALSE, FALSE, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "only 3D, 4D and 5D input tensors are supported (got 2D)");
  g_assert_null (gnn_tensor_interpolate (x, two, 2, NULL, 0, "trilinear", FALSE, FALSE, FALSE, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "interpolate: got 4D input, but trilinear mode needs 5D input");
  g_assert_null (gnn_tensor_interpolate (x, two, 2, NULL, 0, "linear", FALSE, FALSE, FALSE, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "interpolate: got 4D input, but linear mode needs 3D input");
  g_assert_null (gnn_tensor_interpolate (x, two, 2, NULL, 0, "nearest", TRUE, FALSE, FALSE, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "align_corners option can only be set with the interpolating");
  g_assert_null (gnn_tensor_interpolate (x, two, 2, NULL, 0, "bilinear", FALSE, FALSE, TRUE, &error));
  assert_error (&error, GNN_ERROR_NOT_SUPPORTED, "antialias=True is not supported yet");
  g_assert_null (gnn_tensor_interpolate (x, two, 2, s2, 1, NULL, FALSE, FALSE, FALSE, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "only one of size or scale_factor should be defined");
  g_assert_null (gnn_tensor_interpolate (x, NULL, 0, NULL, 0, NULL, FALSE, FALSE, FALSE, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "either size or scale_factor should be defined");
  g_assert_null (gnn_tensor_interpolate (x, three, 3, NULL, 0, NULL, FALSE, FALSE, FALSE, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "spatial dimensions of [4, 4] and output size of 3 values");
  g_assert_null (gnn_tensor_interpolate (x, two, 2, NULL, 0, NULL, FALSE, TRUE, FALSE, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "recompute_scale_factor is not meaningful with an explicit size");
  g_assert_null (gnn_tensor_interpolate (xi, two, 1, NULL, 0, NULL, FALSE, FALSE, FALSE, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "interpolate: ");
  g_assert_null (gnn_tensor_interpolate (x, NULL, 0, sneg, 1, NULL, FALSE, FALSE, FALSE, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "expected a positive finite scale_factor, got -1");
  g_assert_null (gnn_tensor_interpolate (x, NULL, 0, tiny, 1, NULL, FALSE, FALSE, FALSE, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "sizes should be greater than 0, but got input [4, 4] and output [0, 0]");
  g_assert_null (gnn_tensor_interpolate (x, zero, 2, NULL, 0, NULL, FALSE, FALSE, FALSE, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "output [0, 2]");
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/resample/interpolate-by-hand", test_by_hand);
  g_test_add_func ("/resample/interpolate-gradcheck", test_gradcheck);
  g_test_add_func ("/resample/interpolate-errors", test_errors);
  return g_test_run ();
}
