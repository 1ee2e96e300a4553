/* gnn-dtype-private.h: conversions between storage and compute types
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include <string.h>

#include "gnn-dtype.h"

G_BEGIN_DECLS

static inline float
gnn_half_to_float (guint16 h)
{
  guint32 sign = (guint32) (h & 0x8000) << 16;
  guint32 exp = (h >> 10) & 0x1f;
  guint32 mant = h & 0x3ff;
  guint32 bits;
  float f;

  if (exp == 0)
    {
      if (mant == 0)
        bits = sign;
      else
        {
          /* subnormal: normalise */
          exp = 127 - 15 + 1;
          while ((mant & 0x400) == 0)
            {
              mant <<= 1;
              exp--;
            }
          mant &= 0x3ff;
          bits = sign | (exp << 23) | (mant << 13);
        }
    }
  else if (exp == 0x1f)
    bits = sign | 0x7f800000 | (mant << 13);
  else
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  memcpy (&f, &bits, 4);
  return f;
}

static inline guint16
gnn_float_to_half (float f)
{
  guint32 x;
  guint32 sign, mant;
  gint32 exp;

  memcpy (&x, &f, 4);
  sign = (x >> 16) & 0x8000;
  exp = (gint32) ((x >> 23) & 0xff) - 127 + 15;
  mant = x & 0x7fffff;

  if (((x >> 23) & 0xff) == 0xff)
    return (guint16) (sign | 0x7c00 | (mant ? 0x200 : 0));
  if (exp >= 0x1f)
    return (guint16) (sign | 0x7c00);
  if (exp <= 0)
    {
      guint32 shift, half_mant, rem, halfway;
      if (exp < -10)
        return (guint16) sign;
      mant |= 0x800000;
      shift = (guint32) (14 - exp);
      half_mant = mant >> shift;
      rem = mant & ((1u << shift) - 1);
      halfway = 1u << (shift - 1);
      if (rem > halfway || (rem == halfway && (half_mant & 1)))
        half_mant++;
      return (guint16) (sign | half_mant);
    }
  {
    guint32 h = sign | ((guint32) exp << 10) | (mant >> 13);
    guint32 rem = mant & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
      h++;  /* may carry into the exponent, which is the correct rounding */
    return (guint16) h;
  }
}

static inline float
gnn_bf16_to_float (guint16 b)
{
  guint32 bits = (guint32) b << 16;
  float f;
  memcpy (&f, &bits, 4);
  return f;
}

static inline guint16
gnn_float_to_bf16 (float f)
{
  guint32 x;
  memcpy (&x, &f, 4);
  if ((x & 0x7fffffff) > 0x7f800000)
    return (guint16) ((x >> 16) | 0x40);  /* quiet NaN */
  x += 0x7fff + ((x >> 16) & 1);          /* round to nearest even */
  return (guint16) (x >> 16);
}

/* Stores @v in the element of @dtype at @p, converted as C casts do (bool: @v != 0; uint8,
 * int32, int16 and int8 through int64, wrapping as PyTorch's casts do; float16 and bfloat16
 * rounded to nearest even). */
static inline void
gnn_dtype_store_double (GnnDtype dtype,
                        gpointer p,
                        double   v)
{
  switch (dtype)
    {
    case GNN_DTYPE_FLOAT32:  *(float *) p = (float) v; break;
    case GNN_DTYPE_FLOAT64:  *(double *) p = v; break;
    case GNN_DTYPE_INT64:    *(gint64 *) p = (gint64) v; break;
    case GNN_DTYPE_BOOL:     *(guint8 *) p = v != 0; break;
    case GNN_DTYPE_UINT8:    *(guint8 *) p = (guint8) (gint64) v; break;
    case GNN_DTYPE_FLOAT16:  *(guint16 *) p = gnn_float_to_half ((float) v); break;
    case GNN_DTYPE_BFLOAT16: *(guint16 *) p = gnn_float_to_bf16 ((float) v); break;
    case GNN_DTYPE_INT32:    *(gint32 *) p = (gint32) (gint64) v; break;
    case GNN_DTYPE_INT16:    *(gint16 *) p = (gint16) (gint64) v; break;
    case GNN_DTYPE_INT8:     *(gint8 *) p = (gint8) (gint64) v; break;
    }
}

/* The float16 or bfloat16 bit pattern one step below @bits, toward -inf: both are sign and
 * magnitude, so one step down is one unit less magnitude for a positive number and one more
 * for a negative one; below zero is the smallest negative subnormal. */
static inline guint16
gnn_half_bits_step_down (guint16 bits)
{
  if ((bits & 0x7fff) == 0)
    return 0x8001;
  return (guint16) (bits & 0x8000 ? bits + 1 : bits - 1);
}

G_END_DECLS
