/* test-parametrize.c: register_parametrization, chains, right_inverse, remove, the cached
 * scope and bad input, through C parametrizations on Linear
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "gnn-test-util.h"

/* ---- C parametrizations ---------------------------------------------------------------- */

/* Symmetric: X -> triu (X) + triu (X, 1)ᵀ, as the parametrizations tutorial's */
typedef struct { GnnModule parent_instance; guint calls; } TestSymmetric;
typedef struct { GnnModuleClass parent_class; } TestSymmetricClass;
G_DEFINE_TYPE (TestSymmetric, test_symmetric, GNN_TYPE_MODULE)

static GnnArgs *
symmetric_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);
  g_autoptr(GnnTensor) upper = NULL, strict = NULL, lower = NULL, y = NULL;

  ((TestSymmetric *) module)->calls++;
  if (x == NULL || !(upper = gnn_tensor_triu (x, 0, error)) ||
      !(strict = gnn_tensor_triu (x, 1, error)) || !(lower = gnn_tensor_t (strict, error)) ||
      !(y = gnn_tensor_add (upper, lower, 1.0, error)))
    return NULL;
  return gnn_args_new_tensor (y);
}

static void test_symmetric_class_init (TestSymmetricClass *k) { GNN_MODULE_CLASS (k)->forward = symmetric_forward; }
static void test_symmetric_init (TestSymmetric *self) {}

/* Scale: X -> factor X, its right inverse X / factor; with a buffer of its own */
typedef struct { GnnModule parent_instance; double factor; guint calls; } TestScale;
typedef struct { GnnModuleClass parent_class; } TestScaleClass;
G_DEFINE_TYPE (TestScale, test_scale, GNN_TYPE_MODULE)

static GnnArgs *
scale_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);
  g_autoptr(GnnTensor) y = NULL;

  ((TestScale *) module)->calls++;
  if (x == NULL || !(y = gnn_tensor_mul_scalar (x, ((TestScale *) module)->factor, error)))
    return NULL;
  return gnn_args_new_tensor (y);
}

static void test_scale_class_init (TestScaleClass *k) { GNN_MODULE_CLASS (k)->forward = scale_forward; }
static void test_scale_init (TestScale *self) { self->factor = 2.0; }

static gboolean
scale_right_inverse (GnnModule *p, GnnTensor *value, GnnArgs *out, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) y = gnn_tensor_div_scalar (value, ((TestScale *) p)->factor, error);

  if (y == NULL)
    return FALSE;
  gnn_args_add_tensor (out, y);
  return TRUE;
}

/* a right inverse that gives the wrong shape (the transpose) */
static gboolean
transpose_right_inverse (GnnModule *p, GnnTensor *value, GnnArgs *out, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) y = gnn_tensor_t (value, error);

  if (y == NULL)
    return FALSE;
  gnn_args_add_tensor (out, y);
  return TRUE;
}

/* a right inverse that is not implemented (Python's NotImplementedError) */
static gboolean
unimplemented_right_inverse (GnnModule *p, GnnTensor *value, GnnArgs *out, gpointer data, GError **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "not implemented");
  return FALSE;
}

/* Split: right inverse gives (X / 2, X / 2), forward (a, b) -> a + b */
typedef struct { GnnModule parent_instance; } TestSplit;
typedef struct { GnnModuleClass parent_class; } TestSplitClass;
G_DEFINE_TYPE (TestSplit, test_split, GNN_TYPE_MODULE)

static GnnArgs *
split_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *a = gnn_args_get_tensor (input, 0, error), *b;
  g_autoptr(GnnTensor) y = NULL;

  if (a == NULL || !(b = gnn_args_get_tensor (input, 1, error)) ||
      !(y = gnn_tensor_add (a, b, 1.0, error)))
    return NULL;
  return gnn_args_new_tensor (y);
}

static void test_split_class_init (TestSplitClass *k) { GNN_MODULE_CLASS (k)->forward = split_forward; }
static void test_split_init (TestSplit *self) {}

static gboolean
split_right_inverse (GnnModule *p, GnnTensor *value, GnnArgs *out, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) half = gnn_tensor_mul_scalar (value, 0.5, error);

  if (half == NULL)
    return FALSE;
  gnn_args_add_tensor (out, half);
  gnn_args_add_tensor (out, half);
  return TRUE;
}

/* ---- helpers --------------------------------------------------------------------------- */

static GnnModule *
linear_3_3 (void)
{
  g_autoptr(GError) error = NULL;
  GnnModule *m = GNN_MODULE (gnn_linear_new (3, 3, TRUE, &error));

  g_assert_no_error (error);
  g_assert_true (gnn_module_to_dtype (m, GNN_DTYPE_FLOAT64, &error));
  g_assert_no_error (error);
  return m;
}

static double *
values (GnnTensor *t)
{
  g_autoptr(GError) error = NULL;
  double *v = gnn_tensor_to_doubles (t, NULL, &error);

  g_assert_no_error (error);
  return v;
}

static GnnTensor *
read_tensor (GnnModule *m, const char *name)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *t = gnn_module_get_tensor (m, name, &error);

  g_assert_no_error (error);
  return t;
}

static void
assert_keys (GnnModule *m, const char *const *want)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (m, "", FALSE, &error);
  g_auto(GStrv) keys = NULL;

  g_assert_no_error (error);
  keys = gnn_state_dict_get_keys (sd);
  g_assert_cmpuint (g_strv_length (keys), ==, g_strv_length ((GStrv) want));
  for (guint i = 0; want[i]; i++)
    g_assert_cmpstr (keys[i], ==, want[i]);
}

static const double W[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
static const double SYM[9] = { 1, 2, 3, 2, 5, 6, 3, 6, 9 };

static GnnTensor *
weight_data (void)
{
  return gnn_test_tensor_d (W, 9, GNN_TEST_SHAPE (3, 3), 2);
}

static void
set_weight (GnnModule *m)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) w = weight_data ();

  g_assert_true (gnn_tensor_set_data (GNN_TENSOR (gnn_module_get_parameter (m, "weight", NULL)), w, &error));
  g_assert_no_error (error);
}

/* ---- tests ----------------------------------------------------------------------------- */

static void
test_register (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = linear_3_3 ();
  g_autoptr(GnnModule) sym = g_object_new (test_symmetric_get_type (), NULL);
  g_autoptr(GnnTensor) w = NULL, x = NULL, y = NULL, sum = NULL;
  g_autofree double *wv = NULL, *gv = NULL, *xv = NULL, *bv = NULL, *yv = NULL;
  GnnParameter *weight, *original;
  GnnModule *plist;
  const char *keys[] = { "bias", "parametrizations.weight.original", NULL };

  set_weight (m);
  weight = gnn_module_get_parameter (m, "weight", NULL);
  g_object_ref (weight);
  g_assert_false (gnn_is_parametrized (m, NULL));
  g_assert_true (gnn_register_parametrization (m, "weight", sym, FALSE, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_is_parametrized (m, NULL));
  g_assert_true (gnn_is_parametrized (m, "weight"));
  g_assert_false (gnn_is_parametrized (m, "bias"));

  /* the parameter moved, the same object, into parametrizations.weight.original */
  g_assert_null (gnn_module_get_parameter (m, "weight", NULL));
  original = gnn_module_get_parameter (m, "parametrizations.weight.original", &error);
  g_assert_no_error (error);
  g_assert_true (original == weight);
  g_object_unref (weight);
  plist = gnn_module_get_submodule (m, "parametrizations.weight", &error);
  g_assert_no_error (error);
  g_assert_true (GNN_IS_PARAMETRIZATION_LIST (plist));
  g_assert_cmpstr (gnn_module_get_name (plist), ==, "ParametrizationList");
  g_assert_cmpuint (gnn_parametrization_list_get_length (GNN_PARAMETRIZATION_LIST (plist)), ==, 1);
  g_assert_true (gnn_parametrization_list_get (GNN_PARAMETRIZATION_LIST (plist), 0, NULL) == sym);
  g_assert_true (gnn_parametrization_list_get_is_tensor (GNN_PARAMETRIZATION_LIST (plist)));
  assert_keys (m, keys);

  /* the weight reads as the symmetric matrix, and the forward uses it */
  w = read_tensor (m, "weight");
  wv = values (w);
  for (int i = 0; i < 9; i++)
    g_assert_cmpfloat (wv[i], ==, SYM[i]);
  x = gnn_test_tensor_d ((double[]) { 1, -2, 0.5 }, 3, GNN_TEST_SHAPE (1, 3), 2);
  y = gnn_module_forward_tensor (m, x, &error);
  g_assert_no_error (error);
  yv = values (y);
  bv = values (GNN_TENSOR (gnn_module_get_parameter (m, "bias", NULL)));
  xv = values (x);
  for (int o = 0; o < 3; o++)
    g_assert_cmpfloat_with_epsilon (yv[o], bv[o] + xv[0] * SYM[3 * o] + xv[1] * SYM[3 * o + 1] +
                                    xv[2] * SYM[3 * o + 2], 1e-12);

  /* the gradient reaches original: d sum(y) / d original = symmetrization of (1 xᵀ) */
  sum = gnn_tensor_sum (y, NULL, 0, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_backward (sum, NULL, FALSE, &error));
  g_assert_no_error (error);
  g_assert_nonnull (gnn_tensor_get_grad (GNN_TENSOR (original)));
  gv = values (gnn_tensor_get_grad (GNN_TENSOR (original)));
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      g_assert_cmpfloat_with_epsilon (gv[3 * i + j], i < j ? xv[j] + xv[i] : i == j ? xv[j] : 0,
                                      1e-12);
}

/* the gradient of a Linear's output with respect to the tensor that its parametrized weight
 * is computed from: the tensor is the module's buffer `weight`, parametrized by Symmetric
 * and then Scale, so that it is `original` itself */
static GnnTensor *
parametrized_linear (GnnTensor *w, gpointer data, GError **error)
{
  g_autoptr(GnnModule) m = linear_3_3 ();
  g_autoptr(GnnModule) sym = g_object_new (test_symmetric_get_type (), NULL);
  g_autoptr(GnnModule) scale = g_object_new (test_scale_get_type (), NULL);
  GnnTensor *x = data;

  /* a fresh layer each call: its random bias is zeroed so that the function is the same */
  if (!gnn_init_zeros_ (GNN_TENSOR (gnn_module_get_parameter (m, "bias", NULL)), error))
    return NULL;
  gnn_module_remove (m, "weight");
  if (!gnn_module_register_buffer (m, "weight", w, TRUE, error) ||
      !gnn_register_parametrization (m, "weight", sym, FALSE, error) ||
      !gnn_register_parametrization (m, "weight", scale, FALSE, error))
    return NULL;
  g_assert_true (gnn_module_get_buffer (m, "parametrizations.weight.original", NULL) == w);
  return gnn_module_forward_tensor (m, x, error);
}

static void
test_gradcheck (void)
{
  g_autoptr(GnnTensor) w = gnn_test_tensor_d (W, 9, GNN_TEST_SHAPE (3, 3), 2);
  g_autoptr(GnnTensor) x = gnn_test_tensor_d ((double[]) { 0.5, -1, 2, 1, 0.25, -3 }, 6,
                                              GNN_TEST_SHAPE (2, 3), 2);

  gnn_test_gradcheck (parametrized_linear, x, w, 1e-6, 1e-6);
}

static void
test_chain_and_right_inverse (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = linear_3_3 ();
  g_autoptr(GnnModule) scale = g_object_new (test_scale_get_type (), NULL);
  g_autoptr(GnnModule) sym = g_object_new (test_symmetric_get_type (), NULL);
  g_autoptr(GnnTensor) w = NULL, target = NULL;
  g_autofree double *ov = NULL, *wv = NULL;
  GnnTensor *original;
  const char *keys[] = { "bias", "parametrizations.weight.original", NULL };

  set_weight (m);
  gnn_parametrization_set_right_inverse (scale, scale_right_inverse, NULL, NULL);
  g_assert_true (gnn_parametrization_has_right_inverse (scale));
  g_assert_true (gnn_register_parametrization (m, "weight", scale, FALSE, &error));
  g_assert_no_error (error);
  /* right_inverse at registration: original = W / 2, so that weight still reads W */
  original = GNN_TENSOR (gnn_module_get_parameter (m, "parametrizations.weight.original", NULL));
  ov = values (original);
  w = read_tensor (m, "weight");
  wv = values (w);
  for (int i = 0; i < 9; i++)
    {
      g_assert_cmpfloat (ov[i], ==, W[i] / 2);
      g_assert_cmpfloat (wv[i], ==, W[i]);
    }
  g_clear_object (&w);
  g_clear_pointer (&wv, g_free);

  /* a second one is appended: weight = Symmetric (Scale (original)) */
  g_assert_true (gnn_register_parametrization (m, "weight", sym, FALSE, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_parametrization_list_get_length (
    GNN_PARAMETRIZATION_LIST (gnn_module_get_submodule (m, "parametrizations.weight", NULL))), ==, 2);
  assert_keys (m, keys);
  w = read_tensor (m, "weight");
  wv = values (w);
  for (int i = 0; i < 9; i++)
    g_assert_cmpfloat (wv[i], ==, SYM[i]);
  g_clear_object (&w);
  g_clear_pointer (&wv, g_free);

  /* assigning needs every parametrization's right inverse: Symmetric has none */
  target = gnn_test_tensor_d (SYM, 9, GNN_TEST_SHAPE (3, 3), 2);
  g_assert_false (gnn_parametrize_set_tensor (m, "weight", target, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "does not implement right_inverse"));
  g_assert_nonnull (strstr (error->message, "'weight'"));
  g_clear_error (&error);

  /* removing with leave_parametrized keeps the value in the same tensor object */
  g_object_ref (original);
  g_assert_true (gnn_remove_parametrizations (m, "weight", TRUE, &error));
  g_assert_no_error (error);
  g_assert_false (gnn_is_parametrized (m, NULL));
  g_assert_null (gnn_module_get_submodule (m, "parametrizations", NULL));
  g_assert_true (GNN_TENSOR (gnn_module_get_parameter (m, "weight", NULL)) == original);
  wv = values (original);
  for (int i = 0; i < 9; i++)
    g_assert_cmpfloat (wv[i], ==, SYM[i]);
  g_object_unref (original);
  {
    const char *plain[] = { "bias", "weight", NULL };
    assert_keys (m, plain);
  }
}

static void
test_assign_and_remove_unparametrized (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = linear_3_3 ();
  g_autoptr(GnnModule) scale = g_object_new (test_scale_get_type (), NULL);
  g_autoptr(GnnTensor) target = gnn_test_tensor_d (SYM, 9, GNN_TEST_SHAPE (3, 3), 2);
  g_autoptr(GnnTensor) w = NULL;
  g_autofree double *ov = NULL, *wv = NULL;
  GnnTensor *original;

  set_weight (m);
  gnn_parametrization_set_right_inverse (scale, scale_right_inverse, NULL, NULL);
  g_assert_true (gnn_register_parametrization (m, "weight", scale, FALSE, &error));
  g_assert_no_error (error);
  original = GNN_TENSOR (gnn_module_get_parameter (m, "parametrizations.weight.original", NULL));
  /* module.weight = SYM goes through the right inverse */
  g_assert_true (gnn_parametrize_set_tensor (m, "weight", target, &error));
  g_assert_no_error (error);
  g_assert_true (GNN_TENSOR (gnn_module_get_parameter (m, "parametrizations.weight.original", NULL)) == original);
  ov = values (original);
  w = read_tensor (m, "weight");
  wv = values (w);
  for (int i = 0; i < 9; i++)
    {
      g_assert_cmpfloat (ov[i], ==, SYM[i] / 2);
      g_assert_cmpfloat (wv[i], ==, SYM[i]);
    }
  g_clear_pointer (&ov, g_free);
  /* leave_parametrized=FALSE: weight is original again */
  g_assert_true (gnn_remove_parametrizations (m, "weight", FALSE, &error));
  g_assert_no_error (error);
  ov = values (GNN_TENSOR (gnn_module_get_parameter (m, "weight", NULL)));
  for (int i = 0; i < 9; i++)
    g_assert_cmpfloat (ov[i], ==, SYM[i] / 2);
  /* not parametrized any more */
  g_assert_false (gnn_remove_parametrizations (m, "weight", TRUE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "does not have a parametrization on weight"));
}

static void
test_sequence (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = linear_3_3 ();
  g_autoptr(GnnModule) split = g_object_new (test_split_get_type (), NULL);
  g_autoptr(GnnTensor) w = NULL;
  g_autofree double *wv = NULL, *av = NULL;
  const char *keys[] = { "bias", "parametrizations.weight.original0",
                         "parametrizations.weight.original1", NULL };
  GnnParametrizationList *plist;

  set_weight (m);
  gnn_parametrization_set_right_inverse (split, split_right_inverse, NULL, NULL);
  g_assert_true (gnn_register_parametrization (m, "weight", split, FALSE, &error));
  g_assert_no_error (error);
  assert_keys (m, keys);
  plist = GNN_PARAMETRIZATION_LIST (gnn_module_get_submodule (m, "parametrizations.weight", NULL));
  g_assert_false (gnn_parametrization_list_get_is_tensor (plist));
  g_assert_cmpuint (gnn_parametrization_list_get_n_tensors (plist), ==, 2);
  g_assert_true (GNN_IS_PARAMETER (gnn_module_get_parameter (m, "parametrizations.weight.original1", NULL)));
  av = values (GNN_TENSOR (gnn_module_get_parameter (m, "parametrizations.weight.original0", NULL)));
  w = read_tensor (m, "weight");
  wv = values (w);
  for (int i = 0; i < 9; i++)
    {
      g_assert_cmpfloat (av[i], ==, W[i] / 2);
      g_assert_cmpfloat (wv[i], ==, W[i]);
    }
  /* a sequence cannot be left unparametrized */
  g_assert_false (gnn_remove_parametrizations (m, "weight", FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "sequence of tensors"));
  g_clear_error (&error);
  g_assert_true (gnn_remove_parametrizations (m, "weight", TRUE, &error));
  g_assert_no_error (error);
  g_assert_true (GNN_IS_PARAMETER (gnn_module_get_parameter (m, "weight", NULL)));
  {
    const char *plain[] = { "bias", "weight", NULL };
    assert_keys (m, plain);
  }
}

static void
test_cached (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = linear_3_3 ();
  g_autoptr(GnnModule) scale = g_object_new (test_scale_get_type (), NULL);
  g_autoptr(GnnTensor) x = gnn_test_tensor_d ((double[]) { 1, 2, 3 }, 3, GNN_TEST_SHAPE (1, 3), 2);
  g_autoptr(GnnTensor) a = NULL, b = NULL, y1 = NULL, y2 = NULL;
  TestScale *s = (TestScale *) scale;
  guint before;

  g_assert_true (gnn_register_parametrization (m, "weight", scale, FALSE, &error));
  g_assert_no_error (error);
  /* recomputed on every read */
  before = s->calls;
  a = read_tensor (m, "weight");
  b = read_tensor (m, "weight");
  g_assert_cmpuint (s->calls, ==, before + 2);
  g_assert_true (a != b);
  g_clear_object (&a);
  g_clear_object (&b);
  /* computed once in a cached scope (nested scopes too), by reads and forwards */
  gnn_parametrize_cached_enter ();
  gnn_parametrize_cached_enter ();
  before = s->calls;
  a = read_tensor (m, "weight");
  y1 = gnn_module_forward_tensor (m, x, &error);
  g_assert_no_error (error);
  gnn_parametrize_cached_leave ();
  y2 = gnn_module_forward_tensor (m, x, &error);
  g_assert_no_error (error);
  b = read_tensor (m, "weight");
  g_assert_cmpuint (s->calls, ==, before + 1);
  g_assert_true (a == b);
  gnn_parametrize_cached_leave ();
  g_clear_object (&b);
  b = read_tensor (m, "weight");
  g_assert_cmpuint (s->calls, ==, before + 2);
  g_assert_true (a != b);
}

static void
test_bad_input (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = GNN_MODULE (gnn_linear_new (3, 2, TRUE, &error));
  g_autoptr(GnnModule) scale = g_object_new (test_scale_get_type (), NULL);
  g_autoptr(GnnModule) sym = g_object_new (test_symmetric_get_type (), NULL);
  g_autoptr(GnnModule) other = g_object_new (test_scale_get_type (), NULL);
  g_autoptr(GnnModule) unimpl = g_object_new (test_scale_get_type (), NULL);
  const char *plain[] = { "weight", "bias", NULL };
  GnnParameter *weight = gnn_module_get_parameter (m, "weight", NULL);

  /* a name that is neither a parameter, a buffer nor parametrized */
  g_assert_false (gnn_register_parametrization (m, "wieght", scale, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "does not have a parameter, a buffer, or a parametrized "
                                            "element with name 'wieght'"));
  g_assert_nonnull (strstr (error->message, "Linear"));
  g_clear_error (&error);

  /* a forward that changes the shape: Symmetric of a (2, 3) weight fails in triu's transpose
   * sum, with the module and tensor named; the module is unchanged */
  g_assert_false (gnn_register_parametrization (m, "weight", sym, FALSE, &error));
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, "Linear 'weight': "));
  g_clear_error (&error);
  g_assert_false (gnn_is_parametrized (m, NULL));
  g_assert_true (gnn_module_get_parameter (m, "weight", NULL) == weight);
  assert_keys (m, plain);

  /* a right inverse giving the wrong shape: the forward of it has the wrong shape */
  gnn_parametrization_set_right_inverse (other, transpose_right_inverse, NULL, NULL);
  g_assert_false (gnn_register_parametrization (m, "weight", other, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_true (g_str_has_prefix (error->message, "Linear 'weight': Registering a parametrization "
                                                   "may not change the shape of the tensor"));
  g_assert_nonnull (strstr (error->message, "unparametrized shape: torch.Size([2, 3])\n"
                                            "parametrized shape: torch.Size([3, 2])"));
  g_clear_error (&error);
  g_assert_false (gnn_is_parametrized (m, NULL));
  g_assert_true (gnn_module_get_parameter (m, "weight", NULL) == weight);
  {
    gint64 shape[] = { 2, 3 };
    gnn_test_assert_shape (GNN_TENSOR (weight), shape, 2);
  }
  /* with unsafe the check is skipped */
  g_assert_true (gnn_register_parametrization (m, "weight", other, TRUE, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_parametrization_list_get_unsafe (
    GNN_PARAMETRIZATION_LIST (gnn_module_get_submodule (m, "parametrizations.weight", NULL))));
  g_assert_true (gnn_remove_parametrizations (m, "weight", FALSE, &error));
  g_assert_no_error (error);

  /* chained: a right inverse with the wrong shape is refused */
  g_assert_true (gnn_register_parametrization (m, "weight", scale, FALSE, &error));
  g_assert_no_error (error);
  g_assert_false (gnn_register_parametrization (m, "weight", other, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_true (g_str_has_prefix (error->message, "Linear 'weight': The tensor returned by "
                                                   "parametrization.right_inverse must have the same shape"));
  g_clear_error (&error);
  /* not implemented is as no right inverse */
  gnn_parametrization_set_right_inverse (unimpl, unimplemented_right_inverse, NULL, NULL);
  g_assert_true (gnn_register_parametrization (m, "weight", unimpl, FALSE, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_parametrization_list_get_length (
    GNN_PARAMETRIZATION_LIST (gnn_module_get_submodule (m, "parametrizations.weight", NULL))), ==, 2);
  /* removing an unknown name */
  g_assert_false (gnn_remove_parametrizations (m, "bias", TRUE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (gnn_parametrize_set_tensor (m, "bias", GNN_TENSOR (weight), &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

/* spectral_norm: torch's keys; after enough training forwards the weight's spectral norm is 1
 * (σ(W / σ) = 1, checked by power iteration here); eval mode leaves _u alone */
static GnnTensor *
spectral_forward (GnnTensor *w, gpointer data, GError **error)
{
  GnnArgs *out;
  g_autoptr(GnnArgs) in = gnn_args_new_tensor (w);
  GnnTensor *y;

  out = gnn_module_forward (GNN_MODULE (data), in, error);
  if (out == NULL)
    return NULL;
  y = g_object_ref (gnn_args_get_tensor (out, 0, NULL));
  g_object_unref (out);
  return y;
}

static void
test_spectral_norm (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = linear_3_3 ();
  g_autoptr(GnnTensor) x = gnn_test_tensor_d ((double[]) { 1, 2, 3 }, 3, GNN_TEST_SHAPE (1, 3), 2);
  g_autoptr(GnnTensor) w = NULL, u0 = NULL, u1 = NULL, y = NULL;
  g_autoptr(GnnSpectralNorm) sn = NULL;
  g_autofree double *wv = NULL, *a = NULL, *b = NULL;
  const char *keys[] = { "bias", "parametrizations.weight.original",
                         "parametrizations.weight.0._u", "parametrizations.weight.0._v", NULL };
  double v[3] = { 1, 1, 1 }, sigma = 0;

  set_weight (m);
  g_assert_cmpint (gnn_spectral_norm_default_dim (m), ==, 0);
  g_assert_true (gnn_spectral_norm (m, "weight", 1, 1e-12, 0, &error));
  g_assert_no_error (error);
  assert_keys (m, keys);
  for (int i = 0; i < 30; i++)
    {
      g_clear_object (&y);
      y = gnn_module_forward_tensor (m, x, &error);
      g_assert_no_error (error);
    }
  w = read_tensor (m, "weight");
  wv = values (w);
  /* σ of the normalized weight by 200 power iteration steps */
  for (int it = 0; it < 200; it++)
    {
      double u[3], n = 0, vn = 0;
      for (int i = 0; i < 3; i++)
        {
          u[i] = wv[3 * i] * v[0] + wv[3 * i + 1] * v[1] + wv[3 * i + 2] * v[2];
          n += u[i] * u[i];
        }
      n = sqrt (n);
      for (int j = 0; j < 3; j++)
        {
          v[j] = (wv[j] * u[0] + wv[3 + j] * u[1] + wv[6 + j] * u[2]) / n;
          vn += v[j] * v[j];
        }
      vn = sqrt (vn);
      sigma = vn;
      for (int j = 0; j < 3; j++)
        v[j] /= vn;
    }
  g_assert_cmpfloat_with_epsilon (sigma, 1.0, 1e-6);

  /* eval: _u is not updated */
  gnn_module_eval (m);
  u0 = gnn_tensor_clone (gnn_module_get_buffer (m, "parametrizations.weight.0._u", NULL), &error);
  g_clear_object (&y);
  y = gnn_module_forward_tensor (m, x, &error);
  g_assert_no_error (error);
  u1 = gnn_module_get_buffer (m, "parametrizations.weight.0._u", NULL);
  g_object_ref (u1);
  a = values (u0);
  b = values (u1);
  for (int i = 0; i < 3; i++)
    g_assert_cmpfloat (a[i], ==, b[i]);

  /* a float64 gradcheck of the parametrization in eval mode (no power iteration) */
  g_clear_object (&w);
  w = gnn_test_tensor_d (W, 9, GNN_TEST_SHAPE (3, 3), 2);
  sn = gnn_spectral_norm_new (w, 1, 0, 1e-12, &error);
  g_assert_no_error (error);
  gnn_module_eval (GNN_MODULE (sn));
  gnn_test_gradcheck (spectral_forward, sn, w, 1e-6, 1e-5);

  /* bad input */
  g_clear_object (&sn);
  sn = gnn_spectral_norm_new (w, 0, 0, 1e-12, &error);
  g_assert_null (sn);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  sn = gnn_spectral_norm_new (w, 1, 2, 1e-12, &error);
  g_assert_null (sn);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);
  g_assert_false (gnn_spectral_norm (m, "wieght", 1, 1e-12, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

/* orthogonal: torch's keys, an orthonormal weight for every map and shape, the right inverse
 * with and without the trivialization, float64 gradchecks of the three maps (tall, wide and
 * square, without the base), and the bad input */
static GnnTensor *
orth_product (GnnTensor *w, gboolean wide, GError **error)
{
  g_autoptr(GnnTensor) wt = gnn_tensor_t (w, error);

  if (wt == NULL)
    return NULL;
  return wide ? gnn_tensor_matmul (w, wt, error) : gnn_tensor_matmul (wt, w, error);
}

static void
assert_orthonormal (GnnTensor *w)
{
  g_autoptr(GError) error = NULL;
  const gint64 *shape = gnn_tensor_get_shape (w, NULL);
  gboolean wide = shape[0] < shape[1];
  gint64 k = MIN (shape[0], shape[1]);
  g_autoptr(GnnTensor) p = orth_product (w, wide, &error);
  g_autofree double *pv = NULL;

  g_assert_no_error (error);
  pv = values (p);
  for (gint64 i = 0; i < k; i++)
    for (gint64 j = 0; j < k; j++)
      g_assert_cmpfloat_with_epsilon (pv[i * k + j], i == j ? 1.0 : 0.0, 1e-5);
}

static void
test_orthogonal (void)
{
  const char *maps[] = { NULL, "matrix_exp", "cayley", "householder" };
  const gint64 shapes[][2] = { { 4, 3 }, { 3, 4 }, { 3, 3 } };
  const double X[] = { 1.5, 0.2, -0.3, 0.4, 0.1, -1.5, 0.25, -0.2, 0.3, 0.5, 1.2, 0.6 };
  g_autoptr(GError) error = NULL;

  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    for (guint mp = 0; mp < G_N_ELEMENTS (maps); mp++)
      for (int triv = 1; triv >= 0; triv--)
        {
          g_autoptr(GnnModule) m = GNN_MODULE (gnn_linear_new (shapes[s][1], shapes[s][0], TRUE, &error));
          const char *keys_triv[] = { "bias", "parametrizations.weight.original",
                                      "parametrizations.weight.0.base", NULL };
          const char *keys[] = { "bias", "parametrizations.weight.original", NULL };
          g_autoptr(GnnTensor) w = NULL, x = NULL, wx = NULL;
          g_autoptr(GnnOrthogonal) p = NULL;
          int n = (int) (shapes[s][0] * shapes[s][1]);
          gboolean exp_or_cayley = maps[mp] ? strcmp (maps[mp], "householder") != 0
                                            : shapes[s][0] == shapes[s][1];

          g_assert_no_error (error);
          g_assert_true (gnn_orthogonal (m, "weight", maps[mp], triv, &error));
          g_assert_no_error (error);
          assert_keys (m, triv ? keys_triv : keys);
          w = read_tensor (m, "weight");
          assert_orthonormal (w);

          /* assigning an orthonormal matrix: it is the weight afterwards with the base;
           * without it, householder's right inverse keeps it, the others refuse */
          g_clear_object (&w);
          w = read_tensor (m, "weight");
          x = gnn_tensor_mul_scalar (w, -1.0, &error);
          g_assert_no_error (error);
          if (!triv && exp_or_cayley)
            {
              g_assert_false (gnn_parametrize_set_tensor (m, "weight", x, &error));
              g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
              g_clear_error (&error);
            }
          else
            {
              g_autofree double *a = values (x), *b = NULL;

              g_assert_true (gnn_parametrize_set_tensor (m, "weight", x, &error));
              g_assert_no_error (error);
              g_clear_object (&wx);
              wx = read_tensor (m, "weight");
              b = values (wx);
              for (int i = 0; i < n; i++)
                g_assert_cmpfloat_with_epsilon (a[i], b[i], 1e-5);
            }

          /* a float64 gradcheck of the map without the base */
          if (triv)
            {
              g_autoptr(GnnTensor) xd = gnn_test_tensor_d ((double *) X, n,
                                                           GNN_TEST_SHAPE (shapes[s][0], shapes[s][1]), 2);

              p = gnn_orthogonal_new (xd, maps[mp], FALSE, &error);
              g_assert_no_error (error);
              gnn_test_gradcheck (spectral_forward, p, xd, 1e-6, 1e-5);
            }
        }

  /* bad input */
  {
    g_autoptr(GnnModule) m = linear_3_3 ();
    g_autoptr(GnnTensor) v = gnn_test_tensor_d ((double[]) { 1, 2, 3 }, 3, GNN_TEST_SHAPE (3), 1);
    g_autoptr(GnnOrthogonal) p = NULL;

    g_assert_false (gnn_orthogonal (m, "wieght", NULL, TRUE, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "'wieght'"));
    g_clear_error (&error);
    g_assert_false (gnn_orthogonal (m, "bias", NULL, TRUE, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "Got a tensor of 1 dimensions"));
    g_clear_error (&error);
    g_assert_false (gnn_orthogonal (m, "weight", "qr", TRUE, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "Got: qr"));
    g_clear_error (&error);
    g_assert_false (gnn_is_parametrized (m, NULL));
    p = gnn_orthogonal_new (v, NULL, TRUE, &error);
    g_assert_null (p);
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  }
}

/* the hook-based weight_norm: torch's keys (bias, weight_g, weight_v), the weight recomputed
 * before each forward as v · g / ‖v‖ (rows of unit norm times g), remove_weight_norm, errors */
static void
test_weight_norm (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = linear_3_3 ();
  g_autoptr(GnnTensor) x = gnn_test_tensor_d ((double[]) { 1, 2, 3 }, 3, GNN_TEST_SHAPE (1, 3), 2);
  g_autoptr(GnnTensor) w0 = NULL, w1 = NULL, w2 = NULL, y = NULL;
  g_autofree double *a = NULL, *b = NULL, *c = NULL;
  const char *keys[] = { "bias", "weight_g", "weight_v", NULL };
  const char *plain[] = { "bias", "weight", NULL };   /* torch re-registers it last */
  GnnTensor *g;

  set_weight (m);
  w0 = read_tensor (m, "weight");
  a = values (w0);
  g_assert_true (gnn_weight_norm (m, "weight", 0, &error));
  g_assert_no_error (error);
  assert_keys (m, keys);
  w1 = read_tensor (m, "weight");
  b = values (w1);
  for (int i = 0; i < 9; i++)
    g_assert_cmpfloat_with_epsilon (a[i], b[i], 1e-6);
  /* doubling g doubles the weight at the next forward */
  g = gnn_module_get_tensor (m, "weight_g", &error);
  g_assert_no_error (error);
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    g_assert_true (gnn_tensor_mul_scalar_ (g, 2.0, &error));
  }
  g_object_unref (g);
  y = gnn_module_forward_tensor (m, x, &error);
  g_assert_no_error (error);
  w2 = read_tensor (m, "weight");
  c = values (w2);
  for (int i = 0; i < 9; i++)
    g_assert_cmpfloat_with_epsilon (c[i], 2 * a[i], 1e-5);

  g_assert_false (gnn_weight_norm (m, "weight", 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (gnn_remove_weight_norm (m, "weight", &error));
  g_assert_no_error (error);
  assert_keys (m, plain);
  g_clear_object (&w2);
  w2 = read_tensor (m, "weight");
  g_free (c);
  c = values (w2);
  for (int i = 0; i < 9; i++)
    g_assert_cmpfloat_with_epsilon (c[i], 2 * a[i], 1e-5);

  g_assert_false (gnn_remove_weight_norm (m, "weight", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (gnn_weight_norm (m, "wieght", 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (gnn_weight_norm (m, "weight", 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
}

/* the hook-based spectral_norm: torch's keys, after enough training forwards σ(weight) = 1
 * (its largest singular value, checked on WᵀW's power iteration), removal, errors */
static void
test_spectral_norm_hook (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = linear_3_3 ();
  g_autoptr(GnnTensor) x = gnn_test_tensor_d ((double[]) { 1, 2, 3 }, 3, GNN_TEST_SHAPE (1, 3), 2);
  g_autoptr(GnnTensor) w = NULL;
  g_autofree double *wv = NULL;
  const char *keys[] = { "bias", "weight_orig", "weight_u", "weight_v", NULL };
  const char *plain[] = { "bias", "weight", NULL };
  double v[3] = { 1, 0.5, 0.25 }, sigma = 0;

  set_weight (m);
  g_assert_true (gnn_spectral_norm_hook (m, "weight", 1, 1e-12, 0, &error));
  g_assert_no_error (error);
  assert_keys (m, keys);
  for (int i = 0; i < 30; i++)
    {
      g_autoptr(GnnTensor) y = gnn_module_forward_tensor (m, x, &error);
      g_assert_no_error (error);
    }
  g_assert_true (gnn_remove_spectral_norm (m, "weight", &error));
  g_assert_no_error (error);
  assert_keys (m, plain);
  w = read_tensor (m, "weight");
  wv = values (w);
  for (int it = 0; it < 200; it++)
    {
      double u[3], vn = 0;

      for (int i = 0; i < 3; i++)
        u[i] = wv[3 * i] * v[0] + wv[3 * i + 1] * v[1] + wv[3 * i + 2] * v[2];
      for (int j = 0; j < 3; j++)
        {
          v[j] = wv[j] * u[0] + wv[3 + j] * u[1] + wv[6 + j] * u[2];
          vn += v[j] * v[j];
        }
      vn = sqrt (vn);
      sigma = sqrt (vn);
      for (int j = 0; j < 3; j++)
        v[j] /= vn;
    }
  g_assert_cmpfloat_with_epsilon (sigma, 1.0, 1e-5);

  g_assert_false (gnn_remove_spectral_norm (m, "weight", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (gnn_spectral_norm_hook (m, "wieght", 1, 1e-12, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (gnn_spectral_norm_hook (m, "weight", 1, 1e-12, 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
}

/* the weight-norm parametrization (PyTorch 2.1's parametrizations.weight_norm): the keys
 * original0 (g, the rows' norms for dim 0) and original1 (v), the weight read as v · g / ‖v‖,
 * a hook-based state dict (weight_g, weight_v) loading through the compat pre-hook, float64
 * gradchecks to g and to v (and a gradgradcheck to v) for dims 0, 1 and -1 (the whole
 * tensor), and the bad input */
typedef struct { GnnModule *wn; GnnTensor *other; gboolean vary_g; } WeightNormCheck;

static GnnTensor *
weight_norm_forward_of (GnnTensor *x, gpointer data, GError **error)
{
  WeightNormCheck *c = data;
  g_autoptr(GnnArgs) in = gnn_args_new ();
  GnnArgs *out;
  GnnTensor *y;

  gnn_args_add_tensor (in, c->vary_g ? x : c->other);
  gnn_args_add_tensor (in, c->vary_g ? c->other : x);
  out = gnn_module_forward (c->wn, in, error);
  if (out == NULL)
    return NULL;
  y = g_object_ref (gnn_args_get_tensor (out, 0, NULL));
  g_object_unref (out);
  return y;
}

static void
test_parametrized_weight_norm (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = linear_3_3 ();
  g_autoptr(GnnTensor) w = NULL, g2 = NULL, v = NULL;
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autofree double *a = NULL, *b = NULL;
  const char *keys[] = { "bias", "parametrizations.weight.original0",
                         "parametrizations.weight.original1", NULL };
  const char *plain[] = { "weight", "bias", NULL };
  double norms[3];
  GnnTensor *g;
  GnnArgs *out;

  for (int i = 0; i < 3; i++)
    norms[i] = sqrt (W[3 * i] * W[3 * i] + W[3 * i + 1] * W[3 * i + 1] + W[3 * i + 2] * W[3 * i + 2]);

  /* bad input leaves the module as it was */
  set_weight (m);
  g_assert_false (gnn_parametrizations_weight_norm (m, "weight", 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message, "[-2, 1], but got 2"));
  g_clear_error (&error);
  g_assert_false (gnn_parametrizations_weight_norm (m, "wieght", 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  assert_keys (m, plain);
  g_assert_false (gnn_is_parametrized (m, NULL));

  g_assert_true (gnn_parametrizations_weight_norm (m, "weight", 0, &error));
  g_assert_no_error (error);
  assert_keys (m, keys);
  g = GNN_TENSOR (gnn_module_get_parameter (m, "parametrizations.weight.original0", NULL));
  g_assert_cmpuint (gnn_tensor_get_ndim (g), ==, 2);
  g_assert_cmpint (gnn_tensor_get_shape (g, NULL)[0], ==, 3);
  g_assert_cmpint (gnn_tensor_get_shape (g, NULL)[1], ==, 1);
  a = values (g);
  for (int i = 0; i < 3; i++)
    g_assert_cmpfloat_with_epsilon (a[i], norms[i], 1e-12);
  g_clear_pointer (&a, g_free);
  w = read_tensor (m, "weight");
  a = values (w);
  for (int i = 0; i < 9; i++)
    g_assert_cmpfloat_with_epsilon (a[i], W[i], 1e-12);
  g_clear_pointer (&a, g_free);
  g_clear_object (&w);

  /* torch's compat hook: weight_g and weight_v load as original0 and original1 */
  g2 = gnn_test_tensor_d ((double[]) { 2 * norms[0], 2 * norms[1], 2 * norms[2] }, 3,
                          GNN_TEST_SHAPE (3, 1), 2);
  v = weight_data ();
  gnn_state_dict_set_tensor (sd, "bias", GNN_TENSOR (gnn_module_get_parameter (m, "bias", NULL)));
  gnn_state_dict_set_tensor (sd, "weight_g", g2);
  gnn_state_dict_set_tensor (sd, "weight_v", v);
  g_assert_true (gnn_module_load_state_dict (m, sd, TRUE, FALSE, NULL, NULL, &error));
  g_assert_no_error (error);
  w = read_tensor (m, "weight");
  a = values (w);
  for (int i = 0; i < 9; i++)
    g_assert_cmpfloat_with_epsilon (a[i], 2 * W[i], 1e-12);
  g_clear_pointer (&a, g_free);
  g_clear_object (&w);

  /* removal keeps the parametrized value */
  g_assert_true (gnn_remove_parametrizations (m, "weight", TRUE, &error));
  g_assert_no_error (error);
  g_assert_false (gnn_is_parametrized (m, NULL));
  w = read_tensor (m, "weight");
  a = values (w);
  for (int i = 0; i < 9; i++)
    g_assert_cmpfloat_with_epsilon (a[i], 2 * W[i], 1e-12);
  g_clear_pointer (&a, g_free);
  g_clear_object (&w);

  /* float64 gradchecks of the forward, to g and to v */
  {
    const int dims[] = { 0, 1, -1 };

    for (guint k = 0; k < G_N_ELEMENTS (dims); k++)
      {
        g_autoptr(GnnWeightNorm) wn = gnn_weight_norm_new (dims[k]);
        g_autoptr(GnnTensor) v0 = gnn_test_tensor_d ((double[]) { 1, -2, 0.5, 3, 0.25, -1 }, 6,
                                                     GNN_TEST_SHAPE (2, 3), 2);
        g_autoptr(GnnTensor) g0 = NULL;
        g_autoptr(GnnArgs) in = gnn_args_new_tensor (v0);
        WeightNormCheck c = { GNN_MODULE (wn), NULL, TRUE };

        int prop_dim = 42;

        g_assert_cmpint (gnn_weight_norm_get_dim (wn), ==, dims[k]);
        g_object_get (wn, "dim", &prop_dim, NULL);
        g_assert_cmpint (prop_dim, ==, dims[k]);
        if (dims[k] == 0)
          g0 = gnn_test_tensor_d ((double[]) { 1.5, -0.5 }, 2, GNN_TEST_SHAPE (2, 1), 2);
        else if (dims[k] == 1)
          g0 = gnn_test_tensor_d ((double[]) { 1.5, -0.5, 2 }, 3, GNN_TEST_SHAPE (1, 3), 2);
        else
          g0 = gnn_test_tensor_d ((double[]) { 1.5 }, 1, NULL, 0);
        c.other = v0;
        gnn_test_gradcheck (weight_norm_forward_of, &c, g0, 1e-6, 1e-6);
        c.other = g0;
        c.vary_g = FALSE;
        gnn_test_gradcheck (weight_norm_forward_of, &c, v0, 1e-6, 1e-6);
        /* and the second derivative (torch's _weight_norm is twice differentiable) */
        gnn_test_gradgradcheck (weight_norm_forward_of, &c, v0, 1e-6, 1e-5);

        /* the forward wants both tensors */
        out = gnn_module_forward (GNN_MODULE (wn), in, &error);
        g_assert_null (out);
        g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
        g_clear_error (&error);
      }
  }
}

/* transfer_parametrizations_and_params: the chain's modules and the original are shared with
 * the source, the target reads the same weight; a target without the tensor gets it; an
 * unparametrized source changes nothing; a name the source does not parametrize is an error;
 * type_before_parametrizations is the module's own type */
static void
test_transfer (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) from = linear_3_3 ();
  g_autoptr(GnnModule) to = linear_3_3 ();
  g_autoptr(GnnModule) empty = g_object_new (test_symmetric_get_type (), NULL);
  g_autoptr(GnnModule) plain = linear_3_3 ();
  g_autoptr(GnnModule) scale = g_object_new (test_scale_get_type (), NULL);
  g_autoptr(GnnModule) sym = g_object_new (test_symmetric_get_type (), NULL);
  g_autoptr(GnnTensor) a = NULL, b = NULL;
  g_autofree double *av = NULL, *bv = NULL;
  GnnModule *lf, *lt;
  const char *keys[] = { "bias", "parametrizations.weight.original", NULL };
  const char *only[] = { "parametrizations.weight.original", NULL };
  const char *plain_keys[] = { "weight", "bias", NULL };

  g_assert_true (gnn_type_before_parametrizations (from) == GNN_TYPE_LINEAR);
  /* an unparametrized source: nothing to do */
  g_assert_true (gnn_transfer_parametrizations_and_params (plain, to, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (gnn_is_parametrized (to, NULL));

  set_weight (from);
  gnn_parametrization_set_right_inverse (scale, scale_right_inverse, NULL, NULL);
  g_assert_true (gnn_register_parametrization (from, "weight", scale, FALSE, &error));
  g_assert_true (gnn_register_parametrization (from, "weight", sym, FALSE, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_type_before_parametrizations (from) == GNN_TYPE_LINEAR);

  g_assert_false (gnn_transfer_parametrizations_and_params (from, to, "bias", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "'bias'"));
  g_clear_error (&error);
  assert_keys (to, plain_keys);

  g_assert_true (gnn_transfer_parametrizations_and_params (from, to, NULL, &error));
  g_assert_no_error (error);
  assert_keys (to, keys);
  lf = gnn_module_get_submodule (from, "parametrizations.weight", NULL);
  lt = gnn_module_get_submodule (to, "parametrizations.weight", NULL);
  g_assert_true (gnn_module_get_submodule (lt, "0", NULL) == scale);
  g_assert_true (gnn_module_get_submodule (lt, "1", NULL) == sym);
  g_assert_true (gnn_module_get_parameter (lt, "original", NULL) ==
                 gnn_module_get_parameter (lf, "original", NULL));
  a = read_tensor (from, "weight");
  b = read_tensor (to, "weight");
  av = values (a);
  bv = values (b);
  for (int i = 0; i < 9; i++)
    {
      g_assert_cmpfloat (av[i], ==, SYM[i]);
      g_assert_cmpfloat (bv[i], ==, av[i]);
    }
  g_clear_object (&b);
  g_clear_pointer (&bv, g_free);

  /* a target that lacks the tensor gets a parameter first */
  g_assert_true (gnn_transfer_parametrizations_and_params (from, empty, "weight", &error));
  g_assert_no_error (error);
  assert_keys (empty, only);
  b = read_tensor (empty, "weight");
  bv = values (b);
  for (int i = 0; i < 9; i++)
    g_assert_cmpfloat (bv[i], ==, SYM[i]);
}

/* the set-up of both hook-based norms is all or nothing: a name clash in the middle (a
 * buffer `weight_v`, a parameter `weight_u`) leaves the module as it was */
static void
test_norm_hooks_roll_back (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = linear_3_3 ();
  g_autoptr(GnnModule) b = linear_3_3 ();
  g_autoptr(GnnTensor) clash = gnn_test_tensor_d ((double[]) { 1 }, 1, GNN_TEST_SHAPE (1), 1);
  g_autoptr(GnnParameter) pclash = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d ((double[]) { 1, 2, 3 }, 3, GNN_TEST_SHAPE (1, 3), 2);
  g_autoptr(GnnTensor) y = NULL;
  GnnParameter *wa, *wb;
  const char *keys_a[] = { "weight", "bias", "weight_v", NULL };
  const char *keys_b[] = { "weight", "bias", "weight_u", NULL };

  wa = gnn_module_get_parameter (a, "weight", NULL);
  g_assert_true (gnn_module_register_buffer (a, "weight_v", clash, TRUE, &error));
  g_assert_false (gnn_weight_norm (a, "weight", 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  assert_keys (a, keys_a);
  g_assert_true (gnn_module_get_parameter (a, "weight", NULL) == wa);
  y = gnn_module_forward_tensor (a, x, &error);
  g_assert_no_error (error);
  g_clear_object (&y);
  /* no hook was left behind: a second try after the clash is gone succeeds */
  gnn_module_remove (a, "weight_v");
  g_assert_true (gnn_weight_norm (a, "weight", 0, &error));
  g_assert_no_error (error);

  wb = gnn_module_get_parameter (b, "weight", NULL);
  pclash = gnn_parameter_new (clash, TRUE, &error);
  g_assert_true (gnn_module_register_parameter (b, "weight_u", pclash, &error));
  g_assert_false (gnn_spectral_norm_hook (b, "weight", 1, 1e-12, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  assert_keys (b, keys_b);
  g_assert_true (gnn_module_get_parameter (b, "weight", NULL) == wb);
  g_assert_null (gnn_module_get_parameter (b, "weight_orig", NULL));
  y = gnn_module_forward_tensor (b, x, &error);
  g_assert_no_error (error);
  gnn_module_remove (b, "weight_u");
  g_assert_true (gnn_spectral_norm_hook (b, "weight", 1, 1e-12, 0, &error));
  g_assert_no_error (error);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/parametrize/register", test_register);
  g_test_add_func ("/parametrize/gradcheck", test_gradcheck);
  g_test_add_func ("/parametrize/chain-and-right-inverse", test_chain_and_right_inverse);
  g_test_add_func ("/parametrize/assign-and-remove-unparametrized", test_assign_and_remove_unparametrized);
  g_test_add_func ("/parametrize/sequence", test_sequence);
  g_test_add_func ("/parametrize/cached", test_cached);
  g_test_add_func ("/parametrize/bad-input", test_bad_input);
  g_test_add_func ("/parametrize/spectral-norm", test_spectral_norm);
  g_test_add_func ("/parametrize/orthogonal", test_orthogonal);
  g_test_add_func ("/parametrize/weight-norm", test_weight_norm);
  g_test_add_func ("/parametrize/spectral-norm-hook", test_spectral_norm_hook);
  g_test_add_func ("/parametrize/weight-norm-parametrization", test_parametrized_weight_norm);
  g_test_add_func ("/parametrize/transfer", test_transfer);
  g_test_add_func ("/parametrize/norm-hooks-roll-back", test_norm_hooks_roll_back);
  return g_test_run ();
}
