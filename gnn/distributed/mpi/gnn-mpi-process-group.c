/* gnn-mpi-process-group.c: the MPI process group, a loadable module
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libgnn-distributed-mpi.so: a GnnProcessGroup over MPI_COMM_WORLD (a duplicate of it, so that
 * a program's own MPI calls do not mix with ours), for jobs started by `mpirun -np N`. MPI is
 * started here when the program has not started it, and finalized when the last group made
 * here goes, if it was started here. Errors come back as GErrors (MPI_ERRORS_RETURN).
 */
#include <stdlib.h>

#include <mpi.h>

#include <gmodule.h>

#include <gnn/gnn.h>

#define GNN_TYPE_MPI_PROCESS_GROUP (gnn_mpi_process_group_get_type ())
G_DECLARE_FINAL_TYPE (GnnMpiProcessGroup, gnn_mpi_process_group, GNN, MPI_PROCESS_GROUP,
                      GnnProcessGroup)

struct _GnnMpiProcessGroup
{
  GnnProcessGroup parent_instance;
  MPI_Comm comm;
  int rank, size;
};

G_DEFINE_FINAL_TYPE (GnnMpiProcessGroup, gnn_mpi_process_group, GNN_TYPE_PROCESS_GROUP)

static gboolean started_here;

/* a program that never destroys its group still ends MPI properly, as mpirun expects */
static void
finalize_at_exit (void)
{
  int finalized = 0;

  MPI_Finalized (&finalized);
  if (!finalized)
    MPI_Finalize ();
}

static gboolean
mpi_check (int         rc,
           const char *what,
           GError    **error)
{
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;

  if (rc == MPI_SUCCESS)
    return TRUE;
  MPI_Error_string (rc, msg, &len);
  g_set_error (error, GNN_ERROR, GNN_ERROR_BACKEND, "mpi: %s failed: %.*s", what, len, msg);
  return FALSE;
}

static int
mpi_get_rank (GnnProcessGroup *group)
{
  return GNN_MPI_PROCESS_GROUP (group)->rank;
}

static int
mpi_get_world_size (GnnProcessGroup *group)
{
  return GNN_MPI_PROCESS_GROUP (group)->size;
}

static gboolean
mpi_all_reduce_raw (GnnProcessGroup *group,
                    gpointer         buffer,
                    gsize            count,
                    GnnDtype         dtype,
                    GnnReduceOp      op,
                    GError         **error)
{
  GnnMpiProcessGroup *self = GNN_MPI_PROCESS_GROUP (group);
  MPI_Datatype t;
  MPI_Op mop;

  switch (dtype)
    {
    case GNN_DTYPE_FLOAT32: t = MPI_FLOAT; break;
    case GNN_DTYPE_FLOAT64: t = MPI_DOUBLE; break;
    case GNN_DTYPE_INT64: t = MPI_INT64_T; break;
    default:
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "mpi: all_reduce of %s is not supported",
                   gnn_dtype_get_name (dtype));
      return FALSE;
    }
  switch (op)
    {
    case GNN_REDUCE_OP_SUM: mop = MPI_SUM; break;
    case GNN_REDUCE_OP_PRODUCT: mop = MPI_PROD; break;
    case GNN_REDUCE_OP_MIN: mop = MPI_MIN; break;
    case GNN_REDUCE_OP_MAX: mop = MPI_MAX; break;
    default:
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "mpi: unknown reduce op %d", op);
      return FALSE;
    }
  /* MPI counts are ints: reduce in pieces */
  for (gsize done = 0; done < count;)
    {
      gsize n = MIN (count - done, (gsize) G_MAXINT / 2);
      if (!mpi_check (MPI_Allreduce (MPI_IN_PLACE, (guint8 *) buffer + done * gnn_dtype_get_size (dtype),
                                     (int) n, t, mop, self->comm), "MPI_Allreduce", error))
        return FALSE;
      done += n;
    }
  return TRUE;
}

static gboolean
mpi_broadcast_raw (GnnProcessGroup *group,
                   gpointer         buffer,
                   gsize            nbytes,
                   int              src,
                   GError         **error)
{
  GnnMpiProcessGroup *self = GNN_MPI_PROCESS_GROUP (group);

  for (gsize done = 0; done < nbytes;)
    {
      gsize n = MIN (nbytes - done, (gsize) G_MAXINT / 2);
      if (!mpi_check (MPI_Bcast ((guint8 *) buffer + done, (int) n, MPI_BYTE, src, self->comm),
                      "MPI_Bcast", error))
        return FALSE;
      done += n;
    }
  return TRUE;
}

static gboolean
mpi_all_gather_raw (GnnProcessGroup *group,
                    gconstpointer    send,
                    gsize            nbytes,
                    gpointer         recv,
                    GError         **error)
{
  GnnMpiProcessGroup *self = GNN_MPI_PROCESS_GROUP (group);

  if (nbytes > (gsize) G_MAXINT)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "mpi: all_gather of %" G_GSIZE_FORMAT " bytes per rank: at most %d", nbytes,
                   G_MAXINT);
      return FALSE;
    }
  return mpi_check (MPI_Allgather (send, (int) nbytes, MPI_BYTE, recv, (int) nbytes, MPI_BYTE,
                                   self->comm), "MPI_Allgather", error);
}

static gboolean
mpi_barrier (GnnProcessGroup *group,
             GError         **error)
{
  return mpi_check (MPI_Barrier (GNN_MPI_PROCESS_GROUP (group)->comm), "MPI_Barrier", error);
}

static void
gnn_mpi_process_group_finalize (GObject *object)
{
  GnnMpiProcessGroup *self = GNN_MPI_PROCESS_GROUP (object);
  int finalized = 0;

  MPI_Finalized (&finalized);
  if (!finalized && self->comm != MPI_COMM_NULL)
    MPI_Comm_free (&self->comm);
  if (!finalized && started_here)
    MPI_Finalize ();
  G_OBJECT_CLASS (gnn_mpi_process_group_parent_class)->finalize (object);
}

static void
gnn_mpi_process_group_class_init (GnnMpiProcessGroupClass *klass)
{
  GnnProcessGroupClass *pg = GNN_PROCESS_GROUP_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = gnn_mpi_process_group_finalize;
  pg->get_rank = mpi_get_rank;
  pg->get_world_size = mpi_get_world_size;
  pg->all_reduce_raw = mpi_all_reduce_raw;
  pg->broadcast_raw = mpi_broadcast_raw;
  pg->all_gather_raw = mpi_all_gather_raw;
  pg->barrier = mpi_barrier;
}

static void
gnn_mpi_process_group_init (GnnMpiProcessGroup *self)
{
  self->comm = MPI_COMM_NULL;
}

G_MODULE_EXPORT const guint gnn_distributed_module_api_version = 1;

G_MODULE_EXPORT GnnProcessGroup *gnn_distributed_module_new_group (GError **error);

GnnProcessGroup *
gnn_distributed_module_new_group (GError **error)
{
  int initialized = 0, finalized = 0, provided = 0;
  g_autoptr(GnnMpiProcessGroup) self = NULL;

  MPI_Finalized (&finalized);
  if (finalized)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_BACKEND,
                   "mpi: MPI was finalized (destroy_process_group) and cannot start again in "
                   "this process");
      return NULL;
    }
  MPI_Initialized (&initialized);
  if (!initialized)
    {
      if (!mpi_check (MPI_Init_thread (NULL, NULL, MPI_THREAD_SERIALIZED, &provided),
                      "MPI_Init_thread", error))
        return NULL;
      started_here = TRUE;
      atexit (finalize_at_exit);
    }
  self = g_object_new (GNN_TYPE_MPI_PROCESS_GROUP, NULL);
  if (!mpi_check (MPI_Comm_dup (MPI_COMM_WORLD, &self->comm), "MPI_Comm_dup", error))
    return NULL;
  MPI_Comm_set_errhandler (self->comm, MPI_ERRORS_RETURN);
  MPI_Comm_rank (self->comm, &self->rank);
  MPI_Comm_size (self->comm, &self->size);
  return GNN_PROCESS_GROUP (g_steal_pointer (&self));
}
