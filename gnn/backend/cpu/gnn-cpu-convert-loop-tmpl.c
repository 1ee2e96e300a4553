/* gnn-cpu-convert-loop-tmpl.c: one conversion loop of gnn-cpu-elementwise.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by gnn-cpu-convert-tmpl.c once per output dtype, with DT the suffix of the input
 * dtype, TO that of the output dtype and CONVERT_TO (to) the name of the loop to dtype to;
 * the loop is convert_<DT>_<TO> (convert_f32_f16), through RD_<DT> (p) and WR_<TO> (p, v).
 * It undefines TO; not compiled on its own.
 */

/* out = in0 converted, n elements of any strides (d[k], s[k] as gnn_cpu_foreach gives them) */
GNN_CPU_MULTIVERSION
static void
CONVERT_TO (TO) (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)
{
  char *o = d[0];
  const char *in = d[1];

  for (gint64 i = 0; i < n; i++)
    G_PASTE (WR_, TO) (o + i * s[0], G_PASTE (RD_, DT) (in + i * s[1]));
}

#undef TO
