/* gnn-cuda-private.h: what the CUDA backend's host side (gnn-cuda-backend.c) and its kernels
 * (the .cu files) share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The host side owns devices, streams, memory and cuBLAS, and calls the kernels through
 * gnn_cuda_kernels_run(); the kernels never allocate host memory and never synchronize.
 * The .cu files are C++ (nvcc) and include this header inside extern "C" linkage.
 */
#pragma once

#include <gnn/gnn.h>
#include <gnn/backend/gnn-backend-impl.h>
#include <cuda_runtime_api.h>

G_BEGIN_DECLS

/* One device as the kernels see it: the stream every kernel of the device is queued on
 * (one stream per device, so work is ordered), and a scratch allocation for kernels that
 * need workspace (reductions, foreach argument tables): at least scratch_bytes bytes,
 * valid until the next kernel on this device. */
typedef struct {
  int device;
  cudaStream_t stream;
  int sm_count;
  void *scratch;
  size_t scratch_bytes;
  /* asks the host side for a larger scratch buffer; returns NULL with @error set on failure */
  void *(*grow_scratch) (gpointer host, size_t nbytes, GError **error);
  gpointer host;
} GnnCudaContext;

/* Whether the .cu kernels implement @op for @dtype (GEMM is the host side's, through cuBLAS). */
gboolean gnn_cuda_kernels_supports (GnnBackendOp op,
                                    GnnDtype     dtype);

/* Queues one kernel on ctx->stream. Returns FALSE with @error (GNN_ERROR_NOT_SUPPORTED for an
 * op or dtype it lacks, GNN_ERROR_BACKEND for a launch failure, naming the op). */
gboolean gnn_cuda_kernels_run      (GnnCudaContext      *ctx,
                                    const GnnKernelArgs *args,
                                    GError             **error);

G_END_DECLS
