/* gnn-tensor-private.h: the inside of a GnnTensor
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core/gnn-error.h"
#include "core/gnn-tensor.h"
#include "core/gnn-node.h"
#include "core/gnn-threads.h"
#include "gnn-enum-types.h"
#include "backend/gnn-backend-private.h"

G_BEGIN_DECLS

/* What core knows of an autograd node, such as a tensor's grad_fn: a name and a reference
 * count whose last release calls @free. Every node starts with this header, filled by the
 * autograd graph that makes nodes (autograd/graph), so that core can hold, name and release
 * one without calling up into autograd (GstMiniObject's pattern). */
typedef struct {
  gatomicrefcount ref_count;
  const char *name;
  void (*free) (GnnNode *node);
} GnnNodeHeader;

/* gnn_node_ref, gnn_node_unref and gnn_node_get_name (gnn-node.h) work on this header */

/* Memory owned by one device of one backend, shared by every view of it. */
typedef struct {
  gatomicrefcount ref_count;
  GnnBackendEntry *entry;
  guint device;
  gpointer data;
  gsize nbytes;
  /* memory the storage does not own (GBytes, a mapped file): released through this */
  GDestroyNotify release;
  gpointer release_data;
} GnnStorage;

/* Shared by a tensor, its views and its detached aliases: PyTorch's version counter. */
typedef struct {
  gatomicrefcount ref_count;
  guint64 version;
  /* made in inference mode: every tensor sharing this counter (the tensor, its views, its
   * detached aliases) is an inference tensor */
  gboolean inference;
} GnnVersion;

typedef struct {
  GnnTensorHookFunc func;
  gpointer data;
  GDestroyNotify destroy;
  gulong id;
} GnnTensorHook;

typedef struct {
  GnnStorage *storage;
  gint64 offset;              /* in elements */
  guint ndim;
  GnnDtype dtype;
  gint64 shape[GNN_MAX_DIMS];
  gint64 strides[GNN_MAX_DIMS];
  GnnVersion *version;
  GnnTensor *base;            /* the tensor this is a view of, or NULL */

  /* autograd */
  guint requires_grad : 1;
  guint retains_grad : 1;
  guint inplace_forbidden : 1;  /* an output of a module's backward-hook node */
  GnnTensor *grad;
  GnnNode *grad_fn;           /* strong; NULL for leaves */
  guint output_nr;
  GnnNode *grad_accumulator;  /* borrowed: cleared by the node when it goes */
  GArray *hooks;              /* GnnTensorHook */
} GnnTensorPrivate;

extern gint GnnTensor_private_offset_shared;

static inline GnnTensorPrivate *
gnn_tensor_priv (GnnTensor *t)
{
  return (GnnTensorPrivate *) G_STRUCT_MEMBER_P (t, GnnTensor_private_offset_shared);
}

GnnStorage *gnn_storage_new        (GnnBackendEntry *entry,
                                    guint            device,
                                    gsize            nbytes,
                                    GError         **error);
GnnStorage *gnn_storage_new_wrap   (GnnBackendEntry *entry,
                                    gpointer         data,
                                    gsize            nbytes,
                                    GDestroyNotify   release,
                                    gpointer         release_data);
GnnStorage *gnn_storage_ref        (GnnStorage *storage);
void        gnn_storage_unref      (GnnStorage *storage);

GnnVersion *gnn_version_new        (void);
/* Whether tensors made on this thread are inference tensors (set by the autograd layer's
 * gnn_set_inference_mode_enabled): the previous setting. */
gboolean    gnn_tensor_set_creating_inference (gboolean inference);
gboolean    gnn_tensor_creating_inference     (void);
GnnVersion *gnn_version_ref        (GnnVersion *v);
void        gnn_version_unref      (GnnVersion *v);

/* A new contiguous tensor on the given backend device, uninitialised. */
GnnTensor  *gnn_tensor_new_on      (GnnBackendEntry *entry,
                                    guint            device,
                                    GnnDtype         dtype,
                                    guint            ndim,
                                    const gint64    *shape,
                                    GError         **error);
/* A new uninitialised contiguous tensor on the same device as @like. */
GnnTensor  *gnn_tensor_new_like    (GnnTensor       *like,
                                    GnnDtype         dtype,
                                    guint            ndim,
                                    const gint64    *shape,
                                    GError         **error);
/* A new contiguous tensor of zeros on the same device as @like. */
GnnTensor  *gnn_tensor_new_zeros_like (GnnTensor    *like,
                                       GnnDtype      dtype,
                                       guint         ndim,
                                       const gint64 *shape,
                                       GError      **error);
/* Sets every element of @t to @value with the backend's FILL kernel, without autograd. */
gboolean    gnn_tensor_fill_kernel (GnnTensor       *t,
                                    double           value,
                                    GError         **error);
/* A view sharing storage and version with @src, with the given geometry. */
GnnTensor  *gnn_tensor_new_view    (GnnTensor       *src,
                                    guint            ndim,
                                    const gint64    *shape,
                                    const gint64    *strides,
                                    gint64           offset);
/* A contiguous CPU tensor over the memory of @bytes, without a copy when the default CPU
 * backend serves host memory and the data is aligned for @dtype (a copy otherwise). The
 * memory is written by in-place ops: give it bytes that may be written (a private mapping). */
GnnTensor  *gnn_tensor_new_wrap_bytes (GBytes       *bytes,
                                       GnnDtype      dtype,
                                       guint         ndim,
                                       const gint64 *shape,
                                       GError      **error);
/* An alias sharing storage and version with @src, without autograd history. */
GnnTensor  *gnn_tensor_new_alias   (GnnTensor       *src);
/* Makes @t (fresh, without storage) an alias of @src: same storage, geometry and version
 * (not @src's view base). */
void        gnn_tensor_init_alias  (GnnTensor       *t,
                                    GnnTensor       *src);
/* What gnn_tensor_to_string prints before a tensor of @type or of a subclass of it (a static
 * string; GnnParameter's is "Parameter containing:\n"), set by the class's class_init, so that
 * core prints a subclass from a layer above without knowing it. */
void        gnn_tensor_class_set_print_prefix (GType       type,
                                               const char *prefix);

void        gnn_tensor_to_kernel   (GnnTensor       *t,
                                    GnnKernelTensor *kt);
/* A kernel view of @t expanded (stride 0) to a shape it broadcasts to. */
void        gnn_kernel_tensor_broadcast (GnnTensor       *t,
                                         guint            ndim,
                                         const gint64    *shape,
                                         GnnKernelTensor *kt);
/* Runs a kernel on the backend that owns @on. */
gboolean    gnn_run_kernel         (GnnTensor       *on,
                                    GnnKernelArgs   *args,
                                    GError         **error);
/* Copies @src (broadcast to @dst's shape, converted to its dtype) into @dst, which may be a
 * strided view, through the backend's COPY kernel. No autograd, no version bump. */
gboolean    gnn_tensor_copy_into   (GnnTensor       *dst,
                                    GnnTensor       *src,
                                    GError         **error);
/* Always a new contiguous tensor of @dtype, without history. */
GnnTensor  *gnn_tensor_clone_contiguous (GnnTensor  *t,
                                         GnnDtype    dtype,
                                         GError    **error);
/* @t itself (a new reference) when it is contiguous and of @dtype, else a contiguous copy
 * (no history). */
GnnTensor  *gnn_tensor_contiguous_as (GnnTensor     *t,
                                      GnnDtype       dtype,
                                      GError       **error);
/* @t (a new reference) when of @dtype, else a converted copy (no history). */
GnnTensor  *gnn_tensor_cast        (GnnTensor       *t,
                                    GnnDtype         dtype,
                                    GError         **error);
gboolean    gnn_tensor_is_contiguous_priv (GnnTensorPrivate *p);
gint64      gnn_shape_numel        (guint ndim, const gint64 *shape);
/* The element count of @shape in @numel (may be NULL); FALSE when a size is negative or the
 * product of the non-zero sizes exceeds G_MAXINT64. */
gboolean    gnn_shape_numel_checked (guint ndim, const gint64 *shape, gint64 *numel);
/* The one check every tensor's shape passes: at most GNN_MAX_DIMS dimensions, no negative
 * size, the product of the non-zero sizes within int64 and, when @elem_size is not 0 (a
 * tensor with its own memory), its byte size too. @op (nullable) prefixes the message. */
gboolean    gnn_shape_check        (const char   *op,
                                    guint         ndim,
                                    const gint64 *shape,
                                    gsize         elem_size,
                                    GError      **error);
void        gnn_contiguous_strides (guint ndim, const gint64 *shape, gint64 *strides);
char       *gnn_shape_to_string    (guint ndim, const gint64 *shape);
/* A dimension index, negative from the end, checked against ndim. */
gboolean    gnn_normalize_dim      (int           dim,
                                    guint         ndim,
                                    guint        *out,
                                    GError      **error);

static inline void
gnn_tensor_bump_version (GnnTensor *t)
{
  gnn_tensor_priv (t)->version->version++;
}

static inline gpointer
gnn_tensor_data_ptr (GnnTensorPrivate *p)
{
  return (char *) p->storage->data + p->offset * (gint64) gnn_dtype_get_size (p->dtype);
}

G_END_DECLS
