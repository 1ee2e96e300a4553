/* gnn-cpu-private.h: the CPU backend's kernel table and loop helpers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "backend/gnn-backend-private.h"
#include "core/gnn-tensor-private.h"  /* gnn_shape_numel */

G_BEGIN_DECLS

/* The CPU backend's parallel loop: calls func (ctx, begin, end) over [0, n) in chunks of at
 * least @grain, on gnn's threads (gnn-cpu-parallel.c). */
typedef void (*GnnParallelFunc) (gpointer ctx, gint64 begin, gint64 end);
void gnn_parallel_for (gint64          n,
                       gint64          grain,
                       GnnParallelFunc func,
                       gpointer        ctx);

typedef gboolean (*GnnCpuKernel) (const GnnKernelArgs *args,
                                  GError             **error);

/* An inner loop over @n elements: data[k] points at operand k's first element (out first,
 * then the inputs), strides[k] is operand k's stride in bytes. */
typedef void (*GnnCpuLoop) (char               **data,
                            const gint64        *strides,
                            gint64               n,
                            const GnnKernelArgs *args);

/* Runs @loop over every element of out and the inputs, which share out's shape, after
 * merging dimensions that are contiguous in every operand; large ranges run on gnn's threads. */
void gnn_cpu_foreach (const GnnKernelArgs *args,
                      GnnCpuLoop           loop);

/* Hot flat loops compiled twice, for x86-64-v3 (AVX2, FMA) and the baseline, the better
 * picked at load time (GCC's target_clones, through an ifunc); a plain function elsewhere. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define GNN_CPU_MULTIVERSION __attribute__ ((target_clones ("arch=x86-64-v3", "default")))
#else
#define GNN_CPU_MULTIVERSION
#endif

/* Elements per parallel chunk below which a kernel runs on the calling thread. */
#define GNN_CPU_GRAIN 32768

void gnn_cpu_register_elementwise (GnnCpuKernel *table);
void gnn_cpu_register_unary       (GnnCpuKernel *table);
void gnn_cpu_register_reduce      (GnnCpuKernel *table);
void gnn_cpu_register_index       (GnnCpuKernel *table);
void gnn_cpu_register_gemm        (GnnCpuKernel *table);
void gnn_cpu_register_conv        (GnnCpuKernel *table);
void gnn_cpu_register_foreach     (GnnCpuKernel *table);
void gnn_cpu_register_norm        (GnnCpuKernel *table);
void gnn_cpu_register_scan        (GnnCpuKernel *table);
void gnn_cpu_register_sort        (GnnCpuKernel *table);
void gnn_cpu_register_math        (GnnCpuKernel *table);
void gnn_cpu_register_attention   (GnnCpuKernel *table);
void gnn_cpu_register_bitwise     (GnnCpuKernel *table);
void gnn_cpu_register_rnn         (GnnCpuKernel *table);

gboolean gnn_cpu_unsupported (const GnnKernelArgs *args, GError **error);

/* whether the int64 operand @t holds a 0 (an integer divisor to refuse), any strides */
gboolean gnn_cpu_has_zero_i64 (const GnnKernelTensor *t);

/* The column kernels over (outer, r, inner) (params.reduce: the reductions and the scans):
 * one task handles up to GNN_CPU_COLS inner columns of one outer index, so that the inner
 * loops run over contiguous memory while the per-column state stays on the stack, and each
 * column is processed over r in index order by one task (results do not depend on the
 * thread count). */
#define GNN_CPU_COLS 64

typedef struct {
  const GnnKernelArgs *args;
  gint64 n_col_blocks;
} GnnCpuColCtx;

/* Task t covers outer index *o and inner columns [*c0, *c1). */
static inline void
gnn_cpu_col_task (const GnnCpuColCtx *ctx, gint64 t, gint64 *o, gint64 *c0, gint64 *c1)
{
  gint64 inner = ctx->args->params.reduce.inner;

  *o = t / ctx->n_col_blocks;
  *c0 = (t % ctx->n_col_blocks) * GNN_CPU_COLS;
  *c1 = MIN (inner, *c0 + GNN_CPU_COLS);
}

G_END_DECLS
