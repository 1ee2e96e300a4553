/* test-prune.c: pruning a module's tensors (torch.nn.utils.prune): the reparametrization
 * (weight_orig, weight_mask, the recomputing hook), iterative pruning, remove, the methods'
 * masks and the errors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "gnn-test-util.h"
#include "gnn-module-private.h"
#include "nn/gnn-prune.h"
#include "nn/gnn-prune-report.h"

/* w (2, 3), |w| distinct: 0.5 -2 3 | -0.1 4 1.5 */
static const double WS[6] = { 0.5, -2, 3, -0.1, 4, 1.5 };

static GnnModule *
linear_2_3 (void)
{
  g_autoptr(GError) error = NULL;
  GnnModule *m = GNN_MODULE (gnn_linear_new (3, 2, TRUE, &error));
  g_autoptr(GnnTensor) w = gnn_test_tensor_d (WS, 6, GNN_TEST_SHAPE (2, 3), 2);

  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

  g_assert_no_error (error);
  g_assert_true (gnn_module_to_dtype (m, GNN_DTYPE_FLOAT64, &error));
  g_assert_true (gnn_tensor_copy_ (GNN_TENSOR (gnn_module_get_parameter (m, "weight", NULL)), w, &error));
  g_assert_true (gnn_init_zeros_ (GNN_TENSOR (gnn_module_get_parameter (m, "bias", NULL)), &error));
  g_assert_no_error (error);
  return m;
}

static void
assert_tensor (GnnModule *m, const char *name, const double *want, gsize n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_module_get_tensor (m, name, &error);

  g_assert_no_error (error);
  gnn_test_assert_close (t, want, n, 0, 0);
}

static void
assert_names (GPtrArray *(*list) (GnnModule *, const char *, gboolean, gboolean, char ***), GnnModule *m,
              const char *want)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) items = list (m, "", TRUE, TRUE, &names);
  g_autofree char *joined = g_strjoinv (",", names);

  g_assert_cmpstr (joined, ==, want);
}

static void
test_l1_reparametrization (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = linear_2_3 ();
  const double mask2[6] = { 0, 1, 1, 0, 1, 1 }, pruned2[6] = { 0, -2, 3, 0, 4, 1.5 };
  const double xs[3] = { 1, 1, 1 };
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (xs, 3, GNN_TEST_SHAPE (1, 3), 2);
  g_autoptr(GnnTensor) y = NULL, loss = NULL;
  g_autoptr(GnnStateDict) sd = NULL;
  g_auto(GStrv) keys = NULL;
  g_autofree char *joined = NULL;
  GnnParameter *orig;

  g_assert_false (gnn_prune_is_pruned (m));
  g_assert_true (gnn_prune_l1_unstructured (m, "weight", 2, TRUE, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_prune_is_pruned (m));
  g_assert_true (GNN_IS_L1_UNSTRUCTURED (gnn_prune_get_method (m, "weight")));
  g_assert_cmpstr (gnn_base_pruning_method_get_tensor_name (gnn_prune_get_method (m, "weight")), ==, "weight");

  /* weight_orig (the parameter object that was weight), weight_mask, weight = orig · mask */
  assert_names (gnn_module_named_parameters, m, "bias,weight_orig");
  assert_names (gnn_module_named_buffers, m, "weight_mask");
  assert_tensor (m, "weight_orig", WS, 6);
  assert_tensor (m, "weight_mask", mask2, 6);
  assert_tensor (m, "weight", pruned2, 6);
  g_assert_null (gnn_module_find_parameter (m, "weight"));
  sd = gnn_module_state_dict (m, NULL, FALSE, &error);
  g_assert_no_error (error);
  keys = gnn_state_dict_get_keys (sd);
  joined = g_strjoinv (",", keys);
  g_assert_cmpstr (joined, ==, "bias,weight_orig,weight_mask");

  /* the forward pre-hook recomputes weight from what weight_orig holds now */
  orig = gnn_module_get_parameter (m, "weight_orig", &error);
  g_assert_true (gnn_init_ones_ (GNN_TENSOR (orig), &error));
  g_assert_no_error (error);
  y = gnn_module_forward_tensor (m, x, &error);
  g_assert_no_error (error);
  {
    const double want[2] = { 2, 2 };
    gnn_test_assert_close (y, want, 2, 0, 0);
    assert_tensor (m, "weight", mask2, 6);
  }
  /* gradients reach weight_orig through the mask */
  loss = gnn_tensor_sum (y, NULL, 0, FALSE, &error);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_no_error (error);
  gnn_test_assert_close (gnn_tensor_get_grad (GNN_TENSOR (orig)), mask2, 6, 0, 0);
}

static void
test_iterative_and_remove (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = linear_2_3 ();
  const double mask1[6] = { 0, 1, 1, 0, 1, 1 }, mask2[6] = { 0, 0, 1, 0, 1, 0 };
  const double pruned[6] = { 0, 0, 3, 0, 4, 0 };
  GnnBasePruningMethod *method;
  GnnParameter *orig, *w;
  guint n_hooks;

  g_assert_true (gnn_prune_l1_unstructured (m, "weight", 1.0 / 3.0, FALSE, NULL, &error));
  g_assert_no_error (error);
  assert_tensor (m, "weight_mask", mask1, 6);
  n_hooks = gnn_module_priv (m)->forward_hooks->len;
  g_assert_cmpuint (n_hooks, ==, 1);
  orig = gnn_module_get_parameter (m, "weight_orig", NULL);

  /* half of the 4 still unpruned: 1.5 and -2 (the smallest), not the pruned 0.5 and -0.1 again */
  g_assert_true (gnn_prune_l1_unstructured (m, "weight", 0.5, FALSE, NULL, &error));
  g_assert_no_error (error);
  assert_tensor (m, "weight_mask", mask2, 6);
  assert_tensor (m, "weight", pruned, 6);
  assert_tensor (m, "weight_orig", WS, 6);
  method = gnn_prune_get_method (m, "weight");
  g_assert_true (GNN_IS_PRUNING_CONTAINER (method));
  g_assert_cmpuint (gnn_pruning_container_get_n_methods (GNN_PRUNING_CONTAINER (method)), ==, 2);
  g_assert_cmpuint (gnn_module_priv (m)->forward_hooks->len, ==, 1);
  g_assert_true (gnn_module_get_parameter (m, "weight_orig", NULL) == orig);

  /* identity keeps the mask; a third method joins the same container */
  g_assert_true (gnn_prune_identity (m, "weight", &error));
  g_assert_no_error (error);
  assert_tensor (m, "weight_mask", mask2, 6);
  method = gnn_prune_get_method (m, "weight");
  g_assert_cmpuint (gnn_pruning_container_get_n_methods (GNN_PRUNING_CONTAINER (method)), ==, 3);

  /* remove: weight is the same parameter object again, holding the pruned values */
  g_assert_true (gnn_prune_remove (m, "weight", &error));
  g_assert_no_error (error);
  g_assert_false (gnn_prune_is_pruned (m));
  assert_names (gnn_module_named_parameters, m, "bias,weight");
  assert_names (gnn_module_named_buffers, m, "");
  w = gnn_module_get_parameter (m, "weight", &error);
  g_assert_true (w == orig);
  g_assert_true (gnn_tensor_get_requires_grad (GNN_TENSOR (w)));
  gnn_test_assert_close (GNN_TENSOR (w), pruned, 6, 0, 0);
  g_assert_true (gnn_module_priv (m)->forward_hooks == NULL || gnn_module_priv (m)->forward_hooks->len == 0);
  {
    g_auto(GStrv) attrs = gnn_module_list_tensor_attributes (m);
    g_assert_cmpuint (g_strv_length (attrs), ==, 0);
  }

  /* not pruned any more */
  g_assert_false (gnn_prune_remove (m, "weight", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "has to be pruned before pruning can be removed"));
}

static void
test_random_and_custom (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = linear_2_3 ();
  const double custom[6] = { 1, 0, 1, 1, 1, 0 };
  g_autoptr(GnnTensor) cmask = gnn_test_tensor_d (custom, 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) zeros = NULL;
  g_autoptr(GnnTensor) n = NULL, got = NULL;

  /* round (0.25 · 6) = 2 entries pruned: Python's round takes 1.5 to the even 2 */
  g_assert_true (gnn_prune_random_unstructured (m, "weight", 0.25, FALSE, &error));
  g_assert_no_error (error);
  got = gnn_module_get_tensor (m, "weight_mask", &error);
  n = gnn_tensor_count_nonzero (got, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (gnn_tensor_item (n, NULL), ==, 4);
  g_assert_true (gnn_prune_remove (m, "weight", &error));

  /* custom_from_mask on the bias-free entries; a pruned entry of an earlier mask stays pruned */
  g_clear_object (&m);
  m = linear_2_3 ();
  g_assert_true (gnn_prune_custom_from_mask (m, "weight", cmask, &error));
  g_assert_no_error (error);
  assert_tensor (m, "weight_mask", custom, 6);
  g_assert_true (gnn_prune_l1_unstructured (m, "weight", 1, TRUE, NULL, &error));
  g_assert_no_error (error);
  {
    const double want[6] = { 1, 0, 1, 0, 1, 0 };
    assert_tensor (m, "weight_mask", want, 6);
  }

  /* a bad mask shape fails and leaves the pruning as it was */
  zeros = gnn_tensor_new_zeros (GNN_TEST_SHAPE (3, 2), 2, GNN_DTYPE_FLOAT64, NULL, &error);
  g_assert_false (gnn_prune_custom_from_mask (m, "weight", zeros, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  {
    const double want[6] = { 1, 0, 1, 0, 1, 0 };
    assert_tensor (m, "weight_mask", want, 6);
  }
  g_assert_cmpuint (gnn_pruning_container_get_n_methods (GNN_PRUNING_CONTAINER (gnn_prune_get_method (m, "weight"))),
                    ==, 2);
}

static void
expect_error (gboolean ok, GError **error, const char *want)
{
  g_assert_false (ok);
  g_assert_error (*error, GNN_ERROR, (*error)->code);
  if (strstr ((*error)->message, want) == NULL)
    g_error ("expected \"%s\" in \"%s\"", want, (*error)->message);
  /* the module and tensor are named */
  g_assert_nonnull (strstr ((*error)->message, "weight"));
  g_clear_error (error);
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = linear_2_3 ();
  g_autoptr(GnnTensor) scores = gnn_tensor_new_zeros (GNN_TEST_SHAPE (6), 1, GNN_DTYPE_FLOAT64, NULL, NULL);

  expect_error (gnn_prune_l1_unstructured (m, "weight", -1, TRUE, NULL, &error), &error,
                "amount=-1 should either be a float in the range [0, 1] or a non-negative integer");
  expect_error (gnn_prune_l1_unstructured (m, "weight", 1.5, FALSE, NULL, &error), &error,
                "amount=1.5 should either be a float in the range [0, 1] or a non-negative integer");
  expect_error (gnn_prune_random_unstructured (m, "weight", -0.2, FALSE, &error), &error,
                "amount=-0.2 should either");
  expect_error (gnn_prune_l1_unstructured (m, "weight", 7, TRUE, NULL, &error), &error,
                "amount=7 should be smaller than the number of parameters to prune=6");
  expect_error (gnn_prune_l1_unstructured (m, "weight", 0.5, FALSE, scores, &error), &error,
                "importance_scores should have the same shape as parameter weight of Linear");
  expect_error (gnn_prune_l1_unstructured (m, "weights", 0.5, FALSE, NULL, &error), &error,
                "there is no parameter 'weights'");
  /* nothing changed */
  g_assert_false (gnn_prune_is_pruned (m));
  assert_names (gnn_module_named_parameters, m, "weight,bias");
  assert_names (gnn_module_named_buffers, m, "");

  /* the count check also holds among the entries still unpruned */
  g_assert_true (gnn_prune_l1_unstructured (m, "weight", 4, TRUE, NULL, &error));
  g_assert_no_error (error);
  expect_error (gnn_prune_l1_unstructured (m, "weight", 3, TRUE, NULL, &error), &error,
                "amount=3 should be smaller than the number of parameters to prune=2");
  g_assert_true (GNN_IS_L1_UNSTRUCTURED (gnn_prune_get_method (m, "weight")));
}

/* a method subclassed in C: prunes every entry below 1 in value */
typedef struct { GnnBasePruningMethod parent; } BelowOne;
typedef struct { GnnBasePruningMethodClass parent_class; } BelowOneClass;
static GType below_one_get_type (void);
G_DEFINE_TYPE (BelowOne, below_one, GNN_TYPE_BASE_PRUNING_METHOD)

static GnnTensor *
below_one_compute_mask (GnnBasePruningMethod *self, GnnTensor *t, GnnTensor *default_mask, GError **error)
{
  g_autoptr(GnnTensor) keep = gnn_tensor_ge_scalar (t, 1.0, error);
  g_autoptr(GnnTensor) k = keep ? gnn_tensor_to_dtype (keep, gnn_tensor_get_dtype (default_mask), error) : NULL;

  (void) self;
  return k ? gnn_tensor_mul (default_mask, k, error) : NULL;
}

static void
below_one_class_init (BelowOneClass *klass)
{
  GNN_BASE_PRUNING_METHOD_CLASS (klass)->compute_mask = below_one_compute_mask;
}

static void
below_one_init (BelowOne *self)
{
  (void) self;
}

static void
test_subclass (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = linear_2_3 ();
  g_autoptr(GnnBasePruningMethod) method = g_object_new (below_one_get_type (), NULL);
  g_autoptr(GnnTensor) t = gnn_test_tensor_d (WS, 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) pruned = NULL;
  const double mask[6] = { 0, 0, 1, 0, 1, 1 }, want[6] = { 0, 0, 3, 0, 4, 1.5 };

  g_assert_cmpstr (gnn_base_pruning_method_get_pruning_type (method), ==, "unstructured");
  pruned = gnn_base_pruning_method_prune (method, t, NULL, NULL, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (pruned, want, 6, 0, 0);
  g_assert_true (gnn_prune_apply (m, "weight", method, NULL, &error) == method);
  g_assert_no_error (error);
  assert_tensor (m, "weight_mask", mask, 6);
}

static void
test_structured (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = linear_2_3 ();
  g_autoptr(GnnModule) m2 = linear_2_3 ();
  g_autoptr(GnnModule) a = linear_2_3 (), b = linear_2_3 ();
  g_autoptr(GnnBasePruningMethod) l1 = NULL, rs = NULL;
  GnnModule *mods[2];
  const char *names[2] = { "weight", "weight" };

  /* row L2 norms 3.64 and 4.27: row 0 goes; then column L1 norms (of what is left) */
  g_assert_true (gnn_prune_ln_structured (m, "weight", 1, TRUE, 2.0, 0, NULL, &error));
  g_assert_no_error (error);
  {
    const double want[6] = { 0, 0, 0, 1, 1, 1 };
    assert_tensor (m, "weight_mask", want, 6);
  }
  /* column L1 norms 0.6, 6, 4.5: the first goes */
  g_assert_true (gnn_prune_ln_structured (m2, "weight", 1.0 / 3.0, FALSE, 1.0, -1, NULL, &error));
  g_assert_no_error (error);
  {
    const double want[6] = { 0, 1, 1, 0, 1, 1 };
    assert_tensor (m2, "weight_mask", want, 6);
  }
  /* random_structured prunes whole rows */
  g_assert_true (gnn_prune_random_structured (m2, "weight", 1, TRUE, 0, &error));
  g_assert_no_error (error);
  {
    g_autoptr(GnnTensor) mask = gnn_module_get_tensor (m2, "weight_mask", &error);
    g_autofree double *d = gnn_tensor_to_doubles (mask, NULL, &error);
    g_assert_true ((d[1] == 0 && d[2] == 0 && d[4] == 1 && d[5] == 1) ||
                   (d[1] == 1 && d[2] == 1 && d[4] == 0 && d[5] == 0));
    g_assert_true (d[0] == 0 && d[3] == 0);
  }
  /* bad dims */
  g_assert_false (gnn_prune_ln_structured (m2, "weight", 1, TRUE, 2.0, 2, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message, "Invalid index 2 for tensor of size torch.Size([2, 3])"));
  g_clear_error (&error);

  /* global: the 12 entries of a and b as one; 5 smallest |w| are 0.1, 0.1, 0.5, 0.5, 1.5 */
  mods[0] = a;
  mods[1] = b;
  l1 = GNN_BASE_PRUNING_METHOD (gnn_l1_unstructured_new (5, TRUE, &error));
  g_assert_true (gnn_prune_global_unstructured (mods, names, 2, l1, NULL, &error));
  g_assert_no_error (error);
  {
    g_autoptr(GnnTensor) ma = gnn_module_get_tensor (a, "weight_mask", NULL);
    g_autoptr(GnnTensor) mb = gnn_module_get_tensor (b, "weight_mask", NULL);
    g_autoptr(GnnTensor) na = gnn_tensor_count_nonzero (ma, NULL, 0, NULL);
    g_autoptr(GnnTensor) nb = gnn_tensor_count_nonzero (mb, NULL, 0, NULL);
    const double want_a[6] = { 0, 1, 1, 0, 1, 0 }, want_b[6] = { 0, 1, 1, 0, 1, 1 };

    g_assert_cmpfloat (gnn_tensor_item (na, NULL) + gnn_tensor_item (nb, NULL), ==, 7);
    gnn_test_assert_close (ma, want_a, 6, 0, 0);
    gnn_test_assert_close (mb, want_b, 6, 0, 0);
  }
  rs = GNN_BASE_PRUNING_METHOD (gnn_random_structured_new (1, TRUE, 0, &error));
  g_assert_false (gnn_prune_global_unstructured (mods, names, 2, rs, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "Only \"unstructured\" PRUNING_TYPE supported"));
}

/* the sparsity report against a count by hand: Sequential (a, b), both linear_2_3 (bias 0) */
static void
test_sparsity_report (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = linear_2_3 (), b = linear_2_3 ();
  GnnModule *ab[2] = { a, b };
  g_autoptr(GnnModule) seq = GNN_MODULE (gnn_sequential_new (ab, 2));
  const char *names[2] = { "weight", "weight" };
  const char *weight_only[] = { "weight", NULL };
  g_autoptr(GnnBasePruningMethod) l1 = NULL;
  g_autoptr(GnnSparsityReport) r0 = NULL, r1 = NULL, r2 = NULL, r3 = NULL;
  g_autofree char *table = NULL;
  gint64 zeros = -1, numel = -1;

  /* nothing pruned: rows in named_modules order, each module's own parameters; zeros = bias */
  r0 = gnn_prune_sparsity_report (seq, NULL, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_sparsity_report_get_n_tensors (r0), ==, 4);
  g_assert_cmpstr (gnn_sparsity_report_get_module_path (r0, 0), ==, "0");
  g_assert_cmpstr (gnn_sparsity_report_get_module_type (r0, 0), ==, "Linear");
  g_assert_cmpstr (gnn_sparsity_report_get_tensor_name (r0, 0), ==, "weight");
  g_assert_cmpstr (gnn_sparsity_report_get_tensor_name (r0, 1), ==, "bias");
  g_assert_cmpstr (gnn_sparsity_report_get_module_path (r0, 3), ==, "1");
  g_assert_cmpint (gnn_sparsity_report_get_zeros (r0, 0), ==, 0);
  g_assert_cmpint (gnn_sparsity_report_get_zeros (r0, 1), ==, 2);
  g_assert_cmpint (gnn_sparsity_report_get_numel (r0, 1), ==, 2);
  g_assert_cmpfloat (gnn_sparsity_report_get_fraction (r0, 1), ==, 1.0);
  g_assert_false (gnn_sparsity_report_get_pruned (r0, 0));
  g_assert_cmpint (gnn_sparsity_report_get_global_zeros (r0), ==, 4);
  g_assert_cmpint (gnn_sparsity_report_get_global_numel (r0), ==, 16);
  g_assert_cmpfloat (gnn_sparsity_report_get_global_fraction (r0), ==, 0.25);
  g_assert_false (gnn_sparsity_report_lookup_module (r0, "", &zeros, &numel));
  g_assert_cmpint (zeros, ==, 0);
  g_assert_cmpint (numel, ==, 0);

  /* global l1, 5 of the 12 weights: 0.1, 0.1, 0.5, 0.5 and the first 1.5 (of a) */
  l1 = GNN_BASE_PRUNING_METHOD (gnn_l1_unstructured_new (5, TRUE, &error));
  g_assert_true (gnn_prune_global_unstructured (ab, names, 2, l1, NULL, &error));
  g_assert_no_error (error);
  r1 = gnn_prune_sparsity_report (seq, weight_only, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_sparsity_report_get_n_tensors (r1), ==, 2);
  g_assert_cmpstr (gnn_sparsity_report_get_tensor_name (r1, 0), ==, "weight");
  g_assert_true (gnn_sparsity_report_get_pruned (r1, 0));
  g_assert_cmpint (gnn_sparsity_report_get_zeros (r1, 0), ==, 3);
  g_assert_cmpint (gnn_sparsity_report_get_zeros (r1, 1), ==, 2);
  g_assert_cmpfloat (gnn_sparsity_report_get_fraction (r1, 0), ==, 0.5);
  g_assert_cmpint (gnn_sparsity_report_get_global_zeros (r1), ==, 5);
  g_assert_cmpint (gnn_sparsity_report_get_global_numel (r1), ==, 12);
  g_assert_cmpfloat_with_epsilon (gnn_sparsity_report_get_global_fraction (r1), 5.0 / 12.0, 1e-15);
  table = gnn_sparsity_report_to_string (r1);
  g_assert_nonnull (strstr (table, "weight*"));
  g_assert_nonnull (strstr (table, "41.67%"));
  g_assert_nonnull (strstr (table, "global"));

  /* a module's own rows together: a's weight (3 zeros) and bias (2) */
  r2 = gnn_prune_sparsity_report (seq, NULL, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_sparsity_report_lookup_module (r2, "0", &zeros, &numel));
  g_assert_cmpint (zeros, ==, 5);
  g_assert_cmpint (numel, ==, 8);

  /* only the pruned ones; after remove, weight is a plain parameter with the same zeros */
  g_assert_true (gnn_prune_remove (b, "weight", &error));
  g_assert_no_error (error);
  r3 = gnn_prune_sparsity_report (seq, NULL, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_sparsity_report_get_n_tensors (r3), ==, 1);
  g_assert_cmpstr (gnn_sparsity_report_get_module_path (r3, 0), ==, "0");
  g_clear_object (&r2);
  r2 = gnn_prune_sparsity_report (b, NULL, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (gnn_sparsity_report_get_module_path (r2, 0), ==, "");
  g_assert_false (gnn_sparsity_report_get_pruned (r2, 0));
  g_assert_cmpint (gnn_sparsity_report_get_zeros (r2, 0), ==, 2);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/prune/l1-reparametrization", test_l1_reparametrization);
  g_test_add_func ("/prune/iterative-and-remove", test_iterative_and_remove);
  g_test_add_func ("/prune/random-and-custom", test_random_and_custom);
  g_test_add_func ("/prune/errors", test_errors);
  g_test_add_func ("/prune/subclass", test_subclass);
  g_test_add_func ("/prune/structured-and-global", test_structured);
  g_test_add_func ("/prune/sparsity-report", test_sparsity_report);
  return g_test_run ();
}
