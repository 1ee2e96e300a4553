/* gnn-graph-private.h: the autograd graph: nodes, edges, saved tensors, hooks, recording
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Below ops/ (which record through it) and above core; the engine that runs backward over
 * these nodes is autograd/engine, above ops/.
 */
#pragma once

#include "core/gnn-tensor-private.h"
#include "autograd/graph/gnn-grad-mode.h"

G_BEGIN_DECLS

/* Computes the gradients of a node's inputs from the gradients of its outputs.
 * grad_outputs[i] may be NULL when output i received no gradient (treat as zero).
 * Fill grad_inputs[j] (transfer full) for each input j whose edge is set; leave NULL
 * for none. Runs with grad mode off. */
typedef gboolean (*GnnBackwardFunc) (GnnNode    *node,
                                     GnnTensor **grad_outputs,
                                     GnnTensor **grad_inputs,
                                     GError    **error);

typedef GnnTensor *(*GnnNodeHookFunc) (GnnNode   *node,
                                       guint      index,
                                       GnnTensor *grad,
                                       gpointer   data);

typedef struct {
  GnnNode *node;     /* strong, or NULL when the input needs no gradient */
  guint input_nr;
} GnnEdge;

typedef struct {
  GnnTensor *tensor;          /* an alias without history; NULL once released */
  guint64 version;
  const char *owner_name;     /* the grad_fn of the tensor when saved, for error messages */
  guint output_nr;
  gboolean is_output;
  gboolean inference;         /* an inference tensor: unpacking it fails, as torch's saving does */
  /* for double backward: where the saved tensor's own gradient flows (a reference; NULL for
   * outputs of the node, whose edge is the node itself, and for tensors that need none) */
  GnnNode *edge;
  guint edge_nr;
  GnnTensor *unpacked;        /* the alias with history handed out under grad mode, until
                               * gnn_node_clear_unpacked */
} GnnSavedTensor;

typedef struct {
  GnnNodeHookFunc func;
  guint index;                /* output number for pre hooks */
  gboolean last;              /* retain_grad hooks run after the others */
  gpointer data;
  GDestroyNotify destroy;
  gulong id;
} GnnNodeHook;

struct _GnnNode
{
  GnnNodeHeader header;       /* the reference count and name core sees (gnn-tensor-private.h) */
  GnnBackwardFunc backward;   /* NULL for AccumulateGrad: the engine accumulates into variable */
  guint n_inputs;
  GnnEdge *edges;
  guint n_outputs;
  GnnSavedTensor *saved;
  guint n_saved;
  gpointer ctx;
  GDestroyNotify ctx_free;
  guint64 sequence_nr;
  gboolean released;
  GnnTensor *variable;        /* AccumulateGrad: the leaf (strong) */
  GArray *pre_hooks;          /* GnnNodeHook on grad outputs */
  /* input geometry, so that backward functions can reduce broadcast gradients */
  guint8 *in_ndim;
  gint64 (*in_shape)[GNN_MAX_DIMS];
  GnnDtype *in_dtype;
  char *anomaly_trace;        /* the forward trace recorded under anomaly mode, else NULL */
  guint64 profile_scope;      /* recorded while a profiler recorded: the module forward it
                               * was recorded in (gnn_profiler_node_scope), else 0 */
  gpointer engine_task;       /* the engine's task for this node while one backward run holds
                               * it (claimed atomically; a nested or concurrent run that finds
                               * it taken keeps its own table), else NULL */
};

/* Records an op when grad mode is on and some input requires grad: makes a node with an
 * edge per input and makes it the grad_fn of every output. Returns the node (borrowed from
 * the outputs) or NULL when nothing is recorded. */
GnnNode    *gnn_autograd_record   (const char       *name,
                                   GnnBackwardFunc   backward,
                                   GnnTensor       **inputs,
                                   guint             n_inputs,
                                   GnnTensor       **outputs,
                                   guint             n_outputs);
/* Whether an op on these inputs would record. */
gboolean    gnn_autograd_needed   (GnnTensor **inputs,
                                   guint       n_inputs);

/* The edge along which a gradient for @t flows (its grad_fn, or for a leaf that requires
 * grad its AccumulateGrad node), with a new reference, or NULL. */
GnnNode    *gnn_autograd_gradient_edge (GnnTensor *t,
                                        guint     *input_nr);

void        gnn_node_save         (GnnNode   *node,
                                   GnnTensor *tensor);
/* The saved tensor i, checked against in-place changes since it was saved. With grad mode
 * off (a plain backward) it has no history; with grad mode on (create_graph) it is an alias
 * carrying the saved tensor's history, so that a backward formula written with ops records
 * its own graph: the engine drops these aliases after the node ran (gnn_node_clear_unpacked). */
GnnTensor  *gnn_node_saved        (GnnNode   *node,
                                   guint      i,
                                   GError   **error);
/* Whether saved tensor i has history that a double backward would reach. */
gboolean    gnn_node_saved_requires_grad (GnnNode *node,
                                          guint    i);
void        gnn_node_clear_unpacked (GnnNode *node);
/* Frees the saved tensors (after a backward without retain_graph): reading one fails then. */
void        gnn_node_release_saved (GnnNode *node);
void        gnn_node_set_ctx      (GnnNode       *node,
                                   gpointer       ctx,
                                   GDestroyNotify ctx_free);
gulong      gnn_node_add_pre_hook (GnnNode        *node,
                                   guint           index,
                                   gboolean        last,
                                   GnnNodeHookFunc func,
                                   gpointer        data,
                                   GDestroyNotify  destroy);
/* Whether a hook with @id was on @node (and is removed). */
gboolean    gnn_node_remove_hook  (GnnNode *node,
                                   gulong   id);
/* A new hook id, unique among node and tensor hooks. */
gulong      gnn_autograd_next_hook_id (void);

/* In-place ops: check that the op is allowed on @self; when it records, prepare a node
 * (transfer full, inputs[0] must be @self) and save what backward needs before the kernel
 * runs; after the kernel, commit: bump the version and attach the node (stealing it). On a
 * view of a contiguous base, commit gives the base the history CopySlices (@node) and the
 * view AsStridedBackward0 of the base's, with the backward formulas given (ops/ has them:
 * ops call gnn_commit_inplace, which passes them). */
gboolean    gnn_autograd_check_inplace   (GnnTensor *self,
                                          GError   **error);
GnnNode    *gnn_autograd_prepare_inplace (const char      *name,
                                          GnnBackwardFunc  backward,
                                          GnnTensor      **inputs,
                                          guint            n_inputs);
void        gnn_autograd_commit_inplace  (GnnTensor       *self,
                                          GnnNode         *node,
                                          GnnBackwardFunc  copy_slices_backward,
                                          GnnBackwardFunc  as_strided_backward);

/* The ctx of CopySlices and AsStridedBackward0 nodes: where the view sits in its base. */
typedef struct {
  GnnNode *fn;              /* CopySlices: the in-place op's own node, input 0 being the view */
  guint ndim;
  gint64 shape[GNN_MAX_DIMS];
  gint64 strides[GNN_MAX_DIMS];
  gint64 offset;            /* of the view inside a contiguous tensor of the base's shape */
} GnnViewGeometry;

G_END_DECLS
