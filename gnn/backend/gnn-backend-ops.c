/* gnn-backend-ops.c: the op table, expanded from gnn-backend-ops.def
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-backend-private.h"

/* gen-backend-ops-h.py writes the GnnBackendOp enum from the rows as text; the preprocessor
 * counts them here. Each row's position must be its enum value, and the count the enum's. */
enum {
#define GNN_BACKEND_OP(name, nick, n_in, compute, dtypes, flops) ROW_##name,
#include "gnn-backend-ops.def"
#undef GNN_BACKEND_OP
  N_ROWS
};
#define GNN_BACKEND_OP(name, nick, n_in, compute, dtypes, flops) \
  G_STATIC_ASSERT ((int) ROW_##name == (int) GNN_BACKEND_OP_##name);
#include "gnn-backend-ops.def"
#undef GNN_BACKEND_OP
G_STATIC_ASSERT ((int) N_ROWS == (int) GNN_BACKEND_OP_N_OPS);

/* The number of ops, as ggml checks GGML_OP_COUNT: a new row changes the enum, and whoever adds
 * it changes GNN_BACKEND_OPS_COUNT beside the rows, having given the op a kernel in each backend
 * that has its own kernels (or a departure) and checked the switches over GnnBackendOp
 * (reference, CUDA). */
G_STATIC_ASSERT (GNN_BACKEND_OP_N_OPS == GNN_BACKEND_OPS_COUNT);

static const GnnBackendOpInfo op_table[GNN_BACKEND_OP_N_OPS] = {
#define GNN_BACKEND_OP(name, nick, n_in, compute, dtypes, flops) \
  [GNN_BACKEND_OP_##name] = { nick, n_in, GNN_BACKEND_OP_COMPUTE_##compute, GNN_DTYPES_##dtypes },
#include "gnn-backend-ops.def"
#undef GNN_BACKEND_OP
};

/* the GType of the enum, with the table's nicks */
GType
gnn_backend_op_get_type (void)
{
  static gsize type;
  static const GEnumValue values[] = {
#define GNN_BACKEND_OP(name, nick, n_in, compute, dtypes, flops) \
    { GNN_BACKEND_OP_##name, "GNN_BACKEND_OP_" #name, nick },
#include "gnn-backend-ops.def"
#undef GNN_BACKEND_OP
    { GNN_BACKEND_OP_N_OPS, "GNN_BACKEND_OP_N_OPS", "n-ops" },
    { 0, NULL, NULL }
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static (g_intern_static_string ("GnnBackendOp"), values));
  return type;
}

/* documented in gnn-backend-impl.h */
const GnnBackendOpInfo *
gnn_backend_op_get_info (GnnBackendOp op)
{
  return (guint) op < GNN_BACKEND_OP_N_OPS ? &op_table[op] : NULL;
}

const char *
gnn_backend_op_get_nick (GnnBackendOp op)
{
  return (guint) op < GNN_BACKEND_OP_N_OPS ? op_table[op].nick : "unknown";
}

gboolean
gnn_backend_op_supported_with (GnnBackendOp                 op,
                               GnnDtype                     dtype,
                               const GnnBackendOpDeparture *departures,
                               gsize                        n_departures)
{
  guint32 dtypes;

  if ((guint) op >= GNN_BACKEND_OP_N_OPS || (guint) dtype >= GNN_N_DTYPES)
    return FALSE;
  dtypes = op_table[op].dtypes;
  for (gsize i = 0; i < n_departures; i++)
    if (departures[i].op == op)
      dtypes = (dtypes | departures[i].added) & ~departures[i].removed;
  return (dtypes & GNN_DTYPE_BIT (dtype)) != 0;
}

/* the number of elements of an operand, 0 for a missing one */
static guint64
flops_numel (const GnnKernelTensor *t)
{
  guint64 n = 1;

  if (t == NULL)
    return 0;
  for (guint d = 0; d < MIN (t->ndim, GNN_MAX_DIMS); d++)
    n *= (guint64) MAX (t->shape[d], 0);
  return n;
}

static guint64
flops_list_numel (const GnnKernelArgs *args)
{
  guint64 n = 0;

  for (guint j = 0; args->list_out && j < args->n_list; j++)
    n += flops_numel (&args->list_out[j]);
  return n;
}

/* batch · m · n · k of a GEMM: out (batch, m, n), in0 (batch, m, k) */
static guint64
flops_gemm_mnk (const GnnKernelArgs *args)
{
  const GnnKernelTensor *a = args->in[0];

  if (a == NULL || a->ndim != 3)
    return 0;
  return flops_numel (args->out) * (guint64) MAX (a->shape[2], 0);
}

/* dimension @d of an operand, 0 for a missing one */
static guint64
flops_dim (const GnnKernelTensor *t, guint d)
{
  return t && d < t->ndim ? (guint64) MAX (t->shape[d], 0) : 0;
}

/* the names the flops column of the op table is written in */
#define N_OUT    flops_numel (args->out)
#define N_IN0    flops_numel (args->in[0])
#define N_LIST   flops_list_numel (args)
#define GEMM_MNK flops_gemm_mnk (args)
#define WINDOW   ((guint64) MAX (args->params.window.kernel[0], 0) * (guint64) MAX (args->params.window.kernel[1], 0))
#define VOLUME   ((guint64) MAX (args->params.volume.kernel[0], 0) * (guint64) MAX (args->params.volume.kernel[1], 0) * \
                  (guint64) MAX (args->params.volume.kernel[2], 0))
#define HAS_IN2  (args->in[2] != NULL)
/* B · L · S of an attention kernel (in0 (B, L, ·), in2 (B, S, ·)) and the last dims of in0, in2 */
#define ATTN_LS  (flops_dim (args->in[0], 0) * flops_dim (args->in[0], 1) * flops_dim (args->in[2], 1))
#define IN0_LAST flops_dim (args->in[0], 2)
#define IN2_LAST flops_dim (args->in[2], 2)

/* documented in gnn-backend-impl.h */
guint64
gnn_backend_op_count_flops (const GnnKernelArgs *args)
{
  g_return_val_if_fail (args != NULL, 0);

  switch (args->op)
    {
#define GNN_BACKEND_OP(name, nick, n_in, compute, dtypes, flops) \
    case GNN_BACKEND_OP_##name: return (guint64) (flops);
#include "gnn-backend-ops.def"
#undef GNN_BACKEND_OP
    case GNN_BACKEND_OP_N_OPS:
    default:
      return 0;
    }
}

#undef N_OUT
#undef N_IN0
#undef N_LIST
#undef GEMM_MNK
#undef WINDOW
#undef VOLUME
#undef HAS_IN2
#undef ATTN_LS
#undef IN0_LAST
#undef IN2_LAST

static gboolean
bad_args (GError **error, const char *backend_name, GnnBackendOp op, const char *fmt, ...) G_GNUC_PRINTF (4, 5);

static gboolean
bad_args (GError **error, const char *backend_name, GnnBackendOp op, const char *fmt, ...)
{
  g_autofree char *what = NULL;
  va_list ap;

  va_start (ap, fmt);
  what = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s %s kernel: %s", backend_name,
               gnn_backend_op_get_nick (op), what);
  return FALSE;
}

gboolean
gnn_backend_op_check_args (const char          *backend_name,
                           const GnnKernelArgs *args,
                           GnnDtype            *dtype,
                           GError             **error)
{
  const GnnBackendOpInfo *info = gnn_backend_op_get_info (args->op);

  if (info == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "The %s backend has no kernel number %d", backend_name, (int) args->op);
      return FALSE;
    }
  if (info->compute == GNN_BACKEND_OP_COMPUTE_LIST)
    {
      if (args->n_list == 0)
        {
          *dtype = GNN_DTYPE_FLOAT32;
          return TRUE;
        }
      if (args->list_out == NULL || args->list_in == NULL)
        return bad_args (error, backend_name, args->op,
                         "%u operand pairs announced but list_out or list_in is missing", args->n_list);
      *dtype = args->list_out[0].dtype;
      return TRUE;
    }
  if (args->out == NULL || args->out->ndim > GNN_MAX_DIMS)
    return bad_args (error, backend_name, args->op,
                     "no output operand, or one of more than %d dimensions", GNN_MAX_DIMS);
  for (guint k = 0; k < info->n_in; k++)
    if (args->in[k] == NULL || args->in[k]->ndim > GNN_MAX_DIMS)
      return bad_args (error, backend_name, args->op, "expected %u input operands, in%u is missing or "
                       "has more than %d dimensions", info->n_in, k, GNN_MAX_DIMS);
  switch (info->compute)
    {
    case GNN_BACKEND_OP_COMPUTE_IN0:
      *dtype = args->in[0]->dtype;
      break;
    case GNN_BACKEND_OP_COMPUTE_IN1:
      *dtype = args->in[1]->dtype;
      break;
    default:
      *dtype = args->out->dtype;
      break;
    }
  return TRUE;
}

gboolean
gnn_backend_op_set_unsupported (GError     **error,
                                const char  *backend_name,
                                GnnBackendOp op,
                                GnnDtype     dtype)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "The %s backend has no %s kernel for dtype %s",
               backend_name, gnn_backend_op_get_nick (op),
               (guint) dtype < GNN_N_DTYPES ? gnn_dtype_get_name (dtype) : "unknown");
  return FALSE;
}
