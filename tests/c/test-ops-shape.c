/* test-ops-shape.c: views share storage, know their base, and differentiate */
#include "config.h"

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END

static void
test_views_share_storage (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (0, 1, 2, 3, 4, 5), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) t = NULL, v = NULL, n = NULL, s = NULL, e = NULL, c = NULL, sl = NULL;

  OK (t = gnn_tensor_transpose (a, 0, 1, &error));
  g_assert_true (gnn_tensor_shares_storage (a, t));
  g_assert_false (gnn_tensor_is_contiguous (t));
  gnn_test_assert_close (t, GNN_TEST_DATA (0, 3, 1, 4, 2, 5), 6, 0, 0);
  OK (v = gnn_tensor_view (a, GNN_TEST_SHAPE (3, 2), 2, &error));
  gnn_test_assert_close (v, GNN_TEST_DATA (0, 1, 2, 3, 4, 5), 6, 0, 0);
  OK (n = gnn_tensor_narrow (a, 1, 1, 2, &error));
  gnn_test_assert_close (n, GNN_TEST_DATA (1, 2, 4, 5), 4, 0, 0);
  g_assert_cmpint (gnn_tensor_get_storage_offset (n), ==, 1);
  OK (s = gnn_tensor_select (a, 1, 2, &error));
  gnn_test_assert_close (s, GNN_TEST_DATA (2, 5), 2, 0, 0);
  OK (sl = gnn_tensor_slice (a, 1, 0, 3, 2, &error));
  gnn_test_assert_close (sl, GNN_TEST_DATA (0, 2, 3, 5), 4, 0, 0);
  OK (e = gnn_tensor_expand (s, GNN_TEST_SHAPE (3, 2), 2, &error));
  gnn_test_assert_close (e, GNN_TEST_DATA (2, 5, 2, 5, 2, 5), 6, 0, 0);
  g_assert_cmpint (gnn_tensor_get_strides (e, NULL)[0], ==, 0);
  g_assert_true (gnn_tensor_get_base (e) == a);
  OK (c = gnn_tensor_contiguous (t, &error));
  g_assert_true (gnn_tensor_is_contiguous (c));
  g_assert_false (gnn_tensor_shares_storage (c, a));
  /* a view of a non-contiguous tensor that needs a copy fails, reshape copies */
  g_assert_null (gnn_tensor_view (t, GNN_TEST_SHAPE (6), 1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  {
    g_autoptr(GnnTensor) r = NULL;
    OK (r = gnn_tensor_reshape (t, GNN_TEST_SHAPE (6), 1, &error));
    gnn_test_assert_close (r, GNN_TEST_DATA (0, 3, 1, 4, 2, 5), 6, 0, 0);
  }
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (0, 1, 2, 3, 4, 5), 6, GNN_TEST_SHAPE (2, 3), 2);

  g_assert_null (gnn_tensor_transpose (a, 0, 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message, "Dimension out of range"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_narrow (a, 1, 2, 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_select (a, 0, 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_view (a, GNN_TEST_SHAPE (-1, -1), 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_expand (a, GNN_TEST_SHAPE (4, 3), 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_permute (a, (const int[]) { 1, 1 }, 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_flatten (a, 1, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

static GnnTensor *
f_views (GnnTensor *x, gpointer data, GError **error)
{
  /* x (2, 3, 4): permute, narrow, slice, select, expand, reshape, then a product */
  g_autoptr(GnnTensor) p = gnn_tensor_permute (x, (const int[]) { 2, 0, 1 }, 3, error);
  g_autoptr(GnnTensor) n = p ? gnn_tensor_narrow (p, 0, 1, 3, error) : NULL;
  g_autoptr(GnnTensor) s = n ? gnn_tensor_slice (n, 2, 0, 3, 2, error) : NULL;
  g_autoptr(GnnTensor) r = s ? gnn_tensor_reshape (s, GNN_TEST_SHAPE (-1), 1, error) : NULL;
  g_autoptr(GnnTensor) sel = r ? gnn_tensor_select (x, 2, 3, error) : NULL;
  g_autoptr(GnnTensor) u = sel ? gnn_tensor_unsqueeze (sel, 0, error) : NULL;
  g_autoptr(GnnTensor) e = u ? gnn_tensor_expand (u, GNN_TEST_SHAPE (2, 2, 3), 3, error) : NULL;
  g_autoptr(GnnTensor) f = e ? gnn_tensor_flatten (e, 0, -1, error) : NULL;
  g_autoptr(GnnTensor) f2 = f ? gnn_tensor_narrow (f, 0, 0, 12, error) : NULL;
  return f2 ? gnn_tensor_mul (r, f2, error) : NULL;
}

static GnnTensor *
f_cast (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) c = gnn_tensor_clone (x, error);
  g_autoptr(GnnTensor) t = c ? gnn_tensor_t (c, error) : NULL;
  g_autoptr(GnnTensor) cc = t ? gnn_tensor_contiguous (t, error) : NULL;
  return cc ? gnn_tensor_mul (cc, cc, error) : NULL;
}

static void
test_gradcheck (void)
{
  double v[24];
  g_autoptr(GnnTensor) x = NULL, y = NULL;

  for (int i = 0; i < 24; i++)
    v[i] = sin (i * 0.7) * 2;
  x = gnn_test_tensor_d (v, 24, GNN_TEST_SHAPE (2, 3, 4), 3);
  gnn_test_gradcheck (f_views, NULL, x, 1e-6, 1e-6);
  y = gnn_test_tensor_d (v, 6, GNN_TEST_SHAPE (2, 3), 2);
  gnn_test_gradcheck (f_cast, NULL, y, 1e-6, 1e-6);
}

static void
test_view_grad_accumulates_in_base (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) a = NULL, b = NULL, s = NULL, t = NULL;

  gnn_tensor_set_requires_grad (x, TRUE, NULL);
  OK (a = gnn_tensor_select (x, 0, 0, &error));
  OK (b = gnn_tensor_select (x, 1, 1, &error));
  OK (t = gnn_tensor_mul (a, b, &error));
  OK (s = gnn_tensor_sum_all (t, &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  /* a = x[0, :], b = x[:, 1]: s = x00 x01 + x01 x11 */
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (2, 5, 0, 2), 4, 0, 1e-12);
}

/* x (2, 3, 4): chunk, split by sizes, unbind, tensor_split, movedim, diagonal, each piece
 * weighted differently so that a gradient landing in the wrong place shows */
static GnnTensor *
f_pieces (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GPtrArray) ch = gnn_tensor_chunk (x, 2, -1, error);
  g_autoptr(GPtrArray) sp = ch ? gnn_tensor_split_with_sizes (x, GNN_TEST_SHAPE (1, 2), 2, 1, error) : NULL;
  g_autoptr(GPtrArray) ub = sp ? gnn_tensor_unbind (x, 0, error) : NULL;
  g_autoptr(GPtrArray) ts = ub ? gnn_tensor_tensor_split_indices (x, GNN_TEST_SHAPE (1, -1), 2, 2, error) : NULL;
  g_autoptr(GnnTensor) m = ts ? gnn_tensor_movedim (x, (const int[]) { 0, 2 }, 2, (const int[]) { 2, 0 }, 2, error) : NULL;
  g_autoptr(GnnTensor) dg = m ? gnn_tensor_diagonal (m, 1, 0, 1, error) : NULL;
  g_autoptr(GnnTensor) a = NULL, b = NULL, c = NULL, d = NULL, e = NULL, f = NULL, g = NULL, h = NULL;

  if (dg == NULL)
    return NULL;
  /* ch[1] (2, 3, 2) * sp[1] (2, 2, 4) narrowed to (2, 2, 2), ub[1] (3, 4), ts[1] (2, 3, 2) */
  if (!(a = gnn_tensor_narrow (g_ptr_array_index (sp, 1), 2, 1, 2, error)) ||
      !(b = gnn_tensor_narrow (g_ptr_array_index (ch, 1), 1, 0, 2, error)) ||
      !(c = gnn_tensor_mul (a, b, error)) ||
      !(d = gnn_tensor_mul_scalar (g_ptr_array_index (ub, 1), 3, error)) ||
      !(e = gnn_tensor_mul (g_ptr_array_index (ts, 1), g_ptr_array_index (ts, 1), error)) ||
      !(f = gnn_tensor_sum_all (c, error)) || !(g = gnn_tensor_add (f, d, 1, error)) ||
      !(h = gnn_tensor_sum_all (e, error)))
    return NULL;
  {
    g_autoptr(GnnTensor) gh = gnn_tensor_add (g, h, 1, error);
    g_autoptr(GnnTensor) dd = gh ? gnn_tensor_mul (dg, dg, error) : NULL;
    g_autoptr(GnnTensor) ds = dd ? gnn_tensor_sum_all (dd, error) : NULL;
    return ds ? gnn_tensor_add (gh, ds, 1, error) : NULL;
  }
}

static void
test_pieces (void)
{
  g_autoptr(GError) error = NULL;
  double v[24];
  g_autoptr(GnnTensor) x = NULL, m = NULL, dg = NULL;
  g_autoptr(GPtrArray) ch = NULL, sp = NULL, ub = NULL, ts = NULL, z = NULL;

  for (int i = 0; i < 24; i++)
    v[i] = i;
  x = gnn_test_tensor_d (v, 24, GNN_TEST_SHAPE (2, 3, 4), 3);
  /* chunk (3) of 4 gives two pieces of 2, as PyTorch */
  OK (ch = gnn_tensor_chunk (x, 3, 2, &error));
  g_assert_cmpuint (ch->len, ==, 2);
  gnn_test_assert_shape (g_ptr_array_index (ch, 1), GNN_TEST_SHAPE (2, 3, 2), 3);
  g_assert_true (gnn_tensor_get_base (g_ptr_array_index (ch, 1)) == x);
  g_assert_cmpint (gnn_tensor_get_storage_offset (g_ptr_array_index (ch, 1)), ==, 2);
  OK (sp = gnn_tensor_split (x, 2, 1, &error));
  g_assert_cmpuint (sp->len, ==, 2);
  gnn_test_assert_shape (g_ptr_array_index (sp, 1), GNN_TEST_SHAPE (2, 1, 4), 3);
  OK (ub = gnn_tensor_unbind (x, 1, &error));
  g_assert_cmpuint (ub->len, ==, 3);
  gnn_test_assert_close (g_ptr_array_index (ub, 2), GNN_TEST_DATA (8, 9, 10, 11, 20, 21, 22, 23), 8, 0, 0);
  OK (ts = gnn_tensor_tensor_split (x, 3, 2, &error));
  g_assert_cmpuint (ts->len, ==, 3);
  gnn_test_assert_shape (g_ptr_array_index (ts, 0), GNN_TEST_SHAPE (2, 3, 2), 3);
  gnn_test_assert_shape (g_ptr_array_index (ts, 2), GNN_TEST_SHAPE (2, 3, 1), 3);
  OK (m = gnn_tensor_movedim (x, (const int[]) { 0 }, 1, (const int[]) { -1 }, 1, &error));
  gnn_test_assert_shape (m, GNN_TEST_SHAPE (3, 4, 2), 3);
  OK (dg = gnn_tensor_diagonal (x, -1, 1, 2, &error));
  gnn_test_assert_shape (dg, GNN_TEST_SHAPE (2, 2), 2);
  gnn_test_assert_close (dg, GNN_TEST_DATA (4, 9, 16, 21), 4, 0, 0);
  gnn_test_gradcheck (f_pieces, NULL, x, 1e-6, 1e-6);
  /* an empty dim still gives @chunks empty pieces */
  {
    g_autoptr(GnnTensor) e = gnn_tensor_narrow (x, 2, 0, 0, &error);
    OK (z = gnn_tensor_chunk (e, 3, 2, &error));
    g_assert_cmpuint (z->len, ==, 3);
  }
}

static void
test_pieces_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (0, 1, 2, 3, 4, 5), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) s = gnn_test_tensor_d (GNN_TEST_DATA (1), 1, NULL, 0);

  g_assert_null (gnn_tensor_chunk (a, 0, 1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_split (s, 1, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_split (a, 0, 1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_split_with_sizes (a, GNN_TEST_SHAPE (1, 1), 2, 1, &error));
  g_assert_nonnull (strstr (error->message, "sum exactly to 3"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_unbind (s, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_tensor_split (a, 0, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_movedim (a, (const int[]) { 0, 0 }, 2, (const int[]) { 0, 1 }, 2, &error));
  g_assert_nonnull (strstr (error->message, "repeated dim in `source` ([0, 0])"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_diagonal (a, 0, 1, -1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_diagonal (s, 0, 0, 1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
}

/* pad with the mode given as data, two dimensions padded (one cropped in part) */
static GnnTensor *
f_pad (GnnTensor *x, gpointer data, GError **error)
{
  const char *mode = data;
  gboolean constant = g_str_equal (mode, "constant");
  g_autoptr(GnnTensor) p = gnn_tensor_pad (x, GNN_TEST_SHAPE (2, -1, 1, constant ? 3 : 1), 4, mode,
                                           constant ? 0.5 : 0.0, error);

  return p ? gnn_tensor_mul (p, p, error) : NULL;
}

static void
test_pad (void)
{
  static const char *const modes[] = { "constant", "reflect", "replicate", "circular" };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0, 1, 2, 3, 4, 5), 6, GNN_TEST_SHAPE (1, 2, 3), 3);
  g_autoptr(GnnTensor) c = NULL, r = NULL, e = NULL, w = NULL, g = NULL;
  double v[24];

  /* each mode's values: the last dimension padded by (2, 1) */
  OK (c = gnn_tensor_pad (x, GNN_TEST_SHAPE (2, 1), 2, NULL, -1, &error));
  gnn_test_assert_close (c, GNN_TEST_DATA (-1, -1, 0, 1, 2, -1, -1, -1, 3, 4, 5, -1), 12, 0, 0);
  OK (r = gnn_tensor_pad (x, GNN_TEST_SHAPE (2, 1), 2, "reflect", 0, &error));
  gnn_test_assert_close (r, GNN_TEST_DATA (2, 1, 0, 1, 2, 1, 5, 4, 3, 4, 5, 4), 12, 0, 0);
  OK (e = gnn_tensor_pad (x, GNN_TEST_SHAPE (2, 1), 2, "replicate", 0, &error));
  gnn_test_assert_close (e, GNN_TEST_DATA (0, 0, 0, 1, 2, 2, 3, 3, 3, 4, 5, 5), 12, 0, 0);
  OK (w = gnn_tensor_pad (x, GNN_TEST_SHAPE (2, 1), 2, "circular", 0, &error));
  gnn_test_assert_close (w, GNN_TEST_DATA (1, 2, 0, 1, 2, 0, 4, 5, 3, 4, 5, 3), 12, 0, 0);
  /* negative pads crop: constant (-1, 0) over both dimensions */
  OK (g = gnn_tensor_pad (x, GNN_TEST_SHAPE (-1, 0, 0, -1), 4, "constant", 0, &error));
  gnn_test_assert_shape (g, GNN_TEST_SHAPE (1, 1, 2), 3);
  gnn_test_assert_close (g, GNN_TEST_DATA (1, 2), 2, 0, 0);

  /* errors name the op and what was found */
  g_assert_null (gnn_tensor_pad (x, GNN_TEST_SHAPE (1), 1, NULL, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_pad (x, GNN_TEST_SHAPE (3, 0), 2, "reflect", 0, &error));
  g_assert_nonnull (strstr (error->message, "padding (3, 0) at dimension 2 of input [1, 2, 3]"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_pad (x, GNN_TEST_SHAPE (1, 1), 2, "wrap", 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_pad (x, GNN_TEST_SHAPE (-2, -2), 2, "constant", 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_pad (x, GNN_TEST_SHAPE (1, 1), 2, "replicate", 1, &error));
  g_assert_nonnull (strstr (error->message, "doesn't take in value"));
  g_clear_error (&error);

  /* gradients, and their own gradients, in float64 */
  for (int i = 0; i < 24; i++)
    v[i] = sin (i * 0.9) * 2;
  {
    g_autoptr(GnnTensor) y = gnn_test_tensor_d (v, 24, GNN_TEST_SHAPE (1, 2, 3, 4), 4);

    for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
      {
        gnn_test_gradcheck (f_pad, (gpointer) modes[m], y, 1e-6, 1e-6);
        gnn_test_gradgradcheck (f_pad, (gpointer) modes[m], y, 1e-6, 1e-5);
      }
  }
}

/* flip of two dimensions, then a roll of one and a roll of the flattened tensor */
static GnnTensor *
f_flip_roll (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) f = gnn_tensor_flip (x, (const int[]) { 0, -1 }, 2, error);
  g_autoptr(GnnTensor) r = f ? gnn_tensor_roll (f, GNN_TEST_SHAPE (-5), 1, (const int[]) { 1 }, 1, error) : NULL;
  g_autoptr(GnnTensor) a = r ? gnn_tensor_roll (r, GNN_TEST_SHAPE (7), 1, NULL, 0, error) : NULL;

  return a ? gnn_tensor_mul (a, a, error) : NULL;
}

static void
test_flip_roll (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0, 1, 2, 3, 4, 5), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) f = NULL, r = NULL, a = NULL, y = NULL;
  double v[24];

  OK (f = gnn_tensor_flip (x, (const int[]) { 1 }, 1, &error));
  gnn_test_assert_close (f, GNN_TEST_DATA (2, 1, 0, 5, 4, 3), 6, 0, 0);
  OK (r = gnn_tensor_roll (x, GNN_TEST_SHAPE (1, -1), 2, (const int[]) { 1, 0 }, 2, &error));
  gnn_test_assert_close (r, GNN_TEST_DATA (5, 3, 4, 2, 0, 1), 6, 0, 0);
  OK (a = gnn_tensor_roll (x, GNN_TEST_SHAPE (2), 1, NULL, 0, &error));
  gnn_test_assert_shape (a, GNN_TEST_SHAPE (2, 3), 2);
  gnn_test_assert_close (a, GNN_TEST_DATA (4, 5, 0, 1, 2, 3), 6, 0, 0);

  g_assert_null (gnn_tensor_flip (x, (const int[]) { 0, -2 }, 2, &error));
  g_assert_nonnull (strstr (error->message, "dim 0 appears multiple times"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_roll (x, GNN_TEST_SHAPE (1, 2), 2, (const int[]) { 0 }, 1, &error));
  g_assert_nonnull (strstr (error->message, "shifts: 2, dims: 1"));
  g_clear_error (&error);

  for (int i = 0; i < 24; i++)
    v[i] = cos (i * 0.8) * 2;
  y = gnn_test_tensor_d (v, 24, GNN_TEST_SHAPE (2, 3, 4), 3);
  gnn_test_gradcheck (f_flip_roll, NULL, y, 1e-6, 1e-6);
  gnn_test_gradgradcheck (f_flip_roll, NULL, y, 1e-6, 1e-5);
}

/* diag, diag_embed, trace, rot90 and diff of one 3 × 4 input, summed into one value */
static GnnTensor *
f_diagonals (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) d = gnn_tensor_diag (x, 1, error);
  g_autoptr(GnnTensor) e = d ? gnn_tensor_diag_embed (d, -1, 0, 1, error) : NULL;
  g_autoptr(GnnTensor) tr = e ? gnn_tensor_trace (x, error) : NULL;
  g_autoptr(GnnTensor) r = tr ? gnn_tensor_rot90 (x, 3, (const int[]) { 0, 1 }, 2, error) : NULL;
  g_autoptr(GnnTensor) df = r ? gnn_tensor_diff (r, 2, 0, NULL, r, error) : NULL;
  g_autoptr(GnnTensor) e2 = df ? gnn_tensor_mul (e, e, error) : NULL;
  g_autoptr(GnnTensor) s1 = e2 ? gnn_tensor_sum (e2, NULL, 0, FALSE, error) : NULL;
  g_autoptr(GnnTensor) df2 = s1 ? gnn_tensor_mul (df, df, error) : NULL;
  g_autoptr(GnnTensor) s2 = df2 ? gnn_tensor_sum (df2, NULL, 0, FALSE, error) : NULL;
  g_autoptr(GnnTensor) t2 = s2 ? gnn_tensor_mul (tr, tr, error) : NULL;
  g_autoptr(GnnTensor) a = t2 ? gnn_tensor_add (s1, s2, 1.0, error) : NULL;
  return a ? gnn_tensor_add (a, t2, 1.0, error) : NULL;
}

static void
test_diagonals (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0, 1, 2, 3, 4, 5), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) v = gnn_test_tensor_d (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) d = NULL, m = NULL, tr = NULL, r = NULL, df = NULL, lo = NULL, hi = NULL, y = NULL;
  double w[12];

  OK (d = gnn_tensor_diag (x, 1, &error));
  gnn_test_assert_close (d, GNN_TEST_DATA (1, 5), 2, 0, 0);
  OK (m = gnn_tensor_diag (v, -1, &error));
  gnn_test_assert_shape (m, GNN_TEST_SHAPE (3, 3), 2);
  gnn_test_assert_close (m, GNN_TEST_DATA (0, 0, 0, 1, 0, 0, 0, 2, 0), 9, 0, 0);
  OK (tr = gnn_tensor_trace (x, &error));
  gnn_test_assert_close (tr, GNN_TEST_DATA (4), 1, 0, 0);
  OK (r = gnn_tensor_rot90 (x, 1, (const int[]) { 0, 1 }, 2, &error));
  gnn_test_assert_close (r, GNN_TEST_DATA (2, 5, 1, 4, 0, 3), 6, 0, 0);
  OK (df = gnn_tensor_diff (x, 1, 1, NULL, NULL, &error));
  gnn_test_assert_close (df, GNN_TEST_DATA (1, 1, 1, 1), 4, 0, 0);
  OK (lo = gnn_tril_indices (2, 3, 0, &error));
  gnn_test_assert_shape (lo, GNN_TEST_SHAPE (2, 3), 2);
  OK (hi = gnn_triu_indices (0, 3, 0, &error));
  gnn_test_assert_shape (hi, GNN_TEST_SHAPE (2, 0), 2);

  g_assert_null (gnn_tensor_trace (v, &error));
  g_assert_nonnull (strstr (error->message, "expected a matrix"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_rot90 (x, 1, (const int[]) { 1, -1 }, 2, &error));
  g_assert_nonnull (strstr (error->message, "rotation dims to be different"));
  g_clear_error (&error);
  g_assert_null (gnn_tril_indices (-1, 3, 0, &error));
  g_assert_nonnull (strstr (error->message, "row must be non-negative"));
  g_clear_error (&error);

  for (int i = 0; i < 12; i++)
    w[i] = sin (i * 0.9) * 2;
  y = gnn_test_tensor_d (w, 12, GNN_TEST_SHAPE (3, 4), 2);
  gnn_test_gradcheck (f_diagonals, NULL, y, 1e-6, 1e-6);
  gnn_test_gradgradcheck (f_diagonals, NULL, y, 1e-6, 1e-5);
}

/* cov (weighted), corrcoef, inner, vander and trapezoid of one 3 × 4 input, summed */
static GnnTensor *
f_numeric (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) fw = gnn_tensor_new_from_int64s ((const gint64[]) { 1, 2, 1, 3 }, 4, GNN_TEST_SHAPE (4), 1, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_cov (x, 1, fw, NULL, error);
  g_autoptr(GnnTensor) r = c ? gnn_tensor_corrcoef (x, error) : NULL;
  g_autoptr(GnnTensor) in = r ? gnn_tensor_inner (x, x, error) : NULL;
  g_autoptr(GnnTensor) row = in ? gnn_tensor_select (x, 0, 1, error) : NULL;
  g_autoptr(GnnTensor) v = row ? gnn_tensor_vander (row, 3, FALSE, error) : NULL;
  g_autoptr(GnnTensor) tz = v ? gnn_tensor_trapezoid (x, NULL, 0.5, 0, error) : NULL;
  GnnTensor *parts[5] = { c, r, in, v, tz };
  g_autoptr(GnnTensor) total = NULL;

  if (tz == NULL)
    return NULL;
  for (guint k = 0; k < 5; k++)
    {
      g_autoptr(GnnTensor) sq = gnn_tensor_mul (parts[k], parts[k], error);
      g_autoptr(GnnTensor) s = sq ? gnn_tensor_sum (sq, NULL, 0, FALSE, error) : NULL;
      GnnTensor *next;

      if (s == NULL)
        return NULL;
      next = total ? gnn_tensor_add (total, s, 1.0, error) : g_object_ref (s);
      g_clear_object (&total);
      if ((total = next) == NULL)
        return NULL;
    }
  return g_steal_pointer (&total);
}

static void
test_numeric (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 4, 7, 0, 1, 0, 1), 8, GNN_TEST_SHAPE (2, 4), 2);
  g_autoptr(GnnTensor) c = NULL, v = NULL, t = NULL, y = NULL;
  double w[12];

  OK (c = gnn_tensor_cov (x, 1, NULL, NULL, &error));
  /* numpy.cov ([[1, 2, 4, 7], [0, 1, 0, 1]]) */
  gnn_test_assert_close (c, GNN_TEST_DATA (7.0, 2.0 / 3.0, 2.0 / 3.0, 1.0 / 3.0), 4, 1e-12, 1e-12);
  g_autoptr(GnnTensor) pair = gnn_test_tensor_d (GNN_TEST_DATA (2, 3), 2, GNN_TEST_SHAPE (2), 1);

  OK (v = gnn_tensor_vander (pair, 3, TRUE, &error));
  gnn_test_assert_close (v, GNN_TEST_DATA (1, 2, 4, 1, 3, 9), 6, 0, 0);
  OK (t = gnn_tensor_trapezoid (x, NULL, 1.0, 1, &error));
  gnn_test_assert_close (t, GNN_TEST_DATA (10.0, 1.5), 2, 1e-12, 1e-12);
  g_clear_object (&t);
  t = gnn_test_tensor_d (GNN_TEST_DATA (1, 1, 1, 1), 4, GNN_TEST_SHAPE (4), 1);
  g_assert_null (gnn_tensor_cov (x, 1, x, NULL, &error));
  g_assert_nonnull (strstr (error->message, "fweights to have one or fewer dimensions"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_cov (x, 1, t, NULL, &error));
  g_assert_nonnull (strstr (error->message, "fweights to have integral dtype"));
  g_clear_error (&error);

  for (int i = 0; i < 12; i++)
    w[i] = sin (i * 0.7) * 2 + 0.1 * i;
  y = gnn_test_tensor_d (w, 12, GNN_TEST_SHAPE (3, 4), 2);
  gnn_test_gradcheck (f_numeric, NULL, y, 1e-6, 1e-5);
  gnn_test_gradgradcheck (f_numeric, NULL, y, 1e-6, 1e-4);
}

/* block_diag of x and its first row, and the Cartesian product of two of its rows, summed */
static GnnTensor *
f_blocks (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) r0 = gnn_tensor_select (x, 0, 0, error);
  g_autoptr(GnnTensor) r1 = r0 ? gnn_tensor_select (x, 0, 1, error) : NULL;
  GnnTensor *blocks[2] = { x, r0 }, *rows[2] = { r0, r1 };
  g_autoptr(GnnTensor) bd = r1 ? gnn_block_diag (blocks, 2, error) : NULL;
  g_autoptr(GnnTensor) cp = bd ? gnn_cartesian_prod (rows, 2, error) : NULL;
  g_autoptr(GnnTensor) b2 = cp ? gnn_tensor_mul (bd, bd, error) : NULL;
  g_autoptr(GnnTensor) c2 = b2 ? gnn_tensor_mul (cp, cp, error) : NULL;
  g_autoptr(GnnTensor) s1 = c2 ? gnn_tensor_sum (b2, NULL, 0, FALSE, error) : NULL;
  g_autoptr(GnnTensor) s2 = s1 ? gnn_tensor_sum (c2, NULL, 0, FALSE, error) : NULL;

  return s2 ? gnn_tensor_add (s1, s2, 1.0, error) : NULL;
}

static void
test_blocks (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (3), 1, GNN_TEST_SHAPE (1), 1);
  g_autoptr(GnnTensor) bd = NULL, cp = NULL, y = NULL;
  GnnTensor *pair[2] = { a, b };
  double w[6];

  OK (bd = gnn_block_diag (pair, 2, &error));
  gnn_test_assert_shape (bd, GNN_TEST_SHAPE (2, 3), 2);
  gnn_test_assert_close (bd, GNN_TEST_DATA (1, 2, 0, 0, 0, 3), 6, 0, 0);
  OK (cp = gnn_cartesian_prod (pair, 2, &error));
  gnn_test_assert_close (cp, GNN_TEST_DATA (1, 3, 2, 3), 4, 0, 0);
  for (int i = 0; i < 6; i++)
    w[i] = cos (i * 1.3);
  y = gnn_test_tensor_d (w, 6, GNN_TEST_SHAPE (2, 3), 2);
  gnn_test_gradcheck (f_blocks, NULL, y, 1e-6, 1e-6);
  gnn_test_gradgradcheck (f_blocks, NULL, y, 1e-6, 1e-5);
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/ops/shape/views-share-storage", test_views_share_storage);
  g_test_add_func ("/ops/shape/errors", test_errors);
  g_test_add_func ("/ops/shape/gradcheck", test_gradcheck);
  g_test_add_func ("/ops/shape/view-grad-in-base", test_view_grad_accumulates_in_base);
  g_test_add_func ("/ops/shape/pieces", test_pieces);
  g_test_add_func ("/ops/shape/pieces-errors", test_pieces_errors);
  g_test_add_func ("/ops/shape/pad", test_pad);
  g_test_add_func ("/ops/shape/flip-roll", test_flip_roll);
  g_test_add_func ("/ops/shape/diagonals", test_diagonals);
  g_test_add_func ("/ops/shape/numeric", test_numeric);
  g_test_add_func ("/ops/shape/blocks", test_blocks);
  return g_test_run ();
}
