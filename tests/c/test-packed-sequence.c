/* test-packed-sequence.c: GnnPackedSequence, the packing functions, their errors, and a float64
 * gradcheck of an LSTM over a packed batch (test_packed_sequence.py compares them with PyTorch)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-test-util.h"
#include "gnn-module-private.h"

static GnnTensor *
lengths_of (const gint64 *v, gsize n)
{
  g_autoptr(GError) error = NULL;
  gint64 shape[1] = { (gint64) n };
  GnnTensor *t = gnn_tensor_new_from_int64s (v, n, shape, 1, &error);

  g_assert_no_error (error);
  return t;
}

static void
test_pack (void)
{
  g_autoptr(GError) error = NULL;
  double xs[12] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
  /* (T=4, B=3, 1): x[t][b] = 3 t + b */
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (xs, 12, GNN_TEST_SHAPE (4, 3, 1), 3);
  g_autoptr(GnnTensor) lengths = lengths_of ((gint64[]) { 2, 4, 1 }, 3);
  g_autoptr(GnnPackedSequence) p = gnn_pack_padded_sequence (x, lengths, FALSE, FALSE, &error);
  g_autoptr(GnnTensor) back_lengths = NULL, padded = NULL;
  g_autofree gint64 *bs = NULL;
  gsize n = 0;

  g_assert_no_error (error);
  /* sorted order: batch 1 (4), 0 (2), 2 (1) */
  gnn_test_assert_close (gnn_packed_sequence_get_data (p), (double[]) { 1, 0, 2, 4, 3, 7, 10 }, 7, 0, 0);
  bs = gnn_tensor_to_int64s (gnn_packed_sequence_get_batch_sizes (p), &n, NULL);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpint (bs[0], ==, 3);
  g_assert_cmpint (bs[1], ==, 2);
  g_assert_cmpint (bs[2], ==, 1);
  g_assert_cmpint (bs[3], ==, 1);
  padded = gnn_pad_packed_sequence (p, TRUE, -1.0, 5, &back_lengths, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (padded, GNN_TEST_SHAPE (3, 5, 1), 3);
  gnn_test_assert_close (padded, (double[]) { 0, 3, -1, -1, -1, 1, 4, 7, 10, -1, 2, -1, -1, -1, -1 }, 15, 0, 0);
  gnn_test_assert_close (back_lengths, (double[]) { 2, 4, 1 }, 3, 0, 0);
}

static void
test_errors (void)
{
  g_autoptr(GnnTensor) x = gnn_tensor_new_zeros (GNN_TEST_SHAPE (5, 3, 2), 3, GNN_DTYPE_FLOAT32, NULL, NULL);
  struct { gint64 v[3]; gsize n; const char *text; } cases[] = {
    { { 2, 4, 1 }, 3, "enforce_sorted=False" },
    { { 6, 4, 1 }, 3, "at most" },
    { { 4, 2, 0 }, 3, "greater than 0" },
    { { 4, 2 }, 2, "batch_size" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) lengths = lengths_of (cases[i].v, cases[i].n);
      g_autoptr(GnnPackedSequence) p = gnn_pack_padded_sequence (x, lengths, FALSE, TRUE, &error);

      g_assert_null (p);
      g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
      g_assert_nonnull (strstr (error->message, cases[i].text));
    }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GnnTensor) lengths = lengths_of ((gint64[]) { 4, 2, 1 }, 3);
    g_autoptr(GnnPackedSequence) p = gnn_pack_padded_sequence (x, lengths, FALSE, TRUE, &error);
    g_autoptr(GnnTensor) padded = NULL, two_d = NULL;
    g_autoptr(GnnTensor) s = NULL;
    g_autoptr(GnnPackedSequence) q = NULL;

    g_assert_no_error (error);
    padded = gnn_pad_packed_sequence (p, FALSE, 0.0, 3, NULL, &error);
    g_assert_null (padded);
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "total_length=3"));
    g_clear_error (&error);
    g_assert_null (gnn_pad_sequence (NULL, 0, FALSE, 0.0, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
    g_assert_nonnull (strstr (error->message, "empty list"));
    g_clear_error (&error);
    two_d = gnn_tensor_new_zeros (GNN_TEST_SHAPE (1, 3), 2, GNN_DTYPE_INT64, NULL, NULL);
    q = gnn_pack_padded_sequence (x, two_d, FALSE, TRUE, &error);
    g_assert_null (q);
    g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
    g_assert_nonnull (strstr (error->message, "1D"));
  }
}

static GnnTensor *
packed_lstm_fn (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) lengths = lengths_of ((gint64[]) { 2, 3, 1 }, 3);
  g_autoptr(GnnPackedSequence) p = gnn_pack_padded_sequence (x, lengths, FALSE, FALSE, error);
  g_autoptr(GnnArgs) in = NULL, out = NULL;
  g_autoptr(GnnTensor) sq = NULL, s1 = NULL, s2 = NULL;
  GValue v = G_VALUE_INIT;
  GnnPackedSequence *y;

  if (p == NULL)
    return NULL;
  in = gnn_args_new ();
  g_value_init (&v, GNN_TYPE_PACKED_SEQUENCE);
  g_value_set_object (&v, p);
  gnn_args_add_value (in, &v);
  g_value_unset (&v);
  if (!(out = gnn_module_forward (GNN_MODULE (data), in, error)))
    return NULL;
  y = g_value_get_object (gnn_args_get_value (out, 0));
  if (!(sq = gnn_tensor_mul (gnn_packed_sequence_get_data (y), gnn_packed_sequence_get_data (y), error)) ||
      !(s1 = gnn_tensor_sum_all (sq, error)) ||
      !(s2 = gnn_tensor_sum_all (gnn_args_get_tensor (out, 1, NULL), error)))
    return NULL;
  return gnn_tensor_add (s1, s2, 1.0, error);
}

static void
test_gradcheck (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) lstm = GNN_MODULE (g_object_new (GNN_TYPE_LSTM, "input-size", 2, "hidden-size", 3,
                                                        "num-layers", 2, "bidirectional", TRUE, "proj-size", 2,
                                                        "dtype", GNN_DTYPE_FLOAT64, NULL));
  g_autoptr(GnnTensor) x = NULL;

  g_assert_true (gnn_module_ensure_setup (lstm, &error));
  g_assert_no_error (error);
  gnn_manual_seed (5);
  x = gnn_tensor_new_randn (GNN_TEST_SHAPE (3, 3, 2), 3, NULL, GNN_DTYPE_FLOAT64, NULL, &error);
  g_assert_no_error (error);
  gnn_test_gradcheck (packed_lstm_fn, lstm, x, 1e-6, 1e-5);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/packed-sequence/pack", test_pack);
  g_test_add_func ("/packed-sequence/errors", test_errors);
  g_test_add_func ("/packed-sequence/gradcheck", test_gradcheck);
  return g_test_run ();
}
