/* bad-backend-module.c: shared modules the backend registry must refuse (test-backend.c)
 *
 * Built twice (tests/c/meson.build):
 * - with BAD_BACKEND_WRONG_VERSION: a module that exports both entry points but claims a backend
 *   API version this libgnn does not have;
 * - without: a well-formed shared object that is not a gnn backend module at all.
 */
#include <gmodule.h>

#ifdef BAD_BACKEND_WRONG_VERSION

#include <gnn/gnn.h>

/**
 * gnn_backend_module_api_version:
 *
 * One more than the version libgnn was built with, so that the registry refuses the module.
 */
G_MODULE_EXPORT const guint gnn_backend_module_api_version = GNN_BACKEND_API_VERSION + 1;

/**
 * gnn_backend_module_register:
 *
 * Never called: the registry checks the version first.
 */
G_MODULE_EXPORT void gnn_backend_module_register (void);

void
gnn_backend_module_register (void)
{
  g_error ("the registry called a module with the wrong backend API version");
}

#else

/**
 * gnn_test_not_a_backend:
 *
 * Something a shared object exports that is no gnn entry point.
 *
 * Returns: 42
 */
G_MODULE_EXPORT int gnn_test_not_a_backend (void);

int
gnn_test_not_a_backend (void)
{
  return 42;
}

#endif
