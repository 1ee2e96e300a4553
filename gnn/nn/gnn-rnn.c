/* gnn-rnn.c: GnnRNNBase and its layers GnnRNN, GnnLSTM and GnnGRU; GnnRNNCellBase and its cells
 * GnnRNNCell, GnnLSTMCell and GnnGRUCell, which run the layers' step
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A layer and direction runs as torch's: the input projection of the whole sequence is one
 * product, (T · B, I) × W_ihᵀ + b_ih, then each step adds h × W_hhᵀ + b_hh (one product per
 * step) and combines the gates with elementwise ops (chunk, sigmoid, tanh, mul, add), so that
 * the backward comes from autograd and runs on every backend.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-args-private.h"
#include "gnn-module-private.h"
#include "gnn-props-private.h"
#include "core/gnn-tensor-private.h"
#include "ops/gnn-ops-private.h"
#include "autograd/engine/gnn-autograd.h"
#include "gnn-init.h"
#include "gnn-layers.h"
#include "gnn-packed-sequence.h"
#include "gnn-rnn.h"

typedef enum {
  MODE_RNN_TANH,
  MODE_RNN_RELU,
  MODE_LSTM,
  MODE_GRU,
} Mode;

typedef struct
{
  int input_size;
  int hidden_size;
  int num_layers;
  gboolean bias;
  gboolean batch_first;
  double dropout;
  gboolean bidirectional;
  int proj_size;
} GnnRNNBasePrivate;

enum {
  PROP_0,
  PROP_INPUT_SIZE,
  PROP_HIDDEN_SIZE,
  PROP_NUM_LAYERS,
  PROP_BIAS,
  PROP_BATCH_FIRST,
  PROP_DROPOUT,
  PROP_BIDIRECTIONAL,
  PROP_PROJ_SIZE,
  N_PROPS
};

static GnnProp props[N_PROPS];

/**
 * GnnRNNBase:
 *
 * The base of [class@Gnn.RNN], [class@Gnn.LSTM] and [class@Gnn.GRU], as PyTorch's
 * `RNNBase`: a stack of [property@Gnn.RNNBase:num-layers] recurrent layers over a sequence,
 * each run forwards and, with [property@Gnn.RNNBase:bidirectional], backwards too, the
 * outputs of both directions concatenated for the next layer.
 *
 * The input is (L, N, input_size), (N, L, input_size) with
 * [property@Gnn.RNNBase:batch-first], or (L, input_size) unbatched; the initial states
 * (optional second and, for the LSTM, third arguments; zeros when absent) are
 * (num_layers · directions, N, hidden_size) or without N for an unbatched input. The output
 * holds the sequence of the last layer's hidden states and the final state of every layer
 * and direction: (output, h_n), or (output, h_n, c_n) for the LSTM (Python gives torch's
 * (output, (h_n, c_n))).
 *
 * The input may also be a [class@Gnn.PackedSequence] (its data (sum of the lengths,
 * input_size)): each step then runs on the sequences that have it only, the output is a
 * packed sequence of the same batch sizes and indices, and the initial and final states are
 * in the original batch order (sorted and unsorted with the packed sequence's indices), as
 * PyTorch's.
 *
 * The parameters are named and ordered as PyTorch's: for each layer k and direction
 * (suffix "_reverse" for the backward one) `weight_ih_l{k}`, `weight_hh_l{k}`, then with
 * [property@Gnn.RNNBase:bias] `bias_ih_l{k}` and `bias_hh_l{k}`, then with
 * [property@Gnn.RNNBase:proj-size] `weight_hr_l{k}`; each starts uniform in
 * (-1/√hidden_size, 1/√hidden_size), as PyTorch's `reset_parameters`.
 */
G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GnnRNNBase, gnn_rnn_base, GNN_TYPE_MODULE)

#define PRIV(self) ((GnnRNNBasePrivate *) gnn_rnn_base_get_instance_private (GNN_RNN_BASE (self)))

/**
 * GnnRNN:
 *
 * An Elman recurrent layer, as `torch.nn.RNN`: h_t = act (x_t W_ihᵀ + b_ih + h_{t-1} W_hhᵀ
 * + b_hh), act tanh or relu ([property@Gnn.RNN:nonlinearity]). See [class@Gnn.RNNBase].
 */
struct _GnnRNN
{
  GnnRNNBase parent_instance;

  char *nonlinearity;
};

G_DEFINE_FINAL_TYPE (GnnRNN, gnn_rnn, GNN_TYPE_RNN_BASE)

/**
 * GnnLSTM:
 *
 * A long short-term memory layer, as `torch.nn.LSTM`: the gates i, f, g, o (in that order in
 * the weights' rows) give c_t = σ(f) c_{t-1} + σ(i) tanh (g) and h_t = σ(o) tanh (c_t), then
 * h_t W_hrᵀ with [property@Gnn.RNNBase:proj-size]. See [class@Gnn.RNNBase].
 */
struct _GnnLSTM
{
  GnnRNNBase parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnLSTM, gnn_lstm, GNN_TYPE_RNN_BASE)

/**
 * GnnGRU:
 *
 * A gated recurrent unit layer, as `torch.nn.GRU`: with the gates r, z, n (in that order),
 * r = σ(x_r + h_r), z = σ(x_z + h_z), n = tanh (x_n + r h_n) and h_t = (1 - z) n + z h_{t-1},
 * where x_· and h_· are the input's and the state's projections with their biases. See
 * [class@Gnn.RNNBase].
 */
struct _GnnGRU
{
  GnnRNNBase parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnGRU, gnn_gru, GNN_TYPE_RNN_BASE)

static Mode
rnn_mode (GnnRNNBase *self)
{
  if (GNN_IS_LSTM (self))
    return MODE_LSTM;
  if (GNN_IS_GRU (self))
    return MODE_GRU;
  if (GNN_IS_RNN (self) && g_strcmp0 (GNN_RNN (self)->nonlinearity, "relu") == 0)
    return MODE_RNN_RELU;
  return MODE_RNN_TANH;
}

static const char *
rnn_name (GnnRNNBase *self)
{
  switch (rnn_mode (self))
    {
    case MODE_LSTM: return "LSTM";
    case MODE_GRU:  return "GRU";
    default:        return "RNN";
    }
}

static int
mode_gates (Mode mode)
{
  switch (mode)
    {
    case MODE_LSTM: return 4;
    case MODE_GRU:  return 3;
    default:        return 1;
    }
}

/* the size of h: proj_size when projecting, else hidden_size */
static int
real_hidden (GnnRNNBasePrivate *priv)
{
  return priv->proj_size > 0 ? priv->proj_size : priv->hidden_size;
}

static gboolean
check_arguments (GnnRNNBase *self,
                 GError    **error)
{
  GnnRNNBasePrivate *priv = PRIV (self);
  const char *name = rnn_name (self);
  const char *why = NULL;

  if (priv->dropout < 0 || priv->dropout > 1)
    why = "dropout should be a number in range [0, 1] representing the probability of an element being zeroed";
  else if (priv->hidden_size <= 0)
    why = "hidden_size must be greater than zero";
  else if (priv->num_layers <= 0)
    why = "num_layers must be greater than zero";
  else if (priv->input_size < 0)
    why = "input_size must not be negative";
  else if (priv->proj_size < 0)
    why = "proj_size should be a positive integer or zero to disable projections";
  else if (priv->proj_size >= priv->hidden_size)
    why = "proj_size has to be smaller than hidden_size";
  else if (priv->proj_size > 0 && rnn_mode (self) != MODE_LSTM)
    why = "proj_size argument is only supported for LSTM, not RNN or GRU";
  if (why == NULL && GNN_IS_RNN (self) &&
      g_strcmp0 (GNN_RNN (self)->nonlinearity, "tanh") != 0 && g_strcmp0 (GNN_RNN (self)->nonlinearity, "relu") != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "RNN: Unknown nonlinearity '%s'",
                   GNN_RNN (self)->nonlinearity);
      return FALSE;
    }
  if (why)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: %s", name, why);
      return FALSE;
    }
  return TRUE;
}

/* a new parameter @name (@fmt formatted with @layer and @suffix when not NULL) of @shape */
static gboolean
register_weight (GnnModule    *module,
                 const char   *fmt,
                 int           layer,
                 const char   *suffix,
                 const gint64 *shape,
                 guint         ndim,
                 GError      **error)
{
  g_autofree char *name = suffix ? g_strdup_printf (fmt, layer, suffix) : g_strdup (fmt);
  g_autoptr(GnnParameter) p = gnn_module_new_parameter (shape, ndim, gnn_module_dtype (module), error);

  return p != NULL && gnn_module_register_parameter (module, name, p, error);
}

/* every parameter uniform in (-1/√@hidden_size, 1/√@hidden_size), as torch's RNNBase and
 * RNNCellBase reset_parameters */
static gboolean
reset_parameters (GnnModule *module,
                  int        hidden_size,
                  GError   **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  double bound = 1.0 / sqrt ((double) hidden_size);
  g_autoptr(GPtrArray) params = gnn_module_parameters (module, FALSE);

  for (guint i = 0; i < params->len; i++)
    if (!gnn_init_uniform_ (GNN_TENSOR (params->pdata[i]), -bound, bound, NULL, error))
      return FALSE;
  return TRUE;
}

static gboolean
gnn_rnn_base_setup (GnnModule *module,
                    GError   **error)
{
  GnnRNNBase *self = GNN_RNN_BASE (module);
  GnnRNNBasePrivate *priv = PRIV (self);
  int dirs = priv->bidirectional ? 2 : 1;
  gint64 gh = (gint64) mode_gates (rnn_mode (self)) * priv->hidden_size;

  if (!GNN_MODULE_CLASS (gnn_rnn_base_parent_class)->setup (module, error) || !check_arguments (self, error))
    return FALSE;
  for (int k = 0; k < priv->num_layers; k++)
    for (int d = 0; d < dirs; d++)
      {
        const char *sfx = d ? "_reverse" : "";
        gint64 in = k == 0 ? priv->input_size : (gint64) real_hidden (priv) * dirs;
        gint64 wih[2] = { gh, in }, whh[2] = { gh, real_hidden (priv) }, b[1] = { gh };
        gint64 whr[2] = { priv->proj_size, priv->hidden_size };

        if (!register_weight (module, "weight_ih_l%d%s", k, sfx, wih, 2, error) ||
            !register_weight (module, "weight_hh_l%d%s", k, sfx, whh, 2, error))
          return FALSE;
        if (priv->bias &&
            (!register_weight (module, "bias_ih_l%d%s", k, sfx, b, 1, error) ||
             !register_weight (module, "bias_hh_l%d%s", k, sfx, b, 1, error)))
          return FALSE;
        if (priv->proj_size > 0 && !register_weight (module, "weight_hr_l%d%s", k, sfx, whr, 2, error))
          return FALSE;
      }
  return reset_parameters (module, priv->hidden_size, error);
}

/* the parameter "@fmt" of layer @k, direction @d, or NULL (no bias) */
static GnnTensor *
weight (GnnModule  *module,
        const char *fmt,
        int         k,
        int         d)
{
  g_autofree char *name = g_strdup_printf (fmt, k, d ? "_reverse" : "");

  /* a parameter, or what a parametrization or pruning put in its place */
  return gnn_module_tensor (module, name, FALSE, NULL);
}

/* the three or four chunks of @t (…, G · H) along its last dimension */
static GPtrArray *
gates (GnnTensor *t,
       int        n,
       GError   **error)
{
  return gnn_tensor_chunk (t, n, -1, error);
}

/* One step of the cell, the one the layers run at every step and the cells (GnnRNNCell, ...)
 * once: *@h (and *@c) replaced by the next state from @xp (B, G · H), the input's projection
 * of this step with b_ih, and the state's projection hp = h W_hhᵀ + b_hh (B, G · H) */
static gboolean
cell_step (Mode        mode,
           GnnTensor  *xp,
           GnnTensor  *w_hh,
           GnnTensor  *b_hh,
           GnnTensor  *w_hr,
           GnnTensor **h,
           GnnTensor **c,
           GError    **error)
{
  g_autoptr(GnnTensor) hp = gnn_tensor_linear (*h, w_hh, b_hh, error);
  g_autoptr(GnnTensor) pre = NULL;
  GnnTensor *next = NULL;

  if (hp == NULL)
    return FALSE;
  if (mode != MODE_GRU && !(pre = gnn_tensor_add (xp, hp, 1.0, error)))
    return FALSE;
  switch (mode)
    {
    case MODE_RNN_TANH:
      next = gnn_tensor_tanh (pre, error);
      break;
    case MODE_RNN_RELU:
      next = gnn_tensor_relu (pre, error);
      break;
    case MODE_LSTM:
      {
        g_autoptr(GPtrArray) g = gates (pre, 4, error);
        g_autoptr(GnnTensor) i = NULL, f = NULL, gg = NULL, o = NULL, fc = NULL, ig = NULL, cn = NULL, tc = NULL;

        if (g == NULL ||
            !(i = gnn_tensor_sigmoid (g->pdata[0], error)) ||
            !(f = gnn_tensor_sigmoid (g->pdata[1], error)) ||
            !(gg = gnn_tensor_tanh (g->pdata[2], error)) ||
            !(o = gnn_tensor_sigmoid (g->pdata[3], error)) ||
            !(fc = gnn_tensor_mul (f, *c, error)) ||
            !(ig = gnn_tensor_mul (i, gg, error)) ||
            !(cn = gnn_tensor_add (fc, ig, 1.0, error)) ||
            !(tc = gnn_tensor_tanh (cn, error)) ||
            !(next = gnn_tensor_mul (o, tc, error)))
          return FALSE;
        if (w_hr)
          {
            GnnTensor *projected = gnn_tensor_linear (next, w_hr, NULL, error);

            g_object_unref (next);
            if (!(next = projected))
              return FALSE;
          }
        g_object_unref (*c);
        *c = g_steal_pointer (&cn);
      }
      break;
    case MODE_GRU:
      {
        g_autoptr(GPtrArray) x = gates (xp, 3, error);
        g_autoptr(GPtrArray) s = x ? gates (hp, 3, error) : NULL;
        g_autoptr(GnnTensor) ar = NULL, az = NULL, r = NULL, z = NULL, rh = NULL, an = NULL, n = NULL, d = NULL, zd = NULL;

        if (s == NULL ||
            !(ar = gnn_tensor_add (x->pdata[0], s->pdata[0], 1.0, error)) ||
            !(az = gnn_tensor_add (x->pdata[1], s->pdata[1], 1.0, error)) ||
            !(r = gnn_tensor_sigmoid (ar, error)) ||
            !(z = gnn_tensor_sigmoid (az, error)) ||
            !(rh = gnn_tensor_mul (r, s->pdata[2], error)) ||
            !(an = gnn_tensor_add (x->pdata[2], rh, 1.0, error)) ||
            !(n = gnn_tensor_tanh (an, error)) ||
            !(d = gnn_tensor_sub (*h, n, 1.0, error)) ||
            !(zd = gnn_tensor_mul (z, d, error)) ||
            !(next = gnn_tensor_add (n, zd, 1.0, error)))
          return FALSE;
      }
      break;
    }
  if (next == NULL)
    return FALSE;
  g_object_unref (*h);
  *h = next;
  return TRUE;
}

/* Whether a layer direction runs as one op (gnn_rnn_layer_fused): LSTM without proj_size and
 * GRU, float32 or float64, on a backend with the cell kernels. GNN_RNN_FUSED=0 in the
 * environment runs the steps with separate ops instead, which the tests compare against. */
static gboolean
fused_layers (Mode mode, GnnTensor *w_hr, GnnTensor *xp)
{
  const char *env = g_getenv ("GNN_RNN_FUSED");

  if (mode != MODE_LSTM && mode != MODE_GRU)
    return FALSE;
  if (w_hr != NULL || (env != NULL && g_strcmp0 (env, "0") == 0))
    return FALSE;
  return gnn_tensor_get_size (xp, 0, NULL) > 0 && gnn_rnn_layer_fused_available (xp);
}

/* The fused layer's backward under create_graph (GnnRnnLayerRecomputeFunc): the steps again
 * with the composed ops from the inputs' aliases, and their gradients as a graph of their own */
static gboolean
recompute_layer (gboolean         lstm,
                 gboolean         reverse,
                 GnnTensor      **in,
                 GnnTensor      **go,
                 const gboolean  *needs,
                 GnnTensor      **gi,
                 GError         **error)
{
  Mode mode = lstm ? MODE_LSTM : MODE_GRU;
  g_autoptr(GnnTensor) h = g_object_ref (in[3]), c = in[4] ? g_object_ref (in[4]) : NULL, y = NULL;
  g_autoptr(GPtrArray) outs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) grads = NULL;
  gint64 steps = gnn_tensor_get_size (in[0], 0, NULL);
  GnnTensor *roots[3], *root_grads[3], *wrt[5];
  guint n_roots = 0, n_wrt = 0, at[5];

  g_ptr_array_set_size (outs, steps);
  for (gint64 s = 0; s < steps; s++)
    {
      gint64 t = reverse ? steps - 1 - s : s;
      g_autoptr(GnnTensor) xt = gnn_tensor_select (in[0], 0, t, error);

      if (xt == NULL || !cell_step (mode, xt, in[1], in[2], NULL, &h, &c, error))
        return FALSE;
      outs->pdata[t] = g_object_ref (h);
    }
  if (!(y = gnn_stack ((GnnTensor **) outs->pdata, outs->len, 0, error)))
    return FALSE;
  {
    GnnTensor *results[3] = { y, h, c };

    for (guint k = 0; k < (lstm ? 3u : 2u); k++)
      if (go[k] && gnn_tensor_get_requires_grad (results[k]))
        {
          roots[n_roots] = results[k];
          root_grads[n_roots++] = go[k];
        }
  }
  for (guint j = 0; j < 5; j++)
    if (needs[j] && in[j] && gnn_tensor_get_requires_grad (in[j]))
      {
        at[n_wrt] = j;
        wrt[n_wrt++] = in[j];
      }
  if (n_roots == 0 || n_wrt == 0)
    return TRUE;
  if (!(grads = gnn_autograd_grad (roots, n_roots, root_grads, n_roots, wrt, n_wrt, TRUE, TRUE, TRUE, error)))
    return FALSE;
  for (guint k = 0; k < n_wrt; k++)
    gi[at[k]] = grads->pdata[k] ? g_object_ref (grads->pdata[k]) : NULL;
  return TRUE;
}

/* one layer and direction over @x (T, B, I): the outputs (T, B, H') and the final states */
static GnnTensor *
run_direction (GnnRNNBase *self,
               GnnTensor  *x,
               int         k,
               int         d,
               GnnTensor  *h0,
               GnnTensor  *c0,
               GnnTensor **h_out,
               GnnTensor **c_out,
               GError    **error)
{
  GnnModule *module = GNN_MODULE (self);
  Mode mode = rnn_mode (self);
  GnnTensor *w_ih = weight (module, "weight_ih_l%d%s", k, d), *w_hh = weight (module, "weight_hh_l%d%s", k, d);
  GnnTensor *b_ih = weight (module, "bias_ih_l%d%s", k, d), *b_hh = weight (module, "bias_hh_l%d%s", k, d);
  GnnTensor *w_hr = weight (module, "weight_hr_l%d%s", k, d);
  g_autoptr(GnnTensor) h = g_object_ref (h0), c = c0 ? g_object_ref (c0) : NULL, xp = NULL;
  g_autoptr(GPtrArray) outs = g_ptr_array_new_with_free_func (g_object_unref);
  gint64 steps = gnn_tensor_get_size (x, 0, NULL);

  if (w_ih == NULL || w_hh == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s has no parameter weight_ih_l%d%s",
                   rnn_name (self), k, d ? "_reverse" : "");
      return NULL;
    }
  /* the whole sequence's input projection: one product */
  if (!(xp = gnn_tensor_linear (x, w_ih, b_ih, error)))
    return NULL;
  if (fused_layers (mode, w_hr, xp))
    {
      gnn_rnn_layer_set_recompute (recompute_layer);
      return gnn_rnn_layer_fused (mode == MODE_LSTM, d, xp, w_hh, b_hh, h, c, h_out, c_out, error);
    }
  g_ptr_array_set_size (outs, steps);
  for (gint64 s = 0; s < steps; s++)
    {
      gint64 t = d ? steps - 1 - s : s;
      g_autoptr(GnnTensor) xt = gnn_tensor_select (xp, 0, t, error);

      if (xt == NULL || !cell_step (mode, xt, w_hh, b_hh, w_hr, &h, &c, error))
        return NULL;
      outs->pdata[t] = g_object_ref (h);
    }
  *h_out = g_steal_pointer (&h);
  if (c_out)
    *c_out = g_steal_pointer (&c);
  if (steps == 0)
    {
      gint64 shape[3] = { 0, gnn_tensor_get_size (x, 1, NULL), gnn_tensor_get_size (*h_out, -1, NULL) };

      return gnn_tensor_new_zeros (shape, 3, gnn_tensor_get_dtype (x), gnn_tensor_get_device (x), error);
    }
  return gnn_stack ((GnnTensor **) outs->pdata, outs->len, 0, error);
}

/* the initial state @given, checked against (layers · dirs, B, @size), or zeros */
static GnnTensor *
initial_state (GnnRNNBase *self,
               GnnTensor  *given,
               GnnTensor  *x,
               int         which,
               gint64      batch,
               gint64      size,
               GError    **error)
{
  GnnRNNBasePrivate *priv = PRIV (self);
  gint64 want[3] = { (gint64) priv->num_layers * (priv->bidirectional ? 2 : 1), batch, size };
  const gint64 *shape;
  guint ndim;

  if (given == NULL)
    return gnn_tensor_new_zeros (want, 3, gnn_tensor_get_dtype (x), gnn_tensor_get_device (x), error);
  shape = gnn_tensor_get_shape (given, &ndim);
  if (ndim != 3 || memcmp (shape, want, sizeof want) != 0)
    {
      g_autofree char *got = gnn_shape_to_string (ndim, shape);

      if (rnn_mode (self) == MODE_LSTM)
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "LSTM: Expected hidden[%d] size (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                     "), got %s", which, want[0], want[1], want[2], got);
      else
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "%s: Expected hidden size (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                     "), got %s", rnn_name (self), want[0], want[1], want[2], got);
      return NULL;
    }
  return g_object_ref (given);
}

/* the optional state argument @index of @input: NULL when absent or None */
static gboolean
state_argument (GnnRNNBase *self,
                GnnArgs    *input,
                guint       index,
                gboolean    unbatched,
                GnnTensor **out,
                GError    **error)
{
  GnnTensor *t;
  guint ndim;

  *out = NULL;
  if (index >= gnn_args_get_n_values (input) || !gnn_args_is_tensor (input, index))
    return TRUE;
  t = gnn_args_get_tensor (input, index, error);
  ndim = gnn_tensor_get_ndim (t);
  if (unbatched && ndim != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: For unbatched 2-D input, hx should also be 2-D but got %uD tensor", rnn_name (self), ndim);
      return FALSE;
    }
  if (!unbatched && ndim != 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: For batched 3-D input, hx should also be 3-D but got %uD tensor", rnn_name (self), ndim);
      return FALSE;
    }
  *out = unbatched ? gnn_tensor_unsqueeze (t, 1, error) : g_object_ref (t);
  return *out != NULL;
}

static GnnTensor *
finish (GnnTensor *t,
        gboolean   unbatched,
        int        batch_dim,
        GError   **error)
{
  g_autoptr(GnnTensor) owned = t;

  if (t == NULL)
    return NULL;
  return unbatched ? gnn_tensor_squeeze_dim (t, batch_dim, error) : g_steal_pointer (&owned);
}

/* ---- packed input ------------------------------------------------------------------------ */

/* rows [@start, @start + @len) of @t, or NULL (for @t NULL) */
static gboolean
rows_of (GnnTensor  *t,
         gint64      start,
         gint64      len,
         GnnTensor **out,
         GError    **error)
{
  *out = NULL;
  if (t == NULL)
    return TRUE;
  *out = gnn_tensor_narrow (t, 0, start, len, error);
  return *out != NULL;
}

/* @a's elements in the reverse order */
static void
reverse_array (GPtrArray *a)
{
  for (guint i = 0; i < a->len / 2; i++)
    {
      gpointer tmp = a->pdata[i];

      a->pdata[i] = a->pdata[a->len - 1 - i];
      a->pdata[a->len - 1 - i] = tmp;
    }
}

/* @a and @b concatenated along the rows, replacing *@a */
static gboolean
append_rows (GnnTensor **a,
             GnnTensor  *b,
             GError    **error)
{
  GnnTensor *parts[2] = { *a, b };
  GnnTensor *joined;

  if (*a == NULL)
    return TRUE;
  if (!(joined = gnn_cat (parts, 2, 0, error)))
    return FALSE;
  g_object_unref (*a);
  *a = joined;
  return TRUE;
}

/* One layer and direction over the packed @x (N, I) with @bs (@n_bs steps): each step runs on
 * its batch_sizes[t] live rows only. Forwards, the rows whose sequences end leave the state
 * (their final states kept aside); backwards, rows join the state (from @h0) as their
 * sequences start. The outputs are packed as @x, (N, H'). */
static GnnTensor *
run_direction_packed (GnnRNNBase   *self,
                      GnnTensor    *x,
                      const gint64 *bs,
                      gsize         n_bs,
                      int           k,
                      int           d,
                      GnnTensor    *h0,
                      GnnTensor    *c0,
                      GnnTensor   **h_out,
                      GnnTensor   **c_out,
                      GError      **error)
{
  GnnModule *module = GNN_MODULE (self);
  Mode mode = rnn_mode (self);
  GnnTensor *w_ih = weight (module, "weight_ih_l%d%s", k, d), *w_hh = weight (module, "weight_hh_l%d%s", k, d);
  GnnTensor *b_ih = weight (module, "bias_ih_l%d%s", k, d), *b_hh = weight (module, "bias_hh_l%d%s", k, d);
  GnnTensor *w_hr = weight (module, "weight_hr_l%d%s", k, d);
  g_autoptr(GnnTensor) h = NULL, c = NULL, xp = NULL;
  g_autoptr(GPtrArray) outs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) done_h = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) done_c = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree gint64 *offset = g_new0 (gint64, n_bs + 1);
  gint64 cur;

  if (w_ih == NULL || w_hh == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s has no parameter weight_ih_l%d%s",
                   rnn_name (self), k, d ? "_reverse" : "");
      return NULL;
    }
  for (gsize t = 0; t < n_bs; t++)
    offset[t + 1] = offset[t] + bs[t];
  if (!(xp = gnn_tensor_linear (x, w_ih, b_ih, error)))
    return NULL;
  g_ptr_array_set_size (outs, n_bs);
  if (d == 0)
    {
      cur = bs[0];
      h = g_object_ref (h0);
      c = c0 ? g_object_ref (c0) : NULL;
      for (gsize t = 0; t < n_bs; t++)
        {
          g_autoptr(GnnTensor) xt = NULL;

          if (bs[t] < cur)
            {
              GnnTensor *hd = NULL, *cd = NULL, *hl = NULL, *cl = NULL;

              if (!rows_of (h, bs[t], cur - bs[t], &hd, error))
                return NULL;
              g_ptr_array_add (done_h, hd);
              if (!rows_of (c, bs[t], cur - bs[t], &cd, error))
                return NULL;
              if (cd)
                g_ptr_array_add (done_c, cd);
              if (!rows_of (h, 0, bs[t], &hl, error))
                return NULL;
              g_object_unref (h);
              h = hl;
              if (!rows_of (c, 0, bs[t], &cl, error))
                return NULL;
              if (c)
                {
                  g_object_unref (c);
                  c = cl;
                }
              cur = bs[t];
            }
          if (!(xt = gnn_tensor_narrow (xp, 0, offset[t], bs[t], error)) ||
              !cell_step (mode, xt, w_hh, b_hh, w_hr, &h, &c, error))
            return NULL;
          outs->pdata[t] = g_object_ref (h);
        }
      /* the final states in batch order: the live rows, then those that ended, latest first */
      g_ptr_array_add (done_h, g_steal_pointer (&h));
      reverse_array (done_h);
      if (!(*h_out = gnn_cat ((GnnTensor **) done_h->pdata, done_h->len, 0, error)))
        return NULL;
      if (c_out)
        {
          g_ptr_array_add (done_c, g_steal_pointer (&c));
          reverse_array (done_c);
          if (!(*c_out = gnn_cat ((GnnTensor **) done_c->pdata, done_c->len, 0, error)))
            return NULL;
        }
    }
  else
    {
      cur = bs[n_bs - 1];
      if (!rows_of (h0, 0, cur, &h, error) || !rows_of (c0, 0, cur, &c, error))
        return NULL;
      for (gsize s = 0; s < n_bs; s++)
        {
          gsize t = n_bs - 1 - s;
          g_autoptr(GnnTensor) xt = NULL;

          if (bs[t] > cur)
            {
              g_autoptr(GnnTensor) hj = NULL, cj = NULL;

              if (!rows_of (h0, cur, bs[t] - cur, &hj, error) || !append_rows (&h, hj, error) ||
                  !rows_of (c0, cur, bs[t] - cur, &cj, error) || !append_rows (&c, cj, error))
                return NULL;
              cur = bs[t];
            }
          if (!(xt = gnn_tensor_narrow (xp, 0, offset[t], bs[t], error)) ||
              !cell_step (mode, xt, w_hh, b_hh, w_hr, &h, &c, error))
            return NULL;
          outs->pdata[t] = g_object_ref (h);
        }
      *h_out = g_steal_pointer (&h);
      if (c_out)
        *c_out = g_steal_pointer (&c);
    }
  return gnn_cat ((GnnTensor **) outs->pdata, outs->len, 0, error);
}

/* @t (layers · dirs, B, H) with its batch permuted by @index (NULL: as it is) */
static GnnTensor *
permute_batch (GnnTensor *t,
               GnnTensor *index,
               GError   **error)
{
  g_autoptr(GnnTensor) idx = NULL;

  if (index == NULL)
    return g_object_ref (t);
  if (!(idx = gnn_tensor_to_device (index, gnn_tensor_get_device (t), error)))
    return NULL;
  return gnn_tensor_index_select (t, 1, idx, error);
}

/* The layers over @input, (L, N, ·), or the packed data (Σ lengths, ·) with its batch sizes
 * @bs: each layer runs its directions from the initial states of @h0 (and @c0), concatenates
 * their outputs and drops out between layers in training; the final state of every layer and
 * direction goes to @hs (and @cs) in that order. Returns the last layer's output. */
static GnnTensor *
run_layers (GnnRNNBase    *self,
            GnnTensor     *input,
            const gint64  *bs,
            gsize          n_bs,
            GnnTensor     *h0,
            GnnTensor     *c0,
            GPtrArray     *hs,
            GPtrArray     *cs,
            GError       **error)
{
  GnnRNNBasePrivate *priv = PRIV (self);
  gboolean lstm = rnn_mode (self) == MODE_LSTM;
  int dirs = priv->bidirectional ? 2 : 1;
  g_autoptr(GnnTensor) x = g_object_ref (input);

  for (int k = 0; k < priv->num_layers; k++)
    {
      GnnTensor *ys[2] = { NULL, NULL };
      GnnTensor *layer_out;

      for (int d = 0; d < dirs; d++)
        {
          g_autoptr(GnnTensor) h_init = gnn_tensor_select (h0, 0, k * dirs + d, error);
          g_autoptr(GnnTensor) c_init = h_init && lstm ? gnn_tensor_select (c0, 0, k * dirs + d, error) : NULL;
          GnnTensor *h_last = NULL, *c_last = NULL;

          if (h_init && (!lstm || c_init))
            ys[d] = bs ? run_direction_packed (self, x, bs, n_bs, k, d, h_init, c_init, &h_last,
                                               lstm ? &c_last : NULL, error)
                       : run_direction (self, x, k, d, h_init, c_init, &h_last, lstm ? &c_last : NULL, error);
          if (h_last)
            g_ptr_array_add (hs, h_last);
          if (c_last)
            g_ptr_array_add (cs, c_last);
          if (ys[d] == NULL)
            {
              g_clear_object (&ys[0]);
              return NULL;
            }
        }
      /* the directions side by side: along the features, dimension 1 of packed data, 2 of (L, N, ·) */
      layer_out = dirs == 2 ? gnn_cat (ys, 2, bs ? 1 : 2, error) : g_object_ref (ys[0]);
      g_clear_object (&ys[0]);
      g_clear_object (&ys[1]);
      if (layer_out == NULL)
        return NULL;
      g_object_unref (x);
      x = layer_out;
      if (k + 1 < priv->num_layers && priv->dropout > 0 && gnn_module_get_training (GNN_MODULE (self)))
        {
          GnnTensor *dropped = gnn_tensor_dropout (x, priv->dropout, TRUE, error);

          if (dropped == NULL)
            return NULL;
          g_object_unref (x);
          x = dropped;
        }
    }
  return g_steal_pointer (&x);
}

/* the forward over a packed sequence: (output, h_n[, c_n]), output packed as the input */
static GnnArgs *
forward_packed (GnnRNNBase        *self,
                GnnPackedSequence *packed,
                GnnArgs           *input,
                GError           **error)
{
  GnnRNNBasePrivate *priv = PRIV (self);
  const char *name = rnn_name (self);
  gboolean lstm = rnn_mode (self) == MODE_LSTM;
  GnnTensor *data = gnn_packed_sequence_get_data (packed);
  GnnTensor *sorted = gnn_packed_sequence_get_sorted_indices (packed);
  GnnTensor *unsorted = gnn_packed_sequence_get_unsorted_indices (packed);
  g_autoptr(GnnTensor) x = NULL, hx = NULL, cx = NULL, hs0 = NULL, cs0 = NULL, h0 = NULL, c0 = NULL;
  g_autoptr(GnnTensor) hn = NULL, cn = NULL, h = NULL, c = NULL;
  g_autoptr(GPtrArray) hs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) cs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GnnPackedSequence) result = NULL;
  g_autofree gint64 *bs = NULL;
  GnnArgs *out;
  gsize n_bs = 0;
  gint64 batch;

  if (gnn_tensor_get_ndim (data) != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: Expected the packed data to be 2-D (sum of lengths, input_size) but received %u-D tensor",
                   name, gnn_tensor_get_ndim (data));
      return NULL;
    }
  if (gnn_tensor_get_size (data, 1, NULL) != priv->input_size)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: input.size(-1) must be equal to input_size. Expected %d, got %" G_GINT64_FORMAT,
                   name, priv->input_size, gnn_tensor_get_size (data, 1, NULL));
      return NULL;
    }
  if (!(bs = gnn_tensor_to_int64s (gnn_packed_sequence_get_batch_sizes (packed), &n_bs, error)))
    goto fail;
  if (n_bs == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: the packed sequence has no steps", name);
      return NULL;
    }
  batch = bs[0];
  if (!state_argument (self, input, 1, FALSE, &hx, error) ||
      (lstm && !state_argument (self, input, 2, FALSE, &cx, error)))
    return NULL;
  /* given states come in the original batch order: sort them as the sequences */
  if (hx && !(hs0 = permute_batch (hx, sorted, error)))
    goto fail;
  if (cx && !(cs0 = permute_batch (cx, sorted, error)))
    goto fail;
  if (!(h0 = initial_state (self, hs0, data, 0, batch, real_hidden (priv), error)) ||
      (lstm && !(c0 = initial_state (self, cs0, data, 1, batch, priv->hidden_size, error))))
    return NULL;

  if (!(x = run_layers (self, data, bs, n_bs, h0, c0, hs, cs, error)))
    goto fail;
  if (!(hn = gnn_stack ((GnnTensor **) hs->pdata, hs->len, 0, error)) ||
      (lstm && !(cn = gnn_stack ((GnnTensor **) cs->pdata, cs->len, 0, error))) ||
      !(h = permute_batch (hn, unsorted, error)) ||
      (lstm && !(c = permute_batch (cn, unsorted, error))) ||
      !(result = gnn_packed_sequence_new (x, gnn_packed_sequence_get_batch_sizes (packed), sorted, unsorted, error)))
    goto fail;
  out = gnn_args_new ();
  {
    GValue v = G_VALUE_INIT;

    g_value_init (&v, GNN_TYPE_PACKED_SEQUENCE);
    g_value_set_object (&v, result);
    gnn_args_add_value (out, &v);
    g_value_unset (&v);
  }
  gnn_args_add_tensor (out, h);
  if (lstm)
    gnn_args_add_tensor (out, c);
  return out;

fail:
  g_prefix_error (error, "%s: ", name);
  return NULL;
}

static GnnArgs *
gnn_rnn_base_forward (GnnModule *module,
                      GnnArgs   *input,
                      GError   **error)
{
  GnnRNNBase *self = GNN_RNN_BASE (module);
  GnnRNNBasePrivate *priv = PRIV (self);
  const char *name = rnn_name (self);
  gboolean lstm = rnn_mode (self) == MODE_LSTM, unbatched;
  g_autoptr(GnnTensor) x = NULL, hx = NULL, cx = NULL, h0 = NULL, c0 = NULL, hn = NULL, cn = NULL;
  g_autoptr(GPtrArray) hs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) cs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GnnArgs) out = NULL;
  GnnTensor *in;
  const gint64 *shape;
  guint ndim;
  gint64 batch;

  if (gnn_args_get_n_values (input) > 0)
    {
      const GValue *first = gnn_args_get_value (input, 0);

      if (first && G_VALUE_HOLDS (first, GNN_TYPE_PACKED_SEQUENCE) && g_value_get_object (first))
        return forward_packed (self, g_value_get_object (first), input, error);
    }
  in = gnn_args_get_tensor (input, 0, error);
  if (in == NULL)
    {
      g_prefix_error (error, "%s: ", name);
      return NULL;
    }
  shape = gnn_tensor_get_shape (in, &ndim);
  if (ndim != 2 && ndim != 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: Expected input to be 2-D or 3-D but received %u-D tensor",
                   name, ndim);
      return NULL;
    }
  if (shape[ndim - 1] != priv->input_size)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: input.size(-1) must be equal to input_size. Expected %d, got %" G_GINT64_FORMAT,
                   name, priv->input_size, shape[ndim - 1]);
      return NULL;
    }
  unbatched = ndim == 2;
  if (unbatched)
    x = gnn_tensor_unsqueeze (in, 1, error);
  else
    x = priv->batch_first ? gnn_tensor_transpose (in, 0, 1, error) : g_object_ref (in);
  if (x == NULL ||
      !state_argument (self, input, 1, unbatched, &hx, error) ||
      (lstm && !state_argument (self, input, 2, unbatched, &cx, error)))
    goto fail_plain;
  batch = gnn_tensor_get_size (x, 1, NULL);
  if (!(h0 = initial_state (self, hx, x, 0, batch, real_hidden (priv), error)) ||
      (lstm && !(c0 = initial_state (self, cx, x, 1, batch, priv->hidden_size, error))))
    return NULL;

  {
    GnnTensor *y = run_layers (self, x, NULL, 0, h0, c0, hs, cs, error);

    if (y == NULL)
      goto fail;
    g_object_unref (x);
    x = y;
  }
  if (!(hn = gnn_stack ((GnnTensor **) hs->pdata, hs->len, 0, error)) ||
      (lstm && !(cn = gnn_stack ((GnnTensor **) cs->pdata, cs->len, 0, error))))
    goto fail;

  out = gnn_args_new ();
  {
    g_autoptr(GnnTensor) y = NULL, h = NULL, c = NULL;

    if (unbatched)
      y = gnn_tensor_squeeze_dim (x, 1, error);
    else
      y = priv->batch_first ? gnn_tensor_transpose (x, 0, 1, error) : g_object_ref (x);
    if (y == NULL ||
        !(h = finish (g_steal_pointer (&hn), unbatched, 1, error)) ||
        (lstm && !(c = finish (g_steal_pointer (&cn), unbatched, 1, error))))
      goto fail;
    gnn_args_add_tensor (out, y);
    gnn_args_add_tensor (out, h);
    if (lstm)
      gnn_args_add_tensor (out, c);
  }
  return g_steal_pointer (&out);

fail:
  g_prefix_error (error, "%s: ", name);
fail_plain:
  return NULL;
}

static char *
gnn_rnn_base_extra_repr (GnnModule *module)
{
  GnnRNNBase *self = GNN_RNN_BASE (module);
  GnnRNNBasePrivate *priv = PRIV (self);
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "%d, %d", priv->input_size, priv->hidden_size);
  if (priv->proj_size != 0)
    g_string_append_printf (s, ", proj_size=%d", priv->proj_size);
  if (priv->num_layers != 1)
    g_string_append_printf (s, ", num_layers=%d", priv->num_layers);
  if (!priv->bias)
    g_string_append (s, ", bias=False");
  if (priv->batch_first)
    g_string_append (s, ", batch_first=True");
  if (priv->dropout != 0)
    {
      g_autofree char *p = gnn_python_float_repr (priv->dropout);
      g_string_append_printf (s, ", dropout=%s", p);
    }
  if (priv->bidirectional)
    g_string_append (s, ", bidirectional=True");
  return g_string_free (s, FALSE);
}

static void
gnn_rnn_base_class_init (GnnRNNBaseClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_rnn_base_setup;
  module_class->forward = gnn_rnn_base_forward;
  module_class->extra_repr = gnn_rnn_base_extra_repr;

  /**
   * GnnRNNBase:input-size:
   *
   * The number of features of each input step (`input_size`).
   *
   * Since: 0.1
   */
  props[PROP_INPUT_SIZE] = (GnnProp) {
    g_param_spec_int ("input-size", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnRNNBase, input_size) };

  /**
   * GnnRNNBase:hidden-size:
   *
   * The number of features of the hidden state (`hidden_size`), at least 1.
   *
   * Since: 0.1
   */
  props[PROP_HIDDEN_SIZE] = (GnnProp) {
    g_param_spec_int ("hidden-size", NULL, NULL, G_MININT, G_MAXINT, 1, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnRNNBase, hidden_size) };

  /**
   * GnnRNNBase:num-layers:
   *
   * The number of stacked recurrent layers (`num_layers`), at least 1.
   *
   * Since: 0.1
   */
  props[PROP_NUM_LAYERS] = (GnnProp) {
    g_param_spec_int ("num-layers", NULL, NULL, G_MININT, G_MAXINT, 1, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnRNNBase, num_layers) };

  /**
   * GnnRNNBase:bias:
   *
   * Whether the layers have the biases b_ih and b_hh (`bias`).
   *
   * Since: 0.1
   */
  props[PROP_BIAS] = (GnnProp) {
    g_param_spec_boolean ("bias", NULL, NULL, TRUE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnRNNBase, bias) };

  /**
   * GnnRNNBase:batch-first:
   *
   * Whether the input and output are (N, L, features) instead of (L, N, features)
   * (`batch_first`); the states keep the batch in their second dimension.
   *
   * Since: 0.1
   */
  props[PROP_BATCH_FIRST] = (GnnProp) {
    g_param_spec_boolean ("batch-first", NULL, NULL, FALSE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnRNNBase, batch_first) };

  /**
   * GnnRNNBase:dropout:
   *
   * The probability of dropout on the outputs of every layer but the last, in training
   * (`dropout`), in [0, 1].
   *
   * Since: 0.1
   */
  props[PROP_DROPOUT] = (GnnProp) {
    g_param_spec_double ("dropout", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnRNNBase, dropout) };

  /**
   * GnnRNNBase:bidirectional:
   *
   * Whether each layer also runs backwards over the sequence (`bidirectional`).
   *
   * Since: 0.1
   */
  props[PROP_BIDIRECTIONAL] = (GnnProp) {
    g_param_spec_boolean ("bidirectional", NULL, NULL, FALSE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnRNNBase, bidirectional) };

  /**
   * GnnRNNBase:proj-size:
   *
   * The size of the LSTM's projected hidden state (`proj_size`), or 0 for none; smaller than
   * [property@Gnn.RNNBase:hidden-size]. Only [class@Gnn.LSTM] takes a non-zero value.
   *
   * Since: 0.1
   */
  props[PROP_PROJ_SIZE] = (GnnProp) {
    g_param_spec_int ("proj-size", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnRNNBase, proj_size) };

  gnn_props_install (G_OBJECT_CLASS (klass), props, N_PROPS);
  gnn_module_class_uses_dtype (module_class);
}

static void
gnn_rnn_base_init (GnnRNNBase *self)
{
  GnnRNNBasePrivate *priv = PRIV (self);

  priv->hidden_size = 1;
  priv->num_layers = 1;
  priv->bias = TRUE;
}

/**
 * gnn_rnn_base_get_input_size:
 * @self: a recurrent layer
 *
 * Gets [property@Gnn.RNNBase:input-size].
 *
 * Returns: the number of input features
 *
 * Since: 0.1
 */
int
gnn_rnn_base_get_input_size (GnnRNNBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_BASE (self), 0);
  return PRIV (self)->input_size;
}

/**
 * gnn_rnn_base_get_hidden_size:
 * @self: a recurrent layer
 *
 * Gets [property@Gnn.RNNBase:hidden-size].
 *
 * Returns: the number of hidden features
 *
 * Since: 0.1
 */
int
gnn_rnn_base_get_hidden_size (GnnRNNBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_BASE (self), 0);
  return PRIV (self)->hidden_size;
}

/**
 * gnn_rnn_base_get_num_layers:
 * @self: a recurrent layer
 *
 * Gets [property@Gnn.RNNBase:num-layers].
 *
 * Returns: the number of stacked layers
 *
 * Since: 0.1
 */
int
gnn_rnn_base_get_num_layers (GnnRNNBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_BASE (self), 0);
  return PRIV (self)->num_layers;
}

/**
 * gnn_rnn_base_get_bidirectional:
 * @self: a recurrent layer
 *
 * Gets [property@Gnn.RNNBase:bidirectional].
 *
 * Returns: whether the layers also run backwards
 *
 * Since: 0.1
 */
gboolean
gnn_rnn_base_get_bidirectional (GnnRNNBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_BASE (self), FALSE);
  return PRIV (self)->bidirectional;
}

/**
 * gnn_rnn_base_get_batch_first:
 * @self: a recurrent layer
 *
 * Gets [property@Gnn.RNNBase:batch-first].
 *
 * Returns: whether the batch is the first dimension of the input and output
 *
 * Since: 0.1
 */
gboolean
gnn_rnn_base_get_batch_first (GnnRNNBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_BASE (self), FALSE);
  return PRIV (self)->batch_first;
}

/**
 * gnn_rnn_base_get_proj_size:
 * @self: a recurrent layer
 *
 * Gets [property@Gnn.RNNBase:proj-size].
 *
 * Returns: the projection size, 0 for none
 *
 * Since: 0.1
 */
int
gnn_rnn_base_get_proj_size (GnnRNNBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_BASE (self), 0);
  return PRIV (self)->proj_size;
}

/**
 * gnn_rnn_base_flatten_parameters:
 * @self: a recurrent layer
 *
 * PyTorch's `flatten_parameters ()`, which packs the weights for cuDNN: gnn keeps them as
 * they are, so this does nothing.
 *
 * Since: 0.1
 */
void
gnn_rnn_base_flatten_parameters (GnnRNNBase *self)
{
  g_return_if_fail (GNN_IS_RNN_BASE (self));
}

/* ---- RNN ------------------------------------------------------------------------------ */

enum {
  RNN_PROP_0,
  RNN_PROP_NONLINEARITY,
  RNN_N_PROPS
};

static GnnProp rnn_props[RNN_N_PROPS];

static void
gnn_rnn_class_init (GnnRNNClass *klass)
{
  /**
   * GnnRNN:nonlinearity:
   *
   * The activation (`nonlinearity`): "tanh" (the default) or "relu".
   *
   * Since: 0.1
   */
  rnn_props[RNN_PROP_NONLINEARITY] = (GnnProp) {
    g_param_spec_string ("nonlinearity", NULL, NULL, "tanh", GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnRNN, nonlinearity) };
  gnn_props_install (G_OBJECT_CLASS (klass), rnn_props, RNN_N_PROPS);
}

static void
gnn_rnn_init (GnnRNN *self)
{
}

/**
 * gnn_rnn_new:
 * @input_size: the number of input features
 * @hidden_size: the number of hidden features
 * @num_layers: the number of stacked layers
 * @error: return location for a #GError
 *
 * Creates a tanh RNN (`nn.RNN (input_size, hidden_size, num_layers)`); the other
 * arguments are properties for g_object_new ().
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnRNN *
gnn_rnn_new (int      input_size,
             int      hidden_size,
             int      num_layers,
             GError **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_RNN, "input-size", input_size, "hidden-size", hidden_size,
                                  "num-layers", num_layers, NULL);
}

/* ---- LSTM, GRU -------------------------------------------------------------------------- */

static void
gnn_lstm_class_init (GnnLSTMClass *klass)
{
}

static void
gnn_lstm_init (GnnLSTM *self)
{
}

/**
 * gnn_lstm_new:
 * @input_size: the number of input features
 * @hidden_size: the number of hidden features
 * @num_layers: the number of stacked layers
 * @error: return location for a #GError
 *
 * Creates an LSTM (`nn.LSTM (input_size, hidden_size, num_layers)`); the other arguments
 * are properties for g_object_new ().
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnLSTM *
gnn_lstm_new (int      input_size,
              int      hidden_size,
              int      num_layers,
              GError **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_LSTM, "input-size", input_size, "hidden-size", hidden_size,
                                  "num-layers", num_layers, NULL);
}

static void
gnn_gru_class_init (GnnGRUClass *klass)
{
}

static void
gnn_gru_init (GnnGRU *self)
{
}

/**
 * gnn_gru_new:
 * @input_size: the number of input features
 * @hidden_size: the number of hidden features
 * @num_layers: the number of stacked layers
 * @error: return location for a #GError
 *
 * Creates a GRU (`nn.GRU (input_size, hidden_size, num_layers)`); the other arguments are
 * properties for g_object_new ().
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnGRU *
gnn_gru_new (int      input_size,
             int      hidden_size,
             int      num_layers,
             GError **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_GRU, "input-size", input_size, "hidden-size", hidden_size,
                                  "num-layers", num_layers, NULL);
}

/* ---- RNNCellBase: RNNCell, LSTMCell, GRUCell ----------------------------------------------- */

typedef struct
{
  int input_size;
  int hidden_size;
  gboolean bias;
} GnnRNNCellBasePrivate;

enum {
  CELL_PROP_0,
  CELL_PROP_INPUT_SIZE,
  CELL_PROP_HIDDEN_SIZE,
  CELL_PROP_BIAS,
  CELL_N_PROPS
};

static GnnProp cell_props[CELL_N_PROPS];

/**
 * GnnRNNCellBase:
 *
 * The base of [class@Gnn.RNNCell], [class@Gnn.LSTMCell] and [class@Gnn.GRUCell], as
 * PyTorch's `RNNCellBase`: one step of the recurrence of [class@Gnn.RNN], [class@Gnn.LSTM]
 * or [class@Gnn.GRU] (the same code: a layer runs its cell at every step).
 *
 * The input is (N, input_size), or (input_size) unbatched; the state (the optional second
 * argument, and for the LSTM cell the third, the cell state; zeros when absent) is
 * (N, hidden_size), or (hidden_size) for an unbatched input. The output is the next state h',
 * or h' and c' for the LSTM cell (Python takes and gives torch's (h, c) tuples).
 *
 * The parameters are PyTorch's `weight_ih` (G · hidden_size, input_size) and `weight_hh`
 * (G · hidden_size, hidden_size), then with [property@Gnn.RNNCellBase:bias] `bias_ih` and
 * `bias_hh` (G · hidden_size), with G gates (1, 4 or 3) in the order of the layers; each
 * starts uniform in (-1/√hidden_size, 1/√hidden_size), as PyTorch's `reset_parameters`.
 */
G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GnnRNNCellBase, gnn_rnn_cell_base, GNN_TYPE_MODULE)

#define CELL_PRIV(self) \
  ((GnnRNNCellBasePrivate *) gnn_rnn_cell_base_get_instance_private (GNN_RNN_CELL_BASE (self)))

/**
 * GnnRNNCell:
 *
 * An Elman recurrent cell, as `torch.nn.RNNCell`: h' = act (x W_ihᵀ + b_ih + h W_hhᵀ + b_hh),
 * act tanh or relu ([property@Gnn.RNNCell:nonlinearity]). See [class@Gnn.RNNCellBase].
 */
struct _GnnRNNCell
{
  GnnRNNCellBase parent_instance;

  char *nonlinearity;
};

G_DEFINE_FINAL_TYPE (GnnRNNCell, gnn_rnn_cell, GNN_TYPE_RNN_CELL_BASE)

/**
 * GnnLSTMCell:
 *
 * A long short-term memory cell, as `torch.nn.LSTMCell`: one step of [class@Gnn.LSTM]
 * (without projection). See [class@Gnn.RNNCellBase].
 */
struct _GnnLSTMCell
{
  GnnRNNCellBase parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnLSTMCell, gnn_lstm_cell, GNN_TYPE_RNN_CELL_BASE)

/**
 * GnnGRUCell:
 *
 * A gated recurrent unit cell, as `torch.nn.GRUCell`: one step of [class@Gnn.GRU]. See
 * [class@Gnn.RNNCellBase].
 */
struct _GnnGRUCell
{
  GnnRNNCellBase parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnGRUCell, gnn_gru_cell, GNN_TYPE_RNN_CELL_BASE)

static Mode
cell_mode (GnnRNNCellBase *self)
{
  if (GNN_IS_LSTM_CELL (self))
    return MODE_LSTM;
  if (GNN_IS_GRU_CELL (self))
    return MODE_GRU;
  if (GNN_IS_RNN_CELL (self) && g_strcmp0 (GNN_RNN_CELL (self)->nonlinearity, "relu") == 0)
    return MODE_RNN_RELU;
  return MODE_RNN_TANH;
}

static const char *
cell_name (GnnRNNCellBase *self)
{
  switch (cell_mode (self))
    {
    case MODE_LSTM: return "LSTMCell";
    case MODE_GRU:  return "GRUCell";
    default:        return "RNNCell";
    }
}

static gboolean
gnn_rnn_cell_base_setup (GnnModule *module,
                         GError   **error)
{
  GnnRNNCellBase *self = GNN_RNN_CELL_BASE (module);
  GnnRNNCellBasePrivate *priv = CELL_PRIV (self);
  const char *name = cell_name (self);
  gint64 gh = (gint64) mode_gates (cell_mode (self)) * priv->hidden_size;
  gint64 wih[2] = { gh, priv->input_size }, whh[2] = { gh, priv->hidden_size }, b[1] = { gh };

  if (!GNN_MODULE_CLASS (gnn_rnn_cell_base_parent_class)->setup (module, error))
    return FALSE;
  if (GNN_IS_RNN_CELL (self) && g_strcmp0 (GNN_RNN_CELL (self)->nonlinearity, "tanh") != 0 &&
      g_strcmp0 (GNN_RNN_CELL (self)->nonlinearity, "relu") != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "RNNCell: Unknown nonlinearity: %s",
                   GNN_RNN_CELL (self)->nonlinearity);
      return FALSE;
    }
  if (priv->hidden_size <= 0 || priv->input_size < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: hidden_size must be greater than zero and input_size not negative, got %d and %d", name,
                   priv->hidden_size, priv->input_size);
      return FALSE;
    }
  if (!register_weight (module, "weight_ih", 0, NULL, wih, 2, error) ||
      !register_weight (module, "weight_hh", 0, NULL, whh, 2, error))
    return FALSE;
  if (priv->bias &&
      (!register_weight (module, "bias_ih", 0, NULL, b, 1, error) ||
       !register_weight (module, "bias_hh", 0, NULL, b, 1, error)))
    return FALSE;
  return reset_parameters (module, priv->hidden_size, error);
}

/* the state argument @index of @input checked against @x (N, I) (@batched: as given), or zeros */
static GnnTensor *
cell_state (GnnRNNCellBase *self,
            GnnArgs        *input,
            guint           index,
            GnnTensor      *x,
            gboolean        batched,
            GError        **error)
{
  GnnRNNCellBasePrivate *priv = CELL_PRIV (self);
  const char *name = cell_name (self);
  gint64 batch = gnn_tensor_get_size (x, 0, NULL);
  gint64 want[2] = { batch, priv->hidden_size };
  g_autoptr(GnnTensor) h = NULL;
  GnnTensor *given;
  guint ndim;

  if (index >= gnn_args_get_n_values (input) || !gnn_args_is_tensor (input, index))
    return gnn_tensor_new_zeros (want, 2, gnn_tensor_get_dtype (x), gnn_tensor_get_device (x), error);
  given = gnn_args_get_tensor (input, index, error);
  ndim = gnn_tensor_get_ndim (given);
  if (ndim != (batched ? 2u : 1u))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: For %s %s-D input, hx should also be %s-D but got %uD tensor", name,
                   batched ? "batched" : "unbatched", batched ? "2" : "1", batched ? "2" : "1", ndim);
      return NULL;
    }
  if (!(h = batched ? g_object_ref (given) : gnn_tensor_unsqueeze (given, 0, error)))
    return NULL;
  if (gnn_tensor_get_size (h, 0, NULL) != batch)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: Input batch size %" G_GINT64_FORMAT " doesn't match hidden0 batch size %" G_GINT64_FORMAT,
                   name, batch, gnn_tensor_get_size (h, 0, NULL));
      return NULL;
    }
  if (gnn_tensor_get_size (h, 1, NULL) != priv->hidden_size)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: hidden0 has inconsistent hidden_size: got %" G_GINT64_FORMAT ", expected %d",
                   name, gnn_tensor_get_size (h, 1, NULL), priv->hidden_size);
      return NULL;
    }
  return g_steal_pointer (&h);
}

static GnnArgs *
gnn_rnn_cell_base_forward (GnnModule *module,
                           GnnArgs   *input,
                           GError   **error)
{
  GnnRNNCellBase *self = GNN_RNN_CELL_BASE (module);
  GnnRNNCellBasePrivate *priv = CELL_PRIV (self);
  const char *name = cell_name (self);
  Mode mode = cell_mode (self);
  g_autoptr(GnnTensor) x = NULL, h = NULL, c = NULL, xp = NULL, h_out = NULL, c_out = NULL;
  g_autoptr(GnnArgs) out = NULL;
  GnnTensor *in, *w_ih = NULL, *w_hh = NULL, *b_ih = NULL, *b_hh = NULL;
  gboolean batched;
  guint ndim;

  if (!(in = gnn_args_get_tensor (input, 0, error)))
    {
      g_prefix_error (error, "%s: ", name);
      return NULL;
    }
  ndim = gnn_tensor_get_ndim (in);
  if (ndim != 1 && ndim != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: Expected input to be 1-D or 2-D but received %u-D tensor",
                   name, ndim);
      return NULL;
    }
  if (gnn_tensor_get_size (in, -1, NULL) != priv->input_size)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: input has inconsistent input_size: got %" G_GINT64_FORMAT " expected %d", name,
                   gnn_tensor_get_size (in, -1, NULL), priv->input_size);
      return NULL;
    }
  batched = ndim == 2;
  if (!(x = batched ? g_object_ref (in) : gnn_tensor_unsqueeze (in, 0, error)) ||
      !(h = cell_state (self, input, 1, x, batched, error)) ||
      (mode == MODE_LSTM && !(c = cell_state (self, input, 2, x, batched, error))))
    return NULL;
  if (!(w_ih = gnn_module_tensor (module, "weight_ih", TRUE, error)) ||
      !(w_hh = gnn_module_tensor (module, "weight_hh", TRUE, error)) ||
      (priv->bias && (!(b_ih = gnn_module_tensor (module, "bias_ih", TRUE, error)) ||
                      !(b_hh = gnn_module_tensor (module, "bias_hh", TRUE, error)))) ||
      !(xp = gnn_tensor_linear (x, w_ih, b_ih, error)) ||
      !cell_step (mode, xp, w_hh, b_hh, NULL, &h, &c, error) ||
      !(h_out = finish (g_steal_pointer (&h), !batched, 0, error)) ||
      (c && !(c_out = finish (g_steal_pointer (&c), !batched, 0, error))))
    {
      g_prefix_error (error, "%s: ", name);
      return NULL;
    }
  out = gnn_args_new_tensor (h_out);
  if (c_out)
    gnn_args_add_tensor (out, c_out);
  return g_steal_pointer (&out);
}

static char *
gnn_rnn_cell_base_extra_repr (GnnModule *module)
{
  GnnRNNCellBase *self = GNN_RNN_CELL_BASE (module);
  GnnRNNCellBasePrivate *priv = CELL_PRIV (self);
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "%d, %d", priv->input_size, priv->hidden_size);
  if (!priv->bias)
    g_string_append (s, ", bias=False");
  if (GNN_IS_RNN_CELL (self) && g_strcmp0 (GNN_RNN_CELL (self)->nonlinearity, "tanh") != 0)
    g_string_append_printf (s, ", nonlinearity=%s", GNN_RNN_CELL (self)->nonlinearity);
  return g_string_free (s, FALSE);
}

static void
gnn_rnn_cell_base_class_init (GnnRNNCellBaseClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_rnn_cell_base_setup;
  module_class->forward = gnn_rnn_cell_base_forward;
  module_class->extra_repr = gnn_rnn_cell_base_extra_repr;

  /**
   * GnnRNNCellBase:input-size:
   *
   * The number of features of the input (`input_size`).
   *
   * Since: 0.1
   */
  cell_props[CELL_PROP_INPUT_SIZE] = (GnnProp) {
    g_param_spec_int ("input-size", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnRNNCellBase, input_size) };

  /**
   * GnnRNNCellBase:hidden-size:
   *
   * The number of features of the hidden state (`hidden_size`), at least 1.
   *
   * Since: 0.1
   */
  cell_props[CELL_PROP_HIDDEN_SIZE] = (GnnProp) {
    g_param_spec_int ("hidden-size", NULL, NULL, G_MININT, G_MAXINT, 1, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnRNNCellBase, hidden_size) };

  /**
   * GnnRNNCellBase:bias:
   *
   * Whether the cell has the biases b_ih and b_hh (`bias`).
   *
   * Since: 0.1
   */
  cell_props[CELL_PROP_BIAS] = (GnnProp) {
    g_param_spec_boolean ("bias", NULL, NULL, TRUE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnRNNCellBase, bias) };

  gnn_props_install (G_OBJECT_CLASS (klass), cell_props, CELL_N_PROPS);
  gnn_module_class_uses_dtype (module_class);
}

static void
gnn_rnn_cell_base_init (GnnRNNCellBase *self)
{
  GnnRNNCellBasePrivate *priv = CELL_PRIV (self);

  priv->hidden_size = 1;
  priv->bias = TRUE;
}

/**
 * gnn_rnn_cell_base_get_input_size:
 * @self: a recurrent cell
 *
 * Gets [property@Gnn.RNNCellBase:input-size].
 *
 * Returns: the number of input features
 *
 * Since: 0.1
 */
int
gnn_rnn_cell_base_get_input_size (GnnRNNCellBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_CELL_BASE (self), 0);
  return CELL_PRIV (self)->input_size;
}

/**
 * gnn_rnn_cell_base_get_hidden_size:
 * @self: a recurrent cell
 *
 * Gets [property@Gnn.RNNCellBase:hidden-size].
 *
 * Returns: the number of hidden features
 *
 * Since: 0.1
 */
int
gnn_rnn_cell_base_get_hidden_size (GnnRNNCellBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_CELL_BASE (self), 0);
  return CELL_PRIV (self)->hidden_size;
}

/**
 * gnn_rnn_cell_base_get_bias:
 * @self: a recurrent cell
 *
 * Gets [property@Gnn.RNNCellBase:bias].
 *
 * Returns: whether the cell has biases
 *
 * Since: 0.1
 */
gboolean
gnn_rnn_cell_base_get_bias (GnnRNNCellBase *self)
{
  g_return_val_if_fail (GNN_IS_RNN_CELL_BASE (self), FALSE);
  return CELL_PRIV (self)->bias;
}

enum {
  RNN_CELL_PROP_0,
  RNN_CELL_PROP_NONLINEARITY,
  RNN_CELL_N_PROPS
};

static GnnProp rnn_cell_props[RNN_CELL_N_PROPS];

static void
gnn_rnn_cell_class_init (GnnRNNCellClass *klass)
{
  /**
   * GnnRNNCell:nonlinearity:
   *
   * The activation (`nonlinearity`): "tanh" (the default) or "relu".
   *
   * Since: 0.1
   */
  rnn_cell_props[RNN_CELL_PROP_NONLINEARITY] = (GnnProp) {
    g_param_spec_string ("nonlinearity", NULL, NULL, "tanh", GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnRNNCell, nonlinearity) };
  gnn_props_install (G_OBJECT_CLASS (klass), rnn_cell_props, RNN_CELL_N_PROPS);
}

static void
gnn_rnn_cell_init (GnnRNNCell *self)
{
}

/**
 * gnn_rnn_cell_new:
 * @input_size: the number of input features
 * @hidden_size: the number of hidden features
 * @error: return location for a #GError
 *
 * Creates a tanh RNN cell (`nn.RNNCell (input_size, hidden_size)`); the other arguments are
 * properties for g_object_new ().
 *
 * Returns: (transfer full): the cell, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnRNNCell *
gnn_rnn_cell_new (int      input_size,
                  int      hidden_size,
                  GError **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_RNN_CELL, "input-size", input_size, "hidden-size", hidden_size,
                                  NULL);
}

static void
gnn_lstm_cell_class_init (GnnLSTMCellClass *klass)
{
}

static void
gnn_lstm_cell_init (GnnLSTMCell *self)
{
}

/**
 * gnn_lstm_cell_new:
 * @input_size: the number of input features
 * @hidden_size: the number of hidden features
 * @error: return location for a #GError
 *
 * Creates an LSTM cell (`nn.LSTMCell (input_size, hidden_size)`); the other arguments are
 * properties for g_object_new ().
 *
 * Returns: (transfer full): the cell, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnLSTMCell *
gnn_lstm_cell_new (int      input_size,
                   int      hidden_size,
                   GError **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_LSTM_CELL, "input-size", input_size, "hidden-size", hidden_size,
                                  NULL);
}

static void
gnn_gru_cell_class_init (GnnGRUCellClass *klass)
{
}

static void
gnn_gru_cell_init (GnnGRUCell *self)
{
}

/**
 * gnn_gru_cell_new:
 * @input_size: the number of input features
 * @hidden_size: the number of hidden features
 * @error: return location for a #GError
 *
 * Creates a GRU cell (`nn.GRUCell (input_size, hidden_size)`); the other arguments are
 * properties for g_object_new ().
 *
 * Returns: (transfer full): the cell, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnGRUCell *
gnn_gru_cell_new (int      input_size,
                  int      hidden_size,
                  GError **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_GRU_CELL, "input-size", input_size, "hidden-size", hidden_size,
                                  NULL);
}

void
gnn_rnn_ensure_types (void)
{
  g_type_ensure (GNN_TYPE_RNN);
  g_type_ensure (GNN_TYPE_LSTM);
  g_type_ensure (GNN_TYPE_GRU);
  g_type_ensure (GNN_TYPE_RNN_CELL);
  g_type_ensure (GNN_TYPE_LSTM_CELL);
  g_type_ensure (GNN_TYPE_GRU_CELL);
}
