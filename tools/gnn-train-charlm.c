/* gnn-train-charlm.c: gnn-train's second task, a character-level language model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

#include "gnn-train-charlm.h"
#include <string.h>

/* ---- the corpus --------------------------------------------------------------------------- */

void
gnn_char_corpus_clear (GnnCharCorpus *corpus)
{
  g_clear_pointer (&corpus->train, g_free);
  g_clear_pointer (&corpus->val, g_free);
  memset (corpus, 0, sizeof *corpus);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* the text files of @dir, sorted; NULL with @error when the folder cannot be read */
static GPtrArray *
list_text_files (const char  *dir,
                 GError     **error)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, error);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (d == NULL)
    return NULL;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_str_has_suffix (name, ".dat") || g_str_has_suffix (name, ".u8") || name[0] == '.' ||
          !g_file_test (path, G_FILE_TEST_IS_REGULAR))
        continue;
      g_ptr_array_add (names, g_steal_pointer (&path));
    }
  g_ptr_array_sort (names, compare_names);
  return g_steal_pointer (&names);
}

gboolean
gnn_char_corpus_load (GnnCharCorpus  *corpus,
                      const char     *dir,
                      GError        **error)
{
  g_autoptr(GPtrArray) paths = NULL;
  g_autoptr(GByteArray) train = g_byte_array_new ();
  g_autoptr(GByteArray) val = g_byte_array_new ();
  g_autoptr(GError) local_error = NULL;
  gboolean seen[256] = { FALSE };

  gnn_char_corpus_clear (corpus);
  paths = list_text_files (dir, &local_error);
  if (paths == NULL || paths->len == 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                   "the text corpus was not found: expected the fortune files in %s, found %s; "
                   "install Debian's fortunes package or pass --data-dir DIR", dir,
                   local_error ? local_error->message : "no text files there");
      return FALSE;
    }
  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *text = NULL;
      gsize length, n_val;

      if (!g_file_get_contents (paths->pdata[i], &text, &length, error))
        return FALSE;
      n_val = length / 20;
      g_byte_array_append (train, (const guint8 *) text, length - n_val);
      g_byte_array_append (val, (const guint8 *) text + length - n_val, n_val);
      for (gsize j = 0; j < length; j++)
        seen[(guint8) text[j]] = TRUE;
    }
  for (int b = 0; b < 256; b++)
    {
      corpus->index[b] = seen[b] ? (int) corpus->n_vocab : -1;
      if (seen[b])
        corpus->chars[corpus->n_vocab++] = (guint8) b;
    }
  for (guint j = 0; j < train->len; j++)
    train->data[j] = (guint8) corpus->index[train->data[j]];
  for (guint j = 0; j < val->len; j++)
    val->data[j] = (guint8) corpus->index[val->data[j]];
  corpus->n_files = paths->len;
  corpus->n_train = train->len;
  corpus->n_val = val->len;
  corpus->train = g_byte_array_steal (train, NULL);
  corpus->val = g_byte_array_steal (val, NULL);
  return TRUE;
}
