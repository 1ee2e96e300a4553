/* gnn-containers.c: Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "gnn-module-private.h"

/* ---- shared helpers ------------------------------------------------------------------ */

/* the module or parameter slots of @self, in registration order */
static GPtrArray *
module_slots (gpointer self)
{
  return gnn_module_priv (GNN_MODULE (self))->modules;
}

static GPtrArray *
parameter_slots (gpointer self)
{
  return gnn_module_priv (GNN_MODULE (self))->parameters;
}

/* PyTorch's _get_abs_string_index: @index counted from the end when negative */
static gboolean
abs_index (int index, guint len, guint *out, GError **error)
{
  gint64 i = index;

  if (i < -(gint64) len || i >= (gint64) len)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "index %d is out of range", index);
      return FALSE;
    }
  *out = i < 0 ? (guint) (i + len) : (guint) i;
  return TRUE;
}

static gboolean
register_module_at (GnnModule *self, guint index, GnnModule *module, GError **error)
{
  char name[16];

  g_snprintf (name, sizeof name, "%u", index);
  return gnn_module_register_module (self, name, module, error);
}

/* appends under the next number; fails only when a subclass took that name for something
 * else, which is a programming error */
static void
append_module (GnnModule *self, GnnModule *module)
{
  g_autoptr(GError) error = NULL;

  if (!register_module_at (self, module_slots (self)->len, module, &error))
    g_critical ("Could not append a %s to %s: %s", gnn_module_get_name (module),
                gnn_module_get_name (self), error->message);
}

static char **
slot_names (GPtrArray *slots)
{
  char **keys = g_new0 (char *, slots->len + 1);

  for (guint i = 0; i < slots->len; i++)
    keys[i] = g_strdup (((GnnModuleSlot *) slots->pdata[i])->name);
  return keys;
}

static void
key_error (GError **error, const char *key, GnnModule *self)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "key '%s' is not in the %s", key,
               gnn_module_get_name (self));
}

/* Parameter (tensor) as the containers of parameters do: a plain tensor becomes a new
 * parameter that requires grad */
static GnnParameter *
as_parameter (GnnTensor *value, GError **error)
{
  if (GNN_IS_PARAMETER (value))
    return g_object_ref (GNN_PARAMETER (value));
  return gnn_parameter_new (value, TRUE, error);
}

/* "Parameter containing: [torch.float32 of size 3x4]", as the extra_repr of ParameterList
 * (@typename FALSE: the dtype) and ParameterDict (@typename TRUE: torch.typename) */
static char *
describe_parameter (GnnTensor *p, gboolean typename)
{
  static const char *const type_names[] = {
    [GNN_DTYPE_FLOAT32] = "FloatTensor",
    [GNN_DTYPE_FLOAT64] = "DoubleTensor",
    [GNN_DTYPE_INT64] = "LongTensor",
    [GNN_DTYPE_BOOL] = "BoolTensor",
    [GNN_DTYPE_UINT8] = "ByteTensor",
    [GNN_DTYPE_FLOAT16] = "HalfTensor",
    [GNN_DTYPE_BFLOAT16] = "BFloat16Tensor",
    [GNN_DTYPE_INT32] = "IntTensor",
    [GNN_DTYPE_INT16] = "ShortTensor",
    [GNN_DTYPE_INT8] = "CharTensor",
  };
  GnnDeviceSpec device = { "cpu", -1 };
  gboolean cuda = gnn_device_parse (gnn_tensor_get_device (p), &device, NULL) &&
                  g_str_equal (device.type, "cuda");
  GnnDtype dtype = gnn_tensor_get_dtype (p);
  GString *s = g_string_new ("Parameter containing: [");
  const gint64 *shape;
  guint ndim;

  if (!typename)
    g_string_append_printf (s, "torch.%s", gnn_dtype_get_name (dtype));
  else
    g_string_append_printf (s, "torch.%s%s", cuda ? "cuda." : "",
                            dtype < G_N_ELEMENTS (type_names) && type_names[dtype] ? type_names[dtype] : "Tensor");
  g_string_append (s, " of size ");
  shape = gnn_tensor_get_shape (p, &ndim);
  for (guint d = 0; d < ndim; d++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, d ? "x" : "", shape[d]);
  if (cuda)
    g_string_append_printf (s, " (GPU %d)", MAX (device.index, 0));
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

static char *
parameters_extra_repr (GnnModule *self, gboolean typename)
{
  GPtrArray *slots = parameter_slots (self);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < slots->len; i++)
    {
      GnnModuleSlot *sl = slots->pdata[i];
      if (i > 0)
        g_string_append_c (s, '\n');
      g_string_append_printf (s, "  (%s): ", sl->name);
      if (sl->value)
        {
          g_autofree char *d = describe_parameter (GNN_TENSOR (sl->value), typename);
          g_string_append (s, d);
        }
      else
        g_string_append (s, "Object of type: NoneType");
    }
  return g_string_free (s, FALSE);
}

/* ---- Sequential ---------------------------------------------------------------------- */

/**
 * GnnSequential:
 *
 * A chain of modules called one after the other, as `torch.nn.Sequential`.
 *
 * The modules are registered under "0", "1", ..., so the parameters of a sequential model
 * are named as in PyTorch ("0.weight", "2.bias"). Calling it passes the [class@Gnn.Args]
 * through each module in order: the outputs of one are the inputs of the next. An empty
 * Sequential returns its input.
 *
 * Subclass it, as Python code subclasses `nn.Sequential`, to add methods or to override
 * `forward`.
 */

G_DEFINE_TYPE (GnnSequential, gnn_sequential, GNN_TYPE_MODULE)

static GnnArgs *
gnn_sequential_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GPtrArray *slots = module_slots (module);
  g_autoptr(GnnArgs) args = g_object_ref (input);

  for (guint i = 0; i < slots->len; i++)
    {
      GnnModuleSlot *s = slots->pdata[i];
      GnnArgs *out;

      if (s->value == NULL)
        continue;
      out = gnn_module_forward (GNN_MODULE (s->value), args, error);
      if (out == NULL)
        return NULL;
      g_object_unref (args);
      args = out;
    }
  return g_steal_pointer (&args);
}

static void
gnn_sequential_class_init (GnnSequentialClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_sequential_forward;
}

static void
gnn_sequential_init (GnnSequential *self)
{
}

/**
 * gnn_sequential_new: (constructor)
 * @modules: (array length=n) (nullable): the modules, in calling order
 * @n: the number of modules
 *
 * Creates a Sequential holding @modules under "0", "1", ... (`nn.Sequential (*modules)`).
 *
 * Returns: (transfer full): the new Sequential
 */
GnnSequential *
gnn_sequential_new (GnnModule **modules,
                    guint       n)
{
  GnnSequential *self;

  g_return_val_if_fail (modules != NULL || n == 0, NULL);
  for (guint i = 0; i < n; i++)
    g_return_val_if_fail (GNN_IS_MODULE (modules[i]), NULL);
  self = g_object_new (GNN_TYPE_SEQUENTIAL, NULL);
  for (guint i = 0; i < n; i++)
    gnn_sequential_append (self, modules[i]);
  return self;
}

/**
 * gnn_sequential_append:
 * @self: a Sequential
 * @module: the module to call last
 *
 * Adds @module at the end, under the next number (`append`).
 */
void
gnn_sequential_append (GnnSequential *self,
                       GnnModule     *module)
{
  g_return_if_fail (GNN_IS_SEQUENTIAL (self));
  g_return_if_fail (GNN_IS_MODULE (module));
  append_module (GNN_MODULE (self), module);
}

/**
 * gnn_sequential_get:
 * @self: a Sequential
 * @index: the position, counted from the end when negative (-1 is the last)
 * @error: return location for a #GError
 *
 * The module at @index (`sequential[index]`).
 *
 * Returns: (transfer none): the module, or %NULL with @error set (%GNN_ERROR_INDEX) when
 *   @index is out of range
 */
GnnModule *
gnn_sequential_get (GnnSequential *self,
                    int            index,
                    GError       **error)
{
  GPtrArray *slots;
  guint i;

  g_return_val_if_fail (GNN_IS_SEQUENTIAL (self), NULL);
  slots = module_slots (self);
  if (!abs_index (index, slots->len, &i, error))
    return NULL;
  return (GnnModule *) ((GnnModuleSlot *) slots->pdata[i])->value;
}

/**
 * gnn_sequential_get_length:
 * @self: a Sequential
 *
 * Returns the number of modules (`len (sequential)`).
 *
 * Returns: the number of modules (`len (sequential)`)
 */
guint
gnn_sequential_get_length (GnnSequential *self)
{
  g_return_val_if_fail (GNN_IS_SEQUENTIAL (self), 0);
  return module_slots (self)->len;
}

/* ---- ModuleList ---------------------------------------------------------------------- */

/**
 * GnnModuleList:
 *
 * A list of modules, as `torch.nn.ModuleList`: its modules are registered under "0", "1",
 * ..., so that their parameters are found ("layers.0.weight") and the list prints as in
 * PyTorch, but it has no `forward` of its own: the model holding it decides how to call
 * them.
 *
 * Inserting or popping renumbers the modules after that position, as PyTorch does.
 */

struct _GnnModuleList
{
  GnnModule parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnModuleList, gnn_module_list, GNN_TYPE_MODULE)

static void
gnn_module_list_class_init (GnnModuleListClass *klass)
{
}

static void
gnn_module_list_init (GnnModuleList *self)
{
}

/**
 * gnn_module_list_new: (constructor)
 * @modules: (array length=n) (nullable): the modules
 * @n: the number of modules
 *
 * Creates a ModuleList holding @modules under "0", "1", ... (`nn.ModuleList (modules)`).
 *
 * Returns: (transfer full): the new ModuleList
 */
GnnModuleList *
gnn_module_list_new (GnnModule **modules,
                     guint       n)
{
  GnnModuleList *self;

  g_return_val_if_fail (modules != NULL || n == 0, NULL);
  for (guint i = 0; i < n; i++)
    g_return_val_if_fail (GNN_IS_MODULE (modules[i]), NULL);
  self = g_object_new (GNN_TYPE_MODULE_LIST, NULL);
  gnn_module_list_extend (self, modules, n);
  return self;
}

/**
 * gnn_module_list_append:
 * @self: a ModuleList
 * @module: a module
 *
 * Adds @module at the end, under the next number (`append`).
 */
void
gnn_module_list_append (GnnModuleList *self,
                        GnnModule     *module)
{
  g_return_if_fail (GNN_IS_MODULE_LIST (self));
  g_return_if_fail (GNN_IS_MODULE (module));
  append_module (GNN_MODULE (self), module);
}

/**
 * gnn_module_list_extend:
 * @self: a ModuleList
 * @modules: (array length=n) (nullable): the modules
 * @n: the number of modules
 *
 * Appends each of @modules in turn (`extend`).
 */
void
gnn_module_list_extend (GnnModuleList *self,
                        GnnModule    **modules,
                        guint          n)
{
  g_return_if_fail (GNN_IS_MODULE_LIST (self));
  g_return_if_fail (modules != NULL || n == 0);
  for (guint i = 0; i < n; i++)
    g_return_if_fail (GNN_IS_MODULE (modules[i]));
  for (guint i = 0; i < n; i++)
    append_module (GNN_MODULE (self), modules[i]);
}

/**
 * gnn_module_list_insert:
 * @self: a ModuleList
 * @index: the position @module takes, from 0 to the length (appending); counted from the end
 *   when negative (-1 puts @module before the last one)
 * @module: a module
 * @error: return location for a #GError
 *
 * Inserts @module before position @index (`insert`): the modules from there on move up by
 * one and are renumbered, so the keys stay "0", "1", ... in order.
 *
 * Returns: %TRUE on success; %FALSE with @error set (%GNN_ERROR_INDEX) when @index is out of
 *   range, %GNN_ERROR_INVALID_ARGUMENT when @module holds @self (a cycle, which
 *   [method@Gnn.Module.register_module] refuses); the list is then unchanged
 */
gboolean
gnn_module_list_insert (GnnModuleList *self,
                        int            index,
                        GnnModule     *module,
                        GError       **error)
{
  GPtrArray *slots;
  guint len, at;

  g_return_val_if_fail (GNN_IS_MODULE_LIST (self), FALSE);
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  slots = module_slots (self);
  len = slots->len;
  if (index == (gint64) len)
    at = len;
  else if (!abs_index (index, len, &at, error))
    return FALSE;
  /* registered first under the new last number, which the moves below then take over: a
   * module that would make the tree a cycle is refused before anything moved */
  if (!register_module_at (GNN_MODULE (self), len, module, error))
    return FALSE;
  /* as PyTorch: for i in range (len, index, -1): modules[str (i)] = modules[str (i - 1)] */
  for (guint i = len; i > at; i--)
    {
      GnnModuleSlot *prev = slots->pdata[i - 1];
      g_autoptr(GObject) moved = prev->value ? g_object_ref (prev->value) : NULL;
      if (!register_module_at (GNN_MODULE (self), i, (GnnModule *) moved, error))
        return FALSE;
    }
  return register_module_at (GNN_MODULE (self), at, module, error);
}

/**
 * gnn_module_list_get:
 * @self: a ModuleList
 * @index: the position, counted from the end when negative (-1 is the last)
 * @error: return location for a #GError
 *
 * The module at @index (`module_list[index]`).
 *
 * Returns: (transfer none): the module, or %NULL with @error set (%GNN_ERROR_INDEX) when
 *   @index is out of range
 */
GnnModule *
gnn_module_list_get (GnnModuleList *self,
                     int            index,
                     GError       **error)
{
  GPtrArray *slots;
  guint i;

  g_return_val_if_fail (GNN_IS_MODULE_LIST (self), NULL);
  slots = module_slots (self);
  if (!abs_index (index, slots->len, &i, error))
    return NULL;
  return (GnnModule *) ((GnnModuleSlot *) slots->pdata[i])->value;
}

/**
 * gnn_module_list_set:
 * @self: a ModuleList
 * @index: the position, counted from the end when negative (-1 is the last)
 * @module: the module to put there
 * @error: return location for a #GError
 *
 * Replaces the module at @index (`module_list[index] = module`).
 *
 * Returns: %TRUE on success; %FALSE with @error set (%GNN_ERROR_INDEX) when @index is out of
 *   range
 */
gboolean
gnn_module_list_set (GnnModuleList *self,
                     int            index,
                     GnnModule     *module,
                     GError       **error)
{
  guint i;

  g_return_val_if_fail (GNN_IS_MODULE_LIST (self), FALSE);
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  if (!abs_index (index, module_slots (self)->len, &i, error))
    return FALSE;
  return register_module_at (GNN_MODULE (self), i, module, error);
}

/**
 * gnn_module_list_pop:
 * @self: a ModuleList
 * @index: the position, counted from the end when negative (-1 is the last)
 * @error: return location for a #GError
 *
 * Removes the module at @index and returns it (`pop`); the modules after it move down by one
 * and are renumbered, as `del module_list[index]` does.
 *
 * Returns: (transfer full): the removed module, or %NULL with @error set (%GNN_ERROR_INDEX)
 *   when @index is out of range
 */
GnnModule *
gnn_module_list_pop (GnnModuleList *self,
                     int            index,
                     GError       **error)
{
  GPtrArray *slots;
  GnnModule *popped;
  guint at;

  g_return_val_if_fail (GNN_IS_MODULE_LIST (self), NULL);
  slots = module_slots (self);
  if (!abs_index (index, slots->len, &at, error))
    return NULL;
  popped = (GnnModule *) ((GnnModuleSlot *) slots->pdata[at])->value;
  if (popped)
    g_object_ref (popped);
  /* as PyTorch's __delitem__: the values keep their order, the keys are "0", "1", ... again */
  g_ptr_array_remove_index (slots, at);
  for (guint i = at; i < slots->len; i++)
    {
      GnnModuleSlot *s = slots->pdata[i];
      g_free (s->name);
      s->name = g_strdup_printf ("%u", i);
    }
  return popped;
}

/**
 * gnn_module_list_get_length:
 * @self: a ModuleList
 *
 * Returns the number of modules (`len (module_list)`).
 *
 * Returns: the number of modules (`len (module_list)`)
 */
guint
gnn_module_list_get_length (GnnModuleList *self)
{
  g_return_val_if_fail (GNN_IS_MODULE_LIST (self), 0);
  return module_slots (self)->len;
}

/* ---- ModuleDict ---------------------------------------------------------------------- */

/**
 * GnnModuleDict:
 *
 * Modules under string keys, in insertion order, as `torch.nn.ModuleDict`. A key is a
 * module name: not empty, without dots, and not the name of a property of the dict
 * ("training", "device"). Like [class@Gnn.ModuleList], it has no `forward`.
 */

struct _GnnModuleDict
{
  GnnModule parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnModuleDict, gnn_module_dict, GNN_TYPE_MODULE)

static void
gnn_module_dict_class_init (GnnModuleDictClass *klass)
{
}

static void
gnn_module_dict_init (GnnModuleDict *self)
{
}

/**
 * gnn_module_dict_new: (constructor)
 *
 * Creates an empty ModuleDict (`nn.ModuleDict ()`); fill it with
 * [method@Gnn.ModuleDict.set].
 *
 * Returns: (transfer full): the new ModuleDict
 */
GnnModuleDict *
gnn_module_dict_new (void)
{
  return g_object_new (GNN_TYPE_MODULE_DICT, NULL);
}

/**
 * gnn_module_dict_set:
 * @self: a ModuleDict
 * @key: the key, a valid module name
 * @module: the module
 * @error: return location for a #GError
 *
 * Puts @module under @key (`module_dict[key] = module`): a new key goes last, an existing
 * one keeps its place.
 *
 * Returns: %TRUE on success; %FALSE with @error set (%GNN_ERROR_INVALID_ARGUMENT) when @key
 *   is empty, contains a dot or names a property
 */
gboolean
gnn_module_dict_set (GnnModuleDict *self,
                     const char    *key,
                     GnnModule     *module,
                     GError       **error)
{
  g_return_val_if_fail (GNN_IS_MODULE_DICT (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  return gnn_module_register_module (GNN_MODULE (self), key, module, error);
}

/**
 * gnn_module_dict_get:
 * @self: a ModuleDict
 * @key: a key
 * @error: return location for a #GError
 *
 * The module under @key (`module_dict[key]`).
 *
 * Returns: (transfer none): the module, or %NULL with @error set (%GNN_ERROR_INDEX) when
 *   there is none
 */
GnnModule *
gnn_module_dict_get (GnnModuleDict *self,
                     const char    *key,
                     GError       **error)
{
  GnnModuleSlot *s;

  g_return_val_if_fail (GNN_IS_MODULE_DICT (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);
  s = gnn_module_find_slot (module_slots (self), key);
  if (s == NULL || s->value == NULL)
    {
      key_error (error, key, GNN_MODULE (self));
      return NULL;
    }
  return GNN_MODULE (s->value);
}

/**
 * gnn_module_dict_contains:
 * @self: a ModuleDict
 * @key: a key
 *
 * Checks whether there is a module under @key (`key in module_dict`).
 *
 * Returns: whether there is a module under @key (`key in module_dict`)
 */
gboolean
gnn_module_dict_contains (GnnModuleDict *self,
                          const char    *key)
{
  GnnModuleSlot *s;

  g_return_val_if_fail (GNN_IS_MODULE_DICT (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  s = gnn_module_find_slot (module_slots (self), key);
  return s != NULL && s->value != NULL;
}

/**
 * gnn_module_dict_pop:
 * @self: a ModuleDict
 * @key: a key
 * @error: return location for a #GError
 *
 * Removes the module under @key and returns it (`pop`, `del module_dict[key]`).
 *
 * Returns: (transfer full): the removed module, or %NULL with @error set (%GNN_ERROR_INDEX)
 *   when there is none
 */
GnnModule *
gnn_module_dict_pop (GnnModuleDict *self,
                     const char    *key,
                     GError       **error)
{
  GnnModule *module;

  g_return_val_if_fail (GNN_IS_MODULE_DICT (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);
  module = gnn_module_dict_get (self, key, error);
  if (module == NULL)
    return NULL;
  g_object_ref (module);
  gnn_module_remove (GNN_MODULE (self), key);
  return module;
}

/**
 * gnn_module_dict_keys:
 * @self: a ModuleDict
 *
 * Returns the keys, in insertion order (`keys`).
 *
 * Returns: (transfer full) (array zero-terminated=1): the keys, in insertion order (`keys`)
 */
char **
gnn_module_dict_keys (GnnModuleDict *self)
{
  g_return_val_if_fail (GNN_IS_MODULE_DICT (self), NULL);
  return slot_names (module_slots (self));
}

/**
 * gnn_module_dict_get_length:
 * @self: a ModuleDict
 *
 * Returns the number of modules (`len (module_dict)`).
 *
 * Returns: the number of modules (`len (module_dict)`)
 */
guint
gnn_module_dict_get_length (GnnModuleDict *self)
{
  g_return_val_if_fail (GNN_IS_MODULE_DICT (self), 0);
  return module_slots (self)->len;
}

/**
 * gnn_module_dict_clear:
 * @self: a ModuleDict
 *
 * Removes every module (`clear`).
 */
void
gnn_module_dict_clear (GnnModuleDict *self)
{
  g_return_if_fail (GNN_IS_MODULE_DICT (self));
  g_ptr_array_set_size (module_slots (self), 0);
}

/* ---- ParameterList ------------------------------------------------------------------- */

/**
 * GnnParameterList:
 *
 * A list of parameters, as `torch.nn.ParameterList`: each is registered as a parameter under
 * "0", "1", ..., so a model holding the list as "params" names them "params.0", "params.1".
 * A plain tensor given to it becomes a new [class@Gnn.Parameter] that requires grad, as in
 * PyTorch. It prints as PyTorch does:
 * `(0): Parameter containing: [torch.float32 of size 3]`.
 */

struct _GnnParameterList
{
  GnnModule parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnParameterList, gnn_parameter_list, GNN_TYPE_MODULE)

static char *
gnn_parameter_list_extra_repr (GnnModule *self)
{
  return parameters_extra_repr (self, FALSE);
}

static void
gnn_parameter_list_class_init (GnnParameterListClass *klass)
{
  GNN_MODULE_CLASS (klass)->extra_repr = gnn_parameter_list_extra_repr;
}

static void
gnn_parameter_list_init (GnnParameterList *self)
{
}

static gboolean
register_parameter_at (GnnModule *self, guint index, GnnTensor *value, GError **error)
{
  g_autoptr(GnnParameter) p = as_parameter (value, error);
  char name[16];

  if (p == NULL)
    return FALSE;
  g_snprintf (name, sizeof name, "%u", index);
  return gnn_module_register_parameter (self, name, p, error);
}

/**
 * gnn_parameter_list_new: (constructor)
 * @parameters: (array length=n) (nullable): the parameters
 * @n: the number of parameters
 *
 * Creates a ParameterList holding @parameters under "0", "1", ...
 * (`nn.ParameterList (parameters)`).
 *
 * Returns: (transfer full): the new ParameterList
 */
GnnParameterList *
gnn_parameter_list_new (GnnParameter **parameters,
                        guint          n)
{
  GnnParameterList *self;

  g_return_val_if_fail (parameters != NULL || n == 0, NULL);
  for (guint i = 0; i < n; i++)
    g_return_val_if_fail (GNN_IS_PARAMETER (parameters[i]), NULL);
  self = g_object_new (GNN_TYPE_PARAMETER_LIST, NULL);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GError) error = NULL;
      if (!gnn_parameter_list_append (self, GNN_TENSOR (parameters[i]), &error))
        g_critical ("Could not add parameter %u to a ParameterList: %s", i, error->message);
    }
  return self;
}

/**
 * gnn_parameter_list_append:
 * @self: a ParameterList
 * @value: a parameter, or a floating-point tensor to make a parameter of
 * @error: return location for a #GError
 *
 * Adds @value at the end, under the next number (`append`). A tensor that is not a
 * [class@Gnn.Parameter] is wrapped in a new one that requires grad and shares its data.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @value cannot be a parameter (an
 *   integer tensor, %GNN_ERROR_DTYPE)
 */
gboolean
gnn_parameter_list_append (GnnParameterList *self,
                           GnnTensor        *value,
                           GError          **error)
{
  g_return_val_if_fail (GNN_IS_PARAMETER_LIST (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (value), FALSE);
  return register_parameter_at (GNN_MODULE (self), parameter_slots (self)->len, value, error);
}

/**
 * gnn_parameter_list_get:
 * @self: a ParameterList
 * @index: the position, counted from the end when negative (-1 is the last)
 * @error: return location for a #GError
 *
 * The parameter at @index (`parameter_list[index]`).
 *
 * Returns: (transfer none): the parameter, or %NULL with @error set (%GNN_ERROR_INDEX) when
 *   @index is out of range
 */
GnnParameter *
gnn_parameter_list_get (GnnParameterList *self,
                        int               index,
                        GError          **error)
{
  GPtrArray *slots;
  guint i;

  g_return_val_if_fail (GNN_IS_PARAMETER_LIST (self), NULL);
  slots = parameter_slots (self);
  if (!abs_index (index, slots->len, &i, error))
    return NULL;
  return (GnnParameter *) ((GnnModuleSlot *) slots->pdata[i])->value;
}

/**
 * gnn_parameter_list_set:
 * @self: a ParameterList
 * @index: the position, counted from the end when negative (-1 is the last)
 * @value: a parameter, or a floating-point tensor to make a parameter of
 * @error: return location for a #GError
 *
 * Replaces the parameter at @index (`parameter_list[index] = value`); a plain tensor is
 * wrapped as [method@Gnn.ParameterList.append] does.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @index is out of range
 *   (%GNN_ERROR_INDEX) or @value cannot be a parameter
 */
gboolean
gnn_parameter_list_set (GnnParameterList *self,
                        int               index,
                        GnnTensor        *value,
                        GError          **error)
{
  guint i;

  g_return_val_if_fail (GNN_IS_PARAMETER_LIST (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (value), FALSE);
  if (!abs_index (index, parameter_slots (self)->len, &i, error))
    return FALSE;
  return register_parameter_at (GNN_MODULE (self), i, value, error);
}

/**
 * gnn_parameter_list_get_length:
 * @self: a ParameterList
 *
 * Returns the number of parameters (`len (parameter_list)`).
 *
 * Returns: the number of parameters (`len (parameter_list)`)
 */
guint
gnn_parameter_list_get_length (GnnParameterList *self)
{
  g_return_val_if_fail (GNN_IS_PARAMETER_LIST (self), 0);
  return parameter_slots (self)->len;
}

/* ---- ParameterDict ------------------------------------------------------------------- */

/**
 * GnnParameterDict:
 *
 * Parameters under string keys, in insertion order, as `torch.nn.ParameterDict`: each is
 * registered as a parameter under its key, so a model holding the dict as "param_dict" names
 * them "param_dict.foo". A key is a parameter name: not empty, without dots, and not the
 * name of a property. A plain tensor becomes a new [class@Gnn.Parameter] that requires grad.
 * It prints as PyTorch does: `(foo): Parameter containing: [torch.FloatTensor of size 3]`.
 */

struct _GnnParameterDict
{
  GnnModule parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnParameterDict, gnn_parameter_dict, GNN_TYPE_MODULE)

static char *
gnn_parameter_dict_extra_repr (GnnModule *self)
{
  return parameters_extra_repr (self, TRUE);
}

static void
gnn_parameter_dict_class_init (GnnParameterDictClass *klass)
{
  GNN_MODULE_CLASS (klass)->extra_repr = gnn_parameter_dict_extra_repr;
}

static void
gnn_parameter_dict_init (GnnParameterDict *self)
{
}

/**
 * gnn_parameter_dict_new: (constructor)
 *
 * Creates an empty ParameterDict (`nn.ParameterDict ()`); fill it with
 * [method@Gnn.ParameterDict.set].
 *
 * Returns: (transfer full): the new ParameterDict
 */
GnnParameterDict *
gnn_parameter_dict_new (void)
{
  return g_object_new (GNN_TYPE_PARAMETER_DICT, NULL);
}

/**
 * gnn_parameter_dict_set:
 * @self: a ParameterDict
 * @key: the key, a valid parameter name
 * @value: a parameter, or a floating-point tensor to make a parameter of
 * @error: return location for a #GError
 *
 * Puts @value under @key (`parameter_dict[key] = value`): a new key goes last, an existing
 * one keeps its place.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @key is empty, contains a dot or
 *   names a property (%GNN_ERROR_INVALID_ARGUMENT), or @value cannot be a parameter
 */
gboolean
gnn_parameter_dict_set (GnnParameterDict *self,
                        const char       *key,
                        GnnTensor        *value,
                        GError          **error)
{
  g_autoptr(GnnParameter) p = NULL;

  g_return_val_if_fail (GNN_IS_PARAMETER_DICT (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (value), FALSE);
  p = as_parameter (value, error);
  if (p == NULL)
    return FALSE;
  return gnn_module_register_parameter (GNN_MODULE (self), key, p, error);
}

/**
 * gnn_parameter_dict_get:
 * @self: a ParameterDict
 * @key: a key
 * @error: return location for a #GError
 *
 * The parameter under @key (`parameter_dict[key]`).
 *
 * Returns: (transfer none): the parameter, or %NULL with @error set (%GNN_ERROR_INDEX) when
 *   there is none
 */
GnnParameter *
gnn_parameter_dict_get (GnnParameterDict *self,
                        const char       *key,
                        GError          **error)
{
  GnnModuleSlot *s;

  g_return_val_if_fail (GNN_IS_PARAMETER_DICT (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);
  s = gnn_module_find_slot (parameter_slots (self), key);
  if (s == NULL || s->value == NULL)
    {
      key_error (error, key, GNN_MODULE (self));
      return NULL;
    }
  return GNN_PARAMETER (s->value);
}

/**
 * gnn_parameter_dict_contains:
 * @self: a ParameterDict
 * @key: a key
 *
 * Checks whether there is a parameter under @key (`key in parameter_dict`).
 *
 * Returns: whether there is a parameter under @key (`key in parameter_dict`)
 */
gboolean
gnn_parameter_dict_contains (GnnParameterDict *self,
                             const char       *key)
{
  GnnModuleSlot *s;

  g_return_val_if_fail (GNN_IS_PARAMETER_DICT (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  s = gnn_module_find_slot (parameter_slots (self), key);
  return s != NULL && s->value != NULL;
}

/**
 * gnn_parameter_dict_pop:
 * @self: a ParameterDict
 * @key: a key
 * @error: return location for a #GError
 *
 * Removes the parameter under @key and returns it (`pop`, `del parameter_dict[key]`).
 *
 * Returns: (transfer full): the removed parameter, or %NULL with @error set
 *   (%GNN_ERROR_INDEX) when there is none
 */
GnnParameter *
gnn_parameter_dict_pop (GnnParameterDict *self,
                        const char       *key,
                        GError          **error)
{
  GnnParameter *p;

  g_return_val_if_fail (GNN_IS_PARAMETER_DICT (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);
  p = gnn_parameter_dict_get (self, key, error);
  if (p == NULL)
    return NULL;
  g_object_ref (p);
  gnn_module_remove (GNN_MODULE (self), key);
  return p;
}

/**
 * gnn_parameter_dict_keys:
 * @self: a ParameterDict
 *
 * Returns the keys, in insertion order (`keys`).
 *
 * Returns: (transfer full) (array zero-terminated=1): the keys, in insertion order (`keys`)
 */
char **
gnn_parameter_dict_keys (GnnParameterDict *self)
{
  g_return_val_if_fail (GNN_IS_PARAMETER_DICT (self), NULL);
  return slot_names (parameter_slots (self));
}

/**
 * gnn_parameter_dict_get_length:
 * @self: a ParameterDict
 *
 * Returns the number of parameters (`len (parameter_dict)`).
 *
 * Returns: the number of parameters (`len (parameter_dict)`)
 */
guint
gnn_parameter_dict_get_length (GnnParameterDict *self)
{
  g_return_val_if_fail (GNN_IS_PARAMETER_DICT (self), 0);
  return parameter_slots (self)->len;
}

/* the layer types of this file, for gnn_module_new_from_type_name() to find by name */
void
gnn_containers_ensure_types (void)
{
  g_type_ensure (GNN_TYPE_SEQUENTIAL);
  g_type_ensure (GNN_TYPE_MODULE_LIST);
  g_type_ensure (GNN_TYPE_MODULE_DICT);
  g_type_ensure (GNN_TYPE_PARAMETER_LIST);
  g_type_ensure (GNN_TYPE_PARAMETER_DICT);
}
