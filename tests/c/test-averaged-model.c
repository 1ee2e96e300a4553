/* test-averaged-model.c: gnn_foreach_lerp_, gnn_module_copy, GnnAverageFunction,
 * GnnAveragedModel and gnn_update_bn
 *
 * Expected values are computed here in double from the formulas of torch.optim.swa_utils
 * (current PyTorch): SWA avg ← avg + (cur − avg) / (n + 1), EMA avg ← d·avg + (1 − d)·cur,
 * integer buffers through float32 and truncated, as PyTorch computes them on the CPU.
 * tests/python/test_averaged_model.py compares the same against python3-torch.
 */
#include "config.h"

#include <gio/gio.h>

#include "gnn-test-util.h"
#include "averaged-model-examples.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END

static GnnBackend *
backend_in_use (void)
{
  return gnn_backend_get_for_device_type ("cpu", NULL);
}

static guint64
lerp_calls (void)
{
  return gnn_backend_get_kernel_count (backend_in_use (), GNN_BACKEND_OP_FOREACH_LERP);
}

static double *
values_of (GnnTensor *t, gsize *n)
{
  g_autoptr(GError) error = NULL;
  double *v = gnn_tensor_to_doubles (t, n, &error);

  g_assert_no_error (error);
  return v;
}

/* t ← v (converted to t's dtype), without history */
static void
set_values (GnnTensor *t, const double *v)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  guint nd;
  const gint64 *shape = gnn_tensor_get_shape (t, &nd);
  g_autoptr(GnnTensor) src = gnn_tensor_new_from_doubles (v, gnn_tensor_get_numel (t), shape, nd, &error);

  g_assert_no_error (error);
  g_assert_true (gnn_tensor_copy_ (t, src, &error));
  g_assert_no_error (error);
}

/* PyTorch's lerp formula in double */
static double
lerp_ref (double a, double b, double w)
{
  return fabs (w) < 0.5 ? a + w * (b - a) : b - (b - a) * (1 - w);
}

/* ---- gnn_foreach_lerp_ ------------------------------------------------------------------ */

static GnnTensor *
ramp (gint64 n, double scale, double shift, GnnDtype dtype)
{
  g_autoptr(GError) error = NULL;
  g_autofree double *v = g_new (double, n);
  g_autoptr(GnnTensor) d = NULL;
  GnnTensor *t;

  for (gint64 i = 0; i < n; i++)
    v[i] = scale * sin (0.37 * (double) i + shift);
  d = gnn_tensor_new_from_doubles (v, n, (gint64[]) { n }, 1, &error);
  g_assert_no_error (error);
  t = gnn_tensor_to_dtype (d, dtype, &error);
  g_assert_no_error (error);
  return t;
}

static void
check_foreach_lerp (GnnDtype dtype, double weight)
{
  g_autoptr(GError) error = NULL;
  /* a small tensor, one large enough for the threads, a (4, 5) matrix transposed (a strided
   * pair) and an empty one */
  gint64 sizes[] = { 7, 150001, 20, 0 };
  GnnTensor *self[4], *end[4], *base[4];
  double *before[4], *ends[4];
  double rtol = dtype == GNN_DTYPE_FLOAT32 ? 1e-6 : 1e-14;
  guint64 calls;

  for (guint k = 0; k < 4; k++)
    {
      base[k] = ramp (sizes[k], 2.0, k, dtype);
      end[k] = ramp (sizes[k], 3.0, 10 + k, dtype);
      if (k == 2)
        {
          g_autoptr(GnnTensor) m = gnn_tensor_view (base[k], (gint64[]) { 4, 5 }, 2, &error);
          g_autoptr(GnnTensor) em = gnn_tensor_view (end[k], (gint64[]) { 5, 4 }, 2, &error);
          self[k] = gnn_tensor_t (m, &error);
          g_object_unref (end[k]);
          end[k] = g_object_ref (em);
          g_assert_no_error (error);
          g_assert_false (gnn_tensor_is_contiguous (self[k]));
        }
      else
        self[k] = g_object_ref (base[k]);
      before[k] = values_of (self[k], NULL);
      ends[k] = values_of (end[k], NULL);
    }

  calls = lerp_calls ();
  g_assert_true (gnn_foreach_lerp_ (self, end, 4, weight, &error));
  g_assert_no_error (error);
  /* one kernel call for the four tensors of one device and dtype */
  g_assert_cmpuint (lerp_calls (), ==, calls + 1);

  for (guint k = 0; k < 4; k++)
    {
      g_autofree double *expected = g_new (double, MAX (sizes[k], 1));
      for (gint64 i = 0; i < sizes[k]; i++)
        expected[i] = lerp_ref (before[k][i], ends[k][i], weight);
      gnn_test_assert_close (self[k], expected, sizes[k], rtol, rtol);
      g_assert_cmpuint (gnn_tensor_get_version (self[k]), >=, 1);
      g_free (before[k]);
      g_free (ends[k]);
      g_object_unref (self[k]);
      g_object_unref (end[k]);
      g_object_unref (base[k]);
    }
}

static void
test_foreach_lerp_values (void)
{
  check_foreach_lerp (GNN_DTYPE_FLOAT32, 0.1);
  check_foreach_lerp (GNN_DTYPE_FLOAT32, 0.75);   /* the other branch of lerp */
  check_foreach_lerp (GNN_DTYPE_FLOAT64, 0.001);
  check_foreach_lerp (GNN_DTYPE_FLOAT64, 1.0);
}

static void
test_foreach_lerp_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = ramp (4, 1, 0, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) b = ramp (4, 1, 1, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) c = ramp (5, 1, 1, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) d = ramp (4, 1, 1, GNN_DTYPE_FLOAT64);
  g_autoptr(GnnTensor) i = gnn_tensor_new_zeros ((gint64[]) { 4 }, 1, GNN_DTYPE_INT64, NULL, NULL);
  g_autoptr(GnnTensor) p = ramp (4, 1, 2, GNN_DTYPE_FLOAT32);
  g_autofree double *a_before = values_of (a, NULL);

  g_assert_false (gnn_foreach_lerp_ (NULL, NULL, 0, 0.5, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* a shape mismatch in the second pair leaves the first unchanged */
  g_assert_false (gnn_foreach_lerp_ ((GnnTensor *[]) { a, b }, (GnnTensor *[]) { b, c }, 2, 0.5, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "[5]"));
  g_clear_error (&error);
  gnn_test_assert_close (a, a_before, 4, 0, 0);

  g_assert_false (gnn_foreach_lerp_ ((GnnTensor *[]) { a }, (GnnTensor *[]) { d }, 1, 0.5, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);

  g_assert_false (gnn_foreach_lerp_ ((GnnTensor *[]) { i }, (GnnTensor *[]) { i }, 1, 0.5, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);

  /* one tensor twice in self */
  g_assert_false (gnn_foreach_lerp_ ((GnnTensor *[]) { a, a }, (GnnTensor *[]) { b, b }, 2, 0.5, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* a leaf that requires grad: refused in grad mode, as PyTorch's in-place ops */
  OK (gnn_tensor_set_requires_grad (p, TRUE, &error));
  g_assert_false (gnn_foreach_lerp_ ((GnnTensor *[]) { p }, (GnnTensor *[]) { b }, 1, 0.5, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_clear_error (&error);
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_assert_true (gnn_foreach_lerp_ ((GnnTensor *[]) { p }, (GnnTensor *[]) { b }, 1, 0.5, &error));
    g_assert_no_error (error);
    g_assert_true (gnn_tensor_is_leaf (p));
    g_assert_null (gnn_tensor_get_grad_fn_name (p));
  }
  /* an end that requires grad: no gradient would be recorded, so it is refused too */
  g_assert_false (gnn_foreach_lerp_ ((GnnTensor *[]) { a }, (GnnTensor *[]) { p }, 1, 0.5, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
}

/* ---- gnn_module_copy -------------------------------------------------------------------- */

/* a module with a construct-only size; setup makes the parameter `weight`, the buffer `made`
 * and the child `inner` (a Linear), and keeps pointers to the weight and the child, as a
 * language binding keeps attributes; its extra state is an int */
typedef struct {
  GnnModule parent_instance;
  int size;
  int state;
  GnnParameter *weight;   /* borrowed */
  GnnModule *inner;       /* borrowed */
} TestHolder;
typedef struct { GnnModuleClass parent_class; } TestHolderClass;
G_DEFINE_TYPE (TestHolder, test_holder, GNN_TYPE_MODULE)

static gboolean
test_holder_setup (GnnModule *module, GError **error)
{
  TestHolder *self = (TestHolder *) module;
  g_autoptr(GnnTensor) w = gnn_tensor_new_ones ((gint64[]) { self->size }, 1, GNN_DTYPE_FLOAT32, NULL, error);
  g_autoptr(GnnTensor) m = gnn_tensor_new_zeros ((gint64[]) { 2 }, 1, GNN_DTYPE_FLOAT32, NULL, error);
  g_autoptr(GnnParameter) p = w ? gnn_parameter_new (w, TRUE, error) : NULL;
  g_autoptr(GnnLinear) inner = gnn_linear_new (self->size, self->size, TRUE, error);

  if (!p || !inner || !m)
    return FALSE;
  self->weight = p;
  self->inner = GNN_MODULE (inner);
  return gnn_module_register_parameter (module, "weight", p, error) &&
         gnn_module_register_buffer (module, "made", m, TRUE, error) &&
         gnn_module_register_module (module, "inner", GNN_MODULE (inner), error);
}

static GnnArgs *
test_holder_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  TestHolder *self = (TestHolder *) module;
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);
  g_autoptr(GnnTensor) y = x ? gnn_tensor_mul (x, GNN_TENSOR (self->weight), error) : NULL;
  g_autoptr(GnnTensor) z = y ? gnn_module_forward_tensor (self->inner, y, error) : NULL;

  return z ? gnn_args_new_tensor (z) : NULL;
}

static GVariant *
test_holder_get_extra_state (GnnModule *module, GError **error)
{
  return g_variant_new_int32 (((TestHolder *) module)->state);
}

static gboolean
test_holder_set_extra_state (GnnModule *module, GVariant *state, GError **error)
{
  ((TestHolder *) module)->state = g_variant_get_int32 (state);
  return TRUE;
}

static void
test_holder_set_property (GObject *o, guint id, const GValue *v, GParamSpec *ps)
{
  ((TestHolder *) o)->size = g_value_get_int (v);
}

static void
test_holder_get_property (GObject *o, guint id, GValue *v, GParamSpec *ps)
{
  g_value_set_int (v, ((TestHolder *) o)->size);
}

static void
test_holder_class_init (TestHolderClass *klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);
  GnnModuleClass *mc = GNN_MODULE_CLASS (klass);

  oc->set_property = test_holder_set_property;
  oc->get_property = test_holder_get_property;
  mc->setup = test_holder_setup;
  mc->forward = test_holder_forward;
  mc->get_extra_state = test_holder_get_extra_state;
  mc->set_extra_state = test_holder_set_extra_state;
  g_object_class_install_property (oc, 1,
    g_param_spec_int ("size", NULL, NULL, 0, 100, 1,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
}

static void
test_holder_init (TestHolder *self)
{
}

static void
count_call (GnnModule *module, GnnArgs *input, gpointer data)
{
  (*(int *) data)++;
}

static void
assert_same_values (GnnTensor *a, GnnTensor *b)
{
  gsize na, nb;
  g_autofree double *va = values_of (a, &na);
  g_autofree double *vb = values_of (b, &nb);

  g_assert_cmpuint (na, ==, nb);
  g_assert_cmpint (gnn_tensor_get_dtype (a), ==, gnn_tensor_get_dtype (b));
  for (gsize i = 0; i < na; i++)
    g_assert_cmpfloat (va[i], ==, vb[i]);
  if (na > 0)
    g_assert_false (gnn_tensor_shares_storage (a, b));
}

static void
assert_same_keys (GnnModule *a, GnnModule *b)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sa = gnn_module_state_dict (a, NULL, FALSE, &error);
  g_autoptr(GnnStateDict) sb = gnn_module_state_dict (b, NULL, FALSE, &error);
  g_auto(GStrv) ka = NULL, kb = NULL;

  g_assert_no_error (error);
  ka = gnn_state_dict_get_keys (sa);
  kb = gnn_state_dict_get_keys (sb);
  g_assert_cmpstrv (ka, kb);
}

static void
test_copy_subclass (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) src = g_object_new (test_holder_get_type (), "size", 3, NULL);
  g_autoptr(GnnModule) copy = NULL;
  g_autoptr(GnnTensor) scratch = ramp (3, 1, 5, GNN_DTYPE_FLOAT64);
  g_autoptr(GnnTensor) x = ramp (3, 1, 7, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) y1 = NULL, y2 = NULL;
  TestHolder *s = (TestHolder *) src, *c;
  GnnParameter *inner_weight, *inner_bias;
  int hook_calls = 0;

  OK (gnn_module_setup (src, &error));
  /* values that setup did not make, a shared parameter, a non-persistent buffer, a removed
   * name, a frozen parameter, mixed training modes, extra state and a hook */
  set_values (GNN_TENSOR (s->weight), GNN_TEST_DATA (0.5, -1.5, 2.25));
  OK (inner_weight = gnn_module_get_parameter (src, "inner.weight", &error));
  OK (inner_bias = gnn_module_get_parameter (src, "inner.bias", &error));
  OK (gnn_module_register_parameter (src, "tied", inner_weight, &error));
  OK (gnn_module_register_buffer (src, "scratch", scratch, FALSE, &error));
  g_assert_true (gnn_module_remove (src, "made"));
  OK (gnn_module_register_buffer (src, "unset", NULL, TRUE, &error));
  OK (gnn_tensor_set_requires_grad (GNN_TENSOR (inner_bias), FALSE, &error));
  gnn_module_set_training (s->inner, FALSE);
  s->state = 7;
  gnn_module_register_forward_pre_hook (src, count_call, &hook_calls, NULL, FALSE, FALSE);

  OK (copy = gnn_module_copy (src, &error));
  g_assert_true (G_OBJECT_TYPE (copy) == test_holder_get_type ());
  c = (TestHolder *) copy;
  g_assert_cmpint (c->size, ==, 3);

  /* setup's objects are the copy's, filled with the source's values */
  g_assert_true (gnn_module_get_parameter (copy, "weight", NULL) == c->weight);
  g_assert_true (gnn_module_get_submodule (copy, "inner", NULL) == c->inner);
  assert_same_values (GNN_TENSOR (c->weight), GNN_TENSOR (s->weight));
  g_assert_true (gnn_tensor_get_requires_grad (GNN_TENSOR (c->weight)));
  assert_same_values (GNN_TENSOR (gnn_module_get_parameter (copy, "inner.weight", NULL)), GNN_TENSOR (inner_weight));
  g_assert_false (gnn_tensor_get_requires_grad (GNN_TENSOR (gnn_module_get_parameter (copy, "inner.bias", NULL))));

  /* sharing kept */
  g_assert_true (gnn_module_get_parameter (copy, "tied", NULL) == gnn_module_get_parameter (copy, "inner.weight", NULL));
  g_assert_true (gnn_module_get_parameter (copy, "tied", NULL) != inner_weight);

  /* buffers: the non-persistent one copied and still non-persistent; the removed one gone */
  assert_same_values (gnn_module_get_buffer (copy, "scratch", &error), scratch);
  g_assert_no_error (error);
  g_assert_false (gnn_module_is_buffer_persistent (copy, "scratch"));
  g_assert_null (gnn_module_get_buffer (copy, "made", &error));
  g_clear_error (&error);
  assert_same_keys (src, copy);

  g_assert_true (gnn_module_get_training (copy));
  g_assert_false (gnn_module_get_training (c->inner));
  g_assert_cmpint (c->state, ==, 7);

  /* same outputs; the hook is the source's only */
  OK (y1 = gnn_module_forward_tensor (src, x, &error));
  OK (y2 = gnn_module_forward_tensor (copy, x, &error));
  g_assert_cmpint (hook_calls, ==, 1);
  assert_same_values (y1, y2);

  /* the copy is independent */
  set_values (GNN_TENSOR (c->weight), GNN_TEST_DATA (9, 9, 9));
  gnn_test_assert_close (GNN_TENSOR (s->weight), GNN_TEST_DATA (0.5, -1.5, 2.25), 3, 0, 0);

  g_clear_object (&y1);
  g_clear_object (&y2);
  g_assert_finalize_object (g_steal_pointer (&copy));
}

static void
test_copy_containers (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnLinear) shared = gnn_linear_new (2, 2, TRUE, &error);
  g_autoptr(GnnBatchNorm1d) bn = gnn_batch_norm1d_new_full (2, 1e-3, 0.25, TRUE, TRUE, GNN_DTYPE_FLOAT64, &error);
  g_autoptr(GnnModuleDict) dict = gnn_module_dict_new ();
  g_autoptr(GnnSequential) seq = NULL;
  g_autoptr(GnnModule) copy = NULL;
  g_autoptr(GPtrArray) sp = NULL, cp = NULL, sb = NULL, cb = NULL;
  GnnModule *c0, *c1;

  g_assert_no_error (error);
  OK (gnn_module_dict_set (dict, "norm", GNN_MODULE (bn), &error));
  seq = gnn_sequential_new ((GnnModule *[]) { GNN_MODULE (shared), GNN_MODULE (shared), GNN_MODULE (dict) }, 3);
  set_values (gnn_module_get_buffer (GNN_MODULE (bn), "running_mean", NULL), GNN_TEST_DATA (0.5, -0.5));
  set_values (gnn_module_get_buffer (GNN_MODULE (bn), "num_batches_tracked", NULL), GNN_TEST_DATA (4));

  OK (copy = gnn_module_copy (GNN_MODULE (seq), &error));
  g_assert_true (GNN_IS_SEQUENTIAL (copy));
  c0 = gnn_sequential_get (GNN_SEQUENTIAL (copy), 0, &error);
  c1 = gnn_sequential_get (GNN_SEQUENTIAL (copy), 1, &error);
  g_assert_no_error (error);
  g_assert_true (c0 == c1);
  g_assert_true (c0 != GNN_MODULE (shared));

  sp = gnn_module_parameters (GNN_MODULE (seq), TRUE);
  cp = gnn_module_parameters (copy, TRUE);
  sb = gnn_module_buffers (GNN_MODULE (seq), TRUE);
  cb = gnn_module_buffers (copy, TRUE);
  g_assert_cmpuint (sp->len, ==, cp->len);
  g_assert_cmpuint (sb->len, ==, cb->len);
  for (guint i = 0; i < sp->len; i++)
    assert_same_values (sp->pdata[i], cp->pdata[i]);
  for (guint i = 0; i < sb->len; i++)
    assert_same_values (sb->pdata[i], cb->pdata[i]);
  assert_same_keys (GNN_MODULE (seq), copy);
  {
    GnnModule *norm = gnn_module_get_submodule (copy, "2.norm", &error);
    g_assert_no_error (error);
    g_assert_cmpfloat (gnn_batch_norm_get_momentum (GNN_BATCH_NORM (norm)), ==, 0.25);
    g_assert_cmpfloat (gnn_batch_norm_get_eps (GNN_BATCH_NORM (norm)), ==, 1e-3);
  }
  g_clear_pointer (&cp, g_ptr_array_unref);
  g_clear_pointer (&cb, g_ptr_array_unref);
  g_assert_finalize_object (g_steal_pointer (&copy));
}

/* ---- the averaged model ------------------------------------------------------------------ */

/* Sequential (Linear (3, 4), BatchNorm1d (4), ReLU, Linear (4, 2)), float32 */
static GnnModule *
make_model (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnLinear) l1 = gnn_linear_new (3, 4, TRUE, &error);
  g_autoptr(GnnBatchNorm1d) bn = gnn_batch_norm1d_new (4, &error);
  g_autoptr(GnnReLU) relu = gnn_relu_new ();
  g_autoptr(GnnLinear) l2 = gnn_linear_new (4, 2, TRUE, &error);

  g_assert_no_error (error);
  return GNN_MODULE (gnn_sequential_new ((GnnModule *[]) { GNN_MODULE (l1), GNN_MODULE (bn), GNN_MODULE (relu),
                                                           GNN_MODULE (l2) }, 4));
}

/* a training step stand-in: every parameter moves, and for the model of make_model a forward
 * in training mode moves the running statistics and num_batches_tracked */
static void
perturb (GnnModule *model, int step)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) params = gnn_module_parameters (model, TRUE);
  g_autoptr(GnnTensor) x = NULL, y = NULL;

  for (guint i = 0; i < params->len; i++)
    {
      gsize n;
      g_autofree double *v = values_of (params->pdata[i], &n);
      for (gsize k = 0; k < n; k++)
        v[k] += 0.3 * sin (1.3 * step + 0.7 * k + i);
      set_values (params->pdata[i], v);
    }
  if (!GNN_IS_SEQUENTIAL (model))
    return;
  x = ramp (15, 1.5, step, GNN_DTYPE_FLOAT32);
  {
    g_autoptr(GnnTensor) xv = gnn_tensor_view (x, (gint64[]) { 5, 3 }, 2, &error);
    g_assert_no_error (error);
    y = gnn_module_forward_tensor (model, xv, &error);
    g_assert_no_error (error);
  }
}

/* the model's parameters then buffers, as doubles, one array each */
static GPtrArray *
snapshot (GnnModule *model, gboolean buffers)
{
  g_autoptr(GPtrArray) ts = buffers ? gnn_module_buffers (model, TRUE) : gnn_module_parameters (model, TRUE);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < ts->len; i++)
    g_ptr_array_add (out, values_of (ts->pdata[i], NULL));
  return out;
}

static void
assert_tensors (GnnModule *module, gboolean buffers, GPtrArray *expected, double tol)
{
  g_autoptr(GPtrArray) ts = buffers ? gnn_module_buffers (module, TRUE) : gnn_module_parameters (module, TRUE);

  g_assert_cmpuint (ts->len, ==, expected->len);
  for (guint i = 0; i < ts->len; i++)
    gnn_test_assert_close (ts->pdata[i], expected->pdata[i], gnn_tensor_get_numel (ts->pdata[i]), tol, tol);
}

typedef enum { AVG_SWA_DEFAULT, AVG_SWA, AVG_SWA_MULTI, AVG_EMA, AVG_EMA_MULTI } AvgKind;

/* one float value of the expected average after the current snapshot @cur */
static double
expect_float (AvgKind kind, double decay, double avg, double cur, gint64 n)
{
  if (n == 0)
    return cur;
  if (kind == AVG_EMA || kind == AVG_EMA_MULTI)
    return decay * avg + (1 - decay) * cur;
  return avg + (cur - avg) / (double) (n + 1);
}

/* an int64 value, through float32 and truncated, as PyTorch on the CPU */
static double
expect_int (AvgKind kind, double decay, double avg, double cur, gint64 n)
{
  if (n == 0)
    return cur;
  if (kind == AVG_EMA || kind == AVG_EMA_MULTI)
    return (double) (gint64) ((float) avg * (float) decay + (float) cur * (float) (1 - decay));
  return (double) (gint64) ((float) avg + (float) (cur - avg) / (float) (n + 1));
}

static void
run_average (AvgKind kind, double decay, gboolean use_buffers)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = make_model ();
  g_autoptr(GnnAverageFunction) fn = NULL;
  g_autoptr(GnnAveragedModel) avg = NULL;
  g_autoptr(GPtrArray) exp_p = NULL, exp_b = NULL;
  g_autoptr(GPtrArray) buffers = gnn_module_buffers (model, TRUE);
  gboolean multi = kind == AVG_SWA_MULTI || kind == AVG_EMA_MULTI;

  switch (kind)
    {
    case AVG_SWA_DEFAULT: break;
    case AVG_SWA: fn = gnn_average_function_new_swa (); break;
    case AVG_SWA_MULTI: fn = gnn_average_function_new_swa_multi (); break;
    case AVG_EMA: OK (fn = gnn_average_function_new_ema (decay, &error)); break;
    case AVG_EMA_MULTI: OK (fn = gnn_average_function_new_ema_multi (decay, &error)); break;
    }
  OK (avg = gnn_averaged_model_new (model, NULL, multi ? NULL : fn, multi ? fn : NULL, use_buffers, &error));
  g_assert_cmpint (gnn_averaged_model_get_n_averaged (avg), ==, 0);

  for (int step = 0; step < 5; step++)
    {
      g_autoptr(GPtrArray) cur_p = NULL, cur_b = NULL;
      gint64 n = gnn_averaged_model_get_n_averaged (avg);
      guint64 calls;

      perturb (model, step);
      cur_p = snapshot (model, FALSE);
      cur_b = snapshot (model, TRUE);
      if (exp_p == NULL)
        {
          exp_p = snapshot (model, FALSE);
          exp_b = snapshot (model, TRUE);
        }
      {
        g_autoptr(GPtrArray) params = gnn_module_parameters (model, TRUE);
        for (guint i = 0; i < params->len; i++)
          for (gint64 k = 0; k < gnn_tensor_get_numel (params->pdata[i]); k++)
            ((double *) exp_p->pdata[i])[k] = expect_float (kind, decay, ((double *) exp_p->pdata[i])[k],
                                                             ((double *) cur_p->pdata[i])[k], n);
        for (guint i = 0; i < buffers->len; i++)
          for (gint64 k = 0; k < gnn_tensor_get_numel (buffers->pdata[i]); k++)
            {
              double a = ((double *) exp_b->pdata[i])[k], c = ((double *) cur_b->pdata[i])[k];
              if (!use_buffers)
                ((double *) exp_b->pdata[i])[k] = c;
              else if (gnn_tensor_get_dtype (buffers->pdata[i]) == GNN_DTYPE_INT64)
                ((double *) exp_b->pdata[i])[k] = expect_int (kind, decay, a, c, n);
              else
                ((double *) exp_b->pdata[i])[k] = expect_float (kind, decay, a, c, n);
            }
      }

      calls = lerp_calls ();
      if (kind == AVG_SWA_MULTI && use_buffers && n > 0)
        {
          /* PyTorch's _foreach_addcdiv_ refuses num_batches_tracked */
          g_assert_false (gnn_averaged_model_update_parameters (avg, model, &error));
          g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
          return;
        }
      OK (gnn_averaged_model_update_parameters (avg, model, &error));
      /* after the first update, the float tensors of the one device and dtype take one
       * fused kernel call */
      g_assert_cmpuint (lerp_calls () - calls, ==, n > 0 ? 1 : 0);
      g_assert_cmpint (gnn_averaged_model_get_n_averaged (avg), ==, n + 1);
      assert_tensors (gnn_averaged_model_get_module (avg), FALSE, exp_p, 1e-5);
      assert_tensors (gnn_averaged_model_get_module (avg), TRUE, exp_b, 1e-5);
    }
}

static void
test_swa_default (void)
{
  run_average (AVG_SWA_DEFAULT, 0, FALSE);
  run_average (AVG_SWA_DEFAULT, 0, TRUE);
}

static void
test_swa_functions (void)
{
  run_average (AVG_SWA, 0, FALSE);
  run_average (AVG_SWA, 0, TRUE);
  run_average (AVG_SWA_MULTI, 0, FALSE);
  run_average (AVG_SWA_MULTI, 0, TRUE);
}

static void
test_ema (void)
{
  run_average (AVG_EMA_MULTI, 0.9, FALSE);
  run_average (AVG_EMA_MULTI, 0.9, TRUE);
  run_average (AVG_EMA, 0.75, FALSE);
  run_average (AVG_EMA, 0.75, TRUE);
  run_average (AVG_EMA_MULTI, 0.0, TRUE);
  run_average (AVG_EMA_MULTI, 1.0, TRUE);
}

/* the EMA of the fused kernel is PyTorch's lerp (ema, cur, 1 - decay), to the bit in float64 */
static void
test_ema_is_lerp (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnLinear) model = gnn_linear_new_with_dtype (5, 3, TRUE, GNN_DTYPE_FLOAT64, &error);
  g_autoptr(GnnAverageFunction) fn = gnn_average_function_new_ema_multi (0.999, &error);
  g_autoptr(GnnAveragedModel) avg = NULL;
  g_autoptr(GPtrArray) before = NULL, cur = NULL;
  g_autoptr(GPtrArray) params = NULL;

  g_assert_no_error (error);
  OK (avg = gnn_averaged_model_new (GNN_MODULE (model), "cpu", NULL, fn, FALSE, &error));
  OK (gnn_averaged_model_update_parameters (avg, GNN_MODULE (model), &error));
  perturb (GNN_MODULE (model), 3);
  before = snapshot (gnn_averaged_model_get_module (avg), FALSE);
  cur = snapshot (GNN_MODULE (model), FALSE);
  OK (gnn_averaged_model_update_parameters (avg, GNN_MODULE (model), &error));
  params = gnn_module_parameters (gnn_averaged_model_get_module (avg), TRUE);
  for (guint i = 0; i < params->len; i++)
    {
      gsize n;
      g_autofree double *got = values_of (params->pdata[i], &n);
      for (gsize k = 0; k < n; k++)
        g_assert_cmpfloat (got[k], ==, lerp_ref (((double *) before->pdata[i])[k], ((double *) cur->pdata[i])[k],
                                                 1 - 0.999));
    }
}

/* ---- callbacks --------------------------------------------------------------------------- */

typedef struct {
  int calls;
  int destroyed;
  gint64 last_n;
} CallbackData;

static void
callback_data_destroy (gpointer data)
{
  ((CallbackData *) data)->destroyed++;
}

/* the mean of the averaged and current values */
static GnnTensor *
half_way (GnnTensor *averaged, GnnTensor *current, GnnTensor *n_averaged, gpointer user_data)
{
  CallbackData *d = user_data;
  g_autoptr(GnnTensor) sum = gnn_tensor_add (averaged, current, 1.0, NULL);

  d->calls++;
  d->last_n = (gint64) gnn_tensor_item (n_averaged, NULL);
  g_assert_cmpint (gnn_tensor_get_dtype (n_averaged), ==, GNN_DTYPE_INT64);
  g_assert_false (gnn_tensor_get_requires_grad (averaged));
  g_assert_false (gnn_is_grad_enabled ());
  return gnn_tensor_mul_scalar (sum, 0.5, NULL);
}

/* averaged ← current, in place; fails when asked */
static gboolean
take_current (GnnTensor **averaged, GnnTensor **current, guint n, GnnTensor *n_averaged, gpointer user_data,
              GError **error)
{
  CallbackData *d = user_data;

  d->calls++;
  d->last_n = (gint64) gnn_tensor_item (n_averaged, NULL);
  if (d->last_n >= 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED, "take_current: enough");
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    if (!gnn_tensor_copy_ (averaged[i], current[i], error))
      return FALSE;
  return TRUE;
}

static void
test_callbacks (void)
{
  g_autoptr(GError) error = NULL;
  CallbackData d1 = { 0 }, d2 = { 0 };
  g_autoptr(GnnModule) model = make_model ();
  GnnAverageFunction *fn = gnn_average_function_new_callback (half_way, &d1, callback_data_destroy);
  GnnAverageFunction *mfn = gnn_average_function_new_multi_callback (take_current, &d2, callback_data_destroy);
  g_autoptr(GnnAveragedModel) a1 = NULL, a2 = NULL;
  g_autoptr(GPtrArray) first = NULL, second = NULL;
  guint n_params;

  g_assert_false (gnn_average_function_get_multi (fn));
  g_assert_true (gnn_average_function_get_multi (mfn));
  g_assert_true (isnan (gnn_average_function_get_decay (fn)));
  OK (a1 = gnn_averaged_model_new (model, NULL, fn, NULL, FALSE, &error));
  OK (a2 = gnn_averaged_model_new (model, NULL, NULL, mfn, TRUE, &error));
  g_object_unref (fn);
  g_object_unref (mfn);

  {
    g_autoptr(GPtrArray) p = gnn_module_parameters (model, TRUE);
    n_params = p->len;
  }
  first = snapshot (model, FALSE);
  OK (gnn_averaged_model_update_parameters (a1, model, &error));
  OK (gnn_averaged_model_update_parameters (a2, model, &error));
  g_assert_cmpint (d1.calls, ==, 0);
  g_assert_cmpint (d2.calls, ==, 0);
  perturb (model, 1);
  second = snapshot (model, FALSE);
  OK (gnn_averaged_model_update_parameters (a1, model, &error));
  OK (gnn_averaged_model_update_parameters (a2, model, &error));
  /* one call per tensor; one per device and dtype (float32 and int64 with use_buffers) */
  g_assert_cmpint (d1.calls, ==, (int) n_params);
  g_assert_cmpint (d1.last_n, ==, 1);
  g_assert_cmpint (d2.calls, ==, 2);
  for (guint i = 0; i < first->len; i++)
    {
      gsize n = 0;
      g_autoptr(GPtrArray) p = gnn_module_parameters (gnn_averaged_model_get_module (a1), TRUE);
      g_autofree double *expected = NULL;

      n = gnn_tensor_get_numel (p->pdata[i]);
      expected = g_new (double, n);
      for (gsize k = 0; k < n; k++)
        expected[k] = 0.5 * (((double *) first->pdata[i])[k] + ((double *) second->pdata[i])[k]);
      gnn_test_assert_close (p->pdata[i], expected, n, 1e-6, 1e-6);
    }
  assert_tensors (gnn_averaged_model_get_module (a2), FALSE, second, 0);

  /* a failing multi_avg_fn: its error, and n_averaged unchanged */
  g_assert_false (gnn_averaged_model_update_parameters (a2, model, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, "take_current: enough");
  g_assert_cmpint (gnn_averaged_model_get_n_averaged (a2), ==, 2);

  g_assert_cmpint (d1.destroyed, ==, 0);
  g_clear_object (&a1);
  g_clear_object (&a2);
  g_assert_cmpint (d1.destroyed, ==, 1);
  g_assert_cmpint (d2.destroyed, ==, 1);
}

/* ---- errors, state dict, forward, copy ------------------------------------------------- */

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnLinear) model = gnn_linear_new (3, 4, TRUE, &error);
  g_autoptr(GnnLinear) no_bias = gnn_linear_new (3, 4, FALSE, &error);
  g_autoptr(GnnLinear) wider = gnn_linear_new (3, 5, TRUE, &error);
  g_autoptr(GnnAverageFunction) ema = gnn_average_function_new_ema (0.5, &error);
  g_autoptr(GnnAverageFunction) ema_multi = gnn_average_function_new_ema_multi (0.5, &error);
  g_autoptr(GnnAveragedModel) avg = NULL;
  g_autoptr(GPtrArray) before = NULL;
  const double bad_decays[] = { -0.01, 1.01, NAN, INFINITY };

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (bad_decays); i++)
    {
      g_assert_null (gnn_average_function_new_ema (bad_decays[i], &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
      g_clear_error (&error);
      g_assert_null (gnn_average_function_new_ema_multi (bad_decays[i], &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
      g_clear_error (&error);
    }

  g_assert_null (gnn_averaged_model_new (GNN_MODULE (model), NULL, ema, ema_multi, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "Only one of avg_fn and multi_avg_fn should be provided");
  g_clear_error (&error);
  g_assert_null (gnn_averaged_model_new (GNN_MODULE (model), NULL, ema_multi, NULL, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_averaged_model_new (GNN_MODULE (model), NULL, NULL, ema, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_averaged_model_new (GNN_MODULE (model), "nowhere:3", NULL, NULL, FALSE, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  OK (avg = gnn_averaged_model_new (GNN_MODULE (model), NULL, ema, NULL, FALSE, &error));
  OK (gnn_averaged_model_update_parameters (avg, GNN_MODULE (model), &error));
  before = snapshot (GNN_MODULE (avg), FALSE);

  g_assert_false (gnn_averaged_model_update_parameters (avg, GNN_MODULE (no_bias), &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "1 parameters but the averaged model has 2"));
  g_clear_error (&error);
  g_assert_false (gnn_averaged_model_update_parameters (avg, GNN_MODULE (wider), &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "weight"));
  g_assert_nonnull (strstr (error->message, "[5, 3]"));
  g_clear_error (&error);
  /* nothing changed */
  g_assert_cmpint (gnn_averaged_model_get_n_averaged (avg), ==, 1);
  assert_tensors (GNN_MODULE (avg), FALSE, before, 0);
}

static void
test_state_dict (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = make_model ();
  g_autoptr(GnnAveragedModel) avg = NULL, other = NULL;
  g_autoptr(GnnStateDict) sd = NULL, msd = NULL;
  g_auto(GStrv) keys = NULL, mkeys = NULL;
  g_autoptr(GPtrArray) p1 = NULL, p2 = NULL;

  OK (avg = gnn_averaged_model_new (model, NULL, NULL, NULL, TRUE, &error));
  for (int step = 0; step < 3; step++)
    {
      perturb (model, step);
      OK (gnn_averaged_model_update_parameters (avg, model, &error));
    }
  OK (sd = gnn_module_state_dict (GNN_MODULE (avg), NULL, FALSE, &error));
  OK (msd = gnn_module_state_dict (model, NULL, FALSE, &error));
  keys = gnn_state_dict_get_keys (sd);
  mkeys = gnn_state_dict_get_keys (msd);
  g_assert_cmpuint (g_strv_length (keys), ==, g_strv_length (mkeys) + 1);
  g_assert_cmpstr (keys[0], ==, "n_averaged");
  for (guint i = 0; mkeys[i]; i++)
    {
      g_autofree char *k = g_strconcat ("module.", mkeys[i], NULL);
      g_assert_cmpstr (keys[i + 1], ==, k);
    }
  {
    GnnTensor *n = gnn_state_dict_get_tensor (sd, "n_averaged", &error);
    g_assert_no_error (error);
    g_assert_cmpint (gnn_tensor_get_dtype (n), ==, GNN_DTYPE_INT64);
    g_assert_cmpuint (gnn_tensor_get_ndim (n), ==, 0);
    g_assert_cmpfloat (gnn_tensor_item (n, NULL), ==, 3);
  }

  /* round trip into an average of a fresh model */
  {
    g_autoptr(GnnModule) fresh = make_model ();
    OK (other = gnn_averaged_model_new (fresh, NULL, NULL, NULL, TRUE, &error));
  }
  OK (gnn_module_load_state_dict (GNN_MODULE (other), sd, TRUE, FALSE, NULL, NULL, &error));
  g_assert_cmpint (gnn_averaged_model_get_n_averaged (other), ==, 3);
  p1 = snapshot (GNN_MODULE (avg), FALSE);
  assert_tensors (GNN_MODULE (other), FALSE, p1, 0);
  p2 = snapshot (GNN_MODULE (avg), TRUE);
  assert_tensors (GNN_MODULE (other), TRUE, p2, 0);
}

static void
test_forward_and_copy (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = make_model ();
  g_autoptr(GnnAveragedModel) avg = NULL;
  g_autoptr(GnnModule) copy = NULL;
  g_autoptr(GnnTensor) x = ramp (6, 1, 0, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) xv = gnn_tensor_view (x, (gint64[]) { 2, 3 }, 2, NULL);
  g_autoptr(GnnTensor) y1 = NULL, y2 = NULL, y3 = NULL;
  g_autofree char *repr = NULL, *inner = NULL, *expected = NULL;
  g_autoptr(GPtrArray) sp = NULL;

  OK (avg = gnn_averaged_model_new (model, "cpu", NULL, NULL, FALSE, &error));
  gnn_module_eval (model);
  gnn_module_eval (GNN_MODULE (avg));
  OK (y1 = gnn_module_forward_tensor (model, xv, &error));
  OK (y2 = gnn_module_forward_tensor (GNN_MODULE (avg), xv, &error));
  assert_same_values (y1, y2);

  repr = gnn_module_to_string (GNN_MODULE (avg));
  inner = gnn_module_to_string (model);
  {
    g_auto(GStrv) lines = g_strsplit (inner, "\n", -1);
    g_autofree char *indented = g_strjoinv ("\n  ", lines);
    expected = g_strdup_printf ("AveragedModel(\n  (module): %s\n)", indented);
  }
  g_assert_cmpstr (repr, ==, expected);

  /* a copy of the averaged model (deepcopy (swa_model)) */
  OK (gnn_averaged_model_update_parameters (avg, model, &error));
  OK (copy = gnn_module_copy (GNN_MODULE (avg), &error));
  g_assert_true (GNN_IS_AVERAGED_MODEL (copy));
  g_assert_cmpint (gnn_averaged_model_get_n_averaged (GNN_AVERAGED_MODEL (copy)), ==, 1);
  g_assert_nonnull (gnn_averaged_model_get_module (GNN_AVERAGED_MODEL (copy)));
  g_assert_false (gnn_module_get_training (copy));
  assert_same_keys (GNN_MODULE (avg), copy);
  OK (y3 = gnn_module_forward_tensor (copy, xv, &error));
  assert_same_values (y2, y3);
  sp = snapshot (model, FALSE);
  perturb (model, 2);
  OK (gnn_averaged_model_update_parameters (GNN_AVERAGED_MODEL (copy), model, &error));
  g_assert_cmpint (gnn_averaged_model_get_n_averaged (GNN_AVERAGED_MODEL (copy)), ==, 2);
  g_assert_cmpint (gnn_averaged_model_get_n_averaged (avg), ==, 1);
  /* the original average did not move */
  assert_tensors (gnn_averaged_model_get_module (avg), FALSE, sp, 0);
}

/* ---- update_bn --------------------------------------------------------------------------- */

static GnnTensor *
batch (const double *v)
{
  return gnn_test_tensor_d (v, 6, GNN_TEST_SHAPE (3, 2), 2);
}

static void
test_update_bn (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnBatchNorm1d) bn = gnn_batch_norm1d_new_full (2, 1e-5, 0.3, TRUE, TRUE, GNN_DTYPE_FLOAT64, &error);
  g_autoptr(GnnSequential) model = gnn_sequential_new ((GnnModule *[]) { GNN_MODULE (bn) }, 1);
  g_autoptr(GListStore) loader = g_list_store_new (G_TYPE_OBJECT);
  g_autoptr(GListStore) pair = g_list_store_new (G_TYPE_OBJECT);
  g_autoptr(GnnTensor) a = batch (GNN_TEST_DATA (1, 2, 3, 4, 5, 6));
  g_autoptr(GnnTensor) b = batch (GNN_TEST_DATA (0, 0, 2, -2, 4, 8));
  g_autoptr(GnnTensor) c = batch (GNN_TEST_DATA (-1, 1, -1, 1, 5, 1));
  g_autoptr(GnnTensor) label = gnn_tensor_new_zeros ((gint64[]) { 3 }, 1, GNN_DTYPE_INT64, NULL, NULL);
  g_autoptr(GnnLinear) not_a_batch = gnn_linear_new (1, 1, TRUE, NULL);
  g_autoptr(GnnModule) plain = GNN_MODULE (gnn_linear_new (2, 2, TRUE, NULL));
  /* per channel: batch means and unbiased variances */
  double m[3][2] = { { 3, 4 }, { 2, 2 }, { 1, 1 } };
  double v[3][2] = { { 4, 4 }, { 4, 28 }, { 12, 0 } };

  g_assert_no_error (error);
  g_list_store_append (pair, b);
  g_list_store_append (pair, label);
  g_list_store_append (loader, a);
  g_list_store_append (loader, pair);
  g_list_store_append (loader, c);

  /* earlier statistics that update_bn must forget */
  gnn_module_train (GNN_MODULE (model), TRUE);
  g_object_unref (gnn_module_forward_tensor (GNN_MODULE (model), c, &error));
  g_assert_no_error (error);
  gnn_module_eval (GNN_MODULE (model));

  OK (gnn_update_bn (G_LIST_MODEL (loader), GNN_MODULE (model), NULL, &error));
  gnn_test_assert_close (gnn_module_get_buffer (GNN_MODULE (bn), "running_mean", NULL),
                         GNN_TEST_DATA ((m[0][0] + m[1][0] + m[2][0]) / 3, (m[0][1] + m[1][1] + m[2][1]) / 3),
                         2, 1e-12, 1e-12);
  gnn_test_assert_close (gnn_module_get_buffer (GNN_MODULE (bn), "running_var", NULL),
                         GNN_TEST_DATA ((v[0][0] + v[1][0] + v[2][0]) / 3, (v[0][1] + v[1][1] + v[2][1]) / 3),
                         2, 1e-12, 1e-12);
  gnn_test_assert_close (gnn_module_get_buffer (GNN_MODULE (bn), "num_batches_tracked", NULL),
                         GNN_TEST_DATA (3), 1, 0, 0);
  /* momentum and mode restored */
  g_assert_false (gnn_batch_norm_get_cumulative_average (GNN_BATCH_NORM (bn)));
  g_assert_cmpfloat (gnn_batch_norm_get_momentum (GNN_BATCH_NORM (bn)), ==, 0.3);
  g_assert_false (gnn_module_get_training (GNN_MODULE (model)));

  /* on a device, explicitly */
  OK (gnn_update_bn (G_LIST_MODEL (loader), GNN_MODULE (model), "cpu", &error));
  gnn_test_assert_close (gnn_module_get_buffer (GNN_MODULE (bn), "num_batches_tracked", NULL),
                         GNN_TEST_DATA (3), 1, 0, 0);

  /* a batch that is not a tensor: an error, the modes restored */
  g_list_store_append (loader, not_a_batch);
  gnn_module_train (GNN_MODULE (model), TRUE);
  g_assert_false (gnn_update_bn (G_LIST_MODEL (loader), GNN_MODULE (model), NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "batch 3"));
  g_clear_error (&error);
  g_assert_false (gnn_batch_norm_get_cumulative_average (GNN_BATCH_NORM (bn)));
  g_assert_true (gnn_module_get_training (GNN_MODULE (model)));

  /* no BatchNorm: nothing read, nothing changed */
  gnn_module_eval (plain);
  OK (gnn_update_bn (G_LIST_MODEL (loader), plain, NULL, &error));
  g_assert_false (gnn_module_get_training (plain));
}

/* ---- the two examples of PyTorch's AveragedModel page -------------------------------------- */

/* The model, data, optimizer and schedules of gen-averaged-model-examples.py, which ran them
 * with python3-torch: float64 throughout, compared after every update to rel 1e-9. */

static GnnModule *
example_model (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnLinear) l1 = gnn_linear_new_with_dtype (4, 6, TRUE, GNN_DTYPE_FLOAT64, &error);
  g_autoptr(GnnBatchNorm1d) bn = gnn_batch_norm1d_new_full (6, 1e-5, 0.1, TRUE, TRUE, GNN_DTYPE_FLOAT64, &error);
  g_autoptr(GnnReLU) relu = gnn_relu_new ();
  g_autoptr(GnnLinear) l2 = gnn_linear_new_with_dtype (6, 1, TRUE, GNN_DTYPE_FLOAT64, &error);
  GnnModule *model;
  g_autoptr(GPtrArray) params = NULL;

  g_assert_no_error (error);
  model = GNN_MODULE (gnn_sequential_new ((GnnModule *[]) { GNN_MODULE (l1), GNN_MODULE (bn), GNN_MODULE (relu),
                                                            GNN_MODULE (l2) }, 4));
  params = gnn_module_parameters (model, TRUE);
  for (guint k = 0; k < params->len; k++)
    {
      gint64 n = gnn_tensor_get_numel (params->pdata[k]);
      g_autofree double *v = g_new (double, n);
      for (gint64 i = 0; i < n; i++)
        v[i] = 0.3 * sin (1.1 * i + 0.7 * k + 0.1);
      set_values (params->pdata[k], v);
    }
  return model;
}

/* EX_BATCHES (input, target) pairs, each a GListModel, as a data loader gives them */
static GListStore *
example_loader (void)
{
  g_autoptr(GError) error = NULL;
  GListStore *loader = g_list_store_new (G_TYPE_LIST_MODEL);

  for (int b = 0; b < EX_BATCHES; b++)
    {
      double x[EX_BATCH * 4], y[EX_BATCH];
      g_autoptr(GListStore) pair = g_list_store_new (GNN_TYPE_TENSOR);
      g_autoptr(GnnTensor) tx = NULL, ty = NULL;

      for (int r = 0; r < EX_BATCH; r++)
        {
          for (int j = 0; j < 4; j++)
            x[r * 4 + j] = 1.5 * sin (0.5 * (b * EX_BATCH + r) + 1.3 * j);
          y[r] = cos (0.3 * (b * EX_BATCH + r));
        }
      tx = gnn_tensor_new_from_doubles (x, EX_BATCH * 4, (gint64[]) { EX_BATCH, 4 }, 2, &error);
      ty = gnn_tensor_new_from_doubles (y, EX_BATCH, (gint64[]) { EX_BATCH, 1 }, 2, &error);
      g_assert_no_error (error);
      g_list_store_append (pair, tx);
      g_list_store_append (pair, ty);
      g_list_store_append (loader, pair);
    }
  return loader;
}

/* one epoch: zero_grad, MSE loss, backward, step for each batch; @after_step after each step */
static void
example_epoch (GnnModule *model, GnnOptimizer *optimizer, GListModel *loader,
               void (*after_step) (gpointer), gpointer data)
{
  gnn_module_train (model, TRUE);
  for (guint b = 0; b < g_list_model_get_n_items (loader); b++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GListModel) pair = g_list_model_get_item (loader, b);
      g_autoptr(GnnTensor) x = g_list_model_get_item (pair, 0);
      g_autoptr(GnnTensor) y = g_list_model_get_item (pair, 1);
      g_autoptr(GnnTensor) out = NULL, loss = NULL;

      gnn_optimizer_zero_grad (optimizer, TRUE);
      OK (out = gnn_module_forward_tensor (model, x, &error));
      OK (loss = gnn_tensor_mse_loss (out, y, GNN_REDUCTION_MEAN, &error));
      OK (gnn_tensor_backward (loss, NULL, FALSE, &error));
      OK (gnn_optimizer_step (optimizer, &error));
      if (after_step)
        after_step (data);
    }
}

/* the averaged module's state dict, flattened in key order, against a row of torch's */
static void
assert_state_row (GnnModule *module, const double *expected, double rtol, const char *what)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (module, NULL, FALSE, &error);
  g_auto(GStrv) keys = NULL;
  guint pos = 0;

  g_assert_no_error (error);
  keys = gnn_state_dict_get_keys (sd);
  for (guint k = 0; keys[k]; k++)
    {
      gsize n;
      g_autofree double *v = values_of (gnn_state_dict_get_tensor (sd, keys[k], NULL), &n);
      for (gsize i = 0; i < n; i++, pos++)
        {
          g_assert_cmpuint (pos, <, EX_N_VALUES);
          if (fabs (v[i] - expected[pos]) > 1e-12 + rtol * fabs (expected[pos]))
            g_error ("%s: %s[%" G_GSIZE_FORMAT "] is %.17g, torch has %.17g", what, keys[k], i, v[i], expected[pos]);
        }
    }
  g_assert_cmpuint (pos, ==, EX_N_VALUES);
}

/* SWA with CosineAnnealingLR then SWALR, update_bn at the end */
static void
test_example_swa (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = example_model ();
  g_autoptr(GListStore) loader = example_loader ();
  g_autoptr(GnnParamGroup) group = gnn_param_group_new_from_module (model);
  g_autoptr(GnnOptimizer) optimizer = NULL;
  g_autoptr(GnnAveragedModel) swa_model = NULL;
  g_autoptr(GnnCosineAnnealingLR) scheduler = NULL;
  g_autoptr(GnnSWALR) swa_scheduler = NULL;
  int row = 0;

  OK (optimizer = GNN_OPTIMIZER (gnn_sgd_new (group, 0.05, 0.9, 0, 0, FALSE, FALSE, &error)));
  OK (swa_model = gnn_averaged_model_new (model, NULL, NULL, NULL, FALSE, &error));
  OK (scheduler = gnn_cosine_annealing_lr_new (optimizer, EX_T_MAX, 0.0, -1, &error));
  OK (swa_scheduler = gnn_swalr_new (optimizer, (double[]) { 0.02 }, 1, 3, "cos", -1, &error));
  for (int i = 0; i < EX_SWA_EPOCHS; i++)
    {
      example_epoch (model, optimizer, G_LIST_MODEL (loader), NULL, NULL);
      if (i > EX_SWA_START)
        {
          g_autofree char *what = g_strdup_printf ("SWA after epoch %d", i);
          OK (gnn_averaged_model_update_parameters (swa_model, model, &error));
          OK (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (swa_scheduler), &error));
          assert_state_row (gnn_averaged_model_get_module (swa_model), ex_swa_rows[row++], 1e-9, what);
        }
      else
        OK (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (scheduler), &error));
    }
  g_assert_cmpint (row, ==, G_N_ELEMENTS (ex_swa_rows));
  OK (gnn_update_bn (G_LIST_MODEL (loader), GNN_MODULE (swa_model), NULL, &error));
  assert_state_row (gnn_averaged_model_get_module (swa_model), ex_swa_after_bn[0], 1e-9, "SWA after update_bn");
}

typedef struct {
  GnnAveragedModel *ema_model;
  GnnModule *model;
  int row;
} EmaExample;

static void
ema_after_step (gpointer data)
{
  g_autoptr(GError) error = NULL;
  EmaExample *ex = data;
  g_autofree char *what = g_strdup_printf ("EMA after step %d", ex->row);

  OK (gnn_averaged_model_update_parameters (ex->ema_model, ex->model, &error));
  g_assert_cmpint (ex->row, <, G_N_ELEMENTS (ex_ema_rows));
  assert_state_row (gnn_averaged_model_get_module (ex->ema_model), ex_ema_rows[ex->row++], 1e-9, what);
}

/* EMA of the weights and buffers: get_ema_multi_avg_fn (0.9), use_buffers */
static void
test_example_ema (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = example_model ();
  g_autoptr(GListStore) loader = example_loader ();
  g_autoptr(GnnParamGroup) group = gnn_param_group_new_from_module (model);
  g_autoptr(GnnOptimizer) optimizer = NULL;
  g_autoptr(GnnAverageFunction) ema = NULL;
  g_autoptr(GnnAveragedModel) ema_model = NULL;
  EmaExample ex = { 0 };

  OK (optimizer = GNN_OPTIMIZER (gnn_sgd_new (group, 0.05, 0.9, 0, 0, FALSE, FALSE, &error)));
  OK (ema = gnn_average_function_new_ema_multi (EX_DECAY, &error));
  OK (ema_model = gnn_averaged_model_new (model, NULL, NULL, ema, TRUE, &error));
  ex.ema_model = ema_model;
  ex.model = model;
  for (int i = 0; i < EX_EMA_EPOCHS; i++)
    example_epoch (model, optimizer, G_LIST_MODEL (loader), ema_after_step, &ex);
  g_assert_cmpint (ex.row, ==, G_N_ELEMENTS (ex_ema_rows));
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);

  g_test_add_func ("/foreach-lerp/values", test_foreach_lerp_values);
  g_test_add_func ("/foreach-lerp/errors", test_foreach_lerp_errors);
  g_test_add_func ("/module-copy/subclass", test_copy_subclass);
  g_test_add_func ("/module-copy/containers", test_copy_containers);
  g_test_add_func ("/averaged-model/swa-default", test_swa_default);
  g_test_add_func ("/averaged-model/swa-functions", test_swa_functions);
  g_test_add_func ("/averaged-model/ema", test_ema);
  g_test_add_func ("/averaged-model/ema-is-lerp", test_ema_is_lerp);
  g_test_add_func ("/averaged-model/callbacks", test_callbacks);
  g_test_add_func ("/averaged-model/errors", test_errors);
  g_test_add_func ("/averaged-model/state-dict", test_state_dict);
  g_test_add_func ("/averaged-model/forward-and-copy", test_forward_and_copy);
  g_test_add_func ("/update-bn", test_update_bn);
  g_test_add_func ("/averaged-model/example-swa", test_example_swa);
  g_test_add_func ("/averaged-model/example-ema", test_example_ema);

  return g_test_run ();
}
