/* gnn-train-charlm.c: gnn-train's second task, a character-level language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

#include "gnn-tool.h"
#include "gnn-train-charlm.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the corpus --------------------------------------------------------------------------- */

void
gnn_char_corpus_clear (GnnCharCorpus *corpus)
{
  g_clear_pointer (&corpus->train, g_free);
  g_clear_pointer (&corpus->val, g_free);
  memset (corpus, 0, sizeof *corpus);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* the text files of @dir, sorted; NULL with @error when the folder cannot be read */
static GPtrArray *
list_text_files (const char  *dir,
                 GError     **error)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, error);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (d == NULL)
    return NULL;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_str_has_suffix (name, ".dat") || g_str_has_suffix (name, ".u8") || name[0] == '.' ||
          !g_file_test (path, G_FILE_TEST_IS_REGULAR))
        continue;
      g_ptr_array_add (names, g_steal_pointer (&path));
    }
  g_ptr_array_sort (names, compare_names);
  return g_steal_pointer (&names);
}

gboolean
gnn_char_corpus_load (GnnCharCorpus  *corpus,
                      const char     *dir,
                      GError        **error)
{
  g_autoptr(GPtrArray) paths = NULL;
  g_autoptr(GByteArray) train = g_byte_array_new ();
  g_autoptr(GByteArray) val = g_byte_array_new ();
  g_autoptr(GError) local_error = NULL;
  gboolean seen[256] = { FALSE };

  gnn_char_corpus_clear (corpus);
  paths = list_text_files (dir, &local_error);
  if (paths == NULL || paths->len == 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                   "the text corpus was not found: expected the fortune files in %s, found %s%s; "
                   "install Debian's fortunes package or pass --data-dir DIR", dir,
                   local_error ? "an error: " : "no text files there", local_error ? local_error->message : "");
      return FALSE;
    }
  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *text = NULL;
      gsize length, n_val;

      if (!g_file_get_contents (paths->pdata[i], &text, &length, error))
        return FALSE;
      n_val = length / 20;
      g_byte_array_append (train, (const guint8 *) text, length - n_val);
      g_byte_array_append (val, (const guint8 *) text + length - n_val, n_val);
      for (gsize j = 0; j < length; j++)
        seen[(guint8) text[j]] = TRUE;
    }
  for (int b = 0; b < 256; b++)
    {
      corpus->index[b] = seen[b] ? (int) corpus->n_vocab : -1;
      if (seen[b])
        corpus->chars[corpus->n_vocab++] = (guint8) b;
    }
  for (guint j = 0; j < train->len; j++)
    train->data[j] = (guint8) corpus->index[train->data[j]];
  for (guint j = 0; j < val->len; j++)
    val->data[j] = (guint8) corpus->index[val->data[j]];
  corpus->n_files = paths->len;
  corpus->n_train = train->len;
  corpus->n_val = val->len;
  corpus->train = g_byte_array_steal (train, NULL);
  corpus->val = g_byte_array_steal (val, NULL);
  return TRUE;
}

/* ---- the model ---------------------------------------------------------------------------- */

/* "(2, 3)" */
static char *
shape_string (GnnTensor *t)
{
  GString *s = g_string_new ("(");
  guint ndim = gnn_tensor_get_ndim (t);

  for (guint i = 0; i < ndim; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", gnn_tensor_get_size (t, i, NULL));
  g_string_append_c (s, ')');
  return g_string_free (s, FALSE);
}

/* A pre-norm transformer block, torch.nn.TransformerEncoderLayer (d_model, nhead,
 * dim_feedforward, dropout, activation="gelu", batch_first=True, norm_first=True) with the
 * same children in the same order, so the same state-dict keys:
 *
 *   x = x + dropout1 (self_attn (norm1 (x), attn_mask=causal, need_weights=False))
 *   x = x + dropout2 (linear2 (dropout (gelu (linear1 (norm2 (x))))))
 *
 * forward takes x (N, L, d_model) and the causal mask (L, L), bool, TRUE above the diagonal. */
typedef struct
{
  GnnModule parent_instance;
  int       d_model;
  int       nhead;
  int       dim_feedforward;
  double    dropout;
} GnnCharLMBlock;
typedef struct { GnnModuleClass parent_class; } GnnCharLMBlockClass;

G_DEFINE_TYPE (GnnCharLMBlock, gnn_char_lm_block, GNN_TYPE_MODULE)

enum { BLOCK_PROP_0, BLOCK_PROP_D_MODEL, BLOCK_PROP_NHEAD, BLOCK_PROP_DIM_FEEDFORWARD, BLOCK_PROP_DROPOUT };

static gboolean
add_child (GnnModule   *parent,
           const char  *name,
           gpointer     child,
           GError     **error)
{
  g_autoptr(GnnModule) owned = child;

  return owned != NULL && gnn_module_setup (owned, error) &&
         gnn_module_register_module (parent, name, owned, error);
}

static gboolean
gnn_char_lm_block_setup (GnnModule  *module,
                         GError    **error)
{
  GnnCharLMBlock *self = (GnnCharLMBlock *) module;
  gint64 d = self->d_model;

  if (self->nhead < 1 || self->d_model % self->nhead != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "CharLMBlock: expected d_model (%d) to be divisible by nhead, found nhead %d",
                   self->d_model, self->nhead);
      return FALSE;
    }
  return add_child (module, "self_attn",
                    g_object_new (GNN_TYPE_MULTIHEAD_ATTENTION, "embed-dim", self->d_model,
                                  "num-heads", self->nhead, "dropout", self->dropout,
                                  "batch-first", TRUE, NULL), error) &&
         add_child (module, "linear1", gnn_linear_new (self->d_model, self->dim_feedforward, TRUE, error), error) &&
         add_child (module, "dropout", gnn_dropout_new (self->dropout, error), error) &&
         add_child (module, "linear2", gnn_linear_new (self->dim_feedforward, self->d_model, TRUE, error), error) &&
         add_child (module, "norm1", gnn_layer_norm_new (&d, 1, error), error) &&
         add_child (module, "norm2", gnn_layer_norm_new (&d, 1, error), error) &&
         add_child (module, "dropout1", gnn_dropout_new (self->dropout, error), error) &&
         add_child (module, "dropout2", gnn_dropout_new (self->dropout, error), error);
}

/* @name's forward of @x; NULL with @error */
static GnnTensor *
child_forward (GnnModule   *module,
               const char  *name,
               GnnTensor   *x,
               GError     **error)
{
  GnnModule *child = gnn_module_get_submodule (module, name, error);

  return child ? gnn_module_forward_tensor (child, x, error) : NULL;
}

/* *x = *x + y, consuming y */
static gboolean
add_residual (GnnTensor **x,
              GnnTensor  *y,
              GError    **error)
{
  g_autoptr(GnnTensor) owned = y;
  GnnTensor *sum;

  if (owned == NULL || (sum = gnn_tensor_add (*x, owned, 1.0, error)) == NULL)
    return FALSE;
  g_object_unref (*x);
  *x = sum;
  return TRUE;
}

static GnnTensor *
self_attention (GnnModule  *module,
                GnnTensor  *x,
                GnnTensor  *mask,
                GError    **error)
{
  GnnModule *attn = gnn_module_get_submodule (module, "self_attn", error);
  g_autoptr(GnnTensor) h = attn ? child_forward (module, "norm1", x, error) : NULL;
  g_autoptr(GnnArgs) args = NULL;
  g_autoptr(GnnArgs) out = NULL;
  GnnTensor *a;

  if (h == NULL)
    return NULL;
  args = gnn_args_new ();
  gnn_args_add_tensor (args, h);
  gnn_args_add_tensor (args, h);
  gnn_args_add_tensor (args, h);
  gnn_args_set_kwarg_tensor (args, "attn_mask", mask);
  {
    GValue v = G_VALUE_INIT;

    g_value_init (&v, G_TYPE_BOOLEAN);
    g_value_set_boolean (&v, FALSE);
    gnn_args_set_kwarg (args, "need_weights", &v);
    /* the mask is the causal one: the fused attention applies it without reading it */
    g_value_set_boolean (&v, TRUE);
    gnn_args_set_kwarg (args, "is_causal", &v);
    g_value_unset (&v);
  }
  if ((out = gnn_module_forward (attn, args, error)) == NULL || (a = gnn_args_get_tensor (out, 0, error)) == NULL)
    return NULL;
  return child_forward (module, "dropout1", a, error);
}

static GnnTensor *
feed_forward (GnnModule  *module,
              GnnTensor  *x,
              GError    **error)
{
  g_autoptr(GnnTensor) h = child_forward (module, "norm2", x, error);
  g_autoptr(GnnTensor) h1 = h ? child_forward (module, "linear1", h, error) : NULL;
  g_autoptr(GnnTensor) g = h1 ? gnn_tensor_gelu (h1, "none", error) : NULL;
  g_autoptr(GnnTensor) gd = g ? child_forward (module, "dropout", g, error) : NULL;
  g_autoptr(GnnTensor) h2 = gd ? child_forward (module, "linear2", gd, error) : NULL;

  return h2 ? child_forward (module, "dropout2", h2, error) : NULL;
}

static GnnArgs *
gnn_char_lm_block_forward (GnnModule  *module,
                           GnnArgs    *input,
                           GError    **error)
{
  GnnTensor *x0, *mask;
  g_autoptr(GnnTensor) x = NULL;

  if (gnn_args_get_n_values (input) != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "CharLMBlock: forward takes x and the causal mask, got %u values",
                   gnn_args_get_n_values (input));
      return NULL;
    }
  if ((x0 = gnn_args_get_tensor (input, 0, error)) == NULL || (mask = gnn_args_get_tensor (input, 1, error)) == NULL)
    return NULL;
  x = g_object_ref (x0);
  if (!add_residual (&x, self_attention (module, x, mask, error), error) ||
      !add_residual (&x, feed_forward (module, x, error), error))
    return NULL;
  return gnn_args_new_tensor (x);
}

static void
gnn_char_lm_block_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  GnnCharLMBlock *self = (GnnCharLMBlock *) object;

  switch (prop_id)
    {
    case BLOCK_PROP_D_MODEL: self->d_model = g_value_get_int (value); break;
    case BLOCK_PROP_NHEAD: self->nhead = g_value_get_int (value); break;
    case BLOCK_PROP_DIM_FEEDFORWARD: self->dim_feedforward = g_value_get_int (value); break;
    case BLOCK_PROP_DROPOUT: self->dropout = g_value_get_double (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_char_lm_block_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  GnnCharLMBlock *self = (GnnCharLMBlock *) object;

  switch (prop_id)
    {
    case BLOCK_PROP_D_MODEL: g_value_set_int (value, self->d_model); break;
    case BLOCK_PROP_NHEAD: g_value_set_int (value, self->nhead); break;
    case BLOCK_PROP_DIM_FEEDFORWARD: g_value_set_int (value, self->dim_feedforward); break;
    case BLOCK_PROP_DROPOUT: g_value_set_double (value, self->dropout); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

#define CONSTRUCT_PROP (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS)

static char *
gnn_char_lm_block_extra_repr (GnnModule *module)
{
  GnnCharLMBlock *self = (GnnCharLMBlock *) module;

  return g_strdup_printf ("d_model=%d, nhead=%d, dim_feedforward=%d, dropout=%g, norm_first=True",
                          self->d_model, self->nhead, self->dim_feedforward, self->dropout);
}

static void
gnn_char_lm_block_class_init (GnnCharLMBlockClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->set_property = gnn_char_lm_block_set_property;
  object_class->get_property = gnn_char_lm_block_get_property;
  module_class->setup = gnn_char_lm_block_setup;
  module_class->forward = gnn_char_lm_block_forward;
  module_class->extra_repr = gnn_char_lm_block_extra_repr;
  g_object_class_install_property (object_class, BLOCK_PROP_D_MODEL,
    g_param_spec_int ("d-model", NULL, NULL, 1, G_MAXINT, 64, CONSTRUCT_PROP));
  g_object_class_install_property (object_class, BLOCK_PROP_NHEAD,
    g_param_spec_int ("nhead", NULL, NULL, 1, G_MAXINT, 1, CONSTRUCT_PROP));
  g_object_class_install_property (object_class, BLOCK_PROP_DIM_FEEDFORWARD,
    g_param_spec_int ("dim-feedforward", NULL, NULL, 1, G_MAXINT, 256, CONSTRUCT_PROP));
  g_object_class_install_property (object_class, BLOCK_PROP_DROPOUT,
    g_param_spec_double ("dropout", NULL, NULL, 0, 1, 0, CONSTRUCT_PROP));
}

static void
gnn_char_lm_block_init (GnnCharLMBlock *self)
{
}

/* The small GPT: token and position embeddings, n_layers blocks, a final LayerNorm and the
 * linear head; forward maps indices (N, L) (int64, L <= context) to logits (N, L, vocab). The
 * children are tok_emb, pos_emb, layers (a ModuleList), norm and head, as the torch program
 * bench/train_charlm_torch.py names them. */
typedef struct
{
  GnnModule parent_instance;
  int       vocab_size;
  int       context;
  int       d_model;
  int       n_layers;
  int       nhead;
  int       dim_feedforward;
  double    dropout;
} GnnCharLM;
typedef struct { GnnModuleClass parent_class; } GnnCharLMClass;

G_DEFINE_TYPE (GnnCharLM, gnn_char_lm, GNN_TYPE_MODULE)

enum { LM_PROP_0, LM_PROP_VOCAB_SIZE, LM_PROP_CONTEXT, LM_PROP_D_MODEL, LM_PROP_N_LAYERS, LM_PROP_NHEAD,
       LM_PROP_DIM_FEEDFORWARD, LM_PROP_DROPOUT };

static gboolean
gnn_char_lm_setup (GnnModule  *module,
                   GError    **error)
{
  GnnCharLM *self = (GnnCharLM *) module;
  g_autoptr(GnnModuleList) layers = gnn_module_list_new (NULL, 0);
  gint64 d = self->d_model;

  for (int i = 0; i < self->n_layers; i++)
    {
      g_autoptr(GnnModule) block = g_object_new (gnn_char_lm_block_get_type (), "d-model", self->d_model,
                                                 "nhead", self->nhead, "dim-feedforward", self->dim_feedforward,
                                                 "dropout", self->dropout, NULL);

      if (!gnn_module_setup (block, error))
        return FALSE;
      gnn_module_list_append (layers, block);
    }
  return add_child (module, "tok_emb",
                    gnn_embedding_new (self->vocab_size, self->d_model, GNN_EMBEDDING_NO_PADDING,
                                       GNN_DTYPE_FLOAT32, error), error) &&
         add_child (module, "pos_emb",
                    gnn_embedding_new (self->context, self->d_model, GNN_EMBEDDING_NO_PADDING,
                                       GNN_DTYPE_FLOAT32, error), error) &&
         add_child (module, "layers", g_object_ref (layers), error) &&
         add_child (module, "norm", gnn_layer_norm_new (&d, 1, error), error) &&
         add_child (module, "head", gnn_linear_new (self->d_model, self->vocab_size, TRUE, error), error);
}

static GnnArgs *
gnn_char_lm_forward (GnnModule  *module,
                     GnnArgs    *input,
                     GError    **error)
{
  GnnCharLM *self = (GnnCharLM *) module;
  GnnTensor *idx;
  GnnModule *layers;
  gint64 length;
  g_autoptr(GnnTensor) positions = NULL, tok = NULL, pos = NULL, ones = NULL, mask = NULL, x = NULL, logits = NULL;

  if ((idx = gnn_args_get_tensor (input, 0, error)) == NULL)
    return NULL;
  if (gnn_tensor_get_ndim (idx) != 2 || gnn_tensor_get_size (idx, 1, NULL) > self->context)
    {
      g_autofree char *s = shape_string (idx);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "CharLM: expected indices of shape (N, L) with L <= context (%d), found %s", self->context, s);
      return NULL;
    }
  length = gnn_tensor_get_size (idx, 1, NULL);
  if ((layers = gnn_module_get_submodule (module, "layers", error)) == NULL ||
      (positions = gnn_tensor_new_arange (0, length, 1, GNN_DTYPE_INT64, NULL, error)) == NULL ||
      (tok = child_forward (module, "tok_emb", idx, error)) == NULL ||
      (pos = child_forward (module, "pos_emb", positions, error)) == NULL ||
      (x = gnn_tensor_add (tok, pos, 1.0, error)) == NULL ||
      (ones = gnn_tensor_new_ones ((gint64[]) { length, length }, 2, GNN_DTYPE_BOOL, NULL, error)) == NULL ||
      (mask = gnn_tensor_triu (ones, 1, error)) == NULL)
    return NULL;
  for (int i = 0; i < self->n_layers; i++)
    {
      char name[16];
      GnnModule *block;
      g_autoptr(GnnArgs) args = NULL;
      g_autoptr(GnnArgs) out = NULL;
      GnnTensor *y;

      g_snprintf (name, sizeof name, "%d", i);
      if ((block = gnn_module_get_submodule (layers, name, error)) == NULL)
        return NULL;
      args = gnn_args_new ();
      gnn_args_add_tensor (args, x);
      gnn_args_add_tensor (args, mask);
      if ((out = gnn_module_forward (block, args, error)) == NULL || (y = gnn_args_get_tensor (out, 0, error)) == NULL)
        return NULL;
      g_object_unref (x);
      x = g_object_ref (y);
    }
  {
    g_autoptr(GnnTensor) h = child_forward (module, "norm", x, error);

    if (h == NULL || (logits = child_forward (module, "head", h, error)) == NULL)
      return NULL;
  }
  return gnn_args_new_tensor (logits);
}

static void
gnn_char_lm_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  GnnCharLM *self = (GnnCharLM *) object;

  switch (prop_id)
    {
    case LM_PROP_VOCAB_SIZE: self->vocab_size = g_value_get_int (value); break;
    case LM_PROP_CONTEXT: self->context = g_value_get_int (value); break;
    case LM_PROP_D_MODEL: self->d_model = g_value_get_int (value); break;
    case LM_PROP_N_LAYERS: self->n_layers = g_value_get_int (value); break;
    case LM_PROP_NHEAD: self->nhead = g_value_get_int (value); break;
    case LM_PROP_DIM_FEEDFORWARD: self->dim_feedforward = g_value_get_int (value); break;
    case LM_PROP_DROPOUT: self->dropout = g_value_get_double (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_char_lm_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  GnnCharLM *self = (GnnCharLM *) object;

  switch (prop_id)
    {
    case LM_PROP_VOCAB_SIZE: g_value_set_int (value, self->vocab_size); break;
    case LM_PROP_CONTEXT: g_value_set_int (value, self->context); break;
    case LM_PROP_D_MODEL: g_value_set_int (value, self->d_model); break;
    case LM_PROP_N_LAYERS: g_value_set_int (value, self->n_layers); break;
    case LM_PROP_NHEAD: g_value_set_int (value, self->nhead); break;
    case LM_PROP_DIM_FEEDFORWARD: g_value_set_int (value, self->dim_feedforward); break;
    case LM_PROP_DROPOUT: g_value_set_double (value, self->dropout); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_char_lm_class_init (GnnCharLMClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->set_property = gnn_char_lm_set_property;
  object_class->get_property = gnn_char_lm_get_property;
  module_class->setup = gnn_char_lm_setup;
  module_class->forward = gnn_char_lm_forward;
  g_object_class_install_property (object_class, LM_PROP_VOCAB_SIZE,
    g_param_spec_int ("vocab-size", NULL, NULL, 1, G_MAXINT, 256, CONSTRUCT_PROP));
  g_object_class_install_property (object_class, LM_PROP_CONTEXT,
    g_param_spec_int ("context", NULL, NULL, 1, G_MAXINT, 128, CONSTRUCT_PROP));
  g_object_class_install_property (object_class, LM_PROP_D_MODEL,
    g_param_spec_int ("d-model", NULL, NULL, 1, G_MAXINT, 128, CONSTRUCT_PROP));
  g_object_class_install_property (object_class, LM_PROP_N_LAYERS,
    g_param_spec_int ("n-layers", NULL, NULL, 0, G_MAXINT, 4, CONSTRUCT_PROP));
  g_object_class_install_property (object_class, LM_PROP_NHEAD,
    g_param_spec_int ("nhead", NULL, NULL, 1, G_MAXINT, 4, CONSTRUCT_PROP));
  g_object_class_install_property (object_class, LM_PROP_DIM_FEEDFORWARD,
    g_param_spec_int ("dim-feedforward", NULL, NULL, 1, G_MAXINT, 512, CONSTRUCT_PROP));
  g_object_class_install_property (object_class, LM_PROP_DROPOUT,
    g_param_spec_double ("dropout", NULL, NULL, 0, 1, 0, CONSTRUCT_PROP));
}

static void
gnn_char_lm_init (GnnCharLM *self)
{
}

/* ---- options ------------------------------------------------------------------------------ */

#define INTERRUPTED_PATH "gnn-train-interrupted.safetensors"
#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 130

#define META_PREFIX "gnn-train."
#define WHAT "gnn-train charlm"                /* the checkpoints this task reads */
#define META_TASK META_PREFIX "task"
#define META_STEP META_PREFIX "step"            /* the steps done */
#define META_LOSS_SUM META_PREFIX "loss-sum"    /* the training losses since the last report */
#define META_LOSS_COUNT META_PREFIX "loss-count"
#define META_DONE META_PREFIX "done"

/* Unset values (-1, NAN) mark options not given, so that --resume can tell those a user
 * repeated from those the checkpoint brings. */
typedef struct
{
  int      steps;
  int      batch_size;
  int      context;
  int      layers;
  int      d_model;
  int      heads;
  int      dim_feedforward;
  double   dropout;
  double   lr;
  int      warmup;
  double   weight_decay;
  double   clip;
  double   ema_decay;
  gint64   seed;
  int      eval_every;
  int      eval_windows;
  /* not kept in the checkpoint */
  char    *save;
  char    *resume;
  char    *data_dir;
  char    *task;
  int      threads;
  int      sample;
  double   temperature;
  int      top_k;
  gint64   sample_seed;
  char    *overrides;
} Options;

typedef enum { KIND_INT, KIND_INT64, KIND_DOUBLE } Kind;

/* the options that shape the run, kept in the checkpoint as gnn-train.option.KEY; those that
 * shape only the evaluation may differ on the command line of --resume */
static const struct
{
  GnnToolRunOption option;
  Kind             kind;
  gsize            offset;
} run_options[] = {
  { { "steps" }, KIND_INT, G_STRUCT_OFFSET (Options, steps) },
  { { "batch-size" }, KIND_INT, G_STRUCT_OFFSET (Options, batch_size) },
  { { "context" }, KIND_INT, G_STRUCT_OFFSET (Options, context) },
  { { "layers" }, KIND_INT, G_STRUCT_OFFSET (Options, layers) },
  { { "d-model" }, KIND_INT, G_STRUCT_OFFSET (Options, d_model) },
  { { "heads" }, KIND_INT, G_STRUCT_OFFSET (Options, heads) },
  { { "dim-feedforward" }, KIND_INT, G_STRUCT_OFFSET (Options, dim_feedforward) },
  { { "dropout" }, KIND_DOUBLE, G_STRUCT_OFFSET (Options, dropout) },
  { { "lr" }, KIND_DOUBLE, G_STRUCT_OFFSET (Options, lr) },
  { { "warmup" }, KIND_INT, G_STRUCT_OFFSET (Options, warmup) },
  { { "weight-decay" }, KIND_DOUBLE, G_STRUCT_OFFSET (Options, weight_decay) },
  { { "clip" }, KIND_DOUBLE, G_STRUCT_OFFSET (Options, clip) },
  { { "ema-decay" }, KIND_DOUBLE, G_STRUCT_OFFSET (Options, ema_decay) },
  { { "seed" }, KIND_INT64, G_STRUCT_OFFSET (Options, seed) },
  { { "eval-every", TRUE }, KIND_INT, G_STRUCT_OFFSET (Options, eval_every) },
  { { "eval-windows", TRUE }, KIND_INT, G_STRUCT_OFFSET (Options, eval_windows) },
};

#define OPT_INT(o, i) (G_STRUCT_MEMBER (int, (o), run_options[i].offset))
#define OPT_INT64(o, i) (G_STRUCT_MEMBER (gint64, (o), run_options[i].offset))
#define OPT_DOUBLE(o, i) (G_STRUCT_MEMBER (double, (o), run_options[i].offset))

static void
options_clear (Options *opts)
{
  g_free (opts->save);
  g_free (opts->resume);
  g_free (opts->data_dir);
  g_free (opts->task);
  g_free (opts->overrides);
}

static char *
option_to_string (gconstpointer opts,
                  guint         i)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  switch (run_options[i].kind)
    {
    case KIND_INT: return g_strdup_printf ("%d", OPT_INT (opts, i));
    case KIND_INT64: return g_strdup_printf ("%" G_GINT64_FORMAT, OPT_INT64 (opts, i));
    default: return g_strdup (g_ascii_dtostr (buf, sizeof buf, OPT_DOUBLE (opts, i)));
    }
}

static gboolean
option_given (gconstpointer opts,
              guint         i)
{
  switch (run_options[i].kind)
    {
    case KIND_INT: return OPT_INT (opts, i) != -1;
    case KIND_INT64: return OPT_INT64 (opts, i) != -1;
    default: return !isnan (OPT_DOUBLE (opts, i));
    }
}

static gboolean
option_from_string (gpointer    opts,
                    guint       i,
                    const char *value)
{
  char *end = NULL;

  errno = 0;
  if (run_options[i].kind == KIND_DOUBLE)
    {
      double d = g_ascii_strtod (value, &end);

      if (end == value || *end != '\0')
        return FALSE;
      OPT_DOUBLE (opts, i) = d;
    }
  else
    {
      gint64 n = g_ascii_strtoll (value, &end, 10);

      if (end == value || *end != '\0' || errno != 0)
        return FALSE;
      if (run_options[i].kind == KIND_INT)
        OPT_INT (opts, i) = (int) n;
      else
        OPT_INT64 (opts, i) = n;
    }
  return TRUE;
}

static const GnnToolOptionTable option_table = {
  &run_options[0].option, sizeof run_options[0], G_N_ELEMENTS (run_options),
  option_given, option_to_string, option_from_string,
};

static void
options_fill_defaults (Options *opts)
{
  if (opts->steps < 0) opts->steps = 600;
  if (opts->batch_size < 0) opts->batch_size = 32;
  if (opts->context < 0) opts->context = 128;
  if (opts->layers < 0) opts->layers = 4;
  if (opts->d_model < 0) opts->d_model = 128;
  if (opts->heads < 0) opts->heads = 4;
  if (opts->dim_feedforward < 0) opts->dim_feedforward = 4 * opts->d_model;
  if (isnan (opts->dropout)) opts->dropout = 0.0;
  if (isnan (opts->lr)) opts->lr = 2e-3;
  if (opts->warmup < 0) opts->warmup = MIN (100, opts->steps / 10);
  if (isnan (opts->weight_decay)) opts->weight_decay = 0.1;
  if (isnan (opts->clip)) opts->clip = 1.0;
  if (isnan (opts->ema_decay)) opts->ema_decay = 0.99;
  if (opts->seed < 0) opts->seed = 0;
  if (opts->eval_every < 0) opts->eval_every = 100;
  if (opts->eval_windows < 0) opts->eval_windows = 128;
  if (isnan (opts->temperature)) opts->temperature = 1.0;
  if (opts->top_k == G_MININT) opts->top_k = 0;
  if (opts->sample_seed < 0) opts->sample_seed = opts->seed;
}

static char *
options_check (const Options *opts)
{
  if (opts->steps < 1)
    return g_strdup_printf ("--steps: expected at least 1, found %d", opts->steps);
  if (opts->batch_size < 1)
    return g_strdup_printf ("--batch-size: expected at least 1, found %d", opts->batch_size);
  if (opts->context < 1)
    return g_strdup_printf ("--context: expected at least 1, found %d", opts->context);
  if (opts->layers < 1)
    return g_strdup_printf ("--layers: expected at least 1, found %d", opts->layers);
  if (opts->d_model < 1)
    return g_strdup_printf ("--d-model: expected at least 1, found %d", opts->d_model);
  if (opts->heads < 1 || opts->d_model % opts->heads != 0)
    return g_strdup_printf ("--heads: expected a divisor of --d-model (%d), found %d", opts->d_model, opts->heads);
  if (opts->dim_feedforward < 1)
    return g_strdup_printf ("--dim-feedforward: expected at least 1, found %d", opts->dim_feedforward);
  if (!(opts->dropout >= 0 && opts->dropout < 1))
    return g_strdup_printf ("--dropout: expected a value in [0, 1), found %g", opts->dropout);
  if (!(opts->lr > 0) || !isfinite (opts->lr))
    return g_strdup_printf ("--lr: expected a positive number, found %g", opts->lr);
  if (opts->warmup < 0 || opts->warmup >= opts->steps)
    return g_strdup_printf ("--warmup: expected a number of steps from 0 to --steps - 1 (%d), found %d",
                            opts->steps - 1, opts->warmup);
  if (!(opts->weight_decay >= 0) || !isfinite (opts->weight_decay))
    return g_strdup_printf ("--weight-decay: expected a number >= 0, found %g", opts->weight_decay);
  if (!(opts->clip >= 0) || !isfinite (opts->clip))
    return g_strdup_printf ("--clip: expected a number >= 0 (0: no clipping), found %g", opts->clip);
  if (!(opts->ema_decay >= 0 && opts->ema_decay < 1))
    return g_strdup_printf ("--ema-decay: expected a value in [0, 1) (0: no EMA), found %g", opts->ema_decay);
  if (opts->eval_every < 1)
    return g_strdup_printf ("--eval-every: expected at least 1, found %d", opts->eval_every);
  if (opts->eval_windows < 1)
    return g_strdup_printf ("--eval-windows: expected at least 1, found %d", opts->eval_windows);
  if (opts->sample < 0)
    return g_strdup_printf ("--sample: expected a number of characters >= 0, found %d", opts->sample);
  if (opts->top_k < 0)
    return g_strdup_printf ("--top-k: expected a number >= 0 (0: all), found %d", opts->top_k);
  if (!(opts->temperature > 0) || !isfinite (opts->temperature))
    return g_strdup_printf ("--temperature: expected a positive number, found %g", opts->temperature);
  if (opts->threads < 0)
    return g_strdup_printf ("--threads: expected a number >= 1, found %d", opts->threads);
  return NULL;
}

static gboolean
parse_int64_option (const char  *name,
                    const char  *value,
                    gint64      *out,
                    GError     **error)
{
  char *end = NULL;

  errno = 0;
  *out = g_ascii_strtoll (value, &end, 10);
  if (end == value || *end != '\0' || errno != 0 || *out < 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "%s: expected an integer >= 0, found '%s'", name, value);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_seed (const char *name, const char *value, gpointer data, GError **error)
{
  return parse_int64_option (name, value, &((Options *) data)->seed, error);
}

static gboolean
parse_sample_seed (const char *name, const char *value, gpointer data, GError **error)
{
  return parse_int64_option (name, value, &((Options *) data)->sample_seed, error);
}

/* ---- the trainer -------------------------------------------------------------------------- */

typedef struct
{
  Options          *opts;
  GnnCharCorpus     corpus;
  GnnModule        *model;
  GnnOptimizer     *optimizer;
  GnnLRScheduler   *scheduler;
  GnnAveragedModel *ema;
  GPtrArray        *params;       /* the model's parameters, for clip_grad_norm_ */
  int               step;         /* steps done */
  double            loss_sum;     /* the training losses since the last report */
  int               loss_count;
  gboolean          done;
} Trainer;

static void
trainer_clear (Trainer *t)
{
  gnn_char_corpus_clear (&t->corpus);
  g_clear_object (&t->model);
  g_clear_object (&t->optimizer);
  g_clear_object (&t->scheduler);
  g_clear_object (&t->ema);
  g_clear_pointer (&t->params, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Trainer, trainer_clear)

static GnnModule *
model_new (const Options  *opts,
           guint           vocab_size,
           GError        **error)
{
  g_autoptr(GnnModule) model = g_object_new (gnn_char_lm_get_type (), "vocab-size", (int) vocab_size,
                                             "context", opts->context, "d-model", opts->d_model,
                                             "n-layers", opts->layers, "nhead", opts->heads,
                                             "dim-feedforward", opts->dim_feedforward,
                                             "dropout", opts->dropout, NULL);

  return gnn_module_setup (model, error) ? g_steal_pointer (&model) : NULL;
}

/* AdamW, linear warm-up then cosine annealing to 0 (SequentialLR of LinearLR and
 * CosineAnnealingLR, stepped every step), the EMA */
static gboolean
trainer_setup (Trainer  *t,
               GError  **error)
{
  const Options *opts = t->opts;
  g_autoptr(GnnParamGroup) params = gnn_param_group_new_from_module (t->model);
  g_autoptr(GnnLRScheduler) cosine = NULL;

  t->params = gnn_module_parameters (t->model, TRUE);
  t->optimizer = GNN_OPTIMIZER (gnn_adamw_new (params, opts->lr, 0.9, 0.999, 1e-8, opts->weight_decay, FALSE,
                                               FALSE, error));
  if (t->optimizer == NULL)
    return FALSE;
  if (opts->warmup > 0)
    {
      g_autoptr(GnnLRScheduler) warmup = NULL;
      GnnLRScheduler *both[2];
      int milestone = opts->warmup;

      if ((warmup = GNN_LR_SCHEDULER (gnn_linear_lr_new (t->optimizer, 1.0 / opts->warmup, 1.0, opts->warmup,
                                                         -1, error))) == NULL ||
          (cosine = GNN_LR_SCHEDULER (gnn_cosine_annealing_lr_new (t->optimizer, opts->steps - opts->warmup, 0,
                                                                  -1, error))) == NULL)
        return FALSE;
      both[0] = warmup;
      both[1] = cosine;
      t->scheduler = GNN_LR_SCHEDULER (gnn_sequential_lr_new (t->optimizer, both, 2, &milestone, 1, -1, error));
    }
  else
    t->scheduler = GNN_LR_SCHEDULER (gnn_cosine_annealing_lr_new (t->optimizer, opts->steps, 0, -1, error));
  if (t->scheduler == NULL)
    return FALSE;
  if (opts->ema_decay > 0)
    {
      g_autoptr(GnnAverageFunction) ema_fn = gnn_average_function_new_ema_multi (opts->ema_decay, error);

      if (ema_fn == NULL || (t->ema = gnn_averaged_model_new (t->model, NULL, NULL, ema_fn, TRUE, error)) == NULL)
        return FALSE;
    }
  return TRUE;
}

static double
current_lr (Trainer *t)
{
  return gnn_param_group_get_double (gnn_optimizer_get_param_group (t->optimizer, 0), "lr");
}

/* ---- batches ------------------------------------------------------------------------------ */

/* @n windows of @length + 1 tokens of @text starting at @starts: the inputs (n, length) and
 * the targets, the same shifted by one */
static gboolean
windows_to_tensors (const guint8  *text,
                    const gsize   *starts,
                    guint          n,
                    int            length,
                    GnnTensor    **x,
                    GnnTensor    **y,
                    GError       **error)
{
  gsize total = (gsize) n * length;
  g_autofree gint64 *xs = g_new (gint64, total);
  g_autofree gint64 *ys = g_new (gint64, total);
  gint64 shape[2] = { n, length };

  for (guint i = 0; i < n; i++)
    for (int j = 0; j < length; j++)
      {
        xs[(gsize) i * length + j] = text[starts[i] + j];
        ys[(gsize) i * length + j] = text[starts[i] + j + 1];
      }
  *x = gnn_tensor_new_from_int64s (xs, total, shape, 2, error);
  if (*x == NULL)
    return FALSE;
  *y = gnn_tensor_new_from_int64s (ys, total, shape, 2, error);
  if (*y == NULL)
    {
      g_clear_object (x);
      return FALSE;
    }
  return TRUE;
}

/* The batch of step @step: windows at positions drawn from a generator seeded by the seed and
 * the step alone, so that a resumed run draws the same batches */
static gboolean
train_batch (Trainer     *t,
             int          step,
             GnnTensor  **x,
             GnnTensor  **y,
             GError     **error)
{
  const Options *opts = t->opts;
  guint32 seed[4] = { (guint32) opts->seed, (guint32) ((guint64) opts->seed >> 32), (guint32) step, 0x63686c6d };
  GRand *rand = g_rand_new_with_seed_array (seed, G_N_ELEMENTS (seed));
  g_autofree gsize *starts = g_new (gsize, opts->batch_size);
  gboolean ok;

  for (int i = 0; i < opts->batch_size; i++)
    starts[i] = (gsize) (g_rand_double (rand) * (double) (t->corpus.n_train - opts->context - 1));
  g_rand_free (rand);
  ok = windows_to_tensors (t->corpus.train, starts, opts->batch_size, opts->context, x, y, error);
  return ok;
}

/* the mean cross-entropy of @logits (N, L, V) against @targets (N, L) */
static GnnTensor *
lm_loss (GnnTensor  *logits,
         GnnTensor  *targets,
         GError    **error)
{
  gint64 v = gnn_tensor_get_size (logits, 2, NULL);
  g_autoptr(GnnTensor) flat = gnn_tensor_reshape (logits, (gint64[]) { -1, v }, 2, error);
  g_autoptr(GnnTensor) flat_targets = flat ? gnn_tensor_reshape (targets, (gint64[]) { -1 }, 1, error) : NULL;

  if (flat_targets == NULL)
    return NULL;
  return gnn_tensor_cross_entropy (flat, flat_targets, NULL, -100, GNN_REDUCTION_MEAN, 0.0, error);
}

static gboolean
item (GnnTensor  *t,
      double     *value,
      GError    **error)
{
  GError *local_error = NULL;

  *value = gnn_tensor_item (t, &local_error);
  if (local_error)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  return TRUE;
}

static gboolean
train_step (Trainer  *t,
            GError  **error)
{
  g_autoptr(GnnTensor) x = NULL, y = NULL, logits = NULL, loss = NULL, norm = NULL;
  double value;

  if (!train_batch (t, t->step, &x, &y, error))
    return FALSE;
  gnn_optimizer_zero_grad (t->optimizer, TRUE);
  if ((logits = gnn_module_forward_tensor (t->model, x, error)) == NULL ||
      (loss = lm_loss (logits, y, error)) == NULL ||
      !gnn_tensor_backward (loss, NULL, FALSE, error) || !item (loss, &value, error))
    return FALSE;
  if (!isfinite (value))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   "the loss diverged to %g at step %d; try a smaller --lr", value, t->step + 1);
      return FALSE;
    }
  if (t->opts->clip > 0 &&
      (norm = gnn_clip_grad_norm_ ((GnnTensor **) t->params->pdata, t->params->len, t->opts->clip, 2.0, FALSE,
                                   error)) == NULL)
    return FALSE;
  if (!gnn_optimizer_step (t->optimizer, error) || !gnn_lr_scheduler_step (t->scheduler, error))
    return FALSE;
  if (t->ema && !gnn_averaged_model_update_parameters (t->ema, t->model, error))
    return FALSE;
  t->loss_sum += value;
  t->loss_count++;
  t->step++;
  return TRUE;
}

/* The mean loss of @model over the held-out windows: @n_windows windows of --context
 * characters spread evenly over the held-out text, the same at every evaluation */
static gboolean
evaluate (Trainer    *t,
          GnnModule  *model,
          double     *mean_loss,
          GError    **error)
{
  g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();
  const Options *opts = t->opts;
  gsize span = t->corpus.n_val - opts->context - 1;
  guint n = (guint) opts->eval_windows;
  g_autofree gsize *starts = g_new (gsize, n);
  gboolean was_training = gnn_module_get_training (model);
  double sum = 0;
  gboolean ok = TRUE;

  for (guint i = 0; i < n; i++)
    starts[i] = n > 1 ? span * i / (n - 1) : 0;
  gnn_module_eval (model);
  for (guint b = 0; b < n && ok; b += opts->batch_size)
    {
      guint m = MIN ((guint) opts->batch_size, n - b);
      g_autoptr(GnnTensor) x = NULL, y = NULL, logits = NULL, loss = NULL;
      double value;

      ok = windows_to_tensors (t->corpus.val, starts + b, m, opts->context, &x, &y, error) &&
           (logits = gnn_module_forward_tensor (model, x, error)) != NULL &&
           (loss = lm_loss (logits, y, error)) != NULL && item (loss, &value, error);
      if (ok)
        sum += value * m;
    }
  gnn_module_train (model, was_training);
  *mean_loss = sum / n;
  return ok;
}

/* ---- checkpoints -------------------------------------------------------------------------- */

static GnnCheckpoint *
trainer_checkpoint (Trainer *t)
{
  GnnCheckpoint *ckpt = gnn_checkpoint_new ();

  gnn_checkpoint_set_model (ckpt, t->model);
  gnn_checkpoint_set_optimizer (ckpt, t->optimizer);
  gnn_checkpoint_set_scheduler (ckpt, t->scheduler);
  if (t->ema)
    gnn_checkpoint_add_averaged_model (ckpt, "ema", t->ema);
  gnn_checkpoint_set_generator (ckpt, gnn_generator_get_default ());
  return ckpt;
}

static gboolean
trainer_save (Trainer     *t,
              const char  *path,
              GError     **error)
{
  g_autoptr(GnnCheckpoint) ckpt = trainer_checkpoint (t);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *step = g_strdup_printf ("%d", t->step);
  g_autofree char *count = g_strdup_printf ("%d", t->loss_count);

  gnn_tool_save_options (ckpt, META_PREFIX "option.", &option_table, t->opts);
  gnn_checkpoint_set_metadata (ckpt, META_TASK, "charlm");
  gnn_checkpoint_set_metadata (ckpt, META_STEP, step);
  gnn_checkpoint_set_metadata (ckpt, META_LOSS_COUNT, count);
  gnn_checkpoint_set_metadata (ckpt, META_LOSS_SUM, g_ascii_dtostr (buf, sizeof buf, t->loss_sum));
  gnn_checkpoint_set_metadata (ckpt, META_DONE, t->done ? "true" : "false");
  return gnn_checkpoint_save (ckpt, path, error);
}

/* The task a gnn-train checkpoint was written by: "charlm", or NULL (the CNN task, which
 * writes no task key, or a file that cannot be read: the CNN task reports that). */
char *
gnn_train_checkpoint_task (const char *path)
{
  g_autoptr(GnnCheckpoint) ckpt = gnn_checkpoint_new ();
  const char *task;

  if (!gnn_checkpoint_load (ckpt, path, NULL))
    return NULL;
  task = gnn_checkpoint_get_metadata (ckpt, META_TASK);
  return g_strdup (task);
}

static gboolean
read_checkpoint_options (Options     *opts,
                         const char  *path,
                         GError     **error)
{
  g_autoptr(GnnCheckpoint) ckpt = gnn_checkpoint_new ();
  const char *task;

  if (!gnn_checkpoint_load (ckpt, path, error))
    return FALSE;
  if ((task = gnn_tool_require_metadata (ckpt, path, WHAT, META_TASK, error)) == NULL)
    return FALSE;
  if (!g_str_equal (task, "charlm"))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   "%s: expected a checkpoint of the charlm task, found one of the task '%s'", path, task);
      return FALSE;
    }
  g_clear_pointer (&opts->overrides, g_free);
  return gnn_tool_resume_options (ckpt, path, WHAT, META_PREFIX "option.", &option_table, opts,
                                  &opts->overrides, error);
}

static gboolean
trainer_load (Trainer     *t,
              const char  *path,
              GError     **error)
{
  g_autoptr(GnnCheckpoint) ckpt = trainer_checkpoint (t);
  const char *value;
  char *end = NULL;
  gint64 step, count;

  if (!gnn_checkpoint_load (ckpt, path, error) ||
      !gnn_tool_metadata_int (ckpt, path, WHAT, META_STEP, t->opts->steps, &step, error) ||
      !gnn_tool_metadata_int (ckpt, path, WHAT, META_LOSS_COUNT, G_MAXINT, &count, error) ||
      (value = gnn_tool_require_metadata (ckpt, path, WHAT, META_LOSS_SUM, error)) == NULL)
    return FALSE;
  t->loss_sum = g_ascii_strtod (value, &end);
  if (end == value || *end != '\0')
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   "%s: expected a number in %s, found '%s'", path, META_LOSS_SUM, value);
      return FALSE;
    }
  t->step = (int) step;
  t->loss_count = (int) count;
  value = gnn_checkpoint_get_metadata (ckpt, META_DONE);
  t->done = value != NULL && g_str_equal (value, "true");
  return TRUE;
}

/* ---- Ctrl-C and progress ------------------------------------------------------------------ */


/* "step 120/600 [====>     ] loss 2.3456  5200 tokens/s  left 3:12", fitted into the
 * terminal's width - 1 columns: the rate and the time go first, then the bar */
static void
draw_progress (Trainer *t,
               double   tokens_per_s)
{
  const Options *opts = t->opts;
  int room = MAX (gnn_tool_terminal_width () - 1, 1), bar = 24;
  double left = tokens_per_s > 0 ? (double) (opts->steps - t->step) * opts->batch_size * opts->context / tokens_per_s : 0;
  g_autofree char *eta = gnn_tool_format_duration (left);
  g_autofree char *head = g_strdup_printf ("step %d/%d", t->step, opts->steps);
  g_autofree char *loss = g_strdup_printf ("  loss %.4f", t->loss_count ? t->loss_sum / t->loss_count : 0.0);
  g_autofree char *rate = g_strdup_printf ("  %.0f tokens/s", tokens_per_s);
  g_autofree char *time = g_strdup_printf ("  left %s", eta);
  GString *line;
  int used = (int) (strlen (head) + strlen (loss) + strlen (rate) + strlen (time));

  if (used > room)
    {
      used -= (int) strlen (rate);
      rate[0] = '\0';
    }
  if (used > room)
    {
      used -= (int) strlen (time);
      time[0] = '\0';
    }
  bar = MIN (bar, room - used - 3);
  line = g_string_new (head);
  if (bar >= 8)
    {
      int filled = (int) ((gint64) t->step * bar / opts->steps);

      g_string_append (line, " [");
      for (int i = 0; i < bar; i++)
        g_string_append_c (line, i < filled ? '=' : i == filled ? '>' : ' ');
      g_string_append_c (line, ']');
    }
  g_string_append_printf (line, "%s%s%s", loss, rate, time);
  if ((int) line->len > room)
    g_string_truncate (line, room);
  g_print ("\r\033[K%s", line->str);
  fflush (stdout);
  g_string_free (line, TRUE);
}

/* ---- training ----------------------------------------------------------------------------- */

/* the validation loss and perplexity of the model and its EMA, with the training loss since
 * the last report */
static gboolean
report (Trainer  *t,
        double    tokens_per_s,
        GError  **error)
{
  double val, ema_val = 0;

  if (!evaluate (t, t->model, &val, error) || (t->ema && !evaluate (t, GNN_MODULE (t->ema), &ema_val, error)))
    return FALSE;
  if (gnn_tool_on_terminal ())
    g_print ("\r\033[K");
  g_print ("step %d/%d: train loss %.4f, val loss %.4f (ppl %.3f)", t->step, t->opts->steps,
           t->loss_count ? t->loss_sum / t->loss_count : NAN, val, exp (val));
  if (t->ema)
    g_print (", ema val loss %.4f (ppl %.3f)", ema_val, exp (ema_val));
  g_print (", lr %.3g, %.0f tokens/s\n", current_lr (t), tokens_per_s);
  fflush (stdout);
  t->loss_sum = 0;
  t->loss_count = 0;
  return TRUE;
}

/* FALSE with @error on failure, FALSE without one when interrupted (after saving) */
static gboolean
train (Trainer     *t,
       const char  *interrupt_path,
       GError     **error)
{
  const Options *opts = t->opts;
  gint64 start = g_get_monotonic_time (), last_draw = 0;
  int start_step = t->step;

  gnn_module_train (t->model, TRUE);
  while (t->step < opts->steps)
    {
      gint64 now;
      double rate;

      if (gnn_tool_interrupted ())
        {
          if (gnn_tool_on_terminal ())
            g_print ("\n");
          if (!trainer_save (t, interrupt_path, error))
            return FALSE;
          g_print ("interrupted at step %d of %d: saved %s; continue with --resume %s\n", t->step,
                   opts->steps, interrupt_path, interrupt_path);
          return FALSE;
        }
      if (!train_step (t, error))
        return FALSE;
      now = g_get_monotonic_time ();
      rate = (double) (t->step - start_step) * opts->batch_size * opts->context / MAX ((now - start) / 1e6, 1e-9);
      if (t->step % opts->eval_every == 0 || t->step == opts->steps)
        {
          if (!report (t, rate, error))
            return FALSE;
          if (opts->save && t->step < opts->steps && !trainer_save (t, opts->save, error))
            return FALSE;
        }
      else if (gnn_tool_on_terminal () && now - last_draw > 200000)
        {
          draw_progress (t, rate);
          last_draw = now;
        }
    }
  t->done = TRUE;
  return TRUE;
}

/* ---- sampling ----------------------------------------------------------------------------- */

/* @n characters from @model, each drawn from the softmax of the last position's logits / the
 * temperature (only the top-k when top_k > 0) given the previous context characters, starting
 * after a newline; the draws come from a generator seeded with --sample-seed */
static char *
sample_text (Trainer    *t,
             GnnModule  *model,
             GError    **error)
{
  g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();
  const Options *opts = t->opts;
  guint32 seed[3] = { (guint32) opts->sample_seed, (guint32) ((guint64) opts->sample_seed >> 32), 0x73616d70 };
  g_autoptr(GRand) rand = g_rand_new_with_seed_array (seed, G_N_ELEMENTS (seed));
  guint v = t->corpus.n_vocab;
  g_autofree gint64 *tokens = g_new (gint64, opts->sample + 1);
  g_autofree double *p = g_new (double, v);
  g_autoptr(GString) text = g_string_new (NULL);
  gboolean was_training = gnn_module_get_training (model);
  gsize n = 1;

  tokens[0] = MAX (t->corpus.index['\n'], 0);
  gnn_module_eval (model);
  for (int s = 0; s < opts->sample; s++)
    {
      gsize length = MIN (n, (gsize) opts->context);
      g_autoptr(GnnTensor) x = gnn_tensor_new_from_int64s (tokens + n - length, length, (gint64[]) { 1, length }, 2,
                                                           error);
      g_autoptr(GnnTensor) logits = x ? gnn_module_forward_tensor (model, x, error) : NULL;
      g_autoptr(GnnTensor) last = logits ? gnn_tensor_select (logits, 1, (gint64) length - 1, error) : NULL;
      g_autofree float *values = NULL;
      double max = -INFINITY, sum = 0, r;
      gsize n_values;
      guint chosen = 0;

      if (last == NULL || (values = gnn_tensor_to_floats (last, &n_values, error)) == NULL)
        {
          gnn_module_train (model, was_training);
          return NULL;
        }
      if (opts->top_k > 0 && (guint) opts->top_k < v)
        {
          /* the k-th largest logit: keep the logits not below it */
          g_autofree float *sorted = g_memdup2 (values, v * sizeof (float));
          float kth;

          for (int i = 0; i < opts->top_k; i++)
            for (guint j = i + 1; j < v; j++)
              if (sorted[j] > sorted[i])
                {
                  float tmp = sorted[i];
                  sorted[i] = sorted[j];
                  sorted[j] = tmp;
                }
          kth = sorted[opts->top_k - 1];
          for (guint j = 0; j < v; j++)
            if (values[j] < kth)
              values[j] = -INFINITY;
        }
      for (guint j = 0; j < v; j++)
        max = MAX (max, values[j] / opts->temperature);
      for (guint j = 0; j < v; j++)
        sum += p[j] = isinf (values[j]) ? 0 : exp (values[j] / opts->temperature - max);
      r = g_rand_double (rand) * sum;
      for (chosen = 0; chosen + 1 < v && r >= p[chosen]; chosen++)
        r -= p[chosen];
      while (p[chosen] == 0 && chosen > 0)
        chosen--;
      tokens[n++] = chosen;
      g_string_append_c (text, (char) t->corpus.chars[chosen]);
    }
  gnn_module_train (model, was_training);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* ---- main --------------------------------------------------------------------------------- */

static gint64
count_parameters (GnnModule *model)
{
  g_autoptr(GPtrArray) params = gnn_module_parameters (model, TRUE);
  gint64 n = 0;

  for (guint i = 0; i < params->len; i++)
    n += gnn_tensor_get_numel (g_ptr_array_index (params, i));
  return n;
}

static int
run (Options  *opts,
     GError  **error)
{
  g_auto(Trainer) t = { 0 };
  const char *interrupt_path = opts->save ? opts->save : INTERRUPTED_PATH;
  gint64 t0 = g_get_monotonic_time ();
  double val, ema_val;

  t.opts = opts;
  if (!gnn_char_corpus_load (&t.corpus, opts->data_dir, error))
    return EXIT_USAGE;
  if (t.corpus.n_train < (gsize) opts->context + 2 || t.corpus.n_val < (gsize) opts->context + 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "--context %d: expected training and held-out texts longer than the context, found %"
                   G_GSIZE_FORMAT " and %" G_GSIZE_FORMAT " characters", opts->context, t.corpus.n_train,
                   t.corpus.n_val);
      return EXIT_USAGE;
    }

  /* the default generator seeded first, so that the initial weights follow --seed */
  gnn_manual_seed ((guint64) opts->seed);
  g_type_ensure (gnn_char_lm_get_type ());
  g_type_ensure (gnn_char_lm_block_get_type ());
  if (opts->resume)
    {
      g_autofree char *json = gnn_checkpoint_peek_model_json (opts->resume, error);

      if (json == NULL || (t.model = gnn_module_new_from_json (json, -1, error)) == NULL)
        return EXIT_USAGE;
    }
  else if ((t.model = model_new (opts, t.corpus.n_vocab, error)) == NULL)
    return EXIT_FAILURE;
  if (!G_TYPE_CHECK_INSTANCE_TYPE (t.model, gnn_char_lm_get_type ()))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT, "%s: expected a CharLM model, found a %s",
                   opts->resume, gnn_module_get_name (t.model));
      return EXIT_USAGE;
    }
  if (((GnnCharLM *) t.model)->vocab_size != (int) t.corpus.n_vocab)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: expected a model of the corpus's %u symbols, found one of %d", opts->resume,
                   t.corpus.n_vocab, ((GnnCharLM *) t.model)->vocab_size);
      return EXIT_USAGE;
    }
  if (!trainer_setup (&t, error))
    return EXIT_FAILURE;
  if (opts->resume && !trainer_load (&t, opts->resume, error))
    return EXIT_USAGE;

  g_print ("fortunes: %u files, %" G_GSIZE_FORMAT " training and %" G_GSIZE_FORMAT " held-out characters, "
           "%u symbols, loaded in %.2f s\n", t.corpus.n_files, t.corpus.n_train, t.corpus.n_val,
           t.corpus.n_vocab, (g_get_monotonic_time () - t0) / 1e6);
  g_print ("model: a GPT of %d layers, d_model %d, %d heads, feed-forward %d, context %d, %" G_GINT64_FORMAT
           " parameters\n", opts->layers, opts->d_model, opts->heads, opts->dim_feedforward, opts->context,
           count_parameters (t.model));
  g_print ("adamw lr %g (warm-up %d steps, cosine), weight decay %g, clip %g, batch %d, %d steps", opts->lr,
           opts->warmup, opts->weight_decay, opts->clip, opts->batch_size, opts->steps);
  if (opts->ema_decay > 0)
    g_print (", EMA %g", opts->ema_decay);
  g_print (", seed %" G_GINT64_FORMAT ", %d threads\n", opts->seed, gnn_get_num_threads ());
  if (opts->resume && t.done)
    g_print ("resuming %s: training finished, evaluating only\n", opts->resume);
  else if (opts->resume)
    g_print ("resuming %s at step %d\n", opts->resume, t.step);
  if (opts->overrides)
    g_print ("overriding the checkpoint's options that shape only the evaluation: %s\n", opts->overrides);
  fflush (stdout);

  if (!t.done)
    {
      if (!train (&t, interrupt_path, error))
        return *error ? EXIT_FAILURE : EXIT_INTERRUPTED;
      if (opts->save && !trainer_save (&t, opts->save, error))
        return EXIT_FAILURE;
    }
  if (!evaluate (&t, t.model, &val, error))
    return EXIT_FAILURE;
  g_print ("final val loss (model): %.4f (ppl %.3f)\n", val, exp (val));
  if (t.ema)
    {
      if (!evaluate (&t, GNN_MODULE (t.ema), &ema_val, error))
        return EXIT_FAILURE;
      g_print ("final val loss (ema): %.4f (ppl %.3f)\n", ema_val, exp (ema_val));
    }
  if (opts->sample > 0)
    {
      g_autofree char *text = sample_text (&t, t.model, error);

      if (text == NULL)
        return EXIT_FAILURE;
      g_print ("sample (model, %d characters, temperature %g, top-k %d, seed %" G_GINT64_FORMAT "):\n%s\n",
               opts->sample, opts->temperature, opts->top_k, opts->sample_seed, text);
    }
  g_print ("total time: %.1f s\n", (g_get_monotonic_time () - t0) / 1e6);
  return EXIT_SUCCESS;
}

int
gnn_train_charlm_main (int    argc,
                       char **argv)
{
  Options opts = {
    .steps = -1, .batch_size = -1, .context = -1, .layers = -1, .d_model = -1, .heads = -1,
    .dim_feedforward = -1, .dropout = NAN, .lr = NAN, .warmup = -1, .weight_decay = NAN, .clip = NAN,
    .ema_decay = NAN, .seed = -1, .eval_every = -1, .eval_windows = -1, .temperature = NAN, .top_k = G_MININT,
    .sample_seed = -1,
  };
  const GOptionEntry entries[] = {
    { "task", 0, 0, G_OPTION_ARG_STRING, &opts.task, "The task: charlm here (cnn: Fashion-MNIST)", "NAME" },
    { "steps", 0, 0, G_OPTION_ARG_INT, &opts.steps, "Training steps (default 600)", "N" },
    { "batch-size", 'b', 0, G_OPTION_ARG_INT, &opts.batch_size, "Windows per step (default 32)", "N" },
    { "context", 0, 0, G_OPTION_ARG_INT, &opts.context, "Characters per window, the model's context (default 128)", "N" },
    { "layers", 0, 0, G_OPTION_ARG_INT, &opts.layers, "Transformer blocks (default 4)", "N" },
    { "d-model", 0, 0, G_OPTION_ARG_INT, &opts.d_model, "The model's width (default 128)", "N" },
    { "heads", 0, 0, G_OPTION_ARG_INT, &opts.heads, "Attention heads, dividing --d-model (default 4)", "N" },
    { "dim-feedforward", 0, 0, G_OPTION_ARG_INT, &opts.dim_feedforward,
      "The feed-forward width (default 4 × --d-model)", "N" },
    { "dropout", 0, 0, G_OPTION_ARG_DOUBLE, &opts.dropout, "Dropout in the blocks (default 0)", "P" },
    { "lr", 0, 0, G_OPTION_ARG_DOUBLE, &opts.lr, "AdamW's peak learning rate (default 0.002)", "LR" },
    { "warmup", 0, 0, G_OPTION_ARG_INT, &opts.warmup,
      "Steps of linear warm-up before the cosine decay (default 100, at most --steps / 10)", "N" },
    { "weight-decay", 0, 0, G_OPTION_ARG_DOUBLE, &opts.weight_decay, "AdamW's weight decay (default 0.1)", "WD" },
    { "clip", 0, 0, G_OPTION_ARG_DOUBLE, &opts.clip, "Clip the gradients' norm to this, 0: no clipping (default 1)", "NORM" },
    { "ema-decay", 0, 0, G_OPTION_ARG_DOUBLE, &opts.ema_decay,
      "Decay of the EMA of the weights, evaluated beside the model; 0: none (default 0.99)", "D" },
    { "seed", 's', 0, G_OPTION_ARG_CALLBACK, parse_seed,
      "Seed of the initial weights, the batches and dropout (default 0)", "S" },
    { "eval-every", 0, 0, G_OPTION_ARG_INT, &opts.eval_every,
      "Report the validation loss every N steps (default 100); with --save, save a checkpoint too", "N" },
    { "eval-windows", 0, 0, G_OPTION_ARG_INT, &opts.eval_windows,
      "Held-out windows of --context characters the validation loss averages (default 128)", "N" },
    { "save", 0, 0, G_OPTION_ARG_FILENAME, &opts.save, "Save a checkpoint here at every report and at the end", "PATH" },
    { "resume", 0, 0, G_OPTION_ARG_FILENAME, &opts.resume, "Continue the run saved in this checkpoint, exactly", "PATH" },
    { "sample", 0, 0, G_OPTION_ARG_INT, &opts.sample, "Print N characters sampled from the trained model", "N" },
    { "temperature", 0, 0, G_OPTION_ARG_DOUBLE, &opts.temperature, "The sampling temperature (default 1)", "T" },
    { "top-k", 0, 0, G_OPTION_ARG_INT, &opts.top_k, "Sample from the K likeliest characters only (default: all)", "K" },
    { "sample-seed", 0, 0, G_OPTION_ARG_CALLBACK, parse_sample_seed,
      "Seed of the sampling (default: --seed); the same seed prints the same text", "S" },
    { "threads", 't', 0, G_OPTION_ARG_INT, &opts.threads,
      "Compute threads (default: GNN_NUM_THREADS or the number of processors)", "N" },
    { "data-dir", 0, 0, G_OPTION_ARG_FILENAME, &opts.data_dir,
      "Where the text files are (default " GNN_CHAR_CORPUS_DEFAULT_DIR ")", "DIR" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GOptionGroup) group = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *problem = NULL;
  int status;

  context = g_option_context_new ("--task charlm - train a character-level language model");
  g_option_context_set_summary (context,
    "Trains a small GPT (pre-norm transformer blocks with causal self-attention) on the text\n"
    "of Debian's fortunes package, reporting the held-out loss and perplexity of the model and\n"
    "of its EMA. With --save, a checkpoint at every report; Ctrl-C saves one (to --save PATH or\n"
    INTERRUPTED_PATH ") that --resume continues exactly.");
  group = g_option_group_new (NULL, NULL, NULL, &opts, NULL);
  g_option_group_add_entries (group, entries);
  g_option_context_set_main_group (context, g_steal_pointer (&group));
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("gnn-train: %s (see --task charlm --help)\n", error->message);
      options_clear (&opts);
      return EXIT_USAGE;
    }
  if (argc > 1)
    {
      g_printerr ("gnn-train: unexpected argument '%s' (see --task charlm --help)\n", argv[1]);
      options_clear (&opts);
      return EXIT_USAGE;
    }
  if (opts.data_dir == NULL)
    opts.data_dir = g_strdup (GNN_CHAR_CORPUS_DEFAULT_DIR);
  if (opts.resume && !read_checkpoint_options (&opts, opts.resume, &error))
    {
      g_printerr ("gnn-train: --resume %s: %s\n", opts.resume, error->message);
      options_clear (&opts);
      return EXIT_USAGE;
    }
  options_fill_defaults (&opts);
  if ((problem = options_check (&opts)) != NULL)
    {
      g_printerr ("gnn-train: %s\n", problem);
      options_clear (&opts);
      return EXIT_USAGE;
    }
  if (opts.threads > 0)
    gnn_set_num_threads (opts.threads);
  gnn_tool_install_sigint ();

  status = run (&opts, &error);
  if (status != EXIT_SUCCESS && error != NULL)
    g_printerr ("gnn-train: %s\n", error->message);
  options_clear (&opts);
  return status;
}
