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

#include <stdlib.h>
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
  GMutex worker_lock;
  GThreadPool *worker;   /* one thread: the collectives, in the order they were started */
} GnnProcessGroupPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GnnProcessGroup, gnn_process_group, G_TYPE_OBJECT)

#define GNN_DISTRIBUTED_MODULE_API_VERSION 1u

typedef GnnProcessGroup *(*GnnNewGroupFunc) (GError **error);

/* the worker's collectives finish before the backend's state goes (its finalize) */
static void
gnn_process_group_dispose (GObject *object)
{
  GnnProcessGroupPrivate *priv =
    gnn_process_group_get_instance_private (GNN_PROCESS_GROUP (object));

  if (priv->worker)
    g_thread_pool_free (g_steal_pointer (&priv->worker), FALSE, TRUE);
  G_OBJECT_CLASS (gnn_process_group_parent_class)->dispose (object);
}

static void
gnn_process_group_finalize (GObject *object)
{
  GnnProcessGroupPrivate *priv =
    gnn_process_group_get_instance_private (GNN_PROCESS_GROUP (object));

  g_free (priv->backend);
  g_mutex_clear (&priv->worker_lock);
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
/**
 * GnnProcessGroupClass::reduce_raw:
 * @self: a process group
 * @buffer: (type gpointer): @count elements of @dtype, contiguous in host memory
 * @count: the number of elements
 * @dtype: their dtype: float32, float64, int64 or int32
 * @op: the reduction, never %GNN_REDUCE_OP_AVG
 * @dst: the rank that receives the result
 * @error: return location for a #GError
 *
 * Replaces @buffer on rank @dst by the element-wise @op over the ranks.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
/**
 * GnnProcessGroupClass::reduce_scatter_raw:
 * @self: a process group
 * @send: (type gpointer): world size times @count elements of @dtype
 * @recv: (type gpointer): @count elements of @dtype
 * @count: the elements of one rank's block
 * @dtype: their dtype: float32, float64, int64 or int32
 * @op: the reduction, never %GNN_REDUCE_OP_AVG
 * @error: return location for a #GError
 *
 * Gives rank r, in @recv, the element-wise @op over the ranks of the r-th block of @send.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
/**
 * GnnProcessGroupClass::gather_raw:
 * @self: a process group
 * @send: (type gpointer): @nbytes of host memory
 * @nbytes: the size of @send
 * @recv: (type gpointer) (nullable): on rank @dst, world size times @nbytes of host memory
 * @dst: the rank that gathers
 * @error: return location for a #GError
 *
 * Gathers every rank's @send into @recv on rank @dst, in rank order.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
/**
 * GnnProcessGroupClass::scatter_raw:
 * @self: a process group
 * @send: (type gpointer) (nullable): on rank @src, world size times @nbytes of host memory
 * @nbytes: the size of one rank's block, and of @recv
 * @recv: (type gpointer): @nbytes of host memory
 * @src: the rank that scatters
 * @error: return location for a #GError
 *
 * Gives every rank r the r-th block of rank @src's @send, in @recv.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
/**
 * GnnProcessGroupClass::all_to_all_raw:
 * @self: a process group
 * @send: (type gpointer): the blocks for each rank, one after the other
 * @send_bytes: (array): the size of each rank's block of @send, world size of them
 * @recv: (type gpointer): room for the blocks from each rank, one after the other
 * @recv_bytes: (array): the size of each rank's block of @recv, world size of them
 * @error: return location for a #GError
 *
 * Sends the r-th block of @send to rank r and receives rank r's block for this rank into the
 * r-th block of @recv.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
/**
 * GnnProcessGroupClass::isend_raw:
 * @self: a process group
 * @buffer: (type gpointer): @nbytes of host memory, kept until the request completes
 * @nbytes: the size of @buffer
 * @dst: the receiving rank
 * @tag: the message's tag
 * @error: return location for a #GError
 *
 * Starts sending @buffer to rank @dst.
 *
 * Returns: (nullable): the request, or %NULL with @error set
 */
/**
 * GnnProcessGroupClass::irecv_raw:
 * @self: a process group
 * @buffer: (type gpointer): room for @nbytes, kept until the request completes
 * @nbytes: the size of @buffer
 * @src: the sending rank, or -1 for any rank
 * @tag: the message's tag
 * @error: return location for a #GError
 *
 * Starts receiving a message of at most @nbytes into @buffer; a longer one fails with
 * %GNN_ERROR_SHAPE when the request completes.
 *
 * Returns: (nullable): the request, or %NULL with @error set
 */
/**
 * GnnProcessGroupClass::request_wait:
 * @self: a process group
 * @request: a request of isend_raw or irecv_raw, freed here
 * @source: (out): the sender's rank, for a receive
 * @nbytes: (out): the bytes received, for a receive
 * @error: return location for a #GError
 *
 * Waits for @request to complete.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
/**
 * GnnProcessGroupClass::request_test:
 * @self: a process group
 * @request: a request of isend_raw or irecv_raw, freed here when it is complete
 * @done: (out): whether it is complete
 * @source: (out): the sender's rank, for a completed receive
 * @nbytes: (out): the bytes received, for a completed receive
 * @error: return location for a #GError
 *
 * Tells without waiting whether @request has completed.
 *
 * Returns: %TRUE on success (complete or not), %FALSE with @error set
 */
/**
 * GnnProcessGroupClass::request_cancel:
 * @self: a process group
 * @request: a request of isend_raw or irecv_raw that has not completed, freed here
 * @cancelled: (out): whether it was cancelled (%FALSE: it completed first)
 * @source: (out): the sender's rank, for a receive that completed first
 * @nbytes: (out): the bytes received, for a receive that completed first
 * @error: return location for a #GError
 *
 * Cancels @request, after a wait with a timeout that expired. Optional.
 *
 * Returns: %TRUE on success (cancelled or completed), %FALSE with @error set
 */
/**
 * GnnProcessGroupClass::new_group_raw:
 * @self: a process group
 * @ranks: (array length=n_ranks): the ranks of the new group, ascending and distinct
 * @n_ranks: the number of @ranks
 * @error: return location for a #GError
 *
 * Makes the group of @ranks; every rank of @self calls it.
 *
 * Returns: (transfer full) (nullable): the new group on its members, %NULL with @error unset
 *   elsewhere, or %NULL with @error set
 */
static void
gnn_process_group_class_init (GnnProcessGroupClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = gnn_process_group_dispose;
  G_OBJECT_CLASS (klass)->finalize = gnn_process_group_finalize;
}

static void
gnn_process_group_init (GnnProcessGroup *self)
{
  g_mutex_init (&((GnnProcessGroupPrivate *) gnn_process_group_get_instance_private (self))->worker_lock);
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

/* ---- jobs: one collective or point-to-point operation ------------------------------ */

typedef enum
{
  JOB_ALL_REDUCE,
  JOB_BROADCAST,
  JOB_ALL_GATHER,
  JOB_BARRIER,
  JOB_REDUCE,
  JOB_REDUCE_SCATTER,
  JOB_GATHER,
  JOB_SCATTER,
  JOB_ALL_TO_ALL,
  JOB_SEND,
  JOB_RECV,
} JobKind;

/* what every rank tells the others before a collective: a status (0, or 1 when its
 * arguments were invalid), the dtype and element count, two more values named by the job,
 * and for all_to_all the bytes it sends to and receives from each rank */
enum { AGREE_STATUS, AGREE_DTYPE, AGREE_NUMEL, AGREE_EXTRA0, AGREE_EXTRA1, AGREE_FIXED };

#define SEND_HEADER_BYTES (2 * sizeof (gint64))

typedef struct
{
  JobKind kind;
  const char *what;
  const char *extra_names[2];
  GError *local_error;      /* this rank's argument error: it still takes part in the check */
  gint64 *agree;            /* AGREE_FIXED + (all_to_all: 2 * size) values */
  guint n_agree;
  int rank, size, root, tag;
  GnnReduceOp op;
  GnnDtype dtype;
  gsize count;              /* elements per block of a reduction */
  guint8 *send, *recv;      /* host staging buffers, owned */
  gsize send_bytes, recv_bytes;
  gsize *send_counts, *recv_counts;   /* all_to_all: bytes per rank */
  GnnTensor *target;        /* written from recv (or send, in place) when the job finishes */
  GPtrArray *targets;       /* written from recv's blocks, in order */
  gboolean write_target;
  gpointer request;         /* a point-to-point request of the backend */
  int source;
} Job;

static void
job_free (Job *job)
{
  g_clear_error (&job->local_error);
  g_free (job->agree);
  g_free (job->send);
  g_free (job->recv);
  g_free (job->send_counts);
  g_free (job->recv_counts);
  g_clear_object (&job->target);
  g_clear_pointer (&job->targets, g_ptr_array_unref);
  g_free (job);
}

static Job *
job_new (GnnProcessGroup *self,
         JobKind          kind,
         const char      *what,
         guint            n_agree)
{
  GnnProcessGroupClass *klass = GNN_PROCESS_GROUP_GET_CLASS (self);
  Job *job = g_new0 (Job, 1);

  job->kind = kind;
  job->what = what;
  job->rank = klass->get_rank (self);
  job->size = klass->get_world_size (self);
  job->n_agree = n_agree;
  job->agree = g_new0 (gint64, n_agree);
  job->source = -1;
  return job;
}

/* records this rank's argument error, once: the job fails on every rank */
static gboolean
job_fail (Job        *job,
          GQuark      domain,
          int         code,
          const char *format,
          ...) G_GNUC_PRINTF (4, 5);

static gboolean
job_fail (Job        *job,
          GQuark      domain,
          int         code,
          const char *format,
          ...)
{
  va_list args;

  if (job->local_error == NULL)
    {
      g_autofree char *msg = NULL;
      va_start (args, format);
      msg = g_strdup_vprintf (format, args);
      va_end (args);
      job->local_error = g_error_new (domain, code, "%s: %s", job->what, msg);
    }
  job->agree[AGREE_STATUS] = 1;
  return FALSE;
}

static void
job_take_error (Job    *job,
                GError *error)
{
  if (job->local_error == NULL)
    {
      g_prefix_error (&error, "%s: ", job->what);
      job->local_error = error;
    }
  else
    g_error_free (error);
  job->agree[AGREE_STATUS] = 1;
}

static gboolean
job_check_rank (Job        *job,
                int         r,
                const char *which)
{
  if (r < 0 || r >= job->size)
    return job_fail (job, GNN_ERROR, GNN_ERROR_INDEX,
                     "%s rank %d is out of range for a group of world size %d: expected 0 to %d",
                     which, r, job->size, job->size - 1);
  return TRUE;
}

static gboolean
job_check_op (Job        *job,
              GnnReduceOp op,
              GnnDtype    dtype)
{
  if ((guint) op > GNN_REDUCE_OP_AVG)
    return job_fail (job, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "unknown reduce op %d: expected SUM, PRODUCT, MIN, MAX or AVG", op);
  if (dtype != GNN_DTYPE_FLOAT32 && dtype != GNN_DTYPE_FLOAT64 && dtype != GNN_DTYPE_INT64 &&
      dtype != GNN_DTYPE_INT32)
    return job_fail (job, GNN_ERROR, GNN_ERROR_DTYPE,
                     "expected a float32, float64, int64 or int32 tensor, got %s",
                     gnn_dtype_get_name (dtype));
  if (op == GNN_REDUCE_OP_AVG && !gnn_dtype_is_floating (dtype))
    return job_fail (job, GNN_ERROR, GNN_ERROR_DTYPE,
                     "ReduceOp.%s needs a floating-point tensor, got %s", op_name (op),
                     gnn_dtype_get_name (dtype));
  return TRUE;
}

/* the tensor's elements, contiguous in host memory, in a buffer the caller owns */
static guint8 *
host_copy (GnnTensor *tensor,
           gsize     *nbytes,
           GError   **error)
{
  GBytes *bytes = gnn_tensor_get_bytes (tensor, error);

  if (bytes == NULL)
    return NULL;
  return g_bytes_unref_to_data (bytes, nbytes);
}

/* stages @tensor into a host buffer; FALSE (recorded in @job) when it fails */
static guint8 *
job_stage (Job       *job,
           GnnTensor *tensor,
           gsize     *nbytes)
{
  GError *error = NULL;
  guint8 *data = host_copy (tensor, nbytes, &error);

  if (data == NULL)
    job_take_error (job, error);
  return data;
}

/* the tensors of @list, staged one after the other into one host buffer; each must have
 * @numel elements of @dtype (numel -1: any count, then @counts gets each one's bytes) */
static guint8 *
job_stage_list (Job       *job,
                GPtrArray *list,
                const char *name,
                gint64     numel,
                GnnDtype   dtype,
                gsize     *counts,
                gsize     *total)
{
  g_autoptr(GByteArray) all = g_byte_array_new ();

  *total = 0;
  if (list == NULL || list->len != (guint) job->size)
    {
      job_fail (job, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                "%s has %u tensors, expected the world size %d", name, list ? list->len : 0,
                job->size);
      return NULL;
    }
  for (guint i = 0; i < list->len; i++)
    {
      GnnTensor *t = list->pdata[i];
      g_autofree guint8 *data = NULL;
      gsize n = 0;

      if (!GNN_IS_TENSOR (t))
        {
          job_fail (job, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s[%u] is not a tensor", name, i);
          return NULL;
        }
      if (gnn_tensor_get_dtype (t) != dtype || (numel >= 0 && gnn_tensor_get_numel (t) != numel))
        {
          job_fail (job, GNN_ERROR, GNN_ERROR_SHAPE,
                    "%s[%u] is a %s tensor of %" G_GINT64_FORMAT " elements, expected %s%s%"
                    G_GINT64_FORMAT "%s", name, i, gnn_dtype_get_name (gnn_tensor_get_dtype (t)),
                    gnn_tensor_get_numel (t), gnn_dtype_get_name (dtype),
                    numel >= 0 ? " of " : "", numel >= 0 ? numel : 0,
                    numel >= 0 ? " elements" : "");
          return NULL;
        }
      data = job_stage (job, t, &n);
      if (data == NULL)
        return NULL;
      g_byte_array_append (all, data, n);
      if (counts)
        counts[i] = n;
      *total += n;
    }
  return g_byte_array_free (g_steal_pointer (&all), FALSE);
}

/* the output tensors of @list: world-size tensors of @numel elements of @dtype (-1: any) */
static gboolean
job_take_targets (Job       *job,
                  GPtrArray *list,
                  const char *name,
                  gint64     numel,
                  GnnDtype   dtype,
                  gsize     *counts)
{
  if (list == NULL || list->len != (guint) job->size)
    return job_fail (job, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s has %u tensors, expected the world size %d", name, list ? list->len : 0,
                     job->size);
  for (guint i = 0; i < list->len; i++)
    {
      GnnTensor *t = list->pdata[i];
      if (!GNN_IS_TENSOR (t))
        return job_fail (job, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s[%u] is not a tensor",
                         name, i);
      if (gnn_tensor_get_dtype (t) != dtype || (numel >= 0 && gnn_tensor_get_numel (t) != numel))
        return job_fail (job, GNN_ERROR, GNN_ERROR_SHAPE,
                         "%s[%u] is a %s tensor of %" G_GINT64_FORMAT " elements, expected %s%s%"
                         G_GINT64_FORMAT "%s", name, i,
                         gnn_dtype_get_name (gnn_tensor_get_dtype (t)), gnn_tensor_get_numel (t),
                         gnn_dtype_get_name (dtype), numel >= 0 ? " of " : "",
                         numel >= 0 ? numel : 0, numel >= 0 ? " elements" : "");
      if (counts)
        counts[i] = (gsize) gnn_tensor_get_numel (t) * gnn_dtype_get_size (dtype);
    }
  job->targets = g_ptr_array_ref (list);
  return TRUE;
}

/* every rank's record agrees, or a GError on every rank naming the first difference */
static gboolean
job_agree (GnnProcessGroup *self,
           Job             *job,
           GError         **error)
{
  GnnProcessGroupClass *klass = GNN_PROCESS_GROUP_GET_CLASS (self);
  guint n = job->n_agree;
  const gint64 *mine = job->agree;
  g_autofree gint64 *all = g_new0 (gint64, n * (gsize) job->size);

  if (!klass->all_gather_raw (self, mine, n * sizeof (gint64), all, error))
    {
      g_prefix_error (error, "%s: ", job->what);
      return FALSE;
    }
  if (job->local_error)
    {
      g_propagate_error (error, g_steal_pointer (&job->local_error));
      return FALSE;
    }
  for (int r = 0; r < job->size; r++)
    {
      const gint64 *theirs = all + n * (gsize) r;
      if (theirs[AGREE_STATUS] != 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: rank %d passed invalid arguments (its own error says which)",
                       job->what, r);
          return FALSE;
        }
    }
  for (int r = 0; r < job->size; r++)
    {
      const gint64 *theirs = all + n * (gsize) r;
      if (theirs[AGREE_DTYPE] != mine[AGREE_DTYPE] || theirs[AGREE_NUMEL] != mine[AGREE_NUMEL])
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s: rank %d has a %s tensor of %" G_GINT64_FORMAT " elements, rank %d a %s "
                       "tensor of %" G_GINT64_FORMAT ": every rank must pass the same size and dtype",
                       job->what, job->rank, gnn_dtype_get_name ((GnnDtype) mine[AGREE_DTYPE]),
                       mine[AGREE_NUMEL], r, gnn_dtype_get_name ((GnnDtype) theirs[AGREE_DTYPE]),
                       theirs[AGREE_NUMEL]);
          return FALSE;
        }
      for (int e = 0; e < 2; e++)
        if (theirs[AGREE_EXTRA0 + e] != mine[AGREE_EXTRA0 + e])
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "%s: rank %d passed %s %" G_GINT64_FORMAT ", rank %d passed %"
                         G_GINT64_FORMAT ": every rank must pass the same value", job->what,
                         job->rank, job->extra_names[e] ? job->extra_names[e] : "",
                         mine[AGREE_EXTRA0 + e], r, theirs[AGREE_EXTRA0 + e]);
            return FALSE;
          }
    }
  if (job->kind == JOB_ALL_TO_ALL)
    /* what rank s sends to rank r is what r expects from s */
    for (int s = 0; s < job->size; s++)
      for (int r = 0; r < job->size; r++)
        {
          gint64 sent = all[n * (gsize) s + AGREE_FIXED + r];
          gint64 expected = all[n * (gsize) r + AGREE_FIXED + job->size + s];
          if (sent != expected)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "%s: rank %d sends %" G_GINT64_FORMAT " bytes to rank %d, which "
                           "expects %" G_GINT64_FORMAT " from it: the split sizes must match",
                           job->what, s, sent, r, expected);
              return FALSE;
            }
        }
  return TRUE;
}

static void
divide_by (gpointer data,
           gsize    count,
           GnnDtype dtype,
           int      n)
{
  if (dtype == GNN_DTYPE_FLOAT32)
    for (gsize i = 0; i < count; i++)
      ((float *) data)[i] = (float) (((float *) data)[i] / (double) n);
  else if (dtype == GNN_DTYPE_FLOAT64)
    for (gsize i = 0; i < count; i++)
      ((double *) data)[i] /= n;
}

/* a collective's communication, on the group's worker thread */
static gboolean
job_run (GnnProcessGroup *self,
         Job             *job,
         GError         **error)
{
  GnnProcessGroupClass *klass = GNN_PROCESS_GROUP_GET_CLASS (self);
  GnnReduceOp raw_op = job->op == GNN_REDUCE_OP_AVG ? GNN_REDUCE_OP_SUM : job->op;
  gboolean ok = FALSE;

  if (!job_agree (self, job, error))
    return FALSE;
  switch (job->kind)
    {
    case JOB_ALL_REDUCE:
      ok = klass->all_reduce_raw (self, job->send, job->count, job->dtype, raw_op, error);
      if (ok && job->op == GNN_REDUCE_OP_AVG)
        divide_by (job->send, job->count, job->dtype, job->size);
      break;
    case JOB_REDUCE:
      ok = klass->reduce_raw (self, job->send, job->count, job->dtype, raw_op, job->root, error);
      if (ok && job->op == GNN_REDUCE_OP_AVG && job->rank == job->root)
        divide_by (job->send, job->count, job->dtype, job->size);
      break;
    case JOB_REDUCE_SCATTER:
      ok = klass->reduce_scatter_raw (self, job->send, job->recv, job->count, job->dtype, raw_op,
                                      error);
      if (ok && job->op == GNN_REDUCE_OP_AVG)
        divide_by (job->recv, job->count, job->dtype, job->size);
      break;
    case JOB_BROADCAST:
      ok = klass->broadcast_raw (self, job->send, job->send_bytes, job->root, error);
      break;
    case JOB_ALL_GATHER:
      ok = klass->all_gather_raw (self, job->send, job->send_bytes, job->recv, error);
      break;
    case JOB_GATHER:
      ok = klass->gather_raw (self, job->send, job->send_bytes, job->recv, job->root, error);
      break;
    case JOB_SCATTER:
      ok = klass->scatter_raw (self, job->send, job->recv_bytes, job->recv, job->root, error);
      break;
    case JOB_ALL_TO_ALL:
      ok = klass->all_to_all_raw (self, job->send, job->send_counts, job->recv, job->recv_counts,
                                  error);
      break;
    case JOB_BARRIER:
      ok = klass->barrier (self, error);
      break;
    case JOB_SEND:
    case JOB_RECV:
    default:
      g_assert_not_reached ();
    }
  if (!ok)
    g_prefix_error (error, "%s: ", job->what);
  return ok;
}

/* writes @nbytes at @data (the tensor's elements, contiguous) into @tensor, bypassing autograd */
static gboolean
write_back (GnnTensor    *tensor,
            gconstpointer data,
            gsize         nbytes,
            GError      **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_autoptr(GBytes) bytes = g_bytes_new (data, nbytes);
  guint ndim = gnn_tensor_get_ndim (tensor);
  const gint64 *shape = gnn_tensor_get_shape (tensor, NULL);
  g_autoptr(GnnTensor) src = gnn_tensor_new_from_bytes (bytes, gnn_tensor_get_dtype (tensor),
                                                        shape, ndim,
                                                        gnn_tensor_get_device (tensor), error);

  return src != NULL && gnn_tensor_copy_ (tensor, src, error);
}

/* the results into the job's tensors, on the thread that waits */
static gboolean
job_finish (Job     *job,
            GError **error)
{
  if (!job->write_target)
    return TRUE;
  if (job->target)
    {
      const guint8 *from = job->recv ? job->recv : job->send;
      gsize n = job->recv ? job->recv_bytes : job->send_bytes;
      if (job->kind == JOB_RECV)
        {
          from += SEND_HEADER_BYTES;
          n -= SEND_HEADER_BYTES;
        }
      return write_back (job->target, from, n, error);
    }
  if (job->targets)
    {
      gsize offset = 0;
      for (guint i = 0; i < job->targets->len; i++)
        {
          GnnTensor *t = job->targets->pdata[i];
          gsize n = (gsize) gnn_tensor_get_numel (t) * gnn_dtype_get_size (gnn_tensor_get_dtype (t));
          if (!write_back (t, job->recv + offset, n, error))
            return FALSE;
          offset += n;
        }
    }
  return TRUE;
}

/* ---- work handles ----------------------------------------------------------------- */

/**
 * GnnWork:
 *
 * The handle of a collective or point-to-point operation started by one of the `_async`
 * methods of [class@Gnn.ProcessGroup], as the work object torch.distributed's functions return
 * with `async_op=True`. The operation runs on its group's worker thread (collectives, in the
 * order they were started) or in the backend (sends and receives);
 * [method@Gnn.Work.wait] waits for it and writes the results into the output tensors, which
 * must not be used before. A handle dropped before it completes waits for it.
 *
 * Since: 0.1
 */
struct _GnnWork
{
  GObject parent_instance;
  GMutex lock;
  GCond cond;
  gboolean done, finished, ok;
  GError *error;
  Job *job;
  GnnProcessGroup *group;   /* point-to-point works only: their requests need it */
};

G_DEFINE_FINAL_TYPE (GnnWork, gnn_work, G_TYPE_OBJECT)

static void
work_complete_request (GnnWork *self,
                       gboolean ok,
                       int      source,
                       gsize    nbytes,
                       GError  *error);

static void
gnn_work_finalize (GObject *object)
{
  GnnWork *self = GNN_WORK (object);

  if (self->job && self->job->request && self->group)
    {
      /* a request cannot outlive its buffers: complete it first */
      GError *error = NULL;
      int source = -1;
      gsize nbytes = 0;
      gboolean ok = GNN_PROCESS_GROUP_GET_CLASS (self->group)->request_wait (
        self->group, self->job->request, &source, &nbytes, &error);
      self->job->request = NULL;
      work_complete_request (self, ok, source, nbytes, error);
    }
  g_clear_object (&self->group);
  g_clear_pointer (&self->job, job_free);
  g_clear_error (&self->error);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  G_OBJECT_CLASS (gnn_work_parent_class)->finalize (object);
}

static void
gnn_work_class_init (GnnWorkClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_work_finalize;
}

static void
gnn_work_init (GnnWork *self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
}

static GnnWork *
work_new (Job *job)
{
  GnnWork *self = g_object_new (GNN_TYPE_WORK, NULL);
  self->job = job;
  return self;
}

static void
work_set_done (GnnWork *self,
               gboolean ok,
               GError  *error)
{
  g_mutex_lock (&self->lock);
  self->ok = ok;
  if (!ok)
    self->error = error;
  else if (error)
    g_error_free (error);
  self->done = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

/* a received message: the header (element count, dtype) must be this rank's tensor's */
static void
work_complete_request (GnnWork *self,
                       gboolean ok,
                       int      source,
                       gsize    nbytes,
                       GError  *error)
{
  Job *job = self->job;

  if (ok && job->kind == JOB_RECV)
    {
      gint64 header[2] = { -1, -1 };
      job->source = source;
      if (nbytes >= SEND_HEADER_BYTES)
        memcpy (header, job->recv, sizeof header);
      if (nbytes != job->recv_bytes || header[0] != job->agree[AGREE_NUMEL] ||
          header[1] != job->agree[AGREE_DTYPE])
        {
          ok = FALSE;
          error = g_error_new (GNN_ERROR, GNN_ERROR_SHAPE,
                               "recv: rank %d sent a %s tensor of %" G_GINT64_FORMAT " elements, "
                               "rank %d expects a %s tensor of %" G_GINT64_FORMAT, source,
                               header[1] >= 0 ? gnn_dtype_get_name ((GnnDtype) header[1]) : "?",
                               header[0], job->rank,
                               gnn_dtype_get_name ((GnnDtype) job->agree[AGREE_DTYPE]),
                               job->agree[AGREE_NUMEL]);
        }
    }
  else if (!ok && job->kind == JOB_RECV && g_error_matches (error, GNN_ERROR, GNN_ERROR_SHAPE))
    {
      g_clear_error (&error);
      error = g_error_new (GNN_ERROR, GNN_ERROR_SHAPE,
                           "recv: rank %d sent a larger tensor than the %s tensor of %"
                           G_GINT64_FORMAT " elements rank %d expects", source,
                           gnn_dtype_get_name ((GnnDtype) job->agree[AGREE_DTYPE]),
                           job->agree[AGREE_NUMEL], job->rank);
    }
  else if (!ok)
    g_prefix_error (&error, "%s: ", job->what);
  work_set_done (self, ok, error);
}

/* a work that failed before it started (a point-to-point argument error) */
static GnnWork *
work_new_failed (Job *job)
{
  GnnWork *self = work_new (job);
  work_set_done (self, FALSE, g_steal_pointer (&job->local_error));
  return self;
}

/**
 * gnn_work_wait:
 * @self: a work handle
 * @error: return location for a #GError
 *
 * Waits for the operation to complete and writes its results into its output tensors, as
 * `Work.wait ()`. Waiting again gives the same outcome. It is
 * [method@Gnn.Work.wait_timeout] with no timeout.
 *
 * Returns: %TRUE when the operation succeeded, %FALSE with @error set (on every rank of a
 *   collective whose ranks disagree) otherwise
 *
 * Since: 0.1
 */
gboolean
gnn_work_wait (GnnWork *self,
               GError **error)
{
  return gnn_work_wait_timeout (self, -1, error);
}

static void
set_timed_out (GnnWork *self,
               gint64   timeout_ms,
               GError **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_BACKEND,
               "%s: timed out waiting %" G_GINT64_FORMAT " ms for the operation to complete",
               self->job ? self->job->what : "work", timeout_ms);
}

/* a send's or receive's request, polled until @deadline (monotonic time); on expiry it is
 * cancelled where the backend can, and the work fails with the timeout */
static gboolean
work_poll_request (GnnWork *self,
                   gint64   deadline,
                   gint64   timeout_ms,
                   GError **error)
{
  GnnProcessGroupClass *klass = GNN_PROCESS_GROUP_GET_CLASS (self->group);
  gulong pause = 20;

  for (;;)
    {
      GError *err = NULL;
      gboolean done = FALSE;
      int source = -1;
      gsize nbytes = 0;
      gboolean ok = klass->request_test (self->group, self->job->request, &done, &source,
                                         &nbytes, &err);
      if (!ok || done)
        {
          self->job->request = NULL;
          work_complete_request (self, ok, source, nbytes, err);
          return TRUE;
        }
      if (g_get_monotonic_time () >= deadline)
        break;
      g_usleep (pause);
      pause = MIN (pause * 2, 1000);
    }
  if (klass->request_cancel == NULL)
    {
      set_timed_out (self, timeout_ms, error);
      return FALSE;
    }
  {
    GError *err = NULL;
    gboolean cancelled = FALSE;
    int source = -1;
    gsize nbytes = 0;
    gboolean ok = klass->request_cancel (self->group, self->job->request, &cancelled, &source,
                                         &nbytes, &err);
    self->job->request = NULL;
    if (ok && cancelled)
      {
        set_timed_out (self, timeout_ms, &err);
        work_set_done (self, FALSE, err);
      }
    else
      work_complete_request (self, ok, source, nbytes, err);
  }
  return TRUE;
}

/**
 * gnn_work_wait_timeout:
 * @self: a work handle
 * @timeout_ms: the longest wait, in milliseconds; negative: no limit
 * @error: return location for a #GError
 *
 * Waits for the operation as [method@Gnn.Work.wait], at most @timeout_ms milliseconds, as
 * `Work.wait (timeout)`. On expiry it fails with %GNN_ERROR_BACKEND, a message that names the
 * operation and the timeout. A send or receive that timed out is cancelled (where the
 * backend can: the MPI one can), and the work has failed with that error; a collective keeps
 * running on its group's worker thread (MPI cannot cancel one), so a later wait may still
 * see it complete.
 *
 * Returns: %TRUE when the operation succeeded in time, %FALSE with @error set otherwise
 *
 * Since: 0.1
 */
gboolean
gnn_work_wait_timeout (GnnWork *self,
                       gint64   timeout_ms,
                       GError **error)
{
  gint64 deadline;

  g_return_val_if_fail (GNN_IS_WORK (self), FALSE);

  deadline = timeout_ms < 0 ? G_MAXINT64
                            : g_get_monotonic_time () + timeout_ms * G_TIME_SPAN_MILLISECOND;
  if (self->job && self->job->request && self->group)
    {
      if (timeout_ms < 0)
        {
          GError *err = NULL;
          int source = -1;
          gsize nbytes = 0;
          gboolean ok = GNN_PROCESS_GROUP_GET_CLASS (self->group)->request_wait (
            self->group, self->job->request, &source, &nbytes, &err);
          self->job->request = NULL;
          work_complete_request (self, ok, source, nbytes, err);
        }
      else if (!work_poll_request (self, deadline, timeout_ms, error))
        return FALSE;
    }
  g_mutex_lock (&self->lock);
  while (!self->done)
    {
      if (timeout_ms < 0)
        g_cond_wait (&self->cond, &self->lock);
      else if (!g_cond_wait_until (&self->cond, &self->lock, deadline) && !self->done)
        {
          g_mutex_unlock (&self->lock);
          set_timed_out (self, timeout_ms, error);
          return FALSE;
        }
    }
  g_mutex_unlock (&self->lock);
  if (self->ok && !self->finished)
    {
      self->finished = TRUE;
      if (!job_finish (self->job, &self->error))
        self->ok = FALSE;
    }
  if (!self->ok)
    {
      if (error)
        *error = g_error_copy (self->error);
      return FALSE;
    }
  return TRUE;
}

/**
 * gnn_work_is_completed:
 * @self: a work handle
 *
 * Tells, without waiting, whether the operation has completed, as `Work.is_completed ()`.
 * The results reach the output tensors in [method@Gnn.Work.wait].
 *
 * Returns: whether the operation has completed (successfully or not)
 *
 * Since: 0.1
 */
gboolean
gnn_work_is_completed (GnnWork *self)
{
  gboolean done;

  g_return_val_if_fail (GNN_IS_WORK (self), FALSE);
  if (self->job && self->job->request && self->group)
    {
      GError *err = NULL;
      gboolean req_done = FALSE;
      int source = -1;
      gsize nbytes = 0;
      gboolean ok = GNN_PROCESS_GROUP_GET_CLASS (self->group)->request_test (
        self->group, self->job->request, &req_done, &source, &nbytes, &err);
      if (!ok || req_done)
        {
          self->job->request = NULL;
          work_complete_request (self, ok, source, nbytes, err);
        }
    }
  g_mutex_lock (&self->lock);
  done = self->done;
  g_mutex_unlock (&self->lock);
  return done;
}

/**
 * gnn_work_is_success:
 * @self: a work handle
 *
 * Tells whether the operation has completed without an error, as `Work.is_success ()`.
 *
 * Returns: %TRUE when it completed successfully, %FALSE while it runs or when it failed
 *
 * Since: 0.1
 */
gboolean
gnn_work_is_success (GnnWork *self)
{
  gboolean ok;

  g_return_val_if_fail (GNN_IS_WORK (self), FALSE);
  if (!gnn_work_is_completed (self))
    return FALSE;
  g_mutex_lock (&self->lock);
  ok = self->ok;
  g_mutex_unlock (&self->lock);
  return ok;
}

/**
 * gnn_work_get_source_rank:
 * @self: a work handle
 *
 * Gives the rank a receive got its tensor from, as `Work._source_rank ()`: useful with a
 * source of -1 (any rank). Valid after [method@Gnn.Work.wait].
 *
 * Returns: the sender's rank, or -1 for another operation or before it completes
 *
 * Since: 0.1
 */
int
gnn_work_get_source_rank (GnnWork *self)
{
  g_return_val_if_fail (GNN_IS_WORK (self), -1);
  return self->job ? self->job->source : -1;
}

/* ---- the worker ------------------------------------------------------------------- */

static void
worker_run (gpointer data,
            gpointer user_data)
{
  GnnWork *work = data;
  GError *error = NULL;
  gboolean ok = job_run (GNN_PROCESS_GROUP (user_data), work->job, &error);

  work_set_done (work, ok, error);
  g_object_unref (work);
}

/* runs @job's collective on the group's worker thread, after those started before it */
static GnnWork *
submit (GnnProcessGroup *self,
        Job             *job)
{
  GnnProcessGroupPrivate *priv = gnn_process_group_get_instance_private (self);
  GnnWork *work = work_new (job);

  g_mutex_lock (&priv->worker_lock);
  if (priv->worker == NULL)
    priv->worker = g_thread_pool_new (worker_run, self, 1, TRUE, NULL);
  g_mutex_unlock (&priv->worker_lock);
  g_thread_pool_push (priv->worker, g_object_ref (work), NULL);
  return work;
}

static gboolean
wait_and_free (GnnWork *work,
               GError **error)
{
  gboolean ok = gnn_work_wait (work, error);
  g_object_unref (work);
  return ok;
}

/* ---- the collectives -------------------------------------------------------------- */

/* an in-place job on @tensor: staged, then written back where @write says */
static Job *
job_in_place (GnnProcessGroup *self,
              JobKind          kind,
              const char      *what,
              GnnTensor       *tensor)
{
  Job *job = job_new (self, kind, what, AGREE_FIXED);

  job->dtype = gnn_tensor_get_dtype (tensor);
  job->agree[AGREE_DTYPE] = job->dtype;
  job->agree[AGREE_NUMEL] = gnn_tensor_get_numel (tensor);
  job->target = g_object_ref (tensor);
  job->send = job_stage (job, tensor, &job->send_bytes);
  job->count = job->send_bytes / gnn_dtype_get_size (job->dtype);
  return job;
}

/**
 * gnn_process_group_all_reduce_async:
 * @self: a process group
 * @tensor: a float32, float64, int64 or int32 tensor of the same size on every rank
 * @op: how to combine the ranks' elements
 *
 * Starts [method@Gnn.ProcessGroup.all_reduce], as `torch.distributed.all_reduce (tensor, op,
 * async_op=True)`: @tensor holds the result after [method@Gnn.Work.wait].
 *
 * Returns: (transfer full): the work handle; its wait fails on every rank when the ranks'
 *   sizes, dtypes or ops differ, or one rank's arguments are invalid
 *
 * Since: 0.1
 */
GnnWork *
gnn_process_group_all_reduce_async (GnnProcessGroup *self,
                                    GnnTensor       *tensor,
                                    GnnReduceOp      op)
{
  Job *job;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (tensor), NULL);
  job = job_in_place (self, JOB_ALL_REDUCE, "all_reduce", tensor);
  job->op = op;
  job->agree[AGREE_EXTRA0] = op;
  job->extra_names[0] = "op";
  job_check_op (job, op, job->dtype);
  job->write_target = TRUE;
  return submit (self, job);
}

/**
 * gnn_process_group_all_reduce:
 * @self: a process group
 * @tensor: a float32, float64, int64 or int32 tensor of the same size on every rank
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
  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  return wait_and_free (gnn_process_group_all_reduce_async (self, tensor, op), error);
}

/**
 * gnn_process_group_broadcast_async:
 * @self: a process group
 * @tensor: a tensor of the same size and dtype on every rank
 * @src: the rank whose @tensor every rank receives
 *
 * Starts [method@Gnn.ProcessGroup.broadcast], as `torch.distributed.broadcast (tensor, src,
 * async_op=True)`.
 *
 * Returns: (transfer full): the work handle; its wait fails on every rank when @src is out of
 *   range or the ranks' sizes, dtypes or sources differ
 *
 * Since: 0.1
 */
GnnWork *
gnn_process_group_broadcast_async (GnnProcessGroup *self,
                                   GnnTensor       *tensor,
                                   int              src)
{
  Job *job;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (tensor), NULL);
  job = job_in_place (self, JOB_BROADCAST, "broadcast", tensor);
  job->root = src;
  job->agree[AGREE_EXTRA0] = src;
  job->extra_names[0] = "src";
  job_check_rank (job, src, "source");
  job->write_target = job->rank != src;
  return submit (self, job);
}

/**
 * gnn_process_group_broadcast:
 * @self: a process group
 * @tensor: a tensor of the same size and dtype on every rank
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
  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (tensor), FALSE);
  return wait_and_free (gnn_process_group_broadcast_async (self, tensor, src), error);
}

/**
 * gnn_process_group_all_gather_async:
 * @self: a process group
 * @tensor_list: (element-type Gnn.Tensor): world-size tensors of @tensor's size and dtype,
 *   which receive every rank's @tensor, in rank order
 * @tensor: a tensor of the same size and dtype on every rank
 *
 * Starts gathering every rank's @tensor into @tensor_list on every rank, as
 * `torch.distributed.all_gather (tensor_list, tensor, async_op=True)`.
 *
 * Returns: (transfer full): the work handle; its wait fails on every rank when the ranks'
 *   sizes or dtypes differ or a rank's @tensor_list does not fit
 *
 * Since: 0.1
 */
GnnWork *
gnn_process_group_all_gather_async (GnnProcessGroup *self,
                                    GPtrArray       *tensor_list,
                                    GnnTensor       *tensor)
{
  Job *job;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (tensor), NULL);
  job = job_in_place (self, JOB_ALL_GATHER, "all_gather", tensor);
  g_clear_object (&job->target);
  job_take_targets (job, tensor_list, "tensor_list", gnn_tensor_get_numel (tensor), job->dtype,
                    NULL);
  job->recv_bytes = job->send_bytes * (gsize) job->size;
  job->recv = g_malloc (MAX (job->recv_bytes, 1));
  job->write_target = TRUE;
  return submit (self, job);
}

/**
 * gnn_process_group_all_gather:
 * @self: a process group
 * @tensor: a tensor of the same size and dtype on every rank
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
  g_autoptr(GPtrArray) out = NULL;
  int size;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (tensor), NULL);
  size = gnn_process_group_get_world_size (self);
  out = g_ptr_array_new_with_free_func (g_object_unref);
  for (int r = 0; r < size; r++)
    {
      GnnTensor *t = gnn_tensor_new_empty (gnn_tensor_get_shape (tensor, NULL),
                                           gnn_tensor_get_ndim (tensor),
                                           gnn_tensor_get_dtype (tensor),
                                           gnn_tensor_get_device (tensor), NULL);
      g_ptr_array_add (out, t);
    }
  if (!wait_and_free (gnn_process_group_all_gather_async (self, out, tensor), error))
    return NULL;
  return g_steal_pointer (&out);
}

/**
 * gnn_process_group_barrier_async:
 * @self: a process group
 *
 * Starts a barrier, as `torch.distributed.barrier (async_op=True)`: its work completes when
 * every rank of the group has entered it.
 *
 * Returns: (transfer full): the work handle
 *
 * Since: 0.1
 */
GnnWork *
gnn_process_group_barrier_async (GnnProcessGroup *self)
{
  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  return submit (self, job_new (self, JOB_BARRIER, "barrier", AGREE_FIXED));
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
  return wait_and_free (gnn_process_group_barrier_async (self), error);
}

/**
 * gnn_process_group_reduce_async:
 * @self: a process group
 * @tensor: a float32, float64, int64 or int32 tensor of the same size on every rank
 * @dst: the rank that receives the result
 * @op: how to combine the ranks' elements
 *
 * Starts combining every rank's @tensor element by element with @op into @tensor on rank @dst
 * (the other ranks' tensors are left as they are), as `torch.distributed.reduce (tensor, dst,
 * op, async_op=True)`.
 *
 * Returns: (transfer full): the work handle; its wait fails on every rank when @dst is out of
 *   range or the ranks' sizes, dtypes, destinations or ops differ
 *
 * Since: 0.1
 */
GnnWork *
gnn_process_group_reduce_async (GnnProcessGroup *self,
                                GnnTensor       *tensor,
                                int              dst,
                                GnnReduceOp      op)
{
  Job *job;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (tensor), NULL);
  job = job_in_place (self, JOB_REDUCE, "reduce", tensor);
  job->op = op;
  job->root = dst;
  job->agree[AGREE_EXTRA0] = op;
  job->agree[AGREE_EXTRA1] = dst;
  job->extra_names[0] = "op";
  job->extra_names[1] = "dst";
  job_check_rank (job, dst, "destination");
  job_check_op (job, op, job->dtype);
  job->write_target = job->rank == dst;
  return submit (self, job);
}

/**
 * gnn_process_group_reduce_scatter_async:
 * @self: a process group
 * @output: the tensor that receives this rank's block of the result
 * @input_list: (element-type Gnn.Tensor): world-size tensors of @output's size and dtype
 * @op: how to combine the ranks' elements
 *
 * Starts combining, for every rank r, every rank's @input_list[r] with @op into rank r's
 * @output, as `torch.distributed.reduce_scatter (output, input_list, op, async_op=True)`.
 *
 * Returns: (transfer full): the work handle; its wait fails on every rank when the ranks'
 *   sizes, dtypes or ops differ or a rank's @input_list does not fit
 *
 * Since: 0.1
 */
GnnWork *
gnn_process_group_reduce_scatter_async (GnnProcessGroup *self,
                                        GnnTensor       *output,
                                        GPtrArray       *input_list,
                                        GnnReduceOp      op)
{
  Job *job;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (output), NULL);
  job = job_new (self, JOB_REDUCE_SCATTER, "reduce_scatter", AGREE_FIXED);
  job->dtype = gnn_tensor_get_dtype (output);
  job->count = (gsize) gnn_tensor_get_numel (output);
  job->agree[AGREE_DTYPE] = job->dtype;
  job->agree[AGREE_NUMEL] = (gint64) job->count;
  job->agree[AGREE_EXTRA0] = op;
  job->extra_names[0] = "op";
  job->op = op;
  job->target = g_object_ref (output);
  job_check_op (job, op, job->dtype);
  job->send = job_stage_list (job, input_list, "input_list", (gint64) job->count, job->dtype,
                              NULL, &job->send_bytes);
  job->recv_bytes = job->count * gnn_dtype_get_size (job->dtype);
  job->recv = g_malloc (MAX (job->recv_bytes, 1));
  job->write_target = TRUE;
  return submit (self, job);
}

/**
 * gnn_process_group_gather_async:
 * @self: a process group
 * @tensor: a tensor of the same size and dtype on every rank
 * @gather_list: (nullable) (element-type Gnn.Tensor): on rank @dst, world-size tensors of
 *   @tensor's size and dtype that receive every rank's @tensor in rank order; %NULL (or
 *   empty) on the other ranks
 * @dst: the rank that gathers
 *
 * Starts gathering every rank's @tensor into @gather_list on rank @dst, as
 * `torch.distributed.gather (tensor, gather_list, dst, async_op=True)`.
 *
 * Returns: (transfer full): the work handle; its wait fails on every rank when @dst is out of
 *   range, the ranks' sizes, dtypes or destinations differ, or a rank's @gather_list is wrong
 *
 * Since: 0.1
 */
GnnWork *
gnn_process_group_gather_async (GnnProcessGroup *self,
                                GnnTensor       *tensor,
                                GPtrArray       *gather_list,
                                int              dst)
{
  Job *job;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (tensor), NULL);
  job = job_in_place (self, JOB_GATHER, "gather", tensor);
  g_clear_object (&job->target);
  job->root = dst;
  job->agree[AGREE_EXTRA0] = dst;
  job->extra_names[0] = "dst";
  if (job_check_rank (job, dst, "destination"))
    {
      if (job->rank == dst)
        {
          job_take_targets (job, gather_list, "gather_list", gnn_tensor_get_numel (tensor),
                            job->dtype, NULL);
          job->recv_bytes = job->send_bytes * (gsize) job->size;
          job->recv = g_malloc (MAX (job->recv_bytes, 1));
          job->write_target = TRUE;
        }
      else if (gather_list != NULL && gather_list->len > 0)
        job_fail (job, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                  "Argument ``gather_list`` must NOT be specified on non-destination ranks "
                  "(rank %d; the destination is %d)", job->rank, dst);
    }
  return submit (self, job);
}

/**
 * gnn_process_group_scatter_async:
 * @self: a process group
 * @tensor: the tensor that receives this rank's share, of the same size and dtype on every rank
 * @scatter_list: (nullable) (element-type Gnn.Tensor): on rank @src, world-size tensors of
 *   @tensor's size and dtype, the r-th for rank r; %NULL (or empty) on the other ranks
 * @src: the rank that scatters
 *
 * Starts giving every rank r the r-th tensor of rank @src's @scatter_list, in @tensor, as
 * `torch.distributed.scatter (tensor, scatter_list, src, async_op=True)`.
 *
 * Returns: (transfer full): the work handle; its wait fails on every rank when @src is out of
 *   range, the ranks' sizes, dtypes or sources differ, or a rank's @scatter_list is wrong
 *
 * Since: 0.1
 */
GnnWork *
gnn_process_group_scatter_async (GnnProcessGroup *self,
                                 GnnTensor       *tensor,
                                 GPtrArray       *scatter_list,
                                 int              src)
{
  Job *job;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (tensor), NULL);
  job = job_new (self, JOB_SCATTER, "scatter", AGREE_FIXED);
  job->dtype = gnn_tensor_get_dtype (tensor);
  job->agree[AGREE_DTYPE] = job->dtype;
  job->agree[AGREE_NUMEL] = gnn_tensor_get_numel (tensor);
  job->root = src;
  job->agree[AGREE_EXTRA0] = src;
  job->extra_names[0] = "src";
  job->target = g_object_ref (tensor);
  job->recv_bytes = (gsize) gnn_tensor_get_numel (tensor) * gnn_dtype_get_size (job->dtype);
  job->recv = g_malloc (MAX (job->recv_bytes, 1));
  if (job_check_rank (job, src, "source"))
    {
      if (job->rank == src)
        job->send = job_stage_list (job, scatter_list, "scatter_list",
                                    gnn_tensor_get_numel (tensor), job->dtype, NULL,
                                    &job->send_bytes);
      else if (scatter_list != NULL && scatter_list->len > 0)
        job_fail (job, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                  "Argument ``scatter_list`` must NOT be specified on non-source ranks "
                  "(rank %d; the source is %d)", job->rank, src);
    }
  job->write_target = TRUE;
  return submit (self, job);
}

/**
 * gnn_process_group_all_to_all_async:
 * @self: a process group
 * @output_list: (element-type Gnn.Tensor): world-size tensors; the r-th receives rank r's
 *   @input_list tensor for this rank
 * @input_list: (element-type Gnn.Tensor): world-size tensors; the r-th goes to rank r
 *
 * Starts the exchange of `torch.distributed.all_to_all (output_list, input_list,
 * async_op=True)`. The tensors may have different sizes (the split sizes of
 * `all_to_all_single`), and every tensor must have one dtype, the same on every rank.
 *
 * Returns: (transfer full): the work handle; its wait fails on every rank when a rank sends
 *   another size than its receiver expects, the dtypes differ, or a list does not fit
 *
 * Since: 0.1
 */
GnnWork *
gnn_process_group_all_to_all_async (GnnProcessGroup *self,
                                    GPtrArray       *output_list,
                                    GPtrArray       *input_list)
{
  Job *job;
  int size;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  size = gnn_process_group_get_world_size (self);
  job = job_new (self, JOB_ALL_TO_ALL, "all_to_all", AGREE_FIXED + 2 * (guint) size);
  job->send_counts = g_new0 (gsize, size);
  job->recv_counts = g_new0 (gsize, size);
  if (input_list && input_list->len > 0 && GNN_IS_TENSOR (input_list->pdata[0]))
    job->dtype = gnn_tensor_get_dtype (input_list->pdata[0]);
  job->agree[AGREE_DTYPE] = job->dtype;
  if (job_take_targets (job, output_list, "output_list", -1, job->dtype, job->recv_counts))
    job->send = job_stage_list (job, input_list, "input_list", -1, job->dtype, job->send_counts,
                                &job->send_bytes);
  for (int r = 0; r < size; r++)
    {
      job->agree[AGREE_FIXED + r] = (gint64) job->send_counts[r];
      job->agree[AGREE_FIXED + size + r] = (gint64) job->recv_counts[r];
      job->recv_bytes += job->recv_counts[r];
    }
  job->recv = g_malloc (MAX (job->recv_bytes, 1));
  job->write_target = TRUE;
  return submit (self, job);
}

/* a point-to-point job: the message is a header (element count, dtype) and the elements */
static Job *
job_p2p (GnnProcessGroup *self,
         JobKind          kind,
         GnnTensor       *tensor,
         int              peer,
         int              tag)
{
  Job *job = job_new (self, kind, kind == JOB_SEND ? "send" : "recv", AGREE_FIXED);

  job->dtype = gnn_tensor_get_dtype (tensor);
  job->agree[AGREE_DTYPE] = job->dtype;
  job->agree[AGREE_NUMEL] = gnn_tensor_get_numel (tensor);
  job->tag = tag;
  job->root = peer;
  if (kind == JOB_SEND)
    job_check_rank (job, peer, "destination");
  else if (peer != -1)
    job_check_rank (job, peer, "source");
  if (peer == job->rank && job->local_error == NULL)
    job_fail (job, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
              "rank %d cannot %s itself", peer, kind == JOB_SEND ? "send to" : "receive from");
  if (tag < 0 && job->local_error == NULL)
    job_fail (job, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "tag %d is negative", tag);
  return job;
}

/**
 * gnn_process_group_send_async:
 * @self: a process group
 * @tensor: the tensor to send
 * @dst: the receiving rank
 * @tag: the message's tag, 0 or more, which the receiver's must match
 *
 * Starts sending @tensor to rank @dst, as `torch.distributed.isend (tensor, dst, tag=tag)`;
 * @tensor's elements are copied when the send starts.
 *
 * Returns: (transfer full): the work handle; its wait fails when @dst is out of range or the
 *   backend fails
 *
 * Since: 0.1
 */
GnnWork *
gnn_process_group_send_async (GnnProcessGroup *self,
                              GnnTensor       *tensor,
                              int              dst,
                              int              tag)
{
  Job *job;
  GError *error = NULL;
  g_autofree guint8 *data = NULL;
  gsize n = 0;
  GnnWork *work;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (tensor), NULL);
  job = job_p2p (self, JOB_SEND, tensor, dst, tag);
  if (job->local_error == NULL)
    data = job_stage (job, tensor, &n);
  if (job->local_error)
    return work_new_failed (job);
  job->send_bytes = SEND_HEADER_BYTES + n;
  job->send = g_malloc (job->send_bytes);
  memcpy (job->send, &job->agree[AGREE_NUMEL], sizeof (gint64));
  memcpy (job->send + sizeof (gint64), &job->agree[AGREE_DTYPE], sizeof (gint64));
  memcpy (job->send + SEND_HEADER_BYTES, data, n);
  job->request = GNN_PROCESS_GROUP_GET_CLASS (self)->isend_raw (self, job->send, job->send_bytes,
                                                                dst, tag, &error);
  work = work_new (job);
  if (job->request == NULL)
    work_complete_request (work, FALSE, -1, 0, error);
  else
    work->group = g_object_ref (self);
  return work;
}

/**
 * gnn_process_group_recv_async:
 * @self: a process group
 * @tensor: the tensor that receives the message: of the sent tensor's size and dtype
 * @src: the sending rank, or -1 for any rank
 * @tag: the message's tag, 0 or more
 *
 * Starts receiving a tensor sent with [method@Gnn.ProcessGroup.send_async] into @tensor, as
 * `torch.distributed.irecv (tensor, src, tag=tag)`. [method@Gnn.Work.get_source_rank] gives
 * the sender.
 *
 * Returns: (transfer full): the work handle; its wait fails when @src is out of range or the
 *   message's size or dtype is not @tensor's (%GNN_ERROR_SHAPE, naming both)
 *
 * Since: 0.1
 */
GnnWork *
gnn_process_group_recv_async (GnnProcessGroup *self,
                              GnnTensor       *tensor,
                              int              src,
                              int              tag)
{
  Job *job;
  GError *error = NULL;
  GnnWork *work;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (tensor), NULL);
  job = job_p2p (self, JOB_RECV, tensor, src, tag);
  if (job->local_error)
    return work_new_failed (job);
  job->target = g_object_ref (tensor);
  job->write_target = TRUE;
  job->recv_bytes = SEND_HEADER_BYTES +
    (gsize) gnn_tensor_get_numel (tensor) * gnn_dtype_get_size (job->dtype);
  job->recv = g_malloc0 (job->recv_bytes);
  job->request = GNN_PROCESS_GROUP_GET_CLASS (self)->irecv_raw (self, job->recv, job->recv_bytes,
                                                                src, tag, &error);
  work = work_new (job);
  if (job->request == NULL)
    work_complete_request (work, FALSE, -1, 0, error);
  else
    work->group = g_object_ref (self);
  return work;
}

static gint
compare_ints (gconstpointer a,
              gconstpointer b)
{
  return *(const int *) a - *(const int *) b;
}

/**
 * gnn_process_group_new_group:
 * @self: a process group
 * @ranks: (array length=n_ranks) (nullable): the ranks of @self that make the new group, in any
 *   order; %NULL: every rank
 * @n_ranks: the number of @ranks
 * @error: return location for a #GError
 *
 * Makes a group of some ranks of @self, as `torch.distributed.new_group (ranks)`: every rank
 * of @self calls it with the same @ranks, members or not. A member's rank in the new group is
 * its place among the sorted @ranks.
 *
 * Returns: (transfer full) (nullable): the new group on its members; %NULL with @error unset
 *   on the other ranks (torch's non-member); %NULL with @error set on every rank when a rank
 *   is out of range or repeated, or the ranks passed differ
 *
 * Since: 0.1
 */
GnnProcessGroup *
gnn_process_group_new_group (GnnProcessGroup *self,
                             const int       *ranks,
                             guint            n_ranks,
                             GError         **error)
{
  GnnProcessGroupClass *klass;
  g_autofree int *sorted = NULL;
  g_autoptr(GnnWork) work = NULL;
  Job *job;
  guint64 hash = 1469598103934665603ull;
  GnnProcessGroup *group;
  int size;

  g_return_val_if_fail (GNN_IS_PROCESS_GROUP (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  klass = GNN_PROCESS_GROUP_GET_CLASS (self);
  size = klass->get_world_size (self);
  if (ranks == NULL)
    {
      n_ranks = (guint) size;
      sorted = g_new (int, MAX (size, 1));
      for (int r = 0; r < size; r++)
        sorted[r] = r;
    }
  else
    sorted = g_memdup2 (ranks, sizeof (int) * MAX (n_ranks, 1));
  qsort (sorted, n_ranks, sizeof (int), compare_ints);

  /* the ranks agree (a hash of the sorted list), through a barrier-like job of the worker */
  job = job_new (self, JOB_BARRIER, "new_group", AGREE_FIXED);
  for (guint i = 0; i < n_ranks; i++)
    {
      hash = (hash ^ (guint64) (guint) sorted[i]) * 1099511628211ull;
      if (sorted[i] < 0 || sorted[i] >= size)
        job_fail (job, GNN_ERROR, GNN_ERROR_INDEX,
                  "rank %d is out of range for a group of world size %d: expected 0 to %d",
                  sorted[i], size, size - 1);
      else if (i > 0 && sorted[i] == sorted[i - 1])
        job_fail (job, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "rank %d is given twice", sorted[i]);
    }
  if (n_ranks == 0)
    job_fail (job, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "the list of ranks is empty");
  job->agree[AGREE_NUMEL] = n_ranks;
  job->agree[AGREE_EXTRA0] = (gint64) (hash >> 1);
  job->extra_names[0] = "a list of ranks of hash";
  work = submit (self, job);
  if (!gnn_work_wait (work, error))
    return NULL;
  /* the collective of the new communicator itself runs here: the worker is idle, and the
   * program calls no other collective of this group before this returns */
  group = klass->new_group_raw (self, sorted, n_ranks, error);
  if (group != NULL)
    ((GnnProcessGroupPrivate *) gnn_process_group_get_instance_private (group))->backend =
      g_strdup (gnn_process_group_get_backend (self));
  return group;
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
