/* gnn-backend-impl.h: what a backend implements
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Include this header after <gnn/gnn.h> to write a backend, built in or as a loadable
 * module. It is not part of the introspected API.
 */
#pragma once

#include "gnn-backend.h"

G_BEGIN_DECLS

/**
 * GNN_MAX_DIMS:
 *
 * The largest number of dimensions a tensor may have.
 */
#define GNN_MAX_DIMS 8

/**
 * GnnKernelTensor:
 * @data: the address of the first element (device memory for a device backend)
 * @dtype: the element type
 * @ndim: the number of dimensions
 * @shape: the size of each dimension
 * @strides: the stride of each dimension, in elements
 *
 * A tensor operand as a kernel sees it: a strided view of memory on the backend's device.
 */
typedef struct {
  gpointer data;
  GnnDtype dtype;
  guint ndim;
  gint64 shape[GNN_MAX_DIMS];
  gint64 strides[GNN_MAX_DIMS];
} GnnKernelTensor;

/**
 * GnnKernelRandom:
 * @seed: the Philox key
 * @offset: the Philox counter of element 0; element i of the contiguous out uses offset + i
 * @low: RAND_UNIFORM: the lower bound, included
 * @high: RAND_UNIFORM: the upper bound, excluded in every dtype
 * @mean: RAND_NORMAL: the mean
 * @std: RAND_NORMAL: the standard deviation
 * @int_low: RAND_INT: the lower bound, included
 * @int_high: RAND_INT: the upper bound, excluded
 *
 * The parameters of the random kernels.
 */
typedef struct {
  guint64 seed;
  guint64 offset;
  double low, high;
  double mean, std;
  gint64 int_low, int_high;
} GnnKernelRandom;

/**
 * GnnKernelReduce:
 * @outer: the size of the dimensions before the reduced one
 * @reduced: the size of the reduced dimension (r)
 * @inner: the size of the dimensions after it
 * @correction: VAR: the variance divides by max (r - correction, 0)
 * @reverse: CUMSUM, CUMPROD, LOGCUMSUMEXP: scan from the end of r to its start; SORT: descending
 *
 * The layout [outer, r, inner] of a contiguous operand of a reduction, a softmax or a scan.
 */
typedef struct {
  gint64 outer, reduced, inner;
  double correction;
  gboolean reverse;
} GnnKernelReduce;

/**
 * GnnKernelIndex:
 * @outer: the size of the dimensions before the indexed one
 * @size: the size of the indexed dimension (of the source for INDEX_SELECT and GATHER, of out
 *   for INDEX_ADD and SCATTER_ADD)
 * @inner: the size of the dimensions after it
 * @index_size: GATHER, SCATTER_ADD, SCATTER_REDUCE: the size of that dimension in the index
 * @reduce: SCATTER_REDUCE: how a value meets the one in place, a #GnnKernelScatterReduce
 *
 * The layout of the operands of an indexing kernel.
 */
typedef struct {
  gint64 outer, size, inner, index_size;
  int reduce;
} GnnKernelIndex;

/**
 * GnnKernelScatterReduce:
 * @GNN_KERNEL_SCATTER_REPLACE: the value replaces the one in place
 * @GNN_KERNEL_SCATTER_PROD: the product of the two
 * @GNN_KERNEL_SCATTER_AMAX: the larger of the two (NaN if either is)
 * @GNN_KERNEL_SCATTER_AMIN: the smaller of the two (NaN if either is)
 *
 * The combinations of SCATTER_REDUCE (params.index.reduce).
 */
typedef enum {
  GNN_KERNEL_SCATTER_REPLACE,
  GNN_KERNEL_SCATTER_PROD,
  GNN_KERNEL_SCATTER_AMAX,
  GNN_KERNEL_SCATTER_AMIN,
} GnnKernelScatterReduce;

/**
 * GnnKernelWindow:
 * @kernel: the window's size, (H, W)
 * @stride: the step between windows, (H, W)
 * @padding: the implicit zero padding on each side, (H, W)
 * @dilation: the step between the elements of a window, (H, W) (1 for average pooling)
 * @divisor: AVG_POOL2D and its backward: divisor_override when not 0 (a negative one too, as torch)
 * @count_include_pad: AVG_POOL2D and its backward: whether the padding counts in a window's size
 *
 * The geometry of IM2COL, COL2IM and the pooling kernels: all sizes ≥ 0, kernel, stride and
 * dilation ≥ 1.
 */
typedef struct {
  gint64 kernel[2];
  gint64 stride[2];
  gint64 padding[2];
  gint64 dilation[2];
  double divisor;
  gboolean count_include_pad;
} GnnKernelWindow;

/**
 * GnnKernelVolume:
 * @kernel: the window's size, (D, H, W)
 * @stride: the step between windows, (D, H, W)
 * @padding: the implicit zero padding on each side, (D, H, W)
 * @dilation: the step between the elements of a window, (D, H, W) (1 for average pooling)
 * @divisor: AVG_POOL3D and its backward: divisor_override when not 0 (a negative one too, as torch)
 * @count_include_pad: AVG_POOL3D and its backward: whether the padding counts in a window's size
 *
 * The geometry of VOL2COL, COL2VOL and the 3-d pooling kernels, [struct@Gnn.KernelWindow]
 * with a depth: all sizes ≥ 0, kernel, stride and dilation ≥ 1.
 */
typedef struct {
  gint64 kernel[3];
  gint64 stride[3];
  gint64 padding[3];
  gint64 dilation[3];
  double divisor;
  gboolean count_include_pad;
} GnnKernelVolume;

/**
 * GnnKernelAttention:
 * @scale: the factor of the scores q · kᵀ
 * @causal: query i attends only the keys j ≤ i
 * @mask: (nullable): an additive mask, shaped as the batch dims of q and (L, S), any strides
 * @v: ATTENTION_BACKWARD: the values (B, S, Ev)
 * @o: ATTENTION_BACKWARD: the forward's output (B, L, Ev)
 * @lse: ATTENTION_BACKWARD: the forward's logsumexp of each row of the scores (B, L)
 * @dv: ATTENTION_BACKWARD: the gradient of v (B, S, Ev), written
 *
 * The parameters and the operands beyond in0 .. in2, out and out2 of the attention kernels;
 * every operand lies on the kernel's device and has its compute dtype.
 */
typedef struct {
  double scale;
  gboolean causal;
  const GnnKernelTensor *mask;
  const GnnKernelTensor *v;
  const GnnKernelTensor *o;
  const GnnKernelTensor *lse;
  GnnKernelTensor *dv;
} GnnKernelAttention;

/**
 * GnnKernelParams:
 * @fill: FILL: out = value
 * @arange: ARANGE: out[i] = start + i · step
 * @random: RAND_UNIFORM, RAND_NORMAL, RAND_INT
 * @add: ADD, SUB: out = in0 ± alpha · in1
 * @addc: ADDCMUL, ADDCDIV: out = in0 + value · in1 · in2 (/ in2)
 * @pow: POW_SCALAR: out = in0 ^ exponent
 * @clamp: CLAMP: the bounds that are set (has_min, has_max)
 * @leaky_relu: LEAKY_RELU and its backward: the slope below 0
 * @elu: ELU and its backward: alpha
 * @gelu: GELU and its backward: approximate 0 (exact, erf) or 1 (tanh)
 * @gemm: GEMM: out = alpha · in0 · in1 + beta · out
 * @reduce: SUM, MAX, MIN, VAR, the softmaxes and their backwards, the scans (CUMSUM, CUMPROD,
 *   LOGCUMSUMEXP), SORT
 * @index: INDEX_SELECT, INDEX_ADD, GATHER, SCATTER_ADD
 * @one_hot: ONE_HOT: the number of classes
 * @window: IM2COL, COL2IM, the pooling kernels but the adaptive ones
 * @volume: VOL2COL, COL2VOL, the 3-d pooling kernels but the adaptive one
 * @norm: BATCH_NORM_STATS, CHANNEL_AFFINE, BATCH_NORM_BACKWARD_REDUCE: operands (batch, channels, spatial)
 * @lerp: FOREACH_LERP: the weight
 * @polygamma: POLYGAMMA: the order n ≥ 0 (0 the digamma function)
 * @attention: ATTENTION, ATTENTION_BACKWARD
 *
 * The parameters of a kernel call, one member per family of ops, as each [enum@Gnn.BackendOp]
 * documents; a kernel reads only its op's member.
 */
typedef union {
  struct { double value; } fill;
  struct { double start, step; } arange;
  GnnKernelRandom random;
  struct { double alpha; } add;
  struct { double value; } addc;
  struct { double exponent; } pow;
  struct { double min, max; gboolean has_min, has_max; } clamp;
  struct { double negative_slope; } leaky_relu;
  struct { double alpha; } elu;
  struct { int approximate; } gelu;
  struct { double alpha, beta; } gemm;
  GnnKernelReduce reduce;
  GnnKernelIndex index;
  struct { gint64 classes; } one_hot;
  GnnKernelWindow window;
  struct { gint64 batch, channels, spatial; } norm;
  struct { double weight; } lerp;
  struct { int n; } polygamma;
  struct { double beta, threshold; } softplus;
  struct { double lambd; } shrink;
  struct { double threshold, value; } threshold;
  GnnKernelAttention attention;
  GnnKernelVolume volume;
} GnnKernelParams;

/**
 * GnnKernelArgs:
 * @op: the kernel to run
 * @out: the output operand, written in place
 * @out2: a second output (indices of max / min), or %NULL
 * @in: the input operands; unused ones are %NULL
 * @n_in: the number of input operands
 * @params: the op's parameters, as documented for each [enum@Gnn.BackendOp]
 * @list_out: the output operands of a multi-tensor (`FOREACH_`) kernel, @n_list of them
 * @list_in: the input operands of a multi-tensor kernel, paired with @list_out
 * @n_list: the number of operand pairs of a multi-tensor kernel; 0 for every other kernel
 *
 * One kernel call.
 */
typedef struct {
  GnnBackendOp op;
  GnnKernelTensor *out;
  GnnKernelTensor *out2;
  const GnnKernelTensor *in[3];
  guint n_in;
  GnnKernelParams params;
  GnnKernelTensor *list_out;
  const GnnKernelTensor *list_in;
  guint n_list;
} GnnKernelArgs;

/**
 * GNN_DTYPE_BIT:
 * @dtype: a #GnnDtype
 *
 * The bit of @dtype in a mask of dtypes (the `dtypes` of an op, a departure).
 */
#define GNN_DTYPE_BIT(dtype) (1u << (dtype))

/**
 * GNN_DTYPES_FLOAT:
 *
 * float32 and float64, the dtypes of real-valued kernels (exp, activations, softmax).
 */
#define GNN_DTYPES_FLOAT    (GNN_DTYPE_BIT (GNN_DTYPE_FLOAT32) | GNN_DTYPE_BIT (GNN_DTYPE_FLOAT64))
/**
 * GNN_DTYPES_NUMBER:
 *
 * float32, float64 and int64, the dtypes of arithmetic (float16/bfloat16 compute in float32,
 * bool, uint8, int32, int16 and int8 in int64, the result cast back to the storage dtype).
 */
#define GNN_DTYPES_NUMBER   (GNN_DTYPES_FLOAT | GNN_DTYPE_BIT (GNN_DTYPE_INT64))
/**
 * GNN_DTYPES_FLOATING:
 *
 * Every floating dtype: float32, float64, float16, bfloat16.
 */
#define GNN_DTYPES_FLOATING (GNN_DTYPES_FLOAT | GNN_DTYPE_BIT (GNN_DTYPE_FLOAT16) | \
                             GNN_DTYPE_BIT (GNN_DTYPE_BFLOAT16))
/**
 * GNN_DTYPES_INT64:
 *
 * int64 alone.
 */
#define GNN_DTYPES_INT64    GNN_DTYPE_BIT (GNN_DTYPE_INT64)
/**
 * GNN_DTYPES_ALL:
 *
 * Every dtype.
 */
#define GNN_DTYPES_ALL      (GNN_DTYPES_FLOATING | GNN_DTYPES_INT64 | GNN_DTYPE_BIT (GNN_DTYPE_BOOL) | \
                             GNN_DTYPE_BIT (GNN_DTYPE_UINT8) | GNN_DTYPE_BIT (GNN_DTYPE_INT32) | \
                             GNN_DTYPE_BIT (GNN_DTYPE_INT16) | GNN_DTYPE_BIT (GNN_DTYPE_INT8))

/**
 * GnnBackendOpCompute:
 * @GNN_BACKEND_OP_COMPUTE_OUT: the dtype of `out`
 * @GNN_BACKEND_OP_COMPUTE_IN0: the dtype of `in[0]`
 * @GNN_BACKEND_OP_COMPUTE_IN1: the dtype of `in[1]`
 * @GNN_BACKEND_OP_COMPUTE_LIST: the dtype of `list_out[0]` (multi-tensor kernels)
 *
 * Which operand of a kernel call has the op's compute dtype, the dtype `supports_op` is asked
 * about.
 */
typedef enum {
  GNN_BACKEND_OP_COMPUTE_OUT,
  GNN_BACKEND_OP_COMPUTE_IN0,
  GNN_BACKEND_OP_COMPUTE_IN1,
  GNN_BACKEND_OP_COMPUTE_LIST,
} GnnBackendOpCompute;

/**
 * GnnBackendOpInfo:
 * @nick: the op's name, as the GEnumValue's nick ("add", "log-softmax")
 * @n_in: the input operands the kernel reads, `in[0]` .. `in[n_in - 1]` (0 for a multi-tensor kernel)
 * @compute: the operand whose dtype is the compute dtype
 * @dtypes: the compute dtypes every backend must serve, a mask of GNN_DTYPE_BIT()
 *
 * One row of the op table, `gnn/backend/gnn-backend-ops.def`.
 */
typedef struct {
  const char *nick;
  guint n_in;
  GnnBackendOpCompute compute;
  guint32 dtypes;
} GnnBackendOpInfo;

/**
 * GnnBackendOpDeparture:
 * @op: the op
 * @added: compute dtypes the backend serves beyond the op table's, a mask of GNN_DTYPE_BIT()
 * @removed: dtypes of the table's that the backend does not serve
 *
 * Where a backend differs from the op table. A backend's `supports_op` is the table's answer
 * changed by a list of these (gnn_backend_op_supported_with()), each with a comment saying
 * why; test-backend-ops runs everything else the table promises on the backend.
 */
typedef struct {
  GnnBackendOp op;
  guint32 added;
  guint32 removed;
} GnnBackendOpDeparture;

/**
 * gnn_backend_op_get_info:
 * @op: an op
 *
 * The op table's row of @op.
 *
 * Returns: (nullable): the row, or %NULL when @op is not an op
 */
GNN_AVAILABLE_IN_ALL
const GnnBackendOpInfo *gnn_backend_op_get_info      (GnnBackendOp                 op);

/**
 * gnn_backend_op_get_nick:
 * @op: an op
 *
 * The nick of @op, for messages ("add", "log-softmax").
 *
 * Returns: the nick, or "unknown" when @op is not an op
 */
GNN_AVAILABLE_IN_ALL
const char             *gnn_backend_op_get_nick      (GnnBackendOp                 op);

/**
 * gnn_backend_op_supported_with:
 * @op: an op
 * @dtype: a compute dtype
 * @departures: (array length=n_departures) (nullable): where the backend differs from the table
 * @n_departures: the number of @departures
 *
 * Whether a backend that differs from the op table by @departures runs @op on @dtype: the
 * `supports_op` of a backend built on the table. With no departures, the table's promise
 * (what the interface's default `supports_op` answers).
 *
 * Returns: whether @op runs on @dtype
 */
GNN_AVAILABLE_IN_ALL
gboolean                gnn_backend_op_supported_with (GnnBackendOp                 op,
                                                       GnnDtype                     dtype,
                                                       const GnnBackendOpDeparture *departures,
                                                       gsize                        n_departures);

/**
 * gnn_backend_op_count_flops:
 * @args: a kernel call
 *
 * The FLOP count of a kernel call, from the formula of its op's row in the op table
 * (`gnn/backend/gnn-backend-ops.def`) and the shapes of its operands: the number of elements
 * an elementwise op writes, 2 · m · n · k per matrix of a GEMM, one per element and pass of a
 * reduction, 0 for a kernel that only moves or generates values. For profilers and
 * benchmarks; a missing operand counts as empty.
 *
 * Returns: the number of floating-point (or integer) operations of the call
 */
GNN_AVAILABLE_IN_ALL
guint64                 gnn_backend_op_count_flops    (const GnnKernelArgs         *args);

/**
 * gnn_backend_op_check_args:
 * @backend_name: the backend's name, for messages
 * @args: a kernel call
 * @dtype: (out): the call's compute dtype
 * @error: return location for a #GError
 *
 * Checks that @args has the operands its op reads (an `out` and `in[0]` .. `in[n_in - 1]` of
 * at most %GNN_MAX_DIMS dimensions, or the operand lists of a multi-tensor kernel) and reads
 * the compute dtype from the operand the table names. A multi-tensor call with no pairs has
 * nothing to check and gives the dtype %GNN_DTYPE_FLOAT32.
 *
 * Returns: %TRUE, or %FALSE with @error set (%GNN_ERROR_INVALID_ARGUMENT naming the backend
 *   and the op)
 */
GNN_AVAILABLE_IN_ALL
gboolean                gnn_backend_op_check_args     (const char                  *backend_name,
                                                       const GnnKernelArgs         *args,
                                                       GnnDtype                    *dtype,
                                                       GError                     **error);

/**
 * gnn_backend_op_set_unsupported:
 * @error: return location for a #GError
 * @backend_name: the backend's name
 * @op: the op
 * @dtype: the compute dtype
 *
 * Sets %GNN_ERROR_NOT_SUPPORTED: "The @backend_name backend has no @op kernel for dtype
 * @dtype".
 *
 * Returns: %FALSE
 */
GNN_AVAILABLE_IN_ALL
gboolean                gnn_backend_op_set_unsupported (GError                    **error,
                                                        const char                 *backend_name,
                                                        GnnBackendOp                op,
                                                        GnnDtype                    dtype);

/**
 * GnnBackendFuncs:
 * @alloc: allocate @nbytes on a device; %NULL with @error set on failure
 * @free: free memory from @alloc
 * @copy_from_host: copy @nbytes from host memory to device memory
 * @copy_to_host: copy @nbytes from device memory to host memory
 * @copy_device: copy @nbytes between two allocations of this backend
 * @run: run one kernel; a kernel the backend lacks sets %GNN_ERROR_NOT_SUPPORTED
 * @is_host: whether the device memory is host memory (data pointers may be dereferenced)
 *
 * The hot entry points of a backend, a plain table that the registry caches once, so that
 * dispatching a kernel costs an indirect call (as GStreamer's `GstAllocator` does).
 */
typedef struct {
  gpointer (*alloc)          (GnnBackend *backend, guint device, gsize nbytes, GError **error);
  void     (*free)           (GnnBackend *backend, guint device, gpointer ptr, gsize nbytes);
  gboolean (*copy_from_host) (GnnBackend *backend, guint device, gpointer dst, gconstpointer src, gsize nbytes, GError **error);
  gboolean (*copy_to_host)   (GnnBackend *backend, guint device, gpointer dst, gconstpointer src, gsize nbytes, GError **error);
  gboolean (*copy_device)    (GnnBackend *backend, guint device, gpointer dst, gconstpointer src, gsize nbytes, GError **error);
  gboolean (*run)            (GnnBackend *backend, guint device, const GnnKernelArgs *args, GError **error);
  gboolean is_host;
} GnnBackendFuncs;

/**
 * GnnBackendInterface:
 * @g_iface: the parent interface
 * @get_name: the backend's name ("cpu", "reference", "cuda")
 * @get_device_type: the device type it serves ("cpu", "cuda")
 * @get_device_count: how many devices it sees
 * @get_device_description: a human-readable description of one device
 * @get_memory_info: free and total memory of one device
 * @supports_op: whether it runs a kernel on a dtype; the default is the op table's answer
 *   (gnn_backend_op_supported_with() without departures)
 * @synchronize: wait until queued work on a device is done
 * @get_funcs: the table of hot entry points
 * @timing_mark_record: optional (a device backend's, for the profiler's device times): queues
 *   a timing mark on device @index's stream, after the work queued so far, without waiting
 *   (a CUDA event recorded on the stream); returns it, or %NULL when the backend cannot time
 *   its device now. A backend without it has no device times, and needs nothing else.
 * @timing_mark_elapsed: with @timing_mark_record: waits until the device passed @to, and sets
 *   @elapsed_ns to the device time from @from to @to (cudaEventElapsedTime); %FALSE with
 *   @error set when either mark cannot be read (a kernel between them failed, say)
 * @timing_mark_free: with @timing_mark_record: frees a mark it returned (it may be reused)
 *
 * The virtual methods of [iface@Gnn.Backend].
 */
struct _GnnBackendInterface
{
  GTypeInterface g_iface;

  const char *            (*get_name)               (GnnBackend *self);
  const char *            (*get_device_type)        (GnnBackend *self);
  guint                   (*get_device_count)       (GnnBackend *self);
  char *                  (*get_device_description) (GnnBackend *self, guint index);
  gboolean                (*get_memory_info)        (GnnBackend *self, guint index, guint64 *free_bytes, guint64 *total_bytes, GError **error);
  gboolean                (*supports_op)            (GnnBackend *self, GnnBackendOp op, GnnDtype dtype);
  gboolean                (*synchronize)            (GnnBackend *self, guint index, GError **error);
  const GnnBackendFuncs * (*get_funcs)              (GnnBackend *self);

  gpointer                (*timing_mark_record)     (GnnBackend *self, guint index);
  gboolean                (*timing_mark_elapsed)    (GnnBackend *self, guint index, gpointer from, gpointer to, gint64 *elapsed_ns, GError **error);
  void                    (*timing_mark_free)       (GnnBackend *self, guint index, gpointer mark);

  /*< private >*/
  gpointer padding[5];
};

/**
 * GnnBackendModuleRegisterFunc:
 *
 * A loadable backend module exports two symbols:
 * `const guint gnn_backend_module_api_version = GNN_BACKEND_API_VERSION;` and
 * `void gnn_backend_module_register (void)`, of this type. The registry checks the version,
 * keeps the module resident, and calls the function, which registers the backend's GType and
 * implements the extension point %GNN_BACKEND_EXTENSION_POINT_NAME under the backend's name
 * with g_io_extension_point_implement().
 */
typedef void (*GnnBackendModuleRegisterFunc) (void);

G_END_DECLS
