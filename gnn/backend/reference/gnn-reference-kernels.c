/* gnn-reference-kernels.c: every kernel of GnnBackendOp, in plain C
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The yardstick other backends are compared with, so clarity beats speed. Every kernel walks
 * its operands element by element through their shapes and strides (any layout, any number of
 * dimensions), reads each value as a double (floating dtypes) or a gint64 (int64), computes the
 * formula of the GnnBackendOp documentation in that type, and writes the result in the output's
 * dtype. Sums accumulate in double. No BLAS, no threads, no fast paths, no vector tricks.
 *
 * Operands are checked against the layout the op documents, so that an op handing a kernel a
 * wrong shape gets an error here rather than a silently different answer.
 */
#include <math.h>
#include <string.h>

#include "gnn-reference-private.h"
#include "backend/gnn-math-private.h"
#include "core/gnn-dtype-private.h"
#include "core/gnn-philox-private.h"
#include "backend/gnn-int-math-private.h"

/* ---- which op takes what ------------------------------------------------------------ */

/* The op table (gnn/backend/gnn-backend-ops.def) says which operands each op reads and which
 * dtypes it must serve; the reference reads and writes every element through a double or a
 * gint64, so its creation and data-movement kernels take any dtype. */
static const GnnBackendOpDeparture departures[] = {
  /* integers in [random.int_low, random.int_high) stored in any dtype */
  { GNN_BACKEND_OP_RAND_INT, GNN_DTYPES_ALL, 0 },
  /* the chosen element copied as it is */
  { GNN_BACKEND_OP_WHERE, GNN_DTYPES_ALL, 0 },
  /* products of integers, in gint64 */
  { GNN_BACKEND_OP_GEMM, GNN_DTYPES_INT64, 0 },
  { GNN_BACKEND_OP_INDEX_SELECT, GNN_DTYPES_ALL, 0 },
  { GNN_BACKEND_OP_GATHER, GNN_DTYPES_ALL, 0 },
  /* 0 and 1 in any dtype */
  { GNN_BACKEND_OP_ONE_HOT, GNN_DTYPES_ALL, 0 },
};

gboolean
gnn_reference_supports (GnnBackendOp op,
                        GnnDtype     dtype)
{
  return gnn_backend_op_supported_with (op, dtype, departures, G_N_ELEMENTS (departures));
}

/* the input operands @op reads */
static guint
n_inputs (GnnBackendOp op)
{
  return gnn_backend_op_get_info (op)->n_in;
}

static const char *
op_name (GnnBackendOp op)
{
  return gnn_backend_op_get_nick (op);
}

/* ---- reading and writing elements --------------------------------------------------- */

static gint64
numel (const GnnKernelTensor *t)
{
  gint64 n = 1;

  for (guint d = 0; d < t->ndim; d++)
    n *= t->shape[d];
  return n;
}

/* The offset, in elements, of the element whose row-major index over @t's shape is @linear.
 * Every kernel addresses its operands this way, so any strides (zero, negative, transposed)
 * work; for a contiguous tensor the offset is @linear itself. */
static gint64
offset_of (const GnnKernelTensor *t,
           gint64                 linear)
{
  gint64 offset = 0;

  for (guint d = t->ndim; d-- > 0;)
    {
      offset += (linear % t->shape[d]) * t->strides[d];
      linear /= t->shape[d];
    }
  return offset;
}

static gpointer
element (const GnnKernelTensor *t,
         gint64                 offset)
{
  return (char *) t->data + offset * (gint64) gnn_dtype_get_size (t->dtype);
}

static gboolean
is_integer (GnnDtype dtype)
{
  return !gnn_dtype_is_floating (dtype);
}

static double
read_double (const GnnKernelTensor *t,
             gint64                 offset)
{
  gconstpointer p = element (t, offset);

  switch (t->dtype)
    {
    case GNN_DTYPE_FLOAT32:  return *(const float *) p;
    case GNN_DTYPE_FLOAT64:  return *(const double *) p;
    case GNN_DTYPE_INT64:    return (double) *(const gint64 *) p;
    case GNN_DTYPE_BOOL:     return *(const guint8 *) p != 0;
    case GNN_DTYPE_UINT8:    return *(const guint8 *) p;
    case GNN_DTYPE_FLOAT16:  return gnn_half_to_float (*(const guint16 *) p);
    case GNN_DTYPE_BFLOAT16: return gnn_bf16_to_float (*(const guint16 *) p);
    case GNN_DTYPE_INT32:    return *(const gint32 *) p;
    case GNN_DTYPE_INT16:    return *(const gint16 *) p;
    case GNN_DTYPE_INT8:     return *(const gint8 *) p;
    }
  g_assert_not_reached ();
  return 0;
}

static gint64
read_int (const GnnKernelTensor *t,
          gint64                 offset)
{
  gconstpointer p = element (t, offset);

  switch (t->dtype)
    {
    case GNN_DTYPE_INT64: return *(const gint64 *) p;
    case GNN_DTYPE_BOOL:  return *(const guint8 *) p != 0;
    case GNN_DTYPE_UINT8: return *(const guint8 *) p;
    case GNN_DTYPE_INT32: return *(const gint32 *) p;
    case GNN_DTYPE_INT16: return *(const gint16 *) p;
    case GNN_DTYPE_INT8:  return *(const gint8 *) p;
    default:              return (gint64) read_double (t, offset);
    }
}

static void
write_double (const GnnKernelTensor *t,
              gint64                 offset,
              double                 v)
{
  gnn_dtype_store_double (t->dtype, element (t, offset), v);
}

static void
write_int (const GnnKernelTensor *t,
           gint64                 offset,
           gint64                 v)
{
  gpointer p = element (t, offset);

  switch (t->dtype)
    {
    case GNN_DTYPE_INT64: *(gint64 *) p = v; break;
    case GNN_DTYPE_BOOL:  *(guint8 *) p = v != 0; break;
    case GNN_DTYPE_UINT8: *(guint8 *) p = (guint8) v; break;
    case GNN_DTYPE_INT32: *(gint32 *) p = (gint32) v; break;
    case GNN_DTYPE_INT16: *(gint16 *) p = (gint16) v; break;
    case GNN_DTYPE_INT8:  *(gint8 *) p = (gint8) v; break;
    case GNN_DTYPE_FLOAT32:  *(float *) p = (float) v; break;
    case GNN_DTYPE_FLOAT64:  *(double *) p = (double) v; break;
    default:              write_double (t, offset, (double) v); break;
    }
}

/* dst[doff] = src[soff], converted when the dtypes differ: integers as integers (exact),
 * everything else through double. */
static void
copy_element (const GnnKernelTensor *dst,
              gint64                 doff,
              const GnnKernelTensor *src,
              gint64                 soff)
{
  if (dst->dtype == src->dtype)
    memcpy (element (dst, doff), element (src, soff), gnn_dtype_get_size (dst->dtype));
  else if (is_integer (src->dtype))
    write_int (dst, doff, read_int (src, soff));
  else
    write_double (dst, doff, read_double (src, soff));
}

/* whether an element counts as true: non-zero (NaN is true, as in C and PyTorch) */
static gboolean
read_truth (const GnnKernelTensor *t,
            gint64                 offset)
{
  return is_integer (t->dtype) ? read_int (t, offset) != 0 : read_double (t, offset) != 0;
}

/* ---- operand checks ----------------------------------------------------------------- */

static char *
shape_string (const GnnKernelTensor *t)
{
  GString *s = g_string_new ("[");

  for (guint d = 0; d < t->ndim; d++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, d ? ", " : "", t->shape[d]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

static gboolean
layout_error (const GnnKernelArgs *args,
              GError             **error,
              const char          *fmt,
              ...) G_GNUC_PRINTF (3, 4);

static gboolean
layout_error (const GnnKernelArgs *args,
              GError             **error,
              const char          *fmt,
              ...)
{
  g_autofree char *what = NULL;
  va_list ap;

  va_start (ap, fmt);
  what = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "reference %s kernel: %s",
               op_name (args->op), what);
  return FALSE;
}

/* Every elementwise input has out's shape (broadcasting is a zero stride). */
static gboolean
check_same_shape (const GnnKernelArgs *args,
                  guint                n_in,
                  GError             **error)
{
  const GnnKernelTensor *out = args->out;

  for (guint k = 0; k < n_in; k++)
    {
      const GnnKernelTensor *in = args->in[k];

      if (in->ndim != out->ndim || memcmp (in->shape, out->shape, sizeof (gint64) * out->ndim) != 0)
        {
          g_autofree char *is = shape_string (in);
          g_autofree char *os = shape_string (out);
          return layout_error (args, error, "in%u has shape %s but out has shape %s "
                               "(operands of an elementwise kernel share one shape)", k, is, os);
        }
    }
  return TRUE;
}

/* An operand of a layout kernel ([outer, r, inner] and the like) holds @expected elements. */
static gboolean
check_numel (const GnnKernelArgs   *args,
             const GnnKernelTensor *t,
             const char            *name,
             gint64                 expected,
             GError               **error)
{
  if (numel (t) != expected)
    {
      g_autofree char *s = shape_string (t);
      return layout_error (args, error, "%s has shape %s, %" G_GINT64_FORMAT " elements, but the "
                           "layout in the parameters needs %" G_GINT64_FORMAT, name, s, numel (t), expected);
    }
  return TRUE;
}

static gboolean
check_index_dtype (const GnnKernelArgs   *args,
                   const GnnKernelTensor *t,
                   const char            *name,
                   GError               **error)
{
  if (!is_integer (t->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "reference %s kernel: %s must hold integer "
                   "indices, got %s", op_name (args->op), name, gnn_dtype_get_name (t->dtype));
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_index (const GnnKernelArgs *args,
             gint64               index,
             gint64               size,
             GError             **error)
{
  if (index < 0 || index >= size)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "reference %s kernel: index %" G_GINT64_FORMAT
                   " is out of bounds for dimension with size %" G_GINT64_FORMAT,
                   op_name (args->op), index, size);
      return FALSE;
    }
  return TRUE;
}

/* ---- copy, fill, arange ------------------------------------------------------------- */

/* out = in0, converted to out's dtype */
static gboolean
k_copy (const GnnKernelArgs *args,
        GError             **error)
{
  gint64 n = numel (args->out);

  if (!check_same_shape (args, 1, error))
    return FALSE;
  for (gint64 l = 0; l < n; l++)
    copy_element (args->out, offset_of (args->out, l), args->in[0], offset_of (args->in[0], l));
  return TRUE;
}

/* out = fill.value */
static gboolean
k_fill (const GnnKernelArgs *args,
        GError             **error)
{
  gint64 n = numel (args->out);

  for (gint64 l = 0; l < n; l++)
    write_double (args->out, offset_of (args->out, l), args->params.fill.value);
  return TRUE;
}

/* out[i] = start + i * step, i the row-major index */
static gboolean
k_arange (const GnnKernelArgs *args,
          GError             **error)
{
  gint64 n = numel (args->out);

  for (gint64 l = 0; l < n; l++)
    write_double (args->out, offset_of (args->out, l),
                  args->params.arange.start + (double) l * args->params.arange.step);
  return TRUE;
}

/* ---- random numbers ----------------------------------------------------------------- */

/* The largest value of a floating dtype below @v when stored in that dtype. */
static void
write_largest_below (const GnnKernelTensor *t,
                     gint64                 offset,
                     double                 v)
{
  gpointer p = element (t, offset);
  guint16 bits;

  switch (t->dtype)
    {
    case GNN_DTYPE_FLOAT32:
      *(float *) p = nextafterf ((float) v, -INFINITY);
      return;
    case GNN_DTYPE_FLOAT64:
      *(double *) p = nextafter (v, -INFINITY);
      return;
    case GNN_DTYPE_FLOAT16:
    case GNN_DTYPE_BFLOAT16:
      bits = t->dtype == GNN_DTYPE_FLOAT16 ? gnn_float_to_half ((float) v) : gnn_float_to_bf16 ((float) v);
      *(guint16 *) p = gnn_half_bits_step_down (bits);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* Element i (row-major) uses the Philox block of counter offset + i under key seed. Its four
 * words make two 53-bit uniforms in [0, 1): u1 = (w0 · 2^21 ^ w1 / 2^11) / 2^53, u2 likewise
 * from w2, w3.
 *   RAND_UNIFORM: low + u1 (high - low), kept below high once stored in out's dtype
 *   RAND_NORMAL:  mean + std · sqrt (-2 log (1 - u1)) · cos (2π u2)      (Box-Muller)
 *   RAND_INT:     int_low + (w0 · 2^32 + w1) mod (int_high - int_low) */
static gboolean
k_random (const GnnKernelArgs *args,
          GError             **error)
{
  const GnnKernelTensor *out = args->out;
  const GnnKernelRandom *r = &args->params.random;
  double lo = r->low, hi = r->high;
  double hi_stored = hi;
  gint64 n = numel (out);
  guint64 scratch = 0;
  GnnKernelTensor bound = { &scratch, out->dtype, 0 };

  if (args->op == GNN_BACKEND_OP_RAND_INT && r->int_high <= r->int_low)
    return layout_error (args, error, "the range [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") is empty",
                         r->int_low, r->int_high);
  if (args->op == GNN_BACKEND_OP_RAND_UNIFORM)
    {
      /* high as out's dtype stores it: the bound the stored values stay below */
      write_double (&bound, 0, hi);
      hi_stored = read_double (&bound, 0);
    }

  for (gint64 l = 0; l < n; l++)
    {
      gint64 o = offset_of (out, l);
      guint32 w[4];
      double u1, u2;

      gnn_philox4x32 (r->offset + (guint64) l, r->seed, w);
      u1 = (double) (((guint64) w[0] << 21) ^ (w[1] >> 11)) / 9007199254740992.0;
      u2 = (double) (((guint64) w[2] << 21) ^ (w[3] >> 11)) / 9007199254740992.0;

      switch (args->op)
        {
        case GNN_BACKEND_OP_RAND_UNIFORM:
          write_double (out, o, lo + u1 * (hi - lo));
          if (hi > lo && read_double (out, o) >= hi_stored)
            write_largest_below (out, o, hi);
          break;
        case GNN_BACKEND_OP_RAND_NORMAL:
          write_double (out, o, r->mean + r->std * sqrt (-2.0 * log (1.0 - u1)) * cos (2.0 * G_PI * u2));
          break;
        case GNN_BACKEND_OP_RAND_INT:
          {
            guint64 range = (guint64) r->int_high - (guint64) r->int_low;
            guint64 x = ((guint64) w[0] << 32) | w[1];
            write_int (out, o, (gint64) ((guint64) r->int_low + x % range));
          }
          break;
        default:
          g_assert_not_reached ();
        }
    }
  return TRUE;
}

/* ---- elementwise arithmetic --------------------------------------------------------- */

static double
sigmoid (double x)
{
  return 1.0 / (1.0 + exp (-x));
}

/* the constant of GELU's tanh approximation, sqrt (2 / π) */
#define GELU_K 0.7978845608028654
#define GELU_C 0.044715

static double
gelu (double x, gint64 approximate)
{
  if (approximate == 0)
    return 0.5 * x * (1.0 + erf (x * G_SQRT2 / 2.0));
  return 0.5 * x * (1.0 + tanh (GELU_K * (x + GELU_C * x * x * x)));
}

/* d gelu / dx */
static double
gelu_grad (double x, gint64 approximate)
{
  if (approximate == 0)
    {
      double cdf = 0.5 * (1.0 + erf (x * G_SQRT2 / 2.0));
      double pdf = exp (-0.5 * x * x) / sqrt (2.0 * G_PI);
      return cdf + x * pdf;
    }
  else
    {
      double t = tanh (GELU_K * (x + GELU_C * x * x * x));
      return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * GELU_K * (1.0 + 3.0 * GELU_C * x * x);
    }
}

/* d silu / dx = σ (x) (1 + x (1 - σ (x))) */
static double
silu_grad (double x)
{
  double s = sigmoid (x);
  return s * (1.0 + x * (1.0 - s));
}

/* clamp (x, min, max), each bound only when it is set. As in PyTorch, a NaN input or a NaN
 * bound gives NaN, and min > max gives max. */
static double
clamp_double (double x, const GnnKernelArgs *args)
{
  const gboolean has_min = args->params.clamp.has_min, has_max = args->params.clamp.has_max;
  const double min = args->params.clamp.min, max = args->params.clamp.max;

  if (isnan (x))
    return x;
  if ((has_min && isnan (min)) || (has_max && isnan (max)))
    return NAN;
  if (has_min && x < min)
    x = min;
  if (has_max && x > max)
    x = max;
  return x;
}

/* One output element of an elementwise kernel on floating-point values, in double: the
 * formulas of the op table's GNN_BACKEND_OP_FLOAT rows, and those that need more than one
 * expression. a, b, c are in0, in1, in2. */
static double
float_elementwise (const GnnKernelArgs *args,
                   double               a,
                   double               b,
                   double               c)
{
  const GnnKernelParams *p = &args->params;

  switch (args->op)
    {
#define GNN_BACKEND_OP_FLOAT(name, formula) \
    case GNN_BACKEND_OP_##name: return (formula);
#include "backend/gnn-backend-ops.def"
#undef GNN_BACKEND_OP_FLOAT
    case GNN_BACKEND_OP_CLAMP:                return clamp_double (a, args);
    case GNN_BACKEND_OP_GELU:                 return gelu (a, p->gelu.approximate);
    case GNN_BACKEND_OP_GELU_BACKWARD:        return a * gelu_grad (b, p->gelu.approximate);
    case GNN_BACKEND_OP_SILU_BACKWARD:        return a * silu_grad (b);
    case GNN_BACKEND_OP_NEXTAFTER:
      /* the next value of the compute dtype, float32's when that is the output's */
      return args->out->dtype == GNN_DTYPE_FLOAT32 ? (double) nextafterf ((float) a, (float) b) : nextafter (a, b);
    default:
      g_assert_not_reached ();
      return NAN;
    }
}

/* base ^ exponent in integers, wrapping on overflow; a negative exponent gives 1 / base^|e|
 * truncated: 1 for base 1, ±1 for base -1, 0 otherwise */
static gint64
int_pow (gint64 base,
         gint64 exponent)
{
  guint64 result = 1, b = (guint64) base;

  if (exponent < 0)
    {
      if (base == 1)
        return 1;
      if (base == -1)
        return (exponent % 2 == 0) ? 1 : -1;
      return 0;
    }
  /* square and multiply, in unsigned arithmetic so that overflow wraps */
  while (exponent > 0)
    {
      if (exponent & 1)
        result *= b;
      b *= b;
      exponent >>= 1;
    }
  return (gint64) result;
}

/* One output element of an elementwise kernel on int64 values. The scalar parameters are
 * taken as integers (ceil of a lower clamp bound, floor of an upper one); DIV truncates toward zero
 * (`torch.div (rounding_mode='trunc')`) and fails on a zero divisor. */
static gboolean
int_elementwise (const GnnKernelArgs *args,
                 gint64               a,
                 gint64               b,
                 gint64               c,
                 gint64              *result,
                 GError             **error)
{
  const GnnKernelParams *p = &args->params;

  switch (args->op)
    {
    case GNN_BACKEND_OP_ADD:        *result = a + (gint64) p->add.alpha * b; break;
    case GNN_BACKEND_OP_SUB:        *result = a - (gint64) p->add.alpha * b; break;
    case GNN_BACKEND_OP_MUL:        *result = a * b; break;
    case GNN_BACKEND_OP_DIV:
      if (b == 0)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "reference div kernel: integer division by zero");
          return FALSE;
        }
      *result = (b == -1) ? (gint64) (0 - (guint64) a) : a / b;
      break;
    case GNN_BACKEND_OP_FMOD:
    case GNN_BACKEND_OP_REMAINDER:
    case GNN_BACKEND_OP_FLOOR_DIVIDE:
      if (b == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "reference %s kernel: ZeroDivisionError (an integer division by zero)", op_name (args->op));
          return FALSE;
        }
      {
        /* C's % truncates (fmod); moved by b where the signs differ for Python's % and the floor */
        gint64 r = b == -1 ? 0 : a % b, q = b == -1 ? (gint64) (0 - (guint64) a) : a / b;
        gboolean moved = r != 0 && ((r < 0) != (b < 0));
        *result = args->op == GNN_BACKEND_OP_FMOD ? r
                  : args->op == GNN_BACKEND_OP_REMAINDER ? (moved ? r + b : r) : (moved ? q - 1 : q);
      }
      break;
    case GNN_BACKEND_OP_POW:        *result = int_pow (a, b); break;
    case GNN_BACKEND_OP_MAXIMUM:    *result = a > b ? a : b; break;
    case GNN_BACKEND_OP_MINIMUM:    *result = a < b ? a : b; break;
    case GNN_BACKEND_OP_EQ:         *result = a == b; break;
    case GNN_BACKEND_OP_NE:         *result = a != b; break;
    case GNN_BACKEND_OP_LT:         *result = a < b; break;
    case GNN_BACKEND_OP_LE:         *result = a <= b; break;
    case GNN_BACKEND_OP_GT:         *result = a > b; break;
    case GNN_BACKEND_OP_GE:         *result = a >= b; break;
    case GNN_BACKEND_OP_NEG:        *result = -a; break;
    case GNN_BACKEND_OP_ABS:        *result = a < 0 ? -a : a; break;
    case GNN_BACKEND_OP_SIGN:       *result = (a > 0) - (a < 0); break;
    case GNN_BACKEND_OP_CLAMP:
      if (p->clamp.has_min && (double) a < p->clamp.min)
        a = (gint64) ceil (p->clamp.min);
      if (p->clamp.has_max && (double) a > p->clamp.max)
        a = (gint64) floor (p->clamp.max);
      *result = a;
      break;
    case GNN_BACKEND_OP_POW_SCALAR: *result = int_pow (a, (gint64) p->pow.exponent); break;
    case GNN_BACKEND_OP_RELU:       *result = a > 0 ? a : 0; break;
    case GNN_BACKEND_OP_ADDCMUL:    *result = a + (gint64) p->addc.value * b * c; break;
    case GNN_BACKEND_OP_BITWISE_AND:         *result = a & b; break;
    case GNN_BACKEND_OP_BITWISE_OR:          *result = a | b; break;
    case GNN_BACKEND_OP_BITWISE_XOR:         *result = a ^ b; break;
    case GNN_BACKEND_OP_BITWISE_NOT:         *result = ~a; break;
    case GNN_BACKEND_OP_BITWISE_LEFT_SHIFT:  *result = gnn_int_left_shift (a, b); break;
    case GNN_BACKEND_OP_BITWISE_RIGHT_SHIFT: *result = gnn_int_right_shift (a, b); break;
    case GNN_BACKEND_OP_GCD:                 *result = gnn_int_gcd (a, b); break;
    case GNN_BACKEND_OP_LCM:                 *result = gnn_int_lcm (a, b); break;
    case GNN_BACKEND_OP_FMAX:                *result = a > b ? a : b; break;
    case GNN_BACKEND_OP_FMIN:                *result = a < b ? a : b; break;
    case GNN_BACKEND_OP_HEAVISIDE:           *result = a == 0 ? b : a > 0; break;
    default:
      g_assert_not_reached ();
    }
  return TRUE;
}

/* out[i] = f (in0[i], in1[i], in2[i]) over every element of out's shape */
static gboolean
k_elementwise (const GnnKernelArgs *args,
               GError             **error)
{
  const GnnKernelTensor *out = args->out;
  guint n_in = n_inputs (args->op);
  gboolean integer = args->in[0]->dtype == GNN_DTYPE_INT64;
  gint64 n = numel (out);

  if (!check_same_shape (args, n_in, error))
    return FALSE;
  if ((args->op == GNN_BACKEND_OP_GELU || args->op == GNN_BACKEND_OP_GELU_BACKWARD) &&
      args->params.gelu.approximate != 0 && args->params.gelu.approximate != 1)
    return layout_error (args, error, "gelu.approximate must be 0 (erf) or 1 (tanh), got %d",
                         args->params.gelu.approximate);
  for (gint64 l = 0; l < n; l++)
    {
      gint64 o = offset_of (out, l);

      if (integer)
        {
          gint64 v[3] = { 0, 0, 0 }, r;

          for (guint k = 0; k < n_in; k++)
            v[k] = read_int (args->in[k], offset_of (args->in[k], l));
          if (!int_elementwise (args, v[0], v[1], v[2], &r, error))
            return FALSE;
          write_int (out, o, r);
        }
      else
        {
          double v[3] = { 0, 0, 0 };

          for (guint k = 0; k < n_in; k++)
            v[k] = read_double (args->in[k], offset_of (args->in[k], l));
          write_double (out, o, float_elementwise (args, v[0], v[1], v[2]));
        }
    }
  return TRUE;
}

/* out = in0 ? in1 : in2, the chosen element copied as it is */
static gboolean
k_where (const GnnKernelArgs *args,
         GError             **error)
{
  const GnnKernelTensor *out = args->out;
  gint64 n = numel (out);

  if (!check_same_shape (args, 3, error))
    return FALSE;
  for (gint64 l = 0; l < n; l++)
    {
      const GnnKernelTensor *pick = read_truth (args->in[0], offset_of (args->in[0], l)) ? args->in[1]
                                                                                       : args->in[2];
      copy_element (out, offset_of (out, l), pick, offset_of (pick, l));
    }
  return TRUE;
}

/* ---- matrix product ----------------------------------------------------------------- */

/* out[b] (m, n) = alpha · in0[b] (m, k) · in1[b] (k, n) + beta · out[b]; with beta = 0 the old out is
 * not read (it may be uninitialised), as in BLAS */
static gboolean
k_gemm (const GnnKernelArgs *args,
        GError             **error)
{
  const GnnKernelTensor *a = args->in[0], *b = args->in[1], *c = args->out;
  gboolean integer = c->dtype == GNN_DTYPE_INT64;
  gint64 batch, m, n, k;

  if (a->ndim != 3 || b->ndim != 3 || c->ndim != 3)
    return layout_error (args, error, "expected 3-d operands (batch, rows, columns), got %u-d, %u-d "
                         "and out %u-d", a->ndim, b->ndim, c->ndim);
  batch = c->shape[0];
  m = c->shape[1];
  n = c->shape[2];
  k = a->shape[2];
  if (a->shape[0] != batch || a->shape[1] != m || b->shape[0] != batch || b->shape[1] != k ||
      b->shape[2] != n)
    {
      g_autofree char *as = shape_string (a);
      g_autofree char *bs = shape_string (b);
      g_autofree char *cs = shape_string (c);
      return layout_error (args, error, "shapes %s · %s do not give out %s", as, bs, cs);
    }

  for (gint64 bt = 0; bt < batch; bt++)
    for (gint64 i = 0; i < m; i++)
      for (gint64 j = 0; j < n; j++)
        {
          gint64 co = bt * c->strides[0] + i * c->strides[1] + j * c->strides[2];

          if (integer)
            {
              gint64 acc = 0, r;

              for (gint64 p = 0; p < k; p++)
                acc += read_int (a, bt * a->strides[0] + i * a->strides[1] + p * a->strides[2]) *
                       read_int (b, bt * b->strides[0] + p * b->strides[1] + j * b->strides[2]);
              r = (gint64) args->params.gemm.alpha * acc;
              if (args->params.gemm.beta != 0)
                r += (gint64) args->params.gemm.beta * read_int (c, co);
              write_int (c, co, r);
            }
          else
            {
              double acc = 0, r;

              for (gint64 p = 0; p < k; p++)
                acc += read_double (a, bt * a->strides[0] + i * a->strides[1] + p * a->strides[2]) *
                       read_double (b, bt * b->strides[0] + p * b->strides[1] + j * b->strides[2]);
              r = args->params.gemm.alpha * acc;
              if (args->params.gemm.beta != 0)
                r += args->params.gemm.beta * read_double (c, co);
              write_double (c, co, r);
            }
        }
  return TRUE;
}

/* ---- reductions and softmax over [outer, r, inner] ---------------------------------- */

/* The element (o, k, i) of an operand laid out as [outer, r, inner], in row-major order. */
#define AT3(t, o, k, i, r, inner) offset_of ((t), ((o) * (r) + (k)) * (inner) + (i))

static gboolean
check_reduce_layout (const GnnKernelArgs *args,
                     gboolean             out_like_in,
                     GError             **error)
{
  gint64 outer = args->params.reduce.outer, r = args->params.reduce.reduced, inner = args->params.reduce.inner;

  if (outer < 0 || r < 0 || inner < 0)
    return layout_error (args, error, "negative sizes in the layout");
  if (!check_numel (args, args->in[0], "in0", outer * r * inner, error) ||
      !check_numel (args, args->out, "out", out_like_in ? outer * r * inner : outer * inner, error))
    return FALSE;
  if (n_inputs (args->op) == 2 && !check_numel (args, args->in[1], "in1", outer * r * inner, error))
    return FALSE;
  if (args->out2 && !check_numel (args, args->out2, "out2", out_like_in ? outer * r * inner : outer * inner, error))
    return FALSE;
  return TRUE;
}

/* out[o, i] = Σ_r in0[o, r, i], in double (floats) or gint64 (int64) */
static gboolean
k_sum (const GnnKernelArgs *args,
       GError             **error)
{
  const GnnKernelTensor *in = args->in[0], *out = args->out;
  gint64 outer = args->params.reduce.outer, r = args->params.reduce.reduced, inner = args->params.reduce.inner;

  if (!check_reduce_layout (args, FALSE, error))
    return FALSE;
  for (gint64 o = 0; o < outer; o++)
    for (gint64 i = 0; i < inner; i++)
      {
        gint64 dst = offset_of (out, o * inner + i);

        if (in->dtype == GNN_DTYPE_INT64)
          {
            gint64 acc = 0;
            for (gint64 k = 0; k < r; k++)
              acc += read_int (in, AT3 (in, o, k, i, r, inner));
            write_int (out, dst, acc);
          }
        else
          {
            double acc = 0;
            for (gint64 k = 0; k < r; k++)
              acc += read_double (in, AT3 (in, o, k, i, r, inner));
            write_double (out, dst, acc);
          }
      }
  return TRUE;
}

/* out[o, i] = max_r (or min_r) in0[o, r, i]; out2, when given, the first r where it is. NaN
 * counts as larger (for max) or smaller (for min) than any number, so the first NaN wins, as in
 * PyTorch. */
static gboolean
k_max_min (const GnnKernelArgs *args,
           GError             **error)
{
  const GnnKernelTensor *in = args->in[0], *out = args->out;
  gint64 outer = args->params.reduce.outer, r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  gboolean want_max = args->op == GNN_BACKEND_OP_MAX;

  if (!check_reduce_layout (args, FALSE, error))
    return FALSE;
  if (args->out2 && args->out2->dtype != GNN_DTYPE_INT64)
    return layout_error (args, error, "out2 must be int64, got %s", gnn_dtype_get_name (args->out2->dtype));
  if (r == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "reference %s kernel: cannot reduce over a "
                   "dimension of size zero", op_name (args->op));
      return FALSE;
    }

  for (gint64 o = 0; o < outer; o++)
    for (gint64 i = 0; i < inner; i++)
      {
        gint64 dst = offset_of (out, o * inner + i);
        gint64 best_k = 0;

        if (in->dtype == GNN_DTYPE_INT64)
          {
            gint64 best = read_int (in, AT3 (in, o, 0, i, r, inner));
            for (gint64 k = 1; k < r; k++)
              {
                gint64 x = read_int (in, AT3 (in, o, k, i, r, inner));
                if (want_max ? x > best : x < best)
                  {
                    best = x;
                    best_k = k;
                  }
              }
            write_int (out, dst, best);
          }
        else
          {
            double best = read_double (in, AT3 (in, o, 0, i, r, inner));
            for (gint64 k = 1; k < r && !isnan (best); k++)
              {
                double x = read_double (in, AT3 (in, o, k, i, r, inner));
                if (isnan (x) || (want_max ? x > best : x < best))
                  {
                    best = x;
                    best_k = k;
                  }
              }
            write_double (out, dst, best);
          }
        if (args->out2)
          write_int (args->out2, offset_of (args->out2, o * inner + i), best_k);
      }
  return TRUE;
}

/* out[o, i] = Σ_r (x - mean)² / max (r - correction, 0): two passes in double */
static gboolean
k_var (const GnnKernelArgs *args,
       GError             **error)
{
  const GnnKernelTensor *in = args->in[0], *out = args->out;
  gint64 outer = args->params.reduce.outer, r = args->params.reduce.reduced, inner = args->params.reduce.inner;

  if (!check_reduce_layout (args, FALSE, error))
    return FALSE;
  for (gint64 o = 0; o < outer; o++)
    for (gint64 i = 0; i < inner; i++)
      {
        double sum = 0, squares = 0, mean;

        for (gint64 k = 0; k < r; k++)
          sum += read_double (in, AT3 (in, o, k, i, r, inner));
        mean = sum / (double) r;
        for (gint64 k = 0; k < r; k++)
          {
            double d = read_double (in, AT3 (in, o, k, i, r, inner)) - mean;
            squares += d * d;
          }
        write_double (out, offset_of (out, o * inner + i), squares / MAX ((double) r - args->params.reduce.correction, 0.0));
      }
  return TRUE;
}

/* ---- batch normalisation: (N, C, S) operands, params.norm ------------------------------- */

static gboolean
check_norm_layout (const GnnKernelArgs *args,
                   gint64               out_numel,
                   gint64               coef_numel,
                   GError             **error)
{
  gint64 n = args->params.norm.batch, c = args->params.norm.channels, s = args->params.norm.spatial;

  if (n < 0 || c < 0 || s < 0)
    return layout_error (args, error, "negative sizes in the layout");
  if (!check_numel (args, args->in[0], "in0", n * c * s, error) ||
      !check_numel (args, args->out, "out", out_numel, error))
    return FALSE;
  if (coef_numel >= 0 && !check_numel (args, args->in[1], "in1", coef_numel, error))
    return FALSE;
  return TRUE;
}

/* out[0, c] = mean, out[1, c] = biased variance of channel c: two passes in double */
static gboolean
k_batch_norm_stats (const GnnKernelArgs *args,
                    GError             **error)
{
  const GnnKernelTensor *in = args->in[0], *out = args->out;
  gint64 n = args->params.norm.batch, c = args->params.norm.channels, s = args->params.norm.spatial;

  if (!check_norm_layout (args, 2 * c, -1, error))
    return FALSE;
  for (gint64 ch = 0; ch < c; ch++)
    {
      double sum = 0, squares = 0, mean;

      for (gint64 b = 0; b < n; b++)
        for (gint64 k = 0; k < s; k++)
          sum += read_double (in, AT3 (in, b, ch, k, c, s));
      mean = sum / (double) (n * s);
      for (gint64 b = 0; b < n; b++)
        for (gint64 k = 0; k < s; k++)
          {
            double d = read_double (in, AT3 (in, b, ch, k, c, s)) - mean;
            squares += d * d;
          }
      write_double (out, offset_of (out, ch), mean);
      write_double (out, offset_of (out, c + ch), squares / (double) (n * s));
    }
  return TRUE;
}

/* out = in0 · k[0, c] + k[1, c] (+ (in2 - k[2, c]) · k[3, c]) */
static gboolean
k_channel_affine (const GnnKernelArgs *args,
                  GError             **error)
{
  const GnnKernelTensor *x = args->in[0], *k = args->in[1], *x2 = args->in[2], *out = args->out;
  gint64 n = args->params.norm.batch, c = args->params.norm.channels, s = args->params.norm.spatial;

  if (!check_norm_layout (args, n * c * s, (x2 ? 4 : 2) * c, error) ||
      (x2 && !check_numel (args, x2, "in2", n * c * s, error)))
    return FALSE;
  for (gint64 b = 0; b < n; b++)
    for (gint64 ch = 0; ch < c; ch++)
      for (gint64 i = 0; i < s; i++)
        {
          gint64 at = (b * c + ch) * s + i;
          double v = read_double (x, offset_of (x, at)) * read_double (k, offset_of (k, ch)) +
                     read_double (k, offset_of (k, c + ch));

          if (x2)
            v += (read_double (x2, offset_of (x2, at)) - read_double (k, offset_of (k, 2 * c + ch))) *
                 read_double (k, offset_of (k, 3 * c + ch));
          write_double (out, offset_of (out, at), v);
        }
  return TRUE;
}

/* out[0, c] = Σ g, out[1, c] = Σ g · (x - mean[c]) over channel c */
static gboolean
k_batch_norm_backward_reduce (const GnnKernelArgs *args,
                              GError             **error)
{
  const GnnKernelTensor *g = args->in[0], *x = args->in[1], *mean = args->in[2], *out = args->out;
  gint64 n = args->params.norm.batch, c = args->params.norm.channels, s = args->params.norm.spatial;

  if (!check_norm_layout (args, 2 * c, n * c * s, error) ||
      !check_numel (args, mean, "in2", c, error))
    return FALSE;
  for (gint64 ch = 0; ch < c; ch++)
    {
      double sg = 0, sgx = 0, m = read_double (mean, offset_of (mean, ch));

      for (gint64 b = 0; b < n; b++)
        for (gint64 i = 0; i < s; i++)
          {
            double gv = read_double (g, AT3 (g, b, ch, i, c, s));
            sg += gv;
            sgx += gv * (read_double (x, AT3 (x, b, ch, i, c, s)) - m);
          }
      write_double (out, offset_of (out, ch), sg);
      write_double (out, offset_of (out, c + ch), sgx);
    }
  return TRUE;
}

/* softmax:     out = exp (x - m) / Σ_r exp (x - m), m the largest x
 * log-softmax: out = x - m - log Σ_r exp (x - m)
 * both over r of [outer, r, inner], out laid out as in0 */
static gboolean
k_softmax (const GnnKernelArgs *args,
           GError             **error)
{
  const GnnKernelTensor *in = args->in[0], *out = args->out;
  gint64 outer = args->params.reduce.outer, r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  gboolean logarithm = args->op == GNN_BACKEND_OP_LOG_SOFTMAX;

  if (!check_reduce_layout (args, TRUE, error))
    return FALSE;
  for (gint64 o = 0; o < outer; o++)
    for (gint64 i = 0; i < inner; i++)
      {
        double m = -INFINITY, sum = 0;

        for (gint64 k = 0; k < r; k++)
          {
            double x = read_double (in, AT3 (in, o, k, i, r, inner));
            if (x > m)
              m = x;
          }
        for (gint64 k = 0; k < r; k++)
          sum += exp (read_double (in, AT3 (in, o, k, i, r, inner)) - m);
        for (gint64 k = 0; k < r; k++)
          {
            double x = read_double (in, AT3 (in, o, k, i, r, inner));
            write_double (out, AT3 (out, o, k, i, r, inner),
                          logarithm ? x - m - log (sum) : exp (x - m) / sum);
          }
      }
  return TRUE;
}

/* softmax backward:     out = in1 · (in0 - Σ_r in0 · in1)
 * log-softmax backward: out = in0 - exp (in1) · Σ_r in0
 * in0 the gradient of the result, in1 the result; the sum is taken before out is written, so
 * out may be in0 */
static gboolean
k_softmax_backward (const GnnKernelArgs *args,
                    GError             **error)
{
  const GnnKernelTensor *g = args->in[0], *y = args->in[1], *out = args->out;
  gint64 outer = args->params.reduce.outer, r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  gboolean logarithm = args->op == GNN_BACKEND_OP_LOG_SOFTMAX_BACKWARD;

  if (!check_reduce_layout (args, TRUE, error))
    return FALSE;
  for (gint64 o = 0; o < outer; o++)
    for (gint64 i = 0; i < inner; i++)
      {
        double sum = 0;

        for (gint64 k = 0; k < r; k++)
          {
            double gk = read_double (g, AT3 (g, o, k, i, r, inner));
            sum += logarithm ? gk : gk * read_double (y, AT3 (y, o, k, i, r, inner));
          }
        for (gint64 k = 0; k < r; k++)
          {
            double gk = read_double (g, AT3 (g, o, k, i, r, inner));
            double yk = read_double (y, AT3 (y, o, k, i, r, inner));
            write_double (out, AT3 (out, o, k, i, r, inner),
                          logarithm ? gk - exp (yk) * sum : yk * (gk - sum));
          }
      }
  return TRUE;
}

/* ---- scans over [outer, r, inner] ---------------------------------------------------- */

/* cumsum:       out[k] = Σ_{j ≤ k} in0[j]
 * cumprod:      out[k] = Π_{j ≤ k} in0[j]
 * logcumsumexp: out[k] = log Σ_{j ≤ k} exp (in0[j]), with the largest term factored out
 * along r of [outer, r, inner], j ≥ k instead with reduce.reverse, out laid out as in0; floats
 * in double, int64 in integers (wrapping as PyTorch's do) */
static gboolean
k_scan (const GnnKernelArgs *args,
        GError             **error)
{
  const GnnKernelTensor *in = args->in[0], *out = args->out;
  gint64 outer = args->params.reduce.outer, r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  gboolean integral = in->dtype == GNN_DTYPE_INT64;

  if (!check_reduce_layout (args, TRUE, error))
    return FALSE;
  for (gint64 o = 0; o < outer; o++)
    for (gint64 i = 0; i < inner; i++)
      for (gint64 s = 0; s < r; s++)
        {
          gint64 k = args->params.reduce.reverse ? r - 1 - s : s;
          gint64 first = args->params.reduce.reverse ? k : 0, last = args->params.reduce.reverse ? r - 1 : k;
          guint64 iacc = args->op == GNN_BACKEND_OP_CUMPROD ? 1 : 0;
          double acc = args->op == GNN_BACKEND_OP_CUMPROD ? 1 : 0, m = -INFINITY;

          if (args->op == GNN_BACKEND_OP_LOGCUMSUMEXP)
            {
              gboolean nan = FALSE;

              for (gint64 j = first; j <= last; j++)
                {
                  double x = read_double (in, AT3 (in, o, j, i, r, inner));
                  nan |= isnan (x);
                  m = MAX (m, x);
                }
              if (nan)
                acc = NAN;
              else if (isinf (m))
                acc = m;   /* every term -inf, or one +inf */
              else
                {
                  for (gint64 j = first; j <= last; j++)
                    acc += exp (read_double (in, AT3 (in, o, j, i, r, inner)) - m);
                  acc = m + log (acc);
                }
              write_double (out, AT3 (out, o, k, i, r, inner), acc);
              continue;
            }
          for (gint64 j = first; j <= last; j++)
            if (integral)
              {
                guint64 x = (guint64) read_int (in, AT3 (in, o, j, i, r, inner));
                iacc = args->op == GNN_BACKEND_OP_CUMPROD ? iacc * x : iacc + x;
              }
            else
              {
                double x = read_double (in, AT3 (in, o, j, i, r, inner));
                acc = args->op == GNN_BACKEND_OP_CUMPROD ? acc * x : acc + x;
              }
          if (integral)
            write_int (out, AT3 (out, o, k, i, r, inner), (gint64) iacc);
          else
            write_double (out, AT3 (out, o, k, i, r, inner), acc);
        }
  return TRUE;
}

/* whether a comes before b in an ascending sort with NaN the largest value */
static gboolean
sorts_before (const GnnKernelTensor *t,
              gint64                 a,
              gint64                 b)
{
  if (t->dtype == GNN_DTYPE_INT64)
    return read_int (t, a) < read_int (t, b);
  else
    {
      double x = read_double (t, a), y = read_double (t, b);
      return !isnan (x) && (isnan (y) || x < y);
    }
}

/* out = in0 sorted along r of [outer, r, inner] (descending with reduce.reverse), stably, NaN
 * the largest value, out2 the positions: each output position k takes the element that has
 * exactly k elements before it, counting ties before it only when they come first in in0 */
static gboolean
k_sort (const GnnKernelArgs *args,
        GError             **error)
{
  const GnnKernelTensor *in = args->in[0], *out = args->out, *idx = args->out2;
  gint64 outer = args->params.reduce.outer, r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  gboolean descending = args->params.reduce.reverse;

  if (!check_reduce_layout (args, TRUE, error))
    return FALSE;
  if (idx == NULL || idx->dtype != GNN_DTYPE_INT64)
    return layout_error (args, error, "sort needs int64 indices (out2)");
  for (gint64 o = 0; o < outer; o++)
    for (gint64 i = 0; i < inner; i++)
      for (gint64 j = 0; j < r; j++)
        {
          gint64 aj = AT3 (in, o, j, i, r, inner), rank = 0;

          for (gint64 m = 0; m < r; m++)
            {
              gint64 am = AT3 (in, o, m, i, r, inner);
              gboolean before = descending ? sorts_before (in, aj, am) : sorts_before (in, am, aj);
              gboolean tie = !sorts_before (in, aj, am) && !sorts_before (in, am, aj);
              if (before || (tie && m < j))
                rank++;
            }
          if (in->dtype == GNN_DTYPE_INT64)
            write_int (out, AT3 (out, o, rank, i, r, inner), read_int (in, aj));
          else
            write_double (out, AT3 (out, o, rank, i, r, inner), read_double (in, aj));
          write_int (idx, AT3 (idx, o, rank, i, r, inner), j);
        }
  return TRUE;
}

/* ---- indexing ----------------------------------------------------------------------- */

/* dst[doff] += src[soff] */
static void
add_element (const GnnKernelTensor *dst,
             gint64                 doff,
             const GnnKernelTensor *src,
             gint64                 soff)
{
  if (dst->dtype == GNN_DTYPE_INT64)
    write_int (dst, doff, read_int (dst, doff) + read_int (src, soff));
  else
    write_double (dst, doff, read_double (dst, doff) + read_double (src, soff));
}

/* INDEX_SELECT: out[o, j, i] = in0[o, in1[j], i]
 * INDEX_ADD:    out[o, in1[j], i] += in0[o, j, i]
 * index.outer, index.size (of the indexed dimension: of in0 for select, of out for add),
 * index.inner; in1 a list of J indices */
static gboolean
k_index_select_add (const GnnKernelArgs *args,
                    GError             **error)
{
  const GnnKernelTensor *in = args->in[0], *index = args->in[1], *out = args->out;
  gint64 outer = args->params.index.outer, size = args->params.index.size, inner = args->params.index.inner;
  gint64 n_index = numel (index);
  gboolean add = args->op == GNN_BACKEND_OP_INDEX_ADD;
  const GnnKernelTensor *indexed = add ? out : in;
  const GnnKernelTensor *listed = add ? in : out;

  if (outer < 0 || size < 0 || inner < 0)
    return layout_error (args, error, "negative sizes in the layout");
  if (!check_index_dtype (args, index, "in1", error) ||
      !check_numel (args, indexed, add ? "out" : "in0", outer * size * inner, error) ||
      !check_numel (args, listed, add ? "in0" : "out", outer * n_index * inner, error))
    return FALSE;

  for (gint64 j = 0; j < n_index; j++)
    {
      gint64 idx = read_int (index, offset_of (index, j));

      if (!check_index (args, idx, size, error))
        return FALSE;
      for (gint64 o = 0; o < outer; o++)
        for (gint64 i = 0; i < inner; i++)
          {
            gint64 at_listed = offset_of (listed, (o * n_index + j) * inner + i);
            gint64 at_indexed = offset_of (indexed, (o * size + idx) * inner + i);

            if (add)
              add_element (out, at_indexed, in, at_listed);
            else
              copy_element (out, at_listed, in, at_indexed);
          }
    }
  return TRUE;
}

/* dst[doff] combined with src[soff] as SCATTER_REDUCE's @reduce says: replaced by it, or its
 * product, maximum or minimum with it (a NaN wins) */
static void
reduce_element (const GnnKernelTensor *dst,
                gint64                 doff,
                const GnnKernelTensor *src,
                gint64                 soff,
                int                    reduce)
{
  if (is_integer (dst->dtype))
    {
      gint64 d = read_int (dst, doff), v = read_int (src, soff);

      switch (reduce)
        {
        case GNN_KERNEL_SCATTER_PROD: v = d * v; break;
        case GNN_KERNEL_SCATTER_AMAX: v = MAX (d, v); break;
        case GNN_KERNEL_SCATTER_AMIN: v = MIN (d, v); break;
        default: break;
        }
      write_int (dst, doff, v);
    }
  else
    {
      double d = read_double (dst, doff), v = read_double (src, soff);

      switch (reduce)
        {
        case GNN_KERNEL_SCATTER_PROD: v = d * v; break;
        case GNN_KERNEL_SCATTER_AMAX: v = isnan (d) || isnan (v) ? NAN : MAX (d, v); break;
        case GNN_KERNEL_SCATTER_AMIN: v = isnan (d) || isnan (v) ? NAN : MIN (d, v); break;
        default: break;
        }
      write_double (dst, doff, v);
    }
}

/* GATHER:         out[o, j, i] = in0[o, in1[o, j, i], i]
 * SCATTER_ADD:    out[o, in1[o, j, i], i] += in0[o, j, i]
 * SCATTER_REDUCE: out[o, in1[o, j, i], i] = in0[o, j, i], or combined with it (index.reduce)
 * index.outer, index.size (of the indexed dimension: of in0 for gather, of out for scatter),
 * index.inner, index.index_size the size of that dimension in the index */
static gboolean
k_gather_scatter (const GnnKernelArgs *args,
                  GError             **error)
{
  const GnnKernelTensor *in = args->in[0], *index = args->in[1], *out = args->out;
  gint64 outer = args->params.index.outer, size = args->params.index.size, inner = args->params.index.inner;
  gint64 n_index = args->params.index.index_size;
  gboolean scatter = args->op == GNN_BACKEND_OP_SCATTER_ADD || args->op == GNN_BACKEND_OP_SCATTER_REDUCE;
  const GnnKernelTensor *indexed = scatter ? out : in;
  const GnnKernelTensor *listed = scatter ? in : out;

  if (outer < 0 || size < 0 || inner < 0 || n_index < 0)
    return layout_error (args, error, "negative sizes in the layout");
  if (!check_index_dtype (args, index, "in1", error) ||
      !check_numel (args, indexed, scatter ? "out" : "in0", outer * size * inner, error) ||
      !check_numel (args, listed, scatter ? "in0" : "out", outer * n_index * inner, error) ||
      !check_numel (args, index, "in1", outer * n_index * inner, error))
    return FALSE;

  for (gint64 o = 0; o < outer; o++)
    for (gint64 j = 0; j < n_index; j++)
      for (gint64 i = 0; i < inner; i++)
        {
          gint64 l = (o * n_index + j) * inner + i;
          gint64 idx = read_int (index, offset_of (index, l));
          gint64 at_indexed;

          if (!check_index (args, idx, size, error))
            return FALSE;
          at_indexed = offset_of (indexed, (o * size + idx) * inner + i);
          if (args->op == GNN_BACKEND_OP_SCATTER_REDUCE)
            reduce_element (out, at_indexed, in, offset_of (in, l), args->params.index.reduce);
          else if (scatter)
            add_element (out, at_indexed, in, offset_of (in, l));
          else
            copy_element (out, offset_of (out, l), in, at_indexed);
        }
  return TRUE;
}

/* out[j, c] = (in0[j] == c) for c < one_hot.classes */
static gboolean
k_one_hot (const GnnKernelArgs *args,
           GError             **error)
{
  const GnnKernelTensor *in = args->in[0], *out = args->out;
  gint64 classes = args->params.one_hot.classes, n = numel (in);

  if (classes < 0)
    return layout_error (args, error, "negative number of classes %" G_GINT64_FORMAT, classes);
  if (!check_index_dtype (args, in, "in0", error) ||
      !check_numel (args, out, "out", n * classes, error))
    return FALSE;
  for (gint64 j = 0; j < n; j++)
    {
      gint64 label = read_int (in, offset_of (in, j));

      if (!check_index (args, label, classes, error))
        return FALSE;
      for (gint64 c = 0; c < classes; c++)
        write_int (out, offset_of (out, j * classes + c), label == c);
    }
  return TRUE;
}

/* ---- im2col / col2im, vol2col / col2vol ---------------------------------------------- */

/* The window of a convolution or pooling kernel with a depth: a 2-d kernel (params.window) has
 * a unit one, a 3-d kernel reads params.volume; triples in (D, H, W) order. */
typedef struct {
  gint64 k[3], s[3], p[3], d[3];
  double divisor;
  gboolean count_include_pad;
  gboolean three;
} RefWindow;

static gboolean
is_3d_op (GnnBackendOp op)
{
  return op == GNN_BACKEND_OP_VOL2COL || op == GNN_BACKEND_OP_COL2VOL || op == GNN_BACKEND_OP_MAX_POOL3D ||
         op == GNN_BACKEND_OP_MAX_POOL3D_BACKWARD || op == GNN_BACKEND_OP_AVG_POOL3D ||
         op == GNN_BACKEND_OP_AVG_POOL3D_BACKWARD || op == GNN_BACKEND_OP_ADAPTIVE_AVG_POOL3D ||
         op == GNN_BACKEND_OP_ADAPTIVE_AVG_POOL3D_BACKWARD || op == GNN_BACKEND_OP_ADAPTIVE_MAX_POOL3D;
}

static void
read_window (const GnnKernelArgs *args, gboolean dilated, RefWindow *w)
{
  w->three = is_3d_op (args->op);
  if (w->three)
    {
      const GnnKernelVolume *v = &args->params.volume;
      for (guint a = 0; a < 3; a++)
        {
          w->k[a] = v->kernel[a];
          w->s[a] = v->stride[a];
          w->p[a] = v->padding[a];
          w->d[a] = dilated ? v->dilation[a] : 1;
        }
      w->divisor = v->divisor;
      w->count_include_pad = v->count_include_pad;
    }
  else
    {
      const GnnKernelWindow *v = &args->params.window;
      w->k[0] = w->s[0] = w->d[0] = 1;
      w->p[0] = 0;
      for (guint a = 0; a < 2; a++)
        {
          w->k[a + 1] = v->kernel[a];
          w->s[a + 1] = v->stride[a];
          w->p[a + 1] = v->padding[a];
          w->d[a + 1] = dilated ? v->dilation[a] : 1;
        }
      w->divisor = v->divisor;
      w->count_include_pad = v->count_include_pad;
    }
}

/* the spatial sizes of a 4-d (2-d kernel: a unit depth) or 5-d operand, (D, H, W) */
static void
spatial_of (const GnnKernelTensor *t, gint64 *sz)
{
  sz[0] = t->ndim == 5 ? t->shape[2] : 1;
  sz[1] = t->shape[t->ndim - 2];
  sz[2] = t->shape[t->ndim - 1];
}

/* im2col: in0 (N, C, H, W) -> out (N, C * kh * kw, OH, OW); col2im: in0 (N, C * kh * kw, OH, OW)
 * -> out (N, C, H, W), the sum of the entries that im2col would read from each position.
 * params.window holds (kh, kw), (sh, sw), (ph, pw), (dh, dw). vol2col and col2vol are the same
 * with a depth, (N, C, D, H, W) and (N, C * kd * kh * kw, OD, OH, OW), from params.volume. */
static gboolean
k_im2col_col2im (const GnnKernelArgs *args,
                 GError             **error)
{
  gboolean to_cols = args->op == GNN_BACKEND_OP_IM2COL || args->op == GNN_BACKEND_OP_VOL2COL;
  const GnnKernelTensor *image = to_cols ? args->in[0] : args->out;
  const GnnKernelTensor *cols = to_cols ? args->out : args->in[0];
  RefWindow w;
  gint64 N, C, I[3], O[3], K;
  guint rank;

  read_window (args, TRUE, &w);
  rank = w.three ? 5 : 4;
  for (guint a = 0; a < 3; a++)
    if (w.k[a] < 1 || w.s[a] < 1 || w.d[a] < 1)
      return layout_error (args, error, "kernel size, stride and dilation must be at least 1");
  if (image->ndim != rank || cols->ndim != rank)
    return layout_error (args, error, "the image and the columns must be %u-d", rank);
  N = image->shape[0]; C = image->shape[1];
  spatial_of (image, I);
  spatial_of (cols, O);
  K = w.k[0] * w.k[1] * w.k[2];
  if (cols->shape[0] != N || cols->shape[1] != C * K)
    return layout_error (args, error, "the columns have shape (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                         ", …), expected (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", …)",
                         cols->shape[0], cols->shape[1], N, C * K);
  if (!to_cols)
    for (gint64 l = 0; l < numel (image); l++)
      write_double (image, offset_of (image, l), 0.0);
  for (gint64 n = 0; n < N; n++)
    for (gint64 c = 0; c < C; c++)
      for (gint64 kz = 0; kz < w.k[0]; kz++)
        for (gint64 ki = 0; ki < w.k[1]; ki++)
          for (gint64 kj = 0; kj < w.k[2]; kj++)
            for (gint64 oz = 0; oz < O[0]; oz++)
              for (gint64 oy = 0; oy < O[1]; oy++)
                for (gint64 ox = 0; ox < O[2]; ox++)
                  {
                    gint64 z = oz * w.s[0] - w.p[0] + kz * w.d[0];
                    gint64 y = oy * w.s[1] - w.p[1] + ki * w.d[1], x = ox * w.s[2] - w.p[2] + kj * w.d[2];
                    gint64 row = ((c * w.k[0] + kz) * w.k[1] + ki) * w.k[2] + kj;
                    gint64 coff = offset_of (cols, (((n * cols->shape[1] + row) * O[0] + oz) * O[1] + oy) * O[2] + ox);
                    gboolean inside = z >= 0 && z < I[0] && y >= 0 && y < I[1] && x >= 0 && x < I[2];
                    gint64 ioff = inside ? offset_of (image, (((n * C + c) * I[0] + z) * I[1] + y) * I[2] + x) : 0;

                    if (to_cols)
                      write_double (cols, coff, inside ? read_double (image, ioff) : 0.0);
                    else if (inside)
                      write_double (image, ioff, read_double (image, ioff) + read_double (cols, coff));
                  }
  return TRUE;
}

/* ---- pooling ----------------------------------------------------------------------- */

/* The (N, C, [D,] H, W) image and (N, C, [OD,] OH, OW) pooled operands of a pooling kernel; the
 * window as IM2COL (VOL2COL). Forward kernels read the image from in0; backward ones write it to
 * out. */
static gboolean
k_pool (const GnnKernelArgs *args,
        GError             **error)
{
  GnnBackendOp op = args->op;
  gboolean max_forward = op == GNN_BACKEND_OP_MAX_POOL2D || op == GNN_BACKEND_OP_MAX_POOL3D;
  gboolean max_backward = op == GNN_BACKEND_OP_MAX_POOL2D_BACKWARD || op == GNN_BACKEND_OP_MAX_POOL3D_BACKWARD;
  gboolean backward = max_backward || op == GNN_BACKEND_OP_AVG_POOL2D_BACKWARD ||
                      op == GNN_BACKEND_OP_AVG_POOL3D_BACKWARD;
  gboolean is_max = max_forward || max_backward;
  const GnnKernelTensor *image = backward ? args->out : args->in[0];
  const GnnKernelTensor *pooled = backward ? args->in[0] : args->out;
  RefWindow w;
  gint64 N, C, I[3], O[3];
  guint rank;

  read_window (args, is_max, &w);
  rank = w.three ? 5 : 4;
  for (guint a = 0; a < 3; a++)
    if (w.k[a] < 1 || w.s[a] < 1 || w.d[a] < 1)
      return layout_error (args, error, "kernel size, stride and dilation must be at least 1");
  if (image->ndim != rank || pooled->ndim != rank || image->shape[0] != pooled->shape[0] ||
      image->shape[1] != pooled->shape[1])
    return layout_error (args, error, "the image and the pooled operand must be %u-d with the same N and C", rank);
  N = image->shape[0]; C = image->shape[1];
  spatial_of (image, I);
  spatial_of (pooled, O);
  if (max_forward &&
      (args->out2 == NULL || args->out2->dtype != GNN_DTYPE_INT64 || numel (args->out2) != numel (args->out)))
    return layout_error (args, error, "out2 must be int64 indices shaped as out");
  if (max_backward &&
      (!check_index_dtype (args, args->in[1], "in1", error) ||
       !check_numel (args, args->in[1], "in1", numel (args->in[0]), error)))
    return FALSE;
  if (backward)
    for (gint64 l = 0; l < numel (image); l++)
      write_double (image, offset_of (image, l), 0.0);

  for (gint64 n = 0; n < N; n++)
    for (gint64 c = 0; c < C; c++)
      for (gint64 oz = 0; oz < O[0]; oz++)
        for (gint64 oy = 0; oy < O[1]; oy++)
          for (gint64 ox = 0; ox < O[2]; ox++)
            {
              gint64 volume = (n * C + c) * I[0] * I[1] * I[2];
              gint64 l = (((n * C + c) * O[0] + oz) * O[1] + oy) * O[2] + ox;
              gint64 poff = offset_of (pooled, l);

              if (is_max)
                {
                  double best = -INFINITY;
                  gint64 best_at = -1;

                  if (backward)
                    {
                      gint64 at = read_int (args->in[1], offset_of (args->in[1], l));
                      gint64 ioff;

                      if (!check_index (args, at, I[0] * I[1] * I[2], error))
                        return FALSE;
                      ioff = offset_of (image, volume + at);
                      write_double (image, ioff, read_double (image, ioff) + read_double (pooled, poff));
                      continue;
                    }
                  for (gint64 kz = 0; kz < w.k[0]; kz++)
                    for (gint64 ki = 0; ki < w.k[1]; ki++)
                      for (gint64 kj = 0; kj < w.k[2]; kj++)
                        {
                          gint64 z = oz * w.s[0] - w.p[0] + kz * w.d[0];
                          gint64 y = oy * w.s[1] - w.p[1] + ki * w.d[1], x = ox * w.s[2] - w.p[2] + kj * w.d[2];
                          gint64 at = (z * I[1] + y) * I[2] + x;
                          double v;

                          if (z < 0 || z >= I[0] || y < 0 || y >= I[1] || x < 0 || x >= I[2])
                            continue;
                          v = read_double (image, offset_of (image, volume + at));
                          if (best_at < 0 || v > best || isnan (v))
                            {
                              best = v;
                              best_at = at;
                            }
                        }
                  write_double (args->out, poff, best);
                  write_int (args->out2, offset_of (args->out2, l), MAX (best_at, 0));
                }
              else
                {
                  gint64 lo[3], hi[3], pool_size = 1, inside = 1;
                  gint64 o[3] = { oz, oy, ox };
                  double divisor, sum = 0;

                  for (guint a = 0; a < 3; a++)
                    {
                      lo[a] = o[a] * w.s[a] - w.p[a];
                      hi[a] = MIN (lo[a] + w.k[a], I[a] + w.p[a]);
                      pool_size *= hi[a] - lo[a];
                      lo[a] = MAX (lo[a], 0);
                      hi[a] = MIN (hi[a], I[a]);
                      inside *= MAX (hi[a] - lo[a], 0);
                    }
                  if (inside == 0)
                    {
                      if (!backward)
                        write_double (args->out, poff, 0.0);
                      continue;
                    }
                  divisor = w.divisor != 0 ? w.divisor : w.count_include_pad ? (double) pool_size : (double) inside;
                  for (gint64 z = lo[0]; z < hi[0]; z++)
                    for (gint64 y = lo[1]; y < hi[1]; y++)
                      for (gint64 x = lo[2]; x < hi[2]; x++)
                        {
                          gint64 ioff = offset_of (image, volume + (z * I[1] + y) * I[2] + x);

                          if (backward)
                            write_double (image, ioff, read_double (image, ioff) + read_double (pooled, poff) / divisor);
                          else
                            sum += read_double (image, ioff);
                        }
                  if (!backward)
                    write_double (args->out, poff, sum / divisor);
                }
            }
  return TRUE;
}

/* adaptive average pooling: windows [⌊o·I/O⌋, ⌈(o+1)·I/O⌉) in each dimension, 2-d (4-d operands)
 * or 3-d (5-d) */
static gboolean
k_adaptive_avg_pool (const GnnKernelArgs *args,
                     GError             **error)
{
  gboolean backward = args->op == GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D_BACKWARD ||
                      args->op == GNN_BACKEND_OP_ADAPTIVE_AVG_POOL3D_BACKWARD;
  const GnnKernelTensor *image = backward ? args->out : args->in[0];
  const GnnKernelTensor *pooled = backward ? args->in[0] : args->out;
  guint rank = is_3d_op (args->op) ? 5 : 4;
  gboolean is_max = args->op == GNN_BACKEND_OP_ADAPTIVE_MAX_POOL3D;
  gint64 N, C, I[3], O[3];

  if (image->ndim != rank || pooled->ndim != rank || image->shape[0] != pooled->shape[0] ||
      image->shape[1] != pooled->shape[1])
    return layout_error (args, error, "the image and the pooled operand must be %u-d with the same N and C", rank);
  N = image->shape[0]; C = image->shape[1];
  spatial_of (image, I);
  spatial_of (pooled, O);
  if (is_max && (args->out2 == NULL || args->out2->dtype != GNN_DTYPE_INT64 || numel (args->out2) != numel (args->out)))
    return layout_error (args, error, "out2 must be int64 indices shaped as out");
  if (backward)
    for (gint64 l = 0; l < numel (image); l++)
      write_double (image, offset_of (image, l), 0.0);
  for (gint64 n = 0; n < N; n++)
    for (gint64 c = 0; c < C; c++)
      for (gint64 oz = 0; oz < O[0]; oz++)
        for (gint64 oy = 0; oy < O[1]; oy++)
          for (gint64 ox = 0; ox < O[2]; ox++)
            {
              gint64 z0 = oz * I[0] / O[0], z1 = ((oz + 1) * I[0] + O[0] - 1) / O[0];
              gint64 y0 = oy * I[1] / O[1], y1 = ((oy + 1) * I[1] + O[1] - 1) / O[1];
              gint64 x0 = ox * I[2] / O[2], x1 = ((ox + 1) * I[2] + O[2] - 1) / O[2];
              gint64 volume = (n * C + c) * I[0] * I[1] * I[2];
              gint64 poff = offset_of (pooled, (((n * C + c) * O[0] + oz) * O[1] + oy) * O[2] + ox);
              double area = (double) ((z1 - z0) * (y1 - y0) * (x1 - x0)), sum = 0;

              if (is_max)
                {
                  double best = -INFINITY;
                  gint64 best_at = -1;

                  for (gint64 z = z0; z < z1; z++)
                    for (gint64 y = y0; y < y1; y++)
                      for (gint64 x = x0; x < x1; x++)
                        {
                          gint64 at = (z * I[1] + y) * I[2] + x;
                          double v = read_double (image, offset_of (image, volume + at));

                          if (best_at < 0 || v > best || isnan (v))
                            {
                              best = v;
                              best_at = at;
                            }
                        }
                  write_double (args->out, poff, best);
                  write_int (args->out2, offset_of (args->out2, (((n * C + c) * O[0] + oz) * O[1] + oy) * O[2] + ox),
                             MAX (best_at, 0));
                  continue;
                }
              for (gint64 z = z0; z < z1; z++)
                for (gint64 y = y0; y < y1; y++)
                  for (gint64 x = x0; x < x1; x++)
                    {
                      gint64 ioff = offset_of (image, volume + (z * I[1] + y) * I[2] + x);

                      if (backward)
                        write_double (image, ioff, read_double (image, ioff) + read_double (pooled, poff) / area);
                      else
                        sum += read_double (image, ioff);
                    }
              if (!backward)
                write_double (args->out, poff, sum / area);
            }
  return TRUE;
}

/* ---- multi-tensor kernels ----------------------------------------------------------- */

/* list_out[j] = lerp (list_out[j], list_in[j], lerp.weight) for every pair j, with PyTorch's formula:
 * start + w (end - start) when |w| < 0.5, else end - (end - start) (1 - w). Every operand has
 * one floating dtype; the two of a pair share a shape, any strides. */
static gboolean
k_foreach_lerp (const GnnKernelArgs *args,
                GError             **error)
{
  double w = args->params.lerp.weight;
  GnnDtype dtype;

  /* the dispatcher checked the lists and the dtype of list_out[0] */
  if (args->n_list == 0)
    return TRUE;
  dtype = args->list_out[0].dtype;
  for (guint j = 0; j < args->n_list; j++)
    {
      const GnnKernelTensor *o = &args->list_out[j], *x = &args->list_in[j];

      if (o->dtype != dtype || x->dtype != dtype)
        return layout_error (args, error, "pair %u has dtypes %s and %s, expected %s for every operand", j,
                             gnn_dtype_get_name (o->dtype), gnn_dtype_get_name (x->dtype),
                             gnn_dtype_get_name (dtype));
      if (o->ndim > GNN_MAX_DIMS || o->ndim != x->ndim ||
          memcmp (o->shape, x->shape, sizeof (gint64) * o->ndim) != 0)
        return layout_error (args, error, "the two operands of pair %u differ in shape", j);
    }
  for (guint j = 0; j < args->n_list; j++)
    {
      const GnnKernelTensor *o = &args->list_out[j], *x = &args->list_in[j];

      for (gint64 l = 0; l < numel (o); l++)
        {
          gint64 oo = offset_of (o, l);
          double a = read_double (o, oo), b = read_double (x, offset_of (x, l));

          write_double (o, oo, fabs (w) < 0.5 ? a + w * (b - a) : b - (b - a) * (1.0 - w));
        }
    }
  return TRUE;
}

/* ---- attention ---------------------------------------------------------------------- */

/* element [b, i, j] of the attention operand @t seen as (B, rows, cols), any strides (a mask's
 * batch dims unravelled row-major) */
static double
attn_read (const GnnKernelTensor *t, gint64 b, gint64 i, gint64 j, gint64 rows, gint64 cols)
{
  return read_double (t, offset_of (t, (b * rows + i) * cols + j));
}

static void
attn_write (const GnnKernelTensor *t, gint64 b, gint64 i, gint64 j, gint64 rows, gint64 cols, double v)
{
  write_double (t, offset_of (t, (b * rows + i) * cols + j), v);
}

/* the score s_ij = scale · q_i · k_j + mask_ij, -inf for a key after the query when causal */
static double
attn_score (const GnnKernelArgs *args, const GnnKernelTensor *q, const GnnKernelTensor *k,
            gint64 b, gint64 i, gint64 j, gint64 L, gint64 S, gint64 E)
{
  const GnnKernelAttention *at = &args->params.attention;
  double d = 0;

  if (at->causal && j > i)
    return -INFINITY;
  for (gint64 e = 0; e < E; e++)
    d += attn_read (q, b, i, e, L, E) * attn_read (k, b, j, e, S, E);
  d *= at->scale;
  if (at->mask)
    d += attn_read (at->mask, b, i, j, L, S);
  return d;
}

/* the recurrent cells, as written in the op table, element by element in double */
#define RD(t, i) read_double ((t), offset_of ((t), (i)))
#define WR(t, i, v) write_double ((t), offset_of ((t), (i)), (v))

static double
ref_sigmoid (double x)
{
  return 1.0 / (1.0 + exp (-x));
}

static gboolean
k_rnn_cell (const GnnKernelArgs *args,
            GError             **error)
{
  const GnnKernelTensor *a = args->in[0], *b = args->in[1], *c = args->in[2];
  gint64 B = a->shape[0];
  gboolean lstm = args->op == GNN_BACKEND_OP_LSTM_CELL || args->op == GNN_BACKEND_OP_LSTM_CELL_BACKWARD;
  gint64 H = lstm ? b->shape[1] : a->shape[1] / 3;

  (void) error;
  for (gint64 r = 0; r < B; r++)
    for (gint64 j = 0; j < H; j++)
      switch (args->op)
        {
        case GNN_BACKEND_OP_LSTM_CELL:
        case GNN_BACKEND_OP_LSTM_CELL_BACKWARD:
          {
            gint64 g0 = r * 4 * H + j;
            double i = ref_sigmoid (RD (a, g0)), f = ref_sigmoid (RD (a, g0 + H));
            double g = tanh (RD (a, g0 + 2 * H)), o = ref_sigmoid (RD (a, g0 + 3 * H));
            double cp = RD (b, r * H + j), cn = f * cp + i * g, tc = tanh (cn);

            if (args->op == GNN_BACKEND_OP_LSTM_CELL)
              {
                WR (args->out, r * 2 * H + j, o * tc);
                WR (args->out, r * 2 * H + H + j, cn);
              }
            else
              {
                double dh = RD (c, r * 2 * H + j), dc = RD (c, r * 2 * H + H + j);
                double dcn = dc + dh * o * (1.0 - tc * tc);

                WR (args->out, g0, dcn * g * i * (1.0 - i));
                WR (args->out, g0 + H, dcn * cp * f * (1.0 - f));
                WR (args->out, g0 + 2 * H, dcn * i * (1.0 - g * g));
                WR (args->out, g0 + 3 * H, dh * tc * o * (1.0 - o));
                WR (args->out2, r * H + j, dcn * f);
              }
          }
          break;
        default:
          {
            gint64 g0 = r * 3 * H + j;
            double rr = ref_sigmoid (RD (a, g0) + RD (b, g0));
            double z = ref_sigmoid (RD (a, g0 + H) + RD (b, g0 + H));
            double hn = RD (b, g0 + 2 * H), n = tanh (RD (a, g0 + 2 * H) + rr * hn);

            if (args->op == GNN_BACKEND_OP_GRU_CELL)
              WR (args->out, r * H + j, (1.0 - z) * n + z * RD (c, r * H + j));
            else
              {
                double h = RD (c, r * 2 * H + j), dh = RD (c, r * 2 * H + H + j);
                double dn = dh * (1.0 - z) * (1.0 - n * n), dz = dh * (h - n) * z * (1.0 - z);
                double dr = dn * hn * rr * (1.0 - rr);

                WR (args->out, g0, dr);
                WR (args->out, g0 + H, dz);
                WR (args->out, g0 + 2 * H, dn);
                WR (args->out2, r * 4 * H + j, dr);
                WR (args->out2, r * 4 * H + H + j, dz);
                WR (args->out2, r * 4 * H + 2 * H + j, dn * rr);
                WR (args->out2, r * 4 * H + 3 * H + j, dh * z);
              }
          }
          break;
        }
  return TRUE;
}
#undef RD
#undef WR

/* ATTENTION: each row's scores, their softmax and the weighted sum of v, as written; and
 * ATTENTION_BACKWARD: p_ij = exp (s_ij - lse_i), delta_i = dO_i · o_i, ds_ij = p_ij (dO_i · v_j -
 * delta_i), dq_i = scale Σ_j ds_ij k_j, dk_j = scale Σ_i ds_ij q_i, dv_j = Σ_i p_ij dO_i */
static gboolean
k_attention (const GnnKernelArgs *args,
             GError             **error)
{
  const GnnKernelAttention *at = &args->params.attention;
  gboolean backward = args->op == GNN_BACKEND_OP_ATTENTION_BACKWARD;
  const GnnKernelTensor *q = args->in[backward ? 1 : 0], *k = args->in[backward ? 2 : 1];
  const GnnKernelTensor *v = backward ? at->v : args->in[2];
  gint64 B, L, S, E, Ev;

  if (q->ndim != 3 || k->ndim != 3 || v == NULL || v->ndim != 3 || args->out2 == NULL ||
      (backward && (at->o == NULL || at->lse == NULL || at->dv == NULL)))
    return layout_error (args, error, "needs 3-dimensional q, k, v and all of its operands");
  B = q->shape[0], L = q->shape[1], E = q->shape[2], S = k->shape[1], Ev = v->shape[2];
  if (at->mask && !check_numel (args, at->mask, "the mask", B * L * S, error))
    return FALSE;
  for (gint64 b = 0; b < B; b++)
    {
      g_autofree double *p = g_new0 (double, L * S + 1);

      /* the probabilities: softmax of the scores (forward), exp (s - lse) (backward) */
      for (gint64 i = 0; i < L; i++)
        {
          double mx = -INFINITY, sum = 0, lse;

          for (gint64 j = 0; j < S; j++)
            {
              p[i * S + j] = attn_score (args, q, k, b, i, j, L, S, E);
              mx = fmax (mx, p[i * S + j]);
            }
          for (gint64 j = 0; j < S; j++)
            sum += exp (p[i * S + j] - mx);
          lse = backward ? attn_read (at->lse, b, 0, i, 1, L) : mx == -INFINITY ? -INFINITY : mx + log (sum);
          for (gint64 j = 0; j < S; j++)
            p[i * S + j] = exp (p[i * S + j] - lse);
          if (backward)
            continue;
          attn_write (args->out2, b, 0, i, 1, L, lse);
          for (gint64 e = 0; e < Ev; e++)
            {
              double acc = 0;

              for (gint64 j = 0; j < S; j++)
                if (!(at->causal && j > i))
                  acc += p[i * S + j] * attn_read (v, b, j, e, S, Ev);
              attn_write (args->out, b, i, e, L, Ev, mx == -INFINITY ? NAN : acc);
            }
        }
      if (!backward)
        continue;
      {
        const GnnKernelTensor *dout = args->in[0];
        g_autofree double *ds = g_new0 (double, L * S + 1);

        for (gint64 i = 0; i < L; i++)
          {
            double delta = 0;

            for (gint64 e = 0; e < Ev; e++)
              delta += attn_read (dout, b, i, e, L, Ev) * attn_read (at->o, b, i, e, L, Ev);
            for (gint64 j = 0; j < S; j++)
              {
                double dp = 0;

                if (at->causal && j > i)
                  continue;
                for (gint64 e = 0; e < Ev; e++)
                  dp += attn_read (dout, b, i, e, L, Ev) * attn_read (v, b, j, e, S, Ev);
                ds[i * S + j] = p[i * S + j] * (dp - delta);
              }
          }
        for (gint64 i = 0; i < L; i++)
          for (gint64 e = 0; e < E; e++)
            {
              double acc = 0;

              for (gint64 j = 0; j < S; j++)
                if (!(at->causal && j > i))
                  acc += ds[i * S + j] * attn_read (k, b, j, e, S, E);
              attn_write (args->out, b, i, e, L, E, at->scale * acc);
            }
        for (gint64 j = 0; j < S; j++)
          {
            for (gint64 e = 0; e < E; e++)
              {
                double acc = 0;

                for (gint64 i = 0; i < L; i++)
                  if (!(at->causal && j > i))
                    acc += ds[i * S + j] * attn_read (q, b, i, e, L, E);
                attn_write (args->out2, b, j, e, S, E, at->scale * acc);
              }
            for (gint64 e = 0; e < Ev; e++)
              {
                double acc = 0;

                for (gint64 i = 0; i < L; i++)
                  if (!(at->causal && j > i))
                    acc += p[i * S + j] * attn_read (dout, b, i, e, L, Ev);
                attn_write (at->dv, b, j, e, S, Ev, acc);
              }
          }
      }
    }
  return TRUE;
}

/* ---- dispatch ----------------------------------------------------------------------- */

gboolean
gnn_reference_run_kernel (const GnnKernelArgs *args,
                          GError             **error)
{
  GnnDtype dtype;

  if (!gnn_backend_op_check_args ("reference", args, &dtype, error))
    return FALSE;
  if (!gnn_reference_supports (args->op, dtype))
    return gnn_backend_op_set_unsupported (error, "reference", args->op, dtype);
  if (args->op == GNN_BACKEND_OP_FOREACH_LERP)
    return k_foreach_lerp (args, error);

  switch (args->op)
    {
    case GNN_BACKEND_OP_COPY:
      return k_copy (args, error);
    case GNN_BACKEND_OP_FILL:
      return k_fill (args, error);
    case GNN_BACKEND_OP_ARANGE:
      return k_arange (args, error);
    case GNN_BACKEND_OP_RAND_UNIFORM:
    case GNN_BACKEND_OP_RAND_NORMAL:
    case GNN_BACKEND_OP_RAND_INT:
      return k_random (args, error);
    case GNN_BACKEND_OP_WHERE:
      return k_where (args, error);
    case GNN_BACKEND_OP_GEMM:
      return k_gemm (args, error);
    case GNN_BACKEND_OP_SUM:
      return k_sum (args, error);
    case GNN_BACKEND_OP_MAX:
    case GNN_BACKEND_OP_MIN:
      return k_max_min (args, error);
    case GNN_BACKEND_OP_VAR:
      return k_var (args, error);
    case GNN_BACKEND_OP_BATCH_NORM_STATS:
      return k_batch_norm_stats (args, error);
    case GNN_BACKEND_OP_CHANNEL_AFFINE:
      return k_channel_affine (args, error);
    case GNN_BACKEND_OP_BATCH_NORM_BACKWARD_REDUCE:
      return k_batch_norm_backward_reduce (args, error);
    case GNN_BACKEND_OP_ATTENTION:
    case GNN_BACKEND_OP_ATTENTION_BACKWARD:
      return k_attention (args, error);
    case GNN_BACKEND_OP_LSTM_CELL:
    case GNN_BACKEND_OP_LSTM_CELL_BACKWARD:
    case GNN_BACKEND_OP_GRU_CELL:
    case GNN_BACKEND_OP_GRU_CELL_BACKWARD:
      return k_rnn_cell (args, error);
    case GNN_BACKEND_OP_SOFTMAX:
    case GNN_BACKEND_OP_LOG_SOFTMAX:
      return k_softmax (args, error);
    case GNN_BACKEND_OP_SOFTMAX_BACKWARD:
    case GNN_BACKEND_OP_LOG_SOFTMAX_BACKWARD:
      return k_softmax_backward (args, error);
    case GNN_BACKEND_OP_CUMSUM:
    case GNN_BACKEND_OP_CUMPROD:
    case GNN_BACKEND_OP_LOGCUMSUMEXP:
      return k_scan (args, error);
    case GNN_BACKEND_OP_SORT:
      return k_sort (args, error);
    case GNN_BACKEND_OP_INDEX_SELECT:
    case GNN_BACKEND_OP_INDEX_ADD:
      return k_index_select_add (args, error);
    case GNN_BACKEND_OP_GATHER:
    case GNN_BACKEND_OP_SCATTER_ADD:
    case GNN_BACKEND_OP_SCATTER_REDUCE:
      return k_gather_scatter (args, error);
    case GNN_BACKEND_OP_ONE_HOT:
      return k_one_hot (args, error);
    case GNN_BACKEND_OP_IM2COL:
    case GNN_BACKEND_OP_COL2IM:
    case GNN_BACKEND_OP_VOL2COL:
    case GNN_BACKEND_OP_COL2VOL:
      return k_im2col_col2im (args, error);
    case GNN_BACKEND_OP_MAX_POOL2D:
    case GNN_BACKEND_OP_MAX_POOL2D_BACKWARD:
    case GNN_BACKEND_OP_AVG_POOL2D:
    case GNN_BACKEND_OP_AVG_POOL2D_BACKWARD:
    case GNN_BACKEND_OP_MAX_POOL3D:
    case GNN_BACKEND_OP_MAX_POOL3D_BACKWARD:
    case GNN_BACKEND_OP_AVG_POOL3D:
    case GNN_BACKEND_OP_AVG_POOL3D_BACKWARD:
      return k_pool (args, error);
    case GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D:
    case GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D_BACKWARD:
    case GNN_BACKEND_OP_ADAPTIVE_AVG_POOL3D:
    case GNN_BACKEND_OP_ADAPTIVE_AVG_POOL3D_BACKWARD:
    case GNN_BACKEND_OP_ADAPTIVE_MAX_POOL3D:
      return k_adaptive_avg_pool (args, error);
    default:
      /* the elementwise kernels: arithmetic, comparisons, unary functions, activations and
       * their gradients, lerp, addcmul, addcdiv */
      return k_elementwise (args, error);
    }
}
