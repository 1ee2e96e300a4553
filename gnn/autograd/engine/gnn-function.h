/* gnn-function.h: custom autograd functions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../../gnn-version-macros.h"
#include "../../core/gnn-tensor.h"

G_BEGIN_DECLS

#define GNN_TYPE_FUNCTION (gnn_function_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnFunction, gnn_function, GNN, FUNCTION, GObject)

/**
 * GnnFunctionClass:
 * @parent_class: the parent class
 * @forward: computes the outputs from the inputs, with grad mode off; may call
 *   [method@Gnn.Function.save_for_backward]
 * @backward: computes one gradient per input (%NULL for none) from one gradient per output
 *
 * The virtual methods of [class@Gnn.Function]: PyTorch's `torch.autograd.Function`, whose
 * static `forward (ctx, ...)` and `backward (ctx, ...)` become these two methods, the instance
 * playing the part of `ctx`. Python subclasses override `do_forward` / `do_backward`, gjs
 * subclasses `vfunc_forward` / `vfunc_backward`, Vala subclasses `forward` / `backward`.
 */
struct _GnnFunctionClass
{
  GObjectClass parent_class;

  GPtrArray * (*forward)  (GnnFunction *self,
                           GPtrArray   *inputs,
                           GError     **error);
  GPtrArray * (*backward) (GnnFunction *self,
                           GPtrArray   *grad_outputs,
                           GError     **error);

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GPtrArray  *gnn_function_apply             (GnnFunction *self,
                                            GPtrArray   *inputs,
                                            GError     **error);
GNN_AVAILABLE_IN_ALL
GPtrArray  *gnn_function_forward           (GnnFunction *self,
                                            GPtrArray   *inputs,
                                            GError     **error);
GNN_AVAILABLE_IN_ALL
GPtrArray  *gnn_function_backward          (GnnFunction *self,
                                            GPtrArray   *grad_outputs,
                                            GError     **error);
GNN_AVAILABLE_IN_ALL
void        gnn_function_save_for_backward (GnnFunction *self,
                                            GPtrArray   *tensors);
GNN_AVAILABLE_IN_ALL
GPtrArray  *gnn_function_get_saved_tensors (GnnFunction *self,
                                            GError     **error);
GNN_AVAILABLE_IN_ALL
gboolean    gnn_function_needs_input_grad  (GnnFunction *self,
                                            guint        index);

G_END_DECLS
