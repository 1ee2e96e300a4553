/* gnn-props.c: properties described by a table of fields (see gnn-props-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>
#include <gobject/gvaluecollector.h>

#include "gnn-props-private.h"
#include "gnn-module-private.h"

/* the GnnProp of a pspec (qdata), and the table of a class (type qdata) */
static G_DEFINE_QUARK (gnn-prop, prop)

static G_DEFINE_QUARK (gnn-props-table, table)

typedef struct {
  GnnProp *props;
  guint n_props;
} PropsTable;

static GnnPropKind
kind_of (GParamSpec *pspec)
{
  switch (G_TYPE_FUNDAMENTAL (pspec->value_type))
    {
    case G_TYPE_BOOLEAN: return GNN_PROP_KIND_BOOLEAN;
    case G_TYPE_INT:     return GNN_PROP_KIND_INT;
    case G_TYPE_UINT:    return GNN_PROP_KIND_UINT;
    case G_TYPE_INT64:   return GNN_PROP_KIND_INT64;
    case G_TYPE_UINT64:  return GNN_PROP_KIND_UINT64;
    case G_TYPE_DOUBLE:  return GNN_PROP_KIND_DOUBLE;
    case G_TYPE_ENUM:    return GNN_PROP_KIND_ENUM;
    case G_TYPE_FLAGS:   return GNN_PROP_KIND_FLAGS;
    case G_TYPE_STRING:  return GNN_PROP_KIND_STRING;
    case G_TYPE_VARIANT: return GNN_PROP_KIND_VARIANT;
    case G_TYPE_OBJECT:
    case G_TYPE_INTERFACE: return GNN_PROP_KIND_OBJECT;
    case G_TYPE_BOXED:   return GNN_PROP_KIND_BOXED;
    default:
      g_error ("property %s of type %s cannot be a member", pspec->name, g_type_name (pspec->value_type));
    }
}

void
gnn_props_install (GObjectClass *klass,
                   GnnProp      *props,
                   guint         n_props)
{
  PropsTable *table = g_new (PropsTable, 1);

  klass->get_property = gnn_props_get_property;
  klass->set_property = gnn_props_set_property;
  for (guint i = 1; i < n_props; i++)
    {
      GnnProp *prop = &props[i];

      if (prop->pspec == NULL)
        continue;
      if (prop->offset == GNN_PROP_NO_MEMBER)
        {
          g_assert (prop->get != NULL && (prop->set != NULL || !(prop->pspec->flags & G_PARAM_WRITABLE)));
          prop->kind = GNN_PROP_KIND_ACCESSORS;
        }
      else
        prop->kind = kind_of (prop->pspec);
      g_param_spec_set_qdata (prop->pspec, prop_quark (), prop);
      g_object_class_install_property (klass, i, prop->pspec);
    }
  table->props = props;
  table->n_props = n_props;
  g_type_set_qdata (G_TYPE_FROM_CLASS (klass), table_quark (), table);
}

static const GnnProp *
prop_of (GParamSpec *pspec)
{
  return g_param_spec_get_qdata (pspec, prop_quark ());
}

static void
read_member (GObject       *object,
             const GnnProp *prop,
             GValue        *value)
{
  gpointer m = G_STRUCT_MEMBER_P (object, prop->offset);

  switch (prop->kind)
    {
    case GNN_PROP_KIND_BOOLEAN: g_value_set_boolean (value, *(gboolean *) m); break;
    case GNN_PROP_KIND_INT:     g_value_set_int (value, *(int *) m); break;
    case GNN_PROP_KIND_UINT:    g_value_set_uint (value, *(guint *) m); break;
    case GNN_PROP_KIND_INT64:   g_value_set_int64 (value, *(gint64 *) m); break;
    case GNN_PROP_KIND_UINT64:  g_value_set_uint64 (value, *(guint64 *) m); break;
    case GNN_PROP_KIND_DOUBLE:  g_value_set_double (value, *(double *) m); break;
    case GNN_PROP_KIND_ENUM:    g_value_set_enum (value, *(int *) m); break;
    case GNN_PROP_KIND_FLAGS:   g_value_set_flags (value, *(guint *) m); break;
    case GNN_PROP_KIND_STRING:  g_value_set_string (value, *(char **) m); break;
    case GNN_PROP_KIND_VARIANT: g_value_set_variant (value, *(GVariant **) m); break;
    case GNN_PROP_KIND_OBJECT:  g_value_set_object (value, *(GObject **) m); break;
    case GNN_PROP_KIND_BOXED:   g_value_set_boxed (value, *(gpointer *) m); break;
    case GNN_PROP_KIND_ACCESSORS:
    default:
      g_assert_not_reached ();
    }
}

static void
prop_read (GObject       *object,
           const GnnProp *prop,
           GValue        *value)
{
  if (prop->get)
    prop->get (object, prop->pspec, value);
  else
    read_member (object, prop, value);
}

/* Whether the member already holds @value (@owned for the pointer kinds). */
static gboolean
member_holds (const GnnProp *prop,
              gpointer       m,
              const GValue  *value,
              gconstpointer  owned)
{
  switch (prop->kind)
    {
    case GNN_PROP_KIND_BOOLEAN: return *(gboolean *) m == !!g_value_get_boolean (value);
    case GNN_PROP_KIND_INT:     return *(int *) m == g_value_get_int (value);
    case GNN_PROP_KIND_UINT:    return *(guint *) m == g_value_get_uint (value);
    case GNN_PROP_KIND_INT64:   return *(gint64 *) m == g_value_get_int64 (value);
    case GNN_PROP_KIND_UINT64:  return *(guint64 *) m == g_value_get_uint64 (value);
    case GNN_PROP_KIND_DOUBLE:  return *(double *) m == g_value_get_double (value);
    case GNN_PROP_KIND_ENUM:    return *(int *) m == g_value_get_enum (value);
    case GNN_PROP_KIND_FLAGS:   return *(guint *) m == g_value_get_flags (value);
    case GNN_PROP_KIND_STRING:  return g_strcmp0 (*(char **) m, owned) == 0;
    case GNN_PROP_KIND_VARIANT:
      return *(GVariant **) m == owned ||
             (*(GVariant **) m != NULL && owned != NULL && g_variant_equal (*(GVariant **) m, owned));
    case GNN_PROP_KIND_OBJECT:
    case GNN_PROP_KIND_BOXED:   return *(gconstpointer *) m == owned;
    case GNN_PROP_KIND_ACCESSORS:
    default:
      g_assert_not_reached ();
    }
}

/* The pointer a string, variant, object or boxed member would hold after the set, as a new
 * reference or copy: the value's, or the pspec's default for a %NULL string. (A variant
 * pspec with a default refuses %NULL itself.) */
static gpointer
owned_copy (const GnnProp *prop,
            const GValue  *value)
{
  GParamSpec *pspec = prop->pspec;

  switch (prop->kind)
    {
    case GNN_PROP_KIND_STRING:
      if (g_value_get_string (value) == NULL)
        return g_strdup (G_PARAM_SPEC_STRING (pspec)->default_value);
      return g_value_dup_string (value);
    case GNN_PROP_KIND_VARIANT: return g_value_dup_variant (value);
    case GNN_PROP_KIND_OBJECT: return g_value_dup_object (value);
    case GNN_PROP_KIND_BOXED:  return g_value_dup_boxed (value);
    default:                   return NULL;
    }
}

static void
free_owned (const GnnProp *prop,
            gpointer       p)
{
  if (p == NULL)
    return;
  switch (prop->kind)
    {
    case GNN_PROP_KIND_STRING:  g_free (p); break;
    case GNN_PROP_KIND_VARIANT: g_variant_unref (p); break;
    case GNN_PROP_KIND_OBJECT:  g_object_unref (p); break;
    case GNN_PROP_KIND_BOXED:   g_boxed_free (prop->pspec->value_type, p); break;
    default: break;
    }
}

static gboolean
kind_is_owned (GnnPropKind kind)
{
  return kind == GNN_PROP_KIND_STRING || kind == GNN_PROP_KIND_VARIANT ||
         kind == GNN_PROP_KIND_OBJECT || kind == GNN_PROP_KIND_BOXED;
}

static void
write_member (const GnnProp *prop,
              gpointer       m,
              const GValue  *value,
              gpointer       owned)
{
  switch (prop->kind)
    {
    case GNN_PROP_KIND_BOOLEAN: *(gboolean *) m = !!g_value_get_boolean (value); break;
    case GNN_PROP_KIND_INT:     *(int *) m = g_value_get_int (value); break;
    case GNN_PROP_KIND_UINT:    *(guint *) m = g_value_get_uint (value); break;
    case GNN_PROP_KIND_INT64:   *(gint64 *) m = g_value_get_int64 (value); break;
    case GNN_PROP_KIND_UINT64:  *(guint64 *) m = g_value_get_uint64 (value); break;
    case GNN_PROP_KIND_DOUBLE:  *(double *) m = g_value_get_double (value); break;
    case GNN_PROP_KIND_ENUM:    *(int *) m = g_value_get_enum (value); break;
    case GNN_PROP_KIND_FLAGS:   *(guint *) m = g_value_get_flags (value); break;
    default:
      free_owned (prop, *(gpointer *) m);
      *(gpointer *) m = owned;
      break;
    }
}

static void
prop_write (GObject       *object,
            const GnnProp *prop,
            const GValue  *value)
{
  gpointer m, owned;
  gboolean construct_only;

  if (prop->set)
    {
      prop->set (object, prop->pspec, value);
      return;
    }
  m = G_STRUCT_MEMBER_P (object, prop->offset);
  owned = owned_copy (prop, value);
  if (member_holds (prop, m, value, owned))
    {
      free_owned (prop, owned);
      return;
    }
  construct_only = (prop->pspec->flags & G_PARAM_CONSTRUCT_ONLY) != 0;
  if (!construct_only)
    g_object_freeze_notify (object);
  write_member (prop, m, value, owned);
  if (!construct_only)
    {
      g_object_notify_by_pspec (object, prop->pspec);
      g_object_thaw_notify (object);
    }
}

void
gnn_props_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  const GnnProp *prop = prop_of (pspec);

  if (prop == NULL)
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  else
    prop_read (object, prop, value);
}

void
gnn_props_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  const GnnProp *prop = prop_of (pspec);

  if (prop == NULL)
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  else
    prop_write (object, prop, value);
}

void
gnn_prop_set (gpointer       object,
              const GnnProp *prop,
              ...)
{
  GValue value = G_VALUE_INIT;
  g_autofree char *error = NULL;
  va_list args;

  g_return_if_fail (G_IS_OBJECT (object));
  g_return_if_fail (prop != NULL && prop->pspec != NULL);
  va_start (args, prop);
  G_VALUE_COLLECT_INIT (&value, prop->pspec->value_type, args, 0, &error);
  va_end (args);
  if (error != NULL)
    {
      g_critical ("%s: %s", G_STRFUNC, error);
      return;
    }
  prop_write (object, prop, &value);
  g_value_unset (&value);
}

/* The tables of @type's ancestors and of itself, base first (a new array, borrowed). */
static GPtrArray *
tables_of (GType type)
{
  GPtrArray *tables = g_ptr_array_new ();

  for (GType t = type; t != 0; t = g_type_parent (t))
    {
      PropsTable *table = g_type_get_qdata (t, table_quark ());

      if (table)
        g_ptr_array_insert (tables, 0, table);
    }
  return tables;
}

gboolean
gnn_prop_check_value (GParamSpec   *pspec,
                      const GValue *value,
                      GError      **error)
{
  const GnnProp *prop = prop_of (pspec);

  return prop == NULL || prop->check == NULL || prop->check (pspec, value, error);
}

gboolean
gnn_props_check (gpointer  object,
                 GError  **error)
{
  g_autoptr(GPtrArray) tables = NULL;

  g_return_val_if_fail (G_IS_OBJECT (object), FALSE);
  tables = tables_of (G_OBJECT_TYPE (object));
  for (guint t = 0; t < tables->len; t++)
    {
      PropsTable *table = tables->pdata[t];

      for (guint i = 1; i < table->n_props; i++)
        {
          const GnnProp *prop = &table->props[i];
          g_auto(GValue) value = G_VALUE_INIT;

          if (prop->check == NULL)
            continue;
          g_value_init (&value, prop->pspec->value_type);
          prop_read (object, prop, &value);
          if (!prop->check (prop->pspec, &value, error))
            return FALSE;
        }
    }
  return TRUE;
}

void
gnn_props_clear (gpointer object)
{
  g_autoptr(GPtrArray) tables = NULL;

  g_return_if_fail (G_IS_OBJECT (object));
  tables = tables_of (G_OBJECT_TYPE (object));
  for (guint t = 0; t < tables->len; t++)
    {
      PropsTable *table = tables->pdata[t];

      for (guint i = 1; i < table->n_props; i++)
        {
          const GnnProp *prop = &table->props[i];

          if (kind_is_owned (prop->kind))
            {
              gpointer *m = G_STRUCT_MEMBER_P (object, prop->offset);

              free_owned (prop, g_steal_pointer (m));
            }
        }
    }
}

char *
gnn_prop_python_name (GParamSpec *pspec)
{
  return g_strdelimit (g_strdup (pspec->name), "-", '_');
}

/* ---- shared specs and accessors ------------------------------------------------------- */

/* a GParamSpecDouble whose validation takes every double: GLib's refuses NaN (a clamp
 * leaves it unequal to itself) with a warning, where PyTorch raises its own error */
static gboolean
double_any_validate (GParamSpec *pspec,
                     GValue     *value)
{
  return FALSE;
}

static void
double_any_class_init (GParamSpecClass *klass)
{
  klass->value_validate = double_any_validate;
}

static GType
double_any_get_type (void)
{
  static gsize type;

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_type_register_static_simple (G_TYPE_PARAM_DOUBLE,
                                                             g_intern_static_string ("GnnParamDouble"),
                                                             sizeof (GParamSpecClass),
                                                             (GClassInitFunc) double_any_class_init,
                                                             sizeof (GParamSpecDouble), NULL, 0));
  return type;
}

GParamSpec *
gnn_param_spec_double (const char  *name,
                       double       default_value,
                       GParamFlags  flags)
{
  GParamSpecDouble *dspec = g_param_spec_internal (double_any_get_type (), name, NULL, NULL, flags);

  dspec->minimum = -G_MAXDOUBLE;
  dspec->maximum = G_MAXDOUBLE;
  dspec->default_value = default_value;
  return G_PARAM_SPEC (dspec);
}

GParamSpec *
gnn_param_spec_int64s (const char  *name,
                       GParamFlags  flags)
{
  return g_param_spec_variant (name, NULL, NULL, G_VARIANT_TYPE ("ax"), NULL, flags);
}

GParamSpec *
gnn_param_spec_doubles (const char  *name,
                        GVariant    *default_value,
                        GParamFlags  flags)
{
  return g_param_spec_variant (name, NULL, NULL, G_VARIANT_TYPE ("ad"), default_value, flags);
}

void
gnn_prop_get_int64s_or_empty (GObject    *object,
                              GParamSpec *pspec,
                              GValue     *value)
{
  GVariant *v = *(GVariant **) G_STRUCT_MEMBER_P (object, prop_of (pspec)->offset);

  if (v == NULL)
    v = g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, NULL, 0, sizeof (gint64));
  g_value_set_variant (value, v);
}

const gint64 *
gnn_prop_int64s (GVariant *v,
                 gsize    *n)
{
  *n = 0;
  return v ? g_variant_get_fixed_array (v, n, sizeof (gint64)) : NULL;
}

const double *
gnn_prop_doubles (GVariant *v,
                  gsize    *n)
{
  *n = 0;
  return v ? g_variant_get_fixed_array (v, n, sizeof (double)) : NULL;
}

GVariant *
gnn_prop_new_doubles (const double *values,
                      gsize         n)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, values, n, sizeof (double));
}

/* ---- shared checks ------------------------------------------------------------------- */

/* a number property's value as a double, and as PyTorch prints it */
static double
number_of (const GValue *value,
           char        **repr)
{
  gint64 i;

  if (G_VALUE_HOLDS_DOUBLE (value))
    {
      double d = g_value_get_double (value);

      *repr = gnn_python_float_repr (d);
      return d;
    }
  i = G_VALUE_HOLDS_INT (value) ? g_value_get_int (value)
      : G_VALUE_HOLDS_UINT (value) ? (gint64) g_value_get_uint (value) : g_value_get_int64 (value);
  *repr = g_strdup_printf ("%" G_GINT64_FORMAT, i);
  return (double) i;
}

gboolean
gnn_prop_check_size (GParamSpec   *pspec,
                     const GValue *value,
                     GError      **error)
{
  g_autofree char *repr = NULL, *name = NULL;

  if (number_of (value, &repr) >= 0)
    return TRUE;
  name = gnn_prop_python_name (pspec);
  g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
               "Trying to create tensor with negative dimension: %s=%s", name, repr);
  return FALSE;
}

gboolean
gnn_prop_check_non_negative (GParamSpec   *pspec,
                             const GValue *value,
                             GError      **error)
{
  g_autofree char *repr = NULL, *name = NULL;

  if (number_of (value, &repr) >= 0)
    return TRUE;
  name = gnn_prop_python_name (pspec);
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s must be non-negative, got %s", name, repr);
  return FALSE;
}

gboolean
gnn_prop_check_positive (GParamSpec   *pspec,
                         const GValue *value,
                         GError      **error)
{
  g_autofree char *repr = NULL, *name = NULL;

  if (number_of (value, &repr) > 0)
    return TRUE;
  name = gnn_prop_python_name (pspec);
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s must be positive, got %s", name, repr);
  return FALSE;
}
