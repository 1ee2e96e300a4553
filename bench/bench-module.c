/* bench-module.c: the cost of calling a module, and of hooks
 *
 * Prints ns per call of a Linear(16, 16) on one row: the bare functional op, the module with
 * nothing hooked (the target: no measurable difference beyond the virtual call), with one
 * forward hook, and with a handler connected to forward-post.
 */
#include <gnn/gnn.h>
#include <stdio.h>

#define CALLS 200000

static void
hook (GnnModule *m, GnnArgs *in, GnnArgs *out, gpointer data)
{
}

static double
time_calls (GnnModule *lin, GnnTensor *x, gboolean functional)
{
  GnnParameter *w = gnn_module_get_parameter (lin, "weight", NULL);
  GnnParameter *b = gnn_module_get_parameter (lin, "bias", NULL);
  double best = G_MAXDOUBLE;

  for (int rep = 0; rep < 5; rep++)
    {
      gint64 t0 = g_get_monotonic_time ();
      for (int i = 0; i < CALLS; i++)
        {
          GnnTensor *y = functional ? gnn_tensor_linear (x, GNN_TENSOR (w), GNN_TENSOR (b), NULL)
                                    : gnn_module_forward_tensor (lin, x, NULL);
          g_object_unref (y);
        }
      best = MIN (best, (g_get_monotonic_time () - t0) * 1000.0 / CALLS);
    }
  return best;
}

int
main (void)
{
  g_autoptr(GnnModule) lin = GNN_MODULE (gnn_linear_new (16, 16, TRUE, NULL));
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_autoptr(GnnTensor) x = gnn_tensor_new_ones ((gint64[]) { 1, 16 }, 2, GNN_DTYPE_FLOAT32, NULL, NULL);
  double functional, bare, hooked, signalled;

  functional = time_calls (lin, x, TRUE);
  bare = time_calls (lin, x, FALSE);
  gnn_module_register_forward_hook (lin, hook, NULL, NULL, FALSE, FALSE, FALSE);
  hooked = time_calls (lin, x, FALSE);
  g_signal_connect (lin, "forward-post", G_CALLBACK (hook), NULL);
  signalled = time_calls (lin, x, FALSE);

  printf ("module call overhead, Linear(16, 16) on 1 row, autograd off (best of 5 x %d calls)\n", CALLS);
  printf ("  %-40s %8.0f ns\n", "gnn_tensor_linear (functional)", functional);
  printf ("  %-40s %8.0f ns  (+%.0f ns)\n", "module, nothing hooked", bare, bare - functional);
  printf ("  %-40s %8.0f ns  (+%.0f ns)\n", "module, one forward hook", hooked, hooked - functional);
  printf ("  %-40s %8.0f ns  (+%.0f ns)\n", "module, hook + forward-post handler", signalled, signalled - functional);
  return 0;
}
