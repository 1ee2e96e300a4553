/* test-process-group.c: GnnProcessGroup and the default group
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * `test-process-group errors` runs in one process without MPI: the errors before
 * init_process_group and of unknown backends. `test-process-group mpi` runs under
 * `mpirun -np N` (run-mpi.sh): every collective against a hand-computed result, on every rank.
 * Exit status 0 when every check passed on this rank.
 */
#include <string.h>
#include <stdio.h>
#include <math.h>

#include <gnn/gnn.h>

static int failures;
static int rank = -1;

#define CHECK(cond) \
  G_STMT_START { if (!(cond)) { failures++; \
    fprintf (stderr, "rank %d: %s:%d: check failed: %s\n", rank, __FILE__, __LINE__, #cond); } } G_STMT_END

#define CHECK_OK(call, err) \
  G_STMT_START { if (!(call)) { failures++; \
    fprintf (stderr, "rank %d: %s:%d: %s failed: %s\n", rank, __FILE__, __LINE__, #call, \
             (err) ? (err)->message : "(no error)"); } g_clear_error (&(err)); } G_STMT_END

static int
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnProcessGroup) g = NULL;

  CHECK (!gnn_distributed_is_initialized ());
  CHECK (gnn_distributed_get_rank (&error) == -1);
  CHECK (g_error_matches (error, GNN_ERROR, GNN_ERROR_FAILED));
  CHECK (error && strstr (error->message, "init_process_group") != NULL);
  g_clear_error (&error);
  CHECK (gnn_distributed_get_world_size (&error) == -1 && error != NULL);
  g_clear_error (&error);
  CHECK (gnn_distributed_get_default_group (&error) == NULL && error != NULL);
  g_clear_error (&error);
  CHECK (!gnn_distributed_destroy_process_group (&error) && error != NULL);
  g_clear_error (&error);

  CHECK (!gnn_distributed_init_process_group ("nosuch", &error));
  CHECK (g_error_matches (error, GNN_ERROR, GNN_ERROR_BACKEND));
  CHECK (error && strstr (error->message, "Invalid backend 'nosuch'") != NULL);
  g_clear_error (&error);
  CHECK (!gnn_distributed_is_initialized ());
  g = gnn_process_group_load ("../mpi", &error);
  CHECK (g == NULL && g_error_matches (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT));
  g_clear_error (&error);
  g = gnn_process_group_load ("", &error);
  CHECK (g == NULL && g_error_matches (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT));
  return failures ? 1 : 0;
}

static GnnTensor *
floats (const float *v, gsize n)
{
  gint64 shape[1] = { (gint64) n };
  return gnn_tensor_new_from_floats (v, n, shape, 1, NULL);
}

static gboolean
floats_equal (GnnTensor *t, const float *want, gsize n)
{
  gsize got_n = 0;
  g_autofree float *got = gnn_tensor_to_floats (t, &got_n, NULL);

  if (got == NULL || got_n != n)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (fabsf (got[i] - want[i]) > 1e-6f * MAX (1.0f, fabsf (want[i])))
      return FALSE;
  return TRUE;
}

static int
test_mpi (void)
{
  g_autoptr(GError) error = NULL;
  GnnProcessGroup *pg;
  int n;

  CHECK_OK (gnn_distributed_init_process_group ("mpi", &error), error);
  if (failures)
    return 1;
  CHECK (gnn_distributed_is_initialized ());
  rank = gnn_distributed_get_rank (NULL);
  n = gnn_distributed_get_world_size (NULL);
  CHECK (n >= 1 && rank >= 0 && rank < n);
  pg = gnn_distributed_get_default_group (NULL);
  CHECK (g_strcmp0 (gnn_process_group_get_backend (pg), "mpi") == 0);
  CHECK (!gnn_distributed_init_process_group ("mpi", &error) &&
         g_error_matches (error, GNN_ERROR, GNN_ERROR_FAILED));
  g_clear_error (&error);

  /* all_reduce, float32: rank r holds [r + 1, 2 r, -r] */
  {
    float mine[3] = { rank + 1.0f, 2.0f * rank, -(float) rank };
    float prod = 1, sum1 = 0, sum2 = 0;
    for (int r = 0; r < n; r++)
      {
        prod *= r + 1;
        sum1 += r + 1;
        sum2 += 2 * r;
      }
    struct { GnnReduceOp op; float want[3]; } cases[] = {
      { GNN_REDUCE_OP_SUM, { sum1, sum2, -sum2 / 2 } },
      { GNN_REDUCE_OP_AVG, { sum1 / n, sum2 / n, -sum2 / 2 / n } },
      { GNN_REDUCE_OP_MAX, { (float) n, 2.0f * (n - 1), 0 } },
      { GNN_REDUCE_OP_MIN, { 1, 0, -(float) (n - 1) } },
      { GNN_REDUCE_OP_PRODUCT, { prod, n == 1 ? 0 : 0, n == 1 ? 0 : 0 } },
    };
    for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
      {
        g_autoptr(GnnTensor) t = floats (mine, 3);
        CHECK_OK (gnn_process_group_all_reduce (pg, t, cases[c].op, &error), error);
        if (!floats_equal (t, cases[c].want, 3))
          {
            failures++;
            fprintf (stderr, "rank %d: all_reduce op %d: got %s\n", rank, cases[c].op,
                     gnn_tensor_to_string (t));
          }
      }
  }

  /* float64 and int64 sums */
  {
    double d[2] = { 0.5 * rank, 1e-3 };
    gint64 shape[1] = { 2 };
    g_autoptr(GnnTensor) t = gnn_tensor_new_from_doubles (d, 2, shape, 1, NULL);
    g_autofree double *got = NULL;
    gint64 iv[2] = { rank, (gint64) 1 << 40 };
    g_autoptr(GnnTensor) it = gnn_tensor_new_from_int64s (iv, 2, shape, 1, NULL);
    g_autofree gint64 *igot = NULL;

    CHECK_OK (gnn_process_group_all_reduce (pg, t, GNN_REDUCE_OP_SUM, &error), error);
    got = gnn_tensor_to_doubles (t, NULL, NULL);
    CHECK (fabs (got[0] - 0.25 * n * (n - 1)) < 1e-12 && fabs (got[1] - 1e-3 * n) < 1e-15);
    CHECK_OK (gnn_process_group_all_reduce (pg, it, GNN_REDUCE_OP_SUM, &error), error);
    igot = gnn_tensor_to_int64s (it, NULL, NULL);
    CHECK (igot[0] == (gint64) n * (n - 1) / 2 && igot[1] == ((gint64) n << 40));
    CHECK (!gnn_process_group_all_reduce (pg, it, GNN_REDUCE_OP_AVG, &error) &&
           g_error_matches (error, GNN_ERROR, GNN_ERROR_DTYPE));
    g_clear_error (&error);
  }

  /* a non-contiguous tensor is reduced in its own layout */
  {
    float v[6] = { 0, 1, 2, 3, 4, 5 };
    gint64 shape[2] = { 2, 3 };
    g_autoptr(GnnTensor) base = gnn_tensor_new_from_floats (v, 6, shape, 2, NULL);
    g_autoptr(GnnTensor) tt = gnn_tensor_t (base, NULL);
    float want[6];
    CHECK_OK (gnn_process_group_all_reduce (pg, tt, GNN_REDUCE_OP_SUM, &error), error);
    for (int i = 0; i < 6; i++)
      want[i] = v[i] * n;
    CHECK (floats_equal (base, want, 6));
  }

  /* broadcast from the last rank */
  {
    float mine[2] = { (float) rank, 7.0f * rank }, want[2] = { n - 1.0f, 7.0f * (n - 1) };
    g_autoptr(GnnTensor) t = floats (mine, 2);
    CHECK_OK (gnn_process_group_broadcast (pg, t, n - 1, &error), error);
    CHECK (floats_equal (t, want, 2));
    CHECK (!gnn_process_group_broadcast (pg, t, n, &error) &&
           g_error_matches (error, GNN_ERROR, GNN_ERROR_INDEX));
    g_clear_error (&error);
  }

  /* all_gather */
  {
    gint64 iv[2] = { rank, 10 * rank };
    gint64 shape[1] = { 2 };
    g_autoptr(GnnTensor) t = gnn_tensor_new_from_int64s (iv, 2, shape, 1, NULL);
    g_autoptr(GPtrArray) all = gnn_process_group_all_gather (pg, t, &error);
    CHECK (all != NULL && all->len == (guint) n);
    g_clear_error (&error);
    for (int r = 0; all && r < n; r++)
      {
        g_autofree gint64 *got = gnn_tensor_to_int64s (all->pdata[r], NULL, NULL);
        CHECK (got[0] == r && got[1] == 10 * r);
      }
  }

  CHECK_OK (gnn_process_group_barrier (pg, &error), error);

  /* mismatched sizes: a GError on every rank, and the group still works afterwards */
  if (n > 1)
    {
      float v[3] = { 1, 2, 3 }, want[3] = { n, 2.0f * n, 3.0f * n };
      g_autoptr(GnnTensor) t = floats (v, rank == 0 ? 2 : 3);
      g_autoptr(GnnTensor) u = floats (v, 3);
      CHECK (!gnn_process_group_all_reduce (pg, t, GNN_REDUCE_OP_SUM, &error));
      CHECK (g_error_matches (error, GNN_ERROR, GNN_ERROR_SHAPE));
      CHECK (error && strstr (error->message, "same size") != NULL);
      g_clear_error (&error);
      CHECK (!gnn_process_group_broadcast (pg, u, rank == 0 ? 0 : 1, &error) &&
             g_error_matches (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT));
      g_clear_error (&error);
      CHECK_OK (gnn_process_group_all_reduce (pg, u, GNN_REDUCE_OP_SUM, &error), error);
      CHECK (floats_equal (u, want, 3));
    }

  CHECK_OK (gnn_distributed_destroy_process_group (&error), error);
  CHECK (!gnn_distributed_is_initialized ());
  CHECK (!gnn_distributed_init_process_group ("mpi", &error) &&
         g_error_matches (error, GNN_ERROR, GNN_ERROR_BACKEND));
  g_clear_error (&error);
  if (failures == 0)
    printf ("rank %d of %d: every check passed\n", rank, n);
  return failures ? 1 : 0;
}

int
main (int argc, char **argv)
{
  if (argc == 2 && strcmp (argv[1], "errors") == 0)
    return test_errors ();
  if (argc == 2 && strcmp (argv[1], "mpi") == 0)
    return test_mpi ();
  fprintf (stderr, "usage: %s errors|mpi\n", argv[0]);
  return 2;
}
