/* gnn-cpu-convert-tmpl.c: the fill loop of gnn-cpu-elementwise.c for one storage dtype, and
 * the ten conversion loops from it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by gnn-cpu-elementwise.c once per dtype, with DT the dtype's suffix (f32, f64,
 * i64, bool, u8, f16, bf16, i32, i16, i8), which names its loops (fill_f32) and its accessors RD_f32 (p) and
 * WR_f32 (p, v) (the value as a double); not compiled on its own. It undefines DT. Each
 * conversion is a loop of its own, convert_<DT>_<to> (gnn-cpu-convert-loop-tmpl.c), so that
 * every pair of dtypes is specialised; convert_loops_<DT> lists them. All are loops of
 * gnn_cpu_foreach: d[k] points at operand k's first element, s[k] is its stride in bytes.
 */
#define NAME(x) G_PASTE (x, G_PASTE (_, DT))
#define CONVERT_TO(to) G_PASTE (G_PASTE (NAME (convert), _), to)

/* out = fill.value, n elements */
static void
NAME (fill) (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)
{
  for (gint64 i = 0; i < n; i++)
    G_PASTE (WR_, DT) (d[0] + i * s[0], args->params.fill.value);
}

#define TO f32
#include "gnn-cpu-convert-loop-tmpl.c"
#define TO f64
#include "gnn-cpu-convert-loop-tmpl.c"
#define TO i64
#include "gnn-cpu-convert-loop-tmpl.c"
#define TO bool
#include "gnn-cpu-convert-loop-tmpl.c"
#define TO u8
#include "gnn-cpu-convert-loop-tmpl.c"
#define TO f16
#include "gnn-cpu-convert-loop-tmpl.c"
#define TO bf16
#include "gnn-cpu-convert-loop-tmpl.c"
#define TO i32
#include "gnn-cpu-convert-loop-tmpl.c"
#define TO i16
#include "gnn-cpu-convert-loop-tmpl.c"
#define TO i8
#include "gnn-cpu-convert-loop-tmpl.c"

/* the conversions from this dtype, indexed by the output dtype in GnnDtype order */
static const GnnCpuLoop NAME (convert_loops)[GNN_N_DTYPES] = {
  CONVERT_TO (f32), CONVERT_TO (f64), CONVERT_TO (i64), CONVERT_TO (bool),
  CONVERT_TO (u8), CONVERT_TO (f16), CONVERT_TO (bf16), CONVERT_TO (i32),
  CONVERT_TO (i16), CONVERT_TO (i8),
};

#undef CONVERT_TO
#undef NAME
#undef DT
