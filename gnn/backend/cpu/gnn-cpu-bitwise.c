/* gnn-cpu-bitwise.c: the bitwise and integer kernels (and, or, xor, not, the shifts, gcd, lcm) on
 * int64, one table
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The ops compute in int64 (gnn's integer compute dtype); bool and the narrower integer dtypes
 * are converted by the ops around the kernel.
 */
#include "config.h"

#include "gnn-cpu-private.h"
#include "backend/gnn-int-math-private.h"

static gint64 and_i (gint64 a, gint64 b) { return a & b; }
static gint64 or_i (gint64 a, gint64 b) { return a | b; }
static gint64 xor_i (gint64 a, gint64 b) { return a ^ b; }

typedef struct {
  GnnBackendOp op;
  gint64 (*f) (gint64, gint64);
} BitwiseBinary;

static const BitwiseBinary bitwise_binary[] = {
  { GNN_BACKEND_OP_BITWISE_AND, and_i },
  { GNN_BACKEND_OP_BITWISE_OR, or_i },
  { GNN_BACKEND_OP_BITWISE_XOR, xor_i },
  { GNN_BACKEND_OP_BITWISE_LEFT_SHIFT, gnn_int_left_shift },
  { GNN_BACKEND_OP_BITWISE_RIGHT_SHIFT, gnn_int_right_shift },
  { GNN_BACKEND_OP_GCD, gnn_int_gcd },
  { GNN_BACKEND_OP_LCM, gnn_int_lcm },
};

static gint64 (*find_binary (GnnBackendOp op)) (gint64, gint64)
{
  for (gsize i = 0; i < G_N_ELEMENTS (bitwise_binary); i++)
    if (bitwise_binary[i].op == op)
      return bitwise_binary[i].f;
  g_assert_not_reached ();
}

static void
binary_loop (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)
{
  gint64 (*f) (gint64, gint64) = find_binary (args->op);

  for (gint64 i = 0; i < n; i++)
    *(gint64 *) (d[0] + i * s[0]) = f (*(const gint64 *) (d[1] + i * s[1]), *(const gint64 *) (d[2] + i * s[2]));
}

static void
not_loop (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)
{
  for (gint64 i = 0; i < n; i++)
    *(gint64 *) (d[0] + i * s[0]) = ~*(const gint64 *) (d[1] + i * s[1]);
}

static gboolean
k_bitwise (const GnnKernelArgs *args, GError **error)
{
  guint n_in = gnn_backend_op_get_info (args->op)->n_in;

  if (args->n_in != n_in || args->out->dtype != GNN_DTYPE_INT64)
    return gnn_cpu_unsupported (args, error);
  for (guint k = 0; k < n_in; k++)
    if (args->in[k]->dtype != GNN_DTYPE_INT64)
      return gnn_cpu_unsupported (args, error);
  gnn_cpu_foreach (args, args->op == GNN_BACKEND_OP_BITWISE_NOT ? not_loop : binary_loop);
  return TRUE;
}

void
gnn_cpu_register_bitwise (GnnCpuKernel *table)
{
  for (gsize i = 0; i < G_N_ELEMENTS (bitwise_binary); i++)
    table[bitwise_binary[i].op] = k_bitwise;
  table[GNN_BACKEND_OP_BITWISE_NOT] = k_bitwise;
}
