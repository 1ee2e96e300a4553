/* gnn-backend-private.h: the registry's view of a backend
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core/gnn-device-private.h"
#include "core/gnn-error.h"
#include "gnn-backend-impl.h"

G_BEGIN_DECLS

typedef struct {
  GnnBackend *backend;
  const GnnBackendFuncs *funcs;
  char *name;
  char *device_type;
  guint64 counts[GNN_BACKEND_OP_N_OPS];
} GnnBackendEntry;

GnnBackendEntry *gnn_backend_entry_for_device  (const GnnDeviceSpec *device,
                                                guint               *out_index,
                                                GError             **error);
GnnBackendEntry *gnn_backend_entry_default_cpu (void);
GnnBackendEntry *gnn_backend_entry_lookup      (GnnBackend *backend);

/* ---- the op observers ---------------------------------------------------------------
 *
 * Every kernel call passes through gnn_backend_entry_run(). An op observer sees each call
 * twice, before and after the kernel runs: the op, the backend and device, the operands and
 * parameters, and the call's FLOP count (the op table's formula). The profiler, graph tracing,
 * autocast and anomaly detection build on it instead of each hooking every op. With no
 * observer installed a call costs one predictable branch more.
 *
 * Observers run on the thread that dispatches the kernel, in the order they were added,
 * outside any lock. A kernel an observer itself runs (to check a result for NaN, say) is not
 * observed. Operand data lie in the device's memory: only a host backend's may be read.
 * Private until a public user exists.
 */

/**
 * GnnOpEventPhase:
 * @GNN_OP_EVENT_BEFORE: the kernel is about to run
 * @GNN_OP_EVENT_AFTER: the kernel ran (or failed)
 */
typedef enum {
  GNN_OP_EVENT_BEFORE,
  GNN_OP_EVENT_AFTER,
} GnnOpEventPhase;

/**
 * GnnOpEvent:
 * @phase: before or after the kernel
 * @backend: the backend running it
 * @device_type: the backend's device type ("cpu", "cuda")
 * @device: the device index
 * @args: the call: `args->op`, the operands, `args->params`
 * @flops: the call's FLOP count, gnn_backend_op_count_flops()
 * @ok: after: whether the kernel succeeded
 * @error: after a failure: the kernel's error (it still reaches the caller), else %NULL
 */
typedef struct {
  GnnOpEventPhase phase;
  GnnBackend *backend;
  const char *device_type;
  guint device;
  const GnnKernelArgs *args;
  guint64 flops;
  gboolean ok;
  const GError *error;
} GnnOpEvent;

typedef void (*GnnOpObserverFunc) (const GnnOpEvent *event,
                                   gpointer          user_data);

/* Adds an observer of every kernel call; returns its id (> 0). MT safe. */
guint    gnn_op_observer_add             (GnnOpObserverFunc    func,
                                          gpointer             user_data,
                                          GDestroyNotify       destroy);
/* Removes the observer @id; @destroy runs once no thread is calling it any more. MT safe. */
void     gnn_op_observer_remove          (guint                id);

/* the number of observers installed, read without a lock on every kernel call */
extern gint gnn_op_observers_installed;

gboolean gnn_backend_entry_run_observed  (GnnBackendEntry     *entry,
                                          guint                device,
                                          const GnnKernelArgs *args,
                                          GError             **error);

/* Runs one kernel: the dispatch point of every kernel call. */
static inline gboolean
gnn_backend_entry_run (GnnBackendEntry     *entry,
                       guint                device,
                       const GnnKernelArgs *args,
                       GError             **error)
{
  entry->counts[args->op]++;
  if (G_UNLIKELY (g_atomic_int_get (&gnn_op_observers_installed) != 0))
    return gnn_backend_entry_run_observed (entry, device, args, error);
  return entry->funcs->run (entry->backend, device, args, error);
}

/* built-in CPU backend */
GType gnn_cpu_backend_get_type (void);

G_END_DECLS
