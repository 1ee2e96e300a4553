/* gnn-lbfgs.c: L-BFGS, as torch.optim.LBFGS
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-optim-private.h"
#include "core/gnn-tensor-private.h"

/**
 * GnnLBFGS:
 *
 * The L-BFGS algorithm (`torch.optim.LBFGS`), with PyTorch 1.13's semantics and defaults,
 * after minFunc: each [method@Gnn.LBFGS.step_closure] evaluates the objective through a
 * closure, which computes the loss and the gradients of the parameters, as often as the
 * iterations and the line search need, at most `max_iter` iterations and `max_eval`
 * evaluations. The direction comes from the two-loop recursion over the last
 * `history_size` pairs of gradient and parameter changes; the step is `lr` (the first time,
 * `min (1, 1 / sum |g|) * lr`), or the one a strong-Wolfe line search finds when
 * `line_search_fn` is "strong_wolfe". It stops early when the largest gradient element is
 * at most `tolerance_grad`, or the step or the change of the loss falls below
 * `tolerance_change`.
 *
 * It steps one parameter group, as PyTorch's (a step with more fails). Its options are the doubles `lr`,
 * `max_iter`, `max_eval`, `tolerance_grad`, `tolerance_change` and `history_size` and
 * `line_search_fn`, a #GVariant of type `ms` (nothing, or "strong_wolfe"). Its state, kept
 * on the first parameter as PyTorch keeps it, is `func_evals`, `n_iter`, `d`, `t`,
 * `old_dirs`, `old_stps`, `ro`, `H_diag`, `prev_flat_grad`, `prev_loss` and `al`; the
 * numbers are doubles, the lists of vectors PyTorch keeps are matrices here (one row a
 * vector), `ro` and `al` vectors.
 *
 * [method@Gnn.Optimizer.step] cannot evaluate anything and fails; use
 * [method@Gnn.LBFGS.step_closure].
 *
 * Since: 0.1
 */
struct _GnnLBFGS
{
  GnnOptimizer parent_instance;
};

enum {
  PROP_0,
  PROP_LR,
  PROP_MAX_ITER,
  PROP_MAX_EVAL,
  PROP_TOLERANCE_GRAD,
  PROP_TOLERANCE_CHANGE,
  PROP_HISTORY_SIZE,
  PROP_LINE_SEARCH_FN,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnLBFGS, gnn_lbfgs, GNN_TYPE_OPTIMIZER)

/* the line search of the group, NULL for none (transfer full) */
static char *
line_search_of (GnnParamGroup *group)
{
  g_autoptr(GVariant) v = gnn_param_group_get_option (group, "line_search_fn");
  g_autoptr(GVariant) inner = NULL;

  if (v == NULL)
    return NULL;
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_STRING))
    return g_variant_dup_string (v, NULL);
  if (!g_variant_is_of_type (v, G_VARIANT_TYPE ("ms")) || !(inner = g_variant_get_maybe (v)))
    return NULL;
  return g_variant_dup_string (inner, NULL);
}

static gboolean
gnn_lbfgs_check_group (GnnOptimizer  *optimizer,
                       GnnParamGroup *group,
                       GError       **error)
{
  g_autoptr(GVariant) v = NULL;

  if (!gnn_optim_check_number (group, "lr", error) ||
      !gnn_optim_check_number (group, "max_iter", error) ||
      !gnn_optim_check_number (group, "max_eval", error) ||
      !gnn_optim_check_number (group, "tolerance_grad", error) ||
      !gnn_optim_check_number (group, "tolerance_change", error) ||
      !gnn_optim_check_number (group, "history_size", error))
    return FALSE;
  v = gnn_param_group_get_option (group, "line_search_fn");
  if (v != NULL && !g_variant_is_of_type (v, G_VARIANT_TYPE ("ms")) &&
      !g_variant_is_of_type (v, G_VARIANT_TYPE_STRING))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "option \"line_search_fn\" of the parameter group: expected nothing or a string "
                   "(a GVariant of type 'ms'), found a GVariant of type '%s'", g_variant_get_type_string (v));
      return FALSE;
    }
  return TRUE;
}

static gboolean
gnn_lbfgs_step (GnnOptimizer *optimizer,
                GError      **error)
{
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "LBFGS.step needs a closure that reevaluates the model and returns the loss "
                       "(gnn_lbfgs_step_closure)");
  return FALSE;
}

/* ---- the flat vectors of the parameters ---------------------------------------------- */

typedef struct {
  GnnLBFGSClosure closure;
  gpointer user_data;
  GnnParamGroup *group;
  GnnDtype dtype;
} Problem;

/* a number as PyTorch's 0-d tensor of the parameters' dtype holds it */
static double
as_dtype (Problem *pb,
          double   x)
{
  return pb->dtype == GNN_DTYPE_FLOAT32 ? (double) (float) x : x;
}

/* torch.cat of the gradients as vectors, zeros for a parameter without one (a new tensor) */
static GnnTensor *
gather_flat_grad (Problem *pb,
                  GError **error)
{
  guint n = gnn_param_group_get_n_params (pb->group);
  g_autoptr(GPtrArray) views = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n; i++)
    {
      GnnTensor *p = gnn_param_group_get_param (pb->group, i);
      GnnTensor *grad = gnn_tensor_get_grad (p);
      gint64 numel = gnn_tensor_get_numel (p);
      GnnTensor *view;

      if (grad != NULL)
        view = gnn_tensor_reshape (grad, &numel, 1, error);
      else if ((view = gnn_tensor_new_like (p, gnn_tensor_get_dtype (p), 1, &numel, error)) &&
               !gnn_tensor_zero_ (view, error))
        g_clear_object (&view);
      if (view == NULL)
        return NULL;
      g_ptr_array_add (views, view);
    }
  return gnn_cat ((GnnTensor **) views->pdata, views->len, 0, error);
}

/* p.add_(update[offset:offset + numel].view_as(p), alpha=step_size) for each parameter */
static gboolean
add_grad (Problem   *pb,
          double     step_size,
          GnnTensor *update,
          GError   **error)
{
  guint n = gnn_param_group_get_n_params (pb->group);
  gint64 offset = 0;

  for (guint i = 0; i < n; i++)
    {
      GnnTensor *p = gnn_param_group_get_param (pb->group, i);
      gint64 numel = gnn_tensor_get_numel (p);
      guint ndim = gnn_tensor_get_ndim (p);
      const gint64 *shape = gnn_tensor_get_shape (p, NULL);
      g_autoptr(GnnTensor) part = gnn_tensor_narrow (update, 0, offset, numel, error);
      g_autoptr(GnnTensor) view = part ? gnn_tensor_reshape (part, shape, ndim, error) : NULL;

      if (view == NULL || !gnn_tensor_add_ (p, view, step_size, error))
        return FALSE;
      offset += numel;
    }
  return TRUE;
}

static GPtrArray *
clone_params (Problem *pb,
              GError **error)
{
  guint n = gnn_param_group_get_n_params (pb->group);
  g_autoptr(GPtrArray) x = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n; i++)
    {
      GnnTensor *c = gnn_tensor_clone (gnn_param_group_get_param (pb->group, i), error);

      if (c == NULL)
        return NULL;
      g_ptr_array_add (x, c);
    }
  return g_steal_pointer (&x);
}

static gboolean
set_params (Problem   *pb,
            GPtrArray *x,
            GError   **error)
{
  for (guint i = 0; i < x->len; i++)
    if (!gnn_tensor_copy_ (gnn_param_group_get_param (pb->group, i), x->pdata[i], error))
      return FALSE;
  return TRUE;
}

/* the closure, with gradient recording on */
static gboolean
evaluate (Problem *pb,
          double  *loss,
          GError **error)
{
  gboolean was = gnn_set_grad_enabled (TRUE);
  gboolean ok = pb->closure (loss, pb->user_data);

  gnn_set_grad_enabled (was);
  if (!ok)
    g_set_error_literal (error, GNN_ERROR, GNN_ERROR_FAILED, "the closure of LBFGS.step failed");
  return ok;
}

/* _directional_evaluate: the loss and the gradient at x + t d, the parameters left at x */
static gboolean
directional_evaluate (Problem    *pb,
                      GPtrArray  *x,
                      double      t,
                      GnnTensor  *d,
                      double     *loss,
                      GnnTensor **flat_grad,
                      GError    **error)
{
  g_clear_object (flat_grad);
  return add_grad (pb, t, d, error) && evaluate (pb, loss, error) &&
         (*flat_grad = gather_flat_grad (pb, error)) != NULL && set_params (pb, x, error);
}

static gboolean
dot (GnnTensor *a,
     GnnTensor *b,
     double    *result,
     GError   **error)
{
  g_autoptr(GnnTensor) r = gnn_tensor_dot (a, b, error);

  if (r == NULL)
    return FALSE;
  *result = gnn_tensor_item (r, NULL);
  return TRUE;
}

/* max |v| */
static gboolean
abs_max (GnnTensor *v,
         double    *result,
         GError   **error)
{
  g_autoptr(GnnTensor) a = gnn_tensor_abs (v, error);
  g_autoptr(GnnTensor) m = a ? gnn_tensor_max_all (a, error) : NULL;

  if (m == NULL)
    return FALSE;
  *result = gnn_tensor_item (m, NULL);
  return TRUE;
}

/* ---- the strong-Wolfe line search (_strong_wolfe) ------------------------------------ */

static double
cubic_interpolate (double        x1,
                   double        f1,
                   double        g1,
                   double        x2,
                   double        f2,
                   double        g2,
                   const double *bounds)
{
  double xmin_bound, xmax_bound, d1, d2_square;

  if (bounds != NULL)
    {
      xmin_bound = bounds[0];
      xmax_bound = bounds[1];
    }
  else if (x1 <= x2)
    {
      xmin_bound = x1;
      xmax_bound = x2;
    }
  else
    {
      xmin_bound = x2;
      xmax_bound = x1;
    }
  d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2);
  d2_square = d1 * d1 - g1 * g2;
  if (d2_square >= 0)
    {
      double d2 = sqrt (d2_square), min_pos;

      if (x1 <= x2)
        min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2));
      else
        min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2));
      /* min(max(min_pos, xmin_bound), xmax_bound), as Python's min and max pick */
      min_pos = xmin_bound > min_pos ? xmin_bound : min_pos;
      return xmax_bound < min_pos ? xmax_bound : min_pos;
    }
  return (xmin_bound + xmax_bound) / 2.;
}

#define MAX_LS 25

static gboolean
strong_wolfe (Problem    *pb,
              GPtrArray  *x,
              double     *t_io,
              GnnTensor  *d,
              double      f,
              GnnTensor  *g,
              double      gtd,
              double      tolerance_change,
              double     *f_out,
              GnnTensor **g_out,
              int        *evals,
              GError    **error)
{
  const double c1 = 1e-4, c2 = 0.9;
  double t = *t_io, d_norm, f_new, gtd_new, t_prev = 0, f_prev = f, gtd_prev = gtd;
  g_autoptr(GnnTensor) g_new = NULL;
  g_autoptr(GnnTensor) g_prev = NULL;
  GnnTensor *bracket_g[2] = { NULL, NULL };
  double bracket[2], bracket_f[2], bracket_gtd[2] = { 0, 0 };
  guint n_bracket = 0;
  gboolean done = FALSE, insuf_progress = FALSE, ok = FALSE;
  int ls_iter = 0, low_pos, high_pos;

  if (!abs_max (d, &d_norm, error) || !(g_prev = gnn_tensor_clone (g, error)) ||
      !directional_evaluate (pb, x, t, d, &f_new, &g_new, error) || !dot (g_new, d, &gtd_new, error))
    return FALSE;
  *evals = 1;

  while (ls_iter < MAX_LS)
    {
      gboolean armijo_failed = f_new > (f + c1 * t * gtd) || (ls_iter > 1 && f_new >= f_prev);
      gboolean wolfe = fabs (gtd_new) <= -c2 * gtd;

      /* conditions 1 and 3 (in PyTorch's order: 1, then 2, then 3): a bracket [t_prev, t] */
      if (armijo_failed || (!wolfe && gtd_new >= 0))
        {
          bracket[0] = t_prev, bracket[1] = t;
          bracket_f[0] = f_prev, bracket_f[1] = f_new;
          bracket_g[0] = g_object_ref (g_prev);
          if (!(bracket_g[1] = gnn_tensor_clone (g_new, error)))
            goto out;
          bracket_gtd[0] = gtd_prev, bracket_gtd[1] = gtd_new;
          n_bracket = 2;
          break;
        }
      if (wolfe)
        {
          bracket[0] = t;
          bracket_f[0] = f_new;
          bracket_g[0] = g_object_ref (g_new);
          n_bracket = 1;
          done = TRUE;
          break;
        }
      {
        /* interpolate */
        double bounds[2] = { t + 0.01 * (t - t_prev), t * 10 };
        double tmp = t;

        t = cubic_interpolate (t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds);
        t_prev = tmp;
        f_prev = f_new;
        g_clear_object (&g_prev);
        if (!(g_prev = gnn_tensor_clone (g_new, error)))
          goto out;
        gtd_prev = gtd_new;
        if (!directional_evaluate (pb, x, t, d, &f_new, &g_new, error) || !dot (g_new, d, &gtd_new, error))
          goto out;
        (*evals)++;
        ls_iter++;
      }
    }

  /* reached the most iterations */
  if (ls_iter == MAX_LS)
    {
      g_clear_object (&bracket_g[0]);
      g_clear_object (&bracket_g[1]);
      bracket[0] = 0, bracket[1] = t;
      bracket_f[0] = f, bracket_f[1] = f_new;
      bracket_g[0] = g_object_ref (g);
      bracket_g[1] = g_object_ref (g_new);
      n_bracket = 2;
    }

  /* zoom: refine the bracket until a point satisfies the conditions */
  if (bracket_f[0] <= bracket_f[n_bracket - 1])
    low_pos = 0, high_pos = 1;
  else
    low_pos = 1, high_pos = 0;
  while (!done && ls_iter < MAX_LS)
    {
      double lo = MIN (bracket[0], bracket[1]), hi = MAX (bracket[0], bracket[1]), eps;

      /* line-search bracket is so small */
      if (fabs (bracket[1] - bracket[0]) * d_norm < tolerance_change)
        break;
      t = cubic_interpolate (bracket[0], bracket_f[0], bracket_gtd[0],
                             bracket[1], bracket_f[1], bracket_gtd[1], NULL);
      /* insufficient progress near a boundary: move away from it */
      eps = 0.1 * (hi - lo);
      if (MIN (hi - t, t - lo) < eps)
        {
          if (insuf_progress || t >= hi || t <= lo)
            {
              t = fabs (t - hi) < fabs (t - lo) ? hi - eps : lo + eps;
              insuf_progress = FALSE;
            }
          else
            insuf_progress = TRUE;
        }
      else
        insuf_progress = FALSE;

      if (!directional_evaluate (pb, x, t, d, &f_new, &g_new, error) || !dot (g_new, d, &gtd_new, error))
        goto out;
      (*evals)++;
      ls_iter++;

      if (f_new > (f + c1 * t * gtd) || f_new >= bracket_f[low_pos])
        {
          /* Armijo condition not satisfied or not lower than the lowest point */
          bracket[high_pos] = t;
          bracket_f[high_pos] = f_new;
          g_clear_object (&bracket_g[high_pos]);
          if (!(bracket_g[high_pos] = gnn_tensor_clone (g_new, error)))
            goto out;
          bracket_gtd[high_pos] = gtd_new;
          if (bracket_f[0] <= bracket_f[1])
            low_pos = 0, high_pos = 1;
          else
            low_pos = 1, high_pos = 0;
        }
      else
        {
          if (fabs (gtd_new) <= -c2 * gtd)
            done = TRUE;
          else if (gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0)
            {
              /* the old high becomes the new low */
              bracket[high_pos] = bracket[low_pos];
              bracket_f[high_pos] = bracket_f[low_pos];
              g_set_object (&bracket_g[high_pos], bracket_g[low_pos]);
              bracket_gtd[high_pos] = bracket_gtd[low_pos];
            }
          /* the new point becomes the new low */
          bracket[low_pos] = t;
          bracket_f[low_pos] = f_new;
          g_clear_object (&bracket_g[low_pos]);
          if (!(bracket_g[low_pos] = gnn_tensor_clone (g_new, error)))
            goto out;
          bracket_gtd[low_pos] = gtd_new;
        }
    }

  *t_io = bracket[low_pos];
  *f_out = bracket_f[low_pos];
  *g_out = g_object_ref (bracket_g[low_pos]);
  ok = TRUE;
out:
  g_clear_object (&bracket_g[0]);
  g_clear_object (&bracket_g[1]);
  return ok;
}

/* ---- the state ---------------------------------------------------------------------- */

/* the rows of a matrix of the state as vectors (new references), none when absent */
static gboolean
load_rows (GnnStateDict *state,
           const char   *key,
           GPtrArray    *rows,
           GError      **error)
{
  GnnTensor *m = gnn_optim_state_tensor (state, key);
  g_autoptr(GPtrArray) unbound = NULL;

  if (m == NULL || gnn_tensor_get_ndim (m) != 2 || gnn_tensor_get_shape (m, NULL)[0] == 0)
    return TRUE;
  if (!(unbound = gnn_tensor_unbind (m, 0, error)))
    return FALSE;
  for (guint i = 0; i < unbound->len; i++)
    g_ptr_array_add (rows, g_object_ref (unbound->pdata[i]));
  return TRUE;
}

/* @rows as one matrix under @key: (len, n), (0, n) when empty */
static gboolean
store_rows (GnnStateDict *state,
            const char   *key,
            GPtrArray    *rows,
            GnnTensor    *like,
            GError      **error)
{
  g_autoptr(GnnTensor) m = NULL;

  if (rows->len > 0)
    m = gnn_stack ((GnnTensor **) rows->pdata, rows->len, 0, error);
  else
    {
      gint64 shape[2] = { 0, gnn_tensor_get_numel (like) };

      m = gnn_tensor_new_like (like, gnn_tensor_get_dtype (like), 2, shape, error);
    }
  if (m == NULL)
    return FALSE;
  gnn_state_dict_set_tensor (state, key, m);
  return TRUE;
}

static gboolean
store_vector (GnnStateDict *state,
              const char   *key,
              const double *values,
              gint64        n,
              GnnTensor    *like,
              GError      **error)
{
  g_autoptr(GnnTensor) v = gnn_tensor_new_like (like, gnn_tensor_get_dtype (like), 1, &n, error);
  g_autoptr(GnnTensor) host = NULL;

  if (v == NULL)
    return FALSE;
  if (n > 0)
    {
      if (!(host = gnn_tensor_new_from_doubles (values, n, &n, 1, error)) ||
          !gnn_tensor_copy_ (v, host, error))
        return FALSE;
    }
  gnn_state_dict_set_tensor (state, key, v);
  return TRUE;
}

static GArray *
load_vector (GnnStateDict *state,
             const char   *key)
{
  GnnTensor *v = gnn_optim_state_tensor (state, key);
  GArray *a = g_array_new (FALSE, TRUE, sizeof (double));
  gsize n = 0;
  g_autofree double *data = NULL;

  if (v != NULL && gnn_tensor_get_numel (v) > 0 && (data = gnn_tensor_to_doubles (v, &n, NULL)))
    g_array_append_vals (a, data, n);
  return a;
}

/* ---- the step -------------------------------------------------------------------------- */

/**
 * GnnLBFGSClosure:
 * @loss: (out): return location for the loss
 * @user_data: the data given to [method@Gnn.LBFGS.step_closure]
 *
 * Reevaluates the model: zeroes the gradients, computes the loss, runs the backward pass
 * (PyTorch's closure), with gradient recording on. A closure that fails returns %FALSE
 * (and keeps its error in @user_data for its caller): the step then fails with
 * %GNN_ERROR_FAILED.
 *
 * Returns: %TRUE with @loss set, %FALSE when it failed
 *
 * Since: 0.1
 */

/**
 * gnn_lbfgs_step_closure:
 * @self: an L-BFGS optimizer
 * @closure: (scope call): reevaluates the model and returns the loss
 * @user_data: (closure closure): data for @closure
 * @loss: (out) (optional): return location for the loss of the first evaluation
 * @error: return location for a #GError
 *
 * One optimization step (`LBFGS.step (closure)`): up to `max_iter` iterations, @closure
 * called as often as they need. The parameters change with gradient recording off, the
 * closure runs with it on.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @closure fails (its error) or an
 *   operation does
 *
 * Since: 0.1
 */
gboolean
gnn_lbfgs_step_closure (GnnLBFGS        *self,
                        GnnLBFGSClosure  closure,
                        gpointer         user_data,
                        double          *loss_out,
                        GError         **error)
{
  GnnOptimizer *optimizer = GNN_OPTIMIZER (self);
  g_autoptr(GnnNoGradGuard) guard = NULL;
  GnnParamGroup *group;
  GnnTensor *first;
  GnnStateDict *state;
  Problem pb;
  double lr, max_iter, max_eval, tolerance_grad, tolerance_change, history_size;
  g_autofree char *line_search = NULL;
  double orig_loss, loss, grad_max, t, H_diag, prev_loss, func_evals, state_n_iter;
  int current_evals, n_iter = 0;
  g_autoptr(GnnTensor) flat_grad = NULL;
  g_autoptr(GnnTensor) d = NULL;
  g_autoptr(GnnTensor) prev_flat_grad = NULL;
  g_autoptr(GPtrArray) old_dirs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) old_stps = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) ro = NULL;
  g_autoptr(GArray) al = NULL;
  gboolean opt_cond, have_d, have_prev;

  g_return_val_if_fail (GNN_IS_LBFGS (self), FALSE);
  g_return_val_if_fail (closure != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (gnn_optimizer_get_n_param_groups (optimizer) != 1 ||
      gnn_param_group_get_n_params (group = gnn_optimizer_get_param_group (optimizer, 0)) == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "LBFGS doesn't support per-parameter options (parameter groups): its step "
                           "needs one parameter group with parameters");
      return FALSE;
    }
  guard = gnn_no_grad_guard_new ();
  first = gnn_param_group_get_param (group, 0);
  pb = (Problem) { closure, user_data, group, gnn_tensor_get_dtype (first) };
  lr = gnn_param_group_get_double (group, "lr");
  max_iter = gnn_param_group_get_double (group, "max_iter");
  max_eval = gnn_param_group_get_double (group, "max_eval");
  tolerance_grad = gnn_param_group_get_double (group, "tolerance_grad");
  tolerance_change = gnn_param_group_get_double (group, "tolerance_change");
  history_size = gnn_param_group_get_double (group, "history_size");
  line_search = line_search_of (group);
  if (line_search != NULL && strcmp (line_search, "strong_wolfe") != 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "only 'strong_wolfe' is supported");
      return FALSE;
    }

  /* state.setdefault('func_evals', 0); state.setdefault('n_iter', 0) */
  state = gnn_optimizer_get_state (optimizer, first);
  func_evals = gnn_optim_get_number (state, "func_evals", 0);
  state_n_iter = gnn_optim_get_number (state, "n_iter", 0);
  gnn_optim_set_number (state, "func_evals", func_evals);
  gnn_optim_set_number (state, "n_iter", state_n_iter);

  /* evaluate the initial f(x) and df/dx */
  if (!evaluate (&pb, &orig_loss, error))
    return FALSE;
  if (loss_out != NULL)
    *loss_out = orig_loss;
  loss = orig_loss;
  current_evals = 1;
  gnn_optim_set_number (state, "func_evals", ++func_evals);
  if (!(flat_grad = gather_flat_grad (&pb, error)) || !abs_max (flat_grad, &grad_max, error))
    return FALSE;
  if (grad_max <= tolerance_grad)
    return TRUE;

  /* the tensors cached in the state */
  have_d = (d = gnn_optim_state_tensor (state, "d")) != NULL;
  if (have_d)
    g_object_ref (d);
  t = gnn_optim_get_number (state, "t", lr);
  if (!load_rows (state, "old_dirs", old_dirs, error) || !load_rows (state, "old_stps", old_stps, error))
    return FALSE;
  ro = load_vector (state, "ro");
  if (old_stps->len != old_dirs->len || ro->len != old_dirs->len)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "LBFGS state: expected as many old_stps and ro as old_dirs (%u), found %u and %u",
                   old_dirs->len, old_stps->len, ro->len);
      return FALSE;
    }
  al = load_vector (state, "al");
  g_array_set_size (al, (guint) history_size);
  H_diag = gnn_optim_get_number (state, "H_diag", 1);
  have_prev = (prev_flat_grad = gnn_optim_state_tensor (state, "prev_flat_grad")) != NULL;
  if (have_prev)
    prev_flat_grad = gnn_tensor_clone (prev_flat_grad, error);
  prev_loss = gnn_optim_get_number (state, "prev_loss", 0);

  while (n_iter < max_iter)
    {
      double gtd;
      int ls_func_evals = 0;

      n_iter++;
      state_n_iter++;
      /* compute the gradient descent direction */
      if (state_n_iter == 1)
        {
          g_clear_object (&d);
          if (!(d = gnn_tensor_neg (flat_grad, error)))
            return FALSE;
          g_ptr_array_set_size (old_dirs, 0);
          g_ptr_array_set_size (old_stps, 0);
          g_array_set_size (ro, 0);
          H_diag = 1;
        }
      else
        {
          g_autoptr(GnnTensor) y = gnn_tensor_sub (flat_grad, prev_flat_grad, 1.0, error);
          g_autoptr(GnnTensor) s = y ? gnn_tensor_mul_scalar (d, t, error) : NULL;
          g_autoptr(GnnTensor) q = NULL;
          double ys, yy;
          guint num_old;

          if (s == NULL || !dot (y, s, &ys, error))
            return FALSE;
          if (ys > 1e-10)
            {
              /* updating memory */
              if (history_size < 1)
                {
                  /* PyTorch pops from the empty history: an IndexError */
                  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "LBFGS: history_size must be at least 1, found %g", history_size);
                  return FALSE;
                }
              while (old_dirs->len >= (guint) history_size)
                {
                  /* shift history by one (limited-memory) */
                  g_ptr_array_remove_index (old_dirs, 0);
                  g_ptr_array_remove_index (old_stps, 0);
                  g_array_remove_index (ro, 0);
                }
              if (!dot (y, y, &yy, error))
                return FALSE;
              g_ptr_array_add (old_dirs, g_steal_pointer (&y));
              g_ptr_array_add (old_stps, g_steal_pointer (&s));
              g_array_append_vals (ro, &(double) { as_dtype (&pb, 1. / ys) }, 1);
              /* update the scale of the initial Hessian approximation */
              H_diag = as_dtype (&pb, ys / yy);
            }
          /* the approximate L-BFGS inverse Hessian times the gradient (two-loop recursion) */
          num_old = old_dirs->len;
          if (al->len < num_old)
            g_array_set_size (al, num_old);
          if (!(q = gnn_tensor_neg (flat_grad, error)))
            return FALSE;
          for (int i = (int) num_old - 1; i >= 0; i--)
            {
              double sq;

              if (!dot (old_stps->pdata[i], q, &sq, error))
                return FALSE;
              g_array_index (al, double, i) = as_dtype (&pb, sq * g_array_index (ro, double, i));
              if (!gnn_tensor_add_ (q, old_dirs->pdata[i], -g_array_index (al, double, i), error))
                return FALSE;
            }
          /* multiply by the initial Hessian; r/d is the final direction */
          g_clear_object (&d);
          if (!(d = gnn_tensor_mul_scalar (q, H_diag, error)))
            return FALSE;
          for (guint i = 0; i < num_old; i++)
            {
              double yr, be_i;

              if (!dot (old_dirs->pdata[i], d, &yr, error))
                return FALSE;
              be_i = as_dtype (&pb, yr * g_array_index (ro, double, i));
              if (!gnn_tensor_add_ (d, old_stps->pdata[i],
                                    as_dtype (&pb, g_array_index (al, double, i) - be_i), error))
                return FALSE;
            }
        }

      g_clear_object (&prev_flat_grad);
      if (!(prev_flat_grad = gnn_tensor_clone (flat_grad, error)))
        return FALSE;
      prev_loss = loss;

      /* compute the step length: min(1., 1. / |g|_1) * lr at the first iteration */
      if (state_n_iter == 1)
        {
          g_autoptr(GnnTensor) a = gnn_tensor_abs (flat_grad, error);
          g_autoptr(GnnTensor) sum = a ? gnn_tensor_sum_all (a, error) : NULL;
          double inv;

          if (sum == NULL)
            return FALSE;
          inv = as_dtype (&pb, 1. / gnn_tensor_item (sum, NULL));
          t = inv < 1. ? as_dtype (&pb, inv * lr) : 1. * lr;
        }
      else
        t = lr;

      /* the directional derivative */
      if (!dot (flat_grad, d, &gtd, error))
        return FALSE;
      /* it is below the tolerance */
      if (gtd > -tolerance_change)
        break;

      if (line_search != NULL)
        {
          g_autoptr(GPtrArray) x_init = clone_params (&pb, error);
          g_autoptr(GnnTensor) g_new = NULL;
          double f_new;

          if (x_init == NULL ||
              !strong_wolfe (&pb, x_init, &t, d, loss, flat_grad, gtd, tolerance_change, &f_new, &g_new,
                             &ls_func_evals, error))
            return FALSE;
          loss = f_new;
          g_set_object (&flat_grad, g_new);
          if (!add_grad (&pb, t, d, error) || !abs_max (flat_grad, &grad_max, error))
            return FALSE;
          opt_cond = grad_max <= tolerance_grad;
        }
      else
        {
          /* no line search: move with the fixed step */
          if (!add_grad (&pb, t, d, error))
            return FALSE;
          opt_cond = FALSE;
          if (n_iter != max_iter)
            {
              /* re-evaluate the function only if not in the last iteration */
              g_clear_object (&flat_grad);
              if (!evaluate (&pb, &loss, error) || !(flat_grad = gather_flat_grad (&pb, error)) ||
                  !abs_max (flat_grad, &grad_max, error))
                return FALSE;
              opt_cond = grad_max <= tolerance_grad;
              ls_func_evals = 1;
            }
        }
      /* update the count of evaluations */
      current_evals += ls_func_evals;
      func_evals += ls_func_evals;

      /* check the conditions */
      if (n_iter == max_iter || current_evals >= max_eval || opt_cond)
        break;
      {
        g_autoptr(GnnTensor) dt = gnn_tensor_mul_scalar (d, t, error);
        double dt_max;

        if (dt == NULL || !abs_max (dt, &dt_max, error))
          return FALSE;
        /* lack of progress */
        if (dt_max <= tolerance_change || fabs (loss - prev_loss) < tolerance_change)
          break;
      }
    }

  gnn_optim_set_number (state, "func_evals", func_evals);
  gnn_optim_set_number (state, "n_iter", state_n_iter);
  gnn_state_dict_set_tensor (state, "d", d);
  gnn_optim_set_number (state, "t", t);
  if (!store_rows (state, "old_dirs", old_dirs, flat_grad, error) ||
      !store_rows (state, "old_stps", old_stps, flat_grad, error) ||
      !store_vector (state, "ro", (double *) ro->data, ro->len, flat_grad, error))
    return FALSE;
  gnn_optim_set_number (state, "H_diag", H_diag);
  gnn_state_dict_set_tensor (state, "prev_flat_grad", prev_flat_grad);
  gnn_optim_set_number (state, "prev_loss", prev_loss);
  return store_vector (state, "al", (double *) al->data, al->len, flat_grad, error);
}

static const char *const lbfgs_state_keys[] = { "func_evals", "n_iter", NULL };

static void
gnn_lbfgs_class_init (GnnLBFGSClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);

  optimizer_class->step = gnn_lbfgs_step;
  optimizer_class->check_group = gnn_lbfgs_check_group;
  gnn_optim_class_set_fixed_state_keys (klass, lbfgs_state_keys);

  /**
   * GnnLBFGS:lr:
   *
   * The learning rate (`lr`); PyTorch's default is 1.
   *
   * Since: 0.1
   */
  props[PROP_LR] = gnn_optim_option_double ("lr", 1);
  /**
   * GnnLBFGS:max-iter:
   *
   * The most iterations of one step (`max_iter`); PyTorch's default is 20.
   *
   * Since: 0.1
   */
  props[PROP_MAX_ITER] = gnn_optim_option_double ("max-iter", 20);
  /**
   * GnnLBFGS:max-eval:
   *
   * The most evaluations of the closure in one step (`max_eval`); PyTorch's default is
   * `max_iter * 5 // 4`, 25.
   *
   * Since: 0.1
   */
  props[PROP_MAX_EVAL] = gnn_optim_option_double ("max-eval", 25);
  /**
   * GnnLBFGS:tolerance-grad:
   *
   * The step ends when the largest gradient element is at most this (`tolerance_grad`);
   * PyTorch's default is 1e-7.
   *
   * Since: 0.1
   */
  props[PROP_TOLERANCE_GRAD] = gnn_optim_option_double ("tolerance-grad", 1e-7);
  /**
   * GnnLBFGS:tolerance-change:
   *
   * The step ends when the step or the change of the loss is below this
   * (`tolerance_change`); PyTorch's default is 1e-9.
   *
   * Since: 0.1
   */
  props[PROP_TOLERANCE_CHANGE] = gnn_optim_option_double ("tolerance-change", 1e-9);
  /**
   * GnnLBFGS:history-size:
   *
   * How many pairs of changes the direction recalls (`history_size`); PyTorch's default is
   * 100.
   *
   * Since: 0.1
   */
  props[PROP_HISTORY_SIZE] = gnn_optim_option_double ("history-size", 100);
  /**
   * GnnLBFGS:line-search-fn:
   *
   * The line search (`line_search_fn`), a #GVariant `ms`: nothing (PyTorch's None, the
   * default: a fixed step) or "strong_wolfe".
   *
   * Since: 0.1
   */
  props[PROP_LINE_SEARCH_FN] = gnn_optim_option_variant ("line-search-fn", G_VARIANT_TYPE ("ms"),
                                                         g_variant_new_maybe (G_VARIANT_TYPE_STRING, NULL));
  gnn_optim_class_install_options (G_OBJECT_CLASS (klass), props, N_PROPS);
}

static void
gnn_lbfgs_init (GnnLBFGS *self)
{
}

/**
 * gnn_lbfgs_new: (constructor)
 * @params: (nullable): the parameters to optimize, as its one group
 * @lr: the learning rate (PyTorch's default: 1)
 * @max_iter: the most iterations of a step (default: 20)
 * @max_eval: the most evaluations of a step (default: @max_iter * 5 / 4, rounded down)
 * @tolerance_grad: the tolerance on the largest gradient element (default: 1e-7)
 * @tolerance_change: the tolerance on the changes of the step and the loss (default: 1e-9)
 * @history_size: the length of the history (default: 100)
 * @line_search_fn: (nullable): %NULL or "strong_wolfe"
 * @error: return location for a #GError
 *
 * Creates an L-BFGS optimizer (`torch.optim.LBFGS (params, lr, max_iter, max_eval,
 * tolerance_grad, tolerance_change, history_size, line_search_fn)`).
 *
 * Returns: (transfer full): the optimizer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnLBFGS *
gnn_lbfgs_new (GnnParamGroup *params,
               double         lr,
               gint64         max_iter,
               gint64         max_eval,
               double         tolerance_grad,
               double         tolerance_change,
               gint64         history_size,
               const char    *line_search_fn,
               GError       **error)
{
  g_autoptr(GListModel) list = NULL;

  g_return_val_if_fail (params == NULL || GNN_IS_PARAM_GROUP (params), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  list = gnn_optim_params_list (params);
  return g_initable_new (GNN_TYPE_LBFGS, NULL, error, "params", list, "lr", lr,
                         "max-iter", (double) max_iter, "max-eval", (double) max_eval,
                         "tolerance-grad", tolerance_grad, "tolerance-change", tolerance_change,
                         "history-size", (double) history_size,
                         "line-search-fn", g_variant_new_maybe (G_VARIANT_TYPE_STRING,
                                                                line_search_fn ? g_variant_new_string (line_search_fn)
                                                                               : NULL), NULL);
}
