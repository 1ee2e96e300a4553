/* gnn-props-private.h: properties described by a table of fields
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A class describes each of its properties once, as a GnnProp: the pspec, where the value
 * lives in the instance (G_STRUCT_OFFSET, or G_PRIVATE_OFFSET for a member of the private
 * struct), and optionally a check and accessors. It keeps the table as
 *
 *   enum { PROP_0, PROP_IN_FEATURES, ..., N_PROPS };
 *   static GnnProp props[N_PROPS];
 *
 * fills it in class_init and hands it to gnn_props_install (), which installs the pspecs
 * (prop id = index) and makes the class's get_property and set_property the generic ones:
 *
 * - reading copies the member into the GValue (or calls the `get` accessor);
 * - writing keeps STYLE.md's rule: nothing happens when the value is unchanged; otherwise
 *   the member is written and, unless the property is construct-only, notify is emitted
 *   (freeze, write, g_object_notify_by_pspec, thaw, as libadwaita's adw_toast_set_title).
 *   Strings, variants, objects and boxed values are owned copies; setting a string to %NULL
 *   stores the pspec's default. A `set` accessor replaces all of it (it keeps the rule
 *   itself).
 * - a `check` refuses a value with a GError instead of a pspec range that only warns: the
 *   pspec takes any value of its type, gnn_props_check () runs the checks where an object
 *   is completed (a module's setup, a scheduler's or optimizer's GInitable init), and
 *   loaders (the module JSON) run gnn_prop_check_value () on what they read.
 * - gnn_props_clear () frees the owned members; the base classes call it in finalize.
 *
 * Values are stored in members of their C type: gboolean, int, guint, gint64, guint64, double, an
 * enum (int-sized), guint (flags), char *, GVariant *, a GObject pointer or a boxed pointer.
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* The flags of every read-write property: add G_PARAM_CONSTRUCT or G_PARAM_CONSTRUCT_ONLY. */
#define GNN_PARAM_RW (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY)

typedef struct _GnnProp GnnProp;

/* Refuses @value for @pspec with a GError; the message names the property as PyTorch names
 * the argument (gnn_prop_python_name). */
typedef gboolean (*GnnPropCheck) (GParamSpec   *pspec,
                                  const GValue *value,
                                  GError      **error);
typedef void     (*GnnPropGet)   (GObject      *object,
                                  GParamSpec   *pspec,
                                  GValue       *value);
typedef void     (*GnnPropSet)   (GObject      *object,
                                  GParamSpec   *pspec,
                                  const GValue *value);

typedef enum {
  GNN_PROP_KIND_ACCESSORS,   /* no member: `get` and `set` do everything */
  GNN_PROP_KIND_BOOLEAN,
  GNN_PROP_KIND_INT,
  GNN_PROP_KIND_UINT,
  GNN_PROP_KIND_INT64,
  GNN_PROP_KIND_UINT64,
  GNN_PROP_KIND_DOUBLE,
  GNN_PROP_KIND_ENUM,
  GNN_PROP_KIND_FLAGS,
  GNN_PROP_KIND_STRING,
  GNN_PROP_KIND_VARIANT,
  GNN_PROP_KIND_OBJECT,
  GNN_PROP_KIND_BOXED,
} GnnPropKind;

/* Where a property without a member says so (then `get` is required, and `set` when the
 * property is writable). */
#define GNN_PROP_NO_MEMBER G_MINSSIZE

struct _GnnProp
{
  GParamSpec  *pspec;
  gssize       offset;   /* of the member in the instance, or GNN_PROP_NO_MEMBER */
  GnnPropCheck check;    /* NULL: every value of the pspec's type */
  GnnPropGet   get;      /* NULL: read the member */
  GnnPropSet   set;      /* NULL: write the member, keeping the rule */
  GnnPropKind  kind;     /* set by gnn_props_install from the pspec's type */
};

/* Installs props[1 .. n_props - 1] (props[0] is PROP_0, unused) with their index as id;
 * entries without a pspec are skipped (classes sharing one enum). */
void         gnn_props_install       (GObjectClass  *klass,
                                      GnnProp       *props,
                                      guint          n_props);
void         gnn_props_get_property  (GObject       *object,
                                      guint          prop_id,
                                      GValue        *value,
                                      GParamSpec    *pspec);
void         gnn_props_set_property  (GObject       *object,
                                      guint          prop_id,
                                      const GValue  *value,
                                      GParamSpec    *pspec);
/* Sets @prop from one value of its type that follows (as g_object_set reads it), keeping
 * the rule: the body of a public setter. */
void         gnn_prop_set            (gpointer       object,
                                      const GnnProp *prop,
                                      ...);
/* Runs the check of every property of @object's class and its ancestors that has one, on
 * the current values, base classes first; FALSE with the first error. */
gboolean     gnn_props_check         (gpointer       object,
                                      GError       **error);
/* The check of @pspec's property on @value; TRUE when it has none (or is no GnnProp). */
gboolean     gnn_prop_check_value    (GParamSpec    *pspec,
                                      const GValue  *value,
                                      GError       **error);
/* Frees the strings, variants, objects and boxed values of @object's members. */
void         gnn_props_clear         (gpointer       object);
/* "in_features" for "in-features" (a new string). */
char        *gnn_prop_python_name    (GParamSpec    *pspec);

/* A double property that takes every double, NaN and the infinities too (a checked
 * hyperparameter: PyTorch's "Invalid learning rate: nan" rather than GLib's warning). */
GParamSpec  *gnn_param_spec_double   (const char    *name,
                                      double         default_value,
                                      GParamFlags    flags);
/* A property holding sizes, a #GVariant "ax" (%NULL by default). */
GParamSpec  *gnn_param_spec_int64s   (const char    *name,
                                      GParamFlags    flags);
/* A property holding numbers, a #GVariant "ad" (one value or one per parameter group);
 * @default_value may be %NULL, and a floating reference is sunk. */
GParamSpec  *gnn_param_spec_doubles  (const char    *name,
                                      GVariant      *default_value,
                                      GParamFlags    flags);

/* accessors shared by the classes */
/* reads an "ax" variant member, the empty array when it is %NULL */
void         gnn_prop_get_int64s_or_empty (GObject    *object,
                                           GParamSpec *pspec,
                                           GValue     *value);
/* the elements of an "ax" variant; %NULL and 0 for %NULL */
const gint64 *gnn_prop_int64s        (GVariant      *v,
                                      gsize         *n);
/* the elements of an "ad" variant; %NULL and 0 for %NULL */
const double *gnn_prop_doubles       (GVariant      *v,
                                      gsize         *n);
/* @values as an "ad" variant (floating) */
GVariant    *gnn_prop_new_doubles    (const double  *values,
                                      gsize          n);

/* checks shared by the classes */
/* a size (int or int64) >= 0, else GNN_ERROR_SHAPE as PyTorch's tensor factories say it:
 * "Trying to create tensor with negative dimension: in_features=-1" */
gboolean     gnn_prop_check_size     (GParamSpec    *pspec,
                                      const GValue  *value,
                                      GError       **error);
/* a number (int, int64 or double) >= 0: "beta must be non-negative, got -1.0" */
gboolean     gnn_prop_check_non_negative (GParamSpec   *pspec,
                                          const GValue *value,
                                          GError      **error);
/* a number > 0: "delta must be positive, got 0.0" */
gboolean     gnn_prop_check_positive (GParamSpec    *pspec,
                                      const GValue  *value,
                                      GError       **error);

G_END_DECLS
