/* gnn-ops-einsum.c: einsum, contracted pairwise through permute, reshape and batched gemm
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "gnn-ops-private.h"

/* Labels: 'A'..'Z' are 0..25, 'a'..'z' 26..51 (torch's order, so the implicit output sorts as
 * torch sorts it); the dimensions an ellipsis covers are 52.. counted from the right. */
#define N_LETTERS 52
#define N_LABELS (N_LETTERS + GNN_MAX_DIMS)

typedef struct {
  guint n;
  int labels[GNN_MAX_DIMS];
} Term;

static int
letter_label (char c)
{
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return 26 + c - 'a';
  return -1;
}

static char
label_char (int l)
{
  return l < 26 ? 'A' + l : l < N_LETTERS ? 'a' + l - 26 : '.';
}

/* One term of the equation from @pos up to a ',' or '-' or the end: its letters and where its
 * ellipsis is (-1 if none). Returns the position after the term, or -1 with @error set. */
static int
parse_term (const char *eq, int pos, guint operand, gboolean output, int *letters, guint *n_letters,
            int *ellipsis_at, GError **error)
{
  *n_letters = 0;
  *ellipsis_at = -1;
  for (; eq[pos] && eq[pos] != ',' && eq[pos] != '-'; pos++)
    {
      if (eq[pos] == ' ')
        continue;
      if (eq[pos] == '.')
        {
          if (*ellipsis_at >= 0 || strncmp (eq + pos, "...", 3) != 0)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           *ellipsis_at >= 0 ? "einsum(): found '.' for %s %u that is part of a second ellipsis "
                                               "(index %d in the equation string)"
                                             : "einsum(): found '.' for %s %u that is not part of any ellipsis "
                                               "(index %d in the equation string)",
                           output ? "the output" : "operand", operand, pos);
              return -1;
            }
          *ellipsis_at = (int) *n_letters;
          pos += 2;
          continue;
        }
      if (letter_label (eq[pos]) < 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "einsum(): invalid subscript given at index %d in the equation string, subscripts must "
                       "be in [a-zA-Z]", pos);
          return -1;
        }
      if (*n_letters == GNN_MAX_DIMS)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "einsum(): more than %d subscripts at index %d", GNN_MAX_DIMS, pos);
          return -1;
        }
      letters[(*n_letters)++] = letter_label (eq[pos]);
    }
  return pos;
}

/* The labels of a term once its ellipsis covers @n_ell dimensions of the @max_ell of all
 * operands (aligned to the right, as broadcasting aligns them). */
static void
expand_term (Term *t, const int *letters, guint n_letters, int ellipsis_at, guint n_ell, guint max_ell)
{
  t->n = 0;
  for (guint i = 0; i <= n_letters; i++)
    {
      if ((int) i == ellipsis_at)
        for (guint e = 0; e < n_ell; e++)
          t->labels[t->n++] = N_LETTERS + (int) (max_ell - n_ell + e);
      if (i < n_letters)
        t->labels[t->n++] = letters[i];
    }
}

static gboolean
label_in (const Term *t, int l)
{
  for (guint i = 0; i < t->n; i++)
    if (t->labels[i] == l)
      return TRUE;
  return FALSE;
}

/* Sums the dims of @x (labels @t) whose label @keep does not hold; updates @t. */
static GnnTensor *
sum_unneeded (GnnTensor *x, Term *t, const gboolean *keep, GError **error)
{
  int dims[GNN_MAX_DIMS];
  guint nd = 0, kept = 0;

  for (guint i = 0; i < t->n; i++)
    {
      if (keep[t->labels[i]])
        t->labels[kept++] = t->labels[i];
      else
        dims[nd++] = (int) i;
    }
  t->n = kept;
  if (nd == 0)
    return g_object_ref (x);
  return gnn_tensor_sum (x, dims, nd, FALSE, error);
}

/* Takes the diagonal of each label repeated within one operand: the two dims moved last,
 * merged and sliced with a step of n + 1 (a view where the layout allows it, as torch's). */
static GnnTensor *
take_diagonals (GnnTensor *x, Term *t, guint operand, GError **error)
{
  g_autoptr(GnnTensor) cur = g_object_ref (x);

  for (guint i = 0; i < t->n; i++)
    for (guint j = i + 1; j < t->n; j++)
      {
        GnnTensorPrivate *p = gnn_tensor_priv (cur);
        int perm[GNN_MAX_DIMS];
        gint64 shape[GNN_MAX_DIMS];
        guint k = 0;
        gint64 n;
        g_autoptr(GnnTensor) moved = NULL, merged = NULL;
        GnnTensor *diag;

        if (t->labels[i] != t->labels[j])
          continue;
        n = p->shape[i];
        if (p->shape[j] != n)
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                         "einsum(): subscript %c is repeated for operand %u but the sizes don't match, %"
                         G_GINT64_FORMAT " != %" G_GINT64_FORMAT, label_char (t->labels[i]), operand, p->shape[j], n);
            return NULL;
          }
        for (guint d = 0; d < p->ndim; d++)
          if (d != i && d != j)
            {
              shape[k] = p->shape[d];
              perm[k++] = (int) d;
            }
        perm[k] = (int) i;
        perm[k + 1] = (int) j;
        shape[k] = n * n;
        if (!(moved = gnn_tensor_permute (cur, perm, p->ndim, error)) ||
            !(merged = gnn_tensor_reshape (moved, shape, k + 1, error)) ||
            !(diag = gnn_tensor_slice (merged, (int) k, 0, MAX (n * n, 1), n + 1, error)))
          return NULL;
        g_object_unref (cur);
        cur = diag;
        /* the labels follow the permutation, the pair's label last */
        {
          int l = t->labels[i];
          guint m = 0;

          for (guint d = 0; d < t->n; d++)
            if (d != i && d != j)
              t->labels[m++] = t->labels[d];
          t->labels[m++] = l;
          t->n = m;
        }
        i = (guint) -1;   /* look again from the start */
        break;
      }
  return g_steal_pointer (&cur);
}

static gint64
size_of (GnnTensor *x, const Term *t, int l)
{
  for (guint i = 0; i < t->n; i++)
    if (t->labels[i] == l)
      return gnn_tensor_priv (x)->shape[i];
  return 1;
}

/* a (labels ta) and b (tb), no label repeated in either, every label of both needed in the
 * result or contracted: a permuted to (batch, left, contracted), b to (batch, contracted,
 * right), one batched product, reshaped to (batch, left, right) */
static GnnTensor *
contract_pair (GnnTensor *a, Term *ta, GnnTensor *b, Term *tb, const gboolean *later, Term *tout, GError **error)
{
  int batch[GNN_MAX_DIMS], left[GNN_MAX_DIMS], right[GNN_MAX_DIMS], con[GNN_MAX_DIMS];
  guint nb = 0, nl = 0, nr = 0, nc = 0;
  int pa[GNN_MAX_DIMS], pb[GNN_MAX_DIMS];
  gint64 sa[3], sb[3], shape[GNN_MAX_DIMS];
  guint k = 0;
  g_autoptr(GnnTensor) xa = NULL, xb = NULL, ra = NULL, rb = NULL, prod = NULL;

  for (guint i = 0; i < ta->n; i++)
    {
      int l = ta->labels[i];
      if (!label_in (tb, l))
        left[nl++] = l;
      else if (later[l])
        batch[nb++] = l;
      else
        con[nc++] = l;
    }
  for (guint i = 0; i < tb->n; i++)
    if (!label_in (ta, tb->labels[i]))
      right[nr++] = tb->labels[i];
  if (nb + nl + nr > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "einsum(): an intermediate product would have %u dimensions, more than %d", nb + nl + nr,
                   GNN_MAX_DIMS);
      return NULL;
    }
  sa[0] = sb[0] = 1;
  sa[1] = sa[2] = sb[1] = sb[2] = 1;
  for (guint i = 0; i < nb; i++)
    {
      gint64 n = size_of (a, ta, batch[i]);
      sa[0] *= n;
      shape[k++] = n;
    }
  sb[0] = sa[0];
  for (guint i = 0; i < nl; i++)
    {
      gint64 n = size_of (a, ta, left[i]);
      sa[1] *= n;
      shape[k++] = n;
    }
  for (guint i = 0; i < nc; i++)
    sa[2] *= size_of (a, ta, con[i]);
  sb[1] = sa[2];
  for (guint i = 0; i < nr; i++)
    {
      gint64 n = size_of (b, tb, right[i]);
      sb[2] *= n;
      shape[k++] = n;
    }
  /* the permutations, by position of each label in its operand */
  {
    guint m = 0;
    const int *groups_a[3] = { batch, left, con }, *groups_b[3] = { batch, con, right };
    guint sizes_a[3] = { nb, nl, nc }, sizes_b[3] = { nb, nc, nr };

    for (guint g = 0; g < 3; g++)
      for (guint i = 0; i < sizes_a[g]; i++)
        for (guint d = 0; d < ta->n; d++)
          if (ta->labels[d] == groups_a[g][i])
            pa[m++] = (int) d;
    m = 0;
    for (guint g = 0; g < 3; g++)
      for (guint i = 0; i < sizes_b[g]; i++)
        for (guint d = 0; d < tb->n; d++)
          if (tb->labels[d] == groups_b[g][i])
            pb[m++] = (int) d;
  }
  if (!(xa = gnn_tensor_permute (a, pa, ta->n, error)) || !(xb = gnn_tensor_permute (b, pb, tb->n, error)) ||
      !(ra = gnn_tensor_reshape (xa, sa, 3, error)) || !(rb = gnn_tensor_reshape (xb, sb, 3, error)) ||
      !(prod = gnn_tensor_matmul (ra, rb, error)))
    return NULL;
  tout->n = 0;
  for (guint i = 0; i < nb; i++)
    tout->labels[tout->n++] = batch[i];
  for (guint i = 0; i < nl; i++)
    tout->labels[tout->n++] = left[i];
  for (guint i = 0; i < nr; i++)
    tout->labels[tout->n++] = right[i];
  return gnn_tensor_reshape (prod, shape, k, error);
}

/* Drops from @x the dims of labels of size 1 that @other has with another size: broadcasting
 * them is the same as leaving them to @other alone. Errors when two sizes differ otherwise. */
static GnnTensor *
drop_broadcast_dims (GnnTensor *x, Term *t, GnnTensor *other, const Term *to, GError **error)
{
  g_autoptr(GnnTensor) cur = g_object_ref (x);

  for (guint i = 0; i < t->n; i++)
    {
      gint64 n = gnn_tensor_priv (cur)->shape[i], m;
      GnnTensor *sq;

      if (!label_in (to, t->labels[i]) || (m = size_of (other, to, t->labels[i])) == n)
        continue;
      if (n != 1 && m != 1)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "einsum(): operands do not broadcast: subscript %c has size %" G_GINT64_FORMAT " and %"
                       G_GINT64_FORMAT, label_char (t->labels[i]), n, m);
          return NULL;
        }
      if (n != 1)
        continue;
      if (!(sq = gnn_tensor_squeeze_dim (cur, (int) i, error)))
        return NULL;
      g_object_unref (cur);
      cur = sq;
      memmove (t->labels + i, t->labels + i + 1, sizeof (int) * (t->n - i - 1));
      t->n--;
      i--;
    }
  return g_steal_pointer (&cur);
}

/**
 * gnn_einsum:
 * @equation: the subscripts, as `torch.einsum` takes them (`"bhqd,bhkd->bhqk"`, `"ii"`, `"...ij,...jk"`)
 * @operands: (array length=n_operands): the tensors, one per term of @equation
 * @n_operands: the number of @operands
 * @error: return location for a #GError
 *
 * Einstein summation (`torch.einsum`): letters name dimensions, a letter repeated within an
 * operand takes its diagonal, letters absent from the output are summed, `...` stands for the
 * broadcast dimensions not named, and without `->` the output holds the letters seen once, in
 * alphabetical order (upper case first) after the ellipsis dimensions. Operands are contracted
 * from left to right, each pair through one batched gemm of permuted and reshaped operands;
 * the gradient flows through the same ops. Errors in the equation name the index of the
 * character at fault.
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_einsum (const char *equation, GnnTensor **operands, guint n_operands, GError **error)
{
  int letters[GNN_MAX_DIMS], out_letters[GNN_MAX_DIMS];
  guint n_letters, n_out_letters = 0, max_ell = 0, count[N_LABELS] = { 0 };
  gint64 seen[N_LABELS] = { 0 };
  int ell_at, out_ell = -1, pos = 0;
  gboolean explicit_out = FALSE, in_output[N_LABELS] = { FALSE };
  Term *terms, out;
  g_autoptr(GPtrArray) xs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree Term *terms_store = NULL;
  g_autoptr(GnnTensor) cur = NULL;
  Term tcur;
  int perm[GNN_MAX_DIMS];

  g_return_val_if_fail (equation != NULL, NULL);
  g_return_val_if_fail (n_operands == 0 || operands != NULL, NULL);
  for (guint i = 0; i < n_operands; i++)
    g_return_val_if_fail (GNN_IS_TENSOR (operands[i]), NULL);
  if (n_operands == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "einsum(): must provide at least one operand");
      return NULL;
    }
  terms = terms_store = g_new0 (Term, n_operands);

  /* the input terms */
  for (guint k = 0;; k++)
    {
      guint ndim, n_ell;

      if (k >= n_operands)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "einsum(): fewer operands were provided than specified in the equation");
          return NULL;
        }
      if ((pos = parse_term (equation, pos, k, FALSE, letters, &n_letters, &ell_at, error)) < 0)
        return NULL;
      ndim = gnn_tensor_priv (operands[k])->ndim;
      if (ell_at < 0 ? n_letters != ndim : n_letters > ndim)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       ell_at < 0 ? "einsum(): the number of subscripts in the equation (%u) does not match the number "
                                    "of dimensions (%u) for operand %u and no ellipsis was given"
                                  : "einsum(): the number of subscripts in the equation (%u) is more than the number "
                                    "of dimensions (%u) for operand %u",
                       n_letters, ndim, k);
          return NULL;
        }
      n_ell = ell_at < 0 ? 0 : ndim - n_letters;
      max_ell = MAX (max_ell, n_ell);
      /* store the letters with the ellipsis' place; expanded once max_ell is known */
      memcpy (terms[k].labels, letters, sizeof (int) * n_letters);
      terms[k].n = n_letters | ((guint) (ell_at + 1) << 8) | (n_ell << 16);
      if (equation[pos] != ',')
        {
          if (k + 1 < n_operands)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "einsum(): more operands were provided than specified in the equation");
              return NULL;
            }
          break;
        }
      pos++;
    }
  if (equation[pos] == '-')
    {
      if (equation[pos + 1] != '>')
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "einsum(): expected '->' at index %d in the equation string", pos);
          return NULL;
        }
      explicit_out = TRUE;
      if ((pos = parse_term (equation, pos + 2, 0, TRUE, out_letters, &n_out_letters, &out_ell, error)) < 0)
        return NULL;
      if (equation[pos] != '\0')
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "einsum(): invalid subscript given at index %d in the equation string, subscripts must "
                       "be in [a-zA-Z]", pos);
          return NULL;
        }
    }
  for (guint k = 0; k < n_operands; k++)
    {
      guint packed = terms[k].n;
      int copy[GNN_MAX_DIMS];

      memcpy (copy, terms[k].labels, sizeof copy);
      expand_term (&terms[k], copy, packed & 0xff, (int) ((packed >> 8) & 0xff) - 1, packed >> 16, max_ell);
      for (guint i = 0; i < terms[k].n; i++)
        {
          int l = terms[k].labels[i];
          gint64 n = gnn_tensor_priv (operands[k])->shape[i];

          gboolean again = FALSE;

          for (guint j = 0; j < i; j++)
            again |= terms[k].labels[j] == l;
          count[l]++;
          if (again)
            continue;   /* a diagonal: take_diagonals checks the sizes */
          if (seen[l] > 1 && n > 1 && n != seen[l])
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "einsum(): subscript %c has size %" G_GINT64_FORMAT " for operand %u which does not "
                           "broadcast with previously seen size %" G_GINT64_FORMAT, label_char (l), n, k, seen[l]);
              return NULL;
            }
          if (n != 1 || seen[l] == 0)
            seen[l] = n;
        }
    }

  /* the output term */
  if (explicit_out)
    {
      for (guint i = 0; i < n_out_letters; i++)
        {
          int l = out_letters[i];
          if (in_output[l])
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "einsum(): output subscript %c appears more than once in the output", label_char (l));
              return NULL;
            }
          if (count[l] == 0)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "einsum(): output subscript %c does not appear in the equation for any input operand",
                           label_char (l));
              return NULL;
            }
          in_output[l] = TRUE;
        }
      expand_term (&out, out_letters, n_out_letters, out_ell, out_ell >= 0 ? max_ell : 0, max_ell);
    }
  else
    {
      out.n = 0;
      for (guint e = 0; e < max_ell; e++)
        out.labels[out.n++] = N_LETTERS + (int) e;
      for (int l = 0; l < N_LETTERS; l++)
        if (count[l] == 1)
          {
            if (out.n == GNN_MAX_DIMS)
              {
                g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "einsum(): the output would have more than %d dimensions",
                             GNN_MAX_DIMS);
                return NULL;
              }
            out.labels[out.n++] = l;
          }
    }
  memset (in_output, 0, sizeof in_output);
  for (guint i = 0; i < out.n; i++)
    in_output[out.labels[i]] = TRUE;

  /* each operand: diagonals, then the labels only it has and the output lacks summed */
  for (guint k = 0; k < n_operands; k++)
    {
      gboolean keep[N_LABELS];
      g_autoptr(GnnTensor) d = take_diagonals (operands[k], &terms[k], k, error);
      GnnTensor *s;

      if (d == NULL)
        return NULL;
      for (int l = 0; l < N_LABELS; l++)
        {
          keep[l] = in_output[l];
          for (guint j = 0; j < n_operands && !keep[l]; j++)
            keep[l] = j != k && label_in (&terms[j], l);
        }
      if (!(s = sum_unneeded (d, &terms[k], keep, error)))
        return NULL;
      g_ptr_array_add (xs, s);
    }

  /* contract from left to right */
  cur = g_object_ref (xs->pdata[0]);
  tcur = terms[0];
  for (guint k = 1; k < n_operands; k++)
    {
      gboolean later[N_LABELS], keep[N_LABELS];
      Term tk = terms[k], tnext;
      g_autoptr(GnnTensor) a = NULL, b = NULL, sa = NULL, sb = NULL;
      GnnTensor *prod;

      for (int l = 0; l < N_LABELS; l++)
        {
          later[l] = in_output[l];
          for (guint j = k + 1; j < n_operands && !later[l]; j++)
            later[l] = label_in (&terms[j], l);
        }
      if (!(a = drop_broadcast_dims (cur, &tcur, xs->pdata[k], &tk, error)) ||
          !(b = drop_broadcast_dims (xs->pdata[k], &tk, a, &tcur, error)))
        return NULL;
      /* a label left to one side alone and needed nowhere after is summed there */
      for (int l = 0; l < N_LABELS; l++)
        keep[l] = later[l] || (label_in (&tcur, l) && label_in (&tk, l));
      if (!(sa = sum_unneeded (a, &tcur, keep, error)) || !(sb = sum_unneeded (b, &tk, keep, error)) ||
          !(prod = contract_pair (sa, &tcur, sb, &tk, later, &tnext, error)))
        return NULL;
      g_object_unref (cur);
      cur = prod;
      tcur = tnext;
    }

  /* the output's order; a label of size 1 broadcast away comes back as a dim of 1 */
  for (guint i = 0; i < out.n; i++)
    if (!label_in (&tcur, out.labels[i]))
      {
        GnnTensor *u = gnn_tensor_unsqueeze (cur, (int) tcur.n, error);

        if (u == NULL)
          return NULL;
        g_object_unref (cur);
        cur = u;
        tcur.labels[tcur.n++] = out.labels[i];
      }
  for (guint i = 0; i < out.n; i++)
    for (guint d = 0; d < tcur.n; d++)
      if (tcur.labels[d] == out.labels[i])
        perm[i] = (int) d;
  for (guint i = 0; i < out.n; i++)
    if (perm[i] != (int) i)
      return gnn_tensor_permute (cur, perm, out.n, error);
  return g_steal_pointer (&cur);
}

/**
 * gnn_tensordot:
 * @self: a tensor
 * @other: a tensor
 * @dims_self: (array length=n_self): the dims of @self contracted
 * @n_self: the number of @dims_self
 * @dims_other: (array length=n_other): the dims of @other they are contracted with, in order
 * @n_other: the number of @dims_other, @n_self
 * @error: return location for a #GError
 *
 * The tensor contraction of `torch.tensordot (self, other, dims=(dims_self, dims_other))`: the
 * result has the dims of @self not contracted, then those of @other. It runs as the einsum of
 * the same contraction (one batched gemm).
 *
 * Returns: (transfer full): the contraction, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensordot (GnnTensor *self, GnnTensor *other, const int *dims_self, guint n_self, const int *dims_other,
               guint n_other, GError **error)
{
  GnnTensorPrivate *pa, *pb;
  char eq[3 * GNN_MAX_DIMS + 4];
  char la[GNN_MAX_DIMS], lb[GNN_MAX_DIMS];
  gboolean used_a[GNN_MAX_DIMS] = { FALSE }, used_b[GNN_MAX_DIMS] = { FALSE };
  guint n = 0, next = 0;
  GnnTensor *ops[2] = { self, other };

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  g_return_val_if_fail (n_self == 0 || dims_self != NULL, NULL);
  g_return_val_if_fail (n_other == 0 || dims_other != NULL, NULL);
  pa = gnn_tensor_priv (self);
  pb = gnn_tensor_priv (other);
  if (n_self != n_other)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "tensordot: both dimension lists should have same length, got %u and %u", n_self, n_other);
      return NULL;
    }
  for (guint i = 0; i < pa->ndim; i++)
    la[i] = 'a' + next++;
  for (guint i = 0; i < n_self; i++)
    {
      guint da, db;

      if (!gnn_normalize_dim (dims_self[i], pa->ndim, &da, error) ||
          !gnn_normalize_dim (dims_other[i], pb->ndim, &db, error))
        return NULL;
      if (used_a[da] || used_b[db])
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "tensordot: dim %u of %s appears multiple times in the list of dims", used_a[da] ? da : db,
                       used_a[da] ? "self" : "other");
          return NULL;
        }
      if (pa->shape[da] != pb->shape[db])
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "tensordot: contracted dimensions need to match, but first has size %" G_GINT64_FORMAT
                       " in dim %u and second has size %" G_GINT64_FORMAT " in dim %u",
                       pa->shape[da], da, pb->shape[db], db);
          return NULL;
        }
      used_a[da] = used_b[db] = TRUE;
      lb[db] = la[da];
    }
  for (guint i = 0; i < pb->ndim; i++)
    if (!used_b[i])
      lb[i] = 'a' + next++;
  for (guint i = 0; i < pa->ndim; i++)
    eq[n++] = la[i];
  eq[n++] = ',';
  for (guint i = 0; i < pb->ndim; i++)
    eq[n++] = lb[i];
  eq[n++] = '-';
  eq[n++] = '>';
  for (guint i = 0; i < pa->ndim; i++)
    if (!used_a[i])
      eq[n++] = la[i];
  for (guint i = 0; i < pb->ndim; i++)
    if (!used_b[i])
      eq[n++] = lb[i];
  eq[n] = '\0';
  return gnn_einsum (eq, ops, 2, error);
}

/**
 * gnn_tensor_kron:
 * @self: a tensor
 * @other: a tensor
 * @error: return location for a #GError
 *
 * The Kronecker product (`torch.kron`): with both padded to the same number of dims, the
 * result's element at `i · other.shape + j` is `self[i] · other[j]`. It runs as one broadcast
 * product of interleaved views, reshaped.
 *
 * Returns: (transfer full): the product, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_kron (GnnTensor *self, GnnTensor *other, GError **error)
{
  GnnTensorPrivate *pa, *pb;
  guint nd;
  gint64 sa[GNN_MAX_DIMS], sb[GNN_MAX_DIMS], so[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) ra = NULL, rb = NULL, prod = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  pa = gnn_tensor_priv (self);
  pb = gnn_tensor_priv (other);
  nd = MAX (pa->ndim, pb->ndim);
  if (2 * nd > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "kron: at most %d dimensions are supported, got %u and %u", GNN_MAX_DIMS / 2, pa->ndim, pb->ndim);
      return NULL;
    }
  for (guint i = 0; i < nd; i++)
    {
      gint64 a = i + pa->ndim >= nd ? pa->shape[i + pa->ndim - nd] : 1;
      gint64 b = i + pb->ndim >= nd ? pb->shape[i + pb->ndim - nd] : 1;

      sa[2 * i] = a;
      sa[2 * i + 1] = 1;
      sb[2 * i] = 1;
      sb[2 * i + 1] = b;
      so[i] = a * b;
    }
  if (!(ra = gnn_tensor_reshape (self, sa, 2 * nd, error)) || !(rb = gnn_tensor_reshape (other, sb, 2 * nd, error)) ||
      !(prod = gnn_tensor_mul (ra, rb, error)))
    return NULL;
  return gnn_tensor_reshape (prod, so, nd, error);
}
