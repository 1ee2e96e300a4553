/* gnn-op-observer.c: the observers of every kernel call (see gnn-backend-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The list of observers is never changed in place: adding or removing one publishes a new
 * list under the lock, and a kernel call takes a reference to the list of the moment, so
 * that observers run outside the lock (they may run kernels, add or remove observers) and an
 * observer removed on one thread stays alive until every call that saw it on another is done.
 */
#include "config.h"

#include "gnn-backend-private.h"

typedef struct {
  gatomicrefcount ref;
  guint id;
  GnnOpObserverFunc func;
  gpointer user_data;
  GDestroyNotify destroy;
} Observer;

static GMutex observers_lock;
static GPtrArray *observers;    /* of Observer, NULL when empty; replaced, never changed */
static guint last_id;
/* set on a thread while it runs observers: the kernels they run are not observed */
static GPrivate observing;

gint gnn_op_observers_installed;

static Observer *
observer_ref (Observer *o)
{
  g_atomic_ref_count_inc (&o->ref);
  return o;
}

static void
observer_unref (gpointer data)
{
  Observer *o = data;

  if (!g_atomic_ref_count_dec (&o->ref))
    return;
  if (o->destroy)
    o->destroy (o->user_data);
  g_free (o);
}

/* a copy of the current list (empty when there is none), lock held */
static GPtrArray *
copy_observers (void)
{
  guint n = observers ? observers->len : 0;
  GPtrArray *copy = g_ptr_array_new_full (n + 1, observer_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (copy, observer_ref (g_ptr_array_index (observers, i)));
  return copy;
}

/* makes @list (taken) the current list, lock held; the old one goes when its calls are done */
static void
publish (GPtrArray *list)
{
  GPtrArray *old = observers;

  if (list->len == 0)
    g_clear_pointer (&list, g_ptr_array_unref);
  observers = list;
  g_atomic_int_set (&gnn_op_observers_installed, list ? (gint) list->len : 0);
  if (old)
    g_ptr_array_unref (old);
}

guint
gnn_op_observer_add (GnnOpObserverFunc func,
                     gpointer          user_data,
                     GDestroyNotify    destroy)
{
  Observer *o;
  GPtrArray *list;
  guint id;

  g_return_val_if_fail (func != NULL, 0);

  o = g_new0 (Observer, 1);
  g_atomic_ref_count_init (&o->ref);
  o->func = func;
  o->user_data = user_data;
  o->destroy = destroy;
  g_mutex_lock (&observers_lock);
  id = o->id = ++last_id;
  list = copy_observers ();
  g_ptr_array_add (list, o);
  publish (list);
  g_mutex_unlock (&observers_lock);
  return id;
}

void
gnn_op_observer_remove (guint id)
{
  GPtrArray *list;
  gboolean found = FALSE;

  g_mutex_lock (&observers_lock);
  list = copy_observers ();
  for (guint i = 0; i < list->len; i++)
    if (((Observer *) g_ptr_array_index (list, i))->id == id)
      {
        g_ptr_array_remove_index (list, i);
        found = TRUE;
        break;
      }
  if (found)
    publish (list);
  else
    g_ptr_array_unref (list);
  g_mutex_unlock (&observers_lock);
  if (!found)
    g_critical ("gnn_op_observer_remove: no op observer has the id %u", id);
}

static void
notify (GPtrArray        *list,
        const GnnOpEvent *event)
{
  g_private_set (&observing, GINT_TO_POINTER (TRUE));
  for (guint i = 0; i < list->len; i++)
    {
      Observer *o = g_ptr_array_index (list, i);
      o->func (event, o->user_data);
    }
  g_private_set (&observing, NULL);
}

/* gnn_backend_entry_run() when observers are installed */
gboolean
gnn_backend_entry_run_observed (GnnBackendEntry     *entry,
                                guint                device,
                                const GnnKernelArgs *args,
                                GError             **error)
{
  g_autoptr(GPtrArray) list = NULL;
  GError *local = NULL;
  GnnOpEvent event;

  if (g_private_get (&observing) == NULL)
    {
      g_mutex_lock (&observers_lock);
      if (observers)
        list = g_ptr_array_ref (observers);
      g_mutex_unlock (&observers_lock);
    }
  if (list == NULL)
    return entry->funcs->run (entry->backend, device, args, error);

  event.phase = GNN_OP_EVENT_BEFORE;
  event.backend = entry->backend;
  event.device_type = entry->device_type;
  event.device = device;
  event.args = args;
  event.flops = gnn_backend_op_count_flops (args);
  event.ok = FALSE;
  event.error = NULL;
  notify (list, &event);

  event.ok = entry->funcs->run (entry->backend, device, args, &local);
  event.phase = GNN_OP_EVENT_AFTER;
  event.error = local;
  notify (list, &event);
  if (local)
    g_propagate_error (error, local);
  return event.ok;
}
