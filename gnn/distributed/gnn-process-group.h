/* gnn-process-group.h: a group of processes that train together (torch.distributed)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(GNN_INSIDE) && !defined(GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>

#include "../gnn-version-macros.h"
#include "../core/gnn-dtype.h"
#include "../core/gnn-tensor.h"

G_BEGIN_DECLS

/**
 * GnnReduceOp:
 * @GNN_REDUCE_OP_SUM: the sum over the ranks (`torch.distributed.ReduceOp.SUM`)
 * @GNN_REDUCE_OP_PRODUCT: the product (`ReduceOp.PRODUCT`)
 * @GNN_REDUCE_OP_MIN: the smallest value (`ReduceOp.MIN`)
 * @GNN_REDUCE_OP_MAX: the largest value (`ReduceOp.MAX`)
 * @GNN_REDUCE_OP_AVG: the mean over the ranks (`ReduceOp.AVG`), floating-point dtypes only
 *
 * How [method@Gnn.ProcessGroup.all_reduce] combines the ranks' tensors, element by element.
 *
 * Since: 0.1
 */
typedef enum
{
  GNN_REDUCE_OP_SUM,
  GNN_REDUCE_OP_PRODUCT,
  GNN_REDUCE_OP_MIN,
  GNN_REDUCE_OP_MAX,
  GNN_REDUCE_OP_AVG,
} GnnReduceOp;

#define GNN_TYPE_WORK (gnn_work_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnWork, gnn_work, GNN, WORK, GObject)

#define GNN_TYPE_PROCESS_GROUP (gnn_process_group_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnProcessGroup, gnn_process_group, GNN, PROCESS_GROUP, GObject)

/**
 * GnnProcessGroupClass:
 * @parent_class: the parent class
 * @get_rank: this process's rank, from 0 to the world size minus one
 * @get_world_size: the number of processes in the group
 * @all_reduce_raw: combines @count elements of @dtype at @buffer over the ranks with @op (never
 *   %GNN_REDUCE_OP_AVG, which the base class makes of a sum), in place, on every rank
 * @broadcast_raw: copies @nbytes at @buffer from rank @src to every other rank
 * @all_gather_raw: gathers @nbytes from @send of every rank into @recv (world size times
 *   @nbytes, in rank order) on every rank
 * @barrier: returns when every rank has entered it
 * @reduce_raw: combines @count elements of @dtype at @buffer over the ranks with @op (never
 *   %GNN_REDUCE_OP_AVG), in place on rank @dst only
 * @reduce_scatter_raw: combines world size times @count elements at @send over the ranks with
 *   @op and gives rank r the r-th block of @count elements, in @recv
 * @gather_raw: gathers @nbytes from @send of every rank into @recv (world size times @nbytes,
 *   in rank order) on rank @dst; @recv is %NULL on the other ranks
 * @scatter_raw: gives every rank r the r-th block of @nbytes from @send on rank @src (%NULL on
 *   the other ranks), in @recv
 * @all_to_all_raw: sends @send_bytes[r] bytes of @send (blocks in rank order) to rank r and
 *   receives @recv_bytes[r] bytes from rank r into @recv (blocks in rank order)
 * @isend_raw: starts sending @nbytes at @buffer to rank @dst with @tag; returns a request
 *   that @request_wait or @request_test completes, or %NULL with the error set
 * @irecv_raw: starts receiving at most @nbytes into @buffer from rank @src (-1: any rank) with
 *   @tag; returns a request, or %NULL with the error set
 * @request_wait: waits for a request of @isend_raw or @irecv_raw and frees it, giving the
 *   sender's rank and the bytes received
 * @request_test: tells whether a request is complete; when it is, frees it as @request_wait
 * @new_group_raw: makes the group of the ranks @ranks (ranks of this group, in ascending
 *   order), on every rank of this group; a rank not in @ranks gets %NULL with no error
 * @request_cancel: cancels a request of @isend_raw or @irecv_raw that has not completed (a
 *   wait with a timeout that expired) and frees it; sets @cancelled to %FALSE, with the
 *   sender's rank and the bytes received, when it completed before it could be cancelled.
 *   Optional: without it a request whose wait timed out stays pending
 *
 * Every collective runs on one worker thread of its group, in the order the program called
 * them, and the point-to-point requests are started and completed on the caller's thread: a
 * backend whose library needs it serializes its own calls.
 *
 * The virtual methods of a process group: a backend module (the MPI one, gnn/distributed/mpi/)
 * implements them on host memory; the base class checks arguments, stages tensors through the
 * host and checks that the ranks agree on shapes and dtypes.
 *
 * Since: 0.1
 */
struct _GnnProcessGroupClass
{
  GObjectClass parent_class;

  int      (*get_rank)       (GnnProcessGroup *self);
  int      (*get_world_size) (GnnProcessGroup *self);
  gboolean (*all_reduce_raw) (GnnProcessGroup *self,
                              gpointer         buffer,
                              gsize            count,
                              GnnDtype         dtype,
                              GnnReduceOp      op,
                              GError         **error);
  gboolean (*broadcast_raw)  (GnnProcessGroup *self,
                              gpointer         buffer,
                              gsize            nbytes,
                              int              src,
                              GError         **error);
  gboolean (*all_gather_raw) (GnnProcessGroup *self,
                              gconstpointer    send,
                              gsize            nbytes,
                              gpointer         recv,
                              GError         **error);
  gboolean (*barrier)        (GnnProcessGroup *self,
                              GError         **error);
  gboolean (*reduce_raw)     (GnnProcessGroup *self,
                              gpointer         buffer,
                              gsize            count,
                              GnnDtype         dtype,
                              GnnReduceOp      op,
                              int              dst,
                              GError         **error);
  gboolean (*reduce_scatter_raw) (GnnProcessGroup *self,
                                  gconstpointer    send,
                                  gpointer         recv,
                                  gsize            count,
                                  GnnDtype         dtype,
                                  GnnReduceOp      op,
                                  GError         **error);
  gboolean (*gather_raw)     (GnnProcessGroup *self,
                              gconstpointer    send,
                              gsize            nbytes,
                              gpointer         recv,
                              int              dst,
                              GError         **error);
  gboolean (*scatter_raw)    (GnnProcessGroup *self,
                              gconstpointer    send,
                              gsize            nbytes,
                              gpointer         recv,
                              int              src,
                              GError         **error);
  gboolean (*all_to_all_raw) (GnnProcessGroup *self,
                              gconstpointer    send,
                              const gsize     *send_bytes,
                              gpointer         recv,
                              const gsize     *recv_bytes,
                              GError         **error);
  gpointer (*isend_raw)      (GnnProcessGroup *self,
                              gconstpointer    buffer,
                              gsize            nbytes,
                              int              dst,
                              int              tag,
                              GError         **error);
  gpointer (*irecv_raw)      (GnnProcessGroup *self,
                              gpointer         buffer,
                              gsize            nbytes,
                              int              src,
                              int              tag,
                              GError         **error);
  gboolean (*request_wait)   (GnnProcessGroup *self,
                              gpointer         request,
                              int             *source,
                              gsize           *nbytes,
                              GError         **error);
  gboolean (*request_test)   (GnnProcessGroup *self,
                              gpointer         request,
                              gboolean        *done,
                              int             *source,
                              gsize           *nbytes,
                              GError         **error);
  GnnProcessGroup *(*new_group_raw) (GnnProcessGroup *self,
                                     const int       *ranks,
                                     guint            n_ranks,
                                     GError         **error);
  gboolean (*request_cancel) (GnnProcessGroup *self,
                              gpointer         request,
                              gboolean        *cancelled,
                              int             *source,
                              gsize           *nbytes,
                              GError         **error);

  /*< private >*/
  gpointer padding[7];
};

GNN_AVAILABLE_IN_ALL
GnnProcessGroup *gnn_process_group_load             (const char      *backend,
                                                     GError         **error);
GNN_AVAILABLE_IN_ALL
const char      *gnn_process_group_get_backend      (GnnProcessGroup *self);
GNN_AVAILABLE_IN_ALL
int              gnn_process_group_get_rank         (GnnProcessGroup *self);
GNN_AVAILABLE_IN_ALL
int              gnn_process_group_get_world_size   (GnnProcessGroup *self);
GNN_AVAILABLE_IN_ALL
gboolean         gnn_process_group_all_reduce       (GnnProcessGroup *self,
                                                     GnnTensor       *tensor,
                                                     GnnReduceOp      op,
                                                     GError         **error);
GNN_AVAILABLE_IN_ALL
gboolean         gnn_process_group_broadcast        (GnnProcessGroup *self,
                                                     GnnTensor       *tensor,
                                                     int              src,
                                                     GError         **error);
GNN_AVAILABLE_IN_ALL
GPtrArray       *gnn_process_group_all_gather       (GnnProcessGroup *self,
                                                     GnnTensor       *tensor,
                                                     GError         **error);
GNN_AVAILABLE_IN_ALL
gboolean         gnn_process_group_barrier          (GnnProcessGroup *self,
                                                     GError         **error);

GNN_AVAILABLE_IN_ALL
GnnWork         *gnn_process_group_all_reduce_async (GnnProcessGroup *self,
                                                     GnnTensor       *tensor,
                                                     GnnReduceOp      op);
GNN_AVAILABLE_IN_ALL
GnnWork         *gnn_process_group_broadcast_async  (GnnProcessGroup *self,
                                                     GnnTensor       *tensor,
                                                     int              src);
GNN_AVAILABLE_IN_ALL
GnnWork         *gnn_process_group_all_gather_async (GnnProcessGroup *self,
                                                     GPtrArray       *tensor_list,
                                                     GnnTensor       *tensor);
GNN_AVAILABLE_IN_ALL
GnnWork         *gnn_process_group_barrier_async    (GnnProcessGroup *self);
GNN_AVAILABLE_IN_ALL
GnnWork         *gnn_process_group_reduce_async     (GnnProcessGroup *self,
                                                     GnnTensor       *tensor,
                                                     int              dst,
                                                     GnnReduceOp      op);
GNN_AVAILABLE_IN_ALL
GnnWork         *gnn_process_group_reduce_scatter_async (GnnProcessGroup *self,
                                                     GnnTensor       *output,
                                                     GPtrArray       *input_list,
                                                     GnnReduceOp      op);
GNN_AVAILABLE_IN_ALL
GnnWork         *gnn_process_group_gather_async     (GnnProcessGroup *self,
                                                     GnnTensor       *tensor,
                                                     GPtrArray       *gather_list,
                                                     int              dst);
GNN_AVAILABLE_IN_ALL
GnnWork         *gnn_process_group_scatter_async    (GnnProcessGroup *self,
                                                     GnnTensor       *tensor,
                                                     GPtrArray       *scatter_list,
                                                     int              src);
GNN_AVAILABLE_IN_ALL
GnnWork         *gnn_process_group_all_to_all_async (GnnProcessGroup *self,
                                                     GPtrArray       *output_list,
                                                     GPtrArray       *input_list);
GNN_AVAILABLE_IN_ALL
GnnWork         *gnn_process_group_send_async       (GnnProcessGroup *self,
                                                     GnnTensor       *tensor,
                                                     int              dst,
                                                     int              tag);
GNN_AVAILABLE_IN_ALL
GnnWork         *gnn_process_group_recv_async       (GnnProcessGroup *self,
                                                     GnnTensor       *tensor,
                                                     int              src,
                                                     int              tag);
GNN_AVAILABLE_IN_ALL
GnnProcessGroup *gnn_process_group_new_group        (GnnProcessGroup *self,
                                                     const int       *ranks,
                                                     guint            n_ranks,
                                                     GError         **error);

GNN_AVAILABLE_IN_ALL
gboolean         gnn_work_wait                      (GnnWork         *self,
                                                     GError         **error);
GNN_AVAILABLE_IN_ALL
gboolean         gnn_work_wait_timeout              (GnnWork         *self,
                                                     gint64           timeout_ms,
                                                     GError         **error);
GNN_AVAILABLE_IN_ALL
gboolean         gnn_work_is_completed              (GnnWork         *self);
GNN_AVAILABLE_IN_ALL
gboolean         gnn_work_is_success                (GnnWork         *self);
GNN_AVAILABLE_IN_ALL
int              gnn_work_get_source_rank           (GnnWork         *self);

/* the default group, as torch.distributed's module-level functions */
GNN_AVAILABLE_IN_ALL
gboolean         gnn_distributed_init_process_group (const char      *backend,
                                                     GError         **error);
GNN_AVAILABLE_IN_ALL
gboolean         gnn_distributed_is_initialized     (void);
GNN_AVAILABLE_IN_ALL
GnnProcessGroup *gnn_distributed_get_default_group  (GError         **error);
GNN_AVAILABLE_IN_ALL
int              gnn_distributed_get_rank           (GError         **error);
GNN_AVAILABLE_IN_ALL
int              gnn_distributed_get_world_size     (GError         **error);
GNN_AVAILABLE_IN_ALL
gboolean         gnn_distributed_destroy_process_group (GError      **error);

G_END_DECLS
