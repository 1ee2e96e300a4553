/* gnn-layers-more.c: more torch.nn layers and their functional forms, each composed of
 * existing differentiable ops (their gradients come from those ops)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-args-private.h"
#include "gnn-module-private.h"
#include "gnn-props-private.h"
#include "core/gnn-tensor-private.h"
#include "ops/gnn-ops-private.h"
#include "gnn-layers.h"
#include "gnn-layers-more.h"

/* ---- shuffles -------------------------------------------------------------------------- */

/* the product of the sizes before the last @keep dimensions */
static gint64
leading_numel (const gint64 *shape, guint ndim, guint keep)
{
  gint64 n = 1;

  for (guint i = 0; i + keep < ndim; i++)
    n *= shape[i];
  return n;
}

/* @x (B..., C, H, W) seen as 6 dims @v6, permuted by @perm, reshaped to the leading dims of @x
 * followed by @tail (3 sizes) */
static GnnTensor *
regroup (GnnTensor *x, const gint64 *v6, const int *perm, const gint64 *tail, GError **error)
{
  guint nd;
  const gint64 *shape = gnn_tensor_get_shape (x, &nd);
  gint64 out[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) a = NULL, b = NULL;

  memcpy (out, shape, sizeof (gint64) * (nd - 3));
  memcpy (out + nd - 3, tail, sizeof (gint64) * 3);
  if (!(a = gnn_tensor_reshape (x, v6, 6, error)) || !(b = gnn_tensor_permute (a, perm, 6, error)))
    return NULL;
  return gnn_tensor_reshape (b, out, nd, error);
}

static gboolean
check_rank3 (const char *who, GnnTensor *x, GError **error)
{
  guint nd;

  gnn_tensor_get_shape (x, &nd);
  if (nd < 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s expects input to have at least 3 dimensions, but got input with %u dimension(s)", who, nd);
      return FALSE;
    }
  return TRUE;
}

/* What pixel_shuffle and pixel_unshuffle check first: at least 3 dimensions and a positive
 * factor; then the input read as (B, C, H, W), B all the leading dimensions. */
static gboolean
shuffle_dims (const char *name, const char *arg, GnnTensor *self, gint64 r, gint64 *B, gint64 *C, gint64 *H,
              gint64 *W, GError **error)
{
  const gint64 *s;
  guint nd;

  if (!check_rank3 (name, self, error))
    return FALSE;
  if (r <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s expects a positive %s, but got %" G_GINT64_FORMAT, name, arg, r);
      return FALSE;
    }
  s = gnn_tensor_get_shape (self, &nd);
  *B = leading_numel (s, nd, 3);
  *C = s[nd - 3]; *H = s[nd - 2]; *W = s[nd - 1];
  return TRUE;
}

/**
 * gnn_tensor_pixel_shuffle:
 * @self: the input, `(*, C·r², H, W)`
 * @upscale_factor: r, at least 1
 * @error: return location for a #GError
 *
 * `torch.nn.functional.pixel_shuffle`: rearranges `(*, C·r², H, W)` into `(*, C, H·r, W·r)`,
 * output [c, h·r + i, w·r + j] = input [c·r² + i·r + j, h, w]. It is a reshape, a permutation
 * and a reshape, so its gradient is the inverse rearrangement. This is what
 * [class@Gnn.PixelShuffle] runs.
 *
 * Returns: (transfer full): the output, or %NULL with @error set (fewer than 3 dimensions, a
 *   factor below 1, channels not divisible by r²)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_pixel_shuffle (GnnTensor *self,
                          gint64     upscale_factor,
                          GError   **error)
{
  gint64 r = upscale_factor, B, C, H, W;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!shuffle_dims ("pixel_shuffle", "upscale_factor", self, r, &B, &C, &H, &W, error))
    return NULL;
  if (C % (r * r) != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                   "upscale_factor, but input.size(-3)=%" G_GINT64_FORMAT " is not divisible by %" G_GINT64_FORMAT,
                   C, r * r);
      return NULL;
    }
  return regroup (self, (const gint64[]) { B, C / (r * r), r, r, H, W }, (const int[]) { 0, 1, 4, 2, 5, 3 },
                  (const gint64[]) { C / (r * r), H * r, W * r }, error);
}

/**
 * gnn_tensor_pixel_unshuffle:
 * @self: the input, `(*, C, H·r, W·r)`
 * @downscale_factor: r, at least 1
 * @error: return location for a #GError
 *
 * `torch.nn.functional.pixel_unshuffle`, the inverse of [method@Gnn.Tensor.pixel_shuffle]:
 * `(*, C, H·r, W·r)` into `(*, C·r², H, W)`. This is what [class@Gnn.PixelUnshuffle] runs.
 *
 * Returns: (transfer full): the output, or %NULL with @error set (fewer than 3 dimensions, a
 *   factor below 1, a height or width not divisible by r)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_pixel_unshuffle (GnnTensor *self,
                            gint64     downscale_factor,
                            GError   **error)
{
  gint64 r = downscale_factor, B, C, H, W;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!shuffle_dims ("pixel_unshuffle", "downscale_factor", self, r, &B, &C, &H, &W, error))
    return NULL;
  if (H % r != 0 || W % r != 0)
    {
      gboolean h = H % r != 0;

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "pixel_unshuffle expects %s to be divisible by downscale_factor, but input.size(%d)=%"
                   G_GINT64_FORMAT " is not divisible by %" G_GINT64_FORMAT,
                   h ? "height" : "width", h ? -2 : -1, h ? H : W, r);
      return NULL;
    }
  return regroup (self, (const gint64[]) { B, C, H / r, r, W / r, r }, (const int[]) { 0, 1, 3, 5, 2, 4 },
                  (const gint64[]) { C * r * r, H / r, W / r }, error);
}

/**
 * gnn_tensor_channel_shuffle:
 * @self: the input, (N, C, *) with at least 3 dimensions
 * @groups: g, at least 1, dividing C
 * @error: return location for a #GError
 *
 * `torch.nn.functional.channel_shuffle`: the channels, seen as (g, C / g), are transposed
 * to (C / g, g): output channel i · g + j is input channel j · (C / g) + i. This is what
 * [class@Gnn.ChannelShuffle] runs.
 *
 * Returns: (transfer full): the output, of the input's shape, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_channel_shuffle (GnnTensor *self,
                            gint64     groups,
                            GError   **error)
{
  const gint64 *s;
  guint nd;
  gint64 rest;
  g_autoptr(GnnTensor) a = NULL, b = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  s = gnn_tensor_get_shape (self, &nd);
  if (nd < 3)
    {
      g_autofree char *got = gnn_shape_to_string (nd, s);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "channel_shuffle expects input with > 2 dims, but got input with sizes %s", got);
      return NULL;
    }
  if (groups <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Number of groups to divide channels in must be positive. Value of groups:%" G_GINT64_FORMAT,
                   groups);
      return NULL;
    }
  if (s[1] % groups != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Number of channels must be divisible by groups. Got %" G_GINT64_FORMAT " channels and %"
                   G_GINT64_FORMAT " groups.", s[1], groups);
      return NULL;
    }
  rest = leading_numel (s, nd, 0) / MAX (s[0] * s[1], 1);
  if (s[0] * s[1] == 0)
    rest = 0;
  if (!(a = gnn_tensor_reshape (self, (const gint64[]) { s[0], groups, s[1] / groups, rest }, 4, error)) ||
      !(b = gnn_tensor_transpose (a, 1, 2, error)))
    return NULL;
  return gnn_tensor_reshape (b, s, nd, error);
}

/* The three shuffle layers share this struct and one implementation; they differ in the
 * property's name and the function they run. */
typedef struct
{
  GnnModule parent_instance;
  int factor;
} Shuffle;

struct _GnnPixelShuffle { Shuffle s; };
struct _GnnPixelUnshuffle { Shuffle s; };
struct _GnnChannelShuffle { Shuffle s; };

G_DEFINE_FINAL_TYPE (GnnPixelShuffle, gnn_pixel_shuffle, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnPixelUnshuffle, gnn_pixel_unshuffle, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnChannelShuffle, gnn_channel_shuffle, GNN_TYPE_MODULE)

enum { SHUFFLE_PROP_0, SHUFFLE_PROP_FACTOR, SHUFFLE_N_PROPS };

static GnnProp pixel_shuffle_props[SHUFFLE_N_PROPS], pixel_unshuffle_props[SHUFFLE_N_PROPS],
               channel_shuffle_props[SHUFFLE_N_PROPS];

static GnnArgs *
shuffle_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  int factor = ((Shuffle *) module)->factor;
  const char *name = gnn_module_get_name (module);
  GnnTensor *x = gnn_args_first_tensor (input, name, error);

  if (x == NULL)
    return NULL;
  if (GNN_IS_PIXEL_SHUFFLE (module))
    return gnn_args_take_tensor_or_prefix (gnn_tensor_pixel_shuffle (x, factor, error), name, error);
  if (GNN_IS_PIXEL_UNSHUFFLE (module))
    return gnn_args_take_tensor_or_prefix (gnn_tensor_pixel_unshuffle (x, factor, error), name, error);
  return gnn_args_take_tensor_or_prefix (gnn_tensor_channel_shuffle (x, factor, error), name, error);
}

static char *
shuffle_extra_repr (GnnModule *module)
{
  const char *what = GNN_IS_PIXEL_SHUFFLE (module) ? "upscale_factor"
                     : GNN_IS_PIXEL_UNSHUFFLE (module) ? "downscale_factor" : "groups";

  return g_strdup_printf ("%s=%d", what, ((Shuffle *) module)->factor);
}

static void
shuffle_class_init (GObjectClass *klass, GnnProp *props, const char *property)
{
  GNN_MODULE_CLASS (klass)->forward = shuffle_forward;
  GNN_MODULE_CLASS (klass)->extra_repr = shuffle_extra_repr;
  props[SHUFFLE_PROP_FACTOR] = (GnnProp) {
    g_param_spec_int (property, NULL, NULL, G_MININT, G_MAXINT, 1, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (Shuffle, factor) };
  gnn_props_install (klass, props, SHUFFLE_N_PROPS);
}

/**
 * GnnPixelShuffle:
 *
 * Rearranges `(*, C·r², H, W)` into `(*, C, H·r, W·r)`, as `torch.nn.PixelShuffle`, through
 * [method@Gnn.Tensor.pixel_shuffle]. It has no parameters and prints as torch's:
 * "PixelShuffle(upscale_factor=2)"; a bad factor or input is refused when it runs.
 *
 * Since: 0.1
 */

/**
 * GnnPixelShuffle:upscale-factor:
 *
 * The factor r of the spatial sizes (`upscale_factor`).
 *
 * Since: 0.1
 */
static void
gnn_pixel_shuffle_class_init (GnnPixelShuffleClass *klass)
{
  shuffle_class_init (G_OBJECT_CLASS (klass), pixel_shuffle_props, "upscale-factor");
}

static void
gnn_pixel_shuffle_init (GnnPixelShuffle *self)
{
}

/**
 * gnn_pixel_shuffle_new:
 * @upscale_factor: the factor r of the spatial sizes
 *
 * Creates `nn.PixelShuffle (upscale_factor)`.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnPixelShuffle *
gnn_pixel_shuffle_new (int upscale_factor)
{
  return g_object_new (GNN_TYPE_PIXEL_SHUFFLE, "upscale-factor", upscale_factor, NULL);
}

/**
 * GnnPixelUnshuffle:
 *
 * Rearranges `(*, C, H·r, W·r)` into `(*, C·r², H, W)`, as `torch.nn.PixelUnshuffle`, through
 * [method@Gnn.Tensor.pixel_unshuffle]. It has no parameters and prints as torch's:
 * "PixelUnshuffle(downscale_factor=2)".
 *
 * Since: 0.1
 */

/**
 * GnnPixelUnshuffle:downscale-factor:
 *
 * The factor r the spatial sizes are divided by (`downscale_factor`).
 *
 * Since: 0.1
 */
static void
gnn_pixel_unshuffle_class_init (GnnPixelUnshuffleClass *klass)
{
  shuffle_class_init (G_OBJECT_CLASS (klass), pixel_unshuffle_props, "downscale-factor");
}

static void
gnn_pixel_unshuffle_init (GnnPixelUnshuffle *self)
{
}

/**
 * gnn_pixel_unshuffle_new:
 * @downscale_factor: the factor r the spatial sizes are divided by
 *
 * Creates `nn.PixelUnshuffle (downscale_factor)`.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnPixelUnshuffle *
gnn_pixel_unshuffle_new (int downscale_factor)
{
  return g_object_new (GNN_TYPE_PIXEL_UNSHUFFLE, "downscale-factor", downscale_factor, NULL);
}

/**
 * GnnChannelShuffle:
 *
 * Shuffles the channels of `(N, C, *)` in g groups, as `torch.nn.ChannelShuffle`,
 * through [method@Gnn.Tensor.channel_shuffle]. It has no parameters and prints as torch's:
 * "ChannelShuffle(groups=2)".
 *
 * Since: 0.1
 */

/**
 * GnnChannelShuffle:groups:
 *
 * The number of groups the channels are split into (`groups`).
 *
 * Since: 0.1
 */
static void
gnn_channel_shuffle_class_init (GnnChannelShuffleClass *klass)
{
  shuffle_class_init (G_OBJECT_CLASS (klass), channel_shuffle_props, "groups");
}

static void
gnn_channel_shuffle_init (GnnChannelShuffle *self)
{
}

/**
 * gnn_channel_shuffle_new:
 * @groups: the number of groups the channels are split into
 *
 * Creates `nn.ChannelShuffle (groups)`.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnChannelShuffle *
gnn_channel_shuffle_new (int groups)
{
  return g_object_new (GNN_TYPE_CHANNEL_SHUFFLE, "groups", groups, NULL);
}

/* ---- shared helpers ------------------------------------------------------------------- */

static const char *
py_bool (gboolean b)
{
  return b ? "True" : "False";
}

static GVariant *
int64s_variant (const gint64 *values, gsize n)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, values, n, sizeof (gint64));
}

/* @n sizes of an "ax" property (one value for all, or @n), @fallback's when it is NULL or
 * empty (the value @dflt when that is NULL too); FALSE with @error naming @arg otherwise */
static gboolean
sizes_of (const char *name, const char *arg, GVariant *v, GVariant *fallback, gint64 dflt, guint n,
          gint64 *out, GError **error)
{
  gsize len = 0;
  const gint64 *given = gnn_prop_int64s (v, &len);

  if (len == 0 && fallback)
    given = gnn_prop_int64s (fallback, &len);
  if (len == 0)
    {
      for (guint i = 0; i < n; i++)
        out[i] = dflt;
      return TRUE;
    }
  if (len != 1 && len != n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: %s must be one value or %u values, got %" G_GSIZE_FORMAT, name, arg, n, len);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    out[i] = given[len == 1 ? 0 : i];
  return TRUE;
}

/* an "ax" property as Python prints what torch stored: "2" for one value (unless @tuple),
 * "(1, 2)" (-1 as None), @none when NULL */
static void
append_sizes (GString *s, GVariant *v, const char *none, gboolean tuple)
{
  gsize n = 0;
  const gint64 *x = gnn_prop_int64s (v, &n);

  if (n == 0)
    {
      g_string_append (s, none);
      return;
    }
  if (n == 1 && !tuple)
    {
      g_string_append_printf (s, "%" G_GINT64_FORMAT, x[0]);
      return;
    }
  g_string_append_c (s, '(');
  for (gsize i = 0; i < n; i++)
    {
      if (x[i] < 0)
        g_string_append_printf (s, "%sNone", i ? ", " : "");
      else
        g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", x[i]);
    }
  g_string_append (s, n == 1 ? ",)" : ")");
}

/* ---- Fold, Unfold ---------------------------------------------------------------------- */

/* both layers: the output size (Fold only) and the four sizes of the blocks */
typedef struct
{
  GnnModule parent_instance;
  GVariant *output_size, *kernel_size, *dilation, *padding, *stride;
} Sliding;

struct _GnnUnfold { Sliding s; };
struct _GnnFold { Sliding s; };

G_DEFINE_FINAL_TYPE (GnnUnfold, gnn_unfold, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnFold, gnn_fold, GNN_TYPE_MODULE)

enum {
  SL_PROP_0,
  SL_PROP_OUTPUT_SIZE,
  SL_PROP_KERNEL_SIZE,
  SL_PROP_DILATION,
  SL_PROP_PADDING,
  SL_PROP_STRIDE,
  SL_N_PROPS
};

static GnnProp unfold_props[SL_N_PROPS], fold_props[SL_N_PROPS];

static GnnArgs *
sliding_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  Sliding *self = (Sliding *) module;
  gboolean fold = GNN_IS_FOLD (module);
  const char *name = fold ? "Fold" : "Unfold";
  GnnTensor *x = gnn_args_first_tensor (input, name, error);
  gint64 o[2], k[2], d[2], p[2], s[2];

  if (x == NULL)
    return NULL;
  if ((fold && !sizes_of (name, "output_size", self->output_size, NULL, 0, 2, o, error)) ||
      !sizes_of (name, "kernel_size", self->kernel_size, NULL, 0, 2, k, error) ||
      !sizes_of (name, "dilation", self->dilation, NULL, 1, 2, d, error) ||
      !sizes_of (name, "padding", self->padding, NULL, 0, 2, p, error) ||
      !sizes_of (name, "stride", self->stride, NULL, 1, 2, s, error))
    return NULL;
  if (fold)
    return gnn_args_take_tensor_or_prefix (gnn_tensor_col2im (x, o, k, d, p, s, error), name, error);
  return gnn_args_take_tensor_or_prefix (gnn_tensor_im2col (x, k, d, p, s, error), name, error);
}

static char *
sliding_extra_repr (GnnModule *module)
{
  Sliding *self = (Sliding *) module;
  GString *s = g_string_new (NULL);

  if (GNN_IS_FOLD (module))
    {
      g_string_append (s, "output_size=");
      append_sizes (s, self->output_size, "0", FALSE);
      g_string_append (s, ", ");
    }
  g_string_append (s, "kernel_size=");
  append_sizes (s, self->kernel_size, "0", FALSE);
  g_string_append (s, ", dilation=");
  append_sizes (s, self->dilation, "1", FALSE);
  g_string_append (s, ", padding=");
  append_sizes (s, self->padding, "0", FALSE);
  g_string_append (s, ", stride=");
  append_sizes (s, self->stride, "1", FALSE);
  return g_string_free (s, FALSE);
}

static void
sliding_class_init (GObjectClass *klass, GnnProp *props, gboolean fold)
{
  GParamFlags co = GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY;

  GNN_MODULE_CLASS (klass)->forward = sliding_forward;
  GNN_MODULE_CLASS (klass)->extra_repr = sliding_extra_repr;
  if (fold)
    props[SL_PROP_OUTPUT_SIZE] = (GnnProp) {
      gnn_param_spec_int64s ("output-size", co), G_STRUCT_OFFSET (Sliding, output_size) };
  props[SL_PROP_KERNEL_SIZE] = (GnnProp) {
    gnn_param_spec_int64s ("kernel-size", co), G_STRUCT_OFFSET (Sliding, kernel_size) };
  props[SL_PROP_DILATION] = (GnnProp) {
    gnn_param_spec_int64s ("dilation", co), G_STRUCT_OFFSET (Sliding, dilation) };
  props[SL_PROP_PADDING] = (GnnProp) {
    gnn_param_spec_int64s ("padding", co), G_STRUCT_OFFSET (Sliding, padding) };
  props[SL_PROP_STRIDE] = (GnnProp) {
    gnn_param_spec_int64s ("stride", co), G_STRUCT_OFFSET (Sliding, stride) };
  gnn_props_install (klass, props, SL_N_PROPS);
}

/**
 * GnnUnfold:
 *
 * The sliding blocks of (N, C, H, W) as columns (N, C·kh·kw, L), as `torch.nn.Unfold`,
 * through [method@Gnn.Tensor.im2col]. Its construct-only properties are torch's arguments,
 * each a #GVariant "ax" of one value for both dimensions or two: `kernel-size`, `dilation`
 * (%NULL: 1), `padding` (%NULL: 0), `stride` (%NULL: 1). It has no parameters and prints as
 * torch's: "Unfold(kernel_size=2, dilation=1, padding=0, stride=1)".
 *
 * Since: 0.1
 */

/**
 * GnnUnfold:kernel-size:
 *
 * The block size (`kernel_size`), one or two values.
 *
 * Since: 0.1
 */

/**
 * GnnUnfold:dilation:
 *
 * The spacing of a block's elements (`dilation`), one or two values; %NULL for 1.
 *
 * Since: 0.1
 */

/**
 * GnnUnfold:padding:
 *
 * The zeros added on both sides of each spatial dimension (`padding`), one or two values;
 * %NULL for 0.
 *
 * Since: 0.1
 */

/**
 * GnnUnfold:stride:
 *
 * The step between blocks (`stride`), one or two values; %NULL for 1.
 *
 * Since: 0.1
 */
static void
gnn_unfold_class_init (GnnUnfoldClass *klass)
{
  sliding_class_init (G_OBJECT_CLASS (klass), unfold_props, FALSE);
}

static void
gnn_unfold_init (GnnUnfold *self)
{
}

/**
 * gnn_unfold_new:
 * @kernel_size: (array fixed-size=2): the block size
 * @dilation: (array fixed-size=2): the spacing of a block's elements
 * @padding: (array fixed-size=2): the zeros added on both sides
 * @stride: (array fixed-size=2): the step between blocks
 *
 * Creates `nn.Unfold (kernel_size, dilation, padding, stride)`; the sizes are checked when
 * the layer runs.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnUnfold *
gnn_unfold_new (const gint64 *kernel_size,
                const gint64 *dilation,
                const gint64 *padding,
                const gint64 *stride)
{
  g_return_val_if_fail (kernel_size && dilation && padding && stride, NULL);
  return g_object_new (GNN_TYPE_UNFOLD, "kernel-size", int64s_variant (kernel_size, 2),
                       "dilation", int64s_variant (dilation, 2), "padding", int64s_variant (padding, 2),
                       "stride", int64s_variant (stride, 2), NULL);
}

/**
 * GnnFold:
 *
 * Columns (N, C·kh·kw, L) summed back into (N, C, H, W), as `torch.nn.Fold`, through
 * [method@Gnn.Tensor.col2im]. Its construct-only properties are torch's arguments, each a
 * #GVariant "ax" of one value for both dimensions or two: `output-size`, then those of
 * [class@Gnn.Unfold]. It has no parameters and prints as torch's:
 * "Fold(output_size=(4, 5), kernel_size=2, dilation=1, padding=0, stride=1)".
 *
 * Since: 0.1
 */

/**
 * GnnFold:output-size:
 *
 * The spatial size (H, W) of the output (`output_size`), one or two values.
 *
 * Since: 0.1
 */

/**
 * GnnFold:kernel-size:
 *
 * The block size (`kernel_size`), one or two values.
 *
 * Since: 0.1
 */

/**
 * GnnFold:dilation:
 *
 * The spacing of a block's elements (`dilation`), one or two values; %NULL for 1.
 *
 * Since: 0.1
 */

/**
 * GnnFold:padding:
 *
 * The zeros added on both sides of each spatial dimension (`padding`), one or two values;
 * %NULL for 0.
 *
 * Since: 0.1
 */

/**
 * GnnFold:stride:
 *
 * The step between blocks (`stride`), one or two values; %NULL for 1.
 *
 * Since: 0.1
 */
static void
gnn_fold_class_init (GnnFoldClass *klass)
{
  sliding_class_init (G_OBJECT_CLASS (klass), fold_props, TRUE);
}

static void
gnn_fold_init (GnnFold *self)
{
}

/**
 * gnn_fold_new:
 * @output_size: (array fixed-size=2): the spatial size of the output
 * @kernel_size: (array fixed-size=2): the block size
 * @dilation: (array fixed-size=2): the spacing of a block's elements
 * @padding: (array fixed-size=2): the zeros added on both sides
 * @stride: (array fixed-size=2): the step between blocks
 *
 * Creates `nn.Fold (output_size, kernel_size, dilation, padding, stride)`; the sizes are
 * checked when the layer runs.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnFold *
gnn_fold_new (const gint64 *output_size,
              const gint64 *kernel_size,
              const gint64 *dilation,
              const gint64 *padding,
              const gint64 *stride)
{
  g_return_val_if_fail (output_size && kernel_size && dilation && padding && stride, NULL);
  return g_object_new (GNN_TYPE_FOLD, "output-size", int64s_variant (output_size, 2),
                       "kernel-size", int64s_variant (kernel_size, 2), "dilation", int64s_variant (dilation, 2),
                       "padding", int64s_variant (padding, 2), "stride", int64s_variant (stride, 2), NULL);
}

/* ---- InstanceNorm1d/2d/3d -------------------------------------------------------------- */

/**
 * GnnInstanceNorm:
 *
 * The base of [class@Gnn.InstanceNorm1d], [class@Gnn.InstanceNorm2d] and
 * [class@Gnn.InstanceNorm3d], as PyTorch's `_InstanceNorm`: each (sample, channel) plane is
 * normalised over its own elements, y = (x - E[x]) / √(Var[x] + eps) · weight + bias,
 * through [method@Gnn.Tensor.instance_norm]. An unbatched input (one dimension fewer) is
 * read as a batch of one.
 *
 * With [property@Gnn.InstanceNorm:affine] (default %FALSE, as torch's) the layer holds
 * `weight` (ones) and `bias` (zeros), of shape (num_features). With
 * [property@Gnn.InstanceNorm:track-running-stats] (default %FALSE) it holds the persistent
 * buffers `running_mean` (zeros), `running_var` (ones) and `num_batches_tracked` (an int64
 * 0, never incremented, as torch's); in training mode the running statistics move towards
 * the mean over the batch of the instances' statistics with weight
 * [property@Gnn.InstanceNorm:momentum], and in evaluation mode they are used instead of the
 * instances' own. Without tracking, both modes use the instances' statistics.
 *
 * PyTorch's `momentum=None` ([property@Gnn.InstanceNorm:cumulative-average]) is accepted
 * by the constructor and, as in torch 1.13, refused when the layer runs.
 *
 * Since: 0.1
 */
typedef struct
{
  int num_features;
  double eps;
  double momentum;
  gboolean cumulative_average;
  gboolean affine;
  gboolean track_running_stats;
} GnnInstanceNormPrivate;

enum {
  IN_PROP_0,
  IN_PROP_NUM_FEATURES,
  IN_PROP_EPS,
  IN_PROP_MOMENTUM,
  IN_PROP_CUMULATIVE_AVERAGE,
  IN_PROP_AFFINE,
  IN_PROP_TRACK_RUNNING_STATS,
  IN_N_PROPS
};

static GnnProp in_props[IN_N_PROPS];

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GnnInstanceNorm, gnn_instance_norm, GNN_TYPE_MODULE)

struct _GnnInstanceNorm1d { GnnInstanceNorm parent_instance; };
struct _GnnInstanceNorm2d { GnnInstanceNorm parent_instance; };
struct _GnnInstanceNorm3d { GnnInstanceNorm parent_instance; };

G_DEFINE_FINAL_TYPE (GnnInstanceNorm1d, gnn_instance_norm1d, GNN_TYPE_INSTANCE_NORM)
G_DEFINE_FINAL_TYPE (GnnInstanceNorm2d, gnn_instance_norm2d, GNN_TYPE_INSTANCE_NORM)
G_DEFINE_FINAL_TYPE (GnnInstanceNorm3d, gnn_instance_norm3d, GNN_TYPE_INSTANCE_NORM)

/* the number of spatial dimensions of the subclass */
static guint
in_spatial_dims (GnnInstanceNorm *self)
{
  return GNN_IS_INSTANCE_NORM1D (self) ? 1 : GNN_IS_INSTANCE_NORM2D (self) ? 2 : 3;
}

static gboolean
in_register (GnnModule *module, const char *name, gboolean create, gboolean buffer, GnnTensor *t,
             GError **error)
{
  g_autoptr(GnnTensor) owned = t;
  g_autoptr(GnnParameter) p = NULL;

  if (create && t == NULL)
    return FALSE;
  if (buffer)
    return gnn_module_register_buffer (module, name, create ? t : NULL, TRUE, error);
  if (create && !(p = gnn_parameter_new (t, TRUE, error)))
    return FALSE;
  return gnn_module_register_parameter (module, name, p, error);
}

static gboolean
gnn_instance_norm_setup (GnnModule *module,
                         GError   **error)
{
  GnnInstanceNormPrivate *priv = gnn_instance_norm_get_instance_private (GNN_INSTANCE_NORM (module));
  gint64 shape[1] = { priv->num_features };
  GnnDtype dtype = gnn_module_dtype (module);
  gboolean a = priv->affine, t = priv->track_running_stats;

  if (!GNN_MODULE_CLASS (gnn_instance_norm_parent_class)->setup (module, error))
    return FALSE;
  return in_register (module, "weight", a, FALSE, a ? gnn_tensor_new_ones (shape, 1, dtype, NULL, error) : NULL, error) &&
         in_register (module, "bias", a, FALSE, a ? gnn_tensor_new_zeros (shape, 1, dtype, NULL, error) : NULL, error) &&
         in_register (module, "running_mean", t, TRUE,
                      t ? gnn_tensor_new_zeros (shape, 1, dtype, NULL, error) : NULL, error) &&
         in_register (module, "running_var", t, TRUE,
                      t ? gnn_tensor_new_ones (shape, 1, dtype, NULL, error) : NULL, error) &&
         in_register (module, "num_batches_tracked", t, TRUE,
                      t ? gnn_tensor_new_scalar (0, GNN_DTYPE_INT64, NULL, error) : NULL, error);
}

static GnnArgs *
gnn_instance_norm_forward (GnnModule *module,
                           GnnArgs   *input,
                           GError   **error)
{
  GnnInstanceNorm *self = GNN_INSTANCE_NORM (module);
  GnnInstanceNormPrivate *priv = gnn_instance_norm_get_instance_private (self);
  const char *name = gnn_module_get_name (module);
  guint sd = in_spatial_dims (self), ndim;
  const gint64 *shape;
  gboolean batched;
  g_autoptr(GnnTensor) x = NULL, y = NULL;
  GnnTensor *given = gnn_args_first_tensor (input, name, error);

  if (given == NULL)
    return NULL;
  shape = gnn_tensor_get_shape (given, &ndim);
  if (ndim != sd + 1 && ndim != sd + 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: expected %uD or %uD input (got %uD input)", name,
                   sd + 1, sd + 2, ndim);
      return NULL;
    }
  batched = ndim == sd + 2;
  if ((priv->affine || priv->track_running_stats) && shape[batched ? 1 : 0] != priv->num_features)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected input's size at dim=%d to match num_features (%d), but got: %" G_GINT64_FORMAT ".",
                   name, batched ? 1 : 0, priv->num_features, shape[batched ? 1 : 0]);
      return NULL;
    }
  if (priv->cumulative_average && priv->track_running_stats)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: momentum=None (a cumulative average) is not supported: instance_norm takes a float "
                   "momentum, as torch 1.13's does", name);
      return NULL;
    }
  x = batched ? g_object_ref (given) : gnn_tensor_unsqueeze (given, 0, error);
  if (x == NULL)
    return NULL;
  y = gnn_tensor_instance_norm (x, gnn_module_tensor (module, "running_mean", FALSE, NULL),
                                gnn_module_tensor (module, "running_var", FALSE, NULL),
                                gnn_module_tensor (module, "weight", FALSE, NULL),
                                gnn_module_tensor (module, "bias", FALSE, NULL),
                                gnn_module_get_training (module) || !priv->track_running_stats,
                                priv->momentum, priv->eps, error);
  if (y == NULL)
    {
      g_prefix_error (error, "%s: ", name);
      return NULL;
    }
  if (!batched)
    return gnn_args_take_tensor_or_prefix (gnn_tensor_squeeze_dim (y, 0, error), name, error);
  return gnn_args_take_tensor (g_steal_pointer (&y));
}

static char *
gnn_instance_norm_extra_repr (GnnModule *module)
{
  GnnInstanceNormPrivate *priv = gnn_instance_norm_get_instance_private (GNN_INSTANCE_NORM (module));
  g_autofree char *eps = gnn_python_float_repr (priv->eps);
  g_autofree char *momentum = priv->cumulative_average ? g_strdup ("None") : gnn_python_float_repr (priv->momentum);

  return g_strdup_printf ("%d, eps=%s, momentum=%s, affine=%s, track_running_stats=%s", priv->num_features, eps,
                          momentum, py_bool (priv->affine), py_bool (priv->track_running_stats));
}

static void
gnn_instance_norm_class_init (GnnInstanceNormClass *klass)
{
  GParamFlags co = GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY, c = GNN_PARAM_RW | G_PARAM_CONSTRUCT;
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_instance_norm_setup;
  module_class->forward = gnn_instance_norm_forward;
  module_class->extra_repr = gnn_instance_norm_extra_repr;

  /**
   * GnnInstanceNorm:num-features:
   *
   * The number of channels C of the input (`num_features`).
   *
   * Since: 0.1
   */
  in_props[IN_PROP_NUM_FEATURES] = (GnnProp) {
    g_param_spec_int ("num-features", NULL, NULL, G_MININT, G_MAXINT, 0, co),
    G_PRIVATE_OFFSET (GnnInstanceNorm, num_features), gnn_prop_check_size };

  /**
   * GnnInstanceNorm:eps:
   *
   * The value added to the variance for numerical stability (`eps`).
   *
   * Since: 0.1
   */
  in_props[IN_PROP_EPS] = (GnnProp) {
    g_param_spec_double ("eps", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 1e-5, c),
    G_PRIVATE_OFFSET (GnnInstanceNorm, eps), gnn_prop_check_non_negative };

  /**
   * GnnInstanceNorm:momentum:
   *
   * The weight of the instances' statistics in the update of the running ones (`momentum`).
   *
   * Since: 0.1
   */
  in_props[IN_PROP_MOMENTUM] = (GnnProp) {
    g_param_spec_double ("momentum", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.1, c),
    G_PRIVATE_OFFSET (GnnInstanceNorm, momentum) };

  /**
   * GnnInstanceNorm:cumulative-average:
   *
   * PyTorch's `momentum=None`: printed as "momentum=None", refused when the layer runs with
   * running statistics, as torch 1.13 refuses it.
   *
   * Since: 0.1
   */
  in_props[IN_PROP_CUMULATIVE_AVERAGE] = (GnnProp) {
    g_param_spec_boolean ("cumulative-average", NULL, NULL, FALSE, c),
    G_PRIVATE_OFFSET (GnnInstanceNorm, cumulative_average) };

  /**
   * GnnInstanceNorm:affine:
   *
   * Whether the layer learns `weight` and `bias` (`affine`; %FALSE by default, as torch's).
   *
   * Since: 0.1
   */
  in_props[IN_PROP_AFFINE] = (GnnProp) {
    g_param_spec_boolean ("affine", NULL, NULL, FALSE, co), G_PRIVATE_OFFSET (GnnInstanceNorm, affine) };

  /**
   * GnnInstanceNorm:track-running-stats:
   *
   * Whether the layer keeps running statistics and uses them in evaluation mode
   * (`track_running_stats`; %FALSE by default, as torch's).
   *
   * Since: 0.1
   */
  in_props[IN_PROP_TRACK_RUNNING_STATS] = (GnnProp) {
    g_param_spec_boolean ("track-running-stats", NULL, NULL, FALSE, co),
    G_PRIVATE_OFFSET (GnnInstanceNorm, track_running_stats) };

  gnn_props_install (G_OBJECT_CLASS (klass), in_props, IN_N_PROPS);
  gnn_module_class_uses_dtype (module_class);
}

static void
gnn_instance_norm_init (GnnInstanceNorm *self)
{
}

static gpointer
in_new (GType type, int num_features, double eps, double momentum, gboolean affine, gboolean track_running_stats,
        GnnDtype dtype, GError **error)
{
  gboolean none = isnan (momentum);

  return gnn_module_new_or_error (error, type, "num-features", num_features, "eps", eps,
                                  "momentum", none ? 0.1 : momentum, "cumulative-average", none,
                                  "affine", affine, "track-running-stats", track_running_stats,
                                  "dtype", dtype, NULL);
}

/**
 * GnnInstanceNorm1d:
 *
 * Instance normalisation of (N, C, L) or unbatched (C, L), as `torch.nn.InstanceNorm1d`;
 * see [class@Gnn.InstanceNorm]. It prints as torch's:
 * "InstanceNorm1d(3, eps=1e-05, momentum=0.1, affine=False, track_running_stats=False)".
 *
 * Since: 0.1
 */
static void
gnn_instance_norm1d_class_init (GnnInstanceNorm1dClass *klass)
{
}

static void
gnn_instance_norm1d_init (GnnInstanceNorm1d *self)
{
}

/**
 * gnn_instance_norm1d_new:
 * @num_features: the number of channels C, at least 0
 * @eps: the value added to the variance
 * @momentum: the momentum of the running statistics; NaN for PyTorch's None
 * @affine: whether the layer learns weight and bias
 * @track_running_stats: whether the layer keeps running statistics
 * @dtype: the floating-point element type of the parameters and statistics
 * @error: return location for a #GError
 *
 * Creates `nn.InstanceNorm1d (num_features, eps, momentum, affine, track_running_stats,
 * dtype=dtype)` (torch's defaults: 1e-5, 0.1, %FALSE, %FALSE, float32).
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnInstanceNorm1d *
gnn_instance_norm1d_new (int num_features, double eps, double momentum, gboolean affine,
                         gboolean track_running_stats, GnnDtype dtype, GError **error)
{
  return in_new (GNN_TYPE_INSTANCE_NORM1D, num_features, eps, momentum, affine, track_running_stats, dtype, error);
}

/**
 * GnnInstanceNorm2d:
 *
 * Instance normalisation of (N, C, H, W) or unbatched (C, H, W), as
 * `torch.nn.InstanceNorm2d`; see [class@Gnn.InstanceNorm]. It prints as torch's:
 * "InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=False, track_running_stats=False)".
 *
 * Since: 0.1
 */
static void
gnn_instance_norm2d_class_init (GnnInstanceNorm2dClass *klass)
{
}

static void
gnn_instance_norm2d_init (GnnInstanceNorm2d *self)
{
}

/**
 * gnn_instance_norm2d_new:
 * @num_features: the number of channels C, at least 0
 * @eps: the value added to the variance
 * @momentum: the momentum of the running statistics; NaN for PyTorch's None
 * @affine: whether the layer learns weight and bias
 * @track_running_stats: whether the layer keeps running statistics
 * @dtype: the floating-point element type of the parameters and statistics
 * @error: return location for a #GError
 *
 * Creates `nn.InstanceNorm2d (num_features, eps, momentum, affine, track_running_stats,
 * dtype=dtype)`.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnInstanceNorm2d *
gnn_instance_norm2d_new (int num_features, double eps, double momentum, gboolean affine,
                         gboolean track_running_stats, GnnDtype dtype, GError **error)
{
  return in_new (GNN_TYPE_INSTANCE_NORM2D, num_features, eps, momentum, affine, track_running_stats, dtype, error);
}

/**
 * GnnInstanceNorm3d:
 *
 * Instance normalisation of (N, C, D, H, W) or unbatched (C, D, H, W), as
 * `torch.nn.InstanceNorm3d`; see [class@Gnn.InstanceNorm]. It prints as torch's:
 * "InstanceNorm3d(3, eps=1e-05, momentum=0.1, affine=False, track_running_stats=False)".
 *
 * Since: 0.1
 */
static void
gnn_instance_norm3d_class_init (GnnInstanceNorm3dClass *klass)
{
}

static void
gnn_instance_norm3d_init (GnnInstanceNorm3d *self)
{
}

/**
 * gnn_instance_norm3d_new:
 * @num_features: the number of channels C, at least 0
 * @eps: the value added to the variance
 * @momentum: the momentum of the running statistics; NaN for PyTorch's None
 * @affine: whether the layer learns weight and bias
 * @track_running_stats: whether the layer keeps running statistics
 * @dtype: the floating-point element type of the parameters and statistics
 * @error: return location for a #GError
 *
 * Creates `nn.InstanceNorm3d (num_features, eps, momentum, affine, track_running_stats,
 * dtype=dtype)`.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnInstanceNorm3d *
gnn_instance_norm3d_new (int num_features, double eps, double momentum, gboolean affine,
                         gboolean track_running_stats, GnnDtype dtype, GError **error)
{
  return in_new (GNN_TYPE_INSTANCE_NORM3D, num_features, eps, momentum, affine, track_running_stats, dtype, error);
}

/* ---- LPPool1d/2d ----------------------------------------------------------------------- */

typedef struct
{
  GnnModule parent_instance;
  double norm_type;
  GVariant *kernel_size, *stride;
  gboolean ceil_mode;
} LPPool;

struct _GnnLPPool1d { LPPool p; };
struct _GnnLPPool2d { LPPool p; };

G_DEFINE_FINAL_TYPE (GnnLPPool1d, gnn_lp_pool1d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnLPPool2d, gnn_lp_pool2d, GNN_TYPE_MODULE)

enum { LP_PROP_0, LP_PROP_NORM_TYPE, LP_PROP_KERNEL_SIZE, LP_PROP_STRIDE, LP_PROP_CEIL_MODE, LP_N_PROPS };

static GnnProp lp1_props[LP_N_PROPS], lp2_props[LP_N_PROPS];

static GnnArgs *
lp_pool_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  LPPool *self = (LPPool *) module;
  gboolean one = GNN_IS_LP_POOL1D (module);
  const char *name = one ? "LPPool1d" : "LPPool2d";
  GnnTensor *x = gnn_args_first_tensor (input, name, error);
  gint64 k[2], st[2];

  if (x == NULL)
    return NULL;
  if (!sizes_of (name, "kernel_size", self->kernel_size, NULL, 0, one ? 1 : 2, k, error) ||
      !sizes_of (name, "stride", self->stride, self->kernel_size, 0, one ? 1 : 2, st, error))
    return NULL;
  if (one)
    return gnn_args_take_tensor_or_prefix (gnn_tensor_lp_pool1d (x, self->norm_type, k[0], st[0], self->ceil_mode,
                                                                 error), name, error);
  return gnn_args_take_tensor_or_prefix (gnn_tensor_lp_pool2d (x, self->norm_type, k, st, self->ceil_mode, error),
                                         name, error);
}

/* a double as Python prints the number torch was given: "2" for an integral value */
static char *
number_repr (double v)
{
  if (isfinite (v) && v == floor (v) && fabs (v) < 1e15)
    return g_strdup_printf ("%.0f", v);
  return gnn_python_float_repr (v);
}

static char *
lp_pool_extra_repr (GnnModule *module)
{
  LPPool *self = (LPPool *) module;
  g_autofree char *p = number_repr (self->norm_type);
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "norm_type=%s, kernel_size=", p);
  append_sizes (s, self->kernel_size, "0", FALSE);
  g_string_append (s, ", stride=");
  append_sizes (s, self->stride, "None", FALSE);
  g_string_append_printf (s, ", ceil_mode=%s", py_bool (self->ceil_mode));
  return g_string_free (s, FALSE);
}

static void
lp_pool_class_init (GObjectClass *klass, GnnProp *props)
{
  GParamFlags co = GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY;

  GNN_MODULE_CLASS (klass)->forward = lp_pool_forward;
  GNN_MODULE_CLASS (klass)->extra_repr = lp_pool_extra_repr;
  props[LP_PROP_NORM_TYPE] = (GnnProp) {
    gnn_param_spec_double ("norm-type", 2.0, co), G_STRUCT_OFFSET (LPPool, norm_type) };
  props[LP_PROP_KERNEL_SIZE] = (GnnProp) {
    gnn_param_spec_int64s ("kernel-size", co), G_STRUCT_OFFSET (LPPool, kernel_size) };
  props[LP_PROP_STRIDE] = (GnnProp) {
    gnn_param_spec_int64s ("stride", co), G_STRUCT_OFFSET (LPPool, stride) };
  props[LP_PROP_CEIL_MODE] = (GnnProp) {
    g_param_spec_boolean ("ceil-mode", NULL, NULL, FALSE, co), G_STRUCT_OFFSET (LPPool, ceil_mode) };
  gnn_props_install (klass, props, LP_N_PROPS);
}

/**
 * GnnLPPool1d:
 *
 * 1-d power-average pooling, as `torch.nn.LPPool1d`, through
 * [method@Gnn.Tensor.lp_pool1d]: the p-norm (Σ x^p)^(1/p) of each window of (N, C, L) or
 * (C, L). Its construct-only properties are torch's arguments: `norm-type`, `kernel-size`,
 * `stride` (#GVariant "ax" of one value; %NULL stride for the kernel size) and `ceil-mode`.
 * It has no parameters and prints as torch's:
 * "LPPool1d(norm_type=2, kernel_size=3, stride=None, ceil_mode=False)" (an integral norm
 * type prints as an int).
 *
 * Since: 0.1
 */

/**
 * GnnLPPool1d:norm-type:
 *
 * The power p (`norm_type`).
 *
 * Since: 0.1
 */

/**
 * GnnLPPool1d:kernel-size:
 *
 * The window size (`kernel_size`), one value.
 *
 * Since: 0.1
 */

/**
 * GnnLPPool1d:stride:
 *
 * The step between windows (`stride`), one value; %NULL for the kernel size.
 *
 * Since: 0.1
 */

/**
 * GnnLPPool1d:ceil-mode:
 *
 * Whether the output length is rounded up (`ceil_mode`).
 *
 * Since: 0.1
 */
static void
gnn_lp_pool1d_class_init (GnnLPPool1dClass *klass)
{
  lp_pool_class_init (G_OBJECT_CLASS (klass), lp1_props);
}

static void
gnn_lp_pool1d_init (GnnLPPool1d *self)
{
}

/**
 * gnn_lp_pool1d_new:
 * @norm_type: the power p
 * @kernel_size: the window size
 * @stride: the step between windows, 0 for the kernel size
 *
 * Creates `nn.LPPool1d (norm_type, kernel_size, stride)`.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnLPPool1d *
gnn_lp_pool1d_new (double norm_type,
                   gint64 kernel_size,
                   gint64 stride)
{
  return g_object_new (GNN_TYPE_LP_POOL1D, "norm-type", norm_type, "kernel-size", int64s_variant (&kernel_size, 1),
                       "stride", stride > 0 ? int64s_variant (&stride, 1) : NULL, NULL);
}

/**
 * GnnLPPool2d:
 *
 * 2-d power-average pooling, as `torch.nn.LPPool2d`, through
 * [method@Gnn.Tensor.lp_pool2d], on (N, C, H, W) or (C, H, W). Its properties are those of
 * [class@Gnn.LPPool1d] with one or two values for the sizes. It prints as torch's:
 * "LPPool2d(norm_type=2.5, kernel_size=(2, 3), stride=None, ceil_mode=False)".
 *
 * Since: 0.1
 */

/**
 * GnnLPPool2d:norm-type:
 *
 * The power p (`norm_type`).
 *
 * Since: 0.1
 */

/**
 * GnnLPPool2d:kernel-size:
 *
 * The window size (`kernel_size`), one or two values.
 *
 * Since: 0.1
 */

/**
 * GnnLPPool2d:stride:
 *
 * The step between windows (`stride`), one or two values; %NULL for the kernel size.
 *
 * Since: 0.1
 */

/**
 * GnnLPPool2d:ceil-mode:
 *
 * Whether the output sizes are rounded up (`ceil_mode`).
 *
 * Since: 0.1
 */
static void
gnn_lp_pool2d_class_init (GnnLPPool2dClass *klass)
{
  lp_pool_class_init (G_OBJECT_CLASS (klass), lp2_props);
}

static void
gnn_lp_pool2d_init (GnnLPPool2d *self)
{
}

/**
 * gnn_lp_pool2d_new:
 * @norm_type: the power p
 * @kernel_size: (array fixed-size=2): the window size
 * @stride: (array fixed-size=2) (nullable): the step between windows, %NULL for the kernel
 *   size
 *
 * Creates `nn.LPPool2d (norm_type, kernel_size, stride)`.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnLPPool2d *
gnn_lp_pool2d_new (double        norm_type,
                   const gint64 *kernel_size,
                   const gint64 *stride)
{
  g_return_val_if_fail (kernel_size != NULL, NULL);
  return g_object_new (GNN_TYPE_LP_POOL2D, "norm-type", norm_type, "kernel-size", int64s_variant (kernel_size, 2),
                       "stride", stride ? int64s_variant (stride, 2) : NULL, NULL);
}

/* ---- LocalResponseNorm ----------------------------------------------------------------- */

/**
 * gnn_tensor_local_response_norm:
 * @self: the input, (N, C, *) with at least 3 dimensions
 * @size: the number of neighbouring channels n, at least 1
 * @alpha: the multiplicative factor
 * @beta: the exponent
 * @k: the additive factor
 * @error: return location for a #GError
 *
 * `torch.nn.functional.local_response_norm`: b_c = a_c / (k + α / n · Σ a_{c'}²)^β, the sum
 * over the channels c' in [c - ⌊n/2⌋, c + ⌊(n-1)/2⌋] (zeros outside), computed as torch
 * computes it (a zero-padded average pool of the squares over the channels). This is what
 * [class@Gnn.LocalResponseNorm] runs.
 *
 * Returns: (transfer full): the output, of the input's shape, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_local_response_norm (GnnTensor *self,
                                gint64     size,
                                double     alpha,
                                double     beta,
                                double     k,
                                GError   **error)
{
  const gint64 *s;
  guint nd;
  gint64 rest;
  g_autoptr(GnnTensor) sq = NULL, v = NULL, padded = NULL, pooled = NULL, back = NULL, scaled = NULL,
                       shifted = NULL, div = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  s = gnn_tensor_get_shape (self, &nd);
  if (nd < 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "local_response_norm: Expected 3D or higher dimensionality input (got %u dimensions)", nd);
      return NULL;
    }
  if (size < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "local_response_norm: size must be at least 1, got %" G_GINT64_FORMAT, size);
      return NULL;
    }
  if (gnn_tensor_get_numel (self) == 0)
    return g_object_ref (self);
  rest = leading_numel (s, nd, 0) / (s[0] * s[1]);
  {
    gint64 v4[4] = { s[0], 1, s[1], rest };
    gint64 pads[4] = { 0, 0, size / 2, (size - 1) / 2 };
    gint64 kernel[2] = { size, 1 }, stride[2] = { 1, 1 }, zero[2] = { 0, 0 };

    if (!(sq = gnn_tensor_mul (self, self, error)) || !(v = gnn_tensor_reshape (sq, v4, 4, error)) ||
        !(padded = gnn_tensor_pad (v, pads, 4, "constant", 0.0, error)) ||
        !(pooled = gnn_tensor_avg_pool2d (padded, kernel, stride, zero, FALSE, TRUE, 0, error)) ||
        !(back = gnn_tensor_reshape (pooled, s, nd, error)) ||
        !(scaled = gnn_tensor_mul_scalar (back, alpha, error)) ||
        !(shifted = gnn_tensor_add_scalar (scaled, k, error)) ||
        !(div = gnn_tensor_pow_scalar (shifted, beta, error)))
      {
        g_prefix_error (error, "local_response_norm: ");
        return NULL;
      }
  }
  return gnn_tensor_div (self, div, error);
}

/**
 * GnnLocalResponseNorm:
 *
 * Local response normalisation over the channels, as `torch.nn.LocalResponseNorm`, through
 * [method@Gnn.Tensor.local_response_norm]. Its properties are torch's arguments: `size`
 * (construct-only), `alpha`, `beta` and `k`. It has no parameters and prints as torch's:
 * "LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1.0)".
 *
 * Since: 0.1
 */
struct _GnnLocalResponseNorm
{
  GnnModule parent_instance;
  int size;
  double alpha, beta, k;
};

G_DEFINE_FINAL_TYPE (GnnLocalResponseNorm, gnn_local_response_norm, GNN_TYPE_MODULE)

enum { LRN_PROP_0, LRN_PROP_SIZE, LRN_PROP_ALPHA, LRN_PROP_BETA, LRN_PROP_K, LRN_N_PROPS };

static GnnProp lrn_props[LRN_N_PROPS];

static GnnArgs *
gnn_local_response_norm_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnLocalResponseNorm *self = GNN_LOCAL_RESPONSE_NORM (module);
  GnnTensor *x = gnn_args_first_tensor (input, "LocalResponseNorm", error);

  if (x == NULL)
    return NULL;
  return gnn_args_take_tensor_or_prefix (gnn_tensor_local_response_norm (x, self->size, self->alpha, self->beta,
                                                                         self->k, error),
                                         "LocalResponseNorm", error);
}

static char *
gnn_local_response_norm_extra_repr (GnnModule *module)
{
  GnnLocalResponseNorm *self = GNN_LOCAL_RESPONSE_NORM (module);
  g_autofree char *a = gnn_python_float_repr (self->alpha);
  g_autofree char *b = gnn_python_float_repr (self->beta);
  g_autofree char *k = gnn_python_float_repr (self->k);

  return g_strdup_printf ("%d, alpha=%s, beta=%s, k=%s", self->size, a, b, k);
}

static void
gnn_local_response_norm_class_init (GnnLocalResponseNormClass *klass)
{
  GParamFlags c = GNN_PARAM_RW | G_PARAM_CONSTRUCT;

  GNN_MODULE_CLASS (klass)->forward = gnn_local_response_norm_forward;
  GNN_MODULE_CLASS (klass)->extra_repr = gnn_local_response_norm_extra_repr;

  /**
   * GnnLocalResponseNorm:size:
   *
   * The number of neighbouring channels used for normalisation (`size`).
   *
   * Since: 0.1
   */
  lrn_props[LRN_PROP_SIZE] = (GnnProp) {
    g_param_spec_int ("size", NULL, NULL, G_MININT, G_MAXINT, 1, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnLocalResponseNorm, size) };

  /**
   * GnnLocalResponseNorm:alpha:
   *
   * The multiplicative factor (`alpha`).
   *
   * Since: 0.1
   */
  lrn_props[LRN_PROP_ALPHA] = (GnnProp) {
    gnn_param_spec_double ("alpha", 1e-4, c), G_STRUCT_OFFSET (GnnLocalResponseNorm, alpha) };

  /**
   * GnnLocalResponseNorm:beta:
   *
   * The exponent (`beta`).
   *
   * Since: 0.1
   */
  lrn_props[LRN_PROP_BETA] = (GnnProp) {
    gnn_param_spec_double ("beta", 0.75, c), G_STRUCT_OFFSET (GnnLocalResponseNorm, beta) };

  /**
   * GnnLocalResponseNorm:k:
   *
   * The additive factor (`k`).
   *
   * Since: 0.1
   */
  lrn_props[LRN_PROP_K] = (GnnProp) {
    gnn_param_spec_double ("k", 1.0, c), G_STRUCT_OFFSET (GnnLocalResponseNorm, k) };
  gnn_props_install (G_OBJECT_CLASS (klass), lrn_props, LRN_N_PROPS);
}

static void
gnn_local_response_norm_init (GnnLocalResponseNorm *self)
{
}

/**
 * gnn_local_response_norm_new:
 * @size: the number of neighbouring channels
 * @alpha: the multiplicative factor (torch's default 1e-4)
 * @beta: the exponent (0.75)
 * @k: the additive factor (1.0)
 *
 * Creates `nn.LocalResponseNorm (size, alpha, beta, k)`.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnLocalResponseNorm *
gnn_local_response_norm_new (int    size,
                             double alpha,
                             double beta,
                             double k)
{
  return g_object_new (GNN_TYPE_LOCAL_RESPONSE_NORM, "size", size, "alpha", alpha, "beta", beta, "k", k, NULL);
}

/* ---- Upsample, UpsamplingNearest2d, UpsamplingBilinear2d ------------------------------- */

typedef struct
{
  GnnModule parent_instance;
  GVariant *size, *scale_factor;
  char *mode;
  gboolean align_corners, recompute_scale_factor;
} Upsample;

struct _GnnUpsample { Upsample u; };
struct _GnnUpsamplingNearest2d { Upsample u; };
struct _GnnUpsamplingBilinear2d { Upsample u; };

G_DEFINE_FINAL_TYPE (GnnUpsample, gnn_upsample, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnUpsamplingNearest2d, gnn_upsampling_nearest2d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnUpsamplingBilinear2d, gnn_upsampling_bilinear2d, GNN_TYPE_MODULE)

enum {
  UP_PROP_0,
  UP_PROP_SIZE,
  UP_PROP_SCALE_FACTOR,
  UP_PROP_MODE,
  UP_PROP_ALIGN_CORNERS,
  UP_PROP_RECOMPUTE_SCALE_FACTOR,
  UP_N_PROPS
};

static GnnProp up_props[UP_N_PROPS], up_nearest_props[UP_N_PROPS], up_bilinear_props[UP_N_PROPS];

static GnnArgs *
upsample_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  Upsample *self = (Upsample *) module;
  const char *name = gnn_module_get_name (module);
  GnnTensor *x = gnn_args_first_tensor (input, name, error);
  const char *mode = GNN_IS_UPSAMPLING_NEAREST2D (module) ? "nearest"
                     : GNN_IS_UPSAMPLING_BILINEAR2D (module) ? "bilinear" : self->mode;
  gboolean align = GNN_IS_UPSAMPLING_BILINEAR2D (module) || self->align_corners;
  gsize n_size = 0, n_scale = 0;
  const gint64 *size = gnn_prop_int64s (self->size, &n_size);
  const double *scale = gnn_prop_doubles (self->scale_factor, &n_scale);

  if (x == NULL)
    return NULL;
  if ((n_size == 0) == (n_scale == 0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: %s", name,
                   n_size ? "only one of size or scale_factor should be defined"
                   : "either size or scale_factor should be defined");
      return NULL;
    }
  return gnn_args_take_tensor_or_prefix (gnn_tensor_interpolate (x, size, n_size, scale, n_scale, mode, align,
                                                                 self->recompute_scale_factor, FALSE, error),
                                         name, error);
}

static char *
upsample_extra_repr (GnnModule *module)
{
  Upsample *self = (Upsample *) module;
  gsize n_scale = 0;
  const double *scale = gnn_prop_doubles (self->scale_factor, &n_scale);
  GString *s = g_string_new (NULL);
  const char *mode = GNN_IS_UPSAMPLING_NEAREST2D (module) ? "nearest"
                     : GNN_IS_UPSAMPLING_BILINEAR2D (module) ? "bilinear" : self->mode;

  if (n_scale > 0)
    {
      g_string_append (s, "scale_factor=");
      if (n_scale > 1)
        g_string_append_c (s, '(');
      for (gsize i = 0; i < n_scale; i++)
        {
          g_autofree char *f = gnn_python_float_repr (scale[i]);

          g_string_append_printf (s, "%s%s", i ? ", " : "", f);
        }
      if (n_scale > 1)
        g_string_append_c (s, ')');
    }
  else
    {
      g_string_append (s, "size=");
      append_sizes (s, self->size, "None", FALSE);
    }
  g_string_append_printf (s, ", mode=%s", mode);
  return g_string_free (s, FALSE);
}

static void
upsample_class_init (GObjectClass *klass, GnnProp *props, gboolean general)
{
  GParamFlags co = GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY;

  GNN_MODULE_CLASS (klass)->forward = upsample_forward;
  GNN_MODULE_CLASS (klass)->extra_repr = upsample_extra_repr;
  props[UP_PROP_SIZE] = (GnnProp) { gnn_param_spec_int64s ("size", co), G_STRUCT_OFFSET (Upsample, size) };
  props[UP_PROP_SCALE_FACTOR] = (GnnProp) {
    gnn_param_spec_doubles ("scale-factor", NULL, co), G_STRUCT_OFFSET (Upsample, scale_factor) };
  if (general)
    {
      props[UP_PROP_MODE] = (GnnProp) {
        g_param_spec_string ("mode", NULL, NULL, "nearest", co), G_STRUCT_OFFSET (Upsample, mode) };
      props[UP_PROP_ALIGN_CORNERS] = (GnnProp) {
        g_param_spec_boolean ("align-corners", NULL, NULL, FALSE, co), G_STRUCT_OFFSET (Upsample, align_corners) };
      props[UP_PROP_RECOMPUTE_SCALE_FACTOR] = (GnnProp) {
        g_param_spec_boolean ("recompute-scale-factor", NULL, NULL, FALSE, co),
        G_STRUCT_OFFSET (Upsample, recompute_scale_factor) };
    }
  gnn_props_install (klass, props, UP_N_PROPS);
}

/**
 * GnnUpsample:
 *
 * Upsampling, as `torch.nn.Upsample`, through [method@Gnn.Tensor.interpolate]: its
 * construct-only properties are torch's arguments, `size` (#GVariant "ax") or
 * `scale-factor` (#GVariant "ad"), one value for every spatial dimension or one each;
 * `mode` ("nearest", "linear", "bilinear", "bicubic", "trilinear", "area",
 * "nearest-exact"), `align-corners` (torch's None is %FALSE) and `recompute-scale-factor`.
 * It has no parameters and prints as torch's: "Upsample(scale_factor=2.0, mode=nearest)".
 *
 * Since: 0.1
 */

/**
 * GnnUpsample:size:
 *
 * The output's spatial size (`size`), one value or one per spatial dimension; %NULL when
 * the scale factor is given.
 *
 * Since: 0.1
 */

/**
 * GnnUpsample:scale-factor:
 *
 * The factor of the spatial sizes (`scale_factor`), one value or one per spatial
 * dimension; %NULL when the size is given.
 *
 * Since: 0.1
 */

/**
 * GnnUpsample:mode:
 *
 * The interpolation (`mode`), as [method@Gnn.Tensor.interpolate] takes it.
 *
 * Since: 0.1
 */

/**
 * GnnUpsample:align-corners:
 *
 * Whether the corner pixels of input and output are aligned (`align_corners`; only for
 * the interpolating modes).
 *
 * Since: 0.1
 */

/**
 * GnnUpsample:recompute-scale-factor:
 *
 * Whether the scale used is recomputed from the output size (`recompute_scale_factor`).
 *
 * Since: 0.1
 */
static void
gnn_upsample_class_init (GnnUpsampleClass *klass)
{
  upsample_class_init (G_OBJECT_CLASS (klass), up_props, TRUE);
}

static void
gnn_upsample_init (GnnUpsample *self)
{
}

/**
 * gnn_upsample_new:
 * @size: (array length=n_size) (nullable): the output's spatial size, or %NULL
 * @n_size: the number of values in @size
 * @scale_factor: (array length=n_scale_factor) (nullable): the factor of the spatial
 *   sizes, or %NULL
 * @n_scale_factor: the number of values in @scale_factor
 * @mode: (nullable): the interpolation, %NULL for "nearest"
 * @align_corners: whether the corner pixels are aligned
 *
 * Creates `nn.Upsample (size, scale_factor, mode, align_corners)`; exactly one of @size and
 * @scale_factor must be given, which is checked when the layer runs.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnUpsample *
gnn_upsample_new (const gint64 *size,
                  gsize         n_size,
                  const double *scale_factor,
                  gsize         n_scale_factor,
                  const char   *mode,
                  gboolean      align_corners)
{
  return g_object_new (GNN_TYPE_UPSAMPLE, "size", size && n_size ? int64s_variant (size, n_size) : NULL,
                       "scale-factor", scale_factor && n_scale_factor ? gnn_prop_new_doubles (scale_factor, n_scale_factor) : NULL,
                       "mode", mode, "align-corners", align_corners, NULL);
}

/**
 * GnnUpsamplingNearest2d:
 *
 * Nearest-neighbour upsampling of (N, C, H, W), as `torch.nn.UpsamplingNearest2d`: a
 * [class@Gnn.Upsample] of mode "nearest" with the properties `size` and `scale-factor`. It
 * prints as torch's: "UpsamplingNearest2d(scale_factor=2.0, mode=nearest)".
 *
 * Since: 0.1
 */

/**
 * GnnUpsamplingNearest2d:size:
 *
 * The output's spatial size (`size`), one or two values; %NULL when the scale factor is
 * given.
 *
 * Since: 0.1
 */

/**
 * GnnUpsamplingNearest2d:scale-factor:
 *
 * The factor of the spatial sizes (`scale_factor`), one or two values; %NULL when the size
 * is given.
 *
 * Since: 0.1
 */
static void
gnn_upsampling_nearest2d_class_init (GnnUpsamplingNearest2dClass *klass)
{
  upsample_class_init (G_OBJECT_CLASS (klass), up_nearest_props, FALSE);
}

static void
gnn_upsampling_nearest2d_init (GnnUpsamplingNearest2d *self)
{
}

/**
 * gnn_upsampling_nearest2d_new:
 * @size: (array length=n_size) (nullable): the output's spatial size, or %NULL
 * @n_size: the number of values in @size
 * @scale_factor: (array length=n_scale_factor) (nullable): the factor of the spatial
 *   sizes, or %NULL
 * @n_scale_factor: the number of values in @scale_factor
 *
 * Creates `nn.UpsamplingNearest2d (size, scale_factor)`.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnUpsamplingNearest2d *
gnn_upsampling_nearest2d_new (const gint64 *size,
                              gsize         n_size,
                              const double *scale_factor,
                              gsize         n_scale_factor)
{
  return g_object_new (GNN_TYPE_UPSAMPLING_NEAREST2D, "size", size && n_size ? int64s_variant (size, n_size) : NULL,
                       "scale-factor", scale_factor && n_scale_factor ? gnn_prop_new_doubles (scale_factor, n_scale_factor) : NULL,
                       NULL);
}

/**
 * GnnUpsamplingBilinear2d:
 *
 * Bilinear upsampling of (N, C, H, W) with aligned corners, as
 * `torch.nn.UpsamplingBilinear2d`: a [class@Gnn.Upsample] of mode "bilinear" and
 * align_corners %TRUE with the properties `size` and `scale-factor`. It prints as torch's:
 * "UpsamplingBilinear2d(size=3, mode=bilinear)".
 *
 * Since: 0.1
 */

/**
 * GnnUpsamplingBilinear2d:size:
 *
 * The output's spatial size (`size`), one or two values; %NULL when the scale factor is
 * given.
 *
 * Since: 0.1
 */

/**
 * GnnUpsamplingBilinear2d:scale-factor:
 *
 * The factor of the spatial sizes (`scale_factor`), one or two values; %NULL when the size
 * is given.
 *
 * Since: 0.1
 */
static void
gnn_upsampling_bilinear2d_class_init (GnnUpsamplingBilinear2dClass *klass)
{
  upsample_class_init (G_OBJECT_CLASS (klass), up_bilinear_props, FALSE);
}

static void
gnn_upsampling_bilinear2d_init (GnnUpsamplingBilinear2d *self)
{
}

/**
 * gnn_upsampling_bilinear2d_new:
 * @size: (array length=n_size) (nullable): the output's spatial size, or %NULL
 * @n_size: the number of values in @size
 * @scale_factor: (array length=n_scale_factor) (nullable): the factor of the spatial
 *   sizes, or %NULL
 * @n_scale_factor: the number of values in @scale_factor
 *
 * Creates `nn.UpsamplingBilinear2d (size, scale_factor)`.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnUpsamplingBilinear2d *
gnn_upsampling_bilinear2d_new (const gint64 *size,
                               gsize         n_size,
                               const double *scale_factor,
                               gsize         n_scale_factor)
{
  return g_object_new (GNN_TYPE_UPSAMPLING_BILINEAR2D, "size", size && n_size ? int64s_variant (size, n_size) : NULL,
                       "scale-factor", scale_factor && n_scale_factor ? gnn_prop_new_doubles (scale_factor, n_scale_factor) : NULL,
                       NULL);
}

/* ---- adaptive max pooling -------------------------------------------------------------- */

/* an int64 tensor of @shape from @data, on @device */
static GnnTensor *
int64_tensor (const gint64 *data, gsize n, const gint64 *shape, guint ndim, const char *device, GError **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, n * sizeof (gint64));

  return gnn_tensor_new_from_bytes (bytes, GNN_DTYPE_INT64, shape, ndim, device, error);
}

/* The windows of adaptive pooling of @L into @O: [⌊i·L/O⌋, ⌈(i+1)·L/O⌉). */
static void
adaptive_window (gint64 i, gint64 L, gint64 O, gint64 *start, gint64 *end)
{
  *start = (i * L) / O;
  *end = ((i + 1) * L + O - 1) / O;
}

/* adaptive max pooling of (N, C, H, W) (or (C, H, W)) to (OH, OW): every window gathered in
 * one index_select, each padded to the largest window by repeating its last row / column
 * (which never changes the maximum nor its first position), then max over the window */
static GnnTensor *
adaptive_max_pool (const char *name, GnnTensor *input, const gint64 *output_size, gboolean one_d,
                   GnnTensor **indices, GError **error)
{
  guint nd;
  const gint64 *s = gnn_tensor_get_shape (input, &nd);
  gboolean batched = nd == (one_d ? 3u : 4u);
  gint64 H, W, OH, OW, KH = 1, KW = 1, K, N, C;
  g_autofree gint64 *table = NULL, *li = NULL;
  g_autoptr(GnnTensor) x = NULL, flat = NULL, index = NULL, picked = NULL, windows = NULL, values = NULL,
                       local = NULL, out = NULL;
  const char *device;
  gsize n_li = 0;

  if (!gnn_check_floating (name, input, error))
    return NULL;
  if (nd != (one_d ? 2u : 3u) && !batched)
    {
      g_autofree char *got = gnn_shape_to_string (nd, s);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s(): Expected %s tensor, but got: %s", name,
                   one_d ? "2D or 3D" : "3D or 4D", got);
      return NULL;
    }
  for (guint d = batched ? 1 : 0; d < nd; d++)
    if (s[d] == 0)
      {
        g_autofree char *got = gnn_shape_to_string (nd, s);
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "%s(): Expected input to have non-zero size for non-batch dimensions, but input has sizes %s "
                     "with dimension %u being empty", name, got, d);
        return NULL;
      }
  /* as (N, C, H, W) */
  N = batched ? s[0] : 1;
  C = s[nd - (one_d ? 2 : 3)];
  H = one_d ? 1 : s[nd - 2];
  W = s[nd - 1];
  OH = one_d ? 1 : output_size[0] < 0 ? H : output_size[0];
  OW = one_d ? output_size[0] : output_size[1] < 0 ? W : output_size[1];
  if (OH < 1 || OW < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s(): output_size must be positive, got (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")",
                   name, one_d ? OW : OH, OW);
      return NULL;
    }
  for (gint64 i = 0; i < OH; i++)
    {
      gint64 a, b;

      adaptive_window (i, H, OH, &a, &b);
      KH = MAX (KH, b - a);
    }
  for (gint64 j = 0; j < OW; j++)
    {
      gint64 a, b;

      adaptive_window (j, W, OW, &a, &b);
      KW = MAX (KW, b - a);
    }
  K = KH * KW;
  table = g_new (gint64, OH * OW * K);
  for (gint64 i = 0; i < OH; i++)
    for (gint64 j = 0; j < OW; j++)
      {
        gint64 hs, he, ws, we;

        adaptive_window (i, H, OH, &hs, &he);
        adaptive_window (j, W, OW, &ws, &we);
        for (gint64 a = 0; a < KH; a++)
          for (gint64 b = 0; b < KW; b++)
            table[((i * OW + j) * KH + a) * KW + b] = MIN (hs + a, he - 1) * W + MIN (ws + b, we - 1);
      }
  device = gnn_tensor_get_device (input);
  {
    gint64 s3[3] = { N, C, H * W }, n_table = OH * OW * K, s5[5] = { N, C, OH, OW, K };

    if (!(flat = gnn_tensor_reshape (input, s3, 3, error)) ||
        !(index = int64_tensor (table, n_table, &n_table, 1, device, error)) ||
        !(picked = gnn_tensor_index_select (flat, 2, index, error)) ||
        !(windows = gnn_tensor_reshape (picked, s5, 5, error)) ||
        !(values = gnn_tensor_max_dim (windows, 4, FALSE, &local, error)))
      return NULL;
  }
  {
    gint64 so[4] = { s[0], C, OH, OW };
    gint64 *shape = batched ? so : so + 1;
    guint ond = nd;

    if (one_d)
      {
        so[2] = OW;
        shape = batched ? so : so + 1;
      }
    if (!(out = gnn_tensor_reshape (values, shape, ond, error)))
      return NULL;
    if (indices)
      {
        li = gnn_tensor_to_int64s (local, &n_li, error);
        if (li == NULL)
          return NULL;
        for (gsize e = 0; e < n_li; e++)
          li[e] = table[(e % (gsize) (OH * OW)) * K + li[e]];
        *indices = int64_tensor (li, n_li, shape, ond, device, error);
        if (*indices == NULL)
          return NULL;
      }
  }
  return g_steal_pointer (&out);
}

/**
 * gnn_tensor_adaptive_max_pool1d:
 * @self: the input, (N, C, L) or (C, L)
 * @output_size: the output length OL, at least 1
 * @indices: (out) (optional) (transfer full): the positions of the maxima along L, int64
 * @error: return location for a #GError
 *
 * `torch.nn.functional.adaptive_max_pool1d` (with `return_indices`, its `_with_indices`
 * form): output element i is the maximum over [⌊i·L/OL⌋, ⌈(i+1)·L/OL⌉), the first one where
 * several are equal. Its gradient goes to the maxima. This is what
 * [class@Gnn.AdaptiveMaxPool1d] runs.
 *
 * Returns: (transfer full): the output, (N, C, OL) or (C, OL), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_adaptive_max_pool1d (GnnTensor  *self,
                                gint64      output_size,
                                GnnTensor **indices,
                                GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return adaptive_max_pool ("adaptive_max_pool1d", self, &output_size, TRUE, indices, error);
}

/**
 * gnn_tensor_adaptive_max_pool2d:
 * @self: the input, (N, C, H, W) or (C, H, W)
 * @output_size: (array fixed-size=2): the output size (OH, OW), -1 for the input's size
 *   (PyTorch's None)
 * @indices: (out) (optional) (transfer full): the positions of the maxima in each plane,
 *   h · W + w, int64
 * @error: return location for a #GError
 *
 * `torch.nn.functional.adaptive_max_pool2d` (with `return_indices`, its `_with_indices`
 * form): output element (i, j) is the maximum over rows [⌊i·H/OH⌋, ⌈(i+1)·H/OH⌉) and the
 * columns alike, the first in row-major order where several are equal. This is what
 * [class@Gnn.AdaptiveMaxPool2d] runs.
 *
 * Returns: (transfer full): the output, (N, C, OH, OW) or (C, OH, OW), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_adaptive_max_pool2d (GnnTensor    *self,
                                const gint64 *output_size,
                                GnnTensor   **indices,
                                GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && output_size != NULL, NULL);
  return adaptive_max_pool ("adaptive_max_pool2d", self, output_size, FALSE, indices, error);
}

typedef struct
{
  GnnModule parent_instance;
  GVariant *output_size;
  gboolean return_indices;
} AdaptiveMax;

struct _GnnAdaptiveMaxPool1d { AdaptiveMax a; };
struct _GnnAdaptiveMaxPool2d { AdaptiveMax a; };

G_DEFINE_FINAL_TYPE (GnnAdaptiveMaxPool1d, gnn_adaptive_max_pool1d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnAdaptiveMaxPool2d, gnn_adaptive_max_pool2d, GNN_TYPE_MODULE)

enum { AM_PROP_0, AM_PROP_OUTPUT_SIZE, AM_PROP_RETURN_INDICES, AM_N_PROPS };

static GnnProp am1_props[AM_N_PROPS], am2_props[AM_N_PROPS];

static GnnArgs *
adaptive_max_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  AdaptiveMax *self = (AdaptiveMax *) module;
  gboolean one = GNN_IS_ADAPTIVE_MAX_POOL1D (module);
  const char *name = one ? "AdaptiveMaxPool1d" : "AdaptiveMaxPool2d";
  GnnTensor *x = gnn_args_first_tensor (input, name, error);
  g_autoptr(GnnTensor) out = NULL, indices = NULL;
  gint64 o[2];
  GnnArgs *result;

  if (x == NULL || !sizes_of (name, "output_size", self->output_size, NULL, -1, one ? 1 : 2, o, error))
    return NULL;
  out = adaptive_max_pool (one ? "adaptive_max_pool1d" : "adaptive_max_pool2d", x, o, one,
                           self->return_indices ? &indices : NULL, error);
  if (out == NULL)
    {
      g_prefix_error (error, "%s: ", name);
      return NULL;
    }
  result = gnn_args_new_tensor (out);
  if (self->return_indices)
    gnn_args_add_tensor (result, indices);
  return result;
}

static char *
adaptive_max_extra_repr (GnnModule *module)
{
  GString *s = g_string_new ("output_size=");

  append_sizes (s, ((AdaptiveMax *) module)->output_size, "None", FALSE);
  return g_string_free (s, FALSE);
}

static void
adaptive_max_class_init (GObjectClass *klass, GnnProp *props)
{
  GParamFlags co = GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY;

  GNN_MODULE_CLASS (klass)->forward = adaptive_max_forward;
  GNN_MODULE_CLASS (klass)->extra_repr = adaptive_max_extra_repr;
  props[AM_PROP_OUTPUT_SIZE] = (GnnProp) {
    gnn_param_spec_int64s ("output-size", co), G_STRUCT_OFFSET (AdaptiveMax, output_size) };
  props[AM_PROP_RETURN_INDICES] = (GnnProp) {
    g_param_spec_boolean ("return-indices", NULL, NULL, FALSE, co), G_STRUCT_OFFSET (AdaptiveMax, return_indices) };
  gnn_props_install (klass, props, AM_N_PROPS);
}

/**
 * GnnAdaptiveMaxPool1d:
 *
 * 1-d adaptive max pooling, as `torch.nn.AdaptiveMaxPool1d`, through
 * [method@Gnn.Tensor.adaptive_max_pool1d]. Its construct-only properties are torch's
 * arguments: `output-size` (#GVariant "ax" of one value) and `return-indices` (then the
 * module also returns the int64 positions of the maxima). It has no parameters and prints
 * as torch's: "AdaptiveMaxPool1d(output_size=3)".
 *
 * Since: 0.1
 */

/**
 * GnnAdaptiveMaxPool1d:output-size:
 *
 * The output length (`output_size`), one value.
 *
 * Since: 0.1
 */

/**
 * GnnAdaptiveMaxPool1d:return-indices:
 *
 * Whether the module also returns the positions of the maxima (`return_indices`).
 *
 * Since: 0.1
 */
static void
gnn_adaptive_max_pool1d_class_init (GnnAdaptiveMaxPool1dClass *klass)
{
  adaptive_max_class_init (G_OBJECT_CLASS (klass), am1_props);
}

static void
gnn_adaptive_max_pool1d_init (GnnAdaptiveMaxPool1d *self)
{
}

/**
 * gnn_adaptive_max_pool1d_new:
 * @output_size: the output length
 * @return_indices: whether the module also returns the positions of the maxima
 *
 * Creates `nn.AdaptiveMaxPool1d (output_size, return_indices)`.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnAdaptiveMaxPool1d *
gnn_adaptive_max_pool1d_new (gint64   output_size,
                             gboolean return_indices)
{
  return g_object_new (GNN_TYPE_ADAPTIVE_MAX_POOL1D, "output-size", int64s_variant (&output_size, 1),
                       "return-indices", return_indices, NULL);
}

/**
 * GnnAdaptiveMaxPool2d:
 *
 * 2-d adaptive max pooling, as `torch.nn.AdaptiveMaxPool2d`, through
 * [method@Gnn.Tensor.adaptive_max_pool2d]. Its construct-only properties are torch's
 * arguments: `output-size` (#GVariant "ax" of one or two values, -1 for None: the input's
 * size) and `return-indices`. It prints as torch's: "AdaptiveMaxPool2d(output_size=(None, 2))".
 *
 * Since: 0.1
 */

/**
 * GnnAdaptiveMaxPool2d:output-size:
 *
 * The output size (`output_size`), one or two values, -1 for the input's size.
 *
 * Since: 0.1
 */

/**
 * GnnAdaptiveMaxPool2d:return-indices:
 *
 * Whether the module also returns the positions of the maxima (`return_indices`).
 *
 * Since: 0.1
 */
static void
gnn_adaptive_max_pool2d_class_init (GnnAdaptiveMaxPool2dClass *klass)
{
  adaptive_max_class_init (G_OBJECT_CLASS (klass), am2_props);
}

static void
gnn_adaptive_max_pool2d_init (GnnAdaptiveMaxPool2d *self)
{
}

/**
 * gnn_adaptive_max_pool2d_new:
 * @output_size: (array fixed-size=2): the output size, -1 for the input's size
 * @return_indices: whether the module also returns the positions of the maxima
 *
 * Creates `nn.AdaptiveMaxPool2d (output_size, return_indices)`.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnAdaptiveMaxPool2d *
gnn_adaptive_max_pool2d_new (const gint64 *output_size,
                             gboolean      return_indices)
{
  g_return_val_if_fail (output_size != NULL, NULL);
  return g_object_new (GNN_TYPE_ADAPTIVE_MAX_POOL2D, "output-size", int64s_variant (output_size, 2),
                       "return-indices", return_indices, NULL);
}

/* ---- max unpooling --------------------------------------------------------------------- */

/**
 * gnn_tensor_max_unpool2d:
 * @self: the pooled values, (N, C, h, w) or (C, h, w)
 * @indices: the positions the values came from in each output plane (as max pooling
 *   returns them), int64 of @self's shape
 * @output_size: (array fixed-size=2): the output's spatial size (H, W)
 * @error: return location for a #GError
 *
 * The core of `torch.nn.functional.max_unpool2d` (the 1-d form is this of a unit height):
 * an output of zeros, (N, C, H, W), with each value written at its index in its plane.
 * Its gradient is the output gradient read at the indices. An index outside the plane is an
 * error, never a write.
 *
 * Returns: (transfer full): the output, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_max_unpool2d (GnnTensor    *self,
                         GnnTensor    *indices,
                         const gint64 *output_size,
                         GError      **error)
{
  guint nd, ni;
  const gint64 *s, *si;
  gboolean batched;
  gint64 N, C, HW;
  g_autoptr(GnnTensor) src = NULL, idx = NULL, zeros = NULL, out = NULL;
  g_autofree gint64 *values = NULL;
  gsize n = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (indices) && output_size != NULL, NULL);
  s = gnn_tensor_get_shape (self, &nd);
  si = gnn_tensor_get_shape (indices, &ni);
  if (!gnn_check_floating ("max_unpool2d", self, error))
    return NULL;
  if (gnn_tensor_get_dtype (indices) != GNN_DTYPE_INT64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "max_unpool2d: elements in indices should be type int64 but got: %s",
                   gnn_dtype_get_name (gnn_tensor_get_dtype (indices)));
      return NULL;
    }
  if ((nd != 3 && nd != 4) || ni != nd || memcmp (s, si, nd * sizeof (gint64)) != 0)
    {
      g_autofree char *a = gnn_shape_to_string (nd, s);
      g_autofree char *b = gnn_shape_to_string (ni, si);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "max_unpool2d: expected a 3-d or 4-d input and indices of the same shape, got input %s and "
                   "indices %s", a, b);
      return NULL;
    }
  if (output_size[0] < 0 || output_size[1] < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "max_unpool2d: output_size must not be negative, got (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")",
                   output_size[0], output_size[1]);
      return NULL;
    }
  batched = nd == 4;
  N = batched ? s[0] : 1;
  C = s[nd - 3];
  HW = output_size[0] * output_size[1];
  values = gnn_tensor_to_int64s (indices, &n, error);
  if (values == NULL && n > 0)
    return NULL;
  for (gsize e = 0; e < n; e++)
    if (values[e] < 0 || values[e] >= HW)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                     "max_unpool2d: Found an invalid max index: %" G_GINT64_FORMAT " (output volumes are of size %"
                     G_GINT64_FORMAT "x%" G_GINT64_FORMAT ")", values[e], output_size[0], output_size[1]);
        return NULL;
      }
  {
    gint64 s3[3] = { N, C, s[nd - 2] * s[nd - 1] }, z3[3] = { N, C, HW };
    gint64 so[4] = { N, C, output_size[0], output_size[1] };

    if (!(src = gnn_tensor_reshape (self, s3, 3, error)) || !(idx = gnn_tensor_reshape (indices, s3, 3, error)) ||
        !(zeros = gnn_tensor_new_zeros (z3, 3, gnn_tensor_get_dtype (self), gnn_tensor_get_device (self), error)) ||
        !(out = gnn_tensor_scatter (zeros, 2, idx, src, NULL, error)))
      return NULL;
    return gnn_tensor_reshape (out, batched ? so : so + 1, batched ? 4 : 3, error);
  }
}

typedef struct
{
  GnnModule parent_instance;
  GVariant *kernel_size, *stride, *padding;
} Unpool;

struct _GnnMaxUnpool1d { Unpool u; };
struct _GnnMaxUnpool2d { Unpool u; };

G_DEFINE_FINAL_TYPE (GnnMaxUnpool1d, gnn_max_unpool1d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnMaxUnpool2d, gnn_max_unpool2d, GNN_TYPE_MODULE)

enum { UN_PROP_0, UN_PROP_KERNEL_SIZE, UN_PROP_STRIDE, UN_PROP_PADDING, UN_N_PROPS };

static GnnProp un1_props[UN_N_PROPS], un2_props[UN_N_PROPS];

/* module (input, indices[, output size as an int64 tensor or GVariant... ]): the output size
 * is torch's default, (in - 1) · stride - 2 · padding + kernel */
static GnnArgs *
unpool_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  Unpool *self = (Unpool *) module;
  gboolean one = GNN_IS_MAX_UNPOOL1D (module);
  const char *name = one ? "MaxUnpool1d" : "MaxUnpool2d";
  guint n = one ? 1 : 2, nd;
  GnnTensor *x = gnn_args_first_tensor (input, name, error), *indices;
  gint64 k[2], st[2], p[2], o[2] = { 1, 1 };
  const gint64 *s;
  g_autoptr(GnnTensor) x2 = NULL, i2 = NULL, y = NULL;

  if (x == NULL)
    return NULL;
  indices = gnn_args_get_tensor (input, 1, error);
  if (indices == NULL)
    {
      g_prefix_error (error, "%s: indices: ", name);
      return NULL;
    }
  if (!sizes_of (name, "kernel_size", self->kernel_size, NULL, 1, n, k, error) ||
      !sizes_of (name, "stride", self->stride, self->kernel_size, 1, n, st, error) ||
      !sizes_of (name, "padding", self->padding, NULL, 0, n, p, error))
    return NULL;
  s = gnn_tensor_get_shape (x, &nd);
  if (nd < n + 1 || nd > n + 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: expected a %uD or %uD input, got %uD", name, n + 1, n + 2, nd);
      return NULL;
    }
  for (guint a = 0; a < n; a++)
    o[2 - n + a] = (s[nd - n + a] - 1) * st[a] - 2 * p[a] + k[a];
  if (!one)
    return gnn_args_take_tensor_or_prefix (gnn_tensor_max_unpool2d (x, indices, o, error), name, error);
  if (!(x2 = gnn_tensor_unsqueeze (x, -2, error)) || !(i2 = gnn_tensor_unsqueeze (indices, -2, error)) ||
      !(y = gnn_tensor_max_unpool2d (x2, i2, o, error)))
    {
      g_prefix_error (error, "%s: ", name);
      return NULL;
    }
  return gnn_args_take_tensor_or_prefix (gnn_tensor_squeeze_dim (y, -2, error), name, error);
}

static char *
unpool_extra_repr (GnnModule *module)
{
  Unpool *self = (Unpool *) module;
  guint n = GNN_IS_MAX_UNPOOL1D (module) ? 1 : 2;
  gint64 k[2], st[2], p[2];
  const char *name = n == 1 ? "MaxUnpool1d" : "MaxUnpool2d";

  if (!sizes_of (name, "kernel_size", self->kernel_size, NULL, 1, n, k, NULL) ||
      !sizes_of (name, "stride", self->stride, self->kernel_size, 1, n, st, NULL) ||
      !sizes_of (name, "padding", self->padding, NULL, 0, n, p, NULL))
    return g_strdup ("?");
  if (n == 1)
    return g_strdup_printf ("kernel_size=(%" G_GINT64_FORMAT ",), stride=(%" G_GINT64_FORMAT ",), padding=(%"
                            G_GINT64_FORMAT ",)", k[0], st[0], p[0]);
  return g_strdup_printf ("kernel_size=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), stride=(%" G_GINT64_FORMAT
                          ", %" G_GINT64_FORMAT "), padding=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")",
                          k[0], k[1], st[0], st[1], p[0], p[1]);
}

static void
unpool_class_init (GObjectClass *klass, GnnProp *props)
{
  GParamFlags co = GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY;

  GNN_MODULE_CLASS (klass)->forward = unpool_forward;
  GNN_MODULE_CLASS (klass)->extra_repr = unpool_extra_repr;
  props[UN_PROP_KERNEL_SIZE] = (GnnProp) {
    gnn_param_spec_int64s ("kernel-size", co), G_STRUCT_OFFSET (Unpool, kernel_size) };
  props[UN_PROP_STRIDE] = (GnnProp) { gnn_param_spec_int64s ("stride", co), G_STRUCT_OFFSET (Unpool, stride) };
  props[UN_PROP_PADDING] = (GnnProp) { gnn_param_spec_int64s ("padding", co), G_STRUCT_OFFSET (Unpool, padding) };
  gnn_props_install (klass, props, UN_N_PROPS);
}

/**
 * GnnMaxUnpool1d:
 *
 * The partial inverse of [class@Gnn.MaxPool1d], as `torch.nn.MaxUnpool1d`: called with
 * (input, indices) (the two outputs of a max pooling with return_indices), it writes each
 * value at its index in an output of zeros of length (L - 1) · stride - 2 · padding +
 * kernel_size, through [method@Gnn.Tensor.max_unpool2d]. Its construct-only properties are
 * `kernel-size`, `stride` (%NULL for the kernel size) and `padding`, #GVariant "ax" of one
 * value. It prints as torch's: "MaxUnpool1d(kernel_size=(2,), stride=(2,), padding=(0,))".
 *
 * Since: 0.1
 */

/**
 * GnnMaxUnpool1d:kernel-size:
 *
 * The window size of the pooling (`kernel_size`).
 *
 * Since: 0.1
 */

/**
 * GnnMaxUnpool1d:stride:
 *
 * The stride of the pooling (`stride`); %NULL for the kernel size.
 *
 * Since: 0.1
 */

/**
 * GnnMaxUnpool1d:padding:
 *
 * The padding of the pooling (`padding`); %NULL for 0.
 *
 * Since: 0.1
 */
static void
gnn_max_unpool1d_class_init (GnnMaxUnpool1dClass *klass)
{
  unpool_class_init (G_OBJECT_CLASS (klass), un1_props);
}

static void
gnn_max_unpool1d_init (GnnMaxUnpool1d *self)
{
}

/**
 * gnn_max_unpool1d_new:
 * @kernel_size: the window size of the pooling
 * @stride: the stride of the pooling, 0 for the kernel size
 * @padding: the padding of the pooling
 *
 * Creates `nn.MaxUnpool1d (kernel_size, stride, padding)`.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnMaxUnpool1d *
gnn_max_unpool1d_new (gint64 kernel_size,
                      gint64 stride,
                      gint64 padding)
{
  return g_object_new (GNN_TYPE_MAX_UNPOOL1D, "kernel-size", int64s_variant (&kernel_size, 1),
                       "stride", stride > 0 ? int64s_variant (&stride, 1) : NULL,
                       "padding", int64s_variant (&padding, 1), NULL);
}

/**
 * GnnMaxUnpool2d:
 *
 * The partial inverse of [class@Gnn.MaxPool2d], as `torch.nn.MaxUnpool2d`: called with
 * (input, indices), it writes each value at its index in an output plane of zeros of size
 * (h - 1) · stride - 2 · padding + kernel_size per dimension, through
 * [method@Gnn.Tensor.max_unpool2d]. Its properties are those of [class@Gnn.MaxUnpool1d]
 * with one or two values. It prints as torch's:
 * "MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))".
 *
 * Since: 0.1
 */

/**
 * GnnMaxUnpool2d:kernel-size:
 *
 * The window size of the pooling (`kernel_size`), one or two values.
 *
 * Since: 0.1
 */

/**
 * GnnMaxUnpool2d:stride:
 *
 * The stride of the pooling (`stride`), one or two values; %NULL for the kernel size.
 *
 * Since: 0.1
 */

/**
 * GnnMaxUnpool2d:padding:
 *
 * The padding of the pooling (`padding`), one or two values; %NULL for 0.
 *
 * Since: 0.1
 */
static void
gnn_max_unpool2d_class_init (GnnMaxUnpool2dClass *klass)
{
  unpool_class_init (G_OBJECT_CLASS (klass), un2_props);
}

static void
gnn_max_unpool2d_init (GnnMaxUnpool2d *self)
{
}

/**
 * gnn_max_unpool2d_new:
 * @kernel_size: (array fixed-size=2): the window size of the pooling
 * @stride: (array fixed-size=2) (nullable): the stride of the pooling, %NULL for the kernel
 *   size
 * @padding: (array fixed-size=2): the padding of the pooling
 *
 * Creates `nn.MaxUnpool2d (kernel_size, stride, padding)`.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnMaxUnpool2d *
gnn_max_unpool2d_new (const gint64 *kernel_size,
                      const gint64 *stride,
                      const gint64 *padding)
{
  g_return_val_if_fail (kernel_size != NULL && padding != NULL, NULL);
  return g_object_new (GNN_TYPE_MAX_UNPOOL2D, "kernel-size", int64s_variant (kernel_size, 2),
                       "stride", stride ? int64s_variant (stride, 2) : NULL,
                       "padding", int64s_variant (padding, 2), NULL);
}

/* ---- AlphaDropout, FeatureAlphaDropout ------------------------------------------------- */

/* SELU's negative saturation value, -λα, as torch's alpha dropout writes it */
#define ALPHA_PRIME 1.7580993408473766

/* alpha dropout of single elements or (@feature) of whole channels: kept elements are
 * a · x + a·α'·p, dropped ones a·α'·p - a·α', with a = 1 / √((α'² p + 1)(1 - p)), which keeps
 * a zero-mean unit-variance input so */
static GnnTensor *
alpha_dropout (const char *who, GnnTensor *x, double p, gboolean training, gboolean feature, GError **error)
{
  gint64 noise_shape[GNN_MAX_DIMS];
  const gint64 *s;
  guint nd;
  GnnDtype dtype = gnn_tensor_get_dtype (x);
  double a, b;
  g_autoptr(GnnTensor) u = NULL, keep = NULL, mask = NULL, scaled = NULL, shift = NULL, kept = NULL;

  if (!(p >= 0 && p <= 1))
    {
      g_autofree char *v = gnn_python_float_repr (p);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: dropout probability has to be between 0 and 1, but got %s", who, v);
      return NULL;
    }
  s = gnn_tensor_get_shape (x, &nd);
  if (feature && nd < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: Feature dropout requires at least 2 dimensions in the input, got %u", who, nd);
      return NULL;
    }
  if (!training || p == 0 || gnn_tensor_get_numel (x) == 0)
    return g_object_ref (x);
  if (p == 1)
    return gnn_tensor_mul_scalar (x, 0.0, error);
  if (!gnn_check_floating (who, x, error))
    return NULL;
  for (guint i = 0; i < nd; i++)
    noise_shape[i] = !feature || i < 2 ? s[i] : 1;
  a = 1.0 / sqrt ((ALPHA_PRIME * ALPHA_PRIME * p + 1) * (1 - p));
  b = ALPHA_PRIME * a * p;
  /* y = x · (a · keep) + (keep - 1) · α' · a + b */
  if (!(u = gnn_tensor_new_rand (noise_shape, nd, NULL, dtype, gnn_tensor_get_device (x), error)) ||
      !(keep = gnn_tensor_lt_scalar (u, 1 - p, error)) || !(mask = gnn_tensor_to_dtype (keep, dtype, error)) ||
      !(scaled = gnn_tensor_mul_scalar (mask, a, error)) ||
      !(shift = gnn_tensor_mul_scalar (mask, ALPHA_PRIME * a, error)) ||
      !(kept = gnn_tensor_mul (x, scaled, error)))
    return NULL;
  {
    g_autoptr(GnnTensor) sum = gnn_tensor_add (kept, shift, 1.0, error);

    if (sum == NULL)
      return NULL;
    return gnn_tensor_add_scalar (sum, b - ALPHA_PRIME * a, error);
  }
}

/**
 * gnn_tensor_alpha_dropout:
 * @self: the input
 * @p: the probability of an element being dropped, in [0, 1]
 * @training: whether to apply dropout; without, the input is returned as it is
 * @error: return location for a #GError
 *
 * `torch.nn.functional.alpha_dropout`, the dropout of self-normalising networks: in
 * training each element is set with probability @p to SELU's saturation value -λα =
 * -1.7580993408473766, then the result is scaled and shifted (a · y + b, a = 1 / √((λ²α² p
 * + 1)(1 - p)), b = a·λα·p) so that a zero-mean unit-variance input keeps its mean and
 * variance. The random draws come from the default generator. This is what
 * [class@Gnn.AlphaDropout] runs.
 *
 * Returns: (transfer full): the result (@self itself, another reference, when nothing is
 *   dropped), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_alpha_dropout (GnnTensor *self,
                          double     p,
                          gboolean   training,
                          GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return alpha_dropout ("alpha_dropout", self, p, training, FALSE, error);
}

/**
 * gnn_tensor_feature_alpha_dropout:
 * @self: the input, (N, C, *) with at least 2 dimensions
 * @p: the probability of a channel being dropped, in [0, 1]
 * @training: whether to apply dropout; without, the input is returned as it is
 * @error: return location for a #GError
 *
 * `torch.nn.functional.feature_alpha_dropout`: [method@Gnn.Tensor.alpha_dropout] of whole
 * channels (each element of the first two dimensions). This is what
 * [class@Gnn.FeatureAlphaDropout] runs.
 *
 * Returns: (transfer full): the result (@self itself, another reference, when nothing is
 *   dropped), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_feature_alpha_dropout (GnnTensor *self,
                                  double     p,
                                  gboolean   training,
                                  GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return alpha_dropout ("feature_alpha_dropout", self, p, training, TRUE, error);
}

typedef struct
{
  GnnModule parent_instance;
  double p;
} AlphaDrop;

struct _GnnAlphaDropout { AlphaDrop d; };
struct _GnnFeatureAlphaDropout { AlphaDrop d; };

G_DEFINE_FINAL_TYPE (GnnAlphaDropout, gnn_alpha_dropout, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnFeatureAlphaDropout, gnn_feature_alpha_dropout, GNN_TYPE_MODULE)

enum { AD_PROP_0, AD_PROP_P, AD_N_PROPS };

static GnnProp ad_props[AD_N_PROPS], fad_props[AD_N_PROPS];

static gboolean
check_p (GParamSpec *pspec, const GValue *value, GError **error)
{
  double p = g_value_get_double (value);

  if (!(p >= 0 && p <= 1))
    {
      g_autofree char *v = gnn_python_float_repr (p);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "dropout probability has to be between 0 and 1, but got %s", v);
      return FALSE;
    }
  return TRUE;
}

static GnnArgs *
alpha_drop_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  gboolean feature = GNN_IS_FEATURE_ALPHA_DROPOUT (module);
  const char *name = feature ? "FeatureAlphaDropout" : "AlphaDropout";
  GnnTensor *x = gnn_args_first_tensor (input, name, error);

  if (x == NULL)
    return NULL;
  return gnn_args_take_tensor_or_prefix (alpha_dropout (feature ? "feature_alpha_dropout" : "alpha_dropout", x,
                                                        ((AlphaDrop *) module)->p, gnn_module_get_training (module),
                                                        feature, error), name, error);
}

static char *
alpha_drop_extra_repr (GnnModule *module)
{
  g_autofree char *p = gnn_python_float_repr (((AlphaDrop *) module)->p);

  return g_strdup_printf ("p=%s, inplace=False", p);
}

static void
alpha_drop_class_init (GObjectClass *klass, GnnProp *props)
{
  GNN_MODULE_CLASS (klass)->forward = alpha_drop_forward;
  GNN_MODULE_CLASS (klass)->extra_repr = alpha_drop_extra_repr;
  props[AD_PROP_P] = (GnnProp) {
    gnn_param_spec_double ("p", 0.5, GNN_PARAM_RW | G_PARAM_CONSTRUCT), G_STRUCT_OFFSET (AlphaDrop, p), check_p };
  gnn_props_install (klass, props, AD_N_PROPS);
}

/**
 * GnnAlphaDropout:
 *
 * Alpha dropout, as `torch.nn.AlphaDropout`, through [method@Gnn.Tensor.alpha_dropout]:
 * active in training mode only. Its property `p` (0.5) is torch's. It has no parameters and
 * prints as torch's: "AlphaDropout(p=0.5, inplace=False)".
 *
 * Since: 0.1
 */

/**
 * GnnAlphaDropout:p:
 *
 * The probability of an element being dropped (`p`), in [0, 1].
 *
 * Since: 0.1
 */
static void
gnn_alpha_dropout_class_init (GnnAlphaDropoutClass *klass)
{
  alpha_drop_class_init (G_OBJECT_CLASS (klass), ad_props);
}

static void
gnn_alpha_dropout_init (GnnAlphaDropout *self)
{
}

/**
 * gnn_alpha_dropout_new:
 * @p: the probability of an element being dropped
 *
 * Creates `nn.AlphaDropout (p)`; a @p outside [0, 1] is refused at setup.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnAlphaDropout *
gnn_alpha_dropout_new (double p)
{
  return g_object_new (GNN_TYPE_ALPHA_DROPOUT, "p", p, NULL);
}

/**
 * GnnFeatureAlphaDropout:
 *
 * Alpha dropout of whole channels, as `torch.nn.FeatureAlphaDropout`, through
 * [method@Gnn.Tensor.feature_alpha_dropout]: active in training mode only. It prints as
 * torch's: "FeatureAlphaDropout(p=0.5, inplace=False)".
 *
 * Since: 0.1
 */

/**
 * GnnFeatureAlphaDropout:p:
 *
 * The probability of a channel being dropped (`p`), in [0, 1].
 *
 * Since: 0.1
 */
static void
gnn_feature_alpha_dropout_class_init (GnnFeatureAlphaDropoutClass *klass)
{
  alpha_drop_class_init (G_OBJECT_CLASS (klass), fad_props);
}

static void
gnn_feature_alpha_dropout_init (GnnFeatureAlphaDropout *self)
{
}

/**
 * gnn_feature_alpha_dropout_new:
 * @p: the probability of a channel being dropped
 *
 * Creates `nn.FeatureAlphaDropout (p)`.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnFeatureAlphaDropout *
gnn_feature_alpha_dropout_new (double p)
{
  return g_object_new (GNN_TYPE_FEATURE_ALPHA_DROPOUT, "p", p, NULL);
}

/* ---- EmbeddingBag ---------------------------------------------------------------------- */

static gboolean
bag_error (GError **error, GnnError code, const char *message)
{
  g_set_error (error, GNN_ERROR, code, "embedding_bag: %s", message);
  return FALSE;
}

/* the bags of @idx (n indices): bag b is [starts[b], starts[b + 1]) */
static gint64 *
bag_starts (GnnTensor *input, GnnTensor *offsets, gboolean include_last_offset, gint64 n, gint64 *n_bags,
            GError **error)
{
  guint nd = gnn_tensor_get_ndim (input);
  g_autofree gint64 *offs = NULL;
  gint64 *starts;
  gsize n_offs = 0;

  if (nd == 2)
    {
      gint64 B = gnn_tensor_get_size (input, 0, NULL), L = gnn_tensor_get_size (input, 1, NULL);

      if (offsets)
        {
          bag_error (error, GNN_ERROR_INVALID_ARGUMENT,
                     "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed "
                     "length sequences.");
          return NULL;
        }
      starts = g_new (gint64, B + 1);
      for (gint64 b = 0; b <= B; b++)
        starts[b] = b * L;
      *n_bags = B;
      return starts;
    }
  if (nd != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "embedding_bag: input has to be 1D or 2D Tensor, but got "
                   "Tensor of dimension %u", nd);
      return NULL;
    }
  if (offsets == NULL)
    {
      bag_error (error, GNN_ERROR_INVALID_ARGUMENT, "offsets has to be a 1D Tensor but got None");
      return NULL;
    }
  if (gnn_tensor_get_ndim (offsets) != 1 || gnn_tensor_get_dtype (offsets) != GNN_DTYPE_INT64)
    {
      bag_error (error, GNN_ERROR_SHAPE, "offsets has to be a 1D int64 Tensor");
      return NULL;
    }
  offs = gnn_tensor_to_int64s (offsets, &n_offs, error);
  if (offs == NULL && n_offs > 0)
    return NULL;
  if (n_offs > 0 && offs[0] != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "embedding_bag: offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start "
                   "from position 0. However, got %" G_GINT64_FORMAT, offs[0]);
      return NULL;
    }
  *n_bags = include_last_offset ? MAX ((gint64) n_offs - 1, 0) : (gint64) n_offs;
  starts = g_new (gint64, *n_bags + 1);
  for (gint64 b = 0; b < *n_bags; b++)
    starts[b] = offs[b];
  starts[*n_bags] = n;
  for (gint64 b = 0; b < *n_bags; b++)
    if (starts[b] > starts[b + 1] || starts[b + 1] > n)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                     "embedding_bag: offsets must be non-decreasing and at most the input's length %" G_GINT64_FORMAT
                     ", got offsets[%" G_GINT64_FORMAT "]=%" G_GINT64_FORMAT, n, b + 1, starts[b + 1]);
        g_free (starts);
        return NULL;
      }
  return starts;
}

/**
 * gnn_tensor_embedding_bag:
 * @input: the indices, int64: (B, N) (B bags of N) or (n) with @offsets
 * @weight: the table, (num_embeddings, embedding_dim)
 * @offsets: (nullable): for a 1-d @input, the start of each bag, int64, the first 0
 * @mode: (nullable): "sum", "mean" (%NULL) or "max"
 * @per_sample_weights: (nullable): a weight per index, of @input's shape, with mode "sum"
 * @include_last_offset: whether @offsets has one more entry, the end of the last bag
 * @padding_idx: a row left out of every bag (not counted in the mean), or
 *   [const@Gnn.EMBEDDING_NO_PADDING] for none
 * @error: return location for a #GError
 *
 * `torch.nn.functional.embedding_bag`: for each bag the sum, mean or maximum (per column)
 * of the rows of @weight at its indices, (B, embedding_dim); an empty bag gives zeros. The
 * sums and means are one index_select and one scatter_add; the gradient reaches the rows
 * used (for "max" the row of each column's maximum). This is what
 * [class@Gnn.EmbeddingBag] runs.
 *
 * Returns: (transfer full): the bags, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_embedding_bag (GnnTensor  *input,
                          GnnTensor  *weight,
                          GnnTensor  *offsets,
                          const char *mode,
                          GnnTensor  *per_sample_weights,
                          gboolean    include_last_offset,
                          gint64      padding_idx,
                          GError    **error)
{
  g_autofree gint64 *idx = NULL, *starts = NULL, *pos = NULL, *rows_at = NULL, *bag_of = NULL;
  gsize n = 0;
  gint64 B = 0, K = 0, D, E;
  const char *device;
  GnnDtype dtype;
  int m;

  g_return_val_if_fail (GNN_IS_TENSOR (input) && GNN_IS_TENSOR (weight), NULL);
  mode = mode ? mode : "mean";
  m = g_str_equal (mode, "sum") ? 0 : g_str_equal (mode, "mean") ? 1 : g_str_equal (mode, "max") ? 2 : -1;
  if (m < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "embedding_bag: mode has to be one of sum, mean or max, got %s", mode);
      return NULL;
    }
  if (gnn_tensor_get_dtype (input) != GNN_DTYPE_INT64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "embedding_bag: expected indices of dtype int64, got %s",
                   gnn_dtype_get_name (gnn_tensor_get_dtype (input)));
      return NULL;
    }
  if (gnn_tensor_get_ndim (weight) != 2 || !gnn_check_floating ("embedding_bag", weight, error))
    {
      if (error && *error == NULL)
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "embedding_bag: 'weight' must be 2-D, got %uD",
                     gnn_tensor_get_ndim (weight));
      return NULL;
    }
  if (per_sample_weights && m != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for "
                   "mode='sum' (got mode='%s'). Please open a feature request on GitHub.", mode);
      return NULL;
    }
  if (per_sample_weights && gnn_tensor_get_numel (per_sample_weights) != gnn_tensor_get_numel (input))
    {
      bag_error (error, GNN_ERROR_SHAPE, "per_sample_weights must have the same number of elements as input");
      return NULL;
    }
  E = gnn_tensor_get_size (weight, 0, NULL);
  D = gnn_tensor_get_size (weight, 1, NULL);
  if (padding_idx != GNN_EMBEDDING_NO_PADDING && padding_idx < 0)
    padding_idx += E;
  idx = gnn_tensor_to_int64s (input, &n, error);
  if (idx == NULL && n > 0)
    return NULL;
  if (!(starts = bag_starts (input, offsets, include_last_offset, n, &B, error)))
    return NULL;
  for (gsize e = 0; e < n; e++)
    if (idx[e] < 0 || idx[e] >= E)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "embedding_bag: index %" G_GINT64_FORMAT " is out of range "
                     "for a table of %" G_GINT64_FORMAT " rows", idx[e], E);
        return NULL;
      }
  /* the kept positions (padding left out), their bags and rows */
  pos = g_new (gint64, n + 1);
  rows_at = g_new (gint64, n + 1);
  bag_of = g_new (gint64, n + 1);
  for (gint64 b = 0; b < B; b++)
    for (gint64 e = starts[b]; e < starts[b + 1]; e++)
      if (idx[e] != padding_idx)
        {
          pos[K] = e;
          rows_at[K] = idx[e];
          bag_of[K++] = b;
        }
  device = gnn_tensor_get_device (weight);
  dtype = gnn_tensor_get_dtype (weight);
  {
    gint64 so[2] = { B, D };
    g_autoptr(GnnTensor) out = gnn_tensor_new_zeros (so, 2, dtype, device, error);
    g_autoptr(GnnTensor) row_index = NULL, rows = NULL;

    if (out == NULL)
      return NULL;
    if (K == 0)
      return g_steal_pointer (&out);
    if (!(row_index = int64_tensor (rows_at, K, &K, 1, device, error)) ||
        !(rows = gnn_tensor_index_select (weight, 0, row_index, error)))
      return NULL;
    if (m == 2)
      {
        g_autoptr(GPtrArray) bags = g_ptr_array_new_with_free_func (g_object_unref);
        gint64 k = 0;

        for (gint64 b = 0; b < B; b++)
          {
            gint64 first = k;
            g_autoptr(GnnTensor) part = NULL;
            GnnTensor *v;

            while (k < K && bag_of[k] == b)
              k++;
            if (k == first)
              v = gnn_tensor_new_zeros (&D, 1, dtype, device, error);
            else if ((part = gnn_tensor_narrow (rows, 0, first, k - first, error)))
              v = gnn_tensor_max_dim (part, 0, FALSE, NULL, error);
            else
              v = NULL;
            if (v == NULL)
              return NULL;
            g_ptr_array_add (bags, v);
          }
        return gnn_stack ((GnnTensor **) bags->pdata, bags->len, 0, error);
      }
    {
      g_autofree gint64 *scatter_at = g_new (gint64, K * D);
      gint64 si[2] = { K, D };
      g_autoptr(GnnTensor) where = NULL, weighted = NULL, sum = NULL;

      for (gint64 k = 0; k < K; k++)
        for (gint64 d = 0; d < D; d++)
          scatter_at[k * D + d] = bag_of[k];
      if (per_sample_weights)
        {
          gint64 numel = gnn_tensor_get_numel (per_sample_weights), s2[2] = { K, 1 };
          g_autoptr(GnnTensor) flat = gnn_tensor_reshape (per_sample_weights, &numel, 1, error);
          g_autoptr(GnnTensor) at = flat ? int64_tensor (pos, K, &K, 1, device, error) : NULL;
          g_autoptr(GnnTensor) w = at ? gnn_tensor_index_select (flat, 0, at, error) : NULL;
          g_autoptr(GnnTensor) w2 = w ? gnn_tensor_reshape (w, s2, 2, error) : NULL;

          if (w2 == NULL || !(weighted = gnn_tensor_mul (rows, w2, error)))
            return NULL;
        }
      else
        weighted = g_object_ref (rows);
      if (!(where = int64_tensor (scatter_at, K * D, si, 2, device, error)) ||
          !(sum = gnn_tensor_scatter_add (out, 0, where, weighted, error)))
        return NULL;
      if (m == 0)
        return g_steal_pointer (&sum);
      {
        g_autofree double *counts = g_new0 (double, B);
        gint64 s2[2] = { B, 1 };
        g_autoptr(GnnTensor) c = NULL, c2 = NULL;

        for (gint64 k = 0; k < K; k++)
          counts[bag_of[k]] += 1;
        for (gint64 b = 0; b < B; b++)
          counts[b] = MAX (counts[b], 1);
        if (!(c = gnn_tensor_new_from_doubles (counts, B, s2, 2, error)) ||
            !(c2 = gnn_tensor_to_dtype (c, dtype, error)))
          return NULL;
        if (g_strcmp0 (device, gnn_tensor_get_device (c2)) != 0)
          {
            g_autoptr(GnnTensor) moved = gnn_tensor_to_device (c2, device, error);

            if (moved == NULL)
              return NULL;
            g_set_object (&c2, moved);
          }
        return gnn_tensor_div (sum, c2, error);
      }
    }
  }
}

/**
 * GnnEmbeddingBag:
 *
 * Sums, means or maxima of bags of embeddings, as `torch.nn.EmbeddingBag`, through
 * [method@Gnn.Tensor.embedding_bag]: called with (input, offsets, per_sample_weights), the
 * last two optional. It holds the parameter `weight`, (num_embeddings, embedding_dim), drawn
 * from N(0, 1) with the padding row zero. Its construct-only properties are torch's
 * arguments: `num-embeddings`, `embedding-dim`, `mode` ("mean"), `include-last-offset` and
 * `padding-idx` ([const@Gnn.EMBEDDING_NO_PADDING] for None; negative counts from the end).
 * It prints as torch's: "EmbeddingBag(5, 3, mode=mean)".
 *
 * Since: 0.1
 */
struct _GnnEmbeddingBag
{
  GnnModule parent_instance;
  gint64 num_embeddings, embedding_dim, padding_idx;
  char *mode;
  gboolean include_last_offset;
};

G_DEFINE_FINAL_TYPE (GnnEmbeddingBag, gnn_embedding_bag, GNN_TYPE_MODULE)

enum {
  EB_PROP_0,
  EB_PROP_NUM_EMBEDDINGS,
  EB_PROP_EMBEDDING_DIM,
  EB_PROP_MODE,
  EB_PROP_INCLUDE_LAST_OFFSET,
  EB_PROP_PADDING_IDX,
  EB_N_PROPS
};

static GnnProp eb_props[EB_N_PROPS];

static gboolean
gnn_embedding_bag_setup (GnnModule *module,
                         GError   **error)
{
  GnnEmbeddingBag *self = GNN_EMBEDDING_BAG (module);
  gint64 shape[2] = { self->num_embeddings, self->embedding_dim };
  g_autoptr(GnnTensor) data = NULL;
  g_autoptr(GnnParameter) weight = NULL;

  if (!GNN_MODULE_CLASS (gnn_embedding_bag_parent_class)->setup (module, error))
    return FALSE;
  if (!g_str_equal (self->mode, "sum") && !g_str_equal (self->mode, "mean") && !g_str_equal (self->mode, "max"))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "EmbeddingBag: mode has to be one of sum, mean or max, got %s", self->mode);
      return FALSE;
    }
  if (self->padding_idx != GNN_EMBEDDING_NO_PADDING)
    {
      if (self->padding_idx >= self->num_embeddings || self->padding_idx < -self->num_embeddings)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "EmbeddingBag: padding_idx must be within num_embeddings, got %" G_GINT64_FORMAT
                       " for %" G_GINT64_FORMAT, self->padding_idx, self->num_embeddings);
          return FALSE;
        }
      if (self->padding_idx < 0)
        self->padding_idx += self->num_embeddings;
    }
  if (!(data = gnn_tensor_new_randn (shape, 2, NULL, gnn_module_dtype (module), NULL, error)))
    return FALSE;
  if (self->padding_idx != GNN_EMBEDDING_NO_PADDING)
    {
      g_autoptr(GnnTensor) row = gnn_tensor_select (data, 0, self->padding_idx, error);

      if (row == NULL || !gnn_tensor_zero_ (row, error))
        return FALSE;
    }
  if (!(weight = gnn_parameter_new (data, TRUE, error)))
    return FALSE;
  return gnn_module_register_parameter (module, "weight", weight, error);
}

static GnnArgs *
gnn_embedding_bag_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnEmbeddingBag *self = GNN_EMBEDDING_BAG (module);
  GnnTensor *x = gnn_args_first_tensor (input, "EmbeddingBag", error);
  guint n = gnn_args_get_n_values (input);
  GnnTensor *offsets = n > 1 && gnn_args_is_tensor (input, 1) ? gnn_args_get_tensor (input, 1, NULL) : NULL;
  GnnTensor *psw = n > 2 && gnn_args_is_tensor (input, 2) ? gnn_args_get_tensor (input, 2, NULL) : NULL;

  if (x == NULL)
    return NULL;
  return gnn_args_take_tensor_or_prefix (gnn_tensor_embedding_bag (x, gnn_module_tensor (module, "weight", TRUE, NULL),
                                                                   offsets, self->mode, psw,
                                                                   self->include_last_offset, self->padding_idx,
                                                                   error),
                                         "EmbeddingBag", error);
}

static char *
gnn_embedding_bag_extra_repr (GnnModule *module)
{
  GnnEmbeddingBag *self = GNN_EMBEDDING_BAG (module);
  GString *s = g_string_new (NULL);

  g_string_printf (s, "%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", mode=%s", self->num_embeddings,
                   self->embedding_dim, self->mode);
  if (self->padding_idx != GNN_EMBEDDING_NO_PADDING)
    g_string_append_printf (s, ", padding_idx=%" G_GINT64_FORMAT, self->padding_idx);
  return g_string_free (s, FALSE);
}

static void
gnn_embedding_bag_class_init (GnnEmbeddingBagClass *klass)
{
  GParamFlags co = GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY;
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_embedding_bag_setup;
  module_class->forward = gnn_embedding_bag_forward;
  module_class->extra_repr = gnn_embedding_bag_extra_repr;

  /**
   * GnnEmbeddingBag:num-embeddings:
   *
   * The number of rows of the table (`num_embeddings`).
   *
   * Since: 0.1
   */
  eb_props[EB_PROP_NUM_EMBEDDINGS] = (GnnProp) {
    g_param_spec_int64 ("num-embeddings", NULL, NULL, G_MININT64, G_MAXINT64, 0, co),
    G_STRUCT_OFFSET (GnnEmbeddingBag, num_embeddings), gnn_prop_check_size };

  /**
   * GnnEmbeddingBag:embedding-dim:
   *
   * The size of each row (`embedding_dim`).
   *
   * Since: 0.1
   */
  eb_props[EB_PROP_EMBEDDING_DIM] = (GnnProp) {
    g_param_spec_int64 ("embedding-dim", NULL, NULL, G_MININT64, G_MAXINT64, 0, co),
    G_STRUCT_OFFSET (GnnEmbeddingBag, embedding_dim), gnn_prop_check_size };

  /**
   * GnnEmbeddingBag:mode:
   *
   * The reduction of a bag (`mode`): "sum", "mean" or "max".
   *
   * Since: 0.1
   */
  eb_props[EB_PROP_MODE] = (GnnProp) {
    g_param_spec_string ("mode", NULL, NULL, "mean", co), G_STRUCT_OFFSET (GnnEmbeddingBag, mode) };

  /**
   * GnnEmbeddingBag:include-last-offset:
   *
   * Whether offsets holds one more entry, the end of the last bag (`include_last_offset`).
   *
   * Since: 0.1
   */
  eb_props[EB_PROP_INCLUDE_LAST_OFFSET] = (GnnProp) {
    g_param_spec_boolean ("include-last-offset", NULL, NULL, FALSE, co),
    G_STRUCT_OFFSET (GnnEmbeddingBag, include_last_offset) };

  /**
   * GnnEmbeddingBag:padding-idx:
   *
   * A row left out of every bag, zero at setup (`padding_idx`), or
   * [const@Gnn.EMBEDDING_NO_PADDING] for None.
   *
   * Since: 0.1
   */
  eb_props[EB_PROP_PADDING_IDX] = (GnnProp) {
    g_param_spec_int64 ("padding-idx", NULL, NULL, G_MININT64, G_MAXINT64, GNN_EMBEDDING_NO_PADDING, co),
    G_STRUCT_OFFSET (GnnEmbeddingBag, padding_idx) };

  gnn_props_install (G_OBJECT_CLASS (klass), eb_props, EB_N_PROPS);
  gnn_module_class_uses_dtype (module_class);
}

static void
gnn_embedding_bag_init (GnnEmbeddingBag *self)
{
}

/**
 * gnn_embedding_bag_new:
 * @num_embeddings: the number of rows of the table
 * @embedding_dim: the size of each row
 * @mode: (nullable): "sum", "mean" (%NULL) or "max"
 * @include_last_offset: whether offsets holds the end of the last bag
 * @padding_idx: a row left out of every bag, or [const@Gnn.EMBEDDING_NO_PADDING]
 * @dtype: the floating-point element type of the table
 * @error: return location for a #GError
 *
 * Creates `nn.EmbeddingBag (num_embeddings, embedding_dim, mode=mode,
 * include_last_offset=include_last_offset, padding_idx=padding_idx, dtype=dtype)`.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnEmbeddingBag *
gnn_embedding_bag_new (gint64       num_embeddings,
                       gint64       embedding_dim,
                       const char  *mode,
                       gboolean     include_last_offset,
                       gint64       padding_idx,
                       GnnDtype     dtype,
                       GError     **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_EMBEDDING_BAG, "num-embeddings", num_embeddings,
                                  "embedding-dim", embedding_dim, "mode", mode ? mode : "mean",
                                  "include-last-offset", include_last_offset, "padding-idx", padding_idx,
                                  "dtype", dtype, NULL);
}

/* the layer types of this file, for gnn_module_new_from_type_name() to find by name */
void
gnn_layers_more_ensure_types (void)
{
  g_type_ensure (GNN_TYPE_PIXEL_SHUFFLE);
  g_type_ensure (GNN_TYPE_PIXEL_UNSHUFFLE);
  g_type_ensure (GNN_TYPE_CHANNEL_SHUFFLE);
  g_type_ensure (GNN_TYPE_UNFOLD);
  g_type_ensure (GNN_TYPE_FOLD);
  g_type_ensure (GNN_TYPE_INSTANCE_NORM1D);
  g_type_ensure (GNN_TYPE_INSTANCE_NORM2D);
  g_type_ensure (GNN_TYPE_INSTANCE_NORM3D);
  g_type_ensure (GNN_TYPE_LP_POOL1D);
  g_type_ensure (GNN_TYPE_LP_POOL2D);
  g_type_ensure (GNN_TYPE_LOCAL_RESPONSE_NORM);
  g_type_ensure (GNN_TYPE_UPSAMPLE);
  g_type_ensure (GNN_TYPE_UPSAMPLING_NEAREST2D);
  g_type_ensure (GNN_TYPE_UPSAMPLING_BILINEAR2D);
  g_type_ensure (GNN_TYPE_ADAPTIVE_MAX_POOL1D);
  g_type_ensure (GNN_TYPE_ADAPTIVE_MAX_POOL2D);
  g_type_ensure (GNN_TYPE_MAX_UNPOOL1D);
  g_type_ensure (GNN_TYPE_MAX_UNPOOL2D);
  g_type_ensure (GNN_TYPE_ALPHA_DROPOUT);
  g_type_ensure (GNN_TYPE_FEATURE_ALPHA_DROPOUT);
  g_type_ensure (GNN_TYPE_EMBEDDING_BAG);
}
