/* gnn-node-private.h: autograd graph nodes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core/gnn-tensor-private.h"

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
  GnnBackwardFunc backward;
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

void        gnn_node_save         (GnnNode   *node,
                                   GnnTensor *tensor);
/* The saved tensor i, checked against in-place changes since it was saved. */
GnnTensor  *gnn_node_saved        (GnnNode   *node,
                                   guint      i,
                                   GError   **error);
void        gnn_node_set_ctx      (GnnNode       *node,
                                   gpointer       ctx,
                                   GDestroyNotify ctx_free);
gulong      gnn_node_add_pre_hook (GnnNode        *node,
                                   guint           index,
                                   gboolean        last,
                                   GnnNodeHookFunc func,
                                   gpointer        data,
                                   GDestroyNotify  destroy);
void        gnn_node_remove_hook  (GnnNode *node,
                                   gulong   id);

/* In-place ops: check that the op is allowed on @self; when it records, prepare a node
 * (transfer full, inputs[0] must be @self) and save what backward needs before the kernel
 * runs; after the kernel, commit: bump the version and attach the node (stealing it). */
gboolean    gnn_autograd_check_inplace   (GnnTensor *self,
                                          GError   **error);
GnnNode    *gnn_autograd_prepare_inplace (const char      *name,
                                          GnnBackwardFunc  backward,
                                          GnnTensor      **inputs,
                                          guint            n_inputs);
void        gnn_autograd_commit_inplace  (GnnTensor *self,
                                          GnnNode   *node);

gboolean    gnn_autograd_run_backward    (GnnTensor **roots,
                                          GnnTensor **grads,
                                          guint       n_roots,
                                          gboolean    retain_graph,
                                          GError    **error);

G_END_DECLS
