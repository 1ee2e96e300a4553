/* gnn-tensor.h: n-dimensional strided tensors with autograd
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "gnn-dtype.h"
#include "gnn-generator.h"

G_BEGIN_DECLS

#define GNN_TYPE_TENSOR (gnn_tensor_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnTensor, gnn_tensor, GNN, TENSOR, GObject)

/**
 * GnnTensorClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.Tensor]. `GnnParameter` and `GnnBuffer` derive from it.
 */
struct _GnnTensorClass
{
  GObjectClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

/**
 * GnnTensorHookFunc:
 * @grad: the gradient flowing into the tensor
 * @user_data: the data given at registration
 *
 * A gradient hook, as a function given to `Tensor.register_hook`. It runs on the thread that
 * called backward.
 *
 * Returns: (transfer full) (nullable): a gradient to use instead of @grad, or %NULL to keep it
 */
typedef GnnTensor *(*GnnTensorHookFunc) (GnnTensor *grad,
                                         gpointer   user_data);

/* creation */
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_new_empty        (const gint64 *shape,
                                           guint         ndim,
                                           GnnDtype      dtype,
                                           const char   *device,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_new_zeros        (const gint64 *shape,
                                           guint         ndim,
                                           GnnDtype      dtype,
                                           const char   *device,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_new_ones         (const gint64 *shape,
                                           guint         ndim,
                                           GnnDtype      dtype,
                                           const char   *device,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_new_full         (const gint64 *shape,
                                           guint         ndim,
                                           double        value,
                                           GnnDtype      dtype,
                                           const char   *device,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_new_scalar       (double        value,
                                           GnnDtype      dtype,
                                           const char   *device,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_new_arange       (double        start,
                                           double        end,
                                           double        step,
                                           GnnDtype      dtype,
                                           const char   *device,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_new_eye          (gint64        n,
                                           gint64        m,
                                           GnnDtype      dtype,
                                           const char   *device,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_new_rand         (const gint64 *shape,
                                           guint         ndim,
                                           GnnGenerator *generator,
                                           GnnDtype      dtype,
                                           const char   *device,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_new_randn        (const gint64 *shape,
                                           guint         ndim,
                                           GnnGenerator *generator,
                                           GnnDtype      dtype,
                                           const char   *device,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_new_randperm     (gint64        n,
                                           GnnDtype      dtype,
                                           GnnGenerator *generator,
                                           const char   *device,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_new_randint      (gint64        low,
                                           gint64        high,
                                           const gint64 *shape,
                                           guint         ndim,
                                           GnnGenerator *generator,
                                           const char   *device,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_new_from_floats  (const float  *data,
                                           gsize         n_data,
                                           const gint64 *shape,
                                           guint         ndim,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_new_from_doubles (const double *data,
                                           gsize         n_data,
                                           const gint64 *shape,
                                           guint         ndim,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_new_from_int64s  (const gint64 *data,
                                           gsize         n_data,
                                           const gint64 *shape,
                                           guint         ndim,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_new_from_bytes   (GBytes       *bytes,
                                           GnnDtype      dtype,
                                           const gint64 *shape,
                                           guint         ndim,
                                           const char   *device,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_new_from_data    (guint64       address,
                                           GnnDtype      dtype,
                                           const gint64 *shape,
                                           guint         ndim,
                                           const gint64 *strides,
                                           guint         n_strides,
                                           GObject      *owner,
                                           GError      **error);

/* geometry */
GNN_AVAILABLE_IN_ALL
guint         gnn_tensor_get_ndim         (GnnTensor    *self);
GNN_AVAILABLE_IN_ALL
const gint64 *gnn_tensor_get_shape        (GnnTensor    *self,
                                           guint        *ndim);
GNN_AVAILABLE_IN_ALL
const gint64 *gnn_tensor_get_strides      (GnnTensor    *self,
                                           guint        *ndim);
GNN_AVAILABLE_IN_ALL
gint64        gnn_tensor_get_size         (GnnTensor    *self,
                                           int           dim,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
gint64        gnn_tensor_get_numel        (GnnTensor    *self);
GNN_AVAILABLE_IN_ALL
gint64        gnn_tensor_get_storage_offset (GnnTensor  *self);
GNN_AVAILABLE_IN_ALL
GnnDtype      gnn_tensor_get_dtype        (GnnTensor    *self);
GNN_AVAILABLE_IN_ALL
const char   *gnn_tensor_get_device       (GnnTensor    *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_tensor_is_contiguous    (GnnTensor    *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_tensor_is_inference     (GnnTensor    *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_tensor_is_view          (GnnTensor    *self);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_get_base         (GnnTensor    *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_tensor_shares_storage   (GnnTensor    *self,
                                           GnnTensor    *other);

/* data out */
GNN_AVAILABLE_IN_ALL
guint64       gnn_tensor_get_data_address (GnnTensor    *self,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GBytes       *gnn_tensor_get_bytes        (GnnTensor    *self,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
float        *gnn_tensor_to_floats        (GnnTensor    *self,
                                           gsize        *n_data,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
double       *gnn_tensor_to_doubles       (GnnTensor    *self,
                                           gsize        *n_data,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
gint64       *gnn_tensor_to_int64s        (GnnTensor    *self,
                                           gsize        *n_data,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
double        gnn_tensor_item             (GnnTensor    *self,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
char         *gnn_tensor_to_string        (GnnTensor    *self);

/* storage */
GNN_AVAILABLE_IN_ALL
gboolean      gnn_tensor_set_data         (GnnTensor    *self,
                                           GnnTensor    *source,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
guint64       gnn_tensor_get_version      (GnnTensor    *self);

/* autograd */
GNN_AVAILABLE_IN_ALL
gboolean      gnn_tensor_get_requires_grad (GnnTensor   *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_tensor_set_requires_grad (GnnTensor   *self,
                                            gboolean     requires_grad,
                                            GError     **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_get_grad         (GnnTensor    *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_tensor_set_grad         (GnnTensor    *self,
                                           GnnTensor    *grad,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
const char   *gnn_tensor_get_grad_fn_name (GnnTensor    *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_tensor_is_leaf          (GnnTensor    *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_tensor_backward         (GnnTensor    *self,
                                           GnnTensor    *gradient,
                                           gboolean      retain_graph,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_tensor_backward_full    (GnnTensor    *self,
                                           GnnTensor    *gradient,
                                           gboolean      retain_graph,
                                           gboolean      create_graph,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_detach           (GnnTensor    *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_tensor_detach_          (GnnTensor    *self,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
void          gnn_tensor_retain_grad      (GnnTensor    *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_tensor_get_retains_grad (GnnTensor    *self);
GNN_AVAILABLE_IN_ALL
gulong        gnn_tensor_register_hook    (GnnTensor    *self,
                                           GnnTensorHookFunc func,
                                           gpointer      user_data,
                                           GDestroyNotify destroy,
                                           GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_tensor_remove_hook      (GnnTensor    *self,
                                           gulong        hook_id);

G_END_DECLS
