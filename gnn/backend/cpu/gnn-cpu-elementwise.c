/* gnn-cpu-elementwise.c: copy/convert, fill, arange, random, binary arithmetic, comparisons,
 * where, pow with a scalar, and the fused optimizer helpers (lerp, addcmul, addcdiv)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-cpu-private.h"
#include "core/gnn-dtype-private.h"
#include "core/gnn-philox-private.h"

/* ---- dtype conversion --------------------------------------------------------------- */

#define RD_f32(p)  ((double) *(const float *) (p))
#define RD_f64(p)  (*(const double *) (p))
#define RD_i64(p)  ((double) *(const gint64 *) (p))
#define RD_bool(p) ((double) (*(const guint8 *) (p) != 0))
#define RD_u8(p)   ((double) *(const guint8 *) (p))
#define RD_f16(p)  ((double) gnn_half_to_float (*(const guint16 *) (p)))
#define RD_bf16(p) ((double) gnn_bf16_to_float (*(const guint16 *) (p)))
#define RD_i32(p)  ((double) *(const gint32 *) (p))
#define RD_i16(p)  ((double) *(const gint16 *) (p))
#define RD_i8(p)   ((double) *(const gint8 *) (p))

#define WR_f32(p, v)  (*(float *) (p) = (float) (v))
#define WR_f64(p, v)  (*(double *) (p) = (double) (v))
#define WR_i64(p, v)  (*(gint64 *) (p) = (gint64) (v))
#define WR_bool(p, v) (*(guint8 *) (p) = (v) != 0)
#define WR_u8(p, v)   (*(guint8 *) (p) = (guint8) (gint64) (v))
#define WR_f16(p, v)  (*(guint16 *) (p) = gnn_float_to_half ((float) (v)))
#define WR_bf16(p, v) (*(guint16 *) (p) = gnn_float_to_bf16 ((float) (v)))
#define WR_i32(p, v)  (*(gint32 *) (p) = (gint32) (gint64) (v))
#define WR_i16(p, v)  (*(gint16 *) (p) = (gint16) (gint64) (v))
#define WR_i8(p, v)   (*(gint8 *) (p) = (gint8) (gint64) (v))

/* the fill loop of each dtype and the conversions from it: fill_f32, convert_f32_f32 to
 * convert_f32_bf16 and their table convert_loops_f32, and so on (gnn-cpu-convert-tmpl.c) */
#define DT f32
#include "gnn-cpu-convert-tmpl.c"
#define DT f64
#include "gnn-cpu-convert-tmpl.c"
#define DT i64
#include "gnn-cpu-convert-tmpl.c"
#define DT bool
#include "gnn-cpu-convert-tmpl.c"
#define DT u8
#include "gnn-cpu-convert-tmpl.c"
#define DT f16
#include "gnn-cpu-convert-tmpl.c"
#define DT bf16
#include "gnn-cpu-convert-tmpl.c"
#define DT i32
#include "gnn-cpu-convert-tmpl.c"
#define DT i16
#include "gnn-cpu-convert-tmpl.c"
#define DT i8
#include "gnn-cpu-convert-tmpl.c"

/* indexed [input dtype][output dtype] in GnnDtype order */
static const GnnCpuLoop *const convert_loops[GNN_N_DTYPES] = {
  convert_loops_f32, convert_loops_f64, convert_loops_i64, convert_loops_bool,
  convert_loops_u8, convert_loops_f16, convert_loops_bf16, convert_loops_i32,
  convert_loops_i16, convert_loops_i8,
};

static void
copy_same (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)
{
  gsize es = gnn_dtype_get_size (args->out->dtype);

  if (s[0] == (gint64) es && s[1] == (gint64) es)
    {
      memcpy (d[0], d[1], (gsize) n * es);
      return;
    }
  switch (es)
    {
    case 8:
      for (gint64 i = 0; i < n; i++)
        *(guint64 *) (d[0] + i * s[0]) = *(const guint64 *) (d[1] + i * s[1]);
      break;
    case 4:
      for (gint64 i = 0; i < n; i++)
        *(guint32 *) (d[0] + i * s[0]) = *(const guint32 *) (d[1] + i * s[1]);
      break;
    case 2:
      for (gint64 i = 0; i < n; i++)
        *(guint16 *) (d[0] + i * s[0]) = *(const guint16 *) (d[1] + i * s[1]);
      break;
    default:
      for (gint64 i = 0; i < n; i++)
        *(guint8 *) (d[0] + i * s[0]) = *(const guint8 *) (d[1] + i * s[1]);
    }
}

static gboolean
k_copy (const GnnKernelArgs *args, GError **error)
{
  GnnDtype from = args->in[0]->dtype, to = args->out->dtype;

  if (from == to)
    gnn_cpu_foreach (args, copy_same);
  else
    gnn_cpu_foreach (args, convert_loops[from][to]);
  return TRUE;
}

/* ---- fill, arange, random ----------------------------------------------------------- */

static const GnnCpuLoop fill_loops[GNN_N_DTYPES] = {
  fill_f32, fill_f64, fill_i64, fill_bool, fill_u8, fill_f16, fill_bf16, fill_i32, fill_i16, fill_i8,
};

static gboolean
k_fill (const GnnKernelArgs *args, GError **error)
{
  gnn_cpu_foreach (args, fill_loops[args->out->dtype]);
  return TRUE;
}

static void
write_double (GnnDtype dtype, char *p, double v)
{
  switch (dtype)
    {
    case GNN_DTYPE_FLOAT32: WR_f32 (p, v); break;
    case GNN_DTYPE_FLOAT64: WR_f64 (p, v); break;
    case GNN_DTYPE_INT64: WR_i64 (p, v); break;
    case GNN_DTYPE_BOOL: WR_bool (p, v); break;
    case GNN_DTYPE_UINT8: WR_u8 (p, v); break;
    case GNN_DTYPE_FLOAT16: WR_f16 (p, v); break;
    case GNN_DTYPE_BFLOAT16: WR_bf16 (p, v); break;
    case GNN_DTYPE_INT32: WR_i32 (p, v); break;
    case GNN_DTYPE_INT16: WR_i16 (p, v); break;
    case GNN_DTYPE_INT8: WR_i8 (p, v); break;
    }
}

static double
read_double (GnnDtype dtype, const char *p)
{
  switch (dtype)
    {
    case GNN_DTYPE_FLOAT32: return RD_f32 (p);
    case GNN_DTYPE_FLOAT64: return RD_f64 (p);
    case GNN_DTYPE_INT64: return RD_i64 (p);
    case GNN_DTYPE_BOOL: return RD_bool (p);
    case GNN_DTYPE_UINT8: return RD_u8 (p);
    case GNN_DTYPE_FLOAT16: return RD_f16 (p);
    case GNN_DTYPE_BFLOAT16: return RD_bf16 (p);
    case GNN_DTYPE_INT32: return RD_i32 (p);
    case GNN_DTYPE_INT16: return RD_i16 (p);
    case GNN_DTYPE_INT8: return RD_i8 (p);
    }
  return 0;
}

/* writes the largest value of @dtype below @bound */
static void
write_below (GnnDtype dtype, char *p, double bound)
{
  switch (dtype)
    {
    case GNN_DTYPE_FLOAT32:
      *(float *) p = nextafterf ((float) bound, -INFINITY);
      break;
    case GNN_DTYPE_FLOAT64:
      *(double *) p = nextafter (bound, -INFINITY);
      break;
    case GNN_DTYPE_FLOAT16:
    case GNN_DTYPE_BFLOAT16:
      {
        /* step the 16-bit pattern of the bound one unit toward -inf */
        write_double (dtype, p, bound);
        *(guint16 *) p = gnn_half_bits_step_down (*(guint16 *) p);
        if (read_double (dtype, p) >= bound)   /* the bound rounded down when stored */
          write_below (dtype, p, read_double (dtype, p));
      }
      break;
    default:
      write_double (dtype, p, bound - 1);
    }
}

static void
arange_range (gpointer data, gint64 b, gint64 e)
{
  const GnnKernelArgs *args = data;
  const GnnKernelTensor *o = args->out;
  gsize es = gnn_dtype_get_size (o->dtype);

  for (gint64 i = b; i < e; i++)
    write_double (o->dtype, (char *) o->data + i * o->strides[0] * (gint64) es, args->params.arange.start + (double) i * args->params.arange.step);
}

static gboolean
k_arange (const GnnKernelArgs *args, GError **error)
{
  if (args->out->ndim != 1)
    return gnn_cpu_unsupported (args, error);
  gnn_parallel_for (args->out->shape[0], GNN_CPU_GRAIN, arange_range, (gpointer) args);
  return TRUE;
}

static void
random_range (gpointer data, gint64 b, gint64 e)
{
  const GnnKernelArgs *args = data;
  const GnnKernelTensor *o = args->out;
  gsize es = gnn_dtype_get_size (o->dtype);
  const GnnKernelRandom *r = &args->params.random;

  for (gint64 i = b; i < e; i++)
    {
      guint32 w[4];
      char *p = (char *) o->data + i * (gint64) es;
      double u1, u2, v;

      gnn_philox4x32 (r->offset + (guint64) i, r->seed, w);
      /* 53-bit uniforms in [0, 1) */
      u1 = (double) (((guint64) w[0] << 21) ^ (w[1] >> 11)) * (1.0 / 9007199254740992.0);
      u2 = (double) (((guint64) w[2] << 21) ^ (w[3] >> 11)) * (1.0 / 9007199254740992.0);
      switch (args->op)
        {
        case GNN_BACKEND_OP_RAND_UNIFORM:
          v = r->low + u1 * (r->high - r->low);
          write_double (o->dtype, p, v);
          /* rounding to the storage dtype may reach the excluded upper bound */
          if (read_double (o->dtype, p) >= r->high && r->high > r->low)
            write_below (o->dtype, p, r->high);
          continue;
        case GNN_BACKEND_OP_RAND_NORMAL:
          v = r->mean + r->std * sqrt (-2.0 * log (1.0 - u1)) * cos (2.0 * G_PI * u2);
          break;
        default:
          {
            guint64 range = (guint64) r->int_high - (guint64) r->int_low;   /* up to 2^64 - 1 */
            guint64 x = ((guint64) w[0] << 32) | w[1];
            *(gint64 *) p = (gint64) ((guint64) r->int_low + x % range);
            continue;
          }
        }
      write_double (o->dtype, p, v);
    }
}

static gboolean
k_random (const GnnKernelArgs *args, GError **error)
{
  gint64 numel = gnn_shape_numel (args->out->ndim, args->out->shape);
  gint64 expect = 1;

  if (numel == 0)
    return TRUE;
  /* random kernels write contiguous outputs, element i from counter offset + i */
  for (guint d = args->out->ndim; d-- > 0;)
    {
      if (args->out->shape[d] != 1 && args->out->strides[d] != expect)
        return gnn_cpu_unsupported (args, error);
      expect *= args->out->shape[d];
    }
  gnn_parallel_for (numel, 4096, random_range, (gpointer) args);
  return TRUE;
}

/* ---- the arithmetic loops (binary ops, comparisons, where, pow with a scalar, lerp,
 * addcmul, addcdiv) ------------------------------------------------------------------ */

/* base ^ e in integers, wrapping on overflow; a negative e gives 1 / base^|e| truncated */
static inline gint64
ipow (gint64 base, gint64 e)
{
  gint64 r = 1;
  if (e < 0)
    return base == 1 ? 1 : (base == -1 ? ((e & 1) ? -1 : 1) : 0);
  while (e)
    {
      if (e & 1)
        r *= base;
      base *= base;
      e >>= 1;
    }
  return r;
}

/* a / b rounded toward zero, b != 0; INT64_MIN / -1 wraps, as in PyTorch */
static inline gint64
idiv (gint64 a, gint64 b)
{
  return b == -1 ? (gint64) (0 - (guint64) a) : a / b;
}

/* the loops of each compute dtype, add_f32 to addcmul_i64 (gnn-cpu-elementwise-tmpl.c) */
#define T float
#define NAME(x) x##_f32
#define INTEGER 0
#define M(fn) fn##f
#include "gnn-cpu-elementwise-tmpl.c"
#define T double
#define NAME(x) x##_f64
#define INTEGER 0
#define M(fn) fn
#include "gnn-cpu-elementwise-tmpl.c"
#define T gint64
#define NAME(x) x##_i64
#define INTEGER 1
#include "gnn-cpu-elementwise-tmpl.c"

/* hypot, for the floating dtypes only (as in PyTorch) */
#define T float
#define LOOP hypot_f32
#define N_IN 2
#define TO T
#define EXPR hypotf (a, b)
#include "gnn-cpu-elementwise-loop-tmpl.c"
#undef T
#define T double
#define LOOP hypot_f64
#define N_IN 2
#define TO T
#define EXPR hypot (a, b)
#include "gnn-cpu-elementwise-loop-tmpl.c"
#undef T

typedef struct {
  GnnBackendOp op;
  GnnCpuLoop f32, f64, i64;
} LoopSet;

static const LoopSet binary_sets[] = {
  { GNN_BACKEND_OP_ADD, add_f32, add_f64, add_i64 },
  { GNN_BACKEND_OP_SUB, sub_f32, sub_f64, sub_i64 },
  { GNN_BACKEND_OP_MUL, mul_f32, mul_f64, mul_i64 },
  { GNN_BACKEND_OP_DIV, div_f32, div_f64, div_i64 },
  { GNN_BACKEND_OP_POW, pow_f32, pow_f64, pow_i64 },
  { GNN_BACKEND_OP_MAXIMUM, maximum_f32, maximum_f64, maximum_i64 },
  { GNN_BACKEND_OP_MINIMUM, minimum_f32, minimum_f64, minimum_i64 },
  { GNN_BACKEND_OP_HYPOT, hypot_f32, hypot_f64, NULL },
  { GNN_BACKEND_OP_EQ, eq_f32, eq_f64, eq_i64 },
  { GNN_BACKEND_OP_NE, ne_f32, ne_f64, ne_i64 },
  { GNN_BACKEND_OP_LT, lt_f32, lt_f64, lt_i64 },
  { GNN_BACKEND_OP_LE, le_f32, le_f64, le_i64 },
  { GNN_BACKEND_OP_GT, gt_f32, gt_f64, gt_i64 },
  { GNN_BACKEND_OP_GE, ge_f32, ge_f64, ge_i64 },
};

static GnnCpuLoop
pick (const LoopSet *set, GnnDtype dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_FLOAT32: return set->f32;
    case GNN_DTYPE_FLOAT64: return set->f64;
    case GNN_DTYPE_INT64: return set->i64;
    default: return NULL;
    }
}

/* whether the int64 operand @t holds a 0, any strides (also the divisor check of gnn-cpu-math.c) */
gboolean
gnn_cpu_has_zero_i64 (const GnnKernelTensor *t)
{
  gint64 index[GNN_MAX_DIMS] = { 0 };
  gint64 n = gnn_shape_numel (t->ndim, t->shape);

  for (gint64 l = 0; l < n; l++)
    {
      gint64 offset = 0;

      for (guint d = 0; d < t->ndim; d++)
        offset += index[d] * t->strides[d];
      if (((const gint64 *) t->data)[offset] == 0)
        return TRUE;
      for (int d = (int) t->ndim - 1; d >= 0 && ++index[d] == t->shape[d]; d--)
        index[d] = 0;
    }
  return FALSE;
}

/* runs the loop of @args's op in @sets for @dtype over every element */
static gboolean
run_set (const GnnKernelArgs *args, const LoopSet *sets, gsize n_sets, GnnDtype dtype, GError **error)
{
  for (gsize i = 0; i < n_sets; i++)
    if (sets[i].op == args->op)
      {
        GnnCpuLoop loop = pick (&sets[i], dtype);
        if (loop == NULL)
          return gnn_cpu_unsupported (args, error);
        gnn_cpu_foreach (args, loop);
        return TRUE;
      }
  return gnn_cpu_unsupported (args, error);
}

static gboolean
k_binary (const GnnKernelArgs *args, GError **error)
{
  GnnDtype key = args->in[0]->dtype;

  if (args->n_in != 2 || args->in[1]->dtype != key)
    return gnn_cpu_unsupported (args, error);
  if (args->op == GNN_BACKEND_OP_DIV && key == GNN_DTYPE_INT64 && gnn_cpu_has_zero_i64 (args->in[1]))
    {
      /* PyTorch's ZeroDivisionError */
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "cpu div kernel: integer division by zero");
      return FALSE;
    }
  return run_set (args, binary_sets, G_N_ELEMENTS (binary_sets), key, error);
}

/* ---- where -------------------------------------------------------------------------- */

static const LoopSet where_set = { GNN_BACKEND_OP_WHERE, where_f32, where_f64, where_i64 };

static gboolean
k_where (const GnnKernelArgs *args, GError **error)
{
  return run_set (args, &where_set, 1, args->out->dtype, error);
}

/* ---- pow with a scalar exponent ----------------------------------------------------- */

static void
pow_scalar_i64 (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)
{
  for (gint64 i = 0; i < n; i++)
    *(gint64 *) (d[0] + i * s[0]) = ipow (*(const gint64 *) (d[1] + i * s[1]), (gint64) args->params.pow.exponent);
}

static const LoopSet pow_scalar_set = { GNN_BACKEND_OP_POW_SCALAR, pow_scalar_f32, pow_scalar_f64, pow_scalar_i64 };

static gboolean
k_pow_scalar (const GnnKernelArgs *args, GError **error)
{
  return run_set (args, &pow_scalar_set, 1, args->out->dtype, error);
}

/* ---- lerp, addcmul, addcdiv --------------------------------------------------------- */

static const LoopSet ternary_sets[] = {
  { GNN_BACKEND_OP_LERP, lerp_f32, lerp_f64, NULL },
  { GNN_BACKEND_OP_ADDCMUL, addcmul_f32, addcmul_f64, addcmul_i64 },
  { GNN_BACKEND_OP_ADDCDIV, addcdiv_f32, addcdiv_f64, NULL },
};

static gboolean
k_ternary (const GnnKernelArgs *args, GError **error)
{
  if (args->n_in != 3)
    return gnn_cpu_unsupported (args, error);
  return run_set (args, ternary_sets, G_N_ELEMENTS (ternary_sets), args->out->dtype, error);
}

void
gnn_cpu_register_elementwise (GnnCpuKernel *table)
{
  table[GNN_BACKEND_OP_COPY] = k_copy;
  table[GNN_BACKEND_OP_FILL] = k_fill;
  table[GNN_BACKEND_OP_ARANGE] = k_arange;
  table[GNN_BACKEND_OP_RAND_UNIFORM] = k_random;
  table[GNN_BACKEND_OP_RAND_NORMAL] = k_random;
  table[GNN_BACKEND_OP_RAND_INT] = k_random;
  for (guint i = 0; i < G_N_ELEMENTS (binary_sets); i++)
    table[binary_sets[i].op] = k_binary;
  table[GNN_BACKEND_OP_WHERE] = k_where;
  table[GNN_BACKEND_OP_POW_SCALAR] = k_pow_scalar;
  table[GNN_BACKEND_OP_LERP] = k_ternary;
  table[GNN_BACKEND_OP_ADDCMUL] = k_ternary;
  table[GNN_BACKEND_OP_ADDCDIV] = k_ternary;
}
