/* gnn-philox-private.h: the Philox4x32-10 generator behind every random stream of gnn
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One implementation for the CPU backend's random kernels, the reference backend's and the
 * data loader's shuffle. It is static inline so that loadable backend modules, which see only
 * the exported symbols of libgnn, use this same code.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011): four
 * 32-bit random words for a 64-bit counter and a 64-bit key. The counter (low word, high word,
 * 0, 0) goes through ten rounds; round r uses the key (k0 + r * 0x9E3779B9, k1 + r * 0xBB67AE85).
 * One round maps (c0, c1, c2, c3) to (hi (M1 * c2) ^ c1 ^ k0, lo (M1 * c2), hi (M0 * c0) ^ c3 ^ k1,
 * lo (M0 * c0)). Counter 0 under key 0 gives 6627e8d5 e169c58d bc57ac4c 9b00dbd8, the published
 * known answer. */
static inline void
gnn_philox4x32 (guint64 counter,
                guint64 key,
                guint32 out[4])
{
  guint32 c0 = (guint32) counter, c1 = (guint32) (counter >> 32), c2 = 0, c3 = 0;
  guint32 k0 = (guint32) key, k1 = (guint32) (key >> 32);

  for (int r = 0; r < 10; r++)
    {
      guint64 p0 = (guint64) 0xD2511F53u * c0;
      guint64 p1 = (guint64) 0xCD9E8D57u * c2;
      guint32 n0 = (guint32) (p1 >> 32) ^ c1 ^ k0;
      guint32 n1 = (guint32) p1;
      guint32 n2 = (guint32) (p0 >> 32) ^ c3 ^ k1;
      guint32 n3 = (guint32) p0;

      c0 = n0;
      c1 = n1;
      c2 = n2;
      c3 = n3;
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

/* One step of a Fisher-Yates shuffle of n items, for i = n down to 2: the index in [0, i) that
 * position i - 1 swaps with, from the first two words of Philox at @counter under @key (the bias
 * of a 64-bit modulo by i < 2^32 is negligible). The data loader's shuffle and randperm draw
 * their permutations with it. */
static inline guint64
gnn_philox_swap_index (guint64 counter,
                       guint64 key,
                       guint64 i)
{
  guint32 w[4];

  gnn_philox4x32 (counter, key, w);
  return ((((guint64) w[0]) << 32) | w[1]) % i;
}

G_END_DECLS
