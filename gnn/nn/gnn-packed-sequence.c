/* gnn-packed-sequence.c: GnnPackedSequence and the packing functions of torch.nn.utils.rnn
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Packing and padding are written with differentiable ops (index_select, narrow, cat, stack),
 * so that gradients flow between the padded tensor and the packed data on every backend.
 */
#include "config.h"

#include <string.h>

#include "gnn-packed-sequence.h"
#include "core/gnn-error.h"
#include "core/gnn-tensor-private.h"
#include "ops/gnn-ops.h"

/**
 * GnnPackedSequence:
 *
 * A batch of variable-length sequences packed as PyTorch's
 * `torch.nn.utils.rnn.PackedSequence`: [property@Gnn.PackedSequence:data] holds the steps
 * of all sequences, time-major (the first step of every sequence, then the second step of
 * every sequence that has one, ...), with the sequences sorted by decreasing length;
 * [property@Gnn.PackedSequence:batch-sizes] (int64, on the CPU) holds how many sequences
 * have each step; [property@Gnn.PackedSequence:sorted-indices] and
 * [property@Gnn.PackedSequence:unsorted-indices] (or none, when the batch came sorted)
 * permute the original batch into the sorted one and back.
 *
 * [class@Gnn.RNN], [class@Gnn.LSTM] and [class@Gnn.GRU] take one as input and give one as
 * output. Make one with [func@Gnn.pack_padded_sequence] or [func@Gnn.pack_sequence].
 *
 * Since: 0.1
 */
struct _GnnPackedSequence
{
  GObject parent_instance;

  GnnTensor *data;
  GnnTensor *batch_sizes;
  GnnTensor *sorted_indices;
  GnnTensor *unsorted_indices;
};

G_DEFINE_FINAL_TYPE (GnnPackedSequence, gnn_packed_sequence, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DATA,
  PROP_BATCH_SIZES,
  PROP_SORTED_INDICES,
  PROP_UNSORTED_INDICES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
gnn_packed_sequence_dispose (GObject *object)
{
  GnnPackedSequence *self = GNN_PACKED_SEQUENCE (object);

  g_clear_object (&self->data);
  g_clear_object (&self->batch_sizes);
  g_clear_object (&self->sorted_indices);
  g_clear_object (&self->unsorted_indices);
  G_OBJECT_CLASS (gnn_packed_sequence_parent_class)->dispose (object);
}

static void
gnn_packed_sequence_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  GnnPackedSequence *self = GNN_PACKED_SEQUENCE (object);

  switch (prop_id)
    {
    case PROP_DATA:
      g_value_set_object (value, self->data);
      break;
    case PROP_BATCH_SIZES:
      g_value_set_object (value, self->batch_sizes);
      break;
    case PROP_SORTED_INDICES:
      g_value_set_object (value, self->sorted_indices);
      break;
    case PROP_UNSORTED_INDICES:
      g_value_set_object (value, self->unsorted_indices);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_packed_sequence_class_init (GnnPackedSequenceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = gnn_packed_sequence_dispose;
  object_class->get_property = gnn_packed_sequence_get_property;

  /**
   * GnnPackedSequence:data: (getter get_data)
   *
   * The packed steps, `(sum of the lengths, *)`.
   *
   * Since: 0.1
   */
  properties[PROP_DATA] =
    g_param_spec_object ("data", NULL, NULL, GNN_TYPE_TENSOR, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnPackedSequence:batch-sizes: (getter get_batch_sizes)
   *
   * How many sequences have each step, a 1-d int64 CPU tensor of non-increasing values.
   *
   * Since: 0.1
   */
  properties[PROP_BATCH_SIZES] =
    g_param_spec_object ("batch-sizes", NULL, NULL, GNN_TYPE_TENSOR, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnPackedSequence:sorted-indices: (getter get_sorted_indices)
   *
   * The original batch positions of the sorted sequences, or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_SORTED_INDICES] =
    g_param_spec_object ("sorted-indices", NULL, NULL, GNN_TYPE_TENSOR, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnPackedSequence:unsorted-indices: (getter get_unsorted_indices)
   *
   * The inverse permutation of [property@Gnn.PackedSequence:sorted-indices], or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_UNSORTED_INDICES] =
    g_param_spec_object ("unsorted-indices", NULL, NULL, GNN_TYPE_TENSOR, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_packed_sequence_init (GnnPackedSequence *self)
{
}

/* the values of the 1-d int64 CPU tensor @t named @what */
static gint64 *
int64_values (GnnTensor  *t,
              const char *what,
              gsize      *n,
              GError    **error)
{
  if (gnn_tensor_get_ndim (t) != 1 || gnn_tensor_get_dtype (t) != GNN_DTYPE_INT64 ||
      strcmp (gnn_tensor_get_device (t), "cpu") != 0)
    {
      g_set_error (error, GNN_ERROR, gnn_tensor_get_ndim (t) != 1 ? GNN_ERROR_SHAPE : GNN_ERROR_DTYPE,
                   "'%s' argument should be a 1D CPU int64 tensor, but got %uD %s %s tensor", what,
                   gnn_tensor_get_ndim (t), gnn_tensor_get_device (t), gnn_dtype_get_name (gnn_tensor_get_dtype (t)));
      return NULL;
    }
  return gnn_tensor_to_int64s (t, n, error);
}

/**
 * gnn_packed_sequence_new:
 * @data: the packed steps, `(sum of the lengths, *)`
 * @batch_sizes: how many sequences have each step, 1-d int64 on the CPU, non-increasing
 * @sorted_indices: (nullable): the original batch positions of the sorted sequences
 * @unsorted_indices: (nullable): the inverse of @sorted_indices; computed when %NULL and
 *   @sorted_indices is given
 * @error: return location for a #GError
 *
 * A packed sequence of these tensors, as PyTorch's `PackedSequence(data, batch_sizes,
 * sorted_indices, unsorted_indices)`; the tensors are held, not copied.
 *
 * Returns: (transfer full): the packed sequence, or %NULL with @error set when
 *   @batch_sizes does not describe @data
 *
 * Since: 0.1
 */
GnnPackedSequence *
gnn_packed_sequence_new (GnnTensor  *data,
                         GnnTensor  *batch_sizes,
                         GnnTensor  *sorted_indices,
                         GnnTensor  *unsorted_indices,
                         GError    **error)
{
  g_autoptr(GnnPackedSequence) self = NULL;
  g_autofree gint64 *bs = NULL;
  gsize n = 0;
  gint64 total = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (data), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (batch_sizes), NULL);
  g_return_val_if_fail (sorted_indices == NULL || GNN_IS_TENSOR (sorted_indices), NULL);
  g_return_val_if_fail (unsorted_indices == NULL || GNN_IS_TENSOR (unsorted_indices), NULL);

  if (!(bs = int64_values (batch_sizes, "batch_sizes", &n, error)))
    return NULL;
  for (gsize t = 0; t < n; t++)
    {
      if (bs[t] <= 0 || (t > 0 && bs[t] > bs[t - 1]))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "PackedSequence: expected batch_sizes to be positive and non-increasing, but found "
                       "batch_sizes[%" G_GSIZE_FORMAT "] = %" G_GINT64_FORMAT, t, bs[t]);
          return NULL;
        }
      total += bs[t];
    }
  if (gnn_tensor_get_ndim (data) < 1 || gnn_tensor_get_size (data, 0, NULL) != total)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "PackedSequence: expected data of %" G_GINT64_FORMAT " rows (the sum of batch_sizes), but got %"
                   G_GINT64_FORMAT, total, gnn_tensor_get_ndim (data) ? gnn_tensor_get_size (data, 0, NULL) : 0);
      return NULL;
    }
  self = g_object_new (GNN_TYPE_PACKED_SEQUENCE, NULL);
  self->data = g_object_ref (data);
  self->batch_sizes = g_object_ref (batch_sizes);
  if (sorted_indices)
    {
      self->sorted_indices = g_object_ref (sorted_indices);
      if (unsorted_indices)
        self->unsorted_indices = g_object_ref (unsorted_indices);
      else
        {
          g_autoptr(GnnTensor) order = gnn_tensor_argsort (sorted_indices, 0, FALSE, TRUE, error);

          if (order == NULL)
            return NULL;
          self->unsorted_indices = g_steal_pointer (&order);
        }
    }
  return g_steal_pointer (&self);
}

/**
 * gnn_packed_sequence_get_data: (get-property data)
 * @self: a #GnnPackedSequence
 *
 * Gets the packed steps.
 *
 * Returns: (transfer none): the packed steps
 *
 * Since: 0.1
 */
GnnTensor *
gnn_packed_sequence_get_data (GnnPackedSequence *self)
{
  g_return_val_if_fail (GNN_IS_PACKED_SEQUENCE (self), NULL);
  return self->data;
}

/**
 * gnn_packed_sequence_get_batch_sizes: (get-property batch-sizes)
 * @self: a #GnnPackedSequence
 *
 * Gets how many sequences have each step.
 *
 * Returns: (transfer none): how many sequences have each step
 *
 * Since: 0.1
 */
GnnTensor *
gnn_packed_sequence_get_batch_sizes (GnnPackedSequence *self)
{
  g_return_val_if_fail (GNN_IS_PACKED_SEQUENCE (self), NULL);
  return self->batch_sizes;
}

/**
 * gnn_packed_sequence_get_sorted_indices: (get-property sorted-indices)
 * @self: a #GnnPackedSequence
 *
 * Gets the original batch positions of the sorted sequences.
 *
 * Returns: (transfer none) (nullable): the original positions of the sorted sequences
 *
 * Since: 0.1
 */
GnnTensor *
gnn_packed_sequence_get_sorted_indices (GnnPackedSequence *self)
{
  g_return_val_if_fail (GNN_IS_PACKED_SEQUENCE (self), NULL);
  return self->sorted_indices;
}

/**
 * gnn_packed_sequence_get_unsorted_indices: (get-property unsorted-indices)
 * @self: a #GnnPackedSequence
 *
 * Gets the sorted positions of the original sequences.
 *
 * Returns: (transfer none) (nullable): the sorted positions of the original sequences
 *
 * Since: 0.1
 */
GnnTensor *
gnn_packed_sequence_get_unsorted_indices (GnnPackedSequence *self)
{
  g_return_val_if_fail (GNN_IS_PACKED_SEQUENCE (self), NULL);
  return self->unsorted_indices;
}

/* @shape with its first @n dimensions replaced by @lead (n of them) */
static GnnTensor *
padding_block (GnnTensor    *like,
               const gint64 *lead,
               guint         n_lead,
               guint         skip,
               double        value,
               GError      **error)
{
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (like, &ndim);
  g_autofree gint64 *want = g_new (gint64, n_lead + ndim - skip);

  memcpy (want, lead, n_lead * sizeof (gint64));
  memcpy (want + n_lead, shape + skip, (ndim - skip) * sizeof (gint64));
  return gnn_tensor_new_full (want, n_lead + ndim - skip, value, gnn_tensor_get_dtype (like),
                              gnn_tensor_get_device (like), error);
}

/**
 * gnn_pack_padded_sequence:
 * @input: the padded batch, `(T, B, *)`, or `(B, T, *)` with @batch_first
 * @lengths: the length of each sequence, a 1-d int64 CPU tensor of B values in 1 … T
 * @batch_first: whether @input is `(B, T, *)`
 * @enforce_sorted: whether @lengths must be in decreasing order; otherwise the sequences are
 *   sorted (stably) and the permutation kept in the result
 * @error: return location for a #GError
 *
 * Packs a padded batch of variable-length sequences, as PyTorch's
 * `torch.nn.utils.rnn.pack_padded_sequence`. Differentiable: the gradient of the packed data
 * flows to @input (zero at the padding).
 *
 * Returns: (transfer full): the packed sequence, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnPackedSequence *
gnn_pack_padded_sequence (GnnTensor  *input,
                          GnnTensor  *lengths,
                          gboolean    batch_first,
                          gboolean    enforce_sorted,
                          GError    **error)
{
  g_autofree gint64 *len = NULL, *order = NULL, *bs = NULL;
  g_autoptr(GnnTensor) x = NULL, sorted = NULL, unsorted = NULL, bst = NULL, data = NULL;
  g_autoptr(GPtrArray) pieces = g_ptr_array_new_with_free_func (g_object_unref);
  gsize n = 0;
  gint64 steps, batch, max_len;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (lengths), NULL);

  if (!(len = int64_values (lengths, "lengths", &n, error)))
    return NULL;
  if (gnn_tensor_get_ndim (input) < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "pack_padded_sequence: expected input of at least 2 dimensions `(T, B, *)`, but got %uD",
                   gnn_tensor_get_ndim (input));
      return NULL;
    }
  steps = gnn_tensor_get_size (input, batch_first ? 1 : 0, NULL);
  batch = gnn_tensor_get_size (input, batch_first ? 0 : 1, NULL);
  if ((gint64) n != batch)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected `len(lengths)` to be equal to batch_size, but got %" G_GSIZE_FORMAT
                   " (batch_size=%" G_GINT64_FORMAT ")", n, batch);
      return NULL;
    }
  if (batch == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "Cannot pack empty tensors.");
      return NULL;
    }
  order = g_new (gint64, n);
  for (gsize i = 0; i < n; i++)
    {
      order[i] = (gint64) i;
      if (len[i] <= 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "Length of all samples has to be greater than 0, but found an element in 'lengths' "
                       "that is <= 0 (lengths[%" G_GSIZE_FORMAT "] = %" G_GINT64_FORMAT ")", i, len[i]);
          return NULL;
        }
      if (len[i] > steps)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "Expected every length to be at most the sequence length %" G_GINT64_FORMAT
                       ", but found lengths[%" G_GSIZE_FORMAT "] = %" G_GINT64_FORMAT, steps, i, len[i]);
          return NULL;
        }
    }
  if (enforce_sorted)
    {
      for (gsize i = 1; i < n; i++)
        if (len[i] > len[i - 1])
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                         "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True "
                         "(found lengths[%" G_GSIZE_FORMAT "] = %" G_GINT64_FORMAT " after %" G_GINT64_FORMAT
                         "). You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence "
                         "to sidestep this requirement if you do not need ONNX exportability.",
                         i, len[i], len[i - 1]);
            return NULL;
          }
    }
  else
    {
      /* a stable sort by decreasing length, as torch.sort (descending=True) of the lengths */
      for (gsize i = 1; i < n; i++)
        for (gsize j = i; j > 0 && len[order[j]] > len[order[j - 1]]; j--)
          {
            gint64 tmp = order[j];
            order[j] = order[j - 1];
            order[j - 1] = tmp;
          }
      {
        g_autofree gint64 *inverse = g_new (gint64, n);
        gint64 shape[1] = { (gint64) n };

        for (gsize i = 0; i < n; i++)
          inverse[order[i]] = (gint64) i;
        if (!(sorted = gnn_tensor_new_from_int64s (order, n, shape, 1, error)) ||
            !(unsorted = gnn_tensor_new_from_int64s (inverse, n, shape, 1, error)))
          return NULL;
      }
    }
  max_len = len[order[0]];
  bs = g_new0 (gint64, max_len);
  for (gsize i = 0; i < n; i++)
    for (gint64 t = 0; t < len[i]; t++)
      bs[t]++;

  x = batch_first ? gnn_tensor_transpose (input, 0, 1, error) : g_object_ref (input);
  if (x == NULL)
    return NULL;
  if (sorted)
    {
      g_autoptr(GnnTensor) idx = gnn_tensor_to_device (sorted, gnn_tensor_get_device (x), error);
      GnnTensor *permuted = idx ? gnn_tensor_index_select (x, 1, idx, error) : NULL;

      if (permuted == NULL)
        return NULL;
      g_object_unref (x);
      x = permuted;
    }
  for (gint64 t = 0; t < max_len; t++)
    {
      g_autoptr(GnnTensor) step = gnn_tensor_select (x, 0, t, error);
      GnnTensor *live = step ? gnn_tensor_narrow (step, 0, 0, bs[t], error) : NULL;

      if (live == NULL)
        return NULL;
      g_ptr_array_add (pieces, live);
    }
  {
    gint64 shape[1] = { max_len };

    if (!(data = gnn_cat ((GnnTensor **) pieces->pdata, pieces->len, 0, error)) ||
        !(bst = gnn_tensor_new_from_int64s (bs, max_len, shape, 1, error)))
      return NULL;
  }
  return gnn_packed_sequence_new (data, bst, sorted, unsorted, error);
}

/* the lengths of the sorted sequences, from @bs (n_bs steps) */
static gint64 *
sorted_lengths (const gint64 *bs,
                gsize         n_bs)
{
  gint64 batch = n_bs ? bs[0] : 0;
  gint64 *len = g_new0 (gint64, MAX (batch, 1));

  for (gsize t = 0; t < n_bs; t++)
    for (gint64 b = 0; b < bs[t]; b++)
      len[b]++;
  return len;
}

/**
 * gnn_pad_packed_sequence:
 * @sequence: a packed sequence
 * @batch_first: whether to give `(B, T, *)` rather than `(T, B, *)`
 * @padding_value: the value of the padding
 * @total_length: the T of the result, at least the longest length; 0 or less for the longest
 *   length
 * @lengths: (out) (optional) (transfer full): the length of each sequence, int64, in the
 *   original batch order
 * @error: return location for a #GError
 *
 * Pads a packed sequence back into a batch, as PyTorch's
 * `torch.nn.utils.rnn.pad_packed_sequence`, the inverse of [func@Gnn.pack_padded_sequence]:
 * the sequences in the original batch order (the packed sequence's unsorted indices applied).
 * Differentiable.
 *
 * Returns: (transfer full): the padded batch, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_pad_packed_sequence (GnnPackedSequence  *sequence,
                         gboolean            batch_first,
                         double              padding_value,
                         gint64              total_length,
                         GnnTensor         **lengths,
                         GError            **error)
{
  g_autofree gint64 *bs = NULL, *len = NULL;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GnnTensor) padded = NULL;
  GnnTensor *data;
  gsize n_bs = 0;
  gint64 batch, offset = 0, steps;

  g_return_val_if_fail (GNN_IS_PACKED_SEQUENCE (sequence), NULL);

  if (lengths)
    *lengths = NULL;
  data = sequence->data;
  if (!(bs = int64_values (sequence->batch_sizes, "batch_sizes", &n_bs, error)))
    return NULL;
  batch = n_bs ? bs[0] : 0;
  steps = (gint64) n_bs;
  if (total_length > 0)
    {
      if (total_length < steps)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "Expected total_length to be at least the length of the longest sequence in input, but "
                       "got total_length=%" G_GINT64_FORMAT " and max sequence length being %" G_GINT64_FORMAT,
                       total_length, steps);
          return NULL;
        }
      steps = total_length;
    }
  for (gint64 t = 0; t < steps; t++)
    {
      gint64 live = t < (gint64) n_bs ? bs[t] : 0;
      GnnTensor *parts[2] = { NULL, NULL };
      guint n_parts = 0;
      GnnTensor *row;

      if (live > 0 && !(parts[n_parts++] = gnn_tensor_narrow (data, 0, offset, live, error)))
        goto fail_parts;
      if (live < batch)
        {
          gint64 lead[1] = { batch - live };

          if (!(parts[n_parts++] = padding_block (data, lead, 1, 1, padding_value, error)))
            goto fail_parts;
        }
      row = n_parts == 1 ? g_object_ref (parts[0]) : gnn_cat (parts, n_parts, 0, error);
      for (guint i = 0; i < n_parts; i++)
        g_object_unref (parts[i]);
      if (row == NULL)
        return NULL;
      g_ptr_array_add (rows, row);
      offset += live;
      continue;
fail_parts:
      for (guint i = 0; i < n_parts; i++)
        g_clear_object (&parts[i]);
      return NULL;
    }
  if (rows->len == 0)
    {
      gint64 lead[2] = { 0, 0 };

      padded = padding_block (data, lead, 2, 1, padding_value, error);
    }
  else
    padded = gnn_stack ((GnnTensor **) rows->pdata, rows->len, 0, error);
  if (padded == NULL)
    return NULL;
  len = sorted_lengths (bs, n_bs);
  if (sequence->unsorted_indices)
    {
      g_autofree gint64 *perm = NULL, *orig = NULL;
      g_autoptr(GnnTensor) idx = NULL;
      GnnTensor *permuted;
      gsize n_perm = 0;

      if (!(perm = gnn_tensor_to_int64s (sequence->unsorted_indices, &n_perm, error)))
        return NULL;
      if ((gint64) n_perm != batch)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "pad_packed_sequence: expected %" G_GINT64_FORMAT " unsorted indices, but got %" G_GSIZE_FORMAT,
                       batch, n_perm);
          return NULL;
        }
      orig = g_new (gint64, batch);
      for (gint64 i = 0; i < batch; i++)
        {
          if (perm[i] < 0 || perm[i] >= batch)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                           "pad_packed_sequence: unsorted index %" G_GINT64_FORMAT " out of range for a batch of %"
                           G_GINT64_FORMAT, perm[i], batch);
              return NULL;
            }
          orig[i] = len[perm[i]];
        }
      memcpy (len, orig, batch * sizeof (gint64));
      if (!(idx = gnn_tensor_to_device (sequence->unsorted_indices, gnn_tensor_get_device (padded), error)) ||
          !(permuted = gnn_tensor_index_select (padded, 1, idx, error)))
        return NULL;
      g_object_unref (padded);
      padded = permuted;
    }
  if (batch_first)
    {
      GnnTensor *t = gnn_tensor_transpose (padded, 0, 1, error);

      if (t == NULL)
        return NULL;
      g_object_unref (padded);
      padded = t;
    }
  if (lengths)
    {
      gint64 shape[1] = { batch };

      if (!(*lengths = gnn_tensor_new_from_int64s (len, batch, shape, 1, error)))
        return NULL;
    }
  return g_steal_pointer (&padded);
}

/**
 * gnn_pad_sequence:
 * @sequences: (array length=n_sequences): the sequences, each `(L_i, *)` with the same trailing
 *   dimensions
 * @n_sequences: the number of sequences, at least one
 * @batch_first: whether to give `(B, T, *)` rather than `(T, B, *)`
 * @padding_value: the value of the padding
 * @error: return location for a #GError
 *
 * Stacks sequences of different lengths into one batch padded to the longest, as PyTorch's
 * `torch.nn.utils.rnn.pad_sequence`. Differentiable.
 *
 * Returns: (transfer full): the padded batch, `(T, B, *)` or `(B, T, *)`, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_pad_sequence (GnnTensor **sequences,
                  guint       n_sequences,
                  gboolean    batch_first,
                  double      padding_value,
                  GError    **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  guint ndim0;
  const gint64 *shape0;
  gint64 longest = 0;

  if (n_sequences == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "received an empty list of sequences");
      return NULL;
    }
  g_return_val_if_fail (sequences != NULL, NULL);
  for (guint i = 0; i < n_sequences; i++)
    g_return_val_if_fail (GNN_IS_TENSOR (sequences[i]), NULL);
  shape0 = gnn_tensor_get_shape (sequences[0], &ndim0);
  for (guint i = 0; i < n_sequences; i++)
    {
      guint ndim;
      const gint64 *shape = gnn_tensor_get_shape (sequences[i], &ndim);

      if (ndim < 1 || ndim != ndim0 || memcmp (shape + 1, shape0 + 1, (ndim - 1) * sizeof (gint64)) != 0)
        {
          g_autofree char *want = gnn_shape_to_string (ndim0, shape0);
          g_autofree char *got = gnn_shape_to_string (ndim, shape);

          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "pad_sequence: expected every sequence to be (L, *) with the trailing dimensions of "
                       "sequences[0] %s, but sequences[%u] is %s", want, i, got);
          return NULL;
        }
      longest = MAX (longest, shape[0]);
    }
  for (guint i = 0; i < n_sequences; i++)
    {
      gint64 l = gnn_tensor_get_size (sequences[i], 0, NULL);
      GnnTensor *row;

      if (l < longest)
        {
          gint64 lead[1] = { longest - l };
          g_autoptr(GnnTensor) pad = padding_block (sequences[i], lead, 1, 1, padding_value, error);
          GnnTensor *parts[2] = { sequences[i], pad };

          if (pad == NULL)
            return NULL;
          row = gnn_cat (parts, 2, 0, error);
        }
      else
        row = g_object_ref (sequences[i]);
      if (row == NULL)
        return NULL;
      g_ptr_array_add (rows, row);
    }
  return gnn_stack ((GnnTensor **) rows->pdata, rows->len, batch_first ? 0 : 1, error);
}

/**
 * gnn_pack_sequence:
 * @sequences: (array length=n_sequences): the sequences, each `(L_i, *)` with L_i ≥ 1 and the
 *   same trailing dimensions
 * @n_sequences: the number of sequences, at least one
 * @enforce_sorted: whether the sequences must come by decreasing length
 * @error: return location for a #GError
 *
 * Packs a list of sequences, as PyTorch's `torch.nn.utils.rnn.pack_sequence`: their
 * [func@Gnn.pad_sequence] packed with [func@Gnn.pack_padded_sequence]. Differentiable.
 *
 * Returns: (transfer full): the packed sequence, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnPackedSequence *
gnn_pack_sequence (GnnTensor **sequences,
                   guint       n_sequences,
                   gboolean    enforce_sorted,
                   GError    **error)
{
  g_autoptr(GnnTensor) padded = NULL, lengths = NULL;
  g_autofree gint64 *len = NULL;
  gint64 shape[1] = { n_sequences };

  if (!(padded = gnn_pad_sequence (sequences, n_sequences, FALSE, 0.0, error)))
    return NULL;
  len = g_new (gint64, n_sequences);
  for (guint i = 0; i < n_sequences; i++)
    len[i] = gnn_tensor_get_size (sequences[i], 0, NULL);
  if (!(lengths = gnn_tensor_new_from_int64s (len, n_sequences, shape, 1, error)))
    return NULL;
  return gnn_pack_padded_sequence (padded, lengths, FALSE, enforce_sorted, error);
}

/**
 * gnn_unpad_sequence:
 * @padded: a padded batch, `(T, B, *)` or `(B, T, *)` with @batch_first
 * @lengths: the length of each sequence, a 1-d int64 CPU tensor of B values in 0 … T
 * @batch_first: whether @padded is `(B, T, *)`
 * @error: return location for a #GError
 *
 * Splits a padded batch into its sequences, as PyTorch 2's
 * `torch.nn.utils.rnn.unpad_sequence`, the inverse of [func@Gnn.pad_sequence]. Differentiable.
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the sequences, each `(L_i, *)`, or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_unpad_sequence (GnnTensor  *padded,
                    GnnTensor  *lengths,
                    gboolean    batch_first,
                    GError    **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree gint64 *len = NULL;
  gsize n = 0;
  gint64 steps, batch;

  g_return_val_if_fail (GNN_IS_TENSOR (padded), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (lengths), NULL);

  if (!(len = int64_values (lengths, "lengths", &n, error)))
    return NULL;
  if (gnn_tensor_get_ndim (padded) < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "unpad_sequence: expected a padded batch of at least 2 dimensions, but got %uD",
                   gnn_tensor_get_ndim (padded));
      return NULL;
    }
  steps = gnn_tensor_get_size (padded, batch_first ? 1 : 0, NULL);
  batch = gnn_tensor_get_size (padded, batch_first ? 0 : 1, NULL);
  if ((gint64) n != batch)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "unpad_sequence: expected %" G_GINT64_FORMAT " lengths (the batch size), but got %" G_GSIZE_FORMAT,
                   batch, n);
      return NULL;
    }
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GnnTensor) seq = NULL;
      GnnTensor *part;

      if (len[i] < 0 || len[i] > steps)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "unpad_sequence: expected every length in 0 … %" G_GINT64_FORMAT ", but found lengths[%"
                       G_GSIZE_FORMAT "] = %" G_GINT64_FORMAT, steps, i, len[i]);
          return NULL;
        }
      if (!(seq = gnn_tensor_select (padded, batch_first ? 0 : 1, (gint64) i, error)) ||
          !(part = gnn_tensor_narrow (seq, 0, 0, len[i], error)))
        return NULL;
      g_ptr_array_add (out, part);
    }
  return g_steal_pointer (&out);
}

/**
 * gnn_unpack_sequence:
 * @sequence: a packed sequence
 * @error: return location for a #GError
 *
 * Splits a packed sequence into its sequences in the original batch order, as PyTorch 2's
 * `torch.nn.utils.rnn.unpack_sequence`, the inverse of [func@Gnn.pack_sequence].
 * Differentiable.
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the sequences, each `(L_i, *)`, or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_unpack_sequence (GnnPackedSequence  *sequence,
                     GError            **error)
{
  g_autoptr(GnnTensor) padded = NULL, lengths = NULL;

  g_return_val_if_fail (GNN_IS_PACKED_SEQUENCE (sequence), NULL);

  if (!(padded = gnn_pad_packed_sequence (sequence, TRUE, 0.0, 0, &lengths, error)))
    return NULL;
  return gnn_unpad_sequence (padded, lengths, TRUE, error);
}
