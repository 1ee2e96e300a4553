/* gv-profile.c: one step of a profile, as gnn-viewer's Profile page shows it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A profile comes from a chrome trace file (GnnProfiler's export_chrome_trace: complete "X"
 * events with name, cat, ts and dur in microseconds, tid, and args.id / args.parent) or from
 * the events of a profiler that just ran. Both become the same list of ranges; a range's
 * parent is the one its args.parent names, or, in a trace without ids, the innermost range of
 * its thread that contains it. The step shown is the first "ProfilerStep#N" range, or the whole
 * trace when it has none; ranges outside it are left out.
 *
 * The table has one row per module (the "module" ranges, named "path (Type)", the model by its
 * type alone): the calls of its forward, its total time, its self time (outside its child
 * modules: a layer's kernels are its own), and its total as a percentage of the step.
 */
#include "gv-profile.h"
#include "io/gnn-json-scan-private.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

/* ---- a row of the table ------------------------------------------------------------------ */

struct _GvProfileRow
{
  GObject  parent_instance;

  char    *path;
  char    *type_name;
  guint    calls;
  gint64   total_ns;
  gint64   self_ns;
  double   percent;
};

enum { ROW_PROP_0, ROW_PROP_PATH, ROW_PROP_TYPE, ROW_PROP_CALLS, ROW_PROP_TOTAL, ROW_PROP_SELF,
       ROW_PROP_PERCENT, ROW_N_PROPS };
static GParamSpec *row_properties[ROW_N_PROPS];

G_DEFINE_FINAL_TYPE (GvProfileRow, gv_profile_row, G_TYPE_OBJECT)

static void
gv_profile_row_finalize (GObject *object)
{
  GvProfileRow *self = GV_PROFILE_ROW (object);

  g_free (self->path);
  g_free (self->type_name);
  G_OBJECT_CLASS (gv_profile_row_parent_class)->finalize (object);
}

static void
gv_profile_row_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  GvProfileRow *self = GV_PROFILE_ROW (object);

  switch (prop_id)
    {
    case ROW_PROP_PATH: g_value_set_string (value, self->path); break;
    case ROW_PROP_TYPE: g_value_set_string (value, self->type_name); break;
    case ROW_PROP_CALLS: g_value_set_uint (value, self->calls); break;
    case ROW_PROP_TOTAL: g_value_set_int64 (value, self->total_ns); break;
    case ROW_PROP_SELF: g_value_set_int64 (value, self->self_ns); break;
    case ROW_PROP_PERCENT: g_value_set_double (value, self->percent); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gv_profile_row_class_init (GvProfileRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = gv_profile_row_finalize;
  object_class->get_property = gv_profile_row_get_property;
  row_properties[ROW_PROP_PATH] = g_param_spec_string ("path", NULL, NULL, NULL, flags);
  row_properties[ROW_PROP_TYPE] = g_param_spec_string ("module-type", NULL, NULL, NULL, flags);
  row_properties[ROW_PROP_CALLS] = g_param_spec_uint ("calls", NULL, NULL, 0, G_MAXUINT, 0, flags);
  row_properties[ROW_PROP_TOTAL] = g_param_spec_int64 ("total", NULL, NULL, 0, G_MAXINT64, 0, flags);
  row_properties[ROW_PROP_SELF] = g_param_spec_int64 ("self", NULL, NULL, 0, G_MAXINT64, 0, flags);
  row_properties[ROW_PROP_PERCENT] = g_param_spec_double ("percent", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  g_object_class_install_properties (object_class, ROW_N_PROPS, row_properties);
}

static void
gv_profile_row_init (GvProfileRow *self)
{
}

const char *
gv_profile_row_get_path (GvProfileRow *self)
{
  return self->path;
}

const char *
gv_profile_row_get_type_name (GvProfileRow *self)
{
  return self->type_name;
}

guint
gv_profile_row_get_calls (GvProfileRow *self)
{
  return self->calls;
}

gint64
gv_profile_row_get_total_ns (GvProfileRow *self)
{
  return self->total_ns;
}

gint64
gv_profile_row_get_self_ns (GvProfileRow *self)
{
  return self->self_ns;
}

double
gv_profile_row_get_percent (GvProfileRow *self)
{
  return self->percent;
}

char *
gv_profile_row_dump (GvProfileRow *row)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup_printf ("%s\t%s\t%u\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%s", row->path,
                          row->type_name, row->calls, row->total_ns, row->self_ns,
                          g_ascii_formatd (buf, sizeof buf, "%.6g", row->percent));
}

/* ---- the profile ------------------------------------------------------------------------- */

struct _GvProfile
{
  GObject     parent_instance;

  char       *label;
  gint64      step_ns;
  guint       n_steps;
  guint       n_kernels;
  guint       n_chart_rows;
  GHashTable *category_ns;   /* category → gint64 in a pointer-sized box */
  GListStore *rows;
  GArray     *ranges;
  GArray     *events;        /* Event: all of them, their parents linked */
  GArray     *steps;         /* int: the step events' indices, by start */
  guint       step;          /* the step shown */
};

G_DEFINE_FINAL_TYPE (GvProfile, gv_profile, G_TYPE_OBJECT)

static void
range_clear (GvProfileRange *r)
{
  g_free (r->name);
  g_free (r->category);
}

static void
gv_profile_finalize (GObject *object)
{
  GvProfile *self = GV_PROFILE (object);

  g_free (self->label);
  g_hash_table_unref (self->category_ns);
  g_object_unref (self->rows);
  g_array_unref (self->ranges);
  g_clear_pointer (&self->events, g_array_unref);
  g_clear_pointer (&self->steps, g_array_unref);
  G_OBJECT_CLASS (gv_profile_parent_class)->finalize (object);
}

static void
gv_profile_class_init (GvProfileClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gv_profile_finalize;
}

static void
gv_profile_init (GvProfile *self)
{
  self->category_ns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->rows = g_list_store_new (GV_TYPE_PROFILE_ROW);
  self->ranges = g_array_new (FALSE, TRUE, sizeof (GvProfileRange));
  g_array_set_clear_func (self->ranges, (GDestroyNotify) range_clear);
}

const char *
gv_profile_get_label (GvProfile *self)
{
  return self->label;
}

gint64
gv_profile_get_step_ns (GvProfile *self)
{
  return self->step_ns;
}

guint
gv_profile_get_n_steps (GvProfile *self)
{
  return self->n_steps;
}

gint64
gv_profile_get_category_ns (GvProfile  *self,
                            const char *category)
{
  gint64 *ns = g_hash_table_lookup (self->category_ns, category);

  return ns ? *ns : 0;
}

guint
gv_profile_get_n_kernels (GvProfile *self)
{
  return self->n_kernels;
}

GListModel *
gv_profile_get_rows (GvProfile *self)
{
  return G_LIST_MODEL (self->rows);
}

GArray *
gv_profile_get_ranges (GvProfile *self)
{
  return self->ranges;
}

guint
gv_profile_get_n_chart_rows (GvProfile *self)
{
  return self->n_chart_rows;
}

/* ---- from events to the step ------------------------------------------------------------- */

/* an event as read, from a trace or a profiler */
typedef struct
{
  char   *name;
  char   *category;
  gint64  start_ns;
  gint64  duration_ns;
  guint   thread;
  gint64  id;          /* -1: none given */
  gint64  parent_id;   /* -1: none */
  /* worked out */
  int     parent;      /* the index of the parent event, -1 for none */
  int     shown_parent;/* the nearest ancestor in the step, -1 for none */
  gboolean shown;
} Event;

static void
event_clear (Event *e)
{
  g_free (e->name);
  g_free (e->category);
}

static GArray *
event_array_new (void)
{
  GArray *events = g_array_new (FALSE, TRUE, sizeof (Event));

  g_array_set_clear_func (events, (GDestroyNotify) event_clear);
  return events;
}

#define EV(i) (&g_array_index (events, Event, (i)))

static gboolean
is_step (const Event *e)
{
  return g_strcmp0 (e->category, "profiler_step") == 0 || g_str_has_prefix (e->name, "ProfilerStep#");
}

static int
compare_by_thread_then_time (gconstpointer a,
                             gconstpointer b,
                             gpointer      data)
{
  GArray *events = data;
  const Event *x = EV (*(const int *) a), *y = EV (*(const int *) b);

  if (x->thread != y->thread)
    return x->thread < y->thread ? -1 : 1;
  if (x->start_ns != y->start_ns)
    return x->start_ns < y->start_ns ? -1 : 1;
  /* the longer first: it holds the other */
  if (x->duration_ns != y->duration_ns)
    return x->duration_ns > y->duration_ns ? -1 : 1;
  return *(const int *) a - *(const int *) b;
}

/* Every chain of parents ends (no cycle of parent ids), at most GV_PROFILE_MAX_NESTING long:
 * each event's depth once, from its nearest ancestor whose depth is known. */
static gboolean
check_depths (GArray      *events,
              const char  *what,
              GError     **error)
{
  g_autofree int *depth = g_new (int, MAX (events->len, 1));
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (int));

  for (guint i = 0; i < events->len; i++)
    depth[i] = -1;                       /* -1: not known yet, -2: on the chain walked now */
  for (guint i = 0; i < events->len; i++)
    {
      int j = (int) i, base;

      g_array_set_size (chain, 0);
      while (j >= 0 && depth[j] == -1)
        {
          depth[j] = -2;
          g_array_append_val (chain, j);
          j = EV (j)->parent;
        }
      if (j >= 0 && depth[j] == -2)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                       _("%s: traceEvents[%u]: expected parents that nest, found a cycle of "
                         "parent ids"), what, i);
          return FALSE;
        }
      base = j >= 0 ? depth[j] : -1;
      for (guint k = chain->len; k-- > 0;)
        depth[g_array_index (chain, int, k)] = ++base;
      if (base > GV_PROFILE_MAX_NESTING)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                       _("%s: traceEvents[%u]: expected ranges nested at most %d deep, found %d"),
                       what, i, GV_PROFILE_MAX_NESTING, base);
          return FALSE;
        }
    }
  return TRUE;
}

/* Each event's parent: the one its parent id names, or when the events have no ids, the
 * innermost event of its thread that holds it in time. */
static gboolean
link_parents (GArray      *events,
              const char  *what,
              GError     **error)
{
  gboolean have_ids = events->len > 0;

  for (guint i = 0; i < events->len; i++)
    if (EV (i)->id < 0)
      have_ids = FALSE;
  if (have_ids)
    {
      g_autoptr(GHashTable) by_id = g_hash_table_new (g_int64_hash, g_int64_equal);

      for (guint i = 0; i < events->len; i++)
        {
          if (g_hash_table_contains (by_id, &EV (i)->id))
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                           _("%s: traceEvents[%u]: expected ids that differ, found the id %" G_GINT64_FORMAT
                             " twice"), what, i, EV (i)->id);
              return FALSE;
            }
          g_hash_table_insert (by_id, &EV (i)->id, GINT_TO_POINTER (i + 1));
        }
      for (guint i = 0; i < events->len; i++)
        {
          int found = EV (i)->parent_id >= 0
                        ? GPOINTER_TO_INT (g_hash_table_lookup (by_id, &EV (i)->parent_id)) : 0;

          EV (i)->parent = found - 1;
        }
    }
  else
    {
      g_autofree int *order = g_new (int, MAX (events->len, 1));
      g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (int));

      for (guint i = 0; i < events->len; i++)
        order[i] = (int) i;
      g_qsort_with_data (order, events->len, sizeof (int), compare_by_thread_then_time, events);
      for (guint k = 0; k < events->len; k++)
        {
          Event *e = EV (order[k]);

          while (stack->len)
            {
              Event *top = EV (g_array_index (stack, int, stack->len - 1));

              if (top->thread == e->thread && e->start_ns + e->duration_ns <= top->start_ns + top->duration_ns)
                break;
              g_array_set_size (stack, stack->len - 1);
            }
          e->parent = stack->len ? g_array_index (stack, int, stack->len - 1) : -1;
          g_array_append_val (stack, order[k]);
        }
    }
  return check_depths (events, what, error);
}

/* "features.0 (Conv2d)" → "features.0", "Conv2d"; "Sequential" (the model) → "", "Sequential" */
static void
split_module_name (const char  *name,
                   char       **path,
                   char       **type)
{
  const char *open = g_strrstr (name, " (");
  gsize len = strlen (name);

  if (open && len > 0 && name[len - 1] == ')')
    {
      *path = g_strndup (name, open - name);
      *type = g_strndup (open + 2, name + len - 1 - (open + 2));
    }
  else
    {
      *path = g_strdup ("");
      *type = g_strdup (name);
    }
}

static int
compare_ranges (gconstpointer a,
                gconstpointer b)
{
  const GvProfileRange *x = a, *y = b;

  if (x->row != y->row)
    return x->row < y->row ? -1 : 1;
  if (x->start_ns != y->start_ns)
    return x->start_ns < y->start_ns ? -1 : 1;
  return 0;
}

static int
compare_by_start (gconstpointer a,
                  gconstpointer b,
                  gpointer      data)
{
  GArray *events = data;
  const Event *x = EV (*(const int *) a), *y = EV (*(const int *) b);

  if (x->start_ns != y->start_ns)
    return x->start_ns < y->start_ns ? -1 : 1;
  return *(const int *) a - *(const int *) b;
}

static int
compare_uint (gconstpointer a,
              gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

static void
add_category_ns (GvProfile  *self,
                 const char *category,
                 gint64      ns)
{
  gint64 *box = g_hash_table_lookup (self->category_ns, category);

  if (box == NULL)
    {
      box = g_new0 (gint64, 1);
      g_hash_table_insert (self->category_ns, g_strdup (category), box);
    }
  *box += ns;
}

/* Shows the step @index of the profile's events (all of them when it has no step). */
static void
select_step (GvProfile *self,
             guint      index)
{
  GArray *events = self->events;
  gint64 w0 = G_MAXINT64, w1 = G_MININT64;
  int step = self->steps->len ? g_array_index (self->steps, int, index) : -1;
  g_autofree int *order = g_new (int, MAX (events->len, 1));
  g_autofree guint *depth = g_new0 (guint, MAX (events->len, 1));
  g_autofree gint64 *children_ns = g_new0 (gint64, MAX (events->len, 1));
  g_autoptr(GHashTable) max_depth = g_hash_table_new (NULL, NULL);   /* thread → depth + 1 */
  g_autoptr(GHashTable) row_of = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) band = g_hash_table_new (NULL, NULL);        /* thread → first row + 1 */
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  guint n_rows = 0;

  self->step = index;
  self->n_kernels = 0;
  g_hash_table_remove_all (self->category_ns);
  g_array_set_size (self->ranges, 0);
  for (guint i = 0; i < events->len; i++)
    order[i] = (int) i;
  g_qsort_with_data (order, events->len, sizeof (int), compare_by_start, events);

  /* the window: the step, or everything */
  if (step >= 0)
    {
      w0 = EV (step)->start_ns;
      w1 = EV (step)->start_ns + EV (step)->duration_ns;
    }
  else
    for (guint i = 0; i < events->len; i++)
      {
        w0 = MIN (w0, EV (i)->start_ns);
        w1 = MAX (w1, EV (i)->start_ns + EV (i)->duration_ns);
      }
  self->step_ns = events->len ? w1 - w0 : 0;
  for (guint i = 0; i < events->len; i++)
    {
      Event *e = EV (i);

      e->shown = e->start_ns >= w0 && e->start_ns + e->duration_ns <= w1 &&
                 (!is_step (e) || (int) i == step);
    }

  /* each event's nearest ancestor in the step, its depth, the time in its children */
  for (guint i = 0; i < events->len; i++)
    {
      Event *e = EV (i);
      int p = e->parent;

      if (!e->shown)
        continue;
      while (p >= 0 && !EV (p)->shown)
        p = EV (p)->parent;
      e->shown_parent = p;
      if (p >= 0)
        children_ns[p] += e->duration_ns;
    }
  for (guint i = 0; i < events->len; i++)
    {
      Event *e = EV (i);

      if (!e->shown)
        continue;
      for (int p = e->shown_parent; p >= 0; p = EV (p)->shown_parent)
        depth[i]++;
      if (depth[i] + 1 > GPOINTER_TO_UINT (g_hash_table_lookup (max_depth, GUINT_TO_POINTER (e->thread))))
        g_hash_table_insert (max_depth, GUINT_TO_POINTER (e->thread), GUINT_TO_POINTER (depth[i] + 1));
    }

  /* the threads one band under the other, by number */
  {
    g_autoptr(GArray) threads = g_array_new (FALSE, FALSE, sizeof (guint));
    GHashTableIter iter;
    gpointer key;

    g_hash_table_iter_init (&iter, max_depth);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      {
        guint t = GPOINTER_TO_UINT (key);
        g_array_append_val (threads, t);
      }
    g_array_sort (threads, compare_uint);
    for (guint i = 0; i < threads->len; i++)
      {
        gpointer t = GUINT_TO_POINTER (g_array_index (threads, guint, i));

        g_hash_table_insert (band, t, GUINT_TO_POINTER (n_rows + 1));
        n_rows += GPOINTER_TO_UINT (g_hash_table_lookup (max_depth, t));
      }
  }
  self->n_chart_rows = n_rows;

  for (guint k = 0; k < events->len; k++)
    {
      int i = order[k];
      Event *e = EV (i);
      GvProfileRange r = { 0 };
      gboolean outermost = TRUE;

      if (!e->shown)
        continue;
      r.name = g_strdup (e->name);
      r.category = g_strdup (e->category);
      r.start_ns = e->start_ns - w0;
      r.duration_ns = e->duration_ns;
      r.self_ns = MAX (0, e->duration_ns - children_ns[i]);
      r.thread = e->thread;
      r.depth = depth[i];
      r.row = GPOINTER_TO_UINT (g_hash_table_lookup (band, GUINT_TO_POINTER (e->thread))) - 1 + depth[i];
      g_array_append_val (self->ranges, r);

      if (g_strcmp0 (e->category, "kernel") == 0)
        self->n_kernels++;
      for (int p = e->shown_parent; p >= 0 && outermost; p = EV (p)->shown_parent)
        if (g_strcmp0 (EV (p)->category, e->category) == 0)
          outermost = FALSE;
      if (outermost)
        add_category_ns (self, e->category, e->duration_ns);

      /* a module: its row */
      if (g_strcmp0 (e->category, "module") == 0)
        {
          char *path, *type;
          g_autofree char *key = NULL;
          GvProfileRow *row;

          split_module_name (e->name, &path, &type);
          key = g_strconcat (path, "\x1f", type, NULL);
          row = g_hash_table_lookup (row_of, key);
          if (row == NULL)
            {
              row = g_object_new (GV_TYPE_PROFILE_ROW, NULL);
              row->path = path;
              row->type_name = type;
              g_ptr_array_add (rows, row);
              g_hash_table_insert (row_of, g_steal_pointer (&key), row);
            }
          else
            {
              g_free (path);
              g_free (type);
            }
          row->calls++;
          row->total_ns += e->duration_ns;
          row->self_ns += e->duration_ns;
        }
    }
  /* a module's time out of its enclosing module's self time */
  for (guint i = 0; i < events->len; i++)
    {
      Event *e = EV (i);
      int p;

      if (!e->shown || g_strcmp0 (e->category, "module") != 0)
        continue;
      for (p = e->shown_parent; p >= 0 && g_strcmp0 (EV (p)->category, "module") != 0; p = EV (p)->shown_parent)
        ;
      if (p >= 0)
        {
          g_autofree char *ppath = NULL, *ptype = NULL, *pkey = NULL;
          GvProfileRow *outer;

          split_module_name (EV (p)->name, &ppath, &ptype);
          pkey = g_strconcat (ppath, "\x1f", ptype, NULL);
          if ((outer = g_hash_table_lookup (row_of, pkey)) != NULL)
            outer->self_ns -= e->duration_ns;
        }
    }
  for (guint i = 0; i < rows->len; i++)
    {
      GvProfileRow *row = rows->pdata[i];

      row->self_ns = MAX (0, row->self_ns);
      row->percent = self->step_ns > 0 ? 100.0 * row->total_ns / self->step_ns : 0;
    }
  g_array_sort (self->ranges, compare_ranges);
  g_list_store_splice (self->rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->rows)),
                       rows->pdata, rows->len);
}

/* A profile of @events (their parents linked; taken), its first step shown. */
static GvProfile *
build (GArray     *events,
       const char *label)
{
  GvProfile *self = g_object_new (GV_TYPE_PROFILE, NULL);
  g_autofree int *order = g_new (int, MAX (events->len, 1));

  self->label = g_strdup (label);
  self->events = events;
  self->steps = g_array_new (FALSE, FALSE, sizeof (int));
  for (guint i = 0; i < events->len; i++)
    order[i] = (int) i;
  g_qsort_with_data (order, events->len, sizeof (int), compare_by_start, events);
  for (guint k = 0; k < events->len; k++)
    if (is_step (EV (order[k])))
      g_array_append_val (self->steps, order[k]);
  self->n_steps = self->steps->len;
  select_step (self, 0);
  return self;
}

gboolean
gv_profile_set_step (GvProfile *self,
                     guint      index)
{
  if (index >= MAX (self->n_steps, 1))
    return FALSE;
  if (index != self->step)
    select_step (self, index);
  return TRUE;
}

guint
gv_profile_get_step (GvProfile *self)
{
  return self->step;
}

#undef EV

/* ---- from a profiler ---------------------------------------------------------------------- */

static const char *
kind_category (GnnProfilerEventKind kind)
{
  /* the trace's "cat" of each kind, as export_chrome_trace writes it */
  switch (kind)
    {
    case GNN_PROFILER_EVENT_KERNEL: return "kernel";
    case GNN_PROFILER_EVENT_MODULE: return "module";
    case GNN_PROFILER_EVENT_BACKWARD: return "backward";
    case GNN_PROFILER_EVENT_OPTIMIZER: return "optimizer";
    case GNN_PROFILER_EVENT_USER: return "user_annotation";
    case GNN_PROFILER_EVENT_STEP: return "profiler_step";
    case GNN_PROFILER_EVENT_MODULE_BACKWARD: return "module_backward";
    default: return "unknown";
    }
}

GvProfile *
gv_profile_new_from_events (GPtrArray  *events,
                            const char *label)
{
  g_autoptr(GArray) all = event_array_new ();

  for (guint i = 0; i < events->len; i++)
    {
      GnnProfilerEvent *pe = g_ptr_array_index (events, i);
      Event e = { 0 };

      e.name = g_strdup (gnn_profiler_event_get_name (pe));
      e.category = g_strdup (kind_category (gnn_profiler_event_get_kind (pe)));
      e.start_ns = gnn_profiler_event_get_start_ns (pe);
      e.duration_ns = MAX (0, gnn_profiler_event_get_duration_ns (pe));
      e.thread = gnn_profiler_event_get_thread (pe);
      e.id = gnn_profiler_event_get_id (pe);
      e.parent_id = gnn_profiler_event_get_parent_id (pe);
      g_array_append_val (all, e);
    }
  /* ids from one profiler are unique and nest */
  link_parents (all, label, NULL);
  return build (g_steal_pointer (&all), label);
}

/* ---- from a chrome trace ----------------------------------------------------------------- */

static const char *
node_kind (JsonNode *node)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT: return _("an object");
    case JSON_NODE_ARRAY: return _("an array");
    case JSON_NODE_NULL: return _("null");
    case JSON_NODE_VALUE:
      {
        GType t = json_node_get_value_type (node);

        if (t == G_TYPE_STRING)
          return _("a string");
        if (t == G_TYPE_BOOLEAN)
          return _("a boolean");
        return _("a number");
      }
    default:
      return _("something else");
    }
}

static gboolean
is_number (JsonNode *node)
{
  GType t;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  t = json_node_get_value_type (node);
  return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

/* the member @name of @obj, the event @index of @what, as a number; @required or @fallback */
static gboolean
get_number (JsonObject  *obj,
            const char  *name,
            gboolean     required,
            double       fallback,
            double      *out,
            const char  *what,
            guint        index,
            GError     **error)
{
  JsonNode *node = json_object_get_member (obj, name);

  if (node == NULL && !required)
    {
      *out = fallback;
      return TRUE;
    }
  if (node == NULL || !is_number (node))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   _("%s: traceEvents[%u]: expected a number for \"%s\", found %s"), what, index, name,
                   node ? node_kind (node) : _("no such member"));
      return FALSE;
    }
  *out = json_node_get_double (node);
  if (!isfinite (*out) || fabs (*out) > 1e15)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   _("%s: traceEvents[%u]: expected \"%s\" within ±10¹⁵ µs, found %g"), what, index,
                   name, *out);
      return FALSE;
    }
  return TRUE;
}

static gboolean
get_string (JsonObject  *obj,
            const char  *name,
            gboolean     required,
            const char **out,
            const char  *what,
            guint        index,
            GError     **error)
{
  JsonNode *node = json_object_get_member (obj, name);

  if (node == NULL && !required)
    {
      *out = NULL;
      return TRUE;
    }
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   _("%s: traceEvents[%u]: expected a string for \"%s\", found %s"), what, index, name,
                   node ? node_kind (node) : _("no such member"));
      return FALSE;
    }
  *out = json_node_get_string (node);
  return TRUE;
}

/* One complete ("X") event of the trace into @events; other phases are skipped. */
static gboolean
read_event (JsonNode    *node,
            guint        index,
            GArray      *events,
            const char  *what,
            GError     **error)
{
  JsonObject *obj;
  const char *ph, *name, *cat;
  double ts, dur, tid, id = -1, parent = -1;
  JsonNode *args;
  Event e = { 0 };

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   _("%s: traceEvents[%u]: expected an event (an object), found %s"), what, index,
                   node_kind (node));
      return FALSE;
    }
  obj = json_node_get_object (node);
  if (!get_string (obj, "ph", TRUE, &ph, what, index, error))
    return FALSE;
  if (strcmp (ph, "X") != 0)
    return TRUE;
  if (!get_string (obj, "name", TRUE, &name, what, index, error) ||
      !get_string (obj, "cat", FALSE, &cat, what, index, error) ||
      !get_number (obj, "ts", TRUE, 0, &ts, what, index, error) ||
      !get_number (obj, "dur", TRUE, 0, &dur, what, index, error) ||
      !get_number (obj, "tid", FALSE, 0, &tid, what, index, error))
    return FALSE;
  if (dur < 0 || tid < 0 || tid > G_MAXUINT)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   _("%s: traceEvents[%u]: expected \"dur\" and \"tid\" ≥ 0, found %g and %g"), what,
                   index, dur, tid);
      return FALSE;
    }
  if ((args = json_object_get_member (obj, "args")) != NULL && JSON_NODE_HOLDS_OBJECT (args))
    {
      JsonObject *a = json_node_get_object (args);

      if (!get_number (a, "id", FALSE, -1, &id, what, index, error) ||
          !get_number (a, "parent", FALSE, -1, &parent, what, index, error))
        return FALSE;
    }
  e.name = g_strdup (name);
  e.category = g_strdup (cat ? cat : "");
  e.start_ns = (gint64) llround (ts * 1000);
  e.duration_ns = (gint64) llround (dur * 1000);
  e.thread = (guint) tid;
  e.id = id >= 0 ? (gint64) id : -1;
  e.parent_id = parent >= 0 ? (gint64) parent : -1;
  g_array_append_val (events, e);
  return TRUE;
}

GvProfile *
gv_profile_new_from_data (const char  *text,
                          gsize        length,
                          const char  *what,
                          GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GArray) events = event_array_new ();
  g_autoptr(GError) local = NULL;
  JsonNode *root, *list;
  JsonArray *array;

  if (length == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   _("%s: expected a chrome trace ({\"traceEvents\": [...]}), found an empty file"), what);
      return NULL;
    }
  if (!gnn_json_scan (text, length, GV_PROFILE_MAX_JSON_DEPTH, what, error))
    return NULL;
  if (!json_parser_load_from_data (parser, text, (gssize) length, &local))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   _("%s: expected a chrome trace ({\"traceEvents\": [...]}), found JSON that does not "
                     "parse: %s"), what, local->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root) ||
      (list = json_object_get_member (json_node_get_object (root), "traceEvents")) == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   _("%s: expected a chrome trace ({\"traceEvents\": [...]}), found %s"), what,
                   root == NULL ? _("nothing") :
                   JSON_NODE_HOLDS_OBJECT (root) ? _("an object without \"traceEvents\"") : node_kind (root));
      return NULL;
    }
  if (!JSON_NODE_HOLDS_ARRAY (list))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   _("%s: expected \"traceEvents\" to be an array of events, found %s"), what,
                   node_kind (list));
      return NULL;
    }
  array = json_node_get_array (list);
  for (guint i = 0; i < json_array_get_length (array); i++)
    if (!read_event (json_array_get_element (array, i), i, events, what, error))
      return NULL;
  if (events->len == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   _("%s: expected complete (\"ph\": \"X\") events in \"traceEvents\", found none among its "
                     "%u events"), what, json_array_get_length (array));
      return NULL;
    }
  if (!link_parents (events, what, error))
    return NULL;
  return build (g_steal_pointer (&events), what);
}

GvProfile *
gv_profile_new_from_file (const char  *path,
                          GError     **error)
{
  GStatBuf st;
  g_autofree char *text = NULL;
  gsize length;

  if (g_stat (path, &st) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), _("%s: cannot read it: %s"),
                   path, g_strerror (saved));
      return NULL;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("%s: expected a chrome trace file, found %s"), path,
                   S_ISDIR (st.st_mode) ? _("a folder") : _("something that is not a file"));
      return NULL;
    }
  if (st.st_size > GV_PROFILE_MAX_FILE_SIZE)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   _("%s: expected a chrome trace of at most %d MiB, found %" G_GINT64_FORMAT " bytes"),
                   path, GV_PROFILE_MAX_FILE_SIZE / (1024 * 1024), (gint64) st.st_size);
      return NULL;
    }
  if (!g_file_get_contents (path, &text, &length, error))
    return NULL;
  return gv_profile_new_from_data (text, length, path, error);
}

gboolean
gv_profile_sniff_file (const char *path)
{
  static const char key[] = "\"traceEvents\"";
  char head[4096];
  FILE *f = g_fopen (path, "rb");
  size_t n, i = 0;

  if (f == NULL)
    return FALSE;
  n = fread (head, 1, sizeof head, f);
  fclose (f);
  while (i < n && g_ascii_isspace (head[i]))
    i++;
  if (i >= n || head[i] != '{')
    return FALSE;
  /* gnn writes the member first; other writers put a little metadata before it */
  for (; i + sizeof key - 1 <= n; i++)
    if (memcmp (head + i, key, sizeof key - 1) == 0)
      return TRUE;
  return FALSE;
}
