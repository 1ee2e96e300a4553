/* gnn-version-macros.h: symbol visibility, availability and deprecation
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * As GLib and json-glib do it: a program defines GNN_VERSION_MIN_REQUIRED (the oldest gnn it
 * supports: symbols deprecated since then warn) and GNN_VERSION_MAX_ALLOWED (the newest gnn whose
 * API it may use: symbols added after it warn) before it includes <gnn/gnn.h>. Each public
 * symbol is marked GNN_AVAILABLE_IN_x_y (the version that added it; GNN_AVAILABLE_IN_ALL for the
 * symbols of the first version, 0.1) and, once deprecated, GNN_DEPRECATED_IN_x_y or
 * GNN_DEPRECATED_IN_x_y_FOR (replacement). A new minor version adds its GNN_VERSION_x_y and its
 * block of macros below.
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib.h>

#include "gnn-version.h"

#ifndef _GNN_EXTERN
# define _GNN_EXTERN __attribute__((visibility ("default"))) extern
#endif

/**
 * GNN_ENCODE_VERSION:
 * @major: a major version
 * @minor: a minor version
 *
 * Encodes a gnn version in a form the C preprocessor can compare, as the values of
 * %GNN_VERSION_MIN_REQUIRED and %GNN_VERSION_MAX_ALLOWED are.
 *
 * Since: 0.1
 */
#define GNN_ENCODE_VERSION(major,minor) ((major) << 16 | (minor) << 8)

/**
 * GNN_VERSION_0_1:
 *
 * The version 0.1 of gnn, encoded by GNN_ENCODE_VERSION(), for %GNN_VERSION_MIN_REQUIRED and
 * %GNN_VERSION_MAX_ALLOWED.
 *
 * Since: 0.1
 */
#define GNN_VERSION_0_1 (GNN_ENCODE_VERSION (0, 1))

/**
 * GNN_VERSION_CUR_STABLE:
 *
 * The version of the headers (major and minor), encoded by GNN_ENCODE_VERSION(): the default of
 * %GNN_VERSION_MIN_REQUIRED and %GNN_VERSION_MAX_ALLOWED.
 *
 * Since: 0.1
 */
#define GNN_VERSION_CUR_STABLE (GNN_ENCODE_VERSION (GNN_MAJOR_VERSION, GNN_MINOR_VERSION))

/**
 * GNN_VERSION_MIN_REQUIRED:
 *
 * The oldest version of gnn a program means to build against, defined by the program before it
 * includes `<gnn/gnn.h>` (`#define GNN_VERSION_MIN_REQUIRED GNN_VERSION_0_1`): symbols
 * deprecated in a version up to it warn when used. By default the version of the headers.
 *
 * Since: 0.1
 */
#ifndef GNN_VERSION_MIN_REQUIRED
#define GNN_VERSION_MIN_REQUIRED (GNN_VERSION_CUR_STABLE)
#endif

/**
 * GNN_VERSION_MAX_ALLOWED:
 *
 * The newest version of gnn whose API a program may use, defined by the program before it
 * includes `<gnn/gnn.h>`: symbols added after it warn when used. By default the version of the
 * headers.
 *
 * Since: 0.1
 */
#ifndef GNN_VERSION_MAX_ALLOWED
#if GNN_VERSION_MIN_REQUIRED > GNN_VERSION_CUR_STABLE
#define GNN_VERSION_MAX_ALLOWED (GNN_VERSION_MIN_REQUIRED)
#else
#define GNN_VERSION_MAX_ALLOWED (GNN_VERSION_CUR_STABLE)
#endif
#endif

#if GNN_VERSION_MAX_ALLOWED < GNN_VERSION_MIN_REQUIRED
#error "GNN_VERSION_MAX_ALLOWED must be >= GNN_VERSION_MIN_REQUIRED"
#endif
#if GNN_VERSION_MIN_REQUIRED < GNN_VERSION_0_1
#error "GNN_VERSION_MIN_REQUIRED must be >= GNN_VERSION_0_1, the first version of gnn"
#endif

/**
 * GNN_DEPRECATED_FOR:
 * @f: the symbol to use instead
 *
 * Marks a deprecated public symbol, naming its replacement: using it warns.
 *
 * Since: 0.1
 */

/**
 * GNN_UNAVAILABLE:
 * @maj: the major version that adds the symbol
 * @min: the minor version that adds the symbol
 *
 * Marks a public symbol that is newer than %GNN_VERSION_MAX_ALLOWED: using it warns.
 *
 * Since: 0.1
 */

/**
 * GNN_DEPRECATED_IN_0_1_FOR:
 * @f: the symbol to use instead
 *
 * Marks a public symbol deprecated in 0.1 in favour of @f: using it warns when
 * %GNN_VERSION_MIN_REQUIRED is 0.1 or newer.
 *
 * Since: 0.1
 */

#define GNN_DEPRECATED G_DEPRECATED _GNN_EXTERN
#define GNN_DEPRECATED_FOR(f) G_DEPRECATED_FOR (f) _GNN_EXTERN
#define GNN_UNAVAILABLE(maj,min) G_UNAVAILABLE (maj, min) _GNN_EXTERN

/* the symbols of every version: those of 0.1, the first */
#define GNN_AVAILABLE_IN_ALL _GNN_EXTERN

/* 0.1 */
#if GNN_VERSION_MIN_REQUIRED >= GNN_VERSION_0_1
# define GNN_DEPRECATED_IN_0_1 GNN_DEPRECATED
# define GNN_DEPRECATED_IN_0_1_FOR(f) GNN_DEPRECATED_FOR (f)
#else
# define GNN_DEPRECATED_IN_0_1 _GNN_EXTERN
# define GNN_DEPRECATED_IN_0_1_FOR(f) _GNN_EXTERN
#endif

#if GNN_VERSION_MAX_ALLOWED < GNN_VERSION_0_1
# define GNN_AVAILABLE_IN_0_1 GNN_UNAVAILABLE (0, 1)
#else
# define GNN_AVAILABLE_IN_0_1 _GNN_EXTERN
#endif
