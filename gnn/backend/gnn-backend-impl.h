/* gnn-backend-impl.h: what a backend implements
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Include this header after <gnn/gnn.h> to write a backend, built in or as a loadable
 * module. It is not part of the introspected API.
 */
#pragma once

#include "gnn-backend.h"

G_BEGIN_DECLS

/**
 * GNN_MAX_DIMS:
 *
 * The largest number of dimensions a tensor may have.
 */
#define GNN_MAX_DIMS 8

/**
 * GnnKernelTensor:
 * @data: the address of the first element (device memory for a device backend)
 * @dtype: the element type
 * @ndim: the number of dimensions
 * @shape: the size of each dimension
 * @strides: the stride of each dimension, in elements
 *
 * A tensor operand as a kernel sees it: a strided view of memory on the backend's device.
 */
typedef struct {
  gpointer data;
  GnnDtype dtype;
  guint ndim;
  gint64 shape[GNN_MAX_DIMS];
  gint64 strides[GNN_MAX_DIMS];
} GnnKernelTensor;

/**
 * GnnKernelArgs:
 * @op: the kernel to run
 * @out: the output operand, written in place
 * @out2: a second output (indices of max / min), or %NULL
 * @in: the input operands; unused ones are %NULL
 * @n_in: the number of input operands
 * @s: scalar parameters, as documented for each [enum@Gnn.BackendOp]
 * @i: integer parameters, as documented for each [enum@Gnn.BackendOp]
 * @list_out: the output operands of a multi-tensor (`FOREACH_`) kernel, @n_list of them
 * @list_in: the input operands of a multi-tensor kernel, paired with @list_out
 * @n_list: the number of operand pairs of a multi-tensor kernel; 0 for every other kernel
 *
 * One kernel call.
 */
typedef struct {
  GnnBackendOp op;
  GnnKernelTensor *out;
  GnnKernelTensor *out2;
  const GnnKernelTensor *in[3];
  guint n_in;
  double s[4];
  gint64 i[4];
  GnnKernelTensor *list_out;
  const GnnKernelTensor *list_in;
  guint n_list;
} GnnKernelArgs;

/**
 * GnnBackendFuncs:
 * @alloc: allocate @nbytes on a device; %NULL with @error set on failure
 * @free: free memory from @alloc
 * @copy_from_host: copy @nbytes from host memory to device memory
 * @copy_to_host: copy @nbytes from device memory to host memory
 * @copy_device: copy @nbytes between two allocations of this backend
 * @run: run one kernel; a kernel the backend lacks sets %GNN_ERROR_NOT_SUPPORTED
 * @is_host: whether the device memory is host memory (data pointers may be dereferenced)
 *
 * The hot entry points of a backend, a plain table that the registry caches once, so that
 * dispatching a kernel costs an indirect call (as GStreamer's `GstAllocator` does).
 */
typedef struct {
  gpointer (*alloc)          (GnnBackend *backend, guint device, gsize nbytes, GError **error);
  void     (*free)           (GnnBackend *backend, guint device, gpointer ptr, gsize nbytes);
  gboolean (*copy_from_host) (GnnBackend *backend, guint device, gpointer dst, gconstpointer src, gsize nbytes, GError **error);
  gboolean (*copy_to_host)   (GnnBackend *backend, guint device, gpointer dst, gconstpointer src, gsize nbytes, GError **error);
  gboolean (*copy_device)    (GnnBackend *backend, guint device, gpointer dst, gconstpointer src, gsize nbytes, GError **error);
  gboolean (*run)            (GnnBackend *backend, guint device, const GnnKernelArgs *args, GError **error);
  gboolean is_host;
} GnnBackendFuncs;

/**
 * GnnBackendInterface:
 * @g_iface: the parent interface
 * @get_name: the backend's name ("cpu", "reference", "cuda")
 * @get_device_type: the device type it serves ("cpu", "cuda")
 * @get_device_count: how many devices it sees
 * @get_device_description: a human-readable description of one device
 * @get_memory_info: free and total memory of one device
 * @supports_op: whether it runs a kernel on a dtype
 * @synchronize: wait until queued work on a device is done
 * @get_funcs: the table of hot entry points
 *
 * The virtual methods of [iface@Gnn.Backend].
 */
struct _GnnBackendInterface
{
  GTypeInterface g_iface;

  const char *            (*get_name)               (GnnBackend *self);
  const char *            (*get_device_type)        (GnnBackend *self);
  guint                   (*get_device_count)       (GnnBackend *self);
  char *                  (*get_device_description) (GnnBackend *self, guint index);
  gboolean                (*get_memory_info)        (GnnBackend *self, guint index, guint64 *free_bytes, guint64 *total_bytes, GError **error);
  gboolean                (*supports_op)            (GnnBackend *self, GnnBackendOp op, GnnDtype dtype);
  gboolean                (*synchronize)            (GnnBackend *self, guint index, GError **error);
  const GnnBackendFuncs * (*get_funcs)              (GnnBackend *self);

  /*< private >*/
  gpointer padding[8];
};

/**
 * GnnBackendModuleRegisterFunc:
 *
 * A loadable backend module exports two symbols:
 * `const guint gnn_backend_module_api_version = GNN_BACKEND_API_VERSION;` and
 * `void gnn_backend_module_register (void)`, of this type. The registry checks the version,
 * keeps the module resident, and calls the function, which registers the backend's GType and
 * implements the extension point %GNN_BACKEND_EXTENSION_POINT_NAME under the backend's name
 * with g_io_extension_point_implement().
 */
typedef void (*GnnBackendModuleRegisterFunc) (void);

G_END_DECLS
