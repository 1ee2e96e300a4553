/* test-backend.c: the backend registry, backend modules, and what the reference kernels must
 * get right on their own (test-backend-ops compares every kernel with them)
 *
 * Runs both with the default backends and with GNN_BACKEND=reference; "in use" below is the
 * backend serving the cpu device in this run, "other" the one that does not.
 */
#include "config.h"

#include <unistd.h>
#include <glib/gstdio.h>

#include "gnn-test-util.h"
#include "backend/gnn-backend-impl.h"
#include "core/gnn-dtype-private.h"
#include "core/gnn-philox-private.h"
/* gnn_tensor_new_on (): there is no public way to put a tensor on a backend that does not
 * serve its device type (both backends here serve "cpu"), so the mixing test uses the private one */
#include "core/gnn-tensor-private.h"

static GnnBackend *
backend_in_use (void)
{
  g_autoptr(GError) error = NULL;
  GnnBackend *b = gnn_backend_get_for_device_type ("cpu", &error);

  g_assert_no_error (error);
  return b;
}

/* the cpu-type backend that is not in use */
static GnnBackend *
backend_other (void)
{
  const char *used = gnn_backend_get_name (backend_in_use ());
  return gnn_test_backend_named (g_str_equal (used, "cpu") ? "reference" : "cpu");
}

static const GnnBackendFuncs *
funcs_of (GnnBackend *b)
{
  return GNN_BACKEND_GET_IFACE (b)->get_funcs (b);
}

/* ---- the registry ------------------------------------------------------------------- */

static void
test_list (void)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = gnn_backend_list_names ();
  const char *wanted = g_getenv ("GNN_BACKEND");
  int cpu_at = -1, ref_at = -1;

  for (int i = 0; names[i]; i++)
    {
      if (g_str_equal (names[i], "cpu"))
        cpu_at = i;
      if (g_str_equal (names[i], "reference"))
        ref_at = i;
    }
  g_assert_cmpint (cpu_at, >=, 0);
  g_assert_cmpint (ref_at, >=, 0);
  /* priority order: the built-in cpu (0) before the reference (-10) */
  g_assert_cmpint (cpu_at, <, ref_at);

  for (guint i = 0; i < 2; i++)
    {
      GnnBackend *b = gnn_test_backend_named (i == 0 ? "cpu" : "reference");
      g_autofree char *desc = gnn_backend_get_device_description (b, 0);
      g_autofree char *none = gnn_backend_get_device_description (b, 1);

      g_assert_cmpstr (gnn_backend_get_name (b), ==, i == 0 ? "cpu" : "reference");
      g_assert_cmpstr (gnn_backend_get_device_type (b), ==, "cpu");
      g_assert_cmpuint (gnn_backend_get_device_count (b), ==, 1);
      g_assert_nonnull (desc);
      g_assert_null (none);
      g_assert_true (gnn_backend_synchronize (b, 0, &error));
      g_assert_no_error (error);
      g_assert_true (funcs_of (b)->is_host);
    }

  g_assert_cmpstr (gnn_backend_get_name (backend_in_use ()), ==,
                   wanted && g_str_equal (wanted, "reference") ? "reference" : "cpu");
  g_assert_null (gnn_backend_get_by_name ("no-such-backend", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_BACKEND);
  g_assert_nonnull (strstr (error->message, "no-such-backend"));
}

/* the line of @text that describes backend @name */
static char *
line_of (const char *text, const char *name)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i]; i++)
    {
      g_autofree char *stripped = g_strstrip (g_strdup (lines[i]));
      if (g_str_has_prefix (stripped, name) && stripped[strlen (name)] == ' ')
        return g_strdup (lines[i]);
    }
  return NULL;
}

static void
test_describe (void)
{
  g_autofree char *text = gnn_backend_describe_available ();
  g_autofree char *cpu = line_of (text, "cpu");
  g_autofree char *ref = line_of (text, "reference");
  gboolean ref_in_use = g_str_equal (gnn_backend_get_name (backend_in_use ()), "reference");

  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "GNN_BACKEND"));
  g_assert_nonnull (cpu);
  g_assert_nonnull (ref);
  g_assert_nonnull (strstr (cpu, "device type 'cpu'"));
  g_assert_nonnull (strstr (ref, "device type 'cpu'"));
  /* exactly one of them serves the cpu device */
  g_assert_cmpint (strstr (ref, "(in use)") != NULL, ==, ref_in_use);
  g_assert_cmpint (strstr (cpu, "(in use)") != NULL, ==, !ref_in_use);
  g_assert_nonnull (strstr (text, "cpu:0"));
}

/* Runs this test again in a child whose GNN_BACKEND is @value (NULL: unset). The child's
 * registry starts under that value, since gnn_test_init () already uses it. */
static void
trap_with_backend_env (const char *value)
{
  g_autofree char *saved = g_strdup (g_getenv ("GNN_BACKEND"));

  if (value)
    g_setenv ("GNN_BACKEND", value, TRUE);
  else
    g_unsetenv ("GNN_BACKEND");
  g_test_trap_subprocess (NULL, 0, 0);
  if (saved)
    g_setenv ("GNN_BACKEND", saved, TRUE);
  else
    g_unsetenv ("GNN_BACKEND");
}

static void
test_help (void)
{
  if (g_test_subprocess ())
    {
      /* GNN_BACKEND=help: the list went to stderr when the registry started; the defaults serve */
      g_assert_cmpstr (gnn_backend_get_name (backend_in_use ()), ==, "cpu");
      return;
    }
  trap_with_backend_env ("help");
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("*gnn backends*cpu*device type 'cpu'*(in use)*reference*device type 'cpu'*");
}

/* GNN_BACKEND naming no backend: the registry says so on stderr and falls back to the
 * defaults, and a test run (gnn_test_init) refuses to pass on the wrong backend. */
static void
test_unknown_name (void)
{
  if (g_test_subprocess ())
    return;
  trap_with_backend_env ("no-such-backend");
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*GNN_BACKEND=no-such-backend names no available backend; using the defaults*");
}

static void
test_choose (void)
{
  if (g_test_subprocess ())
    {
      const char *wanted = g_getenv ("GNN_BACKEND");
      g_autofree char *text = gnn_backend_describe_available ();
      g_autofree char *line = line_of (text, wanted);

      g_assert_cmpstr (gnn_backend_get_name (backend_in_use ()), ==, wanted);
      g_assert_nonnull (line);
      g_assert_nonnull (strstr (line, "(in use)"));
      return;
    }
  trap_with_backend_env ("reference");
  g_test_trap_assert_passed ();
  trap_with_backend_env ("cpu");
  g_test_trap_assert_passed ();
}

/* ---- modules the registry refuses --------------------------------------------------- */

static char *
link_into (const char *dir, const char *built_name)
{
  g_autofree char *relative = g_test_build_filename (G_TEST_BUILT, built_name, NULL);
  g_autofree char *built = g_canonicalize_filename (relative, NULL);
  char *link = g_build_filename (dir, built_name, NULL);

  if (!g_file_test (built, G_FILE_TEST_EXISTS))
    {
      g_free (link);
      return NULL;
    }
  g_assert_cmpint (symlink (built, link), ==, 0);
  return link;
}

static void
test_rejected_modules (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("gnn-test-backends-XXXXXX", &error);
  g_autofree char *version = NULL, *plain = NULL, *garbage = NULL, *text = NULL;
  g_auto(GStrv) before = gnn_backend_list_names ();
  g_auto(GStrv) after = NULL;

  g_assert_no_error (error);
  version = link_into (dir, "libgnn-test-bad-version." G_MODULE_SUFFIX);
  plain = link_into (dir, "libgnn-test-not-backend." G_MODULE_SUFFIX);
  if (version == NULL || plain == NULL)
    {
      g_test_skip ("the test modules are not built next to this test");
      g_free (version);
      g_free (plain);
      g_rmdir (dir);
      return;
    }
  garbage = g_build_filename (dir, "garbage." G_MODULE_SUFFIX, NULL);
  g_assert_true (g_file_set_contents (garbage, "this is not a shared object\n", -1, NULL));

  g_assert_true (gnn_backend_load_modules_from (dir, &error));
  g_assert_no_error (error);
  /* loading again is harmless */
  g_assert_true (gnn_backend_load_modules_from (dir, &error));
  g_assert_no_error (error);

  text = gnn_backend_describe_available ();
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "modules that failed to load"));
  {
    g_autofree char *want = g_strdup_printf ("%s: built for backend API version %u, this libgnn has version %u",
                                             version, GNN_BACKEND_API_VERSION + 1, GNN_BACKEND_API_VERSION);
    g_assert_nonnull (strstr (text, want));
  }
  {
    g_autofree char *want = g_strdup_printf ("%s: not a gnn backend module", plain);
    g_assert_nonnull (strstr (text, want));
  }
  {
    g_autofree char *want = g_strdup_printf ("%s: ", garbage);
    g_assert_nonnull (strstr (text, want));
  }
  /* nothing was added, and the backends in use did not change */
  after = gnn_backend_list_names ();
  g_assert_cmpstrv (before, after);

  /* a folder that is not there */
  {
    g_autofree char *missing = g_build_filename (dir, "missing", NULL);
    g_assert_false (gnn_backend_load_modules_from (missing, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_BACKEND);
    g_clear_error (&error);
  }

  g_unlink (version);
  g_unlink (plain);
  g_unlink (garbage);
  g_rmdir (dir);
}

/* ---- devices ------------------------------------------------------------------------ */

static void
test_missing_device (void)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *t;

  if (gnn_backend_get_for_device_type ("cuda", NULL) != NULL)
    {
      g_test_skip ("a CUDA backend module is installed");
      return;
    }
  t = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2), 1, GNN_DTYPE_FLOAT32, "cuda:0", &error);
  g_assert_null (t);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
  g_assert_nonnull (strstr (error->message, "No backend serves device type 'cuda'"));
  g_clear_error (&error);

  g_assert_null (gnn_backend_get_for_device_type ("cuda", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
  g_assert_nonnull (strstr (error->message, "'cuda'"));
  g_clear_error (&error);

  /* one cpu device only */
  t = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2), 1, GNN_DTYPE_FLOAT32, "cpu:1", &error);
  g_assert_null (t);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
  g_assert_nonnull (strstr (error->message, "cpu:1"));
}

static void
test_supports_op (void)
{
  GnnBackend *ref = gnn_test_backend_named ("reference");
  GnnBackend *cpu = gnn_test_backend_named ("cpu");

  /* the reference runs every kernel in every compute dtype the op table promises: float32 and
   * float64 for all but the integer-only ops (bitwise, gcd, lcm), which promise int64 */
  for (int op = 0; op < GNN_BACKEND_OP_N_OPS; op++)
    {
      const GnnBackendOpInfo *info = gnn_backend_op_get_info (op);
      const GnnDtype compute[] = { GNN_DTYPE_FLOAT32, GNN_DTYPE_FLOAT64, GNN_DTYPE_INT64 };

      g_assert_true (info->dtypes & (GNN_DTYPES_FLOAT | GNN_DTYPES_INT64));
      for (guint k = 0; k < G_N_ELEMENTS (compute); k++)
        if ((info->dtypes & GNN_DTYPE_BIT (compute[k])) && !gnn_backend_supports_op (ref, op, compute[k]))
          g_error ("the reference backend does not run kernel %d (%s) on %s", op, info->nick,
                   gnn_dtype_get_name (compute[k]));
    }
  for (GnnDtype d = GNN_DTYPE_FLOAT32; d <= GNN_DTYPE_BFLOAT16; d++)
    {
      g_assert_true (gnn_backend_supports_op (ref, GNN_BACKEND_OP_COPY, d));
      g_assert_true (gnn_backend_supports_op (ref, GNN_BACKEND_OP_FILL, d));
      g_assert_true (gnn_backend_supports_op (cpu, GNN_BACKEND_OP_COPY, d));
      g_assert_true (gnn_backend_supports_op (cpu, GNN_BACKEND_OP_FILL, d));
    }
  g_assert_true (gnn_backend_supports_op (ref, GNN_BACKEND_OP_ADD, GNN_DTYPE_INT64));
  g_assert_true (gnn_backend_supports_op (ref, GNN_BACKEND_OP_SUM, GNN_DTYPE_INT64));
  g_assert_true (gnn_backend_supports_op (ref, GNN_BACKEND_OP_RAND_UNIFORM, GNN_DTYPE_BFLOAT16));
  g_assert_false (gnn_backend_supports_op (ref, GNN_BACKEND_OP_ADD, GNN_DTYPE_BOOL));
  g_assert_false (gnn_backend_supports_op (ref, GNN_BACKEND_OP_EXP, GNN_DTYPE_INT64));
  g_assert_false (gnn_backend_supports_op (ref, GNN_BACKEND_OP_RAND_NORMAL, GNN_DTYPE_INT64));
  g_assert_false (gnn_backend_supports_op (ref, GNN_BACKEND_OP_N_OPS, GNN_DTYPE_FLOAT32));
  g_assert_false (gnn_backend_supports_op (cpu, GNN_BACKEND_OP_N_OPS, GNN_DTYPE_FLOAT32));
  g_assert_true (gnn_backend_supports_op (cpu, GNN_BACKEND_OP_ADD, GNN_DTYPE_FLOAT32));
  g_assert_true (gnn_backend_supports_op (cpu, GNN_BACKEND_OP_GEMM, GNN_DTYPE_FLOAT64));
  g_assert_false (gnn_backend_supports_op (cpu, GNN_BACKEND_OP_ADD, GNN_DTYPE_FLOAT16));

  /* what a backend says it supports, it runs: an unsupported dtype is an error, not a crash */
  {
    g_autoptr(GError) error = NULL;
    guint8 out[4] = { 0 }, a[4] = { 1, 0, 1, 0 };
    GnnKernelTensor ko = { out, GNN_DTYPE_BOOL, 1, { 4 }, { 1 } };
    GnnKernelTensor ka = { a, GNN_DTYPE_BOOL, 1, { 4 }, { 1 } };
    GnnKernelArgs args = { GNN_BACKEND_OP_ADD, &ko, NULL, { &ka, &ka }, 2, { .add = { 1 } } };

    g_assert_false (funcs_of (ref)->run (ref, 0, &args, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
    g_assert_nonnull (strstr (error->message, "bool"));
  }
}

static void
test_memory_info (void)
{
  const char *names[] = { "cpu", "reference" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(GError) error = NULL;
      GnnBackend *b = gnn_test_backend_named (names[i]);
      guint64 free_bytes = 0, total_bytes = 0;

      g_assert_true (gnn_backend_get_memory_info (b, 0, &free_bytes, &total_bytes, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (total_bytes, >, 0);
      g_assert_cmpuint (free_bytes, <=, total_bytes);
      /* out arguments may be NULL */
      g_assert_true (gnn_backend_get_memory_info (b, 0, NULL, NULL, &error));
      g_assert_false (gnn_backend_get_memory_info (b, 1, &free_bytes, &total_bytes, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
    }
}

static void
test_kernel_counts (void)
{
  g_autoptr(GError) error = NULL;
  GnnBackend *used = backend_in_use (), *other = backend_other ();
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) b = NULL, c = NULL;

  gnn_backend_reset_kernel_counts (used);
  gnn_backend_reset_kernel_counts (other);
  for (int op = 0; op < GNN_BACKEND_OP_N_OPS; op++)
    g_assert_cmpuint (gnn_backend_get_kernel_count (used, op), ==, 0);

  b = gnn_tensor_add (a, a, 1.0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_backend_get_kernel_count (used, GNN_BACKEND_OP_ADD), ==, 1);
  c = gnn_tensor_mul (b, a, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_backend_get_kernel_count (used, GNN_BACKEND_OP_ADD), ==, 1);
  g_assert_cmpuint (gnn_backend_get_kernel_count (used, GNN_BACKEND_OP_MUL), ==, 1);
  g_clear_object (&b);
  b = gnn_tensor_add (c, a, 1.0, &error);
  g_assert_cmpuint (gnn_backend_get_kernel_count (used, GNN_BACKEND_OP_ADD), ==, 2);
  /* the other backend ran nothing */
  for (int op = 0; op < GNN_BACKEND_OP_N_OPS; op++)
    g_assert_cmpuint (gnn_backend_get_kernel_count (other, op), ==, 0);

  gnn_backend_reset_kernel_counts (used);
  g_assert_cmpuint (gnn_backend_get_kernel_count (used, GNN_BACKEND_OP_ADD), ==, 0);
  g_assert_cmpuint (gnn_backend_get_kernel_count (used, GNN_BACKEND_OP_MUL), ==, 0);
}

/* ---- tensors of two backends -------------------------------------------------------- */

static void
test_mixing_backends (void)
{
  g_autoptr(GError) error = NULL;
  GnnBackend *used = backend_in_use (), *other = backend_other ();
  GnnBackendEntry *entry = gnn_backend_entry_lookup (other);
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) b = NULL, sum = NULL, moved = NULL, ok = NULL;
  const char *device_name = NULL;

  g_assert_nonnull (entry);
  b = gnn_tensor_new_on (entry, 0, GNN_DTYPE_FLOAT64, 1, GNN_TEST_SHAPE (3), &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_fill_ (b, 2.0, &error));
  g_assert_no_error (error);
  /* both say "cpu": a device string cannot tell the two apart */
  device_name = gnn_tensor_get_device (b);
  g_assert_cmpstr (device_name, ==, "cpu");

  /* ops on one backend's tensors run there */
  gnn_backend_reset_kernel_counts (other);
  ok = gnn_tensor_add (b, b, 1.0, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (ok, GNN_TEST_DATA (4, 4, 4), 3, 0, 0);
  g_assert_cmpuint (gnn_backend_get_kernel_count (other, GNN_BACKEND_OP_ADD), ==, 1);

  /* mixing them is an error naming both backends */
  sum = gnn_tensor_add (a, b, 1.0, &error);
  g_assert_null (sum);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
  g_assert_nonnull (strstr (error->message, gnn_backend_get_name (used)));
  g_assert_nonnull (strstr (error->message, gnn_backend_get_name (other)));
  g_clear_error (&error);
  g_assert_false (gnn_tensor_copy_ (a, b, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
  g_clear_error (&error);

  /* moving it to "cpu" puts it on the backend in use */
  moved = gnn_tensor_to_device (b, "cpu", &error);
  g_assert_no_error (error);
  sum = gnn_tensor_add (a, moved, 1.0, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (sum, GNN_TEST_DATA (3, 4, 5), 3, 0, 0);
  g_assert_finalize_object (g_steal_pointer (&b));
}

/* ---- random numbers: both backends draw the same ------------------------------------- */

/* The one Philox4x32-10 of core, which every backend and the data loader draw from: the
 * published known answer for counter 0 under key 0 (Random123's kat_vectors), and words
 * whose counter and key use both 32-bit halves. */
static void
test_philox_known_answer (void)
{
  const struct { guint64 counter, key; guint32 words[4]; } cases[] = {
    { 0, 0, { 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8 } },
    { (G_GUINT64_CONSTANT (1) << 32) + 5, G_GUINT64_CONSTANT (0xDEADBEEFCAFE),
      { 0xb2459dec, 0x7868d4d9, 0x8a29c55d, 0xec971c55 } },
    { G_MAXUINT64, G_MAXUINT64, { 0x4d18d7d2, 0x430ac65a, 0xbd2fa22a, 0x0afae10d } },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      guint32 w[4];

      gnn_philox4x32 (cases[c].counter, cases[c].key, w);
      for (guint k = 0; k < 4; k++)
        g_assert_cmphex (w[k], ==, cases[c].words[k]);
    }
}

/* Runs a random kernel on @backend into a new contiguous host buffer of @n elements. */
static gpointer
draw (GnnBackend *backend, GnnBackendOp op, GnnDtype dtype, gint64 n, guint64 seed, guint64 offset,
      double s0, double s1, gint64 lo, gint64 hi)
{
  g_autoptr(GError) error = NULL;
  gpointer mem = g_malloc0 (n * gnn_dtype_get_size (dtype));
  GnnKernelTensor out = { mem, dtype, 1, { n }, { 1 } };
  GnnKernelArgs args = { op, &out, NULL, { NULL }, 0,
                         { .random = { seed, offset, s0, s1, s0, s1, lo, hi } } };

  if (!funcs_of (backend)->run (backend, 0, &args, &error))
    g_error ("%s: %s", gnn_backend_get_name (backend), error->message);
  return mem;
}

static void
test_random_agree (void)
{
  GnnBackend *cpu = gnn_test_backend_named ("cpu"), *ref = gnn_test_backend_named ("reference");
  const struct { GnnBackendOp op; GnnDtype dtype; double s0, s1; gint64 lo, hi; } kinds[] = {
    { GNN_BACKEND_OP_RAND_UNIFORM, GNN_DTYPE_FLOAT32, 0, 1, 0, 0 },
    { GNN_BACKEND_OP_RAND_UNIFORM, GNN_DTYPE_FLOAT64, -2, 3, 0, 0 },
    { GNN_BACKEND_OP_RAND_NORMAL, GNN_DTYPE_FLOAT32, 0, 1, 0, 0 },
    { GNN_BACKEND_OP_RAND_NORMAL, GNN_DTYPE_FLOAT64, 1.5, 0.25, 0, 0 },
    { GNN_BACKEND_OP_RAND_INT, GNN_DTYPE_INT64, 0, 0, -3, 7 },
    { GNN_BACKEND_OP_RAND_INT, GNN_DTYPE_INT64, 0, 0, 0, G_GINT64_CONSTANT (1) << 40 },
  };
  /* offsets near 2^32 carry into the high word of Philox's counter */
  const guint64 states[][2] = { { 0, 0 }, { 42, 12345 }, { G_GUINT64_CONSTANT (0xDEADBEEFCAFE), (G_GUINT64_CONSTANT (1) << 32) - 7 } };
  const gint64 n = 1000;

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    for (guint s = 0; s < G_N_ELEMENTS (states); s++)
      {
        g_autofree gpointer a = draw (cpu, kinds[k].op, kinds[k].dtype, n, states[s][0], states[s][1],
                                      kinds[k].s0, kinds[k].s1, kinds[k].lo, kinds[k].hi);
        g_autofree gpointer b = draw (ref, kinds[k].op, kinds[k].dtype, n, states[s][0], states[s][1],
                                      kinds[k].s0, kinds[k].s1, kinds[k].lo, kinds[k].hi);
        gsize size = n * gnn_dtype_get_size (kinds[k].dtype);

        g_assert_cmpmem (a, size, b, size);
      }

  /* reduced-precision uniforms: the reference keeps them below s1 (as the op's doc asks);
   * wherever the CPU does too, they agree */
  for (GnnDtype d = GNN_DTYPE_FLOAT16; d <= GNN_DTYPE_BFLOAT16; d++)
    {
      const gint64 big = 200000;
      g_autofree guint16 *a = draw (cpu, GNN_BACKEND_OP_RAND_UNIFORM, d, big, 7, 0, 0, 1, 0, 0);
      g_autofree guint16 *b = draw (ref, GNN_BACKEND_OP_RAND_UNIFORM, d, big, 7, 0, 0, 1, 0, 0);
      guint cpu_at_one = 0;

      for (gint64 i = 0; i < big; i++)
        {
          float va = d == GNN_DTYPE_FLOAT16 ? gnn_half_to_float (a[i]) : gnn_bf16_to_float (a[i]);
          float vb = d == GNN_DTYPE_FLOAT16 ? gnn_half_to_float (b[i]) : gnn_bf16_to_float (b[i]);

          g_assert_cmpfloat (vb, >=, 0.0f);
          g_assert_cmpfloat (vb, <, 1.0f);
          if (va >= 1.0f)
            cpu_at_one++;
          else
            g_assert_cmpuint (a[i], ==, b[i]);
        }
      if (cpu_at_one)
        g_test_message ("cpu %s rand: %u of %" G_GINT64_FORMAT " values are 1.0, outside [0, 1)",
                        gnn_dtype_get_name (d), cpu_at_one, big);
    }
}

/* The public creation functions pass the generator's state to the kernel the same way. */
static void
test_random_api (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnGenerator) gen = gnn_generator_new (1234);
  GnnBackend *other = backend_other ();
  const gint64 shape[] = { 3, 4, 5 };

  for (guint k = 0; k < 3; k++)
    {
      g_autoptr(GnnTensor) t = NULL;
      g_autoptr(GBytes) got = NULL;
      g_autofree gpointer want = NULL;
      guint64 offset = gnn_generator_get_offset (gen);
      GnnDtype dtype = k == 2 ? GNN_DTYPE_INT64 : GNN_DTYPE_FLOAT32;

      if (k == 0)
        t = gnn_tensor_new_rand (shape, 3, gen, dtype, NULL, &error);
      else if (k == 1)
        t = gnn_tensor_new_randn (shape, 3, gen, dtype, NULL, &error);
      else
        t = gnn_tensor_new_randint (-5, 5, shape, 3, gen, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (gnn_generator_get_offset (gen), ==, offset + 60);
      want = draw (other, k == 0 ? GNN_BACKEND_OP_RAND_UNIFORM : k == 1 ? GNN_BACKEND_OP_RAND_NORMAL : GNN_BACKEND_OP_RAND_INT,
                   dtype, 60, 1234, offset, 0, 1, -5, 5);
      got = gnn_tensor_get_bytes (t, &error);
      g_assert_no_error (error);
      g_assert_cmpmem (g_bytes_get_data (got, NULL), g_bytes_get_size (got), want, 60 * gnn_dtype_get_size (dtype));
    }
}

/* ---- the reference kernels --------------------------------------------------------- */

#define F32 GNN_DTYPE_FLOAT32
#define F64 GNN_DTYPE_FLOAT64
#define I64 GNN_DTYPE_INT64
#define OP(x) GNN_BACKEND_OP_##x

/* A few things the reference kernels must get right on their own. */
static void
test_reference_kernels (void)
{
  g_autoptr(GError) error = NULL;
  GnnBackend *ref = gnn_test_backend_named ("reference");
  const GnnBackendFuncs *f = funcs_of (ref);

  /* max over r with NaN: the first NaN and its index */
  {
    double x[] = { 1, NAN, 3, NAN };
    double m = 0;
    gint64 at = -1;
    GnnKernelTensor ki = { x, F64, 3, { 1, 4, 1 }, { 4, 1, 1 } };
    GnnKernelTensor ko = { &m, F64, 0 };
    GnnKernelTensor ka = { &at, I64, 0 };
    GnnKernelArgs args = { OP (MAX), &ko, &ka, { &ki }, 1, { .reduce = { 1, 4, 1 } } };

    g_assert_true (f->run (ref, 0, &args, &error));
    g_assert_true (isnan (m));
    g_assert_cmpint (at, ==, 1);
  }
  /* an index out of range is an error, not a crash */
  {
    float x[6] = { 0 }, y[2] = { 0 };
    gint64 idx[2] = { 0, 3 };
    GnnKernelTensor ki = { x, F32, 1, { 3 }, { 1 } };
    GnnKernelTensor kx = { idx, I64, 1, { 2 }, { 1 } };
    GnnKernelTensor ko = { y, F32, 1, { 2 }, { 1 } };
    GnnKernelArgs args = { OP (INDEX_SELECT), &ko, NULL, { &ki, &kx }, 2, { .index = { 1, 3, 1 } } };

    g_assert_false (f->run (ref, 0, &args, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
    g_clear_error (&error);
  }
  /* operands of the wrong shape are reported */
  {
    float a[4] = { 0 }, o[4] = { 0 };
    GnnKernelTensor ka = { a, F32, 1, { 3 }, { 1 } };
    GnnKernelTensor ko = { o, F32, 1, { 4 }, { 1 } };
    GnnKernelArgs args = { OP (NEG), &ko, NULL, { &ka }, 1 };

    g_assert_false (f->run (ref, 0, &args, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "share one shape"));
    g_clear_error (&error);
  }
  /* integer division by zero */
  {
    gint64 a[2] = { 7, -7 }, b[2] = { 2, 0 }, o[2];
    GnnKernelTensor ka = { a, I64, 1, { 1 }, { 1 } }, kb = { b, I64, 1, { 1 }, { 1 } };
    GnnKernelTensor ko = { o, I64, 1, { 1 }, { 1 } };
    GnnKernelArgs args = { OP (DIV), &ko, NULL, { &ka, &kb }, 2 };

    g_assert_true (f->run (ref, 0, &args, &error));
    g_assert_cmpint (o[0], ==, 3);
    ka.data = &a[1];
    kb.data = &b[1];
    g_assert_false (f->run (ref, 0, &args, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }
  /* gemm with s1 = 0 does not read out; strided out */
  {
    double a[4] = { 1, 2, 3, 4 }, b[4] = { 5, 6, 7, 8 }, o[8];
    GnnKernelTensor ka = { a, F64, 3, { 1, 2, 2 }, { 4, 2, 1 } };
    GnnKernelTensor kb = { b, F64, 3, { 1, 2, 2 }, { 4, 1, 2 } };   /* b transposed */
    GnnKernelTensor ko = { o, F64, 3, { 1, 2, 2 }, { 8, 4, 2 } };   /* every other element */
    GnnKernelArgs args = { OP (GEMM), &ko, NULL, { &ka, &kb }, 2, { .gemm = { 1, 0 } } };

    for (guint i = 0; i < 8; i++)
      o[i] = NAN;
    g_assert_true (f->run (ref, 0, &args, &error));
    /* a · bᵀ = [[1·5 + 2·6, 1·7 + 2·8], [3·5 + 4·6, 3·7 + 4·8]] */
    g_assert_cmpfloat (o[0], ==, 17);
    g_assert_cmpfloat (o[2], ==, 23);
    g_assert_cmpfloat (o[4], ==, 39);
    g_assert_cmpfloat (o[6], ==, 53);
    g_assert_true (isnan (o[1]));
  }
}

/* int64 DIV truncates toward zero on every host backend (floor_divide and remainder build on
 * it) and refuses a zero divisor; the public division of integers stays true division */
static void
test_div_int64 (void)
{
  const char *names[] = { "cpu", "reference" };

  for (guint b = 0; b < G_N_ELEMENTS (names); b++)
    {
      g_autoptr(GError) error = NULL;
      GnnBackend *backend = gnn_test_backend_named (names[b]);
      gint64 a[4] = { 7, -7, G_MININT64, 6 }, d[4] = { 2, 2, -1, -4 }, o[4] = { 0 };
      GnnKernelTensor ka = { a, GNN_DTYPE_INT64, 1, { 4 }, { 1 } };
      GnnKernelTensor kd = { d, GNN_DTYPE_INT64, 1, { 4 }, { 1 } };
      GnnKernelTensor ko = { o, GNN_DTYPE_INT64, 1, { 4 }, { 1 } };
      GnnKernelArgs args = { GNN_BACKEND_OP_DIV, &ko, NULL, { &ka, &kd }, 2 };

      g_assert_true (gnn_backend_supports_op (backend, GNN_BACKEND_OP_DIV, GNN_DTYPE_INT64));
      g_assert_true (funcs_of (backend)->run (backend, 0, &args, &error));
      g_assert_no_error (error);
      g_assert_cmpint (o[0], ==, 3);
      g_assert_cmpint (o[1], ==, -3);
      g_assert_cmpint (o[2], ==, G_MININT64);   /* wraps, as in PyTorch */
      g_assert_cmpint (o[3], ==, -1);
      /* a zero divisor, here broadcast (stride 0) */
      d[0] = 0;
      kd.strides[0] = 0;
      g_assert_false (funcs_of (backend)->run (backend, 0, &args, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "division by zero"));
    }

  /* torch.div (int, int) is float division */
  {
    g_autoptr(GError) error = NULL;
    const gint64 a[2] = { 7, -7 }, d[2] = { 2, 2 };
    g_autoptr(GnnTensor) ta = gnn_tensor_new_from_int64s (a, 2, GNN_TEST_SHAPE (2), 1, &error);
    g_autoptr(GnnTensor) td = gnn_tensor_new_from_int64s (d, 2, GNN_TEST_SHAPE (2), 1, &error);
    g_autoptr(GnnTensor) q = gnn_tensor_div (ta, td, &error);

    g_assert_no_error (error);
    g_assert_cmpint (gnn_tensor_get_dtype (q), ==, GNN_DTYPE_FLOAT32);
    gnn_test_assert_close (q, GNN_TEST_DATA (3.5, -3.5), 2, 0, 0);
  }
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);

  g_test_add_func ("/backend/registry/list", test_list);
  g_test_add_func ("/backend/registry/describe", test_describe);
  g_test_add_func ("/backend/registry/help", test_help);
  g_test_add_func ("/backend/registry/unknown-name", test_unknown_name);
  g_test_add_func ("/backend/registry/choose", test_choose);
  g_test_add_func ("/backend/modules/rejected", test_rejected_modules);
  g_test_add_func ("/backend/device/missing", test_missing_device);
  g_test_add_func ("/backend/supports-op", test_supports_op);
  g_test_add_func ("/backend/memory-info", test_memory_info);
  g_test_add_func ("/backend/kernel-counts", test_kernel_counts);
  g_test_add_func ("/backend/mixing-backends", test_mixing_backends);
  g_test_add_func ("/backend/random/philox-known-answer", test_philox_known_answer);
  g_test_add_func ("/backend/random/kernels-agree", test_random_agree);
  g_test_add_func ("/backend/random/creation", test_random_api);
  g_test_add_func ("/backend/reference/kernels", test_reference_kernels);
  g_test_add_func ("/backend/div/int64", test_div_int64);

  return g_test_run ();
}
