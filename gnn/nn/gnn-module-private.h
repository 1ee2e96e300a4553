/* gnn-module-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

/* the public headers of nn and of the layers below it, as gnn.h orders them */
#include "gnn-version.h"
#include "gnn-enum-types.h"
#include "core/gnn-error.h"
#include "core/gnn-dtype.h"
#include "core/gnn-device-private.h"
#include "core/gnn-generator.h"
#include "core/gnn-tensor.h"
#include "autograd/graph/gnn-grad-mode.h"
#include "autograd/engine/gnn-function.h"
#include "ops/gnn-ops.h"
#include "backend/gnn-backend.h"
#include "core/gnn-threads.h"
#include "nn/gnn-parameter.h"
#include "nn/gnn-args.h"
#include "nn/gnn-module.h"
#include "nn/gnn-init.h"
#include "nn/gnn-linear.h"
#include "nn/gnn-conv.h"
#include "nn/gnn-pool.h"
#include "nn/gnn-activation.h"
#include "nn/gnn-layers.h"
#include "nn/gnn-containers.h"
#include "nn/gnn-state-dict.h"
#include "nn/gnn-loss.h"
#include "nn/gnn-norm.h"

G_BEGIN_DECLS

/* object data that marks a module's tensor whose dtype a loaded state must match exactly
 * (gnn_module_load_state_dict refuses another dtype, naming the key and both dtypes, instead
 * of converting as Tensor.copy_ does): the integers of a quantized weight */
#define GNN_TENSOR_LOAD_EXACT_DTYPE "gnn-load-exact-dtype"

typedef struct {
  char *name;
  GObject *value;      /* NULL: a reserved name */
  gboolean persistent; /* buffers */
} GnnModuleSlot;

typedef enum {
  GNN_HOOK_FORWARD_PRE,
  GNN_HOOK_FORWARD,
  GNN_HOOK_BACKWARD_PRE,
  GNN_HOOK_BACKWARD,
} GnnHookKind;

typedef struct {
  gint ref;
  guint id;
  GnnHookKind kind;
  gpointer func;
  gpointer data;
  GDestroyNotify destroy;
  gboolean with_kwargs;
  gboolean always_call;
} GnnModuleHook;

typedef struct {
  GPtrArray *parameters;   /* GnnModuleSlot, in registration order */
  GPtrArray *buffers;
  GPtrArray *modules;
  gboolean training;
  GnnDtype dtype;          /* the construct property; see gnn_module_dtype */
  gboolean setup_done;
  GError *setup_error;     /* a setup that failed in constructed, reported at first use */
  GPtrArray *forward_hooks; /* GnnModuleHook*, every kind, in firing order; NULL when none */
  GPtrArray *attributes;   /* GnnModuleAttribute*, tensor attributes; NULL when none */
} GnnModulePrivate;

GnnModulePrivate *gnn_module_priv         (GnnModule *self);
/* The slot called @name in @slots (one of the private arrays), or NULL. */
GnnModuleSlot    *gnn_module_find_slot    (GPtrArray  *slots,
                                           const char *name);
/* Runs setup once; FALSE with @error set when it failed (now or at construction). */
gboolean          gnn_module_ensure_setup (GnnModule *self,
                                           GError   **error);

/* The hooks of one kind for a call of @self: global ones first, then the module's; a new
 * array of references, or NULL when there are none. */
GPtrArray        *gnn_module_hooks_for     (GnnModule  *self,
                                            GnnHookKind kind);
void              gnn_module_hook_unref    (gpointer    hook);
guint             gnn_module_signal_id     (GnnHookKind kind);

/* The parameter registered as @name directly in @module, or NULL (no slot, or an empty one). */
GnnParameter     *gnn_module_find_parameter (GnnModule  *module,
                                             const char *name);
/* A new parameter (requires grad) of uninitialised values, for a layer's setup. */
GnnParameter     *gnn_module_new_parameter  (const gint64 *shape,
                                             guint         ndim,
                                             GnnDtype      dtype,
                                             GError      **error);

/* GnnModule:dtype: the dtype of the first floating-point parameter, else of the first
 * floating-point buffer, else the one given at construction (what a layer's setup creates
 * its tensors in). */
GnnDtype          gnn_module_dtype          (GnnModule      *self);
/* Marks a class whose setup reads GnnModule:dtype, so that module copies and the module
 * JSON keep it (for other classes it is GnnModule's own property, as training is). */
void              gnn_module_class_uses_dtype (GnnModuleClass *klass);
/* Whether a module of @type saves @pspec in a copy or the JSON: a read-write property of
 * its class, or GnnModule:dtype for a class that uses it. */
gboolean          gnn_module_property_is_saved (GType       type,
                                                GParamSpec *pspec);
/* Those properties (g_free the array): the class's own in order, dtype last. */
GParamSpec      **gnn_module_list_saved_properties (GType  type,
                                                    guint *n_pspecs);

/* g_object_new (@type, properties...) for a constructor that reports the module's failed
 * checks or setup through @error: the module, or NULL with @error set. */
gpointer          gnn_module_new_or_error   (GError        **error,
                                             GType           type,
                                             const char     *first_property_name,
                                             ...) G_GNUC_NULL_TERMINATED;

/* PyTorch's reset_parameters of Linear and of _ConvNd: the weight from kaiming_uniform_
 * (a = √5), the bias, where there is one, from U(-1/√fan_in, 1/√fan_in); @name names the
 * class in the error of a module without a weight (gnn-linear.c). */
gboolean          gnn_module_reset_kaiming_uniform (GnnModule  *module,
                                                    const char *name,
                                                    GError    **error);

/* A double as Python's repr (float) writes it, for extra_repr texts equal to PyTorch's
 * (gnn-activation.c). */
char             *gnn_python_float_repr   (double value);

/* The module at @target's prefix (@self when @target has no dot), @leaf pointing at its last
 * name; NULL with @error set when a step is missing. */
GnnModule        *gnn_module_owner_of     (GnnModule   *self,
                                           const char  *target,
                                           const char **leaf,
                                           GError     **error);

/* ---- tensor attributes (gnn-module-attributes.c) ----------------------------------------
 * What a layer's forward reads by name: a parameter, a buffer, a plain tensor attribute
 * (gnn_module_set_tensor_attribute; pruning's recomputed weight) or a computed one, whose
 * getter runs on every read (parametrizations). */
typedef struct _GnnModuleAttribute GnnModuleAttribute;

/* Computes the attribute @name of @module: a new reference, or NULL with @error set. */
typedef GnnTensor *(*GnnModuleTensorGetter) (GnnModule  *module,
                                             const char *name,
                                             gpointer    data,
                                             GError    **error);

/* For forward code: the tensor @name reads as on @self (not a dotted path), borrowed: a
 * computed value lives until the outermost gnn_module_forward of this thread returns (outside
 * a forward call, until the next read of the same attribute). NULL when nothing is there
 * (with @error set when @required) or when computing it failed (@error set). */
GnnTensor          *gnn_module_tensor             (GnnModule   *self,
                                                   const char  *name,
                                                   gboolean     required,
                                                   GError     **error);
/* Makes @name a computed attribute of @self (the name must be free: remove the parameter
 * first) or, with @getter NULL, removes it. @destroy frees @data when the attribute goes,
 * also when this call fails. */
gboolean            gnn_module_set_tensor_getter  (GnnModule            *self,
                                                   const char           *name,
                                                   GnnModuleTensorGetter getter,
                                                   gpointer              data,
                                                   GDestroyNotify        destroy,
                                                   GError              **error);
/* the data given with the getter of @name, or NULL when @name is not computed */
gpointer            gnn_module_get_tensor_getter_data (GnnModule  *self,
                                                       const char *name);
GnnModuleAttribute *gnn_module_find_attribute     (GnnModule   *self,
                                                   const char  *name);
void                gnn_module_attribute_free     (gpointer     attribute);
gboolean            gnn_module_copy_tensor_attributes (GnnModule *dst,
                                                       GnnModule *src,
                                                       GError   **error);
/* the number of computed attributes in the process (read atomically) */
extern gint         gnn_module_computed_attributes;
void                gnn_module_forward_scope_enter (void);
void                gnn_module_forward_scope_leave (void);

/* torch's _canonical_mask (gnn-attention.c): a bool mask as the float mask of @dtype (-inf
 * where True, 0 elsewhere), a float mask as it is (with @same_dtype, only of @dtype); NULL
 * stays NULL. @name names the layer in the error. */
gboolean          gnn_canonical_mask      (const char *name,
                                           const char *mask_name,
                                           GnnTensor  *mask,
                                           GnnDtype    dtype,
                                           gboolean    same_dtype,
                                           GnnTensor **out,
                                           GError    **error);

/* backward hooks (gnn-module-backward.c) */
typedef struct _GnnBackwardHookState GnnBackwardHookState;

/* Whether a call of @self needs backward hooks set up. */
gboolean              gnn_module_wants_backward_hooks (GnnModule *self);
/* Wraps the tensors of @input that require grad in an identity node whose backward runs the
 * module's backward hooks; replaces them in @input (a private copy). */
GnnBackwardHookState *gnn_backward_hooks_setup_input  (GnnModule *self,
                                                       GnnArgs   *input);
/* Wraps the output tensors that require grad; their node captures grad_output and runs the
 * backward pre-hooks. Consumes @state. */
void                  gnn_backward_hooks_setup_output (GnnBackwardHookState *state,
                                                       GnnArgs              *output);

/* Each file of layers makes its module types exist, for gnn_module_new_from_type_name() to find
 * them by name (a GType exists only once its get_type function has run); a new layer joins the
 * list at the end of its file. */
void gnn_linear_ensure_types     (void);
void gnn_activation_ensure_types (void);
void gnn_layers_ensure_types     (void);
void gnn_containers_ensure_types (void);
void gnn_norm_ensure_types       (void);
void gnn_conv_ensure_types       (void);
void gnn_pool_ensure_types       (void);
void gnn_rnn_ensure_types        (void);
void gnn_attention_ensure_types  (void);
void gnn_transformer_ensure_types (void);
void gnn_layers_more_ensure_types (void);

G_END_DECLS
