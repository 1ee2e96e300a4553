/* test-transformer.c: the Transformer layers and gnn_transformer_generate_square_subsequent_mask
 *
 * Tiny shapes: the suite runs under valgrind and on the reference backend. Parity with
 * PyTorch is tests/python/test_transformer.py.
 */
#include "config.h"

#include "gnn-test-util.h"
#include "nn/gnn-module-private.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END

/* a float64 tensor of @shape with values sin (a · i + b) */
static GnnTensor *
wave (const gint64 *shape, guint ndim, double a, double b)
{
  gsize n = 1;
  g_autofree double *d = NULL;

  for (guint i = 0; i < ndim; i++)
    n *= shape[i];
  d = g_new (double, n);
  for (gsize i = 0; i < n; i++)
    d[i] = sin (a * i + b);
  return gnn_test_tensor_d (d, n, shape, ndim);
}

typedef struct {
  GnnModule *layer;
  GnnTensor *mask;
  GnnTensor *kpm;
} Call;

static GnnTensor *
f_layer (GnnTensor *x, gpointer data, GError **error)
{
  const Call *c = data;
  g_autoptr(GnnArgs) in = gnn_args_new ();
  g_autoptr(GnnArgs) out = NULL;
  GnnTensor *y;

  gnn_args_add_tensor (in, x);
  gnn_args_add_tensor (in, c->mask);
  gnn_args_add_tensor (in, c->kpm);
  if (!(out = gnn_module_forward (c->layer, in, error)) || !(y = gnn_args_get_tensor (out, 0, error)))
    return NULL;
  return gnn_test_weighted_sum (y, error);
}

static GnnModule *
tiny_encoder_layer (gboolean norm_first, const char *activation)
{
  g_autoptr(GError) error = NULL;
  GnnModule *m;

  OK (m = gnn_module_new_or_error (&error, GNN_TYPE_TRANSFORMER_ENCODER_LAYER, "d-model", 4, "nhead", 2,
                                   "dim-feedforward", 6, "dropout", 0.0, "norm-first", norm_first,
                                   "activation", activation, "dtype", GNN_DTYPE_FLOAT64, NULL));
  return m;
}

/* a float64 gradcheck of an encoder layer's input, post- and pre-norm, relu and gelu, with a
 * float mask and a key padding mask */
static void
test_encoder_layer_gradcheck (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) mask = wave (GNN_TEST_SHAPE (3, 3), 2, 2.3, 0.0);
  g_autoptr(GnnTensor) k = NULL, kpm = NULL;

  OK (k = gnn_tensor_new_from_doubles (GNN_TEST_DATA (0, 0, 0, 0, 0, 1), 6, GNN_TEST_SHAPE (2, 3), 2, &error));
  OK (kpm = gnn_tensor_to_dtype (k, GNN_DTYPE_BOOL, &error));
  for (guint nf = 0; nf < 2; nf++)
    for (guint act = 0; act < 2; act++)
      {
        g_autoptr(GnnModule) layer = tiny_encoder_layer (nf, act ? "gelu" : "relu");
        g_autoptr(GnnTensor) x = wave (GNN_TEST_SHAPE (3, 2, 4), 3, 0.7, 0.1);
        Call c = { layer, mask, act ? kpm : NULL };

        gnn_test_gradcheck (f_layer, &c, x, 1e-6, 1e-6);
      }
}

static void
test_square_subsequent_mask (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) m = NULL;
  g_autofree double *v = NULL;

  OK (m = gnn_transformer_generate_square_subsequent_mask (3, GNN_DTYPE_FLOAT32, NULL, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (m), ==, GNN_DTYPE_FLOAT32);
  gnn_test_assert_shape (m, GNN_TEST_SHAPE (3, 3), 2);
  OK (v = gnn_tensor_to_doubles (m, NULL, &error));
  for (guint i = 0; i < 3; i++)
    for (guint j = 0; j < 3; j++)
      if (j > i)
        g_assert_true (isinf (v[i * 3 + j]) && v[i * 3 + j] < 0);
      else
        g_assert_cmpfloat (v[i * 3 + j], ==, 0.0);
  g_clear_object (&m);
  OK (m = gnn_transformer_generate_square_subsequent_mask (0, GNN_DTYPE_FLOAT64, NULL, &error));
  gnn_test_assert_shape (m, GNN_TEST_SHAPE (0, 0), 2);
  g_clear_object (&m);

  g_assert_null (gnn_transformer_generate_square_subsequent_mask (-1, GNN_DTYPE_FLOAT32, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "negative dimension -1"));
  g_clear_error (&error);
  g_assert_null (gnn_transformer_generate_square_subsequent_mask (2, GNN_DTYPE_INT64, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
}

static const char *const encoder_layer_keys[] = {
  "self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight", "self_attn.out_proj.bias",
  "linear1.weight", "linear1.bias", "linear2.weight", "linear2.bias", "norm1.weight", "norm1.bias",
  "norm2.weight", "norm2.bias", NULL
};

static void
assert_keys (GnnModule *m, const char *const *keys)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (m, NULL, TRUE, TRUE, &names);

  g_assert_cmpuint (params->len, ==, g_strv_length ((char **) keys));
  g_assert_cmpstrv (names, keys);
}

static void
test_encoder_layer (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTransformerEncoderLayer) layer = NULL;
  g_autoptr(GnnModule) gelu = GNN_MODULE (gnn_gelu_new ("tanh"));
  g_autoptr(GnnModule) with_module = NULL, copy = NULL;
  g_autoptr(GnnTensor) x = wave (GNN_TEST_SHAPE (3, 2, 4), 3, 0.7, 0.1);
  g_autoptr(GnnTensor) x32 = NULL, y = NULL, y2 = NULL;
  g_autofree char *text = NULL;

  OK (layer = gnn_transformer_encoder_layer_new (4, 2, &error));
  assert_keys (GNN_MODULE (layer), encoder_layer_keys);
  text = gnn_module_to_string (GNN_MODULE (layer));
  g_assert_nonnull (strstr (text, "(linear1): Linear(in_features=4, out_features=2048, bias=True)\n"
                                  "  (dropout): Dropout(p=0.1, inplace=False)\n"));
  g_assert_null (strstr (text, "(activation)"));
  OK (x32 = gnn_tensor_to_dtype (x, GNN_DTYPE_FLOAT32, &error));
  gnn_module_eval (GNN_MODULE (layer));
  OK (y = gnn_module_forward_tensor (GNN_MODULE (layer), x32, &error));
  gnn_test_assert_shape (y, GNN_TEST_SHAPE (3, 2, 4), 3);
  g_clear_object (&y);

  /* a module as the activation: the last child, `activation`; a copy has its own copy */
  OK (with_module = gnn_module_new_or_error (&error, GNN_TYPE_TRANSFORMER_ENCODER_LAYER, "d-model", 4, "nhead", 2,
                                             "dim-feedforward", 6, "dropout", 0.0, "activation-module", gelu,
                                             "dtype", GNN_DTYPE_FLOAT64, NULL));
  g_assert_true (gnn_module_get_submodule (with_module, "activation", NULL) == gelu);
  OK (copy = gnn_module_copy (with_module, &error));
  g_assert_true (GNN_IS_GELU (gnn_module_get_submodule (copy, "activation", NULL)));
  g_assert_true (gnn_module_get_submodule (copy, "activation", NULL) != gelu);
  OK (y = gnn_module_forward_tensor (with_module, x, &error));
  OK (y2 = gnn_module_forward_tensor (copy, x, &error));
  {
    g_autofree double *want = NULL;

    OK (want = gnn_tensor_to_doubles (y, NULL, &error));
    gnn_test_assert_close (y2, want, 24, 0, 0);
  }
  g_assert_finalize_object (g_steal_pointer (&copy));
  g_assert_finalize_object (g_steal_pointer (&with_module));
  g_assert_finalize_object (g_steal_pointer (&gelu));
  g_assert_finalize_object (g_steal_pointer (&layer));
}

static void
test_encoder_layer_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) layer = tiny_encoder_layer (FALSE, "relu");
  g_autoptr(GnnTensor) x = wave (GNN_TEST_SHAPE (3, 2, 5), 3, 0.7, 0.1);
  g_autoptr(GnnTensor) x4 = wave (GNN_TEST_SHAPE (3, 2, 4), 3, 0.7, 0.1);
  g_autoptr(GnnTensor) bad_mask = wave (GNN_TEST_SHAPE (3, 2), 2, 0.7, 0.1);
  g_autoptr(GnnArgs) in = gnn_args_new ();
  GnnModule *bad;

  g_assert_null (gnn_module_forward_tensor (layer, x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "TransformerEncoderLayer: expected src with d_model=4 features in its last "
                                       "dimension, got src of shape [3, 2, 5]");
  g_clear_error (&error);

  gnn_args_add_tensor (in, x4);
  gnn_args_add_tensor (in, bad_mask);
  g_assert_null (gnn_module_forward (layer, in, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "TransformerEncoderLayer: MultiheadAttention: The shape of the 2D "
                                            "attn_mask is [3, 2], but should be (3, 3)."));
  g_clear_error (&error);

  /* is_causal without src_mask */
  gnn_args_clear_values (in);
  gnn_args_add_tensor (in, x4);
  gnn_args_add_tensor (in, NULL);
  gnn_args_add_tensor (in, NULL);
  gnn_args_add_boolean (in, TRUE);
  g_assert_null (gnn_module_forward (layer, in, &error));
  g_assert_nonnull (strstr (error->message, "Need attn_mask if specifying the is_causal hint"));
  g_clear_error (&error);

  bad = gnn_module_new_or_error (&error, GNN_TYPE_TRANSFORMER_ENCODER_LAYER, "d-model", 4, "nhead", 3, NULL);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "TransformerEncoderLayer: embed_dim must be divisible by num_heads"));
  g_clear_error (&error);
  bad = gnn_module_new_or_error (&error, GNN_TYPE_TRANSFORMER_ENCODER_LAYER, "d-model", 4, "nhead", 2,
                                 "activation", "tanh", NULL);
  g_assert_null (bad);
  g_assert_cmpstr (error->message, ==, "TransformerEncoderLayer: activation should be relu/gelu, not tanh");
  g_clear_error (&error);
}

/* an encoder of 2 copies of a tiny layer and a norm: the keys, independent copies, a float64
 * gradcheck of its input */
static void
test_encoder (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) layer = tiny_encoder_layer (FALSE, "relu");
  g_autoptr(GnnLayerNorm) norm = NULL;
  g_autoptr(GnnTransformerEncoder) encoder = NULL;
  g_autoptr(GnnTensor) x = wave (GNN_TEST_SHAPE (3, 2, 4), 3, 0.7, 0.1);
  g_autoptr(GnnTensor) mask = NULL;
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) params = NULL;
  GnnParameter *w0, *w1, *w;
  Call c = { NULL, NULL, NULL };

  OK (norm = gnn_layer_norm_new_full (GNN_TEST_SHAPE (4), 1, 1e-5, TRUE, GNN_DTYPE_FLOAT64, &error));
  OK (encoder = gnn_transformer_encoder_new (layer, 2, GNN_MODULE (norm), &error));
  params = gnn_module_named_parameters (GNN_MODULE (encoder), NULL, TRUE, TRUE, &names);
  g_assert_cmpuint (params->len, ==, 2 * 12 + 2);
  g_assert_cmpstr (names[0], ==, "layers.0.self_attn.in_proj_weight");
  g_assert_cmpstr (names[12], ==, "layers.1.self_attn.in_proj_weight");
  g_assert_cmpstr (names[24], ==, "norm.weight");
  g_assert_cmpstr (names[25], ==, "norm.bias");
  OK (w0 = gnn_module_get_parameter (GNN_MODULE (encoder), "layers.0.linear1.weight", &error));
  OK (w1 = gnn_module_get_parameter (GNN_MODULE (encoder), "layers.1.linear1.weight", &error));
  OK (w = gnn_module_get_parameter (layer, "linear1.weight", &error));
  g_assert_true (w0 != w1 && w0 != w && w1 != w);
  {
    g_autofree double *v = NULL;

    OK (v = gnn_tensor_to_doubles (GNN_TENSOR (w), NULL, &error));
    gnn_test_assert_close (GNN_TENSOR (w0), v, 24, 0, 0);
    gnn_test_assert_close (GNN_TENSOR (w1), v, 24, 0, 0);
  }
  g_assert_true (gnn_module_get_submodule (GNN_MODULE (encoder), "norm", NULL) == GNN_MODULE (norm));

  c.layer = GNN_MODULE (encoder);
  gnn_test_gradcheck (f_layer, &c, x, 1e-6, 1e-6);
  /* with the causal mask, found out as such (is_causal None) */
  OK (mask = gnn_transformer_generate_square_subsequent_mask (3, GNN_DTYPE_FLOAT64, NULL, &error));
  c.mask = mask;
  gnn_test_gradcheck (f_layer, &c, x, 1e-6, 1e-6);
  g_clear_pointer (&params, g_ptr_array_unref);
  g_assert_finalize_object (g_steal_pointer (&encoder));
  g_assert_finalize_object (g_steal_pointer (&norm));
  g_assert_finalize_object (g_steal_pointer (&layer));
}

typedef struct {
  GnnModule *decoder;
  GnnTensor *other;       /* the memory when x is the targets, else the targets */
  gboolean x_is_memory;
  GnnTensor *tgt_mask;
} DecoderCall;

static GnnTensor *
f_decoder (GnnTensor *x, gpointer data, GError **error)
{
  const DecoderCall *c = data;
  g_autoptr(GnnArgs) in = gnn_args_new ();
  g_autoptr(GnnArgs) out = NULL;
  GnnTensor *y;

  gnn_args_add_tensor (in, c->x_is_memory ? c->other : x);
  gnn_args_add_tensor (in, c->x_is_memory ? x : c->other);
  gnn_args_add_tensor (in, c->tgt_mask);
  if (!(out = gnn_module_forward (c->decoder, in, error)) || !(y = gnn_args_get_tensor (out, 0, error)))
    return NULL;
  return gnn_test_weighted_sum (y, error);
}

/* a decoder of 2 copies of a tiny layer (post- and pre-norm): the keys and a float64
 * gradcheck of its targets and its memory, with the causal target mask */
static void
test_decoder (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) tgt = wave (GNN_TEST_SHAPE (3, 2, 4), 3, 0.7, 0.1);
  g_autoptr(GnnTensor) memory = wave (GNN_TEST_SHAPE (2, 2, 4), 3, 1.3, 0.5);
  g_autoptr(GnnTensor) mask = NULL;

  OK (mask = gnn_transformer_generate_square_subsequent_mask (3, GNN_DTYPE_FLOAT64, NULL, &error));
  for (guint nf = 0; nf < 2; nf++)
    {
      g_autoptr(GnnModule) layer = NULL;
      g_autoptr(GnnTransformerDecoder) decoder = NULL;
      g_auto(GStrv) names = NULL;
      g_autoptr(GPtrArray) params = NULL;

      OK (layer = gnn_module_new_or_error (&error, GNN_TYPE_TRANSFORMER_DECODER_LAYER, "d-model", 4, "nhead", 2,
                                           "dim-feedforward", 6, "dropout", 0.0, "norm-first", nf,
                                           "activation", nf ? "gelu" : "relu", "dtype", GNN_DTYPE_FLOAT64, NULL));
      OK (decoder = gnn_transformer_decoder_new (layer, 2, NULL, &error));
      params = gnn_module_named_parameters (GNN_MODULE (decoder), NULL, TRUE, TRUE, &names);
      g_assert_cmpuint (params->len, ==, 2 * 18);
      g_assert_cmpstr (names[4], ==, "layers.0.multihead_attn.in_proj_weight");
      g_assert_cmpstr (names[17], ==, "layers.0.norm3.bias");
      g_assert_cmpstr (names[35], ==, "layers.1.norm3.bias");
      for (guint m = 0; m < 2; m++)
        {
          DecoderCall c = { GNN_MODULE (decoder), m ? tgt : memory, m, mask };
          g_autoptr(GnnTensor) x = gnn_tensor_clone (m ? memory : tgt, &error);

          g_assert_no_error (error);
          gnn_test_gradcheck (f_decoder, &c, x, 1e-6, 1e-6);
        }
      g_clear_pointer (&params, g_ptr_array_unref);
      g_assert_finalize_object (g_steal_pointer (&decoder));
      g_assert_finalize_object (g_steal_pointer (&layer));
    }
}

static void
test_decoder_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTransformerDecoderLayer) layer = NULL;
  g_autoptr(GnnTensor) tgt = wave (GNN_TEST_SHAPE (3, 2, 4), 3, 0.7, 0.1);
  g_autoptr(GnnTensor) memory = wave (GNN_TEST_SHAPE (2, 2, 5), 3, 1.3, 0.5);
  g_autoptr(GnnArgs) in = gnn_args_new_tensor (tgt);
  g_autoptr(GnnTensor) t32 = NULL;

  OK (layer = gnn_transformer_decoder_layer_new (4, 2, &error));
  OK (t32 = gnn_tensor_to_dtype (tgt, GNN_DTYPE_FLOAT32, &error));
  g_assert_null (gnn_module_forward_tensor (GNN_MODULE (layer), t32, &error));
  g_assert_cmpstr (error->message, ==, "TransformerDecoderLayer: forward takes tgt and memory, got tgt only");
  g_clear_error (&error);
  gnn_args_add_tensor (in, memory);
  g_assert_null (gnn_module_forward (GNN_MODULE (layer), in, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "TransformerDecoderLayer: expected memory with d_model=4 features in its "
                                       "last dimension, got memory of shape [2, 2, 5]");
  g_clear_error (&error);
}

typedef struct {
  GnnModule *model;
  GnnTensor *tgt;
} TransformerCall;

static GnnTensor *
f_transformer (GnnTensor *x, gpointer data, GError **error)
{
  const TransformerCall *c = data;
  g_autoptr(GnnArgs) in = gnn_args_new_tensor (x);
  g_autoptr(GnnArgs) out = NULL;
  GnnTensor *y;

  gnn_args_add_tensor (in, c->tgt);
  if (!(out = gnn_module_forward (c->model, in, error)) || !(y = gnn_args_get_tensor (out, 0, error)))
    return NULL;
  return gnn_test_weighted_sum (y, error);
}

/* a tiny Transformer: torch's keys, xavier_uniform_ on the matrices, a float64 gradcheck of
 * src through encoder and decoder, the shape errors */
static void
test_transformer (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = NULL;
  g_autoptr(GnnTensor) src = wave (GNN_TEST_SHAPE (3, 2, 4), 3, 0.7, 0.1);
  g_autoptr(GnnTensor) tgt = wave (GNN_TEST_SHAPE (2, 2, 4), 3, 1.3, 0.5);
  g_autoptr(GnnTensor) bad = wave (GNN_TEST_SHAPE (2, 3, 4), 3, 1.3, 0.5);
  g_autoptr(GnnArgs) in = NULL;
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) params = NULL;
  TransformerCall c = { NULL, tgt };

  OK (model = gnn_module_new_or_error (&error, GNN_TYPE_TRANSFORMER, "d-model", 4, "nhead", 2,
                                       "num-encoder-layers", 1, "num-decoder-layers", 2, "dim-feedforward", 6,
                                       "dropout", 0.0, "dtype", GNN_DTYPE_FLOAT64, NULL));
  params = gnn_module_named_parameters (model, NULL, TRUE, TRUE, &names);
  g_assert_cmpuint (params->len, ==, 12 + 2 + 2 * 18 + 2);
  g_assert_cmpstr (names[0], ==, "encoder.layers.0.self_attn.in_proj_weight");
  g_assert_cmpstr (names[12], ==, "encoder.norm.weight");
  g_assert_cmpstr (names[14], ==, "decoder.layers.0.self_attn.in_proj_weight");
  g_assert_cmpstr (names[51], ==, "decoder.norm.bias");
  for (guint i = 0; i < params->len; i++)
    if (gnn_tensor_get_ndim (params->pdata[i]) == 2)
      {
        g_autofree double *v = NULL;
        gsize n = gnn_tensor_get_numel (params->pdata[i]);
        double bound = sqrt (6.0 / (gnn_tensor_get_size (params->pdata[i], 0, NULL) +
                                    gnn_tensor_get_size (params->pdata[i], 1, NULL)));

        OK (v = gnn_tensor_to_doubles (params->pdata[i], NULL, &error));
        for (gsize k = 0; k < n; k++)
          g_assert_cmpfloat (fabs (v[k]), <=, bound);
      }
  c.model = model;
  gnn_test_gradcheck (f_transformer, &c, src, 1e-6, 1e-6);

  in = gnn_args_new_tensor (src);
  gnn_args_add_tensor (in, bad);
  g_assert_null (gnn_module_forward (model, in, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "Transformer: the batch number of src and tgt must be equal (src of shape "
                                       "[3, 2, 4], tgt of shape [2, 3, 4])");
  g_clear_error (&error);
  g_clear_pointer (&params, g_ptr_array_unref);
  g_assert_finalize_object (g_steal_pointer (&model));
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/transformer/square-subsequent-mask", test_square_subsequent_mask);
  g_test_add_func ("/transformer/encoder-layer/gradcheck", test_encoder_layer_gradcheck);
  g_test_add_func ("/transformer/encoder-layer/layer", test_encoder_layer);
  g_test_add_func ("/transformer/encoder-layer/errors", test_encoder_layer_errors);
  g_test_add_func ("/transformer/encoder", test_encoder);
  g_test_add_func ("/transformer/decoder", test_decoder);
  g_test_add_func ("/transformer/decoder/errors", test_decoder_errors);
  g_test_add_func ("/transformer/transformer", test_transformer);
  return g_test_run ();
}
