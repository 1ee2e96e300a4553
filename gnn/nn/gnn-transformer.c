/* gnn-transformer.c: the Transformer layers (torch.nn.TransformerEncoderLayer, ...) and
 * gnn_transformer_generate_square_subsequent_mask
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each layer is a module tree of the layers torch builds it from (MultiheadAttention, Linear,
 * Dropout, LayerNorm), registered under torch's names in torch's order, so that state-dict
 * keys, printed forms and hooks are torch's. The forwards follow PyTorch 2's
 * torch/nn/modules/transformer.py (its slow path: the fused fast path only computes the same
 * thing faster) and call the children through gnn_module_forward; the backward comes from
 * autograd.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-args-private.h"
#include "gnn-module-private.h"
#include "gnn-props-private.h"
#include "core/gnn-tensor-private.h"
#include "gnn-attention.h"
#include "gnn-transformer.h"

/* ---- helpers ------------------------------------------------------------------------------ */

/**
 * gnn_transformer_generate_square_subsequent_mask:
 * @sz: the sequence length
 * @dtype: a floating-point dtype (%GNN_DTYPE_FLOAT32 in PyTorch)
 * @device: (nullable): the device, %NULL for the CPU
 * @error: return location for a #GError
 *
 * The causal mask of a sequence of @sz elements
 * (`torch.nn.Transformer.generate_square_subsequent_mask (sz)`): a (@sz, @sz) float mask with
 * -inf above the diagonal (position i does not attend the later positions j > i) and 0
 * elsewhere, as the @attn_mask of attention layers add it to the scores.
 *
 * Returns: (transfer full): the mask, or %NULL with @error set (a negative @sz, a dtype that is
 *   not floating-point)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_transformer_generate_square_subsequent_mask (gint64      sz,
                                                 GnnDtype    dtype,
                                                 const char *device,
                                                 GError    **error)
{
  g_autoptr(GnnTensor) full = NULL;

  if (sz < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "generate_square_subsequent_mask: Trying to create tensor with negative dimension %"
                   G_GINT64_FORMAT ": [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]", sz, sz, sz);
      return NULL;
    }
  if (!gnn_dtype_is_floating (dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "generate_square_subsequent_mask: expected a floating-point dtype (the mask holds -inf), "
                   "got %s", gnn_dtype_get_name (dtype));
      return NULL;
    }
  full = gnn_tensor_new_full ((const gint64[]) { sz, sz }, 2, -INFINITY, dtype, device, error);
  return full ? gnn_tensor_triu (full, 1, error) : NULL;
}

/* The forward argument @name at position @index or given as a keyword: *@t a tensor or NULL
 * (absent or None) */
static gboolean
tensor_argument (const char *layer,
                 GnnArgs    *input,
                 guint       index,
                 const char *name,
                 GnnTensor **t,
                 GError    **error)
{
  const GValue *v = gnn_args_get_kwarg (input, name);

  if (v == NULL && index < gnn_args_get_n_values (input))
    v = gnn_args_get_value (input, index);
  *t = NULL;
  if (v == NULL || (G_VALUE_HOLDS_OBJECT (v) && g_value_get_object (v) == NULL))
    return TRUE;
  if (G_VALUE_HOLDS_OBJECT (v) && GNN_IS_TENSOR (g_value_get_object (v)))
    {
      *t = g_value_get_object (v);
      return TRUE;
    }
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: %s: expected a tensor or None, got %s", layer,
               name, G_VALUE_TYPE_NAME (v));
  return FALSE;
}

/* Likewise a boolean hint: *@b is 1 or 0, or -1 for None (absent, or a NULL object) when
 * @fallback is -1, else @fallback */
static gboolean
hint_argument (const char *layer,
               GnnArgs    *input,
               guint       index,
               const char *name,
               int         fallback,
               int        *b,
               GError    **error)
{
  const GValue *v = gnn_args_get_kwarg (input, name);

  if (v == NULL && index < gnn_args_get_n_values (input))
    v = gnn_args_get_value (input, index);
  *b = fallback;
  if (v == NULL || (G_VALUE_HOLDS_OBJECT (v) && g_value_get_object (v) == NULL))
    return TRUE;
  if (G_VALUE_HOLDS_BOOLEAN (v))
    *b = g_value_get_boolean (v) ? 1 : 0;
  else if (G_VALUE_HOLDS_INT64 (v))
    *b = g_value_get_int64 (v) != 0;
  else if (G_VALUE_HOLDS_INT (v))
    *b = g_value_get_int (v) != 0;
  else
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: %s: expected a boolean or None, got %s",
                   layer, name, G_VALUE_TYPE_NAME (v));
      return FALSE;
    }
  return TRUE;
}

/* @module's child @name called on @x; the error names @layer */
static GnnTensor *
call_child (GnnModule  *module,
            const char *layer,
            const char *name,
            GnnTensor  *x,
            GError    **error)
{
  GnnModule *child = gnn_module_get_submodule (module, name, error);
  GnnTensor *y = child ? gnn_module_forward_tensor (child, x, error) : NULL;

  if (y == NULL)
    g_prefix_error (error, "%s: ", layer);
  return y;
}

/* @module's attention child @name on the queries @x and the keys and values @kv, without
 * weights (torch's _sa_block / _mha_block before their dropout) */
static GnnTensor *
attend (GnnModule  *module,
        const char *layer,
        const char *name,
        GnnTensor  *x,
        GnnTensor  *kv,
        GnnTensor  *attn_mask,
        GnnTensor  *key_padding_mask,
        gboolean    is_causal,
        GError    **error)
{
  GnnModule *attn = gnn_module_get_submodule (module, name, error);
  g_autoptr(GnnArgs) in = NULL, out = NULL;
  GnnTensor *y;

  if (attn == NULL)
    {
      g_prefix_error (error, "%s: ", layer);
      return NULL;
    }
  in = gnn_args_new ();
  gnn_args_add_tensor (in, x);
  gnn_args_add_tensor (in, kv);
  gnn_args_add_tensor (in, kv);
  gnn_args_add_tensor (in, key_padding_mask);
  gnn_args_add_boolean (in, FALSE);       /* need_weights */
  gnn_args_add_tensor (in, attn_mask);
  gnn_args_add_boolean (in, TRUE);        /* average_attn_weights */
  gnn_args_add_boolean (in, is_causal);
  if (!(out = gnn_module_forward (attn, in, error)) || !(y = gnn_args_get_tensor (out, 0, error)))
    {
      g_prefix_error (error, "%s: ", layer);
      return NULL;
    }
  return g_object_ref (y);
}

/* replaces *@t by @next (NULL: a failed op); FALSE when @next is NULL */
static gboolean
replace (GnnTensor **t,
         GnnTensor  *next)
{
  if (next == NULL)
    return FALSE;
  g_clear_object (t);
  *t = next;
  return TRUE;
}

/* *@x = *@x + @y, taking @y; FALSE for a NULL @y or a failed add */
static gboolean
add_residual (GnnTensor **x,
              GnnTensor  *y,
              GError    **error)
{
  g_autoptr(GnnTensor) taken = y;

  return y != NULL && replace (x, gnn_tensor_add (*x, y, 1.0, error));
}

/* a feature size (the last dimension) other than @d_model is an error naming @layer, @what
 * and its shape */
static gboolean
check_features (const char *layer,
                const char *what,
                GnnTensor  *t,
                int         d_model,
                GError    **error)
{
  guint nd;
  const gint64 *shape = gnn_tensor_get_shape (t, &nd);

  if (nd != 2 && nd != 3)
    {
      g_autofree char *s = gnn_shape_to_string (nd, shape);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected %s to be an unbatched 2-D or a batched 3-D tensor, got %s of shape %s", layer,
                   what, what, s);
      return FALSE;
    }
  if (shape[nd - 1] != d_model)
    {
      g_autofree char *s = gnn_shape_to_string (nd, shape);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected %s with d_model=%d features in its last dimension, got %s of shape %s", layer,
                   what, d_model, what, s);
      return FALSE;
    }
  return TRUE;
}

/* torch's _detect_is_causal_mask: @hint when given (0 or 1); for None (-1), whether @mask is
 * the (@size, @size) causal mask (-inf above the diagonal, 0 elsewhere; True above the
 * diagonal and False elsewhere for a bool mask) */
static gboolean
detect_is_causal (GnnTensor *mask,
                  int        hint,
                  gint64     size,
                  gboolean  *is_causal,
                  GError   **error)
{
  g_autofree double *v = NULL;
  gboolean is_bool;

  *is_causal = hint == 1;
  if (hint != -1 || mask == NULL)
    return TRUE;
  if (gnn_tensor_get_ndim (mask) != 2 || gnn_tensor_get_size (mask, 0, NULL) != size ||
      gnn_tensor_get_size (mask, 1, NULL) != size)
    return TRUE;
  if (!(v = gnn_tensor_to_doubles (mask, NULL, error)))
    return FALSE;
  is_bool = gnn_tensor_get_dtype (mask) == GNN_DTYPE_BOOL;
  for (gint64 i = 0; i < size; i++)
    for (gint64 j = 0; j < size; j++)
      {
        double x = v[i * size + j];

        if (j > i ? !(is_bool ? x != 0 : isinf (x) && x < 0) : x != 0)
          return TRUE;
      }
  *is_causal = TRUE;
  return TRUE;
}

/* the sequence length of @src (torch's _get_seq_len) */
static gint64
seq_len (GnnTensor *src,
         gboolean   batch_first)
{
  if (gnn_tensor_get_ndim (src) == 2)
    return gnn_tensor_get_size (src, 0, NULL);
  return gnn_tensor_get_size (src, batch_first ? 1 : 0, NULL);
}

static void
set_kwarg_tensor (GnnArgs    *args,
                  const char *name,
                  GnnTensor  *t)
{
  GValue v = G_VALUE_INIT;

  g_value_init (&v, GNN_TYPE_TENSOR);
  g_value_set_object (&v, t);
  gnn_args_set_kwarg (args, name, &v);
  g_value_unset (&v);
}

static void
set_kwarg_boolean (GnnArgs    *args,
                   const char *name,
                   gboolean    b)
{
  GValue v = G_VALUE_INIT;

  g_value_init (&v, G_TYPE_BOOLEAN);
  g_value_set_boolean (&v, b);
  gnn_args_set_kwarg (args, name, &v);
  g_value_unset (&v);
}

/* the layers of @module's ModuleList `layers` (borrowed), NULL with @error set when missing */
static GnnModuleList *
layers_of (GnnModule  *module,
           const char *name,
           GError    **error)
{
  GnnModule *layers = gnn_module_get_submodule (module, "layers", error);

  if (layers == NULL || !GNN_IS_MODULE_LIST (layers))
    {
      g_clear_error (error);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: expected a ModuleList `layers`", name);
      return NULL;
    }
  return GNN_MODULE_LIST (layers);
}

/* whether the first of @layers is batch-first (its self_attn's batch_first, as torch reads it) */
static gboolean
first_batch_first (GnnModuleList *layers)
{
  GnnModule *first, *attn;
  gboolean bf = FALSE;

  if (gnn_module_list_get_length (layers) == 0)
    return FALSE;
  first = gnn_module_list_get (layers, 0, NULL);
  attn = first ? gnn_module_get_submodule (first, "self_attn", NULL) : NULL;
  if (attn && g_object_class_find_property (G_OBJECT_GET_CLASS (attn), "batch-first"))
    g_object_get (attn, "batch-first", &bf, NULL);
  return bf;
}

/* the layers and the norm of an encoder or a decoder: `layers`, @n copies of @layer (torch's
 * _get_clones: equal values, no parameter shared), and `norm` when given */
static gboolean
stack_setup (GnnModule  *module,
             const char *name,
             GnnModule  *layer,
             int         n,
             GnnModule  *norm,
             GError    **error)
{
  g_autoptr(GnnModuleList) layers = NULL;

  if (n < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: num_layers must be non-negative, got %d",
                   name, n);
      return FALSE;
    }
  layers = gnn_module_list_new (NULL, 0);
  /* without a layer (a copy of the module, or its JSON tree), the layers come as children */
  for (int i = 0; layer && i < n; i++)
    {
      g_autoptr(GnnModule) copy = gnn_module_copy (layer, error);

      if (copy == NULL)
        {
          g_prefix_error (error, "%s: ", name);
          return FALSE;
        }
      gnn_module_list_append (layers, copy);
    }
  if (!gnn_module_register_module (module, "layers", GNN_MODULE (layers), error))
    return FALSE;
  return norm == NULL || gnn_module_register_module (module, "norm", norm, error);
}

/* the `norm` child, if any, on *@x */
static gboolean
apply_norm (GnnModule  *module,
            const char *name,
            GnnTensor **x,
            GError    **error)
{
  GnnModule *norm = gnn_module_get_submodule (module, "norm", NULL);

  return norm == NULL || replace (x, call_child (module, name, "norm", *x, error));
}

/* ---- the layers' shared configuration ------------------------------------------------------ */

/* the hyperparameters of TransformerEncoderLayer and TransformerDecoderLayer */
typedef struct {
  int d_model;
  int nhead;
  int dim_feedforward;
  double dropout;
  char *activation;
  GnnModule *activation_module;
  double layer_norm_eps;
  gboolean batch_first;
  gboolean norm_first;
} LayerConfig;

enum {
  LAYER_PROP_0,
  LAYER_PROP_D_MODEL,
  LAYER_PROP_NHEAD,
  LAYER_PROP_DIM_FEEDFORWARD,
  LAYER_PROP_DROPOUT,
  LAYER_PROP_ACTIVATION,
  LAYER_PROP_ACTIVATION_MODULE,
  LAYER_PROP_LAYER_NORM_EPS,
  LAYER_PROP_BATCH_FIRST,
  LAYER_PROP_NORM_FIRST,
  LAYER_N_PROPS
};

/* the layer properties in props[1 .. LAYER_N_PROPS - 1], for a member LayerConfig at @base */
static void
fill_layer_props (GnnProp *props,
                  gssize   base,
                  int      d_model_default,
                  int      nhead_default)
{
  const GParamFlags co = GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY;

  props[LAYER_PROP_D_MODEL] = (GnnProp) {
    g_param_spec_int ("d-model", NULL, NULL, G_MININT, G_MAXINT, d_model_default, co),
    base + G_STRUCT_OFFSET (LayerConfig, d_model) };
  props[LAYER_PROP_NHEAD] = (GnnProp) {
    g_param_spec_int ("nhead", NULL, NULL, G_MININT, G_MAXINT, nhead_default, co),
    base + G_STRUCT_OFFSET (LayerConfig, nhead) };
  props[LAYER_PROP_DIM_FEEDFORWARD] = (GnnProp) {
    g_param_spec_int ("dim-feedforward", NULL, NULL, G_MININT, G_MAXINT, 2048, co),
    base + G_STRUCT_OFFSET (LayerConfig, dim_feedforward) };
  props[LAYER_PROP_DROPOUT] = (GnnProp) {
    gnn_param_spec_double ("dropout", 0.1, co),
    base + G_STRUCT_OFFSET (LayerConfig, dropout) };
  props[LAYER_PROP_ACTIVATION] = (GnnProp) {
    g_param_spec_string ("activation", NULL, NULL, "relu", co),
    base + G_STRUCT_OFFSET (LayerConfig, activation) };
  props[LAYER_PROP_ACTIVATION_MODULE] = (GnnProp) {
    g_param_spec_object ("activation-module", NULL, NULL, GNN_TYPE_MODULE,
                         G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY |
                         G_PARAM_CONSTRUCT_ONLY),
    base + G_STRUCT_OFFSET (LayerConfig, activation_module) };
  props[LAYER_PROP_LAYER_NORM_EPS] = (GnnProp) {
    gnn_param_spec_double ("layer-norm-eps", 1e-5, co),
    base + G_STRUCT_OFFSET (LayerConfig, layer_norm_eps) };
  props[LAYER_PROP_BATCH_FIRST] = (GnnProp) {
    g_param_spec_boolean ("batch-first", NULL, NULL, FALSE, co),
    base + G_STRUCT_OFFSET (LayerConfig, batch_first) };
  props[LAYER_PROP_NORM_FIRST] = (GnnProp) {
    g_param_spec_boolean ("norm-first", NULL, NULL, FALSE, co),
    base + G_STRUCT_OFFSET (LayerConfig, norm_first) };
}

static void
install_layer_props (GObjectClass *klass,
                     GnnProp      *props,
                     gssize        base)
{
  fill_layer_props (props, base, 0, 1);
  gnn_props_install (klass, props, LAYER_N_PROPS);
}

/* registers a new module of @type with the properties that follow as @name */
static gboolean
add_child (GnnModule  *module,
           const char *name,
           GnnModule  *child,
           GError    **error)
{
  g_autoptr(GnnModule) taken = child;

  return child != NULL && gnn_module_register_module (module, name, child, error);
}

static GnnModule *
new_attention (const LayerConfig *c,
               GnnDtype           dtype,
               GError           **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_MULTIHEAD_ATTENTION, "embed-dim", c->d_model, "num-heads", c->nhead,
                                  "dropout", c->dropout, "batch-first", c->batch_first, "dtype", dtype, NULL);
}

static GnnModule *
new_layer_norm (const LayerConfig *c,
                GnnDtype           dtype,
                GError           **error)
{
  gint64 shape[1] = { c->d_model };

  return GNN_MODULE (gnn_layer_norm_new_full (shape, 1, c->layer_norm_eps, TRUE, dtype, error));
}

static GnnModule *
new_dropout (const LayerConfig *c,
             GError           **error)
{
  return GNN_MODULE (gnn_dropout_new (c->dropout, error));
}

/* the checks of torch's constructors, then self_attn (and, for a decoder layer,
 * multihead_attn), linear1, dropout, linear2, norm1..n, dropout1..n and the activation
 * module, in torch's order */
static gboolean
layer_setup (GnnModule         *module,
             const LayerConfig *c,
             const char        *layer,
             guint              n_blocks,
             GError           **error)
{
  GnnDtype dtype = gnn_module_dtype (module);
  char name[16];

  if (c->d_model <= 0 || c->nhead <= 0 || c->dim_feedforward <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: d_model, nhead and dim_feedforward must be greater than 0, got d_model=%d, nhead=%d and "
                   "dim_feedforward=%d", layer, c->d_model, c->nhead, c->dim_feedforward);
      return FALSE;
    }
  if (c->d_model % c->nhead != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: embed_dim must be divisible by num_heads, got d_model=%d and nhead=%d", layer, c->d_model,
                   c->nhead);
      return FALSE;
    }
  if (c->activation_module == NULL && g_strcmp0 (c->activation, "relu") != 0 &&
      g_strcmp0 (c->activation, "gelu") != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: activation should be relu/gelu, not %s",
                   layer, c->activation ? c->activation : "None");
      return FALSE;
    }
  if (!add_child (module, "self_attn", new_attention (c, dtype, error), error) ||
      (n_blocks == 3 && !add_child (module, "multihead_attn", new_attention (c, dtype, error), error)) ||
      !add_child (module, "linear1", GNN_MODULE (gnn_linear_new_with_dtype (c->d_model, c->dim_feedforward, TRUE,
                                                                           dtype, error)), error) ||
      !add_child (module, "dropout", new_dropout (c, error), error) ||
      !add_child (module, "linear2", GNN_MODULE (gnn_linear_new_with_dtype (c->dim_feedforward, c->d_model, TRUE,
                                                                           dtype, error)), error))
    return FALSE;
  for (guint i = 1; i <= n_blocks; i++)
    {
      g_snprintf (name, sizeof name, "norm%u", i);
      if (!add_child (module, name, new_layer_norm (c, dtype, error), error))
        return FALSE;
    }
  for (guint i = 1; i <= n_blocks; i++)
    {
      g_snprintf (name, sizeof name, "dropout%u", i);
      if (!add_child (module, name, new_dropout (c, error), error))
        return FALSE;
    }
  return c->activation_module == NULL ||
         gnn_module_register_module (module, "activation", c->activation_module, error);
}

/* torch's _ff_block: dropout@n (linear2 (dropout (activation (linear1 (x))))) */
static GnnTensor *
feed_forward (GnnModule         *module,
              const LayerConfig *c,
              const char        *layer,
              const char        *last_dropout,
              GnnTensor         *x,
              GError           **error)
{
  g_autoptr(GnnTensor) h = call_child (module, layer, "linear1", x, error);
  GnnModule *activation;

  if (h == NULL)
    return NULL;
  /* a module given as the activation is the child "activation" (also in copies, which
   * receive it as a child) */
  activation = gnn_module_get_submodule (module, "activation", NULL);
  if (activation)
    {
      if (!replace (&h, gnn_module_forward_tensor (activation, h, error)))
        {
          g_prefix_error (error, "%s: ", layer);
          return NULL;
        }
    }
  else if (!replace (&h, g_strcmp0 (c->activation, "gelu") == 0 ? gnn_tensor_gelu (h, "none", error)
                                                                  : gnn_tensor_relu (h, error)))
    return NULL;
  if (!replace (&h, call_child (module, layer, "dropout", h, error)) ||
      !replace (&h, call_child (module, layer, "linear2", h, error)))
    return NULL;
  return call_child (module, layer, last_dropout, h, error);
}

/* ---- TransformerEncoderLayer ---------------------------------------------------------------- */

/**
 * GnnTransformerEncoderLayer:
 *
 * One layer of a Transformer's encoder, as `torch.nn.TransformerEncoderLayer`: self-attention
 * and a feed-forward block (two linear layers with an activation between them), each around
 * a residual connection and a layer normalization:
 *
 *     x = norm1 (x + dropout1 (self_attn (x, x, x)))
 *     x = norm2 (x + dropout2 (linear2 (dropout (activation (linear1 (x))))))
 *
 * or, with [property@Gnn.TransformerEncoderLayer:norm-first], the normalization first:
 * `x = x + dropout1 (self_attn (norm1 (x), ...))`, then `x = x + ff (norm2 (x))`.
 *
 * Its children are torch's, in torch's order, so that its state-dict keys and printed form
 * are torch's: `self_attn` (a [class@Gnn.MultiheadAttention]), `linear1`, `dropout`,
 * `linear2`, `norm1`, `norm2`, `dropout1`, `dropout2`, and `activation` when the activation
 * is a module ([property@Gnn.TransformerEncoderLayer:activation-module]).
 *
 * The forward takes `src` ((S, N, E), (N, S, E) with batch_first, or unbatched (S, E)), then
 * `src_mask` ((S, S) or (N · nhead, S, S), bool or float as
 * [class@Gnn.MultiheadAttention]'s attn_mask), `src_key_padding_mask` ((N, S) or
 * (S)) and `is_causal` (PyTorch 2's hint that src_mask is the causal mask, which must still
 * be given), positionally or as keywords, and returns the output of src's shape.
 *
 * Since: 0.1
 */
struct _GnnTransformerEncoderLayer
{
  GnnModule parent_instance;

  LayerConfig c;
};

G_DEFINE_FINAL_TYPE (GnnTransformerEncoderLayer, gnn_transformer_encoder_layer, GNN_TYPE_MODULE)

static GnnProp encoder_layer_props[LAYER_N_PROPS];

static gboolean
gnn_transformer_encoder_layer_setup (GnnModule *module,
                                     GError   **error)
{
  if (!GNN_MODULE_CLASS (gnn_transformer_encoder_layer_parent_class)->setup (module, error))
    return FALSE;
  return layer_setup (module, &GNN_TRANSFORMER_ENCODER_LAYER (module)->c, "TransformerEncoderLayer", 2, error);
}

static GnnArgs *
gnn_transformer_encoder_layer_forward (GnnModule *module,
                                       GnnArgs   *input,
                                       GError   **error)
{
  static const char layer[] = "TransformerEncoderLayer";
  LayerConfig *c = &GNN_TRANSFORMER_ENCODER_LAYER (module)->c;
  GnnTensor *src, *mask, *kpm;
  int is_causal;
  g_autoptr(GnnTensor) x = NULL;

  if (!(src = gnn_args_first_tensor (input, layer, error)) ||
      !tensor_argument (layer, input, 1, "src_mask", &mask, error) ||
      !tensor_argument (layer, input, 2, "src_key_padding_mask", &kpm, error) ||
      !hint_argument (layer, input, 3, "is_causal", 0, &is_causal, error) ||
      !check_features (layer, "src", src, c->d_model, error))
    return NULL;
  x = g_object_ref (src);
  if (c->norm_first)
    {
      g_autoptr(GnnTensor) n1 = call_child (module, layer, "norm1", x, error);
      g_autoptr(GnnTensor) a = n1 ? attend (module, layer, "self_attn", n1, n1, mask, kpm, is_causal, error) : NULL;
      g_autoptr(GnnTensor) n2 = NULL;

      if (!add_residual (&x, a ? call_child (module, layer, "dropout1", a, error) : NULL, error) ||
          !(n2 = call_child (module, layer, "norm2", x, error)) ||
          !add_residual (&x, feed_forward (module, c, layer, "dropout2", n2, error), error))
        return NULL;
    }
  else
    {
      g_autoptr(GnnTensor) a = attend (module, layer, "self_attn", x, x, mask, kpm, is_causal, error);

      if (!add_residual (&x, a ? call_child (module, layer, "dropout1", a, error) : NULL, error) ||
          !replace (&x, call_child (module, layer, "norm1", x, error)) ||
          !add_residual (&x, feed_forward (module, c, layer, "dropout2", x, error), error) ||
          !replace (&x, call_child (module, layer, "norm2", x, error)))
        return NULL;
    }
  return gnn_args_take_tensor (g_steal_pointer (&x));
}

static void
gnn_transformer_encoder_layer_class_init (GnnTransformerEncoderLayerClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_transformer_encoder_layer_setup;
  module_class->forward = gnn_transformer_encoder_layer_forward;

  /**
   * GnnTransformerEncoderLayer:d-model:
   *
   * The number of features E of the input and the output (`d_model`).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerEncoderLayer:nhead:
   *
   * The number of attention heads (`nhead`), dividing d_model.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerEncoderLayer:dim-feedforward:
   *
   * The width of the feed-forward block (`dim_feedforward`, 2048 by default).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerEncoderLayer:dropout:
   *
   * The probability of every dropout of the layer, the attention's included (`dropout`, 0.1 by
   * default).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerEncoderLayer:activation:
   *
   * The activation of the feed-forward block, "relu" (the default) or "gelu" (the exact
   * formula), unless [property@Gnn.TransformerEncoderLayer:activation-module] gives a module.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerEncoderLayer:activation-module:
   *
   * A module to use as the activation instead (torch's `activation` given a module or a
   * callable): the layer registers it as its last child, `activation`. Write-only: the layer
   * keeps it as that child, and copies of the layer receive a copy of it as theirs.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerEncoderLayer:layer-norm-eps:
   *
   * The eps of the layer normalizations (`layer_norm_eps`, 1e-5 by default).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerEncoderLayer:batch-first:
   *
   * Whether batched inputs and outputs are (N, S, E) instead of (S, N, E) (`batch_first`).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerEncoderLayer:norm-first:
   *
   * Whether the layer normalizations come before the attention and feed-forward blocks
   * instead of after the residual additions (`norm_first`).
   *
   * Since: 0.1
   */
  install_layer_props (G_OBJECT_CLASS (klass), encoder_layer_props, G_STRUCT_OFFSET (GnnTransformerEncoderLayer, c));
  gnn_module_class_uses_dtype (module_class);
}

static void
gnn_transformer_encoder_layer_init (GnnTransformerEncoderLayer *self)
{
}

/**
 * gnn_transformer_encoder_layer_new:
 * @d_model: the number of features of the input
 * @nhead: the number of attention heads, dividing @d_model
 * @error: return location for a #GError
 *
 * Creates an encoder layer (`nn.TransformerEncoderLayer (d_model, nhead)`); the other
 * arguments are properties for g_object_new ().
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTransformerEncoderLayer *
gnn_transformer_encoder_layer_new (int      d_model,
                                   int      nhead,
                                   GError **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_TRANSFORMER_ENCODER_LAYER, "d-model", d_model, "nhead", nhead,
                                  NULL);
}

/* ---- TransformerEncoder ------------------------------------------------------------------- */

/**
 * GnnTransformerEncoder:
 *
 * A stack of encoder layers, as `torch.nn.TransformerEncoder`: `layers`, a
 * [class@Gnn.ModuleList] of [property@Gnn.TransformerEncoder:num-layers] copies of
 * [property@Gnn.TransformerEncoder:encoder-layer] (independent parameters starting with equal
 * values, as torch's deep copies), run in turn, then `norm` when one is given. State-dict
 * keys are torch's: `layers.0.self_attn.in_proj_weight`, ..., `norm.weight`.
 *
 * The forward takes `src`, `mask`, `src_key_padding_mask` and `is_causal` (positionally or
 * as keywords) as PyTorch 2's: bool masks become float masks of src's dtype, is_causal None
 * (absent) is found out from the mask (the causal mask of src's length), and every layer is
 * called with the keywords `src_mask`, `src_key_padding_mask` and `is_causal`.
 *
 * PyTorch's fast path (nested tensors in inference) is not taken: its result is the same,
 * except that with `src_key_padding_mask` torch then gives zeros at the padded positions
 * where gnn gives what the layers compute there.
 *
 * Since: 0.1
 */
struct _GnnTransformerEncoder
{
  GnnModule parent_instance;

  GnnModule *encoder_layer;
  int num_layers;
  GnnModule *norm;
  gboolean enable_nested_tensor;
  gboolean mask_check;
};

G_DEFINE_FINAL_TYPE (GnnTransformerEncoder, gnn_transformer_encoder, GNN_TYPE_MODULE)

enum {
  ENC_PROP_0,
  ENC_PROP_ENCODER_LAYER,
  ENC_PROP_NUM_LAYERS,
  ENC_PROP_NORM,
  ENC_PROP_ENABLE_NESTED_TENSOR,
  ENC_PROP_MASK_CHECK,
  ENC_N_PROPS
};

static GnnProp encoder_props[ENC_N_PROPS];

static gboolean
gnn_transformer_encoder_setup (GnnModule *module,
                               GError   **error)
{
  GnnTransformerEncoder *self = GNN_TRANSFORMER_ENCODER (module);
  gboolean ok;

  if (!GNN_MODULE_CLASS (gnn_transformer_encoder_parent_class)->setup (module, error))
    return FALSE;
  ok = stack_setup (module, "TransformerEncoder", self->encoder_layer, self->num_layers, self->norm, error);
  /* the prototype is copied: the encoder keeps no reference to it (torch neither) */
  g_clear_object (&self->encoder_layer);
  g_clear_object (&self->norm);
  return ok;
}

static GnnArgs *
gnn_transformer_encoder_forward (GnnModule *module,
                                 GnnArgs   *input,
                                 GError   **error)
{
  static const char name[] = "TransformerEncoder";
  GnnTensor *src, *mask_in, *kpm_in;
  g_autoptr(GnnTensor) mask = NULL, kpm = NULL, x = NULL;
  GnnModuleList *layers;
  int hint;
  gboolean is_causal;
  GnnDtype dtype;

  if (!(src = gnn_args_first_tensor (input, name, error)) ||
      !tensor_argument (name, input, 1, "mask", &mask_in, error) ||
      !tensor_argument (name, input, 2, "src_key_padding_mask", &kpm_in, error) ||
      !hint_argument (name, input, 3, "is_causal", -1, &hint, error) ||
      !(layers = layers_of (module, name, error)))
    return NULL;
  dtype = gnn_tensor_get_dtype (src);
  if (!gnn_canonical_mask (name, "src_key_padding_mask", kpm_in, dtype, FALSE, &kpm, error) ||
      !gnn_canonical_mask (name, "mask", mask_in, dtype, FALSE, &mask, error) ||
      !detect_is_causal (mask, hint, seq_len (src, first_batch_first (layers)), &is_causal, error))
    return NULL;
  x = g_object_ref (src);
  for (guint i = 0; i < gnn_module_list_get_length (layers); i++)
    {
      GnnModule *layer = gnn_module_list_get (layers, i, error);
      g_autoptr(GnnArgs) in = NULL, out = NULL;
      GnnTensor *y;

      if (layer == NULL)
        return NULL;
      in = gnn_args_new_tensor (x);
      set_kwarg_tensor (in, "src_mask", mask);
      set_kwarg_boolean (in, "is_causal", is_causal);
      set_kwarg_tensor (in, "src_key_padding_mask", kpm);
      if (!(out = gnn_module_forward (layer, in, error)) || !(y = gnn_args_get_tensor (out, 0, error)))
        {
          g_prefix_error (error, "%s: layers.%u: ", name, i);
          return NULL;
        }
      g_set_object (&x, y);
    }
  if (!apply_norm (module, name, &x, error))
    return NULL;
  return gnn_args_take_tensor (g_steal_pointer (&x));
}

static void
gnn_transformer_encoder_class_init (GnnTransformerEncoderClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  const GParamFlags wo = G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_CONSTRUCT_ONLY;

  module_class->setup = gnn_transformer_encoder_setup;
  module_class->forward = gnn_transformer_encoder_forward;

  /**
   * GnnTransformerEncoder:encoder-layer:
   *
   * The layer (`encoder_layer`) that the encoder copies
   * [property@Gnn.TransformerEncoder:num-layers] times into `layers`. Write-only: the encoder
   * keeps the copies, not the layer.
   *
   * Since: 0.1
   */
  encoder_props[ENC_PROP_ENCODER_LAYER] = (GnnProp) {
    g_param_spec_object ("encoder-layer", NULL, NULL, GNN_TYPE_MODULE, wo),
    G_STRUCT_OFFSET (GnnTransformerEncoder, encoder_layer) };

  /**
   * GnnTransformerEncoder:num-layers:
   *
   * The number of layers (`num_layers`).
   *
   * Since: 0.1
   */
  encoder_props[ENC_PROP_NUM_LAYERS] = (GnnProp) {
    g_param_spec_int ("num-layers", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnTransformerEncoder, num_layers) };

  /**
   * GnnTransformerEncoder:norm:
   *
   * A module applied to the last layer's output (`norm`, a [class@Gnn.LayerNorm] in
   * `nn.Transformer`), registered as the child `norm`; %NULL for none. Write-only:
   * the encoder keeps it as that child.
   *
   * Since: 0.1
   */
  encoder_props[ENC_PROP_NORM] = (GnnProp) {
    g_param_spec_object ("norm", NULL, NULL, GNN_TYPE_MODULE, wo),
    G_STRUCT_OFFSET (GnnTransformerEncoder, norm) };

  /**
   * GnnTransformerEncoder:enable-nested-tensor:
   *
   * torch's `enable_nested_tensor`, accepted and kept but without effect: gnn has no nested
   * tensors and never takes PyTorch's fast path (see [class@Gnn.TransformerEncoder]).
   *
   * Since: 0.1
   */
  encoder_props[ENC_PROP_ENABLE_NESTED_TENSOR] = (GnnProp) {
    g_param_spec_boolean ("enable-nested-tensor", NULL, NULL, TRUE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnTransformerEncoder, enable_nested_tensor) };

  /**
   * GnnTransformerEncoder:mask-check:
   *
   * torch's `mask_check` (whether the fast path checks that the padding is left-aligned),
   * accepted and kept but without effect, as
   * [property@Gnn.TransformerEncoder:enable-nested-tensor].
   *
   * Since: 0.1
   */
  encoder_props[ENC_PROP_MASK_CHECK] = (GnnProp) {
    g_param_spec_boolean ("mask-check", NULL, NULL, TRUE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnTransformerEncoder, mask_check) };

  gnn_props_install (G_OBJECT_CLASS (klass), encoder_props, ENC_N_PROPS);
}

static void
gnn_transformer_encoder_init (GnnTransformerEncoder *self)
{
  self->enable_nested_tensor = TRUE;
  self->mask_check = TRUE;
}

/**
 * gnn_transformer_encoder_new:
 * @encoder_layer: the layer to copy @num_layers times
 * @num_layers: the number of layers
 * @norm: (nullable): a module applied to the output of the last layer, or %NULL
 * @error: return location for a #GError
 *
 * Creates an encoder (`nn.TransformerEncoder (encoder_layer, num_layers, norm)`) of
 * @num_layers copies of @encoder_layer, which it does not keep.
 *
 * Returns: (transfer full): the encoder, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTransformerEncoder *
gnn_transformer_encoder_new (GnnModule  *encoder_layer,
                             int         num_layers,
                             GnnModule  *norm,
                             GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (encoder_layer), NULL);
  g_return_val_if_fail (norm == NULL || GNN_IS_MODULE (norm), NULL);
  return gnn_module_new_or_error (error, GNN_TYPE_TRANSFORMER_ENCODER, "encoder-layer", encoder_layer,
                                  "num-layers", num_layers, "norm", norm, NULL);
}

/* ---- TransformerDecoderLayer ---------------------------------------------------------------- */

/**
 * GnnTransformerDecoderLayer:
 *
 * One layer of a Transformer's decoder, as `torch.nn.TransformerDecoderLayer`:
 * self-attention over the targets, attention from the targets to the encoder's output
 * (the memory) and a feed-forward block, each around a residual connection and a layer
 * normalization:
 *
 *     x = norm1 (x + dropout1 (self_attn (x, x, x)))
 *     x = norm2 (x + dropout2 (multihead_attn (x, memory, memory)))
 *     x = norm3 (x + dropout3 (linear2 (dropout (activation (linear1 (x))))))
 *
 * or, with [property@Gnn.TransformerDecoderLayer:norm-first], each normalization first.
 *
 * Its children are torch's, in torch's order: `self_attn`, `multihead_attn`, `linear1`,
 * `dropout`, `linear2`, `norm1`, `norm2`, `norm3`, `dropout1`, `dropout2`, `dropout3`, and
 * `activation` when the activation is a module.
 *
 * The forward takes `tgt` ((T, N, E), (N, T, E) with batch_first, or (T, E)), `memory`
 * ((S, N, E), ...), then `tgt_mask`, `memory_mask`, `tgt_key_padding_mask`,
 * `memory_key_padding_mask`, `tgt_is_causal` and `memory_is_causal` (PyTorch 2's hints that
 * the masks are causal, which must still be given), positionally or as keywords.
 *
 * Since: 0.1
 */
struct _GnnTransformerDecoderLayer
{
  GnnModule parent_instance;

  LayerConfig c;
};

G_DEFINE_FINAL_TYPE (GnnTransformerDecoderLayer, gnn_transformer_decoder_layer, GNN_TYPE_MODULE)

static GnnProp decoder_layer_props[LAYER_N_PROPS];

static gboolean
gnn_transformer_decoder_layer_setup (GnnModule *module,
                                     GError   **error)
{
  if (!GNN_MODULE_CLASS (gnn_transformer_decoder_layer_parent_class)->setup (module, error))
    return FALSE;
  return layer_setup (module, &GNN_TRANSFORMER_DECODER_LAYER (module)->c, "TransformerDecoderLayer", 3, error);
}

/* *@x = *@x + dropout@n (@block), taking @block */
static gboolean
add_block (GnnModule  *module,
           const char *layer,
           const char *dropout,
           GnnTensor **x,
           GnnTensor  *block,
           GError    **error)
{
  g_autoptr(GnnTensor) taken = block;

  return block != NULL && add_residual (x, call_child (module, layer, dropout, block, error), error);
}

static GnnArgs *
gnn_transformer_decoder_layer_forward (GnnModule *module,
                                       GnnArgs   *input,
                                       GError   **error)
{
  static const char layer[] = "TransformerDecoderLayer";
  LayerConfig *c = &GNN_TRANSFORMER_DECODER_LAYER (module)->c;
  GnnTensor *tgt, *memory, *tgt_mask, *memory_mask, *tgt_kpm, *memory_kpm;
  int tgt_causal, memory_causal;
  g_autoptr(GnnTensor) x = NULL;

  if (!(tgt = gnn_args_first_tensor (input, layer, error)))
    return NULL;
  if (gnn_args_get_n_values (input) < 2 && !gnn_args_has_kwarg (input, "memory"))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: forward takes tgt and memory, got tgt only",
                   layer);
      return NULL;
    }
  if (!tensor_argument (layer, input, 1, "memory", &memory, error) ||
      !tensor_argument (layer, input, 2, "tgt_mask", &tgt_mask, error) ||
      !tensor_argument (layer, input, 3, "memory_mask", &memory_mask, error) ||
      !tensor_argument (layer, input, 4, "tgt_key_padding_mask", &tgt_kpm, error) ||
      !tensor_argument (layer, input, 5, "memory_key_padding_mask", &memory_kpm, error) ||
      !hint_argument (layer, input, 6, "tgt_is_causal", 0, &tgt_causal, error) ||
      !hint_argument (layer, input, 7, "memory_is_causal", 0, &memory_causal, error) ||
      !check_features (layer, "tgt", tgt, c->d_model, error))
    return NULL;
  if (memory == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: memory: expected a tensor, got None", layer);
      return NULL;
    }
  if (!check_features (layer, "memory", memory, c->d_model, error))
    return NULL;
  if (gnn_tensor_get_ndim (memory) != gnn_tensor_get_ndim (tgt))
    {
      g_autofree char *st = gnn_shape_to_string (gnn_tensor_get_ndim (tgt), gnn_tensor_get_shape (tgt, NULL));
      g_autofree char *sm = gnn_shape_to_string (gnn_tensor_get_ndim (memory), gnn_tensor_get_shape (memory, NULL));

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected tgt and memory both batched (3-D) or both unbatched (2-D), got tgt of shape %s "
                   "and memory of shape %s", layer, st, sm);
      return NULL;
    }
  x = g_object_ref (tgt);
  if (c->norm_first)
    {
      g_autoptr(GnnTensor) n1 = NULL, n2 = NULL, n3 = NULL;

      if (!(n1 = call_child (module, layer, "norm1", x, error)) ||
          !add_block (module, layer, "dropout1", &x,
                      attend (module, layer, "self_attn", n1, n1, tgt_mask, tgt_kpm, tgt_causal, error), error) ||
          !(n2 = call_child (module, layer, "norm2", x, error)) ||
          !add_block (module, layer, "dropout2", &x,
                      attend (module, layer, "multihead_attn", n2, memory, memory_mask, memory_kpm, memory_causal,
                              error), error) ||
          !(n3 = call_child (module, layer, "norm3", x, error)) ||
          !add_residual (&x, feed_forward (module, c, layer, "dropout3", n3, error), error))
        return NULL;
    }
  else if (!add_block (module, layer, "dropout1", &x,
                       attend (module, layer, "self_attn", x, x, tgt_mask, tgt_kpm, tgt_causal, error), error) ||
           !replace (&x, call_child (module, layer, "norm1", x, error)) ||
           !add_block (module, layer, "dropout2", &x,
                       attend (module, layer, "multihead_attn", x, memory, memory_mask, memory_kpm, memory_causal,
                               error), error) ||
           !replace (&x, call_child (module, layer, "norm2", x, error)) ||
           !add_residual (&x, feed_forward (module, c, layer, "dropout3", x, error), error) ||
           !replace (&x, call_child (module, layer, "norm3", x, error)))
    return NULL;
  return gnn_args_take_tensor (g_steal_pointer (&x));
}

static void
gnn_transformer_decoder_layer_class_init (GnnTransformerDecoderLayerClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_transformer_decoder_layer_setup;
  module_class->forward = gnn_transformer_decoder_layer_forward;

  /**
   * GnnTransformerDecoderLayer:d-model:
   *
   * The number of features E of the targets, the memory and the output (`d_model`).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerDecoderLayer:nhead:
   *
   * The number of heads of both attentions (`nhead`), dividing d_model.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerDecoderLayer:dim-feedforward:
   *
   * The width of the feed-forward block (`dim_feedforward`, 2048 by default).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerDecoderLayer:dropout:
   *
   * The probability of every dropout of the layer, the attentions' included (`dropout`, 0.1
   * by default).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerDecoderLayer:activation:
   *
   * The activation of the feed-forward block, "relu" (the default) or "gelu" (the exact
   * formula), unless [property@Gnn.TransformerDecoderLayer:activation-module] gives a module.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerDecoderLayer:activation-module:
   *
   * A module to use as the activation instead (torch's `activation` given a module or a
   * callable): the layer registers it as its last child, `activation`. Write-only: the layer
   * keeps it as that child, and copies of the layer receive a copy of it as theirs.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerDecoderLayer:layer-norm-eps:
   *
   * The eps of the layer normalizations (`layer_norm_eps`, 1e-5 by default).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerDecoderLayer:batch-first:
   *
   * Whether batched inputs and outputs are (N, T, E) instead of (T, N, E) (`batch_first`).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerDecoderLayer:norm-first:
   *
   * Whether the layer normalizations come before the attention and feed-forward blocks
   * instead of after the residual additions (`norm_first`).
   *
   * Since: 0.1
   */
  install_layer_props (G_OBJECT_CLASS (klass), decoder_layer_props, G_STRUCT_OFFSET (GnnTransformerDecoderLayer, c));
  gnn_module_class_uses_dtype (module_class);
}

static void
gnn_transformer_decoder_layer_init (GnnTransformerDecoderLayer *self)
{
}

/**
 * gnn_transformer_decoder_layer_new:
 * @d_model: the number of features of the targets and the memory
 * @nhead: the number of attention heads, dividing @d_model
 * @error: return location for a #GError
 *
 * Creates a decoder layer (`nn.TransformerDecoderLayer (d_model, nhead)`); the other
 * arguments are properties for g_object_new ().
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTransformerDecoderLayer *
gnn_transformer_decoder_layer_new (int      d_model,
                                   int      nhead,
                                   GError **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_TRANSFORMER_DECODER_LAYER, "d-model", d_model, "nhead", nhead,
                                  NULL);
}

/* ---- TransformerDecoder ------------------------------------------------------------------- */

/**
 * GnnTransformerDecoder:
 *
 * A stack of decoder layers, as `torch.nn.TransformerDecoder`: `layers`, a
 * [class@Gnn.ModuleList] of [property@Gnn.TransformerDecoder:num-layers] copies of
 * [property@Gnn.TransformerDecoder:decoder-layer] (independent parameters starting with equal
 * values), run in turn on the targets with the same memory, then `norm` when one is given.
 *
 * The forward takes `tgt`, `memory`, `tgt_mask`, `memory_mask`, `tgt_key_padding_mask`,
 * `memory_key_padding_mask`, `tgt_is_causal` and `memory_is_causal` as PyTorch 2's:
 * tgt_is_causal None (absent) is found out from tgt_mask, and every layer is called with
 * those keywords.
 *
 * Since: 0.1
 */
struct _GnnTransformerDecoder
{
  GnnModule parent_instance;

  GnnModule *decoder_layer;
  int num_layers;
  GnnModule *norm;
};

G_DEFINE_FINAL_TYPE (GnnTransformerDecoder, gnn_transformer_decoder, GNN_TYPE_MODULE)

enum {
  DEC_PROP_0,
  DEC_PROP_DECODER_LAYER,
  DEC_PROP_NUM_LAYERS,
  DEC_PROP_NORM,
  DEC_N_PROPS
};

static GnnProp decoder_props[DEC_N_PROPS];

static gboolean
gnn_transformer_decoder_setup (GnnModule *module,
                               GError   **error)
{
  GnnTransformerDecoder *self = GNN_TRANSFORMER_DECODER (module);
  gboolean ok;

  if (!GNN_MODULE_CLASS (gnn_transformer_decoder_parent_class)->setup (module, error))
    return FALSE;
  ok = stack_setup (module, "TransformerDecoder", self->decoder_layer, self->num_layers, self->norm, error);
  g_clear_object (&self->decoder_layer);
  g_clear_object (&self->norm);
  return ok;
}

static GnnArgs *
gnn_transformer_decoder_forward (GnnModule *module,
                                 GnnArgs   *input,
                                 GError   **error)
{
  static const char name[] = "TransformerDecoder";
  static const char *const mask_names[4] = {
    "tgt_mask", "memory_mask", "tgt_key_padding_mask", "memory_key_padding_mask"
  };
  GnnTensor *tgt, *memory, *masks[4];
  g_autoptr(GnnTensor) x = NULL;
  GnnModuleList *layers;
  int hint, memory_causal;
  gboolean tgt_causal;

  if (!(tgt = gnn_args_first_tensor (input, name, error)) ||
      !tensor_argument (name, input, 1, "memory", &memory, error))
    return NULL;
  if (memory == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: forward takes tgt and memory, got no memory",
                   name);
      return NULL;
    }
  for (guint i = 0; i < 4; i++)
    if (!tensor_argument (name, input, 2 + i, mask_names[i], &masks[i], error))
      return NULL;
  if (!hint_argument (name, input, 6, "tgt_is_causal", -1, &hint, error) ||
      !hint_argument (name, input, 7, "memory_is_causal", 0, &memory_causal, error) ||
      !(layers = layers_of (module, name, error)) ||
      !detect_is_causal (masks[0], hint, seq_len (tgt, first_batch_first (layers)), &tgt_causal, error))
    return NULL;
  x = g_object_ref (tgt);
  for (guint i = 0; i < gnn_module_list_get_length (layers); i++)
    {
      GnnModule *layer = gnn_module_list_get (layers, i, error);
      g_autoptr(GnnArgs) in = NULL, out = NULL;
      GnnTensor *y;

      if (layer == NULL)
        return NULL;
      in = gnn_args_new_tensor (x);
      gnn_args_add_tensor (in, memory);
      for (guint k = 0; k < 4; k++)
        set_kwarg_tensor (in, mask_names[k], masks[k]);
      set_kwarg_boolean (in, "tgt_is_causal", tgt_causal);
      set_kwarg_boolean (in, "memory_is_causal", memory_causal);
      if (!(out = gnn_module_forward (layer, in, error)) || !(y = gnn_args_get_tensor (out, 0, error)))
        {
          g_prefix_error (error, "%s: layers.%u: ", name, i);
          return NULL;
        }
      g_set_object (&x, y);
    }
  if (!apply_norm (module, name, &x, error))
    return NULL;
  return gnn_args_take_tensor (g_steal_pointer (&x));
}

static void
gnn_transformer_decoder_class_init (GnnTransformerDecoderClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  const GParamFlags wo = G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_CONSTRUCT_ONLY;

  module_class->setup = gnn_transformer_decoder_setup;
  module_class->forward = gnn_transformer_decoder_forward;

  /**
   * GnnTransformerDecoder:decoder-layer:
   *
   * The layer (`decoder_layer`) that the decoder copies
   * [property@Gnn.TransformerDecoder:num-layers] times into `layers`. Write-only: the decoder
   * keeps the copies, not the layer.
   *
   * Since: 0.1
   */
  decoder_props[DEC_PROP_DECODER_LAYER] = (GnnProp) {
    g_param_spec_object ("decoder-layer", NULL, NULL, GNN_TYPE_MODULE, wo),
    G_STRUCT_OFFSET (GnnTransformerDecoder, decoder_layer) };

  /**
   * GnnTransformerDecoder:num-layers:
   *
   * The number of layers (`num_layers`).
   *
   * Since: 0.1
   */
  decoder_props[DEC_PROP_NUM_LAYERS] = (GnnProp) {
    g_param_spec_int ("num-layers", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnTransformerDecoder, num_layers) };

  /**
   * GnnTransformerDecoder:norm:
   *
   * A module applied to the last layer's output (`norm`), registered as the child `norm`;
   * %NULL for none. Write-only: the decoder keeps it as that child.
   *
   * Since: 0.1
   */
  decoder_props[DEC_PROP_NORM] = (GnnProp) {
    g_param_spec_object ("norm", NULL, NULL, GNN_TYPE_MODULE, wo),
    G_STRUCT_OFFSET (GnnTransformerDecoder, norm) };

  gnn_props_install (G_OBJECT_CLASS (klass), decoder_props, DEC_N_PROPS);
}

static void
gnn_transformer_decoder_init (GnnTransformerDecoder *self)
{
}

/**
 * gnn_transformer_decoder_new:
 * @decoder_layer: the layer to copy @num_layers times
 * @num_layers: the number of layers
 * @norm: (nullable): a module applied to the output of the last layer, or %NULL
 * @error: return location for a #GError
 *
 * Creates a decoder (`nn.TransformerDecoder (decoder_layer, num_layers, norm)`) of
 * @num_layers copies of @decoder_layer, which it does not keep.
 *
 * Returns: (transfer full): the decoder, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTransformerDecoder *
gnn_transformer_decoder_new (GnnModule  *decoder_layer,
                             int         num_layers,
                             GnnModule  *norm,
                             GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (decoder_layer), NULL);
  g_return_val_if_fail (norm == NULL || GNN_IS_MODULE (norm), NULL);
  return gnn_module_new_or_error (error, GNN_TYPE_TRANSFORMER_DECODER, "decoder-layer", decoder_layer,
                                  "num-layers", num_layers, "norm", norm, NULL);
}

/* ---- Transformer ---------------------------------------------------------------------------- */

/**
 * GnnTransformer:
 *
 * The Transformer of "Attention Is All You Need", as `torch.nn.Transformer`: an `encoder`
 * ([class@Gnn.TransformerEncoder] of [property@Gnn.Transformer:num-encoder-layers] encoder
 * layers and a final [class@Gnn.LayerNorm]) and a `decoder` ([class@Gnn.TransformerDecoder]
 * likewise), or the modules given as [property@Gnn.Transformer:custom-encoder] and
 * [property@Gnn.Transformer:custom-decoder]. Every parameter with two or more dimensions is
 * initialised with xavier_uniform_, as torch's `_reset_parameters`. State-dict keys are
 * torch's: `encoder.layers.0.self_attn.in_proj_weight`, ..., `encoder.norm.weight`,
 * `decoder.layers.0...`, `decoder.norm.bias`.
 *
 * The forward takes `src`, `tgt`, then `src_mask`, `tgt_mask`, `memory_mask`,
 * `src_key_padding_mask`, `tgt_key_padding_mask`, `memory_key_padding_mask`,
 * `src_is_causal`, `tgt_is_causal` and `memory_is_causal` (positionally or as keywords), runs
 * the encoder on src and the decoder on tgt and the encoder's output, and returns the
 * decoder's output, of tgt's shape. src and tgt of different batch sizes, or whose last
 * dimension is not d_model, are errors, as in torch.
 *
 * Since: 0.1
 */
struct _GnnTransformer
{
  GnnModule parent_instance;

  LayerConfig c;
  int num_encoder_layers;
  int num_decoder_layers;
  GnnModule *custom_encoder;
  GnnModule *custom_decoder;
};

G_DEFINE_FINAL_TYPE (GnnTransformer, gnn_transformer, GNN_TYPE_MODULE)

/* the layers' properties, then the Transformer's own */
enum {
  TF_PROP_NUM_ENCODER_LAYERS = LAYER_N_PROPS,
  TF_PROP_NUM_DECODER_LAYERS,
  TF_PROP_CUSTOM_ENCODER,
  TF_PROP_CUSTOM_DECODER,
  TF_N_PROPS
};

static GnnProp transformer_props[TF_N_PROPS];

/* a new encoder or decoder layer with the configuration @c */
static GnnModule *
new_layer (GType              type,
           const LayerConfig *c,
           GnnDtype           dtype,
           GError           **error)
{
  return gnn_module_new_or_error (error, type, "d-model", c->d_model, "nhead", c->nhead,
                                  "dim-feedforward", c->dim_feedforward, "dropout", c->dropout,
                                  "activation", c->activation, "activation-module", c->activation_module,
                                  "layer-norm-eps", c->layer_norm_eps, "batch-first", c->batch_first,
                                  "norm-first", c->norm_first, "dtype", dtype, NULL);
}

static gboolean
gnn_transformer_setup (GnnModule *module,
                       GError   **error)
{
  GnnTransformer *self = GNN_TRANSFORMER (module);
  GnnDtype dtype = gnn_module_dtype (module);
  g_autoptr(GnnModule) encoder = NULL, decoder = NULL;
  g_autoptr(GPtrArray) params = NULL;
  g_autoptr(GnnNoGradGuard) guard = NULL;

  if (!GNN_MODULE_CLASS (gnn_transformer_parent_class)->setup (module, error))
    return FALSE;
  if (self->custom_encoder)
    encoder = g_object_ref (self->custom_encoder);
  else
    {
      g_autoptr(GnnModule) layer = new_layer (GNN_TYPE_TRANSFORMER_ENCODER_LAYER, &self->c, dtype, error);
      g_autoptr(GnnModule) norm = layer ? new_layer_norm (&self->c, dtype, error) : NULL;

      if (norm == NULL ||
          !(encoder = gnn_module_new_or_error (error, GNN_TYPE_TRANSFORMER_ENCODER, "encoder-layer", layer,
                                               "num-layers", self->num_encoder_layers, "norm", norm, NULL)))
        {
          g_prefix_error (error, "Transformer: ");
          return FALSE;
        }
    }
  if (self->custom_decoder)
    decoder = g_object_ref (self->custom_decoder);
  else
    {
      g_autoptr(GnnModule) layer = new_layer (GNN_TYPE_TRANSFORMER_DECODER_LAYER, &self->c, dtype, error);
      g_autoptr(GnnModule) norm = layer ? new_layer_norm (&self->c, dtype, error) : NULL;

      if (norm == NULL ||
          !(decoder = gnn_module_new_or_error (error, GNN_TYPE_TRANSFORMER_DECODER, "decoder-layer", layer,
                                               "num-layers", self->num_decoder_layers, "norm", norm, NULL)))
        {
          g_prefix_error (error, "Transformer: ");
          return FALSE;
        }
    }
  g_clear_object (&self->custom_encoder);
  g_clear_object (&self->custom_decoder);
  g_clear_object (&self->c.activation_module);
  if (!gnn_module_register_module (module, "encoder", encoder, error) ||
      !gnn_module_register_module (module, "decoder", decoder, error))
    return FALSE;

  /* torch's _reset_parameters: xavier_uniform_ on every parameter of two or more dimensions */
  guard = gnn_no_grad_guard_new ();
  params = gnn_module_parameters (module, TRUE);
  for (guint i = 0; i < params->len; i++)
    if (gnn_tensor_get_ndim (params->pdata[i]) > 1 &&
        !gnn_init_xavier_uniform_ (params->pdata[i], 1.0, NULL, error))
      return FALSE;
  return TRUE;
}

/* @child of @module called on @x (and @memory) with @n keywords: names and values (GnnTensor *
 * or a hint: -1 None, 0, 1) */
static GnnTensor *
call_stack (GnnModule  *module,
            const char *child,
            GnnTensor  *x,
            GnnTensor  *memory,
            guint       n,
            const char *const *names,
            GnnTensor *const *tensors,
            const int  *hints,
            GError    **error)
{
  GnnModule *m = gnn_module_get_submodule (module, child, error);
  g_autoptr(GnnArgs) in = NULL, out = NULL;
  GnnTensor *y;

  if (m == NULL)
    return NULL;
  in = gnn_args_new_tensor (x);
  if (memory)
    gnn_args_add_tensor (in, memory);
  for (guint i = 0; i < n; i++)
    {
      if (hints[i] == -2)
        set_kwarg_tensor (in, names[i], tensors[i]);
      else if (hints[i] == -1)
        set_kwarg_tensor (in, names[i], NULL);
      else
        set_kwarg_boolean (in, names[i], hints[i]);
    }
  if (!(out = gnn_module_forward (m, in, error)) || !(y = gnn_args_get_tensor (out, 0, error)))
    {
      g_prefix_error (error, "Transformer: %s: ", child);
      return NULL;
    }
  return g_object_ref (y);
}

static GnnArgs *
gnn_transformer_forward (GnnModule *module,
                         GnnArgs   *input,
                         GError   **error)
{
  static const char name[] = "Transformer";
  static const char *const arg_names[9] = {
    "src_mask", "tgt_mask", "memory_mask", "src_key_padding_mask", "tgt_key_padding_mask",
    "memory_key_padding_mask", "src_is_causal", "tgt_is_causal", "memory_is_causal"
  };
  GnnTransformer *self = GNN_TRANSFORMER (module);
  GnnTensor *src, *tgt, *t[6];
  int hints[3];
  g_autoptr(GnnTensor) memory = NULL, out = NULL;

  if (!(src = gnn_args_first_tensor (input, name, error)) ||
      !tensor_argument (name, input, 1, "tgt", &tgt, error))
    return NULL;
  if (tgt == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: forward takes src and tgt, got no tgt", name);
      return NULL;
    }
  for (guint i = 0; i < 6; i++)
    if (!tensor_argument (name, input, 2 + i, arg_names[i], &t[i], error))
      return NULL;
  for (guint i = 0; i < 3; i++)
    if (!hint_argument (name, input, 8 + i, arg_names[6 + i], i == 2 ? 0 : -1, &hints[i], error))
      return NULL;
  {
    guint sn, tn;
    const gint64 *ss = gnn_tensor_get_shape (src, &sn), *ts = gnn_tensor_get_shape (tgt, &tn);
    g_autofree char *s1 = gnn_shape_to_string (sn, ss);
    g_autofree char *s2 = gnn_shape_to_string (tn, ts);
    int b = self->c.batch_first ? 0 : 1;

    if (sn == 3 && (tn <= (guint) b || ts[b] != ss[b]))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "%s: the batch number of src and tgt must be equal (src of shape %s, tgt of shape %s)", name,
                     s1, s2);
        return NULL;
      }
    if (sn == 0 || tn == 0 || ss[sn - 1] != self->c.d_model || ts[tn - 1] != self->c.d_model)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "%s: the feature number of src and tgt must be equal to d_model=%d (src of shape %s, tgt of "
                     "shape %s)", name, self->c.d_model, s1, s2);
        return NULL;
      }
  }
  {
    static const char *const enc_names[3] = { "mask", "src_key_padding_mask", "is_causal" };
    GnnTensor *enc_t[3] = { t[0], t[3], NULL };
    int enc_h[3] = { -2, -2, hints[0] };
    static const char *const dec_names[6] = {
      "tgt_mask", "memory_mask", "tgt_key_padding_mask", "memory_key_padding_mask", "tgt_is_causal",
      "memory_is_causal"
    };
    GnnTensor *dec_t[6] = { t[1], t[2], t[4], t[5], NULL, NULL };
    int dec_h[6] = { -2, -2, -2, -2, hints[1], hints[2] };

    if (!(memory = call_stack (module, "encoder", src, NULL, 3, enc_names, enc_t, enc_h, error)) ||
        !(out = call_stack (module, "decoder", tgt, memory, 6, dec_names, dec_t, dec_h, error)))
      return NULL;
  }
  return gnn_args_take_tensor (g_steal_pointer (&out));
}

static void
gnn_transformer_class_init (GnnTransformerClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  const GParamFlags co = GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY;
  const GParamFlags wo = G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_CONSTRUCT_ONLY;

  module_class->setup = gnn_transformer_setup;
  module_class->forward = gnn_transformer_forward;

  /**
   * GnnTransformer:d-model:
   *
   * The number of features E of the inputs and the output (`d_model`, 512 by default).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformer:nhead:
   *
   * The number of attention heads (`nhead`, 8 by default), dividing d_model.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformer:dim-feedforward:
   *
   * The width of the layers' feed-forward blocks (`dim_feedforward`, 2048 by default).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformer:dropout:
   *
   * The probability of the layers' dropouts (`dropout`, 0.1 by default).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformer:activation:
   *
   * The layers' activation, "relu" (the default) or "gelu", unless
   * [property@Gnn.Transformer:activation-module] gives a module.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformer:activation-module:
   *
   * A module to use as the layers' activation instead (torch's `activation` given a module or
   * a callable); each layer holds a copy of it as its child `activation`. Write-only.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformer:layer-norm-eps:
   *
   * The eps of every layer normalization (`layer_norm_eps`, 1e-5 by default).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformer:batch-first:
   *
   * Whether batched inputs and outputs are (N, S, E) instead of (S, N, E) (`batch_first`).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformer:norm-first:
   *
   * Whether the layers normalize before their blocks (`norm_first`).
   *
   * Since: 0.1
   */
  fill_layer_props (transformer_props, G_STRUCT_OFFSET (GnnTransformer, c), 512, 8);

  /**
   * GnnTransformer:num-encoder-layers:
   *
   * The number of encoder layers (`num_encoder_layers`, 6 by default).
   *
   * Since: 0.1
   */
  transformer_props[TF_PROP_NUM_ENCODER_LAYERS] = (GnnProp) {
    g_param_spec_int ("num-encoder-layers", NULL, NULL, G_MININT, G_MAXINT, 6, co),
    G_STRUCT_OFFSET (GnnTransformer, num_encoder_layers) };

  /**
   * GnnTransformer:num-decoder-layers:
   *
   * The number of decoder layers (`num_decoder_layers`, 6 by default).
   *
   * Since: 0.1
   */
  transformer_props[TF_PROP_NUM_DECODER_LAYERS] = (GnnProp) {
    g_param_spec_int ("num-decoder-layers", NULL, NULL, G_MININT, G_MAXINT, 6, co),
    G_STRUCT_OFFSET (GnnTransformer, num_decoder_layers) };

  /**
   * GnnTransformer:custom-encoder:
   *
   * A module to use as the `encoder` instead of the stack of encoder layers
   * (`custom_encoder`); %NULL for the stack. Write-only: the Transformer keeps it as its child.
   *
   * Since: 0.1
   */
  transformer_props[TF_PROP_CUSTOM_ENCODER] = (GnnProp) {
    g_param_spec_object ("custom-encoder", NULL, NULL, GNN_TYPE_MODULE, wo),
    G_STRUCT_OFFSET (GnnTransformer, custom_encoder) };

  /**
   * GnnTransformer:custom-decoder:
   *
   * A module to use as the `decoder` instead of the stack of decoder layers
   * (`custom_decoder`); %NULL for the stack. Write-only: the Transformer keeps it as its child.
   *
   * Since: 0.1
   */
  transformer_props[TF_PROP_CUSTOM_DECODER] = (GnnProp) {
    g_param_spec_object ("custom-decoder", NULL, NULL, GNN_TYPE_MODULE, wo),
    G_STRUCT_OFFSET (GnnTransformer, custom_decoder) };

  gnn_props_install (G_OBJECT_CLASS (klass), transformer_props, TF_N_PROPS);
  gnn_module_class_uses_dtype (module_class);
}

static void
gnn_transformer_init (GnnTransformer *self)
{
}

/**
 * gnn_transformer_new:
 * @d_model: the number of features of the inputs
 * @nhead: the number of attention heads, dividing @d_model
 * @error: return location for a #GError
 *
 * Creates a Transformer (`nn.Transformer (d_model, nhead)`) of 6 encoder and 6 decoder
 * layers; the other arguments are properties for g_object_new ().
 *
 * Returns: (transfer full): the Transformer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTransformer *
gnn_transformer_new (int      d_model,
                     int      nhead,
                     GError **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_TRANSFORMER, "d-model", d_model, "nhead", nhead, NULL);
}

void
gnn_transformer_ensure_types (void)
{
  g_type_ensure (GNN_TYPE_TRANSFORMER_ENCODER_LAYER);
  g_type_ensure (GNN_TYPE_TRANSFORMER_ENCODER);
  g_type_ensure (GNN_TYPE_TRANSFORMER_DECODER_LAYER);
  g_type_ensure (GNN_TYPE_TRANSFORMER_DECODER);
  g_type_ensure (GNN_TYPE_TRANSFORMER);
}
