/* gnn-ops-resample.c: torch.nn.functional.interpolate
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every mode is separable: the output along one spatial dimension is a fixed combination of a
 * few input positions along it (one for the nearest modes, two for linear, four for cubic, a
 * window for area). Each dimension in turn is resampled by selecting its taps with
 * index_select and summing them weighted by a per-position weight that broadcasts along the
 * dimension; area mode is adaptive average pooling, one dimension at a time. So the op runs
 * on every backend that has those kernels, and its gradient is autograd's (index_add for
 * the taps, the pooling's own backward for area).
 *
 * The source positions and weights are aten's (UpSample.h): area_pixel_compute_scale,
 * area_pixel_compute_source_index, nearest_idx and the cubic convolution with A = -0.75,
 * computed in float for a float32 input as aten computes them (its opmath type), in double
 * for float64. Host arithmetic of the positions is rounded to float after each step then.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-ops-private.h"

typedef enum {
  MODE_NEAREST,
  MODE_NEAREST_EXACT,
  MODE_LINEAR,
  MODE_BILINEAR,
  MODE_BICUBIC,
  MODE_TRILINEAR,
  MODE_AREA,
} InterpMode;

static const char *const mode_names[] = {
  "nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear", "area",
};

/* the value as float when @f32 (aten's float opmath for a float32 input) */
static inline double
rnd (double v, gboolean f32)
{
  return f32 ? (double) (float) v : v;
}

/* aten's compute_scales_value: 1 / scale when a scale was given, in / out otherwise */
static double
scales_value (double scale, gint64 in, gint64 out, gboolean f32)
{
  if (scale > 0)
    return rnd (1.0 / scale, f32);
  return f32 ? (double) ((float) in / (float) out) : (double) in / (double) out;
}

/* aten's area_pixel_compute_scale */
static double
pixel_scale (gint64 in, gint64 out, gboolean align_corners, double scale, gboolean f32)
{
  if (align_corners)
    {
      if (out <= 1)
        return 0;
      return f32 ? (double) ((float) (in - 1) / (float) (out - 1)) : (double) (in - 1) / (double) (out - 1);
    }
  return scales_value (scale, in, out, f32);
}

/* aten's area_pixel_compute_source_index */
static double
source_index (double scale, gint64 dst, gboolean align_corners, gboolean cubic, gboolean f32)
{
  double src;

  if (align_corners)
    return rnd (scale * (double) dst, f32);
  src = rnd (rnd (scale * rnd ((double) dst + 0.5, f32), f32) - 0.5, f32);
  return (!cubic && src < 0) ? 0 : src;
}

/* aten's guard_index_and_lambda */
static void
guard_index (double real, gint64 in, gint64 *index, double *lambda, gboolean f32)
{
  *index = MIN ((gint64) floor (real), in - 1);
  *lambda = rnd (MIN (MAX (rnd (real - (double) *index, f32), 0.0), 1.0), f32);
}

static double
cubic1 (double x, double A, gboolean f32)
{
  return rnd (rnd (rnd (rnd (rnd ((A + 2) * x, f32) - (A + 3), f32) * x, f32) * x, f32) + 1, f32);
}

static double
cubic2 (double x, double A, gboolean f32)
{
  return rnd (rnd (rnd (rnd (rnd (rnd (A * x, f32) - 5 * A, f32) * x, f32) + 8 * A, f32) * x, f32) - 4 * A, f32);
}

/* One dimension's resampling: for each of n_taps taps, out positions' source indices and
 * weights (weights NULL for the nearest modes). Returns n_taps. */
static guint
taps_for (InterpMode mode, gint64 in, gint64 out, double scale, gboolean align_corners, gboolean f32,
          gint64 *idx, double *w)
{
  const double A = -0.75;

  switch (mode)
    {
    case MODE_NEAREST:
      for (gint64 o = 0; o < out; o++)
        {
          if (out == in)
            idx[o] = o;
          else if (out == 2 * in)
            idx[o] = o >> 1;
          else
            {
              float s = (float) scales_value (scale, in, out, TRUE);
              idx[o] = MIN ((gint64) floorf ((float) o * s), in - 1);
            }
        }
      return 1;
    case MODE_NEAREST_EXACT:
      for (gint64 o = 0; o < out; o++)
        {
          float s = (float) scales_value (scale, in, out, TRUE);
          idx[o] = MIN ((gint64) floorf (((float) o + 0.5f) * s), in - 1);
        }
      return 1;
    case MODE_LINEAR:
    case MODE_BILINEAR:
    case MODE_TRILINEAR:
      {
        double s = pixel_scale (in, out, align_corners, scale, f32);
        for (gint64 o = 0; o < out; o++)
          {
            gint64 i0;
            double l1;
            guard_index (source_index (s, o, align_corners, FALSE, f32), in, &i0, &l1, f32);
            idx[o] = i0;
            idx[out + o] = i0 + (i0 < in - 1 ? 1 : 0);
            w[o] = rnd (1.0 - l1, f32);
            w[out + o] = l1;
          }
        return 2;
      }
    case MODE_BICUBIC:
      {
        double s = pixel_scale (in, out, align_corners, scale, f32);
        for (gint64 o = 0; o < out; o++)
          {
            gint64 i0;
            double t, c[4];
            guard_index (source_index (s, o, align_corners, TRUE, f32), in, &i0, &t, f32);
            c[0] = cubic2 (rnd (t + 1, f32), A, f32);
            c[1] = cubic1 (t, A, f32);
            c[2] = cubic1 (rnd (1 - t, f32), A, f32);
            c[3] = cubic2 (rnd (rnd (1 - t, f32) + 1, f32), A, f32);
            for (guint j = 0; j < 4; j++)
              {
                idx[j * out + o] = MAX (MIN (i0 + (gint64) j - 1, in - 1), 0);
                w[j * out + o] = c[j];
              }
          }
        return 4;
      }
    case MODE_AREA:
    default:
      g_assert_not_reached ();
    }
}

/* @x resampled along @dim from its size to @out */
static GnnTensor *
resample_dim (GnnTensor *x, int dim, InterpMode mode, gint64 out, double scale, gboolean align_corners,
              GError **error)
{
  guint ndim = gnn_tensor_get_ndim (x);
  const gint64 *shape = gnn_tensor_get_shape (x, NULL);
  gint64 in = shape[dim];
  gboolean f32 = gnn_tensor_get_dtype (x) != GNN_DTYPE_FLOAT64;
  g_autofree gint64 *idx = g_new (gint64, 4 * out);
  g_autofree double *w = g_new (double, 4 * out);
  g_autoptr(GnnTensor) sum = NULL;
  gint64 wshape[8];
  guint n_taps;

  if (mode == MODE_AREA)
    {
      /* adaptive average pooling of (rest, 1, in) */
      int src = dim, dst = (int) ndim - 1;
      g_autoptr(GnnTensor) moved = gnn_tensor_movedim (x, &src, 1, &dst, 1, error);
      g_autoptr(GnnTensor) flat = NULL, pooled = NULL, unflat = NULL;
      gint64 fshape[3] = { -1, 1, in }, ushape[8];

      if (moved == NULL || !(flat = gnn_tensor_reshape (moved, fshape, 3, error)) ||
          !(pooled = gnn_adaptive_avg_pool1d_internal ("interpolate", flat, out, error)))
        return NULL;
      for (guint d = 0; d < ndim; d++)
        ushape[d] = gnn_tensor_get_shape (moved, NULL)[d];
      ushape[ndim - 1] = out;
      if (!(unflat = gnn_tensor_reshape (pooled, ushape, ndim, error)))
        return NULL;
      return gnn_tensor_movedim (unflat, &dst, 1, &src, 1, error);
    }

  n_taps = taps_for (mode, in, out, scale, align_corners, f32, idx, w);
  for (guint d = 0; d < ndim; d++)
    wshape[d] = d == (guint) dim ? out : 1;
  for (guint j = 0; j < n_taps; j++)
    {
      g_autoptr(GnnTensor) index_host = gnn_tensor_new_from_int64s (idx + j * out, out, &out, 1, error);
      g_autoptr(GnnTensor) index = index_host ? gnn_tensor_to_device_of (index_host, x, error) : NULL;
      g_autoptr(GnnTensor) picked = index ? gnn_tensor_index_select (x, dim, index, error) : NULL;
      g_autoptr(GnnTensor) w64 = NULL, wd = NULL, weight = NULL, term = NULL;

      if (picked == NULL)
        return NULL;
      if (mode == MODE_NEAREST || mode == MODE_NEAREST_EXACT)
        return g_steal_pointer (&picked);
      if (!(w64 = gnn_tensor_new_from_doubles (w + j * out, out, wshape, ndim, error)) ||
          !(wd = gnn_tensor_to_dtype (w64, gnn_tensor_get_dtype (x), error)) ||
          !(weight = gnn_tensor_to_device_of (wd, x, error)) ||
          !(term = gnn_tensor_mul (picked, weight, error)))
        return NULL;
      if (sum == NULL)
        sum = g_steal_pointer (&term);
      else
        {
          GnnTensor *next = gnn_tensor_add (sum, term, 1.0, error);
          if (next == NULL)
            return NULL;
          g_object_unref (sum);
          sum = next;
        }
    }
  return g_steal_pointer (&sum);
}

static char *
shape_text (const gint64 *v, guint n)
{
  GString *s = g_string_new ("[");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", v[i]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

/**
 * gnn_tensor_interpolate:
 * @input: the input, (N, C, L), (N, C, H, W) or (N, C, D, H, W)
 * @size: (array length=n_size) (nullable): the output's spatial size, one value for every
 *   spatial dimension or one for all; %NULL to compute it from @scale_factor
 * @n_size: the number of values in @size
 * @scale_factor: (array length=n_scale_factor) (nullable): the multiplier of each spatial
 *   size, one value for every spatial dimension or one for all; %NULL when @size is given
 * @n_scale_factor: the number of values in @scale_factor
 * @mode: (nullable): "nearest" (%NULL), "nearest-exact", "linear" (3-d), "bilinear" or
 *   "bicubic" (4-d), "trilinear" (5-d) or "area"
 * @align_corners: whether the corner pixels of input and output are aligned (PyTorch's
 *   `align_corners`); only for the interpolating modes
 * @recompute_scale_factor: whether the output size computed from @scale_factor alone
 *   decides the sampling (PyTorch's `recompute_scale_factor=True`); otherwise the given
 *   scale is used. Area mode always recomputes it
 * @antialias: PyTorch's `antialias`; %TRUE is not supported yet (a %GNN_ERROR_NOT_SUPPORTED)
 * @error: return location for a #GError
 *
 * `torch.nn.functional.interpolate`: resamples the spatial dimensions of @input. Exactly
 * one of @size and @scale_factor is given; with @scale_factor the output size is
 * floor (input size × scale). The source positions are PyTorch's, so outputs and gradients
 * match `torch.nn.functional.interpolate` for the same arguments. Floating-point inputs only.
 *
 * Returns: (transfer full): the output, (N, C, *size), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_interpolate (GnnTensor    *input,
                        const gint64 *size,
                        guint         n_size,
                        const double *scale_factor,
                        guint         n_scale_factor,
                        const char   *mode,
                        gboolean      align_corners,
                        gboolean      recompute_scale_factor,
                        gboolean      antialias,
                        GError      **error)
{
  const char *name = "interpolate";
  InterpMode m = G_N_ELEMENTS (mode_names);
  guint ndim, nsp;
  const gint64 *shape;
  gint64 out[3];
  double scales[3] = { 0, 0, 0 };
  g_autoptr(GnnTensor) x = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (size != NULL || n_size == 0, NULL);
  g_return_val_if_fail (scale_factor != NULL || n_scale_factor == 0, NULL);

  if (mode == NULL)
    mode = "nearest";
  for (guint i = 0; i < G_N_ELEMENTS (mode_names); i++)
    if (strcmp (mode, mode_names[i]) == 0)
      m = i;
  if (m == G_N_ELEMENTS (mode_names))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: mode must be one of nearest, nearest-exact, linear, bilinear, bicubic, trilinear, "
                   "area, got '%s'", name, mode);
      return NULL;
    }
  ndim = gnn_tensor_get_ndim (input);
  shape = gnn_tensor_get_shape (input, NULL);
  if (ndim < 3 || ndim > 5)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: only 3D, 4D and 5D input tensors are supported (got %uD) for the modes: nearest | "
                   "linear | bilinear | bicubic | trilinear | area | nearest-exact (got %s)", name, ndim, mode);
      return NULL;
    }
  nsp = ndim - 2;
  if ((m == MODE_LINEAR && nsp != 1) || (m == MODE_BILINEAR && nsp != 2) ||
      (m == MODE_BICUBIC && nsp != 2) || (m == MODE_TRILINEAR && nsp != 3))
    {
      guint need = m == MODE_LINEAR ? 3 : m == MODE_TRILINEAR ? 5 : 4;
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: got %uD input, but %s mode needs %uD input",
                   name, ndim, mode, need);
      return NULL;
    }
  if (align_corners && (m == MODE_NEAREST || m == MODE_NEAREST_EXACT || m == MODE_AREA))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: align_corners option can only be set with the interpolating modes: linear | "
                   "bilinear | bicubic | trilinear (got %s)", name, mode);
      return NULL;
    }
  if (antialias)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s: antialias=True is not supported yet (expected antialias=False)", name);
      return NULL;
    }
  if ((n_size > 0) == (n_scale_factor > 0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, n_size > 0 ?
                   "%s: only one of size or scale_factor should be defined" :
                   "%s: either size or scale_factor should be defined", name);
      return NULL;
    }
  if ((n_size > 1 && n_size != nsp) || (n_scale_factor > 1 && n_scale_factor != nsp))
    {
      g_autofree char *in_text = shape_text (shape + 2, nsp);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: input and %s must have the same number of spatial dimensions, but got input with "
                   "spatial dimensions of %s and %s of %u values", name,
                   n_size ? "output size" : "scale_factor", in_text, n_size ? "output size" : "scale_factor",
                   n_size ? n_size : n_scale_factor);
      return NULL;
    }
  if (recompute_scale_factor && n_size > 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: recompute_scale_factor is not meaningful with an explicit size", name);
      return NULL;
    }
  if (!gnn_check_floating (name, input, error))
    return NULL;
  for (guint d = 0; d < nsp; d++)
    {
      if (n_size > 0)
        out[d] = size[n_size > 1 ? d : 0];
      else
        {
          double s = scale_factor[n_scale_factor > 1 ? d : 0];
          if (!(s > 0) || !isfinite (s))
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "%s: expected a positive finite scale_factor, got %g", name, s);
              return NULL;
            }
          if (!((double) shape[2 + d] * s < 0x1p63))   /* the cast would be undefined */
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "%s: the output size %g (input size %" G_GINT64_FORMAT " times scale_factor %g) "
                           "overflows int64", name, floor ((double) shape[2 + d] * s), shape[2 + d], s);
              return NULL;
            }
          out[d] = (gint64) floor ((double) shape[2 + d] * s);
          if (!recompute_scale_factor && m != MODE_AREA)
            scales[d] = s;
        }
    }
  for (guint d = 0; d < nsp; d++)
    if (out[d] <= 0 || shape[2 + d] <= 0)
      {
        g_autofree char *in_text = shape_text (shape + 2, nsp);
        g_autofree char *out_text = shape_text (out, nsp);
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "%s: input and output sizes should be greater than 0, but got input %s and output %s",
                     name, in_text, out_text);
        return NULL;
      }
  /* the whole output's size, and each dimension's taps (4 indices and weights per output
   * element, allocated even for an empty batch), checked before a step allocates them */
  for (guint d = 0; d < nsp; d++)
    if (out[d] > G_MAXINT64 / 4 / (gint64) sizeof (double))
      {
        g_autofree char *out_text = shape_text (out, nsp);
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: the output size %s overflows int64", name, out_text);
        return NULL;
      }
  {
    gint64 oshape[GNN_MAX_DIMS];

    memcpy (oshape, shape, ndim * sizeof (gint64));
    memcpy (oshape + 2, out, nsp * sizeof (gint64));
    if (!gnn_shape_check (name, ndim, oshape, gnn_dtype_get_size (gnn_tensor_get_dtype (input)), error))
      return NULL;
  }

  /* the last dimension first, as aten's kernels combine the taps (width, then height, then
   * depth), so that float32 results round as theirs */
  x = g_object_ref (input);
  for (guint d = nsp; d-- > 0;)
    {
      GnnTensor *next = resample_dim (x, (int) d + 2, m, out[d], scales[d], align_corners, error);
      if (next == NULL)
        return NULL;
      g_object_unref (x);
      x = next;
    }
  return g_steal_pointer (&x);
}
