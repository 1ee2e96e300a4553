/* gnn-checkpoint.c: one file holding a model, its optimizer, scheduler and averages
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include <string.h>
#include <json-glib/json-glib.h>

#include "gnn-checkpoint-private.h"
#include "gnn-module-json-private.h"
#include "core/gnn-tensor-private.h"
#include "nn/gnn-module-private.h"
#include "nn/gnn-props-private.h"

/**
 * GnnCheckpoint:
 *
 * What a training run needs to stop and resume exactly, saved into one safetensors file.
 *
 * A checkpoint holds references to the objects to save: a model, an optimizer, an LR
 * scheduler, averaged models ([class@Gnn.AveragedModel], by name, such as "swa" or "ema"), a
 * random number generator, and text metadata of the caller's own (the epoch, the step, the
 * options of the run). [method@Gnn.Checkpoint.save] writes them all into one file;
 * [method@Gnn.Checkpoint.load] loads a file into the objects set, which must exist already
 * with the same structure (the same model, an optimizer over its parameters ...).
 *
 * The file is a safetensors file ([func@Gnn.safetensors_save]), which PyTorch's
 * `safetensors.torch.load_file` reads too. Its tensors are the model's state dict under
 * `model.`, the optimizer's state tensors under `optimizer.` and each averaged model's state
 * dict under `averaged.<name>.`. Its `__metadata__` holds
 *
 * - `gnn.checkpoint`: the format version: `1`, or `2` when the model has computed tensors
 *   (parametrized, pruned, or under a hook-based norm: see [method@Gnn.Module.to_json]), which
 *   readers of format 1 could not rebuild; both load;
 * - `gnn.model`: the model's architecture as JSON ([method@Gnn.Module.to_json]), from which
 *   [func@Gnn.Checkpoint.load_model] rebuilds the model;
 * - `gnn.model.values` and `gnn.averaged.<name>`: the non-tensor entries of those state
 *   dicts (extra states), and the averaged models' settings;
 * - `gnn.optimizer`: the optimizer's class and the non-tensor part of its state dict
 *   (options as printed #GVariants, numbers);
 * - `gnn.scheduler`: the scheduler's class and its state ([method@Gnn.LRScheduler.state_dict],
 *   printed);
 * - `gnn.generator`: the generator's seed and offset;
 * - `gnn.sha256`: a SHA-256 digest of the tensors (for each tensor, in the order of the names'
 *   bytes: its name, dtype, shape and data), which loading checks, so that a file whose data
 *   changed (a flipped bit on a disk, a copy cut short and padded) is an error rather than
 *   silently different weights. It covers the tensors, not where they lie in the file, so a
 *   file written again by another safetensors writer with the same tensors and metadata still
 *   loads; files without it (written by gnn before it had checksums) load unchecked;
 * - the caller's metadata, under its own keys (which may not start with `gnn.`).
 *
 * Each module's training flag is saved too (in the model's JSON, and as `"training"`, a map
 * of dotted module paths, in each averaged model's settings), and loading sets it back on
 * every module of the same path, so that a model saved half in evaluation mode resumes so.
 *
 * Saving is atomic: the file is written beside its path, flushed and renamed over it, so a
 * save that fails or is interrupted leaves the previous checkpoint whole (a process killed
 * while saving leaves a hidden `.NAME.XXXXXX.partial` file beside it, never taken for a
 * checkpoint: see [func@Gnn.safetensors_save]). Loading checks
 * the whole file before it changes anything; when an object refuses its state, those
 * already loaded are put back, so a failed load leaves every object as it was.
 *
 * ```c
 * g_autoptr(GnnCheckpoint) ckpt = gnn_checkpoint_new ();
 * gnn_checkpoint_set_model (ckpt, model);
 * gnn_checkpoint_set_optimizer (ckpt, optimizer);
 * gnn_checkpoint_set_scheduler (ckpt, scheduler);
 * gnn_checkpoint_add_averaged_model (ckpt, "ema", ema);
 * gnn_checkpoint_set_metadata (ckpt, "epoch", "12");
 * if (!gnn_checkpoint_save (ckpt, "run.safetensors", &error))
 *   ...
 * ```
 */

/* 1: the first format; 2: the same, with a model whose tensors are computed (parametrized,
 * pruned, hook-based norms: the model JSON's "parametrized" and "hooks"), which a reader of
 * format 1 would rebuild wrongly. A model without them is still written as format 1. */
#define FORMAT_VERSION "1"
#define FORMAT_VERSION_COMPUTED "2"
#define CHECKSUM_KEY "gnn.sha256"

typedef struct {
  char *name;
  GnnAveragedModel *model;
} Averaged;

struct _GnnCheckpoint
{
  GObject parent_instance;

  GnnModule *model;
  GnnOptimizer *optimizer;
  GnnLRScheduler *scheduler;
  GnnGenerator *generator;
  GPtrArray *averaged;     /* Averaged*, in the order added */
  GHashTable *metadata;    /* caller's key → value */
};

enum {
  PROP_0,
  PROP_MODEL,
  PROP_OPTIMIZER,
  PROP_SCHEDULER,
  PROP_GENERATOR,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnCheckpoint, gnn_checkpoint, G_TYPE_OBJECT)

static void
averaged_free (gpointer data)
{
  Averaged *a = data;
  g_free (a->name);
  g_clear_object (&a->model);
  g_free (a);
}

static void
gnn_checkpoint_dispose (GObject *object)
{
  GnnCheckpoint *self = GNN_CHECKPOINT (object);

  gnn_props_clear (object);
  g_ptr_array_set_size (self->averaged, 0);
  G_OBJECT_CLASS (gnn_checkpoint_parent_class)->dispose (object);
}

static void
gnn_checkpoint_finalize (GObject *object)
{
  GnnCheckpoint *self = GNN_CHECKPOINT (object);

  g_ptr_array_unref (self->averaged);
  g_hash_table_unref (self->metadata);
  G_OBJECT_CLASS (gnn_checkpoint_parent_class)->finalize (object);
}

static void
gnn_checkpoint_class_init (GnnCheckpointClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = gnn_checkpoint_dispose;
  object_class->finalize = gnn_checkpoint_finalize;

  /**
   * GnnCheckpoint:model: (getter get_model) (setter set_model)
   *
   * The model whose state and architecture are saved, or %NULL.
   */
  props[PROP_MODEL] = (GnnProp) {
    g_param_spec_object ("model", NULL, NULL, GNN_TYPE_MODULE, GNN_PARAM_RW),
    G_STRUCT_OFFSET (GnnCheckpoint, model) };
  /**
   * GnnCheckpoint:optimizer: (getter get_optimizer) (setter set_optimizer)
   *
   * The optimizer whose state is saved, or %NULL.
   */
  props[PROP_OPTIMIZER] = (GnnProp) {
    g_param_spec_object ("optimizer", NULL, NULL, GNN_TYPE_OPTIMIZER, GNN_PARAM_RW),
    G_STRUCT_OFFSET (GnnCheckpoint, optimizer) };
  /**
   * GnnCheckpoint:scheduler: (getter get_scheduler) (setter set_scheduler)
   *
   * The learning-rate scheduler whose state is saved, or %NULL.
   */
  props[PROP_SCHEDULER] = (GnnProp) {
    g_param_spec_object ("scheduler", NULL, NULL, GNN_TYPE_LR_SCHEDULER, GNN_PARAM_RW),
    G_STRUCT_OFFSET (GnnCheckpoint, scheduler) };
  /**
   * GnnCheckpoint:generator: (getter get_generator) (setter set_generator)
   *
   * The random number generator whose seed and offset are saved, or %NULL.
   */
  props[PROP_GENERATOR] = (GnnProp) {
    g_param_spec_object ("generator", NULL, NULL, GNN_TYPE_GENERATOR, GNN_PARAM_RW),
    G_STRUCT_OFFSET (GnnCheckpoint, generator) };
  gnn_props_install (object_class, props, N_PROPS);
}

static void
gnn_checkpoint_init (GnnCheckpoint *self)
{
  self->averaged = g_ptr_array_new_with_free_func (averaged_free);
  self->metadata = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

/**
 * gnn_checkpoint_new:
 *
 * A checkpoint holding nothing yet: set what it saves and loads with
 * [method@Gnn.Checkpoint.set_model] and the other setters.
 *
 * Returns: (transfer full): the checkpoint
 */
GnnCheckpoint *
gnn_checkpoint_new (void)
{
  return g_object_new (GNN_TYPE_CHECKPOINT, NULL);
}

#define DEFINE_SETTER(field, Type, TYPE_CHECK, PROP)                \
  g_return_if_fail (GNN_IS_CHECKPOINT (self));                      \
  g_return_if_fail (field == NULL || TYPE_CHECK (field));           \
  gnn_prop_set (self, &props[PROP], field);

/**
 * gnn_checkpoint_set_model:
 * @self: a checkpoint
 * @model: (nullable): the model, or %NULL
 *
 * Sets the model whose state dict and architecture the checkpoint saves and loads.
 */
void
gnn_checkpoint_set_model (GnnCheckpoint *self,
                          GnnModule     *model)
{
  DEFINE_SETTER (model, GnnModule, GNN_IS_MODULE, PROP_MODEL)
}

/**
 * gnn_checkpoint_get_model:
 * @self: a checkpoint
 *
 * Gets [property@Gnn.Checkpoint:model].
 *
 * Returns: (transfer none) (nullable): the model, or %NULL
 */
GnnModule *
gnn_checkpoint_get_model (GnnCheckpoint *self)
{
  g_return_val_if_fail (GNN_IS_CHECKPOINT (self), NULL);
  return self->model;
}

/**
 * gnn_checkpoint_set_optimizer:
 * @self: a checkpoint
 * @optimizer: (nullable): the optimizer, or %NULL
 *
 * Sets the optimizer whose state ([method@Gnn.Optimizer.state_dict]) the checkpoint saves
 * and loads.
 */
void
gnn_checkpoint_set_optimizer (GnnCheckpoint *self,
                              GnnOptimizer  *optimizer)
{
  DEFINE_SETTER (optimizer, GnnOptimizer, GNN_IS_OPTIMIZER, PROP_OPTIMIZER)
}

/**
 * gnn_checkpoint_get_optimizer:
 * @self: a checkpoint
 *
 * Gets [property@Gnn.Checkpoint:optimizer].
 *
 * Returns: (transfer none) (nullable): the optimizer, or %NULL
 */
GnnOptimizer *
gnn_checkpoint_get_optimizer (GnnCheckpoint *self)
{
  g_return_val_if_fail (GNN_IS_CHECKPOINT (self), NULL);
  return self->optimizer;
}

/**
 * gnn_checkpoint_set_scheduler:
 * @self: a checkpoint
 * @scheduler: (nullable): the scheduler, or %NULL
 *
 * Sets the learning-rate scheduler whose state ([method@Gnn.LRScheduler.state_dict]) the
 * checkpoint saves and loads.
 */
void
gnn_checkpoint_set_scheduler (GnnCheckpoint  *self,
                              GnnLRScheduler *scheduler)
{
  DEFINE_SETTER (scheduler, GnnLRScheduler, GNN_IS_LR_SCHEDULER, PROP_SCHEDULER)
}

/**
 * gnn_checkpoint_get_scheduler:
 * @self: a checkpoint
 *
 * Gets [property@Gnn.Checkpoint:scheduler].
 *
 * Returns: (transfer none) (nullable): the scheduler, or %NULL
 */
GnnLRScheduler *
gnn_checkpoint_get_scheduler (GnnCheckpoint *self)
{
  g_return_val_if_fail (GNN_IS_CHECKPOINT (self), NULL);
  return self->scheduler;
}

/**
 * gnn_checkpoint_set_generator:
 * @self: a checkpoint
 * @generator: (nullable): the generator, or %NULL
 *
 * Sets the random number generator whose seed and offset the checkpoint saves and loads
 * (for example [func@Gnn.Generator.get_default], or a data loader's own generator).
 */
void
gnn_checkpoint_set_generator (GnnCheckpoint *self,
                              GnnGenerator  *generator)
{
  DEFINE_SETTER (generator, GnnGenerator, GNN_IS_GENERATOR, PROP_GENERATOR)
}

/**
 * gnn_checkpoint_get_generator:
 * @self: a checkpoint
 *
 * Gets [property@Gnn.Checkpoint:generator].
 *
 * Returns: (transfer none) (nullable): the generator, or %NULL
 */
GnnGenerator *
gnn_checkpoint_get_generator (GnnCheckpoint *self)
{
  g_return_val_if_fail (GNN_IS_CHECKPOINT (self), NULL);
  return self->generator;
}

static Averaged *
find_averaged (GnnCheckpoint *self, const char *name)
{
  for (guint i = 0; i < self->averaged->len; i++)
    {
      Averaged *a = self->averaged->pdata[i];
      if (g_str_equal (a->name, name))
        return a;
    }
  return NULL;
}

/**
 * gnn_checkpoint_add_averaged_model:
 * @self: a checkpoint
 * @name: a name for it, such as "swa" or "ema": letters, digits, '-' and '_'
 * @model: (nullable): the averaged model, or %NULL to remove the one of that name
 *
 * Adds an averaged model whose state dict (the average and `n_averaged`) and settings the
 * checkpoint saves and loads, under `averaged.<name>.`; a model added before under the same
 * name is replaced.
 */
void
gnn_checkpoint_add_averaged_model (GnnCheckpoint    *self,
                                   const char       *name,
                                   GnnAveragedModel *model)
{
  Averaged *a;

  g_return_if_fail (GNN_IS_CHECKPOINT (self));
  g_return_if_fail (name != NULL && name[0] != '\0');
  g_return_if_fail (strspn (name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") == strlen (name));
  g_return_if_fail (model == NULL || GNN_IS_AVERAGED_MODEL (model));

  a = find_averaged (self, name);
  if (model == NULL)
    {
      if (a)
        g_ptr_array_remove (self->averaged, a);
      return;
    }
  if (a == NULL)
    {
      a = g_new0 (Averaged, 1);
      a->name = g_strdup (name);
      g_ptr_array_add (self->averaged, a);
    }
  g_set_object (&a->model, model);
}

/**
 * gnn_checkpoint_get_averaged_model:
 * @self: a checkpoint
 * @name: the name it was added under
 *
 * Returns the averaged model added as @name, or %NULL.
 *
 * Returns: (transfer none) (nullable): the averaged model added as @name, or %NULL
 */
GnnAveragedModel *
gnn_checkpoint_get_averaged_model (GnnCheckpoint *self,
                                   const char    *name)
{
  Averaged *a;

  g_return_val_if_fail (GNN_IS_CHECKPOINT (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  a = find_averaged (self, name);
  return a ? a->model : NULL;
}

/**
 * gnn_checkpoint_list_averaged_models:
 * @self: a checkpoint
 *
 * Returns the names of the averaged models, in the order they were added.
 *
 * Returns: (transfer full) (array zero-terminated=1): the names of the averaged models, in
 *   the order they were added
 */
char **
gnn_checkpoint_list_averaged_models (GnnCheckpoint *self)
{
  GStrvBuilder *b;
  char **out;

  g_return_val_if_fail (GNN_IS_CHECKPOINT (self), NULL);
  b = g_strv_builder_new ();
  for (guint i = 0; i < self->averaged->len; i++)
    g_strv_builder_add (b, ((Averaged *) self->averaged->pdata[i])->name);
  out = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return out;
}

/**
 * gnn_checkpoint_set_metadata:
 * @self: a checkpoint
 * @key: a key of the caller's own, not starting with `gnn.` (which gnn keeps for itself)
 * @value: (nullable): the text, or %NULL to remove the key
 *
 * Sets text saved with the checkpoint, such as the epoch, the step or the run's options.
 * [method@Gnn.Checkpoint.load] replaces all of them with the file's.
 */
void
gnn_checkpoint_set_metadata (GnnCheckpoint *self,
                             const char    *key,
                             const char    *value)
{
  g_return_if_fail (GNN_IS_CHECKPOINT (self));
  g_return_if_fail (key != NULL && key[0] != '\0');
  g_return_if_fail (!g_str_has_prefix (key, "gnn.") && strcmp (key, "__metadata__") != 0);
  g_return_if_fail (g_utf8_validate (key, -1, NULL));
  g_return_if_fail (value == NULL || g_utf8_validate (value, -1, NULL));

  if (value == NULL)
    g_hash_table_remove (self->metadata, key);
  else
    g_hash_table_insert (self->metadata, g_strdup (key), g_strdup (value));
}

/**
 * gnn_checkpoint_get_metadata:
 * @self: a checkpoint
 * @key: a key
 *
 * Returns the text set (or loaded) for @key, or %NULL.
 *
 * Returns: (transfer none) (nullable): the text set (or loaded) for @key, or %NULL
 */
const char *
gnn_checkpoint_get_metadata (GnnCheckpoint *self,
                             const char    *key)
{
  g_return_val_if_fail (GNN_IS_CHECKPOINT (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);
  return g_hash_table_lookup (self->metadata, key);
}

/**
 * gnn_checkpoint_list_metadata:
 * @self: a checkpoint
 *
 * Returns the keys of the caller's metadata, sorted.
 *
 * Returns: (transfer full) (array zero-terminated=1): the keys of the caller's metadata,
 *   sorted
 */
char **
gnn_checkpoint_list_metadata (GnnCheckpoint *self)
{
  g_autoptr(GList) keys = NULL;
  GStrvBuilder *b;
  char **out;

  g_return_val_if_fail (GNN_IS_CHECKPOINT (self), NULL);
  keys = g_list_sort (g_hash_table_get_keys (self->metadata), (GCompareFunc) strcmp);
  b = g_strv_builder_new ();
  for (GList *l = keys; l; l = l->next)
    g_strv_builder_add (b, l->data);
  out = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return out;
}

/* ---- values that are not tensors, as text -------------------------------------------- */

/* "variant:<printed>", "double:<repr>", "int64:..", "boolean:.." */
static char *
value_to_text (const char *key, const GValue *v, GError **error)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (G_VALUE_HOLDS (v, G_TYPE_VARIANT))
    {
      g_autofree char *text = NULL;
      if (g_value_get_variant (v) == NULL)
        return g_strdup ("null:");
      text = g_variant_print (g_value_get_variant (v), TRUE);
      return g_strconcat ("variant:", text, NULL);
    }
  if (G_VALUE_HOLDS_DOUBLE (v))
    return g_strconcat ("double:", g_ascii_dtostr (buf, sizeof buf, g_value_get_double (v)), NULL);
  if (G_VALUE_HOLDS_FLOAT (v))
    return g_strconcat ("double:", g_ascii_dtostr (buf, sizeof buf, g_value_get_float (v)), NULL);
  if (G_VALUE_HOLDS_INT64 (v))
    return g_strdup_printf ("int64:%" G_GINT64_FORMAT, g_value_get_int64 (v));
  if (G_VALUE_HOLDS_INT (v))
    return g_strdup_printf ("int64:%d", g_value_get_int (v));
  if (G_VALUE_HOLDS_BOOLEAN (v))
    return g_strdup (g_value_get_boolean (v) ? "boolean:true" : "boolean:false");
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "\"%s\": a value of type %s cannot be saved in a checkpoint (expected a tensor, a "
               "GVariant, a number or a boolean)", key, G_VALUE_TYPE_NAME (v));
  return NULL;
}

static gboolean
text_to_value (const char *where, const char *key, const char *text, GValue *v, GError **error)
{
  const char *colon = strchr (text, ':');
  const char *rest = colon ? colon + 1 : NULL;
  g_autofree char *kind = colon ? g_strndup (text, colon - text) : NULL;

  if (kind && g_str_equal (kind, "variant"))
    {
      GError *local = NULL;
      GVariant *variant = g_variant_parse (NULL, rest, NULL, NULL, &local);
      if (variant == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT, "%s: \"%s\" is not a GVariant text: %s", where,
                       key, local->message);
          g_error_free (local);
          return FALSE;
        }
      g_value_init (v, G_TYPE_VARIANT);
      g_value_take_variant (v, variant);
      return TRUE;
    }
  if (kind && g_str_equal (kind, "null"))
    {
      g_value_init (v, G_TYPE_VARIANT);
      return TRUE;
    }
  if (kind && g_str_equal (kind, "double"))
    {
      char *end = NULL;
      double d = g_ascii_strtod (rest, &end);
      if (end == rest || *end != '\0')
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT, "%s: \"%s\" expects a number, found '%s'", where,
                       key, rest);
          return FALSE;
        }
      g_value_init (v, G_TYPE_DOUBLE);
      g_value_set_double (v, d);
      return TRUE;
    }
  if (kind && g_str_equal (kind, "int64"))
    {
      gint64 i;
      if (!g_ascii_string_to_signed (rest, 10, G_MININT64, G_MAXINT64, &i, NULL))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT, "%s: \"%s\" expects an integer, found '%s'", where,
                       key, rest);
          return FALSE;
        }
      g_value_init (v, G_TYPE_INT64);
      g_value_set_int64 (v, i);
      return TRUE;
    }
  if (kind && g_str_equal (kind, "boolean") && (g_str_equal (rest, "true") || g_str_equal (rest, "false")))
    {
      g_value_init (v, G_TYPE_BOOLEAN);
      g_value_set_boolean (v, g_str_equal (rest, "true"));
      return TRUE;
    }
  g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
               "%s: \"%s\" expects 'variant:', 'double:', 'int64:' or 'boolean:' and a value, found '%s'",
               where, key, text);
  return FALSE;
}

/* ---- the checksum ------------------------------------------------------------------- */

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The SHA-256 of the tensors of @sd, as hex: for each tensor, in the order of the names'
 * bytes, its name, its dtype's name and its shape, each followed by a NUL, then its data in
 * row-major order (as safetensors stores them). Non-tensor entries are not covered. */
static char *
tensors_digest (GnnStateDict *sd, GError **error)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);

  qsort (keys, g_strv_length (keys), sizeof (char *), compare_strings);
  for (guint k = 0; keys[k]; k++)
    {
      GnnTensor *t = gnn_state_dict_get_tensor (sd, keys[k], NULL);
      g_autoptr(GBytes) data = NULL;
      g_autofree char *shape = NULL;
      const gint64 *sizes;
      const char *dtype;
      guint ndim;
      gsize n;
      const guint8 *p;

      if (t == NULL)
        continue;
      if (!(data = gnn_tensor_get_bytes (t, error)))
        return NULL;
      sizes = gnn_tensor_get_shape (t, &ndim);
      shape = gnn_shape_to_string (ndim, sizes);
      dtype = gnn_dtype_get_name (gnn_tensor_get_dtype (t));
      g_checksum_update (sum, (const guchar *) keys[k], strlen (keys[k]) + 1);
      g_checksum_update (sum, (const guchar *) dtype, strlen (dtype) + 1);
      g_checksum_update (sum, (const guchar *) shape, strlen (shape) + 1);
      p = g_bytes_get_data (data, &n);
      if (n > 0)
        g_checksum_update (sum, p, n);
    }
  return g_strdup (g_checksum_get_string (sum));
}

/* ---- saving -------------------------------------------------------------------------- */

static char *
node_to_text (JsonNode *node)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  json_generator_set_root (gen, node);
  return json_generator_to_data (gen, NULL);
}

/* The entries of @sd: tensors into @tensors under @prefix, other values into @values as text. */
static gboolean
split_state (GnnStateDict *sd, const char *prefix, GnnStateDict *tensors, JsonObject *values, GError **error)
{
  g_auto(GStrv) keys = gnn_state_dict_get_keys (sd);

  for (guint k = 0; keys[k]; k++)
    {
      g_auto(GValue) v = G_VALUE_INIT;

      if (!gnn_state_dict_get_value (sd, keys[k], &v, error))
        return FALSE;
      if (G_VALUE_HOLDS (&v, GNN_TYPE_TENSOR) && g_value_get_object (&v))
        {
          g_autofree char *key = g_strconcat (prefix, keys[k], NULL);
          gnn_state_dict_set_tensor (tensors, key, g_value_get_object (&v));
        }
      else
        {
          g_autofree char *text = NULL;
          if (G_VALUE_HOLDS (&v, GNN_TYPE_TENSOR))
            text = g_strdup ("null:");
          else if (!(text = value_to_text (keys[k], &v, error)))
            return FALSE;
          json_object_set_string_member (values, keys[k], text);
        }
    }
  return TRUE;
}

/* the training flag of @m and each module under it, by dotted path ("" for @m) */
static void
training_map (GnnModule *m, const char *path, JsonObject *map, guint depth)
{
  GnnModulePrivate *priv = gnn_module_priv (m);

  if (depth > 200 || json_object_has_member (map, path))
    return;
  json_object_set_boolean_member (map, path, priv->training);
  for (guint i = 0; i < priv->modules->len; i++)
    {
      GnnModuleSlot *slot = priv->modules->pdata[i];
      g_autofree char *cpath = NULL;

      if (slot->value == NULL)
        continue;
      cpath = path[0] ? g_strconcat (path, ".", slot->name, NULL) : g_strdup (slot->name);
      training_map (GNN_MODULE (slot->value), cpath, map, depth + 1);
    }
}

/* A module whose training flag a load sets, and the flag. */
typedef struct {
  GnnModule *module;
  gboolean training;
} TrainingFlag;

/* the module at dotted @path under @m, or NULL */
static GnnModule *
module_at (GnnModule *m, const char *path)
{
  g_auto(GStrv) parts = NULL;

  if (path[0] == '\0')
    return m;
  parts = g_strsplit (path, ".", -1);
  for (guint i = 0; parts[i] && m; i++)
    {
      GnnModuleSlot *slot = gnn_module_find_slot (gnn_module_priv (m)->modules, parts[i]);
      m = slot && slot->value ? GNN_MODULE (slot->value) : NULL;
    }
  return m;
}

/* The flags of the JSON tree @node (gnn_module_to_json's) for @m and the modules under it of
 * the same names, parents before their children; modules the tree lacks are left alone. */
static void
flags_from_tree (JsonNode *node, GnnModule *m, GArray *flags, guint depth)
{
  JsonObject *obj;
  JsonNode *tnode, *cnode;
  JsonArray *children;
  GnnModulePrivate *priv = gnn_module_priv (m);

  if (depth > 200 || node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return;
  obj = json_node_get_object (node);
  tnode = json_object_get_member (obj, "training");
  if (tnode && JSON_NODE_TYPE (tnode) == JSON_NODE_VALUE && json_node_get_value_type (tnode) == G_TYPE_BOOLEAN)
    {
      TrainingFlag f = { m, json_node_get_boolean (tnode) };
      g_array_append_val (flags, f);
    }
  cnode = json_object_get_member (obj, "children");
  if (cnode == NULL || !JSON_NODE_HOLDS_ARRAY (cnode))
    return;
  children = json_node_get_array (cnode);
  for (guint i = 0; i < json_array_get_length (children); i++)
    {
      JsonNode *child = json_array_get_element (children, i);
      JsonObject *cobj;
      const char *name;
      GnnModuleSlot *slot;

      if (!JSON_NODE_HOLDS_OBJECT (child))
        continue;
      cobj = json_node_get_object (child);
      name = json_object_get_string_member_with_default (cobj, "name", NULL);
      if (name == NULL || !(slot = gnn_module_find_slot (priv->modules, name)) || slot->value == NULL)
        continue;
      flags_from_tree (json_object_get_member (cobj, "module"), GNN_MODULE (slot->value), flags, depth + 1);
    }
}

/* The flags of a training map (training_map's) for @m's modules. */
static void
flags_from_map (JsonObject *map, GnnModule *m, GArray *flags)
{
  g_autoptr(GList) members = json_object_get_members (map);

  for (GList *l = members; l; l = l->next)
    {
      JsonNode *v = json_object_get_member (map, l->data);
      GnnModule *sub = module_at (m, l->data);

      if (sub && JSON_NODE_TYPE (v) == JSON_NODE_VALUE && json_node_get_value_type (v) == G_TYPE_BOOLEAN)
        {
          TrainingFlag f = { sub, json_node_get_boolean (v) };
          g_array_append_val (flags, f);
        }
    }
}

static void
apply_flags (GArray *flags)
{
  for (guint i = 0; i < flags->len; i++)
    {
      TrainingFlag *f = &g_array_index (flags, TrainingFlag, i);
      GnnModulePrivate *priv = gnn_module_priv (f->module);

      if (priv->training != f->training)
        {
          priv->training = f->training;
          g_object_notify (G_OBJECT (f->module), "training");
        }
    }
}

static const char *
avg_fn_kind (GnnAverageFunction *fn)
{
  return fn == NULL ? NULL : gnn_average_function_get_multi (fn) ? "multi" : "single";
}

/* whether the module tree @node has a module with computed tensors (format 2) */
static gboolean
tree_has_computed (JsonNode *node, guint depth)
{
  JsonObject *obj;
  JsonNode *children;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node) || depth > 256)
    return FALSE;
  obj = json_node_get_object (node);
  if (json_object_has_member (obj, "parametrized") || json_object_has_member (obj, "hooks"))
    return TRUE;
  children = json_object_get_member (obj, "children");
  if (children && JSON_NODE_HOLDS_ARRAY (children))
    {
      JsonArray *a = json_node_get_array (children);

      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          JsonNode *e = json_array_get_element (a, i);
          if (JSON_NODE_HOLDS_OBJECT (e) &&
              tree_has_computed (json_object_get_member (json_node_get_object (e), "module"), depth + 1))
            return TRUE;
        }
    }
  return FALSE;
}

/**
 * gnn_checkpoint_save:
 * @self: a checkpoint
 * @path: (type filename): the file to write
 * @error: return location for a #GError
 *
 * Saves everything set on the checkpoint into one safetensors file at @path, as the
 * description of [class@Gnn.Checkpoint] lays out. The file is replaced atomically: a save
 * that fails, or a process killed while saving, leaves the file that was at @path whole.
 *
 * Returns: %TRUE on success; %FALSE with @error set (a #GFileError for the file system; a
 *   module whose state cannot be saved)
 */
gboolean
gnn_checkpoint_save (GnnCheckpoint *self,
                     const char    *path,
                     GError       **error)
{
  g_autoptr(GnnStateDict) tensors = gnn_state_dict_new ();
  g_autoptr(GHashTable) meta = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (GNN_IS_CHECKPOINT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  g_hash_table_insert (meta, g_strdup ("gnn.checkpoint"), g_strdup (FORMAT_VERSION));

  if (self->model)
    {
      g_autoptr(JsonNode) tree = gnn_module_to_json_node (self->model, error);
      g_autoptr(GnnStateDict) sd = NULL;
      g_autoptr(JsonObject) values = json_object_new ();

      if (tree == NULL || !(sd = gnn_module_state_dict (self->model, NULL, FALSE, error)) ||
          !split_state (sd, "model.", tensors, values, error))
        {
          g_prefix_error (error, "saving the model: ");
          return FALSE;
        }
      g_hash_table_insert (meta, g_strdup ("gnn.model"), node_to_text (tree));
      if (tree_has_computed (tree, 0))
        g_hash_table_insert (meta, g_strdup ("gnn.checkpoint"), g_strdup (FORMAT_VERSION_COMPUTED));
      if (json_object_get_size (values) > 0)
        {
          g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), values);
          g_hash_table_insert (meta, g_strdup ("gnn.model.values"), node_to_text (node));
        }
    }

  for (guint i = 0; i < self->averaged->len; i++)
    {
      Averaged *a = self->averaged->pdata[i];
      g_autoptr(GnnStateDict) sd = gnn_module_state_dict (GNN_MODULE (a->model), NULL, FALSE, error);
      g_autofree char *prefix = g_strdup_printf ("averaged.%s.", a->name);
      g_autoptr(JsonObject) obj = json_object_new ();
      g_autoptr(JsonObject) values = json_object_new ();
      g_autoptr(JsonNode) node = NULL;
      GnnAverageFunction *fn = gnn_averaged_model_get_avg_fn (a->model);
      GnnAverageFunction *mfn = gnn_averaged_model_get_multi_avg_fn (a->model);

      if (sd == NULL || !split_state (sd, prefix, tensors, values, error))
        {
          g_prefix_error (error, "saving the averaged model '%s': ", a->name);
          return FALSE;
        }
      json_object_set_boolean_member (obj, "use_buffers", gnn_averaged_model_get_use_buffers (a->model));
      {
        JsonObject *map = json_object_new ();
        training_map (GNN_MODULE (a->model), "", map, 0);
        json_object_set_object_member (obj, "training", map);
      }
      if (fn || mfn)
        {
          json_object_set_string_member (obj, "avg_fn", avg_fn_kind (fn ? fn : mfn));
          double decay = gnn_average_function_get_decay (fn ? fn : mfn);

          /* SWA functions have no decay (NaN), which JSON cannot hold: left out */
          if (isfinite (decay))
            json_object_set_double_member (obj, "decay", decay);
        }
      json_object_set_object_member (obj, "values", g_steal_pointer (&values));
      node = json_node_init_object (json_node_alloc (), obj);
      g_hash_table_insert (meta, g_strdup_printf ("gnn.averaged.%s", a->name), node_to_text (node));
    }

  if (self->optimizer)
    {
      g_autoptr(GnnStateDict) sd = gnn_optimizer_state_dict (self->optimizer);
      g_autoptr(JsonObject) obj = json_object_new ();
      g_autoptr(JsonObject) values = json_object_new ();
      g_autoptr(JsonNode) node = NULL;

      if (!split_state (sd, "optimizer.", tensors, values, error))
        {
          g_prefix_error (error, "saving the optimizer: ");
          return FALSE;
        }
      json_object_set_string_member (obj, "type", G_OBJECT_TYPE_NAME (self->optimizer));
      json_object_set_object_member (obj, "state", g_steal_pointer (&values));
      node = json_node_init_object (json_node_alloc (), obj);
      g_hash_table_insert (meta, g_strdup ("gnn.optimizer"), node_to_text (node));
    }

  if (self->scheduler)
    {
      g_autoptr(GVariant) state = gnn_lr_scheduler_state_dict (self->scheduler);
      g_autofree char *text = g_variant_print (state, TRUE);
      g_autoptr(JsonObject) obj = json_object_new ();
      g_autoptr(JsonNode) node = NULL;

      json_object_set_string_member (obj, "type", G_OBJECT_TYPE_NAME (self->scheduler));
      json_object_set_string_member (obj, "state", text);
      node = json_node_init_object (json_node_alloc (), obj);
      g_hash_table_insert (meta, g_strdup ("gnn.scheduler"), node_to_text (node));
    }

  if (self->generator)
    g_hash_table_insert (meta, g_strdup ("gnn.generator"),
                         g_strdup_printf ("{\"seed\": \"%" G_GUINT64_FORMAT "\", \"offset\": \"%" G_GUINT64_FORMAT "\"}",
                                          gnn_generator_get_seed (self->generator),
                                          gnn_generator_get_offset (self->generator)));

  g_hash_table_iter_init (&iter, self->metadata);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (meta, g_strdup (key), g_strdup (value));

  {
    char *digest = tensors_digest (tensors, error);

    if (digest == NULL)
      return FALSE;
    g_hash_table_insert (meta, g_strdup (CHECKSUM_KEY), digest);
  }
  return gnn_safetensors_save (tensors, meta, path, error);
}

/* ---- loading ------------------------------------------------------------------------- */

typedef struct {
  GnnStateDict *model;        /* model. entries, tensors and values */
  JsonNode *model_tree;       /* gnn.model (borrowed from nodes) */
  GnnStateDict *optimizer;
  GHashTable *averaged;       /* name → GnnStateDict */
  GHashTable *averaged_settings; /* name → JsonObject (borrowed from nodes) */
  GPtrArray *nodes;           /* JsonNode refs kept alive */
  GVariant *scheduler;
  char *optimizer_type, *scheduler_type;
  gboolean has_generator;
  guint64 seed, offset;
  GHashTable *metadata;       /* the caller's keys */
} Loaded;

static void
loaded_clear (Loaded *l)
{
  g_clear_object (&l->model);
  g_clear_object (&l->optimizer);
  g_clear_pointer (&l->averaged, g_hash_table_unref);
  g_clear_pointer (&l->averaged_settings, g_hash_table_unref);
  g_clear_pointer (&l->nodes, g_ptr_array_unref);
  g_clear_pointer (&l->scheduler, g_variant_unref);
  g_clear_pointer (&l->optimizer_type, g_free);
  g_clear_pointer (&l->scheduler_type, g_free);
  g_clear_pointer (&l->metadata, g_hash_table_unref);
}

/* a GNN_ERROR_FILE_FORMAT error naming the file */
#define format_error(error, path, ...) gnn_file_format_error (error, "", path, __VA_ARGS__)

/* the JSON object stored in metadata @key, or NULL with an error */
static JsonObject *
meta_object (Loaded *l, GHashTable *meta, const char *path, const char *key, GError **error)
{
  const char *text = g_hash_table_lookup (meta, key);
  g_autofree char *what = g_strdup_printf ("%s: %s", path, key);
  JsonNode *node = gnn_json_parse (text, -1, what, error);

  if (node == NULL)
    return NULL;
  g_ptr_array_add (l->nodes, node);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      format_error (error, path, "%s: expected a JSON object", key);
      return NULL;
    }
  return json_node_get_object (node);
}

static const char *
member_string (JsonObject *obj, const char *name)
{
  JsonNode *n = json_object_get_member (obj, name);
  if (n && JSON_NODE_TYPE (n) == JSON_NODE_VALUE && json_node_get_value_type (n) == G_TYPE_STRING)
    return json_node_get_string (n);
  return NULL;
}

/* the text values of @values into @sd */
static gboolean
values_into (JsonObject *values, GnnStateDict *sd, const char *where, GError **error)
{
  g_autoptr(GList) members = json_object_get_members (values);

  for (GList *m = members; m; m = m->next)
    {
      const char *text = member_string (values, m->data);
      g_auto(GValue) v = G_VALUE_INIT;

      if (text == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT, "%s: \"%s\" is not a string", where,
                       (const char *) m->data);
          return FALSE;
        }
      if (g_str_equal (text, "null:"))
        {
          g_value_init (&v, GNN_TYPE_TENSOR);
          gnn_state_dict_set_value (sd, m->data, &v);
          continue;
        }
      if (!text_to_value (where, m->data, text, &v, error))
        return FALSE;
      gnn_state_dict_set_value (sd, m->data, &v);
    }
  return TRUE;
}

static gboolean
parse_uint64 (JsonObject *obj, const char *name, guint64 *out)
{
  const char *s = member_string (obj, name);
  return s && g_ascii_string_to_unsigned (s, 10, 0, G_MAXUINT64, out, NULL);
}

/* Reads and checks the whole file at @path (or @bytes, named @path in errors, when not
 * %NULL) into @l. */
static gboolean
read_checkpoint (const char *path, GBytes *bytes, Loaded *l, GError **error)
{
  g_autoptr(GnnStateDict) st = NULL;
  g_autoptr(GHashTable) meta = NULL;
  g_auto(GStrv) keys = NULL;
  const char *version;
  GHashTableIter iter;
  gpointer key, value;

  memset (l, 0, sizeof *l);
  l->nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  l->averaged = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  l->averaged_settings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  l->metadata = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  st = bytes ? gnn_safetensors_load_from_bytes (bytes, &meta, error) : gnn_safetensors_load (path, &meta, error);
  if (st == NULL)
    {
      if (bytes)
        g_prefix_error (error, "%s: ", path);
      return FALSE;
    }
  version = meta ? g_hash_table_lookup (meta, "gnn.checkpoint") : NULL;
  if (version == NULL)
    return format_error (error, path, "expected a gnn checkpoint (metadata \"gnn.checkpoint\"), found a "
                         "safetensors file without it");
  if (!g_str_equal (version, FORMAT_VERSION) && !g_str_equal (version, FORMAT_VERSION_COMPUTED))
    return format_error (error, path, "expected checkpoint format %s or %s, found format '%s'", FORMAT_VERSION,
                         FORMAT_VERSION_COMPUTED, version);

  /* metadata first: averaged models are known by their settings */
  g_hash_table_iter_init (&iter, meta);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *k = key;

      if (!g_str_has_prefix (k, "gnn."))
        {
          g_hash_table_insert (l->metadata, g_strdup (k), g_strdup (value));
          continue;
        }
      if (g_str_equal (k, "gnn.checkpoint") || g_str_equal (k, CHECKSUM_KEY))
        continue;
      if (g_str_equal (k, "gnn.model"))
        {
          /* the tree is read by load_model, its training flags by load; check it is JSON here */
          if (!meta_object (l, meta, path, k, error))
            return FALSE;
          l->model_tree = l->nodes->pdata[l->nodes->len - 1];
        }
      else if (g_str_equal (k, "gnn.model.values"))
        {
          JsonObject *obj = meta_object (l, meta, path, k, error);
          g_autofree char *where = g_strdup_printf ("%s: %s", path, k);

          if (obj == NULL)
            return FALSE;
          if (l->model == NULL)
            l->model = gnn_state_dict_new ();
          if (!values_into (obj, l->model, where, error))
            return FALSE;
        }
      else if (g_str_has_prefix (k, "gnn.averaged."))
        {
          const char *name = k + strlen ("gnn.averaged.");
          JsonObject *obj = meta_object (l, meta, path, k, error);
          JsonNode *vnode;
          g_autofree char *where = g_strdup_printf ("%s: %s", path, k);
          GnnStateDict *sd;

          if (obj == NULL)
            return FALSE;
          vnode = json_object_get_member (obj, "values");
          if (vnode && !JSON_NODE_HOLDS_OBJECT (vnode))
            return format_error (error, path, "%s: expected \"values\" to be an object", k);
          sd = gnn_state_dict_new ();
          g_hash_table_insert (l->averaged, g_strdup (name), sd);
          g_hash_table_insert (l->averaged_settings, g_strdup (name), obj);
          if (vnode && !values_into (json_node_get_object (vnode), sd, where, error))
            return FALSE;
        }
      else if (g_str_equal (k, "gnn.optimizer"))
        {
          JsonObject *obj = meta_object (l, meta, path, k, error);
          JsonNode *snode;
          g_autofree char *where = g_strdup_printf ("%s: %s", path, k);

          if (obj == NULL)
            return FALSE;
          snode = json_object_get_member (obj, "state");
          if (member_string (obj, "type") == NULL || snode == NULL || !JSON_NODE_HOLDS_OBJECT (snode))
            return format_error (error, path, "%s: expected an object with \"type\" (a string) and \"state\" "
                                 "(an object)", k);
          l->optimizer_type = g_strdup (member_string (obj, "type"));
          if (l->optimizer == NULL)
            l->optimizer = gnn_state_dict_new ();
          if (!values_into (json_node_get_object (snode), l->optimizer, where, error))
            return FALSE;
        }
      else if (g_str_equal (k, "gnn.scheduler"))
        {
          JsonObject *obj = meta_object (l, meta, path, k, error);
          const char *text;
          GError *local = NULL;

          if (obj == NULL)
            return FALSE;
          text = member_string (obj, "state");
          if (member_string (obj, "type") == NULL || text == NULL)
            return format_error (error, path, "%s: expected an object with \"type\" and \"state\" (strings)", k);
          l->scheduler_type = g_strdup (member_string (obj, "type"));
          l->scheduler = g_variant_parse (G_VARIANT_TYPE_VARDICT, text, NULL, NULL, &local);
          if (l->scheduler == NULL)
            {
              format_error (error, path, "%s: expected a printed GVariant of type a{sv}: %s", k, local->message);
              g_error_free (local);
              return FALSE;
            }
        }
      else if (g_str_equal (k, "gnn.generator"))
        {
          JsonObject *obj = meta_object (l, meta, path, k, error);

          if (obj == NULL)
            return FALSE;
          if (!parse_uint64 (obj, "seed", &l->seed) || !parse_uint64 (obj, "offset", &l->offset))
            return format_error (error, path, "%s: expected \"seed\" and \"offset\" as decimal strings", k);
          l->has_generator = TRUE;
        }
      else
        return format_error (error, path, "unknown metadata key \"%s\" (keys starting with 'gnn.' are gnn's own)", k);
    }
  if (g_hash_table_contains (meta, "gnn.model") && l->model == NULL)
    l->model = gnn_state_dict_new ();

  /* the tensors as they were saved (files written before checksums have none to check) */
  {
    const char *expected = g_hash_table_lookup (meta, CHECKSUM_KEY);
    g_autofree char *found = NULL;

    if (expected != NULL)
      {
        if (!(found = tensors_digest (st, error)))
          return FALSE;
        if (!g_str_equal (expected, found))
          return format_error (error, path, "the tensors do not match the checkpoint's checksum (the file is "
                               "corrupt): expected SHA-256 %s (metadata \"" CHECKSUM_KEY "\"), found %s",
                               expected, found);
      }
  }

  /* then the tensors, by prefix */
  keys = gnn_state_dict_get_keys (st);
  for (guint k = 0; keys[k]; k++)
    {
      GnnTensor *t = gnn_state_dict_get_tensor (st, keys[k], NULL);
      GnnStateDict *sd = NULL;
      const char *rest = NULL;

      if (g_str_has_prefix (keys[k], "model."))
        sd = l->model, rest = keys[k] + strlen ("model.");
      else if (g_str_has_prefix (keys[k], "optimizer."))
        {
          if (l->optimizer == NULL)
            return format_error (error, path, "tensor \"%s\" without the optimizer metadata \"gnn.optimizer\"", keys[k]);
          sd = l->optimizer, rest = keys[k] + strlen ("optimizer.");
        }
      else if (g_str_has_prefix (keys[k], "averaged."))
        {
          const char *name = keys[k] + strlen ("averaged.");
          const char *dot = strchr (name, '.');
          g_autofree char *n = dot ? g_strndup (name, dot - name) : NULL;

          if (n && (sd = g_hash_table_lookup (l->averaged, n)))
            rest = dot + 1;
        }
      if (sd == NULL)
        return format_error (error, path, "unexpected tensor \"%s\" (expected names starting with 'model.', "
                             "'optimizer.' or 'averaged.<name>.' of an averaged model in the metadata)", keys[k]);
      gnn_state_dict_set_tensor (sd, rest, t);
    }
  return TRUE;
}

/* Checks that @loaded has exactly the keys of @current, tensors of the same shapes. */
static gboolean
check_state (GnnStateDict *current, GnnStateDict *loaded, const char *what, const char *path, GError **error)
{
  g_auto(GStrv) keys = gnn_state_dict_get_keys (current);
  g_auto(GStrv) lkeys = gnn_state_dict_get_keys (loaded);

  for (guint k = 0; keys[k]; k++)
    {
      g_auto(GValue) a = G_VALUE_INIT;
      g_auto(GValue) b = G_VALUE_INIT;

      if (!gnn_state_dict_contains (loaded, keys[k]))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: the %s has \"%s\", the file does not", path, what, keys[k]);
          return FALSE;
        }
      gnn_state_dict_get_value (current, keys[k], &a, NULL);
      gnn_state_dict_get_value (loaded, keys[k], &b, NULL);
      if (G_VALUE_HOLDS (&a, GNN_TYPE_TENSOR) && g_value_get_object (&a))
        {
          GnnTensor *ta = g_value_get_object (&a), *tb;
          const gint64 *sa, *sb;
          guint na, nb;

          if (!G_VALUE_HOLDS (&b, GNN_TYPE_TENSOR) || !(tb = g_value_get_object (&b)))
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "%s: \"%s\" of the %s is a tensor, the file holds %s", path, keys[k], what,
                           G_VALUE_TYPE_NAME (&b));
              return FALSE;
            }
          sa = gnn_tensor_get_shape (ta, &na);
          sb = gnn_tensor_get_shape (tb, &nb);
          if (na != nb || (na && memcmp (sa, sb, na * sizeof (gint64)) != 0))
            {
              g_autofree char *ta_s = gnn_shape_to_string (na, sa);
              g_autofree char *tb_s = gnn_shape_to_string (nb, sb);
              g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "%s: \"%s\" of the %s has shape %s, the file's has %s", path, keys[k], what, ta_s, tb_s);
              return FALSE;
            }
        }
    }
  for (guint k = 0; lkeys[k]; k++)
    if (!gnn_state_dict_contains (current, lkeys[k]))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s: the file has \"%s\", which the %s lacks", path, lkeys[k], what);
        return FALSE;
      }
  return TRUE;
}

/* a copy of a module's state with every tensor cloned, to put back after a failed load */
static GnnStateDict *
snapshot_module (GnnModule *m, GError **error)
{
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (m, NULL, FALSE, error);
  g_autoptr(GnnStateDict) out = gnn_state_dict_new ();
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_auto(GStrv) keys = NULL;

  if (sd == NULL)
    return NULL;
  keys = gnn_state_dict_get_keys (sd);
  for (guint k = 0; keys[k]; k++)
    {
      g_auto(GValue) v = G_VALUE_INIT;

      gnn_state_dict_get_value (sd, keys[k], &v, NULL);
      if (G_VALUE_HOLDS (&v, GNN_TYPE_TENSOR) && g_value_get_object (&v))
        {
          g_autoptr(GnnTensor) c = gnn_tensor_clone (g_value_get_object (&v), error);
          if (c == NULL)
            return NULL;
          gnn_state_dict_set_tensor (out, keys[k], c);
        }
      else
        gnn_state_dict_set_value (out, keys[k], &v);
    }
  return g_steal_pointer (&out);
}

static gboolean
load_module_state (GnnModule *m, GnnStateDict *sd, GError **error)
{
  return gnn_module_load_state_dict (m, sd, TRUE, FALSE, NULL, NULL, error);
}

/**
 * gnn_checkpoint_load:
 * @self: a checkpoint
 * @path: (type filename): a file written by [method@Gnn.Checkpoint.save]
 * @error: return location for a #GError
 *
 * Loads the checkpoint at @path into the objects set on @self: the model's and the averaged
 * models' state dicts (strictly: the same keys, tensors of the same shapes) and the training
 * flags of their modules (each module of a path the file names gets the saved flag), the optimizer's
 * and the scheduler's states, the generator's seed and offset, and the caller's metadata
 * (which replaces all metadata set before). The objects must exist already, built as those
 * that were saved; what the file holds and @self does not ask for is ignored, and what @self
 * asks for and the file lacks is an error.
 *
 * The whole file is read and checked before anything changes; if an object then refuses
 * its state, the objects already loaded are put back, so that on failure every object is as
 * it was.
 *
 * Returns: %TRUE on success; %FALSE with @error set: a #GFileError when the file cannot be
 *   read, %GNN_ERROR_FILE_FORMAT for a file that is truncated, corrupt or not a checkpoint,
 *   %GNN_ERROR_INVALID_ARGUMENT or %GNN_ERROR_SHAPE when the file does not fit the objects
 */
gboolean
gnn_checkpoint_load (GnnCheckpoint *self,
                     const char    *path,
                     GError       **error)
{
  g_return_val_if_fail (GNN_IS_CHECKPOINT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return gnn_checkpoint_load_from_bytes (self, NULL, path, error);
}

gboolean
gnn_checkpoint_load_from_bytes (GnnCheckpoint *self,
                                GBytes        *bytes,
                                const char    *path,
                                GError       **error)
{
  Loaded l;
  gboolean ok = FALSE;
  g_autoptr(GnnStateDict) model_before = NULL;
  g_autoptr(GnnStateDict) optimizer_before = NULL;
  g_autoptr(GVariant) scheduler_before = NULL;
  g_autoptr(GPtrArray) averaged_before = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) flags = g_array_new (FALSE, FALSE, sizeof (TrainingFlag));
  guint averaged_done = 0;
  gboolean model_done = FALSE, optimizer_done = FALSE, scheduler_done = FALSE;

  g_return_val_if_fail (GNN_IS_CHECKPOINT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!read_checkpoint (path, bytes, &l, error))
    goto out;

  /* what @self asks for must be in the file and fit */
  if (self->model)
    {
      g_autoptr(GnnStateDict) current = NULL;

      if (l.model == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: the file holds no model", path);
          goto out;
        }
      if (!(current = gnn_module_state_dict (self->model, NULL, FALSE, error)) ||
          !check_state (current, l.model, "model", path, error))
        goto out;
    }
  for (guint i = 0; i < self->averaged->len; i++)
    {
      Averaged *a = self->averaged->pdata[i];
      GnnStateDict *sd = g_hash_table_lookup (l.averaged, a->name);
      g_autoptr(GnnStateDict) current = NULL;
      g_autofree char *what = g_strdup_printf ("averaged model '%s'", a->name);

      if (sd == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: the file holds no averaged model '%s'",
                       path, a->name);
          goto out;
        }
      if (!(current = gnn_module_state_dict (GNN_MODULE (a->model), NULL, FALSE, error)) ||
          !check_state (current, sd, what, path, error))
        goto out;
    }
  if (self->optimizer)
    {
      if (l.optimizer == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: the file holds no optimizer state", path);
          goto out;
        }
      if (!g_str_equal (l.optimizer_type, G_OBJECT_TYPE_NAME (self->optimizer)))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: expected the state of a %s, the file "
                       "holds a %s's", path, G_OBJECT_TYPE_NAME (self->optimizer), l.optimizer_type);
          goto out;
        }
    }
  if (self->scheduler)
    {
      if (l.scheduler == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: the file holds no scheduler state", path);
          goto out;
        }
      if (!g_str_equal (l.scheduler_type, G_OBJECT_TYPE_NAME (self->scheduler)))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: expected the state of a %s, the file "
                       "holds a %s's", path, G_OBJECT_TYPE_NAME (self->scheduler), l.scheduler_type);
          goto out;
        }
    }
  if (self->generator && !l.has_generator)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: the file holds no generator state", path);
      goto out;
    }

  /* what can be put back if a later step fails */
  if (self->model && !(model_before = snapshot_module (self->model, error)))
    goto out;
  for (guint i = 0; i < self->averaged->len; i++)
    {
      Averaged *a = self->averaged->pdata[i];
      GnnStateDict *sd = snapshot_module (GNN_MODULE (a->model), error);
      if (sd == NULL)
        goto out;
      g_ptr_array_add (averaged_before, sd);
    }
  if (self->optimizer)
    optimizer_before = gnn_optimizer_state_dict (self->optimizer);
  if (self->scheduler)
    scheduler_before = gnn_lr_scheduler_state_dict (self->scheduler);

  /* the optimizer and the scheduler check their state whole and change nothing on failure */
  if (self->optimizer)
    {
      if (!gnn_optimizer_load_state_dict (self->optimizer, l.optimizer, error))
        {
          g_prefix_error (error, "%s: loading the optimizer: ", path);
          goto rollback;
        }
      optimizer_done = TRUE;
    }
  if (self->scheduler)
    {
      if (!gnn_lr_scheduler_load_state_dict (self->scheduler, l.scheduler, error))
        {
          g_prefix_error (error, "%s: loading the scheduler: ", path);
          goto rollback;
        }
      scheduler_done = TRUE;
    }
  if (self->model)
    {
      model_done = TRUE;   /* a failure may have changed part of it */
      if (!load_module_state (self->model, l.model, error))
        {
          g_prefix_error (error, "%s: loading the model: ", path);
          goto rollback;
        }
    }
  for (guint i = 0; i < self->averaged->len; i++)
    {
      Averaged *a = self->averaged->pdata[i];
      JsonObject *settings = g_hash_table_lookup (l.averaged_settings, a->name);
      JsonNode *ub = json_object_get_member (settings, "use_buffers");

      averaged_done = i + 1;
      if (!load_module_state (GNN_MODULE (a->model), g_hash_table_lookup (l.averaged, a->name), error))
        {
          g_prefix_error (error, "%s: loading the averaged model '%s': ", path, a->name);
          goto rollback;
        }
      if (ub && JSON_NODE_TYPE (ub) == JSON_NODE_VALUE && json_node_get_value_type (ub) == G_TYPE_BOOLEAN)
        gnn_averaged_model_set_use_buffers (a->model, json_node_get_boolean (ub));
    }
  if (self->generator)
    gnn_generator_set_state (self->generator, l.seed, l.offset);
  /* last, as nothing can fail any more: the training flags, parents before children */
  if (self->model && l.model_tree)
    flags_from_tree (l.model_tree, self->model, flags, 0);
  for (guint i = 0; i < self->averaged->len; i++)
    {
      Averaged *a = self->averaged->pdata[i];
      JsonObject *settings = g_hash_table_lookup (l.averaged_settings, a->name);
      JsonNode *tmap = json_object_get_member (settings, "training");

      if (tmap && JSON_NODE_HOLDS_OBJECT (tmap))
        flags_from_map (json_node_get_object (tmap), GNN_MODULE (a->model), flags);
    }
  apply_flags (flags);
  g_hash_table_remove_all (self->metadata);
  {
    GHashTableIter iter;
    gpointer key, value;

    g_hash_table_iter_init (&iter, l.metadata);
    while (g_hash_table_iter_next (&iter, &key, &value))
      g_hash_table_insert (self->metadata, g_strdup (key), g_strdup (value));
  }
  ok = TRUE;
  goto out;

rollback:
  /* best effort: these states were taken from the objects themselves */
  for (guint i = 0; i < averaged_done; i++)
    load_module_state (GNN_MODULE (((Averaged *) self->averaged->pdata[i])->model), averaged_before->pdata[i], NULL);
  if (model_done)
    load_module_state (self->model, model_before, NULL);
  if (scheduler_done)
    gnn_lr_scheduler_load_state_dict (self->scheduler, scheduler_before, NULL);
  if (optimizer_done)
    gnn_optimizer_load_state_dict (self->optimizer, optimizer_before, NULL);

out:
  loaded_clear (&l);
  return ok;
}

/**
 * gnn_checkpoint_peek_model_json:
 * @path: (type filename): a file written by [method@Gnn.Checkpoint.save]
 * @error: return location for a #GError
 *
 * The model architecture stored in a checkpoint, as [method@Gnn.Module.to_json] wrote it.
 *
 * Returns: (transfer full): the JSON text, or %NULL with @error set (a file that cannot be
 *   read, is not a checkpoint, or holds no model: %GNN_ERROR_FILE_FORMAT)
 */
char *
gnn_checkpoint_peek_model_json (const char *path,
                                GError    **error)
{
  g_autoptr(GnnStateDict) st = NULL;
  g_autoptr(GHashTable) meta = NULL;
  const char *json;

  g_return_val_if_fail (path != NULL, NULL);
  st = gnn_safetensors_load (path, &meta, error);
  if (st == NULL)
    return NULL;
  if (meta == NULL || !g_hash_table_contains (meta, "gnn.checkpoint"))
    {
      format_error (error, path, "expected a gnn checkpoint (metadata \"gnn.checkpoint\"), found a "
                    "safetensors file without it");
      return NULL;
    }
  json = g_hash_table_lookup (meta, "gnn.model");
  if (json == NULL)
    {
      format_error (error, path, "the checkpoint holds no model (metadata \"gnn.model\")");
      return NULL;
    }
  return g_strdup (json);
}

static GnnModule *
new_model (JsonNode *root, const char *path, GError **error)
{
  GnnModule *m = gnn_module_new_from_json_node_full (root, TRUE, error);
  if (m == NULL)
    g_prefix_error (error, "%s: rebuilding the model: ", path);
  return m;
}

/**
 * gnn_checkpoint_load_model:
 * @path: (type filename): a file written by [method@Gnn.Checkpoint.save]
 * @error: return location for a #GError
 *
 * Rebuilds the model saved in a checkpoint from the file alone: its architecture from the
 * JSON ([ctor@Gnn.Module.new_from_json], without spending random numbers on an
 * initialisation the saved weights replace), then its state dict. Types from the bindings
 * must be registered first, as for [ctor@Gnn.Module.new_from_json].
 *
 * Returns: (transfer full): the model, or %NULL with @error set (a file that cannot be read,
 *   is not a checkpoint or holds no model, a tree that cannot be rebuilt, weights that do not
 *   fit it)
 */
GnnModule *
gnn_checkpoint_load_model (const char *path,
                           GError    **error)
{
  Loaded l;
  g_autoptr(GnnModule) model = NULL;
  g_autofree char *json = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GnnStateDict) current = NULL;
  gboolean ok;

  g_return_val_if_fail (path != NULL, NULL);
  if (!read_checkpoint (path, NULL, &l, error))
    {
      loaded_clear (&l);
      return NULL;
    }
  json = gnn_checkpoint_peek_model_json (path, error);
  ok = json && (root = gnn_json_parse (json, -1, "gnn.model", error)) &&
       (model = new_model (root, path, error)) &&
       (current = gnn_module_state_dict (model, NULL, FALSE, error)) &&
       check_state (current, l.model, "model", path, error) &&
       load_module_state (model, l.model, error);
  loaded_clear (&l);
  if (!ok)
    return NULL;
  return g_steal_pointer (&model);
}
