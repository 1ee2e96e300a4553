/* gnn-train-charlm.h: gnn-train's second task, a character-level language model (not installed)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* where Debian's fortunes and fortunes-min packages put their text files */
#define GNN_CHAR_CORPUS_DEFAULT_DIR "/usr/share/games/fortunes"

/* A text corpus as byte tokens. The files of a folder (regular files, not the .dat and .u8
 * index files strfile writes, sorted by name) each give their first 95% to the training text
 * and their last 5% (length / 20 bytes, rounded down) to the held-out text; the vocabulary is
 * the sorted set of the bytes seen in all of them, so that it is fixed by the corpus alone.
 * The texts hold vocabulary indices, not bytes. */
typedef struct
{
  guint   n_vocab;
  guint8  chars[256];     /* the byte of each index */
  int     index[256];     /* the index of each byte, -1 for bytes not seen */
  guint8 *train;
  gsize   n_train;
  guint8 *val;
  gsize   n_val;
  guint   n_files;
} GnnCharCorpus;

/* Reads the corpus in @dir into @corpus (cleared first). A missing folder, or one without
 * text files, is a G_FILE_ERROR_NOENT that says to install the fortunes package. */
gboolean gnn_char_corpus_load  (GnnCharCorpus  *corpus,
                                const char     *dir,
                                GError        **error);
void     gnn_char_corpus_clear (GnnCharCorpus  *corpus);

G_END_DECLS

G_BEGIN_DECLS

/* gnn-train --task charlm: parses its own options (argv as main got it) and runs */
int   gnn_train_charlm_main      (int    argc,
                                  char **argv);

/* the task of a gnn-train checkpoint's metadata ("charlm"), or NULL for none or an unreadable file */
char *gnn_train_checkpoint_task  (const char *path);

G_END_DECLS
