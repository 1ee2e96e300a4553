/* test-op-observer.c: the FLOP formulas of the op table and the op observers of the kernel
 * dispatcher (gnn-backend-private.h)
 *
 * Runs both with the default backends and with GNN_BACKEND=reference: the observers see the
 * kernels of whichever backend serves the cpu device.
 */
#include "config.h"

#include "gnn-test-util.h"
#include "backend/gnn-backend-impl.h"
#include "core/gnn-tensor-private.h"

#define F32 GNN_DTYPE_FLOAT32
#define F64 GNN_DTYPE_FLOAT64
#define I64 GNN_DTYPE_INT64
#define OP(x) GNN_BACKEND_OP_##x

/* ---- FLOP formulas ------------------------------------------------------------------ */

static void
test_flops (void)
{
  /* only shapes count: the data pointers stay NULL */
  GnnKernelTensor a = { NULL, F32, 3, { 2, 3, 4 } };    /* (batch, m, k) */
  GnnKernelTensor b = { NULL, F32, 3, { 2, 4, 5 } };    /* (batch, k, n) */
  GnnKernelTensor c = { NULL, F32, 3, { 2, 3, 5 } };    /* (batch, m, n) */
  GnnKernelTensor x = { NULL, F32, 4, { 2, 3, 6, 7 } };
  GnnKernelTensor pooled = { NULL, F32, 4, { 2, 3, 3, 6 } };
  GnnKernelTensor scalar = { NULL, F32, 0 };
  GnnKernelTensor pairs_out[2] = { { NULL, F32, 2, { 3, 4 } }, { NULL, F32, 1, { 5 } } };
  GnnKernelTensor pairs_in[2] = { { NULL, F32, 2, { 3, 4 } }, { NULL, F32, 1, { 5 } } };
  GnnKernelArgs args = { 0 };

  args.op = OP (GEMM);
  args.out = &c;
  args.in[0] = &a;
  args.in[1] = &b;
  args.n_in = 2;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 2 * 2 * 3 * 5 * 4);

  /* elementwise: one per element of out */
  args.op = OP (ADD);
  args.in[0] = args.in[1] = &c;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 30);
  args.op = OP (GELU_BACKWARD);
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 30);
  args.out = &scalar;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 1);
  /* moving or choosing values costs none */
  args.op = OP (COPY);
  args.out = &c;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 0);
  args.op = OP (WHERE);
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 0);

  /* reductions: per element of in0 and pass */
  memset (&args, 0, sizeof args);
  args.op = OP (SUM);
  args.out = &scalar;
  args.in[0] = &a;
  args.n_in = 1;
  args.params.reduce = (GnnKernelReduce) { 2, 3, 4, 0 };
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 24);
  args.op = OP (VAR);
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 48);
  args.op = OP (SOFTMAX);
  args.out = &a;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 72);

  /* windows: kh · kw per pooled element forward, per gradient element backward */
  memset (&args, 0, sizeof args);
  args.op = OP (MAX_POOL2D);
  args.out = &pooled;
  args.in[0] = &x;
  args.n_in = 1;
  args.params.window = (GnnKernelWindow) { { 3, 2 }, { 2, 1 }, { 1, 1 }, { 1, 1 } };
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 2 * 3 * 3 * 6 * 3 * 2);
  args.op = OP (AVG_POOL2D_BACKWARD);
  args.out = &x;
  args.in[0] = &pooled;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 2 * 3 * 3 * 6 * 3 * 2);
  args.op = OP (COL2IM);
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 2 * 3 * 3 * 6);
  args.op = OP (IM2COL);
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 0);

  /* batch normalisation: the backward form of CHANNEL_AFFINE (with in2) does twice the work */
  memset (&args, 0, sizeof args);
  args.op = OP (CHANNEL_AFFINE);
  args.out = &c;
  args.in[0] = &c;
  args.in[1] = &b;
  args.n_in = 2;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 2 * 30);
  args.in[2] = &c;
  args.n_in = 3;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 4 * 30);

  /* multi-tensor kernels: the elements of every pair */
  memset (&args, 0, sizeof args);
  args.op = OP (FOREACH_LERP);
  args.list_out = pairs_out;
  args.list_in = pairs_in;
  args.n_list = 2;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 12 + 5);

  /* a malformed call (observers see calls before any backend checks them) counts as empty */
  memset (&args, 0, sizeof args);
  for (int op = 0; op <= GNN_BACKEND_OP_N_OPS; op++)
    {
      args.op = op;
      g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 0);
    }
  args.op = OP (GEMM);
  args.out = &c;
  args.in[0] = &x;                                       /* not 3-d */
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 0);
}

/* ---- observers ---------------------------------------------------------------------- */

/* what an observer saw of one call */
typedef struct {
  GnnOpEventPhase phase;
  GnnBackendOp op;
  GnnBackend *backend;
  char *device_type;
  guint device;
  const GnnKernelArgs *args;
  guint ndim_out;
  gint64 shape_out[GNN_MAX_DIMS];
  guint64 flops;
  gboolean ok;
  GQuark error_domain;
  int error_code;
} Seen;

typedef struct {
  GArray *seen;         /* of Seen */
  guint destroyed;
  /* when set, the observer runs a kernel of its own before each call it sees */
  gboolean run_own_kernel;
} Log;

static void
seen_clear (gpointer data)
{
  g_free (((Seen *) data)->device_type);
}

static void
log_init (Log *log)
{
  memset (log, 0, sizeof *log);
  log->seen = g_array_new (FALSE, TRUE, sizeof (Seen));
  g_array_set_clear_func (log->seen, seen_clear);
}

static void
log_destroyed (gpointer data)
{
  ((Log *) data)->destroyed++;
}

static void
record (const GnnOpEvent *event,
        gpointer          user_data)
{
  Log *log = user_data;
  Seen s = { 0 };

  s.phase = event->phase;
  s.op = event->args->op;
  s.backend = event->backend;
  s.device_type = g_strdup (event->device_type);
  s.device = event->device;
  s.args = event->args;
  if (event->args->out)
    {
      s.ndim_out = event->args->out->ndim;
      memcpy (s.shape_out, event->args->out->shape, sizeof s.shape_out);
    }
  s.flops = event->flops;
  s.ok = event->ok;
  if (event->error)
    {
      s.error_domain = event->error->domain;
      s.error_code = event->error->code;
    }
  g_array_append_val (log->seen, s);
  if (log->run_own_kernel && event->phase == GNN_OP_EVENT_BEFORE)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) t = gnn_tensor_new_zeros (GNN_TEST_SHAPE (4), 1, F32, NULL, &error);

      g_assert_no_error (error);
    }
}

static Seen *
seen_at (Log *log, guint i)
{
  g_assert_cmpuint (i, <, log->seen->len);
  return &g_array_index (log->seen, Seen, i);
}

/* every call seen before and then after, nothing in between */
static void
assert_paired (Log *log)
{
  g_assert_cmpuint (log->seen->len % 2, ==, 0);
  for (guint i = 0; i < log->seen->len; i += 2)
    {
      Seen *before = seen_at (log, i), *after = seen_at (log, i + 1);

      g_assert_cmpint (before->phase, ==, GNN_OP_EVENT_BEFORE);
      g_assert_cmpint (after->phase, ==, GNN_OP_EVENT_AFTER);
      g_assert_true (before->args == after->args);
      g_assert_cmpint (before->op, ==, after->op);
      g_assert_cmpuint (before->flops, ==, after->flops);
      g_assert_false (before->ok);
    }
}

static GnnBackend *
cpu_backend (void)
{
  g_autoptr(GError) error = NULL;
  GnnBackend *b = gnn_backend_get_for_device_type ("cpu", &error);

  g_assert_no_error (error);
  return b;
}

static void
test_observe_ops (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_tensor_new_ones (GNN_TEST_SHAPE (2, 3), 2, F32, NULL, &error);
  g_autoptr(GnnTensor) b = gnn_tensor_new_ones (GNN_TEST_SHAPE (3, 4), 2, F32, NULL, &error);
  g_autoptr(GnnTensor) c = NULL, d = NULL;
  Log log;
  guint id, n_gemm = 0;

  g_assert_no_error (error);
  log_init (&log);
  id = gnn_op_observer_add (record, &log, log_destroyed);
  g_assert_cmpuint (id, >, 0);

  c = gnn_tensor_matmul (a, b, &error);
  g_assert_no_error (error);
  assert_paired (&log);
  for (guint i = 0; i < log.seen->len; i++)
    {
      Seen *s = seen_at (&log, i);

      g_assert_true (s->backend == cpu_backend ());
      g_assert_cmpstr (s->device_type, ==, "cpu");
      g_assert_cmpuint (s->device, ==, 0);
      if (s->op != OP (GEMM))
        continue;
      n_gemm++;
      /* a (2, 3) · (3, 4) product, as one batch: 2 · m · n · k */
      g_assert_cmpuint (s->flops, ==, 2 * 2 * 4 * 3);
      g_assert_cmpuint (s->ndim_out, ==, 3);
      g_assert_cmpint (s->shape_out[0], ==, 1);
      g_assert_cmpint (s->shape_out[1], ==, 2);
      g_assert_cmpint (s->shape_out[2], ==, 4);
      if (s->phase == GNN_OP_EVENT_AFTER)
        {
          g_assert_true (s->ok);
          g_assert_cmpuint (s->error_domain, ==, 0);
        }
    }
  g_assert_cmpuint (n_gemm, ==, 2);

  /* an elementwise op: numel (out) */
  g_array_set_size (log.seen, 0);
  d = gnn_tensor_add (c, c, 1.0, &error);
  g_assert_no_error (error);
  assert_paired (&log);
  g_assert_cmpuint (log.seen->len, ==, 2);
  g_assert_cmpint (seen_at (&log, 0)->op, ==, OP (ADD));
  g_assert_cmpuint (seen_at (&log, 0)->flops, ==, 8);

  /* removed: nothing more is seen, and the destroy notify ran once */
  gnn_op_observer_remove (id);
  g_assert_cmpuint (log.destroyed, ==, 1);
  g_array_set_size (log.seen, 0);
  g_clear_object (&d);
  d = gnn_tensor_add (c, c, 1.0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (log.seen->len, ==, 0);
  g_array_unref (log.seen);
}

/* a kernel that fails: the observer sees its error after it, and the caller still gets it */
static void
test_observe_error (void)
{
  g_autoptr(GError) error = NULL;
  GnnBackendEntry *entry = gnn_backend_entry_lookup (cpu_backend ());
  gint64 num[2] = { 7, 8 }, den[2] = { 2, 0 }, quo[2] = { 0, 0 };
  GnnKernelTensor kn = { num, I64, 1, { 2 }, { 1 } };
  GnnKernelTensor kd = { den, I64, 1, { 2 }, { 1 } };
  GnnKernelTensor kq = { quo, I64, 1, { 2 }, { 1 } };
  GnnKernelArgs args = { OP (DIV), &kq, NULL, { &kn, &kd }, 2 };
  Log log;
  guint id;

  g_assert_nonnull (entry);
  log_init (&log);
  id = gnn_op_observer_add (record, &log, NULL);
  g_assert_false (gnn_backend_entry_run (entry, 0, &args, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (log.seen->len, ==, 2);
  assert_paired (&log);
  g_assert_false (seen_at (&log, 1)->ok);
  g_assert_cmpuint (seen_at (&log, 1)->error_domain, ==, GNN_ERROR);
  g_assert_cmpint (seen_at (&log, 1)->error_code, ==, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (seen_at (&log, 1)->flops, ==, 2);

  /* a caller that ignores errors still gets the events */
  g_assert_false (gnn_backend_entry_run (entry, 0, &args, NULL));
  g_assert_cmpuint (log.seen->len, ==, 4);
  g_assert_cmpint (seen_at (&log, 3)->error_code, ==, GNN_ERROR_INVALID_ARGUMENT);

  /* and a call that succeeds */
  den[1] = 3;
  g_clear_error (&error);
  g_assert_true (gnn_backend_entry_run (entry, 0, &args, &error));
  g_assert_no_error (error);
  g_assert_true (seen_at (&log, 5)->ok);
  g_assert_cmpint (quo[0], ==, 3);
  g_assert_cmpint (quo[1], ==, 2);
  gnn_op_observer_remove (id);
  g_array_unref (log.seen);
}

/* Two observers see each call in the order they were added; the kernels an observer runs
 * itself are not observed (by it or the other). */
static void
test_observe_nested (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_tensor_new_ones (GNN_TEST_SHAPE (5), 1, F64, NULL, &error);
  g_autoptr(GnnTensor) b = NULL;
  Log first, second;
  guint id1, id2;

  g_assert_no_error (error);
  log_init (&first);
  log_init (&second);
  first.run_own_kernel = TRUE;
  id1 = gnn_op_observer_add (record, &first, log_destroyed);
  id2 = gnn_op_observer_add (record, &second, log_destroyed);
  g_assert_cmpuint (id2, !=, id1);

  b = gnn_tensor_mul (a, a, &error);
  g_assert_no_error (error);
  /* the zeros the first observer made (a FILL) appear in neither log */
  g_assert_cmpuint (first.seen->len, ==, 2);
  g_assert_cmpuint (second.seen->len, ==, 2);
  assert_paired (&first);
  assert_paired (&second);
  g_assert_cmpint (seen_at (&first, 0)->op, ==, OP (MUL));
  g_assert_cmpint (seen_at (&second, 0)->op, ==, OP (MUL));

  gnn_op_observer_remove (id1);
  g_assert_cmpuint (first.destroyed, ==, 1);
  g_assert_cmpuint (second.destroyed, ==, 0);
  g_clear_object (&b);
  b = gnn_tensor_mul (a, a, &error);
  g_assert_cmpuint (first.seen->len, ==, 2);
  g_assert_cmpuint (second.seen->len, ==, 4);
  gnn_op_observer_remove (id2);
  g_assert_cmpuint (second.destroyed, ==, 1);
  g_array_unref (first.seen);
  g_array_unref (second.seen);
}

/* ---- threads: calls on several threads while observers come and go ------------------ */

#define N_THREADS 3
#define N_CALLS 200

static void
count_calls (const GnnOpEvent *event,
             gpointer          user_data)
{
  if (event->phase == GNN_OP_EVENT_BEFORE && event->args->op == OP (SUB))
    g_atomic_int_inc ((gint *) user_data);
}

static gpointer
run_subs (gpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_tensor_new_ones (GNN_TEST_SHAPE (3), 1, F32, NULL, &error);

  g_assert_no_error (error);
  for (int i = 0; i < N_CALLS; i++)
    {
      g_autoptr(GnnTensor) b = gnn_tensor_sub (a, a, 1.0, &error);
      g_assert_no_error (error);
    }
  return NULL;
}

static void
test_observe_threads (void)
{
  GThread *threads[N_THREADS];
  gint steady = 0, churn = 0;
  guint id;

  id = gnn_op_observer_add (count_calls, &steady, NULL);
  for (int t = 0; t < N_THREADS; t++)
    threads[t] = g_thread_new ("subs", run_subs, NULL);
  /* another observer added and removed while the threads run */
  for (int i = 0; i < 50; i++)
    gnn_op_observer_remove (gnn_op_observer_add (count_calls, &churn, NULL));
  for (int t = 0; t < N_THREADS; t++)
    g_thread_join (threads[t]);
  gnn_op_observer_remove (id);
  /* the steady observer saw every call, the other at most all of them */
  g_assert_cmpint (g_atomic_int_get (&steady), ==, N_THREADS * N_CALLS);
  g_assert_cmpint (g_atomic_int_get (&churn), <=, N_THREADS * N_CALLS);
}

/* ---- cost: what the observer point adds to a kernel call --------------------------- */

#define COST_CALLS 2000000
#define COST_BATCHES 11

typedef struct {
  GnnBackendEntry *entry;
  GnnKernelArgs args;
} CostCall;

/* the dispatch as it was before the observer point: count, call */
static void
calls_unobservable (CostCall *c)
{
  for (int i = 0; i < COST_CALLS; i++)
    {
      c->entry->counts[c->args.op]++;
      if (!c->entry->funcs->run (c->entry->backend, 0, &c->args, NULL))
        g_error ("the kernel failed");
    }
}

static void
calls_dispatched (CostCall *c)
{
  for (int i = 0; i < COST_CALLS; i++)
    if (!gnn_backend_entry_run (c->entry, 0, &c->args, NULL))
      g_error ("the kernel failed");
}

static void
ignore_call (const GnnOpEvent *event, gpointer user_data)
{
}

static int
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* ns per call of the three, the median of alternating batches */
static void
measure_costs (CostCall *c, double ns[3])
{
  double t[3][COST_BATCHES];
  guint id = 0;

  for (int b = 0; b < COST_BATCHES; b++)
    for (int k = 0; k < 3; k++)
      {
        gint64 t0;

        if (k == 2)
          id = gnn_op_observer_add (ignore_call, NULL, NULL);
        t0 = g_get_monotonic_time ();
        if (k == 0)
          calls_unobservable (c);
        else
          calls_dispatched (c);
        t[k][b] = (g_get_monotonic_time () - t0) * 1e3 / COST_CALLS;
        if (k == 2)
          gnn_op_observer_remove (id);
      }
  for (int k = 0; k < 3; k++)
    {
      qsort (t[k], COST_BATCHES, sizeof (double), cmp_double);
      ns[k] = t[k][COST_BATCHES / 2];
    }
}

/* Performance only (-m perf): a one-element FILL through the dispatcher without an observer
 * costs what it cost before the observer point existed (one branch more), and with one. Run
 * it with: build/tests/c/test-op-observer -m perf -p /op-observer/cost */
static void
test_observe_cost (void)
{
  float value = 0;
  GnnKernelTensor out = { &value, F32, 1, { 1 }, { 1 } };
  CostCall c = { gnn_backend_entry_lookup (cpu_backend ()), { OP (FILL), &out } };
  double ns[3];

  if (!g_test_perf ())
    {
      g_test_skip ("a measurement: run with -m perf");
      return;
    }
  c.args.params.fill.value = 2.5;
  calls_dispatched (&c);                                 /* warm up */
  measure_costs (&c, ns);
  g_test_message ("one-element FILL on %s: %.1f ns a call dispatched as before the observer point, "
                  "%.1f ns through gnn_backend_entry_run with no observer (%+.1f%%), %.1f ns with one",
                  gnn_backend_get_name (cpu_backend ()), ns[0], ns[1], 100.0 * (ns[1] - ns[0]) / ns[0], ns[2]);
  g_test_minimized_result (ns[1], "%.1f ns a call with no observer", ns[1]);
  g_assert_cmpfloat (value, ==, 2.5f);
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);
  gnn_set_grad_enabled (FALSE);

  g_test_add_func ("/op-observer/flops", test_flops);
  g_test_add_func ("/op-observer/ops", test_observe_ops);
  g_test_add_func ("/op-observer/error", test_observe_error);
  g_test_add_func ("/op-observer/nested", test_observe_nested);
  g_test_add_func ("/op-observer/threads", test_observe_threads);
  g_test_add_func ("/op-observer/cost", test_observe_cost);

  return g_test_run ();
}
