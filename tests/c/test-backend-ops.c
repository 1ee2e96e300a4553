/* test-backend-ops.c: every op and dtype of the op table on the backend under test, against
 * the reference backend, kernel by kernel (ggml's tests/test-backend-ops.cpp)
 *
 * The backend under test serves GNN_TEST_DEVICE_TYPE ("cpu" when unset) and runs on its device
 * 0: the CPU backend in test-backend-ops, the reference one in test-backend-ops-reference, the
 * fake CUDA device of tests/c/fake-cuda in test-backend-ops-fake-cuda, the CUDA backend in
 * test-backend-ops-cuda (skipped without a GPU). Operands are built in host memory, copied to
 * the device when the backend's memory is not the host's, and the outputs copied back.
 *
 * /backend-ops/OP/DTYPE: every dtype gnn/backend/gnn-backend-ops.def promises for an op, and
 * every one the backend serves beyond it that the reference serves too, on the first case of
 * that op below with the dtype changed (elementwise ones again with transposed and broadcast
 * inputs). A promised dtype the backend's supports_op refuses is a declared departure (skipped,
 * and listed by /backend-ops/departures); a kernel the backend says it runs and then refuses,
 * or whose result differs from the reference's by more than the op's budget, fails.
 * /backend/compare/NAME: the cases below as they are (parameters the first cases do not reach:
 * conversions, clamp bounds, exponents with fast paths, gelu's approximation, ...).
 *
 * Budgets are normalised mean square errors, Σ (a - b)² / Σ b²: exact for integer, bool and
 * reduced-precision outputs and for the ops that copy, select or compare values.
 */
#include "config.h"

#include "gnn-test-util.h"
#include "backend/gnn-backend-impl.h"
#include "core/gnn-dtype-private.h"

/* ---- the cases ---------------------------------------------------------------------- */

typedef enum {
  LAYOUT_ELEMENTWISE,   /* out (3, 4, 5); inputs of that shape */
  LAYOUT_CREATE,        /* out only */
  LAYOUT_REDUCE,        /* in0 [outer, r, inner], out [outer, inner] (+ out2 for max/min) */
  LAYOUT_SOFTMAX,       /* in0 (and in1) and out [outer, r, inner] */
  LAYOUT_GEMM,
  LAYOUT_INDEX_SELECT,
  LAYOUT_INDEX_ADD,
  LAYOUT_GATHER,
  LAYOUT_SCATTER_ADD,
  LAYOUT_ONE_HOT,
  LAYOUT_IMAGE,         /* an image (2, 3, 6, 7) and its columns or pooled form, geometry in params.window */
  LAYOUT_VOLUME,        /* a volume (2, 3, 5, 6, 4) and its columns or pooled form, geometry in params.volume */
  LAYOUT_CHANNELS,      /* batch normalisation: (N, C, S) operands (params.norm) and per-channel rows */
  LAYOUT_LIST,          /* a multi-tensor kernel: three pairs of list operands */
  LAYOUT_ATTENTION,     /* q, k, v and the side operands of params.attention: (B, L, S, E, Ev) (6, 5, 7, 4, 3)
                         * with a mask broadcast over its first batch dim, or, causal, (2, 67, 70, 3, 2)
                         * (more than one block of keys) */
  LAYOUT_RNN_CELL,      /* the recurrent cells: batch 3, hidden size 5, the operands the op table gives */
} Layout;

typedef struct {
  const char *name;
  GnnBackendOp op;
  Layout layout;
  GnnDtype dtype;       /* of the values */
  GnnDtype out_dtype;   /* of out */
  guint n_in;
  double lo, hi;        /* the range of input values */
  gboolean integral;    /* inputs are whole numbers (so that comparisons meet equality) */
  GnnKernelParams params;
  gboolean strided;     /* inputs transposed and broadcast rather than contiguous */
} KernelCase;

#define F32 GNN_DTYPE_FLOAT32
#define F64 GNN_DTYPE_FLOAT64
#define I64 GNN_DTYPE_INT64
#define BOOL GNN_DTYPE_BOOL
#define U8 GNN_DTYPE_UINT8
#define F16 GNN_DTYPE_FLOAT16
#define BF16 GNN_DTYPE_BFLOAT16
#define OP(x) GNN_BACKEND_OP_##x
/* the parameters of an op that reads none */
#define NO_PARAMS { { 0 } }

#define EW(name, op, dt, odt, n, lo, hi, ...) \
  { name, OP (op), LAYOUT_ELEMENTWISE, dt, odt, n, lo, hi, FALSE, __VA_ARGS__ }
#define EWI(name, op, dt, odt, n, lo, hi, ...) \
  { name, OP (op), LAYOUT_ELEMENTWISE, dt, odt, n, lo, hi, TRUE, __VA_ARGS__ }

static const KernelCase kernel_cases[] = {
  /* creation */
  { "fill/f32", OP (FILL), LAYOUT_CREATE, F32, F32, 0, 0, 0, FALSE, { .fill = { 1.5 } } },
  { "fill/i64", OP (FILL), LAYOUT_CREATE, I64, I64, 0, 0, 0, FALSE, { .fill = { -3 } } },
  { "fill/bool", OP (FILL), LAYOUT_CREATE, BOOL, BOOL, 0, 0, 0, FALSE, { .fill = { 2 } } },
  { "fill/u8", OP (FILL), LAYOUT_CREATE, U8, U8, 0, 0, 0, FALSE, { .fill = { 7 } } },
  { "fill/f16", OP (FILL), LAYOUT_CREATE, F16, F16, 0, 0, 0, FALSE, { .fill = { 0.1 } } },
  { "fill/bf16", OP (FILL), LAYOUT_CREATE, BF16, BF16, 0, 0, 0, FALSE, { .fill = { -0.1 } } },
  { "arange/f32", OP (ARANGE), LAYOUT_CREATE, F32, F32, 0, 0, 0, FALSE, { .arange = { -2, 0.25 } } },
  { "arange/f64", OP (ARANGE), LAYOUT_CREATE, F64, F64, 0, 0, 0, FALSE, { .arange = { 1, 0.1 } } },
  { "arange/i64", OP (ARANGE), LAYOUT_CREATE, I64, I64, 0, 0, 0, FALSE, { .arange = { 3, 2 } } },
  { "rand-uniform/f32", OP (RAND_UNIFORM), LAYOUT_CREATE, F32, F32, 0, 0, 0, FALSE, { .random = { .seed = 5, .offset = 77, .low = -1, .high = 1 } } },
  { "rand-normal/f64", OP (RAND_NORMAL), LAYOUT_CREATE, F64, F64, 0, 0, 0, FALSE, { .random = { .seed = 5, .offset = 77, .mean = 0, .std = 2 } } },
  { "rand-int/i64", OP (RAND_INT), LAYOUT_CREATE, I64, I64, 0, 0, 0, FALSE, { .random = { .seed = 5, .offset = 77, .int_low = -10, .int_high = 10 } } },

  /* copy, with conversion */
  EW ("copy/f32", COPY, F32, F32, 1, -3, 3, NO_PARAMS),
  EW ("copy/f32-f16", COPY, F32, F16, 1, -3, 3, NO_PARAMS),
  EW ("copy/f32-bf16", COPY, F32, BF16, 1, -3, 3, NO_PARAMS),
  EW ("copy/f64-f32", COPY, F64, F32, 1, -3, 3, NO_PARAMS),
  EW ("copy/f32-i64", COPY, F32, I64, 1, -30, 30, NO_PARAMS),
  EW ("copy/f32-u8", COPY, F32, U8, 1, 0, 200, NO_PARAMS),
  EWI ("copy/i64-f32", COPY, I64, F32, 1, -1000, 1000, NO_PARAMS),
  EWI ("copy/i64-bool", COPY, I64, BOOL, 1, -1, 1, NO_PARAMS),
  EWI ("copy/bool-f64", COPY, BOOL, F64, 1, 0, 1, NO_PARAMS),
  EW ("copy/f16-f32", COPY, F16, F32, 1, -3, 3, NO_PARAMS),
  EW ("copy/bf16-f64", COPY, BF16, F64, 1, -3, 3, NO_PARAMS),

  /* binary arithmetic */
  EW ("add/f32", ADD, F32, F32, 2, -2, 2, { .add = { 0.5 } }),
  EW ("add/f64", ADD, F64, F64, 2, -2, 2, { .add = { -1.5 } }),
  EWI ("add/i64", ADD, I64, I64, 2, -50, 50, { .add = { 2 } }),
  EW ("sub/f32", SUB, F32, F32, 2, -2, 2, { .add = { 1 } }),
  EWI ("sub/i64", SUB, I64, I64, 2, -50, 50, { .add = { 1 } }),
  EW ("mul/f32", MUL, F32, F32, 2, -2, 2, NO_PARAMS),
  EWI ("mul/i64", MUL, I64, I64, 2, -50, 50, NO_PARAMS),
  EW ("div/f32", DIV, F32, F32, 2, 0.5, 2, NO_PARAMS),
  EW ("div/f64", DIV, F64, F64, 2, 0.5, 2, NO_PARAMS),
  EWI ("div/i64", DIV, I64, I64, 2, -9, 9, NO_PARAMS),   /* divisors of 0 made 1 */
  EW ("pow/f32", POW, F32, F32, 2, 0.5, 2, NO_PARAMS),
  EWI ("pow/i64", POW, I64, I64, 2, 0, 3, NO_PARAMS),
  EW ("maximum/f32", MAXIMUM, F32, F32, 2, -2, 2, NO_PARAMS),
  EWI ("maximum/i64", MAXIMUM, I64, I64, 2, -5, 5, NO_PARAMS),
  EW ("minimum/f64", MINIMUM, F64, F64, 2, -2, 2, NO_PARAMS),
  EWI ("minimum/i64", MINIMUM, I64, I64, 2, -5, 5, NO_PARAMS),
  EW ("hypot/f32", HYPOT, F32, F32, 2, -2, 2, NO_PARAMS),
  EW ("hypot/f64", HYPOT, F64, F64, 2, -2, 2, NO_PARAMS),

  /* comparisons */
  EWI ("eq/f32", EQ, F32, BOOL, 2, -2, 2, NO_PARAMS),
  EWI ("ne/f64", NE, F64, BOOL, 2, -2, 2, NO_PARAMS),
  EWI ("lt/f32", LT, F32, BOOL, 2, -2, 2, NO_PARAMS),
  EWI ("le/i64", LE, I64, BOOL, 2, -2, 2, NO_PARAMS),
  EWI ("gt/f32", GT, F32, BOOL, 2, -2, 2, NO_PARAMS),
  EWI ("ge/i64", GE, I64, BOOL, 2, -2, 2, NO_PARAMS),
  EW ("where/f32", WHERE, F32, F32, 3, -2, 2, NO_PARAMS),
  EWI ("where/i64", WHERE, I64, I64, 3, -9, 9, NO_PARAMS),

  /* unary */
  EW ("neg/f32", NEG, F32, F32, 1, -2, 2, NO_PARAMS),
  EWI ("neg/i64", NEG, I64, I64, 1, -9, 9, NO_PARAMS),
  EW ("exp/f32", EXP, F32, F32, 1, -3, 3, NO_PARAMS),
  EW ("exp/f64", EXP, F64, F64, 1, -3, 3, NO_PARAMS),
  EW ("log/f32", LOG, F32, F32, 1, 0.1, 5, NO_PARAMS),
  EW ("sqrt/f32", SQRT, F32, F32, 1, 0.1, 5, NO_PARAMS),
  EW ("abs/f32", ABS, F32, F32, 1, -2, 2, NO_PARAMS),
  EWI ("abs/i64", ABS, I64, I64, 1, -9, 9, NO_PARAMS),
  EWI ("sign/f32", SIGN, F32, F32, 1, -2, 2, NO_PARAMS),
  EWI ("sign/i64", SIGN, I64, I64, 1, -2, 2, NO_PARAMS),
  EW ("clamp/f32", CLAMP, F32, F32, 1, -2, 2, { .clamp = { -0.5, 0.7, TRUE, TRUE } }),
  EW ("clamp/f32-min", CLAMP, F32, F32, 1, -2, 2, { .clamp = { -0.5, 0, TRUE, FALSE } }),
  EW ("clamp/f64-max", CLAMP, F64, F64, 1, -2, 2, { .clamp = { 0, 0.7, FALSE, TRUE } }),
  EWI ("clamp/i64", CLAMP, I64, I64, 1, -5, 5, { .clamp = { -2, 3, TRUE, TRUE } }),
  EW ("pow-scalar/f32", POW_SCALAR, F32, F32, 1, 0.5, 2, { .pow = { 2.5 } }),
  EW ("pow-scalar/f32-square", POW_SCALAR, F32, F32, 1, -2, 2, { .pow = { 2 } }),
  EW ("pow-scalar/f32-sqrt", POW_SCALAR, F32, F32, 1, 0.1, 2, { .pow = { 0.5 } }),
  EW ("pow-scalar/f64-inverse", POW_SCALAR, F64, F64, 1, 0.5, 2, { .pow = { -1 } }),
  EWI ("pow-scalar/i64", POW_SCALAR, I64, I64, 1, -4, 4, { .pow = { 3 } }),

  /* activations */
  EW ("relu/f32", RELU, F32, F32, 1, -2, 2, NO_PARAMS),
  EWI ("relu/i64", RELU, I64, I64, 1, -5, 5, NO_PARAMS),
  EW ("leaky-relu/f32", LEAKY_RELU, F32, F32, 1, -2, 2, { .leaky_relu = { 0.1 } }),
  EW ("elu/f32", ELU, F32, F32, 1, -2, 2, { .elu = { 1.3 } }),
  EW ("gelu/f32", GELU, F32, F32, 1, -3, 3, { .gelu = { 0 } }),
  EW ("gelu/f64-tanh", GELU, F64, F64, 1, -3, 3, { .gelu = { 1 } }),
  EW ("silu/f32", SILU, F32, F32, 1, -4, 4, NO_PARAMS),
  EW ("sigmoid/f32", SIGMOID, F32, F32, 1, -4, 4, NO_PARAMS),
  EW ("sigmoid/f64", SIGMOID, F64, F64, 1, -4, 4, NO_PARAMS),
  EW ("tanh/f32", TANH, F32, F32, 1, -3, 3, NO_PARAMS),
  EW ("softplus/f32", SOFTPLUS, F32, F32, 1, -3, 3, { .softplus = { 2.0, 4.0 } }),
  EW ("softplus/f64", SOFTPLUS, F64, F64, 1, -3, 3, { .softplus = { 0.5, 20.0 } }),
  EW ("hardsigmoid/f32", HARDSIGMOID, F32, F32, 1, -4, 4, NO_PARAMS),
  EW ("hardswish/f64", HARDSWISH, F64, F64, 1, -4, 4, NO_PARAMS),
  EW ("mish/f32", MISH, F32, F32, 1, -3, 3, NO_PARAMS),
  EW ("celu/f64", CELU, F64, F64, 1, -3, 3, { .elu = { 0.7 } }),
  EW ("selu/f32", SELU, F32, F32, 1, -3, 3, NO_PARAMS),
  EW ("log-sigmoid/f32", LOG_SIGMOID, F32, F32, 1, -4, 4, NO_PARAMS),
  EW ("hardshrink/f64", HARDSHRINK, F64, F64, 1, -2, 2, { .shrink = { 0.5 } }),
  EW ("softshrink/f32", SOFTSHRINK, F32, F32, 1, -2, 2, { .shrink = { 0.5 } }),
  EW ("threshold/f32", THRESHOLD, F32, F32, 1, -2, 2, { .threshold = { 0.3, -7.0 } }),
  /* the math functions (gnn-cpu-math.c) */
  EW ("reciprocal/f32", RECIPROCAL, F32, F32, 1, 0.5, 2, NO_PARAMS),
  EW ("rsqrt/f64", RSQRT, F64, F64, 1, 0.2, 3, NO_PARAMS),
  EW ("log1p/f32", LOG1P, F32, F32, 1, -0.5, 2, NO_PARAMS),
  EW ("expm1/f64", EXPM1, F64, F64, 1, -2, 2, NO_PARAMS),
  EW ("log2/f32", LOG2, F32, F32, 1, 0.1, 3, NO_PARAMS),
  EW ("log10/f64", LOG10, F64, F64, 1, 0.1, 3, NO_PARAMS),
  EW ("sin/f32", SIN, F32, F32, 1, -3, 3, NO_PARAMS),
  EW ("cos/f64", COS, F64, F64, 1, -3, 3, NO_PARAMS),
  EW ("tan/f32", TAN, F32, F32, 1, -1.2, 1.2, NO_PARAMS),
  EW ("asin/f64", ASIN, F64, F64, 1, -0.9, 0.9, NO_PARAMS),
  EW ("acos/f32", ACOS, F32, F32, 1, -0.9, 0.9, NO_PARAMS),
  EW ("atan/f64", ATAN, F64, F64, 1, -3, 3, NO_PARAMS),
  EW ("sinh/f32", SINH, F32, F32, 1, -2, 2, NO_PARAMS),
  EW ("cosh/f64", COSH, F64, F64, 1, -2, 2, NO_PARAMS),
  EW ("asinh/f32", ASINH, F32, F32, 1, -3, 3, NO_PARAMS),
  EW ("acosh/f64", ACOSH, F64, F64, 1, 1.1, 3, NO_PARAMS),
  EW ("atanh/f32", ATANH, F32, F32, 1, -0.9, 0.9, NO_PARAMS),
  EW ("erf/f64", ERF, F64, F64, 1, -2, 2, NO_PARAMS),
  EW ("erfc/f32", ERFC, F32, F32, 1, -2, 2, NO_PARAMS),
  EW ("erfinv/f64", ERFINV, F64, F64, 1, -0.9, 0.9, NO_PARAMS),
  EW ("lgamma/f32", LGAMMA, F32, F32, 1, 0.2, 4, NO_PARAMS),
  EW ("floor/f64", FLOOR, F64, F64, 1, -3, 3, NO_PARAMS),
  EW ("ceil/f32", CEIL, F32, F32, 1, -3, 3, NO_PARAMS),
  EW ("round/f64", ROUND, F64, F64, 1, -3, 3, NO_PARAMS),
  EW ("trunc/f32", TRUNC, F32, F32, 1, -3, 3, NO_PARAMS),
  EW ("frac/f64", FRAC, F64, F64, 1, -3, 3, NO_PARAMS),
  EW ("polygamma/f32-digamma", POLYGAMMA, F32, F32, 1, 0.2, 4, { .polygamma = { 0 } }),
  EW ("polygamma/f64-2", POLYGAMMA, F64, F64, 1, 0.2, 4, { .polygamma = { 2 } }),
  EW ("atan2/f32", ATAN2, F32, F32, 2, -2, 2, NO_PARAMS),
  EW ("atan2/f64", ATAN2, F64, F64, 2, -2, 2, NO_PARAMS),
  EW ("fmod/f32", FMOD, F32, F32, 2, 0.5, 3, NO_PARAMS),
  EW ("fmod/f64", FMOD, F64, F64, 2, 0.5, 3, NO_PARAMS),
  EWI ("fmod/i64", FMOD, I64, I64, 2, -9, 9, NO_PARAMS),   /* divisors of 0 made 1 */
  EW ("remainder/f32", REMAINDER, F32, F32, 2, -3, 3, NO_PARAMS),
  EW ("remainder/f64", REMAINDER, F64, F64, 2, -3, 3, NO_PARAMS),
  EWI ("remainder/i64", REMAINDER, I64, I64, 2, -9, 9, NO_PARAMS),   /* divisors of 0 made 1 */
  EW ("floor-divide/f32", FLOOR_DIVIDE, F32, F32, 2, -3, 3, NO_PARAMS),
  EW ("floor-divide/f64", FLOOR_DIVIDE, F64, F64, 2, -3, 3, NO_PARAMS),
  EWI ("floor-divide/i64", FLOOR_DIVIDE, I64, I64, 2, -9, 9, NO_PARAMS),   /* divisors of 0 made 1 */
  EW ("xlogy/f32", XLOGY, F32, F32, 2, 0.1, 2, NO_PARAMS),
  EW ("xlogy/f64", XLOGY, F64, F64, 2, 0.1, 2, NO_PARAMS),
  EW ("exp2/f32", EXP2, F32, F32, 1, -3, 3, NO_PARAMS),
  EW ("exp2/f64", EXP2, F64, F64, 1, -3, 3, NO_PARAMS),
  EW ("sinc/f32", SINC, F32, F32, 1, -3, 3, NO_PARAMS),
  EW ("sinc/f64", SINC, F64, F64, 1, -3, 3, NO_PARAMS),
  EW ("i0/f32", I0, F32, F32, 1, -40, 40, NO_PARAMS),
  EW ("i0/f64", I0, F64, F64, 1, -40, 40, NO_PARAMS),
  EW ("i0e/f32", I0E, F32, F32, 1, -40, 40, NO_PARAMS),
  EW ("i0e/f64", I0E, F64, F64, 1, -40, 40, NO_PARAMS),
  EW ("i1/f32", I1, F32, F32, 1, -40, 40, NO_PARAMS),
  EW ("i1/f64", I1, F64, F64, 1, -40, 40, NO_PARAMS),
  EW ("i1e/f32", I1E, F32, F32, 1, -40, 40, NO_PARAMS),
  EW ("i1e/f64", I1E, F64, F64, 1, -40, 40, NO_PARAMS),
  EW ("ndtri/f32", NDTRI, F32, F32, 1, 0.0001, 0.9999, NO_PARAMS),
  EW ("ndtri/f64", NDTRI, F64, F64, 1, 0.0001, 0.9999, NO_PARAMS),
  EW ("log-ndtr/f32", LOG_NDTR, F32, F32, 1, -30, 5, NO_PARAMS),
  EW ("log-ndtr/f64", LOG_NDTR, F64, F64, 1, -30, 5, NO_PARAMS),
  EW ("erfcx/f32", ERFCX, F32, F32, 1, -5, 40, NO_PARAMS),
  EW ("erfcx/f64", ERFCX, F64, F64, 1, -5, 40, NO_PARAMS),
  EW ("entr/f32", ENTR, F32, F32, 1, -1, 3, NO_PARAMS),
  EW ("entr/f64", ENTR, F64, F64, 1, -1, 3, NO_PARAMS),
  EW ("copysign/f32", COPYSIGN, F32, F32, 2, -2, 2, NO_PARAMS),
  EW ("copysign/f64", COPYSIGN, F64, F64, 2, -2, 2, NO_PARAMS),
  EW ("fmax/f32", FMAX, F32, F32, 2, -2, 2, NO_PARAMS),
  EW ("fmax/f64", FMAX, F64, F64, 2, -2, 2, NO_PARAMS),
  EWI ("fmax/i64", FMAX, I64, I64, 2, -5, 5, NO_PARAMS),
  EW ("fmin/f32", FMIN, F32, F32, 2, -2, 2, NO_PARAMS),
  EW ("fmin/f64", FMIN, F64, F64, 2, -2, 2, NO_PARAMS),
  EWI ("fmin/i64", FMIN, I64, I64, 2, -5, 5, NO_PARAMS),
  EW ("logaddexp/f32", LOGADDEXP, F32, F32, 2, -5, 5, NO_PARAMS),
  EW ("logaddexp/f64", LOGADDEXP, F64, F64, 2, -5, 5, NO_PARAMS),
  EW ("logaddexp2/f32", LOGADDEXP2, F32, F32, 2, -5, 5, NO_PARAMS),
  EW ("logaddexp2/f64", LOGADDEXP2, F64, F64, 2, -5, 5, NO_PARAMS),
  EW ("nextafter/f32", NEXTAFTER, F32, F32, 2, -2, 2, NO_PARAMS),
  EW ("nextafter/f64", NEXTAFTER, F64, F64, 2, -2, 2, NO_PARAMS),
  EW ("heaviside/f32", HEAVISIDE, F32, F32, 2, -2, 2, NO_PARAMS),
  EW ("heaviside/f64", HEAVISIDE, F64, F64, 2, -2, 2, NO_PARAMS),
  EWI ("heaviside/i64", HEAVISIDE, I64, I64, 2, -2, 2, NO_PARAMS),
  EW ("xlog1py/f32", XLOG1PY, F32, F32, 2, -0.9, 2, NO_PARAMS),
  EW ("xlog1py/f64", XLOG1PY, F64, F64, 2, -0.9, 2, NO_PARAMS),
  EW ("zeta/f32", ZETA, F32, F32, 2, 1.1, 6, NO_PARAMS),
  EW ("zeta/f64", ZETA, F64, F64, 2, 1.1, 6, NO_PARAMS),
  /* the bitwise and integer ops (gnn-cpu-bitwise.c) */
  EWI ("bitwise-and/i64", BITWISE_AND, I64, I64, 2, -9, 9, NO_PARAMS),
  EWI ("bitwise-or/i64", BITWISE_OR, I64, I64, 2, -9, 9, NO_PARAMS),
  EWI ("bitwise-xor/i64", BITWISE_XOR, I64, I64, 2, -9, 9, NO_PARAMS),
  EWI ("bitwise-not/i64", BITWISE_NOT, I64, I64, 1, -9, 9, NO_PARAMS),
  EWI ("bitwise-left-shift/i64", BITWISE_LEFT_SHIFT, I64, I64, 2, -2, 9, NO_PARAMS),
  EWI ("bitwise-right-shift/i64", BITWISE_RIGHT_SHIFT, I64, I64, 2, -2, 9, NO_PARAMS),
  EWI ("gcd/i64", GCD, I64, I64, 2, -12, 12, NO_PARAMS),
  EWI ("lcm/i64", LCM, I64, I64, 2, -12, 12, NO_PARAMS),
  EW ("relu-backward/f32", RELU_BACKWARD, F32, F32, 2, -2, 2, NO_PARAMS),
  EW ("leaky-relu-backward/f32", LEAKY_RELU_BACKWARD, F32, F32, 2, -2, 2, { .leaky_relu = { 0.1 } }),
  EW ("elu-backward/f32", ELU_BACKWARD, F32, F32, 2, -2, 2, { .elu = { 1.3 } }),
  EW ("gelu-backward/f32", GELU_BACKWARD, F32, F32, 2, -3, 3, { .gelu = { 0 } }),
  EW ("gelu-backward/f64-tanh", GELU_BACKWARD, F64, F64, 2, -3, 3, { .gelu = { 1 } }),
  EW ("silu-backward/f32", SILU_BACKWARD, F32, F32, 2, -4, 4, NO_PARAMS),
  EW ("sigmoid-backward/f32", SIGMOID_BACKWARD, F32, F32, 2, 0.05, 0.95, NO_PARAMS),
  EW ("tanh-backward/f64", TANH_BACKWARD, F64, F64, 2, -0.95, 0.95, NO_PARAMS),

  /* optimizer helpers */
  EW ("lerp/f32", LERP, F32, F32, 3, -2, 2, NO_PARAMS),
  EW ("addcmul/f32", ADDCMUL, F32, F32, 3, -2, 2, { .addc = { 0.5 } }),
  EWI ("addcmul/i64", ADDCMUL, I64, I64, 3, -9, 9, { .addc = { 2 } }),
  EW ("addcdiv/f64", ADDCDIV, F64, F64, 3, 0.5, 2, { .addc = { -0.25 } }),

  /* matrix products: out (2, 3, 5) = s0 · (2, 3, 4) · (2, 4, 5) + s1 · out */
  { "gemm/f32", OP (GEMM), LAYOUT_GEMM, F32, F32, 2, -2, 2, FALSE, { .gemm = { 1.5, 0.5 } } },
  { "gemm/f64-strided", OP (GEMM), LAYOUT_GEMM, F64, F64, 2, -2, 2, FALSE, { .gemm = { 1, 1 } }, TRUE },
  { "gemm/f32-beta0", OP (GEMM), LAYOUT_GEMM, F32, F32, 2, -2, 2, FALSE, { .gemm = { 1, 0 } } },

  /* reductions over [outer, r, inner] */
  { "sum/f32", OP (SUM), LAYOUT_REDUCE, F32, F32, 1, -2, 2, FALSE, { .reduce = { 3, 5, 4, 0 } } },
  { "sum/f32-rows", OP (SUM), LAYOUT_REDUCE, F32, F32, 1, -2, 2, FALSE, { .reduce = { 6, 7, 1, 0 } } },
  { "sum/f32-long", OP (SUM), LAYOUT_REDUCE, F32, F32, 1, -2, 2, FALSE, { .reduce = { 1, 70000, 1, 0 } } },
  { "sum/f64", OP (SUM), LAYOUT_REDUCE, F64, F64, 1, -2, 2, FALSE, { .reduce = { 2, 9, 3, 0 } } },
  { "sum/i64", OP (SUM), LAYOUT_REDUCE, I64, I64, 1, -50, 50, TRUE, { .reduce = { 3, 5, 4, 0 } } },
  { "max/f32", OP (MAX), LAYOUT_REDUCE, F32, F32, 1, -2, 2, FALSE, { .reduce = { 3, 5, 4, 0 } } },
  { "max/i64", OP (MAX), LAYOUT_REDUCE, I64, I64, 1, -1000, 1000, TRUE, { .reduce = { 3, 5, 1, 0 } } },
  { "min/f64", OP (MIN), LAYOUT_REDUCE, F64, F64, 1, -2, 2, FALSE, { .reduce = { 1, 8, 4, 0 } } },
  { "min/i64", OP (MIN), LAYOUT_REDUCE, I64, I64, 1, -1000, 1000, TRUE, { .reduce = { 3, 5, 4, 0 } } },
  { "var/f32", OP (VAR), LAYOUT_REDUCE, F32, F32, 1, -2, 2, FALSE, { .reduce = { 3, 5, 4, 1 } } },
  { "var/f64-biased", OP (VAR), LAYOUT_REDUCE, F64, F64, 1, -2, 2, FALSE, { .reduce = { 4, 6, 1, 0 } } },
  { "softmax/f32", OP (SOFTMAX), LAYOUT_SOFTMAX, F32, F32, 1, -4, 4, FALSE, { .reduce = { 3, 5, 4, 0 } } },
  { "softmax/f64-rows", OP (SOFTMAX), LAYOUT_SOFTMAX, F64, F64, 1, -4, 4, FALSE, { .reduce = { 6, 7, 1, 0 } } },
  { "log-softmax/f32", OP (LOG_SOFTMAX), LAYOUT_SOFTMAX, F32, F32, 1, -4, 4, FALSE, { .reduce = { 3, 5, 4, 0 } } },
  { "softmax-backward/f32", OP (SOFTMAX_BACKWARD), LAYOUT_SOFTMAX, F32, F32, 2, 0.05, 0.9, FALSE, { .reduce = { 3, 5, 4, 0 } } },
  { "log-softmax-backward/f64", OP (LOG_SOFTMAX_BACKWARD), LAYOUT_SOFTMAX, F64, F64, 2, -3, -0.1, FALSE, { .reduce = { 6, 7, 1, 0 } } },
  /* scans over [outer, r, inner], forwards and (the last reduce field) backwards; 130 inner
   * columns span three column blocks of the CPU kernel */
  { "cumsum/f32", OP (CUMSUM), LAYOUT_SOFTMAX, F32, F32, 1, -2, 2, FALSE, { .reduce = { 3, 5, 4, 0 } } },
  { "cumsum/f32-wide-reverse", OP (CUMSUM), LAYOUT_SOFTMAX, F32, F32, 1, -2, 2, FALSE, { .reduce = { 2, 5, 130, 0, TRUE } } },
  { "cumsum/f64-rows", OP (CUMSUM), LAYOUT_SOFTMAX, F64, F64, 1, -2, 2, FALSE, { .reduce = { 6, 7, 1, 0 } } },
  { "cumsum/i64-reverse", OP (CUMSUM), LAYOUT_SOFTMAX, I64, I64, 1, -50, 50, TRUE, { .reduce = { 3, 5, 4, 0, TRUE } } },
  { "cumprod/f32", OP (CUMPROD), LAYOUT_SOFTMAX, F32, F32, 1, 0.5, 1.5, FALSE, { .reduce = { 3, 5, 4, 0 } } },
  { "cumprod/f64-reverse", OP (CUMPROD), LAYOUT_SOFTMAX, F64, F64, 1, -2, 2, FALSE, { .reduce = { 6, 7, 1, 0, TRUE } } },
  { "cumprod/i64", OP (CUMPROD), LAYOUT_SOFTMAX, I64, I64, 1, -3, 3, TRUE, { .reduce = { 2, 6, 3, 0 } } },
  { "logcumsumexp/f32", OP (LOGCUMSUMEXP), LAYOUT_SOFTMAX, F32, F32, 1, -4, 4, FALSE, { .reduce = { 3, 5, 4, 0 } } },
  { "logcumsumexp/f64-reverse", OP (LOGCUMSUMEXP), LAYOUT_SOFTMAX, F64, F64, 1, -40, 40, FALSE, { .reduce = { 2, 9, 70, 0, TRUE } } },
  /* sort: integral values tie, so that the stable order and the indices are checked too */
  { "sort/f32", OP (SORT), LAYOUT_SOFTMAX, F32, F32, 1, -4, 4, TRUE, { .reduce = { 3, 9, 4, 0 } } },
  { "sort/f64-descending", OP (SORT), LAYOUT_SOFTMAX, F64, F64, 1, -2, 2, FALSE, { .reduce = { 6, 7, 1, 0, TRUE } } },
  { "sort/i64-descending", OP (SORT), LAYOUT_SOFTMAX, I64, I64, 1, -3, 3, TRUE, { .reduce = { 2, 11, 3, 0, TRUE } } },

  /* indexing: [outer 2, size 5, inner 3], 4 indices */
  { "index-select/f32", OP (INDEX_SELECT), LAYOUT_INDEX_SELECT, F32, F32, 2, -2, 2, FALSE, { .index = { 2, 5, 3, 0 } } },
  { "index-select/i64", OP (INDEX_SELECT), LAYOUT_INDEX_SELECT, I64, I64, 2, -99, 99, TRUE, { .index = { 2, 5, 3, 0 } } },
  { "index-add/f32", OP (INDEX_ADD), LAYOUT_INDEX_ADD, F32, F32, 2, -2, 2, FALSE, { .index = { 2, 5, 3, 0 } } },
  { "index-add/f64-rows", OP (INDEX_ADD), LAYOUT_INDEX_ADD, F64, F64, 2, -2, 2, FALSE, { .index = { 1, 5, 3, 0 } } },
  { "gather/f32", OP (GATHER), LAYOUT_GATHER, F32, F32, 2, -2, 2, FALSE, { .index = { 2, 5, 3, 4 } } },
  { "gather/i64", OP (GATHER), LAYOUT_GATHER, I64, I64, 2, -99, 99, TRUE, { .index = { 2, 5, 1, 4 } } },
  { "scatter-add/f32", OP (SCATTER_ADD), LAYOUT_SCATTER_ADD, F32, F32, 2, -2, 2, FALSE, { .index = { 2, 5, 3, 4 } } },
  { "scatter-add/f64", OP (SCATTER_ADD), LAYOUT_SCATTER_ADD, F64, F64, 2, -2, 2, FALSE, { .index = { 3, 4, 1, 6 } } },
  { "scatter-reduce/f32-replace", OP (SCATTER_REDUCE), LAYOUT_SCATTER_ADD, F32, F32, 2, -2, 2, FALSE,
    { .index = { 2, 5, 3, 4, GNN_KERNEL_SCATTER_REPLACE } } },
  { "scatter-reduce/f64-prod", OP (SCATTER_REDUCE), LAYOUT_SCATTER_ADD, F64, F64, 2, -2, 2, FALSE,
    { .index = { 3, 4, 1, 6, GNN_KERNEL_SCATTER_PROD } } },
  { "scatter-reduce/f32-amax", OP (SCATTER_REDUCE), LAYOUT_SCATTER_ADD, F32, F32, 2, -2, 2, FALSE,
    { .index = { 2, 3, 2, 5, GNN_KERNEL_SCATTER_AMAX } } },
  { "scatter-reduce/i64-amin", OP (SCATTER_REDUCE), LAYOUT_SCATTER_ADD, I64, I64, 2, -99, 99, TRUE,
    { .index = { 2, 5, 1, 4, GNN_KERNEL_SCATTER_AMIN } } },
  { "one-hot/i64", OP (ONE_HOT), LAYOUT_ONE_HOT, I64, I64, 1, 0, 0, TRUE, { .one_hot = { 4 } } },

  /* convolution and pooling of a (2, 3, 6, 7) image; the window's (kernel, stride, padding, dilation), each (H, W) */
  { "im2col/f32", OP (IM2COL), LAYOUT_IMAGE, F32, F32, 1, -2, 2, FALSE, { .window = { { 3, 2 }, { 2, 1 }, { 1, 1 }, { 1, 2 } } } },
  { "col2im/f64", OP (COL2IM), LAYOUT_IMAGE, F64, F64, 1, -2, 2, FALSE, { .window = { { 3, 2 }, { 2, 1 }, { 1, 1 }, { 1, 2 } } } },
  { "max-pool2d/f32", OP (MAX_POOL2D), LAYOUT_IMAGE, F32, F32, 1, -2, 2, FALSE, { .window = { { 3, 2 }, { 2, 1 }, { 1, 1 }, { 2, 1 } } } },
  { "max-pool2d-backward/f64", OP (MAX_POOL2D_BACKWARD), LAYOUT_IMAGE, F64, F64, 2, -2, 2, FALSE, { .window = { { 3, 2 }, { 2, 1 }, { 1, 1 }, { 2, 1 } } } },
  { "avg-pool2d/f32", OP (AVG_POOL2D), LAYOUT_IMAGE, F32, F32, 1, -2, 2, FALSE, { .window = { { 3, 2 }, { 2, 2 }, { 1, 1 }, { 1, 1 }, 0, TRUE } } },
  { "avg-pool2d/f64-exclude-pad", OP (AVG_POOL2D), LAYOUT_IMAGE, F64, F64, 1, -2, 2, FALSE, { .window = { { 3, 3 }, { 2, 1 }, { 1, 1 }, { 1, 1 }, 0, FALSE } } },
  { "avg-pool2d-backward/f64", OP (AVG_POOL2D_BACKWARD), LAYOUT_IMAGE, F64, F64, 1, -2, 2, FALSE, { .window = { { 2, 3 }, { 1, 2 }, { 1, 1 }, { 1, 1 }, 3, FALSE } } },
  { "adaptive-avg-pool2d/f32", OP (ADAPTIVE_AVG_POOL2D), LAYOUT_IMAGE, F32, F32, 1, -2, 2, FALSE, NO_PARAMS },
  { "adaptive-avg-pool2d-backward/f64", OP (ADAPTIVE_AVG_POOL2D_BACKWARD), LAYOUT_IMAGE, F64, F64, 1, -2, 2, FALSE, NO_PARAMS },

  /* 3-d convolution and pooling of a (2, 3, 5, 6, 4) volume; the volume's (kernel, stride, padding, dilation), each (D, H, W) */
  { "vol2col/f32", OP (VOL2COL), LAYOUT_VOLUME, F32, F32, 1, -2, 2, FALSE, { .volume = { { 2, 3, 2 }, { 1, 2, 1 }, { 1, 1, 0 }, { 2, 1, 2 } } } },
  { "col2vol/f64", OP (COL2VOL), LAYOUT_VOLUME, F64, F64, 1, -2, 2, FALSE, { .volume = { { 2, 3, 2 }, { 1, 2, 1 }, { 1, 1, 0 }, { 2, 1, 2 } } } },
  { "max-pool3d/f32", OP (MAX_POOL3D), LAYOUT_VOLUME, F32, F32, 1, -2, 2, FALSE, { .volume = { { 2, 3, 2 }, { 2, 2, 1 }, { 1, 1, 1 }, { 2, 1, 1 } } } },
  { "max-pool3d-backward/f64", OP (MAX_POOL3D_BACKWARD), LAYOUT_VOLUME, F64, F64, 2, -2, 2, FALSE, { .volume = { { 2, 3, 2 }, { 2, 2, 1 }, { 1, 1, 1 }, { 2, 1, 1 } } } },
  { "avg-pool3d/f32", OP (AVG_POOL3D), LAYOUT_VOLUME, F32, F32, 1, -2, 2, FALSE, { .volume = { { 2, 3, 2 }, { 2, 2, 1 }, { 1, 1, 1 }, { 1, 1, 1 }, 0, TRUE } } },
  { "avg-pool3d/f64-exclude-pad", OP (AVG_POOL3D), LAYOUT_VOLUME, F64, F64, 1, -2, 2, FALSE, { .volume = { { 3, 2, 3 }, { 1, 2, 2 }, { 1, 1, 1 }, { 1, 1, 1 }, 0, FALSE } } },
  { "avg-pool3d-backward/f64", OP (AVG_POOL3D_BACKWARD), LAYOUT_VOLUME, F64, F64, 1, -2, 2, FALSE, { .volume = { { 2, 2, 3 }, { 1, 1, 2 }, { 1, 1, 1 }, { 1, 1, 1 }, 3, FALSE } } },
  { "adaptive-avg-pool3d/f32", OP (ADAPTIVE_AVG_POOL3D), LAYOUT_VOLUME, F32, F32, 1, -2, 2, FALSE, NO_PARAMS },
  { "adaptive-avg-pool3d-backward/f64", OP (ADAPTIVE_AVG_POOL3D_BACKWARD), LAYOUT_VOLUME, F64, F64, 1, -2, 2, FALSE, NO_PARAMS },
  { "adaptive-max-pool3d/f32", OP (ADAPTIVE_MAX_POOL3D), LAYOUT_VOLUME, F32, F32, 1, -2, 2, FALSE, NO_PARAMS },

  /* batch normalisation of (N, C, S) = (3, 4, 5); channel-affine with in2 is the backward form */
  { "batch-norm-stats/f32", OP (BATCH_NORM_STATS), LAYOUT_CHANNELS, F32, F32, 1, -2, 2, FALSE, { .norm = { 3, 4, 5 } } },
  { "channel-affine/f32", OP (CHANNEL_AFFINE), LAYOUT_CHANNELS, F32, F32, 2, -2, 2, FALSE, { .norm = { 3, 4, 5 } } },
  { "channel-affine/f64-backward", OP (CHANNEL_AFFINE), LAYOUT_CHANNELS, F64, F64, 3, -2, 2, FALSE, { .norm = { 3, 4, 5 } } },
  { "batch-norm-backward-reduce/f64", OP (BATCH_NORM_BACKWARD_REDUCE), LAYOUT_CHANNELS, F64, F64, 3, -2, 2, FALSE, { .norm = { 2, 3, 7 } } },

  /* three (out, in) pairs: contiguous, transposed, one-dimensional */
  { "foreach-lerp/f32", OP (FOREACH_LERP), LAYOUT_LIST, F32, F32, 0, -2, 2, FALSE, { .lerp = { 0.3 } } },
  { "foreach-lerp/f64-far", OP (FOREACH_LERP), LAYOUT_LIST, F64, F64, 0, -2, 2, FALSE, { .lerp = { 0.9 } } },

  /* attention: the mask (when not causal) and the backward's v, o, lse and dv travel in params.attention */
  { "attention/f32", OP (ATTENTION), LAYOUT_ATTENTION, F32, F32, 3, -2, 2, FALSE, { .attention = { 0.5, FALSE } } },
  { "attention/f64-causal", OP (ATTENTION), LAYOUT_ATTENTION, F64, F64, 3, -2, 2, FALSE, { .attention = { 0.7, TRUE } } },
  { "attention-backward/f64", OP (ATTENTION_BACKWARD), LAYOUT_ATTENTION, F64, F64, 3, -1, 1, FALSE, { .attention = { 0.5, FALSE } } },
  { "attention-backward/f32-causal", OP (ATTENTION_BACKWARD), LAYOUT_ATTENTION, F32, F32, 3, -1, 1, FALSE, { .attention = { 0.7, TRUE } } },

  /* the recurrent cells: pre-activations, states and gradients */
  { "lstm-cell/f32", OP (LSTM_CELL), LAYOUT_RNN_CELL, F32, F32, 2, -3, 3, FALSE, NO_PARAMS },
  { "lstm-cell/f64", OP (LSTM_CELL), LAYOUT_RNN_CELL, F64, F64, 2, -3, 3, FALSE, NO_PARAMS },
  { "lstm-cell-backward/f32", OP (LSTM_CELL_BACKWARD), LAYOUT_RNN_CELL, F32, F32, 3, -3, 3, FALSE, NO_PARAMS },
  { "lstm-cell-backward/f64", OP (LSTM_CELL_BACKWARD), LAYOUT_RNN_CELL, F64, F64, 3, -3, 3, FALSE, NO_PARAMS },
  { "gru-cell/f32", OP (GRU_CELL), LAYOUT_RNN_CELL, F32, F32, 3, -3, 3, FALSE, NO_PARAMS },
  { "gru-cell/f64", OP (GRU_CELL), LAYOUT_RNN_CELL, F64, F64, 3, -3, 3, FALSE, NO_PARAMS },
  { "gru-cell-backward/f32", OP (GRU_CELL_BACKWARD), LAYOUT_RNN_CELL, F32, F32, 3, -3, 3, FALSE, NO_PARAMS },
  { "gru-cell-backward/f64", OP (GRU_CELL_BACKWARD), LAYOUT_RNN_CELL, F64, F64, 3, -3, 3, FALSE, NO_PARAMS },
};

/* A host operand: memory and the kernel's view of it. */
typedef struct {
  GnnKernelTensor kt;
  gpointer mem;
  gsize nbytes;
} Operand;

static void
operand_clear (Operand *o)
{
  g_clear_pointer (&o->mem, g_free);
}

static void
store (GnnDtype dtype, gpointer mem, gint64 at, double v)
{
  gnn_dtype_store_double (dtype, (char *) mem + at * (gint64) gnn_dtype_get_size (dtype), v);
}

static double
load (GnnDtype dtype, gconstpointer mem, gint64 at)
{
  const char *p = (const char *) mem + at * (gint64) gnn_dtype_get_size (dtype);

  switch (dtype)
    {
    case GNN_DTYPE_FLOAT32: return *(const float *) p;
    case GNN_DTYPE_FLOAT64: return *(const double *) p;
    case GNN_DTYPE_INT64: return (double) *(const gint64 *) p;
    case GNN_DTYPE_INT32: return *(const gint32 *) p;
    case GNN_DTYPE_INT16: return *(const gint16 *) p;
    case GNN_DTYPE_INT8: return *(const gint8 *) p;
    case GNN_DTYPE_BOOL:
    case GNN_DTYPE_UINT8: return *(const guint8 *) p;
    case GNN_DTYPE_FLOAT16: return gnn_half_to_float (*(const guint16 *) p);
    case GNN_DTYPE_BFLOAT16: return gnn_bf16_to_float (*(const guint16 *) p);
    }
  return 0;
}

typedef enum { KIND_CONTIGUOUS, KIND_TRANSPOSED, KIND_BROADCAST } Kind;

/* An operand of @shape: contiguous; or stored with its last two dimensions swapped (a
 * transposed view); or with dimension 1 broadcast (stride 0). Values from @rng in [lo, hi]. */
static void
operand_init (Operand *o, GnnDtype dtype, guint ndim, const gint64 *shape, Kind kind, GRand *rng,
              double lo, double hi, gboolean integral)
{
  gint64 stride = 1, n_mem = 1;
  gint64 order[GNN_MAX_DIMS];

  memset (o, 0, sizeof *o);
  o->kt.dtype = dtype;
  o->kt.ndim = ndim;
  memcpy (o->kt.shape, shape, sizeof (gint64) * ndim);
  if (kind == KIND_TRANSPOSED && ndim < 2)
    kind = KIND_CONTIGUOUS;
  if (kind == KIND_BROADCAST && ndim < 2)
    kind = KIND_CONTIGUOUS;

  /* the order in which dimensions are laid out in memory, innermost last */
  for (guint d = 0; d < ndim; d++)
    order[d] = d;
  if (kind == KIND_TRANSPOSED)
    {
      order[ndim - 2] = ndim - 1;
      order[ndim - 1] = ndim - 2;
    }
  for (guint k = ndim; k-- > 0;)
    {
      guint d = (guint) order[k];
      if (kind == KIND_BROADCAST && d == 1)
        {
          o->kt.strides[d] = 0;
          continue;
        }
      o->kt.strides[d] = stride;
      stride *= shape[d];
    }
  n_mem = MAX (stride, 1);
  o->nbytes = n_mem * gnn_dtype_get_size (dtype);
  o->mem = g_malloc0 (o->nbytes);
  o->kt.data = o->mem;
  for (gint64 i = 0; i < n_mem; i++)
    {
      double v = lo + (hi - lo) * g_rand_double (rng);
      if (integral || !gnn_dtype_is_floating (dtype))
        v = round (v);
      store (dtype, o->mem, i, v);
    }
}

static void
operand_copy (Operand *dst, const Operand *src)
{
  *dst = *src;
  dst->mem = g_memdup2 (src->mem, src->nbytes);
  dst->kt.data = dst->mem;
}


/* ---- operands on the host and on the backend's device ------------------------------- */

#define MAX_LIST 3

/* The operand slots of one kernel call. */
enum { OUT, OUT2, IN0, IN1, IN2, LIST_OUT, LIST_IN = LIST_OUT + MAX_LIST, A_MASK = LIST_IN + MAX_LIST,
       A_V, A_O, A_LSE, A_DV, N_SLOTS };

typedef struct {
  Operand op[N_SLOTS];   /* unused ones have no memory */
  guint n_list;
} Call;

static const char *slot_names[N_SLOTS] = {
  "out", "out2", "in0", "in1", "in2", "list_out[0]", "list_out[1]", "list_out[2]",
  "list_in[0]", "list_in[1]", "list_in[2]", "attention.mask", "attention.v", "attention.o",
  "attention.lse", "attention.dv",
};
G_STATIC_ASSERT (MAX_LIST == 3);

static gboolean
is_output (guint slot)
{
  return slot == OUT || slot == OUT2 || (slot >= LIST_OUT && slot < LIST_IN) || slot == A_DV;
}

static GnnBackend *under_test;
static GnnBackend *reference;

static const GnnBackendFuncs *
funcs_of (GnnBackend *b)
{
  return GNN_BACKEND_GET_IFACE (b)->get_funcs (b);
}

/* the compute dtype of case @c: its values' dtype, or out's for an op whose table row says so */
static GnnDtype
compute_dtype (const KernelCase *c)
{
  return gnn_backend_op_get_info (c->op)->compute == GNN_BACKEND_OP_COMPUTE_OUT ? c->out_dtype : c->dtype;
}

/* Runs case @c on @call's operands on device 0 of @backend: in place for host memory, else on
 * copies in the device's memory, the outputs copied back. */
static gboolean
call_run (Call *call, const KernelCase *c, GnnBackend *backend, GError **error)
{
  const GnnBackendFuncs *f = funcs_of (backend);
  GnnKernelTensor kt[N_SLOTS];
  gpointer dev[N_SLOTS] = { NULL };
  GnnKernelArgs args = { 0 };
  gboolean ok = TRUE;

  for (guint s = 0; s < N_SLOTS; s++)
    {
      const Operand *o = &call->op[s];

      kt[s] = o->kt;
      if (o->mem == NULL || f->is_host || !ok)
        continue;
      ok = (dev[s] = f->alloc (backend, 0, o->nbytes, error)) != NULL &&
           f->copy_from_host (backend, 0, dev[s], o->mem, o->nbytes, error);
      kt[s].data = (char *) dev[s] + ((char *) o->kt.data - (char *) o->mem);
    }
  args.op = c->op;
  args.out = call->op[OUT].mem ? &kt[OUT] : NULL;
  args.out2 = call->op[OUT2].mem ? &kt[OUT2] : NULL;
  for (guint k = 0; k < c->n_in; k++)
    args.in[k] = &kt[IN0 + k];
  args.n_in = c->n_in;
  args.params = c->params;
  if (c->layout == LAYOUT_ATTENTION)
    {
      GnnKernelAttention *at = &args.params.attention;

      at->mask = call->op[A_MASK].mem ? &kt[A_MASK] : NULL;
      at->v = call->op[A_V].mem ? &kt[A_V] : NULL;
      at->o = call->op[A_O].mem ? &kt[A_O] : NULL;
      at->lse = call->op[A_LSE].mem ? &kt[A_LSE] : NULL;
      at->dv = call->op[A_DV].mem ? &kt[A_DV] : NULL;
    }
  if (call->n_list > 0)
    {
      args.list_out = &kt[LIST_OUT];
      args.list_in = &kt[LIST_IN];
      args.n_list = call->n_list;
    }
  ok = ok && f->run (backend, 0, &args, error);
  for (guint s = 0; s < N_SLOTS; s++)
    if (dev[s] != NULL)
      {
        if (ok && is_output (s))
          ok = f->copy_to_host (backend, 0, call->op[s].mem, dev[s], call->op[s].nbytes, error);
        f->free (backend, 0, dev[s], call->op[s].nbytes);
      }
  return ok;
}

static void
call_copy (Call *dst, const Call *src)
{
  *dst = *src;
  for (guint s = 0; s < N_SLOTS; s++)
    if (src->op[s].mem)
      operand_copy (&dst->op[s], &src->op[s]);
}

static void
call_clear (Call *call)
{
  for (guint s = 0; s < N_SLOTS; s++)
    operand_clear (&call->op[s]);
}

/* The operands of case @c, values from a fixed seed. */
static void
call_init (Call *call, const KernelCase *c)
{
  g_autoptr(GRand) rng = g_rand_new_with_seed (20240601);
  Operand *in = &call->op[IN0], *out = &call->op[OUT], *out2 = &call->op[OUT2];
  /* the [outer, r, inner] layout of reductions and of indexing */
  const gboolean indexing = c->layout >= LAYOUT_INDEX_SELECT && c->layout <= LAYOUT_SCATTER_ADD;
  gint64 outer = indexing ? c->params.index.outer : c->params.reduce.outer;
  gint64 r = indexing ? c->params.index.size : c->params.reduce.reduced;
  gint64 inner = indexing ? c->params.index.inner : c->params.reduce.inner;

  memset (call, 0, sizeof *call);
  switch (c->layout)
    {
    case LAYOUT_ELEMENTWISE:
      {
        const gint64 shape[] = { 3, 4, 5 };
        const Kind strided[] = { KIND_TRANSPOSED, KIND_BROADCAST, KIND_CONTIGUOUS };

        for (guint k = 0; k < c->n_in; k++)
          {
            GnnDtype dt = (c->op == OP (WHERE) && k == 0) ? GNN_DTYPE_BOOL : c->dtype;
            operand_init (&in[k], dt, 3, shape, c->strided ? strided[k] : KIND_CONTIGUOUS, rng,
                          dt == GNN_DTYPE_BOOL ? 0 : c->lo, dt == GNN_DTYPE_BOOL ? 1 : c->hi, c->integral);
          }
        operand_init (out, c->out_dtype, 3, shape, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
        if ((c->op == OP (DIV) || c->op == OP (FMOD) || c->op == OP (REMAINDER) || c->op == OP (FLOOR_DIVIDE)) &&
            !gnn_dtype_is_floating (c->dtype))
          /* an integer division by zero is an error, not a value to compare */
          for (gint64 i = 0; i < (gint64) (in[1].nbytes / gnn_dtype_get_size (c->dtype)); i++)
            if (load (c->dtype, in[1].mem, i) == 0)
              store (c->dtype, in[1].mem, i, 1);
      }
      break;
    case LAYOUT_CREATE:
      {
        gint64 n = c->op == OP (ARANGE) ? 13 : 60;
        operand_init (out, c->out_dtype, 1, &n, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
      }
      break;
    case LAYOUT_REDUCE:
    case LAYOUT_SOFTMAX:
      {
        const gint64 shape3[] = { outer, r, inner };
        const gint64 shape2[] = { outer, inner };

        for (guint k = 0; k < c->n_in; k++)
          operand_init (&in[k], c->dtype, 3, shape3, KIND_CONTIGUOUS, rng, c->lo, c->hi, c->integral);
        if (c->layout == LAYOUT_SOFTMAX)
          operand_init (out, c->out_dtype, 3, shape3, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
        else
          operand_init (out, c->out_dtype, 2, shape2, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
        if (c->op == OP (MAX) || c->op == OP (MIN))
          operand_init (out2, GNN_DTYPE_INT64, 2, shape2, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
        if (c->op == OP (SORT))
          operand_init (out2, GNN_DTYPE_INT64, 3, shape3, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
      }
      break;
    case LAYOUT_GEMM:
      {
        const gint64 sa[] = { 2, 3, 4 }, sb[] = { 2, 4, 5 }, sc[] = { 2, 3, 5 };

        /* a stored transposed; b, when strided, one matrix broadcast over the batch */
        operand_init (&in[0], c->dtype, 3, sa, KIND_TRANSPOSED, rng, c->lo, c->hi, FALSE);
        operand_init (&in[1], c->dtype, 3, sb, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
        if (c->strided)
          in[1].kt.strides[0] = 0;
        operand_init (out, c->out_dtype, 3, sc, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
        if (c->params.gemm.beta == 0)
          for (gint64 i = 0; i < 30; i++)
            store (c->out_dtype, out->mem, i, NAN);   /* must not be read */
      }
      break;
    case LAYOUT_INDEX_SELECT:
    case LAYOUT_INDEX_ADD:
      {
        const gint64 n_index = 4, idx_shape[] = { n_index };
        const gint64 big[] = { outer, r, inner }, small[] = { outer, n_index, inner };
        gboolean add = c->layout == LAYOUT_INDEX_ADD;
        const gint64 picks[] = { r - 1, 0, 2, 2 };   /* repeated on purpose */

        operand_init (&in[0], c->dtype, 3, add ? small : big, KIND_CONTIGUOUS, rng, c->lo, c->hi, c->integral);
        operand_init (&in[1], GNN_DTYPE_INT64, 1, idx_shape, KIND_CONTIGUOUS, rng, 0, 0, TRUE);
        for (gint64 j = 0; j < n_index; j++)
          store (GNN_DTYPE_INT64, in[1].mem, j, picks[j]);
        operand_init (out, c->out_dtype, 3, add ? big : small, KIND_CONTIGUOUS, rng, c->lo, c->hi, c->integral);
      }
      break;
    case LAYOUT_GATHER:
    case LAYOUT_SCATTER_ADD:
      {
        gint64 n_index = c->params.index.index_size;
        const gint64 big[] = { outer, r, inner }, small[] = { outer, n_index, inner };
        gboolean scatter = c->layout == LAYOUT_SCATTER_ADD;

        operand_init (&in[0], c->dtype, 3, scatter ? small : big, KIND_CONTIGUOUS, rng, c->lo, c->hi, c->integral);
        operand_init (&in[1], GNN_DTYPE_INT64, 3, small, KIND_CONTIGUOUS, rng, 0, r - 1, TRUE);
        operand_init (out, c->out_dtype, 3, scatter ? big : small, KIND_CONTIGUOUS, rng, c->lo, c->hi, c->integral);
      }
      break;
    case LAYOUT_ONE_HOT:
      {
        const gint64 n = 6, shape[] = { n, c->params.one_hot.classes };

        operand_init (&in[0], GNN_DTYPE_INT64, 1, &n, KIND_CONTIGUOUS, rng, 0, c->params.one_hot.classes - 1, TRUE);
        operand_init (out, c->out_dtype, 2, shape, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
      }
      break;
    case LAYOUT_CHANNELS:
      {
        const gint64 n = c->params.norm.batch, ch = c->params.norm.channels, sp = c->params.norm.spatial;
        const gint64 x[] = { n, ch, sp }, rows2[] = { 2, ch }, rows4[] = { 4, ch };

        operand_init (&in[0], c->dtype, 3, x, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
        switch (c->op)
          {
          case GNN_BACKEND_OP_BATCH_NORM_STATS:
            operand_init (out, c->out_dtype, 2, rows2, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
            break;
          case GNN_BACKEND_OP_CHANNEL_AFFINE:
            /* coefficients: 2 rows, or 4 with the second input in2 */
            operand_init (&in[1], c->dtype, 2, c->n_in == 3 ? rows4 : rows2, KIND_CONTIGUOUS, rng,
                          c->lo, c->hi, FALSE);
            if (c->n_in == 3)
              operand_init (&in[2], c->dtype, 3, x, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
            operand_init (out, c->out_dtype, 3, x, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
            break;
          default:
            /* the gradient in0, the input in1 and its per-channel mean in2 */
            operand_init (&in[1], c->dtype, 3, x, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
            operand_init (&in[2], c->dtype, 1, &ch, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
            operand_init (out, c->out_dtype, 2, rows2, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
            break;
          }
      }
      break;
    case LAYOUT_LIST:
      {
        const gint64 shapes[MAX_LIST][2] = { { 3, 4 }, { 5, 2 }, { 7 } };
        const Kind kinds[MAX_LIST] = { KIND_CONTIGUOUS, KIND_TRANSPOSED, KIND_CONTIGUOUS };

        call->n_list = MAX_LIST;
        for (guint j = 0; j < MAX_LIST; j++)
          {
            guint nd = j == 2 ? 1 : 2;

            operand_init (&call->op[LIST_OUT + j], c->dtype, nd, shapes[j], kinds[j], rng, c->lo, c->hi, FALSE);
            operand_init (&call->op[LIST_IN + j], c->dtype, nd, shapes[j], KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
          }
      }
      break;
    case LAYOUT_ATTENTION:
      {
        gboolean causal = c->params.attention.causal;
        gboolean backward = c->op == OP (ATTENTION_BACKWARD);
        const gint64 B = causal ? 2 : 6, L = causal ? 67 : 5, S = causal ? 70 : 7, E = causal ? 3 : 4;
        const gint64 Ev = causal ? 2 : 3;
        const gint64 sq[] = { B, L, E }, sk[] = { B, S, E }, sv[] = { B, S, Ev }, so[] = { B, L, Ev };
        const gint64 slse[] = { B, L }, smask[] = { 1, 3, L, S };

        /* forward: q, k, v; backward: dO, q, k and v, o, lse beside */
        operand_init (&in[0], c->dtype, 3, backward ? so : sq, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
        operand_init (&in[1], c->dtype, 3, backward ? sq : sk, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
        operand_init (&in[2], c->dtype, 3, backward ? sk : sv, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
        if (!causal)
          {
            /* (2, 3, L, S) with its first dim broadcast (stride 0): batch b reads mask[b % 3] */
            operand_init (&call->op[A_MASK], c->dtype, 4, smask, KIND_CONTIGUOUS, rng, -1, 1, FALSE);
            call->op[A_MASK].kt.shape[0] = 2;
            call->op[A_MASK].kt.strides[0] = 0;
          }
        if (backward)
          {
            operand_init (&call->op[A_V], c->dtype, 3, sv, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
            operand_init (&call->op[A_O], c->dtype, 3, so, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
            operand_init (&call->op[A_LSE], c->dtype, 2, slse, KIND_CONTIGUOUS, rng, 1, 2, FALSE);
            operand_init (&call->op[A_DV], c->dtype, 3, sv, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
            operand_init (out, c->out_dtype, 3, sq, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
            operand_init (out2, c->out_dtype, 3, sk, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
          }
        else
          {
            operand_init (out, c->out_dtype, 3, so, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
            operand_init (out2, c->out_dtype, 2, slse, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
          }
      }
      break;
    case LAYOUT_RNN_CELL:
      {
        const gint64 B = 3, H = 5;
        gboolean lstm = c->op == OP (LSTM_CELL) || c->op == OP (LSTM_CELL_BACKWARD);
        gboolean backward = c->op == OP (LSTM_CELL_BACKWARD) || c->op == OP (GRU_CELL_BACKWARD);
        const gint64 s1[] = { B, H }, s2[] = { B, 2 * H }, s3[] = { B, 3 * H }, s4[] = { B, 4 * H };

        if (lstm)
          {
            operand_init (&in[0], c->dtype, 2, s4, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
            operand_init (&in[1], c->dtype, 2, s1, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
            if (backward)
              {
                operand_init (&in[2], c->dtype, 2, s2, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
                operand_init (out, c->out_dtype, 2, s4, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
                operand_init (out2, c->out_dtype, 2, s1, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
              }
            else
              operand_init (out, c->out_dtype, 2, s2, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
          }
        else
          {
            operand_init (&in[0], c->dtype, 2, s3, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
            operand_init (&in[1], c->dtype, 2, s3, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
            operand_init (&in[2], c->dtype, 2, backward ? s2 : s1, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
            operand_init (out, c->out_dtype, 2, backward ? s3 : s1, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
            if (backward)
              operand_init (out2, c->out_dtype, 2, s4, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
          }
      }
      break;
    case LAYOUT_IMAGE:
      {
        const gint64 N = 2, C = 3, H = 6, W = 7;
        const GnnKernelWindow *w = &c->params.window;
        gint64 kh = w->kernel[0], kw = w->kernel[1], sh = w->stride[0], sw = w->stride[1];
        gint64 ph = w->padding[0], pw = w->padding[1];
        gboolean dilated = c->op == OP (IM2COL) || c->op == OP (COL2IM) || c->op == OP (MAX_POOL2D) ||
                           c->op == OP (MAX_POOL2D_BACKWARD);
        gint64 dh = dilated ? w->dilation[0] : 1, dw = dilated ? w->dilation[1] : 1;
        gboolean adaptive = c->op == OP (ADAPTIVE_AVG_POOL2D) || c->op == OP (ADAPTIVE_AVG_POOL2D_BACKWARD);
        gint64 oh = adaptive ? 4 : (H + 2 * ph - dh * (kh - 1) - 1) / sh + 1;
        gint64 ow = adaptive ? 3 : (W + 2 * pw - dw * (kw - 1) - 1) / sw + 1;
        gboolean cols = c->op == OP (IM2COL) || c->op == OP (COL2IM);
        const gint64 image[] = { N, C, H, W };
        const gint64 other[] = { N, cols ? C * kh * kw : C, oh, ow };
        gboolean to_image = c->op == OP (COL2IM) || c->op == OP (MAX_POOL2D_BACKWARD) ||
                            c->op == OP (AVG_POOL2D_BACKWARD) || c->op == OP (ADAPTIVE_AVG_POOL2D_BACKWARD);

        operand_init (&in[0], c->dtype, 4, to_image ? other : image, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
        operand_init (out, c->out_dtype, 4, to_image ? image : other, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
        if (c->op == OP (MAX_POOL2D_BACKWARD))
          operand_init (&in[1], GNN_DTYPE_INT64, 4, other, KIND_CONTIGUOUS, rng, 0, H * W - 1, TRUE);
        if (c->op == OP (MAX_POOL2D))
          operand_init (out2, GNN_DTYPE_INT64, 4, other, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
      }
      break;
    case LAYOUT_VOLUME:
      {
        const gint64 N = 2, C = 3, I[3] = { 5, 6, 4 }, adaptive_out[3] = { 3, 4, 3 };
        const GnnKernelVolume *v = &c->params.volume;
        gboolean dilated = c->op == OP (VOL2COL) || c->op == OP (COL2VOL) || c->op == OP (MAX_POOL3D) ||
                           c->op == OP (MAX_POOL3D_BACKWARD);
        gboolean adaptive = c->op == OP (ADAPTIVE_AVG_POOL3D) || c->op == OP (ADAPTIVE_AVG_POOL3D_BACKWARD) ||
                            c->op == OP (ADAPTIVE_MAX_POOL3D);
        gboolean cols = c->op == OP (VOL2COL) || c->op == OP (COL2VOL);
        gboolean to_image = c->op == OP (COL2VOL) || c->op == OP (MAX_POOL3D_BACKWARD) ||
                            c->op == OP (AVG_POOL3D_BACKWARD) || c->op == OP (ADAPTIVE_AVG_POOL3D_BACKWARD);
        gint64 image[5] = { N, C, I[0], I[1], I[2] }, other[5] = { N, C, 0, 0, 0 };

        for (guint a = 0; a < 3; a++)
          {
            gint64 d = dilated ? v->dilation[a] : 1;
            other[2 + a] = adaptive ? adaptive_out[a]
                                    : (I[a] + 2 * v->padding[a] - d * (v->kernel[a] - 1) - 1) / v->stride[a] + 1;
          }
        if (cols)
          other[1] = C * v->kernel[0] * v->kernel[1] * v->kernel[2];
        operand_init (&in[0], c->dtype, 5, to_image ? other : image, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
        operand_init (out, c->out_dtype, 5, to_image ? image : other, KIND_CONTIGUOUS, rng, c->lo, c->hi, FALSE);
        if (c->op == OP (MAX_POOL3D_BACKWARD))
          operand_init (&in[1], GNN_DTYPE_INT64, 5, other, KIND_CONTIGUOUS, rng, 0, I[0] * I[1] * I[2] - 1, TRUE);
        if (c->op == OP (MAX_POOL3D) || c->op == OP (ADAPTIVE_MAX_POOL3D))
          operand_init (out2, GNN_DTYPE_INT64, 5, other, KIND_CONTIGUOUS, rng, 0, 0, FALSE);
      }
      break;
    }

}

/* ---- budgets and comparison --------------------------------------------------------- */

/* The ops whose result is a copy, a choice or a comparison of their inputs: every backend
 * gives the same bits. */
static gboolean
is_exact (GnnBackendOp op)
{
  switch (op)
    {
    case GNN_BACKEND_OP_COPY:
    case GNN_BACKEND_OP_FILL:
    case GNN_BACKEND_OP_ARANGE:
    case GNN_BACKEND_OP_RAND_UNIFORM:
    case GNN_BACKEND_OP_RAND_INT:
    case GNN_BACKEND_OP_MAXIMUM:
    case GNN_BACKEND_OP_MINIMUM:
    case GNN_BACKEND_OP_FMAX:
    case GNN_BACKEND_OP_FMIN:
    case GNN_BACKEND_OP_COPYSIGN:
    case GNN_BACKEND_OP_NEXTAFTER:
    case GNN_BACKEND_OP_HEAVISIDE:
    case GNN_BACKEND_OP_EQ:
    case GNN_BACKEND_OP_NE:
    case GNN_BACKEND_OP_LT:
    case GNN_BACKEND_OP_LE:
    case GNN_BACKEND_OP_GT:
    case GNN_BACKEND_OP_GE:
    case GNN_BACKEND_OP_WHERE:
    case GNN_BACKEND_OP_NEG:
    case GNN_BACKEND_OP_ABS:
    case GNN_BACKEND_OP_SIGN:
    case GNN_BACKEND_OP_CLAMP:
    case GNN_BACKEND_OP_RELU:
    case GNN_BACKEND_OP_RELU_BACKWARD:
    case GNN_BACKEND_OP_MAX:
    case GNN_BACKEND_OP_MIN:
    case GNN_BACKEND_OP_INDEX_SELECT:
    case GNN_BACKEND_OP_GATHER:
    case GNN_BACKEND_OP_SCATTER_REDUCE:
    case GNN_BACKEND_OP_ONE_HOT:
    case GNN_BACKEND_OP_IM2COL:
    case GNN_BACKEND_OP_MAX_POOL2D:
    case GNN_BACKEND_OP_VOL2COL:
    case GNN_BACKEND_OP_MAX_POOL3D:
    case GNN_BACKEND_OP_ADAPTIVE_MAX_POOL3D:
    case GNN_BACKEND_OP_SORT:
      return TRUE;
    default:
      return FALSE;
    }
}

/* The largest normalised mean square error of @op's output of @dtype; 0: exact. */
static double
budget (GnnBackendOp op, GnnDtype dtype)
{
  if (is_exact (op))
    return 0;
  switch (dtype)
    {
    case GNN_DTYPE_FLOAT32: return 1e-10;
    case GNN_DTYPE_FLOAT64: return 1e-24;
    /* integers and bool are exact; float16 and bfloat16 values are rounded from float32 or
     * float64 ones computed the same way */
    default:                return 0;
    }
}

/* Compares an output with the reference's: exactly (NaN equal to NaN) when the budget is 0,
 * else by normalised mean square error (NaN where the other has NaN). */
static void
compare_outputs (const char *what, GnnBackendOp op, const Operand *got, const Operand *want)
{
  GnnDtype dt = want->kt.dtype;
  gint64 n = want->nbytes / gnn_dtype_get_size (dt);
  const char *name = gnn_backend_get_name (under_test);
  double err = 0, norm = 0, limit = budget (op, dt);

  for (gint64 i = 0; i < n; i++)
    {
      double a = load (dt, got->mem, i), b = load (dt, want->mem, i);

      if (isnan (a) || isnan (b))
        {
          if (isnan (a) != isnan (b))
            g_error ("%s: element %" G_GINT64_FORMAT ": %s %.10g, reference %.10g", what, i, name, a, b);
          continue;
        }
      if (limit == 0 && a != b)
        g_error ("%s: element %" G_GINT64_FORMAT ": %s %.17g, reference %.17g (exact)", what, i, name, a, b);
      err += (a - b) * (a - b);
      norm += b * b;
    }
  if (err > limit * MAX (norm, 1e-30))
    {
      for (gint64 i = 0; i < n; i++)
        g_test_message ("%s[%" G_GINT64_FORMAT "]: %s %.17g, reference %.17g", what, i, name,
                        load (dt, got->mem, i), load (dt, want->mem, i));
      g_error ("%s: normalized mean square error %g over the budget %g", what, err / MAX (norm, 1e-30), limit);
    }
}

/* ---- the tests ---------------------------------------------------------------------- */

/* Runs case @c on the reference and on the backend under test and compares their outputs. A
 * kernel the backend says it does not run is skipped (a declared departure); one it says it
 * runs and refuses fails. */
static void
test_compare_kernel (gconstpointer data)
{
  const KernelCase *c = data;
  g_autoptr(GError) error = NULL;
  GnnDtype dtype = compute_dtype (c);
  Call call, got, want;

  if (!gnn_backend_supports_op (under_test, c->op, dtype))
    {
      g_autofree char *why = g_strdup_printf ("the %s backend declares that it does not run %s on %s",
                                              gnn_backend_get_name (under_test),
                                              gnn_backend_op_get_nick (c->op), gnn_dtype_get_name (dtype));
      g_test_skip (why);
      return;
    }
  if (!gnn_backend_supports_op (reference, c->op, dtype))
    {
      g_autofree char *why = g_strdup_printf ("the reference backend does not run %s on %s: nothing to "
                                              "compare with", gnn_backend_op_get_nick (c->op),
                                              gnn_dtype_get_name (dtype));
      g_test_skip (why);
      return;
    }

  call_init (&call, c);
  call_copy (&got, &call);
  call_copy (&want, &call);
  if (!call_run (&want, c, reference, &error))
    g_error ("reference: %s", error->message);
  if (!call_run (&got, c, under_test, &error))
    g_error ("%s: %s", gnn_backend_get_name (under_test), error->message);
  for (guint s = 0; s < N_SLOTS; s++)
    if (is_output (s) && call.op[s].mem)
      compare_outputs (slot_names[s], c->op, &got.op[s], &want.op[s]);
  call_clear (&call);
  call_clear (&got);
  call_clear (&want);
}

/* the first case of @op: the template of its /backend-ops cases */
static const KernelCase *
first_case (GnnBackendOp op)
{
  for (guint i = 0; i < G_N_ELEMENTS (kernel_cases); i++)
    if (kernel_cases[i].op == op)
      return &kernel_cases[i];
  return NULL;
}

/* Every op has a case, so that every row of the table is run. */
static void
test_every_op (void)
{
  g_autoptr(GString) missing = g_string_new (NULL);

  for (int op = 0; op < GNN_BACKEND_OP_N_OPS; op++)
    if (first_case (op) == NULL)
      g_string_append_printf (missing, " %s", gnn_backend_op_get_nick (op));
  if (missing->len)
    g_test_fail_printf ("ops without a case in test-backend-ops.c:%s", missing->str);
}

/* Lists where the backend under test departs from the op table; the nicks agree with the
 * enum's. */
static void
test_departures (void)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (GNN_TYPE_BACKEND_OP);
  guint n = 0;

  for (int op = 0; op < GNN_BACKEND_OP_N_OPS; op++)
    {
      g_assert_cmpstr (gnn_backend_op_get_nick (op), ==, g_enum_get_value (klass, op)->value_nick);
      for (GnnDtype d = GNN_DTYPE_FLOAT32; d <= GNN_DTYPE_BFLOAT16; d++)
        {
          gboolean promised = gnn_backend_op_supported_with (op, d, NULL, 0);
          gboolean served = gnn_backend_supports_op (under_test, op, d);

          if (promised != served)
            {
              g_test_message ("%s: %s on %s %s", gnn_backend_get_name (under_test), gnn_backend_op_get_nick (op),
                              gnn_dtype_get_name (d), served ? "served beyond the table" : "not served (departure)");
              n++;
            }
        }
    }
  g_test_message ("%u departures from the op table", n);
  g_assert_cmpstr (gnn_backend_op_get_nick (GNN_BACKEND_OP_N_OPS), ==, "unknown");
  g_assert_null (gnn_backend_op_get_info (GNN_BACKEND_OP_N_OPS));
}

static void
test_no_device (gconstpointer data)
{
  g_test_skip (data);
}

static void
add_case (const char *path, const KernelCase *c, gboolean owned)
{
  if (owned)
    g_test_add_data_func_full (path, (gpointer) c, test_compare_kernel, g_free);
  else
    g_test_add_data_func (path, c, test_compare_kernel);
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  const char *device_type = g_getenv ("GNN_TEST_DEVICE_TYPE");

  gnn_test_init (&argc, &argv);
  if (device_type == NULL || *device_type == '\0')
    device_type = "cpu";
  reference = gnn_test_backend_named ("reference");
  under_test = gnn_backend_get_for_device_type (device_type, &error);
  if (under_test == NULL || gnn_backend_get_device_count (under_test) == 0)
    {
      static char reason[256];

      g_snprintf (reason, sizeof reason, "no %s device: %s", device_type,
                  error ? error->message : "the backend sees none");
      g_test_add_data_func ("/backend-ops/no-device", reason, test_no_device);
      return g_test_run ();
    }

  g_test_add_func ("/backend-ops/every-op-has-a-case", test_every_op);
  g_test_add_func ("/backend-ops/departures", test_departures);

  /* every dtype the table promises or the backend serves, for each op */
  for (int op = 0; op < GNN_BACKEND_OP_N_OPS; op++)
    {
      const KernelCase *first = first_case (op);

      for (GnnDtype d = GNN_DTYPE_FLOAT32; first && d <= GNN_DTYPE_BFLOAT16; d++)
        {
          g_autofree char *path = NULL;
          KernelCase *c;

          if (!gnn_backend_op_supported_with (op, d, NULL, 0) && !gnn_backend_supports_op (under_test, op, d))
            continue;
          c = g_memdup2 (first, sizeof *first);
          c->name = NULL;
          c->out_dtype = first->out_dtype == first->dtype ? d : first->out_dtype;
          c->dtype = d;
          c->strided = FALSE;
          path = g_strdup_printf ("/backend-ops/%s/%s", gnn_backend_op_get_nick (op), gnn_dtype_get_name (d));
          add_case (path, c, TRUE);
          if (c->layout == LAYOUT_ELEMENTWISE && c->n_in > 0)
            {
              KernelCase *strided = g_memdup2 (c, sizeof *c);
              g_autofree char *spath = g_strdup_printf ("%s-strided", path);

              strided->strided = TRUE;
              add_case (spath, strided, TRUE);
            }
        }
    }

  /* every case as it is */
  for (guint i = 0; i < G_N_ELEMENTS (kernel_cases); i++)
    {
      const KernelCase *c = &kernel_cases[i];
      g_autofree char *path = g_strdup_printf ("/backend/compare/%s", c->name);

      add_case (path, c, FALSE);
      if (c->layout == LAYOUT_ELEMENTWISE && c->n_in > 0)
        {
          /* the same again with transposed and broadcast inputs */
          KernelCase *strided = g_memdup2 (c, sizeof *c);
          g_autofree char *spath = g_strdup_printf ("/backend/compare/%s-strided", c->name);

          strided->strided = TRUE;
          add_case (spath, strided, TRUE);
        }
    }

  return g_test_run ();
}
