/* test-process-group.c: GnnProcessGroup and the default group
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * `test-process-group errors` runs in one process without MPI: the errors before
 * init_process_group and of unknown backends. `test-process-group mpi` runs under
 * `mpirun -np N` (run-mpi.sh): every collective (synchronous and through work handles),
 * send/recv and new_group against a hand-computed result, on every rank.
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

static GnnTensor *
int64s (const gint64 *v, gsize n)
{
  gint64 shape[1] = { (gint64) n };
  return gnn_tensor_new_from_int64s (v, n, shape, 1, NULL);
}

static gboolean
int64s_equal (GnnTensor *t, const gint64 *want, gsize n)
{
  gsize got_n = 0;
  g_autofree gint64 *got = gnn_tensor_to_int64s (t, &got_n, NULL);

  if (got == NULL || got_n != n)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (got[i] != want[i])
      return FALSE;
  return TRUE;
}

static gboolean
wait_ok (GnnWork *work)
{
  g_autoptr(GError) error = NULL;
  gboolean ok = gnn_work_wait (work, &error);

  if (!ok)
    fprintf (stderr, "rank %d: wait failed: %s\n", rank, error->message);
  g_object_unref (work);
  return ok;
}

/* wait fails with @code (and @needle in the message) */
static gboolean
wait_fails (GnnWork *work, int code, const char *needle)
{
  g_autoptr(GError) error = NULL;
  gboolean ok = !gnn_work_wait (work, &error) && g_error_matches (error, GNN_ERROR, code) &&
                (needle == NULL || strstr (error->message, needle) != NULL);

  if (!ok)
    fprintf (stderr, "rank %d: expected error %d (%s), got %s\n", rank, code, needle ? needle : "",
             error ? error->message : "success");
  g_object_unref (work);
  return ok;
}

/* the collectives of the second increment: reduce, reduce_scatter, gather, scatter,
 * all_to_all, send/recv, async work, new_group; rank r's values are r-dependent integers, so
 * that every expected result is exact */
static void
test_more (GnnProcessGroup *pg, int n)
{
  g_autoptr(GError) error = NULL;

  /* reduce to the last rank: only it changes */
  for (int op = GNN_REDUCE_OP_SUM; op <= GNN_REDUCE_OP_MAX; op++)
    {
      gint64 v[2] = { rank + 1, 3 - rank }, want[2];
      g_autoptr(GnnTensor) t = int64s (v, 2);
      want[0] = op == GNN_REDUCE_OP_PRODUCT ? 1 : op == GNN_REDUCE_OP_MIN ? G_MAXINT64 :
                op == GNN_REDUCE_OP_MAX ? G_MININT64 : 0;
      want[1] = want[0];
      for (int r = 0; r < n; r++)
        for (int i = 0; i < 2; i++)
          {
            gint64 x = i == 0 ? r + 1 : 3 - r;
            want[i] = op == GNN_REDUCE_OP_SUM ? want[i] + x : op == GNN_REDUCE_OP_PRODUCT ? want[i] * x :
                      op == GNN_REDUCE_OP_MIN ? MIN (want[i], x) : MAX (want[i], x);
          }
      CHECK (wait_ok (gnn_process_group_reduce_async (pg, t, n - 1, op)));
      CHECK (int64s_equal (t, rank == n - 1 ? want : v, 2));
    }
  {
    float v[1] = { 2.0f * rank }, want[1] = { (float) (n - 1) };
    g_autoptr(GnnTensor) t = floats (v, 1);
    CHECK (wait_ok (gnn_process_group_reduce_async (pg, t, 0, GNN_REDUCE_OP_AVG)));
    CHECK (floats_equal (t, rank == 0 ? want : v, 1));
    CHECK (wait_fails (gnn_process_group_reduce_async (pg, t, n, GNN_REDUCE_OP_SUM),
                       GNN_ERROR_INDEX, "world size"));
  }

  /* reduce_scatter: rank r's input_list[i] = [10 i + r, i * r]; output on rank r: the sums
   * over s of [10 r + s, r s] */
  {
    g_autoptr(GPtrArray) in = g_ptr_array_new_with_free_func (g_object_unref);
    gint64 zero[2] = { 0, 0 }, want[2] = { 10 * rank * n, 0 };
    g_autoptr(GnnTensor) out = int64s (zero, 2);
    for (int i = 0; i < n; i++)
      {
        gint64 v[2] = { 10 * i + rank, i * rank };
        g_ptr_array_add (in, int64s (v, 2));
      }
    for (int s = 0; s < n; s++)
      {
        want[0] += s;
        want[1] += rank * s;
      }
    CHECK (wait_ok (gnn_process_group_reduce_scatter_async (pg, out, in, GNN_REDUCE_OP_SUM)));
    CHECK (int64s_equal (out, want, 2));
    g_ptr_array_set_size (in, n - 1 + (rank == 0 ? 0 : 1));
    if (n > 1)   /* rank 0's list is one short: an error on every rank */
      CHECK (wait_fails (gnn_process_group_reduce_scatter_async (pg, out, in, GNN_REDUCE_OP_SUM),
                         GNN_ERROR_INVALID_ARGUMENT, rank == 0 ? "world size" : "rank 0"));
  }

  /* gather to rank 0, scatter from the last rank */
  {
    gint64 v[1] = { 5 * rank + 1 };
    g_autoptr(GnnTensor) t = int64s (v, 1);
    g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func (g_object_unref);
    for (int r = 0; rank == 0 && r < n; r++)
      {
        gint64 z[1] = { -1 };
        g_ptr_array_add (list, int64s (z, 1));
      }
    CHECK (wait_ok (gnn_process_group_gather_async (pg, t, rank == 0 ? list : NULL, 0)));
    for (int r = 0; rank == 0 && r < n; r++)
      {
        gint64 w[1] = { 5 * r + 1 };
        CHECK (int64s_equal (list->pdata[r], w, 1));
      }
    g_ptr_array_set_size (list, 0);
    for (int r = 0; rank == n - 1 && r < n; r++)
      {
        gint64 s[1] = { 100 + r };
        g_ptr_array_add (list, int64s (s, 1));
      }
    CHECK (wait_ok (gnn_process_group_scatter_async (pg, t, list, n - 1)));
    {
      gint64 w[1] = { 100 + rank };
      CHECK (int64s_equal (t, w, 1));
    }
    CHECK (wait_fails (gnn_process_group_scatter_async (pg, t, list, -1), GNN_ERROR_INDEX,
                       "world size"));
  }

  /* all_to_all with split sizes: rank r sends r + 1 elements [100 r + d, ...] to rank d */
  {
    g_autoptr(GPtrArray) in = g_ptr_array_new_with_free_func (g_object_unref);
    g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func (g_object_unref);
    for (int d = 0; d < n; d++)
      {
        gint64 v[8], z[8] = { 0 };
        for (int i = 0; i <= rank; i++)
          v[i] = 100 * rank + 10 * d + i;
        g_ptr_array_add (in, int64s (v, rank + 1));
        g_ptr_array_add (out, int64s (z, d + 1));
      }
    CHECK (wait_ok (gnn_process_group_all_to_all_async (pg, out, in)));
    for (int s = 0; s < n; s++)
      {
        gint64 w[8];
        for (int i = 0; i <= s; i++)
          w[i] = 100 * s + 10 * rank + i;
        CHECK (int64s_equal (out->pdata[s], w, s + 1));
      }
    if (n > 1)   /* rank 1 expects one element too many from rank 0 */
      {
        gint64 z[8] = { 0 };
        if (rank == 1)
          g_ptr_array_index (out, 0) = (g_object_unref (out->pdata[0]), int64s (z, 2));
        CHECK (wait_fails (gnn_process_group_all_to_all_async (pg, out, in), GNN_ERROR_SHAPE,
                           "split sizes"));
      }
  }

  /* async all_reduces in flight together, waited in reverse order */
  {
    GnnWork *w[3];
    GnnTensor *t[3];
    for (int i = 0; i < 3; i++)
      {
        float v[1] = { (float) (i + rank) };
        t[i] = floats (v, 1);
        w[i] = gnn_process_group_all_reduce_async (pg, t[i], GNN_REDUCE_OP_SUM);
      }
    for (int i = 2; i >= 0; i--)
      {
        float want[1] = { (float) (i * n + n * (n - 1) / 2) };
        CHECK (gnn_work_wait (w[i], &error));
        g_clear_error (&error);
        CHECK (gnn_work_is_completed (w[i]) && gnn_work_is_success (w[i]));
        CHECK (floats_equal (t[i], want, 1));
        g_object_unref (w[i]);
        g_object_unref (t[i]);
      }
    CHECK (wait_ok (gnn_process_group_barrier_async (pg)));
  }

  /* send/recv around a ring, both started before either is waited; a size mismatch */
  if (n > 1)
    {
      gint64 v[3] = { rank, rank * rank, -rank }, z[3] = { 0 };
      int next = (rank + 1) % n, prev = (rank + n - 1) % n;
      gint64 w[3] = { prev, prev * prev, -prev };
      g_autoptr(GnnTensor) t = int64s (v, 3);
      g_autoptr(GnnTensor) got = int64s (z, 3);
      g_autoptr(GnnTensor) small = int64s (z, 2);
      GnnWork *s = gnn_process_group_send_async (pg, t, next, 7);
      GnnWork *r = gnn_process_group_recv_async (pg, got, -1, 7);
      CHECK (wait_ok (g_object_ref (r)));
      CHECK (gnn_work_get_source_rank (r) == prev);
      g_object_unref (r);
      CHECK (wait_ok (s));
      CHECK (int64s_equal (got, w, 3));
      s = gnn_process_group_send_async (pg, t, next, 8);
      CHECK (wait_fails (gnn_process_group_recv_async (pg, small, prev, 8), GNN_ERROR_SHAPE,
                         "sent a larger tensor than the int64 tensor of 2"));
      CHECK (wait_ok (s));
      CHECK (wait_fails (gnn_process_group_send_async (pg, t, n, 0), GNN_ERROR_INDEX, "world size"));
      CHECK (wait_fails (gnn_process_group_recv_async (pg, t, rank, 0), GNN_ERROR_INVALID_ARGUMENT,
                         "itself"));
    }

  /* new_group of the odd ranks: their ranks in it, a collective over it; the even ranks get
   * no group */
  {
    int odd[4], n_odd = 0;
    g_autoptr(GnnProcessGroup) sub = NULL;
    for (int r = 1; r < n; r += 2)
      odd[n_odd++] = r;
    if (n_odd > 0)
      {
        sub = gnn_process_group_new_group (pg, odd, n_odd, &error);
        CHECK (error == NULL);
        g_clear_error (&error);
        CHECK ((sub != NULL) == (rank % 2 == 1));
        if (sub)
          {
            gint64 v[1] = { rank }, want[1] = { 0 };
            g_autoptr(GnnTensor) t = int64s (v, 1);
            for (int r = 1; r < n; r += 2)
              want[0] += r;
            CHECK (gnn_process_group_get_rank (sub) == rank / 2);
            CHECK (gnn_process_group_get_world_size (sub) == n_odd);
            CHECK (g_strcmp0 (gnn_process_group_get_backend (sub), "mpi") == 0);
            CHECK_OK (gnn_process_group_all_reduce (sub, t, GNN_REDUCE_OP_SUM, &error), error);
            CHECK (int64s_equal (t, want, 1));
          }
      }
    {
      int bad[1] = { n };
      CHECK (gnn_process_group_new_group (pg, bad, 1, &error) == NULL &&
             g_error_matches (error, GNN_ERROR, GNN_ERROR_INDEX) &&
             strstr (error->message, "world size") != NULL);
      g_clear_error (&error);
    }
    if (n > 1)
      {
        int mine[1] = { rank == 0 ? 0 : 1 };
        CHECK (gnn_process_group_new_group (pg, mine, 1, &error) == NULL &&
               g_error_matches (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT));
        g_clear_error (&error);
      }
  }

  /* a bad dtype on one rank only: an error on every rank, never a hang */
  if (n > 1)
    {
      gint64 shape[1] = { 2 };
      g_autoptr(GnnTensor) t = gnn_tensor_new_zeros (shape, 1, rank == 0 ? GNN_DTYPE_BOOL :
                                                     GNN_DTYPE_FLOAT32, NULL, NULL);
      CHECK (wait_fails (gnn_process_group_all_reduce_async (pg, t, GNN_REDUCE_OP_SUM),
                         rank == 0 ? GNN_ERROR_DTYPE : GNN_ERROR_INVALID_ARGUMENT,
                         rank == 0 ? "bool" : "rank 0"));
    }

  /* a receive that no send matches: the wait times out, the receive is cancelled, and the
   * work has failed with the timeout (dropping it does not hang); a rank cannot receive
   * from itself, so one rank has nothing to wait for */
  if (n > 1)
    {
      gint64 shape[1] = { 3 };
      g_autoptr(GnnTensor) t = gnn_tensor_new_zeros (shape, 1, GNN_DTYPE_FLOAT32, NULL, NULL);
      g_autoptr(GnnWork) w = gnn_process_group_recv_async (pg, t, (rank + 1) % n, 4242);
      gint64 start = g_get_monotonic_time ();
      CHECK (!gnn_work_wait_timeout (w, 100, &error));
      CHECK (g_error_matches (error, GNN_ERROR, GNN_ERROR_BACKEND) &&
             strstr (error->message, "recv: timed out waiting 100 ms") != NULL);
      g_clear_error (&error);
      CHECK (g_get_monotonic_time () - start >= 100 * G_TIME_SPAN_MILLISECOND);
      CHECK (gnn_work_is_completed (w) && !gnn_work_is_success (w));
      CHECK (!gnn_work_wait (w, &error) && error && strstr (error->message, "timed out") != NULL);
      g_clear_error (&error);
    }
  /* a timeout long enough: the same as a wait */
  {
    gint64 v[1] = { rank + 1 }, want[1] = { 0 };
    g_autoptr(GnnTensor) t = int64s (v, 1);
    g_autoptr(GnnWork) w = gnn_process_group_all_reduce_async (pg, t, GNN_REDUCE_OP_SUM);
    for (int r = 0; r < n; r++)
      want[0] += r + 1;
    CHECK_OK (gnn_work_wait_timeout (w, 60000, &error), error);
    CHECK (int64s_equal (t, want, 1));
  }
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
  test_more (pg, n);

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
