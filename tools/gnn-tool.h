/* gnn-tool.h: what the command-line tools share (not installed)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* Finds @name in @dir, gzipped (NAME.gz, preferred) or not; NULL when neither exists. */
char       *gnn_tool_find_data_file (const char *dir,
                                     const char *name);

/* The IDX images and labels @images_name / @labels_name of @dir as a dataset; @limit > 0
 * keeps the first @limit samples. A missing file is a G_FILE_ERROR_NOENT naming it. */
GnnDataset *gnn_tool_load_split     (const char *dir,
                                     const char *images_name,
                                     const char *labels_name,
                                     int         limit,
                                     GError    **error);

/* gnn-train's default model: two conv-BN-ReLU-pool blocks and a two-layer classifier. */
GnnModule  *gnn_tool_default_model  (GError    **error);

/* One training step of a classifier on @batch (images, labels): zero_grad, forward,
 * cross-entropy, backward, optimizer step; the loss's value in @loss_value. */
gboolean    gnn_tool_classifier_step (GnnModule    *model,
                                      GnnOptimizer *optimizer,
                                      GPtrArray    *batch,
                                      double       *loss_value,
                                      GError      **error);

/* The metadata @key of the checkpoint @ckpt read from @path; NULL with a
 * GNN_ERROR_FILE_FORMAT naming the key when it has none (@what names the kind of
 * checkpoint expected, "gnn-train" say). */
const char *gnn_tool_require_metadata (GnnCheckpoint  *ckpt,
                                       const char     *path,
                                       const char     *what,
                                       const char     *key,
                                       GError        **error);

/* The metadata @key as an integer from 0 to @max in @out; FALSE with a GNN_ERROR_FILE_FORMAT
 * when it is missing or is not one. */
gboolean    gnn_tool_metadata_int     (GnnCheckpoint  *ckpt,
                                       const char     *path,
                                       const char     *what,
                                       const char     *key,
                                       gint64          max,
                                       gint64         *out,
                                       GError        **error);

/* One option of a tool that shapes a run: its long name, and whether it shapes only the
 * evaluation (so that --resume may change it). A tool's table of them may hold more per
 * option, after these. */
typedef struct
{
  const char *key;
  gboolean    evaluation_only;
} GnnToolRunOption;

/* A tool's run options as gnn_tool_resume_options() and gnn_tool_save_options() use them:
 * @n entries from @first, @stride bytes apart, and the tool's own option values @opts read
 * and written through given/to_string/from_string, by index. */
typedef struct
{
  const GnnToolRunOption *first;
  gsize                   stride;
  guint                   n;
  gboolean (*given)       (gconstpointer opts, guint i);
  char    *(*to_string)   (gconstpointer opts, guint i);
  gboolean (*from_string) (gpointer opts, guint i, const char *value);
} GnnToolOptionTable;

/* Writes every option of @table as the metadata @prefix KEY of @ckpt. */
void        gnn_tool_save_options     (GnnCheckpoint            *ckpt,
                                       const char               *prefix,
                                       const GnnToolOptionTable *table,
                                       gconstpointer             opts);

/* Reads the options of the run that the checkpoint @ckpt (loaded from @path) holds as the
 * metadata @prefix KEY into @opts. An option given on the command line must agree with the
 * checkpoint's when it shapes the training (a G_OPTION_ERROR_BAD_VALUE otherwise: the run
 * would become another one); one that shapes only the evaluation overrides the checkpoint's,
 * and *@overrides (NULL when none) says which, for the tool to print. An evaluation option a
 * checkpoint lacks (written before it was kept) is left to the command line or the default;
 * any other missing or unreadable option is a GNN_ERROR_FILE_FORMAT. */
gboolean    gnn_tool_resume_options   (GnnCheckpoint            *ckpt,
                                       const char               *path,
                                       const char               *what,
                                       const char               *prefix,
                                       const GnnToolOptionTable *table,
                                       gpointer                  opts,
                                       char                    **overrides,
                                       GError                  **error);

/* Makes the first Ctrl-C set the flag gnn_tool_interrupted() reads, for the tool to save its
 * state and stop cleanly at the next step; a second Ctrl-C ends the program at once. */
void        gnn_tool_install_sigint   (void);
gboolean    gnn_tool_interrupted      (void);

/* Whether standard output is a terminal that progress lines may redraw in place (not when
 * $TERM is "dumb"); asked once. */
gboolean    gnn_tool_on_terminal      (void);

/* The width of the terminal on standard output: the kernel's idea of it (asked at every call,
 * so a resized window is followed), else $COLUMNS, else 80. */
int         gnn_tool_terminal_width   (void);

/* @seconds as M:SS, or H:MM:SS from an hour on. */
char       *gnn_tool_format_duration  (double seconds);

G_END_DECLS
