/* gnn-optim-util.c: what the optimizers share: option checks, parameter state, the
 * gradient as the update sees it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-optim-private.h"
#include "core/gnn-tensor-private.h"
#include "nn/gnn-module-private.h"

/* ---- checking options --------------------------------------------------------------- */

static gboolean
option_error (GnnParamGroup *group,
              const char    *name,
              const char    *expected,
              GError       **error)
{
  g_autoptr(GVariant) v = gnn_param_group_get_option (group, name);

  if (v == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "parameter group didn't specify a value of required optimization parameter %s", name);
  else
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "option \"%s\" of the parameter group: expected %s, found a GVariant of type '%s'",
                 name, expected, g_variant_get_type_string (v));
  return FALSE;
}

static gboolean
is_number (GVariant *v)
{
  return g_variant_is_of_type (v, G_VARIANT_TYPE_DOUBLE) ||
         g_variant_is_of_type (v, G_VARIANT_TYPE_INT64) ||
         g_variant_is_of_type (v, G_VARIANT_TYPE_INT32) ||
         g_variant_is_of_type (v, G_VARIANT_TYPE_BOOLEAN);
}

gboolean
gnn_optim_check_number (GnnParamGroup *group,
                        const char    *name,
                        GError       **error)
{
  g_autoptr(GVariant) v = gnn_param_group_get_option (group, name);

  if (v != NULL && is_number (v))
    return TRUE;
  return option_error (group, name, "a number (a GVariant of type 'd')", error);
}

gboolean
gnn_optim_check_flag (GnnParamGroup *group,
                      const char    *name,
                      GError       **error)
{
  g_autoptr(GVariant) v = gnn_param_group_get_option (group, name);

  if (v != NULL && is_number (v))
    return TRUE;
  return option_error (group, name, "a flag (a GVariant of type 'b')", error);
}

gboolean
gnn_optim_check_pair (GnnParamGroup *group,
                      const char    *name,
                      GError       **error)
{
  g_autoptr(GVariant) v = gnn_param_group_get_option (group, name);

  if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE ("(dd)")))
    return TRUE;
  return option_error (group, name, "a pair of numbers (a GVariant of type '(dd)')", error);
}

gboolean
gnn_optim_check_betas (GnnParamGroup *group,
                       GError       **error)
{
  return gnn_optim_check_pair (group, "betas", error);
}

void
gnn_optim_get_pair (GnnParamGroup *group,
                    const char    *name,
                    double        *first,
                    double        *second)
{
  g_autoptr(GVariant) v = gnn_param_group_get_option (group, name);

  *first = *second = 0;
  if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE ("(dd)")))
    g_variant_get (v, "(dd)", first, second);
}

gboolean
gnn_optim_check_adam_values (double   lr,
                             double   beta1,
                             double   beta2,
                             double   eps,
                             double   weight_decay,
                             GError **error)
{
  if (!(0.0 <= lr))
    return gnn_optim_invalid (error, "Invalid learning rate", lr);
  if (!(0.0 <= eps))
    return gnn_optim_invalid (error, "Invalid epsilon value", eps);
  if (!(0.0 <= beta1 && beta1 < 1.0))
    return gnn_optim_invalid (error, "Invalid beta parameter at index 0", beta1);
  if (!(0.0 <= beta2 && beta2 < 1.0))
    return gnn_optim_invalid (error, "Invalid beta parameter at index 1", beta2);
  if (!(0.0 <= weight_decay))
    return gnn_optim_invalid (error, "Invalid weight_decay value", weight_decay);
  return TRUE;
}

gboolean
gnn_optim_invalid (GError    **error,
                   const char *what,
                   double      value)
{
  g_autofree char *repr = gnn_python_float_repr (value);

  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: %s", what, repr);
  return FALSE;
}

#define OPTION_FLAGS (GNN_PARAM_RW | G_PARAM_CONSTRUCT)

GnnProp
gnn_optim_option_double (const char *name,
                         double      default_value)
{
  return (GnnProp) { gnn_param_spec_double (name, default_value, OPTION_FLAGS) };
}

GnnProp
gnn_optim_option_boolean (const char *name,
                          gboolean    default_value)
{
  return (GnnProp) { g_param_spec_boolean (name, NULL, NULL, default_value, OPTION_FLAGS) };
}

GnnProp
gnn_optim_option_pair (const char *name,
                       double      first,
                       double      second)
{
  return gnn_optim_option_variant (name, G_VARIANT_TYPE ("(dd)"), g_variant_new ("(dd)", first, second));
}

GnnProp
gnn_optim_option_variant (const char         *name,
                          const GVariantType *type,
                          GVariant           *default_value)
{
  return (GnnProp) { g_param_spec_variant (name, NULL, NULL, type, default_value, OPTION_FLAGS) };
}

GnnProp
gnn_optim_option_betas (double beta1,
                        double beta2)
{
  return gnn_optim_option_pair ("betas", beta1, beta2);
}

/* ---- the state of a parameter ------------------------------------------------------- */

double
gnn_optim_get_step (GnnStateDict *state)
{
  return gnn_optim_get_number (state, "step", 0);
}

double
gnn_optim_get_number (GnnStateDict *state,
                      const char   *key,
                      double        missing)
{
  g_auto(GValue) value = G_VALUE_INIT;

  if (!gnn_state_dict_get_value (state, key, &value, NULL))
    return missing;
  if (G_VALUE_HOLDS_DOUBLE (&value))
    return g_value_get_double (&value);
  if (G_VALUE_HOLDS_INT64 (&value))
    return (double) g_value_get_int64 (&value);
  if (G_VALUE_HOLDS_INT (&value))
    return g_value_get_int (&value);
  if (G_VALUE_HOLDS_FLOAT (&value))
    return g_value_get_float (&value);
  if (G_VALUE_HOLDS (&value, GNN_TYPE_TENSOR) && g_value_get_object (&value) != NULL)
    {
      GnnTensor *t = g_value_get_object (&value);

      if (gnn_tensor_get_numel (t) == 1)
        return gnn_tensor_item (t, NULL);
    }
  if (G_VALUE_HOLDS_VARIANT (&value) && g_value_get_variant (&value) != NULL)
    {
      GVariant *v = g_value_get_variant (&value);

      if (g_variant_is_of_type (v, G_VARIANT_TYPE_DOUBLE))
        return g_variant_get_double (v);
      if (g_variant_is_of_type (v, G_VARIANT_TYPE_INT64))
        return (double) g_variant_get_int64 (v);
    }
  return missing;
}

void
gnn_optim_set_step (GnnStateDict *state,
                    double        step)
{
  gnn_optim_set_number (state, "step", step);
}

void
gnn_optim_set_number (GnnStateDict *state,
                      const char   *key,
                      double        value)
{
  GValue v = G_VALUE_INIT;

  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, value);
  gnn_state_dict_set_value (state, key, &v);
}

GnnStateDict *
gnn_optim_param_state (GnnOptimizer *optimizer,
                       GnnTensor    *param)
{
  GnnStateDict *state = gnn_optimizer_get_state (optimizer, param);

  if (gnn_state_dict_get_length (state) == 0)
    gnn_optim_set_step (state, 0);
  return state;
}

double
gnn_optim_count_step (GnnStateDict *state)
{
  double step = gnn_optim_get_step (state) + 1;

  gnn_optim_set_step (state, step);
  return step;
}

GnnTensor *
gnn_optim_state_tensor (GnnStateDict *state,
                        const char   *key)
{
  /* one lookup; an absent key sets no error when none is asked for */
  return gnn_state_dict_get_tensor (state, key, NULL);
}

GnnTensor *
gnn_optim_state_new_full (GnnStateDict *state,
                          const char   *key,
                          GnnTensor    *param,
                          double        value,
                          GError      **error)
{
  g_autoptr(GnnTensor) t = NULL;
  GnnTensorPrivate *p = gnn_tensor_priv (param);

  t = gnn_tensor_new_like (param, p->dtype, p->ndim, p->shape, error);
  if (t == NULL || !gnn_tensor_fill_ (t, value, error))
    return NULL;
  gnn_state_dict_set_tensor (state, key, t);
  return t;   /* the state holds it */
}

GnnTensor *
gnn_optim_state_ensure (GnnStateDict *state,
                        const char   *key,
                        GnnTensor    *param,
                        double        value,
                        GError      **error)
{
  GnnTensor *t = gnn_optim_state_tensor (state, key);

  return t ? t : gnn_optim_state_new_full (state, key, param, value, error);
}

/* ---- the update ----------------------------------------------------------------------- */

GnnTensor *
gnn_optim_scalar (GnnOptimScalar *slot,
                  GnnTensor      *like,
                  double          value,
                  GError        **error)
{
  GnnTensorPrivate *lp = gnn_tensor_priv (like);
  /* as the *_scalar_ ops wrap a number for a floating-point tensor; an integer tensor gets a
   * float32 number, which the in-place ops refuse as PyTorch does */
  GnnDtype dtype = gnn_dtype_is_floating (lp->dtype) ? lp->dtype : GNN_DTYPE_FLOAT32;

  if (slot->tensor != NULL)
    {
      GnnTensorPrivate *sp = gnn_tensor_priv (slot->tensor);

      if (sp->dtype == dtype && sp->storage->entry == lp->storage->entry &&
          sp->storage->device == lp->storage->device)
        {
          /* compared as bits: -0.0 and NaN are refilled too */
          if (memcmp (&slot->value, &value, sizeof value) != 0)
            {
              if (!gnn_tensor_fill_ (slot->tensor, value, error))
                return NULL;
              slot->value = value;
            }
          return slot->tensor;
        }
      g_clear_object (&slot->tensor);
    }
  slot->tensor = gnn_tensor_new_like (like, dtype, 0, NULL, error);
  if (slot->tensor == NULL || !gnn_tensor_fill_ (slot->tensor, value, error))
    {
      g_clear_object (&slot->tensor);
      return NULL;
    }
  slot->value = value;
  return slot->tensor;
}

void
gnn_optim_scalars_clear (GnnOptimScalar *slots,
                         guint           n_slots)
{
  for (guint i = 0; i < n_slots; i++)
    g_clear_object (&slots[i].tensor);
}

static GQuark
scalars_quark (void)
{
  return g_quark_from_static_string ("gnn-optim-scalars");
}

/* the finalize of the classes given gnn_optim_class_set_scalars: their GnnOptimScalar
 * slots, then GnnOptimizer's */
static void
optim_scalars_finalize (GObject *object)
{
  gsize packed = GPOINTER_TO_SIZE (g_type_get_qdata (G_OBJECT_TYPE (object), scalars_quark ()));

  gnn_optim_scalars_clear (G_STRUCT_MEMBER_P (object, packed >> 8), packed & 0xff);
  G_OBJECT_CLASS (g_type_class_peek (GNN_TYPE_OPTIMIZER))->finalize (object);
}

void
gnn_optim_class_set_scalars (gpointer klass,
                             gsize    offset,
                             guint    n_scalars)
{
  GType type = G_TYPE_FROM_CLASS (klass);

  g_return_if_fail (g_type_parent (type) == GNN_TYPE_OPTIMIZER);
  g_return_if_fail (n_scalars > 0 && n_scalars < 0x100);
  g_type_set_qdata (type, scalars_quark (), GSIZE_TO_POINTER (offset << 8 | n_scalars));
  G_OBJECT_CLASS (klass)->finalize = optim_scalars_finalize;
}

GnnTensor *
gnn_optim_grad (GnnTensor *param,
                GnnTensor *grad,
                gboolean   maximize,
                double     weight_decay,
                gboolean  *owned,
                GError   **error)
{
  g_autoptr(GnnTensor) g = NULL;

  *owned = FALSE;
  if (maximize)
    {
      if (!(g = gnn_tensor_neg (grad, error)))
        return NULL;
      *owned = TRUE;
    }
  else
    g = g_object_ref (grad);
  if (weight_decay != 0)
    {
      GnnTensor *decayed = gnn_tensor_add (g, param, weight_decay, error);

      if (decayed == NULL)
        return NULL;
      g_object_unref (g);
      g = decayed;
      *owned = TRUE;
    }
  return g_steal_pointer (&g);
}
