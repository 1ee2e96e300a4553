/* gnn-parameter.c: GnnParameter and GnnBuffer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "core/gnn-tensor-private.h"
#include "gnn-parameter.h"
#include "gnn-props-private.h"

/**
 * GnnParameter:
 *
 * A tensor that is a module parameter, as `torch.nn.Parameter`: it requires grad by default,
 * and a module that holds one lists it among its parameters and state.
 *
 * A parameter made from a tensor shares its storage and version counter (PyTorch's
 * `nn.Parameter (data)`), without its autograd history. It prints as PyTorch prints a
 * parameter, "Parameter containing:" and the tensor.
 */
struct _GnnParameter
{
  GnnTensor parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnParameter, gnn_parameter, GNN_TYPE_TENSOR)

static void
gnn_parameter_class_init (GnnParameterClass *klass)
{
  gnn_tensor_class_set_print_prefix (GNN_TYPE_PARAMETER, "Parameter containing:\n");
}

static void
gnn_parameter_init (GnnParameter *self)
{
}

/**
 * gnn_parameter_new:
 * @data: (nullable): the values; %NULL for an empty float32 tensor, as `nn.Parameter ()`
 * @requires_grad: whether the parameter requires grad (PyTorch's default is %TRUE)
 * @error: return location for a #GError
 *
 * Makes a parameter sharing @data's storage and version counter, as `nn.Parameter (data,
 * requires_grad)`.
 *
 * Returns: (transfer full): the parameter, or %NULL with @error set when @requires_grad is
 *   asked of a tensor that is not floating point
 */
GnnParameter *
gnn_parameter_new (GnnTensor *data,
                   gboolean   requires_grad,
                   GError   **error)
{
  g_autoptr(GnnTensor) empty = NULL;
  GnnParameter *self;

  g_return_val_if_fail (data == NULL || GNN_IS_TENSOR (data), NULL);
  if (data == NULL)
    {
      gint64 zero = 0;
      empty = gnn_tensor_new_empty (&zero, 1, GNN_DTYPE_FLOAT32, NULL, error);
      if (empty == NULL)
        return NULL;
      data = empty;
    }
  if (requires_grad && !gnn_dtype_is_floating (gnn_tensor_get_dtype (data)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "Only Tensors of floating point and complex dtype can require gradients, got %s",
                   gnn_dtype_get_name (gnn_tensor_get_dtype (data)));
      return NULL;
    }
  self = g_object_new (GNN_TYPE_PARAMETER, NULL);
  gnn_tensor_init_alias (GNN_TENSOR (self), data);
  gnn_tensor_priv (GNN_TENSOR (self))->requires_grad = requires_grad;
  return self;
}

/**
 * GnnBuffer:
 *
 * A tensor that is part of a module's state without being a parameter, as `torch.nn.Buffer`
 * (running statistics, step counters). A persistent buffer is in the module's state dict; a
 * non-persistent one moves with the module but is not saved.
 */
struct _GnnBuffer
{
  GnnTensor parent_instance;
  gboolean persistent;
};

enum {
  PROP_0,
  PROP_PERSISTENT,
  N_PROPS
};

static GnnProp buffer_props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnBuffer, gnn_buffer, GNN_TYPE_TENSOR)

static void
gnn_buffer_class_init (GnnBufferClass *klass)
{
  /**
   * GnnBuffer:persistent:
   *
   * Whether the buffer is part of the module's state dict.
   */
  buffer_props[PROP_PERSISTENT] = (GnnProp) {
    g_param_spec_boolean ("persistent", NULL, NULL, TRUE, GNN_PARAM_RW), G_STRUCT_OFFSET (GnnBuffer, persistent) };
  gnn_props_install (G_OBJECT_CLASS (klass), buffer_props, N_PROPS);
}

static void
gnn_buffer_init (GnnBuffer *self)
{
  self->persistent = TRUE;
}

/**
 * gnn_buffer_new:
 * @data: the values
 * @persistent: whether the buffer goes into the state dict
 *
 * Makes a buffer sharing @data's storage and version counter, without its autograd history,
 * as `nn.Buffer (data, persistent)`.
 *
 * Returns: (transfer full): the buffer
 */
GnnBuffer *
gnn_buffer_new (GnnTensor *data,
                gboolean   persistent)
{
  GnnBuffer *self;

  g_return_val_if_fail (GNN_IS_TENSOR (data), NULL);
  self = g_object_new (GNN_TYPE_BUFFER, NULL);
  gnn_tensor_init_alias (GNN_TENSOR (self), data);
  self->persistent = persistent;
  return self;
}

/**
 * gnn_buffer_get_persistent:
 * @self: a buffer
 *
 * Gets [property@Gnn.Buffer:persistent].
 *
 * Returns: whether the buffer is part of the state dict
 */
gboolean
gnn_buffer_get_persistent (GnnBuffer *self)
{
  g_return_val_if_fail (GNN_IS_BUFFER (self), FALSE);
  return self->persistent;
}

/**
 * gnn_buffer_set_persistent:
 * @self: a buffer
 * @persistent: whether the buffer is part of the state dict
 *
 * Sets [property@Gnn.Buffer:persistent].
 */
void
gnn_buffer_set_persistent (GnnBuffer *self,
                           gboolean   persistent)
{
  g_return_if_fail (GNN_IS_BUFFER (self));
  gnn_prop_set (self, &buffer_props[PROP_PERSISTENT], persistent);
}
