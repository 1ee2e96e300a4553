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

/* with less than MPI_THREAD_MULTIPLE, every MPI call of this module takes this lock (the
 * worker's collectives and the caller's sends and receives may run at once) */
static gboolean serialize_calls;
static GMutex call_lock;
static int live_groups;

#define MPI_LOCK() G_STMT_START { if (serialize_calls) g_mutex_lock (&call_lock); } G_STMT_END
#define MPI_UNLOCK() G_STMT_START { if (serialize_calls) g_mutex_unlock (&call_lock); } G_STMT_END

static gboolean
mpi_type (GnnDtype      dtype,
          MPI_Datatype *t,
          const char   *what,
          GError      **error)
{
  switch (dtype)
    {
    case GNN_DTYPE_FLOAT32: *t = MPI_FLOAT; return TRUE;
    case GNN_DTYPE_FLOAT64: *t = MPI_DOUBLE; return TRUE;
    case GNN_DTYPE_INT64: *t = MPI_INT64_T; return TRUE;
    case GNN_DTYPE_INT32: *t = MPI_INT32_T; return TRUE;
    default:
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "mpi: %s of %s is not supported", what,
                   gnn_dtype_get_name (dtype));
      return FALSE;
    }
}

static gboolean
mpi_op (GnnReduceOp op,
        MPI_Op     *mop,
        GError    **error)
{
  switch (op)
    {
    case GNN_REDUCE_OP_SUM: *mop = MPI_SUM; return TRUE;
    case GNN_REDUCE_OP_PRODUCT: *mop = MPI_PROD; return TRUE;
    case GNN_REDUCE_OP_MIN: *mop = MPI_MIN; return TRUE;
    case GNN_REDUCE_OP_MAX: *mop = MPI_MAX; return TRUE;
    default:
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "mpi: unknown reduce op %d", op);
      return FALSE;
    }
}

static gboolean
fits_int (gsize       n,
          const char *what,
          GError    **error)
{
  if (n > (gsize) G_MAXINT)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "mpi: %s of %" G_GSIZE_FORMAT " elements or bytes per rank: at most %d", what,
                   n, G_MAXINT);
      return FALSE;
    }
  return TRUE;
}

static gboolean
mpi_reduce_raw (GnnProcessGroup *group,
                gpointer         buffer,
                gsize            count,
                GnnDtype         dtype,
                GnnReduceOp      op,
                int              dst,
                GError         **error)
{
  GnnMpiProcessGroup *self = GNN_MPI_PROCESS_GROUP (group);
  MPI_Datatype t;
  MPI_Op mop;
  int rc;

  if (!mpi_type (dtype, &t, "reduce", error) || !mpi_op (op, &mop, error) ||
      !fits_int (count, "reduce", error))
    return FALSE;
  MPI_LOCK ();
  rc = MPI_Reduce (self->rank == dst ? MPI_IN_PLACE : buffer, buffer, (int) count, t, mop, dst,
                   self->comm);
  MPI_UNLOCK ();
  return mpi_check (rc, "MPI_Reduce", error);
}

static gboolean
mpi_reduce_scatter_raw (GnnProcessGroup *group,
                        gconstpointer    send,
                        gpointer         recv,
                        gsize            count,
                        GnnDtype         dtype,
                        GnnReduceOp      op,
                        GError         **error)
{
  GnnMpiProcessGroup *self = GNN_MPI_PROCESS_GROUP (group);
  MPI_Datatype t;
  MPI_Op mop;
  int rc;

  if (!mpi_type (dtype, &t, "reduce_scatter", error) || !mpi_op (op, &mop, error) ||
      !fits_int (count, "reduce_scatter", error))
    return FALSE;
  MPI_LOCK ();
  rc = MPI_Reduce_scatter_block (send, recv, (int) count, t, mop, self->comm);
  MPI_UNLOCK ();
  return mpi_check (rc, "MPI_Reduce_scatter_block", error);
}

/* MPI_Gather and MPI_Scatter share this signature: @nbytes bytes a rank, around @root. */
typedef int (*RootedCollective) (const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm);

static gboolean
rooted_bytes (GnnProcessGroup  *group,
              RootedCollective  collective,
              const char       *what,
              const char       *mpi_name,
              gconstpointer     send,
              gsize             nbytes,
              gpointer          recv,
              int               root,
              GError          **error)
{
  GnnMpiProcessGroup *self = GNN_MPI_PROCESS_GROUP (group);
  int rc;

  if (!fits_int (nbytes, what, error))
    return FALSE;
  MPI_LOCK ();
  rc = collective (send, (int) nbytes, MPI_BYTE, recv, (int) nbytes, MPI_BYTE, root, self->comm);
  MPI_UNLOCK ();
  return mpi_check (rc, mpi_name, error);
}

static gboolean
mpi_gather_raw (GnnProcessGroup *group,
                gconstpointer    send,
                gsize            nbytes,
                gpointer         recv,
                int              dst,
                GError         **error)
{
  return rooted_bytes (group, MPI_Gather, "gather", "MPI_Gather", send, nbytes, recv, dst, error);
}

static gboolean
mpi_scatter_raw (GnnProcessGroup *group,
                 gconstpointer    send,
                 gsize            nbytes,
                 gpointer         recv,
                 int              src,
                 GError         **error)
{
  return rooted_bytes (group, MPI_Scatter, "scatter", "MPI_Scatter", send, nbytes, recv, src, error);
}

static gboolean
mpi_all_to_all_raw (GnnProcessGroup *group,
                    gconstpointer    send,
                    const gsize     *send_bytes,
                    gpointer         recv,
                    const gsize     *recv_bytes,
                    GError         **error)
{
  GnnMpiProcessGroup *self = GNN_MPI_PROCESS_GROUP (group);
  g_autofree int *sc = g_new (int, self->size), *sd = g_new (int, self->size);
  g_autofree int *rcnt = g_new (int, self->size), *rd = g_new (int, self->size);
  gsize so = 0, ro = 0;
  int rc;

  for (int r = 0; r < self->size; r++)
    {
      if (!fits_int (so + send_bytes[r], "all_to_all", error) ||
          !fits_int (ro + recv_bytes[r], "all_to_all", error))
        return FALSE;
      sc[r] = (int) send_bytes[r];
      sd[r] = (int) so;
      rcnt[r] = (int) recv_bytes[r];
      rd[r] = (int) ro;
      so += send_bytes[r];
      ro += recv_bytes[r];
    }
  MPI_LOCK ();
  rc = MPI_Alltoallv (send, sc, sd, MPI_BYTE, recv, rcnt, rd, MPI_BYTE, self->comm);
  MPI_UNLOCK ();
  return mpi_check (rc, "MPI_Alltoallv", error);
}

/* A started MPI_Isend (@send) or MPI_Irecv (@peer < 0: any source) of @nbytes bytes. */
static gpointer
start_point_to_point (GnnProcessGroup *group,
                      gboolean         send,
                      gpointer         buffer,
                      gsize            nbytes,
                      int              peer,
                      int              tag,
                      GError         **error)
{
  GnnMpiProcessGroup *self = GNN_MPI_PROCESS_GROUP (group);
  MPI_Request *req = g_new (MPI_Request, 1);
  int rc;

  if (!fits_int (nbytes, send ? "send" : "recv", error))
    {
      g_free (req);
      return NULL;
    }
  MPI_LOCK ();
  if (send)
    rc = MPI_Isend (buffer, (int) nbytes, MPI_BYTE, peer, tag, self->comm, req);
  else
    rc = MPI_Irecv (buffer, (int) nbytes, MPI_BYTE, peer < 0 ? MPI_ANY_SOURCE : peer, tag,
                    self->comm, req);
  MPI_UNLOCK ();
  if (!mpi_check (rc, send ? "MPI_Isend" : "MPI_Irecv", error))
    {
      g_free (req);
      return NULL;
    }
  return req;
}

static gpointer
mpi_isend_raw (GnnProcessGroup *group,
               gconstpointer    buffer,
               gsize            nbytes,
               int              dst,
               int              tag,
               GError         **error)
{
  return start_point_to_point (group, TRUE, (gpointer) buffer, nbytes, dst, tag, error);
}

static gpointer
mpi_irecv_raw (GnnProcessGroup *group,
               gpointer         buffer,
               gsize            nbytes,
               int              src,
               int              tag,
               GError         **error)
{
  return start_point_to_point (group, FALSE, buffer, nbytes, src, tag, error);
}

static gboolean
request_done (MPI_Request *req,
              MPI_Status  *status,
              int          rc,
              int         *source,
              gsize       *nbytes,
              GError     **error)
{
  int count = 0;

  g_free (req);
  if (rc == MPI_ERR_IN_STATUS)
    rc = status->MPI_ERROR;
  *source = status->MPI_SOURCE;
  if (rc == MPI_ERR_TRUNCATE)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "the message is larger than expected");
      return FALSE;
    }
  if (!mpi_check (rc, "the request", error))
    return FALSE;
  MPI_Get_count (status, MPI_BYTE, &count);
  *nbytes = (gsize) MAX (count, 0);
  return TRUE;
}

/* MPI_Wait; with serialized calls, the lock is held only for a test at a time, so that the
 * worker's collective runs */
static int
wait_request (MPI_Request *request,
              MPI_Status  *status)
{
  int flag = 0, rc;

  if (!serialize_calls)
    return MPI_Wait (request, status);
  do
    {
      MPI_LOCK ();
      rc = MPI_Test (request, &flag, status);
      MPI_UNLOCK ();
      if (!flag && rc == MPI_SUCCESS)
        g_usleep (50);
    }
  while (!flag && rc == MPI_SUCCESS);
  return rc;
}

static gboolean
mpi_request_wait (GnnProcessGroup *group,
                  gpointer         request,
                  int             *source,
                  gsize           *nbytes,
                  GError         **error)
{
  MPI_Status status;
  int rc = wait_request (request, &status);

  return request_done (request, &status, rc, source, nbytes, error);
}

static gboolean
mpi_request_test (GnnProcessGroup *group,
                  gpointer         request,
                  gboolean        *done,
                  int             *source,
                  gsize           *nbytes,
                  GError         **error)
{
  MPI_Status status;
  int flag = 0, rc;

  MPI_LOCK ();
  rc = MPI_Test (request, &flag, &status);
  MPI_UNLOCK ();
  *done = flag || rc != MPI_SUCCESS;
  if (!*done)
    return TRUE;
  return request_done (request, &status, rc, source, nbytes, error);
}

/* MPI_Cancel, then MPI_Wait, which returns at once for a cancelled request */
static gboolean
mpi_request_cancel (GnnProcessGroup *group,
                    gpointer         request,
                    gboolean        *cancelled,
                    int             *source,
                    gsize           *nbytes,
                    GError         **error)
{
  MPI_Status status;
  int flag = 0, rc;

  MPI_LOCK ();
  rc = MPI_Cancel (request);
  MPI_UNLOCK ();
  if (rc != MPI_SUCCESS)
    {
      /* the request stays: wait for it as usual */
      *cancelled = FALSE;
      return mpi_request_wait (group, request, source, nbytes, error);
    }
  rc = wait_request (request, &status);
  if (rc == MPI_SUCCESS)
    MPI_Test_cancelled (&status, &flag);
  *cancelled = flag != 0;
  if (*cancelled)
    {
      g_free (request);
      return TRUE;
    }
  return request_done (request, &status, rc, source, nbytes, error);
}

static GnnProcessGroup *mpi_group_new_from (MPI_Comm comm);

static GnnProcessGroup *
mpi_new_group_raw (GnnProcessGroup *group,
                   const int       *ranks,
                   guint            n_ranks,
                   GError         **error)
{
  GnnMpiProcessGroup *self = GNN_MPI_PROCESS_GROUP (group);
  int color = MPI_UNDEFINED, key = 0, rc;
  MPI_Comm comm = MPI_COMM_NULL;

  for (guint i = 0; i < n_ranks; i++)
    if (ranks[i] == self->rank)
      {
        color = 0;
        key = (int) i;
      }
  MPI_LOCK ();
  rc = MPI_Comm_split (self->comm, color, key, &comm);
  MPI_UNLOCK ();
  if (!mpi_check (rc, "MPI_Comm_split", error) || comm == MPI_COMM_NULL)
    return NULL;
  return mpi_group_new_from (comm);
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

  if (!mpi_type (dtype, &t, "all_reduce", error) || !mpi_op (op, &mop, error))
    return FALSE;
  /* MPI counts are ints: reduce in pieces */
  for (gsize done = 0; done < count;)
    {
      gsize n = MIN (count - done, (gsize) G_MAXINT / 2);
      int rc;
      MPI_LOCK ();
      rc = MPI_Allreduce (MPI_IN_PLACE, (guint8 *) buffer + done * gnn_dtype_get_size (dtype),
                          (int) n, t, mop, self->comm);
      MPI_UNLOCK ();
      if (!mpi_check (rc, "MPI_Allreduce", error))
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
      int rc;
      MPI_LOCK ();
      rc = MPI_Bcast ((guint8 *) buffer + done, (int) n, MPI_BYTE, src, self->comm);
      MPI_UNLOCK ();
      if (!mpi_check (rc, "MPI_Bcast", error))
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
  int rc;

  if (!fits_int (nbytes, "all_gather", error))
    return FALSE;
  MPI_LOCK ();
  rc = MPI_Allgather (send, (int) nbytes, MPI_BYTE, recv, (int) nbytes, MPI_BYTE, self->comm);
  MPI_UNLOCK ();
  return mpi_check (rc, "MPI_Allgather", error);
}

static gboolean
mpi_barrier (GnnProcessGroup *group,
             GError         **error)
{
  int rc;

  MPI_LOCK ();
  rc = MPI_Barrier (GNN_MPI_PROCESS_GROUP (group)->comm);
  MPI_UNLOCK ();
  return mpi_check (rc, "MPI_Barrier", error);
}

static void
gnn_mpi_process_group_finalize (GObject *object)
{
  GnnMpiProcessGroup *self = GNN_MPI_PROCESS_GROUP (object);
  int finalized = 0;

  MPI_Finalized (&finalized);
  if (!finalized && self->comm != MPI_COMM_NULL)
    MPI_Comm_free (&self->comm);
  /* MPI ends with the last group made here, when it was started here */
  if (--live_groups == 0 && !finalized && started_here)
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
  pg->reduce_raw = mpi_reduce_raw;
  pg->reduce_scatter_raw = mpi_reduce_scatter_raw;
  pg->gather_raw = mpi_gather_raw;
  pg->scatter_raw = mpi_scatter_raw;
  pg->all_to_all_raw = mpi_all_to_all_raw;
  pg->isend_raw = mpi_isend_raw;
  pg->irecv_raw = mpi_irecv_raw;
  pg->request_wait = mpi_request_wait;
  pg->request_test = mpi_request_test;
  pg->request_cancel = mpi_request_cancel;
  pg->new_group_raw = mpi_new_group_raw;
}

static void
gnn_mpi_process_group_init (GnnMpiProcessGroup *self)
{
  self->comm = MPI_COMM_NULL;
}

/* a group over @comm, which it owns */
static GnnProcessGroup *
mpi_group_new_from (MPI_Comm comm)
{
  GnnMpiProcessGroup *self = g_object_new (GNN_TYPE_MPI_PROCESS_GROUP, NULL);

  self->comm = comm;
  MPI_Comm_set_errhandler (self->comm, MPI_ERRORS_RETURN);
  MPI_Comm_rank (self->comm, &self->rank);
  MPI_Comm_size (self->comm, &self->size);
  live_groups++;
  return GNN_PROCESS_GROUP (self);
}

G_MODULE_EXPORT const guint gnn_distributed_module_api_version = 1;

G_MODULE_EXPORT GnnProcessGroup *gnn_distributed_module_new_group (GError **error);

GnnProcessGroup *
gnn_distributed_module_new_group (GError **error)
{
  int initialized = 0, finalized = 0, provided = 0;
  MPI_Comm comm = MPI_COMM_NULL;

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
      /* the group's worker thread runs the collectives while the caller's thread sends and
       * receives: MPI_THREAD_MULTIPLE, or every call under one lock */
      if (!mpi_check (MPI_Init_thread (NULL, NULL, MPI_THREAD_MULTIPLE, &provided),
                      "MPI_Init_thread", error))
        return NULL;
      started_here = TRUE;
      atexit (finalize_at_exit);
    }
  else
    MPI_Query_thread (&provided);
  serialize_calls = provided < MPI_THREAD_MULTIPLE;
  if (!mpi_check (MPI_Comm_dup (MPI_COMM_WORLD, &comm), "MPI_Comm_dup", error))
    return NULL;
  return mpi_group_new_from (comm);
}
