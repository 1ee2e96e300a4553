/* gnn-tensor.c: storage, geometry, creation and data access of tensors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-tensor-private.h"
#include "gnn-dtype-private.h"
#include "gnn-philox-private.h"
#include "gnn-profiler-hooks-private.h"

/**
 * GnnTensor:
 *
 * An n-dimensional, strided array on a device, with autograd: PyTorch's `torch.Tensor`.
 *
 * A tensor is a view (shape, strides, offset, dtype) of a storage that a backend owns on a
 * device. Views ([method@Gnn.Tensor.view], [method@Gnn.Tensor.transpose],
 * [method@Gnn.Tensor.narrow], ...) share the storage and the version counter of the tensor
 * they come from and know it as their base.
 *
 * When [method@Gnn.Tensor.get_requires_grad] is set, operations on the tensor record a graph,
 * and [method@Gnn.Tensor.backward] fills the `grad` of the leaves.
 *
 * The storage is released in dispose, so that bindings with a garbage collector can free
 * memory at once with `run_dispose()`. A disposed tensor must not be used again.
 */

G_DEFINE_TYPE_WITH_PRIVATE (GnnTensor, gnn_tensor, G_TYPE_OBJECT)

gint GnnTensor_private_offset_shared;

/* ---- storage and version ------------------------------------------------------------ */

GnnStorage *
gnn_storage_new (GnnBackendEntry *entry,
                 guint            device,
                 gsize            nbytes,
                 GError         **error)
{
  GnnStorage *s;
  gpointer data;

  data = entry->funcs->alloc (entry->backend, device, nbytes, error);
  if (data == NULL)
    return NULL;
  s = g_slice_new0 (GnnStorage);
  g_atomic_ref_count_init (&s->ref_count);
  s->entry = entry;
  s->device = device;
  s->data = data;
  s->nbytes = nbytes;
  /* profile_memory: the bytes a backend allocated (a wrapped buffer is not gnn's) */
  if (GNN_PROFILER_MEMORY_IS_ACTIVE ())
    gnn_profiler_memory_record (data, (gint64) nbytes, entry->device_type, device);
  return s;
}

GnnStorage *
gnn_storage_new_wrap (GnnBackendEntry *entry,
                      gpointer         data,
                      gsize            nbytes,
                      GDestroyNotify   release,
                      gpointer         release_data)
{
  GnnStorage *s = g_slice_new0 (GnnStorage);

  g_atomic_ref_count_init (&s->ref_count);
  s->entry = entry;
  s->data = data;
  s->nbytes = nbytes;
  s->release = release;
  s->release_data = release_data;
  return s;
}

GnnStorage *
gnn_storage_ref (GnnStorage *storage)
{
  g_atomic_ref_count_inc (&storage->ref_count);
  return storage;
}

void
gnn_storage_unref (GnnStorage *storage)
{
  if (!g_atomic_ref_count_dec (&storage->ref_count))
    return;
  if (storage->release)
    storage->release (storage->release_data);
  else
    {
      if (GNN_PROFILER_MEMORY_IS_ACTIVE ())
        gnn_profiler_memory_record (storage->data, -(gint64) storage->nbytes, storage->entry->device_type,
                                    storage->device);
      storage->entry->funcs->free (storage->entry->backend, storage->device, storage->data, storage->nbytes);
    }
  g_slice_free (GnnStorage, storage);
}

/* inference mode on this thread: the memory of tensors made now is an inference tensor's */
static __thread gboolean creating_inference;

gboolean
gnn_tensor_set_creating_inference (gboolean inference)
{
  gboolean old = creating_inference;
  creating_inference = inference;
  return old;
}

gboolean
gnn_tensor_creating_inference (void)
{
  return creating_inference;
}

GnnVersion *
gnn_version_new (void)
{
  GnnVersion *v = g_slice_new0 (GnnVersion);
  g_atomic_ref_count_init (&v->ref_count);
  v->inference = creating_inference;
  return v;
}

GnnVersion *
gnn_version_ref (GnnVersion *v)
{
  g_atomic_ref_count_inc (&v->ref_count);
  return v;
}

void
gnn_version_unref (GnnVersion *v)
{
  if (g_atomic_ref_count_dec (&v->ref_count))
    g_slice_free (GnnVersion, v);
}

/* ---- autograd nodes, as core holds them ---------------------------------------------- */

/**
 * gnn_node_ref: (skip)
 * @node: a node
 *
 * Takes a reference to @node.
 *
 * Returns: (transfer full): @node
 *
 * Since: 0.1
 */
GnnNode *
gnn_node_ref (GnnNode *node)
{
  g_atomic_ref_count_inc (&((GnnNodeHeader *) node)->ref_count);
  return node;
}

/**
 * gnn_node_unref: (skip)
 * @node: (transfer full): a node
 *
 * Releases a reference to @node; the last one frees it.
 *
 * Since: 0.1
 */
void
gnn_node_unref (GnnNode *node)
{
  GnnNodeHeader *h = (GnnNodeHeader *) node;

  if (g_atomic_ref_count_dec (&h->ref_count))
    h->free (node);
}

/**
 * gnn_node_get_name:
 * @node: a node
 *
 * Gets the node's name as PyTorch names it (`grad_fn.name ()`): the backward function of an
 * op, such as "AddBackward0", or "AccumulateGrad".
 *
 * Returns: the node's name
 *
 * Since: 0.1
 */
const char *
gnn_node_get_name (GnnNode *node)
{
  g_return_val_if_fail (node != NULL, NULL);
  return ((GnnNodeHeader *) node)->name;
}

G_DEFINE_BOXED_TYPE (GnnNode, gnn_node, gnn_node_ref, gnn_node_unref)

/* ---- GObject ------------------------------------------------------------------------ */

static void
gnn_tensor_dispose (GObject *object)
{
  GnnTensorPrivate *p = gnn_tensor_priv (GNN_TENSOR (object));

  if (p->hooks)
    {
      for (guint i = 0; i < p->hooks->len; i++)
        {
          GnnTensorHook *h = &g_array_index (p->hooks, GnnTensorHook, i);
          if (h->destroy)
            h->destroy (h->data);
        }
      g_clear_pointer (&p->hooks, g_array_unref);
    }
  g_clear_object (&p->grad);
  g_clear_pointer (&p->grad_fn, gnn_node_unref);
  g_clear_object (&p->base);
  g_clear_pointer (&p->storage, gnn_storage_unref);

  G_OBJECT_CLASS (gnn_tensor_parent_class)->dispose (object);
}

static void
gnn_tensor_finalize (GObject *object)
{
  GnnTensorPrivate *p = gnn_tensor_priv (GNN_TENSOR (object));

  g_clear_pointer (&p->version, gnn_version_unref);
  G_OBJECT_CLASS (gnn_tensor_parent_class)->finalize (object);
}

static void
gnn_tensor_class_init (GnnTensorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  GnnTensor_private_offset_shared = GnnTensor_private_offset;
  object_class->dispose = gnn_tensor_dispose;
  object_class->finalize = gnn_tensor_finalize;
}

static void
gnn_tensor_init (GnnTensor *self)
{
}

/* ---- helpers ------------------------------------------------------------------------ */

/* The size arithmetic of every tensor lives here. The invariant: the product of a shape's
 * non-zero sizes fits in an int64 (so the element count, each partial product and each
 * contiguous stride do), and a tensor with its own memory also has an element count whose
 * byte size fits in an int64. gnn_shape_check() enforces it for the constructors (which pass
 * the element size) and the views (which pass 0); the loaders build their tensors through
 * those constructors. Stricter than torch in one corner: torch accepts an empty [0, 2^62,
 * 2^62] (but not [2^62, 2^62, 0]); gnn refuses both, so that no size product can wrap. */

gint64
gnn_shape_numel (guint ndim, const gint64 *shape)
{
  gint64 n = 1;
  for (guint i = 0; i < ndim; i++)
    n = (gint64) ((guint64) n * (guint64) shape[i]);   /* no wrap once gnn_shape_check passed */
  return n;
}

gboolean
gnn_shape_numel_checked (guint ndim, const gint64 *shape, gint64 *numel)
{
  gint64 n = 1;
  gboolean empty = FALSE;

  for (guint i = 0; i < ndim; i++)
    {
      if (shape[i] < 0)
        return FALSE;
      if (shape[i] == 0)
        empty = TRUE;
      else if (__builtin_mul_overflow (n, shape[i], &n))
        return FALSE;
    }
  if (numel)
    *numel = empty ? 0 : n;
  return TRUE;
}

gboolean
gnn_shape_check (const char   *op,
                 guint         ndim,
                 const gint64 *shape,
                 gsize         elem_size,
                 GError      **error)
{
  gint64 numel, nbytes;

  if (ndim > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s%sTensors have at most %d dimensions, got %u",
                   op ? op : "", op ? ": " : "", GNN_MAX_DIMS, ndim);
      return FALSE;
    }
  for (guint i = 0; i < ndim; i++)
    if (shape[i] < 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "%s%sInvalid size %" G_GINT64_FORMAT " for dimension %u: sizes must be non-negative",
                     op ? op : "", op ? ": " : "", shape[i], i);
        return FALSE;
      }
  if (!gnn_shape_numel_checked (ndim, shape, &numel) ||
      (elem_size > 0 && __builtin_mul_overflow (numel, (gint64) elem_size, &nbytes)))
    {
      g_autofree char *s = gnn_shape_to_string (ndim, shape);

      if (elem_size > 0)   /* torch's words for a tensor with its own memory */
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "%s%sStorage size calculation overflowed with sizes=%s (its elements of %"
                     G_GSIZE_FORMAT " bytes overflow int64)", op ? op : "", op ? ": " : "", s, elem_size);
      else
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "%s%sshape %s: its elements overflow int64 (numel: integer multiplication overflow)",
                     op ? op : "", op ? ": " : "", s);
      return FALSE;
    }
  return TRUE;
}

void
gnn_contiguous_strides (guint ndim, const gint64 *shape, gint64 *strides)
{
  guint64 s = 1;

  /* unsigned, so that a shape that never passed gnn_shape_check wraps as torch's strides do
   * instead of overflowing a signed product */
  for (guint i = ndim; i-- > 0;)
    {
      strides[i] = (gint64) s;
      s *= (guint64) MAX (shape[i], 1);
    }
}

char *
gnn_shape_to_string (guint ndim, const gint64 *shape)
{
  GString *s = g_string_new ("[");
  for (guint i = 0; i < ndim; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", shape[i]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

gboolean
gnn_normalize_dim (int dim, guint ndim, guint *out, GError **error)
{
  int n = (int) MAX (ndim, 1);

  if (dim < -n || dim >= n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [%d, %d], but got %d)",
                   -n, n - 1, dim);
      return FALSE;
    }
  *out = (guint) (dim < 0 ? dim + n : dim);
  return TRUE;
}

gboolean
gnn_tensor_is_contiguous_priv (GnnTensorPrivate *p)
{
  gint64 expected = 1;
  for (guint i = p->ndim; i-- > 0;)
    {
      if (p->shape[i] == 1)
        continue;
      if (p->shape[i] == 0)
        return TRUE;
      if (p->strides[i] != expected)
        return FALSE;
      expected *= p->shape[i];
    }
  return TRUE;
}

void
gnn_tensor_to_kernel (GnnTensor *t, GnnKernelTensor *kt)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  kt->data = gnn_tensor_data_ptr (p);
  kt->dtype = p->dtype;
  kt->ndim = p->ndim;
  memcpy (kt->shape, p->shape, sizeof (gint64) * p->ndim);
  memcpy (kt->strides, p->strides, sizeof (gint64) * p->ndim);
}

void
gnn_kernel_tensor_broadcast (GnnTensor *t, guint ndim, const gint64 *shape, GnnKernelTensor *kt)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  guint lead = ndim - p->ndim;

  kt->data = gnn_tensor_data_ptr (p);
  kt->dtype = p->dtype;
  kt->ndim = ndim;
  for (guint i = 0; i < ndim; i++)
    {
      kt->shape[i] = shape[i];
      if (i < lead)
        kt->strides[i] = 0;
      else
        kt->strides[i] = (p->shape[i - lead] == 1 && shape[i] != 1) ? 0 : p->strides[i - lead];
    }
}

gboolean
gnn_run_kernel (GnnTensor *on, GnnKernelArgs *args, GError **error)
{
  GnnStorage *st = gnn_tensor_priv (on)->storage;
  return gnn_backend_entry_run (st->entry, st->device, args, error);
}

gboolean
gnn_tensor_copy_into (GnnTensor *dst, GnnTensor *src, GError **error)
{
  GnnTensorPrivate *dp = gnn_tensor_priv (dst);
  GnnKernelTensor o, i;
  GnnKernelArgs args = { 0 };

  if (gnn_shape_numel (dp->ndim, dp->shape) == 0)
    return TRUE;
  gnn_tensor_to_kernel (dst, &o);
  gnn_kernel_tensor_broadcast (src, dp->ndim, dp->shape, &i);
  args.op = GNN_BACKEND_OP_COPY;
  args.out = &o;
  args.in[0] = &i;
  args.n_in = 1;
  return gnn_run_kernel (dst, &args, error);
}

GnnTensor *
gnn_tensor_clone_contiguous (GnnTensor *t, GnnDtype dtype, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  GnnTensor *c = gnn_tensor_new_like (t, dtype, p->ndim, p->shape, error);

  if (c && !gnn_tensor_copy_into (c, t, error))
    g_clear_object (&c);
  return c;
}

GnnTensor *
gnn_tensor_contiguous_as (GnnTensor *t, GnnDtype dtype, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  if (p->dtype == dtype && gnn_tensor_is_contiguous_priv (p))
    return g_object_ref (t);
  return gnn_tensor_clone_contiguous (t, dtype, error);
}

GnnTensor *
gnn_tensor_cast (GnnTensor *t, GnnDtype dtype, GError **error)
{
  if (gnn_tensor_priv (t)->dtype == dtype)
    return g_object_ref (t);
  return gnn_tensor_clone_contiguous (t, dtype, error);
}

GnnTensor *
gnn_tensor_new_on (GnnBackendEntry *entry,
                   guint            device,
                   GnnDtype         dtype,
                   guint            ndim,
                   const gint64    *shape,
                   GError         **error)
{
  GnnTensor *t;
  GnnTensorPrivate *p;
  GnnStorage *storage;
  gint64 numel;

  if (!gnn_shape_check (NULL, ndim, shape, gnn_dtype_get_size (dtype), error))
    return NULL;
  numel = gnn_shape_numel (ndim, shape);
  storage = gnn_storage_new (entry, device, (gsize) numel * gnn_dtype_get_size (dtype), error);
  if (storage == NULL)
    return NULL;
  t = g_object_new (GNN_TYPE_TENSOR, NULL);
  p = gnn_tensor_priv (t);
  p->storage = storage;
  p->dtype = dtype;
  p->ndim = ndim;
  if (ndim > 0)   /* shape may be NULL for a 0-d tensor */
    memcpy (p->shape, shape, sizeof (gint64) * ndim);
  gnn_contiguous_strides (ndim, shape, p->strides);
  p->version = gnn_version_new ();
  return t;
}

GnnTensor *
gnn_tensor_new_like (GnnTensor    *like,
                     GnnDtype      dtype,
                     guint         ndim,
                     const gint64 *shape,
                     GError      **error)
{
  GnnStorage *s = gnn_tensor_priv (like)->storage;
  return gnn_tensor_new_on (s->entry, s->device, dtype, ndim, shape, error);
}

/* Points @p (fresh, without storage) at @sp's storage and version with the given geometry. */
static void
init_view (GnnTensorPrivate *p,
           GnnTensorPrivate *sp,
           guint             ndim,
           const gint64     *shape,
           const gint64     *strides,
           gint64            offset)
{
  p->storage = gnn_storage_ref (sp->storage);
  p->dtype = sp->dtype;
  p->ndim = ndim;
  if (ndim > 0)
    {
      memcpy (p->shape, shape, sizeof (gint64) * ndim);
      memcpy (p->strides, strides, sizeof (gint64) * ndim);
    }
  p->offset = offset;
  p->version = gnn_version_ref (sp->version);
}

GnnTensor *
gnn_tensor_new_view (GnnTensor    *src,
                     guint         ndim,
                     const gint64 *shape,
                     const gint64 *strides,
                     gint64        offset)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (src);
  GnnTensor *t = g_object_new (GNN_TYPE_TENSOR, NULL);
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  init_view (p, sp, ndim, shape, strides, offset);
  p->base = g_object_ref (sp->base ? sp->base : src);
  return t;
}

void
gnn_tensor_init_alias (GnnTensor *t,
                       GnnTensor *src)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (src);

  init_view (gnn_tensor_priv (t), sp, sp->ndim, sp->shape, sp->strides, sp->offset);
}

GnnTensor *
gnn_tensor_new_alias (GnnTensor *src)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (src);
  GnnTensor *t = g_object_new (GNN_TYPE_TENSOR, NULL);

  gnn_tensor_init_alias (t, src);
  if (sp->base)
    gnn_tensor_priv (t)->base = g_object_ref (sp->base);
  return t;
}

GnnTensor *
gnn_tensor_new_wrap_bytes (GBytes       *bytes,
                           GnnDtype      dtype,
                           guint         ndim,
                           const gint64 *shape,
                           GError      **error)
{
  GnnBackendEntry *entry;
  GnnTensorPrivate *p;
  GnnTensor *t;
  gsize size;
  gconstpointer data = g_bytes_get_data (bytes, &size);
  gsize elem = gnn_dtype_get_size (dtype);

  if (!gnn_shape_check (NULL, ndim, shape, gnn_dtype_get_size (dtype), error))
    return NULL;
  if ((gsize) gnn_shape_numel (ndim, shape) * elem != size)
    {
      g_autofree char *s = gnn_shape_to_string (ndim, shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Shape %s of %s needs %" G_GSIZE_FORMAT " bytes, got %" G_GSIZE_FORMAT, s,
                   gnn_dtype_get_name (dtype), (gsize) gnn_shape_numel (ndim, shape) * elem, size);
      return NULL;
    }
  entry = gnn_backend_entry_default_cpu ();
  if (!entry->funcs->is_host || size == 0 || ((guintptr) data % elem) != 0)
    return gnn_tensor_new_from_bytes (bytes, dtype, shape, ndim, NULL, error);
  t = g_object_new (GNN_TYPE_TENSOR, NULL);
  p = gnn_tensor_priv (t);
  p->storage = gnn_storage_new_wrap (entry, (gpointer) data, size, (GDestroyNotify) g_bytes_unref,
                                     g_bytes_ref (bytes));
  p->dtype = dtype;
  p->ndim = ndim;
  if (ndim > 0)   /* shape may be NULL for a 0-d tensor */
    memcpy (p->shape, shape, sizeof (gint64) * ndim);
  gnn_contiguous_strides (ndim, shape, p->strides);
  p->version = gnn_version_new ();
  return t;
}

static GnnBackendEntry *
resolve_device (const char *device, guint *index, GError **error)
{
  GnnDeviceSpec dev;

  if (device == NULL || strcmp (device, "cpu") == 0)
    {
      *index = 0;
      return gnn_backend_entry_default_cpu ();
    }
  if (!gnn_device_parse (device, &dev, error))
    return NULL;
  return gnn_backend_entry_for_device (&dev, index, error);
}

/* Runs a kernel that only writes its output. */
static gboolean
run_fill_kernel (GnnTensor *t, GnnBackendOp op, const GnnKernelParams *params, GError **error)
{
  GnnKernelTensor out;
  GnnKernelArgs args = { 0 };

  gnn_tensor_to_kernel (t, &out);
  args.op = op;
  args.out = &out;
  args.params = *params;
  return gnn_run_kernel (t, &args, error);
}

gboolean
gnn_tensor_fill_kernel (GnnTensor *t,
                        double     value,
                        GError   **error)
{
  return run_fill_kernel (t, GNN_BACKEND_OP_FILL, &(GnnKernelParams) { .fill = { value } }, error);
}

GnnTensor *
gnn_tensor_new_zeros_like (GnnTensor    *like,
                           GnnDtype      dtype,
                           guint         ndim,
                           const gint64 *shape,
                           GError      **error)
{
  GnnTensor *z = gnn_tensor_new_like (like, dtype, ndim, shape, error);

  if (z && gnn_shape_numel (ndim, shape) > 0 && !gnn_tensor_fill_kernel (z, 0.0, error))
    g_clear_object (&z);
  return z;
}

/* ---- creation ----------------------------------------------------------------------- */

/**
 * gnn_tensor_new_empty:
 * @shape: (array length=ndim): the size of each dimension
 * @ndim: the number of dimensions (0 for a scalar)
 * @dtype: the element type
 * @device: (nullable): the device, such as "cpu" or "cuda:0"; %NULL for the CPU
 * @error: return location for a #GError
 *
 * Creates a contiguous tensor whose elements are not initialised (`torch.empty`).
 *
 * As in torch, a shape whose element count, or byte count, exceeds the int64 range is an
 * error (%GNN_ERROR_SHAPE, "Storage size calculation overflowed with sizes=[...]"); so is
 * it for every constructor, and a view whose element count would. Stricter than torch: the
 * product of the non-zero sizes must fit as well, so an empty [0, 2^62, 2^62] is refused
 * (torch accepts it, though not [2^62, 2^62, 0]).
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_new_empty (const gint64 *shape,
                      guint         ndim,
                      GnnDtype      dtype,
                      const char   *device,
                      GError      **error)
{
  GnnBackendEntry *entry;
  guint index;

  g_return_val_if_fail (shape != NULL || ndim == 0, NULL);
  entry = resolve_device (device, &index, error);
  if (entry == NULL)
    return NULL;
  return gnn_tensor_new_on (entry, index, dtype, ndim, shape, error);
}

/**
 * gnn_tensor_new_full:
 * @shape: (array length=ndim): the size of each dimension
 * @ndim: the number of dimensions
 * @value: the value of every element
 * @dtype: the element type
 * @device: (nullable): the device; %NULL for the CPU
 * @error: return location for a #GError
 *
 * Creates a tensor filled with @value (`torch.full`).
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_new_full (const gint64 *shape,
                     guint         ndim,
                     double        value,
                     GnnDtype      dtype,
                     const char   *device,
                     GError      **error)
{
  GnnTensor *t = gnn_tensor_new_empty (shape, ndim, dtype, device, error);

  if (t && !gnn_tensor_fill_kernel (t, value, error))
    g_clear_object (&t);
  return t;
}

/**
 * gnn_tensor_new_zeros:
 * @shape: (array length=ndim): the size of each dimension
 * @ndim: the number of dimensions
 * @dtype: the element type
 * @device: (nullable): the device; %NULL for the CPU
 * @error: return location for a #GError
 *
 * Creates a tensor of zeros (`torch.zeros`).
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_new_zeros (const gint64 *shape,
                      guint         ndim,
                      GnnDtype      dtype,
                      const char   *device,
                      GError      **error)
{
  return gnn_tensor_new_full (shape, ndim, 0.0, dtype, device, error);
}

/**
 * gnn_tensor_new_ones:
 * @shape: (array length=ndim): the size of each dimension
 * @ndim: the number of dimensions
 * @dtype: the element type
 * @device: (nullable): the device; %NULL for the CPU
 * @error: return location for a #GError
 *
 * Creates a tensor of ones (`torch.ones`).
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_new_ones (const gint64 *shape,
                     guint         ndim,
                     GnnDtype      dtype,
                     const char   *device,
                     GError      **error)
{
  return gnn_tensor_new_full (shape, ndim, 1.0, dtype, device, error);
}

/**
 * gnn_tensor_new_scalar:
 * @value: the value
 * @dtype: the element type
 * @device: (nullable): the device; %NULL for the CPU
 * @error: return location for a #GError
 *
 * Creates a zero-dimensional tensor (`torch.tensor (value)`).
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_new_scalar (double      value,
                       GnnDtype    dtype,
                       const char *device,
                       GError    **error)
{
  return gnn_tensor_new_full (NULL, 0, value, dtype, device, error);
}

/**
 * gnn_tensor_new_arange:
 * @start: the first value
 * @end: the end, not included
 * @step: the difference between neighbours, not zero
 * @dtype: the element type
 * @device: (nullable): the device; %NULL for the CPU
 * @error: return location for a #GError
 *
 * Creates a one-dimensional tensor of the values from @start towards @end by @step
 * (`torch.arange`), with ⌈(end − start) / step⌉ elements.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_new_arange (double      start,
                       double      end,
                       double      step,
                       GnnDtype    dtype,
                       const char *device,
                       GError    **error)
{
  GnnTensor *t;
  gint64 n;
  double count;

  if (step == 0 || !isfinite (start) || !isfinite (end) || !isfinite (step))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "arange: expected finite start and end and a non-zero step, got start=%g end=%g step=%g",
                   start, end, step);
      return NULL;
    }
  if ((step > 0 && start > end) || (step < 0 && start < end))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "arange: upper bound and step sign are inconsistent (start=%g end=%g step=%g)",
                   start, end, step);
      return NULL;
    }
  count = ceil ((end - start) / step);
  if (!(count < 0x1p63))   /* (gint64) of a larger double is undefined */
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "arange: invalid size, possible overflow? (start=%g end=%g step=%g give %g elements, "
                   "more than int64 can count)", start, end, step, count);
      return NULL;
    }
  n = (gint64) count;
  t = gnn_tensor_new_empty (&n, 1, dtype, device, error);
  if (t && !run_fill_kernel (t, GNN_BACKEND_OP_ARANGE, &(GnnKernelParams) { .arange = { start, step } }, error))
    g_clear_object (&t);
  return t;
}

/**
 * gnn_tensor_new_eye:
 * @n: the number of rows
 * @m: the number of columns, or -1 for @n
 * @dtype: the element type
 * @device: (nullable): the device; %NULL for the CPU
 * @error: return location for a #GError
 *
 * Creates a two-dimensional tensor with ones on the diagonal (`torch.eye`).
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_new_eye (gint64      n,
                    gint64      m,
                    GnnDtype    dtype,
                    const char *device,
                    GError    **error)
{
  gint64 shape[2] = { n, m < 0 ? n : m };
  g_autoptr(GnnTensor) t = NULL;
  g_autoptr(GnnTensor) diag = NULL;
  gint64 dshape[1], dstride[1];

  t = gnn_tensor_new_zeros (shape, 2, dtype, device, error);
  if (t == NULL)
    return NULL;
  dshape[0] = MIN (shape[0], shape[1]);
  dstride[0] = shape[1] + 1;
  diag = gnn_tensor_new_view (t, 1, dshape, dstride, 0);
  if (!gnn_tensor_fill_kernel (diag, 1.0, error))
    return NULL;
  return g_steal_pointer (&t);
}

static GnnTensor *
new_random (GnnBackendOp op, const gint64 *shape, guint ndim, GnnGenerator *generator,
            GnnDtype dtype, const char *device, double s0, double s1, gint64 lo, gint64 hi,
            GError **error)
{
  GnnKernelParams params = { .random = { .low = s0, .high = s1, .mean = s0, .std = s1,
                                           .int_low = lo, .int_high = hi } };
  GnnTensor *t;

  t = gnn_tensor_new_empty (shape, ndim, dtype, device, error);
  if (t == NULL)
    return NULL;
  if (generator == NULL)
    generator = gnn_generator_get_default ();
  params.random.seed = gnn_generator_get_seed (generator);
  params.random.offset = gnn_generator_reserve (generator, (guint64) gnn_tensor_get_numel (t));
  if (!run_fill_kernel (t, op, &params, error))
    g_clear_object (&t);
  return t;
}

/**
 * gnn_tensor_new_rand:
 * @shape: (array length=ndim): the size of each dimension
 * @ndim: the number of dimensions
 * @generator: (nullable): the generator; %NULL for the default one
 * @dtype: a floating-point element type
 * @device: (nullable): the device; %NULL for the CPU
 * @error: return location for a #GError
 *
 * Creates a tensor of numbers drawn uniformly from [0, 1) (`torch.rand`).
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_new_rand (const gint64 *shape,
                     guint         ndim,
                     GnnGenerator *generator,
                     GnnDtype      dtype,
                     const char   *device,
                     GError      **error)
{
  if (!gnn_dtype_is_floating (dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "rand: expected a floating-point dtype, got %s", gnn_dtype_get_name (dtype));
      return NULL;
    }
  return new_random (GNN_BACKEND_OP_RAND_UNIFORM, shape, ndim, generator, dtype, device, 0.0, 1.0,
                     0, 0, error);
}

/**
 * gnn_tensor_new_randn:
 * @shape: (array length=ndim): the size of each dimension
 * @ndim: the number of dimensions
 * @generator: (nullable): the generator; %NULL for the default one
 * @dtype: a floating-point element type
 * @device: (nullable): the device; %NULL for the CPU
 * @error: return location for a #GError
 *
 * Creates a tensor of numbers drawn from the standard normal distribution (`torch.randn`).
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_new_randn (const gint64 *shape,
                      guint         ndim,
                      GnnGenerator *generator,
                      GnnDtype      dtype,
                      const char   *device,
                      GError      **error)
{
  if (!gnn_dtype_is_floating (dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "randn: expected a floating-point dtype, got %s", gnn_dtype_get_name (dtype));
      return NULL;
    }
  return new_random (GNN_BACKEND_OP_RAND_NORMAL, shape, ndim, generator, dtype, device, 0.0, 1.0,
                     0, 0, error);
}

static GnnTensor *new_from_host (gconstpointer data, gsize n_data, GnnDtype dtype,
                                 const gint64 *shape, guint ndim, const char *device,
                                 GError **error);

/* the largest integer that @dtype holds, with every integer below it */
static double
largest_exact_integer (GnnDtype dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_UINT8: return G_MAXUINT8;
    case GNN_DTYPE_INT8: return G_MAXINT8;
    case GNN_DTYPE_INT16: return G_MAXINT16;
    case GNN_DTYPE_INT32: return G_MAXINT32;
    case GNN_DTYPE_FLOAT16: return 2048;
    case GNN_DTYPE_BFLOAT16: return 256;
    case GNN_DTYPE_FLOAT32: return 16777216;
    case GNN_DTYPE_FLOAT64: return 9007199254740992.0;
    default: return (double) G_MAXINT64;
    }
}

/**
 * gnn_tensor_new_randperm:
 * @n: how many integers
 * @dtype: the dtype of the result (`torch.int64` in torch)
 * @generator: (nullable): the generator; %NULL for the default one
 * @device: (nullable): the device; %NULL for the CPU
 * @error: return location for a #GError
 *
 * Creates a 1-d tensor holding a random permutation of 0 .. @n - 1 (`torch.randperm`): a
 * Fisher-Yates shuffle drawn from @generator's stream (one value for each of the @n
 * positions), made on the host and copied to @device. The values must fit @dtype, which may not
 * be bool.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_new_randperm (gint64        n,
                         GnnDtype      dtype,
                         GnnGenerator *generator,
                         const char   *device,
                         GError      **error)
{
  g_autoptr(GnnTensor) host = NULL;
  g_autofree gint64 *perm = NULL;
  guint64 seed, offset;

  if (n < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Trying to create tensor with negative dimension %" G_GINT64_FORMAT ": [%"
                   G_GINT64_FORMAT "]", n, n);
      return NULL;
    }
  if (dtype == GNN_DTYPE_BOOL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DTYPE, "\"randperm\" not implemented for 'Bool'");
      return NULL;
    }
  if (n > 0 && (double) (n - 1) > largest_exact_integer (dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "randperm: n=%" G_GINT64_FORMAT " is too large for result tensor type %s: its "
                   "values do not fit without overflow", n, gnn_dtype_get_name (dtype));
      return NULL;
    }
  if (n > G_MAXUINT32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "randperm: n=%" G_GINT64_FORMAT " is above the largest supported, 2^32 - 1", n);
      return NULL;
    }
  if (generator == NULL)
    generator = gnn_generator_get_default ();
  seed = gnn_generator_get_seed (generator);
  offset = gnn_generator_reserve (generator, (guint64) n);
  perm = g_new (gint64, MAX (n, 1));
  for (gint64 i = 0; i < n; i++)
    perm[i] = i;
  for (gint64 i = n; i > 1; i--)
    {
      guint64 j = gnn_philox_swap_index (offset + (guint64) (i - 1), seed, (guint64) i);
      gint64 tmp = perm[i - 1];
      perm[i - 1] = perm[j];
      perm[j] = tmp;
    }
  host = new_from_host (perm, (gsize) n, GNN_DTYPE_INT64, &n, 1, device, error);
  if (host == NULL)
    return NULL;
  if (dtype == GNN_DTYPE_INT64)
    return g_steal_pointer (&host);
  return gnn_tensor_cast (host, dtype, error);
}

/**
 * gnn_tensor_new_randint:
 * @low: the lowest value
 * @high: one above the highest value
 * @shape: (array length=ndim): the size of each dimension
 * @ndim: the number of dimensions
 * @generator: (nullable): the generator; %NULL for the default one
 * @device: (nullable): the device; %NULL for the CPU
 * @error: return location for a #GError
 *
 * Creates an int64 tensor of integers drawn uniformly from [@low, @high) (`torch.randint`).
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_new_randint (gint64        low,
                        gint64        high,
                        const gint64 *shape,
                        guint         ndim,
                        GnnGenerator *generator,
                        const char   *device,
                        GError      **error)
{
  if (high <= low)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "randint: expected low < high, got low=%" G_GINT64_FORMAT " high=%" G_GINT64_FORMAT,
                   low, high);
      return NULL;
    }
  return new_random (GNN_BACKEND_OP_RAND_INT, shape, ndim, generator, GNN_DTYPE_INT64, device, 0, 0,
                     low, high, error);
}

static GnnTensor *
new_from_host (gconstpointer data, gsize n_data, GnnDtype dtype, const gint64 *shape, guint ndim,
               const char *device, GError **error)
{
  GnnTensor *t;
  gint64 numel;
  GnnStorage *st;

  if (!gnn_shape_check (NULL, ndim, shape, gnn_dtype_get_size (dtype), error))
    return NULL;
  numel = gnn_shape_numel (ndim, shape);
  if ((gint64) n_data != numel)
    {
      g_autofree char *s = gnn_shape_to_string (ndim, shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Shape %s needs %" G_GINT64_FORMAT " elements, got %" G_GSIZE_FORMAT,
                   s, numel, n_data);
      return NULL;
    }
  t = gnn_tensor_new_empty (shape, ndim, dtype, device, error);
  if (t == NULL)
    return NULL;
  st = gnn_tensor_priv (t)->storage;
  if (n_data > 0 &&
      !st->entry->funcs->copy_from_host (st->entry->backend, st->device, st->data, data,
                                         n_data * gnn_dtype_get_size (dtype), error))
    g_clear_object (&t);
  return t;
}

/**
 * gnn_tensor_new_from_floats:
 * @data: (array length=n_data): the elements in row-major order
 * @n_data: the number of elements
 * @shape: (array length=ndim): the size of each dimension
 * @ndim: the number of dimensions
 * @error: return location for a #GError
 *
 * Creates a float32 CPU tensor holding a copy of @data. From Python, prefer
 * [ctor@Gnn.Tensor.new_from_bytes], which copies a buffer in one memcpy.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_new_from_floats (const float  *data,
                            gsize         n_data,
                            const gint64 *shape,
                            guint         ndim,
                            GError      **error)
{
  return new_from_host (data, n_data, GNN_DTYPE_FLOAT32, shape, ndim, NULL, error);
}

/**
 * gnn_tensor_new_from_doubles:
 * @data: (array length=n_data): the elements in row-major order
 * @n_data: the number of elements
 * @shape: (array length=ndim): the size of each dimension
 * @ndim: the number of dimensions
 * @error: return location for a #GError
 *
 * Creates a float64 CPU tensor holding a copy of @data.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_new_from_doubles (const double *data,
                             gsize         n_data,
                             const gint64 *shape,
                             guint         ndim,
                             GError      **error)
{
  return new_from_host (data, n_data, GNN_DTYPE_FLOAT64, shape, ndim, NULL, error);
}

/**
 * gnn_tensor_new_from_int64s:
 * @data: (array length=n_data): the elements in row-major order
 * @n_data: the number of elements
 * @shape: (array length=ndim): the size of each dimension
 * @ndim: the number of dimensions
 * @error: return location for a #GError
 *
 * Creates an int64 CPU tensor holding a copy of @data.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_new_from_int64s (const gint64 *data,
                            gsize         n_data,
                            const gint64 *shape,
                            guint         ndim,
                            GError      **error)
{
  return new_from_host (data, n_data, GNN_DTYPE_INT64, shape, ndim, NULL, error);
}

/**
 * gnn_tensor_new_from_bytes:
 * @bytes: the elements in row-major order, in the machine's byte order
 * @dtype: the element type of @bytes
 * @shape: (array length=ndim): the size of each dimension
 * @ndim: the number of dimensions
 * @device: (nullable): the device; %NULL for the CPU
 * @error: return location for a #GError
 *
 * Creates a tensor holding a copy of @bytes, copied in one go. This is how bindings pass bulk
 * data: from Python, `Gnn.Tensor.new_from_bytes (GLib.Bytes (array.tobytes ()), ...)`.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_new_from_bytes (GBytes       *bytes,
                           GnnDtype      dtype,
                           const gint64 *shape,
                           guint         ndim,
                           const char   *device,
                           GError      **error)
{
  gsize size;
  gconstpointer data;
  gsize esize = gnn_dtype_get_size (dtype);

  g_return_val_if_fail (bytes != NULL, NULL);
  data = g_bytes_get_data (bytes, &size);
  if (size % esize != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%" G_GSIZE_FORMAT " bytes is not a whole number of %s elements (%" G_GSIZE_FORMAT " bytes each)",
                   size, gnn_dtype_get_name (dtype), esize);
      return NULL;
    }
  return new_from_host (data, size / esize, dtype, shape, ndim, device, error);
}

/* The release function of memory that nothing owns (gnn_tensor_new_from_data without owner). */
static void
release_nothing (gpointer data)
{
}

/**
 * gnn_tensor_new_from_data:
 * @address: the host address of the first element, as an integer
 * @dtype: the element type
 * @shape: (array length=ndim): the size of each dimension
 * @ndim: the number of dimensions
 * @strides: (array length=n_strides) (nullable): the step of each dimension in elements, or
 *   %NULL for row-major (contiguous) order
 * @n_strides: the number of strides: 0, or @ndim
 * @owner: (nullable) (transfer none): an object that keeps the memory valid, or %NULL when
 *   the caller guarantees that itself
 * @error: return location for a #GError
 *
 * Creates a CPU tensor over memory that the caller owns, without a copy: `torch.from_numpy`.
 * The tensor and its views read and write that memory. The storage holds a reference to
 * @owner and drops it when the last tensor using the memory is gone, on the thread that
 * drops that tensor.
 *
 * An owner object rather than a release callback lets bindings keep their buffer alive
 * without running code of theirs at release: the Python override
 * `Gnn.Tensor.from_numpy (array)` passes a C-contiguous, writable, aligned numpy array's
 * buffer with a small GObject holding the array.
 *
 * The memory must hold every element the shape and strides reach, be aligned for @dtype and
 * stay valid and writable while @owner lives. Strides must not be negative.
 *
 * MT safe.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set (the default CPU backend
 *   does not serve host memory, a stride is negative, the address is not aligned for @dtype)
 */
GnnTensor *
gnn_tensor_new_from_data (guint64               address,
                          GnnDtype              dtype,
                          const gint64         *shape,
                          guint                 ndim,
                          const gint64         *strides,
                          guint                 n_strides,
                          GObject              *owner,
                          GError              **error)
{
  GnnBackendEntry *entry;
  GnnTensorPrivate *p;
  GnnTensor *t;
  gsize elem = gnn_dtype_get_size (dtype);
  gint64 numel;
  gsize nbytes = 0;

  g_return_val_if_fail (owner == NULL || G_IS_OBJECT (owner), NULL);

  if (!gnn_shape_check (NULL, ndim, shape, gnn_dtype_get_size (dtype), error))
    return NULL;
  if (strides != NULL && n_strides != ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected %u strides for a tensor of %u dimensions, got %u", ndim, ndim, n_strides);
      return NULL;
    }
  for (guint i = 0; strides != NULL && i < ndim; i++)
    if (strides[i] < 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "Expected non-negative strides, got %" G_GINT64_FORMAT " for dimension %u",
                     strides[i], i);
        return NULL;
      }
  if ((address % elem) != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Expected an address aligned to %" G_GSIZE_FORMAT " bytes for %s, got 0x%" G_GINT64_MODIFIER "x",
                   elem, gnn_dtype_get_name (dtype), address);
      return NULL;
    }
  entry = gnn_backend_entry_default_cpu ();
  if (!entry->funcs->is_host)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DEVICE,
                   "Expected a CPU backend that serves host memory to wrap memory without a copy");
      return NULL;
    }
  numel = gnn_shape_numel (ndim, shape);
  if (numel > 0)
    {
      gint64 last = 0;
      gint64 contiguous[GNN_MAX_DIMS];

      gboolean overflow = FALSE;

      gnn_contiguous_strides (ndim, shape, contiguous);
      for (guint i = 0; i < ndim && !overflow; i++)
        {
          gint64 span;
          overflow = __builtin_mul_overflow (shape[i] - 1, strides ? strides[i] : contiguous[i], &span) ||
                     __builtin_add_overflow (last, span, &last);
        }
      if (overflow || __builtin_mul_overflow (last + 1, (gint64) elem, &last))
        {
          g_autofree char *s = gnn_shape_to_string (ndim, shape);
          g_autofree char *st = strides ? gnn_shape_to_string (ndim, strides) : NULL;
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "Storage size calculation overflowed with sizes=%s and strides=%s", s,
                       st ? st : "(contiguous)");
          return NULL;
        }
      nbytes = (gsize) last;
      if (address == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "Expected the address of %" G_GINT64_FORMAT " elements, got 0", numel);
          return NULL;
        }
    }

  t = g_object_new (GNN_TYPE_TENSOR, NULL);
  p = gnn_tensor_priv (t);
  p->storage = gnn_storage_new_wrap (entry, (gpointer) (guintptr) address, nbytes,
                                     owner ? g_object_unref : release_nothing,
                                     owner ? g_object_ref (owner) : NULL);
  p->dtype = dtype;
  p->ndim = ndim;
  if (ndim > 0)
    memcpy (p->shape, shape, sizeof (gint64) * ndim);
  if (strides && ndim > 0)
    memcpy (p->strides, strides, sizeof (gint64) * ndim);
  else
    gnn_contiguous_strides (ndim, shape, p->strides);
  p->version = gnn_version_new ();
  return t;
}

/* ---- geometry ----------------------------------------------------------------------- */

/**
 * gnn_tensor_get_ndim:
 * @self: a tensor
 *
 * Returns the number of dimensions (`Tensor.dim ()`).
 *
 * Returns: the number of dimensions (`Tensor.dim ()`)
 */
guint
gnn_tensor_get_ndim (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), 0);
  return gnn_tensor_priv (self)->ndim;
}

/**
 * gnn_tensor_get_shape:
 * @self: a tensor
 * @ndim: (out) (optional): the number of dimensions
 *
 * Returns the size of each dimension (`Tensor.shape`).
 *
 * Returns: (array length=ndim) (transfer none): the size of each dimension (`Tensor.shape`)
 */
const gint64 *
gnn_tensor_get_shape (GnnTensor *self,
                      guint     *ndim)
{
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (ndim)
    *ndim = p->ndim;
  return p->shape;
}

/**
 * gnn_tensor_get_strides:
 * @self: a tensor
 * @ndim: (out) (optional): the number of dimensions
 *
 * Returns the stride of each dimension in elements (`Tensor.stride ()`).
 *
 * Returns: (array length=ndim) (transfer none): the stride of each dimension in elements
 *   (`Tensor.stride ()`)
 */
const gint64 *
gnn_tensor_get_strides (GnnTensor *self,
                        guint     *ndim)
{
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (ndim)
    *ndim = p->ndim;
  return p->strides;
}

/**
 * gnn_tensor_get_size:
 * @self: a tensor
 * @dim: a dimension; negative counts from the end
 * @error: return location for a #GError
 *
 * Returns the size of dimension @dim (`Tensor.size (dim)`).
 *
 * Returns: the size of dimension @dim (`Tensor.size (dim)`), or -1 with @error set
 */
gint64
gnn_tensor_get_size (GnnTensor *self,
                     int        dim,
                     GError   **error)
{
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), -1);
  if (!gnn_normalize_dim (dim, gnn_tensor_priv (self)->ndim, &d, error))
    return -1;
  return gnn_tensor_priv (self)->shape[d];
}

/**
 * gnn_tensor_get_numel:
 * @self: a tensor
 *
 * Returns the number of elements (`Tensor.numel ()`).
 *
 * Returns: the number of elements (`Tensor.numel ()`)
 */
gint64
gnn_tensor_get_numel (GnnTensor *self)
{
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self), 0);
  p = gnn_tensor_priv (self);
  return gnn_shape_numel (p->ndim, p->shape);
}

/**
 * gnn_tensor_get_storage_offset:
 * @self: a tensor
 *
 * Returns the offset of the first element in the storage, in elements.
 *
 * Returns: the offset of the first element in the storage, in elements
 */
gint64
gnn_tensor_get_storage_offset (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), 0);
  return gnn_tensor_priv (self)->offset;
}

/**
 * gnn_tensor_get_dtype:
 * @self: a tensor
 *
 * Returns the element type.
 *
 * Returns: the element type
 */
GnnDtype
gnn_tensor_get_dtype (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), GNN_DTYPE_FLOAT32);
  return gnn_tensor_priv (self)->dtype;
}

/**
 * gnn_tensor_get_device:
 * @self: a tensor
 *
 * Returns the device the tensor's storage lives on, as PyTorch prints it (`str (t.device)`):
 * "cpu", or the type and index of another device, such as "cuda:0". The string is interned
 * (g_intern_string()): equal devices give the same pointer, and it stays valid for the life
 * of the process.
 *
 * Returns: (transfer none): the device the tensor's storage lives on
 */
const char *
gnn_tensor_get_device (GnnTensor *self)
{
  GnnStorage *st;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  st = gnn_tensor_priv (self)->storage;
  return gnn_device_name (st->entry->device_type, (int) st->device);
}

/**
 * gnn_tensor_is_inference:
 * @self: a tensor
 *
 * Checks whether @self is an inference tensor (`Tensor.is_inference ()`): its memory was made
 * while inference mode was on ([func@Gnn.set_inference_mode_enabled]), as were the views and
 * detached aliases of such a tensor. Outside inference mode an inference tensor refuses
 * in-place updates and `requires_grad`, and cannot be saved for backward; a clone made outside
 * inference mode is a normal tensor.
 *
 * Returns: whether @self is an inference tensor
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_is_inference (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  return gnn_tensor_priv (self)->version->inference;
}

/**
 * gnn_tensor_is_contiguous:
 * @self: a tensor
 *
 * Checks whether the elements lie in row-major order without gaps (`Tensor.is_contiguous ()`).
 *
 * Returns: whether the elements lie in row-major order without gaps (`Tensor.is_contiguous ()`)
 */
gboolean
gnn_tensor_is_contiguous (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  return gnn_tensor_is_contiguous_priv (gnn_tensor_priv (self));
}

/**
 * gnn_tensor_is_view:
 * @self: a tensor
 *
 * Checks whether the tensor is a view of another (`Tensor._is_view ()`).
 *
 * Returns: whether the tensor is a view of another (`Tensor._is_view ()`)
 */
gboolean
gnn_tensor_is_view (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  return gnn_tensor_priv (self)->base != NULL;
}

/**
 * gnn_tensor_get_base:
 * @self: a tensor
 *
 * Returns the tensor this one is a view of (`Tensor._base`).
 *
 * Returns: (transfer none) (nullable): the tensor this one is a view of (`Tensor._base`)
 */
GnnTensor *
gnn_tensor_get_base (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return gnn_tensor_priv (self)->base;
}

/**
 * gnn_tensor_shares_storage:
 * @self: a tensor
 * @other: another tensor
 *
 * Checks whether the two tensors are views of the same storage.
 *
 * Returns: whether the two tensors are views of the same storage
 */
gboolean
gnn_tensor_shares_storage (GnnTensor *self,
                           GnnTensor *other)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (other), FALSE);
  return gnn_tensor_priv (self)->storage == gnn_tensor_priv (other)->storage;
}

/* ---- data out ----------------------------------------------------------------------- */

/* A contiguous host copy of the elements, converted to @dtype. */
static gpointer
copy_out (GnnTensor *self, GnnDtype dtype, gsize *n_out, GError **error)
{
  g_autoptr(GnnTensor) c = NULL;
  GnnTensorPrivate *p;
  gsize nbytes;
  gpointer out;
  gint64 numel = gnn_tensor_get_numel (self);

  c = gnn_tensor_contiguous_as (self, dtype, error);
  if (c == NULL)
    return NULL;
  p = gnn_tensor_priv (c);
  nbytes = (gsize) numel * gnn_dtype_get_size (dtype);
  out = g_malloc (MAX (nbytes, 1));
  if (nbytes > 0 &&
      !p->storage->entry->funcs->copy_to_host (p->storage->entry->backend, p->storage->device, out,
                                               gnn_tensor_data_ptr (p), nbytes, error))
    {
      g_free (out);
      return NULL;
    }
  if (n_out)
    *n_out = (gsize) numel;
  return out;
}

/**
 * gnn_tensor_get_data_address:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The host address of the tensor's first element, as an integer, for bindings that view the
 * memory in place (numpy's `__array_interface__`): the elements sit at this address plus
 * [method@Gnn.Tensor.get_strides] times the element size, in the tensor's dtype.
 *
 * The address stays valid while the storage lives: hold the tensor, or better a
 * [method@Gnn.Tensor.detach]ed alias of it ([method@Gnn.Tensor.set_data] gives a tensor new
 * storage), as long as the memory is used. Writes through it bypass autograd and the version
 * counter, as writes through `Tensor.numpy ()` do in PyTorch.
 *
 * MT safe.
 *
 * Returns: the address, or 0 with @error set when the tensor's memory is not host memory
 *   (a CUDA tensor: copy it with [method@Gnn.Tensor.get_bytes] instead)
 */
guint64
gnn_tensor_get_data_address (GnnTensor *self,
                             GError   **error)
{
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self), 0);
  p = gnn_tensor_priv (self);
  if (!p->storage->entry->funcs->is_host)
    {
      const char *name = gnn_tensor_get_device (self);
      g_set_error (error, GNN_ERROR, GNN_ERROR_DEVICE,
                   "Expected a tensor in host memory, got one on %s: copy it to the CPU first", name);
      return 0;
    }
  return (guint64) (guintptr) gnn_tensor_data_ptr (p);
}

/**
 * gnn_tensor_get_bytes:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * Copies the elements, in row-major order and the tensor's dtype, into host memory. This is
 * how bindings read bulk data: from Python,
 * `numpy.frombuffer (t.get_bytes ().get_data (), numpy.float32)`.
 *
 * Returns: (transfer full): the elements, or %NULL with @error set
 */
GBytes *
gnn_tensor_get_bytes (GnnTensor *self,
                      GError   **error)
{
  gsize n;
  gpointer data;
  GnnDtype dtype;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  dtype = gnn_tensor_priv (self)->dtype;
  data = copy_out (self, dtype, &n, error);
  if (data == NULL)
    return NULL;
  return g_bytes_new_take (data, n * gnn_dtype_get_size (dtype));
}

/**
 * gnn_tensor_to_floats:
 * @self: a tensor
 * @n_data: (out): the number of elements
 * @error: return location for a #GError
 *
 * Copies the elements, converted to float, into a new array in row-major order.
 *
 * Returns: (array length=n_data) (transfer full): the elements, or %NULL with @error set
 */
float *
gnn_tensor_to_floats (GnnTensor *self,
                      gsize     *n_data,
                      GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return copy_out (self, GNN_DTYPE_FLOAT32, n_data, error);
}

/**
 * gnn_tensor_to_doubles:
 * @self: a tensor
 * @n_data: (out): the number of elements
 * @error: return location for a #GError
 *
 * Copies the elements, converted to double, into a new array in row-major order.
 *
 * Returns: (array length=n_data) (transfer full): the elements, or %NULL with @error set
 */
double *
gnn_tensor_to_doubles (GnnTensor *self,
                       gsize     *n_data,
                       GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return copy_out (self, GNN_DTYPE_FLOAT64, n_data, error);
}

/**
 * gnn_tensor_to_int64s:
 * @self: a tensor
 * @n_data: (out): the number of elements
 * @error: return location for a #GError
 *
 * Copies the elements, converted to int64 (truncating toward zero), into a new array.
 *
 * Returns: (array length=n_data) (transfer full): the elements, or %NULL with @error set
 */
gint64 *
gnn_tensor_to_int64s (GnnTensor *self,
                      gsize     *n_data,
                      GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return copy_out (self, GNN_DTYPE_INT64, n_data, error);
}

/**
 * gnn_tensor_item:
 * @self: a tensor with one element
 * @error: return location for a #GError
 *
 * Returns the only element, as a double (`Tensor.item ()`).
 *
 * Returns: the only element, as a double (`Tensor.item ()`); 0 with @error set when the
 *   tensor does not have exactly one element
 */
double
gnn_tensor_item (GnnTensor *self,
                 GError   **error)
{
  g_autofree double *v = NULL;
  gint64 numel;

  g_return_val_if_fail (GNN_IS_TENSOR (self), 0);
  numel = gnn_tensor_get_numel (self);
  if (numel != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "a Tensor with %" G_GINT64_FORMAT " elements cannot be converted to Scalar", numel);
      return 0;
    }
  v = copy_out (self, GNN_DTYPE_FLOAT64, NULL, error);
  return v ? v[0] : 0;
}

/* ---- printing: PyTorch's torch/_tensor_str.py, default print options ---------------- */

#define PRINT_PRECISION 4
#define PRINT_THRESHOLD 1000
#define PRINT_EDGEITEMS 3
#define PRINT_LINEWIDTH 80

typedef struct {
  gboolean floating;
  gboolean is_bool;
  gboolean int_mode;
  gboolean sci_mode;
  int max_width;
} Formatter;

/* one value as Python's str.format would write it, without padding */
static void
format_raw (const Formatter *f, double x, GString *out)
{
  if (!f->floating)
    {
      if (f->is_bool)
        g_string_append (out, x != 0 ? "True" : "False");
      else
        g_string_append_printf (out, "%" G_GINT64_FORMAT, (gint64) x);
      return;
    }
  if (isnan (x))
    {
      g_string_append (out, "nan");
      return;
    }
  if (isinf (x))
    {
      g_string_append (out, x > 0 ? "inf" : "-inf");
      return;
    }
  if (f->sci_mode)
    g_string_append_printf (out, "%.*e", PRINT_PRECISION, x);
  else if (f->int_mode)
    g_string_append_printf (out, "%.0f.", x);
  else
    g_string_append_printf (out, "%.*f", PRINT_PRECISION, x);
}

static int
raw_width (const Formatter *f, double x, gboolean sci, gboolean int_mode)
{
  Formatter tmp = *f;
  GString *s = g_string_new (NULL);
  int w;

  tmp.sci_mode = sci;
  tmp.int_mode = int_mode;
  format_raw (&tmp, x, s);
  w = (int) s->len;
  g_string_free (s, TRUE);
  return w;
}

/* _Formatter.__init__ over the (summarized) values */
static void
formatter_init (Formatter *f, GnnDtype dtype, const double *v, gint64 n)
{
  double mn = G_MAXDOUBLE, mx = 0;
  gboolean any = FALSE;

  f->floating = gnn_dtype_is_floating (dtype);
  f->is_bool = dtype == GNN_DTYPE_BOOL;
  f->int_mode = TRUE;
  f->sci_mode = FALSE;
  f->max_width = 1;

  if (!f->floating)
    {
      for (gint64 i = 0; i < n; i++)
        f->max_width = MAX (f->max_width, raw_width (f, v[i], FALSE, FALSE));
      return;
    }
  for (gint64 i = 0; i < n; i++)
    {
      double x = v[i];
      if (!isfinite (x) || x == 0)
        continue;
      any = TRUE;
      mn = MIN (mn, fabs (x));
      mx = MAX (mx, fabs (x));
      if (x != ceil (x))
        f->int_mode = FALSE;
    }
  if (!any)
    return;
  if (f->int_mode)
    f->sci_mode = mx / mn > 1000.0 || mx > 1.0e8;
  else
    f->sci_mode = mx / mn > 1000.0 || mx > 1.0e8 || mn < 1.0e-4;
  for (gint64 i = 0; i < n; i++)
    {
      double x = v[i];
      if (!isfinite (x) || x == 0)
        continue;
      /* int mode without sci: the width of "%.0f" plus the dot */
      f->max_width = MAX (f->max_width, raw_width (f, x, f->sci_mode, f->int_mode && !f->sci_mode));
    }
}

static void
format_value (const Formatter *f, double x, GString *out)
{
  GString *tmp = g_string_new (NULL);

  format_raw (f, x, tmp);
  for (int i = (int) tmp->len; i < f->max_width; i++)
    g_string_append_c (out, ' ');
  g_string_append_len (out, tmp->str, tmp->len);
  g_string_free (tmp, TRUE);
}

typedef struct {
  const double *v;           /* all elements, row-major */
  const gint64 *shape;
  const gint64 *cstrides;
  guint ndim;
  gboolean summarize;
  const Formatter *f;
} PrintCtx;

static void
vector_str (const PrintCtx *c, gint64 base, int indent, GString *out)
{
  gint64 n = c->shape[c->ndim - 1];
  gint64 stride = c->cstrides[c->ndim - 1];
  int per_line = MAX (1, (PRINT_LINEWIDTH - indent) / (c->f->max_width + 2));
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_free);

  for (gint64 i = 0; i < n; i++)
    {
      GString *e;
      if (c->summarize && n > 2 * PRINT_EDGEITEMS && i == PRINT_EDGEITEMS)
        {
          g_ptr_array_add (items, g_strdup (" ..."));
          i = n - PRINT_EDGEITEMS - 1;
          continue;
        }
      e = g_string_new (NULL);
      format_value (c->f, c->v[base + i * stride], e);
      g_ptr_array_add (items, g_string_free (e, FALSE));
    }
  g_string_append_c (out, '[');
  for (guint i = 0; i < items->len; i++)
    {
      if (i > 0)
        {
          if (i % per_line == 0)
            {
              g_string_append (out, ",\n");
              for (int k = 0; k < indent + 1; k++)
                g_string_append_c (out, ' ');
            }
          else
            g_string_append (out, ", ");
        }
      g_string_append (out, items->pdata[i]);
    }
  g_string_append_c (out, ']');
}

static void
tensor_str (const PrintCtx *c, guint dim, gint64 base, int indent, GString *out)
{
  gint64 n;

  if (dim == c->ndim - 1)
    {
      vector_str (c, base, indent, out);
      return;
    }
  n = c->shape[dim];
  g_string_append_c (out, '[');
  for (gint64 i = 0; i < n; i++)
    {
      if (i > 0)
        {
          g_string_append_c (out, ',');
          for (guint k = dim + 1; k < c->ndim; k++)
            g_string_append_c (out, '\n');
          for (int k = 0; k < indent + 1; k++)
            g_string_append_c (out, ' ');
        }
      if (c->summarize && n > 2 * PRINT_EDGEITEMS && i == PRINT_EDGEITEMS)
        {
          g_string_append (out, "...");
          i = n - PRINT_EDGEITEMS - 1;
          continue;
        }
      tensor_str (c, dim + 1, base + i * c->cstrides[dim], indent + 1, out);
    }
  g_string_append_c (out, ']');
}

/* the values get_summarized_data keeps: edge items of every dimension */
static void
collect_summarized (const PrintCtx *c, guint dim, gint64 base, GArray *out)
{
  gint64 n = c->shape[dim];

  for (gint64 i = 0; i < n; i++)
    {
      if (n > 2 * PRINT_EDGEITEMS && i == PRINT_EDGEITEMS)
        i = n - PRINT_EDGEITEMS;
      if (dim == c->ndim - 1)
        g_array_append_val (out, c->v[base + i * c->cstrides[dim]]);
      else
        collect_summarized (c, dim + 1, base + i * c->cstrides[dim], out);
    }
}

static void
add_suffix (GString *s, gsize *last_line_len, const char *suffix, int indent)
{
  gsize len = strlen (suffix);

  if (*last_line_len + len + 2 > PRINT_LINEWIDTH)
    {
      g_string_append (s, ",\n");
      for (int k = 0; k < indent; k++)
        g_string_append_c (s, ' ');
      g_string_append (s, suffix);
      *last_line_len = indent + len;
    }
  else
    {
      g_string_append (s, ", ");
      g_string_append (s, suffix);
      *last_line_len += len + 2;
    }
}

static G_DEFINE_QUARK (gnn-tensor-print-prefix, print_prefix)

void
gnn_tensor_class_set_print_prefix (GType       type,
                                   const char *prefix)
{
  g_type_set_qdata (type, print_prefix_quark (), (gpointer) prefix);
}

/**
 * gnn_tensor_to_string:
 * @self: a tensor
 *
 * Formats the tensor as PyTorch prints it with its default print options:
 * `tensor([[1.0000, 2.5000]], requires_grad=True)`, with PyTorch's choice of integer, fixed or
 * scientific notation, its line wrapping at 80 columns, its summarisation of tensors over 1000
 * elements, and the size, dtype, device and grad_fn suffixes. A [class@Gnn.Parameter] is
 * preceded by "Parameter containing:" and a new line, as PyTorch prints one.
 *
 * Returns: (transfer full): the printed form
 */
char *
gnn_tensor_to_string (GnnTensor *self)
{
  GnnTensorPrivate *p;
  g_autofree double *v = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) suffixes = g_ptr_array_new_with_free_func (g_free);
  gint64 numel;
  gint64 cstrides[GNN_MAX_DIMS];
  const char *prefix = "tensor(";
  int indent = (int) strlen (prefix);
  Formatter f = { 0 };
  PrintCtx c = { 0 };
  GString *s;
  gsize last_line_len;
  const char *nl;
  gboolean default_dtype;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  numel = gnn_shape_numel (p->ndim, p->shape);
  v = copy_out (self, GNN_DTYPE_FLOAT64, NULL, &error);
  if (v == NULL)
    return g_strdup_printf ("tensor(<unreadable: %s>)", error->message);
  gnn_contiguous_strides (p->ndim, p->shape, cstrides);
  default_dtype = p->dtype == GNN_DTYPE_FLOAT32 || p->dtype == GNN_DTYPE_INT64 || p->dtype == GNN_DTYPE_BOOL;

  if (!g_str_equal (p->storage->entry->device_type, "cpu"))
    g_ptr_array_add (suffixes, g_strdup_printf ("device='%s:%u'", p->storage->entry->device_type, p->storage->device));

  s = g_string_new (prefix);
  if (numel == 0)
    {
      g_string_append (s, "[]");
      if (p->ndim != 1)
        {
          GString *shape = g_string_new ("size=(");
          for (guint i = 0; i < p->ndim; i++)
            g_string_append_printf (shape, "%s%" G_GINT64_FORMAT, i ? ", " : "", p->shape[i]);
          g_string_append (shape, p->ndim == 1 ? ",)" : ")");
          g_ptr_array_add (suffixes, g_string_free (shape, FALSE));
        }
      if (p->dtype != GNN_DTYPE_FLOAT32)
        g_ptr_array_add (suffixes, g_strdup_printf ("dtype=torch.%s", gnn_dtype_get_name (p->dtype)));
    }
  else
    {
      c.v = v;
      c.shape = p->shape;
      c.cstrides = cstrides;
      c.ndim = p->ndim;
      c.summarize = numel > PRINT_THRESHOLD;
      c.f = &f;
      if (c.summarize && p->ndim > 0)
        {
          g_autoptr(GArray) kept = g_array_new (FALSE, FALSE, sizeof (double));
          collect_summarized (&c, 0, 0, kept);
          formatter_init (&f, p->dtype, (const double *) kept->data, kept->len);
        }
      else
        formatter_init (&f, p->dtype, v, numel);
      if (p->ndim == 0)
        format_value (&f, v[0], s);
      else
        tensor_str (&c, 0, 0, indent, s);
      if (!default_dtype)
        g_ptr_array_add (suffixes, g_strdup_printf ("dtype=torch.%s", gnn_dtype_get_name (p->dtype)));
    }
  if (p->grad_fn)
    g_ptr_array_add (suffixes, g_strdup_printf ("grad_fn=<%s>", gnn_node_get_name (p->grad_fn)));
  else if (p->requires_grad)
    g_ptr_array_add (suffixes, g_strdup ("requires_grad=True"));

  /* _add_suffixes: len (tensor_str) - tensor_str.rfind ("\n") + 1 */
  nl = strrchr (s->str, '\n');
  last_line_len = nl ? s->len - (gsize) (nl - s->str) + 1 : s->len + 2;
  for (guint i = 0; i < suffixes->len; i++)
    add_suffix (s, &last_line_len, suffixes->pdata[i], indent);
  g_string_append_c (s, ')');
  for (GType type = G_OBJECT_TYPE (self); type != GNN_TYPE_TENSOR; type = g_type_parent (type))
    {
      const char *print_prefix = g_type_get_qdata (type, print_prefix_quark ());
      if (print_prefix)
        {
          g_string_prepend (s, print_prefix);
          break;
        }
    }
  return g_string_free (s, FALSE);
}

/* ---- storage swapping --------------------------------------------------------------- */

/**
 * gnn_tensor_set_data:
 * @self: a tensor
 * @source: the tensor whose storage and geometry @self takes
 * @error: return location for a #GError
 *
 * Makes @self a view of @source's storage, with @source's shape, strides, dtype and device,
 * keeping @self's identity, gradient settings and autograd role: PyTorch's
 * `self.data = source`. This is how a parameter is moved or loaded without changing the
 * object optimizers hold. @self then has its own version counter.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_tensor_set_data (GnnTensor *self,
                     GnnTensor *source,
                     GError   **error)
{
  GnnTensorPrivate *p, *sp;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (source), FALSE);
  p = gnn_tensor_priv (self);
  sp = gnn_tensor_priv (source);
  if (p->requires_grad && !gnn_dtype_is_floating (sp->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "set_data: a tensor that requires grad needs floating-point data, got %s",
                   gnn_dtype_get_name (sp->dtype));
      return FALSE;
    }
  if (self == source)
    return TRUE;
  gnn_storage_ref (sp->storage);
  g_clear_pointer (&p->storage, gnn_storage_unref);
  p->storage = sp->storage;
  p->offset = sp->offset;
  p->dtype = sp->dtype;
  p->ndim = sp->ndim;
  memcpy (p->shape, sp->shape, sizeof (gint64) * sp->ndim);
  memcpy (p->strides, sp->strides, sizeof (gint64) * sp->ndim);
  g_clear_pointer (&p->version, gnn_version_unref);
  p->version = gnn_version_new ();
  return TRUE;
}

/**
 * gnn_tensor_get_version:
 * @self: a tensor
 *
 * The version counter, shared by the tensor and its views, which every in-place operation
 * increments (`Tensor._version`). Backward refuses a tensor saved for backward whose version
 * changed since it was saved.
 *
 * Returns: the version
 */
guint64
gnn_tensor_get_version (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), 0);
  return gnn_tensor_priv (self)->version->version;
}
