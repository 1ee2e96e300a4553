/* gnn-lr-scheduler-private.h: what gnn's own schedulers share with the base class
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gnn-optim-private.h"
#include "nn/gnn-props-private.h"

G_BEGIN_DECLS

/* Hooks only gnn's own classes set, kept in the class's private data so that bindings do
 * not see them as virtual methods. Subclasses inherit their parent's. */
typedef struct {
  /* validates the subclass's arguments and prepares the groups (OneCycleLR's max_lr,
   * SWALR's swa_lr), before the base class reads `initial_lr` */
  gboolean (*prepare)          (GnnLRScheduler *self,
                                GError        **error);
  /* replaces the whole construction (SequentialLR) */
  gboolean (*init)             (GnnLRScheduler *self,
                                GError        **error);
  /* the optimizer when none was given (ChainedScheduler: that of its schedulers), or
   * NULL; called at initialisation, before the optimizer is checked */
  GnnOptimizer *(*default_optimizer) (GnnLRScheduler *self);
  /* get_lr as plain doubles, one per group (the base class's get_lr calls it) */
  double  *(*get_lr)           (GnnLRScheduler *self,
                                guint          *n_lrs,
                                GError        **error);
  /* replaces step () (SequentialLR) */
  gboolean (*step)             (GnnLRScheduler *self,
                                GError        **error);
  /* the closed form (`_get_closed_form_lr`), used by a step to a given epoch */
  double  *(*closed_form_lr)   (GnnLRScheduler *self,
                                guint          *n_lrs,
                                GError        **error);
  /* the hyperparameters the base class saves and loads for the subclass: pairs of a
   * property name (an int or a double) and PyTorch's key, ended by
   * NULL, such as { "t-max", "T_max", "eta-min", "eta_min", NULL }; a loaded value passes
   * the property's check (gnn-props-private.h) before it is set */
  const char * const *state_props;
} GnnLRSchedulerHooks;

GnnLRSchedulerHooks *gnn_lr_scheduler_class_get_hooks (GnnLRSchedulerClass *klass);

/* ---- properties (gnn-props-private.h) ---------------------------------------------- */

/* a hyperparameter PyTorch lets users change: read-write, set at construction */
#define GNN_LR_HYPERPARAMETER (GNN_PARAM_RW | G_PARAM_CONSTRUCT)
/* an argument of the constructor, which only the construction reads */
#define GNN_LR_ARGUMENT (GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY)

/* an int or a double property stored at @offset of the instance */
GnnProp  gnn_lr_prop_int                  (const char      *name,
                                           int              default_value,
                                           GParamFlags      flags,
                                           gssize           offset,
                                           GnnPropCheck     check);
GnnProp  gnn_lr_prop_double               (const char      *name,
                                           double           default_value,
                                           GParamFlags      flags,
                                           gssize           offset);

/* PyTorch's "Expected positive integer step_size, but got 0" unless @value > 0 */
gboolean gnn_lr_check_positive            (const char      *name,
                                           gint64           value,
                                           GError         **error);
/* the same, as the check of an int property */
gboolean gnn_lr_check_positive_int        (GParamSpec      *pspec,
                                           const GValue    *value,
                                           GError         **error);
/* the check of a milestones property ('ax'): epochs in the range of an int */
gboolean gnn_lr_check_milestones          (GParamSpec      *pspec,
                                           const GValue    *value,
                                           GError         **error);
/* @values as a milestones value, an 'ax' (floating) */
GVariant *gnn_lr_milestones_new           (const int       *values,
                                           guint            n_values);
/* a milestones value as ints, sorted when @sorted; NULL and 0 for none */
int     *gnn_lr_milestones_get            (GVariant        *milestones,
                                           gboolean         sorted,
                                           guint           *n_values);

/* `_initial_step`: resets the step count and steps once in the initial mode */
gboolean gnn_lr_scheduler_initial_step    (GnnLRScheduler  *self,
                                           GError         **error);
/* `_update_lr (epoch)` (step (epoch) of PyTorch 1.13 without the step count): sets
 * last_epoch to @epoch and applies the closed form, or get_lr where there is none */
gboolean gnn_lr_scheduler_update_lr_to    (GnnLRScheduler  *self,
                                           int              epoch,
                                           GError         **error);
/* the base construction: `initial_lr` and base_lrs; with @initial_step, the initial step */
gboolean gnn_lr_scheduler_init_base       (GnnLRScheduler  *self,
                                           gboolean         initial_step,
                                           GError         **error);
void     gnn_lr_scheduler_set_last_lr     (GnnLRScheduler  *self,
                                           const double    *lrs,
                                           guint            n_lrs);
void     gnn_lr_scheduler_set_step_count  (GnnLRScheduler  *self,
                                           int              step_count);
guint    gnn_lr_scheduler_n_groups        (GnnLRScheduler  *self);
/* the name PyTorch gives the class: the type name without "Gnn" */
const char *gnn_lr_scheduler_type_name    (gpointer         self);
/* the current lr of every group in @lrs (n_groups of them); FALSE with @error when a
 * group lacks a numeric option @name */
gboolean gnn_lr_scheduler_read_groups     (GnnLRScheduler  *self,
                                           const char      *name,
                                           double          *values,
                                           GError         **error);
/* one value or one per group (`_format_param`); PyTorch's error otherwise */
gboolean gnn_lr_scheduler_format_param    (GnnLRScheduler  *self,
                                           const char      *name,
                                           const double    *values,
                                           guint            n_values,
                                           double         **out,
                                           GError         **error);

/* the current lr of every group (n_groups values) */
double  *gnn_lr_scheduler_current_lrs     (GnnLRScheduler  *self,
                                           guint           *n_lrs,
                                           GError         **error);
/* the base lrs (a new array, never NULL: one element at least) */
double  *gnn_lr_scheduler_base_lrs_or_empty (GnnLRScheduler *self,
                                             guint          *n_lrs);
/* multiplies the @n_lrs values of @lrs by @factor; returns @lrs (NULL for NULL) */
double  *gnn_lr_scale                     (double          *lrs,
                                           guint            n_lrs,
                                           double           factor);
/* gnn_lr_scheduler_format_param of an 'ad' property value */
gboolean gnn_lr_scheduler_format_doubles  (GnnLRScheduler  *self,
                                           const char      *name,
                                           GVariant        *values,
                                           double         **out,
                                           GError         **error);
/* Whether cycling the momentum drives the first of the `betas` (the optimizer has a
 * `betas` default, Adam) rather than `momentum`; PyTorch's error when it has neither. */
gboolean gnn_lr_scheduler_momentum_kind   (GnnLRScheduler  *self,
                                           gboolean        *use_beta1,
                                           GError         **error);
/* the momentum (or the first beta) of every group into @values (n_groups of them) */
gboolean gnn_lr_scheduler_read_momentums  (GnnLRScheduler  *self,
                                           gboolean         use_beta1,
                                           double          *values,
                                           GError         **error);
/* sets the momentum (or the first beta, keeping the others) of every group to @values;
 * all or nothing */
gboolean gnn_lr_scheduler_write_momentums (GnnLRScheduler  *self,
                                           gboolean         use_beta1,
                                           const double    *values,
                                           GError         **error);
/* a closure property's setter: takes a reference to @closure (sinking a floating one) into
 * *@slot, and gives a closure without a marshaller g_cclosure_marshal_generic () */
void     gnn_lr_closure_set               (GClosure       **slot,
                                           GClosure        *closure);
/* FALSE with @error set unless the scheduler was initialised without error */
gboolean gnn_lr_scheduler_ensure_ready    (GnnLRScheduler  *self,
                                           GError         **error);
/* replaces the base lrs (CyclicLR's base_lr, after its initial step) */
void     gnn_lr_scheduler_set_base_lrs    (GnnLRScheduler  *self,
                                           const double    *lrs,
                                           guint            n_lrs);

/* an integer of any integer type (inside variants too) */
gboolean gnn_lr_variant_get_integer       (GVariant        *v,
                                           gint64          *out);
/* reading a loaded state: absent entries leave *out alone; a wrong type is an error */
gboolean gnn_lr_state_get_int             (GVariantDict    *state,
                                           const char      *key,
                                           gint64          *out,
                                           GError         **error);
/* an integer in the range of an int */
gboolean gnn_lr_state_get_int32           (GVariantDict    *state,
                                           const char      *key,
                                           int             *out,
                                           GError         **error);
gboolean gnn_lr_state_get_double          (GVariantDict    *state,
                                           const char      *key,
                                           double          *out,
                                           GError         **error);
gboolean gnn_lr_state_get_boolean         (GVariantDict    *state,
                                           const char      *key,
                                           gboolean        *out,
                                           GError         **error);
/* a string among @allowed (NULL-terminated), copied into *out (freed first) */
gboolean gnn_lr_state_get_string          (GVariantDict    *state,
                                           const char      *key,
                                           const char     **allowed,
                                           char           **out,
                                           GError         **error);
/* such a list of one number per parameter group: absent leaves *out (NULL) alone */
gboolean gnn_lr_state_get_group_doubles   (GnnLRScheduler  *self,
                                           GVariantDict    *state,
                                           const char      *key,
                                           double         **out,
                                           GError         **error);
/* a list of numbers ("ad", "ax", "ai", or "av" of numbers): a new array in *out, its
 * length in *n_out; *out is NULL when the entry is absent */
gboolean gnn_lr_state_get_doubles         (GVariantDict    *state,
                                           const char      *key,
                                           double         **out,
                                           guint           *n_out,
                                           GError         **error);

G_END_DECLS
