/* test-cuda.c: the backend serving the "cuda" device type against the CPU backend
 *
 * Every op and layer runs through the public API on "cpu" tensors and on "cuda" tensors from
 * the same values; results and gradients are compared within a normalised error budget per op
 * (ggml's test-backend-ops: NMSE = Σ (cuda - cpu)² / Σ cpu²), integer and boolean results
 * exactly. Then what a device backend must get right besides numbers: module.to ("cuda")
 * keeps parameters' identity, mixing devices is a GNN_ERROR_DEVICE, a training step with the
 * data on the device copies nothing between host and device and allocates no device memory
 * once warm, missing devices give clear errors, GNN_BACKEND=help lists the backend.
 *
 * With the real module (gnn-cuda) on a machine without a GPU the device tests skip with the
 * backend's reason; test-cuda-fake runs them all against tests/c/fake-cuda, a stand-in whose
 * device pointers the host cannot dereference, so that core paths that read device memory
 * are caught without a GPU.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "gnn-test-util.h"
#include "core/gnn-tensor-private.h"
#include "ops/gnn-ops-private.h"
#include "backend/gnn-backend-impl.h"
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>

static GnnBackend *cuda;          /* the backend serving "cuda", when it has a device */
static GnnBackend *cuda_module;   /* the backend serving "cuda", with or without a device */
static char *skip_reason;

#define REQUIRE_DEVICE()                 \
  G_STMT_START {                         \
    if (cuda == NULL)                    \
      {                                  \
        g_test_skip (skip_reason);       \
        return;                          \
      }                                  \
  } G_STMT_END

static gboolean
is_fake (void)
{
  return cuda && g_str_equal (gnn_backend_get_name (cuda), "fakecuda");
}

/* ---- helpers ------------------------------------------------------------------------ */

static guint64
backend_counter (const char *name)
{
  guint64 v = 0;

  g_object_get (cuda, name, &v, NULL);
  return v;
}

/* uniform values in [lo, hi] (integers for int64), as @dtype on the CPU */
static GnnTensor *
random_cpu (guint ndim, const gint64 *shape, GnnDtype dtype, double lo, double hi, guint seed)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rng = g_rand_new_with_seed (seed * 7919 + 17);
  gint64 n = gnn_shape_numel (ndim, shape);
  g_autofree double *v = g_new (double, MAX (n, 1));
  g_autoptr(GnnTensor) d = NULL;
  GnnTensor *t;

  for (gint64 i = 0; i < n; i++)
    {
      v[i] = lo + (hi - lo) * g_rand_double (rng);
      if (dtype == GNN_DTYPE_INT64 || dtype == GNN_DTYPE_BOOL)
        v[i] = floor (v[i] + 0.5);
    }
  d = gnn_tensor_new_from_doubles (v, (gsize) n, shape, ndim, &error);
  g_assert_no_error (error);
  t = gnn_tensor_to_dtype (d, dtype, &error);
  g_assert_no_error (error);
  return t;
}

static GnnTensor *
to_cuda (GnnTensor *t)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *c = gnn_tensor_to_device (t, "cuda", &error);

  g_assert_no_error (error);
  return c;
}

/* a tensor on @like's device holding @t's values */
static GnnTensor *
on_device_of (GnnTensor *t, GnnTensor *like, GError **error)
{
  const char *name = gnn_tensor_get_device (like);

  return gnn_tensor_to_device (t, name, error);
}

static gboolean
on_cuda (GnnTensor *t)
{
  return g_str_has_prefix (gnn_tensor_get_device (t), "cuda");
}

/* Compares a CUDA result with the CPU one; appends what is wrong to @failures and returns
 * the NMSE (0 for exact types). */
static double
compare (const char *what, GnnTensor *cpu, GnnTensor *dev, double budget, GString *failures)
{
  g_autoptr(GError) error = NULL;
  g_autofree double *a = NULL, *b = NULL;
  gsize na = 0, nb = 0;
  guint nda, ndb;
  const gint64 *sa, *sb;
  double num = 0, den = 0, nmse;
  GnnDtype dt = gnn_tensor_get_dtype (cpu);
  gboolean exact = !gnn_dtype_is_floating (dt);

  if (dev == NULL || cpu == NULL)
    {
      g_string_append_printf (failures, "\n  %s: %s result missing", what, cpu ? "cuda" : "cpu");
      return INFINITY;
    }
  if (!on_cuda (dev))
    g_string_append_printf (failures, "\n  %s: the result of cuda inputs is not on the cuda device", what);
  sa = gnn_tensor_get_shape (cpu, &nda);
  sb = gnn_tensor_get_shape (dev, &ndb);
  if (nda != ndb || memcmp (sa, sb, sizeof (gint64) * nda) != 0 || gnn_tensor_get_dtype (dev) != dt)
    {
      g_autofree char *x = gnn_shape_to_string (nda, sa);
      g_autofree char *y = gnn_shape_to_string (ndb, sb);
      g_string_append_printf (failures, "\n  %s: cpu gives %s %s, cuda %s %s", what, x, gnn_dtype_get_name (dt),
                              y, gnn_dtype_get_name (gnn_tensor_get_dtype (dev)));
      return INFINITY;
    }
  a = gnn_tensor_to_doubles (cpu, &na, &error);
  g_assert_no_error (error);
  b = gnn_tensor_to_doubles (dev, &nb, &error);
  if (b == NULL)
    {
      g_string_append_printf (failures, "\n  %s: reading the cuda result: %s", what, error->message);
      return INFINITY;
    }
  for (gsize i = 0; i < na; i++)
    {
      if (isnan (a[i]) || isnan (b[i]) || isinf (a[i]) || isinf (b[i]))
        {
          if (!(isnan (a[i]) && isnan (b[i])) && a[i] != b[i])
            {
              g_string_append_printf (failures, "\n  %s: element %" G_GSIZE_FORMAT ": cpu %.9g, cuda %.9g",
                                      what, i, a[i], b[i]);
              return INFINITY;
            }
          continue;
        }
      if (exact && a[i] != b[i])
        {
          g_string_append_printf (failures, "\n  %s: element %" G_GSIZE_FORMAT ": cpu %.17g, cuda %.17g (exact "
                                  "%s expected)", what, i, a[i], b[i], gnn_dtype_get_name (dt));
          return INFINITY;
        }
      num += (a[i] - b[i]) * (a[i] - b[i]);
      den += a[i] * a[i];
    }
  nmse = den > 0 ? num / den : num;
  if (nmse > budget)
    {
      gsize worst = 0;
      for (gsize i = 1; i < na; i++)
        if (fabs (a[i] - b[i]) > fabs (a[worst] - b[worst]))
          worst = i;
      g_string_append_printf (failures, "\n  %s: NMSE %.3g above the budget %.3g (worst element %" G_GSIZE_FORMAT
                              ": cpu %.17g, cuda %.17g)", what, nmse, budget, worst, a[worst], b[worst]);
    }
  return nmse;
}

/* marks the test failed with what went wrong, and lets the other tests run */
static void
report_failures (GString *failures, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static void
report_failures (GString *failures, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *what = NULL;
  g_auto(GStrv) lines = NULL;

  va_start (ap, fmt);
  what = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_test_message ("FAILED: %s:", what);
  lines = g_strsplit (failures->str, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (*lines[i])
      g_test_message ("%s", lines[i]);
  g_test_fail ();
}

static double
base_budget (GnnDtype dtype)
{
  return dtype == GNN_DTYPE_FLOAT64 ? 1e-20 : dtype == GNN_DTYPE_FLOAT32 ? 5e-9 : 0;
}

/* ---- the op cases ------------------------------------------------------------------- */

typedef GnnTensor *(*OpFunc) (GnnTensor **x, GError **error);

typedef struct {
  guint ndim;
  gint64 shape[5];
  double lo, hi;
  gboolean transpose;   /* made as the transpose of its last two dimensions, then transposed */
  gboolean index;       /* int64 values in [lo, hi], never floating, no gradient */
} InSpec;

enum {
  F_GRAD = 1 << 0,     /* backward compared too */
  F_INT = 1 << 1,      /* also run on int64 inputs */
  F_FLOAT_ONLY_64 = 1 << 2,
};

/* the most inputs an op case takes (the fused LSTM layer's five) */
#define MAX_IN 5

typedef struct {
  const char *name;
  OpFunc func;
  guint n_in;
  InSpec in[MAX_IN];
  guint flags;
  double budget;        /* times the dtype's base budget; 0 for 1 */
} OpCase;

#define S1(a) 1, { a }
#define S2(a, b) 2, { a, b }
#define S3(a, b, c) 3, { a, b, c }
#define S4(a, b, c, d) 4, { a, b, c, d }
#define S5(a, b, c, d, e) 5, { a, b, c, d, e }
#define IN(shape, lo, hi) { shape, lo, hi, FALSE, FALSE }
#define INT_(shape, lo, hi) { shape, lo, hi, FALSE, TRUE }
#define TIN(shape, lo, hi) { shape, lo, hi, TRUE, FALSE }

/* a constant int64 index on @like's device */
static GnnTensor *
index_on (GnnTensor *like, const gint64 *v, gsize n, guint ndim, const gint64 *shape, GError **error)
{
  g_autoptr(GnnTensor) h = gnn_tensor_new_from_int64s (v, n, shape, ndim, error);
  return h ? on_device_of (h, like, error) : NULL;
}

/* elementwise */
static GnnTensor *f_add (GnnTensor **x, GError **e) { return gnn_tensor_add (x[0], x[1], 0.75, e); }
static GnnTensor *f_sub (GnnTensor **x, GError **e) { return gnn_tensor_sub (x[0], x[1], 1.5, e); }
static GnnTensor *f_mul (GnnTensor **x, GError **e) { return gnn_tensor_mul (x[0], x[1], e); }
static GnnTensor *f_div (GnnTensor **x, GError **e) { return gnn_tensor_div (x[0], x[1], e); }
static GnnTensor *f_pow (GnnTensor **x, GError **e) { return gnn_tensor_pow (x[0], x[1], e); }
static GnnTensor *f_maximum (GnnTensor **x, GError **e) { return gnn_tensor_maximum (x[0], x[1], e); }
static GnnTensor *f_hypot (GnnTensor **x, GError **e) { return gnn_tensor_hypot (x[0], x[1], e); }
static GnnTensor *f_reciprocal (GnnTensor **x, GError **e) { return gnn_tensor_reciprocal (x[0], e); }
static GnnTensor *f_rsqrt (GnnTensor **x, GError **e) { return gnn_tensor_rsqrt (x[0], e); }
static GnnTensor *f_log1p (GnnTensor **x, GError **e) { return gnn_tensor_log1p (x[0], e); }
static GnnTensor *f_expm1 (GnnTensor **x, GError **e) { return gnn_tensor_expm1 (x[0], e); }
static GnnTensor *f_log2 (GnnTensor **x, GError **e) { return gnn_tensor_log2 (x[0], e); }
static GnnTensor *f_log10 (GnnTensor **x, GError **e) { return gnn_tensor_log10 (x[0], e); }
static GnnTensor *f_sin (GnnTensor **x, GError **e) { return gnn_tensor_sin (x[0], e); }
static GnnTensor *f_cos (GnnTensor **x, GError **e) { return gnn_tensor_cos (x[0], e); }
static GnnTensor *f_tan (GnnTensor **x, GError **e) { return gnn_tensor_tan (x[0], e); }
static GnnTensor *f_asin (GnnTensor **x, GError **e) { return gnn_tensor_asin (x[0], e); }
static GnnTensor *f_acos (GnnTensor **x, GError **e) { return gnn_tensor_acos (x[0], e); }
static GnnTensor *f_atan (GnnTensor **x, GError **e) { return gnn_tensor_atan (x[0], e); }
static GnnTensor *f_sinh (GnnTensor **x, GError **e) { return gnn_tensor_sinh (x[0], e); }
static GnnTensor *f_cosh (GnnTensor **x, GError **e) { return gnn_tensor_cosh (x[0], e); }
static GnnTensor *f_asinh (GnnTensor **x, GError **e) { return gnn_tensor_asinh (x[0], e); }
static GnnTensor *f_acosh (GnnTensor **x, GError **e) { return gnn_tensor_acosh (x[0], e); }
static GnnTensor *f_atanh (GnnTensor **x, GError **e) { return gnn_tensor_atanh (x[0], e); }
static GnnTensor *f_erf (GnnTensor **x, GError **e) { return gnn_tensor_erf (x[0], e); }
static GnnTensor *f_erfc (GnnTensor **x, GError **e) { return gnn_tensor_erfc (x[0], e); }
static GnnTensor *f_erfinv (GnnTensor **x, GError **e) { return gnn_tensor_erfinv (x[0], e); }
static GnnTensor *f_lgamma (GnnTensor **x, GError **e) { return gnn_tensor_lgamma (x[0], e); }
static GnnTensor *f_floor (GnnTensor **x, GError **e) { return gnn_tensor_floor (x[0], e); }
static GnnTensor *f_ceil (GnnTensor **x, GError **e) { return gnn_tensor_ceil (x[0], e); }
static GnnTensor *f_round (GnnTensor **x, GError **e) { return gnn_tensor_round (x[0], e); }
static GnnTensor *f_trunc (GnnTensor **x, GError **e) { return gnn_tensor_trunc (x[0], e); }
static GnnTensor *f_frac (GnnTensor **x, GError **e) { return gnn_tensor_frac (x[0], e); }
static GnnTensor *f_atan2 (GnnTensor **x, GError **e) { return gnn_tensor_atan2 (x[0], x[1], e); }
static GnnTensor *f_fmod (GnnTensor **x, GError **e) { return gnn_tensor_fmod (x[0], x[1], e); }
static GnnTensor *f_remainder (GnnTensor **x, GError **e) { return gnn_tensor_remainder (x[0], x[1], e); }
static GnnTensor *f_floor_divide (GnnTensor **x, GError **e) { return gnn_tensor_floor_divide (x[0], x[1], e); }
static GnnTensor *f_xlogy (GnnTensor **x, GError **e) { return gnn_tensor_xlogy (x[0], x[1], e); }
static GnnTensor *f_exp2 (GnnTensor **x, GError **e) { return gnn_tensor_exp2 (x[0], e); }
static GnnTensor *f_sinc (GnnTensor **x, GError **e) { return gnn_tensor_sinc (x[0], e); }
static GnnTensor *f_i0 (GnnTensor **x, GError **e) { return gnn_tensor_i0 (x[0], e); }
static GnnTensor *f_i0e (GnnTensor **x, GError **e) { return gnn_special_i0e (x[0], e); }
static GnnTensor *f_i1 (GnnTensor **x, GError **e) { return gnn_special_i1 (x[0], e); }
static GnnTensor *f_i1e (GnnTensor **x, GError **e) { return gnn_special_i1e (x[0], e); }
static GnnTensor *f_ndtri (GnnTensor **x, GError **e) { return gnn_special_ndtri (x[0], e); }
static GnnTensor *f_log_ndtr (GnnTensor **x, GError **e) { return gnn_special_log_ndtr (x[0], e); }
static GnnTensor *f_erfcx (GnnTensor **x, GError **e) { return gnn_special_erfcx (x[0], e); }
static GnnTensor *f_entr (GnnTensor **x, GError **e) { return gnn_special_entr (x[0], e); }
static GnnTensor *f_xlog1py (GnnTensor **x, GError **e) { return gnn_special_xlog1py (x[0], x[1], e); }
static GnnTensor *f_zeta (GnnTensor **x, GError **e) { return gnn_special_zeta (x[0], x[1], e); }
static GnnTensor *f_mvlgamma (GnnTensor **x, GError **e) { return gnn_tensor_mvlgamma (x[0], 3, e); }
static GnnTensor *f_copysign (GnnTensor **x, GError **e) { return gnn_tensor_copysign (x[0], x[1], e); }
static GnnTensor *f_fmax (GnnTensor **x, GError **e) { return gnn_tensor_fmax (x[0], x[1], e); }
static GnnTensor *f_fmin (GnnTensor **x, GError **e) { return gnn_tensor_fmin (x[0], x[1], e); }
static GnnTensor *f_logaddexp (GnnTensor **x, GError **e) { return gnn_tensor_logaddexp (x[0], x[1], e); }
static GnnTensor *f_logaddexp2 (GnnTensor **x, GError **e) { return gnn_tensor_logaddexp2 (x[0], x[1], e); }
static GnnTensor *f_nextafter (GnnTensor **x, GError **e) { return gnn_tensor_nextafter (x[0], x[1], e); }
static GnnTensor *f_heaviside (GnnTensor **x, GError **e) { return gnn_tensor_heaviside (x[0], x[1], e); }
static GnnTensor *f_bitwise_and (GnnTensor **x, GError **e) { return gnn_tensor_bitwise_and (x[0], x[1], e); }
static GnnTensor *f_gcd (GnnTensor **x, GError **e) { return gnn_tensor_gcd (x[0], x[1], e); }
static GnnTensor *f_logical_xor (GnnTensor **x, GError **e) { return gnn_tensor_logical_xor (x[0], x[1], e); }
static GnnTensor *f_minimum (GnnTensor **x, GError **e) { return gnn_tensor_minimum (x[0], x[1], e); }
static GnnTensor *f_eq (GnnTensor **x, GError **e) { return gnn_tensor_eq (x[0], x[1], e); }
static GnnTensor *f_ne (GnnTensor **x, GError **e) { return gnn_tensor_ne (x[0], x[1], e); }
static GnnTensor *f_lt (GnnTensor **x, GError **e) { return gnn_tensor_lt (x[0], x[1], e); }
static GnnTensor *f_le (GnnTensor **x, GError **e) { return gnn_tensor_le (x[0], x[1], e); }
static GnnTensor *f_gt (GnnTensor **x, GError **e) { return gnn_tensor_gt (x[0], x[1], e); }
static GnnTensor *f_ge (GnnTensor **x, GError **e) { return gnn_tensor_ge (x[0], x[1], e); }
static GnnTensor *f_scalars (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) a = gnn_tensor_add_scalar (x[0], 0.5, e);
  g_autoptr(GnnTensor) b = a ? gnn_tensor_rsub_scalar (a, 2.0, e) : NULL;
  g_autoptr(GnnTensor) c = b ? gnn_tensor_mul_scalar (b, -1.25, e) : NULL;
  g_autoptr(GnnTensor) d = c ? gnn_tensor_div_scalar (c, 3.0, e) : NULL;
  return d ? gnn_tensor_rdiv_scalar (d, 2.0, e) : NULL;
}
static GnnTensor *f_where (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) c = gnn_tensor_gt_scalar (x[0], 0.0, e);
  return c ? gnn_where (c, x[1], x[2], e) : NULL;
}
/* a 0-d CPU tensor used as a scalar with tensors on the device, as PyTorch allows */
static GnnTensor *f_cpu_scalar (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) s = gnn_tensor_new_scalar (2.5, gnn_tensor_get_dtype (x[0]), NULL, e);
  g_autoptr(GnnTensor) m = s ? gnn_tensor_mul (x[0], s, e) : NULL;
  g_autoptr(GnnTensor) c = m ? gnn_tensor_gt_scalar (x[0], 0.0, e) : NULL;
  return c ? gnn_where (c, m, s, e) : NULL;
}
static GnnTensor *f_neg (GnnTensor **x, GError **e) { return gnn_tensor_neg (x[0], e); }
static GnnTensor *f_exp (GnnTensor **x, GError **e) { return gnn_tensor_exp (x[0], e); }
static GnnTensor *f_log (GnnTensor **x, GError **e) { return gnn_tensor_log (x[0], e); }
static GnnTensor *f_sqrt (GnnTensor **x, GError **e) { return gnn_tensor_sqrt (x[0], e); }
static GnnTensor *f_abs (GnnTensor **x, GError **e) { return gnn_tensor_abs (x[0], e); }
static GnnTensor *f_sign (GnnTensor **x, GError **e) { return gnn_tensor_sign (x[0], e); }
static GnnTensor *f_clamp (GnnTensor **x, GError **e) { return gnn_tensor_clamp (x[0], -0.5, 0.7, e); }
static GnnTensor *f_clamp_min (GnnTensor **x, GError **e) { return gnn_tensor_clamp_min (x[0], -0.25, e); }
static GnnTensor *f_clamp_max (GnnTensor **x, GError **e) { return gnn_tensor_clamp_max (x[0], 0.25, e); }
static GnnTensor *f_pow_scalar (GnnTensor **x, GError **e) { return gnn_tensor_pow_scalar (x[0], 3.0, e); }
static GnnTensor *f_pow_frac (GnnTensor **x, GError **e) { return gnn_tensor_pow_scalar (x[0], 1.7, e); }
static GnnTensor *f_relu (GnnTensor **x, GError **e) { return gnn_tensor_relu (x[0], e); }
static GnnTensor *f_leaky_relu (GnnTensor **x, GError **e) { return gnn_tensor_leaky_relu (x[0], 0.1, e); }
static GnnTensor *f_elu (GnnTensor **x, GError **e) { return gnn_tensor_elu (x[0], 1.3, e); }
static GnnTensor *f_gelu (GnnTensor **x, GError **e) { return gnn_tensor_gelu (x[0], NULL, e); }
static GnnTensor *f_gelu_tanh (GnnTensor **x, GError **e) { return gnn_tensor_gelu (x[0], "tanh", e); }
static GnnTensor *f_silu (GnnTensor **x, GError **e) { return gnn_tensor_silu (x[0], e); }
static GnnTensor *f_sigmoid (GnnTensor **x, GError **e) { return gnn_tensor_sigmoid (x[0], e); }
static GnnTensor *f_tanh (GnnTensor **x, GError **e) { return gnn_tensor_tanh (x[0], e); }
static GnnTensor *f_softplus (GnnTensor **x, GError **e) { return gnn_tensor_softplus (x[0], 2.0, 4.0, e); }
static GnnTensor *f_hardsigmoid (GnnTensor **x, GError **e) { return gnn_tensor_hardsigmoid (x[0], e); }
static GnnTensor *f_hardswish (GnnTensor **x, GError **e) { return gnn_tensor_hardswish (x[0], e); }
static GnnTensor *f_mish (GnnTensor **x, GError **e) { return gnn_tensor_mish (x[0], e); }
static GnnTensor *f_celu (GnnTensor **x, GError **e) { return gnn_tensor_celu (x[0], 0.7, e); }
static GnnTensor *f_selu (GnnTensor **x, GError **e) { return gnn_tensor_selu (x[0], e); }
static GnnTensor *f_logsigmoid (GnnTensor **x, GError **e) { return gnn_tensor_logsigmoid (x[0], e); }
static GnnTensor *f_hardshrink (GnnTensor **x, GError **e) { return gnn_tensor_hardshrink (x[0], 0.5, e); }
static GnnTensor *f_softshrink (GnnTensor **x, GError **e) { return gnn_tensor_softshrink (x[0], 0.5, e); }
static GnnTensor *f_threshold (GnnTensor **x, GError **e) { return gnn_tensor_threshold (x[0], 0.25, -7.0, e); }
/* in place, on a clone */
static GnnTensor *f_lerp_ (GnnTensor **x, GError **e)
{
  GnnTensor *c = gnn_tensor_clone (x[0], e);
  if (c && !gnn_tensor_lerp_ (c, x[1], 0.3, e))
    g_clear_object (&c);
  if (c && !gnn_tensor_lerp_ (c, x[1], 0.8, e))
    g_clear_object (&c);
  return c;
}
static GnnTensor *f_addcmul_ (GnnTensor **x, GError **e)
{
  GnnTensor *c = gnn_tensor_clone (x[0], e);
  if (c && !gnn_tensor_addcmul_ (c, x[1], x[2], -0.5, e))
    g_clear_object (&c);
  return c;
}
static GnnTensor *f_addcdiv_ (GnnTensor **x, GError **e)
{
  GnnTensor *c = gnn_tensor_clone (x[0], e);
  if (c && !gnn_tensor_addcdiv_ (c, x[1], x[2], 0.25, e))
    g_clear_object (&c);
  return c;
}
static GnnTensor *f_inplace (GnnTensor **x, GError **e)
{
  GnnTensor *c = gnn_tensor_clone (x[0], e);
  if (c && (!gnn_tensor_add_ (c, x[1], 2.0, e) || !gnn_tensor_sub_ (c, x[1], 0.5, e) ||
            !gnn_tensor_mul_ (c, x[1], e) || !gnn_tensor_add_scalar_ (c, 1.0, e) ||
            !gnn_tensor_mul_scalar_ (c, 0.5, e) || !gnn_tensor_div_ (c, x[1], e)))
    g_clear_object (&c);
  return c;
}
static GnnTensor *f_fill (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) c = gnn_tensor_clone (x[0], e);
  g_autoptr(GnnTensor) row = c ? gnn_tensor_select (c, 0, 1, e) : NULL;
  g_autoptr(GnnTensor) col = row ? gnn_tensor_select (c, 1, 2, e) : NULL;
  if (!col || !gnn_tensor_fill_ (row, -3.0, e) || !gnn_tensor_zero_ (col, e))
    return NULL;
  return g_steal_pointer (&c);
}
static GnnTensor *f_copy (GnnTensor **x, GError **e)
{
  /* copy_ from a transposed view, then a dtype conversion and back */
  g_autoptr(GnnTensor) c = gnn_tensor_new_like (x[0], gnn_tensor_get_dtype (x[0]), gnn_tensor_get_ndim (x[0]),
                                                gnn_tensor_get_shape (x[0], NULL), e);
  g_autoptr(GnnTensor) h = NULL;
  if (!c || !gnn_tensor_copy_ (c, x[0], e))
    return NULL;
  h = gnn_tensor_to_dtype (c, gnn_tensor_get_dtype (c) == GNN_DTYPE_FLOAT32 ? GNN_DTYPE_FLOAT64 : GNN_DTYPE_FLOAT32, e);
  return h ? gnn_tensor_to_dtype (h, gnn_tensor_get_dtype (c), e) : NULL;
}
static GnnTensor *f_contiguous (GnnTensor **x, GError **e) { return gnn_tensor_contiguous (x[0], e); }
static GnnTensor *f_to_half (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) h = gnn_tensor_to_dtype (x[0], GNN_DTYPE_FLOAT16, e);
  g_autoptr(GnnTensor) b = h ? gnn_tensor_to_dtype (x[0], GNN_DTYPE_BFLOAT16, e) : NULL;
  g_autoptr(GnnTensor) s = b ? gnn_tensor_add (h, b, 1.0, e) : NULL;
  return s ? gnn_tensor_to_dtype (s, gnn_tensor_get_dtype (x[0]), e) : NULL;
}
static GnnTensor *f_cat (GnnTensor **x, GError **e)
{
  GnnTensor *l[2] = { x[0], x[1] };
  return gnn_cat (l, 2, 1, e);
}
static GnnTensor *f_stack (GnnTensor **x, GError **e)
{
  GnnTensor *l[2] = { x[0], x[1] };
  return gnn_stack (l, 2, 0, e);
}

/* linear algebra */
static GnnTensor *f_matmul (GnnTensor **x, GError **e) { return gnn_tensor_matmul (x[0], x[1], e); }
static GnnTensor *f_linear (GnnTensor **x, GError **e) { return gnn_tensor_linear (x[0], x[1], x[2], e); }

/* reductions */
static GnnTensor *f_sum (GnnTensor **x, GError **e) { return gnn_tensor_sum (x[0], (int[]) { 1 }, 1, FALSE, e); }
static GnnTensor *f_sum02 (GnnTensor **x, GError **e) { return gnn_tensor_sum (x[0], (int[]) { 0, 2 }, 2, TRUE, e); }
static GnnTensor *f_sum_all (GnnTensor **x, GError **e) { return gnn_tensor_sum_all (x[0], e); }
static GnnTensor *f_mean (GnnTensor **x, GError **e) { return gnn_tensor_mean (x[0], (int[]) { -1 }, 1, TRUE, e); }
static GnnTensor *f_mean_all (GnnTensor **x, GError **e) { return gnn_tensor_mean_all (x[0], e); }
static GnnTensor *f_var (GnnTensor **x, GError **e) { return gnn_tensor_var (x[0], (int[]) { 0 }, 1, 1.0, FALSE, e); }
static GnnTensor *f_var_all (GnnTensor **x, GError **e) { return gnn_tensor_var_all (x[0], 0.0, e); }
/* batch normalisation of a training batch: the fused kernels where the backend has them,
 * else the same formula from generic ops (so a backend without them is compared too) */
static GnnTensor *
f_batch_norm (GnnTensor **x, GError **e)
{
  static const int dims[2] = { 0, 2 };
  const gint64 stat_shape[3] = { 1, gnn_tensor_get_size (x[0], 1, NULL), 1 };
  g_autoptr(GnnTensor) mean = NULL, var = NULL, c = NULL, v = NULL, sd = NULL, n = NULL, w = NULL, b = NULL,
    nw = NULL;

  if (gnn_batch_norm_fused_available (x[0]))
    return gnn_batch_norm_train_fused (x[0], x[1], x[2], 1e-5, NULL, NULL, e);
  if (!(mean = gnn_tensor_mean (x[0], dims, 2, TRUE, e)) || !(var = gnn_tensor_var (x[0], dims, 2, 0.0, TRUE, e)) ||
      !(c = gnn_tensor_sub (x[0], mean, 1.0, e)) || !(v = gnn_tensor_add_scalar (var, 1e-5, e)) ||
      !(sd = gnn_tensor_sqrt (v, e)) || !(n = gnn_tensor_div (c, sd, e)) ||
      !(w = gnn_tensor_reshape (x[1], stat_shape, 3, e)) || !(b = gnn_tensor_reshape (x[2], stat_shape, 3, e)) ||
      !(nw = gnn_tensor_mul (n, w, e)))
    return NULL;
  return gnn_tensor_add (nw, b, 1.0, e);
}
/* attention: composed from GEMM and softmax kernels on CUDA (it declares no fused kernel), fused on the CPU */
static GnnTensor *f_sdpa (GnnTensor **x, GError **e) { return gnn_scaled_dot_product_attention (x[0], x[1], x[2], NULL, 0.0, TRUE, 0.0, e); }
/* one direction of an LSTM and of a GRU layer as the fused op (gnn-ops-rnn.c): the outputs and
 * the last states, so that the gradients flow through every cell kernel */
static GnnTensor *
f_rnn_layer (GnnTensor **x, gboolean lstm, GError **e)
{
  g_autoptr(GnnTensor) out = NULL, h_n = NULL, c_n = NULL, flat = NULL, hf = NULL, both = NULL;
  GnnTensor *parts[3];

  if (!gnn_rnn_layer_fused_available (x[0]))
    {
      /* a backend without the cell kernels (the CUDA one declares them departures): the layer
       * runs on the CPU, its result and gradients copied across */
      GnnTensor *on_cpu[MAX_IN] = { 0 };
      g_autoptr(GnnTensor) y = NULL;
      guint n = lstm ? 5 : 4;

      for (guint k = 0; k < n; k++)
        on_cpu[k] = gnn_tensor_to_device (x[k], "cpu", e);
      y = f_rnn_layer (on_cpu, lstm, e);
      for (guint k = 0; k < n; k++)
        g_clear_object (&on_cpu[k]);
      return y ? gnn_tensor_to_device (y, gnn_tensor_get_device (x[0]), e) : NULL;
    }
  if (!(out = gnn_rnn_layer_fused (lstm, FALSE, x[0], x[1], x[2], x[3], lstm ? x[4] : NULL, &h_n,
                                   lstm ? &c_n : NULL, e)))
    return NULL;
  parts[0] = out;
  parts[1] = h_n;
  parts[2] = c_n;
  for (guint k = 0; k < (lstm ? 3u : 2u); k++)
    parts[k] = gnn_tensor_reshape (parts[k], GNN_TEST_SHAPE (-1), 1, e);
  both = gnn_cat (parts, lstm ? 3 : 2, 0, e);
  for (guint k = 0; k < (lstm ? 3u : 2u); k++)
    g_clear_object (&parts[k]);
  return both ? g_steal_pointer (&both) : NULL;
}
static GnnTensor *f_lstm_layer (GnnTensor **x, GError **e) { return f_rnn_layer (x, TRUE, e); }
static GnnTensor *f_gru_layer (GnnTensor **x, GError **e) { return f_rnn_layer (x, FALSE, e); }
static GnnTensor *f_max_dim (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) idx = NULL;
  g_autoptr(GnnTensor) v = gnn_tensor_max_dim (x[0], 1, FALSE, &idx, e);
  g_autoptr(GnnTensor) fi = v ? gnn_tensor_to_dtype (idx, gnn_tensor_get_dtype (v), e) : NULL;
  /* values and indices in one result: v + 1000 * index */
  g_autoptr(GnnTensor) s = fi ? gnn_tensor_mul_scalar (fi, 1000.0, e) : NULL;
  return s ? gnn_tensor_add (v, s, 1.0, e) : NULL;
}
static GnnTensor *f_min_dim (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) idx = NULL;
  g_autoptr(GnnTensor) v = gnn_tensor_min_dim (x[0], 0, TRUE, &idx, e);
  g_autoptr(GnnTensor) fi = v ? gnn_tensor_to_dtype (idx, gnn_tensor_get_dtype (v), e) : NULL;
  g_autoptr(GnnTensor) s = fi ? gnn_tensor_mul_scalar (fi, 1000.0, e) : NULL;
  return s ? gnn_tensor_add (v, s, 1.0, e) : NULL;
}
static GnnTensor *f_max_all (GnnTensor **x, GError **e) { return gnn_tensor_max_all (x[0], e); }
static GnnTensor *f_min_all (GnnTensor **x, GError **e) { return gnn_tensor_min_all (x[0], e); }
static GnnTensor *f_argmax (GnnTensor **x, GError **e) { return gnn_tensor_argmax (x[0], -1, FALSE, e); }
static GnnTensor *f_argmin (GnnTensor **x, GError **e) { return gnn_tensor_argmin (x[0], 0, FALSE, e); }
static GnnTensor *f_argmax_all (GnnTensor **x, GError **e) { return gnn_tensor_argmax_all (x[0], e); }
static GnnTensor *f_softmax (GnnTensor **x, GError **e) { return gnn_tensor_softmax (x[0], -1, e); }
static GnnTensor *f_softmax0 (GnnTensor **x, GError **e) { return gnn_tensor_softmax (x[0], 0, e); }
static GnnTensor *f_log_softmax (GnnTensor **x, GError **e) { return gnn_tensor_log_softmax (x[0], 1, e); }
static GnnTensor *f_cumsum (GnnTensor **x, GError **e) { return gnn_tensor_cumsum (x[0], 1, e); }
static GnnTensor *f_cumprod (GnnTensor **x, GError **e) { return gnn_tensor_cumprod (x[0], -1, e); }
static GnnTensor *f_logcumsumexp (GnnTensor **x, GError **e) { return gnn_tensor_logcumsumexp (x[0], 0, e); }
static GnnTensor *f_sort (GnnTensor **x, GError **e) { return gnn_tensor_sort (x[0], 1, TRUE, TRUE, NULL, e); }
static GnnTensor *f_topk (GnnTensor **x, GError **e) { return gnn_tensor_topk (x[0], 3, -1, TRUE, TRUE, NULL, e); }

/* indexing */
static GnnTensor *f_index_select (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) idx = index_on (x[0], (const gint64[]) { 2, 0, 2, 3, 1 }, 5, 1, GNN_TEST_SHAPE (5), e);
  return idx ? gnn_tensor_index_select (x[0], 1, idx, e) : NULL;
}
static GnnTensor *f_gather (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) idx = index_on (x[0], (const gint64[]) { 0, 3, 3, 1, 2, 2, 0, 1, 3 }, 9, 2,
                                       GNN_TEST_SHAPE (3, 3), e);
  return idx ? gnn_tensor_gather (x[0], 1, idx, e) : NULL;
}
static GnnTensor *f_scatter_reduce (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) idx = index_on (x[0], (const gint64[]) { 0, 2, 2, 1, 0, 1, 3, 3, 2 }, 9, 2,
                                       GNN_TEST_SHAPE (3, 3), e);
  g_autoptr(GnnTensor) src = idx ? gnn_tensor_narrow (x[0], 1, 1, 3, e) : NULL;
  return src ? gnn_tensor_scatter_reduce (x[0], 1, idx, src, "amax", TRUE, e) : NULL;
}
static GnnTensor *f_one_hot (GnnTensor **x, GError **e) { return gnn_tensor_one_hot (x[0], 6, e); }

/* convolution and pooling */
static GnnTensor *f_conv2d (GnnTensor **x, GError **e)
{
  return gnn_tensor_conv2d (x[0], x[1], x[2], GNN_TEST_SHAPE (1, 2), GNN_TEST_SHAPE (1, 0),
                            GNN_TEST_SHAPE (1, 1), 1, e);
}
static GnnTensor *f_conv2d_groups (GnnTensor **x, GError **e)
{
  return gnn_tensor_conv2d (x[0], x[1], NULL, GNN_TEST_SHAPE (2, 1), GNN_TEST_SHAPE (1, 1),
                            GNN_TEST_SHAPE (1, 2), 2, e);
}
static GnnTensor *f_conv1d (GnnTensor **x, GError **e) { return gnn_tensor_conv1d (x[0], x[1], x[2], 1, 1, 1, 1, e); }
static GnnTensor *f_conv_t2d (GnnTensor **x, GError **e)
{
  return gnn_tensor_conv_transpose2d (x[0], x[1], x[2], GNN_TEST_SHAPE (2, 2), GNN_TEST_SHAPE (1, 0),
                                      GNN_TEST_SHAPE (1, 0), 1, GNN_TEST_SHAPE (1, 1), e);
}
static GnnTensor *f_max_pool (GnnTensor **x, GError **e)
{
  return gnn_tensor_max_pool2d (x[0], GNN_TEST_SHAPE (3, 2), GNN_TEST_SHAPE (2, 2), GNN_TEST_SHAPE (1, 0),
                                GNN_TEST_SHAPE (1, 1), TRUE, NULL, e);
}
static GnnTensor *f_avg_pool (GnnTensor **x, GError **e)
{
  return gnn_tensor_avg_pool2d (x[0], GNN_TEST_SHAPE (3, 3), GNN_TEST_SHAPE (2, 1), GNN_TEST_SHAPE (1, 1),
                                FALSE, FALSE, 0, e);
}
static GnnTensor *f_adaptive_pool (GnnTensor **x, GError **e)
{
  return gnn_tensor_adaptive_avg_pool2d (x[0], GNN_TEST_SHAPE (3, 2), e);
}

/* the 3-d forms (their kernels run on the CPU on a CUDA device: departures) */
static GnnTensor *f_conv3d (GnnTensor **x, GError **e)
{
  return gnn_tensor_conv3d (x[0], x[1], x[2], GNN_TEST_SHAPE (1, 2, 1), GNN_TEST_SHAPE (1, 0, 1),
                            GNN_TEST_SHAPE (1, 1, 2), 1, e);
}
static GnnTensor *f_conv_t3d (GnnTensor **x, GError **e)
{
  return gnn_tensor_conv_transpose3d (x[0], x[1], x[2], GNN_TEST_SHAPE (2, 1, 2), GNN_TEST_SHAPE (1, 0, 0),
                                      GNN_TEST_SHAPE (1, 0, 1), 1, GNN_TEST_SHAPE (1, 1, 1), e);
}
static GnnTensor *f_max_pool3d (GnnTensor **x, GError **e)
{
  return gnn_tensor_max_pool3d (x[0], GNN_TEST_SHAPE (2, 3, 2), GNN_TEST_SHAPE (1, 2, 2), GNN_TEST_SHAPE (1, 1, 0),
                                GNN_TEST_SHAPE (1, 1, 1), TRUE, NULL, e);
}
static GnnTensor *f_avg_pool3d (GnnTensor **x, GError **e)
{
  return gnn_tensor_avg_pool3d (x[0], GNN_TEST_SHAPE (2, 3, 3), GNN_TEST_SHAPE (1, 2, 1), GNN_TEST_SHAPE (1, 1, 1),
                                FALSE, FALSE, 0, e);
}
static GnnTensor *f_adaptive_pool3d (GnnTensor **x, GError **e)
{
  return gnn_tensor_adaptive_avg_pool3d (x[0], GNN_TEST_SHAPE (2, 3, 2), e);
}

static GnnTensor *f_adaptive_max_pool3d (GnnTensor **x, GError **e)
{
  return gnn_tensor_adaptive_max_pool3d (x[0], GNN_TEST_SHAPE (2, 3, 2), NULL, e);
}

#define BIG S2 (67, 129)
#define A34 S2 (3, 4)

static const OpCase op_cases[] = {
  /* binary: same shape, broadcast, a transposed view */
  { "add", f_add, 2, { IN (A34, -2, 2), IN (A34, -2, 2) }, F_GRAD | F_INT },
  { "add/broadcast", f_add, 2, { IN (S3 (2, 3, 5), -2, 2), IN (S2 (3, 1), -2, 2) }, F_GRAD | F_INT },
  { "add/transposed", f_add, 2, { TIN (A34, -2, 2), IN (S1 (4), -2, 2) }, F_GRAD },
  { "add/big", f_add, 2, { IN (BIG, -2, 2), TIN (BIG, -2, 2) }, F_GRAD },
  { "sub", f_sub, 2, { IN (S3 (2, 3, 4), -2, 2), TIN (A34, -2, 2) }, F_GRAD | F_INT },
  { "mul", f_mul, 2, { IN (A34, -2, 2), IN (S2 (1, 4), -2, 2) }, F_GRAD | F_INT },
  { "div", f_div, 2, { IN (A34, -2, 2), IN (A34, 0.5, 2) }, F_GRAD },
  { "div/transposed", f_div, 2, { TIN (S3 (2, 3, 4), -2, 2), IN (S3 (2, 1, 4), 0.5, 2) }, F_GRAD },
  { "pow", f_pow, 2, { IN (A34, 0.1, 2), IN (A34, -1.5, 2) }, F_GRAD, 10 },
  { "pow/int", f_pow, 2, { IN (A34, -3, 3), IN (A34, 0, 3) }, F_INT },
  { "maximum", f_maximum, 2, { IN (A34, -2, 2), TIN (A34, -2, 2) }, F_GRAD | F_INT },
  { "hypot", f_hypot, 2, { IN (A34, -2, 2), IN (S2 (1, 4), -2, 2) }, F_GRAD },
  { "reciprocal", f_reciprocal, 1, { IN (A34, 0.5, 2) }, F_GRAD },
  { "rsqrt", f_rsqrt, 1, { IN (A34, 0.2, 3) }, F_GRAD },
  { "log1p", f_log1p, 1, { IN (A34, -0.5, 2) }, F_GRAD },
  { "expm1", f_expm1, 1, { IN (A34, -2, 2) }, F_GRAD },
  { "log2", f_log2, 1, { IN (A34, 0.1, 3) }, F_GRAD },
  { "log10", f_log10, 1, { IN (A34, 0.1, 3) }, F_GRAD },
  { "sin", f_sin, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "cos", f_cos, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "tan", f_tan, 1, { IN (A34, -1.2, 1.2) }, F_GRAD },
  { "asin", f_asin, 1, { IN (A34, -0.9, 0.9) }, F_GRAD },
  { "acos", f_acos, 1, { IN (A34, -0.9, 0.9) }, F_GRAD },
  { "atan", f_atan, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "sinh", f_sinh, 1, { IN (A34, -2, 2) }, F_GRAD },
  { "cosh", f_cosh, 1, { IN (A34, -2, 2) }, F_GRAD },
  { "asinh", f_asinh, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "acosh", f_acosh, 1, { IN (A34, 1.1, 3) }, F_GRAD },
  { "atanh", f_atanh, 1, { IN (A34, -0.9, 0.9) }, F_GRAD },
  { "erf", f_erf, 1, { IN (A34, -2, 2) }, F_GRAD },
  { "erfc", f_erfc, 1, { IN (A34, -2, 2) }, F_GRAD },
  { "erfinv", f_erfinv, 1, { IN (A34, -0.9, 0.9) }, F_GRAD },
  { "lgamma", f_lgamma, 1, { IN (A34, 0.2, 4) }, F_GRAD },
  { "floor", f_floor, 1, { IN (A34, -3, 3) }, 0 },
  { "ceil", f_ceil, 1, { IN (A34, -3, 3) }, 0 },
  { "round", f_round, 1, { IN (A34, -3, 3) }, 0 },
  { "trunc", f_trunc, 1, { IN (A34, -3, 3) }, 0 },
  { "frac", f_frac, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "atan2", f_atan2, 2, { IN (A34, -2, 2), IN (S2 (1, 4), -2, 2) }, F_GRAD },
  { "fmod", f_fmod, 2, { IN (A34, -3, 3), IN (S2 (1, 4), 1, 3) }, F_GRAD | F_INT },
  { "remainder", f_remainder, 2, { IN (A34, -3, 3), IN (S2 (1, 4), 1, 3) }, F_GRAD | F_INT },
  { "floor_divide", f_floor_divide, 2, { IN (A34, -3, 3), IN (S2 (1, 4), 1, 3) }, F_INT },
  { "xlogy", f_xlogy, 2, { IN (A34, 0.1, 2), IN (S2 (1, 4), 0.1, 2) }, F_GRAD },
  { "exp2", f_exp2, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "sinc", f_sinc, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "i0", f_i0, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "i0e", f_i0e, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "i1", f_i1, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "i1e", f_i1e, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "ndtri", f_ndtri, 1, { IN (A34, 0.05, 0.95) }, F_GRAD },
  { "log_ndtr", f_log_ndtr, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "erfcx", f_erfcx, 1, { IN (A34, -2, 3) }, F_GRAD },
  { "entr", f_entr, 1, { IN (A34, 0.1, 3) }, F_GRAD },
  { "xlog1py", f_xlog1py, 2, { IN (A34, -2, 2), IN (S2 (1, 4), -0.5, 2) }, F_GRAD },
  { "zeta", f_zeta, 2, { IN (A34, 1.5, 4), IN (S2 (1, 4), 0.5, 3) }, 0 },
  { "mvlgamma", f_mvlgamma, 1, { IN (A34, 1.5, 4) }, F_GRAD },
  { "copysign", f_copysign, 2, { IN (A34, -2, 2), IN (S2 (1, 4), -2, 2) }, F_GRAD },
  { "fmax", f_fmax, 2, { IN (A34, -2, 2), IN (S2 (1, 4), -2, 2) }, F_GRAD | F_INT },
  { "fmin", f_fmin, 2, { IN (A34, -2, 2), IN (S2 (1, 4), -2, 2) }, F_GRAD | F_INT },
  { "logaddexp", f_logaddexp, 2, { IN (A34, -5, 5), IN (S2 (1, 4), -5, 5) }, F_GRAD },
  { "logaddexp2", f_logaddexp2, 2, { IN (A34, -5, 5), IN (S2 (1, 4), -5, 5) }, F_GRAD },
  { "nextafter", f_nextafter, 2, { IN (A34, -2, 2), IN (S2 (1, 4), -2, 2) }, 0 },
  { "heaviside", f_heaviside, 2, { IN (A34, -2, 2), IN (A34, -2, 2) }, F_INT },
  { "bitwise_and", f_bitwise_and, 2, { INT_ (A34, -9, 9), INT_ (S2 (1, 4), -9, 9) }, 0 },
  { "gcd", f_gcd, 2, { INT_ (A34, -12, 12), INT_ (S2 (1, 4), -12, 12) }, 0 },
  { "logical_xor", f_logical_xor, 2, { IN (A34, -1, 1), IN (S2 (3, 1), -1, 1) }, F_INT },
  { "minimum", f_minimum, 2, { IN (S3 (2, 3, 4), -2, 2), IN (A34, -2, 2) }, F_GRAD | F_INT },
  { "eq", f_eq, 2, { IN (A34, -2, 2), IN (A34, -2, 2) }, F_INT },
  { "ne", f_ne, 2, { IN (A34, -1, 1), IN (S2 (3, 1), -1, 1) }, F_INT },
  { "lt", f_lt, 2, { IN (A34, -2, 2), TIN (A34, -2, 2) }, F_INT },
  { "le", f_le, 2, { IN (A34, -2, 2), IN (S1 (4), -2, 2) }, F_INT },
  { "gt", f_gt, 2, { IN (BIG, -2, 2), IN (BIG, -2, 2) }, F_INT },
  { "ge", f_ge, 2, { IN (A34, -2, 2), IN (A34, -2, 2) }, F_INT },
  { "scalars", f_scalars, 1, { IN (A34, 0.1, 2) }, F_GRAD },
  { "where", f_where, 3, { IN (A34, -1, 1), IN (A34, -2, 2), TIN (A34, -2, 2) }, F_GRAD | F_INT },
  { "cpu-scalar", f_cpu_scalar, 1, { IN (A34, -2, 2) }, F_GRAD },
  /* unary: contiguous, transposed, big */
  { "neg", f_neg, 1, { IN (A34, -2, 2) }, F_GRAD | F_INT },
  { "exp", f_exp, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "exp/transposed", f_exp, 1, { TIN (S3 (2, 3, 4), -3, 3) }, F_GRAD },
  { "exp/big", f_exp, 1, { IN (BIG, -3, 3) }, F_GRAD },
  { "log", f_log, 1, { IN (A34, 0.1, 3) }, F_GRAD },
  { "sqrt", f_sqrt, 1, { TIN (A34, 0.1, 3) }, F_GRAD },
  { "abs", f_abs, 1, { IN (A34, -2, 2) }, F_GRAD | F_INT },
  { "sign", f_sign, 1, { IN (A34, -2, 2) }, F_GRAD | F_INT },
  { "clamp", f_clamp, 1, { IN (A34, -2, 2) }, F_GRAD | F_INT },
  { "clamp-min", f_clamp_min, 1, { TIN (A34, -2, 2) }, F_GRAD },
  { "clamp-max", f_clamp_max, 1, { IN (A34, -2, 2) }, F_GRAD },
  { "pow-scalar", f_pow_scalar, 1, { IN (A34, -2, 2) }, F_GRAD | F_INT },
  { "pow-scalar/frac", f_pow_frac, 1, { IN (A34, 0.1, 2) }, F_GRAD },
  { "relu", f_relu, 1, { IN (A34, -2, 2) }, F_GRAD | F_INT },
  { "relu/big", f_relu, 1, { TIN (BIG, -2, 2) }, F_GRAD },
  { "leaky-relu", f_leaky_relu, 1, { IN (A34, -2, 2) }, F_GRAD },
  { "elu", f_elu, 1, { TIN (A34, -2, 2) }, F_GRAD },
  { "gelu", f_gelu, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "gelu-tanh", f_gelu_tanh, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "silu", f_silu, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "sigmoid", f_sigmoid, 1, { IN (BIG, -4, 4) }, F_GRAD },
  { "tanh", f_tanh, 1, { TIN (A34, -3, 3) }, F_GRAD },
  { "softplus", f_softplus, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "hardsigmoid", f_hardsigmoid, 1, { IN (A34, -4, 4) }, F_GRAD },
  { "hardswish", f_hardswish, 1, { IN (A34, -4, 4) }, F_GRAD },
  { "mish", f_mish, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "celu", f_celu, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "selu", f_selu, 1, { IN (A34, -3, 3) }, F_GRAD },
  { "logsigmoid", f_logsigmoid, 1, { IN (A34, -4, 4) }, F_GRAD },
  { "hardshrink", f_hardshrink, 1, { IN (A34, -2, 2) }, F_GRAD },
  { "softshrink", f_softshrink, 1, { IN (A34, -2, 2) }, F_GRAD },
  { "threshold", f_threshold, 1, { IN (A34, -2, 2) }, F_GRAD },
  /* in place, copies, conversions */
  { "lerp_", f_lerp_, 2, { IN (A34, -2, 2), TIN (A34, -2, 2) }, 0 },
  { "addcmul_", f_addcmul_, 3, { IN (A34, -2, 2), IN (S1 (4), -2, 2), TIN (A34, -2, 2) }, 0 },
  { "addcdiv_", f_addcdiv_, 3, { IN (A34, -2, 2), IN (A34, -2, 2), IN (A34, 0.5, 2) }, 0 },
  { "in-place", f_inplace, 2, { IN (A34, -2, 2), IN (A34, 0.5, 2) }, 0 },
  { "fill", f_fill, 1, { IN (A34, -2, 2) }, F_INT },
  { "copy", f_copy, 1, { TIN (S3 (2, 3, 4), -2, 2) }, F_GRAD },
  { "contiguous", f_contiguous, 1, { TIN (S3 (2, 3, 4), -2, 2) }, F_GRAD | F_INT },
  { "half", f_to_half, 1, { IN (A34, -2, 2) }, 0, 1e6 },
  { "cat", f_cat, 2, { IN (A34, -2, 2), TIN (S2 (3, 2), -2, 2) }, F_GRAD | F_INT },
  { "stack", f_stack, 2, { IN (A34, -2, 2), TIN (A34, -2, 2) }, F_GRAD },
  /* gemm */
  { "matmul", f_matmul, 2, { IN (S2 (5, 7), -1, 1), IN (S2 (7, 3), -1, 1) }, F_GRAD },
  { "matmul/transposed", f_matmul, 2, { TIN (S2 (5, 7), -1, 1), TIN (S2 (7, 3), -1, 1) }, F_GRAD },
  { "matmul/batched", f_matmul, 2, { IN (S3 (4, 5, 6), -1, 1), TIN (S3 (4, 6, 3), -1, 1) }, F_GRAD },
  { "matmul/broadcast", f_matmul, 2, { TIN (S3 (3, 5, 6), -1, 1), IN (S2 (6, 4), -1, 1) }, F_GRAD },
  { "matmul/vector", f_matmul, 2, { IN (S2 (5, 7), -1, 1), IN (S1 (7), -1, 1) }, F_GRAD },
  { "matmul/big", f_matmul, 2, { IN (S2 (130, 257), -1, 1), TIN (S2 (257, 67), -1, 1) }, F_GRAD, 10 },
  { "linear", f_linear, 3, { IN (S3 (2, 3, 8), -1, 1), IN (S2 (5, 8), -1, 1), IN (S1 (5), -1, 1) }, F_GRAD },
  /* reductions */
  { "sum", f_sum, 1, { IN (S3 (2, 3, 4), -2, 2) }, F_GRAD | F_INT },
  { "sum/two-dims", f_sum02, 1, { TIN (S3 (3, 5, 4), -2, 2) }, F_GRAD | F_INT },
  { "sum-all/big", f_sum_all, 1, { IN (S2 (300, 301), -2, 2) }, F_GRAD, 10 },
  { "mean", f_mean, 1, { TIN (S3 (2, 3, 4), -2, 2) }, F_GRAD },
  { "mean-all", f_mean_all, 1, { IN (BIG, -2, 2) }, F_GRAD },
  { "var", f_var, 1, { IN (S3 (5, 3, 4), -2, 2) }, F_GRAD },
  { "var-all", f_var_all, 1, { TIN (BIG, -2, 2) }, F_GRAD, 10 },
  { "batch-norm", f_batch_norm, 3, { IN (S3 (4, 3, 5), -2, 2), IN (S1 (3), 0.5, 1.5), IN (S1 (3), -1, 1) }, F_GRAD },
  { "scaled-dot-product-attention", f_sdpa, 3, { IN (S3 (2, 5, 4), -1, 1), IN (S3 (2, 6, 4), -1, 1), IN (S3 (2, 6, 3), -1, 1) }, F_GRAD },
  { "lstm-layer", f_lstm_layer, 5, { IN (S3 (3, 2, 16), -1, 1), IN (S2 (16, 4), -0.5, 0.5), IN (S1 (16), -0.5, 0.5),
                                      IN (S2 (2, 4), -1, 1), IN (S2 (2, 4), -1, 1) }, F_GRAD },
  { "gru-layer", f_gru_layer, 4, { IN (S3 (3, 2, 12), -1, 1), IN (S2 (12, 4), -0.5, 0.5), IN (S1 (12), -0.5, 0.5),
                                    IN (S2 (2, 4), -1, 1) }, F_GRAD },
  { "max-dim", f_max_dim, 1, { IN (S3 (2, 5, 4), -2, 2) }, F_GRAD | F_INT },
  { "min-dim", f_min_dim, 1, { TIN (S3 (2, 5, 4), -2, 2) }, F_GRAD | F_INT },
  { "max-all", f_max_all, 1, { IN (BIG, -2, 2) }, F_GRAD | F_INT },
  { "min-all", f_min_all, 1, { IN (A34, -2, 2) }, F_GRAD | F_INT },
  { "argmax", f_argmax, 1, { TIN (S3 (2, 5, 7), -2, 2) }, 0 },
  { "argmin", f_argmin, 1, { IN (S2 (6, 3), -2, 2) }, 0 },
  { "argmax-all", f_argmax_all, 1, { IN (BIG, -2, 2) }, 0 },
  /* scans and sorts (no CUDA kernels yet: the ops run them on the CPU backend, through the host) */
  { "cumsum", f_cumsum, 1, { TIN (S3 (2, 5, 4), -2, 2) }, F_GRAD | F_INT },
  { "cumprod", f_cumprod, 1, { IN (S3 (2, 3, 6), -1.5, 1.5) }, F_GRAD | F_INT },
  { "logcumsumexp", f_logcumsumexp, 1, { IN (S2 (7, 3), -3, 3) }, F_GRAD },
  { "sort", f_sort, 1, { TIN (S3 (2, 6, 3), -2, 2) }, F_GRAD | F_INT },
  { "topk", f_topk, 1, { IN (S2 (4, 7), -2, 2) }, F_GRAD | F_INT },
  { "softmax", f_softmax, 1, { IN (S3 (2, 3, 7), -3, 3) }, F_GRAD },
  { "softmax/dim0", f_softmax0, 1, { TIN (S2 (5, 6), -3, 3) }, F_GRAD },
  { "softmax/big", f_softmax, 1, { IN (S2 (33, 1030), -5, 5) }, F_GRAD },
  { "log-softmax", f_log_softmax, 1, { IN (S3 (2, 6, 3), -3, 3) }, F_GRAD },
  /* indexing */
  { "index-select", f_index_select, 1, { TIN (S3 (2, 4, 3), -2, 2) }, F_GRAD | F_INT },
  { "gather", f_gather, 1, { IN (S2 (3, 4), -2, 2) }, F_GRAD | F_INT },
  { "scatter-reduce", f_scatter_reduce, 1, { IN (S2 (3, 4), -2, 2) }, F_GRAD | F_INT },
  { "one-hot", f_one_hot, 1, { INT_ (S2 (3, 5), 0, 5) }, 0 },
  /* convolution and pooling */
  { "conv2d", f_conv2d, 3, { IN (S4 (2, 3, 7, 6), -1, 1), IN (S4 (4, 3, 3, 2), -1, 1), IN (S1 (4), -1, 1) }, F_GRAD },
  { "conv2d/groups", f_conv2d_groups, 2, { TIN (S4 (1, 4, 6, 7), -1, 1), IN (S4 (6, 2, 2, 3), -1, 1) }, F_GRAD },
  { "conv1d", f_conv1d, 3, { IN (S3 (2, 3, 9), -1, 1), IN (S3 (5, 3, 3), -1, 1), IN (S1 (5), -1, 1) }, F_GRAD },
  { "conv-transpose2d", f_conv_t2d, 3, { IN (S4 (2, 3, 4, 5), -1, 1), IN (S4 (3, 2, 3, 3), -1, 1), IN (S1 (2), -1, 1) }, F_GRAD },
  { "max-pool2d", f_max_pool, 1, { IN (S4 (2, 3, 7, 6), -2, 2) }, F_GRAD },
  { "avg-pool2d", f_avg_pool, 1, { TIN (S4 (2, 3, 7, 6), -2, 2) }, F_GRAD },
  { "adaptive-avg-pool2d", f_adaptive_pool, 1, { IN (S4 (2, 3, 7, 5), -2, 2) }, F_GRAD },
  { "conv3d", f_conv3d, 3, { IN (S5 (2, 3, 4, 5, 4), -1, 1), IN (S5 (4, 3, 2, 3, 2), -1, 1), IN (S1 (4), -1, 1) }, F_GRAD },
  { "conv-transpose3d", f_conv_t3d, 3, { IN (S5 (2, 3, 2, 3, 2), -1, 1), IN (S5 (3, 2, 2, 3, 2), -1, 1), IN (S1 (2), -1, 1) }, F_GRAD },
  { "max-pool3d", f_max_pool3d, 1, { IN (S5 (2, 3, 4, 6, 5), -2, 2) }, F_GRAD },
  { "avg-pool3d", f_avg_pool3d, 1, { TIN (S5 (2, 3, 4, 6, 5), -2, 2) }, F_GRAD },
  { "adaptive-avg-pool3d", f_adaptive_pool3d, 1, { IN (S5 (2, 3, 5, 7, 3), -2, 2) }, F_GRAD },
  { "adaptive-max-pool3d", f_adaptive_max_pool3d, 1, { IN (S5 (2, 3, 5, 7, 3), -2, 2) }, F_GRAD },
};

/* The inputs of @c on the CPU (leaves in @leaf, what the op gets in @x), and the same on the
 * device; @grad makes floating leaves require grad. */
static void
make_inputs (const OpCase *c, GnnDtype dtype, guint seed, gboolean grad, GnnTensor **leaf_cpu, GnnTensor **x_cpu,
             GnnTensor **leaf_dev, GnnTensor **x_dev)
{
  g_autoptr(GError) error = NULL;

  for (guint k = 0; k < c->n_in; k++)
    {
      const InSpec *s = &c->in[k];
      gint64 shape[5];
      GnnDtype dt = s->index ? GNN_DTYPE_INT64 : dtype;

      memcpy (shape, s->shape, sizeof shape);
      if (s->transpose && s->ndim >= 2)
        {
          shape[s->ndim - 2] = s->shape[s->ndim - 1];
          shape[s->ndim - 1] = s->shape[s->ndim - 2];
        }
      leaf_cpu[k] = random_cpu (s->ndim, shape, dt, s->lo, s->hi, seed + 31 * k);
      leaf_dev[k] = to_cuda (leaf_cpu[k]);
      if (grad && gnn_dtype_is_floating (dt))
        {
          gnn_tensor_set_requires_grad (leaf_cpu[k], TRUE, &error);
          g_assert_no_error (error);
          gnn_tensor_set_requires_grad (leaf_dev[k], TRUE, &error);
          g_assert_no_error (error);
        }
      if (s->transpose && s->ndim >= 2)
        {
          x_cpu[k] = gnn_tensor_transpose (leaf_cpu[k], -1, -2, &error);
          g_assert_no_error (error);
          x_dev[k] = gnn_tensor_transpose (leaf_dev[k], -1, -2, &error);
          g_assert_no_error (error);
        }
      else
        {
          x_cpu[k] = g_object_ref (leaf_cpu[k]);
          x_dev[k] = g_object_ref (leaf_dev[k]);
        }
    }
}

static void
run_case (const OpCase *c, GnnDtype dtype, GString *failures)
{
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  GnnTensor *lc[MAX_IN] = { 0 }, *xc[MAX_IN] = { 0 }, *ld[MAX_IN] = { 0 }, *xd[MAX_IN] = { 0 };
  g_autoptr(GnnTensor) yc = NULL, yd = NULL;
  gboolean grad = (c->flags & F_GRAD) && gnn_dtype_is_floating (dtype);
  double budget = base_budget (dtype) * (c->budget > 0 ? c->budget : 1);
  g_autofree char *what = g_strdup_printf ("%s (%s)", c->name, gnn_dtype_get_name (dtype));
  double nmse;

  make_inputs (c, dtype, (guint) (c - op_cases) + 1, grad, lc, xc, ld, xd);
  yc = c->func (xc, &e1);
  if (yc == NULL)
    {
      g_string_append_printf (failures, "\n  %s: the cpu fails: %s", what, e1->message);
      goto out;
    }
  yd = c->func (xd, &e2);
  if (yd == NULL)
    {
      g_string_append_printf (failures, "\n  %s: %s", what, e2 ? e2->message : "NULL without an error");
      goto out;
    }
  nmse = compare (what, yc, yd, budget, failures);
  g_test_message ("%-28s NMSE %.3g (budget %.3g)", what, nmse, budget);

  if (grad && gnn_dtype_is_floating (gnn_tensor_get_dtype (yc)) && gnn_tensor_get_requires_grad (yc))
    {
      guint nd;
      const gint64 *shape = gnn_tensor_get_shape (yc, &nd);
      g_autoptr(GnnTensor) gc = random_cpu (nd, shape, gnn_tensor_get_dtype (yc), -1, 1, 99);
      g_autoptr(GnnTensor) gd = to_cuda (gc);

      if (!gnn_tensor_backward (yc, gc, FALSE, &e1))
        {
          g_string_append_printf (failures, "\n  %s backward: the cpu fails: %s", what, e1->message);
          goto out;
        }
      if (!gnn_tensor_backward (yd, gd, FALSE, &e2))
        {
          g_string_append_printf (failures, "\n  %s backward: %s", what, e2->message);
          goto out;
        }
      for (guint k = 0; k < c->n_in; k++)
        {
          g_autofree char *gw = g_strdup_printf ("%s grad of input %u", what, k);
          GnnTensor *gcpu = gnn_tensor_get_grad (lc[k]);
          GnnTensor *gdev = gnn_tensor_get_grad (ld[k]);

          if (gcpu == NULL && gdev == NULL)
            continue;
          compare (gw, gcpu, gdev, budget * 10, failures);
        }
    }

out:
  for (guint k = 0; k < MAX_IN; k++)
    {
      g_clear_object (&lc[k]);
      g_clear_object (&xc[k]);
      g_clear_object (&ld[k]);
      g_clear_object (&xd[k]);
    }
}

/* every case on @dtype, then a check that each kernel the CPU runs on it was dispatched to
 * the cuda backend */
static void
test_ops (gconstpointer data)
{
  GnnDtype dtype = GPOINTER_TO_INT (data);
  g_autoptr(GString) failures = g_string_new (NULL);
  GnnBackend *cpu = gnn_backend_get_by_name ("cpu", NULL);
  GEnumClass *ops = g_type_class_ref (GNN_TYPE_BACKEND_OP);

  REQUIRE_DEVICE ();
  gnn_backend_reset_kernel_counts (cuda);
  for (gsize i = 0; i < G_N_ELEMENTS (op_cases); i++)
    {
      const OpCase *c = &op_cases[i];
      if (dtype == GNN_DTYPE_INT64 && !(c->flags & F_INT))
        continue;
      run_case (c, dtype, failures);
    }
  if (dtype != GNN_DTYPE_INT64)
    for (int op = 0; op < GNN_BACKEND_OP_N_OPS; op++)
      {
        /* RAND_* and FOREACH_LERP have tests of their own; COPY/FILL of the op's dtype */
        if (op == GNN_BACKEND_OP_RAND_UNIFORM || op == GNN_BACKEND_OP_RAND_NORMAL ||
            op == GNN_BACKEND_OP_RAND_INT || op == GNN_BACKEND_OP_FOREACH_LERP || op == GNN_BACKEND_OP_ARANGE ||
            !gnn_backend_supports_op (cpu, op, dtype))
          continue;
        if (!gnn_backend_supports_op (cuda, op, dtype))
          g_string_append_printf (failures, "\n  the cuda backend does not run kernel %s on %s",
                                  g_enum_get_value (ops, op)->value_nick, gnn_dtype_get_name (dtype));
        else if (gnn_backend_get_kernel_count (cuda, op) == 0)
          g_string_append_printf (failures, "\n  no case reached kernel %s on the cuda backend",
                                  g_enum_get_value (ops, op)->value_nick);
      }
  g_type_class_unref (ops);
  if (failures->len > 0)
    report_failures (failures, "ops on %s differ between cpu and cuda", gnn_dtype_get_name (dtype));
}

/* ---- gemm on views cuBLAS cannot read directly -------------------------------------- */

/* out = 1.5 · A · B + 0.5 · out through the GEMM kernel itself, with A a view with a column
 * stride of 2 (no BLAS layout: copied), B transposed, out a transposed view (column-major) */
static void
test_gemm_views (gconstpointer data)
{
  GnnDtype dtype = GPOINTER_TO_INT (data);
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) failures = g_string_new (NULL);
  g_autoptr(GnnTensor) abase = random_cpu (3, GNN_TEST_SHAPE (3, 5, 8), dtype, -1, 1, 1);
  g_autoptr(GnnTensor) bbase = random_cpu (3, GNN_TEST_SHAPE (3, 3, 4), dtype, -1, 1, 2);
  g_autoptr(GnnTensor) cbase = random_cpu (3, GNN_TEST_SHAPE (3, 3, 5), dtype, -1, 1, 3);
  g_autoptr(GnnTensor) ad = NULL, bd = NULL, cd = NULL, a = NULL, b = NULL, c = NULL;
  g_autoptr(GnnTensor) ab = NULL, t1 = NULL, t2 = NULL, expected = NULL, ccpu = NULL;
  GnnKernelTensor ka, kb, kc;
  GnnKernelArgs args = { 0 };
  GnnStorage *st;

  REQUIRE_DEVICE ();
  if (is_fake ())
    {
      /* the stand-in runs the CPU gemm, which refuses such views */
      g_test_skip ("the fake cuda backend runs the CPU gemm, which needs BLAS layouts");
      return;
    }
  /* expected, on the CPU through the public ops */
  a = gnn_tensor_slice (abase, 2, 0, 8, 2, &error);
  g_assert_no_error (error);
  b = gnn_tensor_transpose (bbase, 1, 2, &error);
  g_assert_no_error (error);
  ccpu = gnn_tensor_transpose (cbase, 1, 2, &error);
  g_assert_no_error (error);
  ab = gnn_tensor_matmul (a, b, &error);
  g_assert_no_error (error);
  t1 = gnn_tensor_mul_scalar (ab, 1.5, &error);
  g_assert_no_error (error);
  t2 = gnn_tensor_mul_scalar (ccpu, 0.5, &error);
  g_assert_no_error (error);
  expected = gnn_tensor_add (t1, t2, 1.0, &error);
  g_assert_no_error (error);
  g_clear_object (&a);
  g_clear_object (&b);

  /* the kernel on the device */
  ad = to_cuda (abase);
  bd = to_cuda (bbase);
  cd = to_cuda (cbase);
  a = gnn_tensor_slice (ad, 2, 0, 8, 2, &error);
  g_assert_no_error (error);
  b = gnn_tensor_transpose (bd, 1, 2, &error);
  g_assert_no_error (error);
  c = gnn_tensor_transpose (cd, 1, 2, &error);
  g_assert_no_error (error);
  gnn_tensor_to_kernel (a, &ka);
  gnn_tensor_to_kernel (b, &kb);
  gnn_tensor_to_kernel (c, &kc);
  args.op = GNN_BACKEND_OP_GEMM;
  args.out = &kc;
  args.in[0] = &ka;
  args.in[1] = &kb;
  args.n_in = 2;
  args.params.gemm.alpha = 1.5;
  args.params.gemm.beta = 0.5;
  st = gnn_tensor_priv (c)->storage;
  g_assert_true (gnn_backend_entry_run (st->entry, st->device, &args, &error));
  g_assert_no_error (error);
  compare ("gemm of strided views", expected, c, base_budget (dtype), failures);

  /* a broadcast batch (stride 0) */
  {
    g_autoptr(GnnTensor) m = random_cpu (2, GNN_TEST_SHAPE (5, 4), dtype, -1, 1, 4);
    g_autoptr(GnnTensor) md = to_cuda (m);
    g_autoptr(GnnTensor) bb = random_cpu (3, GNN_TEST_SHAPE (3, 4, 2), dtype, -1, 1, 5);
    g_autoptr(GnnTensor) bbd = to_cuda (bb);
    g_autoptr(GnnTensor) exp2 = gnn_tensor_matmul (m, bb, &error);
    g_autoptr(GnnTensor) out = gnn_tensor_new_empty (GNN_TEST_SHAPE (3, 5, 2), 3, dtype, "cuda", &error);
    GnnKernelTensor km, kbb, ko;

    g_assert_no_error (error);
    gnn_tensor_to_kernel (md, &km);
    km.ndim = 3;
    km.shape[2] = km.shape[1];
    km.shape[1] = km.shape[0];
    km.shape[0] = 3;
    km.strides[2] = km.strides[1];
    km.strides[1] = km.strides[0];
    km.strides[0] = 0;
    gnn_tensor_to_kernel (bbd, &kbb);
    gnn_tensor_to_kernel (out, &ko);
    args.out = &ko;
    args.in[0] = &km;
    args.in[1] = &kbb;
    args.params.gemm.alpha = 1.0;
    args.params.gemm.beta = 0.0;
    g_assert_true (gnn_backend_entry_run (st->entry, st->device, &args, &error));
    g_assert_no_error (error);
    compare ("gemm with a broadcast batch", exp2, out, base_budget (dtype), failures);
  }
  if (failures->len > 0)
    report_failures (failures, "gemm views");
}

/* float32 gemm is full precision unless TF32 is allowed */
static void
test_tf32 (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) failures = g_string_new (NULL);
  g_autoptr(GnnTensor) a = random_cpu (2, GNN_TEST_SHAPE (256, 512), GNN_DTYPE_FLOAT32, -1, 1, 7);
  g_autoptr(GnnTensor) b = random_cpu (2, GNN_TEST_SHAPE (512, 128), GNN_DTYPE_FLOAT32, -1, 1, 8);
  g_autoptr(GnnTensor) ad = NULL, bd = NULL, exact = NULL, fp32 = NULL, tf32 = NULL;
  gboolean saved = FALSE, now = FALSE;
  double e32, etf;

  REQUIRE_DEVICE ();
  ad = to_cuda (a);
  bd = to_cuda (b);
  exact = gnn_tensor_matmul (a, b, &error);
  g_assert_no_error (error);
  g_object_get (cuda, "allow-tf32", &saved, NULL);
  g_object_set (cuda, "allow-tf32", FALSE, NULL);
  fp32 = gnn_tensor_matmul (ad, bd, &error);
  g_assert_no_error (error);
  e32 = compare ("float32 gemm", exact, fp32, 1e-10, failures);
  g_object_set (cuda, "allow-tf32", TRUE, NULL);
  g_object_get (cuda, "allow-tf32", &now, NULL);
  g_assert_true (now);
  tf32 = gnn_tensor_matmul (ad, bd, &error);
  g_assert_no_error (error);
  etf = compare ("tf32 gemm", exact, tf32, 1e-4, failures);
  g_object_set (cuda, "allow-tf32", saved, NULL);
  g_test_message ("gemm 256x512x128 NMSE: float32 %.3g, tf32 %.3g", e32, etf);
  if (failures->len > 0)
    report_failures (failures, "tf32");
}

/* ---- random numbers: the same streams as the CPU ------------------------------------ */

static void
test_rand (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) failures = g_string_new (NULL);
  GnnDtype dtypes[2] = { GNN_DTYPE_FLOAT32, GNN_DTYPE_FLOAT64 };

  REQUIRE_DEVICE ();
  for (guint i = 0; i < 2; i++)
    for (guint round = 0; round < 2; round++)
      {
        g_autoptr(GnnGenerator) g1 = gnn_generator_new (1234 + i);
        g_autoptr(GnnGenerator) g2 = gnn_generator_new (1234 + i);
        gint64 shape[2] = { 37, 53 };
        /* a second round starts at a later offset */
        for (guint r = 0; r < round; r++)
          {
            gnn_generator_reserve (g1, 1001);
            gnn_generator_reserve (g2, 1001);
          }
        {
          g_autoptr(GnnTensor) uc = gnn_tensor_new_rand (shape, 2, g1, dtypes[i], NULL, &error);
          g_autoptr(GnnTensor) ud = gnn_tensor_new_rand (shape, 2, g2, dtypes[i], "cuda", &error);
          g_autoptr(GnnTensor) nc = gnn_tensor_new_randn (shape, 2, g1, dtypes[i], NULL, &error);
          g_autoptr(GnnTensor) nd = gnn_tensor_new_randn (shape, 2, g2, dtypes[i], "cuda", &error);
          g_autoptr(GnnTensor) ic = gnn_tensor_new_randint (-5, 1000, shape, 2, g1, NULL, &error);
          g_autoptr(GnnTensor) id = gnn_tensor_new_randint (-5, 1000, shape, 2, g2, "cuda", &error);
          g_assert_no_error (error);
          /* uniform and integer draws are the same numbers; normal ones may differ in the
           * last bits of log and cos */
          compare ("rand", uc, ud, 0, failures);
          compare ("randn", nc, nd, dtypes[i] == GNN_DTYPE_FLOAT32 ? 1e-12 : 1e-28, failures);
          compare ("randint", ic, id, 0, failures);
          g_assert_cmpuint (gnn_generator_get_offset (g1), ==, gnn_generator_get_offset (g2));
        }
      }
  if (failures->len > 0)
    report_failures (failures, "random numbers differ between cpu and cuda");
}

/* ---- FOREACH_LERP: a list of tensors in one kernel ---------------------------------- */

static void
test_foreach_lerp (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) failures = g_string_new (NULL);
  GnnBackend *cpu = gnn_backend_get_by_name ("cpu", NULL);
  const gint64 sizes[][2] = { { 3, 4 }, { 1, 1 }, { 129, 67 }, { 5, 1000 }, { 0, 3 } };
  enum { N = G_N_ELEMENTS (sizes) };
  GnnTensor *pc[N], *ec[N], *pd[N], *ed[N];

  REQUIRE_DEVICE ();
  for (GnnDtype dt = GNN_DTYPE_FLOAT32; dt <= GNN_DTYPE_FLOAT64; dt++)
    {
      if (!gnn_backend_supports_op (cpu, GNN_BACKEND_OP_FOREACH_LERP, dt))
        {
          g_test_skip ("the cpu backend has no foreach_lerp kernel to compare with");
          return;
        }
      for (guint j = 0; j < N; j++)
        {
          pc[j] = random_cpu (2, sizes[j], dt, -1, 1, 10 + j);
          ec[j] = random_cpu (2, sizes[j], dt, -1, 1, 20 + j);
          pd[j] = to_cuda (pc[j]);
          ed[j] = to_cuda (ec[j]);
        }
      gnn_backend_reset_kernel_counts (cuda);
      for (guint r = 0; r < 3; r++)
        {
          double w = r == 2 ? 0.75 : 0.1;
          g_assert_true (gnn_foreach_lerp_ (pc, ec, N, w, &error));
          g_assert_no_error (error);
          g_assert_true (gnn_foreach_lerp_ (pd, ed, N, w, &error));
          g_assert_no_error (error);
        }
      g_assert_cmpuint (gnn_backend_get_kernel_count (cuda, GNN_BACKEND_OP_FOREACH_LERP), >, 0);
      for (guint j = 0; j < N; j++)
        {
          compare ("foreach_lerp_", pc[j], pd[j], base_budget (dt), failures);
          g_object_unref (pc[j]);
          g_object_unref (ec[j]);
          g_object_unref (pd[j]);
          g_object_unref (ed[j]);
        }
    }
  if (failures->len > 0)
    report_failures (failures, "foreach_lerp_");
}

/* ---- data in and out of device tensors ---------------------------------------------- */

static void
test_data_access (void)
{
  g_autoptr(GError) error = NULL;
  const double v[6] = { 1.5, -2, 3.25, 4, -5.5, 6 };
  g_autoptr(GnnTensor) h = gnn_test_tensor_d (v, 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) d = NULL, t = NULL, s = NULL, eq = NULL, full = NULL, ar = NULL, eye = NULL, fb = NULL;
  g_autoptr(GnnTensor) back = NULL, one = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *str = NULL;
  const char *dname = NULL;
  g_autofree gint64 *ints = NULL;
  g_autofree float *floats = NULL;
  gsize n = 0;

  REQUIRE_DEVICE ();
  d = to_cuda (h);
  dname = gnn_tensor_get_device (d);
  g_assert_cmpstr (dname, ==, "cuda:0");
  gnn_test_assert_close (d, v, 6, 0, 0);

  /* a transposed view read back */
  t = gnn_tensor_t (d, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (t, GNN_TEST_DATA (1.5, 4, -2, -5.5, 3.25, 6), 6, 0, 0);

  /* item, printing, bytes */
  s = gnn_tensor_select (t, 0, 2, &error);
  g_assert_no_error (error);
  one = gnn_tensor_select (s, 0, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (gnn_tensor_item (one, &error), ==, 6);
  g_assert_no_error (error);
  str = gnn_tensor_to_string (d);
  g_assert_cmpstr (str, ==, "tensor([[ 1.5000, -2.0000,  3.2500],\n        [ 4.0000, -5.5000,  6.0000]], "
                            "device='cuda:0', dtype=torch.float64)");
  bytes = gnn_tensor_get_bytes (t, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 6 * sizeof (double));
  g_assert_cmpfloat (((const double *) g_bytes_get_data (bytes, NULL))[1], ==, 4);
  fb = gnn_tensor_new_from_bytes (bytes, GNN_DTYPE_FLOAT64, GNN_TEST_SHAPE (3, 2), 2, "cuda", &error);
  g_assert_no_error (error);
  g_assert_true (on_cuda (fb));
  gnn_test_assert_close (fb, GNN_TEST_DATA (1.5, 4, -2, -5.5, 3.25, 6), 6, 0, 0);
  floats = gnn_tensor_to_floats (fb, &n, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 6);
  g_assert_cmpfloat (floats[5], ==, 6.0f);

  /* comparisons give bool tensors on the device */
  eq = gnn_tensor_gt_scalar (d, 0.0, &error);
  g_assert_no_error (error);
  g_assert_true (on_cuda (eq));
  g_assert_cmpint (gnn_tensor_get_dtype (eq), ==, GNN_DTYPE_BOOL);
  ints = gnn_tensor_to_int64s (eq, &n, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ints[0], ==, 1);
  g_assert_cmpint (ints[1], ==, 0);
  g_assert_cmpint (ints[5], ==, 1);

  /* creation on the device */
  full = gnn_tensor_new_full (GNN_TEST_SHAPE (2, 2), 2, 7.0, GNN_DTYPE_FLOAT32, "cuda", &error);
  g_assert_no_error (error);
  gnn_test_assert_close (full, GNN_TEST_DATA (7, 7, 7, 7), 4, 0, 0);
  ar = gnn_tensor_new_arange (1, 4, 0.5, GNN_DTYPE_FLOAT64, "cuda:0", &error);
  g_assert_no_error (error);
  gnn_test_assert_close (ar, GNN_TEST_DATA (1, 1.5, 2, 2.5, 3, 3.5), 6, 0, 0);
  eye = gnn_tensor_new_eye (2, 3, GNN_DTYPE_INT64, "cuda", &error);
  g_assert_no_error (error);
  gnn_test_assert_close (eye, GNN_TEST_DATA (1, 0, 0, 0, 1, 0), 6, 0, 0);

  /* and back to the CPU */
  back = gnn_tensor_to_device (t, "cpu", &error);
  g_assert_no_error (error);
  g_assert_false (on_cuda (back));
  gnn_test_assert_close (back, GNN_TEST_DATA (1.5, 4, -2, -5.5, 3.25, 6), 6, 0, 0);
}

/* ---- layers -------------------------------------------------------------------------- */

typedef GnnModule *(*MakeModule) (GError **error);

static GnnModule *make_linear (GError **e) { return GNN_MODULE (gnn_linear_new (20, 7, TRUE, e)); }
static GnnModule *make_conv (GError **e)
{
  return GNN_MODULE (gnn_conv2d_new (3, 4, GNN_TEST_SHAPE (3, 3), GNN_TEST_SHAPE (1, 1), GNN_TEST_SHAPE (1, 1),
                                     GNN_TEST_SHAPE (1, 1), 1, TRUE, GNN_DTYPE_FLOAT32, e));
}
static GnnModule *make_bn (GError **e) { return GNN_MODULE (gnn_batch_norm2d_new (3, e)); }
static GnnModule *make_pool (GError **e)
{
  return GNN_MODULE (gnn_max_pool2d_new (GNN_TEST_SHAPE (2, 2), NULL, NULL, NULL, FALSE));
}

typedef struct {
  const char *name;
  MakeModule make;
  guint ndim;
  gint64 shape[4];
} LayerCase;

static const LayerCase layer_cases[] = {
  { "Linear", make_linear, 2, { 6, 20 } },
  { "Conv2d", make_conv, 4, { 2, 3, 9, 8 } },
  { "BatchNorm2d", make_bn, 4, { 4, 3, 5, 6 } },
  { "MaxPool2d", make_pool, 4, { 2, 3, 8, 7 } },
};

static void
test_layers (void)
{
  g_autoptr(GString) failures = g_string_new (NULL);

  REQUIRE_DEVICE ();
  for (gsize i = 0; i < G_N_ELEMENTS (layer_cases); i++)
    {
      const LayerCase *lc = &layer_cases[i];
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnModule) mc = NULL, md = NULL;
      g_autoptr(GnnTensor) xc = NULL, xd = NULL, yc = NULL, yd = NULL, gc = NULL, gd = NULL;
      g_autoptr(GPtrArray) pc = NULL, pd = NULL, bc = NULL, bd = NULL;
      guint nd;
      const gint64 *shape;

      gnn_manual_seed (42);
      mc = lc->make (&error);
      g_assert_no_error (error);
      gnn_manual_seed (42);
      md = lc->make (&error);
      g_assert_no_error (error);
      g_assert_true (gnn_module_to_device (md, "cuda", &error));
      g_assert_no_error (error);
      xc = random_cpu (lc->ndim, lc->shape, GNN_DTYPE_FLOAT32, -2, 2, 50 + i);
      xd = to_cuda (xc);
      gnn_tensor_set_requires_grad (xc, TRUE, NULL);
      gnn_tensor_set_requires_grad (xd, TRUE, NULL);
      /* twice, so that BatchNorm's running statistics move twice */
      for (guint r = 0; r < 2; r++)
        {
          g_autofree char *w = g_strdup_printf ("%s forward %u", lc->name, r);
          g_clear_object (&yc);
          g_clear_object (&yd);
          yc = gnn_module_forward_tensor (mc, xc, &error);
          g_assert_no_error (error);
          yd = gnn_module_forward_tensor (md, xd, &error);
          if (yd == NULL)
            {
              g_string_append_printf (failures, "\n  %s: %s", w, error->message);
              break;
            }
          compare (w, yc, yd, 1e-8, failures);
        }
      if (yd == NULL)
        continue;
      shape = gnn_tensor_get_shape (yc, &nd);
      gc = random_cpu (nd, shape, GNN_DTYPE_FLOAT32, -1, 1, 77);
      gd = to_cuda (gc);
      g_assert_true (gnn_tensor_backward (yc, gc, FALSE, &error));
      g_assert_no_error (error);
      if (!gnn_tensor_backward (yd, gd, FALSE, &error))
        {
          g_string_append_printf (failures, "\n  %s backward: %s", lc->name, error->message);
          continue;
        }
      {
        g_autofree char *w = g_strdup_printf ("%s input grad", lc->name);
        compare (w, gnn_tensor_get_grad (xc), gnn_tensor_get_grad (xd), 1e-8, failures);
      }
      pc = gnn_module_parameters (mc, TRUE);
      pd = gnn_module_parameters (md, TRUE);
      g_assert_cmpuint (pc->len, ==, pd->len);
      for (guint k = 0; k < pc->len; k++)
        {
          g_autofree char *w = g_strdup_printf ("%s parameter %u grad", lc->name, k);
          compare (w, gnn_tensor_get_grad (pc->pdata[k]), gnn_tensor_get_grad (pd->pdata[k]), 1e-8, failures);
        }
      bc = gnn_module_buffers (mc, TRUE);
      bd = gnn_module_buffers (md, TRUE);
      g_assert_cmpuint (bc->len, ==, bd->len);
      for (guint k = 0; k < bc->len; k++)
        {
          g_autofree char *w = g_strdup_printf ("%s buffer %u", lc->name, k);
          compare (w, bc->pdata[k], bd->pdata[k], 1e-8, failures);
        }
    }
  if (failures->len > 0)
    report_failures (failures, "layers differ between cpu and cuda");
}

/* the losses, forward and backward, on (N, C) logits */
typedef GnnTensor *(*LossFunc) (GnnTensor *input, GnnTensor *target, GnnTensor *aux, GError **error);

static GnnTensor *l_mse (GnnTensor *x, GnnTensor *t, GnnTensor *a, GError **e) { return gnn_tensor_mse_loss (x, t, GNN_REDUCTION_MEAN, e); }
static GnnTensor *l_l1 (GnnTensor *x, GnnTensor *t, GnnTensor *a, GError **e) { return gnn_tensor_l1_loss (x, t, GNN_REDUCTION_SUM, e); }
static GnnTensor *l_smooth_l1 (GnnTensor *x, GnnTensor *t, GnnTensor *a, GError **e) { return gnn_tensor_smooth_l1_loss (x, t, GNN_REDUCTION_MEAN, 0.5, e); }
static GnnTensor *l_huber (GnnTensor *x, GnnTensor *t, GnnTensor *a, GError **e) { return gnn_tensor_huber_loss (x, t, GNN_REDUCTION_NONE, 0.7, e); }
static GnnTensor *l_bce_logits (GnnTensor *x, GnnTensor *t, GnnTensor *a, GError **e)
{
  return gnn_tensor_binary_cross_entropy_with_logits (x, t, NULL, NULL, GNN_REDUCTION_MEAN, e);
}
static GnnTensor *l_bce (GnnTensor *x, GnnTensor *t, GnnTensor *a, GError **e)
{
  g_autoptr(GnnTensor) p = gnn_tensor_sigmoid (x, e);
  return p ? gnn_tensor_binary_cross_entropy (p, t, NULL, GNN_REDUCTION_MEAN, e) : NULL;
}
static GnnTensor *l_kl (GnnTensor *x, GnnTensor *t, GnnTensor *a, GError **e)
{
  g_autoptr(GnnTensor) lp = gnn_tensor_log_softmax (x, 1, e);
  g_autoptr(GnnTensor) tp = lp ? gnn_tensor_softmax (t, 1, e) : NULL;
  return tp ? gnn_tensor_kl_div (lp, tp, GNN_REDUCTION_BATCHMEAN, FALSE, e) : NULL;
}
static GnnTensor *l_ce (GnnTensor *x, GnnTensor *t, GnnTensor *a, GError **e)
{
  return gnn_tensor_cross_entropy (x, a, NULL, -100, GNN_REDUCTION_MEAN, 0.0, e);
}
static GnnTensor *l_ce_weighted (GnnTensor *x, GnnTensor *t, GnnTensor *a, GError **e)
{
  g_autoptr(GnnTensor) wc = gnn_tensor_new_arange (1, 6, 1, gnn_tensor_get_dtype (x), NULL, e);
  g_autoptr(GnnTensor) w = wc ? on_device_of (wc, x, e) : NULL;
  return w ? gnn_tensor_cross_entropy (x, a, w, 2, GNN_REDUCTION_MEAN, 0.1, e) : NULL;
}
static GnnTensor *l_nll (GnnTensor *x, GnnTensor *t, GnnTensor *a, GError **e)
{
  g_autoptr(GnnTensor) lp = gnn_tensor_log_softmax (x, 1, e);
  return lp ? gnn_tensor_nll_loss (lp, a, NULL, -100, GNN_REDUCTION_SUM, e) : NULL;
}

static void
test_losses (void)
{
  static const struct { const char *name; LossFunc func; double tlo, thi; } cases[] = {
    { "mse_loss", l_mse, -1, 1 },
    { "l1_loss", l_l1, -1, 1 },
    { "smooth_l1_loss", l_smooth_l1, -1, 1 },
    { "huber_loss", l_huber, -1, 1 },
    { "binary_cross_entropy_with_logits", l_bce_logits, 0, 1 },
    { "binary_cross_entropy", l_bce, 0, 1 },
    { "kl_div", l_kl, -1, 1 },
    { "cross_entropy", l_ce, 0, 1 },
    { "cross_entropy/weighted", l_ce_weighted, 0, 1 },
    { "nll_loss", l_nll, 0, 1 },
  };
  g_autoptr(GString) failures = g_string_new (NULL);

  REQUIRE_DEVICE ();
  for (GnnDtype dt = GNN_DTYPE_FLOAT32; dt <= GNN_DTYPE_FLOAT64; dt++)
    for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autoptr(GError) error = NULL;
        g_autofree char *what = g_strdup_printf ("%s (%s)", cases[i].name, gnn_dtype_get_name (dt));
        g_autoptr(GnnTensor) xc = random_cpu (2, GNN_TEST_SHAPE (8, 5), dt, -2, 2, 60 + i);
        g_autoptr(GnnTensor) tc = random_cpu (2, GNN_TEST_SHAPE (8, 5), dt, cases[i].tlo, cases[i].thi, 70 + i);
        g_autoptr(GnnTensor) cc = random_cpu (1, GNN_TEST_SHAPE (8), GNN_DTYPE_INT64, 0, 4, 80 + i);
        g_autoptr(GnnTensor) xd = to_cuda (xc), td = to_cuda (tc), cd = to_cuda (cc);
        g_autoptr(GnnTensor) lc = NULL, ld = NULL;
        double budget = base_budget (dt) * 10;

        gnn_tensor_set_requires_grad (xc, TRUE, NULL);
        gnn_tensor_set_requires_grad (xd, TRUE, NULL);
        lc = cases[i].func (xc, tc, cc, &error);
        g_assert_no_error (error);
        ld = cases[i].func (xd, td, cd, &error);
        if (ld == NULL)
          {
            g_string_append_printf (failures, "\n  %s: %s", what, error->message);
            continue;
          }
        compare (what, lc, ld, budget, failures);
        if (gnn_tensor_get_ndim (lc) == 0)
          {
            g_assert_true (gnn_tensor_backward (lc, NULL, FALSE, &error));
            g_assert_no_error (error);
            if (!gnn_tensor_backward (ld, NULL, FALSE, &error))
              {
                g_string_append_printf (failures, "\n  %s backward: %s", what, error->message);
                continue;
              }
          }
        else
          {
            g_autoptr(GnnTensor) gc = random_cpu (2, GNN_TEST_SHAPE (8, 5), dt, -1, 1, 5);
            g_autoptr(GnnTensor) gd = to_cuda (gc);
            g_assert_true (gnn_tensor_backward (lc, gc, FALSE, &error));
            g_assert_no_error (error);
            g_assert_true (gnn_tensor_backward (ld, gd, FALSE, &error));
            g_assert_no_error (error);
          }
        {
          g_autofree char *gw = g_strdup_printf ("%s grad", what);
          compare (gw, gnn_tensor_get_grad (xc), gnn_tensor_get_grad (xd), budget * 10, failures);
        }
      }
  if (failures->len > 0)
    report_failures (failures, "losses differ between cpu and cuda");
}

/* ---- modules, devices, transfers ----------------------------------------------------- */

static void
test_module_to (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnLinear) lin = gnn_linear_new (4, 3, TRUE, &error);
  g_autoptr(GPtrArray) before = NULL, after = NULL;
  g_autoptr(GnnTensor) x = NULL, y = NULL, s = NULL;
  g_autofree char *dev = NULL;
  g_autofree double *w0 = NULL, *w1 = NULL;
  gsize n = 0;

  REQUIRE_DEVICE ();
  g_assert_no_error (error);
  before = gnn_module_parameters (GNN_MODULE (lin), TRUE);
  w0 = gnn_tensor_to_doubles (before->pdata[0], &n, &error);
  g_assert_no_error (error);

  /* a gradient moves with its parameter */
  x = gnn_tensor_new_ones (GNN_TEST_SHAPE (2, 4), 2, GNN_DTYPE_FLOAT32, NULL, &error);
  y = gnn_module_forward_tensor (GNN_MODULE (lin), x, &error);
  s = gnn_tensor_sum_all (y, &error);
  g_assert_true (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_no_error (error);

  g_assert_true (gnn_module_to_device (GNN_MODULE (lin), "cuda", &error));
  g_assert_no_error (error);
  dev = gnn_module_get_device (GNN_MODULE (lin));
  g_assert_cmpstr (dev, ==, "cuda:0");
  after = gnn_module_parameters (GNN_MODULE (lin), TRUE);
  g_assert_cmpuint (before->len, ==, after->len);
  for (guint i = 0; i < after->len; i++)
    {
      GnnTensor *p = after->pdata[i];
      g_assert_true (p == before->pdata[i]);
      g_assert_true (on_cuda (p));
      g_assert_true (gnn_tensor_get_requires_grad (p));
      g_assert_true (gnn_tensor_is_leaf (p));
      g_assert_nonnull (gnn_tensor_get_grad (p));
      g_assert_true (on_cuda (gnn_tensor_get_grad (p)));
    }
  w1 = gnn_tensor_to_doubles (after->pdata[0], &n, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (w0, n * sizeof (double), w1, n * sizeof (double));

  /* and back */
  g_assert_true (gnn_module_to_device (GNN_MODULE (lin), "cuda:0", &error));
  g_assert_true (gnn_module_to_device (GNN_MODULE (lin), "cpu", &error));
  g_assert_no_error (error);
  g_assert_false (on_cuda (before->pdata[0]));
  g_assert_true (after->pdata[0] == before->pdata[0]);
}

static void
test_mixing_devices (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) h = gnn_tensor_new_ones (GNN_TEST_SHAPE (3, 4), 2, GNN_DTYPE_FLOAT32, NULL, NULL);
  g_autoptr(GnnTensor) d = NULL, r = NULL, w = NULL;
  g_autoptr(GnnLinear) lin = NULL;

  REQUIRE_DEVICE ();
  d = gnn_tensor_new_ones (GNN_TEST_SHAPE (3, 4), 2, GNN_DTYPE_FLOAT32, "cuda", &error);
  g_assert_no_error (error);

  r = gnn_tensor_add (h, d, 1.0, &error);
  g_assert_null (r);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
  g_assert_nonnull (strstr (error->message, "cpu"));
  g_assert_nonnull (strstr (error->message, "cuda:0"));
  g_clear_error (&error);

  w = gnn_tensor_new_ones (GNN_TEST_SHAPE (4, 2), 2, GNN_DTYPE_FLOAT32, NULL, NULL);
  r = gnn_tensor_matmul (d, w, &error);
  g_assert_null (r);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
  g_clear_error (&error);

  /* a module on the device given a CPU input */
  lin = gnn_linear_new (4, 2, TRUE, &error);
  g_assert_true (gnn_module_to_device (GNN_MODULE (lin), "cuda", &error));
  r = gnn_module_forward_tensor (GNN_MODULE (lin), h, &error);
  g_assert_null (r);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
  g_clear_error (&error);

  /* two devices */
  if (gnn_backend_get_device_count (cuda) >= 2)
    {
      g_autoptr(GnnTensor) d1 = gnn_tensor_new_ones (GNN_TEST_SHAPE (3, 4), 2, GNN_DTYPE_FLOAT32, "cuda:1", &error);
      g_assert_no_error (error);
      r = gnn_tensor_mul (d, d1, &error);
      g_assert_null (r);
      g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
      g_assert_nonnull (strstr (error->message, "cuda:1"));
      g_clear_error (&error);
      /* moving between them goes through the host */
      r = gnn_tensor_to_device (d1, "cuda:0", &error);
      g_assert_no_error (error);
      gnn_test_assert_close (r, GNN_TEST_DATA (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), 12, 0, 0);
    }
}

/* asking for a device that is not there: always runs, with or without a GPU or the module */
static void
test_unavailable (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2), 1, GNN_DTYPE_FLOAT32, "cuda:7", &error);

  g_assert_null (t);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
  g_assert_nonnull (strstr (error->message, "cuda"));
  g_test_message ("cuda:7: %s", error->message);
  if (cuda_module)
    g_assert_nonnull (strstr (error->message, "cuda:7"));
  g_clear_error (&error);

  if (cuda == NULL)
    {
      /* no device: plain "cuda" fails too, saying why */
      t = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2), 1, GNN_DTYPE_FLOAT32, "cuda", &error);
      g_assert_null (t);
      g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
      g_test_message ("cuda: %s", error->message);
      if (cuda_module)
        {
          g_autofree char *status = NULL;
          g_object_get (cuda_module, "status", &status, NULL);
          g_assert_nonnull (strstr (error->message, "sees 0 devices"));
          g_assert_nonnull (strstr (error->message, status));
        }
      else
        g_assert_nonnull (strstr (error->message, "No backend serves device type 'cuda'"));
    }
}

/* GNN_BACKEND=help lists the backend serving "cuda", and its devices or why it has none */
static void
test_help (void)
{
  if (cuda_module == NULL)
    {
      g_test_skip (skip_reason);
      return;
    }
  if (g_test_subprocess ())
    {
      g_autofree char *text = gnn_backend_describe_available ();
      g_printerr ("%s", text);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  if (cuda)
    g_test_trap_assert_stderr ("*device type 'cuda'*(in use)*cuda:0*");
  else
    g_test_trap_assert_stderr ("*device type 'cuda', 0 devices*(*)*");
}

/* A training step with the data on the device: forward, loss, backward and an in-place SGD
 * update copy nothing between host and device, and, once the allocator is warm, allocate no
 * device memory. */
static gboolean
sgd_step (GnnModule *model, GPtrArray *params, GnnTensor *x, GnnTensor *target, double lr, GError **error)
{
  g_autoptr(GnnTensor) y = NULL, loss = NULL;

  if (!gnn_module_zero_grad (model, TRUE, error) ||
      !(y = gnn_module_forward_tensor (model, x, error)) ||
      !(loss = gnn_tensor_mse_loss (y, target, GNN_REDUCTION_MEAN, error)) ||
      !gnn_tensor_backward (loss, NULL, FALSE, error))
    return FALSE;
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    for (guint i = 0; i < params->len; i++)
      if (!gnn_tensor_sub_ (params->pdata[i], gnn_tensor_get_grad (params->pdata[i]), lr, error))
        return FALSE;
  }
  return TRUE;
}

static void
test_no_transfers (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = NULL;
  g_autoptr(GPtrArray) params = NULL;
  g_autoptr(GnnTensor) xh = NULL, th = NULL, x = NULL, target = NULL, y0 = NULL, l0 = NULL, y1 = NULL, l1 = NULL;
  GnnModule *layers[3];
  guint64 tr0, tr1, al0, al1;
  double before, after;

  REQUIRE_DEVICE ();
  layers[0] = GNN_MODULE (gnn_linear_new (32, 64, TRUE, &error));
  layers[1] = GNN_MODULE (gnn_relu_new ());
  layers[2] = GNN_MODULE (gnn_linear_new (64, 10, TRUE, &error));
  g_assert_no_error (error);
  model = GNN_MODULE (gnn_sequential_new (layers, 3));
  for (guint i = 0; i < 3; i++)
    g_object_unref (layers[i]);
  g_assert_true (gnn_module_to_device (model, "cuda", &error));
  g_assert_no_error (error);
  params = gnn_module_parameters (model, TRUE);
  xh = random_cpu (2, GNN_TEST_SHAPE (16, 32), GNN_DTYPE_FLOAT32, -1, 1, 3);
  th = random_cpu (2, GNN_TEST_SHAPE (16, 10), GNN_DTYPE_FLOAT32, -1, 1, 4);
  x = to_cuda (xh);
  target = to_cuda (th);

  y0 = gnn_module_forward_tensor (model, x, &error);
  l0 = gnn_tensor_mse_loss (y0, target, GNN_REDUCTION_MEAN, &error);
  before = gnn_tensor_item (l0, &error);
  g_assert_no_error (error);

  /* warm up: the allocator's cache fills */
  for (guint s = 0; s < 3; s++)
    {
      g_assert_true (sgd_step (model, params, x, target, 0.05, &error));
      g_assert_no_error (error);
    }
  tr0 = backend_counter ("host-transfers");
  al0 = backend_counter ("device-allocations");
  for (guint s = 0; s < 5; s++)
    {
      g_assert_true (sgd_step (model, params, x, target, 0.05, &error));
      g_assert_no_error (error);
    }
  tr1 = backend_counter ("host-transfers");
  al1 = backend_counter ("device-allocations");
  g_assert_true (gnn_backend_synchronize (cuda, 0, &error));
  g_assert_no_error (error);
  g_test_message ("5 SGD steps: %" G_GUINT64_FORMAT " host transfers, %" G_GUINT64_FORMAT " device allocations",
                  tr1 - tr0, al1 - al0);
  g_assert_cmpuint (tr1 - tr0, ==, 0);
  g_assert_cmpuint (al1 - al0, ==, 0);

  /* and it learns */
  y1 = gnn_module_forward_tensor (model, x, &error);
  l1 = gnn_tensor_mse_loss (y1, target, GNN_REDUCTION_MEAN, &error);
  after = gnn_tensor_item (l1, &error);
  g_assert_no_error (error);
  g_test_message ("loss %.5f -> %.5f", before, after);
  g_assert_cmpfloat (after, <, before);
}

/* The same with the pieces a real training step uses: cross-entropy on class targets (read
 * on the device, not copied to the host), and GnnSGD with momentum and weight decay. */
static void
test_no_transfers_cross_entropy_sgd (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = NULL;
  g_autoptr(GnnOptimizer) opt = NULL;
  g_autoptr(GnnParamGroup) group = NULL;
  g_autoptr(GnnTensor) xh = NULL, x = NULL, target = NULL, target_cpu = NULL;
  GnnModule *layers[3];
  guint64 tr0 = 0, tr1 = 0, al0 = 0, al1 = 0;
  double losses[2] = { 0, 0 };

  REQUIRE_DEVICE ();
  layers[0] = GNN_MODULE (gnn_linear_new (32, 64, TRUE, &error));
  layers[1] = GNN_MODULE (gnn_relu_new ());
  layers[2] = GNN_MODULE (gnn_linear_new (64, 10, TRUE, &error));
  g_assert_no_error (error);
  model = GNN_MODULE (gnn_sequential_new (layers, 3));
  for (guint i = 0; i < 3; i++)
    g_object_unref (layers[i]);
  g_assert_true (gnn_module_to_device (model, "cuda", &error));
  group = gnn_param_group_new_from_module (model);
  opt = GNN_OPTIMIZER (gnn_sgd_new (group, 0.05, 0.9, 0, 1e-4, FALSE, FALSE, &error));
  g_assert_no_error (error);
  xh = random_cpu (2, GNN_TEST_SHAPE (16, 32), GNN_DTYPE_FLOAT32, -1, 1, 5);
  target_cpu = gnn_tensor_new_randint (0, 10, GNN_TEST_SHAPE (16), 1, NULL, NULL, &error);
  g_assert_no_error (error);
  x = to_cuda (xh);
  target = to_cuda (target_cpu);

  for (guint s = 0; s < 9; s++)
    {
      g_autoptr(GnnTensor) y = NULL, loss = NULL;

      if (s == 4)
        {
          tr0 = backend_counter ("host-transfers");
          al0 = backend_counter ("device-allocations");
        }
      gnn_optimizer_zero_grad (opt, TRUE);
      y = gnn_module_forward_tensor (model, x, &error);
      loss = gnn_tensor_cross_entropy (y, target, NULL, -100, GNN_REDUCTION_MEAN, 0.0, &error);
      g_assert_no_error (error);
      g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
      g_assert_true (gnn_optimizer_step (opt, &error));
      g_assert_no_error (error);
      if (s == 8)
        {
          tr1 = backend_counter ("host-transfers");
          al1 = backend_counter ("device-allocations");
          losses[1] = gnn_tensor_item (loss, &error);
        }
      if (s == 0)
        losses[0] = gnn_tensor_item (loss, &error);
    }
  g_test_message ("5 steps (cross-entropy, SGD): %" G_GUINT64_FORMAT " host transfers, %" G_GUINT64_FORMAT
                  " device allocations; loss %.5f -> %.5f", tr1 - tr0, al1 - al0, losses[0], losses[1]);
  g_assert_cmpuint (tr1 - tr0, ==, 0);
  g_assert_cmpuint (al1 - al0, ==, 0);
  g_assert_cmpfloat (losses[1], <, losses[0]);
}

static void
test_describe (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *desc = NULL;
  guint64 free_b = 0, total_b = 0;

  REQUIRE_DEVICE ();
  g_assert_cmpstr (gnn_backend_get_device_type (cuda), ==, "cuda");
  g_assert_cmpuint (gnn_backend_get_device_count (cuda), >=, 1);
  desc = gnn_backend_get_device_description (cuda, 0);
  g_assert_nonnull (desc);
  g_test_message ("cuda:0: %s", desc);
  g_assert_true (gnn_backend_get_memory_info (cuda, 0, &free_b, &total_b, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (total_b, >, 0);
  g_assert_cmpuint (free_b, <=, total_b);
  g_assert_true (gnn_backend_synchronize (cuda, 0, &error));
  g_assert_no_error (error);
  g_assert_null (gnn_backend_get_device_description (cuda, 99));
}

/* the op observers see a device's kernels with its backend, device type and index */
typedef struct {
  guint before, after;
  GnnBackend *backend;
  char *device_type;
  guint device;
  guint64 flops;
} DeviceCalls;

static void
observe_device_calls (const GnnOpEvent *event, gpointer user_data)
{
  DeviceCalls *calls = user_data;

  if (event->args->op != GNN_BACKEND_OP_MUL)
    return;
  if (event->phase == GNN_OP_EVENT_BEFORE)
    {
      calls->before++;
      calls->backend = event->backend;
      g_free (calls->device_type);
      calls->device_type = g_strdup (event->device_type);
      calls->device = event->device;
      calls->flops = event->flops;
    }
  else if (event->ok)
    calls->after++;
}

static void
test_op_observer (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = NULL, b = NULL;
  DeviceCalls calls = { 0 };
  const char *device;
  guint id;

  REQUIRE_DEVICE ();
  /* the last device, so that the index is seen to come through */
  device = gnn_backend_get_device_count (cuda) > 1 ? "cuda:1" : "cuda:0";
  a = gnn_tensor_new_ones (GNN_TEST_SHAPE (3, 4), 2, GNN_DTYPE_FLOAT32, device, &error);
  g_assert_no_error (error);
  id = gnn_op_observer_add (observe_device_calls, &calls, NULL);
  b = gnn_tensor_mul (a, a, &error);
  gnn_op_observer_remove (id);
  g_assert_no_error (error);
  g_assert_cmpuint (calls.before, ==, 1);
  g_assert_cmpuint (calls.after, ==, 1);
  g_assert_true (calls.backend == cuda);
  g_assert_cmpstr (calls.device_type, ==, "cuda");
  g_assert_cmpuint (calls.device, ==, g_str_equal (device, "cuda:1") ? 1 : 0);
  g_assert_cmpuint (calls.flops, ==, 12);
  g_free (calls.device_type);
}

/* the fake backend's device time of the kernel named @nick (tests/c/fake-cuda: FAKE_KERNEL_NS) */
static gint64
fake_kernel_ns (const char *nick)
{
  for (guint op = 0; op < GNN_BACKEND_OP_N_OPS; op++)
    if (g_str_equal (gnn_backend_op_get_nick (op), nick))
      return 1000 + 100 * (op % 7);
  g_assert_not_reached ();
  return 0;
}

/* profile_memory on the device: a tensor's storage on "cuda" counts as torch's CUDA memory
 * (the kernel that fills it holds its bytes), and the table gets the CUDA Mem columns */
static void
test_profiler_memory (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnProfiler) prof = gnn_profiler_new ();
  g_autoptr(GPtrArray) events = NULL;
  g_autofree char *table = NULL;
  GnnProfilerEvent *range = NULL;
  gint64 kernel_bytes = 0;

  REQUIRE_DEVICE ();
  gnn_profiler_set_profile_memory (prof, TRUE);
  g_assert_true (gnn_profiler_start (prof, &error));
  gnn_profiler_record_function_begin ("device-alloc");
  a = gnn_tensor_new_ones (GNN_TEST_SHAPE (32, 32), 2, GNN_DTYPE_FLOAT32, "cuda", &error);
  g_assert_no_error (error);
  g_assert_true (gnn_profiler_record_function_end (&error));
  g_assert_true (gnn_profiler_stop (prof, &error));
  events = gnn_profiler_get_events (prof);
  for (guint i = 0; i < events->len; i++)
    {
      GnnProfilerEvent *ev = events->pdata[i];

      if (g_str_equal (gnn_profiler_event_get_name (ev), "device-alloc"))
        range = ev;
      if (gnn_profiler_event_get_kind (ev) == GNN_PROFILER_EVENT_KERNEL)
        kernel_bytes += gnn_profiler_event_get_self_cuda_memory_usage (ev);
      g_assert_cmpint (gnn_profiler_event_get_cpu_memory_usage (ev), ==, 0);
    }
  g_assert_nonnull (range);
  g_assert_cmpint (gnn_profiler_event_get_cuda_memory_usage (range), ==, 32 * 32 * 4);
  g_assert_cmpint (kernel_bytes, ==, 32 * 32 * 4);
  table = gnn_profiler_table (prof, FALSE, "self_cuda_memory_usage", -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (table, "CPU Mem  Self CPU Mem      CUDA Mem  Self CUDA Mem"));
  g_assert_nonnull (strstr (table, "4.00 Kb"));
}

/* The profiler's device times: kernels on the device get them from the backend's timing
 * marks (CUDA events, read at stop), shown as torch's CUDA columns and as device events in the
 * chrome trace; CPU kernels of the same profile have none. On the fake device the times are
 * its fake clock's, known exactly; on a GPU they are positive and in stream order. */
static void
test_profiler_device_times (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = NULL, b = NULL, c = NULL, d = NULL, h = NULL, h2 = NULL;
  g_autoptr(GnnProfiler) prof = gnn_profiler_new ();
  g_autoptr(GPtrArray) events = NULL, avgs = NULL;
  g_autofree char *table = NULL, *cpu_table = NULL, *text = NULL, *path = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  GnnProfilerEvent *range = NULL, *prev = NULL;
  gint64 kernel_sum = 0;
  guint n_device = 0, n_trace = 0, n_meta = 0;
  JsonArray *trace;
  int fd;

  REQUIRE_DEVICE ();
  a = gnn_tensor_new_ones (GNN_TEST_SHAPE (32, 32), 2, GNN_DTYPE_FLOAT32, "cuda", &error);
  g_assert_no_error (error);
  h = gnn_tensor_new_ones (GNN_TEST_SHAPE (4), 1, GNN_DTYPE_FLOAT32, "cpu", &error);
  g_assert_no_error (error);
  g_assert_true (gnn_profiler_start (prof, &error));
  gnn_profiler_record_function_begin ("device-ops");
  b = gnn_tensor_mul (a, a, &error);
  g_assert_no_error (error);
  c = gnn_tensor_matmul (b, a, &error);
  g_assert_no_error (error);
  d = gnn_tensor_exp (c, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_profiler_record_function_end (&error));
  h2 = gnn_tensor_exp (h, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_profiler_stop (prof, &error));

  events = gnn_profiler_get_events (prof);
  for (guint i = 0; i < events->len; i++)
    {
      GnnProfilerEvent *ev = events->pdata[i];
      const char *dev = gnn_profiler_event_get_device (ev);

      if (g_str_equal (gnn_profiler_event_get_name (ev), "device-ops"))
        range = ev;
      if (gnn_profiler_event_get_kind (ev) != GNN_PROFILER_EVENT_KERNEL)
        continue;
      if (!g_str_has_prefix (dev, "cuda"))
        {
          /* a CPU kernel: no device time */
          g_assert_cmpint (gnn_profiler_event_get_device_duration_ns (ev), ==, 0);
          g_assert_cmpint (gnn_profiler_event_get_device_start_ns (ev), ==, -1);
          continue;
        }
      n_device++;
      g_assert_cmpint (gnn_profiler_event_get_self_device_ns (ev), ==, gnn_profiler_event_get_device_duration_ns (ev));
      g_assert_cmpint (gnn_profiler_event_get_device_start_ns (ev), >=, 0);
      if (is_fake ())
        g_assert_cmpint (gnn_profiler_event_get_device_duration_ns (ev), ==,
                         fake_kernel_ns (gnn_profiler_event_get_name (ev)));
      else
        g_assert_cmpint (gnn_profiler_event_get_device_duration_ns (ev), >, 0);
      if (prev)
        {
          /* one stream: a kernel begins on the device after the one before it ended (the
           * fake clock moves only in kernels, so exactly then; CUDA events resolve about
           * 0.5 µs) */
          gint64 prev_end = gnn_profiler_event_get_device_start_ns (prev) +
                            gnn_profiler_event_get_device_duration_ns (prev);
          if (is_fake ())
            g_assert_cmpint (gnn_profiler_event_get_device_start_ns (ev), ==, prev_end);
          else
            g_assert_cmpint (gnn_profiler_event_get_device_start_ns (ev), >=, prev_end - 1000);
        }
      prev = ev;
      kernel_sum += gnn_profiler_event_get_device_duration_ns (ev);
    }
  /* mul, the product, exp; all inside the user range, whose device time is theirs */
  g_assert_cmpuint (n_device, >=, 3);
  g_assert_nonnull (range);
  g_assert_cmpint (gnn_profiler_event_get_device_duration_ns (range), ==, kernel_sum);
  g_assert_cmpint (gnn_profiler_event_get_self_device_ns (range), ==, 0);

  /* the averages and torch's CUDA columns */
  avgs = gnn_profiler_key_averages (prof, FALSE);
  for (guint i = 0; i < avgs->len; i++)
    {
      GnnProfilerAverage *avg = avgs->pdata[i];
      double sum = 0;

      for (guint k = 0; k < events->len; k++)
        if (g_str_equal (gnn_profiler_event_get_name (events->pdata[k]), gnn_profiler_average_get_key (avg)))
          sum += gnn_profiler_event_get_device_duration_ns (events->pdata[k]) / 1000.0;
      g_assert_cmpfloat_with_epsilon (gnn_profiler_average_get_cuda_time_total (avg), sum, 1e-9);
      g_assert_cmpfloat_with_epsilon (gnn_profiler_average_get_cuda_time (avg),
                                      sum / gnn_profiler_average_get_count (avg), 1e-9);
    }
  table = gnn_profiler_table (prof, FALSE, "self_cuda_time_total", -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (table, "CPU time avg     Self CUDA   Self CUDA %    CUDA total  CUDA time avg    # of Calls"));
  g_assert_nonnull (strstr (table, "Self CUDA time total: "));
  g_free (gnn_profiler_table (prof, FALSE, "cuda_time_total", 3, &error));
  g_assert_no_error (error);
  g_free (gnn_profiler_table (prof, FALSE, "cuda_time", 3, &error));
  g_assert_no_error (error);
  if (is_fake ())
    {
      /* sorted by self device time: the first row is the largest fake kernel, exp (1.6 µs;
       * the host-side exp of the profile adds no device time) */
      g_auto(GStrv) lines = g_strsplit (table, "\n", -1);
      g_autofree char *cell = g_strdup_printf ("%.3fus", (double) fake_kernel_ns ("exp") / 1000.0);

      g_assert_cmpuint (g_strv_length (lines), >, 4);
      g_assert_true (g_str_has_prefix (g_strchug (lines[3]), "exp "));
      g_assert_nonnull (strstr (lines[3], cell));
    }

  /* the chrome trace: the device kernels once more, on their device */
  fd = g_file_open_tmp ("gnn-profile-XXXXXX.json", &path, &error);
  g_assert_no_error (error);
  close (fd);
  g_assert_true (gnn_profiler_export_chrome_trace (prof, path, &error));
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  g_unlink (path);
  trace = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");
  for (guint i = 0; i < json_array_get_length (trace); i++)
    {
      JsonObject *o = json_array_get_object_element (trace, i);
      const char *cat = json_object_has_member (o, "cat") ? json_object_get_string_member (o, "cat") : "";

      if (g_str_equal (json_object_get_string_member (o, "ph"), "M"))
        {
          n_meta++;
          g_assert_true (g_str_has_prefix (json_object_get_string_member (json_object_get_object_member (o, "args"),
                                                                          "name"), "cuda:"));
          continue;
        }
      if (!g_str_equal (cat, "device_kernel"))
        continue;
      n_trace++;
      {
        JsonObject *args = json_object_get_object_member (o, "args");
        GnnProfilerEvent *ev = events->pdata[json_object_get_int_member (args, "correlation")];

        g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, gnn_profiler_event_get_name (ev));
        g_assert_cmpstr (json_object_get_string_member (args, "device"), ==, gnn_profiler_event_get_device (ev));
        g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "dur"),
                                        gnn_profiler_event_get_device_duration_ns (ev) / 1000.0, 1e-6);
        g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "ts"),
                                        gnn_profiler_event_get_device_start_ns (ev) / 1000.0, 1e-6);
        g_assert_cmpint (json_object_get_int_member (o, "pid"), ==, 0);
        g_assert_true (json_object_has_member (o, "tid"));
      }
    }
  g_assert_cmpuint (n_trace, ==, n_device);
  g_assert_cmpuint (n_meta, ==, 1);

  /* a profile of CPU kernels alone has no CUDA columns */
  g_assert_true (gnn_profiler_start (prof, &error));
  g_clear_object (&h2);
  h2 = gnn_tensor_exp (h, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_profiler_stop (prof, &error));
  cpu_table = gnn_profiler_table (prof, FALSE, NULL, -1, &error);
  g_assert_no_error (error);
  g_assert_null (strstr (cpu_table, "CUDA"));
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;

  gnn_test_init (&argc, &argv);

  cuda_module = gnn_backend_get_for_device_type ("cuda", &error);
  if (cuda_module == NULL)
    skip_reason = g_strdup_printf ("no CUDA backend module was loaded: %s", error->message);
  else if (gnn_backend_get_device_count (cuda_module) == 0)
    {
      g_autofree char *status = NULL;
      if (g_object_class_find_property (G_OBJECT_GET_CLASS (cuda_module), "status"))
        g_object_get (cuda_module, "status", &status, NULL);
      skip_reason = g_strdup_printf ("the %s backend sees no CUDA device%s%s", gnn_backend_get_name (cuda_module),
                                     status && *status ? ": " : "", status ? status : "");
    }
  else
    cuda = cuda_module;
  if (cuda)
    {
      g_autofree char *desc = gnn_backend_get_device_description (cuda, 0);
      g_test_message ("testing the %s backend on cuda:0, %s", gnn_backend_get_name (cuda), desc);
    }
  else
    g_test_message ("device tests skip: %s", skip_reason);

  g_test_add_func ("/cuda/unavailable", test_unavailable);
  g_test_add_func ("/cuda/help", test_help);
  g_test_add_func ("/cuda/describe", test_describe);
  g_test_add_func ("/cuda/data-access", test_data_access);
  g_test_add_data_func ("/cuda/ops/float32", GINT_TO_POINTER (GNN_DTYPE_FLOAT32), test_ops);
  g_test_add_data_func ("/cuda/ops/float64", GINT_TO_POINTER (GNN_DTYPE_FLOAT64), test_ops);
  g_test_add_data_func ("/cuda/ops/int64", GINT_TO_POINTER (GNN_DTYPE_INT64), test_ops);
  g_test_add_data_func ("/cuda/gemm-views/float32", GINT_TO_POINTER (GNN_DTYPE_FLOAT32), test_gemm_views);
  g_test_add_data_func ("/cuda/gemm-views/float64", GINT_TO_POINTER (GNN_DTYPE_FLOAT64), test_gemm_views);
  g_test_add_func ("/cuda/tf32", test_tf32);
  g_test_add_func ("/cuda/rand", test_rand);
  g_test_add_func ("/cuda/foreach-lerp", test_foreach_lerp);
  g_test_add_func ("/cuda/layers", test_layers);
  g_test_add_func ("/cuda/losses", test_losses);
  g_test_add_func ("/cuda/module-to", test_module_to);
  g_test_add_func ("/cuda/mixing-devices", test_mixing_devices);
  g_test_add_func ("/cuda/no-transfers", test_no_transfers);
  g_test_add_func ("/cuda/no-transfers-cross-entropy-sgd", test_no_transfers_cross_entropy_sgd);
  g_test_add_func ("/cuda/op-observer", test_op_observer);
  g_test_add_func ("/cuda/profiler-device-times", test_profiler_device_times);
  g_test_add_func ("/cuda/profiler-memory", test_profiler_memory);

  {
    int ret = g_test_run ();
    g_free (skip_reason);
    return ret;
  }
}
