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

  /*< private >*/
  gpointer padding[8];
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
