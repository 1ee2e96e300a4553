/* gnn-transforms.c: sample transforms (torchvision.transforms)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "core/gnn-philox-private.h"
#include "data/gnn-transforms-private.h"
#include "ops/gnn-ops-private.h"
#include "data/gnn-transforms.h"

/* ---- GnnTransform -------------------------------------------------------------------- */

/**
 * GnnTransform:
 *
 * Something that makes a new tensor out of a sample, as the callables of
 * `torchvision.transforms` do: [class@Gnn.ToTensor], [class@Gnn.Normalize],
 * [class@Gnn.Compose], [class@Gnn.RandomCrop], [class@Gnn.RandomHorizontalFlip], or one of
 * your own (in any language). [class@Gnn.TensorDataset]'s #GnnTensorDataset:transform
 * applies one to each sample, [class@Gnn.DataLoader]'s #GnnDataLoader:transform to each
 * batch.
 *
 * The random transforms draw from a [class@Gnn.Generator] (the default generator when none
 * is given), so that a run seeded with [func@Gnn.manual_seed] repeats exactly; their draws
 * differ from torchvision's, which come from PyTorch's generator. Inside the batches of a
 * [class@Gnn.DataLoader] they draw from a stream of the batch's own instead, made of the
 * generator's seed, the loader's #GnnDataLoader:seed and #GnnDataLoader:epoch and the batch's
 * number (the generator's offset does not move): a batch is the same whichever worker thread
 * makes it, and whenever.
 */

G_DEFINE_INTERFACE (GnnTransform, gnn_transform, G_TYPE_OBJECT)

/**
 * GnnTransformInterface::apply:
 * @self: a transform
 * @sample: the tensor to transform
 * @error: return location for a #GError
 *
 * Makes the transformed tensor. Python classes implement `do_apply (self, sample)`.
 *
 * Returns: (transfer full): the transformed tensor (it may be @sample itself, referenced,
 *   when nothing changes), or %NULL with @error set
 */
static void
gnn_transform_default_init (GnnTransformInterface *iface)
{
}

/**
 * gnn_transform_apply:
 * @self: a transform
 * @sample: the tensor to transform
 * @error: return location for a #GError
 *
 * Applies the transform (`transform(sample)`).
 *
 * Returns: (transfer full): the transformed tensor (it may be @sample itself, referenced,
 *   when nothing changes, as torchvision returns its input), or %NULL with @error set
 */
GnnTensor *
gnn_transform_apply (GnnTransform *self,
                     GnnTensor    *sample,
                     GError      **error)
{
  GnnTransformInterface *iface;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TRANSFORM (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (sample), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  iface = GNN_TRANSFORM_GET_IFACE (self);
  g_return_val_if_fail (iface->apply != NULL, NULL);
  out = iface->apply (self, sample, error);
  if (out == NULL && error && *error == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED, "%s: apply failed", G_OBJECT_TYPE_NAME (self));
  return out;
}

static __thread GnnDrawScope *draw_scope;

GnnDrawScope *
gnn_draw_scope_swap (GnnDrawScope *scope)
{
  GnnDrawScope *previous = draw_scope;

  draw_scope = scope;
  return previous;
}

/* One Philox block (four 32-bit words) of @generator's stream, the default generator's when
 * %NULL: each draw of a random transform takes one counter value. Inside a draw scope (a
 * loader's batch) the counter is the scope's and the key mixes the scope's with the
 * generator's seed, and the generator's offset stays where it is. */
static void
draw_block (GnnGenerator *generator,
            guint32       w[4])
{
  GnnGenerator *g = generator ? generator : gnn_generator_get_default ();
  guint64 offset;

  if (draw_scope != NULL)
    {
      gnn_philox4x32 (draw_scope->counter++,
                      draw_scope->key ^ (gnn_generator_get_seed (g) * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)), w);
      return;
    }
  offset = gnn_generator_reserve (g, 1);
  gnn_philox4x32 (offset, gnn_generator_get_seed (g), w);
}

/* an integer in [0, n) from two words (the bias of a 64-bit modulo is negligible) */
static gint64
draw_below (const guint32 *w,
            gint64         n)
{
  return (gint64) ((((guint64) w[0] << 32) | w[1]) % (guint64) n);
}

/* ---- GnnToTensor --------------------------------------------------------------------- */

/**
 * GnnToTensor:
 *
 * Turns an image as files and arrays hold it, (H, W) or (H, W, C), into a tensor (C, H, W)
 * (`torchvision.transforms.ToTensor`): uint8 images become float32 divided by 255, in
 * [0, 1]; other dtypes keep their dtype and values, as `ToTensor` does for a NumPy array of
 * them. A (H, W) image has one channel.
 *
 * torchvision's `ToTensor` takes PIL images and NumPy arrays, and refuses a torch tensor with
 * a TypeError; gnn's images are tensors, so here the input is one, laid out as the array
 * would be (three dimensions are always (H, W, C)).
 */
struct _GnnToTensor
{
  GObject parent_instance;
};

static void gnn_to_tensor_transform_init (GnnTransformInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnToTensor, gnn_to_tensor, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GNN_TYPE_TRANSFORM, gnn_to_tensor_transform_init))

static void gnn_to_tensor_class_init (GnnToTensorClass *klass) {}
static void gnn_to_tensor_init (GnnToTensor *self) {}

static GnnTensor *
to_tensor_apply (GnnTransform *transform,
                 GnnTensor    *sample,
                 GError      **error)
{
  g_autoptr(GnnTensor) hwc = NULL;
  g_autoptr(GnnTensor) chw = NULL;
  g_autoptr(GnnTensor) dense = NULL;
  g_autoptr(GnnTensor) x = NULL;
  guint ndim = gnn_tensor_get_ndim (sample);

  if (ndim != 2 && ndim != 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "ToTensor: pic should be 2/3 dimensional (H, W) or (H, W, C). Got %u dimensions.",
                   ndim);
      return NULL;
    }
  hwc = ndim == 2 ? gnn_tensor_unsqueeze (sample, 2, error) : g_object_ref (sample);
  chw = hwc ? gnn_tensor_permute (hwc, (const int[]) { 2, 0, 1 }, 3, error) : NULL;
  dense = chw ? gnn_tensor_contiguous (chw, error) : NULL;
  if (dense == NULL)
    return NULL;
  if (gnn_tensor_get_dtype (sample) != GNN_DTYPE_UINT8)
    return g_steal_pointer (&dense);
  x = gnn_tensor_to_dtype (dense, GNN_DTYPE_FLOAT32, error);
  return x ? gnn_tensor_div_scalar (x, 255.0, error) : NULL;
}

static void
gnn_to_tensor_transform_init (GnnTransformInterface *iface)
{
  iface->apply = to_tensor_apply;
}

/**
 * gnn_to_tensor_new:
 *
 * Creates the transform (`ToTensor()`).
 *
 * Returns: (transfer full): a new transform
 */
GnnToTensor *
gnn_to_tensor_new (void)
{
  return g_object_new (GNN_TYPE_TO_TENSOR, NULL);
}

/* ---- GnnNormalize -------------------------------------------------------------------- */

/**
 * GnnNormalize:
 *
 * Turns images into normalized floats: `(x * scale - mean[c]) / std[c]` for channel c (the
 * second dimension of a batch (N, C, H, W)), as torchvision's `ToTensor` (scale 1/255 for
 * bytes) followed by `Normalize(mean, std)`. A single mean and std apply to every channel.
 *
 * A [iface@Gnn.Transform]: on one image (C, H, W) the channels are the first dimension, on a
 * batch (N, C, H, W) the second, as `Normalize` on a tensor (dimension -3) has them.
 */
struct _GnnNormalize
{
  GObject parent_instance;

  GArray *mean;
  GArray *std;
  double scale;
};

static void gnn_normalize_transform_init (GnnTransformInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnNormalize, gnn_normalize, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GNN_TYPE_TRANSFORM, gnn_normalize_transform_init))

static void
gnn_normalize_finalize (GObject *object)
{
  GnnNormalize *self = GNN_NORMALIZE (object);

  g_array_unref (self->mean);
  g_array_unref (self->std);
  G_OBJECT_CLASS (gnn_normalize_parent_class)->finalize (object);
}

static void
gnn_normalize_class_init (GnnNormalizeClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_normalize_finalize;
}

static void
gnn_normalize_init (GnnNormalize *self)
{
  self->mean = g_array_new (FALSE, FALSE, sizeof (double));
  self->std = g_array_new (FALSE, FALSE, sizeof (double));
}

/**
 * gnn_normalize_new:
 * @mean: (array length=n_channels): the mean of each channel, after scaling
 * @std: (array length=n_channels): the standard deviation of each channel, after scaling
 * @n_channels: the number of channels, or 1 for one mean and std for all
 * @scale: the factor applied first, such as 1/255 for bytes
 * @error: return location for a #GError
 *
 * Creates the transform. Fashion-MNIST's usual one is mean 0.2860, std 0.3530, scale 1/255.
 *
 * Returns: (transfer full): a new transform, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT) when a std is not positive
 */
GnnNormalize *
gnn_normalize_new (const double *mean,
                   const double *std,
                   guint         n_channels,
                   double        scale,
                   GError      **error)
{
  GnnNormalize *self;

  g_return_val_if_fail (mean != NULL && std != NULL && n_channels > 0, NULL);
  for (guint c = 0; c < n_channels; c++)
    if (!(std[c] > 0))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "std evaluated to zero or less for channel %u (%g): division by zero", c, std[c]);
        return NULL;
      }
  self = g_object_new (GNN_TYPE_NORMALIZE, NULL);
  g_array_append_vals (self->mean, mean, n_channels);
  g_array_append_vals (self->std, std, n_channels);
  self->scale = scale;
  return self;
}

/**
 * gnn_normalize_apply:
 * @self: a transform
 * @images: a batch (N, C, ...) of any dtype, or one image (C, ...)
 * @error: return location for a #GError
 *
 * Normalizes @images into a new float32 tensor (float64 when @images is float64).
 *
 * Returns: (transfer full): the normalized images, or %NULL with @error set
 *   (%GNN_ERROR_SHAPE when the channels do not match)
 */
GnnTensor *
gnn_normalize_apply (GnnNormalize *self,
                     GnnTensor    *images,
                     GError      **error)
{
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) scaled = NULL;
  g_autoptr(GnnTensor) mean = NULL;
  g_autoptr(GnnTensor) inv_std = NULL;
  g_autoptr(GnnTensor) centred = NULL;
  GnnDtype dtype;
  guint ndim, cdim;
  gint64 shape[GNN_MAX_DIMS];
  guint nc = self->mean->len;

  g_return_val_if_fail (GNN_IS_NORMALIZE (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (images), NULL);
  dtype = gnn_tensor_get_dtype (images) == GNN_DTYPE_FLOAT64 ? GNN_DTYPE_FLOAT64 : GNN_DTYPE_FLOAT32;
  x = gnn_tensor_to_dtype (images, dtype, error);
  if (x == NULL || (scaled = gnn_tensor_mul_scalar (x, self->scale, error)) == NULL)
    return NULL;
  if (nc == 1)
    {
      g_autoptr(GnnTensor) c = gnn_tensor_sub_scalar (scaled, g_array_index (self->mean, double, 0), error);
      return c ? gnn_tensor_div_scalar (c, g_array_index (self->std, double, 0), error) : NULL;
    }
  ndim = gnn_tensor_get_ndim (images);
  cdim = ndim >= 4 ? 1 : 0;
  if (ndim < 1 || gnn_tensor_get_shape (images, NULL)[cdim] != nc)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Normalize has %u channels, the images have shape %s (channels in dimension %u)",
                   nc, ndim ? "of a different size" : "()", cdim);
      return NULL;
    }
  for (guint d = 0; d < ndim; d++)
    shape[d] = d == cdim ? nc : 1;
  {
    g_autofree double *inv = g_new (double, nc);
    g_autoptr(GnnTensor) m = NULL;
    g_autoptr(GnnTensor) s = NULL;

    for (guint c = 0; c < nc; c++)
      inv[c] = 1.0 / g_array_index (self->std, double, c);
    m = gnn_tensor_new_from_doubles ((double *) self->mean->data, nc, shape, ndim, error);
    s = m ? gnn_tensor_new_from_doubles (inv, nc, shape, ndim, error) : NULL;
    if (s == NULL)
      return NULL;
    {
      g_autoptr(GnnTensor) m2 = gnn_tensor_to_dtype (m, dtype, error);
      g_autoptr(GnnTensor) s2 = m2 ? gnn_tensor_to_dtype (s, dtype, error) : NULL;

      if (s2 == NULL ||
          (mean = gnn_tensor_to_device_of (m2, images, error)) == NULL ||
          (inv_std = gnn_tensor_to_device_of (s2, images, error)) == NULL)
        return NULL;
    }
  }
  centred = gnn_tensor_sub (scaled, mean, 1.0, error);
  return centred ? gnn_tensor_mul (centred, inv_std, error) : NULL;
}

static GnnTensor *
normalize_transform_apply (GnnTransform *transform,
                           GnnTensor    *sample,
                           GError      **error)
{
  return gnn_normalize_apply (GNN_NORMALIZE (transform), sample, error);
}

static void
gnn_normalize_transform_init (GnnTransformInterface *iface)
{
  iface->apply = normalize_transform_apply;
}

/* ---- GnnCompose ---------------------------------------------------------------------- */

/**
 * GnnCompose:
 *
 * Transforms applied one after the other (`torchvision.transforms.Compose`).
 */
struct _GnnCompose
{
  GObject parent_instance;

  GPtrArray *transforms;
};

static void gnn_compose_transform_init (GnnTransformInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnCompose, gnn_compose, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GNN_TYPE_TRANSFORM, gnn_compose_transform_init))

static void
gnn_compose_finalize (GObject *object)
{
  g_ptr_array_unref (GNN_COMPOSE (object)->transforms);
  G_OBJECT_CLASS (gnn_compose_parent_class)->finalize (object);
}

static void
gnn_compose_class_init (GnnComposeClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_compose_finalize;
}

static void
gnn_compose_init (GnnCompose *self)
{
  self->transforms = g_ptr_array_new_with_free_func (g_object_unref);
}

static GnnTensor *
compose_apply (GnnTransform *transform,
               GnnTensor    *sample,
               GError      **error)
{
  GnnCompose *self = GNN_COMPOSE (transform);
  g_autoptr(GnnTensor) x = g_object_ref (sample);

  for (guint i = 0; i < self->transforms->len; i++)
    {
      GnnTensor *next = gnn_transform_apply (g_ptr_array_index (self->transforms, i), x, error);

      if (next == NULL)
        {
          g_prefix_error (error, "transform %u of Compose (%s): ", i,
                          G_OBJECT_TYPE_NAME (g_ptr_array_index (self->transforms, i)));
          return NULL;
        }
      g_object_unref (x);
      x = next;
    }
  return g_steal_pointer (&x);
}

static void
gnn_compose_transform_init (GnnTransformInterface *iface)
{
  iface->apply = compose_apply;
}

/**
 * gnn_compose_new:
 * @transforms: (array length=n_transforms) (nullable): the transforms, in order
 * @n_transforms: the number of transforms
 *
 * Creates a transform that applies @transforms in order (`Compose(transforms)`); with none,
 * it gives its input back.
 *
 * Returns: (transfer full): a new transform
 */
GnnCompose *
gnn_compose_new (GnnTransform **transforms,
                 guint          n_transforms)
{
  GnnCompose *self;

  g_return_val_if_fail (transforms != NULL || n_transforms == 0, NULL);
  for (guint i = 0; i < n_transforms; i++)
    g_return_val_if_fail (GNN_IS_TRANSFORM (transforms[i]), NULL);
  self = g_object_new (GNN_TYPE_COMPOSE, NULL);
  for (guint i = 0; i < n_transforms; i++)
    g_ptr_array_add (self->transforms, g_object_ref (transforms[i]));
  return self;
}

/**
 * gnn_compose_get_n_transforms:
 * @self: a composition
 *
 * The number of transforms (`len(compose.transforms)`).
 *
 * Returns: the number of transforms
 */
guint
gnn_compose_get_n_transforms (GnnCompose *self)
{
  g_return_val_if_fail (GNN_IS_COMPOSE (self), 0);
  return self->transforms->len;
}

/**
 * gnn_compose_get_transform:
 * @self: a composition
 * @index: which transform, below [method@Gnn.Compose.get_n_transforms]
 *
 * One of the transforms (`compose.transforms[index]`).
 *
 * Returns: (transfer none): the transform
 */
GnnTransform *
gnn_compose_get_transform (GnnCompose *self,
                           guint       index)
{
  g_return_val_if_fail (GNN_IS_COMPOSE (self), NULL);
  g_return_val_if_fail (index < self->transforms->len, NULL);
  return g_ptr_array_index (self->transforms, index);
}

/* ---- GnnRandomCrop ------------------------------------------------------------------- */

typedef enum {
  PAD_CONSTANT,
  PAD_EDGE,
  PAD_REFLECT,
  PAD_SYMMETRIC,
} PadMode;

static const char * const pad_mode_names[] = { "constant", "edge", "reflect", "symmetric" };

/**
 * GnnRandomCrop:
 *
 * Cuts a random window of a fixed size out of an image (..., H, W), after padding it
 * (`torchvision.transforms.RandomCrop`): the padding is added first, then, with
 * pad_if_needed, each side of a dimension still smaller than the window is padded by the
 * difference, as torchvision does; the window's corner is drawn uniformly. The padding
 * modes are torchvision's: "constant" (the fill value), "edge" (the last value repeated),
 * "reflect" (mirrored without the edge) and "symmetric" (mirrored with it).
 */
struct _GnnRandomCrop
{
  GObject parent_instance;

  gint64 height, width;
  gint64 left, top, right, bottom;
  gboolean pad_if_needed;
  double fill;
  PadMode mode;
  GnnGenerator *generator;
};

static void gnn_random_crop_transform_init (GnnTransformInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnRandomCrop, gnn_random_crop, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GNN_TYPE_TRANSFORM, gnn_random_crop_transform_init))

static void
gnn_random_crop_finalize (GObject *object)
{
  g_clear_object (&GNN_RANDOM_CROP (object)->generator);
  G_OBJECT_CLASS (gnn_random_crop_parent_class)->finalize (object);
}

static void
gnn_random_crop_class_init (GnnRandomCropClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_random_crop_finalize;
}

static void gnn_random_crop_init (GnnRandomCrop *self) {}

/* The source position of padded position @x (which may lie outside [0, n)) under @mode. */
static gint64
pad_source (gint64  x,
            gint64  n,
            PadMode mode)
{
  if (mode == PAD_EDGE || n == 1)
    return CLAMP (x, 0, n - 1);
  while (x < 0 || x >= n)
    {
      if (mode == PAD_REFLECT)
        x = x < 0 ? -x : 2 * (n - 1) - x;
      else
        x = x < 0 ? -x - 1 : 2 * n - 1 - x;
    }
  return x;
}

/* the positions @idx (@count of them) of @t along @dim, as one index-select on @t's device */
static GnnTensor *
select_positions (GnnTensor    *t,
                  int           dim,
                  const gint64 *idx,
                  gint64        count,
                  GError      **error)
{
  g_autoptr(GnnTensor) index = gnn_tensor_new_from_int64s (idx, count, &count, 1, error);
  g_autoptr(GnnTensor) on_device = index ? gnn_tensor_to_device_of (index, t, error) : NULL;

  return on_device ? gnn_tensor_index_select (t, dim, on_device, error) : NULL;
}

/* @t's window of @count positions along @dim from @start, in the image's coordinates
 * (negative or past the end in the padding), the padding given by @mode */
static GnnTensor *
gather_padded (GnnTensor *t,
               int        dim,
               gint64     start,
               gint64     count,
               PadMode    mode,
               GError   **error)
{
  gint64 n = gnn_tensor_get_shape (t, NULL)[dim];
  g_autofree gint64 *idx = g_new (gint64, count);

  for (gint64 k = 0; k < count; k++)
    idx[k] = pad_source (start + k, n, mode);
  return select_positions (t, dim, idx, count, error);
}

static GnnTensor *
random_crop_apply (GnnTransform *transform,
                   GnnTensor    *sample,
                   GError      **error)
{
  GnnRandomCrop *self = GNN_RANDOM_CROP (transform);
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (sample, &ndim);
  gint64 h, w, left = self->left, top = self->top, hp, wp, i = 0, j = 0, r0, c0;

  if (ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "RandomCrop: expected an image (..., H, W), found %u dimensions", ndim);
      return NULL;
    }
  h = shape[ndim - 2];
  w = shape[ndim - 1];
  hp = h + self->top + self->bottom;
  wp = w + self->left + self->right;
  if (self->pad_if_needed && wp < self->width)
    {
      left += self->width - wp;
      wp += 2 * (self->width - wp);
    }
  if (self->pad_if_needed && hp < self->height)
    {
      top += self->height - hp;
      hp += 2 * (self->height - hp);
    }
  if (hp < self->height || wp < self->width)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "RandomCrop: Required crop size (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") is larger "
                   "than input image size (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")",
                   self->height, self->width, hp, wp);
      return NULL;
    }
  if (self->mode == PAD_REFLECT && (top >= h || left >= w || hp - h - top >= h || wp - w - left >= w))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "RandomCrop: reflect padding must be smaller than the image (%" G_GINT64_FORMAT ", %"
                   G_GINT64_FORMAT ")", h, w);
      return NULL;
    }
  if (hp != self->height || wp != self->width)
    {
      guint32 words[4];

      draw_block (self->generator, words);
      i = draw_below (words, hp - self->height + 1);
      j = draw_below (words + 2, wp - self->width + 1);
    }
  /* the window in the image's own coordinates */
  r0 = i - top;
  c0 = j - left;
  if (self->mode != PAD_CONSTANT)
    {
      g_autoptr(GnnTensor) rows = gather_padded (sample, ndim - 2, r0, self->height, self->mode, error);

      return rows ? gather_padded (rows, ndim - 1, c0, self->width, self->mode, error) : NULL;
    }
  {
    g_autofree gint64 *out_shape = g_memdup2 (shape, ndim * sizeof (gint64));
    g_autoptr(GnnTensor) out = NULL;
    gint64 rs = MAX (r0, 0), re = MIN (r0 + self->height, h);
    gint64 cs = MAX (c0, 0), ce = MIN (c0 + self->width, w);

    out_shape[ndim - 2] = self->height;
    out_shape[ndim - 1] = self->width;
    out = gnn_tensor_new_full (out_shape, ndim, self->fill, gnn_tensor_get_dtype (sample),
                               gnn_tensor_get_device (sample), error);
    if (out == NULL)
      return NULL;
    if (re > rs && ce > cs)
      {
        g_autoptr(GnnTensor) src_rows = gnn_tensor_narrow (sample, ndim - 2, rs, re - rs, error);
        g_autoptr(GnnTensor) src = src_rows ? gnn_tensor_narrow (src_rows, ndim - 1, cs, ce - cs, error) : NULL;
        g_autoptr(GnnTensor) dst_rows = src ? gnn_tensor_narrow (out, ndim - 2, rs - r0, re - rs, error) : NULL;
        g_autoptr(GnnTensor) dst = dst_rows ? gnn_tensor_narrow (dst_rows, ndim - 1, cs - c0, ce - cs, error) : NULL;

        if (dst == NULL || !gnn_tensor_copy_ (dst, src, error))
          return NULL;
      }
    return g_steal_pointer (&out);
  }
}

static void
gnn_random_crop_transform_init (GnnTransformInterface *iface)
{
  iface->apply = random_crop_apply;
}

/**
 * gnn_random_crop_new:
 * @height: the height of the window, at least 1
 * @width: the width of the window, at least 1
 * @padding: (array length=n_padding) (nullable): the padding: none; one value for every
 *   side; two for left and right, then top and bottom; or four for left, top, right and
 *   bottom, as torchvision orders them
 * @n_padding: the number of padding values: 0, 1, 2 or 4
 * @pad_if_needed: whether to pad an image smaller than the window
 * @fill: the value of "constant" padding
 * @padding_mode: (nullable): "constant" (the default, for %NULL), "edge", "reflect" or
 *   "symmetric"
 * @generator: (nullable): the generator of the window's position, or %NULL for the default one
 * @error: return location for a #GError
 *
 * Creates the transform (`RandomCrop(size, padding, pad_if_needed, fill, padding_mode)`).
 *
 * Returns: (transfer full): a new transform, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT for a bad size, padding or mode)
 */
GnnRandomCrop *
gnn_random_crop_new (gint64        height,
                     gint64        width,
                     const gint64 *padding,
                     guint         n_padding,
                     gboolean      pad_if_needed,
                     double        fill,
                     const char   *padding_mode,
                     GnnGenerator *generator,
                     GError      **error)
{
  GnnRandomCrop *self;
  gint64 pad[4] = { 0, 0, 0, 0 };
  int mode = 0;

  g_return_val_if_fail (padding != NULL || n_padding == 0, NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  if (height < 1 || width < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "RandomCrop: the size must be positive, found (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")",
                   height, width);
      return NULL;
    }
  switch (n_padding)
    {
    case 0:
      break;
    case 1:
      pad[0] = pad[1] = pad[2] = pad[3] = padding[0];
      break;
    case 2:
      pad[0] = pad[2] = padding[0];
      pad[1] = pad[3] = padding[1];
      break;
    case 4:
      memcpy (pad, padding, sizeof pad);
      break;
    default:
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "RandomCrop: Padding must be an int or a 1, 2, or 4 element tuple, not a %u element tuple",
                   n_padding);
      return NULL;
    }
  for (guint k = 0; k < 4; k++)
    if (pad[k] < 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "RandomCrop: padding must be zero or more, found %" G_GINT64_FORMAT, pad[k]);
        return NULL;
      }
  if (padding_mode != NULL)
    {
      for (mode = 0; mode < (int) G_N_ELEMENTS (pad_mode_names); mode++)
        if (g_str_equal (padding_mode, pad_mode_names[mode]))
          break;
      if (mode == (int) G_N_ELEMENTS (pad_mode_names))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "RandomCrop: Padding mode should be either constant, edge, reflect or symmetric, "
                       "found \"%s\"", padding_mode);
          return NULL;
        }
    }
  self = g_object_new (GNN_TYPE_RANDOM_CROP, NULL);
  self->height = height;
  self->width = width;
  self->left = pad[0];
  self->top = pad[1];
  self->right = pad[2];
  self->bottom = pad[3];
  self->pad_if_needed = pad_if_needed;
  self->fill = fill;
  self->mode = mode;
  self->generator = generator ? g_object_ref (generator) : NULL;
  return self;
}

/* ---- GnnRandomHorizontalFlip --------------------------------------------------------- */

/**
 * GnnRandomHorizontalFlip:
 *
 * Mirrors an image (..., H, W) left to right with probability p
 * (`torchvision.transforms.RandomHorizontalFlip`); otherwise gives it back unchanged.
 */
struct _GnnRandomHorizontalFlip
{
  GObject parent_instance;

  double p;
  GnnGenerator *generator;
};

static void gnn_random_horizontal_flip_transform_init (GnnTransformInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnRandomHorizontalFlip, gnn_random_horizontal_flip, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GNN_TYPE_TRANSFORM,
                                                      gnn_random_horizontal_flip_transform_init))

static void
gnn_random_horizontal_flip_finalize (GObject *object)
{
  g_clear_object (&GNN_RANDOM_HORIZONTAL_FLIP (object)->generator);
  G_OBJECT_CLASS (gnn_random_horizontal_flip_parent_class)->finalize (object);
}

static void
gnn_random_horizontal_flip_class_init (GnnRandomHorizontalFlipClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_random_horizontal_flip_finalize;
}

static void gnn_random_horizontal_flip_init (GnnRandomHorizontalFlip *self) {}

static GnnTensor *
random_horizontal_flip_apply (GnnTransform *transform,
                              GnnTensor    *sample,
                              GError      **error)
{
  GnnRandomHorizontalFlip *self = GNN_RANDOM_HORIZONTAL_FLIP (transform);
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (sample, &ndim);
  guint32 words[4];

  if (ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "RandomHorizontalFlip: expected an image (..., H, W), found %u dimensions", ndim);
      return NULL;
    }
  draw_block (self->generator, words);
  if (!(words[0] * (1.0 / 4294967296.0) < self->p))
    return g_object_ref (sample);
  {
    gint64 w = shape[ndim - 1];
    g_autofree gint64 *idx = g_new (gint64, w);

    for (gint64 k = 0; k < w; k++)
      idx[k] = w - 1 - k;
    return select_positions (sample, ndim - 1, idx, w, error);
  }
}

static void
gnn_random_horizontal_flip_transform_init (GnnTransformInterface *iface)
{
  iface->apply = random_horizontal_flip_apply;
}

/**
 * gnn_random_horizontal_flip_new:
 * @p: the probability of mirroring, in [0, 1] (torchvision's default is 0.5)
 * @generator: (nullable): the generator of the draws, or %NULL for the default one
 * @error: return location for a #GError
 *
 * Creates the transform (`RandomHorizontalFlip(p)`).
 *
 * Returns: (transfer full): a new transform, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT when @p is outside [0, 1])
 */
GnnRandomHorizontalFlip *
gnn_random_horizontal_flip_new (double         p,
                                GnnGenerator  *generator,
                                GError       **error)
{
  GnnRandomHorizontalFlip *self;

  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  if (!(p >= 0 && p <= 1))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "RandomHorizontalFlip: p must be a probability in [0, 1], found %g", p);
      return NULL;
    }
  self = g_object_new (GNN_TYPE_RANDOM_HORIZONTAL_FLIP, NULL);
  self->p = p;
  self->generator = generator ? g_object_ref (generator) : NULL;
  return self;
}
