/* gnn-autocast.c: automatic mixed precision, torch.autocast's thread-local state and the casts
 * the ops of its lists make
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "gnn-autocast-private.h"
#include "gnn-ops.h"
#include "gnn-ops-private.h"
#include "core/gnn-error.h"
#include "core/gnn-tensor-private.h"

enum { DEVICE_CPU, DEVICE_CUDA, N_DEVICES };

typedef enum {
  POLICY_NONE,       /* the op runs as called */
  POLICY_LOWER,      /* floating operands (not float64) cast to the autocast dtype */
  POLICY_FLOAT32,    /* floating operands (not float64) cast to float32 */
  POLICY_PROMOTE,    /* floating operands (not float64) cast to the widest of them */
  POLICY_BANNED,     /* refused under autocast */
  POLICY_KEEP,       /* the op runs as called, without autocast in the ops it is made of */
} Policy;

/* torch 1.13's lists (aten/src/ATen/autocast_mode.cpp): CPU lower precision conv1d/2d/3d, bmm,
 * mm, baddbmm, addmm, addbmm, linear, matmul; CPU float32 the transposed convolutions, the 3-d
 * pools, the losses; CUDA lower precision the products and all convolutions, CUDA float32 the
 * softmax family and the losses, dot promotes. cat and stack, which promote on both, promote
 * without autocast already. */
static const struct {
  Policy policy[N_DEVICES];
} op_policies[GNN_AUTOCAST_OP_COUNT] = {
  [GNN_AUTOCAST_OP_MATMUL]               = { { POLICY_LOWER, POLICY_LOWER } },
  [GNN_AUTOCAST_OP_ADDMM]                = { { POLICY_LOWER, POLICY_LOWER } },
  [GNN_AUTOCAST_OP_LINEAR]               = { { POLICY_LOWER, POLICY_LOWER } },
  [GNN_AUTOCAST_OP_CONV]                 = { { POLICY_LOWER, POLICY_LOWER } },
  [GNN_AUTOCAST_OP_CONV_TRANSPOSE]       = { { POLICY_FLOAT32, POLICY_LOWER } },
  [GNN_AUTOCAST_OP_MV]                   = { { POLICY_KEEP, POLICY_LOWER } },
  [GNN_AUTOCAST_OP_DOT]                  = { { POLICY_KEEP, POLICY_PROMOTE } },
  [GNN_AUTOCAST_OP_POOL3D]               = { { POLICY_FLOAT32, POLICY_NONE } },
  [GNN_AUTOCAST_OP_LOSS]                 = { { POLICY_FLOAT32, POLICY_FLOAT32 } },
  [GNN_AUTOCAST_OP_BINARY_CROSS_ENTROPY] = { { POLICY_FLOAT32, POLICY_BANNED } },
  [GNN_AUTOCAST_OP_SOFTMAX]              = { { POLICY_NONE, POLICY_FLOAT32 } },
};

typedef struct {
  gboolean enabled[N_DEVICES];
  GnnDtype dtype[N_DEVICES];
  int nesting;
  int excluded;
  gboolean cache_enabled;
  /* the lower-precision casts of float32 leaves that require grad (the model's weights),
   * kept until the outermost region ends: source tensor (a reference, so that its address
   * stays its own) -> cast */
  GHashTable *cache;
} AutocastState;

static void
state_free (gpointer data)
{
  AutocastState *s = data;

  g_clear_pointer (&s->cache, g_hash_table_unref);
  g_free (s);
}

static GPrivate state_key = G_PRIVATE_INIT (state_free);

static AutocastState *
state_get (void)
{
  AutocastState *s = g_private_get (&state_key);

  if (G_UNLIKELY (s == NULL))
    {
      s = g_new0 (AutocastState, 1);
      s->dtype[DEVICE_CPU] = GNN_DTYPE_BFLOAT16;
      s->dtype[DEVICE_CUDA] = GNN_DTYPE_FLOAT16;
      s->cache_enabled = TRUE;
      g_private_set (&state_key, s);
    }
  return s;
}

/* the index of @device_type, or -1 with @error set (when given) */
static int
device_index (const char *device_type, GError **error)
{
  if (g_strcmp0 (device_type, "cpu") == 0)
    return DEVICE_CPU;
  if (g_strcmp0 (device_type, "cuda") == 0)
    return DEVICE_CUDA;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DEVICE,
               "autocast: the device type must be 'cuda' or 'cpu', got '%s'",
               device_type ? device_type : "(null)");
  return -1;
}

/**
 * gnn_autocast_is_enabled:
 * @device_type: "cpu" or "cuda"
 *
 * Whether autocast is on for @device_type on this thread (`torch.is_autocast_enabled ()` for
 * "cuda", `torch.is_autocast_cpu_enabled ()` for "cpu"). An unknown device type is never on.
 *
 * MT safe: the state is the calling thread's.
 *
 * Returns: whether autocast is on
 *
 * Since: 0.1
 */
gboolean
gnn_autocast_is_enabled (const char *device_type)
{
  int d = device_index (device_type, NULL);

  return d >= 0 && state_get ()->enabled[d];
}

/**
 * gnn_autocast_set_enabled:
 * @device_type: "cpu" or "cuda"
 * @enabled: whether autocast should be on
 * @error: return location for a #GError
 *
 * Turns autocast on or off for @device_type on this thread (`torch.set_autocast_enabled`,
 * `torch.set_autocast_cpu_enabled`), without changing the nesting or the cache.
 *
 * MT safe: the state is the calling thread's.
 *
 * Returns: %TRUE, or %FALSE with @error set for an unknown device type
 *
 * Since: 0.1
 */
gboolean
gnn_autocast_set_enabled (const char *device_type, gboolean enabled, GError **error)
{
  int d = device_index (device_type, error);

  if (d < 0)
    return FALSE;
  state_get ()->enabled[d] = !!enabled;
  return TRUE;
}

/**
 * gnn_autocast_get_dtype:
 * @device_type: "cpu" or "cuda"
 *
 * The dtype autocast casts the lower-precision ops of @device_type to on this thread
 * (`torch.get_autocast_cpu_dtype ()`, bfloat16 by default; `torch.get_autocast_gpu_dtype ()`,
 * float16 by default). An unknown device type gives float32.
 *
 * MT safe: the state is the calling thread's.
 *
 * Returns: the autocast dtype
 *
 * Since: 0.1
 */
GnnDtype
gnn_autocast_get_dtype (const char *device_type)
{
  int d = device_index (device_type, NULL);

  return d >= 0 ? state_get ()->dtype[d] : GNN_DTYPE_FLOAT32;
}

/**
 * gnn_autocast_set_dtype:
 * @device_type: "cpu" or "cuda"
 * @dtype: float16 or bfloat16
 * @error: return location for a #GError
 *
 * Sets the autocast dtype of @device_type on this thread (`torch.set_autocast_cpu_dtype`,
 * `torch.set_autocast_gpu_dtype`). Both half types are accepted on both device types (as
 * PyTorch 2 does; torch 1.13's CPU autocast takes bfloat16 only).
 *
 * MT safe: the state is the calling thread's.
 *
 * Returns: %TRUE, or %FALSE with @error set for an unknown device type or another dtype
 *
 * Since: 0.1
 */
gboolean
gnn_autocast_set_dtype (const char *device_type, GnnDtype dtype, GError **error)
{
  int d = device_index (device_type, error);

  if (d < 0)
    return FALSE;
  if (dtype != GNN_DTYPE_FLOAT16 && dtype != GNN_DTYPE_BFLOAT16)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "autocast: the autocast dtype must be float16 or bfloat16, got %s", gnn_dtype_get_name (dtype));
      return FALSE;
    }
  state_get ()->dtype[d] = dtype;
  return TRUE;
}

/**
 * gnn_autocast_increment_nesting:
 *
 * Counts one more autocast region entered on this thread (`torch.autocast_increment_nesting`).
 *
 * MT safe: the state is the calling thread's.
 *
 * Returns: the nesting after the increment
 *
 * Since: 0.1
 */
int
gnn_autocast_increment_nesting (void)
{
  return ++state_get ()->nesting;
}

/**
 * gnn_autocast_decrement_nesting:
 *
 * Counts one autocast region left on this thread (`torch.autocast_decrement_nesting`); the
 * caller clears the cache when it reaches 0, as `torch.autocast.__exit__` does. It never goes
 * below 0.
 *
 * MT safe: the state is the calling thread's.
 *
 * Returns: the nesting after the decrement
 *
 * Since: 0.1
 */
int
gnn_autocast_decrement_nesting (void)
{
  AutocastState *s = state_get ();

  if (s->nesting > 0)
    s->nesting--;
  return s->nesting;
}

/**
 * gnn_autocast_clear_cache:
 *
 * Drops the lower-precision casts of weights cached on this thread (`torch.clear_autocast_cache`).
 *
 * MT safe: the state is the calling thread's.
 *
 * Since: 0.1
 */
void
gnn_autocast_clear_cache (void)
{
  AutocastState *s = state_get ();

  if (s->cache)
    g_hash_table_remove_all (s->cache);
}

/**
 * gnn_autocast_is_cache_enabled:
 *
 * Whether autocast caches the lower-precision casts of float32 leaves that require grad (a
 * model's weights) until the outermost region ends (`torch.is_autocast_cache_enabled`; on by
 * default).
 *
 * MT safe: the state is the calling thread's.
 *
 * Returns: whether the cache is on
 *
 * Since: 0.1
 */
gboolean
gnn_autocast_is_cache_enabled (void)
{
  return state_get ()->cache_enabled;
}

/**
 * gnn_autocast_set_cache_enabled:
 * @enabled: whether the cache should be on
 *
 * Turns the weight-cast cache on or off on this thread (`torch.set_autocast_cache_enabled`).
 *
 * MT safe: the state is the calling thread's.
 *
 * Since: 0.1
 */
void
gnn_autocast_set_cache_enabled (gboolean enabled)
{
  state_get ()->cache_enabled = !!enabled;
}

/**
 * gnn_autocast_get_cache_size:
 *
 * The number of casts the cache holds on this thread (for tests and diagnostics).
 *
 * MT safe: the state is the calling thread's.
 *
 * Returns: the number of cached casts
 *
 * Since: 0.1
 */
guint
gnn_autocast_get_cache_size (void)
{
  AutocastState *s = state_get ();

  return s->cache ? g_hash_table_size (s->cache) : 0;
}

struct _GnnAutocastScope {
  int device;
  gboolean prev_enabled;
  GnnDtype prev_dtype;
  gboolean prev_cache_enabled;
};

static GnnAutocastScope *
scope_copy (GnnAutocastScope *scope)
{
  return g_memdup2 (scope, sizeof *scope);
}

G_DEFINE_BOXED_TYPE (GnnAutocastScope, gnn_autocast_scope, scope_copy, gnn_autocast_scope_free)

/**
 * gnn_autocast_scope_new:
 * @device_type: "cpu" or "cuda"
 * @dtype: the autocast dtype, float16 or bfloat16
 * @enabled: whether autocast is on inside the region
 * @cache_enabled: whether the weight-cast cache is on inside the region
 * @error: return location for a #GError
 *
 * Begins an autocast region (`torch.autocast (device_type, dtype, enabled, cache_enabled)`'s
 * `__enter__`): saves @device_type's state, sets the new one and increments the nesting.
 *
 * MT safe: the state is the calling thread's.
 *
 * Returns: (transfer full): the region, to end with gnn_autocast_scope_free(), or %NULL with
 *   @error set for an unknown device type or dtype
 *
 * Since: 0.1
 */
GnnAutocastScope *
gnn_autocast_scope_new (const char *device_type,
                        GnnDtype    dtype,
                        gboolean    enabled,
                        gboolean    cache_enabled,
                        GError    **error)
{
  AutocastState *s;
  GnnAutocastScope *scope;
  int d = device_index (device_type, error);

  if (d < 0)
    return NULL;
  if (dtype != GNN_DTYPE_FLOAT16 && dtype != GNN_DTYPE_BFLOAT16)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "autocast: the autocast dtype must be float16 or bfloat16, got %s", gnn_dtype_get_name (dtype));
      return NULL;
    }
  s = state_get ();
  scope = g_new (GnnAutocastScope, 1);
  scope->device = d;
  scope->prev_enabled = s->enabled[d];
  scope->prev_dtype = s->dtype[d];
  scope->prev_cache_enabled = s->cache_enabled;
  s->enabled[d] = !!enabled;
  s->dtype[d] = dtype;
  s->cache_enabled = !!cache_enabled;
  s->nesting++;
  return scope;
}

/**
 * gnn_autocast_scope_free:
 * @scope: (transfer full): a region from gnn_autocast_scope_new()
 *
 * Ends an autocast region (`__exit__`): decrements the nesting, clears the cache when the
 * outermost region ends, and restores the state saved when it began.
 *
 * Since: 0.1
 */
void
gnn_autocast_scope_free (GnnAutocastScope *scope)
{
  AutocastState *s;

  if (scope == NULL)
    return;
  s = state_get ();
  if (gnn_autocast_decrement_nesting () == 0)
    gnn_autocast_clear_cache ();
  s->enabled[scope->device] = scope->prev_enabled;
  s->dtype[scope->device] = scope->prev_dtype;
  s->cache_enabled = scope->prev_cache_enabled;
  g_free (scope);
}

/* ---- the ops' side ---------------------------------------------------------------------- */

void
gnn_autocast_exclude_push (void)
{
  state_get ()->excluded++;
}

void
gnn_autocast_exclude_pop (void)
{
  AutocastState *s = state_get ();

  if (s->excluded > 0)
    s->excluded--;
}

/* whether autocast casts @t: a floating tensor, not float64 (torch's is_eligible) */
static gboolean
eligible (GnnTensor *t)
{
  GnnDtype d = gnn_tensor_priv (t)->dtype;

  return d == GNN_DTYPE_FLOAT32 || d == GNN_DTYPE_FLOAT16 || d == GNN_DTYPE_BFLOAT16;
}

/* @t in @dtype: a new reference to @t when it has it or is not eligible; the cast of a
 * float32 leaf requiring grad to the lower-precision dtype comes from (and goes to) the cache */
static GnnTensor *
cached_cast (AutocastState *s, GnnTensor *t, GnnDtype dtype, gboolean lower, GError **error)
{
  GnnTensor *c;
  gboolean cacheable;

  if (t == NULL)
    return NULL;
  if (!eligible (t) || gnn_tensor_priv (t)->dtype == dtype)
    return g_object_ref (t);
  cacheable = lower && s->cache_enabled && gnn_tensor_priv (t)->dtype == GNN_DTYPE_FLOAT32 &&
              gnn_tensor_get_requires_grad (t) && gnn_tensor_is_leaf (t) && !gnn_tensor_is_view (t);
  if (cacheable && s->cache && (c = g_hash_table_lookup (s->cache, t)))
    return g_object_ref (c);
  if (!(c = gnn_tensor_to_dtype (t, dtype, error)))
    return NULL;
  if (cacheable)
    {
      if (s->cache == NULL)
        s->cache = g_hash_table_new_full (NULL, NULL, g_object_unref, g_object_unref);
      g_hash_table_insert (s->cache, g_object_ref (t), g_object_ref (c));
    }
  return c;
}

int
gnn_autocast_operands (GnnAutocastOp op, GnnTensor *const *ins, guint n, GnnTensor **cast, GError **error)
{
  AutocastState *s = g_private_get (&state_key);
  GnnTensor *first = NULL;
  GnnDtype target;
  Policy policy;
  int d;

  g_return_val_if_fail (op < GNN_AUTOCAST_OP_COUNT, 0);
  /* the fast path: autocast was never touched on this thread, or is off, or excluded */
  if (s == NULL || (!s->enabled[DEVICE_CPU] && !s->enabled[DEVICE_CUDA]) || s->excluded > 0)
    return 0;
  for (guint i = 0; i < n && first == NULL; i++)
    first = ins[i];
  if (first == NULL)
    return 0;
  d = device_index (gnn_tensor_priv (first)->storage->entry->device_type, NULL);
  if (d < 0 || !s->enabled[d])
    return 0;
  policy = op_policies[op].policy[d];
  switch (policy)
    {
    case POLICY_NONE:
      return 0;
    case POLICY_BANNED:
      s->excluded++;
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast. "
                   "Many models use a sigmoid layer right before the binary cross entropy layer. In this case, "
                   "combine the two layers using torch.nn.functional.binary_cross_entropy_with_logits or "
                   "torch.nn.BCEWithLogitsLoss. binary_cross_entropy_with_logits and BCEWithLogits are safe "
                   "to autocast.");
      return -1;
    case POLICY_LOWER:
      target = s->dtype[d];
      break;
    case POLICY_FLOAT32:
      target = GNN_DTYPE_FLOAT32;
      break;
    case POLICY_KEEP:
      for (guint i = 0; i < n; i++)
        cast[i] = ins[i] ? g_object_ref (ins[i]) : NULL;
      s->excluded++;
      return 1;
    case POLICY_PROMOTE:
    default:
      target = s->dtype[d];
      for (guint i = 0; i < n; i++)
        if (ins[i] && eligible (ins[i]) && gnn_tensor_priv (ins[i])->dtype == GNN_DTYPE_FLOAT32)
          target = GNN_DTYPE_FLOAT32;
      break;
    }
  for (guint i = 0; i < n; i++)
    cast[i] = NULL;
  for (guint i = 0; i < n; i++)
    if (ins[i] && !(cast[i] = cached_cast (s, ins[i], target, policy == POLICY_LOWER, error)))
      {
        for (guint j = 0; j < n; j++)
          g_clear_object (&cast[j]);
        s->excluded++;
        return -1;
      }
  s->excluded++;
  return 1;
}

gboolean
gnn_autocast_active (void)
{
  AutocastState *s = g_private_get (&state_key);

  return s && (s->enabled[DEVICE_CPU] || s->enabled[DEVICE_CUDA]) && s->excluded == 0;
}

void
gnn_autocast_operands_clear (GnnTensor **cast, guint n)
{
  for (guint i = 0; i < n; i++)
    g_clear_object (&cast[i]);
  gnn_autocast_exclude_pop ();
}
