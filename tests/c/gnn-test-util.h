/* gnn-test-util.h: helpers shared by the C tests */
#pragma once

#include "gnn.h"
#include <math.h>
#include <string.h>

G_BEGIN_DECLS

/* a float64 tensor from a literal list */
GnnTensor *gnn_test_tensor_d (const double *data, gsize n, const gint64 *shape, guint ndim);
/* asserts every element of @t equals @expected within abs/rel tolerance */
void       gnn_test_assert_close (GnnTensor *t, const double *expected, gsize n, double rtol, double atol);
/* asserts @t has this shape */
void       gnn_test_assert_shape (GnnTensor *t, const gint64 *shape, guint ndim);
/* Checks the gradient of a scalar function of one float64 input against central finite
 * differences. fn must build the output from its input with gnn ops. */
typedef GnnTensor *(*GnnTestFunc) (GnnTensor *x, gpointer data, GError **error);
void       gnn_test_gradcheck (GnnTestFunc fn, gpointer data, GnnTensor *x, double eps, double tol);
/* The same check of the gradient of x -> d (weighted sum of fn (x)) / dx, computed with
 * create_graph: the second derivative against finite differences of the first. */
void       gnn_test_gradgradcheck (GnnTestFunc fn, gpointer data, GnnTensor *x, double eps, double tol);

/* the sum of @y's elements weighted 1, 2, 3, ... in order (a scalar whose gradient is no
 * trivial constant), in @y's dtype */
GnnTensor *gnn_test_weighted_sum (GnnTensor *y, GError **error);
/* a float64 tensor of standard normal values, seeding the default generator with @seed */
GnnTensor *gnn_test_randn (const gint64 *shape, guint ndim, guint64 seed);

/* g_test_init, then checks that GNN_BACKEND, when set, really is the backend in use */
void       gnn_test_init (int *argc, char ***argv);
/* the backend called @name, which must be there */
GnnBackend *gnn_test_backend_named (const char *name);

#define GNN_TEST_SHAPE(...) ((const gint64[]) { __VA_ARGS__ })
#define GNN_TEST_DATA(...) ((const double[]) { __VA_ARGS__ })

G_END_DECLS
