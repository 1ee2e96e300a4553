/* gnn-cpu-sort-tmpl.c: the sort kernel of gnn-cpu-sort.c for one dtype
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by gnn-cpu-sort.c once per dtype, with T the element type and NAME (x) the name x
 * for that dtype (x##_f32); not compiled on its own. in0, out and out2 are contiguous
 * (outer, r, inner) (params.reduce); a task sorts whole columns (o, i).
 */

typedef struct {
  T v;
  gint64 i;
} NAME (Pair);

/* ascending order with NaN the largest value (for integers v != v is false) */
static gint
NAME (compare) (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const NAME (Pair) *a = pa, *b = pb;
  gboolean descending = GPOINTER_TO_INT (data);
  gint c;

  if (a->v != a->v)
    c = b->v != b->v ? 0 : 1;
  else if (b->v != b->v)
    c = -1;
  else
    c = a->v < b->v ? -1 : a->v > b->v ? 1 : 0;
  return descending ? -c : c;
}

/* columns [b, e) of the outer · inner ones: g_qsort_with_data is a stable merge sort */
static void
NAME (sort_cols) (gpointer data, gint64 b, gint64 e)
{
  const GnnKernelArgs *args = data;
  gint64 r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  const T *x = args->in[0]->data;
  T *y = args->out->data;
  gint64 *idx = args->out2->data;
  NAME (Pair) *pairs = g_new (NAME (Pair), r);

  for (gint64 col = b; col < e; col++)
    {
      gint64 base = (col / inner) * r * inner + col % inner;
      for (gint64 k = 0; k < r; k++)
        pairs[k] = (NAME (Pair)) { x[base + k * inner], k };
      g_qsort_with_data (pairs, (gint) r, sizeof *pairs, NAME (compare),
                         GINT_TO_POINTER (args->params.reduce.reverse));
      for (gint64 k = 0; k < r; k++)
        {
          y[base + k * inner] = pairs[k].v;
          idx[base + k * inner] = pairs[k].i;
        }
    }
  g_free (pairs);
}

#undef T
#undef NAME
