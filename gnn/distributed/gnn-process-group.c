/* gnn-process-group.c: process groups and the default group (torch.distributed)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A process group is made by a loadable module, `libgnn-distributed-NAME.so`, searched in the
 * folders of `GNN_DISTRIBUTED_PATH` and then in `$libdir/gnn-1.0/distributed`, so that libgnn
 * links no MPI. The module exports `gnn_distributed_module_api_version` (a guint, 1) and
 * `gnn_distributed_module_new_group`, a `GnnProcessGroup *(*) (GError **)`. The base class
 * here stages tensors through contiguous host buffers and checks, with one small all-gather
 * before each collective, that every rank passed the same element count and dtype, so that a
 * mismatch is a GError on every rank rather than a hang or a corrupt buffer.
 */
#include "config.h"

#include <string.h>
#include <gmodule.h>

#include "gnn-process-group.h"
#include "core/gnn-error.h"
#include "ops/gnn-ops.h"
#include "autograd/graph/gnn-grad-mode.h"

/**
 * GnnProcessGroup:
 *
 * A group of processes that run collectives together, as a `torch.distributed` process
 * group: every rank calls the same collectives in the same order. Make one with
 * [func@Gnn.ProcessGroup.load], or set the default group with
 * [func@Gnn.distributed_init_process_group].
 *
 * Since: 0.1
 */

typedef struct
{
  char *backend;
} GnnProcessGroupPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GnnProcessGroup, gnn_process_group, G_TYPE_OBJECT)

#define GNN_DISTRIBUTED_MODULE_API_VERSION 1u

typedef GnnProcessGroup *(*GnnNewGroupFunc) (GError **error);

static void
gnn_process_group_finalize (GObject *object)
{
  GnnProcessGroupPrivate *priv =
    gnn_process_group_get_instance_private (GNN_PROCESS_GROUP (object));

  g_free (priv->backend);
  G_OBJECT_CLASS (gnn_process_group_parent_class)->finalize (object);
}

/**
 * GnnProcessGroupClass::get_rank:
 * @self: a process group
 *
 * Gives this process's rank.
 *
 * Returns: the rank, from 0
 */
/**
 * GnnProcessGroupClass::get_world_size:
 * @self: a process group
 *
 * Gives the number of processes in the group.
 *
 * Returns: the world size
 */
/**
 * GnnProcessGroupClass::all_reduce_raw:
 * @self: a process group
 * @buffer: (type gpointer): @count elements of @dtype, contiguous in host memory
 * @count: the number of elements
 * @dtype: their dtype: float32, float64 or int64
 * @op: the reduction, never %GNN_REDUCE_OP_AVG
 * @error: return location for a #GError
 *
 * Replaces @buffer by the element-wise @op over the ranks, on every rank.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
/**
 * GnnProcessGroupClass::broadcast_raw:
 * @self: a process group
 * @buffer: (type gpointer): @nbytes of host memory
 * @nbytes: the size of @buffer
 * @src: the rank whose bytes every rank receives
 * @error: return location for a #GError
 *
 * Copies rank @src's @buffer into every other rank's.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
/**
 * GnnProcessGroupClass::all_gather_raw:
 * @self: a process group
 * @send: (type gpointer): @nbytes of host memory
 * @nbytes: the size of @send
 * @recv: (type gpointer): world size times @nbytes of host memory
 * @error: return location for a #GError
 *
 * Gathers every rank's @send into @recv, in rank order, on every rank.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
/**
 * GnnProcessGroupClass::barrier:
 * @self: a process group
 * @error: return location for a #GError
 *
 * Returns when every rank has entered it.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
static void
gnn_process_group_class_init (GnnProcessGroupClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_process_group_finalize;
}

static void
gnn_process_group_init (GnnProcessGroup *self)
{
}

static gboolean
valid_backend_name (const char *name)
{
  if (name == NULL || *name == '\0')
    return FALSE;
  for (const char *c = name; *c; c++)
    if (!g_ascii_isalnum (*c) && *c != '_')
      return FALSE;
  return TRUE;
}

static GnnNewGroupFunc
find_module (const char *backend,
             GString    *tried)
{
  g_autoptr(GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);
  const char *path = g_getenv ("GNN_DISTRIBUTED_PATH");
  g_autofree char *file = g_strdup_printf ("libgnn-distributed-%s.so", backend);

  if (path != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (path, G_SEARCHPATH_SEPARATOR_S, -1);
      for (guint i = 0; parts[i]; i++)
        if (*parts[i])
          g_ptr_array_add (dirs, g_strdup (parts[i]));
    }
  g_ptr_array_add (dirs, g_strdup (GNN_DISTRIBUTED_DIR));

  for (guint i = 0; i < dirs->len; i++)
    {
      g_autofree char *full = g_build_filename (dirs->pdata[i], file, NULL);
      GModule *module;
      gpointer version_sym = NULL, new_sym = NULL;

      if (!g_file_test (full, G_FILE_TEST_EXISTS))
        continue;
      /* not BIND_LOCAL: MPI's own plugins look up libmpi's symbols globally */
      module = g_module_open (full, G_MODULE_BIND_LAZY);
      if (module == NULL)
        {
          g_string_append_printf (tried, "; %s", g_module_error ());
          continue;
        }
      if (!g_module_symbol (module, "gnn_distributed_module_api_version", &version_sym) ||
          !g_module_symbol (module, "gnn_distributed_module_new_group", &new_sym) ||
          *(const guint *) version_sym != GNN_DISTRIBUTED_MODULE_API_VERSION)
        {
          g_string_append_printf (tried, "; %s is not a gnn distributed module of API version %u",
                                  full, GNN_DISTRIBUTED_MODULE_API_VERSION);
          g_module_close (module);
          continue;
        }
      g_module_make_resident (module);
      return (GnnNewGroupFunc) new_sym;
    }
  return NULL;
}

/**
 * gnn_process_group_load:
 * @backend: the backend's name, as `torch.distributed.init_process_group`'s: `"mpi"`
 * @error: return location for a #GError
 *
 * Loads the module of @backend and makes a group of every process of the job, from the
 * launcher's environment (`mpirun -np N`). Open MPI makes one such group per process: a
 * second one after the first is finalized is an error.
 *
 * Returns: (transfer full): the group, or %NULL with @error set (%GNN_ERROR_BACKEND) when no
 *   module of that name is installed or it fails to start
 *
 * Since: 0.1
 */
GnnProcessGroup *
gnn_process_group_load (const char *backend,
                       GError    **error)
{
  g_autoptr(GString) tried = g_string_new ("");
  GnnNewGroupFunc new_group;
  GnnProcessGroup *group;

  if (!valid_backend_name (backend))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Invalid backend name '%s': expected a name such as 'mpi'",
                   backend ? backend : "(null)");
      return NULL;
    }
  new_group = find_module (backend, tried);
  if (new_group == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_BACKEND,
                   "Invalid backend '%s': no module libgnn-distributed-%s.so in GNN_DISTRIBUTED_PATH "
                   "or %s (gnn knows the backend 'mpi', built when Open MPI is installed)%s",
                   backend, backend, GNN_DISTRIBUTED_DIR, tried->str);
      return NULL;
    }
  group = new_group (error);
  if (group == NULL)
    return NULL;
  ((GnnProcessGroupPrivate *) gnn_process_group_get_instance_private (group))->backend =
    g_strdup (backend);
  return group;
}

/**
 * gnn_process_group_get_backend:
 * @self: a process group
 *
 * Gives the name of the backend that made the group.
 *
 * Returns: the name of the group's backend, as `torch.distributed.get_backend`
 *
 * Since: 0.1
 */
const char *
gnn_process_group_get_backend (GnnProcessGroup *self)
{
  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  return ((GnnProcessGroupPrivate *) gnn_process_group_get_instance_private (self))->backend;
}

/**
 * gnn_process_group_get_rank:
 * @self: a process group
 *
 * Gives this process's rank in the group, as `torch.distributed.get_rank (group)`.
 *
 * Returns: this process's rank in the group, from 0
 *
 * Since: 0.1
 */
int
gnn_process_group_get_rank (GnnProcessGroup *self)
{
  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), -1);
  return GNN_PROCESS_GROUP_GET_CLASS (self)->get_rank (self);
}

/**
 * gnn_process_group_get_world_size:
 * @self: a process group
 *
 * Gives the size of the group, as `torch.distributed.get_world_size (group)`.
 *
 * Returns: the number of processes in the group
 *
 * Since: 0.1
 */
int
gnn_process_group_get_world_size (GnnProcessGroup *self)
{
  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), -1);
  return GNN_PROCESS_GROUP_GET_CLASS (self)->get_world_size (self);
}

static const char *
op_name (GnnReduceOp op)
{
  static const char *names[] = { "SUM", "PRODUCT", "MIN", "MAX", "AVG" };
  return (guint) op < G_N_ELEMENTS (names) ? names[op] : "?";
}

/* every rank's (numel, dtype, extra) are the same, or a GError on every rank naming them */
static gboolean
check_agreement (GnnProcessGroup *self,
                 const char      *what,
                 GnnTensor       *tensor,
                 gint64           extra,
                 GError         **error)
{
  GnnProcessGroupClass *klass = GNN_PROCESS_GROUP_GET_CLASS (self);
  int size = klass->get_world_size (self);
  gint64 mine[3] = { gnn_tensor_get_numel (tensor), gnn_tensor_get_dtype (tensor), extra };
  g_autofree gint64 *all = g_new0 (gint64, 3 * (gsize) size);

  if (!klass->all_gather_raw (self, mine, sizeof mine, all, error))
    return FALSE;
  for (int r = 0; r < size; r++)
    if (all[3 * r] != mine[0] || all[3 * r + 1] != mine[1] || all[3 * r + 2] != mine[2])
      {
        if (all[3 * r + 2] != mine[2])
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: rank %d passed %" G_GINT64_FORMAT ", rank %d passed %" G_GINT64_FORMAT
                       ": every rank must pass the same value", what,
                       klass->get_rank (self), mine[2], r, all[3 * r + 2]);
        else
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s: rank %d has a %s tensor of %" G_GINT64_FORMAT " elements, rank %d a %s "
                       "tensor of %" G_GINT64_FORMAT ": every rank must pass the same size and dtype",
                       what, klass->get_rank (self), gnn_dtype_get_name ((GnnDtype) mine[1]), mine[0],
                       r, gnn_dtype_get_name ((GnnDtype) all[3 * r + 1]), all[3 * r]);
        return FALSE;
      }
  return TRUE;
}

static gboolean
check_dtype (GnnTensor  *tensor,
             const char *what,
             GError    **error)
{
  GnnDtype d = gnn_tensor_get_dtype (tensor);

  if (d != GNN_DTYPE_FLOAT32 && d != GNN_DTYPE_FLOAT64 && d != GNN_DTYPE_INT64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: expected a float32, float64 or int64 tensor, got %s", what,
                   gnn_dtype_get_name (d));
      return FALSE;
    }
  return TRUE;
}

/* the tensor's elements, contiguous in host memory, in a buffer the caller owns */
static gpointer
host_copy (GnnTensor *tensor,
           gsize     *nbytes,
           GError   **error)
{
  GBytes *bytes = gnn_tensor_get_bytes (tensor, error);

  if (bytes == NULL)
    return NULL;
  return g_bytes_unref_to_data (bytes, nbytes);
}

/* writes @data (the tensor's elements, contiguous) back into @tensor, bypassing autograd */
static gboolean
write_back (GnnTensor *tensor,
            gpointer   data,
            gsize      nbytes,
            GError   **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_autoptr(GBytes) bytes = g_bytes_new_take (data, nbytes);
  guint ndim = gnn_tensor_get_ndim (tensor);
  const gint64 *shape = gnn_tensor_get_shape (tensor, NULL);
  g_autoptr(GnnTensor) src = gnn_tensor_new_from_bytes (bytes, gnn_tensor_get_dtype (tensor),
                                                        shape, ndim,
                                                        gnn_tensor_get_device (tensor), error);

  return src != NULL && gnn_tensor_copy_ (tensor, src, error);
}

/**
 * gnn_process_group_all_reduce:
 * @self: a process group
 * @tensor: a float32, float64 or int64 tensor of the same size on every rank
 * @op: how to combine the ranks' elements
 * @error: return location for a #GError
 *
 * Replaces @tensor, in place and on every rank, by the element-wise @op of every rank's
 * @tensor, as `torch.distributed.all_reduce`. Tensors of any device are staged through host
 * memory. %GNN_REDUCE_OP_AVG is the sum divided by the world size, for floating-point
 * tensors.
 *
 * Returns: %TRUE on success; %FALSE with @error set, on every rank, when the ranks' sizes or
 *   dtypes differ (%GNN_ERROR_SHAPE), or the dtype is not supported
 *
 * Since: 0.1
 */
gboolean
gnn_process_group_all_reduce (GnnProcessGroup *self,
                              GnnTensor       *tensor,
                              GnnReduceOp      op,
                              GError         **error)
{
  GnnProcessGroupClass *klass;
  GnnDtype dtype;
  gsize nbytes, count;
  gpointer data;
  GnnReduceOp raw_op = op;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  klass = GNN_PROCESS_GROUP_GET_CLASS (self);
  if ((guint) op > GNN_REDUCE_OP_AVG)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "all_reduce: unknown reduce op %d: expected SUM, PRODUCT, MIN, MAX or AVG", op);
      return FALSE;
    }
  if (!check_dtype (tensor, "all_reduce", error) ||
      !check_agreement (self, "all_reduce", tensor, op, error))
    return FALSE;
  dtype = gnn_tensor_get_dtype (tensor);
  if (op == GNN_REDUCE_OP_AVG)
    {
      if (!gnn_dtype_is_floating (dtype))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "all_reduce: ReduceOp.%s needs a floating-point tensor, got %s",
                       op_name (op), gnn_dtype_get_name (dtype));
          return FALSE;
        }
      raw_op = GNN_REDUCE_OP_SUM;
    }
  data = host_copy (tensor, &nbytes, error);
  if (data == NULL)
    return FALSE;
  count = nbytes / gnn_dtype_get_size (dtype);
  if (!klass->all_reduce_raw (self, data, count, dtype, raw_op, error))
    {
      g_free (data);
      return FALSE;
    }
  if (op == GNN_REDUCE_OP_AVG)
    {
      double n = klass->get_world_size (self);
      if (dtype == GNN_DTYPE_FLOAT32)
        for (gsize i = 0; i < count; i++)
          ((float *) data)[i] = (float) (((float *) data)[i] / n);
      else
        for (gsize i = 0; i < count; i++)
          ((double *) data)[i] /= n;
    }
  return write_back (tensor, data, nbytes, error);
}

/**
 * gnn_process_group_broadcast:
 * @self: a process group
 * @tensor: a float32, float64 or int64 tensor of the same size on every rank
 * @src: the rank whose @tensor every rank receives
 * @error: return location for a #GError
 *
 * Copies rank @src's @tensor into @tensor on every other rank, in place, as
 * `torch.distributed.broadcast`.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @src is out of range or the ranks'
 *   sizes, dtypes or sources differ
 *
 * Since: 0.1
 */
gboolean
gnn_process_group_broadcast (GnnProcessGroup *self,
                             GnnTensor       *tensor,
                             int              src,
                             GError         **error)
{
  GnnProcessGroupClass *klass;
  gsize nbytes;
  gpointer data;
  int size;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  klass = GNN_PROCESS_GROUP_GET_CLASS (self);
  size = klass->get_world_size (self);
  if (src < 0 || src >= size)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "broadcast: source rank %d is out of range: expected 0 to %d", src, size - 1);
      return FALSE;
    }
  if (!check_dtype (tensor, "broadcast", error) ||
      !check_agreement (self, "broadcast", tensor, src, error))
    return FALSE;
  data = host_copy (tensor, &nbytes, error);
  if (data == NULL)
    return FALSE;
  if (!klass->broadcast_raw (self, data, nbytes, src, error))
    {
      g_free (data);
      return FALSE;
    }
  if (klass->get_rank (self) == src)
    {
      g_free (data);
      return TRUE;
    }
  return write_back (tensor, data, nbytes, error);
}

/**
 * gnn_process_group_all_gather:
 * @self: a process group
 * @tensor: a float32, float64 or int64 tensor of the same size on every rank
 * @error: return location for a #GError
 *
 * Gathers every rank's @tensor on every rank, as `torch.distributed.all_gather`.
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): one new tensor per rank, in rank order,
 *   of @tensor's shape, dtype and device; %NULL with @error set when the ranks' sizes or dtypes
 *   differ
 *
 * Since: 0.1
 */
GPtrArray *
gnn_process_group_all_gather (GnnProcessGroup *self,
                              GnnTensor       *tensor,
                              GError         **error)
{
  GnnProcessGroupClass *klass;
  gsize nbytes;
  g_autofree gpointer data = NULL;
  g_autofree guint8 *all = NULL;
  g_autoptr(GPtrArray) out = NULL;
  int size;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (tensor), NULL);
  klass = GNN_PROCESS_GROUP_GET_CLASS (self);
  size = klass->get_world_size (self);
  if (!check_dtype (tensor, "all_gather", error) ||
      !check_agreement (self, "all_gather", tensor, 0, error))
    return NULL;
  data = host_copy (tensor, &nbytes, error);
  if (data == NULL)
    return NULL;
  all = g_malloc (MAX (nbytes * (gsize) size, 1));
  if (!klass->all_gather_raw (self, data, nbytes, all, error))
    return NULL;
  out = g_ptr_array_new_with_free_func (g_object_unref);
  for (int r = 0; r < size; r++)
    {
      g_autoptr(GBytes) b = g_bytes_new (all + nbytes * (gsize) r, nbytes);
      GnnTensor *t = gnn_tensor_new_from_bytes (b, gnn_tensor_get_dtype (tensor),
                                                gnn_tensor_get_shape (tensor, NULL),
                                                gnn_tensor_get_ndim (tensor),
                                                gnn_tensor_get_device (tensor), error);
      if (t == NULL)
        return NULL;
      g_ptr_array_add (out, t);
    }
  return g_steal_pointer (&out);
}

/**
 * gnn_process_group_barrier:
 * @self: a process group
 * @error: return location for a #GError
 *
 * Returns when every rank of the group has called it, as `torch.distributed.barrier`.
 *
 * Returns: %TRUE on success, %FALSE with @error set when the backend fails
 *
 * Since: 0.1
 */
gboolean
gnn_process_group_barrier (GnnProcessGroup *self,
                           GError         **error)
{
  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), FALSE);
  return GNN_PROCESS_GROUP_GET_CLASS (self)->barrier (self, error);
}

/* ---- the default group ------------------------------------------------------------- */

static GMutex default_lock;
static GnnProcessGroup *default_group;

/**
 * gnn_distributed_init_process_group:
 * @backend: the backend's name: `"mpi"`
 * @error: return location for a #GError
 *
 * Makes the default process group, as `torch.distributed.init_process_group (backend)`: the
 * rank and world size come from the launcher (`mpirun -np N`).
 *
 * Returns: %TRUE on success; %FALSE with @error set when the default group already exists
 *   (%GNN_ERROR_FAILED) or the backend is unknown or fails (%GNN_ERROR_BACKEND)
 *
 * Since: 0.1
 */
gboolean
gnn_distributed_init_process_group (const char *backend,
                                    GError    **error)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&default_lock);
  GnnProcessGroup *group;

  if (default_group != NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   "trying to initialize the default process group twice!");
      return FALSE;
    }
  group = gnn_process_group_load (backend, error);
  if (group == NULL)
    return FALSE;
  default_group = group;
  return TRUE;
}

/**
 * gnn_distributed_is_initialized:
 *
 * Tells whether [func@Gnn.distributed_init_process_group] has made the default group.
 *
 * Returns: whether the default process group exists, as `torch.distributed.is_initialized`
 *
 * Since: 0.1
 */
gboolean
gnn_distributed_is_initialized (void)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&default_lock);
  return default_group != NULL;
}

/**
 * gnn_distributed_get_default_group:
 * @error: return location for a #GError
 *
 * Gives the default process group, which the module-level collectives use.
 *
 * Returns: (transfer none): the default process group, or %NULL with @error set
 *   (%GNN_ERROR_FAILED) before [func@Gnn.distributed_init_process_group]
 *
 * Since: 0.1
 */
GnnProcessGroup *
gnn_distributed_get_default_group (GError **error)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&default_lock);

  if (default_group == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                 "Default process group has not been initialized, please make sure to call "
                 "init_process_group.");
  return default_group;
}

/**
 * gnn_distributed_get_rank:
 * @error: return location for a #GError
 *
 * Gives this process's rank in the default group, as `torch.distributed.get_rank ()`.
 *
 * Returns: this process's rank in the default group, or -1 with @error set before
 *   [func@Gnn.distributed_init_process_group]
 *
 * Since: 0.1
 */
int
gnn_distributed_get_rank (GError **error)
{
  GnnProcessGroup *g = gnn_distributed_get_default_group (error);
  return g ? gnn_process_group_get_rank (g) : -1;
}

/**
 * gnn_distributed_get_world_size:
 * @error: return location for a #GError
 *
 * Gives the size of the default group, as `torch.distributed.get_world_size ()`.
 *
 * Returns: the size of the default group, or -1 with @error set before
 *   [func@Gnn.distributed_init_process_group]
 *
 * Since: 0.1
 */
int
gnn_distributed_get_world_size (GError **error)
{
  GnnProcessGroup *g = gnn_distributed_get_default_group (error);
  return g ? gnn_process_group_get_world_size (g) : -1;
}

/**
 * gnn_distributed_destroy_process_group:
 * @error: return location for a #GError
 *
 * Releases the default process group, as `torch.distributed.destroy_process_group`. Open MPI
 * cannot start again in the same process afterwards.
 *
 * Returns: %TRUE on success, %FALSE with @error set when there is no default group
 *
 * Since: 0.1
 */
gboolean
gnn_distributed_destroy_process_group (GError **error)
{
  GnnProcessGroup *group;

  g_mutex_lock (&default_lock);
  group = g_steal_pointer (&default_group);
  g_mutex_unlock (&default_lock);
  if (group == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   "Default process group has not been initialized, please make sure to call "
                   "init_process_group.");
      return FALSE;
    }
  g_object_unref (group);
  return TRUE;
}
