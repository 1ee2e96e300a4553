/* gnn-observer.c: GnnMinMaxObserver and GnnMovingAverageMinMaxObserver
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <float.h>
#include <math.h>

#include "nn/gnn-module-private.h"
#include "nn/gnn-props-private.h"
#include "core/gnn-tensor-private.h"
#include "ops/gnn-ops.h"
#include "gnn-enum-types.h"
#include "gnn-observer.h"
#include "gnn-quant-private.h"

/**
 * GnnMinMaxObserver:
 *
 * An observer that records the running minimum and maximum of what it sees and derives
 * quantization parameters from them, as `torch.ao.quantization.MinMaxObserver`.
 *
 * As a module its forward returns its input unchanged after recording it; the buffers are
 * torch's: `eps` (shape [1]), `min_val` and `max_val` (0-dimensional, +inf and -inf before any
 * data). [method@Gnn.MinMaxObserver.calculate_qparams] gives the scale and zero point with
 * torch 1.13's formulas, computed in float32 as torch computes them:
 *
 * - per_tensor_affine: scale = max ((max⁺ - min⁻) / (quant_max - quant_min), eps), zero_point =
 *   clamp (quant_min - round (min⁻ / scale)), where min⁻ = min (min_val, 0), max⁺ = max
 *   (max_val, 0);
 * - per_tensor_symmetric: scale = max (max (-min⁻, max⁺) / ((quant_max - quant_min) / 2), eps),
 *   zero_point 0 (128 for quint8, or the rounded-down middle of a range given by quant_min and
 *   quant_max).
 *
 * The range is the dtype's (qint8 -128..127, quint8 0..255) or, with
 * [property@Gnn.MinMaxObserver:reduce-range], half of it (-64..63, 0..127); quant_min and
 * quant_max set both ends instead (halved too when reduce_range is set), as torch's
 * `calculate_qmin_qmax`.
 *
 * Since: 0.1
 */
typedef struct
{
  GnnQDtype dtype;
  GnnQScheme qscheme;
  gboolean reduce_range;
  int quant_min_arg;
  int quant_max_arg;
  double eps;
  gint64 quant_min;
  gint64 quant_max;
  gboolean has_customized_qrange;
} GnnMinMaxObserverPrivate;

enum {
  PROP_0,
  PROP_DTYPE,
  PROP_QSCHEME,
  PROP_REDUCE_RANGE,
  PROP_QUANT_MIN,
  PROP_QUANT_MAX,
  PROP_EPS,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_TYPE_WITH_PRIVATE (GnnMinMaxObserver, gnn_min_max_observer, GNN_TYPE_MODULE)

#define PRIV(o) ((GnnMinMaxObserverPrivate *) gnn_min_max_observer_get_instance_private (GNN_MIN_MAX_OBSERVER (o)))

static gboolean gnn_moving_average_observe (GnnMinMaxObserver *observer,
                                            GnnTensor         *input,
                                            GError           **error);

static const char *
type_label (gpointer self)
{
  return GNN_IS_MOVING_AVERAGE_MIN_MAX_OBSERVER (self) ? "MovingAverageMinMaxObserver"
         : GNN_IS_PER_CHANNEL_MIN_MAX_OBSERVER (self) ? "PerChannelMinMaxObserver"
         : GNN_IS_HISTOGRAM_OBSERVER (self) ? "HistogramObserver" : "MinMaxObserver";
}

const char *
gnn_observer_type_label (GnnMinMaxObserver *self)
{
  return type_label (self);
}

void
gnn_observer_set_default_qscheme (GnnMinMaxObserver *self,
                                  GnnQScheme         qscheme)
{
  PRIV (self)->qscheme = qscheme;
}

/* torch.ao.quantization.utils.calculate_qmin_qmax and the observer's checks of its arguments */
static gboolean
compute_range (GnnMinMaxObserver *self,
               GError           **error)
{
  GnnMinMaxObserverPrivate *p = PRIV (self);
  const char *name = type_label (self);

  if (!gnn_quant_check_qdtype (name, p->dtype, error))
    return FALSE;
  if (GNN_IS_PER_CHANNEL_MIN_MAX_OBSERVER (self))
    {
      if (p->qscheme != GNN_QSCHEME_PER_CHANNEL_AFFINE && p->qscheme != GNN_QSCHEME_PER_CHANNEL_SYMMETRIC)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "%s: expected qscheme per_channel_affine or per_channel_symmetric, got value %d",
                       name, (int) p->qscheme);
          return FALSE;
        }
    }
  else if (p->qscheme != GNN_QSCHEME_PER_TENSOR_AFFINE && p->qscheme != GNN_QSCHEME_PER_TENSOR_SYMMETRIC)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s: expected qscheme per_tensor_affine or per_tensor_symmetric, got value %d "
                   "(a per-channel scheme needs a per-channel observer)", name, (int) p->qscheme);
      return FALSE;
    }
  if ((p->qscheme == GNN_QSCHEME_PER_TENSOR_SYMMETRIC || p->qscheme == GNN_QSCHEME_PER_CHANNEL_SYMMETRIC)
      && p->reduce_range && p->dtype == GNN_QDTYPE_QUINT8)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s: cannot reduce range for symmetric quantization for quint8", name);
      return FALSE;
    }
  p->has_customized_qrange = p->quant_min_arg != 0 || p->quant_max_arg != 0;
  if (p->has_customized_qrange)
    {
      gint64 len = (gint64) p->quant_max_arg - p->quant_min_arg + 1;

      if (!(p->quant_min_arg <= 0 && 0 <= p->quant_max_arg) || p->quant_min_arg >= p->quant_max_arg)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: expected quant_min <= 0 <= quant_max and quant_min < quant_max, got "
                       "quant_min=%d, quant_max=%d", name, p->quant_min_arg, p->quant_max_arg);
          return FALSE;
        }
      if ((p->dtype == GNN_QDTYPE_QINT8 || p->dtype == GNN_QDTYPE_QUINT8) && len > 256)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: expected a range of at most 256 values for %s, got quant_min=%d, "
                       "quant_max=%d", name, gnn_qdtype_get_name (p->dtype),
                       p->quant_min_arg, p->quant_max_arg);
          return FALSE;
        }
      p->quant_min = p->quant_min_arg;
      p->quant_max = p->quant_max_arg;
      if (p->reduce_range)
        {
          /* Python's floor division */
          p->quant_min = p->quant_min >= 0 ? p->quant_min / 2 : -((-p->quant_min + 1) / 2);
          p->quant_max = p->quant_max / 2;
        }
    }
  else
    {
      gnn_qdtype_get_range (p->dtype, &p->quant_min, &p->quant_max);
      if (p->reduce_range && p->dtype != GNN_QDTYPE_QINT32)
        {
          p->quant_min = p->dtype == GNN_QDTYPE_QINT8 ? -64 : 0;
          p->quant_max = p->dtype == GNN_QDTYPE_QINT8 ? 63 : 127;
        }
    }
  return TRUE;
}

static gboolean
register_scalar_buffer (GnnModule  *module,
                        const char *name,
                        double      value,
                        guint       ndim,
                        GError    **error)
{
  gint64 shape[1] = { 1 };
  g_autoptr(GnnTensor) t = ndim == 0
    ? gnn_tensor_new_scalar (value, GNN_DTYPE_FLOAT32, NULL, error)
    : gnn_tensor_new_full (shape, 1, value, GNN_DTYPE_FLOAT32, NULL, error);

  return t != NULL && gnn_module_register_buffer (module, name, t, TRUE, error);
}

static gboolean
gnn_min_max_observer_setup (GnnModule *module,
                            GError   **error)
{
  GnnMinMaxObserverPrivate *p = PRIV (module);

  if (!GNN_MODULE_CLASS (gnn_min_max_observer_parent_class)->setup (module, error))
    return FALSE;
  if (!compute_range (GNN_MIN_MAX_OBSERVER (module), error))
    return FALSE;
  if (!register_scalar_buffer (module, "eps", (float) p->eps, 1, error))
    return FALSE;
  if (GNN_IS_PER_CHANNEL_MIN_MAX_OBSERVER (module) || GNN_IS_HISTOGRAM_OBSERVER (module))
    return TRUE;   /* their setup registers the rest, in torch's order */
  return register_scalar_buffer (module, "min_val", INFINITY, 0, error)
         && register_scalar_buffer (module, "max_val", -INFINITY, 0, error);
}

static gboolean
read_buffer (GnnMinMaxObserver *self,
             const char        *name,
             float             *out,
             GError           **error)
{
  GnnTensor *t = gnn_module_tensor (GNN_MODULE (self), name, TRUE, error);
  double v;

  if (t == NULL)
    return FALSE;
  v = gnn_tensor_item (t, error);
  if (error && *error)
    return FALSE;
  *out = (float) v;
  return TRUE;
}

static gboolean
write_buffer (GnnMinMaxObserver *self,
              const char        *name,
              float              value,
              GError           **error)
{
  GnnTensor *t = gnn_module_tensor (GNN_MODULE (self), name, TRUE, error);

  return t != NULL && gnn_tensor_fill_ (t, value, error);
}

/* torch.aminmax: NaN when any element is NaN */
static gboolean
aminmax (GnnTensor *input,
         float     *mn,
         float     *mx,
         GError   **error)
{
  g_autofree float *x = NULL;
  gsize n = 0;
  float lo = INFINITY, hi = -INFINITY;
  gboolean nan = FALSE;

  x = gnn_tensor_to_floats (input, &n, error);
  if (x == NULL)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    {
      if (isnan (x[i]))
        nan = TRUE;
      if (x[i] < lo)
        lo = x[i];
      if (x[i] > hi)
        hi = x[i];
    }
  *mn = nan ? NAN : lo;
  *mx = nan ? NAN : hi;
  return TRUE;
}

/* torch.min / torch.max of two values: NaN propagates */
static float
nan_min (float a, float b)
{
  return isnan (a) || isnan (b) ? NAN : MIN (a, b);
}

static float
nan_max (float a, float b)
{
  return isnan (a) || isnan (b) ? NAN : MAX (a, b);
}

static gboolean
observe_min_max (GnnMinMaxObserver *self,
                 GnnTensor         *input,
                 GError           **error)
{
  float cur_min, cur_max, old_min, old_max;

  if (!aminmax (input, &cur_min, &cur_max, error)
      || !read_buffer (self, "min_val", &old_min, error)
      || !read_buffer (self, "max_val", &old_max, error))
    return FALSE;
  return write_buffer (self, "min_val", nan_min (cur_min, old_min), error)
         && write_buffer (self, "max_val", nan_max (cur_max, old_max), error);
}

static gboolean
check_input (GnnMinMaxObserver *self,
             GnnTensor         *input,
             GError           **error)
{
  if (!gnn_dtype_is_floating (gnn_tensor_get_dtype (input)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: expected a floating-point tensor to observe, got %s", type_label (self),
                   gnn_dtype_get_name (gnn_tensor_get_dtype (input)));
      return FALSE;
    }
  return TRUE;
}

static GnnArgs *
gnn_min_max_observer_forward (GnnModule *module,
                              GnnArgs   *input,
                              GError   **error)
{
  GnnMinMaxObserver *self = GNN_MIN_MAX_OBSERVER (module);
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);

  if (x == NULL)
    {
      g_prefix_error (error, "%s: ", type_label (self));
      return NULL;
    }
  if (!gnn_min_max_observer_observe (self, x, error))
    return NULL;
  return gnn_args_new_tensor (x);
}

static char *
gnn_min_max_observer_extra_repr (GnnModule *module)
{
  GnnMinMaxObserver *self = GNN_MIN_MAX_OBSERVER (module);
  float mn = INFINITY, mx = -INFINITY;

  if (!gnn_min_max_observer_get_min_max (self, &mn, &mx, NULL))
    return g_strdup ("");
  return g_strdup_printf ("min_val=%g, max_val=%g", mn, mx);
}

static gboolean
check_eps (GParamSpec   *pspec,
           const GValue *value,
           GError      **error)
{
  double v = g_value_get_double (value);

  if (!(v > 0) || !isfinite (v))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "eps: expected a finite value > 0, got %g", v);
      return FALSE;
    }
  return TRUE;
}

static void
gnn_min_max_observer_class_init (GnnMinMaxObserverClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_min_max_observer_setup;
  module_class->forward = gnn_min_max_observer_forward;
  module_class->extra_repr = gnn_min_max_observer_extra_repr;

  /**
   * GnnMinMaxObserver:dtype:
   *
   * The quantized dtype the parameters are for (`dtype`, quint8 by default).
   *
   * Since: 0.1
   */
  props[PROP_DTYPE] = (GnnProp) {
    g_param_spec_enum ("dtype", NULL, NULL, GNN_TYPE_QDTYPE, GNN_QDTYPE_QUINT8,
                       GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnMinMaxObserver, dtype) };

  /**
   * GnnMinMaxObserver:qscheme:
   *
   * The scheme (`qscheme`): per_tensor_affine (the default) or per_tensor_symmetric.
   *
   * Since: 0.1
   */
  props[PROP_QSCHEME] = (GnnProp) {
    g_param_spec_enum ("qscheme", NULL, NULL, GNN_TYPE_QSCHEME, GNN_QSCHEME_PER_TENSOR_AFFINE,
                       GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnMinMaxObserver, qscheme) };

  /**
   * GnnMinMaxObserver:reduce-range:
   *
   * Whether the range is halved (`reduce_range`), as fbgemm's and onednn's 7-bit activations
   * need.
   *
   * Since: 0.1
   */
  props[PROP_REDUCE_RANGE] = (GnnProp) {
    g_param_spec_boolean ("reduce-range", NULL, NULL, FALSE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnMinMaxObserver, reduce_range) };

  /**
   * GnnMinMaxObserver:quant-min:
   *
   * The lower end of a range given instead of the dtype's (`quant_min`); with
   * [property@Gnn.MinMaxObserver:quant-max] both 0 (the default, torch's None) the dtype's
   * range is used. [method@Gnn.MinMaxObserver.get_range] gives the range in use.
   *
   * Since: 0.1
   */
  props[PROP_QUANT_MIN] = (GnnProp) {
    g_param_spec_int ("quant-min", NULL, NULL, G_MININT, G_MAXINT, 0,
                      GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnMinMaxObserver, quant_min_arg) };

  /**
   * GnnMinMaxObserver:quant-max:
   *
   * The upper end of a range given instead of the dtype's (`quant_max`); 0 with
   * [property@Gnn.MinMaxObserver:quant-min] 0 means the dtype's range.
   *
   * Since: 0.1
   */
  props[PROP_QUANT_MAX] = (GnnProp) {
    g_param_spec_int ("quant-max", NULL, NULL, G_MININT, G_MAXINT, 0,
                      GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnMinMaxObserver, quant_max_arg) };

  /**
   * GnnMinMaxObserver:eps:
   *
   * The smallest scale (`eps`, float32's machine epsilon by default), kept as the buffer `eps`
   * in float32.
   *
   * Since: 0.1
   */
  props[PROP_EPS] = (GnnProp) {
    g_param_spec_double ("eps", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, FLT_EPSILON,
                         GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnMinMaxObserver, eps), check_eps };

  gnn_props_install (object_class, props, N_PROPS);
}

static void
gnn_min_max_observer_init (GnnMinMaxObserver *self)
{
  GnnMinMaxObserverPrivate *p = PRIV (self);

  p->dtype = GNN_QDTYPE_QUINT8;
  p->qscheme = GNN_QSCHEME_PER_TENSOR_AFFINE;
  p->eps = FLT_EPSILON;
}

/**
 * gnn_min_max_observer_new:
 * @dtype: the quantized dtype
 * @qscheme: per_tensor_affine or per_tensor_symmetric
 * @reduce_range: whether to halve the range
 * @error: return location for a #GError
 *
 * Creates an observer, as `MinMaxObserver (dtype, qscheme, reduce_range)`. Other arguments
 * (quant_min, quant_max, eps) are properties: `gnn_module_new_from_type_name` or
 * `g_object_new` take them.
 *
 * Returns: (transfer full): the observer, or %NULL with @error set for a scheme it does not
 *   handle (a per-channel one, symmetric quint8 with a reduced range)
 *
 * Since: 0.1
 */
GnnMinMaxObserver *
gnn_min_max_observer_new (GnnQDtype   dtype,
                          GnnQScheme  qscheme,
                          gboolean    reduce_range,
                          GError    **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_MIN_MAX_OBSERVER, "dtype", dtype,
                                  "qscheme", qscheme, "reduce-range", reduce_range, NULL);
}

/**
 * gnn_min_max_observer_observe:
 * @self: an observer
 * @input: a floating-point tensor
 * @error: return location for a #GError
 *
 * Records @input, as the observer's forward does: the running minimum and maximum for
 * [class@Gnn.MinMaxObserver], their moving averages for
 * [class@Gnn.MovingAverageMinMaxObserver]. An empty tensor changes nothing.
 *
 * Returns: %TRUE, or %FALSE with @error set when @input is not floating point
 *
 * Since: 0.1
 */
gboolean
gnn_min_max_observer_observe (GnnMinMaxObserver *self,
                              GnnTensor         *input,
                              GError           **error)
{
  g_return_val_if_fail (GNN_IS_MIN_MAX_OBSERVER (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (input), FALSE);
  if (!gnn_module_ensure_setup (GNN_MODULE (self), error) || !check_input (self, input, error))
    return FALSE;
  if (gnn_tensor_get_numel (input) == 0)
    return TRUE;
  if (GNN_IS_MOVING_AVERAGE_MIN_MAX_OBSERVER (self))
    return gnn_moving_average_observe (self, input, error);
  if (GNN_IS_PER_CHANNEL_MIN_MAX_OBSERVER (self))
    return gnn_per_channel_observe (self, input, error);
  if (GNN_IS_HISTOGRAM_OBSERVER (self))
    return gnn_histogram_observe (self, input, error);
  return observe_min_max (self, input, error);
}

/**
 * gnn_min_max_observer_get_min_max:
 * @self: an observer
 * @min_val: (out) (optional): the recorded minimum (+inf before any data)
 * @max_val: (out) (optional): the recorded maximum (-inf before any data)
 * @error: return location for a #GError
 *
 * Gets the buffers `min_val` and `max_val`.
 *
 * Returns: %TRUE, or %FALSE with @error set when a buffer was removed or replaced by one that
 *   is not a one-element tensor
 *
 * Since: 0.1
 */
gboolean
gnn_min_max_observer_get_min_max (GnnMinMaxObserver *self,
                                  float             *min_val,
                                  float             *max_val,
                                  GError           **error)
{
  float mn, mx;

  g_return_val_if_fail (GNN_IS_MIN_MAX_OBSERVER (self), FALSE);
  if (!gnn_module_ensure_setup (GNN_MODULE (self), error)
      || !read_buffer (self, "min_val", &mn, error) || !read_buffer (self, "max_val", &mx, error))
    return FALSE;
  if (min_val)
    *min_val = mn;
  if (max_val)
    *max_val = mx;
  return TRUE;
}

/**
 * gnn_min_max_observer_reset_min_max_vals:
 * @self: an observer
 * @error: return location for a #GError
 *
 * Forgets what was observed (`reset_min_max_vals ()`): min_val +inf, max_val -inf.
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_min_max_observer_reset_min_max_vals (GnnMinMaxObserver *self,
                                         GError           **error)
{
  g_return_val_if_fail (GNN_IS_MIN_MAX_OBSERVER (self), FALSE);
  return gnn_module_ensure_setup (GNN_MODULE (self), error)
         && write_buffer (self, "min_val", INFINITY, error)
         && write_buffer (self, "max_val", -INFINITY, error);
}

/**
 * gnn_min_max_observer_get_range:
 * @self: an observer
 * @quant_min: (out) (optional): the smallest quantized value in use
 * @quant_max: (out) (optional): the largest quantized value in use
 *
 * Gets the range the parameters are computed for (torch's `observer.quant_min` and
 * `observer.quant_max`): the dtype's, halved by reduce_range, or the one given.
 *
 * Since: 0.1
 */
void
gnn_min_max_observer_get_range (GnnMinMaxObserver *self,
                                gint64            *quant_min,
                                gint64            *quant_max)
{
  GnnMinMaxObserverPrivate *p;

  g_return_if_fail (GNN_IS_MIN_MAX_OBSERVER (self));
  p = PRIV (self);
  if (!gnn_module_ensure_setup (GNN_MODULE (self), NULL))
    compute_range (self, NULL);
  if (quant_min)
    *quant_min = p->quant_min;
  if (quant_max)
    *quant_max = p->quant_max;
}

/**
 * gnn_min_max_observer_calculate_qparams:
 * @self: an observer
 * @scale: (out): the scale
 * @zero_point: (out): the zero point
 * @error: return location for a #GError
 *
 * Computes the quantization parameters from what was observed, as `calculate_qparams ()` in
 * torch 1.13 (see [class@Gnn.MinMaxObserver] for the formulas), in float32. torch returns them
 * as one-element tensors; the scale here is that float32 value.
 *
 * An observer that has seen no data is an error here (torch warns and returns scale 1.0 and
 * zero point 0).
 *
 * Returns: %TRUE, or %FALSE with @error set: no data observed, or min_val > max_val (a NaN
 *   was observed, or the buffers were loaded so)
 *
 * Since: 0.1
 */
gboolean
gnn_min_max_observer_calculate_qparams (GnnMinMaxObserver *self,
                                        double            *scale,
                                        gint64            *zero_point,
                                        GError           **error)
{
  float mn, mx, eps, s;
  gint64 zp = 0;

  g_return_val_if_fail (GNN_IS_MIN_MAX_OBSERVER (self), FALSE);
  if (GNN_IS_PER_CHANNEL_MIN_MAX_OBSERVER (self))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: its parameters are per channel: call "
                   "gnn_per_channel_min_max_observer_calculate_qparams", type_label (self));
      return FALSE;
    }
  if (!gnn_min_max_observer_get_min_max (self, &mn, &mx, error)
      || !read_buffer (self, "eps", &eps, error))
    return FALSE;
  if (mn == INFINITY && mx == -INFINITY)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: the observer has seen no data: run it on calibration data before "
                   "calculate_qparams (torch warns and returns scale 1.0, zero point 0)",
                   type_label (self));
      return FALSE;
    }
  if (!(mn <= mx))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: expected min_val <= max_val, got min %g and max %g", type_label (self), mn, mx);
      return FALSE;
    }
  if (GNN_IS_HISTOGRAM_OBSERVER (self) && !gnn_histogram_search (self, &mn, &mx, error))
    return FALSE;
  gnn_observer_qparams (self, mn, mx, eps, &s, &zp);
  if (scale)
    *scale = s;
  if (zero_point)
    *zero_point = zp;
  return TRUE;
}

/* UniformQuantizationObserverBase._calculate_qparams for one (min, max), in float32 */
void
gnn_observer_qparams (GnnMinMaxObserver *self,
                      float              mn,
                      float              mx,
                      float              eps,
                      float             *scale,
                      gint64            *zero_point)
{
  GnnMinMaxObserverPrivate *p = PRIV (self);
  float min_neg, max_pos, s;
  gint64 zp = 0;

  min_neg = MIN (mn, 0.0f);
  max_pos = MAX (mx, 0.0f);
  if (p->qscheme == GNN_QSCHEME_PER_TENSOR_SYMMETRIC || p->qscheme == GNN_QSCHEME_PER_CHANNEL_SYMMETRIC)
    {
      max_pos = MAX (-min_neg, max_pos);
      s = max_pos / (float) ((double) (p->quant_max - p->quant_min) / 2);
      s = MAX (s, eps);
      if (p->dtype == GNN_QDTYPE_QUINT8)
        {
          if (p->has_customized_qrange)
            {
              gint64 sum = p->quant_min + p->quant_max;
              zp = sum >= 0 ? sum / 2 : -((-sum + 1) / 2);
            }
          else
            zp = 128;
        }
    }
  else
    {
      s = (max_pos - min_neg) / (float) (p->quant_max - p->quant_min);
      s = MAX (s, eps);
      zp = p->quant_min - (gint32) nearbyintf (min_neg / s);
      zp = CLAMP (zp, p->quant_min, p->quant_max);
    }
  *scale = s;
  *zero_point = zp;
}

/**
 * GnnMovingAverageMinMaxObserver:
 *
 * An observer of the moving averages of the minimum and maximum, as
 * `torch.ao.quantization.MovingAverageMinMaxObserver`: the first batch sets them, each later
 * one moves them by [property@Gnn.MovingAverageMinMaxObserver:averaging-constant] of the way
 * to its own (min += c × (batch_min - min), in float32). The parameters are computed as
 * [class@Gnn.MinMaxObserver]'s.
 *
 * Since: 0.1
 */
struct _GnnMovingAverageMinMaxObserver
{
  GnnMinMaxObserver parent_instance;

  double averaging_constant;
};

enum {
  MA_PROP_0,
  MA_PROP_AVERAGING_CONSTANT,
  MA_N_PROPS
};

static GnnProp ma_props[MA_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnMovingAverageMinMaxObserver, gnn_moving_average_min_max_observer,
                     GNN_TYPE_MIN_MAX_OBSERVER)

static gboolean
gnn_moving_average_observe (GnnMinMaxObserver *observer,
                            GnnTensor         *input,
                            GError           **error)
{
  GnnMovingAverageMinMaxObserver *self = GNN_MOVING_AVERAGE_MIN_MAX_OBSERVER (observer);
  float cur_min, cur_max, mn, mx;
  float c = (float) self->averaging_constant;

  if (!aminmax (input, &cur_min, &cur_max, error)
      || !read_buffer (observer, "min_val", &mn, error)
      || !read_buffer (observer, "max_val", &mx, error))
    return FALSE;
  if (mn == INFINITY && mx == -INFINITY)
    {
      mn = cur_min;
      mx = cur_max;
    }
  else
    {
      mn = mn + c * (cur_min - mn);
      mx = mx + c * (cur_max - mx);
    }
  return write_buffer (observer, "min_val", mn, error) && write_buffer (observer, "max_val", mx, error);
}

static void
gnn_moving_average_min_max_observer_class_init (GnnMovingAverageMinMaxObserverClass *klass)
{
  /**
   * GnnMovingAverageMinMaxObserver:averaging-constant:
   *
   * How far each batch moves the averages (`averaging_constant`, 0.01 by default).
   *
   * Since: 0.1
   */
  ma_props[MA_PROP_AVERAGING_CONSTANT] = (GnnProp) {
    g_param_spec_double ("averaging-constant", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.01,
                         GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnMovingAverageMinMaxObserver, averaging_constant) };
  gnn_props_install (G_OBJECT_CLASS (klass), ma_props, MA_N_PROPS);
}

static void
gnn_moving_average_min_max_observer_init (GnnMovingAverageMinMaxObserver *self)
{
  self->averaging_constant = 0.01;
}

/**
 * gnn_moving_average_min_max_observer_new:
 * @averaging_constant: how far each batch moves the averages
 * @dtype: the quantized dtype
 * @qscheme: per_tensor_affine or per_tensor_symmetric
 * @reduce_range: whether to halve the range
 * @error: return location for a #GError
 *
 * Creates an observer, as `MovingAverageMinMaxObserver (averaging_constant, dtype, qscheme,
 * reduce_range)`.
 *
 * Returns: (transfer full): the observer, or %NULL with @error set as
 *   [ctor@Gnn.MinMaxObserver.new]
 *
 * Since: 0.1
 */
GnnMovingAverageMinMaxObserver *
gnn_moving_average_min_max_observer_new (double      averaging_constant,
                                         GnnQDtype   dtype,
                                         GnnQScheme  qscheme,
                                         gboolean    reduce_range,
                                         GError    **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_MOVING_AVERAGE_MIN_MAX_OBSERVER,
                                  "averaging-constant", averaging_constant, "dtype", dtype,
                                  "qscheme", qscheme, "reduce-range", reduce_range, NULL);
}
