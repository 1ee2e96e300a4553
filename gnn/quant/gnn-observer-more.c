/* gnn-observer-more.c: GnnPerChannelMinMaxObserver and GnnHistogramObserver
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "nn/gnn-module-private.h"
#include "nn/gnn-props-private.h"
#include "nn/gnn-state-dict.h"
#include "core/gnn-tensor-private.h"
#include "gnn-enum-types.h"
#include "gnn-observer.h"
#include "gnn-quant-private.h"

/* ---- shared ---- */

static gboolean
float_buffer (GnnMinMaxObserver *self,
              const char        *name,
              float            **out,
              gsize             *n,
              GError           **error)
{
  GnnTensor *t = gnn_module_tensor (GNN_MODULE (self), name, TRUE, error);

  if (t == NULL)
    return FALSE;
  *n = 0;
  *out = gnn_tensor_to_floats (t, n, error);
  return *out != NULL || *n == 0;
}

/* replaces the buffer @name by a float32 tensor of @values (torch resizes it in place) */
static gboolean
store_buffer (GnnMinMaxObserver *self,
              const char        *name,
              const float       *values,
              gsize              n,
              guint              ndim,
              GError           **error)
{
  gint64 shape[1] = { (gint64) n };
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_floats (values, n, shape, ndim, error);

  return t != NULL && gnn_module_register_buffer (GNN_MODULE (self), name, t, TRUE, error);
}

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

static float
read_eps (GnnMinMaxObserver *self,
          GError           **error)
{
  GnnTensor *t = gnn_module_tensor (GNN_MODULE (self), "eps", TRUE, error);

  return t ? (float) gnn_tensor_item (t, error) : 0.f;
}

/* ---- PerChannelMinMaxObserver ---- */

/**
 * GnnPerChannelMinMaxObserver:
 *
 * An observer of the running minimum and maximum of each channel, as
 * `torch.ao.quantization.PerChannelMinMaxObserver`: the channels are the indices along
 * [property@Gnn.PerChannelMinMaxObserver:ch-axis], and the scale and zero point of each are
 * computed as [class@Gnn.MinMaxObserver]'s (per_channel_affine like per_tensor_affine,
 * per_channel_symmetric like per_tensor_symmetric).
 *
 * The buffers are torch's: `eps` (shape [1]), `min_val` and `max_val` (shape [0] before any
 * data, then one value per channel; loading a state dict resizes them, as torch does). It is a
 * subclass of [class@Gnn.MinMaxObserver] in gnn (torch's is a sibling class) so that it shares
 * its properties; [method@Gnn.MinMaxObserver.calculate_qparams] refuses it: call
 * [method@Gnn.PerChannelMinMaxObserver.calculate_qparams].
 *
 * Since: 0.1
 */
struct _GnnPerChannelMinMaxObserver
{
  GnnMinMaxObserver parent_instance;

  int ch_axis;
};

enum {
  PC_PROP_0,
  PC_PROP_CH_AXIS,
  PC_N_PROPS
};

static GnnProp pc_props[PC_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnPerChannelMinMaxObserver, gnn_per_channel_min_max_observer, GNN_TYPE_MIN_MAX_OBSERVER)

/* torch's _load_from_state_dict: min_val and max_val take the shapes of the loaded values */
static void
per_channel_load_pre_hook (GnnModule    *module,
                           GnnStateDict *state,
                           const char   *prefix,
                           gboolean      strict,
                           gpointer      user_data)
{
  static const char *const names[] = { "min_val", "max_val" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *key = g_strconcat (prefix, names[i], NULL);
      GnnTensor *src = gnn_state_dict_contains (state, key) ? gnn_state_dict_get_tensor (state, key, NULL) : NULL;
      GnnTensor *own = gnn_module_tensor (module, names[i], FALSE, NULL);
      g_autoptr(GnnTensor) fresh = NULL;
      const gint64 *shape;
      guint ndim;

      if (src == NULL || own == NULL || gnn_tensor_get_ndim (src) != 1
          || gnn_tensor_get_numel (src) == gnn_tensor_get_numel (own))
        continue;
      shape = gnn_tensor_get_shape (src, &ndim);
      fresh = gnn_tensor_new_zeros (shape, ndim, GNN_DTYPE_FLOAT32, NULL, NULL);
      if (fresh)
        gnn_module_register_buffer (module, names[i], fresh, TRUE, NULL);
    }
}

static gboolean
gnn_per_channel_min_max_observer_setup (GnnModule *module,
                                        GError   **error)
{
  GnnMinMaxObserver *self = GNN_MIN_MAX_OBSERVER (module);

  if (!GNN_MODULE_CLASS (gnn_per_channel_min_max_observer_parent_class)->setup (module, error))
    return FALSE;
  if (!store_buffer (self, "min_val", NULL, 0, 1, error) || !store_buffer (self, "max_val", NULL, 0, 1, error))
    return FALSE;
  gnn_module_register_load_state_dict_pre_hook (module, per_channel_load_pre_hook, NULL, NULL);
  return TRUE;
}

static char *
gnn_per_channel_min_max_observer_extra_repr (GnnModule *module)
{
  GnnTensor *mn = gnn_module_tensor (module, "min_val", FALSE, NULL);

  return g_strdup_printf ("ch_axis=%d, channels=%" G_GINT64_FORMAT,
                          GNN_PER_CHANNEL_MIN_MAX_OBSERVER (module)->ch_axis,
                          mn ? gnn_tensor_get_numel (mn) : 0);
}

gboolean
gnn_per_channel_observe (GnnMinMaxObserver *observer,
                         GnnTensor         *input,
                         GError           **error)
{
  GnnPerChannelMinMaxObserver *self = GNN_PER_CHANNEL_MIN_MAX_OBSERVER (observer);
  g_autofree float *x = NULL;
  g_autofree float *lo = NULL;
  g_autofree float *hi = NULL;
  g_autofree float *old_lo = NULL;
  g_autofree float *old_hi = NULL;
  const gint64 *shape;
  gint64 channels, inner = 1;
  gsize n = 0, n_lo = 0, n_hi = 0;
  guint ndim, dim;

  shape = gnn_tensor_get_shape (input, &ndim);
  if (ndim == 0 || !gnn_normalize_dim (self->ch_axis, ndim, &dim, error))
    {
      if (ndim == 0)
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "PerChannelMinMaxObserver: expected a tensor with a channel axis %d, got a scalar",
                     self->ch_axis);
      else
        g_prefix_error (error, "PerChannelMinMaxObserver: ch_axis: ");
      return FALSE;
    }
  channels = shape[dim];
  for (guint d = dim + 1; d < ndim; d++)
    inner *= shape[d];
  x = gnn_tensor_to_floats (input, &n, error);
  if (x == NULL)
    return FALSE;
  lo = g_new (float, MAX (channels, 1));
  hi = g_new (float, MAX (channels, 1));
  for (gint64 c = 0; c < channels; c++)
    {
      lo[c] = INFINITY;
      hi[c] = -INFINITY;
    }
  /* torch.aminmax (dim=1) of the channels as rows: NaN propagates */
  for (gsize i = 0; i < n; i++)
    {
      gint64 c = ((gint64) i / inner) % channels;

      lo[c] = nan_min (lo[c], x[i]);
      hi[c] = nan_max (hi[c], x[i]);
    }
  if (!float_buffer (observer, "min_val", &old_lo, &n_lo, error)
      || !float_buffer (observer, "max_val", &old_hi, &n_hi, error))
    return FALSE;
  if (n_lo > 0 && n_hi > 0)
    {
      if ((gint64) n_lo != channels || (gint64) n_hi != channels)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "PerChannelMinMaxObserver: expected %" G_GSIZE_FORMAT " channels along axis %u "
                       "(what it observed before), got %" G_GINT64_FORMAT, n_lo, dim, channels);
          return FALSE;
        }
      for (gint64 c = 0; c < channels; c++)
        {
          lo[c] = nan_min (lo[c], old_lo[c]);
          hi[c] = nan_max (hi[c], old_hi[c]);
        }
    }
  return store_buffer (observer, "min_val", lo, channels, 1, error)
         && store_buffer (observer, "max_val", hi, channels, 1, error);
}

static void
gnn_per_channel_min_max_observer_class_init (GnnPerChannelMinMaxObserverClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_per_channel_min_max_observer_setup;
  module_class->extra_repr = gnn_per_channel_min_max_observer_extra_repr;

  /**
   * GnnPerChannelMinMaxObserver:ch-axis:
   *
   * The channel dimension of the observed tensors (`ch_axis`, 0 by default; negative counts
   * from the end).
   *
   * Since: 0.1
   */
  pc_props[PC_PROP_CH_AXIS] = (GnnProp) {
    g_param_spec_int ("ch-axis", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnPerChannelMinMaxObserver, ch_axis) };
  gnn_props_install (G_OBJECT_CLASS (klass), pc_props, PC_N_PROPS);
}

static void
gnn_per_channel_min_max_observer_init (GnnPerChannelMinMaxObserver *self)
{
  gnn_observer_set_default_qscheme (GNN_MIN_MAX_OBSERVER (self), GNN_QSCHEME_PER_CHANNEL_AFFINE);
}

/**
 * gnn_per_channel_min_max_observer_new:
 * @ch_axis: the channel dimension
 * @dtype: the quantized dtype
 * @qscheme: per_channel_affine or per_channel_symmetric
 * @reduce_range: whether to halve the range
 * @error: return location for a #GError
 *
 * Creates an observer, as `PerChannelMinMaxObserver (ch_axis, dtype, qscheme, reduce_range)`.
 *
 * Returns: (transfer full): the observer, or %NULL with @error set for a per-tensor scheme or
 *   symmetric quint8 with a reduced range
 *
 * Since: 0.1
 */
GnnPerChannelMinMaxObserver *
gnn_per_channel_min_max_observer_new (int         ch_axis,
                                      GnnQDtype   dtype,
                                      GnnQScheme  qscheme,
                                      gboolean    reduce_range,
                                      GError    **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_PER_CHANNEL_MIN_MAX_OBSERVER, "ch-axis", ch_axis,
                                  "dtype", dtype, "qscheme", qscheme, "reduce-range", reduce_range, NULL);
}

/**
 * gnn_per_channel_min_max_observer_calculate_qparams:
 * @self: an observer
 * @scales: (out) (transfer full): the scales, float32, one per channel
 * @zero_points: (out) (transfer full): the zero points, one per channel: int32 for
 *   per_channel_affine, int64 for per_channel_symmetric (torch's dtypes)
 * @error: return location for a #GError
 *
 * Computes the parameters of each channel, as `calculate_qparams ()` in torch 1.13.
 *
 * Returns: %TRUE, or %FALSE with @error set: no data observed (torch warns and returns [1.0]
 *   and [0]), or a channel's minimum above its maximum (a NaN was observed)
 *
 * Since: 0.1
 */
gboolean
gnn_per_channel_min_max_observer_calculate_qparams (GnnPerChannelMinMaxObserver *self,
                                                    GnnTensor                  **scales,
                                                    GnnTensor                  **zero_points,
                                                    GError                     **error)
{
  GnnMinMaxObserver *observer = GNN_MIN_MAX_OBSERVER (self);
  g_autofree float *lo = NULL;
  g_autofree float *hi = NULL;
  g_autofree float *s = NULL;
  g_autofree gint64 *z = NULL;
  g_autoptr(GnnTensor) st = NULL;
  g_autoptr(GnnTensor) zt = NULL;
  GError *local = NULL;
  gsize n_lo = 0, n_hi = 0;
  GnnQScheme scheme;
  gint64 n;
  float eps;

  g_return_val_if_fail (GNN_IS_PER_CHANNEL_MIN_MAX_OBSERVER (self), FALSE);
  g_return_val_if_fail (scales != NULL && zero_points != NULL, FALSE);
  if (!gnn_module_ensure_setup (GNN_MODULE (self), error)
      || !float_buffer (observer, "min_val", &lo, &n_lo, error)
      || !float_buffer (observer, "max_val", &hi, &n_hi, error))
    return FALSE;
  eps = read_eps (observer, &local);
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (n_lo == 0 || n_hi == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "PerChannelMinMaxObserver: the observer has seen no data: run it on calibration "
                   "data before calculate_qparams (torch warns and returns scale 1.0, zero point 0)");
      return FALSE;
    }
  if (n_lo != n_hi)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "PerChannelMinMaxObserver: expected min_val and max_val of one size, got %"
                   G_GSIZE_FORMAT " and %" G_GSIZE_FORMAT, n_lo, n_hi);
      return FALSE;
    }
  n = (gint64) n_lo;
  s = g_new (float, n);
  z = g_new (gint64, n);
  for (gint64 c = 0; c < n; c++)
    {
      if (!(lo[c] <= hi[c]))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "PerChannelMinMaxObserver: expected min_val <= max_val, got min %g and max %g "
                       "in channel %" G_GINT64_FORMAT, lo[c], hi[c], c);
          return FALSE;
        }
      gnn_observer_qparams (observer, lo[c], hi[c], eps, &s[c], &z[c]);
    }
  g_object_get (self, "qscheme", &scheme, NULL);
  st = gnn_tensor_new_from_floats (s, n, &n, 1, error);
  zt = st ? gnn_tensor_new_from_int64s (z, n, &n, 1, error) : NULL;
  if (zt == NULL)
    return FALSE;
  if (scheme == GNN_QSCHEME_PER_CHANNEL_AFFINE)
    {
      GnnTensor *z32 = gnn_tensor_cast (zt, GNN_DTYPE_INT32, error);

      if (z32 == NULL)
        return FALSE;
      g_object_unref (zt);
      zt = z32;
    }
  *scales = g_steal_pointer (&st);
  *zero_points = g_steal_pointer (&zt);
  return TRUE;
}

/* ---- HistogramObserver ---- */

/**
 * GnnHistogramObserver:
 *
 * An observer that keeps a histogram of what it sees and chooses the range that minimises
 * the L2 quantization error, as `torch.ao.quantization.HistogramObserver` (torch 1.13's
 * algorithm, step for step):
 *
 * - the first batch (or one after a batch whose min equalled its max) sets `min_val`,
 *   `max_val` and the histogram, `torch.histc (x, bins, min=int (min), max=int (max))`: the
 *   range truncated to integers as torch 1.13 truncates it (values outside it are not counted;
 *   a range of zero width takes the data's, widened by 1 on each side if still empty);
 * - each later batch widens the range to the union (the maximum relaxed so the old bins fall on
 *   a grid [property@Gnn.HistogramObserver:upsample-rate] times finer), histograms the batch
 *   over it and adds the old histogram, upsampled and resampled onto the new bins;
 * - [method@Gnn.MinMaxObserver.calculate_qparams] runs `_non_linear_param_search`, moving
 *   the start or end bin inwards by quantiles of 1e-5 while the estimated quantization error
 *   over 2^bits destination bins decreases, then computes the parameters from that min and max
 *   as [class@Gnn.MinMaxObserver].
 *
 * The arithmetic is torch's: float32 where torch's tensors are float32, float64 where it uses
 * Python floats or a double cumulative sum. The buffers are torch's: `eps` ([1]), `histogram`
 * ([bins]), `min_val` and `max_val` (0-d). It is a subclass of [class@Gnn.MinMaxObserver] in
 * gnn, to share its properties.
 *
 * Since: 0.1
 */
struct _GnnHistogramObserver
{
  GnnMinMaxObserver parent_instance;

  int bins;
  int upsample_rate;
};

enum {
  H_PROP_0,
  H_PROP_BINS,
  H_PROP_UPSAMPLE_RATE,
  H_N_PROPS
};

static GnnProp h_props[H_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnHistogramObserver, gnn_histogram_observer, GNN_TYPE_MIN_MAX_OBSERVER)

static gboolean
gnn_histogram_observer_setup (GnnModule *module,
                              GError   **error)
{
  GnnHistogramObserver *self = GNN_HISTOGRAM_OBSERVER (module);
  GnnMinMaxObserver *observer = GNN_MIN_MAX_OBSERVER (module);
  g_autofree float *zeros = NULL;
  float inf = INFINITY, ninf = -INFINITY;

  if (!GNN_MODULE_CLASS (gnn_histogram_observer_parent_class)->setup (module, error))
    return FALSE;
  zeros = g_new0 (float, MAX (self->bins, 1));
  return store_buffer (observer, "histogram", zeros, self->bins, 1, error)
         && store_buffer (observer, "min_val", &inf, 1, 0, error)
         && store_buffer (observer, "max_val", &ninf, 1, 0, error);
}

static gboolean
check_positive (GParamSpec   *pspec,
                const GValue *value,
                GError      **error)
{
  int v = g_value_get_int (value);

  if (v < 1)
    {
      g_autofree char *name = gnn_prop_python_name (pspec);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: expected a value >= 1, got %d", name, v);
      return FALSE;
    }
  return TRUE;
}

/* Python's int (x) of a float: truncation, refused for inf and NaN */
static gboolean
python_int (float     x,
            double   *out,
            GError  **error)
{
  if (!isfinite (x))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "HistogramObserver: expected finite values to observe, got a range ending at %g", x);
      return FALSE;
    }
  *out = trunc ((double) x);
  return TRUE;
}

/* torch.histc (x, bins, min, max) on the CPU, added into @hist (float32 counts) */
static void
histc (const float *x,
       gsize        n,
       int          bins,
       double       min,
       double       max,
       float       *hist)
{
  float left, right;

  memset (hist, 0, (gsize) bins * sizeof (float));
  if (min == max && n > 0)
    {
      float lo = x[0], hi = x[0];

      for (gsize i = 1; i < n; i++)
        {
          lo = MIN (lo, x[i]);
          hi = MAX (hi, x[i]);
        }
      min = lo;
      max = hi;
    }
  if (min == max)
    {
      min -= 1;
      max += 1;
    }
  /* the first and last of linspace (min, max, bins + 1) in float32 */
  left = (float) min;
  right = (float) max;
  for (gsize i = 0; i < n; i++)
    {
      float e = x[i];
      gint64 pos;

      if (!(e >= left && e <= right))
        continue;
      pos = (gint64) ((e - left) * (float) bins / (right - left));
      if (pos == bins)
        pos -= 1;
      hist[pos] += 1.f;
    }
}

gboolean
gnn_histogram_observe (GnnMinMaxObserver *observer,
                       GnnTensor         *input,
                       GError           **error)
{
  GnnHistogramObserver *self = GNN_HISTOGRAM_OBSERVER (observer);
  g_autofree float *x = NULL;
  g_autofree float *old = NULL;
  g_autofree float *hist = NULL;
  g_autofree float *mnp = NULL;
  g_autofree float *mxp = NULL;
  gsize n = 0, n_old = 0, n1 = 0, n2 = 0;
  int bins = self->bins, L = self->upsample_rate;
  float xmin, xmax, mn, mx;
  double lo, hi;

  x = gnn_tensor_to_floats (input, &n, error);
  if (x == NULL)
    return FALSE;
  xmin = xmax = x[0];
  for (gsize i = 0; i < n; i++)
    {
      xmin = nan_min (xmin, x[i]);
      xmax = nan_max (xmax, x[i]);
    }
  if (!float_buffer (observer, "min_val", &mnp, &n1, error)
      || !float_buffer (observer, "max_val", &mxp, &n2, error)
      || !float_buffer (observer, "histogram", &old, &n_old, error))
    return FALSE;
  if (n1 != 1 || n2 != 1 || (gint64) n_old != bins)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "HistogramObserver: expected one-value min_val and max_val and a histogram of %d "
                   "bins, got %" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT " and %" G_GSIZE_FORMAT " values",
                   bins, n1, n2, n_old);
      return FALSE;
    }
  mn = mnp[0];
  mx = mxp[0];
  hist = g_new0 (float, bins);
  if ((mn == INFINITY && mx == -INFINITY) || mn == mx)
    {
      if (!python_int (xmin, &lo, error) || !python_int (xmax, &hi, error))
        return FALSE;
      histc (x, n, bins, lo, hi, hist);
      mn = xmin;
      mx = xmax;
    }
  else
    {
      float cmin = nan_min (xmin, mn), cmax = nan_max (xmax, mx);
      float hbw, e;
      gint64 ds, start_idx;

      /* _adjust_min_max: a grid of (max - min) / (bins × upsample_rate) */
      hbw = (mx - mn) / (float) ((gint64) bins * L);
      ds = (gint64) ceilf ((cmax - cmin) / ((float) bins * hbw));
      e = (float) ds * ((float) bins * hbw) - (cmax - cmin);
      cmax = cmax + e;
      start_idx = (gint64) nearbyintf ((mn - cmin) / hbw);
      if (!python_int (cmin, &lo, error) || !python_int (cmax, &hi, error))
        return FALSE;
      histc (x, n, bins, lo, hi, hist);
      if (cmin == mn && cmax == mx)
        for (int i = 0; i < bins; i++)
          hist[i] += old[i];
      else
        {
          /* _combine_histograms: the old histogram upsampled by L, placed at start_idx, its
           * double cumulative sum read every ds-th value, differenced */
          gint64 total = (gint64) bins * ds;
          g_autofree double *integral = NULL;
          double acc = 0;
          float shifted;

          if (start_idx < 0 || start_idx + (gint64) bins * L > total)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "HistogramObserver: the old histogram (%d × %d values from %" G_GINT64_FORMAT
                           ") does not fit the combined range of %" G_GINT64_FORMAT " values",
                           bins, L, start_idx, total);
              return FALSE;
            }
          integral = g_new (double, bins);
          for (gint64 k = 0; k < total; k++)
            {
              gint64 j = k - start_idx;

              if (j >= 0 && j < (gint64) bins * L)
                acc += (double) old[j / L];
              if (k % ds == ds - 1)
                integral[k / ds] = acc;
            }
          for (int i = 0; i < bins; i++)
            {
              shifted = i == 0 ? 0.f : (float) integral[i - 1];
              hist[i] = hist[i] + (float) ((integral[i] - (double) shifted) / L);
            }
        }
      mn = cmin;
      mx = cmax;
    }
  return store_buffer (observer, "histogram", hist, bins, 1, error)
         && store_buffer (observer, "min_val", &mn, 1, 0, error)
         && store_buffer (observer, "max_val", &mx, 1, 0, error);
}

/* c10::div_floor_floating: Python's floor division of floats */
static float
div_floor (float a,
           float b)
{
  float mod, div, floordiv;

  if (b == 0)
    return a / b;
  mod = fmodf (a, b);
  div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0))
    div -= 1.f;
  if (div != 0)
    {
      floordiv = floorf (div);
      if (div - floordiv > 0.5f)
        floordiv += 1.f;
    }
  else
    floordiv = copysignf (0.f, a / b);
  return floordiv;
}

/* (end³ - begin³) / 3 × density, in float32 */
static float
l2_norm (float begin,
         float end,
         float density)
{
  float n = (end * end * end - begin * begin * begin) / 3.f;

  return density * n;
}

/* _compute_quantization_error (next_start_bin, next_end_bin) */
static double
quantization_error (const float *hist,
                    int          bins,
                    double       dst_nbins,
                    float        mn,
                    float        mx,
                    gint64       start,
                    gint64       end)
{
  double bw = ((double) mx - (double) mn) / bins;
  double dbw = bw * (double) (end - start + 1) / dst_nbins;
  float fbw = (float) bw, fdbw = (float) dbw, half = (float) (dbw / 2), mhalf = (float) (-dbw / 2);
  float top = (float) (dst_nbins - 1);
  double sum = 0;

  if (dbw == 0.0)
    return 0.0;
  for (int i = 0; i < bins; i++)
    {
      float sb = (float) (i - start) * fbw;
      float se = sb + fbw;
      float db = CLAMP (div_floor (sb, fdbw), 0.f, top);
      float dbc = (db + 0.5f) * fdbw;
      float de = CLAMP (div_floor (se, fdbw), 0.f, top);
      float density = hist[i] / fbw;
      float dec, norm = 0.f;

      norm += l2_norm (sb - dbc, half, density);
      norm += (de - db - 1.f) * l2_norm (mhalf, half, density);
      dec = de * fdbw + half;
      norm += l2_norm (mhalf, se - dec, density);
      sum += norm;
    }
  return (double) (float) sum;
}

gboolean
gnn_histogram_search (GnnMinMaxObserver *observer,
                      float             *mn,
                      float             *mx,
                      GError           **error)
{
  GnnHistogramObserver *self = GNN_HISTOGRAM_OBSERVER (observer);
  g_autofree float *hist = NULL;
  g_autofree float *csum = NULL;
  GnnQDtype dtype;
  gsize n = 0;
  int bins = self->bins;
  double total = 0, cacc = 0, alpha = 0.0, beta = 1.0, norm_min = INFINITY, dst_nbins;
  gint64 start = 0, end = bins - 1;
  float bin_width;

  if (!float_buffer (observer, "histogram", &hist, &n, error))
    return FALSE;
  if ((gint64) n != bins)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "HistogramObserver: expected a histogram of %d bins (bins), got %" G_GSIZE_FORMAT,
                   bins, n);
      return FALSE;
    }
  g_object_get (observer, "dtype", &dtype, NULL);
  dst_nbins = dtype == GNN_QDTYPE_QINT32 ? 4294967296.0 : 256.0;
  bin_width = (*mx - *mn) / (float) bins;
  csum = g_new (float, bins);
  for (int i = 0; i < bins; i++)
    {
      total += hist[i];
      cacc += hist[i];
      csum[i] = (float) cacc;
    }
  total = (double) (float) total;
  while (alpha < beta)
    {
      double next_alpha = alpha + 1e-5, next_beta = beta - 1e-5, norm;
      gint64 l = start, r = end, next_start = start, next_end = end;

      while (l < end && csum[l] < (float) (next_alpha * total))
        l++;
      while (r > start && csum[r] > (float) (next_beta * total))
        r--;
      if (l - start > end - r)
        {
          next_start = l;
          alpha = next_alpha;
        }
      else
        {
          next_end = r;
          beta = next_beta;
        }
      if (next_start == start && next_end == end)
        continue;
      norm = quantization_error (hist, bins, dst_nbins, *mn, *mx, next_start, next_end);
      if (norm > norm_min)
        break;
      norm_min = norm;
      start = next_start;
      end = next_end;
    }
  {
    float new_min = *mn + bin_width * (float) start;
    float new_max = *mn + bin_width * (float) (end + 1);

    *mn = new_min;
    *mx = new_max;
  }
  return TRUE;
}

static char *
gnn_histogram_observer_extra_repr (GnnModule *module)
{
  float mn = INFINITY, mx = -INFINITY;

  gnn_min_max_observer_get_min_max (GNN_MIN_MAX_OBSERVER (module), &mn, &mx, NULL);
  return g_strdup_printf ("min_val=%g, max_val=%g", mn, mx);
}

static void
gnn_histogram_observer_class_init (GnnHistogramObserverClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_histogram_observer_setup;
  module_class->extra_repr = gnn_histogram_observer_extra_repr;

  /**
   * GnnHistogramObserver:bins:
   *
   * The number of histogram bins (`bins`, 2048 by default).
   *
   * Since: 0.1
   */
  h_props[H_PROP_BINS] = (GnnProp) {
    g_param_spec_int ("bins", NULL, NULL, G_MININT, G_MAXINT, 2048, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnHistogramObserver, bins), check_positive };

  /**
   * GnnHistogramObserver:upsample-rate:
   *
   * How much finer than the bins the grid is on which histograms of different ranges are
   * combined (`upsample_rate`, 128 by default).
   *
   * Since: 0.1
   */
  h_props[H_PROP_UPSAMPLE_RATE] = (GnnProp) {
    g_param_spec_int ("upsample-rate", NULL, NULL, G_MININT, G_MAXINT, 128, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnHistogramObserver, upsample_rate), check_positive };
  gnn_props_install (G_OBJECT_CLASS (klass), h_props, H_N_PROPS);
}

static void
gnn_histogram_observer_init (GnnHistogramObserver *self)
{
  self->bins = 2048;
  self->upsample_rate = 128;
}

/**
 * gnn_histogram_observer_new:
 * @bins: the number of histogram bins
 * @upsample_rate: the upsampling factor used when histograms are combined
 * @dtype: the quantized dtype
 * @qscheme: per_tensor_affine or per_tensor_symmetric
 * @reduce_range: whether to halve the range
 * @error: return location for a #GError
 *
 * Creates an observer, as `HistogramObserver (bins, upsample_rate, dtype, qscheme,
 * reduce_range)`.
 *
 * Returns: (transfer full): the observer, or %NULL with @error set for a scheme it does not
 *   handle or @bins or @upsample_rate below 1
 *
 * Since: 0.1
 */
GnnHistogramObserver *
gnn_histogram_observer_new (int         bins,
                            int         upsample_rate,
                            GnnQDtype   dtype,
                            GnnQScheme  qscheme,
                            gboolean    reduce_range,
                            GError    **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_HISTOGRAM_OBSERVER, "bins", bins,
                                  "upsample-rate", upsample_rate, "dtype", dtype, "qscheme", qscheme,
                                  "reduce-range", reduce_range, NULL);
}
