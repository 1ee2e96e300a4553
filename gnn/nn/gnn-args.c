/* gnn-args.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "core/gnn-error.h"
#include "gnn-args-private.h"

/**
 * GnnArgs:
 *
 * The positional and keyword values of a module call, and the values it returns.
 *
 * PyTorch's `forward (self, *args, **kwargs)` takes anything and returns anything: a module
 * may take a tensor and an activation name, or return several tensors. A `GnnArgs` holds such
 * values, each a #GValue: tensors, numbers, booleans, strings, or any other GObject or boxed
 * value, in order, plus named keyword values. Hooks receive the same object and may change it
 * in place, so that each handler sees what the previous one changed.
 */
typedef struct {
  char *name;
  GValue value;
} Kwarg;

struct _GnnArgs
{
  GObject parent_instance;
  GPtrArray *values;   /* GValue* */
  GPtrArray *kwargs;   /* Kwarg* */
};

G_DEFINE_FINAL_TYPE (GnnArgs, gnn_args, G_TYPE_OBJECT)

static void
value_free (gpointer data)
{
  GValue *v = data;
  g_value_unset (v);
  g_free (v);
}

static void
kwarg_free (gpointer data)
{
  Kwarg *k = data;
  g_free (k->name);
  g_value_unset (&k->value);
  g_free (k);
}

static void
gnn_args_dispose (GObject *object)
{
  GnnArgs *self = GNN_ARGS (object);

  g_ptr_array_set_size (self->values, 0);
  g_ptr_array_set_size (self->kwargs, 0);
  G_OBJECT_CLASS (gnn_args_parent_class)->dispose (object);
}

static void
gnn_args_finalize (GObject *object)
{
  GnnArgs *self = GNN_ARGS (object);

  g_ptr_array_unref (self->values);
  g_ptr_array_unref (self->kwargs);
  G_OBJECT_CLASS (gnn_args_parent_class)->finalize (object);
}

static void
gnn_args_class_init (GnnArgsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = gnn_args_dispose;
  object_class->finalize = gnn_args_finalize;
}

static void
gnn_args_init (GnnArgs *self)
{
  self->values = g_ptr_array_new_with_free_func (value_free);
  self->kwargs = g_ptr_array_new_with_free_func (kwarg_free);
}

/**
 * gnn_args_new:
 *
 * Creates empty arguments.
 *
 * Returns: (transfer full): new, empty arguments
 */
GnnArgs *
gnn_args_new (void)
{
  return g_object_new (GNN_TYPE_ARGS, NULL);
}

/**
 * gnn_args_new_tensor:
 * @tensor: a tensor
 *
 * Creates arguments holding @tensor as their only positional value.
 *
 * Returns: (transfer full): arguments holding one tensor
 */
GnnArgs *
gnn_args_new_tensor (GnnTensor *tensor)
{
  GnnArgs *self = gnn_args_new ();
  gnn_args_add_tensor (self, tensor);
  return self;
}

/**
 * gnn_args_copy:
 * @self: arguments
 *
 * Makes a shallow copy of @self: the same values (tensors are shared, not copied).
 *
 * Returns: (transfer full): a shallow copy: the same values (tensors are shared, not copied)
 */
GnnArgs *
gnn_args_copy (GnnArgs *self)
{
  GnnArgs *copy;

  g_return_val_if_fail (GNN_IS_ARGS (self), NULL);
  copy = gnn_args_new ();
  for (guint i = 0; i < self->values->len; i++)
    gnn_args_add_value (copy, self->values->pdata[i]);
  for (guint i = 0; i < self->kwargs->len; i++)
    {
      Kwarg *k = self->kwargs->pdata[i];
      gnn_args_set_kwarg (copy, k->name, &k->value);
    }
  return copy;
}

/**
 * gnn_args_set_from:
 * @self: arguments to change
 * @other: the values to take
 *
 * Makes @self hold the same positional and keyword values as @other, as a hook does to replace
 * a module's inputs or outputs whole.
 */
void
gnn_args_set_from (GnnArgs *self,
                   GnnArgs *other)
{
  g_autoptr(GnnArgs) copy = NULL;

  g_return_if_fail (GNN_IS_ARGS (self));
  g_return_if_fail (GNN_IS_ARGS (other));
  if (self == other)
    return;
  copy = gnn_args_copy (other);
  g_ptr_array_set_size (self->values, 0);
  g_ptr_array_set_size (self->kwargs, 0);
  g_ptr_array_extend_and_steal (self->values, g_steal_pointer (&copy->values));
  g_ptr_array_extend_and_steal (self->kwargs, g_steal_pointer (&copy->kwargs));
  copy->values = g_ptr_array_new_with_free_func (value_free);
  copy->kwargs = g_ptr_array_new_with_free_func (kwarg_free);
}

/**
 * gnn_args_clear_values:
 * @self: arguments
 *
 * Removes every positional value, keeping the keyword values.
 */
void
gnn_args_clear_values (GnnArgs *self)
{
  g_return_if_fail (GNN_IS_ARGS (self));
  g_ptr_array_set_size (self->values, 0);
}

/**
 * gnn_args_get_n_values:
 * @self: arguments
 *
 * Returns the number of positional values.
 *
 * Returns: the number of positional values
 */
guint
gnn_args_get_n_values (GnnArgs *self)
{
  g_return_val_if_fail (GNN_IS_ARGS (self), 0);
  return self->values->len;
}

static GValue *
value_dup (const GValue *value)
{
  GValue *v = g_new0 (GValue, 1);
  g_value_init (v, G_VALUE_TYPE (value));
  g_value_copy (value, v);
  return v;
}

/**
 * gnn_args_add_value:
 * @self: arguments
 * @value: a value, copied
 *
 * Appends a positional value.
 */
void
gnn_args_add_value (GnnArgs      *self,
                    const GValue *value)
{
  g_return_if_fail (GNN_IS_ARGS (self));
  g_return_if_fail (G_IS_VALUE (value));
  g_ptr_array_add (self->values, value_dup (value));
}

/**
 * gnn_args_add_tensor:
 * @self: arguments
 * @tensor: (nullable): a tensor, or %NULL for None
 *
 * Appends a tensor.
 */
void
gnn_args_add_tensor (GnnArgs   *self,
                     GnnTensor *tensor)
{
  GValue *v;

  g_return_if_fail (GNN_IS_ARGS (self));
  g_return_if_fail (tensor == NULL || GNN_IS_TENSOR (tensor));
  v = g_new0 (GValue, 1);
  g_value_init (v, GNN_TYPE_TENSOR);
  g_value_set_object (v, tensor);
  g_ptr_array_add (self->values, v);
}

#define ADD_SIMPLE(fname, ctype, gtype, setter)        \
void                                                   \
fname (GnnArgs *self, ctype value)                     \
{                                                      \
  GValue *v;                                           \
  g_return_if_fail (GNN_IS_ARGS (self));               \
  v = g_new0 (GValue, 1);                              \
  g_value_init (v, gtype);                             \
  setter (v, value);                                   \
  g_ptr_array_add (self->values, v);                   \
}

/**
 * gnn_args_add_double:
 * @self: arguments
 * @value: a number
 *
 * Appends a floating-point number.
 */
ADD_SIMPLE (gnn_args_add_double, double, G_TYPE_DOUBLE, g_value_set_double)

/**
 * gnn_args_add_int:
 * @self: arguments
 * @value: an integer
 *
 * Appends an integer.
 */
ADD_SIMPLE (gnn_args_add_int, gint64, G_TYPE_INT64, g_value_set_int64)

/**
 * gnn_args_add_boolean:
 * @self: arguments
 * @value: a boolean
 *
 * Appends a boolean.
 */
ADD_SIMPLE (gnn_args_add_boolean, gboolean, G_TYPE_BOOLEAN, g_value_set_boolean)

/**
 * gnn_args_add_string:
 * @self: arguments
 * @value: (nullable): a string
 *
 * Appends a string.
 */
ADD_SIMPLE (gnn_args_add_string, const char *, G_TYPE_STRING, g_value_set_string)

static gboolean
check_index (GnnArgs *self, guint index, GError **error)
{
  if (index < self->values->len)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
               "argument %u is out of range: the call has %u positional argument%s",
               index, self->values->len, self->values->len == 1 ? "" : "s");
  return FALSE;
}

/**
 * gnn_args_get_value:
 * @self: arguments
 * @index: a position
 *
 * Returns the value at @index, or %NULL past the end.
 *
 * Returns: (transfer none) (nullable): the value at @index, or %NULL past the end
 */
const GValue *
gnn_args_get_value (GnnArgs *self,
                    guint    index)
{
  g_return_val_if_fail (GNN_IS_ARGS (self), NULL);
  if (index >= self->values->len)
    return NULL;
  return self->values->pdata[index];
}

/**
 * gnn_args_set_value:
 * @self: arguments
 * @index: a position, less than the number of values
 * @value: the new value, copied
 * @error: return location for a #GError
 *
 * Replaces a positional value.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_args_set_value (GnnArgs      *self,
                    guint         index,
                    const GValue *value,
                    GError      **error)
{
  g_return_val_if_fail (GNN_IS_ARGS (self), FALSE);
  g_return_val_if_fail (G_IS_VALUE (value), FALSE);
  if (!check_index (self, index, error))
    return FALSE;
  value_free (self->values->pdata[index]);
  self->values->pdata[index] = value_dup (value);
  return TRUE;
}

/**
 * gnn_args_set_tensor:
 * @self: arguments
 * @index: a position, less than the number of values
 * @tensor: (nullable): the new tensor
 * @error: return location for a #GError
 *
 * Replaces a positional value with a tensor.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_args_set_tensor (GnnArgs   *self,
                     guint      index,
                     GnnTensor *tensor,
                     GError   **error)
{
  GValue v = G_VALUE_INIT;
  gboolean ok;

  g_return_val_if_fail (GNN_IS_ARGS (self), FALSE);
  g_value_init (&v, GNN_TYPE_TENSOR);
  g_value_set_object (&v, tensor);
  ok = gnn_args_set_value (self, index, &v, error);
  g_value_unset (&v);
  return ok;
}

/**
 * gnn_args_is_tensor:
 * @self: arguments
 * @index: a position
 *
 * Checks whether the value at @index is a (non-%NULL) tensor.
 *
 * Returns: whether the value at @index is a (non-%NULL) tensor
 */
gboolean
gnn_args_is_tensor (GnnArgs *self,
                    guint    index)
{
  const GValue *v;

  g_return_val_if_fail (GNN_IS_ARGS (self), FALSE);
  v = gnn_args_get_value (self, index);
  return v && G_VALUE_HOLDS_OBJECT (v) && GNN_IS_TENSOR (g_value_get_object (v));
}

static const GValue *
typed_value (GnnArgs *self, guint index, GType want, const char *what, GError **error)
{
  const GValue *v;

  if (!check_index (self, index, error))
    return NULL;
  v = self->values->pdata[index];
  if (G_VALUE_HOLDS (v, want) ||
      (want == GNN_TYPE_TENSOR && G_VALUE_HOLDS_OBJECT (v) && GNN_IS_TENSOR (g_value_get_object (v))))
    return v;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "argument %u: expected %s, got %s", index, what,
               G_VALUE_HOLDS_OBJECT (v) && g_value_get_object (v) == NULL ? "None" : G_VALUE_TYPE_NAME (v));
  return NULL;
}

/**
 * gnn_args_get_tensor:
 * @self: arguments
 * @index: a position
 * @error: return location for a #GError
 *
 * Returns the tensor at @index.
 *
 * Returns: (transfer none): the tensor at @index, or %NULL with @error set when there is
 *   no tensor there
 */
GnnTensor *
gnn_args_get_tensor (GnnArgs *self,
                     guint    index,
                     GError **error)
{
  const GValue *v;

  g_return_val_if_fail (GNN_IS_ARGS (self), NULL);
  v = typed_value (self, index, GNN_TYPE_TENSOR, "a tensor", error);
  return v ? g_value_get_object (v) : NULL;
}

/**
 * gnn_args_get_double:
 * @self: arguments
 * @index: a position
 * @error: return location for a #GError
 *
 * Returns the number at @index (a double, float or integer value).
 *
 * Returns: the number at @index (a double, float or integer value), or 0 with @error set
 */
double
gnn_args_get_double (GnnArgs *self,
                     guint    index,
                     GError **error)
{
  const GValue *v;

  g_return_val_if_fail (GNN_IS_ARGS (self), 0);
  if (!check_index (self, index, error))
    return 0;
  v = self->values->pdata[index];
  if (G_VALUE_HOLDS_DOUBLE (v))
    return g_value_get_double (v);
  if (G_VALUE_HOLDS_FLOAT (v))
    return g_value_get_float (v);
  if (G_VALUE_HOLDS_INT64 (v))
    return (double) g_value_get_int64 (v);
  if (G_VALUE_HOLDS_INT (v))
    return g_value_get_int (v);
  typed_value (self, index, G_TYPE_DOUBLE, "a number", error);
  return 0;
}

/**
 * gnn_args_get_int:
 * @self: arguments
 * @index: a position
 * @error: return location for a #GError
 *
 * Returns the integer at @index.
 *
 * Returns: the integer at @index, or 0 with @error set
 */
gint64
gnn_args_get_int (GnnArgs *self,
                  guint    index,
                  GError **error)
{
  const GValue *v;

  g_return_val_if_fail (GNN_IS_ARGS (self), 0);
  if (!check_index (self, index, error))
    return 0;
  v = self->values->pdata[index];
  if (G_VALUE_HOLDS_INT64 (v))
    return g_value_get_int64 (v);
  if (G_VALUE_HOLDS_INT (v))
    return g_value_get_int (v);
  if (G_VALUE_HOLDS_UINT (v))
    return g_value_get_uint (v);
  typed_value (self, index, G_TYPE_INT64, "an integer", error);
  return 0;
}

/**
 * gnn_args_get_boolean:
 * @self: arguments
 * @index: a position
 * @error: return location for a #GError
 *
 * Returns the boolean at @index.
 *
 * Returns: the boolean at @index, or %FALSE with @error set
 */
gboolean
gnn_args_get_boolean (GnnArgs *self,
                      guint    index,
                      GError **error)
{
  const GValue *v;

  g_return_val_if_fail (GNN_IS_ARGS (self), FALSE);
  v = typed_value (self, index, G_TYPE_BOOLEAN, "a boolean", error);
  return v ? g_value_get_boolean (v) : FALSE;
}

/**
 * gnn_args_get_string:
 * @self: arguments
 * @index: a position
 * @error: return location for a #GError
 *
 * Returns the string at @index.
 *
 * Returns: (transfer none) (nullable): the string at @index, or %NULL with @error set
 */
const char *
gnn_args_get_string (GnnArgs *self,
                     guint    index,
                     GError **error)
{
  const GValue *v;

  g_return_val_if_fail (GNN_IS_ARGS (self), NULL);
  v = typed_value (self, index, G_TYPE_STRING, "a string", error);
  return v ? g_value_get_string (v) : NULL;
}

static Kwarg *
find_kwarg (GnnArgs *self, const char *name, guint *pos)
{
  for (guint i = 0; i < self->kwargs->len; i++)
    {
      Kwarg *k = self->kwargs->pdata[i];
      if (g_str_equal (k->name, name))
        {
          if (pos)
            *pos = i;
          return k;
        }
    }
  return NULL;
}

/**
 * gnn_args_set_kwarg:
 * @self: arguments
 * @name: the keyword
 * @value: the value, copied
 *
 * Sets a keyword value, replacing one of the same name (keywords keep their first order).
 */
void
gnn_args_set_kwarg (GnnArgs      *self,
                    const char   *name,
                    const GValue *value)
{
  Kwarg *k;

  g_return_if_fail (GNN_IS_ARGS (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (G_IS_VALUE (value));
  k = find_kwarg (self, name, NULL);
  if (k)
    g_value_unset (&k->value);
  else
    {
      k = g_new0 (Kwarg, 1);
      k->name = g_strdup (name);
      g_ptr_array_add (self->kwargs, k);
    }
  g_value_init (&k->value, G_VALUE_TYPE (value));
  g_value_copy (value, &k->value);
}

/**
 * gnn_args_set_kwarg_tensor:
 * @self: arguments
 * @name: the keyword
 * @tensor: (nullable): the tensor
 *
 * Sets a keyword tensor.
 */
void
gnn_args_set_kwarg_tensor (GnnArgs    *self,
                           const char *name,
                           GnnTensor  *tensor)
{
  GValue v = G_VALUE_INIT;

  g_value_init (&v, GNN_TYPE_TENSOR);
  g_value_set_object (&v, tensor);
  gnn_args_set_kwarg (self, name, &v);
  g_value_unset (&v);
}

/**
 * gnn_args_get_kwarg:
 * @self: arguments
 * @name: the keyword
 *
 * Returns the keyword value, or %NULL when it is not set.
 *
 * Returns: (transfer none) (nullable): the keyword value, or %NULL when it is not set
 */
const GValue *
gnn_args_get_kwarg (GnnArgs    *self,
                    const char *name)
{
  Kwarg *k;

  g_return_val_if_fail (GNN_IS_ARGS (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  k = find_kwarg (self, name, NULL);
  return k ? &k->value : NULL;
}

/**
 * gnn_args_has_kwarg:
 * @self: arguments
 * @name: the keyword
 *
 * Checks whether the keyword is set.
 *
 * Returns: whether the keyword is set
 */
gboolean
gnn_args_has_kwarg (GnnArgs    *self,
                    const char *name)
{
  return gnn_args_get_kwarg (self, name) != NULL;
}

/**
 * gnn_args_remove_kwarg:
 * @self: arguments
 * @name: the keyword
 *
 * Removes the keyword argument @name.
 *
 * Returns: whether a keyword was removed
 */
gboolean
gnn_args_remove_kwarg (GnnArgs    *self,
                       const char *name)
{
  guint pos;

  g_return_val_if_fail (GNN_IS_ARGS (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  if (!find_kwarg (self, name, &pos))
    return FALSE;
  g_ptr_array_remove_index (self->kwargs, pos);
  return TRUE;
}

/**
 * gnn_args_get_kwarg_names:
 * @self: arguments
 *
 * Returns the keywords, in the order first set.
 *
 * Returns: (transfer full) (array zero-terminated=1): the keywords, in the order first set
 */
char **
gnn_args_get_kwarg_names (GnnArgs *self)
{
  char **names;

  g_return_val_if_fail (GNN_IS_ARGS (self), NULL);
  names = g_new0 (char *, self->kwargs->len + 1);
  for (guint i = 0; i < self->kwargs->len; i++)
    names[i] = g_strdup (((Kwarg *) self->kwargs->pdata[i])->name);
  return names;
}

gboolean
gnn_args_has_any_kwarg (GnnArgs *self)
{
  return self->kwargs->len > 0;
}

GnnArgs *
gnn_args_copy_positional (GnnArgs *self)
{
  GnnArgs *copy = gnn_args_new ();

  for (guint i = 0; i < self->values->len; i++)
    gnn_args_add_value (copy, self->values->pdata[i]);
  return copy;
}

void
gnn_args_take_positional (GnnArgs *self,
                          GnnArgs *from)
{
  g_ptr_array_set_size (self->values, 0);
  for (guint i = 0; i < from->values->len; i++)
    gnn_args_add_value (self, from->values->pdata[i]);
}

GnnArgs *
gnn_args_take_tensor (GnnTensor *t)
{
  GnnArgs *args;

  if (t == NULL)
    return NULL;
  args = gnn_args_new_tensor (t);
  g_object_unref (t);
  return args;
}

GnnArgs *
gnn_args_take_tensor_or_prefix (GnnTensor  *t,
                                const char *name,
                                GError    **error)
{
  if (t == NULL)
    {
      g_prefix_error (error, "%s: ", name);
      return NULL;
    }
  return gnn_args_take_tensor (t);
}

GnnTensor *
gnn_args_first_tensor (GnnArgs    *input,
                       const char *name,
                       GError    **error)
{
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);

  if (x == NULL)
    g_prefix_error (error, "%s: ", name);
  return x;
}
